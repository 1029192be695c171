"""Fresh processes whose output a test only reads, started in conftest's background lane (conftest.start_early) when
the run starts and read by the tests later; a test run without the lane (its module's `start_early` not called) runs
its own."""

from collections.abc import Callable
from concurrent.futures import Executor, Future


class Early:
    """One test module's early runs, each under a key naming what it runs."""

    def __init__(self) -> None:
        self._runs: dict[object, Future] = {}

    def submit(self, lane: Executor, key: object, function: Callable, *args) -> None:
        if key not in self._runs:
            self._runs[key] = lane.submit(function, *args)

    def result(self, key: object, function: Callable, *args):
        """The early run's result, or `function(*args)` run now when it was not started early."""
        run = self._runs.get(key)
        return run.result() if run is not None else function(*args)
