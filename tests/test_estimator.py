"""XGPClassifier: scikit-learn conformance, accuracy on the paper's banana set, streaming, bad input."""
import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from explorer import XGPClassifier, datasets



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
    assert set(clf.history_[0]) == {"iteration", "seconds", "elbo", "test_nll", "test_error", "rho",
                                    "lengthscale", "variance"}


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
    assert np.array_equal(clf.predict(X), clf.classes_[proba.argmax(1)])
    assert np.array_equal(clf.decision_function(X) > 0, proba[:, 1] > 0.5)


def test_partial_fit_streams_and_learns():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((600, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    clf = XGPClassifier(n_inducing=30, batch_size=50, random_state=2)
    for start in range(0, 600, 100):
        clf.partial_fit(X[start:start + 100], y[start:start + 100], classes=[0, 1])
    assert clf.engine_.n == 600
    assert clf.n_iter_ == 6 * 2
    for _ in range(40):
        clf.partial_fit(X[:100], y[:100])
    X_new = rng.standard_normal((400, 2))
    assert clf.score(X_new, (X_new[:, 0] * X_new[:, 1] > 0).astype(int)) > 0.85


@pytest.mark.parametrize("y, message", [
    (np.zeros(20), "exactly 2 classes"),
    (np.arange(20) % 3, "exactly 2 classes"),
])
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
        with pytest.raises(ValueError, match="'lengthscale' parameter of XGPClassifier must be"):
            XGPClassifier(lengthscale=value, max_iter=10).fit(X, np.arange(20) % 2)


def test_more_inducing_points_than_rows_warns_and_clamps():
    X = np.random.default_rng(0).standard_normal((30, 2))
    with pytest.warns(UserWarning, match="inducing points requested"):
        clf = XGPClassifier(n_inducing=50, batch_size=10, max_iter=20, random_state=0).fit(X, np.arange(30) % 2)
    assert clf.inducing_points_.shape == (30, 2)


def test_ard_learns_to_ignore_a_noise_feature():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((400, 2))
    y = (np.sin(2.0 * X[:, 0]) > 0).astype(int)  # only the first feature matters
    clf = XGPClassifier(n_inducing=30, batch_size=100, max_iter=1500, ard=True, hyper_learning_rate=0.05,
                        convergence="none", random_state=4).fit(X, y)
    lengthscale = clf.engine_.kernel.lengthscale
    assert lengthscale.shape == (2,)
    assert lengthscale[1] > 2.0 * lengthscale[0]


# ----- API edges and huge inputs (issue 9) ----------------------------------------------------------------------------
@pytest.mark.parametrize("setting, name", [
    (dict(max_iter=-1), "max_iter"), (dict(n_inducing=2.5), "n_inducing"), (dict(n_inducing=0), "n_inducing"),
    (dict(batch_size=0), "batch_size"), (dict(eval_every=0), "eval_every"), (dict(variance=np.inf), "variance"),
    (dict(nugget=0.0), "nugget"), (dict(hyper_learning_rate=-0.1), "hyper_learning_rate"),
    (dict(step_size="fast"), "step_size"), (dict(convergence="never"), "convergence"),
    (dict(validation_fraction=1.0), "validation_fraction"), (dict(random_state="seed"), "random_state"),
    (dict(learn_hyperparameters="yes"), "learn_hyperparameters"),
])
def test_bad_parameters_are_refused_by_name(setting, name):
    X = np.random.default_rng(0).standard_normal((20, 2))
    with pytest.raises(ValueError, match=f"'{name}' parameter of XGPClassifier"):
        XGPClassifier(**setting).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match=f"'{name}' parameter of XGPClassifier"):
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
