"""What the page changes of the session's run — a setting (a widget: `apply`), a shared link's URL query
(`open_link`) or an uploaded file (`read_file`) — each checked against the budget of one action
(`explorer.dashboard.budget`) before any of it is computed, then made by the session's worker. Settings changed while
another action runs are kept and applied together once it is done. A file is parsed off the event loop (served: in a
process of the server's upload parser, `upload.parse_in_process`) and swapped in by the worker — the refresh skips and
other actions wait meanwhile — and the result is said in a notification."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

import panel as pn

from explorer.dashboard import upload
from explorer.dashboard.budget import data_shape, over_budget
from explorer.dashboard.controls import LABELS, settings_from_query
from explorer.dashboard.notices import describe, notify, unchanged
from explorer.data import datasets

LINK_PROBLEMS_SHOWN = 5  # problems of a shared link named in its notification


class Changes:
    """The changes of one session (`session.Session`) on its `model`, made as `actions`; `settings` are its widgets,
    `has_upload()` whether a file has been uploaded, `redraw()` shows the result."""

    def __init__(self, model, session, actions, settings, has_upload: Callable[[], bool], redraw: Callable[[], None]):
        self.model, self.session, self.worker, self.actions = model, session, session.worker, actions
        self.settings, self._has_upload, self._redraw = settings, has_upload, redraw
        self.queued: dict = {}  # settings changed while the worker did an action: applied after it
        self.custom_shape: tuple[int, int] | None = None  # (rows, features) of the uploaded data swapped in
        self.swapping: str | None = None  # the uploaded file being swapped in (the gate is held for seconds)

    def over_budget(self, changes: dict, shape: tuple[int, int] | None = None) -> list[str]:
        """Why the model's configuration with `changes` would exceed the budget of one action (empty: it would not).
        `shape`: (rows, features) of the data, if not those `changes` name."""
        config = {**self.model.config, **changes}  # (uploaded data named "custom", as the budget names them)
        shape = shape or data_shape(config, self.custom_shape)
        return [] if shape is None else over_budget(config, shape, changed=list(changes))

    def apply(self, changes: dict) -> None:
        """Set configuration parameters on the Model (a structural change resets the run and pauses training), unless
        they exceed the budget of one action (a notification names the setting and the limit). Settings changed
        while the worker does another action are applied, together, once it is done."""
        if self.actions.current is not None:
            self.queued.update(changes)
            return
        if self.actions.busy():
            self.settings.sync()
            return
        too_costly = self.over_budget(changes)
        if too_costly:
            now = ", ".join(f"{LABELS[name]} {getattr(self.model, name)!r}" for name in changes if name in LABELS)
            notify("Not applied: " + "; ".join(too_costly) + f". Still {now}.", duration=0)
            self.settings.sync()
            return
        no_upload = changes.get("dataset") == "custom" and not self._has_upload()

        def work() -> None:
            try:
                self.model.param.update(**changes)
            except datasets.DataError as err:
                if no_upload:
                    raise datasets.DataError(
                        "The data set 'custom' is a file you upload: upload a CSV in the Data tab first."
                    ) from err
                raise

        def done(_) -> None:
            if not self.queued:  # (else the widgets keep showing the values typed meanwhile)
                self.settings.sync()
            self._redraw()

        self.actions.act("Applying " + ", ".join(LABELS.get(name, name) for name in changes), work, done)

    def apply_queued(self) -> None:
        """Apply the settings changed while the last action ran, if any."""
        if self.queued:
            changes, self.queued = self.queued, {}
            self.apply(changes)

    def open_link(self, search: str) -> None:
        """Take the settings of a shared link's URL query ('?dataset=moons&n_inducing=30'): the usable ones are applied
        together, in the worker, once the page has come up with the defaults; values that cannot be used, settings
        beyond the budget of one action, or settings the model refuses as a whole, are named in a notification and
        the defaults kept (served pages only)."""
        changes, problems = settings_from_query(search, self.model)
        too_costly = self.over_budget(changes) if changes else []
        if too_costly:
            problems += [f"{problem} — this link's settings are not used, the defaults are" for problem in too_costly]
            changes = {}

        def done(error) -> None:
            if error is not None:  # the Model has rolled the change back: the defaults stay
                problems.append(f"{describe(error)} — this link's settings are not used, the defaults are")
            if problems:
                shown = problems[:LINK_PROBLEMS_SHOWN] + (
                    [f"… and {len(problems) - LINK_PROBLEMS_SHOWN} more"] if len(problems) > LINK_PROBLEMS_SHOWN else []
                )
                self.session.tell("Some settings in this link were not used: " + "; ".join(shown) + ".", duration=0)
            self.settings.sync()
            self._redraw()

        if changes:
            asked = (f"{name} {value!r}" for name, value in changes.items() if value != getattr(self.model, name, None))
            source = "Opened with the settings of a shared link: " + (", ".join(asked) or "the defaults")
            configure = partial(self.actions.failure_of, self.model.configure, changes, source)
            self.actions.act("Opening the link's settings", configure, done, report=False)
        else:
            done(None)

    # ------------------------------------------------------------------------------------------------ uploads
    async def read_file(self, content: bytes, filename: str, label_column: str) -> bool:
        """Parse an uploaded CSV off the event loop (served: in a parser process, so that other sessions stay served)
        and make it the data set; a bad file only raises a notification, rendered by a callback scheduled on the
        session. Returns whether the data were swapped in (the Data tab sends one file at a time)."""
        try:
            parsed = await (
                upload.parse_in_process(content, filename, label_column)
                if self.session.served
                else asyncio.to_thread(upload.parsing(content, filename, label_column))
            )
            X = parsed[0]
            too_costly = self.over_budget({"dataset": "custom"}, shape=X.shape)
            if too_costly:
                raise datasets.DataError(
                    f"{filename} ({X.shape[0]} rows, {X.shape[1]} features) with these settings "
                    "is beyond this server's budget: " + "; ".join(too_costly)
                )
            self.swapping = filename
            loaded, message = await asyncio.wrap_future(self.worker.submit(partial(self._swap, filename, *parsed)))
        except Exception as err:  # a file that cannot be read is reported; nothing has changed
            loaded, message = False, unchanged(err)
        finally:
            self.swapping = None
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
            self.custom_shape = X.shape
        return True, (
            f"Loaded {filename}: {len(y)} rows, {X.shape[1]} features; {len(classes)} classes: "
            + ", ".join(str(c) for c in classes)
            + "."
        )

    def _show_loaded(self, loaded: bool, message: str) -> None:
        notify(message, kind="success" if loaded else "error")
        self.settings.sync()
        self._redraw()
