"""`Dashboard(model)`: the X-GPC Explorer for one `Model`, served (`panel serve apps/explorer.py`, one per browser
session) or shown in a notebook. Training runs in the session's worker thread, which publishes a snapshot of the run
after each chunk (`explorer.dashboard.snapshot`: new history rows, status, a frozen prediction); a periodic callback
(every `period_ms`) renders the latest snapshot without taking the worker's gate, so training never stops for it:
traces at every tick, the surface at most every `surface_seconds` (and rarer when its frames are slow: they take at
most `SURFACE_SHARE` of the time), only while its tab is shown. When training does not play, and after every user
action, the refresh takes the gate and a snapshot itself. A periodic surface frame is computed in the session's frame
thread from the snapshot's frozen prediction, off the event loop, and shown at the first tick after it is ready; a
frame the user asked for (Step, Pause, a new setting, a tab change) is computed at once.

Served, nothing a session computes runs on the server's event loop, which every visitor shares (issue 19). A visitor
first gets a light page (`serve_app`); the Dashboard is built in a page-builder thread and swapped in (`build_page`).
Step runs in the worker as a job (to the next evaluation; Pause stops it), and every other action that computes —
Reset, a new setting or data set, a shared link's settings, adding a point, starting a race or an MCMC run, swapping
in an uploaded file — is a task for the worker (`Dashboard._act`); the page says what it is working on and refuses other
actions until it is done, the refresh takes the gate only with a timeout (a tick that cannot have it is skipped), and
surface frames are computed in the frame thread. A configuration is checked against the budget of one action
(`explorer.dashboard.budget`) before any of it is computed; an uploaded file is parsed in a worker process
(`upload_parser`), where the parse cannot hold the server's GIL. In a notebook the same actions run at once.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache, partial
from io import BytesIO

import panel as pn
import param
from panel.io.resources import get_dist_path
from panel.io.state import set_curdoc
from threadpoolctl import threadpool_limits
from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketClosedError

from explorer.dashboard import cluster
from explorer.dashboard.budget import RefreshBudget, data_shape, over_budget
from explorer.dashboard.controls import LABELS, Settings, configuration, settings_from_query
from explorer.dashboard.data import DataTab, summary
from explorer.dashboard.learn import LearnTab
from explorer.dashboard.mcmc import McmcTab
from explorer.dashboard.race import RaceTab
from explorer.dashboard.snapshot import Publisher, Snapshot
from explorer.dashboard.surface import SurfaceView
from explorer.dashboard.tabs import StudyTab
from explorer.dashboard.text import html_text, markdown_text
from explorer.dashboard.train import EVALUATION_SHARE, TrainTab, convergence_rule
from explorer.dashboard.worker import Worker
from explorer.data import datasets
from explorer.hyperparameters import KernelLearningError
from explorer.model import Model
from explorer.views.export import run_copy

log = logging.getLogger(__name__)
SURFACE_SHARE = 0.1  # periodic surface frames take at most this share of the wall time (slow machine: rarer frames)
CHUNK_SECONDS = 0.015  # target length of a worker chunk: the UI waits at most this (plus an evaluation) for the gate
LINK_PROBLEMS_SHOWN = 5  # problems of a shared link named in its notification
GATE_WAIT = 0.05  # s: the longest the event loop waits for the worker's gate (the end of a chunk) in a refresh
UPLOAD_PARSERS = 2  # worker processes parsing uploaded files, for the whole server
TRAINING_JOBS = ("train", "step")
KERNEL_ADVICE = (
    "**Kernel learning diverged**; the run is kept at its last good iteration. Lower the Adam learning "
    "rate (this starts a new run), or continue this run with the kernel as learned so far."
)


def stepper(generator):
    """A worker job that advances `generator` by one step per call and reports True once it is exhausted;
    `job.close()` (in the worker) ends the generator."""

    def job() -> bool:
        for _ in generator:
            return False
        return True

    job.close = generator.close
    return job


def notify(message: str, kind: str = "error", duration: int | None = None) -> None:
    """A notification in this session's page (or the log where there is none, e.g. a notebook without them) for
    `duration` ms (0: until closed; default 8 s for errors, 4 s otherwise). The page renders notifications as HTML;
    `message` is shown as text (it often quotes file names and cell values)."""
    area = pn.state.notifications
    if area is None:
        (log.error if kind == "error" else log.info)(message)
        return
    if duration is None:
        duration = 8000 if kind == "error" else 4000
    getattr(area, kind)(html_text(message), duration=duration)


def describe(error: Exception) -> str:
    """An exception in words for people: a DataError says everything itself, others name their type."""
    return str(error) if isinstance(error, datasets.DataError) else f"{type(error).__name__}: {error}"


def unchanged(error: Exception) -> str:
    return f"{describe(error)}. The current run is unchanged."


def _csv_reading(content: bytes, filename: str, label_column: str) -> partial:
    """The call that reads an uploaded file: `datasets.read_csv` itself, so that a parser process imports no Panel."""
    return partial(datasets.read_csv, BytesIO(content), label_column, source_name=filename)


def parse_upload(content: bytes, filename: str, label_column: str) -> tuple:
    """An uploaded CSV/TSV as (X (n, d), y (n,) class indices, classes (K,), feature names); raises DataError (any
    thread)."""
    return _csv_reading(content, filename, label_column)()


_parser: ProcessPoolExecutor | None = None
_parser_lock = threading.Lock()


def upload_parser(renew: bool = False) -> ProcessPoolExecutor:
    """The server's pool of `UPLOAD_PARSERS` processes that parse uploaded files (started on first use, "spawn":
    safe in a threaded server; `renew`: replace a pool whose process died). A parse there holds no GIL of the
    server, so a large file does not slow the other sessions. It only reads bytes into arrays: no session state."""
    global _parser
    with _parser_lock:
        if _parser is None or renew:
            _parser = ProcessPoolExecutor(UPLOAD_PARSERS, mp_context=multiprocessing.get_context("spawn"))
        return _parser


MAIN_GUARD = (
    "uploads are read in a separate process, which Python starts by running your script again (the 'spawn' start "
    "method), so the script's code that starts the server ran a second time there; put that code under "
    '`if __name__ == "__main__":` in your script and start it again'
)


async def parse_in_process(content: bytes, filename: str, label_column: str) -> tuple:
    """`parse_upload` in a process of the upload parser. RuntimeError saying to add the main-module guard
    (`MAIN_GUARD`) when this runs while a script without one is imported again to start a parser process."""
    call = _csv_reading(content, filename, label_column)
    try:
        try:
            return await asyncio.wrap_future(upload_parser().submit(call))
        except BrokenProcessPool:  # the parser process died (e.g. killed for memory): one more try in a fresh pool
            return await asyncio.wrap_future(upload_parser(renew=True).submit(call))
    except RuntimeError as err:
        if "bootstrapping phase" not in str(err):  # multiprocessing's words for a process started while importing
            raise
        raise RuntimeError(MAIN_GUARD) from None


class Dashboard(pn.viewable.Viewer):
    """Everything one session sees, built around its own `Model` and worker thread."""

    period_ms = param.Integer(default=170, bounds=(50, 2000), doc="Refresh period of the training curves")
    surface_seconds = param.Number(default=0.8, bounds=(0.1, None), doc="Least time between surface refreshes")
    slow_seconds = param.Number(
        default=1.0,
        bounds=(0.1, None),
        doc="Least time between refreshes of the status text and the ρ/kernel figure (a text "
        "change re-lays out the page: ≈ 0.4 of a browser core at 6 Hz, measured)",
    )

    def __init__(
        self, model: Model | None = None, *, start: bool = True, budget: RefreshBudget | None = None, **params
    ):
        """`start`: render the first state and start refreshing now; False when the page is built away from the event
        loop, which then calls `start` itself (`build_page`). `budget`: the server's `RefreshBudget`, which sets how
        often the page is refreshed while training plays (None: every `period_ms`)."""
        super().__init__(**params)
        self.budget = budget
        self._refresh_due = 0.0  # while training plays under a budget: when the next refresh is due
        self.model = model if model is not None else Model()
        self.worker = Worker()
        self._session = pn.state.curdoc.session_context if pn.state.curdoc else None
        self._served = self._session is not None
        self._offload = self._served  # served: every computing action in the worker (in a notebook: at once)
        self._action: tuple | None = None  # (what, its future, then, report) while the worker does a task
        self._custom_shape: tuple[int, int] | None = None  # (rows, features) of the uploaded data swapped in
        self._queued_changes: dict = {}  # settings changed while the worker did an action: applied after it
        self._force_pending = False  # a forced refresh could not take the gate: the next tick that can is forced
        self._stepping = False
        self._loaded = not self._served
        self._after_load: list[Callable] = []  # messages for a page that has not loaded yet
        self.settings = Settings(self.model, self.apply, notify, pn.state.location if self._served else None)
        self.surface = SurfaceView(
            self.add_point, replot=self._replot_surface, redraw=lambda: self.refresh(force_surface=True)
        )
        self.train = TrainTab(self.settings, self.surface, self.history_csv, self.model_copy)
        self.data = DataTab(self.settings, self.read_file, notify)
        self.mcmc = McmcTab()
        self.race = RaceTab(list(self.model.param.method.objects))
        self.learn = LearnTab()
        self.tab_list = (self.train, self.data, self.mcmc, self.race, self.learn)
        self.studies = tuple(tab for tab in self.tab_list if isinstance(tab, StudyTab))  # run as worker jobs
        self.tabs = pn.Tabs(
            *((tab.title, tab) for tab in self.tab_list),
            dynamic=True,
            sizing_mode="stretch_width",
        )
        self.fix_kernel = pn.widgets.Button(label="Continue with kernel learning off", color="primary")
        self.working = pn.widgets.StaticText(value="", styles={"font-weight": "bold"})
        self.busy = pn.Row(
            pn.indicators.LoadingSpinner(value=True, size=22, width=22, height=22), self.working, visible=False
        )
        self._action_buttons = (
            self.train.play,
            self.train.step,
            self.train.reset,
            *(study.start for study in self.studies),
            self.fix_kernel,
        )
        self.kernel_advice = pn.Row(
            pn.pane.Alert(KERNEL_ADVICE, alert_type="warning"),
            self.fix_kernel,
            visible=False,
            sizing_mode="stretch_width",
        )
        self._jobs = {}
        self._publisher = Publisher()  # the training job's snapshots, read by the periodic refresh
        self._announced = True
        self.refreshes = 0
        self._surface_due = 0.0
        self._slow_due = 0.0
        self._surface_iteration = -1
        self._frames = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xgpc-surface")
        self._pending_frame: Future | None = None  # a periodic frame being computed in the frame thread
        self._frame_seconds = 0.0  # how long the last frame took to compute
        self._still_frames = 0  # periodic frames in a row that looked as the one shown (each waits twice as long)
        self._learn_iteration = -1
        self._shown_status = None
        self._reading: str | None = None  # the uploaded file being read, if any
        self._swapping = False  # its data are being swapped in: the gate is taken for seconds, so the UI waits
        self._prepared: tuple | None = None  # (a new run, its `_new_run_parts`) computed in the worker by an action
        self._wire()
        with self.worker.hold():
            self._trainer = self.model.trainer
            self.train.traces.new_run(configuration(self.model))
            self._consumed = 0
            static = self.surface.reset(self.model)
            self.data.description.object = summary(self.model)
        self.surface.build(static)
        self._was_connected = False
        self._closed = False
        self._callback = None
        if start:
            self.start()

    def start(self) -> None:
        """Render the first state, start the periodic refresh and, served, take the link's settings once the page is
        up (in the worker) and stop with the session. On the event loop (served): Bokeh's periodic callbacks belong
        to it."""
        if self._served:  # the link's query, before the page's URL shows the settings (once it has loaded)
            search = pn.state.location.search
            pn.state.onload(self._page_loaded)
        self.refresh()
        self._callback = pn.state.add_periodic_callback(self.refresh, period=self.period_ms)
        if self._served:
            pn.state.on_session_destroyed(lambda context: self.close())
            pn.state.onload(lambda: self.open_link(search))  # the link's run is built once the page is up

    def _wire(self) -> None:
        t = self.train
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
            button.on_click(lambda event, action=action: self._guard(action))
        self.tabs.param.watch(lambda e: self.refresh(force_surface=True), "active")

    # ------------------------------------------------------------------------------------------------- actions
    def _training_job(self, to_next_evaluation: bool = False) -> Callable[[], bool]:
        """The worker job that trains in chunks of ≈ CHUNK_SECONDS: until Pause (or convergence, unless the run had
        already converged), or with `to_next_evaluation` for `eval_every` iterations (Step)."""
        stop_at_convergence = not self.model.converged
        state = {"seconds": None, "target": None}  # seconds per iteration, measured on chunks without an evaluation

        def chunk() -> bool:
            model, seconds = self.model, state["seconds"]
            if to_next_evaluation and state["target"] is None:
                state["target"] = model.iteration + model.eval_every
            k = 1 if seconds is None else max(1, min(model.eval_every, int(CHUNK_SECONDS / max(seconds, 1e-5))))
            if to_next_evaluation:
                k = min(k, state["target"] - model.iteration)
            start = time.perf_counter()
            trainer = model.trainer
            # Play skips an evaluation that would take more than its share of the time; Step evaluates every eval_every
            trainer.eval_share = None if to_next_evaluation else EVALUATION_SHARE
            try:
                new_rows = model.step(k)
            finally:
                trainer.eval_share = None
            if new_rows == 0:
                state["seconds"] = (time.perf_counter() - start) / k
            self._publisher.publish(model)
            if to_next_evaluation:
                return model.iteration >= state["target"]
            return stop_at_convergence and model.converged

        return chunk

    def play(self) -> None:
        """Train in the worker until Pause (or convergence, unless the run had already converged)."""
        self._start_job("train", self._training_job())

    def start_study(self, study: StudyTab) -> None:
        """Run the study tab's study (the MCMC comparison, the race) on the model's current data, kernel and plane as
        the worker's job (training pauses meanwhile)."""
        problem = study.problem()
        if problem is not None:
            notify(problem)
            return

        def start() -> None:
            try:
                with self.worker.hold():
                    run = study.new_run(self.model, self.surface.projection)
            except datasets.DataError as err:  # e.g. no chosen method takes the data's classes: nothing started
                notify(str(err))
                return
            remote = cluster.scheduler() is not None and hasattr(run, "mirror")  # the run goes to the Dask cluster
            self._start_job(study.title, stepper(cluster.on_cluster(run) if remote else run.chunks()))

        self._when_idle(study.starting, start)

    def stop_job(self, name: str) -> None:
        """Stop a study: its job pauses and its run ends (in the worker; a run on the Dask cluster is cancelled)."""
        if self._running(name):
            self.worker.pause(wait=not self._offload)
            self.worker.submit(self._jobs[name].close)
        self.refresh()

    def _running(self, name: str) -> bool:
        return self.worker.playing and self.worker.job is self._jobs.get(name)

    def _start_job(self, name: str, job) -> None:
        jobs = [(study.title, study.job_label) for study in self.studies] + [("train", "Training")]
        for other, label in jobs:
            if other != name and self._running(other):
                notify(f"{label} was paused: one job runs at a time per session.", kind="info")
        self._jobs[name] = job
        self._announced = False
        self.worker.play(job)

    def pause(self) -> None:
        self.worker.pause(wait=not self._offload)
        if self._action is not None or self._swapping:  # the page already shows what the worker is doing
            return
        # the state shown now gets exact numbers, even if Play skipped its evaluation (in the worker when served)
        self._act("Pausing", self.model.trainer.evaluate_skipped, lambda _: self.refresh(force_surface=True))

    def step(self) -> None:
        """One evaluation interval (eval_every iterations), then redraw. Served, a job of the worker (the page shows
        its progress and Pause stops it); in a notebook, at once."""
        if self._offload:
            self._stepping = True
            self._start_job("step", self._training_job(to_next_evaluation=True))
            return
        self._act("Step", lambda: self.model.step(self.model.eval_every), lambda _: self.refresh(force_surface=True))

    def reset(self) -> None:
        self._act("Resetting the run", self.model.reset, lambda _: self.refresh(force_surface=True))

    def continue_without_kernel_learning(self) -> None:
        """After kernel learning diverged: keep the run, turn kernel learning off (no reset)."""

        def done(_) -> None:
            self.kernel_advice.visible = False
            self.settings.sync()
            self.refresh(force_surface=True)

        self._act("Turning kernel learning off", self.model.continue_without_kernel_learning, done)

    def open_link(self, search: str) -> None:
        """Take the settings of a shared link's URL query ('?dataset=moons&n_inducing=30'): the usable ones are applied
        together, in the worker, once the page has come up with the defaults; values that cannot be used, settings
        beyond the budget of one action, or settings the model refuses as a whole, are named in a notification and
        the defaults kept (served pages only)."""
        changes, problems = settings_from_query(search, self.model)
        too_costly = self._over_budget(changes) if changes else []
        if too_costly:
            problems += [f"{problem} — this link's settings are not used, the defaults are" for problem in too_costly]
            changes = {}

        def done(error) -> None:
            if error is not None:  # the Model has rolled the change back: the defaults stay
                problems.append(f"{describe(error)} — this link's settings are not used, the defaults are")
            if problems:
                shown = problems[:LINK_PROBLEMS_SHOWN] + (
                    [f"… and {len(problems) - LINK_PROBLEMS_SHOWN} more"] if len(problems) > LINK_PROBLEMS_SHOWN else []
                )
                self._tell("Some settings in this link were not used: " + "; ".join(shown) + ".", duration=0)
            self.settings.sync()
            self.refresh(force_surface=True)

        if changes:
            self._act(
                "Opening the link's settings",
                partial(
                    self._failure_of,
                    self.model.configure,
                    changes,
                    "Opened with the settings of a shared link: "
                    + (
                        ", ".join(
                            f"{name} {value!r}"
                            for name, value in changes.items()
                            if value != getattr(self.model, name, None)
                        )
                        or "the defaults"
                    ),
                ),
                done,
                report=False,
            )
        else:
            done(None)

    @staticmethod
    def _failure_of(action, *args, **kwargs) -> Exception | None:
        """Run action; its exception, returned (None if it succeeded)."""
        try:
            action(*args, **kwargs)
        except Exception as err:  # returned to the caller, which says what it means
            return err
        return None

    def _over_budget(self, changes: dict, shape: tuple[int, int] | None = None) -> list[str]:
        """Why the model's configuration with `changes` would exceed the budget of one action (empty: it would not).
        `shape`: (rows, features) of the data, if not those `changes` name."""
        # (configuration() names uploaded data by their file name, the budget by "custom")
        config = {
            **configuration(self.model),
            "dataset": self.model.dataset,
            "eval_points": self.model.eval_points,
            **changes,
        }
        shape = shape or data_shape(config, self._custom_shape)
        return [] if shape is None else over_budget(config, shape, changed=list(changes))

    def apply(self, changes: dict) -> None:
        """Set configuration parameters on the Model (a structural change resets the run and pauses training), unless
        they exceed the budget of one action (a notification names the setting and the limit). Settings changed
        while the worker does another action are applied, together, once it is done."""
        if self._action is not None:
            self._queued_changes.update(changes)
            return
        if self._busy():
            self.settings.sync()
            return
        too_costly = self._over_budget(changes)
        if too_costly:
            now = ", ".join(f"{LABELS[name]} {getattr(self.model, name)!r}" for name in changes if name in LABELS)
            notify("Not applied: " + "; ".join(too_costly) + f". Still {now}.", duration=0)
            self.settings.sync()
            return
        no_upload = changes.get("dataset") == "custom" and self.data.accepted is None

        def work() -> None:
            try:
                self.model.param.update(**changes)
            except datasets.DataError as err:
                if no_upload:
                    raise datasets.DataError(
                        "The data set 'custom' is a file you upload: upload a CSV in the Data tab first."
                    ) from err
                raise

        def done(_) -> None:
            if not self._queued_changes:  # (else the widgets keep showing the values typed meanwhile)
                self.settings.sync()
            self.refresh(force_surface=True)

        self._act("Applying " + ", ".join(LABELS.get(name, name) for name in changes), work, done)

    def add_point(self, x, label: int) -> None:
        """The surface click: a training point of class `label` at raw input x (d,); training continues."""
        was_training = self._running("train")

        def work() -> dict:
            self.model.add_point(x, label)
            return self.surface.points(self.model)

        def done(points) -> None:
            if points is not None:
                self.surface.show_points(points)
            self.refresh(force_surface=True)
            if was_training and points is not None and self._offload:
                self.play()

        self._act("Adding the point", work, done, pause=not self._offload)

    def _act(
        self,
        label: str,
        work: Callable[[], object],
        then: Callable[[object], None] | None = None,
        *,
        report: bool = True,
        pause: bool = True,
    ) -> None:
        """Run work() under the worker's gate, then then(its result) here (None if it failed; a failure is a
        notification unless `report` is False). Served: work is a task of the session's worker, off the event loop;
        the page shows `label` with a spinner, the action buttons are disabled and other actions are refused until it
        is done (the refresh finishes it). In a notebook: at once. `pause`: the training job is paused first (served,
        submitting a task always pauses it)."""
        if self._busy():
            return
        if self._offload:
            self._action = (
                label,
                self.worker.submit(partial(self._then_prepare, work)),
                then or (lambda _: None),
                report,
            )
            self._show_busy(label)
            return
        if pause:
            self.worker.pause()
        try:
            with self.worker.hold():
                result = work()
        except Exception as err:  # any failure of a user action is reported, the session carries on
            if report:
                self._report_failure(err)
            result = None
        if then is not None:
            then(result)

    def _then_prepare(self, work: Callable[[], object]) -> object:
        """work() in the worker, then, if it made a new run, what the page needs to show it (`_new_run_parts`, the
        surface's projection of every training point among them) computed there too, not in the refresh on the
        event loop. Returns work's result."""
        result = work()
        if self.model.trainer is not self._trainer:
            self._prepared = (self.model.trainer, self._new_run_parts())
        return result

    def _new_run_parts(self) -> tuple:
        """(configuration, the surface's new data without a frame — served, the frame thread computes it — or with
        one, the data set's summary) of the model's current run (under the gate)."""
        model = self.model
        return configuration(model), self.surface.reset(model, frame=not self._offload), summary(model)

    def _when_idle(self, label: str, start: Callable[[], None]) -> None:
        """Run start() here once the worker is idle (its job paused after the chunk that was running)."""
        self._act(label, lambda: None, lambda _: start())

    def _finish_action(self) -> None:
        """The worker has done the submitted task: say so, and run what follows it on the page."""
        label, future, then, report = self._action
        self._action = None
        self._show_busy(None)
        try:
            result = future.result()
        except Exception as err:  # the action failed: the Model kept its state
            if report:
                self._report_failure(err)
            result = None
        then(result)
        if self._queued_changes:
            changes, self._queued_changes = self._queued_changes, {}
            self.apply(changes)

    def _show_busy(self, label: str | None) -> None:
        """Show that the worker is working on `label` (None: it is done) and disable the action buttons meanwhile."""
        self.working.value = html_text(f"Working: {label}…" if label else "")
        self.busy.visible = label is not None
        for button in self._action_buttons:
            button.disabled = label is not None

    def _page_loaded(self) -> None:
        """The page has loaded: the URL shows the settings, and messages kept for it are shown."""
        self._loaded = True
        self.settings.sync()
        for message in self._after_load:
            message()
        self._after_load.clear()

    def _tell(self, message: str, **options) -> None:
        """notify(message), or once the page has loaded (a notification sent before is lost)."""
        if self._loaded:
            notify(message, **options)
        else:
            self._after_load.append(partial(notify, message, **options))

    def load_file(self, content: bytes, filename: str, label_column: str) -> bool:
        """Parse an uploaded CSV and make it the data set, here and now (notebooks, tests; the page uses `read_file`).
        A bad file only raises a notification. Returns whether the data were swapped in."""
        if self._busy():
            return False
        try:
            parsed = parse_upload(content, filename, label_column)
        except Exception as err:  # a file that cannot be read is reported; nothing has changed
            return self._show_loaded(False, unchanged(err))
        self.worker.pause()
        return self._show_loaded(*self._swap(filename, *parsed))

    async def read_file(self, content: bytes, filename: str, label_column: str) -> bool:
        """`load_file` off the event loop, so that other sessions stay served: the file is parsed in a process of the
        upload parser (served; in a notebook in a thread) while this session carries on, checked against the budget,
        then swapped in by the session's worker (this session's refresh skips and its actions wait); the result is
        rendered by a callback scheduled on the session. Returns whether the data were swapped in."""
        if self._reading is not None:
            notify(f"Still reading {self._reading}: upload {filename} once it is loaded.", kind="info")
            return False
        self._reading = filename
        try:
            parsed = await (
                parse_in_process(content, filename, label_column)
                if self._offload
                else asyncio.to_thread(parse_upload, content, filename, label_column)
            )
            X = parsed[0]
            too_costly = self._over_budget({"dataset": "custom"}, shape=X.shape)
            if too_costly:
                raise datasets.DataError(
                    f"{filename} ({X.shape[0]} rows, {X.shape[1]} features) with these settings "
                    "is beyond this server's budget: " + "; ".join(too_costly)
                )
            self._swapping = True
            loaded, message = await asyncio.wrap_future(self.worker.submit(partial(self._swap, filename, *parsed)))
        except Exception as err:  # a file that cannot be read is reported; nothing has changed
            loaded, message = False, unchanged(err)
        finally:
            self._reading, self._swapping = None, False
        pn.state.execute(partial(self._show_loaded, loaded, message), schedule=True)
        return loaded

    def _swap(self, filename: str, X, y, classes, names) -> tuple[bool, str]:
        """Make a parsed file the data set, under the gate (any thread; touches no Panel or Bokeh object).
        Returns (whether it was swapped in, the message for people)."""
        with self.worker.hold():
            try:
                self.model.set_data(X, y, filename, names, classes=classes)  # encoded once, by the parse
            except Exception as err:  # the Model keeps its data on any failure
                return False, unchanged(err)
            self._custom_shape = X.shape
        return True, (
            f"Loaded {filename}: {len(y)} rows, {X.shape[1]} features; {len(classes)} classes: "
            + ", ".join(str(c) for c in classes)
            + "."
        )

    def _show_loaded(self, loaded: bool, message: str) -> bool:
        notify(message, kind="success" if loaded else "error")
        self.settings.sync()
        self.refresh(force_surface=True)
        return loaded

    def model_copy(self) -> Model:
        """A copy of the session's model as it is now, taken under the gate (exports step and draw the copy)."""
        with self.worker.hold():
            return run_copy(self.model)

    def history_csv(self) -> str:
        """The run's history as CSV, read under the gate (served: from a thread, never on the event loop)."""
        with self.worker.hold():
            return self.model.history.to_csv()

    def close(self) -> None:
        """Stop the worker, the periodic callback and any animation being made (the session ended). Safe to call
        twice. Served, the worker is not waited for (it ends after the chunk or task it is running)."""
        if self._closed:
            return
        self._closed = True
        if self._callback is not None:
            self._callback.stop()
        self.train.stop_animations()
        self.worker.stop(wait=0.0 if self._offload else 5.0)
        self._frames.shutdown(wait=False, cancel_futures=True)
        if self.budget is not None:
            self.budget.stopped(id(self))
        if self._served:
            _forget_views_of(self._session._document)

    def _browser_left(self) -> bool:
        """Whether the page of this served session was closed: it had a connection and has none now. The server
        destroys such a session only after its unused-session lifetime (15–30 s by default), and until then the
        worker would train on and every refresh would push to a closed socket; the refresh asks this instead."""
        session = self._session.session if self._served else None
        if session is None:
            return False
        connected = session.connection_count > 0
        self._was_connected |= connected
        return self._was_connected and not connected

    def _guard(self, action, *args, **kwargs) -> bool:
        """Run action; an exception becomes a notification. Returns whether it succeeded."""
        if self._busy():
            return False
        try:
            action(*args, **kwargs)
        except Exception as err:  # any failure of a user action is reported, the session carries on
            self._report_failure(err)
            return False
        return True

    def _report_failure(self, err: Exception, prefix: str = "") -> None:
        """A notification for a failed action; a diverged kernel step also shows the way on (KERNEL_ADVICE)."""
        notify(prefix + describe(err))
        if isinstance(err, KernelLearningError):
            self.kernel_advice.visible = True

    def _busy(self) -> bool:
        """Whether the worker is doing a submitted action or an uploaded file is being swapped in; if so, says that
        the action has to wait."""
        if self._action is not None:
            notify(f"Still working: {self._action[0]}. Try again once it is done.", kind="info")
            return True
        if self._swapping:
            notify(f"Loading {self._reading}: try again in a moment.", kind="info")
        return self._swapping

    # ------------------------------------------------------------------------------------------------ refresh
    def _visible(self, name: str) -> bool:
        return self.tab_list[self.tabs.active].title == name

    def _replot_surface(self) -> None:
        """A new plane: the points and axes now (cheap, under the gate), the surface computed now (notebook) or in
        the frame thread (served)."""
        with self.worker.hold(timeout=GATE_WAIT if self._offload else None) as taken:
            if not taken:
                notify("The surface is busy: choose the plane again in a moment.", kind="info")
                return
            static = self.surface.reset(self.model, frame=not self._offload)
            self._pending_frame = None  # of the old plane: never shown
        self.surface.build(static)
        if self._offload:
            self.refresh(force_surface=True)

    def refresh(self, force_surface: bool = False) -> None:
        """Render what is new: history rows, status, the surface (when due) and the last minibatch for the Learn
        tab. While training plays, the periodic refresh shows the snapshot the worker published after its last chunk
        and never takes the gate, so training goes on; otherwise (and always after an action: `force_surface`) it
        takes the gate and a snapshot itself, which also catches a new run (reset or configuration change: the old
        curves are archived). Skipped while an uploaded file is swapped in or a submitted action runs (the worker
        holds the gate; the action's end is shown at the first tick after it). Served, the gate is waited for at
        most GATE_WAIT: a tick that cannot have it is skipped (a forced one: the next tick is forced). Once the
        browser has left, stop instead (one quiet log line)."""
        if self._browser_left():
            log.info("Browser page closed: session %s stopped at iteration %d.", self._session.id, self.model.iteration)
            self.close()
            return
        if self._action is not None:
            if not self._action[1].done():
                return
            self._finish_action()
            return
        if self._swapping:
            return
        if self._stepping and not self._running("step"):  # Step's job is done: show where it ended
            self._stepping, force_surface = False, True
        force_surface, self._force_pending = force_surface or self._force_pending, False
        begun = time.perf_counter()
        try:
            self._publisher.local_wanted = self._visible("Learn")
            snapshot = None if force_surface else self._published()
            if snapshot is not None and not self._budget_allows():
                return
            if snapshot is None:
                with self.worker.hold(timeout=GATE_WAIT if self._offload else None) as taken:
                    if taken:
                        snapshot, update = self._collect_under_gate()
                if not taken:
                    self._force_pending = force_surface
                    return
            else:
                update = {"new_run": None}
            update.update(self._collect(snapshot, force_surface, new_run=update["new_run"] is not None))
            with pn.io.hold():  # one message to the page for all of this tick's changes
                self._render(update)
            if snapshot is not None and self.budget is not None:
                self.budget.record(time.perf_counter() - begun)
        except Exception as err:  # never let one bad tick kill the periodic callback
            log.exception("refresh failed")
            notify(f"Refresh failed: {type(err).__name__}: {err}")
        self.refreshes += 1

    def _budget_allows(self) -> bool:
        """While training plays: whether this tick is due by the server's `RefreshBudget` (the session counts as
        training; due ticks are spaced by the budget's interval on average, to within a tick). True without one."""
        if self.budget is None:
            return True
        self.budget.training(id(self))
        now, interval = self.budget.clock(), self.budget.interval()
        if now < self._refresh_due:
            return False
        self._refresh_due = max(self._refresh_due, now - interval) + interval
        return True

    def _published(self) -> Snapshot | None:
        """The worker's latest snapshot if the periodic refresh may show it without the gate: training plays, the
        snapshot is of the run shown, and no study tab (`tabs.StudyTab`, which reads its run under the gate)
        is shown. None otherwise."""
        snapshot = self._publisher.latest
        training = any(self._running(name) for name in TRAINING_JOBS)
        if (
            snapshot is None
            or snapshot.run is not self._trainer
            or not training
            or any(self._visible(study.title) for study in self.studies)
        ):
            return None
        return snapshot

    def _collect_under_gate(self) -> tuple[Snapshot, dict]:
        """Under the gate: a snapshot of the model now, a new run's configuration, data and first surface (if the run
        changed), and the news of the study tab shown (if one is)."""
        model = self.model
        update = {"new_run": None}
        if model.trainer is not self._trainer:  # served: its first frame comes from the frame thread
            prepared, self._prepared = self._prepared, None
            fresh = prepared is not None and prepared[0] is model.trainer  # made by the action, in the worker
            update["new_run"] = prepared[1] if fresh else self._new_run_parts()
            self._trainer, self._consumed = model.trainer, 0
            self._surface_iteration = model.iteration
            self._pending_frame = None  # of the old data: never shown
        update["studies"] = {study.title: study.collect() for study in self.studies if self._visible(study.title)}
        return self._publisher.publish(model), update

    def _collect(self, snapshot: Snapshot, force_surface: bool, new_run: bool) -> dict:
        """What to render of `snapshot` (no gate needed): the rows not yet shown, the status (at most every
        `slow_seconds`, unless forced or a new run), a surface frame (a finished periodic one; a new periodic one is
        started in the frame thread when due; forced: one computed now, or served in the frame thread as well; a new
        run brings its own, or served has one started), the Learn tab's minibatch."""
        now = time.monotonic()
        update = {"iteration": snapshot.iteration, "rows": snapshot.rows_after(self._consumed)}
        self._consumed = max(self._consumed, snapshot.total)
        self._publisher.taken(snapshot.run, self._consumed)
        if self._pending_frame is not None and self._pending_frame.done():
            job, self._pending_frame = self._pending_frame, None
            frame = job.result()
            self._frame_seconds = frame["seconds"]
            still = not force_surface and not new_run and self.surface.unchanged(frame)
            self._still_frames = self._still_frames + 1 if still else 0  # nothing to send: the next frames rarer
            if not still:
                update["frame"] = frame
        if force_surface or new_run or now >= self._slow_due:
            pace = self.budget.slowed() if self.budget is not None and self._published() is not None else None
            update["status"] = (snapshot.iteration, snapshot.status, snapshot.converged, pace)
            self._slow_due = now + self.slow_seconds
        # A frame the user asked for; a new run brings its own, except served (its first frame comes from here).
        wanted = (force_surface and not new_run) or (new_run and self._offload)
        surface_due = wanted or (now >= self._surface_due and snapshot.iteration != self._surface_iteration)
        if self._visible("Train") and surface_due and (wanted or not new_run) and (wanted or not self._pending_frame):
            inputs = self.surface.frame_inputs(snapshot.prediction)
            if wanted and not self._offload:  # the user acted: show the state now; an older frame is dropped
                update["frame"] = self.surface.compute_frame(inputs)
                self._pending_frame = None
            else:  # served, also what the user asked for: shown at the first tick after it is ready
                self._pending_frame = self._frames.submit(self.surface.compute_frame, inputs)
            least = max(self.surface_seconds, self._frame_seconds / SURFACE_SHARE) * 2 ** min(self._still_frames, 3)
            wait = least if self.budget is None or wanted else self.budget.frame_interval(self._frame_seconds, least)
            self._surface_due = now + wait
            self._surface_iteration = snapshot.iteration
        if self._visible("Learn") and snapshot.local is not None and snapshot.iteration != self._learn_iteration:
            update["local"] = snapshot.local
            self._learn_iteration = snapshot.iteration
        return update

    def _render(self, update: dict) -> None:
        t = self.train
        if update["new_run"] is not None:
            config, static, description = update["new_run"]
            t.traces.new_run(config)
            self.surface.build(static)
            self.data.description.object = description
            self.settings.sync()
            self.kernel_advice.visible = False
        t.traces.add(update["rows"])
        if "status" in update:
            t.traces.flush_parameters()
        if "status" in update and update["status"] != self._shown_status:
            iteration, status, converged, pace = update["status"]
            t.show_status(iteration, status, converged, self._trainer, pace)
            self._shown_status = update["status"]
        if "frame" in update:
            self.surface.show(update["frame"])
        if "local" in update:
            self.learn.update_minibatch(update["local"])
        for study in self.studies:
            if study.title in update.get("studies", {}):
                study.render(update["studies"][study.title], self._running(study.title))
        if self.worker.error is not None:
            error, self.worker.error = self.worker.error, None
            self._announced = True
            self._report_failure(error, "Stopped by an error: ")
        if self.worker.finished and not self._announced and self.worker.job is self._jobs.get("train"):
            self._announced = True
            notify(
                f"Converged at iteration {update['iteration']}: {convergence_rule(self._trainer)}. Play has "
                "stopped; press Play to train on.",
                kind="info",
            )
        if not self._served:
            pn.io.push_notebook(self.layout)

    # -------------------------------------------------------------------------------------------------- layout
    @property
    def layout(self) -> pn.Column:
        if not hasattr(self, "_layout"):
            self._layout = pn.Column(header(), self.busy, self.kernel_advice, self.tabs, sizing_mode="stretch_width")
        return self._layout

    def __panel__(self):
        return self.layout


