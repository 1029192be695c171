"""The K-class logistic-softmax Gibbs sampler (Galy-Fajou et al. 2019): the augmentation identity, each block's
conditional against numerical integrals of the augmented joint, and the whole sampler against brute-force importance
sampling on a tiny problem."""

import functools

import numpy as np
import pytest
from polyagamma import polyagamma_pdf
from scipy import integrate, stats
from scipy.special import expit

from explorer import diagnostics, gibbs_multiclass
from explorer.gibbs_multiclass import MulticlassGibbsSampler, draw_counts, draw_lambda, draw_omega
from explorer.kernels import RBF
from explorer.likelihoods import logistic_softmax
from explorer.metrics import predicted_class
from explorer.run import full_batch_engine
from explorer.training import fit_to_optimum
from explorer.xgpc_multiclass import AugmentedLogisticSoftmax


# ----- the augmented joint, written independently of the module -----------------------------------------------------
def pg_laplace_transform_numerically(b, f):
    """∫₀^∞ e^{−ωf²/2} PG(ω | b, 0) dω by quadrature of the polyagamma package's density (b > 0), split where the
    density rises steeply from 0 and where its tail starts (one adaptive rule over (0, ∞) misses 1e-4 of the mass)."""
    pieces = [(0.0, 0.05), (0.05, 0.5), (0.5, 5.0), (5.0, np.inf)]
    integrand = lambda w: np.exp(-0.5 * w * f * f) * polyagamma_pdf(w, h=b)  # noqa: E731
    return sum(integrate.quad(integrand, a, c, limit=200)[0] for a, c in pieces)


@pytest.mark.parametrize("b", [1, 2, 3])
@pytest.mark.parametrize("f", [-3.0, -0.4, 0.0, 1.3, 4.0])
def test_pg_integral_is_the_hyperbolic_secant_power(b, f):
    # The ω factor of the joint: ∫ e^{−ωf²/2} PG(ω | b, 0) dω = cosh(f/2)^{−b}, so that
    # 2^{−b} e^{±bf/2} cosh(f/2)^{−b} = σ(±f)^b (Polson et al. 2013).
    assert pg_laplace_transform_numerically(b, f) == pytest.approx(np.cosh(f / 2) ** -b, rel=1e-7)
    assert 2.0**-b * np.exp(b * f / 2) * np.cosh(f / 2) ** -b == pytest.approx(expit(f) ** b, rel=1e-12)


def class_factor(Y, n, f, lam=None):
    """The joint's factor of one class with ω integrated out, 2^{−(Y+n)} e^{(Y−n)f/2} cosh(f/2)^{−(Y+n)}, times
    Po(n | λ) if λ is given; in logarithms (n runs into the hundreds)."""
    b = Y + n
    log_cosh = np.logaddexp(f / 2, -f / 2) - np.log(2.0)
    log_value = -b * np.log(2.0) + 0.5 * (Y - n) * f - b * log_cosh
    return np.exp(log_value if lam is None else log_value + stats.poisson.logpmf(n, lam))


N_TERMS = np.arange(0, 700)  # counts summed over; λσ(−f) stays below 300 where the λ integrand is not negligible


def summed_over_counts(lam, Y_i, f_i):
    """Σ_{n_i} Π_k class_factor(Y_ik, n_ik, f_ik) Po(n_ik | λ) (the counts independent given λ): a number."""
    return np.prod([class_factor(Y, N_TERMS, f, lam).sum() for Y, f in zip(Y_i, f_i)])


def test_augmentation_identity_returns_the_logistic_softmax():
    # ∫₀^∞ Σ_n Π_k 2^{−(Y+n)} e^{(Y−n)f/2} cosh(f/2)^{−(Y+n)} Po(n_k | λ) dλ = σ(f_y)/Σ_j σ(f_j), on a grid of f
    # (K = 3, every class as the label), the counts summed and λ integrated numerically.
    grid = np.random.default_rng(0).uniform(-3.0, 3.0, (8, 3))
    for f_i in grid:
        for label in range(3):
            Y_i = np.eye(3)[label]
            value, _ = integrate.quad(summed_over_counts, 0.0, np.inf, args=(Y_i, f_i), limit=200)
            assert value == pytest.approx(logistic_softmax(f_i)[label], rel=1e-7)


# ----- each block against its conditional of the joint -------------------------------------------------------------
F_BLOCK = np.array([[-2.5, 0.3, 1.8], [0.0, -1.0, 3.0]])  # (n = 2, K = 3)
Y_BLOCK = np.eye(3)[[2, 0]]  # one-hot labels of classes 2 and 0


