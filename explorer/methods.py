"""The inference methods a run can use, by name: each builder returns an engine (`explorer.engine.SVIEngine`) for
`training.Trainer`.

All methods share the kernel, the inducing inputs Z, the minibatch size and the random stream, so runs are
comparable (DESIGN §4): given the same seed they see the same minibatches. Step-size defaults come from
`schedules.DEFAULT_STEP_RULES`; `step_size` is a rule name or a rule object, and rho, tau, kappa left at None take
the method's row of that table. X (n, d) may also be a `sources.DataSource` with y None; labels y (n,) are class
indices 0…K−1 (`validation.encode_labels`).

Each method declares the numbers of classes K it supports (`CLASS_COUNTS`); a face checks the user's labels against
it with `check_classes` before building. The non-augmented SVGPs take their likelihood by name (`svgp_link`): for
two classes from `likelihoods.LINKS` (`link="logit"`, the paper's, or "probit"); for K ≥ 3 the softmax
(`svgp_multiclass`), the logit's K-class form ("logit" or "softmax"; there is no K-class probit here).
"""

from __future__ import annotations

import numpy as np

from explorer.epgpc import EPGPC
from explorer.hyperparameters import Adam
from explorer.kernels import Kernel
from explorer.likelihoods import LINKS, Link
from explorer.schedules import schedule_for
from explorer.sources import ArraySource, as_source
from explorer.svgp import SVGPAdam, SVGPNatGrad
from explorer.svgp_multiclass import SVGPMulticlassAdam, SVGPMulticlassNatGrad
from explorer.validation import DataError, prefix, show, show_list
from explorer.xgpc import DEFAULT_HYPER_EVERY, DEFAULT_KERNEL_BOUND, XGPC
from explorer.xgpc_multiclass import DEFAULT_FAMILY, DEFAULT_KERNEL_PRIOR, XGPCMulticlass
from explorer.xgpc_variants import VARIANT_DEFAULTS, XGPCVariants


def link_by_name(link: str) -> Link:
    """The likelihood `likelihoods.LINKS[link]`; ValueError naming the choices for another name."""
    if link not in LINKS:
        raise ValueError(f"link must be one of {sorted(LINKS)}, got {show(link)}")
    return LINKS[link]


MULTICLASS_LINKS = ("logit", "softmax")
"""The link names the K ≥ 3 SVGPs take: both mean the softmax (the logit is its two-class case)."""


def svgp_link(link: str, n_classes: int) -> Link | None:
    """The binary SVGP's likelihood `likelihoods.LINKS[link]` for two classes, or None for K ≥ 3 classes (the K-class
    engines' softmax) when `link` is one of `MULTICLASS_LINKS`; ValueError naming the choices otherwise."""
    if n_classes > 2:
        if link not in MULTICLASS_LINKS:
            raise ValueError(
                f"link {show(link)} has no {n_classes}-class form here; with {n_classes} classes the SVGP's "
                f"likelihood is the softmax (link one of {list(MULTICLASS_LINKS)})"
            )
        return None
    return link_by_name(link)


