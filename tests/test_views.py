"""The HoloViews views (explorer.views): each renders with the Bokeh and the matplotlib backend for 2-D and
d > 2 data, and what it draws is what the model, history, comparison or race says (checked against independent
computations, not against the view's own helpers), for two classes and for K = 3 (the class colours mixed by
probability, the class boundaries, the uncertainty)."""

import io
import math

import holoviews as hv
import numpy as np
import pytest
from bokeh.models import GlyphRenderer, Legend, PlainText, Plot, Span
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.offsetbox import DrawingArea
from PIL import Image
from scipy.interpolate import RegularGridInterpolator
from scipy.special import expit, log_expit

from explorer.dashboard.figure2 import figure2, settle_table
from explorer.data import datasets
from explorer.kernels import initial_kernel
from explorer.metrics import predicted_class, settled_time_within
from explorer.model import Model
from explorer.studies.comparison import run_comparison
from explorer.views import (
    augmentation_identity,
    augmented_bound,
    decision_surface,
    decision_surface_from_arrays,
    export,
    inducing_study,
    mcmc_comparison,
    mcmc_scatter,
    mcmc_surfaces,
    mcmc_traces,
    minibatch_view,
    pg_density,
    race_curves,
    surface_arrays,
    surface_plane,
    training_traces,
)
from explorer.views.mcmc import MARKERS

BACKENDS = ("bokeh", "matplotlib")


def glyphs(view, kind: str) -> list[GlyphRenderer]:
    """The Bokeh renderers of glyph type `kind` (e.g. "Image", "Scatter", "Line") in the rendered view."""
    rendered = hv.render(view, backend="bokeh").select({"type": GlyphRenderer})
    return [r for r in rendered if type(r.glyph).__name__ == kind]


def spans(view) -> list[Span]:
    """The Bokeh Span annotations (HLine, VLine) of the rendered view."""
    return list(hv.render(view, backend="bokeh").select({"type": Span}))


def drawn_axes(view) -> list:
    """The matplotlib axes of the rendered view that draw something (colour bars, which have no x label, excluded)."""
    figure = hv.render(view, backend="matplotlib")
    return [ax for ax in figure.axes if (ax.lines or ax.collections or ax.images or ax.patches) and ax.get_xlabel()]


def pixels_of_colour(rgb: np.ndarray, colour: str, tolerance: float = 40.0) -> int:
    """How many pixels of an RGB image (h, w, 3) lie within `tolerance` (0–255 units) of the named colour."""
    target = 255 * np.asarray(to_rgb(colour))
    return int((np.linalg.norm(rgb - target, axis=-1) < tolerance).sum())


def png_pixels(view, **size) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(export.render(view, "png", **size))).convert("RGB"), dtype=float)


def gif_frames(frames, path) -> list[np.ndarray]:
    """The frames of `frames` (a HoloMap) written as a GIF by `export.write_animation`, decoded (h, w, 3)."""
    export.write_animation(frames, path, fps=2, width=400, height=400, dpi=100)
    with Image.open(path) as gif:
        decoded = []
        for k in range(gif.n_frames):
            gif.seek(k)
            decoded.append(np.asarray(gif.convert("RGB"), dtype=float))
    return decoded


@pytest.fixture(scope="module")
def model_2d():
    model = Model(dataset="banana-like", n_points=200, n_inducing=15, seed=1)
    model.step(150)
    return model


