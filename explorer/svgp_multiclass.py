"""The non-augmented K-class baseline of multi-class X-GPC: sparse variational GP classification with the softmax
likelihood p(y = k | f) = exp(f_k) / Σ_j exp(f_j) (`likelihoods.Softmax`).

K latent GPs f_k share the kernel and the inducing inputs Z; q(u_k) are independent Gaussians, so the marginals
q(f_ik) = N(a_ik, v_ik) are the binary SVGP's per class (`svgp.whitened_marginals`, `svgp.natural_marginals`) and the
exact bound is

    L = Σ_i E_q[log softmax(f_i)_{y_i}] − Σ_k KL(q(u_k) ‖ p(u_k)).

The expectation has no closed form and a K-dimensional quadrature is out of reach for K = 10, so it is estimated by
Monte Carlo (`likelihoods.softmax_expectations`): in training, `mc_samples` fresh reparameterised draws
f_i = a_i + √v_i ∘ ε per row and per estimate from the engine's own generator `mc_rng` (not the minibatch stream:
every method sees the same minibatches for the same seed); the reported bound (`elbo`) uses a fixed set of
`BOUND_POINTS` scrambled Sobol points (randomised quasi-Monte Carlo with a fixed scramble: a deterministic function of
q, whose error against a brute-force tensor Gauss–Hermite integral at K = 3 is below 1e-3 per point,
tests/test_svgp_multiclass.py). The slopes g_a = ∂E/∂a_k = E[∂ℓ/∂f_k] and g_v = ∂E/∂v_k = ½E[∂²ℓ/∂f_k²] ≤ 0 (the
softmax is log-concave) drive both optimisers per class exactly as the binary ones (`explorer.svgp`):

  SVGPMulticlassAdam     Adam on the K whitened means and Cholesky factors (one packed vector).
  SVGPMulticlassNatGrad  per class, X-GPC's natural-gradient targets at the pseudo-data (ỹ_k, θ̃_k) of that class's
                         slopes (`targets.pseudo_data`), one step size ρ for all (the rule sees the K classes' natural
                         gradients as one vector).

Kernel learning: Adam on the shared kernel's log-parameters along the sum over classes of the binary kernel gradients
at the classes' slopes. With K = 2 this is a valid two-class model, but with two latent functions where the binary
logit SVGP has one (softmax(f₀, f₁)₁ = σ(f₁ − f₀)); the methods use it from K = 3 on (`methods.build_svgp_adam`).
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri
from scipy.stats import qmc

from explorer.convergence import SlidingWindow
from explorer.hyperparameters import Adam, elbo_kernel_gradient, whitened_kernel_gradient
from explorer.kernels import Kernel
from explorer.likelihoods import Softmax, softmax_expectations
from explorer.linalg import gaussian_kl, inverse_from_factor_inverse, robust_cholesky, triangular_inverse
from explorer.sources import as_source
from explorer.svgp import SVGPAdam, SVGPNatGrad, natural_marginals, whitened_kl, whitened_marginals
from explorer.targets import natural_gradient_targets, pseudo_data

MC_SAMPLES = 32
"""Reparameterised draws per row for each training estimate of the expectations (`mc_samples`)."""

BOUND_POINTS = 1024
"""Quasi-Monte Carlo points per row of the reported bound (`elbo`)."""


def bound_points(K: int, count: int = BOUND_POINTS) -> np.ndarray:
    """The fixed standard normal points (count, K) of the reported bound: scrambled Sobol (fixed scramble) through
    the normal quantile."""
    u = qmc.Sobol(d=K, scramble=True, seed=np.random.default_rng(20150509)).random(count)
    return ndtri(np.clip(u, 1e-12, 1.0 - 1e-12))


class GeneratorState:
    """A `numpy.random.Generator` as an engine's stateful part: its bit generator's state saved and restored (so a
    failed iteration rolls the Monte Carlo stream back with the rest)."""

    def __init__(self, generator: np.random.Generator):
        self.generator = generator

    def state_dict(self) -> dict:
        return self.generator.bit_generator.state

    def load_state_dict(self, state: dict) -> None:
        self.generator.bit_generator.state = state


class _SoftmaxSVGP:
    """What both K-class optimisers add to the binary ones: the softmax link of K classes, the Monte Carlo
    expectations from their own generator, the quasi-Monte Carlo bound, and the generator in the state."""

    def _setup_softmax(self, source, rng, mc_rng, mc_samples: int) -> Softmax:
        """Keep the Monte Carlo settings and return the K-class link; `mc_rng` None: a child of `rng` (spawned, so the
        minibatch stream is untouched), or of a fresh generator."""
        if isinstance(mc_samples, bool) or not isinstance(mc_samples, (int, np.integer)) or mc_samples < 1:
            raise ValueError(f"mc_samples must be a whole number ≥ 1, got {mc_samples!r}")
        self.mc_samples = int(mc_samples)
        if mc_rng is None:
            mc_rng = (rng if rng is not None else np.random.default_rng()).spawn(1)[0]
        self.mc_stream = GeneratorState(mc_rng)
        K = source.n_classes
        self._bound_points = bound_points(K)
        return Softmax(K)

    @property
    def _latent_shape(self) -> tuple:
        return (self.link.n_classes,)

    @property
    def mc_rng(self) -> np.random.Generator:
        """The generator of the training draws."""
        return self.mc_stream.generator

    def _expectations(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray):
        """a, v (s, K) of the rows and (E (s,), g_a (s, K), g_v (s, K)) by `mc_samples` fresh draws per row."""
        a, v = self._marginals(K_sm, projection)
        eps = self.mc_rng.standard_normal((len(y), self.mc_samples, self.link.n_classes))
        return (a, v) + softmax_expectations(y, a, v, eps)

    def _bound_terms(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray) -> np.ndarray:
        a, v = self._marginals(K_sm, projection)
        return softmax_expectations(y, a, v, self._bound_points)[0]

    def _stateful_parts(self) -> list:
        return super()._stateful_parts() + [self.mc_stream]

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {**super().state_dict(), "mc_rng": self.mc_stream.state_dict(), "n_classes": self.link.n_classes}

    def load_state_dict(self, state: dict) -> None:
        if int(state["n_classes"]) != self.link.n_classes:
            raise ValueError(f"the state has {state['n_classes']} classes, this engine {self.link.n_classes}")
        super().load_state_dict(state)
        self.mc_stream.load_state_dict(state["mc_rng"])


class SVGPMulticlassAdam(_SoftmaxSVGP, SVGPAdam):
    """K-class softmax SVGP trained by Adam on the whitened (m_k, L_S,k), u_k = L_K w_k, q(w_k) = N(m_k, L_S,k L_S,kᵀ)
    (`svgp.SVGPAdam` per class; the K classes' packed parameters form one Adam vector).

    Parameters
    ----------
    X : ndarray of shape (n, d) or explorer.sources.DataSource
        Training inputs (standardised), or a source of minibatches (then `y` is None).
    y : ndarray of shape (n,) or None
        Class indices 0…K−1, K ≥ 3.
    Z : ndarray of shape (m, d)
        Fixed inducing inputs, shared by the K latent functions.
    kernel : explorer.kernels.Kernel
        The starting kernel, shared by the K latent functions.
    batch_size : int, default 100
        s, the minibatch size (clamped to n with a warning).
    learning_rate : float, default 0.01
        Adam's rate on the (m_k, L_S,k).
    hyper_optimizer : explorer.hyperparameters.Adam, optional
        Turns kernel learning on.
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    criterion : explorer.convergence.SlidingWindow, optional
        The convergence rule on the global parameters.
    mc_samples : int, default 32
        Monte Carlo draws per row of each training estimate.
    mc_rng : numpy.random.Generator, optional
        Draws the Monte Carlo points (default: spawned from `rng`).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(centre, 0.5, (20, 2)) for centre in ([0, 2], [2, -1], [-2, -1])])
    >>> y = np.repeat([0, 1, 2], 20)
    >>> engine = SVGPMulticlassAdam(X, y, X[::6], RBF(1.0), batch_size=30, learning_rate=0.05, rng=rng)
    >>> engine.step(200)
    >>> P = engine.predict_proba(X[[0, 20, 40]])
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0)), P.argmax(axis=1).tolist()
    ((3, 3), True, [0, 1, 2])
    """

    def __init__(
        self,
        X,
        y,
        Z,
        kernel: Kernel,
        *,
        batch_size: int = 100,
        learning_rate: float = 0.01,
        hyper_optimizer: Adam | None = None,
        rng: np.random.Generator | None = None,
        criterion: SlidingWindow | None = None,
        mc_samples: int = MC_SAMPLES,
        mc_rng: np.random.Generator | None = None,
    ):
        source = as_source(X, y)
        link = self._setup_softmax(source, rng, mc_rng, mc_samples)
        super().__init__(
            source,
            None,
            Z,
            kernel,
            batch_size=batch_size,
            learning_rate=learning_rate,
            hyper_optimizer=hyper_optimizer,
            rng=rng,
            criterion=criterion,
            link=link,
        )

    def _pack(self) -> np.ndarray:
        return np.concatenate([self._pack_one(m_w, L_S) for m_w, L_S in zip(self.m_w, self.L_S)])

    def _unpack(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        parts = [self._unpack_one(block) for block in packed.reshape(self.link.n_classes, -1)]
        return np.stack([m_w for m_w, _ in parts]), np.stack([L_S for _, L_S in parts])

    @property
    def mu(self) -> np.ndarray:
        """μ_k = L_K m_k, shape (K, m)."""
        return self.m_w @ self.L_K.T

    @property
    def Sigma(self) -> np.ndarray:
        """Σ_k = L_K S_k L_Kᵀ, shape (K, m, m)."""
        F = self.L_K @ self.L_S
        return F @ np.swapaxes(F, 1, 2)

    def _marginals(self, K_sm: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """a, v (s, K): the binary marginals per class. K_sm (s, m), β (m, s)."""
        k_diag = self.kernel.diag(len(K_sm))
        columns = [whitened_marginals(k_diag, beta, m_w, L_S) for m_w, L_S in zip(self.m_w, self.L_S)]
        return np.column_stack([a for a, _ in columns]), np.column_stack([v for _, v in columns])

    def kl(self) -> float:
        """Σ_k KL(N(m_k, S_k) ‖ N(0, I))."""
        return sum(whitened_kl(m_w, L_S) for m_w, L_S in zip(self.m_w, self.L_S))

    def variational_gradient(self, K_sm: np.ndarray, y: np.ndarray, beta: np.ndarray | None = None) -> np.ndarray:
        """∂L̂/∂(packed m_k, L_S,k for k = 0…K−1) of the minibatch bound, each class's block the binary one
        (`SVGPAdam.variational_gradient`) at its slopes. K_sm (s, m), y (s,) class indices."""
        beta = self._project(K_sm) if beta is None else beta
        _, _, _, g_a, g_v = self._expectations(K_sm, beta, y)
        scale = self.n / len(y)
        return np.concatenate(
            [
                self._packed_gradient(beta, g_a[:, k], g_v[:, k], self.m_w[k], self.L_S[k], scale)
                for k in range(len(self.m_w))
            ]
        )

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, beta: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(kernel log-parameters) at fixed (m_k, L_S,k): the sum over classes of
        `hyperparameters.whitened_kernel_gradient` at the class's slopes."""
        beta = self._project(K_sm) if beta is None else beta
        _, _, _, g_a, g_v = self._expectations(K_sm, beta, y_b)
        return sum(
            whitened_kernel_gradient(
                self.kernel,
                X_b,
                self.Z,
                K_sm,
                self.K_zz,
                self.L_K,
                self.L_K_inv,
                self.m_w[k],
                self.L_S[k] @ self.L_S[k].T,
                g_a[:, k],
                g_v[:, k],
                self.n / len(y_b),
                beta,
            )
            for k in range(len(self.m_w))
        )


