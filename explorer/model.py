"""`Model`: one X-GPC (or baseline) run as a `param.Parameterized` — its parameters are the run's configuration;
`step`, `run` and `reset` drive the shared training loop (`explorer.training.Trainer`); `history` holds one row per
evaluation. UIs watch `history_length` (new rows), `iteration` and `status`. No UI imports here.

Every configuration parameter except `eval_every` defines the run: changing one resets the run and `status` says so.
A change that cannot be applied (e.g. a data set that is not available) is rolled back, the run stays as it was, and
the error is raised to the caller. A step that fails (`NumericalError`; `KernelLearningError` when kernel learning
diverged) leaves the run at its last good state; `continue_without_kernel_learning()` then trains on with the kernel
fixed. A run whose predictions collapsed to the prior (p ≈ ½ everywhere) says so in `status`.
"""

from __future__ import annotations

import copy
import json
import math
import warnings
import zipfile

import numpy as np
import param

from explorer import methods, recipe
from explorer.data import datasets
from explorer.data.readers import npz_member, regular_file
from explorer.hyperparameters import KernelLearningError
from explorer.inputs import bounded_features, count, labelled_data, standardised
from explorer.kernels import KERNELS, Kernel, initial_kernel, kernel_from_state
from explorer.linalg import NumericalError
from explorer.polyagamma import pg_mean
from explorer.scaling import Standardizer
from explorer.schedules import DEFAULT_STEP_RULES
from explorer.training import Trainer

_XGPC_STEPS = DEFAULT_STEP_RULES["xgpc"]


RUN_FORMAT = "xgpc-explorer-run/3"  # /3: labels stored as class indices 0…K−1 (/2: ±1)
COLLAPSE_TOLERANCE = 0.02
"""A run has collapsed to the prior when every evaluated p(y=1) is within this of ½ (test NLL ≈ log 2)."""


class RunFileError(ValueError):
    """A run file that `Model.load` cannot use; the message names the file and the problem."""


