"""The Learn tab's logistic-softmax picture (`explorer.views.softmax_augmentation`): the data inside its plots against
closed forms and quadrature written here, the optimality of the local parameters it shows, the bound below the
likelihood, and the tab's widgets redrawing it."""

import math

import holoviews as hv
import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit, gammaln, log_expit

from explorer.views.softmax_augmentation import (
    F_GRID,
    MEAN_GRID,
    SoftmaxAugmentation,
    augmented_slice,
    counts_view,
    family_gap_slice,
    lambda_view,
    likelihood_against_softmax,
    omega_view,
    softmax_augmentation_view,
)
from explorer.xgpc_multiclass import augmented_likelihood_terms

POINTS = [([1.0, 0.0, -1.0], 0.5, 0), ([-3.0, 2.5, 0.3], 2.0, 2), ([-4.0, -4.0, -4.0], 0.05, 1), ([0.0, 4.0], 1.0, 0)]


def curve(overlay, label):
    (element,) = [element for element in overlay if element.label == label]
    return element.dimension_values(0), element.dimension_values(1)


def by_hand_likelihood(F, k):
    """σ(f_k)/Σ_j σ(f_j), F (n, K)."""
    sigma = 1.0 / (1.0 + np.exp(-F))
    return sigma[:, k] / sigma.sum(axis=1)


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_likelihood_picture_is_the_logistic_softmax_with_its_ceiling_against_the_softmax(mean, var, label):
    aug = SoftmaxAugmentation.at(mean, var, label)
    for k in range(len(mean)):
        view = likelihood_against_softmax(aug, k)
        f, logistic = curve(view, "logistic-softmax")
        F = np.tile(mean, (len(f), 1))
        F[:, k] = f
        np.testing.assert_allclose(logistic, by_hand_likelihood(F, k), rtol=1e-12)
        _, soft = curve(view, "softmax")
        np.testing.assert_allclose(soft, np.exp(F[:, k]) / np.exp(F).sum(axis=1), rtol=1e-12)
        others = np.delete(np.asarray(mean), k)
        ceiling = 1.0 / (1.0 + sum(1.0 / (1.0 + math.exp(-m)) for m in others))
        (line,) = [element for element in view if isinstance(element, hv.HLine)]
        assert line.data == pytest.approx(ceiling, rel=1e-12)
        # bounded confidence: never above the ceiling and within σ(−8) of it at f_k = 8, where the softmax is not
        assert np.all(logistic < ceiling) and logistic[-1] > ceiling * (1.0 - expit(-8.0))
        assert soft[-1] > ceiling


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_local_parameters_shown_maximise_the_points_elbo_term(mean, var, label):
    """Moving γ_k or α away from what the picture shows lowers E_q[ℓ(f)] (the engine's ELBO terms at given local
    parameters): they are the optimum of the bound, not some other point. β = K and c_k = √E[f_k²] by hand."""
    aug = SoftmaxAugmentation.at(mean, var, label)
    K = len(mean)
    np.testing.assert_allclose(aug.c, np.sqrt(np.square(mean) + var), rtol=1e-12)
    Y = np.eye(K)[label]

    def elbo(gamma, alpha):
        return augmented_likelihood_terms(
            Y[None], np.array([mean]), np.full((1, K), var), aug.c[None], gamma[None], np.array([alpha])
        )[0]

    best = elbo(aug.gamma, aug.alpha)
    assert best == pytest.approx(aug.elbo_term(), rel=1e-12)
    for scale in (0.9, 1.1):
        assert elbo(aug.gamma, aug.alpha * scale) < best
        for k in range(K):
            moved = aug.gamma.copy()
            moved[k] *= scale
            assert elbo(moved, aug.alpha) < best


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_gamma_and_poisson_pictures_are_densities_with_the_optimal_parameters(mean, var, label):
    aug = SoftmaxAugmentation.at(mean, var, label)
    K = len(mean)
    lam, density = curve(lambda_view(aug), "q(λ)")
    # Ga(λ | α, K) by hand: K^α λ^(α−1) e^(−Kλ) / Γ(α)
    safe = np.maximum(lam, 1e-300)
    by_hand = np.exp(aug.alpha * math.log(K) + (aug.alpha - 1.0) * np.log(safe) - K * safe - gammaln(aug.alpha))
    np.testing.assert_allclose(density[lam > 0], by_hand[lam > 0], rtol=1e-10)
    assert integrate.quad(aug.lambda_density, 0, np.inf)[0] == pytest.approx(1.0, rel=1e-9)
    assert integrate.quad(lambda x: x * aug.lambda_density(x), 0, np.inf)[0] == pytest.approx(aug.alpha / K, rel=1e-8)
    assert aug.alpha == pytest.approx(1.0 + aug.gamma.sum(), rel=1e-10)  # α = 1 + Σγ_k (the module's equations)

    spikes = counts_view(aug)
    rate = aug.joint_rate
    for k in range(K):
        shifted, pmf = curve(spikes, f"n_{k} factorised")
        n = np.rint(shifted).astype(int)
        np.testing.assert_allclose(shifted - n, 0.12 * (2 * k + 1 - (2 * K - 1) / 2))
        by_hand = np.array([aug.gamma[k] ** i * math.exp(-aug.gamma[k]) / math.factorial(i) for i in n])
        np.testing.assert_allclose(pmf, by_hand, rtol=1e-10)
        assert 1.0 - 1e-3 <= pmf.sum() <= 1.0 + 1e-12  # the support shown holds all but 1e-3 of the mass
        wide = aug.count_pmf(np.arange(200))[:, k]
        assert wide.sum() == pytest.approx(1.0, abs=1e-12) and wide @ np.arange(200) == pytest.approx(aug.gamma[k])
        # the joint family's marginal of n_k: ∫ β e^(−βλ) Po(n | λ r_k) dλ with r_k = e^(−a_k/2)/(2cosh(c_k/2)),
        # by quadrature over λ, and its mean r_k/β
        r = math.exp(-mean[k] / 2) / (2 * math.cosh(aug.c[k] / 2))
        assert aug.joint_n[k] == pytest.approx(r / rate, rel=1e-10)
        shifted, pmf = curve(spikes, f"n_{k} joint")
        np.testing.assert_allclose(shifted - n, 0.12 * (2 * k - (2 * K - 1) / 2))
        for i, value in zip(n[:6], pmf[:6]):
            integral = integrate.quad(
                lambda lam: (
                    rate * math.exp(-rate * lam + i * math.log(lam * r + 1e-300) - lam * r - math.lgamma(i + 1))
                ),
                0,
                np.inf,
            )[0]
            assert value == pytest.approx(integral, rel=1e-7)
        assert 1.0 - 1e-3 <= pmf.sum() <= 1.0 + 1e-12


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_omega_draws_have_the_closed_form_mean_and_atom(mean, var, label):
    """E[ω_k] = E[Y_k + n_k] tanh(c_k/2)/(2c_k) and P(ω_k = 0) = P(Y_k + n_k = 0) = e^(−γ_k) for k ≠ label, checked
    against the draws within five Monte Carlo standard errors; the histograms hold the continuous part's mass."""
    aug = SoftmaxAugmentation.at(mean, var, label)
    draws = aug.omega_draws(40_000, np.random.default_rng(1))
    for k in range(len(mean)):
        h = (k == label) + aug.gamma[k]
        theta = h * math.tanh(aug.c[k] / 2.0) / (2.0 * aug.c[k])
        assert aug.theta[k] == pytest.approx(theta, rel=1e-12)
        se = draws[:, k].std() / math.sqrt(len(draws))
        assert abs(draws[:, k].mean() - theta) < 5 * se
        zero = 0.0 if k == label else math.exp(-aug.gamma[k])
        assert abs(np.mean(draws[:, k] == 0.0) - zero) < 5 * math.sqrt(zero * (1 - zero) / len(draws)) + 1e-12
    view = omega_view(aug, draws)
    upper = np.quantile(draws, 0.995)
    for k, histogram in enumerate(view):
        edges, heights = histogram.interface.coords(histogram, "omega", edges=True), histogram.dimension_values(1)
        mass = float(np.sum(np.diff(edges) * heights))
        assert mass == pytest.approx(np.mean((draws[:, k] > 0) & (draws[:, k] <= upper)), rel=1e-9)


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_augmented_bound_is_a_gaussian_below_the_likelihood(mean, var, label):
    """Along every f_k: exp ℓ(f) ≤ p(y | f) on the grid (and ℓ ≤ log p at random f), log of it a parabola with
    curvature −θ_k and peak at (Y_k − γ_k)/(2θ_k); E_q[ℓ(f)] by Gauss–Hermite (exact for a quadratic) is the ELBO term,
    below E_q[log p(y | f)]."""
    aug = SoftmaxAugmentation.at(mean, var, label)
    K = len(mean)
    for k in range(K):
        view = augmented_slice(aug, k)
        f, likelihood = curve(view, f"p(y = {label} | f)")
        F = np.tile(mean, (len(f), 1))
        F[:, k] = f
        np.testing.assert_allclose(likelihood, by_hand_likelihood(F, label), rtol=1e-12)
        for family, theta, counts in (("factorised", aug.theta, aug.gamma), ("joint", aug.joint_theta, aug.joint_n)):
            _, bound = curve(view, f"exp ℓ(f), {family}")
            assert np.all(bound <= likelihood * (1 + 1e-12))
            a2, a1, _ = np.polyfit(f, np.log(bound), 2)
            assert a2 == pytest.approx(-theta[k] / 2.0, rel=1e-8)
            assert -a1 / (2 * a2) == pytest.approx(((k == label) - counts[k]) / (2 * theta[k]), rel=1e-8, abs=1e-8)
    F = np.random.default_rng(2).normal(0.0, 4.0, (2000, K))
    log_p = log_expit(F[:, label]) - np.log(expit(F).sum(axis=1))
    assert np.all(aug.bound(F) <= log_p + 1e-12) and np.all(aug.joint_bound(F) <= log_p + 1e-12)
    nodes, weights = np.polynomial.hermite_e.hermegauss(5)
    grid = np.stack(np.meshgrid(*[nodes] * K, indexing="ij"), axis=-1).reshape(-1, K)
    w = np.prod(np.stack(np.meshgrid(*[weights] * K, indexing="ij"), axis=-1).reshape(-1, K), axis=1)
    w = w / w.sum()
    expected = w @ aug.bound(np.asarray(mean) + math.sqrt(var) * grid)
    assert expected == pytest.approx(aug.elbo_term(), rel=1e-10)
    assert aug.elbo_term() < aug.expected_log_likelihood()