@pytest.fixture(scope="module")
def model_4d():
    """d = 4 data through `set_data`, with one lengthscale per feature (ARD)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(240, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.5 * X[:, 2] + 0.3 * rng.normal(size=240) > 0.2, 1, 0)
    model = Model(n_inducing=20, ard=True)
    model.set_data(X, y, name="four features", feature_names=["a", "b", "c", "d"])
    model.step(150)
    return model


# ------------------------------------------------------------------------------------------------- the surface
def _plane_grid_2d(model, resolution):
    """The grid the surface should use, computed here: the training range plus 10% on each side."""
    shown = np.vstack([model.X_train, model.X_test])  # every point drawn
    lo, hi = shown.min(0), shown.max(0)
    pad = 0.1 * (hi - lo)
    return np.linspace(lo[0] - pad[0], hi[0] + pad[0], resolution), np.linspace(
        lo[1] - pad[1], hi[1] + pad[1], resolution
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_surface_image_is_the_models_probability_on_the_grid(model_2d, backend):
    view = decision_surface(model_2d, resolution=30)
    gx, gy = _plane_grid_2d(model_2d, 30)
    xx, yy = np.meshgrid(gx, gy)
    expected = model_2d.predict_proba(np.c_[xx.ravel(), yy.ravel()])[:, 1].reshape(30, 30)  # row i at gy[i]
    if backend == "bokeh":
        (image,) = glyphs(view, "Image")
        drawn = image.data_source.data["image"][0]  # Bokeh: first row at the bottom
        assert image.data_source.data["x"][0] == pytest.approx(gx[0] - (gx[1] - gx[0]) / 2)
    else:
        (ax,) = [ax for ax in drawn_axes(view) if ax.images]
        drawn = np.flipud(ax.images[0].get_array())  # matplotlib: first row at the top
    np.testing.assert_allclose(drawn, expected, rtol=1e-6, atol=1e-9)


def test_surface_sd_is_the_models_predictive_sd(model_4d):
    view = decision_surface(model_4d, quantity="sd", features=("c", 0), resolution=12)
    X = model_4d.X_train
    shown = np.vstack([X, model_4d.X_test])  # the grid spans every point drawn
    lo, hi = shown.min(0), shown.max(0)
    pad = 0.1 * (hi - lo)
    gx, gy = np.linspace(lo[2] - pad[2], hi[2] + pad[2], 12), np.linspace(lo[0] - pad[0], hi[0] + pad[0], 12)
    xx, yy = np.meshgrid(gx, gy)
    grid = np.tile(X.mean(0), (xx.size, 1))
    grid[:, 2], grid[:, 0] = xx.ravel(), yy.ravel()  # "c" across, feature 0 up; b and d at their mean
    _, var = model_4d.predict_latent(grid)
    (image,) = glyphs(view, "Image")
    np.testing.assert_allclose(image.data_source.data["image"][0], np.sqrt(var).reshape(12, 12), rtol=1e-6)
    assert image.glyph.color_mapper.low == 0.0 and image.glyph.color_mapper.high == pytest.approx(np.sqrt(var.max()))


def test_surface_of_d4_data_on_the_principal_components(model_4d):
    snapshot = surface_arrays(model_4d, resolution=15)
    X = model_4d.X_train
    mean, scale = X.mean(0), X.std(0)
    _, _, Vt = np.linalg.svd((X - mean) / scale, full_matrices=False)
    xx, yy = np.meshgrid(snapshot["grid_x"], snapshot["grid_y"])
    raw = mean + (np.c_[xx.ravel(), yy.ravel()] @ Vt[:2]) * scale  # the plane point back in the four features
    np.testing.assert_allclose(snapshot["values"], model_4d.predict_proba(raw)[:, 1].reshape(15, 15), rtol=1e-6)
    assert snapshot["xlabel"].startswith("PC 1")
    for backend in BACKENDS:  # it renders
        hv.render(decision_surface_from_arrays(**snapshot), backend=backend)


@pytest.mark.parametrize("which", ["2d", "4d"])
def test_the_contour_lies_where_p_is_one_half(model_2d, model_4d, which):
    model = model_2d if which == "2d" else model_4d
    snapshot = surface_arrays(model, resolution=60)
    (contour,) = glyphs(decision_surface_from_arrays(**snapshot), "MultiLine")
    xs, ys = (np.concatenate(contour.data_source.data[k]) for k in ("xs", "ys"))
    vertices = np.c_[xs, ys][np.isfinite(xs)]
    assert len(vertices) > 10
    box = np.array([[snapshot["grid_x"][0], snapshot["grid_y"][0]], [snapshot["grid_x"][-1], snapshot["grid_y"][-1]]])
    assert np.all(vertices >= box[0] - 1e-9) and np.all(vertices <= box[1] + 1e-9)  # on the grid, up to rounding
    vertices = np.clip(vertices, box[0], box[1])
    interpolate = RegularGridInterpolator((snapshot["grid_y"], snapshot["grid_x"]), snapshot["probability"])
    np.testing.assert_allclose(interpolate(vertices[:, ::-1]), 0.5, atol=1e-9)  # linear along the grid edges
    if which == "2d":  # the model itself at the vertices: ≈ ½ up to the grid's interpolation error
        np.testing.assert_allclose(model.predict_proba(vertices)[:, 1], 0.5, atol=0.03)


def test_misclassified_points_are_exactly_those_on_the_wrong_side(model_2d):
    snapshot = surface_arrays(model_2d)
    X = np.vstack([model_2d.X_train, model_2d.X_test])  # 200 points: all are drawn
    y = np.concatenate([model_2d.y_train, model_2d.y_test])
    p = model_2d.predict_proba(X)[:, 1]
    assert np.all(np.abs(p - 0.5) > 1e-3)  # no undecided point: the marks are exactly the sign mismatches
    wrong = X[np.sign(p - 0.5) != 2 * y - 1]  # class indices 0, 1 ↦ −1, +1
    assert 0 < len(wrong) < len(X)
    (crosses,) = [r for r in glyphs(decision_surface_from_arrays(**snapshot), "Scatter") if r.glyph.marker == "x"]
    drawn = np.c_[crosses.data_source.data["x"], crosses.data_source.data["y"]]
    assert sorted(map(tuple, drawn)) == sorted(map(tuple, wrong))


def test_surface_draws_every_kind_of_point(model_2d):
    view = decision_surface(model_2d)
    markers = {r.glyph.marker: len(r.data_source.data["x"]) for r in glyphs(view, "Scatter")}
    assert markers["circle"] == len(model_2d.y_train) and markers["triangle"] == len(model_2d.y_test)
    assert markers["square"] == len(model_2d.inducing_points)
    (ax,) = [ax for ax in drawn_axes(view) if ax.images]
    assert len(ax.collections) >= 4  # matplotlib: train, test, misclassified, inducing


def test_snapshots_on_a_fixed_grid_make_an_animation(tmp_path):
    model = Model(dataset="banana-like", n_points=120, n_inducing=10, seed=4)
    plane, axes = surface_plane(model, resolution=12)
    xx, yy = np.meshgrid(*axes)
    frames, expected = {}, {}
    for _ in range(3):
        model.step(15)
        snapshot = surface_arrays(model, plane=plane, axes=axes)
        expected[model.iteration] = model.predict_proba(np.c_[xx.ravel(), yy.ravel()])[:, 1].reshape(12, 12)
        frames[model.iteration] = decision_surface_from_arrays(**snapshot)
    animation = hv.HoloMap(frames, kdims=["iteration"])
    assert list(animation.keys()) == [15, 30, 45]
    for iteration, frame in animation.items():
        np.testing.assert_allclose(
            frame.values()[0].dimension_values(2, flat=False), expected[iteration], rtol=1e-6
        )  # row i at grid_y[i]
    assert not np.allclose(expected[15], expected[45])  # the frames differ: training moved the surface
    hv.render(animation, backend="bokeh")
    hv.save(animation, tmp_path / "surface.gif", backend="matplotlib", fps=2)
    with Image.open(tmp_path / "surface.gif") as gif:
        assert gif.n_frames == 3


def test_inducing_points_are_drawn_in_every_frame_of_an_animation(tmp_path):
    """The gold squares show in a still, in a HoloMap and in each GIF frame (matplotlib), and only when there are
    inducing points (the surface here is deep blue, so nothing else is gold)."""
    gx, gy = np.linspace(0.0, 1.0, 10), np.linspace(0.0, 1.0, 10)
    Z = np.array([[0.2, 0.2], [0.5, 0.7], [0.8, 0.3]])

    def frames(inducing):
        return hv.HoloMap(
            {
                k: decision_surface_from_arrays(gx, gy, np.full((10, 10), 0.01 * (k + 1)), inducing=inducing)
                for k in range(2)
            },
            kdims=["iteration"],
        )

    size = dict(width=400, height=400)
    assert pixels_of_colour(png_pixels(frames(None), **size), "gold") == 0
    assert pixels_of_colour(png_pixels(frames(Z).last, **size), "gold") > 50
    assert pixels_of_colour(png_pixels(frames(Z), **size), "gold") > 50  # the HoloMap's first frame
    for frame in gif_frames(frames(Z), tmp_path / "surface.gif"):
        assert pixels_of_colour(frame, "gold") > 50


@pytest.mark.parametrize("width, height, dpi", [(960, 600, 60), (800, 600, 80), (1000, 750, 80)])
def test_surface_legend_entries_do_not_overlap_in_an_animation_layout(width, height, dpi):
    """At the sizes animations are written (README GIF, Train tab, `animate_training`), the surface's legend
    markers and labels do not overlap (matplotlib: window extents of the entries' marker areas and texts)."""
    gx, gy = np.linspace(0.0, 1.0, 10), np.linspace(0.0, 1.0, 10)
    points = np.array([[0.2, 0.3], [0.6, 0.6], [0.8, 0.1]])
    surface = decision_surface_from_arrays(
        gx,
        gy,
        np.full((10, 10), 0.3),
        train=points,
        train_labels=[1, 0, 1],
        test=points,
        test_labels=[0, 1, 1],
        misclassified=points[:1],
        inducing=points,
    )
    columns = {
        "iteration": [0, 10],
        "seconds": [0.0, 0.1],
        "elbo": [-9.0, -5.0],
        "test_nll": [0.7, 0.4],
        "test_error": [0.5, 0.2],
    }
    view = (surface + training_traces(columns, quantities=("elbo", "test_nll", "test_error"), x="iteration")).cols(2)
    figure = hv.renderer("matplotlib").get_plot(hv.HoloMap({0: view}, kdims=["iteration"]).collate()).state
    figure.set_size_inches(width / dpi, height / dpi)
    figure.set_dpi(dpi)
    FigureCanvasAgg(figure).draw()
    renderer = figure.canvas.get_renderer()
    (legend,) = [ax.get_legend() for ax in figure.axes if ax.get_legend() is not None]
    texts = [text.get_window_extent(renderer) for text in legend.get_texts()]
    markers = [area.get_window_extent(renderer) for area in legend.findobj(DrawingArea)]
    assert len(texts) == len(markers) == 4  # training, test, misclassified, inducing points
    assert not any(marker.overlaps(text) for marker in markers for text in texts)
    assert not any(a.overlaps(b) for i, a in enumerate(texts) for b in texts[i + 1 :])


def test_surface_from_arrays_refuses_a_grid_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"values have shape \(3, 4\).*\(4, 3\)"):
        decision_surface_from_arrays(np.arange(3.0), np.arange(4.0), np.zeros((3, 4)))
    with pytest.raises(ValueError, match="quantity"):
        decision_surface_from_arrays(np.arange(3.0), np.arange(4.0), np.zeros((4, 3)), quantity="entropy")


