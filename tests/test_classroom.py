"""A classroom past one process (issue 23): `xgpc-explorer serve --num-procs 2` serves sessions that share no state
and stops with its first process; a session's MCMC comparison runs on a Dask cluster (a two-worker LocalCluster) and
its result reaches the page, a lost worker is a notification; without a scheduler nothing imports Dask. The sessions
of the forked server live in other processes: they are checked through the pages (text and links)."""

import ast
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import panel as pn
import pytest
from test_browser import TIMEOUT_MS, free_port, open_app, wait_server
from test_serving import wait_until_listening

from explorer import dask_scheduler
from explorer.dashboard import cluster, serve_in_background

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
COUNTER = re.compile(r"^iteration \d+")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def iteration(page) -> int:
    return int(page.get_by_text(COUNTER).first.inner_text().split()[1])


def step_to(page, target: int) -> None:
    page.get_by_role("button", name="Step").click()
    page.get_by_text(re.compile(rf"^iteration {target}\b")).first.wait_for(timeout=TIMEOUT_MS)


def shows_data(page, dataset: str, rows: int) -> bool:
    """Whether the Data tab describes `dataset` with `rows` training points (waits for the tab to be drawn)."""
    page.locator(".bk-tab", has_text="Data").click()
    described = page.get_by_text(re.compile(r"^\w+: \d+ training and \d+ test points")).first
    described.wait_for(timeout=TIMEOUT_MS)
    return described.inner_text().startswith(f"{dataset}: {rows} training")


def test_two_server_processes_serve_sessions_that_share_no_state_and_end_with_the_first(browser):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "explorer", "serve", "--num-procs", "2", "--port", str(port), "--address", "127.0.0.1"],
        cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    forked = []
    contexts = [browser.new_context() for _ in range(2)]
    try:
        url = f"http://127.0.0.1:{port}/explorer"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url, timeout=60).read()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "xgpc-explorer serve did not start"
                time.sleep(0.3)
        forked = children(server.pid)
        assert len(forked) == 2
        links = ("?dataset=moons&n_points=300&seed=3", "?dataset=circles&n_points=500&seed=8")
        pages = []
        for context, link in zip(contexts, links):
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.on("console", lambda message, errors=errors: message.type == "error" and errors.append(message.text))
            page.goto(url + link)
            page.get_by_role("button", name="Step").wait_for(timeout=TIMEOUT_MS)
            page.wait_for_function("() => window.location.search.includes('kernel=')", timeout=TIMEOUT_MS)
            pages.append((page, errors))
        (first, first_errors), (second, second_errors) = pages
        step_to(first, 10)
        assert iteration(second) == 0  # the first page's training moved no other Model
        step_to(second, 10)
        step_to(second, 20)
        assert iteration(first) == 10
        for (page, _), (dataset, seed, rows) in zip(pages, (("moons", "3", 240), ("circles", "8", 400))):
            query = parse_qs(urlparse(page.url).query)
            assert query["dataset"] == [dataset] and query["seed"] == [seed]
            assert shows_data(page, dataset, rows)
        assert first_errors == [] and second_errors == []
    finally:
        for context in contexts:
            context.close()
        server.terminate()  # SIGTERM to the first process only, as `kill` or a service manager sends it
        server.wait(timeout=30)
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in forked) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in forked if alive(pid)]
    for pid in left:
        os.kill(pid, 9)
    assert left == [], "the forked server processes outlived the first"


def test_a_session_made_by_its_websocket_takes_the_stylesheets_from_this_server():
    """With several processes a page's websocket may reach another process than its page, which makes the session
    anew from the websocket alone (as `bokeh.client.pull_session` does here): its stylesheets must still be this
    server's (Panel would otherwise point them at its CDN, out of reach of a class offline)."""
    from bokeh.client import pull_session
    from bokeh.models import ImportedStyleSheet

    def stylesheets(url: str) -> set[str]:
        session = pull_session(url=url)
        urls = {str(m.url) for m in session.document.models if isinstance(m, ImportedStyleSheet)}
        session.close()
        return urls

    port = free_port()
    server = serve_in_background(port)
    try:
        wait_until_listening(f"http://127.0.0.1:{port}/")
        with ThreadPoolExecutor(1) as thread:  # Bokeh's client runs an event loop: not beside Playwright's, if any
            urls = thread.submit(stylesheets, f"http://127.0.0.1:{port}/").result()
    finally:
        server.stop()
        server.join()
        pn.state.reset()
    assert urls and [url for url in urls if "//" in url] == []  # none on another host (the CDN)


