"""What the dashboard asks of its tabs, so that `app.py` loops over them instead of naming each one.

Every tab is a Panel viewer with a `title` (its label in the tab bar). A *study tab* runs a headless study of
`explorer.studies` (the MCMC comparison, the race) as a job of the session's worker and follows `StudyTab`: Start
and Stop buttons; `problem()`, what would make Start refuse (None: nothing); `new_run(model, projection)`, the study's
run on the session's model and the Train tab's plane (called under the worker's gate; its `chunks()` is the job);
and, while the tab is shown, `collect()` (under the gate: the run's news) and `render(news, running)` (on the page).
A new study tab is one module with such a class, listed in `Dashboard`'s tabs; the dashboard wires its buttons,
runs its job one at a time with training, and refreshes it while shown.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class StudyTab(Protocol):
    title: str
    """The tab's label, and the name of its job in the worker."""
    job_label: str
    """The job for people: "The race" (as in "The race was paused")."""
    starting: str
    """What the page shows while the study starts: "Starting the race"."""

    def problem(self) -> str | None:
        """Why Start cannot run now, for a notification (None: it can)."""

    def new_run(self, model, projection):
        """The study's run on the session's model (under the worker's gate); its `chunks()` is the worker's job."""

    def collect(self) -> dict | None:
        """The run's news since the last call (under the gate, while the tab is shown)."""

    def render(self, update: dict | None, running: bool) -> None:
        """Show `collect`'s news on the page."""
