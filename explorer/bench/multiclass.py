"""`python -m explorer bench multiclass`: issue 29's comparison in one run — multi-class X-GPC (its default
stick-breaking family, the logistic-softmax in the joint q(λ, n) family and the paper's factorised one), one-vs-rest
binary X-GPC, the softmax SVGP (Adam, natural gradients) and scikit-learn's GaussianProcessClassifier (one-vs-rest
Laplace), side by side on iris, wine, digits, a generated K = 5 set (--generated-rows rows) and a generated set of 180
0/1 features ("binary"), and on request an imbalanced K = 5 set ("imbalanced"); none needs the network.

Every fit is a `run.Run` with the shared settings and seed policy, as `bench table1` and `bench race` start theirs:
each data set's stratified folds (the first --folds of --k) prepared by `protocol.prepare_split` under the "clean"
protocol and every Run `protocol.make_trainer`'s on it (seed + fold). The entrants (`ENTRANTS`, one line each) race
on the fold in fair slices of training time (--seconds each; --iterations: that many iterations instead), or are
one-vs-rest X-GPC or scikit-learn's GPC (`Entrant`, `race_task`, `ovr_task`, `sklearn_task`). Two cost tables follow
(`cost_task`, `share_task`). The columns: `scores`, `reach_times` and the notes under the tables (BENCHMARKS.md,
"multiclass: the issue-29 table"). Its JSON holds each fit's reliability table; `python -m explorer.views.reliability_figure JSON PNG`
draws them.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import sys
import time
import warnings
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from scipy.linalg import cho_factor, solve_triangular
from sklearn import datasets as sk_datasets
from sklearn.gaussian_process import GaussianProcessClassifier
from sklearn.gaussian_process.kernels import RBF as SkRBF
from sklearn.gaussian_process.kernels import ConstantKernel

from explorer import methods, run
from explorer.bench import common, grid
from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, apply_quick, finish, markdown_table, pinned_blas
from explorer.console import whole_number
from explorer.estimator import XGPClassifier
from explorer.kernels import initial_kernel, make_kernel
from explorer.metrics import (
    error_rate,
    expected_calibration_error,
    first_time_within,
    negative_log_likelihood,
    reliability,
)
from explorer.settings import SETTINGS
from explorer.studies.race import Race
from explorer.xgpc_stickbreaking import stick_order

DESCRIPTION = (
    "Multi-class X-GPC (stick-breaking, joint, factorised) vs one-vs-rest X-GPC, softmax SVGP and scikit-learn GPC, all through Run: "
    "error, NLL, ECE, confidence − accuracy, time, time to 1.1× the softmax SVGP's NLL"
)
DATASETS = ("iris", "wine", "digits", "generated", "binary")
IMBALANCED = "imbalanced"
"""A set for the stick's class-order study (not in the default run): the generated set's shape with 5,000 rows and
class shares 0.05, 0.08, 0.12, 0.25, 0.5 (the given order rarest first)."""
PROTOCOL = "clean"


@dataclass(frozen=True)
class Entrant:
    """One column of the comparison: its name in the table, its `kind` ("race": a Run of `method` with the settings
    `options`, raced against the other such entrants; "ovr": K binary Runs of `method`; "sklearn": scikit-learn's
    GPC), and the settings (`explorer.settings`) it runs with beyond the shared ones."""

    label: str
    kind: str = "race"
    method: str = "xgpc"
    options: dict = field(default_factory=dict)


ENTRANTS = {
    "xgpc": Entrant("multi-class X-GPC (joint q(λ, n))", options={"multiclass_family": "joint"}),
    "xgpc-factorised": Entrant("multi-class X-GPC (factorised, paper)", options={"multiclass_family": "factorised"}),
    "xgpc-stick": Entrant("multi-class X-GPC (stick-breaking PG)", options={"multiclass_family": "stick-breaking"}),
    "svgp-adam": Entrant("softmax SVGP (Adam)", method="svgp-adam", options={"learning_rate": 0.05}),
    "svgp-natgrad": Entrant("softmax SVGP (nat. grad.)", method="svgp-natgrad"),
    "ovr-xgpc": Entrant("one-vs-rest X-GPC", kind="ovr"),
    "sklearn-gpc": Entrant("scikit-learn GPC (OvR Laplace)", kind="sklearn"),
}
DEFAULT_METHODS = tuple(ENTRANTS)


def _stick(label: str, **options) -> Entrant:
    return Entrant(f"X-GPC stick-breaking ({label})", options={"multiclass_family": "stick-breaking", **options})


ENTRANTS |= {  # the stick-breaking family's variants (issue 29.3b), raced when named: class order, bound, kernel step
    "stick-frequency": _stick("classes by frequency", class_order="frequency"),
    **{f"stick-random-{r}": _stick(f"random order {r}", class_order=f"random {r}") for r in range(3)},
    "stick-augmented-bound": _stick("augmented kernel bound", kernel_bound="augmented"),
    "stick-every-1": _stick("kernel every 1", hyper_every=1),
    "stick-rate-0.05": _stick("kernel rate 0.05", hyper_learning_rate=0.05),
    "stick-every-1-rate-0.05": _stick("every 1, rate 0.05", hyper_every=1, hyper_learning_rate=0.05),
    "stick-every-1-rate-0.1": _stick("every 1, rate 0.1", hyper_every=1, hyper_learning_rate=0.1),
    "stick-rate-0.1-no-brake": _stick("rate 0.1, no brake", hyper_learning_rate=0.1, kernel_patience=0),
    "stick-rate-0.01-no-brake": _stick("rate 0.01, no brake", hyper_learning_rate=0.01, kernel_patience=0),
    **{
        f"stick-rate-0.1-brake-{p}": _stick(f"rate 0.1, brake {p}", hyper_learning_rate=0.1, kernel_patience=p)
        for p in (5, 10, 20)
    },
    "stick-rate-0.2": _stick("kernel rate 0.2", hyper_learning_rate=0.2),
    "stick-variance-4": _stick("σ₀² 4", variance=4.0),
    "stick-variance-16": _stick("σ₀² 16", variance=16.0),
    "stick-variance-0.25": _stick("σ₀² 0.25", variance=0.25),
    "stick-l0-sqrt-half-d": _stick("ℓ₀ √(d/2)", lengthscale_factor=math.sqrt(0.5)),
    "stick-l0-2-sqrt-d": _stick("ℓ₀ 2√d", lengthscale_factor=2.0),
    "stick-m-100": _stick("m 100", m=100),
    "stick-batch-50": _stick("batch 50", batch_size=50),
    "stick-batch-200": _stick("batch 200", batch_size=200),
    "stick-ard": _stick("ARD", ard=True),
    "stick-no-kernel-learning": _stick("no kernel learning", learn_hyperparameters=False),
}
"""The entrants by short name (the --methods choices; the default run `DEFAULT_METHODS`): a new family or variant is
one line here. "xgpc-stick" is the stick-breaking family's default (kernel rate 0.1, braked with patience 10); of
its variants, "class_order" lays the classes on the stick ("frequency", or "random r": the permutation drawn by
`default_rng(r)`; `entrant_split`), "variance", "lengthscale_factor" and "ard" change the initial kernel, "m" its
inducing points (k-means++ as the fold's, m of them: `entrant_start`), the rest are run settings (batch_size over
--batch-size)."""
REFERENCE = ("svgp-adam", "svgp-natgrad")  # the softmax SVGP entrants, whose NLL sets the bar (`reach_times`)
REACH_BAND = 1.1
QUICK = {"datasets": ["iris", "wine"], "folds": 1, "seconds": 3.0, "gpc_rows": 200, "ovr_iterations": 200}
QUICK_COST = {"cost_classes": [3, 5], "cost_rows": [1000, 10000], "share_datasets": ["wine"]}
COST_FAMILIES = ("stick-breaking", "joint")
"""Multi-class families of the cost and evaluation-share tables, after the default one (`default_family`)."""


# ----- data ------------------------------------------------------------------------------------------------------------
def load(name: str, generated_rows: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """X (n, d) float and class indices y (n,) of a data set that needs no network (`DATASETS`)."""
    if name == "generated":
        X, y = generated(generated_rows)
    elif name == "binary":
        X, y = binary_features()
    elif name == IMBALANCED:
        X, y = generated(5000, weights=[0.05, 0.08, 0.12, 0.25, 0.5], seed=20151207)
    elif name in ("iris", "wine", "digits"):
        X, y = getattr(sk_datasets, f"load_{name}")(return_X_y=True)
    else:
        raise ValueError(f"unknown data set {name!r}; choose from {[*DATASETS, IMBALANCED]}")
    return np.asarray(X, dtype=float), np.unique(y, return_inverse=True)[1]


def generated(rows: int, weights=None, seed: int = 20190524) -> tuple[np.ndarray, np.ndarray]:
    """The generated K = 5 set: `make_classification` with `rows` rows of 10 features (6 informative, 2 redundant),
    two clusters a class, the class shares `weights` (default equal), fixed by `seed`. X (rows, 10), y (rows,)."""
    return sk_datasets.make_classification(
        n_samples=rows,
        n_features=10,
        n_informative=6,
        n_redundant=2,
        n_classes=5,
        n_clusters_per_class=2,
        weights=weights,
        random_state=seed,
    )


def binary_features(n: int = 3000, d: int = 180, K: int = 3, seed: int = 20190524) -> tuple[np.ndarray, np.ndarray]:
    """A K-class set of d 0/1 features (issue 29's high-dimensional case, where ℓ = 1 on standardised inputs makes the
    prior white noise): feature j of a class-k row is 1 with probability p_kj = clip(b_j + δ_kj, 0.02, 0.98),
    b_j ~ U(0.1, 0.9) shared, δ_kj ~ N(0, 0.1²) per class, so every feature carries a little of the class and none
    much. X (n, d) of 0.0/1.0, y (n,) balanced class indices; fixed by `seed`."""
    rng = np.random.default_rng(seed)
    p = np.clip(rng.uniform(0.1, 0.9, d) + rng.normal(0.0, 0.1, (K, d)), 0.02, 0.98)
    y = rng.permutation(np.arange(n) % K)
    return (rng.random((n, d)) < p[y]).astype(float), y


def fold_split(name: str, fold: int, settings: dict) -> tuple[P.Split, int]:
    """Fold `fold` (0-based) of the stratified k-fold split of data set `name`, prepared as every Run of the
    comparison starts from it (`protocol.prepare_split` under the "clean" protocol, seed + fold), and the data set's
    number of rows."""
    X, y = load(name, settings["generated_rows"])
    train, test = P.folds(name, y, settings["k"], PROTOCOL, settings["seed"])[fold]
    options = dict(m=settings["m"], seed=settings["seed"] + fold, monitor_points=settings["eval_points"])
    return P.prepare_split(name, X, y, train, test, PROTOCOL, **options), len(y)


def entrant_split(split: P.Split, options: dict) -> tuple[P.Split, dict]:
    """The fold as entrant `options` starts from, and the options left for its Run: "variance" (σ₀²),
    "lengthscale_factor" (ℓ₀ times it) and "ard" (one lengthscale per feature, each at ℓ₀) change the initial
    kernel; "class_order" (`xgpc_stickbreaking.stick_order`'s
    rules, or "random r") relabels the classes by their stick position, so the family's given order lays them in
    that order — scores and traces do not depend on the labels' names."""
    options = dict(options)
    kernel = split.kernel
    if {"variance", "lengthscale_factor", "ard"} & options.keys():
        ard, factor = options.pop("ard", False), options.pop("lengthscale_factor", 1.0)  # ARD: one ℓ per feature at ℓ₀
        lengthscale = np.full(split.X_train.shape[1], kernel.mean_lengthscale) if ard else kernel.lengthscale
        kernel = make_kernel(kernel.name, lengthscale * factor, options.pop("variance", kernel.variance), kernel.nugget)
    split = dataclasses.replace(split, kernel=kernel)
    if "class_order" in options:
        rule, K = options.pop("class_order"), int(max(split.y_train.max(), split.y_test.max()) + 1)
        if isinstance(rule, str) and rule.startswith("random"):
            rule = np.random.default_rng(int(rule.split()[1])).permutation(K).tolist()
        position = np.argsort(stick_order(np.bincount(split.y_train, minlength=K), rule))
        split = dataclasses.replace(
            split, y_train=position[split.y_train], y_test=position[split.y_test], y_monitor=position[split.y_monitor]
        )
    return split, options


