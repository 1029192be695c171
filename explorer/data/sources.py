"""Where an engine's training rows come from: a data source hands out minibatches by row index, so the SVI loop never
needs the whole training set as one contiguous array in memory.

A source has `n` (rows), `d` (features), `n_classes` (highest class index + 1), `label_values` (the distinct labels
its rows hold, sorted), `batch(index) -> (X_b (s, d) float64 C-contiguous, y_b (s,) int64 class indices 0…K−1)`
(DESIGN §1: a binary method writes them as ±1 in its own equations, at the engine),
`sample(rng, s) -> index (s,)` (a fresh minibatch of distinct rows) and `chunks(size)` (all rows as consecutive
index blocks, for the full-set ELBO and evaluation). Every source draws minibatches with `minibatch_indices`, so two
engines given the same seed see the same rows whatever their method.

The sources here, and where each keeps its labels:

- `ArraySource`: arrays X (n, d), y (n,) in memory.
- `NpySource`: X (n, d) in one `.npy` file, y (n,) in a second one (`open_source` looks for `<stem>_labels.npy`
  beside `<stem>.npy` unless told), both opened read-only: a minibatch reads its s rows from disk (`os.pread`), a
  pass over all rows reads consecutive blocks through a memory map, so resident memory stays bounded.
- `ZarrSource`: a Zarr group (a `.zarr` directory) holding the arrays `X` (n, d) and `y` (n,), as an `.npz` does; a
  minibatch reads the chunks that hold its rows, so chunk the rows finely (1,000-10,000 rows per chunk) for SVI.
- `ParquetSource`: a Parquet table whose label column (`label_column`, default the one column named label, y, class
  or target) holds the class indices and whose other columns are the features. Parquet has no random row access,
  so the table is read once, batch by batch, into an `NpySource` in a cache folder (temporary unless named): that
  takes disk, not memory.

`open_source(path)` picks one by the path's extension. Zarr and Parquet need the optional extra
`pip install 'xgpc-explorer[ooc]'` (zarr, pyarrow); the core install does not.

What a run does with a source (`recipe.start_run`) without ever loading all rows: it standardises with the exact
mean and sd computed in one pass over consecutive chunks (`chunked_standardizer`, Chan et al.'s pairwise update;
equal to the in-memory statistics up to rounding) and applies them to each minibatch as it is read (`ScaledSource`);
it chooses the inducing points by k-means++ on a seeded sample of at most `INDUCING_SAMPLE_ROWS` rows
(`inducing_sample`: all rows, and so the in-memory Z, when there are no more). `SubsetSource` is a view of some rows
(a hold-out split, `split_source`).

A file's labels are whole numbers ≥ 0 that need not be 0…K−1: labels 1 and 2, or 0, 1 and one stray 1,000,000. The
faces train on the K distinct values the file holds (counted in the check's pass, at most `MAX_CLASSES`), mapped to
0…K−1 in sorted order as `validation.encode_labels` maps labels in memory (`encoded_source`, an `EncodedSource`
view), so a file and the same rows in memory give the same classes and the same model.

Another backend — a Dask array, an HDF5 store, a database cursor — plugs in by subclassing `DataSource` and
implementing `n`, `d` and `batch` (and `labels` to read the labels alone); `sample` and `chunks` come with the base
class (override `sample` only to read blocks, e.g. contiguous chunks of a remote store, and accept that its
minibatches then differ from the other sources').
"""

from __future__ import annotations

import importlib
import mmap
import os
import tempfile
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from explorer.data.readers import DEFAULT_LABEL_NAMES, NPY_MAGIC, NPY_READ_ERRORS, regular_file
from explorer.inputs import STANDARDISED, bounded_features, class_indices, labelled_data
from explorer.scaling import Standardizer
from explorer.validation import DataError, show, show_list

CHUNK_ROWS = 65536
"""Rows per block when a source is read through (statistics, labels, evaluation)."""
INDUCING_SAMPLE_ROWS = 100_000
"""Most rows k-means++ sees when it chooses the inducing points of a source (a seeded sample above that)."""
OOC_EXTRA = "pip install 'xgpc-explorer[ooc]'"
MAX_CLASSES = 1000
"""Most distinct labels a source's labels may hold: they are counted block by block in one pass, in memory bounded by
this many values, and more is not a column of class labels (a model has one latent function per class)."""


