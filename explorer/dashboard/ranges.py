"""Axis ranges of figures that start empty. Bokeh fits an automatic range (`DataRange1d`) to the data of a figure's
renderers; with no data yet it cannot, and logs "could not set initial ranges" on every repaint (about 20 warnings
per fresh page). The remedy, `fit_range`: the live raw-Bokeh figures (training curves, race, MCMC traces) have
explicit `Range1d`s that the server fits to the data it sends (while data arrive they follow it; once paused, a
zoom stays). The HoloViews views set explicit ranges themselves.
"""
from __future__ import annotations

import numpy as np
from bokeh.models import Range1d


def fit_range(axis_range: Range1d, arrays, log: bool = False, pad: float = 0.05) -> None:
    """Set `axis_range` to the extent of the finite values (positive ones on a log axis) of `arrays`, padded by `pad`
    of the span (of log10 on a log axis); left as it is when there are none."""
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
        low, high = 10.0 ** low, 10.0 ** high
    if (axis_range.start, axis_range.end) != (low, high):
        axis_range.update(start=low, end=high)
