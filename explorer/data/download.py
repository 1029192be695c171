"""Fetching the paper's data sets into the data home (`xgpc-explorer data fetch NAME…`): from a mirror of the
registry's files (checked against their sha256), or from OpenML by id into scikit-learn's cache layout, where
`fetch_openml` then reads them (`fetch`). Every download streams with a progress bar, is written atomically within
an overall deadline, and fails with a `DataError` that says why, leaving nothing half-written (`download`).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import http.client
import json
import os
import posixpath
import socket
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tqdm import tqdm

from explorer.data.readers import MAX_FILE_BYTES
from explorer.data.registry import PAPER_DATASETS, copy_by_hand, data_home, how_to_get, openml_cache_file
from explorer.validation import DataError, show

BLOCK_BYTES = 1 << 16
OPENML_URL = "https://www.openml.org"
DEADLINE_SECONDS = 600.0
"""Longest a single download may take in all (the largest paper file, 3 MB, needs 5 kB/s to make it)."""


def target_folder(directory: Path) -> Path:
    """`directory`, created if missing; DataError naming it when it is a file or cannot be created."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise DataError(f"{directory}: is a file, not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DataError(f"{directory}: cannot create the folder: {err.strerror or err}") from None
    return directory


def mirror_url(mirror: str) -> str:
    """A mirror as a URL: http(s) and file URLs as given, a plain folder (relative or absolute) as its file URL;
    DataError when the folder does not exist."""
    if urllib.parse.urlparse(mirror).scheme.lower() in ("http", "https", "file", "ftp"):
        return mirror
    folder = Path(mirror).expanduser()
    if not folder.is_dir():
        raise DataError(f"mirror {mirror!r}: neither a URL (http, https or file) nor an existing folder")
    return folder.resolve().as_uri()


def download(
    url: str,
    target: Path,
    *,
    expected_sha256: str | None = None,
    progress: bool = True,
    timeout: float = 30.0,
    deadline: float = DEADLINE_SECONDS,
    gzipped: bool = False,
) -> Path:
    """Stream `url` into `target` (via `target.partial`, renamed when complete and, if given, its sha256 matches;
    gzip-compressed as it is written when `gzipped`). At most MAX_FILE_BYTES; each read waits at most `timeout` seconds and the whole download, connecting and the
    server's headers included, at most `deadline` seconds (`_Deadline`: DataError after that, however slowly the
    server trickles its bytes). Returns target."""
    target = Path(target)
    target_folder(target.parent)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    received = 0
    too_slow = (
        "{url}: only {received:,} bytes arrived within the deadline of {deadline:g} s; the server is too slow (try "
        "again later, or another mirror)"
    )
    with _Deadline(deadline) as watch:
        try:
            with watch.opener.open(url, timeout=min(timeout, deadline)) as response:
                length = response.headers.get("Content-Length")
                total = int(length) if length and length.isdigit() else None
                if total is not None and total > MAX_FILE_BYTES:
                    raise DataError(f"{url}: {total:,} bytes is over the limit of {MAX_FILE_BYTES:,}")
                read = getattr(response, "read1", response.read)  # what has arrived, so the deadline is checked often
                meter = dict(total=total, unit="B", unit_scale=True, unit_divisor=1024, disable=not progress)
                meter["desc"] = target.stem if gzipped else target.name
                with (gzip.open if gzipped else open)(partial, "wb") as out, tqdm(**meter, file=sys.stderr) as bar:
                    while block := read(BLOCK_BYTES):
                        received += len(block)
                        if received > MAX_FILE_BYTES:
                            raise DataError(f"{url}: more than {MAX_FILE_BYTES:,} bytes, over the limit")
                        if watch.expired():
                            raise DataError(too_slow.format(url=url, received=received, deadline=deadline))
                        out.write(block)
                        digest.update(block)
                        bar.update(len(block))
            if watch.expired():  # the connection was shut at the deadline: what arrived is cut short
                raise DataError(too_slow.format(url=url, received=received, deadline=deadline))
            if total is not None and received != total:
                raise DataError(f"{url}: the server announced {total:,} bytes but sent {received:,}; it was not kept")
            if expected_sha256 is not None and digest.hexdigest() != expected_sha256:
                raise DataError(
                    f"{url}: the download's sha256 {digest.hexdigest()} differs from the registry's "
                    f"{expected_sha256}; it was not kept"
                )
            os.replace(partial, target)
            return target
        except DataError:
            raise
        except (OSError, http.client.HTTPException) as err:
            if watch.expired():  # whatever the shut connection raised (reading headers, the body)
                raise DataError(too_slow.format(url=url, received=received, deadline=deadline)) from None
            if isinstance(err, urllib.error.HTTPError):
                raise DataError(f"{url}: the server answered {err.code} {err.reason}") from None
            if isinstance(err, urllib.error.URLError):
                raise DataError(
                    f"cannot download {url}: {err.reason}. Is this machine offline, or is the address wrong?"
                ) from None
            raise DataError(f"cannot download {url} into {target}: {type(err).__name__}: {err}") from None
        finally:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)


