"""RBF kernel: the formula, symmetry and positive-definiteness, nugget placement, gradient vs finite differences."""
import numpy as np
import pytest

from explorer.kernels import RBF


def brute_force_rbf(X1, X2, lengthscale, variance):
    """σ² exp(−½ Σ_d (x_d − x'_d)² / ℓ_d²) by explicit loops."""
    K = np.empty((len(X1), len(X2)))
    for i, a in enumerate(X1):
        for j, b in enumerate(X2):
            K[i, j] = variance * np.exp(-0.5 * np.sum(((a - b) / lengthscale) ** 2))
    return K


@pytest.mark.parametrize("lengthscale", [np.array([0.7]), np.array([0.4, 1.3, 2.0])])
def test_cross_matches_the_formula_and_has_no_nugget(lengthscale):
    rng = np.random.default_rng(0)
    X1, X2 = rng.standard_normal((7, 3)), rng.standard_normal((5, 3))
    kernel = RBF(lengthscale, 1.7, 0.3)
    np.testing.assert_allclose(kernel.cross(X1, X2), brute_force_rbf(X1, X2, lengthscale, 1.7), rtol=1e-12,
                               atol=1e-300)
    # a point against itself: σ², not σ² + γ (the nugget is white noise of one variable, not a cross-covariance)
    np.testing.assert_allclose(np.diag(kernel.cross(X1, X1)), 1.7, rtol=1e-14)
    np.testing.assert_array_equal(kernel.diag(4), np.full(4, 2.0))


def test_far_apart_points_give_zero_not_nan():
    kernel = RBF(np.array([1e-3]), 2.0, 1e-6)
    K = kernel.cross(np.zeros((3, 2)), np.full((4, 2), 5.0))
    assert np.all(np.isfinite(K)) and np.all(K >= 0) and np.all(K < 1e-250)


def test_gram_is_symmetric_positive_definite_with_the_nugget_only_on_the_diagonal():
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((30, 2))
    Z[5] = Z[4]  # a duplicated row: PD only thanks to the nugget
    for kernel in (RBF(np.array([0.9]), 2.0, 1e-4), RBF(np.array([0.5, 3.0]), 0.6, 1e-2)):
        K = kernel.gram(Z)
        np.testing.assert_array_equal(K, K.T)
        np.testing.assert_array_equal(np.diag(K), np.full(30, kernel.variance + kernel.nugget))
        off = ~np.eye(30, dtype=bool)
        np.testing.assert_allclose(K[off], brute_force_rbf(Z, Z, kernel.lengthscale, kernel.variance)[off],
                                   rtol=1e-12, atol=1e-300)
        assert np.linalg.eigvalsh(K).min() > 0.5 * kernel.nugget


@pytest.mark.parametrize("lengthscale", [np.array([0.8]), np.array([0.5, 1.5, 1.1])])
def test_contract_gradient_matches_central_finite_differences(lengthscale):
    rng = np.random.default_rng(2)
    X1, X2 = rng.standard_normal((6, 3)), rng.standard_normal((4, 3))
    G = rng.standard_normal((6, 4))
    kernel = RBF(lengthscale, 1.3, 1e-3)
    analytic = kernel.contract_gradient(X1, X2, kernel.cross(X1, X2), G)
    theta, h = kernel.log_params, 1e-6
    numeric = np.empty_like(theta)
    for k in range(len(theta)):
        up, down = theta.copy(), theta.copy()
        up[k] += h
        down[k] -= h
        f = [np.sum(G * brute_force_rbf(X1, X2, np.exp(t[:-1]), np.exp(t[-1]))) for t in (up, down)]
        numeric[k] = (f[0] - f[1]) / (2 * h)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-7, atol=1e-9)
