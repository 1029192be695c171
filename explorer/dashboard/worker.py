"""One background thread per dashboard session (DESIGN §8): everything the session computes runs here, never on the
server's event loop; it never touches Panel or Bokeh objects. The event loop takes its gate only with a timeout."""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future


class Worker:
    """Calls `job()` over and over while playing. A job does one short chunk of work (≈ 10–50 ms) and returns True
    when it is finished, which pauses the worker. An exception pauses it too and is kept in `error` for the UI.
    `submit(task)` runs task() once, under the gate, before the next chunk; its Future carries the result.

    `hold()` is the gate: the worker holds it around each chunk and task, the UI around each action and each read of
    the job's live state, and a waiting UI thread goes next (the worker yields between chunks while someone waits),
    so a click answers within a chunk. Served, the chunks of a training job also take turns with the other sessions'
    (`turns`), waited for before the gate.
    """

    def __init__(self, name: str = "xgpc-worker"):
        self._gate = threading.RLock()
        self._count_lock = threading.Lock()
        self._waiting = 0
        self._playing = threading.Event()
        self._wake = threading.Event()  # set by play, submit and stop: the loop looks again at once
        self._tasks: collections.deque[tuple[Callable[[], object], Future]] = collections.deque()
        self._stopped = False
        self._job: Callable[[], bool] | None = None
        self._job_takes_turns = False
        self.turns = None  # the server's `budget.Turns` (served), which chunks of jobs played with take_turns wait for
        self.error: BaseException | None = None
        self.finished = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    @property
    def playing(self) -> bool:
        return self._playing.is_set()

    @property
    def alive(self) -> bool:
        """Whether the thread still runs (False once `stop` has ended it)."""
        return self._thread.is_alive()

    @property
    def job(self) -> Callable[[], bool] | None:
        return self._job

    def play(self, job: Callable[[], bool], take_turns: bool = False) -> None:
        """Run `job` repeatedly from now on (replacing any other job). Returns at once: the job starts after the
        chunk or task now running. `take_turns`: each chunk waits for its turn among the server's sessions
        (`turns`, a `budget.Turns`, when the worker has one) before it takes the gate."""
        with self._count_lock:
            self._job = job
            self._job_takes_turns = take_turns
            self.error = None
            self.finished = False
            self._playing.set()
        self._wake_up()

    def pause(self, wait: bool = True) -> None:
        """Stop after the current chunk; with `wait`, return once the worker no longer runs one (never from the event
        loop: a chunk or task may take a while)."""
        self._playing.clear()
        self._wake_up()
        if wait:
            with self.hold():
                pass

    def submit(self, task: Callable[[], object]) -> Future:
        """Pause the job and run task() once in the worker, under the gate, after the chunk now running (tasks in the
        order submitted). Returns its Future (result or exception)."""
        future: Future = Future()
        self._playing.clear()
        self._tasks.append((task, future))
        self._wake_up()
        return future

    def stop(self, wait: float = 5.0) -> None:
        """End the thread (session closed) after what it is running now; wait at most `wait` seconds for that. Safe
        to call twice."""
        self._stopped = True
        self._playing.set()
        self._wake_up()
        self._thread.join(timeout=wait)

    def _wake_up(self) -> None:
        """The loop looks again at once, also if it waits for its turn (`turns`)."""
        self._wake.set()
        if self.turns is not None:
            self.turns.interrupt(self)

    @contextlib.contextmanager
    def hold(self, timeout: float | None = None):
        """The gate, for the UI thread: the worker finishes its chunk and waits until the block is done. With a
        `timeout` (the event loop) the block gets True if the gate was taken within it, else False and must not touch
        the job's state; without one it waits as long as needed and gets True."""
        with self._count_lock:
            self._waiting += 1
        taken = self._gate.acquire(timeout=-1 if timeout is None else timeout)
        try:
            yield taken
        finally:
            if taken:
                self._gate.release()
            with self._count_lock:
                self._waiting -= 1

    def _run_task(self) -> bool:
        """Run the oldest submitted task, if any; returns whether there was one."""
        try:
            task, future = self._tasks.popleft()
        except IndexError:
            return False
        with self._gate:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(task())
                except BaseException as err:  # handed to whoever waits on the future
                    future.set_exception(err)
        return True

    def _loop(self) -> None:
        while not self._stopped:
            self._wake.clear()
            if self._run_task():
                continue
            if not self._playing.is_set():
                self._wake.wait(0.25)
                continue
            while self._waiting and not self._stopped:
                time.sleep(0.001)
            with self._count_lock:  # the job and whether it takes turns, read together (`play` sets both)
                job, takes_turns = self._job, self._job_takes_turns
            turns = self.turns if takes_turns else None
            with turns.turn(self) if turns is not None else contextlib.nullcontext(True) as turn:
                if turn:  # (not interrupted while it waited: a new job, a task, Pause or stop came first)
                    self._run_chunk(job)

    def _run_chunk(self, job: Callable[[], bool] | None) -> None:
        """One chunk of `job`, under the gate, unless the worker was paused, given a task or another job meanwhile
        (the other job's next chunk then waits for its own turn, if it takes turns)."""
        with self._gate:
            if not self._playing.is_set() or job is None or job is not self._job or self._stopped or self._tasks:
                return
            try:
                done = job()
            except Exception as err:  # reported by the UI as a notification
                self.error, done = err, True
            if done:
                with self._count_lock:
                    if self._job is job:  # not replaced by `play` meanwhile
                        self.finished = True
                        self._playing.clear()
