"""The SVGP engines with the K-class softmax likelihood: its expectations against brute-force quadrature, the
gradients against finite differences, the bound against the exact log marginal, the natural-gradient fixed point, and
three blobs."""

import itertools
from dataclasses import dataclass

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal

from explorer import likelihoods, methods
from explorer.kernels import RBF
from explorer.likelihoods import Softmax, bound_points, softmax_expectations
from explorer.metrics import error_rate
from explorer.schedules import Constant
from explorer.svgp import SVGPAdam, SVGPNatGrad

NODES, WEIGHTS = np.polynomial.hermite.hermgauss(40)


def brute_force(y, a, v):
    """E[log softmax(f)_y], E[Y − p], −½E[p(1 − p)] under Π_k N(a_k, v_k) by a 40³-node tensor Gauss–Hermite rule."""
    grid = np.array(list(itertools.product(range(len(NODES)), repeat=3)))
    weight = np.prod(WEIGHTS[grid], axis=1) / np.pi**1.5
    F = a + np.sqrt(2 * v) * NODES[grid]
    P = np.exp(F - logsumexp(F, axis=1, keepdims=True))
    Y = np.eye(3)[y]
    return weight @ np.log(P[:, y]), weight @ (Y - P), -0.5 * weight @ (P * (1 - P))


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(4)
    centres = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    y = rng.integers(0, 3, 300)
    X = centres[y] + 0.8 * rng.standard_normal((300, 2))
    return X, y


def test_expectations_match_brute_force_quadrature_at_three_classes():
    rng = np.random.default_rng(0)
    cases = [(int(rng.integers(3)), rng.normal(0, 2, 3), rng.uniform(0.05, 3.0, 3)) for _ in range(4)]
    for y, a, v in cases:
        truth = brute_force(y, a, v)
        qmc = softmax_expectations(np.array([y]), a[None], v[None], bound_points(3))
        for estimate, exact in zip(qmc, truth):  # the fixed quasi-Monte Carlo set of the reported bound
            np.testing.assert_allclose(estimate[0], exact, atol=1e-3)
        draws = rng.standard_normal((1, 200_000, 3))  # the training estimator: plain Monte Carlo, unbiased
        mc = softmax_expectations(np.array([y]), a[None], v[None], draws)
        for estimate, exact in zip(mc, truth):  # 4 standard errors: sd(log Σ exp f) ≤ 3.5 here, sd(p) ≤ ½
            np.testing.assert_allclose(estimate[0], exact, atol=4 * 3.5 / np.sqrt(200_000))


def test_slopes_are_the_derivatives_of_the_brute_force_expectation():
    """g_a = ∂E/∂a and g_v = ∂E/∂v (Price's theorem), both ≤ 0 where they must be, against central differences of
    the brute-force integral."""
    y, a, v, h = 1, np.array([0.4, -0.7, 1.2]), np.array([0.8, 1.5, 0.3]), 1e-5
    _, g_a, g_v = softmax_expectations(np.array([y]), a[None], v[None], bound_points(3))
    for k in range(3):
        step = h * np.eye(3)[k]
        d_a = (brute_force(y, a + step, v)[0] - brute_force(y, a - step, v)[0]) / (2 * h)
        d_v = (brute_force(y, a, v + step)[0] - brute_force(y, a, v - step)[0]) / (2 * h)
        assert g_a[0, k] == pytest.approx(d_a, abs=2e-3)
        assert g_v[0, k] == pytest.approx(d_v, abs=2e-3)
    assert np.all(g_v <= 0)


