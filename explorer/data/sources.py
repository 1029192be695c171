"""The out-of-core file sources of the data catalogue, implementations of the data-source protocol
(`explorer.sources.DataSource`): `NpySource` (two `.npy` files), `ZarrSource` (a `.zarr` group), `ParquetSource`
(a Parquet table); `open_source(path)` picks one by extension, `training_source` is what a face makes of its training
data. Formats, the `ooc` extra and what a run does with a source: README "Data larger than memory".
"""

from __future__ import annotations

import importlib
import mmap
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from explorer.data.readers import NPY_MAGIC, NPY_READ_ERRORS, label_column_index, regular_file
from explorer.inputs import bounded_features, class_indices
from explorer.sources import CHUNK_ROWS, DataSource, LabelCount, row_blocks
from explorer.validation import DataError, show, show_list

OOC_EXTRA = "pip install 'xgpc-explorer[ooc]'"


class NpySource(DataSource):
    """Training rows in two `.npy` files, X (n, d) real numbers (rows handed out as float64) and y (n,) labels,
    whole numbers ≥ 0, opened read-only (README "Data larger than memory"). Checked once when opened, in blocks of
    about `CHECK_BYTES`, as `ArraySource` checks arrays (`inputs.bounded_features`, `inputs.class_indices`, at most
    `MAX_CLASSES` distinct labels); every error is a `DataError` naming the file (and the row and column of a bad
    value). `check=False` skips the value checks, for files this package has just written and checked
    (`ParquetSource`). A minibatch's rows are read with one `os.pread` each, consecutive rows through the map, whose
    pages are given back after `RELEASE_BYTES` (BENCHMARKS.md "Scale past memory"); every `batch` first checks the
    files' `FileStamp`s."""

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
            for start, stop in row_blocks(self.n, max(1, self.CHECK_BYTES // (8 * self.d))):
                where = f"{self.X_path}: X" + (f" (block of rows from index {start})" if start else "")
                bounded_features(self._read(slice(start, stop)), where)
                count.add(class_indices(self.y[start:stop], f"{self.y_path}: y", first_row=start), start)
            self.label_values = count.values

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
        if self._open is None:  # the two files opened for `os.pread` (unbuffered), at first use
            self._open = (open(self.X_path, "rb", buffering=0), open(self.y_path, "rb", buffering=0))
        X_file, y_file = self._open
        X_b = _pread_rows(X_file, self.X, index, self.X_path).astype(float)
        return X_b, _pread_rows(y_file, self.y, index, self.y_path).astype(np.int64)

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
    """What `os.stat` says of a file that changes when another program rewrites or replaces it (a rewrite within the
    file system's timestamp resolution that keeps the size goes unseen)."""

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
    """Training rows in a Zarr group (a `.zarr` directory): the arrays `X` (n, d) of real numbers and `y` (n,) of
    labels, checked when opened as `NpySource` checks its files (errors name the group and the array); a minibatch
    reads the chunks that hold its rows (`Array.oindex`). Needs the `ooc` extra (zarr)."""

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
        for start, stop in row_blocks(self.n, rows):
            bounded_features(np.asarray(self.X[start:stop], dtype=float), f"{path}: array 'X'", first_row=start)
            count.add(class_indices(np.asarray(self.y[start:stop]), f"{path}: array 'y'", first_row=start), start)
        self.label_values = count.values

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        index = np.asarray(index)
        X_b = np.ascontiguousarray(self.X.oindex[index, :], dtype=float)
        return X_b, np.asarray(self.y.oindex[index], dtype=np.int64)

    def labels(self) -> np.ndarray:
        return np.asarray(self.y[:], dtype=np.int64)

    def label_location(self, row: int) -> str:
        return f"{self.path}: array 'y' row {row} (0-based)"


class ParquetSource(NpySource):
    """Training rows in a Parquet table: the label column (`label_column`: a name or an index, default the one named
    label, y, class or target) holds whole numbers ≥ 0, every other column is a feature of numbers (integer, floating
    or boolean, no empty cells); `feature_names` lists them in order. The table is read once, `batch_rows` rows at a
    time, checked, and copied into two `.npy` files in `cache_dir` (default: a temporary folder removed with the
    source) that it then serves as an `NpySource` (README "Data larger than memory"). Errors name the file and the
    column (and the row). Needs the `ooc` extra (pyarrow)."""

    def __init__(self, path, label_column=None, *, cache_dir=None, batch_rows: int = CHUNK_ROWS):
        pq = _optional("pyarrow.parquet", "a Parquet file", path)
        pa = _optional("pyarrow", "a Parquet file", path)
        self.path = Path(path)
        regular_file(self.path)
        try:
            table = pq.ParquetFile(self.path)
        except (pa.ArrowException, OSError) as err:
            raise DataError(f"{path}: not a readable Parquet file ({type(err).__name__}: {err})") from None
        schema, names = table.schema_arrow, table.schema_arrow.names
        self.label_column = label = names[label_column_index(names, label_column, path, "the columns are {}")]
        self.feature_names = [name for name in names if name != label]
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
                for j, name in enumerate(self.feature_names):
                    values = _column_values(part.column(j), name, start, path)
                    bounded_features(values[:, None], str(path), first_row=start, columns=[name])
                    X[start:stop, j] = values
                labels = _column_values(part.column(d), label, start, path)
                y[start:stop] = labels = class_indices(labels, f"{path}: column {label!r}", first_row=start)
                count.add(labels, start)
                start = stop
        except BaseException:  # a bad value (or an interrupt): the half-written copy goes at once, not at exit
            del X, y
            self._cache.cleanup()
            raise
        X.flush()
        y.flush()
        del X, y
        self.label_values = count.values
        super().__init__(folder / "X.npy", folder / "y.npy", check=False)

    def __getstate__(self) -> dict:
        """As `NpySource`'s, without the cache folder: a copy reads the original's cache and never removes it (keep
        the original while its copies read)."""
        return {key: value for key, value in super().__getstate__().items() if key != "_cache"}

    def label_location(self, row: int) -> str:
        return f"{self.path}: column {self.label_column!r} row {row} (0-based)"


def _column_values(column, name: str, start: int, path) -> np.ndarray:
    """A Parquet batch's column as a numpy array (k,), or DataError naming the file, column and row of an empty
    cell."""
    if column.null_count:
        first = start + int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
        raise DataError(f"{path}: column {name!r} row {first} (0-based) is empty (null); every cell needs a number")
    return column.to_numpy(zero_copy_only=False)


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


def training_source(X, y=None) -> DataSource | None:
    """The out-of-core source a face was given as training data: X itself when it is an `explorer.sources.DataSource`,
    the source of the file when X is a path (`open_source`: .npy, .zarr, .parquet), None for arrays. A source holds
    its labels: y given with one raises ValueError."""
    if isinstance(X, (str, os.PathLike)):
        X = open_source(X)
    if not isinstance(X, DataSource):
        return None
    if y is not None:
        raise ValueError(f"{type(X).__name__} holds its labels; give y=None with a data source or a file path")
    return X


SOURCE_FORMATS = {".npy": NpySource, ".zarr": ZarrSource} | dict.fromkeys((".parquet", ".pq"), ParquetSource)
"""The out-of-core formats `open_source` reads, by extension."""
SOURCE_OPTIONS = {".npy": {"labels"}, ".zarr": set()} | dict.fromkeys(
    (".parquet", ".pq"), {"label_column", "cache_dir", "batch_rows"}
)
