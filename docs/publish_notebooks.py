"""Rendered copies of the notebooks for readers who do not run them: each notebook in `notebooks/` is executed
top to bottom in a fresh kernel and written as `docs/notebooks/<name>.html` — its markdown, code and every output,
plots interactive (Bokeh) — that opens offline from a clone.

    .venv/bin/python docs/publish_notebooks.py              # all notebooks (about three minutes)
    .venv/bin/python docs/publish_notebooks.py tour.ipynb   # one

The notebooks load BokehJS and Panel inline (`pn.extension(inline=True)`, `hv.extension("bokeh", inline=True)`): an
executed notebook carries these 3.8 MB of JavaScript in several outputs (each extension call, each twice, as
`application/javascript` and as HoloViews' own load MIME type), which made an executed notebook 3–16 MB. Here each
distinct script is written once to `docs/notebooks/resources/<hash>.js`, shared by the pages, and loaded from there
(a local file, not a CDN); everything else is inlined.
"""

from __future__ import annotations

import hashlib
import html
import sys
from pathlib import Path

import markdown
import nbformat
import panel
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PUBLISHED = ROOT / "docs" / "notebooks"
RESOURCES = "resources"
LOADERS = ("application/javascript", "application/vnd.holoviews_load.v0+json")  # the same script, twice
# Panel's inline loader leaves out the notifications' library (in Jupyter it comes through require.js paths from a
# CDN): a page with a notification area loads Panel's own copy.
NOTYF = Path(panel.__file__).parent / "dist" / "bundled" / "notificationarea" / "notyf@3" / "notyf.min.js"
STYLE = """body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; }
pre.code { background: #f5f5f5; padding: 0.6em; overflow-x: auto; border-left: 3px solid #4c72b0; }
pre.stream { padding: 0.3em 0.6em; overflow-x: auto; }
.output { margin: 0.4em 0 1.2em; overflow-x: auto; }"""


def executed(path: Path) -> nbformat.NotebookNode:
    """The notebook at `path`, run top to bottom in a fresh kernel with the notebooks folder as working directory."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    return notebook


def _script(source: str, scripts: dict[str, str]) -> str:
    """A <script> loading `source` from resources/<hash>.js (kept in `scripts`: hash → source)."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]
    scripts[digest] = source
    return f'<script src="{RESOURCES}/{digest}.js"></script>'


def _output(output, scripts: dict[str, str], loaded: set[str]) -> str:
    """The HTML of one cell output; a loader script already on the page is not loaded again."""
    if output.output_type == "stream":  # a line rewritten in place (carriage returns) shows its last state
        text = "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1] for line in output.text.split("\n"))
        return f'<pre class="stream">{html.escape(text)}</pre>'
    if output.output_type == "error":
        return f'<pre class="stream">{html.escape(output.ename)}: {html.escape(output.evalue)}</pre>'
    data = output.get("data", {})
    parts = []
    loader = next((data[kind] for kind in LOADERS if kind in data), None)
    if loader is not None and loader not in loaded:
        loaded.add(loader)
        parts.append(_script(loader, scripts))
    if "text/html" in data:
        parts.append(data["text/html"])
    elif "image/png" in data:
        parts.append(f'<img src="data:image/png;base64,{data["image/png"]}">')
    elif "text/markdown" in data:
        parts.append(markdown.markdown(data["text/markdown"], extensions=["tables"]))
    elif "text/plain" in data and loader is None:
        parts.append(f'<pre class="stream">{html.escape(data["text/plain"])}</pre>')
    return "".join(parts)


def page(notebook: nbformat.NotebookNode, title: str, scripts: dict[str, str]) -> str:
    """A standalone HTML page of an executed notebook; its loader scripts go into `scripts` (hash → source)."""
    body, loaded = [], set()
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            body.append(markdown.markdown(cell.source, extensions=["tables", "fenced_code"]))
        elif cell.cell_type == "code":
            body.append(f'<pre class="code"><code>{html.escape(cell.source)}</code></pre>')
            outputs = "".join(_output(output, scripts, loaded) for output in cell.get("outputs", []))
            body.append(f'<div class="output">{outputs}</div>')
    head = (
        _script(NOTYF.read_text(encoding="utf-8"), scripts) if any("NotificationArea" in part for part in body) else ""
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
        f"<style>{STYLE}</style>\n{head}\n</head>\n<body>\n"
        f"<p><em>A rendered copy of <code>notebooks/{html.escape(title)}</code>, executed by "
        f"<code>docs/publish_notebooks.py</code>; run the notebook itself to change it.</em></p>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def publish(names: list[str] | None = None, folder: Path = PUBLISHED) -> list[Path]:
    """Execute the notebooks `names` (default: all) and write their pages into `folder` and the scripts they load
    into `folder`/resources (scripts no page uses any more are removed when all notebooks are published)."""
    paths = [NOTEBOOKS / name for name in names] if names else sorted(NOTEBOOKS.glob("*.ipynb"))
    (folder / RESOURCES).mkdir(parents=True, exist_ok=True)
    scripts, written = {}, []
    for path in paths:
        target = folder / f"{path.stem}.html"
        target.write_text(page(executed(path), path.name, scripts), encoding="utf-8")
        written.append(target)
        print(
            f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: {target.stat().st_size / 1e6:.1f} MB"
        )
    for digest, source in scripts.items():
        (folder / RESOURCES / f"{digest}.js").write_text(source, encoding="utf-8")
    if not names:
        for stale in (folder / RESOURCES).glob("*.js"):
            if stale.stem not in scripts:
                stale.unlink()
    return written


if __name__ == "__main__":
    publish(sys.argv[1:] or None)
