"""Three classes in the served dashboard, in headless Debian Chromium (Playwright): a three-class built-in set chosen
from the data-set menu trains by Step and Play and its live surface shows the three class colours (counted in the
plot's pixels on a screenshot); a CSV with three labels uploads, says so, and trains. The helpers and the Chromium
fixtures are those of test_browser.py, test_browser_upload.py and conftest.py."""

import io

import numpy as np
import pytest
from PIL import Image
from test_browser import (  # noqa: F401 (served: a fixture)
    TIMEOUT_MS,
    open_app,
    served,
    settled_screenshot,
    shoot,
    wait_server,
)
from test_browser_upload import notice, upload
from test_export import class_hues

pytestmark = pytest.mark.browser

# The page box of the data frame of the plot that draws the K-class surface (its RGBA image's source).
SURFACE_FRAME = """() => {
  for (const view of Bokeh.index.query(v => v.frame !== undefined && v.canvas_view !== undefined)) {
    const sources = view.model.renderers.map(r => r.data_source).filter(s => s !== undefined);
    if (!sources.some(s => s.name === "surface-mixture")) continue;
    const canvas = view.canvas_view.el.getBoundingClientRect();
    const frame = view.frame.bbox;
    return {x: canvas.x + window.scrollX + frame.x, y: canvas.y + window.scrollY + frame.y,
            w: frame.width, h: frame.height};
  }
  return null;
}"""


def surface_pixels(page) -> np.ndarray:
    """The pixels (h, w, 3) inside the surface plot's frame, from a screenshot of the whole page."""
    shot = np.asarray(Image.open(io.BytesIO(settled_screenshot(page))).convert("RGB"), dtype=float)
    box = page.evaluate(SURFACE_FRAME)
    assert box is not None and box["w"] > 100 and box["h"] > 100
    x, y, w, h = (int(round(box[k])) for k in "xywh")
    return shot[y + 1 : y + h - 1, x + 1 : x + w - 1]


def test_a_three_class_set_trains_and_its_surface_shows_three_class_colours(served, page):
    dashboard, errors = open_app(page, *served)
    page.get_by_label("data set", exact=True).select_option("blobs-3")  # the menu offers the three-class sets
    wait_server(page, lambda: dashboard.model.dataset == "blobs-3" and dashboard.actions.current is None)
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    page.get_by_text(f"iteration {dashboard.model.eval_every}").wait_for(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Play").click()
    wait_server(page, lambda: dashboard.model.iteration >= 150)
    page.get_by_role("button", name="Pause").click()
    wait_server(page, lambda: not dashboard.worker.playing)
    page.get_by_role("button", name="uncertainty").wait_for(timeout=TIMEOUT_MS)  # the K-class modes are offered
    pixels = surface_pixels(page)
    shoot(page, "train-three-classes")
    hues = class_hues(pixels)
    frame = pixels.shape[0] * pixels.shape[1]
    # blue, orange and green each cover a visible part of the plot: the three classes' regions
    assert all(count > 0.03 * frame for count in hues), (hues, frame)
    assert dashboard.model.predict_proba(dashboard.model.X_test).shape[1] == 3
    assert errors == []


def test_a_three_label_csv_uploads_says_how_many_classes_and_trains(served, page):
    dashboard, errors = open_app(page, *served)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 2))
    labels = np.array(["left", "middle", "right"])[np.digitize(X[:, 0], [-0.45, 0.45])]
    content = ("u,v,label\n" + "".join(f"{a:.4f},{b:.4f},{c}\n" for (a, b), c in zip(X, labels))).encode()
    page.locator(".bk-tab", has_text="Data").click()
    upload(page, "three.csv", content)
    notice(page, "Loaded three.csv: 120 rows, 2 features; 3 classes: left, middle, right.")
    wait_server(page, lambda: dashboard.model.dataset == "custom")
    assert dashboard.model.classes.tolist() == ["left", "middle", "right"]
    page.get_by_text("3 classes: left (").wait_for(timeout=TIMEOUT_MS)  # the Data tab's description
    page.locator(".bk-tab", has_text="Train").click()
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    page.get_by_text(f"iteration {dashboard.model.eval_every}").wait_for(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="click adds class middle").wait_for(timeout=TIMEOUT_MS)
    assert min(class_hues(surface_pixels(page))) > 0  # the three colours are drawn
    assert errors == []


def _pressed_click_class(page) -> str:
    """The text of the click-class button the page shows pressed."""
    return page.locator(".bk-btn-group .bk-btn.bk-active", has_text="click adds class").inner_text().strip()


@pytest.mark.parametrize("width", [1400, 1280])
def test_each_class_button_is_clickable_and_a_click_on_the_plot_adds_that_class(served, page, width):
    """From the binary default page to a three-class set: the button shown pressed is the class a click adds, every
    class's button takes a mouse click where a person would click (none covered by another control), and pressing the
    button of the class already chosen keeps it."""
    page.set_viewport_size({"width": width, "height": 1000})
    dashboard, errors = open_app(page, *served)
    page.get_by_label("data set", exact=True).select_option("blobs-3")
    wait_server(page, lambda: dashboard.model.dataset == "blobs-3" and len(dashboard.surface.class_names) == 3)
    names = dashboard.surface.class_names
    page.get_by_role("button", name=f"click adds class {names[2]}").wait_for(timeout=TIMEOUT_MS)
    shown = _pressed_click_class(page)
    canvas = page.locator(".bk-Canvas").first.bounding_box()
    for k, name in [(None, shown.removeprefix("click adds class ")), (2, names[2]), (1, names[1]), (1, names[1])]:
        if k is not None:
            box = page.get_by_role("button", name=f"click adds class {name}").bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_timeout(300)
            assert _pressed_click_class(page) == f"click adds class {name}"
        n = len(dashboard.model.y_train)
        page.mouse.click(canvas["x"] + canvas["width"] * 0.45, canvas["y"] + canvas["height"] * 0.5)
        wait_server(page, lambda: len(dashboard.model.y_train) == n + 1)
        assert dashboard.model.y_train[-1] == names.index(name), (shown, name, dashboard.model.y_train[-1])
    shoot(page, f"click-classes-{width}")
    assert errors == []
