"""Live views in a notebook (explorer.dashboard.live): stepping the model redraws what `live(model)` shows, with no
callback wired by the user — the DynamicMaps' frames and the Bokeh plot's data follow the model."""

import holoviews as hv
import numpy as np

from explorer import Model, views
from explorer.dashboard.live import live


def curve_points(plot) -> list[int]:
    """Lengths of the data sources of the Bokeh plot's curves."""
    return [
        len(p.handles["source"].data["iteration"])
        for p in plot.traverse(lambda p: p)
        if type(p).__name__ == "CurvePlot"
    ]


def test_stepping_the_model_redraws_the_live_layout():
    model = Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10)
    shown = live(model)
    assert isinstance(shown, hv.Layout) and all(isinstance(panel, hv.DynamicMap) for panel in shown)
    plot = hv.renderer("bokeh").get_plot(shown)  # as a notebook displays it
    surface, nll = shown[0], shown[1]
    p_before = surface.last.get(0).dimension_values(2).copy()
    assert curve_points(plot) == [0, 0] and model.history.total == 0  # showing it did not evaluate the model
    model.step(40)
    assert list(nll.last.get(0).dimension_values(0)) == [0, 10, 20, 30, 40]
    assert np.abs(surface.last.get(0).dimension_values(2) - p_before).max() > 0.05
    assert curve_points(plot) == [5, 5]  # NLL and error, one point per evaluation
    model.n_inducing = 10  # a new run: shown at once, with empty traces
    assert len(nll.last.get(0).dimension_values(0)) == 0 and curve_points(plot) == [0, 0]
    assert len(inducing(surface.last)) == 10
    model.step(10)
    assert list(nll.last.get(0).dimension_values(0)) == [0, 10]
    model.reset()
    assert curve_points(plot) == [0, 0]


def curve_ranges(plot) -> list[tuple[float, float, float, float]]:
    """(x start, x end, y start, y end) of each trace panel's Bokeh ranges, as the browser shows them."""
    return [
        (p.handles["x_range"].start, p.handles["x_range"].end, p.handles["y_range"].start, p.handles["y_range"].end)
        for p in plot.traverse(lambda p: p)
        if type(p).__name__ == "CurvePlot"
    ]


def test_the_axes_follow_the_run_and_the_layout_fits_a_notebook():
    """After model.step(300) the traces reach iteration 310 and so do their x axes (issue 20.5); the y axes hold
    the values; surface and traces side by side fit JupyterLab's output area (about 900 px)."""
    model = Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10)
    shown = live(model)
    plot = hv.renderer("bokeh").get_plot(shown)
    model.step(10)
    model.step(300)
    nll, error = (shown[k].last.get(0).dimension_values(1) for k in (1, 2))
    for (x0, x1, y0, y1), values in zip(curve_ranges(plot), (nll, error)):
        assert x0 <= 0 and x1 >= 310 and x1 < 400
        assert y0 <= values.min() and y1 >= values.max() and y1 - y0 < 2 * np.ptp(values) + 0.1
    model.n_inducing = 10  # a new run: the axes shrink back with it
    model.step(20)
    assert all(x1 < 100 for _, x1, _, _ in curve_ranges(plot))
    rows = {}
    for figure, row, _column in plot.state.children:  # the Bokeh GridPlot of the layout
        rows[row] = rows.get(row, 0) + figure.width
    assert len(plot.state.children) == 3 and max(rows.values()) <= 880


def inducing(overlay) -> np.ndarray:
    """The inducing points (m, 2) a drawn decision surface shows."""
    (points,) = [element for element in overlay if element.group == "Inducing"]
    return points.array()


def test_a_new_run_that_starts_where_the_old_one_stood_is_drawn_at_once():
    """A setting changed or a reset before any step: iteration and history stay 0, the picture still changes."""
    model = Model(dataset="xor", n_points=120, n_inducing=10, batch_size=40, eval_every=5, seed=1)
    shown = live(model)
    hv.renderer("bokeh").get_plot(shown)
    surface = shown[0]
    before = inducing(surface.last)
    np.testing.assert_allclose(before, model.inducing_points)  # 2-D data: the plane is the features
    model.seed = 2  # another split and other inducing points, iteration still 0
    assert model.iteration == 0 and model.history.total == 0
    np.testing.assert_allclose(inducing(surface.last), model.inducing_points)
    assert not np.allclose(inducing(surface.last), before)
    model.n_inducing = 6
    assert len(inducing(surface.last)) == 6


def test_any_drawing_of_the_model_goes_live():
    model = Model(dataset="xor", n_points=120, n_inducing=10, batch_size=40, eval_every=5)
    shown = live(model, lambda m: views.decision_surface(m, resolution=20, quantity="sd"))
    assert isinstance(shown, hv.DynamicMap)
    hv.renderer("bokeh").get_plot(shown)
    sd_before = shown.last.get(0).dimension_values(2).copy()
    model.step(30)
    assert not np.allclose(shown.last.get(0).dimension_values(2), sd_before)