def test_gamma_draws_match_the_conditional_of_the_joint():
    # p(λ_i | f, y) ∝ Σ_n Π_k class_factor · Po (flat prior on λ): normalised and its mean and variance by quadrature.
    N = 200_000
    lam = draw_lambda(np.repeat(F_BLOCK, N, axis=0), np.random.default_rng(1)).reshape(2, N)
    for i in range(2):
        density = lambda t: summed_over_counts(t, Y_BLOCK[i], F_BLOCK[i])  # noqa: E731
        mass = integrate.quad(density, 0.0, np.inf, limit=200)[0]
        mean = integrate.quad(lambda t: t * density(t), 0.0, np.inf, limit=200)[0] / mass
        second = integrate.quad(lambda t: t * t * density(t), 0.0, np.inf, limit=200)[0] / mass
        var = second - mean**2
        m4 = np.mean((lam[i] - lam[i].mean()) ** 4)
        assert abs(lam[i].mean() - mean) < 5 * np.sqrt(var / N)
        assert abs(lam[i].var() - var) < 5 * np.sqrt((m4 - var**2) / N)


def test_count_draws_match_the_conditional_of_the_joint():
    # p(n_ik | λ_i, f, y) ∝ Po(n | λ) class_factor(Y, n, f) (ω integrated out), normalised over n numerically:
    # the draws' frequencies of n = 0…5 within 5 binomial standard errors.
    N = 200_000
    lam = np.array([0.7, 2.4])
    counts = draw_counts(np.repeat(lam, N), np.repeat(F_BLOCK, N, axis=0), np.random.default_rng(2)).reshape(2, N, 3)
    for i in range(2):
        for k in range(3):
            pmf = class_factor(Y_BLOCK[i, k], N_TERMS, F_BLOCK[i, k], lam[i])
            pmf /= pmf.sum()
            frequency = np.bincount(counts[i, :, k].astype(int), minlength=6)[:6] / N
            assert np.all(np.abs(frequency - pmf[:6]) < 5 * np.sqrt(pmf[:6] * (1 - pmf[:6]) / N) + 1e-12)


def pg_moments(b, c):
    """Mean and variance of PG(b, c), a sum of b independent PG(1, c): b tanh(c/2)/(2c), b (sinh c − c)/(4c³
    cosh²(c/2)); limits b/4 and b/24 at c = 0."""
    if c == 0.0:
        return b / 4, b / 24
    return b * np.tanh(c / 2) / (2 * c), b * (np.sinh(c) - c) / (4 * c**3 * np.cosh(c / 2) ** 2)


def test_omega_draws_match_the_polya_gamma_conditional():
    # ω | n, f ~ PG(Y + n, |f|): mean and variance within 5 standard errors; exactly 0 where Y + n = 0.
    N = 100_000
    counts = np.array([[0.0, 1.0, 3.0], [0.0, 0.0, 2.0]])
    omega = draw_omega(
        np.repeat(Y_BLOCK, N, axis=0),
        np.repeat(counts, N, axis=0),
        np.repeat(F_BLOCK, N, axis=0),
        np.random.default_rng(3),
    ).reshape(2, N, 3)
    for i in range(2):
        for k in range(3):
            b = Y_BLOCK[i, k] + counts[i, k]
            if b == 0:
                assert np.all(omega[i, :, k] == 0.0)
                continue
            mean, var = pg_moments(b, abs(F_BLOCK[i, k]))
            m4 = np.mean((omega[i, :, k] - omega[i, :, k].mean()) ** 4)
            assert abs(omega[i, :, k].mean() - mean) < 5 * np.sqrt(var / N)
            assert abs(omega[i, :, k].var() - var) < 5 * np.sqrt((m4 - var**2) / N)


# ----- the whole sampler against brute force ------------------------------------------------------------------------
X2 = np.array([[0.0], [0.8]])
XS2 = np.array([[0.4], [2.0]])
KERNEL2 = RBF(1.0, 3.0, 1e-6)
LABELS2 = {3: np.array([0, 2]), 2: np.array([1, 0])}