def header() -> pn.pane.Markdown:
    """The page's title and what it is for."""
    return pn.pane.Markdown(
        "## X-GPC Explorer\nPólya-Gamma augmented sparse variational GP classification "
        "(Wenzel et al., AAAI 2019): watch it learn, check it against MCMC, race it, learn how it works.",
        sizing_mode="stretch_width",
    )


def _forget_views_of(document) -> None:
    """Drop Panel's registrations of the views rendered into `document` (a destroyed session's). Panel 1.9 removes
    them when a connected page closes, but a page that was fetched and never opened its websocket leaves them in
    `pn.state._views`, which then keeps the whole session alive for good: measured, 200 such fetches held 2 GB when
    each page held its Dashboard, and each light page still ≈ 170 kB."""
    for ref, (_, _, view_document, _) in list(pn.state._views.items()):
        if view_document is document:
            pn.state._views.pop(ref, None)


def _report(error: Exception) -> None:
    notify(describe(error))


def _closed_page_is_no_error(loop, context: dict) -> None:
    """asyncio exception handler of the server's loop: a message still on its way to a page that has just closed
    fails with tornado's WebSocketClosedError, which Panel leaves unretrieved when the session ends; that is a
    disconnect (logged by Bokeh and the Dashboard as one line each), not an error. Anything else goes to the default
    handler."""
    if isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
        log.debug("a message to a closed page was dropped")
        return
    loop.default_exception_handler(context)