def scores(probabilities: np.ndarray, y: np.ndarray) -> dict:
    """Test error, NLL, ECE, mean top probability − accuracy (below 0: under-confident) and the reliability table of
    the class probabilities (n, K) at class indices y (n,)."""
    table = {key: value.tolist() for key, value in reliability(probabilities, y).items()}
    error = error_rate(probabilities, y)
    return {
        "test_error": error,
        "confidence_gap": float(probabilities.max(axis=1).mean() - (1.0 - error)),
        "test_nll": negative_log_likelihood(probabilities, y),
        "ece": expected_calibration_error(probabilities, y),
        "reliability": table,
    }


def _record(name: str, fold: int, method: str, split: P.Split, n: int) -> dict:
    return {
        "dataset": name,
        "fold": fold,
        "method": method,
        "n": n,
        "d": split.X_train.shape[1],
        "K": int(max(split.y_train.max(), split.y_test.max()) + 1),
        "train_rows": len(split.y_train),
    }


def entrant_start(name: str, fold: int, short: str, settings: dict, split: P.Split) -> tuple[P.Split, dict]:
    """`entrant_split` of race entrant `short` on fold `fold` of data set `name`: from the fold's `split`, or with an
    "m" of its own from the fold prepared with that many inducing points (`fold_split`)."""
    options = dict(ENTRANTS[short].options)
    m = options.pop("m", None)
    return entrant_split(split if m is None else fold_split(name, fold, {**settings, "m": m})[0], options)


