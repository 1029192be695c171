"""`XGPClassifier`: X-GPC as a scikit-learn estimator (binary classification; passes `check_estimator`).

Inputs are standardised with the training statistics; inducing points are chosen by k-means++ on them and fixed;
training is the shared loop (`explorer.training.Trainer`) until the paper's convergence criterion or `max_iter`.
"""
from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from explorer import recipe
from explorer.datasets import Standardizer
from explorer.kernels import initial_kernel
from explorer.schedules import DEFAULT_STEP_RULES

_STEPS = DEFAULT_STEP_RULES["xgpc"]


def _generator(random_state) -> np.random.Generator:
    """numpy Generator from None, an int, a Generator or a legacy RandomState."""
    if random_state is None or isinstance(random_state, (numbers.Integral, np.random.Generator)):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    raise ValueError(f"random_state must be None, an int, a Generator or a RandomState, got {random_state!r}")


class XGPClassifier(ClassifierMixin, BaseEstimator):
    """Pólya-Gamma augmented sparse variational GP classifier (X-GPC; Wenzel et al., AAAI 2019).

    Parameters
    ----------
    n_inducing : int, m inducing points (k-means++ on the standardised inputs, fixed); clamped to the number of
        distinct training rows with a warning.
    batch_size : int, minibatch size s; clamped to n with a warning.
    max_iter : int, most SVI iterations per `fit`.
    learn_hyperparameters : bool, Adam on (log ℓ, log σ²) alternating with the natural-gradient steps.
    random_state : None, int or numpy Generator; drives the inducing points and the minibatches.
    kernel : None (RBF), a family name ("rbf", "matern12", "matern32", "matern52"; `explorer.kernels.KERNELS`) or
        an `explorer.kernels.Kernel` object. A name takes `lengthscale`, `variance`, `nugget` and `ard` below; an
        object brings its own initial parameters (in standardised units) and is copied, never changed: the learned
        kernel is `kernel_`.
    lengthscale, variance, nugget : initial lengthscale (standardised units) and variance; nugget γ (fixed).
    ard : one lengthscale per feature (all starting at `lengthscale`).
    step_size : the natural-gradient step-size rule: "robbins-monro" (default) ρ_t = (t + tau)^−kappa, "adaptive"
        (Ranganath et al. 2013, the paper's choice), "constant" (ρ = rho), or a rule object from
        `explorer.schedules` (copied, never advanced itself).
    rho, tau, kappa : the constant step ρ and the Robbins–Monro τ, κ; defaults are X-GPC's row of
        `schedules.DEFAULT_STEP_RULES` (ρ = 0.5, τ = 10, κ = 0.6). Ignored for a rule they do not belong to.
    hyper_learning_rate : Adam learning rate.
    convergence : "parameters" (paper's X-GPC rule; it measures ρ‖λ̂ − η‖/‖η‖, so under the Robbins–Monro default
        it fires late and `max_iter` usually ends the fit), "holdout" (hold-out NLL rule; needs
        validation_fraction > 0 to mean what it says) or "none" (run `max_iter`).
    validation_fraction : share of the training rows held out for `history_`'s test_nll/test_error and the hold-out
        rule; 0 evaluates on the training rows.
    eval_every : iterations between history rows.

    Attributes
    ----------
    classes_, n_features_in_, n_iter_, history_ (list of dicts: iteration, seconds, elbo, test_nll, test_error,
    rho, lengthscale (geometric mean under ARD), variance, and with ARD lengthscale_1 … lengthscale_d), kernel_ (the
    learned kernel), engine_ (the fitted `explorer.xgpc.XGPC`), inducing_points_ (m, d) in input units,
    converged_.
    """

    def __init__(self, n_inducing: int = 100, batch_size: int = 100, max_iter: int = 2000,
                 learn_hyperparameters: bool = True, random_state=None, lengthscale: float = 1.0,
                 variance: float = 1.0, nugget: float = 1e-4, step_size=_STEPS.rule, rho: float = _STEPS.rho,
                 tau: float = _STEPS.tau, kappa: float = _STEPS.kappa, hyper_learning_rate: float = 0.01,
                 convergence: str = "parameters", validation_fraction: float = 0.0, eval_every: int = 50,
                 ard: bool = False, kernel=None):
        self.n_inducing = n_inducing
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.learn_hyperparameters = learn_hyperparameters
        self.random_state = random_state
        self.lengthscale = lengthscale
        self.variance = variance
        self.nugget = nugget
        self.step_size = step_size
        self.rho = rho
        self.tau = tau
        self.kappa = kappa
        self.hyper_learning_rate = hyper_learning_rate
        self.convergence = convergence
        self.validation_fraction = validation_fraction
        self.eval_every = eval_every
        self.ard = ard
        self.kernel = kernel

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ----- fitting ---------------------------------------------------------------------------------------------
    def _encode(self, y) -> np.ndarray:
        return np.where(y == self.classes_[1], 1.0, -1.0)

    def _check_y(self, y, classes=None):
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        present = np.unique(y)
        classes = present if classes is None else np.unique(classes)
        if len(classes) != 2:
            raise ValueError(f"Only binary classification is supported: XGPClassifier needs exactly 2 classes, "
                             f"got {len(classes)} class(es): {classes.tolist()}")
        unknown = np.setdiff1d(present, classes)
        if len(unknown):
            raise ValueError(f"y has labels {unknown.tolist()} outside classes {classes.tolist()}")
        return y, classes

    def fit(self, X, y):
        """Fit on X (n, d), y (n,) with two classes; returns self."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        y, self.classes_ = self._check_y(y)
        rng = _generator(self.random_state)
        self._start(X, self._encode(y), rng)
        self.trainer_.run(max_iter=self.max_iter, stop_at_convergence=self.convergence != "none")
        return self._finish()

    def partial_fit(self, X, y, classes=None):
        """One pass of ⌈len(X)/batch_size⌉ SVI iterations after adding the rows (X, y) to the data seen so far.

        The rows seen are kept (O(n·d) memory, never n×m) so the likelihood scaling n/s stays that of all data seen;
        the first call fixes the standardisation and the inducing points from its rows and needs `classes` unless
        its y holds both classes."""
        first = not hasattr(self, "engine_")
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        if first:
            y, self.classes_ = self._check_y(y, classes)
            self._start(X, self._encode(y), _generator(self.random_state))
        else:
            y, _ = self._check_y(y, self.classes_)
            X_seen = np.vstack([self.engine_.X, self.scaler_.transform(X)])
            y_seen = np.concatenate([self.engine_.y, self._encode(y)])
            self.engine_.set_training_data(X_seen, y_seen)
        self.trainer_.step(-(-len(X) // min(self.batch_size, self.engine_.n)))
        return self._finish()

    def _start(self, X: np.ndarray, y_pm1: np.ndarray, rng: np.random.Generator) -> None:
        """Standardise with all of X's statistics, hold out the validation rows, then the run recipe (inducing
        points, X-GPC, Trainer), all randomness from `rng`."""
        scaler = Standardizer().fit(X)
        X_fit, y_fit, X_eval, y_eval = X, y_pm1, X, y_pm1
        if self.validation_fraction > 0:
            held = rng.random(len(X)) < self.validation_fraction
            if held.all() or not held.any():
                raise ValueError(f"validation_fraction={self.validation_fraction} leaves no training or no "
                                 f"validation rows among {len(X)}")
            X_fit, y_fit, X_eval, y_eval = X[~held], y_pm1[~held], X[held], y_pm1[held]
        kernel = initial_kernel(self.kernel, X.shape[1], lengthscale=self.lengthscale, variance=self.variance,
                                nugget=self.nugget, ard=self.ard)
        run = recipe.start_run(
            "xgpc", X_fit, y_fit, X_eval, y_eval, kernel, scaler=scaler,
            n_inducing=self.n_inducing, inducing_rng=rng, engine_rng=rng, evaluation_rng=rng,
            batch_size=self.batch_size, eval_every=self.eval_every, convergence=self.convergence,
            options={"step_size": self.step_size, "rho": self.rho, "tau": self.tau, "kappa": self.kappa,
                     "learn_hyperparameters": self.learn_hyperparameters,
                     "hyper_learning_rate": self.hyper_learning_rate})
        self.scaler_, self.engine_, self.trainer_ = run.scaler, run.engine, run.trainer

    def _finish(self):
        self.n_iter_ = int(self.engine_.iteration)
        self.history_ = list(self.trainer_.history.rows)
        self.converged_ = bool(self.trainer_.converged)
        self.inducing_points_ = self.scaler_.inverse_transform(self.engine_.Z)
        self.kernel_ = self.engine_.kernel
        return self

    # ----- prediction ------------------------------------------------------------------------------------------
    def _latent(self, X):
        check_is_fitted(self, "engine_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.engine_.predict_latent(self.scaler_.transform(X))

    def predict_proba(self, X) -> np.ndarray:
        """(n, 2): columns p(classes_[0]), p(classes_[1]) = ∫σ(f)N(f|μ*, σ*²)df."""
        check_is_fitted(self, "engine_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        p = self.engine_.predict_proba(self.scaler_.transform(X))
        return np.column_stack([1.0 - p, p])

    def decision_function(self, X) -> np.ndarray:
        """(n,): log-odds log p/(1 − p) of classes_[1]; positive means classes_[1]."""
        p = np.clip(self.predict_proba(X)[:, 1], 1e-300, 1.0)
        return np.log(p) - np.log1p(-np.minimum(p, 1.0 - 1e-16))

    def predict(self, X) -> np.ndarray:
        """(n,): the more probable class."""
        check_is_fitted(self, "engine_")
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]

    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance of q(f*) at X: (n,), (n,)."""
        return self._latent(X)
