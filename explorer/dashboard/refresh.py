"""A session's refresh: what a periodic callback (every `Dashboard.period_ms`) and every user action render of the
session's run, through the tabs' protocol (`tabs.Tab`). While training plays, the periodic refresh shows the snapshot
the worker published after its last chunk and never takes the worker's gate, so training goes on; otherwise it takes
the gate and a snapshot itself, which also catches a new run (each tab then shows it)."""

from __future__ import annotations

import logging
import time

import panel as pn

from explorer.dashboard.notices import notify
from explorer.dashboard.session import TRAINING_JOBS
from explorer.dashboard.snapshot import Snapshot
from explorer.dashboard.tabs import LIVE, MINIBATCH, Tick
from explorer.dashboard.train import convergence_rule

log = logging.getLogger(__name__)


class Refresh:
    """The refresh of one `Dashboard`: its session, actions, uploads, jobs, publisher and tabs."""

    def __init__(self, dashboard):
        d = dashboard
        self.dashboard, self.model, self.session, self.worker = d, d.model, d.session, d.session.worker
        self.actions, self.uploads, self.jobs, self.publisher = d.actions, d.uploads, d.jobs, d.publisher
        self.tab_list = d.tab_list
        self.trainer = self.model.trainer  # the run shown
        self._prepared: tuple | None = None  # (a new run, its tabs' `prepare`) computed in the worker by an action
        self._force_pending = False  # a forced refresh could not take the gate: the next tick that can is forced
        self.count = 0

    def shown(self):
        return self.tab_list[self.dashboard.tabs.active]

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
            if self.actions.done():
                self.actions.finish()
            return
        if self.uploads.swapping:
            return
        if self.jobs.stepping and not self.jobs.running("step"):  # Step's job is done: show where it ended
            self.jobs.stepping, force_surface = False, True
        force_surface, self._force_pending = force_surface or self._force_pending, False
        begun = time.perf_counter()
        try:
            shown = self.shown()
            self.publisher.local_wanted = shown.reads == MINIBATCH
            snapshot = None if force_surface else self._published(shown)
            if snapshot is not None and not self.dashboard._budget_allows():  # the server's pace while training
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
