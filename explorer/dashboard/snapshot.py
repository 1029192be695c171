"""What the periodic refresh shows of a training run, published by the worker after each chunk so that the refresh
never takes the worker's gate (issue 11): the history rows the page has not taken yet, the status line and a frozen
prediction for the surface.

A `Snapshot` is immutable and shares no array that training later writes into: history rows are dicts the trainer
appends and never changes, `FrozenPrediction` is a shallow copy of the engine (whose iterations replace arrays and
never write into them, the engine's rollback contract), and the minibatch's c_i are an array the engine replaces each
iteration. The `Publisher` hands it over by one reference assignment (`latest`); the page says how many rows it has
taken (`taken`), so the next snapshot carries only the rows after those — none lost, none sent twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

from explorer.dashboard.surface import FrozenPrediction


@dataclass(frozen=True)
class Snapshot:
    """A run's state after a chunk: `run` (its `Trainer`, the run's identity), history rows number `first` + 1 …
    `total` (counted over the run, as `History.total`), iteration, status and convergence as the Model shows them,
    the frozen prediction, and the last minibatch's local parameters (`Model.last_local()`, or None when not asked
    for)."""

    run: object
    first: int
    rows: tuple[dict, ...]
    iteration: int
    status: str
    converged: bool
    prediction: FrozenPrediction
    local: dict | None

    @property
    def total(self) -> int:
        """History rows ever added to the run when this was taken."""
        return self.first + len(self.rows)

    def rows_after(self, taken: int) -> list[dict]:
        """The rows after the first `taken` of the run (those this snapshot holds; none if it is older)."""
        return list(self.rows[max(taken - self.first, 0) :])


def _rows_since(history, taken: int) -> tuple[dict, ...]:
    """`History.since(taken)` in O(new rows) rather than O(kept rows): the newest rows, oldest first."""
    new = min(history.total - taken, len(history.rows))
    return tuple(islice(reversed(history.rows), new))[::-1] if new > 0 else ()


class Publisher:
    """Snapshots of one session's Model, from the thread that holds the worker's gate (the worker after a chunk, or
    the UI when it takes the gate itself), read by the periodic refresh without the gate.

    `local_wanted` (set by the UI: the Learn tab is shown) adds the last minibatch's local parameters."""

    def __init__(self):
        self.latest: Snapshot | None = None
        self.local_wanted = False
        self._taken: tuple[object, int] = (None, 0)  # (run, rows the page has taken of it), replaced whole

    def publish(self, model) -> Snapshot:
        """Take a snapshot of `model` (call under the worker's gate) and make it the latest."""
        run, history = model.trainer, model.history
        taken_run, taken = self._taken
        start = taken if taken_run is run else 0
        rows = _rows_since(history, start)
        snapshot = Snapshot(
            run=run,
            first=history.total - len(rows),
            rows=rows,
            iteration=model.iteration,
            status=model.status,
            converged=model.converged,
            prediction=FrozenPrediction(model),
            local=model.last_local() if self.local_wanted else None,
        )
        self.latest = snapshot
        return snapshot

    def taken(self, run, total: int) -> None:
        """The page has taken the first `total` rows of `run` (later snapshots start after them)."""
        self._taken = (run, total)
