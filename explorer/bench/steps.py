"""`python -m explorer bench steps`: which step-size rule should X-GPC use? Each rule races on the same split of
each data set (same Z, initial kernel, minibatch stream and kernel learning), with natural-gradient SVGP beside them
as the reference the issue's targets are measured against, and EPGPC's two rules for its stochastic-EP step ε.

Per data set and rule: final test NLL and error (median of the last five evaluations), the time to get within 1% of
the best final NLL of all entrants ("first" reaches the band, "settled" stays in it to the end; DESIGN §6), and the
kernel the run ended with. This is the evidence behind X-GPC's default rule (`schedules.DEFAULT_STEP_RULES`).
"""

from __future__ import annotations

import argparse

from explorer.bench import grid
from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, finish
from explorer.bench.race import entrants_markdown, race_entrants
from explorer.console import positive_number, whole_number

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
    parser = BenchParser("python -m explorer bench steps", __doc__)
    P.add_datasets_argument(parser, P.OFFLINE_DATASETS)
    parser.add_argument(
        "--entrants", nargs="+", default=list(ENTRANTS), choices=list(ENTRANTS), help="rules to race (default: all)"
    )
    parser.add_argument("--protocol", choices=P.PROTOCOLS, default="clean")
    parser.add_argument("--fold", type=whole_number(1, 10), default=1, help="which of 10 folds to race on (default 1)")
    parser.add_argument("--seconds", type=positive_number, default=30.0, help="training time per entrant (default 30)")
    add_setting_argument(parser, "eval_points", help="test rows evaluated along the way")
    P.add_kernel_argument(parser)
    add_setting_argument(parser, "seed")
    grid.add_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    races = race_entrants(args, ENTRANTS)
    section = f"steps: X-GPC step-size rules{P.kernel_label(args.kernel)}"
    columns = {"final ℓ": lambda r, _: f"{r['lengthscale']:.3g}", "final σ²": lambda r, _: f"{r['variance']:.3g}"}
    markdown = entrants_markdown(races, args, columns, "ℓ is the geometric mean lengthscale.")
    finish(args, section, markdown, {"races": races})
    return 0