# -------------------------------------------------------------------------------------------------- the traces
def test_trace_curves_are_the_history_columns(model_2d, model_4d):
    ard = [name for name in model_4d.history.columns if name.startswith("lengthscale_")]
    assert len(ard) == 4
    view = training_traces(
        model_2d.history,
        model_4d,
        labels=["2-D", "4-D"],
        quantities=("elbo", "test_nll", "test_error", "rho", "variance", *ard),
    )
    lines = glyphs(view, "Line")
    for model in (model_2d, model_4d):
        seconds = model.history.column("seconds")
        for name in ("elbo", "test_nll", "test_error", "rho", "variance"):
            assert any(
                np.array_equal(line.data_source.data["seconds"], seconds)
                and np.array_equal(line.data_source.data[name], model.history.column(name), equal_nan=True)
                for line in lines
                if name in line.data_source.data
            ), name
    assert sum(1 for line in lines if "lengthscale_2" in line.data_source.data) == 1  # only the ARD run has it
    assert len(drawn_axes(view)) == 5 + len(ard)


def test_traces_against_iterations_and_refusals(model_2d):
    view = training_traces(model_2d, quantities=("test_nll",), x="iteration")
    (line,) = glyphs(view, "Line")
    np.testing.assert_array_equal(line.data_source.data["iteration"], model_2d.history.column("iteration"))
    with pytest.raises(ValueError, match="2 histories but 1 labels"):
        training_traces(model_2d, model_2d, labels=["one"])
    with pytest.raises(ValueError, match="no history has values of 'nonsense'"):
        training_traces(model_2d, quantities=("nonsense",))


