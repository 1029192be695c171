"""The benchmark grids on a Dask cluster (`explorer.bench.grid`): a two-worker `LocalCluster` gives exactly the serial
results, a task that fails or kills its worker is reported by name while the rest completes, a rerun skips what is
done, and the serial path does not import Dask."""

import json
import operator
import os
import subprocess
import sys
import textwrap
from io import StringIO

import dask
import distributed  # noqa: F401  (its config defaults exist before `dask.config.set` below, which would drop them on exit)
import numpy as np
import pytest

from explorer.__main__ import main as command_line
from explorer.bench import cluster, grid
from explorer.bench.cluster import without_timings


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two single-threaded worker processes (the grid's own), closed after the module. Its
    scheduler gives up on a task after it lost two workers (Dask's default is four: a slower test, the same path)."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), grid.dask_client(workers=2) as client:
        yield client


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    """A small two-class CSV file with a `label` column (a user's own data set, named by its path)."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((240, 3))
    y = (X[:, 0] + X[:, 1] ** 2 - 0.5 + 0.3 * rng.standard_normal(240) > 0).astype(int)
    path = tmp_path_factory.mktemp("data") / "mine.csv"
    rows = ["a,b,c,label"] + [f"{a:.6f},{b:.6f},{c:.6f},{label}" for (a, b, c), label in zip(X, y)]
    path.write_text("\n".join(rows) + "\n")
    return path


def table1_command(csv_file, results, *extra) -> list[str]:
    return [
        "bench",
        "table1",
        "--datasets",
        str(csv_file),
        "--k",
        "4",
        "--folds",
        "2",
        "--methods",
        "xgpc",
        "svgp-adam",
        "epgpc",
        "--m",
        "8",
        "--batch-size",
        "40",
        "--convergence",
        "none",
        "--iterations",
        "30",
        "--seconds",
        "60",
        "--results",
        str(results),
        "--json",
        str(results.with_suffix(".json")),
        *extra,
    ]


def test_a_grid_on_two_workers_gives_the_serial_results_and_a_rerun_reads_them(client, csv_file, tmp_path, capsys):
    assert command_line(table1_command(csv_file, tmp_path / "serial")) == 0
    serial = json.loads((tmp_path / "serial.json").read_text())
    address = client.scheduler.address
    assert command_line(table1_command(csv_file, tmp_path / "dask", "--scheduler", address)) == 0
    first = capsys.readouterr().err
    on_cluster = json.loads((tmp_path / "dask.json").read_text())

    fits = serial["fits"]
    assert len(fits) == 2 * 3 and {f["dataset"] for f in fits} == {str(csv_file)}
    assert all(f["iterations"] == 30 for f in fits)
    assert without_timings(on_cluster["fits"]) == without_timings(fits)  # every number bit for bit, traces included
    assert without_timings(on_cluster["summary"]) == without_timings(serial["summary"])
    assert on_cluster["config"] == serial["config"]
    for fold in ("fold 1/2", "fold 2/2"):  # a progress line per task as it finished, named
        assert f"{csv_file} {fold} epgpc: done in" in first

    # the rerun reads each task's result back instead of fitting again: the wall times too are the first run's
    assert command_line(table1_command(csv_file, tmp_path / "dask", "--scheduler", address)) == 0
    again = capsys.readouterr().err
    assert again.count("done before") == 6 and "done in" not in again
    assert json.loads((tmp_path / "dask.json").read_text())["fits"] == on_cluster["fits"]


def test_a_race_on_the_workers_runs_the_same_trajectories(client, csv_file, tmp_path):
    """A race has a time budget, so runs end at different iterations; up to where both got, every evaluation is the
    same (same split, Z, initial kernel and minibatch stream on the worker)."""
    traces = {}
    for where, extra in (("serial", []), ("dask", ["--scheduler", client.scheduler.address])):
        path = tmp_path / f"{where}.json"
        argv = ["--dataset", str(csv_file), "--folds", "2", "--methods", "xgpc", "svgp-natgrad", "--seconds", "0.3"]
        argv += ["--m", "8", "--batch-size", "40", "--eval-points", "100", "--no-write-md", "--json", str(path)]
        assert command_line(["bench", "race", *argv, *extra]) == 0
        traces[where] = [
            {method: r["trace"] for method, r in fold["methods"].items()}
            for fold in json.loads(path.read_text())["folds"]
        ]
    for serial, on_cluster in zip(traces["serial"], traces["dask"], strict=True):
        for method in ("xgpc", "svgp-natgrad"):
            rows = min(len(serial[method]["iteration"]), len(on_cluster[method]["iteration"]))
            assert rows >= 3
            for column in ("iteration", "test_nll", "test_error", "elbo"):
                assert serial[method][column][:rows] == on_cluster[method][column][:rows], (method, column)


def test_a_failed_task_and_a_dead_worker_are_named_and_the_rest_completes(client, tmp_path):
    tasks = [
        grid.Task(("a", "fold 1", "add"), operator.add, (2, 3)),
        grid.Task(("b", "fold 1", "exits"), os._exit, (7,)),  # kills the worker process running it, every try
        grid.Task(("b", "fold 2", "divides"), operator.truediv, (1, 0)),
        grid.Task(("c", "fold 1", "multiplies"), operator.mul, (4, 5)),
    ]
    log = StringIO()
    with pytest.raises(grid.GridFailed) as failed:
        grid.run_on_cluster(tasks, client, store=tmp_path, log=log)
    failures = dict(failed.value.failures)
    assert set(failures) == {"b fold 1 exits", "b fold 2 divides"}
    assert "worker running it died" in failures["b fold 1 exits"]
    assert failures["b fold 2 divides"].startswith("ZeroDivisionError")
    assert failed.value.done == 2 and "2 of 4 tasks failed" in str(failed.value)
    assert "b fold 1 exits: FAILED" in log.getvalue() and "c fold 1 multiplies: done in" in log.getvalue()

    # the two that finished are kept: a rerun with the failures mended computes only the mended one
    mended = [tasks[0], grid.Task(("b", "fold 1", "exits"), abs, (-7,)), tasks[3]]
    log = StringIO()
    assert grid.run_on_cluster(mended, client, store=tmp_path, log=log) == [5, 7, 20]
    assert log.getvalue().count("done before") == 2 and "b fold 1 exits: done in" in log.getvalue()


def dask_modules_after(script: str) -> tuple[list[str], str]:
    """Run `script` (Python source) in a fresh interpreter with BLAS on one thread: the modules of `dask` and
    `distributed` it imported, and its error output (an AssertionError if it failed)."""
    listing = (
        '\nprint(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in ("dask", "distributed"))))\n'
    )
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys\n" + textwrap.dedent(script) + listing],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_the_serial_path_does_not_import_dask(csv_file, tmp_path):
    modules, log = dask_modules_after(
        f"""
        from explorer.__main__ import main
        code = main({table1_command(csv_file, tmp_path)!r} + ["--folds", "1", "--methods", "xgpc"])
        assert code == 0, code
        """
    )
    assert modules == []
    assert "fold 1/1 xgpc: done in" in log


def test_a_data_set_file_that_is_not_there_is_named(tmp_path):
    missing = tmp_path / "nowhere.csv"
    with pytest.raises(SystemExit, match="nowhere.csv"):
        command_line(table1_command(missing, tmp_path))


@pytest.mark.slow  # two fresh processes and a cluster
def test_bench_cluster_times_the_serial_and_the_cluster_run_and_finds_the_same_numbers(csv_file, tmp_path, capsys):
    """One fold of one method: that every method gives the serial numbers on a cluster is the first test's."""
    study = table1_command(csv_file, tmp_path)[1:-4] + ["--folds", "1", "--methods", "xgpc"]  # not its output
    assert cluster.main(["--workers", "1", "--repeats", "1", "--results", str(tmp_path), *study]) == 0
    payload = json.loads(next(tmp_path.glob("grid-on-a-dask-cluster*.json")).read_text())
    (run,) = payload["runs"]
    assert run["same_results"] is True
    assert run["serial_seconds"] > 0 and run["cluster_seconds"] > 0
    assert run["speedup"] == pytest.approx(run["serial_seconds"] / run["cluster_seconds"])
    assert "| 1 |" in capsys.readouterr().out


def test_a_grid_whose_tasks_fail_on_the_cluster_names_each_and_exits_1(client, tmp_path, capsys):
    unlabelled = tmp_path / "unlabelled.csv"
    unlabelled.write_text("a,b\n1,2\n3,4\n")
    argv = table1_command(unlabelled, tmp_path / "out", "--scheduler", client.scheduler.address)
    argv[argv.index("--methods") + 1 : argv.index("--m")] = ["xgpc", "epgpc"]
    assert command_line(argv) == 1
    err = capsys.readouterr().err
    assert "4 of 4 tasks failed" in err
    for fold in ("fold 1/2", "fold 2/2"):
        for method in ("xgpc", "epgpc"):
            assert f"{unlabelled} {fold} {method}: DataError: " in err
    assert "say which column holds the labels" in err  # the loader's own message, carried back from the worker


def test_a_rerun_after_the_data_file_changed_fits_again(client, csv_file, tmp_path, capsys):
    data = tmp_path / "edited.csv"
    data.write_text(csv_file.read_text())
    argv = table1_command(data, tmp_path / "out", "--scheduler", client.scheduler.address, "--folds", "1")
    argv[argv.index("--methods") + 1 : argv.index("--m")] = ["xgpc"]
    assert command_line(argv) == 0
    before = json.loads((tmp_path / "out.json").read_text())["fits"][0]
    lines = data.read_text().splitlines()
    data.write_text("\n".join(lines[:-40]) + "\n")  # 40 rows fewer: another data set under the same name
    capsys.readouterr()
    assert command_line(argv) == 0
    assert "done before" not in capsys.readouterr().err
    after = json.loads((tmp_path / "out.json").read_text())["fits"][0]
    assert (before["n"], after["n"]) == (240, 200)


def test_bench_multiclass_fits_on_the_workers_as_it_does_serially(client, tmp_path):
    """The multi-class benchmark's grid (`bench multiclass`) on the cluster: its iteration-budgeted fits (one-vs-rest
    X-GPC, scikit-learn's GPC) give the serial numbers."""
    study = ["bench", "multiclass", "--datasets", "iris", "--methods", "ovr-xgpc", "sklearn-gpc", "--k", "3"]
    study += ["--ovr-iterations", "40", "--cost-classes", "3", "--cost-rows", "200", "--m", "10", "--share-datasets"]
    runs = {}
    for name, extra in (("serial", []), ("dask", ["--scheduler", client.scheduler.address])):
        results = tmp_path / name
        assert command_line([*study, "--results", str(results), "--json", f"{results}.json", *extra]) == 0
        runs[name] = json.loads((tmp_path / f"{name}.json").read_text())["records"]
    assert [(r["dataset"], r["method"]) for r in runs["dask"]] == [("iris", "ovr-xgpc"), ("iris", "sklearn-gpc")]
    for serial, on_cluster in zip(runs["serial"], runs["dask"]):
        assert {k: v for k, v in serial.items() if k != "seconds"} == {
            k: v for k, v in on_cluster.items() if k != "seconds"
        }
