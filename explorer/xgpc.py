"""X-GPC: Pólya-Gamma augmented sparse variational GP classification with closed-form natural gradients.

Wenzel, Galy-Fajou, Donner, Kloft, Opper (AAAI 2019), §3-4 and appendix; notation of DESIGN §2. Labels y ∈ {−1, +1} in
the equations, as the paper writes them: given as class indices 0, 1, they are converted when a minibatch is read
(`SVIEngine._batch`; class 0 ↦ −1, class 1 ↦ +1).
q(u) = N(μ, Σ) in natural parameters η₁ = Σ⁻¹μ (m,), η₂ = −½Σ⁻¹ (m, m); q(ω_i) = PG(1, c_i).
κ = K_nm K_mm⁻¹, K̃_ii = k(x_i, x_i) − κ_i K_mi. Memory during training is O(m² + s·m): no n×m matrix is formed.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import lapack
from scipy.linalg.blas import dtrmm, dtrsm

from explorer.convergence import NoImprovement
from explorer.engine import SVIEngine
from explorer.hyperparameters import (
    LogNormalKernelPrior,
    elbo_kernel_gradient,
    posterior_products,
    stacked_posterior_products,
    summed_kernel_gradient,
)
from explorer.inputs import inducing_inputs
from explorer.kernels import Kernel
from explorer.likelihoods import logit_pseudo_data
from explorer.linalg import (
    cholesky_over,
    gaussian_kl,
    inverse_from_factor_inverse,
    lower_triangular_solve,
    robust_cholesky,
    triangular_inverse,
)
from explorer.polyagamma import log_cosh, pg_mean
from explorer.schedules import schedule_for
from explorer.sources import as_source
from explorer.targets import natural_gradient_targets

EVALUATION_CHUNK = 1024
"""Rows per chunk of `MultiLatentXGPC`'s ELBO column and predictive: their arrays (rows × m, per latent function)
then stay in cache (BENCHMARKS.md, "multiclass: evaluation cost and per-iteration overhead")."""
KERNEL_BOUNDS = ("augmented", "exact")
# The project's kernel-learning defaults: one kernel step per 5 natural-gradient steps, ascending the exact bound at
# X-GPC's q; the paper's alternation (hyper_every=1, kernel_bound="augmented") drifts on confident data (README
# "Choices worth knowing"; BENCHMARKS.md, "dynamics").
DEFAULT_HYPER_EVERY = 5
DEFAULT_KERNEL_BOUND = "exact"
KERNEL_BRAKE_TOL = 1e-4
"""The improvement of the best hold-out NLL (nats per point) that counts as one for the kernel brake of
`MultiLatentXGPC` (the "no-improvement" early-stopping rule's, `convergence.NoImprovement`)."""


def _whiten(L: np.ndarray, kappa: np.ndarray) -> np.ndarray:
    """V = L⁻¹κᵀ (m, s) for a lower-triangular L (m, m) and κ (s, m): a triangular solve (BLAS trsm, half the work
    of a general product; without holding the GIL), so that diag(κΣκᵀ) = column sums of V∘V when Σ⁻¹ = LLᵀ."""
    return lower_triangular_solve(L, kappa.T)


def optimal_c(K_tilde: np.ndarray, b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Eq. (local_updates): c_i = sqrt(K̃_ii + b_i + a_i²) with b = diag(κΣκᵀ), a = κμ. Shapes (s,)."""
    return np.sqrt(np.maximum(K_tilde + b + a * a, 0.0))


def local_step(kappa: np.ndarray, K_tilde: np.ndarray, mu: np.ndarray, L_precision: np.ndarray) -> np.ndarray:
    """Eq. (local_updates): c_i = sqrt(K̃_ii + κ_iΣκ_iᵀ + (κ_iμ)²), Σ⁻¹ = LLᵀ with L = `L_precision` (m, m), lower
    triangular. kappa (s, m) → c (s,)."""
    V = _whiten(L_precision, kappa)
    return optimal_c(K_tilde, np.einsum("ij,ij->j", V, V), kappa @ mu)


def augmented_likelihood_terms(
    y: np.ndarray, a: np.ndarray, b: np.ndarray, K_tilde: np.ndarray, c: np.ndarray
) -> np.ndarray:
    """Per-point bound on E_q[log σ(y_i f_i)]: −log 2 + ½y_i a_i − ½θ_i(K̃_ii + b_i + a_i²) + ½c_i²θ_i − log cosh(c_i/2),
    with a = κμ, b = diag(κΣκᵀ). Shapes (s,)."""
    theta = pg_mean(c)
    return -np.log(2.0) + 0.5 * y * a - 0.5 * theta * (K_tilde + b + a * a) + 0.5 * c * c * theta - log_cosh(c / 2.0)


class XGPC(SVIEngine):
    """The X-GPC training state on the shared SVI skeleton (`explorer.engine.SVIEngine`): its variational step is the
    local step plus the closed-form natural-gradient step, its bound the augmented ELBO.

    `full=True` is the non-sparse mode u = f (Z = X, κ = I, K̃ = 0), whose ELBO is the Gibbs–MacKay bound. batch_size =
    n with `Constant(1.0)` is exact coordinate ascent. `schedule` defaults to X-GPC's row of
    `schedules.DEFAULT_STEP_RULES` (Robbins–Monro τ = 10, κ = 0.6). `hyper_optimizer` turns on kernel learning: after
    the natural-gradient step of every `hyper_every`-th iteration (default 5; 1 alternates as in the paper) one Adam
    step on (log ℓ, log σ²) along the analytic gradient of the same minibatch's bound (`kernel_bound`) at the new q.

    `kernel_bound` is the bound the kernel step ascends at the current q(u): "augmented" (the paper: X-GPC's own
    ELBO, c at its optimum) or "exact" (the default; Σ E_q[log σ(y f)] − KL, the non-augmented bound that the
    augmented one lower-bounds, its expectations by Gauss–Hermite: the kernel gradient at the pseudo-data (ỹ, θ̃),
    `targets.pseudo_data`); the local and natural-gradient steps stay on the augmented bound either way.

    η is held as one read-only vector (η₁, vec η₂) of length m + m²; `eta1` and `eta2` are views of it.
    Kernel-dependent quantities (inducing features, K_zz, K_mm's factor and inverse) are cached until the kernel
    changes; the posterior factor L_P (Σ⁻¹ = L_P L_Pᵀ) and μ until η changes (training solves with L_P and never
    forms L_P⁻¹ or Σ).

    Parameters
    ----------
    X : ndarray of shape (n, d) or explorer.sources.DataSource
        Training inputs (standardised), or a source of minibatches (then `y` is None).
    y : ndarray of shape (n,) or None
        Class indices 0, 1 (the paper's −1, +1).
    Z : ndarray of shape (m, d) or None
        Fixed inducing inputs (None with `full`).
    kernel : explorer.kernels.Kernel
        The starting kernel.
    full : bool, default False
        The non-sparse mode u = f.
    kernel_bound : {"exact", "augmented"}, default "exact"
        The bound the kernel step ascends.
    hyper_every : int, default 5
        Iterations per kernel step.
    **keywords
        The SVI skeleton's (`explorer.engine.SVIEngine`; `schedule` defaults to X-GPC's rule).

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> from explorer.schedules import Constant
    >>> X, y = load("xor", n=60, seed=1)
    >>> engine = XGPC(X, y, X[:10], RBF(1.0), batch_size=60, schedule=Constant(1.0))  # s = n, ρ = 1: coordinate ascent
    >>> bounds = [engine.step() or engine.elbo() for _ in range(5)]  # so the ELBO never falls
    >>> bool(np.all(np.diff(bounds) >= -1e-9)), engine.predict_proba(X[:3]).shape
    (True, (3, 2))
    """

    def __init__(
        self,
        X: np.ndarray,
        y: np.ndarray | None,
        Z: np.ndarray | None,
        kernel: Kernel,
        *,
        full: bool = False,
        kernel_bound: str = DEFAULT_KERNEL_BOUND,
        hyper_every: int = DEFAULT_HYPER_EVERY,
        **keywords,
    ):
        if kernel_bound not in KERNEL_BOUNDS:
            raise ValueError(f"kernel_bound must be one of {KERNEL_BOUNDS}, got {kernel_bound!r}")
        source = as_source(X, y)
        self.full = bool(full)
        self.kernel_bound = kernel_bound
        Z = source.batch(np.arange(source.n))[0] if self.full else inducing_inputs(Z, source.d)
        if keywords.get("schedule") is None:
            keywords["schedule"] = schedule_for("xgpc")
        super().__init__(source, Z, kernel, hyper_every=hyper_every, **keywords)
        self._set_posterior(self._prior_natural_parameters())
        self.last_c = np.zeros(0)

    def _prior_natural_parameters(self) -> np.ndarray:
        """η of q(u) = p(u) = N(0, K_mm), flat like η: (0, vec(−½K_mm⁻¹)) (m + m²,), the starting q."""
        return np.concatenate([np.zeros(self.m), (-0.5 * self.K_inv).ravel()])

    def set_training_data(self, X: np.ndarray, y: np.ndarray) -> None:
        """Replace the training set (e.g. a point added by the user), keeping q(u), Z and the kernel; the n/s scaling
        follows the new n from the next step on. Not available in the full mode, where Z is the training set."""
        if self.full:
            raise ValueError("the non-sparse mode (u = f) cannot change its training set; start a new run")
        super().set_training_data(X, y)

    # ----- derived quantities ---------------------------------------------------------------------------------
    def _set_posterior(self, eta: np.ndarray) -> None:
        """η = (η₁, vec η₂) (m + m²,) → L_P with Σ⁻¹ = −2η₂ = L_P L_Pᵀ and μ = Σ η₁ (two triangular solves)."""
        m = self.m
        L_P = robust_cholesky(-2.0 * eta[m:].reshape(m, m), "Σ⁻¹ = −2η₂", self.iteration)
        eta.setflags(write=False)
        self._eta, self.L_P = eta, L_P
        self.mu = lapack.dpotrs(L_P, eta[:m], lower=1)[0]

    @property
    def eta1(self) -> np.ndarray:
        """η₁ = Σ⁻¹μ, shape (m,) (read-only)."""
        return self._eta[: self.m]

    @property
    def eta2(self) -> np.ndarray:
        """η₂ = −½Σ⁻¹, shape (m, m) (read-only)."""
        return self._eta[self.m :].reshape(self.m, self.m)

    @property
    def Sigma(self) -> np.ndarray:
        """Σ = (−2η₂)⁻¹, shape (m, m)."""
        return inverse_from_factor_inverse(triangular_inverse(self.L_P))

    def project(self, X: np.ndarray, index: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`SVIEngine.project`: κ (s, m), K̃ (s,), K_sm (s, m) for the rows X (s, d); in the full mode κ is the rows
        `index` of I and K̃ = 0."""
        if not self.full:
            return super().project(X)
        kappa = np.zeros((len(index), self.m))
        kappa[np.arange(len(index)), index] = 1.0
        return kappa, np.zeros(len(index)), self._cross(X)

    def minibatch_targets(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(λ̂₁, λ̂₂) on the minibatch `index` at the current q, after its local step."""
        X_b, y_b = self._batch(index)
        kappa, K_tilde, _ = self.project(X_b, index)
        theta = pg_mean(local_step(kappa, K_tilde, self.mu, self.L_P))
        return natural_gradient_targets(kappa, y_b, theta, self.K_inv, self.n)

    def kernel_gradient(self, index: np.ndarray) -> np.ndarray:
        """∂L̂/∂(log ℓ, log σ²) of the minibatch ELBO on rows `index` at the current q, c at its optimum → (L + 1,)."""
        X_b, y_b = self._batch(index)
        kappa, K_tilde, K_sm = self.project(X_b, index)
        return self._kernel_gradient(X_b, y_b, kappa, K_tilde, K_sm)

    def _kernel_gradient(self, X_b, y_b, kappa, K_tilde, K_sm) -> np.ndarray:
        """The gradient at the current q with c at its optimum for it: the local step's diag(κΣκᵀ) comes from the
        gradient's own T = κΣA as rowsum(T ∘ K_sm) (the full mode's gradient needs no c: only the KL depends on the
        kernel there, for either bound)."""
        labels, theta, products, a = y_b, None, None, None
        if not self.full:
            products = posterior_products(self.L_P, self.K_inv, K_sm)
            a = kappa @ self.mu
            labels, theta = self._bound_pseudo_data(y_b, a, K_tilde + np.einsum("ij,ij->i", products[1], K_sm))
        return elbo_kernel_gradient(
            self.kernel,
            X_b,
            labels,
            self.Z,
            self.n,
            self.mu,
            self.L_P,
            self.K_inv,
            kappa,
            K_sm,
            theta,
            full=self.full,
            K_zz=self.K_zz,
            products=products,
            kappa_mu=a,
        )

    def _bound_pseudo_data(self, y: np.ndarray, a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(labels, θ) whose augmented terms ½·labels·a − ½θ(v + a²) have the slopes in (a, v) of the bound the kernel
        step ascends, for marginals q(f_i) = N(a_i, v_i): the augmented bound's own (y, θ(c)), c = √(v + a²), or the
        exact bound's pseudo-data (ỹ, θ̃) from the Gauss–Hermite expectations. Shapes (s,)."""
        if self.kernel_bound == "augmented":
            return y, pg_mean(optimal_c(v, 0.0, a))
        return logit_pseudo_data(y, a, v, few_nodes=False)

    def _warm_start_target(self, index: np.ndarray) -> np.ndarray:
        lam1, lam2 = self.minibatch_targets(index)
        return np.concatenate([lam1, lam2.ravel()])

    def _flat_natural_parameters(self) -> np.ndarray:
        return self._eta

    # ----- the variational step of one SVI iteration (the skeleton's `_update_q`) --------------------------------
    def _update_q(self, index: np.ndarray, X_b: np.ndarray, y_b: np.ndarray) -> tuple[float, tuple]:
        """Local step, natural-gradient targets, η ← η + ρ(λ̂ − η) with the rule's ρ. Returns the relative
        change of the global parameters ‖η_new − η_old‖/‖η_old‖ = ρ‖λ̂ − η‖/‖η_old‖ and (κ, K̃, K_sm) for the kernel
        gradient (the natural gradient, a fresh array of `_natural_gradient`, becomes the new η in place)."""
        kappa, K_tilde, K_sm = self.project(X_b, index)
        gradient, c = self._natural_gradient(kappa, K_tilde, y_b)
        squared_norm = float(gradient @ gradient)
        rho = self.schedule.rate(gradient, squared_norm)
        old_eta = self._eta
        gradient *= rho
        gradient += old_eta
        self._set_posterior(gradient)
        self.rho, self.last_c = rho, c
        change = rho * math.sqrt(squared_norm) / max(math.sqrt(float(old_eta @ old_eta)), 1e-12)
        return change, (kappa, K_tilde, K_sm)

    def _natural_gradient(
        self, kappa: np.ndarray, K_tilde: np.ndarray, y_b: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The local step and the natural gradient λ̂ − η (flat like η) on a minibatch with projection κ, K̃ and
        labels y_b; returns it and the optimal c (s,)."""
        c = local_step(kappa, K_tilde, self.mu, self.L_P)
        lam1, lam2 = natural_gradient_targets(kappa, y_b, pg_mean(c), self.K_inv, self.n)
        gradient = np.empty_like(self._eta)
        np.subtract(lam1, self.eta1, out=gradient[: self.m])
        np.subtract(lam2, self.eta2, out=gradient[self.m :].reshape(self.m, self.m))
        return gradient, c

    def _minibatch_kernel_gradient(self, X_b: np.ndarray, y_b: np.ndarray, context: tuple) -> np.ndarray:
        return self._kernel_gradient(X_b, y_b, *context)

    # ----- objective and prediction ------------------------------------------------------------------------------
    def elbo(self, index: np.ndarray | None = None) -> float:
        """The augmented ELBO (eq. variational_bound with all constants), a lower bound on log p(y).
        On all n points (in chunks), or estimated as (n/s)Σ_{i∈index}(…) − KL on the rows `index`."""

        def terms(part, X_part, y_part):
            kappa, K_tilde, _ = self.project(X_part, part)
            a = kappa @ self.mu
            V = _whiten(self.L_P, kappa)
            b = np.einsum("ij,ij->j", V, V)
            return augmented_likelihood_terms(y_part, a, b, K_tilde, np.sqrt(K_tilde + b + a * a))

        return self._estimate(terms, index) - self.kl()

    def kl(self) -> float:
        """KL(q(u) ‖ p(u)) = KL(N(μ, Σ) ‖ N(0, K_mm)) with Σ⁻¹ = L_P L_Pᵀ."""
        return gaussian_kl(self.mu, self.L_P, triangular_inverse(self.L_P), self.L_K, self.L_K_inv)

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(μ*, σ*²): μ* = κ*μ, σ*² = k** − κ*K_m* + κ*Σκ*ᵀ (eq. predictive_distr). Xs (n*, d) → (n*,), (n*,)."""

        def marginals(X_rows):
            K_sm = self._cross(X_rows)
            kappa = K_sm @ self.K_inv
            V = _whiten(self.L_P, kappa)
            var = self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm) + np.einsum("ij,ij->j", V, V)
            return kappa @ self.mu, var

        return self._in_chunks(marginals, Xs)

    def local_parameters(self, X: np.ndarray, index: np.ndarray | None = None) -> np.ndarray:
        """Optimal c_i (eq. local_updates) for the rows X (s, d) at the current q → (s,)."""
        kappa, K_tilde, _ = self.project(np.ascontiguousarray(X, dtype=float), index)
        return local_step(kappa, K_tilde, self.mu, self.L_P)

    # ----- persistence ---------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {
            **self._base_state(),
            "eta1": self.eta1.copy(),
            "eta2": self.eta2.copy(),
            "last_c": self.last_c,
        }

    def load_state_dict(self, state: dict) -> None:
        self._load_base_state(state)
        eta1, eta2 = np.asarray(state["eta1"], dtype=float), np.asarray(state["eta2"], dtype=float)
        self._set_posterior(np.concatenate([eta1, eta2.ravel()]))
        self.last_c = np.asarray(state["last_c"], dtype=float)


class MultiLatentXGPC(XGPC):
    """X-GPC with J latent functions that share the kernel, Z and the minibatch, for a K-class `likelihood` that owns
    what is K-specific (the augmented-likelihood protocol, `explorer.likelihoods`): q(u_j) = N(μ_j, Σ_j) held as one
    read-only η = (η₁⁽⁰⁾, vec η₂⁽⁰⁾, …, η₁⁽ᴶ⁻¹⁾, vec η₂⁽ᴶ⁻¹⁾) (J(m + m²),), the likelihood's local step and one
    closed-form natural-gradient step on all J blocks with the rule's one ρ (the rule sees them as one vector), the
    kernel gradient summed over the J latent functions at the likelihood's pseudo-data
    (`hyperparameters.summed_kernel_gradient`), the evaluations through the inverse factors W_j = L_P,j⁻¹. The
    K-class X-GPC models are its likelihoods: `xgpc_stickbreaking.StickBreaking` (K − 1 binary logits) and
    `xgpc_multiclass.AugmentedLogisticSoftmax` (K latent functions, in its family of q(λ, n)).

    Parameters
    ----------
    X, y, Z, kernel
        As for `XGPC`: the training inputs (n, d) and class indices 0…K−1 (n,) (or a `explorer.sources.DataSource`
        and None), the fixed inducing inputs (m, d; None with `full`) and the starting kernel, shared by the J latent
        functions.
    likelihood : explorer.xgpc_stickbreaking.StickBreaking, explorer.xgpc_multiclass.AugmentedLogisticSoftmax, ...
        The K-class likelihood and its augmentation: any on `explorer.likelihoods`' augmented-likelihood protocol.
    kernel_prior : float or None, default None
        With kernel learning, the kernel step ascends the bound plus log p(θ), θ = (log ℓ, log σ²) independently
        normal around the initial kernel's with this standard deviation (`hyperparameters.LogNormalKernelPrior`); 0:
        the bound alone; None: the likelihood's own (`likelihood.kernel_prior`).
    kernel_patience : int or None, default None
        The kernel brake: each time the hold-out NLL reported by the `training.Trainer` (`holdout_evaluated`) has
        not beaten its best by `KERNEL_BRAKE_TOL` for this many evaluations in a row, the kernel's Adam rate halves
        (for good; the q(u_j) steps go on). 0: no brake; None: the likelihood's own (`likelihood.kernel_patience`).
    **keywords
        `XGPC`'s: `full`, `kernel_bound` (read by the likelihood's `kernel_pseudo_data`), `hyper_every` and the SVI
        skeleton's.

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> from explorer.xgpc_stickbreaking import StickBreaking
    >>> X, y = load("blobs-3", n=60, seed=2)
    >>> stick = StickBreaking(3, (2, 0, 1))  # class 2 breaks off first
    >>> engine = MultiLatentXGPC(X, y, X[::6], RBF(1.0), likelihood=stick, batch_size=30)
    >>> engine.n_latent, engine.link.equation_labels(np.array([2, 0, 1])).tolist()  # K − 1 logits; stick positions
    (2, [0, 1, 2])
    >>> engine.step(40)
    >>> P = engine.predict_proba(X)
    >>> bool(np.allclose(P.sum(axis=1), 1.0)), float(np.mean(P.argmax(axis=1) == y)) > 0.9
    (True, True)
    """

    def __init__(self, X, y, Z, kernel: Kernel, *, likelihood, kernel_prior=None, kernel_patience=None, **keywords):
        patience = likelihood.kernel_patience if kernel_patience is None else kernel_patience
        if isinstance(patience, bool) or not isinstance(patience, (int, np.integer)) or patience < 0:
            raise ValueError(f"kernel_patience must be a whole number ≥ 0 (0: no brake), got {kernel_patience!r}")
        self.link = likelihood
        super().__init__(X, y, Z, kernel, **keywords)
        self.last_c = np.zeros((0, self.n_latent))
        spread = likelihood.kernel_prior if kernel_prior is None else kernel_prior
        self.kernel_prior = LogNormalKernelPrior(kernel.log_params, spread) if spread else None
        self.kernel_brake = NoImprovement(int(patience), KERNEL_BRAKE_TOL) if patience else None
        self.kernel_rate_scale = 1.0

    @property
    def n_latent(self) -> int:
        """J, the number of latent functions (the likelihood's)."""
        return self.link.n_latent

    @property
    def family(self) -> str:
        """The multi-class family by name (setting `multiclass_family`): the likelihood's."""
        return self.link.family

    def _prior_natural_parameters(self) -> np.ndarray:
        """η of every q(u_j) = p(u), flat (J(m + m²),)."""
        return np.tile(super()._prior_natural_parameters(), self.n_latent)

    def _set_kernel(self, kernel: Kernel) -> None:
        """The skeleton's kernel caches (`SVIEngine._set_kernel`) and the prior's η₂ = −½K_mm⁻¹ (`prior_eta2`), which
        every natural-gradient target holds."""
        super()._set_kernel(kernel)
        self.prior_eta2 = -0.5 * self.K_inv

    # ----- q(u_j) in natural parameters ----------------------------------------------------------------------------
    def _set_posterior(self, eta: np.ndarray) -> None:
        """η (J(m + m²),) → L_P (J, m, m) with Σ_j⁻¹ = L_P[j] L_P[j]ᵀ and μ (J, m); the inverse factors `W` are formed
        again when next read. The J precisions −2η₂ are formed in one array and each factorised over itself
        (`linalg.cholesky_over`; with `robust_cholesky`'s jitter only where that fails), so L_P[j] is a Fortran-ordered
        view that LAPACK and BLAS take without a copy."""
        m, J = self.m, self.n_latent
        blocks = eta.reshape(J, m + m * m)
        factors, mu = blocks[:, m:].reshape(J, m, m) * -2.0, np.empty((J, m))  # row j: Σ_j⁻¹, then L_P[j]ᵀ
        for j in range(J):
            L = cholesky_over(factors[j])
            if L is None:
                precision = -2.0 * blocks[j, m:].reshape(m, m)
                factors[j] = robust_cholesky(precision, f"Σ⁻¹ of {self.link.latent_name} {j}", self.iteration).T
                L = factors[j].T
            mu[j] = lapack.dpotrs(L, blocks[j, :m], lower=1)[0]
        eta.setflags(write=False)
        self._eta, self.L_P, self.mu, self._inverse_factors = eta, factors.transpose(0, 2, 1), mu, None

    @property
    def eta1(self) -> np.ndarray:
        """η₁ per latent function, (J, m) (read-only)."""
        return self._eta.reshape(self.n_latent, -1)[:, : self.m]

    @property
    def eta2(self) -> np.ndarray:
        """η₂ per latent function, (J, m, m) (read-only)."""
        return self._eta.reshape(self.n_latent, -1)[:, self.m :].reshape(self.n_latent, self.m, self.m)

    @property
    def Sigma(self) -> np.ndarray:
        """Σ_j per latent function, (J, m, m)."""
        return np.stack([inverse_from_factor_inverse(W) for W in self.W])

    @property
    def W(self) -> np.ndarray:
        """The inverse factors W (J, m, m), W_j = L_P[j]⁻¹, so Σ_j = W_jᵀW_j: formed once per q when first read (by an
        evaluation: the ELBO, the predictive, the KL; a training step does not need them)."""
        if self._inverse_factors is None:
            self._inverse_factors = np.stack([triangular_inverse(L) for L in self.L_P])
        return self._inverse_factors

    # ----- the local step and the natural-gradient step ------------------------------------------------------------
    def marginals(self, kappa: np.ndarray, K_tilde: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The marginals q(f_ij) = N(a_ij, v_ij) of the rows with projection κ (s, m), K̃ (s,): a, v (s, J), with
        κΣ_jκᵀ's diagonal the row sums of squares of κL_P,jᵀ⁻¹, a triangular solve from the right (BLAS trsm on κ in
        Fortran order; BENCHMARKS.md "multiclass: stick-breaking PG family")."""
        R = np.empty((self.n_latent, self.m, len(kappa)))  # R[j]ᵀ = κL_P,jᵀ⁻¹ (s, m), Fortran-ordered
        for j in range(self.n_latent):
            np.copyto(R[j].T, kappa)  # then solved over in place (L_P,j Fortran-ordered)
            dtrsm(1.0, self.L_P[j], R[j].T, side=1, lower=1, trans_a=1, overwrite_b=1)
        v = np.einsum("jms,jms->sj", R, R)
        v += K_tilde[:, None]
        return kappa @ self.mu.T, v

    def _targets(self, kappa, labels, a, v) -> tuple[np.ndarray, np.ndarray]:
        """The flat targets λ̂ (J(m + m²),) on a minibatch with labels (s,) and marginals a, v (s, J), after the
        likelihood's local step, and c (s, J): per latent function `targets.natural_gradient_targets` at the local
        step's pseudo-data, written in place, λ̂₂ = −½K_mm⁻¹ − B_jᵀB_j with B_j = (½(n/s)θ_j)^½ ∘ κ, B_jᵀB_j one
        symmetric rank-s update (numpy's product of a matrix with its own transpose: exactly symmetric)."""
        c, pseudo_labels, theta = self.link.local_step(labels, a, v)
        m, J, scale = self.m, self.n_latent, self.n / len(labels)
        target = np.empty((J, m + m * m))
        np.matmul(pseudo_labels.T, kappa, out=target[:, :m])
        target[:, :m] *= 0.5 * scale
        theta *= 0.5 * scale
        np.sqrt(theta, out=theta)
        B = np.multiply(theta.T[:, :, None], kappa)  # (J, s, m)
        lam2 = target[:, m:].reshape(J, m, m)
        for j in range(J):
            np.matmul(B[j].T, B[j], out=lam2[j])
        np.subtract(self.prior_eta2, lam2, out=lam2)
        return target.ravel(), c

    def minibatch_targets(self, index: np.ndarray) -> np.ndarray:
        """The flat targets λ̂ (J(m + m²),) on the minibatch `index` at the current q, after its local step."""
        X_b, y_b = self._batch(index)
        kappa, K_tilde, _ = self.project(X_b, index)
        return self._targets(kappa, y_b, *self.marginals(kappa, K_tilde))[0]

    def _warm_start_target(self, index: np.ndarray) -> np.ndarray:
        return self.minibatch_targets(index)

    def _natural_gradient(
        self, kappa: np.ndarray, K_tilde: np.ndarray, y_b: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """λ̂ − η of all J blocks (J(m + m²),) after the local step, and c (s, J)."""
        target, c = self._targets(kappa, y_b, *self.marginals(kappa, K_tilde))
        target -= self._eta
        return target, c

    # ----- the kernel step ---------------------------------------------------------------------------------------------
    def kernel_objective(self, index: np.ndarray | None = None) -> float:
        """What the kernel step ascends: `elbo(index)` plus the kernel prior's log density (when there is one)."""
        prior = 0.0 if self.kernel_prior is None else self.kernel_prior.log_density(self.kernel.log_params)
        return self.elbo(index) + prior

    def _kernel_gradient(self, X_b, y_b, kappa, K_tilde, K_sm) -> np.ndarray:
        """The gradient of `kernel_objective` in the kernel's log-parameters at the current q: the kernel prior's
        ∂ log p(θ)/∂θ (with one; once per step: L̂ estimates the bound on all n rows) plus the sum over the latent
        functions of the binary-form gradient (`hyperparameters.elbo_kernel_gradient`) at the likelihood's
        pseudo-data (`kernel_pseudo_data`), in the sparse mode with the J adjoints summed and contracted once
        (`hyperparameters.summed_kernel_gradient`) and the J posterior products N_j, T_j stacked
        (`hyperparameters.stacked_posterior_products`); the full mode's needs no pseudo-data (only the KL depends on
        the kernel there)."""
        prior = 0.0 if self.kernel_prior is None else self.kernel_prior.gradient(self.kernel.log_params)
        if self.full:
            return prior + sum(
                elbo_kernel_gradient(
                    self.kernel,
                    X_b,
                    y_b,
                    self.Z,
                    self.n,
                    self.mu[j],
                    self.L_P[j],
                    self.K_inv,
                    kappa,
                    K_sm,
                    None,
                    full=True,
                    K_zz=self.K_zz,
                )
                for j in range(self.n_latent)
            )
        N, T = stacked_posterior_products(self.L_P, self.K_inv, K_sm)
        v = np.einsum("sjm,sm->sj", T, K_sm)  # diag(κΣ_jκᵀ) = rowsum(T_j ∘ K_sm)
        v += K_tilde[:, None]
        a = kappa @ self.mu.T
        labels, theta = self.link.kernel_pseudo_data(y_b, a, v, self.kernel_bound)
        return prior + summed_kernel_gradient(
            self.kernel, X_b, self.Z, self.K_zz, self.n, self.mu, self.K_inv, kappa, K_sm, N, T, labels, theta, a
        )

    def holdout_evaluated(self, nll: float) -> None:
        """The kernel brake (`kernel_patience`): take the hold-out NLL of an evaluation at the current state; after
        `kernel_patience` evaluations in a row that did not beat the best by `KERNEL_BRAKE_TOL`, halve the kernel's
        Adam rate (`kernel_rate_scale`) and count afresh: it bounds the kernel's further travel by what the held-out
        data still reward (BENCHMARKS.md "multiclass: stick-breaking kernel learning (issue 29.3b)")."""
        if self.kernel_brake is not None and self.hyper_optimizer is not None and self.kernel_brake.update(nll):
            self.kernel_rate_scale *= 0.5
            self.kernel_brake.count = 0

    def _hyper_rate_scale(self) -> float:
        """The kernel brake's factor on Adam's rate (1 until the brake halves it)."""
        return self.kernel_rate_scale

    # ----- evaluation ----------------------------------------------------------------------------------------------
    def _evaluation_marginals(self, kappa: np.ndarray, K_tilde: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`marginals` through the inverse factors W (`W`, once per q): κΣ_jκᵀ's diagonal as the row sums of squares of
        κW_jᵀ, a triangular product (BLAS trmm, half a general product's work), for the evaluations, which read many
        rows at one q; equal to `marginals` to rounding."""
        kappa_f = np.asfortranarray(kappa)
        v = np.empty((len(kappa), self.n_latent))
        for j, W in enumerate(self.W):
            R = dtrmm(1.0, W, kappa_f, side=1, lower=1, trans_a=1)  # κW_jᵀ
            np.einsum("ij,ij->i", R, R, out=v[:, j])
        v += K_tilde[:, None]
        return kappa @ self.mu.T, v

    def elbo(self, index: np.ndarray | None = None) -> float:
        """The augmented ELBO with all constants (the likelihood's `bound` at its optimal local parameters, summed,
        minus the KL), a lower bound on log p(y); on all n points (in chunks), or estimated as
        (n/s)Σ_{i∈index}(…) − KL on the rows `index`."""

        def terms(part, X_part, labels):
            kappa, K_tilde, _ = self.project(X_part, part)
            return self.link.bound(labels, *self._evaluation_marginals(kappa, K_tilde))

        return self._estimate(terms, index, EVALUATION_CHUNK) - self.kl()

    def kl(self) -> float:
        """Σ_j KL(q(u_j) ‖ p(u_j))."""
        return sum(
            gaussian_kl(self.mu[j], L, W, self.L_K, self.L_K_inv) for j, (L, W) in enumerate(zip(self.L_P, self.W))
        )

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*_j) = N(μ*_j, σ*_j²) per latent function: μ*_j = κ*μ_j, σ*_j² = k** − κ*K_m* + κ*Σ_jκ*ᵀ
        (`_evaluation_marginals`, in chunks of `EVALUATION_CHUNK` rows). Xs (n*, d) → (n*, J), (n*, J)."""

        def marginals(X_rows):
            K_sm = self._cross(X_rows)
            kappa = K_sm @ self.K_inv
            return self._evaluation_marginals(kappa, self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm))

        return self._in_chunks(marginals, Xs, (self.n_latent,), EVALUATION_CHUNK)

    def local_parameters(self, X: np.ndarray, index: np.ndarray | None = None) -> np.ndarray:
        """Optimal c_ij = √(a_ij² + v_ij) of the PG variables for the rows X (s, d) at the current q → (s, J) (every
        likelihood's local step sets them so)."""
        kappa, K_tilde, _ = self.project(np.ascontiguousarray(X, dtype=float), index)
        a, v = self.marginals(kappa, K_tilde)
        return np.sqrt(np.maximum(a * a + v, 0.0))

    # ----- persistence -------------------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        state = {
            **self._base_state(),
            **self.link.state_dict(),
            "eta": self._eta.copy(),
            "n_classes": self.n_classes,
            "last_c": self.last_c,
            "kernel_rate_scale": self.kernel_rate_scale,
            "kernel_brake": None if self.kernel_brake is None else self.kernel_brake.state_dict(),
        }
        if self.kernel_prior is not None:
            state["kernel_prior_centre"] = self.kernel_prior.centre.copy()
        return state

    def load_state_dict(self, state: dict) -> None:
        if int(state["n_classes"]) != self.n_classes:  # refuse a state of another model before loading anything
            raise ValueError(f"the state has {state['n_classes']} classes, this engine {self.n_classes}")
        self.link.check_state(state)
        self._load_base_state(state)
        self._set_posterior(np.array(state["eta"], dtype=float))
        self.last_c = np.asarray(state["last_c"], dtype=float)
        self.kernel_rate_scale = float(state.get("kernel_rate_scale", 1.0))  # states saved before the brake: 1
        if self.kernel_brake is not None and state.get("kernel_brake") is not None:
            self.kernel_brake.load_state_dict(state["kernel_brake"])
        if self.kernel_prior is not None and "kernel_prior_centre" in state:  # the centre is the run's first kernel
            self.kernel_prior = LogNormalKernelPrior(state["kernel_prior_centre"], self.kernel_prior.scale)
