"""`python -m explorer.tools.loadtest`: a class in front of one server (issue 19): N training sessions (headless
Chromium pages, or with `--num-procs` also light clients, `LightSession`) and another visitor's latency, against a
server in this process (`run_load`, its memory and threads too) or `xgpc-explorer serve --num-procs P` in a process
of its own (`classroom`, the server's CPU too). What each column means is written above its table (BENCHMARKS.md,
"Dashboard: a class on one server (load test)", "… on several processes"). Bounded on purpose: at most
`MAX_SESSIONS` pages and `MAX_SECONDS` per run. Needs Playwright (the `test` extra) and Debian Chromium.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from itertools import product
from pathlib import Path

import psutil

from explorer.bench.common import BenchParser, finish, markdown_table, pinned_blas
from explorer.bench.grid import dask_client
from explorer.console import whole_number
from explorer.dashboard.app import Dashboard
from explorer.tools import free_port, headless_chromium, served_in_chromium
from explorer.tools.benchmark import Traffic, resident_mb

DESCRIPTION = "Served dashboard under load: N training sessions, another client's latency, memory and threads"
MAX_SESSIONS, MAX_SECONDS = 24, 120
SAMPLE_SECONDS = 0.25
# The costliest run the budget lets a link ask for on generated data: k-means++ for 999 inducing points on 80,000
# rows (≈ 3.5 s here) and evaluations on 10,000 rows at m = 999 (≈ 2.3 s each).
HEAVY_LINK = "?dataset=moons&n_points=100000&n_inducing=999&batch_size=200"
COUNTER = re.compile(r"^iteration \d+")  # the Train tab's iteration counter
SWEEPS = re.compile(r"sweep (\d+) of \d+ per chain")  # the MCMC tab's progress
MCMC_SWEEPS = 20_000  # sweeps per chain of a class's MCMC comparison: it outlasts any run of the load test
HOME = Path(__file__).resolve().parents[2]  # the folder holding this `explorer` package


PLAY_LABEL = "\u25b6 Play"  # the Train tab's Play button
TOKEN = re.compile(r'"token":"([^"]+)"')  # the session's token in the page Bokeh's server sends
COUNTER_VALUE = re.compile(r'"iteration (\d+)')  # the iteration counter's text as a patch sets it


def _message(msgtype: str, content: dict) -> list[str]:
    """The frames of a Bokeh protocol message without buffers: header, metadata, content (JSON)."""
    return [json.dumps({"msgid": uuid.uuid4().hex, "msgtype": msgtype}), "{}", json.dumps(content)]


def _event(name: str, values: list) -> list[str]:
    """A UI event as BokehJS sends it: a PATCH-DOC whose one change is a "bokeh_event" message (values: the event's
    fields as [name, value] pairs, in Bokeh's serialised form)."""
    data = {"type": "event", "name": name, "values": {"type": "map", "entries": values}}
    return _message("PATCH-DOC", {"events": [{"kind": "MessageSent", "msg_type": "bokeh_event", "msg_data": data}]})


def buttons(node, found: dict | None = None) -> dict[str, str]:
    """The buttons among the Bokeh models serialised in `node` (parsed JSON): label → model id."""
    found = {} if found is None else found
    if isinstance(node, dict):
        attributes = node.get("attributes")
        label = attributes.get("label") if isinstance(attributes, dict) else None
        if node.get("type") == "object" and str(node.get("name", "")).endswith("Button") and isinstance(label, str):
            found.setdefault(label, node["id"])
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            buttons(child, found)
    return found


class LightSession:
    """A visitor's page without a browser: it fetches the page (Bokeh's server makes the session), opens the
    session's websocket with the page's token, pulls the document and announces it ready as BokehJS does (Panel then
    builds the Dashboard), and from then reads every message the server sends without rendering anything. It counts
    the PATCH-DOC messages (each a change of the page: the refreshes) with the time each arrived, follows the
    iteration counter in them, and presses a button by sending its click event (`press`, by its label)."""

    def __init__(self, url: str):
        self.url = url
        self.patch_times: list[float] = []
        self.iteration = 0
        self.errors: list[str] = []
        self.buttons: dict[str, str] = {}  # label → model id of the page's buttons, once the Dashboard is on it
        self._live = asyncio.Event()
        self._socket = None
        self._reader: asyncio.Task | None = None

    @property
    def patches(self) -> int:
        return len(self.patch_times)

    async def open(self, timeout: float = 180.0) -> float:
        """Connect and wait until the page shows the Dashboard (its Play button); the seconds that took."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        start = time.monotonic()
        html = await asyncio.to_thread(lambda: urllib.request.urlopen(self.url, timeout=60).read().decode())
        token = TOKEN.search(html)
        if token is None:
            raise RuntimeError(f"{self.url}: the page has no Bokeh session token")
        request = HTTPRequest(self.url.replace("http", "ws", 1).rstrip("/") + "/ws", connect_timeout=60)
        self._socket = await websocket_connect(request, subprotocols=["bokeh", token.group(1)])
        await self._read()  # ACK
        await self._send(_message("PULL-DOC-REQ", {}))
        self._reader = asyncio.ensure_future(self._listen())
        await self._send(_event("document_ready", []))
        await asyncio.wait_for(self._live.wait(), timeout)
        return time.monotonic() - start

    async def _send(self, frames: list[str]) -> None:
        for frame in frames:
            await self._socket.write_message(frame)

    async def _read(self) -> tuple[dict, str] | None:
        """One message: (header, content); None once the socket closed. Binary buffers are read and dropped."""
        header = await self._socket.read_message()
        if header is None:
            return None
        header = json.loads(header)
        await self._socket.read_message()  # metadata
        content = await self._socket.read_message()
        for _ in range(2 * header.get("num_buffers", 0)):  # each buffer: a header frame and its bytes
            await self._socket.read_message()
        return header, content if isinstance(content, str) else ""

    async def _listen(self) -> None:
        while (message := await self._read()) is not None:
            header, content = message
            kind = header["msgtype"]
            if kind == "ERROR":
                self.errors.append(f"server error: {content[:200]}")
            if kind not in ("PATCH-DOC", "PULL-DOC-REPLY"):
                continue
            if kind == "PATCH-DOC":
                self.patch_times.append(time.monotonic())
            if PLAY_LABEL not in self.buttons and 'Play"' in content:  # the label, \u-escaped or not
                buttons(json.loads(content), self.buttons)
                if PLAY_LABEL in self.buttons:
                    self._live.set()
            counters = COUNTER_VALUE.findall(content)
            if counters:
                self.iteration = int(counters[-1])

    async def press(self, label: str = PLAY_LABEL) -> None:
        """Click the button labelled `label` (a ButtonClick event, as BokehJS sends one)."""
        await self._send(_event("button_click", [["model", {"id": self.buttons[label]}]]))

    async def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def per_second(first: tuple, last: tuple, column: int) -> list[float]:
    """Each session's count in `column` of two samples (their time first), per second between the two."""
    return [(b - a) / (last[0] - first[0]) for a, b in zip(first[column], last[column])]


def longest_gap(times: list[float], start: float, end: float) -> float:
    """The longest time between start and end without an entry of `times` (sorted)."""
    inside = [start] + [t for t in times if start < t < end] + [end]
    return max(b - a for a, b in zip(inside, inside[1:]))


def process_cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by process `pid` and every process it started that still runs (a
    forked server's processes): (all their threads, their main threads only — where `xgpc-explorer serve` runs its
    event loop, so every refresh's collection, rendering, serialisation and send)."""
    total, loop = 0.0, 0.0
    server = psutil.Process(pid)
    for process in [server, *server.children(recursive=True)]:
        with contextlib.suppress(psutil.Error, StopIteration):  # a process that ended meanwhile
            main = next(thread for thread in process.threads() if thread.id == process.pid)
            total, loop = total + sum(process.cpu_times()[:2]), loop + main.user_time + main.system_time
    return total, loop


class Periodic(threading.Thread):
    """A daemon thread that calls `tick` every `period` seconds until `stop`."""

    def __init__(self, period: float):
        super().__init__(daemon=True)
        self.period, self._done = period, threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            self.tick()
            self._done.wait(self.period)

    def stop(self) -> None:
        self._done.set()
        self.join(timeout=120)


class Client(Periodic):
    """Another visitor: every second fetches `static` (a small file the page loads), every `page_every` seconds
    the page `url` itself; records (monotonic start, seconds taken) of each, and failures."""

    def __init__(self, url: str, static: str, page_every: float):
        super().__init__(1.0)
        self.url, self.static, self.page_every, self.next_page = url, static, page_every, 0.0
        self.static_times, self.page_times, self.failures = [], [], []

    def _fetch(self, url: str, times: list) -> None:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=60) as answer:
                answer.read()
        except OSError as err:
            self.failures.append(f"{url}: {err}")
            return
        times.append((start, time.monotonic() - start))

    def tick(self) -> None:
        self._fetch(self.static, self.static_times)
        if time.monotonic() >= self.next_page:
            self._fetch(self.url, self.page_times)
            self.next_page = time.monotonic() + self.page_every


class Monitor(Periodic):
    """Samples every SAMPLE_SECONDS the refresh and iteration counts of `dashboards`, this process's resident memory
    and threads; `gaps()` is the longest time each dashboard went without a new refresh."""

    def __init__(self, dashboards: list):
        super().__init__(SAMPLE_SECONDS)
        self.dashboards = dashboards
        self.samples: list[tuple[float, list[int], list[int], float, int]] = []

    def tick(self) -> None:
        refreshes, iterations = [d.refreshes for d in self.dashboards], [d.model.iteration for d in self.dashboards]
        self.samples.append((time.monotonic(), refreshes, iterations, resident_mb(), psutil.Process().num_threads()))

    def gap(self, index: int) -> float:
        """The longest time dashboard `index` went without a new refresh (to within SAMPLE_SECONDS)."""
        pairs = zip(self.samples[1:], self.samples)
        refreshed = [t for (t, now, *_), (_, before, *_) in pairs if now[index] > before[index]]
        return longest_gap(refreshed, self.samples[0][0], self.samples[-1][0])


def static_file(url: str) -> str:
    """The smallest static file among the scripts the page at `url` names (fetched without a browser)."""
    html = urllib.request.urlopen(url, timeout=60).read().decode()
    sources = {urllib.parse.urljoin(url, src) for src in re.findall(r'src="([^"]*static/[^"]*)"', html)}
    sizes = {}
    for source in sources:
        with urllib.request.urlopen(source, timeout=60) as answer:
            sizes[source] = len(answer.read())
    return min(sizes, key=sizes.get)


def new_page(browser, errors: list):
    """A page in a fresh browser context, its console and page errors appended to `errors`: (context, page)."""
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
    return context, page


def _quantiles(times: list[tuple[float, float]], start: float, end: float) -> tuple[float, float]:
    """(median, largest) seconds of the fetches that started between start and end."""
    chosen = [seconds for begun, seconds in times if start <= begun <= end]
    return (statistics.median(chosen), max(chosen)) if chosen else (float("nan"), float("nan"))


def run_load(
    browser, url: str, sessions: list, n: int, seconds: float, page_every: float, heavy: bool, settle: float
) -> dict:
    """N sessions train for `seconds` (with `heavy`: N − 1 train, one opens HEAVY_LINK and trains on it); the
    numbers of one row."""
    base = (resident_mb(), psutil.Process().num_threads())
    errors: list[str] = []
    opened = []
    for _ in range(n - 1 if heavy else n):  # each live and its Dashboard in `sessions`
        count = len(sessions)
        context, page, _, _ = open_live(browser, url, errors)
        while len(sessions) == count:
            page.wait_for_timeout(50)
        opened.append((context, page, sessions[count]))
    if heavy:
        heavy_context, heavy_page = new_page(browser, errors)
    pages, dashboards = [page for _, page, _ in opened], [dashboard for _, _, dashboard in opened]
    client = Client(url, static_file(url), page_every)
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
    refreshes, iterations = (per_second(monitor.samples[0], monitor.samples[-1], column) for column in (1, 2))
    gaps = [monitor.gap(i) for i in range(len(dashboards))]
    training = len(dashboards)
    heavy_state = (
        "—"
        if not heavy
        else "link at the budget's limit; "
        + (f"{heavy_dashboard.model.iteration} iterations at m = 999" if heavy_dashboard else "its run not built")
    )
    for context in [context for context, _, _ in opened] + ([heavy_context] if heavy else []):
        context.close()
    time.sleep(settle)  # the sessions stop their workers at once; Bokeh discards them 15–32 s after the page closed
    dashboards.clear()  # this harness's references: the server keeps none of a closed session
    sessions.clear()
    opened.clear()
    heavy_dashboard = None
    gc.collect()
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
        "threads after": psutil.Process().num_threads(),
        "sessions kept after": sum(isinstance(thing, Dashboard) for thing in gc.get_objects()),
        "error texts": (errors + worker_errors + client.failures)[:5],
    }


