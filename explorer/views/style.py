"""Styling shared by the views, for both HoloViews plotting backends: Bokeh (interactive: notebooks, dashboard) and
matplotlib (static files: PNG, SVG, animations).

The two backends name some options differently (marker "circle" / "o", size in px / area in pt²), so each view sets
its options once per backend through `styled`. Importing this module loads both backends' plotting extensions
(Bokeh first: it stays HoloViews' current backend unless the user chose another with `hv.extension`).
"""

from __future__ import annotations

import holoviews as hv
import holoviews.plotting.bokeh  # noqa: F401  (registers the Bokeh backend's options)
import holoviews.plotting.mpl  # noqa: F401  (registers the matplotlib backend's options)
import numpy as np
from bokeh.models import PlainText
from bokeh.palettes import Category10_10, RdBu11, interp_palette, turbo
from matplotlib import pyplot as plt
from matplotlib.ticker import LogFormatter
from matplotlib.transforms import ScaledTranslation

CLASS_COLORS = ["#2166ac", "#b2182b"]  # −1 blue, +1 red: the ends of the probability palette
P_PALETTE = interp_palette(RdBu11, 256)  # p = 0 blue … p = 1 red (Bokeh orders RdBu from blue)
PROBABILITY_CMAP = list(P_PALETTE)  # p = 0 blue … p = 1 red, as on the Train tab
SD_CMAP = "viridis"
RUN_COLORS = list(Category10_10)
UNCERTAINTY_CMAP = "magma"
LIGHTEN = 0.2  # share of white in the K-class surface's class colours, so points in their class colour stand out


def class_colors(K: int) -> list[str]:
    """K distinct class colours ("#rrggbb"): for two classes `CLASS_COLORS` (blue, red), for 3…10 the Category10
    palette (blue, orange, green, red, …), beyond that K hues of the Turbo map."""
    if K == 2:
        return list(CLASS_COLORS)
    return list(Category10_10[:K]) if K <= 10 else list(turbo(K))


def class_mixture(P: np.ndarray, lighten: float = LIGHTEN) -> np.ndarray:
    """The K-class surface's colours: each class colour (`class_colors`, mixed with `lighten` of white) weighted by
    its probability, RGB = Σ_k p_k colour_k, for class probabilities P (..., K) → (..., 3) in [0, 1]. A certain class
    shows its own colour; a point torn between classes a blend of theirs."""
    P = np.asarray(P, dtype=float)
    colours = np.array([[int(c[i : i + 2], 16) / 255.0 for i in (1, 3, 5)] for c in class_colors(P.shape[-1])])
    colours = (1.0 - lighten) * colours + lighten
    return np.clip(P @ colours, 0.0, 1.0)


# Markers by name, per backend: (Bokeh marker, matplotlib marker).
_MARKERS = {
    "circle": ("circle", "o"),
    "triangle": ("triangle", "^"),
    "x": ("x", "X"),
    "square": ("square", "s"),
    "diamond": ("diamond", "D"),
}


def styled(
    element,
    *,
    marker: str | None = None,
    size: float | None = None,
    line_width: float | None = None,
    dashed: bool = False,
    bokeh: dict | None = None,
    matplotlib: dict | None = None,
    **common,
):
    """`element` with options `common` (names both backends know: color, alpha, cmap, xlabel, title, logx, …) set
    for both backends, plus a `marker` name from `_MARKERS`, a marker `size` in px (matplotlib: area s = size²),
    a `line_width` (matplotlib: linewidth), a `dashed` line, and backend-only options `bokeh` / `matplotlib`."""
    b, m = dict(common), dict(common)
    if dashed:
        b["line_dash"], m["linestyle"] = "dashed", "dashed"
    if marker is not None:
        b["marker"], m["marker"] = _MARKERS[marker]
    if size is not None:
        b["size"], m["s"] = size, size * size
    if line_width is not None:
        b["line_width"], m["linewidth"] = line_width, line_width
    return element.opts(**b, **(bokeh or {}), backend="bokeh").opts(**m, **(matplotlib or {}), backend="matplotlib")


def curve(xy, kdim, vdim, label: str, group: str = "Curve", **style) -> hv.Curve:
    """A line through xy = (x, y) on the dimensions `kdim` and `vdim`, labelled (and grouped), `styled` by `style`."""
    return styled(hv.Curve(xy, kdims=[kdim], vdims=[vdim], group=group, label=label), **style)


def scatter(xy, kdim, vdim, label: str, group: str = "Scatter", **style) -> hv.Scatter:
    """Markers at xy = (x, y), as `curve` draws a line."""
    return styled(hv.Scatter(xy, kdims=[kdim], vdims=[vdim], group=group, label=label), **style)