def test_traces_of_a_run_without_history_are_empty_labelled_panels(model_2d):
    """A fresh run (or one just reset) has no history rows yet: its panels are drawn, empty, with their labels."""
    fresh = Model(dataset="xor", n_points=100, n_inducing=8, seed=2)
    assert fresh.history.total == 0
    quantities = ("elbo", "test_nll", "rho")
    for history in (fresh, {"iteration": [], "seconds": [], "elbo": [], "test_nll": [], "rho": []}):
        view = training_traces(history, quantities=quantities, x="iteration")
        assert [panel.label for panel in view] == list(quantities)
        lines = glyphs(view, "Line")
        assert len(lines) == 3 and all(len(line.data_source.data["iteration"]) == 0 for line in lines)
        figure = hv.render(view, backend="bokeh")
        titles = [plot.title.text for plot in figure.select({"type": Plot}) if plot.title is not None]
        assert sorted(titles) == sorted(["ELBO", "test negative log-likelihood", "step size ρ"])
        axes = [ax for ax in hv.render(view, backend="matplotlib").axes if ax.get_xlabel()]
        # static files name the quantity once, in the title (a y label repeating it crowded slide-sized exports)
        assert [ax.get_title() for ax in axes] == ["ELBO", "test negative log-likelihood", "step size ρ"]
        assert {ax.get_xlabel() for ax in axes} == {"iteration"}
    both = training_traces(model_2d, fresh, labels=["trained", "fresh"], quantities=("test_nll",))
    trained, empty = sorted(glyphs(both, "Line"), key=lambda line: -len(line.data_source.data["test_nll"]))
    np.testing.assert_array_equal(trained.data_source.data["test_nll"], model_2d.history.column("test_nll"))
    assert len(empty.data_source.data["test_nll"]) == 0  # the fresh run's curve, empty until it has rows


# -------------------------------------------------------------------------------------------------- composition
def test_views_compose_with_star_plus_and_opts(model_2d):
    surface = decision_surface(model_2d, resolution=20)
    traces = training_traces(model_2d, quantities=("elbo", "test_nll"))
    assert isinstance(surface, hv.Overlay)
    assert [type(e).__name__ for e in surface][:2] == ["Image", "Path"]
    extra = hv.Points([(0.0, 0.0)], kdims=surface.kdims, label="a point of mine")
    combined = surface * extra
    assert isinstance(combined, hv.Overlay) and len(combined) == len(surface) + 1
    assert combined.values()[-1] is extra
    layout = surface + traces
    assert isinstance(layout, hv.Layout) and len(layout) == 1 + len(traces)
    assert [type(e).__name__ for e in layout] == ["Overlay"] * 3
    titled = surface.opts(title="mine", backend="bokeh")
    assert hv.render(titled, backend="bokeh").title.text == "mine"
    for backend in BACKENDS:
        hv.render(layout.cols(2), backend=backend)


# ---------------------------------------------------------------------------------------------------- the MCMC
@pytest.fixture(scope="module", params=["2d", "4d", "3 classes"])
def comparison(request):
    rng = np.random.default_rng(5)
    if request.param == "2d":
        X, y, _ = datasets.load_with_names("banana-like", n=90, seed=2)
    elif request.param == "3 classes":  # multi-class X-GPC against the logistic-softmax sampler
        X = np.concatenate([rng.normal(c, 0.7, (30, 2)) for c in ([-1.5, 0.0], [1.5, 0.0], [0.0, 1.8])])
        y = np.repeat([0, 1, 2], 30)
    else:
        X = rng.normal(size=(90, 4))
        y = np.where(X[:, 0] - X[:, 3] + 0.5 * rng.normal(size=90) > 0, 1, 0)
    X = (X - X.mean(0)) / X.std(0)
    kernel = initial_kernel("rbf", X.shape[1], lengthscale=1.0, variance=1.0, nugget=1e-4, ard=False)
    return run_comparison(X, y, kernel, n_inducing=8, n_samples=60, burn_in=20, n_chains=2, progress=None)


