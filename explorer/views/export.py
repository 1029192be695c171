"""Exports for slides and teaching: any HoloViews view (e.g. from `explorer.views`) as a PNG, SVG or
standalone HTML file, and an animation of the decision surface and the training traces as training proceeds.

    save(decision_surface(model) + training_traces(model), "figure.png")    # .png / .svg / .html by suffix
    animate_training(model, "training.gif", iterations=200, every=10)      # the model itself is not changed

PNG, SVG and animations are drawn by HoloViews' matplotlib backend (no display or browser needed), at exactly
width × height pixels (at least 300 × 200; text that would not fit is drawn smaller, down to half size, else the
export is refused); HTML is a Bokeh document with its JavaScript inline, so the file opens offline. An MP4 needs
ffmpeg on the machine (checked); a GIF needs only Pillow.
"""

from __future__ import annotations

import io
import tempfile
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import holoviews as hv
import numpy as np
from bokeh.resources import INLINE
from matplotlib import animation
from matplotlib import pyplot as plt
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.offsetbox import AnchoredText, DrawingArea
from matplotlib.ticker import FuncFormatter, MaxNLocator
from matplotlib.transforms import Bbox

from explorer.views import decision_surface_from_arrays, surface_arrays, training_traces
from explorer.views.surface import surface_plane
from explorer.views.traces import history_columns

STATIC_FORMATS = ("png", "svg")
FORMATS = STATIC_FORMATS + ("html",)
ANIMATION_FORMATS = {"gif": "pillow", "mp4": "ffmpeg"}  # suffix → matplotlib animation writer
MAX_FRAMES = 200
ANIMATED_TRACES = ("elbo", "test_nll", "test_error")
SURFACE_SAMPLES = 256
"""Quasi-Monte Carlo points of an animation's K-class surface (`surface_arrays(samples=…)`), a quarter of the
predictive's 1,024, within what a frame shows (BENCHMARKS.md, "export: the K-class animation")."""
# pyplot keeps process-wide state (its figure registry); sessions exporting at once take turns.
_MATPLOTLIB = threading.Lock()


def _format(path, formats) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in formats:
        raise ValueError(
            f"{path}: cannot tell the format from the suffix {Path(path).suffix!r}; use one of "
            f"{', '.join('.' + f for f in formats)}"
        )
    return suffix


