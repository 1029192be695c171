"""Tools that serve the dashboard and drive it in headless Chromium: its benchmark (`python -m
explorer.tools.benchmark`), the load test of a class on one server (`python -m explorer.tools.loadtest`) and the
README's screenshots (`python -m explorer.tools.screenshots`).

They stand above both the dashboard and the benchmarks' helpers (`explorer.bench.common`: tables, JSON, pinned BLAS)
and import both; neither imports them, so the dashboard stays above no benchmark (DESIGN §1).
"""

from __future__ import annotations

import socket
from contextlib import contextmanager


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def headless_chromium():
    """A headless Debian Chromium (Playwright, `dashboard.chromium.launch`), closed when the block ends."""
    from playwright.sync_api import sync_playwright

    from explorer.dashboard import chromium

    with sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        yield browser
        browser.close()


@contextmanager
def served_in_chromium(sessions: list | None = None):
    """The app served in this process on a free port of 127.0.0.1 (`serve_in_background`: each session's Dashboard
    appended to `sessions` once built) and a `headless_chromium`: yields (the app's url, the browser); both stop when
    the block ends."""
    from explorer.dashboard import serve_in_background

    port = free_port()
    server = serve_in_background(port, sessions)
    try:
        with headless_chromium() as browser:
            yield f"http://127.0.0.1:{port}/", browser
    finally:
        server.stop()
        server.join()