class _Deadline:
    """An overall deadline for one download: a timer that, `seconds` after entering, shuts every connection its
    `opener` (a urllib opener for http and https) opened, so that a read waiting on a server that trickles its bytes
    — its status line and headers included, which urllib reads with no overall limit — returns at once; a
    connection opened after that is refused. `expired()` says whether it came."""

    def __init__(self, seconds: float):
        self._sockets: list[socket.socket] = []
        self._expired = threading.Event()
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        watch = self

        class Watched:  # a connection refused after the deadline, its socket kept to shut at it (at once if it came)
            def connect(self):
                if watch.expired():
                    raise TimeoutError(f"the deadline of {seconds:g} s came")
                super().connect()
                with watch._lock:
                    watch._sockets.append(self.sock)
                if watch.expired():
                    watch._shut(self.sock)

        Connection = type("Connection", (Watched, http.client.HTTPConnection), {})
        SecureConnection = type("SecureConnection", (Watched, http.client.HTTPSConnection), {})

        class Handler(urllib.request.HTTPHandler):
            def http_open(self, request):
                return self.do_open(Connection, request)

        class SecureHandler(urllib.request.HTTPSHandler):
            def https_open(self, request):
                return self.do_open(SecureConnection, request, context=self._context)

        self.opener = urllib.request.build_opener(Handler, SecureHandler)

    def _expire(self) -> None:
        self._expired.set()
        with self._lock:
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's: wakes a read blocked in TLS too

    def expired(self) -> bool:
        return self._expired.is_set()

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()


def _openml_files(data_id: int, directory: Path, *, progress: bool, openml_url: str, deadline: float) -> None:
    """Download OpenML data set `data_id`'s files with progress bars into scikit-learn's cache layout,
    directory/openml/openml.org/PATH.gz, where `fetch_openml(data_home=directory)` looks before the network."""
    root = directory / "openml" / "openml.org"

    def get(path: str) -> Path:
        inside = posixpath.normpath(path)
        if path.startswith("/") or inside.startswith("..") or inside in (".", ""):
            raise DataError(
                f"OpenML's description names the file path {path!r}, which leaves the download folder {root}; refused"
            )
        cached = root / (inside + ".gz")
        if not cached.exists():
            download(f"{openml_url.rstrip('/')}/{inside}", cached, progress=progress, deadline=deadline, gzipped=True)
        return cached

    description = json.loads(gzip.decompress(get(f"api/v1/json/data/{data_id}").read_bytes()))
    get(f"api/v1/json/data/features/{data_id}")
    get(f"api/v1/json/data/qualities/{data_id}")
    get(urllib.parse.urlparse(description["data_set_description"]["url"]).path.lstrip("/"))


def fetch(
    name: str,
    directory: Path | None = None,
    *,
    mirror: str | None = None,
    progress: bool = True,
    openml_url: str | None = None,
    deadline: float = DEADLINE_SECONDS,
) -> Path:
    """Bring paper set `name` into `directory` (default: the data home, `registry.data_home()`): from `mirror` (a URL
    or a folder holding the registry's files) when given, else from OpenML by its id (at `openml_url`, default
    OPENML_URL). Each download may take `deadline` seconds in all. Returns the file written."""
    if name not in PAPER_DATASETS:
        raise DataError(f"unknown paper data set {show(name)}; the registry has {list(PAPER_DATASETS)}")
    spec = PAPER_DATASETS[name]
    directory = target_folder(data_home() if directory is None else directory)
    if mirror is not None:
        url = mirror_url(mirror).rstrip("/") + "/" + urllib.parse.quote(spec.file)
        return download(url, directory / spec.file, expected_sha256=spec.sha256, progress=progress, deadline=deadline)
    if spec.openml_id is None:
        raise DataError(f"{name}: {how_to_get(name)}")
    from explorer.data.datasets import load_openml

    try:
        _openml_files(
            spec.openml_id, directory, progress=progress, openml_url=openml_url or OPENML_URL, deadline=deadline
        )
    except DataError as err:
        raise DataError(
            f"{name}: fetching OpenML data set {spec.openml_id} failed: {err} Otherwise {copy_by_hand(name)}"
        ) from None
    except (ValueError, KeyError, TypeError, AttributeError, OSError, EOFError) as err:  # not the JSON OpenML sends
        raise DataError(
            f"{name}: OpenML's description of data set {spec.openml_id} cannot be read: {type(err).__name__}: {err}"
        ) from None
    try:
        load_openml(spec.openml_id, one_hot=spec.one_hot, cache=directory)
    except DataError:
        raise
    except Exception as err:  # network, HTTP and OpenML failures all mean the same thing here
        raise DataError(
            f"{name}: fetching OpenML data set {spec.openml_id} failed: {type(err).__name__}: {err}. "
            "Is this machine offline? Otherwise " + copy_by_hand(name)
        ) from None
    return openml_cache_file(spec.openml_id, spec.one_hot, directory)
