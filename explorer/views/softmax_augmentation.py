"""The logistic-softmax augmentation of multi-class X-GPC for one point, in pictures: the Learn tab's K-class
counterpart of the binary Pólya-Gamma pictures (`views.learn`). The augmented variables λ (Gamma), n_k (Poisson) and
ω_k (Pólya-Gamma), the two families of the (λ, n) block (`xgpc_multiclass.FAMILIES`) and their bounds are
`explorer.xgpc_multiclass`'s (its module docstring has the equations); here both families sit at their optimum for a
chosen q(f) = Π_k N(f_k | mean_k, var_k), and each one's augmented bound ℓ(f) is, along each f_k, the log of an
unnormalised Gaussian of precision θ_k = E[ω_k] below log p(y | f), with E_q[ℓ(f)] the point's term of the ELBO.

    SoftmaxAugmentation.at(mean, var, label)      # the numbers and the curves as functions of f
    softmax_augmentation_view(mean, var, label)   # the six pictures as a Layout
"""

from __future__ import annotations

from dataclasses import dataclass

import holoviews as hv
import numpy as np
from scipy import stats
from scipy.special import expit, softmax

from explorer.likelihoods import logistic_softmax, logistic_softmax_log_likelihood
from explorer.polyagamma import sample
from explorer.views.learn import DENSITY, filled_histogram
from explorer.views.style import RUN_COLORS, curve, grid, mean_line, panel, styled
from explorer.xgpc_multiclass import (
    augmented_likelihood_terms,
    factorised_bound,
    joint_bound,
    joint_likelihood_terms,
    joint_local_step,
    local_step,
    one_hot,
)

F_GRID = np.linspace(-8.0, 8.0, 321)
LATENT = hv.Dimension("f", label="f_k")
PROBABILITY = hv.Dimension("p", label="probability")
MEAN_GRID = np.linspace(-8.0, 8.0, 61)
"""The means of f_k along which the expected log likelihood and the two bounds are drawn."""
QUADRATURE_NODES = 8_000
"""Gauss–Hermite nodes in all (at most) of the tensor grid for E_q[log p(y | f)]: 20 per class at K = 3."""
NATS = hv.Dimension("nats", label="nats")
FAMILY_STYLES = {
    "joint": dict(color="seagreen", line_width=2),
    "factorised": dict(color="royalblue", line_width=2, dashed=True),
}
_BLACK = dict(color="black", line_width=2)  # the exact curve of a picture
_SOFTMAX = dict(color="royalblue", line_width=2, dashed=True)


def expected_log_likelihood(means: np.ndarray, var: np.ndarray, label: int) -> np.ndarray:
    """E_q[log p(y = label | f)] under q(f) = Π_k N(f_k | mean_k, var_k) for each row of `means` (N, K), one
    variance per class `var` (K,): tensor-product Gauss–Hermite quadrature with ⌊QUADRATURE_NODES^(1/K)⌋ nodes
    per class (at least 4, at most 40) → (N,)."""
    means = np.atleast_2d(np.asarray(means, dtype=float))
    K = means.shape[1]
    nodes = int(np.clip(np.floor(QUADRATURE_NODES ** (1.0 / K) + 1e-9), 4, 40))
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    eps = np.stack(np.meshgrid(*[x] * K, indexing="ij"), axis=-1).reshape(-1, K)
    weights = np.prod(np.stack(np.meshgrid(*[w] * K, indexing="ij"), axis=-1).reshape(-1, K), axis=1)
    weights = weights / weights.sum()
    spread = eps * np.sqrt(np.asarray(var, dtype=float))
    labels = np.full(len(eps), label)
    return np.array([weights @ logistic_softmax_log_likelihood(labels, mean + spread) for mean in means])


