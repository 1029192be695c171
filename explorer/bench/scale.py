"""`python -m explorer bench scale`: one method (`--method`, default X-GPC) on synthetic SUSY-like data at
n = 10⁴ … 10⁷ — seconds per iteration (independent of n: a minibatch step never touches the other rows), seconds and
iterations to the paper's convergence rule, and memory: the state the method keeps, the peak of its steps and what
the steps leave allocated (bounded: independent of n).

Data (d = 18, like SUSY): 8 "low-level" features z ~ N(0, I) and 10 "high-level" non-linear functions of them
(norms, products, |·|, tanh), class y = 1[g(z) + noise·ε > 0], ε ~ N(0, 1), with
g = 2 sin(1.5z₀) + 1.5 cos(z₁ + z₂) − |z₃| + 0.8z₄ (46% positives, as SUSY; a score with a finite natural lengthscale:
quadratic scores such as z₀z₁ drove the learned σ² and ℓ to grow without end). Rows are generated in chunks, into
memory or, above `--max-ram-gb`, into a numpy memmap under `--memmap-dir`. The features are O(1) and not
standardised. Z: k-means++ on at most 100,000 training rows; test set: 100,000 fresh rows.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import tempfile
import tracemalloc
from pathlib import Path

import numpy as np

from explorer import methods, recipe
from explorer.bench.common import (
    add_common_arguments,
    add_setting_argument,
    finish,
    markdown_table,
    pinned_blas,
    run_config,
)
from explorer.bench.protocol import Progress, parse_options
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import RBF
from explorer.metrics import error_rate, negative_log_likelihood

DESCRIPTION = "Scaling: seconds per iteration and to convergence, memory, for n = 1e4 … 1e7 synthetic SUSY-like rows"
D = 18
CHUNK = 1_000_000
KMEANS_ROWS = 100_000


def susy_like(
    n: int, rng: np.random.Generator, noise: float = 0.5, out: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """n rows of the generator above: X (n, 18) float64 (written into `out` if given, e.g. a memmap), y (n,) int8 class
    indices (1 where g + noise > 0)."""
    X = np.empty((n, D)) if out is None else out
    y = np.empty(n, dtype=np.int8)
    for start in range(0, n, CHUNK):
        k = min(CHUNK, n - start)
        z = rng.standard_normal((k, 8))
        high = np.column_stack(
            [
                np.hypot(z[:, 0], z[:, 1]),
                np.hypot(z[:, 2], z[:, 3]),
                z[:, 0] * z[:, 2],
                z[:, 1] * z[:, 3],
                np.abs(z[:, 4] - z[:, 5]),
                z[:, 6] * z[:, 7],
                np.sqrt(z[:, 4] ** 2 + z[:, 5] ** 2 + z[:, 6] ** 2),
                (z[:, 0] + z[:, 2] + z[:, 4]) / np.sqrt(3.0),
                np.tanh(z[:, 1] - z[:, 3]),
                z[:, 7] ** 2 - 1.0,
            ]
        )
        X[start : start + k, :8] = z
        X[start : start + k, 8:] = high
        g = 2.0 * np.sin(1.5 * z[:, 0]) + 1.5 * np.cos(z[:, 1] + z[:, 2]) - np.abs(z[:, 3]) + 0.8 * z[:, 4]
        y[start : start + k] = np.where(g + noise * rng.standard_normal(k) > 0, 1, 0)
    return X, y


RULES = {
    "holdout": "hold-out rule (window-5 mean relative change of the NLL on 10,000 fresh rows < 1e-3)",
    "parameters": "global-parameter rule (window-10 mean relative change of η < 1e-4)",
}


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m explorer bench scale", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=float, nargs="+", default=[1e4, 1e5, 1e6, 1e7])
    parser.add_argument("--method", default="xgpc", choices=list(methods.METHODS))
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="METHOD.KEY=VALUE",
        help="builder option, e.g. epgpc.sites=per-point (repeatable; options of other methods are ignored)",
    )
    parser.add_argument("--noise", type=float, default=0.5, help="label noise sd on the latent score (default 0.5)")
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m")
    add_setting_argument(parser, "batch_size")
    parser.add_argument("--seconds", type=float, default=120.0, help="training-time cap per n (default 120)")
    add_setting_argument(parser, "eval_every", default=100)
    parser.add_argument(
        "--convergence",
        choices=("holdout", "parameters"),
        default="holdout",
        help="stopping rule: the paper's hold-out NLL rule for all methods (default, on 10,000 fresh "
        "rows apart from the test set) or its global-parameter rule for X-GPC, which fires late "
        "with the Robbins–Monro step (ρ stays above ~1e-3 for 10⁵ iterations)",
    )
    parser.add_argument("--max-ram-gb", type=float, default=4.0, help="larger data goes to a memmap (default 4)")
    parser.add_argument("--memmap-dir", default=None, help="directory for memmaps (default: a temporary one)")
    add_setting_argument(parser, "seed")
    add_common_arguments(parser)
    return parser.parse_args(argv)


def run_size(
    n: int,
    args,
    X_test: np.ndarray,
    y_test: np.ndarray,
    X_holdout: np.ndarray,
    y_holdout: np.ndarray,
    workdir: Path,
    progress: Progress,
) -> dict:
    rng = np.random.default_rng([args.seed, n])
    gigabytes = n * D * 8 / 1e9
    out = None
    if gigabytes > args.max_ram_gb:
        out = np.lib.format.open_memmap(workdir / f"susy_like_{n}.npy", mode="w+", dtype=np.float64, shape=(n, D))
    X, y = susy_like(n, rng, args.noise, out)
    rows = rng.choice(n, KMEANS_ROWS, replace=False) if n > KMEANS_ROWS else slice(None)
    Z = kmeans_plus_plus(np.asarray(X[rows]), args.m, rng)
    tracemalloc.start()  # what building the run allocates and keeps: the method's state (the data exist already)
    trainer = recipe.start_run(
        args.method,
        X,
        y,
        X_holdout,
        y_holdout,
        RBF(np.sqrt(D), 1.0, 1e-4),
        scaler=False,
        Z=Z,
        engine_rng=np.random.default_rng([args.seed, n, 1]),
        evaluation_rng=np.random.default_rng([args.seed, n, 2]),
        batch_size=args.batch_size,
        eval_every=args.eval_every,
        convergence=args.convergence,
        elbo_points=1000,
        options=parse_options(args.option).get(args.method),
    ).trainer
    state = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    engine = trainer.engine
    trainer.run(seconds=args.seconds, progress=lambda t: progress.show(min(t.seconds, args.seconds), f"n = {n:,}"))
    converged, seconds, iterations = bool(trainer.converged), trainer.seconds, engine.iteration
    s, it = trainer.history.column("seconds"), trainer.history.column("iteration")
    per_iteration = np.diff(s) / np.maximum(np.diff(it), 1)
    tracemalloc.start()
    engine.step(100)  # working memory of further iterations (numpy allocations are traced)
    growth, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    p = engine.predict_proba(X_test)
    progress.advance(args.seconds, f"n = {n:,}")
    return {
        "n": n,
        "data_gb": gigabytes,
        "storage": "memmap" if out is not None else "RAM",
        "ms_per_iteration": 1e3 * float(np.median(per_iteration)),
        "iterations": iterations,
        "seconds": seconds,
        "converged": converged,
        "test_error": error_rate(p, y_test),
        "test_nll": negative_log_likelihood(p, y_test),
        "state_mb": state / 1e6,
        "step_peak_mb": peak / 1e6,
        "step_growth_mb": growth / 1e6,
        "process_max_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    sizes = [int(n) for n in args.n]
    X_test, y_test = susy_like(100_000, np.random.default_rng([args.seed, 99]), args.noise)
    X_holdout, y_holdout = susy_like(10_000, np.random.default_rng([args.seed, 98]), args.noise)
    progress = Progress(len(sizes) * args.seconds)
    results = []
    with tempfile.TemporaryDirectory(dir=args.memmap_dir) as tmp, pinned_blas(args.threads):
        for n in sizes:
            results.append(run_size(n, args, X_test, y_test, X_holdout, y_holdout, Path(tmp), progress))
    progress.close()
    base = results[0]["ms_per_iteration"]
    rows = [
        {
            "n": f"{r['n']:,}",
            "data GB": r["data_gb"],
            "storage": r["storage"],
            "ms/iteration (median)": r["ms_per_iteration"],
            f"ratio to n = {sizes[0]:,}": r["ms_per_iteration"] / base,
            "iterations": r["iterations"],
            "seconds to converge": r["seconds"] if r["converged"] else float("nan"),
            "test error": r["test_error"],
            "test NLL": r["test_nll"],
            "state MB": r["state_mb"],
            "step peak MB": r["step_peak_mb"],
            "kept after 100 steps MB": r["step_growth_mb"],
            "max RSS GB": r["process_max_rss_gb"],
        }
        for r in results
    ]
    options = f" ({', '.join(args.option)})" if args.option else ""
    text = markdown_table(rows) + (
        f"\n\n{args.method}{options}, synthetic SUSY-like data (d = {D}, label noise {args.noise:g}; "
        f"`explorer/bench/scale.py`), m = {args.m}, minibatch {args.batch_size}, kernel learning on, stopped by the "
        f"paper's {RULES[args.convergence]} (— = not converged within {args.seconds:g} s). Time is training time "
        f"only; ms/iteration is the median over {args.eval_every}-iteration chunks; test metrics on 100,000 fresh "
        "rows. Memory (tracemalloc, numpy allocations included): 'state MB' is what building the run allocated and "
        "still holds (the method's state and any copy it makes of the data; the data themselves exist before and are "
        "not counted); 'step peak MB' the peak during 100 further iterations and 'kept after 100 steps MB' what they "
        "left allocated (bounded memory: all three flat in n); 'max RSS' is the process's peak resident size so far "
        "(it includes the data)."
    )
    command = "python -m explorer bench scale " + shlex.join(list(argv or []))
    finish(
        args,
        f"scale ({args.method}{''.join(', ' + o for o in args.option)})",
        command.strip(),
        text,
        {"config": run_config(args), "results": results},
    )
    return 0
