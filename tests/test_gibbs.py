"""The PG Gibbs sampler against closed forms and a brute-force numerical posterior."""

import numpy as np
import pytest
from scipy.linalg import cho_solve
from scipy.special import expit

from explorer import diagnostics, gibbs, polyagamma
from explorer.gibbs import GibbsSampler, conditional_latent_precision, conditional_latent_whitened
from explorer.kernels import RBF


# ----- PG(1, c) draws ------------------------------------------------------------------------------------------------
def pg1_moments(c):
    """E[ω] = tanh(c/2)/(2c), Var[ω] = (sinh c − c)/(4c³ cosh²(c/2)); limits 1/4 and 1/24 at c = 0."""
    if c == 0.0:
        return 0.25, 1.0 / 24.0
    return np.tanh(c / 2) / (2 * c), (np.sinh(c) - c) / (4 * c**3 * np.cosh(c / 2) ** 2)


@pytest.mark.parametrize("c", [0.0, 0.5, 2.0, 3.125, 3.5, 6.0, 12.0, -4.0])
def test_pg_draws_match_mean_and_variance(c):
    # 200,000 draws; the mean within 5 standard errors sqrt(Var/N), the variance within 5 standard errors
    # sqrt((m4 − Var²)/N) with the fourth central moment m4 estimated from the draws. c > 3.125 is where other
    # samplers (the authors' Julia code) are biased.
    N = 200_000
    omega = polyagamma.sample(np.full(N, c), np.random.default_rng(int(abs(c) * 1000)))
    mean, var = pg1_moments(abs(c))
    assert abs(omega.mean() - mean) < 5 * np.sqrt(var / N)
    m4 = np.mean((omega - omega.mean()) ** 4)
    assert abs(omega.var() - var) < 5 * np.sqrt((m4 - var**2) / N)


# ----- f | ω ---------------------------------------------------------------------------------------------------------
def three_point_problem():
    X = np.array([[0.0], [0.5], [1.7]])
    K = RBF(0.8, 1.5, 1e-3).gram(X)
    omega = np.array([0.05, 0.3, 1.2])
    y = np.array([1.0, -1.0, 1.0])
    C = np.linalg.solve(np.eye(3) + K @ np.diag(omega), K)  # (K⁻¹ + Ω)⁻¹ = (I + KΩ)⁻¹ K
    return K, omega, y, C, C @ y / 2


def draw(form, K, omega, y, z):
    if form == "precision":
        return conditional_latent_precision(np.asfortranarray(np.linalg.inv(K)), omega, y, z)
    return conditional_latent_whitened(np.linalg.cholesky(K), omega, y, z)


