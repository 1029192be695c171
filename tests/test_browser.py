"""The served dashboard in headless Debian Chromium (Playwright). One in-process server for the module (its sessions'
dashboards are recorded so tests can look at the server side too) and one real `panel serve apps/explorer.py`.
Screenshots go to $XGPC_TEST_ARTIFACTS (default test-artifacts/)."""

import logging
import os
import socket
import time
from pathlib import Path

import panel as pn
import pytest

from explorer.dashboard import serve_in_background
from explorer.data import datasets

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("XGPC_TEST_ARTIFACTS", ROOT / "test-artifacts"))
TIMEOUT_MS = 90_000  # failsafe for waits on a loaded 2-core machine, never an assertion about speed

LIVE_POINTS = """() => {
  for (const doc of Bokeh.documents) {
    const source = doc.get_model_by_name("live-trace");
    if (source) return source.data.iteration.length;
  }
  return -1;
}"""
IMAGE_SUM = """() => {
  for (const doc of Bokeh.documents) {
    const source = doc.get_model_by_name("surface-image");
    if (source) return Array.from(source.data.image[0]).reduce((a, b) => a + b, 0);
  }
  return null;
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served():
    """(url, dashboards): the app served in this process; `dashboards` lists each session's Dashboard in order."""
    dashboards = []
    port = free_port()
    server = serve_in_background(port, dashboards)
    yield f"http://127.0.0.1:{port}/", dashboards
    server.stop()
    server.join()
    pn.state.reset()


def open_app(page, url, dashboards):
    """Load the page, wait until it is live; returns (that session's Dashboard, list of console errors)."""
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    count = len(dashboards)
    page.goto(url)
    page.get_by_role("button", name="Play").wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 0", timeout=TIMEOUT_MS)
    assert len(dashboards) == count + 1
    return dashboards[-1], errors


def wait_server(page, condition) -> None:
    """Let the page run until a server-side condition holds (failsafe deadline)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not condition():
        assert time.monotonic() < deadline, "the server never reached the expected state"
        page.wait_for_timeout(100)


def shoot(page, name: str, shot: bytes | None = None) -> None:
    """Save a screenshot of the whole page (`shot`, else one taken now) as $XGPC_TEST_ARTIFACTS/`name`.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if shot is None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    else:
        (ARTIFACTS / f"{name}.png").write_bytes(shot)


