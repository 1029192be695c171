"""Exports (explorer.views.export): the files are real images or documents — PNG and GIF decode with Pillow at
the requested size and are not blank, the animation's frames differ, SVG parses as XML with drawing elements, HTML
holds the Bokeh document and loads no script from elsewhere — and exporting never changes the model."""

import asyncio
import io
import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from matplotlib import animation
from matplotlib import pyplot as plt
from PIL import Image

from explorer import Model, views
from explorer.metrics import reliability
from explorer.views import export
from explorer.views.traces import history_columns

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def model() -> Model:
    model = Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10, seed=1)
    model.step(30)
    return model


def pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=float)


def reddish_and_bluish(rgb: np.ndarray) -> tuple[int, int]:
    """Pixels clearly red (p(y=1) near 1 on the surface's scale) and clearly blue (near 0)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return int(((r > b + 60) & (r > g + 40)).sum()), int(((b > r + 60) & (b > g + 10)).sum())


def test_png_has_the_requested_size_and_draws_the_surface(model, tmp_path):
    path = export.save(views.decision_surface(model, resolution=30), tmp_path / "surface.png", width=480, height=360)
    image = Image.open(path)
    assert image.format == "PNG" and image.size == (480, 360)
    rgb = pixels(path.read_bytes())
    assert rgb.std() > 0 and len(np.unique(rgb.reshape(-1, 3), axis=0)) > 20
    red, blue = reddish_and_bluish(rgb)
    assert red > 500 and blue > 500  # both classes' sides of the boundary are painted


def test_composed_views_export_as_svg_with_drawing_elements(model, tmp_path):
    # a fixed time axis (1 ms an iteration), not the measured one, whose tick labels vary from run to run
    columns = history_columns(model)
    columns["seconds"] = 0.001 * columns["iteration"]
    view = views.decision_surface(model, resolution=20) + views.training_traces(columns, quantities=("test_nll",))
    path = export.save(view, tmp_path / "figure.svg", width=900, height=400)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "648pt" and root.get("height") == "288pt"  # 900 × 400 px at 100 dpi, in points
    drawn = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}image", f"{SVG}use")]
    assert len(drawn) > 50
    assert any(e.tag == f"{SVG}image" for e in root.iter())  # the surface's raster


def test_tick_labels_that_meet_once_their_panel_is_widened_are_thinned(model, monkeypatch):
    """The composed figure above failed in the full suite, where a warm process trained the model's 30 iterations in
    3.7 ms: the layout thinned the time axis's ticks, then widened the panel, for which matplotlib chose ticks every
    0.0005 s again, and their labels (0.0000, 0.0005, …) met; the whole figure was drawn at 85 % (an SVG 762.35 pt
    wide instead of 648 pt). The ticks are now thinned at the panels' final size: the text fits at full size."""
    columns = dict(history_columns(model), seconds=np.array([0.0, 0.0012, 0.0025, 0.0037]))
    view = views.decision_surface(model, resolution=20) + views.training_traces(columns, quantities=("test_nll",))
    plot = export.laid_out(view, width=900, height=400, dpi=100)
    try:
        assert text_problems(plot.state, monkeypatch)[0] == []
        assert plot.state.dpi == 100  # not shrunk
    finally:
        plt.close(plot.state)


def test_html_is_a_standalone_bokeh_document(model, tmp_path):
    path = export.save(views.training_traces(model), tmp_path / "traces.html")
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\ssrc\s*=", text, flags=re.I)  # no JavaScript fetched from anywhere
    assert "Bokeh" in text and len(text) > 500_000  # BokehJS itself is inline
    documents = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', text, flags=re.S)
    assert documents
    document = next(iter(json.loads(documents[0]).values()))
    assert document["roots"]  # a Bokeh document with at least one plot


