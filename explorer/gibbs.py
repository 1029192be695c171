"""Exact Pólya-Gamma Gibbs sampler for the full (non-sparse) logit GP: the ground truth of the paper's Fig. 1.

Model (paper eq. likelihood; DESIGN §3): f ~ N(0, K) with K = kernel.gram(X) (the nugget γ is white noise on f),
p(y_i | f_i) = σ(y_i f_i), y ∈ {−1, +1} (the class indices 0, 1 given to the sampler, written as the paper writes
them: `likelihoods.signed_labels`). Augmented with ω_i ~ PG(1, 0) (Polson, Scott, Windle 2013), one sweep is

    ω_i | f ~ PG(1, f_i)                         exact Devroye draws (explorer.polyagamma.sample)
    f | ω   ~ N(C y/2, C),   C = (K⁻¹ + Ω)⁻¹,    Ω = diag(ω)

drawn through Cholesky factors in one of two forms (`conditional_latent_precision`, `conditional_latent_whitened`).
"""

from __future__ import annotations

import math
import numbers
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Self

import numpy as np
from scipy.linalg import LinAlgError, blas, cho_solve, cholesky, lapack, solve_triangular
from scipy.special import log_expit

from explorer import diagnostics, polyagamma
from explorer.inputs import count, labelled_data, query_points
from explorer.kernels import RBF, Kernel
from explorer.likelihoods import class_probabilities, logit_predictive_probability, signed_labels
from explorer.validation import DataError

N_MAX = 2000
"""Largest training set the sampler accepts without `force=True`: a sweep costs O(n³) per chain."""

PRECISION_FORM_MAX_CONDITION = 1e12
"""`form="auto"` uses the precision form when the estimated cond(K) is at most this, else the whitened form."""

MAX_STORED_BYTES = 2e9
"""Most memory the traces and stored draws of one sampler may take (they are allocated up front)."""

PREDICT_CHUNK = 2_000_000  # values (draws × test points, × classes) per block of a sampler's predict_proba


def _cholesky_in_place(A: np.ndarray) -> np.ndarray:
    """Lower Cholesky factor of the Fortran-ordered A, overwriting its lower triangle (upper left as is)."""
    R, info = lapack.dpotrf(A, lower=1, overwrite_a=1, clean=0)
    if info != 0:
        raise LinAlgError(
            f"Cholesky of the f | ω precision failed (LAPACK info {info}); the matrix is not "
            "numerically positive definite"
        )
    return R


def _add_to_diagonal(A: np.ndarray, values: np.ndarray | float) -> None:
    A.flat[:: len(A) + 1] += values  # entry (i, i) sits at flat index i(n + 1) in either memory order


def conditional_latent_precision(
    K_inv: np.ndarray, omega: np.ndarray, y: np.ndarray, z: np.ndarray, work: np.ndarray | None = None
) -> np.ndarray:
    """A draw of f | ω ~ N(C y/2, C), C = P⁻¹, P = K⁻¹ + Ω, from standard normals z (n,) or (n, s).

    P = R Rᵀ (one n×n Cholesky), a = R⁻¹ y/2, f = R⁻ᵀ (a + z): two triangular solves. `work`, an optional
    Fortran-ordered (n, n) buffer, receives P and then R (no n² allocation per sweep).
    """
    P = np.empty_like(K_inv, order="F") if work is None else work
    np.copyto(P, K_inv)
    _add_to_diagonal(P, omega)
    R = _cholesky_in_place(P)
    a = solve_triangular(R, 0.5 * y, lower=True, check_finite=False)
    return solve_triangular(R, (a if z.ndim == 1 else a[:, None]) + z, trans=1, lower=True, check_finite=False)


