"""Fetching the paper's data sets into the project's `data/` (`python -m explorer data fetch NAME…`).

Two routes: a mirror of the registry's files (`--from URL`, http(s) or file; each download streamed with a progress
bar, checked against the registry's sha256 and written atomically), or OpenML by id through scikit-learn's
`fetch_openml` (its raw files and the converted arrays `openml-ID-ENCODING.npz` land in the data directory).
Without a network both fail with a `DataError` that says so; nothing half-written is left behind.
"""
from __future__ import annotations

import hashlib
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tqdm import tqdm

from explorer.readers import MAX_FILE_BYTES
from explorer.registry import PAPER_DATASETS, PROJECT_DATA_DIR, copy_by_hand, how_to_get, openml_cache_file
from explorer.validation import DataError, show

BLOCK_BYTES = 1 << 16


def download(url: str, target: Path, *, expected_sha256: str | None = None, progress: bool = True,
             timeout: float = 30.0) -> Path:
    """Stream `url` into `target` (via `target.partial`, renamed when complete and, if given, its sha256 matches).
    At most MAX_FILE_BYTES. Returns target."""
    target = Path(target)
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if total is not None and total > MAX_FILE_BYTES:
                raise DataError(f"{url}: {total:,} bytes is over the limit of {MAX_FILE_BYTES:,}")
            target.parent.mkdir(parents=True, exist_ok=True)
            received = 0
            with open(partial, "wb") as out, tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024,
                                                  desc=target.name, disable=not progress, file=sys.stderr) as bar:
                while block := response.read(BLOCK_BYTES):
                    received += len(block)
                    if received > MAX_FILE_BYTES:
                        raise DataError(f"{url}: more than {MAX_FILE_BYTES:,} bytes, over the limit")
                    out.write(block)
                    digest.update(block)
                    bar.update(len(block))
        if expected_sha256 is not None and digest.hexdigest() != expected_sha256:
            raise DataError(f"{url}: the download's sha256 {digest.hexdigest()} differs from the registry's "
                            f"{expected_sha256}; it was not kept")
        os.replace(partial, target)
        return target
    except urllib.error.HTTPError as err:
        raise DataError(f"{url}: the server answered {err.code} {err.reason}") from None
    except urllib.error.URLError as err:
        raise DataError(f"cannot download {url}: {err.reason}. Is this machine offline, or is the address "
                        "wrong?") from None
    except (OSError, TimeoutError) as err:
        raise DataError(f"cannot download {url} into {target}: {type(err).__name__}: {err}") from None
    finally:
        partial.unlink(missing_ok=True)


def fetch(name: str, directory: Path = PROJECT_DATA_DIR, *, mirror: str | None = None,
          progress: bool = True) -> Path:
    """Bring paper set `name` into `directory`: from `mirror` (a URL holding the registry's files) when given,
    else from OpenML by its id. Returns the file written."""
    if name not in PAPER_DATASETS:
        raise DataError(f"unknown paper data set {show(name)}; the registry has {list(PAPER_DATASETS)}")
    spec = PAPER_DATASETS[name]
    directory = Path(directory)
    if mirror is not None:
        url = mirror.rstrip("/") + "/" + urllib.parse.quote(spec.file)
        return download(url, directory / spec.file, expected_sha256=spec.sha256, progress=progress)
    if spec.openml_id is None:
        raise DataError(f"{name}: {how_to_get(name)}")
    from explorer.datasets import load_openml

    print(f"{name}: fetching OpenML data set {spec.openml_id} through scikit-learn into {directory} …",
          file=sys.stderr)
    try:
        load_openml(spec.openml_id, one_hot=spec.one_hot, cache=directory)
    except DataError:
        raise
    except Exception as err:  # network, HTTP and OpenML failures all mean the same thing here
        raise DataError(f"{name}: fetching OpenML data set {spec.openml_id} failed: {type(err).__name__}: {err}. "
                        "Is this machine offline? Otherwise " + copy_by_hand(name)) from None
    return openml_cache_file(spec.openml_id, spec.one_hot, directory)
