"""The paper's data sets (Table 1) and where their files are found.

`explorer/data/registry.json` (package data, read through `importlib.resources`, so an installed wheel has it) lists each
set: its file, sha256, size, positive rate, OpenML id, source and quirks. A set's file is looked for in the directories
of `data_locations` (in the order README's first section gives; a `data_dir` argument replaces them), then its OpenML
copy (converted and cached as `openml-ID-ENCODING.npz`) there and in the user cache, and last OpenML when online.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from explorer.validation import DataError

REGISTRY_FILE = resources.files("explorer.data") / "registry.json"  # package data: read the same from a wheel
REPOSITORY = Path(__file__).resolve().parents[2]
IN_CHECKOUT = (REPOSITORY / "pyproject.toml").is_file() and (REPOSITORY / "apps" / "explorer.py").is_file()
PROJECT_DATA_DIR = REPOSITORY / "data" if IN_CHECKOUT else None  # the checkout's data home; none when installed
SHARED_DATA_DIR = REPOSITORY.parent / "shared" / "data"


class ChecksumWarning(UserWarning):
    """A data file's sha256 differs from the registry's: it is not the paper's copy."""


@dataclass(frozen=True)
class PaperDataset:
    """One of the paper's benchmark sets: its file (X (n, d), y (n,) ±1), checksum and provenance."""

    name: str
    file: str
    sha256: str
    n: int
    d: int
    positive_rate: float
    openml_id: int | None  # None: offline copy only
    note: str  # one line for people
    origin: str
    license: str
    sources: tuple[dict, ...]
    quirks: str
    one_hot: bool = False  # how OpenML categorical columns are encoded if the set has to be fetched


def read_registry(path=REGISTRY_FILE) -> dict[str, PaperDataset]:
    """{name: PaperDataset} from the registry file (a path, or an `importlib.resources` traversable); DataError naming the file, the entry and the field when the file
    cannot be read or an entry is not what `PaperDataset` needs (e.g. a file that is not a bare file name)."""
    try:
        source = Path(path) if isinstance(path, (str, os.PathLike)) else path
        document = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise DataError(
            f"{path}: the registry of the paper's data sets cannot be read: {type(err).__name__}: {err}"
        ) from None
    entries = document.get("datasets") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        raise DataError(f'{path}: the registry of the paper\'s data sets has no "datasets" object')
    return {name: _paper_dataset(name, entry, path) for name, entry in entries.items()}


_REGISTRY_FIELDS = {
    "file": str,
    "sha256": str,
    "n": int,
    "d": int,
    "positive_rate": (int, float),
    "openml_id": (int, type(None)),
    "summary": str,
    "origin": str,
    "license": str,
    "sources": list,
    "quirks": str,
    "openml_one_hot": bool,
}


def _paper_dataset(name: str, entry, path) -> PaperDataset:
    """One registry entry as a PaperDataset, its fields checked (DataError naming the entry and the field)."""
    where = f"{path}: entry {name!r}"
    if not isinstance(entry, dict):
        raise DataError(f"{where} is {type(entry).__name__}, not an object")
    for field, kinds in _REGISTRY_FIELDS.items():
        if field not in entry and field != "openml_one_hot":  # the one optional field
            raise DataError(f"{where} has no field {field!r}")
        value = entry.get(field, False)
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds is not bool):
            raise DataError(f"{where}: field {field!r} is {value!r:.60}, of the wrong kind")
    file = entry["file"]
    if Path(file).name != file or file in ("", ".", ".."):
        raise DataError(f"{where}: file {file!r} must be a bare file name, without folders")
    if re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]) is None:
        raise DataError(f"{where}: sha256 {entry['sha256']!r:.80} is not 64 hexadecimal digits")
    if entry["n"] < 1 or entry["d"] < 1:
        raise DataError(f"{where}: n = {entry['n']} and d = {entry['d']} must be ≥ 1")
    if not all(
        isinstance(source, dict) and all(key in source for key in ("repository", "path")) for source in entry["sources"]
    ):
        raise DataError(f"{where}: every source needs a repository and a path")
    same = ("sha256", "n", "d", "positive_rate", "openml_id", "origin", "license", "quirks")  # named as in the file
    return PaperDataset(
        name, file, note=entry["summary"], sources=tuple(entry["sources"]),
        one_hot=entry.get("openml_one_hot", False), **{key: entry[key] for key in same},
    )  # fmt: skip


def registry_or_problem(path: Path = REGISTRY_FILE) -> tuple[dict[str, PaperDataset], str | None]:
    """The registry (`read_registry`), or, when it is damaged, no paper sets and the problem in words (also given
    as a RuntimeWarning): the built-in sets, uploads and everything else keep working meanwhile."""
    try:
        return read_registry(path), None
    except DataError as err:
        problem = (
            f"{err}. The paper's data sets are unavailable until the file is repaired (reinstall the "
            f"package, or in a checkout `git checkout explorer/data/registry.json`)"
        )
        warnings.warn(problem, RuntimeWarning, stacklevel=2)
        return {}, problem


