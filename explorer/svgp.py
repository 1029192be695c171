"""The baseline the paper raced: non-augmented sparse variational GP classification (SVGP), logit link by default.

Hensman, Matthews, Ghahramani (AISTATS 2015); natural gradients as in Salimbeni, Eleftheriadis, Hensman (AISTATS 2018).
Same kernel, inducing inputs Z, minibatches and linear algebra as `explorer.xgpc` (DESIGN §4). The likelihood
p(y | f) comes from the likelihood seam (`link`, a `likelihoods.Link`: `LINKS["logit"]` σ(yf), the paper's, or
`LINKS["probit"]` Φ(yf)); labels y ∈ {−1, +1} in the equations. With q(u) = N(μ, Σ), a_i = κ_iμ and
v_i = K̃_ii + κ_iΣκ_iᵀ (the marginal q(f_i) = N(a_i, v_i)), the exact, non-augmented bound is

    L = Σ_i E_{N(f|a_i, v_i)}[log p(y_i | f)] − KL(q(u) ‖ p(u)),

with the expectation and its derivatives g_a = ∂E/∂a, g_v = ∂E/∂v = ½E[∂²_f log p] (Price's theorem) by
Gauss–Hermite. With the logit it is never below X-GPC's augmented bound at the same q(u), so both methods' ELBOs
share one axis. Both links are log-concave (g_v ≤ 0), which the natural-gradient step below relies on.

Link to X-GPC: the augmented per-point term ½y a − ½θ(K̃ + b + a²) + const has ∂/∂a = ½y − θa, ∂/∂v = −½θ. With the
pseudo-data θ̃ = −2g_v, ỹ = 2(g_a + θ̃a) its gradients in (a, v) equal the quadrature ones, so X-GPC's natural-gradient
targets λ̂ and its kernel gradient at fixed q(u) are exact for SVGP when evaluated at (ỹ, θ̃) (`pseudo_data`).

Two optimisers of q(u):
  SVGPAdam     Adam on the whitened mean and Cholesky factor, u = L_K w, q(w) = N(m, L_S L_Sᵀ), diag L_S = exp(·)
               (GPflow's default parameterisation: KL(q(w) ‖ N(0, I)) is well conditioned whatever K_mm is).
  SVGPNatGrad  η ← (1−ρ)η + ρλ̂ on the natural parameters of q(u), λ̂ from the quadrature. The step is not
               coordinate ascent, so ρ must be small or adaptive: by default the adaptive rule of the paper (Ranganath
               et al. 2013), which settled on ρ ≈ 1e-2…1e-3 here; a constant ρ = 0.1 with kernel learning diverged
               on a9a, ρ = 0.01 worked.
Kernel learning alternates as in X-GPC: after each variational step, one Adam step on (log ℓ, log σ²) along the
analytic gradient of the same minibatch's bound. `rho` is the natural-gradient step used (NaN for SVGPAdam).
"""

from __future__ import annotations

import numpy as np

from explorer.convergence import SlidingWindow, relative_change
from explorer.engine import SVIEngine
from explorer.hyperparameters import Adam, elbo_kernel_gradient, whitened_kernel_gradient
from explorer.inputs import inducing_inputs, query_points
from explorer.kernels import Kernel
from explorer.likelihoods import LOGIT, Link, gauss_hermite_expectations
from explorer.linalg import gaussian_kl, inverse_from_factor_inverse, robust_cholesky, triangular_inverse
from explorer.schedules import schedule_for
from explorer.sources import as_source
from explorer.targets import natural_gradient_targets, pseudo_data

_CHUNK = 4096


