"""Figures that start empty. Bokeh fits an automatic range to the data of a figure's renderers; with no data yet it
cannot, and logs "could not set initial ranges" on every repaint (about 20 warnings per fresh page). An invisible
placeholder gives such a figure a sensible first extent and is hidden once real data are drawn; hidden renderers do
not count towards the ranges (`only_visible`), so from then on the axes fit the data alone (and legend-hidden runs)."""
from __future__ import annotations

from bokeh.models import DataRange1d, GlyphRenderer
from bokeh.plotting import figure


def placeholder(fig: figure, x: tuple[float, float] = (0.0, 1.0), y: tuple[float, float] = (0.0, 1.0)) -> GlyphRenderer:
    """An invisible two-point renderer spanning x × y in `fig` (positive values for a log axis); set its `visible`
    to whether the figure has no other data."""
    for axis_range in (fig.x_range, fig.y_range):
        if isinstance(axis_range, DataRange1d):
            axis_range.only_visible = True
    return fig.scatter(list(x), list(y), alpha=0.0, size=1)
