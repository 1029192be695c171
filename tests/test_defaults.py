"""Defaults that work at any dimension (issue 29.2): ℓ₀ = √(d/2) when none is given, early stopping that waits
for the kernel to have a chance to move, and a warning in every face when a fit ends no better than chance."""

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from explorer import XGPClassifier
from explorer.convergence import NoImprovement
from explorer.dashboard import Dashboard
from explorer.estimator import NoBetterThanChanceWarning
from explorer.kernels import RBF
from explorer.metrics import chance_note, class_prior_nll, negative_log_likelihood
from explorer.model import Model
from explorer.training import kernel_steps_to_move


def bernoulli_set(n: int, d: int, classes: int, informative: int, seed: int):
    """n rows of d 0/1 features, labels uniform over `classes`: feature j is 1 with probability p_j (drawn in
    0.2…0.8), except `informative` features whose probability depends on the class (drawn in 0.1…0.9 per class)."""
    rng = np.random.default_rng(seed)
    p = np.tile(rng.uniform(0.2, 0.8, d), (classes, 1))
    columns = rng.choice(d, informative, replace=False)
    p[:, columns] = rng.uniform(0.1, 0.9, (classes, informative))
    y = rng.integers(classes, size=n)
    return (rng.random((n, d)) < p[y]).astype(float), y


def standardised(X):
    return (X - X.mean(0)) / X.std(0)


# ----- ℓ₀ from the dimension ----------------------------------------------------------------------------------------
def test_the_initial_lengthscale_is_root_half_d_unless_the_user_gives_one():
    X, y = bernoulli_set(400, 12, 2, 4, seed=3)
    start = XGPClassifier(max_iter=1, early_stopping=False, random_state=0).fit(X, y)
    assert start.history_[0]["lengthscale"] == pytest.approx(math.sqrt(6), rel=1e-12)
    given = XGPClassifier(max_iter=1, early_stopping=False, random_state=0, options={"lengthscale": 2.5}).fit(X, y)
    assert given.history_[0]["lengthscale"] == 2.5
    kernel = XGPClassifier(max_iter=1, early_stopping=False, random_state=0, kernel=RBF(0.7)).fit(X, y)
    assert kernel.history_[0]["lengthscale"] == 0.7
    model = Model(dataset="moons", n_points=200, n_inducing=10)
    assert model.engine.kernel.mean_lengthscale == 1.0  # in two dimensions, ℓ₀ = 1 as it always was
    model.lengthscale = 1.5
    assert model.engine.kernel.mean_lengthscale == 1.5


def test_the_default_prior_correlates_points_at_180_features_where_lengthscale_one_is_white_noise():
    X, y = bernoulli_set(300, 180, 2, 30, seed=1)
    Z = standardised(X)
    off_diagonal = ~np.eye(len(Z), dtype=bool)
    default = XGPClassifier(max_iter=1, early_stopping=False, random_state=0).fit(X, y).engine_.kernel
    one = RBF(1.0, 1.0, default.nugget)
    # the prior correlation k(x, x')/σ² of two training rows, by the RBF's formula exp(−‖x − x'‖²/2ℓ²)
    squared = np.sum((Z[:, None, :] - Z[None, :, :]) ** 2, axis=2)[off_diagonal]
    assert np.median(np.exp(-squared / (2 * default.mean_lengthscale**2))) > np.exp(-3)
    assert np.median(np.exp(-squared / 2)) < 1e-30
    assert np.median(default.gram(Z)[off_diagonal]) > np.exp(-3) and np.median(one.gram(Z)[off_diagonal]) < 1e-30


@pytest.mark.parametrize("classes, nll_share", [(2, 0.5), (3, 0.8)])
def test_a_set_of_180_zero_one_features_is_learned_with_the_defaults(classes, nll_share):
    """With ℓ₀ = 1 on 180 standardised features the kernel is ≈ e^(−180) between points (white noise) and the fit
    was a coin toss, binary and multi-class (NLL log K); with ℓ₀ = √(d/2) (and, for K = 3, the joint q(λ, n)) it
    learns."""
    X, y = bernoulli_set(1200, 180, classes, 30, seed=0)
    train, test = slice(0, 900), slice(900, None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoBetterThanChanceWarning)
        clf = XGPClassifier(random_state=0).fit(X[train], y[train])
    P = clf.predict_proba(X[test])
    majority = np.bincount(y[test]).max() / len(y[test])
    assert np.mean(clf.predict(X[test]) == y[test]) > majority + 0.2
    assert negative_log_likelihood(P, y[test]) < nll_share * class_prior_nll(y[test], classes)


