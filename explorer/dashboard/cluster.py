"""The sessions' heavy jobs on a Dask cluster, when the server names one (`xgpc-explorer serve --scheduler ADDRESS`,
or the environment variable `XGPC_SCHEDULER`); without one nothing here imports Dask.

A study run that can go to the cluster has `mirror()`: the attributes its tab reads, as a dict (a few kB to a few
hundred: progress, traces, results — never the data or the sampler's matrices). `on_cluster(run)` is then the
session's worker job in place of `run.chunks()`: the run is sent to the cluster as one task, which drives
`run.chunks()` to its end on a Dask worker and publishes `run.mirror()` to a `distributed.Variable` of its own at
most every `PERIOD` seconds and at the end; each step of the job polls that Variable (at most every `PERIOD`, a
round trip to the scheduler) and copies the news into the session's run, so the tab shows progress and results as it
does for a run at home. Stop cancels the task. A failed task, a worker lost more often than the scheduler retries a
task (Dask's `distributed.scheduler.allowed-failures`: a task on a lost worker is run again from its start on
another) or a lost scheduler ends the job with that error, which the page shows as a notification; the session
carries on. Each session's run is its own task, its own Variable: sessions stay independent. A cancelled task (Stop,
or the server process gone) ends itself at its next step, freeing its Dask worker.

One Dask client per server process, connected on first use (after Tornado has forked the processes).
"""

from __future__ import annotations

import os
import pickle
import threading
import time
import uuid
from collections.abc import Generator

from explorer.dask_worker import run_pinned

ENVIRONMENT_VARIABLE = "XGPC_SCHEDULER"
PERIOD = 0.25  # s: the most often a job on the cluster publishes its progress, and the session polls it
POLL_SLEEP = 0.02  # s: a step of the session's job between two polls waits this long (a chunk's length)

_address: str | None = None
_client = None
_lock = threading.Lock()


def use_scheduler(address: str | None) -> None:
    """Hand the heavy jobs of the sessions of this process (and of the server processes it forks) to the Dask
    scheduler at `address` ("tcp://host:8786"); None: to $XGPC_SCHEDULER if set, else keep them at home."""
    global _address, _client
    with _lock:
        _address, _client = address, None


def scheduler() -> str | None:
    """The scheduler's address the heavy jobs go to, None if none is named."""
    return _address or os.environ.get(ENVIRONMENT_VARIABLE) or None


def client():
    """This process's Dask client of `scheduler()`, connected on first use; raises OSError if none answers."""
    global _client
    with _lock:
        if _client is None:
            from distributed import Client

            _client = Client(scheduler(), set_as_default=False, timeout="10s")
        return _client


def on_cluster(run) -> Generator[None, None, None]:
    """`run.chunks()` driven on the cluster as one task, as a generator the session's worker steps: each step (≈
    POLL_SLEEP, or a poll) copies the task's latest `run.mirror()` into `run`; once the task is done, its final one.
    Raises the task's error (or the lost worker's, or the client's) at the step that sees it; closing the generator
    (the job replaced or the session closed) cancels the task."""
    from distributed import Variable

    dask = client()
    name = f"xgpc-job-{uuid.uuid4().hex}"
    variable = Variable(name, client=dask)
    variable.set((-1, pickle.dumps({})))  # so that a poll before the task's first publication answers at once
    # one BLAS thread per job, as in the server (DESIGN §8), and the worker's allocator as in the server
    future = dask.submit(run_pinned, _drive, (run, name, PERIOD), key=name, pure=False, retries=0)
    seen, polled = -1, 0.0
    try:
        while not future.done():
            if time.monotonic() - polled < PERIOD:
                time.sleep(POLL_SLEEP)
            else:
                polled = time.monotonic()
                seen = _take(run, variable, seen)
            yield
        vars(run).update(pickle.loads(future.result()[0]))
    finally:
        if not future.done():
            future.cancel()
        variable.delete()


def _take(run, variable, seen: int) -> int:
    """Copy the Variable's published mirror into `run` if it is newer than number `seen`; returns the newest."""
    number, packed = variable.get()
    if number > seen:
        vars(run).update(pickle.loads(packed))
    return max(number, seen)


def _drive(run, name: str, period: float) -> bytes:
    """On a Dask worker: run `run.chunks()` to its end, publishing (number, pickled `run.mirror()`) to the Variable
    `name` at most every `period` seconds; returns the final mirror, pickled."""
    from distributed import Variable, get_worker

    worker = get_worker()
    variable, number, due = Variable(name), 0, 0.0
    for _ in run.chunks():
        task = worker.state.tasks.get(name)
        if task is None or task.state == "cancelled":  # Stop, or the session's server gone: Dask cannot interrupt
            break  # a running task, so it ends itself between two steps
        if time.monotonic() >= due:
            variable.set((number, pickle.dumps(run.mirror(), protocol=5)))
            number, due = number + 1, time.monotonic() + period
    return pickle.dumps(run.mirror(), protocol=5)
