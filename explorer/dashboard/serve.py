"""The served app: the page a session gets (`serve_app`: a light page at once; its Dashboard is built in a page-builder
thread, away from the event loop every visitor shares, and swapped in by `build_page`), the server-wide settings of
the page, `serve_in_background` (tests, benchmarks), and `xgpc-explorer serve` (`serve`): the same page as `panel serve
apps/explorer.py` from an installed package, at `/explorer`, with Tornado's limits on a request raised so that any
link a browser sends up to `MOST_LINK_BYTES` reaches the app (`request_limits`), and `num_procs` server processes
sharing the socket, each with its own sessions, page builders, upload parsers and Dask client (README, "Serving a
class" and "A class past one process").
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache, partial

import panel as pn
from panel.io.resources import get_dist_path
from panel.io.state import set_curdoc
from threadpoolctl import threadpool_limits
from tornado.httputil import ParseBodyConfig, ParseUrlEncodedConfig, set_parse_body_config
from tornado.iostream import StreamClosedError
from tornado.process import task_id
from tornado.websocket import WebSocketClosedError

from explorer.console import listening_problem
from explorer.dashboard import cluster
from explorer.dashboard.app import Dashboard, header
from explorer.dashboard.budget import RefreshBudget
from explorer.dashboard.notices import describe, markdown_text, notify, report, working
from explorer.dashboard.session import forget_views_of

log = logging.getLogger(__name__)
PAGE_BUILDERS = 2  # threads that build sessions' pages, for the whole server: a class opening the link at once queues
_builders = ThreadPoolExecutor(max_workers=PAGE_BUILDERS, thread_name_prefix="xgpc-page")


def _closed_page_is_no_error(loop, context: dict) -> None:
    """asyncio exception handler of the server's loop: a message still on its way to a page that has just closed
    fails with tornado's WebSocketClosedError, which Panel leaves unretrieved when the session ends; that is a
    disconnect (logged by Bokeh and the Dashboard as one line each), not an error. Anything else goes to the default
    handler."""
    if isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
        log.debug("a message to a closed page was dropped")
        return
    loop.default_exception_handler(context)


def _page_failed(error: Exception) -> list:
    """What a page that could not be built shows instead: the reason, as text (never a blank page)."""
    log.error("the page could not be built", exc_info=error)
    return [
        pn.pane.Alert(
            f"**X-GPC Explorer could not start:** {markdown_text(describe(error))}",
            alert_type="danger",
            disable_math=True,
        )
    ]


def build_page(
    page: pn.Column, on_ready: Callable[[Dashboard], None] | None = None, budget: RefreshBudget | None = None
) -> None:
    """Fill `page`, the light page a session was served at once, with a Dashboard built (with its Bokeh models) in a
    page-builder thread (at most PAGE_BUILDERS at a time, for the whole server); only the swap runs on the loop, in a
    next-tick callback, where `on_ready(dashboard)` is called; the Dashboard `start`s in the tick after it. A session
    that ended meanwhile gets its Dashboard closed instead; a failure shows its reason. `budget`: the server's
    `RefreshBudget`, handed to the Dashboard."""
    document = pn.state.curdoc
    root = next(model for model, _ in page._models.values() if model.document is document)
    ended = threading.Event()
    pn.state.on_session_destroyed(lambda context: ended.set())

    def swap(dashboard: Dashboard | None, error: Exception | None) -> None:
        if error is not None:
            page.objects = _page_failed(error)
            return
        if ended.is_set():
            dashboard.close()
            return
        page.objects = [dashboard.layout]  # the models made in the builder are attached, not made again
        if on_ready is not None:
            on_ready(dashboard)
        document.add_next_tick_callback(partial(begin, dashboard))  # a tick of its own: the loop serves others between

    def begin(dashboard: Dashboard) -> None:
        if ended.is_set():
            dashboard.close()
            return
        dashboard.start()
        if dashboard.model.fallback is not None:  # a damaged data file: the page says so until closed
            notify(dashboard.model.fallback, kind="warning", duration=0)

    def build() -> None:
        dashboard = error = None
        with set_curdoc(document):
            if not ended.is_set():
                try:
                    dashboard = Dashboard(start=False, budget=budget)
                    # its Bokeh models, and the defaults Bokeh reads when they join the page, made here, not on the loop
                    dashboard.layout._get_model(document, root, root).references()
                except Exception as err:  # the page says what went wrong
                    error = err
        document.add_next_tick_callback(partial(swap, dashboard, error))  # (Bokeh: safe from any thread)

    _builders.submit(build)


@cache
def freeze_the_imports() -> None:
    """Once per server process, at its first page: collect the garbage, then move every object alive (the modules of
    numpy, SciPy, Bokeh, HoloViews, Panel and ours) to the garbage collector's permanent generation (`gc.freeze`): a
    full collection holds the GIL, stalling every visitor, and now walks only what the sessions made."""
    gc.collect()
    gc.freeze()


def serve_app(on_ready: Callable[[Dashboard], None] | None = None, budget: RefreshBudget | None = None) -> pn.Column:
    """The page for one browser session, with the server-wide settings of the module. Served, a light page at once
    (nothing computed on the event loop, nothing kept for a page that is fetched and never opened) that `build_page`
    fills once it has loaded; elsewhere (a script) the Dashboard at once. `on_ready(dashboard)` once it is built.
    `budget`: the server's `RefreshBudget`, shared by all its sessions (None: each refreshes at its own period)."""
    threadpool_limits(limits=1)
    pn.extension("filedropper", notifications=True, exception_handler=report)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not on the server's loop (e.g. called from a script)
        loop = None
    if loop is not None and loop.get_exception_handler() is None:
        loop.set_exception_handler(_closed_page_is_no_error)
    document = pn.state.curdoc
    if document is not None and document.session_context is not None:
        # A session made by its websocket (several server processes: the page came from another) has no page of its
        # own to tell Panel where its stylesheets are: this server's, not the CDN's, which a class offline lacks.
        document._template_variables.setdefault("dist_url", get_dist_path(cdn=False))
    building = working(pn.pane.Str("Building the page…", styles={"font-weight": "bold"}))
    page = pn.Column(header(), building, sizing_mode="stretch_width")
    if document is not None and document.session_context is not None:
        freeze_the_imports()
        pn.state.onload(partial(build_page, page, on_ready, budget))
        pn.state.on_session_destroyed(lambda context: forget_views_of(document))  # also of a page never opened
        return page
    try:
        dashboard = Dashboard(budget=budget)
    except Exception as err:  # the page still comes up and says what went wrong, never blank
        page.objects = _page_failed(err)
        return page
    page.objects = [dashboard.layout]
    if on_ready is not None:
        on_ready(dashboard)
    return page


def serve_in_background(port: int, sessions: list | None = None, budget: RefreshBudget | None = None, **options):
    """Serve the app on 127.0.0.1:`port` from a background thread (tests, benchmarks), appending each session's
    Dashboard to `sessions` once it is built; `budget`: the server's `RefreshBudget` (default: a new one, as
    `xgpc-explorer serve` makes); `options`: more of `pn.serve`'s. Returns the server; stop it with `.stop()` then
    `.join()`."""
    budget = RefreshBudget() if budget is None else budget
    return pn.serve(
        lambda: serve_app(None if sessions is None else sessions.append, budget),  # (a partial: rendered as a pane)
        port=port,
        address="127.0.0.1",
        threaded=True,
        show=False,
        websocket_origin=[f"127.0.0.1:{port}"],
        **options,
    )


# ------------------------------------------------------------------------------------ xgpc-explorer serve
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
    server = pn.serve(
        {"explorer": lambda: serve_app(budget=budget)},
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
