"""EPGPC: sparse GP classification by expectation propagation (the paper's third system), on the SVI skeleton.

Hernández-Lobato & Hernández-Lobato, "Scalable Gaussian Process Classification via Expectation Propagation"
(AISTATS 2016, arXiv 1507.04513) and its memory-light stochastic-EP form (Hernández-Lobato, Hernández-Lobato, Li,
Bui, Turner, arXiv 1511.03249; SEP: Li, Hernández-Lobato, Turner, NIPS 2015). Labels y ∈ {−1, +1} in the equations
(given as class indices 0, 1: `SVIEngine._batch`), probit link.

Model on the inducing values u = f(Z) (Z fixed, m rows), p(u) = N(0, K_mm), κ_i = K_im K_mm⁻¹, K̃_ii = k_ii − κ_iK_mi:

    φ_i(u) = ∫ Φ(y_i f_i) N(f_i | κ_iu, K̃_ii) df_i = Φ(y_i κ_iu / √(1 + K̃_ii)),     p(y, u) ≈ p(u) Π_i φ_i(u).

Each φ_i is replaced by a Gaussian site in u-space, t̃_i(u) = exp(−½uᵀΛ_iu + h_iᵀu). φ_i depends on u only through
t = κ_iu, so EP's site is rank one: Λ_i = τ̃_i κ_iᵀκ_i, h_i = ν̃_i κ_iᵀ, with (τ̃_i, ν̃_i) the 1-D site of
Φ(y t/√(1 + K̃_ii)) against the cavity's marginal N(t | κ_iμ₋ᵢ, κ_iΣ₋ᵢκ_iᵀ) (`probit_site_in_u_space`). The sites
keep their u-space parameters when the kernel changes (only p(u) changes), so a kernel step costs O(m³),
independent of n.

Two forms of the sites (`sites=`):
  "tied" (default, SEP)  one site f̃ shared by all points, q(u) ∝ p(u) f̃(u)ⁿ; f̃'s natural parameters (h_f (m,),
                         Λ_f (m, m)) are the only state: memory O(m²) whatever n. Cavity q₋₁ ∝ p(u) f̃(u)ⁿ⁻¹. A
                         minibatch B moves them towards the mean of its sites: λ_f ← (1 − ε)λ_f + ε (1/s)Σ_{i∈B} λ_i
                         (f̃ ← f̃^{1−ε} Π_B t̃_i^{ε/s}), ε from the step-size rule (`schedules`, row "epgpc").
  "per-point" (EP)       one rank-one site per point, stored as its direction a_i = κ_i at its last update and
                         (τ̃_i, ν̃_i): memory O(nm) (the AISTATS 2016 form). A minibatch's sites are replaced at once
                         with damping δ: (τ̃, ν̃) ← (1 − δ)(τ̃, ν̃)_old + δ(τ̃, ν̃)_new, direction the current κ_i.
                         With s = n and a fixed kernel this is damped parallel EP; its fixed point is EP's.
Why the tied form is the default, the damping and ε the papers leave open, and the kernel step: README ("EPGPC");
their numbers: BENCHMARKS.md ("EPGPC's step ε", "Numbers from the core modules' docstrings").

EP's estimate of log p(y) (Seeger 2005), with Ψ(Λ, h) = ½hᵀΛ⁻¹h − ½log|Λ| the log normaliser of a Gaussian in natural
parameters (the (m/2)log 2π terms cancel) and Z_i = ∫ φ_i(u) q₋ᵢ(u) du = Φ(y_i κ_iμ₋ᵢ / √(1 + K̃_ii + κ_iΣ₋ᵢκ_iᵀ)):

    per-point  log Z_EP = Ψ(q) − Ψ(p) + Σ_i [log Z_i + Ψ(q₋ᵢ) − Ψ(q)],
    tied       log Z_EP = (1 − n)Ψ(q) − Ψ(p) + nΨ(q₋₁) + Σ_i log Z_i        (exact for n = 1).

It is an estimate, not a lower bound (`elbo` returns it for the Trainer's "elbo" column). Kernel learning follows the
authors: Adam ascent along its stochastic gradient at fixed sites, the sum over points replaced by (n/s)Σ_B. At a
per-point EP fixed point the estimate is stationary in the sites, so this partial derivative is the total one; the
tied estimate is stationary where q's moments are the tilted moments' mean, not quite SEP's fixed point (which
averages natural parameters), so there it is the authors' fixed-site gradient, not the total derivative.
Predictions: q(f*) = N(κ*μ, k** − κ*K_m* + κ*Σκ*ᵀ), p(y* = 1) = Φ(μ*/√(1 + σ*²)).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.engine import SVIEngine
from explorer.inputs import inducing_inputs
from explorer.kernels import Kernel
from explorer.likelihoods import PROBIT, probit_log_normaliser_derivatives
from explorer.linalg import Gaussian
from explorer.schedules import Constant, schedule_for
from explorer.sources import as_source

SITE_FORMS = ("tied", "per-point")


def probit_site_in_u_space(
    y: np.ndarray, t_mean: np.ndarray, t_var: np.ndarray, K_tilde: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The 1-D site of φ(t) = Φ(y t/√(1 + K̃)) against the cavity N(t | t_mean, t_var), t = κu:
    log Z = log Φ(y t_mean/√(1 + K̃ + t_var)), α = ∂log Z/∂t_mean, β = ∂log Z/∂t_var = (α² − γ)/2, and the site
    τ̃ = γ/(1 − t_var γ), ν̃ = (α + t_mean γ)/(1 − t_var γ) (γ = −∂²log Z/∂t_mean²). All (s,) → five (s,)."""
    log_z, alpha, gamma = probit_log_normaliser_derivatives(y, t_mean, K_tilde + t_var)
    denominator = 1.0 - t_var * gamma  # > 0: γ < 1/(1 + K̃ + t_var)
    return log_z, alpha, 0.5 * (alpha * alpha - gamma), gamma / denominator, (alpha + t_mean * gamma) / denominator


