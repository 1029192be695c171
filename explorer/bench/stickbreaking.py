"""`python -m explorer.bench.stickbreaking`: the stick-breaking Pólya-Gamma multi-class family
(`xgpc_stickbreaking`, issue 29 item 3b) against the joint logistic-softmax family and the softmax SVGP at equal
training time, and the stick's class order.

Every entrant trains for --seconds of training time (evaluation excluded) from the same start: the k-means++ inducing
inputs (m = --m), the RBF kernel with ℓ₀ = √d, σ² = 1, nugget 1e-4, kernel learning on (each method's defaults),
minibatches of --batch-size drawn from one seed, evaluated every --eval-every iterations on at most --eval-points
test rows (for the time to settle within 1% of the best NLL any entrant reached on that split); or, with
--iterations, for that many iterations (the class-order study: equal cost per iteration, a budget the load cannot move). Data, stratified
70/30 split (seed --seed), inputs standardised on the training rows: scikit-learn's wine and digits, the generated
K = 5 set of `bench multiclass` (--generated-rows rows) and a generated set of 180 0/1 features and K = 3 classes
(`binary_features`, 3,000 rows, the shape of the DNA splice-junction set). Reported: test accuracy, NLL, top-label
ECE (10 bins), mean top probability − accuracy, and the NLL and ECE of each entrant over the best softmax SVGP's on
the same split. One process, one BLAS thread; the load average is recorded before and after.

With --race the entrants run under `bench multiclass`'s protocol instead (`race_fold`: fold 0 of its 5-fold split of
wine, digits, generated or binary, its validation part, Z and initial kernel, every entrant a Run raced in fair slices
of --seconds of training), the measurement of BENCHMARKS.md "multiclass: stick-breaking kernel learning (issue
29.3b)": the kernel rate and schedule, σ₀² and ARD entrants.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
import warnings
from functools import partial

import numpy as np
from sklearn.model_selection import train_test_split

from explorer import methods
from explorer.bench import multiclass, protocol
from explorer.bench.common import markdown_table, pinned_blas
from explorer.bench.multiclass import generated, load
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import initial_kernel
from explorer.metrics import error_rate, expected_calibration_error, negative_log_likelihood, settled_time_within
from explorer.studies.race import Race
from explorer.xgpc_stickbreaking import XGPCStickBreaking

ENTRANTS = {
    "joint": ("xgpc", {"multiclass_family": "joint"}),
    "stick (given)": ("xgpc", {"multiclass_family": "stick-breaking"}),
    "stick (frequency)": ("xgpc", {"multiclass_family": "stick-breaking", "class_order": "frequency"}),
    "stick (augmented kernel bound)": ("xgpc", {"multiclass_family": "stick-breaking", "kernel_bound": "augmented"}),
    **{
        f"stick (random order {r})": ("xgpc", {"multiclass_family": "stick-breaking", "class_order": f"random {r}"})
        for r in range(3)
    },
    "stick (every 1)": ("xgpc", {"multiclass_family": "stick-breaking", "hyper_every": 1}),
    "stick (rate 0.05)": ("xgpc", {"multiclass_family": "stick-breaking", "hyper_learning_rate": 0.05}),
    "stick (every 1, rate 0.05)": (
        "xgpc",
        {"multiclass_family": "stick-breaking", "hyper_every": 1, "hyper_learning_rate": 0.05},
    ),
    "stick (σ²₀ 4)": ("xgpc", {"multiclass_family": "stick-breaking", "initial_variance": 4.0}),
    "stick (ARD)": ("xgpc", {"multiclass_family": "stick-breaking", "ard": True}),
    "stick (rate 0.1)": (
        "xgpc",
        {"multiclass_family": "stick-breaking", "hyper_learning_rate": 0.1, "kernel_patience": 0},
    ),
    "stick (rate 0.01, no brake)": (
        "xgpc",
        {"multiclass_family": "stick-breaking", "hyper_learning_rate": 0.01, "kernel_patience": 0},
    ),
    "stick (every 1, rate 0.1)": (
        "xgpc",
        {"multiclass_family": "stick-breaking", "hyper_every": 1, "hyper_learning_rate": 0.1},
    ),
    **{
        f"stick (rate 0.1, brake {p})": (
            "xgpc",
            {"multiclass_family": "stick-breaking", "hyper_learning_rate": 0.1, "kernel_patience": p},
        )
        for p in (5, 10, 20)
    },
    "stick (no kernel learning)": ("xgpc", {"multiclass_family": "stick-breaking", "learn_hyperparameters": False}),
    "svgp-natgrad": ("svgp-natgrad", {}),
    "svgp-adam": ("svgp-adam", {"learning_rate": 0.05}),
}
"""Entrant → (builder of `methods.METHODS`, options) ("stick (given)" is the family's default: kernel rate 0.1 with the
kernel brake of patience 10; "stick (rate 0.1)" the same rate without the brake, "stick (rate 0.01, no brake)" the
default before the brake; the other "rate" entrants keep the default brake); "class_order" goes to the stick-breaking engine itself ("random r":
the permutation of the classes drawn by `default_rng(r)`). The default run is the joint family, the stick-breaking one (its default order) and the SVGPs."""
DEFAULT_ENTRANTS = ("joint", "stick (given)", "svgp-natgrad", "svgp-adam")
DATASETS = ("wine", "digits", "generated", "binary-features")
IMBALANCED = "imbalanced"
"""A set for the class-order study (not in the default run): `make_classification` with K = 5 classes of shares
0.05, 0.08, 0.12, 0.25, 0.5 (the given order rarest first), 5,000 rows, 10 features."""


def binary_features(rows: int = 3000, d: int = 180, K: int = 3, seed: int = 20151207) -> tuple[np.ndarray, np.ndarray]:
    """A K-class set of d 0/1 features: each class flips the base rates p₀ ~ U(0.1, 0.5) of 20 of the features by ±0.3
    (different features per class), the rest shared; y uniform over the classes. X (rows, d) float, y (rows,)."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.5, d)
    rates = np.tile(base, (K, 1))
    for k in range(K):
        informative = rng.choice(d, 20, replace=False)
        rates[k, informative] = np.clip(base[informative] + rng.choice([-0.3, 0.3], 20), 0.02, 0.98)
    y = rng.integers(0, K, rows)
    return (rng.random((rows, d)) < rates[y]).astype(float), y


