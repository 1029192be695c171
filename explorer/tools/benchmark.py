"""`python -m explorer.tools.benchmark`: what the served dashboard costs the training it shows — phases alternate
`--repeats` times: a headless `Model` trained by `step(100)` calls, then the session served in this process trained
by its Play button in headless Debian Chromium (Playwright), then a memory soak of `--minutes`; `--pin` puts this
process on core 0 and Chromium on core 1 (`pin`). What each column means is written under its table (BENCHMARKS.md,
"Dashboard: training inside the served app"). Needs Playwright (the `test` extra) and Debian Chromium.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time

import numpy as np
import psutil

from explorer.bench.common import BenchParser, finish, markdown_table, pinned_blas
from explorer.tools import served_in_chromium

DESCRIPTION = "Served dashboard: SVI iterations/s vs headless Model, update rate, bytes per update, memory"
APP_CORES, BROWSER_CORES = {0}, {1}  # with --pin
PATCH = re.compile(r'"msgtype":\s*"PATCH-DOC"')  # the header of a Bokeh message that changes the page


def resident_mb() -> float:
    """This process's resident set size in MB."""
    return psutil.Process().memory_info().rss / 2**20


def cpu_seconds() -> dict:
    """CPU seconds so far of this process, of its descendant Chromium processes, and of the whole machine (busy)."""
    browser = 0.0
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):  # a process that ended meanwhile
            if "chrom" in process.name():
                browser += sum(process.cpu_times()[:2])  # user + system
    machine = psutil.cpu_times()  # guest time is already inside user
    return {
        "app": sum(psutil.Process().cpu_times()[:2]),
        "browser": browser,
        "machine": machine.user + machine.nice + machine.system + machine.irq + machine.softirq + machine.steal,
    }


def pin(app_cores: set[int], browser_cores: set[int]) -> dict:
    """Put every thread of this process on `app_cores` and every descendant process (with all its threads) on
    `browser_cores`. Returns the affinities now in force: {"app": sorted cores of this process's threads,
    "browser": sorted cores of its descendants' threads, "browser_processes": how many}."""
    processes = psutil.Process().children(recursive=True)
    found: dict[str, set] = {"app": set(), "browser": set()}
    for role, cores, group in (("app", app_cores, [psutil.Process()]), ("browser", browser_cores, processes)):
        for process in group:
            with contextlib.suppress(psutil.Error):
                for thread in process.threads():
                    with contextlib.suppress(ProcessLookupError):
                        os.sched_setaffinity(thread.id, cores)
                        found[role] |= os.sched_getaffinity(thread.id)
    return {"app": sorted(found["app"]), "browser": sorted(found["browser"]), "browser_processes": len(processes)}


class Traffic:
    """Counts the websocket frames and bytes the page receives (a Bokeh message is several frames: header,
    metadata, content and one per binary buffer) and notes when each message that changes the page (PATCH-DOC: a
    refresh) arrived, counted in the browser (the sessions of a forked server live in other processes)."""

    def __init__(self, page):
        self.frames = 0
        self.bytes = 0
        self.patch_times: list[float] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    @property
    def patches(self) -> int:
        return len(self.patch_times)

    def _received(self, payload) -> None:
        self.frames += 1
        self.bytes += len(payload.encode() if isinstance(payload, str) else payload)
        if isinstance(payload, str) and PATCH.search(payload[:200]):
            self.patch_times.append(time.monotonic())


def headless_rate(model, seconds: float) -> tuple[float, float]:
    """SVI iterations per wall-clock second of `model.step(100)` calls (evaluating every eval_every, like the app),
    and the cores this process used meanwhile."""
    start_iteration, start, cpu = model.iteration, time.perf_counter(), cpu_seconds()["app"]
    while time.perf_counter() - start < seconds:
        model.step(100)
    elapsed = time.perf_counter() - start
    return (model.iteration - start_iteration) / elapsed, (cpu_seconds()["app"] - cpu) / elapsed


def train_through_page(page, dashboard, seconds: float) -> float:
    """Press Play, train for `seconds` (pressing Play again if the run stops at convergence), press Pause and wait
    until the worker is idle. Returns the elapsed wall time."""
    page.get_by_role("button", name="Play").click()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        page.wait_for_timeout(250)
        if not dashboard.worker.playing:
            page.get_by_role("button", name="Play").click()
    page.get_by_role("button", name="Pause").click()
    while dashboard.worker.playing:
        page.wait_for_timeout(20)
    return time.perf_counter() - start


def served_phase(page, dashboard, traffic: Traffic, seconds: float) -> dict:
    """Train through the page's Play button for `seconds`; rates seen by the server and the browser."""

    def counts() -> dict:
        return {
            "iterations": dashboard.model.iteration,
            "refreshes": dashboard.refreshes,
            "surface_frames": dashboard.surface.frames,
            "frames": traffic.frames,
            "bytes": traffic.bytes,
            "history_rows": dashboard.train.traces.buffer.seen,
        }

    before, cpu = counts(), cpu_seconds()
    elapsed = train_through_page(page, dashboard, seconds)
    change = {key: value - before[key] for key, value in counts().items()}
    cpu = {key: (value - cpu[key]) / elapsed for key, value in cpu_seconds().items()}
    return {
        **{f"{key}_per_s": value / elapsed for key, value in change.items()},
        "bytes_per_refresh": change["bytes"] / max(change["refreshes"], 1),
        "app_cores": cpu["app"],
        "browser_cores": cpu["browser"],
        "machine_busy_cores": cpu["machine"],
    }


