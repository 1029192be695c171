"""One browser session's lifecycle and its worker's gate as the page takes it: whether the session is served (then
everything it computes runs in its worker, off the event loop) or in a notebook (at once), the worker thread, the
messages kept until the page has loaded, whether the browser has left, and what closing the session ends."""

from __future__ import annotations

from functools import partial

import panel as pn

from explorer.dashboard.notices import notify
from explorer.dashboard.worker import Worker

GATE_WAIT = 0.05  # s: the longest the event loop waits for the worker's gate (the end of a chunk) in a refresh


def forget_views_of(document) -> None:
    """Drop Panel's registrations of the views rendered into `document` (a destroyed session's). Panel 1.9 removes
    them when a connected page closes, but a page that was fetched and never opened its websocket leaves them in
    `pn.state._views`, which then keeps the whole session alive for good (BENCHMARKS.md, issue 33)."""
    for ref, (_, _, view_document, _) in list(pn.state._views.items()):
        if view_document is document:
            pn.state._views.pop(ref, None)


class Session:
    """The session of the current Bokeh document (none in a notebook) and its worker thread."""

    def __init__(self):
        self.worker = Worker()
        self.context = pn.state.curdoc.session_context if pn.state.curdoc else None
        self.served = self.context is not None
        self.offload = self.served  # served: every computing action in the worker (in a notebook: at once)
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
        return self.worker.hold(timeout=GATE_WAIT if self.offload else None)

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
        self.worker.stop(wait=0.0 if self.offload else 5.0)
        if self.served:
            forget_views_of(self.context._document)