def weighted_moments(w, x):
    """Self-normalised importance-sampling mean and variance of x (N, ...) with weights w (N,), and their standard
    errors by the delta method: se(mean)² = Σ w²(x − μ)² / (Σw)², likewise for (x − μ)² about the variance."""
    w = w / w.sum()
    mean = np.tensordot(w, x, axes=1)
    sq = (x - mean) ** 2
    var = np.tensordot(w, sq, axes=1)
    se_mean = np.sqrt(np.tensordot(w**2, sq, axes=1))
    se_var = np.sqrt(np.tensordot(w**2, (sq - var) ** 2, axes=1))
    return mean, var, se_mean, se_var


@functools.cache
def brute_force(K):
    """The posterior of the K-class model on 2 training points by importance sampling from the prior: 10⁶ joint
    prior draws of the K functions at the 2 training and 2 test points (Cholesky of the 4×4 gram, nugget on all),
    weighted by Π_i p(y_i | f_i). Moments of f, of f* and p(y* = k) = E[σ(f*_k)/Σσ(f*_j)] with their standard errors,
    and Var[p(y* = k | f*)] (the spread the sampler's predictive averages over)."""
    y = LABELS2[K]
    L = np.linalg.cholesky(KERNEL2.gram(np.vstack([X2, XS2])))
    F = np.einsum("pq,sqk->spk", L, np.random.default_rng(7).standard_normal((1_000_000, 4, K)))  # (N, 4, K)
    w = logistic_softmax(F[:, 0])[:, y[0]] * logistic_softmax(F[:, 1])[:, y[1]]
    mean, var, se_mean, se_var = weighted_moments(w, F)
    P = logistic_softmax(F[:, 2:])  # (N, 2 test, K)
    p, p_var, p_se, _ = weighted_moments(w, P)
    return dict(K=K, y=y, mean=mean, var=var, se_mean=se_mean, se_var=se_var, p=p, p_var=p_var, p_se=p_se)


@functools.cache
def chain(K):
    """The sampler run on the brute-force problem: 4 chains of 200 + 2,000 sweeps, every draw kept. Its ESS is
    3,700–5,100 (seeds 42 and 7; 8,800–11,800 at 5,000 sweeps), above the 2,000 asserted below; the 5-standard-error
    bounds below scale with it (largest error 2.8 of them; the K = 2 logit gap 8.4, against 12.6 at 5,000)."""
    sampler = MulticlassGibbsSampler(
        X2,
        LABELS2[K],
        KERNEL2,
        K,
        rng=np.random.default_rng(42),
        n_chains=4,
        burn_in=200,
        n_samples=2_000,
        max_stored_draws=2_000,
    )
    return sampler.run(chunk=1_000)


@pytest.mark.parametrize("K", [3, 2])
def test_sampler_matches_brute_force_posterior(K):
    truth, sampler = brute_force(K), chain(K)
    draws = sampler.draws  # (4, 2000, 2, K)
    ess = diagnostics.ess_mean(draws)  # (2, K)
    assert np.min(ess) > 2_000
    assert all(v < 1.01 for k, v in sampler.diagnostics().items() if k.startswith("rhat"))
    # Everything within 5 combined standard errors: the chain's sd / sqrt(ESS) and the importance sampler's own.
    se = np.sqrt(truth["var"][:2] / ess + truth["se_mean"][:2] ** 2)
    assert np.all(np.abs(sampler.posterior_mean() - truth["mean"][:2]) < 5 * se)
    sq = (draws - truth["mean"][:2]) ** 2
    se_var = np.sqrt(sq.reshape(-1, 2, truth["K"]).var(axis=0) / diagnostics.ess_mean(sq) + truth["se_var"][:2] ** 2)
    assert np.all(np.abs(sampler.posterior_variance() - truth["var"][:2]) < 5 * se_var)
    # f* at the test points: E[f*] = mean_s a f_s, so its error is at most sd(f*) / sqrt(min ESS); Var[f*] by the law
    # of total variance, its error bounded by that of the training variances scaled to the test points' spread.
    m_s, v_s = sampler.predict_latent(XS2)
    se_s = np.sqrt(truth["var"][2:] / ess.min() + truth["se_mean"][2:] ** 2)
    assert np.all(np.abs(m_s - truth["mean"][2:]) < 5 * se_s)
    se_vs = np.sqrt(2 * truth["var"][2:] ** 2 / ess.min() + truth["se_var"][2:] ** 2)
    assert np.all(np.abs(v_s - truth["var"][2:]) < 5 * se_vs)
    # p(y* = k): the average over draws of (f, f*) of p(y* = k | f*) has variance at most Var[p(y* = k | f*)] / ESS.
    P = sampler.predict_proba(XS2)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    se_p = np.sqrt(truth["p_var"] / ess.min() + truth["p_se"] ** 2)
    assert np.all(np.abs(P - truth["p"]) < 5 * se_p)


