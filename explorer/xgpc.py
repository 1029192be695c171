"""X-GPC: Pólya-Gamma augmented sparse variational GP classification with closed-form natural gradients.

Wenzel, Galy-Fajou, Donner, Kloft, Opper (AAAI 2019), §3-4 and appendix; notation of DESIGN §2. Labels y ∈ {−1, +1}.
q(u) = N(μ, Σ) in natural parameters η₁ = Σ⁻¹μ (m,), η₂ = −½Σ⁻¹ (m, m); q(ω_i) = PG(1, c_i).
κ = K_nm K_mm⁻¹, K̃_ii = k(x_i, x_i) − κ_i K_mi. Memory during training is O(m² + s·m): no n×m matrix is formed.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.linalg import blas
from scipy.special import expit, ndtr

from explorer.convergence import SlidingWindow, global_parameter_criterion
from explorer.hyperparameters import Adam, elbo_kernel_gradient, kernel_step_guard
from explorer.inputs import count, inducing_inputs, labelled_data, minibatch_size, query_points
from explorer.kernels import RBF
from explorer.linalg import (NumericalError, inverse_from_factor_inverse, log_det_from_cholesky, robust_cholesky,
                             triangular_inverse)
from explorer.polyagamma import log_cosh, pg_mean
from explorer.schedules import default_xgpc_schedule

_CHUNK = 4096
_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite.hermgauss(64)
_GL_NODES, _GL_WEIGHTS = np.polynomial.laguerre.laggauss(64)
_GH_MAX_VARIANCE = 2.0  # above it 64 Gauss–Hermite nodes under-resolve the sigmoid (error 3e-2 at var = 1e3)


def _whiten(L_inv: np.ndarray, kappa: np.ndarray) -> np.ndarray:
    """V = L⁻¹κᵀ (m, s) for a lower-triangular L⁻¹ (m, m) and κ (s, m): a triangular product (BLAS trmm, half the
    work of a general one), so that diag(κΣκᵀ) = column sums of V∘V when Σ = L⁻ᵀL⁻¹."""
    return blas.dtrmm(1.0, L_inv, kappa.T, lower=1)


def local_step(kappa: np.ndarray, K_tilde: np.ndarray, mu: np.ndarray, L_precision_inv: np.ndarray) -> np.ndarray:
    """Eq. (local_updates): c_i = sqrt(K̃_ii + κ_iΣκ_iᵀ + (κ_iμ)²), Σ = L⁻ᵀL⁻¹ with L⁻¹ = `L_precision_inv` (m, m),
    lower triangular. kappa (s, m) → c (s,)."""
    a = kappa @ mu
    V = _whiten(L_precision_inv, kappa)
    return np.sqrt(np.maximum(K_tilde + np.einsum("ij,ij->j", V, V) + a * a, 0.0))


def natural_gradient_targets(kappa: np.ndarray, y: np.ndarray, theta: np.ndarray, K_inv: np.ndarray,
                             n: int) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (natural_gradients) without −η: λ̂₁ = (n/2s) κ_Sᵀ y_S (m,), λ̂₂ = −½(K_mm⁻¹ + (n/s) κ_Sᵀ Θ_S κ_S) (m, m),
    exactly symmetric when K_inv is: ½(n/s)κᵀΘκ = BᵀB with B = (½(n/s)θ)^½ ∘ κ, a symmetric rank-s update."""
    scale = n / len(y)
    B = np.sqrt((0.5 * scale) * theta)[:, None] * kappa
    lam2 = -0.5 * K_inv
    lam2 -= B.T @ B
    return (0.5 * scale) * (y @ kappa), lam2


def augmented_likelihood_terms(y: np.ndarray, a: np.ndarray, b: np.ndarray, K_tilde: np.ndarray,
                               c: np.ndarray) -> np.ndarray:
    """Per-point bound on E_q[log σ(y_i f_i)]: −log 2 + ½y_i a_i − ½θ_i(K̃_ii + b_i + a_i²) + ½c_i²θ_i − log cosh(c_i/2),
    with a = κμ, b = diag(κΣκᵀ). Shapes (s,)."""
    theta = pg_mean(c)
    return -np.log(2.0) + 0.5 * y * a - 0.5 * theta * (K_tilde + b + a * a) + 0.5 * c * c * theta - log_cosh(c / 2.0)


