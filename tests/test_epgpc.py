"""EPGPC: the probit tilted moments against quadrature; EP's posterior and log-evidence against brute-force grid
integration and importance sampling; minibatch/stochastic EP against the full-batch fixed point; damping; the kernel
gradient against finite differences; predictions, persistence and bad input."""

import copy

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import log_ndtr, logsumexp, ndtr

from explorer import methods
from explorer.epgpc import EPGPC, SITE_FORMS
from explorer.kernels import RBF
from explorer.likelihoods import probit_site, probit_tilted_moments
from explorer.schedules import Constant, RobbinsMonro

CAVITIES = [(0.0, 1.0), (1.3, 0.2), (-2.0, 3.0), (4.0, 0.05), (-6.0, 2.0), (0.5, 50.0), (-15.0, 1.0), (2.0, 1e-6)]


def tilted_by_quadrature(y, mean, var):
    """(log Z, E[f], Var[f]) of Φ(yf) N(f | mean, var) by adaptive quadrature in z = (f − mean)/sd."""
    sd = np.sqrt(var)

    def moment(k):
        return integrate.quad(
            lambda z: (mean + sd * z) ** k * ndtr(y * (mean + sd * z)) * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi),
            -40,
            40,
            epsabs=0,
            epsrel=1e-12,
            limit=500,
            points=[0.0],
        )[0]

    z0 = moment(0)
    first = moment(1) / z0
    return np.log(z0), first, moment(2) / z0 - first**2


@pytest.mark.parametrize("y", [-1.0, 1.0])
@pytest.mark.parametrize("mean,var", CAVITIES)
def test_probit_tilted_moments_match_quadrature(y, mean, var):
    log_z, m, v = probit_tilted_moments(np.array([y]), np.array([mean]), np.array([var]))
    q_log_z, q_m, q_v = tilted_by_quadrature(y, mean, var)
    assert log_z[0] == pytest.approx(q_log_z, rel=1e-8, abs=1e-10)
    assert m[0] == pytest.approx(q_m, rel=1e-7, abs=1e-9 * np.sqrt(var))
    assert v[0] == pytest.approx(q_v, rel=1e-6, abs=1e-9 * var)
    assert 0 < v[0] <= var


@pytest.mark.parametrize("y", [-1.0, 1.0])
@pytest.mark.parametrize("mean,var", [c for c in CAVITIES if c[1] > 1e-3])
def test_probit_site_times_cavity_has_the_tilted_moments(y, mean, var):
    """Cavity × site (precisions and precision-means add) gives back the quadrature's tilted mean and variance."""
    _, tau, nu = probit_site(y, mean, var)
    _, q_m, q_v = tilted_by_quadrature(y, mean, var)
    precision = 1.0 / var + tau
    assert tau >= 0
    assert 1.0 / precision == pytest.approx(q_v, rel=1e-6)
    assert (mean / var + nu) / precision == pytest.approx(q_m, rel=1e-6, abs=1e-8)


def test_probit_tilted_moments_far_in_the_tail_stay_finite():
    log_z, m, v = probit_tilted_moments(1.0, np.array([-60.0]), np.array([1.0]))
    assert np.isfinite(log_z[0]) and 0 < v[0] < 1.0 and m[0] > -60.0


# ----- the EPGPC engine against brute-force truth -----------------------------------------------------------------
def ep_fit(X, y, Z, kernel, sites="per-point", damping=0.5, iterations=300, batch_size=None, schedule=None, seed=0):
    """EPGPC on (X, y), fixed kernel, full batches with constant damping unless told otherwise."""
    engine = EPGPC(
        X,
        y,
        Z,
        kernel,
        batch_size=batch_size or len(y),
        sites=sites,
        schedule=schedule if schedule is not None else Constant(damping),
        rng=np.random.default_rng(seed),
    )
    engine.step(iterations)
    return engine


def model_terms(X, y, Z, kernel):
    """The sparse model's pieces computed here from the kernel alone: K_mm, κ = K_sm K_mm⁻¹, K̃ (the same model
    p(u) Π Φ(y_i κ_iu/√(1 + K̃_ii)) that EPGPC approximates)."""
    K = kernel.gram(Z, kernel.cross(Z, Z))
    K_sm = kernel.cross(X, Z)
    kappa = np.linalg.solve(K, K_sm.T).T
    K_tilde = np.maximum(kernel.variance + kernel.nugget - np.sum(kappa * K_sm, 1), 0.0)
    return K, kappa, K_tilde