def test_two_classes_are_a_valid_model_but_not_the_logit_one():
    # K = 2: p(y = 1 | f) = σ(f_1)/(σ(f_0) + σ(f_1)) = σ(g), g = log σ(f_1) − log σ(f_0): a logit model on g, but g is
    # not a GP, and |g| ≤ |f_1 − f_0| (log σ has slope σ(−f) ∈ (0, 1)): the K = 2 logistic-softmax is always nearer
    # ½ than σ(f_1 − f_0), and saturates where both functions are large. (That the K = 2 chain matches its own brute
    # force is the test above.)
    f = np.random.default_rng(4).normal(0.0, 3.0, (1000, 2))
    p = logistic_softmax(f)[:, 1]
    np.testing.assert_allclose(p, expit(np.log(expit(f[:, 1])) - np.log(expit(f[:, 0]))), rtol=1e-12)
    assert np.all(np.abs(p - 0.5) <= np.abs(expit(f[:, 1] - f[:, 0]) - 0.5) + 1e-15)
    # The sampler's K = 2 predictive against the logit GP's (one function f ~ GP(0, K), p(y = 1 | f) = σ(f)) on the
    # same data and kernel, by importance sampling as above: at x* = 2 (beyond the class-0 point) they differ by more
    # than 5 combined standard errors (at x* = 0.4, between the two points, both are ½ by symmetry).
    sampler, truth = chain(2), brute_force(2)
    L = np.linalg.cholesky(KERNEL2.gram(np.vstack([X2, XS2])))
    F = np.random.default_rng(8).standard_normal((1_000_000, 4)) @ L.T
    signs = 2.0 * LABELS2[2] - 1.0
    p_logit, _, se_logit, _ = weighted_moments(expit(signs[0] * F[:, 0]) * expit(signs[1] * F[:, 1]), expit(F[:, 2:]))
    p_softmax = sampler.predict_proba(XS2)[:, 1]
    se = np.sqrt(truth["p_var"][:, 1] / diagnostics.ess_mean(sampler.draws).min() + se_logit**2)
    assert abs(p_softmax[1] - p_logit[1]) > 5 * se[1]


# ----- the API ------------------------------------------------------------------------------------------------------
def blobs(n_per_class=8, seed=0):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(m, 0.5, (n_per_class, 2)) for m in ([-2, 0], [2, 0], [0, 2])])
    return X, np.repeat([0, 1, 2], n_per_class)


def test_shapes_traces_and_stored_draws():
    X, y = blobs()
    s = MulticlassGibbsSampler(
        X, y, RBF(1.0), 3, rng=np.random.default_rng(0), n_chains=2, burn_in=4, n_samples=9, thin=3, monitor=[0, 5]
    )
    assert s.trace_names == ["log_likelihood"] + [f"f[{i},{k}]" for i in (0, 5) for k in range(3)]
    s.run(chunk=2)
    assert s.f.shape == (2, 3, 24) and s.counts.shape == s.omega.shape == (2, 24, 3) and s.lam.shape == (2, 24)
    assert s.draws.shape == (2, 3, 24, 3)
    # the stored draws are the thinned post-burn-in states, which the traces record at every sweep
    np.testing.assert_array_equal(s.draws[:, :, [0, 5], :].reshape(2, 3, 6), s.traces[:, [6, 9, 12], 1:])
    ll = np.log(logistic_softmax(s.draws)[:, :, np.arange(24), y]).sum(axis=2)
    np.testing.assert_allclose(s.traces[:, [6, 9, 12], 0], ll, rtol=1e-12)
    assert np.all((s.omega == 0) == (s.Y + s.counts == 0))  # PG(0, c) is the point mass at 0
    assert s.posterior_mean().shape == s.posterior_variance().shape == (24, 3)
    mean, var = s.predict_latent(X[:4])
    assert mean.shape == var.shape == (4, 3)
    assert s.step(0) == 0 and s.finished


