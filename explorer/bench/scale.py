"""`python -m explorer bench scale`: one method (`--method`, default X-GPC) on synthetic SUSY-like data (`susy_like`)
at n = 10⁴ … 10⁷ in memory and past memory (e.g. 10⁸ rows, written to disk and trained on out of core) — seconds per
iteration (independent of n), seconds and iterations to the paper's convergence rule, test scores (chunk by chunk;
with --workers or --scheduler also on a Dask cluster) and memory (bounded: independent of n). What each column
means is written under its table (BENCHMARKS.md, "scale (xgpc)").
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from explorer import scoring
from explorer.bench import common, grid
from explorer.bench.common import BenchParser, add_setting_argument, finish, markdown_table, pinned_blas
from explorer.bench.protocol import Progress, add_option_argument, parse_options
from explorer.console import non_negative_number, positive_number, whole_number
from explorer.data.sources import open_source
from explorer.inducing import kmeans_plus_plus
from explorer.kernels import RBF
from explorer.run import start_run
from explorer.scaling import ScaledSource
from explorer.sources import CHUNK_ROWS, ArraySource, DataSource

DESCRIPTION = (
    "Scaling: seconds per iteration and to convergence, memory, for n = 1e4 … 1e7 synthetic SUSY-like rows in RAM "
    "and past memory on disk (e.g. 1e8, out of core)"
)
D = 18
CHUNK = 1_000_000
KMEANS_ROWS = 100_000
REFERENCE_ROWS = 10_000
"""Rows of the in-memory run every size's iterations are timed against in turn (`ratio_in_turn`)."""


