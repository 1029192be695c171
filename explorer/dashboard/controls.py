"""Widgets for the Model's configuration. They are not linked to the Model directly: a change goes through
`apply` (the dashboard pauses the worker and sets the parameter under the gate), and `sync` shows the Model's
values again afterwards (also after a rejected change, which the Model rolls back).

A typed value outside a setting's range is refused visibly: the box goes back to the value in use and a notification
names the setting, the value typed and the range (the browser's own number boxes would keep showing it while sending
nothing, so they are given no limits of their own).

The settings also travel in the page's URL (`query_string`, `settings_from_query`): a link opens the same data set,
method and settings; a value in a link that cannot be used is named in words and the default kept."""

from __future__ import annotations

import math
import re
from functools import partial
from urllib.parse import parse_qsl, urlencode

import panel as pn
import param

from explorer.data import datasets
from explorer.kernels import KERNELS

DATA = ("dataset", "n_points", "noise", "train_fraction", "seed")
TRAINING = (
    "method",
    "n_inducing",
    "batch_size",
    "step_size",
    "rho",
    "tau",
    "kappa",
    "learn_hyperparameters",
    "hyper_learning_rate",
    "kernel",
    "ard",
    "lengthscale",
    "variance",
    "nugget",
    "eval_every",
)
CONFIGURATION = DATA + TRAINING
LABELS = {
    "dataset": "data set",
    "n_points": "points (built-in sets)",
    "noise": "noise (empty: the set's default)",
    "train_fraction": "train fraction",
    "seed": "seed",
    "method": "method",
    "n_inducing": "inducing points m",
    "batch_size": "minibatch size s",
    "step_size": "step-size rule",
    "rho": "constant ρ",
    "tau": "Robbins–Monro delay τ",
    "kappa": "Robbins–Monro rate κ",
    "learn_hyperparameters": "learn ℓ and σ² (Adam)",
    "hyper_learning_rate": "Adam learning rate",
    "kernel": "kernel",
    "ard": "one lengthscale per feature (ARD)",
    "lengthscale": "initial lengthscale ℓ",
    "variance": "initial variance σ²",
    "nugget": "nugget γ",
    "eval_every": "evaluate every … iterations",
}


SHORT_LABELS = {  # settings in the legend of earlier runs, where space is short
    "dataset": "data",
    "n_points": "points",
    "noise": "noise",
    "train_fraction": "train fraction",
    "seed": "seed",
    "method": "method",
    "n_inducing": "inducing points",
    "batch_size": "minibatch size",
    "step_size": "step-size rule",
    "rho": "ρ",
    "tau": "τ",
    "kappa": "κ",
    "learn_hyperparameters": "learn ℓ and σ²",
    "hyper_learning_rate": "Adam rate",
    "kernel": "kernel",
    "ard": "ARD",
    "lengthscale": "initial ℓ",
    "variance": "initial σ²",
    "nugget": "nugget γ",
    "eval_every": "evaluate every",
}


def configuration(model) -> dict:
    """The model's configuration values, by name (custom data by the name it was given)."""
    return {name: model.data_name if name == "dataset" else getattr(model, name) for name in CONFIGURATION}


def _in_words(name: str, value) -> str:
    """A setting's value in a run label: a kernel by its family name, None as "default", booleans as on/off."""
    value = _shown(name, value)
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def describe_change(before: dict, after: dict) -> str:
    """'inducing points 30 → 50, seed 0 → 1': the settings in which configuration `after` differs from `before`, in
    words ('same settings' if none)."""
    changed = [
        f"{SHORT_LABELS.get(name, name)} {_in_words(name, before[name])} → {_in_words(name, after[name])}"
        for name in after
        if name in before and before[name] != after[name]
    ]
    return ", ".join(changed) if changed else "same settings"


def out_of_range(parameter: param.Parameter, value, label: str) -> str | None:
    """Why `value` cannot be set on the numeric `parameter` (shown as `label`), in words; None if it can."""
    if value is None:
        return None if parameter.allow_None else f"{label} needs a value"
    low, high = getattr(parameter, "bounds", None) or (None, None)
    low_inclusive, high_inclusive = getattr(parameter, "inclusive_bounds", (True, True))
    too_low = low is not None and (value < low or (value == low and not low_inclusive))
    too_high = high is not None and (value > high or (value == high and not high_inclusive))
    if not (too_low or too_high):
        return None
    if low is not None and high is not None:
        allowed = f"from {low:g} to {high:g}"
    elif low is not None:
        allowed = f"{'at least' if low_inclusive else 'above'} {low:g}"
    else:
        allowed = f"{'at most' if high_inclusive else 'below'} {high:g}"
    return f"{label}: {value:g} is out of range ({allowed})"


