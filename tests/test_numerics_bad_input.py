"""Bad input to the numerics: clear errors, warnings with clamping, and a failed step that loses nothing."""

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import explorer.xgpc as xgpc_module
from explorer import methods
from explorer.hyperparameters import Adam, KernelLearningError
from explorer.kernels import RBF, KernelParameterError
from explorer.likelihoods import logit_predictive_probability
from explorer.linalg import NumericalError, robust_cholesky
from explorer.schedules import Adaptive
from explorer.xgpc import XGPC


def problem(n=60, d=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] * X[:, 1] + 0.2 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(lengthscale=0.0),
        dict(lengthscale=-1.0),
        dict(lengthscale=np.nan),
        dict(lengthscale=[1.0, np.inf]),
        dict(variance=0.0),
        dict(variance=np.nan),
        dict(nugget=-1e-6),
        dict(nugget=0.0),
    ],
)
def test_non_positive_or_nan_kernel_parameters_are_rejected(kwargs):
    arguments = dict(lengthscale=1.0, variance=1.0, nugget=1e-6) | kwargs
    name = next(iter(kwargs))
    with pytest.raises(KernelParameterError, match=name):
        RBF(**arguments)


def test_kernel_errors_for_nan_log_parameters_and_wrong_ard_dimension():
    with pytest.raises(KernelParameterError, match="lengthscale"):
        RBF(np.array([1.0])).with_log_params(np.array([np.nan, 0.0]))
    with pytest.raises(KernelParameterError, match="variance"):
        RBF(np.array([1.0])).with_log_params(np.array([0.0, np.inf]))
    X, y = problem(d=3)
    with pytest.raises(KernelParameterError, match="3 features"):
        XGPC(X, y, X[:5], RBF(np.array([1.0, 2.0])))


def test_batch_size_larger_than_n_warns_and_clamps():
    X, y = problem(n=20)
    with pytest.warns(UserWarning, match="batch_size 50 > n = 20"):
        engine = XGPC(X, y, X[:4], RBF(1.0), batch_size=50, rng=np.random.default_rng(0))
    assert engine.batch_size == 20
    engine.step(3)
    assert np.isfinite(engine.elbo())
    with pytest.raises(ValueError, match="batch_size"):
        XGPC(X, y, X[:4], RBF(1.0), batch_size=0)


@pytest.mark.parametrize(
    "labels, message",
    [
        (np.array([-1.0, 1.0]), r"y row 0 \(0-based\) holds -1.0; labels must be class indices 0…K−1"),
        (np.array([0.0, np.nan]), r"y row 1 \(0-based\) holds nan; labels must be class indices"),
        (np.array([0.5, 1.0]), r"y row 0 \(0-based\) holds 0.5; labels must be class indices"),
        (np.array([1.0, 2.0]), r"class indices up to 2, but the logit likelihood models 2 classes"),
    ],
)
def test_labels_other_than_the_methods_class_indices_are_an_error(labels, message):
    X, _ = problem(n=20)
    y = np.resize(labels, 20)
    with pytest.raises(ValueError, match=message):
        XGPC(X, y, X[:4], RBF(1.0))


def test_shape_mismatch_is_an_error():
    X, y = problem(n=20)
    with pytest.raises(ValueError, match="y \\(n,\\) with the same n"):
        XGPC(X, y[:-1], X[:4], RBF(1.0))


# ----- Cholesky -------------------------------------------------------------------------------------------------------
def test_robust_cholesky_names_the_matrix_and_iteration_for_an_indefinite_matrix():
    A = np.diag([1.0, 2.0, -0.5])
    with pytest.raises(NumericalError, match=r"Σ⁻¹ = −2η₂.*iteration 17"):
        robust_cholesky(A, "Σ⁻¹ = −2η₂", 17)
    with pytest.raises(NumericalError, match="K_mm.*non-finite"):
        robust_cholesky(np.array([[1.0, np.nan], [np.nan, 1.0]]), "K_mm", 3)


def test_robust_cholesky_succeeds_with_jitter_on_a_singular_psd_matrix():
    # rank 3 of 8, and the zero eigenvalues pushed to −1e-13 (rounding-sized): plain Cholesky fails on it
    Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((8, 8)))
    eigenvalues = np.array([3.0, 2.0, 1.0, 0.0, 0.0, -1e-13, -1e-13, -1e-13])
    A = (Q * eigenvalues) @ Q.T
    A = 0.5 * (A + A.T)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(A)
    L = robust_cholesky(A, "A", 0)
    assert np.array_equal(L, np.tril(L))
    np.testing.assert_allclose(L @ L.T, A, atol=1e-6)
    # and a little more negative than the largest jitter allows is an error again
    with pytest.raises(NumericalError, match="not positive definite"):
        robust_cholesky((Q * np.array([3.0, 2.0, 1.0, 0, 0, 0, 0, -1e-3])) @ Q.T, "A", 0)