def log_joint(U, y, K, kappa, K_tilde):
    """log p(u) + Σ_i log Φ(y_i κ_iu/√(1 + K̃_ii)) at the rows of U (S, m); y class indices 0, 1 (↦ ∓1)."""
    signs = 2.0 * np.asarray(y) - 1.0
    return stats.multivariate_normal(np.zeros(len(K)), K).logpdf(U) + np.sum(
        log_ndtr(signs * (U @ kappa.T) / np.sqrt(1.0 + K_tilde)), axis=1
    )


def grid_posterior(X, y, Z, kernel, points, span=7.0):
    """log p(y), E[u], Cov[u] by brute-force integration of p(u) Π_i φ_i(u) on a regular grid in whitened
    coordinates u = L_K e, e ∈ [−span, span]^m."""
    K, kappa, K_tilde = model_terms(X, y, Z, kernel)
    m = len(K)
    L = np.linalg.cholesky(K)
    g = np.linspace(-span, span, points)
    E = np.stack([a.ravel() for a in np.meshgrid(*([g] * m), indexing="ij")], axis=1)
    U = E @ L.T
    log_w = log_joint(U, y, K, kappa, K_tilde) + m * np.log(g[1] - g[0]) + np.sum(np.log(np.diag(L)))
    weights = np.exp(log_w - log_w.max())
    mean = weights @ U / weights.sum()
    cov = (U - mean).T @ ((U - mean) * weights[:, None]) / weights.sum()
    return logsumexp(log_w), mean, cov


# Kuss & Rasmussen (JMLR 2005) and Nickisch & Rasmussen (JMLR 2008): for probit GP classification EP's log marginal
# likelihood agrees with annealed importance sampling to within its error bars (a few hundredths of a nat) and its
# posterior means and variances are close; Laplace and variational bounds are the ones that are far off.
EP_LOG_Z_TOLERANCE = 0.05
EP_MEAN_TOLERANCE = 0.05  # in posterior standard deviations
EP_VARIANCE_TOLERANCE = 0.1  # relative


@pytest.mark.parametrize("sites", SITE_FORMS)
def test_one_point_ep_is_exact(sites):
    """n = 1 (Z = X, 1-D): the moment-matched Gaussian and log p(y) = log Φ(yμ... ) are exact for both forms."""
    X, y, kernel = np.array([[0.3]]), np.array([0]), RBF(1.0, 2.5, 1e-4)
    engine = ep_fit(X, y, X, kernel, sites=sites, damping=1.0, iterations=3)
    log_z, mean, cov = grid_posterior(X, y, X, kernel, points=20001, span=12.0)
    assert engine.elbo() == pytest.approx(log_z, abs=1e-9)
    assert engine.mu[0] == pytest.approx(mean[0], abs=1e-8)
    assert engine.Sigma[0, 0] == pytest.approx(cov[0, 0], rel=1e-7)


@pytest.mark.parametrize("n, points", [(2, 500), (3, 120)])
def test_ep_posterior_and_evidence_match_grid_integration(n, points):
    """Full GP (Z = X) on n = 2, 3 points: EP's log Z, means and variances vs a brute-force grid over u, within
    the accuracy the literature reports for EP with the probit."""
    rng = np.random.default_rng(4)
    X, y, kernel = rng.normal(size=(n, 1)), np.array([1, 0, 1])[:n], RBF(1.0, 4.0, 1e-4)
    engine = ep_fit(X, y, X, kernel)
    log_z, mean, cov = grid_posterior(X, y, X, kernel, points)
    sd = np.sqrt(np.diag(cov))
    assert engine.elbo() == pytest.approx(log_z, abs=EP_LOG_Z_TOLERANCE)
    np.testing.assert_array_less(np.abs(engine.mu - mean) / sd, EP_MEAN_TOLERANCE)
    np.testing.assert_allclose(np.diag(engine.Sigma), sd**2, rtol=EP_VARIANCE_TOLERANCE)


