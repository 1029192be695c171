"""XGPClassifier: scikit-learn conformance, accuracy on the paper's banana set, streaming, bad input."""

import inspect
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import check_estimator

from explorer import XGPClassifier
from explorer.data import datasets
from explorer.estimator import AUTO_EARLY_STOPPING_ROWS, OPTION_SETTINGS
from explorer.metrics import negative_log_likelihood, predicted_class


def test_passes_check_estimator():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(XGPClassifier(max_iter=100, random_state=0), on_fail=None)
    failed = {r["check_name"]: repr(r["exception"]) for r in results if r["status"] == "failed"}
    assert len(results) > 40
    assert failed == {}


def test_banana_test_error_at_most_011(paper_data):
    X, y = datasets.load("banana", paper_data)
    X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.2, np.random.default_rng(0))
    clf = XGPClassifier(random_state=0).fit(X_tr, y_tr)
    error = 1.0 - clf.score(X_te, y_te)
    assert error <= 0.11
    assert clf.n_iter_ == clf.history_[-1]["iteration"] > 0
    assert set(clf.history_[0]) == {
        "iteration",
        "seconds",
        "elbo",
        "test_nll",
        "test_error",
        "rho",
        "lengthscale",
        "variance",
    }


def test_string_labels_and_probability_columns():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((120, 2))
    y = np.where(X[:, 0] + 0.2 * rng.standard_normal(120) > 0, "yes", "no")
    clf = XGPClassifier(n_inducing=20, batch_size=40, max_iter=300, random_state=1).fit(X, y)
    assert list(clf.classes_) == ["no", "yes"]
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(1), 1.0)
    # the "yes" column is large where x1 is large, and predict agrees with the larger column
    assert proba[X[:, 0] > 1.0, 1].mean() > 0.8
    assert np.array_equal(clf.predict(X), clf.classes_[predicted_class(proba)])
    assert np.array_equal(clf.decision_function(X) > 0, proba[:, 1] > 0.5)


def test_partial_fit_streams_and_learns():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((600, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    clf = XGPClassifier(n_inducing=30, batch_size=50, random_state=2)
    for start in range(0, 600, 100):
        clf.partial_fit(X[start : start + 100], y[start : start + 100], classes=[0, 1])
    assert clf.engine_.n == 600
    assert clf.n_iter_ == 6 * 2
    for _ in range(40):
        clf.partial_fit(X[:100], y[:100])
    X_new = rng.standard_normal((400, 2))
    assert clf.score(X_new, (X_new[:, 0] * X_new[:, 1] > 0).astype(int)) > 0.85


@pytest.mark.parametrize(
    "y, message",
    [
        (np.zeros(20), "2 or more classes; the labels hold 1 class"),
        (np.arange(20) % 2 + 0.5, "class"),
    ],
)
def test_bad_labels_are_named(y, message):
    X = np.random.default_rng(0).standard_normal((20, 2))
    with pytest.raises(ValueError, match=message):
        XGPClassifier(max_iter=10).fit(X, y)


def test_nan_features_and_length_mismatch():
    X = np.random.default_rng(0).standard_normal((20, 2))
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        XGPClassifier(max_iter=10).fit(X_nan, np.arange(20) % 2)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        XGPClassifier(max_iter=10).fit(X, np.arange(19) % 2)


def test_non_positive_kernel_parameter_is_refused():
    X = np.random.default_rng(0).standard_normal((20, 2))
    for value in (-1.0, 0.0, np.nan, np.inf):
        with pytest.raises(ValueError, match=r"XGPClassifier's options\['lengthscale'\]: lengthscale must be"):
            XGPClassifier(options={"lengthscale": value}, max_iter=10).fit(X, np.arange(20) % 2)


def test_more_inducing_points_than_rows_warns_and_clamps():
    X = np.random.default_rng(0).standard_normal((30, 2))
    with pytest.warns(UserWarning, match="inducing points requested"):
        clf = XGPClassifier(n_inducing=50, batch_size=10, max_iter=20, random_state=0).fit(X, np.arange(30) % 2)
    assert clf.inducing_points_.shape == (30, 2)


def test_ard_learns_to_ignore_a_noise_feature():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((400, 2))
    y = (np.sin(2.0 * X[:, 0]) > 0).astype(int)  # only the first feature matters
    clf = XGPClassifier(
        n_inducing=30,
        batch_size=100,
        max_iter=1500,
        options={"ard": True, "hyper_learning_rate": 0.05},
        convergence="none",
        random_state=4,
    ).fit(X, y)
    lengthscale = clf.engine_.kernel.lengthscale
    assert lengthscale.shape == (2,)
    assert lengthscale[1] > 2.0 * lengthscale[0]


# ----- API edges and huge inputs (issue 9) ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "setting, name",
    [
        (dict(max_iter=-1), "max_iter"),
        (dict(n_inducing=2.5), "n_inducing"),
        (dict(n_inducing=0), "n_inducing"),
        (dict(batch_size=0), "batch_size"),
        (dict(eval_every=0), "eval_every"),
        (dict(variance=np.inf), "variance"),
        (dict(nugget=0.0), "nugget"),
        (dict(hyper_learning_rate=-0.1), "hyper_learning_rate"),
        (dict(step_size="fast"), "step_size"),
        (dict(convergence="never"), "convergence"),
        (dict(validation_fraction=1.0), "validation_fraction"),
        (dict(random_state="seed"), "random_state"),
        (dict(learn_hyperparameters="yes"), "learn_hyperparameters"),
        (dict(early_stopping="sometimes"), "early_stopping"),
        (dict(n_iter_no_change=0), "n_iter_no_change"),
        (dict(tol=-1e-4), "tol"),
        (dict(tol=np.nan), "tol"),
    ],
)
def test_bad_parameters_are_refused_by_name(setting, name):
    """A parameter of its own in scikit-learn's words, an entry of `options` naming it as one."""
    X = np.random.default_rng(0).standard_normal((20, 2))
    words = f"'{name}' parameter of XGPClassifier"
    if name in OPTION_SETTINGS:
        setting, words = {"options": setting}, rf"XGPClassifier's options\['{name}'\]: {name} must be"
    with pytest.raises(ValueError, match=words):
        XGPClassifier(**setting).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match=words):
        XGPClassifier(**setting).partial_fit(X, np.arange(20) % 2)