@pytest.mark.parametrize("form", ["precision", "whitened"])
def test_conditional_latent_is_exact_gaussian_map(form):
    # f(z) = mean + S z with S Sᵀ = C exactly: f(0) is the mean, f(I) − f(0) a square root of C.
    K, omega, y, C, mean = three_point_problem()
    np.testing.assert_allclose(draw(form, K, omega, y, np.zeros(3)), mean, rtol=1e-10, atol=1e-12)
    S = draw(form, K, omega, y, np.eye(3)) - mean[:, None]
    np.testing.assert_allclose(S @ S.T, C, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("form", ["precision", "whitened"])
def test_conditional_latent_draws_match_closed_form(form):
    # 200,000 draws at fixed ω: mean within 5 se sqrt(C_ii/N), covariance within 5 se sqrt((C_ii C_jj + C_ij²)/N).
    K, omega, y, C, mean = three_point_problem()
    N = 200_000
    f = draw(form, K, omega, y, np.random.default_rng(1).standard_normal((3, N)))
    assert np.all(np.abs(f.mean(axis=1) - mean) < 5 * np.sqrt(np.diag(C) / N))
    se = np.sqrt((np.outer(np.diag(C), np.diag(C)) + C**2) / N)
    assert np.all(np.abs(np.cov(f) - C) < 5 * se)


def test_precision_and_whitened_forms_agree_on_a_badly_conditioned_kernel():
    # 40 points on a 1-D grid, cond(K) ≈ 6.5e7. Reference: C = (I + KΩ)⁻¹K and C y/2 by well-conditioned solves.
    # The whitened form is accurate to rounding; the precision form's error grows like cond(K)·ε (measured 2.4e-9).
    X = np.linspace(0.0, 3.0, 40)[:, None]
    K = RBF(1.0, 1.0, 1e-6).gram(X)
    omega = np.random.default_rng(2).uniform(0.02, 0.25, 40)
    y = np.where(np.sin(3 * X[:, 0]) > 0, 1.0, -1.0)
    C = np.linalg.solve(np.eye(40) + K @ np.diag(omega), K)
    L = np.linalg.cholesky(K)
    K_inv = np.asfortranarray(cho_solve((L, True), np.eye(40)))
    cond = np.linalg.cond(K)
    for f_of, tolerance in (
        (lambda z: conditional_latent_whitened(L, omega, y, z), 1e-12),
        (lambda z: conditional_latent_precision(K_inv, omega, y, z), 1e-15 * cond),
    ):
        mean = f_of(np.zeros(40))
        np.testing.assert_allclose(mean, C @ y / 2, atol=tolerance)
        S = f_of(np.eye(40)) - mean[:, None]
        np.testing.assert_allclose(S @ S.T, C, atol=tolerance)


def test_auto_form_follows_the_condition_number():
    X = np.linspace(0.0, 1.0, 60)[:, None]
    y = np.where(X[:, 0] > 0.5, 1, 0)
    well = GibbsSampler(X, y, RBF(0.3, 1.0, 1e-2), rng=np.random.default_rng(0))
    ill = GibbsSampler(X, y, RBF(2.0, 1.0, 1e-12), rng=np.random.default_rng(0))
    K_ill = RBF(2.0, 1.0, 1e-12).gram(X)
    assert np.linalg.cond(RBF(0.3, 1.0, 1e-2).gram(X)) <= gibbs.PRECISION_FORM_MAX_CONDITION
    assert well.form == "precision"
    assert np.linalg.cond(K_ill) > gibbs.PRECISION_FORM_MAX_CONDITION and ill.form == "whitened"
    assert ill.condition_number == pytest.approx(np.linalg.cond(K_ill, 1), rel=0.5)


# ----- the whole sampler against a brute-force posterior -------------------------------------------------------------
X2 = np.array([[0.0], [0.8]])
Y2 = np.array([1, 0])  # class indices of both classes: the sampler refuses one-class data
SIGNS2 = 2.0 * Y2 - 1.0  # as the likelihood σ(yf) writes them
KERNEL2 = RBF(1.0, 3.0, 1e-6)
XS2 = np.array([[0.4], [2.0]])


@pytest.fixture(scope="module")
def brute_force_two_point_posterior():
    """Posterior moments of f (2,), of f* at XS2, and p(y*=1) with its sd over p(f | y), by a 601² grid in whitened
    coordinates f = L u: p(f | y) ∝ σ(y₁f₁) σ(y₂f₂) N(u | 0, I); f* | f ~ N(a·f, v), a = K_*n K⁻¹,
    v = k** − a·K_n*; p(y*=1 | f) = ∫σ(f*)N(f*|a·f, v)df* by 64-node Gauss–Hermite."""
    K = KERNEL2.gram(X2)
    L = np.linalg.cholesky(K)
    u = np.linspace(-9.0, 9.0, 601)
    U1, U2 = np.meshgrid(u, u, indexing="ij")
    F = np.einsum("ij,jab->iab", L, np.stack([U1, U2]))  # (2, 601, 601)
    w = expit(SIGNS2[0] * F[0]) * expit(SIGNS2[1] * F[1]) * np.exp(-0.5 * (U1**2 + U2**2))
    w /= w.sum()
    mean = np.array([(w * F[i]).sum() for i in range(2)])
    cov = np.array([[(w * (F[i] - mean[i]) * (F[j] - mean[j])).sum() for j in range(2)] for i in range(2)])
    K_sn = KERNEL2.cross(XS2, X2)
    A = np.linalg.solve(K, K_sn.T).T  # (2 test, 2 train)
    v = KERNEL2.variance + KERNEL2.nugget - np.einsum("ij,ij->i", A, K_sn)
    nodes, weights = np.polynomial.hermite.hermgauss(64)
    p, p_sd = np.empty(2), np.empty(2)
    for t in range(2):
        m = A[t, 0] * F[0] + A[t, 1] * F[1]
        inner = expit(m[..., None] + np.sqrt(2 * v[t]) * nodes) @ weights / np.sqrt(np.pi)
        p[t] = (w * inner).sum()
        p_sd[t] = np.sqrt((w * (inner - p[t]) ** 2).sum())
    between = np.einsum("ij,jk,ik->i", A, cov, A)  # Var[a·f | y]
    return dict(mean=mean, var=np.diag(cov), mean_s=A @ mean, between=between, v=v, p=p, p_sd=p_sd)


@pytest.mark.parametrize("form", ["precision", "whitened"])
def test_sampler_matches_brute_force_posterior(form, brute_force_two_point_posterior):
    truth = brute_force_two_point_posterior
    sampler = GibbsSampler(
        X2,
        Y2,
        KERNEL2,
        rng=np.random.default_rng(42),
        n_chains=4,
        burn_in=100,
        n_samples=6_000,
        max_stored_draws=6_000,
        form=form,
    )
    sampler.run(chunk=2_000)
    draws = sampler.draws
    ess = diagnostics.ess_mean(draws)  # ≈ 2.3e4 of 2.4e4 draws: PG Gibbs on 2 points mixes almost iid
    assert np.min(ess) > 10_000
    # Everything within 5 Monte Carlo standard errors: sd / sqrt(ESS) for means, and for variances the sd of the
    # squared deviations over the square root of their own ESS.
    assert np.all(np.abs(sampler.posterior_mean() - truth["mean"]) < 5 * np.sqrt(truth["var"] / ess))
    sq = (draws - truth["mean"]) ** 2
    se_var = sq.reshape(-1, 2).std(axis=0) / np.sqrt(diagnostics.ess_mean(sq))
    assert np.all(np.abs(sampler.posterior_variance() - truth["var"]) < 5 * se_var)
    m_s, v_s = sampler.predict_latent(XS2)
    assert np.all(np.abs(m_s - truth["mean_s"]) < 5 * np.sqrt(truth["between"] / ess.min()))
    # the sampler's own standard error of that mean: draws are nearly independent here (ESS ≈ 0.97 N)
    np.testing.assert_allclose(
        sampler.mean_standard_error(XS2), np.sqrt(truth["between"] / draws[..., 0].size), rtol=0.15
    )
    # Var[f*] = v + Var[a·f]; the second term's relative MC error is ≈ sqrt(2 / ESS) < 0.7 %
    np.testing.assert_allclose(v_s - truth["v"], truth["between"], rtol=5 * np.sqrt(2 / ess.min()))
    assert np.all(np.abs(sampler.predict_proba(XS2)[:, 1] - truth["p"]) < 5 * truth["p_sd"] / np.sqrt(ess.min()))
    assert all(v < 1.01 for k, v in sampler.diagnostics().items() if k.startswith("rhat"))


# ----- incremental running, storage bound, reproducibility, errors ---------------------------------------------------
def small_problem(n=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y


def test_run_length_and_storage_are_bounded():
    X, y = small_problem()
    s = GibbsSampler(
        X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=3, burn_in=7, n_samples=50, max_stored_draws=20
    )
    assert s.thin == 3  # smallest thinning keeping ≤ 20 of 50 draws
    buffer = s.draws.base
    assert s.step(5) == 5 and s.draws_stored == 0 and s.traces.shape == (3, 5, 4)
    with pytest.raises(RuntimeError, match="no draws stored"):
        s.posterior_mean()
    assert s.step(1_000) == 52 and s.finished
    assert s.step(10) == 0 and s.sweeps_done == 57
    assert s.draws.shape == (3, 16, 30) and s.draws.base is buffer
    assert s.traces.shape == (3, 57, 4) and np.isfinite(s.sweeps_per_second)


def test_stored_draws_are_the_thinned_post_burn_in_states():
    X, y = small_problem()
    s = GibbsSampler(
        X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=2, burn_in=4, n_samples=9, thin=3, monitor=np.arange(30)
    )
    s.run(chunk=1)
    # the monitored traces record f at every sweep; stored draws are sweeps 4 + 3, 4 + 6, 4 + 9
    np.testing.assert_array_equal(s.draws, s.traces[:, [6, 9, 12], 1:])
    ll = np.log(expit((2.0 * y - 1.0) * s.traces[:, :, 1:])).sum(axis=2)  # class indices → ±1
    np.testing.assert_allclose(s.traces[:, :, 0], ll, rtol=1e-12)


def test_chains_are_reproducible_and_independent():
    X, y = small_problem()
    runs = [
        GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(9), n_chains=2, burn_in=0, n_samples=5).run()
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].draws, runs[1].draws)
    assert not np.allclose(runs[0].draws[0], runs[0].draws[1])


