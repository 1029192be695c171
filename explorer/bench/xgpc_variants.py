"""X-GPC's options that were measured and not adopted (README "Choices"; `python -m explorer bench dynamics`,
BENCHMARKS.md): `XGPCVariants`, the paper's `explorer.xgpc.XGPC` plus a kernel warm-up, Adam's rate × ρ_t/ρ₁, a
whitened kernel step, an initial q(u) from coordinate-ascent sweeps, iterate averaging, a minibatch that grows late
with a step size scaled to it, and over-relaxed full-batch steps (its docstring says how each works).

They are not run settings (no face offers them): `bench dynamics` races them (`variant_trainer`), and with every
default an `XGPCVariants` is `XGPC` itself, number for number.
"""

from __future__ import annotations

import inspect
import math
import numbers
import warnings

import numpy as np
from scipy.linalg import lapack

from explorer.bench.protocol import make_trainer
from explorer.hyperparameters import whitened_kernel_gradient
from explorer.inputs import MAX_COUNT, count
from explorer.kernels import Kernel
from explorer.linalg import positive_definite_cholesky, robust_cholesky
from explorer.polyagamma import pg_mean
from explorer.targets import natural_gradient_targets
from explorer.training import Trainer
from explorer.xgpc import XGPC, _whiten, augmented_likelihood_terms, local_step, optimal_c

KERNEL_STEPS = ("fixed-u", "whitened")
BATCH_RHOS = ("schedule", "noise")
HYPER_RATES = ("constant", "rho")
OVERRELAX_GAIN = 1e-12
"""An over-relaxed step is kept only if it raises the bound by more than this fraction of |L| (`_overrelaxed_update`).
Near the optimum the proposal and η give the same bound up to rounding (measured: ±3e-14 at L ≈ −64, 5e-16 of it),
and `L(proposal) ≥ L(η)` then accepted or refused by the last bit, differently on another CPU."""


class XGPCVariants(XGPC):
    """`XGPC` with the variant options (keyword arguments besides XGPC's own, defaults in `VARIANT_DEFAULTS`).

    `hyper_warmup` iterations pass before the first kernel step; `hyper_rate="rho"` scales Adam's learning rate by
    ρ_t/ρ₁ (the variational step's rule, ρ₁ its first value), so that the kernel slows down as q(u) does.

    `kernel_step` says what the kernel step holds fixed: "fixed-u" (the paper: q(u) = N(μ, Σ), η unchanged) or
    "whitened" (q(w) with u = L_K w, K_mm = L_K L_Kᵀ, as GPflow's whitened SVGP: the gradient at fixed q(w), and
    after the step η is carried to the new u-space, `_carry_q_whitened`; sparse mode only). `init_sweeps` > 0
    starts q(u) from that many full-batch coordinate-ascent sweeps (ρ = 1, the bound scaled by n/`init_rows`) on
    `init_rows` random training rows before the first SVI iteration (the minibatch stream is rewound afterwards).
    `average_window` W > 0 turns on iterate averaging (Polyak–Ruppert, with forgetting): η̄ ← η̄ + w(η − η̄),
    w = max(1/k, 1/W) at the k-th iterate, so a uniform average of the first W iterates, then an exponential one over
    about W; the bound and the predictions then use q̄ = q(η̄) (`mu`, `Sigma`, `eta1`, `eta2` stay the SVI iterate's,
    on which the local, natural-gradient and kernel steps work).
    `batch_growth` ≥ 1, `batch_growth_start`, `batch_growth_every`, `batch_max`: after `batch_growth_start` iterations
    at s = `batch_size` the minibatch grows by the factor `batch_growth` every `batch_growth_every` iterations up to
    `batch_max` (default n: late iterations become full-batch; Friedlander & Schmidt 2012); s_t is a function of the
    iteration (`grown_batch_size`), so a saved iteration restores it.
    `batch_rho="noise"` then scales the rule's ρ to the minibatch's size (`noise_scaled_rho`: ρ at
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
        hyper_warmup: int = 0,
        hyper_rate: str = "constant",
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
        full = options.get("full", False)
        if hyper_warmup < 0:
            raise ValueError(f"hyper_warmup must be ≥ 0, got {hyper_warmup}")
        if hyper_rate not in HYPER_RATES:
            raise ValueError(f"hyper_rate must be one of {HYPER_RATES}, got {hyper_rate!r}")
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
        self.hyper_warmup, self.hyper_rate, self.first_rho = int(hyper_warmup), hyper_rate, float("nan")
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

    # ----- the kernel step's schedule and the growing minibatch -----------------------------------------------------
    def _kernel_step_due(self) -> bool:
        """XGPC's rule, once the warm-up of `hyper_warmup` iterations is over."""
        return self.iteration > self.hyper_warmup and super()._kernel_step_due()

    def _hyper_rate_scale(self) -> float:
        """The factor on Adam's learning rate: 1, or ρ_t/ρ₁ for `hyper_rate="rho"`."""
        return self.rho / self.first_rho if self.hyper_rate == "rho" else 1.0

    def _set_batch_growth(self, growth, start, every, batch_max) -> None:
        """Check and keep the minibatch growth: a finite factor ≥ 1, whole numbers start ≥ 0 and every ≥ 1, and a cap
        from `batch_size` to n (None: n; above n clamped to n with a warning)."""
        if isinstance(growth, bool) or not isinstance(growth, numbers.Real) or not math.isfinite(growth) or growth < 1:
            raise ValueError(f"batch_growth must be a finite factor ≥ 1 (1: a fixed minibatch), got {growth!r}")
        start, every = count(start, "batch_growth_start"), count(every, "batch_growth_every")
        if every < 1:
            raise ValueError(f"batch_growth_every must be ≥ 1, got {every}")
        if batch_max is not None:
            batch_max = count(batch_max, "batch_max")
            if batch_max < self.batch_size:
                raise ValueError(f"batch_max ({batch_max}) must be at least batch_size ({self.batch_size})")
            if batch_max > self.n:
                warnings.warn(
                    f"batch_max {batch_max} > n = {self.n}; the minibatch grows to the full batch of {self.n}",
                    stacklevel=3,
                )
                batch_max = self.n
        self.batch_growth, self.batch_growth_start, self.batch_growth_every = float(growth), start, every
        self.batch_max = batch_max

    def batch_size_at(self, iteration: int) -> int:
        """The minibatch size of the `iteration`-th iteration (1-based): `batch_size`, grown as configured."""
        growth = (self.batch_growth, self.batch_growth_start, self.batch_growth_every, self.batch_max)
        return grown_batch_size(iteration, self.batch_size, self.n, *growth)

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
        if not math.isfinite(self.first_rho):
            self.first_rho = self.rho
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
            "first_rho": self.first_rho,
            "eta_bar": None if self._eta_bar is None else self._eta_bar.copy(),
        }

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self.q_initialised = bool(state["q_initialised"])
        self.overrelax_rho, self._overrelax_cache = float(state.get("overrelax_rho", 1.0)), None
        self.first_rho = float(state["first_rho"])
        self.average_count, self._eta_bar, self._averaged = int(state["average_count"]), None, None
        if state.get("eta_bar") is not None:
            self._set_average(np.array(state["eta_bar"], dtype=float))


