"""One server, many visitors (issue 19): what one session computes never stalls another, one action's cost is bounded
before it starts, and an uploaded file is parsed in another process.

Each event-loop test opens a session in headless Debian Chromium, lets a second client fetch a small static file of
the same server every 0.1 s (`Probe`), and does one action that computes for a second or more. The other client's
longest wait during the action is compared with its longest wait just before it, as a ratio with a generous margin:
an action on the server's event loop makes that client wait as long as the action (seconds against milliseconds),
one in the session's worker only shares the two cores. The helpers and the Chromium fixtures are those of
test_browser.py and conftest.py."""

import gc
import os
import threading
import time
import urllib.error
import urllib.request

import pytest
from test_browser import TIMEOUT_MS, free_port, open_app, served, wait_server  # noqa: F401 (served: the server fixture)
from test_browser_upload import csv_bytes, notice, upload

from explorer.dashboard.budget import LIMITS
from explorer.dashboard.serve import MOST_LINK_BYTES, request_limits, serve_app, serve_in_background
from explorer.dashboard.upload import upload_parser
from explorer.tools.loadtest import static_file

pytestmark = pytest.mark.browser
# The other client's longest wait may grow this much during an action, as a ratio to its longest wait just before,
# taken as at least UNNOTICED_WAIT (a wait no visitor notices): a fetch takes 2–10 ms, and against 2 ms the ratio is
# mostly noise. Rendering the new run's figures (or a started race's) on the event loop takes 0.15–0.3 s here; an
# action computed on the loop makes it ≳ 1.5 s (the issue measured 2.1–13 s).
MARGIN = 50.0
UNNOTICED_WAIT = 0.01
# Building a page swaps its ready Bokeh models in on the loop (Bokeh attaches and sends them): ≈ 0.3 s here; the
# page built on the loop took 0.74–0.83 s at load ≈ 4.
PAGE_BUILD_MARGIN = 50.0
PAGE_MARGIN = 2.5  # opening a costly link against opening a plain page (on the loop: ≳ 3×)
QUIET_SECONDS = 2.0  # how long the other client is watched just before the action (about 20 fetches)
# A link whose run is within budget but takes ≈ 1.5 s to build here (k-means++ for 950 inducing points on 40,000 rows).
HEAVY = "?dataset=moons&n_points=50000&n_inducing=950&batch_size=200"
# Within budget and ≈ 3.5 s to build here: k-means++ for 999 inducing points on 80,000 rows.
COSTLY_LINK = "?dataset=moons&n_points=100000&n_inducing=999&batch_size=200"


class Probe(threading.Thread):
    """Another visitor: fetches `url` every 0.1 s and records (start time, seconds the answer took)."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.waits, self._done = url, [], threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            start = time.monotonic()
            with urllib.request.urlopen(self.url, timeout=120) as answer:
                answer.read()
            self.waits.append((start, time.monotonic() - start))
            self._done.wait(0.1)

    def longest(self, start: float, end: float) -> float:
        """The longest wait of a fetch that started between `start` and `end` (monotonic seconds)."""
        return max(wait for begun, wait in self.waits if start <= begun <= end)

    def stop(self) -> None:
        self._done.set()
        self.join(timeout=120)


def longest_allowed(before: float, margin: float = MARGIN) -> float:
    """The longest wait of the other client allowed during an action: `margin` × its longest wait just before, taken
    as at least UNNOTICED_WAIT."""
    return margin * max(before, UNNOTICED_WAIT)


def without_earlier_objects() -> None:
    """Collect the garbage, then freeze every object the test process holds: what earlier tests left is then out of
    any full collection during the measurement, which walks only what this test makes. A full collection holds the
    GIL, so it stalls the server: of the 2–3 million objects this process holds by the browser tests, one took
    1.3–2.0 s (measured), and CI once failed a 0.6-s bound on that."""
    gc.collect()
    gc.freeze()


def during_against_before(page, url: str, act, done) -> tuple[float, float]:
    """(longest wait of another client during act() until done() holds, longest wait in the QUIET_SECONDS before)."""
    without_earlier_objects()
    probe = Probe(static_file(page.url))
    probe.start()
    try:
        start = time.monotonic()
        page.wait_for_timeout(QUIET_SECONDS * 1000)
        acted = time.monotonic()
        act()
        wait_server(page, done)
        finished = time.monotonic()
        page.wait_for_timeout(300)
    finally:
        probe.stop()
    during, before = probe.longest(acted, finished), probe.longest(start, acted)
    print(f"other client: longest wait {during:.3f} s during, {before:.3f} s before ({during / before:.1f}×)")
    return during, before


def idle(dashboard) -> bool:
    """Whether the session's worker has nothing to do and the page shows that."""
    return dashboard.actions.current is None and not dashboard.worker.playing and not dashboard.actions.row.visible


