"""Kernel hyperparameter learning: the analytic ELBO gradient against central finite differences of an
independently written minibatch ELBO (c re-optimised at every perturbed kernel, q(u) held fixed), and Adam."""

import numpy as np
import pytest
from test_xgpc import rbf, reference_elbo, toy_problem

from explorer.hyperparameters import Adam, elbo_kernel_gradient, learned_kernel
from explorer.kernels import RBF, KernelParameterError, make_kernel
from explorer.polyagamma import pg_mean
from explorer.schedules import Constant
from explorer.xgpc import XGPC, local_step


def finite_difference_gradient(X_b, y_b, Z, n, kernel, mu, Sigma, full, h=1e-5):
    theta = kernel.log_params
    numeric = np.empty_like(theta)
    for k in range(len(theta)):
        values = []
        for sign in (1, -1):
            t = theta.copy()
            t[k] += sign * h
            values.append(
                reference_elbo(
                    X_b, y_b, Z, np.exp(t[:-1]), np.exp(t[-1]), kernel.nugget, mu, Sigma, full=full, scale=n / len(y_b)
                )
            )
        numeric[k] = (values[0] - values[1]) / (2 * h)
    return numeric


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("lengthscale", [np.array([0.8]), np.array([0.6, 1.5])])
def test_engine_kernel_gradient_matches_finite_differences(full, lengthscale):
    X, y = toy_problem(40, seed=5)
    kernel = RBF(lengthscale, 1.4, 1e-3)
    engine = XGPC(X, y, X[:7], kernel, batch_size=10, rng=np.random.default_rng(0), full=full, kernel_bound="augmented")
    engine.step(15)
    index = np.arange(10) if full else np.arange(3, 13)
    analytic = engine.kernel_gradient(index)
    # in the full mode the data terms do not depend on the kernel (u = f): the FD objective is the same formula
    X_b, y_b = (X, y) if full else (X[index], y[index])
    numeric = finite_difference_gradient(
        X_b, y_b, engine.Z, 40 if not full else len(y_b), kernel, engine.mu, engine.Sigma, full
    )
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-6 * np.abs(numeric).max())


@pytest.mark.parametrize("lengthscale", [np.array([1.1]), np.array([0.7, 2.0])])
def test_elbo_kernel_gradient_function_matches_finite_differences(lengthscale):
    # The module function on inputs computed here (any q, not only the engine's): μ random, Σ random SPD.
    rng = np.random.default_rng(6)
    X, y = toy_problem(12, seed=6)
    Z = rng.standard_normal((5, 2))
    kernel = RBF(lengthscale, 0.9, 1e-3)
    mu = rng.standard_normal(5)
    B = rng.standard_normal((5, 5))
    Sigma = 0.3 * B @ B.T + 0.1 * np.eye(5)
    K = rbf(Z, Z, lengthscale, 0.9) + 1e-3 * np.eye(5)
    K_sm = rbf(X, Z, lengthscale, 0.9)
    kappa = np.linalg.solve(K, K_sm.T).T
    c = np.sqrt(_optimal_c_squared_given(kappa, K_sm, mu, Sigma, 0.9 + 1e-3))
    theta = np.tanh(c / 2) / (2 * c)
    analytic = elbo_kernel_gradient(  # the equations' labels ±1; the reference takes class indices
        kernel, X, 2.0 * y - 1.0, Z, 100, mu, _lower_factor_of_inverse(Sigma), np.linalg.inv(K), kappa, K_sm, theta
    )
    numeric = finite_difference_gradient(X, y, Z, 100, kernel, mu, Sigma, False)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-7 * np.abs(numeric).max())


def _lower_factor_of_inverse(Sigma):
    """L with Σ⁻¹ = LLᵀ."""
    return np.linalg.cholesky(np.linalg.inv(Sigma))


