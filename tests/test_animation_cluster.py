"""The Train tab's animation on a Dask cluster (issue 23, a classroom past one process): with a scheduler named, the
GIF is made by a worker of a two-worker LocalCluster, the same as at home, with its progress shown in the session and
the session's model untouched (a model copy sent pickled trains on bit for bit as at home, for every method); a lost
worker is the tab's "could not be made" message and the session carries on; a page downloads the GIF and steps
meanwhile.
The one-shot jobs underneath (`cluster.call_on_cluster`, `cluster.wait`): progress reaches the session, the work runs
in a worker process, its error is raised in the session, and a session that stops waiting cancels the task. Without a
scheduler the animation is made at home without importing Dask: in test_classroom's no-Dask test (one process for
the app's paths)."""

import asyncio
import io
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence
from test_browser import TIMEOUT_MS, open_app, served  # noqa: F401 (served: the app served in this process)

from explorer.dashboard import Dashboard, cluster, train
from explorer.methods import METHODS
from explorer.model import Model
from explorer.views.export import run_copy

ROOT = Path(__file__).resolve().parents[1]
SMALL = dict(width=320, height=240, dpi=40, resolution=12, fps=2)


@pytest.fixture(scope="module")
def watcher():
    """The test's own `Client` of a two-worker LocalCluster to which this process hands its heavy jobs; the scheduler
    gives a task no second chance on a lost worker (allowed-failures 0). Each worker starts importing what the
    animation's job needs at once, not waited for: meanwhile the first test makes its animation here."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(local, set_as_default=False)
    warming = [  # held until the end: a released future's task may be cancelled
        client.submit(exec, "import explorer.dashboard.train", {}, workers=[address], pure=False)
        for address in client.scheduler_info()["workers"]
    ]
    cluster.use_scheduler(local.scheduler_address)
    try:
        yield client
    finally:
        del warming
        cluster.client().close()
        cluster.use_scheduler(None)
        client.close()
        local.close()


@pytest.fixture
def dashboard(monkeypatch):
    """A session's Dashboard after one Step (10 iterations), whose animations are small: a frame every 10
    iterations of a 20-iteration animation, 320 × 240 px."""
    monkeypatch.setattr(train, "ANIMATION_FRAMES", 2)
    monkeypatch.setattr(train, "ANIMATION_SIZE", SMALL)
    board = Dashboard(Model(dataset="moons", n_points=200, n_inducing=15, batch_size=50, eval_every=10))
    board.step()
    board.train.animation_iterations.value = 20
    yield board
    board.close()


def frames(gif: bytes) -> list[np.ndarray]:
    return [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]


def state(model) -> tuple:
    """What an animation must not change in the session's model: its iteration, history and variational mean μ."""
    return model.iteration, model.history.total, model.engine.mu.copy()


def jobs_running(watcher) -> dict[str, str]:
    """key → worker address of the sessions' jobs the scheduler has processing now."""
    return watcher.run_on_scheduler(
        lambda dask_scheduler: {
            str(ts.key): ts.processing_on.address
            for ts in dask_scheduler.tasks.values()
            if str(ts.key).startswith("xgpc-job-") and ts.processing_on is not None
        }
    )


def test_the_animation_is_made_on_a_worker_as_at_home_with_its_progress_shown_here(watcher, dashboard):
    from distributed import get_task_stream

    tab, model = dashboard.train, dashboard.model
    before = state(model)
    cluster.use_scheduler(None)  # for a moment: the same animation made at home
    try:
        at_home = asyncio.run(tab.animation_file_bytes()).getvalue()
    finally:
        cluster.use_scheduler(watcher.scheduler.address)
    shown = []
    tab.export_status.param.watch(lambda event: shown.append(event.new), "value")
    with get_task_stream(client=watcher) as stream:
        gif = asyncio.run(tab.animation_file_bytes()).getvalue()
    on_worker = [task for task in stream.data if str(task["key"]).startswith("xgpc-job-")]
    assert len(on_worker) == 1 and on_worker[0]["worker"] in watcher.scheduler_info()["workers"]
    assert Image.open(io.BytesIO(gif)).size == (320, 240)
    made, expected = frames(gif), frames(at_home)
    assert len(made) == 3 and all(np.array_equal(a, b) for a, b in zip(made, expected))  # now, after 10 and 20
    # the worker's progress (three snapshots, then three frames) reached the bar; the session's own start is 0/1
    stages = {message.split()[1] for message in shown if message.startswith("Animation: ") and message.endswith("/3")}
    assert stages == {"training", "drawing"}
    assert shown[-1] == "Animation of iterations 10–30 ready (0.0 MB)."
    assert not tab.export_progress.visible and not tab.animation_file.disabled
    after = state(model)
    assert after[:2] == before[:2] and np.array_equal(after[2], before[2])


