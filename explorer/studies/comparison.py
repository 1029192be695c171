"""The MCMC-versus-variational study (paper Fig. 1): at a fixed kernel, full and sparse X-GPC fitted to their optimum
by exact coordinate ascent against the PG Gibbs sampler's posterior, compared at the test points
(`explorer.compare`).

    study = comparison(X_train, y_train, X_test, y_test, kernel, n_inducing=100)   # a generator of `Progress`
    run = finish(study, print)            # … run to its end by a script; a tab's worker advances it a step at a time
    run = run_comparison(X, y, kernel, n_inducing=100)   # the same from one data set: subsample, split, run, report

Labels are class indices: two classes compare X-GPC with the PG Gibbs sampler of the logit GP (`gibbs.GibbsSampler`);
K ≥ 3 compare multi-class X-GPC in the chosen `family` with the exact sampler of its own model, per class (README
"Checking X-GPC against exact MCMC"); a logistic-softmax family adds the full fit in the paper's factorised q(λ)q(n)
(`FACTORISED_LABEL`), whose latent means sit above the sampler's (`mean_offset`).

Each step of the generator is short (≈ `STEP_SECONDS`), so a tab stays responsive and can stop it between two steps
(`Progress`: how far it got). All randomness comes from one seed, by the seed policy of a run (`run.streams`).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from explorer import run
from explorer.compare import ComparisonResult, compare_with_mcmc
from explorer.data.datasets import train_test_split
from explorer.gibbs import N_MAX, GibbsChains, GibbsSampler
from explorer.gibbs_multiclass import MulticlassGibbsSampler
from explorer.gibbs_stickbreaking import StickBreakingGibbsSampler
from explorer.inducing import kmeans_plus_plus
from explorer.inputs import labelled_data
from explorer.kernels import Kernel
from explorer.studies import finish
from explorer.training import fit_to_optimum
from explorer.xgpc import XGPC
from explorer.xgpc_multiclass import FAMILIES
from explorer.xgpc_stickbreaking import DEFAULT_MULTICLASS_FAMILY, MULTICLASS_FAMILIES, STICK_BREAKING

FITTING = "fitting X-GPC by coordinate ascent"
SAMPLING = "sampling"
COMPARING = "comparing at the test points"
STEP_SECONDS = 0.05  # work per step of the generator
MAX_FIT_SWEEPS = 500  # coordinate-ascent sweeps at most per X-GPC fit (`training.fit_to_optimum`'s default)
FACTORISED_LABEL = "X-GPC full (paper's factorised q(λ)q(n))"


@dataclass(frozen=True)
class Progress:
    """How far a comparison got: its stage (`FITTING`, `SAMPLING`, `COMPARING`); `fraction`, the share of the Gibbs
    sweeps done (0 while fitting, 1 from the end of sampling on: sampling is the study's cost); sweeps done of
    `total_sweeps` per chain, sweeps per second and seconds left at that rate (NaN before the first sweep);
    `diagnostics`, the sampler's R̂ and ESS (`GibbsSampler.diagnostics`) as last computed (None before there are
    enough draws, or when not asked for); `sampler`, the live sampler (None while fitting; read it between steps)."""

    stage: str
    fraction: float
    sweeps_done: int = 0
    total_sweeps: int = 1
    sweeps_per_second: float = math.nan
    seconds_left: float = math.nan
    diagnostics: dict[str, float] | None = None
    sampler: GibbsChains | StickBreakingGibbsSampler | None = None


@dataclass
class ComparisonRun:
    """What a comparison did: the comparison(s) (`full`, `sparse`; for K ≥ 3 in a logistic-softmax family also
    `factorised`, the full fit in the paper's factorised family, else None), the fitted X-GPC engines, the sampler
    (traces, draws), the data it ran on (standardised as given) and `subsampled_from` (the size before subsampling,
    None if none)."""

    full: ComparisonResult
    sparse: ComparisonResult | None
    sampler: GibbsChains | StickBreakingGibbsSampler
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    subsampled_from: int | None
    full_model: XGPC
    sparse_model: XGPC | None
    factorised: ComparisonResult | None = None
    factorised_model: XGPC | None = None

    def summary(self) -> dict:
        """{"full": {...}, "sparse": {...} or None, "factorised": {...} or None} of plain numbers."""
        return {
            name: None if result is None else result.summary()
            for name, result in (("full", self.full), ("sparse", self.sparse), ("factorised", self.factorised))
        }


def mean_offset(result: ComparisonResult) -> float:
    """The variational latent means' average offset from MCMC's at the test points, mean(vi_mean − mcmc_mean) over
    every point (and class): > 0 where the fit sits above the exact posterior."""
    return float(np.mean(result.vi_mean - result.mcmc_mean))


def _fitted(engine: XGPC) -> Generator[Progress, None, tuple[int, float]]:
    """Fit `engine` to its optimum (`fit_to_optimum`, resumed in steps of ≈ STEP_SECONDS; the same sweeps as one
    call), yielding a FITTING event after each step; returns (sweeps, seconds). A numerical failure is raised."""
    seconds, sweeps_per_step = 0.0, 1
    while True:
        fit = fit_to_optimum(engine, max_sweeps=min(engine.iteration + sweeps_per_step, MAX_FIT_SWEEPS))
        seconds += fit.seconds
        if fit.error is not None:
            raise fit.error
        if fit.converged or fit.sweeps >= MAX_FIT_SWEEPS:
            return fit.sweeps, seconds
        sweeps_per_step = _next_step(sweeps_per_step, fit.seconds)
        yield Progress(FITTING, 0.0)


def _next_step(size: int, seconds: float) -> int:
    """The next step's size (sweeps) for ≈ STEP_SECONDS of work, from `size` sweeps having taken `seconds`."""
    return int(np.clip(size * STEP_SECONDS / max(seconds, 1e-4), 1, 200))


def _sampling_progress(sampler: GibbsChains, diagnostics: dict | None, stage: str = SAMPLING) -> Progress:
    return Progress(
        stage,
        sampler.sweeps_done / sampler.total_sweeps,
        sampler.sweeps_done,
        sampler.total_sweeps,
        sampler.sweeps_per_second,
        sampler.remaining_seconds if sampler.sweeps_done else math.nan,
        diagnostics,
        sampler,
    )


def _sampled(sampler: GibbsChains, diagnostics_share: float) -> Generator[Progress, None, dict | None]:
    """Run the sampler to its end in steps of ≈ STEP_SECONDS, yielding a SAMPLING event after each, with R̂ and ESS
    recomputed whenever that keeps their cost below `diagnostics_share` of the time (0: never) and at the end;
    returns the last ones computed."""
    diagnostics, size, due = None, 1, -math.inf
    while not sampler.finished:
        start = time.perf_counter()
        sampler.step(size)
        size = _next_step(size, time.perf_counter() - start)
        ready = sampler.draws_stored >= 4 and sampler.sweeps_done - sampler.burn_in >= 4  # R̂ and ESS can be computed
        if diagnostics_share > 0 and ready and (sampler.finished or time.perf_counter() >= due):
            started = time.perf_counter()
            diagnostics = sampler.diagnostics()
            cost = time.perf_counter() - started
            due = started + cost + cost / diagnostics_share
        yield _sampling_progress(sampler, diagnostics)
    return diagnostics


def comparison(
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    kernel: Kernel,
    *,
    seed: int = 0,
    n_inducing: int | None = None,
    n_samples: int = 1000,
    burn_in: int = 100,
    n_chains: int = 4,
    max_stored_draws: int = 1000,
    subsampled_from: int | None = None,
    diagnostics_share: float = 0.1,
    family: str = DEFAULT_MULTICLASS_FAMILY,
) -> Generator[Progress, None, ComparisonRun]:
    """Fig. 1 at a fixed kernel as a generator: fit full X-GPC (and a sparse one with `n_inducing` inducing points
    placed by k-means++ on the training inputs, as every run places them; for K ≥ 3 in the family `family`, and for
    the logistic-softmax families also a full one in the paper's factorised family) by exact coordinate ascent
    (`run.full_batch_engine`, `training.fit_to_optimum`), run `n_chains` Gibbs chains of `burn_in` + `n_samples`
    sweeps (at most `max_stored_draws` kept per chain), compare both with the sampler at the test points. Yields a
    `Progress` after each short step (fractions non-decreasing, 1 from the end of sampling on); returns the
    `ComparisonRun`.

    X_train (n, d) and X_test (n*, d) standardised (as the kernel expects them), y class indices 0…K−1 (K = the
    highest training index + 1; the sampler of `family`'s model for K ≥ 3: module docstring), n ≤ the sampler's
    limit (checked, with the sampler's other settings, before any work); `subsampled_from` is recorded in the results.
    The sampler and the inducing points draw from `run.streams(seed)` (the engine and inducing streams).
    `diagnostics_share`: the largest share of the time spent on the live R̂ and ESS (0: none; the results carry the
    final ones either way).
    Cost: about chains × (burn_in + n_samples) × seconds_per_sweep_estimate(n) seconds."""
    if not 0.0 <= diagnostics_share < 1.0:
        raise ValueError(f"diagnostics_share must be in [0, 1), got {diagnostics_share!r}")
    rngs = run.streams(seed)
    run_length = dict(n_chains=n_chains, burn_in=burn_in, n_samples=n_samples, max_stored_draws=max_stored_draws)
    settings = dict(rng=rngs.engine, **run_length)  # the sampler draws in the place of the minibatches
    if family not in MULTICLASS_FAMILIES:
        raise ValueError(f"unknown multi-class family {family!r}; choose one of {', '.join(MULTICLASS_FAMILIES)}")
    n_classes = int(labelled_data(X_train, y_train)[1].max()) + 1
    if n_classes == 2:
        sampler = GibbsSampler(X_train, y_train, kernel, **settings)
    elif family == STICK_BREAKING:
        sampler = StickBreakingGibbsSampler(X_train, y_train, kernel, n_classes, **settings)
    else:
        sampler = MulticlassGibbsSampler(X_train, y_train, kernel, n_classes, **settings)
    logistic_softmax = n_classes > 2 and family in FAMILIES
    fitted = "joint" if logistic_softmax else family  # the logistic-softmax's joint fit, its factorised one beside it
    X_train, y_train = sampler.X, sampler.y
    yield Progress(FITTING, 0.0)

    def engine(Z, family=fitted):  # X-GPC, full (Z None) or sparse, fitted by exact coordinate ascent
        return run.full_batch_engine("xgpc", X_train, y_train, Z, kernel, multiclass_family=family)

    builds = {"full": lambda: engine(None)}
    if n_inducing is not None:  # its time includes placing Z and building the engine
        builds["sparse"] = lambda: engine(kmeans_plus_plus(X_train, n_inducing, rngs.inducing))
    if logistic_softmax:
        builds["factorised"] = lambda: engine(None, "factorised")
    models, cost = {}, {}
    for name, build in builds.items():
        start = time.perf_counter()
        models[name] = build()
        placed = time.perf_counter() - start if name == "sparse" else 0.0
        sweeps, seconds = yield from _fitted(models[name])
        cost[name] = {"vi_seconds": placed + seconds, "vi_iterations": sweeps}
    diagnostics = yield from _sampled(sampler, diagnostics_share)
    mcmc_cost = {"mcmc_seconds": sampler.seconds, "mcmc_sweeps_per_second": sampler.sweeps_per_second}
    results = {}
    for name, model in models.items():
        yield _sampling_progress(sampler, diagnostics, COMPARING)
        label = FACTORISED_LABEL if name == "factorised" else None
        results[name] = compare_with_mcmc(model, sampler, X_test, y_test, label=label, subsampled_from=subsampled_from)
        results[name].cost = {**cost[name], **mcmc_cost}
    return ComparisonRun(
        results["full"],
        results.get("sparse"),
        sampler,
        X_train,
        y_train,
        X_test,
        y_test,
        subsampled_from,
        models["full"],
        models.get("sparse"),
        results.get("factorised"),
        models.get("factorised"),
    )


def sampler_split(
    X: np.ndarray, y: np.ndarray, *, n_train_max: int = N_MAX, test_fraction: float = 0.2, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int | None]:
    """(X_train, X_test, y_train, y_test, subsampled_from) for a comparison on one data set X (n, d), y (n,) class
    indices:
    stratified, `test_fraction` of each class in the test part; if the training part would exceed `n_train_max`
    (at most the sampler's limit), the data are first subsampled to ⌊n_train_max / (1 − test_fraction)⌋ rows and
    `subsampled_from` is n (else None). Randomness from `run.streams(seed).split`."""
    X, y = labelled_data(X, y)
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction}")
    if not 1 <= n_train_max <= N_MAX:
        raise ValueError(f"n_train_max must be between 1 and the sampler's limit {N_MAX}, got {n_train_max}")
    rng = run.streams(seed).split
    keep = subsample(len(y), int(n_train_max / (1.0 - test_fraction)), rng)
    subsampled_from = len(y) if len(keep) < len(y) else None
    return (*train_test_split(X[keep], y[keep], test_fraction, rng), subsampled_from)


