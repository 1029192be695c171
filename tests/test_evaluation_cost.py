"""What early stopping's evaluations and an iteration cost a multi-class fit (issue 29, item 4): the predictive
(`LogisticSoftmax.predictive`, early stopping's and the user's) is computed in the linear domain, equal to the
log-domain quasi-Monte Carlo average to rounding, including where every σ(f_j) underflows; the Trainer counts its
evaluations and reports their share of the time from its own timing record, and the kernel gradient contracted once over the summed adjoints is
the sum of the K per-class gradients of `hyperparameters.elbo_kernel_gradient`."""

import mpmath
import numpy as np
import pytest
from scipy import integrate
from scipy.linalg import lapack
from scipy.special import expit, log_expit, logsumexp

from explorer.bench import multiclass
from explorer.estimator import XGPClassifier
from explorer.hyperparameters import elbo_kernel_gradient
from explorer.kernels import RBF
from explorer.likelihoods import (
    FEW_NODES_MAX_VARIANCE,
    LogisticSoftmax,
    gauss_hermite_expectations,
    logit_log_likelihood,
    logit_predictive_probability,
    logit_pseudo_data,
)
from explorer.linalg import NumericalError, cholesky_over, lower_triangular_solve, robust_cholesky
from explorer.polyagamma import pg_mean
from explorer.schedules import Constant
from explorer.targets import natural_gradient_targets, pseudo_data
from explorer.xgpc import MultiLatentXGPC
from explorer.xgpc_multiclass import AugmentedLogisticSoftmax
from explorer.xgpc_stickbreaking import (
    StickBreaking,
    logit_predictive_pair,
    stick_labels,
    stick_probabilities,
)


def blobs(K, n_per_class=20, seed=0):
    rng = np.random.default_rng(seed)
    centres = 3.0 * np.column_stack([np.cos(2 * np.pi * np.arange(K) / K), np.sin(2 * np.pi * np.arange(K) / K)])
    X = np.concatenate([rng.normal(c, 0.8, (n_per_class, 2)) for c in centres])
    return X, np.repeat(np.arange(K), n_per_class)


@pytest.mark.parametrize("link", [LogisticSoftmax(3), LogisticSoftmax(5), LogisticSoftmax(10)], ids=str)
def test_the_predictive_is_the_log_domain_average_to_rounding(link):
    rng = np.random.default_rng(link.n_classes)
    mean = rng.normal(0.0, 4.0, (40, link.n_classes))
    var = rng.uniform(0.0, 20.0, (40, link.n_classes))
    eps = link.standard_normal_points()  # (samples, K)
    F = mean[:, None, :] + np.sqrt(var)[:, None, :] * eps
    log_sigma = log_expit(F)  # log σ(f_k) − log Σ_j σ(f_j), the form that cannot underflow
    brute = np.exp(log_sigma - logsumexp(log_sigma, axis=-1, keepdims=True)).mean(axis=1)
    assert np.max(np.abs(link.predictive(mean, var) - brute)) <= 1e-13


def test_the_predictive_falls_back_to_the_log_domain_where_every_sigmoid_underflows():
    link = LogisticSoftmax(3)
    mean = np.array([[-800.0, -801.0, -805.0], [0.5, -0.2, 1.0]])  # σ(−800) underflows to 0 in double precision
    var = np.array([[0.1, 0.1, 0.1], [1.0, 2.0, 0.5]])
    P = link.predictive(mean, var)
    assert np.all(np.isfinite(P))
    np.testing.assert_allclose(P, link.quadrature_average(mean, var), atol=1e-13)
    # at these means σ(f) ≈ e^{f}, so p ∝ e^{f_k}: softmax of (0, −1, −5) to within the variance's effect
    np.testing.assert_allclose(P[0], np.exp([0.0, -1.0, -5.0]) / np.exp([0.0, -1.0, -5.0]).sum(), atol=0.02)


def test_the_engine_predictive_is_the_log_domain_average_at_the_solved_marginals():
    X, y = blobs(4)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::8],
        RBF(1.0),
        likelihood=AugmentedLogisticSoftmax(4),
        batch_size=40,
        schedule=Constant(0.5),
        rng=np.random.default_rng(0),
    )
    engine.step(20)
    kappa, K_tilde, _ = engine.project(X, None)
    a, v = engine.marginals(kappa, K_tilde)  # K triangular solves, the training step's path
    np.testing.assert_allclose(engine.predict_proba(X), engine.link.quadrature_average(a, v), atol=1e-13, rtol=0)


