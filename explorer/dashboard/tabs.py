"""What the dashboard asks of its tabs, so that it (`app.py`, `refresh.py`) loops over them instead of naming each one:
every tab is a Panel viewer on the one protocol of `Tab`, and a tab that runs a study is a `StudyTab` (a new tab:
README, "Architecture")."""

from __future__ import annotations

from dataclasses import dataclass

SNAPSHOT = "snapshot"  # the training's published snapshot (no gate: training goes on)
MINIBATCH = "minibatch"  # that, with the last minibatch's local parameters, which the worker then publishes too
LIVE = "live"  # the tab's own run, read under the worker's gate (the refresh then takes it while the tab is shown)


@dataclass(frozen=True)
class Tick:
    """One refresh, as the tabs see it."""

    snapshot: object
    """The run now (`refresh.Snapshot`): as the worker last published it, or taken by the refresh under the gate."""
    new_run: bool
    """The session has a new run since the last refresh (each tab's `show_run` follows in this refresh)."""
    shown: str
    """The title of the tab shown."""
    forced: bool
    """The user acted (or chose another tab): show the state now."""
    next_within: float = 0.0
    """At most how many seconds until the session's next refresh (what is due before then is shown now)."""


class Tab:
    """The one tab protocol, with its defaults (a tab that shows nothing of the session's run): a tab class derives
    from it beside `pn.viewable.Viewer` and sets `title`."""

    title: str
    """The tab's label (and, for a study tab, the name of its job in the worker)."""
    reads = SNAPSHOT
    """What `collect` reads while the tab is shown: SNAPSHOT, MINIBATCH or LIVE."""

    def prepare(self, model) -> object:
        """What `show_run` needs of the session's new run (under the worker's gate, any thread; no Panel object)."""
        return None

    def show_run(self, prepared) -> None:
        """Show the session's new run (on the page)."""

    def collect(self, tick: Tick | None = None) -> object | None:
        """The news to show at this refresh (None: nothing; no Panel object): from the tick's snapshot, without the
        gate, or, for a tab that `reads` LIVE, from its own run under the gate, only while it is shown."""
        return None

    def render(self, news, running: bool) -> None:
        """Show `collect`'s news on the page."""


class StudyTab(Tab):
    """A tab that runs a headless study of `explorer.studies` (the MCMC comparison, the race) as a job of the
    session's worker: Start and Stop buttons (`start`, `stop`) and `new_run(model, projection)`, the study's run on
    the session's model and the Train tab's plane (called under the worker's gate; its `chunks()` is the job). Its
    `collect` reads that run under the gate while the tab is shown."""

    reads = LIVE
    job_label: str
    """The job for people: "The race" (as in "The race was paused")."""
    starting: str
    """What the page shows while the study starts: "Starting the race"."""

    def problem(self) -> str | None:
        """Why Start cannot run now, for a notification (None: it can)."""
        return None