def split(name: str, seed: int, generated_rows: int):
    """Stratified 70/30 split, standardised on the training rows: X_train, y_train, X_test, y_test."""
    if name == "binary-features":
        X, y = binary_features()
    elif name == IMBALANCED:
        X, y = generated(5000, weights=[0.05, 0.08, 0.12, 0.25, 0.5], seed=20151207)
    else:
        X, y = load(name, generated_rows)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    mean, sd = X_train.mean(axis=0), X_train.std(axis=0)
    sd[sd == 0] = 1.0
    return (X_train - mean) / sd, y_train, (X_test - mean) / sd, y_test


def build(entrant: str, X, y, Z, kernel, *, batch_size: int, rng):
    """The engine of `entrant` (`ENTRANTS`) on X (n, d), y (n,) with inducing inputs Z and the starting kernel."""
    builder, options = ENTRANTS[entrant]
    options = dict(options)
    order = options.pop("class_order", None)
    engine = methods.build(builder, X, y, Z, kernel, batch_size=batch_size, rng=rng, **options)
    if order is not None:  # the engine's own option, not a run setting: rebuild with it
        if order.startswith("random"):  # a seeded permutation of the classes
            order = np.random.default_rng(int(order.split()[1])).permutation(engine.n_classes).tolist()
        engine = XGPCStickBreaking(
            X,
            y,
            Z,
            kernel,
            batch_size=batch_size,
            rng=rng,
            schedule=engine.schedule,
            hyper_optimizer=engine.hyper_optimizer,
            class_order=order,
        )
    return engine


