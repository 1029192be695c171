"""`python -m explorer.tools.loadtest`: a class in front of one server (issue 19).

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
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager

from explorer.bench.common import add_common_arguments, finish, markdown_table, pinned_blas
from explorer.dashboard import chromium
from explorer.dashboard.app import Dashboard
from explorer.tools.benchmark import _free_port, _tasks, resident_mb

DESCRIPTION = "Served dashboard under load: N training sessions, another client's latency, memory and threads"
MAX_SESSIONS, MAX_SECONDS = 24, 120
SAMPLE_SECONDS = 0.25
# The costliest run the budget lets a link ask for on generated data: k-means++ for 999 inducing points on 80,000
# rows (≈ 3.5 s here) and evaluations on 10,000 rows at m = 999 (≈ 2.3 s each).
HEAVY_LINK = "?dataset=moons&n_points=100000&n_inducing=999&batch_size=200"
PATCH = re.compile(r'"msgtype":\s*"PATCH-DOC"')  # the header of a Bokeh message that changes the page
COUNTER = re.compile(r"^iteration \d+")  # the Train tab's iteration counter
SWEEPS = re.compile(r"sweep (\d+) of \d+ per chain")  # the MCMC tab's progress
MCMC_SWEEPS = 20_000  # sweeps per chain of a class's MCMC comparison: it outlasts any run of the load test


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
        if heavy_dashboard is not None and heavy_done is None and heavy_dashboard.actions.current is None:
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


class PageCounts:
    """The refreshes a page of the served app receives: Bokeh messages that change the page (PATCH-DOC) over its
    websocket, counted in the browser (the sessions of a forked server live in other processes)."""

    def __init__(self, page):
        self.patches = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, payload) -> None:
        if isinstance(payload, str) and PATCH.search(payload[:200]):
            self.patches += 1


def page_number(page, pattern: re.Pattern, group: int = 0) -> int:
    """The first number in the page's first text matching `pattern` (0 if none is shown)."""
    found = page.get_by_text(pattern)
    if not found.count():
        return 0
    match = pattern.search(found.first.inner_text())
    return int(re.search(r"\d+", match.group(group)).group()) if match else 0


