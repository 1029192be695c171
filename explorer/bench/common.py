"""Shared plumbing for `python -m explorer bench <name>`: BLAS pinning, machine facts, JSON and Markdown output (what a
user sees of it: README.md, "Benchmarks"). Benchmarks report ratios against a baseline timed in the same process,
medians over repeats, with BLAS pinned to one thread by default (BENCHMARKS.md, "Numbers from the benchmarks'
docstrings")."""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from explorer import settings
from explorer.console import Parser, whole_number

BENCHMARKS_MD = Path("BENCHMARKS.md")
RESULTS_DIR = Path("bench-results")


pinned_blas = threadpool_limits  # `with pinned_blas(threads):` limits the BLAS/OpenMP pools inside the block


def machine_info() -> dict:
    """CPU, core count, BLAS libraries with their thread counts, load average: recorded with every result."""
    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "blas": [
            {"library": p.get("internal_api"), "threads": p.get("num_threads"), "version": p.get("version")}
            for p in threadpool_info()
        ],
        "load_average": list(os.getloadavg()),
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


def interleaved_times(blocks: dict, repeats: int) -> dict:
    """Seconds per unit of each timed block {name: (fn, units)} in every repeat, {name: (repeats,)}, the blocks run
    in turn within every repeat so that a change of machine load hits them alike."""
    times = {name: [] for name in blocks}
    for _ in range(repeats):
        for name, (fn, units) in blocks.items():
            start = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - start) / units)
    return {name: np.array(values) for name, values in times.items()}


def medians(times: dict) -> dict:
    """Median seconds per unit of each block of `interleaved_times`' result."""
    return {name: float(np.median(values)) for name, values in times.items()}


def median_ratio(times: dict, numerator, denominator) -> float:
    """Median over repeats of the ratio of two blocks' times within the same repeat (robust to load that changes
    between repeats, unlike the ratio of the two medians). `numerator` a block name or an array of per-repeat
    seconds."""
    top = times[numerator] if isinstance(numerator, str) else numerator
    return float(np.median(top / times[denominator]))


def write_json(path: str | Path, payload: dict) -> None:
    """Write payload (plain types and numpy scalars/arrays) as indented JSON."""

    def default(obj):
        if isinstance(obj, np.ndarray):
            return obj.tolist()
        if isinstance(obj, np.generic):
            return obj.item()
        if isinstance(obj, Path):
            return str(obj)
        raise TypeError(f"not JSON serialisable: {type(obj).__name__}")

    Path(path).write_text(json.dumps(payload, indent=2, default=default) + "\n")


def _fmt(value) -> str:
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            return "—"
        magnitude = abs(value)
        if magnitude != 0 and (magnitude >= 1e5 or magnitude < 1e-3):
            return f"{value:.3g}"
        return f"{value:.4g}"
    return str(value)


