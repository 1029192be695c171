"""`python -m explorer bench gibbs`: the PG Gibbs sweep against its floor, and the paper's Fig. 1 on Diabetes.

1. Seconds per sweep (one chain) at n ∈ {200, 500, 768, 1500} for the precision and whitened forms, as a ratio to
   the floor timed in the same run: n PG(1, ·) draws + one n×n Cholesky + two triangular solves (medians over
   repeats; BLAS pinned). Target: precision form ≤ 1.5× the floor.
2. Fig. 1: Diabetes (768 points, z-scored), fixed kernel (RBF; `--kernel` another family at the same ℓ, σ²),
   80/20 stratified split, full and sparse (m = 100) X-GPC by exact coordinate ascent against 4 Gibbs chains ×
   (100 burn-in + 2,500) sweeps = 10,000 draws.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from scipy.linalg import lapack

from explorer import polyagamma
from explorer.bench import common
from explorer.bench.common import BenchParser, add_setting_argument, finish, markdown_table, pinned_blas
from explorer.console import whole_number
from explorer.data import datasets
from explorer.gibbs import GibbsSampler, seconds_per_sweep_estimate
from explorer.kernels import Kernel, make_kernel
from explorer.studies.comparison import run_comparison, text_progress

DESCRIPTION = "PG Gibbs sampler: seconds per sweep vs the Cholesky+solves+PG floor; Fig. 1 MCMC vs X-GPC on Diabetes"

FIG1_PARAMETERS = {"lengthscale": 5.35, "variance": 6.93, "nugget": 1e-6}
"""ELBO-optimal (ℓ, σ²) of a sparse X-GPC with the RBF kernel (m = 100, Adam on the analytic gradient) on all 768
z-scored points, and the nugget."""


def figure1_kernel(family: str = "rbf") -> Kernel:
    """Fig. 1's fixed kernel: the family `family` (a key of `kernels.KERNELS`) at `FIG1_PARAMETERS`."""
    return make_kernel(family, **FIG1_PARAMETERS)


def synthetic_problem(n: int, rng: np.random.Generator, family: str = "rbf") -> tuple[np.ndarray, np.ndarray, Kernel]:
    """n points in 8-D (Diabetes' dimension), labels from a noisy linear rule; kernel `family`, ℓ = √8, σ² = 1."""
    X = rng.standard_normal((n, 8))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y, make_kernel(family, np.sqrt(8.0), 1.0, 1e-6)


def floor_parts(sampler: GibbsSampler) -> dict[str, Callable[[], object]]:
    """The floor's parts at the sampler's state, as raw LAPACK calls: n PG draws; one Cholesky (dpotrf) of
    P = K⁻¹ + Ω, timed as copy-into-a-reused-buffer + dpotrf ("copy and cholesky") minus the copy alone (warm
    caches, as in a sweep); two triangular solves (dtrtrs)."""
    rng = np.random.default_rng(1)
    f = sampler.f[0]
    P = np.asfortranarray(sampler.K_inv + np.diag(polyagamma.sample(f, rng)))
    work = np.empty_like(P, order="F")
    R = lapack.dpotrf(P, lower=1, clean=0)[0]
    b = rng.standard_normal(len(f))

    def copy_and_factor():
        np.copyto(work, P)
        lapack.dpotrf(work, lower=1, overwrite_a=1, clean=0)

    return {
        "copy and cholesky": copy_and_factor,
        "copy": lambda: np.copyto(work, P),
        "solves": lambda: lapack.dtrtrs(R, lapack.dtrtrs(R, b, lower=1)[0], lower=1, trans=1),
        "pg": lambda: polyagamma.sample(f, rng),
    }


