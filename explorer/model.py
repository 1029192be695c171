"""`Model`: one X-GPC (or baseline) run as a `param.Parameterized` — its parameters are the run's configuration;
`step`, `run` and `reset` drive the shared training loop (`explorer.training.Trainer`); `history` holds one row per
evaluation. UIs watch `history_length` (new rows), `iteration` and `status`. No UI imports here.

Every configuration parameter except `eval_every` defines the run: changing one resets the run and `status` says so.
A change that cannot be applied (e.g. a data set that is not available) is rolled back, the run stays as it was, and
the error is raised to the caller.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import param

from explorer import datasets, methods, recipe
from explorer.kernels import KERNELS, Kernel, initial_kernel, kernel_from_state
from explorer.likelihoods import logit_predictive_probability
from explorer.polyagamma import pg_mean
from explorer.schedules import DEFAULT_STEP_RULES

_XGPC_STEPS = DEFAULT_STEP_RULES["xgpc"]


class Model(param.Parameterized):
    """A stepping X-GPC run on one data set (split into train/test with `train_fraction`, standardised with the
    training statistics). Data arrays and predictions are in the data's raw units."""

    dataset = param.Selector(default="banana-like", objects=["banana-like"], doc="Data set: built-in 2-D set, a "
                             "paper data set found in the data directory, or 'custom' (see set_data)")
    n_points = param.Integer(default=400, bounds=(20, 100_000), doc="Points generated for a built-in set")
    noise = param.Number(default=None, bounds=(0, None), allow_None=True,
                         doc="Noise of a built-in set (None: the set's default)")
    train_fraction = param.Number(default=0.8, bounds=(0.05, 0.95), doc="Share of the data used for training")
    method = param.Selector(default="xgpc", objects=list(methods.METHODS), doc="Inference method")
    n_inducing = param.Integer(default=100, bounds=(1, 2000), doc="m: inducing points (k-means++, fixed)")
    batch_size = param.Integer(default=100, bounds=(1, None), doc="s: minibatch size (clamped to n with a warning)")
    step_size = param.Selector(default="method default", objects=["method default", "adaptive", "robbins-monro",
                                                                   "constant"],
                               doc="Step-size rule for the natural-gradient step; 'method default': Robbins–Monro "
                                   "(τ = 10, κ = 0.6) for X-GPC, the adaptive rule for natural-gradient SVGP")
    rho = param.Number(default=_XGPC_STEPS.rho, bounds=(1e-6, 1.0), doc="Constant step size ρ")
    tau = param.Number(default=_XGPC_STEPS.tau, bounds=(1.0, None), doc="Robbins–Monro delay τ in ρ_t = (t+τ)^−κ")
    kappa = param.Number(default=_XGPC_STEPS.kappa, bounds=(0.51, 1.0), doc="Robbins–Monro forgetting rate κ")
    learn_hyperparameters = param.Boolean(default=True, doc="Adam on log lengthscale and log variance")
    hyper_learning_rate = param.Number(default=0.01, bounds=(1e-6, 1.0), doc="Adam learning rate")
    kernel = param.ClassSelector(default="rbf", class_=(str, Kernel),
                                 doc=f"Kernel family by name ({', '.join(KERNELS)}), or a `Kernel` object whose own "
                                     "initial parameters replace lengthscale, variance, nugget and ard (it is copied, "
                                     "never changed)")
    ard = param.Boolean(default=False, doc="One lengthscale per feature (ARD), all starting at `lengthscale`")
    lengthscale = param.Number(default=1.0, bounds=(1e-6, None), inclusive_bounds=(False, True),
                               doc="Initial kernel lengthscale ℓ (standardised units)")
    variance = param.Number(default=1.0, bounds=(1e-6, None), inclusive_bounds=(False, True),
                            doc="Initial kernel variance σ²")
    nugget = param.Number(default=1e-4, bounds=(1e-10, 10.0), doc="γ: white-noise variance on f (jitter)")
    seed = param.Integer(default=0, bounds=(0, None), doc="Seed of the data split, inducing points and minibatches")
    eval_every = param.Integer(default=10, bounds=(1, None), doc="Iterations between evaluations")
    eval_points = param.Integer(default=5000, bounds=(100, None),
                                doc="Most test rows (and training rows for the ELBO) used per evaluation: larger data "
                                    "are evaluated on fixed random subsets so big sets stay responsive")

    iteration = param.Integer(default=0, constant=True, doc="SVI iterations done")
    history_length = param.Integer(default=0, constant=True, doc="History rows ever added; grows with new rows")
    converged = param.Boolean(default=False, constant=True, doc="The paper's global-parameter criterion holds")
    status = param.String(default="", constant=True, doc="What happened last, for people")

    _STRUCTURAL = ("dataset", "n_points", "noise", "train_fraction", "method", "n_inducing", "batch_size",
                   "step_size", "rho", "tau", "kappa", "learn_hyperparameters", "hyper_learning_rate",
                   "kernel", "ard", "lengthscale", "variance", "nugget", "seed", "eval_points")

    def __init__(self, data_dir: str | None = None, **params):
        self.data_dir = data_dir
        self.param.dataset.objects = datasets.available(data_dir) + ["custom"]
        params.setdefault("dataset", "banana" if "banana" in self.param.dataset.objects else "banana-like")
        self._custom = None
        super().__init__(**params)
        self._build()
        self.param.watch(self._configuration_changed, list(self._STRUCTURAL))

    # ----- building a run --------------------------------------------------------------------------------------
    def _load_data(self):
        if self.dataset == "custom":
            if self._custom is None:
                raise datasets.DataError("dataset 'custom' needs data: call set_data(X, y, name) first")
            X, y, self.feature_names = self._custom["X"], self._custom["y"], self._custom["feature_names"]
        elif self.dataset in datasets.BUILTIN:
            X, y, self.feature_names = datasets.load_with_names(self.dataset, n=self.n_points, noise=self.noise,
                                                                seed=self.seed)
        else:
            X, y, self.feature_names = datasets.load_with_names(self.dataset, self.data_dir)
        split_rng, self._inducing_rng, self._engine_rng, self._elbo_rng = (
            np.random.default_rng(s) for s in np.random.SeedSequence(self.seed).spawn(4))
        X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 1.0 - self.train_fraction, split_rng)
        return X_tr, X_te, y_tr.astype(float), y_te.astype(float)

    def _build(self) -> None:
        """Load data and start the run (`recipe.start_run`) for the current configuration (all or nothing)."""
        X_tr, X_te, y_tr, y_te = self._load_data()
        monitor = _evaluation_rows(len(X_te), self.eval_points, self.seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = recipe.start_run(
                self.method, X_tr, y_tr, X_te[monitor], y_te[monitor], self._initial_kernel(X_tr.shape[1]), n_inducing=self.n_inducing,
                inducing_rng=self._inducing_rng, engine_rng=self._engine_rng, evaluation_rng=self._elbo_rng,
                **self._run_options())
        self.X_train, self.X_test, self.y_train, self.y_test = X_tr, X_te, y_tr, y_te
        self.scaler, self.engine, self.trainer = run.scaler, run.engine, run.trainer
        self.warnings = [str(w.message) for w in caught]
        self._publish(status=f"New run: {self.method} on {self.dataset} (n = {len(X_tr)} train, {len(X_te)} test, "
                            f"m = {run.engine.m})" + "".join(f"; {w}" for w in self.warnings))

    def _run_options(self) -> dict:
        """The recipe's options that follow from the configuration (minibatches, evaluation, builder options)."""
        return {"batch_size": self.batch_size, "eval_every": self.eval_every, "elbo_points": self.eval_points,
                "options": {"learn_hyperparameters": self.learn_hyperparameters,
                            "hyper_learning_rate": self.hyper_learning_rate, **self._step_options()}}

    def _initial_kernel(self, d: int) -> Kernel:
        """The run's starting kernel: the family `kernel` with the initial parameters, or a copy of a `Kernel`."""
        return initial_kernel(self.kernel, d, lengthscale=self.lengthscale, variance=self.variance,
                              nugget=self.nugget, ard=self.ard)

    def _step_options(self) -> dict:
        """Builder options for the step-size rule: none for "method default" (each method's own), else the rule and
        its parameters."""
        if self.step_size == "method default":
            return {}
        return {"step_size": self.step_size, "rho": self.rho, "tau": self.tau, "kappa": self.kappa}

    def _publish(self, status: str | None = None) -> None:
        values = {"iteration": int(self.engine.iteration), "history_length": self.trainer.history.total,
                  "converged": bool(self.trainer.converged)}
        if status is not None:
            values["status"] = status
        with param.edit_constant(self):
            self.param.update(**values)

    def _configuration_changed(self, *events) -> None:
        changes = ", ".join(f"{e.name} {e.old!r} → {e.new!r}" for e in events)
        saved = (self.X_train, self.X_test, self.y_train, self.y_test, self.scaler, self.engine, self.trainer,
                 self.feature_names, self.warnings)
        try:
            self._build()
        except Exception as err:
            (self.X_train, self.X_test, self.y_train, self.y_test, self.scaler, self.engine, self.trainer,
             self.feature_names, self.warnings) = saved
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
        """Advance k SVI iterations (evaluating every `eval_every`); returns the number of new history rows.
        On an error the run stays at its last good state and `status` names the error."""
        try:
            new = self.trainer.step(k)
        except Exception as err:
            self._publish(status=f"Step failed at iteration {self.engine.iteration + 1}: {err}")
            raise
        self._publish()
        return new

    def run(self, seconds: float | None = None, max_iter: int | None = None, stop_at_convergence: bool = True) -> int:
        """Step until `seconds` of training time, `max_iter` total iterations, or convergence. Returns new rows."""
        new = self.trainer.run(seconds=seconds, max_iter=max_iter, stop_at_convergence=stop_at_convergence,
                               progress=lambda _: self._publish())
        self._publish(status=f"Ran to iteration {self.engine.iteration}"
                             + (" (converged)" if self.trainer.converged else ""))
        return new

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
        """Add a training point x (raw units, (d,)) with label ±1 and keep training (the playground click)."""
        x = np.asarray(x, dtype=float).reshape(1, -1)
        if x.shape[1] != self.X_train.shape[1] or not np.all(np.isfinite(x)):
            raise datasets.DataError(f"a new point needs {self.X_train.shape[1]} finite coordinates, got {x.ravel()}")
        if label not in (-1, 1):
            raise datasets.DataError(f"label must be −1 or +1, got {label!r}")
        X_train = np.vstack([self.X_train, x])
        y_train = np.append(self.y_train, float(label))
        self.engine.set_training_data(self.scaler.transform(X_train), y_train)
        self.X_train, self.y_train = X_train, y_train
        self._publish(status=f"Added a training point of class {label:+d} at {np.round(x.ravel(), 3).tolist()}")

    @property
    def inducing_points(self) -> np.ndarray:
        """Z in raw units, (m, d)."""
        return self.scaler.inverse_transform(self.engine.Z)

    # ----- predictions -----------------------------------------------------------------------------------------
    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """q(f*) mean and variance at raw-unit inputs X (n*, d)."""
        return self.engine.predict_latent(self.scaler.transform(np.asarray(X, dtype=float)))

    def predict_proba(self, X) -> np.ndarray:
        """p(y* = +1 | data) at raw-unit inputs X (n*, d)."""
        return self.engine.predict_proba(self.scaler.transform(np.asarray(X, dtype=float)))

    def surface(self, resolution: int = 80, features: tuple[int, int] = (0, 1), margin: float = 0.1) -> dict:
        """p(y=1) and predictive sd on a resolution² grid over the training range of two features (others at their
        training mean): dict(x (nx,), y (ny,), p (ny, nx), sd (ny, nx)). sd is that of the latent f*."""
        i, j = features
        lo, hi = self.X_train.min(0), self.X_train.max(0)
        pad = margin * (hi - lo)
        gx = np.linspace(lo[i] - pad[i], hi[i] + pad[i], resolution)
        gy = np.linspace(lo[j] - pad[j], hi[j] + pad[j], resolution)
        grid = np.tile(self.X_train.mean(0), (resolution * resolution, 1))
        xx, yy = np.meshgrid(gx, gy)
        grid[:, i], grid[:, j] = xx.ravel(), yy.ravel()
        mean, var = self.predict_latent(grid)
        p = logit_predictive_probability(mean, var)
        return {"x": gx, "y": gy, "p": p.reshape(resolution, resolution),
                "sd": np.sqrt(var).reshape(resolution, resolution)}

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
        continues it exactly: the next step gives the same state as without the round trip."""
        config = {name: getattr(self, name) for name in self._STRUCTURAL + ("eval_every",)}
        if isinstance(self.kernel, Kernel):
            config["kernel"] = {key: np.asarray(value).tolist() for key, value in self.kernel.state_dict().items()}
        state = {"engine": self.engine.state_dict(), "trainer": self.trainer.state_dict()}
        arrays = {"X_train": self.X_train, "X_test": self.X_test, "y_train": self.y_train, "y_test": self.y_test,
                  "Z": self.engine.Z}
        tree = _extract_arrays(state, arrays, "state")
        meta = {"format": "xgpc-explorer-run/1", "config": config, "state": tree,
                "feature_names": self.feature_names, "data_dir": self.data_dir,
                "scaler": self.scaler.to_dict(), "custom_name": None if self._custom is None else self._custom["name"]}
        with open(path, "wb") as f:
            np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path) -> "Model":
        """Restore a run written by `save`."""
        with np.load(path, allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
        meta = json.loads(str(arrays.pop("__meta__")))
        if meta.get("format") != "xgpc-explorer-run/1":
            raise ValueError(f"{path}: not an X-GPC Explorer run file (format {meta.get('format')!r})")
        config = dict(meta["config"])
        if isinstance(config.get("kernel"), dict):
            config["kernel"] = kernel_from_state(config["kernel"])
        model = cls.__new__(cls)
        model.data_dir = meta["data_dir"]
        model.param.dataset.objects = datasets.available(model.data_dir) + ["custom"]
        X_all = np.vstack([arrays["X_train"], arrays["X_test"]])
        y_all = np.concatenate([arrays["y_train"], arrays["y_test"]])
        model._custom = None
        if config["dataset"] == "custom":
            model._custom = {"X": X_all, "y": y_all.astype(np.int8), "feature_names": meta["feature_names"],
                             "name": meta["custom_name"], "classes": np.array([-1, 1])}
        param.Parameterized.__init__(model, **config)
        model._restore(arrays, meta)
        model.param.watch(model._configuration_changed, list(cls._STRUCTURAL))
        return model

    def _restore(self, arrays: dict, meta: dict) -> None:
        self.X_train, self.X_test = arrays["X_train"], arrays["X_test"]
        self.y_train, self.y_test = arrays["y_train"], arrays["y_test"]
        self.feature_names = meta["feature_names"]
        self.scaler = datasets.Standardizer.from_dict(meta["scaler"])
        state = _insert_arrays(meta["state"], arrays)
        monitor = _evaluation_rows(len(self.X_test), self.eval_points, self.seed)
        run = recipe.start_run(self.method, self.X_train, self.y_train, self.X_test[monitor], self.y_test[monitor],
                               self._initial_kernel(self.X_train.shape[1]), scaler=self.scaler, Z=arrays["Z"],
                               **self._run_options())
        self.engine, self.trainer = run.engine, run.trainer
        self.engine.load_state_dict(state["engine"])
        self.trainer.load_state_dict(state["trainer"])
        self.warnings = []
        self._publish(status=f"Loaded run at iteration {self.engine.iteration}")


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
