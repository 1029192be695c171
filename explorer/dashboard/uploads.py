"""A session's uploaded files: parsed off the event loop (served, in a process of the server's upload parser,
`parsers`; in a notebook in a thread) while the session carries on, checked against the budget of one action, then
swapped in by the session's worker — the refresh skips and other actions wait meanwhile — and the result said in a
notification."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

import panel as pn

from explorer.dashboard import parsers
from explorer.dashboard.notices import notify, unchanged
from explorer.data import datasets


class Uploads:
    """The uploads of one session (`session.Session`) into its `model`; `changes` checks them against the budget,
    `settings` are the widgets, `refresh(force_surface=True)` shows the new data."""

    def __init__(self, model, session, actions, changes, settings, refresh: Callable):
        self.model, self.session, self.worker = model, session, session.worker
        self.actions, self.changes, self.settings, self._refresh = actions, changes, settings, refresh
        self.reading: str | None = None  # the uploaded file being read, if any
        self.swapping = False  # its data are being swapped in: the gate is taken for seconds, so the UI waits

    def loading(self) -> str | None:
        """The file whose data are being swapped in (None: none is)."""
        return self.reading if self.swapping else None

    def load_file(self, content: bytes, filename: str, label_column: str) -> bool:
        """Parse an uploaded CSV and make it the data set, here and now (notebooks, tests; the page uses `read_file`).
        A bad file only raises a notification. Returns whether the data were swapped in."""
        if self.actions.busy():
            return False
        try:
            parsed = parsers.parse_upload(content, filename, label_column)
        except Exception as err:  # a file that cannot be read is reported; nothing has changed
            return self._show_loaded(False, unchanged(err))
        self.worker.pause()
        return self._show_loaded(*self._swap(filename, *parsed))

    async def read_file(self, content: bytes, filename: str, label_column: str) -> bool:
        """`load_file` off the event loop, so that other sessions stay served (see the module); the result is rendered
        by a callback scheduled on the session. Returns whether the data were swapped in."""
        if self.reading is not None:
            notify(f"Still reading {self.reading}: upload {filename} once it is loaded.", kind="info")
            return False
        self.reading = filename
        try:
            parsed = await (
                parsers.parse_in_process(content, filename, label_column)
                if self.session.offload
                else asyncio.to_thread(parsers.parse_upload, content, filename, label_column)
            )
            X = parsed[0]
            too_costly = self.changes.over_budget({"dataset": "custom"}, shape=X.shape)
            if too_costly:
                raise datasets.DataError(
                    f"{filename} ({X.shape[0]} rows, {X.shape[1]} features) with these settings "
                    "is beyond this server's budget: " + "; ".join(too_costly)
                )
            self.swapping = True
            loaded, message = await asyncio.wrap_future(self.worker.submit(partial(self._swap, filename, *parsed)))
        except Exception as err:  # a file that cannot be read is reported; nothing has changed
            loaded, message = False, unchanged(err)
        finally:
            self.reading, self.swapping = None, False
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
            self.changes.custom_shape = X.shape
        return True, (
            f"Loaded {filename}: {len(y)} rows, {X.shape[1]} features; {len(classes)} classes: "
            + ", ".join(str(c) for c in classes)
            + "."
        )

    def _show_loaded(self, loaded: bool, message: str) -> bool:
        notify(message, kind="success" if loaded else "error")
        self.settings.sync()
        self._refresh(force_surface=True)
        return loaded
