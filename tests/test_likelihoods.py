"""Likelihoods: log-likelihood derivatives vs finite differences, predictive probabilities vs brute-force quadrature
(scipy.integrate.quad) including large variances, the probit closed form vs quadrature, symmetry p(μ) + p(−μ) = 1,
and the Gaussian KL against its dense formula."""

import mpmath
import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit, ndtr

from explorer.likelihoods import (
    LINKS,
    LOGIT,
    PROBIT,
    gauss_hermite_expectations,
    logit_pseudo_data,
    normal_expectation,
)
from explorer.linalg import gaussian_kl

CASES = [
    (0.3, 1e-4),
    (2.0, 1.0),
    (-1.5, 4.0),
    (3.0, 25.0),
    (5.0, 100.0),
    (-7.0, 1e3),
    (40.0, 1e4),
    (1.0, 1e6),
    (-12.0, 0.5),
]
RESPONSE = {"logit": expit, "probit": ndtr}
EXACT_LOG_RESPONSE = {
    "logit": lambda z: -mpmath.log1p(mpmath.exp(-z)),
    "probit": lambda z: mpmath.log(mpmath.ncdf(z)) if z < 0 else mpmath.log1p(-mpmath.ncdf(-z)),
}


def brute_force_predictive(response, mean, var):
    """∫ response(f) N(f | mean, var) df by adaptive quadrature in z = (f − mean)/sd, split at the response's centre."""
    s = np.sqrt(var)

    def integrand(z):
        return response(mean + s * z) * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi)

    z0 = -mean / s
    pieces = [(-np.inf, z0), (z0, np.inf)] if abs(z0) < 30 else [(-np.inf, np.inf)]
    return sum(integrate.quad(integrand, a, b, epsabs=1e-14, epsrel=1e-12, limit=500)[0] for a, b in pieces)


@pytest.mark.parametrize("name", sorted(LINKS))
@pytest.mark.parametrize("mean,var", CASES)
def test_predictive_probability_matches_direct_integration(name, mean, var):
    p = LINKS[name].predictive_probability(np.array([mean]), np.array([var]))[0]
    assert p == pytest.approx(brute_force_predictive(RESPONSE[name], mean, var), abs=1e-10)


@pytest.mark.parametrize("link", [LOGIT, PROBIT])
def test_predictive_probability_is_symmetric(link):
    rng = np.random.default_rng(0)
    mean = rng.normal(0, 5, 200)
    var = np.exp(rng.uniform(np.log(1e-6), np.log(1e6), 200))  # both sides of the logit's Hermite/Laguerre switch
    p, q = link.predictive_probability(mean, var), link.predictive_probability(-mean, var)
    np.testing.assert_allclose(p + q, 1.0, atol=1e-12)
    assert np.all((p >= 0) & (p <= 1))


@pytest.mark.parametrize("link", [LOGIT, PROBIT])
def test_zero_variance_gives_the_response_itself(link):
    f = np.linspace(-6, 6, 13)
    np.testing.assert_allclose(link.predictive_probability(f, np.zeros_like(f)), RESPONSE[link.name](f), atol=1e-13)