VARIANT_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(XGPCVariants.__init__).parameters.items()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY
}
"""Each variant option with the value that turns it off (the paper's X-GPC): `XGPCVariants`' own defaults."""


def grown_batch_size(
    iteration: int, base: int, n: int, growth: float = 1.0, start: int = 0, every: int = 1, cap: int | None = None
) -> int:
    """s_t of a minibatch that grows late (the hybrid deterministic–stochastic method of Friedlander & Schmidt 2012):
    s_t = min(cap, ⌈base · growth^⌈(t − start)/every⌉⌉) for the t-th iteration (t ≥ 1) after `start` iterations at
    s = base, else base; `cap` None means n, the full batch. growth = 1 keeps the minibatch fixed."""
    cap = n if cap is None else min(cap, n)
    if growth == 1.0 or iteration <= start or base >= cap:
        return min(base, n)
    periods = -(-(iteration - start) // every)
    if periods * math.log(growth) >= math.log(cap / base):  # compared in logs: growth**periods may overflow
        return cap
    return min(cap, math.ceil(base * growth**periods))


def noise_scaled_rho(rho: float, s: int, base: int, n: int) -> float:
    """ρ for a minibatch of s rows when the step-size rule gave ρ for `base` rows: ρ_s = ρ / (ρ + r(1 − ρ)) with
    r = (1/s − 1/n)/(1/base − 1/n), the variance of the n/s-scaled minibatch sum (drawn without replacement) relative
    to its variance at s = base. Reading ρ as the gain d²/(d² + V) of a noisy fixed-point step (d: the distance to the
    fixed point, V: the target's noise, as in the adaptive rule ρ = ‖E g‖²/E‖g‖²) and scaling V by r gives this; it is
    ρ at s = base and 1 at s = n, where X-GPC's step is exact coordinate ascent."""
    if s >= n:
        return 1.0
    if s == base:
        return rho
    r = (1.0 / s - 1.0 / n) / (1.0 / base - 1.0 / n)
    return rho / (rho + r * (1.0 - rho))


def variants_like(engine: XGPC, **variants) -> XGPCVariants:
    """An `XGPCVariants` with the variant options `variants` on what the X-GPC `engine` (not yet stepped) was built
    with: its data, Z, kernel, step-size rule, Adam, minibatch stream, kernel-step cadence, bound and mode."""
    built = ("batch_size", "schedule", "hyper_optimizer", "rng", "full", "hyper_every", "kernel_bound")
    options = {name: getattr(engine, name) for name in built}
    return XGPCVariants(engine.source, None, engine.Z, engine.kernel, **options, **variants)


def variant_trainer(method: str, split, *, options: dict | None = None, **run_settings) -> Trainer:
    """`protocol.make_trainer(method, split, options=…, **run_settings)` with the variant options among `options`
    (keys of `VARIANT_DEFAULTS`; the rest are run settings): its X-GPC engine, not yet stepped, is replaced by an
    `XGPCVariants` on the same data, Z, kernel, step-size rule, Adam and minibatch stream (`variants_like`), so the
    entrants of `bench dynamics` differ only in their options. ValueError for variant options of another method."""
    options = dict(options or {})
    variants = {name: options.pop(name) for name in VARIANT_DEFAULTS if name in options}
    trainer = make_trainer(method, split, options=options, **run_settings)
    if variants:
        if method != "xgpc":
            raise ValueError(f"the X-GPC variant options ({', '.join(sorted(variants))}) are X-GPC's, not {method}'s")
        trainer.engine = variants_like(trainer.engine, **variants)
    return trainer
