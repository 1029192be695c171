"""`python -m explorer.dashboard.loadtest`: a class in front of one server (issue 19).

The app is served in this process on 127.0.0.1 only (`serve_in_background`, as `panel serve` would) and opened by N
headless Debian Chromium pages (Playwright), each its own browser context, that each press Play and train for
`--seconds`. A further client fetches a small static file of the server every second and the page itself every
`--page-every` seconds (a new session each time: its light page, as the page is built only once it opens). Reported per
N: refreshes/s and SVI iterations/s per session (median and least), the longest time any training session went
without a refresh, errors (console errors, page errors, worker errors), the other client's static-file and page-load
times, and this process's resident memory and thread count before the pages open, during the run (largest) and
`--settle` seconds after the pages have closed, with the number of `Dashboard` objects still alive then. `--heavy` adds a row: one session opens the costliest link the budget
allows (`explorer.dashboard.budget`) and trains on it while the others train — their refreshes must not stop.

Bounded on purpose: at most `MAX_SESSIONS` pages and `MAX_SECONDS` per run; the machine is shared, keep runs short.
It writes its table to BENCHMARKS.md and JSON like every `python -m explorer bench` benchmark (`--no-write-md`).
Needs Playwright (the `test` extra) and Debian Chromium.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import threading
import time
import urllib.request

from explorer.bench.common import add_common_arguments, finish, markdown_table, pinned_blas
from explorer.dashboard import chromium
from explorer.dashboard.app import Dashboard
from explorer.dashboard.benchmark import _free_port, _tasks, resident_mb

DESCRIPTION = "Served dashboard under load: N training sessions, another client's latency, memory and threads"
MAX_SESSIONS, MAX_SECONDS = 24, 120
SAMPLE_SECONDS = 0.25
# The costliest run the budget lets a link ask for on generated data: k-means++ for 999 inducing points on 80,000
# rows (≈ 3.5 s here) and evaluations on 10,000 rows at m = 999 (≈ 2.3 s each).
HEAVY_LINK = "?dataset=moons&n_points=100000&n_inducing=999&batch_size=200"


class Client(threading.Thread):
    """Another visitor: every second fetches `static` (a small file the page loads), every `page_every` seconds
    the page `url` itself; records (monotonic start, seconds taken) of each, and failures."""

    def __init__(self, url: str, static: str, page_every: float):
        super().__init__(daemon=True)
        self.url, self.static, self.page_every = url, static, page_every
        self.static_times, self.page_times, self.failures = [], [], []
        self._done = threading.Event()

    def _fetch(self, url: str, times: list) -> None:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=60) as answer:
                answer.read()
        except OSError as err:
            self.failures.append(f"{url}: {err}")
            return
        times.append((start, time.monotonic() - start))

    def run(self) -> None:
        next_page = time.monotonic()
        while not self._done.is_set():
            self._fetch(self.static, self.static_times)
            if time.monotonic() >= next_page:
                self._fetch(self.url, self.page_times)
                next_page = time.monotonic() + self.page_every
            self._done.wait(1.0)

    def stop(self) -> None:
        self._done.set()
        self.join(timeout=120)


class Monitor(threading.Thread):
    """Samples every SAMPLE_SECONDS the refresh and iteration counts of `dashboards`, this process's resident memory
    and threads; `gaps()` is the longest time each dashboard went without a new refresh."""

    def __init__(self, dashboards: list):
        super().__init__(daemon=True)
        self.dashboards = dashboards
        self.samples: list[tuple[float, list[int], list[int], float, int]] = []
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            self.samples.append(
                (
                    time.monotonic(),
                    [d.refreshes for d in self.dashboards],
                    [d.model.iteration for d in self.dashboards],
                    resident_mb(),
                    len(_tasks()),
                )
            )
            self._done.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        self._done.set()
        self.join(timeout=10)

    def rates(self, index: int) -> tuple[float, float]:
        """(refreshes/s, iterations/s) of dashboard `index` over the run."""
        (t0, r0, i0, *_), (t1, r1, i1, *_) = self.samples[0], self.samples[-1]
        return (r1[index] - r0[index]) / (t1 - t0), (i1[index] - i0[index]) / (t1 - t0)

    def gap(self, index: int) -> float:
        """The longest time dashboard `index` went without a new refresh (to within SAMPLE_SECONDS)."""
        longest, since = 0.0, self.samples[0][0]
        for (t, refreshes, *_), (_, before, *_) in zip(self.samples[1:], self.samples):
            if refreshes[index] > before[index]:
                since = t
            longest = max(longest, t - since)
        return longest


def static_file(page) -> str:
    """The smallest static file among the scripts the page loaded from the server."""
    sources = page.evaluate("() => Array.from(document.scripts).map(s => s.src).filter(s => s.includes('/static/'))")
    sizes = {}
    for source in sources:
        with urllib.request.urlopen(source) as answer:
            sizes[source] = len(answer.read())
    return min(sizes, key=sizes.get)


def open_session(browser, url: str, sessions: list, errors: list):
    """A page in a fresh browser context at `url`, live; returns (context, page, its Dashboard)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(180_000)  # a failsafe on a loaded machine
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    count = len(sessions)
    page.goto(url)
    page.get_by_role("button", name="Play").wait_for()
    while len(sessions) == count:
        page.wait_for_timeout(50)
    return context, page, sessions[count]