# ----- a failed step loses nothing ------------------------------------------------------------------------------------
def learning_engine(X, y, seed=0):
    return XGPC(
        X,
        y,
        X[:8],
        RBF(np.array([0.9, 1.2]), 1.0, 1e-4),
        batch_size=12,
        schedule=Adaptive(4),
        hyper_optimizer=Adam(0.05),
        rng=np.random.default_rng(seed),
        hyper_every=1,
    )


def snapshot(engine):
    schedule = engine.schedule.state_dict()
    adam = engine.hyper_optimizer.state_dict()
    return dict(
        eta1=engine.eta1.copy(),
        eta2=engine.eta2.copy(),
        log_params=engine.kernel.log_params.copy(),
        iteration=engine.iteration,
        rho=engine.rho,
        rng=engine.rng.bit_generator.state,
        g_bar=schedule["g_bar"].copy(),
        h_bar=schedule["h_bar"],
        tau=schedule["tau"],
        adam_m=adam["m"].copy(),
        adam_v=adam["v"].copy(),
        adam_t=adam["t"],
        criterion=list(engine.criterion.state_dict()["changes"]),
        mu=engine.mu.copy(),
        elbo=engine.elbo(),
    )


def assert_same(before, after):
    for key, value in before.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(after[key], value, err_msg=key)
        else:
            assert after[key] == value, key


def test_a_step_failing_in_cholesky_leaves_the_state_exactly_as_before():
    X, y = problem()
    engine = learning_engine(X, y)
    engine.step(7)
    before = snapshot(engine)
    good_X = engine.X.copy()
    engine.X[:] = np.nan  # every kernel entry NaN: the Cholesky of −2η₂ must fail
    with pytest.raises(NumericalError, match="iteration 8"):
        engine.step()
    engine.X[:] = good_X
    assert_same(before, snapshot(engine))


def test_a_step_failing_in_the_hyperparameter_step_leaves_the_state_exactly_as_before(monkeypatch):
    X, y = problem()
    engine, twin = learning_engine(X, y), learning_engine(X, y)
    engine.step(5)
    twin.step(5)
    before = snapshot(engine)

    def broken(*args, **kwargs):
        raise RuntimeError("injected failure after the natural-gradient step")

    monkeypatch.setattr(xgpc_module, "elbo_kernel_gradient", broken)
    with pytest.raises(RuntimeError, match="injected"):
        engine.step(3)
    assert_same(before, snapshot(engine))
    monkeypatch.undo()
    engine.step(4)  # and it continues exactly as a run that never failed
    twin.step(4)
    np.testing.assert_array_equal(engine.eta2, twin.eta2)
    np.testing.assert_array_equal(engine.kernel.log_params, twin.kernel.log_params)


@pytest.mark.parametrize("engine_class", ["xgpc", "svgp-adam", "svgp-natgrad"])
def test_a_diverged_kernel_step_is_a_numerical_error_and_leaves_the_state_exactly_as_before(engine_class):
    # an Adam learning rate of 1e3 moves log ℓ and log σ² by ±1000 in one step: exp overflows to inf or
    # underflows to 0, a genuinely diverged kernel step
    X, y = problem()
    if engine_class == "xgpc":
        engine = learning_engine(X, y)
    else:
        engine = methods.build(
            engine_class,
            X,
            y,
            X[:8],
            RBF(np.array([0.9, 1.2]), 1.0, 1e-4),
            batch_size=12,
            rng=np.random.default_rng(0),
            hyper_learning_rate=0.05,
        )
    engine.step(6)
    before = engine.state_dict()
    engine.hyper_optimizer.learning_rate = 1e3
    diverged = "kernel learning diverged at iteration 7.*Lower the kernel learning rate"
    with pytest.raises(NumericalError, match=diverged) as caught:
        engine.step()
    assert isinstance(caught.value, KernelLearningError)
    after = engine.state_dict()
    assert after.keys() == before.keys()
    for key in before:
        if isinstance(before[key], np.ndarray):
            np.testing.assert_array_equal(after[key], before[key], err_msg=key)
        else:
            assert repr(after[key]) == repr(before[key]), key
    engine.hyper_optimizer.learning_rate = 0.05
    engine.step(2)  # the run goes on from its last good state
    assert engine.iteration == 8


