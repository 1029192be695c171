"""Multi-class X-GPC (the augmented logistic-softmax, `explorer.xgpc_multiclass`) against independent truth: the
augmentation identities by numerical integration, the (paper's factorised) bound against brute-force quadrature, for
each family of q(λ, n) coordinate ascent's monotonicity, the natural-gradient fixed point as a stationary point, the
kernel gradient by finite differences and the ELBO below the log marginal, the predictive against a tensor-product
quadrature, and the K = 2 relation to the logit. The joint family's own tests: `test_multiclass_joint.py`."""

import math

import numpy as np
import pytest
from polyagamma import polyagamma_pdf
from scipy import integrate, stats
from scipy.special import expit

from explorer import methods
from explorer.data import datasets
from explorer.hyperparameters import Adam
from explorer.kernels import RBF
from explorer.likelihoods import LOGIT, LogisticSoftmax, logistic_softmax, logistic_softmax_log_likelihood
from explorer.schedules import Constant
from explorer.xgpc import XGPC, MultiLatentXGPC
from explorer.xgpc_multiclass import (
    FAMILIES,
    AugmentedLogisticSoftmax,
    augmented_likelihood_terms,
    local_step,
    one_hot,
    solve_alpha,
)

K3 = 3


def three_blobs(n_per_class=15, seed=0, spread=0.6):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    X = np.concatenate([rng.normal(c, spread, (n_per_class, 2)) for c in centres])
    return X, np.repeat(np.arange(3), n_per_class)


