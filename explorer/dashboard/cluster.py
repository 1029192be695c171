"""The sessions' heavy jobs on a Dask cluster, when the server names one (`xgpc-explorer serve --scheduler ADDRESS`,
or $XGPC_SCHEDULER; without one nothing here imports Dask; what it gives a class: README, "A class past one process").

A study run that can go to the cluster has `mirror()`: the attributes its tab reads, as a dict (progress, traces,
results — never the data or the sampler's matrices). `on_cluster(run)` is then the session's worker job in place of
`run.chunks()`: the run is one task, its own Variable (sessions stay independent), whose `run.mirror()` reaches the
session's run at most every `PERIOD` seconds. A one-shot job with progress (the Train tab's animation) goes through
`call_on_cluster`. Stop cancels the task, which ends itself at its next step; a failed task, a worker lost more often
than Dask retries (`distributed.scheduler.allowed-failures`) or a lost scheduler ends the job with its error, which
the page shows. One Dask client per server process, connected on first use (after Tornado has forked the processes).
"""

from __future__ import annotations

import pickle
import threading
import time
import uuid
from collections.abc import Callable, Generator

from explorer.dask_scheduler import CHECK_SECONDS, check_scheduler, named_scheduler
from explorer.dask_worker import run_pinned

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
    named = named_scheduler(_address)
    return None if named is None else named[0]


def check_at_start() -> str | None:
    """The scheduler's address (`scheduler()`) once a Dask scheduler answered there, None if none is named; at a
    server's start, so that a bad address is one line then, not an error when a visitor starts a job. Raises
    `SchedulerError` naming the address, where it was given (--scheduler or $XGPC_SCHEDULER) and what failed."""
    named = named_scheduler(_address)
    if named is None:
        return None
    address, named_by = named
    return check_scheduler(address, named_by=named_by)


def client():
    """This process's Dask client of `scheduler()`, connected on first use (again if it was closed); raises
    `SchedulerError` if no scheduler answers there."""
    global _client
    with _lock:
        if _client is None or _client.status in ("closing", "closed"):
            from distributed import Client

            address = check_at_start()
            _client = Client(address, set_as_default=False, timeout=f"{CHECK_SECONDS:g}s")
        return _client


def on_cluster(run) -> Generator[None, None, None]:
    """`run.chunks()` driven on the cluster as one task, as a generator the session's worker steps (`_job`): each
    poll copies the task's latest `run.mirror()` into `run`; once the task is done, its final one."""
    final = yield from _job(_drive, (run,), lambda mirror: vars(run).update(mirror))
    vars(run).update(final)


def call_on_cluster(function: Callable, args: tuple, progress: Callable[[str, int, int], None]):
    """`function(*args, progress=…)` run on the cluster as one task, as a generator to step (`_job`) whose return
    value is the function's result; its `progress(stage, done, total)` calls reach `progress` here, the latest one at
    each poll. `wait` steps it to the end in a thread. The function, its arguments and its result travel pickled."""
    return (yield from _job(_call, (function, args), lambda news: progress(*news)))


def wait(steps: Generator, stop: threading.Event | None = None):
    """Step `steps` (`call_on_cluster`) to its end in this thread (never on the event loop) and return its value;
    once `stop` is set, close it (which cancels its task) and raise `Cancelled`."""
    try:
        while stop is None or not stop.is_set():
            next(steps)
    except StopIteration as end:
        return end.value
    steps.close()
    raise Cancelled("stopped in the session before the task on the cluster ended")


class Cancelled(Exception):
    """A job on the cluster ended before its end: its session stopped waiting, or (on the worker) it was cancelled."""


def _job(task: Callable, args: tuple, news: Callable[[object], None]) -> Generator[None, None, object]:
    """`task(*args, name, PERIOD)` on the cluster as one task (through `run_pinned`, under the key `name`), as a
    generator each of whose steps waits ≈ POLL_SLEEP or polls the Variable `name` (at most every PERIOD, a round trip
    to the scheduler) and gives the task's latest publication there, if new, unpickled, to `news`; returns the task's
    result. The task's error (or the lost worker's, or the client's) is raised at the step that sees it; closing the
    generator (the job replaced, the session closed) cancels the task."""
    from distributed import Variable

    dask = client()
    name = f"xgpc-job-{uuid.uuid4().hex}"
    variable = Variable(name, client=dask)
    variable.set((-1, None))  # so that a poll before the task's first publication answers at once
    # one BLAS thread per job, as in the server (DESIGN §8), and the worker's allocator as in the server
    future = dask.submit(run_pinned, task, (*args, name, PERIOD), key=name, pure=False, retries=0)
    seen, polled = -1, 0.0
    try:
        while not future.done():
            if time.monotonic() - polled < PERIOD:
                time.sleep(POLL_SLEEP)
            else:
                polled = time.monotonic()
                number, packed = variable.get()
                if number > seen:
                    seen = number
                    news(pickle.loads(packed))
            yield
        return future.result()[0]
    finally:
        if not future.done():
            future.cancel()
        variable.delete()


class _Publication:
    """On a Dask worker, in the task `name`: its news to the session, published to the Variable `name` as (number,
    pickled news) at most every `period` seconds, and whether the task has been cancelled."""

    def __init__(self, name: str, period: float):
        from distributed import Variable, get_worker

        self._worker, self._variable, self._name, self._period = get_worker(), Variable(name), name, period
        self._number, self._due = 0, 0.0

    def cancelled(self) -> bool:
        """Whether the task was cancelled (Stop, or the session's server gone): Dask cannot interrupt a running task,
        so it ends itself at the next check."""
        task = self._worker.state.tasks.get(self._name)
        return task is None or task.state == "cancelled"

    def offer(self, news: Callable[[], object]) -> None:
        """Publish news() if the last publication is at least `period` old (news() is not called otherwise)."""
        if time.monotonic() >= self._due:
            self._variable.set((self._number, pickle.dumps(news(), protocol=5)))
            self._number, self._due = self._number + 1, time.monotonic() + self._period


def _drive(run, name: str, period: float) -> dict:
    """On a Dask worker: run `run.chunks()` to its end, publishing `run.mirror()` (`_Publication`); returns the final
    mirror."""
    publication = _Publication(name, period)
    for _ in run.chunks():
        if publication.cancelled():
            break
        publication.offer(run.mirror)
    return run.mirror()


def _call(function: Callable, args: tuple, name: str, period: float):
    """On a Dask worker: function(*args, progress=…), publishing its latest progress (stage, done, total)
    (`_Publication`); a progress call after the task was cancelled raises `Cancelled`."""
    publication = _Publication(name, period)

    def progress(stage: str, done: int, total: int) -> None:
        if publication.cancelled():
            raise Cancelled(f"task {name} cancelled at {stage} {done}/{total}")
        publication.offer(lambda: (stage, done, total))

    return function(*args, progress=progress)