def test_a_fit_reports_its_evaluations_and_their_share_from_its_own_timing_record():
    X, y = blobs(3, n_per_class=200)  # 600 rows: early stopping on (≥ 500)
    model = XGPClassifier(n_inducing=20, max_iter=300, random_state=0).fit(X, y)
    trainer = model.trainer_
    # every 50 iterations from 0 to the last: one evaluation per history row
    assert trainer.evaluations == len(model.history_) == model.n_iter_ // 50 + 1
    assert [row["iteration"] for row in model.history_] == list(range(0, model.n_iter_ + 1, 50))
    assert trainer.eval_seconds > 0 and trainer.seconds > 0
    assert trainer.evaluation_share == pytest.approx(trainer.eval_seconds / (trainer.eval_seconds + trainer.seconds))
    assert 0 < trainer.evaluation_share < 1


def per_class_kernel_gradient(engine, X_b, y_b):
    """The kernel gradient as the sum of the K binary-form gradients, each contracted on its own
    (`hyperparameters.elbo_kernel_gradient` per class: the path before the adjoints were summed)."""
    kappa, K_tilde, K_sm = engine.project(X_b, None)
    a, v = engine.marginals(kappa, K_tilde)
    _, labels, theta = engine.link.local_step(y_b, a, v)
    return sum(
        elbo_kernel_gradient(
            engine.kernel, X_b, labels[:, k], engine.Z, engine.n, engine.mu[k], engine.L_P[k], engine.K_inv,
            kappa, K_sm, theta[:, k], K_zz=engine.K_zz,
        )
        for k in range(engine.n_classes)
    )  # fmt: skip


@pytest.mark.parametrize("family", ["joint", "factorised"])
@pytest.mark.parametrize("K", [3, 5])
def test_the_summed_adjoint_kernel_gradient_is_the_sum_of_the_per_class_gradients(family, K):
    X, y = blobs(K)
    ard = RBF(np.array([0.8, 1.3]), variance=1.7)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::7],
        ard,
        likelihood=AugmentedLogisticSoftmax(K, family=family),
        batch_size=30,
        schedule=Constant(0.5),
        rng=np.random.default_rng(1),
    )
    engine.step(15)
    rows = np.random.default_rng(2).choice(len(y), 30, replace=False)
    X_b, y_b = X[rows], y[rows]
    kappa, K_tilde, K_sm = engine.project(X_b, None)
    new = engine._kernel_gradient(X_b, y_b, kappa, K_tilde, K_sm)
    old = per_class_kernel_gradient(engine, X_b, y_b)
    assert new.shape == (3,)
    np.testing.assert_allclose(new, old, rtol=1e-12, atol=1e-12 * np.abs(old).max())


@pytest.mark.parametrize("family", ["joint", "factorised"])
def test_the_elbo_through_the_covariance_is_the_elbo_through_the_triangular_solves(family):
    X, y = blobs(5, n_per_class=30)
    engine = MultiLatentXGPC(
        X,
        y,
        X[::9],
        RBF(1.2),
        likelihood=AugmentedLogisticSoftmax(5, family=family),
        batch_size=50,
        schedule=Constant(0.5),
        rng=np.random.default_rng(3),
    )
    engine.step(25)
    kappa, K_tilde, _ = engine.project(X, None)
    a, v = engine.marginals(kappa, K_tilde)  # K triangular solves, the training step's path
    solved = float(np.sum(engine.link.bound(y, a, v))) - engine.kl()
    assert engine.elbo() == pytest.approx(solved, rel=1e-12)
    kappa, K_tilde, _ = engine.project(X[::3], None)
    np.testing.assert_allclose(engine.predict_latent(X[::3]), engine.marginals(kappa, K_tilde), rtol=1e-12, atol=0)


def test_bench_multiclass_reports_a_default_fits_evaluation_share():
    row = multiclass.share_task("wine")
    assert row["data set"] == "wine (n 178, K 3)" and row["family"] == multiclass.default_family()
    assert row["evaluations"] == row["iterations"] // 50 + 1  # wine is below automatic early stopping: every 50
    assert row["eval share"] == pytest.approx(row["eval s"] / (row["eval s"] + row["train s"]))
    assert 0 < row["eval share"] < 1


