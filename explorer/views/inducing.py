"""The inducing-point study (paper Fig. 3) as HoloViews views, from the JSON of `python -m explorer bench inducing`:
test error (or NLL) against training time for each number m of inducing points, one panel per method; or the final
value against m, one curve per method.

    study = json.loads(Path("inducing.json").read_text())
    inducing_study(study)                     # error against time, per m
    inducing_study(study, x="m", quantity="nll")

Curves are averaged over the folds on a common log-spaced time grid, reading each fold's trace as the benchmark's
table does (`explorer.studies.inducing.value_at`: the last evaluation at or before t).
"""

from __future__ import annotations

from itertools import cycle

import holoviews as hv
import numpy as np

from explorer.studies.inducing import value_at
from explorer.views.race import NAMES
from explorer.views.style import RUN_COLORS, curve, grid, panel, scatter

QUANTITIES = {"error": ("test_error", "test error rate"), "nll": ("test_nll", "test negative log-likelihood")}
TIME_POINTS = 60


def _fits(study: dict) -> list[dict]:
    fits = study.get("fits")
    if not fits:
        raise ValueError("no fits in this study (is it the JSON of `python -m explorer bench inducing`?)")
    return fits


def mean_trace(fits: list[dict], column: str, times: np.ndarray) -> np.ndarray:
    """The mean over `fits` (folds) of each trace's `column` read at `times` (k,) (NaN where no fold has a step
    before t; a fold without one yet is left out of the mean)."""
    values = np.array(
        [
            [
                value_at(np.asarray(f["trace"]["seconds"], float), np.asarray(f["trace"][column], float), t)
                for t in times
            ]
            for f in fits
        ]
    )
    counted = np.isfinite(values).sum(axis=0)
    return np.where(counted > 0, np.nansum(values, axis=0) / np.maximum(counted, 1), np.nan)


def study_times(study: dict, points: int = TIME_POINTS) -> np.ndarray:
    """A log-spaced grid (points,) from the earliest positive evaluation time to the latest of all fits."""
    seconds = np.concatenate([np.asarray(f["trace"]["seconds"], float) for f in _fits(study)])
    positive = seconds[seconds > 0]
    if not len(positive):
        raise ValueError("no fit of this study has an evaluation after its first step")
    return np.geomspace(positive.min(), positive.max(), points)


def inducing_study(study: dict, *, quantity: str = "error", x: str = "seconds") -> hv.Layout | hv.Overlay:
    """x = "seconds": a Layout with one panel per method, `quantity` ("error" or "nll") against training time (log
    axis), one curve per m (fold mean). x = "m": an Overlay, the final `quantity` (mean over folds of the median of
    the final five evaluations) against m (log₂ axis), one curve per method."""
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {list(QUANTITIES)}, got {quantity!r}")
    if x not in ("seconds", "m"):
        raise ValueError(f"x must be 'seconds' or 'm', got {x!r}")
    column, label = QUANTITIES[quantity]
    y_dim = hv.Dimension(column, label=label)
    fits = _fits(study)
    methods = list(dict.fromkeys(f["method"] for f in fits))
    ms = sorted({int(f["m"]) for f in fits})
    if x == "m":
        m_dim = hv.Dimension("m", label="inducing points m")
        curves = []
        for method, color in zip(methods, cycle(RUN_COLORS)):
            finals = [
                np.mean([f["final"][quantity] for f in fits if f["method"] == method and f["m"] == m]) for m in ms
            ]
            name = NAMES.get(method, method)  # a line through the m's, a marker at each
            curves += [
                curve((ms, finals), m_dim, y_dim, name, color=color, logx=True, line_width=2),
                scatter((ms, finals), m_dim, y_dim, name, "Final", color=color, logx=True, marker="circle", size=8),
            ]
        title = f"final {label} against m"
        return panel(
            curves, "Inducing", quantity, width=560, height=340, title=title, logx=True, legend_position="right"
        )
    times = study_times(study)
    t_dim = hv.Dimension("seconds", label="training time (s, log scale; evaluation excluded)")
    panels = []
    for method in methods:
        folds = {m: [f for f in fits if f["method"] == method and f["m"] == m] for m in ms}
        curves = [
            curve(
                (times, mean_trace(folds[m], column, times)),
                t_dim,
                y_dim,
                f"m = {m}",
                color=color,
                line_width=2,
                logx=True,
            )
            for m, color in zip(ms, cycle(RUN_COLORS))
        ]
        panels.append(
            panel(curves, "Inducing", method, title=NAMES.get(method, method), logx=True, legend_position="right")
        )
    return grid(panels, min(len(panels), 3), shared_axes=True)
