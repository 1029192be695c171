"""Settings the page changes — a widget (`apply`) or a shared link's URL query (`open_link`) — each checked against the
budget of one action (`explorer.dashboard.budget`) before any of it is computed, then made by the worker as an
action; settings changed while another action runs are kept and applied together once it is done."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from explorer.dashboard.budget import data_shape, over_budget
from explorer.dashboard.controls import LABELS, configuration, settings_from_query
from explorer.dashboard.notices import describe, notify
from explorer.data import datasets

LINK_PROBLEMS_SHOWN = 5  # problems of a shared link named in its notification


class Changes:
    """The settings changes of one session on its `model`, made as `actions`; `settings` are its widgets,
    `has_upload()` whether a file has been uploaded, `refresh(force_surface=True)` shows the result."""

    def __init__(self, model, session, actions, settings, has_upload: Callable[[], bool], refresh: Callable):
        self.model, self.session, self.actions, self.settings = model, session, actions, settings
        self._has_upload, self._refresh = has_upload, refresh
        self.queued: dict = {}  # settings changed while the worker did an action: applied after it
        self.custom_shape: tuple[int, int] | None = None  # (rows, features) of the uploaded data swapped in

    def over_budget(self, changes: dict, shape: tuple[int, int] | None = None) -> list[str]:
        """Why the model's configuration with `changes` would exceed the budget of one action (empty: it would not).
        `shape`: (rows, features) of the data, if not those `changes` name."""
        # (configuration() names uploaded data by their file name, the budget by "custom")
        config = {**configuration(self.model), "dataset": self.model.dataset, "eval_points": self.model.eval_points}
        config.update(changes)
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
            self._refresh(force_surface=True)

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
            self._refresh(force_surface=True)

        if changes:
            asked = (f"{name} {value!r}" for name, value in changes.items() if value != getattr(self.model, name, None))
            source = "Opened with the settings of a shared link: " + (", ".join(asked) or "the defaults")
            configure = partial(self.actions.failure_of, self.model.configure, changes, source)
            self.actions.act("Opening the link's settings", configure, done, report=False)
        else:
            done(None)