# ----- the tasks -------------------------------------------------------------------------------------------------------
def race_task(name: str, fold: int, entrants: list[str], settings: dict) -> list[dict]:
    """The "race" entrants (short names) on fold `fold` of data set `name`: each a Run (`protocol.make_trainer`) of
    its method and settings (`entrant_split`), raced for settings["seconds"] of training each in fair slices, or with
    settings["iterations"] trained that many iterations each; one record per entrant with its scores on all test
    rows, its fitted kernel and its validation trace."""
    split, n = fold_split(name, fold, settings)
    starts = {short: entrant_start(name, fold, short, settings, split) for short in entrants}

    def trainer(short):
        start, options = starts[short]
        return P.make_trainer(ENTRANTS[short].method, start, fold, settings, options)

    with pinned_blas(settings["threads"]), warnings.catch_warnings(action="ignore"):  # the clamped-batch warnings
        if settings.get("iterations"):  # a budget the load cannot move: each entrant alone, that many iterations
            trainers = {short: trainer(short) for short in entrants}
            for fitted in trainers.values():
                fitted.run(max_iter=settings["iterations"], stop_at_convergence=False)
        else:
            race = Race({short: partial(trainer, short) for short in entrants}, settings["seconds"])
            for _ in race.run():
                pass
            trainers = race.trainers
        records = []
        for short, fitted in trainers.items():
            start, history, kernel = starts[short][0], fitted.history, fitted.engine.kernel
            trace = {column: history.column(column).tolist() for column in ("seconds", "iteration", "test_nll")}
            probabilities = fitted.engine.predict_proba(start.X_test)
            records.append(
                {
                    **_record(name, fold, short, split, n),
                    **scores(probabilities, start.y_test),
                    "seconds": fitted.seconds,
                    "iterations": fitted.engine.iteration,
                    "lengthscale": kernel.mean_lengthscale,
                    "variance": kernel.variance,
                    "status": "raced",
                    "trace": trace,
                }
            )
    return records