def test_predictions_are_deterministic_pointwise_and_chunk_free(monkeypatch):
    X, y = blobs()
    s = MulticlassGibbsSampler(X, y, RBF(1.0), 3, rng=np.random.default_rng(0), n_chains=2, burn_in=5, n_samples=20)
    s.run()
    assert s.mean_standard_error(X[:4]).shape == (4, 3) and np.all(s.mean_standard_error(X[:4]) > 0)
    whole = s.predict_proba(X)
    np.testing.assert_array_equal(s.predict_proba(X), whole)
    np.testing.assert_allclose(s.predict_proba(X[3:5]), whole[3:5], rtol=1e-12)  # a point's value is its own
    monkeypatch.setattr(gibbs_multiclass, "_PREDICT_CHUNK", 10)
    np.testing.assert_allclose(s.predict_proba(X), whole, rtol=1e-12)


def test_chains_are_reproducible_and_independent():
    X, y = blobs()
    runs = [
        MulticlassGibbsSampler(X, y, RBF(1.0), 3, rng=np.random.default_rng(9), n_chains=2, burn_in=0, n_samples=5)
        .run()
        .draws
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.allclose(runs[0][0], runs[0][1])


def test_bad_input_gets_a_clear_error():
    X, y = blobs()
    with pytest.raises(ValueError, match="K = 3 classes .*y holds 3"):
        MulticlassGibbsSampler(X, np.where(y == 2, 3, y), RBF(1.0), 3, rng=np.random.default_rng())
    with pytest.raises(ValueError, match="only the class 1"):
        MulticlassGibbsSampler(X, np.ones(len(y), int), RBF(1.0), 3, rng=np.random.default_rng())
    with pytest.raises(ValueError, match="K ≥ 2"):
        MulticlassGibbsSampler(X, y, RBF(1.0), 1, rng=np.random.default_rng())
    with pytest.raises(ValueError, match="GB of traces and draws"):
        MulticlassGibbsSampler(
            X, y, RBF(1.0), 3, rng=np.random.default_rng(0), n_chains=1000, n_samples=10**5, max_stored_draws=10**5
        )


# ----- variational inference against the sampler --------------------------------------------------------------------
def test_full_multiclass_xgpc_agrees_with_the_sampler_on_three_blobs():
    # 42 training and 30 test points of three blobs, one fixed kernel; full-batch non-sparse multi-class X-GPC by
    # coordinate ascent (ρ = 1) against 4 chains × 1,000 draws (Monte Carlo error of a probability ≲ 0.01, of a mean
    # ≲ 0.03). Measured over seeds 0-2: mean correlations ≥ 0.967, probability correlations ≥ 0.989, mean |ΔP| ≈ 0.06,
    # max |ΔP| ≤ 0.16 — those were the paper's factorised q(λ)q(n), whose mean field pulls too few counts, so its f*
    # sat ≈ 0.3 higher in every class. Here the joint q(λ, n), which these margins also hold for (the default K ≥ 3
    # family is stick-breaking, with its own sampler: tests/test_gibbs_stickbreaking.py);
    # tests/test_multiclass_joint.py compares both families with the sampler to Monte Carlo error.
    rng = np.random.default_rng(0)
    centres = ([-1.5, 0.0], [1.5, 0.0], [0.0, 1.8])
    X = np.concatenate([rng.normal(c, 0.7, (14, 2)) for c in centres])
    y = np.repeat([0, 1, 2], 14)
    Xs = np.concatenate([rng.normal(c, 0.7, (10, 2)) for c in centres])
    kernel = RBF(1.0, 2.0, 1e-4)
    vi = full_batch_engine("xgpc", X, y, None, kernel, multiclass_family="joint")
    assert isinstance(vi.link, AugmentedLogisticSoftmax) and fit_to_optimum(vi, max_sweeps=2_000).converged
    sampler = MulticlassGibbsSampler(X, y, kernel, 3, rng=np.random.default_rng(1), burn_in=200, n_samples=1_000)
    sampler.run(chunk=500)
    assert sampler.diagnostics()["rhat_max/f"] < 1.01
    (m_vi, v_vi), (m_mc, v_mc) = vi.predict_latent(Xs), sampler.predict_latent(Xs)
    P_vi, P_mc = vi.predict_proba(Xs), sampler.predict_proba(Xs)
    for k in range(3):
        assert np.corrcoef(m_vi[:, k], m_mc[:, k])[0, 1] > 0.95
        assert np.corrcoef(v_vi[:, k], v_mc[:, k])[0, 1] > 0.9
        assert np.corrcoef(P_vi[:, k], P_mc[:, k])[0, 1] > 0.98
    assert np.abs(P_vi - P_mc).mean() < 0.1 and np.abs(P_vi - P_mc).max() < 0.25
    assert np.mean(predicted_class(P_vi) == predicted_class(P_mc)) >= 0.9
