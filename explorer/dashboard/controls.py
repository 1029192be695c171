"""Widgets for the Model's configuration, each derived from its declaration (`explorer.settings`: kind, choices,
bounds, label, help; the URL keys are the settings' names). They are not linked to the Model directly: a change goes through
`apply` (the dashboard pauses the worker and sets the parameter under the gate), and `sync` shows the Model's
values again afterwards (also after a rejected change, which the Model rolls back). A typed value outside a setting's
range is refused visibly: the box goes back to the value in use and a notification names the setting, the value typed
and the range (the browser's own number boxes would keep showing it while sending nothing, so they have no limits).
The settings also travel in the page's URL (`query_string`, `settings_from_query`)."""

from __future__ import annotations

from functools import partial
from urllib.parse import parse_qsl, urlencode

import panel as pn

from explorer import methods, settings
from explorer.data import datasets
from explorer.model import two_class_only
from explorer.studies.race import NAMES as METHOD_NAMES
from explorer.validation import show

DATA = settings.group("data")
TRAINING = settings.group("method") + settings.group("inducing") + settings.group("steps") + settings.group("kernel")
ADVANCED = settings.group("advanced")
CONFIGURATION = DATA + TRAINING + ADVANCED
"""Every declared setting (`explorer.settings.SETTINGS`): the widgets' names and the URL's keys."""
LABELS = {name: setting.label for name, setting in settings.SETTINGS.items()}
SHORT_LABELS = {name: setting.short for name, setting in settings.SETTINGS.items()}
"""Settings in the legend of earlier runs, where space is short."""


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


def _options(model, name: str) -> list | None:
    """The choices of a setting (the data sets the model offers for `dataset`); None for a setting without."""
    if name == "dataset":
        return list(model.param.dataset.objects)
    choices = settings.SETTINGS[name].choices
    return list(choices) if choices is not None else None


def _shown(name: str, value):
    """A setting's value as its widget shows it: a `Kernel` object as its family name."""
    return getattr(value, "name", value) if name == "kernel" else value


def _widget(model, name: str, value):
    """The widget of setting `name` (its declaration: kind, choices, bounds, label, help) showing `value`."""
    setting = settings.SETTINGS[name]
    common = dict(label=setting.label, description=setting.help, sizing_mode="stretch_width")
    options = _options(model, name)
    if options is not None:
        return pn.widgets.Select(options=options, value=_shown(name, value), **common)
    if setting.kind == "bool":
        return pn.widgets.Checkbox(value=value, label=setting.label, sizing_mode="stretch_width")
    if setting.kind == "int":
        return pn.widgets.IntInput(value=value, **common)
    if name == "train_fraction":
        return pn.widgets.FloatSlider(
            value=value,
            start=setting.low,
            end=setting.high,
            step=0.05,
            label=setting.label,
            sizing_mode="stretch_width",
        )
    step = 0.01 if name in ("noise", "rho") else 0.1
    return pn.widgets.FloatInput(value=value, step=step, format="0[.]000000", **common)


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
        rule_object = name == "step_size" and not isinstance(value, str)
        if (name == "dataset" and value == "custom") or custom_kernel or rule_object:
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
        if name not in CONFIGURATION:
            problems.append(f"unknown setting {show(name)}")
            continue
        try:
            value = _link_value(model, name, text)
        except ValueError as err:
            problems.append(f"{LABELS[name]}: {show(text)} {err}")
            continue
        problem = settings.SETTINGS[name].out_of_range(value)
        if problem is not None:
            problems.append(problem)
            continue
        changes[name] = value
    problems += _drop_what_the_classes_refuse(changes, model)
    return changes, problems


def _drop_what_the_classes_refuse(changes: dict, model) -> list[str]:
    """Leave out of a link's `changes` a method, or SVGP link, that cannot model the number of classes of the data set
    the link (or else the model) names — or the data set, when the link does not name the method and the model's
    cannot take it — so that the rest of the link is used. Returns the problems in the user's words
    (`model.two_class_only`: "EPGPC is two-class only; spiral-3 has 3 classes"), each saying what stays."""
    dataset = changes.get("dataset", model.dataset)
    K = datasets.BUILTIN_CLASSES.get(dataset, 2) if "dataset" in changes else len(model.classes)

    def refused() -> tuple[str, str] | None:
        return two_class_only(changes.get("method", model.method), changes.get("link", model.link), dataset, K)

    refusal, problems = refused(), []
    if refusal is not None and refusal[0] == "method":
        if "method" in changes and methods.CLASS_COUNTS[model.method][1] != 2:
            del changes["method"]
            problems.append(f"{refusal[1]}: the method stays {METHOD_NAMES[model.method]}")
        else:
            del changes["dataset"]
            return [f"{refusal[1]}: the data set stays {model.dataset}"]
        refusal = refused()  # the model's method, which takes K classes: its link may not
    if refusal is None:
        return problems
    if "link" in changes and model.link in methods.MULTICLASS_LINKS:
        del changes["link"]
        problems.append(f"{refusal[1]}: the link stays {model.link}")
    else:
        changes.pop("dataset", None)
        problems.append(f"{refusal[1]}: the data set stays {model.dataset}")
    return problems


def _link_value(model, name: str, text: str):
    """A setting's value from its text in a link (`Setting.from_text`); ValueError (the reason, in words) if it cannot
    be one."""
    options = _options(model, name)
    if options is not None:
        if text not in options or text == "custom":
            raise ValueError(f"is not one of {', '.join(o for o in options if o != 'custom')}")
        return text
    return settings.SETTINGS[name].from_text(text)


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
            widget = _widget(self._model, name, getattr(self._model, name))
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
        problem = settings.SETTINGS[name].out_of_range(event.new)
        if problem is None and event.new is None and not settings.SETTINGS[name].allow_none:
            problem = f"{LABELS[name]} needs a value"
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
                        widget.options = _options(self._model, name)
                    if widget.value != value:
                        widget.value = value
        finally:
            self._syncing = False
        self._update_visibility()
        if self._location is not None:
            self._location.search = query_string(self._model)

    def _update_visibility(self) -> None:
        """Show only the settings that apply: n and noise for built-in sets, the constants of the chosen rule, the
        initial kernel parameters unless a kernel object brought its own, the advanced options the method takes."""
        model = self._model
        by_name = isinstance(model.kernel, str)
        show = {
            **{name: settings.applies(name, model.method) for name in ADVANCED},
            **dict.fromkeys(("n_points", "noise"), model.dataset in datasets.BUILTIN),
            "rho": model.step_size == "constant",
            "tau": model.step_size == "robbins-monro",
            "kappa": model.step_size == "robbins-monro",
            "hyper_learning_rate": model.learn_hyperparameters,
            **dict.fromkeys(KERNEL_SETTINGS[1:], by_name),  # the initial kernel parameters
        }
        for name, visible in show.items():
            for widget in self._widgets[name]:
                widget.visible = visible
        if model.dataset in datasets.DEFAULT_NOISE:
            for widget in self._widgets["noise"]:
                widget.placeholder = f"default {datasets.DEFAULT_NOISE[model.dataset]}"