def test_mcmc_panels_plot_mcmc_against_each_xgpc(comparison):
    view = mcmc_comparison(comparison)
    expected = ["mean", "variance", "p(y=1)" if comparison.full.n_classes == 2 else "p(y=k)"]
    assert [panel.label for panel in view] == expected == list(comparison.full.pairs())
    scatters = glyphs(view, "Scatter")
    for result in (comparison.sparse, comparison.full):
        for mcmc, vi in result.pairs().values():
            assert any(
                np.array_equal(s.data_source.data["mcmc"], mcmc) and np.array_equal(s.data_source.data["vi"], vi)
                for s in scatters
            )
    for backend in BACKENDS:
        hv.render(view + mcmc_traces(comparison.sampler), backend=backend)


def test_mcmc_sparse_and_full_markers_differ(comparison):
    sparse, full = (
        next(
            s.glyph
            for s in glyphs(mcmc_scatter(comparison, "mean"), "Scatter")
            if np.array_equal(s.data_source.data["vi"], result.pairs()["mean"][1])
        )
        for result in (comparison.sparse, comparison.full)
    )
    assert (sparse.marker, sparse.size) != (full.marker, full.size)
    assert sparse.fill_alpha == 0.0  # hollow: the full model's marker inside stays visible


def test_mcmc_open_markers_are_drawn_in_an_animation(comparison):
    """The sparse X-GPC's open circles (matplotlib) show in a HoloMap frame, not only in a still."""
    colour = MARKERS["sparse"]["matplotlib"]["edgecolors"]
    frames = {k: mcmc_scatter(comparison, quantity) for k, quantity in enumerate(("mean", "variance"))}
    full_only = {
        k: mcmc_scatter({"full": comparison.full}, quantity) for k, quantity in enumerate(("mean", "variance"))
    }
    size = dict(width=400, height=400)
    assert (
        pixels_of_colour(png_pixels(hv.HoloMap(full_only, kdims=["panel"]), **size), colour) < 20
    )  # no sparse run: none
    assert pixels_of_colour(png_pixels(hv.HoloMap(frames, kdims=["panel"]), **size), colour) > 100


def test_mcmc_traces_are_the_samplers_log_likelihood(comparison):
    sampler = comparison.sampler
    lines = glyphs(mcmc_traces(sampler), "Line")
    for chain in range(sampler.n_chains):
        assert any(
            np.array_equal(line.data_source.data["log_likelihood"], sampler.traces[chain, :, 0]) for line in lines
        )
    (burn_in,) = spans(mcmc_traces(sampler))
    assert burn_in.location == sampler.burn_in and burn_in.dimension == "height"


def test_mcmc_surfaces_show_each_surface():
    gx, gy = np.linspace(-1, 1, 9), np.linspace(0, 2, 7)
    xx, yy = np.meshgrid(gx, gy)
    surfaces = {"grid": (gx, gy), "MCMC": expit(xx - yy + 1), "X-GPC": expit(2 * xx)}
    view = mcmc_surfaces(surfaces, train=np.c_[[0.0, 0.5], [1.0, 1.5]], train_labels=[1, 0])
    images = [r.data_source.data["image"][0] for r in glyphs(view, "Image")]
    assert len(images) == 2
    for p in (surfaces["MCMC"], surfaces["X-GPC"]):
        assert any(np.allclose(image, p) for image in images)
    assert len(drawn_axes(view)) == 2


# ---------------------------------------------------------------------------------------------------- the race
def _race(rng):
    seconds = np.r_[0.0, np.geomspace(0.01, 2.0, 40)]
    calm = 0.3 + 0.4 * np.exp(-3 * seconds)
    wobbly = calm + (0.05 * np.sin(8 * seconds) ** 2 + 0.01 * rng.random(41)) * np.exp(-4 * seconds)
    best = float(np.median(calm[-5:]))  # the best final NLL: X-GPC's
    edge = best + 0.01 * (np.log(2.0) - best)  # the 1% band: within 1% of the best gain over a coin flip
    methods = {}
    for name, nll in (("xgpc", calm), ("svgp-natgrad", wobbly), ("svgp-adam", calm + 0.2)):
        methods[name] = {
            "trace": {
                "seconds": seconds.tolist(),
                "iteration": (10 * np.arange(41)).tolist(),
                "test_nll": nll.tolist(),
                "test_error": (nll / 3).tolist(),
            },
            "final_nll": float(nll[-1]),
            "settled_0.01": settled_time_within(seconds, nll, edge),
        }
    return {"folds": [{"best_nll": best, "methods": methods}], "config": {"dataset": "toy"}, "bands": [0.01, 0.05]}


