"""`Model`: the param face of a run (`Model`'s docstring); UIs watch `history_length` (new rows), `iteration` and
`status`. No UI imports here.

Every configuration parameter except `eval_every` defines the run: changing one resets the run and `status` says so.
A bad value (`settings.Setting.check`), a change that cannot be applied or a failed step changes nothing and raises,
and `status` says what happened (README "Numerics" and "Input limits").
"""

from __future__ import annotations

import math
import warnings
from types import SimpleNamespace

import numpy as np
import param

from explorer import methods, settings
from explorer.data import datasets
from explorer.data.sources import training_source
from explorer.hyperparameters import KernelLearningError
from explorer.inputs import bounded_features, count, labelled_data
from explorer.polyagamma import pg_mean
from explorer.run import RUN_FORMAT, Run, RunFileError, streams  # noqa: F401  (RUN_FORMAT, RunFileError: importable here)
from explorer.sources import encoded_source
from explorer.studies import finish
from explorer.studies.plane import FEATURES, Projection, compute_surface, grid_axes, through_link
from explorer.studies.race import NAMES as METHOD_NAMES
from explorer.validation import show, show_list

COLLAPSE_TOLERANCE = 0.02
"""A run has collapsed to the prior when every evaluated p(y=1) is within this of ½ (test NLL ≈ log 2)."""


class _Declared(param.Parameter):
    """A param parameter whose values its setting's declaration checks (`settings.Setting.check`, with the bounds
    and choices of `settings.SETTINGS`): one rule, in the same words, for the Model and the other faces (a bool for a
    number is refused)."""

    def _validate(self, val):
        if self.name is not None:  # None: the class default, checked by the declaration's own tests
            settings.SETTINGS[self.name].check(val)
        super()._validate(val)


class _DeclaredSelector(_Declared, param.Selector):
    """A declared choice whose values param lists too (`.objects`: the methods; the data sets, found at run time)."""


RunSettings = type(
    "RunSettings",
    (param.Parameterized,),
    {
        "__doc__": "Every declared run setting (`explorer.settings.SETTINGS`) as a param parameter.",
        **{
            name: _DeclaredSelector(objects=list(s.choices or [s.default]), default=s.default, doc=s.help)
            if s.kind == "choice" and not s.objects
            else _Declared(default=s.default, doc=s.help)
            for name, s in settings.SETTINGS.items()
        },
    },
)


def two_class_only(method: str, link: str, data_name: str, K: int) -> tuple[str, str] | None:
    """Which setting ("method" or "link") models two classes only where the data `data_name` have K ≥ 3, and the
    sentence saying so in the user's words ("EPGPC is two-class only; blobs-3 has 3 classes"); None when both take
    K classes. The one place that sentence is made: the Model refuses with it, a shared link's settings name it."""
    if K <= 2:
        return None
    if methods.CLASS_COUNTS[method][1] == 2:
        part, name = "method", METHOD_NAMES.get(method, method)
    elif settings.applies("link", method) and link not in methods.MULTICLASS_LINKS:
        part, name = "link", f"the {link} link"
    else:
        return None
    return part, f"{name} is two-class only; {data_name} has {K} classes"


