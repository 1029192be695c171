"""Inducing inputs Z: m points chosen by k-means++ on the training inputs, then fixed (paper §Experiments)."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.cluster import kmeans_plusplus


def kmeans_plus_plus(X: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """m distinct rows chosen by k-means++ seeding (Arthur & Vassilvitskii 2007) from X (n, d) → (m, d).

    If X has fewer than m distinct rows, all distinct rows are returned with a warning (m is clamped).
    """
    if m < 1:
        raise ValueError(f"number of inducing points must be ≥ 1, got {m}")
    distinct = np.unique(X, axis=0)
    if m >= len(distinct):
        if m > len(distinct):
            warnings.warn(
                f"{m} inducing points requested but X has only {len(distinct)} distinct rows; "
                f"using all {len(distinct)}",
                stacklevel=2,
            )
        return distinct
    seed = int(rng.integers(0, 2**31 - 1))
    centers, _ = kmeans_plusplus(distinct, n_clusters=m, random_state=seed)
    return centers
