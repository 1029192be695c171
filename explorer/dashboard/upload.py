"""Uploaded files on the server: the upload widget whose limits the server keeps (`LimitedFileDropper`) and the
server's pool of processes that parse the files (`parse_in_process`); a session swaps them in through
`changes.Changes`."""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from io import BytesIO

import panel as pn
import param

from explorer.data import datasets

MAX_UPLOAD_BYTES = 10_000_000  # "10MB" for the browser's check (FilePond counts 1 MB as 10**6 bytes)
UPLOAD_CHUNK_BYTES = 1_000_000  # one websocket message per chunk, far below the server's message limit
MAX_NAME_CHARACTERS = 255  # longest file name taken (most file systems' limit)
REFUSED_REMEMBERED = 16  # refused uploads whose remaining chunks are dropped quietly
UPLOAD_PARSERS = 2  # worker processes parsing uploaded files, for the whole server


class UploadRefused(ValueError):
    """An upload message the server does not take; the message says why, in words."""


@dataclass
class _Partial:
    """An upload whose chunks are still arriving."""

    total_chunks: int
    mime_type: str
    last_seen: float
    chunks: list[bytes] = field(default_factory=list)
    received: int = 0

    @property
    def next_chunk(self) -> int:
        return len(self.chunks) + 1


def _megabytes(n_bytes: int) -> str:
    return f"{n_bytes / 1e6:.0f} MB" if n_bytes >= 10**6 else f"{n_bytes:,} bytes"