PAPER_DATASETS, REGISTRY_PROBLEM = registry_or_problem()


def cache_dir() -> Path:
    """Where OpenML downloads and their converted arrays are kept: $XGPC_CACHE_DIR, else ~/.cache/xgpc-explorer."""
    return Path(os.environ.get("XGPC_CACHE_DIR") or Path.home() / ".cache" / "xgpc-explorer")


def openml_cache_file(data_id: int, one_hot: bool, directory: Path) -> Path:
    return Path(directory) / f"openml-{data_id}-{'onehot' if one_hot else 'ordinal'}.npz"


def data_home() -> Path:
    """Where downloads and generated files go: $XGPC_DATA_DIR when set, else the checkout's `data/`, else (an
    installed package) the user cache. Never the installed package's own folder."""
    if os.environ.get("XGPC_DATA_DIR"):
        return Path(os.environ["XGPC_DATA_DIR"])
    return PROJECT_DATA_DIR if PROJECT_DATA_DIR is not None else cache_dir()


def examples_dir() -> Path:
    """Where `xgpc-explorer data examples` writes the example files: `examples/` in the data home (a checkout's are
    committed in `data/examples/`)."""
    return data_home() / "examples"


def data_locations(data_dir=None) -> list[tuple[str, Path]]:
    """The directories searched for a paper set's file, in order, each with how it was chosen."""
    if data_dir is not None:
        return [("the data_dir argument", Path(data_dir))]
    found = []
    if os.environ.get("XGPC_DATA_DIR"):
        found.append(("$XGPC_DATA_DIR", Path(os.environ["XGPC_DATA_DIR"])))
    if PROJECT_DATA_DIR is not None:
        found.append(("the project's data/", PROJECT_DATA_DIR))
        if SHARED_DATA_DIR.is_dir():
            found.append(("../shared/data beside the checkout", SHARED_DATA_DIR))
    found.append(("the user cache", cache_dir()))
    return found


def sha256_of(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def check_checksum(spec: PaperDataset, path: Path) -> bool:
    """True when the file is the registry's copy; else warn (ChecksumWarning) naming both checksums."""
    actual = sha256_of(path)
    if actual == spec.sha256:
        return True
    warnings.warn(
        f"{path}: sha256 {actual} differs from the registry's {spec.sha256} for {spec.name!r}; this is "
        "not the paper's copy (modified, re-converted or corrupt), using it anyway",
        ChecksumWarning,
        stacklevel=3,
    )
    return False


def find_paper_file(name: str, data_dir=None) -> Path | None:
    """The first copy of a paper set's registry file in `data_locations`, or None."""
    candidates = (directory / PAPER_DATASETS[name].file for _, directory in data_locations(data_dir))
    return next(filter(Path.is_file, candidates), None)


def find_openml_copy(name: str, data_dir=None) -> Path | None:
    """A converted OpenML copy of a paper set in the data directories or the user cache, or None."""
    spec = PAPER_DATASETS[name]
    if spec.openml_id is None:
        return None
    directories = [directory for _, directory in data_locations(data_dir)] + [cache_dir()]
    candidates = (openml_cache_file(spec.openml_id, spec.one_hot, directory) for directory in directories)
    return next(filter(Path.is_file, candidates), None)


def copy_by_hand(name: str) -> str:
    """How to get a paper set's file without OpenML (one line), naming the data home this process really uses
    (`data_home`) and the console command `xgpc-explorer` (which an editable install of a checkout has too)."""
    spec = PAPER_DATASETS[name]
    return (
        f"put {spec.file} (sha256 {spec.sha256[:12]}…) into the data home {data_home()} (or set $XGPC_DATA_DIR to "
        f"a folder holding it), or run `xgpc-explorer data fetch {name} --from URL` with a mirror of the files"
    )


def how_to_get(name: str) -> str:
    """What a user can do to get a paper set that is missing here (one line)."""
    spec = PAPER_DATASETS[name]
    put = copy_by_hand(name)
    if spec.openml_id is not None:
        return f"run `xgpc-explorer data fetch {name}` (OpenML {spec.openml_id}, needs the network), or {put}"
    source = "; ".join(f"{s['repository']}: {s['path']}" for s in spec.sources)
    return f"no OpenML copy: {put}; source {source}"


def paper_availability(data_dir=None) -> list[dict]:
    """One dict per paper set: name, available (bool), location (str or None), how_to_get (str)."""
    locations = {name: find_paper_file(name, data_dir) or find_openml_copy(name, data_dir) for name in PAPER_DATASETS}
    return [
        {"name": name, "available": at is not None, "location": at and str(at), "how_to_get": how_to_get(name)}
        for name, at in locations.items()
    ]
