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
θ_ij = E[ω_ij] = tanh(c/2)/(2c), the binary local step on the points that reach logit j (`StickBreaking.local_step`), and the
natural-gradient targets of q(u_j) are the binary ones (`targets.natural_gradient_targets`) with labels R_ij t_ij
and PG means R_ij θ_ij: a point that does not reach logit j adds nothing to it. The bound per point is the sum of the
binary bounds over the reached logits; at the optimal c (θ(c² − a² − v) = 0) it is (`StickBreaking.bound`)

    Σ_j R_ij (½ t_ij a_ij − log 2cosh(c_ij/2)) ≤ Σ_j R_ij E_q[log σ(t_ij ψ_ij)] = E_q[log p(y_i | f_i)],

exact at v = 0 (log σ(ta) = ta/2 − log 2cosh(a/2)). The ELBO is its sum minus Σ_j KL(q(u_j) ‖ p(u_j)).

Because the likelihood is a product over logits and the q(u_j) are independent, the predictive needs one 1-D
integral per logit: with P_j = ∫σ(ψ)N(ψ | μ*_j, σ*_j²)dψ (the binary predictive, `likelihoods.logit_predictive_
probability`), p(y* = π(k)) = P_k Π_{j<k}(1 − P_j) and p(y* = π(K−1)) = Π_{j<K−1}(1 − P_j), exactly the expectation
of the likelihood above under q (no Monte Carlo), and the rows sum to 1 by the same telescoping.

The model is not symmetric in the classes: the order π changes the prior over class probabilities and the fit; the
rule adopted is the class index order (`CLASS_ORDERS`). Kernel learning is the binary X-GPC's: one Adam step on the
shared kernel along the sum over logits of the binary kernel gradient, of the augmented bound or (the default, as for
two classes) of the exact expected log likelihood by Gauss–Hermite (`kernel_bound`, `logit_pseudo_data`), at its own
default rate (`DEFAULT_KERNEL_RATE`) with the engine's kernel brake (`DEFAULT_KERNEL_PATIENCE`): under this bound σ²
and ℓ can grow without end on a large set. The measurements behind these choices, and those not adopted (one kernel
per logit, a weak kernel prior, σ₀² = 4, ARD): BENCHMARKS.md "multiclass: stick-breaking PG family (issue 29.3b)" and
"multiclass: stick-breaking kernel learning (issue 29.3b)". With K = 2 the model is the binary logit model itself (one
logit, p(y = π(0)) = σ(ψ₀)).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from explorer.likelihoods import _finite_predictive, logit_predictive_pair, logit_pseudo_data
from explorer.polyagamma import log_cosh, pg_mean
from explorer.xgpc_multiclass import FAMILIES

STICK_BREAKING = "stick-breaking"
"""The name of this family among the multi-class X-GPC families (setting `multiclass_family`)."""
MULTICLASS_FAMILIES = (*FAMILIES, STICK_BREAKING)
"""Every multi-class X-GPC family by name: the logistic-softmax model's families of q(λ, n)
(`xgpc_multiclass.FAMILIES`) and this stick-breaking model."""
DEFAULT_MULTICLASS_FAMILY = STICK_BREAKING
"""The multi-class X-GPC family (K ≥ 3) when none is named (setting `multiclass_family`): this stick-breaking model
(BENCHMARKS.md, "multiclass: stick-breaking PG family (issue 29.3b)"); "joint" and "factorised" remain named options."""
CLASS_ORDERS = ("given", "frequency")
"""Rules for the classes' order on the stick: "given" (class index order: the sorted labels, the default, which the
user controls by the labels) or "frequency" (most frequent class first, ties by class index; never better in
BENCHMARKS.md, "multiclass: stick-breaking PG family (issue 29.3b)")."""
DEFAULT_CLASS_ORDER = "given"
DEFAULT_KERNEL_RATE = 0.1
"""The kernel step's Adam rate of this family when the run gives none (setting "hyper_learning_rate"; X-GPC's others
0.01; BENCHMARKS.md "multiclass: stick-breaking kernel learning (issue 29.3b)")."""
DEFAULT_KERNEL_PATIENCE = 10
"""The kernel brake's patience (`kernel_patience`, setting "kernel_patience") when none is given: the kernel's Adam
rate halves after 10 evaluations in a row without a better hold-out NLL (0: no brake)."""
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
def stick_table(n_logits: int) -> np.ndarray:
    """`stick_labels` of every stick position 0…K−1 as one read-only table (K, 2(K−1)), row p the labels R∘t then the
    reach mask R of position p: a minibatch's are its rows of it (`stick_rows`)."""
    t, reach = stick_labels(np.arange(n_logits + 1), n_logits)
    table = np.concatenate([reach * t, reach], axis=1)
    table.setflags(write=False)
    return table


