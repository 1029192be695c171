"""Train tab: Play / Pause / Step / Reset, the configuration, the decision surface and the live training curves,
and downloads of the surface and the traces (PNG, SVG or HTML) and of an animation of the next iterations (GIF). The
files are drawn from a copy of the session's model in a thread, off the event loop (`explorer.views.export`); with a
Dask scheduler named, the animation is made on the cluster, the copy sent to a worker (`explorer.dashboard.cluster`)."""

from __future__ import annotations

import asyncio
import functools
import io
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import panel as pn
import param

from explorer import views
from explorer.dashboard import cluster
from explorer.dashboard.controls import ADVANCED, DATA, TRAINING, configuration
from explorer.dashboard.notices import html_text
from explorer.dashboard.tabs import Tab, Tick
from explorer.dashboard.traces import Traces
from explorer.metrics import chance_note
from explorer.run import ELBO_POINTS
from explorer.training import kernel_steps_to_move
from explorer.views import export

CONTROLS_WIDTH = 330  # px: the four run buttons (290 px plus margins) fit on one line
ANIMATION_ITERATIONS = (10, 2000)  # least and most iterations an animation from the page may cover
ANIMATION_FRAMES = 20
ANIMATION_SIZE = dict(width=800, height=600, dpi=80, resolution=40, fps=4)
PROGRESS_SECONDS = 0.25  # how often the progress bar follows an animation being made
EVALUATION_SHARE = 0.25  # while Play runs, evaluations take at most about this share of the wall time
SURFACE_SHARE = 0.1  # periodic surface frames take at most this share of the wall time (slow machine: rarer frames)
EXPORTS = {  # what the Surface and Traces downloads draw: draw(a copy of the session's model, the plane shown)
    "surface": lambda model, plane: views.decision_surface_from_arrays(**views.surface_arrays(model, plane=plane)),
    "traces": lambda model, plane: views.training_traces(model, labels=[model.data_name]),
}


def _download(callback, filename: str, label: str, **layout) -> pn.widgets.FileDownload:
    """A light download button: a click calls `callback` for the file's bytes, saved as `filename`."""
    return pn.widgets.FileDownload(
        callback=callback, filename=filename, label=label, color="light", embed=False, **layout
    )


def convergence_rule(trainer) -> str:
    """The convergence rule of a `training.Trainer`, in words with its numbers."""
    if trainer.convergence == "parameters":
        window = trainer.engine.criterion
        return (
            f"the paper's rule on the global parameters held (mean relative change of η over the last "
            f"{window.window} iterations < {window.threshold:g})"
        )
    if trainer.convergence == "holdout":
        window = trainer.holdout
        return (
            f"the paper's hold-out rule held (mean relative change of the test NLL over the last {window.window} "
            f"evaluations < {window.threshold:g})"
        )
    if trainer.convergence == "no-improvement":
        rule = trainer.no_improvement
        waited = kernel_steps_to_move(trainer.engine)
        return (
            f"early stopping: the test NLL has not improved by {rule.tol:g} in {rule.n_iter_no_change} evaluations"
            + (f", after at least {waited} kernel-learning steps" if waited else "")
        )
    return "no rule is set"


def evaluation_note(trainer) -> str:
    """What the live curves are evaluated on and how often, in words (a `training.Trainer`)."""
    elbo_rows = trainer.engine.n if trainer.elbo_index is None else len(trainer.elbo_index)
    return (
        f"Curves: test NLL and error on {len(trainer.y_eval):,} test rows, ELBO on {elbo_rows:,} training rows "
        f"(larger sets: fixed random subsets, of eval_points test rows and at most {ELBO_POINTS:,} training rows). "
        "Step evaluates every eval_every iterations; "
        f"while Play runs, evaluations are skipped where they would take more than {EVALUATION_SHARE:.0%} of the "
        "time (on large sets: fewer points, each exact for its iteration)."
    )


