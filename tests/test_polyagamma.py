"""Pólya-Gamma helpers against closed forms, the infinite-sum representation and Monte Carlo."""

import numpy as np
import pytest

from explorer import polyagamma


def series_moments(c, terms=200_000):
    """Mean and variance of PG(1, c) from ω = Σ_k g_k / (2π²((k − ½)² + c²/(4π²))), g_k ~ Exp(1) (Polson et al.
    2013, eq. 1): E = Σ 1/(2π² d_k), Var = Σ 1/(4π⁴ d_k²), d_k = (k − ½)² + c²/(4π²); tail beyond `terms` added
    by the integral ∫ dk / k² (mean) and ∫ dk / k⁴ (variance)."""
    k = np.arange(1, terms + 1, dtype=float)
    d = (k - 0.5) ** 2 + c * c / (4 * np.pi**2)
    mean = np.sum(1.0 / d) / (2 * np.pi**2) + 1.0 / (2 * np.pi**2 * terms)
    var = np.sum(1.0 / d**2) / (4 * np.pi**4) + 1.0 / (4 * np.pi**4 * 3 * terms**3)
    return mean, var


@pytest.mark.parametrize("c", [0.0, 1e-3, 0.3, 1.0, 4.0, 15.0])
def test_the_mean_matches_the_infinite_sum_representation(c):
    assert polyagamma.pg_mean(c) == pytest.approx(series_moments(c)[0], rel=1e-9)


def test_theta_is_tanh_formula_and_its_series_is_continuous_at_the_switch():
    c = np.array([1e-3, 0.1, 1.0, 7.5, 40.0, 800.0])
    np.testing.assert_allclose(polyagamma.pg_mean(c), np.tanh(c / 2) / (2 * c), rtol=1e-15)
    assert polyagamma.pg_mean(0.0) == 0.25
    # The direct formula is accurate for small c > 0 (tanh is relatively accurate); the series must agree with it
    # below the 1e-4 switch and the two branches must meet continuously at the switch.
    for small in (1e-5, 3e-7, 1e-12):
        assert polyagamma.pg_mean(small) == pytest.approx(np.tanh(small / 2) / (2 * small), rel=1e-15)
    below, above = polyagamma.pg_mean(1e-4 * (1 - 1e-12)), polyagamma.pg_mean(1e-4 * (1 + 1e-12))
    assert abs(below - above) < 1e-16
    assert polyagamma.pg_mean(-3.0) == polyagamma.pg_mean(3.0)


def test_variance_against_monte_carlo():
    c, N = 2.5, 200_000
    omega = polyagamma.sample(np.full(N, c), np.random.default_rng(3))
    var = series_moments(c)[1]
    m4 = np.mean((omega - omega.mean()) ** 4)
    assert abs(omega.var() - var) < 5 * np.sqrt((m4 - var**2) / N)


@pytest.mark.parametrize("c", [0.5, 2.0, 6.0])
def test_kl_to_prior_is_nonnegative_and_matches_monte_carlo_of_the_log_density_ratio(c):
    # KL(q‖p) = E_q[log q(ω) − log p(ω)] with both densities from the `polyagamma` package, q = PG(1, c), p = PG(1, 0)
    N = 4000
    omega = polyagamma.sample(np.full(N, c), np.random.default_rng(11))
    log_ratio = np.log(polyagamma.density(omega, c)) - np.log(polyagamma.density(omega, 0.0))
    kl = float(polyagamma.kl_to_prior(c))
    assert kl >= 0.0
    assert abs(log_ratio.mean() - kl) < 5 * log_ratio.std() / np.sqrt(N) + 1e-9
    grid = np.linspace(-30, 30, 601)
    assert np.all(polyagamma.kl_to_prior(grid) >= 0.0)
    assert polyagamma.kl_to_prior(0.0) == 0.0
    assert float(polyagamma.kl_between(c, 0.0)) == pytest.approx(kl, rel=1e-14)


def test_log_cosh_is_stable_for_large_arguments():
    x = np.array([-1000.0, -40.0, -1.0, 0.0, 0.5, 40.0, 1000.0])
    value = polyagamma.log_cosh(x)
    assert np.all(np.isfinite(value))
    assert value[-1] == pytest.approx(1000.0 - np.log(2.0), rel=1e-15)
    assert value[0] == value[-1]
    moderate = np.abs(x) < 100
    np.testing.assert_allclose(value[moderate], np.log(np.cosh(x[moderate])), rtol=1e-14, atol=1e-16)