def test_gif_animates_training_on_a_copy_of_the_model(model, tmp_path):
    iteration, rows, mean = model.iteration, model.history.total, model.engine.state_dict()["eta1"].copy()
    stages = []
    path = export.animate_training(
        model,
        tmp_path / "training.gif",
        iterations=40,
        every=20,
        resolution=15,
        width=400,
        height=300,
        dpi=50,
        progress=lambda *a: stages.append(a),
    )
    assert (model.iteration, model.history.total) == (iteration, rows)
    assert np.array_equal(model.engine.state_dict()["eta1"], mean)
    assert stages[-1] == ("drawing", 3, 3) and ("training", 3, 3) in stages
    assert stages[stages.index(("training", 3, 3)) + 1] == ("drawing", 0, 3)  # said before the first frame is laid out
    gif = Image.open(path)
    assert gif.format == "GIF" and gif.size == (400, 300) and gif.n_frames == 3
    frames = []
    for k in range(gif.n_frames):
        gif.seek(k)
        frames.append(np.asarray(gif.convert("RGB"), dtype=float))
    for frame in frames:
        assert frame.std() > 0 and len(np.unique(frame.reshape(-1, 3), axis=0)) > 10
    assert np.abs(frames[0] - frames[-1]).sum() > 0  # training moved the surface and the traces


def test_frames_of_a_fresh_model_start_at_its_prior():
    fresh = Model(dataset="xor", n_points=100, n_inducing=8, batch_size=40, eval_every=10)
    frames = export.training_frames(fresh, iterations=20, every=10, resolution=10)
    assert fresh.iteration == 0 and fresh.history.total == 0  # the model itself is untouched
    surface, nll = frames[0], frames[2]
    assert list(surface.keys()) == [0, 10, 20]
    assert [len(nll[k].get(0).dimension_values(0)) for k in (0, 10, 20)] == [1, 2, 3]  # one evaluation per 10


def test_bad_requests_name_the_problem(model, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"figure\.jpg.*\.png, \.svg, \.html"):
        export.save(views.training_traces(model), tmp_path / "figure.jpg")
    with pytest.raises(ValueError, match="both width and height"):
        export.render(views.training_traces(model), "png", width=300)
    with pytest.raises(ValueError, match="at most 200"):
        export.training_frames(model, iterations=10_000, every=1)
    with pytest.raises(ValueError, match="every must be a whole number"):
        export.training_frames(model, iterations=10, every=0)
    monkeypatch.setattr(animation.writers, "is_available", lambda name: False)
    with pytest.raises(ValueError, match=r"needs ffmpeg, which is not installed here; write a \.gif"):
        export.write_animation(
            export.training_frames(model, iterations=10, every=10, resolution=10), tmp_path / "training.mp4"
        )
    assert not (tmp_path / "training.mp4").exists()


def test_the_train_tab_downloads_files_drawn_from_a_copy_of_the_session_model(monkeypatch):
    from explorer.dashboard import Dashboard, train

    monkeypatch.setattr(train, "ANIMATION_FRAMES", 2)
    monkeypatch.setattr(train, "ANIMATION_SIZE", dict(width=320, height=240, dpi=40, resolution=12, fps=2))
    dashboard = Dashboard(Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10))
    tab = dashboard.train
    try:
        dashboard.step()
        iteration, rows = dashboard.model.iteration, dashboard.model.history.total
        rgb = pixels(asyncio.run(tab.surface_file.callback()).getvalue())
        assert min(reddish_and_bluish(rgb)) > 500
        tab.export_format.value = "SVG"
        assert (tab.surface_file.filename, tab.traces_file.filename) == ("xgpc-surface.svg", "xgpc-traces.svg")
        assert ET.fromstring(asyncio.run(tab.traces_file.callback()).getvalue()).tag == f"{SVG}svg"
        tab.animation_iterations.value = 20
        gif = Image.open(asyncio.run(tab.animation_file_bytes()))
        assert gif.size == (320, 240) and gif.n_frames == 3  # now and after 10 and 20 iterations
        assert "ready" in tab.export_status.value and not tab.export_progress.visible
        assert not tab.animation_file.disabled
        assert (dashboard.model.iteration, dashboard.model.history.total) == (iteration, rows)
        tab.animation_iterations.value = 5
        with pytest.raises(ValueError):
            asyncio.run(tab.animation_file_bytes())
        assert "5 iterations is out of range (from 10 to 2000)" in tab.export_status.value
    finally:
        dashboard.close()


