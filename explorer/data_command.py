"""Command line for the data home: `xgpc-explorer data list | fetch NAME… [--from URL] | examples`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from explorer import download, examples, registry
from explorer.validation import DataError


def _list(args) -> int:
    print("Where the paper's data sets are looked for, in order:")
    for how, directory in registry.data_locations(args.data_dir):
        print(f"  {directory}  ({how}{'' if directory.is_dir() else '; does not exist'})")
    print("  then OpenML by id, when online\n")
    rows = registry.paper_availability(args.data_dir)
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        spec = registry.PAPER_DATASETS[row["name"]]
        size = f"{spec.n:>6} × {spec.d:<3}"
        where = row["location"] if row["available"] else "missing"
        print(f"  {row['name']:<{width}}  {size}  {where}")
    missing = [row for row in rows if not row["available"]]
    if missing:
        print("\nHow to get the missing ones:")
        for row in missing:
            print(f"  {row['name']}: {row['how_to_get']}")
    return 0


def _fetch(args) -> int:
    failed = 0
    for name in args.names:
        try:
            path = download.fetch(name, args.to, mirror=args.mirror, progress=not args.quiet)
        except DataError as err:
            print(f"error: {err}", file=sys.stderr)
            failed += 1
            continue
        print(f"{name}: {path}")
    return 1 if failed else 0


def _examples(args) -> int:
    for path in examples.write_examples(args.to):
        print(path)
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="xgpc-explorer data",
                                  description="The project's data home: the paper's data sets and example files.")
    commands = top.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="which paper sets are available where, and how to get the others")
    listing.add_argument("--data-dir", type=Path, default=None, help="look only in this directory (and the cache)")
    listing.set_defaults(run=_list)
    fetching = commands.add_parser("fetch", help="download paper sets into the data home (OpenML by id, or a mirror)")
    fetching.add_argument("names", nargs="+", metavar="NAME", choices=list(registry.PAPER_DATASETS))
    fetching.add_argument("--from", dest="mirror", metavar="URL", default=None,
                          help="a URL (http, https or file) holding the registry's NAME.npz files")
    fetching.add_argument("--to", type=Path, default=None,
                          help=f"target directory (default: the data home, now {registry.data_home()})")
    fetching.add_argument("--quiet", action="store_true", help="no progress bar")
    fetching.set_defaults(run=_fetch)
    making = commands.add_parser("examples", help="write the small example files for the upload demo")
    making.add_argument("--to", type=Path, default=None,
                        help=f"target directory (default: examples/ in the data home, now {registry.data_home()})")
    making.set_defaults(run=_examples)
    return top


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    return args.run(args)
