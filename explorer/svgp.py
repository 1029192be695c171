"""The baseline the paper raced: non-augmented sparse variational GP classification (SVGP), for any likelihood of
the likelihood protocol (`explorer.likelihoods`): the binary logit (the paper's) or probit, or the K-class softmax.

Hensman, Matthews, Ghahramani (AISTATS 2015); natural gradients as in Salimbeni, Eleftheriadis, Hensman (AISTATS 2018);
one model that takes a likelihood and as many latent functions as it needs, as GPflow's SVGP(likelihood=,
num_latent_gps=). Same kernel, inducing inputs Z, minibatches and linear algebra as `explorer.xgpc` (DESIGN §4).

The likelihood `link` has L = `link.n_latent` latent functions f_1…f_L per point (1 for the binary links, K for the
softmax), which share the kernel and Z and have independent q(u_l) = N(μ_l, Σ_l). With a_il = κ_iμ_l and
v_il = K̃_ii + κ_iΣ_lκ_iᵀ (the marginal q(f_il) = N(a_il, v_il)), the exact, non-augmented bound is

    L = Σ_i E_{q(f_i)}[log p(y_i | f_i)] − Σ_l KL(q(u_l) ‖ p(u_l)),

the expectation and its slopes g_a = ∂E/∂a_l, g_v = ∂E/∂v_l = ½E[∂²_{f_l} log p] (Price's theorem) from the
likelihood (`variational_expectations`: Gauss–Hermite for the binary links; Monte Carlo for the softmax, its training
draws from the engine's own generator `mc_rng`, not the minibatch stream, so every method sees the same minibatches
for the same seed). With the logit the bound is never below X-GPC's augmented bound at the same q(u), so both
methods' ELBOs share one axis. All three likelihoods are log-concave (g_v ≤ 0), which the natural-gradient step
relies on. With one latent function every array below has no latent axis (μ (m,), Σ (m, m), marginals (s,)); with L,
a leading one (μ (L, m), Σ (L, m, m)) and marginals (s, L). X-GPC's natural-gradient targets and kernel gradient at
fixed q(u) are exact for SVGP at the pseudo-data of the slopes (`explorer.targets`), per latent function.

Two optimisers of q(u), `SVGPAdam` and `SVGPNatGrad`; kernel learning alternates with their step as in X-GPC, along
the analytic gradient of the same minibatch's bound (summed over the latent functions). `rho` is the
natural-gradient step used (NaN for SVGPAdam). With K = 2 the softmax is a valid two-class model, but with two latent
functions where the logit has one (softmax(f₀, f₁)₁ = σ(f₁ − f₀)); the methods use it from K = 3 on
(`methods.svgp_likelihood`).
"""

from __future__ import annotations

import numpy as np

from explorer.convergence import relative_change
from explorer.engine import SVIEngine
from explorer.hyperparameters import Adam, elbo_kernel_gradient, whitened_kernel_gradient
from explorer.inputs import inducing_inputs
from explorer.kernels import Kernel
from explorer.likelihoods import LOGIT, Link, Softmax
from explorer.linalg import Gaussian, gaussian_kl
from explorer.schedules import schedule_for
from explorer.sources import as_source
from explorer.targets import natural_gradient_targets, pseudo_data


# ----- what both optimisers share ------------------------------------------------------------------------------
class GeneratorState:
    """A `numpy.random.Generator` as an engine's stateful part: its bit generator's state saved and restored (so a
    failed iteration rolls the Monte Carlo stream back with the rest)."""

    def __init__(self, generator: np.random.Generator):
        self.generator = generator

    def state_dict(self) -> dict:
        return self.generator.bit_generator.state

    def load_state_dict(self, state: dict) -> None:
        self.generator.bit_generator.state = state


