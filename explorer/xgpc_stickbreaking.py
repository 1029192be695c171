"""Multi-class X-GPC by stick-breaking: K − 1 binary logit GPs, each made conditionally conjugate by the binary
X-GPC's own Pólya-Gamma augmentation, trained by closed-form natural-gradient SVI on sparse inducing points.

Linderman, Johnson, Adams, "Dependent Multinomial Models Made Easy: Stick-Breaking with the Pólya-Gamma Augmentation"
(NeurIPS 2015), here with the sparse variational family of X-GPC (Wenzel et al., AAAI 2019) per logit. The classes are
laid on a stick in an order π (π(0), …, π(K−1) the classes at positions 0…K−1, `stick_order`); with ψ_j = f_j(x),
j = 0…K−2, latent GPs with one shared kernel and inducing inputs Z:

    p(y = π(k) | f) = σ(ψ_k) Π_{j<k} σ(−ψ_j)            (k < K − 1)
    p(y = π(K−1) | f) = Π_{j<K−1} σ(−ψ_j)

(logit j breaks a fraction σ(ψ_j) off what is left of the stick). Summed over k the products telescope:
Σ_k p = 1 − Π_{j<K−1} σ(−ψ_j) + Π_{j<K−1} σ(−ψ_j) = 1 for every f. With p_i the stick position of y_i, its log
likelihood is a sum of binary logit terms on the logits that the point reaches, j ≤ min(p_i, K − 2):

    log p(y_i | f_i) = Σ_j R_ij log σ(t_ij ψ_ij),   R_ij = [j ≤ p_i],   t_ij = +1 if j = p_i, −1 if j < p_i.

Each term is the binary X-GPC likelihood with label t_ij, so the binary augmentation applies term by term,
σ(tψ) = ½ e^{tψ/2} E_{PG(ω | 1, 0)}[e^{−ωψ²/2}], with one PG(1, ·) variable ω_ij per reached logit and nothing else
(no Gamma or Poisson variables, no coupling between logits in the likelihood). With q(u_j) = N(μ_j, Σ_j) and the
marginals q(ψ_ij) = N(a_ij, v_ij) (a = κμ_j, v = K̃ + κΣ_jκᵀ), the optimal q(ω_ij) is PG(1, c_ij), c = √(a² + v),
θ_ij = E[ω_ij] = tanh(c/2)/(2c), the binary local step on the points that reach logit j (`local_step`), and the
natural-gradient targets of q(u_j) are the binary ones (`targets.natural_gradient_targets`) with labels R_ij t_ij
and PG means R_ij θ_ij: a point that does not reach logit j adds nothing to it. The bound per point is the sum of the
binary bounds over the reached logits; at the optimal c (θ(c² − a² − v) = 0) it is (`stick_breaking_bound`)

    Σ_j R_ij (½ t_ij a_ij − log 2cosh(c_ij/2)) ≤ Σ_j R_ij E_q[log σ(t_ij ψ_ij)] = E_q[log p(y_i | f_i)],

exact at v = 0 (log σ(ta) = ta/2 − log 2cosh(a/2)). The ELBO is its sum minus Σ_j KL(q(u_j) ‖ p(u_j)).

Because the likelihood is a product over logits and the q(u_j) are independent, the predictive needs one 1-D
integral per logit: with P_j = ∫σ(ψ)N(ψ | μ*_j, σ*_j²)dψ (the binary predictive, `likelihoods.logit_predictive_
probability`), p(y* = π(k)) = P_k Π_{j<k}(1 − P_j) and p(y* = π(K−1)) = Π_{j<K−1}(1 − P_j), exactly the expectation
of the likelihood above under q (no Monte Carlo), and the rows sum to 1 by the same telescoping.

The model is not symmetric in the classes: the order π changes the prior over class probabilities and the fit. The
rule adopted is the class index order (`DEFAULT_CLASS_ORDER`, `CLASS_ORDERS`: measured in BENCHMARKS.md "multiclass:
stick-breaking PG family (issue 29.3b)"; the most-frequent-first order was never better). Kernel learning is the binary X-GPC's: one Adam step on the shared kernel
along the sum over logits of the binary kernel gradient, of the augmented bound or (the default, as for two classes)
of the exact expected log likelihood by Gauss–Hermite (`kernel_bound`; 16 nodes where the marginal variance allows
it to rounding, `FEW_NODES_MAX_VARIANCE`), the logits' adjoints summed and contracted once
(`hyperparameters.summed_kernel_gradient`). Its default rate is 0.1 (`DEFAULT_KERNEL_RATE`),
with a brake: under this bound σ² and ℓ can grow without end on a large set, so the kernel's rate halves each time
the hold-out NLL a `training.Trainer` reports (`holdout_evaluated`) has not improved for `kernel_patience`
evaluations in a row. Measured and not adopted for this family (BENCHMARKS.md, "multiclass: stick-breaking kernel
learning (issue 29.3b)"): one kernel per logit, a weak kernel prior (it slows the drift, does not stop it), σ₀² = 4,
ARD. With K = 2 the model is the binary logit
model itself (one logit, p(y = π(0)) = σ(ψ₀)).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg.blas import dtrmm, dtrsm
from scipy.special import expit, ndtr

from explorer.convergence import NoImprovement
from explorer.kernels import Kernel
from explorer.likelihoods import (
    _GH_MAX_VARIANCE,
    _GH_NODES,
    _GH_NORMAL_WEIGHTS,
    _GL_NODES,
    _GL_WEIGHTS,
    _finite_predictive,
    _nodes,
)
from explorer.polyagamma import log_cosh, pg_mean
from explorer.xgpc import EVALUATION_CHUNK, MultiLatentXGPC
from explorer.xgpc_multiclass import FAMILIES

STICK_BREAKING = "stick-breaking"
"""The name of this family among the multi-class X-GPC families (setting `multiclass_family`)."""
MULTICLASS_FAMILIES = (*FAMILIES, STICK_BREAKING)
"""Every multi-class X-GPC family by name: the logistic-softmax model's families of q(λ, n)
(`xgpc_multiclass.FAMILIES`) and this stick-breaking model."""
DEFAULT_MULTICLASS_FAMILY = STICK_BREAKING
"""The multi-class X-GPC family (K ≥ 3) when none is named (setting `multiclass_family`): this stick-breaking model,
which beat the joint logistic-softmax family on NLL on 4 of 5 sets and on ECE on 5 of 5 at equal time (BENCHMARKS.md,
"multiclass: stick-breaking PG family (issue 29.3b)"; issue 29: the family that wins on both becomes the default).
"joint" and "factorised" (`xgpc_multiclass.FAMILIES`, whose engine default stays "joint") remain named options."""
CLASS_ORDERS = ("given", "frequency")
"""Rules for the classes' order on the stick: "given" (class index order: the sorted labels, the default) or
"frequency" (most frequent class first, ties by class index). Measured (BENCHMARKS.md, "multiclass: stick-breaking PG
family (issue 29.3b)", 3,000 iterations each): the order moves the test NLL by up to 0.06 (digits, K = 10) and 0.07
(a generated K = 5 set) across five orders, but no rule wins: "frequency" was never better than "given" (equal on
wine and a 0/1 set, 0.006–0.03 worse on digits, the K = 5 set and an imbalanced K = 5 set with the rarest class
first in the given order), so the default is the simplest one, which the user controls by the labels."""
DEFAULT_CLASS_ORDER = "given"
DEFAULT_KERNEL_RATE = 0.1
"""The kernel step's Adam rate of this family when the run gives none (setting "hyper_learning_rate"; X-GPC's others
0.01): at 20 s it beat 0.01 on NLL and ECE on wine, digits, a generated K = 5 set and a 180-feature 0/1 set, and with
the kernel brake (`DEFAULT_KERNEL_PATIENCE`) it no longer runs away on the K = 5 set at 10⁵ rows (BENCHMARKS.md
"multiclass: stick-breaking kernel learning (issue 29.3b)")."""
DEFAULT_KERNEL_PATIENCE = 10
"""The kernel brake's patience (`kernel_patience`, setting "kernel_patience") when none is given: the kernel's Adam
rate halves after 10 evaluations in a row without a better hold-out NLL (0: no brake)."""
KERNEL_BRAKE_TOL = 1e-4
"""The improvement of the best hold-out NLL (nats per point) that counts as one for the kernel brake (the
"no-improvement" early-stopping rule's, `convergence.no_improvement_criterion`)."""
_LOG_2 = math.log(2.0)


def stick_order(counts: np.ndarray, rule=DEFAULT_CLASS_ORDER) -> tuple[int, ...]:
    """The classes at stick positions 0…K−1 under `rule` (`CLASS_ORDERS`) for the class counts (K,) of the training
    labels: "frequency" sorts by count, largest first, ties by class index; "given" is 0…K−1; a sequence of class
    indices is that order itself (checked to be a permutation by `StickBreaking`)."""
    if not isinstance(rule, str):
        return tuple(int(k) for k in rule)
    if rule not in CLASS_ORDERS:
        raise ValueError(f"unknown class order {rule!r}; choose one of {', '.join(CLASS_ORDERS)}")
    counts = np.asarray(counts)
    if rule == "given":
        return tuple(range(len(counts)))
    return tuple(int(k) for k in np.argsort(-counts, kind="stable"))


def stick_labels(positions: np.ndarray, n_logits: int) -> tuple[np.ndarray, np.ndarray]:
    """The binary labels t (s, K−1) (+1 at the point's own position, −1 before it; −1 also where unreached) and the
    reach mask R_ij = [j ≤ p_i] (s, K−1) of stick positions p (s,)."""
    j = np.arange(n_logits)
    positions = np.asarray(positions)[:, None]
    return np.where(j == positions, 1.0, -1.0), (j <= positions).astype(float)


def stick_probabilities(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """p(position k) = P_k Π_{j<k} Q_j for k < K − 1 and Π_{j<K−1} Q_j for the last, from the per-logit
    probabilities P (..., K−1) of breaking (σ(ψ_j) for a draw, or its expectation) and Q = 1 − P of passing on, given
    separately (σ(−ψ_j), not 1 − σ(ψ_j), keeps its digits where P is near 1) → (..., K)."""
    out = np.empty((*P.shape[:-1], P.shape[-1] + 1))
    remaining = np.ones(P.shape[:-1])
    for j in range(P.shape[-1]):
        out[..., j] = remaining * P[..., j]
        remaining = remaining * Q[..., j]
    out[..., -1] = remaining
    return out


@functools.cache
def stick_tables(n_logits: int) -> tuple[np.ndarray, np.ndarray]:
    """`stick_labels` of every stick position 0…K−1 as two read-only tables (K, K−1), the labels R∘t and the reach
    mask R, row p those of position p: a minibatch's are its rows of them (`table[positions]`)."""
    t, reach = stick_labels(np.arange(n_logits + 1), n_logits)
    tables = reach * t, reach
    for table in tables:
        table.setflags(write=False)
    return tables


def local_step(positions: np.ndarray, a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The optimal q(ω_ij) = PG(1, c_ij) of every reached logit given the marginals q(ψ_ij) = N(a_ij, v_ij), a, v
    (s, K−1), and the natural-gradient pseudo-data: c (s, K−1), labels R∘t (s, K−1), PG means θ = R∘tanh(c/2)/(2c)."""
    labels, reach = (table[positions] for table in stick_tables(a.shape[1]))
    c = a * a
    c += v
    np.maximum(c, 0.0, out=c)
    np.sqrt(c, out=c)
    theta = pg_mean(c)
    theta *= reach
    return c, labels, theta


FEW_NODES_MAX_VARIANCE = 0.1
"""The marginal variance up to which the exact bound's expectations (`logit_pseudo_data`, the kernel step's) take 16
Gauss–Hermite nodes instead of 64: there the integrand σ(t(a + √(2v)x)) is analytic within π/√(2v) ≥ 7 of the real
axis (its poles at ±iπ), and the 16-node rule gives the 64-node rule's numbers to rounding (≤ 1.3e-15 apart over
a ∈ [−60, 60] up to v = 0.2, twice this bound; 1.6e-13 at v = 0.3), in a quarter of the elementwise work. Trained
marginals sit there (v ≈ 0.001–0.05 in the cost table's fits after a few hundred steps). A fixed-seed fit's history
stays that of the 64-node rule to ~1e-11 after 400 iterations (the rounding, amplified by kernel learning)."""
_FEW_NODES, _FEW_WEIGHTS = np.polynomial.hermite.hermgauss(16)
_FEW_NORMAL_WEIGHTS = _FEW_WEIGHTS / np.sqrt(np.pi)


def logit_pseudo_data(t: np.ndarray, a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact bound's pseudo-data (ỹ, θ̃) of binary logit terms E_{N(ψ | a, v)}[log σ(tψ)] with labels t = ±1: the
    numbers of `targets.pseudo_data(a, *likelihoods.gauss_hermite_slopes(likelihoods.logit_slopes, t, a, v))` (64
    Gauss–Hermite nodes: the same operations, bit for bit), to rounding with 16 nodes where v ≤
    `FEW_NODES_MAX_VARIANCE`. t, a, v (r,) → ỹ, θ̃ (r,)."""
    few = v <= FEW_NODES_MAX_VARIANCE
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
    scale = np.sqrt(2.0 * np.maximum(v, 0.0))
    scale *= t
    z = np.multiply(scale[:, None], nodes)
    z += (t * a)[:, None]  # z = t(a + √(2v) x_k): the nodes of N(a, v) times the label, exactly
    e = np.abs(z)
    np.negative(e, out=e)
    np.exp(e, out=e)  # e^{−|z|}
    r = np.add(e, 1.0)
    np.reciprocal(r, out=r)  # σ(|z|)
    e *= r  # σ(−|z|)
    upper = r.copy()
    np.copyto(upper, e, where=z > 0)  # σ(−z): the slope of log σ(z) is σ(−z)
    r *= e  # σ(z)σ(−z), minus the curvature
    theta = r @ weights
    return 2.0 * (t * (upper @ weights) + theta * a), theta


def stick_breaking_bound(positions: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The per-point augmented bound at the optimal c, Σ_j R_ij(½t_ij a_ij − log 2cosh(c_ij/2)) (the module's
    formula): stick positions (s,), marginal means a and variances v (s, K−1) → (s,)."""
    t, reach = stick_labels(positions, a.shape[1])
    c = np.sqrt(np.maximum(a * a + v, 0.0))
    return np.sum(reach * (0.5 * t * a - log_cosh(0.5 * c) - _LOG_2), axis=1)


def logit_predictive_pair(mean: np.ndarray, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P = ∫σ(f)N(f | mean, var)df and Q = ∫σ(−f)N(f | mean, var)df = 1 − P, each to full relative precision (Q
    is not formed as 1 − P, which loses its digits where P is near 1), by the rule of
    `likelihoods.logit_predictive_probability` (64-node Gauss–Hermite for var ≤ 2, else Φ(±mean/sd) ± a Gauss–
    Laguerre correction) on one set of nodes: σ(±f) from one e^{−|f|} (σ(f) = 1/(1 + e^{−|f|}) for f > 0, its
    complement e^{−|f|}/(1 + e^{−|f|})), about 0.6× the time of the two separate integrals, equal to them to
    rounding. mean, var finite (n,) → P, Q (n,)."""
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
    return np.clip(P, 0.0, 1.0, out=P), np.clip(Q, 0.0, 1.0, out=Q)


@dataclass(frozen=True)
class StickBreaking:
    """The stick-breaking logit likelihood of K classes (the module's model), classes at stick positions `order`.
    Its latent functions are the K − 1 logits; its equation labels are the stick positions.

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    order : tuple of int
        The classes at stick positions 0…K−1 (a permutation of 0…K−1).

    Examples
    --------
    >>> import numpy as np
    >>> link = StickBreaking(3, (0, 1, 2))
    >>> P = link.predictive(np.array([[2.0, 0.0]]), np.full((1, 2), 1e-12))  # σ(2), σ(−2)σ(0), σ(−2)σ(−0)
    >>> bool(np.allclose(P, [[0.8808, 0.0596, 0.0596]], atol=1e-4)), bool(np.isclose(P.sum(), 1.0))
    (True, True)
    """

    n_classes: int
    order: tuple
    name: str = STICK_BREAKING

    def __post_init__(self):
        if isinstance(self.n_classes, bool) or not isinstance(self.n_classes, (int, np.integer)) or self.n_classes < 2:
            raise ValueError(
                f"the stick-breaking likelihood needs a whole number K ≥ 2 of classes, got {self.n_classes!r}"
            )
        if sorted(self.order) != list(range(self.n_classes)):
            raise ValueError(f"the class order must be a permutation of 0…{self.n_classes - 1}, got {self.order!r}")

    @functools.cached_property
    def positions(self) -> np.ndarray:
        """The stick position of each class (K,): the inverse of `order` (read-only)."""
        positions = np.empty(self.n_classes, dtype=np.intp)
        positions[list(self.order)] = np.arange(self.n_classes)
        positions.setflags(write=False)
        return positions

    def equation_labels(self, y: np.ndarray) -> np.ndarray:
        """The class indices (s,) as stick positions (s,) int."""
        return self.positions[np.asarray(y, dtype=np.intp)]

    def probabilities(self, F: np.ndarray) -> np.ndarray:
        """p(y = k | f) for logits F (..., K−1) → (..., K), column k the class k."""
        F = np.asarray(F, dtype=float)
        return stick_probabilities(expit(F), expit(-F))[..., self.positions]

    def variance_per_class(self, var: np.ndarray) -> np.ndarray:
        """The variance of the logit that breaks each class off the stick (the class at position k: logit
        min(k, K − 2)), for the pictures that show one latent sd per class: var (n*, K−1) → (n*, K)."""
        return var[:, np.minimum(self.positions, self.n_classes - 2)]

    def predictive(self, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
        """p(y* = k) under independent q(ψ*_j) = N(mean_j, var_j): mean, var (n*, K−1) → (n*, K), column k the class
        k, rows summing to 1 (one 1-D integral per logit and its complement, `logit_predictive_pair`)."""
        mean, var = _finite_predictive(mean, var)
        P, Q = logit_predictive_pair(mean.ravel(), var.ravel())
        P, Q = P.reshape(mean.shape), Q.reshape(mean.shape)
        return stick_probabilities(P, Q)[:, self.positions]


class XGPCStickBreaking(MultiLatentXGPC):
    """Multi-class X-GPC by stick-breaking on the multi-latent X-GPC skeleton (`xgpc.MultiLatentXGPC`): K − 1 Gaussian
    q(u_j), one kernel and one Z (X-GPC's kernel caches and projection), the binary PG local step on the points that reach each
    logit and one closed-form natural-gradient step per logit with one step size ρ for all.

    Parameters
    ----------
    X, y, Z, kernel
        The training inputs (n, d) and class indices 0…K−1 (n,) (or a `explorer.sources.DataSource` and None), the
        fixed inducing inputs (m, d; None with `full`) and the starting kernel, shared by the K − 1 logits.
    class_order : {"given", "frequency"} or sequence of int, default "given"
        The rule that lays the classes on the stick (`stick_order`), from the training labels' counts, or the classes
        at stick positions 0…K−1 themselves.
    kernel_patience : int, default `DEFAULT_KERNEL_PATIENCE`
        The kernel brake: each time the hold-out NLL reported by the `training.Trainer` (`holdout_evaluated`) has
        not beaten its best by `KERNEL_BRAKE_TOL` for this many evaluations in a row, the kernel's Adam rate halves
        (for good; the q(u_j) steps go on). 0: no brake.
    **keywords
        `n_classes` (K; default from y) and binary X-GPC's (`xgpc.XGPC`: `full`, `kernel_bound` (summed over the
        logits), `hyper_every` and the SVI skeleton's).

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> X, y = load("blobs-3", n=60, seed=2)
    >>> engine = XGPCStickBreaking(X, y, X[::6], RBF(1.0), batch_size=30, class_order=(2, 0, 1))  # 2 breaks off first
    >>> engine.n_latent, engine.link.equation_labels(np.array([2, 0, 1])).tolist()  # K − 1 logits; stick positions
    (2, [0, 1, 2])
    >>> engine.step(40)
    >>> P = engine.predict_proba(X)
    >>> bool(np.allclose(P.sum(axis=1), 1.0)), float(np.mean(P.argmax(axis=1) == y)) > 0.9
    (True, True)
    """

    def __init__(
        self,
        X,
        y,
        Z,
        kernel: Kernel,
        *,
        class_order=DEFAULT_CLASS_ORDER,
        kernel_patience=DEFAULT_KERNEL_PATIENCE,
        **keywords,
    ):
        if (
            isinstance(kernel_patience, bool)
            or not isinstance(kernel_patience, (int, np.integer))
            or kernel_patience < 0
        ):
            raise ValueError(f"kernel_patience must be a whole number ≥ 0 (0: no brake), got {kernel_patience!r}")
        self.family, self.class_order = STICK_BREAKING, class_order
        super().__init__(X, y, Z, kernel, **keywords)
        self.kernel_brake = NoImprovement(int(kernel_patience), KERNEL_BRAKE_TOL) if kernel_patience else None
        self.kernel_rate_scale = 1.0

    def _likelihood(self, source, n_classes: int) -> StickBreaking:
        """The stick-breaking likelihood of K classes, laid on the stick by `class_order` (from the labels' counts)."""
        counts = (
            np.bincount(source.labels(), minlength=n_classes)
            if self.class_order == "frequency"
            else np.zeros(n_classes)
        )
        return StickBreaking(n_classes, stick_order(counts, self.class_order))

    @property
    def n_logits(self) -> int:
        """K − 1, the number of latent functions."""
        return self.n_classes - 1

    n_latent = n_logits
    _latent_name = "logit"

    # ----- the local step and the natural-gradient targets -----------------------------------------------------------
    def marginals(self, kappa: np.ndarray, K_tilde: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The marginals q(ψ_ij) = N(a_ij, v_ij) of the rows with projection κ (s, m), K̃ (s,): a, v (s, K−1), with
        κΣ_jκᵀ's diagonal the row sums of squares of κL_P,jᵀ⁻¹, a triangular solve from the right (BLAS trsm on
        κ in Fortran order: at s = 100 about half the time of the left solve L_P,j⁻¹κᵀ at m = 50, two thirds at
        m = 100, equal to it to rounding)."""
        R = np.empty((self.n_logits, self.m, len(kappa)))  # R[j]ᵀ = κL_P,jᵀ⁻¹ (s, m), Fortran-ordered
        for j in range(self.n_logits):
            np.copyto(R[j].T, kappa)  # then solved over in place (L_P,j Fortran-ordered)
            dtrsm(1.0, self.L_P[j], R[j].T, side=1, lower=1, trans_a=1, overwrite_b=1)
        v = np.einsum("jms,jms->sj", R, R)
        v += K_tilde[:, None]
        return kappa @ self.mu.T, v

    def _targets(self, kappa, positions, a, v) -> tuple[np.ndarray, np.ndarray]:
        """The flat targets λ̂ ((K−1)(m + m²),) on a minibatch with stick positions (s,) and marginals a, v, after its
        local step, and c (s, K−1): per logit `targets.natural_gradient_targets` written in place, λ̂₂ = −½K_mm⁻¹ −
        B_jᵀB_j with B_j = (½(n/s)θ_j)^½ ∘ κ, B_jᵀB_j one symmetric rank-s update (numpy's product of a matrix with
        its own transpose: half a general product's work, exactly symmetric)."""
        c, labels, theta = local_step(positions, a, v)
        m, J, scale = self.m, self.n_logits, self.n / len(positions)
        target = np.empty((J, m + m * m))
        np.matmul(labels.T, kappa, out=target[:, :m])
        target[:, :m] *= 0.5 * scale
        weights = np.multiply(theta.T, 0.5 * scale)
        np.sqrt(weights, out=weights)  # (K−1, s)
        lam2 = target[:, m:].reshape(J, m, m)
        prior = -0.5 * self.K_inv
        for j in range(J):
            B = np.multiply(weights[j, :, None], kappa)
            np.matmul(B.T, B, out=lam2[j])
            np.subtract(prior, lam2[j], out=lam2[j])
        return target.ravel(), c

    # ----- the kernel step ---------------------------------------------------------------------------------------------
    def holdout_evaluated(self, nll: float) -> None:
        """The kernel brake (`kernel_patience`): take the hold-out NLL of an evaluation at the current state; after
        `kernel_patience` evaluations in a row that did not beat the best by `KERNEL_BRAKE_TOL`, halve the kernel's
        Adam rate (`kernel_rate_scale`) and count afresh. Under the stick model's bound σ² and ℓ can grow without
        end on a large set (a near-linear drift that the hold-out NLL stops rewarding, BENCHMARKS.md "multiclass:
        stick-breaking kernel learning (issue 29.3b)"): the brake bounds the kernel's further travel by what the
        held-out data still reward."""
        if self.kernel_brake is not None and self.hyper_optimizer is not None and self.kernel_brake.update(nll):
            self.kernel_rate_scale *= 0.5
            self.kernel_brake.count = 0

    def _hyper_rate_scale(self) -> float:
        """The kernel brake's factor on Adam's rate (1 until the brake halves it)."""
        return self.kernel_rate_scale

    def _kernel_pseudo_data(self, positions, a, v) -> tuple[np.ndarray, np.ndarray]:
        """(labels, θ) (s, K−1) of the bound the kernel step ascends (binary X-GPC's `_bound_pseudo_data` per logit),
        zero where a point does not reach the logit."""
        if self.kernel_bound == "augmented":
            return local_step(positions, a, v)[1:]
        labels, reach = (table[positions] for table in stick_tables(self.n_logits))
        reached = np.flatnonzero(reach)  # the quadrature on the entries that count only (about half of them at K = 10)
        pseudo_labels, pseudo_theta = logit_pseudo_data(labels.take(reached), a.take(reached), v.take(reached))
        theta = np.zeros(a.shape)
        np.put(labels, reached, pseudo_labels)
        np.put(theta, reached, pseudo_theta)
        return labels, theta

    # ----- objective and prediction ----------------------------------------------------------------------------------
    def elbo(self, index: np.ndarray | None = None) -> float:
        """The augmented ELBO with all constants (`stick_breaking_bound` summed, minus the KL), a lower bound on
        log p(y); on all n points (in chunks), or estimated as (n/s)Σ_{i∈index}(…) − KL on the rows `index`."""

        def terms(part, X_part, positions):
            return self._reached_bound(positions, *self.project(X_part, part)[:2])

        return self._estimate(terms, index, EVALUATION_CHUNK) - self.kl()

    def _reached_bound(self, positions: np.ndarray, kappa: np.ndarray, K_tilde: np.ndarray) -> float:
        """Σ_i of `stick_breaking_bound` over rows with stick positions (s,), projection κ (s, m) and K̃ (s,),
        computing the marginals of logit j only on the rows that reach it (p_i ≥ j; on average about half of
        (s, K − 1) at K = 5 and 10): the rows sorted by position, largest first, so those of logit j are a leading
        block, its κΣ_jκᵀ diagonal from the triangular product W_jκᵀ (BLAS trmm, half a general product's work)."""
        order = np.argsort(-positions, kind="stable")
        positions, kappa, K_tilde = positions[order], kappa[order], K_tilde[order]
        reached = np.searchsorted(-positions, -np.arange(self.n_logits), side="right")  # rows with p_i ≥ j
        total = 0.0
        for j, rows in enumerate(reached):
            block = kappa[:rows]
            R = dtrmm(1.0, self.W[j], block.T, lower=1)  # W_jκᵀ (m, rows)
            a = block @ self.mu[j]
            c = np.sqrt(np.maximum(a * a + K_tilde[:rows] + np.einsum("ij,ij->j", R, R), 0.0))
            t = np.where(positions[:rows] == j, 0.5, -0.5)
            total += float(np.sum(t * a - log_cosh(0.5 * c))) - _LOG_2 * int(rows)
        return total

    # ----- persistence -------------------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {
            **super().state_dict(),
            "class_order": np.array(self.link.order),
            "kernel_rate_scale": self.kernel_rate_scale,
            "kernel_brake": None if self.kernel_brake is None else self.kernel_brake.state_dict(),
        }

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self.kernel_rate_scale = float(state.get("kernel_rate_scale", 1.0))  # states saved before the brake: 1
        if self.kernel_brake is not None and state.get("kernel_brake") is not None:
            self.kernel_brake.load_state_dict(state["kernel_brake"])

    def _check_state(self, state: dict) -> None:
        super()._check_state(state)
        if tuple(int(k) for k in state["class_order"]) != self.link.order:
            raise ValueError(
                f"the state lays the classes on the stick in the order {[int(k) for k in state['class_order']]}, this "
                f"engine in {list(self.link.order)}"
            )
