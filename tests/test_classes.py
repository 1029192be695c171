"""The K-class seams (issue 21, item 4): labels of any type to class indices 0…K−1 and back, methods that declare
their K and refuse more, (n, K) class probabilities from every engine and face, the metrics on (n, K)
probabilities, and the non-augmented SVGP's likelihood taken from `likelihoods.LINKS` (probit against brute-force
quadrature)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from explorer import XGPClassifier, methods
from explorer.gibbs import GibbsSampler
from explorer.kernels import RBF
from explorer.likelihoods import LINKS
from explorer.metrics import error_rate, negative_log_likelihood, predicted_class
from explorer.model import Model
from explorer.validation import DataError, encode_labels

# ----- labels of any type ↔ class indices ----------------------------------------------------------------------------
LABEL_KINDS = {
    "strings": ["ham", "spam", "eggs"],
    "ints": [10, -3, 7],
    "zero-one": [0, 1, 2],
    "plus-minus-one": [-1, 1, 3],
    "one-two": [1, 2, 3],
    "floats": [0.5, -2.25, 1e30],
    "bools": [False, True],
}


@st.composite
def labelled(draw):
    """(labels (n,) of one kind with K = 2 or 3 distinct values, each present, the K values)."""
    kind = draw(st.sampled_from(sorted(LABEL_KINDS)))
    values = LABEL_KINDS[kind][: draw(st.sampled_from([2, 3])) if kind != "bools" else 2]
    picks = draw(st.lists(st.integers(0, len(values) - 1), min_size=0, max_size=30))
    order = draw(st.permutations(list(range(len(values))) + picks))
    return np.array([values[k] for k in order]), values


@settings(max_examples=150, deadline=None)
@given(labelled())
def test_encode_then_decode_gives_the_labels_back_for_two_and_three_classes(case):
    y, values = case
    indices, classes = encode_labels(y)
    assert indices.dtype == np.int64 and classes.tolist() == sorted(values)  # classes[k] ↦ k in sorted order
    assert set(indices.tolist()) == set(range(len(values)))
    assert [classes[k] for k in indices] == y.tolist()


@settings(max_examples=60, deadline=None)
@given(labelled())
def test_binary_methods_refuse_three_classes_naming_them(case):
    y, values = case
    _, classes = encode_labels(y)
    for method in ("xgpc", "svgp-adam", "svgp-natgrad"):  # two classes: the logit model; three: a K-class model
        assert methods.CLASS_COUNTS[method] == (2, None)
        methods.check_classes(method, classes)
    for method in set(methods.METHODS) - {"xgpc", "svgp-adam", "svgp-natgrad"}:
        assert methods.CLASS_COUNTS[method] == (2, 2)
        if len(classes) == 2:
            methods.check_classes(method, classes)
            continue
        with pytest.raises(DataError) as info:
            methods.check_classes(method, classes, source="three.csv")
        message = str(info.value)
        assert message.startswith(f"three.csv: Only binary classification is supported. Method '{method}'")
        assert "exactly 2 classes; the labels hold 3 classes: [" in message
        assert all(repr(value) in message for value in np.asarray(sorted(values)).tolist())


def _three_class_table(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    return X, np.array(["setosa", "versicolor", "virginica"])[np.arange(n) % 3]


def test_a_binary_method_refuses_three_classes_with_the_classes_found():
    X, y = _three_class_table()
    with pytest.raises(ValueError, match=r"Only binary.*'epgpc'.*3 classes: \['setosa', 'versicolor', 'virginica'\]"):
        XGPClassifier(method="epgpc", max_iter=5).fit(X, y)


def test_a_binary_method_model_refuses_three_classes_and_keeps_its_run():
    model = Model(dataset="moons", n_points=100, n_inducing=10, batch_size=20, method="epgpc")
    model.step(3)
    X, y = _three_class_table()
    with pytest.raises(DataError, match=r"^flowers\.csv: Only binary.*3 classes: \['setosa'"):
        model.set_data(X, y, "flowers.csv")
    assert model.dataset == "moons" and model.iteration == 3 and model.classes.tolist() == [-1, 1]


def test_xgpc_takes_three_string_classes_in_the_estimator_and_the_model():
    X, y = _three_class_table()
    X = X + 3.0 * np.array([[0, 2], [2, -1], [-2, -1]])[np.arange(len(y)) % 3]  # three separated blobs
    clf = XGPClassifier(n_inducing=15, max_iter=200, random_state=0).fit(X, y)
    P = clf.predict_proba(X)
    assert clf.classes_.tolist() == ["setosa", "versicolor", "virginica"] and P.shape == (len(y), 3)
    assert np.allclose(P.sum(axis=1), 1.0) and clf.score(X, y) > 0.95
    model = Model(dataset="moons", n_points=100, n_inducing=10, batch_size=20)
    model.set_data(X, y, "flowers.csv")
    model.step(30)
    assert model.classes.tolist() == ["setosa", "versicolor", "virginica"] and model.iteration == 30


@pytest.mark.parametrize("labels", [["no", "yes"], [1, 2], [-1, 1], [False, True]])
def test_the_faces_map_class_indices_back_to_the_users_labels(labels):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 2))
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)[(X[:, 0] > 0).astype(int)]
    clf = XGPClassifier(n_inducing=10, max_iter=60, random_state=0).fit(X, y)
    assert clf.classes_.tolist() == labels
    P = clf.predict_proba(X)
    np.testing.assert_array_equal(clf.predict(X), np.asarray(labels)[predicted_class(P)])
    assert np.mean(clf.predict(X) == y) > 0.9
    model = Model(dataset="moons", n_points=60, n_inducing=10, batch_size=20)
    model.set_data(X, y, "upload.csv")
    assert model.classes.tolist() == labels and sorted(set(model.y_train.tolist())) == [0, 1]


# ----- (n, K) class probabilities everywhere --------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(LINKS)),
    st.lists(
        st.tuples(st.floats(-1e6, 1e6, allow_nan=False), st.floats(0.0, 1e8, allow_nan=False)), min_size=1, max_size=20
    ),
)
def test_a_links_predictive_is_a_probability_row_per_point(name, moments):
    mean, var = (np.array(column) for column in zip(*moments))
    P = LINKS[name].predictive(mean, var)
    assert P.shape == (len(mean), 2) and LINKS[name].n_classes == 2
    assert np.all((P >= 0) & (P <= 1))
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def _binary_problem(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    return X, (np.sin(2 * X[:, 0]) + X[:, 1] > 0).astype(int)


ENGINES = [("xgpc", {}), ("svgp-adam", {}), ("svgp-natgrad", {"link": "probit"}), ("epgpc", {})]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ENGINES), st.integers(0, 12), st.lists(st.floats(-30, 30), min_size=2, max_size=40))
def test_every_engine_predicts_rows_of_class_probabilities(engine_options, steps, coordinates):
    method, options = engine_options
    X, y = _binary_problem()
    engine = methods.build(method, X, y, X[::5], RBF(1.0), batch_size=10, rng=np.random.default_rng(0), **options)
    engine.step(steps)
    Xs = np.array(coordinates[: len(coordinates) // 2 * 2]).reshape(-1, 2)
    P = engine.predict_proba(Xs)
    assert P.shape == (len(Xs), engine.n_classes) == (len(Xs), 2)
    assert np.all((P >= 0) & (P <= 1))
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_the_gibbs_sampler_and_the_faces_predict_rows_of_class_probabilities():
    X, y = _binary_problem(30)
    sampler = GibbsSampler(X, y, RBF(1.0), rng=np.random.default_rng(0), n_chains=2, burn_in=5, n_samples=20).run()
    model = Model(dataset="moons", n_points=80, n_inducing=10, batch_size=20)
    model.step(20)
    clf = XGPClassifier(n_inducing=10, max_iter=20).fit(X, y)
    for P in (sampler.predict_proba(X), model.predict_proba(model.X_test), clf.predict_proba(X)):
        assert P.ndim == 2 and P.shape[1] == 2
        assert np.all((P >= 0) & (P <= 1))
        np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_engines_refuse_labels_beyond_their_classes():
    X, y = _binary_problem()
    binary = [method for method, (_, most) in methods.CLASS_COUNTS.items() if most == 2]
    for method in binary:  # the K-class methods take {0, 2} as three classes, one of them unseen
        with pytest.raises(DataError, match=r"class indices up to 2, but the (logit|probit) likelihood models 2"):
            methods.build(
                method, X, np.where(y > 0, 2, 0), X[::5], RBF(1.0), batch_size=10, rng=np.random.default_rng()
            )
    with pytest.raises(DataError, match="2 classes"):
        GibbsSampler(X, np.arange(len(y)) % 3, RBF(1.0))


# ----- metrics on (n, K) probabilities ----------------------------------------------------------------------------
def test_metrics_on_three_rows_against_hand_computed_values():
    P = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.25, 0.5, 0.25]])
    y = np.array([0, 2, 0])
    # −(ln 0.7 + ln 0.6 + ln 0.25)/3 = (0.3566749439 + 0.5108256238 + 1.3862943611)/3
    assert negative_log_likelihood(P, y) == pytest.approx(0.7512649763, abs=1e-10)
    assert error_rate(P, y) == pytest.approx(1 / 3)  # argmax 0, 2, 1: the third row is wrong
    binary = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])
    # −(ln 0.8 + ln 0.4 + ln 0.5)/3 = (0.2231435513 + 0.9162907319 + 0.6931471806)/3;
    # the tie counts as class 0 (right here)
    assert negative_log_likelihood(binary, np.array([1, 1, 0])) == pytest.approx(0.6108604879, abs=1e-10)
    assert error_rate(binary, np.array([1, 1, 0])) == pytest.approx(1 / 3)
    assert error_rate(binary, np.array([1, 0, 1])) == 1 / 3  # the tie is class 0: wrong for label 1
    assert negative_log_likelihood(np.array([[1.0, 0.0]]), np.array([1])) == pytest.approx(-math.log(1e-12))


def test_metrics_refuse_a_flat_vector_and_labels_beyond_the_columns():
    with pytest.raises(ValueError, match=r"P \(n, K\) and labels y \(n,\).*P \(3,\)"):
        negative_log_likelihood(np.array([0.2, 0.6, 0.5]), np.array([1, 1, 0]))
    with pytest.raises(ValueError, match=r"class indices 0…1; row 2 holds 2"):
        error_rate(np.full((3, 2), 0.5), np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"row 1 holds -1"):
        error_rate(np.full((3, 2), 0.5), np.array([0, -1, 1]))


# ----- the SVGP's likelihood from the seam ---------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["svgp-adam", "svgp-natgrad"])
def test_the_probit_svgp_predicts_and_bounds_by_brute_force_quadrature(method):
    X, y = _binary_problem(12, seed=3)
    engine = methods.build(
        method, X, y, X[::3], RBF(0.9, 1.5, 1e-4), batch_size=12, rng=np.random.default_rng(0), link="probit"
    )
    engine.step(30)
    assert engine.link is LINKS["probit"]
    Xs = np.random.default_rng(4).normal(size=(5, 2)) * 2
    mean, var = engine.predict_latent(Xs)
    brute = [
        integrate.quad(lambda f: stats.norm.cdf(f) * stats.norm.pdf(f, m, math.sqrt(v)), -np.inf, np.inf, epsabs=1e-13)[
            0
        ]
        for m, v in zip(mean, var)
    ]
    np.testing.assert_allclose(engine.predict_proba(Xs)[:, 1], brute, rtol=1e-9, atol=1e-12)
    # the bound: Σ_i E_{N(f|a_i, v_i)}[log Φ(y_i f)] − KL, the expectations by adaptive quadrature
    a, v = engine.marginals(engine.kernel.cross(X, engine.Z))
    expected = sum(
        integrate.quad(lambda f: stats.norm.logcdf(s * f) * stats.norm.pdf(f, m, math.sqrt(w)), -np.inf, np.inf)[0]
        for s, m, w in zip(2.0 * y - 1.0, a, v)
    )
    assert engine.elbo() == pytest.approx(expected - engine.kl(), rel=1e-8)


def test_the_link_is_a_method_option_read_from_the_likelihood_seam():
    X, y = _binary_problem()
    build = lambda link: methods.build(  # noqa: E731
        "svgp-natgrad", X, y, X[::5], RBF(1.0), batch_size=10, rng=np.random.default_rng(0), link=link
    )
    logit, probit = build("logit"), build("probit")
    default = methods.build("svgp-adam", X, y, X[::5], RBF(1.0), batch_size=10, rng=np.random.default_rng())
    assert default.link is LINKS["logit"]
    logit.step(20)
    probit.step(20)
    assert not np.allclose(logit.predict_proba(X), probit.predict_proba(X))  # the link reaches the training
    with pytest.raises(ValueError, match=r"link must be one of \['logit', 'probit'\], got 'cauchit'"):
        build("cauchit")
    with pytest.raises(ValueError, match="saved with the 'probit' link, this engine uses 'logit'"):
        build("logit").load_state_dict(probit.state_dict())
