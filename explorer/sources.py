"""Where an engine's training rows come from: a data source hands out minibatches by row index, so the SVI loop never
needs the whole training set as one contiguous array in memory.

A source has `n` (rows), `d` (features), `batch(index) -> (X_b (s, d) float64 C-contiguous, y_b (s,) in ±1)`,
`sample(rng, s) -> index (s,)` (a fresh minibatch of distinct rows) and `chunks(size)` (all rows as consecutive
index blocks, for the full-set ELBO and evaluation). Every source draws minibatches with `minibatch_indices`, so two
engines given the same seed see the same rows whatever their method.

Two sources here: `ArraySource` (arrays in memory) and `NpySource` (two `.npy` files opened as read-only memory maps:
only the rows of a minibatch are read from disk). Another backend — a Dask array, an HDF5 or Zarr store, a database
cursor — plugs in by subclassing `DataSource` and implementing `n`, `d` and `batch`; `sample` and `chunks` come
with the base class (override `sample` only to read blocks, e.g. contiguous chunks of a remote store, and accept
that its minibatches then differ from the other sources').
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from explorer.inputs import labelled_data


def minibatch_indices(rng: np.random.Generator, n: int, s: int) -> np.ndarray:
    """s distinct rows of n (s,), in no particular order (an SVI step only sums over them); all n rows in order
    when s = n, drawing nothing. The one minibatch rule of every method."""
    if s == n:
        return np.arange(n)
    return rng.choice(n, s, replace=False, shuffle=False)


class DataSource:
    """Base class of the training-data sources; subclasses define `n`, `d` and `batch(index)`. The SVI loop, the
    ELBO and prediction need nothing else. Callers that want the whole set at once (the MCMC comparison on ≤ 2,000
    rows, `XGPClassifier.partial_fit`) read the attributes `X` and `y`, which both sources here offer."""

    n: int
    d: int

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows `index` (s,): X_b (s, d) float64 C-contiguous, y_b (s,) in ±1."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, s: int) -> np.ndarray:
        """A fresh minibatch of s distinct row indices (`minibatch_indices`)."""
        return minibatch_indices(rng, self.n, s)

    def chunks(self, size: int, rows: np.ndarray | None = None) -> Iterator[np.ndarray]:
        """Consecutive blocks of at most `size` indices of `rows` (default: all n rows)."""
        rows = np.arange(self.n) if rows is None else np.asarray(rows)
        for start in range(0, len(rows), size):
            yield rows[start:start + size]


class ArraySource(DataSource):
    """Training rows held in memory: X (n, d), y (n,) in ±1 (checked and converted by `inputs.labelled_data`)."""

    def __init__(self, X, y, *, d: int | None = None):
        self.X, self.y = labelled_data(X, y, d=d)
        self.n, self.d = self.X.shape

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.X[index], self.y[index]


class NpySource(DataSource):
    """Training rows in two `.npy` files, X (n, d) and y (n,) in ±1, opened read-only with `np.load(mmap_mode='r')`:
    a minibatch reads s rows from disk, so n may exceed memory. The labels are checked once, in blocks."""

    _CHECK_ROWS = 1 << 20

    def __init__(self, X_path, y_path):
        self.X = np.load(X_path, mmap_mode="r")
        self.y = np.load(y_path, mmap_mode="r")
        if self.X.ndim != 2 or self.y.ndim != 1 or len(self.X) != len(self.y):
            raise ValueError(f"{X_path} must hold X (n, d) and {y_path} y (n,) with the same n; "
                             f"got X {self.X.shape}, y {self.y.shape}")
        for start in range(0, len(self.y), self._CHECK_ROWS):
            if not np.all(np.isin(self.y[start:start + self._CHECK_ROWS], (-1.0, 1.0))):
                raise ValueError(f"{y_path} must hold only −1 and +1 (encode labels with datasets.encode_labels)")
        self.n, self.d = self.X.shape

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (np.ascontiguousarray(self.X[index], dtype=float), np.asarray(self.y[index], dtype=float))


def as_source(X, y=None) -> DataSource:
    """A `DataSource` given as is (y None), or an `ArraySource` of the arrays X (n, d), y (n,)."""
    if isinstance(X, DataSource):
        if y is not None:
            raise ValueError("give either a data source (and y=None) or the arrays X and y")
        return X
    return ArraySource(X, y)
