"""The one place a user's inputs are standardised: z = (x − mean) / scale per column, fitted on the training inputs
(in memory or one pass over a source's chunks: `fitted_standardizer`) and saved with a run; applied to arrays
(`standardised`) and to a source's rows as they are read (`ScaledSource`), always within ±`inputs.FEATURE_LIMIT`
before and after. A `run.Run` standardises its data here once; the faces hand it their inputs in their own units."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from explorer.inputs import STANDARDISED, bounded_features
from explorer.sources import CHUNK_ROWS, DataSource
from explorer.validation import DataError


class Standardizer:
    """z = (x − mean) / scale per column, with the training part's mean and std (ddof=0); a constant column
    gets scale 1. Statistics are (d,) arrays; `to_dict`/`from_dict` use plain lists for JSON save files."""

    def __init__(self, mean=None, scale=None):
        self.mean = None if mean is None else np.asarray(mean, dtype=np.float64)
        self.scale = None if scale is None else np.asarray(scale, dtype=np.float64)
        if (self.mean is None) != (self.scale is None):
            raise DataError("Standardizer needs both mean and scale, or neither")
        if self.mean is not None:
            if self.mean.ndim != 1 or self.mean.shape != self.scale.shape:
                raise DataError(
                    f"mean and scale must be 1-D of equal length, got {self.mean.shape} and {self.scale.shape}"
                )
            if not (np.all(np.isfinite(self.mean)) and np.all(np.isfinite(self.scale)) and np.all(self.scale > 0)):
                raise DataError("mean must be finite and scale finite and > 0")

    def fit(self, X) -> "Standardizer":
        """Learn mean (d,) and scale (d,) from the training inputs X (n, d)."""
        X = self._as_2d(X, None)
        self.mean = X.mean(axis=0)
        std = X.std(axis=0)
        self.scale = np.where(np.ptp(X, axis=0) == 0, 1.0, std)
        return self

    def _as_2d(self, X, d) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or (d is not None and X.shape[1] != d):
            raise DataError(f"expected X of shape (n, {d if d is not None else 'd'}), got {X.shape}")
        if len(X) == 0:
            raise DataError("X has no rows")
        if not np.all(np.isfinite(X)):
            j = int(np.flatnonzero(~np.isfinite(X).all(axis=0))[0])
            raise DataError(f"column {j} (0-based) holds a non-finite value; standardise only checked data")
        return X

    def _fitted_d(self) -> int:
        if self.mean is None:
            raise DataError("Standardizer is not fitted; call fit(X_train) first")
        return len(self.mean)

    def transform(self, X) -> np.ndarray:
        """(X − mean) / scale, shape (n, d)."""
        return (self._as_2d(X, self._fitted_d()) - self.mean) / self.scale

    def inverse_transform(self, Z) -> np.ndarray:
        """Z · scale + mean, shape (n, d)."""
        return self._as_2d(Z, self._fitted_d()) * self.scale + self.mean

    def to_dict(self) -> dict:
        self._fitted_d()
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist()}

    @classmethod
    def from_dict(cls, state: dict) -> "Standardizer":
        return cls(state["mean"], state["scale"])


def fitted_standardizer(X, name: str = "X") -> Standardizer:
    """The `Standardizer` of the training inputs X (n, d), or of all rows of a `DataSource` X (one pass over its
    chunks, `_chunked_standardizer`), refusing (DataError) values beyond ±FEATURE_LIMIT and a
    column whose spread is too small for float64 (its sd underflows to 0 although its values differ). A constant
    column's mean is its value, so it standardises to exactly 0 (the mean of 7 × 9.3e26 is off by ~1e10)."""
    if isinstance(X, DataSource):
        return _chunked_standardizer(X, name)
    bounded_features(X, name)
    scaler = Standardizer().fit(X)
    constant = np.ptp(X, axis=0) == 0
    scaler.mean[constant] = X[0, constant]  # a constant column standardises to exactly 0, not to its mean's rounding
    if not np.all(scaler.scale > 0):
        j = int(np.flatnonzero(~(scaler.scale > 0))[0])
        raise DataError(
            f"{name} column {j} (0-based) spreads over only {np.ptp(X[:, j]):.3g}, too little to "
            "standardise in float64; rescale the column"
        )
    return scaler


