"""The joint q(λ, n) family of multi-class X-GPC (`xgpc_multiclass.joint_local_step`, `joint_likelihood_terms`), the
default for K ≥ 3, against independent truth: its (λ, n) block against the exact optimum by brute-force sums over n
and quadrature over λ, its bound against the expected log likelihood by Gauss–Hermite quadrature and against the
exact log likelihood at zero variance, and the fitted model against the exact K-class Gibbs sampler; the paper's
factorised family against the same sampler (its latent means sit above the exact ones). The engine-level properties
shared by both families (monotone ascent, the fixed point a stationary point, the kernel gradient, the bound below the
log marginal) are `test_multiclass.py`'s, run for each family."""

import math

import numpy as np
import pytest
from scipy import integrate, stats
from sklearn.datasets import load_wine

from explorer import Model, XGPClassifier, diagnostics, methods
from explorer.gibbs_multiclass import MulticlassGibbsSampler
from explorer.kernels import RBF
from explorer.likelihoods import logistic_softmax, logistic_softmax_log_likelihood
from explorer.schedules import Constant
from explorer.training import fit_to_optimum
from explorer.xgpc import MultiLatentXGPC
from explorer.xgpc_multiclass import (
    AugmentedLogisticSoftmax,
    augmented_likelihood_terms,
    joint_bound,
    joint_likelihood_terms,
    joint_local_step,
    local_step,
    one_hot,
)

K3 = 3