def _options(parameter: param.Parameter) -> list | None:
    """The choices of a selector parameter (the kernel families by name for `kernel`); None for other parameters."""
    if parameter.name == "kernel":
        return list(KERNELS)
    return list(parameter.objects) if isinstance(parameter, param.Selector) else None


def _shown(name: str, value):
    """A parameter value as its widget shows it: a `Kernel` object as its family name."""
    return getattr(value, "name", value) if name == "kernel" else value


def _widget(parameter: param.Parameter, value, label: str):
    bounds = getattr(parameter, "bounds", None) or (None, None)
    common = dict(label=label, description=parameter.doc, sizing_mode="stretch_width")
    options = _options(parameter)
    if options is not None:
        return pn.widgets.Select(options=options, value=_shown(parameter.name, value), **common)
    if isinstance(parameter, param.Boolean):
        return pn.widgets.Checkbox(value=value, label=label, sizing_mode="stretch_width")
    if isinstance(parameter, param.Integer):
        return pn.widgets.IntInput(value=value, **common)
    if parameter.name == "train_fraction":
        return pn.widgets.FloatSlider(
            value=value, start=bounds[0], end=bounds[1], step=0.05, label=label, sizing_mode="stretch_width"
        )
    step = 0.01 if parameter.name in ("noise", "rho") else 0.1
    return pn.widgets.FloatInput(value=value, step=step, format="0[.]000000", **common)


LINK_VALUE_CHARS = 60  # longest value of a link quoted back in a message
LINK_MOST_SETTINGS = 2 * len(CONFIGURATION)  # settings of a link read at most: the app's own links hold each once
KERNEL_SETTINGS = ("kernel", "ard", "lengthscale", "variance", "nugget")  # left out of a link for a `Kernel` object


def query_string(model) -> str:
    """The model's configuration as a URL query, '?dataset=moons&n_inducing=30&…' (every setting, so a link means the
    same when defaults change; `noise=` is the set's default). Uploaded data and a `Kernel` object cannot travel in a
    link: the data set and the kernel settings are then left out."""
    query = {}
    for name in CONFIGURATION:
        value = getattr(model, name)
        custom_kernel = name in KERNEL_SETTINGS and not isinstance(model.kernel, str)
        if (name == "dataset" and value == "custom") or custom_kernel:
            continue
        query[name] = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return "?" + urlencode(query)


def settings_from_query(search: str, model) -> tuple[dict, list[str]]:
    """The settings a URL query ('?dataset=moons&seed=3') asks for, checked against the model's parameters (names,
    types, choices, ranges): (changes to apply, problems in words — each names the setting and the value, which is
    to be shown as text). Unknown names and unusable values are left out; the model is not touched. At most
    LINK_MOST_SETTINGS settings are read; a setting given more than once takes its last value, and both are said.

    (Longer links never reach the app: the web server, Tornado, answers a query of more than 1,000 parameters with an
    empty "400 Bad Request" and closes the connection on a request line and headers over 64 KiB.)"""
    changes, problems = {}, []
    pairs = parse_qsl(search.lstrip("?"), keep_blank_values=True)
    if len(pairs) > LINK_MOST_SETTINGS:
        problems.append(f"the link holds {len(pairs)} settings; only the first {LINK_MOST_SETTINGS} were read")
        pairs = pairs[:LINK_MOST_SETTINGS]
    names = [name for name, _ in pairs]
    problems += [
        f"{name} is given {names.count(name)} times in the link; the last value is used"
        for name in CONFIGURATION
        if names.count(name) > 1
    ]
    for name, text in pairs:
        quoted = repr(text if len(text) <= LINK_VALUE_CHARS else text[:LINK_VALUE_CHARS] + "…")
        if name not in CONFIGURATION:
            shown = repr(name if len(name) <= LINK_VALUE_CHARS else name[:LINK_VALUE_CHARS] + "…")
            problems.append(f"unknown setting {shown}")
            continue
        try:
            value = _link_value(model.param[name], text)
        except ValueError as err:
            problems.append(f"{LABELS[name]}: {quoted} {err}")
            continue
        parameter = model.param[name]
        problem = out_of_range(parameter, value, LABELS[name]) if isinstance(parameter, param.Number) else None
        if problem is not None:
            problems.append(problem)
            continue
        changes[name] = value
    return changes, problems