class _SiteJournal:
    """The per-point sites (directions a (n, m), τ̃ (n,), ν̃ (n,)) with an undo journal, so a failed iteration rolls
    back in O(sm) instead of copying O(nm): `state_dict()` opens a journal (what the engine snapshots before an
    iteration), `write` records the rows' old values in it, `load_state_dict(journal)` undoes them."""

    def __init__(self, n: int, m: int):
        self.direction, self.tau, self.nu = np.zeros((n, m)), np.zeros(n), np.zeros(n)
        self._journal: list = []

    def write(self, rows: np.ndarray, direction: np.ndarray, tau: np.ndarray, nu: np.ndarray) -> None:
        self._journal.append((rows, self.direction[rows].copy(), self.tau[rows].copy(), self.nu[rows].copy()))
        self.direction[rows], self.tau[rows], self.nu[rows] = direction, tau, nu

    def state_dict(self) -> dict:
        self._journal = []
        return {"journal": self._journal}

    def load_state_dict(self, state: dict) -> None:
        for rows, direction, tau, nu in reversed(state["journal"]):
            self.direction[rows], self.tau[rows], self.nu[rows] = direction, tau, nu
        state["journal"].clear()

    def extended(self, n: int) -> "_SiteJournal":
        """A copy with rows for n ≥ current points (new points have no site yet)."""
        grown = _SiteJournal(n, self.direction.shape[1])
        old = len(self.tau)
        grown.direction[:old], grown.tau[:old], grown.nu[:old] = self.direction, self.tau, self.nu
        return grown