def stick_rows(positions: np.ndarray, n_logits: int) -> tuple[np.ndarray, np.ndarray]:
    """The labels R∘t and the reach mask R (s, K−1) of stick positions p (s,): views of one gather from `stick_table`
    (one call where two cost ten times as much at s = 100)."""
    rows = stick_table(n_logits).take(positions, axis=0)
    return rows[:, :n_logits], rows[:, n_logits:]


@dataclass(frozen=True)
class StickBreaking:
    """The stick-breaking logit likelihood of K classes (the module's model), classes at stick positions `order`.
    Its latent functions are the K − 1 logits; its equation labels are the stick positions.

    Parameters
    ----------
    n_classes : int
        K ≥ 2.
    order : tuple of int, optional
        The classes at stick positions 0…K−1 (a permutation of 0…K−1); default the class index order.

    Examples
    --------
    >>> import numpy as np
    >>> link = StickBreaking(3, (0, 1, 2))
    >>> P = link.predictive(np.array([[2.0, 0.0]]), np.full((1, 2), 1e-12))  # σ(2), σ(−2)σ(0), σ(−2)σ(−0)
    >>> bool(np.allclose(P, [[0.8808, 0.0596, 0.0596]], atol=1e-4)), bool(np.isclose(P.sum(), 1.0))
    (True, True)
    """

    n_classes: int
    order: tuple = None
    name: str = STICK_BREAKING
    family = STICK_BREAKING
    latent_name = "logit"
    kernel_prior = 0
    kernel_patience = DEFAULT_KERNEL_PATIENCE

    def __post_init__(self):
        if isinstance(self.n_classes, bool) or not isinstance(self.n_classes, (int, np.integer)) or self.n_classes < 2:
            raise ValueError(
                f"the stick-breaking likelihood needs a whole number K ≥ 2 of classes, got {self.n_classes!r}"
            )
        if self.order is None:
            object.__setattr__(self, "order", tuple(range(self.n_classes)))
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

    @property
    def n_latent(self) -> int:
        """K − 1, one latent function per logit."""
        return self.n_classes - 1

    def local_step(self, positions: np.ndarray, a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
        """The optimal q(ω_ij) = PG(1, c_ij) of every reached logit given the marginals q(ψ_ij) = N(a_ij, v_ij), a, v
        (s, K−1), and the natural-gradient pseudo-data: c (s, K−1), labels R∘t (s, K−1), PG means θ = R∘tanh(c/2)/(2c)."""
        labels, reach = stick_rows(positions, a.shape[1])
        c = a * a
        c += v
        np.maximum(c, 0.0, out=c)
        np.sqrt(c, out=c)
        theta = pg_mean(c)
        theta *= reach
        return c, labels, theta

    def kernel_pseudo_data(self, positions, a, v, kernel_bound: str) -> tuple[np.ndarray, np.ndarray]:
        """(labels, θ) (s, K−1) of the bound the kernel step ascends (binary X-GPC's `_bound_pseudo_data` per logit),
        zero where a point does not reach the logit."""
        if kernel_bound == "augmented":
            return self.local_step(positions, a, v)[1:]
        labels, reach = stick_rows(positions, a.shape[1])
        reached = np.flatnonzero(reach)  # the quadrature on the entries that count only (about half of them at K = 10)
        pseudo_labels, pseudo_theta = logit_pseudo_data(labels.take(reached), a.take(reached), v.take(reached))
        labels, theta = np.zeros(a.shape), np.zeros(a.shape)
        np.put(labels, reached, pseudo_labels)
        np.put(theta, reached, pseudo_theta)
        return labels, theta

    def bound(self, positions: np.ndarray, a: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The per-point augmented bound at the optimal c, Σ_j R_ij(½t_ij a_ij − log 2cosh(c_ij/2)) (the module's
        formula): stick positions (s,), marginal means a and variances v (s, K−1) → (s,)."""
        t, reach = stick_labels(positions, a.shape[1])
        c = np.sqrt(np.maximum(a * a + v, 0.0))
        return np.sum(reach * (0.5 * t * a - log_cosh(0.5 * c) - _LOG_2), axis=1)

    def state_dict(self) -> dict:
        """The class order, which a saved state records."""
        return {"class_order": np.array(self.order)}

    def check_state(self, state: dict) -> None:
        """Refuses a state that lays the classes on the stick in another order."""
        if tuple(int(k) for k in state["class_order"]) != self.order:
            raise ValueError(
                f"the state lays the classes on the stick in the order {[int(k) for k in state['class_order']]}, this "
                f"engine in {list(self.order)}"
            )
