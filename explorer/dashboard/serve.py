"""`xgpc-explorer serve`: the dashboard served by Panel's server from an installed package, no checkout needed.

The same page as `panel serve apps/explorer.py`: one `Dashboard` (its own Model and worker thread) per browser
session, at `/explorer`. One difference: the web server under Panel, Tornado, refuses a long link before any of the app
runs — a query of more than 1,000 parameters gets an empty "400 Bad Request", a request line and headers over 64 KiB
a closed connection — and `panel serve` cannot change that; here the limits are raised (`request_limits`) so that any
link a browser sends up to `MOST_LINK_BYTES` reaches the app, which names in a notification what it cannot use.
"""

from __future__ import annotations

import panel as pn
from tornado.httputil import ParseBodyConfig, ParseUrlEncodedConfig, set_parse_body_config

from explorer.dashboard.app import serve_app

TITLE = "X-GPC Explorer"
MOST_LINK_BYTES = 2 * 1024 * 1024  # Chromium's longest URL; Tornado's default for the request head is 64 KiB
MOST_LINK_PARAMETERS = 20_000  # query parameters Tornado parses (its default 1,000); parsing 20,000 takes ≈ 10 ms


def request_limits() -> dict:
    """The options of `pn.serve` (Bokeh's server) that let a long link reach the app: Tornado reads a request head of
    up to `MOST_LINK_BYTES` plus 64 KiB for the headers, and parses up to `MOST_LINK_PARAMETERS` query parameters
    (for this process: Tornado keeps that limit globally). Longer requests still get Tornado's bare answer."""
    set_parse_body_config(ParseBodyConfig(urlencoded=ParseUrlEncodedConfig(max_arguments=MOST_LINK_PARAMETERS)))
    return {"http_server_kwargs": {"max_header_size": MOST_LINK_BYTES + 64 * 1024}}


def serve(
    port: int = 5006,
    address: str | None = None,
    websocket_origins: list[str] | None = None,
    num_procs: int = 1,
    show: bool = False,
) -> None:
    """Serve the dashboard at http://`address`:`port`/explorer until interrupted.

    Parameters
    ----------
    port : int
        TCP port (0 picks a free one).
    address : str, optional
        Address to listen on (default: all interfaces).
    websocket_origins : list of str, optional
        Hosts (``host[:port]``) the browsers reach the server as; default: localhost on `port`.
    num_procs : int
        Server processes (0: one per core); each browser session lives in one of them.
    show : bool
        Open the page in this machine's browser.
    """
    pn.serve(
        {"explorer": serve_app},
        port=port,
        address=address,
        websocket_origin=websocket_origins,
        num_procs=num_procs,
        show=show,
        title=TITLE,
        threaded=False,
        **request_limits(),
    )