# ----- slide-ready files: no text cut off at the edge, none on top of another (issue 20.8) ---------------------
def drawn_text(figure, monkeypatch) -> list[tuple[str, object]]:
    """(text, window extent in px) of every non-empty text matplotlib draws in `figure` (tick labels outside the view
    are never drawn, so they are not counted), and ("legend marker", extent) of every legend entry's marker area."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.offsetbox import DrawingArea
    from matplotlib.text import Text

    drawn, draw = [], Text.draw

    def recording(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn.append((self.get_text(), self.get_window_extent(renderer)))

    monkeypatch.setattr(Text, "draw", recording)
    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    canvas.draw()
    monkeypatch.undo()
    renderer = canvas.get_renderer()
    markers = [
        ("legend marker", area.get_window_extent(renderer))
        for ax in figure.axes
        if ax.get_legend()
        for area in ax.get_legend().findobj(DrawingArea)
    ]
    return drawn + markers


def text_problems(figure, monkeypatch) -> tuple[list[str], list[str]]:
    """Texts (or legend markers) reaching past the figure's edge, and pairs drawn on top of each other; and the texts
    drawn (from the same drawing: each draw of a laid-out figure costs a good part of a second)."""
    boxes = drawn_text(figure, monkeypatch)
    edge = figure.bbox
    problems = [
        f"{text!r} cut at the edge: {box.bounds} outside {edge.bounds}"
        for text, box in boxes
        if box.x0 < edge.x0 - 0.5 or box.y0 < edge.y0 - 0.5 or box.x1 > edge.x1 + 0.5 or box.y1 > edge.y1 + 0.5
    ]
    for i, (text, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1 :]:
            overlap = (
                min(box.x1, other_box.x1) - max(box.x0, other_box.x0),
                min(box.y1, other_box.y1) - max(box.y0, other_box.y0),
            )
            if overlap[0] > 1 and overlap[1] > 1:
                problems.append(f"{text!r} and {other!r} overlap")
    return problems, [text for text, _ in boxes]


@pytest.fixture(scope="module")
def trained() -> Model:
    model = Model(dataset="banana-like", n_inducing=20, batch_size=50, seed=0)
    model.step(100)
    return model


SLIDE_SIZES = [(1200, 450), (960, 540), (900, 400), (800, 400), (600, 300)]  # the README's size down to the least


def plain_numbers(texts: list[str]) -> bool:
    """No tick label in scientific notation (10^-1, 6×10⁻², 2e−01): log axes are labelled 0.06, 0.2, 1.15."""
    return not any("10^" in text or "\\times" in text or re.fullmatch(r"\d(\.\d+)?e[−+-]?\d+", text) for text in texts)


@pytest.mark.parametrize(
    "name, width, height",
    [("README figure", w, h) for w, h in SLIDE_SIZES]
    + [("traces", None, None), ("traces", 1200, 450), ("traces", 600, 300)]
    + [("surface", None, None), ("surface", 480, 360), ("surface", 300, 200)],
)
def test_exported_figures_keep_every_text_inside_and_apart(trained, name, width, height, monkeypatch):
    """The README's `save(decision_surface + training_traces, "figure.png", width=1200, height=450)` cut the panel
    letter, put legend markers on their labels, hid the x1 label under the legend and ran the colour bar's label
    into panel B's; the Traces PNG cut its left tick labels and title; below about 900 × 400 every panel's text ran
    into its neighbours'."""
    view = {
        "README figure": views.decision_surface(trained)
        + views.training_traces(trained, quantities=("test_nll", "test_error")),
        "traces": views.training_traces(trained, labels=[trained.data_name]),
        "surface": views.decision_surface(trained),
    }[name]
    plot = export.laid_out(view, width=width, height=height, dpi=100)
    try:
        problems, texts = text_problems(plot.state, monkeypatch)
        assert problems == []
        assert ("x1" in texts and "x2" in texts) == (name != "traces")  # the axis labels are drawn …
        assert ("training time (s, evaluation excluded)" in texts) == (not name.startswith("surface"))
        assert plain_numbers(texts)  # … and log axes in plain numbers
        assert plot.state.dpi >= 50  # text at least half its size at the requested dpi
    finally:
        plt.close(plot.state)