def _whole(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")


def _figure_size(figure, width: int | None, height: int | None, dpi: int) -> None:
    """Make a matplotlib figure width × height px at `dpi` (None: keep the size HoloViews chose)."""
    _whole("dpi", dpi, 10, 1200)
    if (width is None) != (height is None):
        raise ValueError(f"give both width and height in pixels, or neither; got width={width!r}, height={height!r}")
    if width is not None:
        _whole("width", width, MIN_SIZE[0], 8000)
        _whole("height", height, MIN_SIZE[1], 8000)
        figure.set_size_inches(width / dpi, height / dpi)


def _panels(plot) -> list[tuple]:
    """(main axes, colour-bar axes or None, the bar's padding as a fraction of the figure's width) of every panel of
    a drawn HoloViews matplotlib plot."""
    bars = {}  # main axes → (its colour bar's axes, padding)
    for main, cax, padding in plot.traverse(
        lambda p: (p.handles.get("axis"), p.handles.get("cax"), getattr(p, "cbar_padding", 0.0))
    ):
        if main is not None and cax is not None:
            bars.setdefault(main, (cax, padding))
    caxes = [cax for cax, _ in bars.values()]
    return [(ax, *bars.get(ax, (None, 0.0))) for ax in plot.state.axes if ax not in caxes]


def _cell(ax) -> tuple[int, int]:
    """(row, column) of an axes in its layout's grid; (0, 0) outside a grid."""
    spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
    return (0, 0) if spec is None else (spec.rowspan.start, spec.colspan.start)


def fit_layout(plot, *, margin: float = 6.0, gap: float = 14.0, rounds: int = 3) -> None:
    """Move the panels of a HoloViews matplotlib `plot` (at its final size and dpi) so that all their text —
    titles, tick and axis labels, legends, panel letters, colour bars with their labels — lies inside the figure,
    `margin` px from its edges, and clear of the neighbouring panels by `gap` px: the layout's grid is kept; each
    column (row) gets the width (height) its widest (tallest) panel's text needs, and the panels share what is left
    in proportion to their current size. A few rounds, since a panel's text moves with it (and its ticks: matplotlib
    gives a widened panel more of them, whose labels may then meet); fewer where a round moves nothing. Texts are
    measured without drawing the figure, which is what takes the time. (matplotlib's tight and constrained layouts
    do not count HoloViews' colour bars, which it adds beside the grid: BENCHMARKS.md, "export: the layout".)"""
    figure = plot.state
    panels = _panels(plot)
    if type(figure.canvas) is not FigureCanvasAgg:
        FigureCanvasAgg(figure)
    renderer = figure.canvas.get_renderer()
    bars = {
        id(ax): (padding * figure.bbox.width, cax.get_window_extent(renderer).width)  # px, as HoloViews made them
        for ax, cax, padding in panels
        if cax is not None
    }
    panels = [(ax, cax) for ax, cax, _ in panels]

    def positions() -> list[tuple]:
        return [tuple(a.get_position().bounds) for ax, cax in panels for a in (ax, cax) if a is not None]

    before = None
    for _ in range(rounds):
        ticks_changed = False
        for ax, cax in panels:  # at the panels' present size: a wider panel gets more ticks from matplotlib
            ticks_changed |= _fewer_ticks_where_labels_meet(ax, renderer)
        now = positions()
        if not ticks_changed and before is not None and np.allclose(now, before, rtol=0.0, atol=1e-6):
            break  # the last round moved nothing and the ticks stay: another round would do the same
        before = now
        x_needs, y_needs = [], []
        for ax, cax in panels:
            _letter_beside(ax, cax, renderer)
            frame = Bbox.union([a.get_window_extent(renderer) for a in (ax, cax) if a is not None])
            texts = _text_boxes(ax, cax, renderer)
            row, column = _cell(ax)
            x_needs.append(_need(column, frame.x0, frame.x1, [(b.x0, b.x1) for b in texts]))
            y_needs.append(_need(-row, frame.y0, frame.y1, [(b.y0, b.y1) for b in texts]))  # row 0 on top
        width, height = figure.bbox.width, figure.bbox.height
        top = height - margin - _titles_on_top(figure, renderer, margin, gap)
        x_slots = _slots(x_needs, margin, width - margin, gap)
        y_slots = _slots(y_needs, margin, top, gap)
        for ax, cax in panels:
            (x0, x1), (y0, y1) = x_slots[_cell(ax)[1]], y_slots[-_cell(ax)[0]]
            pad, bar_width = bars.get(id(ax), (0.0, 0.0))
            x1 -= pad + bar_width
            ax.set_position([x0 / width, y0 / height, (x1 - x0) / width, (y1 - y0) / height])
            if cax is not None:
                ax.apply_aspect()
                active = ax.get_position()
                cax.set_position([active.x1 + pad / width, active.y0, bar_width / width, active.height])
    else:
        for ax, _ in panels:  # the ticks at the panels' final size
            _fewer_ticks_where_labels_meet(ax, renderer)
    for ax, cax in panels:
        _letter_beside(ax, cax, renderer)


def _titles_on_top(figure, renderer, margin: float, gap: float) -> float:
    """Put the figure's own titles (e.g. an animation frame's "iteration: 100") at its top edge, `margin` px below
    it; returns the px they take, with the `gap` under them."""
    titles = [text for text in figure.texts if text.get_visible() and text.get_text().strip()]
    for text in titles:
        text.set_verticalalignment("top")
        text.set_y(1.0 - margin / figure.bbox.height)
    return max((text.get_window_extent(renderer).height + gap for text in titles), default=0.0)


def _fewer_ticks_where_labels_meet(ax, renderer, gap: float = 3.0) -> bool:
    """On an axis of `ax` whose tick labels touch (long labels such as 0.0025 on a narrow panel, or 1.05, 1.1, 1.15
    on a log axis spanning less than a decade), keep fewer ticks (linear: `MaxNLocator`) or label every other tick
    (log; `style.sized` labels the views' log axes in plain numbers) until they stand apart by `gap` px. Returns
    whether it changed a locator or formatter. The tick labels are measured without drawing the figure: asking an
    axis for its tick labels updates them, and `apply_aspect` puts the axes where a draw would."""
    locator = ax.get_axes_locator()
    ax.apply_aspect(locator(ax, renderer) if locator else None)  # as `Axes.draw` does
    changed = False
    for axis in (ax.xaxis, ax.yaxis):
        log = axis.get_scale() == "log"
        formatters = (
            (axis.get_major_formatter, axis.set_major_formatter),
            (axis.get_minor_formatter, axis.set_minor_formatter),
        )
        for _ in range(4):
            low, high = sorted(axis.get_view_interval())
            inside = low - 1e-9 * (high - low), high + 1e-9 * (high - low)
            ticks = [
                (position, label)
                for positions, labels in (
                    (axis.get_majorticklocs(), axis.get_majorticklabels()),
                    (axis.get_minorticklocs(), axis.get_minorticklabels()) if log else ((), ()),
                )
                for position, label in zip(positions, labels)
                if inside[0] <= position <= inside[1] and label.get_text()
            ]
            ticks.sort(key=lambda tick: tick[0])
            shown = [label.get_window_extent(renderer) for _, label in ticks]
            meet = any(a.padded(gap / 2).overlaps(b.padded(gap / 2)) for a, b in zip(shown, shown[1:]))
            if not meet or len(shown) <= 2:
                break
            if log:
                kept = [position for position, _ in ticks[::2]]
                for get, setter in formatters:
                    setter(_only_at(get(), kept))
            else:
                axis.set_major_locator(MaxNLocator(nbins=len(shown) - 2))
            changed = True
    return changed


def _only_at(formatter, positions: list[float]) -> FuncFormatter:
    """`formatter` labelling only the ticks at `positions` (the others unlabelled)."""
    kept = np.asarray(positions)
    return FuncFormatter(lambda value, pos: formatter(value, pos) if np.any(np.isclose(value, kept, rtol=1e-9)) else "")


def _letter_beside(ax, cax, renderer, gap: float = 4.0) -> None:
    """Put the panel letter HoloViews anchors to `ax` (an AnchoredText at a fixed fraction of the axes, which a small
    panel's title or axis label then runs into) left of everything else the panel draws, level with its top."""
    letters = [artist for artist in ax.artists if isinstance(artist, AnchoredText)]
    if not letters:
        return
    for letter in letters:
        letter.set_in_layout(False)
    drawn = [a for a in (ax, cax) if a is not None]
    tight = Bbox.union([a.get_tightbbox(renderer) for a in drawn])
    for letter in letters:
        box = letter.get_window_extent(renderer)
        figure = ax.figure
        letter.loc = 2  # upper left corner at the anchor
        letter.set_bbox_to_anchor(
            ((tight.x0 - gap - box.width) / figure.bbox.width, tight.y1 / figure.bbox.height),
            transform=figure.transFigure,
        )
        letter.borderpad = letter.pad = 0.0
        letter.set_in_layout(True)


def _text_boxes(ax, cax, renderer) -> list:
    """Window extents (px) of what a panel draws around its axes: titles, both axes with their tick labels and
    labels, the legend, the panel letter and the colour bar with its ticks and label."""
    parts = [title for title in (ax.title, ax._left_title, ax._right_title) if title.get_text()]
    parts += [ax.xaxis, ax.yaxis] + [artist for artist in ax.artists if isinstance(artist, AnchoredText)]
    parts += [part for part in (ax.get_legend(), cax) if part is not None]
    boxes = [
        part.get_tightbbox(renderer) if hasattr(part, "get_tightbbox") else part.get_window_extent(renderer)
        for part in parts
    ]
    return [box for box in boxes if box is not None and box.width > 0 and box.height > 0]


def _need(index: int, start: float, end: float, texts: list[tuple[float, float]]) -> tuple:
    """Along one direction, what a panel (its frame from `start` to `end` px; texts as (start, end) px) needs:
    (grid index, frame length, px of text before the frame, px after it, and how far the texts that cross the
    frame's middle — a title, an x axis, a legend below — reach from the middle backwards and forwards: when the
    frame shrinks they stick out on both sides)."""
    middle = (start + end) / 2
    before = max([start - low for low, high in texts if high <= middle] + [0.0])
    after = max([high - end for low, high in texts if low >= middle] + [0.0])
    back = max([middle - low for low, high in texts if low < middle < high] + [0.0])
    forth = max([high - middle for low, high in texts if low < middle < high] + [0.0])
    return index, end - start, before, after, back, forth


def _slots(needs: list[tuple], low: float, high: float, gap: float) -> dict[int, tuple[float, float]]:
    """Along one direction of the figure, between `low` and `high` px, with `gap` px between columns (rows): the
    panels' needs (`_need`) → grid index → (frame start, frame end) in px of that column (row), in grid order. The
    frames keep their lengths' proportions at the largest scale at which every column's text fits."""
    columns = {}
    for index, *need in needs:
        columns[index] = tuple(max(a, b) for a, b in zip(columns.get(index, (0.0,) * 5), need))
    order = sorted(columns)

    centred = [True]  # whether texts crossing a frame's middle get room; given up when they cannot all fit

    def sides(index: int, frame: float) -> tuple[float, float]:
        _, before, after, back, forth = columns[index]
        if not centred[0]:
            return before, after
        return max(before, back - frame / 2), max(after, forth - frame / 2)

    def total(scale: float) -> float:
        return sum(columns[i][0] * scale + sum(sides(i, columns[i][0] * scale)) for i in order) + gap * (len(order) - 1)

    smallest, largest = 0.25, 1.0  # frames at least a quarter of their size; below that, long titles may overlap
    centred[0] = total(smallest) <= high - low
    while total(largest) < high - low:
        largest *= 2
    for _ in range(40):  # bisection: `total` grows with the scale
        middle = (smallest + largest) / 2
        smallest, largest = (middle, largest) if total(middle) <= high - low else (smallest, middle)
    slots, cursor = {}, low
    for index in order:
        frame = columns[index][0] * smallest
        before, after = sides(index, frame)
        slots[index] = (cursor + before, cursor + before + frame)
        cursor += before + frame + after + gap
    return slots


def render(view, fmt: str, *, width: int | None = None, height: int | None = None, dpi: int = 100) -> bytes:
    """The bytes of `view` (any HoloViews object) as fmt "png" or "svg" (matplotlib backend, width × height px at
    `dpi`, or the size HoloViews chooses when they are None, laid out by `laid_out`: where the text does not fit it
    is drawn at a lower dpi, which an SVG's size in points shows; a HoloMap shows its first frame) or "html"
    (standalone Bokeh document, resources inline; a HoloMap gets its widgets; the views' own Bokeh sizes apply)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not isinstance(view, hv.core.Dimensioned):
        raise TypeError(
            f"the view to export must be a HoloViews object (an element, overlay, layout or HoloMap, e.g. "
            f"from explorer.views), got {type(view).__name__}"
        )
    if fmt == "html":
        buffer = io.StringIO()
        hv.save(view, buffer, backend="bokeh", resources=INLINE, title="X-GPC Explorer")
        return buffer.getvalue().encode("utf-8")
    buffer = io.BytesIO()
    with _MATPLOTLIB:
        plot = laid_out(view, width=width, height=height, dpi=dpi)
        try:
            plot.state.savefig(buffer, format=fmt, dpi="figure")
        finally:
            plt.close(plot.state)
    return buffer.getvalue()


TEXT_SCALES = (1.0, 0.85, 0.7, 0.6, 0.5)  # text (and lines, markers) shrink to half size before an export is refused
MIN_SIZE = (300, 200)  # px: smaller than this, no figure of the explorer is legible


def laid_out(view, *, width: int | None = None, height: int | None = None, dpi: int = 100):
    """The HoloViews matplotlib plot of `view` at width × height px and `dpi` (None: the size HoloViews chooses),
    its panels placed by `fit_layout`; `plot.state` is the figure (close it with `plt.close` when done; save it at
    its own dpi, `dpi="figure"`). Where the text — titles, labels, tick labels, legends, panel letters — cannot fit
    in width × height px without running off the figure or into other text, everything drawn is shrunk (the figure
    keeps its pixel size at a lower dpi: `TEXT_SCALES`, down to half size); where even that does not fit, a
    ValueError says so and names the clash. Call it holding the matplotlib lock (`render` and `write_animation` do)."""
    plot = hv.renderer("matplotlib").get_plot(view)
    figure = plot.state
    try:
        _figure_size(figure, width, height, dpi)
        pixels = figure.get_size_inches() * dpi
        for scale in TEXT_SCALES:
            figure.set_dpi(dpi * scale)
            figure.set_size_inches(pixels[0] / (dpi * scale), pixels[1] / (dpi * scale))
            fit_layout(plot)
            clashes = text_clashes(figure)
            if not clashes:
                return plot
        raise ValueError(
            f"at {pixels[0]:.0f} × {pixels[1]:.0f} px the figure's text does not fit even at half size "
            f"({clashes[0]}{' and more' if len(clashes) > 1 else ''}): export it larger, or fewer panels"
        )
    except Exception:
        plt.close(figure)
        raise


class _RecordingRenderer(RendererAgg):
    """An Agg renderer that keeps the texts it draws (tick labels of ticks outside the view are never drawn)."""

    def __init__(self, width, height, dpi):
        super().__init__(width, height, dpi)
        self.texts = {}

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None and s.strip():
            self.texts[id(mtext)] = mtext
        super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)


def text_clashes(figure) -> list[str]:
    """What of the text a matplotlib `figure` draws (and its legends' markers) reaches past the figure's edge or lies
    on other text, e.g. ["'x1' and 'training points' overlap"]; empty where every text is inside and apart."""
    renderer = _RecordingRenderer(figure.bbox.width, figure.bbox.height, figure.dpi)
    figure.draw(renderer)
    boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in renderer.texts.values()]
    boxes += [
        ("a legend marker", area.get_window_extent(renderer))
        for ax in figure.axes
        if ax.get_legend() is not None
        for area in ax.get_legend().findobj(DrawingArea)
    ]
    edge = figure.bbox.padded(0.5)
    clashes = [f"{text!r} runs off the figure" for text, box in boxes if not edge.contains(box.x0, box.y0)]
    clashes += [f"{text!r} runs off the figure" for text, box in boxes if not edge.contains(box.x1, box.y1)]
    for k, (text, box) in enumerate(boxes):
        clashes += [
            f"{text!r} and {other!r} overlap"
            for other, near in boxes[k + 1 :]
            if box.padded(-0.5).overlaps(near.padded(-0.5))
        ]
    return list(dict.fromkeys(clashes))


def save(view, path, *, width: int | None = None, height: int | None = None, dpi: int = 100) -> Path:
    """Write a view to a file for slides or a page: PNG, SVG or HTML, chosen by the suffix (see `render`).

    Parameters
    ----------
    view : holoviews object
        Any view of `explorer.views`, or a composition of them (``a + b``, ``a * b``).
    path : str or path-like
        The file; its suffix (.png, .svg, .html) chooses the format.
    width, height : int, optional
        The figure's size in pixels (default: the view's own). Text that would not fit is drawn smaller, down to
        half size; smaller still is refused (ValueError) rather than written with overlapping text.
    dpi : int, default 100
        Pixels per inch of PNG and SVG (matplotlib).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        An unknown suffix, or a size at which the figure's text does not fit even at half size.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from explorer import Model, views
    >>> from explorer.views.export import save
    >>> model = Model(dataset="moons", n_points=100, n_inducing=10)
    >>> _ = model.step(20)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> save(views.decision_surface(model), folder / "surface.png", width=600, height=500).stat().st_size > 10_000
    True
    """
    path = Path(path)
    data = render(view, _format(path, FORMATS), width=width, height=height, dpi=dpi)
    path.write_bytes(data)
    return path


def run_copy(model):
    """An independent copy of the run of `model` (an `explorer.model.Model`), through `Model.save` and `Model.load`,
    which continue a run bit-identically: unlike `copy.deepcopy`, nothing that watches the model (a displayed live
    view, a dashboard) comes along."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.npz"
        model.save(path)
        return type(model).load(path, data_dir=model.data_dir)


def training_frames(
    model,
    *,
    iterations: int = 200,
    every: int = 10,
    resolution: int = 40,
    plane=None,
    progress: Callable[[int, int], None] | None = None,
) -> hv.Layout:
    """Step a copy of `model` (the model itself is not changed) `iterations` more SVI iterations, taking a snapshot
    now and after every `every` iterations: the surface on one fixed grid (resolution² over the plane `plane`, by
    default the dashboard's; for K ≥ 3 classes, the predictive by `SURFACE_SAMPLES` quasi-random points) and the
    history so far. Returns a Layout of HoloMaps over "iteration" — the decision
    surface and the ELBO, test NLL and test error traces — to animate or to scrub in a notebook.
    progress(done, total) is called after each snapshot."""
    for name, value in (("iterations", iterations), ("every", every)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number ≥ 1, got {value!r}")
    frames = iterations // every + 1
    if frames > MAX_FRAMES:
        raise ValueError(
            f"{iterations} iterations every {every} make {frames} frames; at most {MAX_FRAMES}: "
            "take snapshots less often (a larger `every`)"
        )
    run = run_copy(model)
    if run.history.total == 0:
        run.step(0)  # a fresh run: its first evaluation (the prior), so every frame has traces
    plane, axes = surface_plane(run, resolution=resolution, plane=plane)
    snapshots = {}
    for k in range(frames):
        if k:
            run.step(every)
        columns = {name: values.copy() for name, values in history_columns(run).items()}
        surface = surface_arrays(run, plane=plane, axes=axes, resolution=resolution, samples=SURFACE_SAMPLES)
        snapshots[run.iteration] = (surface, columns)
        if progress is not None:
            progress(k + 1, frames)
    layouts = {
        iteration: decision_surface_from_arrays(
            **surface, title="p(y=1)" if len(surface["class_names"]) == 2 else "class probabilities"
        )
        + training_traces(columns, quantities=ANIMATED_TRACES, x="iteration", labels=["this run"])
        for iteration, (surface, columns) in snapshots.items()
    }
    frames = hv.HoloMap(layouts, kdims=[hv.Dimension("iteration")]).collate()
    # Each panel keeps the run's limits and is ranged on its own (matplotlib `framewise`), not over all frames for
    # each frame drawn (BENCHMARKS.md, "export: the layout").
    frames = hv.Layout(
        [
            panel.map(
                lambda element, limit=limit: element.opts(framewise=True, **limit, backend="matplotlib"), [hv.Overlay]
            )
            for panel, limit in zip(frames, _fixed_limits(columns, axes))
        ]
    ).cols(2)
    frames = frames.map(lambda element: element.opts(framewise=True, backend="matplotlib"), [hv.Element])
    # The layout's own option set on an empty layout and kept by `clone`: `.opts` on the full layout walks the whole
    # tree once per option id in it, a cost growing as the square of the frames.
    return hv.Layout([]).opts(sublabel_format="", backend="matplotlib").clone(list(frames)).cols(2)


def _fixed_limits(columns: dict, axes: tuple) -> list[dict]:
    """Axis limits of the animation's panels for the whole run — the surface's grid, and each trace from the first
    iteration to the last and over all its values (5% margin) — from the last snapshot's history `columns`."""
    iterations = columns["iteration"]
    limits = [dict(xlim=(float(axes[0][0]), float(axes[0][-1])), ylim=(float(axes[1][0]), float(axes[1][-1])))]
    for name in ANIMATED_TRACES:
        values = columns[name][np.isfinite(columns[name])]
        low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 1.0)
        margin = 0.05 * (high - low) or 0.5
        limits.append(
            dict(
                xlim=(float(iterations[0]), float(max(iterations[-1], iterations[0] + 1))),
                ylim=(low - margin, high + margin),
            )
        )
    return limits


def write_animation(
    frames,
    path,
    *,
    fps: int = 4,
    width: int | None = 1000,
    height: int | None = 750,
    dpi: int = 80,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Write a HoloMap (or Layout of HoloMaps, e.g. `training_frames`) as an animated GIF or MP4 (by the suffix of
    `path`; MP4 only where ffmpeg is installed), width × height px, `fps` frames per second. progress(done, total)
    is called after each frame is drawn. Returns the path."""
    path = Path(path)
    writer = ANIMATION_FORMATS[_format(path, tuple(ANIMATION_FORMATS))]
    if not animation.writers.is_available(writer):
        raise ValueError(
            f"{path}: writing .{path.suffix.lstrip('.')} needs {writer}, which is not installed here; "
            "write a .gif instead"
        )
    _whole("fps", fps, 1, 60)
    panels = [frames] if isinstance(frames, hv.HoloMap) else list(frames)
    keys = sorted({key for panel in panels for key in panel.data})  # tuples of key dimension values
    if progress is not None:  # laying out the first frame takes a while: say that drawing has begun
        progress(0, len(keys))
    with _MATPLOTLIB:
        plot = laid_out(_on_demand(frames), width=width, height=height, dpi=dpi)
        try:
            movie = animation.FuncAnimation(plot.state, plot.update_frame, frames=keys, interval=1000 / fps)
            movie.save(
                str(path),
                writer=writer,
                fps=fps,
                dpi=plot.state.dpi,
                progress_callback=None if progress is None else lambda i, n: progress(i + 1, n),
            )
        finally:
            plt.close(plot.state)
    return path


def _on_demand(frames):
    """A HoloMap (or a Layout of HoloMaps) as DynamicMaps over the same keys, whose frames HoloViews ranges one at a
    time as they are drawn, where a HoloMap's plot ranges every frame of every panel before drawing the first."""

    def dynamic(holomap: hv.HoloMap) -> hv.DynamicMap:
        keys = list(holomap.data)
        kdims = [dim.clone(values=sorted({key[k] for key in keys})) for k, dim in enumerate(holomap.kdims)]
        return hv.DynamicMap(lambda *key: holomap[key], kdims=kdims)

    if isinstance(frames, hv.HoloMap):
        return dynamic(frames)
    return frames.clone([dynamic(panel) for panel in frames])


def animate_training(
    model,
    path,
    *,
    iterations: int = 200,
    every: int = 10,
    resolution: int = 40,
    fps: int = 4,
    width: int | None = 1000,
    height: int | None = 750,
    dpi: int = 80,
    plane=None,
    progress: Callable[[str, int, int], None] | None = None,
) -> Path:
    """An animation of the next `iterations` SVI iterations of `model` (on a copy: the model is not changed), one
    frame every `every` iterations: the decision surface beside the ELBO, test NLL and test error traces, written to
    `path` (.gif; .mp4 where ffmpeg exists). progress(stage, done, total) reports the stages "training" and
    "drawing". Returns the path."""
    path = Path(path)
    _format(path, tuple(ANIMATION_FORMATS))
    stages = ("training", "drawing")
    training, drawing = (None, None) if progress is None else (partial(progress, stage) for stage in stages)
    frames = training_frames(
        model, iterations=iterations, every=every, resolution=resolution, plane=plane, progress=training
    )
    return write_animation(frames, path, fps=fps, width=width, height=height, dpi=dpi, progress=drawing)
