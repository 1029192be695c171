"""Widgets for the Model's configuration. They are not linked to the Model directly: a change goes through
`apply` (the dashboard pauses the worker and sets the parameter under the gate), and `sync` shows the Model's
values again afterwards (also after a rejected change, which the Model rolls back)."""
from __future__ import annotations

from functools import partial

import panel as pn
import param

from explorer import datasets
from explorer.kernels import KERNELS

DATA = ("dataset", "n_points", "noise", "train_fraction", "seed")
TRAINING = ("method", "n_inducing", "batch_size", "step_size", "rho", "tau", "kappa", "learn_hyperparameters",
            "hyper_learning_rate", "kernel", "ard", "lengthscale", "variance", "nugget", "eval_every")
CONFIGURATION = DATA + TRAINING
LABELS = {
    "dataset": "data set", "n_points": "points (built-in sets)", "noise": "noise (empty: the set's default)",
    "train_fraction": "train fraction", "seed": "seed", "method": "method", "n_inducing": "inducing points m",
    "batch_size": "minibatch size s", "step_size": "step-size rule", "rho": "constant ρ",
    "tau": "Robbins–Monro delay τ", "kappa": "Robbins–Monro rate κ", "learn_hyperparameters": "learn ℓ and σ² (Adam)",
    "hyper_learning_rate": "Adam learning rate", "kernel": "kernel", "ard": "one lengthscale per feature (ARD)",
    "lengthscale": "initial lengthscale ℓ",
    "variance": "initial variance σ²", "nugget": "nugget γ", "eval_every": "evaluate every … iterations",
}


def configuration(model) -> dict:
    """The model's configuration values, by name."""
    return {name: getattr(model, name) for name in CONFIGURATION}


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
        return pn.widgets.IntInput(value=value, start=bounds[0], end=bounds[1], **common)
    if parameter.name == "train_fraction":
        return pn.widgets.FloatSlider(value=value, start=bounds[0], end=bounds[1], step=0.05, label=label,
                                      sizing_mode="stretch_width")
    step = 0.01 if parameter.name in ("noise", "rho") else 0.1
    return pn.widgets.FloatInput(value=value, start=bounds[0], end=bounds[1], step=step, format="0[.]000000", **common)


class Settings:
    """Builds widget groups for configuration names (`group(names)`, callable more than once: each call makes new
    widgets, so the same setting can appear on two tabs) and keeps every copy in step with the Model."""

    def __init__(self, model, apply):
        self._model = model
        self._apply = apply
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

    def _update_visibility(self) -> None:
        """Show only the settings that apply: n and noise for built-in sets, the constants of the chosen rule, the
        initial kernel parameters unless a kernel object brought its own."""
        model = self._model
        by_name = isinstance(model.kernel, str)
        show = {"n_points": model.dataset in datasets.BUILTIN, "noise": model.dataset in datasets.BUILTIN,
                "rho": model.step_size == "constant", "tau": model.step_size == "robbins-monro",
                "kappa": model.step_size == "robbins-monro", "hyper_learning_rate": model.learn_hyperparameters,
                "ard": by_name, "lengthscale": by_name, "variance": by_name, "nugget": by_name}
        for name, visible in show.items():
            for widget in self._widgets[name]:
                widget.visible = visible
        if model.dataset in datasets.DEFAULT_NOISE:
            for widget in self._widgets["noise"]:
                widget.placeholder = f"default {datasets.DEFAULT_NOISE[model.dataset]}"
