"""One browser session's machinery: its worker thread, where everything the session computes runs, never on the
server's event loop (`Worker`, DESIGN §8); the session's lifecycle and its worker's gate as the page takes it
(`Session`); the one-off tasks the page asks of the worker (`Actions`) and what the worker runs over and over while
playing, training or a study, one at a time (`Jobs`). Served, nothing a session computes runs on the event loop,
which every visitor shares (issue 19); in a notebook the same actions run at once.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial

import panel as pn

from explorer.dashboard import cluster
from explorer.dashboard.notices import html_text, notify, working
from explorer.dashboard.tabs import StudyTab
from explorer.dashboard.train import EVALUATION_SHARE
from explorer.data import datasets

GATE_WAIT = 0.05  # s: the longest the event loop waits for the worker's gate (the end of a chunk) in a refresh
CHUNK_SECONDS = 0.015  # target length of a worker chunk: the UI waits at most this (plus an evaluation) for the gate
TRAINING_JOBS = ("train", "step")


class Worker:
    """One session's background thread, which never touches Panel or Bokeh objects: calls `job()` over and over while
    playing. A job does one short chunk of work (≈ 10–50 ms) and returns True
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
        self.job: Callable[[], bool] | None = None  # the job played (set by `play`)
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

    def play(self, job: Callable[[], bool], take_turns: bool = False) -> None:
        """Run `job` repeatedly from now on (replacing any other job). Returns at once: the job starts after the
        chunk or task now running. `take_turns`: each chunk waits for its turn among the server's sessions
        (`turns`, a `budget.Turns`, when the worker has one) before it takes the gate."""
        with self._count_lock:
            self.job = job
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
                job, takes_turns = self.job, self._job_takes_turns
            turns = self.turns if takes_turns else None
            with turns.turn(self) if turns is not None else contextlib.nullcontext(True) as turn:
                if turn:  # (not interrupted while it waited: a new job, a task, Pause or stop came first)
                    self._run_chunk(job)

    def _run_chunk(self, job: Callable[[], bool] | None) -> None:
        """One chunk of `job`, under the gate, unless the worker was paused, given a task or another job meanwhile
        (the other job's next chunk then waits for its own turn, if it takes turns)."""
        with self._gate:
            if not self._playing.is_set() or job is None or job is not self.job or self._stopped or self._tasks:
                return
            try:
                done = job()
            except Exception as err:  # reported by the UI as a notification
                self.error, done = err, True
            if done:
                with self._count_lock:
                    if self.job is job:  # not replaced by `play` meanwhile
                        self.finished = True
                        self._playing.clear()


def forget_views_of(document) -> None:
    """Drop Panel's registrations of the views rendered into `document` (a destroyed session's). Panel 1.9 removes
    them when a connected page closes, but a page that was fetched and never opened its websocket leaves them in
    `pn.state._views`, which then keeps the whole session alive for good (BENCHMARKS.md, issue 33)."""
    for ref, (_, _, view_document, _) in list(pn.state._views.items()):
        if view_document is document:
            pn.state._views.pop(ref, None)