def test_bad_points_are_refused_by_name():
    with pytest.raises(ValueError, match="label must be a class index 0…2"):
        SoftmaxAugmentation.at([0.0, 1.0, 2.0], 1.0, 3)
    with pytest.raises(ValueError, match="variances ≥ 0"):
        SoftmaxAugmentation.at([0.0, 1.0, 2.0], -1.0, 0)
    with pytest.raises(ValueError, match="K ≥ 2"):
        SoftmaxAugmentation.at([0.0], 1.0, 0)


def gauss_hermite_expectation(label, means, var, nodes=40):
    """E[log p(y = label | f)] under Π_k N(means_k, var) for each row of means (N, K), by a tensor-product
    Gauss–Hermite rule (numpy's physicists' nodes, `nodes` per class)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    K = means.shape[1]
    eps = np.stack(np.meshgrid(*[math.sqrt(2.0 * var) * x] * K, indexing="ij"), axis=-1).reshape(-1, K)
    weights = np.prod(np.stack(np.meshgrid(*[w / math.sqrt(math.pi)] * K, indexing="ij"), axis=-1).reshape(-1, K), 1)
    out = []
    for m in means:
        F = m + eps
        out.append(weights @ (log_expit(F[:, label]) - np.log(expit(F).sum(axis=1))))
    return np.array(out)


@pytest.mark.parametrize("mean,var,label", POINTS)
def test_the_joint_bound_hugs_the_expected_log_likelihood_closer_than_the_factorised_one(mean, var, label):
    """The sixth picture, along the mean of the label's f_k: its expected log likelihood is Gauss–Hermite quadrature
    written here (40 nodes a class); both bounds lie below it everywhere; the joint one is, point by point, the closed
    form Σ_k Y_k(a_k/2 − log 2cosh(c_k/2)) − log(K − Σ_k r_k) and its largest gap is smaller than the factorised
    one's; the title states both gaps at q, in nats."""
    aug = SoftmaxAugmentation.at(mean, var, label)
    K, k = len(mean), label
    view = family_gap_slice(aug, k)
    grid, expected = curve(view, f"E_q[log p(y = {label} | f)]")
    np.testing.assert_array_equal(grid, MEAN_GRID)
    A = np.tile(np.asarray(mean, dtype=float), (len(grid), 1))
    A[:, k] = grid
    truth = gauss_hermite_expectation(label, A, var)
    np.testing.assert_allclose(expected, truth, rtol=0.0, atol=1e-6)
    _, joint = curve(view, "joint bound")
    _, factorised = curve(view, "factorised bound")
    c = np.sqrt(A**2 + var)
    log_2cosh = np.logaddexp(c / 2, -c / 2)
    r = np.exp(-A / 2 - log_2cosh)
    np.testing.assert_allclose(joint, A[:, label] / 2 - log_2cosh[:, label] - np.log(K - r.sum(axis=1)), atol=1e-9)
    assert np.all(joint <= truth + 1e-9) and np.all(factorised <= truth + 1e-9)
    assert np.max(truth - joint) < np.max(truth - factorised)
    at_q = gauss_hermite_expectation(label, np.array([mean], dtype=float), var)[0]
    title = view.opts.get().kwargs["title"]
    gap_joint, gap_factorised = at_q - aug.joint_elbo_term(), at_q - aug.elbo_term()
    assert title == f"gap at q: joint {gap_joint:.3f}, factorised {gap_factorised:.3f} nats"
    assert 0.0 <= gap_joint < gap_factorised


