"""`Run`: one headless run — its settings (`explorer.settings`), its data split, the engine and its `Trainer`, the
history, and save/load. The faces hold one: the param `Model`, `XGPClassifier`, the dashboard (through the Model)
and the benchmarks (`bench.protocol`).

The seed policy, the same from every face: a run's integer seed gives four independent streams
(`streams`: `np.random.SeedSequence(seed).spawn(4)`) — the train/test split (`datasets.train_test_split` with the
split stream, done by the face that holds the data), the inducing points (k-means++), the minibatches (the engine)
and the ELBO's row subset (the Trainer) — and the test rows evaluated when there are more
than `eval_points` are a fixed subset drawn with `[seed, 7]` (`evaluation_rows`). So the same settings, data and
seed give the same split, inducing points, minibatches and history whichever face starts the run.

Beneath `Run`, the one run recipe, `start_run` (the rows as a source → the scaler → Z by k-means++ → the engine →
its `Trainer`), which a few benchmarks call with streams of their own; and `full_batch_engine`, the engine of the
full-batch fit to the optimum (`training.fit_to_optimum`: the MCMC comparison, `bench bound`).
"""

from __future__ import annotations

import copy
import json
import math
import zipfile
from typing import NamedTuple

import numpy as np

from explorer import methods, settings
from explorer.data.readers import MAX_DENSE_BYTES, npz_member, regular_file
from explorer.inducing import initial_inducing
from explorer.kernels import Kernel, initial_kernel, kernel_from_state
from explorer.linalg import NumericalError
from explorer.metrics import chance_note
from explorer.scaling import Standardizer, extended, training_rows
from explorer.scoring import test_scores
from explorer.sources import CHUNK_ROWS, ArraySource, DataSource
from explorer.training import Trainer
from explorer.validation import DataError, show

RUN_FORMAT = "xgpc-explorer-run/5"
"""The run file's format; the older ones that still load: README "Run files" (versions 2 and 3 stored ±1 labels)."""
READABLE_FORMATS = ("xgpc-explorer-run/2", "xgpc-explorer-run/3", "xgpc-explorer-run/4", RUN_FORMAT)
RETIRED_SETTINGS = {
    "hyper_warmup": 0,
    "hyper_rate": "constant",
    "kernel_step": "fixed-u",
    "init_sweeps": 0,
    "init_rows": 2000,
    "average_window": 0,
    "batch_growth": 1.0,
    "batch_growth_start": 0,
    "batch_growth_every": 1,
    "batch_max": None,
    "batch_rho": "schedule",
    "overrelax": None,
}
"""The X-GPC options that run files of versions 3 and 4 store and that left the product (README "Choices"), with the
value that turned each off. `init_rows` only sized `init_sweeps`, so any value of it means "off" with no sweeps."""
_SIGNED_LABELS = ("y_train", "y_test", "custom/y")
"""The label arrays a version 2 or 3 file stores as ±1."""
ELBO_POINTS = 1000
"""Most training rows of the history's ELBO column, a fixed random subset drawn from the evaluation stream (the
estimate (n/s)Σ_{i∈subset}(…) − KL; why 1,000: BENCHMARKS.md "The ELBO column on at most 1,000 training rows")."""


class RunFileError(ValueError):
    """A run file that cannot be used; the message names the file and the problem."""


class Streams(NamedTuple):
    """The four random streams of a run (see the module's seed policy)."""

    split: np.random.Generator
    inducing: np.random.Generator
    engine: np.random.Generator
    evaluation: np.random.Generator


def streams(seed: int) -> Streams:
    """The run's streams for integer `seed` ≥ 0: independent children of `np.random.SeedSequence(seed)`."""
    return Streams(*(np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(4)))


def seed_from(random_state) -> int:
    """An integer seed from a scikit-learn style `random_state`: an int as it is; None a fresh one (from the
    operating system's entropy); a numpy Generator or legacy RandomState one drawn from it."""
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        return int(random_state)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**63))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    raise ValueError(f"random_state must be None, an int, a Generator or a RandomState, got {random_state!r}")