def conditional_latent_whitened(
    L: np.ndarray, omega: np.ndarray, y: np.ndarray, z: np.ndarray, work: np.ndarray | None = None
) -> np.ndarray:
    """A draw of f | ω ~ N(C y/2, C) in whitened coordinates f = L v, K = L Lᵀ, from standard normals z (n,) or (n, s).

    v | ω ~ N(B⁻¹Lᵀy/2, B⁻¹), B = I + LᵀΩL = R Rᵀ (a symmetric rank-n update, then one Cholesky);
    v = R⁻ᵀ(R⁻¹Lᵀy/2 + z), f = L v. Never inverts K, so it stays accurate when K is ill-conditioned.
    `work`, an optional Fortran-ordered (n, n) buffer, receives B and then R.
    """
    B = np.empty_like(L, order="F") if work is None else work
    B.fill(0.0)
    _add_to_diagonal(B, 1.0)
    W = (np.sqrt(omega)[:, None] * L).T  # Fortran-ordered (Ω^½ L)ᵀ, so syrk reads it without a copy
    B = blas.dsyrk(1.0, W, beta=1.0, c=B, trans=0, lower=1, overwrite_c=1)
    R = _cholesky_in_place(B)
    a = solve_triangular(R, L.T @ (0.5 * y), lower=True, check_finite=False)
    return L @ solve_triangular(R, (a if z.ndim == 1 else a[:, None]) + z, trans=1, lower=True, check_finite=False)


def condition_number(K: np.ndarray, L: np.ndarray) -> float:
    """LAPACK's 1-norm estimate of cond(K) from its lower Cholesky factor L (O(n²), no extra factorisation)."""
    rcond, info = lapack.dpocon(L, np.abs(K).sum(axis=0).max(), uplo="L")
    if info != 0 or rcond <= 0.0:
        return math.inf
    return 1.0 / rcond


def generator(rng: np.random.Generator | None) -> np.random.Generator:
    """`rng` itself, or a fresh, unseeded `default_rng()` for None; ValueError for anything else."""
    if rng is None:
        return np.random.default_rng()
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator or None, got {rng!r}")
    return rng


def check_class_indices(y: np.ndarray, n_classes: int, model: str) -> None:
    """DataError when the class indices y (n,) pass the K = `n_classes` classes of `model`, ValueError when they hold
    one class only (a sampler needs rows of two)."""
    if y.max() >= n_classes:
        raise DataError(f"{model} has K = {n_classes} classes (indices 0…{n_classes - 1}); y holds {y.max()}")
    if np.all(y == y[0]):
        raise ValueError(
            f"y holds only the class {y[0]} ({len(y)} rows): the posterior of a one-class data set only says 'more "
            f"of the same'; give the sampler rows of {'both classes' if n_classes == 2 else 'at least two classes'}"
        )


def seconds_per_sweep_estimate(
    n: int, *, form: str = "precision", rng: np.random.Generator | None = None, repeats: int = 3
) -> float:
    """Measured seconds of one sweep's irreducible work for ONE chain at n points, before any O(n³) job starts.

    Times (median of `repeats`) n PG(1, ·) draws, one n×n Cholesky and two triangular solves (the precision form's
    floor), plus the n×n×n rank update for `form="whitened"`, on a synthetic n×n problem; the setup costs about
    three such sweeps. Multiply by chains × sweeps for a run. `rng` (default: a fixed seed) only feeds the timing.
    n ≥ 1 and repeats ≥ 1 are whole numbers, and the estimate's own three n×n matrices must fit in
    `MAX_STORED_BYTES` (n ≤ 9,128); ValueError naming the argument otherwise.
    """
    if form not in ("precision", "whitened"):
        raise ValueError(f"form must be 'precision' or 'whitened', got {form!r}")
    n, repeats = count(n, "n"), count(repeats, "repeats")
    if n < 1 or repeats < 1:
        raise ValueError(f"n and repeats must be whole numbers ≥ 1, got n={n}, repeats={repeats}")
    if 3 * 8 * n * n > MAX_STORED_BYTES:
        raise ValueError(
            f"n = {n}: the estimate itself would hold three n×n matrices, {24 * n * n / 1e9:.1f} GB, "
            f"over the limit of {MAX_STORED_BYTES / 1e9:g} GB (MAX_STORED_BYTES)"
        )
    rng = np.random.default_rng(0) if rng is None else rng
    grid = np.linspace(0.0, 1.0, n)[:, None]
    K = RBF(0.2, 1.0, 1e-2).gram(grid)
    L = cholesky(K, lower=True)
    K_inv = np.asfortranarray(cho_solve((L, True), np.eye(n)))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    f = rng.standard_normal(n)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        omega = polyagamma.sample(f, rng)
        z = rng.standard_normal(n)
        if form == "precision":
            conditional_latent_precision(K_inv, omega, y, z)
        else:
            conditional_latent_whitened(L, omega, y, z)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