def test_max_iter_zero_fits_nothing_and_predicts_the_prior():
    X = np.random.default_rng(0).standard_normal((20, 2))
    clf = XGPClassifier(max_iter=0, n_inducing=5).fit(X, np.arange(20) % 2)
    assert clf.n_iter_ == 0
    np.testing.assert_allclose(clf.predict_proba(X), 0.5)


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((80, 2))
    return XGPClassifier(n_inducing=10, batch_size=40, max_iter=60, random_state=0).fit(X, (X[:, 0] > 0).astype(int))


@pytest.mark.parametrize("x", [[1e308, 1e308], [1e308, -1e308], [1e101, 0.0], [0.0, -1e160]])
def test_huge_inputs_are_refused_never_a_nan_or_a_silent_class(fitted, x):
    for method in (fitted.predict_proba, fitted.predict, fitted.decision_function, fitted.predict_latent):
        with pytest.raises(ValueError, match="row 0, column"):
            method([x])


def test_inputs_huge_only_after_standardisation_are_refused():
    # a column spread of 1e-5: the value 1e96 lies 1e101 training sds from the mean
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 2)) * np.array([1.0, 1e-5])
    clf = XGPClassifier(n_inducing=10, batch_size=30, max_iter=20, random_state=0).fit(X, (X[:, 0] > 0).astype(int))
    with pytest.raises(ValueError, match="after standardisation"):
        clf.predict_proba([[0.0, 1e96]])
    p = clf.predict_proba([[0.0, 1e90]])
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("value", [1e200, -1e101, 1e308])
def test_a_huge_training_value_is_refused_not_fitted_to_chance(value):
    rng = np.random.default_rng(4)
    X = rng.standard_normal((50, 3))
    X[11, 2] = value
    with pytest.raises(ValueError, match="row 11, column 2"):
        XGPClassifier(n_inducing=10, max_iter=20).fit(X, (X[:, 0] > 0).astype(int))


def test_a_column_too_narrow_for_float64_is_refused():
    X = np.random.default_rng(5).standard_normal((30, 2))
    X[:, 1] = np.where(np.arange(30) % 2 == 0, 0.0, 1e-170)  # sd underflows to 0 although the values differ
    with pytest.raises(ValueError, match="column 1 .* too little to standardise"):
        XGPClassifier(n_inducing=5, max_iter=5).fit(X, np.arange(30) % 2)


