"""What the paper-reproduction benchmarks share: data and folds under the two protocols, one fit through the
`Trainer`, time-to-quality readings, the paper's Table 1, and a progress line with the time left.

Protocols (Wenzel et al. 2019, §Experiments; `../shared/data/README.md`):
  "paper"  contiguous folds in file order (the authors' scripts), the authors' pre-standardised files for Diabetes and
           German (`diabetis_agp`, `german_agp`; other sets standardised with the training part's statistics),
           except w8a, whose LIBSVM file lists its positives first (all in the first tenth: a contiguous test fold
           is 28% or 0% positive, which the paper's sd of 0.01 on wXa rules out): contiguous folds of a seeded
           permutation there,
           duplicates removed from a9a and w8a (the paper's n), nugget γ = 1; the hold-out set that the convergence
           rule watches is the test fold (the paper names no other).
  "clean"  shuffled stratified folds, per-fold standardisation, all rows kept, nugget γ = 1e-4; the convergence rule
           watches a stratified 10% validation part of the training fold, which is then not trained on.
Everything else follows the paper: m = 100 inducing inputs by k-means++ on the training part (fixed), minibatch 100,
initial kernel ℓ = √d, σ² = 1 (RBF unless `--kernel` names another family of `kernels.KERNELS`), Adam (0.01) on
(log ℓ, log σ²). Reported times are training time only.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from explorer import methods, run, scaling, settings
from explorer.bench.common import add_setting_argument, setting_type, setting_value, usage_type
from explorer.console import positive_number, whole_number
from explorer.data import datasets, registry
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import Kernel, make_kernel
from explorer.schedules import DEFAULT_STEP_RULES
from explorer.training import Trainer

PROTOCOLS = ("paper", "clean")
OFFLINE_DATASETS = ("diabetes", "german", "banana", "a9a", "w8a", "ijcnn1", "bank_marketing")
METHOD_NAMES = tuple(methods.METHODS)  # every registered method, in the registry's order (X-GPC first)
PAPER_FILES = {"diabetes": "diabetis_agp", "german": "german_agp"}
DEDUPLICATED = ("a9a", "w8a")
PAPER_SHUFFLED = ("w8a",)
NUGGET = {"paper": 1.0, "clean": 1e-4}

# Table 1 of the paper: (mean, sd) of test error, test NLL and time in seconds, per dataset and method.
PAPER_NAMES = {
    "a9a": "aXa",
    "bank_marketing": "Bank Market.",
    "diabetes": "Diabetes",
    "german": "German",
    "ijcnn1": "IJCNN",
    "w8a": "wXa",
}


def _paper_table(text: str) -> dict[str, dict[str, tuple]]:
    """Rows "data set, column, error mean sd, NLL mean sd, seconds mean sd" → {data set: {column: three pairs}}."""
    table: dict[str, dict[str, tuple]] = {}
    for name, column, *numbers in map(str.split, text.strip().splitlines()):
        values = [float(value) for value in numbers]
        table.setdefault(name, {})[column] = tuple(zip(values[::2], values[1::2]))
    return table


PAPER_TABLE1 = _paper_table("""
a9a            xgpc   0.17 0.07    0.29 0.13      47 2.2
a9a            svgpc  0.17 0.07    0.36 0.13     451 7.8
a9a            epgpc  0.17 0.07    0.34 0.13     214 4.8
bank_marketing xgpc   0.14 0.12    0.27 0.22       9 1.5
bank_marketing svgpc  0.12 0.12    0.31 0.26     205 6.6
bank_marketing epgpc  0.12 0.13    0.33 0.2       46 3.5
diabetes       xgpc   0.23 0.07    0.47 0.11     8.8 0.12
diabetes       svgpc  0.23 0.06    0.47 0.1      150 5.1
diabetes       epgpc  0.24 0.06    0.48 0.09       8 0.45
german         xgpc   0.25 0.12    0.44 0.17      17 0.42
german         svgpc  0.25 0.11    0.51 0.15     374 7.3
german         epgpc  0.26 0.13    0.53 0.11     5.2 0.03
ijcnn1         xgpc   0.03 0.01     0.1 0.03      17 0.44
ijcnn1         svgpc  0.06 0.01    0.15 0.07    1033 45
ijcnn1         epgpc  0.02 0.01    0.09 0.04     756 8.6
w8a            xgpc   0.03 0.01    0.27 0.07      66 16
w8a            svgpc  0.04 0.01    0.25 0.07     612 11
w8a            epgpc  0.03 0.01    0.19 0.06     1.4 0.1
""")
PAPER_COLUMN = {"xgpc": "xgpc", "svgp-adam": "svgpc", "epgpc": "epgpc"}  # the paper's SVGPC was GPflow's SVGP by Adam


def paper_file(name: str, protocol: str) -> str:
    """The registry name of the file a protocol reads for data set `name` (the authors' standardised copies under
    "paper")."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS}, got {protocol!r}")
    return PAPER_FILES.get(name, name) if protocol == "paper" else name


