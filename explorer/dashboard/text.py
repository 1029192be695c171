"""What a user typed, uploaded or named (file names, column names, class labels, cell values) is shown as text, never
as markup. Notifications and Div-based widgets (StaticText) render HTML; Markdown panes render Markdown and the HTML
inside it: pass such strings through `html_text` or `markdown_text` before they go there."""

from __future__ import annotations

import html
import string

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