def test_step_runs_in_the_worker_while_other_visitors_are_served(served, page):
    url, dashboards = served
    dashboard, errors = open_app(page, url + "?eval_every=4000", dashboards)
    wait_server(page, lambda: dashboard.model.eval_every == 4000 and idle(dashboard))
    during, before = during_against_before(
        page,
        url,
        lambda: page.get_by_role("button", name="Step").click(),
        lambda: dashboard.model.iteration == 4000 and idle(dashboard),
    )
    assert during < longest_allowed(before), (during, before)
    assert dashboard.train.counter.value.startswith("iteration 4000")
    assert errors == []


def test_a_setting_a_reset_and_a_race_compute_in_the_worker(served, page):
    url, dashboards = served
    dashboard, errors = open_app(page, url + HEAVY, dashboards)
    wait_server(page, lambda: dashboard.model.n_inducing == 950 and idle(dashboard))

    def set_inducing_points():
        page.get_by_label("inducing points m", exact=True).fill("990")
        page.keyboard.press("Enter")

    working = []
    during, before = during_against_before(
        page,
        url,
        set_inducing_points,
        lambda: (
            working.append(dashboard.actions.row.visible and dashboard.train.reset.disabled)
            or (dashboard.model.n_inducing == 990 and idle(dashboard))
        ),
    )
    assert during < longest_allowed(before), ("setting", during, before)
    assert any(working)  # the page said it was working, with the action buttons disabled

    run = dashboard.model.trainer
    during, before = during_against_before(
        page,
        url,
        lambda: page.get_by_role("button", name="Reset").click(),
        lambda: dashboard.model.trainer is not run and idle(dashboard),
    )
    assert during < longest_allowed(before), ("reset", during, before)

    page.locator(".bk-tab", has_text="Race").click()
    page.get_by_label("training seconds per method", exact=True).fill("0.5")
    page.keyboard.press("Enter")
    during, before = during_against_before(
        page,
        url,
        lambda: page.get_by_role("button", name="Start race").click(),
        lambda: dashboard.race.run is not None and len(dashboard.race.run.models) == len(dashboard.race.run.methods),
    )
    assert during < longest_allowed(before), ("race", during, before)
    page.get_by_role("button", name="Stop").first.click()
    assert errors == []


def test_a_link_is_built_in_the_worker_while_other_visitors_are_served(served, browser):
    """Opening a page builds its session on the event loop (Panel) whatever the link; the run a link asks for is
    built in the worker. So another client waits no longer while a page opens at a costly link than while a plain
    page opens just before (with the run built on the loop: the page's time plus ≈ 3 s of k-means++)."""
    url, dashboards = served
    first, second, third = browser.new_context(), browser.new_context(), browser.new_context()
    try:
        page = first.new_page()
        open_app(page, url, dashboards)
        without_earlier_objects()
        probe = Probe(static_file(page.url))
        probe.start()
        windows = []
        for context, link, m in ((second, "", 100), (third, COSTLY_LINK, 999)):
            count, start = len(dashboards), time.monotonic()
            context.new_page().goto(url + link)
            wait_server(
                page, lambda: len(dashboards) > count and dashboards[-1].model.n_inducing == m and idle(dashboards[-1])
            )
            windows.append((start, time.monotonic()))
            page.wait_for_timeout(500)
        probe.stop()
        plain, costly = (probe.longest(*window) for window in windows)
        print(f"other client: longest wait {costly:.3f} s opening the costly link, {plain:.3f} s a plain page")
        assert costly < PAGE_MARGIN * plain, (costly, plain)
    finally:
        for context in (first, second, third):
            context.close()


