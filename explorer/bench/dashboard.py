"""`python -m explorer bench dashboard`: what the served dashboard costs the training it shows.

The app is served in this process (`pn.serve`, as `panel serve` would) and opened in headless Debian Chromium
(Playwright). Phases alternate, `--repeats` times: (a) a headless `Model` with the same configuration trained by the
same chunked `run` calls for `--seconds`; (b) the served session trained by its Play button for `--seconds`, with the
page receiving every update. Reported: SVI iterations/s of each and their ratio (median of per-repeat ratios;
target ≥ 70%), the refresh and websocket message rates, bytes per message and per second, then resident memory
after `--minutes` of uninterrupted training (default 1 minute; the issue's figure is `--minutes 10`).
"""
from __future__ import annotations

import argparse
import socket
import time

import numpy as np

from explorer.bench.common import add_common_arguments, finish, markdown_table, pinned_blas

DESCRIPTION = "Served dashboard: SVI iterations/s vs headless Model, update rate, bytes per update, memory"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def resident_mb() -> float:
    """This process's resident set size in MB (Linux /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Traffic:
    """Counts websocket messages and bytes the page receives."""

    def __init__(self, page):
        self.messages = 0
        self.bytes = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, payload) -> None:
        self.messages += 1
        self.bytes += len(payload.encode() if isinstance(payload, str) else payload)


def headless_rate(model, seconds: float, chunk: float) -> float:
    """SVI iterations per wall-clock second of `model.run(seconds=chunk)` calls, as the dashboard's worker makes."""
    start_iteration, start = model.iteration, time.perf_counter()
    while time.perf_counter() - start < seconds:
        model.run(seconds=chunk, stop_at_convergence=False)
    return (model.iteration - start_iteration) / (time.perf_counter() - start)


def served_phase(page, dashboard, traffic: Traffic, seconds: float) -> dict:
    """Train through the page's Play button for `seconds`; rates seen by the server and the browser."""
    before = dict(iteration=dashboard.model.iteration, refreshes=dashboard.refreshes, frames=dashboard.surface.frames,
                  messages=traffic.messages, bytes=traffic.bytes, points=dashboard.train.traces.buffer.seen)
    page.get_by_role("button", name="Play").click()
    start = time.perf_counter()
    page.wait_for_timeout(seconds * 1000)
    page.get_by_role("button", name="Pause").click()
    while dashboard.worker.playing:
        page.wait_for_timeout(20)
    elapsed = time.perf_counter() - start
    return {"iterations_per_s": (dashboard.model.iteration - before["iteration"]) / elapsed,
            "refreshes_per_s": (dashboard.refreshes - before["refreshes"]) / elapsed,
            "surface_frames_per_s": (dashboard.surface.frames - before["frames"]) / elapsed,
            "messages_per_s": (traffic.messages - before["messages"]) / elapsed,
            "bytes_per_s": (traffic.bytes - before["bytes"]) / elapsed,
            "bytes_per_message": (traffic.bytes - before["bytes"]) / max(traffic.messages - before["messages"], 1),
            "history_rows_per_s": (dashboard.train.traces.buffer.seen - before["points"]) / elapsed}


def soak(page, dashboard, minutes: float) -> dict:
    """Train for `minutes` without pause; memory and buffer sizes before and after."""
    before = resident_mb()
    page.get_by_role("button", name="Play").click()
    page.wait_for_timeout(minutes * 60_000)
    page.get_by_role("button", name="Pause").click()
    while dashboard.worker.playing:
        page.wait_for_timeout(20)
    return {"minutes": minutes, "rss_before_mb": before, "rss_after_mb": resident_mb(),
            "iterations": dashboard.model.iteration, "history_rows_kept": len(dashboard.model.history),
            "trace_points_plotted": dashboard.train.traces.points}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m explorer bench dashboard", description=DESCRIPTION)
    add_common_arguments(parser)
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase (default 15)")
    parser.add_argument("--repeats", type=int, default=3, help="headless/served alternations (default 3)")
    parser.add_argument("--minutes", type=float, default=1.0,
                        help="training time of the memory soak at the end (default 1; the issue asks for 10)")
    args = parser.parse_args(argv)
    command = "python -m explorer bench dashboard" + ("" if argv is None else "".join(f" {a}" for a in argv))

    from playwright.sync_api import sync_playwright

    from explorer.dashboard import serve_in_background
    from explorer.dashboard.app import CHUNK_SECONDS
    from explorer.model import Model

    with pinned_blas(args.threads):
        sessions: list = []
        port = _free_port()
        server = serve_in_background(port, sessions)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1500, "height": 1000})
                traffic = Traffic(page)
                page.goto(f"http://127.0.0.1:{port}/")
                page.get_by_role("button", name="Play").wait_for(timeout=120_000)
                page.wait_for_timeout(1000)
                dashboard = sessions[0]
                headless = Model(**{name: getattr(dashboard.model, name) for name in ("dataset", "n_inducing",
                                                                                      "batch_size", "seed")})
                rows = []
                for repeat in range(args.repeats):
                    alone = headless_rate(headless, args.seconds, CHUNK_SECONDS)
                    served = served_phase(page, dashboard, traffic, args.seconds)
                    rows.append({"repeat": repeat + 1, "headless it/s": alone, "served it/s": served["iterations_per_s"],
                                 "served / headless": served["iterations_per_s"] / alone, **served})
                memory = soak(page, dashboard, args.minutes)
                browser.close()
        finally:
            server.stop()
            server.join()

    median = {key: float(np.median([row[key] for row in rows])) for key in rows[0] if key != "repeat"}
    columns = ["repeat", "headless it/s", "served it/s", "served / headless", "refreshes_per_s",
               "surface_frames_per_s", "messages_per_s", "bytes_per_message", "bytes_per_s"]
    markdown = (
        f"Data set {dashboard.model.dataset} (n = {len(dashboard.model.y_train)} train), default configuration "
        f"(m = {dashboard.model.n_inducing}, s = {dashboard.model.batch_size}, evaluation every "
        f"{dashboard.model.eval_every} iterations). Each repeat: {args.seconds:g} s of a headless Model trained by "
        f"`run(seconds={CHUNK_SECONDS})` calls, then {args.seconds:g} s of the served session trained by its Play "
        "button with a headless Chromium page receiving every update (same process, same machine, BLAS threads "
        f"{args.threads}).\n\n"
        + markdown_table(rows + [{"repeat": "median", **median}], columns)
        + f"\n\n**Served / headless iterations per second: {median['served / headless']:.0%}** (target ≥ 70%). "
        f"Page updates: {median['refreshes_per_s']:.1f} refreshes/s, surface {median['surface_frames_per_s']:.1f}/s, "
        f"{median['messages_per_s']:.1f} websocket messages/s of {median['bytes_per_message'] / 1e3:.1f} kB "
        f"({median['bytes_per_s'] / 1e3:.0f} kB/s).\n\n"
        f"Memory after {memory['minutes']:g} min of training ({memory['iterations']} iterations in all): resident "
        f"{memory['rss_before_mb']:.0f} MB before, {memory['rss_after_mb']:.0f} MB after; history rows kept "
        f"{memory['history_rows_kept']}, live trace points plotted {memory['trace_points_plotted']} (bounded)."
    )
    finish(args, "Dashboard: training inside the served app", command, markdown,
           {"repeats": rows, "median": median, "memory": memory, "seconds": args.seconds})
    return 0