def test_a_fit_evaluated_by_the_cheap_predictive_is_the_fit_the_log_domain_predictive_gives(monkeypatch):
    """Same fits before and after: early stopping reads the same held-out NLL, so it stops at the same iteration."""
    X, y = blobs(3, n_per_class=200)  # 600 rows: early stopping on (≥ 500)
    cheap = XGPClassifier(n_inducing=20, max_iter=400, random_state=0).fit(X, y)
    monkeypatch.setattr(LogisticSoftmax, "predictive", LogisticSoftmax.quadrature_average)
    log_domain = XGPClassifier(n_inducing=20, max_iter=400, random_state=0).fit(X, y)
    assert cheap.n_iter_ == log_domain.n_iter_
    nll = [[row["test_nll"] for row in model.history_] for model in (cheap, log_domain)]
    np.testing.assert_allclose(nll[0], nll[1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(cheap.predict_proba(X), log_domain.predict_proba(X), rtol=0, atol=1e-12)


# ----- the stick-breaking family: the same fit through the cheaper step and evaluations ------------------------------
def left_solved_marginals(engine, kappa, K_tilde):
    """The marginals through the left triangular solves L_P,j⁻¹κᵀ (the path before the right-hand solves)."""
    v = np.column_stack([np.sum(lower_triangular_solve(L, kappa.T) ** 2, axis=0) for L in engine.L_P])
    return kappa @ engine.mu.T, K_tilde[:, None] + v


def two_integral_predictive(link, mean, var):
    """The stick-breaking predictive from two separate binary integrals per logit (the path before the pair)."""
    P = logit_predictive_probability(mean.ravel(), var.ravel()).reshape(mean.shape)
    Q = logit_predictive_probability(-mean.ravel(), var.ravel()).reshape(mean.shape)
    return stick_probabilities(P, Q)[:, link.positions]


def formed_local_step(positions, a, v):
    """The local step with the stick labels formed for the minibatch (`stick_labels`: the path before the tables)."""
    t, reach = stick_labels(positions, a.shape[1])
    c = np.sqrt(np.maximum(a * a + v, 0.0))
    return c, reach * t, reach * pg_mean(c)


def looped_targets(engine, kappa, positions, a, v):
    """The targets logit by logit (`targets.natural_gradient_targets` per logit: the path before the batched one)."""
    c, labels, theta = formed_local_step(positions, a, v)
    parts = []
    for j in range(engine.n_latent):
        lam1, lam2 = natural_gradient_targets(kappa, labels[:, j], theta[:, j], engine.K_inv, engine.n)
        parts += [lam1, lam2.ravel()]
    return np.concatenate(parts), c


def solved_elbo(engine, index=None):
    """The ELBO as `StickBreaking.bound` on every (row, logit), reached or not, from the triangular solves."""
    rows = np.arange(engine.n) if index is None else index
    X_b, positions = engine._batch(rows)
    kappa, K_tilde, _ = engine.project(X_b, rows)
    total = float(np.sum(engine.link.bound(positions, *left_solved_marginals(engine, kappa, K_tilde))))
    return engine.n / len(rows) * total - engine.kl()


def gauss_hermite_kernel_pseudo_data(engine, positions, a, v):
    """The exact bound's pseudo-data by `likelihoods.gauss_hermite_expectations` (64 nodes) on the reached entries, zero
    elsewhere (binary X-GPC's path per logit: the path before `logit_pseudo_data`)."""
    t, reach = stick_labels(positions, engine.n_latent)
    reached = reach > 0
    labels, theta = np.zeros(a.shape), np.zeros(a.shape)
    labels[reached], theta[reached] = pseudo_data(
        a[reached], *gauss_hermite_expectations(logit_log_likelihood, t[reached], a[reached], v[reached])[1:]
    )
    return labels, theta


def per_logit_kernel_gradient(engine, X_b, positions, kappa, K_tilde, K_sm):
    """The kernel gradient as the sum of the K − 1 binary-form gradients at the 64-node pseudo-data, each contracted on
    its own (`hyperparameters.elbo_kernel_gradient` per logit: the path before the stacked products)."""
    labels, theta = gauss_hermite_kernel_pseudo_data(engine, positions, *left_solved_marginals(engine, kappa, K_tilde))
    return sum(
        elbo_kernel_gradient(
            engine.kernel, X_b, labels[:, j], engine.Z, engine.n, engine.mu[j], engine.L_P[j], engine.K_inv, kappa,
            K_sm, theta[:, j], K_zz=engine.K_zz,
        )
        for j in range(engine.n_latent)
    )  # fmt: skip


def copied_posterior(engine, eta):
    """q(u_j) from η logit by logit, each −2η₂ copied and factorised by `robust_cholesky` into a C-ordered stack (the
    path before the factorisation over one array)."""
    m, J = engine.m, engine.n_latent
    blocks = eta.reshape(J, m + m * m)
    L_P = np.stack([robust_cholesky(-2.0 * b[m:].reshape(m, m), "Σ⁻¹", engine.iteration) for b in blocks])
    eta.setflags(write=False)
    engine._eta, engine.L_P, engine._inverse_factors = eta, L_P, None
    engine.mu = np.stack([lapack.dpotrs(L, b[:m], lower=1)[0] for L, b in zip(L_P, blocks)])


def stick_engine(K, seed=0, n_per_class=30):
    X, y = blobs(K, n_per_class=n_per_class, seed=seed)
    engine = MultiLatentXGPC(
        X,
        y,
        X[:: len(X) // 20],
        RBF(np.array([0.9, 1.4]), variance=1.5),
        likelihood=StickBreaking(K),
        batch_size=40,
        schedule=Constant(0.5),
        rng=np.random.default_rng(seed),
    )
    engine.step(15)
    return engine, X, y


@pytest.mark.parametrize("K", [3, 5, 10])
def test_the_stick_breaking_targets_batched_over_the_logits_are_the_per_logit_targets(K):
    engine, X, y = stick_engine(K)
    rows = np.random.default_rng(1).choice(len(y), 40, replace=False)
    X_b, positions = engine._batch(rows)
    kappa, K_tilde, _ = engine.project(X_b, rows)
    a, v = engine.marginals(kappa, K_tilde)
    target, c = engine._targets(kappa, positions, a, v)
    expected, expected_c = looped_targets(engine, kappa, positions, a, v)
    np.testing.assert_array_equal(c, expected_c)
    np.testing.assert_allclose(target, expected, rtol=0, atol=1e-12 * np.abs(expected).max())
    lam2 = target.reshape(K - 1, -1)[:, engine.m :].reshape(K - 1, engine.m, engine.m)
    np.testing.assert_array_equal(lam2, lam2.transpose(0, 2, 1))  # exactly symmetric, as the per-logit targets


@pytest.mark.parametrize("K", [3, 5, 10])
def test_the_stick_breaking_elbo_through_the_inverse_factors_is_the_bound_through_the_solves(K):
    engine, X, y = stick_engine(K, n_per_class=1100 // K)  # about 1,100 rows: two evaluation chunks of ≤ 1,024
    assert engine.elbo() == pytest.approx(solved_elbo(engine), rel=1e-12)
    rows = np.sort(np.random.default_rng(2).choice(len(y), 50, replace=False))
    assert engine.elbo(rows) == pytest.approx(solved_elbo(engine, rows), rel=1e-12)
    # the rows reaching no logit beyond the first (stick position 0) add only their first logit's term
    first = rows[engine.link.equation_labels(y[rows]) == 0]
    assert engine.elbo(first) == pytest.approx(solved_elbo(engine, first), rel=1e-12)


def test_the_stick_breaking_marginals_and_predictive_are_the_left_solved_ones():
    engine, X, y = stick_engine(5)
    kappa, K_tilde, _ = engine.project(X, None)
    a, v = left_solved_marginals(engine, kappa, K_tilde)
    np.testing.assert_allclose(engine.marginals(kappa, K_tilde), (a, v), rtol=1e-12, atol=1e-14)
    mean, var = engine.predict_latent(X)
    np.testing.assert_allclose(mean, a, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(var, np.maximum(v, 1e-12), rtol=1e-12, atol=0)
    W = engine.W
    np.testing.assert_allclose(engine.Sigma[0], np.linalg.inv(engine.L_P[0] @ engine.L_P[0].T), rtol=1e-10, atol=1e-12)
    engine.step(1)  # a new q: the inverse factors are formed again
    assert engine.W is not W and np.allclose(engine.W[0] @ engine.L_P[0], np.eye(engine.m), atol=1e-10)


def test_a_stick_breaking_fit_through_the_cheaper_step_and_evaluations_is_the_fit_before(monkeypatch):
    """Same fit before and after, on a fixed seed: the same iterations, the same held-out NLL and ELBO history (to
    1e-10 relative: the paths differ in rounding, which 400 iterations of kernel learning amplify to ~1e-11). Before:
    the targets logit by logit, the marginals by left solves, the ELBO on every (row, logit), the predictive from two
    integrals, the kernel gradient logit by logit at the 64-node pseudo-data, each −2η₂ copied and factorised alone."""
    X, y = blobs(4, n_per_class=150)  # 600 rows: early stopping on (≥ 500)
    options = {"multiclass_family": "stick-breaking"}
    cheap = XGPClassifier(n_inducing=20, max_iter=400, random_state=0, options=options).fit(X, y)
    monkeypatch.setattr(MultiLatentXGPC, "_targets", looped_targets)
    monkeypatch.setattr(MultiLatentXGPC, "elbo", solved_elbo)
    monkeypatch.setattr(MultiLatentXGPC, "marginals", left_solved_marginals)
    monkeypatch.setattr(MultiLatentXGPC, "_evaluation_marginals", left_solved_marginals)
    monkeypatch.setattr(StickBreaking, "predictive", two_integral_predictive)
    monkeypatch.setattr(MultiLatentXGPC, "_kernel_gradient", per_logit_kernel_gradient)
    monkeypatch.setattr(MultiLatentXGPC, "_set_posterior", copied_posterior)
    before = XGPClassifier(n_inducing=20, max_iter=400, random_state=0, options=options).fit(X, y)
    assert cheap.n_iter_ == before.n_iter_
    for column in ("test_nll", "elbo", "lengthscale"):
        history = [np.array([row[column] for row in model.history_], dtype=float) for model in (cheap, before)]
        np.testing.assert_allclose(history[0], history[1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cheap.predict_proba(X), before.predict_proba(X), rtol=0, atol=1e-10)


def test_the_stick_breaking_predictive_pair_is_the_two_binary_integrals_and_keeps_the_small_one_relative():
    rng = np.random.default_rng(4)
    mean = np.concatenate([rng.normal(0.0, 4.0, 300), [30.0, -30.0, 0.0]])
    var = np.concatenate([rng.uniform(0.0, 2.0, 150), rng.uniform(2.0, 400.0, 150), [0.5, 0.5, 1e-12]])
    P, Q = logit_predictive_pair(mean, var)  # both variance branches: ≤ 2 Gauss–Hermite, above Gauss–Laguerre
    np.testing.assert_allclose(P + Q, 1.0, rtol=0, atol=1e-13)  # P is the binary predictive (test_likelihoods.py)
    np.testing.assert_allclose(Q, logit_predictive_probability(-mean, var), rtol=1e-13, atol=1e-15)
    # independent truth where one side is tiny (σ(−f) ≈ e^{−30} at mean 30): adaptive quadrature of σ(∓f)N(f)
    for i in (-3, -2):
        sd = np.sqrt(var[i])
        tiny = min(P[i], Q[i])
        sign = -1.0 if P[i] > Q[i] else 1.0
        truth = integrate.quad(
            lambda f: expit(sign * f) * np.exp(-0.5 * ((f - mean[i]) / sd) ** 2) / (sd * np.sqrt(2 * np.pi)),
            mean[i] - 12 * sd,
            mean[i] + 12 * sd,
            epsabs=0,
            epsrel=1e-12,
        )[0]
        assert tiny == pytest.approx(truth, rel=1e-9) and tiny < 1e-12


def slopes_by_quadrature(t, a, v):
    """E[tσ(−tψ)] and E[σ(ψ)σ(−ψ)] under N(ψ | a, v) (the exact bound's slopes g_a and −2g_v) by mpmath's adaptive
    quadrature at 30 digits, ψ = a + √v x over the standard normal x: the independent truth of the pseudo-data."""
    mpmath.mp.dps = 30
    a, sd = mpmath.mpf(a), mpmath.sqrt(mpmath.mpf(v))

    def expectation(h):
        density = lambda x: mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
        return float(mpmath.quad(lambda x: h(a + sd * x) * density(x), [-mpmath.inf, -3, 0, 3, mpmath.inf]))

    sigma = lambda f: 1 / (1 + mpmath.exp(-f))  # noqa: E731
    return expectation(lambda f: t * sigma(-t * f)), expectation(lambda f: sigma(f) * sigma(-f))


def test_the_exact_bound_pseudo_data_meet_the_integrals_with_16_nodes_and_are_the_64_node_slopes_above():
    rng = np.random.default_rng(5)
    # at or below FEW_NODES_MAX_VARIANCE (16 nodes): against adaptive quadrature, to rounding, far into both tails
    few = [(t, a, v) for t in (-1.0, 1.0) for a in (-30.0, -2.5, 0.0, 0.4, 6.0, 25.0) for v in (1e-3, 0.03, 0.1)]
    t, a, v = (np.array(column) for column in zip(*few))
    labels, theta = logit_pseudo_data(t, a, v)
    for i, (ti, ai, vi) in enumerate(few):
        slope, curvature = slopes_by_quadrature(ti, ai, vi)
        assert theta[i] == pytest.approx(curvature, rel=1e-13, abs=1e-17)
        assert labels[i] == pytest.approx(2.0 * (slope + curvature * ai), rel=1e-13, abs=1e-15)
    # above it (64 nodes): binary X-GPC's pseudo-data, the same rule
    t, a = rng.choice([-1.0, 1.0], 200), rng.normal(0.0, 5.0, 200)
    v = FEW_NODES_MAX_VARIANCE + rng.uniform(1e-9, 30.0, 200)
    expected = pseudo_data(a, *gauss_hermite_expectations(logit_log_likelihood, t, a, v)[1:])
    np.testing.assert_array_equal(logit_pseudo_data(t, a, v), expected)  # bit for bit
    v[::2] = rng.uniform(0.0, FEW_NODES_MAX_VARIANCE, 100)  # binary X-GPC's: 64 nodes at any variance
    expected = pseudo_data(a, *gauss_hermite_expectations(logit_log_likelihood, t, a, v)[1:])
    np.testing.assert_array_equal(logit_pseudo_data(t, a, v, few_nodes=False), expected)
    # a mixed call is each entry's own rule
    v = np.where(rng.random(200) < 0.5, rng.uniform(0.0, FEW_NODES_MAX_VARIANCE, 200), v)
    mixed = np.array(logit_pseudo_data(t, a, v))
    alone = np.array([logit_pseudo_data(t[[i]], a[[i]], v[[i]]) for i in range(200)])[:, :, 0].T
    np.testing.assert_allclose(mixed, alone, rtol=1e-15, atol=0)


def test_cholesky_over_factorises_in_place_and_the_engine_falls_back_to_jitter_then_names_the_logit():
    rng = np.random.default_rng(6)
    B = rng.standard_normal((12, 12))
    A = B @ B.T + 12.0 * np.eye(12)
    work = A.copy()
    L = cholesky_over(work)
    assert np.shares_memory(L, work) and np.array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, A, rtol=1e-13, atol=1e-13)
    assert cholesky_over(np.diag([1.0, -2.0, 3.0])) is None
    engine, _, _ = stick_engine(3)
    m, eta = engine.m, engine._eta.copy().reshape(2, -1)
    # logit 1's −2η₂ singular positive semi-definite (rank m − 2): plain Cholesky fails, the jitter rescues it
    Q, _ = np.linalg.qr(rng.standard_normal((m, m)))
    singular = (Q * np.r_[np.linspace(1.0, 2.0, m - 2), 0.0, -1e-14]) @ Q.T
    eta[1, m:] = (-0.5 * 0.5 * (singular + singular.T)).ravel()
    assert cholesky_over(-2.0 * eta[1, m:].reshape(m, m).copy()) is None
    engine._set_posterior(eta.ravel().copy())
    np.testing.assert_allclose(engine.L_P[1] @ engine.L_P[1].T, -2.0 * eta[1, m:].reshape(m, m), atol=1e-6)
    np.testing.assert_allclose(engine.L_P[0] @ engine.L_P[0].T, -2.0 * eta[0, m:].reshape(m, m), rtol=1e-12, atol=1e-12)
    # an indefinite one is an error naming the logit
    eta[1, m:] = (-0.5 * np.diag(np.r_[np.ones(m - 1), -1.0])).ravel()
    with pytest.raises(NumericalError, match="Σ⁻¹ of logit 1"):
        engine._set_posterior(eta.ravel().copy())
