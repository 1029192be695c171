"""Test metrics on predictive class probabilities P (n, K) and labels as class indices 0…K−1 (DESIGN §1, §2)."""

from __future__ import annotations

import numpy as np

_CLIP = 1e-12


def _checked(P, y) -> tuple[np.ndarray, np.ndarray]:
    """P as a float (n, K) array and y as integer class indices (n,) in 0…K−1; ValueError naming the shapes or the
    first bad label otherwise."""
    P, y = np.asarray(P, dtype=float), np.asarray(y)
    if P.ndim != 2 or y.ndim != 1 or len(P) != len(y):
        raise ValueError(f"need probabilities P (n, K) and labels y (n,) with the same n; got P {P.shape}, y {y.shape}")
    whole = y.dtype.kind in "iu" or (y.dtype.kind == "f" and np.array_equal(y, np.floor(y)))
    if len(y) and not (whole and 0 <= y.min() and y.max() < P.shape[1]):
        i = int(np.flatnonzero(~((y >= 0) & (y < P.shape[1]) & (y == np.floor(y))))[0])
        raise ValueError(f"labels must be class indices 0…{P.shape[1] - 1}; row {i} holds {y[i].item()!r}")
    return P, y.astype(np.intp, copy=False)


def negative_log_likelihood(P: np.ndarray, y: np.ndarray) -> float:
    """−mean log P[i, y_i] for P (n, K) and class indices y (n,), probabilities clipped to [1e-12, 1 − 1e-12].

    K = 2: the terms come from column 1 alone, log p₁ and log(1 − p₁) = log1p(−p₁) (a binary method forms column 0
    as 1 − p₁, which rounds away the low digits of a small p₁; log1p keeps them)."""
    P, y = _checked(P, y)
    if P.shape[1] == 2:
        p = np.clip(P[:, 1], _CLIP, 1.0 - _CLIP)
        return float(-np.mean(np.where(y == 1, np.log(p), np.log1p(-p))))
    p = np.clip(P[np.arange(len(y)), y], _CLIP, 1.0 - _CLIP)
    return float(-np.mean(np.log(p)))


def error_rate(P: np.ndarray, y: np.ndarray) -> float:
    """mean(argmax_k P[i, k] ≠ y_i) for P (n, K) and class indices y (n,); a tie goes to the lowest index (binary:
    p(class 1) = ½ counts as class 0)."""
    P, y = _checked(P, y)
    return float(np.mean(np.argmax(P, axis=1) != y))


def first_time_within(seconds: np.ndarray, values: np.ndarray, target: float) -> float:
    """Time-to-quality, "first" reading (DESIGN §6): training time of the first evaluation with value ≤ target
    (inf if none). seconds, values (k,)."""
    hit = np.flatnonzero(np.asarray(values) <= target)
    return float(np.asarray(seconds)[hit[0]]) if len(hit) else float("inf")


def settled_time_within(seconds: np.ndarray, values: np.ndarray, target: float) -> float:
    """Time-to-quality, "settled" reading (DESIGN §6): training time from which every later evaluation has value
    ≤ target (inf if the last one does not, or if there are none). seconds, values (k,)."""
    seconds, values = np.asarray(seconds), np.asarray(values)
    outside = np.flatnonzero(~(values <= target))
    if len(outside) == 0:
        return float(seconds[0]) if len(seconds) else float("inf")
    return float("inf") if outside[-1] == len(values) - 1 else float(seconds[outside[-1] + 1])
