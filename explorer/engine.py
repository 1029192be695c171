"""The one SVI skeleton every sparse GP classification method plugs into (DESIGN §1, "one training loop").

One iteration (`step`): warm-start the step-size rule if it needs it, draw a minibatch from the data source, let the
method update q(u) on it (its variational step), then — every `hyper_every`-th iteration, when a hyper optimiser is
given — one ascent step on the kernel's log-parameters along the method's gradient of the same minibatch's bound at the
new q(u), and feed the relative change of the global parameters to the convergence criterion. An iteration that
raises leaves the engine exactly as it was before it.

A method (X-GPC, the SVGP baselines, EP, multi-class X-GPC) subclasses `SVIEngine` and supplies only:

  `_set_kernel(kernel)`          cache what depends on the kernel; called at construction and after every kernel step.
                                 The default caches what every sparse method needs (Z's features, K_zz, L_K, L_K⁻¹,
                                 K_mm⁻¹, the prior variance); a method extends it with its own.
  `_update_q(index, X_b, y_b)`   its variational step on the minibatch (rows `index`, inputs X_b (s, d), labels y_b
                                 (s,) as its equations write them, `_batch`); returns (relative change of its global
                                 parameters, context), the context being whatever the kernel gradient can reuse (κ,
                                 K_sm, …).
  `_minibatch_kernel_gradient(X_b, y_b, context)`   ∂(minibatch bound)/∂(kernel log-parameters) at the current q(u).
  `elbo(index=None)`, `predict_latent(X)`   its bound and latent prediction q(f*) (`Trainer` needs them); its
                                 likelihood `link` (of `explorer.likelihoods`: the logit unless set) turns q(f*)
                                 into the (n*, K) class probabilities (`predict_proba`) and codes the labels for its
                                 equations.
  `state_dict()` / `load_state_dict()`   its own variational parameters, merged with `_base_state()` /
                                 `_load_base_state()` (the shared parts below).
Optionally: `_stateful_parts()` (extra optimiser objects with state_dict/load_state_dict that an iteration advances,
so a failed iteration rolls them back), and, for a step-size rule that needs a warm start, `_warm_start_target(index)`
(flat natural-gradient target λ̂ on rows `index`) and `_flat_natural_parameters()` (flat η).

What the methods share beyond the iteration: `_set_kernel`'s factors, `_cross(X)` (K(X, Z)), `_estimate(terms,
index)` (a bound's sum over the rows, in chunks or on a minibatch) and `_in_chunks(marginals, Xs, shape)` (q(f*) at
many rows, in chunks).

Labels: the source holds class indices 0…K−1 (DESIGN §1); `_batch(index)` hands a method its rows with the labels as
its equations write them (`link.equation_labels`: ±1 for the binary links), so a method reads its rows through
`_batch`, never `source.batch`.

Rollback contract: an iteration only *replaces* attributes (never writes into arrays it keeps), so a shallow copy of
the attributes plus the states of the random stream and of the stateful parts restores everything.
"""

from __future__ import annotations

import numpy as np

from explorer.convergence import SlidingWindow, global_parameter_criterion
from explorer.hyperparameters import Adam, kernel_step_guard, learned_kernel
from explorer.inputs import count, minibatch_size, query_points
from explorer.kernels import Kernel, kernel_from_state
from explorer.likelihoods import LOGIT, Link
from explorer.linalg import cholesky_over, inverse_from_factor_inverse, robust_cholesky, triangular_inverse
from explorer.sources import ArraySource, DataSource, as_source
from explorer.validation import DataError

CHUNK = 4096
"""Rows per block of a bound's sum over all n rows and of a prediction (`_estimate`, `_in_chunks`)."""


