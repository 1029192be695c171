"""MCMC versus variational: X-GPC's q(f) against the exact PG Gibbs posterior at the same kernel (paper Fig. 1).

At test points: posterior mean, variance and p(y*=1) of X-GPC (sparse or full) against the Gibbs sampler, with
correlation and mean/max absolute difference per pair, the mean KL between the Gaussian marginals, and the test NLL
and error of both. On the training data: how much the PG augmentation loosens the bound for the same q(u) (paper
§"On the quality of the approximation"),

    L_orig − L_aug = Σ_i E_q(f_i)[KL(q(ω_i) ‖ p(ω_i | f_i, y_i))] = Σ_i E_N(f_i|m_i,v_i)[KL(PG(1,c_i) ‖ PG(1,|f_i|))],

with L_orig = Σ_i E_q[log σ(y_i f_i)] − KL(q(u) ‖ p(u)) the non-augmented ELBO of the same q(u), q(f_i) = N(m_i, v_i)
its marginals through the sparse projection (m_i = κ_iμ, v_i = K̃_ii + κ_iΣκ_iᵀ) and c_i = sqrt(v_i + m_i²).
Expectations over f_i are 64-node Gauss–Hermite. The study that fits, samples and compares is
`explorer.studies.comparison`.

K ≥ 3 classes: the same measures per class, the probabilities the (n*, K) class probabilities, and the augmentation
gap L_orig − L_aug itself (no separate closed form), for the logistic-softmax fit (either family of q(λ, n)) against
`gibbs_multiclass.MulticlassGibbsSampler` or the stick-breaking one against
`gibbs_stickbreaking.StickBreakingGibbsSampler` of the same class order (L_orig: `nonaugmented_elbo`).
A fit is compared only with the sampler of its own model (a ValueError otherwise).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.special import log_expit

from explorer import metrics, polyagamma
from explorer.gibbs import GibbsChains
from explorer.gibbs_stickbreaking import StickBreakingGibbsSampler
from explorer.inputs import labelled_data
from explorer.kernels import Kernel
from explorer.likelihoods import (
    class_probabilities,
    logistic_softmax_log_likelihood,
    normal_expectation,
    signed_labels,
)
from explorer.xgpc import XGPC
from explorer.xgpc_stickbreaking import StickBreaking, stick_labels

_CHUNK = 4096


def training_marginals(model: XGPC) -> tuple[np.ndarray, np.ndarray]:
    """q(f_i) = N(κ_iμ, K̃_ii + κ_iΣκ_iᵀ) at the n training points (sparse or full), in chunks. Shapes (n,), (n,);
    for K ≥ 3 the engine's `marginals` per latent function, (n, K), (n, K) (stick-breaking: (n, K − 1) per logit)."""
    if model.n_classes > 2:
        shape = (model.n, len(model.mu))  # one row of μ per latent function
        mean, var = np.empty(shape), np.empty(shape)
    else:
        mean, var = np.empty(model.n), np.empty(model.n)
        Sigma = model.Sigma
    for start in range(0, model.n, _CHUNK):
        index = np.arange(start, min(start + _CHUNK, model.n))
        kappa, K_tilde, _ = model.project(model.X[index], index)
        if model.n_classes > 2:
            mean[index], var[index] = model.marginals(kappa, K_tilde)
            continue
        mean[index] = kappa @ model.mu
        var[index] = K_tilde + np.einsum("ij,jk,ik->i", kappa, Sigma, kappa)
    return mean, var


