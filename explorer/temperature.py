"""A predictive temperature fitted on held-out rows (Guo et al., "On Calibration of Modern Neural Networks", ICML
2017), as a measured lever against the under-confidence of multi-class X-GPC (issue 29; BENCHMARKS.md
"multiclass: under-confidence, cause and levers (issue 29)").

Tempering class probabilities P (n, K) by T > 0 raises them to the power 1/T and renormalises each row,

    p_T(k) = p(k)^{1/T} / Σ_j p(j)^{1/T},

which is Guo et al.'s logit scaling for any model whose probabilities are a softmax of logits log p; T < 1 sharpens
(an under-confident model), T > 1 flattens, T = 1 changes nothing, and the order of the classes in each row (so the
predicted class and the error) never changes. T is fitted on rows the model was not trained on, with a weak prior
that keeps it finite where those rows cannot: the maximum a posteriori value under log T ~ N(0, s²),

    T̂ = argmin_T  Σ_i −log p_T(y_i | x_i) + (log T)² / (2 s²),

(s = `PRIOR_SD` = 1: T within a factor e of 1 a priori). Without the prior the fit is ill-posed on a small
held-out part that the model classifies without error: the held-out NLL then falls for every smaller T, and the
minimum sits at whatever bound the search has (BENCHMARKS.md: on wine's 15 validation rows the unpenalised fit
ran to T = 0.05 and made the test NLL worse).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp

PRIOR_SD = 1.0
"""The prior sd s of log T (`fit_temperature`)."""
BOUNDS = (0.01, 100.0)
"""The range of T the fit searches (T̂ at a bound says the held-out rows and the prior could not place it)."""


def _log_probabilities(P: np.ndarray) -> np.ndarray:
    P = np.asarray(P, dtype=float)
    if P.ndim != 2 or P.shape[1] < 2 or not np.all(np.isfinite(P)) or np.any(P < 0):
        raise ValueError(f"class probabilities must be a finite, non-negative (n, K ≥ 2) array, got shape {P.shape}")
    with np.errstate(divide="ignore"):
        return np.log(P)


def tempered(P: np.ndarray, T: float) -> np.ndarray:
    """The class probabilities P (n, K) tempered by T > 0: each row raised to 1/T and renormalised (module
    docstring), in the log domain (a probability that underflows stays 0; a row's order of classes is kept).

    >>> import numpy as np
    >>> P = np.array([[0.6, 0.3, 0.1]])
    >>> tempered(P, 1.0).round(12).tolist(), tempered(P, 0.5).round(4).tolist()  # T = ½: p² renormalised
    ([[0.6, 0.3, 0.1]], [[0.7826, 0.1957, 0.0217]])
    """
    if isinstance(T, bool) or not isinstance(T, (int, float, np.floating, np.integer)) or not 0 < T < math.inf:
        raise ValueError(f"the temperature must be a finite number > 0, got {T!r}")
    L = _log_probabilities(P) / float(T)
    return np.exp(L - logsumexp(L, axis=1, keepdims=True))


def penalised_nll(P: np.ndarray, y: np.ndarray, T: float, prior_sd: float = PRIOR_SD) -> float:
    """The objective `fit_temperature` minimises: Σ_i −log p_T(y_i) + (log T)²/(2 s²) (a sum over the rows, so the
    prior weighs less the more rows there are). P (n, K), class indices y (n,)."""
    L = _log_probabilities(P) / float(T)
    y = np.asarray(y)
    log_p = L[np.arange(len(y)), y] - logsumexp(L, axis=1)
    return float(-np.sum(log_p) + math.log(T) ** 2 / (2.0 * prior_sd**2))


def fit_temperature(P: np.ndarray, y: np.ndarray, prior_sd: float = PRIOR_SD) -> float:
    """T̂, the maximum a posteriori temperature of the class probabilities P (n, K) of held-out rows with class
    indices y (n,) under log T ~ N(0, prior_sd²) (module docstring): Brent's bounded search in log T over `BOUNDS`,
    to 1e-6 in log T (the held-out NLL is convex in 1/T, a sum of log-sum-exps of affine functions of it).
    prior_sd = inf: the unpenalised fit (Guo et al.'s own).

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.dirichlet(np.ones(3) * 0.3, 4000)  # true class probabilities
    >>> y = np.array([rng.choice(3, p=p) for p in truth])
    >>> round(fit_temperature(tempered(truth, 2.0), y), 1)  # a model twice too flat: T̂ ≈ ½ undoes it
    0.5
    """
    P = np.asarray(P, dtype=float)
    _log_probabilities(P)
    y = np.asarray(y)
    if y.shape != (len(P),) or not np.issubdtype(y.dtype, np.integer) or np.any((y < 0) | (y >= P.shape[1])):
        raise ValueError(f"y must hold {len(P)} class indices in 0…{P.shape[1] - 1}")
    if len(y) == 0:
        raise ValueError("the temperature needs at least one held-out row")
    if not prior_sd > 0:
        raise ValueError(f"prior_sd must be > 0 (inf: no prior), got {prior_sd!r}")
    bounds = (math.log(BOUNDS[0]), math.log(BOUNDS[1]))
    best = minimize_scalar(
        lambda s: penalised_nll(P, y, math.exp(s), prior_sd), bounds=bounds, method="bounded", options={"xatol": 1e-6}
    )
    return float(math.exp(best.x))
