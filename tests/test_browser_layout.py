"""Boxes that must not clip or overlap (issue 31, item 10), checked on the served dashboard in Debian's Chromium at
the sizes a teacher meets (1400×1000, a projector's 1024×768): each widget's box lies inside its column's box, and
the Train tab's status ends above the Data card. Boxes, not pixels. Uses the served-app fixtures of `test_browser`."""

import pytest
from test_browser import TIMEOUT_MS, open_app, served, shoot, wait_server  # noqa: F401  (served: a fixture)

pytestmark = pytest.mark.browser

# The element's box and the box of the nearest Panel column around it (climbing out of shadow roots).
BOXES = """e => {
  const box = n => { const r = n.getBoundingClientRect(); return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
  let n = e.parentNode || e.host;
  while (n && !(n.className && String(n.className).includes("layout-Column"))) n = n.parentNode || n.host;
  return {element: box(e), column: n ? box(n) : null};
}"""


@pytest.mark.parametrize("size", [(1024, 768), (1400, 1000)])
def test_the_race_sidebars_select_and_seconds_box_lie_inside_the_sidebar(served, page, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_app(page, *served)
    page.locator(".bk-tab", has_text="Race").click()
    for element in (page.locator("select:visible").first, page.get_by_label("training seconds per method")):
        element.wait_for(timeout=TIMEOUT_MS)
        boxes = element.evaluate(BOXES)
        assert boxes["column"] is not None
        assert boxes["element"]["right"] <= boxes["column"]["right"] + 0.5, boxes
        assert boxes["element"]["x"] >= boxes["column"]["x"] - 0.5, boxes
    shoot(page, f"layout-race-{size[0]}")


def test_the_train_tabs_long_status_ends_above_the_data_card(served, page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    dashboard, _ = open_app(page, *served)
    lines = [
        "After 200 iterations: test NLL 0.0412, error 0.000, ELBO -41.237.",
        "Converged: the sliding-window mean of the relative change of the global parameters fell below 0.0001. "
        "Play stops here once; press Play to train on (the curves may still improve slowly).",
        "Last event: the kernel's length scale reached its bound; the fit may be no better than chance: try a "
        "larger length scale or fewer inducing points. New run: xgpc on banana-like (n = 320 train, 80 test, m = 100)",
    ]
    dashboard.train.status.value = "<br>".join(lines)
    status = page.get_by_text("Last event: the kernel")
    status.wait_for(timeout=TIMEOUT_MS)
    card = page.get_by_text("Data (more on the Data tab)")
    page.wait_for_timeout(500)
    assert status.bounding_box()["y"] + status.bounding_box()["height"] <= card.bounding_box()["y"]
    shoot(page, "layout-train-1400")


# Each Bokeh plot's title, its frame's height and the width of its y-axis label as drawn (the label's own font).
Y_LABELS = """() => {
  const out = [];
  for (const view of Bokeh.index.query(v => v.frame !== undefined && v.canvas_view !== undefined)) {
    const axis = view.model.left && view.model.left[0];
    if (!axis || typeof axis.axis_label !== "string" || !axis.axis_label) continue;
    const context = document.createElement("canvas").getContext("2d");
    context.font = `${axis.axis_label_text_font_style} ${axis.axis_label_text_font_size} ${axis.axis_label_text_font}`;
    out.push({title: view.model.title ? String(view.model.title.text) : "", label: axis.axis_label,
              width: context.measureText(axis.axis_label).width, height: view.frame.bbox.height});
  }
  return out;
}"""


def test_the_mcmc_comparisons_y_labels_fit_their_plots_at_1024(served, page):
    """Three classes (the longest labels), a projector's 1024×768, a tiny run: each Fig. 1 panel's y-axis label fits
    its frame's height with a tenth to spare (the label "X-GPC: posterior variance of f*_k" took 99.6% and was
    clipped to "sterior mean…" where the frame was a little shorter)."""
    page.set_viewport_size({"width": 1024, "height": 768})
    served_url, dashboards = served
    dashboard, _ = open_app(page, served_url + "?dataset=blobs-3", dashboards)
    page.locator(".bk-tab", has_text="MCMC").click()
    mcmc = dashboard.mcmc
    mcmc.n_train.value, mcmc.n_test.value, mcmc.n_samples.value, mcmc.burn_in.value, mcmc.n_chains.value = (
        60,
        40,
        40,
        10,
        2,
    )
    page.get_by_role("button", name="Run MCMC comparison").click()
    wait_server(page, lambda: bool(mcmc.comparison.objects))
    comparison = f"() => ({Y_LABELS})().filter(p => p.title.startsWith('posterior') || p.title.startsWith('p(y'))"
    page.wait_for_function(f"() => ({comparison})().length >= 3", timeout=TIMEOUT_MS)  # drawn
    panels = page.evaluate(comparison)
    assert len(panels) == 3, panels
    for panel in panels:
        assert panel["width"] <= 0.9 * panel["height"], panel
    shoot(page, "layout-mcmc-1024")