def is_file(name: str) -> bool:
    """Whether a `--datasets` entry names a file (it has an extension or a folder) rather than a registered set."""
    return bool(Path(name).suffix) or os.sep in name or (os.altsep is not None and os.altsep in name)


def load_dataset(name: str, protocol: str) -> tuple[np.ndarray, np.ndarray]:
    """(X (n, d), y (n,) class indices) of a paper data set as the protocol reads it, found where `datasets.load` looks
    ($XGPC_DATA_DIR, the project's data/, ../shared/data, the user cache, then OpenML); a set that is nowhere raises
    `datasets.DataError` saying how to get it. A `name` with an extension or a folder (`is_file`) is a file that
    `datasets.load_file` reads (CSV/TSV with a label column, LIBSVM, .npz), standardised like any set without the
    authors' copy."""
    if is_file(name):
        X, y, _, _ = datasets.load_file(name)
        return np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    X, y = datasets.load(paper_file(name, protocol))
    if protocol == "paper" and name in DEDUPLICATED:
        X, y = datasets.deduplicate(X, y)
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


def shared_dataset(name: str, protocol: str) -> tuple[np.ndarray, np.ndarray]:
    """`load_dataset`, read once per process for the grid's tasks on one data set while its file stays as it was
    (path, size and modification time; a set without a file is read each time). The arrays are read-only."""
    version = file_version(name, protocol)
    return _read_once(name, protocol, version) if version is not None else load_dataset(name, protocol)


def file_version(name: str, protocol: str) -> tuple | None:
    """(path, size, modification time) of the file data set `name` is read from under `protocol` (None: no file
    here): what tells a changed file from the one a result was computed on."""
    if is_file(name):
        path = Path(name)
    else:
        file = paper_file(name, protocol)
        if file not in datasets.PAPER_DATASETS:
            return None
        path = registry.find_paper_file(file) or registry.find_openml_copy(file)
    if path is None or not path.is_file():
        return None
    status = path.stat()
    return str(path.resolve()), status.st_size, status.st_mtime_ns


@functools.lru_cache(maxsize=2)
def _read_once(name: str, protocol: str, version: tuple) -> tuple[np.ndarray, np.ndarray]:
    X, y = load_dataset(name, protocol)
    X.flags.writeable = y.flags.writeable = False
    return X, y


def unobtainable(names, protocol: str) -> dict[str, str]:
    """The data sets among `names` whose file the protocol needs is in no data directory and has no OpenML copy to
    fetch: name → how to get it (one line). Sets OpenML can supply are not listed (`load_dataset` fetches them)."""
    missing = {}
    for name in names:
        file = paper_file(name, protocol)
        spec = datasets.PAPER_DATASETS.get(file)
        if spec is not None and spec.openml_id is None and registry.find_paper_file(file) is None:
            missing[name] = f"file {spec.file}, {registry.how_to_get(file)}"
    return missing