class LimitedFileDropper(pn.widgets.FileDropper):
    """`pn.widgets.FileDropper` whose limits the server keeps (Panel's checks the file size only in the browser, where
    a visitor can switch it off, and joins whatever chunks arrive): each chunk is checked as it arrives, before it is
    kept — `max_upload_bytes` per upload, `max_session_bytes` in the page's unfinished uploads, `stall_seconds` without
    a chunk, the chunks' order and fields (what each refusal does: README, "The dashboard", Data). Every refusal goes
    to `report(message)` (file names shown as text there). `value` holds each completed file's bytes by name (not
    decoded, whatever its type)."""

    max_upload_bytes = param.Integer(default=MAX_UPLOAD_BYTES, bounds=(1, None), doc="Most bytes of one upload")
    max_session_bytes = param.Integer(
        default=2 * MAX_UPLOAD_BYTES,
        bounds=(1, None),
        doc="Most bytes this page's unfinished uploads may hold together",
    )
    stall_seconds = param.Number(
        default=60.0, bounds=(0.1, None), doc="An unfinished upload that receives nothing for this long is dropped"
    )

    _rename = {"value": None, "max_upload_bytes": None, "max_session_bytes": None, "stall_seconds": None}

    def __init__(self, report, **params):
        """report(message) tells the user why an upload, or a message of one, was refused."""
        params.setdefault("max_file_size", f"{params.get('max_upload_bytes', MAX_UPLOAD_BYTES) // 10**6}MB")
        params.setdefault("chunk_size", UPLOAD_CHUNK_BYTES)
        super().__init__(**params)
        self._report = report
        self._partial: dict[str, _Partial] = {}
        self._refused: list[str] = []  # names whose remaining chunks are dropped unread
        self._watchdog = None

    @property
    def held_bytes(self) -> int:
        """Bytes held by unfinished uploads."""
        return sum(partial.received for partial in self._partial.values())

    def _process_event(self, event) -> None:
        try:
            self._receive(event.event_name, event.data)
        except UploadRefused as refusal:
            self._report(str(refusal))
        self._watch_stalls()

    def _receive(self, kind: str, data) -> None:
        if not isinstance(data, dict):
            raise UploadRefused(f"An upload message arrived without its fields ({type(data).__name__}); ignored.")
        name = data.get("name")
        if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARACTERS:
            raise UploadRefused(
                f"An upload message arrived without a usable file name (a name of 1 to "
                f"{MAX_NAME_CHARACTERS} characters); ignored."
            )
        if kind == "delete_event":  # the user removed the file in the browser
            self._partial.pop(name, None)
            self.value.pop(name, None)
            self.mime_type.pop(name, None)
            self.param.trigger("mime_type", "value")
            return
        self.drop_stalled()
        chunk, total, content, mime = (data.get(key) for key in ("chunk", "total_chunks", "data", "type"))
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (chunk, total)) or not 1 <= chunk <= total:
            raise UploadRefused(
                f"{name}: an upload chunk numbered {chunk!r:.20} of {total!r:.20} is not a chunk of a file; ignored."
            )
        if name in self._refused:
            if chunk == 1:
                self._refused.remove(name)  # a new attempt
            else:
                return  # the rest of an upload that was refused (and reported) already
        if chunk == 1:
            self._start(name, total, mime)
        partial = self._partial.get(name)
        if partial is None:
            raise UploadRefused(
                f"{name}: chunk {chunk} of {total} arrived without the chunks before it; ignored. Drop the file again."
            )
        if chunk != partial.next_chunk or total != partial.total_chunks:
            self._drop(name)
            raise UploadRefused(
                f"{name}: chunk {chunk} of {total} arrived where chunk {partial.next_chunk} of "
                f"{partial.total_chunks} was due; the upload was dropped. Drop the file again."
            )
        if not isinstance(content, (bytes, bytearray, memoryview)):
            self._drop(name)
            raise UploadRefused(
                f"{name}: chunk {chunk} holds {type(content).__name__} instead of the file's bytes; "
                "the upload was dropped."
            )
        if partial.received + len(content) > self.max_upload_bytes:
            self._drop(name)
            raise UploadRefused(
                f"{name}: more than {_megabytes(self.max_upload_bytes)} arrived, over the upload "
                f"limit of {_megabytes(self.max_upload_bytes)}; the upload was dropped."
            )
        if self.held_bytes + len(content) > self.max_session_bytes:
            self._drop(name)
            raise UploadRefused(
                f"{name}: this page's unfinished uploads would hold more than "
                f"{_megabytes(self.max_session_bytes)}; the upload was dropped. Upload one file at "
                "a time."
            )
        partial.chunks.append(bytes(content))
        partial.received += len(content)
        partial.last_seen = time.monotonic()
        if chunk == total:
            self._finish(name)

    def _start(self, name: str, total: int, mime) -> None:
        """Chunk 1 of `name`: forget an earlier unfinished upload of it (and, for a single-file widget, of any other
        file: the browser has replaced it); refuse a file announced in more chunks than the limit allows."""
        for other in list(self._partial):
            if other == name or not self.multiple:
                self._drop(other, remember=False)
        most = math.ceil((self.max_upload_bytes + 1) / self.chunk_size)  # the browser sends size + 1 bytes' worth
        if total > most:
            self._refuse_rest(name)
            raise UploadRefused(
                f"{name}: announced in {total} chunks of {_megabytes(self.chunk_size)}, more than "
                f"the upload limit of {_megabytes(self.max_upload_bytes)} allows; refused."
            )
        self._partial[name] = _Partial(total, mime if isinstance(mime, str) else "", time.monotonic())

    def _finish(self, name: str) -> None:
        partial = self._partial.pop(name)
        self.value[name] = b"".join(partial.chunks)
        self.mime_type[name] = partial.mime_type
        self.param.trigger("mime_type", "value")

    def _drop(self, name: str, remember: bool = True) -> None:
        """Forget the unfinished upload `name` (its memory is freed); its further chunks are dropped unread."""
        self._partial.pop(name, None)
        if remember:
            self._refuse_rest(name)

    def _refuse_rest(self, name: str) -> None:
        if name not in self._refused:
            self._refused = (self._refused + [name])[-REFUSED_REMEMBERED:]

    def drop_stalled(self, now: float | None = None) -> list[str]:
        """Drop every unfinished upload that has received nothing for `stall_seconds` (at time `now`, default the
        monotonic clock), telling the user. Returns their names."""
        now = time.monotonic() if now is None else now
        stalled = [name for name, partial in self._partial.items() if now - partial.last_seen > self.stall_seconds]
        for name in stalled:
            received = self._partial[name].received
            self._drop(name)
            self._report(
                f"{name}: the upload stopped after {_megabytes(received)} and nothing came for "
                f"{self.stall_seconds:g} s; it was dropped. Drop the file again."
            )
        return stalled

    def _watch_stalls(self) -> None:
        """In a served page, check for stalled uploads every half `stall_seconds` while any upload is unfinished."""
        if (
            self._partial
            and self._watchdog is None
            and pn.state.curdoc is not None
            and pn.state.curdoc.session_context is not None
        ):
            self._watchdog = pn.state.add_periodic_callback(self._check_stalls, period=int(500 * self.stall_seconds))
        elif not self._partial and self._watchdog is not None:
            self._watchdog.stop()
            self._watchdog = None

    def _check_stalls(self) -> None:
        self.drop_stalled()
        self._watch_stalls()


# ------------------------------------------------------------------------------------------- the server's parser
def parsing(content: bytes, filename: str, label_column: str) -> partial:
    """The call that parses an uploaded CSV/TSV into (X (n, d), y (n,) class indices, classes (K,), feature names),
    raising DataError (any thread or process): `datasets.read_csv` itself, so that a parser process imports no Panel."""
    return partial(datasets.read_csv, BytesIO(content), label_column, source_name=filename)


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
    """`parsing(…)()` in a process of the server's upload parser (shared by every session: a large file's parse holds
    no GIL of the server). RuntimeError saying to add the main-module guard (`MAIN_GUARD`) when this runs while a
    script without one is imported again to start a parser process."""
    call = parsing(content, filename, label_column)
    try:
        try:
            return await asyncio.wrap_future(upload_parser().submit(call))
        except BrokenProcessPool:  # the parser process died (e.g. killed for memory): one more try in a fresh pool
            return await asyncio.wrap_future(upload_parser(renew=True).submit(call))
    except RuntimeError as err:
        if "bootstrapping phase" not in str(err):  # multiprocessing's words for a process started while importing
            raise
        raise RuntimeError(MAIN_GUARD) from None
