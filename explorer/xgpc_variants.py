"""X-GPC's options that were measured and not adopted (README "Choices"; `python -m explorer bench steps`,
`bench dynamics`, `bench bound`, BENCHMARKS.md): `XGPCVariants`, the paper's `explorer.xgpc.XGPC` plus

- a whitened kernel step (`kernel_step="whitened"`, GPflow's parametrisation) instead of the paper's fixed q(u);
- an initial q(u) from coordinate-ascent sweeps on a subset (`init_sweeps`, `init_rows`);
- iterate averaging (`average_window`);
- a minibatch that grows late (`batch_growth`, `batch_growth_start`, `batch_growth_every`, `batch_max`: the SVI
  skeleton's) and a step size scaled to it (`batch_rho="noise"`);
- over-relaxed bound optimisation on full batches (`overrelax`).

`explorer.methods` builds an `XGPCVariants` only when one of these is set away from its default (`VARIANT_DEFAULTS`);
with every default it is `XGPC` itself, number for number.
"""

from __future__ import annotations

import inspect
import math
import numbers

import numpy as np
from scipy.linalg import lapack

from explorer.hyperparameters import whitened_kernel_gradient
from explorer.inputs import MAX_COUNT
from explorer.kernels import Kernel
from explorer.linalg import positive_definite_cholesky, robust_cholesky
from explorer.polyagamma import pg_mean
from explorer.schedules import noise_scaled_rho
from explorer.targets import natural_gradient_targets
from explorer.xgpc import XGPC, _whiten, augmented_likelihood_terms, local_step, optimal_c

KERNEL_STEPS = ("fixed-u", "whitened")
BATCH_RHOS = ("schedule", "noise")
OVERRELAX_GAIN = 1e-12
"""An over-relaxed step is kept only if it raises the bound by more than this fraction of |L| (`_overrelaxed_update`).
Near the optimum the proposal and η give the same bound up to rounding (measured: ±3e-14 at L ≈ −64, 5e-16 of it),
and `L(proposal) ≥ L(η)` then accepted or refused by the last bit, differently on another CPU."""