class Model(param.Parameterized):
    """A stepping X-GPC run on one data set (split into train/test with `train_fraction`, standardised with the
    training statistics). Data arrays and predictions are in the data's raw units."""

    dataset = param.Selector(
        default="banana-like",
        objects=["banana-like"],
        doc="Data set: built-in 2-D set, a paper data set found in the data directory, or 'custom' (see set_data)",
    )
    n_points = param.Integer(default=400, bounds=(20, 100_000), doc="Points generated for a built-in set")
    noise = param.Number(
        default=None, bounds=(0, None), allow_None=True, doc="Noise of a built-in set (None: the set's default)"
    )
    train_fraction = param.Number(default=0.8, bounds=(0.05, 0.95), doc="Share of the data used for training")
    method = param.Selector(default="xgpc", objects=list(methods.METHODS), doc="Inference method")
    n_inducing = param.Integer(default=100, bounds=(1, 2000), doc="m: inducing points (k-means++, fixed)")
    batch_size = param.Integer(default=100, bounds=(1, None), doc="s: minibatch size (clamped to n with a warning)")
    step_size = param.Selector(
        default="method default",
        objects=["method default", "adaptive", "robbins-monro", "constant"],
        doc="Step-size rule for the natural-gradient step (EPGPC: the SEP step ε); "
        "'method default': Robbins–Monro (τ = 10, κ = 0.6) for X-GPC and EPGPC, the "
        "adaptive rule for natural-gradient SVGP",
    )
    rho = param.Number(default=_XGPC_STEPS.rho, bounds=(1e-6, 1.0), doc="Constant step size ρ")
    tau = param.Number(default=_XGPC_STEPS.tau, bounds=(1.0, None), doc="Robbins–Monro delay τ in ρ_t = (t+τ)^−κ")
    kappa = param.Number(default=_XGPC_STEPS.kappa, bounds=(0.51, 1.0), doc="Robbins–Monro forgetting rate κ")
    learn_hyperparameters = param.Boolean(default=True, doc="Adam on log lengthscale and log variance")
    hyper_learning_rate = param.Number(default=0.01, bounds=(1e-6, 1.0), doc="Adam learning rate")
    kernel = param.ClassSelector(
        default="rbf",
        class_=(str, Kernel),
        doc=f"Kernel family by name ({', '.join(KERNELS)}), or a `Kernel` object whose own "
        "initial parameters replace lengthscale, variance, nugget and ard (it is copied, "
        "never changed)",
    )
    ard = param.Boolean(default=False, doc="One lengthscale per feature (ARD), all starting at `lengthscale`")
    lengthscale = param.Number(
        default=1.0,
        bounds=(1e-6, 1e6),
        inclusive_bounds=(False, True),
        doc="Initial kernel lengthscale ℓ (standardised units)",
    )
    variance = param.Number(
        default=1.0,
        bounds=(1e-6, 1e6),
        inclusive_bounds=(False, True),
        doc="Initial kernel variance σ² (at most 1e6: a latent sd of 1000 is certainty already)",
    )
    nugget = param.Number(default=1e-4, bounds=(1e-10, 10.0), doc="γ: white-noise variance on f (jitter)")
    seed = param.Integer(default=0, bounds=(0, None), doc="Seed of the data split, inducing points and minibatches")
    eval_every = param.Integer(default=10, bounds=(1, None), doc="Iterations between evaluations")
    eval_points = param.Integer(
        default=5000,
        bounds=(100, None),
        doc="Most test rows (and training rows for the ELBO) used per evaluation: larger data "
        "are evaluated on fixed random subsets so big sets stay responsive",
    )

    iteration = param.Integer(default=0, constant=True, doc="SVI iterations done")
    history_length = param.Integer(default=0, constant=True, doc="History rows ever added; grows with new rows")
    converged = param.Boolean(default=False, constant=True, doc="The paper's global-parameter criterion holds")
    status = param.String(default="", constant=True, doc="What happened last, for people")

    _STRUCTURAL = (
        "dataset",
        "n_points",
        "noise",
        "train_fraction",
        "method",
        "n_inducing",
        "batch_size",
        "step_size",
        "rho",
        "tau",
        "kappa",
        "learn_hyperparameters",
        "hyper_learning_rate",
        "kernel",
        "ard",
        "lengthscale",
        "variance",
        "nugget",
        "seed",
        "eval_points",
    )

    def __init__(self, data_dir: str | None = None, **params):
        """`dataset` defaults to the paper's banana set when its file is found, else the generated banana-like set;
        a found file that cannot be read (damaged, truncated, NaN cells) is named in a warning (also in `fallback`
        and `status`) and the generated set used instead. A data set asked for by name raises instead."""
        self.data_dir = data_dir
        self.param.dataset.objects = datasets.available(data_dir) + ["custom"]
        chosen = "dataset" in params
        params.setdefault("dataset", "banana" if "banana" in self.param.dataset.objects else "banana-like")
        self._custom = None
        self._collapsed = False
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
        self.param.watch(self._configuration_changed, list(self._STRUCTURAL))

    # ----- building a run --------------------------------------------------------------------------------------
    def _load_data(self):
        if self.dataset == "custom":
            if self._custom is None:
                raise datasets.DataError(
                    "the data set 'custom' needs your data first: upload a CSV in the Data tab "
                    "(from Python: model.set_data(X, y, name))"
                )
            X, y, self.feature_names = self._custom["X"], self._custom["y"], self._custom["feature_names"]
        elif self.dataset in datasets.BUILTIN:
            X, y, self.feature_names = datasets.load_with_names(
                self.dataset, n=self.n_points, noise=self.noise, seed=self.seed
            )
        else:
            X, y, self.feature_names = datasets.load_with_names(self.dataset, self.data_dir)
        split_rng, self._inducing_rng, self._engine_rng, self._elbo_rng = (
            np.random.default_rng(s) for s in np.random.SeedSequence(self.seed).spawn(4)
        )
        X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 1.0 - self.train_fraction, split_rng)
        return X_tr, X_te, y_tr.astype(np.int64), y_te.astype(np.int64)

    def _build(self) -> None:
        """Load data and start the run (`recipe.start_run`) for the current configuration (all or nothing)."""
        X_tr, X_te, y_tr, y_te = self._load_data()
        monitor = _evaluation_rows(len(X_te), self.eval_points, self.seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = recipe.start_run(
                self.method,
                X_tr,
                y_tr,
                X_te[monitor],
                y_te[monitor],
                self._initial_kernel(X_tr.shape[1]),
                n_inducing=self.n_inducing,
                inducing_rng=self._inducing_rng,
                engine_rng=self._engine_rng,
                evaluation_rng=self._elbo_rng,
                **self._run_options(),
            )
        self.X_train, self.X_test, self.y_train, self.y_test = X_tr, X_te, y_tr, y_te
        self.scaler, self.engine, self.trainer = run.scaler, run.engine, run.trainer
        self._collapsed = False
        self.warnings = [str(w.message) for w in caught]
        self._publish(
            status=f"New run: {self.method} on {self.dataset} (n = {len(X_tr)} train, {len(X_te)} test, "
            f"m = {run.engine.m})" + "".join(f"; {w}" for w in self.warnings)
        )

    def _run_options(self) -> dict:
        """The recipe's options that follow from the configuration (minibatches, evaluation, builder options)."""
        return {
            "batch_size": self.batch_size,
            "eval_every": self.eval_every,
            "elbo_points": self.eval_points,
            "options": {
                "learn_hyperparameters": self.learn_hyperparameters,
                "hyper_learning_rate": self.hyper_learning_rate,
                **self._step_options(),
            },
        }

    def _initial_kernel(self, d: int) -> Kernel:
        """The run's starting kernel: the family `kernel` with the initial parameters, or a copy of a `Kernel`."""
        return initial_kernel(
            self.kernel, d, lengthscale=self.lengthscale, variance=self.variance, nugget=self.nugget, ard=self.ard
        )

    def _step_options(self) -> dict:
        """Builder options for the step-size rule: none for "method default" (each method's own), else the rule and
        its parameters."""
        if self.step_size == "method default":
            return {}
        return {"step_size": self.step_size, "rho": self.rho, "tau": self.tau, "kappa": self.kappa}

    def _publish(self, status: str | None = None) -> None:
        values = {
            "iteration": int(self.engine.iteration),
            "history_length": self.trainer.history.total,
            "converged": bool(self.trainer.converged),
        }
        if status is not None:
            values["status"] = status
        with param.edit_constant(self):
            self.param.update(**values)

    def _configuration_changed(self, *events) -> None:
        changes = ", ".join(f"{e.name} {e.old!r} → {e.new!r}" for e in events)
        saved = (
            self.X_train,
            self.X_test,
            self.y_train,
            self.y_test,
            self.scaler,
            self.engine,
            self.trainer,
            self.feature_names,
            self.warnings,
        )
        try:
            self._build()
        except Exception as err:
            (
                self.X_train,
                self.X_test,
                self.y_train,
                self.y_test,
                self.scaler,
                self.engine,
                self.trainer,
                self.feature_names,
                self.warnings,
            ) = saved
            with param.parameterized.discard_events(self):
                self.param.update(**{e.name: e.old for e in events})
            self._publish(status=f"Could not apply {changes}: {err}. The previous run is kept.")
            raise
        with param.edit_constant(self):
            self.status = f"Run reset ({changes}). " + self.status

    # ----- driving ----------------------------------------------------------------------------------------------
    @property
    def history(self):
        """The run's `training.History` (rows: iteration, seconds, elbo, test_nll, test_error, rho, lengthscale,
        variance, and the kernel's further parameters, e.g. lengthscale_1 … under ARD)."""
        return self.trainer.history

    def step(self, k: int = 1) -> int:
        """Advance k ≥ 0 SVI iterations (evaluating every `eval_every`); returns the number of new history rows.
        On an error the run stays at its last good state and `status` names the error and what to change."""
        k = count(k)
        try:
            new = self.trainer.step(k)
        except Exception as err:
            self._failed(err)
            raise
        self._publish(status=self._collapse_status(new))
        return new

    def run(self, seconds: float | None = None, max_iter: int | None = None, stop_at_convergence: bool = True) -> int:
        """Step until `seconds` of training time, `max_iter` total iterations, or convergence. Returns new rows."""
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
        self._publish(
            status=self._collapse_status(1)
            or f"Ran to iteration {self.engine.iteration}" + (" (converged)" if self.trainer.converged else "")
        )
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
        self.engine.hyper_optimizer = None
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
        with param.edit_constant(self):
            self.status = "Run reset by request. " + self.status

    @param.depends("eval_every", watch=True)
    def _eval_every_changed(self) -> None:
        self.trainer.eval_every = self.eval_every

    # ----- data -------------------------------------------------------------------------------------------------
    def set_data(self, X, y, name: str = "custom", feature_names=None) -> None:
        """Use (X, y) as the data set ('custom'); validated first: on a DataError nothing changes."""
        X, y, classes = datasets.validate(X, y, feature_names=feature_names, source=name)
        methods.check_classes(self.method, classes, source=name)
        bounded_features(X, str(name))
        names = list(feature_names) if feature_names is not None else [f"x{j + 1}" for j in range(X.shape[1])]
        previous = self._custom
        self._custom = {"X": X, "y": y, "feature_names": names, "name": name, "classes": classes}
        try:
            if self.dataset == "custom":
                self._configuration_changed(_Change("dataset", "custom", "custom"))
            else:
                self.dataset = "custom"
        except Exception:
            self._custom = previous
            raise
        with param.edit_constant(self):
            self.status = f"Loaded {name}: {len(X)} rows, {X.shape[1]} features. " + self.status

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
        x_std = standardised(self.scaler, x, "the new point")
        X_train = np.vstack([self.X_train, x])
        y_train = np.append(self.y_train, label)
        self.engine.set_training_data(np.vstack([self.engine.X, x_std]), y_train)
        self.X_train, self.y_train = X_train, y_train
        self._publish(
            status=f"Added a training point of class {self.classes[label]} at {np.round(x.ravel(), 3).tolist()}"
        )

    @property
    def inducing_points(self) -> np.ndarray:
        """Z in raw units, (m, d)."""
        return self.scaler.inverse_transform(self.engine.Z)

    # ----- predictions -----------------------------------------------------------------------------------------
    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) mean and variance at raw-unit inputs X (n*, d), within ±1e100 before and after standardisation."""
        return self.engine.predict_latent(standardised(self.scaler, X))

    def predict_proba(self, X) -> np.ndarray:
        """The class probabilities (n*, K) at raw-unit inputs X (n*, d), column k for `classes[k]`: finite, in [0, 1],
        rows summing to 1 (NumericalError if the run diverged)."""
        return self.engine.predict_proba(standardised(self.scaler, X))

    @property
    def classes(self) -> np.ndarray:
        """The data's class values (K,) for the class indices 0…K−1 of `y_train`, `y_test` and the columns of
        `predict_proba`: −1 and +1 for the built-in and paper sets, the values given to `set_data` for custom data."""
        return np.array([-1, 1]) if self._custom is None else self._custom["classes"]

    def surface(self, resolution: int = 80, features: tuple[int, int] = (0, 1), margin: float = 0.1) -> dict:
        """p(class 1) (column 1 of the (n*, 2) class probabilities) and predictive sd on a resolution² grid over the
        training range of two features (others at their training mean): dict(x (nx,), y (ny,), p (ny, nx),
        sd (ny, nx)). sd is that of the latent f*.
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
        lo, hi = self.X_train.min(0), self.X_train.max(0)
        pad = margin * (hi - lo)
        gx = np.linspace(lo[i] - pad[i], hi[i] + pad[i], resolution)
        gy = np.linspace(lo[j] - pad[j], hi[j] + pad[j], resolution)
        grid = np.tile(self.X_train.mean(0), (resolution * resolution, 1))
        xx, yy = np.meshgrid(gx, gy)
        grid[:, i], grid[:, j] = xx.ravel(), yy.ravel()
        mean, var = self.predict_latent(grid)
        p = self.engine.link.predictive(mean, var)[:, 1]  # p(class 1) through the method's link (logit, probit)
        return {
            "x": gx,
            "y": gy,
            "p": p.reshape(resolution, resolution),
            "sd": np.sqrt(var).reshape(resolution, resolution),
        }

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
        """Write the run to one `.npz` (arrays) with its JSON description inside (no pickle). `Model.load(path)`
        continues it exactly: the next step gives the same state as without the round trip, and `reset()` the same
        split (custom data are stored with their class names)."""
        config = {name: getattr(self, name) for name in self._STRUCTURAL + ("eval_every",)}
        if isinstance(self.kernel, Kernel):
            config["kernel"] = {key: np.asarray(value).tolist() for key, value in self.kernel.state_dict().items()}
        config = _extract_arrays(config, {}, "")
        state = {"engine": self.engine.state_dict(), "trainer": self.trainer.state_dict()}
        arrays = {
            "X_train": self.X_train,
            "X_test": self.X_test,
            "y_train": self.y_train,
            "y_test": self.y_test,
            "Z": self.engine.Z,
        }
        custom = None
        if self._custom is not None:
            arrays["custom/X"], arrays["custom/y"] = self._custom["X"], self._custom["y"]
            custom = {
                "name": self._custom["name"],
                "feature_names": self._custom["feature_names"],
                "classes": self._custom["classes"].tolist(),
            }
        tree = _extract_arrays(state, arrays, "state")
        meta = {
            "format": RUN_FORMAT,
            "config": config,
            "state": tree,
            "feature_names": self.feature_names,
            "scaler": self.scaler.to_dict(),
            "custom": custom,
            "kernel_learning": self.engine.hyper_optimizer is not None,
            "engine_batch_size": self.engine.batch_size,
        }  # clamped to n at the start; added points keep it
        with open(path, "wb") as f:
            np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path, data_dir: str | None = None) -> "Model":
        """Restore a run written by `save`. `data_dir` is where a later `reset()` reads a paper data set from (as for
        `Model(data_dir=…)`; the file does not choose it). Any problem with the file — not an npz, truncated,
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

        arrays = _run_arrays(path, refuse)
        if "__meta__" not in arrays or arrays["__meta__"].shape != () or arrays["__meta__"].dtype.kind != "U":
            refuse("no run description (__meta__) inside; not written by Model.save")
        meta = json.loads(str(arrays.pop("__meta__")))
        if not isinstance(meta, dict) or meta.get("format") != RUN_FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
            refuse(f"format {found!r}, expected {RUN_FORMAT!r} (written by another program or version)")
        config = meta["config"]
        expected = set(cls._STRUCTURAL) | {"eval_every"}
        if not isinstance(config, dict) or set(config) != expected:
            keys = set(config) if isinstance(config, dict) else set()
            refuse(f"settings missing {sorted(expected - keys)} or unknown {sorted(keys - expected)}")
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
        if isinstance(config["kernel"], dict):
            config = dict(config, kernel=kernel_from_state(config["kernel"]))
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
        param.Parameterized.__init__(model, **config)
        model._check_data(X_train, X_test, y_train, y_test, len(Z), refuse)
        model._restore(dict(arrays, X_train=X_train, X_test=X_test, y_train=y_train, y_test=y_test, Z=Z), meta)
        model.param.watch(model._configuration_changed, list(cls._STRUCTURAL))
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

    def _restore(self, arrays: dict, meta: dict) -> None:
        self.X_train, self.X_test = arrays["X_train"], arrays["X_test"]
        self.y_train, self.y_test = arrays["y_train"], arrays["y_test"]
        self.feature_names = meta["feature_names"]
        self.scaler = Standardizer.from_dict(meta["scaler"])
        state = _insert_arrays(meta["state"], arrays)
        batch_size = meta["engine_batch_size"]
        if not (isinstance(batch_size, int) and 1 <= batch_size <= min(self.batch_size, len(self.X_train))):
            raise ValueError(f"engine batch size {batch_size!r} is not between 1 and min(batch_size, n)")
        monitor = _evaluation_rows(len(self.X_test), self.eval_points, self.seed)
        run = recipe.start_run(
            self.method,
            self.X_train,
            self.y_train,
            self.X_test[monitor],
            self.y_test[monitor],
            self._initial_kernel(self.X_train.shape[1]),
            scaler=self.scaler,
            Z=arrays["Z"],
            **dict(self._run_options(), batch_size=batch_size),
        )
        self.engine, self.trainer = run.engine, run.trainer
        if not meta["kernel_learning"]:
            self.engine.hyper_optimizer = None  # turned off by continue_without_kernel_learning
        warm = state["engine"].get("warm_started", True)
        if not isinstance(warm, bool) or not (warm or getattr(self.engine.schedule, "needs_warm_start", False)):
            raise ValueError(f"warm_started = {warm!r} does not fit the step-size rule {self.step_size!r}")
        self.engine.load_state_dict(state["engine"])
        self.trainer.load_state_dict(state["trainer"])
        _trial_step(self.trainer)
        self.warnings = []
        self._publish(status=f"Loaded run at iteration {self.engine.iteration}")


def _trial_step(trainer: Trainer) -> None:
    """One step and one evaluation on a copy of a restored run: a stored state that cannot run (arrays of the wrong
    shape or kind) raises ValueError here, at load. A NumericalError is let through: a real run can be saved in a
    state whose next step fails numerically, and loading it lets the user continue differently."""
    trial = copy.deepcopy(trainer)
    try:
        trial.engine.step(1)
        trial.evaluate()
    except NumericalError:
        pass
    except Exception as err:
        raise ValueError(f"the stored state does not run ({type(err).__name__}: {err})") from err


MAX_RUN_BYTES = 2 * datasets.MAX_DENSE_BYTES + (1 << 28)
"""Most bytes the arrays of a run file may declare in all: the data twice (the split, and the upload it came from)
and room for the state (a few m × m matrices, m ≤ 2,000)."""


def _run_arrays(path, refuse) -> dict:
    """Every array of the run file `path`, each checked from its zip and .npy headers before it is read: a regular
    file, an .npz archive of .npy members, none declaring more than `datasets.MAX_DENSE_BYTES` or more data than it
    holds, MAX_RUN_BYTES in all; no pickles."""
    try:
        size = regular_file(path).st_size
    except datasets.DataError as err:
        raise RunFileError(str(err)) from None
    if size == 0:
        refuse("the file is empty")
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic != b"PK\x03\x04":
        refuse("not an .npz archive (Model.save writes one); another kind of file or its start is damaged")
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            declared = sum(info.file_size for info in members)
            if declared > MAX_RUN_BYTES:
                refuse(f"its arrays declare {declared:,} bytes in all, over the limit of {MAX_RUN_BYTES:,} for a run")
            odd = [info.filename for info in members if not info.filename.endswith(".npy")]
            if odd:
                refuse(f"member {odd[0]!r} is not a .npy array; not written by Model.save")
            return {info.filename[:-4]: npz_member(archive, info.filename[:-4], str(path)) for info in members}
    except RunFileError:
        raise
    except datasets.DataError as err:
        raise RunFileError(str(err)) from None
    except (zipfile.BadZipFile, EOFError, ValueError, OSError) as err:
        refuse(f"the .npz archive is truncated or corrupted ({type(err).__name__}: {err})")


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
    K = len(classes)
    if classes.ndim != 1 or len(np.unique(classes)) != K or not np.array_equal(np.unique(arrays["custom/y"]), range(K)):
        refuse(f"custom classes {custom['classes']!r} are not {K} distinct values for the labels 0…{K - 1}")
    return {
        "X": X,
        "y": y,
        "feature_names": list(custom["feature_names"]),
        "name": str(custom["name"]),
        "classes": classes,
    }


def _evaluation_rows(n: int, most: int, seed: int) -> np.ndarray:
    """Indices of the test rows used for the live evaluation: all n, or a fixed random subset of `most`."""
    if n <= most:
        return np.arange(n)
    return np.sort(np.random.default_rng([seed, 7]).choice(n, most, replace=False))


class _Change:
    """A stand-in for a param event when set_data replaces the custom data under an unchanged `dataset`."""

    def __init__(self, name, old, new):
        self.name, self.old, self.new = name, old, new


def _extract_arrays(tree, arrays: dict, prefix: str):
    """Replace every ndarray in a nested dict/list by {"__array__": key}, storing it in `arrays`."""
    if isinstance(tree, dict):
        return {k: _extract_arrays(v, arrays, f"{prefix}/{k}") for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [_extract_arrays(v, arrays, f"{prefix}/{i}") for i, v in enumerate(tree)]
    if isinstance(tree, np.ndarray):
        arrays[prefix] = tree
        return {"__array__": prefix}
    if isinstance(tree, np.generic):
        return tree.item()
    return tree


def _insert_arrays(tree, arrays: dict):
    if isinstance(tree, dict):
        if set(tree) == {"__array__"}:
            return arrays[tree["__array__"]]
        return {k: _insert_arrays(v, arrays) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_insert_arrays(v, arrays) for v in tree]
    return tree
