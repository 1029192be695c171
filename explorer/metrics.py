"""Test metrics on predictive probabilities p(y=+1) (DESIGN §2)."""

from __future__ import annotations

import numpy as np

_CLIP = 1e-12


def negative_log_likelihood(p: np.ndarray, y: np.ndarray) -> float:
    """−mean log p(y_i | x_i) for y ∈ {−1, +1} (n,), probabilities clipped to [1e-12, 1 − 1e-12]."""
    p = np.clip(np.asarray(p, dtype=float), _CLIP, 1.0 - _CLIP)
    return float(-np.mean(np.where(np.asarray(y) > 0, np.log(p), np.log1p(-p))))


def error_rate(p: np.ndarray, y: np.ndarray) -> float:
    """mean(sign(p − ½) ≠ y) for y ∈ {−1, +1} (n,); p = ½ counts as −1."""
    return float(np.mean(np.where(np.asarray(p) > 0.5, 1, -1) != np.asarray(y)))


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