def folds(name: str, y: np.ndarray, k: int, protocol: str, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """k (train, test) index pairs: contiguous in file order ("paper"; of a seeded permutation for w8a) or shuffled
    and stratified ("clean")."""
    if protocol == "paper":
        rng = np.random.default_rng(seed) if name in PAPER_SHUFFLED else None
        return datasets.kfold_indices(y, k, rng=rng, stratified=False)
    return datasets.kfold_indices(y, k, rng=np.random.default_rng(seed), stratified=True)


@dataclass
class Split:
    """One fold, ready to train: standardised arrays, the monitored hold-out set, Z and the initial kernel."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    X_monitor: np.ndarray
    y_monitor: np.ndarray
    Z: np.ndarray
    kernel: Kernel


def prepare_split(
    name: str,
    X: np.ndarray,
    y: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    protocol: str,
    *,
    m: int,
    seed: int,
    nugget: float | None = None,
    monitor_points: int = 5000,
    kernel: str = "rbf",
) -> Split:
    """Standardise (unless the file already is), choose the monitored hold-out set (at most `monitor_points` rows),
    k-means++ inducing inputs Z (m, d) on the training part, initial kernel of the family `kernel` (a key of
    `kernels.KERNELS`) with ℓ = √d, σ² = 1 and nugget γ. Randomness follows the run's seed policy (`explorer.run`):
    the "clean" validation part is the run's split of the training fold (test fraction 0.1), the monitored subset
    its `evaluation_rows`, Z from its inducing stream — so a `Model` or `XGPClassifier` given the training fold,
    the same settings and seed starts the same run."""
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]
    if protocol == "clean":
        X_train, X_monitor, y_train, y_monitor = datasets.train_test_split(
            X_train, y_train, 0.1, run.streams(seed).split
        )
    else:
        X_monitor, y_monitor = X_test, y_test
    _, X_train, X_test, X_monitor = scaling.standardise(
        X_train, X_test, X_monitor, scaler=not (protocol == "paper" and name in PAPER_FILES)
    )
    keep = run.evaluation_rows(len(y_monitor), monitor_points, seed)
    X_monitor, y_monitor = X_monitor[keep], y_monitor[keep]
    Z = kmeans_plus_plus(X_train, m, run.streams(seed).inducing)
    gamma = NUGGET[protocol] if nugget is None else nugget
    return Split(
        X_train, y_train, X_test, y_test, X_monitor, y_monitor, Z, make_kernel(kernel, np.sqrt(X.shape[1]), 1.0, gamma)
    )


def task_split(name: str, fold: int, settings: dict, **given) -> Split:
    """`prepare_split` of fold `fold` (0-based) of the k `folds` of data set `name` (a registered name or a file,
    read once per process by `shared_dataset`) for a grid's task: the protocol, and where present k (default 10),
    seed, m, nugget, monitor_points and kernel, from its `settings` (a plain dict), or as `given`; the folds drawn
    from the seed, the split's randomness from seed + fold. The tasks of one fold that follow each other in a process
    (its methods) share one split, as the serial loops did, while the data set's file stays as it was."""
    keys = ("k", "seed", "m", "nugget", "monitor_points", "kernel")
    options = tuple(sorted(({key: settings[key] for key in keys if key in settings} | given).items()))
    version = file_version(name, settings["protocol"])
    arguments = (name, settings["protocol"], fold, options)
    return _split_once(*arguments, version) if version is not None else _split(*arguments)


@functools.lru_cache(maxsize=2)
def _split_once(*arguments) -> Split:
    return _split(*arguments[:-1])


def _split(name: str, protocol: str, fold: int, options: tuple) -> Split:
    options = dict(options)
    k, seed = options.pop("k", 10), options.pop("seed")
    X, y = shared_dataset(name, protocol)
    train, test = folds(name, y, k, protocol, seed)[fold]
    return prepare_split(name, X, y, train, test, protocol, seed=seed + fold, **options)


def add_kernel_argument(parser: argparse.ArgumentParser) -> None:
    """--kernel NAME: the kernel family every method starts from (default rbf, the paper's)."""
    add_setting_argument(
        parser, "kernel", help="kernel family of the initial kernel ℓ = √d, σ² = 1 (rbf, the default, as in the paper)"
    )


def add_datasets_argument(parser: argparse.ArgumentParser, default, note: str = "") -> None:
    """--datasets NAME_OR_FILE …: registered data sets or files (`load_dataset`), `default` (names) unless given;
    `note` follows the default list in the help."""
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=list(default),
        metavar="NAME_OR_FILE",
        help=f"data sets: registered names or files (default: {' '.join(default)}{note})",
    )