def evaluation_rows(n: int, most: int, seed: int) -> np.ndarray:
    """Indices of the test rows used for the live evaluation: all n, or a fixed random subset of `most`."""
    if n <= most:
        return np.arange(n)
    return np.sort(np.random.default_rng([seed, 7]).choice(n, most, replace=False))


def start_kernel(config: dict, d: int) -> Kernel:
    """The run's starting kernel on d features: the family `config["kernel"]` with the initial parameters of
    `config`, or a copy of a `Kernel` object. With no lengthscale given (None), ℓ₀ = √(d/2): two standardised points
    are about √(2d) apart, so a typical pair is at prior correlation exp(−2d/2ℓ₀²) = e^(−2) in any dimension
    (BENCHMARKS, "Defaults at any dimension")."""
    lengthscale = config["lengthscale"]
    return initial_kernel(
        config["kernel"],
        d,
        lengthscale=math.sqrt(d / 2) if lengthscale is None else lengthscale,
        variance=config["variance"],
        nugget=config["nugget"],
        ard=config["ard"],
    )


class Started(NamedTuple):
    """The parts `start_run` builds, which a `Run` holds: the training rows as given (`source`, held once), the
    scaler of its inputs (None: inputs used as given), the engine and its `Trainer`."""

    source: DataSource
    scaler: Standardizer | None
    engine: object
    trainer: Trainer


def start_run(
    method: str,
    X_train,
    y_train,
    X_eval: np.ndarray,
    y_eval: np.ndarray,
    kernel: Kernel,
    *,
    scaler: Standardizer | bool = True,
    Z: np.ndarray | None = None,
    n_inducing: int = 100,
    inducing_rng: np.random.Generator | None = None,
    engine_rng: np.random.Generator | None = None,
    evaluation_rng: np.random.Generator | None = None,
    batch_size: int = 100,
    eval_every: int = 10,
    convergence: str = "parameters",
    elbo_points: int = 10_000,
    options: dict | None = None,
    no_improvement=None,
    n_classes: int | None = None,
) -> Started:
    """Hold the training rows X_train (n, d), y_train (n,) class indices 0…K−1 as a source (`sources.as_source`,
    checked once; `n_classes` K when the model has classes the rows do not hold yet), fit the scaler on them and
    read them standardised through it (`scaling.training_rows`, the one place; X_eval (n_eval, d) is standardised as
    an array), choose Z (m, d) by k-means++ on the standardised rows with `inducing_rng` unless Z is given
    (standardised units), build `method` (a key of `methods.METHODS`, with builder `options`) on the standardised
    rows with the minibatch stream `engine_rng`, and wrap it in a `Trainer` evaluating on (X_eval, y_eval);
    `evaluation_rng` picks the Trainer's ELBO subset, `no_improvement` is the Trainer's early-stopping rule
    (`convergence.NoImprovement`; None: its default).

    X_train may be a `sources.DataSource` (y_train None), read out of core: the scaler is fitted in one pass over its
    chunks, and Z by k-means++ on a seeded sample of its rows (`inducing.initial_inducing`; README "Data larger than
    memory")."""
    source, scaler, train, X_eval = training_rows(X_train, y_train, X_eval, scaler=scaler, n_classes=n_classes)
    if Z is None:
        in_memory = isinstance(source, ArraySource)
        Z = initial_inducing(train.batch(np.arange(train.n))[0] if in_memory else train, n_inducing, inducing_rng)
    engine = methods.build(method, train, None, Z, kernel, batch_size=batch_size, rng=engine_rng, **(options or {}))
    trainer = Trainer(
        engine,
        X_eval,
        y_eval,
        eval_every=eval_every,
        convergence=convergence,
        elbo_points=elbo_points,
        rng=evaluation_rng,
        no_improvement=no_improvement,
    )
    return Started(source, scaler, engine, trainer)


