"""Exports (explorer.dashboard.export): the files are real images or documents — PNG and GIF decode with Pillow at
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
from PIL import Image

from explorer import Model
from explorer.dashboard import export, views

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
    view = views.decision_surface(model, resolution=20) + views.training_traces(model, quantities=("test_nll",))
    path = export.save(view, tmp_path / "figure.svg", width=900, height=400)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "648pt" and root.get("height") == "288pt"  # 900 × 400 px at 100 dpi, in points
    drawn = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}image", f"{SVG}use")]
    assert len(drawn) > 50
    assert any(e.tag == f"{SVG}image" for e in root.iter())  # the surface's raster


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
    path = export.animate_training(model, tmp_path / "training.gif", iterations=40, every=20, resolution=15,
                                   width=400, height=300, dpi=50, progress=lambda *a: stages.append(a))
    assert (model.iteration, model.history.total) == (iteration, rows)
    assert np.array_equal(model.engine.state_dict()["eta1"], mean)
    assert stages[-1] == ("drawing", 3, 3) and ("training", 3, 3) in stages
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
        export.write_animation(export.training_frames(model, iterations=10, every=10, resolution=10),
                               tmp_path / "training.mp4")
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
        rgb = pixels(asyncio.run(tab.surface_file_bytes()).getvalue())
        assert min(reddish_and_bluish(rgb)) > 500
        tab.export_format.value = "SVG"
        assert (tab.surface_file.filename, tab.traces_file.filename) == ("xgpc-surface.svg", "xgpc-traces.svg")
        assert ET.fromstring(asyncio.run(tab.traces_file_bytes()).getvalue()).tag == f"{SVG}svg"
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