def test_overdispersed_start_scales_with_init_scale():
    X, y = small_problem(n=40)
    K = RBF(1.0).gram(X)
    s = GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(1), n_chains=400, init_scale=3.0)
    # f⁽⁰⁾ ~ N(0, 9K): the sample variance over 400 chains within 25 % of 9·K_ii on average
    assert np.mean(s.f.var(axis=0) / np.diag(K)) == pytest.approx(9.0, rel=0.25)


def test_prediction_chunks_give_the_same_probabilities(monkeypatch):
    X, y = small_problem()
    s = GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=2, burn_in=5, n_samples=20).run()
    whole = s.predict_proba(X[:7])
    monkeypatch.setattr(gibbs, "PREDICT_CHUNK", 10)
    np.testing.assert_allclose(s.predict_proba(X[:7]), whole, rtol=1e-12)


def test_bad_input_gets_a_clear_error():
    X, y = small_problem()
    with pytest.raises(ValueError, match="N_MAX"):
        GibbsSampler(
            np.zeros((gibbs.N_MAX + 1, 1)),
            np.resize([1, 0], gibbs.N_MAX + 1),
            RBF(1.0),
            rng=np.random.default_rng(),
        )
    with pytest.raises(ValueError, match="holds -1.0; labels must be class indices"):
        GibbsSampler(X, 2.0 * y - 1.0, RBF(1.0), rng=np.random.default_rng())
    with pytest.raises(ValueError, match="form"):
        GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(), form="saddle")
    with pytest.raises(ValueError, match="max_stored_draws"):
        GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(), n_samples=100, thin=1, max_stored_draws=10)
    with pytest.raises(ValueError, match="NaN"):
        GibbsSampler(np.where(X > 1, np.nan, X), y, RBF(1.0), rng=np.random.default_rng())
    with pytest.raises(ValueError, match="nugget"):
        GibbsSampler(np.zeros((5, 1)), np.resize([1, 0], 5), RBF(1.0, 1.0, 1e-300), rng=np.random.default_rng())
    with pytest.raises(ValueError, match="form"):
        gibbs.seconds_per_sweep_estimate(10, form="saddle")