class Session:
    """The session of the current Bokeh document (none in a notebook) and its worker thread: whether it is served
    (then everything it computes runs in the worker) or in a notebook (at once), the messages kept until the page has
    loaded, whether the browser has left, and what closing the session ends."""

    def __init__(self):
        self.worker = Worker()
        self.context = pn.state.curdoc.session_context if pn.state.curdoc else None
        self.served = self.context is not None  # then everything it computes runs in the worker (notebook: at once)
        self.loaded = not self.served
        self._after_load: list = []  # messages for a page that has not loaded yet
        self._was_connected = False
        self.closed = False

    @property
    def id(self) -> str | None:
        return self.context.id if self.served else None

    def gate(self):
        """The worker's gate for the page: served, waited for at most GATE_WAIT (the block gets False if it was not
        taken and must then not touch the job's state); in a notebook, as long as needed."""
        return self.worker.hold(timeout=GATE_WAIT if self.served else None)

    def page_loaded(self) -> None:
        """The page has loaded: the messages kept for it are shown."""
        self.loaded = True
        for message in self._after_load:
            message()
        self._after_load.clear()

    def tell(self, message: str, **options) -> None:
        """notify(message), or once the page has loaded (a notification sent before is lost)."""
        if self.loaded:
            notify(message, **options)
        else:
            self._after_load.append(partial(notify, message, **options))

    def browser_left(self) -> bool:
        """Whether the page of this served session was closed: it had a connection and has none now. The server
        destroys such a session only after its unused-session lifetime (15–30 s by default), and until then the
        worker would train on and every refresh would push to a closed socket; the refresh asks this instead."""
        session = self.context.session if self.served else None
        if session is None:
            return False
        connected = session.connection_count > 0
        self._was_connected |= connected
        return self._was_connected and not connected

    def close(self) -> None:
        """Stop the worker (served, not waited for: it ends after the chunk or task it is running) and forget the
        page's views."""
        self.closed = True
        self.worker.stop(wait=0.0 if self.served else 5.0)
        if self.served:
            forget_views_of(self.context._document)


