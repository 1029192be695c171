"""`python -m explorer bench multiclass`: multi-class X-GPC (its default joint q(λ, n) family and the paper's factorised
one) against scikit-learn's GaussianProcessClassifier (one-vs-rest Laplace), one-vs-rest binary X-GPC and the softmax
SVGP (Adam, natural gradients), issues 22 and 29.

Data that need no network: scikit-learn's iris, wine and digits, a generated K = 5 set (`make_classification`,
--generated-rows rows, default 10⁵) and covertype only if scikit-learn has it cached. Stratified k-fold splits (the
first --folds of --k), inputs standardised on the training rows. The four sliced methods (multi-class X-GPC in
either family, softmax SVGP with Adam, with natural gradients) share the k-means++ inducing inputs Z (m = --m), the
starting kernel, the minibatch size and the minibatch stream (one seed), and train for --seconds of training time, evaluated every
--eval-every iterations on at most --eval-points test rows (a fixed subset per fold; evaluation time excluded;
multi-class X-GPC's through its `monitor_proba`, its predictive computed cheaper); their final scores, as every
method's, are on all test rows. scikit-learn's GPC fits on at most --gpc-rows
training rows (Laplace is O(n³); the table says when it was subsampled); one-vs-rest X-GPC (K binary
`XGPClassifier`s, m inducing points each) trains --ovr-iterations iterations per class. Reported per (data set,
method), means over folds: test error, NLL, top-label ECE (`metrics.expected_calibration_error`, 10 bins), mean top
probability − accuracy (below 0: under-confident), training time, and for the sliced methods the training time
from which the test NLL stays within 1% of the fold's best NLL of any method (`metrics.settled_time_within`; "—" if never).

Per-iteration cost of multi-class X-GPC against K and n: the median time of one SVI step (minibatch s, m inducing
points, kernel learning on) divided by its linear-algebra floor timed in the same process: K Cholesky factorisations
of an m × m matrix and K triangular solves with s right-hand sides (what K classes' natural-gradient steps must do).
The share of a default `XGPClassifier(random_state=0)` fit's time that goes to its evaluations (early stopping's
held-out NLL) on each of --share-datasets (generated: 5,000 rows), from the fit's Trainer (`Trainer.evaluation_share`).

The grid is a list of independent tasks (`tasks`), each a dict of plain values for `run_task(**task)` (a picklable
module-level function that loads its own data and split), so a grid runner can farm them out. Its JSON holds each
fit's reliability table; `python -m explorer.views.reliability_figure JSON PNG` draws them.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
import warnings

import numpy as np
from scipy.linalg import cho_factor, solve_triangular
from sklearn import datasets as sk_datasets
from sklearn.gaussian_process import GaussianProcessClassifier
from sklearn.gaussian_process.kernels import RBF as SkRBF
from sklearn.gaussian_process.kernels import ConstantKernel
from sklearn.model_selection import StratifiedKFold
from sklearn.multiclass import OneVsRestClassifier

from explorer import methods
from explorer.bench import grid
from explorer.bench.common import (
    add_common_arguments,
    add_setting_argument,
    finish,
    markdown_table,
    median_seconds,
    pinned_blas,
    run_config,
)
from explorer.bench.protocol import Progress
from explorer.console import Parser, positive_number, whole_number
from explorer.estimator import XGPClassifier
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import initial_kernel
from explorer.metrics import (
    error_rate,
    expected_calibration_error,
    negative_log_likelihood,
    reliability,
    settled_time_within,
)

DESCRIPTION = (
    "Multi-class X-GPC (joint, factorised) vs scikit-learn GPC (OvR Laplace), OvR X-GPC and softmax SVGP: error, NLL, "
    "ECE, confidence − accuracy, time"
)
DATASETS = ("iris", "wine", "digits", "generated", "covertype")
METHODS = ("xgpc", "xgpc-factorised", "svgp-adam", "svgp-natgrad", "ovr-xgpc", "sklearn-gpc")
SLICED = ("xgpc", "xgpc-factorised", "svgp-adam", "svgp-natgrad")
BUILDS = {
    "xgpc-factorised": ("xgpc", {"multiclass_family": "factorised"}),
    "svgp-adam": ("svgp-adam", {"learning_rate": 0.05}),
}
"""A sliced entrant's builder (`methods.METHODS`) and options, where they are not its own name and the defaults."""
NAMES = {
    "xgpc": "multi-class X-GPC (joint q(λ, n))",
    "xgpc-factorised": "multi-class X-GPC (factorised, paper)",
    "svgp-adam": "softmax SVGP (Adam)",
    "svgp-natgrad": "softmax SVGP (nat. grad.)",
    "ovr-xgpc": "one-vs-rest X-GPC",
    "sklearn-gpc": "scikit-learn GPC (OvR Laplace)",
}
QUICK = {"datasets": ["iris", "wine"], "folds": 1, "seconds": 3.0, "gpc_rows": 200, "ovr_iterations": 200}
QUICK_COST = {"cost_classes": [3, 5], "cost_rows": [1000, 10000], "share_datasets": ["wine"]}
SETTLE_BAND = 0.01


