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