def test_race_settle_markers_sit_at_the_jsons_times():
    race = _race(np.random.default_rng(0))
    methods = race["folds"][0]["methods"]
    settled = {name: r["settled_0.01"] for name, r in methods.items() if math.isfinite(r["settled_0.01"])}
    assert set(settled) == {"xgpc", "svgp-natgrad"}  # SVGP (Adam) stays 0.2 above: never settles
    view = race_curves(race)
    markers = [r for r in glyphs(view, "Scatter") if r.glyph.marker == "diamond"]
    drawn = sorted((r.data_source.data["seconds"][0], r.data_source.data["test_nll"][0]) for r in markers)
    expected = sorted(
        (t, methods[name]["trace"]["test_nll"][methods[name]["trace"]["seconds"].index(t)])
        for name, t in settled.items()
    )
    assert np.asarray(drawn) == pytest.approx(np.asarray(expected))  # pytest 9's approx refuses nested lists
    lines = glyphs(view, "Line")
    assert all(np.all(np.asarray(line.data_source.data["seconds"]) > 0) for line in lines)  # log axis: no t = 0
    best = race["folds"][0]["best_nll"]
    bands = sorted(span.location for span in spans(view))
    assert bands == pytest.approx([best + 0.01 * (np.log(2.0) - best), best + 0.05 * (np.log(2.0) - best)])
    assert len(drawn_axes(view)) == 2


def test_figure2_has_two_panels_per_data_set_and_a_settle_table(tmp_path):
    first, second = _race(np.random.default_rng(0)), _race(np.random.default_rng(1))
    second["config"]["dataset"] = "other <b>set</b>"
    view = figure2([first, second])
    assert len(view) == 4
    titles = [hv.Store.lookup_options("matplotlib", panel, "plot").kwargs["title"] for panel in view]
    assert titles[0].startswith("toy: test NLL") and titles[3] == "other <b>set</b>: test error"
    table = settle_table([first, second]).splitlines()
    assert table[0] == "| data set | X-GPC | SVGP (natural gradients) | SVGP (Adam) |"
    methods = first["folds"][0]["methods"]
    assert f"{methods['xgpc']['settled_0.01']:.3g} s" in table[2] and table[2].endswith("never |")  # Adam never
    path = export.save(view, tmp_path / "figure2.png", width=800, height=600)
    with Image.open(path) as image:
        assert image.size == (800, 600)
        assert len(image.convert("RGB").getcolors(1 << 20)) > 10  # curves in several colours, not a blank page
    with pytest.raises(ValueError, match="at least one race"):
        figure2([])


def test_race_curves_refuse_a_missing_fold():
    with pytest.raises(ValueError, match="no fold 3"):
        race_curves(_race(np.random.default_rng(0)), fold=3)


# ----------------------------------------------------------------------------------------------- the inducing study
def test_inducing_study_averages_the_folds():
    def fit(m, fold, method, level):
        seconds = [0.0, 0.1, 1.0, 2.0]
        error = [0.5, level, level - 0.1, level - 0.1]
        return {
            "m": m,
            "fold": fold,
            "method": method,
            "trace": {"seconds": seconds, "test_error": error, "test_nll": [2 * e for e in error]},
            "final": {"error": level - 0.1, "nll": 2 * (level - 0.1)},
        }

    study = {
        "fits": [
            fit(m, fold, method, 0.2 + 0.1 * fold + 0.01 * m)
            for m in (4, 16)
            for fold in (0, 1)
            for method in ("xgpc", "svgp-adam")
        ]
    }
    view = inducing_study(study)
    assert len(view) == 2  # one panel per method
    for line in glyphs(view, "Line"):
        t, error = np.asarray(line.data_source.data["seconds"]), np.asarray(line.data_source.data["test_error"])
        assert t[0] == pytest.approx(0.1) and t[-1] == pytest.approx(2.0)
        m = 4 if error[0] < 0.3 else 16
        level = 0.25 + 0.01 * m  # mean of the two folds' levels
        np.testing.assert_allclose(error, np.where(t < 1.0, level, level - 0.1), atol=1e-12)
    by_m = inducing_study(study, x="m", quantity="nll")
    for line in glyphs(by_m, "Line"):
        np.testing.assert_allclose(line.data_source.data["test_nll"], [2 * (0.15 + 0.04), 2 * (0.15 + 0.16)])
    for backend in BACKENDS:
        hv.render(view + by_m, backend=backend)