@dataclass(frozen=True)
class SoftmaxAugmentation:
    """One point with class index `label` and q(f) = Π_k N(f_k | mean_k, var_k) (mean, var (K,)), at the optimal
    local parameters of the augmented model in both families: c (K,) (c_k = √E[f_k²], the same in both); the paper's
    factorised γ (K,) = E[n_k], α (q(λ) = Ga(α, β = K)) and θ (K,) = E[ω_k] = (Y_k + γ_k) tanh(c_k/2)/(2c_k); the
    joint family's `joint_n` (K,) = E[n_k] = r_k/β, `joint_rate` β (q(λ) = Exp(β)) and `joint_theta` (K,)
    = (Y_k + E[n_k]) tanh(c_k/2)/(2c_k). The curves take F (..., K)."""

    label: int
    mean: np.ndarray
    var: np.ndarray
    c: np.ndarray
    gamma: np.ndarray
    alpha: float
    theta: np.ndarray
    joint_n: np.ndarray
    joint_rate: float
    joint_theta: np.ndarray

    @classmethod
    def at(cls, mean, var, label: int) -> "SoftmaxAugmentation":
        """From q(f)'s means (K,) and variances (K,) or one variance for all, K ≥ 2, and the class index `label`."""
        mean = np.asarray(mean, dtype=float).reshape(-1)
        var = np.broadcast_to(np.asarray(var, dtype=float), mean.shape).copy()
        if len(mean) < 2 or not (np.all(np.isfinite(mean)) and np.all(np.isfinite(var)) and np.all(var >= 0)):
            raise ValueError(
                f"q(f) needs K ≥ 2 finite means and variances ≥ 0, got means {mean.tolist()}, variances {var.tolist()}"
            )
        if not (isinstance(label, (int, np.integer)) and 0 <= label < len(mean)):
            raise ValueError(f"the label must be a class index 0…{len(mean) - 1}, got {label!r}")
        c, gamma, alpha, tanh_ratio = (value[0] for value in local_step(mean[None], var[None]))
        _, joint_n, rate, _ = (value[0] for value in joint_local_step(mean[None], var[None]))
        Y = one_hot(np.array([label]), len(mean))[0]
        return cls(
            int(label),
            mean,
            var,
            c,
            gamma,
            float(alpha),
            (Y + gamma) * tanh_ratio,
            joint_n,
            float(rate),
            (Y + joint_n) * tanh_ratio,
        )

    @property
    def n_classes(self) -> int:
        return len(self.mean)

    @property
    def Y(self) -> np.ndarray:
        """Y (K,): Y_k = [label = k]."""
        return one_hot(np.array([self.label]), self.n_classes)[0]

    def along(self, k: int, f: np.ndarray) -> np.ndarray:
        """F (len(f), K): f in column k, the other latent values at their means (a slice through q's centre)."""
        F = np.tile(self.mean, (len(f), 1))
        F[:, k] = f
        return F

    def likelihood(self, F: np.ndarray) -> np.ndarray:
        """p(y = label | f) = σ(f_label)/Σ_j σ(f_j), F (..., K) → (...)."""
        return logistic_softmax(F)[..., self.label]

    def bound(self, F: np.ndarray) -> np.ndarray:
        """ℓ(f) ≤ log p(y = label | f), F (n, K) → (n,): the augmented model's expected log joint minus the entropy
        of q(λ, n, ω), which is quadratic in each f_k (`xgpc_multiclass.augmented_likelihood_terms` at variance 0)."""
        return self._terms_at(augmented_likelihood_terms, F, self.gamma, self.alpha)

    def joint_bound(self, F: np.ndarray) -> np.ndarray:
        """The joint family's ℓ(f) ≤ log p(y = label | f), F (n, K) → (n,): its expected log joint minus the entropy
        of q(λ, n, ω) at q's optimal local parameters, quadratic in each f_k of precision `joint_theta`
        (`xgpc_multiclass.joint_likelihood_terms` at variance 0)."""
        return self._terms_at(joint_likelihood_terms, F, self.joint_n, self.joint_rate)

    def _terms_at(self, terms, F: np.ndarray, counts: np.ndarray, rate: float) -> np.ndarray:
        """A family's per-point bound `terms(Y, F, 0, c, counts, rate)` at the rows F (n, K), variance 0 → (n,)."""
        F = np.asarray(F, dtype=float)
        rows = (len(F), self.n_classes)
        at = (np.broadcast_to(self.Y, rows), F, np.zeros(rows), np.broadcast_to(self.c, rows))
        return terms(*at, np.broadcast_to(counts, rows), np.full(len(F), rate))

    def expected_slice(self, k: int, means: np.ndarray = MEAN_GRID) -> dict[str, np.ndarray]:
        """As the mean of f_k takes the values `means` (N,) (the other means and every variance as q's): the
        expected log likelihood E_q[log p(y = label | f)] by quadrature (`expected_log_likelihood`), and each
        family's bound on it at its own optimal local parameters (`xgpc_multiclass.joint_bound`,
        `factorised_bound`), in nats: {"expected", "joint", "factorised"} → (N,)."""
        A = self.along(k, np.asarray(means, dtype=float))
        V = np.broadcast_to(self.var, A.shape)
        Y = np.broadcast_to(self.Y, A.shape)
        return {
            "expected": expected_log_likelihood(A, self.var, self.label),
            "joint": joint_bound(Y, A, V),
            "factorised": factorised_bound(Y, A, V),
        }

    def gaps(self) -> dict[str, float]:
        """Each family's gap at q, E_q[log p(y = label | f)] minus its bound, in nats: {"joint", "factorised"}."""
        expected = self.expected_log_likelihood()
        return {"joint": expected - self.joint_elbo_term(), "factorised": expected - self.elbo_term()}

    def joint_elbo_term(self) -> float:
        """The joint family's bound at q: Σ_k Y_k(mean_k/2 − log 2cosh(c_k/2)) − log β."""
        return float(joint_bound(self.Y[None], self.mean[None], self.var[None])[0])

    def ceiling(self, k: int) -> float:
        """sup over f_k of p(y = k | f) with the other latent values at their means: 1/(1 + Σ_{j≠k} σ(mean_j))."""
        others = np.delete(self.mean, k)
        return float(1.0 / (1.0 + expit(others).sum()))

    def elbo_term(self) -> float:
        """E_q[ℓ(f)], the point's term of the ELBO (the factorised family's)."""
        point = (values[None] for values in (self.Y, self.mean, self.var, self.c, self.gamma))
        return float(augmented_likelihood_terms(*point, np.array([self.alpha]))[0])

    def expected_log_likelihood(self) -> float:
        """E_q[log p(y = label | f)] by quadrature (`expected_log_likelihood`), ≥ `joint_elbo_term` ≥ `elbo_term`."""
        return float(expected_log_likelihood(self.mean[None], self.var, self.label)[0])

    def lambda_density(self, lam: np.ndarray) -> np.ndarray:
        """q(λ) = Ga(λ | α, β = K) at λ ≥ 0."""
        return stats.gamma.pdf(lam, self.alpha, scale=1.0 / self.n_classes)

    def count_pmf(self, n: np.ndarray) -> np.ndarray:
        """q(n_k = n) = Po(n | γ_k): n (N,) → (N, K)."""
        return stats.poisson.pmf(np.asarray(n)[:, None], self.gamma)

    def joint_count_pmf(self, n: np.ndarray) -> np.ndarray:
        """The joint family's marginal q(n_k = n) = ∫ Exp(λ | β) Po(n | λ r_k) dλ, geometric with mean
        E[n_k] = r_k/β: β/(β + r_k) · (r_k/(β + r_k))^n, n (N,) → (N, K)."""
        r = self.joint_rate * self.joint_n
        return stats.geom.pmf(np.asarray(n)[:, None] + 1, self.joint_rate / (self.joint_rate + r))

    def count_support(self, tail: float = 1e-3) -> np.ndarray:
        """0 … the largest (1 − tail)-quantile of the 2K count distributions, both families' (at least 0 … 3)."""
        r = self.joint_rate * self.joint_n
        joint = stats.geom.ppf(1.0 - tail, self.joint_rate / (self.joint_rate + r)) - 1
        return np.arange(max(int(stats.poisson.ppf(1.0 - tail, self.gamma).max()), int(joint.max()), 3) + 1)

    def omega_draws(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """`size` exact draws of each ω_k from q(ω_k) = Σ_n Po(n | γ_k) PG(ω | Y_k + n, c_k) (size, K): n_k from
        the Poisson, then ω_k as the sum of Y_k + n_k exact PG(1, c_k) draws (Devroye); h = 0 is the atom ω = 0."""
        draws = np.empty((size, self.n_classes))
        for k in range(self.n_classes):
            h = self.Y[k].astype(int) + rng.poisson(self.gamma[k], size)
            parts = sample(np.full(int(h.sum()), self.c[k]), rng)
            draws[:, k] = np.bincount(np.repeat(np.arange(size), h), weights=parts, minlength=size)
        return draws


def _class_color(k: int) -> str:
    return RUN_COLORS[k % len(RUN_COLORS)]


def likelihood_against_softmax(aug: SoftmaxAugmentation, k: int) -> hv.Overlay:
    """p(y = k | f) along f_k (the other latent values at q's means): the logistic-softmax, whose confidence stops at
    1/(1 + Σ_{j≠k} σ(f_j)) (dotted line), against the softmax e^{f_k}/Σ_j e^{f_j}, which tends to 1."""
    F = aug.along(k, F_GRID)
    logistic = curve((F_GRID, logistic_softmax(F)[:, k]), LATENT, PROBABILITY, "logistic-softmax", **_BLACK)
    soft = curve((F_GRID, softmax(F, axis=1)[:, k]), LATENT, PROBABILITY, "softmax", "Softmax", **_SOFTMAX)
    ceiling = styled(
        hv.HLine(aug.ceiling(k), group="Ceiling", label="ceiling"),
        color="crimson",
        line_width=2,
        bokeh=dict(line_dash="dotted"),
        matplotlib=dict(linestyle="dotted"),
    )
    return panel(
        [logistic, soft, ceiling],
        "Softmax",
        "likelihood",
        title=f"p(y = {k} | f) along f_{k}; ceiling {aug.ceiling(k):.3f}",
        xlabel=f"f_{k}",
        ylim=(-0.02, 1.02),
        legend_position="top_left",
    )


def lambda_view(aug: SoftmaxAugmentation) -> hv.Overlay:
    """q(λ) of both families on [0, the larger 99.9% quantile]: the factorised Ga(α, K) and the joint Exp(β), with
    the factorised E[λ] = α/K (dashed)."""
    upper = max(stats.gamma.ppf(0.999, aug.alpha, scale=1.0 / aug.n_classes), stats.expon.ppf(0.999) / aug.joint_rate)
    lam = np.linspace(0.0, upper, 300)
    mean = aug.alpha / aug.n_classes
    dim = hv.Dimension("lambda", label="λ")
    factorised = curve((lam, aug.lambda_density(lam)), dim, DENSITY, "q(λ)", **_BLACK)
    exponential = (lam, aug.joint_rate * np.exp(-aug.joint_rate * lam))
    joint = curve(exponential, dim, DENSITY, "joint q(λ) = Exp(β)", "Joint", **FAMILY_STYLES["joint"])
    title = f"q(λ): factorised Ga({aug.alpha:.3f}, {aug.n_classes}), joint Exp({aug.joint_rate:.3f})"
    return panel(
        [factorised, joint, mean_line(mean, "E[λ]")], "Gamma", "lambda", title=title, legend_position="top_right"
    )


def counts_view(aug: SoftmaxAugmentation) -> hv.Overlay:
    """q(n_k) of both families for every class on 0 … the largest 99.9% quantile, as spikes side by side: the joint
    family's geometric marginal (E[n_k] = r_k/β, solid) and the factorised Po(γ_k) (pale); series j = 2k (joint)
    and 2k + 1 (factorised) shifted by (j − (2K − 1)/2)·0.12 along n."""
    n = aug.count_support()
    pmfs = {"joint": aug.joint_count_pmf(n), "factorised": aug.count_pmf(n)}
    dim = hv.Dimension("n", label="n")
    spikes = [
        styled(
            hv.Spikes(
                (n + 0.12 * (2 * k + j - (2 * aug.n_classes - 1) / 2), pmfs[family][:, k]),
                kdims=[dim],
                vdims=["pmf"],
                label=f"n_{k} {family}",
            ),
            color=_class_color(k),
            line_width=5,
            alpha=1.0 if family == "joint" else 0.4,
        )
        for k in range(aug.n_classes)
        for j, family in enumerate(pmfs)
    ]
    return panel(
        spikes,
        "Poisson",
        "counts",
        title="q(n_k): joint (solid), factorised (pale)",
        ylim=(0.0, 1.02),
        legend_position="top_right",
        legend_cols=2,
        **({"xticks": [int(count) for count in n]} if len(n) <= 16 else {}),
    )


def omega_view(aug: SoftmaxAugmentation, draws: np.ndarray, bins: int = 40) -> hv.Overlay:
    """The factorised family's q(ω_k): histograms of exact draws of each ω_k (`SoftmaxAugmentation.omega_draws`, (size, K)) beyond the atom at 0,
    scaled to the mass P(ω_k > 0) = 1 − e^{−γ_k} (1 for the label's class), up to their 99.5% quantile; the legend
    gives each E[ω_k] = θ_k and the atom's mass."""
    draws = np.asarray(draws, dtype=float)
    upper = float(np.quantile(draws, 0.995))
    dim = hv.Dimension("omega", label="ω_k")
    layers = []
    for k in range(aug.n_classes):
        positive = draws[:, k][(draws[:, k] > 0) & (draws[:, k] <= upper)]
        atom = f", P(ω = 0) = {np.exp(-aug.gamma[k]):.2f}" if k != aug.label else ""
        label = f"ω_{k}: E = {aug.theta[k]:.3f}{atom}"
        layers.append(
            filled_histogram(positive, dim, label, _class_color(k), bins, alpha=0.45, share=len(positive) / len(draws))
        )
    title = f"ω_k: factorised q(ω_k), {len(draws):,} exact draws each"
    return panel(layers, "PG", "omega", title=title, legend_position="top_right")


def augmented_slice(aug: SoftmaxAugmentation, k: int) -> hv.Overlay:
    """Along f_k (the others at q's means): the likelihood p(y = label | f) and each family's exp ℓ(f), its augmented
    bound at q's optimal local parameters — an unnormalised Gaussian in f_k below it — with q's mean of f_k
    (dashed)."""
    F = aug.along(k, F_GRID)
    likelihood = curve((F_GRID, aug.likelihood(F)), LATENT, PROBABILITY, f"p(y = {aug.label} | f)", **_BLACK)
    bounds = [
        curve((F_GRID, np.exp(values)), LATENT, PROBABILITY, f"exp ℓ(f), {family}", "Bound", **FAMILY_STYLES[family])
        for family, values in (("joint", aug.joint_bound(F)), ("factorised", aug.bound(F)))
    ]
    mean = mean_line(aug.mean[k], f"mean of f_{k}", color="gray", line_width=1)
    title = f"the likelihood and its Gaussian bounds along f_{k}"
    return panel(
        [likelihood, *bounds, mean], "Softmax", "bound", title=title, xlabel=f"f_{k}", legend_position="top_left"
    )


def family_gap_slice(aug: SoftmaxAugmentation, k: int) -> hv.Overlay:
    """The mean-field gap along the mean of f_k (`SoftmaxAugmentation.expected_slice`, the other means and every
    variance as q's): the expected log likelihood E_q[log p(y = label | f)] and the two families' bounds on it, the
    ELBO terms, in nats, with q's mean of f_k (dashed); the title gives each family's gap at q."""
    curves = aug.expected_slice(k)
    gaps = aug.gaps()
    dim = hv.Dimension("mean_k", label=f"mean of f_{k}")
    expected = curve((MEAN_GRID, curves["expected"]), dim, NATS, f"E_q[log p(y = {aug.label} | f)]", **_BLACK)
    bounds = [
        curve((MEAN_GRID, curves[family]), dim, NATS, f"{family} bound", "Bound", **FAMILY_STYLES[family])
        for family in ("joint", "factorised")
    ]
    mean = mean_line(aug.mean[k], f"q's mean of f_{k}", color="gray", line_width=1)
    title = f"gap at q: joint {gaps['joint']:.3f}, factorised {gaps['factorised']:.3f} nats"
    return panel([expected, *bounds, mean], "Gap", "families", title=title, legend_position="bottom_right")


def softmax_augmentation_view(
    mean, var, label: int, k: int | None = None, *, draws: int = 20_000, rng: np.random.Generator | None = None
) -> hv.Layout:
    """The six pictures for q(f) = Π_k N(mean_k, var_k) and class index `label`, sliced along f_k (default the
    label's): the likelihood against the softmax, q(λ), q(n_k) (both families), q(ω_k) (`draws` exact draws with
    `rng`, default seed 0), the two families' augmented bounds and their gaps to the expected log likelihood."""
    aug = SoftmaxAugmentation.at(mean, var, label)
    k = aug.label if k is None else k
    omega = aug.omega_draws(draws, rng if rng is not None else np.random.default_rng(0))
    plots = [
        likelihood_against_softmax(aug, k),
        lambda_view(aug),
        counts_view(aug),
        omega_view(aug, omega),
        augmented_slice(aug, k),
        family_gap_slice(aug, k),
    ]
    return grid(plots, 2, shared_axes=False)