def mean_line(value: float, label: str, *, color: str = "crimson", line_width: float = 2) -> hv.VLine:
    """A distribution's mean at `value`: a dashed vertical line (group "Mean") labelled `label`."""
    return styled(hv.VLine(value, group="Mean", label=label), color=color, line_width=line_width, dashed=True)


def panel(layers, group: str = "Overlay", label: str = "", *, width: int = 460, height: int = 300, **options):
    """One panel of a view: the Overlay of `layers` (its `group`, `label`), `styled` by `options`, `sized`."""
    return sized(styled(hv.Overlay(layers, group=group, label=label), **options), width=width, height=height)


def grid(panels, cols: int, *, matplotlib: dict | None = None, **options) -> hv.Layout:
    """`panels` in a Layout of `cols` columns, `styled` by `options`, without matplotlib's panel letters."""
    return styled(hv.Layout(panels).cols(cols), matplotlib=dict(sublabel_format="", **(matplotlib or {})), **options)


def sized(element, *, width: int = 420, height: int = 360):
    """A plot panel per backend: width × height px in Bokeh; in matplotlib the same height/width ratio of the axes
    box (set by a hook: HoloViews' numeric `aspect` is a data aspect, which distorts log axes) in a figure scaled
    with the width, a legend at the bottom below the x-axis label (`legend_below`), log axes labelled with plain
    numbers (0.06, 0.1, 1.15 rather than 6×10⁻², 10⁻¹, 1.15×10⁰) and legend entries shown literally
    (`literal_legend`)."""

    def box_aspect(plot, _element):
        axis = plot.handles["axis"]
        axis.set_aspect("auto")
        axis.set_box_aspect(height / width)
        for scale in (axis.xaxis, axis.yaxis):
            if scale.get_scale() == "log":
                scale.set_major_formatter(PlainLogFormatter())
                scale.set_minor_formatter(PlainLogFormatter(minor_thresholds=(1, 0.4)))
        if getattr(plot, "legend_position", None) == "bottom" and axis.get_legend() is not None:
            legend_below(axis, plot.legend_cols or 3)

    return (
        literal_legend(element)
        .opts(width=width, height=height, backend="bokeh")
        .opts(hooks=[box_aspect], fig_size=100 * width / 300, backend="matplotlib")
    )


class PlainLogFormatter(LogFormatter):
    """Tick labels of a matplotlib log axis in plain numbers with at most three significant digits (0.06, 0.2, 1.15,
    20000), where matplotlib's LogFormatter writes 6e−02 and 2e−01."""

    def _num_to_string(self, x, vmin, vmax):
        return np.format_float_positional(x, precision=3, unique=True, fractional=False, trim="-")


def legend_below(axis, columns: int) -> None:
    """Redraw a matplotlib axes' legend centred below its x-axis label, each column as wide as its text. (HoloViews'
    "bottom" legend spreads its columns over the axes' width, so at slide sizes a marker sat on its neighbour's
    label, and it covered the x-axis label.)"""
    old = axis.get_legend()
    labels = [text.get_text() for text in old.get_texts()]
    size = old.get_texts()[0].get_fontsize() if labels else plt.rcParams["legend.fontsize"]
    ticks = max([label.get_fontsize() for label in axis.get_xticklabels()] or [size])
    # below the tick labels and the axis label: their heights and the pads between them, in points
    drop = ScaledTranslation(0.0, -(ticks + axis.xaxis.label.get_fontsize() + 16.0) / 72.0, axis.figure.dpi_scale_trans)
    handles = old.legend_handles
    old.remove()
    axis.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=axis.transAxes + drop,
        ncol=columns,
        fontsize=size,
        frameon=True,
        borderaxespad=0.0,
    )


def literal(text: str) -> str:
    """`text` for a matplotlib label, shown literally: "$" escaped, so "$x$" is not typeset as mathtext."""
    return text.replace("$", r"\$")


def literal_legend(element):
    """`element` whose matplotlib legend shows the labels of an Overlay's layers (run, method, data set names, …)
    literally: each label with a "$" is shown as `literal(label)` (HoloViews' `legend_labels`). Bokeh legends show
    text as it is."""
    if not isinstance(element, hv.Overlay):
        return element
    escaped = {layer.label: literal(layer.label) for layer in element if "$" in layer.label}
    return element.opts(legend_labels=escaped, backend="matplotlib") if escaped else element


def plain_axis_labels(element, xlabel: str, ylabel: str):
    """`element` whose Bokeh axis labels show `xlabel`, `ylabel` literally, as user-given names must be (Bokeh would
    typeset "$$x$$" as TeX): they become `PlainText`. (For matplotlib, label the dimensions with `literal`.)"""

    def bokeh_labels(plot, _element):
        plot.state.xaxis[0].axis_label = PlainText(text=xlabel)
        plot.state.yaxis[0].axis_label = PlainText(text=ylabel)

    return element.opts(hooks=[bokeh_labels], backend="bokeh")