def ovr_task(name: str, fold: int, short: str, settings: dict) -> dict:
    """One-vs-rest: K binary Runs of the entrant's method (class k against the rest) on fold `fold` of data set `name`,
    settings["ovr_iterations"] iterations each (the shared split, Z, kernel and seed); the K class-1 probabilities
    normalised per row."""
    split, n = fold_split(name, fold, settings)
    entrant = ENTRANTS[short]
    K = int(max(split.y_train.max(), split.y_test.max()) + 1)
    columns, seconds = [], 0.0
    with pinned_blas(settings["threads"]), warnings.catch_warnings(action="ignore"):
        for k in range(K):
            binary = dataclasses.replace(
                split,
                y_train=(split.y_train == k).astype(int),
                y_test=(split.y_test == k).astype(int),
                y_monitor=(split.y_monitor == k).astype(int),
            )
            trainer = P.make_trainer(entrant.method, binary, fold, settings, entrant.options)
            trainer.run(max_iter=settings["ovr_iterations"], stop_at_convergence=False)
            seconds += trainer.seconds
            columns.append(trainer.engine.predict_proba(split.X_test)[:, 1])
    probabilities = np.column_stack(columns)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    record = {**_record(name, fold, short, split, n), **scores(probabilities, split.y_test)}
    return {**record, "seconds": seconds, "iterations": settings["ovr_iterations"], "status": "fitted"}