def gauss_hermite_grid(mean, var, nodes=30):
    """Tensor-product Gauss–Hermite nodes F (nodes^K, K) and weights (nodes^K,) of Π_k N(mean_k, var_k)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    axes = [mean[k] + np.sqrt(2.0 * var[k]) * x for k in range(len(mean))]
    F = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(mean))
    W = np.ones(1)
    for _ in mean:
        W = np.outer(W, w / np.sqrt(np.pi)).ravel()
    return F, W


# ----- the (λ, n) block against its exact optimum ---------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_joint_block_is_the_exact_optimum_by_sums_over_n_and_quadrature_over_lambda(seed):
    # With q(ω_k | n_k) at its optimum PG(Y_k + n_k, c_k), the expected log joint of point i is, in (λ, n),
    # Σ_k [log Po(n_k | λ) + ½(Y_k − n_k)a_k − (Y_k + n_k) log 2cosh(c_k/2)] (flat prior on λ). Its normalised exp is
    # the optimal q(λ, n), and the log normaliser is the optimal bound. Brute force: sum n_k to 150, integrate λ.
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, 1.5, K3)
    v = rng.uniform(0.1, 2.0, K3)
    y = int(rng.integers(K3))
    Y = np.eye(K3)[y]
    c = np.sqrt(a * a + v)
    log_2cosh = np.logaddexp(0.5 * c, -0.5 * c)
    counts = np.arange(150)

    def class_factor(lam, k, power):  # Σ_n n^power Po(n | λ) e^{½(Y−n)a − (Y+n) log 2cosh(c/2)}
        weights = stats.poisson.pmf(counts, lam) * np.exp(0.5 * (Y[k] - counts) * a[k] - (Y[k] + counts) * log_2cosh[k])
        return np.sum(counts**power * weights)

    def moment(lam_power, count_power=0, k=0):
        def integrand(lam):
            factors = [class_factor(lam, j, count_power if j == k else 0) for j in range(K3)]
            return lam**lam_power * np.prod(factors)

        return integrate.quad(integrand, 0.0, np.inf, limit=400, epsabs=0.0, epsrel=1e-11)[0]

    Z = moment(0)
    c_closed, expected_n, rate, tanh_part = joint_local_step(a[None], v[None])
    assert np.allclose(c_closed[0], c)
    assert 1.0 / rate[0] == pytest.approx(moment(1) / Z, rel=1e-8)  # E[λ] of Exp(β)
    assert moment(2) / Z == pytest.approx(2.0 / rate[0] ** 2, rel=1e-8)  # E[λ²]: q(λ) is exponential
    for k in range(K3):
        assert expected_n[0, k] == pytest.approx(moment(0, 1, k) / Z, rel=1e-8)
    bound = joint_likelihood_terms(Y[None], a[None], v[None], c_closed, expected_n, rate)[0]
    assert bound == pytest.approx(math.log(Z), rel=1e-9, abs=1e-10)
    assert joint_bound(Y[None], a[None], v[None])[0] == pytest.approx(bound, abs=1e-12)  # its closed form


def test_moving_any_joint_local_parameter_lowers_the_bound():
    rng = np.random.default_rng(4)
    for _ in range(6):
        a = rng.normal(0.0, 2.0, (1, K3))
        v = rng.uniform(0.05, 3.0, (1, K3))
        Y = one_hot(rng.integers(K3, size=1), K3)
        c, expected_n, rate, _ = joint_local_step(a, v)
        bound = joint_likelihood_terms(Y, a, v, c, expected_n, rate)[0]
        for _ in range(30):
            scale = np.exp(rng.normal(0.0, 0.3, size=2 * K3 + 1))
            moved = joint_likelihood_terms(Y, a, v, c * scale[:K3], expected_n * scale[K3:-1], rate * scale[-1:])[0]
            assert moved <= bound + 1e-12


# ----- the bound against the likelihood -------------------------------------------------------------------------------
def test_the_joint_bound_is_below_the_expected_log_likelihood_and_above_the_factorised_one():
    rng = np.random.default_rng(3)
    for _ in range(8):
        a = rng.normal(0.0, 2.0, (1, K3))
        v = rng.uniform(0.05, 3.0, (1, K3))
        y = rng.integers(K3, size=1)
        Y = one_hot(y, K3)
        joint = joint_bound(Y, a, v)[0]
        factorised = augmented_likelihood_terms(Y, a, v, *local_step(a, v)[:3])[0]
        F, W = gauss_hermite_grid(a[0], v[0])
        expected = W @ logistic_softmax_log_likelihood(np.full(len(F), y[0]), F)
        # the joint family contains the factorised optimum's structure as a special case of q(λ, n)
        assert factorised <= joint + 1e-12 and joint <= expected + 1e-10


@pytest.mark.parametrize("scale", [0.5, 3.0, 12.0])
def test_the_joint_bound_is_the_exact_log_likelihood_at_zero_variance_where_the_factorised_one_is_not(scale):
    rng = np.random.default_rng(int(scale * 10))
    a = rng.normal(0.0, scale, (20, K3))
    v = np.zeros_like(a)
    y = rng.integers(K3, size=20)
    Y = one_hot(y, K3)
    exact = logistic_softmax_log_likelihood(y, a)
    joint = joint_bound(Y, a, v)
    factorised = augmented_likelihood_terms(Y, a, v, *local_step(a, v)[:3])
    assert np.allclose(joint, exact, rtol=0.0, atol=1e-9)
    assert np.max(exact - factorised) > 0.01


def test_the_joint_step_stays_finite_where_every_class_is_nearly_impossible():
    # all latent means far below 0: every r_k → 1 and β = K − Σ r_k → Σ σ(a_k), summed without cancellation
    a = np.array([[-30.0, -32.0, -35.0]])
    v = np.zeros_like(a)
    _, expected_n, rate, _ = joint_local_step(a, v)
    sigma_sum = np.sum(np.exp(a))  # σ(a) = e^a to 1e-13 relative here
    assert rate[0] == pytest.approx(sigma_sum, rel=1e-9, abs=0.0)
    assert np.all(np.isfinite(expected_n))
    bound = joint_bound(one_hot(np.array([0]), K3), a, v)[0]  # the engine's; the general form cancels here
    assert bound == pytest.approx(logistic_softmax_log_likelihood(np.array([0]), a)[0], rel=1e-9)


# ----- the fit against the exact sampler -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def blobs_and_sampler():
    # 42 training and 30 test points of three blobs, one fixed kernel, 4 chains × 1,000 draws of the exact sampler
    rng = np.random.default_rng(0)
    centres = ([-1.5, 0.0], [1.5, 0.0], [0.0, 1.8])
    X = np.concatenate([rng.normal(c, 0.7, (14, 2)) for c in centres])
    y = np.repeat([0, 1, 2], 14)
    Xs = np.concatenate([rng.normal(c, 0.7, (10, 2)) for c in centres])
    kernel = RBF(1.0, 2.0, 1e-4)
    sampler = MulticlassGibbsSampler(X, y, kernel, K3, rng=np.random.default_rng(1), burn_in=200, n_samples=1_000)
    sampler.run(chunk=500)
    assert sampler.diagnostics()["rhat_max/f"] < 1.01
    # Monte Carlo standard error of the sampler's predictive: per stored draw f_s, p_s = the mean of softmax-of-sigmoids
    # over 16 draws of f* | f_s ~ N(K_*n K⁻¹ f_s, k** − K_*n K⁻¹ K_n*) (the sampler's estimator has this form); the
    # error of their mean is sd_s(p_s)/√ESS(p_s)
    draws = sampler.draws  # (chains, S, n, K)
    K_ns = kernel.cross(X, Xs)
    A = np.linalg.solve(kernel.gram(X), K_ns)  # (n, n*)
    sd = np.sqrt(kernel.diag(len(Xs)) - np.einsum("ij,ij->j", A, K_ns))
    means = np.einsum("csnk,nt->cstk", draws, A)  # (chains, S, n*, K)
    noise = np.random.default_rng(2).standard_normal((*means.shape[:2], 16, 1, K3))
    p = logistic_softmax(means[:, :, None] + sd[:, None] * noise).mean(axis=2)  # (chains, S, n*, K)
    se = p.reshape(-1, len(Xs), K3).std(axis=0, ddof=1) / np.sqrt(diagnostics.ess_mean(p))
    return X, y, Xs, kernel, sampler, se


def fitted(family, X, y, kernel):
    engine = MultiLatentXGPC(
        X,
        y,
        None,
        kernel,
        likelihood=AugmentedLogisticSoftmax(3, family=family),
        full=True,
        batch_size=len(y),
        schedule=Constant(1.0),
    )
    assert fit_to_optimum(engine, max_sweeps=2_000).converged
    return engine


def test_the_joint_fixed_point_predicts_as_the_exact_sampler_within_monte_carlo_error(blobs_and_sampler):
    # Tolerance per probability: 4 Monte Carlo standard errors plus 2e-3, the accuracy of the predictive's own
    # quadrature (`LogisticSoftmax.predictive`, tested to 2e-3). Measured (seed 0): the joint family's largest
    # |ΔP| is 0.6 of it (max |ΔP| 0.008, SE ≈ 0.003); the factorised family's is 10× it (max |ΔP| 0.14).
    X, y, Xs, kernel, sampler, se = blobs_and_sampler
    P_mc = sampler.predict_proba(Xs)
    tolerance = 4.0 * se + 2e-3
    joint = fitted("joint", X, y, kernel).predict_proba(Xs)
    factorised = fitted("factorised", X, y, kernel).predict_proba(Xs)
    assert np.all(np.abs(joint - P_mc) <= tolerance)
    assert np.max(np.abs(factorised - P_mc) / tolerance) > 3.0  # the same tolerance would refuse the paper's family


def test_the_factorised_latent_means_sit_above_the_samplers_in_every_class(blobs_and_sampler):
    # The factorised q(n) uses the geometric mean e^{ψ(α)}/β of λ, too few counts, so every latent mean floats up
    # (measured: by 0.17–1.36, mean 0.81, ≥ 8 Monte Carlo standard errors at every test point); the joint family's
    # shift is a sixth of it (mean 0.13).
    X, y, Xs, kernel, sampler, _ = blobs_and_sampler
    m_mc, _ = sampler.predict_latent(Xs)
    se = sampler.mean_standard_error(Xs)
    m_factorised, _ = fitted("factorised", X, y, kernel).predict_latent(Xs)
    m_joint, _ = fitted("joint", X, y, kernel).predict_latent(Xs)
    assert np.all(m_factorised - m_mc > 4.0 * se)
    assert np.mean(m_joint - m_mc) < 0.25 * np.mean(m_factorised - m_mc)


# ----- the option in the faces ----------------------------------------------------------------------------------------
def test_both_logistic_softmax_families_are_named_options_of_the_builder_the_estimator_and_the_model():
    # (the default K ≥ 3 family is stick-breaking: tests/test_multiclass_stickbreaking.py)
    X, y = load_wine(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    rng = np.random.default_rng(0)
    joint = methods.build("xgpc", X, y, X[::10], RBF(3.0), batch_size=50, rng=rng, multiclass_family="joint")
    paper = methods.build("xgpc", X, y, X[::10], RBF(3.0), batch_size=50, rng=rng, multiclass_family="factorised")
    assert (joint.family, paper.family) == ("joint", "factorised")
    assert isinstance(joint.link, AugmentedLogisticSoftmax) and isinstance(paper.link, AugmentedLogisticSoftmax)
    fast = dict(n_inducing=10, batch_size=50, max_iter=30, early_stopping=False, random_state=0)
    assert XGPClassifier(options={"multiclass_family": "joint"}, **fast).fit(X, y).engine_.family == "joint"
    assert XGPClassifier(options={"multiclass_family": "factorised"}, **fast).fit(X, y).engine_.family == "factorised"
    model = Model(dataset="moons", n_inducing=10, batch_size=50, multiclass_family="factorised")
    model.set_data(X, y, "wine")
    assert model.engine.family == "factorised"
    with pytest.raises(ValueError, match="multiclass_family"):
        XGPClassifier(options={"multiclass_family": "mean-field"}, **fast).fit(X, y)
    with pytest.raises(ValueError, match="unknown multi-class family 'mean-field'; choose one of joint, factorised"):
        MultiLatentXGPC(X, y, X[::10], RBF(3.0), likelihood=AugmentedLogisticSoftmax(3, family="mean-field"))