def soak(page, dashboard, minutes: float) -> dict:
    """Train for `minutes` without pause; memory and buffer sizes before and after."""
    before = resident_mb()
    train_through_page(page, dashboard, minutes * 60.0)
    return {
        "minutes": minutes,
        "rss_before_mb": before,
        "rss_after_mb": resident_mb(),
        "iterations": dashboard.model.iteration,
        "history_rows_kept": len(dashboard.model.history),
        "trace_points_plotted": dashboard.train.traces.points,
    }


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser("python -m explorer.tools.benchmark", DESCRIPTION)
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase (default 15)")
    parser.add_argument("--repeats", type=int, default=3, help="headless/served alternations (default 3)")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="this process (server, training) on core 0, Chromium and its children on core 1",
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=1.0,
        help="training time of the memory soak at the end (default 1; the issue asks for 10)",
    )
    args = parser.parse_args(argv)
    if args.pin and not APP_CORES | BROWSER_CORES <= os.sched_getaffinity(0):
        parser.error(
            f"--pin needs cores {sorted(APP_CORES | BROWSER_CORES)}; this process may use only "
            f"{sorted(os.sched_getaffinity(0))}"
        )

    from explorer.model import Model

    load_before, affinity = os.getloadavg()[0], None
    sessions: list = []
    if args.pin:  # the threads started from here on (server, Playwright, Chromium) inherit core 1 …
        os.sched_setaffinity(0, BROWSER_CORES)
    with pinned_blas(args.threads), served_in_chromium(sessions) as (url, browser):
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(120_000)  # a loaded machine can take more than 30 s to answer a click
        affinity = pin(APP_CORES, BROWSER_CORES) if args.pin else None  # … until this process moves to 0
        traffic = Traffic(page)
        page.goto(url)
        page.get_by_role("button", name="Play").wait_for(timeout=120_000)
        page.wait_for_timeout(1000)
        dashboard = sessions[0]
        headless = Model(
            **{name: getattr(dashboard.model, name) for name in ("dataset", "n_inducing", "batch_size", "seed")}
        )
        rows = []
        for repeat in range(args.repeats):
            if args.pin:  # Chromium may have started processes since
                affinity = pin(APP_CORES, BROWSER_CORES)
            alone, alone_cores = headless_rate(headless, args.seconds)
            served = served_phase(page, dashboard, traffic, args.seconds)
            per_cpu = (served["iterations_per_s"] / served["app_cores"]) / (alone / alone_cores)
            rows.append(
                {
                    "repeat": repeat + 1,
                    "headless it/s": alone,
                    "served it/s": served["iterations_per_s"],
                    "served / headless": served["iterations_per_s"] / alone,
                    "headless cores": alone_cores,
                    "per CPU-second": per_cpu,
                    **served,
                }
            )
        memory = soak(page, dashboard, args.minutes)

    median = {key: float(np.median([row[key] for row in rows])) for key in rows[0] if key != "repeat"}
    repeated = (
        "iterations_per_s",
        "frames_per_s",
        "history_rows_per_s",
    )  # served it/s; the note and the JSON have the rest
    columns = [column for column in rows[0] if column not in repeated]
    placement = (
        "the browser shares the machine with the training here; a browser on another machine would not"
        if affinity is None
        else f"pinned: this process's threads on core(s) {affinity['app']}, the {affinity['browser_processes']} "
        f"Playwright/Chromium processes on core(s) {affinity['browser']}, so the ratio is the app's own "
        "overhead (other users of the machine still share both cores)"
    )
    markdown = (
        f"Data set {dashboard.model.dataset} (n = {len(dashboard.model.y_train)} train), default configuration "
        f"(m = {dashboard.model.n_inducing}, s = {dashboard.model.batch_size}, evaluation every "
        f"{dashboard.model.eval_every} iterations). Each repeat: {args.seconds:g} s of a headless Model trained by "
        f"`step(100)` calls, then {args.seconds:g} s of the served session trained by its Play "
        "button with a headless Chromium page receiving every update (same process, same machine, BLAS threads "
        f"{args.threads}).\n\n"
        + markdown_table(rows + [{"repeat": "median", **median}], columns)
        + f"\n\n**Served / headless iterations per second: {median['served / headless']:.0%}** (target ≥ 70%); "
        f"per CPU-second of this process (iterations/s over the cores it used, which discounts the other users of "
        f"the machine but also any idle waits of the app): {median['per CPU-second']:.0%}. "
        f"Page updates: {median['refreshes_per_s']:.1f} refreshes/s (curves), surface "
        f"{median['surface_frames_per_s']:.1f}/s, {median['bytes_per_refresh'] / 1e3:.1f} kB per refresh "
        f"({median['bytes_per_s'] / 1e3:.0f} kB/s in {median['frames_per_s']:.0f} websocket frames/s). "
        f"CPU while served, in cores: this process (worker + server) {median['app_cores']:.2f}, Chromium drawing the "
        f"page {median['browser_cores']:.2f}, whole machine {median['machine_busy_cores']:.2f} of {os.cpu_count()}; "
        f"{placement}. Load average at the start {load_before:.2f}.\n\n"
        f"Memory after {memory['minutes']:g} min of training ({memory['iterations']} iterations in all): resident "
        f"{memory['rss_before_mb']:.0f} MB before, {memory['rss_after_mb']:.0f} MB after; history rows kept "
        f"{memory['history_rows_kept']}, live trace points plotted {memory['trace_points_plotted']} (bounded)."
    )
    finish(
        args,
        "Dashboard: training inside the served app",
        markdown,
        {
            "repeats": rows,
            "median": median,
            "memory": memory,
            "seconds": args.seconds,
            "affinity": affinity,
            "load_before": load_before,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