def test_the_joint_gap_closes_as_the_variance_shrinks_and_the_factorised_one_does_not():
    # at q's mean itself (E over q of the bounds by the families' closed forms against quadrature written here)
    mean = np.array([0.5, -1.0, 1.5])
    gaps = {}
    for var in (1.0, 1e-2, 1e-4):
        aug = SoftmaxAugmentation.at(mean, var, 1)
        truth = gauss_hermite_expectation(1, mean[None], var)[0]
        gaps[var] = (truth - aug.joint_elbo_term(), truth - aug.elbo_term())
    assert gaps[1e-4][0] < 1e-3 and gaps[1e-4][0] < 0.01 * gaps[1.0][0]
    assert gaps[1e-4][1] > 0.05


def test_the_view_has_six_plots_and_renders_in_both_backends():
    layout = softmax_augmentation_view([1.0, 0.0, -1.0], 0.5, 0, draws=2000)
    assert isinstance(layout, hv.Layout) and len(layout) == 6
    for backend in ("bokeh", "matplotlib"):
        assert hv.renderer(backend).get_plot(layout) is not None
    assert np.array_equal(curve(layout[0], "logistic-softmax")[0], F_GRID)


def test_the_learn_tab_redraws_the_picture_when_a_slider_moves():
    from explorer.dashboard.learn import LearnTab

    tab = LearnTab()
    start = SoftmaxAugmentation.at([1.0, 0.0, -1.0], 0.5, 0)  # the sliders' starting point
    assert f"E_q[ℓ(f)] = **{start.elbo_term():.4f}**" in tab.softmax_text.object
    tab.softmax_means[2].value = 2.5
    tab.softmax_label.value = 2
    tab.softmax_slice.value = 1
    aug, draws, k = tab.softmax_pipe.data
    assert aug.mean.tolist() == [1.0, 0.0, 2.5] and aug.label == 2 and k == 1 and draws.shape == (20_000, 3)
    frames = [pane.object[()] for pane in tab.softmax_panes]  # the views' current frames
    f, likelihood = curve(frames[4], "p(y = 2 | f)")
    F = np.tile([1.0, 0.0, 2.5], (len(f), 1))
    F[:, 1] = f
    np.testing.assert_allclose(likelihood, by_hand_likelihood(F, 2), rtol=1e-12)
    assert f"E_q[ℓ(f)] = **{aug.elbo_term():.4f}**" in tab.softmax_text.object
    lam, density = curve(frames[1], "q(λ)")
    np.testing.assert_allclose(density, aug.lambda_density(lam))
    assert aug.alpha == pytest.approx(1.0 + aug.gamma.sum())
    # the sixth picture and the text: both families' gaps, in nats, for the new point and slice
    grid, joint = curve(frames[5], "joint bound")
    A = np.tile([1.0, 0.0, 2.5], (len(grid), 1))
    A[:, 1] = grid
    truth = gauss_hermite_expectation(2, A, 0.5)
    assert np.all(joint <= truth + 1e-9)
    at_q = gauss_hermite_expectation(2, np.array([[1.0, 0.0, 2.5]]), 0.5)[0]
    assert f"**{at_q - aug.joint_elbo_term():.3f} nats**" in tab.softmax_text.object
    assert f"**{at_q - aug.elbo_term():.3f} nats**" in tab.softmax_text.object
