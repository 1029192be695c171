"""The server's upload parser: a pool of worker processes, shared by every session, that parse uploaded files, so
that a large file's parse holds no GIL of the server and does not slow the other sessions. It only reads bytes into
arrays (`datasets.read_csv`, no Panel imported there): no session state."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from io import BytesIO

from explorer.data import datasets

UPLOAD_PARSERS = 2  # worker processes parsing uploaded files, for the whole server


def _csv_reading(content: bytes, filename: str, label_column: str) -> partial:
    """The call that reads an uploaded file: `datasets.read_csv` itself, so that a parser process imports no Panel."""
    return partial(datasets.read_csv, BytesIO(content), label_column, source_name=filename)


def parse_upload(content: bytes, filename: str, label_column: str) -> tuple:
    """An uploaded CSV/TSV as (X (n, d), y (n,) class indices, classes (K,), feature names); raises DataError (any
    thread)."""
    return _csv_reading(content, filename, label_column)()


_parser: ProcessPoolExecutor | None = None
_parser_lock = threading.Lock()


def upload_parser(renew: bool = False) -> ProcessPoolExecutor:
    """The server's pool of `UPLOAD_PARSERS` processes that parse uploaded files (started on first use, "spawn":
    safe in a threaded server; `renew`: replace a pool whose process died)."""
    global _parser
    with _parser_lock:
        if _parser is None or renew:
            _parser = ProcessPoolExecutor(UPLOAD_PARSERS, mp_context=multiprocessing.get_context("spawn"))
        return _parser


MAIN_GUARD = (
    "uploads are read in a separate process, which Python starts by running your script again (the 'spawn' start "
    "method), so the script's code that starts the server ran a second time there; put that code under "
    '`if __name__ == "__main__":` in your script and start it again'
)


async def parse_in_process(content: bytes, filename: str, label_column: str) -> tuple:
    """`parse_upload` in a process of the upload parser. RuntimeError saying to add the main-module guard
    (`MAIN_GUARD`) when this runs while a script without one is imported again to start a parser process."""
    call = _csv_reading(content, filename, label_column)
    try:
        try:
            return await asyncio.wrap_future(upload_parser().submit(call))
        except BrokenProcessPool:  # the parser process died (e.g. killed for memory): one more try in a fresh pool
            return await asyncio.wrap_future(upload_parser(renew=True).submit(call))
    except RuntimeError as err:
        if "bootstrapping phase" not in str(err):  # multiprocessing's words for a process started while importing
            raise
        raise RuntimeError(MAIN_GUARD) from None
