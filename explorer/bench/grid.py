"""A benchmark's grid of independent fits, run one after another in this process or as tasks on a Dask cluster
(`--workers N`, `--scheduler ADDRESS`); what a user sees — progress lines, failures named, finished tasks kept for a
rerun, the same numbers as the serial run for a fixed budget — is README.md's "Grids on a cluster".

A study on the grid (as `bench table1`, `race`, `inducing`, `multiclass`): its unit of work is a module-level
function of plain, picklable arguments that loads its own data (`protocol.shared_dataset` or `protocol.task_split`,
each read once per worker) and returns a picklable record; its parser calls `add_arguments`; its `main` lists
`Task(key, function, args, units, depends_on=(protocol.file_version(…),))` for every unit, takes `run(tasks, args)`
(one result per task, in order) and summarises them for `common.finish` as a serial study does.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import pickle
import sys
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from threadpoolctl import threadpool_limits

from explorer.bench.common import results_stem, usage_type
from explorer.console import whole_number
from explorer.dask_scheduler import CHECK_SECONDS, check_scheduler
from explorer.dask_worker import run_pinned

STORE = "tasks"  # the folder inside --results that keeps finished tasks' results


@dataclass(frozen=True)
class Task:
    """One unit of a grid: `key` names it (e.g. ("a9a", "fold 2", "xgpc")), `function(*args)` computes its result,
    `units` is its expected share of the work (e.g. its seconds of training) for the time-left estimate, `depends_on`
    what else its result depends on (e.g. its data file's `protocol.file_version`: an edited file is not a done
    task)."""

    key: tuple
    function: Callable
    args: tuple = ()
    units: float = 1.0
    depends_on: tuple = ()

    @property
    def name(self) -> str:
        """The task's name in progress lines and failure reports: its key's parts separated by spaces."""
        return " ".join(str(part) for part in self.key)

    @property
    def digest(self) -> str:
        """A digest of the function, its arguments and what it depends on: a rerun with other settings or data
        does not reuse a result."""
        identity = (self.function.__module__, self.function.__qualname__, self.args, self.depends_on)
        return hashlib.sha256(pickle.dumps(identity, protocol=4)).hexdigest()[:16]

    def file_name(self) -> str:
        """The file that keeps the task's result: its name and digest."""
        return f"{results_stem(self.name)}-{self.digest}.pickle"


class GridFailed(Exception):
    """Some tasks of a grid failed or were lost: `failures` lists (task name, error) pairs, `done` counts the tasks
    that finished (kept in `store` when there is one)."""

    def __init__(self, failures: list[tuple[str, str]], done: int, store: Path | None):
        self.failures, self.done, self.store = failures, done, store
        kept = f"; the {done} finished are kept in {store}, a rerun runs only the rest" if store is not None else ""
        super().__init__(
            f"{len(failures)} of {len(failures) + done} tasks failed: "
            + "; ".join(f"{name}: {error}" for name, error in failures)
            + kept
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--scheduler ADDRESS or --workers N: run the grid on a Dask cluster."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        type=usage_type(check_scheduler, "scheduler"),  # the address once a scheduler answered there
        metavar="ADDRESS",
        help="run the benchmark's tasks (a grid's fits; bench scale's test scoring) on this running dask.distributed "
        f"scheduler (e.g. tcp://host:8786; checked at start: it must answer within {CHECK_SECONDS:g} s)",
    )
    where.add_argument(
        "--workers",
        type=whole_number(1),
        metavar="N",
        help="run the benchmark's tasks (a grid's fits; bench scale's test scoring) on a local Dask cluster of N "
        "single-threaded worker processes",
    )


def run(tasks: Sequence[Task], args: argparse.Namespace, log=None) -> list:
    """The results of `tasks`, in their order: computed here one after another, or on the Dask cluster that
    `args.scheduler` / `args.workers` name (each task with BLAS pinned to `args.threads`; finished results kept in
    `args.results`/tasks unless `args.no_write_md`). A line on `log` (default stderr) as each task finishes.
    Raises `GridFailed` after the others finished when a task on a cluster failed or was lost."""
    log = log if log is not None else sys.stderr
    threads = getattr(args, "threads", 1)
    if getattr(args, "scheduler", None) is None and getattr(args, "workers", None) is None:
        report, results = _Report(tasks, log), []
        with threadpool_limits(limits=threads):  # here, in order (a failure raises)
            for task in tasks:
                start = time.perf_counter()
                results.append(task.function(*task.args))
                report.finished(task, time.perf_counter() - start)
        return results
    store = None if getattr(args, "no_write_md", False) else Path(args.results) / STORE
    with dask_client(args.scheduler, args.workers) as client:
        print(f"grid of {len(tasks)} tasks on {client.dashboard_link or client.scheduler.address}", file=log)
        return run_on_cluster(tasks, client, store=store, threads=threads, log=log)


