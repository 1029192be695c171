"""Live views in a notebook (explorer.dashboard.live): stepping the model redraws what `live(model)` shows, with no
callback wired by the user — the DynamicMaps' frames and the Bokeh plot's data follow the model."""
import holoviews as hv
import numpy as np

from explorer import Model
from explorer.dashboard import views
from explorer.dashboard.live import live


def curve_points(plot) -> list[int]:
    """Lengths of the data sources of the Bokeh plot's curves."""
    return [len(p.handles["source"].data["iteration"]) for p in plot.traverse(lambda p: p)
            if type(p).__name__ == "CurvePlot"]


def test_stepping_the_model_redraws_the_live_layout():
    model = Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10)
    shown = live(model)
    assert isinstance(shown, hv.Layout) and all(isinstance(panel, hv.DynamicMap) for panel in shown)
    plot = hv.renderer("bokeh").get_plot(shown)  # as a notebook displays it
    surface, nll = shown[0], shown[1]
    p_before = surface.last.get(0).dimension_values(2).copy()
    assert curve_points(plot) == [1, 1]  # the prior's evaluation, before any step
    model.step(40)
    assert list(nll.last.get(0).dimension_values(0)) == [0, 10, 20, 30, 40]
    assert np.abs(surface.last.get(0).dimension_values(2) - p_before).max() > 0.05
    assert curve_points(plot) == [5, 5]  # NLL and error, one point per evaluation
    model.n_inducing = 10  # a new run: its first step draws its own history
    model.step(10)
    assert list(nll.last.get(0).dimension_values(0)) == [0, 10]


def test_any_drawing_of_the_model_goes_live():
    model = Model(dataset="xor", n_points=120, n_inducing=10, batch_size=40, eval_every=5)
    shown = live(model, lambda m: views.decision_surface(m, resolution=20, quantity="sd"))
    assert isinstance(shown, hv.DynamicMap)
    hv.renderer("bokeh").get_plot(shown)
    sd_before = shown.last.get(0).dimension_values(2).copy()
    model.step(30)
    assert not np.allclose(shown.last.get(0).dimension_values(2), sd_before)
