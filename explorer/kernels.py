"""Squared-exponential (RBF) kernel with a diagonal nugget, and its gradients in log-parameters.

k(x, x') = σ² exp(−‖(x − x')/ℓ‖² / 2)   (DESIGN §2; one lengthscale as in the paper, or one per feature: ARD)

The nugget γ is a white-noise term on the latent f: it is added to the diagonal of K_mm, to k(x_i, x_i) in K̃ and
to k** in predictions, never to cross-covariances between distinct variables.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class KernelParameterError(ValueError):
    """A kernel parameter is not a finite positive number."""


@dataclass(frozen=True)
class RBF:
    """RBF kernel parameters. ``lengthscale`` has shape (1,) (isotropic) or (d,) (ARD)."""

    lengthscale: np.ndarray
    variance: float = 1.0
    nugget: float = 1e-6

    def __post_init__(self):
        lengthscale = np.atleast_1d(np.asarray(self.lengthscale, dtype=float)).copy()
        if lengthscale.ndim != 1 or lengthscale.size == 0:
            raise KernelParameterError(f"lengthscale must be a scalar or a 1-D array, got shape {lengthscale.shape}")
        for name, value in (("lengthscale", lengthscale), ("variance", self.variance), ("nugget", self.nugget)):
            value = np.asarray(value, dtype=float)
            if not np.all(np.isfinite(value)) or np.any(value <= 0):
                raise KernelParameterError(f"kernel {name} must be finite and > 0, got {value.tolist()}")
        lengthscale.setflags(write=False)
        object.__setattr__(self, "lengthscale", lengthscale)
        object.__setattr__(self, "variance", float(self.variance))
        object.__setattr__(self, "nugget", float(self.nugget))

    @property
    def ard(self) -> bool:
        return self.lengthscale.size > 1

    @property
    def log_params(self) -> np.ndarray:
        """Learnable parameters θ = (log ℓ_1..ℓ_L, log σ²), shape (L + 1,)."""
        return np.append(np.log(self.lengthscale), np.log(self.variance))

    def with_log_params(self, log_params: np.ndarray) -> "RBF":
        """A copy with θ = (log ℓ, log σ²) replaced; the nugget is kept."""
        log_params = np.asarray(log_params, dtype=float)
        return RBF(np.exp(log_params[:-1]), float(np.exp(log_params[-1])), self.nugget)

    def check_dimension(self, d: int) -> None:
        if self.ard and self.lengthscale.size != d:
            raise KernelParameterError(f"ARD lengthscale has {self.lengthscale.size} entries but the data has {d} features")

    def cross(self, X1: np.ndarray, X2: np.ndarray) -> np.ndarray:
        """K(X1, X2) without nugget, shape (n1, n2): σ² exp(AᵀB − ½‖A‖² − ½‖B‖²) with A = X1/ℓ, B = X2/ℓ."""
        A = X1 / self.lengthscale
        B = X2 / self.lengthscale
        log_k = A @ B.T
        log_k -= 0.5 * np.einsum("ij,ij->i", A, A)[:, None]
        log_k -= 0.5 * np.einsum("ij,ij->i", B, B)[None, :]
        np.minimum(log_k, 0.0, out=log_k)
        np.exp(log_k, out=log_k)
        log_k *= self.variance
        return log_k

    def gram(self, Z: np.ndarray) -> np.ndarray:
        """K(Z, Z) + γI, shape (m, m), exactly symmetric."""
        K = self.cross(Z, Z)
        K = 0.5 * (K + K.T)
        K[np.diag_indices_from(K)] = self.variance + self.nugget
        return K

    def diag(self, n: int) -> np.ndarray:
        """k(x_i, x_i) + γ = σ² + γ for every i, shape (n,)."""
        return np.full(n, self.variance + self.nugget)

    def contract_gradient(self, X1: np.ndarray, X2: np.ndarray, K: np.ndarray, G: np.ndarray) -> np.ndarray:
        """Σ_ij G_ij ∂K_ij/∂θ for θ = (log ℓ, log σ²), given K = cross(X1, X2) (no nugget). Shape (L + 1,).

        ∂K/∂log σ² = K;  ∂K_ij/∂log ℓ_d = K_ij (x1_id − x2_jd)² / ℓ_d²  (summed over d when isotropic).
        """
        H = K * G
        row, col = H.sum(1), H.sum(0)
        A = X1 / self.lengthscale
        B = X2 / self.lengthscale
        per_dim = row @ (A * A) + col @ (B * B) - 2.0 * np.einsum("id,id->d", A, H @ B)
        grad_ls = per_dim if self.ard else np.array([per_dim.sum()])
        return np.append(grad_ls, H.sum())