def test_a_hundred_thousand_iterations_never_give_a_nan_elbo():
    # Adam steps every 5th iteration (20,000 of them) keep the run within the test budget: at these sizes an
    # iteration is pure interpreter overhead, and a hyperparameter step costs twice a natural-gradient step.
    X, y = problem(n=200, d=2, seed=4)
    rng = np.random.default_rng(1)
    engine = XGPC(
        X,
        y,
        X[rng.choice(200, 20, replace=False)],
        RBF(np.array([1.0]), 1.0, 1e-4),
        batch_size=20,
        schedule=Adaptive(),
        hyper_optimizer=Adam(0.01),
        rng=rng,
        hyper_every=5,
    )
    start = engine.kernel.log_params
    with threadpool_limits(1):
        for _ in range(100):
            engine.step(1000)
            assert np.isfinite(engine.elbo())
            assert np.all(np.isfinite(engine.kernel.log_params))
    assert engine.iteration == 100_000 and engine.hyper_optimizer.t == 20_000
    assert not np.allclose(engine.kernel.log_params, start, atol=0.1)  # the kernel did move


# ----- huge finite inputs, counts, the predictive guard (issue 9) -----------------------------------------------------
@pytest.mark.parametrize("value", [1e101, -1e160, 1e308, np.nan, np.inf])
def test_engines_refuse_features_beyond_the_limit_naming_row_and_column(value):
    X, y = problem(n=30)
    X_bad = X.copy()
    X_bad[7, 1] = value
    for build in ("xgpc", "svgp-adam", "svgp-natgrad"):
        with pytest.raises(ValueError, match="row 7, column 1"):
            methods.build(build, X_bad, y, X[:4], RBF(1.0), batch_size=10, rng=np.random.default_rng(0))
        engine = methods.build(build, X, y, X[:4], RBF(1.0), batch_size=10, rng=np.random.default_rng(0))
        engine.step(3)
        with pytest.raises(ValueError, match="row 7, column 1"):
            engine.predict_proba(X_bad)
        with pytest.raises(ValueError, match="row 7, column 1"):
            engine.set_training_data(X_bad, y)
        assert engine.n == 30


def test_features_up_to_the_limit_give_finite_predictions_far_away_the_prior():
    # 1e100 is inside the limit: k(x, Z) vanishes there (below e^−700), so q(f*) is the prior N(0, σ² + γ), p = ½
    X, y = problem(n=40)
    engine = XGPC(X, y, X[:6], RBF(0.5, 2.0, 1e-4), batch_size=20, rng=np.random.default_rng(0))
    engine.step(20)
    far = np.array([[1e100, -1e100], [-1e100, 0.0]])
    mean, var = engine.predict_latent(far)
    np.testing.assert_allclose(mean, 0.0, atol=1e-250)
    np.testing.assert_allclose(var, 2.0 + 1e-4)
    np.testing.assert_allclose(engine.predict_proba(far), 0.5, atol=1e-12)


def test_predictive_probability_refuses_a_non_finite_latent_and_stays_in_the_unit_interval():
    with pytest.raises(NumericalError, match="row 1"):
        logit_predictive_probability(np.array([0.0, np.nan]), np.array([1.0, 1.0]))
    with pytest.raises(NumericalError, match="row 0"):
        logit_predictive_probability(np.array([0.0]), np.array([np.inf]))
    mean = np.array([-1e300, -40.0, 0.0, 40.0, 1e300, 3.0, -3.0])
    var = np.array([1e-12, 1e-12, 1e300, 1e-12, 5.0, 1e6, 1e-12])
    p = logit_predictive_probability(mean, var)
    assert np.all((p >= 0.0) & (p <= 1.0))
    assert p[2] == pytest.approx(0.5) and p[0] == 0.0 and p[4] == pytest.approx(1.0)


@pytest.mark.parametrize("k", [-5, -1, float("inf"), float("nan"), 2.5, "2", None, True, np.float64(-2.0)])
def test_engine_step_counts_must_be_whole_numbers(k):
    X, y = problem(n=30)
    for build in ("xgpc", "svgp-adam", "svgp-natgrad"):
        engine = methods.build(build, X, y, X[:4], RBF(1.0), batch_size=10, rng=np.random.default_rng(0))
        with pytest.raises(ValueError, match="whole number"):
            engine.step(k)
        assert engine.iteration == 0
        engine.step(np.int64(2))
        engine.step(3.0)  # a float with a whole value is a count
        assert engine.iteration == 5