class XGPCVariants(XGPC):
    """`XGPC` with the variant options (keyword arguments besides XGPC's own, defaults in `VARIANT_DEFAULTS`).

    `kernel_step` says what the kernel step holds fixed: "fixed-u" (the paper: q(u) = N(μ, Σ), η unchanged) or
    "whitened" (q(w) with u = L_K w, K_mm = L_K L_Kᵀ, as GPflow's whitened SVGP: the gradient at fixed q(w), and
    after the step η is carried to the new u-space, `_carry_q_whitened`; sparse mode only). `init_sweeps` > 0
    starts q(u) from that many full-batch coordinate-ascent sweeps (ρ = 1, the bound scaled by n/`init_rows`) on
    `init_rows` random training rows before the first SVI iteration (the minibatch stream is rewound afterwards).
    `kernel_bound` is the bound the kernel step ascends at the current q(u): "augmented" (the paper: X-GPC's own
    ELBO, c at its optimum) or "exact" (the default; Σ E_q[log σ(y f)] − KL, the non-augmented bound that the augmented one
    lower-bounds, its expectations by Gauss–Hermite: the kernel gradient at the pseudo-data (ỹ, θ̃), `pseudo_data`);
    the local and natural-gradient steps stay on the augmented bound either way.
    `average_window` W > 0 turns on iterate averaging (Polyak–Ruppert, with forgetting): η̄ ← η̄ + w(η − η̄),
    w = max(1/k, 1/W) at the k-th iterate, so a uniform average of the first W iterates, then an exponential one over
    about W; the bound and the predictions then use q̄ = q(η̄) (`mu`, `Sigma`, `eta1`, `eta2` stay the SVI iterate's,
    on which the local, natural-gradient and kernel steps work).
    `batch_growth`, `batch_growth_start`, `batch_growth_every`, `batch_max`: a minibatch that grows late (`SVIEngine`);
    `batch_rho="noise"` then scales the rule's ρ to the minibatch's size (`schedules.noise_scaled_rho`: ρ at
    s = `batch_size`, rising to 1 — coordinate ascent — at s = n), "schedule" (default) keeps the rule's ρ.
    `overrelax` α > 1 turns full-batch iterations into adaptive over-relaxed bound optimisation (Salakhutdinov &
    Roweis 2003; `_overrelaxed_update`): steps ρ ≥ 1 grown by α while the augmented bound rises, else the plain
    coordinate-ascent step; it needs full batches (batch_size = n, or growth up to n) and leaves minibatch iterations
    to the step-size rule.
    """

    def __init__(
        self,
        X,
        y,
        Z,
        kernel: Kernel,
        *,
        kernel_step: str = "fixed-u",
        init_sweeps: int = 0,
        init_rows: int = 2000,
        average_window: int = 0,
        batch_growth: float = 1.0,
        batch_growth_start: int = 0,
        batch_growth_every: int = 1,
        batch_max: int | None = None,
        batch_rho: str = "schedule",
        overrelax: float | None = None,
        **options,
    ):
        full, hyper_rate = options.get("full", False), options.get("hyper_rate", "constant")
        if kernel_step not in KERNEL_STEPS:
            raise ValueError(f"kernel_step must be one of {KERNEL_STEPS}, got {kernel_step!r}")
        if kernel_step == "whitened" and full:
            raise ValueError("kernel_step='whitened' needs inducing points: the non-sparse mode (u = f) has no K_ms")
        if init_sweeps < 0 or init_rows < 1:
            raise ValueError(f"need init_sweeps ≥ 0 and init_rows ≥ 1, got {init_sweeps}, {init_rows}")
        if average_window < 0:
            raise ValueError(f"average_window must be ≥ 0 (0: no averaging), got {average_window}")
        if batch_rho not in BATCH_RHOS:
            raise ValueError(f"batch_rho must be one of {BATCH_RHOS}, got {batch_rho!r}")
        if overrelax is not None and not (
            isinstance(overrelax, numbers.Real)
            and not isinstance(overrelax, bool)
            and math.isfinite(overrelax)
            and overrelax > 1
        ):
            raise ValueError(f"overrelax must be a finite growth factor α > 1 (None: off), got {overrelax!r}")
        if overrelax is not None and hyper_rate == "rho":
            raise ValueError(
                "overrelax takes steps ρ ≥ 1 that grow; hyper_rate='rho' (Adam's rate × ρ_t/ρ₁) would "
                "grow the kernel's learning rate with them: use hyper_rate='constant'"
            )
        self.kernel_step = kernel_step
        self.init_sweeps, self.init_rows = int(init_sweeps), int(init_rows)
        self.q_initialised = self.init_sweeps == 0
        self.average_window, self.average_count, self._eta_bar, self._averaged = int(average_window), 0, None, None
        self.overrelax_rho, self._overrelax_cache = 1.0, None
        super().__init__(X, y, Z, kernel, **options)
        self._set_batch_growth(batch_growth, batch_growth_start, batch_growth_every, batch_max)
        self.batch_rho = batch_rho
        if overrelax is not None and self.batch_size_at(MAX_COUNT) < self.n:
            raise ValueError(
                "overrelax needs full batches (bound optimisation on all n rows): batch_size = n, or a "
                f"minibatch that grows to n (batch_growth > 1, batch_max None or n); here it stays at "
                f"{self.batch_size_at(MAX_COUNT)} of {self.n} rows"
            )
        self.overrelax = overrelax

    def set_training_data(self, X: np.ndarray, y: np.ndarray) -> None:
        super().set_training_data(X, y)
        self._overrelax_cache = None

    def _move_kernel(self, kernel: Kernel) -> None:
        """The kernel step: q(u) stays in u-space ("fixed-u", the paper) or in whitened coordinates ("whitened")."""
        if self.kernel_step == "fixed-u":
            self._set_kernel(kernel)
            return
        old_L_K = self.L_K
        self._set_kernel(kernel)
        W = self.L_K_inv.T @ old_L_K.T
        self._set_posterior(self._carry_q_whitened(W))
        if self._eta_bar is not None:
            m, eta_bar = self.m, self._eta_bar
            eta2_bar = W @ eta_bar[m:].reshape(m, m) @ W.T
            self._set_average(np.concatenate([W @ eta_bar[:m], (0.5 * (eta2_bar + eta2_bar.T)).ravel()]))

    def _carry_q_whitened(self, W: np.ndarray) -> np.ndarray:
        """η for the new kernel (cached) with q(w) unchanged, w = L_K⁻¹u: u' = L'L⁻¹u, so with W = L'⁻ᵀLᵀ (m, m)
        η₁' = Wη₁ and −2η₂' = Σ'⁻¹ = W L_P (W L_P)ᵀ (exactly symmetric); L the old L_K, L' the new one. (m + m²,)."""
        R = W @ self.L_P
        return np.concatenate([W @ self.eta1, (-0.5 * (R @ R.T)).ravel()])

    def _carry_q_whitened(self, W: np.ndarray) -> np.ndarray:
        """η for the new kernel (cached) with q(w) unchanged, w = L_K⁻¹u: u' = L'L⁻¹u, so with W = L'⁻ᵀLᵀ (m, m)
        η₁' = Wη₁ and −2η₂' = Σ'⁻¹ = W L_P (W L_P)ᵀ (exactly symmetric); L the old L_K, L' the new one. (m + m²,)."""
        R = W @ self.L_P
        return np.concatenate([W @ self.eta1, (-0.5 * (R @ R.T)).ravel()])

    # ----- iterate averaging ----------------------------------------------------------------------------------------
    def _set_average(self, eta_bar: np.ndarray) -> None:
        eta_bar.setflags(write=False)
        self._eta_bar, self._averaged = eta_bar, None

    def _average(self) -> None:
        """η̄ ← η̄ + w(η − η̄), w = max(1/k, 1/W), after the k-th SVI iterate."""
        self.average_count += 1
        w = max(1.0 / self.average_count, 1.0 / self.average_window)
        self._set_average(
            self._eta.copy() if self._eta_bar is None else self._eta_bar + w * (self._eta - self._eta_bar)
        )

    def _reported(self) -> tuple[np.ndarray, np.ndarray]:
        """(μ, L_P) of the q that the bound and the predictions use: q(η̄) when averaging (factorised once per η̄),
        else the iterate's."""
        if self._eta_bar is None:
            return self.mu, self.L_P
        if self._averaged is None:
            m = self.m
            L_P = robust_cholesky(-2.0 * self._eta_bar[m:].reshape(m, m), "Σ̄⁻¹ = −2η̄₂", self.iteration)
            self._averaged = (lapack.dpotrs(L_P, self._eta_bar[:m], lower=1)[0], L_P)
        return self._averaged

    def _kernel_gradient(self, X_b, y_b, kappa, K_tilde, K_sm) -> np.ndarray:
        """XGPC's kernel gradient, or with `kernel_step="whitened"` the gradient at fixed q(w)."""
        if self.kernel_step == "whitened" and not self.full:
            return self._whitened_kernel_gradient(X_b, y_b, kappa, K_tilde, K_sm)
        return super()._kernel_gradient(X_b, y_b, kappa, K_tilde, K_sm)

    def _whitened_kernel_gradient(self, X_b, y_b, kappa, K_tilde, K_sm) -> np.ndarray:
        """∂L̂/∂(log ℓ, log σ²) at fixed q(w) = N(m_w, S_w), m_w = L_K⁻¹μ, S_w = L_K⁻¹ΣL_K⁻ᵀ = VᵀV with V = L_P⁻¹L_K⁻ᵀ
        (Σ⁻¹ = L_P L_Pᵀ):
        the bound's slopes ∂/∂a = ½·labels − θa and ∂/∂v = −½θ (v = K̃ + κΣκᵀ; `_bound_pseudo_data`), given to
        `hyperparameters.whitened_kernel_gradient`."""
        a = kappa @ self.mu
        W = _whiten(self.L_P, kappa)
        labels, theta = self._bound_pseudo_data(y_b, a, K_tilde + np.einsum("ij,ij->j", W, W))
        V = _whiten(self.L_P, self.L_K_inv)
        return whitened_kernel_gradient(
            self.kernel,
            X_b,
            self.Z,
            K_sm,
            self.K_zz,
            self.L_K,
            self.L_K_inv,
            self.L_K_inv @ self.mu,
            V.T @ V,
            0.5 * labels - theta * a,
            -0.5 * theta,
            self.n / len(y_b),
        )

    # ----- a better initial q ----------------------------------------------------------------------------------
    def _iterate(self) -> None:
        if not self.q_initialised:
            self._initialise_q()
        super()._iterate()

    def _initialise_q(self) -> None:
        """`init_sweeps` coordinate-ascent sweeps η ← λ̂ on `init_rows` rows drawn from the minibatch stream, which is
        rewound afterwards (so the SVI minibatches are those of any other method with the same seed)."""
        stream = self.rng.bit_generator.state
        index = self.source.sample(self.rng, min(self.init_rows, self.n))
        self.rng.bit_generator.state = stream
        X_b, y_b = self._batch(index)
        kappa, K_tilde, _ = self.project(X_b, index)
        for _ in range(self.init_sweeps):
            theta = pg_mean(local_step(kappa, K_tilde, self.mu, self.L_P))
            lam1, lam2 = natural_gradient_targets(kappa, y_b, theta, self.K_inv, self.n)
            self._set_posterior(np.concatenate([lam1, lam2.ravel()]))
        self.q_initialised = True

    def _update_q(self, index: np.ndarray, X_b: np.ndarray, y_b: np.ndarray) -> tuple[float, tuple]:
        """XGPC's step, or on full batches with `overrelax` the over-relaxed one (`_overrelaxed_update`); then the
        iterate average when averaging."""
        if self.overrelax is not None and len(index) == self.n:
            result = self._overrelaxed_update(index, X_b, y_b)
        else:
            result = super()._update_q(index, X_b, y_b)
        if self.average_window:
            self._average()
        return result

    def _step_size(self, gradient: np.ndarray, squared_norm: float, batch_rows: int) -> float:
        """The rule's ρ, scaled to the minibatch's size with `batch_rho="noise"` (`schedules.noise_scaled_rho`)."""
        rho = super()._step_size(gradient, squared_norm, batch_rows)
        if self.batch_rho == "noise":
            rho = noise_scaled_rho(rho, batch_rows, self.batch_size, self.n)
        return rho

    # ----- over-relaxed bound optimisation on full batches (Salakhutdinov & Roweis 2003) ------------------------------
    def _overrelaxed_update(self, index: np.ndarray, X_b: np.ndarray, y_b: np.ndarray) -> tuple[float, tuple]:
        """Adaptive over-relaxed coordinate ascent on all n rows: with λ̂ the coordinate-ascent target at η (c at its
        optimum), propose η + ρ(λ̂ − η) with ρ = `overrelax_rho` ≥ 1; keep it when −2η₂ stays positive definite and the
        augmented bound L rises above L(η) by more than rounding (`OVERRELAX_GAIN`·|L(η)|), then ρ ← αρ
        (α = `overrelax`); otherwise take η ← λ̂ (ρ = 1, which never lowers L) and restart from ρ = 1. A step at ρ = 1
        is kept as is and grows ρ to α. Returns what `_update_q` returns."""
        kappa, K_tilde, K_sm = self.project(X_b, index)
        c, bound = self._optimal_bound_terms(kappa, K_tilde, y_b)
        lam1, lam2 = natural_gradient_targets(kappa, y_b, pg_mean(c), self.K_inv, self.n)
        target = np.concatenate([lam1, lam2.ravel()])
        old_eta, rho = self._eta, self.overrelax_rho
        gradient = target - old_eta
        accepted = rho == 1.0
        if not accepted:
            proposal = old_eta + rho * gradient
            m = self.m
            if positive_definite_cholesky(-2.0 * proposal[m:].reshape(m, m)) is not None:
                self._set_posterior(proposal)
                accepted = self._optimal_bound_terms(kappa, K_tilde, y_b)[1] > bound + OVERRELAX_GAIN * abs(bound)
        if accepted:
            self.overrelax_rho = rho * self.overrelax
        else:
            rho = self.overrelax_rho = 1.0
        if rho == 1.0:
            self._set_posterior(target)
        self.rho, self.last_c = rho, c
        change = rho * math.sqrt(float(gradient @ gradient)) / max(math.sqrt(float(old_eta @ old_eta)), 1e-12)
        return change, (kappa, K_tilde, K_sm)

    def _optimal_bound_terms(self, kappa: np.ndarray, K_tilde: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
        """(the optimal c (s,), the augmented bound on these rows) at the current q (the iterate's, not an average).
        Kept for the next call while q and the kernel stay (an accepted over-relaxed step is the next iteration's
        starting point)."""
        cache = self._overrelax_cache
        if cache is not None and cache[0] is self._eta and cache[1] is self.kernel:
            return cache[2:]
        a = kappa @ self.mu
        V = _whiten(self.L_P, kappa)
        b = np.einsum("ij,ij->j", V, V)
        c = optimal_c(K_tilde, b, a)
        bound = float(np.sum(augmented_likelihood_terms(y, a, b, K_tilde, c))) - self._kl(self.mu, self.L_P)
        self._overrelax_cache = (self._eta, self.kernel, c, bound)
        return c, bound

    # ----- persistence ---------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        return {
            **super().state_dict(),
            "q_initialised": self.q_initialised,
            "average_count": self.average_count,
            "overrelax_rho": self.overrelax_rho,
            "eta_bar": None if self._eta_bar is None else self._eta_bar.copy(),
        }

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self.q_initialised = bool(state.get("q_initialised", True))  # older files: past their first iteration
        self.overrelax_rho, self._overrelax_cache = float(state.get("overrelax_rho", 1.0)), None
        self.average_count, self._eta_bar, self._averaged = int(state.get("average_count", 0)), None, None
        if state.get("eta_bar") is not None:
            self._set_average(np.array(state["eta_bar"], dtype=float))


VARIANT_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(XGPCVariants.__init__).parameters.items()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY
}
"""Each variant option with the value that turns it off (the paper's X-GPC): `XGPCVariants`' own defaults."""