def build_xgpc(
    X,
    y,
    Z,
    kernel: Kernel,
    *,
    batch_size: int,
    rng: np.random.Generator,
    step_size=None,
    rho: float | None = None,
    tau: float | None = None,
    kappa: float | None = None,
    warm_start_on: str = "gradient",
    learn_hyperparameters: bool = True,
    hyper_learning_rate: float = 0.01,
    full: bool = False,
    hyper_every: int = DEFAULT_HYPER_EVERY,
    hyper_warmup: int = 0,
    hyper_rate: str = "constant",
    kernel_step: str = "fixed-u",
    init_sweeps: int = 0,
    init_rows: int = 2000,
    average_window: int = 0,
    kernel_bound: str = DEFAULT_KERNEL_BOUND,
    batch_growth: float = 1.0,
    batch_growth_start: int = 0,
    batch_growth_every: int = 1,
    batch_max: int | None = None,
    batch_rho: str = "schedule",
    overrelax: float | None = None,
    multiclass_family: str = DEFAULT_FAMILY,
    multiclass_kernel_prior: float = DEFAULT_KERNEL_PRIOR,
) -> XGPC:
    """X-GPC with the given step-size rule (`warm_start_on` applies to the adaptive rule) and, when asked, Adam on
    the kernel's log-parameters. Two classes: the paper's `XGPC`, or `xgpc_variants.XGPCVariants` when a variant
    option (a whitened kernel step, initial sweeps, averaging, minibatch growth, over-relaxation) is set away from its
    default. Three or more: `xgpc_multiclass.XGPCMulticlass`, the augmented logistic-softmax model in the family
    `multiclass_family` of q(λ, n) ("joint" or the paper's "factorised"; unused with two classes), whose kernel step
    ascends its augmented bound plus, unless `multiclass_kernel_prior` is 0, a log-normal prior of that spread
    around the initial kernel (`kernel_bound` is the binary model's choice) and which has no variants."""
    variants = {
        "kernel_step": kernel_step,
        "init_sweeps": init_sweeps,
        "init_rows": init_rows,
        "average_window": average_window,
        "batch_growth": batch_growth,
        "batch_growth_start": batch_growth_start,
        "batch_growth_every": batch_growth_every,
        "batch_max": batch_max,
        "batch_rho": batch_rho,
        "overrelax": overrelax,
    }
    changed = {  # by type too: True == 1.0 is not the default but a value for the variant's own check to refuse
        name: value
        for name, value in variants.items()
        if not (type(value) is type(VARIANT_DEFAULTS[name]) and value == VARIANT_DEFAULTS[name])
    }
    source = as_source(X, y)
    options = dict(
        batch_size=batch_size,
        rng=rng,
        full=full,
        schedule=schedule_for("xgpc", step_size, rho=rho, tau=tau, kappa=kappa, warm_start_on=warm_start_on),
        hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None,
        hyper_every=hyper_every,
        hyper_warmup=hyper_warmup,
        hyper_rate=hyper_rate,
    )
    if source.n_classes > 2:
        if changed:
            raise ValueError(
                f"the X-GPC variant options ({', '.join(sorted(changed))}) apply to two classes; "
                f"these labels hold {source.n_classes}"
            )
        return XGPCMulticlass(
            source, None, Z, kernel, family=multiclass_family, kernel_prior=multiclass_kernel_prior or None, **options
        )
    engine = XGPCVariants if changed else XGPC
    return engine(source, None, Z, kernel, kernel_bound=kernel_bound, **options, **changed)


def build_svgp_adam(
    X,
    y,
    Z,
    kernel: Kernel,
    *,
    batch_size: int,
    rng: np.random.Generator,
    step_size=None,
    rho: float | None = None,
    tau: float | None = None,
    kappa: float | None = None,
    learn_hyperparameters: bool = True,
    hyper_learning_rate: float = 0.01,
    hyper_every: int = 1,
    learning_rate: float = 0.01,
    link: str = "logit",
) -> SVGPAdam:
    """Non-augmented SVGP with the likelihood `link` (`svgp_link`: two classes logit or probit, `svgp.SVGPAdam`;
    K ≥ 3 the softmax, `svgp_multiclass.SVGPMulticlassAdam`) trained by Adam (`learning_rate`) on the whitened means
    and Cholesky factors, a kernel step every `hyper_every` iterations. The step-size options (step_size, rho, tau,
    kappa) do not apply to Adam and are ignored."""
    source = as_source(X, y)
    binary_link = svgp_link(link, source.n_classes)
    options = dict(
        batch_size=batch_size,
        rng=rng,
        learning_rate=learning_rate,
        hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None,
    )
    if binary_link is None:
        engine = SVGPMulticlassAdam(source, None, Z, kernel, **options)
    else:
        engine = SVGPAdam(source, None, Z, kernel, link=binary_link, **options)
    return _every(engine, hyper_every)


