"""`xgpc-explorer serve`: the dashboard served by Panel's server from an installed package, no checkout needed.

The same page as `panel serve apps/explorer.py`: one `Dashboard` (its own Model and worker thread) per browser
session, at `/explorer`. One difference: the web server under Panel, Tornado, refuses a long link before any of the app
runs — a query of more than 1,000 parameters gets an empty "400 Bad Request", a request line and headers over 64 KiB
a closed connection — and `panel serve` cannot change that; here the limits are raised (`request_limits`) so that any
link a browser sends up to `MOST_LINK_BYTES` reaches the app, which names in a notification what it cannot use.

**Several processes** (`num_procs`, Linux and macOS): Tornado forks the server into processes sharing the listening
socket. A page's HTTP request and its websocket often land in different processes: the websocket's process then makes
the session anew from the page's token (same session id and link; `serve_app` keeps its stylesheets on this server),
and the session lives there. Everything a process keeps is its own (sessions, page builders, upload parsers, Dask
client); a process that dies takes its sessions with it. The processes end with the first one, and `show` opens one
browser tab.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

import panel as pn
from tornado.httputil import ParseBodyConfig, ParseUrlEncodedConfig, set_parse_body_config
from tornado.process import task_id

from explorer.console import listening_problem
from explorer.dashboard import cluster
from explorer.dashboard.budget import RefreshBudget
from explorer.dashboard.page import serve_app

TITLE = "X-GPC Explorer"
MOST_LINK_BYTES = 2 * 1024 * 1024  # Chromium's longest URL; Tornado's default for the request head is 64 KiB
MOST_LINK_PARAMETERS = 20_000  # query parameters Tornado parses (its default 1,000); parsing 20,000 takes ≈ 10 ms


def request_limits() -> dict:
    """The options of `pn.serve` (Bokeh's server) that let a long link reach the app: Tornado reads a request head of
    up to `MOST_LINK_BYTES` plus 64 KiB for the headers, and parses up to `MOST_LINK_PARAMETERS` query parameters
    (for this process: Tornado keeps that limit globally). Longer requests still get Tornado's bare answer."""
    set_parse_body_config(ParseBodyConfig(urlencoded=ParseUrlEncodedConfig(max_arguments=MOST_LINK_PARAMETERS)))
    return {"http_server_kwargs": {"max_header_size": MOST_LINK_BYTES + 64 * 1024}}


def _end_with_parent() -> None:
    """In a forked server process (Linux): be sent SIGTERM when the process that forked it dies, so that stopping
    `xgpc-explorer serve` (SIGTERM to its first process, e.g. `kill` or a service manager) stops them all: Tornado's
    parent only waits for its children and forwards no signal."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1


def serve(
    port: int = 5006,
    address: str | None = None,
    websocket_origins: list[str] | None = None,
    num_procs: int = 1,
    show: bool = False,
    scheduler: str | None = None,
) -> None:
    """Serve the dashboard at http://`address`:`port`/explorer until interrupted. A port out of range or in use, an
    address that is not this machine's, or more processes than cores raise ValueError before anything starts.

    Parameters
    ----------
    port : int
        TCP port, 0…65535 (0 picks a free one).
    address : str, optional
        Address to listen on (default: all interfaces).
    websocket_origins : list of str, optional
        Hosts (``host[:port]``) the browsers reach the server as; default: localhost on `port`.
    num_procs : int
        Server processes, at most this machine's cores (0: one per core); each browser session lives in one of them.
    show : bool
        Open the page in this machine's browser (once, whatever `num_procs`).
    scheduler : str, optional
        Address of a Dask scheduler ("tcp://host:8786") the sessions' heavy jobs (the MCMC comparison) run on
        (`explorer.dashboard.cluster`; default: $XGPC_SCHEDULER if set, else none: they run in the server).

    Raises
    ------
    explorer.dask_scheduler.SchedulerError
        The scheduler's address is malformed, or no Dask scheduler answers there within a few seconds.
    """
    cores = os.cpu_count() or 1
    if isinstance(port, bool) or port not in range(65536):
        raise ValueError(f"port must be a whole number from 0 to 65535, got {port!r}")
    if isinstance(num_procs, bool) or num_procs not in range(cores + 1):
        raise ValueError(
            f"num_procs must be a whole number from 0 to {cores} (this machine's cores), got {num_procs!r}"
        )
    problem = listening_problem(port, address)
    if problem is not None:
        raise ValueError(problem[1])
    if scheduler is not None:
        cluster.use_scheduler(scheduler)
    cluster.check_at_start()  # a bad address (--scheduler or $XGPC_SCHEDULER): SchedulerError now, not at a job
    if num_procs != 1:
        os.register_at_fork(after_in_child=_end_with_parent)
    budget = RefreshBudget()  # this process's (a forked process has its own copy: its own loop, GIL and sessions)

    def app() -> pn.Column:  # (a function: Panel would render a partial as a pane of its own)
        return serve_app(budget=budget)

    server = pn.serve(
        {"explorer": app},
        port=port,
        address=address,
        websocket_origin=websocket_origins,
        num_procs=num_procs,
        show=False,
        start=False,
        title=TITLE,
        threaded=False,
        **request_limits(),
    )
    if show and not task_id():  # the only process, or the first of several
        server.io_loop.add_callback(server.show, "/explorer")
    server.start()
    server.io_loop.start()