def sklearn_task(name: str, fold: int, short: str, settings: dict) -> dict:
    """scikit-learn's GaussianProcessClassifier (one-vs-rest Laplace, kernel σ² ℓ starting at 1, √d) on at most
    settings["gpc_rows"] training rows of fold `fold` of data set `name` (a subset drawn with the run's split stream)."""
    split, n = fold_split(name, fold, settings)
    rows = np.sort(run.streams(settings["seed"] + fold).split.permutation(len(split.y_train))[: settings["gpc_rows"]])
    X, y = split.X_train[rows], split.y_train[rows]
    model = GaussianProcessClassifier(
        ConstantKernel(1.0) * SkRBF(np.sqrt(X.shape[1])), multi_class="one_vs_rest", random_state=settings["seed"]
    )
    with pinned_blas(settings["threads"]), warnings.catch_warnings(action="ignore"):  # scikit-learn's optimiser
        start = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - start
        probabilities = model.predict_proba(split.X_test)
    record = {**_record(name, fold, short, split, n), **scores(probabilities, split.y_test)}
    return {**record, "seconds": seconds, "fit_rows": len(rows), "status": "fitted"}


TASKS = {"ovr": ovr_task, "sklearn": sklearn_task}


def settings_of(args) -> dict:
    """What every task needs from the parsed arguments (a plain dict: it travels to the workers)."""
    keys = ("k", "seed", "generated_rows", "m", "batch_size", "seconds", "iterations", "eval_every", "eval_points")
    return {key: getattr(args, key) for key in (*keys, "gpc_rows", "ovr_iterations", "threads")}


def tasks(args) -> list[grid.Task]:
    """The grid: per data set and fold, one race of the "race" entrants and one task per other entrant."""
    settings = settings_of(args)
    raced = [short for short in args.methods if ENTRANTS[short].kind == "race"]
    listed = []
    for name in args.datasets:
        for fold in range(args.folds):
            if raced:
                key = (name, f"fold {fold + 1}", "race")
                listed.append(grid.Task(key, race_task, (name, fold, raced, settings), len(raced) * args.seconds))
            for short in args.methods:
                kind = ENTRANTS[short].kind
                if kind != "race":
                    listed.append(
                        grid.Task((name, f"fold {fold + 1}", short), TASKS[kind], (name, fold, short, settings))
                    )
    return listed


def records_of(results: list) -> list[dict]:
    """The grid's results as one record per (data set, fold, entrant): a race's list flattened."""
    return [record for result in results for record in (result if isinstance(result, list) else [result])]


