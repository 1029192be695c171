"""`python -m explorer bench inducing`: the paper's Fig. 3 study — test error against training time for each method
with m ∈ {16, 32, 64, 128} inducing points (k-means++, fixed), averaged over folds.

The paper used Shuttle, which is not among the offline sets; the default here is ijcnn1 (n = 141,691, d = 22, also
strongly non-linear and imbalanced). Each fit runs the whole budget, evaluated on a fixed subset of the test fold
about 40 times per decade of iterations; the table reads each trace at fixed training times.
"""

from __future__ import annotations

import argparse

import numpy as np

from explorer.bench import grid
from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, finish, markdown_table
from explorer.console import whole_number
from explorer.studies.inducing import checkpoints, value_at
from explorer.studies.race import final_value, log_spaced_evaluation

DESCRIPTION = "Fig. 3: test error against training time for m = 16, 32, 64, 128 inducing points"


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench inducing", __doc__)
    parser.add_argument("--dataset", default="ijcnn1", help="data set: a registered name or a file (default ijcnn1)")
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m", nargs="+", default=[16, 32, 64, 128])
    parser.add_argument("--methods", nargs="+", default=list(P.METHOD_NAMES), choices=P.METHOD_NAMES)
    parser.add_argument("--protocol", choices=P.PROTOCOLS, default="paper")
    parser.add_argument(
        "--folds", type=whole_number(1, 10), default=2, help="average over the first FOLDS of 10 folds (default 2)"
    )
    P.add_budget_arguments(parser, 30.0, "training time per fit")
    add_setting_argument(parser, "eval_points")
    add_setting_argument(parser, "batch_size")
    P.add_kernel_argument(parser)
    add_setting_argument(parser, "seed")
    grid.add_arguments(parser)
    return parser.parse_args(argv)


def fit(name: str, m: int, fold: int, method: str, settings: dict) -> dict:
    """One fit of the grid: `method` with m inducing points on fold `fold` (0-based) of 10 of data set `name` (a
    registered name or a file) for `settings["seconds"]` of training (or `settings["iterations"]`), evaluated on a
    log-spaced schedule; its error at the checkpoints, final values and trace."""
    split = P.task_split(name, fold, settings, m=m, monitor_points=settings["eval_points"])
    trainer = P.make_trainer(method, split, fold, settings)
    budget = dict(seconds=settings["seconds"], max_iter=settings["iterations"])
    trainer.run(**budget, progress=log_spaced_evaluation, stop_at_convergence=False)
    h = trainer.history
    s, err = h.column("seconds"), h.column("test_error")
    return {
        "m": m,
        "fold": fold,
        "method": method,
        "ms_per_iteration": 1e3 * trainer.seconds / max(trainer.engine.iteration, 1),
        "error_at": [value_at(s, err, t) for t in checkpoints(settings["seconds"])],
        "final": {"error": final_value(err), "nll": final_value(h.column("test_nll"))},
        "trace": {"seconds": s, "test_error": err, "test_nll": h.column("test_nll")},
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    keys = ("protocol", "seed", "eval_points", "kernel", "batch_size", "seconds", "iterations")
    settings = {key: getattr(args, key) for key in keys}
    tasks = [
        grid.Task(
            (args.dataset, f"m = {m}", f"fold {fold + 1}/{args.folds}", method),
            fit,
            (args.dataset, m, fold, method, settings),
            args.seconds,
            (P.file_version(args.dataset, args.protocol),),
        )
        for m in args.m
        for fold in range(args.folds)
        for method in args.methods
    ]
    results = grid.run(tasks, args)
    times = checkpoints(args.seconds)
    rows = []
    for m in args.m:
        for method in args.methods:
            runs = [r for r in results if r["m"] == m and r["method"] == method]
            row = {"m": m, "method": method, "ms/iteration": float(np.median([r["ms_per_iteration"] for r in runs]))}
            for k, t in enumerate(times):
                row[f"error @ {t:g} s"] = float(np.mean([r["error_at"][k] for r in runs]))
            row[f"error @ {args.seconds:g} s"] = float(np.mean([r["final"]["error"] for r in runs]))
            row[f"NLL @ {args.seconds:g} s"] = float(np.mean([r["final"]["nll"] for r in runs]))
            rows.append(row)
    text = markdown_table(rows) + (
        f"\n\n{args.dataset} (the paper used Shuttle, not available offline), protocol {args.protocol}, kernel "
        f"{args.kernel}, mean over the first {args.folds} of 10 folds; errors read from each trace at the given "
        f"training time (evaluation excluded; — = no step finished yet); the last columns are the medians of the "
        "final five evaluations."
    )
    section = f"inducing ({args.dataset}{P.kernel_label(args.kernel)})"
    finish(args, section, text, {"checkpoints": times, "rows": rows, "fits": results})
    return 0
