"""Debian's Chromium, headless, for what drives the served app in a browser (the browser tests, the served-dashboard
benchmark, the README screenshots): Playwright cannot download its own browser here, so it launches this one.

Its path is $XGPC_CHROMIUM, else /usr/bin/chromium (Debian's package `chromium`).
"""

from __future__ import annotations

import os
from pathlib import Path

ENVIRONMENT_VARIABLE = "XGPC_CHROMIUM"
DEFAULT_PATH = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def executable() -> Path:
    """The Chromium to launch: $XGPC_CHROMIUM, else /usr/bin/chromium (whether or not it exists)."""
    return Path(os.environ.get(ENVIRONMENT_VARIABLE) or DEFAULT_PATH)


def missing() -> str | None:
    """Why no browser can be launched (one line), or None when `executable()` is a file."""
    path = executable()
    if path.is_file():
        return None
    chosen = f"${ENVIRONMENT_VARIABLE}" if os.environ.get(ENVIRONMENT_VARIABLE) else "the default"
    return (
        f"no Chromium at {path} ({chosen}): install Debian's `chromium` package or set {ENVIRONMENT_VARIABLE} "
        "to a Chromium executable"
    )


def launch(playwright):
    """A headless Chromium browser from a running `sync_playwright()`; a missing executable raises FileNotFoundError
    saying where it looked and what to do."""
    problem = missing()
    if problem:
        raise FileNotFoundError(problem)
    return playwright.chromium.launch(executable_path=str(executable()), headless=True, args=ARGS)
