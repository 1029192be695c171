"""What a session tells its visitor: notifications on its page (the log where there is none) and errors in words.

What a user typed, uploaded or named (file names, column names, class labels, cell values) is shown as text, never
as markup. Notifications and Div-based widgets (StaticText) render HTML; Markdown panes render Markdown and the HTML
inside it: pass such strings through `html_text` or `markdown_text` before they go there.
"""

from __future__ import annotations

import html
import logging
import string

import panel as pn

from explorer.data import datasets

log = logging.getLogger(__name__)
_MARKDOWN_PUNCTUATION = frozenset(string.punctuation)  # CommonMark: any ASCII punctuation may be backslash-escaped


def html_text(value) -> str:
    """str(value) as literal HTML text: & < > " ' become character references."""
    return html.escape(str(value), quote=True)


def markdown_text(value) -> str:
    """str(value) as literal Markdown text on one line: every ASCII punctuation character backslash-escaped (so no
    tag, entity, emphasis, link, emoji or table syntax survives), line breaks as spaces, no space at either end (it
    would break the emphasis around it). Use it in panes built with `disable_math=True`: the browser typesets $…$
    after Markdown has run."""
    line = " ".join(str(value).splitlines()).strip()
    return "".join("\\" + char if char in _MARKDOWN_PUNCTUATION else char for char in line)


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
