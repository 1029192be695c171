"""Checks every engine applies to the arrays it is given: labelled data X (n, d), y (n,) class indices 0…K−1,
inducing inputs Z (m, d), query points, the minibatch size, iteration counts. One place, so X-GPC, SVGP, the Gibbs
sampler, the comparison, the `Model` and `XGPClassifier` reject bad input with the same words.

Feature values are limited to |x| ≤ FEATURE_LIMIT = 1e100, in the data's own units and after standardisation:
the kernel forms squared distances ‖x/ℓ‖², which overflow float64 from |x/ℓ| ≈ 1e154, and a value beyond 1e100
is a unit or sentinel mistake in any data set this tool is meant for.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings

import numpy as np

from explorer.validation import DataError

FEATURE_LIMIT = 1e100
MAX_CLASS_INDEX = 2**31 - 1
STANDARDISED = "after standardisation with the training mean and sd"


def bounded_features(
    X: np.ndarray, name: str = "X", units: str = "", first_row: int = 0, columns: list[str] | None = None
) -> np.ndarray:
    """X (n, d) unchanged when every entry is finite with |x| ≤ FEATURE_LIMIT; else DataError naming the first
    offending row (counted from `first_row`, for a block of a larger set) and column (0-based, or its name in
    `columns`) and its value. `units` says where the values live (e.g. "after standardisation with the training
    mean and sd")."""
    limit = _representable_limit(X.dtype)
    if X.size and not -limit <= X.min() <= X.max() <= limit:  # NaN fails; two reductions when all is well
        bad = ~(np.abs(X) <= limit)
        i, j = (int(k) for k in np.argwhere(bad)[0])
        where = f" {units}" if units else ""
        kind = "is NaN or infinite" if not np.isfinite(X[i, j]) else f"exceeds the limit ±{FEATURE_LIMIT:g}"
        at = (
            f"row {first_row + i}, column {j} (0-based)"
            if columns is None
            else f"row {first_row + i} (0-based), column {columns[j]!r}"
        )
        raise DataError(
            f"{name} {at} holds {X[i, j].item()!r}{where}, which {kind}: "
            f"squared distances in the kernel would overflow; rescale the feature or drop the row"
        )
    return X


@functools.cache
def _representable_limit(dtype: np.dtype) -> float:
    """FEATURE_LIMIT, or the largest finite value of a floating type too narrow to hold it (float32: 3.4e38):
    compared with a float32 array, FEATURE_LIMIT itself would be cast to inf, and ±inf would pass as within it."""
    if np.issubdtype(dtype, np.floating) and float(np.finfo(dtype).max) < FEATURE_LIMIT:
        return float(np.finfo(dtype).max)
    return FEATURE_LIMIT


def labelled_data(X, y, *, d: int | None = None, names: tuple[str, str] = ("X", "y")) -> tuple[np.ndarray, np.ndarray]:
    """(X (n, d) C-contiguous float, y (n,) int64 class indices 0…K−1); `d` fixes the number of columns. X must be
    finite and within ±FEATURE_LIMIT; y whole numbers ≥ 0 (`class_indices`). Raises ValueError (DataError) naming
    the array and its shape or the bad entry."""
    x_name, y_name = names
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or len(X) != len(y) or (d is not None and X.shape[1] != d):
        columns = "d" if d is None else str(d)
        raise DataError(
            f"{x_name} must be (n, {columns}) and {y_name} (n,) with the same n; "
            f"got {x_name} {X.shape}, {y_name} {y.shape}"
        )
    if len(X) == 0:
        raise DataError(f"{x_name} has no rows")
    bounded_features(X, x_name)
    return X, class_indices(y, y_name)


def class_indices(y: np.ndarray, name: str = "y", first_row: int = 0) -> np.ndarray:
    """Labels y (n,) as int64 class indices: whole numbers in [0, MAX_CLASS_INDEX] (bool, int or integer-valued
    float); DataError naming the first other value (its row counted from `first_row`) and how to encode labels
    otherwise."""
    y = np.asarray(y)
    if y.dtype.kind == "b":
        return y.astype(np.int64)
    if y.dtype.kind not in "iuf":
        bad = np.ones(len(y), dtype=bool)
    else:
        bad = ~((y >= 0) & (y <= MAX_CLASS_INDEX) & (y == np.floor(y)))  # NaN fails all three
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(
            f"{name} row {first_row + i} (0-based) holds {y[i].item()!r}; labels must be class indices 0…K−1 "
            "(encode labels with validation.encode_labels)"
        )
    return y.astype(np.int64)


def query_points(Xs, d: int, name: str = "Xs", rows: str = "n*", fewest: int = 0) -> np.ndarray:
    """`Xs` as a C-contiguous float (rows, d) array of at least `fewest` rows, finite and within ±FEATURE_LIMIT."""
    Xs = np.ascontiguousarray(Xs, dtype=float)
    if Xs.ndim != 2 or Xs.shape[1] != d or len(Xs) < fewest:
        raise DataError(f"{name} must be ({rows}, {d}){f' with {rows} ≥ {fewest}' if fewest else ''}, got {Xs.shape}")
    return bounded_features(Xs, name)


def inducing_inputs(Z, d: int) -> np.ndarray:
    """Z as a C-contiguous float (m, d) array, m ≥ 1 (`query_points`)."""
    return query_points(Z, d, "Z", "m", fewest=1)


def minibatch_size(batch_size: int, n: int) -> int:
    """batch_size ≥ 1; one above n is clamped to n with a warning (full batches)."""
    batch_size = count(batch_size, "batch_size")
    if batch_size < 1:
        raise ValueError(f"batch_size must be ≥ 1, got {batch_size}")
    if batch_size > n:
        warnings.warn(f"batch_size {batch_size} > n = {n}; using full batches of {n}", stacklevel=3)
        return n
    return batch_size


MAX_COUNT = 10**9
"""Most iterations or sweeps one call may ask for: more is hours of work a call cannot be interrupted in."""


def count(k, name: str = "k") -> int:
    """k as an int in [0, MAX_COUNT] (iterations, sweeps): an integer, or a float with an integer value; a negative,
    fractional, infinite or NaN k, one above MAX_COUNT, a bool or a non-number raises ValueError naming `name`."""
    whole = isinstance(k, numbers.Integral) or (isinstance(k, numbers.Real) and math.isfinite(k) and k == int(k))
    if isinstance(k, (bool, np.bool_)) or not whole or k < 0:
        raise ValueError(f"{name} must be a whole number ≥ 0, got {k!r}")
    value = int(k)
    if value > MAX_COUNT:
        raise ValueError(
            f"{name} = {k!r} is more than {MAX_COUNT:.0e} in one call; ask for fewer (or use a time "
            "budget, e.g. Model.run(seconds=…))"
        )
    return value