class _SVGP(SVIEngine):
    """What both optimisers share on the SVI skeleton (`explorer.engine.SVIEngine`): kernel factors, the likelihood
    `link`'s expectations at the marginals (and the Monte Carlo stream of a likelihood that draws), the bound,
    prediction, the latent axis. Subclasses define the parameterisation of q(u) and its `_variational_step`. The
    methods that take a minibatch's labels y (`variational_gradient`, `kernel_gradient`, `natural_gradient_targets`)
    take them as the likelihood's equations write them (`_batch`: ±1 for the binary links, indices for the softmax).
    A subclass starts q(u) in `_start_q` (the end of construction)."""

    default_rule: str | None = None
    """The row of `schedules.DEFAULT_STEP_RULES` a `schedule` left None takes (None: the optimiser takes no rule)."""

    def __init__(
        self,
        X,
        y,
        Z,
        kernel: Kernel,
        *,
        schedule=None,
        rng: np.random.Generator | None = None,
        link: Link | Softmax = LOGIT,
        mc_rng: np.random.Generator | None = None,
        **keywords,
    ):
        if self.default_rule is None and schedule is not None:
            raise TypeError(f"{type(self).__name__} takes no step-size schedule")
        if schedule is None and self.default_rule is not None:
            schedule = schedule_for(self.default_rule)
        self.link = link
        self._latent_shape = () if link.n_latent == 1 else (link.n_latent,)
        self.mc_rng = None  # the generator of the likelihood's training draws (None for a likelihood that draws none)
        if link.mc_samples:  # its own generator: a child of `rng` (spawned, so the minibatch stream is untouched)
            self.mc_rng = mc_rng if mc_rng is not None else (rng or np.random.default_rng()).spawn(1)[0]
        source = as_source(X, y)
        super().__init__(source, inducing_inputs(Z, source.d), kernel, schedule=schedule, rng=rng, **keywords)
        self.last_c = np.zeros(0)  # no local variational parameters
        self._start_q()

    # ----- the latent axis --------------------------------------------------------------------------------------
    def _latents(self, array: np.ndarray) -> np.ndarray:
        """`array` with a leading latent axis: (1, …) for one latent function (which has none), else as it is."""
        return array[None] if self._latent_shape == () else array

    def _assemble(self, parts: list, axis: int = 0) -> np.ndarray:
        """The inverse of `_latents`: one latent function's array as it is, L of them stacked along `axis`."""
        return parts[0] if self._latent_shape == () else np.stack(parts, axis=axis)

    def marginals(self, K_sm: np.ndarray, projection: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Mean a and variance v ((s,) or (s, L)) of q(f_i) for the rows with cross-covariance K_sm (s, m) and
        `projection` = `_project(K_sm)` (if already made): each latent function's (`_latent_marginals`) as columns."""
        projection = self._project(K_sm) if projection is None else projection
        columns = self._latent_marginals(self.kernel.diag(len(K_sm)), K_sm, projection)
        return self._assemble([a for a, _ in columns], axis=1), self._assemble([v for _, v in columns], axis=1)

    def _expectations(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray, draw: bool = False):
        """a, v of the rows with cross-covariance K_sm (s, m) and `projection` = `_project(K_sm)`, and the
        likelihood's (E (s,), g_a, g_v) at them: a training estimate (`draw`: from the engine's Monte Carlo stream,
        for a likelihood that draws), or the deterministic one of the reported bound."""
        a, v = self.marginals(K_sm, projection)
        return (a, v) + self.link.variational_expectations(y, a, v, self.mc_rng if draw else None)

    def _slopes(self, K_sm: np.ndarray, projection: np.ndarray, y: np.ndarray) -> tuple:
        """Each latent function's (a_l, g_a,l, g_v,l) (s,) at a training estimate of the expectations."""
        a, _, _, g_a, g_v = self._expectations(K_sm, projection, y, draw=True)
        return tuple(zip(self._latents(a.T), self._latents(g_a.T), self._latents(g_v.T)))

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
        (n/s)Σ_{i∈index}(…) − KL on the rows `index` (the expectations deterministic: no draw)."""
        return self._estimate(self._point_terms, index) - self.kl()

    def _point_terms(self, rows: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """E_q[log p(y_i | f_i)] (s,) of the rows X (s, d) with labels y (deterministic: no draw)."""
        K_sm = self._cross(X)
        return self._expectations(K_sm, self._project(K_sm), y)[2]

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(μ*, σ*²) at Xs (n*, d) → (n*,), (n*,) (L latent functions: (n*, L), (n*, L))."""
        return self._in_chunks(lambda X: self.marginals(self._cross(X)), Xs, self._latent_shape)

    # ----- persistence of what both share ------------------------------------------------------------------
    def _stateful_parts(self) -> list:
        return super()._stateful_parts() + ([] if self.mc_rng is None else [GeneratorState(self.mc_rng)])

    def _shared_state(self) -> dict:
        """The skeleton's state, the number of classes and the Monte Carlo stream (a likelihood that draws)."""
        state = {**self._base_state(), "n_classes": self.link.n_classes}
        return state if self.mc_rng is None else {**state, "mc_rng": self.mc_rng.bit_generator.state}

    def _load_shared_state(self, state: dict) -> None:
        classes = int(state.get("n_classes", self.link.n_classes))  # older binary states: without it
        if classes != self.link.n_classes:
            raise ValueError(f"the state has {classes} classes, this engine {self.link.n_classes}")
        self._load_base_state(state)
        if self.mc_rng is not None:
            self.mc_rng.bit_generator.state = state["mc_rng"]


# ----- (a) Adam on the whitened mean and Cholesky factor ------------------------------------------------------
class SVGPAdam(_SVGP):
    """SVGP trained by Adam on (m_l, L_S,l), u_l = L_K w_l, q(w_l) = N(m_l, S_l), S_l = L_S,l L_S,lᵀ (Hensman et al.
    2015; whitened, GPflow's default: KL(q(w) ‖ N(0, I)) is well conditioned whatever K_mm is).

    q(u) starts at the prior (m = 0, L_S = I). One step: Adam ascent (learning rate `learning_rate`) on the minibatch
    bound in the packed parameters (per latent function m, lower triangle of L_S with log-diagonal), then the optional
    kernel step at fixed (m, L_S), so the kernel step also moves q(u) = N(L_K m, L_K S L_Kᵀ) — as in GPflow.

    Parameters
    ----------
    X, y, Z, kernel
        As for `SVGPNatGrad`.
    learning_rate : float, default 0.01
        Adam's rate on (m, L_S).
    **keywords
        `rng`, `link`, `mc_rng` and the SVI skeleton's, as for `SVGPNatGrad` (Adam takes no step-size `schedule`).

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> X, y = load("blobs-3", n=60, seed=0)
    >>> engine = SVGPAdam(X, y, X[::6], RBF(1.0), batch_size=30, learning_rate=0.05, link=Softmax(3))
    >>> engine.step(200)
    >>> engine.mu.shape, float(np.mean(engine.predict_proba(X).argmax(axis=1) == y)) > 0.9  # K latent functions
    ((3, 10), True)
    """

    def __init__(self, X, y, Z, kernel: Kernel, *, learning_rate: float = 0.01, **keywords):
        self.optimizer = Adam(learning_rate)
        super().__init__(X, y, Z, kernel, **keywords)

    def _start_q(self) -> None:
        """q(u) at the prior: m = 0, L_S = I."""
        self._tril = np.tril_indices(self.m)
        self._diag_in_tril = np.flatnonzero(self._tril[0] == self._tril[1])
        self.m_w, self.L_S = (
            np.zeros(self._latent_shape + (self.m,)),
            np.tile(np.eye(self.m), self._latent_shape + (1, 1)),
        )

    def _pack(self) -> np.ndarray:
        """(m_l, L_S,l) of every latent function → one vector (L(m + m(m+1)/2),): per latent function m_l, then L_S,l's
        lower triangle with log on the diagonal."""
        lower = self._latents(self.L_S)[:, self._tril[0], self._tril[1]]  # (L, m(m+1)/2), a copy
        lower[:, self._diag_in_tril] = np.log(lower[:, self._diag_in_tril])
        return np.concatenate([self._latents(self.m_w), lower], axis=1).ravel()

    def _unpack(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The inverse of `_pack`."""
        blocks = packed.reshape(len(self._latents(self.m_w)), -1)
        lower = blocks[:, self.m :].copy()
        lower[:, self._diag_in_tril] = np.exp(lower[:, self._diag_in_tril])
        L_S = np.zeros((len(blocks), self.m, self.m))
        L_S[:, self._tril[0], self._tril[1]] = lower
        means = blocks[:, : self.m].copy()
        return (means[0], L_S[0]) if self._latent_shape == () else (means, L_S)

    @property
    def mu(self) -> np.ndarray:
        """μ_l = L_K m_l, shape (m,) or (L, m)."""
        return self._assemble([self.L_K @ m_w for m_w in self._latents(self.m_w)])

    @property
    def Sigma(self) -> np.ndarray:
        """Σ_l = L_K S_l L_Kᵀ, shape (m, m) or (L, m, m)."""
        factors = [self.L_K @ L_S for L_S in self._latents(self.L_S)]
        return self._assemble([F @ F.T for F in factors])

    def _project(self, K_sm: np.ndarray) -> np.ndarray:
        """β = L_K⁻¹K_ms, shape (m, s)."""
        return self.L_K_inv @ K_sm.T

    def _latent_marginals(self, k_diag: np.ndarray, K_sm: np.ndarray, beta: np.ndarray) -> list:
        """Per latent function (a, v) (s,) under q(w) = N(m, L_S L_Sᵀ): a = βᵀm, v = k_ii − ‖β_i‖² + ‖L_Sᵀβ_i‖² (≥ 0)."""
        prior = k_diag - np.einsum("ij,ij->j", beta, beta)
        columns = []
        for m_w, L_S in zip(self._latents(self.m_w), self._latents(self.L_S)):
            V = L_S.T @ beta
            columns.append((beta.T @ m_w, np.maximum(prior + np.einsum("ij,ij->j", V, V), 0.0)))
        return columns

    def kl(self) -> float:
        """Σ_l KL(N(m_l, S_l) ‖ N(0, I)) = ½[tr S_l + m_lᵀm_l − m − log|S_l|] (= Σ_l KL(q(u_l) ‖ p(u_l)))."""
        return sum(
            0.5 * (float(np.sum(L_S**2)) + float(m_w @ m_w) - self.m) - float(np.sum(np.log(np.diag(L_S))))
            for m_w, L_S in zip(self._latents(self.m_w), self._latents(self.L_S))
        )

    def variational_gradient(self, K_sm: np.ndarray, y: np.ndarray, beta: np.ndarray | None = None) -> np.ndarray:
        """∂L̂/∂(packed m_l, L_S,l) of the minibatch bound, per latent function ∂m = (n/s)βg_a − m,
        ∂L_S = tril(2(n/s)βG_vβᵀL_S − L_S) + diag(1/L_ii), times L_ii on the log-diagonal."""
        beta = self._project(K_sm) if beta is None else beta
        scale = self.n / len(y)
        parts = []
        for (_, g_a, g_v), m_w, L_S in zip(
            self._slopes(K_sm, beta, y), self._latents(self.m_w), self._latents(self.L_S)
        ):
            grad_L = np.tril(2.0 * scale * ((beta * g_v) @ beta.T) @ L_S - L_S)
            diag = np.diag(L_S)
            grad_L[np.diag_indices(self.m)] += 1.0 / diag
            lower = grad_L[self._tril]
            lower[self._diag_in_tril] *= diag
            parts += [scale * (beta @ g_a) - m_w, lower]
        return np.concatenate(parts)

    def _variational_step(self, K_sm: np.ndarray, beta: np.ndarray, y: np.ndarray) -> float:
        old = self._pack()
        new = self.optimizer.ascend(old, self.variational_gradient(K_sm, y, beta))
        self.m_w, self.L_S = self._unpack(new)
        return relative_change(old, new)

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, beta: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(kernel log-parameters) at fixed (m_l, L_S,l): the sum over latent functions of
        `hyperparameters.whitened_kernel_gradient` at their slopes."""
        beta = self._project(K_sm) if beta is None else beta
        shared = (self.kernel, X_b, self.Z, K_sm, self.K_zz, self.L_K, self.L_K_inv)
        return sum(
            whitened_kernel_gradient(*shared, m_w, L_S @ L_S.T, g_a, g_v, self.n / len(y_b), beta)
            for (_, g_a, g_v), m_w, L_S in zip(
                self._slopes(K_sm, beta, y_b), self._latents(self.m_w), self._latents(self.L_S)
            )
        )

    def _stateful_parts(self) -> list:
        return super()._stateful_parts() + [self.optimizer]

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {**self._shared_state(), "m_w": self.m_w, "L_S": self.L_S, "optimizer": self.optimizer.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        self._load_shared_state(state)
        self.m_w, self.L_S = np.asarray(state["m_w"], dtype=float), np.asarray(state["L_S"], dtype=float)
        self.optimizer.load_state_dict(state["optimizer"])


# ----- (b) natural gradients from the likelihood's slopes ------------------------------------------------------
class SVGPNatGrad(_SVGP):
    """SVGP trained by natural-gradient steps on each latent function's η₁ = Σ⁻¹μ, η₂ = −½Σ⁻¹ (Salimbeni et al.
    2018).

    λ̂₁ = (n/s)κᵀ(g_a − 2g_v∘a), λ̂₂ = −½K_mm⁻¹ + (n/s)κᵀdiag(g_v)κ — X-GPC's targets at the pseudo-data (ỹ, θ̃) of
    the latent function's slopes; g_v ≤ 0 (the likelihoods are log-concave) keeps −η₂ positive definite for any
    ρ ∈ (0, 1]. `schedule` is an `explorer.schedules` rule (default: its row of `schedules.DEFAULT_STEP_RULES`, the
    paper's adaptive rule); a rule that needs a warm start gets it from `warm_start_batches` minibatches at the
    initial q, as in X-GPC. The kernel step keeps q(u) fixed, as in X-GPC.

    Parameters
    ----------
    X, y, Z, kernel
        As for `explorer.xgpc.XGPC`, y class indices 0…K−1 (K = `link.n_classes`); Z and the kernel are shared by
        the latent functions.
    schedule : step-size rule, optional
        A rule of `explorer.schedules` (default: the adaptive rule).
    rng : numpy.random.Generator, optional
        Draws the minibatches.
    link : likelihood, default LOGIT
        The likelihood (`explorer.likelihoods`): `LINKS["logit"]`, `LINKS["probit"]` or `Softmax(K)`.
    mc_rng : numpy.random.Generator, optional
        Draws the Monte Carlo points of a likelihood that draws (the softmax; default: spawned from `rng`).
    **keywords
        The SVI skeleton's (`explorer.engine.SVIEngine`).

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer import kernels, likelihoods
    >>> X, y = load("circles", n=80, seed=2)
    >>> engine = SVGPNatGrad(X, y, X[:10], kernels.RBF(1.0), batch_size=40, link=likelihoods.PROBIT)
    >>> engine.step(50)  # the adaptive rule's step sizes, after its warm start on 10 minibatches
    >>> bool(0 < engine.rho < 1), engine.predict_proba(X[:4]).shape
    (True, (4, 2))
    """

    default_rule = "svgp-natgrad"

    def _start_q(self) -> None:
        """q(u) at the prior: η₁ = 0, η₂ = −½K_mm⁻¹."""
        self._set_natural(
            np.zeros(self._latent_shape + (self.m,)), np.tile(-0.5 * self.K_inv, self._latent_shape + (1, 1))
        )

    def _set_natural(self, eta1: np.ndarray, eta2: np.ndarray) -> None:
        """η₁, η₂ and each latent function's q(u_l) = `linalg.Gaussian`(Σ_l⁻¹ = −2η₂,l, η₁,l) in `q`; a NumericalError
        naming the iteration (and the class of a K-class likelihood) if a −2η₂,l is not positive definite, with
        nothing changed."""
        blocks = self._latents(eta2)
        self.q = [
            Gaussian(-2.0 * block, shift, "Σ⁻¹ = −2η₂" + (f" of class {k}" if len(blocks) > 1 else ""), self.iteration)
            for k, (block, shift) in enumerate(zip(blocks, self._latents(eta1)))
        ]
        self.eta1, self.eta2, self.mu = eta1, eta2, self._assemble([q.mu for q in self.q])

    @property
    def Sigma(self) -> np.ndarray:
        """Σ_l = (−2η₂,l)⁻¹, shape (m, m) or (L, m, m)."""
        return self._assemble([q.Sigma for q in self.q])

    def _project(self, K_sm: np.ndarray) -> np.ndarray:
        """κ = K_smK_mm⁻¹, shape (s, m)."""
        return K_sm @ self.K_inv

    def _latent_marginals(self, k_diag: np.ndarray, K_sm: np.ndarray, kappa: np.ndarray) -> list:
        """Per latent function (a, v) (s,) under q(u) = N(μ, Σ), Σ⁻¹ = L_P L_Pᵀ: a = κμ, v = k_ii − κ_iK_mi + ‖L_P⁻¹κ_iᵀ‖²
        (≥ 0)."""
        prior = k_diag - np.einsum("ij,ij->i", kappa, K_sm)
        columns = []
        for q in self.q:
            V = q.L_inv @ kappa.T
            columns.append((kappa @ q.mu, np.maximum(prior + np.einsum("ij,ij->j", V, V), 0.0)))
        return columns

    def kl(self) -> float:
        """Σ_l KL(q(u_l) ‖ p(u_l))."""
        return sum(gaussian_kl(q.mu, q.L, q.L_inv, self.L_K, self.L_K_inv) for q in self.q)

    def natural_gradient_targets(
        self, K_sm: np.ndarray, y: np.ndarray, kappa: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(λ̂₁ (m,) or (L, m), λ̂₂ (m, m) or (L, m, m)) on a minibatch with cross-covariance K_sm (s, m), at the current
        q: per latent function, `targets.natural_gradient_targets` at the pseudo-data of its slopes."""
        kappa = self._project(K_sm) if kappa is None else kappa
        parts = [
            natural_gradient_targets(kappa, *pseudo_data(a, g_a, g_v), self.K_inv, self.n)
            for a, g_a, g_v in self._slopes(K_sm, kappa, y)
        ]
        return self._assemble([lam1 for lam1, _ in parts]), self._assemble([lam2 for _, lam2 in parts])

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
        change = relative_change(self._flat_natural_parameters(), np.concatenate([eta1.ravel(), eta2.ravel()]))
        self._set_natural(eta1, eta2)
        self.rho = rho
        return change

    def kernel_gradient(
        self, X_b: np.ndarray, y_b: np.ndarray, K_sm: np.ndarray, kappa: np.ndarray | None = None
    ) -> np.ndarray:
        """∂L̂/∂(kernel log-parameters) at fixed q(u): the sum over latent functions of X-GPC's
        `elbo_kernel_gradient` at their pseudo-data (ỹ, θ̃)."""
        kappa = self._project(K_sm) if kappa is None else kappa
        fixed = {"Z": self.Z, "n": self.n, "K_inv": self.K_inv, "kappa": kappa, "K_sm": K_sm, "K_zz": self.K_zz}
        return sum(
            elbo_kernel_gradient(self.kernel, X_b, y_tilde, mu=q.mu, L_P=q.L, theta=theta_tilde, **fixed)
            for (y_tilde, theta_tilde), q in zip(
                (pseudo_data(*slopes) for slopes in self._slopes(K_sm, kappa, y_b)), self.q
            )
        )

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        return {**self._shared_state(), "eta1": self.eta1, "eta2": self.eta2}

    def load_state_dict(self, state: dict) -> None:
        self._load_shared_state(state)
        eta1, eta2 = np.asarray(state["eta1"], dtype=float), np.asarray(state["eta2"], dtype=float)
        self._set_natural(eta1, eta2)