def test_a_page_is_built_off_the_event_loop_while_other_visitors_are_served(served, browser):
    """A visitor opening a link gets a light page at once; the Dashboard (its Model, data, first evaluation, widgets,
    figures and their Bokeh models) is built in a page-builder thread and only swapped in on the event loop, and the
    link's run and its surface's data are made in the session's worker. Measured here (load ≈ 4): the other client's
    longest wait 0.29–0.33 s (46–86× its wait before; the swap, Bokeh attaching and sending the page's models), against
    0.74–0.83 s (133×) with the page built on the loop and the link's surface data prepared in the refresh there."""
    url, dashboards = served
    first, second = browser.new_context(), browser.new_context()
    try:
        page = first.new_page()
        open_app(page, url, dashboards)
        count = len(dashboards)
        during, before = during_against_before(
            page,
            url,
            lambda: second.new_page().goto(url + COSTLY_LINK),
            lambda: len(dashboards) > count and dashboards[-1].model.n_inducing == 999 and idle(dashboards[-1]),
        )
        assert during < longest_allowed(before, PAGE_BUILD_MARGIN), (during, before)
    finally:
        first.close()
        second.close()


def test_an_upload_is_parsed_in_another_process_while_other_visitors_are_served(served, page):
    url, dashboards = served
    dashboard, errors = open_app(page, url, dashboards)
    page.locator(".bk-tab", has_text="Data").click()
    content = csv_bytes(["x1", "x2", "label"], n=300_000)  # ≈ 7 MB: a parse of a second or more
    during, before = during_against_before(
        page,
        url,
        lambda: upload(page, "big.csv", content),
        lambda: dashboard.model.dataset == "custom" and idle(dashboard),
    )
    notice(page, "Loaded big.csv: 300000 rows")
    parsers = upload_parser()._processes  # the processes of the server's upload parser
    assert parsers and os.getpid() not in parsers
    assert during < longest_allowed(before), (during, before)
    assert errors == []


def test_an_over_budget_link_or_setting_is_refused_by_name_and_limit_and_the_run_stays(served, page):
    url, dashboards = served
    link = "?dataset=moons&n_points=100000&n_inducing=2000&batch_size=100000&eval_every=1"  # the link
    dashboard, errors = open_app(page, url + link, dashboards)
    message = notice(page, "not used").inner_text()
    for named in ("inducing points m", "minibatch size s", f"{LIMITS['iteration']:.3g}", f"{LIMITS['building']:.3g}"):
        assert named in message
    defaults = dashboard.model.param
    assert dashboard.model.dataset != "moons" and dashboard.model.n_inducing == defaults.n_inducing.default
    assert dashboard.model.eval_every == defaults.eval_every.default and dashboard.model.iteration == 0

    count = len(dashboards)
    page.goto(url + "?dataset=moons&n_points=20000")  # within budget: 16,000 training rows, m = 100
    wait_server(page, lambda: len(dashboards) > count)  # (the page's Dashboard is built once it has loaded)
    dashboard = dashboards[-1]
    wait_server(page, lambda: dashboard.model.n_points == 20000 and idle(dashboard))
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every and idle(dashboard))
    run, iteration = dashboard.model.trainer, dashboard.model.iteration
    page.get_by_label("inducing points m", exact=True).fill("2000")  # one evaluation: 9,000 rows × m²
    page.keyboard.press("Enter")
    message = notice(page, "Not applied").inner_text()
    assert "inducing points m 2000" in message and f"limit of {LIMITS['evaluation']:.3g}" in message
    assert "inducing points m at most" in message
    assert dashboard.model.trainer is run and dashboard.model.iteration == iteration
    assert dashboard.model.n_inducing == defaults.n_inducing.default
    wait_server(
        page,
        lambda: page.get_by_label("inducing points m", exact=True).input_value() == str(defaults.n_inducing.default),
    )
    assert errors == []