# ----- per-iteration cost and the evaluation share --------------------------------------------------------------------
def iteration_seconds(engine, hyper_every: int, repeats: int = 60) -> float:
    """One SVI iteration's seconds over a cycle of `hyper_every` iterations (the last with a kernel step): the least
    time of one step at each position of the cycle (the reading least moved by a shared machine's load), averaged."""
    fastest = [math.inf] * hyper_every
    for _ in range(repeats * hyper_every):
        position = engine.iteration % hyper_every
        start = time.perf_counter()
        engine.step(1)
        fastest[position] = min(fastest[position], time.perf_counter() - start)
    return sum(fastest) / hyper_every


def default_family() -> str:
    """The multi-class family a default fit uses: the settings table's default of `multiclass_family`."""
    return SETTINGS["multiclass_family"].default


def cost_families() -> list[str]:
    """The families of the cost and evaluation-share tables: the default one first, then the rest of `COST_FAMILIES`."""
    return list(dict.fromkeys([default_family(), *COST_FAMILIES]))


def cost_task(K: int, n: int, settings: dict, *, hyper_every: int = 1, family: str | None = None, d: int = 10):
    """Seconds of one multi-class X-GPC step of the family `family` (default: `default_family()`) with a kernel
    step every `hyper_every` iterations (`iteration_seconds`) on n rows of d random features and K classes, m =
    settings["m"] inducing points and minibatch s = settings["batch_size"] (seed and BLAS threads from "seed" and
    "threads", default 0 and 1), its floor (J m × m Cholesky factorisations and J triangular solves with s
    right-hand sides, J the family's latent functions: K for the logistic-softmax families, K − 1 for
    stick-breaking; timed here, the least of 60 readings) and their ratio."""
    m, batch_size = settings["m"], settings["batch_size"]
    seed, threads = settings.get("seed", 0), settings.get("threads", 1)
    family = default_family() if family is None else family
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.integers(0, K, n)
    with pinned_blas(threads), warnings.catch_warnings(action="ignore"):
        kernel = initial_kernel("rbf", d, lengthscale=float(np.sqrt(d)), nugget=1e-4)
        engine = methods.build(
            "xgpc", X, y, X[:m], kernel, batch_size=batch_size, rng=rng, hyper_every=hyper_every,
            multiclass_family=family,
        )  # fmt: skip
        latent = len(engine.mu)  # q(u) per latent function
        engine.step(5)  # past the warm start
        step = iteration_seconds(engine, hyper_every)
        A = rng.standard_normal((m, m))
        A = A @ A.T + m * np.eye(m)
        L = np.linalg.cholesky(A)
        B = rng.standard_normal((m, batch_size))

        def floor():
            for _ in range(latent):
                cho_factor(A, lower=True)
                solve_triangular(L, B, lower=True)

        floor_seconds = float(min(common.interleaved_times({"floor": (floor, 1)}, 60)["floor"]))
    return {
        "family": family,
        "K": K,
        "latent functions": latent,
        "n": n,
        "m": m,
        "s": batch_size,
        "kernel step every": hyper_every,
        "step_ms": 1e3 * step,
        "floor_ms": 1e3 * floor_seconds,
        "ratio": step / floor_seconds,
    }


def share_task(dataset: str, *, generated_rows: int = 5000, threads: int = 1, family: str | None = None) -> dict:
    """A default `XGPClassifier(random_state=0)` fit on a whole data set (inputs standardised), of the multi-class
    family `family` (None: the default one, nothing passed): its iterations, evaluations (early stopping's, or the
    history's where early stopping is off), training and evaluation seconds (the Trainer's own timing record) and the
    share of their sum that went to evaluations."""
    X, y = load(dataset, generated_rows)  # the estimator standardises its inputs
    options = {} if family is None else {"options": {"multiclass_family": family}}
    with pinned_blas(threads), warnings.catch_warnings(action="ignore"):
        model = XGPClassifier(random_state=0, **options).fit(X, y)
    trainer = model.trainer_
    return {
        "data set": f"{dataset} (n {len(y)}, K {len(model.classes_)})",
        "family": default_family() if family is None else family,
        "iterations": model.n_iter_,
        "evaluations": trainer.evaluations,
        "train s": trainer.seconds,
        "eval s": trainer.eval_seconds,
        "eval share": trainer.evaluation_share,
    }


