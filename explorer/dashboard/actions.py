"""A session's actions: one-off tasks the page asks of the worker (reset, a new setting, a shared link's settings,
adding a point, starting a study …), one at a time, completed in three phases. (1) `act` submits the work to the
session's worker (served; in a notebook it runs at once), shows what it is working on with a spinner, disables the
action buttons and refuses other actions meanwhile (`busy`). (2) The worker runs the work and, if it made a new run,
prepares what the page needs to show it (`prepare`, there rather than on the event loop). (3) The refresh sees the
task done and calls `finish`: the result goes to the action's `then` on the page (a failure is a notification), and
what was waiting for the action follows (`after`: the settings changed meanwhile)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import panel as pn

from explorer.dashboard.notices import notify, working
from explorer.dashboard.text import html_text


class Actions:
    """The action queue of one session (`session.Session`). `report_failure(error)` says that an action failed;
    `loading()` names the uploaded file being swapped in (None: none is), which also refuses actions."""

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
        if self.session.offload:
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

    def done(self) -> bool:
        """Whether the worker has done the submitted task (True also when there is none)."""
        return self.current is None or self.current[1].done()

    def finish(self) -> None:
        """The worker has done the submitted task: say so, and run what follows it on the page."""
        label, future, then, report = self.current
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

    def guard(self, action, *args, **kwargs) -> bool:
        """Run action; an exception becomes a notification. Returns whether it succeeded."""
        if self.busy():
            return False
        try:
            action(*args, **kwargs)
        except Exception as err:  # any failure of a user action is reported, the session carries on
            self._report_failure(err)
            return False
        return True

    @staticmethod
    def failure_of(action, *args, **kwargs) -> Exception | None:
        """Run action; its exception, returned (None if it succeeded)."""
        try:
            action(*args, **kwargs)
        except Exception as err:  # returned to the caller, which says what it means
            return err
        return None