class Model(RunSettings):
    """A stepping X-GPC run on one data set (split into train/test with `train_fraction`, standardised with the
    training statistics): a param face over a headless `explorer.run.Run`. Data arrays and predictions are in the
    data's raw units. Data with K ≥ 3 classes (`set_data`) train a method that takes them (`methods.CLASS_COUNTS`;
    README "Multi-class"); class probabilities are then (n*, K).

    `dataset` defaults to the paper's banana set when its file is found, else the generated banana-like set; a found
    file that cannot be read (damaged, truncated, NaN cells) is named in a warning (also in `fallback` and `status`)
    and the generated set used instead. A data set asked for by name raises instead.

    Parameters
    ----------
    data_dir : str, optional
        A folder searched for the paper's data sets before the default data locations.
    **params
        The run settings (`explorer.settings.SETTINGS`, with their bounds; listed with their defaults and help by
        ``Model.param``): every one is a param parameter; changing one that defines the run starts a new run.

    Attributes
    ----------
    iteration : int
        SVI iterations done.
    history : explorer.training.History
        One row per evaluation (iteration, seconds, elbo, test_nll, test_error, rho, kernel parameters).
    status : str
        What happened last, for people.

    Examples
    --------
    >>> from explorer import Model
    >>> model = Model(dataset="moons", n_points=200, n_inducing=20, seed=1)
    >>> model.step(20)  # new history rows: the start (iteration 0) and one every eval_every = 10 iterations
    3
    >>> model.iteration, model.predict_proba(model.X_test[:4]).shape[0]
    (20, 4)
    """

    iteration = param.Integer(default=0, constant=True, doc="SVI iterations done")
    history_length = param.Integer(default=0, constant=True, doc="History rows ever added; grows with new rows")
    converged = param.Boolean(default=False, constant=True, doc="The paper's global-parameter criterion holds")
    status = param.String(default="", constant=True, doc="What happened last, for people")
    chance = param.String(
        default="",
        constant=True,
        doc="Set when a fit ends no better than chance (the sentence saying so, `metrics.chance_note`); emptied "
        "when a later evaluation beats chance or a new run starts",
    )

    def __init__(self, data_dir: str | None = None, **params):
        self.data_dir = data_dir
        self.param.dataset.objects = datasets.available(data_dir) + ["custom"]
        chosen = "dataset" in params
        params.setdefault("dataset", "banana" if "banana" in self.param.dataset.objects else "banana-like")
        self._custom = None
        self._collapsed = False
        self._configured_by: str | None = None  # `configure`'s source while it applies settings
        self.fallback: str | None = None
        super().__init__(**params)
        try:
            self._build()
        except datasets.DataError as err:
            if chosen or self.dataset == "banana-like":
                raise
            found = datasets.find_paper_file(self.dataset, data_dir) or datasets.find_openml_copy(
                self.dataset, data_dir
            )
            where = f" ({found})" if found is not None and str(found) not in str(err) else ""
            self.fallback = (
                f"The paper's {self.dataset} set{where} cannot be used: {err}. Using the generated banana-like set."
            )
            warnings.warn(self.fallback, stacklevel=2)
            self.dataset = "banana-like"
            self._build()
            self.warnings.insert(0, self.fallback)
            self._publish(status=f"{self.fallback} {self.status}")
        self.param.watch(self._configuration_changed, list(settings.STRUCTURAL))

    # ----- building a run --------------------------------------------------------------------------------------
    @property
    def config(self) -> dict:
        """Every setting's current value, by name (`explorer.settings.SETTINGS`)."""
        return {name: getattr(self, name) for name in settings.SETTINGS}

    def _load_data(self):
        """The configured data set split into (X_train, X_test, y_train, y_test) by the run's split stream."""
        if self.dataset == "custom":
            if self._custom is None:
                raise datasets.DataError(
                    "the data set 'custom' needs your data first: upload a CSV in the Data tab "
                    "(from Python: model.set_data(X, y, name))"
                )
            X, y, self.feature_names = self._custom["X"], self._custom["y"], self._custom["feature_names"]
            if y is None:  # an out-of-core source: split into two views of its rows, nothing loaded
                return (*datasets.split_source(X, 1.0 - self.train_fraction, streams(self.seed).split), None, None)
        elif self.dataset in datasets.BUILTIN:
            X, y, self.feature_names = datasets.load_with_names(
                self.dataset, n=self.n_points, noise=self.noise, seed=self.seed
            )
        else:
            X, y, self.feature_names = datasets.load_with_names(self.dataset, self.data_dir)
        X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 1.0 - self.train_fraction, streams(self.seed).split)
        if len(y_te) == 0:
            counts = np.bincount(np.asarray(y, dtype=np.int64))
            raise datasets.DataError(
                f"{self.data_name}: its {len(y)} rows leave no test rows (a class gives test rows only when it has at "
                f"least 2; rows per class: {counts.tolist()})"
            )
        return X_tr, X_te, y_tr.astype(np.int64), y_te.astype(np.int64)

    def _build(self) -> None:
        """Load data and start the run (`run.Run`) for the current configuration (all or nothing)."""
        X_tr, X_te, y_tr, y_te = self._load_data()
        classes = self._data_classes()  # a method or link that models two classes only refuses K ≥ 3, before any engine
        refused = two_class_only(self.method, self.link, self.data_name, len(classes))
        if refused is not None:
            raise datasets.DataError(refused[1])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = Run(self.config, X_tr, y_tr, X_te, y_te, classes=classes)
        self.current_run = run
        self._collapsed = False
        with param.edit_constant(self):
            self.chance = ""
        self.warnings = [str(w.message) for w in caught]
        self._publish(
            status=f"New run: {self.method} on {self.dataset} (n = {len(X_tr)} train, {len(X_te)} test, "
            f"m = {run.engine.m})" + "".join(f"; {w}" for w in self.warnings)
        )

    # The run's parts, as the faces read them.
    X_train = property(lambda self: self.current_run.X_train, doc="Training rows (n, d), raw units")
    X_test = property(lambda self: self.current_run.X_test, doc="Test rows (n_test, d), raw units")
    y_train = property(lambda self: self.current_run.y_train, doc="Training labels (n,): class indices of `classes`")
    y_test = property(lambda self: self.current_run.y_test, doc="Test labels (n_test,): class indices of `classes`")
    scaler = property(lambda self: self.current_run.scaler, doc="The `Standardizer` of the training rows")
    engine = property(lambda self: self.current_run.engine, doc="The method's engine (`explorer.engine.SVIEngine`)")
    trainer = property(lambda self: self.current_run.trainer, doc="The run's `training.Trainer`")
    history = property(lambda self: self.current_run.history, doc="The run's `training.History`, a row per evaluation")
    inducing_points = property(lambda self: self.current_run.inducing_points, doc="Z (m, d), raw units")
    classes = property(
        lambda self: self.current_run.classes,
        doc="The class values (K,) of the indices 0…K−1 of `y_train`, `y_test` and `predict_proba`'s columns "
        "(`Run.classes`): −1 and +1 for the two-class built-in and paper sets, 0…K−1 for a K-class built-in set "
        "(`datasets.BUILTIN_CLASSES`), the values given to `set_data` for custom data",
    )
    predict_latent = property(
        lambda self: self.current_run.predict_latent,
        doc="q(f*) mean and variance at raw-unit inputs X (n*, d), within ±1e100 before and after standardisation",
    )
    predict_proba = property(
        lambda self: self.current_run.predict_proba,
        doc="The class probabilities (n*, K) at raw-unit inputs X (n*, d), column k for `classes[k]`: finite, in "
        "[0, 1], rows summing to 1 (NumericalError if the run diverged)",
    )

    def _publish(self, status: str | None = None, ended: bool = False) -> None:
        """Publish the run's counters, `status` if given, and `chance`: set if the fit has `ended` at chance, kept
        up to date once set, empty for a new run."""
        values = {
            "iteration": int(self.engine.iteration),
            "history_length": self.trainer.history.total,
            "converged": bool(self.trainer.converged),
        }
        if status is not None:
            values["status"] = status
        if ended or self.chance:
            values["chance"] = self.current_run.chance_note() or ""
        with param.edit_constant(self):
            self.param.update(**values)

    def _configuration_changed(self, *events) -> None:
        changes = ", ".join(f"{e.name} {e.old!r} → {e.new!r}" for e in events)
        saved = (self.current_run, self.feature_names, self.warnings)
        try:
            self._build()
        except Exception as err:
            self.current_run, self.feature_names, self.warnings = saved
            with param.parameterized.discard_events(self):
                self.param.update(**{e.name: e.old for e in events})
            self._publish(status=f"Could not apply {changes}: {err}. The previous run is kept.")
            raise
        prefix = f"Run reset ({changes}). " if self._configured_by is None else f"{self._configured_by}. "
        self._publish(status=prefix + self.status)

    def configure(self, changes: dict, source: str) -> None:
        """Apply several settings at once (as `param.update`: one new run, or none and the previous run kept if the
        model refuses them) and say where they came from instead of what changed: the status begins with `source`
        (e.g. "Opened with the settings of a shared link: dataset blobs-3") rather than "Run reset (… → …)", for a
        visitor who changed nothing themselves."""
        self._configured_by = source
        try:
            self.param.update(**changes)
        finally:
            self._configured_by = None

    # ----- driving ----------------------------------------------------------------------------------------------
    def step(self, k: int = 1) -> int:
        """Advance k SVI iterations, evaluating every `eval_every`.

        Parameters
        ----------
        k : int, default 1
            Iterations to do (≥ 0).

        Returns
        -------
        int
            The number of new history rows.

        Raises
        ------
        explorer.linalg.NumericalError, explorer.hyperparameters.KernelLearningError
            A step that failed; the run stays at its last good state and `status` names the error and what to
            change.

        Examples
        --------
        >>> from explorer import Model
        >>> model = Model(dataset="xor", n_points=100, n_inducing=10)
        >>> model.step(10), model.iteration  # rows at iterations 0 and 10
        (2, 10)
        """
        k = count(k)
        was_converged = self.trainer.converged
        try:
            new = self.trainer.step(k)
        except Exception as err:
            self._failed(err)
            raise
        ended = self.trainer.converged and not was_converged
        self._publish(
            status=self._collapse_status(new) or (self.current_run.chance_note() if ended else None), ended=ended
        )
        return new

    def run(self, seconds: float | None = None, max_iter: int | None = None, stop_at_convergence: bool = True) -> int:
        """Step until `seconds` of training time, `max_iter` total iterations, or convergence.

        Parameters
        ----------
        seconds : float, optional
            Training time to spend (evaluation excluded), finite and ≥ 0.
        max_iter : int, optional
            Stop at this many iterations in total.
        stop_at_convergence : bool, default True
            Stop once the run's convergence rule fires.

        Returns
        -------
        int
            The number of new history rows.

        Examples
        --------
        >>> from explorer import Model
        >>> model = Model(dataset="circles", n_points=100, n_inducing=10)
        >>> _ = model.run(max_iter=30)
        >>> model.iteration
        30
        """
        if seconds is not None and not (isinstance(seconds, (int, float)) and 0 <= seconds < math.inf):
            raise ValueError(f"seconds must be a finite number ≥ 0 or None, got {seconds!r}")
        max_iter = None if max_iter is None else count(max_iter, "max_iter")
        try:
            new = self.trainer.run(
                seconds=seconds,
                max_iter=max_iter,
                stop_at_convergence=stop_at_convergence,
                progress=lambda _: self._publish(),
            )
        except Exception as err:
            self._failed(err)
            raise
        ran = f"Ran to iteration {self.engine.iteration}" + (" (converged)" if self.trainer.converged else "")
        chance = self.current_run.chance_note()
        self._publish(status=self._collapse_status(1) or (f"{ran}. {chance}" if chance else ran), ended=True)
        return new

    def _failed(self, err: Exception) -> None:
        """Say in `status` which step failed, that the run is kept, and (kernel learning diverged) what to do."""
        status = f"Step failed at iteration {self.engine.iteration + 1}: {err}."
        if isinstance(err, KernelLearningError):
            status += (
                f" The run is kept at iteration {self.engine.iteration}: lower the kernel learning rate "
                "(this starts a new run), or continue this run with kernel learning off "
                "(continue_without_kernel_learning())."
            )
        self._publish(status=status)

    def continue_without_kernel_learning(self) -> None:
        """Keep the run (q(u), the kernel as learned so far, the history) and train on with the kernel fixed: the
        way on after kernel learning diverged. Setting `learn_hyperparameters` instead starts a new run."""
        self.current_run.continue_without_kernel_learning()
        with param.parameterized.discard_events(self):
            self.learn_hyperparameters = False
        kernel = self.engine.kernel
        self._publish(
            status=f"Kernel learning is off from iteration {self.engine.iteration}: training goes on "
            f"with ℓ = {kernel.mean_lengthscale:.4g}, σ² = {kernel.variance:.4g}."
        )

    def _collapse_status(self, new_rows: int) -> str | None:
        """A status line when the run has just collapsed to the prior (every evaluated p within
        COLLAPSE_TOLERANCE of ½) or has just left it; None when nothing changed."""
        if new_rows == 0 or self.engine.iteration == 0 or not len(self.trainer.y_eval):
            return None
        nll = self.history.rows[-1]["test_nll"]
        collapsed = bool(abs(nll - math.log(2.0)) < 0.01) and bool(
            np.max(np.abs(self.engine.predict_proba(self.trainer.X_eval) - 1.0 / self.engine.n_classes))
            < COLLAPSE_TOLERANCE
        )
        if collapsed == self._collapsed:
            return None
        self._collapsed = collapsed
        kernel = self.engine.kernel
        if not collapsed:
            return f"Iteration {self.engine.iteration}: the predictions have left the prior (test NLL {nll:.4f})."
        return (
            f"Collapsed to the prior at iteration {self.engine.iteration}: p(y=1) ≈ 0.5 at every test point "
            f"(test NLL {nll:.4f} ≈ log 2), with ℓ = {kernel.mean_lengthscale:.3g}, σ² = {kernel.variance:.3g}. "
            "Try a larger initial lengthscale, a lower kernel learning rate, or kernel learning off."
        )

    def reset(self) -> None:
        """Start the run again from the prior with the current configuration."""
        self._build()
        self._publish(status="Run reset by request. " + self.status)

    @param.depends("eval_every", watch=True)
    def _eval_every_changed(self) -> None:
        self.current_run.set_eval_every(self.eval_every)

    # ----- data -------------------------------------------------------------------------------------------------
    def set_data(self, X, y=None, name: str = "custom", feature_names=None, classes=None) -> None:
        """Use (X, y) as the data set ('custom'): y (n,) holds K ≥ 2 distinct labels (K ≥ 3: methods that take them,
        `methods.CLASS_COUNTS`), encoded by `validation.encode_labels`; or, with `classes` (K,) (the sorted distinct
        labels a reader encoded them by: `datasets.read_csv`, the dashboard's upload), class indices 0…K−1 of
        `classes`, checked, not encoded again. Validated first: on a DataError nothing changes. X may instead be
        a `sources.DataSource` or the path of a .npy, .zarr or .parquet file (y None), split by `train_fraction` and
        trained on out of core (README "Data larger than memory"); `save` refuses such a run."""
        source = training_source(X, y)
        if source is not None:
            feature_names = feature_names if feature_names is not None else getattr(source, "feature_names", None)
            X, classes = encoded_source(source)
        elif classes is not None:
            X, y, classes = _encoded_data(X, y, classes, name)
        else:
            X, y, classes = datasets.validate(X, y, feature_names=feature_names, source=name)
        methods.check_classes(self.method, classes, source=name)
        if source is None:
            bounded_features(X, str(name))
        names = list(feature_names) if feature_names is not None else [f"x{j + 1}" for j in range(X.shape[1])]
        previous = self._custom
        self._custom = {"X": X, "y": y, "feature_names": names, "name": name, "classes": classes}
        try:
            if self.dataset == "custom":
                self._configuration_changed(SimpleNamespace(name="dataset", old="custom", new="custom"))  # new data
            else:
                self.dataset = "custom"
        except Exception:
            self._custom = previous
            raise
        self._publish(status=f"Loaded {name}: {len(X)} rows, {X.shape[1]} features. " + self.status)

    def add_point(self, x, label: int) -> None:
        """Add a training point x (raw units, (d,)) of class `label` (an index 0…K−1 of `classes`) and keep training
        (the playground click)."""
        try:
            x = np.asarray(x, dtype=float).reshape(1, -1)
        except (TypeError, ValueError) as err:
            raise datasets.DataError(f"a new point needs {self.X_train.shape[1]} numbers, got {x!r}") from err
        if x.shape[1] != self.X_train.shape[1] or not np.all(np.isfinite(x)):
            raise datasets.DataError(f"a new point needs {self.X_train.shape[1]} finite coordinates, got {x.ravel()}")
        K = len(self.classes)
        if isinstance(label, (bool, np.bool_)) or label not in range(K):
            raise datasets.DataError(f"label must be a class index 0…{K - 1}, got {label!r}")
        label = int(label)
        self.current_run.add_training_rows(x, np.array([label]), "the new point")
        self._publish(
            status=f"Added a training point of class {self.classes[label]} at {np.round(x.ravel(), 3).tolist()}"
        )

    # ----- predictions -----------------------------------------------------------------------------------------
    def _data_classes(self) -> np.ndarray:
        """The class values of the configured data set (`classes` of the run about to be built)."""
        if self.dataset == "custom" and self._custom is not None:
            return self._custom["classes"]
        K = datasets.BUILTIN_CLASSES.get(self.dataset, 2)
        return np.array([-1, 1]) if K == 2 else np.arange(K)

    def surface(self, resolution: int = 80, features: tuple[int, int] = (0, 1), margin: float = 0.1) -> dict:
        """p(class 1) (column 1 of the (n*, 2) class probabilities) and predictive sd on a resolution² grid over the
        training range of two features (others at their training mean): dict(x (nx,), y (ny,), p (ny, nx),
        sd (ny, nx)). sd is that of the latent f* (K ≥ 3 classes: of the predicted class's, `studies.plane.Surface`;
        the views draw every class's probability, `views.decision_surface`).
        resolution: 2…1000; features: two column indices of the data."""
        if not 2 <= count(resolution, "resolution") <= 1000:
            raise ValueError(f"resolution must be between 2 and 1000, got {resolution!r}")
        d = self.X_train.shape[1]
        try:
            i, j = (count(f, "feature index") for f in features)
        except (TypeError, ValueError):
            raise ValueError(f"features must be two column indices in [0, {d}), got {features!r}") from None
        if not (i < d and j < d):
            raise ValueError(f"features must be two column indices in [0, {d}), got {features!r}")
        projection = Projection(self.X_train, FEATURES, (i, j))  # the other features at their training mean
        axes = grid_axes(self.X_train[:, [i, j]], resolution, margin)
        predict = through_link(self.predict_latent, self.engine.link)  # the method's link (logit, or EPGPC's probit)
        surface = finish(compute_surface(predict, projection, axes, sd=True))
        return {"x": surface.x, "y": surface.y, "p": surface.p, "sd": surface.sd}

    def last_local(self) -> dict:
        """c_i and θ_i = E[ω_i] of the last minibatch (empty before the first step or for baselines)."""
        c = np.asarray(getattr(self.engine, "last_c", np.zeros(0)), dtype=float)
        return {"c": c, "theta": pg_mean(c)}

    @property
    def data_name(self) -> str:
        """The data set's name for people: `dataset`, or the name given to `set_data` for custom data."""
        return self._custom["name"] if self.dataset == "custom" and self._custom is not None else self.dataset

    # ----- persistence ---------------------------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the run, and custom data with their class names, to one `.npz` (`Run.save`): `Model.load(path)`
        continues it exactly (the next step as without the round trip), and `reset()` gives the same split."""
        arrays, custom = {}, None
        if self._custom is not None:
            arrays["custom/X"], arrays["custom/y"] = self._custom["X"], self._custom["y"]
            custom = {key: self._custom[key] for key in ("name", "feature_names")}
            custom["classes"] = self._custom["classes"].tolist()
        self.current_run.save(path, meta={"feature_names": self.feature_names, "custom": custom}, arrays=arrays)

    @classmethod
    def load(cls, path, data_dir: str | None = None) -> "Model":
        """Restore a run written by `save` (any of `run.READABLE_FORMATS`); `data_dir` is where a later `reset()` reads
        a paper data set from (the file does not choose it). Any problem with the file — not an npz, truncated,
        corrupted, wrong or inconsistent contents — raises RunFileError naming the file and the problem."""
        try:
            return cls._load(path, data_dir)
        except RunFileError:
            raise
        except Exception as err:  # whatever a damaged file makes the reader or the checks raise
            raise RunFileError(f"{path}: not a usable X-GPC Explorer run file ({type(err).__name__}: {err})") from err

    @classmethod
    def _load(cls, path, data_dir) -> "Model":
        def refuse(problem: str):
            raise RunFileError(f"{path}: {problem}")

        config, meta, arrays = Run.read(path)
        X_train, X_test, y_train, y_test, Z = (
            _numeric(arrays, name, refuse) for name in ("X_train", "X_test", "y_train", "y_test", "Z")
        )
        try:
            X_train, y_train = labelled_data(X_train, y_train, names=("X_train", "y_train"))
            X_test, y_test = labelled_data(X_test, y_test, d=X_train.shape[1], names=("X_test", "y_test"))
        except ValueError as err:
            refuse(f"data arrays: {err}")
        d = X_train.shape[1]
        if Z.ndim != 2 or Z.shape[1] != d or not 1 <= len(Z) <= config["n_inducing"]:
            refuse(f"inducing inputs Z {Z.shape} do not fit n_inducing = {config['n_inducing']} and d = {d}")
        names = meta["feature_names"]
        if not (isinstance(names, list) and len(names) == d and all(isinstance(n, str) for n in names)):
            refuse(f"feature_names must be {d} strings, got {names!r}")

        model = cls.__new__(cls)
        model.data_dir = data_dir
        objects = datasets.available(data_dir) + ["custom"]
        if config["dataset"] in datasets.PAPER_DATASETS and config["dataset"] not in objects:
            objects.insert(-1, config["dataset"])  # the run continues from its arrays; a reset needs the data
        model.param.dataset.objects = objects
        model._custom, model._collapsed = _custom_data(meta.get("custom"), arrays, config["dataset"], refuse), False
        model._configured_by, model.fallback = None, None  # (fallback: a loaded run replaced no data set)
        param.Parameterized.__init__(model, **config)
        model._check_data(X_train, X_test, y_train, y_test, len(Z), refuse)
        model.feature_names = names
        model.current_run = Run.restore(
            model.config,
            dict(arrays, X_train=X_train, X_test=X_test, y_train=y_train, y_test=y_test, Z=Z),
            meta,
            classes=model._data_classes(),
        )
        model.warnings = []
        model._publish(status=f"Loaded run at iteration {model.engine.iteration}")
        model.param.watch(model._configuration_changed, list(settings.STRUCTURAL))
        return model

    def _check_data(self, X_train, X_test, y_train, y_test, m: int, refuse) -> None:
        """The stored arrays must be the configured data set's split (training rows may end with added points), and
        m inducing points n_inducing unless k-means++ had fewer distinct training rows."""
        if self.dataset in datasets.PAPER_DATASETS:
            expected_d = datasets.PAPER_DATASETS[self.dataset].d
            if X_train.shape[1] != expected_d:
                refuse(f"data set {self.dataset!r} has {expected_d} features, the stored arrays {X_train.shape[1]}")
            return
        X_tr, X_te, y_tr, y_te = self._load_data()
        n = len(X_tr)
        if not (
            X_te.shape == X_test.shape
            and np.array_equal(X_te, X_test)
            and np.array_equal(y_te, y_test)
            and len(X_train) >= n
            and np.array_equal(X_tr, X_train[:n])
            and np.array_equal(y_tr, y_train[:n])
        ):
            refuse(
                f"the stored data are not data set {self.dataset!r} as configured (n_points, noise, seed, "
                "train_fraction): inconsistent file"
            )
        if m < self.n_inducing and m != len(np.unique(X_tr, axis=0)):
            refuse(
                f"Z has {m} rows, but n_inducing = {self.n_inducing} and the training part has "
                f"{len(np.unique(X_tr, axis=0))} distinct rows"
            )


def _encoded_data(X, y, classes, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, classes) of data whose labels a reader has encoded: X (n, d) finite, y (n,) class indices 0…K−1 of
    `classes` (K,), K ≥ 2 sorted distinct names; DataError naming the problem otherwise."""
    X, y = labelled_data(X, y, names=(f"{name}: X", f"{name}: y"))
    classes = np.asarray(classes)
    if classes.ndim != 1 or len(classes) < 2 or not np.array_equal(np.unique(classes), classes):
        raise datasets.DataError(f"{name}: classes {show_list(classes)} must be 2 or more sorted distinct labels")
    if y.max() >= len(classes):
        raise datasets.DataError(
            f"{name}: y holds the class index {int(y.max())}, beyond the {len(classes)} classes {show_list(classes)}"
        )
    return X, y, classes


