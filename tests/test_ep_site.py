"""The Learn tab's EP picture (`explorer.views.ep_site`): its curves against quadrature and closed forms
computed here, and the tab's sliders redrawing it."""

import holoviews as hv
import numpy as np
import pytest
from scipy import integrate
from scipy.special import ndtr

from explorer.dashboard.learn import LearnTab
from explorer.views.ep_site import EPSite, ep_site_view

CAVITIES = [(-0.5, 2.0, 1), (1.5, 0.3, 1), (-2.5, 1.0, 1), (0.7, 6.0, -1), (3.0, 0.05, -1)]


def integral(fn, ep, k=0):
    """∫ f^k fn(f) df over the cavity's ±12 sd (and 0, where Φ(yf) steps), by adaptive quadrature."""
    sd = np.sqrt(ep.cavity_var)
    low, high = ep.cavity_mean - 12 * sd, ep.cavity_mean + 12 * sd
    points = [p for p in (0.0, ep.cavity_mean) if low < p < high]
    return integrate.quad(lambda f: f**k * fn(f), low, high, points=points, epsabs=0, epsrel=1e-11, limit=400)[0]


@pytest.mark.parametrize("mean,var,y", CAVITIES)
def test_the_tilted_distribution_integrates_to_the_probit_normaliser(mean, var, y):
    """∫Φ(yf)N(f | μ₋, σ₋²)df = Φ(yμ₋/√(1+σ₋²)), and the drawn tilted density integrates to one."""
    ep = EPSite.from_cavity(mean, var, y)
    z = ndtr(y * mean / np.sqrt(1.0 + var))
    assert integral(lambda f: ep.likelihood(f) * ep.cavity(f), ep) == pytest.approx(z, rel=1e-9)
    assert ep.z == pytest.approx(z, rel=1e-9)
    assert integral(ep.tilted, ep) == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("mean,var,y", CAVITIES)
def test_the_moment_matched_gaussian_has_the_tilted_moments(mean, var, y):
    ep = EPSite.from_cavity(mean, var, y)
    tilted_mean = integral(ep.tilted, ep, 1)
    tilted_var = integral(ep.tilted, ep, 2) - tilted_mean**2
    matched_mean = integral(ep.matched, ep, 1)
    matched_var = integral(ep.matched, ep, 2) - matched_mean**2
    assert matched_mean == pytest.approx(tilted_mean, rel=1e-7, abs=1e-9)
    assert matched_var == pytest.approx(tilted_var, rel=1e-7)
    assert 0.0 < tilted_var < var  # a probit point always shrinks the variance


@pytest.mark.parametrize("mean,var,y", CAVITIES)
def test_site_times_cavity_is_z_times_the_matched_gaussian(mean, var, y):
    """t̃(f) N(f | μ₋, σ₋²) = Z N(f | tilted moments) pointwise: the site is the unnormalised Gaussian that turns the
    cavity into the moment match, scaled so that its integral against the cavity is Z; it is positive-precision."""
    ep = EPSite.from_cavity(mean, var, y)
    f = ep.grid()
    np.testing.assert_allclose(ep.site(f) * ep.cavity(f), ep.z * ep.matched(f), rtol=1e-8, atol=1e-300)
    assert integral(lambda g: ep.site(g) * ep.cavity(g), ep) == pytest.approx(ep.z, rel=1e-8)
    assert ep.tau > 0


def test_the_view_draws_these_curves_in_two_plots():
    ep = EPSite.from_cavity(-0.5, 2.0, 1)
    layout = ep_site_view(-0.5, 2.0, 1)
    assert isinstance(layout, hv.Layout) and len(layout) == 2
    likelihood_plot, density_plot = layout
    area, likelihood, site = likelihood_plot
    f = likelihood.dimension_values(0)
    np.testing.assert_allclose(likelihood.dimension_values(1), ndtr(f))
    np.testing.assert_allclose(site.dimension_values(1), ep.site(f))
    assert area.dimension_values(1).max() == pytest.approx(1.0, abs=1e-3)  # the cavity scaled to peak 1
    cavity, tilted, matched = density_plot
    np.testing.assert_allclose(tilted.dimension_values(1), ep.tilted(f))
    np.testing.assert_allclose(matched.dimension_values(1), ep.matched(f))
    assert f.min() <= min(-3.0, -0.5 - 5 * np.sqrt(2.0)) and f.max() >= 3.0


@pytest.mark.parametrize(
    "mean,var,y,problem",
    [(0.0, 0.0, 1, "variance"), (0.0, -1.0, 1, "variance"), (np.nan, 1.0, 1, "mean"), (0.0, 1.0, 0, "label")],
)
def test_a_bad_cavity_or_label_is_refused_by_name(mean, var, y, problem):
    with pytest.raises(ValueError, match=problem):
        EPSite.from_cavity(mean, var, y)


def test_the_learn_tab_redraws_the_ep_picture_from_its_sliders():
    tab = LearnTab()
    before = [pane.object for pane in tab.ep_panes]
    tab.cavity_mean.value, tab.cavity_var.value, tab.label.value = 1.0, 0.5, -1
    after = [pane.object for pane in tab.ep_panes]
    assert all(a is not b for a, b in zip(after, before))
    likelihood = list(after[0])[1]
    f = likelihood.dimension_values(0)
    np.testing.assert_allclose(likelihood.dimension_values(1), ndtr(-f))  # y = −1 now
    assert f"**{ndtr(-1.0 / np.sqrt(1.5)):.4f}**" in tab.ep_text.object  # Z = Φ(yμ₋/√(1+σ₋²))