# ------------------------------------------------------------------------------------------- the PG pictures
def test_pg_pictures_agree_with_the_formulas(model_2d):
    identity = augmentation_identity(1.5)
    nodes = [r for r in glyphs(identity, "Scatter") if len(r.data_source.data["z"]) == 17][0]
    np.testing.assert_allclose(nodes.data_source.data["value"], expit(nodes.data_source.data["z"]), atol=1e-9)
    touch = [r for r in glyphs(augmented_bound(2.5), "Scatter")][0]
    np.testing.assert_allclose(touch.data_source.data["z"], [-2.5, 2.5])
    np.testing.assert_allclose(touch.data_source.data["log_value"], log_expit([-2.5, 2.5]))
    (bars,) = glyphs(pg_density(1.0, rng=np.random.default_rng(0)), "Quad")
    data = bars.data_source.data
    area = np.sum((np.asarray(data["right"]) - np.asarray(data["left"])) * np.asarray(data["top"]))
    assert area == pytest.approx(1.0)  # a density histogram of the draws shown
    local = model_2d.last_local()
    (c_bars,) = glyphs(minibatch_view(local).values()[0], "Quad")  # the first panel: c
    c_bars = c_bars.data_source.data
    top, edges = np.histogram(local["c"], bins=30, density=True)
    np.testing.assert_allclose(c_bars["top"], top)
    np.testing.assert_allclose(c_bars["left"], edges[:-1])
    for view in (
        pg_density(0.5),
        identity,
        augmented_bound(0.0),
        minibatch_view(local),
        minibatch_view({"c": np.zeros(0), "theta": np.zeros(0)}),
    ):
        for backend in BACKENDS:
            hv.render(view, backend=backend)


def test_feature_names_are_shown_literally():
    """A feature called "$$x^2$$" is a name, not TeX (Bokeh) or mathtext (matplotlib)."""
    view = decision_surface_from_arrays(
        np.arange(3.0), np.arange(4.0), np.full((4, 3), 0.3), xlabel="$$x^2$$", ylabel="cost in $ (2024)"
    )
    figure = hv.render(view, backend="bokeh")
    assert isinstance(figure.xaxis[0].axis_label, PlainText) and figure.xaxis[0].axis_label.text == "$$x^2$$"
    assert figure.yaxis[0].axis_label.text == "cost in $ (2024)"
    figure = hv.render(view, backend="matplotlib")  # drawing the labels would fail on "$$x^2$$" as mathtext
    (ax,) = [ax for ax in figure.axes if ax.get_xlabel()]
    assert ax.get_xlabel() == r"\$\$x^2\$\$"  # matplotlib draws \$ as a dollar sign


def test_run_labels_are_shown_literally_in_legends():
    """A run called "$x$" is a name, not mathtext, in the matplotlib legend (escaped as the axis labels are) and
    stays as typed in the Bokeh legend."""
    columns = {"iteration": [0, 10, 20], "seconds": [0.0, 0.1, 0.2], "test_nll": [0.7, 0.5, 0.4]}
    view = training_traces(
        columns, dict(columns, test_nll=[0.7, 0.6, 0.5]), labels=["$x$", "cost in $ (2024)"], quantities=("test_nll",)
    )
    figure = hv.render(view, backend="matplotlib")
    (legend,) = [ax.get_legend() for ax in figure.axes if ax.get_legend() is not None]
    assert [text.get_text() for text in legend.get_texts()] == [r"\$x\$", r"cost in \$ (2024)"]
    figure.canvas.draw()  # the escaped labels draw
    (bokeh_legend,) = hv.render(view, backend="bokeh").select({"type": Legend})
    assert sorted(item.label.value for item in bokeh_legend.items) == ["$x$", "cost in $ (2024)"]


def test_the_surface_image_covers_every_point_drawn():
    """The grid spans the training and the test points (a test point beyond the training range once left a white
    band between the image and the axes' edge in exported PNGs): a far point that lands in the test part."""
    X, y = datasets.load("banana-like", n=100, seed=0)
    X, y = np.vstack([X, [[10.0, 10.0]]]), np.append(y, 1)
    model = Model(n_inducing=10)
    for seed in range(50):
        model.seed = seed
        model.set_data(X, y, name="with a far point")
        if np.any(np.all(model.X_test == 10.0, axis=1)):
            break
    assert np.any(np.all(model.X_test == 10.0, axis=1))  # the far point is a test point
    snapshot = surface_arrays(model, resolution=10)
    for part in ("train", "test"):
        points = snapshot[part]
        assert snapshot["grid_x"][0] <= points[:, 0].min() and points[:, 0].max() <= snapshot["grid_x"][-1]
        assert snapshot["grid_y"][0] <= points[:, 1].min() and points[:, 1].max() <= snapshot["grid_y"][-1]


# --------------------------------------------------------------------------------------------------- K = 3 classes

CATEGORY10 = ["#1f77b4", "#ff7f0e", "#2ca02c"]  # the three class colours (blue, orange, green)


@pytest.fixture(scope="module")
def model_3class() -> Model:
    model = Model(dataset="blobs-3", n_points=150, n_inducing=15, batch_size=50, seed=2)
    model.step(60)
    return model


def rgba_image(view) -> np.ndarray:
    """The (ny, nx, 4) uint8 pixels of the view's Bokeh ImageRGBA, row 0 at the bottom (y = grid_y[0])."""
    (image,) = glyphs(view, "ImageRGBA")
    packed = np.asarray(image.data_source.data["image"][0])
    return packed.view(np.uint8).reshape(*packed.shape, 4)


