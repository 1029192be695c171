"""A self-contained HTML page of a race: who won and by how much in words (`verdict`), test NLL and error against
training time, the NLL axis fitted to the bulk of the curves (`robust_range`); both shared with the dashboard's Race
tab.

The race benchmark (`python -m explorer bench race`) writes its numbers as JSON and draws nothing; this module, in
the dashboard package (the only one that imports Bokeh), renders them:

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

import numpy as np
from bokeh.embed import file_html
from bokeh.layouts import column
from bokeh.models import Div, Range1d, Span
from bokeh.palettes import Category10_10
from bokeh.plotting import figure
from bokeh.resources import INLINE
from scipy.ndimage import median_filter

NAMES = {"xgpc": "X-GPC", "svgp-adam": "SVGP (Adam)", "svgp-natgrad": "SVGP (natural gradients)", "epgpc": "EPGPC"}


def robust_range(curves: list, window: int = 5, pad: float = 0.05) -> tuple[float, float] | None:
    """A y-range (low, high) for several curves that shows every curve whole except brief spikes: from the lowest
    value to the highest value of the curves smoothed by a running median over `window` points (a spike of up to
    window // 2 evaluations, e.g. one natural-gradient evaluation at NLL ≈ 7 among values near 0.3, is cut off
    instead of squashing every curve to the floor; the start of a falling curve is kept), padded by `pad` of the
    span. None when there are no finite values."""
    finite = [c[np.isfinite(c)] for c in (np.asarray(curve, dtype=float) for curve in curves)]
    finite = [c for c in finite if len(c)]
    if not finite:
        return None
    low = min(float(c.min()) for c in finite)
    high = max(float(median_filter(c, size=min(window, len(c)), mode="nearest").max()) for c in finite)
    span = high - low if high > low else max(abs(high), 1.0) * 0.1
    return low - pad * span, high + pad * span


def verdict(best: float, rows: list[dict], finished: bool) -> str:
    """Who won (or leads) the race and by how much, in words. The winner is the first to settle within 1% of the
    best NLL any method reached (it got there and stayed: DESIGN §6); if none has settled, the lowest final NLL."""
    if not rows:
        return ""
    name = {r["method"]: NAMES.get(r["method"], r["method"]) for r in rows}
    wins, leads = ("won", "") if finished else ("leads", " so far")
    settled = sorted((r for r in rows if np.isfinite(r["settled"])), key=lambda r: r["settled"])
    if settled:
        winner, others = settled[0], [r for r in rows if r is not settled[0]]
        words = [(f"**{name[winner['method']]} {wins}**{leads}: it came within 1% of the best test NLL ({best:.4f}) "
                  f"to stay after {winner['settled']:.2g} s of training")]
        for r in others:
            if np.isfinite(r["settled"]):
                ratio = r["settled"] / winner["settled"] if winner["settled"] > 0 else float("inf")
                words.append(f"{name[r['method']]} after {r['settled']:.2g} s ({ratio:.2g}× as long)")
            elif np.isfinite(r["first"]):
                words.append(f"{name[r['method']]} reached the band at {r['first']:.2g} s but did not stay "
                             f"(final NLL {r['final_nll']:.4f})")
            else:
                words.append(f"{name[r['method']]} {'never' if finished else 'has not yet'} reached it "
                             f"(final NLL {r['final_nll']:.4f})")
        return "; ".join(words) + "."
    ranked = sorted(rows, key=lambda r: r["final_nll"])
    winner = ranked[0]
    words = [(f"No method {'settled' if finished else 'has settled yet'} within 1% of the best test NLL "
              f"({best:.4f}). Lowest final NLL: **{name[winner['method']]}** ({winner['final_nll']:.4f})")]
    words += [f"{name[r['method']]} {r['final_nll']:.4f} (+{100 * (r['final_nll'] / winner['final_nll'] - 1):.1f}%)"
              for r in ranked[1:]]
    return "; ".join(words) + "."


def write_race_html(path: str | Path, title: str, traces: dict[str, dict], bands: dict[str, float],
                    summary_html: str = "") -> Path:
    """Write the race page. traces: method → {"seconds", "test_nll", "test_error"} arrays (one run each);
    bands: label → NLL level drawn as a dashed line (e.g. best final NLL + 1%); `title` is shown as text,
    `summary_html` as HTML (escape what it quotes). Returns the path."""
    x_label = "training time (s, log scale; evaluation excluded)"
    nll = figure(title="test NLL", x_axis_type="log", x_axis_label=x_label, y_axis_label="negative log-likelihood",
                 width=900, height=380, tools="pan,wheel_zoom,box_zoom,reset,save")
    error = figure(title="test error", x_axis_type="log", x_axis_label=x_label, y_axis_label="error rate",
                   width=900, height=300, x_range=nll.x_range, tools="pan,wheel_zoom,box_zoom,reset,save")
    for (method, trace), color in zip(traces.items(), Category10_10):
        seconds = np.asarray(trace["seconds"], dtype=float)
        shown = seconds > 0  # a log axis cannot show the evaluation before the first step
        label = NAMES.get(method, method)
        nll.line(seconds[shown], np.asarray(trace["test_nll"])[shown], legend_label=label, color=color, line_width=2)
        error.line(seconds[shown], np.asarray(trace["test_error"])[shown], legend_label=label, color=color,
                   line_width=2)
    fitted = robust_range([trace["test_nll"] for trace in traces.values()] + [list(bands.values())])
    if fitted is not None:
        nll.y_range = Range1d(*fitted)
    for label, level in bands.items():
        nll.add_layout(Span(location=level, dimension="width", line_dash="dashed", line_color="gray"))
        nll.line([], [], legend_label=f"{label}: {level:.4g}", color="gray", line_dash="dashed")
    for fig in (nll, error):
        fig.legend.click_policy = "hide"
        fig.legend.location = "top_right"
    page = column(Div(text=f"<h2>{html.escape(title)}</h2>{summary_html}"), nll, error)
    path = Path(path)
    path.write_text(file_html(page, INLINE, title))
    return path


def race_report_from_json(json_path: str | Path, html_path: str | Path, fold: int = 1) -> Path:
    """Render fold `fold` (1-based) of a race JSON written by `python -m explorer bench race` as an HTML page."""
    payload = json.loads(Path(json_path).read_text())
    folds = payload.get("folds")
    if not folds or not 1 <= fold <= len(folds):
        raise ValueError(f"{json_path}: no fold {fold} in this file (is it the JSON of `python -m explorer bench "
                         f"race`? it has {0 if not folds else len(folds)} folds)")
    race, config = folds[fold - 1], payload.get("config", {})
    best = race["best_nll"]
    rows = [{"method": method, "first": r["first_0.01"], "settled": r["settled_0.01"], "final_nll": r["final_nll"]}
            for method, r in race["methods"].items() if "first_0.01" in r]
    words = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(verdict(best, rows, finished=True)))
    summary = f"<p>{words}</p>" + "<p>" + "; ".join(
        f"{html.escape(method)}: final NLL {r['final_nll']:.4f}, "
        + (f"settled within 1% after {r['settled_0.01']:.3g} s" if math.isfinite(r["settled_0.01"])
           else "not settled within 1%")
        for method, r in race["methods"].items()) + "</p>"
    title = f"Race on {config.get('dataset', '?')} (fold {fold}, protocol {config.get('protocol', '?')})"
    return write_race_html(html_path, title, {method: r["trace"] for method, r in race["methods"].items()},
                           {f"best + {100 * band:g}%": best * (1 + band) for band in payload.get("bands", (0.01, 0.05))},
                           summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m explorer.dashboard.race_report",
                                     description="Draw a race JSON (python -m explorer bench race) as an HTML page")
    parser.add_argument("json_path", help="the race's JSON")
    parser.add_argument("html_path", help="the page to write")
    parser.add_argument("--fold", type=int, default=1, help="which fold to draw (default 1)")
    args = parser.parse_args(argv)
    print(f"wrote {race_report_from_json(args.json_path, args.html_path, args.fold)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
