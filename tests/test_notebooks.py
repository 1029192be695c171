"""The notebooks run top to bottom in a fresh kernel (nbclient), so they never rot; they load BokehJS and Panel from
this machine (inline), so their plots show without the internet. Each notebook runs once, at its test sizes
($XGPC_NOTEBOOK_QUICK=1); the tests of its outputs share that run."""

import functools
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import Future
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


# The notebooks' test sizes: paper_figures.ipynb trains 0.5 s per fit for Fig. 2, Fig. 3 and Table 1 (4, 3 and 5 s
# otherwise), draws 2 × 100 Gibbs samples for Fig. 1 (2 × 300) and fits the wines in 1,000 iterations (3,000; test
# error 0 and 0.019, NLL 0.25 and 0.27 on splits 0 and 1, against the bounds 0.1 and 0.6), and the tour races 0.3 s per
# method (1 s otherwise), which still draw every figure, fill every row and give the verdict the tests read.
QUICK = {"XGPC_NOTEBOOK_QUICK": "1"}


# What runs each notebook: the tests that read a notebook's run (conftest.start_early starts the runs at the start of
# the session, one at a time beside the tests).
READERS = (
    "test_tour_runs_and_the_dashboard_follows_the_model",
    "test_pg_augmentation_notebook_runs_and_shows_the_learn_tab",
    "test_paper_figures_notebook_rebuilds_fig_1_to_3_and_table_1",
    "test_a_notebook_loads_bokehjs_and_panel_inline",
)
_runs: dict[str, Future] = {}
# Run by a Python of its own, so that the lane's thread imports nothing into this process (a module half imported
# there once broke matplotlib's look at sys.modules in a test running meanwhile): argv notebook, output file, folder.
RUN_NOTEBOOK = """
import sys
import nbformat
from nbclient import NotebookClient

source, output, folder = sys.argv[1:]
notebook = nbformat.read(source, as_version=4)
NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": folder}}).execute()
nbformat.write(notebook, output)
"""


def _execute(name: str) -> Path:
    """Run notebook `name` at its test sizes in a fresh kernel; returns the file of the run notebook."""
    output = Path(tempfile.mkdtemp(prefix="notebook-")) / name
    done = subprocess.run(
        [sys.executable, "-c", RUN_NOTEBOOK, str(NOTEBOOKS / name), str(output), str(NOTEBOOKS)],
        env={**os.environ, **QUICK},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stderr[-5000:]}"
    return output


def start_early(items, lane) -> None:
    """Run every notebook in `lane` if a selected test reads one (see conftest.start_early)."""
    if any(getattr(item, "originalname", item.name) in READERS for item in items):
        for path in sorted(NOTEBOOKS.glob("*.ipynb")):
            _runs[path.name] = lane.submit(_execute, path.name)


@functools.cache
def executed(name: str) -> nbformat.NotebookNode:
    """The notebook `name` run top to bottom in a fresh kernel at its test sizes, once for the session (do not
    change the result: other tests read it)."""
    output = _runs[name].result() if name in _runs else _execute(name)  # (not started early: outside pytest)
    return nbformat.read(output, as_version=4)


VIEW_TYPES = ("application/vnd.holoviews_exec.v0+json", "application/vnd.bokehjs_exec.v0+json")
HOLOVIEWS = "application/vnd.holoviews_exec.v0+json"


def rendered_view(cell) -> bool:
    """The cell's output holds a rendered Panel/Bokeh view (not the object's plain repr)."""
    return any(
        any(kind in output.get("data", {}) for kind in VIEW_TYPES)
        for output in cell.get("outputs", [])
        if output.output_type in ("display_data", "execute_result")
    )


def rendered_holoviews(cell) -> bool:
    """The cell's result is a HoloViews object rendered by Bokeh: its HTML with the HoloViews exec bundle, not only
    the object's text repr."""
    return any(
        HOLOVIEWS in output.get("data", {}) and "text/html" in output.get("data", {})
        for output in cell.get("outputs", [])
        if output.output_type in ("display_data", "execute_result")
    )


def cell_with(notebook, code: str):
    (cell,) = [cell for cell in notebook.cells if cell.cell_type == "code" and code in cell.source]
    return cell


def text_outputs(notebook) -> str:
    return "\n".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.output_type == "stream"
    )


@pytest.mark.slow
def test_tour_runs_and_the_dashboard_follows_the_model():
    notebook = executed("tour.ipynb")
    text = text_outputs(notebook)
    assert "iteration 300: 31 points on the live curves" in text
    assert "['run 1: first run', 'run 2 (now): inducing points 30 → 10']" in text
    assert "reached the band" in text and ("won" in text or "settled" in text)
    assert rendered_view(cell_with(notebook, "dashboard = Dashboard(model)"))
    assert rendered_holoviews(cell_with(notebook, "figure = views.decision_surface(model)"))
    assert rendered_holoviews(cell_with(notebook, "watched = live(model)"))
    assert "live views at iteration 400" in text
    assert "['figure.png', 'training.gif'] model still at iteration 400" in text


@pytest.mark.slow
def test_pg_augmentation_notebook_runs_and_shows_the_learn_tab():
    notebook = executed("pg_augmentation.ipynb")
    text = text_outputs(notebook)
    assert "density integrates to 1.0000000" in text
    assert "last minibatch: 100 points" in text
    last = cell_with(notebook, "learn = LearnTab()")
    assert rendered_view(last)
    assert not any("LearnTab at 0x" in str(output.get("data", {}).get("text/plain", "")) for output in last.outputs)
    for view in ("views.pg_density", "views.augmentation_identity", "views.augmented_bound", "views.minibatch_view"):
        assert rendered_holoviews(cell_with(notebook, view))


