"""Cholesky factorisation with a bounded, growing jitter, the inverses built on it, and the Gaussian KL divergence.

LAPACK directly: scipy's wrappers cost more than the 100×100 factorisations themselves. A C-ordered symmetric A is
passed as its Fortran-ordered transpose Aᵀ (= A), so no transposing copy is made; factors come back in Fortran order.
"""

from __future__ import annotations

import ctypes
import math
from functools import cached_property

import numpy as np
from scipy.linalg import blas, cython_blas, lapack

# jitter·mean|diag A| for the retries: 1e-10, 1e-9, …, 1e-4. The last keeps a genuinely indefinite matrix an error
# (eigenvalue below −1e-4 of the mean diagonal) instead of hiding it under a large ridge.
_JITTERS = 10.0 ** np.arange(-10, -3)


def _blas_routine(name: str, *argtypes) -> ctypes.CFUNCTYPE:
    """SciPy's own BLAS routine `name` (the one its `scipy.linalg.blas` wrappers call), called through ctypes, which
    releases the GIL for the call: the wrappers hold it, so a long solve in one thread stalls every other Python
    thread (a served session's training stalls the server's event loop)."""
    capsule = cython_blas.__pyx_capi__[name]
    ctypes.pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
    ctypes.pythonapi.PyCapsule_GetName.argtypes = [ctypes.py_object]
    ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    address = ctypes.pythonapi.PyCapsule_GetPointer(capsule, ctypes.pythonapi.PyCapsule_GetName(capsule))
    return ctypes.CFUNCTYPE(None, *argtypes)(address)


_int, _double = ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_double)
_dtrsm = _blas_routine(
    "dtrsm", *[ctypes.c_char_p] * 4, _int, _int, _double, ctypes.c_void_p, _int, ctypes.c_void_p, _int
)


def lower_triangular_solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """L⁻¹B (m, n) for a lower-triangular L (m, m) and B (m, n): BLAS dtrsm, the very call of
    `scipy.linalg.blas.dtrsm(1.0, L, B, lower=1)` (same routine, same Fortran-ordered copies, so the same bits),
    without holding the GIL meanwhile. Returned in Fortran order."""
    a = np.asfortranarray(L, dtype=np.float64)
    b = np.array(B, dtype=np.float64, order="F")
    m, n = b.shape
    if a.shape != (m, m):
        raise ValueError(f"L must be ({m}, {m}) for B of shape {b.shape}, got {a.shape}")
    if m and n:
        lead = ctypes.c_int(m)
        _dtrsm(
            b"L",
            b"L",
            b"N",
            b"N",
            lead,
            ctypes.c_int(n),
            ctypes.c_double(1.0),
            a.ctypes.data,
            lead,
            b.ctypes.data,
            lead,
        )
    return b


class NumericalError(RuntimeError):
    """A matrix stayed numerically non-positive-definite after the largest allowed jitter."""


def cholesky_over(A: np.ndarray) -> np.ndarray | None:
    """Lower Cholesky factor of a symmetric, C-contiguous A (m, m) written over A itself (no copy): returned as the
    Fortran-ordered view Aᵀ, zeros above its diagonal, so A then holds Lᵀ; None when A is not numerically positive
    definite (A's contents are then undefined)."""
    L, info = lapack.dpotrf(A.T, lower=1, clean=1, overwrite_a=1)
    # an infinite pivot makes every later one NaN, which LAPACK reports, except the last: check it here
    return L if info == 0 and math.isfinite(L[-1, -1]) else None


def robust_cholesky(A: np.ndarray, name: str, iteration: int | None = None) -> np.ndarray:
    """Lower Cholesky factor L of a symmetric A (m, m), L Lᵀ = A; on failure retry A + jitter·I with
    jitter = mean|diag A|·(1e-10, 1e-9, …, 1e-4). A is not modified.

    Raises NumericalError naming the matrix and the iteration when A has non-finite entries or every try fails.
    """
    where = "" if iteration is None else f" at iteration {iteration}"
    L = cholesky_over(np.array(A, dtype=float, order="C"))
    if L is not None:
        return L
    if not np.all(np.isfinite(A)):
        raise NumericalError(f"Cholesky of {name}{where}: the matrix has non-finite entries")
    scale = max(float(np.mean(np.abs(np.diag(A)))), np.finfo(float).tiny)
    jitter = 0.0
    for relative in _JITTERS:
        jitter = relative * scale
        L = cholesky_over(A + jitter * np.eye(len(A)))
        if L is not None:
            return L
    raise NumericalError(
        f"Cholesky of {name}{where} failed even with jitter {jitter:.3g} "
        f"(mean diagonal {scale:.3g}); the matrix is not positive definite"
    )