def test_ep_on_twenty_points_matches_importance_sampling():
    """n = 20 in 2-D (Z = X, a 20-D integral): importance sampling with a Student-t proposal (5 degrees of freedom)
    around EP's posterior; its own standard error is checked small before the comparison means anything."""
    rng = np.random.default_rng(1)
    n = 20
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, 0)
    kernel = RBF(1.0, 2.0, 1e-4)
    engine = ep_fit(X, y, X, kernel)
    proposal = stats.multivariate_t(loc=engine.mu, shape=engine.Sigma, df=5, seed=np.random.default_rng(2))
    samples = 200_000
    U = proposal.rvs(samples)
    log_w = log_joint(U, y, *model_terms(X, y, X, kernel)) - proposal.logpdf(U)
    w = np.exp(log_w - log_w.max())
    standard_error = np.std(w) / np.mean(w) / np.sqrt(samples)  # of log Ẑ, by the delta method
    assert standard_error < 0.005 and w.sum() ** 2 / (w @ w) > samples / 10  # an honest estimate: ESS > 10%
    log_z = logsumexp(log_w) - np.log(samples)
    mean = w @ U / w.sum()
    var = w @ (U - mean) ** 2 / w.sum()
    assert engine.elbo() == pytest.approx(log_z, abs=EP_LOG_Z_TOLERANCE)
    np.testing.assert_array_less(np.abs(engine.mu - mean) / np.sqrt(var), EP_MEAN_TOLERANCE)
    np.testing.assert_allclose(np.diag(engine.Sigma), var, rtol=EP_VARIANCE_TOLERANCE)


def small_problem(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.4 * rng.normal(size=n) > 0, 1, 0)  # class indices
    return X, y, X[:6], RBF(1.0, 2.0, 1e-4)


