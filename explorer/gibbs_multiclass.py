"""Exact Gibbs sampler for the full (non-sparse) K-class logistic-softmax GP, made conditionally conjugate by
augmentation (Galy-Fajou, Wenzel, Donner, Opper, UAI 2019): the ground truth of the multi-class MCMC comparison.

Model: K latent functions f_k ~ N(0, K) with one shared K = kernel.gram(X) (the nugget is white noise on f), class
indices y_i ∈ {0, …, K−1} with one-hot Y_ik = [y_i = k], and

    p(y_i = k | f_i) = σ(f_ik) / Σ_j σ(f_ij)                                   (explorer.likelihoods.logistic_softmax)

Augmentation per point i (paper §3): 1/S = ∫₀^∞ e^{−λS} dλ with S = Σ_k σ(f_ik) (a flat "prior" on λ_i);
e^{−λσ(f)} = Σ_n Po(n | λ) σ(−f)^n (as σ(f) = 1 − σ(−f)); σ(f)^Y σ(−f)^n = 2^{−b} e^{(Y−n)f/2} cosh(f/2)^{−b} with
b = Y + n, and cosh(f/2)^{−b} = ∫ e^{−ωf²/2} PG(ω | b, 0) dω (Polson et al. 2013). Together, the joint

    p(y_i, λ_i, n_i, ω_i | f_i) = Π_k 2^{−(Y_ik + n_ik)} exp(½(Y_ik − n_ik) f_ik − ½ω_ik f_ik²) PG(ω_ik | Y_ik + n_ik, 0)
                                      · Po(n_ik | λ_i),

whose every conditional is a closed-form exact draw. One sweep (this module's blocks):

    λ_i  | f        ~ Gamma(1, rate Σ_k σ(f_ik))          (the counts summed out: Σ_n Po(n|λ)σ(−f)^n = e^{−λσ(f)})
    n_ik | λ_i, f   ~ Po(λ_i σ(−f_ik))                    (ω integrated out)
    ω_ik | n, f     ~ PG(Y_ik + n_ik, |f_ik|)             (ω = 0 where Y_ik + n_ik = 0)
    f_k  | ω, n     ~ N(C_k (Y_k − n_k)/2, C_k),  C_k = (K⁻¹ + diag ω_k)⁻¹,   k = 1…K

The first three are one exact joint draw of (λ, n, ω) | f, so the f-chain is a two-block data-augmentation sampler.
The paper's λ_i | n_i ~ Gamma(1 + Σ_k n_ik, rate K) (the counts kept) is another exact block of the same joint; it
couples λ and n (a slow random walk where the σ(−f_ik) are near 1, i.e. for every wrong class), so it is not used
(about half the ESS of λ | f at the same cost per sweep).
The f_k draws are the binary sampler's (`explorer.gibbs.conditional_latent_precision` / `…_whitened`), and the
chains, traces, storage and diagnostics are `explorer.gibbs.GibbsChains`'.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from explorer import polyagamma
from explorer.gibbs import PREDICT_CHUNK, GibbsChains
from explorer.kernels import Kernel
from explorer.likelihoods import LogisticSoftmax, logistic_softmax, logistic_softmax_log_likelihood
from explorer.xgpc_multiclass import one_hot

PREDICTIVE_DRAWS = 16
"""Exact draws of f* | f per stored draw of f that `MulticlassGibbsSampler.predict_proba` averages over."""

MAX_COUNT_RATE = 1e7
"""Largest Poisson rate λ_i σ(−f_ik) of a count the sampler draws. The exact PG(Y + n, c) draw sums Y + n terms, so a
sweep costs about the counts' sum, which passes 1e9 (a sweep of hours) at kernel variance σ² = 1e4 on blobs-3.
Beyond this rate the sampler refuses to go on."""


def draw_lambda(F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """λ_i | f ~ Gamma(1, rate Σ_k σ(f_ik)), an exponential, for F (n, K): (n,). (The Poisson counts summed out.)"""
    return rng.exponential(1.0 / expit(F).sum(axis=1))


def draw_counts(lam: np.ndarray, F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """n_ik | λ_i, f ~ Po(λ_i σ(−f_ik)) for λ (n,) and F (n, K): (n, K) float whole numbers. (ω integrated out.)"""
    return rng.poisson(lam[:, None] * expit(-F)).astype(float)


def draw_omega(Y: np.ndarray, counts: np.ndarray, F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """ω_ik | n, f ~ PG(Y_ik + n_ik, |f_ik|), exactly 0 where Y_ik + n_ik = 0; Y, counts, F (n, K) → (n, K)."""
    return polyagamma.sample_whole_shape(Y + counts, F, rng)


class MulticlassGibbsSampler(GibbsChains):
    """Several independent Gibbs chains for the full K-class logistic-softmax GP of Galy-Fajou et al. (2019),
    advanced incrementally with `step(k)`; each block an exact draw (module docstring), one n×n Cholesky per f_k.

    ω is drawn by Devroye's exact sampler as a sum of Y_ik + n_ik PG(1, ·) draws (`polyagamma.sample_whole_shape`),
    so a sweep's cost grows with the counts, which are large only where every f_ik is far below 0 (λ_i has mean
    1/Σ_k σ(f_ik)). (The package's faster "alternate" method is biased for h > 1 at small |c|; not used.)

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Training inputs (finite).
    y : ndarray of shape (n,)
        Class indices 0…K−1, at least two classes present (a class may be absent).
    kernel : Kernel
        The one fixed kernel of all K latent functions; `kernel.gram(X)` includes its nugget.
    n_classes : int
        K ≥ 2. K = 2 is a valid two-class model, p(y = 1 | f) = σ(f_1)/(σ(f_0) + σ(f_1)), but not the logit one:
        its probability depends on both functions, not on one, and it cannot reach 0 or 1 from one function alone.
    **run
        rng, n_chains, burn_in, n_samples, thin, max_stored_draws, form, init_scale, monitor, force: as
        `explorer.gibbs.GibbsChains`' (`rng` is spawned into one stream per chain and one for the predictive's
        draws of f*; `form`: how each f_k | ω is drawn; `monitor`: the training indices whose f_ik are traced for
        every class).

    Attributes
    ----------
    f : ndarray of shape (chains, K, n)
        Every chain's latest f (class-major: f[c, k] is the k-th latent function at the n points).
    lam, counts, omega : ndarray of shape (chains, n), (chains, n, K), (chains, n, K)
        Every chain's latest augmentation.
    Y : ndarray of shape (n, K)
        The one-hot labels.
    likelihood : explorer.likelihoods.LogisticSoftmax
        The model's likelihood, p(y = k | f) = σ(f_k)/Σ_j σ(f_j).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(m, 0.5, (10, 2)) for m in ([-2, 0], [2, 0], [0, 2])])
    >>> y = np.repeat([0, 1, 2], 10)
    >>> sampler = MulticlassGibbsSampler(X, y, RBF(1.0), 3, rng=rng, n_chains=2, burn_in=20, n_samples=100).run()
    >>> sampler.posterior_mean().shape, sampler.draws.shape
    ((30, 3), (2, 100, 30, 3))
    >>> P = sampler.predict_proba(np.array([[-2.0, 0.0], [2.0, 0.0]]))
    >>> P.shape, bool(np.allclose(P.sum(axis=1), 1.0)), P.argmax(axis=1).tolist()
    ((2, 3), True, [0, 1])
    """

    model = "the sampler"

    def __init__(self, X: np.ndarray, y: np.ndarray, kernel: Kernel, n_classes: int, **run):
        self.likelihood = LogisticSoftmax(n_classes)  # refuses a K that is not a whole number ≥ 2
        self.n_classes = self.n_latent = int(n_classes)
        super().__init__(X, y, kernel, **run)
        self.Y = one_hot(self.y, self.n_classes)
        self.lam = np.zeros((self.n_chains, self.n))
        self.counts = np.zeros((self.n_chains, self.n, self.n_classes))
        self.omega = np.zeros((self.n_chains, self.n, self.n_classes))
        # the standard normals ε of f* = E[f* | f_s] + sd · ε, fixed per stored draw s (prediction is deterministic)
        self._predictive_noise = self.rng.spawn(1)[0].standard_normal(
            (self.n_chains, self._draws.shape[1], PREDICTIVE_DRAWS, self.n_classes)
        )

    # ----- the model -----------------------------------------------------------------------------------------------
    def _refuse_huge_counts(self, lam: np.ndarray, F: np.ndarray) -> None:
        """ValueError naming the kernel variance when a count's Poisson rate λ_i σ(−f_ik) passes MAX_COUNT_RATE (rows
        whose every latent value lies deep below 0: a prior far too wide for the exact augmentation)."""
        rates = lam[:, None] * expit(-F)
        i, k = np.unravel_index(np.argmax(rates), rates.shape)
        if rates[i, k] > MAX_COUNT_RATE:
            variance = self.kernel.variance
            raise ValueError(
                f"the K-class Gibbs sampler cannot go on at kernel variance σ² = {variance:g}: at row {i} every class's "
                f"latent value is far below 0 (the largest {F[i].max():.3g}), so the augmentation's Poisson count "
                f"has a rate of {rates[i, k]:.3g} (above {MAX_COUNT_RATE:.0e}) and its exact Pólya-Gamma draw would "
                f"take about that many terms. Use a smaller kernel variance (a prior sd of {np.sqrt(variance):.3g} "
                "is far wider than a classifier's latent values need; σ² ≤ 1e3 runs in seconds)"
            )

    def _stored_per_draw(self) -> int:
        return PREDICTIVE_DRAWS * self.n_classes

    def _sweep_chain(self, chain: int) -> None:
        rng = self.rngs[chain]
        F = self.f[chain].T  # (n, K)
        lam = draw_lambda(F, rng)
        self._refuse_huge_counts(lam, F)
        counts = draw_counts(lam, F, rng)
        omega = draw_omega(self.Y, counts, F, rng)
        z = rng.standard_normal((self.n_classes, self.n))
        target = self.Y - counts  # f_k | ω, n ~ N(C_k (Y_k − n_k)/2, C_k)
        for k in range(self.n_classes):
            self.f[chain, k] = self._draw_latent(omega[:, k], target[:, k], z[k])
        self.lam[chain], self.counts[chain], self.omega[chain] = lam, counts, omega

    def _log_likelihood(self) -> np.ndarray:
        return np.array([logistic_softmax_log_likelihood(self.y, f.T).sum() for f in self.f])

    # ----- predictions ---------------------------------------------------------------------------------------------
    def predict_proba(self, Xs: np.ndarray) -> np.ndarray:
        """The posterior predictive class probabilities p(y* = k | y) at Xs (n*, d): (n*, K), rows summing to 1.

        p(y* = k | y) = E_{f | y} E_{f* | f}[σ(f*_k) / Σ_j σ(f*_j)], estimated by exact draws: for every stored draw
        f_s, `PREDICTIVE_DRAWS` = 16 draws f*_k = K_*n K⁻¹ f_{s,k} + (k** − K_*n K⁻¹ K_n*)^½ ε_{s,r,k} (independent
        across classes), ε standard normals fixed per stored draw at construction, so the estimate is unbiased, a
        deterministic function of the stored draws, and each test point's value does not depend on the others.
        """
        means, var = self._test_conditionals(Xs)  # (S, K, n*), (n*,)
        noise = self._predictive_noise[:, : self.draws_stored].reshape(-1, PREDICTIVE_DRAWS, self.n_classes)
        rows = max(1, PREDICT_CHUNK // (PREDICTIVE_DRAWS * self.n_classes * max(1, len(var))))
        total = np.zeros((len(var), self.n_classes))
        sd = np.sqrt(var)
        for start in range(0, len(means), rows):
            block = slice(start, start + rows)
            F = means[block, None, :, :] + sd * noise[block, :, :, None]  # (rows, draws of f*, K, n*)
            total += logistic_softmax(np.swapaxes(F, -1, -2)).sum(axis=(0, 1))
        return total / (len(means) * PREDICTIVE_DRAWS)
