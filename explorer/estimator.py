"""`XGPClassifier`: X-GPC as a scikit-learn estimator, a face over a headless `explorer.run.Run` (passes
`check_estimator` with its multi-class checks)."""

from __future__ import annotations

import inspect
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, InvalidParameterError, Options, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from explorer import methods, settings
from explorer.convergence import NoImprovement
from explorer.data.datasets import split_source, train_test_split
from explorer.data.sources import training_source
from explorer.metrics import predicted_class
from explorer.run import Run, seed_from, streams
from explorer.sources import encoded_source
from explorer.training import CONVERGENCE_RULES
from explorer.validation import comparable_labels, encode_labels


class NoBetterThanChanceWarning(ConvergenceWarning):
    """A fit ended no better than chance: its NLL on the rows it was evaluated on (the held-out share, or the
    training rows when nothing is held out) is within `metrics.CHANCE_MARGIN` of the class prior's."""


AUTO_EARLY_STOPPING_ROWS = 500
"""Rows from which `early_stopping="auto"` turns early stopping on (a tenth held out then has ≥ 50 rows)."""

RUN_SETTINGS = tuple(name for name, setting in settings.SETTINGS.items() if setting.group != "data")
"""The declared run settings (`explorer.settings`) the estimator takes: all but the data group, whose roles `fit`'s
X, y, `validation_fraction` (the held-out share) and `random_state` (the seed) play."""
PARAMETER_SETTINGS = ("method", "kernel", "n_inducing", "batch_size", "step_size", "learn_hyperparameters")
"""The run settings that are parameters of their own: what a user of a GP classifier chooses (with the stopping
parameters, `FIT_PARAMETERS`)."""
OPTION_SETTINGS = tuple(name for name in RUN_SETTINGS if name not in PARAMETER_SETTINGS)
"""The further run settings, given by name in the one `options` mapping and checked by their declaration."""
OPTION_DEFAULTS = {**{name: settings.DEFAULTS[name] for name in OPTION_SETTINGS}, "eval_every": 50}
"""The options' defaults: the declared ones, but the estimator evaluates every 50 iterations (not 10), so that early
stopping's patience of `n_iter_no_change` evaluations spans 250 iterations and a fit spends little time evaluating."""
FIT_PARAMETERS = {
    "max_iter": (2000, [Interval(numbers.Integral, 0, None, closed="left")]),
    "random_state": (None, ["random_state", np.random.Generator]),
    "early_stopping": ("auto", [StrOptions({"auto"}), "boolean"]),
    "validation_fraction": (0.1, [Interval(numbers.Real, 0, 1, closed="left")]),
    "n_iter_no_change": (5, [Interval(numbers.Integral, 1, None, closed="left")]),
    "tol": (1e-4, [Interval(numbers.Real, 0, None, closed="left")]),
    "convergence": (None, [None, StrOptions(set(CONVERGENCE_RULES))]),
    "options": (None, [dict, None]),
}
"""The estimator's own parameters (how a fit stops and what it holds out): default and constraints."""


class _Declared(Options):
    """A scikit-learn constraint checked and said by a setting's declaration (`Setting.check`,
    `Setting.requirement`): the same rule and words as the Model, links and benchmark flags (a bool is no number)."""

    def __init__(self, setting: settings.Setting):
        super().__init__(object, set())
        self.setting = setting

    def is_satisfied_by(self, val) -> bool:
        try:
            self.setting.check(val)
        except ValueError:
            return False
        return True

    def __str__(self) -> str:
        return self.setting.requirement()


def checked_options(options: dict | None) -> dict:
    """Every option (`OPTION_SETTINGS`): those in `options`, each checked by its declaration (`Setting.check`), and
    the defaults (`OPTION_DEFAULTS`) for the rest. An unknown name or a bad value raises scikit-learn's
    InvalidParameterError (a ValueError) naming the option and the value."""
    options = {} if options is None else options
    unknown = sorted(set(options) - set(OPTION_SETTINGS), key=str)
    if unknown:
        own = [name for name in unknown if name in _DEFAULTS]
        hint = f" ({', '.join(map(str, own))}: a parameter of its own, not an option)" if own else ""
        raise InvalidParameterError(
            f"XGPClassifier's options hold unknown names {unknown}{hint}; the options are {', '.join(OPTION_SETTINGS)}"
        )
    for name, value in options.items():
        try:
            settings.SETTINGS[name].check(value)
        except ValueError as err:
            raise InvalidParameterError(f"XGPClassifier's options[{name!r}]: {err}") from None
    return {**OPTION_DEFAULTS, **options}


_DEFAULTS = {
    **{name: settings.DEFAULTS[name] for name in PARAMETER_SETTINGS},
    **{name: default for name, (default, _) in FIT_PARAMETERS.items()},
}