@pytest.fixture(scope="module")
def every_view(trained) -> dict:
    """Every view of explorer.views a notebook or the README exports, on small but real inputs."""
    from explorer.kernels import initial_kernel
    from explorer.studies.comparison import run_comparison

    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=60) > 0, 1, 0)  # class indices
    kernel = initial_kernel("rbf", 2, lengthscale=1.0, variance=1.0, nugget=1e-4, ard=False)
    comparison = run_comparison(X, y, kernel, n_inducing=6, n_samples=40, burn_in=10, n_chains=2, progress=None)
    y3 = np.digitize(X[:, 0] + 0.3 * rng.normal(size=60), [-0.4, 0.4])  # three classes
    three = run_comparison(X, y3, kernel, n_inducing=6, n_samples=40, burn_in=10, n_chains=2, progress=None)
    grid = np.linspace(-2, 2, 20)
    seconds = [0.0, 0.01, 0.1, 1.0, 2.0]
    probabilities = rng.dirichlet([1.0, 1.0, 1.0], 200)
    labels = np.array([rng.choice(3, p=p) for p in probabilities])  # three classes, calibrated by construction

    def fit(m, method, level):
        trace = {"seconds": seconds, "test_error": [0.5, 0.4, level, level, level - 0.1]}
        return {"m": m, "fold": 0, "method": method, "trace": dict(trace, test_nll=[0.7, 0.6, 0.5, 0.45, 0.4])}

    race_methods = {
        name: {
            "trace": {
                "seconds": seconds,
                "iteration": [0, 10, 20, 30, 40],
                "test_nll": [0.7, nll, 0.4, 0.35, 0.33],
                "test_error": [0.5, 0.3, 0.2, 0.1, 0.1],
            },
            "settled_0.01": 1.0,
        }
        for name, nll in (("xgpc", 0.5), ("svgp-natgrad", 0.6), ("svgp-adam", 0.65))
    }
    race = {"folds": [{"best_nll": 0.33, "methods": race_methods}], "config": {"dataset": "toy"}, "bands": [0.01]}
    return {
        "MCMC comparison": views.mcmc_comparison(comparison),
        "MCMC surfaces": views.mcmc_surfaces(
            {"grid": (grid, grid), "MCMC": np.outer(grid, grid) / 8 + 0.5, "X-GPC": np.outer(grid, grid) / 9 + 0.5},
            train=X,
            train_labels=y,
        ),
        "MCMC traces": views.mcmc_traces(comparison.sampler),
        "MCMC comparison, three classes": views.mcmc_comparison(three),
        "race": views.race_curves(race),
        "PG density": views.pg_density(1.0, rng=np.random.default_rng(0)),
        "augmentation identity": views.augmentation_identity(1.5),
        "augmented bound": views.augmented_bound(2.5),
        "minibatch": views.minibatch_view(trained.last_local()),
        "EP site": views.ep_site_view(0.3, 1.2, 1.0),
        "inducing study": views.inducing_study(
            {"fits": [fit(m, method, 0.3 - 0.01 * m) for m in (4, 16) for method in ("xgpc", "svgp-adam")]}
        ),
        "two runs' traces": views.training_traces(trained, trained, labels=["run a", "run b"]),
        "reliability": views.reliability_diagram(
            {name: reliability(P, labels) for name, P in (("X-GPC", probabilities), ("softmax SVGP", probabilities**2))}
        ),
    }


@pytest.mark.parametrize("width, height", [(900, 400), (600, 300)])
def test_every_view_exports_with_its_text_inside_and_apart(every_view, width, height, monkeypatch):
    for name, view in every_view.items():
        plot = export.laid_out(view, width=width, height=height, dpi=100)
        try:
            problems, texts = text_problems(plot.state, monkeypatch)
            assert problems == [], name
            assert plain_numbers(texts), name
        finally:
            plt.close(plot.state)


def test_a_figure_too_small_for_its_text_is_refused(trained, tmp_path):
    figure = views.decision_surface(trained) + views.training_traces(trained, quantities=("test_nll", "test_error"))
    with pytest.raises(ValueError, match=r"at 400 × 300 px the figure's text does not fit even at half size \('"):
        export.save(figure, tmp_path / "figure.png", width=400, height=300)
    with pytest.raises(ValueError, match="width must be a whole number from 300 to 8000, got 200"):
        export.save(figure, tmp_path / "figure.png", width=200, height=300)
    assert not (tmp_path / "figure.png").exists()
    path = export.save(figure, tmp_path / "figure.svg", width=600, height=300)  # the least, in every format
    assert ET.parse(path).getroot().get("width") == f"{600 / 60 * 72:g}pt"  # drawn at 60 dpi: text at 60 %


