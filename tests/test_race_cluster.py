"""Races on a Dask cluster (issue 23, a classroom past one process): the Race tab reads only what a race mirrors
(`RaceRun.mirror`), so a race run on a two-worker LocalCluster shows as one at home — the same traces (rows at the
same iterations with the same test NLL and error: the fits stop by time, so up to where both got) and a verdict on
the same racers — while its work happens in a worker's process, not the server's; the Train tab's uploaded data
travel with the run, a named set is read by the worker from the data directory; Stop cancels the task."""

import os
import pickle
import resource
import signal
import time

import numpy as np
import pytest
from test_browser import TIMEOUT_MS, open_app, wait_server
from test_classroom import on_local_cluster  # noqa: F401  (the fixture: a served app, its jobs on a LocalCluster)

from explorer.dashboard import cluster
from explorer.dashboard.race import TRAIN_DATA, RaceRun, RaceTab
from explorer.data.datasets import DataError
from explorer.model import Model
from explorer.studies.race import COLUMNS, judge

RACERS = ["xgpc", "svgp-adam"]


def cpu_seconds() -> float:
    """CPU time of this process so far (every thread: the served app's event loop, its sessions' workers)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def workers_cpu(watcher) -> float:
    """CPU time of the cluster's worker processes so far, summed."""
    return sum(watcher.run(time.process_time).values())


def uploaded(rows: int = 3000, features: int = 10) -> Model:
    """A Train tab's model on uploaded ("custom") data: two noisy classes split by a plane."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(rows, features))
    y = (X[:, 0] + X[:, 1] + 0.8 * rng.normal(size=rows) > 0).astype(int)
    model = Model(dataset="moons", n_points=100, n_inducing=12, batch_size=64, seed=2)
    model.set_data(X, y, name="custom")
    return model


def at_home(run: RaceRun) -> float:
    """Run the race in this process; returns the CPU seconds it took here."""
    before = cpu_seconds()
    for _ in run.chunks():
        pass
    return cpu_seconds() - before


def on_the_cluster(run: RaceRun) -> float:
    """Run the race as the dashboard's job on the cluster (`cluster.on_cluster`); returns the CPU seconds it took
    here."""
    before = cpu_seconds()
    for _ in cluster.on_cluster(run):
        pass
    return cpu_seconds() - before


def assert_same_traces(home: RaceRun, remote: RaceRun) -> None:
    """Each racer's rows at the same iterations with the same test NLL and error, up to where both got."""
    for method in home.methods:
        a, b = home.traces[method], remote.traces[method]
        common = min(len(a["iteration"]), len(b["iteration"]))
        assert common >= 3
        for column in ("iteration", "test_nll", "test_error"):
            np.testing.assert_array_equal(a[column][:common], b[column][:common], err_msg=f"{method} {column}")


def columns(run: RaceRun) -> dict:
    return {m: {c: np.asarray(trace[c]) for c in COLUMNS} for m, trace in run.traces.items()}


def test_a_run_updated_from_a_mirror_shows_as_the_run_at_home():
    """The tab draws, judges and tabulates a race from its mirror alone: a run that only received the mirror (as a
    session's run on the cluster does) shows exactly what the run that raced does; the traces are the racers' own
    histories; the mirror carries no data (far smaller than the uploaded data the run holds)."""
    model = uploaded()
    home_tab, mirrored_tab = RaceTab(RACERS), RaceTab(RACERS)
    for tab in (home_tab, mirrored_tab):
        tab.dataset.value, tab.budget.value = TRAIN_DATA, 0.3
        tab.new_run(model)
    home = home_tab.run
    steps = 0
    for _ in home.chunks():
        steps += 1
        if steps % 7 == 0:  # the tabs read mid-race too, as the periodic refresh does
            vars(mirrored_tab.run).update(pickle.loads(pickle.dumps(home.mirror())))
            for tab in (home_tab, mirrored_tab):
                tab.render(tab.collect(), running=True)
    vars(mirrored_tab.run).update(pickle.loads(pickle.dumps(home.mirror())))
    for tab in (home_tab, mirrored_tab):
        tab.render(tab.collect(), running=False)
    assert home.finished and mirrored_tab.run.finished and mirrored_tab.run.models == {}
    for method, racer in home.models.items():
        for column in COLUMNS:
            np.testing.assert_array_equal(home.traces[method][column], racer.history.column(column))
            np.testing.assert_array_equal(home_tab.sources[method].data[column], racer.history.column(column))
            np.testing.assert_array_equal(mirrored_tab.sources[method].data[column], racer.history.column(column))
    shown = [(tab.status.value, tab.verdict.object, tab.table.object) for tab in (home_tab, mirrored_tab)]
    assert shown[0] == shown[1] and shown[0][0].startswith("Race finished")
    assert "| X-GPC |" in shown[0][2] and "| SVGP (Adam) |" in shown[0][2]
    data_bytes = home.custom[0].nbytes + home.custom[1].nbytes
    assert len(pickle.dumps(home.mirror())) < data_bytes / 20 < len(pickle.dumps(mirrored_tab.run)) / 20