class SVIEngine:
    """Shared state of an SVI run: `source` (n rows of d features), Z (m, d), `kernel`, the keywords below,
    `iteration`, `rho` (last step size; NaN when the method has none), `last_batch` (rows of the last minibatch).

    A method's constructor takes its own keywords and hands the rest, `**keywords`, to its base class, down to these
    (its docstring names only its own): `methods.build` passes each option to the engine whose constructor chain takes it (`methods.engine_keywords`).

    Parameters
    ----------
    source : explorer.sources.DataSource
        The training rows (n, d) and their class indices.
    Z : ndarray of shape (m, d)
        Fixed inducing inputs.
    kernel : explorer.kernels.Kernel
        The starting kernel.
    batch_size : int, default 100
        s, the minibatch size (clamped to n with a warning).
    schedule : step-size rule, optional
        A rule of `explorer.schedules` (None: the method's own, or none).
    hyper_optimizer : explorer.hyperparameters.Adam, optional
        Adam on the kernel's log-parameters: turns kernel learning on (None: a fixed kernel).
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    criterion : explorer.convergence.SlidingWindow, optional
        The convergence rule (default: the paper's window on the global parameters).
    hyper_every : int, default 1
        Iterations per kernel step (a whole number ≥ 1).
    """

    link: Link = LOGIT

    def __init__(
        self,
        source: DataSource,
        Z: np.ndarray,
        kernel: Kernel,
        *,
        batch_size: int = 100,
        schedule=None,
        hyper_optimizer: Adam | None = None,
        rng: np.random.Generator | None = None,
        criterion: SlidingWindow | None = None,
        hyper_every: int = 1,
    ):
        if isinstance(hyper_every, bool) or not isinstance(hyper_every, (int, np.integer)) or hyper_every < 1:
            raise ValueError(f"hyper_every must be a whole number ≥ 1, got {hyper_every!r}")
        kernel.check_dimension(source.d)
        self._check_classes(source)
        self.source, self.Z = source, Z
        self.n, self.m = source.n, len(Z)
        self.batch_size = minibatch_size(batch_size, self.n)
        self.schedule = schedule
        self.hyper_optimizer = hyper_optimizer
        self.hyper_every = int(hyper_every)
        self.rng = rng if rng is not None else np.random.default_rng()
        self.criterion = criterion if criterion is not None else global_parameter_criterion()
        self.iteration = 0
        self.rho = float("nan")
        self.warm_started = not getattr(schedule, "needs_warm_start", False)
        self.last_batch = np.arange(0)
        self._set_kernel(kernel)

    # ----- the training data ---------------------------------------------------------------------------------
    @property
    def X(self):
        """The training inputs as the source holds them, (n, d) (an array, or a memory map for `NpySource`; a run's
        engine reads its rows standardised through a `scaling.ScaledSource`, which holds none: `source.batch`)."""
        return self.source.X

    @property
    def y(self):
        """The training labels as the source holds them: class indices 0…K−1, (n,)."""
        return self.source.y

    def set_training_data(self, X, y: np.ndarray | None = None) -> None:
        """Replace the training set — X (n, d), y (n,) class indices, or X a `DataSource` (y None) — (e.g. a point
        added by the user), keeping q(u), Z and the kernel; the n/s scaling follows the new n from the next step on."""
        source = as_source(X, y) if isinstance(X, DataSource) else ArraySource(X, y, d=self.source.d)
        if source.d != self.source.d:
            raise DataError(f"the new training rows have {source.d} features, the engine's {self.source.d}")
        self._check_classes(source)
        self.source = source
        self.n = self.source.n
        self.batch_size = min(self.batch_size, self.n)

    def _sample_batch(self) -> np.ndarray:
        """A fresh minibatch (s,) for the next iteration from the source: the same rows for every method given the
        same seed and minibatch size."""
        return self.source.sample(self.rng, self.batch_size)

    def _batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows `index` (s,) of the source: X_b (s, d) and their labels as the method's equations write them
        (`link.equation_labels`; ±1 for a binary link) (s,)."""
        X_b, y_b = self.source.batch(index)
        return X_b, self.link.equation_labels(y_b)

    def _check_classes(self, source: DataSource) -> None:
        """Refuse labels beyond the classes the method's likelihood models (DataError naming both)."""
        if source.n_classes > self.link.n_classes:
            raise DataError(
                f"the labels hold class indices up to {source.n_classes - 1}, but the {self.link.name} likelihood "
                f"models {self.link.n_classes} classes (indices 0…{self.link.n_classes - 1})"
            )

    # ----- what every sparse method computes alike -----------------------------------------------------------
    def _set_kernel(self, kernel: Kernel) -> None:
        """Cache the inducing features, K_zz = K(Z, Z) (no nugget), L_K (K_mm = K_zz + γI = L_K L_Kᵀ), L_K⁻¹, K_mm⁻¹
        and the prior variance k_ii = σ² + γ."""
        features = kernel.features(self.Z)
        K_zz = kernel.cross_from_features(self.Z, features)
        L_K = cholesky_over(kernel.gram(self.Z, K_zz))  # the fresh K_mm factorised over itself: no copy
        if L_K is None:
            L_K = robust_cholesky(kernel.gram(self.Z, K_zz), "K_mm", self.iteration)
        L_K_inv = triangular_inverse(L_K)
        self.kernel, self._features, self.K_zz, self.L_K, self.L_K_inv = kernel, features, K_zz, L_K, L_K_inv
        self.K_inv = inverse_from_factor_inverse(L_K_inv)
        self._prior_variance = kernel.variance + kernel.nugget

    def _cross(self, X: np.ndarray) -> np.ndarray:
        """K(X, Z) (s, m) for rows X (s, d)."""
        return self.kernel.cross_from_features(X, self._features)

    def project(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """κ = K_smK_mm⁻¹ (s, m), K̃ = diag(K_ss − κK_ms) (s,) floored at 0, and K_sm (s, m) for the rows X (s, d)."""
        K_sm = self._cross(X)
        kappa = K_sm @ self.K_inv
        K_tilde = self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm)
        return kappa, np.maximum(K_tilde, 0.0, out=K_tilde), K_sm

    def _estimate(self, terms, index: np.ndarray | None = None, chunk: int = CHUNK) -> float:
        """Σ_i terms_i over all n rows (in chunks of `chunk` rows), or estimated as (n/s)Σ_{i∈index} terms_i on the
        rows `index`: `terms(rows, X_rows, y_rows)` → (s,) per block, the labels as the method's equations write them."""
        count, total = 0, 0.0
        for part in self.source.chunks(chunk, index):
            X_part, y_part = self._batch(part)
            total += float(np.sum(terms(part, X_part, y_part)))
            count += len(part)
        return self.n / count * total

    def _in_chunks(
        self, marginals, Xs: np.ndarray, shape: tuple = (), chunk: int = CHUNK
    ) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(mean, var) at Xs (n*, d) from `marginals(X_rows)` → (mean, var) of a block, in chunks of `chunk`
        rows: (n*,) + shape each, the variance floored at 1e-12."""
        Xs = query_points(Xs, self.source.d)
        mean, var = np.empty((len(Xs),) + shape), np.empty((len(Xs),) + shape)
        for start in range(0, len(Xs), chunk):
            part = slice(start, start + chunk)
            mean[part], var[part] = marginals(Xs[part])
        return mean, np.maximum(var, 1e-12)

    @property
    def n_classes(self) -> int:
        """K, the number of classes the method's likelihood models (2 for the binary links)."""
        return self.link.n_classes

    def predict_proba(self, Xs: np.ndarray) -> np.ndarray:
        """The class probabilities p(y* = k | data) = ∫ p(y* = k | f) q(f*) df* through the method's link, at
        Xs (n*, d) → (n*, K); rows sum to 1."""
        return self.link.predictive(*self.predict_latent(Xs))

    @property
    def converged(self) -> bool:
        return self.criterion.converged

    # ----- one SVI iteration ---------------------------------------------------------------------------------
    def step(self, k: int = 1) -> None:
        """Advance k ≥ 0 SVI iterations. On an error the state is exactly that before the failing iteration; a kernel
        step that diverges raises `hyperparameters.KernelLearningError` (a `NumericalError`) with advice."""
        for _ in range(count(k)):
            # the attributes (references suffice: an iteration replaces them) and the states of the random stream and
            # of the stateful parts (their state dicts hold arrays they replace, never write into)
            attributes, stream = dict(self.__dict__), self.rng.bit_generator.state
            parts = [part.state_dict() for part in self._stateful_parts()]
            try:
                self._iterate()
            except Exception:
                self.__dict__.clear()
                self.__dict__.update(attributes)
                self.rng.bit_generator.state = stream
                for part, state in zip(self._stateful_parts(), parts):
                    part.load_state_dict(state)
                raise

    def _iterate(self) -> None:
        if not self.warm_started:
            self._warm_start()
        index = self._sample_batch()
        X_b, y_b = self._batch(index)
        self.iteration += 1  # from here errors name the iteration being computed; step() restores it on failure
        change, context = self._update_q(index, X_b, y_b)
        if self.hyper_optimizer is not None and self.iteration % self.hyper_every == 0:
            gradient = self._minibatch_kernel_gradient(X_b, y_b, context)
            with kernel_step_guard(self.kernel, self.iteration):
                log_params = self.hyper_optimizer.ascend(self.kernel.log_params, gradient, self._hyper_rate_scale())
                self._set_kernel(learned_kernel(self.kernel.with_log_params(log_params)))  # q(u) held in u-space
        self.criterion.update(change)
        self.last_batch = index

    def _hyper_rate_scale(self) -> float:
        """The factor on Adam's learning rate: 1 (the stick-breaking family's kernel brake lowers it)."""
        return 1.0

    def _warm_start(self) -> None:
        """Initialise the step-size rule from samples of λ̂ (`warm_start_on="target"`) or of the natural gradient
        λ̂ − η at the initial q, on the first `warm_start_batches` minibatches that training will then draw: the
        random stream is rewound afterwards, so a warm-started method sees the same minibatches as any other."""
        stream = self.rng.bit_generator.state
        samples = []
        for _ in range(self.schedule.warm_start_batches):
            target = self._warm_start_target(self._sample_batch())
            samples.append(
                target if self.schedule.warm_start_on == "target" else target - self._flat_natural_parameters()
            )
        self.rng.bit_generator.state = stream
        self.schedule.warm_start(samples)
        self.warm_started = True

    def _stateful_parts(self) -> list:
        """The objects an iteration advances in place (each with state_dict/load_state_dict)."""
        parts = [self.criterion]
        if self.schedule is not None:
            parts.append(self.schedule)
        if self.hyper_optimizer is not None:
            parts.append(self.hyper_optimizer)
        return parts

    # ----- persistence of the shared parts -------------------------------------------------------------------
    def _base_state(self) -> dict:
        """The shared parts of `state_dict()`: link, kernel, iteration, ρ, random stream, optimisers, criterion, last
        batch."""
        state = {
            "link": self.link.name,
            "kernel": self.kernel.state_dict(),
            "iteration": self.iteration,
            "rho": self.rho,
            "rng": self.rng.bit_generator.state,
            "hyper_optimizer": None if self.hyper_optimizer is None else self.hyper_optimizer.state_dict(),
            "criterion": self.criterion.state_dict(),
            "last_batch": self.last_batch,
        }
        if self.schedule is not None:
            state.update(schedule=self.schedule.state_dict(), warm_started=self.warm_started)
        return state

    def _load_base_state(self, state: dict) -> None:
        """Restore the shared parts (the kernel first, so the method's kernel caches follow); a state of another link
        raises ValueError (older states, without one, are taken as this engine's)."""
        link = state.get("link", self.link.name)
        if link != self.link.name:
            raise ValueError(f"the state was saved with the {link!r} link, this engine uses {self.link.name!r}")
        self.iteration = int(state["iteration"])
        self._set_kernel(kernel_from_state(state.get("kernel", state)))  # older files: the kernel's values flat
        self.rho = float(state["rho"])
        self.rng.bit_generator.state = state["rng"]
        if self.hyper_optimizer is not None and state["hyper_optimizer"] is not None:
            self.hyper_optimizer.load_state_dict(state["hyper_optimizer"])
        self.criterion.load_state_dict(state["criterion"])
        self.last_batch = np.asarray(state["last_batch"], dtype=int)
        if self.schedule is not None:
            self.schedule.load_state_dict(state["schedule"])
            self.warm_started = bool(state["warm_started"])
