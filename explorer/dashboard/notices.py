"""What a session tells its visitor: notifications on its page (the log where there is none) and errors in words."""

from __future__ import annotations

import logging

import panel as pn

from explorer.dashboard.text import html_text
from explorer.data import datasets

log = logging.getLogger(__name__)


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


def working(text, **params) -> pn.Row:
    """A spinner beside `text` (a Panel object): how the page shows that work is under way."""
    return pn.Row(pn.indicators.LoadingSpinner(value=True, size=22, width=22, height=22), text, **params)


def describe(error: Exception) -> str:
    """An exception in words for people: a DataError says everything itself, others name their type."""
    return str(error) if isinstance(error, datasets.DataError) else f"{type(error).__name__}: {error}"


def unchanged(error: Exception) -> str:
    return f"{describe(error)}. The current run is unchanged."


def report(error: Exception) -> None:
    """The page's handler of an exception that a callback did not handle itself: a notification."""
    notify(describe(error))