def minibatch_indices(rng: np.random.Generator, n: int, s: int) -> np.ndarray:
    """s distinct rows of n (s,), in no particular order (an SVI step only sums over them); all n rows in order
    when s = n, drawing nothing. The one minibatch rule of every method."""
    if s == n:
        return np.arange(n)
    return rng.choice(n, s, replace=False, shuffle=False)


class DataSource:
    """Base class of the training-data sources; subclasses define `n`, `d` and `batch(index)`. The SVI loop, the
    ELBO and prediction need nothing else. Callers that want the whole set at once (the MCMC comparison on ≤ 2,000
    rows, `XGPClassifier.partial_fit`) read the attributes `X` and `y`, which both sources here offer."""

    n: int
    d: int

    def __len__(self) -> int:
        return self.n

    @property
    def shape(self) -> tuple[int, int]:
        """(n, d), as an array's."""
        return self.n, self.d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows `index` (s,): X_b (s, d) float64 C-contiguous, y_b (s,) int64 class indices 0…K−1."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, s: int) -> np.ndarray:
        """A fresh minibatch of s distinct row indices (`minibatch_indices`)."""
        return minibatch_indices(rng, self.n, s)

    @cached_property
    def n_classes(self) -> int:
        """The number of classes the labels span, highest class index + 1 (reads every row once, in blocks; the
        sources here know it from their check)."""
        return 1 + int(np.max(self.labels()))

    @cached_property
    def label_values(self) -> np.ndarray:
        """The distinct labels the rows hold, sorted (k,) int64, counted block by block (`LabelCount`; the file
        sources count them in their check's pass)."""
        labels, count = self.labels(), LabelCount(self)
        for start, stop in _blocks(self.n, CHUNK_ROWS):
            count.add(labels[start:stop], start)
        return count.values

    def labels(self) -> np.ndarray:
        """All n labels (n,) int64 class indices, read in blocks (subclasses read the labels alone)."""
        return np.concatenate([self.batch(rows)[1] for rows in self.chunks(CHUNK_ROWS)])

    def label_location(self, row: int) -> str:
        """Where the label of row `row` is kept, for messages: e.g. "rows_labels.npy row 12 (0-based)" (the file, and
        the array or column in it, and the row there)."""
        return f"y row {row} (0-based)"

    def chunks(self, size: int, rows: np.ndarray | None = None) -> Iterator[np.ndarray]:
        """Consecutive blocks of at most `size` indices of `rows` (default: all n rows, made block by block: an index
        of all 10⁸ rows would take 800 MB)."""
        if rows is None:
            for start, stop in _blocks(self.n, size):
                yield np.arange(start, stop)
            return
        rows = np.asarray(rows)
        for start in range(0, len(rows), size):
            yield rows[start : start + size]


class ArraySource(DataSource):
    """Training rows held in memory: X (n, d), y (n,) class indices 0…K−1 (checked and converted by
    `inputs.labelled_data`); `n_classes` K when the model has classes the rows do not hold (default: highest index
    + 1)."""

    def __init__(self, X, y, *, d: int | None = None, n_classes: int | None = None):
        self.X, self.y = labelled_data(X, y, d=d)
        self.n, self.d = self.X.shape
        self.label_values = np.unique(self.y)
        highest = int(self.label_values[-1])
        if n_classes is not None and n_classes <= highest:
            raise DataError(f"y holds the class index {highest}, beyond the {n_classes} classes 0…{n_classes - 1}")
        self.n_classes = highest + 1 if n_classes is None else int(n_classes)

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.X[index], self.y[index]

    def labels(self) -> np.ndarray:
        return self.y


