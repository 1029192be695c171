"""The stick-breaking Pólya-Gamma multi-class family (`xgpc_stickbreaking`) against independent truth: the class
probabilities against the model's own definition and summing to 1 for every K, the per-logit local step against the
Pólya-Gamma conditional (draws of `polyagamma`, and the bound's maximum over c), the bound against the expected log
likelihood by 1-D quadrature (equal at zero variance), the fixed point a stationary point by finite differences, the
predictive against Monte Carlo, the fitted model against K − 1 exact binary PG Gibbs samplers on the points that reach
each logit, and the option through the builder, the estimator and the Model."""

import numpy as np
import pytest
from polyagamma import random_polyagamma
from scipy import integrate
from scipy.special import expit, log_expit
from sklearn.datasets import load_wine

from explorer import Model, XGPClassifier, diagnostics, methods, settings
from explorer.gibbs import GibbsSampler
from explorer.hyperparameters import Adam
from explorer.kernels import RBF
from explorer.likelihoods import logit_predictive_probability
from explorer.run import Run
from explorer.schedules import Constant
from explorer.training import Trainer, fit_to_optimum
from explorer.xgpc import XGPC, MultiLatentXGPC
from explorer.xgpc_stickbreaking import (
    StickBreaking,
    stick_labels,
    stick_order,
    stick_probabilities,
)


def blobs(K, per_class, rng, spread=0.7):
    centres = np.array([[2.0 * np.cos(2 * np.pi * k / K), 2.0 * np.sin(2 * np.pi * k / K)] for k in range(K)])
    X = np.concatenate([rng.normal(c, spread, (per_class, 2)) for c in centres])
    return X, np.repeat(np.arange(K), per_class)


def direct_likelihood(y, F, order):
    """p(y | f) straight from the definition: the class at stick position k takes σ(ψ_k) Π_{j<k} σ(−ψ_j)."""
    k = list(order).index(y)
    value = np.prod([expit(-F[j]) for j in range(k)])
    return value * (expit(F[k]) if k < len(F) else 1.0)


# ----- the likelihood and its predictive ------------------------------------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 5, 8, 13])
def test_the_class_probabilities_are_the_definition_and_sum_to_one(K):
    rng = np.random.default_rng(K)
    order = tuple(int(k) for k in rng.permutation(K))
    link = StickBreaking(K, order)
    F = rng.normal(0.0, 3.0, (40, K - 1))
    P = link.probabilities(F)
    expected = np.array([[direct_likelihood(k, f, order) for k in range(K)] for f in F])
    assert np.allclose(P, expected, rtol=1e-12, atol=0.0)
    assert np.allclose(P.sum(axis=1), 1.0, rtol=0.0, atol=1e-14)
    predictive = link.predictive(rng.normal(0.0, 3.0, (40, K - 1)), rng.uniform(0.0, 20.0, (40, K - 1)))
    assert np.all(predictive >= 0.0) and np.allclose(predictive.sum(axis=1), 1.0, rtol=0.0, atol=1e-14)


def test_the_predictive_is_the_monte_carlo_average_of_the_likelihood():
    rng = np.random.default_rng(0)
    K, draws = 4, 400_000
    link = StickBreaking(K, (2, 0, 3, 1))
    mean, var = np.array([[0.7, -1.2, 2.0]]), np.array([[0.5, 3.0, 9.0]])
    F = mean + np.sqrt(var) * rng.standard_normal((draws, K - 1))
    samples = link.probabilities(F)
    mc, se = samples.mean(axis=0), samples.std(axis=0) / np.sqrt(draws)
    assert np.all(np.abs(link.predictive(mean, var)[0] - mc) <= 4.0 * se)
    # and not the plug-in σ at the mean, which the same tolerance refuses
    assert np.max(np.abs(link.probabilities(mean)[0] - mc) / se) > 20.0


def test_the_frequency_order_puts_the_largest_class_first_and_breaks_ties_by_index():
    assert stick_order(np.array([5, 9, 9, 2]), "frequency") == (1, 2, 0, 3)
    assert stick_order(np.array([5, 9, 9, 2])) == (0, 1, 2, 3)  # the default: the given order
    assert stick_order(np.array([5, 9, 9, 2]), "given") == (0, 1, 2, 3)
    assert stick_order(np.array([5, 9, 9, 2]), np.array([2, 0, 3, 1])) == (2, 0, 3, 1)
    with pytest.raises(ValueError, match="unknown class order 'alphabetical'; choose one of given, frequency"):
        stick_order(np.array([1, 2]), "alphabetical")
    with pytest.raises(ValueError, match="permutation of 0…2"):
        StickBreaking(3, (0, 1, 1))


