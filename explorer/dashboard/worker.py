"""One background thread per dashboard session (DESIGN §8): it runs the current job while playing and never touches
Panel or Bokeh objects; the UI takes the same gate lock around anything that changes the job's state or reads it
directly (the training job also publishes snapshots, which the periodic refresh reads without the gate)."""
from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable


class Worker:
    """Calls `job()` over and over while playing. A job does one short chunk of work (≈ 10–50 ms) and returns True
    when it is finished, which pauses the worker. An exception pauses it too and is kept in `error` for the UI.

    `hold()` is the gate: the worker holds it around each chunk, the UI around each action and each read of the
    job's live state, and a waiting UI thread goes next (the worker yields between chunks while someone waits), so a
    click answers within a chunk.
    """

    def __init__(self, name: str = "xgpc-worker"):
        self._gate = threading.RLock()
        self._count_lock = threading.Lock()
        self._waiting = 0
        self._playing = threading.Event()
        self._stopped = False
        self._job: Callable[[], bool] | None = None
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

    def play(self, job: Callable[[], bool]) -> None:
        """Run `job` repeatedly from now on (replacing any other job)."""
        with self.hold():
            self._job = job
            self.error = None
            self.finished = False
            self._playing.set()

    def pause(self) -> None:
        """Stop after the current chunk; returns once the worker no longer runs a chunk."""
        self._playing.clear()
        with self.hold():
            pass

    def stop(self) -> None:
        """End the thread (session closed). Safe to call twice."""
        self._stopped = True
        self._playing.set()
        self._thread.join(timeout=5.0)

    @contextlib.contextmanager
    def hold(self):
        """The gate, for the UI thread: the worker finishes its chunk and waits until the block is done."""
        with self._count_lock:
            self._waiting += 1
        try:
            with self._gate:
                yield
        finally:
            with self._count_lock:
                self._waiting -= 1

    def _loop(self) -> None:
        while not self._stopped:
            if not self._playing.wait(0.25) or self._stopped:
                continue
            while self._waiting and not self._stopped:
                time.sleep(0.001)
            with self._gate:
                if not self._playing.is_set() or self._job is None:
                    continue
                try:
                    done = self._job()
                except Exception as err:  # reported by the UI as a notification
                    self.error, done = err, True
                if done:
                    self.finished = True
                    self._playing.clear()