def add_budget_arguments(
    parser: argparse.ArgumentParser,
    seconds: float,
    help: str,
    iterations: str = "also stop each fit after this many iterations (a budget that gives the same numbers on any "
    "machine)",
) -> None:
    """--seconds (`help`, default `seconds`) and --iterations (`iterations` its help; none by default): the budget of
    each fit."""
    parser.add_argument("--seconds", type=positive_number, default=seconds, help=f"{help} (default {seconds:g})")
    parser.add_argument("--iterations", type=whole_number(1), default=None, help=iterations)


def add_fit_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of each fit of a cross-validated benchmark (`table1`, `race`): --m, --kernel, --batch-size, --nugget
    (default per protocol, `NUGGET`), --seed and --option METHOD.KEY=VALUE."""
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m")
    add_kernel_argument(parser)
    add_setting_argument(parser, "batch_size")
    parser.add_argument(
        "--nugget", type=setting_type("nugget"), default=None, help="γ (default: 1 for paper, 1e-4 for clean)"
    )
    add_setting_argument(parser, "seed")
    add_option_argument(parser, "builder option for one method, e.g. xgpc.step_size=constant xgpc.rho=0.1 (repeatable)")


def kernel_label(name: str) -> str:
    """The suffix a benchmark's BENCHMARKS.md section gets for kernel `name`: none for the default RBF (its tables
    stay where they were), ", NAME" otherwise (so a Matérn run does not replace the RBF table)."""
    return "" if name == "rbf" else f", {name}"


def parse_option(item: str) -> tuple[str, str, object]:
    """ "xgpc.rho=0.1" → ("xgpc", "rho", 0.1): a benchmark's `--option METHOD.KEY=VALUE`, a method of
    `explorer.methods`, one of its options (`methods.option_names`, each a declared setting) or a step-size setting,
    and a value checked by the setting's declaration (`common.setting_value`); ValueError naming what is wrong."""
    name, equals, text = item.partition("=")
    method, dot, key = name.partition(".")
    if not (method and dot and key and equals):
        raise ValueError(f"option {item!r} is not of the form METHOD.KEY=VALUE (e.g. xgpc.rho=0.1)")
    if method not in methods.METHODS:
        raise ValueError(f"option {item!r}: unknown method {method!r}; choose one of {', '.join(methods.METHODS)}")
    keys = [k for k in (*settings.STEP_RULE_SETTINGS, *settings.BUILDER_SETTINGS) if settings.applies(k, method)]
    if key not in keys:
        raise ValueError(f"option {item!r}: {method} has no option {key!r}; its options are {', '.join(keys)}")
    try:
        return method, key, setting_value(key, text)
    except ValueError as err:
        raise ValueError(f"option {item!r}: {err}") from None


def add_option_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """--option METHOD.KEY=VALUE (repeatable): further settings of one method's runs, checked as they are parsed
    (`parse_option`: a usage error saying what is wrong)."""

    def option(item: str) -> str:
        parse_option(item)
        return item  # kept as written: it names the run's section and notes

    kind = usage_type(option, "option")
    parser.add_argument("--option", action="append", default=[], type=kind, metavar="METHOD.KEY=VALUE", help=help)