# ----- the local step and the bound ------------------------------------------------------------------------------------
def test_the_local_step_is_the_polya_gamma_conditional_on_the_logits_a_point_reaches():
    rng = np.random.default_rng(1)
    K = 4
    positions = np.array([0, 1, 2, 3])
    a, v = rng.normal(0.0, 2.0, (4, K - 1)), rng.uniform(0.1, 3.0, (4, K - 1))
    c, labels, theta = StickBreaking(K).local_step(positions, a, v)
    reach = np.arange(K - 1) <= positions[:, None]
    assert np.array_equal(labels != 0, reach) and np.array_equal(theta != 0, reach)
    assert np.array_equal(labels[reach], np.where((np.arange(K - 1) == positions[:, None])[reach], 1.0, -1.0))
    for i, j in zip(*np.nonzero(reach)):
        # q(ω) ∝ exp(−ω E[ψ²]/2) PG(ω | 1, 0) = PG(1, √E[ψ²]): its mean by 200,000 exact draws (Devroye)
        draws = random_polyagamma(1, np.sqrt(a[i, j] ** 2 + v[i, j]), size=200_000, random_state=rng)
        assert abs(theta[i, j] - draws.mean()) <= 4.0 * draws.std() / np.sqrt(len(draws))
        # and c is where the binary augmented term −½θ(c)E[ψ²] + ½c²θ(c) − log cosh(c/2) peaks
        grid = np.linspace(0.01, 3.0 * c[i, j], 20_001)
        theta_grid = np.tanh(grid / 2) / (2 * grid)
        term = -0.5 * theta_grid * (a[i, j] ** 2 + v[i, j]) + 0.5 * grid**2 * theta_grid - np.log(np.cosh(grid / 2))
        assert abs(grid[np.argmax(term)] - c[i, j]) <= 2.0 * (grid[1] - grid[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_bound_is_below_the_expected_log_likelihood_by_quadrature_and_exact_at_zero_variance(seed):
    rng = np.random.default_rng(seed)
    K = 5
    positions = np.arange(K)
    a, v = rng.normal(0.0, 2.0, (K, K - 1)), rng.uniform(0.05, 4.0, (K, K - 1))
    t, reach = stick_labels(positions, K - 1)
    expected = np.zeros(K)
    for i in range(K):
        for j in np.flatnonzero(reach[i]):
            sd = np.sqrt(v[i, j])
            expected[i] += integrate.quad(
                lambda f: log_expit(t[i, j] * f) * np.exp(-0.5 * ((f - a[i, j]) / sd) ** 2) / (sd * np.sqrt(2 * np.pi)),
                a[i, j] - 12 * sd,
                a[i, j] + 12 * sd,
                epsabs=1e-12,
            )[0]
    bound = StickBreaking(K).bound(positions, a, v)
    assert np.all(bound <= expected + 1e-10) and np.all(bound < expected - 1e-4)  # strictly below when v > 0
    exact = np.log([direct_likelihood(k, a[k], tuple(range(K))) for k in range(K)])
    assert np.allclose(StickBreaking(K).bound(positions, a, np.zeros_like(v)), exact, rtol=0.0, atol=1e-12)


# ----- the engine -------------------------------------------------------------------------------------------------------
def test_the_fixed_point_is_a_stationary_point_of_the_elbo_by_finite_differences():
    rng = np.random.default_rng(3)
    X, y = blobs(4, 12, rng)
    engine = MultiLatentXGPC(
        X, y, X[::4], RBF(1.0, 2.0), likelihood=StickBreaking(4), batch_size=len(y), schedule=Constant(1.0), rng=rng
    )
    start = engine._eta.copy()

    def directional_slope(eta, direction, h=1e-5):
        values = []
        for sign in (1.0, -1.0):
            engine._set_posterior(eta + sign * h * direction)
            values.append(engine.elbo())
        engine._set_posterior(eta.copy())
        return (values[0] - values[1]) / (2 * h)

    m, J = engine.m, engine.n_latent
    directions = []
    for _ in range(4):  # random directions in (η₁, η₂) of every logit, η₂'s part symmetric
        parts = []
        for _ in range(J):
            S = rng.standard_normal((m, m)) * 1e-2
            parts += [rng.standard_normal(m), (S + S.T).ravel()]
        directions.append(np.concatenate(parts))
    before = [abs(directional_slope(start, d)) for d in directions]
    assert fit_to_optimum(engine, max_sweeps=500).converged
    after = [abs(directional_slope(engine._eta.copy(), d)) for d in directions]
    assert max(after) < 1e-5 * max(before) and min(before) > 1e-2


def test_the_elbo_never_falls_under_coordinate_ascent_and_the_order_is_kept_through_a_state_round_trip():
    rng = np.random.default_rng(4)
    X, y = blobs(5, 10, rng)
    y = np.where(y == 0, 3, y)  # class 3 the most frequent, class 0 absent

    def by_frequency(**keywords):
        """Coordinate ascent with the classes on the stick by frequency."""
        order = stick_order(np.bincount(y, minlength=5), "frequency")
        return MultiLatentXGPC(
            X,
            y,
            X[::5],
            RBF(1.0),
            likelihood=StickBreaking(5, order),
            batch_size=len(y),
            schedule=Constant(1.0),
            **keywords,
        )

    engine = by_frequency(rng=rng)
    assert engine.link.order[0] == 3 and engine.n_latent == 4
    bounds = []
    for _ in range(8):
        engine.step()
        bounds.append(engine.elbo())
    assert all(b1 <= b2 + 1e-9 for b1, b2 in zip(bounds, bounds[1:]))
    other = MultiLatentXGPC(X, y, X[::5], RBF(1.0), likelihood=StickBreaking(5), batch_size=len(y))
    with pytest.raises(ValueError, match=r"order \[3, 1, 2, 4, 0\], this engine in \[0, 1, 2, 3, 4\]"):
        other.load_state_dict(engine.state_dict())
    again = by_frequency()
    again.load_state_dict(engine.state_dict())
    assert np.array_equal(again.predict_proba(X), engine.predict_proba(X))


def exact_bound(engine, index, nodes=120):
    """(n/s)Σ_{i∈index} Σ_j R_ij E_q[log σ(t_ij ψ_ij)] − KL, the expectations by 120-node Gauss–Hermite (not the
    engine's 64-node rule)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    X_b, positions = engine._batch(index)
    kappa, K_tilde, _ = engine.project(X_b, index)
    a, v = engine.marginals(kappa, K_tilde)
    t, reach = stick_labels(positions, engine.n_latent)
    values = log_expit(t[..., None] * (a[..., None] + np.sqrt(2.0 * v)[..., None] * x)) @ w / np.sqrt(np.pi)
    return engine.n / len(index) * float(np.sum(reach * values)) - engine.kl()


@pytest.mark.parametrize("lengthscale", [0.8, np.array([0.8, 1.3])], ids=["isotropic", "ard"])
@pytest.mark.parametrize("kernel_bound", ["augmented", "exact"])
def test_the_kernel_gradient_is_the_finite_difference_of_the_bound_it_ascends(kernel_bound, lengthscale):
    """The K − 1 logits' adjoints summed and contracted once (`summed_kernel_gradient`) against central differences
    of the bound itself, one lengthscale or one per feature."""
    rng = np.random.default_rng(5)
    X, y = blobs(4, 10, rng)
    kernel = RBF(lengthscale, variance=1.3)
    engine = MultiLatentXGPC(
        X, y, X[::4], kernel, likelihood=StickBreaking(4), batch_size=12, rng=rng, kernel_bound=kernel_bound
    )
    engine.step(5)
    index = np.arange(0, 40, 2)
    bound = engine.elbo if kernel_bound == "augmented" else (lambda rows: exact_bound(engine, rows))
    gradient = engine.kernel_gradient(index)
    kernel, h = engine.kernel, 1e-5
    for j in range(len(kernel.log_params)):
        values = []
        for sign in (1.0, -1.0):
            shifted = kernel.log_params.copy()
            shifted[j] += sign * h
            engine._set_kernel(kernel.with_log_params(shifted))
            values.append(bound(index))
        engine._set_kernel(kernel)
        assert gradient[j] == pytest.approx((values[0] - values[1]) / (2 * h), rel=1e-4, abs=1e-5)


@pytest.fixture(scope="module")
def blobs_and_samplers():
    # 45 training and 30 test points of three blobs, one fixed kernel; per logit j the exact binary PG sampler on the
    # points that reach it (stick position ≥ j), class 1 where the point stops there (4 chains × 1,000 draws)
    rng = np.random.default_rng(0)
    X, y = blobs(3, 15, rng)
    Xs, _ = blobs(3, 10, rng)
    kernel = RBF(1.0, 2.0, 1e-4)
    order = stick_order(np.bincount(y))
    positions = np.argsort(order)[y]
    P_mc, se = [], []
    for j in range(2):
        reach = positions >= j
        sampler = GibbsSampler(
            X[reach], (positions[reach] == j).astype(int), kernel, rng=np.random.default_rng(1 + j), n_samples=1_000
        )
        sampler.run(chunk=500)
        assert sampler.diagnostics()["rhat_max/f"] < 1.01
        P_mc.append(sampler.predict_proba(Xs)[:, 1])
        # Monte Carlo standard error of p_j: the per-draw Rao–Blackwellised p_s, sd_s/√ESS
        K_ns = kernel.cross(X[reach], Xs)
        A = np.linalg.solve(kernel.gram(X[reach]), K_ns)
        var = kernel.diag(len(Xs)) - np.einsum("ij,ij->j", A, K_ns)
        means = np.einsum("csn,nt->cst", sampler.draws, A)
        p = logit_predictive_probability(means.ravel(), np.tile(var, means.shape[0] * means.shape[1]))
        p = p.reshape(means.shape)
        se.append(p.reshape(-1, len(Xs)).std(axis=0, ddof=1) / np.sqrt(diagnostics.ess_mean(p)))
    return X, y, Xs, kernel, np.column_stack(P_mc), np.column_stack(se)


def test_the_fixed_point_predicts_as_k_minus_one_exact_binary_samplers(blobs_and_samplers):
    # The exact posterior of the model factorises over the logits (the likelihood is a product over them and the
    # priors are independent), so K − 1 binary samplers on the masked data are the exact sampler of the whole model.
    # Tolerance per break probability: 4 Monte Carlo standard errors plus 0.01 for the variational approximation (the
    # binary mean-field PG fit is close to the exact posterior but not equal to it). Measured (seed 0): max |ΔP_j|
    # 0.009, at most 0.43 of the tolerance; a fit of logit 1 that ignores the mask (every point in it) is 32× outside.
    X, y, Xs, kernel, P_mc, se = blobs_and_samplers
    tolerance = 4.0 * se + 0.01
    engine = MultiLatentXGPC(
        X, y, None, kernel, likelihood=StickBreaking(3), full=True, batch_size=len(y), schedule=Constant(1.0)
    )
    assert fit_to_optimum(engine, max_sweeps=2_000).converged
    mean, var = engine.predict_latent(Xs)
    P_vi = logit_predictive_probability(mean.ravel(), var.ravel()).reshape(mean.shape)
    assert np.all(np.abs(P_vi - P_mc) <= tolerance)
    # the class probabilities are multilinear in the P_j with coefficients in [0, 1]: their error is at most the sum
    exact = stick_probabilities(P_mc, 1.0 - P_mc)[:, engine.link.positions]
    assert np.all(np.abs(engine.predict_proba(Xs) - exact) <= tolerance.sum(axis=1, keepdims=True))
    # the tolerance sees the mask: binary fits of "stops at j" on every point, reached or not, fall outside it
    positions = engine.link.equation_labels(y)
    unmasked = []
    for j in range(2):
        binary = XGPC(
            X, (positions == j).astype(int), None, kernel, full=True, batch_size=len(y), schedule=Constant(1.0)
        )
        assert fit_to_optimum(binary, max_sweeps=2_000).converged
        unmasked.append(binary.predict_proba(Xs)[:, 1])
    assert np.max(np.abs(unmasked[1] - P_mc[:, 1]) / tolerance[:, 1]) > 10.0


# ----- the option in the faces ----------------------------------------------------------------------------------------
def test_stick_breaking_is_the_default_of_the_builder_the_estimator_the_model_and_the_run():
    X, y = load_wine(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    rng = np.random.default_rng(0)
    named = methods.build("xgpc", X, y, X[::10], RBF(3.0), batch_size=50, rng=rng, multiclass_family="stick-breaking")
    default = methods.build("xgpc", X, y, X[::10], RBF(3.0), batch_size=50, rng=rng)
    for engine in (named, default):
        assert isinstance(engine.link, StickBreaking) and engine.n_classes == 3 and engine.family == "stick-breaking"
    assert settings.DEFAULTS["multiclass_family"] == "stick-breaking"
    fast = dict(n_inducing=10, batch_size=50, max_iter=30, early_stopping=False, random_state=0)
    clf = XGPClassifier(**fast).fit(X, ["abc"[k] for k in y])
    P = clf.predict_proba(X)
    assert isinstance(clf.engine_.link, StickBreaking) and P.shape == (len(y), 3)
    assert clf.engine_.link.order == (0, 1, 2)  # the classes on the stick in the order of classes_
    assert np.allclose(P.sum(axis=1), 1.0, rtol=0.0, atol=1e-14)
    assert np.mean(clf.predict(X) == np.array(list("abc"))[y]) > 0.8
    model = Model(dataset="moons", n_inducing=10, batch_size=50)
    model.set_data(X, y, "wine")
    assert isinstance(model.engine.link, StickBreaking)
    model.step(20)
    assert model.surface(resolution=5)["p"].shape == (5, 5)
    run = Run({"n_inducing": 10, "batch_size": 50, "seed": 0}, X[::2], y[::2], X[1::2], y[1::2])
    assert isinstance(run.engine.link, StickBreaking)


@pytest.mark.parametrize("patience", [0, 3])
def test_the_kernel_brake_stops_the_kernel_once_the_holdout_nll_stops_improving(patience):
    """A Trainer whose hold-out labels are the training labels shifted by one class: the better the fit, the worse
    the hold-out NLL, so no evaluation after the first improves on it. With the brake (patience 3) the kernel's
    Adam rate halves every 3 evaluations and the kernel comes to rest (over the last 200 iterations its
    log-parameters move by less than 1e-4 in all, against more than 0.05 without the brake, patience 0); the
    q(u_j) steps go on (the posterior mean keeps moving)."""
    rng = np.random.default_rng(3)
    X, y = blobs(3, 30, rng)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::6],
        RBF(1.0),
        likelihood=StickBreaking(3),
        batch_size=30,
        rng=rng,
        hyper_optimizer=Adam(0.1),
        hyper_every=1,
        kernel_patience=patience,
    )
    trainer = Trainer(engine, X, (y + 1) % 3, eval_every=5, convergence="none")
    trainer.run(max_iter=400)
    nll = trainer.history.column("test_nll")
    assert np.all(nll[1:] >= nll[0])  # the premise: no evaluation beats the first
    rows = list(trainer.history.rows)
    kernel = np.log([[row["lengthscale"], row["variance"]] for row in rows])
    at_300 = [row["iteration"] for row in rows].index(300)
    travel = np.sum(np.abs(np.diff(kernel[at_300:], axis=0)))
    mean_before = engine.mu.copy()
    trainer.run(max_iter=420)
    assert np.max(np.abs(engine.mu - mean_before)) > 1e-3  # q(u) still learns
    if patience:
        assert travel < 1e-4
        restored = MultiLatentXGPC(
            X, y, X[::6], RBF(1.0), likelihood=StickBreaking(3), hyper_optimizer=Adam(0.1), kernel_patience=patience
        )
        restored.load_state_dict(engine.state_dict())  # the brake travels with the state
        assert restored.kernel_rate_scale == engine.kernel_rate_scale < 2.0**-20
        assert restored.kernel_brake.state_dict() == engine.kernel_brake.state_dict()
    else:
        assert travel > 0.05


def test_the_kernel_brake_and_rate_are_settings_that_reach_the_stick_breaking_engine_and_refuse_bad_values():
    """By default a stick-breaking run's kernel steps at Adam rate 0.1 with the brake at patience 10, every other
    X-GPC at 0.01 without one; the settings change both, and a bad patience is refused by name."""
    rng = np.random.default_rng(0)
    X, y = blobs(3, 10, rng)
    default = Run({"method": "xgpc", "seed": 0}, X, y, X, y).engine
    assert (default.hyper_optimizer.learning_rate, default.kernel_brake.n_iter_no_change) == (0.1, 10)
    chosen = Run({"kernel_patience": 7, "hyper_learning_rate": 0.02, "seed": 0}, X, y, X, y).engine
    assert (chosen.hyper_optimizer.learning_rate, chosen.kernel_brake.n_iter_no_change) == (0.02, 7)
    assert Run({"kernel_patience": 0, "seed": 0}, X, y, X, y).engine.kernel_brake is None
    joint = Run({"multiclass_family": "joint", "seed": 0}, X, y, X, y).engine
    binary = Run({"seed": 0}, X[y < 2], y[y < 2], X[y < 2], y[y < 2]).engine
    assert joint.hyper_optimizer.learning_rate == binary.hyper_optimizer.learning_rate == 0.01
    with pytest.raises(ValueError, match="kernel_patience"):
        MultiLatentXGPC(X, y, X[::3], RBF(1.0), likelihood=StickBreaking(3), kernel_patience=-1)
    with pytest.raises(ValueError, match="kernel_patience must be a whole number at least 0, got -1"):
        Run({"kernel_patience": -1, "seed": 0}, X, y, X, y)