def _quantiles(times: list[tuple[float, float]], start: float, end: float) -> tuple[float, float]:
    """(median, largest) seconds of the fetches that started between start and end."""
    chosen = [seconds for begun, seconds in times if start <= begun <= end]
    return (statistics.median(chosen), max(chosen)) if chosen else (float("nan"), float("nan"))


def run_load(
    browser, url: str, sessions: list, n: int, seconds: float, page_every: float, heavy: bool, settle: float
) -> dict:
    """N sessions train for `seconds` (with `heavy`: N − 1 train, one opens HEAVY_LINK and trains on it); the
    numbers of one row."""
    base = (resident_mb(), len(_tasks()))
    errors: list[str] = []
    opened = [open_session(browser, url, sessions, errors) for _ in range(n - 1 if heavy else n)]
    if heavy:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        heavy_page = context.new_page()
        heavy_page.set_default_timeout(180_000)
    pages, dashboards = [page for _, page, _ in opened], [dashboard for _, _, dashboard in opened]
    client = Client(url, static_file(pages[0]), page_every)
    monitor = Monitor(dashboards)
    for page in pages:
        page.get_by_role("button", name="Play").click()
    client.start()
    monitor.start()
    start = time.monotonic()
    heavy_done, heavy_dashboard = None, None
    if heavy:
        count = len(sessions)
        heavy_page.goto(url + HEAVY_LINK)
        heavy_page.get_by_role("button", name="Play").wait_for()
    while time.monotonic() - start < seconds:
        pages[0].wait_for_timeout(250)
        if heavy and heavy_dashboard is None:  # the session at the link (the other client's pages open sessions too)
            heavy_dashboard = next((d for d in sessions[count:] if d.model.n_inducing == 999), None)
        if heavy_dashboard is not None and heavy_done is None and heavy_dashboard._action is None:
            heavy_done = time.monotonic() - start
            heavy_page.get_by_role("button", name="Play").click()
    end = time.monotonic()
    monitor.stop()
    client.stop()
    worker_errors = [str(d.worker.error) for d in dashboards if d.worker.error is not None]
    rates = [monitor.rates(i) for i in range(len(dashboards))]
    gaps = [monitor.gap(i) for i in range(len(dashboards))]
    training = len(dashboards)
    heavy_state = (
        "—"
        if not heavy
        else "link at the budget's limit; "
        + (f"{heavy_dashboard.model.iteration} iterations at m = 999" if heavy_dashboard else "its run not built")
    )
    for context, _, _ in opened:
        context.close()
    if heavy:
        context.close()
    time.sleep(settle)  # the sessions stop their workers at once; Bokeh discards them 15–32 s after the page closed
    dashboards.clear()  # this harness's references: the server keeps none of a closed session
    sessions.clear()
    opened.clear()
    heavy_dashboard = None
    gc.collect()
    refreshes = [r for r, _ in rates]
    iterations = [i for _, i in rates]
    static, page_load = _quantiles(client.static_times, start, end), _quantiles(client.page_times, start, end)
    return {
        "sessions": n,
        "training": training,
        "heavy": heavy_state,
        "heavy built after s": heavy_done if heavy_done is not None else float("nan"),
        "refreshes/s median": statistics.median(refreshes),
        "refreshes/s least": min(refreshes),
        "longest gap s": max(gaps),
        "it/s median": statistics.median(iterations),
        "it/s least": min(iterations),
        "errors": len(errors) + len(worker_errors) + len(client.failures),
        "static median s": static[0],
        "static max s": static[1],
        "page median s": page_load[0],
        "page max s": page_load[1],
        "RSS before MB": base[0],
        "RSS max MB": max(s[3] for s in monitor.samples),
        "RSS after MB": resident_mb(),
        "threads before": base[1],
        "threads max": max(s[4] for s in monitor.samples),
        "threads after": len(_tasks()),
        "sessions kept after": sum(isinstance(thing, Dashboard) for thing in gc.get_objects()),
        "error texts": (errors + worker_errors + client.failures)[:5],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m explorer.dashboard.loadtest", description=DESCRIPTION)
    add_common_arguments(parser)
    parser.add_argument(
        "--sessions",
        type=int,
        nargs="+",
        default=[1, 3, 6, 12],
        help=f"the numbers N of training sessions, one run each (default 1 3 6 12; at most {MAX_SESSIONS})",
    )
    parser.add_argument(
        "--seconds", type=float, default=25.0, help=f"training time of each run (default 25; at most {MAX_SECONDS})"
    )
    parser.add_argument(
        "--page-every", type=float, default=10.0, help="seconds between the other client's page loads (default 10)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=35.0,
        help="seconds between closing the pages and measuring memory and threads after (default 35: "
        "Bokeh discards a closed session 15–32 s after its page closed)",
    )
    parser.add_argument(
        "--heavy",
        type=int,
        default=None,
        metavar="N",
        help="also a run of N sessions where one opens the costliest link the budget allows",
    )
    args = parser.parse_args(argv)
    counts = args.sessions + ([args.heavy] if args.heavy else [])
    if not all(1 <= n <= MAX_SESSIONS for n in counts) or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"sessions from 1 to {MAX_SESSIONS} and seconds up to {MAX_SECONDS}")
    if args.heavy is not None and args.heavy < 2:
        parser.error("--heavy needs at least 2 sessions (one heavy, the others train)")
    command = "python -m explorer.dashboard.loadtest" + ("" if argv is None else "".join(f" {a}" for a in argv))

    from playwright.sync_api import sync_playwright

    from explorer.dashboard import serve_in_background

    rows, sessions = [], []
    with pinned_blas(args.threads):
        port = _free_port()
        server = serve_in_background(port, sessions)
        url = f"http://127.0.0.1:{port}/"
        try:
            with sync_playwright() as playwright:
                browser = chromium.launch(playwright)
                for n in args.sessions:
                    rows.append(run_load(browser, url, sessions, n, args.seconds, args.page_every, False, args.settle))
                    print(rows[-1], flush=True)
                if args.heavy:
                    rows.append(
                        run_load(browser, url, sessions, args.heavy, args.seconds, args.page_every, True, args.settle)
                    )
                    print(rows[-1], flush=True)
                browser.close()
        finally:
            server.stop()
            server.join()

    columns = [
        "sessions",
        "heavy",
        "heavy built after s",
        "refreshes/s median",
        "refreshes/s least",
        "longest gap s",
        "it/s median",
        "it/s least",
        "errors",
        "static median s",
        "static max s",
        "page median s",
        "page max s",
        "RSS before MB",
        "RSS max MB",
        "RSS after MB",
        "threads before",
        "threads max",
        "threads after",
        "sessions kept after",
    ]
    markdown = (
        f"Each run: N headless Chromium pages (one browser context each) on the default page (banana, m = 100), each "
        f"pressing Play for {args.seconds:g} s, served from this process on 127.0.0.1; another client fetches a small "
        f"static file every second and the page every {args.page_every:g} s (each fetch of the page makes a "
        "session that never connects: its light page only, the Dashboard is built once a page opens). Memory and threads are this process's (server, sessions' workers and the "
        f"Playwright client; before: server up, no page open; after: {args.settle:g} s after the pages closed). "
        '"longest gap": the longest time a training session\'s page got no refresh (sampled every 0.25 s). The '
        f"heavy row: one of the N sessions opens `{HEAVY_LINK}` (the costliest run the budget lets a link ask for) while the others "
        "train, then trains on it. The machine is shared with other users; runs are short.\n\n"
        + markdown_table(rows, columns)
    )
    finish(args, "Dashboard: a class on one server (load test)", command, markdown, {"rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