def susy_like(n: int, rng: np.random.Generator, noise: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """n rows like SUSY's (d = 18): 8 "low-level" features z ~ N(0, I) and 10 "high-level" non-linear functions of
    them (norms, products, |·|, tanh), class y = 1[g(z) + noise·ε > 0], ε ~ N(0, 1), with
    g = 2 sin(1.5z₀) + 1.5 cos(z₁ + z₂) − |z₃| + 0.8z₄ (46% positives, as SUSY; a score with a finite natural
    lengthscale: quadratic scores such as z₀z₁ drove the learned σ² and ℓ to grow without end), generated `CHUNK`
    rows at a time. X (n, 18) float64, y (n,) int8 class indices."""
    X = np.empty((n, D))
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
    parser = BenchParser("python -m explorer bench scale", __doc__)
    parser.add_argument(
        "--n", type=whole_number(2, floats=True), nargs="+", default=[10_000, 100_000, 1_000_000, 10_000_000]
    )
    add_setting_argument(parser, "method")
    add_option_argument(
        parser, "builder option, e.g. epgpc.sites=per-point (repeatable; options of other methods are ignored)"
    )
    add_setting_argument(parser, "n_inducing", aliases=("--m",), dest="m")
    add_setting_argument(parser, "batch_size")
    add_setting_argument(parser, "eval_every", default=100)
    parser.add_argument(
        "--convergence",
        choices=("holdout", "parameters"),
        default="holdout",
        help="stopping rule: the paper's hold-out NLL rule for all methods (default, on 10,000 fresh "
        "rows apart from the test set) or its global-parameter rule for X-GPC, which fires late "
        "with the Robbins–Monro step (ρ stays above ~1e-3 for 10⁵ iterations)",
    )
    for flag, kind, default, help in (
        ("--noise", non_negative_number, 0.5, "label noise sd on the latent score (default 0.5)"),
        ("--seconds", positive_number, 120.0, "training-time cap per n (default 120)"),
        ("--max-ram-gb", non_negative_number, 4.0,
         "data larger than this as float64 is written to disk and trained on out of core (default 4; 0: every size "
         "from disk)"),
        ("--data-dir", str, None,
         "folder for the on-disk sets, kept and reused (default: a temporary folder, removed at the end)"),
        ("--test-rows", whole_number(1, floats=True), 100_000,
         "fresh test rows the scores are computed on (default 1e5)"),
        ("--chunk-rows", whole_number(1), CHUNK_ROWS,
         f"test rows read and predicted at a time (default {CHUNK_ROWS}; a task on a cluster scores "
         f"{scoring.TASK_ROWS:,} rows, whole chunks)"),
    ):  # fmt: skip
        parser.add_argument(flag, type=kind, default=default, help=help)
    parser.add_argument(
        "--test-on-disk",
        action="store_true",
        help="write the test rows to a float32 .npy pair in the data folder and score them out of core",
    )
    add_setting_argument(parser, "seed")
    grid.add_arguments(parser)
    return parser.parse_args(argv)


def write_susy_like_npy(path: Path, n: int, rng: np.random.Generator, noise: float) -> None:
    """n rows of `susy_like` written chunk by chunk (never more than `CHUNK` rows in memory) as X (n, 18) float32 to
    the `.npy` file `path` and y (n,) int8 to `<stem>_labels.npy` beside it; each file is written under a temporary
    name and renamed when complete, so an interrupted run leaves no half file to reuse."""
    labels = path.with_name(f"{path.stem}_labels.npy")
    for target, dtype, shape in ((path, "<f4", (n, D)), (labels, "|i1", (n,))):
        with open(target.with_suffix(".part"), "wb") as handle:
            np.lib.format.write_array_header_1_0(handle, {"descr": dtype, "fortran_order": False, "shape": shape})
    with open(path.with_suffix(".part"), "ab") as x_file, open(labels.with_suffix(".part"), "ab") as y_file:
        for start in range(0, n, CHUNK):
            X, y = susy_like(min(CHUNK, n - start), rng, noise)
            X.astype(np.float32).tofile(x_file)
            y.tofile(y_file)
    labels.with_suffix(".part").rename(labels)
    path.with_suffix(".part").rename(path)


def on_disk_set(n: int, args, folder: Path, role: str = "") -> tuple[Path, float]:
    """The on-disk set of n rows for this seed and noise in `folder` (written unless a complete one is there) and
    the seconds its writing took (0 when reused). `role` "test" names the test set's file and its own stream."""
    path = folder / f"susy_like{'_' + role if role else ''}_n{n}_seed{args.seed}_noise{args.noise:g}.npy"
    if path.exists() and path.with_name(f"{path.stem}_labels.npy").exists():
        return path, 0.0
    start = time.perf_counter()
    stream = [args.seed, n] if not role else [args.seed, n, 99]
    write_susy_like_npy(path, n, np.random.default_rng(stream), args.noise)
    return path, time.perf_counter() - start


def test_set(args, folder: Path) -> DataSource:
    """The `--test-rows` fresh test rows: in memory (an `ArraySource`), or with `--test-on-disk` a float32 `.npy`
    pair in `folder` (an `NpySource`)."""
    rows = int(args.test_rows)
    if not args.test_on_disk:
        return ArraySource(*susy_like(rows, np.random.default_rng([args.seed, 99]), args.noise))
    path = on_disk_set(rows, args, folder, "test")[0]
    return open_source(path)


def scores_in_turn(engine, test: DataSource, args, client, note, repeats: int = 3) -> dict:
    """The test scores of `engine` on `test` computed chunk by chunk here and, given a Dask `client`, as tasks on its
    cluster, the two in turn `repeats` times: the median seconds of each way, the median of the pairs' ratios (the
    load of other work on a shared machine changes between passes) and whether every pass on the cluster gave
    the serial numbers. Without a client, one serial pass."""
    ways = ("serial",) if client is None else ("serial", "cluster")
    seconds, scores = {way: [] for way in ways}, {way: [] for way in ways}
    for _ in range(1 if client is None else repeats):
        for way in ways:
            start = time.perf_counter()
            scores[way].append(
                scoring.test_scores(
                    engine,
                    test,
                    args.chunk_rows,
                    client=client if way == "cluster" else None,
                    progress=lambda rows, total, way=way: note(f"test scores ({way}): {rows:,} of {total:,} rows"),
                )
            )
            seconds[way].append(time.perf_counter() - start)
    cluster = seconds.get("cluster", [np.nan])  # none without a client
    return {
        "test_nll": scores["serial"][0][0],
        "test_error": scores["serial"][0][1],
        "score_serial_seconds": float(np.median(seconds["serial"])),
        "score_cluster_seconds": float(np.median(cluster)),
        "score_speedup": float(np.median(np.divide(seconds["serial"], cluster))),
        "cluster_scores_equal": all(s == scores["serial"][0] for s in scores["cluster"]) if client else None,
        "score_seconds": seconds,
    }


def start(n: int, args, X_holdout, y_holdout, folder: Path, on_disk: bool):
    """The run on n rows and where its data are: generated into memory (features as they are, Z by k-means++ on
    ≤ 100,000 rows), or `on_disk` in a float32 `.npy` file, out of core: opened (checked) as an `NpySource`,
    standardised from its chunks, Z by k-means++ on a seeded sample (`run.start_run` with a source)."""
    rng = np.random.default_rng([args.seed, n])
    if on_disk:
        path, write_seconds = on_disk_set(n, args, folder)
        start = time.perf_counter()
        data = (open_source(path), None)  # the labels in <stem>_labels.npy beside it
        given = dict(n_inducing=args.m, inducing_rng=rng)
    else:
        X, y = susy_like(n, rng, args.noise)
        rows = rng.choice(n, KMEANS_ROWS, replace=False) if n > KMEANS_ROWS else slice(None)
        data, given = (X, y), dict(scaler=False, Z=kmeans_plus_plus(np.asarray(X[rows]), args.m, rng))
    tracemalloc.start()  # what building the run allocates and keeps: the method's state (the data exist already)
    kernel = RBF(np.sqrt(D), 1.0, 1e-4)
    started = start_run(args.method, *data, X_holdout, y_holdout, kernel, **given, **run_options(args, n))
    if not on_disk:
        return started, {"storage": "RAM", "file_gb": float("nan"), "write_seconds": 0.0, "open_seconds": float("nan")}
    return started, {
        "storage": "disk (.npy float32, out of core)",
        "file_gb": (path.stat().st_size + data[0].y_path.stat().st_size) / 1e9,
        "write_seconds": write_seconds,
        "open_seconds": time.perf_counter() - start,
    }


def reset_peak_memory() -> None:
    """Start a new peak of resident memory for this process (Linux: writing 5 to /proc/self/clear_refs resets
    VmHWM); elsewhere `peak_memory_gb` reports the process's lifetime peak."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_memory_gb() -> float:
    """The peak resident size since `reset_peak_memory` (VmHWM of /proc/self/status), else since the process
    started (getrusage), GB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e9
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def run_options(args, n: int) -> dict:
    """`run.start_run`'s options of the run on n rows: its streams, minibatch, evaluation and stopping rule."""
    return dict(
        engine_rng=np.random.default_rng([args.seed, n, 1]),
        evaluation_rng=np.random.default_rng([args.seed, n, 2]),
        batch_size=args.batch_size,
        eval_every=args.eval_every,
        convergence=args.convergence,
        elbo_points=1000,
        options=parse_options(args.option).get(args.method),
    )


def ratio_in_turn(engine, reference, steps: int = 50, repeats: int = 9) -> float:
    """Median over `repeats` of (seconds for `steps` iterations of `engine`) / (seconds for `steps` iterations of
    `reference`), the two timed in turn: a ratio that a shared machine's load, which changes over minutes, moves
    far less than it moves ms/iteration measured minutes apart."""
    blocks = {"row": (lambda: engine.step(steps), 1), "reference": (lambda: reference.step(steps), 1)}
    return common.median_ratio(common.interleaved_times(blocks, repeats), "row", "reference")


def run_size(
    n: int,
    args,
    test: DataSource,
    X_holdout: np.ndarray,
    y_holdout: np.ndarray,
    folder: Path,
    progress: Progress,
    reference,
    client=None,
) -> dict:
    gigabytes = n * D * 8 / 1e9

    reset_peak_memory()
    started, data = start(n, args, X_holdout, y_holdout, folder, on_disk=gigabytes > args.max_ram_gb)
    state = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    trainer, engine = started.trainer, started.trainer.engine
    trainer.run(seconds=args.seconds, progress=lambda t: progress.show(min(t.seconds, args.seconds), f"n = {n:,}"))
    converged, seconds, iterations = bool(trainer.converged), trainer.seconds, engine.iteration
    s, it = trainer.history.column("seconds"), trainer.history.column("iteration")
    per_iteration = np.diff(s) / np.maximum(np.diff(it), 1)
    tracemalloc.start()
    engine.step(100)  # working memory of further iterations (numpy allocations are traced)
    growth, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    scores = scores_in_turn(
        engine,
        test if started.scaler is None else ScaledSource(test, started.scaler, "test data"),
        args,
        client,
        lambda text: progress.show(args.seconds, f"n = {n:,}: {text}"),
    )
    rng, source = np.random.default_rng(12345), engine.source  # the median time to draw and read one minibatch
    read = {"read": (lambda: source.batch(source.sample(rng, args.batch_size)), 1)}
    read_ms = 1e3 * common.medians(common.interleaved_times(read, 300))["read"]
    in_turn = ratio_in_turn(engine, reference)  # steps on: after the test scores
    progress.advance(args.seconds, f"n = {n:,}")
    return {
        "n": n,
        "data_gb": gigabytes,
        **data,
        "ms_per_iteration": 1e3 * float(np.median(per_iteration)),
        "iterations": iterations,
        "seconds": seconds,
        "converged": converged,
        **scores,
        "state_mb": state / 1e6,
        "step_peak_mb": peak / 1e6,
        "step_growth_mb": growth / 1e6,
        "read_ms": read_ms,
        "ratio_in_turn": in_turn,
        "peak_rss_gb": peak_memory_gb(),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    sizes = [int(n) for n in args.n]
    X_holdout, y_holdout = susy_like(10_000, np.random.default_rng([args.seed, 98]), args.noise)
    progress = Progress(len(sizes) * args.seconds)
    results = []
    on_cluster = args.scheduler is not None or args.workers is not None
    with (
        tempfile.TemporaryDirectory() as tmp,
        pinned_blas(args.threads),
        grid.dask_client(args.scheduler, args.workers) if on_cluster else contextlib.nullcontext() as client,
    ):
        folder = Path(args.data_dir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        test = test_set(args, folder)
        reference = start(REFERENCE_ROWS, args, X_holdout, y_holdout, folder, on_disk=False)[0].trainer.engine
        tracemalloc.stop()
        for n in sizes:
            results.append(run_size(n, args, test, X_holdout, y_holdout, folder, progress, reference, client))
        workers = len(client.nthreads()) if on_cluster else 0
    progress.close()
    base = results[0]["ms_per_iteration"]
    rows = [
        {
            "n": f"{r['n']:,}",
            "data GB (float64)": r["data_gb"],
            "storage": r["storage"],
            "file GB": r["file_gb"],
            "open + standardise + Z s": r["open_seconds"],
            "ms/iteration (median)": r["ms_per_iteration"],
            f"ratio to n = {sizes[0]:,}": r["ms_per_iteration"] / base,
            f"ratio to n = {REFERENCE_ROWS:,} in turn": r["ratio_in_turn"],
            "ms/minibatch read": r["read_ms"],
            "iterations": r["iterations"],
            "seconds to converge": r["seconds"] if r["converged"] else float("nan"),
            "test error": r["test_error"],
            "test NLL": r["test_nll"],
            "test scores s": r["score_serial_seconds"],
            f"test scores on {workers} workers s": r["score_cluster_seconds"],  # shown on a cluster only
            "speed-up": r["score_speedup"],
            "same scores": "yes" if r["cluster_scores_equal"] else "NO",
            "state MB": r["state_mb"],
            "step peak MB": r["step_peak_mb"],
            "kept after 100 steps MB": r["step_growth_mb"],
            "peak RSS GB": r["peak_rss_gb"],
        }
        for r in results
    ]
    options = f" ({', '.join(args.option)})" if args.option else ""
    test_rows = int(args.test_rows)
    test_storage = "on disk, .npy float32" if args.test_on_disk else "in RAM"
    cluster = (
        f"; 'test scores on {workers} workers s' computes them again as tasks of "
        f"{max(1, scoring.TASK_ROWS // args.chunk_rows) * args.chunk_rows:,} rows on a Dask cluster of "
        f"{workers} single-threaded workers ({'a LocalCluster' if args.scheduler is None else args.scheduler}; the "
        "engine's predictive state and the source sent to each worker once, a task reading its own rows), "
        "'speed-up' is the ratio of the two times and 'same scores' says whether NLL and error are bit for bit the "
        "serial ones; the two are timed in turn 3 times, the table gives the median times and the median of the 3 "
        "ratios"
        if on_cluster
        else ""
    )
    cluster_columns = (f"test scores on {workers} workers s", "speed-up", "same scores")
    shown = [column for column in rows[0] if on_cluster or column not in cluster_columns]
    text = markdown_table(rows, shown) + (
        f"\n\n{args.method}{options}, synthetic SUSY-like data (d = {D}, label noise {args.noise:g}; "
        f"`explorer/bench/scale.py`), m = {args.m}, minibatch {args.batch_size}, kernel learning on, stopped by the "
        f"paper's {RULES[args.convergence]} (— = not converged within {args.seconds:g} s). Time is training time "
        f"only; ms/iteration is the median over {args.eval_every}-iteration chunks; test metrics on {test_rows:,} fresh "
        f"rows ({test_storage}), computed chunk by chunk ({args.chunk_rows:,} rows a chunk; 'test scores s'){cluster}. "
        "Memory (tracemalloc, numpy allocations included): 'state MB' is what building the run allocated and "
        "still holds (the method's state and any copy it makes of the data; the data themselves exist before and are "
        "not counted); 'step peak MB' the peak during 100 further iterations and 'kept after 100 steps MB' what they "
        "left allocated (bounded memory: all three flat in n); 'peak RSS' is the process's peak resident size during "
        "the row (VmHWM, reset at its start; it includes the data in RAM, the generation of an on-disk set and the "
        "pages of its memory map still mapped). 'ms/minibatch read' is the median time to draw and read one minibatch "
        "(part of ms/iteration; from disk: one pread a row, fast while the file is in the page cache). 'ratio … in turn' "
        f"times 50 iterations of the row's engine and 50 of an in-memory run on {REFERENCE_ROWS:,} rows alternately, "
        "9 times, and gives the median ratio: the load of other work on a shared machine changes over minutes and "
        "moves ms/iteration between rows, far less this ratio. An on-disk row is trained out of core from a float32 .npy file "
        "(storage 'disk'; 'file GB' with its labels): opened and checked block by block, standardised from one pass "
        "over its chunks and Z chosen by k-means++ on a seeded sample of 100,000 rows ('open + standardise + Z s', "
        "not training time); RAM rows use the features as they are."
    )
    cluster = ", test scores on a Dask cluster" if on_cluster else ""
    finish(args, f"scale ({args.method}{''.join(', ' + o for o in args.option)}{cluster})", text, {"results": results})
    return 0
