"""`python -m explorer bench bound`: when X-GPC ends a race behind natural-gradient SVGP, is it the augmented bound
or the optimiser? At one fixed kernel, compare the optimum q(u) of each bound.

Per data set (one split): natural-gradient SVGP learns a kernel for `--seconds`; at that kernel, held fixed,
  X-GPC's optimum of the augmented bound by full-batch coordinate ascent (ρ = 1: each step sets q(u) to its optimum
  given the Pólya-Gamma factors, then those given q(u)), and
  SVGP's optimum of the exact (non-augmented) bound by full-batch natural-gradient steps (ρ = 0.5, or 0.1, 0.02
  when a larger step does not converge),
each run by `training.fit_to_optimum` until a sweep moves the posterior mean by max|Δμ| ≤ 1e-6(1 + max|μ|) (or the
sweep limit). Reported: held-out
NLL and error of each optimum, the exact bound L_orig per training point at each optimum (X-GPC's q is not the
maximiser of L_orig, so its value can only be lower), and the sweeps taken.

With `--kernels-from race-*.json` the kernels are instead the final kernels of every entrant of those `bench race`
runs (their first fold: the same split, Z and nugget), each held fixed in turn: does the bound that X-GPC and both
SVGPs maximise over the kernel (max over q of L_orig, "the ELBO") rank the kernels as their held-out NLL does? When
it prefers a kernel that predicts worse, no optimiser of that bound can close the gap.
"""

from __future__ import annotations

import argparse
import json
import math

from explorer.bench import protocol as P
from explorer.bench.common import BenchParser, add_setting_argument, finish, pinned_blas
from explorer.compare import nonaugmented_elbo
from explorer.console import positive_number, whole_number
from explorer.kernels import make_kernel
from explorer.metrics import error_rate, negative_log_likelihood
from explorer.run import full_batch_engine
from explorer.studies.race import log_spaced_evaluation
from explorer.training import fit_to_optimum

DESCRIPTION = "Augmented vs exact bound at one fixed kernel: held-out NLL of each bound's optimum q(u)"
LARGE_DATASETS = ("a9a", "w8a", "ijcnn1", "bank_marketing")
SVGP_STEPS = (0.5, 0.1, 0.02)  # tried in turn until the full-batch natural-gradient run converges
TOLERANCE = 1e-6  # fit_to_optimum's stopping rule: max|Δμ| ≤ TOLERANCE·(1 + max|μ|)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench bound", __doc__)
    P.add_datasets_argument(parser, LARGE_DATASETS, ", the offline sets above 10,000 rows")
    parser.add_argument("--protocol", choices=P.PROTOCOLS, default="clean")
    parser.add_argument(
        "--seconds",
        type=positive_number,
        default=30.0,
        help="training time of natural-gradient SVGP that picks the kernel (default 30)",
    )
    parser.add_argument("--max-sweeps", type=whole_number(1), default=300, help="most full-batch steps per optimum")
    P.add_kernel_argument(parser)
    add_setting_argument(parser, "seed")
    parser.add_argument(
        "--kernels-from",
        nargs="+",
        default=[],
        metavar="RACE_JSON",
        help="hold fixed, in turn, the final kernel of every entrant of these `bench race --json` "
        "files (fold 1; their data set, protocol, m and seed) instead of a kernel picked by "
        "natural-gradient SVGP; --datasets, --protocol, --seconds, --kernel and --seed are then "
        "taken from the files",
    )
    args = parser.parse_args(argv)
    for path in args.kernels_from:
        try:
            with open(path, encoding="utf-8") as file:
                race = json.load(file)
            race["config"]["dataset"], race["folds"][0]["methods"]
        except (OSError, ValueError, KeyError, IndexError, TypeError) as err:
            parser.error(f"--kernels-from {path}: not a readable `bench race --json` file ({err!r})")
    return args


def held_out(engine, split: P.Split) -> dict:
    p = engine.predict_proba(split.X_monitor)
    return {"nll": negative_log_likelihood(p, split.y_monitor), "error": error_rate(p, split.y_monitor)}