# ----- one latent function's marginals and KL in either parameterisation --------------------------------------------
def whitened_marginals(
    k_diag: np.ndarray, beta: np.ndarray, m_w: np.ndarray, L_S: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """q(f_i) = N(a_i, v_i) under q(w) = N(m_w, L_S L_Sᵀ), u = L_K w: a = βᵀm_w, v = k_ii − ‖β_i‖² + ‖L_Sᵀβ_i‖².
    k_diag (s,), β = L_K⁻¹K_ms (m, s), m_w (m,), L_S (m, m) → (s,), (s,)."""
    V = L_S.T @ beta
    v = k_diag - np.einsum("ij,ij->j", beta, beta) + np.einsum("ij,ij->j", V, V)
    return beta.T @ m_w, np.maximum(v, 0.0)


def whitened_kl(m_w: np.ndarray, L_S: np.ndarray) -> float:
    """KL(N(m_w, S) ‖ N(0, I)) = ½[tr S + m_wᵀm_w − m − log|S|], S = L_S L_Sᵀ. m_w (m,), L_S (m, m)."""
    return 0.5 * (float(np.sum(L_S**2)) + float(m_w @ m_w) - len(m_w)) - float(np.sum(np.log(np.diag(L_S))))


def natural_marginals(
    k_diag: np.ndarray, K_sm: np.ndarray, kappa: np.ndarray, mu: np.ndarray, L_P_inv: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """q(f_i) = N(a_i, v_i) under q(u) = N(μ, Σ), Σ⁻¹ = L_P L_Pᵀ: a = κμ, v = k_ii − κ_iK_mi + ‖L_P⁻¹κ_iᵀ‖².
    k_diag (s,), K_sm, κ (s, m), μ (m,), L_P⁻¹ (m, m) → (s,), (s,)."""
    V = L_P_inv @ kappa.T
    v = k_diag - np.einsum("ij,ij->i", kappa, K_sm) + np.einsum("ij,ij->j", V, V)
    return kappa @ mu, np.maximum(v, 0.0)


# ----- what both optimisers share ------------------------------------------------------------------------------
class _SVGP(SVIEngine):
    """What both optimisers share on the SVI skeleton (`explorer.engine.SVIEngine`): kernel factors, the
    quadrature expectations of the likelihood `link` (a `likelihoods.Link`, default the logit), the bound,
    prediction. Subclasses define the parameterisation of q(u) and its `_variational_step`. The methods that take
    a minibatch's labels y (`variational_gradient`, `kernel_gradient`, `natural_gradient_targets`) take them as the
    equations write them, ±1 (`_batch`, `likelihoods.signed_labels`).

    The seams a K-class subclass (`explorer.svgp_multiclass`) fills: `_latent_shape` (the shape of the latent
    functions at one point: () for the one binary f, (K,) for K of them; the variational parameters carry it in
    front), `_expectations` (the likelihood's expectations and slopes at the marginals) and `_bound_terms` (the
    expectations the reported bound sums)."""

    _latent_shape: tuple = ()

    def __init__(
        self,
        X: np.ndarray,
        y: np.ndarray | None,
        Z: np.ndarray,
        kernel: Kernel,
        *,
        batch_size: int = 100,
        schedule=None,
        hyper_optimizer: Adam | None = None,
        rng: np.random.Generator | None = None,
        criterion: SlidingWindow | None = None,
        link: Link = LOGIT,
    ):
        self.link = link
        source = as_source(X, y)
        super().__init__(
            source,
            inducing_inputs(Z, source.d),
            kernel,
            batch_size=batch_size,
            schedule=schedule,
            hyper_optimizer=hyper_optimizer,
            rng=rng,
            criterion=criterion,
        )
        self.last_c = np.zeros(0)  # no local variational parameters

    def _set_kernel(self, kernel: Kernel) -> None:
        """Cache the inducing features, K_zz = K(Z, Z) (no nugget), L_K (K_mm = L_K L_Kᵀ), L_K⁻¹ and K_mm⁻¹."""
        self.kernel, self._features = kernel, kernel.features(self.Z)
        self.K_zz = kernel.cross_from_features(self.Z, self._features)
        self.L_K = robust_cholesky(kernel.gram(self.Z, self.K_zz), "K_mm", self.iteration)
        self.L_K_inv = triangular_inverse(self.L_K)
        self.K_inv = inverse_from_factor_inverse(self.L_K_inv)

    def _cross(self, X: np.ndarray) -> np.ndarray:
        """K(X, Z) (s, m) for rows X (s, d)."""
        return self.kernel.cross_from_features(X, self._features)

    def marginals(self, K_sm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean a and variance v (s,) of q(f_i) for the rows with cross-covariance K_sm (s, m)."""
        return self._marginals(K_sm, self._project(K_sm))

    def _expectations(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray):
        """a, v (s,) of the rows with cross-covariance K_sm (s, m) and `projection` = `_project(K_sm)`, and
        (E, g_a, g_v) at them."""
        a, v = self._marginals(K_sm, projection)
        return (a, v) + gauss_hermite_expectations(self.link.log_likelihood, y, a, v)

    def _bound_terms(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray) -> np.ndarray:
        """E_q[log p(y_i | f_i)] (s,) of the rows, as the reported bound sums them."""
        return self._expectations(K_sm, projection, y)[2]

    # ----- the variational step of one SVI iteration (the skeleton's `_update_q`) -----------------------------
    def _update_q(self, index: np.ndarray, X_b: np.ndarray, y_b: np.ndarray) -> tuple[float, tuple]:
        K_sm = self._cross(X_b)
        projection = self._project(K_sm)  # depends on the kernel only, so it serves both steps
        return self._variational_step(K_sm, projection, y_b), (K_sm, projection)

    def _minibatch_kernel_gradient(self, X_b: np.ndarray, y_b: np.ndarray, context: tuple) -> np.ndarray:
        return self.kernel_gradient(X_b, y_b, *context)

    # ----- objective and prediction ------------------------------------------------------------------------
    def elbo(self, index: np.ndarray | None = None) -> float:
        """The exact bound Σ_i E_q[log p(y_i | f_i)] − KL on all n points (in chunks), or estimated as
        (n/s)Σ_{i∈index}(…) − KL on the rows `index`."""
        count, total = 0, 0.0
        for part in self.source.chunks(_CHUNK, index):
            X_part, y_part = self._batch(part)
            K_sm = self._cross(X_part)
            total += float(np.sum(self._bound_terms(K_sm, self._project(K_sm), y_part)))
            count += len(part)
        return self.n / count * total - self.kl()

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(μ*, σ*²) at Xs (n*, d) → (n*,), (n*,) (K latent functions: (n*, K), (n*, K))."""
        Xs = query_points(Xs, self.source.d)
        mean, var = np.empty((len(Xs),) + self._latent_shape), np.empty((len(Xs),) + self._latent_shape)
        for start in range(0, len(Xs), _CHUNK):
            part = slice(start, start + _CHUNK)
            mean[part], var[part] = self.marginals(self._cross(Xs[part]))
        return mean, np.maximum(var, 1e-12)


# ----- (a) Adam on the whitened mean and Cholesky factor ------------------------------------------------------
class SVGPAdam(_SVGP):
    """SVGP trained by Adam on (m, L_S), u = L_K w, q(w) = N(m, S), S = L_S L_Sᵀ (Hensman et al. 2015; whitened).

    q(u) starts at the prior (m = 0, L_S = I). One step: Adam ascent (learning rate `learning_rate`) on the minibatch
    bound in the packed parameters (m, lower triangle of L_S with log-diagonal), then the optional kernel step at
    fixed (m, L_S), so the kernel step also moves q(u) = N(L_K m, L_K S L_Kᵀ) — as in GPflow.

    Parameters
    ----------
    X : ndarray of shape (n, d) or explorer.sources.DataSource
        Training inputs (standardised), or a source of minibatches (then `y` is None).
    y : ndarray of shape (n,) or None
        Class indices 0, 1.
    Z : ndarray of shape (m, d)
        Fixed inducing inputs.
    kernel : explorer.kernels.Kernel
        The starting kernel.
    batch_size : int, default 100
        s, the minibatch size (clamped to n with a warning).
    learning_rate : float, default 0.01
        Adam's rate on (m, L_S).
    hyper_optimizer : explorer.hyperparameters.Adam, optional
        Turns kernel learning on.
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    criterion : explorer.convergence.SlidingWindow, optional
        The convergence rule on the global parameters.
    link : explorer.likelihoods.Link, default LOGIT
        The likelihood's link (`likelihoods.LINKS`: logit, probit).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> rng = np.random.default_rng(2)
    >>> X = rng.standard_normal((80, 2))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> engine = SVGPAdam(X, y, X[:10], RBF(1.0), batch_size=40, rng=rng)
    >>> engine.step(50)
    >>> P = engine.predict_proba(X[:4])
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0))
    ((4, 2), True)
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
        link: Link = LOGIT,
    ):
        self.optimizer = Adam(learning_rate)
        super().__init__(
            X,
            y,
            Z,
            kernel,
            batch_size=batch_size,
            hyper_optimizer=hyper_optimizer,
            rng=rng,
            criterion=criterion,
            link=link,
        )
        self._tril = np.tril_indices(self.m)
        self._diag_in_tril = np.flatnonzero(self._tril[0] == self._tril[1])
        self._set_whitened(
            np.zeros(self._latent_shape + (self.m,)), np.tile(np.eye(self.m), self._latent_shape + (1, 1))
        )

    def _set_whitened(self, m_w: np.ndarray, L_S: np.ndarray) -> None:
        self.m_w, self.L_S = m_w, L_S

    def _pack(self) -> np.ndarray:
        """(m, L_S) → one vector (m + m(m+1)/2,) (`_pack_one`)."""
        return self._pack_one(self.m_w, self.L_S)

    def _unpack(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self._unpack_one(packed)

    def _pack_one(self, m_w: np.ndarray, L_S: np.ndarray) -> np.ndarray:
        """One latent function's (m (m,), L_S (m, m)) → (m + m(m+1)/2,): m, then L_S's lower triangle with log on
        the diagonal."""
        lower = L_S[self._tril].copy()
        lower[self._diag_in_tril] = np.log(lower[self._diag_in_tril])
        return np.concatenate([m_w, lower])

    def _unpack_one(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The inverse of `_pack_one`."""
        lower = packed[self.m :].copy()
        lower[self._diag_in_tril] = np.exp(lower[self._diag_in_tril])
        L_S = np.zeros((self.m, self.m))
        L_S[self._tril] = lower
        return packed[: self.m].copy(), L_S

    @property
    def mu(self) -> np.ndarray:
        """μ = L_K m, shape (m,)."""
        return self.L_K @ self.m_w

    @property
    def Sigma(self) -> np.ndarray:
        """Σ = L_K S L_Kᵀ, shape (m, m)."""
        F = self.L_K @ self.L_S
        return F @ F.T

    def _project(self, K_sm: np.ndarray) -> np.ndarray:
        """β = L_K⁻¹K_ms, shape (m, s)."""
        return self.L_K_inv @ K_sm.T

    def _marginals(self, K_sm: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """a = βᵀm, v = k_ii − ‖β_i‖² + ‖L_Sᵀβ_i‖². K_sm (s, m), β (m, s) → (s,), (s,)."""
        return whitened_marginals(self.kernel.diag(len(K_sm)), beta, self.m_w, self.L_S)

    def kl(self) -> float:
        """KL(N(m, S) ‖ N(0, I)) = ½[tr S + mᵀm − m_dim − log|S|] (= KL(q(u) ‖ p(u)))."""
        return whitened_kl(self.m_w, self.L_S)

    def variational_gradient(self, K_sm: np.ndarray, y: np.ndarray, beta: np.ndarray | None = None) -> np.ndarray:
        """∂L̂/∂(packed m, L_S) of the minibatch bound: ∂m = (n/s)βg_a − m,
        ∂L_S = tril(2(n/s)βG_vβᵀL_S − L_S) + diag(1/L_ii), times L_ii on the log-diagonal."""
        beta = self._project(K_sm) if beta is None else beta
        _, _, _, g_a, g_v = self._expectations(K_sm, beta, y)
        return self._packed_gradient(beta, g_a, g_v, self.m_w, self.L_S, self.n / len(y))

    def _packed_gradient(
        self, beta: np.ndarray, g_a: np.ndarray, g_v: np.ndarray, m_w: np.ndarray, L_S: np.ndarray, scale: float
    ) -> np.ndarray:
        """One latent function's ∂L̂/∂(packed m, L_S) (`variational_gradient`) from its slopes g_a, g_v (s,) at
        β (m, s), its m (m,), L_S (m, m), and the minibatch scale n/s."""
        grad_m = scale * (beta @ g_a) - m_w
        grad_L = np.tril(2.0 * scale * ((beta * g_v) @ beta.T) @ L_S - L_S)
        diag = np.diag(L_S)
        grad_L[np.diag_indices(self.m)] += 1.0 / diag
        lower = grad_L[self._tril]
        lower[self._diag_in_tril] *= diag
        return np.concatenate([grad_m, lower])

    def _variational_step(self, K_sm: np.ndarray, beta: np.ndarray, y: np.ndarray) -> float:
        old = self._pack()
        new = self.optimizer.ascend(old, self.variational_gradient(K_sm, y, beta))
        self._set_whitened(*self._unpack(new))
        return relative_change(old, new)

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, beta: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(log ℓ, log σ²) at fixed (m, L_S): `hyperparameters.whitened_kernel_gradient` at the quadrature's
        (g_a, g_v)."""
        beta = self._project(K_sm) if beta is None else beta
        _, _, _, g_a, g_v = self._expectations(K_sm, beta, y_b)
        return whitened_kernel_gradient(
            self.kernel,
            X_b,
            self.Z,
            K_sm,
            self.K_zz,
            self.L_K,
            self.L_K_inv,
            self.m_w,
            self.L_S @ self.L_S.T,
            g_a,
            g_v,
            self.n / len(y_b),
            beta,
        )

    def _stateful_parts(self) -> list:
        return super()._stateful_parts() + [self.optimizer]

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {**self._base_state(), "m_w": self.m_w, "L_S": self.L_S, "optimizer": self.optimizer.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        self._load_base_state(state)
        self._set_whitened(np.asarray(state["m_w"], dtype=float), np.asarray(state["L_S"], dtype=float))
        self.optimizer.load_state_dict(state["optimizer"])


# ----- (b) natural gradients from the quadrature expectations --------------------------------------------------
class SVGPNatGrad(_SVGP):
    """SVGP trained by natural-gradient steps on η₁ = Σ⁻¹μ, η₂ = −½Σ⁻¹ (Salimbeni et al. 2018).

    λ̂₁ = (n/s)κᵀ(g_a − 2g_v∘a), λ̂₂ = −½K_mm⁻¹ + (n/s)κᵀdiag(g_v)κ — X-GPC's targets at the pseudo-data (ỹ, θ̃);
    g_v ≤ 0 (log σ and log Φ are concave) keeps −η₂ positive definite for any ρ ∈ (0, 1]. `schedule` is an
    `explorer.schedules` rule (default: its row of `schedules.DEFAULT_STEP_RULES`, the paper's adaptive rule); a rule
    that needs a warm start gets it from `warm_start_batches` minibatches at the initial q, as in X-GPC. The kernel step
    keeps q(u) fixed, as in X-GPC.

    Parameters
    ----------
    X : ndarray of shape (n, d) or explorer.sources.DataSource
        Training inputs (standardised), or a source of minibatches (then `y` is None).
    y : ndarray of shape (n,) or None
        Class indices 0, 1.
    Z : ndarray of shape (m, d)
        Fixed inducing inputs.
    kernel : explorer.kernels.Kernel
        The starting kernel.
    batch_size : int, default 100
        s, the minibatch size (clamped to n with a warning).
    schedule : step-size rule, optional
        A rule of `explorer.schedules` (default: the adaptive rule).
    hyper_optimizer : explorer.hyperparameters.Adam, optional
        Turns kernel learning on.
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    criterion : explorer.convergence.SlidingWindow, optional
        The convergence rule on the global parameters.
    link : explorer.likelihoods.Link, default LOGIT
        The likelihood's link (`likelihoods.LINKS`: logit, probit).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> rng = np.random.default_rng(2)
    >>> X = rng.standard_normal((80, 2))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> engine = SVGPNatGrad(X, y, X[:10], RBF(1.0), batch_size=40, rng=rng)
    >>> engine.step(50)
    >>> P = engine.predict_proba(X[:4])
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0))
    ((4, 2), True)
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
        link: Link = LOGIT,
    ):
        super().__init__(
            X,
            y,
            Z,
            kernel,
            batch_size=batch_size,
            schedule=schedule if schedule is not None else schedule_for("svgp-natgrad"),
            hyper_optimizer=hyper_optimizer,
            rng=rng,
            criterion=criterion,
            link=link,
        )
        eta2 = np.tile(-0.5 * self.K_inv, self._latent_shape + (1, 1))
        self._set_natural(np.zeros(self._latent_shape + (self.m,)), eta2, self._precision_factor(eta2, 0))

    def _precision_factor(self, eta2: np.ndarray, iteration: int) -> np.ndarray:
        """L_P with Σ⁻¹ = −2η₂ = L_P L_Pᵀ (NumericalError naming the `iteration` if −2η₂ is not positive definite)."""
        return robust_cholesky(-2.0 * eta2, "Σ⁻¹ = −2η₂", iteration)

    def _set_natural(self, eta1: np.ndarray, eta2: np.ndarray, L_P: np.ndarray) -> None:
        self.eta1, self.eta2, self.L_P = eta1, eta2, L_P
        self.L_P_inv = triangular_inverse(L_P)
        self.mu = self.L_P_inv.T @ (self.L_P_inv @ eta1)

    @property
    def Sigma(self) -> np.ndarray:
        """Σ = (−2η₂)⁻¹, shape (m, m)."""
        return inverse_from_factor_inverse(self.L_P_inv)

    def _project(self, K_sm: np.ndarray) -> np.ndarray:
        """κ = K_smK_mm⁻¹, shape (s, m)."""
        return K_sm @ self.K_inv

    def _marginals(self, K_sm: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """a = κμ, v = k_ii − κ_iK_mi + ‖L_P⁻¹κ_iᵀ‖². K_sm, κ (s, m) → (s,), (s,)."""
        return natural_marginals(self.kernel.diag(len(K_sm)), K_sm, kappa, self.mu, self.L_P_inv)

    def kl(self) -> float:
        """KL(q(u) ‖ p(u))."""
        return gaussian_kl(self.mu, self.L_P, self.L_P_inv, self.L_K, self.L_K_inv)

    def natural_gradient_targets(
        self, K_sm: np.ndarray, y: np.ndarray, kappa: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(λ̂₁ (m,), λ̂₂ (m, m)) on a minibatch with cross-covariance K_sm (s, m), at the current q."""
        kappa = self._project(K_sm) if kappa is None else kappa
        a, _, _, g_a, g_v = self._expectations(K_sm, kappa, y)
        y_tilde, theta_tilde = pseudo_data(a, g_a, g_v)
        return natural_gradient_targets(kappa, y_tilde, theta_tilde, self.K_inv, self.n)

    def _warm_start_target(self, index: np.ndarray) -> np.ndarray:
        X_b, y_b = self._batch(index)
        lam1, lam2 = self.natural_gradient_targets(self._cross(X_b), y_b)
        return np.concatenate([lam1.ravel(), lam2.ravel()])

    def _flat_natural_parameters(self) -> np.ndarray:
        return np.concatenate([self.eta1.ravel(), self.eta2.ravel()])

    def _variational_step(self, K_sm: np.ndarray, kappa: np.ndarray, y: np.ndarray) -> float:
        lam1, lam2 = self.natural_gradient_targets(K_sm, y, kappa)
        g1, g2 = lam1 - self.eta1, lam2 - self.eta2
        rho = self.schedule.rate(np.concatenate([g1.ravel(), g2.ravel()]))
        eta1, eta2 = self.eta1 + rho * g1, self.eta2 + rho * g2
        L_P = self._precision_factor(eta2, self.iteration)
        change = relative_change(
            np.concatenate([self.eta1.ravel(), self.eta2.ravel()]), np.concatenate([eta1.ravel(), eta2.ravel()])
        )
        self._set_natural(eta1, eta2, L_P)
        self.rho = rho
        return change

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, kappa: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(log ℓ, log σ²) at fixed q(u): X-GPC's `elbo_kernel_gradient` at the pseudo-data (ỹ, θ̃)."""
        kappa = self._project(K_sm) if kappa is None else kappa
        a, _, _, g_a, g_v = self._expectations(K_sm, kappa, y_b)
        y_tilde, theta_tilde = pseudo_data(a, g_a, g_v)
        return elbo_kernel_gradient(
            self.kernel,
            X_b,
            y_tilde,
            self.Z,
            self.n,
            self.mu,
            self.L_P,
            self.K_inv,
            kappa,
            K_sm,
            theta_tilde,
            K_zz=self.K_zz,
        )

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {**self._base_state(), "eta1": self.eta1, "eta2": self.eta2}

    def load_state_dict(self, state: dict) -> None:
        self._load_base_state(state)
        eta1, eta2 = np.asarray(state["eta1"], dtype=float), np.asarray(state["eta2"], dtype=float)
        self._set_natural(eta1, eta2, self._precision_factor(eta2, self.iteration))
