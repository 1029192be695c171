"""The input scaling every face applies before the numerics: z = (x − mean) / scale per column, fitted on the
training inputs and saved with a run."""

from __future__ import annotations

import numpy as np

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
