"""`python -m explorer bench table1`: the paper's Table 1 protocol on the offline data sets, beside the paper's numbers.

k-fold cross-validation (the first `--folds` of `--k` folds), m = 100 k-means++ inducing inputs (fixed), minibatch 100,
kernel learning, each fit stopped by the convergence rule (default: the paper's hold-out rule for all methods) or the
time cap per fit. Mean ± sd over folds of test error, test NLL and training time; protocols in `protocol`.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from explorer.bench import grid
from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, apply_quick, finish
from explorer.console import whole_number
from explorer.metrics import error_rate, negative_log_likelihood

DESCRIPTION = "Table 1: cross-validated error, NLL and time of X-GPC and the baselines (SVGP, EPGPC) beside the paper"
QUICK = {"datasets": ["diabetes", "a9a"], "folds": 2, "seconds": 15.0}
TRACE_POINTS = 200


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench table1", __doc__)
    P.add_datasets_argument(parser, P.OFFLINE_DATASETS, ", all offline ones")
    parser.add_argument("--methods", nargs="+", default=list(P.METHOD_NAMES), choices=P.METHOD_NAMES)
    parser.add_argument("--protocol", choices=P.PROTOCOLS, default="paper")
    parser.add_argument(
        "--k", type=whole_number(2), default=10, help="number of cross-validation folds the data is cut into"
    )
    parser.add_argument(
        "--folds", type=whole_number(1), default=None, help="run only the first FOLDS of them (default all k)"
    )
    P.add_budget_arguments(parser, 120.0, "training-time cap per fit")
    parser.add_argument(
        "--convergence",
        choices=("holdout", "parameters", "none"),
        default="holdout",
        help="stopping rule: the paper's hold-out NLL rule for all methods (default), the global-"
        "parameter rule, or only the time cap",
    )
    add_setting_argument(parser, "eval_every", help="iterations between hold-out evaluations")
    P.add_fit_arguments(parser)
    add_setting_argument(
        parser,
        "eval_points",
        2000,
        "largest hold-out subset the convergence rule watches (fixed per fold)",
        aliases=("--monitor-points",),
        dest="monitor_points",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{' and '.join(QUICK['datasets'])}, {QUICK['folds']} folds, {QUICK['seconds']:g} s cap "
        "(a few minutes); explicit --datasets/--folds/--seconds still win",
    )
    grid.add_arguments(parser)
    args = parser.parse_args(argv)
    explicit = apply_quick(args, argv, QUICK)
    args.folds = args.k if args.folds is None else min(args.folds, args.k)
    missing = P.unobtainable(args.datasets, args.protocol)
    if missing and not (args.quick and "datasets" not in explicit and len(missing) < len(args.datasets)):
        raise P.datasets.DataError("; ".join(f"data set {name} needs its {how}" for name, how in missing.items()))
    if missing:  # --quick on its default sets: run on what can be had, and say what was left out
        print(
            "table1 --quick: leaving out " + "; ".join(f"{name} (its {how})" for name, how in missing.items()),
            file=sys.stderr,
        )
        args.datasets = [name for name in args.datasets if name not in missing]
    return args


def thinned(history, points: int = TRACE_POINTS) -> dict:
    """At most `points` evenly spaced rows of a trace (seconds, test_nll, test_error, elbo)."""
    rows = np.unique(np.linspace(0, len(history) - 1, min(points, len(history))).astype(int))
    return {name: history.column(name)[rows] for name in ("seconds", "iteration", "test_nll", "test_error", "elbo")}


def fit(name: str, fold: int, method: str, settings: dict) -> dict:
    """One fit of the grid: `method` on fold `fold` (0-based) of data set `name` (a registered name or a file),
    stopped by the convergence rule, the iteration limit or the time cap; its record (test metrics, time, kernel,
    thinned trace)."""
    X, y = P.shared_dataset(name, settings["protocol"])
    split = P.task_split(name, fold, settings)
    trainer = P.make_trainer(method, split, fold, settings, settings["options"].get(method), settings["convergence"])
    budget = dict(seconds=settings["seconds"], max_iter=settings["iterations"])
    trainer.run(**budget, stop_at_convergence=settings["convergence"] != "none")
    p = trainer.engine.predict_proba(split.X_test)
    return {
        "dataset": name,
        "n": len(y),
        "d": X.shape[1],
        "fold": fold,
        "method": method,
        "error": error_rate(p, split.y_test),
        "nll": negative_log_likelihood(p, split.y_test),
        "seconds": trainer.seconds,
        "iterations": trainer.engine.iteration,
        "converged": bool(trainer.converged),
        "kernel": trainer.engine.kernel.name,
        "lengthscale": trainer.engine.kernel.mean_lengthscale,
        "variance": trainer.engine.kernel.variance,
        "trace": thinned(trainer.history),
    }


def tasks(args) -> list[grid.Task]:
    """The grid: one task per (data set, fold, method), each given what its fit needs from the parsed arguments (a
    plain dict: it travels to the workers)."""
    keys = ("protocol", "k", "seed", "m", "nugget", "monitor_points", "kernel", "batch_size", "convergence")
    keys += ("eval_every", "seconds", "iterations")
    settings = {**{key: getattr(args, key) for key in keys}, "options": P.parse_options(args.option)}
    return [
        grid.Task(
            (name, f"fold {fold + 1}/{args.folds}", method),
            fit,
            (name, fold, method, settings),
            args.seconds,
            (P.file_version(name, args.protocol),),
        )
        for name in args.datasets
        for fold in range(args.folds)
        for method in args.methods
    ]


def run(args) -> list[dict]:
    """All fits of the grid (`grid.run`: here, or on the cluster args names); one record per (data set, fold,
    method)."""
    return grid.run(tasks(args), args)


def summarise(records: list[dict], args) -> list[dict]:
    """One row per (dataset, method): mean ± sd over folds, the paper's numbers beside them."""
    rows = []
    for name in args.datasets:
        for method in args.methods:
            fits = [r for r in records if r["dataset"] == name and r["method"] == method]
            if not fits:
                continue
            row = {
                "dataset": name,
                "n": fits[0]["n"],
                "d": fits[0]["d"],
                "method": method,
                "folds": len(fits),
                "converged": sum(r["converged"] for r in fits),
            }
            for key in ("error", "nll", "seconds", "iterations"):
                row[key] = P.mean_sd([r[key] for r in fits])
            paper = P.PAPER_TABLE1.get(name, {}).get(P.PAPER_COLUMN.get(method, ""))
            row["paper"] = None if paper is None else {"error": paper[0], "nll": paper[1], "seconds": paper[2]}
            if paper is not None:
                row["within_paper_sd"] = {
                    key: bool(row[key][0] <= paper[i][0] + paper[i][1]) for i, key in enumerate(("error", "nll"))
                }
            rows.append(row)
    return rows


