"""The conjugate natural-gradient targets X-GPC and the non-augmented SVGP share (paper eq. natural_gradients).

X-GPC's step moves η toward λ̂ built from the minibatch's labels y and PG means θ; the natural-gradient SVGP reaches
the same closed form at the pseudo-data (ỹ, θ̃) whose augmented term has its expected log-likelihood's slopes
(`pseudo_data`), so its step is X-GPC's at (ỹ, θ̃). Labels here are ±1 (X-GPC) or real pseudo-labels (SVGP).
"""

from __future__ import annotations

import numpy as np


def natural_gradient_targets(
    kappa: np.ndarray, y: np.ndarray, theta: np.ndarray, K_inv: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Eq. (natural_gradients) without −η: λ̂₁ = (n/2s) κ_Sᵀ y_S (m,), λ̂₂ = −½(K_mm⁻¹ + (n/s) κ_Sᵀ Θ_S κ_S) (m, m),
    exactly symmetric when K_inv is: ½(n/s)κᵀΘκ = BᵀB with B = (½(n/s)θ)^½ ∘ κ, a symmetric rank-s update."""
    scale = n / len(y)
    B = np.sqrt((0.5 * scale) * theta)[:, None] * kappa
    lam2 = -0.5 * K_inv
    lam2 -= B.T @ B
    return (0.5 * scale) * (y @ kappa), lam2


def pseudo_data(a: np.ndarray, g_a: np.ndarray, g_v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ỹ, θ̃) = (2(g_a + θ̃a), −2g_v): the X-GPC labels and PG means whose augmented term has the gradients (g_a, g_v)
    in (a, v). Shapes (s,)."""
    theta = -2.0 * g_v
    return 2.0 * (g_a + theta * a), theta