# ---------------------------------------------------------------------------------------------- the served page
PAGE_BUILDERS = 2  # threads that build sessions' pages, for the whole server: a class opening the link at once queues
_builders = ThreadPoolExecutor(max_workers=PAGE_BUILDERS, thread_name_prefix="xgpc-page")


def _page_failed(error: Exception) -> list:
    """What a page that could not be built shows instead: the reason, as text (never a blank page)."""
    log.error("the page could not be built", exc_info=error)
    return [
        pn.pane.Alert(
            f"**X-GPC Explorer could not start:** {markdown_text(describe(error))}",
            alert_type="danger",
            disable_math=True,
        )
    ]


def _building_notice() -> pn.Row:
    return pn.Row(
        pn.indicators.LoadingSpinner(value=True, size=22, width=22, height=22),
        pn.pane.Str("Building the page…", styles={"font-weight": "bold"}),
    )


def build_page(
    page: pn.Column, on_ready: Callable[[Dashboard], None] | None = None, budget: RefreshBudget | None = None
) -> None:
    """Fill `page`, the light page a session was served at once (the header and "Building the page…"), with a
    Dashboard built away from the event loop: the Model, its data and first evaluation, the widgets and figures and
    their Bokeh models are made in a page-builder thread (at most PAGE_BUILDERS at a time, for the whole server), and
    only the swap — attaching the ready models to the page and sending them — runs on the loop, in a next-tick
    callback, where `on_ready(dashboard)` is called; the Dashboard `start`s in the tick after it. A session that ended
    meanwhile gets its Dashboard closed instead. Called on the loop once the page has loaded; a failure shows its reason.
    `budget`: the server's `RefreshBudget`, handed to the Dashboard."""
    document = pn.state.curdoc
    root = next(model for model, _ in page._models.values() if model.document is document)
    ended = threading.Event()
    pn.state.on_session_destroyed(lambda context: ended.set())

    def swap(dashboard: Dashboard | None, error: Exception | None) -> None:
        if error is not None:
            page.objects = _page_failed(error)
            return
        if ended.is_set():
            dashboard.close()
            return
        page.objects = [dashboard.layout]  # the models made in the builder are attached, not made again
        if on_ready is not None:
            on_ready(dashboard)
        document.add_next_tick_callback(partial(begin, dashboard))  # a tick of its own: the loop serves others between

    def begin(dashboard: Dashboard) -> None:
        if ended.is_set():
            dashboard.close()
            return
        dashboard.start()
        if dashboard.model.fallback is not None:  # a damaged data file: the page says so until closed
            notify(dashboard.model.fallback, kind="warning", duration=0)

    def build() -> None:
        dashboard = error = None
        with set_curdoc(document):
            if not ended.is_set():
                try:
                    dashboard = Dashboard(start=False, budget=budget)
                    # its Bokeh models, and the defaults Bokeh reads when they join the page, made here, not on the loop
                    dashboard.layout._get_model(document, root, root).references()
                except Exception as err:  # the page says what went wrong
                    error = err
        document.add_next_tick_callback(partial(swap, dashboard, error))  # (Bokeh: safe from any thread)

    _builders.submit(build)


