"""Axis ranges of figures that start empty. Bokeh fits an automatic range (`DataRange1d`) to the data of a figure's
renderers; with no data yet it cannot, and logs "could not set initial ranges" on every repaint (about 20 warnings
per fresh page). The remedy, `fit_range`: the live raw-Bokeh figures (training curves, race, MCMC traces) have
explicit `Range1d`s (`live_figure`) that the server fits to the data it sends (while data arrive they follow it; once
paused, a zoom stays). The HoloViews views set explicit ranges themselves.

`log_ticks`: Bokeh's `LogTicker` falls back to evenly spaced ticks on a log axis that spans fewer decades than it
wants ticks (0.1, 0.2, …, 0.9 piled up under 1 on the ρ/kernel figure); a `FixedTicker` with these ticks does not.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import Range1d
from bokeh.plotting import figure


def live_figure(x: tuple[float, float] = (0.0, 1.0), y: tuple[float, float] = (0.0, 1.0), **options):
    """A full-width Bokeh figure with the usual tools whose data arrive later: explicit x and y ranges (`fit_range`
    fits them to the data; `x`, `y`: the ranges until then); `options` go to `figure`."""
    tools = "pan,wheel_zoom,box_zoom,reset,save"
    return figure(x_range=Range1d(*x), y_range=Range1d(*y), tools=tools, sizing_mode="stretch_width", **options)


def log_ticks(low: float, high: float) -> list[float]:
    """Ticks for a log axis from `low` to `high` (both > 0): 1, 2 and 5 times the powers of ten inside the range;
    only the powers where that makes more than ten ticks; on a range too narrow for two of those (where a log axis
    is nearly linear), evenly spaced round numbers, 2 to 5 of them."""
    powers = 10.0 ** np.arange(np.floor(np.log10(low)), np.ceil(np.log10(high)) + 1)
    ticks = _inside(np.outer(powers, (1.0, 2.0, 5.0)).ravel(), low, high)
    if len(ticks) > 10:
        return _inside(powers, low, high)
    if len(ticks) >= 2:
        return ticks
    for step in 10.0 ** np.floor(np.log10(high - low) - 1) * np.array([1.0, 2.0, 5.0, 10.0, 20.0, 50.0]):
        even = _inside(np.arange(np.ceil(low / step), np.floor(high / step) + 1) * step, low, high)
        if len(even) <= 5:
            return even
    return ticks


def _inside(ticks: np.ndarray, low: float, high: float) -> list[float]:
    return [float(f"{t:.6g}") for t in ticks if low * (1 - 1e-9) <= t <= high * (1 + 1e-9)]


def fit_range(axis_range: Range1d, arrays, log: bool = False, pad: float = 0.05, pixels: int = 0) -> None:
    """Set `axis_range` to the extent of the finite values (positive ones on a log axis) of `arrays`, padded by `pad`
    of the span (of log10 on a log axis); left as it is when there are none, or (`pixels`: the axis's length on the
    page, at most) when neither end would move by a pixel's worth (`moved`): nothing is sent to the page then, and
    every value stays inside (the padding is far wider than a pixel)."""
    values = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays] or [np.zeros(0)])
    values = values[np.isfinite(values) & ((values > 0) if log else True)]
    if not len(values):
        return
    low, high = float(values.min()), float(values.max())
    if log:
        low, high = np.log10(low), np.log10(high)
    span = high - low if high > low else (0.5 if log else max(abs(high), 1.0) * 0.1)
    low, high = low - pad * span, high + pad * span
    if log:
        low, high = 10.0**low, 10.0**high
    if moved(axis_range, (low, high), pixels, log):
        axis_range.update(start=low, end=high)


def moved(axis_range: Range1d, fitted: tuple[float, float], pixels: int = 0, log: bool = False) -> bool:
    """Whether the range `fitted` (low, high) differs from `axis_range`'s by a pixel's worth at either end, on an axis
    `pixels` long (0: by anything at all): 1/pixels of the larger span (of log10 on a log axis)."""
    now, new = (axis_range.start, axis_range.end), fitted
    if now == new:
        return False
    if pixels <= 0 or not all(np.isfinite(now)) or (log and min(now) <= 0):
        return True
    scale = np.log10 if log else (lambda v: v)
    now, new = [float(scale(v)) for v in now], [float(scale(v)) for v in new]
    pixel = max(now[1] - now[0], new[1] - new[0]) / pixels
    return abs(now[0] - new[0]) >= pixel or abs(now[1] - new[1]) >= pixel