def test_the_budget_names_the_largest_value_that_fits_and_passes_the_defaults():
    from explorer.dashboard.budget import over_budget
    from explorer.dashboard.controls import configuration
    from explorer.model import Model

    model = Model(dataset="banana-like")
    config = {**configuration(model), "eval_points": model.eval_points}
    assert over_budget(config, (400, 2)) == []
    config.update(n_points=100_000, n_inducing=1600)
    n_train, rows = 80_000, 10_000  # 0.8 of the rows; 5,000 test and 5,000 ELBO rows per evaluation
    problems = over_budget(config, (100_000, 2), changed=["n_inducing"])
    assert len(problems) == 2  # building (80,000·1600·32 > 4e9) and evaluation (10,000·1600·1602 > 1e10)
    building, evaluation = problems
    largest = int(building.rsplit("at most ", 1)[1])
    assert n_train * largest * 32 <= LIMITS["building"] < n_train * (largest + 1) * 32
    largest = int(evaluation.rsplit("at most ", 1)[1])
    assert rows * largest * (largest + 2) <= LIMITS["evaluation"] < rows * (largest + 1) * (largest + 3)
    assert building.startswith("inducing points m 1600:")


def test_a_page_fetched_but_never_opened_frees_its_session_once_the_server_discards_it():
    """A plain GET makes a session whose websocket never connects; after Bokeh's unused-session lifetime the session
    is destroyed and its page must be garbage: Panel's view registry kept every one of them (when each page held its
    Dashboard, Model and data, 200 fetches held 2 GB; such a page now never builds its Dashboard)."""
    import gc
    import socket
    import weakref

    import panel as pn

    built = []

    def page():
        served = serve_app()
        built.append((weakref.ref(served), weakref.ref(pn.state.curdoc)))  # Panel's view registry holds both
        return served

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = pn.serve(
        page,
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
        unused_session_lifetime_milliseconds=500,
        check_unused_sessions_milliseconds=250,
    )
    try:
        deadline = time.monotonic() + 60
        while len(built) < 3:  # the first fetches may come before the server thread listens
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=120) as response:
                    assert response.status == 200
            except urllib.error.URLError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.2)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(ref() is not None for refs in built for ref in refs):
            time.sleep(0.5)
            gc.collect()
        assert len(built) == 3 and all(ref() is None for refs in built for ref in refs)
    finally:
        server.stop()
        server.join()
        pn.state.reset()


def test_a_long_link_reaches_the_app_of_xgpc_explorer_serve_which_names_what_it_did_not_use(browser):
    """Tornado answers a query of more than 1,000 parameters with an empty 400 and closes the connection on a request
    head over 64 KiB, before any of the app runs (`panel serve` keeps that, as the README says); `xgpc-explorer serve`
    raises both limits, so such a link opens the app, which says what it did not use."""
    many = "?n_inducing=30&" + "&".join(f"p{i}=1" for i in range(3000))  # 3,001 parameters
    long = "?n_inducing=30&note=" + "x" * 200_000  # a 200 kB query
    port, dashboards = free_port(), []
    server = serve_in_background(port, dashboards, **request_limits())
    context = browser.new_context()
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_until_listening(url)
        for link, said in ((many, "unknown setting 'p0'"), (long, "unknown setting 'note'")):
            with urllib.request.urlopen(url + link, timeout=120) as answer:
                assert answer.status == 200
            page = context.new_page()
            count = len(dashboards)
            page.goto(url + link)
            message = notice(page, "Some settings in this link were not used").inner_text()
            assert said in message
            wait_server(page, lambda: len(dashboards) > count and dashboards[-1].model.n_inducing == 30)
            page.close()
        with pytest.raises((urllib.error.URLError, ConnectionError)):  # beyond the raised limit: Tornado's answer
            urllib.request.urlopen(url + "?note=" + "x" * (MOST_LINK_BYTES + 100_000), timeout=120)
    finally:
        context.close()
        server.stop()
        server.join()


def wait_until_listening(url: str) -> None:
    """Wait until the server in a background thread answers (it may not listen yet when pn.serve returns)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "static/extensions/panel/css/loading.css", timeout=120):
                return
        except urllib.error.HTTPError:
            return
        except urllib.error.URLError:
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.2)
