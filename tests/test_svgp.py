"""The non-augmented SVGP baseline: quadrature, gradients, its bound against X-GPC's, fixed points, persistence."""

import numpy as np
import pytest

from explorer import methods
from explorer.kernels import RBF
from explorer.likelihoods import gauss_hermite_expectations, logit_log_likelihood, signed_labels
from explorer.schedules import Constant
from explorer.svgp import SVGPAdam, SVGPNatGrad
from explorer.training import Trainer
from explorer.xgpc import XGPC


def gaussian_log_likelihood(noise):
    def log_likelihood(y, f):
        r = y - f
        return (-0.5 * np.log(2 * np.pi * noise) - 0.5 * r * r / noise, r / noise, np.full_like(f, -1.0 / noise))

    return log_likelihood


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(70, 2))
    y = np.where(np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 0.4 * rng.normal(size=70) > 0, 1, 0)  # class indices
    return X, y, X[::10].copy(), RBF(np.array([0.8]), 1.4, 1e-4)


def random_whitened(engine, rng):
    engine.m_w = 0.7 * rng.normal(size=engine.m)
    L = np.tril(0.3 * rng.normal(size=(engine.m, engine.m)), -1)
    L[np.diag_indices(engine.m)] = np.exp(0.4 * rng.normal(size=engine.m))
    engine.L_S = L


def central_difference(f, x, h=1e-6):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def test_quadrature_matches_gaussian_closed_forms():
    rng = np.random.default_rng(0)
    y, a, v = rng.normal(size=50), rng.normal(size=50), rng.uniform(0.01, 5.0, 50)
    noise = 0.3
    E, g_a, g_v = gauss_hermite_expectations(gaussian_log_likelihood(noise), y, a, v)
    np.testing.assert_allclose(E, -0.5 * np.log(2 * np.pi * noise) - ((y - a) ** 2 + v) / (2 * noise), rtol=1e-12)
    np.testing.assert_allclose(g_a, (y - a) / noise, rtol=1e-12)
    np.testing.assert_allclose(g_v, -0.5 / noise, rtol=1e-12)


def test_logit_quadrature_matches_monte_carlo():
    rng = np.random.default_rng(1)
    y, a, v = np.array([1.0, -1.0, 1.0, -1.0]), np.array([0.3, 2.0, -4.0, 0.0]), np.array([0.2, 1.5, 9.0, 25.0])
    E, g_a, g_v = gauss_hermite_expectations(logit_log_likelihood, y, a, v)
    f = a[:, None] + np.sqrt(v)[:, None] * rng.standard_normal((4, 400_000))
    z = y[:, None] * f
    samples = (-np.logaddexp(0, -z), y[:, None] / (1 + np.exp(z)), -0.25 / (1 + np.cosh(f)))  # −½σ(f)σ(−f)
    for estimate, draws in zip((E, g_a, g_v), samples):
        standard_error = draws.std(1) / np.sqrt(draws.shape[1])
        assert np.all(np.abs(estimate - draws.mean(1)) < 5 * standard_error + 1e-12)


def test_price_theorem_derivatives_match_differences_of_the_expectation():
    y, a, v = np.array([1.0, -1.0, 1.0]), np.array([0.5, -1.0, 3.0]), np.array([0.3, 2.0, 4.0])
    _, g_a, g_v = gauss_hermite_expectations(logit_log_likelihood, y, a, v)
    h = 1e-5
    E = lambda a, v: gauss_hermite_expectations(logit_log_likelihood, y, a, v)[0]  # noqa: E731
    np.testing.assert_allclose(g_a, (E(a + h, v) - E(a - h, v)) / (2 * h), rtol=1e-6)
    np.testing.assert_allclose(g_v, (E(a, v + h) - E(a, v - h)) / (2 * h), rtol=1e-6)


def test_adam_variational_gradient_matches_finite_differences(problem):
    X, y, Z, kernel = problem
    engine = SVGPAdam(X, y, Z, kernel, batch_size=len(y), rng=np.random.default_rng(0))
    random_whitened(engine, np.random.default_rng(2))
    packed = engine._pack()
    analytic = engine.variational_gradient(kernel.cross(X, Z), signed_labels(y))

    def bound(p):
        engine.m_w, engine.L_S = engine._unpack(p)
        return engine.elbo()

    numeric = central_difference(bound, packed)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-6 * np.abs(numeric).max())


@pytest.mark.parametrize("cls", [SVGPAdam, SVGPNatGrad])
def test_kernel_gradient_matches_finite_differences(problem, cls):
    X, y, Z, kernel = problem
    if cls is SVGPAdam:
        engine = SVGPAdam(X, y, Z, kernel, batch_size=len(y), rng=np.random.default_rng(0))
        random_whitened(engine, np.random.default_rng(4))
    else:
        engine = SVGPNatGrad(X, y, Z, kernel, batch_size=len(y), schedule=Constant(0.3), rng=np.random.default_rng(0))
        engine.step(4)  # a q(u) away from the prior, where the KL's kernel gradient vanishes
    analytic = engine.kernel_gradient(X, signed_labels(y), engine.kernel.cross(X, Z))

    def bound(log_params):
        engine._set_kernel(kernel.with_log_params(log_params))
        return engine.elbo()

    numeric = central_difference(bound, kernel.log_params)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5)
    assert np.abs(analytic).max() > 1e-2  # a non-trivial point