def gaussian_kl(mu: np.ndarray, L_precision: np.ndarray, L_precision_inv: np.ndarray, L_prior: np.ndarray,
                L_prior_inv: np.ndarray) -> float:
    """KL(N(μ, Σ) ‖ N(0, K)) = ½[tr(K⁻¹Σ) + μᵀK⁻¹μ − m + log|K| − log|Σ|], with Σ⁻¹ = L_P L_Pᵀ, K = L_K L_Kᵀ
    and the inverse factors L_P⁻¹, L_K⁻¹ (all (m, m))."""
    M = L_prior_inv @ L_precision_inv.T  # K⁻¹Σ has trace ‖L_K⁻¹ L_P⁻ᵀ‖²_F
    alpha = L_prior_inv @ mu
    return 0.5 * (float(np.sum(M * M)) + float(alpha @ alpha) - len(mu)
                  + log_det_from_cholesky(L_prior) + log_det_from_cholesky(L_precision))


def predictive_probability(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Eq. (test_distribution): p(y*=1) = ∫σ(f)N(f|mean, var)df, accurate to ~1e-12 for any variance. Shapes (n*,).

    var ≤ 2: 64-node Gauss–Hermite. Larger var, where the Gaussian is wide against the sigmoid's unit width: split
    σ(f) = 1[f > 0] + (σ(f) − 1[f > 0]), so p = Φ(mean/sd) + ∫₀^∞ e^{−t} σ(t)[N(−t|mean, var) − N(t|mean, var)]dt,
    the integral by 64-node Gauss–Laguerre (its integrand is smooth on the scale sd).
    """
    mean = np.asarray(mean, dtype=float)
    var = np.maximum(np.asarray(var, dtype=float), 0.0)
    bad = ~(np.isfinite(mean) & np.isfinite(var))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise NumericalError(f"the predictive distribution of f* is not finite at row {i} (mean "
                             f"{mean.ravel()[i]!r}, variance {var.ravel()[i]!r}): the model has diverged")
    p = np.empty(mean.shape)
    narrow = var <= _GH_MAX_VARIANCE
    f = mean[narrow, None] + np.sqrt(2.0 * var[narrow])[:, None] * _GH_NODES
    p[narrow] = expit(f) @ _GH_WEIGHTS / np.sqrt(np.pi)
    wide = ~narrow
    m, sd = mean[wide, None], np.sqrt(var[wide])[:, None]
    density_difference = (np.exp(-0.5 * ((_GL_NODES + m) / sd) ** 2)
                          - np.exp(-0.5 * ((_GL_NODES - m) / sd) ** 2)) / (sd * np.sqrt(2.0 * np.pi))
    p[wide] = ndtr(mean[wide] / sd[:, 0]) + (expit(_GL_NODES) * density_difference) @ _GL_WEIGHTS
    return np.clip(p, 0.0, 1.0, out=p)  # the quadratures' rounding may step a hair outside [0, 1]


class XGPC:
    """The X-GPC training state: one `step` = minibatch, local step, natural-gradient step, optional kernel step.

    X (n, d), y (n,) in ±1, Z (m, d) fixed inducing inputs. `full=True` is the non-sparse mode u = f (Z = X, κ = I,
    K̃ = 0), whose ELBO is the Gibbs–MacKay bound. batch_size = n with `Constant(1.0)` is exact coordinate ascent;
    a batch_size above n is clamped to n with a warning. `schedule` is a step-size rule (`explorer.schedules`;
    default Robbins–Monro τ = 10, κ = 0.6, see `default_xgpc_schedule`). `hyper_optimizer` (an `Adam`) turns on kernel learning:
    after the natural-gradient step of every `hyper_every`-th iteration (1, the default, alternates as in the paper)
    one Adam step on (log ℓ, log σ²) along the analytic gradient of the same minibatch's ELBO at the new q.
    A failed iteration leaves every part of the state as it was before it.

    η is held as one read-only vector (η₁, vec η₂) of length m + m²; `eta1` and `eta2` are views of it.
    Kernel-dependent quantities (inducing features, K_zz, K_mm's factor and inverse) are cached until the kernel
    changes; the posterior factor L_P (Σ⁻¹ = L_P L_Pᵀ), L_P⁻¹ and μ until η changes.
    """

    _KERNEL_STATE = ("kernel", "_features", "K_zz", "L_K", "K_inv")
    _POSTERIOR_STATE = ("_eta", "L_P", "L_P_inv", "mu")

    def __init__(self, X: np.ndarray, y: np.ndarray, Z: np.ndarray | None, kernel: RBF, *, batch_size: int = 100,
                 schedule=None, hyper_optimizer: Adam | None = None, rng: np.random.Generator | None = None,
                 full: bool = False, criterion: SlidingWindow | None = None, hyper_every: int = 1):
        self.X, self.y = labelled_data(X, y)
        self.full = bool(full)
        self.Z = self.X if self.full else inducing_inputs(Z, self.X.shape[1])
        kernel.check_dimension(self.X.shape[1])
        self.n, self.m = len(self.X), len(self.Z)
        self.batch_size = minibatch_size(batch_size, self.n)
        self.schedule = schedule if schedule is not None else default_xgpc_schedule()
        self.hyper_optimizer = hyper_optimizer
        if hyper_every < 1:
            raise ValueError(f"hyper_every must be ≥ 1, got {hyper_every}")
        self.hyper_every = int(hyper_every)
        self.rng = rng if rng is not None else np.random.default_rng()
        self.criterion = criterion if criterion is not None else global_parameter_criterion()
        self.iteration = 0
        self.rho = float("nan")
        self.warm_started = not getattr(self.schedule, "needs_warm_start", False)
        self._set_kernel(kernel)
        self._set_posterior(np.concatenate([np.zeros(self.m), (-0.5 * self.K_inv).ravel()]))
        self.last_batch = np.arange(0)
        self.last_c = np.zeros(0)

    def set_training_data(self, X: np.ndarray, y: np.ndarray) -> None:
        """Replace the training set (e.g. a point added by the user), keeping q(u), Z and the kernel; the n/s scaling
        follows the new n from the next step on. Not available in the full mode, where Z is the training set."""
        if self.full:
            raise ValueError("the non-sparse mode (u = f) cannot change its training set; start a new run")
        self.X, self.y = labelled_data(X, y, d=self.X.shape[1])
        self.n = len(self.X)
        self.batch_size = min(self.batch_size, self.n)

    # ----- derived quantities ---------------------------------------------------------------------------------
    def _set_kernel(self, kernel: RBF) -> None:
        """Cache the inducing features, K_zz = K(Z, Z) (no nugget), L_K (K_mm = K_zz + γI = L_K L_Kᵀ) and K_mm⁻¹."""
        features = kernel.features(self.Z)
        K_zz = kernel.cross_from_features(self.Z, features)
        L_K = robust_cholesky(kernel.gram(self.Z, K_zz), "K_mm", self.iteration)
        K_inv = inverse_from_factor_inverse(triangular_inverse(L_K))
        self.kernel, self._features, self.K_zz, self.L_K, self.K_inv = kernel, features, K_zz, L_K, K_inv
        self._prior_variance = kernel.variance + kernel.nugget

    def _set_posterior(self, eta: np.ndarray) -> None:
        """η = (η₁, vec η₂) (m + m²,) → L_P with Σ⁻¹ = −2η₂ = L_P L_Pᵀ, L_P⁻¹ and μ = Σ η₁."""
        m = self.m
        L_P = robust_cholesky(-2.0 * eta[m:].reshape(m, m), "Σ⁻¹ = −2η₂", self.iteration)
        L_P_inv = triangular_inverse(L_P)
        eta.setflags(write=False)
        self._eta, self.L_P, self.L_P_inv = eta, L_P, L_P_inv
        self.mu = L_P_inv.T @ (L_P_inv @ eta[:m])

    @property
    def eta1(self) -> np.ndarray:
        """η₁ = Σ⁻¹μ, shape (m,) (read-only)."""
        return self._eta[: self.m]

    @property
    def eta2(self) -> np.ndarray:
        """η₂ = −½Σ⁻¹, shape (m, m) (read-only)."""
        return self._eta[self.m:].reshape(self.m, self.m)

    @property
    def Sigma(self) -> np.ndarray:
        """Σ = (−2η₂)⁻¹, shape (m, m)."""
        return inverse_from_factor_inverse(self.L_P_inv)

    @property
    def converged(self) -> bool:
        return self.criterion.converged

    def project(self, X: np.ndarray, index: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """κ (s, m), K̃ diagonal (s,), K_sm (s, m) for the rows X (s, d); in the full mode `index` picks rows of I."""
        if self.full:
            kappa = np.zeros((len(index), self.m))
            kappa[np.arange(len(index)), index] = 1.0
            return kappa, np.zeros(len(index)), self.kernel.cross_from_features(X, self._features)
        K_sm = self.kernel.cross_from_features(X, self._features)
        kappa = K_sm @ self.K_inv
        K_tilde = self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm)
        return kappa, np.maximum(K_tilde, 0.0, out=K_tilde), K_sm

    def _sample_batch(self) -> np.ndarray:
        """A fresh minibatch of distinct rows (in no particular order: the step only sums over it)."""
        if self.batch_size == self.n:
            return np.arange(self.n)
        return self.rng.choice(self.n, self.batch_size, replace=False, shuffle=False)

    def minibatch_targets(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(λ̂₁, λ̂₂) on the minibatch `index` at the current q, after its local step."""
        kappa, K_tilde, _ = self.project(self.X[index], index)
        theta = pg_mean(local_step(kappa, K_tilde, self.mu, self.L_P_inv))
        return natural_gradient_targets(kappa, self.y[index], theta, self.K_inv, self.n)

    def kernel_gradient(self, index: np.ndarray) -> np.ndarray:
        """∂L̂/∂(log ℓ, log σ²) of the minibatch ELBO on rows `index` at the current q, c at its optimum → (L + 1,)."""
        X_b = self.X[index]
        kappa, K_tilde, K_sm = self.project(X_b, index)
        return self._kernel_gradient(X_b, self.y[index], kappa, K_tilde, K_sm)

    def _kernel_gradient(self, X_b, y_b, kappa, K_tilde, K_sm) -> np.ndarray:
        theta = pg_mean(local_step(kappa, K_tilde, self.mu, self.L_P_inv))
        return elbo_kernel_gradient(self.kernel, X_b, y_b, self.Z, self.n, self.mu, self.Sigma, self.K_inv, kappa,
                                    K_sm, theta, full=self.full, K_zz=self.K_zz)

    def _flat_targets(self, index: np.ndarray) -> np.ndarray:
        lam1, lam2 = self.minibatch_targets(index)
        return np.concatenate([lam1, lam2.ravel()])

    def _warm_start(self) -> None:
        samples = []
        for _ in range(self.schedule.warm_start_batches):
            target = self._flat_targets(self._sample_batch())
            samples.append(target if self.schedule.warm_start_on == "target" else target - self._eta)
        self.schedule.warm_start(samples)
        self.warm_started = True

    # ----- one SVI iteration -------------------------------------------------------------------------------------
    def step(self, k: int = 1) -> None:
        """Advance k ≥ 0 SVI iterations. On an error the state is exactly that before the failing iteration."""
        for _ in range(count(k)):
            saved = self._volatile_state()
            try:
                self._iterate()
            except Exception:
                self._restore_volatile_state(saved)
                raise

    def _iterate(self) -> None:
        if not self.warm_started:
            self._warm_start()
        index = self._sample_batch()
        X_b, y_b = self.X[index], self.y[index]
        kappa, K_tilde, K_sm = self.project(X_b, index)
        c = local_step(kappa, K_tilde, self.mu, self.L_P_inv)
        lam1, lam2 = natural_gradient_targets(kappa, y_b, pg_mean(c), self.K_inv, self.n)
        gradient = np.empty_like(self._eta)  # the natural gradient λ̂ − η, flat like η
        np.subtract(lam1, self.eta1, out=gradient[: self.m])
        np.subtract(lam2, self.eta2, out=gradient[self.m:].reshape(self.m, self.m))
        squared_norm = float(gradient @ gradient)
        rho = self.schedule.rate(gradient, squared_norm)
        old_eta = self._eta
        self.iteration += 1  # from here errors name the iteration being computed; step() restores it on failure
        self._set_posterior(old_eta + rho * gradient)
        if self.hyper_optimizer is not None and self.iteration % self.hyper_every == 0:
            gradient = self._kernel_gradient(X_b, y_b, kappa, K_tilde, K_sm)
            with kernel_step_guard(self.kernel, self.iteration):
                self._set_kernel(self.kernel.with_log_params(self.hyper_optimizer.ascend(self.kernel.log_params,
                                                                                         gradient)))
        # relative change of the global parameters ‖η_new − η_old‖/‖η_old‖ = ρ‖λ̂ − η‖/‖η_old‖
        self.criterion.update(rho * math.sqrt(squared_norm) / max(math.sqrt(float(old_eta @ old_eta)), 1e-12))
        self.rho, self.last_batch, self.last_c = rho, index, c

    def _volatile_state(self) -> tuple:
        """References to everything an iteration replaces (schedules and Adam replace their arrays, never write
        into them, so references suffice)."""
        return (self.rng.bit_generator.state, self.schedule.state_dict(),
                None if self.hyper_optimizer is None else self.hyper_optimizer.state_dict(),
                self.criterion.state_dict(), self.iteration, self.warm_started,
                [getattr(self, name) for name in self._KERNEL_STATE + self._POSTERIOR_STATE])

    def _restore_volatile_state(self, saved: tuple) -> None:
        rng_state, schedule, adam, criterion, self.iteration, self.warm_started, cached = saved
        self.rng.bit_generator.state = rng_state
        self.schedule.load_state_dict(schedule)
        if adam is not None:
            self.hyper_optimizer.load_state_dict(adam)
        self.criterion.load_state_dict(criterion)
        for name, value in zip(self._KERNEL_STATE + self._POSTERIOR_STATE, cached):
            setattr(self, name, value)
        self._prior_variance = self.kernel.variance + self.kernel.nugget

    # ----- objective and prediction ------------------------------------------------------------------------------
    def elbo(self, index: np.ndarray | None = None) -> float:
        """The augmented ELBO (eq. variational_bound with all constants), a lower bound on log p(y).
        On all n points (in chunks), or estimated as (n/s)Σ_{i∈index}(…) − KL on the rows `index`."""
        rows = np.arange(self.n) if index is None else np.asarray(index)
        total = 0.0
        for start in range(0, len(rows), _CHUNK):
            part = rows[start:start + _CHUNK]
            kappa, K_tilde, _ = self.project(self.X[part], part)
            a = kappa @ self.mu
            V = _whiten(self.L_P_inv, kappa)
            b = np.einsum("ij,ij->j", V, V)
            c = np.sqrt(K_tilde + b + a * a)
            total += float(np.sum(augmented_likelihood_terms(self.y[part], a, b, K_tilde, c)))
        return self.n / len(rows) * total - self.kl()

    def kl(self) -> float:
        """KL(q(u) ‖ p(u))."""
        return gaussian_kl(self.mu, self.L_P, self.L_P_inv, self.L_K, triangular_inverse(self.L_K))

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(μ*, σ*²): μ* = κ*μ, σ*² = k** − κ*K_m* + κ*Σκ*ᵀ (eq. predictive_distr). Xs (n*, d) → (n*,), (n*,)."""
        Xs = query_points(Xs, self.X.shape[1])
        mean, var = np.empty(len(Xs)), np.empty(len(Xs))
        for start in range(0, len(Xs), _CHUNK):
            part = slice(start, start + _CHUNK)
            K_sm = self.kernel.cross_from_features(Xs[part], self._features)
            kappa = K_sm @ self.K_inv
            V = _whiten(self.L_P_inv, kappa)
            mean[part] = kappa @ self.mu
            var[part] = (self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm) + np.einsum("ij,ij->j", V, V))
        return mean, np.maximum(var, 1e-12)

    def predict_proba(self, Xs: np.ndarray) -> np.ndarray:
        """p(y* = +1 | data) at Xs (n*, d) → (n*,)."""
        return predictive_probability(*self.predict_latent(Xs))

    def local_parameters(self, X: np.ndarray, index: np.ndarray | None = None) -> np.ndarray:
        """Optimal c_i (eq. local_updates) for the rows X (s, d) at the current q → (s,)."""
        kappa, K_tilde, _ = self.project(np.ascontiguousarray(X, dtype=float), index)
        return local_step(kappa, K_tilde, self.mu, self.L_P_inv)

    # ----- persistence ---------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {
            "eta1": self.eta1.copy(), "eta2": self.eta2.copy(), "log_params": self.kernel.log_params,
            "nugget": self.kernel.nugget, "lengthscale": self.kernel.lengthscale.copy(),
            "variance": self.kernel.variance, "iteration": self.iteration, "rho": self.rho,
            "warm_started": self.warm_started, "rng": self.rng.bit_generator.state,
            "schedule": self.schedule.state_dict(),
            "hyper_optimizer": None if self.hyper_optimizer is None else self.hyper_optimizer.state_dict(),
            "criterion": self.criterion.state_dict(), "last_batch": self.last_batch, "last_c": self.last_c,
        }

    def load_state_dict(self, state: dict) -> None:
        kernel = RBF(np.asarray(state["lengthscale"], dtype=float), float(state["variance"]), float(state["nugget"]))
        self.iteration = int(state["iteration"])
        self._set_kernel(kernel)
        eta1, eta2 = np.asarray(state["eta1"], dtype=float), np.asarray(state["eta2"], dtype=float)
        self._set_posterior(np.concatenate([eta1, eta2.ravel()]))
        self.rho, self.warm_started = float(state["rho"]), bool(state["warm_started"])
        self.rng.bit_generator.state = state["rng"]
        self.schedule.load_state_dict(state["schedule"])
        if self.hyper_optimizer is not None and state["hyper_optimizer"] is not None:
            self.hyper_optimizer.load_state_dict(state["hyper_optimizer"])
        self.criterion.load_state_dict(state["criterion"])
        self.last_batch = np.asarray(state["last_batch"], dtype=int)
        self.last_c = np.asarray(state["last_c"], dtype=float)