class SweepRun:
    """What every Gibbs sampler's run shares, one chain set (`GibbsChains`) or several (the stick-breaking sampler's
    logits, `explorer.gibbs_stickbreaking.StickBreakingGibbsSampler`): the run length and its clock, `run` in slices,
    the refusal to summarise before a draw is stored, and R̂/ESS of the monitored scalars. A subclass holds
    `sweeps_done`, `total_sweeps`, `seconds`, `burn_in`, `thin`, `draws_stored`, `traces`, `trace_names`,
    `_sweeps(k)` (k sweeps of every chain, which `step` times) and `_draw_sets()` (its arrays of stored draws of f,
    each (chains, draws, …))."""

    @property
    def finished(self) -> bool:
        return self.sweeps_done >= self.total_sweeps

    @property
    def sweeps_per_second(self) -> float:
        """Sweeps (of every chain) per second of wall-clock time spent in `step`; NaN before the first sweep."""
        return self.sweeps_done / self.seconds if self.seconds > 0 else math.nan

    @property
    def remaining_seconds(self) -> float:
        """Time left at the measured rate; NaN before the first sweep."""
        return (self.total_sweeps - self.sweeps_done) / self.sweeps_per_second

    def run(self, progress: Callable[[int, int], None] | None = None, chunk: int = 10) -> Self:
        """Step to the end in slices of `chunk` ≥ 1 sweeps, calling progress(sweeps_done, total_sweeps) after each."""
        if count(chunk, "chunk") < 1:
            raise ValueError(f"chunk must be ≥ 1, got {chunk!r}")
        while not self.finished:
            self.step(chunk)
            if progress is not None:
                progress(self.sweeps_done, self.total_sweeps)
        return self

    def step(self, k: int = 1) -> int:
        """Add up to k ≥ 0 sweeps to every chain (fewer if the run length is reached); return the number done."""
        k = min(count(k), self.total_sweeps - self.sweeps_done)
        start = time.perf_counter()
        self._sweeps(k)
        self.seconds += time.perf_counter() - start
        return k

    def _require_draws(self) -> None:
        """RuntimeError saying how far the run is when no draw is stored yet."""
        if self.draws_stored == 0:
            raise RuntimeError(
                f"no draws stored yet: {self.sweeps_done} of {self.burn_in} burn-in sweeps done, "
                f"draws are kept every {self.thin} sweeps after burn-in"
            )

    def diagnostics(self) -> dict[str, float]:
        """Rank-normalised split R̂ and bulk/tail ESS (explorer.diagnostics) as plain floats: per monitored scalar over
        the post-burn-in sweeps ("rhat/log_likelihood", "ess_bulk/…", "ess_tail/…"), and over every coordinate of the
        stored (thinned) draws of f (`_draw_sets`): "rhat_max/f", "ess_bulk_min/f", "ess_tail_min/f". Needs at least 4
        post-burn-in sweeps and 4 stored draws per chain."""
        kept, draws = self.traces[:, self.burn_in :], self._draw_sets()
        out: dict[str, float] = {}
        for name, r, bulk, tail in zip(
            self.trace_names, diagnostics.rhat(kept), diagnostics.ess_bulk(kept), diagnostics.ess_tail(kept)
        ):
            out[f"rhat/{name}"], out[f"ess_bulk/{name}"], out[f"ess_tail/{name}"] = float(r), float(bulk), float(tail)
        out["rhat_max/f"] = float(max(np.max(diagnostics.rhat(d)) for d in draws))
        out["ess_bulk_min/f"] = float(min(np.min(diagnostics.ess_bulk(d)) for d in draws))
        out["ess_tail_min/f"] = float(min(np.min(diagnostics.ess_tail(d)) for d in draws))
        return out


