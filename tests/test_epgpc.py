"""EPGPC: the probit tilted moments against brute-force quadrature (scipy.integrate.quad)."""
import numpy as np
import pytest
from scipy import integrate
from scipy.special import ndtr

from explorer.likelihoods import probit_site, probit_tilted_moments

CAVITIES = [(0.0, 1.0), (1.3, 0.2), (-2.0, 3.0), (4.0, 0.05), (-6.0, 2.0), (0.5, 50.0), (-15.0, 1.0), (2.0, 1e-6)]


def tilted_by_quadrature(y, mean, var):
    """(log Z, E[f], Var[f]) of Φ(yf) N(f | mean, var) by adaptive quadrature in z = (f − mean)/sd."""
    sd = np.sqrt(var)

    def moment(k):
        return integrate.quad(lambda z: (mean + sd * z) ** k * ndtr(y * (mean + sd * z)) * np.exp(-0.5 * z * z)
                              / np.sqrt(2 * np.pi), -40, 40, epsabs=0, epsrel=1e-12, limit=500, points=[0.0])[0]

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
