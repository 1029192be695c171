"""Likelihoods p(y | f): the binary links (y ∈ {−1, +1}) with their Gaussian expectations and the one Gauss–Hermite
setup, and the K-class logistic-softmax and softmax.

    logit             p(y | f) = σ(yf)               (the paper's link; X-GPC, the SVGP baselines and the Gibbs sampler)
    probit            p(y | f) = Φ(yf)               (closed-form predictive; the EP baseline; an SVGP option)
    logistic-softmax  p(y = k | f) = σ(f_k)/Σ_j σ(f_j)   (K latent functions; multi-class X-GPC, Galy-Fajou et al. 2019)
    softmax           p(y = k | f) = exp f_k/Σ_j exp f_j  (K latent functions; the K-class SVGP baseline)

Labels outside are class indices 0…K−1 (DESIGN §1); a binary link's equations write them as y = 2k − 1 (class 0 ↦
−1, class 1 ↦ +1: `signed_labels`). Each binary link offers `log_likelihood(y, f)` → (ℓ, ∂ℓ/∂f, ∂²ℓ/∂f²) and
`predictive_probability(mean, var)` = ∫ p(y=1 | f) N(f | mean, var) df; `LINKS` holds them by name. Expectations under
N(f | a, v) are by 64-node Gauss–Hermite (`normal_expectation`, `gauss_hermite_expectations`; the logit's X-GPC
pseudo-data: `logit_pseudo_data`). For EP the probit's tilted distribution Φ(yf)N(f | μ, v) has
closed-form normaliser and moments (`probit_tilted_moments`, `probit_site`).

The likelihood protocol of the non-augmented SVGP (`explorer.svgp`; GPflow's `Likelihood` plays this part there),
what is K-specific about a likelihood, met by `Link` (logit, probit) and `Softmax`:

    name, n_classes K, n_latent      the name saved states record, the classes, the latent functions per point (L)
    equation_labels(y)               class indices 0…K−1 (s,) as the likelihood's equations write them
    variational_expectations(y, a, v, rng=None)
                                     E_i = E_{q(f_i)}[log p(y_i | f_i)] and its slopes g_a = ∂E/∂a, g_v = ∂E/∂v ≤ 0 at
                                     the marginals q(f_i) = N(a_i, diag v_i): a, v (s,) for one latent function,
                                     (s, L) for L; drawn with `rng` when `mc_samples` > 0 (training), deterministic
                                     without it (the reported bound)
    mc_samples                       draws per row of a training estimate (0: the expectations draw nothing)
    predictive(mean, var)            the (n*, K) class probabilities under q(f*) (every engine's `predict_proba`)

A new K-class likelihood is a class with these members here, named in `MULTICLASS_LIKELIHOODS`; both SVGP engines
then train it (`svgp.SVGPAdam(…, link=…)`, `methods.build("svgp-natgrad", …, link=name)`).

The augmented-likelihood protocol of K-class X-GPC (`xgpc.MultiLatentXGPC(…, likelihood=…)`), met by
`xgpc_stickbreaking.StickBreaking` and `xgpc_multiclass.AugmentedLogisticSoftmax`, each in its own module: `name`,
`n_classes`, `n_latent` (J), `equation_labels` and `predictive` as above, and

    family, latent_name              its `multiclass_family` name, what a latent function is called in messages
    local_step(labels, a, v)         the optimal local (Pólya-Gamma) parameters at the marginals q(f_ij) = N(a_ij, v_ij),
                                     a, v (s, J): c (s, J) and the natural-gradient pseudo-data, labels ỹ and PG means
                                     θ (s, J), whose binary X-GPC targets per latent function are the step's
    kernel_pseudo_data(labels, a, v, kernel_bound)
                                     (ỹ, θ) (s, J) of the bound the kernel step ascends ("augmented" or "exact")
    bound(labels, a, v)              the per-point augmented bound at the optimal local parameters (s,)
    kernel_prior, kernel_patience    its kernel step's defaults: a log-normal prior's spread, the brake (0: none)
    state_dict(), check_state(state) what a saved state records of it beyond name and K; refusal of another's
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, log_expit, log_ndtr, logsumexp, ndtr, ndtri
from scipy.stats import qmc

from explorer.linalg import NumericalError

# ∫ e^{−x²} h(x) dx ≈ Σ_k w_k h(x_k); E_{N(f|a,v)}[h(f)] ≈ Σ_k (w_k/√π) h(a + √(2v) x_k)
_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite.hermgauss(64)
_GH_NORMAL_WEIGHTS = _GH_WEIGHTS / np.sqrt(np.pi)
_GL_NODES, _GL_WEIGHTS = np.polynomial.laguerre.laggauss(64)
_GH_MAX_VARIANCE = 2.0  # above it 64 Gauss–Hermite nodes under-resolve the sigmoid (error 3e-2 at var = 1e3)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# ----- Gaussian expectations ----------------------------------------------------------------------------------
def _nodes(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """f_ik = mean_i + √(2 var_i) x_k, the Gauss–Hermite nodes of N(mean_i, var_i): (s, 64)."""
    return mean[:, None] + np.sqrt(2.0 * np.maximum(var, 0.0))[:, None] * _GH_NODES


def normal_expectation(fn: Callable[[np.ndarray], np.ndarray], mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """E_N(f | mean_i, var_i)[fn(f)] per entry by 64-node Gauss–Hermite; fn maps (s, 64) nodes to values. (s,)."""
    return fn(_nodes(mean, var)) @ _GH_WEIGHTS / np.sqrt(np.pi)


def gauss_hermite_expectations(
    log_likelihood, y: np.ndarray, a: np.ndarray, v: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """E = E_{N(f|a,v)}[ℓ(y, f)], g_a = ∂E/∂a = E[ℓ'], g_v = ∂E/∂v = ½E[ℓ''] (Price's theorem) by 64-node
    Gauss–Hermite. `log_likelihood(y, f)` returns (ℓ, ℓ', ℓ''); y, a, v (s,) → three (s,). For the logit the rule's
    error grows with v (the kink of log σ at f = 0): < 1e-9 at v = 4, ~1e-5 at v = 30, ~2e-3 at v = 100 (GPflow
    uses 20 nodes)."""
    value, first, second = log_likelihood(y[:, None], _nodes(a, v))
    return value @ _GH_NORMAL_WEIGHTS, first @ _GH_NORMAL_WEIGHTS, 0.5 * (second @ _GH_NORMAL_WEIGHTS)


# ----- logit ------------------------------------------------------------------------------------------------------
def logit_log_likelihood(y: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """log σ(yf), its first and second derivatives in f: y σ(−yf) and −σ(f)σ(−f). Broadcasting shapes.
    With z = yf and e = exp(−|z|) (no overflow): log σ(z) = min(z, 0) − log1p(e), σ(f)σ(−f) = e/(1+e)²."""
    z = y * f
    e = np.exp(-np.abs(z))
    r = 1.0 / (1.0 + e)  # σ(|z|); σ(−|z|) = er
    er = e * r
    return np.minimum(z, 0.0) - np.log1p(e), y * np.where(z > 0, er, r), -(er * r)


FEW_NODES_MAX_VARIANCE = 0.1
"""The marginal variance up to which `logit_pseudo_data` may take 16 Gauss–Hermite nodes instead of 64: there the
integrand σ(t(a + √(2v)x)) is analytic within π/√(2v) ≥ 7 of the real axis (its poles at ±iπ), and the 16-node rule
gives the 64-node rule's numbers to rounding (BENCHMARKS.md "multiclass: stick-breaking PG family", cost table)."""
_FEW_NODES, _FEW_WEIGHTS = np.polynomial.hermite.hermgauss(16)
_FEW_NORMAL_WEIGHTS = _FEW_WEIGHTS / np.sqrt(np.pi)


def logit_pseudo_data(t: np.ndarray, a: np.ndarray, v: np.ndarray, few_nodes: bool = True) -> tuple[np.ndarray, ...]:
    """The pseudo-data (ỹ, θ̃) = (2(g_a + θ̃a), −2g_v) (`targets.pseudo_data`) of the exact logit terms
    E_{N(f | a, v)}[log σ(tf)] with labels t = ±1: the X-GPC labels and PG means whose augmented terms have their slopes
    g_a, g_v in (a, v) (the kernel step's on the exact bound), by 64-node Gauss–Hermite (`gauss_hermite_expectations`'
    numbers, bit for bit) or, with `few_nodes`, 16 nodes where v ≤ `FEW_NODES_MAX_VARIANCE` (binary X-GPC keeps 64:
    its recorded histories). t, a, v (r,) → ỹ, θ̃ (r,)."""
    few = (v <= FEW_NODES_MAX_VARIANCE) & few_nodes
    if few.all():
        return _logit_pseudo_data(t, a, v, _FEW_NODES, _FEW_NORMAL_WEIGHTS)
    if not few.any():
        return _logit_pseudo_data(t, a, v, _GH_NODES, _GH_NORMAL_WEIGHTS)
    labels, theta = np.empty(a.shape), np.empty(a.shape)
    for rows, rule in ((few, (_FEW_NODES, _FEW_NORMAL_WEIGHTS)), (~few, (_GH_NODES, _GH_NORMAL_WEIGHTS))):
        labels[rows], theta[rows] = _logit_pseudo_data(t[rows], a[rows], v[rows], *rule)
    return labels, theta


def _logit_pseudo_data(t, a, v, nodes, weights) -> tuple[np.ndarray, np.ndarray]:
    """`logit_pseudo_data` on one Gauss–Hermite rule (nodes x_k, weights w_k/√π), in place on two (r, nodes) arrays."""
    z = np.multiply.outer(np.sqrt(2.0 * np.maximum(v, 0.0)), nodes)
    z += a[:, None]
    z *= t[:, None]  # z = t(a + √(2v) x_k): the nodes of N(a, v) times the label, exactly
    e = np.abs(z)
    np.negative(e, out=e)
    np.exp(e, out=e)  # e^{−|z|}
    r = np.add(e, 1.0)
    np.reciprocal(r, out=r)  # σ(|z|)
    e *= r  # σ(−|z|)
    slope = np.where(z > 0, e, r)  # σ(−z): the slope of log σ(z)
    r *= e  # σ(z)σ(−z), minus the curvature
    theta = r @ weights
    labels = slope @ weights
    labels *= t
    labels += theta * a
    labels *= 2.0
    return labels, theta


def logit_predictive_probability(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Eq. (test_distribution): p(y*=1) = ∫σ(f)N(f|mean, var)df, accurate to ~1e-12 for any variance
    (`logit_predictive_pair`'s P). Shapes (n*,)."""
    return logit_predictive_pair(*_finite_predictive(mean, var))[0]


def logit_predictive_pair(mean: np.ndarray, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P = ∫σ(f)N(f | mean, var)df and Q = ∫σ(−f)N(f | mean, var)df = 1 − P, each to full relative precision (Q
    is not formed as 1 − P, which loses its digits where P is near 1). mean, var finite (n,) → P, Q (n,).

    var ≤ 2: 64-node Gauss–Hermite, σ(±f) from one e^{−|f|} (σ(f) = 1/(1 + e^{−|f|}) for f > 0, its complement
    e^{−|f|}/(1 + e^{−|f|})). Larger var, where the Gaussian is wide against the sigmoid's unit width: split
    σ(f) = 1[f > 0] + (σ(f) − 1[f > 0]), so P = Φ(mean/sd) + ∫₀^∞ e^{−t} σ(t)[N(−t|mean, var) − N(t|mean, var)]dt,
    the integral by 64-node Gauss–Laguerre (its integrand is smooth on the scale sd), and Q likewise.
    """
    P, Q = np.empty(mean.shape), np.empty(mean.shape)
    narrow = var <= _GH_MAX_VARIANCE
    nodes = _nodes(mean[narrow], var[narrow])
    e = np.exp(-np.abs(nodes))
    large = 1.0 / (1.0 + e)  # σ(|f|)
    small = e * large  # σ(−|f|)
    positive = nodes > 0
    P[narrow] = np.where(positive, large, small) @ _GH_NORMAL_WEIGHTS
    Q[narrow] = np.where(positive, small, large) @ _GH_NORMAL_WEIGHTS
    wide = ~narrow
    m, sd = mean[wide, None], np.sqrt(var[wide])[:, None]
    density_difference = (np.exp(-0.5 * ((_GL_NODES + m) / sd) ** 2) - np.exp(-0.5 * ((_GL_NODES - m) / sd) ** 2)) / (
        sd * np.sqrt(2.0 * np.pi)
    )
    correction = (expit(_GL_NODES) * density_difference) @ _GL_WEIGHTS  # odd in the mean
    P[wide] = ndtr(mean[wide] / sd[:, 0]) + correction
    Q[wide] = ndtr(-mean[wide] / sd[:, 0]) - correction
    return np.clip(P, 0.0, 1.0, out=P), np.clip(Q, 0.0, 1.0, out=Q)  # rounding may step a hair outside [0, 1]


def _finite_predictive(mean, var) -> tuple[np.ndarray, np.ndarray]:
    """(mean, max(var, 0)) as float arrays; a non-finite entry raises NumericalError naming the row (a diverged
    model), so no predictive probability is ever NaN."""
    mean = np.asarray(mean, dtype=float)
    var = np.maximum(np.asarray(var, dtype=float), 0.0)
    bad = ~(np.isfinite(mean) & np.isfinite(var))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise NumericalError(
            f"the predictive distribution of f* is not finite at row {i} (mean "
            f"{mean.ravel()[i]!r}, variance {var.ravel()[i]!r}): the model has diverged"
        )
    return mean, var


# ----- probit -----------------------------------------------------------------------------------------------------
def probit_log_likelihood(y: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """log Φ(yf), its first and second derivatives in f: y r and −r(z + r), with z = yf and the inverse Mills ratio
    r = φ(z)/Φ(z) = exp(log φ(z) − log Φ(z)) (stable far into the left tail, where r ≈ −z). Broadcasting shapes."""
    z = y * f
    log_cdf = log_ndtr(z)
    r = np.exp(-0.5 * z * z - _LOG_SQRT_2PI - log_cdf)
    return log_cdf, y * r, -r * (z + r)


def probit_predictive_probability(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """p(y*=1) = ∫Φ(f)N(f|mean, var)df = Φ(mean/√(1 + var)), exactly. Shapes (n*,)."""
    mean, var = _finite_predictive(mean, var)
    return ndtr(mean / np.sqrt(1.0 + var))


def probit_tilted_moments(
    y: np.ndarray, cavity_mean: np.ndarray, cavity_var: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """EP's tilted distribution p̂(f) ∝ Φ(yf) N(f | μ, v): its normaliser and moments (Rasmussen & Williams eq. 3.58).

        z = yμ/√(1+v),  log Z = log Φ(z),  r = φ(z)/Φ(z),
        E[f] = μ + y v r/√(1+v),  Var[f] = v − v² r (z + r)/(1+v).

    r = exp(log φ(z) − log Φ(z)) stays finite far into the left tail (r ≈ −z there), and r(z + r) ∈ (0, 1), so the
    tilted variance stays in (0, v]. y, cavity_mean, cavity_var (v ≥ 0): broadcasting shapes → (log Z, mean, var).
    """
    log_z, alpha, gamma = probit_log_normaliser_derivatives(y, cavity_mean, cavity_var)
    return log_z, cavity_mean + cavity_var * alpha, cavity_var - cavity_var**2 * gamma


def probit_log_normaliser_derivatives(
    y: np.ndarray, cavity_mean: np.ndarray, cavity_var: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """log Z(μ, v) = log ∫Φ(yf)N(f|μ, v)df = log Φ(yμ/√(1+v)) and its derivatives α = ∂log Z/∂μ = y r/√(1+v),
    γ = −∂²log Z/∂μ² = r(z + r)/(1+v) ≥ 0 (also ∂log Z/∂v = (α² − γ)/2). Broadcasting shapes → three arrays."""
    scale = np.sqrt(1.0 + np.asarray(cavity_var, dtype=float))
    z = y * cavity_mean / scale
    log_z = log_ndtr(z)
    r = np.exp(-0.5 * z * z - _LOG_SQRT_2PI - log_z)
    return log_z, y * r / scale, r * (z + r) / scale**2


def probit_site(
    y: np.ndarray, cavity_mean: np.ndarray, cavity_var: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Gaussian site t̃(f) = s̃ exp(−½τ̃f² + ν̃f) that EP puts in place of Φ(yf) given the cavity N(f | μ, v):
    the tilted moments matched, τ̃ = 1/Var[f] − 1/v = γ/(1 − vγ), ν̃ = E[f]/Var[f] − μ/v = (α + μγ)/(1 − vγ), and
    log Z (the site's scale makes ∫ t̃(f) N(f|μ, v) df = Z). For one point, e.g. the Learn tab's EP picture;
    v > 0. Broadcasting shapes → (log Z, τ̃, ν̃)."""
    log_z, alpha, gamma = probit_log_normaliser_derivatives(y, cavity_mean, cavity_var)
    denominator = 1.0 - cavity_var * gamma  # = Var[f]/v ∈ (0, 1]
    return log_z, gamma / denominator, (alpha + cavity_mean * gamma) / denominator


# ----- labels and class probabilities -----------------------------------------------------------------------------
def signed_labels(y: np.ndarray) -> np.ndarray:
    """Class indices {0, 1} (s,) as the binary equations write them: y = 2k − 1 ∈ {−1.0, +1.0} (s,) float. (The
    callers check that the indices are 0 or 1: the engines when given their data, the Gibbs sampler likewise.)"""
    return 2.0 * np.asarray(y) - 1.0


def class_probabilities(p: np.ndarray) -> np.ndarray:
    """p(class 1) (n,) → the (n, 2) class probabilities [1 − p, p] (rows sum to 1)."""
    p = np.asarray(p, dtype=float)
    return np.column_stack([1.0 - p, p])


# ----- the links by name ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Link:
    """A binary likelihood (K = 2, one latent function): its name, (ℓ, ℓ', ℓ'') in f for y ∈ {−1, +1}, and the
    predictive p(y*=1) under a Gaussian q(f*). On the likelihood protocol of the module docstring: its expectations
    are by Gauss–Hermite, so it draws nothing (`mc_samples` 0)."""

    name: str
    log_likelihood: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    predictive_probability: Callable[[np.ndarray, np.ndarray], np.ndarray]
    n_classes: int = 2
    n_latent = 1
    mc_samples = 0

    def equation_labels(self, y: np.ndarray) -> np.ndarray:
        """Class indices (s,) as this link's equations use them: ±1 (`signed_labels`)."""
        return signed_labels(y)

    def variational_expectations(
        self, y: np.ndarray, a: np.ndarray, v: np.ndarray, rng: np.random.Generator | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(E, g_a, g_v) at q(f_i) = N(a_i, v_i) for labels y = ±1 (`gauss_hermite_expectations`); y, a, v (s,) →
        three (s,). `rng` is not used (the quadrature is deterministic)."""
        return gauss_hermite_expectations(self.log_likelihood, y, a, v)

    def predictive(self, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
        """The class probabilities under q(f*) = N(mean, var), mean and var (n*,) → (n*, 2): column k is p(y* = k)."""
        return class_probabilities(self.predictive_probability(mean, var))


LOGIT = Link("logit", logit_log_likelihood, logit_predictive_probability)
PROBIT = Link("probit", probit_log_likelihood, probit_predictive_probability)
LINKS = {link.name: link for link in (LOGIT, PROBIT)}


# ----- logistic-softmax (K classes) ---------------------------------------------------------------------------------
LOGISTIC_SOFTMAX_SAMPLES = 1024
"""Quasi-Monte Carlo points per prediction of the logistic-softmax (`LogisticSoftmax.predictive`)."""


def logistic_softmax(F: np.ndarray) -> np.ndarray:
    """p(y = k | f) = σ(f_k) / Σ_j σ(f_j) along the last axis of F (..., K) → (..., K); rows sum to 1."""
    F = np.asarray(F, dtype=float)
    log_sigma = log_expit(F)
    return np.exp(log_sigma - logsumexp(log_sigma, axis=-1, keepdims=True))


def logistic_softmax_log_likelihood(y: np.ndarray, F: np.ndarray) -> np.ndarray:
    """log p(y_i | f_i) = log σ(f_{i,y_i}) − log Σ_j σ(f_ij) for class indices y (n,) and F (n, K) → (n,)."""
    log_sigma = log_expit(np.asarray(F, dtype=float))
    return log_sigma[np.arange(len(y)), np.asarray(y, dtype=np.intp)] - logsumexp(log_sigma, axis=-1)


@dataclass(frozen=True)
class LogisticSoftmax:
    """The logistic-softmax likelihood of K classes (Galy-Fajou, Wenzel, Donner, Opper, UAI 2019), the link of
    multi-class X-GPC: one latent function per class, p(y = k | f) = σ(f_k) / Σ_j σ(f_j). Its labels are the class
    indices themselves.

    The predictive p(y* = k) = ∫ p(y* = k | f*) Π_j N(f*_j | mean_j, var_j) df* has no closed form; as in the paper it
    is a Monte Carlo average over draws of f* from q(f*), here `samples` scrambled Sobol points (randomised quasi-Monte
    Carlo, a fixed scramble: the prediction is a deterministic function of q) mapped through the normal quantile. Its
    error against a brute-force tensor-product quadrature is below 2e-3 per probability at K = 3 (tests/test_multiclass).

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    samples : int, default 1024
        Quasi-Monte Carlo points per prediction (a power of 2 keeps the Sobol sequence balanced).
    name : str, default "logistic-softmax"
        The likelihood's name, as engine states record it.

    Examples
    --------
    >>> import numpy as np
    >>> link = LogisticSoftmax(3)
    >>> P = link.predictive(np.array([[2.0, 0.0, -2.0]]), np.full((1, 3), 0.5))
    >>> P.shape, bool(np.isclose(P.sum(), 1.0)), bool(P[0, 0] > P[0, 1] > P[0, 2])
    ((1, 3), True, True)
    """

    n_classes: int
    samples: int = LOGISTIC_SOFTMAX_SAMPLES
    name: str = "logistic-softmax"

    def __post_init__(self):
        if isinstance(self.n_classes, bool) or not isinstance(self.n_classes, (int, np.integer)) or self.n_classes < 2:
            raise ValueError(f"the logistic-softmax needs a whole number K ≥ 2 of classes, got {self.n_classes!r}")

    @property
    def n_latent(self) -> int:
        """One latent function per class: K."""
        return self.n_classes

    def equation_labels(self, y: np.ndarray) -> np.ndarray:
        """The class indices (s,) as integers: the multi-class equations index the one-hot Y_ik = [y_i = k] by them."""
        return np.asarray(y, dtype=np.intp)

    def standard_normal_points(self) -> np.ndarray:
        """The `samples` × K quasi-random standard normal points ε of the predictive (fixed scramble; read-only, made
        once per (K, samples))."""
        return _sobol_normal_points(self.n_classes, self.samples).T

    def predictive(self, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
        """p(y* = k) under q(f*_k) = N(mean_k, var_k), independent across k: mean, var (n*, K) → (n*, K), rows summing
        to 1 (the average of σ(f_k)/Σ_j σ(f_j) at f* = mean + √var ∘ ε over the quasi-random ε).

        Computed in the linear domain, σ(f) = 1/(1 + e^{−f}) with one exp per point and class and the normalised
        average as one batched product with the weights 1/(samples · Σ_j σ(f_j)) in a reused buffer of a few rows:
        equal to the log-domain average (`quadrature_average`) to rounding at a fraction of its cost. Rows whose
        normaliser Σ_j σ(f_j) underflows to 0 at some point (every latent mean below about −709) take the log-domain
        form (never NaN)."""
        mean, var = _finite_predictive(mean, var)
        K, samples = self.n_classes, self.samples
        eps = _sobol_normal_points(K, samples)  # (K, samples)
        negative_sd = -np.sqrt(var)
        P = np.empty(mean.shape)
        block = max(1, 100_000 // (samples * K))
        rows = min(block, len(mean))
        buffer, weights = np.empty((rows, K, samples)), np.empty((rows, samples, 1))
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            for start in range(0, len(mean), block):
                part = slice(start, start + block)
                S = buffer[: len(mean[part])]
                np.multiply(negative_sd[part, :, None], eps, out=S)
                S -= mean[part, :, None]  # −f
                np.exp(S, out=S)
                S += 1.0
                np.reciprocal(S, out=S)  # σ(f)
                total = S.sum(axis=1)  # (rows, samples)
                w = weights[: len(S)]
                np.divide(1.0 / samples, total[:, :, None], out=w)
                np.matmul(S, w, out=P[part, :, None])
                underflow = start + np.flatnonzero(~(total > 0).all(axis=1))
                if len(underflow):
                    P[underflow] = self.quadrature_average(mean[underflow], var[underflow])
        return P

    def quadrature_average(self, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
        """The average of `probabilities` (the log-domain form) at f* = mean + √var ∘ ε over the quasi-random ε:
        mean, var (n*, K) → (n*, K)."""
        mean, var = _finite_predictive(mean, var)
        eps = self.standard_normal_points()
        P = np.empty(mean.shape)
        block = max(1, 2_000_000 // (self.samples * self.n_classes))
        for start in range(0, len(mean), block):
            part = slice(start, start + block)
            F = mean[part, None, :] + np.sqrt(var[part, None, :]) * eps  # (rows, samples, K)
            P[part] = self.probabilities(F).mean(axis=1)
        return P

    def probabilities(self, F: np.ndarray) -> np.ndarray:
        """p(y = k | f) along the last axis of F (..., K) → (..., K) (`logistic_softmax`)."""
        return logistic_softmax(F)


@functools.lru_cache(maxsize=16)
def _sobol_normal_points(K: int, samples: int, seed: int = 20190524) -> np.ndarray:
    """The quasi-random standard normal points of `LogisticSoftmax.predictive` (and, with their own `seed`, of
    `bound_points`), (K, samples): `samples` scrambled Sobol points in K dimensions (the scramble fixed by `seed`)
    through the normal quantile, made once per (K, samples, seed) and read-only (the cache hands out the one array)."""
    u = qmc.Sobol(d=K, scramble=True, seed=np.random.default_rng(seed)).random(samples)
    points = np.ascontiguousarray(ndtri(np.clip(u, 1e-12, 1.0 - 1e-12)).T)  # a Sobol point may sit on 0
    points.setflags(write=False)
    return points


# ----- softmax (K classes) --------------------------------------------------------------------------------------------
def softmax_expectations(
    y: np.ndarray, a: np.ndarray, v: np.ndarray, eps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The softmax likelihood's expectations under q(f_i) = Π_k N(f_ik | a_ik, v_ik), by the standard normal points
    eps (S, K) shared by all rows, or (s, S, K) per row, f = a + √v ∘ ε:

        E_i   = E[log softmax(f_i)_{y_i}] = a_{i,y_i} − E[log Σ_j exp f_ij]     (E[f_{i,y_i}] exactly)
        g_a,ik = ∂E_i/∂a_ik = E[∂ℓ/∂f_k]  = Y_ik − E[p_k(f_i)]
        g_v,ik = ∂E_i/∂v_ik = ½E[∂²ℓ/∂f_k²] = −½E[p_k(f_i)(1 − p_k(f_i))]   (Price's theorem; ≤ 0: log-concave)

    with p = softmax(f) and Y_ik = [y_i = k]; averages over the S points. g_a is the exact derivative of the
    estimate of E at fixed ε; g_v is Price's estimator of ∂E/∂v, never positive, which the natural-gradient step
    needs. y (s,) class indices, a, v (s, K) → E (s,), g_a (s, K), g_v (s, K)."""
    y = np.asarray(y, dtype=np.intp)
    F = a[:, None, :] + np.sqrt(np.maximum(v, 0.0))[:, None, :] * eps  # (s, S, K)
    log_normaliser = logsumexp(F, axis=-1, keepdims=True)
    P = np.exp(F - log_normaliser)
    rows = np.arange(len(y))
    g_a = -P.mean(axis=1)
    g_a[rows, y] += 1.0
    return a[rows, y] - log_normaliser[:, :, 0].mean(axis=1), g_a, -0.5 * (P * (1.0 - P)).mean(axis=1)


def softmax(F: np.ndarray) -> np.ndarray:
    """p(y = k | f) = exp(f_k) / Σ_j exp(f_j) along the last axis of F (..., K) → (..., K); rows sum to 1."""
    F = np.asarray(F, dtype=float)
    return np.exp(F - logsumexp(F, axis=-1, keepdims=True))


SOFTMAX_MC_SAMPLES = 32
"""Reparameterised draws per row for each training estimate of the softmax's expectations (`Softmax.mc_samples`)."""

SOFTMAX_BOUND_POINTS = 1024
"""Quasi-Monte Carlo points per row of the softmax's deterministic expectations (the reported bound)."""


@dataclass(frozen=True)
class Softmax(LogisticSoftmax):
    """The softmax likelihood of K classes, p(y = k | f) = exp(f_k) / Σ_j exp(f_j), one latent function per class:
    the likelihood of the non-augmented K-class SVGP (`explorer.svgp`). Its predictive is the logistic-softmax's
    quasi-Monte Carlo average of the softmax in the log domain (`LogisticSoftmax.quadrature_average`).

    Its expectations (`variational_expectations`, `softmax_expectations`) have no closed form and a K-dimensional
    quadrature is out of reach for K = 10, so they are Monte Carlo: for training, `mc_samples` fresh reparameterised
    draws f_i = a_i + √v_i ∘ ε per row from the engine's generator; without a generator (the reported bound), a fixed
    set of `SOFTMAX_BOUND_POINTS` scrambled Sobol points (a fixed scramble: a deterministic function of q(f), whose
    error against a brute-force tensor Gauss–Hermite integral at K = 3 is below 1e-3 per point,
    tests/test_svgp_multiclass.py).

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    samples : int, default 1024
        Quasi-Monte Carlo points per prediction.
    name : str, default "softmax"
        The likelihood's name, as engine states record it.
    mc_samples : int, default 32
        Monte Carlo draws per row of each training estimate of the expectations.

    Examples
    --------
    >>> import numpy as np
    >>> link = Softmax(3)
    >>> P = link.predictive(np.array([[2.0, 0.0, -2.0]]), np.full((1, 3), 1e-12))  # var → 0: softmax of the mean
    >>> bool(np.allclose(P, np.exp([2.0, 0.0, -2.0]) / np.exp([2.0, 0.0, -2.0]).sum()))
    True
    """

    name: str = "softmax"
    mc_samples: int = SOFTMAX_MC_SAMPLES

    def __post_init__(self):
        super().__post_init__()
        samples = self.mc_samples
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
            raise ValueError(f"mc_samples must be a whole number ≥ 1, got {self.mc_samples!r}")

    def variational_expectations(
        self, y: np.ndarray, a: np.ndarray, v: np.ndarray, rng: np.random.Generator | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(E (s,), g_a (s, K), g_v (s, K)) at q(f_i) = Π_k N(a_ik, v_ik) for class indices y (s,), a, v (s, K)
        (`softmax_expectations`): by `mc_samples` fresh draws per row from `rng`, or, with `rng` None, by the fixed
        quasi-Monte Carlo points (`bound_points`)."""
        if rng is None:
            eps = bound_points(self.n_classes)
        else:
            eps = rng.standard_normal((len(y), self.mc_samples, self.n_classes))
        return softmax_expectations(y, a, v, eps)

    def predictive(self, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
        """p(y* = k) under q(f*_k) = N(mean_k, var_k): the log-domain average of the softmax over the quasi-random
        points (`quadrature_average`; exp(f) would overflow in the linear domain). mean, var (n*, K) → (n*, K)."""
        return self.quadrature_average(mean, var)

    def probabilities(self, F: np.ndarray) -> np.ndarray:
        """p(y = k | f) along the last axis of F (..., K) → (..., K) (`softmax`)."""
        return softmax(F)


MULTICLASS_LIKELIHOODS = {"softmax": Softmax}
"""The K-class likelihoods of the protocol by name, each made for K classes (`likelihood(K)`): the SVGP's choices
with K ≥ 3 labels (`methods.svgp_likelihood`)."""


def bound_points(K: int, count: int = SOFTMAX_BOUND_POINTS) -> np.ndarray:
    """The fixed standard normal points (count, K) of the softmax's deterministic expectations: scrambled Sobol (a
    fixed scramble, its own seed) through the normal quantile."""
    return np.ascontiguousarray(_sobol_normal_points(K, count, 20150509).T)