def gauss_hermite_grid(mean, var, nodes=30):
    """Tensor-product Gauss–Hermite nodes F (nodes^K, K) and weights (nodes^K,) of Π_k N(mean_k, var_k)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    axes = [mean[k] + np.sqrt(2.0 * var[k]) * x for k in range(len(mean))]
    F = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(mean))
    W = np.ones(1)
    for _ in mean:
        W = np.outer(W, w / np.sqrt(np.pi)).ravel()
    return F, W


# ----- the augmentation ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("f", [[0.3, -1.2, 2.0], [-4.0, -5.0, -3.0], [6.0, 0.0, -6.0]])
def test_integrating_out_lambda_and_the_poisson_counts_gives_the_logistic_softmax(f):
    f = np.array(f)
    sigma = expit(f)
    for y in range(K3):
        # Σ_n Π_k Po(n_k | λ) σ(−f_k)^{n_k} = exp(−λ Σ_k σ(f_k)); then ∫₀^∞ σ(f_y) e^{−λΣσ} dλ = p(y | f)
        def integrand(lam, y=y):
            counts = np.arange(int(lam + 20.0 * math.sqrt(lam) + 100))  # all but a negligible tail
            poisson = [np.sum(stats.poisson.pmf(counts, lam) * expit(-fk) ** counts) for fk in f]
            return sigma[y] * np.prod(poisson)

        value, _ = integrate.quad(integrand, 0.0, np.inf, limit=500, epsabs=1e-12, epsrel=1e-9)
        assert value == pytest.approx(logistic_softmax(f)[y], rel=1e-7)


@pytest.mark.parametrize("b, f", [(1, 0.7), (3, -2.0), (5, 4.0)])
def test_the_polya_gamma_identity_turns_powers_of_sigmoids_into_a_gaussian_in_f(b, f):
    # σ(f)^Y σ(−f)^n = 2^{−b} e^{(Y−n)f/2} ∫ e^{−ωf²/2} PG(ω | b, 0) dω with b = Y + n; here Y = 1, n = b − 1
    n = b - 1
    value, _ = integrate.quad(lambda w: np.exp(-0.5 * w * f * f) * polyagamma_pdf(w, h=b), 0.0, np.inf, limit=400)
    assert 2.0**-b * np.exp(0.5 * (1 - n) * f) * value == pytest.approx(expit(f) * expit(-f) ** n, rel=1e-6)


def test_alpha_solves_its_fixed_point_with_the_gammas():
    w = np.array([1e-6, 0.2, 0.5, 0.9, 0.999])
    alpha = solve_alpha(w)
    from scipy.special import digamma

    assert np.allclose(alpha, 1.0 + w * np.exp(digamma(alpha)), rtol=1e-10)


# ----- the bound ------------------------------------------------------------------------------------------------------
def test_the_factorised_per_point_bound_is_below_the_expected_log_likelihood_and_its_locals_are_optimal():
    rng = np.random.default_rng(3)
    for _ in range(6):
        a = rng.normal(0.0, 2.0, (1, K3))
        v = rng.uniform(0.05, 3.0, (1, K3))
        y = rng.integers(K3, size=1)
        Y = one_hot(y, K3)
        c, gamma, alpha, _ = local_step(a, v)
        bound = augmented_likelihood_terms(Y, a, v, c, gamma, alpha)[0]
        F, W = gauss_hermite_grid(a[0], v[0])
        expected = W @ logistic_softmax_log_likelihood(np.full(len(F), y[0]), F)
        assert bound <= expected + 1e-10
        for _ in range(20):  # moving any local parameter away from the closed form lowers the bound
            scale = np.exp(rng.normal(0.0, 0.3, size=2 * K3 + 1))
            moved = augmented_likelihood_terms(Y, a, v, c * scale[:K3], gamma * scale[K3 : 2 * K3], alpha * scale[-1:])[
                0
            ]
            assert moved <= bound + 1e-12


@pytest.mark.parametrize("family", FAMILIES)
def test_the_elbo_is_below_the_exact_log_marginal_on_a_tiny_problem(family):
    X = np.array([[0.0], [0.8]])
    y = np.array([2, 0])
    kernel = RBF(1.0, variance=1.5)
    engine = MultiLatentXGPC(
        X,
        y,
        None,
        kernel,
        likelihood=AugmentedLogisticSoftmax(K3, family=family),
        full=True,
        batch_size=2,
        schedule=Constant(1.0),
    )
    at_the_prior = engine.elbo()
    for _ in range(30):
        engine.step()
    # log p(y) = log ∫ Π_i p(y_i | f_i) Π_k N(f_k | 0, K_xx) df, f (2 points × 3 classes): 6-D Gauss–Hermite
    L = np.linalg.cholesky(kernel.gram(X))
    F, W = gauss_hermite_grid(np.zeros(6), np.ones(6), nodes=12)
    f = np.einsum("ij,gkj->gki", L, F.reshape(-1, K3, 2))  # (grid, class, point)
    likelihood = np.exp(sum(logistic_softmax_log_likelihood(np.full(len(F), y[i]), f[:, :, i]) for i in range(2)))
    log_marginal = math.log(W @ likelihood)
    assert at_the_prior < engine.elbo() <= log_marginal


@pytest.mark.parametrize("family", FAMILIES)
def test_full_batch_coordinate_ascent_never_lowers_the_elbo(family):
    X, y = three_blobs()
    engine = MultiLatentXGPC(
        X,
        y,
        None,
        RBF(1.0),
        likelihood=AugmentedLogisticSoftmax(3, family=family),
        full=True,
        batch_size=len(y),
        schedule=Constant(1.0),
    )
    bounds = [engine.elbo()]
    for _ in range(15):
        engine.step()
        bounds.append(engine.elbo())
    assert all(b1 <= b2 + 1e-8 * abs(b2) for b1, b2 in zip(bounds, bounds[1:]))
    assert bounds[-1] > bounds[0] + 10.0


@pytest.mark.parametrize("family", FAMILIES)
def test_the_natural_gradient_fixed_point_is_a_stationary_point_of_the_elbo(family):
    X, y = three_blobs(n_per_class=8)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::3],
        RBF(1.0),
        likelihood=AugmentedLogisticSoftmax(3, family=family),
        batch_size=len(y),
        schedule=Constant(1.0),
    )
    for _ in range(200):
        engine.step()
    target = engine.minibatch_targets(np.arange(len(y)))
    assert np.linalg.norm(target - engine._eta) < 1e-6 * np.linalg.norm(engine._eta)
    # the ELBO's derivative along a change of the means μ_k vanishes there (finite differences, locals re-optimised)
    rng = np.random.default_rng(0)
    eta = engine._eta.copy()
    direction = np.zeros_like(eta)
    m = engine.m
    for k in range(K3):
        block = slice(k * (m + m * m), k * (m + m * m) + m)
        direction[block] = rng.standard_normal(m)
    h = 1e-4
    values = []
    for sign in (1.0, -1.0):
        engine._set_posterior(eta + sign * h * direction)
        values.append(engine.elbo())
    engine._set_posterior(eta.copy())
    assert abs(values[0] - values[1]) / (2 * h) < 1e-4 * np.linalg.norm(direction)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_kernel_gradient_matches_finite_differences(family):
    X, y = three_blobs(n_per_class=10, seed=4)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::4],
        RBF(0.8, variance=1.3),
        likelihood=AugmentedLogisticSoftmax(3, family=family),
        batch_size=12,
        rng=np.random.default_rng(1),
        kernel_prior=0,  # the bound alone (with its prior: test_multiclass_kernel.py)
    )
    engine.step(5)
    index = np.arange(0, 30, 2)
    gradient = engine.kernel_gradient(index)
    kernel = engine.kernel
    h = 1e-5
    for j in range(len(kernel.log_params)):
        values = []
        for sign in (1.0, -1.0):
            shifted = kernel.log_params.copy()
            shifted[j] += sign * h
            engine._set_kernel(kernel.with_log_params(shifted))
            values.append(engine.elbo(index))
        engine._set_kernel(kernel)
        assert gradient[j] == pytest.approx((values[0] - values[1]) / (2 * h), rel=1e-4, abs=1e-5)


# ----- prediction -----------------------------------------------------------------------------------------------------
def test_the_predictive_is_within_2e_3_of_a_tensor_quadrature():
    rng = np.random.default_rng(5)
    mean = rng.normal(0.0, 2.0, (12, K3))
    var = rng.uniform(0.01, 6.0, (12, K3))
    P = LogisticSoftmax(K3).predictive(mean, var)
    for i in range(len(mean)):
        F, W = gauss_hermite_grid(mean[i], var[i], nodes=40)
        exact = W @ logistic_softmax(F)
        assert np.max(np.abs(P[i] - exact)) < 2e-3
    assert np.allclose(P.sum(axis=1), 1.0)


def test_a_trained_engine_separates_three_blobs_and_keeps_its_state():
    X, y = three_blobs(n_per_class=30, seed=2)
    options = dict(hyper_learning_rate=0.05, multiclass_family="joint")  # the logistic-softmax (not the default)
    engine = methods.build("xgpc", X, y, X[::6], RBF(1.0), batch_size=30, rng=np.random.default_rng(0), **options)
    assert isinstance(engine.link, AugmentedLogisticSoftmax) and engine.n_classes == 3
    engine.step(150)
    assert np.mean(engine.predict_proba(X).argmax(axis=1) == y) > 0.95
    state = engine.state_dict()
    follower = methods.build("xgpc", X, y, X[::6], RBF(1.0), batch_size=30, rng=np.random.default_rng(9), **options)
    follower.load_state_dict(state)
    engine.step(5)
    follower.step(5)
    assert np.array_equal(engine._eta, follower._eta) and engine.kernel.log_params.tolist() == (
        follower.kernel.log_params.tolist()
    )


# ----- K = 2 -----------------------------------------------------------------------------------------------------------
def test_with_two_classes_it_is_a_logit_model_on_another_latent_and_not_the_papers():
    rng = np.random.default_rng(6)
    f = rng.normal(0.0, 3.0, (50, 2))
    p = logistic_softmax(f)[:, 1]
    g = np.log(expit(f[:, 1])) - np.log(expit(f[:, 0]))
    assert np.allclose(p, expit(g))  # σ(f₁)/(σ(f₀) + σ(f₁)) = σ(log σ(f₁) − log σ(f₀))
    assert np.all(p < 1.0 / (1.0 + expit(f[:, 0])))  # bounded confidence for a given f₀, unlike σ(f₁)
    X = rng.standard_normal((80, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    kwargs = dict(batch_size=80, schedule=Constant(1.0))
    two = MultiLatentXGPC(X, y, X[::4], RBF(1.0), likelihood=AugmentedLogisticSoftmax(2), **kwargs)
    logit = XGPC(X, y, X[::4], RBF(1.0), **kwargs)
    two.step(40)
    logit.step(40)
    P2, Pl = two.predict_proba(X), logit.predict_proba(X)
    assert np.mean(P2.argmax(axis=1) == y) >= 0.85 and np.mean(Pl.argmax(axis=1) == y) >= 0.85  # both classify
    assert np.max(np.abs(P2 - Pl)) > 0.05  # but they are different models


# ----- the engine takes any likelihood on the augmented protocol ---------------------------------------------------------
class OneLatentLogit:
    """Binary X-GPC's logit written here alone on the augmented-likelihood protocol (`explorer.likelihoods`): one
    latent function, labels ±1, the binary PG local step, the augmented bound at the optimal c, the logit predictive."""

    name, family, latent_name = "one-latent logit", "test", "latent function"
    n_classes, n_latent, kernel_prior, kernel_patience = 2, 1, 0, 0

    def equation_labels(self, y):
        return 2.0 * np.asarray(y) - 1.0

    def local_step(self, labels, a, v):
        c = np.sqrt(a * a + v)
        return c, np.repeat(labels[:, None], a.shape[1], axis=1), np.tanh(c / 2) / (2 * c)

    def kernel_pseudo_data(self, labels, a, v, kernel_bound):
        return self.local_step(labels, a, v)[1:]  # the augmented bound's

    def bound(self, labels, a, v):
        c = np.sqrt(a[:, 0] ** 2 + v[:, 0])
        return -math.log(2.0) + 0.5 * labels * a[:, 0] - np.log(np.cosh(c / 2))

    def predictive(self, mean, var):
        return LOGIT.predictive(mean[:, 0], var[:, 0])

    def state_dict(self):
        return {}

    def check_state(self, state):
        pass


def test_a_likelihood_written_in_a_test_alone_trains_as_binary_x_gpc_does():
    """A new K-class likelihood is one module: the multi-latent engine trains the binary logit written above (J = 1)
    to binary X-GPC's fit on the same minibatches, kernel learning on the augmented bound included."""
    X, y = datasets.load("moons", n=80, seed=3)
    keywords = dict(batch_size=20, hyper_every=1, kernel_bound="augmented")
    engines = [
        XGPC(X, y, X[::8], RBF(1.0), rng=np.random.default_rng(4), hyper_optimizer=Adam(0.05), **keywords),
        MultiLatentXGPC(
            X, y, X[::8], RBF(1.0), likelihood=OneLatentLogit(), rng=np.random.default_rng(4),
            hyper_optimizer=Adam(0.05), **keywords,
        ),
    ]  # fmt: skip
    for engine in engines:
        engine.step(30)
    binary, multi = engines
    np.testing.assert_allclose(multi.kernel.log_params, binary.kernel.log_params, rtol=1e-9)
    np.testing.assert_allclose(multi.mu[0], binary.mu, rtol=1e-8, atol=1e-10)
    assert multi.elbo() == pytest.approx(binary.elbo(), rel=1e-9)
    np.testing.assert_allclose(multi.predict_proba(X), binary.predict_proba(X), rtol=0, atol=1e-10)
    assert abs(binary.kernel.log_params - np.log([1.0, 1.0])).max() > 0.05  # the kernel did move
