"""`python -m explorer bench cluster [--workers N] STUDY [its options]`: the speed-up of a study's grid on a local Dask
cluster (`grid`), as the ratio of wall times against the serial run in the same session, and whether both wrote the
same numbers.

Each repeat runs the study serially and with `--workers N` (cluster start included), each as a fresh
`python -m explorer bench STUDY …` process, alternating so both meet the same load of a shared machine; the load
average is recorded beside each run. The results are compared without their wall-clock readings (`TIMINGS`): with a
fixed budget (`--iterations N --convergence none`) they are the same bit for bit.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from explorer.bench.common import BenchParser, finish
from explorer.console import whole_number

DESCRIPTION = "A study's grid on N local Dask workers against the serial run in the same session: wall-time ratio"
TIMINGS = ("seconds", "ms_per_iteration", "machine", "command")  # wall-clock readings and where/how it ran


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = BenchParser("python -m explorer bench cluster", __doc__)
    parser.add_argument(
        "--workers", type=whole_number(1), default=2, help="local Dask workers of the cluster run (default 2)"
    )
    parser.add_argument("--repeats", type=whole_number(1), default=2, help="serial/cluster pairs to run (default 2)")
    parser.add_argument("study", nargs=argparse.REMAINDER, help="the study and its options, e.g. table1 --quick")
    args = parser.parse_args(argv)
    if not args.study:
        parser.error("name the study to run, e.g. table1 --quick --iterations 1000 --convergence none")
    return args


def without_timings(value):
    """`value` (parsed JSON) without its wall-clock readings (`TIMINGS`), at any depth."""
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def timed_run(study: list[str], json_path: Path, extra: list[str]) -> dict:
    """Run `python -m explorer bench STUDY … --no-write-md --json PATH EXTRA` in a fresh process: its wall time and
    the load average before and after (a failed run raises, with its error output)."""
    command = [sys.executable, "-m", "explorer", "bench", *study, "--no-write-md", "--json", str(json_path), *extra]
    before = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return {"seconds": seconds, "load_before": before, "load_after": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(list(argv or []))
    threads = ["--threads", str(args.threads)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        serial_json, cluster_json = Path(folder) / "serial.json", Path(folder) / "cluster.json"
        for repeat in range(args.repeats):
            serial = timed_run(args.study, serial_json, threads)
            cluster = timed_run(args.study, cluster_json, [*threads, "--workers", str(args.workers)])
            numbers = [without_timings(json.loads(path.read_text())) for path in (serial_json, cluster_json)]
            rows.append(
                {
                    "repeat": repeat + 1,
                    "serial_seconds": serial["seconds"],
                    "cluster_seconds": cluster["seconds"],
                    "speedup": serial["seconds"] / cluster["seconds"],
                    "same_results": numbers[0] == numbers[1],
                    "load": [run[key] for run in (serial, cluster) for key in ("load_before", "load_after")],
                }
            )
            print(
                f"repeat {repeat + 1}: serial {serial['seconds']:.1f} s, {args.workers} workers "
                f"{cluster['seconds']:.1f} s",
                file=sys.stderr,
            )
    lines = [
        f"| repeat | serial s | {args.workers} workers s | speed-up | same results | load average (serial, cluster) |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        load = row["load"]
        lines.append(
            f"| {row['repeat']} | {row['serial_seconds']:.1f} | {row['cluster_seconds']:.1f} | "
            f"{row['speedup']:.2f}× | {'yes' if row['same_results'] else 'no'} | "
            f"{load[0]:.1f}→{load[1]:.1f}, {load[2]:.1f}→{load[3]:.1f} |"
        )
    median = float(np.median([row["speedup"] for row in rows]))
    text = "\n".join(lines) + (
        f"\n\nMedian speed-up {median:.2f}× for `bench {shlex.join(args.study)}` on a local cluster of {args.workers} "
        f"single-threaded workers (started within the timed run) against the serial run, alternating, each a fresh "
        f"process, on {os.cpu_count()} cores shared with whatever else ran (the load average before→after each run). "
        "Same results: the JSON of both without wall-clock readings."
    )
    finish(args, f"grid on a Dask cluster ({args.study[0]})", text, {"runs": rows, "median_speedup": median})
    return 0