# ----- data ------------------------------------------------------------------------------------------------------------
def load(name: str, generated_rows: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """X (n, d) float and class indices y (n,) of a data set that needs no network (covertype: scikit-learn's cache
    only; OSError if it is not cached)."""
    if name == "generated":
        X, y = sk_datasets.make_classification(
            n_samples=generated_rows,
            n_features=10,
            n_informative=6,
            n_redundant=2,
            n_classes=5,
            n_clusters_per_class=2,
            class_sep=1.0,
            random_state=20190524,
        )
    elif name == "covertype":
        bunch = sk_datasets.fetch_covtype(download_if_missing=False)
        X, y = bunch.data, bunch.target
    elif name in ("iris", "wine", "digits"):
        X, y = getattr(sk_datasets, f"load_{name}")(return_X_y=True)
    else:
        raise ValueError(f"unknown data set {name!r}; choose from {list(DATASETS)}")
    return np.asarray(X, dtype=float), np.unique(y, return_inverse=True)[1]


def split(name: str, fold: int, k: int, seed: int, generated_rows: int):
    """Fold `fold` of a stratified k-fold split, standardised on its training rows: X_train, y_train, X_test, y_test."""
    X, y = load(name, generated_rows)
    train, test = list(StratifiedKFold(k, shuffle=True, random_state=seed).split(X, y))[fold]
    mean, sd = X[train].mean(axis=0), X[train].std(axis=0)
    sd[sd == 0] = 1.0
    return (X[train] - mean) / sd, y[train], (X[test] - mean) / sd, y[test]


def scores(P: np.ndarray, y: np.ndarray) -> dict:
    """Test error, NLL, ECE, mean top probability − accuracy (below 0: under-confident) and the reliability table of
    probabilities P (n, K) at class indices y (n,)."""
    table = {key: value.tolist() for key, value in reliability(P, y).items()}
    error = error_rate(P, y)
    return {
        "test_error": error,
        "confidence_gap": float(P.max(axis=1).mean() - (1.0 - error)),
        "test_nll": negative_log_likelihood(P, y),
        "ece": expected_calibration_error(P, y),
        "reliability": table,
    }


# ----- one task --------------------------------------------------------------------------------------------------------
def _sliced_fit(method, X, y, X_test, y_test, *, m, batch_size, seconds, eval_every, eval_points, seed, progress):
    """Train a sliced method for `seconds` of training time, evaluating on at most `eval_points` test rows (a fixed
    random subset) every `eval_every` steps; the final scores on all test rows. `progress(trained seconds)` if given."""
    rng = np.random.default_rng(seed)
    monitor = np.sort(np.random.default_rng(seed).permutation(len(y_test))[:eval_points])
    Z = kmeans_plus_plus(X, m, np.random.default_rng(seed))
    kernel = initial_kernel("rbf", X.shape[1], lengthscale=float(np.sqrt(X.shape[1])), nugget=1e-4)
    builder, options = BUILDS.get(method, (method, {}))
    engine = methods.build(builder, X, y, Z, kernel, batch_size=min(batch_size, len(y)), rng=rng, **options)
    trace = {"seconds": [], "iteration": [], "test_nll": [], "test_error": []}
    monitor_proba = getattr(engine, "monitor_proba", engine.predict_proba)  # multi-class X-GPC's: equal, cheaper
    trained, status = 0.0, "ran to the time slice"
    while trained < seconds:
        start = time.perf_counter()
        try:
            engine.step(eval_every)
        except (ArithmeticError, ValueError) as err:  # a diverged step: report what it reached
            status = f"stopped: {type(err).__name__}: {err}"[:200]
            break
        trained += time.perf_counter() - start
        if progress is not None:
            progress(trained)
        P = monitor_proba(X_test[monitor])
        for key, value in (
            ("seconds", trained),
            ("iteration", engine.iteration),
            ("test_nll", negative_log_likelihood(P, y_test[monitor])),
            ("test_error", error_rate(P, y_test[monitor])),
        ):
            trace[key].append(value)
    P = engine.predict_proba(X_test)
    return {**scores(P, y_test), "seconds": trained, "iterations": engine.iteration, "status": status, "trace": trace}


def run_task(
    dataset: str,
    fold: int,
    method: str,
    *,
    k: int = 5,
    seed: int = 0,
    generated_rows: int = 100_000,
    m: int = 50,
    batch_size: int = 100,
    seconds: float = 30.0,
    eval_every: int = 20,
    eval_points: int = 2000,
    gpc_rows: int = 1000,
    ovr_iterations: int = 500,
    threads: int = 1,
    progress=None,
) -> dict:
    """One (data set, fold, method) fit and its test scores (plain values; picklable, loads its own data);
    `progress(trained seconds)` is called during a sliced fit if given."""
    X, y, X_test, y_test = split(dataset, fold, k, seed, generated_rows)
    record = {"dataset": dataset, "fold": fold, "method": method, "n": len(y) + len(y_test), "d": X.shape[1]}
    record["train_rows"] = len(y)
    record["K"] = int(max(y.max(), y_test.max()) + 1)
    with pinned_blas(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's optimiser and the clamped-batch warnings
        if method in SLICED:
            common = dict(m=m, batch_size=batch_size, seconds=seconds, eval_every=eval_every, seed=seed + fold)
            common.update(eval_points=eval_points, progress=progress)
            return {**record, **_sliced_fit(method, X, y, X_test, y_test, **common)}
        if method == "sklearn-gpc":
            rows = np.random.default_rng(seed + fold).permutation(len(y))[:gpc_rows]
            model = GaussianProcessClassifier(
                ConstantKernel(1.0) * SkRBF(np.sqrt(X.shape[1])), multi_class="one_vs_rest", random_state=seed
            )
            fit_rows = len(rows)
            X, y = X[rows], y[rows]
        elif method == "ovr-xgpc":
            model = OneVsRestClassifier(
                XGPClassifier(
                    n_inducing=min(m, len(y)),
                    max_iter=ovr_iterations,
                    batch_size=min(batch_size, len(y)),
                    options={"lengthscale": float(np.sqrt(X.shape[1]))},
                    early_stopping=False,
                    random_state=seed + fold,
                )
            )
            fit_rows = len(y)
        else:
            raise ValueError(f"unknown method {method!r}; choose from {list(METHODS)}")
        start = time.perf_counter()
        model.fit(X, y)
        seconds_taken = time.perf_counter() - start
        P = model.predict_proba(X_test)
    return {**record, **scores(P, y_test), "seconds": seconds_taken, "fit_rows": fit_rows, "status": "fitted"}


def run_grid_task(task: dict) -> dict:
    """`run_task(**task)`: one fit of the grid as a Dask task (`explorer.bench.grid`)."""
    return run_task(**task)


def tasks(args) -> list[dict]:
    """The grid: one dict of `run_task` arguments per (data set, fold, method)."""
    shared = {
        key: getattr(args, key)
        for key in (
            "k",
            "seed",
            "generated_rows",
            "m",
            "batch_size",
            "seconds",
            "eval_every",
            "eval_points",
            "gpc_rows",
        )
    }
    shared.update(ovr_iterations=args.ovr_iterations, threads=args.threads)
    return [
        {"dataset": name, "fold": fold, "method": method, **shared}
        for name in args.datasets
        for fold in range(args.folds)
        for method in args.methods
    ]


# ----- per-iteration cost --------------------------------------------------------------------------------------------
def cost_task(K: int, n: int, *, m: int = 50, batch_size: int = 100, d: int = 10, seed: int = 0, threads: int = 1):
    """Median seconds of one multi-class X-GPC step (kernel learning on) on n rows of K classes, its floor (K m × m
    Cholesky factorisations and K triangular solves with s right-hand sides, timed here) and their ratio."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.integers(0, K, n)
    with pinned_blas(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = initial_kernel("rbf", d, lengthscale=float(np.sqrt(d)), nugget=1e-4)
        engine = methods.build("xgpc", X, y, X[:m], kernel, batch_size=batch_size, rng=rng, hyper_every=1)
        engine.step(5)  # past the warm start
        step = median_seconds(lambda: engine.step(1), repeats=15)
        A = rng.standard_normal((m, m))
        A = A @ A.T + m * np.eye(m)
        L = np.linalg.cholesky(A)
        B = rng.standard_normal((m, batch_size))

        def floor():
            for _ in range(K):
                cho_factor(A, lower=True)
                solve_triangular(L, B, lower=True)

        floor_seconds = median_seconds(floor, repeats=15)
    return {
        "K": K,
        "n": n,
        "m": m,
        "s": batch_size,
        "step_ms": 1e3 * step,
        "floor_ms": 1e3 * floor_seconds,
        "ratio": step / floor_seconds,
    }


def share_task(dataset: str, *, generated_rows: int = 5000, threads: int = 1) -> dict:
    """A default `XGPClassifier(random_state=0)` fit on a whole data set (inputs standardised): its iterations,
    evaluations (early stopping's, or the history's where early stopping is off), training and evaluation seconds
    (the Trainer's own timing record) and the share of their sum that went to evaluations."""
    X, y = load(dataset, generated_rows)
    sd = X.std(axis=0)
    X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    with pinned_blas(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = XGPClassifier(random_state=0).fit(X, y)
    trainer = model.trainer_
    return {
        "data set": f"{dataset} (n {len(y)}, K {len(model.classes_)})",
        "iterations": model.n_iter_,
        "evaluations": trainer.evaluations,
        "train s": trainer.seconds,
        "eval s": trainer.eval_seconds,
        "eval share": trainer.evaluation_share,
    }


# ----- summary ---------------------------------------------------------------------------------------------------------
def settle_times(records: list[dict]) -> None:
    """Each sliced record's "settled_s": training time from which its test NLL stays within 1% of the best test NLL
    any method reached on that fold (in place)."""
    for record in records:
        if record["method"] not in SLICED:
            continue
        fold = [r for r in records if (r["dataset"], r["fold"]) == (record["dataset"], record["fold"])]
        best = min(min(r["trace"]["test_nll"], default=r["test_nll"]) if "trace" in r else r["test_nll"] for r in fold)
        trace = record["trace"]
        record["settled_s"] = settled_time_within(trace["seconds"], trace["test_nll"], (1 + SETTLE_BAND) * best)


def summarise(records: list[dict]) -> list[dict]:
    rows = []
    for name in dict.fromkeys(r["dataset"] for r in records):
        for method in dict.fromkeys(r["method"] for r in records):
            group = [r for r in records if r["dataset"] == name and r["method"] == method]
            if not group:
                continue
            note = ""
            if method == "sklearn-gpc" and group[0]["fit_rows"] < group[0]["train_rows"]:
                note = f"fit on {group[0]['fit_rows']} of {group[0]['train_rows']} training rows"
            if any(r["status"].startswith("stopped") for r in group):
                note = "diverged; " + note
            mean = lambda key: float(np.mean([r[key] for r in group]))  # noqa: E731
            rows.append(
                {
                    "data set": f"{name} (n {group[0]['n']}, d {group[0]['d']}, K {group[0]['K']})",
                    "method": NAMES[method],
                    "error": mean("test_error"),
                    "NLL": mean("test_nll"),
                    "ECE": mean("ece"),
                    "conf − acc": mean("confidence_gap"),
                    "train s": mean("seconds"),
                    "settled 1% s": mean("settled_s") if method in SLICED else float("nan"),
                    "note": note,
                }
            )
    return rows


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = Parser(
        prog="python -m explorer bench multiclass",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument(
        "--k", type=whole_number(2), default=5, help="stratified folds the data is cut into (default 5)"
    )
    parser.add_argument("--folds", type=whole_number(1), default=1, help="run the first FOLDS of them (default 1)")
    parser.add_argument(
        "--seconds", type=positive_number, default=30.0, help="training time per sliced fit (default 30)"
    )
    add_setting_argument(parser, "eval_every", default=20, help="iterations between test evaluations")
    add_setting_argument(parser, "eval_points", default=2000, help="most test rows per evaluation of a trace")
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m", default=50)
    add_setting_argument(parser, "batch_size")
    add_setting_argument(parser, "seed")
    parser.add_argument(
        "--generated-rows", type=whole_number(1), default=100_000, help="rows of the generated K = 5 set"
    )
    parser.add_argument(
        "--gpc-rows", type=whole_number(1), default=1000, help="most training rows for scikit-learn's GPC"
    )
    parser.add_argument(
        "--ovr-iterations", type=whole_number(1), default=500, help="iterations per one-vs-rest X-GPC class"
    )
    parser.add_argument(
        "--cost-classes", type=whole_number(3), nargs="+", default=[3, 5, 10], help="K of the cost table"
    )
    parser.add_argument(
        "--cost-rows", type=whole_number(1), nargs="+", default=[1000, 10_000, 100_000], help="n of the cost table"
    )
    parser.add_argument(
        "--share-datasets",
        nargs="*",
        default=["wine", "digits", "generated"],
        choices=DATASETS,
        help="data sets of the evaluation-share table (a default fit on each; generated: 5,000 rows)",
    )
    parser.add_argument("--quick", action="store_true", help="iris and wine, 1 fold, 3 s slices, a small cost table")
    add_common_arguments(parser)
    grid.add_arguments(parser)
    args = parser.parse_args(argv)
    explicit = {a.split("=")[0].replace("-", "_").lstrip("_") for a in argv if a.startswith("--")}
    if args.quick:
        for key, value in {**QUICK, **QUICK_COST}.items():
            if key not in explicit:
                setattr(args, key, value)
    if "covertype" in args.datasets:
        try:
            sk_datasets.fetch_covtype(download_if_missing=False)
        except OSError:
            print(
                "multiclass: leaving out covertype (not in scikit-learn's cache; this benchmark never downloads)",
                file=sys.stderr,
            )
            args.datasets = [name for name in args.datasets if name != "covertype"]
    args.folds = min(args.folds, args.k)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_arguments(argv)
    fits = tasks(args)
    costs = [(K, n) for K in args.cost_classes for n in args.cost_rows]
    on_cluster = args.scheduler is not None or args.workers is not None
    shares = list(args.share_datasets)
    progress = Progress((0 if on_cluster else len(fits)) + len(costs) + len(shares))
    if on_cluster:  # the fits as tasks of a Dask grid; the cost table is timed here, where it is reported
        records = grid.run(
            [
                grid.Task((task["dataset"], f"fold {task['fold'] + 1}", task["method"]), run_grid_task, (task,))
                for task in fits
            ],
            args,
        )
    else:
        records = []
        for task in fits:
            note = f"{task['dataset']} fold {task['fold'] + 1}/{args.folds} {task['method']}"
            progress.show(0.0, note, force=True)
            sliced = task["method"] in SLICED
            show = lambda trained: progress.show(min(trained / args.seconds, 1.0), note)  # noqa: B023, E731
            records.append(run_task(**task, progress=show if sliced else None))
            progress.advance(1, note)
    cost_rows = []
    for K, n in costs:
        note = f"cost K {K} n {n}"
        progress.show(0.0, note, force=True)
        cost_rows.append(cost_task(K, n, m=args.m, batch_size=args.batch_size, seed=args.seed, threads=args.threads))
        progress.advance(1, note)
    share_rows = []
    for name in shares:
        note = f"evaluation share {name}"
        progress.show(0.0, note, force=True)
        share_rows.append(share_task(name, threads=args.threads))
        progress.advance(1, note)
    progress.close()
    settle_times(records)
    rows = summarise(records)
    command = "python -m explorer bench multiclass " + shlex.join(argv)
    section = "multiclass" + (" (quick)" if args.quick else "")
    markdown = (
        f"{markdown_table(rows)}\n\nPer-iteration cost of multi-class X-GPC (m = {args.m}, s = {args.batch_size}, "
        f"kernel step every iteration) against its linear-algebra floor (K m×m Cholesky + K triangular solves with s "
        f"right-hand sides):\n\n{markdown_table(cost_rows)}\n"
    )
    if share_rows:
        markdown += (
            "\nShare of a default `XGPClassifier(random_state=0)` fit's time spent in evaluations (the Trainer's own "
            f"timing record):\n\n{markdown_table(share_rows)}\n"
        )
    payload = {"config": run_config(args), "names": NAMES, "records": records, "cost": cost_rows, "share": share_rows}
    finish(args, section, command, markdown, payload)
    return 0