def central_difference(f, x, h=1e-5):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def test_adam_gradient_matches_finite_differences_of_the_bound(blobs):
    X, y = blobs[0][:12], blobs[1][:12]
    kernel = RBF(np.array([1.1]), 1.3, 1e-4)
    engine = SVGPAdam(
        X, y, X[::3], kernel, batch_size=12, rng=np.random.default_rng(0), link=Softmax(3, mc_samples=100_000)
    )
    rng = np.random.default_rng(1)
    engine.m_w = 0.6 * rng.normal(size=(3, engine.m))
    engine.L_S = np.stack([np.tril(0.2 * rng.normal(size=(engine.m,) * 2), -1) + np.diag(rng.uniform(0.5, 1.2, 4))] * 3)
    packed = engine._pack()
    index = np.arange(12)

    def bound(x):
        engine.m_w, engine.L_S = engine._unpack(x)
        return engine.elbo(index)

    numeric = central_difference(bound, packed)
    engine.m_w, engine.L_S = engine._unpack(packed)
    analytic = engine.variational_gradient(kernel.cross(X, engine.Z), y)
    np.testing.assert_allclose(analytic, numeric, atol=0.02 * np.abs(numeric).max())

    def kernel_bound(log_params):
        engine._set_kernel(kernel.with_log_params(log_params))
        return engine.elbo(index)

    numeric = central_difference(kernel_bound, kernel.log_params)
    engine._set_kernel(kernel)
    analytic = engine.kernel_gradient(X, y, kernel.cross(X, engine.Z))
    np.testing.assert_allclose(analytic, numeric, rtol=0.03, atol=0.01)


def test_natural_gradient_kernel_gradient_matches_finite_differences(blobs):
    X, y = blobs[0][:12], blobs[1][:12]
    kernel = RBF(np.array([0.9]), 1.2, 1e-4)
    engine = SVGPNatGrad(
        X,
        y,
        X[::3],
        kernel,
        batch_size=12,
        schedule=Constant(0.5),
        rng=np.random.default_rng(0),
        link=Softmax(3, mc_samples=100_000),
    )
    engine.step(5)  # away from the prior
    index = np.arange(12)

    def kernel_bound(log_params):
        engine._set_kernel(kernel.with_log_params(log_params))
        return engine.elbo(index)

    numeric = central_difference(kernel_bound, kernel.log_params)
    engine._set_kernel(kernel)
    analytic = engine.kernel_gradient(X, y, kernel.cross(X, engine.Z))
    np.testing.assert_allclose(analytic, numeric, rtol=0.03, atol=0.01)


def test_natural_gradient_fixed_point_is_a_stationary_point_of_the_bound(blobs):
    """Full-batch natural-gradient steps reach q(u) where the whitened gradient of the bound is at the Monte Carlo
    noise floor, far below its value at the prior; both parameterisations give the same bound there."""
    X, y = blobs[0][:30], blobs[1][:30]
    kernel = RBF(np.array([1.0]), 1.0, 1e-4)
    Z = X[::6]
    build = dict(batch_size=30, rng=np.random.default_rng(0), link=Softmax(3, mc_samples=4096))
    natgrad = SVGPNatGrad(X, y, Z, kernel, schedule=Constant(0.5), **build)
    adam = SVGPAdam(X, y, Z, kernel, **build)
    K_sm = kernel.cross(X, Z)
    start = np.abs(adam.variational_gradient(K_sm, y)).max()
    natgrad.step(60)
    whitened = adam.L_K_inv @ natgrad.Sigma @ adam.L_K_inv.T
    adam.m_w, adam.L_S = natgrad.mu @ adam.L_K_inv.T, np.linalg.cholesky(whitened)
    assert np.abs(adam.variational_gradient(K_sm, y)).max() < 0.03 * start
    np.testing.assert_allclose(adam.elbo(), natgrad.elbo(), rtol=1e-9)


