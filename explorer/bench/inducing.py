"""`python -m explorer bench inducing`: the paper's Fig. 3 study — test error against training time for each method
with m ∈ {16, 32, 64, 128} inducing points (k-means++, fixed), averaged over folds.

The paper used Shuttle, which is not among the offline sets; the default here is ijcnn1 (n = 141,691, d = 22, also
strongly non-linear and imbalanced). Each fit runs the whole budget, evaluated on a fixed subset of the test fold
about 40 times per decade of iterations; the table reads each trace at fixed training times.
"""

from __future__ import annotations

import argparse
import shlex

import numpy as np

from explorer.bench import protocol as P
from explorer.bench.common import (
    add_common_arguments,
    add_setting_argument,
    finish,
    markdown_table,
    pinned_blas,
    run_config,
)
from explorer.studies.inducing import checkpoints, value_at

DESCRIPTION = "Fig. 3: test error against training time for m = 16, 32, 64, 128 inducing points"


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m explorer bench inducing",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--dataset", default="ijcnn1")
    parser.add_argument("--m", type=int, nargs="+", default=[16, 32, 64, 128])
    parser.add_argument("--methods", nargs="+", default=list(P.METHOD_NAMES), choices=P.METHOD_NAMES)
    parser.add_argument("--protocol", choices=P.PROTOCOLS, default="paper")
    parser.add_argument("--folds", type=int, default=2, help="average over the first FOLDS of 10 folds (default 2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="training time per fit (default 30)")
    add_setting_argument(parser, "eval_points")
    add_setting_argument(parser, "batch_size")
    P.add_kernel_argument(parser)
    add_setting_argument(parser, "seed")
    add_common_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    X, y = P.load_dataset(args.dataset, args.protocol)
    fold_list = P.folds(args.dataset, y, 10, args.protocol, args.seed)[: args.folds]
    progress = P.Progress(len(args.m) * len(args.methods) * args.folds * args.seconds)
    times = checkpoints(args.seconds)
    results = []
    with pinned_blas(args.threads):
        for m in args.m:
            for fold, (train, test) in enumerate(fold_list):
                split = P.prepare_split(
                    args.dataset,
                    X,
                    y,
                    train,
                    test,
                    args.protocol,
                    m=m,
                    seed=args.seed + fold,
                    monitor_points=args.eval_points,
                    kernel=args.kernel,
                )
                for method in args.methods:
                    note = f"m = {m} fold {fold + 1}/{args.folds} {method}"
                    trainer = P.make_trainer(
                        method, split, seed=args.seed + fold, batch_size=args.batch_size, convergence="none"
                    )

                    def hook(t, note=note):
                        P.log_spaced_evaluation(t)
                        progress.show(min(t.seconds, args.seconds), note)

                    trainer.run(seconds=args.seconds, progress=hook, stop_at_convergence=False)
                    progress.advance(args.seconds, note)
                    h = trainer.history
                    s, err = h.column("seconds"), h.column("test_error")
                    results.append(
                        {
                            "m": m,
                            "fold": fold,
                            "method": method,
                            "ms_per_iteration": 1e3 * trainer.seconds / max(trainer.engine.iteration, 1),
                            "error_at": [value_at(s, err, t) for t in times],
                            "final": {"error": P.final_value(err), "nll": P.final_value(h.column("test_nll"))},
                            "trace": {"seconds": s, "test_error": err, "test_nll": h.column("test_nll")},
                        }
                    )
    progress.close()
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
    command = "python -m explorer bench inducing " + shlex.join(list(argv or []))
    finish(
        args,
        f"inducing ({args.dataset}{P.kernel_label(args.kernel)})",
        command.strip(),
        text,
        {"config": run_config(args), "checkpoints": times, "rows": rows, "fits": results},
    )
    return 0