def test_minibatch_per_point_ep_reaches_the_full_batch_ep_fixed_point():
    X, y, Z, kernel = small_problem()
    full = ep_fit(X, y, Z, kernel, iterations=200)
    minibatch = ep_fit(X, y, Z, kernel, batch_size=10, iterations=600, seed=1)
    np.testing.assert_allclose(minibatch.mu, full.mu, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(minibatch.Sigma, full.Sigma, rtol=1e-9, atol=1e-12)
    assert minibatch.elbo() == pytest.approx(full.elbo(), abs=1e-9)


def test_stochastic_ep_with_a_decaying_step_reaches_the_full_batch_tied_fixed_point():
    """SEP on minibatches of 10 of 60 rows with ε_t = 1/(t + 1) against the full-batch tied-site fixed point; a
    constant ε = 0.1 stays a noisy distance away (that is what the decay is for)."""
    X, y, Z, kernel = small_problem()
    full = ep_fit(X, y, Z, kernel, sites="tied", iterations=200)
    assert full.criterion.changes[-1] < 1e-12  # the full-batch iteration has settled
    decaying = ep_fit(
        X, y, Z, kernel, sites="tied", batch_size=10, iterations=2000, seed=1, schedule=RobbinsMonro(1.0, 1.0)
    )
    constant = ep_fit(X, y, Z, kernel, sites="tied", batch_size=10, iterations=2000, seed=1, schedule=Constant(0.1))
    scale = np.abs(full.mu).max()
    assert np.abs(decaying.mu - full.mu).max() < 0.03 * scale
    assert np.abs(decaying.Sigma - full.Sigma).max() < 0.03 * np.abs(full.Sigma).max()
    assert np.abs(constant.mu - full.mu).max() > 2 * np.abs(decaying.mu - full.mu).max()


@pytest.mark.parametrize("sites", SITE_FORMS)
def test_damping_stabilises_a_case_that_oscillates_undamped(sites):
    """20 copies of one input labelled +1, σ² = 10: undamped parallel updates let every site claim the whole
    evidence at once and the posterior mean jumps between two values; damping δ = ½ settles, at the exact
    one-dimensional posterior's mean within EP's accuracy."""
    X, y, kernel = np.zeros((20, 1)), np.ones(20), RBF(1.0, 10.0, 1e-4)
    means = {}
    for damping in (1.0, 0.5):
        engine = EPGPC(
            X, y, X[:1], kernel, batch_size=20, sites=sites, schedule=Constant(damping), rng=np.random.default_rng(0)
        )
        trace = []
        for _ in range(200):
            engine.step()
            trace.append(engine.mu[0])
        means[damping] = np.array(trace[-10:])
    assert np.ptp(means[1.0]) > 1.0  # undamped: still jumping after 200 sweeps
    assert np.ptp(means[0.5]) < 1e-9
    _, mean, cov = grid_posterior(X, y, X[:1], kernel, points=20001, span=12.0)
    assert abs(means[0.5][-1] - mean[0]) < 0.1 * np.sqrt(cov[0, 0])


# ----- the kernel gradient ------------------------------------------------------------------------------------
def evidence_at(engine, log_params):
    """log Z_EP of a copy of `engine` with the kernel at `log_params` and its sites as they are."""
    twin = copy.deepcopy(engine)
    twin._set_kernel(engine.kernel.with_log_params(log_params))
    return twin.elbo()


def central_differences(fn, x, h=1e-5):
    return np.array([(fn(x + h * e) - fn(x - h * e)) / (2 * h) for e in np.eye(len(x))])


@pytest.mark.parametrize("sites", SITE_FORMS)
def test_kernel_gradient_is_the_fixed_site_derivative_of_the_evidence_estimate(sites):
    """All rows: ∂log Z_EP/∂(log ℓ, log σ²) at fixed sites vs central differences (after a few minibatch steps, so
    the sites are not at a fixed point); a minibatch's gradient is (n/s)Σ_B of the same terms, so the gradients of a
    partition of the rows average to the full one."""
    X, y, Z, _ = small_problem()
    kernel = RBF(np.array([0.8, 1.3]), 1.7, 1e-4)  # ARD: three log-parameters
    engine = ep_fit(X, y, Z, kernel, sites=sites, batch_size=15, iterations=7)
    gradient = engine.kernel_gradient(np.arange(len(y)))
    expected = central_differences(lambda t: evidence_at(engine, t), engine.kernel.log_params)
    np.testing.assert_allclose(gradient, expected, rtol=1e-6, atol=1e-6)
    parts = np.array_split(np.random.default_rng(0).permutation(len(y)), 4)
    np.testing.assert_allclose(np.mean([engine.kernel_gradient(p) for p in parts], axis=0), gradient, rtol=1e-10)


def test_at_the_ep_fixed_point_the_fixed_site_gradient_is_the_total_derivative():
    """log Z_EP(θ) with the sites re-converged at every θ (full-batch per-point EP): its central differences equal
    the fixed-site gradient at the fixed point — EP's estimate is stationary in the sites there."""
    X, y, Z, kernel = small_problem(n=40)

    def converged(log_params):
        return ep_fit(X, y, Z, kernel.with_log_params(log_params), iterations=150)

    engine = converged(kernel.log_params)
    total = central_differences(lambda t: converged(t).elbo(), kernel.log_params, h=1e-4)
    np.testing.assert_allclose(engine.kernel_gradient(np.arange(len(y))), total, rtol=1e-5, atol=1e-6)
    fixed_sites_changed_kernel = evidence_at(engine, kernel.log_params + [0.3, 0.0])
    assert abs(fixed_sites_changed_kernel - converged(kernel.log_params + [0.3, 0.0]).elbo()) > 1e-4  # not trivial


# ----- predictions, training, persistence, bad input ------------------------------------------------------------
def test_predictions_are_the_probit_of_the_gaussian_predictive():
    """p(y*=1) = ∫Φ(f)N(f | μ*, σ*²)df by quadrature, with μ*, σ*² from q(u) by the sparse GP formulas."""
    X, y, Z, kernel = small_problem()
    engine = ep_fit(X, y, Z, kernel, sites="tied", batch_size=20, iterations=30)
    Xs = np.random.default_rng(5).normal(size=(4, 2)) * 2
    K, kappa, K_tilde = model_terms(Xs, None, Z, kernel)
    mean = kappa @ engine.mu
    var = K_tilde + np.einsum("ij,jk,ik->i", kappa, engine.Sigma, kappa)
    expected = [
        integrate.quad(lambda f: ndtr(f) * stats.norm.pdf(f, a, np.sqrt(v)), -np.inf, np.inf)[0]
        for a, v in zip(mean, var)
    ]
    np.testing.assert_allclose(engine.predict_proba(Xs), np.column_stack([1 - np.array(expected), expected]), rtol=1e-8)


@pytest.mark.parametrize("sites", SITE_FORMS)
def test_kernel_learning_raises_the_evidence_and_the_state_round_trips(sites):
    X, y, Z, kernel = small_problem(n=120, seed=2)
    engine = methods.build(
        "epgpc",
        X,
        y,
        Z,
        RBF(0.3, 0.3, 1e-4),
        batch_size=30,
        rng=np.random.default_rng(0),
        sites=sites,
        hyper_learning_rate=0.05,
    )
    engine.step(20)
    early = engine.elbo()
    engine.step(200)
    assert engine.elbo() > early + 1.0
    twin = methods.build(
        "epgpc",
        X,
        y,
        Z,
        RBF(1.0, 1.0, 1e-4),
        batch_size=30,
        rng=np.random.default_rng(9),
        sites=sites,
        hyper_learning_rate=0.05,
    )
    twin.load_state_dict(copy.deepcopy(engine.state_dict()))
    engine.step(5)
    twin.step(5)
    np.testing.assert_array_equal(twin.mu, engine.mu)
    np.testing.assert_array_equal(twin.kernel.log_params, engine.kernel.log_params)


def test_bad_input_is_refused_with_a_clear_message():
    X, y, Z, kernel = small_problem()
    with pytest.raises(ValueError, match="sites"):
        EPGPC(X, y, Z, kernel, sites="shared")
    with pytest.raises(ValueError, match="adaptive"):
        EPGPC(X, y, Z, kernel, sites="per-point", schedule=methods.schedule_for("epgpc", "adaptive"))
    with pytest.raises(ValueError, match=r"class indices up to 2.*probit likelihood models 2 classes"):
        EPGPC(X, np.where(y > 0, 2, 0), Z, kernel)
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="row 3"):
        EPGPC(X_nan, y, Z, kernel)
    engine = EPGPC(X, y, Z, kernel, batch_size=20)
    with pytest.raises(ValueError, match="tied"):
        EPGPC(X, y, Z, kernel, batch_size=20, sites="per-point").load_state_dict(engine.state_dict())