def test_bound_is_below_the_exact_log_marginal_on_a_tiny_problem():
    """Three points, three classes: log p(y) = log E_{p(f)}[Π_i softmax(f_i)_{y_i}] over the 9-dimensional prior by
    10⁶ prior draws (the integrand lies in [0, 1]); the trained bound lies below it, and above the bound at the prior."""
    X = np.array([[-1.0, 0.0], [0.2, 0.5], [1.0, -0.3]])
    y = np.array([0, 1, 2])
    kernel = RBF(np.array([1.0]), 2.0, 1e-6)
    engine = SVGPNatGrad(
        X,
        y,
        X,
        kernel,
        batch_size=3,
        schedule=Constant(0.5),
        rng=np.random.default_rng(0),
        link=Softmax(3, mc_samples=4096),
    )
    at_prior = engine.elbo()
    engine.step(80)
    bound = engine.elbo()
    covariance = kernel.cross(X, X) + 1e-6 * np.eye(3)
    rng = np.random.default_rng(1)
    F = np.linalg.cholesky(covariance) @ rng.standard_normal((3, 3, 1_000_000))  # (point, class, draw)
    log_p = (F[np.arange(3), y] - logsumexp(F, axis=1)).sum(axis=0)
    likelihood = np.exp(log_p)
    log_marginal = np.log(likelihood.mean())
    standard_error = likelihood.std() / likelihood.mean() / 1000
    assert bound < log_marginal + 3 * standard_error
    assert at_prior < bound


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_it_learns_three_blobs(blobs, method):
    X, y = blobs
    options = {"learning_rate": 0.05} if method == "svgp-adam" else {}
    engine = methods.build(
        method, X, y, X[::15], RBF(np.array([1.0])), batch_size=50, rng=np.random.default_rng(2), **options
    )
    assert isinstance(engine, (SVGPAdam, SVGPNatGrad)) and engine.link == Softmax(3)
    engine.step(300)
    P = engine.predict_proba(X)
    assert P.shape == (300, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert error_rate(P, y) < 0.05
    assert np.mean(np.log(P[np.arange(300), y])) > -0.2


def test_monte_carlo_draws_leave_the_minibatch_stream_alone(blobs):
    """Given the same seed every method sees the same minibatches: the Monte Carlo draws have their own generator."""
    X, y = blobs
    batches = {}
    for method in ("xgpc", "svgp-adam", "svgp-natgrad"):
        engine = methods.build(method, X, y, X[::15], RBF(np.array([1.0])), batch_size=40, rng=np.random.default_rng(7))
        rows = []
        for _ in range(5):
            engine.step()
            rows.append(engine.last_batch.copy())
        batches[method] = np.concatenate(rows)
    np.testing.assert_array_equal(batches["svgp-adam"], batches["xgpc"])
    np.testing.assert_array_equal(batches["svgp-natgrad"], batches["xgpc"])


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_state_dict_continues_bit_identically(blobs, method):
    X, y = blobs
    build = lambda: methods.build(method, X, y, X[::15], RBF(1.0), batch_size=20, rng=np.random.default_rng(5))  # noqa: E731
    engine = build()
    engine.step(7)
    state = engine.state_dict()
    engine.step(6)
    resumed = build()
    resumed.load_state_dict(state)
    resumed.step(6)
    np.testing.assert_array_equal(resumed.mu, engine.mu)
    np.testing.assert_array_equal(resumed.Sigma, engine.Sigma)


def test_the_probit_has_no_three_class_form_here(blobs):
    X, y = blobs
    with pytest.raises(ValueError, match=r"link 'probit' has no 3-class form here.*softmax"):
        methods.build("svgp-adam", X, y, X[::15], RBF(1.0), batch_size=20, rng=np.random.default_rng(0), link="probit")


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_the_estimator_trains_the_softmax_svgp_on_three_string_classes(blobs, method):
    from explorer import XGPClassifier

    X, y = blobs
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = XGPClassifier(method=method, n_inducing=15, max_iter=300, random_state=0).fit(X, labels)
    P = clf.predict_proba(X)
    assert clf.classes_.tolist() == ["setosa", "versicolor", "virginica"] and P.shape == (300, 3)
    assert np.allclose(P.sum(axis=1), 1.0) and clf.score(X, labels) > 0.95


@dataclass(frozen=True)
class OneHotGaussian:
    """A K-class likelihood written against the protocol alone (`explorer.likelihoods`), here and nowhere else:
    log p(y | f) = Σ_k log N(Y_k | f_k, σ²) with the one-hot Y_k = [y = k], whose expectations are closed form."""

    n_classes: int
    noise: float = 0.3
    name = "one-hot gaussian"
    mc_samples = 0

    @property
    def n_latent(self):
        return self.n_classes

    def equation_labels(self, y):
        return np.asarray(y, dtype=np.intp)

    def variational_expectations(self, y, a, v, rng=None):
        Y = np.eye(self.n_classes)[y]
        E = np.sum(-0.5 * np.log(2 * np.pi * self.noise) - ((Y - a) ** 2 + v) / (2 * self.noise), axis=1)
        return E, (Y - a) / self.noise, np.full_like(a, -0.5 / self.noise)


def test_a_new_k_class_likelihood_plugs_into_the_one_natural_gradient_engine(blobs):
    """With a conjugate likelihood one full-batch natural-gradient step of length 1 lands on the optimal q(u_k) of
    each class (Titsias 2009: Σ = (K⁻¹ + K⁻¹K_mnK_nmK⁻¹/σ²)⁻¹, μ = ΣK⁻¹K_mnY_k/σ²), where the bound is the collapsed
    bound Σ_k [log N(Y_k | 0, Q_nn + σ²I) − tr(K_nn − Q_nn)/(2σ²)]; Adam's packing gives the same bound there."""
    X, y = blobs[0][:40], blobs[1][:40]
    kernel, Z, link = RBF(np.array([1.0]), 1.3, 1e-4), X[::8], OneHotGaussian(3)
    engine = SVGPNatGrad(
        X, y, Z, kernel, batch_size=40, schedule=Constant(1.0), rng=np.random.default_rng(0), link=link
    )
    engine.step(1)
    K_mm, K_nm = kernel.gram(Z, kernel.cross(Z, Z)), kernel.cross(X, Z)
    K_inv = np.linalg.inv(K_mm)
    Sigma = np.linalg.inv(K_inv + K_inv @ K_nm.T @ K_nm @ K_inv / link.noise)
    Y = np.eye(3)[y]
    np.testing.assert_allclose(engine.Sigma, np.stack([Sigma] * 3), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(engine.mu, (Sigma @ K_inv @ K_nm.T @ Y / link.noise).T, rtol=1e-7, atol=1e-9)
    Q_nn = K_nm @ K_inv @ K_nm.T
    collapsed = sum(
        multivariate_normal(np.zeros(40), Q_nn + link.noise * np.eye(40)).logpdf(Y[:, k]) for k in range(3)
    ) - 3 * (kernel.diag(40).sum() - np.trace(Q_nn)) / (2 * link.noise)
    assert engine.elbo() == pytest.approx(collapsed, rel=1e-8)
    adam = SVGPAdam(X, y, Z, kernel, batch_size=40, rng=np.random.default_rng(0), link=link)
    whitened = adam.L_K_inv @ engine.Sigma @ adam.L_K_inv.T
    adam.m_w, adam.L_S = engine.mu @ adam.L_K_inv.T, np.linalg.cholesky(whitened)
    assert adam.elbo() == pytest.approx(collapsed, rel=1e-8)


def test_the_softmax_draws_its_training_estimates_and_refuses_a_bad_sample_count():
    y, a, v = np.array([0, 2]), np.array([[0.3, -0.2, 1.0], [1.5, 0.0, -1.0]]), np.array([[0.5, 1.0, 0.2]] * 2)
    link = Softmax(3, mc_samples=7)
    drawn = link.variational_expectations(y, a, v, np.random.default_rng(3))
    same_draws = softmax_expectations(y, a, v, np.random.default_rng(3).standard_normal((2, 7, 3)))
    for estimate, expected in zip(drawn, same_draws):
        np.testing.assert_array_equal(estimate, expected)
    for estimate, expected in zip(
        link.variational_expectations(y, a, v), softmax_expectations(y, a, v, bound_points(3))
    ):
        np.testing.assert_array_equal(estimate, expected)  # without a generator: the fixed points of the bound
    with pytest.raises(ValueError, match="mc_samples must be a whole number ≥ 1, got 0"):
        Softmax(3, mc_samples=0)


def test_a_k_class_likelihood_named_in_the_registry_is_a_link_choice(blobs, monkeypatch):
    monkeypatch.setitem(likelihoods.MULTICLASS_LIKELIHOODS, "one-hot gaussian", OneHotGaussian)
    X, y = blobs
    build = lambda link: methods.build(  # noqa: E731
        "svgp-natgrad", X, y, X[::15], RBF(1.0), batch_size=20, rng=np.random.default_rng(0), link=link
    )
    assert build("one-hot gaussian").link == OneHotGaussian(3)
    assert build("logit").link == Softmax(3) and build("softmax").link == Softmax(3)
    with pytest.raises(ValueError, match=r"link 'cauchit' has no 3-class form here.*'one-hot gaussian'"):
        build("cauchit")
