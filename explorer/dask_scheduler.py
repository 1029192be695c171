"""Naming a Dask scheduler: an address is checked where it is given (`bench --scheduler`, `serve --scheduler`,
`XGPC_SCHEDULER`), within a few seconds (`check_scheduler`), and a function's `client` is checked to be an open
`distributed.Client` (`open_client`). Dask is imported only when an address or a client is given.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import time

CHECK_SECONDS = 5.0
"""Longest the check of an address waits for the scheduler's answer (connecting included)."""

ENVIRONMENT_VARIABLE = "XGPC_SCHEDULER"
"""Names the scheduler where no --scheduler flag does."""


def named_scheduler(flag: str | None) -> tuple[str, str] | None:
    """(address, where it was named) of the scheduler a command uses: `flag` (--scheduler) if given, else
    $XGPC_SCHEDULER if set; None if neither names one."""
    if flag:
        return flag, "--scheduler"
    address = os.environ.get(ENVIRONMENT_VARIABLE)
    return (address, f"${ENVIRONMENT_VARIABLE}") if address else None


HOW_TO_START = (
    "To start one: `dask scheduler` (it listens on tcp://HOST:8786) and `dask worker tcp://HOST:8786` for its "
    "workers; Dask comes with the `dask` extra: pip install 'xgpc-explorer[dask]'."
)


class SchedulerError(ValueError):
    """A Dask scheduler's address that is malformed, or where no scheduler answers."""


def check_scheduler(address: str, seconds: float = CHECK_SECONDS, *, named_by: str = "the scheduler") -> str:
    """`address` (as given) once a Dask scheduler there answered Dask's `identity` request within `seconds`.

    Raises `SchedulerError` (one line: `named_by`, e.g. "--scheduler", the address, what failed, how to start a
    scheduler) when Dask is not installed, the address is malformed (no port, a port beyond 1…65535, an unknown
    scheme), the host is unknown, nothing listens there, or what answers is not a Dask scheduler."""
    where = f"{named_by} {address!r}"
    try:
        from distributed.comm import connect
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
    except ImportError:
        raise SchedulerError(
            f"{where}: running on a Dask cluster needs Dask, which is not installed: pip install 'xgpc-explorer[dask]'"
        ) from None
    malformed = f"{where} is not a Dask scheduler's address: write it as tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"
    try:
        scheme, location = parse_address(str(address).strip(), strict=False)
        get_backend(scheme)  # ValueError naming the schemes Dask knows
        host, port = (None, None) if scheme == "inproc" else parse_host_port(location)
        if port is not None and not 1 <= port <= 65535:
            raise ValueError(f"port {port} is beyond 1…65535")
    except (ValueError, TypeError) as err:
        raise SchedulerError(f"{malformed} ({err})") from None
    give_up = time.monotonic() + seconds
    if host is not None:  # first a plain connection: says at once when nothing listens or the host is unknown
        try:
            socket.create_connection((host, port), timeout=seconds).close()
        except socket.gaierror as err:
            raise SchedulerError(
                f"{where}: the host {host!r} is unknown ({err.strerror}); is the address right?"
            ) from None
        except ConnectionRefusedError:
            raise SchedulerError(
                f"{where}: nothing listens on {host} port {port} (connection refused). Is the scheduler running? "
                + HOW_TO_START
            ) from None
        except OSError as err:
            raise SchedulerError(
                f"{where}: cannot connect to {host} port {port} ({err.strerror or type(err).__name__}) within "
                f"{seconds:g} s. Is the scheduler running, and reachable from here? {HOW_TO_START}"
            ) from None

    async def identity() -> dict:
        comm = await connect(address, timeout=seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            await comm.close()

    try:  # on an event loop and a thread of its own: the caller's thread may have a running loop (a notebook) or be
        # about to start one (a server), which this leaves alone
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            wait = asyncio.wait_for(identity(), max(give_up - time.monotonic(), 0.1))
            answer = thread.submit(asyncio.run, wait).result()
    except ValueError as err:  # a scheme Dask does not know, or an address it cannot read
        raise SchedulerError(f"{malformed} ({err})") from None
    except (OSError, TimeoutError):
        raise SchedulerError(
            f"{where}: no Dask scheduler answered within {seconds:g} s. Is it a Dask scheduler's address? "
            + HOW_TO_START
        ) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        kind = answer.get("type") if isinstance(answer, dict) else type(answer).__name__
        raise SchedulerError(f"{where}: what answers there is not a Dask scheduler (a {kind}). {HOW_TO_START}")
    return address


def open_client(client, named_by: str = "client"):
    """`client` if it is an open `distributed.Client`; TypeError for anything else (an address string included:
    connect first, `distributed.Client("tcp://HOST:8786")`), ValueError for a closed client."""
    try:
        from distributed import Client
    except ImportError:
        raise TypeError(
            f"{named_by} must be a distributed.Client, got {type(client).__name__} {client!r}, and Dask is not "
            "installed: pip install 'xgpc-explorer[dask]'"
        ) from None
    if not isinstance(client, Client):
        hint = f"; connect to that scheduler first: distributed.Client({client!r})" if isinstance(client, str) else ""
        raise TypeError(f"{named_by} must be a distributed.Client, got {type(client).__name__} {client!r}{hint}")
    if client.status in ("closing", "closed"):
        raise ValueError(
            f"{named_by}: the Dask client is {client.status}; pass an open one (distributed.Client(ADDRESS), closed "
            "only after the work)"
        )
    return client
