"""Axis ranges of figures that start empty. Bokeh fits an automatic range (`DataRange1d`) to the data of a figure's
renderers; with no data yet it cannot, and logs "could not set initial ranges" on every repaint (about 20 warnings
per fresh page). Two remedies:

- `fit_range`: the live figures (training curves, race, MCMC traces) have explicit `Range1d`s that the server fits
  to the data it sends (while data arrive they follow it; once paused, a zoom stays).
- `Placeholder`: an invisible extent for a figure whose data always lie around it (histograms of θ ∈ (0, ¼], the
  MCMC-versus-VI scatter of probabilities). Bokeh 3.9 keeps fitting the first extent a figure showed even after the
  placeholder leaves, so it must lie where the data will be.
"""
from __future__ import annotations

import numpy as np
from bokeh.models import Range1d
from bokeh.plotting import figure


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


class Placeholder:
    """An invisible extent x × y in `fig`; `show(False)` removes it once the figure has data, `show(True)` puts it
    back when the figure is empty again."""

    def __init__(self, fig: figure, x: tuple[float, float] = (0.0, 1.0), y: tuple[float, float] = (0.0, 1.0)):
        self._figure = fig
        self.renderer = fig.scatter(list(x), list(y), alpha=0.0, size=1)
        self.shown = True

    def show(self, shown: bool) -> None:
        if shown == self.shown:
            return
        others = [r for r in self._figure.renderers if r is not self.renderer]
        self._figure.renderers = others + [self.renderer] if shown else others
        self.shown = shown