def sweep_rows(sizes: list[int], repeats: int, family: str = "rbf") -> list[dict]:
    """Per n: each repeat times the precision sweep, the whitened sweep and the floor's parts in turn
    (`common.interleaved_times`: a burst of load from other processes hits all of them); medians over repeats,
    ratios are medians of per-repeat ratios."""
    rows = []
    for n in sizes:
        X, y, kernel = synthetic_problem(n, np.random.default_rng(n), family)
        number = max(2, int(0.2 / max(seconds_per_sweep_estimate(n, repeats=1), 1e-5)))  # ≈ 0.2 s per timing
        samplers = {
            form: GibbsSampler(
                X, y, kernel, rng=np.random.default_rng(0), n_chains=1, burn_in=0, n_samples=100_000, form=form
            )
            for form in ("precision", "whitened")
        }
        for sampler in samplers.values():
            sampler.step(2)  # warm-up, and away from the overdispersed start
        sweeps = {"precision": number, "whitened": max(2, number // 3)}
        blocks = {form: (partial(sampler.step, sweeps[form]), sweeps[form]) for form, sampler in samplers.items()}
        for part, fn in floor_parts(samplers["precision"]).items():
            blocks[part] = (lambda fn=fn: [fn() for _ in range(number)], number)
        times = common.interleaved_times(blocks, repeats)
        times["cholesky"] = times.pop("copy and cholesky") - times.pop("copy")
        floor = ("cholesky", "solves", "pg")
        times["floor"] = np.sum([times[part] for part in floor], axis=0)
        row: dict = {
            "n": n,
            "precision ms": 1e3 * np.median(times["precision"]),
            "whitened ms": 1e3 * np.median(times["whitened"]),
            "floor ms": 1e3 * np.median(times["floor"]),
            "precision / floor": common.median_ratio(times, "precision", "floor"),
            "whitened / floor": common.median_ratio(times, "whitened", "floor"),
        }
        row.update({f"floor {part} ms": 1e3 * np.median(times[part]) for part in floor})
        rows.append(row)
        print(
            f"n = {n}: precision {row['precision ms']:.2f} ms, whitened {row['whitened ms']:.2f} ms, floor "
            f"{row['floor ms']:.2f} ms",
            file=sys.stderr,
        )
    return rows


def figure1(kernel: Kernel, seed: int, **study) -> dict:
    """Fig. 1 on Diabetes (z-scored, stratified 80/20 split from `seed`): `run_comparison` at the fixed `kernel` with
    `study`'s n_samples, burn_in, n_chains and n_inducing, every draw kept; the run and its estimated and wall time."""
    X, y = datasets.load("diabetes")
    X = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)
    n_train = len(y) - int(round(0.2 * (y > 0).sum())) - int(round(0.2 * (y == 0).sum()))
    estimate = seconds_per_sweep_estimate(n_train) * study["n_chains"] * (study["burn_in"] + study["n_samples"])
    print(f"Fig. 1: about {estimate:.0f} s of sampling expected", file=sys.stderr)
    start = time.perf_counter()
    kept = dict(max_stored_draws=study["n_samples"], progress=text_progress())  # every draw kept
    run = run_comparison(X, y.astype(float), kernel, test_fraction=0.2, seed=seed, **kept, **study)
    return {"run": run, "estimated_seconds": estimate, "wall_seconds": time.perf_counter() - start}


_FIG1_ROWS = [  # (summary key, label, format)
    ("mean/correlation", "corr(mean)", ".5f"),
    ("mean/max_abs_diff", "max abs Δ mean", ".4f"),
    ("mean/mean_abs_diff", "mean abs Δ mean", ".4f"),
    ("mean/mcmc_se_max", "max MC std. error of MCMC mean", ".4f"),
    ("variance/correlation", "corr(var)", ".5f"),
    ("variance/max_abs_diff", "max abs Δ var", ".4f"),
    ("p(y=1)/correlation", "corr(p)", ".5f"),
    ("p(y=1)/max_abs_diff", "max abs Δ p", ".4f"),
    ("p(y=1)/mean_abs_diff", "mean abs Δ p", ".4f"),
    ("mean_kl", "mean KL(N_vi ‖ N_mcmc)", ".4f"),
    ("nll_vi", "test NLL (VI)", ".4f"),
    ("nll_mcmc", "test NLL (MCMC)", ".4f"),
    ("error_vi", "test error (VI)", ".4f"),
    ("error_mcmc", "test error (MCMC)", ".4f"),
    ("elbo_augmented", "augmented ELBO", ".2f"),
    ("elbo_nonaugmented", "non-augmented ELBO, same q(u)", ".2f"),
    ("augmentation_gap", "Σ E_q KL(q(ω) ‖ p(ω ∣ f, y))", ".3f"),
]


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser("python -m explorer bench gibbs", DESCRIPTION)
    parser.add_argument(
        "--sizes", type=whole_number(2), nargs="+", default=[200, 500, 768, 1500], help="rows n of the sweep timings"
    )
    parser.add_argument("--repeats", type=whole_number(1), default=7)
    parser.add_argument("--samples", type=whole_number(1), default=2500, help="Fig. 1 draws per chain after burn-in")
    parser.add_argument("--burn-in", type=whole_number(0), default=100)
    parser.add_argument("--chains", type=whole_number(1), default=4)
    add_setting_argument(
        parser, "n_inducing", help="m of the sparse X-GPC in Fig. 1", aliases=("--inducing",), dest="inducing"
    )
    add_setting_argument(parser, "seed")
    add_setting_argument(parser, "kernel", help="kernel family of the sweeps and Fig. 1 (Fig. 1 keeps the RBF's ℓ, σ²)")
    parser.add_argument("--skip-fig1", action="store_true")
    args = parser.parse_args(argv)

    with pinned_blas(args.threads):
        rows = sweep_rows(args.sizes, args.repeats, args.kernel)
        kernel = figure1_kernel(args.kernel)
        study = dict(n_samples=args.samples, burn_in=args.burn_in, n_chains=args.chains, n_inducing=args.inducing)
        fig = None if args.skip_fig1 else figure1(kernel, args.seed, **study)

    markdown = (
        "Seconds per sweep of one chain (PG draws + f | ω), medians of "
        f"{args.repeats} repeats, against the floor timed in the same run: n PG(1, ·) draws + one n×n "
        "Cholesky + two triangular solves. Synthetic 8-D data, kernel "
        f"{args.kernel} (ℓ = √8, σ² = 1). Target: precision ≤ 1.5× floor.\n\n" + markdown_table(rows)
    )
    payload: dict = {"kernel": args.kernel, "sweeps": rows}
    if fig is not None:
        run = fig["run"]
        full, sparse = run.full.summary(), run.sparse.summary()
        table = [
            {
                "quantity": label,
                "X-GPC full": format(full[key], fmt),
                f"X-GPC sparse (m={args.inducing})": format(sparse[key], fmt),
            }
            for key, label, fmt in _FIG1_ROWS
        ]
        diag = run.sampler.diagnostics()
        markdown += (
            f"\n\n### Fig. 1: MCMC vs X-GPC on Diabetes\n\n"
            f"768 points z-scored, stratified 80/20 split (seed {args.seed}): {full['n_train']} training, "
            f"{full['n_test']} test points. Kernel {kernel.name} fixed at ℓ = {kernel.lengthscale[0]}, σ² = "
            f"{kernel.variance}, nugget {kernel.nugget:g} (ELBO-optimal for sparse RBF X-GPC, m = 100, on all "
            f"points). Gibbs: {args.chains} chains × ({args.burn_in} burn-in + {args.samples}) sweeps, "
            f"{run.sampler.form} form, all {run.sampler.draws_stored * args.chains} draws stored; "
            f"max R̂ over f = {diag['rhat_max/f']:.4f}, min bulk / tail ESS over f = {diag['ess_bulk_min/f']:.0f} / "
            f"{diag['ess_tail_min/f']:.0f}. Sampling took {run.sampler.seconds:.0f} s (estimated beforehand "
            f"{fig['estimated_seconds']:.0f} s); X-GPC full {run.full.cost['vi_seconds']:.2f} s "
            f"({run.full.cost['vi_iterations']:.0f} coordinate-ascent steps). Test-point comparison (MCMC on x):\n\n"
            + markdown_table(table)
        )
        payload["figure1"] = {
            "kernel": {"name": kernel.name, **FIG1_PARAMETERS},
            "full": full,
            "sparse": sparse,
            "mcmc_diagnostics": diag,
            "estimated_sampling_seconds": fig["estimated_seconds"],
            "wall_seconds": fig["wall_seconds"],
            "pairs": {
                result.label: {name: {"mcmc": mcmc, "vi": vi} for name, (mcmc, vi) in result.pairs().items()}
                for result in (run.full, run.sparse)
            },
        }
    section = "Gibbs sampler and Fig. 1 (MCMC vs X-GPC" + ("" if args.kernel == "rbf" else f", {args.kernel}") + ")"
    finish(args, section, markdown, payload)
    return 0
