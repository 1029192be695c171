"""Exports for slides and teaching: any HoloViews view (e.g. from `explorer.dashboard.views`) as a PNG, SVG or
standalone HTML file, and an animation of the decision surface and the training traces as training proceeds.

    save(decision_surface(model) + training_traces(model), "figure.png")    # .png / .svg / .html by suffix
    animate_training(model, "training.gif", iterations=200, every=10)      # the model itself is not changed

PNG, SVG and animations are drawn by HoloViews' matplotlib backend (no display or browser needed), at exactly
width × height pixels; HTML is a Bokeh document with its JavaScript inline, so the file opens offline. An MP4 needs
ffmpeg on the machine (checked); a GIF needs only Pillow.
"""
from __future__ import annotations

import io
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import holoviews as hv
from bokeh.resources import INLINE
from matplotlib import animation
from matplotlib import pyplot as plt

from explorer.dashboard.views import decision_surface_from_arrays, surface_arrays, training_traces
from explorer.dashboard.views.surface import surface_plane
from explorer.dashboard.views.traces import history_columns

STATIC_FORMATS = ("png", "svg")
FORMATS = STATIC_FORMATS + ("html",)
ANIMATION_FORMATS = {"gif": "pillow", "mp4": "ffmpeg"}  # suffix → matplotlib animation writer
MAX_FRAMES = 200
ANIMATED_TRACES = ("elbo", "test_nll", "test_error")
# pyplot keeps process-wide state (its figure registry); sessions exporting at once take turns.
_MATPLOTLIB = threading.Lock()


def _format(path, formats) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in formats:
        raise ValueError(f"{path}: cannot tell the format from the suffix {Path(path).suffix!r}; use one of "
                         f"{', '.join('.' + f for f in formats)}")
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
        _whole("width", width, 50, 8000)
        _whole("height", height, 50, 8000)
        figure.set_size_inches(width / dpi, height / dpi)


def render(view, fmt: str, *, width: int | None = None, height: int | None = None, dpi: int = 100) -> bytes:
    """The bytes of `view` (any HoloViews object) as fmt "png" or "svg" (matplotlib backend, width × height px at
    `dpi`, or the size HoloViews chooses when they are None; a HoloMap shows its first frame) or "html" (standalone
    Bokeh document, resources inline; a HoloMap gets its widgets; the views' own Bokeh sizes apply)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not isinstance(view, hv.core.Dimensioned):
        raise TypeError(f"the view to export must be a HoloViews object (an element, overlay, layout or HoloMap, e.g. "
                        f"from explorer.dashboard.views), got {type(view).__name__}")
    if fmt == "html":
        buffer = io.StringIO()
        hv.save(view, buffer, backend="bokeh", resources=INLINE, title="X-GPC Explorer")
        return buffer.getvalue().encode("utf-8")
    buffer = io.BytesIO()
    with _MATPLOTLIB:
        figure = hv.renderer("matplotlib").get_plot(view).state
        try:
            _figure_size(figure, width, height, dpi)
            figure.savefig(buffer, format=fmt, dpi=dpi)
        finally:
            plt.close(figure)
    return buffer.getvalue()


def save(view, path, *, width: int | None = None, height: int | None = None, dpi: int = 100) -> Path:
    """Write `view` (any HoloViews object) to `path` as PNG, SVG or HTML, chosen by the suffix (see `render`).
    Returns the path."""
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


def training_frames(model, *, iterations: int = 200, every: int = 10, resolution: int = 40, plane=None,
                    progress: Callable[[int, int], None] | None = None) -> hv.Layout:
    """Step a copy of `model` (the model itself is not changed) `iterations` more SVI iterations, taking a snapshot
    now and after every `every` iterations: the surface on one fixed grid (resolution² over the plane `plane`, by
    default the dashboard's) and the history so far. Returns a Layout of HoloMaps over "iteration" — the decision
    surface and the ELBO, test NLL and test error traces — to animate or to scrub in a notebook.
    progress(done, total) is called after each snapshot."""
    for name, value in (("iterations", iterations), ("every", every)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number ≥ 1, got {value!r}")
    frames = iterations // every + 1
    if frames > MAX_FRAMES:
        raise ValueError(f"{iterations} iterations every {every} make {frames} frames; at most {MAX_FRAMES}: "
                         "take snapshots less often (a larger `every`)")
    run = run_copy(model)
    if run.history.total == 0:
        run.step(0)  # a fresh run: its first evaluation (the prior), so every frame has traces
    plane, axes = surface_plane(run, resolution=resolution, plane=plane)
    snapshots = {}
    for k in range(frames):
        if k:
            run.step(every)
        columns = {name: values.copy() for name, values in history_columns(run).items()}
        snapshots[run.iteration] = (surface_arrays(run, plane=plane, axes=axes, resolution=resolution), columns)
        if progress is not None:
            progress(k + 1, frames)
    layouts = {iteration: decision_surface_from_arrays(**surface, title="p(y=1)")
               + training_traces(columns, quantities=ANIMATED_TRACES, x="iteration", labels=["this run"])
               for iteration, (surface, columns) in snapshots.items()}
    frames = hv.HoloMap(layouts, kdims=[hv.Dimension("iteration")]).collate().cols(2)
    return frames.opts(sublabel_format="", backend="matplotlib")


def write_animation(frames, path, *, fps: int = 4, width: int | None = 1000, height: int | None = 750, dpi: int = 80,
                    progress: Callable[[int, int], None] | None = None) -> Path:
    """Write a HoloMap (or Layout of HoloMaps, e.g. `training_frames`) as an animated GIF or MP4 (by the suffix of
    `path`; MP4 only where ffmpeg is installed), width × height px, `fps` frames per second. progress(done, total)
    is called after each frame is drawn. Returns the path."""
    path = Path(path)
    writer = ANIMATION_FORMATS[_format(path, tuple(ANIMATION_FORMATS))]
    if not animation.writers.is_available(writer):
        raise ValueError(f"{path}: writing .{path.suffix.lstrip('.')} needs {writer}, which is not installed here; "
                         "write a .gif instead")
    _whole("fps", fps, 1, 60)
    with _MATPLOTLIB:
        plot = hv.renderer("matplotlib").get_plot(frames)
        try:
            _figure_size(plot.state, width, height, dpi)
            movie = plot.anim(fps=fps)
            movie.save(str(path), writer=writer, fps=fps, dpi=dpi,
                       progress_callback=None if progress is None else lambda i, n: progress(i + 1, n))
        finally:
            plt.close(plot.state)
    return path


def animate_training(model, path, *, iterations: int = 200, every: int = 10, resolution: int = 40, fps: int = 4,
                     width: int | None = 1000, height: int | None = 750, dpi: int = 80, plane=None,
                     progress: Callable[[str, int, int], None] | None = None) -> Path:
    """An animation of the next `iterations` SVI iterations of `model` (on a copy: the model is not changed), one
    frame every `every` iterations: the decision surface beside the ELBO, test NLL and test error traces, written to
    `path` (.gif; .mp4 where ffmpeg exists). progress(stage, done, total) reports the stages "training" and
    "drawing". Returns the path."""
    path = Path(path)
    _format(path, tuple(ANIMATION_FORMATS))
    frames = training_frames(model, iterations=iterations, every=every, resolution=resolution, plane=plane,
                             progress=None if progress is None else lambda i, n: progress("training", i, n))
    return write_animation(frames, path, fps=fps, width=width, height=height, dpi=dpi,
                           progress=None if progress is None else lambda i, n: progress("drawing", i, n))
