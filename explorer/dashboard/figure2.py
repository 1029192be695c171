"""The paper's Fig. 2 from our own races: test NLL and test error against training time (log axis) for every method,
one row per data set, drawn from the JSON files `python -m explorer bench race` writes (views.race draws each panel;
diamonds mark when a method settled within 1% of the best final NLL for good), and the settle times as a table:

    python -m explorer.dashboard.figure2 race-a9a.json race-ijcnn1.json race-w8a.json --out docs/figure2.png

The image goes through `export.save` (matplotlib backend: PNG or SVG by suffix; HTML gives the interactive Bokeh
version).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import holoviews as hv

from explorer.views.export import save
from explorer.views.race import NAMES, race_curves, race_fold
from explorer.views.style import styled


def _name(race: dict) -> str:
    return str(race.get("config", {}).get("dataset", "race"))


def figure2(races: list[dict], *, fold: int = 1) -> hv.Layout:
    """Two panels per race (test NLL with band lines and settle markers; test error), one row per race, titled with
    its data set; the legend once, on the first error panel. races: race JSON payloads."""
    if not races:
        raise ValueError("figure2 needs at least one race")
    panels = []
    for row, race in enumerate(races):
        nll, error = race_curves(race, fold=fold)
        best = float(race_fold(race, fold)["best_nll"])
        panels += [
            styled(nll, title=f"{_name(race)}: test NLL (best {best:.4f})", show_legend=False),
            styled(error, title=f"{_name(race)}: test error", show_legend=row == 0, legend_position="top_right"),
        ]
    return styled(hv.Layout(panels).cols(2), shared_axes=False, matplotlib=dict(sublabel_format=""))


def settle_table(races: list[dict], *, fold: int = 1, band: float = 0.01) -> str:
    """A Markdown table: per data set and method, the final test NLL and the seconds until the method settled within
    `band` of the best final NLL ('never' within the race's budget)."""
    methods = list(dict.fromkeys(m for race in races for m in race_fold(race, fold)["methods"]))
    lines = ["| data set | " + " | ".join(NAMES.get(m, m) for m in methods) + " |", "|---|" + "---|" * len(methods)]
    for race in races:
        cells = []
        for method in methods:
            r = race_fold(race, fold)["methods"].get(method)
            if r is None:
                cells.append("—")
                continue
            settled = r.get(f"settled_{band:g}", math.inf)
            when = f"{settled:.3g} s" if settled is not None and math.isfinite(settled) else "never"
            cells.append(f"{r['final_nll']:.4f}, {when}")
        lines.append(f"| {_name(race)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m explorer.dashboard.figure2",
        description="Draw race JSONs (python -m explorer bench race) as the paper's Fig. 2",
    )
    parser.add_argument("races", nargs="+", help="race JSON files, one per data set")
    parser.add_argument("--out", required=True, help="the image to write (.png, .svg or .html)")
    parser.add_argument("--fold", type=int, default=1, help="which fold to draw (default 1)")
    parser.add_argument("--width", type=int, default=1400, help="image width in pixels (PNG/SVG)")
    parser.add_argument("--row-height", type=int, default=330, help="pixels per data set (PNG/SVG)")
    args = parser.parse_args(argv)
    races = []
    for path in args.races:
        try:
            races.append(json.loads(Path(path).read_text()))
        except (OSError, json.JSONDecodeError) as err:
            parser.error(f"{path}: {err}")
    layout = figure2(races, fold=args.fold)
    html = Path(args.out).suffix.lower() == ".html"
    size = {} if html else {"width": args.width, "height": args.row_height * len(races)}
    print(f"wrote {save(layout, args.out, **size)}")
    print(f"final test NLL and time to settle within 1% of the best (fold {args.fold}):")
    print(settle_table(races, fold=args.fold))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