def _gradient_by_the_defining_formula(kernel, X_b, y_b, Z, n, mu, Sigma, K_inv, kappa, K_sm, theta, full):
    """The module docstring's G_sm, G_mm with Σ, M = ΣA − I and Q = ½A + (n/s)P formed explicitly (the formula
    before it was restructured), contracted block by block."""
    A_mu, M = K_inv @ mu, Sigma @ K_inv - np.eye(len(mu))
    K_zz = kernel.cross(Z, Z)
    if full:
        return kernel.contract_gradient(Z, Z, K_zz, 0.5 * (K_inv @ M + np.outer(A_mu, A_mu)))
    scale = n / len(y_b)
    u = 0.5 * y_b - theta * (kappa @ mu)
    P = kappa.T @ np.diag(theta) @ kappa
    G_sm = scale * (np.outer(u, A_mu) - np.diag(theta) @ kappa @ M)
    G_mm = (0.5 * K_inv + scale * P) @ M + np.outer(0.5 * A_mu - scale * kappa.T @ u, A_mu) + 0.5 * scale * P
    grad = kernel.contract_gradient(X_b, Z, K_sm, G_sm) + kernel.contract_gradient(Z, Z, K_zz, G_mm)
    grad[-1] -= 0.5 * scale * kernel.variance * theta.sum()
    return grad


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize(
    "name, lengthscale",
    [("rbf", [0.9]), ("rbf", [0.5, 1.3, 2.2]), ("matern52", [1.2]), ("matern32", [0.7, 1.6, 0.9]), ("matern12", [1.4])],
)
def test_restructured_gradient_equals_the_defining_formula(full, name, lengthscale):
    # random q (μ, Σ SPD), random θ > 0: the gradient computed through N = AΣA equals the explicit-Σ formula
    rng = np.random.default_rng(len(lengthscale) + 10 * full)
    d, m, s = len(lengthscale) if len(lengthscale) > 1 else 3, 9, 13
    X_b, Z = rng.standard_normal((s, d)), rng.standard_normal((m, d))
    y_b = rng.choice([-1.0, 1.0], s)
    kernel = make_kernel(name, np.array(lengthscale), 1.3, 1e-3)
    K_inv = np.linalg.inv(kernel.gram(Z))
    K_sm = kernel.cross(X_b, Z)
    kappa = K_sm @ K_inv
    mu = rng.standard_normal(m)
    B = rng.standard_normal((m, m))
    Sigma = 0.2 * B @ B.T + 0.05 * np.eye(m)
    theta = rng.uniform(0.05, 0.25, s)
    new = elbo_kernel_gradient(
        kernel, X_b, y_b, Z, 500, mu, _lower_factor_of_inverse(Sigma), K_inv, kappa, K_sm, theta, full=full
    )
    old = _gradient_by_the_defining_formula(kernel, X_b, y_b, Z, 500, mu, Sigma, K_inv, kappa, K_sm, theta, full)
    np.testing.assert_allclose(new, old, rtol=1e-10, atol=1e-10 * np.abs(old).max())


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("kernel", [RBF(np.array([0.6, 1.5]), 1.4, 1e-3), make_kernel("matern32", 0.9, 0.8, 1e-3)])
def test_engine_gradient_with_c_from_its_products_equals_the_defining_formula(full, kernel):
    # the engine takes diag(κΣκᵀ) for c from T = κΣA; the reference takes c from the whitened local step and Σ
    X, y = toy_problem(40, seed=8)
    engine = XGPC(X, y, X[:7], kernel, batch_size=10, rng=np.random.default_rng(1), full=full, kernel_bound="augmented")
    engine.step(12)
    index = np.arange(4, 14)
    X_b, y_b = engine.source.batch(index)
    kappa, K_tilde, K_sm = engine.project(X_b, index)
    theta = pg_mean(local_step(kappa, K_tilde, engine.mu, engine.L_P))
    old = _gradient_by_the_defining_formula(
        engine.kernel,
        X_b,
        2.0 * y_b - 1.0,
        engine.Z,
        engine.n,
        engine.mu,
        engine.Sigma,
        engine.K_inv,
        kappa,
        K_sm,
        theta,
        full,
    )
    np.testing.assert_allclose(engine.kernel_gradient(index), old, rtol=1e-10, atol=1e-10 * np.abs(old).max())