# ----- summary ---------------------------------------------------------------------------------------------------------
def reach_times(records: list[dict]) -> None:
    """Issue 29's "≤ 1.1 × the best softmax SVGP's NLL, reached ≥ 5× sooner", per raced record (in place): the bar
    is `REACH_BAND` × the best final validation NLL (last reading) of the softmax SVGP entrants (`REFERENCE`) raced
    on that fold; "reached_s" is the training time of the record's first validation reading at or below it (inf if
    none), "sooner" the earliest of those SVGP entrants' own "reached_s" divided by it (above 1: the record got there
    sooner; nan if it never did); "nll_ratio" and "ece_ratio" its test NLL and ECE over the best of those SVGP entrants'.
    Folds without an SVGP entrant get none of them."""
    raced = [r for r in records if "trace" in r]
    for record in raced:
        fold = [r for r in raced if (r["dataset"], r["fold"]) == (record["dataset"], record["fold"])]
        reference = [r for r in fold if r["method"] in REFERENCE]
        if not reference:
            continue
        record["nll_ratio"] = record["test_nll"] / min(r["test_nll"] for r in reference)
        record["ece_ratio"] = record["ece"] / min(r["ece"] for r in reference)
        bar = REACH_BAND * min(r["trace"]["test_nll"][-1] for r in reference)
        for r in (*reference, record):
            r["reached_s"] = first_time_within(r["trace"]["seconds"], r["trace"]["test_nll"], bar)
        svgp = min(r["reached_s"] for r in reference)
        reached = record["reached_s"]
        record["sooner"] = float("nan") if not math.isfinite(reached) else svgp / reached if reached > 0 else math.inf


SUMMARY = {  # column of the table → key of the records averaged over folds ("—" where an entrant has none)
    "error": "test_error",
    "NLL": "test_nll",
    "ECE": "ece",
    "conf − acc": "confidence_gap",
    "train s": "seconds",
    f"≤ {REACH_BAND}× SVGP s": "reached_s",
    "× sooner than SVGP": "sooner",
    "NLL / SVGP": "nll_ratio",
    "ECE / SVGP": "ece_ratio",
    "iterations": "iterations",
}