@pytest.fixture(scope="module")
def frames(trained):
    """The frames of an animation of `trained`, made once for the sizes below (each lays out its own plot of them)."""
    return export.training_frames(trained, iterations=40, every=20, resolution=15)


@pytest.mark.parametrize("width, height, dpi", [(960, 600, 60), (800, 600, 80), (600, 400, 80)])
def test_animation_frames_keep_every_text_inside_and_apart(frames, width, height, dpi, monkeypatch):
    """The GIF's title was cut at the top. First and last frame, at the README's and the Train tab's sizes."""
    plot = export.laid_out(frames, width=width, height=height, dpi=dpi)
    try:
        assert text_problems(plot.state, monkeypatch)[0] == []
        plot.update(plot.keys[-1])
        problems, texts = text_problems(plot.state, monkeypatch)
        assert problems == []
        assert "p(y=1)" in texts
    finally:
        plt.close(plot.state)


# --------------------------------------------------------------------------------------------------- K = 3 classes


@pytest.fixture(scope="module")
def three_class() -> Model:
    model = Model(dataset="blobs-3", n_points=200, n_inducing=15, batch_size=50, seed=1)
    model.step(100)
    return model


def class_hues(rgb: np.ndarray, colours=("#1f77b4", "#ff7f0e", "#2ca02c"), within: float = 15.0) -> list[int]:
    """For each class colour, how many pixels of the RGB image (h, w, 3) (0–255) are coloured (saturation > 0.2, not
    dark) with a hue within `within` degrees of that colour's hue."""
    from matplotlib.colors import rgb_to_hsv, to_rgb

    hsv = rgb_to_hsv(np.clip(rgb / 255.0, 0.0, 1.0))
    coloured = (hsv[..., 1] > 0.2) & (hsv[..., 2] > 0.3)
    counts = []
    for colour in colours:
        hue = rgb_to_hsv(np.array(to_rgb(colour)))[0]
        distance = np.abs((hsv[..., 0] - hue + 0.5) % 1.0 - 0.5) * 360.0
        counts.append(int((coloured & (distance < within)).sum()))
    return counts


@pytest.mark.parametrize("quantity", ["probability", "uncertainty"])
def test_three_class_surface_exports_as_png_svg_and_html(three_class, quantity, tmp_path):
    view = views.decision_surface(three_class, quantity=quantity, resolution=40)
    path = export.save(view, tmp_path / "surface.png", width=620, height=560)
    assert Image.open(path).size == (620, 560)
    hues = class_hues(pixels(path.read_bytes()))
    # the probability picture is painted in the three class colours; the uncertainty picture has its points only
    assert min(hues) > (2000 if quantity == "probability" else 30), hues
    root = ET.parse(export.save(view, tmp_path / "surface.svg", width=620, height=560)).getroot()
    assert any(e.tag == f"{SVG}image" for e in root.iter())
    html = export.save(view, tmp_path / "surface.html").read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\ssrc\s*=", html, flags=re.I)
    for name in ("class 0", "class 1", "class 2", "class boundaries"):
        assert name in html
    title = {"probability": "class probabilities", "uncertainty": "uncertainty (entropy / log K)"}[quantity]
    assert f"{title} with the class boundaries" in html


@pytest.mark.parametrize(
    "quantity, width, height",
    [("probability", None, None), ("probability", 480, 360), ("uncertainty", 480, 360), ("probability", 300, 200)],
)
def test_three_class_surface_keeps_every_text_inside_and_apart(three_class, quantity, width, height, monkeypatch):
    plot = export.laid_out(views.decision_surface(three_class, quantity=quantity), width=width, height=height, dpi=100)
    try:
        problems, texts = text_problems(plot.state, monkeypatch)
        assert problems == []
        assert {"x1", "x2", "class 0", "class 1", "class 2"} <= set(texts)
    finally:
        plt.close(plot.state)