class GibbsChains(SweepRun, ABC):
    """The machinery every exact Gibbs sampler of a full GP shares: several independent chains of L latent functions
    (`n_latent`: 1 for the logit model, K for the K-class one) sharing one prior K = kernel.gram(X), advanced
    incrementally with `step(k)`, with bounded traces and stored draws, R̂/ESS and predictions at new inputs.

    X (n, d), y (n,) class indices, `kernel` fixed (any `explorer.kernels.Kernel`). `rng` (a numpy Generator; None: a
    fresh `default_rng()`, not reproducible) is spawned into one independent stream per chain. `monitor`: the
    training indices whose f is traced (default up to 3 spread over the data).

    Run length and memory. The run is fixed at construction: `burn_in` + `n_samples` sweeps per chain. Every array
    is allocated up front: `traces` (chains, burn_in + n_samples, k) holds monitored scalars at every sweep, and the
    f draws at the n training points are stored every `thin`-th sweep after burn-in, at most `max_stored_draws` per
    chain (`thin=None` picks the smallest thinning that fits). Once the run length is reached `finished` is True and
    `step` does nothing (returns 0); memory never grows. Posterior summaries use the stored draws of all chains.

    Start: each chain starts from f_l⁽⁰⁾ ~ N(0, init_scale² K) per latent function, overdispersed relative to the
    posterior (whose covariance C ⪯ K) for init_scale ≥ 1; default 2.

    Form (`form="auto"`): the precision form needs K⁻¹ explicitly, so its draws carry a rounding error of about
    2e-16·cond(K) relative to the posterior scale (the whitened form stays at 1e-15; BENCHMARKS.md, "Numbers from the
    core modules' docstrings"). "auto" uses the precision form (one Cholesky + two solves per sweep) when LAPACK's
    estimate of cond(K) is at most `PRECISION_FORM_MAX_CONDITION` = 1e12, where that bias (≲ 2e-4) is still two
    orders below the Monte Carlo error of a run with ESS ≤ 10⁴, else the whitened form (an extra n³/3 rank update
    per sweep, ≈ 2× slower). Either can be forced with form="precision" / "whitened".

    n above `N_MAX` = 2000 raises unless `force=True`; call `seconds_per_sweep_estimate(n)` first to know the cost.

    A subclass (`GibbsSampler`, the logit model; `explorer.gibbs_multiclass.MulticlassGibbsSampler`) sets `n_latent`
    and `n_classes` (the labels it takes, refused by `check_class_indices` in the words of `model`), and gives its
    model's blocks: one sweep (`_sweep_chain`) and the log-likelihood it traces (`_log_likelihood`).
    """

    n_latent = 1
    """L, the latent functions per chain: `f[chain]` is (n,) for one, (L, n) for L."""
    n_classes = 2
    model = "the sampler's logit model"

    def __init__(
        self,
        X: np.ndarray,
        y: np.ndarray,
        kernel: Kernel,
        *,
        rng: np.random.Generator | None = None,
        n_chains: int = 4,
        burn_in: int = 100,
        n_samples: int = 1000,
        thin: int | None = None,
        max_stored_draws: int = 1000,
        form: str = "auto",
        init_scale: float = 2.0,
        monitor: np.ndarray | None = None,
        force: bool = False,
    ):
        self.X, self.y = labelled_data(X, y)
        self.n = len(self.y)
        check_class_indices(self.y, self.n_classes, self.model)
        rng = generator(rng)
        given = {"n_chains": n_chains, "burn_in": burn_in, "n_samples": n_samples, "max_stored_draws": max_stored_draws}
        n_chains, burn_in, n_samples, max_stored_draws = (count(value, name) for name, value in given.items())
        if self.n > N_MAX and not force:
            raise ValueError(
                f"n = {self.n} training points exceeds the Gibbs limit N_MAX = {N_MAX} (each sweep is "
                f"O(n³) per chain); subsample, or pass force=True after seconds_per_sweep_estimate(n)"
            )
        kernel.check_dimension(self.X.shape[1])
        if form not in ("auto", "precision", "whitened"):
            raise ValueError(f"form must be 'auto', 'precision' or 'whitened', got {form!r}")
        if n_chains < 1 or burn_in < 0 or n_samples < 1 or max_stored_draws < 1:
            raise ValueError(
                f"need n_chains ≥ 1, burn_in ≥ 0, n_samples ≥ 1, max_stored_draws ≥ 1; got "
                f"{n_chains}, {burn_in}, {n_samples}, {max_stored_draws}"
            )
        if isinstance(init_scale, bool) or not isinstance(init_scale, numbers.Real) or not (0 < init_scale < math.inf):
            raise ValueError(f"init_scale must be a finite number > 0, got {init_scale!r}")
        thin = math.ceil(n_samples / max_stored_draws) if thin is None else count(thin, "thin")
        if not 1 <= thin <= n_samples or n_samples // thin > max_stored_draws:
            raise ValueError(
                f"thin = {thin} keeps {n_samples // max(thin, 1)} of {n_samples} draws per chain; it must "
                f"keep at least 1 and at most max_stored_draws = {max_stored_draws}"
            )
        self.kernel, self.n_chains, self.burn_in, self.n_samples, self.thin = kernel, n_chains, burn_in, n_samples, thin
        if monitor is None:  # up to 3 points spread over the data
            monitor = np.unique(np.linspace(0, self.n - 1, min(3, self.n)).astype(int))
        try:
            self.monitor = np.asarray(monitor, dtype=int)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(
                f"monitor must be a 1-D array of training indices in [0, {self.n}), got {monitor!r}"
            ) from None
        if self.monitor.ndim != 1 or len(self.monitor) > 100 or np.any((self.monitor < 0) | (self.monitor >= self.n)):
            raise ValueError(
                f"monitor must be a 1-D array of at most 100 training indices in [0, {self.n}), got {self.monitor}"
            )
        self.trace_names = ["log_likelihood"] + [
            f"f[{i}]" if self.n_latent == 1 else f"f[{i},{k}]" for i in self.monitor for k in range(self.n_latent)
        ]
        per_chain = (burn_in + n_samples) * len(self.trace_names)  # float64 traces and draws
        per_chain += (n_samples // thin) * (math.prod(self.latent_shape) + self._stored_per_draw())
        stored = 8 * n_chains * per_chain
        if stored > MAX_STORED_BYTES:
            raise ValueError(
                f"{n_chains} chains × ({burn_in} + {n_samples}) sweeps would store {stored / 1e9:.3g} GB "
                f"of traces and draws (limit {MAX_STORED_BYTES / 1e9:g} GB): fewer chains or sweeps, or "
                "a smaller max_stored_draws"
            )

        self.K = kernel.gram(self.X)
        try:
            self.L = cholesky(self.K, lower=True, check_finite=False)
        except LinAlgError:
            raise ValueError(
                f"the kernel matrix K = gram(X) is not numerically positive definite with nugget "
                f"{kernel.nugget:g}; increase the kernel nugget"
            ) from None
        self.condition_number = condition_number(self.K, self.L)
        if form == "auto":
            form = "precision" if self.condition_number <= PRECISION_FORM_MAX_CONDITION else "whitened"
        self.form = form
        self.K_inv = None
        if form == "precision":
            self.K_inv = np.asfortranarray(cho_solve((self.L, True), np.eye(self.n), check_finite=False))

        self.rngs = rng.spawn(self.n_chains)
        self.rng = rng  # what is left of the caller's stream after the chains' (a subclass may spawn more)
        # (chains, *latent_shape) from the prior, each chain its own draw
        self.f = np.stack([init_scale * (self.L @ r.standard_normal(self.latent_shape[::-1])).T for r in self.rngs])
        self.total_sweeps = self.burn_in + self.n_samples
        self._traces = np.empty((self.n_chains, self.total_sweeps, len(self.trace_names)))
        self._draws = np.empty((self.n_chains, self.n_samples // self.thin, *self.latent_shape))
        self._work = np.empty((self.n, self.n), order="F")  # the per-sweep n×n factor, reused by every chain
        self.sweeps_done = 0
        self.draws_stored = 0
        self.seconds = 0.0

    # ----- what a model says -------------------------------------------------------------------------------------
    def _stored_per_draw(self) -> int:
        """Numbers a subclass keeps per stored draw besides the latent state (counted in the memory limit)."""
        return 0

    @abstractmethod
    def _sweep_chain(self, chain: int) -> None:
        """One sweep of every block of chain `chain`, updating `f[chain]` and the model's other state."""

    @abstractmethod
    def _log_likelihood(self) -> np.ndarray:
        """log p(y | f) of every chain's latest f: (chains,)."""

    @property
    def latent_shape(self) -> tuple[int, ...]:
        """The shape of one chain's latent state `f[chain]`: (n,) for one latent function, (L, n) for L."""
        return (self.n,) if self.n_latent == 1 else (self.n_latent, self.n)

    def _as_output(self, values: np.ndarray) -> np.ndarray:
        """A latent array (..., *latent_shape) as the caller sees it: (..., points) for one latent function,
        (..., points, L) for L."""
        return values if self.n_latent == 1 else np.swapaxes(values, -1, -2)

    # ----- running -----------------------------------------------------------------------------------------------
    def _draw_latent(self, omega: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        """One draw of f | ω ~ N(C y/2, C), C = (K⁻¹ + diag ω)⁻¹, in the sampler's form, from standard normals z."""
        if self.form == "precision":
            return conditional_latent_precision(self.K_inv, omega, y, z, self._work)
        return conditional_latent_whitened(self.L, omega, y, z, self._work)

    def _sweeps(self, k: int) -> None:
        """k sweeps of every chain, each recording its traces and, after burn-in, every `thin`-th draw."""
        for _ in range(k):
            for chain in range(self.n_chains):
                self._sweep_chain(chain)
            row = self._traces[:, self.sweeps_done]
            row[:, 0] = self._log_likelihood()
            row[:, 1:] = self._as_output(self.f[..., self.monitor]).reshape(self.n_chains, -1)
            self.sweeps_done += 1
            after_burn_in = self.sweeps_done - self.burn_in
            if after_burn_in > 0 and after_burn_in % self.thin == 0 and self.draws_stored < self._draws.shape[1]:
                self._draws[:, self.draws_stored] = self.f
                self.draws_stored += 1

    # ----- stored output -----------------------------------------------------------------------------------------
    @property
    def traces(self) -> np.ndarray:
        """Monitored scalars (`trace_names`) at every sweep so far, burn-in included: (chains, sweeps_done, k)."""
        return self._traces[:, : self.sweeps_done]

    @property
    def draws(self) -> np.ndarray:
        """Stored post-burn-in draws of f at the training points: (chains, draws_stored, n) for one latent
        function, (chains, draws_stored, n, K) for K."""
        return self._as_output(self._draws[:, : self.draws_stored])

    def _pooled(self) -> np.ndarray:
        """The stored draws of all chains in the internal layout: (chains · draws_stored, *latent_shape)."""
        self._require_draws()
        return self._draws[:, : self.draws_stored].reshape(-1, *self.latent_shape)

    def posterior_mean(self) -> np.ndarray:
        """E[f | y] at the training points, averaged over the stored draws of all chains: (n,), or (n, K)."""
        return self._as_output(self._pooled().mean(axis=0))

    def posterior_variance(self) -> np.ndarray:
        """Var[f | y] at the training points over the stored draws of all chains: (n,), or (n, K)."""
        return self._as_output(self._pooled().var(axis=0, ddof=1))

    def _test_conditionals(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per stored draw, f* | f ~ N(K_*n K⁻¹ f, k** − K_*n K⁻¹ K_n*) (each latent function alike): means
        (draws, *latent_shape[:-1], n*), shared variance (n*,)."""
        Xs = query_points(Xs, self.X.shape[1])
        K_ns = self.kernel.cross(self.X, Xs)
        A = cho_solve((self.L, True), K_ns, check_finite=False)  # K⁻¹ K_n*, (n, n*)
        var = np.maximum(self.kernel.diag(len(Xs)) - np.einsum("ij,ij->j", A, K_ns), 0.0)
        return self._pooled() @ A, var

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and variance of f* at Xs (n*, d) by the law of total variance over the stored draws:
        E[f*] = mean_s K_*n K⁻¹ f_s,  Var[f*] = (k** − K_*n K⁻¹ K_n*) + Var_s(K_*n K⁻¹ f_s). Shapes (n*,), (n*,),
        or (n*, K), (n*, K)."""
        means, var = self._test_conditionals(Xs)
        return self._as_output(means.mean(axis=0)), self._as_output(var + means.var(axis=0))

    def mean_standard_error(self, Xs: np.ndarray) -> np.ndarray:
        """Monte Carlo standard error of `predict_latent`'s mean at Xs: sd_s(K_*n K⁻¹ f_s) / sqrt(ESS), with the ESS
        of those per-draw means over the stored draws of all chains (explorer.diagnostics.ess_mean). (n*,), or
        (n*, K)."""
        means, _ = self._test_conditionals(Xs)
        per_chain = means.reshape(self.n_chains, self.draws_stored, *means.shape[1:])
        return self._as_output(means.std(axis=0, ddof=1) / np.sqrt(diagnostics.ess_mean(per_chain)))

    def _draw_sets(self) -> list[np.ndarray]:
        return [self.draws]


class GibbsSampler(GibbsChains):
    """Several independent PG Gibbs chains for the full logit GP (module docstring), advanced incrementally with
    `step(k)`: y (n,) class indices 0, 1 with both classes present (as ±1 in `y_signed`); the run, its keywords and
    their defaults, storage and diagnostics are `GibbsChains`'.

    State: `f` and `omega` (chains, n) hold every chain's latest sweep.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, kernel: Kernel, **run):
        super().__init__(X, y, kernel, **run)
        self.y_signed = signed_labels(self.y)  # the labels as the paper's equations write them, ±1
        self.omega = np.zeros((self.n_chains, self.n))

    def _sweep_chain(self, chain: int) -> None:
        rng = self.rngs[chain]
        omega = polyagamma.sample(self.f[chain], rng)
        z = rng.standard_normal(self.n)
        self.f[chain] = self._draw_latent(omega, self.y_signed, z)
        self.omega[chain] = omega

    def _log_likelihood(self) -> np.ndarray:
        return log_expit(self.y_signed * self.f).sum(axis=1)

    def predict_proba(self, Xs: np.ndarray) -> np.ndarray:
        """The class probabilities (n*, 2), column 1 p(y*=1 | y) = mean_s ∫σ(f*) N(f* | K_*n K⁻¹ f_s, k** − K_*n K⁻¹
        K_n*) df*: the integral is 64-node Gauss–Hermite per stored draw (Rao–Blackwellised over f* | f), then averaged
        over draws; column 0 is 1 − p."""
        means, var = self._test_conditionals(Xs)
        rows = max(1, PREDICT_CHUNK // max(1, means.shape[1]))
        total = np.zeros(means.shape[1])
        for start in range(0, len(means), rows):
            block = means[start : start + rows]
            predictive = logit_predictive_probability(block.ravel(), np.tile(var, len(block)))
            total += predictive.reshape(block.shape).sum(axis=0)
        return class_probabilities(total / len(means))