def standardised(scaler: Standardizer, X, name: str = "X"):
    """scaler.transform(X) for X (n, d) within ±FEATURE_LIMIT before and after standardisation (DataError); a
    `DataSource` X becomes a `ScaledSource`, its rows standardised and checked as they are read."""
    if isinstance(X, DataSource):
        return ScaledSource(X, scaler, name)
    bounded_features(np.asarray(X, dtype=float), name)
    return bounded_features(scaler.transform(X), name, STANDARDISED)


def standardise(X_train, *others, scaler: Standardizer | bool = True):
    """(scaler, X_train, *others) in standardised units: `scaler` True fits a `Standardizer` on X_train
    (`fitted_standardizer`), a fitted `Standardizer` is applied as it is, False keeps the inputs as given (already
    standardised; scaler None). Arrays (n, d) or `DataSource`s (`standardised`); values beyond ±1e100 before or
    after standardisation raise DataError."""
    if scaler is False:
        return (None, X_train, *others)
    if scaler is True:
        scaler = fitted_standardizer(X_train, "training data")
    return (
        scaler,
        standardised(scaler, X_train, "training data"),
        *(standardised(scaler, X, "evaluation data") for X in others),
    )


class ScaledSource(DataSource):
    """Another source's rows standardised as they are read, by a fitted `Standardizer` (the training statistics):
    X_b ↦ (X_b − mean)/scale, each value within ±`inputs.FEATURE_LIMIT` after it (DataError otherwise), the same
    values `standardised` gives the rows in memory."""

    def __init__(self, source: DataSource, scaler: Standardizer, name: str = "training data"):
        self.source, self.scaler, self.name = source, scaler, name
        self.n, self.d = source.n, source.d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X_b, y_b = self.source.batch(index)
        return bounded_features(self.scaler.transform(X_b), self.name, STANDARDISED), y_b

    def labels(self) -> np.ndarray:
        return self.source.labels()

    def label_location(self, row: int) -> str:
        return self.source.label_location(row)

    @cached_property
    def n_classes(self) -> int:
        return self.source.n_classes


def _chunked_standardizer(source: DataSource, name: str = "training data") -> Standardizer:
    """The `Standardizer` of all of `source`'s rows from one pass over consecutive blocks of `CHUNK_ROWS`: the
    exact mean and sd (ddof = 0), each block's mean and sum of squared deviations merged by Chan, Golub and
    LeVeque's pairwise update (equal to `fitted_standardizer` on the rows in memory up to rounding); a
    constant column keeps its value as mean and scale 1, and a column whose sd underflows raises DataError, as in
    memory."""
    count, mean, squares = 0, np.zeros(source.d), np.zeros(source.d)
    low, high, first = np.full(source.d, np.inf), np.full(source.d, -np.inf), None
    for rows in source.chunks(CHUNK_ROWS):
        X_b = source.batch(rows)[0]
        k, block_mean = len(X_b), X_b.mean(axis=0)
        delta, total = block_mean - mean, count + len(X_b)
        squares = squares + ((X_b - block_mean) ** 2).sum(axis=0) + delta**2 * (count * k / total)
        mean = mean + delta * (k / total)
        count = total
        low, high = np.minimum(low, X_b.min(axis=0)), np.maximum(high, X_b.max(axis=0))
        first = X_b[0] if first is None else first
    constant = low == high
    scale = np.where(constant, 1.0, np.sqrt(squares / count))
    if not np.all(scale > 0):
        j = int(np.flatnonzero(~(scale > 0))[0])
        raise DataError(
            f"{name} column {j} (0-based) spreads over only {high[j] - low[j]:.3g}, too little to "
            "standardise in float64; rescale the column"
        )
    return Standardizer(np.where(constant, first, mean), scale)