def sliced_fit(
    entrant, X, y, X_test, y_test, *, m, batch_size, seconds, eval_every, eval_points, seed, iterations=None
) -> dict:
    """One entrant trained for `seconds` of training time, or for `iterations` iterations when given (a budget that
    does not move with the machine's load, for entrants of equal cost per iteration such as the class orders)."""
    rng = np.random.default_rng(seed)
    monitor = np.sort(np.random.default_rng(seed).permutation(len(y_test))[:eval_points])
    Z = kmeans_plus_plus(X, m, np.random.default_rng(seed))
    kernel = initial_kernel("rbf", X.shape[1], lengthscale=float(np.sqrt(X.shape[1])), nugget=1e-4)
    engine = build(entrant, X, y, Z, kernel, batch_size=min(batch_size, len(y)), rng=rng)
    monitor_proba = getattr(engine, "monitor_proba", engine.predict_proba)
    trace_s, trace_nll, trained, status = [], [], 0.0, "ran"
    while (engine.iteration < iterations) if iterations else (trained < seconds):
        start = time.perf_counter()
        try:
            engine.step(eval_every)
        except (ArithmeticError, ValueError) as err:
            status = f"stopped: {type(err).__name__}: {err}"[:160]
            break
        trained += time.perf_counter() - start
        trace_s.append(trained)
        trace_nll.append(negative_log_likelihood(monitor_proba(X_test[monitor]), y_test[monitor]))
    P = engine.predict_proba(X_test)
    error = error_rate(P, y_test)
    return {
        "accuracy": 1.0 - error,
        "nll": negative_log_likelihood(P, y_test),
        "ece": expected_calibration_error(P, y_test),
        "conf_gap": float(P.max(axis=1).mean() - (1.0 - error)),
        "seconds": trained,
        "iterations": engine.iteration,
        "lengthscale": float(np.mean(engine.kernel.lengthscale)),
        "variance": float(engine.kernel.variance),
        "status": status,
        "trace": {"seconds": trace_s, "nll": trace_nll},
    }


RACE_DATASETS = ("wine", "digits", "generated", "binary")
"""The sets of `--race`: `bench multiclass`'s own loaders and fold split ("binary": its 180-feature 0/1 set)."""


def race_fold(name: str, entrants: list[str], settings: dict) -> list[dict]:
    """`bench multiclass`'s race protocol with this harness's entrants: fold 0 of the stratified k-fold split of `name`
    prepared as `bench.multiclass.fold_split` does (the validation part, Z and ℓ₀ = √d, σ₀² = 1), every entrant a
    Run of `protocol.make_trainer` raced in fair slices of settings["seconds"] of training (`studies.race.Race`); an
    entrant's option "initial_variance" replaces σ₀², "ard" makes the kernel one lengthscale per feature. One record per entrant: test scores on all test rows, the
    fitted ℓ and σ²."""
    split, n = multiclass.fold_split(name, 0, settings)

    def trainer(short):
        builder, options = ENTRANTS[short]
        options = dict(options)
        kernel = split.kernel
        if options.pop("ard", False):  # one lengthscale per feature, each starting at the shared one
            kernel = kernel.with_log_params(
                np.concatenate([np.full(split.X_train.shape[1], kernel.log_params[0]), kernel.log_params[-1:]])
            )
        if "initial_variance" in options:
            log_params = kernel.log_params.copy()
            log_params[-1] = math.log(options.pop("initial_variance"))
            kernel = kernel.with_log_params(log_params)
        return protocol.make_trainer(
            builder,
            dataclasses.replace(split, kernel=kernel),
            seed=settings["seed"],
            batch_size=settings["batch_size"],
            convergence="none",
            eval_every=settings["eval_every"],
            options=options,
        )

    race = Race({short: partial(trainer, short) for short in entrants}, settings["seconds"])
    for _ in race.run():
        pass
    records = []
    for short, fitted in race.trainers.items():
        P = fitted.engine.predict_proba(split.X_test)
        error = error_rate(P, split.y_test)
        records.append(
            {
                "dataset": f"{name} (n {n}, d {split.X_train.shape[1]})",
                "entrant": short,
                "accuracy": 1.0 - error,
                "nll": negative_log_likelihood(P, split.y_test),
                "ece": expected_calibration_error(P, split.y_test),
                "conf_gap": float(P.max(axis=1).mean() - (1.0 - error)),
                "seconds": fitted.seconds,
                "iterations": fitted.engine.iteration,
                "lengthscale": float(np.mean(fitted.engine.kernel.lengthscale)),
                "variance": float(fitted.engine.kernel.variance),
                "status": "raced",
                "trace": {
                    "seconds": fitted.history.column("seconds").tolist(),
                    "nll": fitted.history.column("test_nll").tolist(),
                },
            }
        )
    return records