def triangular_inverse(L: np.ndarray) -> np.ndarray:
    """L⁻¹ for a lower-triangular L (m, m), zeros above the diagonal."""
    L_inv, info = lapack.dtrtri(L, lower=1)
    if info != 0:
        raise NumericalError(f"triangular inverse failed: zero on the diagonal at position {info}")
    return L_inv


def inverse_from_factor_inverse(L_inv: np.ndarray) -> np.ndarray:
    """A⁻¹ = L⁻ᵀ L⁻¹ from the inverse lower factor of A = L Lᵀ, shape (m, m), exactly symmetric (numpy computes
    `B.T @ B` with a symmetric rank-k update)."""
    return L_inv.T @ L_inv


class Gaussian:
    """A Gaussian from its natural parameters Λ (m, m) and h (m,): L and L⁻¹ (Λ = LLᵀ, lower triangular; `robust_cholesky`
    naming `name` and `iteration` if Λ is not positive definite), μ = Λ⁻¹h, the log normaliser Ψ = ½hᵀμ − ½log|Λ|
    (without (m/2)log 2π), and Σ = L⁻ᵀL⁻¹ when asked. Never changed after construction (a new one is a new object)."""

    def __init__(self, precision: np.ndarray, shift: np.ndarray, name: str, iteration: int):
        self.L = L = robust_cholesky(precision, name, iteration)
        self.shift, self.L_inv = shift, triangular_inverse(L)
        self.mu = self.L_inv.T @ (self.L_inv @ shift)
        self.log_normaliser = 0.5 * float(shift @ self.mu) - float(np.sum(np.log(np.diag(L))))

    @cached_property
    def Sigma(self) -> np.ndarray:
        """Σ = Λ⁻¹, (m, m)."""
        return inverse_from_factor_inverse(self.L_inv)

    def quadratic_forms(self, rows: np.ndarray) -> np.ndarray:
        """diag(RΣRᵀ) for R (s, m) → (s,)."""
        V = rows @ self.L_inv.T
        return np.einsum("ij,ij->i", V, V)

    def sandwich(self, B: np.ndarray) -> np.ndarray:
        """BΣB for a symmetric B (m, m), as CᵀC with C = L⁻¹B (a triangular product and a symmetric rank-m update)."""
        C = blas.dtrmm(1.0, self.L_inv, B, lower=1)
        return C.T @ C


def log_det_from_cholesky(L: np.ndarray) -> float:
    """log |A| = 2 Σ log L_ii."""
    return 2.0 * float(np.sum(np.log(np.diag(L))))


def gaussian_kl(
    mu: np.ndarray, L_precision: np.ndarray, L_precision_inv: np.ndarray, L_prior: np.ndarray, L_prior_inv: np.ndarray
) -> float:
    """KL(N(μ, Σ) ‖ N(0, K)) = ½[tr(K⁻¹Σ) + μᵀK⁻¹μ − m + log|K| − log|Σ|], with Σ⁻¹ = L_P L_Pᵀ, K = L_K L_Kᵀ
    and the inverse factors L_P⁻¹, L_K⁻¹ (all (m, m))."""
    M = L_prior_inv @ L_precision_inv.T  # K⁻¹Σ has trace ‖L_K⁻¹ L_P⁻ᵀ‖²_F
    alpha = L_prior_inv @ mu
    return 0.5 * (
        float(np.sum(M * M))
        + float(alpha @ alpha)
        - len(mu)
        + log_det_from_cholesky(L_prior)
        + log_det_from_cholesky(L_precision)
    )
