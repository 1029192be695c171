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
    with pytest.raises(ValueError, match="lengthscale must be finite and > 0"):
        XGPClassifier(lengthscale=-1.0, max_iter=10).fit(X, np.arange(20) % 2)


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
