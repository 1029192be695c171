"""Command line for the data home: `xgpc-explorer data list | fetch NAME… [--from URL|FOLDER] | examples`.

`list` reads every file it finds and compares the registry's sha256, and says which cannot be used; every problem
(a damaged registry, an unreachable mirror, a target that is not a folder) is one line on stderr and exit status 1.
`examples` writes the upload demo's small files (`EXAMPLES`), generated from fixed seeds: the same bytes every time."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explorer.console import positive_number
from explorer.data import datasets, download, registry
from explorer.data.readers import read_npz
from explorer.validation import DataError


@dataclass(frozen=True)
class Example:
    """An example file: built-in set `dataset` with n rows, written with `delimiter`, label column `label` first or
    last, class k (a class index 0…K−1 of the generated set; binary: 0 is class −1, 1 is +1) written as labels[k].
    Each shows one thing the readers accept."""

    file: str
    dataset: str
    n: int
    seed: int
    label: str
    labels: tuple[str, ...]
    delimiter: str = ","
    label_first: bool = False


EXAMPLES = (
    Example("moons.csv", "moons", 200, 1, "label", ("0", "1")),
    Example("circles.csv", "circles", 240, 2, "ring", ("outer", "inner")),
    Example("xor.tsv", "xor", 200, 3, "class", ("-1", "+1"), delimiter="\t"),
    Example("banana-like.csv", "banana-like", 300, 4, "class", ("A", "B"), label_first=True),
    Example("blobs-semicolon.csv", "blobs", 160, 5, "target", ("no", "yes"), delimiter=";"),
    Example("blobs-3.csv", "blobs-3", 240, 6, "species", ("bird", "cat", "dog")),
)


def example_text(example: Example) -> str:
    """The file's content: a header, then one row per point, coordinates to 6 significant digits."""
    import pandas as pd  # here, not at the top: importing pandas takes about a second

    X, y = datasets.load(example.dataset, n=example.n, seed=example.seed)
    table = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1]})
    table.insert(0 if example.label_first else 2, example.label, np.array(example.labels)[y])
    return table.to_csv(sep=example.delimiter, float_format="%.6g", index=False, lineterminator="\n")


def write_examples(directory: Path) -> list[Path]:
    """Write every example file into the folder `directory` (`data examples`' default: `registry.examples_dir()`;
    a checkout keeps them in `data/examples/`). Returns their paths."""
    written = []
    for example in EXAMPLES:
        path = directory / example.file
        path.write_text(example_text(example), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def _registry_damaged() -> bool:
    """Say so (on stderr) when the registry of the paper's sets could not be read."""
    if registry.REGISTRY_PROBLEM is not None:
        print(f"error: {registry.REGISTRY_PROBLEM}", file=sys.stderr)
    return registry.REGISTRY_PROBLEM is not None


def file_check(name: str, location: str) -> tuple[bool, str]:
    """Whether the file found for paper set `name` can be used, and what was found, in words: it is read in full
    (`readers.read_npz`: a readable archive with finite X and two classes in y) and the registry's own file is
    compared with its sha256 (a converted OpenML copy has no registry checksum)."""
    path = Path(location)
    try:
        X, _, _, _ = read_npz(path)
    except DataError as err:
        return False, f"DAMAGED, not used: {err}"
    spec = registry.PAPER_DATASETS[name]
    if path.name != spec.file:
        return True, f"readable, {X.shape[0]} × {X.shape[1]} (converted OpenML copy)"
    if registry.sha256_of(path) != spec.sha256:
        return True, (
            f"readable, {X.shape[0]} × {X.shape[1]}, but its sha256 differs from the registry's: not the "
            "paper's copy (modified, re-converted or corrupt)"
        )
    return True, "readable, sha256 as in the registry"


def _list(args) -> int:
    if _registry_damaged():
        return 1
    print("Where the paper's data sets are looked for, in order:")
    for how, directory in registry.data_locations(args.data_dir):
        print(f"  {directory}  ({how}{'' if directory.is_dir() else '; does not exist'})")
    print("  then OpenML by id, when online\n")
    rows = registry.paper_availability(args.data_dir)
    width = max(len(row["name"]) for row in rows)
    damaged = 0
    for row in rows:
        spec = registry.PAPER_DATASETS[row["name"]]
        size = f"{spec.n:>6} × {spec.d:<3}"
        if not row["available"]:
            print(f"  {row['name']:<{width}}  {size}  missing")
            continue
        usable, found = file_check(row["name"], row["location"])
        damaged += not usable
        print(f"  {row['name']:<{width}}  {size}  {row['location']}\n  {'':<{width}}  {'':<12}  {found}")
    missing = [row for row in rows if not row["available"]]
    if missing:
        print("\nHow to get the missing ones:")
        for row in missing:
            print(f"  {row['name']}: {row['how_to_get']}")
    if damaged:
        print(
            f"\n{damaged} file(s) above cannot be used: replace them (`xgpc-explorer data fetch NAME`, or a "
            "fresh copy) or remove them."
        )
    return 1 if damaged else 0


def _fetch(args) -> int:
    if _registry_damaged():
        return 1
    failed = 0
    for name in args.names:
        try:
            path = download.fetch(name, args.to, mirror=args.mirror, progress=not args.quiet, deadline=args.deadline)
        except DataError as err:
            print(f"error: {err}", file=sys.stderr)
            failed += 1
            continue
        print(f"{name}: {path}")
    return 1 if failed else 0


def _examples(args) -> int:
    folder = registry.examples_dir() if args.to is None else args.to
    try:
        written = write_examples(download.target_folder(folder))
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"error: cannot write the example files into {folder}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"{len(written)} example files written into {folder.resolve()}:")
    for path in written:
        print(f"  {path.name}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="xgpc-explorer data", description="The project's data home: the paper's data sets and example files."
    )
    commands = top.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="which paper sets are available where, and how to get the others")
    listing.add_argument("--data-dir", type=Path, default=None, help="look only in this directory (and the cache)")
    listing.set_defaults(run=_list)
    fetching = commands.add_parser("fetch", help="download paper sets into the data home (OpenML by id, or a mirror)")
    fetching.add_argument(
        "names",
        nargs="+",
        metavar="NAME",
        help=f"paper data sets: {', '.join(registry.PAPER_DATASETS) or 'none (registry damaged)'}",
    )
    fetching.add_argument(
        "--from",
        dest="mirror",
        metavar="URL",
        default=None,
        help="a URL (http, https or file) or a folder holding the registry's NAME.npz files",
    )
    fetching.add_argument(
        "--to", type=Path, default=None, help=f"target folder (default: the data home, now {registry.data_home()})"
    )
    fetching.add_argument(
        "--deadline",
        type=positive_number,
        default=download.DEADLINE_SECONDS,
        metavar="SECONDS",
        help="give up a file's download after this many seconds in all, connecting and a server that trickles its "
        f"bytes included (default {download.DEADLINE_SECONDS:g}; each read also waits at most 30 s)",
    )
    fetching.add_argument("--quiet", action="store_true", help="no progress bar")
    fetching.set_defaults(run=_fetch)
    making = commands.add_parser("examples", help="write the small example files for the upload demo")
    making.add_argument(
        "--to",
        type=Path,
        default=None,
        help=f"target directory (default: examples/ in the data home, now {registry.examples_dir()})",
    )
    making.set_defaults(run=_examples)
    return top


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    return args.run(args)
