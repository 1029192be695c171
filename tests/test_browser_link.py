"""A shareable link in headless Debian Chromium (Playwright): the Train tab's settings are in the page's URL, a fresh
page opened at that URL has the same settings, and a hostile or wrong query is named as text while the defaults stay.
The helpers and the Chromium fixtures are those of test_browser.py and conftest.py."""

from urllib.parse import parse_qs, quote, urlparse

import pytest
from test_browser import LIVE_POINTS, TIMEOUT_MS, open_app, served, wait_server  # noqa: F401 (served: the in-process server fixture)

from explorer.dashboard.controls import CONFIGURATION, configuration

pytestmark = pytest.mark.browser
MARKUP = "<img src=x onerror=window.__x=1>"


def test_the_url_carries_the_settings_to_a_fresh_page(served, browser):
    url, dashboards = served
    first, second = browser.new_context(), browser.new_context()
    try:
        page = first.new_page()
        dashboard, errors = open_app(page, url, dashboards)
        page.get_by_label("data set", exact=True).select_option("moons")
        wait_server(page, lambda: dashboard.model.dataset == "moons")
        page.get_by_label("step-size rule", exact=True).select_option("constant")
        wait_server(page, lambda: dashboard.model.step_size == "constant")
        for label, value in (("inducing points m", "23"), ("seed", "4"), ("constant ρ", "0.25")):
            page.get_by_label(label, exact=True).fill(value)
            page.keyboard.press("Enter")
        model = dashboard.model
        wait_server(page, lambda: (model.n_inducing, model.seed, model.rho) == (23, 4, 0.25))
        page.wait_for_function("() => window.location.search.includes('rho=0.25')", timeout=TIMEOUT_MS)
        query = parse_qs(urlparse(page.url).query, keep_blank_values=True)
        assert set(query) == set(CONFIGURATION)
        assert query["dataset"] == ["moons"] and query["n_inducing"] == ["23"] and query["step_size"] == ["constant"]

        fresh = second.new_page()
        other, other_errors = open_app(fresh, page.url, dashboards)
        assert other is not dashboard
        # The link's run is built in the session's worker once the page is up; then the widgets show it.
        wait_server(
            fresh,
            lambda: (
                configuration(other.model) == configuration(dashboard.model)
                and fresh.get_by_label("inducing points m", exact=True).input_value() == "23"
            ),
        )
        assert fresh.get_by_label("data set", exact=True).input_value() == "moons"
        fresh.get_by_role("button", name="Step").click()
        fresh.wait_for_function(f"() => ({LIVE_POINTS})() >= 2", timeout=TIMEOUT_MS)
        assert errors == [] and other_errors == []
    finally:
        first.close()
        second.close()


def test_a_bad_link_is_named_as_text_and_the_defaults_stay(served, page):
    url, dashboards = served
    search = (
        f"?dataset={quote(MARKUP)}&n_inducing=abc&seed=3&rho=nan&train_fraction=7&nosuch=1&kernel={quote('<b>x</b>')}"
    )
    dashboard, errors = open_app(page, url + search, dashboards)
    notice = page.locator(".notyf__message", has_text="not used")
    notice.wait_for(timeout=TIMEOUT_MS)
    text = notice.inner_text()
    for named in (
        MARKUP,
        "'abc' is not a whole number",
        "'nan' is not a finite number",
        "train fraction: 7",
        "unknown setting 'nosuch'",
        "… and 1 more",
    ):  # six problems, five named
        assert named in text
    assert page.evaluate("() => window.__x") is None
    defaults = dashboard.model.param
    wait_server(page, lambda: dashboard.model.seed == 3)  # the usable value is taken (in the worker)
    assert dashboard.model.n_inducing == defaults.n_inducing.default
    assert dashboard.model.train_fraction == defaults.train_fraction.default
    assert dashboard.model.kernel == defaults.kernel.default
    page.wait_for_function("() => !window.location.search.includes('nosuch')", timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    assert errors == []


def test_a_link_with_hundreds_of_settings_opens_the_app_and_says_what_was_read(served, page):
    """999 settings (≈ 11 kB, inside the web server's own limits of 1,000 parameters and 64 KiB): the page comes up,
    the first LINK_MOST_SETTINGS are read (so a later seed is not), and the notification says so."""
    from explorer.dashboard.controls import LINK_MOST_SETTINGS

    url, dashboards = served
    search = "?" + "&".join(f"p{k}=1" for k in range(998)) + "&seed=5"
    dashboard, errors = open_app(page, url + search, dashboards)
    notice = page.locator(".notyf__message", has_text="not used")
    notice.wait_for(timeout=TIMEOUT_MS)
    assert f"the link holds 999 settings; only the first {LINK_MOST_SETTINGS} were read" in notice.inner_text()
    assert dashboard.model.seed == 0
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    assert errors == []