class SVGPMulticlassNatGrad(_SoftmaxSVGP, SVGPNatGrad):
    """K-class softmax SVGP trained by natural-gradient steps on each class's η₁,k = Σ_k⁻¹μ_k, η₂,k = −½Σ_k⁻¹
    (`svgp.SVGPNatGrad` per class): λ̂_k are X-GPC's targets at the pseudo-data of class k's slopes; g_v ≤ 0 keeps
    every −η₂,k positive definite for ρ ∈ (0, 1].

    Parameters
    ----------
    X : ndarray of shape (n, d) or explorer.sources.DataSource
        Training inputs (standardised), or a source of minibatches (then `y` is None).
    y : ndarray of shape (n,) or None
        Class indices 0…K−1, K ≥ 3.
    Z : ndarray of shape (m, d)
        Fixed inducing inputs, shared by the K latent functions.
    kernel : explorer.kernels.Kernel
        The starting kernel, shared by the K latent functions.
    batch_size : int, default 100
        s, the minibatch size (clamped to n with a warning).
    schedule : step-size rule, optional
        A rule of `explorer.schedules` (default: svgp-natgrad's row of `schedules.DEFAULT_STEP_RULES`).
    hyper_optimizer : explorer.hyperparameters.Adam, optional
        Turns kernel learning on.
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    criterion : explorer.convergence.SlidingWindow, optional
        The convergence rule on the global parameters.
    mc_samples : int, default 32
        Monte Carlo draws per row of each training estimate.
    mc_rng : numpy.random.Generator, optional
        Draws the Monte Carlo points (default: spawned from `rng`).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> from explorer.schedules import Constant
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(centre, 0.5, (20, 2)) for centre in ([0, 2], [2, -1], [-2, -1])])
    >>> y = np.repeat([0, 1, 2], 20)
    >>> engine = SVGPMulticlassNatGrad(X, y, X[::6], RBF(1.0), batch_size=30, schedule=Constant(0.2), rng=rng)
    >>> engine.step(50)
    >>> P = engine.predict_proba(X[[0, 20, 40]])
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0)), P.argmax(axis=1).tolist()
    ((3, 3), True, [0, 1, 2])
    """

    def __init__(
        self,
        X,
        y,
        Z,
        kernel: Kernel,
        *,
        batch_size: int = 100,
        schedule=None,
        hyper_optimizer: Adam | None = None,
        rng: np.random.Generator | None = None,
        criterion: SlidingWindow | None = None,
        mc_samples: int = MC_SAMPLES,
        mc_rng: np.random.Generator | None = None,
    ):
        source = as_source(X, y)
        link = self._setup_softmax(source, rng, mc_rng, mc_samples)
        super().__init__(
            source,
            None,
            Z,
            kernel,
            batch_size=batch_size,
            schedule=schedule,
            hyper_optimizer=hyper_optimizer,
            rng=rng,
            criterion=criterion,
            link=link,
        )

    def _precision_factor(self, eta2: np.ndarray, iteration: int) -> np.ndarray:
        """L_P (K, m, m), Σ_k⁻¹ = −2η₂,k = L_P[k] L_P[k]ᵀ."""
        return np.stack(
            [robust_cholesky(-2.0 * block, f"Σ⁻¹ = −2η₂ of class {k}", iteration) for k, block in enumerate(eta2)]
        )

    def _set_natural(self, eta1: np.ndarray, eta2: np.ndarray, L_P: np.ndarray) -> None:
        self.eta1, self.eta2, self.L_P = eta1, eta2, L_P
        self.L_P_inv = np.stack([triangular_inverse(L) for L in L_P])
        self.mu = np.stack([L_inv.T @ (L_inv @ e1) for L_inv, e1 in zip(self.L_P_inv, eta1)])

    @property
    def Sigma(self) -> np.ndarray:
        """Σ_k = (−2η₂,k)⁻¹, shape (K, m, m)."""
        return np.stack([inverse_from_factor_inverse(L_inv) for L_inv in self.L_P_inv])

    def _marginals(self, K_sm: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """a, v (s, K): the binary marginals per class. K_sm, κ (s, m)."""
        k_diag = self.kernel.diag(len(K_sm))
        columns = [natural_marginals(k_diag, K_sm, kappa, mu, L_inv) for mu, L_inv in zip(self.mu, self.L_P_inv)]
        return np.column_stack([a for a, _ in columns]), np.column_stack([v for _, v in columns])

    def kl(self) -> float:
        """Σ_k KL(q(u_k) ‖ p(u_k))."""
        return sum(
            gaussian_kl(mu, L_P, L_inv, self.L_K, self.L_K_inv)
            for mu, L_P, L_inv in zip(self.mu, self.L_P, self.L_P_inv)
        )

    def natural_gradient_targets(
        self, K_sm: np.ndarray, y: np.ndarray, kappa: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(λ̂₁ (K, m), λ̂₂ (K, m, m)) on a minibatch with cross-covariance K_sm (s, m) and class indices y (s,), at the
        current q: per class, `targets.natural_gradient_targets` at the pseudo-data of its slopes."""
        kappa = self._project(K_sm) if kappa is None else kappa
        a, _, _, g_a, g_v = self._expectations(K_sm, kappa, y)
        parts = [
            natural_gradient_targets(kappa, *pseudo_data(a[:, k], g_a[:, k], g_v[:, k]), self.K_inv, self.n)
            for k in range(a.shape[1])
        ]
        return np.stack([lam1 for lam1, _ in parts]), np.stack([lam2 for _, lam2 in parts])

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, kappa: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(kernel log-parameters) at fixed q(u_k): the sum over classes of X-GPC's `elbo_kernel_gradient` at the
        class's pseudo-data."""
        kappa = self._project(K_sm) if kappa is None else kappa
        a, _, _, g_a, g_v = self._expectations(K_sm, kappa, y_b)
        total = 0.0
        for k in range(a.shape[1]):
            y_tilde, theta_tilde = pseudo_data(a[:, k], g_a[:, k], g_v[:, k])
            total = total + elbo_kernel_gradient(
                self.kernel,
                X_b,
                y_tilde,
                self.Z,
                self.n,
                self.mu[k],
                self.L_P[k],
                self.K_inv,
                kappa,
                K_sm,
                theta_tilde,
                K_zz=self.K_zz,
            )
        return total