@pytest.mark.browser
def test_a_page_downloads_the_animation_made_on_the_cluster_and_steps_meanwhile(watcher, served, page, monkeypatch):
    from distributed import get_task_stream

    monkeypatch.setattr(train, "ANIMATION_FRAMES", 4)
    monkeypatch.setattr(train, "ANIMATION_SIZE", SMALL)
    dashboard, errors = open_app(page, *served)
    dashboard.train.animation_iterations.value = 200  # a frame every 50 iterations: seconds on the worker
    with get_task_stream(client=watcher) as stream, page.expect_download(timeout=TIMEOUT_MS) as download:
        page.get_by_role("button", name="Animation (GIF)").click()
        page.get_by_text("Animation: training").wait_for(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Step").click()  # the session answers while its animation is made
        page.get_by_text("iteration 10").first.wait_for(timeout=TIMEOUT_MS)
        assert dashboard.train.animation_file.disabled  # still being made
    gif = download.value.path().read_bytes()
    assert download.value.suggested_filename == "xgpc-training.gif" and len(frames(gif)) == 5
    assert [task["key"] for task in stream.data if str(task["key"]).startswith("xgpc-job-")] != []
    page.get_by_text("Animation of iterations 0–200 ready").wait_for(timeout=TIMEOUT_MS)
    assert dashboard.model.iteration == 10 and errors == []


def test_a_lost_worker_is_the_tabs_message_and_the_session_carries_on(watcher, dashboard):
    from distributed import KilledWorker

    tab, model = dashboard.train, dashboard.model
    tab.animation_iterations.value = 2000  # 200 frames of a long run: time to find its worker and kill it
    before = state(model)
    with ThreadPoolExecutor(1) as thread:  # the session's event loop, in its own thread
        making = thread.submit(asyncio.run, tab.animation_file_bytes())
        deadline = time.monotonic() + 60
        while not (running := jobs_running(watcher)):
            assert time.monotonic() < deadline and not making.done(), "the animation never reached a worker"
            time.sleep(0.1)
        (pid,) = watcher.run(os.getpid, workers=list(running.values())).values()
        os.kill(pid, signal.SIGKILL)  # its nanny starts another
        with pytest.raises(KilledWorker):
            making.result(timeout=60)
    assert tab.export_status.value.startswith("The animation could not be made: KilledWorker")
    assert not tab.export_progress.visible and not tab.animation_file.disabled
    after = state(model)
    assert after[:2] == before[:2] and np.array_equal(after[2], before[2])
    tab.animation_iterations.value = 20
    assert len(frames(asyncio.run(tab.animation_file_bytes()).getvalue())) == 3  # the next click works
    dashboard.step()
    assert model.iteration == 20


@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize("dataset", ["moons", "blobs"])
def test_a_model_copy_sent_pickled_to_a_worker_trains_on_as_the_copy_at_home(method, dataset):
    model = Model(dataset=dataset, n_points=200, method=method, n_inducing=10, batch_size=50)
    model.step(5)
    at_home = run_copy(model)
    sent = pickle.loads(pickle.dumps(at_home, protocol=5))
    at_home.step(10)
    sent.step(10)
    assert sent.iteration == at_home.iteration == 15
    assert np.array_equal(sent.predict_proba(sent.X_test), at_home.predict_proba(at_home.X_test))
    nll = at_home.history.column("test_nll")
    assert len(nll) >= 2 and np.array_equal(sent.history.column("test_nll"), nll)


def test_progress_reaches_the_session_and_the_function_runs_in_a_worker_process(watcher):
    def staged(pause: float, progress) -> int:
        for done, stage in enumerate(("reading", "writing"), start=1):
            progress(stage, done, 2)
            time.sleep(pause)  # longer than two polls: the session sees each stage
        return os.getpid()

    seen = []
    pid = cluster.wait(cluster.call_on_cluster(staged, (4 * cluster.PERIOD,), lambda *news: seen.append(news)))
    assert seen == [("reading", 1, 2), ("writing", 2, 2)]
    assert pid != os.getpid() and pid in watcher.run(os.getpid).values()


def test_an_error_on_the_worker_is_raised_in_the_session(watcher):
    def refuse(value: int, progress) -> None:
        progress("checking", 0, 1)
        raise ValueError(f"value {value} is out of range")

    with pytest.raises(ValueError, match="value 7 is out of range"):
        cluster.wait(cluster.call_on_cluster(refuse, (7,), lambda *news: None))
    assert jobs_running(watcher) == {}


def test_a_session_that_stops_waiting_cancels_its_task_which_frees_its_worker(watcher):
    def endless(progress) -> None:
        for done in range(100_000):
            progress("waiting", done, 100_000)
            time.sleep(0.05)

    stop, seen = threading.Event(), []
    job = cluster.call_on_cluster(endless, (), lambda *news: (seen.append(news), len(seen) == 2 and stop.set()))
    with pytest.raises(cluster.Cancelled):
        cluster.wait(job, stop)
    deadline = time.monotonic() + 10
    busy = None
    while time.monotonic() < deadline:  # the task ends itself at its next progress call
        busy = watcher.run(lambda dask_worker: len(dask_worker.state.executing))
        if not any(busy.values()) and jobs_running(watcher) == {}:
            break
        time.sleep(0.1)
    assert not any(busy.values())