def test_after_its_first_page_a_server_garbage_collects_only_what_its_sessions_made():
    """A full garbage collection holds the GIL and so stalls every visitor (Panel runs one on the event loop after
    sessions end). Once a server has served its first page, what it imported is out of the collector's walk: the
    Dashboard class, which every collection walked before, is walked no more, and the walk is far shorter."""
    script = """
import gc, urllib.request
from explorer.dashboard import serve_in_background
from explorer.dashboard.app import Dashboard
from test_browser import free_port
from test_serving import wait_until_listening

def walked():
    objects = gc.get_objects()
    return len(objects), any(o is Dashboard for o in objects)

port = free_port()
server = serve_in_background(port)
wait_until_listening(f"http://127.0.0.1:{port}/")
before = walked()
urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=120).read()
print((before, walked(), gc.get_freeze_count()))
server.stop()
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "tests",
        env={**os.environ, "PYTHONPATH": str(ROOT / "tests")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (before_count, before_dashboard), (after_count, after_dashboard), frozen = ast.literal_eval(
        done.stdout.strip().split("\n")[-1]
    )
    assert before_dashboard and not after_dashboard
    assert frozen >= before_count // 2 and after_count < before_count // 2, (before_count, after_count, frozen)


@pytest.fixture(scope="module")
def on_local_cluster():
    """(url, dashboards): the app served in this process, its heavy jobs on a two-worker LocalCluster whose scheduler
    gives a task no second chance on a lost worker (allowed-failures 0); then the `Client` of the test."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    watcher = Client(local, set_as_default=False)
    cluster.use_scheduler(local.scheduler_address)
    dashboards, port = [], free_port()
    server = serve_in_background(port, dashboards)
    try:
        yield f"http://127.0.0.1:{port}/", dashboards, watcher
    finally:
        server.stop()
        server.join()
        pn.state.reset()
        cluster.client().close()
        cluster.use_scheduler(None)
        watcher.close()
        local.close()


def start_mcmc(page, dashboard, n_train: int, n_samples: int) -> None:
    """Run a small comparison (`n_train` points, 2 chains of 10 + `n_samples` sweeps, 60 test points)."""
    page.locator(".bk-tab", has_text="MCMC").click()
    mcmc = dashboard.mcmc
    settings = ((mcmc.n_train, n_train), (mcmc.n_test, 60), (mcmc.n_samples, n_samples), (mcmc.burn_in, 10))
    for widget, value in settings + ((mcmc.n_chains, 2),):
        widget.value = value
    page.get_by_role("button", name="Run MCMC comparison").click()


def test_an_mcmc_comparison_runs_on_the_cluster_and_its_result_reaches_the_page(on_local_cluster, page):
    url, dashboards, watcher = on_local_cluster
    dashboard, errors = open_app(page, url, dashboards)
    start_mcmc(page, dashboard, 60, 40)
    page.get_by_text("ELBO without augmentation").wait_for(timeout=TIMEOUT_MS)
    assert page.get_by_text(re.compile(r"p\(y=1\) within 0\.\d+ of MCMC")).count() == 2
    run = dashboard.mcmc.run
    assert run.stage == "done" and run.sampler is None  # mirrored from the cluster, not sampled here
    assert run.traces.shape[:2] == (2, 50) and run.latest.sweeps_done == run.latest.total_sweeps == 50
    jobs = watcher.run_on_scheduler(
        lambda dask_scheduler: sorted(
            {entry[0] for entry in dask_scheduler.transition_log if str(entry[0]).startswith("xgpc-job-")}
        )
    )
    assert len(jobs) == 1
    assert errors == []


def test_a_lost_worker_is_a_notification_and_the_session_carries_on(on_local_cluster, page):
    url, dashboards, watcher = on_local_cluster
    dashboard, errors = open_app(page, url, dashboards)
    start_mcmc(page, dashboard, 100, 20000)
    wait_server(page, lambda: dashboard.mcmc.run is not None and dashboard.mcmc.run.traces is not None)  # sampling
    running = watcher.run_on_scheduler(
        lambda dask_scheduler: [
            ts.processing_on.address
            for ts in dask_scheduler.tasks.values()
            if str(ts.key).startswith("xgpc-job-") and ts.processing_on is not None
        ]
    )
    assert len(running) == 1
    (pid,) = watcher.run(os.getpid, workers=running).values()
    os.kill(pid, signal.SIGKILL)  # the worker running the comparison dies (its nanny starts another)
    notice = page.locator(".notyf__message", has_text="Stopped by an error")
    notice.wait_for(timeout=TIMEOUT_MS)
    assert "KilledWorker" in notice.inner_text()
    page.locator(".bk-tab", has_text="Train").click()
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    assert [e for e in errors if "Stopped by an error" not in e] == []


def test_without_a_scheduler_the_app_imports_no_dask():
    """The console command, a session running its MCMC comparison at home and a session's animation made at home
    (issue 23) import neither dask nor distributed. One process for both: each is checked as soon as it is done."""
    script = """
import asyncio, sys, time
import explorer.__main__, explorer.dashboard.serve
from explorer.dashboard.app import Dashboard
from explorer.dashboard import train
from explorer.model import Model

def dask_modules():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed"))

dashboard = Dashboard()
dashboard.mcmc.n_train.value, dashboard.mcmc.n_samples.value, dashboard.mcmc.burn_in.value = 40, 20, 5
dashboard.start_study(dashboard.mcmc)
deadline = time.monotonic() + 60
while dashboard.mcmc.run.stage != "done" and time.monotonic() < deadline:
    time.sleep(0.1)
dashboard.close()
print(dashboard.mcmc.run.stage, dask_modules())
train.ANIMATION_FRAMES, train.ANIMATION_SIZE = 2, dict(width=320, height=240, dpi=40, resolution=12, fps=2)
dashboard = Dashboard(Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50))
dashboard.train.animation_iterations.value = 20
gif = asyncio.run(dashboard.train.animation_file_bytes()).getvalue()
dashboard.close()
print(gif[:6].decode(), dask_modules())
"""
    env = {key: value for key, value in os.environ.items() if key != dask_scheduler.ENVIRONMENT_VARIABLE}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-3:] == ["done []", "GIF89a []", ""], done.stdout