def markdown_table(rows: list[dict], columns: list[str] | None = None) -> str:
    """A GitHub Markdown table of `rows` (dicts) in the order of `columns` (default: keys of the first row)."""
    columns = columns or list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_fmt(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


def update_benchmarks_md(
    section: str, markdown: str, command: str, path: Path = BENCHMARKS_MD, threads: int | None = None
) -> None:
    """Replace (or append) the section `## {section}` of BENCHMARKS.md with the command, machine line and markdown.
    `threads`: the BLAS thread limit the run used (the pools' own sizes are listed otherwise)."""
    info = machine_info()
    libraries = ", ".join(sorted({str(b["library"]) for b in info["blas"]}))
    pools = (
        f"BLAS pinned to {threads} thread{'s' if threads != 1 else ''} ({libraries})"
        if threads is not None
        else "BLAS threads " + ", ".join(f"{b['library']}={b['threads']}" for b in info["blas"])
    )
    body = (
        f"## {section}\n\n"
        f"Command: `{command}`  \n"
        f"Machine: {info['cores']} cores, {info['cpu']}, {pools}, "
        f"load average at the end {info['load_average'][0]:.2f}; {info['date']}\n\n"
        f"{markdown.strip()}\n"
    )
    text = "# Benchmarks\n\nEvery table below was written by the command shown above it.\n"
    text = path.read_text() if path.exists() else text
    pattern = re.compile(rf"^## {re.escape(section)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + body
    path.write_text(text.rstrip("\n") + "\n")


def setting_value(name: str, text: str):
    """The value of run setting `name` written as `text` on a command line (`Setting.from_text`: "none" for None where
    the setting allows it), checked by its declaration (`Setting.check`); ValueError in its words otherwise."""
    setting = settings.SETTINGS[name]
    try:
        value = setting.from_text(text, none="none")
    except ValueError:
        raise ValueError(f"{name} must be {setting.requirement()}, got {text!r}") from None
    return setting.check(value)


def setting_type(name: str):
    """An argparse type: run setting `name`'s value from its text (`setting_value`), a usage error in its words."""

    def parse(text: str):
        try:
            return setting_value(name, text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parse.__name__ = name
    return parse


def add_setting_argument(
    parser: argparse.ArgumentParser,
    name: str,
    default=None,
    help: str | None = None,
    aliases: tuple[str, ...] = (),
    dest: str | None = None,
    nargs: str | None = None,
) -> None:
    """--NAME (underscores as dashes): the run setting `name` as a flag, with its type, choices, default and help
    from its declaration (`explorer.settings`; `default` and `help` replace them where a benchmark differs). A value
    outside the setting's bounds or choices is a usage error naming the setting and what is allowed
    (`setting_type`); "none" is None for a setting that allows it. `aliases` are further spellings of the flag (a
    benchmark's own short name, such as --m for `n_inducing`), `dest` the attribute it is stored in (default:
    `name`), `nargs` argparse's (several values)."""
    setting = settings.SETTINGS[name]
    parser.add_argument(
        "--" + name.replace("_", "-"),
        *aliases,
        dest=dest or name,
        type=setting_type(name),
        nargs=nargs,
        default=setting.default if default is None else default,
        metavar="{" + ",".join(setting.choices) + "}" if setting.choices else setting.kind.upper(),
        help=(help or setting.help).replace("%", "%%")
        + f" (default {setting.default if default is None else default})",
    )


def apply_quick(args, argv: list[str], quick: dict) -> set[str]:
    """With --quick, set each of `quick`'s attributes (name → value) that `argv` did not give explicitly; return the
    names of the flags `argv` gave (dashes as underscores)."""
    explicit = {a.split("=")[0][2:].replace("-", "_") for a in argv if a.startswith("--")}
    if args.quick:
        for key, value in quick.items():
            if key not in explicit:
                setattr(args, key, value)
    return explicit


class BenchParser(Parser):
    """The parser of a benchmark run as `prog` (`python -m explorer bench NAME`, or a tool's module): the
    description's own line breaks kept, the flags every benchmark takes (--json, --threads, --results,
    --write-benchmarks-md, --no-write-md), and the command line that ran kept as `args.command` (the heading of the benchmark's table, `finish`)."""

    def __init__(self, prog: str, description: str):
        super().__init__(prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
        self.add_argument("--json", metavar="PATH", help="also write the numbers as JSON to PATH")
        self.add_argument(
            "--threads",
            type=whole_number(1),
            default=1,
            help="BLAS threads (default 1: more threads on a small shared machine slow linear algebra)",
        )
        self.add_argument(
            "--results",
            metavar="DIR",
            type=Path,
            default=RESULTS_DIR,
            help=f"folder for the table (Markdown) and the numbers (JSON) (default: ./{RESULTS_DIR})",
        )
        for flag, help in (
            (
                "--write-benchmarks-md",
                f"also replace this benchmark's section of ./{BENCHMARKS_MD} (the project's record)",
            ),
            ("--no-write-md", "write no files (only print the table, and the JSON if --json is given)"),
        ):
            self.add_argument(flag, action="store_true", help=help)

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        parsed.command = f"{self.prog} {shlex.join(list(args or []))}".strip()
        return parsed


# where and how a run is written and computed, not what it computes (a grid's cluster: `grid.add_arguments`)
OUTPUT_FLAGS = ("json", "results", "write_benchmarks_md", "no_write_md", "scheduler", "workers", "command")


def results_stem(section: str) -> str:
    """A file name for a section title: 'race (a9a, 60 s)' → 'race-a9a-60-s'."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", section).strip("-").lower() or "benchmark"


def finish(args, section: str, markdown: str, payload: dict) -> None:
    """Print the table; write JSON (the machine, `args.command`, the settings: `args` without `OUTPUT_FLAGS`, and
    `payload`) to --json if asked; unless --no-write-md, write the table and the numbers into the results folder
    and, with --write-benchmarks-md, replace the section of BENCHMARKS.md."""
    print(markdown)
    command = args.command
    machine = {**machine_info(), "blas_thread_limit": args.threads}
    config = {k: v for k, v in vars(args).items() if k not in OUTPUT_FLAGS}
    payload = {"machine": machine, "command": command, "config": config, **payload}
    if args.json:
        write_json(args.json, payload)
        print(f"wrote {args.json}")
    if args.no_write_md:
        return
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    stem = results_stem(section)
    update_benchmarks_md(section, markdown, command, path=results / f"{stem}.md", threads=args.threads)
    write_json(results / f"{stem}.json", payload)
    print(f"wrote {results / stem}.md and .json")
    if args.write_benchmarks_md:
        update_benchmarks_md(section, markdown, command, threads=args.threads)
        print(f"updated {BENCHMARKS_MD} section '{section}'")