def run_on_cluster(tasks: Sequence[Task], client, *, store: Path | None = None, threads: int = 1, log=None) -> list:
    """Each task's result, computed as a task on the Dask `client`'s cluster with BLAS pinned to `threads`, reported
    on `log` as it finishes. With a `store` folder a task whose result is there is not run again and each finished
    result is written there. Raises `GridFailed` (after every task ended) when tasks failed or were lost."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    log = log if log is not None else sys.stderr
    report = _Report(tasks, log)
    results: dict[int, object] = {}
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
        for index, task in enumerate(tasks):
            path = store / task.file_name()
            if path.exists():
                results[index] = pickle.loads(path.read_bytes())
                report.skipped(task, path)
    waiting = deque(index for index in range(len(tasks)) if index not in results)
    running: dict = {}  # future → task index
    finished = as_completed()

    def submit_while_threads_are_free() -> None:
        # as many tasks in flight as the cluster has threads: none waits on a worker behind another, so a worker
        # that dies takes only the task it was running with it (Dask retries that one on another worker)
        free = max(sum(client.nthreads().values()), 1) - len(running)
        for _ in range(min(free, len(waiting))):
            index = waiting.popleft()
            key = f"{tasks[index].name} {uuid.uuid4().hex[:8]}"
            future = client.submit(run_pinned, tasks[index].function, tasks[index].args, threads, key=key, pure=False)
            running[future] = index
            finished.add(future)

    submit_while_threads_are_free()
    failures = []
    for future in finished:
        index = running.pop(future)
        task = tasks[index]
        try:
            result, seconds = future.result()
        except Exception as err:  # the task raised, or its worker died: report it, run the rest
            died = "the worker running it died (KilledWorker: the scheduler gave up after losing it on every try)"
            failures.append((task.name, died if isinstance(err, KilledWorker) else f"{type(err).__name__}: {err}"))
            report.failed(task, failures[-1][1])
        else:
            results[index] = result
            if store is not None:
                partial = store / (task.file_name() + ".partial")  # renamed once whole: a killed run leaves no half
                partial.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
                partial.replace(store / task.file_name())
            report.finished(task, seconds)
        future.release()
        submit_while_threads_are_free()
    if failures:
        raise GridFailed(failures, len(results), store)
    return [results[index] for index in range(len(tasks))]


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """A `distributed.Client` of the scheduler at `scheduler`, or of a `LocalCluster` of `workers` worker processes
    with one thread each (Dask starts them with OMP/MKL/OPENBLAS_NUM_THREADS=1), closed on leaving."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler) as client:
            yield client
        return
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as client,
    ):
        yield client


class _Report:
    """Progress lines as tasks finish: how many of how many, the task, and the time left estimated from the work
    units done (`Task.units`)."""

    def __init__(self, tasks: Sequence[Task], log):
        self.total, self.count = len(tasks), 0
        self.units, self.done_units = max(sum(task.units for task in tasks), 1e-12), 0.0
        self.log, self.start = log, time.perf_counter()

    def _line(self, task: Task, what: str) -> None:
        self.count += 1
        self.done_units += task.units
        elapsed = time.perf_counter() - self.start
        fraction = min(self.done_units / self.units, 1.0)
        left = f", about {elapsed * (1 - fraction) / fraction:.0f} s left" if 0 < fraction < 1 else ""
        print(
            f"[{self.count}/{self.total} tasks, {100 * fraction:.0f}%] {task.name}: {what} "
            f"(elapsed {elapsed:.0f} s{left})",
            file=self.log,
        )
        self.log.flush()

    def finished(self, task: Task, seconds: float) -> None:
        self._line(task, f"done in {seconds:.1f} s")

    def skipped(self, task: Task, path: Path) -> None:
        self.units = max(self.units - task.units, 1e-12)  # no work left in it: out of the time-left estimate
        self.count += 1
        print(f"[{self.count}/{self.total} tasks] {task.name}: done before, read from {path}", file=self.log)

    def failed(self, task: Task, error: str) -> None:
        self._line(task, f"FAILED: {error}")