def nonaugmented_elbo(model: XGPC) -> float:
    """L_orig = Σ_i E_q[log p(y_i | f_i)] − KL(q(u) ‖ p(u)) for X-GPC's current q(u): log σ(y_i f_i) by quadrature
    over q(f_i); for K ≥ 3 the logistic-softmax log p(y_i | f_i) averaged over the link's quasi-Monte Carlo points
    f_i = m_i + √v_i ∘ ε (`LogisticSoftmax.standard_normal_points`), or stick-breaking's sum over the reached logits
    of log σ(t_ij ψ_ij), each by quadrature over q(ψ_ij)."""
    mean, var = training_marginals(model)
    if isinstance(model.link, StickBreaking):  # Σ_j R_ij E log σ(t_ij ψ_ij) over the logits each point reaches
        t, reach = stick_labels(model.link.equation_labels(model.y), model.n_latent)
        expected = normal_expectation(lambda f: log_expit(t.ravel()[:, None] * f), mean.ravel(), var.ravel())
        return float(np.sum(reach.ravel() * expected)) - model.kl()
    if model.n_classes > 2:
        eps = model.link.standard_normal_points()  # (points, K)
        expected = 0.0
        for start in range(0, model.n, max(1, _CHUNK // 16)):
            part = slice(start, start + max(1, _CHUNK // 16))
            F = mean[part, None, :] + np.sqrt(var[part, None, :]) * eps  # (rows, points, K)
            y = np.repeat(model.y[part], len(eps))
            expected += logistic_softmax_log_likelihood(y, F.reshape(-1, model.n_classes)).sum() / len(eps)
        return float(expected) - model.kl()
    expected = normal_expectation(lambda f: log_expit(signed_labels(model.y)[:, None] * f), mean, var)
    return float(expected.sum()) - model.kl()


def augmentation_gap(model: XGPC) -> float:
    """Σ_i E_N(f_i|m_i,v_i)[KL(PG(1,c_i) ‖ PG(1,|f_i|))], c_i = sqrt(v_i + m_i²): the paper's L_orig − L_aug."""
    mean, var = training_marginals(model)
    c = np.sqrt(var + mean * mean)
    return float(normal_expectation(lambda f: polyagamma.kl_between(c[:, None], f), mean, var).sum())


@dataclass(frozen=True)
class PairSummary:
    """Agreement of one quantity at the test points, MCMC (x) against variational (y)."""

    correlation: float  # Pearson
    mean_abs_diff: float
    max_abs_diff: float

    @classmethod
    def of(cls, mcmc: np.ndarray, vi: np.ndarray) -> "PairSummary":
        diff = np.abs(vi - mcmc)
        corr = np.corrcoef(mcmc, vi)[0, 1] if np.std(mcmc) > 0 and np.std(vi) > 0 else math.nan
        return cls(float(corr), float(diff.mean()), float(diff.max()))


def gaussian_marginal_kl(mean_q: np.ndarray, var_q: np.ndarray, mean_p: np.ndarray, var_p: np.ndarray) -> np.ndarray:
    """KL(N(mean_q, var_q) ‖ N(mean_p, var_p)) = ½[log(var_p/var_q) + (var_q + (mean_q − mean_p)²)/var_p − 1]."""
    return 0.5 * (np.log(var_p / var_q) + (var_q + (mean_q - mean_p) ** 2) / var_p - 1.0)


@dataclass
class ComparisonResult:
    """X-GPC (`label`) against the Gibbs sampler at the same kernel, on the test points and on the training bound.

    Arrays (n_test,): `mcmc_mean`, `mcmc_var`, `mcmc_proba` (x-axes of Fig. 1) and `vi_mean`, `vi_var`, `vi_proba`
    (y-axes), the probabilities p(class 1); for `n_classes` K ≥ 3 the probabilities are the class probabilities
    p(y* = k) (n_test, K) (rows summing to 1) and the latent arrays (n_test, K), or (n_test, K − 1) for stick-breaking
    (one column per logit, `latent_per_class`); `y_test` (class indices); `mcmc_mean_se`, the Monte Carlo standard error of
    `mcmc_mean` (error bars). `mean_kl` = mean_i KL(N_vi,i ‖ N_mcmc,i). Bounds on log p(y_train): `elbo_augmented`
    (X-GPC's ELBO), `elbo_nonaugmented` (same q(u), no augmentation) and `augmentation_gap` (module docstring).
    `subsampled_from` is the size of the data set before it was subsampled to fit the sampler's limit, None if it was
    not. `cost`: seconds and iterations spent (set by the study, `explorer.studies.comparison`).
    """

    label: str
    mcmc_mean: np.ndarray
    mcmc_mean_se: np.ndarray
    mcmc_var: np.ndarray
    mcmc_proba: np.ndarray
    vi_mean: np.ndarray
    vi_var: np.ndarray
    vi_proba: np.ndarray
    y_test: np.ndarray
    mean_kl: float
    elbo_augmented: float
    elbo_nonaugmented: float
    augmentation_gap: float
    mcmc_diagnostics: dict[str, float]
    n_train: int
    subsampled_from: int | None = None
    cost: dict[str, float] = field(default_factory=dict)
    n_classes: int = 2

    def pairs(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The three scatter pairs of Fig. 1: name → (MCMC values, variational values), (n_test,) each; for K ≥ 3
        "mean", "variance" and "p(y=k)", every class's values in one (n_test · K,) array (point-major)."""
        names = ("mean", "variance", "p(y=k)" if self.n_classes > 2 else "p(y=1)")
        return {name: (mcmc.ravel(), vi.ravel()) for name, (mcmc, vi) in zip(names, self._class_arrays())}

    def _class_arrays(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        return (self.mcmc_mean, self.vi_mean), (self.mcmc_var, self.vi_var), (self.mcmc_proba, self.vi_proba)

    @property
    def latent_per_class(self) -> bool:
        """Whether the latent arrays have one column per class (the logistic-softmax model) rather than one per logit
        of the stick (stick-breaking, K − 1 columns); True for two classes."""
        return self.n_classes == 2 or self.vi_mean.shape[1] == self.n_classes

    def class_pairs(self, k: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """For K ≥ 3, the pairs of class k alone: name → (MCMC (n_test,), variational (n_test,)); the mean and variance
        only where the latent functions are per class (`latent_per_class`), else "p(y=k)" alone."""
        if not (self.n_classes > 2 and 0 <= k < self.n_classes):
            raise ValueError(f"class_pairs needs K ≥ 3 and a class index in [0, {self.n_classes}), got {k!r}")
        names = ("mean", "variance", "p(y=k)") if self.latent_per_class else ("p(y=k)",)
        arrays = self._class_arrays() if self.latent_per_class else self._class_arrays()[2:]
        return {name: (mcmc[:, k], vi[:, k]) for name, (mcmc, vi) in zip(names, arrays)}

    def pair_summaries(self) -> dict[str, PairSummary]:
        """`PairSummary` per pair; for K ≥ 3 also per class, keyed "name/class k", and for stick-breaking the mean
        and variance per logit, keyed "name/logit j"."""
        out = {name: PairSummary.of(mcmc, vi) for name, (mcmc, vi) in self.pairs().items()}
        for k in range(self.n_classes if self.n_classes > 2 else 0):
            out.update({f"{name}/class {k}": PairSummary.of(*pair) for name, pair in self.class_pairs(k).items()})
        if not self.latent_per_class:
            for j in range(self.vi_mean.shape[1]):
                for name, (mcmc, vi) in zip(("mean", "variance"), self._class_arrays()[:2]):
                    out[f"{name}/logit {j}"] = PairSummary.of(mcmc[:, j], vi[:, j])
        return out

    def summary(self) -> dict[str, float | int | str | None]:
        """Plain numbers (JSON-able): per pair correlation / mean / max |diff|, KL, NLL and error, the three bounds."""
        out: dict[str, float | int | str | None] = {
            "label": self.label,
            "n_train": self.n_train,
            "n_test": len(self.y_test),
            "n_classes": self.n_classes,
            "subsampled_from": self.subsampled_from,
        }
        for name, pair in self.pair_summaries().items():
            out.update({f"{name}/{key}": value for key, value in asdict(pair).items()})
        out["mean/mcmc_se_max"] = float(np.max(self.mcmc_mean_se))
        P_vi, P_mcmc = self.vi_proba, self.mcmc_proba
        if self.n_classes == 2:
            P_vi, P_mcmc = class_probabilities(P_vi), class_probabilities(P_mcmc)
        out["mean_kl"] = self.mean_kl
        for name, score in (("nll", metrics.negative_log_likelihood), ("error", metrics.error_rate)):
            vi, mcmc = score(P_vi, self.y_test), score(P_mcmc, self.y_test)
            out |= {f"{name}_vi": vi, f"{name}_mcmc": mcmc, f"{name}_difference": vi - mcmc}
        elbo = {"elbo_augmented": self.elbo_augmented, "elbo_nonaugmented": self.elbo_nonaugmented}
        out |= elbo | {"bound_difference": self.elbo_nonaugmented - self.elbo_augmented}
        out["augmentation_gap"] = self.augmentation_gap
        out.update({f"mcmc/{key}": value for key, value in self.mcmc_diagnostics.items()})
        out.update({f"cost/{key}": value for key, value in self.cost.items()})
        return out


def _same_kernel(a: Kernel, b: Kernel) -> bool:
    return (
        a.name == b.name
        and a.lengthscale.size == b.lengthscale.size
        and np.allclose(a.log_params, b.log_params, rtol=1e-12, atol=0.0)
        and math.isclose(a.nugget, b.nugget, rel_tol=1e-12)
    )


def compare_with_mcmc(
    model: XGPC,
    sampler: GibbsChains | StickBreakingGibbsSampler,
    X_test: np.ndarray,
    y_test: np.ndarray,
    *,
    label: str | None = None,
    subsampled_from: int | None = None,
) -> ComparisonResult:
    """Compare a trained X-GPC (sparse or full) with a finished-or-running Gibbs run on the same training data and
    kernel hyperparameters (and, for K ≥ 3, the sampler of its own model: module docstring). X_test (n*, d), y_test
    (n*,) class indices 0…K−1. Uses the sampler's stored draws so far."""
    if not _same_kernel(model.kernel, sampler.kernel):
        raise ValueError(
            f"X-GPC and the sampler use different kernels ({model.kernel} vs {sampler.kernel}); "
            "compare them at the same hyperparameters"
        )
    if not (np.array_equal(model.X, sampler.X) and np.array_equal(model.y, sampler.y)):
        raise ValueError("X-GPC and the sampler were given different training data")
    sampler_classes = getattr(sampler, "n_classes", 2)
    if model.n_classes != sampler_classes:
        raise ValueError(f"X-GPC models {model.n_classes} classes, the sampler {sampler_classes}")
    if model.n_classes > 2:
        fitted, sampled = model.link.name, sampler.likelihood.name
        if fitted != sampled:
            raise ValueError(
                f"X-GPC fits the {fitted} model, the sampler samples the {sampled} model: compare a fit with the "
                "exact sampler of its own model"
            )
        if isinstance(model.link, StickBreaking) and model.link.order != sampler.likelihood.order:
            raise ValueError(
                f"X-GPC lays the classes on the stick in the order {list(model.link.order)}, the sampler in "
                f"{list(sampler.likelihood.order)}: the order changes the model; give both the same"
            )
    X_test, y_test = labelled_data(X_test, y_test, d=model.X.shape[1], names=("X_test", "y_test"))
    if y_test.max() >= model.n_classes:
        raise ValueError(f"y_test holds the class {y_test.max()}; the models have {model.n_classes} (0…K−1)")
    multiclass = model.n_classes > 2
    vi_mean, vi_var = model.predict_latent(X_test)
    mcmc_mean, mcmc_var = sampler.predict_latent(X_test)
    elbo_augmented, elbo_nonaugmented = model.elbo(), nonaugmented_elbo(model)
    return ComparisonResult(
        label=label or ("X-GPC full" if model.full else f"X-GPC sparse (m={model.m})"),
        mcmc_mean=mcmc_mean,
        mcmc_mean_se=sampler.mean_standard_error(X_test),
        mcmc_var=mcmc_var,
        mcmc_proba=sampler.predict_proba(X_test) if multiclass else sampler.predict_proba(X_test)[:, 1],
        vi_mean=vi_mean,
        vi_var=vi_var,
        vi_proba=model.predict_proba(X_test) if multiclass else model.predict_proba(X_test)[:, 1],
        y_test=y_test,
        mean_kl=float(np.mean(gaussian_marginal_kl(vi_mean, vi_var, mcmc_mean, mcmc_var))),
        elbo_augmented=elbo_augmented,
        elbo_nonaugmented=elbo_nonaugmented,
        augmentation_gap=elbo_nonaugmented - elbo_augmented if multiclass else augmentation_gap(model),
        mcmc_diagnostics=sampler.diagnostics(),
        n_train=model.n,
        subsampled_from=subsampled_from,
        n_classes=model.n_classes,
    )
