"""`Dashboard(model)`: the X-GPC Explorer for one `Model`, served (`panel serve apps/explorer.py`, one per browser
session; the page: `explorer.dashboard.serve`) or shown in a notebook. It builds the session's tabs and joins its
rooms: `session` (its worker, actions and jobs), `changes` (settings, links, uploaded files), `refresh`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

import panel as pn
import param

from explorer.dashboard.budget import RefreshBudget
from explorer.dashboard.changes import Changes
from explorer.dashboard.controls import Settings
from explorer.dashboard.data import DataTab
from explorer.dashboard.learn import LearnTab
from explorer.dashboard.mcmc import McmcTab
from explorer.dashboard.notices import describe, notify
from explorer.dashboard.race import RaceTab
from explorer.dashboard.refresh import Publisher, Refresh
from explorer.dashboard.session import Actions, Jobs, Session
from explorer.dashboard.surface import SurfaceView
from explorer.dashboard.tabs import StudyTab
from explorer.dashboard.train import TrainTab
from explorer.hyperparameters import KernelLearningError
from explorer.model import Model

KERNEL_ADVICE = (
    "**Kernel learning diverged**; the run is kept at its last good iteration. Lower the Adam learning "
    "rate (this starts a new run), or continue this run with the kernel as learned so far."
)


def header() -> pn.pane.Markdown:
    """The page's title and what it is for."""
    return pn.pane.Markdown(
        "## X-GPC Explorer\nPólya-Gamma augmented sparse variational GP classification "
        "(Wenzel et al., AAAI 2019): watch it learn, check it against MCMC, race it, learn how it works.",
        sizing_mode="stretch_width",
    )