def animation_bytes(model, *, progress=None, **options) -> bytes:
    """The GIF of `export.animate_training(model, …, progress=progress, **options)` (a copy of `model` is stepped),
    as bytes; made in a thread of the server, or on a Dask worker (`cluster.call_on_cluster`)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "training.gif"
        export.animate_training(model, path, progress=progress, **options)
        return path.read_bytes()


class TrainTab(Tab, pn.viewable.Viewer):
    """Widgets and layout of the Train tab (shows itself in a notebook); the `Dashboard` wires the buttons to its
    worker. Its refresh (`collect`) renders the training's published snapshots; the surface's frames are computed
    from a snapshot's frozen prediction, served in the tab's frame thread, off the event loop."""

    title = "Train"
    surface_seconds = param.Number(default=0.8, bounds=(0.1, None), doc="Least time between surface refreshes")
    slow_seconds = param.Number(
        default=1.0,
        bounds=(0.1, None),
        doc="Least time between refreshes of the status text and the ρ/kernel figure (a text change re-lays out "
        "the page: ≈ 0.4 of a browser core at 6 Hz, measured), and longest between two of the iteration counter "
        "while training plays (it is refreshed at the last refresh before it would be this old)",
    )

    def __init__(self, settings, surface, read, publisher, served: bool):
        """read(what): what(the session's model) as it is now, from any thread (files are drawn from a copy of it);
        `publisher` (`refresh.Publisher`) hands the rows to show; `served`: frames in the frame thread."""
        super().__init__()
        self._publisher, self._served = publisher, served
        self.trainer = None  # of the run shown
        self._shown_status = None
        self._slow_due = 0.0
        self._counter_due = 0.0
        self._surface_due = 0.0
        self._surface_iteration = -1
        self._frames = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xgpc-surface")
        self.pending_frame: Future | None = None  # a periodic frame being computed in the frame thread
        self._frame_seconds = 0.0  # how long the last frame took to compute
        self._still_frames = 0  # periodic frames in a row that looked as the one shown (each waits twice as long)
        self.budget = None  # the server's `budget.RefreshBudget`, if any: periodic frames share its frame share
        self.pace: str | None = None  # why refreshes are slowed now (the budget's words), for the status line
        self._animations: set[threading.Event] = set()  # the stop events of the animations being made
        self.play = pn.widgets.Button(label="▶ Play", color="success", width=72)
        self.pause = pn.widgets.Button(label="❚❚ Pause", color="warning", width=82)
        self.step = pn.widgets.Button(
            label="Step", width=62, description="Advance to the next evaluation (eval_every iterations)"
        )
        self.reset = pn.widgets.Button(label="↺ Reset", width=74, description="Start this run again from the prior")
        self.counter = pn.widgets.StaticText(
            value="iteration 0", width=300, height=28, styles={"font-size": "1.15em", "font-weight": "bold"}
        )
        # grows with its text: never under the Data card
        self.status = pn.widgets.StaticText(value="", width=300, min_height=96, styles={"font-size": "0.85em"})
        self.traces = Traces()
        self.evaluation_note = pn.widgets.StaticText(
            value="", sizing_mode="stretch_width", styles={"font-size": "0.8em", "color": "#555"}
        )
        self.elbo_axis = pn.widgets.RadioButtonGroup(
            options={"ELBO vs iteration": "iteration", "ELBO vs wall time": "seconds"}, value="iteration"
        )
        # a toggle button: its whole text is what one clicks, and its accessible name (Bokeh's checkbox has neither)
        self.log_time = pn.widgets.Toggle(label="log time axis (NLL, error)", value=False, color="light")
        self.clear = pn.widgets.Button(label="Clear earlier runs", color="light")
        self.download = _download(self._history_file, "xgpc-history.csv", "History as CSV")
        self.export_format = pn.widgets.RadioButtonGroup(
            options=["PNG", "SVG", "HTML"], width=160, description="File format of the surface and traces downloads"
        )
        self.surface_file, self.traces_file = (
            _download(functools.partial(self._exported, what), f"xgpc-{what}.png", what.capitalize(), width=90)
            for what in EXPORTS
        )
        self.animation_iterations = pn.widgets.IntInput(
            label="animation: the next … iterations",
            value=200,
            width=200,
            description=f"{ANIMATION_ITERATIONS[0]} to {ANIMATION_ITERATIONS[1]} iterations, run on a copy of this "
            f"model (the run here is not changed), {ANIMATION_FRAMES} frames",
        )
        self.animation_file = _download(self.animation_file_bytes, "xgpc-training.gif", "Animation (GIF)", align="end")
        self.export_progress = pn.indicators.Progress(
            value=0, max=100, visible=False, sizing_mode="stretch_width", height=12
        )
        self.export_status = pn.widgets.StaticText(value="", sizing_mode="stretch_width")
        self.export_format.param.watch(self._name_files, "value")
        self._read = read
        self.elbo_axis.param.watch(lambda e: self.traces.set_elbo_axis(e.new), "value")
        self.log_time.param.watch(self._show_time_axis, "value")
        self._time_panes: list[tuple] = []  # (NLL pane, error pane) of every view built
        self._settings = settings
        self._surface = surface

    def show_status(self, iteration: int, event: str, converged: bool, trainer, pace: str | None = None) -> None:
        """The counter and the status line as of now: the latest evaluation's numbers, which rule declared
        convergence (if one has) and what Play does next — with the warning of `metrics.chance_note` when the run
        converged no better than chance — why refreshes are slowed (`pace`, the server's `RefreshBudget`), and the
        model's last event (`Model.status`, which names its own iteration where it has one)."""
        self.show_counter(iteration, converged)
        row = self.traces.last_row
        lines = []
        if row is not None:
            lines.append(
                f"After {row['iteration']} iterations: test NLL {row['test_nll']:.4f}, error "
                f"{row['test_error']:.3f}, ELBO {row['elbo']:.5g}."
            )
        if converged:
            lines.append(
                f"Converged: {convergence_rule(trainer)}. Play stops here once; press Play to train on "
                "(the curves may still improve slowly)."
            )
            chance = None if row is None else chance_note(row["test_nll"], trainer.y_eval, trainer.engine.n_classes)
            if chance is not None and chance not in event:
                lines.append(chance)
        if pace:
            lines.append(pace)
        if event:
            lines.append(("Last event: " if lines else "") + event)
        self.status.value = "<br>".join(html_text(line) for line in lines)
        self.evaluation_note.value = html_text(evaluation_note(trainer))

    def show_counter(self, iteration: int, converged: bool) -> None:
        self.counter.value = f"iteration {iteration}" + (" · converged" if converged else "")

    async def _history_file(self) -> io.StringIO:
        """The history as CSV, read in a thread (the read waits for the worker's gate, never on the event loop)."""
        return io.StringIO(await asyncio.to_thread(self._read, lambda model: model.history.to_csv()))

    def _name_files(self, event) -> None:
        suffix = event.new.lower()
        self.surface_file.filename, self.traces_file.filename = f"xgpc-surface.{suffix}", f"xgpc-traces.{suffix}"

    async def _exported(self, what: str) -> io.BytesIO:
        """The current surface (on the plane shown) or traces (`EXPORTS[what]`) in the chosen format, drawn from a
        copy of the model in a thread; a failure is shown as text under the buttons (and raised, so that nothing is
        downloaded)."""
        plane, fmt, draw = self._surface.projection, self.export_format.value.lower(), EXPORTS[what]
        self.export_status.value = html_text(f"Drawing the {what}…")
        try:
            data = await asyncio.to_thread(lambda: export.render(draw(self._read(export.run_copy), plane), fmt))
        except Exception as err:
            self.export_status.value = html_text(f"The {what} could not be exported: {type(err).__name__}: {err}")
            raise
        self.export_status.value = ""
        return io.BytesIO(data)

    async def animation_file_bytes(self) -> io.BytesIO:
        """A GIF of the next iterations (the number chosen) of a copy of the model, with progress and errors shown
        below the button."""
        iterations, (low, high) = self.animation_iterations.value, ANIMATION_ITERATIONS
        if iterations is None or not low <= iterations <= high:
            self.export_status.value = html_text(
                f"animation: {iterations} iterations is out of range (from {low} to {high}); nothing was made."
            )
            raise ValueError(f"animation iterations {iterations} out of range")
        plane, every = self._surface.projection, max(1, iterations // ANIMATION_FRAMES)
        done = {"stage": "training", "count": 0, "total": 1}
        # set once this coroutine stops waiting or the session ends (`close`): the animation then ends at its
        # next frame, at home or on the cluster (whose task is cancelled)
        stop = threading.Event()
        self._animations.add(stop)

        def progress(stage: str, count: int, total: int) -> None:  # called in the thread: no Panel object here
            if stop.is_set():
                raise cluster.Cancelled(f"the animation was stopped at {stage} {count}/{total}")
            done.update(stage=stage, count=count, total=total)

        def make() -> tuple[int, bytes]:
            model = self._read(export.run_copy)
            options = dict(iterations=iterations, every=every, plane=plane, **ANIMATION_SIZE)
            if cluster.scheduler() is None:
                return model.iteration, animation_bytes(model, progress=progress, **options)
            # on the cluster: the copy (a `Model`, with its data) is pickled to a worker, the GIF's bytes come back
            job = cluster.call_on_cluster(functools.partial(animation_bytes, **options), (model,), progress)
            return model.iteration, cluster.wait(job, stop)

        self.animation_file.disabled = True
        self.export_progress.param.update(value=0, visible=True)
        task = asyncio.ensure_future(asyncio.to_thread(make))
        try:
            while not task.done():
                share = done["count"] / done["total"]
                self.export_progress.value = int(50 * share + (50 if done["stage"] == "drawing" else 0))
                self.export_status.value = html_text(f"Animation: {done['stage']} {done['count']}/{done['total']}")
                await asyncio.wait([task], timeout=PROGRESS_SECONDS)
            first, data = task.result()
        except Exception as err:
            self.export_status.value = html_text(f"The animation could not be made: {type(err).__name__}: {err}")
            raise
        finally:
            stop.set()
            self._animations.discard(stop)
            self.animation_file.disabled = False
            self.export_progress.visible = False
        self.export_status.value = html_text(
            f"Animation of iterations {first}–{first + iterations} ready ({len(data) / 1e6:.1f} MB)."
        )
        return io.BytesIO(data)

    # ------------------------------------------------------------------------------------------------ refresh
    def prepare(self, model) -> tuple:
        """(configuration, the surface's new data without a frame — served, the frame thread computes it; the first
        run's is computed at once — and the run's trainer) of the model's current run (under the gate)."""
        frame = not self._served or self.trainer is None
        return configuration(model), self._surface.reset(model, frame=frame), model.trainer

    def show_run(self, prepared: tuple) -> None:
        config, static, self.trainer = prepared
        self.traces.new_run(config)
        self._surface.build(static)

    def collect(self, tick: Tick | None = None) -> dict:
        """What to render of the snapshot (no gate needed): the rows not yet shown, the status and the counter at the
        pace of `slow_seconds` (unless forced or a new run), and a surface frame — a finished periodic one, a new one
        started in the frame thread while the tab is shown (`surface_seconds`, rarer when frames are slow:
        `SURFACE_SHARE`), or, forced, one computed now (served: in the frame thread too); a new run brings its own."""
        snapshot, new_run, force_surface = tick.snapshot, tick.new_run, tick.forced
        if new_run:
            self._surface_iteration, self.pending_frame = snapshot.iteration, None  # the old data's frame: never shown
        now = time.monotonic()
        update = {"rows": self._publisher.take(snapshot)}
        if self.pending_frame is not None and self.pending_frame.done():
            job, self.pending_frame = self.pending_frame, None
            frame = job.result()
            self._frame_seconds = frame["seconds"]
            still = not force_surface and not new_run and self._surface.unchanged(frame)
            self._still_frames = self._still_frames + 1 if still else 0  # nothing to send: the next frames rarer
            if not still:
                update["frame"] = frame
        if force_surface or new_run or now >= self._slow_due:
            update["status"] = (snapshot.iteration, snapshot.status, snapshot.converged, self.pace)
            self._slow_due = now + self.slow_seconds
        # the counter at the last refresh before it would be `slow_seconds` old: the page changes at least that often
        if "status" in update or now + tick.next_within >= self._counter_due:
            update["counter"] = (snapshot.iteration, snapshot.converged)
            self._counter_due = now + self.slow_seconds
        # A frame the user asked for; a new run brings its own, except served (its first frame comes from here).
        wanted = (force_surface and not new_run) or (new_run and self._served)
        surface_due = wanted or (now >= self._surface_due and snapshot.iteration != self._surface_iteration)
        shown = tick.shown == self.title
        if shown and surface_due and (wanted or not new_run) and (wanted or not self.pending_frame):
            inputs = self._surface.frame_inputs(snapshot.prediction)
            if wanted and not self._served:  # the user acted: show the state now; an older frame is dropped
                update["frame"] = self._surface.compute_frame(inputs)
                self.pending_frame = None
            else:  # served, also what the user asked for: shown at the first tick after it is ready
                self.pending_frame = self._frames.submit(self._surface.compute_frame, inputs)
            least = max(self.surface_seconds, self._frame_seconds / SURFACE_SHARE) * 2 ** min(self._still_frames, 3)
            wait = least if self.budget is None or wanted else self.budget.frame_interval(self._frame_seconds, least)
            self._surface_due = now + wait
            self._surface_iteration = snapshot.iteration
        return update

    def render(self, news: dict, running: bool) -> None:
        self.traces.add(news["rows"])
        if "status" in news:
            self.traces.flush_parameters()
        if "counter" in news:
            self.show_counter(*news["counter"])
        if "status" in news and news["status"] != self._shown_status:
            iteration, status, converged, pace = news["status"]
            self.show_status(iteration, status, converged, self.trainer, pace)
            self._shown_status = news["status"]
        if "frame" in news:
            self._surface.show(news["frame"])

    def close(self) -> None:
        """The session ended: no frame is made any more, and each animation being made stops at its next frame (one
        on the cluster has its task cancelled), so a visitor who leaves leaves no work behind."""
        for stop in list(self._animations):
            stop.set()
        self._frames.shutdown(wait=False, cancel_futures=True)

    def _show_time_axis(self, event) -> None:
        for panes in self._time_panes:
            for pane, fig in zip(panes, self.traces.time_figures(event.new)):
                pane.object = fig

    def __panel__(self):
        t = self.traces
        panes = tuple(pn.pane.Bokeh(fig) for fig in t.time_figures(self.log_time.value))
        self._time_panes.append(panes)
        # The buttons wrap inside the column rather than spill under the surface beside it (a click on Reset once
        # landed on the surface's p(y=1) toggle at 1280–1920 px).
        controls = pn.Column(
            pn.FlexBox(self.play, self.pause, self.step, self.reset, flex_wrap="wrap", sizing_mode="stretch_width"),
            self.counter,
            self.status,
            pn.Card(self._settings.group(DATA), title="Data (more on the Data tab)", collapsed=False),
            pn.Card(self._settings.group(TRAINING), title="Method and training", collapsed=False),
            pn.Card(self._settings.group(ADVANCED), title="Advanced (the method's further options)", collapsed=True),
            width=CONTROLS_WIDTH,
        )
        curves = pn.Column(
            pn.FlexBox(self.elbo_axis, self.log_time, self.clear, self.download),
            self.evaluation_note,
            pn.pane.Bokeh(t.elbo),
            *panes,
            pn.pane.Bokeh(t.params),
            sizing_mode="stretch_width",
            min_width=380,
            styles={"flex": "1 1 380px"},
        )
        # under the surface, where a 1000-px high window still shows it
        export = pn.Card(
            pn.FlexBox(self.export_format, self.surface_file, self.traces_file),
            pn.FlexBox(self.animation_iterations, self.animation_file),
            self.export_progress,
            self.export_status,
            title="Export for slides",
            collapsed=False,
            sizing_mode="stretch_width",
        )
        # Side by side where they fit, wrapped where not (on a 1024-px projector the curves go below)
        return pn.FlexBox(
            controls,
            pn.Column(self._surface, export, sizing_mode="stretch_width", min_width=480, styles={"flex": "1 1 480px"}),
            curves,
            flex_wrap="wrap",
            sizing_mode="stretch_width",
        )
