"""Live views in a notebook: `live(model)` shows HoloViews views of a `Model` that redraw by themselves whenever the
model steps, with no callback to wire — a cell `model.step(100)` updates the picture displayed above it.

    live(model)                                              # the decision surface beside the test NLL and error
    live(model, lambda m: views.training_traces(m))          # any drawing of the model

It is a `DynamicMap` whose stream follows the model's `iteration`, `history_length` and `status` parameters (param
watchers): `Model` publishes the first two after every step, and every reset or configuration change rewrites
`status`, so a new run is drawn at once, even when it starts where the old one stood (iteration 0, no history).
"""

from __future__ import annotations

from collections.abc import Callable

import holoviews as hv

from explorer import views

LIVE_QUANTITIES = ("test_nll", "test_error")
PANEL_SIZE = (435, 380)  # width, height in px (Bokeh) of the surface and of the test NLL beside it
ERROR_HEIGHT = 220  # px: the test error under the surface


def default_drawing(model) -> hv.Layout:
    """The decision surface (40² grid) beside the test NLL, the test error under it (against iterations), two
    panels a row to fit a notebook's output area (JupyterLab's: about 900 px wide)."""
    width, height = PANEL_SIZE
    nll, error = views.training_traces(model, quantities=LIVE_QUANTITIES, x="iteration")
    surface = views.decision_surface(model, resolution=40).opts(
        width=width, height=height, legend_cols=2, backend="bokeh"
    )  # the legend as wide as the panel
    return (
        surface
        + nll.opts(width=width, height=height, backend="bokeh")
        + error.opts(width=width, height=ERROR_HEIGHT, backend="bokeh")
    ).cols(2)


def following(drawing: hv.core.Dimensioned) -> hv.core.Dimensioned:
    """`drawing` whose every panel fits its axis ranges to each new frame (HoloViews' `framewise`): the x range of a
    trace grows with the iterations, the y range follows the values."""
    return drawing.map(lambda element: element.opts(framewise=True, backend="bokeh"), [hv.Element, hv.Overlay])


def live(model, draw: Callable[[object], hv.core.Dimensioned] = default_drawing) -> hv.DynamicMap | hv.Layout:
    """draw(model) as a DynamicMap redrawn after every step of `model` (a Layout drawing comes back as a Layout of
    DynamicMaps, one per panel), its axis ranges following the run (`following`). draw: any function of the model
    returning a HoloViews object (TypeError naming what it returned otherwise). Showing the views does not change the model: a run not evaluated yet shows empty
    traces until its first step."""
    if not callable(draw):
        raise TypeError(f"live(model, draw): draw must be a function of the model, got {type(draw).__name__}")
    first = drawing_of(draw, model)
    stream = hv.streams.Params(model, ["iteration", "history_length", "status"])
    dynamic = hv.DynamicMap(
        lambda iteration, history_length, status: following(drawing_of(draw, model)), streams=[stream]
    )
    return dynamic.collate().cols(first._max_cols) if isinstance(first, hv.Layout) else dynamic


def drawing_of(draw: Callable[[object], hv.core.Dimensioned], model) -> hv.core.Dimensioned:
    """draw(model), checked: TypeError naming what came back when it is not a HoloViews object."""
    drawing = draw(model)
    if not isinstance(drawing, hv.core.Dimensioned):
        raise TypeError(
            "live(model, draw): draw(model) must return a HoloViews object (an Element, Overlay or Layout, e.g. "
            f"views.training_traces(model)), but it returned {type(drawing).__module__}.{type(drawing).__qualname__} "
            f"{drawing!r:.80}"
        )
    return drawing
