"""The inference methods a run can use, by name: each builder returns an engine (`explorer.engine.SVIEngine`) for
`training.Trainer`.

All methods share the kernel, the inducing inputs Z, the minibatch size and the random stream, so runs are
comparable (DESIGN §4): given the same seed they see the same minibatches. Step-size defaults come from
`schedules.DEFAULT_STEP_RULES`; `step_size` is a rule name or a rule object, and rho, tau, kappa left at None take
the method's row of that table.

Options reach the engines by one route, declared once (`explorer.settings`) and relayed by no signature: `build` takes
them as keywords; the options every method turns into objects (`SHARED_OPTIONS`: the step-size rule, kernel
learning) and those a builder turns into objects (`BUILDER_OPTIONS`: a likelihood, a multi-class family, …) are read
here; every other option goes by name to the engine whose constructor chain takes it (`engine_keywords`,
`engine_options`): a builder only names the engine class (one of its method's `ENGINES`, checked) and the objects it
made. A name the method does not read is refused (`option_names`). A new engine option is therefore a settings row
and the engine's keyword (`tests/test_run.py` checks that the two cannot drift). A face checks the user's labels
against the numbers of classes each method supports (`CLASS_COUNTS`, `check_classes`) before building.
"""

from __future__ import annotations

import inspect

import numpy as np

from explorer.epgpc import EPGPC
from explorer.hyperparameters import Adam
from explorer.kernels import Kernel
from explorer.likelihoods import LINKS, MULTICLASS_LIKELIHOODS, Link, Softmax
from explorer.schedules import schedule_for
from explorer.sources import DataSource, as_source
from explorer.svgp import SVGPAdam, SVGPNatGrad
from explorer.validation import DataError, prefix, show, show_list
from explorer.xgpc import XGPC, MultiLatentXGPC
from explorer.xgpc_multiclass import AugmentedLogisticSoftmax
from explorer.xgpc_stickbreaking import DEFAULT_KERNEL_RATE, DEFAULT_MULTICLASS_FAMILY, STICK_BREAKING, StickBreaking

MULTICLASS_LINKS = ("logit", *MULTICLASS_LIKELIHOODS)
"""The link names the K ≥ 3 SVGPs take: the logit means the softmax (the logit is its two-class case), the others
name a likelihood of `likelihoods.MULTICLASS_LIKELIHOODS`."""


def svgp_likelihood(link: str, n_classes: int) -> Link | Softmax:
    """The SVGP's likelihood named `link` for K = `n_classes`: `likelihoods.LINKS[link]` for two classes; for K ≥ 3
    `likelihoods.MULTICLASS_LIKELIHOODS[link](K)`, the logit's K-class form being the softmax; ValueError naming the
    choices otherwise."""
    if n_classes > 2:
        if link != "logit" and link not in MULTICLASS_LIKELIHOODS:
            raise ValueError(
                f"link {show(link)} has no {n_classes}-class form here; with {n_classes} classes the SVGP's link is "
                f"one of {['logit', *MULTICLASS_LIKELIHOODS]} (the logit's K-class form is the softmax)"
            )
        return MULTICLASS_LIKELIHOODS.get(link, Softmax)(n_classes)
    if link not in LINKS:
        raise ValueError(f"link must be one of {sorted(LINKS)}, got {show(link)}")
    return LINKS[link]


SHARED_OPTIONS = ("step_size", "rho", "tau", "kappa", "learn_hyperparameters", "hyper_learning_rate")
"""The options every method reads in `build`: its step-size rule (`schedules.schedule_for`; Adam-trained SVGP has
none and ignores it) and kernel learning by Adam."""
BUILDER_OPTIONS = {
    "xgpc": ("warm_start_on", "multiclass_family", "multiclass_kernel_prior"),
    "svgp-adam": ("link",),
    "svgp-natgrad": ("link",),
    "epgpc": ("damping",),
}
"""The options a method's builder turns into objects: the adaptive rule's warm start (into the rule), X-GPC's K-class
model (into the engine class and its family of q(λ, n)) and its kernel prior's spread (0: none), the SVGP's
likelihood by name, EPGPC's per-point damping (into its rule)."""
NOT_OPTIONS = (
    "batch_size",
    "rng",
    "schedule",
    "hyper_optimizer",
    "link",
    "likelihood",
    "kernel_prior",
    "criterion",
    "mc_rng",
)
"""Engine keywords that are no options: those `build` and the builders fill in (from the options above or the
data), and those set on an engine directly: its convergence rule and the SVGP's Monte Carlo stream (for tests of the
expectations)."""