class Actions:
    """The action queue of one `Session`: one-off tasks the page asks of the worker (reset, a new setting, a shared
    link's settings, adding a point, starting a study …), one at a time, completed in three phases. (1) `act` submits
    the work to the worker (served; in a notebook it runs at once), shows what it is working on with a spinner,
    disables the action `buttons` and refuses other actions meanwhile (`busy`). (2) The worker runs the work and, if
    it made a new run, what the page needs to show it (`prepare`, there rather than on the event loop). (3) The
    refresh sees the task done and calls `finish`: the result goes to the action's `then` on the page (a failure is a
    notification), and what was waiting for the action follows (`after`: the settings changed meanwhile).
    `report_failure(error)` says that an action failed; `loading()` names the uploaded file being swapped in (None:
    none is), which also refuses actions."""

    def __init__(self, session, report_failure: Callable[[Exception], None], loading: Callable[[], str | None]):
        self.session, self.worker = session, session.worker
        self._report_failure, self._loading = report_failure, loading
        self.current: tuple | None = None  # (what, its future, then, report) while the worker does a task
        self.prepare: Callable[[], None] = lambda: None  # (2): in the worker after the work (a new run's parts)
        self.after: Callable[[], None] = lambda: None  # (3): after each action's `then`
        self.buttons: tuple = ()  # disabled while an action runs
        self.working = pn.widgets.StaticText(value="", styles={"font-weight": "bold"})
        self.row = working(self.working, visible=False)

    def act(
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
        if self.busy():
            return
        if self.session.served:
            future = self.worker.submit(partial(self._then_prepare, work))
            self.current = (label, future, then or (lambda _: None), report)
            self.show_busy(label)
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
        """work() in the worker, then what the page needs to show a new run it made (`prepare`). Returns work's
        result."""
        result = work()
        self.prepare()
        return result

    def finish(self) -> None:
        """If the worker has done the submitted task: say so, and run what follows it on the page."""
        label, future, then, report = self.current
        if not future.done():
            return
        self.current = None
        self.show_busy(None)
        try:
            result = future.result()
        except Exception as err:  # the action failed: the Model kept its state
            if report:
                self._report_failure(err)
            result = None
        then(result)
        self.after()

    def show_busy(self, label: str | None) -> None:
        """Show that the worker is working on `label` (None: it is done) and disable the action buttons meanwhile."""
        self.working.value = html_text(f"Working: {label}…" if label else "")
        self.row.visible = label is not None
        for button in self.buttons:
            button.disabled = label is not None

    def busy(self) -> bool:
        """Whether the worker is doing a submitted action or an uploaded file is being swapped in; if so, says that
        the action has to wait."""
        if self.current is not None:
            notify(f"Still working: {self.current[0]}. Try again once it is done.", kind="info")
            return True
        loading = self._loading()
        if loading is not None:
            notify(f"Loading {loading}: try again in a moment.", kind="info")
        return loading is not None

    def guard(self, action: Callable[[], None]) -> None:
        """Run action() unless busy; an exception becomes a notification."""
        if self.busy():
            return
        try:
            action()
        except Exception as err:  # any failure of a user action is reported, the session carries on
            self._report_failure(err)

    @staticmethod
    def failure_of(action, *args, **kwargs) -> Exception | None:
        """Run action; its exception, returned (None if it succeeded)."""
        try:
            action(*args, **kwargs)
        except Exception as err:  # returned to the caller, which says what it means
            return err
        return None


def stepper(generator):
    """A worker job that advances `generator` by one step per call and reports True once it is exhausted;
    `job.close()` (in the worker) ends the generator."""

    def job() -> bool:
        for _ in generator:
            return False
        return True

    job.close = generator.close
    return job


class Jobs:
    """The jobs of one `Session` on its `model`, what its worker runs over and over while playing — training (Play;
    Step too when served, to the next evaluation) or the study of a study tab (`tabs.StudyTab`: the MCMC comparison,
    the race; on the Dask cluster when one is named) — one at a time: a job that starts pauses the other, and the page
    says so. Each published snapshot goes to `publisher`; a study starts once the worker is idle (an empty action)."""

    def __init__(self, session, model, publisher, studies: tuple[StudyTab, ...], actions):
        self.session, self.worker = session, session.worker
        self.model, self.publisher, self.studies, self.actions = model, publisher, studies, actions
        self._jobs: dict = {}
        self.announced = True  # the end of the training job has been announced (or there is none to announce)
        self.stepping = False  # Step runs as a job (served): the refresh shows where it ended

    def training_job(self, to_next_evaluation: bool = False) -> Callable[[], bool]:
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
            self.publisher.publish(model)
            if to_next_evaluation:
                return model.iteration >= state["target"]
            return stop_at_convergence and model.converged

        return chunk

    def start_study(self, study: StudyTab, projection: Callable[[], object]) -> None:
        """Run the study tab's study (the MCMC comparison, the race) on the model's current data, kernel and plane
        (`projection()`, read once the worker is idle) as the worker's job (training pauses meanwhile)."""
        problem = study.problem()
        if problem is not None:
            notify(problem)
            return

        def start() -> None:
            try:
                with self.worker.hold():
                    run = study.new_run(self.model, projection())
            except datasets.DataError as err:  # e.g. no chosen method takes the data's classes: nothing started
                notify(str(err))
                return
            remote = cluster.scheduler() is not None and hasattr(run, "mirror")  # the run goes to the Dask cluster
            self.start(study.title, stepper(cluster.on_cluster(run) if remote else run.chunks()))

        self.actions.act(study.starting, lambda: None, lambda _: start())  # once the worker is idle (its job paused)

    def stop(self, name: str) -> None:
        """Stop a study: its job pauses and its run ends (in the worker; a run on the Dask cluster is cancelled)."""
        if self.running(name):
            self.worker.pause(wait=not self.session.served)
            self.worker.submit(self._jobs[name].close)

    def running(self, name: str) -> bool:
        return self.worker.playing and self.worker.job is self._jobs.get(name)

    def start(self, name: str, job) -> None:
        jobs = [(study.title, study.job_label) for study in self.studies] + [("train", "Training")]
        for other, label in jobs:
            if other != name and self.running(other):
                notify(f"{label} was paused: one job runs at a time per session.", kind="info")
        self._jobs[name] = job
        self.announced = False
        self.worker.play(job, take_turns=name in TRAINING_JOBS)

    def training_finished(self) -> bool:
        """Whether the training job (Play) has ended by itself (converged) and not been announced yet."""
        return self.worker.finished and not self.announced and self.worker.job is self._jobs.get("train")