@cache
def freeze_the_imports() -> None:
    """Once per server process, at its first page: collect the garbage, then move every object alive — the modules
    of numpy, SciPy, Bokeh, HoloViews, Panel and ours, ≈ 0.33 M objects — to the garbage collector's permanent
    generation (`gc.freeze`). A full collection holds the GIL, so it stalls every visitor, and Panel runs one on the
    event loop a few seconds after sessions end; it now walks only what the sessions made. Measured with ten
    Dashboards alive: a full collection took 0.21 s instead of 0.35 s."""
    gc.collect()
    gc.freeze()


def serve_app(on_ready: Callable[[Dashboard], None] | None = None, budget: RefreshBudget | None = None) -> pn.Column:
    """The page for one browser session: BLAS on one thread (DESIGN §8), the upload widget's script, notifications
    on (also for any exception a callback did not handle itself), quiet disconnects. Served, the server's imports out
    of the garbage collector's walk (`freeze_the_imports`, at the first page) and a light page at once
    (nothing computed on the event loop, nothing kept for a page that is fetched and never opened) that `build_page`
    fills once it has loaded; elsewhere (a script) the Dashboard at once. `on_ready(dashboard)` once it is built.
    `budget`: the server's `RefreshBudget`, shared by all its sessions (None: each refreshes at its own period)."""
    threadpool_limits(limits=1)
    pn.extension("filedropper", notifications=True, exception_handler=_report)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not on the server's loop (e.g. called from a script)
        loop = None
    if loop is not None and loop.get_exception_handler() is None:
        loop.set_exception_handler(_closed_page_is_no_error)
    document = pn.state.curdoc
    if document is not None and document.session_context is not None:
        # A session made by its websocket (several server processes: the page came from another) has no page of its
        # own to tell Panel where its stylesheets are: this server's, not the CDN's, which a class offline lacks.
        document._template_variables.setdefault("dist_url", get_dist_path(cdn=False))
    page = pn.Column(header(), _building_notice(), sizing_mode="stretch_width")
    if document is not None and document.session_context is not None:
        freeze_the_imports()
        pn.state.onload(partial(build_page, page, on_ready, budget))
        pn.state.on_session_destroyed(lambda context: _forget_views_of(document))  # also of a page never opened
        return page
    try:
        dashboard = Dashboard(budget=budget)
    except Exception as err:  # the page still comes up and says what went wrong, never blank
        page.objects = _page_failed(err)
        return page
    page.objects = [dashboard.layout]
    if on_ready is not None:
        on_ready(dashboard)
    return page


def serve_in_background(port: int, sessions: list | None = None, budget: RefreshBudget | None = None, **options):
    """Serve the app on 127.0.0.1:`port` from a background thread (tests, benchmarks), appending each session's
    Dashboard to `sessions` once it is built; `budget`: the server's `RefreshBudget` (default: a new one, as
    `xgpc-explorer serve` makes); `options`: more of `pn.serve`'s. Returns the server; stop it with `.stop()` then
    `.join()`."""
    budget = RefreshBudget() if budget is None else budget

    def app() -> pn.Column:  # (a function: Panel would render a partial as a pane of its own)
        return serve_app(None if sessions is None else sessions.append, budget)

    return pn.serve(
        app,
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
        **options,
    )