# ----- early stopping waits for the kernel ---------------------------------------------------------------------
def test_early_stopping_does_not_fire_before_the_kernel_has_had_its_steps():
    X, y = bernoulli_set(1200, 180, 2, 30, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoBetterThanChanceWarning)  # ℓ₀ = 1 forced: the coin toss of old
        clf = XGPClassifier(random_state=0, options={"lengthscale": 1.0}).fit(X, y)
    engine = clf.engine_
    needed = kernel_steps_to_move(engine)
    assert needed == math.ceil(1 / engine.hyper_optimizer.learning_rate)
    assert clf.converged_ and clf.n_iter_ < clf.max_iter
    assert engine.hyper_optimizer.t >= needed
    assert clf.n_iter_ >= needed * engine.hyper_every
    # without the wait, scikit-learn's rule on the same validation NLLs would have stopped earlier
    rule = NoImprovement(clf.n_iter_no_change, clf.tol)
    fired = [row["iteration"] for row in clf.history_ if rule.update(row["test_nll"])]
    assert fired and fired[0] < needed * engine.hyper_every


# ----- the warning in every face -------------------------------------------------------------------------------
def test_class_prior_nll_is_the_best_constant_prediction():
    y = np.array([0] * 5 + [1] * 3 + [2] * 2)
    shares = np.array([0.5, 0.3, 0.2])
    assert class_prior_nll(y, 3) == pytest.approx(-(0.5 * math.log(0.5) + 0.3 * math.log(0.3) + 0.2 * math.log(0.2)))
    assert class_prior_nll(y, 3) == pytest.approx(negative_log_likelihood(np.tile(shares, (10, 1)), y))
    for other in np.random.default_rng(0).dirichlet(np.ones(3), size=50):
        assert negative_log_likelihood(np.tile(other, (10, 1)), y) > class_prior_nll(y, 3)
    assert chance_note(class_prior_nll(y, 3) * 0.99, y, 3) is not None
    assert chance_note(class_prior_nll(y, 3) * 0.9, y, 3) is None
    assert chance_note(0.5, np.zeros(4, dtype=int), 2) is None  # one class: nothing to be better than


def noise_labels(n=600, d=3, seed=4):
    """Labels drawn independently of the features: no classifier can beat chance on new rows."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.integers(2, size=n)


def test_the_estimator_warns_when_a_fit_ends_no_better_than_chance():
    X, y = noise_labels()
    with pytest.warns(NoBetterThanChanceWarning, match="No better than chance") as caught:
        XGPClassifier(random_state=0, n_inducing=20).fit(X, y)
    assert issubclass(caught[0].category, ConvergenceWarning)


def test_the_model_says_so_in_its_status_when_a_fit_ends_no_better_than_chance():
    X, y = noise_labels()
    model = Model(n_inducing=20)
    model.set_data(X, y)
    assert model.chance == ""
    model.run(max_iter=300)
    assert model.chance.startswith("No better than chance") and model.chance in model.status
    learnable = Model(dataset="moons", n_points=200, n_inducing=20)
    learnable.run(max_iter=300)
    assert learnable.chance == "" and "chance" not in learnable.status


def test_the_train_tab_shows_the_warning_when_the_run_converged_at_chance():
    X, y = noise_labels()
    model = Model(n_inducing=20, eval_every=5)
    model.set_data(X, y)
    dash = Dashboard(model)
    try:
        model.run(max_iter=5000)  # until the paper's convergence rule holds
        assert model.converged
        dash.refresh(force_surface=True)
        assert "No better than chance" in dash.train.status.value
        # the tab's own line, whatever the model's last event says
        dash.train.show_status(model.iteration, "Something else happened.", True, model.trainer)
        assert "No better than chance" in dash.train.status.value
        dash.train.show_status(model.iteration, "Something else happened.", False, model.trainer)
        assert "No better than chance" not in dash.train.status.value
    finally:
        dash.close()