def settled_screenshot(page) -> bytes:
    """A screenshot (PNG) of the whole page once its last repaint is on screen: two screenshots in a row, 0.2 s
    apart, show the same pixels (failsafe deadline). Each screenshot is of a new frame of the page."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    shot = page.screenshot(full_page=True)
    while True:
        page.wait_for_timeout(200)
        again = page.screenshot(full_page=True)
        if again == shot:
            return shot
        assert time.monotonic() < deadline, "the page never stopped changing"
        shot = again


def test_fresh_page_shows_banana_ready_without_console_errors(served, page):
    dashboard, errors = open_app(page, *served)
    expected = "banana" if "banana" in datasets.available() else "banana-like"
    assert dashboard.model.dataset == expected and dashboard.model.iteration == 0
    assert page.get_by_text("iteration 0").count() == 1
    page.wait_for_timeout(500)
    assert errors == []


def test_play_grows_curves_changes_surface_and_pause_stops(served, page):
    dashboard, errors = open_app(page, *served)
    surface_before = page.evaluate(IMAGE_SUM)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 4", timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({IMAGE_SUM})() !== {surface_before}", timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Pause").click()
    wait_server(page, lambda: not dashboard.worker.playing)
    with dashboard.worker.hold():  # the chunk that was running when Pause arrived has finished
        stopped_at = dashboard.model.iteration
    page.wait_for_timeout(1500)
    points = page.evaluate(LIVE_POINTS)
    page.wait_for_timeout(1000)
    assert dashboard.model.iteration == stopped_at > 0
    assert page.evaluate(LIVE_POINTS) == points
    shoot(page, "train")
    assert errors == []


def test_learn_tabs_ep_picture_draws_its_curves_and_follows_the_sliders(served, page):
    """The HoloViews EP picture inside the dashboard's tabs is drawn (a Layout there once came out with zero-size
    plots): the site's orange and the tilted density's blue are on screen below its heading, and move with μ₋."""
    import io

    import numpy as np
    from PIL import Image

    dashboard, errors = open_app(page, *served)
    page.locator(".bk-tab", has_text="Learn").click()
    heading = page.get_by_text("5. One point's EP update").first
    heading.wait_for(timeout=TIMEOUT_MS)

    def picture() -> np.ndarray:
        page.wait_for_timeout(1500)
        box = heading.bounding_box()
        shot = page.screenshot(full_page=True, clip={"x": 0, "y": box["y"] + scroll(), "width": 900, "height": 420})
        return np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=int)

    def scroll() -> float:
        return page.evaluate("() => window.scrollY")

    def pixels(image, rgb) -> int:
        return int((np.abs(image - np.array(rgb)).sum(axis=2) < 60).sum())

    before = picture()
    assert pixels(before, (255, 140, 0)) > 200 and pixels(before, (65, 105, 225)) > 200  # darkorange, royalblue
    dashboard.learn.cavity_mean.value = 2.5
    after = picture()
    assert pixels(after, (255, 140, 0)) > 200 and (np.abs(after - before).sum(axis=2) > 0).sum() > 1000
    shoot(page, "learn-ep")
    assert errors == []


def test_malformed_csv_upload_shows_an_error_and_the_app_keeps_working(served, page):
    dashboard, errors = open_app(page, *served)
    dataset = dashboard.model.dataset
    page.locator(".bk-tab", has_text="Data").click()
    page.locator("input[type=file]").set_input_files(
        files=[{"name": "broken.csv", "mimeType": "text/csv", "buffer": b"x1,x2,label\n0.1,0.2,a\n0.3,,b\n"}]
    )
    notice = page.locator(".notyf__message", has_text="broken.csv")
    notice.wait_for(timeout=TIMEOUT_MS)
    assert "x2" in notice.inner_text()
    page.wait_for_timeout(800)  # the notification has slid in
    shoot(page, "bad-upload")
    assert dashboard.model.dataset == dataset and dashboard.model.iteration == 0
    page.locator(".bk-tab", has_text="Train").click()
    page.get_by_role("button", name="Step").click()
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 2", timeout=TIMEOUT_MS)
    assert dashboard.model.iteration == dashboard.model.eval_every
    assert errors == []


def test_a_click_on_the_surface_adds_a_training_point(served, page):
    dashboard, errors = open_app(page, *served)
    n = len(dashboard.model.y_train)
    box = page.locator(".bk-Canvas").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.5)
    wait_server(page, lambda: len(dashboard.model.y_train) == n + 1)
    assert dashboard.model.y_train[-1] == 1
    assert errors == []


def test_two_browser_contexts_train_independently(served, browser):
    url, dashboards = served
    first, second = browser.new_context(), browser.new_context()
    try:
        page_a, page_b = first.new_page(), second.new_page()
        a, errors_a = open_app(page_a, url, dashboards)
        b, errors_b = open_app(page_b, url, dashboards)
        assert a is not b and a.model is not b.model
        page_a.get_by_role("button", name="Play").click()
        page_a.wait_for_function(f"() => ({LIVE_POINTS})() >= 3", timeout=TIMEOUT_MS)
        page_a.get_by_role("button", name="Pause").click()
        assert a.model.iteration > 0
        assert b.model.iteration == 0 and page_b.evaluate(LIVE_POINTS) == 0
        page_b.get_by_role("button", name="Step").click()
        page_b.wait_for_function(f"() => ({LIVE_POINTS})() >= 2", timeout=TIMEOUT_MS)
        assert b.model.iteration == b.model.eval_every
        assert errors_a == [] and errors_b == []
    finally:
        first.close()
        second.close()


def test_a_damaged_data_file_never_blanks_the_page(served, page, paper_data, tmp_path, monkeypatch):
    """A truncated banana.npz in $XGPC_DATA_DIR (issue 19): the page comes up with its controls, on the generated
    set, and a notification naming the file and the problem stays until closed."""
    (tmp_path / "banana.npz").write_bytes((paper_data / "banana.npz").read_bytes()[:20_000])
    monkeypatch.setenv("XGPC_DATA_DIR", str(tmp_path))
    dashboard, errors = open_app(page, *served)
    message = page.locator(".notyf__message", has_text="banana.npz").last
    message.wait_for(timeout=TIMEOUT_MS)
    assert message.inner_text() == (
        f"The paper's banana set cannot be used: {tmp_path / 'banana.npz'}: not a "
        "readable .npz archive: File is not a zip file. Using the generated banana-like "
        "set."
    )
    assert dashboard.model.dataset == "banana-like"
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    shoot(page, "damaged-data-file")
    assert errors == []


def test_panel_serve_subprocess(panel_served, page):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(panel_served)
    page.get_by_role("button", name="Play").click(timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 3", timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Pause").click()
    assert errors == []


# ----- issue 9: first-hour stumbles ---------------------------------------------------------------------------------
@pytest.mark.parametrize("width", [1280, 1600, 1920])
def test_reset_is_clickable_by_mouse_at_common_widths(served, page, width):
    page.set_viewport_size({"width": width, "height": 1000})
    dashboard, errors = open_app(page, *served)
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)  # Step ran to its end
    page.get_by_text(f"iteration {dashboard.model.iteration}").wait_for(timeout=TIMEOUT_MS)
    mode, click_class = dashboard.surface.mode.value, dashboard.surface.click_class.value
    box = page.get_by_role("button", name="Reset").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # where a person would click
    page.get_by_text("iteration 0", exact=True).wait_for(timeout=TIMEOUT_MS)
    assert dashboard.model.iteration == 0 and "Run reset by request" in dashboard.model.status
    assert (dashboard.surface.mode.value, dashboard.surface.click_class.value) == (mode, click_class)
    assert errors == []


def test_a_typed_value_out_of_range_is_refused_visibly(served, page):
    dashboard, errors = open_app(page, *served)
    box = page.get_by_label("inducing points m")
    box.fill("100000")
    box.press("Enter")
    notice = page.locator(".notyf__message", has_text="inducing points m")
    notice.wait_for(timeout=TIMEOUT_MS)
    assert "100000 is out of range (from 1 to 2000)" in notice.inner_text()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while box.input_value() != "100":
        assert time.monotonic() < deadline, f"the box still shows {box.input_value()}"
        page.wait_for_timeout(100)
    assert dashboard.model.n_inducing == 100
    assert errors == []


def test_a_fresh_page_logs_no_range_warnings(served, page):
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    _, errors = open_app(page, *served)
    page.wait_for_timeout(1500)  # the first repaints are done
    for tab in ("MCMC", "Race", "Learn", "Train"):
        page.locator(".bk-tab", has_text=tab).click()
        page.wait_for_timeout(700)
    assert any("Bokeh items were rendered" in text for text in messages)  # the listener heard the page
    assert not [text for text in messages if "could not set initial ranges" in text]
    assert errors == []


def test_closing_a_training_page_stops_its_worker_quietly(served, browser, caplog):
    url, dashboards = served
    context = browser.new_context()
    with caplog.at_level(logging.INFO):
        page = context.new_page()
        dashboard, errors = open_app(page, url, dashboards)
        page.get_by_role("button", name="Play").click()
        page.wait_for_function(f"() => ({LIVE_POINTS})() >= 3", timeout=TIMEOUT_MS)
        assert dashboard.worker.playing
        page.close()
        deadline = time.monotonic() + 10.0  # generous: Bokeh itself would end the session only after 15–30 s
        while dashboard.worker.alive:
            assert time.monotonic() < deadline, "the worker still trains for a closed page"
            time.sleep(0.1)
        time.sleep(1.0)  # anything still on its way to the closed page has failed by now
    context.close()
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.exc_info]
    closed = [r for r in caplog.records if r.getMessage().startswith("Browser page closed")]
    assert len([r for r in closed if dashboard.session.id in r.getMessage()]) == 1  # one line for this page
    assert errors == []
