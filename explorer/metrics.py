"""Test metrics on predictive class probabilities P (n, K) and labels as class indices 0…K−1 (DESIGN §1, §2)."""

from __future__ import annotations

import numpy as np
from scipy.stats import entropy

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


TIE_TOLERANCE = 1e-9
"""Probabilities within this of a row's largest are tied (`predicted_class`). Rounding differs between CPUs and BLAS
kernels by about 1e-16 of a probability; a prediction means nothing at 1e-9, so a tie in exact arithmetic (every
p = ½ or 1/K at a zero-mean prior, as at iteration 0) is one on every machine."""


def predicted_class(P: np.ndarray) -> np.ndarray:
    """The predicted class index (n,) of each row of P (n, K): the most probable class, where every class whose
    probability lies within `TIE_TOLERANCE` of the row's largest counts as tied and a tie goes to the lowest index
    (binary: class 1 iff p(class 1) > ½ + 5e-10)."""
    P = np.asarray(P, dtype=float)
    if P.ndim != 2 or P.shape[1] < 1:
        raise ValueError(f"need probabilities P (n, K) with K ≥ 1; got shape {P.shape}")
    near_top = P >= P.max(axis=1, keepdims=True) - TIE_TOLERANCE
    return np.argmax(near_top, axis=1)


def class_prior_nll(y: np.ndarray, n_classes: int) -> float:
    """−Σ_k π_k log π_k, π_k the share of class k among the class indices y (n,) (0 log 0 = 0): the NLL on y of the
    best constant prediction, the class shares themselves — what a classifier that learned nothing from the
    features can reach. NaN for no labels."""
    y = np.asarray(y, dtype=np.intp)
    return float(entropy(np.bincount(y, minlength=n_classes))) if len(y) else float("nan")


CHANCE_MARGIN = 0.02
"""A fit whose NLL is above (1 − CHANCE_MARGIN) × the class-prior NLL is no better than chance (`chance_note`)."""


def chance_note(nll: float, y: np.ndarray, n_classes: int, margin: float = CHANCE_MARGIN) -> str | None:
    """The sentence a face shows when a fit's NLL on the rows with class indices y (n,) is no better than chance
    — nll ≥ (1 − margin) × `class_prior_nll(y)` — or None when it is better (or there is nothing to compare:
    no rows, one class, a NaN NLL)."""
    prior = class_prior_nll(y, n_classes)
    if not (prior > 0 and nll >= (1.0 - margin) * prior):
        return None
    return (
        f"No better than chance: the NLL {nll:.4f} on the {len(y):,} evaluation rows is not {margin:.0%} below "
        f"{prior:.4f}, the class prior's (predicting the class shares everywhere). The kernel may never have fitted "
        "the data: try another initial lengthscale (empty: √(d/2)), more iterations, or check that the "
        "features carry the labels."
    )


def error_rate(P: np.ndarray, y: np.ndarray) -> float:
    """mean(ŷ_i ≠ y_i) for P (n, K) and class indices y (n,), ŷ = `predicted_class(P)` (ties, to `TIE_TOLERANCE`,
    go to the lowest index: binary p(class 1) = ½ counts as class 0)."""
    P, y = _checked(P, y)
    return float(np.mean(predicted_class(P) != y))


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


CALIBRATION_BINS = 10
"""Equal-width confidence bins of `expected_calibration_error` and `reliability`."""


def reliability(P: np.ndarray, y: np.ndarray, bins: int = CALIBRATION_BINS) -> dict[str, np.ndarray]:
    """The top-label reliability table of P (n, K) and class indices y (n,) over `bins` equal-width confidence bins.

    Each row's confidence is its top probability c_i = max_k P[i, k] and it is correct when that class (ties: the
    lowest index, as `error_rate`) is y_i. Bin b holds the rows with b/B ≤ c_i < (b + 1)/B (the last bin also
    c_i = 1). Returns arrays of shape (bins,): "lower" and "upper" edges, "count" of rows, their mean "confidence"
    and "accuracy" (both NaN in an empty bin)."""
    P, y = _checked(P, y)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"bins must be a whole number ≥ 1, got {bins!r}")
    top = predicted_class(P)
    confidence = P.max(axis=1)
    which = np.minimum((confidence * bins).astype(np.intp), bins - 1)
    count = np.bincount(which, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_confidence = np.bincount(which, weights=confidence, minlength=bins) / count
        accuracy = np.bincount(which, weights=(top == y).astype(float), minlength=bins) / count
    edges = np.arange(bins + 1) / bins
    return {
        "lower": edges[:-1],
        "upper": edges[1:],
        "count": count,
        "confidence": mean_confidence,
        "accuracy": accuracy,
    }


def expected_calibration_error(P: np.ndarray, y: np.ndarray, bins: int = CALIBRATION_BINS) -> float:
    """Top-label expected calibration error (Guo et al. 2017) with equal-width confidence bins.

    ECE = Σ_b (n_b / n) |accuracy_b − confidence_b| over the non-empty bins of `reliability` (its confidences, bins
    and tie rule).

    Parameters
    ----------
    P : ndarray of shape (n, K)
        Predictive class probabilities.
    y : ndarray of shape (n,)
        Class indices 0…K−1.
    bins : int, default 10
        B, the number of equal-width bins on [0, 1].

    Returns
    -------
    float
        The ECE in [0, 1]; 0 when every bin's accuracy equals its mean confidence.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.array([[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]])
    >>> round(expected_calibration_error(P, np.array([0, 1, 1])), 6)  # (|1 − 0.9| + |0 − 0.8| + |1 − 0.7|)/3
    0.4
    """
    return calibration_error(reliability(P, y, bins))


def calibration_error(table: dict) -> float:
    """Σ_b (n_b / n)|accuracy_b − confidence_b| over the non-empty bins of a reliability table (`reliability`; its
    arrays may be lists, as read from JSON)."""
    count = np.asarray(table["count"], dtype=float)
    full = count > 0
    gaps = np.abs(np.asarray(table["accuracy"], dtype=float)[full] - np.asarray(table["confidence"], dtype=float)[full])
    return float(np.sum(count[full] / count.sum() * gaps))