def page_number(page, pattern: re.Pattern) -> int:
    """The first number in the page's first text matching `pattern` (0 if none is shown)."""
    found = page.get_by_text(pattern)
    if not found.count():
        return 0
    match = pattern.search(found.first.inner_text())
    return int(re.search(r"\d+", match.group()).group()) if match else 0


def open_live(browser, url: str, errors: list):
    """A page in a fresh browser context at `url`, waited for until it shows its iteration counter; returns (context,
    page, its Traffic, seconds from the request to a live page)."""
    context, page = new_page(browser, errors)
    counts = Traffic(page)
    start = time.monotonic()
    page.goto(url)
    page.get_by_role("button", name="Play").wait_for()
    page.get_by_text(COUNTER).first.wait_for()
    return context, page, counts, time.monotonic() - start


@contextmanager
def forked_server(port: int, num_procs: int, scheduler: str | None, home: Path = HOME):
    """`xgpc-explorer serve --num-procs N` (and `--scheduler`) on 127.0.0.1:`port` in a process of its own, BLAS on
    one thread, until the block ends (SIGTERM to its first process, which ends the others). The server is the
    `explorer` package in the folder `home` (`python -m` imports from its working folder; default: this one's)."""
    command = [sys.executable, "-m", "explorer", "serve", "--num-procs", str(num_procs), "--port", str(port)]
    command += ["--address", "127.0.0.1"] + (["--scheduler", scheduler] if scheduler else [])
    server = subprocess.Popen(
        command,
        cwd=home,
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
        yield server
    finally:
        server.terminate()
        server.wait(timeout=60)


def _class_row(
    clients: str, mcmc: int, first: tuple, last: tuple, patch_times: list, newcomer: float, client: Client, errors: list
) -> dict:
    """One row of the class: `first` and `last` are samples (time, refreshes per session, iterations per session,
    sweeps per MCMC session, the server's CPU seconds) at the ends of the measured window, `errors` the sessions'."""
    elapsed = last[0] - first[0]
    refreshes, iterations, sweeps = (per_second(first, last, column) for column in (1, 2, 3))
    cpu, loop = last[4][0] - first[4][0], last[4][1] - first[4][1]
    page_load = _quantiles(client.page_times, first[0], last[0])
    total_refreshes, total_iterations = sum(last[1]) - sum(first[1]), sum(last[2]) - sum(first[2])
    errors = errors + client.failures
    return {
        "clients": clients,
        "sessions": len(patch_times),
        "MCMC sessions": mcmc,
        "refreshes/s median": statistics.median(refreshes),
        "refreshes/s least": min(refreshes),
        "longest gap s": max(longest_gap(times, first[0], last[0]) for times in patch_times),
        "it/s median": statistics.median(iterations),
        "it/s least": min(iterations),
        "MCMC sweeps/s all": sum(sweeps) if sweeps else float("nan"),
        "server CPU s/s": cpu / elapsed,
        "server CPU ms/refresh": 1000 * cpu / total_refreshes if total_refreshes else float("nan"),
        "server CPU ms/iteration": 1000 * cpu / total_iterations if total_iterations else float("nan"),
        "event loop CPU ms/refresh": 1000 * loop / total_refreshes if total_refreshes else float("nan"),
        "newcomer live s": newcomer,
        "page median s": page_load[0],
        "page max s": page_load[1],
        "static median s": _quantiles(client.static_times, first[0], last[0])[0],
        "errors": len(errors),
        "error texts": errors[:5],
    }


def run_classroom(browser, url: str, server: int, n: int, mcmc: int, seconds: float, page_every: float) -> dict:
    """N Chromium pages train for `seconds` while `mcmc` more run an MCMC comparison each (MCMC_SWEEPS sweeps per
    chain), all measured in the browser, the CPU of the server's processes (pid `server`) from /proc; halfway a
    newcomer opens the page (seconds until it is live). The numbers of one row."""
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
    client = Client(url, static_file(url), page_every)
    client.start()
    pages = [page for _, page, _, _ in trainers]
    time.sleep(min(3.0, seconds / 4))  # past the first chunks and the comparisons' fits

    def sample() -> tuple:
        return (
            time.monotonic(),
            [counts.patches for _, _, counts, _ in trainers],
            [page_number(page, COUNTER) for page in pages],
            [page_number(page, SWEEPS) for _, page, _, _ in heavy],
            process_cpu_seconds(server),
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
    patch_times = [counts.patch_times for _, _, counts, _ in trainers]
    return _class_row("chromium", mcmc, first, last, patch_times, newcomer[3], client, errors)


async def _light_class(url: str, server: int, n: int, seconds: float, client: Client) -> dict:
    sessions = [LightSession(url) for _ in range(n)]
    for session in sessions:  # one after the other, as the Chromium pages open
        await session.open()
    for session in sessions:
        await session.press()
    client.start()
    await asyncio.sleep(min(3.0, seconds / 4))  # past the first chunks

    def sample() -> tuple:
        cpu = process_cpu_seconds(server)
        return time.monotonic(), [s.patches for s in sessions], [s.iteration for s in sessions], [], cpu

    first = sample()
    await asyncio.sleep(seconds / 2)
    newcomer = LightSession(url)
    live = await newcomer.open()
    await newcomer.close()
    await asyncio.sleep(seconds / 2)
    last = sample()
    client.stop()
    for session in sessions:
        await session.close()
    errors = [error for s in sessions + [newcomer] for error in s.errors]
    return _class_row("light", 0, first, last, [s.patch_times for s in sessions], live, client, errors)


def run_light(url: str, static: str, server: int, n: int, seconds: float, page_every: float) -> dict:
    """N light clients (`LightSession`: Bokeh's websocket protocol, no rendering) press Play and train for
    `seconds`, measured from the messages they receive, the CPU of the server's processes (pid `server`) from /proc;
    halfway a newcomer opens the page (seconds until its Dashboard is on it). The numbers of one row. Its event loop
    runs in a thread of its own: Playwright's sync API (the Chromium rows of the same run) keeps one running in this
    thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(
            asyncio.run, _light_class(url, server, n, seconds, Client(url, static, page_every))
        ).result()


def classroom(args) -> int:
    """The load test against `xgpc-explorer serve --num-procs N` for each N of --num-procs and each kind of client
    (--clients), measured by the clients, the server's CPU from /proc."""
    rows = []
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = "1"  # the LocalCluster's workers inherit it
    with headless_chromium() if "chromium" in args.clients else contextlib.nullcontext() as browser:
        for workers in args.workers:  # the heavy jobs on a LocalCluster started here, on --scheduler, or in the server
            with dask_client(workers=workers) if workers else contextlib.nullcontext() as local:
                scheduler = local.scheduler.address if workers else args.scheduler
                for kind in args.clients:
                    for procs, n, home in product(args.num_procs, args.sessions, args.server_from or [HOME]):
                        port = free_port()
                        url = f"http://127.0.0.1:{port}/explorer"
                        with forked_server(port, procs, scheduler, home) as server:
                            if kind == "light":
                                row = run_light(url, static_file(url), server.pid, n, args.seconds, args.page_every)
                            else:
                                row = run_classroom(
                                    browser, url, server.pid, n, args.mcmc, args.seconds, args.page_every
                                )
                        cluster = "none" if scheduler is None else workers or args.scheduler
                        server = "this" if home == HOME else str(home)
                        rows.append(
                            {
                                "server": server,
                                "clients": row.pop("clients"),
                                "processes": procs,
                                "cluster workers": cluster,
                                **row,
                            }
                        )
                        print(rows[-1], flush=True)
    columns = [name for name in rows[0] if name != "error texts" and (name != "server" or args.server_from)]
    markdown = (
        f"Each run: `xgpc-explorer serve --num-procs P` on 127.0.0.1 (a fresh server per row), N clients each "
        f"pressing Play for {args.seconds:g} s — headless Chromium pages (chromium), or light clients that speak "
        "Bokeh's websocket protocol and read every message without rendering (light: `LightSession`) — and M more "
        f"Chromium pages each running an MCMC comparison ({MCMC_SWEEPS} sweeps per chain: it outlasts the run) in the "
        "server or on a Dask LocalCluster of W one-thread workers (`--scheduler`). Measured by the clients: "
        "refreshes/s are the page-changing Bokeh messages (PATCH-DOC) a page received, the longest gap the longest "
        "time a training page received none; it/s from its iteration counter; MCMC sweeps/s all: the sweeps per "
        "chain of every comparison together; server CPU: user + system seconds of the server's processes (/proc) "
        "per second of the run, per refresh received and per iteration (all its work, training included, divided "
        "by each), and its main thread's — the event loop's, where every refresh is rendered, serialised and sent "
        "— per refresh; the newcomer opens the page halfway (seconds until it is live); another client fetches a static "
        f"file every second and the page every {args.page_every:g} s. The machine has 2 cores shared with other "
        "users while this ran: compare rows of one run, not runs.\n\n" + markdown_table(rows, columns)
    )
    heavy = f", {args.mcmc} running MCMC" if args.mcmc else ""
    finish(args, f"Dashboard: a class on several processes{heavy} (load test)", markdown, {"rows": rows})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser("python -m explorer.tools.loadtest", DESCRIPTION)
    parser.add_argument(
        "--sessions",
        type=whole_number(1, MAX_SESSIONS),
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
        type=whole_number(2, MAX_SESSIONS),
        default=None,
        metavar="N",
        help="also a run of N sessions where one opens the costliest link the budget allows and the others train",
    )
    parser.add_argument(
        "--num-procs",
        type=whole_number(1, 8),
        nargs="+",
        default=None,
        metavar="P",
        help="serve with `xgpc-explorer serve --num-procs P` for each P (in a process of its own, measured in the "
        "browser) instead of in this process",
    )
    parser.add_argument(
        "--clients",
        nargs="+",
        choices=("chromium", "light"),
        default=None,
        help="with --num-procs: the kinds of client, one run each (default chromium; light: Bokeh's websocket "
        "protocol without rendering, so the server's cores are the server's; light alone implies --num-procs 1)",
    )
    parser.add_argument(
        "--server-from",
        nargs="+",
        type=Path,
        default=None,
        metavar="DIR",
        help="with --num-procs: serve from the `explorer` package in each DIR in turn (e.g. another commit's: `git "
        "archive COMMIT explorer | tar -x -C DIR`), one row each, alternating, to compare versions under one load; "
        "`this` names this package's folder",
    )
    parser.add_argument(
        "--mcmc",
        type=whole_number(0),
        default=0,
        metavar="M",
        help="with --num-procs: M more sessions run an MCMC comparison",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(0),
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
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be above 0 and at most {MAX_SECONDS}, got {args.seconds:g}")
    if args.clients is not None and args.num_procs is None:
        args.num_procs = [1]
    args.clients = args.clients or ["chromium"]
    if args.server_from is not None:
        args.server_from = [HOME if str(d) == "this" else d.resolve() for d in args.server_from]
        missing = [str(d) for d in args.server_from if not (d / "explorer" / "__main__.py").is_file()]
        if missing:
            parser.error(f"--server-from: no explorer package (explorer/__main__.py) in {', '.join(missing)}")
    if args.mcmc and "light" in args.clients:
        parser.error("--mcmc needs Chromium clients (--clients chromium)")
    if args.num_procs is not None:
        return classroom(args)
    if args.mcmc or any(args.workers) or args.scheduler:
        parser.error("--mcmc, --workers and --scheduler go with --num-procs")

    rows, sessions = [], []
    with pinned_blas(args.threads), served_in_chromium(sessions) as (url, browser):
        for n, heavy in [(n, False) for n in args.sessions] + ([(args.heavy, True)] if args.heavy else []):
            rows.append(run_load(browser, url, sessions, n, args.seconds, args.page_every, heavy, args.settle))
            print(rows[-1], flush=True)
    columns = [name for name in rows[0] if name not in ("training", "error texts")]
    markdown = (
        f"Each run: N headless Chromium pages (one browser context each) on the default page (banana, m = 100), each "
        f"pressing Play for {args.seconds:g} s, served from this process on 127.0.0.1; another client fetches a small "
        f"static file every second and the page every {args.page_every:g} s (each fetch of the page makes a "
        "session that never connects: its light page only, the Dashboard is built once a page opens). Memory and threads are this process's (server, sessions' workers and the "
        f"Playwright client; before: server up, no page open; after: {args.settle:g} s after the pages closed, with the "
        "Dashboard objects still alive then: 'sessions kept after'); errors: console, page and worker errors. "
        '"longest gap": the longest time a training session\'s page got no refresh (sampled every 0.25 s). The '
        f"heavy row: one of the N sessions opens `{HEAVY_LINK}` (the costliest run the budget lets a link ask for) while the others "
        "train, then trains on it. The machine is shared with other users; runs are short.\n\n"
        + markdown_table(rows, columns)
    )
    finish(args, "Dashboard: a class on one server (load test)", markdown, {"rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
