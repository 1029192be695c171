"""`python -m explorer bench race`: the paper's Fig. 2 race on one data set — test NLL and error against training time
for each registered method (evaluation time excluded), time to get within the 1% and 5% bands of the best final test
NLL of all methods ("first" reaches the band, "settled" stays in it to the end), the verdict in words, and X-GPC's
speed-up over each baseline (the paper claims one to two orders of magnitude over both SVGPC and EPGPC).

The race and its verdict are `explorer.studies.race` (the Race tab runs the same): every method runs the whole budget
on the same split, Z, initial kernel and minibatch stream, evaluated on a fixed subset of the held-out rows. With
several folds the table shows each fold and the medians. The numbers go to JSON (`--json`, default
race-<dataset>.json); `python -m explorer.dashboard.race_report RACE.json RACE.html` draws them.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

import numpy as np

from explorer.bench import grid
from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, finish, markdown_table
from explorer.console import positive_number, whole_number
from explorer.studies.race import BAND, BANDS, Race, final_value, judge

DESCRIPTION = "Race: test NLL/error against training time, time to the 1%/5% bands of the best NLL, X-GPC's speed-ups"
TARGETS = {"svgp-adam": 10.0, "svgp-natgrad": 3.0}  # issue 4: X-GPC settles this many times sooner (none set for EPGPC)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench race", __doc__)
    parser.add_argument("--dataset", default="a9a", help="data set: a registered name or a file (default a9a)")
    parser.add_argument("--methods", nargs="+", default=list(P.METHOD_NAMES), choices=P.METHOD_NAMES)
    parser.add_argument(
        "--protocol",
        choices=P.PROTOCOLS,
        default="clean",
        help="default clean: the paper protocol's contiguous folds can give a test fold another class "
        "mix (w8a's first fold: 28%% positives against 3%% overall)",
    )
    parser.add_argument(
        "--folds", type=whole_number(1, 10), default=1, help="race on the first FOLDS of 10 folds (default 1)"
    )
    parser.add_argument("--seconds", type=positive_number, default=60.0, help="training time per method (default 60)")
    add_setting_argument(parser, "eval_points", help="test rows evaluated along the way")
    P.add_fit_arguments(parser)
    grid.add_arguments(parser)
    return parser.parse_args(argv)


def race_task(name: str, fold: int, entrants: dict[str, tuple[str, dict]], settings: dict) -> dict:
    """One race of a grid: every entrant (label → (method, options)) for `settings["seconds"]` of training on fold
    `fold` (0-based) of 10 of data set `name` (a registered name or a file), all from the same seed, in the fair
    slices of `studies.race.Race`; `settings` the protocol, seed, m, nugget, eval_points, kernel, seconds and
    batch_size. The data set's n and each entrant's traces and final values."""
    split = P.task_split(name, fold, settings, monitor_points=settings["eval_points"])
    trainers = {
        label: partial(P.make_trainer, method, split, fold, settings, options)
        for label, (method, options) in entrants.items()
    }
    race = Race(trainers, settings["seconds"])
    for _ in race.run():
        pass
    results = {}
    for label, trainer in race.trainers.items():
        h = trainer.history
        trace = {name: h.column(name) for name in ("seconds", "iteration", "test_nll", "test_error", "elbo")}
        results[label] = {
            "trace": trace,
            "final_nll": final_value(trace["test_nll"]),
            "final_error": final_value(trace["test_error"]),
            "ms_per_iteration": 1e3 * trainer.seconds / max(trainer.engine.iteration, 1),
            "iterations": trainer.engine.iteration,
            "kernel": trainer.engine.kernel.name,
            "lengthscale": trainer.engine.kernel.mean_lengthscale,
            "median_lengthscale": float(np.median(trainer.engine.kernel.lengthscale)),
            "variance": float(trainer.engine.kernel.variance),
        }
    return {"n": len(P.shared_dataset(name, settings["protocol"])[1]), "entrants": results}


def judged_races(races: list[tuple[str, int, str]], entrants: dict, args, *, m: int, nugget, batch_size: int) -> list:
    """Run `races` (data set, 0-based fold, label of the fold) as one grid (`grid.run`: here or on a cluster, BLAS
    pinned to args.threads), one `race_task` each, given what it needs from the parsed arguments `args` and m, nugget,
    batch_size (a plain dict: it travels to the workers), its cost the entrants' budget, keyed by the data set's file
    version; each race judged (`time_to_quality`): {"n", the verdict's record, "entrants": label → results}."""
    keys = ("protocol", "seed", "eval_points", "kernel", "seconds")
    settings = {**{key: getattr(args, key) for key in keys}, "m": m, "nugget": nugget, "batch_size": batch_size}
    tasks = [
        grid.Task(
            (name, label),
            race_task,
            (name, fold, entrants, settings),
            len(entrants) * settings["seconds"],
            (P.file_version(name, settings["protocol"]),),
        )
        for name, fold, label in races
    ]
    return [
        {"n": race["n"], **time_to_quality(race["entrants"], args.seconds), "entrants": race["entrants"]}
        for race in grid.run(tasks, args)
    ]


def time_to_quality(results: dict[str, dict], budget: float | None = None) -> dict:
    """Judge the race (`studies.race.judge`) at each of `BANDS`: adds the first/settled times per band to every
    entrant's results; returns what the JSON keeps of the verdict at the race's band (`studies.race.BAND`): the
    reference, the band's edge, the words and their caveats."""
    histories = {label: r["trace"] for label, r in results.items()}
    verdicts = {band: judge(histories, band=band, budget=budget) for band in BANDS}
    for band, verdict in verdicts.items():
        for standing in verdict.standings:
            results[standing.entrant].update({f"first_{band:g}": standing.first, f"settled_{band:g}": standing.settled})
    verdict = verdicts[BAND]
    return {
        "best_nll": verdict.best_nll,
        "band_edge": verdict.edge,
        "verdict": verdict.words(),
        "conclusive": verdict.conclusive,
        "solved": verdict.solved,
    }


def race_entrants(args: argparse.Namespace, table: dict[str, tuple[str, str, dict]]) -> dict:
    """Race the entrants of `table` (short name → (label, method, options)) named in args.entrants, args.seconds each,
    on fold args.fold of every data set in args.datasets, one task of the grid per data set (`judged_races`): data
    set → {"n", "best_nll", "entrants": label → results}."""
    entrants = {label: (method, options) for short, (label, method, options) in table.items() if short in args.entrants}
    folds = [(name, args.fold - 1, f"fold {args.fold}") for name in args.datasets]
    return dict(zip(args.datasets, judged_races(folds, entrants, args, m=100, nugget=None, batch_size=100)))


def entrants_markdown(races: dict[str, dict], args, columns: dict, note: str) -> str:
    """The table of `race_entrants`' races, a row per data set and entrant: final NLL (the best marked), its gap to
    the best, final error, the times to the 1% band, iterations, then `columns` (heading → cell(entrant's results,
    race)); below it the race's protocol and `note`."""
    rows = [
        {
            "data set (n)": f"{name} ({race['n']:,})",
            "entrant": label,
            "final NLL": f"{r['final_nll']:.4f}" + (" **best**" if r["final_nll"] == race["best_nll"] else ""),
            "gap to best": f"{r['final_nll'] - race['best_nll']:+.4f}",
            "final error": f"{r['final_error']:.4f}",
            "first 1% s": P.fmt_seconds(r["first_0.01"]),
            "settled 1% s": P.fmt_seconds(r["settled_0.01"]),
            "iterations": str(r["iterations"]),
            **{heading: cell(r, race) for heading, cell in columns.items()},
        }
        for name, race in races.items()
        for label, r in race["entrants"].items()
    ]
    return markdown_table(rows) + (
        f"\n\nProtocol {args.protocol}, fold {args.fold} of 10, {args.seconds:g} s of training per entrant, m = 100, "
        f"minibatch 100, kernel {args.kernel} learned by Adam (0.01), evaluated on ≤ {args.eval_points} test rows; "
        "'first'/'settled' against the best final NLL of all entrants on that data set (1% band; 'never': not "
        f"within it at the end). {note}"
    )


def speedups(results: dict[str, dict], budget: float) -> dict[str, dict]:
    """X-GPC's speed-up over each baseline: ratio of their times (inf/NaN when one never reaches the band; a
    baseline that never settles gives at least budget / X-GPC's time, flagged `lower_bound`)."""
    if "xgpc" not in results:
        return {}
    ours = results["xgpc"]
    out = {}
    for method, r in results.items():
        if method == "xgpc":
            continue
        entry = {"final_nll_gap": ours["final_nll"] - r["final_nll"]}
        for key in [f"{kind}_{band:g}" for band in BANDS for kind in ("first", "settled")]:
            theirs, mine = r[key], ours[key]
            lower = not np.isfinite(theirs) and np.isfinite(mine)
            entry[key] = (budget if lower else theirs) / mine if np.isfinite(mine) and mine > 0 else float("nan")
            entry[f"{key}_lower_bound"] = bool(lower)
        out[method] = entry
    return out


def _ratio(entry: dict, key: str) -> str:
    value = entry[key]
    if not np.isfinite(value):
        return "—"
    return (">" if entry[f"{key}_lower_bound"] else "") + f"{value:.3g}×"


def markdown(folds: list[dict], args) -> str:
    rows = []
    for fold, race in enumerate(folds):
        for method, r in race["methods"].items():
            gain = race["speedups"].get(method)
            target = f" ({TARGETS[method]:g}×)" if method in TARGETS else ""
            rows.append(
                {
                    "fold": fold + 1,
                    "method": method,
                    "final NLL": f"{r['final_nll']:.4f}",
                    "final error": f"{r['final_error']:.4f}",
                    "ms/iteration": f"{r['ms_per_iteration']:.2f}",
                    **{
                        f"{kind} {100 * band:g}% s": P.fmt_seconds(r[f"{kind}_{band:g}"])
                        for band in BANDS
                        for kind in ("first", "settled")
                    },
                    "X-GPC speed-up, settled 1% (target)": f"{_ratio(gain, 'settled_0.01')}{target}" if gain else "",
                    "first 1%": _ratio(gain, "first_0.01") if gain else "",
                    "NLL gap (≤ 0.01)": f"{gain['final_nll_gap']:+.4f}" if gain else "",
                    "σ²": f"{r['variance']:.3g}",
                    "median ℓ": f"{r['median_lengthscale']:.3g}",
                }
            )
    columns = list(rows[0])
    for method in [method for method in args.methods if method != "xgpc"] if len(folds) > 1 else []:
        values = np.array([race["speedups"][method]["settled_0.01"] for race in folds if method in race["speedups"]])
        defined = values[np.isfinite(values)]
        median = f"{np.median(defined):.3g}× ({len(defined)} of {len(values)} folds defined)" if len(defined) else "—"
        rows.append({"fold": "median", "method": method, "X-GPC speed-up, settled 1% (target)": median})
    bands = ", ".join(f"{race['best_nll']:.4f} (1% edge {race['band_edge']:.4f})" for race in folds)
    verdicts = "".join(f"\n\nFold {fold + 1}: {race['verdict']}" for fold, race in enumerate(folds))
    paper = P.PAPER_TABLE1.get(args.dataset)
    paper_line = ""
    if paper is not None:
        paper_line = (
            f"\n\nPaper, Table 1 ({P.PAPER_NAMES[args.dataset]}; time to its stopping rule, its machine and code): X-GPC "
            f"{P.fmt_mean_sd(paper['xgpc'][2])} s, NLL {P.fmt_mean_sd(paper['xgpc'][1])}; "
            + "; ".join(
                f"{column.upper()} {P.fmt_mean_sd(paper[column][2])} s ({paper[column][2][0] / paper['xgpc'][2][0]:.3g}× "
                f"X-GPC's), NLL {P.fmt_mean_sd(paper[column][1])}"
                for column in ("svgpc", "epgpc")
            )
            + "."
        )
    return (
        markdown_table(rows, columns)
        + verdicts
        + paper_line
        + (
            f"\n\n{args.dataset}, protocol {args.protocol}, first {args.folds} of 10 folds, kernel {args.kernel}, "
            f"{args.seconds:g} s of training per method"
            f"{' (options: ' + ', '.join(args.option) + ')' if args.option else ''}, evaluated on "
            f"≤ {args.eval_points} held-out rows. Reference = best final NLL of all methods (per fold: {bands}); a "
            "band b holds NLL ≤ best + b·(log 2 − best), i.e. within b of the best gain over a coin flip "
            "(`explorer.studies.race`); 'first' = first evaluation within the band, 'settled' = stays within it to the end "
            "('never' if the last evaluations are outside). Speed-up = baseline time / X-GPC time; '>' marks a lower "
            "bound (the baseline never settled within the budget). NLL gap = X-GPC final − baseline final. σ², median ℓ: "
            "the kernel each method ended with."
        )
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    options = P.parse_options(args.option)
    entrants = {method: (method, options.get(method)) for method in args.methods}
    races = [(args.dataset, fold, f"fold {fold + 1}/{args.folds}") for fold in range(args.folds)]
    folds = []
    for race in judged_races(races, entrants, args, m=args.m, nugget=args.nugget, batch_size=args.batch_size):
        results = race.pop("entrants")
        folds.append({**race, "methods": results, "speedups": speedups(results, args.seconds)})
    variant = P.kernel_label(args.kernel) + "".join(f", {item}" for item in args.option)
    args.json = args.json or f"race-{Path(args.dataset).stem if P.is_file(args.dataset) else args.dataset}.json"
    finish(args, f"race ({args.dataset}{variant})", markdown(folds, args), {"folds": folds, "bands": list(BANDS)})
    print(f"plot it: python -m explorer.dashboard.race_report {args.json} {Path(args.json).with_suffix('.html')}")
    return 0
