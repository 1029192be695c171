"""`XGPClassifier`: X-GPC as a scikit-learn estimator (binary classification; passes `check_estimator`).

Inputs are standardised with the training statistics; inducing points are chosen by k-means++ on them and fixed;
training is the shared loop (`explorer.training.Trainer`) until scikit-learn-style early stopping on a held-out
share of the rows (or a chosen convergence rule) fires, or `max_iter`.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from explorer import methods, recipe
from explorer.convergence import no_improvement_criterion
from explorer.inputs import fitted_standardizer, standardised
from explorer.kernels import KERNELS, LENGTHSCALE_LIMITS, Kernel, initial_kernel
from explorer.schedules import DEFAULT_STEP_RULES
from explorer.training import CONVERGENCE_RULES

_STEPS = DEFAULT_STEP_RULES["xgpc"]
METHODS = ("xgpc", "epgpc")
"""The methods the estimator offers (X-GPC, the default, and the paper's EP competitor)."""
AUTO_EARLY_STOPPING_ROWS = 500
"""Rows from which `early_stopping="auto"` turns early stopping on (a tenth held out then has ≥ 50 rows)."""


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
        ℓ lies within [1e-50, 1e100] (`kernels.LENGTHSCALE_LIMITS`: below it the squared distances overflow float64),
        σ² and γ within (0, 1e100).
    ard : one lengthscale per feature (all starting at `lengthscale`).
    step_size : the natural-gradient step-size rule: "robbins-monro" (default) ρ_t = (t + tau)^−kappa, "adaptive"
        (Ranganath et al. 2013, the paper's choice), "constant" (ρ = rho), or a rule object from
        `explorer.schedules` (copied, never advanced itself).
    rho, tau, kappa : the constant step ρ and the Robbins–Monro τ, κ; defaults are X-GPC's row of
        `schedules.DEFAULT_STEP_RULES` (ρ = 0.5, τ = 10, κ = 0.6). Ignored for a rule they do not belong to.
    hyper_learning_rate : Adam learning rate.
    early_stopping : "auto" (default), True or False: scikit-learn's early stopping. On, `fit` holds out
        `validation_fraction` of the rows (drawn with `random_state`), evaluates their NLL every `eval_every`
        iterations and stops once it has not beaten its best by more than `tol` for `n_iter_no_change` consecutive
        evaluations (`convergence.NoImprovement`; `max_iter` stays the cap and `converged_` says whether the rule
        fired). "auto" turns it on when `convergence` is None and there are at least `AUTO_EARLY_STOPPING_ROWS`
        (500) training rows; below that, or with False, `fit` runs `max_iter` iterations on all rows.
    validation_fraction : share of the rows held out for early stopping (and for an explicit `convergence` rule,
        where 0 evaluates on the training rows); `history_`'s test_nll/test_error are on these rows.
    n_iter_no_change, tol : the early-stopping patience (evaluations) and improvement (nats per point).
    convergence : None (default: `early_stopping` decides) or one of the Trainer's rules, which replaces early
        stopping (with early_stopping=True it is refused): "parameters" (paper's X-GPC rule; it measures
        ρ‖λ̂ − η‖/‖η‖, so under the Robbins–Monro default it fires late and `max_iter` usually ends the fit),
        "holdout" (paper's hold-out NLL rule; needs validation_fraction > 0 to mean what it says),
        "no-improvement" (the early-stopping rule) or "none" (run `max_iter`).
    eval_every : iterations between history rows.
    method : "xgpc" (default) or "epgpc", the scalable-EP competitor of the paper (probit link, stochastic EP with
        tied sites; `explorer.epgpc`): the step-size options then set its SEP step ε, and `history_`'s "elbo" is
        EP's log-evidence estimate (not a bound).

    Parameters are checked at `fit` (scikit-learn's InvalidParameterError, a ValueError, naming the parameter).
    Feature values beyond ±1e100, in the input units or after standardisation, raise DataError (a ValueError)
    naming the row and column (`explorer.inputs.FEATURE_LIMIT`).

    Attributes
    ----------
    classes_, n_features_in_, n_iter_, history_ (list of dicts: iteration, seconds, elbo, test_nll, test_error,
    rho, lengthscale (geometric mean under ARD), variance, and with ARD lengthscale_1 … lengthscale_d), kernel_ (the
    learned kernel), engine_ (the fitted `explorer.xgpc.XGPC`, or `explorer.epgpc.EPGPC`), inducing_points_ (m, d)
    in input units, converged_.
    """

    _parameter_constraints = {
        "n_inducing": [Interval(numbers.Integral, 1, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 0, None, closed="left")],
        "learn_hyperparameters": ["boolean"],
        "random_state": ["random_state", np.random.Generator],
        "lengthscale": [Interval(numbers.Real, *LENGTHSCALE_LIMITS, closed="both")],
        "variance": [Interval(numbers.Real, 0, 1e100, closed="neither")],
        "nugget": [Interval(numbers.Real, 0, 1e100, closed="neither")],
        "step_size": [StrOptions({"robbins-monro", "adaptive", "constant"}), HasMethods(["rate", "state_dict"])],
        "rho": [Interval(numbers.Real, 0, 1, closed="right")],
        "tau": [Interval(numbers.Real, 1, None, closed="left")],
        "kappa": [Interval(numbers.Real, 0.5, 1, closed="right")],
        "hyper_learning_rate": [Interval(numbers.Real, 0, 1e100, closed="neither")],
        "early_stopping": [StrOptions({"auto"}), "boolean"],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="left")],
        "n_iter_no_change": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "convergence": [None, StrOptions(set(CONVERGENCE_RULES))],
        "eval_every": [Interval(numbers.Integral, 1, None, closed="left")],
        "ard": ["boolean"],
        "kernel": [None, StrOptions(set(KERNELS)), Kernel],
        "method": [StrOptions(set(METHODS))],
    }

    def __init__(
        self,
        n_inducing: int = 100,
        batch_size: int = 100,
        max_iter: int = 2000,
        learn_hyperparameters: bool = True,
        random_state=None,
        lengthscale: float = 1.0,
        variance: float = 1.0,
        nugget: float = 1e-4,
        step_size=_STEPS.rule,
        rho: float = _STEPS.rho,
        tau: float = _STEPS.tau,
        kappa: float = _STEPS.kappa,
        hyper_learning_rate: float = 0.01,
        early_stopping="auto",
        validation_fraction: float = 0.1,
        n_iter_no_change: int = 5,
        tol: float = 1e-4,
        convergence: str | None = None,
        eval_every: int = 50,
        ard: bool = False,
        kernel=None,
        method: str = "xgpc",
    ):
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
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.convergence = convergence
        self.eval_every = eval_every
        self.ard = ard
        self.kernel = kernel
        self.method = method

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ----- fitting ---------------------------------------------------------------------------------------------
    def _encode(self, y) -> np.ndarray:
        """The user's labels y (n,) as class indices: classes_[k] ↦ k."""
        return np.searchsorted(self.classes_, y)

    def _check_y(self, y, classes=None):
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        present = np.unique(y)
        classes = present if classes is None else np.unique(classes)
        methods.check_classes(self.method, classes)
        unknown = np.setdiff1d(present, classes)
        if len(unknown):
            raise ValueError(f"y has labels {unknown.tolist()} outside classes {classes.tolist()}")
        return y, classes

    def fit(self, X, y):
        """Fit on X (n, d), y (n,) with as many classes as the method supports (`methods.CLASS_COUNTS`: 2 for every
        method here); returns self."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        y, self.classes_ = self._check_y(y)
        rule = self._stopping_rule(len(X))
        self._start(
            X,
            self._encode(y),
            _generator(self.random_state),
            rule,
            hold_out=rule != "none" or self.convergence is not None,
        )
        self.trainer_.run(max_iter=self.max_iter, stop_at_convergence=rule != "none")
        return self._finish()

    def _stopping_rule(self, n: int) -> str:
        """The Trainer's convergence rule for a fit on n rows: `convergence` if given, else "no-improvement" when
        early stopping is on, else "none"."""
        if self.convergence is not None:
            if self.early_stopping is True:
                raise ValueError(
                    f"early_stopping=True and convergence={self.convergence!r} name two stopping "
                    f"rules; set convergence=None to stop early, or early_stopping='auto' or False"
                )
            return self.convergence
        on = self.early_stopping is True or (self.early_stopping == "auto" and n >= AUTO_EARLY_STOPPING_ROWS)
        if on and self.validation_fraction == 0:
            raise ValueError(
                "early stopping needs validation_fraction > 0 (the rows whose NLL it watches); "
                "set validation_fraction or early_stopping=False"
            )
        return "no-improvement" if on else "none"

    def partial_fit(self, X, y, classes=None):
        """One pass of ⌈len(X)/batch_size⌉ SVI iterations after adding the rows (X, y) to the data seen so far.

        The rows seen are kept (O(n·d) memory, never n×m) so the likelihood scaling n/s stays that of all data seen;
        the first call fixes the standardisation and the inducing points from its rows and needs `classes` unless
        its y holds both classes. Nothing is held out and nothing stops early (as in scikit-learn's SGDClassifier):
        the caller decides how many passes to make."""
        first = not hasattr(self, "engine_")
        if first:
            self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        if first:
            y, self.classes_ = self._check_y(y, classes)
            self._start(X, self._encode(y), _generator(self.random_state), self.convergence or "none", hold_out=False)
        else:
            y, _ = self._check_y(y, self.classes_)
            X_seen = np.vstack([self.engine_.X, self._standardise(X)])
            y_seen = np.concatenate([self.engine_.y, self._encode(y)])
            self.engine_.set_training_data(X_seen, y_seen)
        self.trainer_.step(-(-len(X) // min(self.batch_size, self.engine_.n)))
        return self._finish()

    def _standardise(self, X: np.ndarray) -> np.ndarray:
        """(X − mean)/sd with the training statistics, X within ±1e100 before and after (DataError otherwise)."""
        return standardised(self.scaler_, X)

    def _start(self, X: np.ndarray, y: np.ndarray, rng: np.random.Generator, rule: str, hold_out: bool) -> None:
        """Standardise with all of X's statistics (X within ±1e100 before and after), hold out the validation rows
        if `hold_out`, then the run recipe (inducing points, the method, Trainer with convergence `rule`), all
        randomness from `rng`."""
        scaler = fitted_standardizer(X)
        X_fit, y_fit, X_eval, y_eval = X, y, X, y
        if hold_out and self.validation_fraction > 0:
            held = rng.random(len(X)) < self.validation_fraction
            if held.all() or not held.any():
                raise ValueError(
                    f"validation_fraction={self.validation_fraction} leaves no training or no "
                    f"validation rows among {len(X)}"
                )
            X_fit, y_fit, X_eval, y_eval = X[~held], y[~held], X[held], y[held]
        kernel = initial_kernel(
            self.kernel,
            X.shape[1],
            lengthscale=self.lengthscale,
            variance=self.variance,
            nugget=self.nugget,
            ard=self.ard,
        )
        run = recipe.start_run(
            self.method,
            X_fit,
            y_fit,
            X_eval,
            y_eval,
            kernel,
            scaler=scaler,
            n_inducing=self.n_inducing,
            inducing_rng=rng,
            engine_rng=rng,
            evaluation_rng=rng,
            batch_size=self.batch_size,
            eval_every=self.eval_every,
            convergence=rule,
            options={
                "step_size": self.step_size,
                "rho": self.rho,
                "tau": self.tau,
                "kappa": self.kappa,
                "learn_hyperparameters": self.learn_hyperparameters,
                "hyper_learning_rate": self.hyper_learning_rate,
            },
            no_improvement=no_improvement_criterion(self.n_iter_no_change, self.tol),
        )
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
        return self.engine_.predict_latent(self._standardise(X))

    def predict_proba(self, X) -> np.ndarray:
        """(n, K): column k p(classes_[k]); binary: p(classes_[1]) = ∫σ(f)N(f|μ*, σ*²)df (EPGPC: Φ(μ*/√(1 + σ*²))),
        column 0 its complement. Finite in [0, 1], rows summing to 1 (a diverged model raises NumericalError
        instead)."""
        check_is_fitted(self, "engine_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.engine_.predict_proba(self._standardise(X))

    def decision_function(self, X) -> np.ndarray:
        """(n,): log-odds log p/(1 − p) of classes_[1]; positive means classes_[1]."""
        p = np.clip(self.predict_proba(X)[:, 1], 1e-300, 1.0)
        return np.log(p) - np.log1p(-np.minimum(p, 1.0 - 1e-16))

    def predict(self, X) -> np.ndarray:
        """(n,): the most probable class (a tie goes to the first of `classes_`)."""
        check_is_fitted(self, "engine_")
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance of q(f*) at X: (n,), (n,)."""
        return self._latent(X)
