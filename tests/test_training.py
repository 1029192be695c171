"""The one training loop (`Trainer`), the one fit to the optimum and the one run recipe (`run.start_run`)."""

import copy

import numpy as np
import pytest

from explorer import methods, training
from explorer.convergence import NoImprovement
from explorer.estimator import XGPClassifier
from explorer.kernels import RBF
from explorer.linalg import NumericalError
from explorer.run import full_batch_engine, start_run
from explorer.schedules import RobbinsMonro
from explorer.training import History, Trainer, fit_to_optimum


def problem(n=150, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(np.sin(2 * X[:, 0]) + X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y, X[rng.choice(n, 15, replace=False)]


def xgpc(X, y, Z, seed=1, **options):
    return methods.build(
        "xgpc", X, y, Z, RBF(1.0, 1.0, 1e-4), batch_size=20, rng=np.random.default_rng(seed), **options
    )


class Clock:
    """A stand-in for time.perf_counter that moves only when told to."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def clocked_xgpc(monkeypatch, step_seconds=1.0, evaluation_seconds=100.0):
    """(engine, X, y, clock): the Trainer's clock replaced by `clock`, which an engine step moves by `step_seconds` per
    iteration and a prediction (an evaluation) by `evaluation_seconds`."""
    from explorer import training

    X, y, Z = problem()
    clock = Clock()
    monkeypatch.setattr(training.time, "perf_counter", clock)
    engine = xgpc(X, y, Z)
    step, predict = engine.step, engine.predict_proba

    def timed_step(k=1):
        step(k)
        clock.now += step_seconds * k

    def timed_predict(Xs):
        clock.now += evaluation_seconds
        return predict(Xs)

    engine.step, engine.predict_proba = timed_step, timed_predict
    return engine, X, y, clock


def test_evaluation_cadence_and_training_seconds_exclude_evaluation(monkeypatch):
    X, y, Z = problem()
    clock = Clock()
    monkeypatch.setattr(training.time, "perf_counter", clock)
    engine = xgpc(X, y, Z)
    step, predict = engine.step, engine.predict_proba

    def timed_step(k=1):  # one second of training per iteration
        step(k)
        clock.now += float(k)

    def timed_predict(Xs):  # a slow evaluation: a hundred seconds each
        clock.now += 100.0
        return predict(Xs)

    engine.step, engine.predict_proba = timed_step, timed_predict
    trainer = Trainer(engine, X[:40], y[:40], eval_every=7)
    assert trainer.step(20) == 1 + 2  # the row at iteration 0, then at 7 and 14
    trainer.step(10)
    iterations = trainer.history.column("iteration")
    np.testing.assert_array_equal(iterations, [0, 7, 14, 21, 28])
    np.testing.assert_array_equal(trainer.history.column("seconds"), iterations)  # evaluations not counted
    assert trainer.seconds == 30.0 and engine.iteration == 30


def test_history_keeps_the_latest_rows_and_since_gives_exactly_the_new_ones():
    history = History(max_rows=3)
    for i in range(5):
        history.append({"iteration": i})
    assert history.total == 5 and len(history) == 3
    assert [row["iteration"] for row in history.since(3)] == [3, 4]
    assert [row["iteration"] for row in history.since(0)] == [2, 3, 4]  # older rows are gone
    assert history.since(5) == []


def test_convergence_rules():
    X, y, Z = problem()
    with pytest.raises(ValueError, match="convergence"):
        Trainer(xgpc(X, y, Z), X, y, convergence="sometimes")
    none = Trainer(xgpc(X, y, Z), X, y, convergence="none")
    with pytest.raises(ValueError, match="time budget"):
        none.run()
    # hold-out rule: full-batch coordinate ascent settles the NLL; stop when the window-5 mean change is < 1e-3
    holdout = Trainer(
        full_batch_engine("xgpc", X, y, Z, RBF(1.0, 1.0, 1e-4)),
        X[:50],
        y[:50],
        eval_every=1,
        convergence="holdout",
    )
    holdout.run(max_iter=200)
    nll = holdout.history.column("test_nll")
    changes = np.abs(np.diff(nll)) / np.abs(nll[:-1])
    assert holdout.converged and holdout.engine.iteration < 200
    assert changes[-5:].mean() < 1e-3 and not changes[-6:-1].mean() < 1e-3  # stopped at the first time it held
    # parameter rule: the trainer reports the engine's global-parameter criterion
    parameters = Trainer(full_batch_engine("xgpc", X, y, Z, RBF(1.0, 1.0, 1e-4)), X[:50], y[:50], eval_every=1)
    parameters.run(max_iter=300)
    assert parameters.converged and parameters.engine.converged
    window = parameters.engine.criterion
    assert np.mean(window.changes) < window.threshold


def test_trainer_state_round_trip_continues_identically():
    X, y, Z = problem()
    trainer = Trainer(xgpc(X, y, Z), X[:50], y[:50], eval_every=5)
    trainer.step(23)
    state = copy.deepcopy({"engine": trainer.engine.state_dict(), "trainer": trainer.state_dict()})
    restored = Trainer(xgpc(X, y, Z, seed=99), X[:50], y[:50], eval_every=5)
    restored.engine.load_state_dict(state["engine"])
    restored.load_state_dict(state["trainer"])
    assert restored.history.total == trainer.history.total and restored.seconds == trainer.seconds
    trainer.step(12)
    restored.step(12)
    for name in ("iteration", "elbo", "test_nll", "rho", "lengthscale"):
        np.testing.assert_array_equal(restored.history.column(name), trainer.history.column(name), err_msg=name)


def test_fit_to_optimum_reaches_the_coordinate_ascent_fixed_point():
    X, y, Z = problem()
    engine = full_batch_engine("xgpc", X, y, Z, RBF(1.0, 1.0, 1e-4))
    fit = fit_to_optimum(engine, tolerance=1e-10)
    assert fit.converged and fit.error is None and fit.sweeps == engine.iteration < 500
    lam1, lam2 = engine.minibatch_targets(np.arange(len(y)))  # at the optimum λ̂(q) = η (DESIGN §2 step 3)
    np.testing.assert_allclose(lam1, engine.eta1, atol=1e-7 * np.abs(engine.eta1).max())
    np.testing.assert_allclose(lam2, engine.eta2, atol=1e-7 * np.abs(engine.eta2).max())
    again = fit_to_optimum(engine, tolerance=1e-10, max_sweeps=engine.iteration + 5)  # resumable, already there
    assert again.converged and again.sweeps == fit.sweeps + 1


def test_fit_to_optimum_stops_at_a_numerical_error_in_the_last_good_state(monkeypatch):
    X, y, Z = problem()
    engine = full_batch_engine("svgp-natgrad", X, y, Z, RBF(1.0, 1.0, 1e-4), rho=0.1)
    engine.step(3)
    eta1 = engine.eta1.copy()

    def fail(self, *args):
        raise NumericalError("diverged")

    monkeypatch.setattr(type(engine), "_variational_step", fail)
    fit = fit_to_optimum(engine, max_sweeps=50)
    assert not fit.converged and isinstance(fit.error, NumericalError) and fit.sweeps == 3
    np.testing.assert_array_equal(engine.eta1, eta1)


def test_the_recipe_standardises_with_training_statistics_and_picks_inducing_rows():
    X, y, _ = problem()
    X = 5.0 + 3.0 * X
    run = start_run(
        "svgp-natgrad",
        X[:100],
        y[:100],
        X[100:],
        y[100:],
        RBF(1.0),
        n_inducing=12,
        inducing_rng=np.random.default_rng(0),
        engine_rng=np.random.default_rng(1),
    )
    X_std = run.engine.source.batch(np.arange(run.engine.n))[0]  # the rows as the engine reads them
    np.testing.assert_allclose(X_std.mean(0), 0.0, atol=1e-12)
    np.testing.assert_allclose(X_std.std(0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(run.trainer.X_eval, (X[100:] - X[:100].mean(0)) / X[:100].std(0))
    assert run.engine.m == 12 and all((X_std == z).all(1).any() for z in run.engine.Z)
    as_given = start_run("xgpc", X[:100], y[:100], X[100:], y[100:], RBF(1.0), scaler=False, Z=X[:5])
    assert as_given.scaler is None
    np.testing.assert_array_equal(as_given.engine.X, X[:100])


def test_the_estimator_uses_the_step_rule_it_is_given():
    X, y, _ = problem()
    clf = XGPClassifier(
        n_inducing=10,
        batch_size=20,
        max_iter=30,
        step_size="constant",
        options={"rho": 0.3, "eval_every": 10},
        learn_hyperparameters=False,
        convergence="none",
        random_state=0,
    ).fit(X, y)
    assert clf.engine_.schedule.rho == 0.3 and [row["rho"] for row in clf.history_[1:]] == [0.3, 0.3, 0.3]
    rule = RobbinsMonro(tau=2.0, kappa=0.7)
    clf = XGPClassifier(
        n_inducing=10,
        batch_size=20,
        max_iter=30,
        step_size=rule,
        learn_hyperparameters=False,
        convergence="none",
        options={"eval_every": 10},
        random_state=0,
    ).fit(X, y)
    assert rule.t == 0 and clf.engine_.schedule.t == 30  # the estimator's parameter is never advanced
    assert clf.history_[-1]["rho"] == pytest.approx((30 + 2.0) ** -0.7)
    tuned = XGPClassifier(
        n_inducing=10,
        batch_size=20,
        max_iter=10,
        step_size="robbins-monro",
        options={"tau": 4.0, "kappa": 0.9, "eval_every": 10},
        learn_hyperparameters=False,
        convergence="none",
        random_state=0,
    ).fit(X, y)
    assert tuned.history_[-1]["rho"] == pytest.approx((10 + 4.0) ** -0.9)


def test_no_improvement_counts_evaluations_that_miss_the_best_by_tol():
    rule = NoImprovement(n_iter_no_change=3, tol=0.1)
    # 1.0 sets the best; 0.95 misses by < tol (but becomes the best); 0.8 beats 0.95 − 0.1; then three misses
    verdicts = [rule.update(loss) for loss in (1.0, 0.95, 0.8, 0.75, 0.9, float("nan"))]
    assert verdicts == [False, False, False, False, False, True]
    assert rule.best == 0.75 and rule.count == 3
    copy_ = NoImprovement(3, 0.1)
    copy_.load_state_dict(rule.state_dict())
    assert copy_.converged and copy_.update(0.6) is False  # an improvement by more than tol resets the count
    with pytest.raises(ValueError, match="n_iter_no_change"):
        NoImprovement(0, 0.1)


def test_no_improvement_rule_stops_the_trainer_the_first_time_it_holds():
    """With a fixed kernel (with kernel learning the rule waits for the kernel's steps: test_defaults)."""
    X, y, Z = problem()
    fixed = dict(learn_hyperparameters=False)
    trainer = Trainer(xgpc(X[:100], y[:100], Z, **fixed), X[100:], y[100:], eval_every=5, convergence="no-improvement")
    trainer.no_improvement = NoImprovement(n_iter_no_change=3, tol=1e-3)
    trainer.run(max_iter=3000)
    nll = trainer.history.column("test_nll")
    misses = [k > 0 and nll[k] >= nll[:k].min() - 1e-3 for k in range(len(nll))]
    assert trainer.converged and trainer.engine.iteration < 3000
    assert all(misses[-3:]) and not any(all(misses[k - 3 : k]) for k in range(3, len(nll)))
    resumed = Trainer(xgpc(X[:100], y[:100], Z, **fixed), X[100:], y[100:], eval_every=5, convergence="no-improvement")
    resumed.no_improvement = NoImprovement(n_iter_no_change=3, tol=1e-3)
    resumed.load_state_dict(copy.deepcopy(trainer.state_dict()))
    assert resumed.converged and resumed.no_improvement.best == nll.min()
