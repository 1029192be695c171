"""The one run recipe: the training rows as a source → the scaler → inducing inputs by k-means++ → method engine →
`Trainer`.

Every caller that starts a run — `Run` (and so `Model`, `XGPClassifier`, the dashboard and the benchmarks' protocol),
a few benchmarks directly — splits its data its own way (a random train/test split, a validation fraction,
cross-validation folds) and builds its kernel object, then hands both here. The full-batch fit to the optimum (the
MCMC comparison, `bench bound`) builds its engine with `full_batch_engine` and runs it with
`training.fit_to_optimum`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from explorer import methods
from explorer.inducing import initial_inducing
from explorer.kernels import Kernel
from explorer.scaling import Standardizer, training_rows
from explorer.sources import ArraySource, DataSource
from explorer.training import Trainer


class Started(NamedTuple):
    """The parts `start_run` builds, which a `run.Run` holds: the training rows as given (`source`: an `ArraySource`
    of the caller's arrays, or the caller's source; held once), the scaler of its inputs (None: inputs used as
    given), the engine and its `Trainer`."""

    source: DataSource
    scaler: Standardizer | None
    engine: object
    trainer: Trainer


def start_run(
    method: str,
    X_train,
    y_train,
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
    n_classes: int | None = None,
) -> Started:
    """Hold the training rows X_train (n, d), y_train (n,) class indices 0…K−1 as a source (`sources.as_source`,
    checked once; `n_classes` K when the model has classes the rows do not hold yet), fit the scaler on them and
    read them standardised through it (`scaling.training_rows`, the one place; X_eval (n_eval, d) is standardised as
    an array), choose Z (m, d) by k-means++ on the standardised rows with `inducing_rng` unless Z is given
    (standardised units), build `method` (a key of `methods.METHODS`, with builder `options`) on the standardised
    rows with the minibatch stream `engine_rng`, and wrap it in a `Trainer` evaluating on (X_eval, y_eval);
    `evaluation_rng` picks the Trainer's ELBO subset, `no_improvement` is the Trainer's early-stopping rule
    (`convergence.NoImprovement`; None: its default).

    X_train may be a `sources.DataSource` (y_train None), read out of core: the scaler is then fitted in one pass
    over its chunks (`scaling.fitted_standardizer`), and Z is chosen by k-means++ on a seeded sample of its rows
    (`inducing.initial_inducing`: all rows when n ≤ 100,000, giving the in-memory Z); k-means++ sees every row held in
    memory, read through the view once (checked within ±1e100 after standardisation) and then dropped."""
    source, scaler, train, X_eval = training_rows(X_train, y_train, X_eval, scaler=scaler, n_classes=n_classes)
    if Z is None:
        in_memory = isinstance(source, ArraySource)
        Z = initial_inducing(train.batch(np.arange(train.n))[0] if in_memory else train, n_inducing, inducing_rng)
    engine = methods.build(method, train, None, Z, kernel, batch_size=batch_size, rng=engine_rng, **(options or {}))
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
    return Started(source, scaler, engine, trainer)


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