def compare_at_kernel(split: P.Split, kernel, max_sweeps: int) -> dict:
    """X-GPC's and SVGP's full-batch optima at `kernel`: held-out metrics, L_orig per point, sweeps, seconds."""
    n = len(split.y_train)

    def optimum(engine, fit, **bounds) -> dict:  # held-out metrics, bounds per point, the fit's own record
        run = {"sweeps": fit.sweeps, "seconds": fit.seconds, "converged": fit.converged}
        return {**held_out(engine, split), **bounds, **run}

    xgpc = full_batch_engine("xgpc", split.X_train, split.y_train, split.Z, kernel)
    fit = fit_to_optimum(xgpc, tolerance=TOLERANCE, max_sweeps=max_sweeps)
    bounds = {"exact_bound_per_point": nonaugmented_elbo(xgpc) / n, "augmented_bound_per_point": xgpc.elbo() / n}
    out = {"xgpc": optimum(xgpc, fit, **bounds)}
    for rho in SVGP_STEPS:  # natural-gradient steps are not coordinate ascent: a large ρ can diverge
        svgp = full_batch_engine("svgp-natgrad", split.X_train, split.y_train, split.Z, kernel, rho=rho)
        fit = fit_to_optimum(svgp, tolerance=TOLERANCE, max_sweeps=max_sweeps)
        if fit.converged:
            break
    out["svgp"] = {**optimum(svgp, fit, exact_bound_per_point=svgp.elbo() / n), "rho": rho}
    return out


