"""Every tab of the served dashboard as a user sees it in Debian's Chromium (issue 20): each plot shows its data after
the tab's action (pixels inside the plot's frame, not only axes and legend), and at a projector's 1024×768 no tab is
wider than the window. Uses the served-app fixtures of `test_browser`."""

import io

import numpy as np
import pytest
from PIL import Image
from test_browser import (  # noqa: F401  (served: a fixture)
    TIMEOUT_MS,
    open_app,
    served,
    settled_screenshot,
    shoot,
    wait_server,
)

from explorer.dashboard.race import TRAIN_DATA
from explorer.views.ep_site import EPSite

pytestmark = pytest.mark.browser

# Every Bokeh plot on screen: its title, its frame (the data area inside the axes) in page coordinates, and the
# boxes of legends drawn inside that frame (their glyphs are coloured but are not data).
PLOT_FRAMES = """() => {
  const plots = [];
  for (const view of Bokeh.index.query(v => v.frame !== undefined && v.canvas_view !== undefined)) {
    const canvas = view.canvas_view.el.getBoundingClientRect();
    if (canvas.width === 0 || canvas.height === 0) continue;
    const frame = view.frame.bbox;
    const legends = [];
    for (const child of Bokeh.index.query(v => v.parent === view && v.model.type === "Legend")) {
      const b = child.bbox;
      legends.push({x: b.x - frame.x, y: b.y - frame.y, w: b.width, h: b.height});
    }
    const title = view.model.title ? String(view.model.title.text) : "";
    const font = view.model.title ? view.model.title : null;
    const context = document.createElement("canvas").getContext("2d");
    if (font) context.font = `${font.text_font_style} ${font.text_font_size} ${font.text_font}`;
    plots.push({title, backend: view.model.output_backend, canvas_width: canvas.width,
                y_range: [view.frame.y_range.start, view.frame.y_range.end],
                title_width: title ? context.measureText(title).width : 0,
                x: canvas.x + window.scrollX + frame.x, y: canvas.y + window.scrollY + frame.y,
                w: frame.width, h: frame.height, legends});
  }
  return plots;
}"""
MIN_DATA_PIXELS = 100  # an empty frame has none: white, light grid lines and legends (masked)


def data_pixels(page) -> tuple[dict[str, int], bytes]:
    """(title → the number of pixels inside each plot's frame that are neither background (white, light-grey grid
    lines) nor a legend: the drawn data, counted on a screenshot of the whole page; that screenshot)."""
    png = settled_screenshot(page)  # the last repaint is on screen
    shot = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    counts = {}
    for plot in page.evaluate(PLOT_FRAMES):
        x, y, w, h = (int(round(plot[k])) for k in "xywh")
        frame = shot[y + 1 : y + h - 1, x + 1 : x + w - 1]  # inside the frame's border
        drawn = (frame.min(axis=2) < 200) | (frame.max(axis=2) - frame.min(axis=2) > 40)
        for legend in plot["legends"]:
            lx, ly = int(legend["x"]), int(legend["y"])
            drawn[max(ly - 2, 0) : ly + int(legend["h"]) + 2, max(lx - 2, 0) : lx + int(legend["w"]) + 2] = False
        counts[f"{plot['title']} ({plot['backend']})"] = int(drawn.sum())
    return counts, png


def assert_all_drawn(page, tab: str, expected_plots: int) -> dict[str, int]:
    counts, shot = data_pixels(page)
    shoot(page, f"drawn-{tab.lower()}", shot)
    assert len(counts) >= expected_plots, f"{tab}: only {sorted(counts)} on screen"
    empty = {title: n for title, n in counts.items() if n < MIN_DATA_PIXELS}
    assert not empty, f"{tab}: plots without data on screen: {empty} (all: {counts})"
    return counts


