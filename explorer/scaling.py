"""The one place a user's inputs are standardised: z = (x − mean) / scale per column (`Standardizer`), fitted on
the training rows and saved with a run, always within ±`inputs.FEATURE_LIMIT` before and after. A run's training rows
are held once, in the user's units, and read standardised (`ScaledSource`); a `run.Run` gets its rows, scaler and
training view here (`training_rows`, and `extended` for added rows)."""

from __future__ import annotations

import numpy as np

from explorer.inputs import STANDARDISED, bounded_features
from explorer.sources import CHUNK_ROWS, ArraySource, DataSource, as_source
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

    def fit(self, X, name: str = "X") -> "Standardizer":
        """Learn mean (d,) and scale (d,) from the training inputs X (n, d), an `ArraySource`'s rows (in memory: the
        same statistics) or all rows of another `DataSource` (one pass over its chunks, `_chunked_statistics`),
        refusing (DataError) values beyond ±FEATURE_LIMIT and a column whose spread is too small for float64 (its sd
        underflows to 0 although its values differ). A constant column's mean is its value, so it standardises to
        exactly 0 (the mean of 7 × 9.3e26 is off by ~1e10)."""
        if isinstance(X, DataSource) and not isinstance(X, ArraySource):
            self.mean, self.scale = _chunked_statistics(X, name)
            return self
        X = X.X if isinstance(X, ArraySource) else self._checked(X, name, None)  # a source's rows: checked already
        spread = np.ptp(X, axis=0)
        constant = spread == 0
        self.mean = np.where(constant, X[0], X.mean(axis=0))
        self.scale = np.where(constant, 1.0, X.std(axis=0))
        _check_spread(self.scale, spread, name)
        return self

    @staticmethod
    def _checked(X, name: str, d: int | None) -> np.ndarray:
        """X as float64 (n, d), n ≥ 1, within ±FEATURE_LIMIT (`inputs.bounded_features`), else DataError."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or (d is not None and X.shape[1] != d):
            raise DataError(f"expected X of shape (n, {d if d is not None else 'd'}), got {X.shape}")
        if len(X) == 0:
            raise DataError("X has no rows")
        return bounded_features(X, name)

    def _fitted_d(self) -> int:
        if self.mean is None:
            raise DataError("Standardizer is not fitted; call fit(X_train) first")
        return len(self.mean)

    def transform(self, X, name: str = "X"):
        """(X − mean) / scale for X (n, d), within ±FEATURE_LIMIT before and after (DataError); a `DataSource` X
        becomes a `ScaledSource`, its rows standardised and checked as they are read."""
        if isinstance(X, DataSource):
            return ScaledSource(X, self, name)
        X = self._checked(X, name, self._fitted_d())
        return bounded_features((X - self.mean) / self.scale, name, STANDARDISED)

    def inverse_transform(self, Z) -> np.ndarray:
        """Z · scale + mean, shape (n, d)."""
        return self._checked(Z, "Z", self._fitted_d()) * self.scale + self.mean

    def to_dict(self) -> dict:
        self._fitted_d()
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist()}

    @classmethod
    def from_dict(cls, state: dict) -> "Standardizer":
        return cls(state["mean"], state["scale"])


def _check_spread(scale: np.ndarray, spread: np.ndarray, name: str) -> None:
    """DataError naming the first column whose sd (`scale`, (d,)) underflowed to 0 although its values `spread` (d,)."""
    if not np.all(scale > 0):
        j = int(np.flatnonzero(~(scale > 0))[0])
        raise DataError(
            f"{name} column {j} (0-based) spreads over only {spread[j]:.3g}, too little to standardise in float64; "
            "rescale the column"
        )


def standardise(X_train, *others, scaler: Standardizer | bool = True):
    """(scaler, X_train, *others) in standardised units (`Standardizer.transform`): `scaler` True fits a
    `Standardizer` on X_train, a fitted `Standardizer` is applied as it is, False keeps the inputs as given (already
    standardised; scaler None)."""
    if scaler is False:
        return (None, X_train, *others)
    if scaler is True:
        scaler = Standardizer().fit(X_train, "training data")
    others = (scaler.transform(X, "evaluation data") for X in others)
    return (scaler, scaler.transform(X_train, "training data"), *others)


def training_rows(X_train, y_train=None, *others, scaler: Standardizer | bool = True, n_classes: int | None = None):
    """(rows, scaler, train, *others), what a run trains on: the training rows X_train (n, d), y_train (n,) held
    once, in their units, as a source (`sources.as_source`, with `n_classes`), then `standardise(rows, *others,
    scaler=scaler)`: `train` is the view the engine reads (a `ScaledSource`; `rows` itself with no scaler)."""
    rows = as_source(X_train, y_train, n_classes=n_classes)
    return (rows, *standardise(rows, *others, scaler=scaler))


def extended(rows: ArraySource, X, y, scaler: Standardizer | None, name: str = "X") -> tuple[ArraySource, DataSource]:
    """(rows with X (k, d), y (k,) added (`ArraySource.extended`), the view the engine reads through `scaler`, None:
    as given); new rows beyond ±1e100 before or after standardisation raise DataError, and nothing changes."""
    rows = rows.extended(X, y, name)
    if scaler is None:
        return rows, rows
    scaler.transform(X, name)  # the new rows after standardisation, checked before the run takes them
    return rows, scaler.transform(rows, "training data")


class ScaledSource(DataSource):
    """Another source's rows standardised as they are read by a fitted `Standardizer`: X_b ↦ (X_b − mean)/scale,
    within ±`inputs.FEATURE_LIMIT` (DataError otherwise), the values `Standardizer.transform` gives them in memory."""

    def __init__(self, source: DataSource, scaler: Standardizer, name: str = "training data"):
        self.source, self.scaler, self.name = source, scaler, name
        self.n, self.d = source.n, source.d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X_b, y_b = self.source.batch(index)
        return bounded_features((X_b - self.scaler.mean) / self.scaler.scale, self.name, STANDARDISED), y_b

    def labels(self) -> np.ndarray:
        return self.source.labels()

    def label_location(self, row: int) -> str:
        return self.source.label_location(row)

    @property
    def n_classes(self) -> int:
        return self.source.n_classes

    @property
    def label_values(self) -> np.ndarray:
        return self.source.label_values


def _chunked_statistics(source: DataSource, name: str = "training data") -> tuple[np.ndarray, np.ndarray]:
    """(mean (d,), scale (d,)) of all of `source`'s rows from one pass over consecutive blocks of `CHUNK_ROWS`: the
    exact mean and sd (ddof = 0), each block's mean and sum of squared deviations merged by Chan, Golub and
    LeVeque's pairwise update (equal to `Standardizer.fit` on the rows in memory up to rounding); a constant column
    keeps its value as mean and scale 1, and a column whose sd underflows raises DataError, as in memory."""
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
    _check_spread(scale, high - low, name)
    return np.where(constant, first, mean), scale