def full_batch_engine(method: str, X: np.ndarray, y: np.ndarray, Z: np.ndarray | None, kernel: Kernel, **options):
    """An engine for `training.fit_to_optimum`: full batches, constant step ρ (default 1: X-GPC's exact coordinate
    ascent; SVGP's natural-gradient step needs a smaller `rho=`), fixed kernel; Z None is X-GPC's non-sparse mode
    (`full`). X (n, d) standardised, y (n,) class indices 0…K−1; further `options` as `methods.build`'s (e.g.
    `multiclass_family=`)."""
    fixed = {
        "step_size": "constant",
        "rho": 1.0,
        "learn_hyperparameters": False,
        **({"full": True} if Z is None else {}),
    }
    return methods.build(method, X, y, Z, kernel, batch_size=len(y), rng=np.random.default_rng(0), **(fixed | options))


class Run:
    """A started run on a train/test split: `config` (every setting), the data in the face's units (X goes one way,
    down, through `start_run`; predictions and added rows come in the face's units too), the scaler, the engine,
    its `Trainer` and the history.

    Parameters
    ----------
    config : dict
        Settings by name (`explorer.settings.SETTINGS`); missing ones take their defaults, each value is checked.
    X_train, y_train : (n, d), (n,)
        Training rows in input units, labels class indices 0…K−1; or X_train a `sources.DataSource` (y_train None)
        read out of core (`start_run`: chunked standardisation, k-means++ on a seeded sample).
    X_test, y_test : (n_test, d), (n_test,)
        Rows the history is evaluated on (at most `eval_points` of them, `evaluation_rows`, read into memory); or a
        `DataSource` (y_test None). `test_scores` evaluates all of them in chunks.
    kernel : Kernel, optional
        The starting kernel; default `start_kernel(config, d)`.
    scaler : Standardizer or bool
        True: standardise with the training rows' statistics; a fitted `Standardizer`; False: inputs as given.
    Z : (m, d), optional
        Inducing inputs in standardised units; default k-means++ on the training rows (the inducing stream).
    convergence, no_improvement :
        The Trainer's convergence rule and early-stopping criterion (`training.Trainer`).
    elbo_points : int, optional
        Most training rows of the ELBO column; default the smaller of `eval_points` and `ELBO_POINTS`.
    batch_size : int, optional
        The engine's minibatch size when it differs from the setting (a restored run's clamped size).
    classes : (K,), optional
        The user's names of the classes 0…K−1 (`validation.encode_labels` gives them; `classes`), K ≥ the labels'
        highest class index + 1 (a model may have classes its training rows do not hold yet:
        `XGPClassifier.partial_fit`'s `classes`); default 0…K−1 with K the labels' (the source's) highest index + 1.

    Examples
    --------
    >>> from explorer.data import datasets
    >>> X, y = datasets.load("moons", n=200, seed=0)
    >>> X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.2, streams(0).split)
    >>> run = Run({"n_inducing": 10, "batch_size": 50, "seed": 0}, X_tr, y_tr, X_te, y_te)
    >>> run.trainer.step(20)  # new history rows: iteration 0, then every eval_every = 10
    3
    """

    def __init__(
        self,
        config: dict,
        X_train: np.ndarray,
        y_train: np.ndarray,
        X_test: np.ndarray,
        y_test: np.ndarray,
        *,
        kernel: Kernel | None = None,
        scaler: Standardizer | bool = True,
        Z: np.ndarray | None = None,
        convergence: str = "parameters",
        no_improvement=None,
        elbo_points: int | None = None,
        batch_size: int | None = None,
        classes=None,
    ):
        self.config = config = settings.complete(config)
        seed = config["seed"]
        random = streams(seed)
        monitor = evaluation_rows(len(X_test), config["eval_points"], seed)
        X_monitor, y_monitor = (
            X_test.batch(monitor) if isinstance(X_test, DataSource) else (X_test[monitor], y_test[monitor])
        )
        self.source, self.scaler, self.engine, self.trainer = start_run(
            config["method"],
            X_train,
            y_train,
            X_monitor,
            y_monitor,
            kernel
            if kernel is not None
            else start_kernel(config, X_train.d if isinstance(X_train, DataSource) else X_train.shape[1]),
            scaler=scaler,
            Z=Z,
            n_inducing=config["n_inducing"],
            inducing_rng=random.inducing,
            engine_rng=random.engine,
            evaluation_rng=random.evaluation,
            batch_size=config["batch_size"] if batch_size is None else batch_size,
            eval_every=config["eval_every"],
            convergence=convergence,
            elbo_points=min(config["eval_points"], ELBO_POINTS) if elbo_points is None else elbo_points,
            options=settings.builder_options(config),
            no_improvement=no_improvement,
            n_classes=None if classes is None else len(classes),
        )
        self.X_test, self.y_test = X_test, y_test
        self.classes = np.arange(self.engine.n_classes) if classes is None else np.asarray(classes)

    def standardised(self, X, name: str = "X"):
        """X (n, d) in the units the run was given, in the engine's (`Standardizer.transform` with the run's scaler;
        as given when the run has none)."""
        return X if self.scaler is None else self.scaler.transform(X, name)

    def predict_proba(self, X) -> np.ndarray:
        """The class probabilities (n, K) at X (n, d) in the units the run was given; column k is `classes[k]`."""
        return self.engine.predict_proba(self.standardised(X))

    def predict_latent(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance of q(f*) at X (n, d) in the units the run was given: (n,), (n,) for two classes;
        (n, K), (n, K) for K ≥ 3."""
        return self.engine.predict_latent(self.standardised(X))

    def add_training_rows(self, X, y, name: str = "X") -> None:
        """Train on from here with the rows X (k, d) (the run's units), y (k,) class indices 0…K−1 added to the
        training data (the playground click, `XGPClassifier.partial_fit`). The run keeps all its rows once, in its
        units (`X_train`, `y_train`), which the engine reads standardised; rows beyond ±1e100 before or after
        standardisation, or labels beyond the run's classes, raise DataError and change nothing."""
        if not isinstance(self.source, ArraySource):
            raise ValueError("rows cannot be added to a run on data read out of core; add them to its files")
        rows, train = extended(self.source, X, y, self.scaler, name)
        self.engine.set_training_data(train, None)
        self.source = rows

    @property
    def X_train(self):
        """The training rows (n, d) in the units the run was given, held once (the engine reads them standardised);
        the `DataSource` of a run on data read out of core."""
        return self.source.X if isinstance(self.source, ArraySource) else self.source

    @property
    def y_train(self):
        """The training labels (n,), class indices 0…K−1; None for a run on data read out of core (its source holds
        them)."""
        return self.source.y if isinstance(self.source, ArraySource) else None

    @property
    def inducing_points(self) -> np.ndarray:
        """Z (m, d) in the units the run was given."""
        return self.engine.Z if self.scaler is None else self.scaler.inverse_transform(self.engine.Z)

    @property
    def history(self):
        """The `training.History`: one row per evaluation."""
        return self.trainer.history

    def chance_note(self) -> str | None:
        """`metrics.chance_note` of the latest evaluation after iteration 0 (None before, or without test rows)."""
        row = self.history.rows[-1] if len(self.history) else None
        if row is None or row["iteration"] == 0:
            return None
        return chance_note(row["test_nll"], self.trainer.y_eval, len(self.classes))

    def test_scores(self, chunk_rows: int = CHUNK_ROWS, *, client=None, progress=None) -> tuple[float, float]:
        """Test NLL and error rate over all test rows (not only the `eval_points` the history watches), read and
        predicted `chunk_rows` at a time (`scoring.test_scores`): a test source of any size fits. With a
        `distributed.Client` the chunks are scored in parallel as tasks on its cluster, with the same numbers;
        `progress(rows_done, n_test)` is called as chunks finish."""
        source = self.X_test if isinstance(self.X_test, DataSource) else ArraySource(self.X_test, self.y_test)
        return test_scores(
            self.engine, self.standardised(source, "test data"), chunk_rows, client=client, progress=progress
        )

    def set_eval_every(self, every: int) -> None:
        """Evaluate every `every` iterations from now on (the one setting that does not define the run)."""
        self.config["eval_every"] = settings.SETTINGS["eval_every"].check(every)
        self.trainer.eval_every = every

    def continue_without_kernel_learning(self) -> None:
        """Keep q(u), the kernel as learned so far and the history, and train on with the kernel fixed."""
        self.engine.hyper_optimizer = None
        self.config["learn_hyperparameters"] = False

    # ----- persistence ---------------------------------------------------------------------------------------
    def save(self, path, meta: dict | None = None, arrays: dict | None = None) -> None:
        """Write the run to one `.npz` (arrays) with its JSON description inside (no pickle): the settings (a
        `Kernel` object by its state), the data split, Z, the engine's and the Trainer's state, the scaler; `meta`
        and `arrays` add a face's own entries (the Model's custom data). `Run.read` and `Run.restore` continue it
        exactly. A step-size rule object, or data read out of core, cannot be stored (ValueError)."""
        if isinstance(self.X_train, DataSource) or isinstance(self.X_test, DataSource):
            raise ValueError(
                f"{path}: a run on data read out of core ({type(self.X_train).__name__}) cannot be saved into one "
                "file, which would copy the data; keep the data files and start the run again from them"
            )
        config = dict(self.config)
        if not isinstance(config["step_size"], str):
            raise ValueError(
                f"{path}: a run with a step-size rule object ({type(config['step_size']).__name__}) cannot be saved; "
                "name the rule (step_size with rho, tau, kappa) instead"
            )
        if isinstance(config["kernel"], Kernel):
            config["kernel"] = {key: np.asarray(v).tolist() for key, v in config["kernel"].state_dict().items()}
        stored = {name: getattr(self, name) for name in ("X_train", "X_test", "y_train", "y_test")}
        stored.update(Z=self.engine.Z, **(arrays or {}))
        state = {"engine": self.engine.state_dict(), "trainer": self.trainer.state_dict()}
        description = {
            "format": RUN_FORMAT,
            "config": _extract_arrays(config, {}, ""),
            "state": _extract_arrays(state, stored, "state"),
            "scaler": self.scaler.to_dict(),
            "kernel_learning": self.engine.hyper_optimizer is not None,
            "engine_batch_size": self.engine.batch_size,  # clamped to n at the start; added points keep it
            "classes": self.classes.tolist(),
            **(meta or {}),
        }
        with open(path, "wb") as f:
            np.savez(f, __meta__=np.array(json.dumps(description)), **stored)

    @staticmethod
    def read(path) -> tuple[dict, dict, dict]:
        """(settings, description, arrays) of a run file written by `save`, checked to be one: a readable format
        and every setting (an older file's missing settings take their defaults, its ±1 labels become indices). RunFileError names
        the file and the problem."""

        def refuse(problem: str):
            raise RunFileError(f"{path}: {problem}")

        arrays = _run_arrays(path, refuse)
        if "__meta__" not in arrays or arrays["__meta__"].shape != () or arrays["__meta__"].dtype.kind != "U":
            refuse("no run description (__meta__) inside; not written by Model.save")
        meta = json.loads(str(arrays.pop("__meta__")))
        if not isinstance(meta, dict) or meta.get("format") not in READABLE_FORMATS:
            found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
            refuse(f"format {found!r}, expected {RUN_FORMAT!r} (written by another program or version)")
        config = meta["config"]
        expected = {
            "xgpc-explorer-run/2": set(_VERSION_2_SETTINGS),
            "xgpc-explorer-run/3": (set(settings.SETTINGS) | set(RETIRED_SETTINGS)) - {"link"},
            "xgpc-explorer-run/4": set(settings.SETTINGS) | set(RETIRED_SETTINGS),
            RUN_FORMAT: set(settings.SETTINGS),
        }[meta["format"]]
        if meta["format"] != RUN_FORMAT:
            for name in set(_SIGNED_LABELS) & set(arrays):
                arrays[name] = (np.asarray(arrays[name]) > 0).astype(np.int64)
        if not isinstance(config, dict) or set(config) != expected:
            keys = set(config) if isinstance(config, dict) else set()
            refuse(f"settings missing {sorted(expected - keys)} or unknown {sorted(keys - expected)}")
        config = _without_retired(config, refuse)
        if "classes" in meta and not _class_names(meta["classes"]):
            refuse(f"class names {show(meta['classes'])} are not a list of at least 2 distinct texts or numbers")
        if isinstance(config["kernel"], dict):
            config = dict(config, kernel=kernel_from_state(config["kernel"]))
        try:
            config = settings.complete(config)
        except ValueError as err:
            refuse(f"settings: {err}")
        return config, meta, arrays

    @classmethod
    def restore(cls, config: dict, arrays: dict, meta: dict, classes=None) -> "Run":
        """The run stored in (arrays, meta) as `read` returns them, with the checked data arrays X_train, X_test,
        y_train, y_test and Z in `arrays`; continues exactly where it was saved, with the class names `classes` (K,)
        (default those stored, or 0…K−1 in a file written before runs held them). A stored state that cannot run
        raises ValueError."""
        batch_size = meta["engine_batch_size"]
        if not (isinstance(batch_size, int) and 1 <= batch_size <= min(config["batch_size"], len(arrays["X_train"]))):
            raise ValueError(f"engine batch size {batch_size!r} is not between 1 and min(batch_size, n)")
        run = cls(
            config,
            arrays["X_train"],
            arrays["y_train"],
            arrays["X_test"],
            arrays["y_test"],
            scaler=Standardizer.from_dict(meta["scaler"]),
            Z=arrays["Z"],
            batch_size=batch_size,
            classes=classes if classes is not None else meta.get("classes"),
        )
        if not meta["kernel_learning"]:
            run.engine.hyper_optimizer = None  # turned off by continue_without_kernel_learning
        state = _insert_arrays(meta["state"], arrays)
        warm = state["engine"].get("warm_started", True)
        if not isinstance(warm, bool) or not (warm or getattr(run.engine.schedule, "needs_warm_start", False)):
            raise ValueError(f"warm_started = {warm!r} does not fit the step-size rule {config['step_size']!r}")
        run.engine.load_state_dict(state["engine"])
        run.trainer.load_state_dict(state["trainer"])
        _trial_step(run.trainer)
        return run


def _without_retired(config: dict, refuse) -> dict:
    """`config` without the retired settings (`RETIRED_SETTINGS`) of an older file; `refuse(problem)` when one of them
    is not "off" (the run cannot be continued without it), naming the setting and its value."""
    for name, off in RETIRED_SETTINGS.items():
        value = config.get(name, off)
        if name != "init_rows" and (value != off or isinstance(value, bool)):
            refuse(
                f"settings: {name}={value!r} is an X-GPC option that was measured and not adopted and is no longer "
                f'part of the explorer (README "Choices"); this run cannot be continued here'
            )
    return {name: value for name, value in config.items() if name not in RETIRED_SETTINGS}


_VERSION_2_SETTINGS = settings.group("data") + tuple(
    "method n_inducing batch_size step_size rho tau kappa learn_hyperparameters hyper_learning_rate kernel ard "
    "lengthscale variance nugget eval_points eval_every".split()
)
"""The settings a version-2 run file stores (the others did not exist as settings then)."""


def _class_names(classes) -> bool:
    """Whether a run file's `classes` is a list of K ≥ 2 distinct values, all texts or all numbers."""
    if not isinstance(classes, list) or len(classes) < 2:
        return False
    if not (all(isinstance(c, str) for c in classes) or all(isinstance(c, (int, float)) for c in classes)):
        return False
    return len(np.unique(classes)) == len(classes)


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


MAX_RUN_BYTES = 2 * MAX_DENSE_BYTES + (1 << 28)
"""Most bytes the arrays of a run file may declare in all: the data twice (the split, and the upload it came from)
and room for the state (a few m × m matrices, m ≤ 2,000)."""


def _run_arrays(path, refuse) -> dict:
    """Every array of the run file `path`, each checked from its zip and .npy headers before it is read: a regular
    file, an .npz archive of .npy members, none declaring more than `MAX_DENSE_BYTES` or more data than it
    holds, MAX_RUN_BYTES in all; no pickles."""
    try:
        size = regular_file(path).st_size
    except DataError as err:
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
    except DataError as err:
        raise RunFileError(str(err)) from None
    except (zipfile.BadZipFile, EOFError, ValueError, OSError) as err:
        refuse(f"the .npz archive is truncated or corrupted ({type(err).__name__}: {err})")


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
