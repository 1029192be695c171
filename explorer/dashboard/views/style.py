"""Styling shared by the views, for both HoloViews plotting backends: Bokeh (interactive: notebooks, dashboard) and
matplotlib (static files: PNG, SVG, animations).

The two backends name some options differently (marker "circle" / "o", size in px / area in pt²), so each view sets
its options once per backend through `styled`. Importing this module loads both backends' plotting extensions
(Bokeh first: it stays HoloViews' current backend unless the user chose another with `hv.extension`).
"""
from __future__ import annotations

import holoviews.plotting.bokeh  # noqa: F401  (registers the Bokeh backend's options)
import holoviews.plotting.mpl  # noqa: F401  (registers the matplotlib backend's options)
from bokeh.models import PlainText
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


def sized(element, *, width: int = 420, height: int = 360):
    """A plot size per backend: width × height px in Bokeh; in matplotlib the same height/width ratio of the axes
    box (set by a hook: HoloViews' numeric `aspect` is a data aspect, which distorts log axes) in a figure scaled
    with the width."""
    def box_aspect(plot, _element):
        axis = plot.handles["axis"]
        axis.set_aspect("auto")
        axis.set_box_aspect(height / width)

    return element.opts(width=width, height=height, backend="bokeh").opts(
        hooks=[box_aspect], fig_size=100 * width / 300, backend="matplotlib")


def literal(text: str) -> str:
    """`text` for a matplotlib label, shown literally: "$" escaped, so "$x$" is not typeset as mathtext."""
    return text.replace("$", r"\$")


def plain_axis_labels(element, xlabel: str, ylabel: str):
    """`element` whose Bokeh axis labels show `xlabel`, `ylabel` literally, as user-given names must be (Bokeh would
    typeset "$$x$$" as TeX): they become `PlainText`. (For matplotlib, label the dimensions with `literal`.)"""
    def bokeh_labels(plot, _element):
        plot.state.xaxis[0].axis_label = PlainText(text=xlabel)
        plot.state.yaxis[0].axis_label = PlainText(text=ylabel)

    return element.opts(hooks=[bokeh_labels], backend="bokeh")