def _link_value(parameter: param.Parameter, text: str):
    """A setting's value from its text in a link; ValueError (the reason, in words) if it cannot be one."""
    options = _options(parameter)
    if options is not None:
        if text not in options or text == "custom":
            raise ValueError(f"is not one of {', '.join(o for o in options if o != 'custom')}")
        return text
    if isinstance(parameter, param.Boolean):
        if text.lower() not in ("true", "false"):
            raise ValueError("is not true or false")
        return text.lower() == "true"
    if isinstance(parameter, param.Integer):
        if not re.fullmatch(r"[+-]?[0-9]{1,12}", text):
            raise ValueError("is not a whole number")
        return int(text)
    if text == "" and parameter.allow_None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError("is not a number") from None
    if not math.isfinite(value):
        raise ValueError("is not a finite number")
    return value


class Settings:
    """Builds widget groups for configuration names (`group(names)`, callable more than once: each call makes new
    widgets, so the same setting can appear on two tabs) and keeps every copy in step with the Model."""

    def __init__(self, model, apply, refuse, location=None):
        """apply(changes: dict) sets values on the model; refuse(message) tells the user why a value was not set;
        a `pn.state.location` (served page) is kept showing the settings in its URL."""
        self._model = model
        self._location = location
        self._apply = apply
        self._refuse = refuse
        self._widgets: dict[str, list] = {name: [] for name in CONFIGURATION}
        self._syncing = False

    def group(self, names) -> pn.Column:
        widgets = []
        for name in names:
            widget = _widget(self._model.param[name], getattr(self._model, name), LABELS[name])
            event = "value_throttled" if isinstance(widget, pn.widgets.FloatSlider) else "value"
            widget.param.watch(partial(self._changed, name), event)
            self._widgets[name].append(widget)
            widgets.append(widget)
        self._update_visibility()
        return pn.Column(*widgets, sizing_mode="stretch_width")

    def widgets(self, name: str) -> list:
        """Every widget built for configuration parameter `name`."""
        return list(self._widgets[name])

    def _changed(self, name, event):
        if self._syncing or event.new == _shown(name, getattr(self._model, name)):
            return
        parameter = self._model.param[name]
        problem = out_of_range(parameter, event.new, LABELS[name]) if isinstance(parameter, param.Number) else None
        if problem is not None:
            self._refuse(f"{problem}; still {getattr(self._model, name)}.")
            self.sync()
            return
        self._apply({name: event.new})

    def sync(self) -> None:
        """Show the Model's current values and options in every widget (without applying anything)."""
        self._syncing = True
        try:
            for name, widgets in self._widgets.items():
                value = _shown(name, getattr(self._model, name))
                for widget in widgets:
                    if isinstance(widget, pn.widgets.Select):
                        widget.options = _options(self._model.param[name])
                    if widget.value != value:
                        widget.value = value
        finally:
            self._syncing = False
        self._update_visibility()
        if self._location is not None:
            self._location.search = query_string(self._model)

    def _update_visibility(self) -> None:
        """Show only the settings that apply: n and noise for built-in sets, the constants of the chosen rule, the
        initial kernel parameters unless a kernel object brought its own."""
        model = self._model
        by_name = isinstance(model.kernel, str)
        show = {
            "n_points": model.dataset in datasets.BUILTIN,
            "noise": model.dataset in datasets.BUILTIN,
            "rho": model.step_size == "constant",
            "tau": model.step_size == "robbins-monro",
            "kappa": model.step_size == "robbins-monro",
            "hyper_learning_rate": model.learn_hyperparameters,
            "ard": by_name,
            "lengthscale": by_name,
            "variance": by_name,
            "nugget": by_name,
        }
        for name, visible in show.items():
            for widget in self._widgets[name]:
                widget.visible = visible
        if model.dataset in datasets.DEFAULT_NOISE:
            for widget in self._widgets["noise"]:
                widget.placeholder = f"default {datasets.DEFAULT_NOISE[model.dataset]}"