def main(argv: list[str] | None = None) -> int:
    """Run the entrants on the data sets, print the Markdown table and the load, write the records as JSON if asked."""
    parser = argparse.ArgumentParser(prog="python -m explorer.bench.stickbreaking", description=__doc__)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=(*DATASETS, IMBALANCED, "binary"))
    parser.add_argument("--entrants", nargs="+", default=list(DEFAULT_ENTRANTS), choices=list(ENTRANTS))
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--iterations", type=int, default=None, help="train this many iterations instead of --seconds")
    parser.add_argument("--m", type=int, default=50)
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--eval-points", type=int, default=1000)
    parser.add_argument("--generated-rows", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None, help="write every record here")
    parser.add_argument(
        "--race",
        action="store_true",
        help="bench multiclass's protocol instead (fold 0 of 5, its loaders, a Race of the entrants): data sets "
        + ", ".join(RACE_DATASETS),
    )
    args = parser.parse_args(argv)
    if args.race:
        return race_main(args)
    load_before = os.getloadavg()
    records = []
    with pinned_blas(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in args.datasets:
            X, y, X_test, y_test = split(name, args.seed, args.generated_rows)
            for entrant in args.entrants:
                budget = ("m", "batch_size", "seconds", "eval_every", "eval_points", "seed", "iterations")
                record = sliced_fit(entrant, X, y, X_test, y_test, **{flag: getattr(args, flag) for flag in budget})
                records.append(
                    {"dataset": f"{name} (n {len(y) + len(y_test)}, d {X.shape[1]})", "entrant": entrant, **record}
                )
                print(name, entrant, {k: v for k, v in record.items() if k != "trace"}, file=sys.stderr, flush=True)
    return report(records, load_before, args)


def race_main(args) -> int:
    """The --race run: `race_fold` on each data set of --datasets (of `RACE_DATASETS`)."""
    settings = {
        "k": 5,
        "seed": args.seed,
        "generated_rows": args.generated_rows,
        "m": args.m,
        "eval_points": args.eval_points,
        "seconds": args.seconds,
        "batch_size": args.batch_size,
        "eval_every": args.eval_every,
    }
    load_before = os.getloadavg()
    records = []
    with pinned_blas(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in args.datasets:
            for record in race_fold(name, args.entrants, settings):
                records.append(record)
                print(name, record["entrant"], {k: v for k, v in record.items() if k != "trace"}, file=sys.stderr)
    return report(records, load_before, args)


def report(records: list[dict], load_before, args) -> int:
    """Print the Markdown table of the records and the load; write them as JSON if asked."""
    load_after = os.getloadavg()
    rows = []
    for name in dict.fromkeys(r["dataset"] for r in records):
        group = [r for r in records if r["dataset"] == name]
        best = min(min(r["trace"]["nll"], default=r["nll"]) for r in group)
        svgp = [r for r in group if r["entrant"].startswith("svgp")]
        svgp_nll = min((r["nll"] for r in svgp), default=float("nan"))
        svgp_ece = min((r["ece"] for r in svgp), default=float("nan"))
        for r in group:
            rows.append(
                {
                    "data set": name,
                    "entrant": r["entrant"],
                    "accuracy": r["accuracy"],
                    "NLL": r["nll"],
                    "ECE": r["ece"],
                    "conf − acc": r["conf_gap"],
                    "NLL / best SVGP": r["nll"] / svgp_nll,
                    "ECE / best SVGP": r["ece"] / svgp_ece,
                    "iterations": r["iterations"],
                    "settled 1% s": settled_time_within(r["trace"]["seconds"], r["trace"]["nll"], 1.01 * best),
                    "ℓ, σ²": f"{r['lengthscale']:.3g}, {r['variance']:.3g}",
                }
            )
    print(markdown_table(rows))
    print(f"\nload average before {load_before[0]:.2f} / after {load_after[0]:.2f} (1 min), BLAS 1 thread")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"args": vars(args), "load": [load_before, load_after], "records": records}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