def test_natural_gradient_fixed_point_is_a_stationary_point_of_the_exact_bound(problem):
    """Full-batch natural-gradient steps converge to q(u) where the Adam parameterisation's gradient vanishes."""
    X, y, Z, kernel = problem
    natgrad = SVGPNatGrad(X, y, Z, kernel, batch_size=len(y), schedule=Constant(0.5), rng=np.random.default_rng(0))
    adam = SVGPAdam(X, y, Z, kernel, batch_size=len(y), rng=np.random.default_rng(0))
    K_sm = kernel.cross(X, Z)
    start = np.abs(adam.variational_gradient(K_sm, signed_labels(y))).max()
    natgrad.step(200)
    whitened_cov = adam.L_K_inv @ natgrad.Sigma @ adam.L_K_inv.T
    adam.m_w, adam.L_S = adam.L_K_inv @ natgrad.mu, np.linalg.cholesky(whitened_cov)
    assert np.abs(adam.variational_gradient(K_sm, signed_labels(y))).max() < 1e-6 * start
    np.testing.assert_allclose(adam.elbo(), natgrad.elbo(), rtol=1e-10)


def test_exact_bound_is_above_the_augmented_bound_at_the_same_q(problem):
    X, y, Z, kernel = problem
    xgpc = XGPC(X, y, Z, kernel, batch_size=len(y), schedule=Constant(1.0), rng=np.random.default_rng(0))
    natgrad = SVGPNatGrad(X, y, Z, kernel, batch_size=len(y), rng=np.random.default_rng(0))
    gaps = []
    for _ in range(4):  # the prior, then X-GPC's coordinate-ascent iterates
        natgrad._set_natural(xgpc.eta1, xgpc.eta2)
        np.testing.assert_allclose(natgrad.kl(), xgpc.kl(), rtol=1e-12)
        gaps.append(natgrad.elbo() - xgpc.elbo())
        xgpc.step(3)
    assert min(gaps) > 0


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_state_dict_continues_bit_identically(problem, method):
    X, y, Z, kernel = problem
    build = lambda: methods.build(method, X, y, Z, kernel, batch_size=10, rng=np.random.default_rng(5))  # noqa: E731
    engine = build()
    engine.step(7)
    state = engine.state_dict()
    engine.step(6)
    resumed = build()
    resumed.load_state_dict(state)
    resumed.step(6)
    assert resumed.iteration == engine.iteration == 13
    np.testing.assert_array_equal(resumed.mu, engine.mu)
    np.testing.assert_array_equal(resumed.Sigma, engine.Sigma)
    np.testing.assert_array_equal(resumed.kernel.log_params, engine.kernel.log_params)
    assert resumed.state_dict()["rng"] == engine.state_dict()["rng"]


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_failed_step_leaves_the_state_unchanged(problem, method):
    X, y, Z, kernel = problem
    engine = methods.build(method, X, y, Z, kernel, batch_size=10, rng=np.random.default_rng(5))
    engine.step(3)
    before = engine.state_dict()
    mu, Sigma = engine.mu.copy(), engine.Sigma.copy()

    def failing_kernel_gradient(*args):
        raise FloatingPointError("injected after the variational step")

    engine.kernel_gradient = failing_kernel_gradient
    with pytest.raises(FloatingPointError):
        engine.step(1)
    del engine.kernel_gradient
    after = engine.state_dict()
    assert after["iteration"] == before["iteration"] and after["rng"] == before["rng"]
    assert after["criterion"] == before["criterion"]
    np.testing.assert_array_equal(engine.mu, mu)
    np.testing.assert_array_equal(engine.Sigma, Sigma)
    engine.step(1)  # and it can go on
    assert engine.iteration == 4


@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_trainer_runs_the_baseline_to_a_useful_classifier(problem, method):
    X, y, Z, kernel = problem
    engine = methods.build(
        method,
        X,
        y,
        Z,
        kernel,
        batch_size=20,
        rng=np.random.default_rng(0),
        step_size="adaptive",
        rho=0.5,
        tau=1.0,
        kappa=0.75,
        learn_hyperparameters=True,
        hyper_learning_rate=0.01,
    )
    trainer = Trainer(engine, X, y, eval_every=25, convergence="none")
    trainer.run(max_iter=300, stop_at_convergence=False)
    nll, elbo = trainer.history.column("test_nll"), trainer.history.column("elbo")
    assert np.all(np.isfinite(nll)) and np.all(np.isfinite(elbo))
    assert nll[-1] < 0.8 * nll[0]  # the prior predicts p = ½ (NLL log 2); training must improve on it
    assert elbo[-1] > elbo[0]
    assert engine.last_c.size == 0


def test_adam_takes_no_step_size_schedule(problem):
    X, y, Z, kernel = problem
    with pytest.raises(TypeError, match="SVGPAdam takes no step-size schedule"):
        SVGPAdam(X, y, Z, kernel, schedule=Constant(0.1))