@pytest.mark.browser  # (beside the served app of the fixture: browser tests run last)
def test_a_race_on_the_cluster_gives_the_traces_and_verdict_of_the_race_at_home(on_local_cluster):  # noqa: F811
    """A race on uploaded data (which travel inside the run) on a two-worker LocalCluster: the same rows as at home,
    a verdict on the same racers, every racer trained its budget — and the training happened in the worker's
    process: no racer was built here, the workers spent about the CPU time the race at home took here, and this
    process (with the LocalCluster's scheduler in it) a fraction of that."""
    watcher = on_local_cluster[2]
    model = uploaded()
    home, remote = (RaceRun(model, RACERS, 1.0, lengthscale_sqrt_d=True) for _ in range(2))
    home_cpu = at_home(home)
    before = workers_cpu(watcher)
    remote_cpu = on_the_cluster(remote)
    worked = workers_cpu(watcher) - before
    assert remote.finished and remote.models == {}  # mirrored here, raced elsewhere
    assert_same_traces(home, remote)
    assert all(remote.trained[m] >= 1.0 for m in RACERS)
    verdicts = [judge(columns(run), budget=1.0, classes=2) for run in (home, remote)]
    assert [[s.entrant for s in v.standings] for v in verdicts] == [RACERS, RACERS]
    assert all(v.finished and v.words() for v in verdicts)
    assert remote_cpu < 0.5 * worked and worked > 0.5 * home_cpu, (remote_cpu, worked, home_cpu)


@pytest.mark.browser
def test_the_worker_reads_a_named_set_from_the_data_directory_and_a_damaged_file_is_the_jobs_error(
    on_local_cluster,  # noqa: F811
    paper_data,
    tmp_path,
):
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "banana.npz").write_bytes((paper_data / "banana.npz").read_bytes())
    model = Model(data_dir=str(tmp_path / "good"), dataset="moons", n_points=100, n_inducing=10, batch_size=50)
    home, remote = (
        RaceRun(model, RACERS, 0.5, lengthscale_sqrt_d=True, settings={"dataset": "banana"}) for _ in range(2)
    )
    assert len(pickle.dumps(remote)) < 50_000  # the run names the set; the worker reads its file
    at_home(home)
    on_the_cluster(remote)
    assert remote.finished
    assert_same_traces(home, remote)
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "banana.npz").write_bytes((paper_data / "banana.npz").read_bytes()[:20_000])
    model.data_dir = str(tmp_path / "damaged")
    damaged = RaceRun(model, RACERS, 0.5, settings={"dataset": "banana"})
    with pytest.raises(DataError, match="banana.npz"):
        on_the_cluster(damaged)
    assert not damaged.finished


def jobs_on_workers(watcher, executing: bool = False) -> dict[str, str]:
    """The keys of the dashboard's jobs the cluster's workers hold (`executing`: only those running now), each with
    its worker's address."""
    held = watcher.run(
        lambda dask_worker, executing=executing: [
            str(key)
            for key, task in dask_worker.state.tasks.items()
            if str(key).startswith("xgpc-job-") and (task.state == "executing" or not executing)
        ]
    )
    return {key: address for address, keys in held.items() for key in keys}