def each_tab_after_its_action(page, dashboard, check) -> None:
    """Train after Step and a little Play, Data, MCMC after a small run, Race after a short race, Learn: each shown
    in turn, then `check(tab)`."""
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)  # Step ran to its end
    page.get_by_text(f"iteration {dashboard.model.iteration}").wait_for(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Play").click()
    wait_server(page, lambda: dashboard.model.iteration >= 60)
    page.get_by_role("button", name="Pause").click()
    wait_server(page, lambda: not dashboard.worker.playing)
    check("Train")

    page.locator(".bk-tab", has_text="Data").click()
    page.get_by_text("Upload a CSV").first.wait_for(timeout=TIMEOUT_MS)
    check("Data")

    page.locator(".bk-tab", has_text="MCMC").click()
    page.get_by_role("button", name="Run MCMC comparison").wait_for(timeout=TIMEOUT_MS)
    for widget, value in (
        (dashboard.mcmc.n_train, 120),
        (dashboard.mcmc.n_test, 150),
        (dashboard.mcmc.n_samples, 150),
        (dashboard.mcmc.burn_in, 50),
    ):
        widget.value = value
    page.get_by_role("button", name="Run MCMC comparison").click()
    page.get_by_text("ELBO without augmentation").wait_for(timeout=TIMEOUT_MS)
    check("MCMC")

    page.locator(".bk-tab", has_text="Race").click()
    page.get_by_role("button", name="Start race").wait_for(timeout=TIMEOUT_MS)
    dashboard.race.dataset.value = TRAIN_DATA  # the Train tab's set: the tab's drawing, not a9a's
    dashboard.race.budget.value = 0.5
    page.get_by_role("button", name="Start race").click()
    page.get_by_text("Race finished").wait_for(timeout=TIMEOUT_MS)
    check("Race")

    page.locator(".bk-tab", has_text="Learn").click()
    page.get_by_text("How the methods work, in six pictures").first.wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("5. One point's EP update").first.wait_for(timeout=TIMEOUT_MS)
    page.get_by_text("6. One point's augmented logistic-softmax").first.wait_for(timeout=TIMEOUT_MS)
    check("Learn")


# Everything on the page (shadow roots included) whose right edge is beyond the window's.
OVERFLOWING = """() => {
  const wide = [];
  function walk(root) {
    for (const el of root.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > window.innerWidth + 0.5)
        wide.push(`${el.tagName}.${String(el.className).slice(0, 50)} at ${Math.round(box.left)}, ${Math.round(box.width)} px`);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  }
  walk(document);
  return {scroll: document.scrollingElement.scrollWidth, window: window.innerWidth, wide: wide.slice(0, 8)};
}"""
PROJECTOR = {"width": 1024, "height": 768}
WIDE = {"width": 1500, "height": 1000}


def fits(page, tab: str) -> None:
    """No element of the page is wider than the window."""
    shoot(page, f"1024-{tab.lower()}", settled_screenshot(page))  # laid out and painted
    found = page.evaluate(OVERFLOWING)
    assert found["scroll"] <= found["window"] and found["wide"] == [], f"{tab}: {found}"


def test_every_tab_after_its_action_fits_a_1024_by_768_projector_and_every_plot_shows_its_data(served, page):
    """One walk through the tabs (the MCMC run and the race are what cost), each tab checked twice: opened and used
    at a projector's 1024×768, nothing on it is wider than the window; widened to 1500×1000, every plot shows its
    data (pixels inside its frame, not only axes and legend)."""
    page.set_viewport_size(PROJECTOR)
    dashboard, errors = open_app(page, *served)
    least = {"Train": 5, "Data": 0, "MCMC": 6, "Race": 2, "Learn": 12}  # MCMC: trace, Fig. 1 (3), surfaces (2)
    drawn = {}  # tab → its plots' data pixels

    def check(tab: str) -> None:
        fits(page, tab)
        page.set_viewport_size(WIDE)
        drawn[tab] = assert_all_drawn(page, tab, least[tab])
        frames[tab] = page.evaluate(PLOT_FRAMES)
        page.set_viewport_size(PROJECTOR)  # the next tab opens on the projector again

    frames = {}
    each_tab_after_its_action(page, dashboard, check)
    assert set(drawn) == set(least)
    assert dashboard.mcmc.run.stage == "done" and dashboard.race.run.finished
    plots = {plot["title"].split(",")[0].split(" ")[0]: plot for plot in frames["Learn"]}  # at 1500 × 1000
    clipped = [p["title"] for p in plots.values() if p["title_width"] > p["canvas_width"] - 50]
    assert clipped == [], f"titles wider than their plot (less its toolbar): {clipped}"
    # each density axis fits its own data, none is linked to another's (issue 20, item 7)
    local = dashboard.model.last_local()
    for quantity, title in (("c", "c_i"), ("theta", "θ_i")):
        top = np.histogram(local[quantity], bins=30, density=True)[0].max()
        assert top < plots[title]["y_range"][1] < 1.3 * top, (title, top, plots[title]["y_range"])
    ep = EPSite.from_cavity(
        dashboard.learn.cavity_mean.value, dashboard.learn.cavity_var.value, dashboard.learn.label.value
    )
    peak = 1.0 / np.sqrt(2 * np.pi * ep.var)  # the moment-matched Gaussian's peak; the tilted one's is close
    assert peak < plots["tilted"]["y_range"][1] < 2.0 * peak, (peak, plots["tilted"]["y_range"])
    page.locator(".bk-tab", has_text="MCMC").click()  # the results drawn again, as a tab shown anew
    page.get_by_text("ELBO without augmentation").wait_for(timeout=TIMEOUT_MS)
    fits(page, "MCMC")
    assert errors == []


def test_export_card_is_in_view_at_1400_by_1000(served, page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    _, errors = open_app(page, *served)
    box = page.get_by_text("Export for slides").bounding_box()
    assert box["y"] + box["height"] <= 1000
    assert page.get_by_role("button", name="Animation (GIF)").bounding_box()["y"] < 1000
    assert errors == []


def test_log_time_axis_is_a_named_control_a_click_on_its_text_turns_on(served, page):
    dashboard, errors = open_app(page, *served)
    control = page.get_by_role("button", name="log time axis (NLL, error)")
    page.get_by_text("log time axis (NLL, error)").click()
    wait_server(page, lambda: dashboard.train.log_time.value)
    control.click()
    wait_server(page, lambda: not dashboard.train.log_time.value)
    assert errors == []