def engine_keywords(engine: type) -> set[str]:
    """The keywords the constructor of `engine` takes: its keyword-only parameters and, through its `**keywords`,
    those of the base class it hands them to, and so on down to `engine.SVIEngine`'s."""
    keywords = set()
    for cls in engine.__mro__:
        if "__init__" in vars(cls):
            parameters = inspect.signature(cls.__init__).parameters.values()
            keywords |= {p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}
            if all(p.kind is not inspect.Parameter.VAR_KEYWORD for p in parameters):
                break
    return keywords


def engine_options(engine: type, options: dict) -> dict:
    """The options (by name) among `options` that the constructor of `engine` takes (`engine_keywords`, but
    `NOT_OPTIONS`): how an option declared in `explorer.settings` reaches the engine that reads it, with no builder
    relaying it."""
    keywords = engine_keywords(engine) - set(NOT_OPTIONS)
    return {name: value for name, value in options.items() if name in keywords}


def option_names(method: str) -> tuple[str, ...]:
    """Every option `method` reads, sorted: `SHARED_OPTIONS`, its builder's (`BUILDER_OPTIONS`) and its engines'
    constructor keywords (`ENGINES`, `engine_keywords`) that are options."""
    _known(method)
    engines = set().union(*(engine_keywords(engine) for engine in ENGINES[method])) - set(NOT_OPTIONS)
    return tuple(sorted({*SHARED_OPTIONS, *BUILDER_OPTIONS[method], *engines}))


def _kernel_optimizer(options: dict, default_rate: float | None = None) -> Adam | None:
    """Adam on the kernel's log-parameters at `hyper_learning_rate` (when not given: `default_rate`, the method's
    own, or Adam's own default), or None when `learn_hyperparameters` is False."""
    if options.get("learn_hyperparameters") is False:
        return None
    rate = options.get("hyper_learning_rate", default_rate)
    return Adam() if rate is None else Adam(rate)


def _schedule(method: str, options: dict, **extra):
    """The step-size rule `schedules.schedule_for(method, step_size, rho=…, tau=…, kappa=…, **extra)` of the options
    (the method's default rule when step_size is not given)."""
    rule = {name: options.get(name) for name in ("rho", "tau", "kappa")}
    return schedule_for(method, options.get("step_size"), **rule, **extra)


def build_xgpc(source, options: dict) -> tuple[type, dict]:
    """X-GPC with the options' step-size rule (`warm_start_on` applies to the adaptive rule) and, when asked, Adam
    on the kernel's log-parameters. Two classes: the paper's `XGPC`. Three or more: `xgpc.MultiLatentXGPC` with the
    likelihood of `multiclass_family` (default `xgpc_stickbreaking.DEFAULT_MULTICLASS_FAMILY`): "stick-breaking",
    `xgpc_stickbreaking.StickBreaking` (K − 1 binary logits, each with the binary PG step; its kernel step follows
    `kernel_bound` as the binary model's does, without the kernel prior, at its own default rate
    `xgpc_stickbreaking.DEFAULT_KERNEL_RATE` unless `hyper_learning_rate` is given); "joint" or the paper's
    "factorised", `xgpc_multiclass.AugmentedLogisticSoftmax` in that family of q(λ, n), whose kernel step ascends its
    augmented bound plus, unless `multiclass_kernel_prior` is 0, a log-normal prior of that spread around the initial
    kernel. Returns the engine class and the keywords made here."""
    warm_start = {"warm_start_on": options["warm_start_on"]} if "warm_start_on" in options else {}
    family = options.get("multiclass_family", DEFAULT_MULTICLASS_FAMILY) if source.n_classes > 2 else None
    made = {
        "schedule": _schedule("xgpc", options, **warm_start),
        "hyper_optimizer": _kernel_optimizer(options, DEFAULT_KERNEL_RATE if family == STICK_BREAKING else None),
    }
    if family is None:
        return XGPC, made
    K = source.n_classes
    if family == STICK_BREAKING:
        return MultiLatentXGPC, {**made, "likelihood": StickBreaking(K)}
    if "multiclass_kernel_prior" in options:  # 0: no prior
        made["kernel_prior"] = options["multiclass_kernel_prior"]
    return MultiLatentXGPC, {**made, "likelihood": AugmentedLogisticSoftmax(K, family=family)}


def build_svgp_adam(source, options: dict) -> tuple[type, dict]:
    """Non-augmented SVGP (`svgp.SVGPAdam`) with the likelihood named `link` (`svgp_likelihood`: two classes logit or
    probit, K ≥ 3 the softmax) trained by Adam (`learning_rate`) on the whitened means and Cholesky factors. The
    step-size options do not apply to Adam and are ignored."""
    link = svgp_likelihood(options.get("link", "logit"), source.n_classes)
    return SVGPAdam, {"hyper_optimizer": _kernel_optimizer(options), "link": link}


