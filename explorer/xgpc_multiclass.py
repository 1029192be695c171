"""Multi-class X-GPC: the logistic-softmax GP classifier made conditionally conjugate by augmentation, trained by
closed-form natural-gradient SVI on sparse inducing points.

Galy-Fajou, Wenzel, Donner, Opper, "Multi-Class Gaussian Process Classification Made Conjugate: Efficient Inference
via Data Augmentation" (UAI 2019). K latent GPs f_k with one shared kernel and inducing inputs Z, u_k = f_k(Z),
p(y_i = k | f_i) = σ(f_ik) / Σ_j σ(f_ij) (`likelihoods.LogisticSoftmax`); Y_ik = [y_i = k] one-hot. Augmentation of
point i: 1/Σ_j σ(f_ij) = ∫₀^∞ exp(−λ_i Σ_j σ(f_ij)) dλ_i (λ_i under a flat prior), exp(−λσ(f)) =
Σ_n Po(n | λ) σ(−f)^n (Poisson n_ik), and σ(f)^Y σ(−f)^n = 2^{−(Y+n)} e^{(Y−n)f/2} E_{PG(ω | Y+n, 0)}[e^{−ωf²/2}]
(Pólya-Gamma ω_ik). Every conditional is then closed form. The variational family is q(u_k) = N(μ_k, Σ_k) times a
family of the local block (λ_i, n_i, ω_i); given the marginals q(f_ik) = N(ã_ik, ṽ_ik) (ã = κμ_k,
ṽ = K̃ + κΣ_kκᵀ) its optimal q(ω_ik | n_ik) is PG(Y_ik + n_ik, c_ik), c_ik = √(ã_ik² + ṽ_ik), whatever the family of
(λ, n), and with it the expected log of the augmented likelihood of class k is, at every n_ik,

    ½(Y_k − n_k)ã_k − (Y_k + n_k) log(2 cosh(c_k/2))     (linear in n_k; E[ω_k | n_k] = (Y_k + n_k) tanh(c_k/2)/(2c_k))

Two families of the (λ, n) block, `FAMILIES` (a pair of functions each: the local step and the per-point bound):

"joint" (the default): q(λ_i, n_i) left unfactorised. Its optimum is the normalised exp of the expected log joint,
with r_k = e^{−ã_k/2}/(2 cosh(c_k/2)) (∈ (0, 1); = σ(−ã_k) at ṽ = 0):

    q(λ, n) ∝ e^{Σ_k Y_k(ã_k/2 − log 2cosh(c_k/2))} Π_k (λ r_k)^{n_k} e^{−λ}/n_k!
    ⇒ q(n_k | λ) = Po(λ r_k) (independent given λ), q(λ) ∝ e^{−λK} e^{λ Σ_k r_k}: Exp(rate β = K − Σ_k r_k),
    E[λ] = 1/β, E[n_k] = r_k/β,  θ_k = E[ω_k] = (Y_k + E[n_k]) tanh(c_k/2)/(2c_k),

and the bound per point is the log of the normaliser (`joint_likelihood_terms` at the optimum):

    Σ_k Y_k(ã_k/2 − log 2cosh(c_k/2)) − log(K − Σ_k r_k),

which at ṽ = 0 is log σ(ã_y) − log Σ_k σ(ã_k) (r_k = 1 − σ(ã_k)), the exact log likelihood: no gap where the mean is
certain. For a member q(λ) = Exp(β), q(n_k | λ) = Po(λ s_k) (s_k = β E[n_k]) away from the optimum, the bound is
Σ_k [½(Y_k − E n_k)ã_k − ½θ_k(ã_k² + ṽ_k) + ½c_k²θ_k − (Y_k + E n_k) log 2cosh(c_k/2)] + Σ_k (s_k − 1 − s_k log s_k)/β
+ 1 − log β (the Poisson prior against its entropy, then the entropy of Exp(β); the flat prior on λ adds nothing).

"factorised" (the paper's): q(λ_i) = Ga(α_i, β_i), q(n_ik) = Po(γ_ik), independent:

    γ_ik = exp(ψ(α_i)) / β_i · r_ik,   α_i = 1 + Σ_k γ_ik,   β_i = K        (the pair solved jointly: `local_step`)
    θ_ik = (Y_ik + γ_ik) tanh(c_ik/2) / (2c_ik)

with the ELBO per point (`augmented_likelihood_terms`)

    Σ_k [½(Y_k − γ_k)ã_k − ½θ_k(ã_k² + ṽ_k) + ½c_k²θ_k − (Y_k + γ_k) log(2 cosh(c_k/2))
         + γ_k(ψ(α) − log β − log γ_k + 1)] − Kα/β + α − log β + log Γ(α) + (1 − α)ψ(α).

Its counts use the geometric mean e^{ψ(α)}/β of λ (≈ 0.56 of E λ), so E[n] is several times too small, every latent
mean sits above the exact posterior's and the class probabilities are flatter; its gap does not vanish at ṽ = 0.

Either way the natural-gradient targets of q(u_k) are the binary X-GPC's (`targets.natural_gradient_targets`) with the
labels y = Y_k − E[n_k] and PG means θ_k, and the ELBO, a lower bound on E_q[log p(y_i | f_i)] summed minus the KL, is
evaluated at the family's optimal local parameters. The kernel step ascends that bound plus, by default, a weak
log-normal prior on (log ℓ, log σ²) around the initial kernel (`kernel_prior`; issue 29.3: the bound alone lets σ² and
ℓ drift towards a near-linear latent function on some sets). One kernel for all classes (its gradient the sum of the K
binary-form gradients, `hyperparameters.elbo_kernel_gradient` at (Y_k − E[n_k], θ_k), exact for the bound at its
optimal locals by the envelope theorem): one K_mm factor per kernel step instead of K, and one length scale that the K
latent functions of a K-class set share. Memory O(K m² + s·m).

With K = 2 the model is a valid two-class classifier, but not the paper's logit one (README, "Two labels keep the
paper's logit model"): the project's binary "xgpc" stays the logit model (`methods.build_xgpc`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gammaln, polygamma

from explorer.likelihoods import LogisticSoftmax
from explorer.polyagamma import log_cosh, pg_mean

_LOG_2 = math.log(2.0)
_NEWTON_STEPS = 30


def solve_alpha(w: np.ndarray) -> np.ndarray:
    """The joint optimum of q(λ_i) and q(n_i): α = 1 + Σ_k γ_k with γ_k = e^{ψ(α)}/K · r_k, i.e. the root of
    h(α) = α − 1 − w e^{ψ(α)} with w = Σ_k r_k / K, r_k = e^{−ã_k/2}/(2 cosh(c_k/2)) ∈ (0, 1) (so w ∈ (0, 1)).
    h is increasing (e^{ψ} ψ' < 1) and concave (e^{ψ} is convex), so Newton from the asymptotic root
    (1 − w/2)/(1 − w) (from e^{ψ(α)} ≈ α − ½) lands at or below the root and then climbs to it in a few steps.
    w (s,) → α (s,)."""
    w = np.clip(w, 0.0, 1.0 - 1e-12)
    alpha = np.maximum((1.0 - 0.5 * w) / (1.0 - w), 1.0)
    for _ in range(_NEWTON_STEPS):
        e_psi = np.exp(digamma(alpha))
        h = alpha - 1.0 - w * e_psi
        step = h / (1.0 - w * e_psi * polygamma(1, alpha))
        alpha = np.maximum(alpha - step, 1.0)
        if np.all(np.abs(step) <= 1e-12 * alpha):
            break
    return alpha


def local_step(a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The optimal local parameters of the paper's "factorised" family given the marginals q(f_ik) = N(a_ik, v_ik),
    a, v (s, K): c (s, K), γ = E[n] (s, K), α (s,) (β = K), θ without the labels' share, i.e. tanh(c/2)/(2c) (s, K)."""
    K = a.shape[1]
    c = np.sqrt(np.maximum(a * a + v, 0.0))
    log_r = -0.5 * a - (log_cosh(0.5 * c) + _LOG_2)  # log of e^{−a/2}/(2 cosh(c/2))
    r = np.exp(log_r)
    alpha = solve_alpha(r.sum(axis=1) / K)
    gamma = np.exp(digamma(alpha) - math.log(K))[:, None] * r
    return c, gamma, alpha, pg_mean(c)


def augmented_likelihood_terms(
    Y: np.ndarray, a: np.ndarray, v: np.ndarray, c: np.ndarray, gamma: np.ndarray, alpha: np.ndarray
) -> np.ndarray:
    """Per-point ELBO terms of the "factorised" family (the module's formula) at local parameters (c, γ (s, K),
    α (s,); β = K), one-hot Y, marginal means a and variances v (s, K) → (s,)."""
    K = a.shape[1]
    log_beta = math.log(K)
    psi = digamma(alpha)
    theta = (Y + gamma) * pg_mean(c)
    safe_gamma = np.where(gamma > 0, gamma, 1.0)
    per_class = (
        0.5 * (Y - gamma) * a
        - 0.5 * theta * (a * a + v)
        + 0.5 * c * c * theta
        - (Y + gamma) * (log_cosh(0.5 * c) + _LOG_2)
        + gamma * (psi[:, None] - log_beta - np.log(safe_gamma) + 1.0)
    )
    # −Kα/β + α: the Poisson terms' −E[λ] per class and the Gamma entropy's α cancel at β = K
    return per_class.sum(axis=1) - log_beta + gammaln(alpha) + (1.0 - alpha) * psi


def joint_local_step(a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The optimal joint q(λ_i, n_i) given the marginals q(f_ik) = N(a_ik, v_ik), a, v (s, K) (the module's "joint"
    family): c (s, K), E[n] = r/β (s, K), the rate β = K − Σ_k r_k of q(λ) = Exp(β) (s,), and θ without the labels'
    share, tanh(c/2)/(2c) (s, K). β is summed as Σ_k (1 − r_k), each
    1 − r_k = (−expm1(−(a + c)/2) + e^{−c})/(1 + e^{−c}) (a + c ≥ 0), so no digits are lost where every r_k is near 1."""
    c = np.sqrt(np.maximum(a * a + v, 0.0))
    r = np.exp(-0.5 * a - (log_cosh(0.5 * c) + _LOG_2))  # e^{−a/2}/(2 cosh(c/2))
    e_c = np.exp(-c)
    rate = ((-np.expm1(-0.5 * (a + c)) + e_c) / (1.0 + e_c)).sum(axis=1)
    return c, r / rate[:, None], rate, pg_mean(c)


def joint_likelihood_terms(
    Y: np.ndarray, a: np.ndarray, v: np.ndarray, c: np.ndarray, expected_n: np.ndarray, rate: np.ndarray
) -> np.ndarray:
    """Per-point bound of the joint family's member q(λ) = Exp(rate β), q(n_k | λ) = Po(λ s_k) with s_k = β E[n_k],
    q(ω_k | n_k) = PG(Y_k + n_k, c_k) (the module's formula; at `joint_local_step`'s output it is
    Σ_k Y_k(a_k/2 − log 2cosh(c_k/2)) − log β). One-hot Y, marginal means a, variances v, c, E[n] (s, K), β (s,)
    → (s,)."""
    theta = (Y + expected_n) * pg_mean(c)
    s = rate[:, None] * expected_n
    s_log_s = np.where(s > 0, s * np.log(np.where(s > 0, s, 1.0)), 0.0)
    per_class = (
        0.5 * (Y - expected_n) * a
        - 0.5 * theta * (a * a + v)
        + 0.5 * c * c * theta
        - (Y + expected_n) * (log_cosh(0.5 * c) + _LOG_2)
        + (s - 1.0 - s_log_s) / rate[:, None]
    )
    return per_class.sum(axis=1) + 1.0 - np.log(rate)


def joint_bound(Y: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The joint family's per-point bound at its optimum, Σ_k Y_k(a_k/2 − log 2cosh(c_k/2)) − log(K − Σ_k r_k): one-hot
    Y, marginal means a and variances v (s, K) → (s,). The closed form, not `joint_likelihood_terms` at the optimum:
    that sums terms of size E[n] that cancel, and E[n] grows without bound where every σ(a_k) is tiny."""
    c, _, rate, _ = joint_local_step(a, v)
    return np.sum(Y * (0.5 * a - log_cosh(0.5 * c) - _LOG_2), axis=1) - np.log(rate)


def factorised_bound(Y: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The factorised family's per-point bound at its optimum (`augmented_likelihood_terms` at `local_step`): one-hot
    Y, marginal means a and variances v (s, K) → (s,)."""
    return augmented_likelihood_terms(Y, a, v, *local_step(a, v)[:3])


FAMILIES = {"joint": (joint_local_step, joint_bound), "factorised": (local_step, factorised_bound)}
"""The variational families of the (λ, n) block by name: (local step, per-point bound at the optimum). A local step
maps the marginals a, v (s, K) to (c, E[n] (s, K), its q(λ)'s parameter (s,), tanh(c/2)/(2c) (s, K)); the bound maps
(Y, a, v) to (s,)."""
DEFAULT_FAMILY = "joint"
DEFAULT_KERNEL_PRIOR = 1.0
"""The standard deviation of the kernel step's log-normal prior around the initial kernel
(`hyperparameters.LogNormalKernelPrior`) of this likelihood (`AugmentedLogisticSoftmax.kernel_prior`; 0: none)."""


def one_hot(y: np.ndarray, K: int) -> np.ndarray:
    """Y_ik = [y_i = k] for class indices y (s,) → (s, K) float."""
    Y = np.zeros((len(y), K))
    Y[np.arange(len(y)), y] = 1.0
    return Y


@dataclass(frozen=True)
class AugmentedLogisticSoftmax(LogisticSoftmax):
    """The logistic-softmax likelihood of K classes (`likelihoods.LogisticSoftmax`) with the module's augmentation in
    the variational family `family` of the (λ, n) block (`FAMILIES`): a likelihood of `xgpc.MultiLatentXGPC` (the
    augmented-likelihood protocol of `explorer.likelihoods`), one latent function per class, its labels the class
    indices. Its kernel step ascends the augmented bound whatever `kernel_bound` (no exact one in closed form),
    by default plus a weak log-normal prior around the initial kernel (`kernel_prior`).

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    samples : int, default 1024
        Quasi-Monte Carlo points per prediction (`likelihoods.LogisticSoftmax`).
    name : str, default "logistic-softmax"
        The likelihood's name, as engine states record it.
    family : {"joint", "factorised"}, default "joint"
        The variational family of the (λ, n) block (`FAMILIES`): "joint" q(λ, n), exact at zero variance, or the
        paper's factorised q(λ)q(n).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> from explorer.xgpc import MultiLatentXGPC
    >>> X, y = load("blobs-3", n=90, seed=0)
    >>> joint, factorised = (
    ...     MultiLatentXGPC(X, y, X[::9], RBF(1.0), likelihood=AugmentedLogisticSoftmax(3, family=f), batch_size=45)
    ...     for f in FAMILIES
    ... )
    >>> bool(joint.elbo() > factorised.elbo())  # at one q(u), the prior: the joint family's bound is the tighter
    True
    >>> joint.step(40)
    >>> float(np.mean(joint.predict_proba(X).argmax(axis=1) == y)) > 0.9
    True
    """

    family: str = DEFAULT_FAMILY
    latent_name = "class"
    kernel_prior = DEFAULT_KERNEL_PRIOR
    kernel_patience = 0

    def __post_init__(self):
        super().__post_init__()
        if self.family not in FAMILIES:
            raise ValueError(f"unknown multi-class family {self.family!r}; choose one of {', '.join(FAMILIES)}")

    def local_step(self, labels: np.ndarray, a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
        """The family's optimal local parameters at the marginals a, v (s, K) for class indices (s,): c (s, K) and
        the natural-gradient pseudo-data, labels Y_k − E[n_k] and PG means θ_k = (Y_k + E[n_k]) tanh(c_k/2)/(2c_k)
        (s, K)."""
        Y = one_hot(labels, self.n_classes)
        c, expected_n, _, tanh_part = FAMILIES[self.family][0](a, v)
        return c, Y - expected_n, (Y + expected_n) * tanh_part

    def kernel_pseudo_data(self, labels, a, v, kernel_bound: str) -> tuple[np.ndarray, np.ndarray]:
        """(labels Y_k − E[n_k], PG means θ_k) (s, K) of the augmented bound at the local optimum, whatever
        `kernel_bound` (exact for the bound's kernel gradient by the envelope theorem)."""
        return self.local_step(labels, a, v)[1:]

    def bound(self, labels: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The family's per-point bound at its optimum (`FAMILIES`) for class indices (s,), a, v (s, K) → (s,)."""
        return FAMILIES[self.family][1](one_hot(labels, self.n_classes), a, v)

    def state_dict(self) -> dict:
        """Nothing beyond the name and K, which the engine's state records."""
        return {}

    def check_state(self, state: dict) -> None:
        """Every state of this name and K is this likelihood's."""
