"""Inducing inputs Z: m points chosen by k-means++ on the training inputs, then fixed (paper §Experiments)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from explorer.sources import CHUNK_ROWS, DataSource

TIE_TOLERANCE = 1e-9
"""Candidate centres whose potentials lie within this (relative) of the smallest are tied (`seeded_rows`): they tie
in exact arithmetic, and their computed potentials differ by rounding that differs between CPUs and BLAS kernels
(BENCHMARKS.md "k-means++ ties")."""


INDUCING_SAMPLE_ROWS = 100_000
"""Most rows k-means++ sees when it chooses the inducing points of a source (a seeded sample above that)."""


def initial_inducing(X, m: int, rng: np.random.Generator) -> np.ndarray:
    """Z (m, d): k-means++ (`kmeans_plus_plus`, with `rng`) on the training rows X (n, d), or on a `DataSource`'s
    rows (`inducing_sample`: all of them when n ≤ `INDUCING_SAMPLE_ROWS`, so the in-memory Z, else a sample drawn
    with `rng`). The rows in the units the engine works in (standardised)."""
    return kmeans_plus_plus(inducing_sample(X, rng) if isinstance(X, DataSource) else X, m, rng)


def kmeans_plus_plus(X: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """m distinct rows chosen by k-means++ seeding (Arthur & Vassilvitskii 2007) from X (n, d) → (m, d): scikit-learn's
    greedy variant with its random draws (a RandomState seeded from rng, as its `random_state` would be), ties settled
    by `seeded_rows`' rule.

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
    return distinct[seeded_rows(distinct, m, np.random.RandomState(seed))]


def seeded_rows(X: np.ndarray, m: int, random_state: np.random.RandomState) -> np.ndarray:
    """Indices (m,) of the rows of X (n, d), n > m, that greedy k-means++ seeding picks: the first uniformly, each
    next one the best of 2 + ⌊log m⌋ candidates drawn with probability ∝ D² (the squared distance to the nearest row
    picked so far), best meaning the smallest potential Σᵢ D²(xᵢ) once it is added.

    The draws and the arithmetic are those of `sklearn.cluster.kmeans_plusplus` (1.9) with `random_state`, so the
    same rows, except at a tie: candidates whose potentials lie within `TIE_TOLERANCE` of the smallest are tied, and
    the first drawn of them wins (scikit-learn's argmin lets the last bit of rounding decide a tie)."""
    n = len(X)
    trials = 2 + int(math.log(m))
    weights = np.ones(n)
    norms = np.einsum("ij,ij->i", X, X)
    rows = np.empty(m, dtype=np.intp)
    rows[0] = random_state.choice(n, p=weights / weights.sum())
    closest = _squared_distances(X[rows[:1]], X, norms)  # (1, n): D²
    potential = closest @ weights
    for c in range(1, m):
        candidates = np.searchsorted(np.cumsum(closest), random_state.uniform(size=trials) * potential)
        candidates = np.minimum(candidates, n - 1)  # rounding can put a draw past the last cumulative sum
        D2 = np.minimum(closest, _squared_distances(X[candidates], X, norms))
        potentials = D2 @ weights.reshape(-1, 1)  # (trials, 1)
        tied = np.flatnonzero(potentials[:, 0] <= potentials.min() * (1.0 + TIE_TOLERANCE))
        best = tied[0]  # the first drawn of the tied candidates
        rows[c], closest, potential = candidates[best], D2[best : best + 1], potentials[best]
    return rows


def _squared_distances(C: np.ndarray, X: np.ndarray, norms: np.ndarray) -> np.ndarray:
    """‖c − x‖² (k, n) for the rows of C (k, d) and X (n, d) with norms (n,) = ‖x‖², by the arithmetic of
    `sklearn.metrics.pairwise.euclidean_distances(C, X, Y_norm_squared=norms, squared=True)` (−2CXᵀ + ‖c‖² + ‖x‖²,
    floored at 0), without its input checks, which cost half as much again as the seeding itself."""
    D = -2 * (C @ X.T)
    D += np.einsum("ij,ij->i", C, C)[:, np.newaxis]
    D += norms
    return np.maximum(D, 0, out=D)


def inducing_sample(source: DataSource, rng: np.random.Generator, most: int = INDUCING_SAMPLE_ROWS) -> np.ndarray:
    """The rows k-means++ chooses the inducing points from, (k, d): all n rows when n ≤ `most` (so the same Z as in
    memory for the same stream), else `most` distinct rows drawn with `rng` (read in file order)."""
    rows = np.arange(source.n) if source.n <= most else np.sort(rng.choice(source.n, most, replace=False))
    return np.concatenate([source.batch(part)[0] for part in source.chunks(CHUNK_ROWS, rows)])