def markdown(results: dict[str, dict], args) -> str:
    lines = [
        "| data set (n train) | kernel ℓ, σ² | optimum of | held-out NLL | held-out error | L_orig / n | "
        "L_aug / n | sweeps (converged) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        kernel = f"{r['lengthscale']:.3g}, {r['variance']:.3g}"
        for label, key in (
            ("X-GPC (augmented bound), ρ = 1", "xgpc"),
            (f"SVGP (exact bound), ρ = {r['svgp']['rho']:g}", "svgp"),
        ):
            o = r[key]
            augmented = f"{o['augmented_bound_per_point']:.5f}" if "augmented_bound_per_point" in o else "—"
            lines.append(
                f"| {name} ({r['n_train']:,}) | {kernel} | {label} | {o['nll']:.4f} | {o['error']:.4f} | "
                f"{o['exact_bound_per_point']:.5f} | {augmented} | {o['sweeps']} "
                f"({'yes' if o['converged'] else 'no'}) |"
            )
        lines.append(
            f"| {name} | | SVI race, natural-gradient SVGP after {args.seconds:g} s | "
            f"{r['race_nll']:.4f} | {r['race_error']:.4f} | | | |"
        )
    return "\n".join(lines) + (
        f"\n\nProtocol {args.protocol}, fold 1 of 10, m = 100 (k-means++), kernel {args.kernel} learned by "
        f"natural-gradient SVGP in {args.seconds:g} s (minibatch 100, Adam 0.01) and then held fixed; held-out rows = "
        "the split's monitored validation rows. Optima by full-batch steps until one sweep moves the posterior mean by "
        f"max|Δμ| ≤ {TOLERANCE:g}·(1 + max|μ|) (at most {args.max_sweeps} sweeps). L_orig = Σ E_q[log σ(y f)] − KL, the exact bound both methods' q can be scored on."
    )


def race_kernels(path: str, max_sweeps: int) -> dict:
    """Every entrant's final kernel of the race file `path` (fold 1), held fixed: both full-batch optima at each."""
    with open(path, encoding="utf-8") as file:
        race = json.load(file)
    config = race["config"]
    split = P.task_split(config["dataset"], 0, config | {"k": 10})  # the race's fold 1: same split, Z and nugget
    rows = {}
    for method, entry in race["folds"][0]["methods"].items():
        kernel = make_kernel(config["kernel"], entry["lengthscale"], entry["variance"], split.kernel.nugget)
        rows[method] = {
            "lengthscale": kernel.mean_lengthscale,
            "variance": float(kernel.variance),
            "race_test_nll": entry["final_nll"],
            **compare_at_kernel(split, kernel, max_sweeps),
        }
    return {"dataset": config["dataset"], "race": path, "n_train": len(split.y_train), "kernels": rows}


def markdown_race_kernels(results: list[dict], args) -> str:
    lines = [
        "| data set (n train) | kernel of (race test NLL) | ℓ, σ² | max_q L_orig / n (SVGP optimum) | held-out NLL "
        "there | L_orig / n at X-GPC's optimum | held-out NLL there | ELBO rank | NLL rank |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def rank(rows: dict, key: str, sign: float) -> dict:  # by the better of both optima (SVGP's if it converged)
        best = {
            k: min(sign * o["xgpc"][key], sign * o["svgp"][key] if o["svgp"]["converged"] else math.inf)
            for k, o in rows.items()
        }
        return {k: i + 1 for i, k in enumerate(sorted(rows, key=best.get))}

    for r in results:
        rows = r["kernels"]
        bound_rank, nll_rank = rank(rows, "exact_bound_per_point", -1), rank(rows, "nll", 1)
        for method, o in rows.items():
            svgp = o["svgp"]
            exact = f"— (ρ = {svgp['rho']:g} did not converge) | —"
            if svgp["converged"]:
                exact = f"{svgp['exact_bound_per_point']:.5f} | {svgp['nll']:.4f}"
            xgpc = o["xgpc"]
            unconverged = "" if xgpc["converged"] else f" (not converged in {xgpc['sweeps']} sweeps)"
            lines.append(
                f"| {r['dataset']} ({r['n_train']:,}) | {method} ({o['race_test_nll']:.4f}) | "
                f"{o['lengthscale']:.3g}, {o['variance']:.3g} | {exact} | "
                f"{xgpc['exact_bound_per_point']:.5f}{unconverged} | {xgpc['nll']:.4f} | {bound_rank[method]} | "
                f"{nll_rank[method]} |"
            )
    return "\n".join(lines) + (
        "\n\nEach race's first fold (same split, k-means++ Z and nugget as the race); at every entrant's final kernel, "
        "held fixed, the full-batch optimum of the exact bound (natural-gradient SVGP, ρ = 0.5, 0.1 or 0.02) and of "
        "X-GPC's augmented bound (coordinate ascent, ρ = 1), until one sweep moves the posterior mean by "
        f"max|Δμ| ≤ {TOLERANCE:g}·(1 + max|μ|) (at most {args.max_sweeps} sweeps). L_orig = Σ E_q[log σ(y f)] − KL "
        "per training point: its maximum over q is the objective X-GPC and both SVGPs ascend in the kernel; EPGPC's "
        "kernel is scored on it too. Held-out NLL on the split's monitored validation rows. ELBO rank: 1 = the kernel "
        "the bound prefers (best of the two optima); NLL rank: 1 = the kernel that predicts best."
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    if args.kernels_from:
        with pinned_blas(args.threads):
            results = [race_kernels(path, args.max_sweeps) for path in args.kernels_from]
        names = ", ".join(r["dataset"] for r in results)
        section = f"bound: the bound at each race entrant's final kernel ({names})"
        finish(args, section, markdown_race_kernels(results, args), {"results": results})
        return 0
    progress = P.Progress(len(args.datasets) * args.seconds)
    results = {}
    with pinned_blas(args.threads):
        for name in args.datasets:
            fold = {"protocol": args.protocol, "k": 10, "seed": args.seed, "m": 100, "kernel": args.kernel}
            split = P.task_split(name, 0, fold)
            trainer = P.make_trainer("svgp-natgrad", split, 0, {"seed": args.seed})
            trainer.run(
                seconds=args.seconds,
                stop_at_convergence=False,
                progress=lambda t, note=f"{name}: natural-gradient SVGP picks the kernel": (
                    log_spaced_evaluation(t),
                    progress.show(min(t.seconds, args.seconds), note),
                ),
            )
            kernel = trainer.engine.kernel
            race = held_out(trainer.engine, split)
            progress.show(args.seconds, f"{name}: full-batch optima at that kernel", force=True)
            results[name] = {
                "n_train": len(split.y_train),
                "kernel": kernel.name,
                "lengthscale": kernel.mean_lengthscale,
                "variance": float(kernel.variance),
                "race_nll": race["nll"],
                "race_error": race["error"],
                **compare_at_kernel(split, kernel, args.max_sweeps),
            }
            progress.advance(args.seconds, name)
    progress.close()
    section = f"bound: augmented vs exact bound at one kernel{P.kernel_label(args.kernel)}"
    finish(args, section, markdown(results, args), {"results": results})
    return 0
