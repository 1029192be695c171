"""A self-contained HTML page of a race: who won and by how much in words, and the race curves (test NLL and error
against training time with the band lines and settle markers: `views.race.race_curves`). The words are the verdict
of `explorer.studies.race.judge` on the JSON's traces, the one the Race tab and `bench race` give.

The race benchmark (`python -m explorer bench race`) writes its numbers as JSON and draws nothing; this renders them:

    python -m explorer.dashboard.race_report race-a9a.json race-a9a.html

Bokeh with inline resources, so the file opens without a network connection.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import re
from pathlib import Path

import holoviews as hv
from bokeh.embed import file_html
from bokeh.layouts import column
from bokeh.models import Div
from bokeh.resources import INLINE

from explorer.views.race import NAMES, judged, race_curves, race_fold

__all__ = ["NAMES", "race_report_from_json", "write_race_html"]


def write_race_html(path: str | Path, title: str, view: hv.Element, summary_html: str = "") -> Path:
    """Write the race page: `title` as text, `summary_html` as HTML (escape what it quotes), then `view` (e.g.
    `race_curves(race)`) rendered with Bokeh. Returns the path."""
    page = column(Div(text=f"<h2>{html.escape(title)}</h2>{summary_html}"), hv.render(view, backend="bokeh"))
    path = Path(path)
    path.write_text(file_html(page, INLINE, title))
    return path


def race_report_from_json(json_path: str | Path, html_path: str | Path, fold: int = 1) -> Path:
    """Render fold `fold` (1-based) of a race JSON written by `python -m explorer bench race` as an HTML page."""
    payload = json.loads(Path(json_path).read_text())
    try:
        race = race_fold(payload, fold)
    except ValueError as err:
        raise ValueError(f"{json_path}: {err}") from None
    config = payload.get("config", {})
    verdict = judged(race, budget=config.get("seconds"))
    words = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(verdict.words()))
    summary = (
        f"<p>{words}</p>"
        + "<p>"
        + "; ".join(
            f"{html.escape(NAMES.get(s.entrant, s.entrant))}: final NLL {s.final_nll:.4f}, "
            + (
                f"diverged at {s.diverged:.3g} s"
                if math.isfinite(s.diverged)
                else f"settled within {100 * verdict.band:g}% after {s.settled:.3g} s"
                if math.isfinite(s.settled)
                else f"not settled within {100 * verdict.band:g}%"
            )
            for s in verdict.standings
        )
        + "</p>"
    )
    title = f"Race on {config.get('dataset', '?')} (fold {fold}, protocol {config.get('protocol', '?')})"
    return write_race_html(html_path, title, race_curves(payload, fold=fold), summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m explorer.dashboard.race_report",
        description="Draw a race JSON (python -m explorer bench race) as an HTML page",
    )
    parser.add_argument("json_path", help="the race's JSON")
    parser.add_argument("html_path", help="the page to write")
    parser.add_argument("--fold", type=int, default=1, help="which fold to draw (default 1)")
    args = parser.parse_args(argv)
    print(f"wrote {race_report_from_json(args.json_path, args.html_path, args.fold)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
