"""Checks every engine applies to the arrays it is given: labelled data X (n, d), y (n,) in ±1, inducing inputs
Z (m, d), the minibatch size. One place, so X-GPC, SVGP, the Gibbs sampler and the comparison reject bad input
with the same words.
"""
from __future__ import annotations

import warnings

import numpy as np


def labelled_data(X, y, *, d: int | None = None, names: tuple[str, str] = ("X", "y"),
                  finite: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(X (n, d) C-contiguous float, y (n,) float in ±1); `d` fixes the number of columns, `finite` rejects NaN/inf
    in X. Raises ValueError naming the array and its shape."""
    x_name, y_name = names
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.ndim != 1 or len(X) != len(y) or (d is not None and X.shape[1] != d):
        columns = "d" if d is None else str(d)
        raise ValueError(f"{x_name} must be (n, {columns}) and {y_name} (n,) with the same n; "
                         f"got {x_name} {X.shape}, {y_name} {y.shape}")
    if finite and not np.all(np.isfinite(X)):
        raise ValueError(f"{x_name} contains NaN or infinite values")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"{y_name} must hold only −1 and +1 (encode labels with datasets.encode_labels)")
    return X, y


def inducing_inputs(Z, d: int) -> np.ndarray:
    """Z as a C-contiguous float (m, d) array."""
    Z = np.ascontiguousarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] != d:
        raise ValueError(f"Z must be (m, {d}), got {Z.shape}")
    return Z


def minibatch_size(batch_size: int, n: int) -> int:
    """batch_size ≥ 1; one above n is clamped to n with a warning (full batches)."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be ≥ 1, got {batch_size}")
    if batch_size > n:
        warnings.warn(f"batch_size {batch_size} > n = {n}; using full batches of {n}", stacklevel=3)
        return n
    return int(batch_size)