def summarise(records: list[dict]) -> list[dict]:
    """One row per (data set, entrant): means over folds (`SUMMARY`), and a note where scikit-learn's GPC was fit on
    a subset."""
    rows = []
    for name in dict.fromkeys(r["dataset"] for r in records):
        for method in dict.fromkeys(r["method"] for r in records):
            group = [r for r in records if r["dataset"] == name and r["method"] == method]
            if not group:
                continue
            first = group[0]
            mean = lambda key: float(np.mean([r[key] for r in group])) if key in first else float("nan")  # noqa: E731
            note = ""
            if "fit_rows" in first and first["fit_rows"] < first["train_rows"]:
                note = f"fit on {first['fit_rows']} of {first['train_rows']} training rows "
                note += "(Laplace: O(n³) time, O(n²) memory per class)"
            rows.append(
                {
                    "data set": f"{name} (n {first['n']}, d {first['d']}, K {first['K']})",
                    "method": ENTRANTS[method].label,
                    **{column: mean(key) for column, key in SUMMARY.items()},
                    "ℓ, σ²": f"{mean('lengthscale'):.3g}, {mean('variance'):.3g}" if "variance" in first else "",
                    "note": note,
                }
            )
    return rows


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench multiclass", __doc__)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=(*DATASETS, IMBALANCED))
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS), choices=list(ENTRANTS))
    for flag, least, default, nargs, help in (
        ("--k", 2, 5, None, "stratified folds the data is cut into (default 5)"),
        ("--folds", 1, 1, None, "run the first FOLDS of them (default 1)"),
        ("--generated-rows", 1, 100_000, None, "rows of the generated K = 5 set"),
        ("--gpc-rows", 1, 500, None, "most training rows for scikit-learn's GPC"),
        ("--ovr-iterations", 1, 500, None, "iterations per one-vs-rest X-GPC class"),
        ("--cost-classes", 3, [3, 5, 10], "*", "K of the cost table (none: no table)"),
        ("--cost-rows", 1, [1000, 10_000, 100_000], "+", "n of the cost table"),
        ("--cost-kernel-every", 1, [1, 5], "+",
         "kernel step every … iterations in the cost table (default 1 and 5, a default fit's)"),
    ):  # fmt: skip
        parser.add_argument(flag, type=whole_number(least), default=default, nargs=nargs, help=help)
    P.add_budget_arguments(
        parser,
        20.0,
        "training time per raced entrant",
        "train each raced entrant this many iterations instead of racing --seconds (a budget the load cannot move, "
        "for entrants of equal cost per iteration such as the stick's class orders)",
    )
    add_setting_argument(parser, "eval_every", help="iterations between evaluations of a one-vs-rest Run")
    add_setting_argument(parser, "eval_points", default=1000, help="most validation rows per evaluation of a trace")
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m", default=50)
    add_setting_argument(parser, "batch_size")
    add_setting_argument(parser, "seed")
    parser.add_argument(
        "--share-datasets",
        nargs="*",
        default=["wine", "digits", "generated"],
        choices=DATASETS,
        help="data sets of the evaluation-share table (a default fit on each; generated: 5,000 rows)",
    )
    parser.add_argument("--quick", action="store_true", help="iris and wine, 1 fold, 3 s slices, a small cost table")
    grid.add_arguments(parser)
    args = parser.parse_args(argv)
    apply_quick(args, argv, QUICK | QUICK_COST)
    args.folds = min(args.folds, args.k)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_arguments(argv)
    records = records_of(grid.run(tasks(args), args))
    families = cost_families()
    cost_rows = []
    for every, K, n, family in itertools.product(args.cost_kernel_every, args.cost_classes, args.cost_rows, families):
        print(f"multiclass: timing an iteration ({family}) at K {K}, n {n}, kernel every {every}", file=sys.stderr)
        cost_rows.append(cost_task(K, n, settings_of(args), hyper_every=every, family=family))
    share_rows = []
    for name in args.share_datasets:
        for family in families:
            print(f"multiclass: evaluation share of a default fit ({family}) on {name}", file=sys.stderr)
            share_rows.append(share_task(name, threads=args.threads, family=None if family == families[0] else family))
    reach_times(records)
    section = "multiclass: the issue-29 table" + (" (quick)" if args.quick else "")
    markdown = markdown_table(summarise(records)) + "\n"
    if any("trace" in r for r in records):
        markdown += (
            f'\n"≤ {REACH_BAND}× SVGP s": the training time (evaluations excluded) of a raced entrant\'s first validation NLL '
            f"at or below {REACH_BAND} × the best final validation NLL of the softmax SVGP entrants on the fold (issue 29's "
            'NLL bar), "—" if never within the race; "× sooner than SVGP": the first of those SVGP entrants\' own '
            "time to that bar divided by the entrant's (issue 29 asks ≥ 5 of the default family); means over folds.\n"
        )
    if cost_rows:
        markdown += (
            f"\nPer-iteration cost of multi-class X-GPC, the default family ({families[0]}) and beside it "
            f"{', '.join(families[1:]) or 'no other'} (m = {args.m}, s = {args.batch_size}; a kernel step every "
            f"{' or '.join(map(str, args.cost_kernel_every))} iterations, 5 in a default fit) against its "
            "linear-algebra floor (J m×m Cholesky + J triangular solves with s right-hand sides, J its latent functions: "
            "K, or K − 1 for stick-breaking); each the fastest reading of many, the least moved by the machine's load:"
            f"\n\n{markdown_table(cost_rows)}\n"
        )
    if share_rows:
        markdown += (
            "\nShare of a default `XGPClassifier(random_state=0)` fit's time spent in evaluations (the Trainer's own "
            f"timing record), the default family ({families[0]}) and, beside it, the others named:"
            f"\n\n{markdown_table(share_rows)}\n"
        )
    names = {short: entrant.label for short, entrant in ENTRANTS.items()}
    payload = {"names": names, "records": records, "cost": cost_rows, "share": share_rows}
    finish(args, section, markdown, payload)
    return 0