def _numeric(arrays: dict, name: str, refuse) -> np.ndarray:
    """The stored array `name`, which must exist and hold real numbers."""
    if name not in arrays:
        refuse(f"array {name!r} is missing")
    if arrays[name].dtype.kind not in "biuf":
        refuse(f"array {name!r} holds {arrays[name].dtype} values, not numbers")
    return arrays[name]


def _custom_data(custom, arrays: dict, dataset: str, refuse) -> dict | None:
    """The custom data set stored with a run (X, y class indices, names, classes), checked; None for other data sets."""
    if dataset != "custom":
        return None
    if not isinstance(custom, dict) or "custom/X" not in arrays or "custom/y" not in arrays:
        refuse("data set 'custom' but no custom data stored")
    try:
        X, y, _ = datasets.validate(
            arrays["custom/X"], arrays["custom/y"], custom["feature_names"], source="stored custom data"
        )
    except datasets.DataError as err:
        refuse(str(err))
    classes = np.array(custom["classes"])
    if classes.ndim != 1 or classes.dtype == object:
        refuse(f"the custom data's class names {show(custom['classes'])} are not a list of names (text or numbers)")
    K, (names, counts) = len(classes), np.unique(classes, return_counts=True)
    if np.any(counts > 1):
        refuse(
            f"the custom data's class names {show_list(classes)} give {show(names[counts > 1][0])} to two classes; "
            "each class needs its own name"
        )
    held = np.unique(arrays["custom/y"])
    if not np.array_equal(held, range(K)):
        refuse(
            f"the custom data's {K} class names {show_list(classes)} do not match its labels, which hold the class "
            f"indices {show_list(held)}: the names need the labels 0…{K - 1}, one name per class index"
        )
    return {
        "X": X,
        "y": y,
        "feature_names": list(custom["feature_names"]),
        "name": str(custom["name"]),
        "classes": classes,
    }