class NpySource(DataSource):
    """Training rows in two `.npy` files, X (n, d) real numbers (float32 keeps the file half the size; rows are
    handed out as float64) and y (n,) labels, whole numbers ≥ 0 (the faces map them to class indices 0…K−1,
    `encoded_source`), opened read-only (`np.load(mmap_mode='r')` for the headers and the passes over consecutive
    rows): a minibatch reads s rows from disk, so n may exceed memory.

    Checked once when opened, as `ArraySource` checks arrays, and in blocks of about `CHECK_BYTES` so a large map stays
    cheap: both files are regular `.npy` files (no pickles) holding what their headers promise; X is 2-D of real
    numbers, every entry finite and within ±`inputs.FEATURE_LIMIT`; y holds whole numbers ≥ 0
    (`inputs.class_indices`) for the same n rows, at most `MAX_CLASSES` distinct ones (`label_values`). Every error
    is a `DataError` naming the file (and the row and column of a bad value). `check=False` skips the value checks,
    for files this package has just written and checked (`ParquetSource`).

    Resident memory stays bounded however many rows a run reads. A minibatch's rows are read with `os.pread`, one
    row each (the files' C-order rows are contiguous records), not through the map: a page fault maps a whole large
    folio of the page cache (up to 2 MiB), so 5,000 minibatches of 100 random rows of a 7.2 GB file left 3.3 GB
    resident through the map. Consecutive rows (the check, the chunked passes) are read through the map, whose pages
    are given back (`madvise(MADV_DONTNEED)`; they stay in the kernel's page cache) after `RELEASE_BYTES`.

    The map reads the files as they are on disk during the run, so every `batch` first checks (`os.stat`, two calls)
    that neither file has changed since it was opened — its size, modification time (ns) and inode (`FileStamp`) — and
    raises DataError naming the file if one has (rewritten in place, replaced, truncated): the rows read would no
    longer be the rows checked and trained on. A file truncated by another program between that check and the read
    still ends the process with SIGBUS, and a rewrite within the file system's timestamp resolution keeping the size
    goes unseen. Keep the files unchanged while a run uses them (or copy them first)."""

    CHECK_BYTES = 1 << 25  # 32 MiB of X per block (a few times that at the peak of the check)
    RELEASE_BYTES = 1 << 26  # 64 MiB of consecutive rows read through the map before its pages are given back

    def __init__(self, X_path, y_path, *, check: bool = True):
        self.X_path, self.y_path = Path(X_path), Path(y_path)
        self._open_files()
        if self.X.ndim != 2 or self.y.ndim != 1 or len(self.X) != len(self.y):
            raise DataError(
                f"{X_path} must hold X (n, d) and {y_path} y (n,) with the same n; "
                f"got X {self.X.shape}, y {self.y.shape}"
            )
        if len(self.X) == 0 or self.X.shape[1] == 0:
            raise DataError(f"{X_path}: X {self.X.shape} has no rows or no columns")
        self.n, self.d = self.X.shape
        self._touched, self._open = 0, None
        if check:
            count = LabelCount(self)
            for start, stop in _blocks(self.n, max(1, self.CHECK_BYTES // (8 * self.d))):
                where = f"{self.X_path}: X" + (f" (block of rows from index {start})" if start else "")
                bounded_features(self._read(slice(start, stop)), where)
                count.add(class_indices(self.y[start:stop], f"{self.y_path}: y", first_row=start), start)
            self.label_values, self.n_classes = count.values, count.n_classes

    def _read(self, rows: slice) -> np.ndarray:
        """The consecutive rows X[rows] as float64 C-contiguous, through the map, whose pages are given back past
        `RELEASE_BYTES` read."""
        block = np.array(self.X[rows], dtype=float, order="C")  # a copy: the map's pages are read here
        self._touched += block.shape[0] * self.X.itemsize * self.d
        if self._touched >= self.RELEASE_BYTES:
            for array in (self.X, self.y):
                if isinstance(array.base, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
                    array.base.madvise(mmap.MADV_DONTNEED)
            self._touched = 0
        return block

    def _open_files(self) -> None:
        """Map both files (`_open_npy`) and keep their stamps."""
        self.X, X_stamp = _open_npy(self.X_path)
        self.y, y_stamp = _open_npy(self.y_path)
        self._stamps = (X_stamp, y_stamp)

    def _check_unchanged(self) -> None:
        """DataError naming the file if either file's `FileStamp` differs from the one it had when opened."""
        for path, was in zip((self.X_path, self.y_path), self._stamps):
            try:
                now = FileStamp.of(os.stat(path))
            except OSError as err:
                raise DataError(f"{path}: the file is gone since the run opened it ({err.strerror})") from None
            if now.size < was.size:
                raise DataError(
                    f"{path}: the file has become shorter than {was.size:,} bytes since it was "
                    "opened (another program truncated it); the run cannot read its rows"
                )
            if now != was:
                change = "replaced by another file" if now.inode != was.inode else "rewritten"
                raise DataError(
                    f"{path}: the file was {change} since the run opened it ({was.size:,} bytes then, {now.size:,} "
                    "now); its rows are no longer those checked and trained on, so the run stops here. Keep the file "
                    "unchanged while a run uses it (or copy it first); to train on the new rows, open it again and "
                    "start a new run"
                )

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self._check_unchanged()
        index = np.asarray(index)
        if len(index) and index[-1] - index[0] == len(index) - 1 and np.all(np.diff(index) == 1):
            rows = slice(int(index[0]), int(index[-1]) + 1)
            return self._read(rows), np.asarray(self.y[rows], dtype=np.int64)
        if self.X.flags.f_contiguous and self.d > 1:  # a Fortran-order file: a row is not one record
            return np.ascontiguousarray(self.X[index], dtype=float), np.asarray(self.y[index], dtype=np.int64)
        X_file, y_file = self._files()
        X_b = _pread_rows(X_file, self.X, index, self.X_path).astype(float)
        return X_b, _pread_rows(y_file, self.y, index, self.y_path).astype(np.int64)

    def _files(self):
        """The two files opened for `os.pread` (unbuffered), opened at first use."""
        if self._open is None:
            self._open = (open(self.X_path, "rb", buffering=0), open(self.y_path, "rb", buffering=0))
        return self._open

    def __getstate__(self) -> dict:
        """The source as its two paths and their layout, not its rows (a Dask task or a copy reopens the files)."""
        state = {**self.__dict__, "_open": None, "_touched": 0}
        state["X"] = state["y"] = None
        state["_layout"] = self._layout()
        return state

    def __setstate__(self, state: dict) -> None:
        """Reopen the files of a pickled source (no check of the values: they were checked when it was first opened);
        DataError naming the file if it is not there or no longer has the layout it had (shape, dtype, size)."""
        layout = state.pop("_layout")
        self.__dict__.update(state)
        self._open_files()
        for path, was, now in zip((self.X_path, self.y_path), layout, self._layout()):
            if now != was:
                raise DataError(
                    f"{path}: the file has changed since the source was opened (it held {was[0]} {was[1]} in "
                    f"{was[2]:,} bytes, now {now[0]} {now[1]} in {now[2]:,}); open it again"
                )

    def _layout(self) -> tuple[tuple, tuple]:
        """(shape, dtype, file size) of X's file and of y's."""
        X_stamp, y_stamp = self._stamps
        return (self.X.shape, str(self.X.dtype), X_stamp.size), (self.y.shape, str(self.y.dtype), y_stamp.size)

    def labels(self) -> np.ndarray:
        return np.asarray(self.y, dtype=np.int64)

    def label_location(self, row: int) -> str:
        return f"{self.y_path}: y row {row} (0-based)"


class LabelCount:
    """The distinct labels of a source, counted block by block in one pass (`add` each block of class indices and
    its first row), in memory bounded by `MAX_CLASSES` values: DataError naming the label file (`label_location`)
    and the row of the first label beyond that many."""

    def __init__(self, source: DataSource):
        self.source, self.values = source, np.zeros(0, dtype=np.int64)

    BINCOUNT_LABELS = 1 << 20
    """Below this highest label a block's distinct labels are found by `np.bincount` (≤ 8 MB, 30 times faster than
    `np.unique`'s sort: 0.02 s against 0.7 s for 4·10⁶ labels)."""

    def add(self, labels: np.ndarray, first_row: int) -> None:
        """Count the block `labels` (b,) int64, rows first_row … first_row + b − 1."""
        if int(labels.max()) < self.BINCOUNT_LABELS:
            new = np.flatnonzero(np.bincount(labels))
        else:
            new = np.unique(labels)
        fresh = ~np.isin(new, self.values)
        if len(self.values) + np.count_nonzero(fresh) > MAX_CLASSES:
            first = np.unique(labels, return_index=True)[1]  # the row where each value first appears
            order = np.sort(first[fresh])  # the rows of the new values, in row order
            row = first_row + int(order[MAX_CLASSES - len(self.values)])
            raise DataError(
                f"{self.source.label_location(row)} holds the label {labels[row - first_row]}, a distinct label "
                f"beyond the {MAX_CLASSES:,} before it: more than {MAX_CLASSES:,} classes is not a column of class "
                "labels (a model has one latent function per class); check that this is the label file or column"
            )
        self.values = np.union1d(self.values, new)

    @property
    def n_classes(self) -> int:
        """Highest label + 1."""
        return int(self.values[-1]) + 1


class EncodedSource(DataSource):
    """Another source whose labels, the sorted distinct values `classes` (K,), are handed out as class indices
    0…K−1 (classes[k] ↦ k, as `validation.encode_labels` maps labels in memory): what a face trains on when a file's
    labels are not 0…K−1 already (`encoded_source`). A label outside `classes` (a file changed since its labels were
    counted) raises DataError naming its row."""

    def __init__(self, source: DataSource, classes: np.ndarray):
        self.source, self.classes = source, np.asarray(classes)
        self.n, self.d = source.n, source.d
        self.n_classes = len(self.classes)
        self.label_values = np.arange(self.n_classes)

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X_b, y_b = self.source.batch(index)
        return X_b, self._encode(y_b, np.asarray(index))

    def labels(self) -> np.ndarray:
        return self._encode(self.source.labels(), np.arange(self.n))

    def label_location(self, row: int) -> str:
        return self.source.label_location(row)

    def _encode(self, y: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The labels y (s,) of the rows `rows` (s,) as indices into `classes`."""
        k = np.searchsorted(self.classes, y)
        outside = self.classes[np.minimum(k, self.n_classes - 1)] != y
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise DataError(
                f"{self.label_location(int(rows[i]))} holds {y[i]}, not one of the labels "
                f"{show_list(self.classes)} counted when the source was opened (has the file changed?)"
            )
        return k


def encoded_source(source: DataSource) -> tuple[DataSource, np.ndarray]:
    """(a source of `source`'s rows with labels 0…K−1, classes (K,)): the K distinct labels the source holds
    (`label_values`), sorted and mapped to 0…K−1 as `validation.encode_labels` maps labels in memory — so labels 1
    and 2 in a file are two classes, as they are in memory. The source itself when its labels are 0…K−1 already,
    else an `EncodedSource` of it."""
    classes = source.label_values
    if np.array_equal(classes, np.arange(len(classes))):
        return source, classes
    return EncodedSource(source, classes), classes


def _pread_rows(file, array: np.ndarray, index: np.ndarray, path: Path) -> np.ndarray:
    """The rows `index` (s,) of the C-order array that `file` holds at `array.offset`, one `os.pread` each:
    (s, *array.shape[1:]) of array's dtype; DataError naming the file if it ended early."""
    size = array.itemsize * int(np.prod(array.shape[1:], dtype=np.int64))
    fd, start = file.fileno(), array.offset
    data = b"".join([os.pread(fd, size, start + i * size) for i in index.tolist()])
    if len(data) != size * len(index):
        raise DataError(f"{path}: the file ended before a row it promised (truncated by another program?)")
    return np.frombuffer(data, dtype=array.dtype).reshape((len(index), *array.shape[1:]))


class FileStamp(NamedTuple):
    """What `os.stat` says of a file that changes when another program rewrites or replaces it."""

    size: int
    mtime_ns: int
    inode: int
    device: int

    @classmethod
    def of(cls, status: os.stat_result) -> "FileStamp":
        return cls(status.st_size, status.st_mtime_ns, status.st_ino, status.st_dev)


def _open_npy(path: Path) -> tuple[np.memmap, FileStamp]:
    """A read-only memory map of the `.npy` file `path` and the file's stamp; DataError naming the file if it is not
    a regular file, not a `.npy` file, holds pickled objects or is shorter than its header promises."""
    stamp = FileStamp.of(regular_file(path))
    with open(path, "rb") as handle:
        magic = handle.read(len(NPY_MAGIC))
    if magic != NPY_MAGIC:
        raise DataError(
            f"{path}: not a .npy file (it does not start with NumPy's magic bytes); save the array with numpy.save"
        )
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except NPY_READ_ERRORS as err:
        reason = (
            "it holds Python objects, which are not loaded (no pickles)"
            if "pickle" in str(err)
            else "it is shorter than its header promises (truncated?)"
            if "length is greater" in str(err)
            else f"{type(err).__name__}: {err}"
        )
        raise DataError(f"{path}: not a usable .npy array: {reason}") from None
    if array.dtype.kind not in "biuf":
        raise DataError(f"{path}: holds {array.dtype} values; it must hold real numbers")
    return array, stamp


def as_source(X, y=None) -> DataSource:
    """A `DataSource` given as is (y None), or an `ArraySource` of the arrays X (n, d), y (n,)."""
    if isinstance(X, DataSource):
        if y is not None:
            raise ValueError("give either a data source (and y=None) or the arrays X and y")
        return X
    return ArraySource(X, y)


def _blocks(n: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive blocks of at most `size` of n rows."""
    for start in range(0, n, size):
        yield start, min(start + size, n)


def _optional(module: str, what: str, path):
    """Import `module` for reading `what`, or ModuleNotFoundError in one line naming the extra that provides it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            f"{path}: reading {what} needs the package {module.split('.')[0]!r}, which is not installed; "
            f"install the optional extra: {OOC_EXTRA}"
        ) from None


class ZarrSource(DataSource):
    """Training rows in a Zarr group (a `.zarr` directory, `zarr.save_group(path, X=X, y=y)` or arrays created in
    it): the array `X` (n, d) of real numbers and the array `y` (n,) of labels (whole numbers ≥ 0, at most
    `MAX_CLASSES` distinct ones), the same n. A minibatch reads the chunks that hold its rows (`Array.oindex`), so
    rows chunked finely (1,000-10,000 rows per chunk) keep a step cheap. Checked when opened, block by block, as
    `NpySource` checks its files; every error is a `DataError` naming the group and the array (and the row and column
    of a bad value). Needs the `ooc` extra (zarr)."""

    def __init__(self, path):
        zarr = _optional("zarr", "a Zarr store", path)
        self.path = Path(path)
        try:
            group = zarr.open_group(self.path, mode="r")
        except (FileNotFoundError, ValueError, TypeError, KeyError) as err:
            raise DataError(f"{path}: not a readable Zarr group ({type(err).__name__}: {err})") from None
        keys = sorted(group.array_keys())
        missing = [key for key in ("X", "y") if key not in keys]
        if missing:
            raise DataError(
                f"{path}: no array {show(missing[0])} in the Zarr group; it holds {show_list(keys)} "
                "(features go in 'X' (n, d), class indices in 'y' (n,))"
            )
        self.X, self.y = group["X"], group["y"]
        for key, array, ndim in (("X", self.X, 2), ("y", self.y, 1)):
            if array.dtype.kind not in "biuf":
                raise DataError(f"{path}: array {key!r} holds {array.dtype} values; it must hold real numbers")
            if array.ndim != ndim:
                raise DataError(f"{path}: array {key!r} has shape {array.shape}; it must be {ndim}-D")
        if self.X.shape[0] != self.y.shape[0]:
            raise DataError(
                f"{path}: array 'X' has {self.X.shape[0]:,} rows but array 'y' has {self.y.shape[0]:,} labels; "
                "they must hold the same rows"
            )
        self.n, self.d = self.X.shape
        if self.n == 0 or self.d == 0:
            raise DataError(f"{path}: array 'X' {self.X.shape} has no rows or no columns")
        rows = max(self.X.chunks[0], NpySource.CHECK_BYTES // (8 * self.d) // self.X.chunks[0] * self.X.chunks[0])
        count = LabelCount(self)
        for start, stop in _blocks(self.n, rows):
            bounded_features(np.asarray(self.X[start:stop], dtype=float), f"{path}: array 'X'", first_row=start)
            count.add(class_indices(np.asarray(self.y[start:stop]), f"{path}: array 'y'", first_row=start), start)
        self.label_values, self.n_classes = count.values, count.n_classes

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        index = np.asarray(index)
        X_b = np.ascontiguousarray(self.X.oindex[index, :], dtype=float)
        return X_b, np.asarray(self.y.oindex[index], dtype=np.int64)

    def labels(self) -> np.ndarray:
        return np.asarray(self.y[:], dtype=np.int64)

    def label_location(self, row: int) -> str:
        return f"{self.path}: array 'y' row {row} (0-based)"


class ParquetSource(NpySource):
    """Training rows in a Parquet table: the label column (`label_column`; default the one column named label, y,
    class or target, any case) holds labels, whole numbers ≥ 0 (integers, or whole floats; at most `MAX_CLASSES`
    distinct ones), every other column is a feature of numbers (integer, floating or boolean, no empty cells). Needs
    the `ooc` extra (pyarrow).

    Parquet offers no random row access (a minibatch of random rows would decompress every row group), so the
    table is read once, batch by batch (`ParquetFile.iter_batches`, `batch_rows` rows at a time), checked as it
    is read, and written into two `.npy` files in `cache_dir` (default: a temporary folder removed with the source)
    that it then serves as an `NpySource`: memory stays at one batch, disk takes n·(d·itemsize + 8) bytes (float32
    features stay float32). Every error is a `DataError` naming the file and the column (and the row of a bad
    value). `feature_names` lists the feature columns in order."""

    def __init__(self, path, label_column=None, *, cache_dir=None, batch_rows: int = CHUNK_ROWS):
        pq = _optional("pyarrow.parquet", "a Parquet file", path)
        pa = _optional("pyarrow", "a Parquet file", path)
        self.path = Path(path)
        regular_file(self.path)
        try:
            table = pq.ParquetFile(self.path)
        except (pa.ArrowException, OSError) as err:
            raise DataError(f"{path}: not a readable Parquet file ({type(err).__name__}: {err})") from None
        schema = table.schema_arrow
        self.label_column = label = _label_column(schema.names, label_column, path)
        self.feature_names = [name for name in schema.names if name != label]
        if not self.feature_names:
            raise DataError(f"{path}: the table has no feature columns besides the label column {label!r}")
        for name in self.feature_names + [label]:
            kind = schema.field(name).type
            if not (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)):
                role = "the label column, which must hold class indices 0…K−1" if name == label else "a feature column"
                raise DataError(f"{path}: column {name!r} holds {kind} values; it is {role} and must hold numbers")
        dtype = np.result_type(np.float32, *(schema.field(name).type.to_pandas_dtype() for name in self.feature_names))
        n, d = table.metadata.num_rows, len(self.feature_names)
        if n == 0:
            raise DataError(f"{path}: the table has no rows")
        self._cache = tempfile.TemporaryDirectory(prefix="xgpc-parquet-", dir=cache_dir)
        folder = Path(self._cache.name)
        X = np.lib.format.open_memmap(folder / "X.npy", mode="w+", dtype=dtype, shape=(n, d))
        y = np.lib.format.open_memmap(folder / "y.npy", mode="w+", dtype=np.int64, shape=(n,))
        count, start = LabelCount(self), 0
        try:
            for part in table.iter_batches(batch_size=batch_rows, columns=self.feature_names + [label]):
                stop = start + part.num_rows
                for j, name in enumerate(self.feature_names + [label]):
                    values = _column_values(part.column(j), name, start, path)
                    if name == label:
                        labels = class_indices(values, f"{path}: column {label!r}", first_row=start)
                        y[start:stop] = labels
                        count.add(labels, start)
                    else:
                        bounded_features(values[:, None], str(path), first_row=start, columns=[name])
                        X[start:stop, j] = values
                start = stop
        except BaseException:  # a bad value (or an interrupt): the half-written copy goes at once, not at exit
            del X, y
            self._cache.cleanup()
            raise
        X.flush()
        y.flush()
        del X, y
        self.label_values, self.n_classes = count.values, count.n_classes
        super().__init__(folder / "X.npy", folder / "y.npy", check=False)

    def __getstate__(self) -> dict:
        """As `NpySource`'s, without the cache folder: a copy reads the original's cache and never removes it (keep
        the original while its copies read)."""
        return {key: value for key, value in super().__getstate__().items() if key != "_cache"}

    def label_location(self, row: int) -> str:
        return f"{self.path}: column {self.label_column!r} row {row} (0-based)"


def _label_column(names: list[str], label_column, path) -> str:
    """The label column among `names`: `label_column` if given (DataError naming the file and the columns if it is
    not there), else the one named label, y, class or target (any case)."""
    if label_column is not None:
        if label_column not in names:
            raise DataError(f"{path}: no label column {show(label_column)}; the columns are {show_list(names)}")
        return label_column
    matches = [name for name in names if name.lower() in DEFAULT_LABEL_NAMES]
    if len(matches) != 1:
        raise DataError(
            f"{path}: say which column holds the labels (label_column=...); the columns are {show_list(names)} and "
            f"{'none' if not matches else 'several'} of their names are one of {list(DEFAULT_LABEL_NAMES)}"
        )
    return matches[0]


def _column_values(column, name: str, start: int, path) -> np.ndarray:
    """A Parquet batch's column as a numpy array (k,), or DataError naming the file, column and row of an empty
    cell."""
    if column.null_count:
        first = start + int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
        raise DataError(f"{path}: column {name!r} row {first} (0-based) is empty (null); every cell needs a number")
    return column.to_numpy(zero_copy_only=False)


class SubsetSource(DataSource):
    """The rows `rows` (k,) (sorted indices, e.g. one side of `split_source`) of another source, as a source of k
    rows: row i here is row rows[i] there, so minibatches drawn here equal those drawn from the same rows in memory."""

    def __init__(self, source: DataSource, rows: np.ndarray):
        self.source, self.rows = source, np.asarray(rows)
        self.n, self.d = len(self.rows), source.d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.source.batch(self.rows[index])

    def labels(self) -> np.ndarray:
        return self.source.labels()[self.rows]

    def label_location(self, row: int) -> str:
        return self.source.label_location(int(self.rows[row]))


class ScaledSource(DataSource):
    """Another source's rows standardised as they are read, by a fitted `Standardizer` (the training statistics):
    X_b ↦ (X_b − mean)/scale, each value within ±`inputs.FEATURE_LIMIT` after it (DataError otherwise), the same
    values `inputs.standardised` gives the rows in memory."""

    def __init__(self, source: DataSource, scaler: Standardizer, name: str = "training data"):
        self.source, self.scaler, self.name = source, scaler, name
        self.n, self.d = source.n, source.d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X_b, y_b = self.source.batch(index)
        return bounded_features(self.scaler.transform(X_b), self.name, STANDARDISED), y_b

    def labels(self) -> np.ndarray:
        return self.source.labels()

    def label_location(self, row: int) -> str:
        return self.source.label_location(row)

    @cached_property
    def n_classes(self) -> int:
        return self.source.n_classes


def chunked_standardizer(source: DataSource, name: str = "training data") -> Standardizer:
    """The `Standardizer` of all of `source`'s rows from one pass over consecutive blocks of `CHUNK_ROWS`: the
    exact mean and sd (ddof = 0), each block's mean and sum of squared deviations merged by Chan, Golub and
    LeVeque's pairwise update (equal to `inputs.fitted_standardizer` on the rows in memory up to rounding); a
    constant column keeps its value as mean and scale 1, and a column whose sd underflows raises DataError, as in
    memory."""
    count, mean, squares = 0, np.zeros(source.d), np.zeros(source.d)
    low, high, first = np.full(source.d, np.inf), np.full(source.d, -np.inf), None
    for rows in source.chunks(CHUNK_ROWS):
        X_b = source.batch(rows)[0]
        k, block_mean = len(X_b), X_b.mean(axis=0)
        delta, total = block_mean - mean, count + len(X_b)
        squares = squares + ((X_b - block_mean) ** 2).sum(axis=0) + delta**2 * (count * k / total)
        mean = mean + delta * (k / total)
        count = total
        low, high = np.minimum(low, X_b.min(axis=0)), np.maximum(high, X_b.max(axis=0))
        first = X_b[0] if first is None else first
    constant = low == high
    scale = np.where(constant, 1.0, np.sqrt(squares / count))
    if not np.all(scale > 0):
        j = int(np.flatnonzero(~(scale > 0))[0])
        raise DataError(
            f"{name} column {j} (0-based) spreads over only {high[j] - low[j]:.3g}, too little to "
            "standardise in float64; rescale the column"
        )
    return Standardizer(np.where(constant, first, mean), scale)


def inducing_sample(source: DataSource, rng: np.random.Generator, most: int = INDUCING_SAMPLE_ROWS) -> np.ndarray:
    """The rows k-means++ chooses the inducing points from, (k, d): all n rows when n ≤ `most` (so the same Z as in
    memory for the same stream), else `most` distinct rows drawn with `rng` (read in file order)."""
    rows = np.arange(source.n) if source.n <= most else np.sort(rng.choice(source.n, most, replace=False))
    return np.concatenate([source.batch(part)[0] for part in source.chunks(CHUNK_ROWS, rows)])


def open_source(path, labels=None, label_column=None, **options) -> DataSource:
    """The out-of-core source for the file `path`, by its extension: `.npy` → `NpySource` (labels in the `.npy` file
    `labels`, default `<stem>_labels.npy` beside it), `.zarr` → `ZarrSource`, `.parquet`/`.pq` → `ParquetSource`
    (`label_column`, and `options` such as `cache_dir`). DataError naming the file for another extension or an
    option that does not apply to it."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SOURCE_FORMATS:
        raise DataError(
            f"{path}: no out-of-core source reads {suffix or 'files without an extension'}; "
            f"supported: {sorted(SOURCE_FORMATS)}"
        )
    given = {"labels": labels, "label_column": label_column, **options}
    wrong = sorted(key for key, value in given.items() if value is not None and key not in SOURCE_OPTIONS[suffix])
    if wrong:
        raise DataError(f"{path}: {', '.join(wrong)} do not apply to {suffix} files")
    if suffix == ".npy":
        return NpySource(path, labels if labels is not None else path.with_name(f"{path.stem}_labels.npy"))
    if suffix == ".zarr":
        return ZarrSource(path)
    return ParquetSource(path, label_column, **options)


SOURCE_FORMATS = {".npy": NpySource, ".zarr": ZarrSource, ".parquet": ParquetSource, ".pq": ParquetSource}
"""The out-of-core formats `open_source` reads, by extension."""
SOURCE_OPTIONS = {
    ".npy": {"labels"},
    ".zarr": set(),
    ".parquet": {"label_column", "cache_dir", "batch_rows"},
    ".pq": {"label_column", "cache_dir", "batch_rows"},
}