def parse_options(items: list[str] | None) -> dict[str, dict]:
    """["xgpc.step_size=constant", "xgpc.rho=0.1", …] → {"xgpc": {"step_size": "constant", "rho": 0.1}}: builder
    options per method (`explorer.methods`), each value of its setting's type (`parse_option`)."""
    options: dict[str, dict] = {}
    for item in items or []:
        method, key, value = parse_option(item)
        options.setdefault(method, {})[key] = value
    return options


def make_trainer(
    method: str, split: Split, fold: int, shared: dict, options=None, convergence: str = "none"
) -> Trainer:
    """The `Trainer` of a `run.Run` of `method` on fold `fold`'s split (0-based), for a benchmark's fit: seed
    shared["seed"] + fold, the batch_size and eval_every of `shared` (a plain dict: it travels to a grid's workers)
    where present and `options` does not name them; `options` further settings by name (e.g. a benchmark's
    `--option` or an entrant's own; a step-size rule named without its ρ, τ, κ takes the method's row of
    `schedules.DEFAULT_STEP_RULES`); the others at their declared defaults (`explorer.settings`); no stopping rule
    unless `convergence` names one. All methods get the same Z, initial kernel and, by the run's seed policy,
    minibatch stream."""
    options = dict(options or {})
    if "step_size" in options:
        row = DEFAULT_STEP_RULES.get(method)
        options.update({key: getattr(row, key) for key in ("rho", "tau", "kappa") if row and key not in options})
    given = {key: shared[key] for key in ("batch_size", "eval_every") if key in shared}
    eval_points = max(len(split.y_monitor), settings.SETTINGS["eval_points"].low)  # chosen in prepare_split
    config = {**given, **options, "method": method, "seed": shared["seed"] + fold, "eval_points": eval_points}
    data = (split.X_train, split.y_train, split.X_monitor, split.y_monitor)
    fixed = dict(kernel=split.kernel, scaler=False, Z=split.Z, convergence=convergence, elbo_points=1000)
    return run.Run(config, *data, **fixed).trainer


# ----- time to quality (DESIGN §6) ----------------------------------------------------------------------------
def mean_sd(values) -> tuple[float, float]:
    values = np.asarray(values, dtype=float)
    return float(np.mean(values)), float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")


def fmt_mean_sd(pair, digits: int = 3) -> str:
    mean, sd = pair
    if not np.isfinite(mean):
        return "—"
    return f"{mean:.{digits}g} ± {sd:.2g}" if np.isfinite(sd) else f"{mean:.{digits}g}"


def fmt_seconds(value: float) -> str:
    return "never" if not np.isfinite(value) else f"{value:.3g}"


# ----- progress ---------------------------------------------------------------------------------------------
class Progress(tqdm):
    """A one-line progress report on stderr (a tqdm bar, redrawn at most every 0.5 s): percent of the work budget done,
    the note, the elapsed and the estimated wall time left. Work is counted in budget units (e.g. seconds of allowed
    training); `advance` adds finished units, `show` reports how much of the current unit is done."""

    def __init__(self, total: float, stream=None):
        bar = "[{percentage:5.1f}%] {desc:70s} elapsed {elapsed}, about {remaining} left"
        super().__init__(total=max(float(total), 1e-12), file=stream or sys.stderr, mininterval=0.5, bar_format=bar)
        self.done = 0.0

    def advance(self, units: float, note: str = "") -> None:
        self.done += units
        self.show(0.0, note, force=True)

    def show(self, current: float, note: str = "", force: bool = False) -> None:
        self.set_description_str(note[:70], refresh=False)
        self.update(min(self.done + current, self.total) - self.n)
        if force:
            self.refresh()
