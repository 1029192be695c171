"""The one run recipe: standardise → inducing inputs by k-means++ → method engine → `Trainer`.

Every caller that starts a run — `Model`, `XGPClassifier`, the benchmarks, the MCMC comparison and the dashboard —
splits its data its own way (a random train/test split, a validation fraction, cross-validation folds) and builds
its kernel object, then hands both here. The full-batch fit to the optimum (the MCMC comparison, `bench bound`)
builds its engine with `full_batch_engine` and runs it with `training.fit_to_optimum`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer import methods
from explorer.data.sources import DataSource, ScaledSource, chunked_standardizer, inducing_sample
from explorer.inducing import kmeans_plus_plus
from explorer.inputs import fitted_standardizer, standardised
from explorer.kernels import Kernel
from explorer.scaling import Standardizer
from explorer.training import Trainer


def standardise(X_train: np.ndarray, *others: np.ndarray, scaler: Standardizer | bool = True):
    """(scaler, X_train, *others) in standardised units: `scaler` True fits a `Standardizer` on X_train, a fitted
    `Standardizer` is applied as it is, False keeps the inputs as given (already standardised; scaler None).
    Values beyond ±1e100 before or after standardisation raise DataError (`inputs.standardised`)."""
    if scaler is False:
        return (None, X_train, *others)
    if scaler is True:
        scaler = fitted_standardizer(X_train, "training data")
    return (
        scaler,
        standardised(scaler, X_train, "training data"),
        *(standardised(scaler, X, "evaluation data") for X in others),
    )


@dataclass
class Run:
    """A started run: the scaler of its inputs (None: inputs used as given), the engine and its `Trainer`."""

    scaler: Standardizer | None
    engine: object
    trainer: Trainer


def start_run(
    method: str,
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_eval: np.ndarray,
    y_eval: np.ndarray,
    kernel: Kernel,
    *,
    scaler: Standardizer | bool = True,
    Z: np.ndarray | None = None,
    n_inducing: int = 100,
    inducing_rng: np.random.Generator | None = None,
    engine_rng: np.random.Generator | None = None,
    evaluation_rng: np.random.Generator | None = None,
    batch_size: int = 100,
    eval_every: int = 10,
    convergence: str = "parameters",
    elbo_points: int = 10_000,
    options: dict | None = None,
    no_improvement=None,
) -> Run:
    """Standardise X_train (n, d) and X_eval (n_eval, d) (see `standardise`), choose Z (m, d) by k-means++ on the
    standardised training rows with `inducing_rng` unless Z is given (standardised units), build `method` (a key of
    `methods.METHODS`, with builder `options`) on them with the minibatch stream `engine_rng`, and wrap it in a
    `Trainer` evaluating on (X_eval, y_eval); `evaluation_rng` picks the Trainer's ELBO subset, `no_improvement`
    is the Trainer's early-stopping rule (`convergence.NoImprovement`; None: its default). y: class indices 0…K−1.

    X_train may be a `sources.DataSource` (y_train None), read out of core: the scaler is then fitted in one pass
    over its chunks (`sources.chunked_standardizer`) and applied to each minibatch as it is read
    (`sources.ScaledSource`), and Z is chosen by k-means++ on a seeded sample of its rows (`sources.inducing_sample`:
    all rows when n ≤ 100,000, giving the in-memory Z)."""
    if isinstance(X_train, DataSource):
        scaler, X_train, X_eval, Z = _source_inputs(X_train, X_eval, scaler, Z, n_inducing, inducing_rng)
    else:
        scaler, X_train, X_eval = standardise(X_train, X_eval, scaler=scaler)
        if Z is None:
            Z = kmeans_plus_plus(X_train, n_inducing, inducing_rng)
    engine = methods.build(
        method, X_train, y_train, Z, kernel, batch_size=batch_size, rng=engine_rng, **(options or {})
    )
    trainer = Trainer(
        engine,
        X_eval,
        y_eval,
        eval_every=eval_every,
        convergence=convergence,
        elbo_points=elbo_points,
        rng=evaluation_rng,
        no_improvement=no_improvement,
    )
    return Run(scaler, engine, trainer)


def _source_inputs(source: DataSource, X_eval: np.ndarray, scaler, Z, n_inducing: int, inducing_rng):
    """(scaler, training source in standardised units, X_eval standardised, Z) for a run on an out-of-core source."""
    if scaler is True:
        scaler = chunked_standardizer(source)
    if Z is None:
        sample = inducing_sample(source, inducing_rng)
        Z = kmeans_plus_plus(
            sample if scaler is False else standardise(sample, scaler=scaler)[1], n_inducing, inducing_rng
        )
    if scaler is False:
        return None, source, X_eval, Z
    return scaler, ScaledSource(source, scaler), standardise(X_eval, scaler=scaler)[1], Z


def full_batch_engine(
    method: str,
    X: np.ndarray,
    y: np.ndarray,
    Z: np.ndarray | None,
    kernel: Kernel,
    *,
    rho: float = 1.0,
    full: bool = False,
):
    """An engine for `training.fit_to_optimum`: full batches, constant step ρ (X-GPC with ρ = 1 is exact coordinate
    ascent; SVGP's natural-gradient step needs a smaller one), fixed kernel. `full` is X-GPC's non-sparse mode
    (Z None). X (n, d) standardised, y (n,) class indices 0…K−1."""
    return methods.build(
        method,
        X,
        y,
        Z,
        kernel,
        batch_size=len(y),
        rng=np.random.default_rng(0),
        step_size="constant",
        rho=rho,
        learn_hyperparameters=False,
        **({"full": True} if full else {}),
    )
