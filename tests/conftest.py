"""Shared fixtures: the paper's offline data (`paper_data`), and Debian's Chromium ($XGPC_CHROMIUM, default
/usr/bin/chromium), headless, for the Playwright tests (its own browser download cannot work here)."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

# BLAS on one thread for the whole run, set before numpy or scipy load their OpenBLAS (threadpoolctl can only limit
# libraries already loaded; scipy's loads at the first `import scipy.linalg`, long after this file): on this 2-core
# kind of machine two BLAS threads under load turned a 2 s fit into 180 s. Subprocesses (notebook kernels, a served
# app) inherit it. The served app and the benchmarks pin their own the same way.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"

import pytest  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAPER_DATA = Path(os.environ.get("XGPC_DATA_DIR") or Path(__file__).resolve().parents[2] / "shared" / "data")


@pytest.fixture(scope="session")
def paper_data() -> Path:
    """The offline copies of the paper's sets ($XGPC_DATA_DIR, else ../shared/data beside the checkout). A fresh
    clone has none: the tests that read them skip there, but fail on CI (environment variable CI set), which has them."""
    if (PAPER_DATA / "README.md").is_file():
        return PAPER_DATA
    if os.environ.get("CI"):
        pytest.fail(f"CI must have the paper's offline data beside the checkout; {PAPER_DATA} is missing")
    pytest.skip(f"the paper's offline data are not beside this checkout ({PAPER_DATA}); see data/README.md")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch $XGPC_CHROMIUM (default /usr/bin/chromium), headless. Where there is none the browser tests skip,
    saying so, but fail on CI (environment variable CI set), which has one."""
    from explorer.dashboard import chromium

    problem = chromium.missing()
    if problem and os.environ.get("CI"):
        pytest.fail(f"CI must have a browser for the browser tests: {problem}")
    if problem:
        pytest.skip(problem)
    return {
        **browser_type_launch_args,
        "executable_path": str(chromium.executable()),
        "headless": True,
        "args": chromium.ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1500, "height": 1000}}


@pytest.fixture(scope="session")
def panel_served(tmp_path_factory):
    """`panel serve apps/explorer.py` as a user types it, in its own process, started once for the run (each test
    opens its own page, so its own session): the app's URL. The server's output is in the failure message if it
    exits or never listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "panel", "serve", str(ROOT / "apps" / "explorer.py"), "--port", str(port)]
    command += ["--address", "127.0.0.1", f"--allow-websocket-origin=127.0.0.1:{port}"]
    log = tmp_path_factory.mktemp("panel-serve") / "output.txt"
    with log.open("w") as output:
        server = subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120  # failsafe on a loaded machine, not a claim about speed
        while True:
            assert server.poll() is None, f"panel serve exited: {log.read_text()}"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, f"panel serve did not start: {log.read_text()}"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/explorer"
    finally:
        server.terminate()
        server.wait(timeout=30)


def pytest_collection_finish(session):
    """Once every test module is imported, pin whatever BLAS was loaded before this file (a plugin importing numpy);
    then start the fresh processes whose results selected tests read later (`start_early`)."""
    session.config._blas_limits = threadpool_limits(limits=1)
    start_early(session)


def start_early(session) -> None:
    """A test module with a `start_early(items, lane)` function runs fresh processes (a notebook's kernel, a README
    example's Python) whose results its tests only read: it submits them to `lane` here, at the start of the run,
    and its tests wait for their own. The lane runs one process at a time beside this one, on the core this
    single-threaded test process leaves idle on a 2-core machine (BLAS on one thread in both), so those minutes
    overlap the rest of the suite instead of adding to it. Pending runs are cancelled at the end of the session."""
    from concurrent.futures import ThreadPoolExecutor

    if session.config.option.collectonly:
        return
    modules = {}
    for item in session.items:
        module = getattr(item, "module", None)
        if hasattr(module, "start_early"):
            modules.setdefault(module, []).append(item)
    if modules:
        lane = session.config._early_lane = ThreadPoolExecutor(1, thread_name_prefix="early")
        for module, items in modules.items():
            module.start_early(items, lane)


def pytest_sessionfinish(session):
    lane = getattr(session.config, "_early_lane", None)
    if lane is not None:
        lane.shutdown(wait=True, cancel_futures=True)


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main thread for the rest of
    the session, under which `asyncio.run` fails and Panel schedules async watchers instead of running them."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
