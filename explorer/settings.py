"""The settings of a run, each declared once: name, type, bounds, default, choices, labels, help and group.

Every face of a run reads this table (README "Architecture": what each derives from it). A new setting is one
`Setting` here, plus the code that reads it, which its `reader` names (`Setting`).

Groups: "data" (which rows, and the seed of everything random), "method", "inducing", "steps" (minibatches, the
step-size rule, evaluation), "kernel" (the initial kernel and its learning) and "advanced" (the further options of
the methods, `explorer.methods.option_names`, and the evaluation's rows; a method receives only the options it
reads, `builder_options`). A setting is structural — it defines the run, so changing it starts a new one — unless
it only shapes what is shown (`eval_every`). Options that were measured and not adopted are no settings (README
"Choices"; their numbers are in BENCHMARKS.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np

from explorer import methods
from explorer.kernels import KERNELS, LENGTHSCALE_LIMITS, Kernel
from explorer.likelihoods import LINKS
from explorer.schedules import Adaptive, Constant, RobbinsMonro
from explorer.xgpc import DEFAULT_HYPER_EVERY, DEFAULT_KERNEL_BOUND, KERNEL_BOUNDS
from explorer.xgpc_multiclass import DEFAULT_KERNEL_PRIOR
from explorer.xgpc_stickbreaking import DEFAULT_KERNEL_PATIENCE, DEFAULT_MULTICLASS_FAMILY, MULTICLASS_FAMILIES

GROUPS = ("data", "method", "inducing", "steps", "kernel", "advanced")
METHOD_DEFAULT = "method default"
"""The value of `step_size` that leaves each method its own rule (`schedules.DEFAULT_STEP_RULES`)."""


@dataclass(frozen=True)
class Setting:
    """One run setting.

    kind is "int", "float", "bool" or "choice". `low`/`high` bound a number (None: unbounded), `inclusive` says
    whether each end is allowed; `choices` lists a choice's values (None: given at run time, as the data sets
    found); `allow_none` lets None stand for "the default of the data set or method" (said in `help`); `objects`
    are types whose instances are accepted besides the choices (a `Kernel` for `kernel`, a rule of
    `explorer.schedules` for `step_size`; such a run cannot travel in a link or, for a rule, a run file). `structural` is False for
    a setting that only shapes the display. `label` is for people (a form), `short` for a legend, `help` one or two
    sentences (widget tooltips, `--help`, docstrings). `reader` is what reads it: "run" (the `Run`), "builder"
    (`explorer.methods`, into an object: `methods.SHARED_OPTIONS`, `methods.BUILDER_OPTIONS`) or "engine" (an
    engine's constructor keyword of the same name, `methods.engine_options`)."""

    name: str
    kind: str
    default: object
    label: str
    short: str
    help: str
    low: float | None = None
    high: float | None = None
    inclusive: tuple[bool, bool] = (True, True)
    choices: tuple | None = None
    allow_none: bool = False
    objects: tuple[type, ...] = ()
    structural: bool = True
    reader: str = "run"
    group: str = ""

    def out_of_range(self, value) -> str | None:
        """Why the number `value` is outside the bounds, in words naming the setting and the limit; None if inside
        (or not a bounded number)."""
        if value is None or self.kind not in ("int", "float"):
            return None
        low_in, high_in = self.inclusive
        too_low = self.low is not None and (value < self.low or (value == self.low and not low_in))
        too_high = self.high is not None and (value > self.high or (value == self.high and not high_in))
        if not (too_low or too_high):
            return None
        return f"{self.label}: {value:g} is out of range ({self.allowed()})"

    def allowed(self) -> str:
        """The values allowed, in words: 'from 0.05 to 0.95', 'at least 1', 'above 0 and at most 1e+06', 'one of
        tied, per-point'."""
        if self.kind == "bool":
            return "True or False"
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        low_in, high_in = self.inclusive
        if self.low is not None and self.high is not None and low_in and high_in:
            return f"from {self.low:g} to {self.high:g}"
        low = None if self.low is None else f"{'at least' if low_in else 'above'} {self.low:g}"
        high = None if self.high is None else f"{'at most' if high_in else 'below'} {self.high:g}"
        return " and ".join(words for words in (low, high) if words) or "any value"

    def requirement(self) -> str:
        """What a value must be, in words: 'a whole number from 1 to 2000', 'a finite number above 0 and at most
        1e+06', 'True or False', 'one of rbf, matern12, matern32, matern52, or a Kernel object' (the words every face
        refuses a bad value with)."""
        if self.kind not in ("int", "float"):
            objects = f", or a {' or '.join(kind.__name__ for kind in self.objects)} object" if self.objects else ""
            return self.allowed() + objects
        number = "a whole number" if self.kind == "int" else "a finite number"
        return number if self.low is None and self.high is None else f"{number} {self.allowed()}"

    def from_text(self, text: str, none: str = ""):
        """The value written as `text` (a link's query, a benchmark's flag): `none` (in any case) for None where
        the setting allows it, true/false for a switch, a whole or a finite number, a choice's text as it is; not
        yet checked (`check`). ValueError with the reason in words ("is not a whole number") otherwise."""
        if self.allow_none and text.lower() == none:
            return None
        if self.kind == "bool":
            if text.lower() not in ("true", "false"):
                raise ValueError("is not true or false")
            return text.lower() == "true"
        if self.kind == "choice":
            return text
        if self.kind == "int":  # any length the faces take (a seed of 13 digits and more too)
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise ValueError("is not a whole number")
            try:
                return int(text)
            except ValueError:  # beyond Python's limit on the digits of an int read from text (4,300)
                raise ValueError(f"has {len(text):,} digits, too many to read") from None
        try:
            value = float(text)
        except ValueError:
            raise ValueError("is not a number") from None
        if not math.isfinite(value):
            raise ValueError("is not a finite number")
        return value

    def check(self, value):
        """`value` if it is a valid value of this setting, else ValueError naming the setting, the value and what
        is allowed ("NAME must be REQUIREMENT, got VALUE"; a choice: "unknown NAME VALUE; choose one of …"): the
        one rule of every face (Model, XGPClassifier, links, benchmark flags). A bool is not a number here."""
        if value is None:
            if self.allow_none:
                return value
            raise ValueError(f"{self.name} needs a value, got None")
        if isinstance(value, self.objects):
            return value
        if isinstance(value, np.generic):
            value = value.item()  # numpy's bool, integer and float scalars as Python's (as scikit-learn accepts them)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be True or False, got {value!r}")
        elif self.kind == "choice":
            if self.choices is not None and (not isinstance(value, str) or value not in self.choices):
                raise ValueError(f"unknown {self.name} {value!r}; choose one of {', '.join(map(str, self.choices))}")
        else:
            integral = isinstance(value, int) and not isinstance(value, bool)
            number = integral or (self.kind == "float" and isinstance(value, float))
            if not number or not math.isfinite(value) or self.out_of_range(value) is not None:
                raise ValueError(f"{self.name} must be {self.requirement()}, got {value!r}")
        return value


def _declare(**groups: tuple[Setting, ...]) -> dict[str, Setting]:
    """The table by name, each setting in the group (of GROUPS) it is listed under."""
    return {setting.name: replace(setting, group=group) for group, listed in groups.items() for setting in listed}


SETTINGS = _declare(
    data=(
        Setting(
            "dataset",
            "choice",
            "banana-like",
            "data set",
            "data",
            "Data set: built-in 2-D set, a paper data set found in the data directory, or 'custom' (your data)",
        ),
        Setting("n_points", "int", 400, "points (built-in sets)", "points", "Points generated for a built-in set", 20),
        Setting(
            "noise",
            "float",
            None,
            "noise (empty: the set's default)",
            "noise",
            "Noise of a built-in set (None: the set's default)",
            0.0,
            allow_none=True,
        ),
        Setting(
            "train_fraction",
            "float",
            0.8,
            "train fraction",
            "train fraction",
            "Share of the rows used for training; the rest are the test rows the history is evaluated on",
            0.05,
            0.95,
        ),
        Setting(
            "seed",
            "int",
            0,
            "seed",
            "seed",
            "Seed of the split, the inducing points, the minibatches and the ELBO's rows (`run.streams`)",
            0,
        ),
    ),
    method=(
        Setting(
            "method",
            "choice",
            "xgpc",
            "method",
            "method",
            "Inference method (`explorer.methods.METHODS`)",
            choices=tuple(methods.METHODS),
        ),
    ),
    inducing=(
        Setting(
            "n_inducing",
            "int",
            100,
            "inducing points m",
            "inducing points",
            "m: inducing points (k-means++ on the standardised training rows, fixed); fewer when there are fewer "
            "distinct rows. At most 2,000: each step factors m × m matrices",
            1,
            2000,
        ),
    ),
    steps=(
        Setting(
            "batch_size",
            "int",
            100,
            "minibatch size s",
            "minibatch size",
            "s: minibatch size (clamped to n with a warning)",
            1,
        ),
        Setting(
            "step_size",
            "choice",
            METHOD_DEFAULT,
            "step-size rule",
            "step-size rule",
            "Step-size rule for the natural-gradient step (EPGPC: the SEP step ε); 'method default': Robbins–Monro "
            "(τ = 10, κ = 0.6) for X-GPC and EPGPC, the adaptive rule for natural-gradient SVGP; or a rule object of "
            "`explorer.schedules` (copied, never advanced itself)",
            choices=(METHOD_DEFAULT, "adaptive", "robbins-monro", "constant"),
            objects=(Constant, RobbinsMonro, Adaptive),
            reader="builder",
        ),
        Setting(
            "rho", "float", 0.5, "constant ρ", "ρ", "Constant step size ρ", 0.0, 1.0, (False, True), reader="builder"
        ),
        Setting(
            "tau",
            "float",
            10.0,
            "Robbins–Monro delay τ",
            "τ",
            "Robbins–Monro delay τ in ρ_t = (t+τ)^−κ",
            1.0,
            reader="builder",
        ),
        Setting(
            "kappa",
            "float",
            0.6,
            "Robbins–Monro rate κ",
            "κ",
            "Robbins–Monro forgetting rate κ (Robbins–Monro conditions: 0.5 < κ ≤ 1)",
            0.5,
            1.0,
            (False, True),
            reader="builder",
        ),
        Setting(
            "eval_every",
            "int",
            10,
            "evaluate every … iterations",
            "evaluate every",
            "Iterations between evaluations (history rows)",
            1,
            structural=False,
        ),
    ),
    kernel=(
        Setting(
            "kernel",
            "choice",
            "rbf",
            "kernel",
            "kernel",
            f"Kernel family by name ({', '.join(KERNELS)}), or a `Kernel` object whose own initial parameters replace "
            "lengthscale, variance, nugget and ard (it is copied, never changed)",
            choices=tuple(KERNELS),
            objects=(Kernel,),
        ),
        Setting(
            "ard",
            "bool",
            False,
            "one lengthscale per feature (ARD)",
            "ARD",
            "One lengthscale per feature (ARD), all starting at `lengthscale`",
        ),
        Setting(
            "lengthscale",
            "float",
            None,
            "initial lengthscale ℓ (empty: √(d/2))",
            "initial ℓ",
            "Initial kernel lengthscale ℓ (standardised units; within the kernels' limits 1e-50 … 1e100); empty: √(d/2) "
            "for d features (1 in two dimensions), where ℓ = 1 would make the kernel white noise in many dimensions",
            *LENGTHSCALE_LIMITS,
            allow_none=True,
        ),
        Setting(
            "variance",
            "float",
            1.0,
            "initial variance σ²",
            "initial σ²",
            "Initial kernel variance σ² (at most 1e6: a latent sd of 1000 is certainty already)",
            0.0,
            1e6,
            (False, True),
        ),
        Setting(
            "nugget", "float", 1e-4, "nugget γ", "nugget γ", "γ: white-noise variance on f (jitter), fixed", 1e-10, 10.0
        ),
        Setting(
            "learn_hyperparameters",
            "bool",
            True,
            "learn ℓ and σ² (Adam)",
            "learn ℓ and σ²",
            "Adam on log lengthscale and log variance, alternating with the variational steps",
            reader="builder",
        ),
        Setting(
            "hyper_learning_rate",
            "float",
            None,
            "Adam learning rate (empty: the method's own)",
            "Adam rate",
            "Adam learning rate of the kernel's log-parameters; empty: the method's own (X-GPC's stick-breaking "
            "multi-class family 0.1, with its kernel brake; every other 0.01)",
            0.0,
            1.0,
            (False, True),
            allow_none=True,
            reader="builder",
        ),
    ),
    advanced=(
        Setting(
            "eval_points",
            "int",
            5000,
            "rows per evaluation",
            "evaluation rows",
            "Most test rows (and training rows for the ELBO, at most run.ELBO_POINTS) used per evaluation: larger data "
            "are evaluated on fixed random subsets so big sets stay responsive",
            100,
        ),
        Setting(
            "hyper_every",
            "int",
            None,
            "kernel step every … iterations",
            "kernel step every",
            f"Iterations per kernel-learning (Adam) step; empty: the method's own (X-GPC {DEFAULT_HYPER_EVERY}, the "
            "others 1)",
            1,
            allow_none=True,
            reader="engine",
        ),
        Setting(
            "link",
            "choice",
            "logit",
            "SVGP likelihood link",
            "link",
            "SVGP (Adam or natural gradients; two classes): the likelihood's link, 'logit' (the paper's) or 'probit' "
            "(X-GPC's augmentation needs the logit; EPGPC's is the probit)",
            choices=tuple(LINKS),
            reader="builder",
        ),
        Setting(
            "kernel_bound",
            "choice",
            DEFAULT_KERNEL_BOUND,
            "X-GPC kernel gradient of",
            "kernel bound",
            "X-GPC with two classes, and each logit of the stick-breaking multi-class family (the default): the bound "
            "whose gradient the kernel step follows: 'exact' (the logistic ELBO) or 'augmented' (the Pólya-Gamma "
            "augmented bound of the paper); the logistic-softmax families ('joint', 'factorised') follow their augmented "
            "bound either way",
            choices=KERNEL_BOUNDS,
            reader="engine",
        ),
        Setting(
            "multiclass_family",
            "choice",
            DEFAULT_MULTICLASS_FAMILY,
            "X-GPC multi-class family (3+ classes)",
            "family",
            "X-GPC with three or more classes: the model and its variational family. 'stick-breaking' (the default): "
            "K − 1 binary logits on a stick, classes in label order (the order changes the fit), each with the binary "
            "Pólya-Gamma step. The logistic-softmax model, symmetric in the classes, in one of two families of its "
            "augmentation's (λ, n) block: 'joint' (exact at zero latent variance) or 'factorised' (the paper's q(λ)q(n), "
            "under-confident). Binary X-GPC has none of these",
            choices=MULTICLASS_FAMILIES,
            reader="builder",
        ),
        Setting(
            "multiclass_kernel_prior",
            "float",
            DEFAULT_KERNEL_PRIOR,
            "X-GPC kernel prior spread (3+ classes)",
            "kernel prior",
            "X-GPC with three or more classes (the logistic-softmax families, not stick-breaking): the standard deviation of "
            "a weak normal prior on log ℓ and log σ² "
            "around the initial kernel, added to what the kernel step ascends so the kernel settles where the data "
            "stop pulling; 0: no prior (the bound alone)",
            0.0,
            100.0,
            reader="builder",
        ),
        Setting(
            "kernel_patience",
            "int",
            None,
            "X-GPC kernel brake patience (3+ classes)",
            "kernel brake",
            "X-GPC with 3+ classes: the kernel step's Adam rate halves each time the hold-out NLL "
            "has not improved for this many evaluations in a row, so the kernel stops drifting where the held-out data "
            f"stop rewarding it; 0: no brake; empty: the family's own (stick-breaking {DEFAULT_KERNEL_PATIENCE}, joint and "
            "factorised none)",
            0,
            allow_none=True,
            reader="engine",
        ),
        Setting(
            "warm_start_on",
            "choice",
            "gradient",
            "adaptive rule warm start on",
            "warm start on",
            "Adaptive step-size rule: warm-start averages of the gradient λ̂ − η ('gradient') or of λ̂ ('target')",
            choices=("gradient", "target"),
            reader="builder",
        ),
        Setting(
            "full",
            "bool",
            False,
            "X-GPC without inducing points",
            "non-sparse",
            "X-GPC: the non-sparse model (u = f at every training row; n × n, small data only)",
            reader="engine",
        ),
        Setting(
            "learning_rate",
            "float",
            0.01,
            "SVGP Adam learning rate",
            "SVGP Adam rate",
            "SVGP by Adam: learning rate of the variational parameters",
            0.0,
            1.0,
            (False, True),
            reader="engine",
        ),
        Setting(
            "sites",
            "choice",
            "tied",
            "EPGPC sites",
            "EP sites",
            "EPGPC: 'tied' (stochastic EP, memory O(m²)) or 'per-point' (one site per point, memory O(nm))",
            choices=("tied", "per-point"),
            reader="engine",
        ),
        Setting(
            "damping",
            "float",
            0.5,
            "EPGPC damping δ",
            "EP damping",
            "EPGPC with per-point sites and the method's default step: damping δ of the site updates",
            0.0,
            1.0,
            (False, True),
            reader="builder",
        ),
    ),
)

STRUCTURAL = tuple(name for name, setting in SETTINGS.items() if setting.structural)
"""The settings that define a run (a change starts a new one)."""
DEFAULTS = {name: setting.default for name, setting in SETTINGS.items()}


def numpydoc_parameters(names, defaults: dict | None = None, indent: str = "    ") -> str:
    """The numpydoc "Parameters" entries of the settings `names`, one per setting: ``name : kind, default value``
    and its help and allowed values, indented by `indent` (a class docstring's indentation). `defaults` overrides
    the declared default of a face that differs."""
    types = {"int": "int", "float": "float", "bool": "bool", "choice": "str"}
    entries = []
    for name in names:
        setting = SETTINGS[name]
        default = (defaults or {}).get(name, setting.default)
        kind = types[setting.kind] + (" or None" if setting.allow_none else "")
        entries.append(
            f"{indent}{name} : {kind}, default {default!r}\n"
            f"{indent}    {setting.help.rstrip('.')} ({setting.allowed()}).\n"
        )
    return "".join(entries)


def group(name: str) -> tuple[str, ...]:
    """The names of the settings in group `name` (one of GROUPS), in declaration order."""
    if name not in GROUPS:
        raise ValueError(f"unknown settings group {name!r}; choose one of {', '.join(GROUPS)}")
    return tuple(key for key, setting in SETTINGS.items() if setting.group == name)


STEP_RULE_SETTINGS = ("step_size", "rho", "tau", "kappa")
"""The settings of the step-size rule, passed to a builder only when `step_size` names a rule."""
BUILDER_SETTINGS = tuple(
    name for name, setting in SETTINGS.items() if setting.reader != "run" and name not in STEP_RULE_SETTINGS
)
"""Settings a method may read besides the step-size rule (each method gets those among them it reads,
`methods.option_names`)."""


def applies(name: str, method: str) -> bool:
    """Whether setting `name` means something for `method`: a method option only if the method reads it
    (`methods.option_names`); every other setting always."""
    return name not in BUILDER_SETTINGS or name in methods.option_names(method)


def builder_options(config: dict) -> dict:
    """The options of `config["method"]` (`methods.build`'s keywords) that follow from the checked settings in
    `config`: each setting the method reads, and the step-size rule unless it is the method's default. A setting
    left at None ("the method's own") is not passed."""
    method = config["method"]
    options = {name: config[name] for name in BUILDER_SETTINGS if applies(name, method) and config[name] is not None}
    if config["step_size"] != METHOD_DEFAULT:
        options.update({name: config[name] for name in STEP_RULE_SETTINGS})
    return options


def complete(values: dict) -> dict:
    """Every setting: `values` (each checked with `Setting.check`) and the defaults for the rest. Unknown names raise
    ValueError naming them."""
    unknown = sorted(set(values) - set(SETTINGS))
    if unknown:
        raise ValueError(f"unknown settings {unknown}; the settings are {', '.join(SETTINGS)}")
    return {name: SETTINGS[name].check(values[name]) if name in values else DEFAULTS[name] for name in SETTINGS}
