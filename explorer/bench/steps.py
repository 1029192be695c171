"""`python -m explorer bench steps`: which step-size rule should X-GPC use? Each rule races on the same split of
each data set (same Z, initial kernel, minibatch stream and kernel learning), with natural-gradient SVGP beside them
as the reference the issue's targets are measured against, and EPGPC's two rules for its stochastic-EP step ε.

Per data set and rule: final test NLL and error (median of the last five evaluations), the time to get within 1% of
the best final NLL of all entrants ("first" reaches the band, "settled" stays in it to the end; DESIGN §6), and the
kernel the run ended with. This is the evidence behind X-GPC's default rule (`schedules.default_xgpc_schedule`).
"""

from __future__ import annotations

import argparse
import shlex

from explorer.bench import grid
from explorer.bench import protocol as P
from explorer.bench.common import add_common_arguments, finish, run_config
from explorer.bench.race import race_entrants
from explorer.console import Parser

DESCRIPTION = "Step-size rules for X-GPC (and EPGPC's ε) raced on each data set, natural-gradient SVGP as the reference"
ENTRANTS = {  # short name (for --entrants) → (label, method, builder options)
    "rm-10-0.6": ("xgpc robbins-monro τ=10 κ=0.6", "xgpc", {"step_size": "robbins-monro", "tau": 10, "kappa": 0.6}),
    "rm-1-0.51": ("xgpc robbins-monro τ=1 κ=0.51", "xgpc", {"step_size": "robbins-monro", "tau": 1, "kappa": 0.51}),
    "adaptive": ("xgpc adaptive (warm start on λ̂ − η)", "xgpc", {"step_size": "adaptive", "warm_start_on": "gradient"}),
    "adaptive-target": (
        "xgpc adaptive (warm start on λ̂)",
        "xgpc",
        {"step_size": "adaptive", "warm_start_on": "target"},
    ),
    "constant-0.02": ("xgpc constant ρ=0.02", "xgpc", {"step_size": "constant", "rho": 0.02}),
    "svgp-natgrad": ("svgp-natgrad (adaptive)", "svgp-natgrad", {}),
    # EPGPC's step ε on its tied site: its default rule, and a constant ε = 0.003 ≈ s/n on a9a (the SEP rule)
    "epgpc-rm-10-0.6": ("epgpc robbins-monro ε τ=10 κ=0.6", "epgpc", {}),
    "epgpc-constant-0.003": ("epgpc constant ε=0.003", "epgpc", {"step_size": "constant", "rho": 0.003}),
}


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = Parser(
        prog="python -m explorer bench steps", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    P.add_entrant_arguments(parser, ENTRANTS, P.OFFLINE_DATASETS, "rules to race (default: all)")
    add_common_arguments(parser)
    grid.add_arguments(parser)
    args = parser.parse_args(argv)
    return args


def markdown(races: dict[str, dict], args) -> str:
    lines = [
        "| data set (n) | entrant | final NLL | final error | first 1% s | settled 1% s | iterations | final ℓ | "
        "final σ² |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, race in races.items():
        for label, r in race["entrants"].items():
            best = " **best**" if r["final_nll"] == race["best_nll"] else ""
            lines.append(
                f"| {name} ({race['n']:,}) | {label} | {r['final_nll']:.4f}{best} | {r['final_error']:.4f} | "
                f"{P.fmt_seconds(r['first_0.01'])} | {P.fmt_seconds(r['settled_0.01'])} | "
                f"{r['iterations']} | {r['lengthscale']:.3g} | {r['variance']:.3g} |"
            )
    return "\n".join(lines) + (
        f"\n\nProtocol {args.protocol}, fold {args.fold} of 10, {args.seconds:g} s of training per entrant, m = 100, "
        f"minibatch 100, kernel {args.kernel} learned by Adam (0.01), evaluated on ≤ {args.eval_points} test rows; "
        "'first'/'settled' against the best final NLL of all entrants on that data set (1% band; 'never': not "
        "within it at the end). "
        "ℓ is the geometric mean lengthscale."
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    races = race_entrants(args, ENTRANTS)
    command = ("python -m explorer bench steps " + shlex.join(list(argv or []))).strip()
    finish(
        args,
        f"steps: X-GPC step-size rules{P.kernel_label(args.kernel)}",
        command,
        markdown(races, args),
        {"config": run_config(args), "races": races},
    )
    return 0
