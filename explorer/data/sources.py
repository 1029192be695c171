"""Where an engine's training rows come from: a data source hands out minibatches by row index, so the SVI loop never
needs the whole training set as one contiguous array in memory.

A source has `n` (rows), `d` (features), `n_classes` (highest class index + 1), `batch(index) -> (X_b (s, d) float64
C-contiguous, y_b (s,) int64 class indices 0…K−1)` (DESIGN §1: a binary method writes them as ±1 in its own
equations, at the engine),
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

import os
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import numpy as np

from explorer.data.readers import NPY_MAGIC, NPY_READ_ERRORS, regular_file
from explorer.inputs import bounded_features, class_indices, labelled_data
from explorer.validation import DataError


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
        """The rows `index` (s,): X_b (s, d) float64 C-contiguous, y_b (s,) int64 class indices 0…K−1."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, s: int) -> np.ndarray:
        """A fresh minibatch of s distinct row indices (`minibatch_indices`)."""
        return minibatch_indices(rng, self.n, s)

    @cached_property
    def n_classes(self) -> int:
        """The number of classes the labels span, highest class index + 1 (reads every row once, in blocks; the
        sources here know it from their check)."""
        return 1 + max(int(np.max(self.batch(rows)[1])) for rows in self.chunks(65536))

    def chunks(self, size: int, rows: np.ndarray | None = None) -> Iterator[np.ndarray]:
        """Consecutive blocks of at most `size` indices of `rows` (default: all n rows)."""
        rows = np.arange(self.n) if rows is None else np.asarray(rows)
        for start in range(0, len(rows), size):
            yield rows[start : start + size]


class ArraySource(DataSource):
    """Training rows held in memory: X (n, d), y (n,) class indices 0…K−1 (checked and converted by
    `inputs.labelled_data`)."""

    def __init__(self, X, y, *, d: int | None = None):
        self.X, self.y = labelled_data(X, y, d=d)
        self.n, self.d = self.X.shape
        self.n_classes = int(self.y.max()) + 1

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.X[index], self.y[index]


class NpySource(DataSource):
    """Training rows in two `.npy` files, X (n, d) and y (n,) class indices 0…K−1, opened read-only with
    `np.load(mmap_mode='r')`:
    a minibatch reads s rows from disk, so n may exceed memory.

    Checked once when opened, as `ArraySource` checks arrays, and in blocks of about `CHECK_BYTES` so a large map stays
    cheap: both files are regular `.npy` files (no pickles) holding what their headers promise; X is 2-D of real
    numbers, every entry finite and within ±`inputs.FEATURE_LIMIT`; y holds class indices (whole numbers ≥ 0,
    `inputs.class_indices`) for the same n rows. Every error is a `DataError` naming the file (and the row and column of
    a bad value).

    The map reads the files as they are on disk during the run: `batch` checks that neither file has become shorter
    (DataError naming it), but a file truncated by another program between that check and the read ends the process
    with SIGBUS, and a file rewritten in place silently changes the rows. Keep the files unchanged while a run uses
    them (or copy them first)."""

    CHECK_BYTES = 1 << 25  # 32 MiB of X per block (a few times that at the peak of the check)

    def __init__(self, X_path, y_path):
        self.X_path, self.y_path = Path(X_path), Path(y_path)
        self.X, self._X_bytes = _open_npy(self.X_path)
        self.y, self._y_bytes = _open_npy(self.y_path)
        if self.X.ndim != 2 or self.y.ndim != 1 or len(self.X) != len(self.y):
            raise DataError(
                f"{X_path} must hold X (n, d) and {y_path} y (n,) with the same n; "
                f"got X {self.X.shape}, y {self.y.shape}"
            )
        if len(self.X) == 0 or self.X.shape[1] == 0:
            raise DataError(f"{X_path}: X {self.X.shape} has no rows or no columns")
        rows = max(1, self.CHECK_BYTES // (8 * self.X.shape[1]))
        self.n_classes = 0
        for start in range(0, len(self.X), rows):
            block = np.asarray(self.X[start : start + rows], dtype=float)
            where = f"{self.X_path}: X" + (f" (block of rows from index {start})" if start else "")
            bounded_features(block, where)
            labels = class_indices(self.y[start : start + rows], f"{self.y_path}: y", first_row=start)
            self.n_classes = max(self.n_classes, int(labels.max()) + 1)
        self.n, self.d = self.X.shape

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        for path, expected in ((self.X_path, self._X_bytes), (self.y_path, self._y_bytes)):
            if os.stat(path).st_size < expected:
                raise DataError(
                    f"{path}: the file has become shorter than {expected:,} bytes since it was "
                    "opened (another program truncated it); the run cannot read its rows"
                )
        return np.ascontiguousarray(self.X[index], dtype=float), np.asarray(self.y[index], dtype=np.int64)


def _open_npy(path: Path) -> tuple[np.memmap, int]:
    """A read-only memory map of the `.npy` file `path` and the file's size; DataError naming the file if it is not
    a regular file, not a `.npy` file, holds pickled objects or is shorter than its header promises."""
    size = regular_file(path).st_size
    with open(path, "rb") as handle:
        magic = handle.read(len(NPY_MAGIC))
    if magic != NPY_MAGIC:
        raise DataError(
            f"{path}: not a .npy file (it does not start with NumPy's magic bytes); save the array with numpy.save"
        )
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except NPY_READ_ERRORS as err:
        reason = (
            "it holds Python objects, which are not loaded (no pickles)"
            if "pickle" in str(err)
            else "it is shorter than its header promises (truncated?)"
            if "length is greater" in str(err)
            else f"{type(err).__name__}: {err}"
        )
        raise DataError(f"{path}: not a usable .npy array: {reason}") from None
    if array.dtype.kind not in "biuf":
        raise DataError(f"{path}: holds {array.dtype} values; it must hold real numbers")
    return array, size


def as_source(X, y=None) -> DataSource:
    """A `DataSource` given as is (y None), or an `ArraySource` of the arrays X (n, d), y (n,)."""
    if isinstance(X, DataSource):
        if y is not None:
            raise ValueError("give either a data source (and y=None) or the arrays X and y")
        return X
    return ArraySource(X, y)