# ----- early stopping (issue 11, target 4) ----------------------------------------------------------------------------
def _no_improvement_run_lengths(nll, tol):
    """For each evaluation k, how many consecutive evaluations up to k failed to beat min(nll[:j]) − tol."""
    lengths, run = [], 0
    for k, value in enumerate(nll):
        run = run + 1 if k > 0 and value >= min(nll[:k]) - tol else 0
        lengths.append(run)
    return lengths


@pytest.fixture(scope="module")
def banana_split(paper_data):
    X, y = datasets.load("banana", paper_data)
    keep = np.random.default_rng(0).choice(len(y), 1500, replace=False)
    return datasets.train_test_split(X[keep], y[keep], 0.2, np.random.default_rng(0))


# max_iter 4000: on this 1,200-row set the held-out NLL keeps improving by more than tol for 2,000-3,500 iterations
# (seeds 0-5 of the run's seed policy stopped between 1,150 and 3,500), so the cap leaves the rule room to fire.
SMALL = dict(n_inducing=30, batch_size=100, max_iter=4000, random_state=0)


def test_default_fit_stops_by_its_rule_and_predicts_as_well_as_a_full_run(banana_split):
    X_tr, X_te, y_tr, y_te = banana_split
    stopped = XGPClassifier(**SMALL).fit(X_tr, y_tr)
    assert stopped.converged_ and stopped.n_iter_ < SMALL["max_iter"]
    # it held out a tenth of the rows and stopped the first time 5 evaluations in a row missed the best by 1e-4
    assert 0.05 < len(stopped.trainer_.y_eval) / len(y_tr) < 0.15
    assert stopped.engine_.n + len(stopped.trainer_.y_eval) == len(y_tr)
    lengths = _no_improvement_run_lengths([row["test_nll"] for row in stopped.history_], 1e-4)
    assert lengths[-1] == 5 and max(lengths[:-1]) < 5
    full = XGPClassifier(early_stopping=False, **SMALL).fit(X_tr, y_tr)
    assert full.n_iter_ == SMALL["max_iter"] and not full.converged_
    # tolerance: at most 2 points of test error and 0.02 nats of test NLL worse than running all 2000 iterations
    assert 1.0 - stopped.score(X_te, y_te) <= 1.0 - full.score(X_te, y_te) + 0.02
    classes = np.searchsorted(stopped.classes_, y_te)  # the labels as class indices, the columns of predict_proba
    nll = [negative_log_likelihood(clf.predict_proba(X_te), classes) for clf in (stopped, full)]
    assert nll[0] <= nll[1] + 0.02


def test_early_stopping_off_runs_max_iter_on_all_rows(banana_split):
    X_tr, _, y_tr, _ = banana_split
    clf = XGPClassifier(early_stopping=False, **{**SMALL, "max_iter": 400}).fit(X_tr, y_tr)
    assert clf.n_iter_ == 400 and not clf.converged_
    assert clf.engine_.n == len(y_tr) and len(clf.trainer_.y_eval) == len(y_tr)  # nothing held out


def test_auto_is_off_below_the_threshold_and_true_forces_it_on(banana_split):
    X_tr, _, y_tr, _ = banana_split
    small = dict(SMALL, max_iter=600)
    auto = XGPClassifier(**small).fit(X_tr[: AUTO_EARLY_STOPPING_ROWS - 1], y_tr[: AUTO_EARLY_STOPPING_ROWS - 1])
    assert auto.n_iter_ == 600 and not auto.converged_ and auto.engine_.n == AUTO_EARLY_STOPPING_ROWS - 1
    # kernel learning off: the rule may fire from the first evaluation (with it on, it waits for the kernel's steps,
    # tests/test_defaults.py), so the stop comes exactly at the second evaluation in a row without improvement
    forced = XGPClassifier(
        early_stopping=True, n_iter_no_change=2, tol=0.01, **{**small, "learn_hyperparameters": False}
    ).fit(X_tr[:300], y_tr[:300])
    assert forced.converged_ and forced.n_iter_ < 600 and forced.engine_.n < 300
    lengths = _no_improvement_run_lengths([row["test_nll"] for row in forced.history_], 0.01)
    assert lengths[-1] == 2 and max(lengths[:-1]) < 2


