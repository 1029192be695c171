"""A self-contained HTML page of a race (Bokeh with inline resources: it opens offline): the verdict in words and its
table, the one the Race tab and `bench race` give (`explorer.studies.race.judge` on the JSON's traces), and the race
curves (`views.race.race_curves`). `bench race` writes the JSON and draws nothing; this renders it:

    python -m explorer.dashboard.race_report race-a9a.json race-a9a.html
"""

from __future__ import annotations

import argparse
import html
import json
from pathlib import Path

import panel as pn
from bokeh.resources import INLINE

from explorer.views.race import judged, race_curves, race_fold


def race_report_from_json(json_path: str | Path, html_path: str | Path, fold: int = 1) -> Path:
    """Render fold `fold` (1-based) of a race JSON written by `python -m explorer bench race` as an HTML page: the
    title, the verdict in words and its table (`Verdict.words`, `Verdict.table`), then the curves."""
    payload = json.loads(Path(json_path).read_text())
    try:
        race = race_fold(payload, fold)
    except ValueError as err:
        raise ValueError(f"{json_path}: {err}") from None
    config = payload.get("config", {})
    verdict = judged(race, budget=config.get("seconds"))
    title = f"Race on {config.get('dataset', '?')} (fold {fold}, protocol {config.get('protocol', '?')})"
    texts = (f"## {title}", verdict.words(), verdict.table())  # escaped: the JSON's names are not HTML
    page = pn.Column(*map(html.escape, texts), pn.pane.HoloViews(race_curves(payload, fold=fold), backend="bokeh"))
    page.save(html_path, resources=INLINE, title=html.escape(title))
    return Path(html_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m explorer.dashboard.race_report",
        description="Draw a race JSON (python -m explorer bench race) as an HTML page",
    )
    parser.add_argument("json_path", help="the race's JSON")
    parser.add_argument("html_path", help="the page to write")
    parser.add_argument("--fold", type=int, default=1, help="which fold to draw (default 1)")
    args = parser.parse_args(argv)
    print(f"wrote {race_report_from_json(args.json_path, args.html_path, args.fold)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
