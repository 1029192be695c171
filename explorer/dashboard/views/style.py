"""Styling shared by the views, for both HoloViews plotting backends: Bokeh (interactive: notebooks, dashboard) and
matplotlib (static files: PNG, SVG, animations).

The two backends name some options differently (marker "circle" / "o", size in px / area in pt²), so each view sets
its options once per backend through `styled`. Importing this module loads both backends' plotting extensions
(Bokeh first: it stays HoloViews' current backend unless the user chose another with `hv.extension`).
"""
from __future__ import annotations

import holoviews.plotting.bokeh  # noqa: F401  (registers the Bokeh backend's options)
import holoviews.plotting.mpl  # noqa: F401  (registers the matplotlib backend's options)
from bokeh.palettes import Category10_10

from explorer.dashboard.surface import CLASS_COLORS, P_PALETTE

BACKENDS = ("bokeh", "matplotlib")
PROBABILITY_CMAP = list(P_PALETTE)  # p = 0 blue … p = 1 red, as on the Train tab
SD_CMAP = "viridis"
CLASS_COLOR = {-1: CLASS_COLORS[0], 1: CLASS_COLORS[1]}
RUN_COLORS = list(Category10_10)

# Markers by name, per backend: (Bokeh marker, matplotlib marker).
_MARKERS = {"circle": ("circle", "o"), "triangle": ("triangle", "^"), "x": ("x", "X"), "square": ("square", "s"),
            "diamond": ("diamond", "D")}


def styled(element, *, marker: str | None = None, size: float | None = None, line_width: float | None = None,
           bokeh: dict | None = None, matplotlib: dict | None = None, **common):
    """`element` with options `common` (names both backends know: color, alpha, cmap, xlabel, title, logx, …) set
    for both backends, plus a `marker` name from `_MARKERS`, a marker `size` in px (matplotlib: area s = size²) and
    a `line_width` (matplotlib: linewidth), and backend-only options `bokeh` / `matplotlib`."""
    b, m = dict(common), dict(common)
    if marker is not None:
        b["marker"], m["marker"] = _MARKERS[marker]
    if size is not None:
        b["size"], m["s"] = size, size * size
    if line_width is not None:
        b["line_width"], m["linewidth"] = line_width, line_width
    return element.opts(**b, **(bokeh or {}), backend="bokeh").opts(**m, **(matplotlib or {}), backend="matplotlib")


def sized(element, *, width: int = 420, height: int = 360, aspect: float | None = None):
    """A plot size per backend: width × height px in Bokeh; in matplotlib the same aspect ratio (fig_size in %)."""
    return element.opts(width=width, height=height, backend="bokeh").opts(
        aspect=aspect if aspect is not None else width / height, fig_size=100 * width / 300, backend="matplotlib")
