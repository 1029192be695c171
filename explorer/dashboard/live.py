"""Live views in a notebook: `live(model)` shows HoloViews views of a `Model` that redraw by themselves whenever the
model steps, with no callback to wire — a cell `model.step(100)` updates the picture displayed above it.

    live(model)                                              # the decision surface beside the test NLL and error
    live(model, lambda m: views.training_traces(m))          # any drawing of the model

It is a `DynamicMap` whose stream follows the model's `iteration` and `history_length` parameters (param watchers:
`Model` publishes both after every step, reset and configuration change). The Train tab of the dashboard keeps its
own raw Bokeh figures (they stream at 5 Hz: DESIGN §8).
"""
from __future__ import annotations

from collections.abc import Callable

import holoviews as hv

from explorer.dashboard import views

LIVE_QUANTITIES = ("test_nll", "test_error")


def default_drawing(model) -> hv.Layout:
    """The decision surface (40² grid) beside the test NLL and test error against iterations."""
    return (views.decision_surface(model, resolution=40)
            + views.training_traces(model, quantities=LIVE_QUANTITIES, x="iteration", cols=1))


def live(model, draw: Callable[[object], hv.core.Dimensioned] = default_drawing) -> hv.DynamicMap | hv.Layout:
    """draw(model) as a DynamicMap redrawn after every step of `model` (a Layout drawing comes back as a Layout of
    DynamicMaps, one per panel). draw: any function of the model returning a HoloViews object. A model not evaluated
    yet is evaluated at its start first (`model.step(0)`: the history row its first step would record), so that the
    traces have a point to show."""
    if model.history.total == 0:
        model.step(0)
    stream = hv.streams.Params(model, ["iteration", "history_length"])
    dynamic = hv.DynamicMap(lambda iteration, history_length: draw(model), streams=[stream])
    return dynamic.collate() if isinstance(draw(model), hv.Layout) else dynamic