def test_early_stopping_is_deterministic_given_random_state(banana_split):
    X_tr, X_te, y_tr, _ = banana_split
    first, second = (XGPClassifier(**SMALL).fit(X_tr, y_tr) for _ in range(2))
    assert first.n_iter_ == second.n_iter_ and first.converged_ == second.converged_
    assert [r["test_nll"] for r in first.history_] == [r["test_nll"] for r in second.history_]
    np.testing.assert_array_equal(first.predict_proba(X_te), second.predict_proba(X_te))
    other = XGPClassifier(**{**SMALL, "random_state": 1}).fit(X_tr, y_tr)
    assert not np.array_equal(other.trainer_.X_eval, first.trainer_.X_eval)  # the split follows random_state


def test_an_explicit_rule_replaces_early_stopping_and_conflicts_are_named():
    X = np.random.default_rng(0).standard_normal((600, 2))
    y = (X[:, 0] > 0).astype(int)
    clf = XGPClassifier(n_inducing=10, max_iter=100, convergence="none", random_state=0).fit(X, y)
    assert clf.n_iter_ == 100 and not clf.converged_
    with pytest.raises(ValueError, match="early_stopping=True and convergence='holdout'"):
        XGPClassifier(early_stopping=True, convergence="holdout", max_iter=10).fit(X, y)
    with pytest.raises(ValueError, match="validation_fraction > 0"):
        XGPClassifier(validation_fraction=0.0, max_iter=10).fit(X, y)


# ----- the public face (issue 32.1): a short signature, every further setting in one checked `options` -----------
def test_the_signature_is_short_and_every_further_run_setting_is_an_option():
    parameters = inspect.signature(XGPClassifier).parameters
    assert len(parameters) <= 15 and "options" in parameters
    assert set(OPTION_SETTINGS).isdisjoint(parameters)
    assert {"rho", "lengthscale", "hyper_every", "kernel_bound", "eval_every"} <= set(OPTION_SETTINGS)
    for name in OPTION_SETTINGS:  # each documented with its default
        assert f"{name} : " in XGPClassifier.__doc__, name


def test_options_reach_the_run_and_survive_get_params_set_params_and_clone():
    X, y = datasets.load("moons", n=120, seed=0)
    options = {"hyper_every": 1, "kernel_bound": "augmented", "eval_every": 7, "rho": 0.3}
    clf = XGPClassifier(n_inducing=8, max_iter=14, step_size="constant", early_stopping=False, options=options)
    twin = clone(clf)
    assert twin.get_params()["options"] == options and twin.get_params()["options"] is not options
    clf.fit(X, y)
    assert clf.options == options and clf.options is options  # fit reads, never writes, the mapping
    assert clf.engine_.hyper_every == 1 and clf.engine_.kernel_bound == "augmented"
    assert clf.engine_.schedule.rho == 0.3 and [row["iteration"] for row in clf.history_] == [0, 7, 14]
    clf.set_params(options={"kernel_bound": "exact"}).fit(X, y)
    assert clf.engine_.kernel_bound == "exact" and clf.engine_.hyper_every == 5  # the others back at their defaults


@pytest.mark.parametrize(
    "options, words",
    [
        ({"hyper_evry": 2}, r"unknown names \['hyper_evry'\]; the options are rho, tau"),
        ({"method": "svgp-adam"}, r"unknown names \['method'\] \(method: a parameter of its own, not an option\)"),
        ({"kernel_step": "whitened"}, r"unknown names \['kernel_step'\]"),  # measured, not adopted: no option
        ({"hyper_every": 0}, r"options\['hyper_every'\]: hyper_every must be a whole number at least 1, got 0"),
        ({"link": "cauchit"}, r"options\['link'\]: unknown link 'cauchit'; choose one of logit, probit"),
        ({"full": 1}, r"options\['full'\]: full must be True or False, got 1"),
    ],
)
def test_a_bad_option_is_refused_at_fit_naming_it_and_the_value(options, words):
    X = np.random.default_rng(0).standard_normal((20, 2))
    for fit in ("fit", "partial_fit"):
        clf = XGPClassifier(max_iter=2, options=options)
        with pytest.raises(InvalidParameterError, match=words):
            getattr(clf, fit)(X, np.arange(20) % 2)
        assert not hasattr(clf, "engine_")
    with pytest.raises(InvalidParameterError, match="'options' parameter of XGPClassifier must be"):
        XGPClassifier(options=[("rho", 0.3)]).fit(X, np.arange(20) % 2)
