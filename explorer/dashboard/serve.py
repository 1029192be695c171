"""`xgpc-explorer serve`: the dashboard served by Panel's server from an installed package, no checkout needed.

The same page as `panel serve apps/explorer.py`: one `Dashboard` (its own Model and worker thread) per browser
session, at `/explorer`.
"""

from __future__ import annotations

import panel as pn

from explorer.dashboard.app import serve_app

TITLE = "X-GPC Explorer"


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
    )
