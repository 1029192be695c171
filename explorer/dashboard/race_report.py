"""A self-contained HTML page of a race: who won and by how much in words (`verdict`), and the race curves (test NLL
and error against training time with the band lines and settle markers: `views.race.race_curves`), the NLL axis
fitted to the bulk of the curves (`robust_range`); `verdict` and `robust_range` are shared with the Race tab.

The race benchmark (`python -m explorer bench race`) writes its numbers as JSON and draws nothing; this module, in
the dashboard package (the only one that imports Bokeh and HoloViews), renders them:

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
import numpy as np
from bokeh.embed import file_html
from bokeh.layouts import column
from bokeh.models import Div
from bokeh.resources import INLINE

from explorer.views.race import NAMES, race_curves, race_fold, robust_range

__all__ = ["NAMES", "race_report_from_json", "robust_range", "verdict", "write_race_html"]


def verdict(best: float, rows: list[dict], finished: bool) -> str:
    """Who won (or leads) the race and by how much, in words. The winner is the first to settle within 1% of the
    best final NLL `best` (it got there and stayed: DESIGN §6); if none has settled, the lowest final NLL."""
    if not rows:
        return ""
    name = {r["method"]: NAMES.get(r["method"], r["method"]) for r in rows}
    wins, leads = ("won", "") if finished else ("leads", " so far")
    settled = sorted((r for r in rows if np.isfinite(r["settled"])), key=lambda r: r["settled"])
    if settled:
        winner, others = settled[0], [r for r in rows if r is not settled[0]]
        words = [
            (
                f"**{name[winner['method']]} {wins}**{leads}: it came within 1% of the best final test NLL "
                f"({best:.4f}) to stay after {winner['settled']:.2g} s of training"
            )
        ]
        for r in others:
            if np.isfinite(r["settled"]):
                ratio = r["settled"] / winner["settled"] if winner["settled"] > 0 else float("inf")
                words.append(f"{name[r['method']]} after {r['settled']:.2g} s ({ratio:.2g}× as long)")
            elif np.isfinite(r["first"]):
                words.append(
                    f"{name[r['method']]} reached the band at {r['first']:.2g} s but did not stay "
                    f"(final NLL {r['final_nll']:.4f})"
                )
            else:
                words.append(
                    f"{name[r['method']]} {'never' if finished else 'has not yet'} reached it "
                    f"(final NLL {r['final_nll']:.4f})"
                )
        return "; ".join(words) + "."
    ranked = sorted(rows, key=lambda r: r["final_nll"])
    winner = ranked[0]
    words = [
        (
            f"No method {'settled' if finished else 'has settled yet'} within 1% of the best final test NLL "
            f"({best:.4f}). Lowest final NLL: **{name[winner['method']]}** ({winner['final_nll']:.4f})"
        )
    ]
    words += [
        f"{name[r['method']]} {r['final_nll']:.4f} (+{100 * (r['final_nll'] / winner['final_nll'] - 1):.1f}%)"
        for r in ranked[1:]
    ]
    return "; ".join(words) + "."


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
    best = race["best_nll"]
    rows = [
        {"method": method, "first": r["first_0.01"], "settled": r["settled_0.01"], "final_nll": r["final_nll"]}
        for method, r in race["methods"].items()
        if "first_0.01" in r
    ]
    words = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(verdict(best, rows, finished=True)))
    summary = (
        f"<p>{words}</p>"
        + "<p>"
        + "; ".join(
            f"{html.escape(method)}: final NLL {r['final_nll']:.4f}, "
            + (
                f"settled within 1% after {r['settled_0.01']:.3g} s"
                if math.isfinite(r["settled_0.01"])
                else "not settled within 1%"
            )
            for method, r in race["methods"].items()
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