def _optimal_c_squared_given(kappa, K_sm, mu, Sigma, prior_var):
    return prior_var - np.sum(kappa * K_sm, 1) + np.einsum("ij,jk,ik->i", kappa, Sigma, kappa) + (kappa @ mu) ** 2


@pytest.mark.parametrize(
    "lengthscale, variance, fine",
    [([1e99, 2.0], 1e-99, True), ([1e-50], 1e99, True), ([1.0], 1e101, False), ([1.0], 1e-101, False)],
)
def test_learned_kernels_beyond_1e100_either_way_are_refused(lengthscale, variance, fine):
    kernel = RBF(np.array(lengthscale), variance, 1e-3)
    if fine:
        assert learned_kernel(kernel) is kernel
    else:
        with pytest.raises(KernelParameterError, match="outside"):
            learned_kernel(kernel)


def test_a_learning_step_below_the_lengthscale_bound_is_refused_by_the_kernel():
    """A lengthscale below `kernels.LENGTHSCALE_LIMITS` cannot even be formed: the step that would take it there
    raises KernelParameterError (which `kernel_step_guard` turns into KernelLearningError)."""
    with pytest.raises(KernelParameterError, match=r"within \[1e-50, 1e\+100\]"):
        RBF(1.0).with_log_params(np.log([1e-60, 1.0]))


def test_adam_first_steps_by_hand():
    # t = 1: m = 0.1g, v = 0.001g², m̂ = g, v̂ = g², step = lr·g/(|g| + ε) ≈ lr·sign(g)
    adam = Adam(0.5, eps=0.0)
    x = adam.ascend(np.array([1.0, -2.0]), np.array([4.0, -0.25]))
    np.testing.assert_allclose(x, [1.5, -2.5], rtol=1e-15)
    # t = 2 with gradient (2, 0.25): m = 0.9·0.1g₁ + 0.1g₂, v = 0.999·0.001g₁² + 0.001g₂², bias-corrected by
    # 1 − 0.9² and 1 − 0.999²
    g1, g2 = np.array([4.0, -0.25]), np.array([2.0, 0.25])
    m = 0.9 * 0.1 * g1 + 0.1 * g2
    v = 0.999 * 0.001 * g1**2 + 0.001 * g2**2
    expected = x + 0.5 * (m / (1 - 0.81)) / np.sqrt(v / (1 - 0.999**2))
    np.testing.assert_allclose(adam.ascend(x, g2), expected, rtol=1e-14)
    assert adam.t == 2


def test_adam_climbs_a_concave_quadratic_and_restores_its_state():
    centre = np.array([0.7, -1.3, 2.0])
    adam, x = Adam(0.05), np.zeros(3)
    for _ in range(3000):
        x = adam.ascend(x, -2.0 * (x - centre))
    np.testing.assert_allclose(x, centre, atol=1e-3)
    twin = Adam(0.05)
    twin.load_state_dict(adam.state_dict())
    g = np.array([0.3, -0.1, 0.2])
    np.testing.assert_array_equal(twin.ascend(x, g), adam.ascend(x, g))
    with pytest.raises(ValueError):
        Adam(0.0)


def test_hyper_every_takes_an_adam_step_on_every_kth_iteration_only():
    X, y = toy_problem(60, seed=7)
    engine = XGPC(
        X,
        y,
        X[:6],
        RBF(np.array([1.0]), 1.0, 1e-4),
        batch_size=10,
        hyper_optimizer=Adam(0.05),
        rng=np.random.default_rng(0),
        hyper_every=3,
    )
    kernels = []
    for _ in range(9):
        engine.step()
        kernels.append(engine.kernel.log_params)
    assert engine.hyper_optimizer.t == 3
    changed = [not np.array_equal(a, b) for a, b in zip(kernels, kernels[1:])]
    assert changed == [False, True, False, False, True, False, False, True]  # after iterations 3, 6, 9
    with pytest.raises(ValueError, match="hyper_every"):
        XGPC(X, y, X[:6], RBF(1.0), batch_size=10, hyper_every=0)