def build_svgp_natgrad(
    X,
    y,
    Z,
    kernel: Kernel,
    *,
    batch_size: int,
    rng: np.random.Generator,
    step_size=None,
    rho: float | None = None,
    tau: float | None = None,
    kappa: float | None = None,
    learn_hyperparameters: bool = True,
    hyper_learning_rate: float = 0.01,
    hyper_every: int = 1,
    link: str = "logit",
) -> SVGPNatGrad:
    """Non-augmented SVGP with the likelihood `link` (`svgp_link`: two classes logit or probit, `svgp.SVGPNatGrad`;
    K ≥ 3 the softmax, `svgp_multiclass.SVGPMulticlassNatGrad`) trained by natural-gradient steps from the
    expectations' slopes, with the given step-size rule as for X-GPC, a kernel step every `hyper_every` iterations.
    Not coordinate ascent: a constant ρ must be small (0.01 worked, 0.1 diverged)."""
    source = as_source(X, y)
    binary_link = svgp_link(link, source.n_classes)
    options = dict(
        batch_size=batch_size,
        rng=rng,
        schedule=schedule_for("svgp-natgrad", step_size, rho=rho, tau=tau, kappa=kappa),
        hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None,
    )
    if binary_link is None:
        engine = SVGPMulticlassNatGrad(source, None, Z, kernel, **options)
    else:
        engine = SVGPNatGrad(source, None, Z, kernel, link=binary_link, **options)
    return _every(engine, hyper_every)


def build_epgpc(
    X,
    y,
    Z,
    kernel: Kernel,
    *,
    batch_size: int,
    rng: np.random.Generator,
    step_size=None,
    rho: float | None = None,
    tau: float | None = None,
    kappa: float | None = None,
    learn_hyperparameters: bool = True,
    hyper_learning_rate: float = 0.01,
    hyper_every: int = 1,
    sites: str = "tied",
    damping: float = 0.5,
) -> EPGPC:
    """Scalable EP (probit): `sites` "tied" (stochastic EP, memory O(m²); its step ε follows the step-size rule,
    default its row of `schedules.DEFAULT_STEP_RULES`) or "per-point" (minibatch EP with one site per point, memory
    O(nm); damping δ = `damping` unless a step-size rule is named). Kernel learning: Adam along the stochastic
    gradient of EP's log-evidence estimate at fixed sites, every `hyper_every` iterations."""
    if sites == "per-point" and step_size is None:
        schedule = schedule_for("epgpc", "constant", rho=damping)
    else:
        schedule = schedule_for("epgpc", step_size, rho=rho, tau=tau, kappa=kappa)
    engine = EPGPC(
        X,
        y,
        Z,
        kernel,
        batch_size=batch_size,
        rng=rng,
        sites=sites,
        schedule=schedule,
        hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None,
    )
    return _every(engine, hyper_every)


def _every(engine, hyper_every: int):
    """The engine with a kernel step every `hyper_every` ≥ 1 iterations (`engine.SVIEngine`'s `hyper_every`, which
    the SVGP and EPGPC constructors leave at 1)."""
    if isinstance(hyper_every, bool) or not isinstance(hyper_every, (int, np.integer)) or hyper_every < 1:
        raise ValueError(f"hyper_every must be a whole number ≥ 1, got {hyper_every!r}")
    engine.hyper_every = int(hyper_every)
    return engine


METHODS = {"xgpc": build_xgpc, "svgp-adam": build_svgp_adam, "svgp-natgrad": build_svgp_natgrad, "epgpc": build_epgpc}

CLASS_COUNTS = {"xgpc": (2, None), "svgp-adam": (2, None), "svgp-natgrad": (2, None), "epgpc": (2, 2)}
"""The numbers of classes K each method supports, (fewest, most) with most None for any K ≥ fewest. X-GPC takes any
K (two classes: the paper's logit model; more: the augmented logistic-softmax, `xgpc_multiclass`); the SVGPs too (two
classes: the logit or probit link; more: the softmax, `svgp_multiclass`); EPGPC's probit is binary."""


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


def build(method: str, X, y, Z, kernel: Kernel, *, n_classes: int | None = None, **options):
    """Engine for `method` (a key of METHODS) on X (n, d), y (n,) class indices 0…K−1, Z (m, d); `n_classes` K when
    the model has classes the rows do not hold yet (arrays X, y; `XGPClassifier.partial_fit`'s `classes`), default
    the labels' highest index + 1."""
    _known(method)
    if n_classes is not None:
        X, y = ArraySource(X, y, n_classes=n_classes), None
    return METHODS[method](X, y, Z, kernel, **options)
