"""Kernel hyperparameter learning: the analytic gradient of the minibatch ELBO in θ = (log ℓ, log σ²), and Adam.

With q(u) = N(μ, Σ) held fixed and c at its optimum (so ∂L/∂c = 0), for A = K_mm⁻¹, κ = K_sm A, u = ½y − θ∘(κμ),
P = κᵀΘκ, v = κᵀu, M = ΣA − I and Q = ½A + (n/s)P:
  ∂L̂ = Σ G_sm ∘ ∂K_sm + Σ G_mm ∘ ∂K_mm − ½ (n/s) Σ_i θ_i ∂k_ii, with
  G_sm = (n/s)(u(Aμ)ᵀ − ΘκM),   G_mm = QM + (½Aμ − (n/s)v)(Aμ)ᵀ + ½(n/s)P.
(Derivation: ∂κ = ∂K_sm A − κ ∂K_mm A and ∂K̃_ii = ∂k_ii − 2∂K_im κ_iᵀ + κ_i ∂K_mm κ_iᵀ in the per-point terms of
eq. variational_bound, and −∂KL = ½⟨AΣA + AμμᵀA − A, ∂K_mm⟩.)
Computed without forming Σ or M: with N = AΣA = CᵀC, C = L_P⁻¹A (Σ⁻¹ = L_PL_Pᵀ) and T = κΣA = K_sm N,
  ΘκM = Θ(T − κ), and with R = Θ(T − ½κ) − u(Aμ)ᵀ (s, m):
  G_sm = (n/s)(½Θκ − R) = (n/s)(Θ(κ − T) + u(Aμ)ᵀ),   G_mm = (n/s)κᵀR + ½(N − A + Aμ(Aμ)ᵀ),
one triangular solve, one symmetric rank-m update and two s×m×m products (QM's m×m×m products are gone).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np
from scipy.linalg import blas

from explorer.kernels import Kernel, KernelParameterError
from explorer.linalg import NumericalError, lower_triangular_solve


class KernelLearningError(NumericalError):
    """A kernel-learning step diverged: its gradient or the new (ℓ, σ²) were not finite, or the new kernel matrix
    could not be factorised. The engine's state is that before the failing iteration."""


LEARNED_PARAMETER_LIMIT = 1e100
"""Kernel learning that takes a lengthscale or variance beyond [1e−100, 1e100] (standardised units) has diverged."""


def learned_kernel(kernel: Kernel) -> Kernel:
    """`kernel` when every parameter learned so far lies within [1/LEARNED_PARAMETER_LIMIT, LEARNED_PARAMETER_LIMIT];
    else KernelParameterError naming them (finite but absurd values: the next steps would overflow)."""
    limit = math.log(LEARNED_PARAMETER_LIMIT)
    if not all(abs(math.log(value)) <= limit for value in (*kernel.lengthscale.tolist(), kernel.variance)):
        raise KernelParameterError(
            f"learned kernel parameters outside [1e-100, 1e100]: lengthscale "
            f"{kernel.lengthscale.tolist()}, variance {kernel.variance:.4g}"
        )
    return kernel


@contextmanager
def kernel_step_guard(kernel: Kernel, iteration: int):
    """Around one kernel-learning step from `kernel` at `iteration`: a non-finite, non-positive or absurd new
    parameter (KernelParameterError; see `learned_kernel`) or a failed factorisation of the new kernel
    (NumericalError) becomes KernelLearningError with advice."""
    try:
        yield
    except KernelLearningError:
        raise
    except (KernelParameterError, NumericalError) as err:
        raise KernelLearningError(
            f"kernel learning diverged at iteration {iteration} (from lengthscale {kernel.lengthscale.tolist()}, "
            f"variance {kernel.variance:.4g}): {err}. Lower the kernel learning rate (hyper_learning_rate) or turn "
            f"kernel learning off"
        ) from err