class EPGPC(SVIEngine):
    """EPGPC on the SVI skeleton (`explorer.engine.SVIEngine`): its step is the minibatch EP/SEP site update, its
    objective EP's log-evidence estimate.

    `hyper_optimizer` (an `Adam`) turns on kernel learning along the stochastic gradient of log Z_EP at fixed sites.
    `rho` is the last ε (δ). Attributes q (`linalg.Gaussian`, the posterior of u), `mu`, `Sigma`; tied: `site_shift` h_f,
    `site_precision` Λ_f.

    Parameters
    ----------
    X, y, Z, kernel
        As for `explorer.xgpc.XGPC` (Z not None).
    sites : {"tied", "per-point"}, default "tied"
        SEP's tied site, or parallel minibatch EP.
    schedule : step-size rule, optional
        ε (tied; default its row of `schedules.DEFAULT_STEP_RULES`) or the damping δ (per-point; default
        `Constant(0.5)`), a rule of `explorer.schedules`.
    **keywords
        The SVI skeleton's (`explorer.engine.SVIEngine`).

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer.kernels import RBF
    >>> X, y = load("banana-like", n=80, seed=2)
    >>> tied, per_point = (EPGPC(X, y, X[:10], RBF(1.0), sites=form, batch_size=40) for form in SITE_FORMS)
    >>> tied.step(50), per_point.step(50)  # one m × m site for all n points, or one rank-one site per point
    (None, None)
    >>> P = tied.predict_proba(X[:4])
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0)), per_point.point_sites is not None
    ((4, 2), True, True)
    """

    link = PROBIT

    def __init__(self, X, y, Z, kernel: Kernel, *, sites: str = "tied", schedule=None, **keywords):
        if sites not in SITE_FORMS:
            raise ValueError(f"sites must be one of {SITE_FORMS}, got {sites!r}")
        if schedule is None:
            schedule = schedule_for("epgpc") if sites == "tied" else Constant(0.5)
        if sites == "per-point" and getattr(schedule, "needs_warm_start", False):
            raise ValueError("the per-point sites take a constant or Robbins–Monro damping, not the adaptive rule")
        self.sites = sites
        source = as_source(X, y)
        Z = inducing_inputs(Z, source.d)
        m = len(Z)
        if sites == "tied":
            self.site_shift, self.site_precision = np.zeros(m), np.zeros((m, m))
        else:
            self.point_sites = _SiteJournal(source.n, m)
            self.sum_shift, self.sum_precision = np.zeros(m), np.zeros((m, m))
        super().__init__(source, Z, kernel, schedule=schedule, **keywords)
        self.last_c = np.zeros(0)  # no PG parameters (Model.last_local)

    # ----- kernel and posterior ------------------------------------------------------------------------------
    def _set_kernel(self, kernel: Kernel) -> None:
        """The skeleton's kernel factors (B = K_mm⁻¹ among them), and q (and the tied cavity) for the new prior."""
        super()._set_kernel(kernel)
        self._set_posterior()

    def _set_posterior(self) -> None:
        """q = p · sites: tied Λ = B + nΛ_f, h = nh_f and the cavity q₋₁ (B + (n−1)Λ_f, (n−1)h_f); per-point
        Λ = B + Σ_iΛ_i, h = Σ_ih_i."""
        if self.sites == "tied":
            self.q = Gaussian(
                self.K_inv + self.n * self.site_precision,
                self.n * self.site_shift,
                "Σ⁻¹ = K_mm⁻¹ + nΛ_f",
                self.iteration,
            )
            self.cavity = Gaussian(
                self.K_inv + (self.n - 1) * self.site_precision,
                (self.n - 1) * self.site_shift,
                "the cavity's precision K_mm⁻¹ + (n − 1)Λ_f",
                self.iteration,
            )
        else:
            self.q = Gaussian(self.K_inv + self.sum_precision, self.sum_shift, "Σ⁻¹ = K_mm⁻¹ + Σ_iΛ_i", self.iteration)
        self.mu = self.q.mu  # the posterior mean of u, (m,)

    @property
    def Sigma(self) -> np.ndarray:
        """The posterior covariance of u, (m, m)."""
        return self.q.Sigma

    def set_training_data(self, X: np.ndarray, y: np.ndarray) -> None:
        """Replace the training set (e.g. a point added by the user), keeping the sites, Z and the kernel: the tied
        site now stands for the new n points; new points get empty per-point sites."""
        super().set_training_data(X, y)
        if self.sites == "per-point":
            self.point_sites = self.point_sites.extended(self.n)
        self._set_posterior()

    # ----- cavities of a minibatch ---------------------------------------------------------------------------
    def _cavities(self, rows: np.ndarray, kappa: np.ndarray, K_sm: np.ndarray | None = None) -> dict:
        """The cavity of each row and its marginal of t_i = κ_iu: t_mean, t_var (s,); given K_sm (for the kernel
        gradient) also P (rows Bμ₋ᵢ) and E (rows BΣ₋ᵢκ_iᵀ − κ_i), (s, m); per-point also U (rows BΣa_i), d_i
        (Σ₋ᵢ = Σ + d_iΣa_ia_iᵀΣ) and Ψ(q₋ᵢ) − Ψ(q) (s,)."""
        B = self.K_inv
        if self.sites == "tied":
            cav = self.cavity
            if K_sm is None:
                return {"t_mean": kappa @ cav.mu, "t_var": cav.quadratic_forms(kappa)}
            kappa_Sigma_B = K_sm @ cav.sandwich(B)  # κΣ₋₁B = K_sm BΣ₋₁B
            P = np.repeat((B @ cav.mu)[None], len(kappa), axis=0)
            t_var = np.einsum("ij,ij->i", kappa_Sigma_B, K_sm)
            return {"t_mean": kappa @ cav.mu, "t_var": t_var, "P": P, "E": kappa_Sigma_B - kappa}
        q, store = self.q, self.point_sites
        a, tau, nu = store.direction[rows], store.tau[rows], store.nu[rows]
        sigma_a = a @ q.Sigma  # rows Σa_i
        s_aa = np.einsum("ij,ij->i", sigma_a, a)
        d = tau / (1.0 - tau * s_aa)  # Σ₋ᵢ = Σ + d_i Σa_i a_iᵀΣ (Sherman–Morrison; 1 − τ̃ aᵀΣa > 0 for Λ₋ᵢ ≻ 0)
        shift = d * (a @ q.mu) - nu * (1.0 + d * s_aa)  # μ₋ᵢ = μ + shift_i Σa_i
        kappa_sigma_a = np.einsum("ij,ij->i", kappa, sigma_a)
        kappa_Sigma = kappa @ q.Sigma
        U = sigma_a @ B
        mu_cav_dot_h = (q.mu + shift[:, None] * sigma_a) @ q.shift - nu * (a @ q.mu + shift * s_aa)
        return {
            "t_mean": kappa @ q.mu + shift * kappa_sigma_a,
            "t_var": np.einsum("ij,ij->i", kappa_Sigma, kappa) + d * kappa_sigma_a**2,
            "P": B @ q.mu + shift[:, None] * U,
            "E": kappa_Sigma @ B + (d * kappa_sigma_a)[:, None] * U - kappa,
            "U": U,
            "d": d,
            "log_normaliser_change": 0.5 * (mu_cav_dot_h - float(q.shift @ q.mu)) - 0.5 * np.log1p(-tau * s_aa),
        }

    # ----- the EP step of one iteration (the skeleton's `_update_q`) -----------------------------------------
    def _update_q(self, index: np.ndarray, X_b: np.ndarray, y_b: np.ndarray) -> tuple[float, tuple]:
        """Moment-match the minibatch's tilted distributions against their cavities and move the sites (tied: step ε;
        per-point: damping δ). Returns the relative change of the sites' natural parameters and (rows, κ, K̃, K_sm)
        for the kernel gradient."""
        kappa, K_tilde, K_sm = self.project(X_b)
        cav = self._cavities(index, kappa)
        _, _, _, tau, nu = probit_site_in_u_space(y_b, cav["t_mean"], cav["t_var"], K_tilde)
        tied = self.sites == "tied"
        change = self._tied_step(kappa, tau, nu) if tied else self._per_point_step(index, kappa, tau, nu)
        return change, (index, kappa, K_tilde, K_sm)

    def _tied_step(self, kappa: np.ndarray, tau: np.ndarray, nu: np.ndarray) -> float:
        """λ_f ← λ_f + ε(λ̄ − λ_f), λ̄ the minibatch's mean site: h̄ = κᵀν̃/s, Λ̄ = κᵀdiag(τ̃)κ/s."""
        gradient = self._mean_site(kappa, tau, nu) - np.concatenate([self.site_shift, self.site_precision.ravel()])
        squared_norm = float(gradient @ gradient)
        epsilon = self.schedule.rate(gradient, squared_norm)
        old_norm = math.sqrt(float(self.site_shift @ self.site_shift) + float(np.sum(self.site_precision**2)))
        m = self.m
        self.site_shift = self.site_shift + epsilon * gradient[:m]
        self.site_precision = self.site_precision + epsilon * gradient[m:].reshape(m, m)
        self._set_posterior()
        self.rho = epsilon
        return epsilon * math.sqrt(squared_norm) / max(old_norm, 1e-12)

    def _per_point_step(self, rows: np.ndarray, kappa: np.ndarray, tau: np.ndarray, nu: np.ndarray) -> float:
        """(τ̃, ν̃)_i ← (1 − δ)(τ̃, ν̃)_i + δ(τ̃, ν̃)_new in the direction κ_i, for every row of the minibatch at once;
        the sums Σ_iΛ_i, Σ_ih_i follow by the difference of the old and new rank-one sites."""
        store = self.point_sites
        a_old, tau_old, nu_old = store.direction[rows], store.tau[rows], store.nu[rows]
        delta = self.schedule.rate(np.concatenate([tau - tau_old, nu - nu_old]))
        tau_new, nu_new = tau_old + delta * (tau - tau_old), nu_old + delta * (nu - nu_old)
        new_root, old_root = np.sqrt(tau_new)[:, None] * kappa, np.sqrt(tau_old)[:, None] * a_old
        old_sum = np.concatenate([self.sum_shift, self.sum_precision.ravel()])
        self.sum_precision = self.sum_precision + new_root.T @ new_root - old_root.T @ old_root
        self.sum_shift = self.sum_shift + kappa.T @ nu_new - a_old.T @ nu_old
        store.write(rows, kappa, tau_new, nu_new)
        self._set_posterior()
        self.rho = delta
        new_sum = np.concatenate([self.sum_shift, self.sum_precision.ravel()])
        return float(np.linalg.norm(new_sum - old_sum) / max(np.linalg.norm(old_sum), 1e-12))

    def _warm_start_target(self, index: np.ndarray) -> np.ndarray:
        """The minibatch's mean site (h̄, vec Λ̄) at the current cavity (tied sites; for the adaptive rule)."""
        X_b, y_b = self._batch(index)
        kappa, K_tilde, _ = self.project(X_b)
        cav = self._cavities(index, kappa)
        return self._mean_site(kappa, *probit_site_in_u_space(y_b, cav["t_mean"], cav["t_var"], K_tilde)[3:])

    @staticmethod
    def _mean_site(kappa: np.ndarray, tau: np.ndarray, nu: np.ndarray) -> np.ndarray:
        """The mean site of the rows with projection κ (s, m) and sites τ̃, ν̃ (s,), flat (h̄, vec Λ̄) (m + m²,)."""
        root = np.sqrt(tau / len(tau))[:, None] * kappa
        return np.concatenate([kappa.T @ nu / len(tau), (root.T @ root).ravel()])

    def _flat_natural_parameters(self) -> np.ndarray:
        return np.concatenate([self.site_shift, self.site_precision.ravel()])

    # ----- EP's estimate of log p(y) and its kernel gradient -----------------------------------------------
    def _normaliser_terms(self) -> float:
        """The terms of log Z_EP without the points' sums: tied (1 − n)Ψ(q) − Ψ(p) + nΨ(q₋₁); per-point Ψ(q) − Ψ(p)
        (Ψ(p) = ½log|K_mm|)."""
        prior = float(np.sum(np.log(np.diag(self.L_K))))
        if self.sites == "tied":
            return (1 - self.n) * self.q.log_normaliser - prior + self.n * self.cavity.log_normaliser
        return self.q.log_normaliser - prior

    def _point_terms(self, rows: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Each row's term of log Z_EP: log Z_i, plus Ψ(q₋ᵢ) − Ψ(q) for per-point sites. (s,)."""
        kappa, K_tilde, _ = self.project(X)
        cav = self._cavities(rows, kappa)
        log_z = probit_site_in_u_space(y, cav["t_mean"], cav["t_var"], K_tilde)[0]
        return log_z if self.sites == "tied" else log_z + cav["log_normaliser_change"]

    def elbo(self, index: np.ndarray | None = None) -> float:
        """EP's estimate of log p(y | θ) (module docstring) — an approximation, NOT a lower bound (the Trainer's
        "elbo" column). On all n points (in chunks), or with the points' sum estimated as (n/s)Σ over `index`."""
        return self._normaliser_terms() + self._estimate(self._point_terms, index)

    def kernel_gradient(self, index: np.ndarray) -> np.ndarray:
        """∂(log Z_EP estimate)/∂(kernel log-parameters) on the minibatch `index` at fixed sites → (L + 1,)."""
        X_b, y_b = self._batch(index)
        return self._minibatch_kernel_gradient(X_b, y_b, (index, *self.project(X_b)))

    def _minibatch_kernel_gradient(self, X_b: np.ndarray, y_b: np.ndarray, context: tuple) -> np.ndarray:
        """The gradient on the rows X_b with `context` = (rows, κ, K̃, K_sm) of `_update_q`: through K_mm (B = K_mm⁻¹, Λ_q = B + sites, dB = −B dK B), K_sm and k_ii at fixed site parameters.
        For log Z_i(a, v), a = κμ₋ᵢ, v = K̃ + κΣ₋ᵢκᵀ: da = dkᵀp + eᵀdK p, dv = dk_ii + 2dkᵀe + eᵀdK e with p = Bμ₋ᵢ,
        e = BΣ₋ᵢκᵀ − κᵀ; dΨ(Λ, h) = −½tr((Σ + μμᵀ)dΛ) gives ½B(Σ + μμᵀ)B for each normaliser, ½B for Ψ(p)."""
        rows, kappa, K_tilde, K_sm = context
        scale = self.n / len(y_b)
        cav = self._cavities(rows, kappa, K_sm)
        _, alpha, beta, _, _ = probit_site_in_u_space(y_b, cav["t_mean"], cav["t_var"], K_tilde)
        P, E = cav["P"], cav["E"]
        B = self.K_inv

        p_q = B @ self.q.mu
        G_mm = (beta[:, None] * E).T @ E  # the log Z_i terms: Σ_i β_ie_ie_iᵀ + ½α_i(e_ip_iᵀ + p_ie_iᵀ)
        if self.sites == "tied":  # p_i = p₋₁ for all i; (1 − n)·½B(Σ + μμᵀ)B + n·½B(Σ₋₁ + μ₋₁μ₋₁ᵀ)B − ½B
            p_c, E_alpha = P[0], E.T @ alpha
            G_mm += 0.5 * (np.outer(E_alpha, p_c) + np.outer(p_c, E_alpha))
            G_mm = scale * G_mm + 0.5 * (
                (1 - self.n) * (self.q.sandwich(B) + np.outer(p_q, p_q))
                + self.n * (self.cavity.sandwich(B) + np.outer(p_c, p_c))
                - B
            )
        else:  # Ψ(q)(1 − n) + Σ_iΨ(q₋ᵢ): Σ_i ½B(Σ₋ᵢ + μ₋ᵢμ₋ᵢᵀ)B = ½(n·BΣB + Uᵀdiag(d)U + PᵀP) (estimated)
            U, d = cav["U"], cav["d"]
            alpha_E = alpha[:, None] * E
            G_mm += 0.5 * (alpha_E.T @ P + P.T @ alpha_E + (d[:, None] * U).T @ U + P.T @ P)
            G_mm = scale * G_mm + 0.5 * (self.q.sandwich(B) + (1 - self.n) * np.outer(p_q, p_q) - B)
        G_sm = scale * (alpha[:, None] * P + 2.0 * beta[:, None] * E)
        G_mm = 0.5 * (G_mm + G_mm.T)
        gradient = self.kernel.contract_gradient(
            np.concatenate([X_b, self.Z]), self.Z, np.concatenate([K_sm, self.K_zz]), np.concatenate([G_sm, G_mm])
        )
        gradient[-1] += scale * self.kernel.variance * float(beta.sum())
        return gradient

    # ----- prediction ----------------------------------------------------------------------------------------
    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) = N(κ*μ, k** − κ*K_m* + κ*Σκ*ᵀ). Xs (n*, d) → (n*,), (n*,)."""
        return self._in_chunks(self._marginals, Xs)

    def _marginals(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance (s,) of q(f_i) at the rows X (s, d)."""
        K_sm = self._cross(X)
        kappa = K_sm @ self.K_inv
        variance = self._prior_variance - np.einsum("ij,ij->i", kappa, K_sm) + self.q.quadratic_forms(kappa)
        return kappa @ self.q.mu, variance

    # ----- persistence ---------------------------------------------------------------------------------------
    def _stateful_parts(self) -> list:
        return super()._stateful_parts() + ([self.point_sites] if self.sites == "per-point" else [])

    def state_dict(self) -> dict:
        """Everything needed to continue bit-identically (arrays and plain values; no pickle)."""
        if self.sites == "tied":
            sites = {"site_shift": self.site_shift, "site_precision": self.site_precision}
        else:
            sites = {f"site_{name}": getattr(self.point_sites, name).copy() for name in ("direction", "tau", "nu")}
            sites |= {"sum_shift": self.sum_shift, "sum_precision": self.sum_precision}
        return {**self._base_state(), "sites": self.sites, **sites}

    def load_state_dict(self, state: dict) -> None:
        if state.get("sites") != self.sites:
            raise ValueError(f"the state holds {state.get('sites')!r} sites, this engine {self.sites!r}")
        m = self.m
        if self.sites == "tied":
            shift, precision = (np.asarray(state[k], dtype=float) for k in ("site_shift", "site_precision"))
            if shift.shape != (m,) or precision.shape != (m, m):
                raise ValueError(f"tied site of shapes {shift.shape}, {precision.shape}, expected ({m},), ({m}, {m})")
            self.site_shift, self.site_precision = shift, precision
        else:
            self.point_sites = store = _SiteJournal(self.n, m)
            for name in ("direction", "tau", "nu"):
                getattr(store, name)[:] = np.asarray(state[f"site_{name}"], dtype=float)
            self.sum_shift = np.asarray(state["sum_shift"], dtype=float).reshape(m)
            self.sum_precision = np.asarray(state["sum_precision"], dtype=float).reshape(m, m)
        self._load_base_state(state)  # the kernel last: its `_set_kernel` rebuilds q from the sites
