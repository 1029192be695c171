"""Multi-class X-GPC kernel learning that settles (issue 29.3): the kernel step ascends the augmented bound plus a weak
log-normal prior on the kernel's log-parameters (`hyperparameters.LogNormalKernelPrior`). Checked against independent
truth: the prior's density against scipy's normal, the objective's gradient against finite differences, the settled
kernel a stationary point of the objective by finite differences, and σ², ℓ bounded where the bound alone lets them
drift."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_wine
from test_multiclass import three_blobs

from explorer import XGPClassifier, methods
from explorer.hyperparameters import Adam, LogNormalKernelPrior
from explorer.kernels import RBF
from explorer.schedules import Constant
from explorer.xgpc import MultiLatentXGPC
from explorer.xgpc_multiclass import DEFAULT_KERNEL_PRIOR, FAMILIES, AugmentedLogisticSoftmax


def finite_difference(objective, engine, h=1e-5):
    """Central differences of objective() in the engine's kernel log-parameters (the kernel restored after)."""
    kernel = engine.kernel
    gradient = np.empty(len(kernel.log_params))
    for j in range(len(gradient)):
        values = []
        for sign in (1.0, -1.0):
            shifted = kernel.log_params.copy()
            shifted[j] += sign * h
            engine._set_kernel(kernel.with_log_params(shifted))
            values.append(objective())
        gradient[j] = (values[0] - values[1]) / (2 * h)
    engine._set_kernel(kernel)
    return gradient


def test_the_prior_is_an_independent_normal_on_every_log_parameter():
    centre, theta = np.array([0.3, -1.0, 0.5]), np.array([1.1, 0.2, -2.0])
    prior = LogNormalKernelPrior(centre, 1.7)
    assert prior.log_density(theta) == pytest.approx(stats.norm(centre, 1.7).logpdf(theta).sum(), rel=1e-12)
    h = 1e-6
    numeric = [
        (prior.log_density(theta + h * e) - prior.log_density(theta - h * e)) / (2 * h) for e in np.eye(len(theta))
    ]
    np.testing.assert_allclose(prior.gradient(theta), numeric, rtol=1e-7)
    with pytest.raises(ValueError, match="scale"):
        LogNormalKernelPrior(centre, 0.0)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("lengthscale", [0.8, np.array([0.6, 1.4])])
def test_the_kernel_steps_gradient_is_that_of_the_bound_plus_the_log_prior(family, lengthscale):
    X, y = three_blobs(n_per_class=10, seed=4)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::4],
        RBF(lengthscale, variance=1.3),
        likelihood=AugmentedLogisticSoftmax(3, family=family),
        batch_size=12,
        rng=np.random.default_rng(1),
        kernel_prior=0.9,
    )
    engine.step(5)
    engine._set_kernel(engine.kernel.with_log_params(engine.kernel.log_params + 0.7))  # away from the prior's centre
    index = np.arange(0, 30, 2)
    gradient = engine.kernel_gradient(index)
    numeric = finite_difference(lambda: engine.kernel_objective(index), engine)
    np.testing.assert_allclose(gradient, numeric, rtol=1e-4, atol=1e-5)
    without = finite_difference(lambda: engine.elbo(index), engine)
    assert np.all(np.abs(gradient - without) > 0.5)  # the prior's share is there, and not small


def settle(kernel_prior, iterations):
    """Full-batch coordinate ascent (ρ = 1) on three blobs with a kernel step (Adam 0.1) every iteration."""
    X, y = three_blobs(n_per_class=10, seed=0)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::3],
        RBF(1.0),
        likelihood=AugmentedLogisticSoftmax(3),
        batch_size=len(y),
        schedule=Constant(1.0),
        hyper_optimizer=Adam(0.1),
        hyper_every=1,
        kernel_prior=kernel_prior,
    )
    engine.step(iterations)
    return engine


def test_the_settled_kernel_is_a_stationary_point_of_the_bound_plus_the_log_prior():
    engine = settle(math.sqrt(3.0), 1500)
    first = settle(math.sqrt(3.0), 1)
    start = finite_difference(first.kernel_objective, first)
    at_end = finite_difference(engine.kernel_objective, engine)
    assert np.linalg.norm(at_end) < 1e-4 * np.linalg.norm(start)
    # and q is at its fixed point for that kernel: the natural-gradient targets equal η
    target = engine.minibatch_targets(np.arange(engine.n))
    assert np.linalg.norm(target - engine._eta) < 1e-6 * np.linalg.norm(engine._eta)
    # the bound alone is not stationary there: the prior holds the kernel where the bound still pulls
    assert np.linalg.norm(finite_difference(engine.elbo, engine)) > 100 * np.linalg.norm(at_end)