def build_svgp_natgrad(source, options: dict) -> tuple[type, dict]:
    """Non-augmented SVGP (`svgp.SVGPNatGrad`) with the likelihood named `link` (`svgp_likelihood`) trained by
    natural-gradient steps from the expectations' slopes, with the options' step-size rule as for X-GPC. Not
    coordinate ascent: a constant ρ must be small (0.01 worked, 0.1 diverged)."""
    link = svgp_likelihood(options.get("link", "logit"), source.n_classes)
    made = {"schedule": _schedule("svgp-natgrad", options), "hyper_optimizer": _kernel_optimizer(options)}
    return SVGPNatGrad, {**made, "link": link}


def build_epgpc(source, options: dict) -> tuple[type, dict]:
    """Scalable EP (probit): `sites` "tied" (stochastic EP, memory O(m²); its step ε follows the step-size rule,
    default its row of `schedules.DEFAULT_STEP_RULES`) or "per-point" (minibatch EP with one site per point, memory
    O(nm); a constant damping δ = `damping`, EPGPC's own default when not given, unless a step-size rule is named).
    Kernel learning: Adam along the stochastic gradient of EP's log-evidence estimate at fixed sites."""
    per_point_damping = options.get("sites") == "per-point" and options.get("step_size") is None
    if per_point_damping and options.get("damping") is not None:
        schedule = schedule_for("epgpc", "constant", rho=options["damping"])
    elif per_point_damping:
        schedule = None  # EPGPC's own damping
    else:
        schedule = _schedule("epgpc", options)
    return EPGPC, {"schedule": schedule, "hyper_optimizer": _kernel_optimizer(options)}


METHODS = {"xgpc": build_xgpc, "svgp-adam": build_svgp_adam, "svgp-natgrad": build_svgp_natgrad, "epgpc": build_epgpc}
ENGINES = {
    "xgpc": (XGPC, MultiLatentXGPC),
    "svgp-adam": (SVGPAdam,),
    "svgp-natgrad": (SVGPNatGrad,),
    "epgpc": (EPGPC,),
}
"""The engine classes each method's builder may make (X-GPC: two classes; K ≥ 3 with a likelihood of
`multiclass_family`), whose constructor keywords are options (`option_names`); `build` refuses any other."""

CLASS_COUNTS = {"xgpc": (2, None), "svgp-adam": (2, None), "svgp-natgrad": (2, None), "epgpc": (2, 2)}
"""The numbers of classes K each method supports, (fewest, most) with most None for any K ≥ fewest. X-GPC takes any
K (two classes: the paper's logit model; more: stick-breaking or the logistic-softmax, `ENGINES`); the SVGPs too (two
classes: the logit or probit link; more: the softmax, `svgp_likelihood`); EPGPC's probit is binary."""


def check_classes(method: str, classes, source: str | None = None) -> None:
    """Refuse labels with more (or fewer) classes than `method` supports: DataError naming the data (`source`), the
    method, the K it supports and the classes found (K,)."""
    _known(method)
    fewest, most = CLASS_COUNTS[method]
    K = len(classes)
    if K < fewest or (most is not None and K > most):
        supported = (
            f"exactly {fewest}" if fewest == most else f"{fewest} or more" if most is None else f"{fewest}…{most}"
        )
        binary = "Only binary classification is supported. " if most == 2 and K > 2 else ""  # scikit-learn's words
        found = f"{K} class" if K == 1 else f"{K} classes"
        raise DataError(
            f"{prefix(source)}{binary}Method {show(method)} supports {supported} classes; "
            f"the labels hold {found}: {show_list(classes)}"
        )


def _known(method: str) -> None:
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {sorted(METHODS)}")


def build(method: str, X, y, Z, kernel: Kernel, *, batch_size: int, rng: np.random.Generator, **options):
    """Engine for `method` (a key of METHODS) on X (n, d), y (n,) class indices 0…K−1, or X a source (y None; with K
    classes when the model has classes the rows do not hold yet, `XGPClassifier.partial_fit`'s `classes`:
    `sources.as_source`), Z (m, d), with the minibatch size s and stream `rng`. `options` by name
    (`option_names(method)`; the faces pass the checked run settings, `settings.builder_options`); one the method
    does not read raises TypeError naming it."""
    _known(method)
    unknown = sorted(set(options) - set(option_names(method)))
    if unknown:
        raise TypeError(
            f"method {method!r} takes no options {unknown}; its options are {', '.join(option_names(method))}"
        )
    source = X if isinstance(X, DataSource) and y is None else as_source(X, y)  # a run's rows come as a source
    engine, made = METHODS[method](source, options)
    if engine not in ENGINES[method]:
        raise TypeError(f"the builder of {method!r} made a {engine.__name__}, not one of its ENGINES")
    return engine(source, None, Z, kernel, batch_size=batch_size, rng=rng, **made, **engine_options(engine, options))