def posterior_products(
    L_P: np.ndarray, K_inv: np.ndarray, K_sm: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """N = AΣA (m, m) as CᵀC with C = L_P⁻¹A (Σ⁻¹ = L_PL_Pᵀ, L_P lower triangular: one triangular solve), and
    T = κΣA = K_sm N (s, m) when K_sm is given (None otherwise). Then diag(κΣκᵀ) = rowsum(T ∘ K_sm), as the local
    step needs."""
    C = lower_triangular_solve(L_P, K_inv.T)  # K_inv symmetric: its transpose is it in Fortran order; no GIL held
    N = C.T @ C  # a symmetric rank-m update
    return N, None if K_sm is None else K_sm @ N


def elbo_kernel_gradient(
    kernel: Kernel,
    X_batch: np.ndarray,
    y_batch: np.ndarray,
    Z: np.ndarray,
    n: int,
    mu: np.ndarray,
    L_P: np.ndarray,
    K_inv: np.ndarray,
    kappa: np.ndarray,
    K_sm: np.ndarray,
    theta: np.ndarray | None,
    full: bool = False,
    K_zz: np.ndarray | None = None,
    products: tuple | None = None,
    kappa_mu: np.ndarray | None = None,
) -> np.ndarray:
    """∂L̂/∂(log ℓ, log σ²) of the minibatch ELBO (n/s)Σ_S(…) − KL. Shapes: X_batch (s, d), Z (m, d), mu (m,),
    L_P (m, m) lower triangular with Σ⁻¹ = L_P L_Pᵀ, K_inv (m, m), kappa/K_sm (s, m), theta (s,);
    K_zz = kernel.cross(Z, Z), products = posterior_products(L_P, K_inv, K_sm) (both of its arrays are overwritten)
    and kappa_mu = κμ (s,) if already computed.
    Returns (L + 1,). In the non-sparse mode (u = f) only the KL term depends on the kernel (theta is unused)."""
    K_zz = kernel.cross(Z, Z) if K_zz is None else K_zz
    N, T = posterior_products(L_P, K_inv, None if full else K_sm) if products is None else products
    A_mu = K_inv @ mu
    N -= K_inv
    N = blas.dger(1.0, A_mu, A_mu, a=N.T, overwrite_a=1).T  # N − A + Aμ(Aμ)ᵀ, in place (symmetric)
    if full:
        N *= 0.5
        return kernel.contract_gradient(Z, Z, K_zz, N)
    s = len(y_batch)
    scale = n / s
    u = 0.5 * y_batch - theta * (kappa @ mu if kappa_mu is None else kappa_mu)
    G = np.empty((s + len(Z), len(Z)))  # rows (G_sm; G_mm)/(n/s): both blocks share X2 = Z, contracted at once
    G_sm, G_mm = G[:s], G[s:]
    np.subtract(kappa, T, out=G_sm)
    G_sm *= theta[:, None]
    blas.dger(1.0, A_mu, u, a=G_sm.T, overwrite_a=1)  # G_sm/(n/s) = Θ(κ − T) + u(Aμ)ᵀ, in place
    R = np.multiply((0.5 * theta)[:, None], kappa, out=T)
    R -= G_sm  # R = ½Θκ − G_sm/(n/s), in T's place
    np.matmul(kappa.T, R, out=G_mm)
    blas.daxpy(N.ravel(), G_mm.ravel(), a=0.5 / scale)  # G_mm/(n/s) = κᵀR + ½(N − A + Aμ(Aμ)ᵀ)/(n/s), in place
    grad = kernel.contract_gradient(np.concatenate([X_batch, Z]), Z, np.concatenate([K_sm, K_zz]), G)
    grad *= scale
    grad[-1] -= 0.5 * scale * kernel.variance * theta.sum()
    return grad


def stacked_posterior_products(L_P: np.ndarray, K_inv: np.ndarray, K_sm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`posterior_products` of J latent functions at once: N (m, J, m), N[:, j] = N_j = AΣ_jA = C_jᵀC_j with
    C_jᵀ = AL_P,j⁻ᵀ (A symmetric: a triangular solve from the right, BLAS trsm, at m = 50 about two thirds of the
    time of the left solve L_P,j⁻¹A; then a symmetric rank-m update), and T (s, J, m), T[:, j] = T_j = K_sm N_j, all J
    in one product K_sm (N_0 … N_J−1). L_P (J, m, m) lower triangular with Σ_j⁻¹ = L_P,j L_P,jᵀ, K_inv = A (m, m),
    K_sm (s, m)."""
    (J, m), s = L_P.shape[:2], len(K_sm)
    N = np.empty((m, J, m))
    for j, L in enumerate(L_P):
        C_t = blas.dtrsm(1.0, L, K_inv, side=1, lower=1, trans_a=1)  # AL⁻ᵀ
        np.matmul(C_t, C_t.T, out=N[:, j])  # a symmetric rank-m update (numpy's product of a matrix with its transpose)
    return N, np.matmul(K_sm, N.reshape(m, J * m)).reshape(s, J, m)


def summed_kernel_gradient(
    kernel: Kernel,
    X_batch: np.ndarray,
    Z: np.ndarray,
    K_zz: np.ndarray,
    n: int,
    mu: np.ndarray,
    K_inv: np.ndarray,
    kappa: np.ndarray,
    K_sm: np.ndarray,
    N: np.ndarray,
    T: np.ndarray,
    labels: np.ndarray,
    theta: np.ndarray,
    kappa_mu: np.ndarray,
) -> np.ndarray:
    """Σ_j of `elbo_kernel_gradient` over J latent functions that share the kernel, Z and the minibatch (sparse mode),
    at their pseudo-data (labels[:, j], theta[:, j]). That gradient is the kernel's `contract_gradient` of an adjoint
    matrix G_j, linear in it, so the J adjoints are summed and contracted once (one kernel derivative pass, not J):

        G_sm,j/(n/s) = Θ_j(κ − T_j) + u_j(Aμ_j)ᵀ,  u_j = ½y_j − θ_j∘κμ_j,  T_j = K_sm N_j,  N_j = AΣ_jA,  A = K_mm⁻¹
        G_mm,j/(n/s) = κᵀ(½Θ_jκ − G_sm,j/(n/s)) + ½(N_j − A + Aμ_j(Aμ_j)ᵀ)/(n/s)

    and ∂/∂log σ² gains −½(n/s)σ² Σ_j Σ_i θ_ij. Shapes: X_batch (s, d), Z (m, d), K_zz = kernel.cross(Z, Z), mu (J, m),
    kappa/K_sm (s, m), (N (m, J, m), T (s, J, m)) = `stacked_posterior_products(L_P, K_inv, K_sm)` (T is overwritten),
    labels/theta/kappa_mu = κμ_j (s, J). Returns (L + 1,)."""
    s, m, scale = len(X_batch), len(Z), n / len(X_batch)
    A_mu = mu @ K_inv  # (J, m): rows (Aμ_j)ᵀ, A symmetric
    theta_sum = theta.sum(axis=1)
    G = np.empty((s + m, m))  # (Σ_j G_sm,j; Σ_j G_mm,j)/(n/s): both blocks share X2 = Z
    G_sm, G_mm = G[:s], G[s:]
    np.multiply(theta_sum[:, None], kappa, out=G_sm)
    G_sm += (0.5 * labels - theta * kappa_mu) @ A_mu
    T *= theta[:, :, None]
    G_sm -= T.sum(axis=1)
    R = np.multiply((0.5 * theta_sum)[:, None], kappa)
    R -= G_sm
    np.matmul(kappa.T, R, out=G_mm)
    N_sum = N.sum(axis=1)
    N_sum -= len(mu) * K_inv
    N_sum += A_mu.T @ A_mu
    G_mm += (0.5 / scale) * N_sum
    gradient = kernel.contract_gradient(np.concatenate([X_batch, Z]), Z, np.concatenate([K_sm, K_zz]), G)
    gradient *= scale
    gradient[-1] -= 0.5 * scale * kernel.variance * theta_sum.sum()
    return gradient


def whitened_kernel_gradient(
    kernel: Kernel,
    X_batch: np.ndarray,
    Z: np.ndarray,
    K_sm: np.ndarray,
    K_zz: np.ndarray,
    L_K: np.ndarray,
    L_K_inv: np.ndarray,
    m_w: np.ndarray,
    S_w: np.ndarray,
    g_a: np.ndarray,
    g_v: np.ndarray,
    scale: float,
    beta: np.ndarray | None = None,
) -> np.ndarray:
    """∂L̂/∂(log ℓ, log σ²) of a minibatch bound scale·Σ_i F_i(a_i, v_i) − KL with q(w) = N(m_w, S_w) held fixed in
    whitened coordinates u = L_K w (K_mm = L_K L_Kᵀ; the KL to N(0, I) then does not depend on the kernel).
    a = βᵀm_w, v = k_ii − ‖β_i‖² + β_iᵀS_wβ_i with β = L_K⁻¹K_ms (m, s); g_a = ∂F/∂a, g_v = ∂F/∂v (s,).
    Only β and k_ii carry the kernel: Ḡ_β = scale(m_w g_aᵀ + 2(S_w − I)β diag(g_v)), ∂K_ms = L_K⁻ᵀḠ_β,
    ∂L_K = −tril(∂K_ms βᵀ) → ∂K_mm by the Cholesky backward pass (Murray 2016: symmetric L_K⁻ᵀΦ(L_Kᵀ∂L_K)L_K⁻¹, Φ the
    lower triangle with halved diagonal); ∂k_ii/∂log σ² = σ².
    Shapes: X_batch (s, d), Z (m, d), K_sm (s, m), K_zz = K(Z, Z) (m, m), L_K, L_K_inv (m, m) lower triangular;
    `beta` if already computed."""
    beta = L_K_inv @ K_sm.T if beta is None else beta
    S_minus_I = S_w - np.eye(len(m_w))
    G_beta = scale * (np.outer(m_w, g_a) + 2.0 * (S_minus_I @ beta) * g_v)
    G_Kms = L_K_inv.T @ G_beta
    P = np.tril(L_K.T @ np.tril(-G_Kms @ beta.T))
    P[np.diag_indices_from(P)] *= 0.5
    G_Kmm = L_K_inv.T @ P @ L_K_inv
    G_Kmm = 0.5 * (G_Kmm + G_Kmm.T)
    gradient = kernel.contract_gradient(X_batch, Z, K_sm, G_Kms.T) + kernel.contract_gradient(Z, Z, K_zz, G_Kmm)
    gradient[-1] += scale * kernel.variance * g_v.sum()
    return gradient


class LogNormalKernelPrior:
    """A weak log-normal prior on a kernel's parameters, added to the bound its kernel step ascends: every log ℓ_j
    and log σ² independently N(centre, scale²) (`centre` the kernel's `log_params` layout, (L + 1,); `scale` in
    nats of log-parameter). The kernel step then ascends L̂ + log p(θ), a MAP estimate of θ; where the bound is
    nearly flat along a direction (σ² and ℓ growing together towards a near-linear latent function on separable
    data) the prior's −(θ − centre)/scale² stops the drift, and where the data speak it moves θ by
    O(1/scale²) nats against the bound's O(n). The bound is ≤ 0, so bound + log p(θ) → −∞ as θ leaves any ball:
    the objective has a finite maximiser whatever the data."""

    def __init__(self, centre: np.ndarray, scale: float):
        if not (math.isfinite(scale) and scale > 0):
            raise ValueError(f"the kernel prior's scale must be a finite number above 0, got {scale!r}")
        self.centre, self.scale = np.array(centre, dtype=float), float(scale)
        self.centre.setflags(write=False)

    def log_density(self, log_params: np.ndarray) -> float:
        """log p(θ) at log-parameters θ (L + 1,), with its normalising constant."""
        z = (np.asarray(log_params, dtype=float) - self.centre) / self.scale
        return float(-0.5 * z @ z - len(z) * (math.log(self.scale) + 0.5 * math.log(2.0 * math.pi)))

    def gradient(self, log_params: np.ndarray) -> np.ndarray:
        """∂ log p(θ)/∂θ = −(θ − centre)/scale², (L + 1,)."""
        return (self.centre - np.asarray(log_params, dtype=float)) / self.scale**2


class Adam:
    """Adam ascent on a parameter vector (Kingma & Ba 2015): x ← x + lr · m̂ / (√v̂ + ε)."""

    def __init__(self, learning_rate: float = 0.01, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        if learning_rate <= 0:
            raise ValueError(f"Adam learning rate must be > 0, got {learning_rate}")
        self.learning_rate, self.beta1, self.beta2, self.eps = float(learning_rate), beta1, beta2, eps
        self.m: np.ndarray | None = None
        self.v: np.ndarray | None = None
        self.t = 0

    def ascend(self, x: np.ndarray, gradient: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """One ascent step from x along `gradient` with the learning rate times `scale`; returns the new x (same
        shape)."""
        if self.m is None:
            self.m, self.v = np.zeros_like(x), np.zeros_like(x)
        self.t += 1
        self.m = self.beta1 * self.m + (1 - self.beta1) * gradient
        self.v = self.beta2 * self.v + (1 - self.beta2) * gradient * gradient
        m_hat_scale, v_hat_scale = 1 / (1 - self.beta1**self.t), 1 / (1 - self.beta2**self.t)  # bias corrections
        return x + (scale * self.learning_rate * m_hat_scale) * self.m / (np.sqrt(v_hat_scale * self.v) + self.eps)

    def state_dict(self) -> dict:
        return {"m": self.m, "v": self.v, "t": self.t}

    def load_state_dict(self, state: dict) -> None:
        self.m = None if state["m"] is None else np.asarray(state["m"], dtype=float)
        self.v = None if state["v"] is None else np.asarray(state["v"], dtype=float)
        self.t = int(state["t"])