def test_an_animation_being_made_stops_at_its_next_frame_when_the_session_ends(monkeypatch):
    from explorer.dashboard import Dashboard, cluster, train

    monkeypatch.setattr(train, "ANIMATION_SIZE", dict(width=320, height=240, dpi=40, resolution=12, fps=2))
    dashboard = Dashboard(Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10))
    tab = dashboard.train
    tab.animation_iterations.value = 2000  # 20 frames of 100 iterations: far longer than this test waits
    seen = []

    async def close_once_training() -> None:
        making = asyncio.ensure_future(tab.animation_file_bytes())
        while not re.search(r"Animation: training [1-9]", tab.export_status.value) and not making.done():
            await asyncio.sleep(0.05)
        seen.append(tab.export_status.value)
        dashboard.close()  # the visitor left
        with pytest.raises(cluster.Cancelled, match="the animation was stopped at (training|drawing) "):
            await asyncio.wait_for(making, timeout=60)

    asyncio.run(close_once_training())
    assert re.search(r"Animation: training [1-9]\d*/21", seen[0])  # under way, not finished, when the session ended
    assert "could not be made: Cancelled" in tab.export_status.value and not tab.animation_file.disabled


def test_a_three_class_animation_draws_its_surface_with_fewer_points_within_a_colour_level(monkeypatch):
    """Issue 31.11: the K-class surface of each frame is the predictive by `SURFACE_SAMPLES` (≤ 256) quasi-random
    points, not the 1,024 of the link (the cost of a frame): its class probabilities still lie within 2e-3 of a
    tensor-product Gauss–Hermite quadrature (40³ nodes) at every snapshot, and its colours within one 8-bit level."""
    from explorer.likelihoods import LogisticSoftmax, logistic_softmax
    from explorer.views.style import class_mixture

    # the logistic-softmax's predictive by quasi-random points (the default stick-breaking one needs none)
    model = Model(
        dataset="blobs-3", n_points=150, n_inducing=12, batch_size=40, eval_every=10, seed=2, multiclass_family="joint"
    )
    seen, surface_arrays = [], export.surface_arrays
    points = {}

    def watched(run, **options):
        points["surface"] = True  # count the surface's predictions, not the training's evaluations
        snapshot = surface_arrays(run, **options)
        points["surface"] = False
        plane = options["plane"]
        xx, yy = np.meshgrid(snapshot["grid_x"], snapshot["grid_y"])
        grid = plane.from_plane(np.c_[xx.ravel(), yy.ravel()])
        seen.append((snapshot["probability"].reshape(-1, 3), *run.predict_latent(grid)))
        return snapshot

    predictive = LogisticSoftmax.predictive

    def counted(link, mean, var):
        if points.get("surface"):
            points[link.samples] = points.get(link.samples, 0) + len(mean)
        return predictive(link, mean, var)

    monkeypatch.setattr(export, "surface_arrays", watched)
    monkeypatch.setattr(LogisticSoftmax, "predictive", counted)
    export.training_frames(model, iterations=40, every=20, resolution=12)
    assert len(seen) == 3
    samples = [key for key in points if key != "surface"]
    assert samples and max(samples) <= 256  # no surface of the animation took the link's 1,024 points
    rows = np.random.default_rng(0).choice(144, 12, replace=False)
    for P, mean, var in seen:
        exact = np.array([W @ logistic_softmax(F) for F, W in (_hermite(mean[i], var[i]) for i in rows)])
        assert np.max(np.abs(P[rows] - exact)) < 2e-3
        assert np.max(np.abs(class_mixture(P[rows]) - class_mixture(exact))) * 255 < 1.0


def _hermite(mean, var, nodes=40):
    """Tensor-product Gauss–Hermite nodes (nodes^K, K) and weights of Π_k N(mean_k, var_k)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    F = np.stack(np.meshgrid(*[m + np.sqrt(2.0 * v) * x for m, v in zip(mean, var)], indexing="ij"), -1)
    W = np.ones(1)
    for _ in mean:
        W = np.outer(W, w / np.sqrt(np.pi)).ravel()
    return F.reshape(-1, len(mean)), W


def test_the_animation_layout_keeps_its_own_options():
    """The frames' layout (its option set without walking the frames: `training_frames`) draws no panel letters."""
    from holoviews import Store

    fresh = Model(dataset="xor", n_points=100, n_inducing=8, batch_size=40, eval_every=10)
    frames = export.training_frames(fresh, iterations=20, every=10, resolution=10)
    options = Store.lookup_options("matplotlib", frames, "plot").kwargs
    assert options.get("sublabel_format") == "" and len(frames) == 4