def test_three_class_surface_mixes_the_class_colours_by_probability():
    from explorer.views.style import LIGHTEN

    gx, gy = np.linspace(0.0, 1.0, 7), np.linspace(0.0, 2.0, 5)
    P = np.random.default_rng(4).dirichlet([1.0, 1.0, 1.0], size=(5, 7))  # arbitrary class probabilities
    names = ["setosa", "versi<b>color</b>", "$virginica$"]
    view = decision_surface_from_arrays(
        gx,
        gy,
        P,
        probability=P,
        train=np.c_[[0.1, 0.5, 0.9], [0.2, 1.0, 1.8]],
        train_labels=[0, 1, 2],
        class_names=names,
    )
    colours = (1 - LIGHTEN) * np.array([to_rgb(c) for c in CATEGORY10]) + LIGHTEN  # white mixed into each
    expected = np.einsum("yxk,kc->yxc", P, colours)
    np.testing.assert_allclose(rgba_image(view)[..., :3] / 255.0, expected, atol=1 / 255 + 1e-9)
    (legend,) = hv.render(view, backend="bokeh").select({"type": Legend})
    labels = [item.label["value"] for item in legend.items]
    assert labels[:3] == [f"class {name}" for name in names]  # the classes by name, as plain text
    circles = {
        r.data_source.data["x"][0]: r.glyph.fill_color for r in glyphs(view, "Scatter") if r.glyph.marker == "circle"
    }
    assert [circles[x] for x in (0.1, 0.5, 0.9)] == CATEGORY10  # each training point in its class's colour
    for backend in BACKENDS:
        hv.render(view, backend=backend)


def test_three_class_surface_of_a_model_is_its_prediction(model_3class):
    snapshot = surface_arrays(model_3class, resolution=20)
    xx, yy = np.meshgrid(snapshot["grid_x"], snapshot["grid_y"])
    grid = np.c_[xx.ravel(), yy.ravel()]
    P = model_3class.predict_proba(grid).reshape(20, 20, 3)
    np.testing.assert_allclose(snapshot["values"], P, rtol=1e-9)
    assert snapshot["class_names"] == ["0", "1", "2"]
    uncertainty = surface_arrays(model_3class, quantity="uncertainty", resolution=20)["values"]
    entropy = -(P * np.log(P)).sum(axis=2) / np.log(3)
    np.testing.assert_allclose(uncertainty, entropy, rtol=1e-9)
    sd = surface_arrays(model_3class, quantity="sd", resolution=20)["values"]
    _, var = model_3class.predict_latent(grid)  # the default stick-breaking model: its two logits, (400, 2)
    # the sd of the logit that breaks the predicted class off the stick (order 0, 1, 2: logit min(k, 1))
    logit = np.minimum(predicted_class(P.reshape(-1, 3)), 1)
    np.testing.assert_allclose(sd.ravel(), np.sqrt(var[np.arange(400), logit]), rtol=1e-9)
    # the boundaries: at every vertex the two most probable classes are (nearly) tied
    snapshot = surface_arrays(model_3class, resolution=60)
    (boundaries,) = glyphs(decision_surface_from_arrays(**snapshot), "MultiLine")
    xs, ys = (np.concatenate(boundaries.data_source.data[k]) for k in ("xs", "ys"))
    vertices = np.c_[xs, ys][np.isfinite(xs)]
    assert len(vertices) > 20
    top_two = np.sort(model_3class.predict_proba(vertices), axis=1)[:, -2:]
    np.testing.assert_allclose(top_two[:, 1] - top_two[:, 0], 0.0, atol=0.03)
    assert np.unique(P.reshape(-1, 3).argmax(1)).size == 3  # all three regions are on the picture


@pytest.mark.parametrize("quantity", ["probability", "uncertainty", "sd"])
def test_three_class_views_render_in_both_backends_with_their_parts(model_3class, quantity):
    view = decision_surface(model_3class, quantity=quantity, resolution=15)
    kinds = [type(layer).__name__ for layer in view]
    assert kinds[:2] == ["RGB" if quantity == "probability" else "Image", "Path"]
    assert [layer.label for layer in view][2:5] == ["class 0", "class 1", "class 2"]
    for backend in BACKENDS:
        hv.render(view, backend=backend)


def test_a_surface_legend_names_only_the_layers_it_draws():
    """The MCMC tab's surfaces have training points only: no legend entry for test points, misclassified or
    inducing points (they were listed there with no glyph and nothing drawn)."""
    gx, gy = np.linspace(-1, 1, 20), np.linspace(-1, 1, 15)
    P = 1 / (1 + np.exp(-(gx[None, :] + gy[:, None])))
    train = np.random.default_rng(0).normal(size=(10, 2))

    def legend(**layers) -> list[str]:
        figure = hv.render(
            decision_surface_from_arrays(gx, gy, P, train=train, train_labels=np.arange(10) % 2, **layers)
        )
        return [item.label.value for legend in figure.legend for item in legend.items]

    assert legend() == ["training points"]
    full = legend(
        test=np.zeros((3, 2)), test_labels=np.zeros(3), misclassified=np.ones((1, 2)), inducing=np.ones((2, 2))
    )
    assert full == ["training points", "test points", "misclassified", "inducing points"]