class Dashboard(pn.viewable.Viewer):
    """Everything one session sees, built around its own `Model` and worker thread."""

    period_ms = param.Integer(default=170, bounds=(50, 2000), doc="Refresh period of the training curves")

    def __init__(
        self, model: Model | None = None, *, start: bool = True, budget: RefreshBudget | None = None, **params
    ):
        """`start`: render the first state and start refreshing now; False when the page is built away from the event
        loop, which then calls `start` itself (`serve.build_page`). `budget`: the server's `RefreshBudget`, which sets
        how often the page is refreshed while training plays (None: every `period_ms`)."""
        super().__init__(**params)
        self.budget = budget
        self.model = model if model is not None else Model()
        self.session = Session()
        self.worker = self.session.worker
        if budget is not None:  # the server's sessions take turns to train (`budget.Turns`)
            self.worker.turns = budget.turns
        self.publisher = Publisher()  # the training job's snapshots, read by the periodic refresh
        self.actions = Actions(self.session, self.report_failure, lambda: self.changes.swapping)
        location = pn.state.location if self.session.served else None  # the page's URL shows the settings
        self.settings = Settings(self.model, lambda changes: self.changes.apply(changes), notify, location)
        self.surface = SurfaceView(self.add_point, replot=self._replot_surface, redraw=self.redraw)
        self.train = TrainTab(self.settings, self.surface, self.read, self.publisher, self.session.served)
        self.train.budget = budget
        self.data = DataTab(self.settings, lambda *upload: self.changes.read_file(*upload), notify)
        self.mcmc = McmcTab()
        self.race = RaceTab(list(self.model.param.method.objects))
        self.learn = LearnTab()
        self.tab_list = (self.train, self.data, self.mcmc, self.race, self.learn)
        self.studies = tuple(tab for tab in self.tab_list if isinstance(tab, StudyTab))  # run as worker jobs
        self.tabs = pn.Tabs(*((tab.title, tab) for tab in self.tab_list), dynamic=True, sizing_mode="stretch_width")
        self.changes = Changes(
            self.model, self.session, self.actions, self.settings, lambda: self.data.accepted is not None, self.redraw
        )
        self.jobs = Jobs(self.session, self.model, self.publisher, self.studies, self.actions)
        self.fix_kernel = pn.widgets.Button(label="Continue with kernel learning off", color="primary")
        self.kernel_advice = pn.Row(
            pn.pane.Alert(KERNEL_ADVICE, alert_type="warning"),
            self.fix_kernel,
            visible=False,
            sizing_mode="stretch_width",
        )
        t = self.train
        self.actions.buttons = (t.play, t.step, t.reset, *(study.start for study in self.studies), self.fix_kernel)
        self.actions.after = self.changes.apply_queued
        self.refresh = Refresh(self)  # refresh(force_surface=False): render what is new (`refresh.Refresh`)
        self.actions.prepare = self.refresh.prepare_in_worker
        buttons = {
            t.play: self.play,
            t.pause: self.pause,
            t.step: self.step,
            t.reset: self.reset,
            t.clear: t.traces.clear_earlier,
            **{study.start: (lambda study=study: self.start_study(study)) for study in self.studies},
            **{study.stop: (lambda study=study: self.stop_job(study.title)) for study in self.studies},
            self.fix_kernel: self.continue_without_kernel_learning,
        }
        for button, action in buttons.items():
            button.on_click(lambda event, action=action: self.actions.guard(action))
        self.tabs.param.watch(self.redraw, "active")
        with self.worker.hold():
            first = self.refresh.prepare()
        for tab in self.tab_list:
            tab.show_run(first[tab.title])
        self._callback = None
        if start:
            self.start()

    def start(self) -> None:
        """Render the first state, start the periodic refresh and, served, take the link's settings once the page is
        up (in the worker) and stop with the session. On the event loop (served): Bokeh's periodic callbacks belong
        to it."""
        if self.session.served:  # the link's query, before the page's URL shows the settings (once it has loaded)
            search = pn.state.location.search
            pn.state.onload(self.settings.sync)  # once the page has loaded, its URL shows the settings
            pn.state.onload(self.session.page_loaded)  # and the messages kept for it are shown
        self.refresh()
        self._callback = pn.state.add_periodic_callback(self.refresh, period=self.period_ms)
        if self.session.served:
            pn.state.on_session_destroyed(lambda context: self.close())
            pn.state.onload(lambda: self.changes.open_link(search))  # the link's run is built once the page is up

    # ------------------------------------------------------------------------------------------------- actions
    def play(self) -> None:
        """Train in the worker until Pause (or convergence, unless the run had already converged)."""
        self.jobs.start("train", self.jobs.training_job())

    def pause(self) -> None:
        self.worker.pause(wait=not self.session.served)
        if self.actions.current is not None or self.changes.swapping:  # the page already shows what the worker does
            return
        # the state shown now gets exact numbers, even if Play skipped its evaluation (in the worker when served)
        self.actions.act("Pausing", self.model.trainer.evaluate_skipped, self.redraw)

    def step(self) -> None:
        """One evaluation interval (eval_every iterations), then redraw. Served, a job of the worker (the page shows
        its progress and Pause stops it); in a notebook, at once."""
        if self.session.served:
            self.jobs.stepping = True
            self.jobs.start("step", self.jobs.training_job(to_next_evaluation=True))
            return
        self.actions.act("Step", lambda: self.model.step(self.model.eval_every), self.redraw)

    def reset(self) -> None:
        self.actions.act("Resetting the run", self.model.reset, self.redraw)

    def continue_without_kernel_learning(self) -> None:
        """After kernel learning diverged: keep the run, turn kernel learning off (no reset)."""

        def done(_) -> None:
            self.kernel_advice.visible = False
            self.settings.sync()
            self.redraw()

        self.actions.act("Turning kernel learning off", self.model.continue_without_kernel_learning, done)

    def start_study(self, study: StudyTab) -> None:
        """Run a study tab's study on the model's current data, kernel and plane (`session.Jobs.start_study`)."""
        self.jobs.start_study(study, lambda: self.surface.projection)

    def stop_job(self, name: str) -> None:
        """Stop a study: its job pauses and its run ends."""
        self.jobs.stop(name)
        self.refresh()

    def add_point(self, x, label: int) -> None:
        """The surface click: a training point of class `label` at raw input x (d,); training continues."""
        was_training = self.jobs.running("train")

        def work() -> dict:
            self.model.add_point(x, label)
            return self.surface.points(self.model)

        def done(points) -> None:
            if points is not None:
                self.surface.show_points(points)
            self.redraw()
            if was_training and points is not None and self.session.served:
                self.play()

        self.actions.act("Adding the point", work, done, pause=not self.session.served)

    def read(self, what: Callable[[Model], object]):
        """what(the session's model) under the gate (served: from a thread, never on the event loop), e.g. the Train
        tab's downloads: the history as CSV, and a copy of the model (`export.run_copy`) that exports step and draw."""
        with self.worker.hold():
            return what(self.model)

    def report_failure(self, err: Exception, prefix: str = "") -> None:
        """A notification for a failed action; a diverged kernel step also shows the way on (KERNEL_ADVICE)."""
        notify(prefix + describe(err))
        if isinstance(err, KernelLearningError):
            self.kernel_advice.visible = True

    def close(self) -> None:
        """Stop the worker, the periodic callback, the frame thread and any animation being made (the session
        ended). Safe to call twice. Served, the worker is not waited for (it ends after the chunk or task it is
        running)."""
        if self.session.closed:
            return
        if self._callback is not None:
            self._callback.stop()
        self.train.close()
        self.session.close()
        if self.budget is not None:
            self.budget.stopped(id(self))

    # ------------------------------------------------------------------------------------------------ refresh
    @property
    def refreshes(self) -> int:
        return self.refresh.count

    def redraw(self, *_) -> None:
        """Show the state now, the user acted: a forced refresh (arguments, an action's result or an event, ignored)."""
        self.refresh(force_surface=True)

    def _replot_surface(self) -> None:
        """A new plane: the points and axes now (cheap, under the gate), the surface computed now (notebook) or in
        the frame thread (served)."""
        with self.session.gate() as taken:
            if not taken:
                notify("The surface is busy: choose the plane again in a moment.", kind="info")
                return
            static = self.surface.reset(self.model, frame=not self.session.served)
            self.train.pending_frame = None  # of the old plane: never shown
        self.surface.build(static)
        if self.session.served:
            self.redraw()

    # -------------------------------------------------------------------------------------------------- layout
    @cached_property
    def layout(self) -> pn.Column:
        return pn.Column(header(), self.actions.row, self.kernel_advice, self.tabs, sizing_mode="stretch_width")

    def __panel__(self):
        return self.layout
