"""`python -m explorer.views.reliability_figure JSON OUT [--dataset NAME] [--fold K]`: the reliability diagram
(`views.calibration.reliability_diagram`) of a `python -m explorer bench multiclass` JSON, saved as PNG or SVG
(`views.export.save`). The README's diagram is `docs/reliability-digits.png` from BENCHMARKS.md's run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from explorer.views.calibration import bench_tables, reliability_diagram
from explorer.views.export import save


def main(argv: list[str] | None = None) -> int:
    """Command line: draw the reliability diagram of a `bench multiclass` JSON into a PNG or SVG file."""
    parser = argparse.ArgumentParser(prog="python -m explorer.views.reliability_figure", description=main.__doc__)
    parser.add_argument("json", type=Path, help="a `python -m explorer bench multiclass` JSON")
    parser.add_argument("out", type=Path, help="the figure (.png or .svg)")
    parser.add_argument("--dataset", default=None, help="data set (default: the JSON's first)")
    parser.add_argument("--fold", type=int, default=1, help="fold, 1-based (default 1)")
    args = parser.parse_args(argv)
    dataset, tables = bench_tables(json.loads(args.json.read_text()), args.dataset, args.fold)
    title = f"reliability on {dataset} (test rows of fold {args.fold})"
    save(reliability_diagram(tables, title=title), args.out, width=700, height=700)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