def test_the_engine_refuses_an_unknown_kernel_bound():
    X, y = toy_problem(20, seed=7)
    with pytest.raises(ValueError, match="kernel_bound"):
        XGPC(X, y, X[:5], RBF(1.0), batch_size=10, kernel_bound="tight")


def test_adam_scale_multiplies_its_step():
    x, g = np.array([0.3, -1.0]), np.array([2.0, -0.5])
    plain, scaled = Adam(0.1), Adam(0.1)
    plain.ascend(x, 0.5 * g)
    scaled.ascend(x, 0.5 * g)
    np.testing.assert_allclose(scaled.ascend(x, g, 0.25) - x, 0.25 * (plain.ascend(x, g) - x), rtol=1e-14)


# ----- the kernel step on the exact bound (issue 11): Σ E_q[log σ(y f)] − KL at X-GPC's q ------------------------------
def _exact_elbo(X, y, Z, lengthscale, variance, nugget, mu, Sigma, scale):
    """scale·Σ_i E_{N(f|a_i, v_i)}[log σ(y_i f)] − KL, the expectations by 200-node Gauss–Hermite (written here); y
    class indices 0, 1 (y_i = ±1 in the formula)."""
    nodes, weights = np.polynomial.hermite.hermgauss(200)
    K = rbf(Z, Z, lengthscale, variance) + nugget * np.eye(len(Z))
    K_nm = rbf(X, Z, lengthscale, variance)
    kappa = np.linalg.solve(K, K_nm.T).T
    a = kappa @ mu
    v = variance + nugget - np.sum(kappa * K_nm, 1) + np.einsum("ij,jk,ik->i", kappa, Sigma, kappa)
    f = a[:, None] + np.sqrt(2 * v)[:, None] * nodes
    expected = -np.logaddexp(0.0, -(2.0 * y - 1.0)[:, None] * f) @ weights / np.sqrt(np.pi)  # class indices → ±1
    m = len(mu)
    kl = 0.5 * (
        np.trace(np.linalg.solve(K, Sigma))
        + mu @ np.linalg.solve(K, mu)
        - m
        + np.linalg.slogdet(K)[1]
        - np.linalg.slogdet(Sigma)[1]
    )
    return scale * np.sum(expected) - kl


def test_exact_bound_kernel_gradient_matches_finite_differences():
    # q held fixed in u-space while the kernel moves, q not optimal
    X, y = toy_problem(40, seed=9)
    kernel = RBF(np.array([0.7, 1.3]), 1.2, 1e-3)

    def engine(bound):
        made = XGPC(
            X, y, X[:7], kernel, batch_size=10, rng=np.random.default_rng(2), schedule=Constant(0.3), kernel_bound=bound
        )
        made.step(3)
        return made

    exact = engine("exact")
    index = np.arange(5, 15)
    numeric = np.empty(3)
    h = 1e-5
    for k in range(3):
        values = []
        for sign in (1, -1):
            t = kernel.log_params.copy()
            t[k] += sign * h
            ell, var = np.exp(t[:-1]), np.exp(t[-1])
            values.append(
                _exact_elbo(X[index], y[index], exact.Z, ell, var, kernel.nugget, exact.mu, exact.Sigma, 40 / 10)
            )
        numeric[k] = (values[0] - values[1]) / (2 * h)
    analytic = exact.kernel_gradient(index)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-7 * np.abs(numeric).max())
    assert np.abs(engine("augmented").kernel_gradient(index) - analytic).max() > 1e-3 * np.abs(analytic).max()