@pytest.mark.slow
def test_paper_figures_notebook_rebuilds_fig_1_to_3_and_table_1():
    notebook = executed("paper_figures.ipynb")
    text = text_outputs(notebook)
    assert "Fig. 1: " in text and "Table 1: " in text  # says which data it used (the paper's or the built-in set)
    assert "full X-GPC against MCMC: corr(mean)" in text and "sparse X-GPC against MCMC" in text
    # the multi-class section: a three-class fit that learned (chance: error 0.6, NLL log 3 = 1.10), rows summing to 1
    ((error, nll, sums),) = re.findall(
        r"three classes \(wine\): test error ([0-9.]+), test NLL ([0-9.]+) .* within ([0-9e.+-]+) of 1", text
    )
    assert float(error) < 0.1 and float(nll) < 0.6 and float(sums) < 1e-12, (error, nll, sums)
    for figure in (
        "views.mcmc_comparison(fig1)",
        "views.mcmc_traces(fig1.sampler)",
        "fig2 = views.race_curves",
        "views.inducing_study(study)",
        'views.inducing_study(study, x="m")',
        "paper = (views.mcmc_scatter",
        "probabilities = hv.Overlay(",
        "views.softmax_augmentation_view(mean[0], var[0]",
    ):
        assert rendered_holoviews(cell_with(notebook, figure)), figure
    (table,) = [
        output
        for output in cell_with(notebook, "table1.run(table_args)").outputs
        if "text/markdown" in output.get("data", {})
    ]
    assert "| data set (n, d) | method | error |" in table["data"]["text/markdown"]
    assert "xgpc" in table["data"]["text/markdown"] and "svgp-adam" in table["data"]["text/markdown"]
    for suffix in ("png", "svg", "html"):
        assert f"figures.{suffix}: " in text


def loading_scripts(notebook) -> list[str]:
    """The JavaScript of every output (the extensions' loaders among them)."""
    return [
        "".join(value) if isinstance(value, list) else value
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        for kind, value in output.get("data", {}).items()
        if "javascript" in kind or "load" in kind
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(path.name for path in NOTEBOOKS.glob("*.ipynb")))
def test_a_notebook_loads_bokehjs_and_panel_inline(name):
    """Issue 20.10: from a CDN, a classroom without internet sees blank outputs and no error. The notebook calls
    `extension(...)`, and every script its run's outputs carry (the extensions' loaders among them) is inline: the
    loaders fetch no URL."""
    source = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert any(cell.cell_type == "code" and "extension(" in cell.source for cell in source.cells)
    scripts = loading_scripts(executed(name))
    assert scripts and all("js_urls = [];" in script or "js_urls" not in script for script in scripts)
    assert any("js_urls = [];" in script for script in scripts)
    joined = "\n".join(scripts)
    assert "cdn.bokeh.org" not in joined and not re.search(r"(js|css)_urls = \[\s*['\"]https?:", joined)
    assert len(joined) > 1_000_000  # BokehJS itself came with the output


PUBLISHED = NOTEBOOKS.parent / "docs" / "notebooks"

CANVASES = """() => {
    const count = (root) => [...root.querySelectorAll("*")].reduce(
        (n, element) => n + (element.tagName === "CANVAS" ? 1 : 0) + (element.shadowRoot ? count(element.shadowRoot) : 0), 0);
    return count(document);
}"""


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb")))
def test_the_published_copy_draws_its_plots_offline(name, page):
    """Issue 20.10: a reader sees the figures without running the notebook and without the internet. The rendered
    copy (docs/publish_notebooks.py) opens from the clone with every http(s) request refused, loads each script
    once, and draws its Bokeh plots."""
    path = PUBLISHED / f"{name}.html"
    text = path.read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', text)
    assert scripts and all(s.startswith("resources/") and (PUBLISHED / s).is_file() for s in scripts)
    assert len(scripts) == len(set(scripts)) and path.stat().st_size < 3_000_000  # BokehJS once, not per output
    fetched, errors = [], []
    page.route(re.compile(r"^https?://"), lambda route: (fetched.append(route.request.url), route.abort()))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_function(f"({CANVASES})() >= 2", timeout=60_000)
    page.wait_for_timeout(1000)
    assert fetched == [] and errors == []
    assert notebook_cell_count(name) <= text.count('<pre class="code">')  # every code cell is shown


def notebook_cell_count(name: str) -> int:
    return sum(cell.cell_type == "code" for cell in nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells)


def test_a_page_loads_each_script_once_and_shows_progress_lines_as_they_ended():
    import importlib.util

    spec = importlib.util.spec_from_file_location("publish_notebooks", PUBLISHED.parent / "publish_notebooks.py")
    publish = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(publish)
    loader = {
        "application/javascript": "window.loaded = 1;",
        "application/vnd.holoviews_load.v0+json": "window.loaded = 1;",
    }
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Title <b>"),
            nbformat.v4.new_code_cell(
                "x < 1",
                outputs=[
                    nbformat.v4.new_output("display_data", data=loader),
                    nbformat.v4.new_output("display_data", data=dict(loader, **{"text/html": "<div id='plot'></div>"})),
                    nbformat.v4.new_output(
                        "stream", name="stdout", text="[ 10%] fold 1\r[ 50%] fold 1\r[100%] fold 1\ndone\n"
                    ),
                ],
            ),
        ]
    )
    scripts = {}
    text = publish.page(notebook, "toy.ipynb", scripts)
    assert list(scripts.values()) == ["window.loaded = 1;"] and text.count("<script src=") == 1
    assert "<div id='plot'></div>" in text and "x &lt; 1" in text and "<h1>Title" in text
    assert "[100%] fold 1\ndone" in text and "[ 10%]" not in text