def test_a_model_runs_epgpc_end_to_end_and_continues_exactly_after_save_and_load(tmp_path):
    from explorer.model import Model

    model = Model(method="epgpc", dataset="banana-like", n_points=200, n_inducing=15, batch_size=40, eval_every=5)
    model.run(max_iter=60)
    row = model.history.rows[-1]
    assert row["iteration"] == 60 and np.isfinite(row["elbo"]) and row["test_error"] < 0.3
    surface = model.surface(resolution=6)
    grid = np.column_stack([np.tile(surface["x"], 6), np.repeat(surface["y"], 6)])
    np.testing.assert_allclose(
        surface["p"].ravel(), model.predict_proba(grid)[:, 1], rtol=1e-12
    )  # the probit, not logit
    path = tmp_path / "ep.npz"
    model.save(path)
    loaded = Model.load(path)
    model.step(7)
    loaded.step(7)
    np.testing.assert_array_equal(loaded.engine.mu, model.engine.mu)
    assert loaded.history.rows[-1]["elbo"] == model.history.rows[-1]["elbo"]


def test_the_estimator_offers_epgpc():
    import warnings

    from sklearn.utils.estimator_checks import check_estimator

    from explorer import XGPClassifier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(XGPClassifier(method="epgpc", max_iter=30, random_state=0), on_fail=None)
    assert {r["check_name"]: repr(r["exception"]) for r in results if r["status"] == "failed"} == {}
    X, y = np.random.default_rng(3).normal(size=(300, 2)), None
    y = np.where(X[:, 0] * X[:, 1] > 0, "a", "b")
    clf = XGPClassifier(method="epgpc", n_inducing=30, max_iter=300, random_state=0).fit(X[:200], y[:200])
    assert isinstance(clf.engine_, EPGPC) and clf.score(X[200:], y[200:]) > 0.85
    with pytest.raises(ValueError, match="method"):
        XGPClassifier(method="ep").fit(X, y)


@pytest.mark.parametrize("sites", SITE_FORMS)
def test_an_added_point_keeps_the_sites_and_counts_from_the_next_step(sites):
    X, y, Z, kernel = small_problem()
    engine = ep_fit(X, y, Z, kernel, sites=sites, batch_size=20, iterations=10)
    mu = engine.mu.copy()
    engine.set_training_data(np.vstack([X, [[3.0, 3.0]]]), np.append(y, 1.0))
    assert engine.n == 61
    if sites == "per-point":  # the new point has no site yet: q is unchanged
        np.testing.assert_array_equal(engine.mu, mu)
        assert engine.point_sites.tau[-1] == 0.0
    else:  # the tied site now stands for 61 points: q(u) ∝ p(u) f̃(u)⁶¹
        np.testing.assert_allclose(
            np.linalg.inv(engine.Sigma), engine.K_inv + 61 * engine.site_precision, rtol=1e-8, atol=1e-8
        )
    engine.step(5)
    assert np.isfinite(engine.elbo())