def subsample(n: int, limit: int, rng: np.random.Generator) -> np.ndarray:
    """Sorted indices of `limit` of n rows drawn without replacement by `rng`, or all n if n ≤ limit: (≤ limit,)."""
    return np.sort(rng.choice(n, limit, replace=False)) if n > limit else np.arange(n)


def text_progress(stream=None, every_seconds: float = 1.0) -> Callable[[int, int], None]:
    """A `progress(sweeps_done, total_sweeps)` callback for long sampler runs: a tqdm bar of the sweeps per chain on
    `stream` (default sys.stderr), redrawn at most every `every_seconds` and closed when done; its clock starts at
    the first report (setup time is not sweeping)."""
    bar = None

    def report(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            file = stream if stream is not None else sys.stderr
            desc = "Gibbs sampling, sweeps per chain"
            bar = tqdm(total=total, initial=done, desc=desc, unit="sweep", file=file, mininterval=every_seconds)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return report


def run_comparison(
    X: np.ndarray,
    y: np.ndarray,
    kernel: Kernel,
    *,
    n_train_max: int = N_MAX,
    test_fraction: float = 0.2,
    seed: int = 0,
    progress: Callable[[int, int], None] | str | None = "auto",
    **settings,
) -> ComparisonRun:
    """Fig. 1 end to end from one data set: `sampler_split`, then the `comparison` study run to its end.

    Cost: about chains × (burn_in + n_samples) × `gibbs.seconds_per_sweep_estimate(n_train)` seconds.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Inputs as given (standardise beforehand).
    y : ndarray of shape (n,)
        Class indices 0…K−1 (K ≥ 3: multi-class X-GPC in `family` against its model's exact sampler, per class).
    kernel : Kernel
        The kernel both the sampler and X-GPC use (fixed).
    n_train_max : int, default N_MAX
        Most training rows (a larger set is subsampled, `sampler_split`).
    test_fraction : float, default 0.2
        Share of the rows held out for the test NLL.
    seed : int, default 0
        All randomness (split, sampler, inducing points: three of a run's streams, `run.streams`).
    progress : callable, "auto" or None, default "auto"
        `progress(sweeps_done, total_sweeps)` after each step of sampling ("auto": `text_progress()` in a
        terminal or notebook, else nothing; None: nothing).
    **settings
        The study's own (`comparison`, with its defaults): `n_samples`, `burn_in`, `n_chains` (Gibbs draws kept per
        chain, discarded per chain, and chains), `n_inducing` (m of the sparse X-GPC; None: no sparse fit),
        `max_stored_draws` (draws kept for the predictive, thinned evenly), `family` (K ≥ 3: the multi-class X-GPC
        family compared, default "stick-breaking"; module docstring).

    Returns
    -------
    ComparisonRun
        The full and sparse X-GPC against MCMC (`full`, `sparse`: per-point pairs and bounds, `summary()`; for the
        logistic-softmax families also `factorised`, the full fit in the paper's factorised family), the sampler
        (traces, R̂, ESS), the data it ran on and the fitted engines.

    Raises
    ------
    ValueError
        One class only, too many points for the sampler, or settings out of range (before any fitting).

    Examples
    --------
    >>> from explorer.data import datasets
    >>> from explorer.kernels import RBF
    >>> X, y = datasets.load("moons", n=60, seed=0)
    >>> result = run_comparison(X, y, RBF(1.0), n_samples=200, burn_in=20, n_chains=2, n_inducing=10, progress=None)
    >>> result.full.vi_proba.shape  # p(y*=1) at the 12 test points, X-GPC against MCMC in `mcmc_proba`
    (12,)
    >>> bool(abs(result.sparse.vi_proba - result.sparse.mcmc_proba).max() < 0.1)
    True
    """
    if progress == "auto":
        progress = text_progress() if sys.stderr.isatty() or "ipykernel" in sys.modules else None
    X_train, X_test, y_train, y_test, subsampled_from = sampler_split(
        X, y, n_train_max=n_train_max, test_fraction=test_fraction, seed=seed
    )
    study = comparison(
        X_train,
        y_train,
        X_test,
        y_test,
        kernel,
        seed=seed,
        subsampled_from=subsampled_from,
        diagnostics_share=0.0,
        **settings,
    )

    def report(event: Progress) -> None:
        if progress is not None and event.stage == SAMPLING:
            progress(event.sweeps_done, event.total_sweeps)

    return finish(study, report)