def markdown(rows: list[dict], args) -> str:
    header = (
        "| data set (n, d) | method | error | paper | NLL | paper | time s | paper | iterations | stopped by rule |"
        "\n|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [header]
    for row in rows:
        paper = row["paper"] or {}
        check = ""
        if "within_paper_sd" in row:  # ours against the paper's column for the same system
            check = " " + "/".join(("✓" if row["within_paper_sd"][k] else "✗") for k in ("error", "nll"))
        lines.append(
            f"| {row['dataset']} ({row['n']:,}, {row['d']}) | {row['method']}{check} | {P.fmt_mean_sd(row['error'])} | "
            f"{P.fmt_mean_sd(paper['error']) if paper else '—'} | {P.fmt_mean_sd(row['nll'])} | "
            f"{P.fmt_mean_sd(paper['nll']) if paper else '—'} | {P.fmt_mean_sd(row['seconds'])} | "
            f"{P.fmt_mean_sd(paper['seconds']) if paper else '—'} | {row['iterations'][0]:.0f} | "
            f"{row['converged']}/{row['folds']} |"
        )
    notes = (
        f"\nProtocol **{args.protocol}** (see `explorer/bench/protocol.py`): first {args.folds} of {args.k} folds, "
        f"kernel {args.kernel}, m = {args.m}, minibatch {args.batch_size}, stopping rule `{args.convergence}` "
        f"(hold-out NLL watched every {args.eval_every} iterations on ≤ {args.monitor_points} points) or "
        f"{args.seconds:g} s of training{f' or {args.iterations} iterations' if args.iterations else ''}"
        f"{'; options: ' + ', '.join(args.option) if args.option else ''}. "
        "Times are training time only (evaluation excluded), on this machine, BLAS pinned; the paper's were on its "
        "machine and its implementations (Julia X-GPC, GPflow SVGPC, the authors' EPGPC code). The paper's SVGPC "
        "column stands beside svgp-adam, its EPGPC column beside epgpc; it did not run natural-gradient SVGP. ✓/✗ "
        "after a method: our mean error / NLL within one paper-sd of the paper's value for that system or better. "
        "Banana is not in the paper's Table 1."
    )
    return "\n".join(lines) + "\n" + notes


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    records = run(args)
    rows = summarise(records, args)
    section = (
        f"table1 ({args.protocol}{', quick' if args.quick else ''}{P.kernel_label(args.kernel)}"
        f"{''.join(', ' + o for o in args.option)})"
    )
    finish(args, section, markdown(rows, args), {"summary": rows, "fits": records})
    return 0