# ----- API edges (issue 9) --------------------------------------------------------------------------------------------
def test_rng_none_gives_a_fresh_generator():
    X, y = small_problem()
    sampler = GibbsSampler(X, y, RBF(1.0), rng=None, n_chains=2, burn_in=2, n_samples=4)
    twin = GibbsSampler(X, y, RBF(1.0), n_chains=2, burn_in=2, n_samples=4)  # rng may also be left out
    assert sampler.step(6) == 6 and twin.step(6) == 6
    assert not np.array_equal(sampler.f, twin.f)  # two fresh, unseeded streams
    with pytest.raises(ValueError, match="rng must be a numpy Generator"):
        GibbsSampler(X, y, RBF(1.0), rng=42)


def test_one_class_data_are_refused_with_a_clear_message():
    X, _ = small_problem()
    for label in (1, 0):
        with pytest.raises(ValueError, match=f"only the class {label} .*both classes"):
            GibbsSampler(X, np.full(len(X), label), RBF(1.0), rng=np.random.default_rng(0))


@pytest.mark.parametrize("k", [-5, float("inf"), float("nan"), 1.5, None, "3"])
def test_step_counts_must_be_whole_numbers(k):
    X, y = small_problem()
    sampler = GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=1, burn_in=1, n_samples=3)
    with pytest.raises(ValueError, match="whole number"):
        sampler.step(k)
    assert sampler.sweeps_done == 0
    with pytest.raises(ValueError, match="chunk"):
        sampler.run(chunk=0)
    for bad in (dict(n_chains=2.5), dict(burn_in=-1), dict(n_samples=float("inf")), dict(thin=0.5)):
        with pytest.raises(ValueError):
            GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(0), **bad)
    with pytest.raises(ValueError, match="row 0, column 0"):
        sampler.predict_latent(np.array([[1e200]] * X.shape[1]).reshape(1, -1))


def test_runs_too_large_to_store_and_bad_settings_are_refused_before_allocating():
    X, y = small_problem()
    with pytest.raises(ValueError, match="GB of traces and draws"):
        GibbsSampler(
            X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=1000, n_samples=10**6, max_stored_draws=10**6
        )
    for bad in (
        dict(n_chains=10**12),
        dict(n_chains=1e308),
        dict(init_scale="2"),
        dict(init_scale=None),
        dict(monitor={}),
        dict(monitor=np.inf),
        dict(monitor=[0, 10**30]),
    ):
        with pytest.raises(ValueError):
            GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(0), n_samples=5, **bad)