def test_the_prior_is_an_option_of_the_builder_and_the_estimator_and_binary_x_gpc_has_none():
    X, y = load_wine(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    rng = np.random.default_rng(0)
    kernel = RBF(3.0, variance=2.0)
    joint = {"multiclass_family": "joint"}  # the logistic-softmax's prior (the default family is stick-breaking)
    default = methods.build("xgpc", X, y, X[::10], kernel, batch_size=50, rng=rng, **joint)
    assert default.kernel_prior.scale == DEFAULT_KERNEL_PRIOR == 1.0
    np.testing.assert_allclose(default.kernel_prior.centre, np.log([3.0, 2.0]))
    off = methods.build("xgpc", X, y, X[::10], kernel, batch_size=50, rng=rng, multiclass_kernel_prior=0.0, **joint)
    assert off.kernel_prior is None
    fast = dict(n_inducing=10, batch_size=50, max_iter=20, early_stopping=False, random_state=0)
    half = XGPClassifier(options={"multiclass_kernel_prior": 0.5, **joint}, **fast).fit(X, y)
    assert half.engine_.kernel_prior.scale == 0.5
    assert (
        XGPClassifier(options={"multiclass_kernel_prior": 0.0, **joint}, **fast).fit(X, y).engine_.kernel_prior is None
    )
    with pytest.raises(ValueError, match=r"options\[.multiclass_kernel_prior.\]: multiclass_kernel_prior must be"):
        XGPClassifier(options={"multiclass_kernel_prior": -1.0}, **fast).fit(X, y)
    binary = methods.build("xgpc", X[y < 2], y[y < 2], X[::10], kernel, batch_size=50, rng=rng)
    assert not hasattr(binary, "kernel_prior")


def test_a_saved_state_keeps_the_priors_centre():
    X, y = three_blobs(n_per_class=10, seed=2)

    def build(lengthscale, seed):
        return MultiLatentXGPC(
            X,
            y,
            X[::3],
            RBF(lengthscale),
            likelihood=AugmentedLogisticSoftmax(3),
            batch_size=10,
            hyper_optimizer=Adam(0.1),
            hyper_every=1,
            rng=np.random.default_rng(seed),
        )

    engine = build(1.5, 0)
    engine.step(20)
    state = engine.state_dict()
    resumed = build(0.4, 5)  # another start: its prior would sit elsewhere
    resumed.load_state_dict(state)
    engine.step(10)
    resumed.step(10)
    np.testing.assert_array_equal(resumed.kernel.log_params, engine.kernel.log_params)


def sectors(n=300, margin=0.2, seed=0):
    """n points of N(0, I₂) labelled by the largest of three linear functions at 120° (a linear softmax's labels),
    kept only where the top two differ by more than `margin`: separable with a margin, where confidence keeps paying."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20 * n, 2))
    W = np.array([[math.cos(a), math.sin(a)] for a in (0.0, 2 * math.pi / 3, 4 * math.pi / 3)])
    top = np.sort(X @ W.T, axis=1)
    X = X[top[:, -1] - top[:, -2] > margin][:n]
    return X, np.argmax(X @ W.T, axis=1)


def test_where_the_bound_alone_drifts_the_kernel_settles():
    """The bound alone takes σ² from 1 to ≈ 8·10³ here (ℓ ≈ 20) by 1,000 steps and then wanders with the bound; with
    the default prior the kernel settles near σ² ≈ 68, ℓ ≈ 3.5 (with sd √3 near σ² ≈ 280, ℓ ≈ 5.5)."""
    X, y = sectors()
    engine = MultiLatentXGPC(
        X,
        y,
        X[::15],
        RBF(1.0),
        likelihood=AugmentedLogisticSoftmax(3),
        batch_size=len(y),
        schedule=Constant(1.0),
        hyper_optimizer=Adam(0.1),
        hyper_every=1,
        kernel_prior=DEFAULT_KERNEL_PRIOR,
    )
    engine.step(1250)
    before = engine.kernel.log_params
    engine.step(250)
    after = engine.kernel.log_params
    assert np.all(np.exp(after) < [10.0, 1e3])  # ℓ, σ²: the bound alone ends above both
    assert np.all(np.abs(after - before) < 5e-3)  # settled: < 0.5% over the last 250 steps
