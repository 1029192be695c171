"""Cholesky factorisation with a bounded, growing jitter, and the inverses built on it (LAPACK directly:
scipy's wrappers cost more than the 100×100 factorisations themselves)."""
from __future__ import annotations

import numpy as np
from scipy.linalg import lapack


class NumericalError(RuntimeError):
    """A matrix stayed numerically non-positive-definite after the largest allowed jitter."""


def _potrf(A: np.ndarray) -> np.ndarray | None:
    L, info = lapack.dpotrf(A, lower=1, clean=1)
    return L if info == 0 else None


def robust_cholesky(A: np.ndarray, name: str, iteration: int | None = None, max_tries: int = 6) -> np.ndarray:
    """Lower Cholesky factor of A (m, m); on failure retry A + jitter·I, jitter = 1e-10·mean|diag A|·100^k.

    Raises NumericalError naming the matrix and the iteration after `max_tries` jittered attempts.
    """
    where = "" if iteration is None else f" at iteration {iteration}"
    if not np.all(np.isfinite(A)):
        raise NumericalError(f"Cholesky of {name}{where}: the matrix has non-finite entries")
    L = _potrf(A)
    if L is not None:
        return L
    scale = max(float(np.mean(np.abs(np.diag(A)))), np.finfo(float).tiny)
    jitter = 0.0
    for k in range(max_tries):
        jitter = 1e-10 * scale * 100.0**k
        L = _potrf(A + jitter * np.eye(len(A)))
        if L is not None:
            return L
    raise NumericalError(
        f"Cholesky of {name}{where} failed even with jitter {jitter:.3g} "
        f"(mean diagonal {scale:.3g}); the matrix is not positive definite"
    )


def triangular_inverse(L: np.ndarray) -> np.ndarray:
    """L⁻¹ for a lower-triangular L (m, m)."""
    L_inv, info = lapack.dtrtri(L, lower=1)
    if info != 0:
        raise NumericalError(f"triangular inverse failed: zero on the diagonal at position {info}")
    return L_inv


def inverse_from_factor_inverse(L_inv: np.ndarray) -> np.ndarray:
    """A⁻¹ = L⁻ᵀ L⁻¹ from the inverse lower factor of A = L Lᵀ, shape (m, m), exactly symmetric."""
    inv = L_inv.T @ L_inv
    return 0.5 * (inv + inv.T)


def log_det_from_cholesky(L: np.ndarray) -> float:
    """log |A| = 2 Σ log L_ii."""
    return 2.0 * float(np.sum(np.log(np.diag(L))))