def _init(self, **params):
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise TypeError(f"XGPClassifier got unknown parameters {unknown}; its parameters are {sorted(_DEFAULTS)}")
    for name, default in _DEFAULTS.items():
        setattr(self, name, params.get(name, default))


_init.__signature__ = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=value) for name, value in _DEFAULTS.items()]
)
_init.__doc__ = "Store the parameters (keyword only; the defaults in the signature). Checked at `fit`."


class XGPClassifier(ClassifierMixin, BaseEstimator):
    """Pólya-Gamma augmented sparse variational GP classifier (X-GPC; Wenzel et al., AAAI 2019), or another method
        of `explorer.methods` (`method`).

        Its parameters are what a user of a GP classifier chooses, how a fit stops and its seed; every further run
        setting (but the data group's) is reachable by name in the one `options` mapping, checked by the same
        declarations as every face (`checked_options`; README "Use it from Python" says how a `Kernel` or step-size
        rule object, labels and stopping behave). Labels may be any K ≥ 2 distinct values (`classes_` sorts them).
        Two classes fit the paper's logit model; three or more fit multi-class X-GPC in the family
        `options["multiclass_family"]` (EPGPC is binary: `methods.CLASS_COUNTS`), by default stick-breaking
        (`explorer.xgpc_stickbreaking`): p(classes_[0]) = σ(f_0), p(classes_[k]) = σ(f_k) Π_{j<k}(1 − σ(f_j)), the
        last class what is left, which is not symmetric in the classes (README "Choices worth knowing": relabel a
        class so that it sorts first to put it first). Parameters are checked at `fit` (InvalidParameterError, a
        ValueError, naming the parameter); feature values beyond ±1e100, in the input units or after
        standardisation, raise DataError naming the row and column (`explorer.inputs.FEATURE_LIMIT`).

        Parameters
        ----------
    {parameters}
        Attributes
        ----------
        classes_ : ndarray of shape (K,)
            The K labels seen in `fit`, sorted; `predict_proba`'s columns follow them.
        n_features_in_ : int
        n_iter_ : int
            SVI iterations done.
        history_ : list of dict
            One row per evaluation: iteration, seconds, elbo, test_nll, test_error, rho, lengthscale (geometric mean
            under ARD), variance, and with ARD lengthscale_1 … lengthscale_d.
        kernel_ : Kernel
            The learned kernel.
        run_ : explorer.run.Run
        engine_ : explorer.engine.SVIEngine
            The run's engine, e.g. `explorer.xgpc.XGPC`.
        inducing_points_ : ndarray of shape (m, d)
            In input units.
        converged_ : bool
            Whether the stopping rule fired before `max_iter`.

        Examples
        --------
        >>> from explorer import XGPClassifier
        >>> from explorer.data import datasets
        >>> X, y = datasets.load("moons", n=200, seed=0)
        >>> clf = XGPClassifier(n_inducing=20, max_iter=300, random_state=0).fit(X, y)
        >>> clf.predict_proba(X[:3]).shape
        (3, 2)
        >>> bool(clf.score(X, y) > 0.9)
        True

        Three classes (any labels), `predict_proba`'s columns in the order of `classes_`:

        >>> from sklearn.datasets import load_iris
        >>> X3, y3 = load_iris(return_X_y=True)
        >>> names = np.array(["setosa", "versicolor", "virginica"])[y3]
        >>> clf3 = XGPClassifier(n_inducing=15, max_iter=200, random_state=0).fit(X3, names)
        >>> clf3.classes_.tolist(), clf3.predict_proba(X3[:2]).shape
        (['setosa', 'versicolor', 'virginica'], (2, 3))
        >>> bool(clf3.score(X3, names) > 0.9)
        True
    """

    _parameter_constraints = {
        **{name: [_Declared(settings.SETTINGS[name])] for name in PARAMETER_SETTINGS},
        "kernel": [_Declared(settings.SETTINGS["kernel"]), None],  # None: RBF, as before the declarations
        **{name: constraints for name, (_, constraints) in FIT_PARAMETERS.items()},
    }

    __init__ = _init

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = (
            self.method in methods.METHODS and methods.CLASS_COUNTS[self.method][1] is None
        )
        return tags

    # ----- fitting ---------------------------------------------------------------------------------------------
    def _check_y(self, y, classes=None) -> tuple[np.ndarray, np.ndarray]:
        """(y as class indices 0…K−1 (n,), classes (K,)): scikit-learn's checks of classification targets, then the
        one encoder (`validation.encode_labels`) onto `classes` (`partial_fit`'s) or y's own sorted labels; a method
        that does not take K classes refuses them (`methods.check_classes`)."""
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        y, classes = encode_labels(y, None if classes is None else self._classes(classes), source="y", fewest=1)
        methods.check_classes(self.method, classes)
        return y, classes

    @staticmethod
    def _classes(classes) -> np.ndarray:
        """`partial_fit`'s `classes` (K,) sorted and distinct, DataError naming a missing or incomparable one."""
        classes = column_or_1d(classes)
        comparable_labels(classes, source="classes")
        return np.unique(classes)

    def _validate_rows(self, X, y, reset: bool):
        """scikit-learn's `validate_data` of X (n, d) as float64 and y (n,), after naming the row of a label that is
        missing (None, NaN) or cannot be sorted with the others (`validation.comparable_labels`)."""
        try:
            labels = None if y is None else np.asarray(y)
        except (TypeError, ValueError):
            labels = None  # ragged: validate_data says so
        if labels is not None:
            comparable_labels(labels, source="y")
        return validate_data(self, X, y, dtype=np.float64, reset=reset)

    def fit(self, X, y=None):
        """Fit on X (n, d), y (n,) with as many classes as the method supports (`methods.CLASS_COUNTS`: any K ≥ 2
        for "xgpc" and the SVGPs, 2 for EPGPC); returns self. X may instead be a `sources.DataSource` or the path of a
        .npy, .zarr or .parquet file (y None), trained on out of core (README "Data larger than memory"). A fit that
        ends no better than chance (`metrics.chance_note`) warns `NoBetterThanChanceWarning`, a `ConvergenceWarning`."""
        self._validate_params()
        checked_options(self.options)
        source = training_source(X, y)
        if source is None:
            X, y = self._validate_rows(X, y, reset=True)
            y, classes = self._check_y(y)
        else:  # the K distinct labels of the file, counted in one pass and mapped to 0…K−1 as in memory
            (X, classes), self.n_features_in_ = encoded_source(source), source.d
            methods.check_classes(self.method, classes)
        rule = self._stopping_rule(len(X))
        self._start(X, y, classes, rule, hold_out=rule != "none" or self.convergence is not None)
        self.trainer_.run(max_iter=self.max_iter, stop_at_convergence=rule != "none")
        self._finish()
        note = self.run_.chance_note()
        if note is not None:
            warnings.warn(note, NoBetterThanChanceWarning, stacklevel=2)
        return self

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
        """One pass of ⌈len(X)/batch_size⌉ SVI iterations after adding the rows (X, y) to the data seen so far (kept
        once, in your units: `Run.add_training_rows`). The first call fixes the standardisation, the inducing points
        and the classes (`classes`, all K labels, or y's; a later call's must be the same, as in scikit-learn);
        nothing is held out or stops early (README "Use it from Python")."""
        first = not hasattr(self, "engine_")
        if first:
            self._validate_params()
            checked_options(self.options)
        elif classes is not None and not np.array_equal(self._classes(classes), self.classes_):
            raise ValueError(
                f"`classes={classes!r}` is not the same as on last call to partial_fit, was: {self.classes_!r}"
            )
        X, y = self._validate_rows(X, y, reset=first)
        if first:
            y, classes = self._check_y(y, classes)
            self._start(X, y, classes, self.convergence or "none", hold_out=False)
        else:
            self.run_.add_training_rows(X, self._check_y(y, self.classes_)[0])
        self.trainer_.step(-(-len(X) // min(self.batch_size, self.engine_.n)))
        return self._finish()

    def _start(self, X, y: np.ndarray | None, classes: np.ndarray, rule: str, hold_out: bool) -> None:
        """Start the run (`explorer.run.Run`) with seed `seed_from(random_state)` on the class names `classes` (K,)
        and a Trainer with convergence `rule`, holding out `validation_fraction` of the rows (the run's stratified
        split) if `hold_out`. y None: X is a source holding its labels (class indices of `classes`)."""
        seed = seed_from(self.random_state)
        X_fit, X_eval, y_fit, y_eval = X, X, y, y
        if hold_out and self.validation_fraction > 0:
            if y is None:
                X_fit, X_eval = split_source(X, self.validation_fraction, streams(seed).split)
            else:
                X_fit, X_eval, y_fit, y_eval = train_test_split(X, y, self.validation_fraction, streams(seed).split)
            if not len(X_eval):  # every class has one row: the stratified split keeps each class's one row
                fix = "early_stopping=False" if self.convergence is None else "validation_fraction=0"
                raise ValueError(
                    f"validation_fraction={self.validation_fraction} holds out no rows: the hold-out is stratified "
                    f"(every class keeps a training row) and each of the {len(classes)} classes has a single "
                    f"row among the {len(X)}; give each class at least 2 rows, or set {fix}"
                )
        config = {**checked_options(self.options), **{name: getattr(self, name) for name in PARAMETER_SETTINGS}}
        config.update(seed=seed, kernel="rbf" if self.kernel is None else self.kernel)
        self.run_ = Run(
            config,
            X_fit,
            y_fit,
            X_eval,
            y_eval,
            convergence=rule,
            no_improvement=NoImprovement(self.n_iter_no_change, self.tol),
            classes=classes,
        )
        self.classes_ = self.run_.classes
        self.scaler_, self.engine_, self.trainer_ = self.run_.scaler, self.run_.engine, self.run_.trainer

    def _finish(self):
        self.n_iter_ = int(self.engine_.iteration)
        self.history_ = list(self.trainer_.history.rows)
        self.converged_ = bool(self.trainer_.converged)
        self.inducing_points_ = self.run_.inducing_points
        self.kernel_ = self.engine_.kernel
        return self

    # ----- prediction ------------------------------------------------------------------------------------------
    def predict_proba(self, X) -> np.ndarray:
        """(n, K): column k p(classes_[k]); binary: p(classes_[1]) = ∫σ(f)N(f|μ*, σ*²)df (EPGPC: Φ(μ*/√(1 + σ*²))),
        column 0 its complement. Finite in [0, 1], rows summing to 1 (a diverged model raises NumericalError
        instead)."""
        check_is_fitted(self, "engine_")
        return self.run_.predict_proba(validate_data(self, X, dtype=np.float64, reset=False))

    def decision_function(self, X) -> np.ndarray:
        """Two classes: (n,), the log-odds log p/(1 − p) of classes_[1] (positive means classes_[1]). K ≥ 3: (n, K),
        the log-probabilities log p(classes_[k]) (the largest is the predicted class)."""
        P = self.predict_proba(X)
        if P.shape[1] > 2:
            return np.log(np.clip(P, 1e-300, 1.0))
        p = np.clip(P[:, 1], 1e-300, 1.0)
        return np.log(p) - np.log1p(-np.minimum(p, 1.0 - 1e-16))

    def predict(self, X) -> np.ndarray:
        """(n,): the most probable class; probabilities within `explorer.metrics.TIE_TOLERANCE` (1e-9) of the largest
        are tied and a tie goes to the first of `classes_` (so p = ½ exactly or up to rounding gives classes_[0] on any
        CPU; `explorer.metrics.predicted_class`)."""
        check_is_fitted(self, "engine_")
        return self.classes_[predicted_class(self.predict_proba(X))]

    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance of q(f*) at X: (n,), (n,) for two classes; (n, K), (n, K), one latent function per class,
        for K ≥ 3."""
        check_is_fitted(self, "engine_")
        return self.run_.predict_latent(validate_data(self, X, dtype=np.float64, reset=False))


_FIT_PARAMETERS_DOC = """\
    max_iter : int, default 2000
        Most SVI iterations per `fit`.
    random_state : None, int, numpy.random.Generator or RandomState, default None
        The run's seed (`explorer.run.seed_from`): an int gives the same hold-out split, inducing points,
        minibatches and history as the `Model` and the benchmarks with that seed and settings (`explorer.run`'s
        seed policy).
    early_stopping : {"auto", True, False}, default "auto"
        scikit-learn's early stopping on the NLL of a held-out `validation_fraction` of the rows, with patience
        `n_iter_no_change` and improvement `tol` (`convergence.NoImprovement`; README "Use it from Python"); "auto"
        turns it on when `convergence` is None and there are at least `AUTO_EARLY_STOPPING_ROWS` (500) rows; off,
        `fit` runs `max_iter` iterations on all rows.
    validation_fraction : float, default 0.1
        Share of the rows held out for early stopping (and for an explicit `convergence` rule, where 0 evaluates
        on the training rows); `history_`'s test_nll/test_error are on these rows. The inputs are standardised
        with the statistics of the rows trained on.
    n_iter_no_change : int, default 5
        The early-stopping patience, in evaluations.
    tol : float, default 1e-4
        The early-stopping improvement, in nats per point.
    convergence : str or None, default None
        None (`early_stopping` decides) or one of the Trainer's rules (`training.Trainer`), which replaces early
        stopping (with early_stopping=True it is refused): "parameters", "holdout", "no-improvement" or "none".
"""
_OPTIONS_DOC = """\
    options : dict or None, default None
        Further run settings by name (None: every one at its default), each checked at `fit` by its declaration
        (an unknown name or a bad value raises InvalidParameterError naming the option and the value), e.g.
        ``options={"hyper_every": 1, "kernel_bound": "augmented"}`` (the paper's kernel step). The options:

""" + settings.numpydoc_parameters(OPTION_SETTINGS, OPTION_DEFAULTS, indent="        ")
XGPClassifier.__doc__ = XGPClassifier.__doc__.replace(
    "{parameters}\n", settings.numpydoc_parameters(PARAMETER_SETTINGS, _DEFAULTS) + _FIT_PARAMETERS_DOC + _OPTIONS_DOC
)
