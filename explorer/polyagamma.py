"""Pólya-Gamma helpers: θ(c) = E[ω] for ω ~ PG(1, c), KL(PG(1,c) ‖ PG(1,0)), stable log cosh, draws (of PG(1, c), and
of PG(h, c) with whole h ≥ 0 for the multi-class sampler).

PG(ω | 1, c) = cosh(c/2) exp(−c²ω/2) PG(ω | 1, 0)   (Polson et al. 2013; paper appendix "Variational bound").
Draws and densities come from the `polyagamma` package (exact Devroye sampler for h = 1).
"""

from __future__ import annotations

import numpy as np
from polyagamma import polyagamma_pdf, random_polyagamma

_TINY = 1e-300  # |c| is floored here: θ(0) = tanh(½·1e-300)/(2e-300) = 1/4 exactly


def log_cosh(x: np.ndarray) -> np.ndarray:
    """log cosh(x) = logaddexp(x, −x) − log 2, stable for large |x|."""
    x = np.asarray(x, dtype=float)
    return np.logaddexp(x, -x) - np.log(2.0)


def pg_mean(c: np.ndarray) -> np.ndarray:
    """θ(c) = E[ω] = tanh(c/2) / (2c) for ω ~ PG(1, c), limit 1/4 at c = 0.  Any shape.

    No series is needed near 0: tanh is computed to full relative precision for small arguments, so the quotient
    is as accurate at c = 1e-12 as at c = 1; only c = 0 itself is special, handled by flooring |c| at 1e-300.
    """
    c = np.maximum(np.abs(c), _TINY)
    return np.tanh(0.5 * c) / (c + c)


def kl_to_prior(c: np.ndarray) -> np.ndarray:
    """KL(PG(1,c) ‖ PG(1,0)) = log cosh(c/2) − (c²/2) θ(c), elementwise (paper appendix)."""
    return kl_between(c, 0.0)


def kl_between(c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """KL(PG(1,c) ‖ PG(1,d)) = log cosh(c/2) − log cosh(d/2) − ((c² − d²)/2) θ(c), elementwise."""
    c = np.asarray(c, dtype=float)
    d = np.asarray(d, dtype=float)
    return log_cosh(c / 2.0) - log_cosh(d / 2.0) - 0.5 * (c * c - d * d) * pg_mean(c)


def sample(c: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One exact draw ω_i ~ PG(1, c_i) per entry of c (Devroye's sampler), same shape as c."""
    c = np.asarray(c, dtype=float)
    return np.asarray(random_polyagamma(1.0, c, method="devroye", random_state=rng), dtype=float).reshape(c.shape)


def sample_whole_shape(h: np.ndarray, c: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One exact draw ω_i ~ PG(h_i, c_i) per entry for whole shapes h_i ≥ 0 (Devroye's sampler, a sum of h_i PG(1, c_i)
    draws); PG(0, c) is the point mass at 0, so ω_i = 0 where h_i = 0. h and c broadcast; the result has their shape."""
    h, c = np.broadcast_arrays(np.asarray(h, dtype=float), np.asarray(c, dtype=float))
    omega = np.zeros(h.shape)
    drawn = h > 0
    if drawn.any():
        omega[drawn] = random_polyagamma(h[drawn], c[drawn], method="devroye", random_state=rng)
    return omega


def density(omega: np.ndarray, c: float = 0.0) -> np.ndarray:
    """PG(ω | 1, c) evaluated at ω ≥ 0, same shape as ω."""
    return polyagamma_pdf(np.asarray(omega, dtype=float), h=1.0, z=c)
