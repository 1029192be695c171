"""`python -m explorer.tools.screenshots`: the README's pictures of the dashboard's five tabs, made by serving the
app in this process and driving it in headless Chromium ($XGPC_CHROMIUM, default /usr/bin/chromium; see
`explorer.dashboard.chromium`) the way a person would: Train after a few seconds of Play, Data as it opens, MCMC after
"Run MCMC comparison", Race after "Start race", Learn once its last section shows. Each tab is written to
docs/screenshots/<tab>.png (the whole page, `--width` px wide). Rerun it whenever a tab changes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from explorer.bench.common import pinned_blas
from explorer.tools import served_in_chromium

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TABS = ("Train", "Data", "MCMC", "Race", "Learn")  # each is written to <tab in lower case>.png
PLAY_SECONDS = 6.0  # Train: how long the run trains before its picture
WAIT_MS = 600_000  # failsafe for a slow machine, not a measure of speed
SETTLE_MS = 1500  # after the last action: the plots finish drawing


def file_name(tab: str) -> str:
    """The file a tab's picture is written to, as the README links it: train.png, data.png, …"""
    return f"{tab.lower()}.png"


def _act(page, tab: str, play_seconds: float) -> None:
    """What a person does on `tab` before looking at it."""
    if tab == "Train":
        page.get_by_role("button", name="Play").click()
        page.wait_for_timeout(int(1000 * play_seconds))
        page.get_by_role("button", name="Pause").click()
    elif tab == "MCMC":
        page.get_by_role("button", name="Run MCMC comparison").click()
        page.get_by_text("ELBO without augmentation").wait_for(timeout=WAIT_MS)
    elif tab == "Race":
        page.get_by_role("button", name="Start race").click()
        page.get_by_text("Race finished").wait_for(timeout=WAIT_MS)
    elif tab == "Learn":  # its last section on screen: the tab has drawn (it took more than SETTLE_MS under load)
        page.get_by_text("6. One point's augmented logistic-softmax").wait_for(timeout=WAIT_MS)


def take(
    out: Path = DOCS,
    *,
    tabs=TABS,
    width: int = 1400,
    height: int = 1000,
    play_seconds: float = PLAY_SECONDS,
    report=print,
) -> list[Path]:
    """Serve the app, open it in headless Chromium at width × height, and write one full-page PNG per tab in `tabs`
    to `out`. Returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with served_in_chromium() as (url, browser):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        page.get_by_role("button", name="Play").wait_for(timeout=WAIT_MS)
        page.wait_for_timeout(SETTLE_MS)
        for tab in tabs:
            start = time.perf_counter()
            page.locator(".bk-tab", has_text=tab).click()
            page.wait_for_timeout(SETTLE_MS)
            _act(page, tab, play_seconds)
            page.wait_for_timeout(SETTLE_MS)
            path = out / file_name(tab)
            page.screenshot(path=str(path), full_page=True)
            written.append(path)
            report(f"{tab}: {path} ({time.perf_counter() - start:.0f} s)")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m explorer.tools.screenshots",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", type=Path, default=DOCS, help=f"folder for the PNGs (default {DOCS})")
    parser.add_argument("--tabs", nargs="+", choices=TABS, default=list(TABS), help="tabs to picture (default all)")
    parser.add_argument("--width", type=int, default=1400, help="browser window width in px (default 1400)")
    parser.add_argument("--height", type=int, default=1000, help="browser window height in px (default 1000)")
    parser.add_argument(
        "--play-seconds",
        type=float,
        default=PLAY_SECONDS,
        help=f"how long Train plays before its picture (default {PLAY_SECONDS:g})",
    )
    args = parser.parse_args(argv)
    from explorer.dashboard import chromium

    problem = chromium.missing()
    if problem:
        print(f"python -m explorer.tools.screenshots: {problem}", file=sys.stderr)
        return 1
    with pinned_blas(1):
        take(args.out, tabs=args.tabs, width=args.width, height=args.height, play_seconds=args.play_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