def open_live(browser, url: str, errors: list):
    """A page in a fresh browser context at `url`, waited for until it shows its iteration counter; returns (context,
    page, its PageCounts, seconds from the request to a live page)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(180_000)  # a failsafe on a loaded machine
    page.on(
        "console",
        lambda message: (
            errors.append(f"{message.text} ({message.location.get('url')})") if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    counts = PageCounts(page)
    start = time.monotonic()
    page.goto(url)
    page.get_by_role("button", name="Play").wait_for()
    page.get_by_text(COUNTER).first.wait_for()
    return context, page, counts, time.monotonic() - start


@contextmanager
def forked_server(port: int, num_procs: int, scheduler: str | None):
    """`xgpc-explorer serve --num-procs N` (and `--scheduler`) on 127.0.0.1:`port` in a process of its own, BLAS on
    one thread, until the block ends (SIGTERM to its first process, which ends the others)."""
    command = [sys.executable, "-m", "explorer", "serve", "--num-procs", str(num_procs), "--port", str(port)]
    command += ["--address", "127.0.0.1"] + (["--scheduler", scheduler] if scheduler else [])
    server = subprocess.Popen(
        command,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer", timeout=60).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{' '.join(command)} did not start") from None
                time.sleep(0.3)
        yield
    finally:
        server.terminate()
        server.wait(timeout=60)


def run_classroom(browser, url: str, n: int, mcmc: int, seconds: float, page_every: float) -> dict:
    """N sessions train for `seconds` while `mcmc` more run an MCMC comparison each (MCMC_SWEEPS sweeps per chain),
    all measured in the browser; halfway a newcomer opens the page (seconds until it is live). The numbers of one
    row."""
    errors: list[str] = []
    trainers = [open_live(browser, url, errors) for _ in range(n)]
    heavy = [open_live(browser, url, errors) for _ in range(mcmc)]
    for _, page, _, _ in heavy:
        page.locator(".bk-tab", has_text="MCMC").click()
        page.get_by_label("sweeps kept per chain").fill(str(MCMC_SWEEPS))
        page.keyboard.press("Enter")
        page.get_by_role("button", name="Run MCMC comparison").click()
    for _, page, _, _ in trainers:
        page.get_by_role("button", name="Play").click()
    client = Client(url, static_file(trainers[0][1]), page_every)
    client.start()
    pages = [page for _, page, _, _ in trainers]
    time.sleep(min(3.0, seconds / 4))  # past the first chunks and the comparisons' fits

    def sample() -> tuple:
        return (
            time.monotonic(),
            [counts.patches for _, _, counts, _ in trainers],
            [page_number(page, COUNTER) for page in pages],
            [page_number(page, SWEEPS) for _, page, _, _ in heavy],
        )

    first = sample()
    pages[0].wait_for_timeout(1000 * seconds / 2)
    newcomer = open_live(browser, url, errors)
    newcomer[0].close()
    pages[0].wait_for_timeout(1000 * seconds / 2)
    last = sample()
    client.stop()
    for context, *_ in trainers + heavy:
        context.close()
    elapsed = last[0] - first[0]
    refreshes = [(b - a) / elapsed for a, b in zip(first[1], last[1])]
    iterations = [(b - a) / elapsed for a, b in zip(first[2], last[2])]
    sweeps = [(b - a) / elapsed for a, b in zip(first[3], last[3])]
    page_load = _quantiles(client.page_times, first[0], last[0])
    return {
        "sessions": n,
        "MCMC sessions": mcmc,
        "refreshes/s median": statistics.median(refreshes),
        "refreshes/s least": min(refreshes),
        "it/s median": statistics.median(iterations),
        "it/s least": min(iterations),
        "MCMC sweeps/s all": sum(sweeps) if sweeps else float("nan"),
        "newcomer live s": newcomer[3],
        "page median s": page_load[0],
        "page max s": page_load[1],
        "static median s": _quantiles(client.static_times, first[0], last[0])[0],
        "errors": len(errors) + len(client.failures),
        "error texts": (errors + client.failures)[:5],
    }


@contextmanager
def heavy_jobs_on(workers: int, scheduler: str | None):
    """The scheduler's address for the heavy jobs: `scheduler`, or a LocalCluster of `workers` one-thread workers
    started here for the block (`workers` 0 and no scheduler: None, the jobs stay in the server)."""
    if workers == 0:
        yield scheduler
        return
    from distributed import LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def classroom(args, command: str) -> int:
    """The load test against `xgpc-explorer serve --num-procs N` for each N of --num-procs, measured in the browser."""
    from playwright.sync_api import sync_playwright

    rows = []
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = "1"  # the LocalCluster's workers inherit it
    with sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        for workers in args.workers:
            with heavy_jobs_on(workers, args.scheduler) as scheduler:
                for procs in args.num_procs:
                    for n in args.sessions:
                        port = _free_port()
                        with forked_server(port, procs, scheduler):
                            row = run_classroom(
                                browser,
                                f"http://127.0.0.1:{port}/explorer",
                                n,
                                args.mcmc,
                                args.seconds,
                                args.page_every,
                            )
                        cluster = "none" if scheduler is None else workers or args.scheduler
                        rows.append({"processes": procs, "cluster workers": cluster, **row})
                        print(rows[-1], flush=True)
        browser.close()
    columns = [
        "processes",
        "cluster workers",
        "sessions",
        "MCMC sessions",
        "refreshes/s median",
        "refreshes/s least",
        "it/s median",
        "it/s least",
        "MCMC sweeps/s all",
        "newcomer live s",
        "page median s",
        "page max s",
        "static median s",
        "errors",
    ]
    markdown = (
        f"Each run: `xgpc-explorer serve --num-procs P` on 127.0.0.1 (a fresh server per row), N headless Chromium "
        f"pages each pressing Play for {args.seconds:g} s, and M more each running an MCMC comparison "
        f"({MCMC_SWEEPS} sweeps per chain: it outlasts the run) in the server or on a Dask LocalCluster of W one-thread "
        "workers (`--scheduler`). Measured in the browser: refreshes/s are the page-changing Bokeh messages a page "
        "received; it/s from its iteration counter; MCMC sweeps/s all: the sweeps per chain of every comparison together; the newcomer opens the page halfway (seconds until it is live); "
        f"another client fetches a static file every second and the page every {args.page_every:g} s. The machine has "
        "2 cores shared with other users while this ran: compare rows of one run, not runs.\n\n"
        + markdown_table(rows, columns)
    )
    heavy = f", {args.mcmc} running MCMC" if args.mcmc else ""
    finish(args, f"Dashboard: a class on several processes{heavy} (load test)", command, markdown, {"rows": rows})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m explorer.tools.loadtest", description=DESCRIPTION)
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
    parser.add_argument(
        "--num-procs",
        type=int,
        nargs="+",
        default=None,
        metavar="P",
        help="serve with `xgpc-explorer serve --num-procs P` for each P (in a process of its own, measured in the "
        "browser) instead of in this process",
    )
    parser.add_argument(
        "--mcmc", type=int, default=0, metavar="M", help="with --num-procs: M more sessions run an MCMC comparison"
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[0],
        metavar="W",
        help="with --num-procs: the MCMC comparisons on a Dask LocalCluster of W workers started here, for each W "
        "(0: in the server; default 0)",
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="with --num-procs: the MCMC comparisons on this cluster"
    )
    args = parser.parse_args(argv)
    counts = args.sessions + ([args.heavy] if args.heavy else [])
    if not all(1 <= n <= MAX_SESSIONS for n in counts) or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"sessions from 1 to {MAX_SESSIONS} and seconds up to {MAX_SECONDS}")
    if args.heavy is not None and args.heavy < 2:
        parser.error("--heavy needs at least 2 sessions (one heavy, the others train)")
    command = "python -m explorer.tools.loadtest" + ("" if argv is None else "".join(f" {a}" for a in argv))
    if args.num_procs is not None:
        if not all(1 <= p <= 8 for p in args.num_procs) or min(args.workers) < 0 or args.mcmc < 0:
            parser.error("--num-procs from 1 to 8, --workers and --mcmc at least 0")
        return classroom(args, command)
    if args.mcmc or any(args.workers) or args.scheduler:
        parser.error("--mcmc, --workers and --scheduler go with --num-procs")

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