@pytest.mark.parametrize("link", [LOGIT, PROBIT])
def test_log_likelihood_derivatives_match_finite_differences(link):
    mpmath.mp.dps = 30
    f = np.array([-30.0, -8.0, -1.3, -1e-3, 0.0, 0.4, 2.5, 9.0, 25.0])
    for y in (-1.0, 1.0):
        value, first, second = link.log_likelihood(y, f)
        exact = [float(EXACT_LOG_RESPONSE[link.name](mpmath.mpf(z))) for z in y * f]  # 15 digits at 30 digits' work
        np.testing.assert_allclose(value, exact, rtol=1e-12, atol=0)
        h = 1e-5
        up, down = link.log_likelihood(y, f + h), link.log_likelihood(y, f - h)
        np.testing.assert_allclose(first, (up[0] - down[0]) / (2 * h), rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(second, (up[1] - down[1]) / (2 * h), rtol=1e-6, atol=1e-9)


def test_probit_far_in_the_tail_stays_finite():
    value, first, second = PROBIT.log_likelihood(1.0, np.array([-60.0]))
    assert (
        np.isfinite(value[0])
        and first[0] == pytest.approx(60.0, rel=1e-3)
        and second[0] == pytest.approx(-1.0, rel=1e-2)
    )


@pytest.mark.parametrize("link", [LOGIT, PROBIT])
def test_gauss_hermite_expectations_match_quadrature(link):
    y, a, v = np.array([1.0, -1.0, 1.0]), np.array([0.5, 1.2, -2.0]), np.array([0.3, 2.0, 4.0])
    E, g_a, g_v = gauss_hermite_expectations(link.log_likelihood, y, a, v)
    for i in range(3):

        def expected(mean, var, k=0):
            return integrate.quad(
                lambda f: (
                    link.log_likelihood(y[i], f)[k] * np.exp(-0.5 * (f - mean) ** 2 / var) / np.sqrt(2 * np.pi * var)
                ),
                -np.inf,
                np.inf,
                epsabs=1e-13,
            )[0]

        assert E[i] == pytest.approx(expected(a[i], v[i]), abs=1e-9)
        assert g_a[i] == pytest.approx(expected(a[i], v[i], 1), abs=1e-9)  # E[ℓ']
        assert g_v[i] == pytest.approx(0.5 * expected(a[i], v[i], 2), abs=1e-9)  # ½E[ℓ'']


def test_the_logit_pseudo_data_on_64_nodes_match_quadrature():
    # the kernel step's exact-bound pseudo-data (ỹ, θ̃) = (2(E[ℓ'] + θ̃a), −E[ℓ'']) of log σ(yf) against adaptive
    # quadrature of the derivatives written with scipy's expit, ℓ' = yσ(−yf), ℓ'' = −σ(f)σ(−f), for both labels
    y, a, v = np.array([1.0, -1.0, 1.0, -1.0]), np.array([0.5, 1.2, -2.0, 6.0]), np.array([0.3, 2.0, 4.0, 1e-3])
    labels, theta = logit_pseudo_data(y, a, v, few_nodes=False)
    for i in range(len(y)):

        def expected(derivative):
            sd = np.sqrt(v[i])
            return integrate.quad(
                lambda z: derivative(a[i] + sd * z) * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi),
                -np.inf,
                np.inf,
                epsabs=1e-13,
            )[0]

        curvature = expected(lambda f: expit(f) * expit(-f))
        assert theta[i] == pytest.approx(curvature, abs=1e-9)
        assert labels[i] == pytest.approx(
            2.0 * (expected(lambda f: y[i] * expit(-y[i] * f)) + curvature * a[i]), abs=1e-8
        )


def test_normal_expectation_of_moments():
    mean, var = np.array([0.0, 1.5, -2.0]), np.array([1.0, 0.25, 3.0])
    np.testing.assert_allclose(normal_expectation(lambda f: f, mean, var), mean, atol=1e-13)
    np.testing.assert_allclose(normal_expectation(lambda f: f * f, mean, var), var + mean**2, rtol=1e-12)


def test_gaussian_kl_matches_the_dense_formula():
    rng = np.random.default_rng(1)
    m = 6
    A, B = rng.standard_normal((m, m)), rng.standard_normal((m, m))
    K, Sigma = A @ A.T + m * np.eye(m), B @ B.T + 0.5 * np.eye(m)
    mu = rng.standard_normal(m)
    L_K, L_P = np.linalg.cholesky(K), np.linalg.cholesky(np.linalg.inv(Sigma))
    kl = gaussian_kl(mu, L_P, np.linalg.inv(L_P), L_K, np.linalg.inv(L_K))
    K_inv = np.linalg.inv(K)
    dense = 0.5 * (
        np.trace(K_inv @ Sigma) + mu @ K_inv @ mu - m + np.linalg.slogdet(K)[1] - np.linalg.slogdet(Sigma)[1]
    )
    assert kl == pytest.approx(dense, rel=1e-12)
    L_prior_precision = np.linalg.cholesky(K_inv)  # q = p: KL(p ‖ p) = 0
    assert gaussian_kl(
        np.zeros(m), L_prior_precision, np.linalg.inv(L_prior_precision), L_K, np.linalg.inv(L_K)
    ) == pytest.approx(0.0, abs=1e-10)