def start_race(page, dashboard, budget: float) -> None:
    page.locator(".bk-tab", has_text="Race").click()
    dashboard.race.dataset.value = TRAIN_DATA
    dashboard.race.budget.value = budget
    page.get_by_role("button", name="Start race").click()


@pytest.mark.browser
def test_a_served_race_on_the_cluster_fills_its_curves_and_verdict_while_the_server_stays_idle(
    on_local_cluster,  # noqa: F811
    page,
):
    url, dashboards, watcher = on_local_cluster
    dashboard, errors = open_app(page, url, dashboards)
    before, workers_before = cpu_seconds(), workers_cpu(watcher)
    start_race(page, dashboard, 1.5)
    wait_server(page, lambda: dashboard.race.run is not None and jobs_on_workers(watcher, executing=True))
    page.get_by_text("Race finished").wait_for(timeout=TIMEOUT_MS)
    served_cpu, worked = cpu_seconds() - before, workers_cpu(watcher) - workers_before
    run = dashboard.race.run
    assert run.finished and run.models == {}  # no racer was built in the server's process
    trained = sum(run.trained.values())
    assert len(run.trained) == len(run.methods) and trained >= 1.5 * len(run.methods)
    for method in run.methods:
        assert len(dashboard.race.sources[method].data["seconds"]) == len(run.traces[method]["seconds"]) >= 2
    verdict = judge(columns(run), budget=1.5, classes=run.classes)
    assert dashboard.race.verdict.object == verdict.words() != ""
    page.get_by_text("reached the band").first.wait_for(timeout=TIMEOUT_MS)  # the table is on the page
    # the server drew the race (this process: the app, its session, the LocalCluster's scheduler and the test's
    # browser driver) with a fraction of the CPU time the race took on the cluster's workers
    assert served_cpu < 0.5 * worked, (served_cpu, worked)
    assert errors == []


@pytest.mark.browser
def test_stop_cancels_a_race_on_the_cluster_and_frees_its_worker(on_local_cluster, page):  # noqa: F811
    url, dashboards, watcher = on_local_cluster
    dashboard, errors = open_app(page, url, dashboards)
    start_race(page, dashboard, 300.0)
    wait_server(page, lambda: dashboard.race.run is not None and sum(dashboard.race.run.trained.values()) > 0.5)
    (race,) = jobs_on_workers(watcher, executing=True)
    page.get_by_role("button", name="Stop").click()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while race in jobs_on_workers(watcher):
        assert time.monotonic() < deadline, "the cancelled race kept its worker"
        page.wait_for_timeout(200)
    page.get_by_text("Race stopped").wait_for(timeout=TIMEOUT_MS)
    assert not dashboard.race.run.finished and sum(dashboard.race.run.trained.values()) < 300.0
    assert errors == []


@pytest.mark.browser  # last: its worker is killed (the nanny starts another)
def test_a_race_that_loses_its_worker_is_a_notification_and_the_session_carries_on(on_local_cluster, page):  # noqa: F811
    url, dashboards, watcher = on_local_cluster
    dashboard, errors = open_app(page, url, dashboards)
    start_race(page, dashboard, 300.0)
    wait_server(page, lambda: dashboard.race.run is not None and sum(dashboard.race.run.trained.values()) > 0.5)
    ((race, address),) = jobs_on_workers(watcher, executing=True).items()
    (pid,) = watcher.run(os.getpid, workers=[address]).values()
    os.kill(pid, signal.SIGKILL)
    notice = page.locator(".notyf__message", has_text="Stopped by an error")
    notice.wait_for(timeout=TIMEOUT_MS)
    assert "KilledWorker" in notice.inner_text()
    assert not dashboard.race.run.finished
    page.locator(".bk-tab", has_text="Train").click()
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    assert [e for e in errors if "Stopped by an error" not in e] == []
