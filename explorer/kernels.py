"""Squared-exponential (RBF) kernel with a diagonal nugget, and its gradients in log-parameters.

k(x, x') = σ² exp(−‖(x − x')/ℓ‖² / 2)   (DESIGN §2; one lengthscale as in the paper, or one per feature: ARD)

The nugget γ is a white-noise term on the latent f: it is added to the diagonal of K_mm, to k(x_i, x_i) in K̃ and
to k** in predictions, never to cross-covariances between distinct variables.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# log k is clipped below at −700 before exp: k < 1e-304 is zero for every purpose, and exp of values that
# underflow to subnormals is ~20× slower than exp of ordinary values.
_LOG_K_MIN = -700.0


class KernelParameterError(ValueError):
    """A kernel parameter is not a finite positive number."""


def _check_positive(name: str, value) -> None:
    array = np.asarray(value, dtype=float)
    if not (array.min() > 0 and array.max() < np.inf):  # NaN fails the first comparison
        raise KernelParameterError(f"kernel {name} must be finite and > 0, got {array.tolist()}")


@dataclass(frozen=True)
class RBF:
    """RBF kernel parameters. ``lengthscale`` has shape (1,) (isotropic) or (d,) (ARD)."""

    lengthscale: np.ndarray
    variance: float = 1.0
    nugget: float = 1e-6

    def __post_init__(self):
        lengthscale = np.array(self.lengthscale, dtype=float, ndmin=1)
        if lengthscale.ndim != 1 or lengthscale.size == 0:
            raise KernelParameterError(f"lengthscale must be a scalar or a 1-D array, got shape {lengthscale.shape}")
        _check_positive("lengthscale", lengthscale)
        for name in ("variance", "nugget"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                _check_positive(name, value)
        lengthscale.setflags(write=False)
        object.__setattr__(self, "lengthscale", lengthscale)
        object.__setattr__(self, "variance", float(self.variance))
        object.__setattr__(self, "nugget", float(self.nugget))

    @property
    def ard(self) -> bool:
        return self.lengthscale.size > 1

    @property
    def mean_lengthscale(self) -> float:
        """Geometric mean of the lengthscales (the lengthscale itself when isotropic)."""
        return float(np.exp(np.mean(np.log(self.lengthscale))))

    @property
    def log_params(self) -> np.ndarray:
        """Learnable parameters θ = (log ℓ_1..ℓ_L, log σ²), shape (L + 1,)."""
        return np.log(np.concatenate([self.lengthscale, [self.variance]]))

    def with_log_params(self, log_params: np.ndarray) -> "RBF":
        """A copy with θ = (log ℓ, log σ²) replaced; the nugget is kept."""
        params = np.exp(np.asarray(log_params, dtype=float))
        return RBF(params[:-1], float(params[-1]), self.nugget)

    def check_dimension(self, d: int) -> None:
        if self.ard and self.lengthscale.size != d:
            raise KernelParameterError(f"ARD lengthscale has {self.lengthscale.size} entries but the data has {d} features")

    def features(self, X2: np.ndarray) -> np.ndarray:
        """Right-hand factor of log K(·, X2): rows (b_j, log σ² − ½‖b_j‖², 1) with b_j = x2_j/ℓ, shape (n2, d + 2).
        It changes only with the kernel parameters: compute it once for fixed inducing inputs."""
        B = X2 / self.lengthscale
        F = np.empty((len(B), B.shape[1] + 2))
        F[:, :-2] = B
        F[:, -2] = math.log(self.variance) - 0.5 * np.einsum("ij,ij->i", B, B)
        F[:, -1] = 1.0
        return F

    def cross_from_features(self, X1: np.ndarray, features: np.ndarray) -> np.ndarray:
        """K(X1, X2) without nugget, shape (n1, n2), from `features(X2)`: log K = Ã F̃ᵀ with Ã rows
        (a_i, 1, −½‖a_i‖²), a_i = x1_i/ℓ, i.e. aᵀb − ½‖a‖² − ½‖b‖² + log σ² in one matrix product, clipped
        below at −700 and exponentiated in place."""
        a = X1 / self.lengthscale
        A = np.empty((len(a), a.shape[1] + 2))
        A[:, :-2] = a
        A[:, -2] = 1.0
        A[:, -1] = -0.5 * np.einsum("ij,ij->i", a, a)
        log_k = A @ features.T
        np.maximum(log_k, _LOG_K_MIN, out=log_k)
        return np.exp(log_k, out=log_k)

    def cross(self, X1: np.ndarray, X2: np.ndarray) -> np.ndarray:
        """K(X1, X2) without nugget, shape (n1, n2)."""
        return self.cross_from_features(X1, self.features(X2))

    def gram(self, Z: np.ndarray, cross: np.ndarray | None = None) -> np.ndarray:
        """K(Z, Z) + γI, shape (m, m), exactly symmetric; pass `cross` = cross(Z, Z) if it is already computed."""
        K = self.cross(Z, Z) if cross is None else cross
        K = 0.5 * (K + K.T)
        np.fill_diagonal(K, self.variance + self.nugget)
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
        grad = np.empty(self.lengthscale.size + 1)
        grad[:-1] = per_dim if self.ard else per_dim.sum()
        grad[-1] = row.sum()
        return grad
