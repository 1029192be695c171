"""A session's refresh: what a periodic callback (every `Dashboard.period_ms`) and every user action render of the
session's run, through the tabs' protocol (`tabs.Tab`). While training plays, the periodic refresh shows the snapshot
the worker published after its last chunk (`Publisher`) and never takes the worker's gate (issue 11), so training
goes on: the history rows the page has not taken yet, the status line and a frozen prediction for the surface.
Otherwise it takes the gate and a snapshot itself, which also catches a new run (each tab then shows it).

A `Snapshot` is immutable and shares no array that training later writes into: history rows are dicts the trainer
appends and never changes, `FrozenPrediction` is a shallow copy of the engine (whose iterations replace arrays and
never write into them, the engine's rollback contract), and the minibatch's c_i are an array the engine replaces each
iteration. The `Publisher` hands it over by one reference assignment (`latest`); the page takes the rows
it has not taken yet (`take`), so the next snapshot carries only the rows after those — none lost, none sent twice.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from itertools import islice

import panel as pn

from explorer.dashboard.notices import notify
from explorer.dashboard.session import TRAINING_JOBS
from explorer.dashboard.surface import FrozenPrediction
from explorer.dashboard.tabs import LIVE, MINIBATCH, Tick
from explorer.dashboard.train import convergence_rule

log = logging.getLogger(__name__)


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

    def take(self, snapshot: Snapshot) -> list[dict]:
        """The rows of `snapshot` the page has not taken yet (none if it is older), taken now: later snapshots start
        after them."""
        run, taken = self._taken
        taken = taken if run is snapshot.run else 0
        self._taken = (snapshot.run, max(taken, snapshot.total))
        return list(snapshot.rows[max(taken - snapshot.first, 0) :])


class Refresh:
    """The refresh of one `Dashboard`: its session, actions, changes, jobs, publisher and tabs."""

    def __init__(self, dashboard):
        d = dashboard
        self.dashboard, self.model, self.session, self.worker = d, d.model, d.session, d.session.worker
        self.actions, self.changes, self.jobs, self.publisher = d.actions, d.changes, d.jobs, d.publisher
        self.tab_list = d.tab_list
        self.trainer = self.model.trainer  # the run shown
        self._prepared: tuple | None = None  # (a new run, its tabs' `prepare`) computed in the worker by an action
        self._force_pending = False  # a forced refresh could not take the gate: the next tick that can is forced
        self._due = 0.0  # while training plays under a budget: when the next refresh is due
        self.count = 0

    def prepare(self) -> dict:
        """Each tab's `prepare` of the model's current run (under the gate)."""
        return {tab.title: tab.prepare(self.model) for tab in self.tab_list}

    def prepare_in_worker(self) -> None:
        """After an action's work, in the worker: if it made a new run, what the tabs need to show it, computed there
        too, not in the refresh on the event loop."""
        if self.model.trainer is not self.trainer:
            self._prepared = (self.model.trainer, self.prepare())

    def __call__(self, force_surface: bool = False) -> None:
        """Render what is new. Skipped while an uploaded file is swapped in or a submitted action runs (the worker
        holds the gate; the action's end is shown at the first tick after it). Served, the gate is waited for at
        most GATE_WAIT: a tick that cannot have it is skipped (a forced one: the next tick is forced). Once the
        browser has left, stop instead (one quiet log line)."""
        if self.session.browser_left():
            log.info("Browser page closed: session %s stopped at iteration %d.", self.session.id, self.model.iteration)
            self.dashboard.close()
            return
        if self.actions.current is not None:
            self.actions.finish()  # once the worker has done it
            return
        if self.changes.swapping:
            return
        if self.jobs.stepping and not self.jobs.running("step"):  # Step's job is done: show where it ended
            self.jobs.stepping, force_surface = False, True
        force_surface, self._force_pending = force_surface or self._force_pending, False
        begun = time.perf_counter()
        try:
            shown = self.tab_list[self.dashboard.tabs.active]
            self.publisher.local_wanted = shown.reads == MINIBATCH
            snapshot = None if force_surface else self._published(shown)
            if snapshot is not None and not self.budget_allows():  # the server's pace while training
                return
            paced = snapshot is not None
            budget = self.dashboard.budget
            self.dashboard.train.pace = budget.slowed() if budget is not None and paced else None
            # the next refresh: at the first tick once the budget's interval has passed (paced), else the next tick
            following = self.dashboard.period_ms / 1000 + (budget.interval() if budget is not None and paced else 0.0)
            news, prepared = {}, None
            if snapshot is None:
                with self.session.gate() as taken:
                    if taken:
                        snapshot, prepared = self._take()
                        tick = Tick(snapshot, prepared is not None, shown.title, force_surface, following)
                        if shown.reads == LIVE:
                            news[shown.title] = shown.collect(tick)
                if not taken:
                    self._force_pending = force_surface
                    return
            else:
                tick = Tick(snapshot, False, shown.title, force_surface, following)
            for tab in self.tab_list:
                if tab.reads != LIVE:
                    news[tab.title] = tab.collect(tick)
            with pn.io.hold():  # one message to the page for all of this tick's changes
                self._render(tick, prepared, news)
            if budget is not None and paced:
                budget.record(time.perf_counter() - begun)
        except Exception as err:  # never let one bad tick kill the periodic callback
            log.exception("refresh failed")
            notify(f"Refresh failed: {type(err).__name__}: {err}")
        self.count += 1

    def budget_allows(self) -> bool:
        """While training plays: whether this tick is due by the server's `RefreshBudget` (the session counts as
        training; due ticks are spaced by the budget's interval on average, to within a tick). True without one."""
        budget = self.dashboard.budget
        if budget is None:
            return True
        budget.training(id(self.dashboard))
        now, interval = budget.clock(), budget.interval()
        if now < self._due:
            return False
        self._due = max(self._due, now - interval) + interval
        return True

    def _published(self, shown) -> Snapshot | None:
        """The worker's latest snapshot if the periodic refresh may show it without the gate: training plays, the
        snapshot is of the run shown, and the tab shown does not read its own run (`tabs.LIVE`). None otherwise."""
        snapshot = self.publisher.latest
        training = any(self.jobs.running(name) for name in TRAINING_JOBS)
        if snapshot is None or snapshot.run is not self.trainer or not training or shown.reads == LIVE:
            return None
        return snapshot

    def _take(self) -> tuple[Snapshot, dict | None]:
        """Under the gate: a snapshot of the model now and, if the run changed, each tab's `prepare` of the new run
        (made by the action, in the worker, or now)."""
        model, prepared = self.model, None
        if model.trainer is not self.trainer:
            made, self._prepared = self._prepared, None
            prepared = made[1] if made is not None and made[0] is model.trainer else self.prepare()
            self.trainer = model.trainer
        return self.publisher.publish(model), prepared

    def _render(self, tick: Tick, prepared: dict | None, news: dict) -> None:
        d = self.dashboard
        if prepared is not None:
            for tab in self.tab_list:
                tab.show_run(prepared[tab.title])
            d.settings.sync()
            d.kernel_advice.visible = False
        for tab in self.tab_list:
            if news.get(tab.title) is not None:
                tab.render(news[tab.title], self.jobs.running(tab.title))
        if self.worker.error is not None:
            error, self.worker.error = self.worker.error, None
            self.jobs.announced = True
            d.report_failure(error, "Stopped by an error: ")
        if self.jobs.training_finished():
            self.jobs.announced = True
            notify(
                f"Converged at iteration {tick.snapshot.iteration}: {convergence_rule(self.trainer)}. Play has "
                "stopped; press Play to train on.",
                kind="info",
            )
        if not self.session.served:
            pn.io.push_notebook(d.layout)
