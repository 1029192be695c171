"""Reading data files: CSV/TSV with a header row, LIBSVM/SVMlight text, NumPy .npz; `LOADERS` by extension.

Every reader returns (X (n, d) float64, y (n,) int64 class indices 0…K−1, classes (K,), feature_names list[str]) or
raises `DataError` naming the file, line, column and value; its limits (`MAX_FILE_BYTES`, `MAX_DENSE_BYTES`) are
checked before anything large is read or allocated (README "Limits of the readers"). CSV is parsed by pandas' C
reader; when it meets anything unusual the careful reader reads the file again line by line and either returns the
same table or names the offending line, column and value.
"""

from __future__ import annotations

import array
import csv
import io
import itertools
import math
import os
import re
import stat
import tokenize
import zipfile
import zlib
from pathlib import Path

import numpy as np

from explorer.validation import DataError, show, show_list, validate

MAX_FILE_BYTES = 1 << 30
MAX_DENSE_BYTES = 1 << 29


def _megabytes(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.0f} MiB"


def check_dense_size(n_rows: int, n_features: int, name: str, where: str = "") -> None:
    """Refuse a table whose dense float64 X (n_rows, n_features) would exceed MAX_DENSE_BYTES."""
    n_bytes = 8 * n_rows * n_features
    if n_bytes > MAX_DENSE_BYTES:
        raise DataError(
            f"{name}: {where}{n_rows:,} rows × {n_features:,} features would take {_megabytes(n_bytes)} as a dense "
            f"float64 array, over the limit of {_megabytes(MAX_DENSE_BYTES)}"
        )


# ------------------------------------------------------------------------------------------------------ raw bytes


_FILE_TYPES = {
    stat.S_ISDIR: "a directory",
    stat.S_ISFIFO: "a pipe (FIFO)",
    stat.S_ISCHR: "a device",
    stat.S_ISBLK: "a block device",
    stat.S_ISSOCK: "a socket",
}


def regular_file(path: Path, name: str | None = None) -> os.stat_result:
    """The status of `path`, which must be a regular file (not a directory, device, pipe or socket, where a read
    could block forever); DataError naming the file (as `name`, default the path) otherwise."""
    name = name or str(path)
    try:
        status = Path(path).stat()
    except OSError as err:
        raise DataError(f"{name}: cannot read the file: {err.strerror or err}") from None
    if not stat.S_ISREG(status.st_mode):
        kind = next((kind for test, kind in _FILE_TYPES.items() if test(status.st_mode)), "not a regular file")
        raise DataError(f"{name}: is {kind}, not a regular file")
    return status


def read_bytes(file, source_name: str | None = None) -> tuple[bytes, str]:
    """The content of a path or a (binary or text) file-like object, at most MAX_FILE_BYTES.

    Returns (content, name for messages). A path must be a regular file (not a directory, device or pipe).
    """
    if isinstance(file, (str, os.PathLike)):
        path = Path(file)
        name = source_name or str(path)
        status = regular_file(path, name)
        if status.st_size > MAX_FILE_BYTES:
            raise DataError(f"{name}: {_megabytes(status.st_size)} is over the limit of {_megabytes(MAX_FILE_BYTES)}")
        try:
            with open(path, "rb") as handle:
                return handle.read(MAX_FILE_BYTES + 1), name
        except OSError as err:
            raise DataError(f"{name}: cannot read the file: {err.strerror or err}") from None
    name = str(source_name or getattr(file, "name", None) or "<uploaded data>")
    if isinstance(file, (bytes, bytearray, memoryview)):
        raise DataError(f"{name}: got the content itself; pass a path or a file object such as io.BytesIO(content)")
    if not callable(getattr(file, "read", None)):
        raise DataError(f"{name}: expected a path or a file object with read(), got {type(file).__name__}")
    try:
        content = file.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as err:
        raise DataError(f"{name}: cannot read the data: {err}") from None
    if isinstance(content, str):
        content = content.encode("utf-8")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise DataError(f"{name}: reading gave {type(content).__name__}, not bytes or text")
    if len(content) > MAX_FILE_BYTES:
        raise DataError(f"{name}: the data are over the limit of {_megabytes(MAX_FILE_BYTES)}")
    return bytes(content), name


def decode_text(content: bytes, name: str) -> str:
    """UTF-8 text (a leading byte-order mark is dropped); a bad byte is named by its line."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = content[: err.start].count(b"\n") + 1
        raise DataError(
            f"{name}: line {line}: byte {content[err.start : err.start + 1]!r} is not UTF-8 text ({err.reason})"
        ) from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except (ValueError, OverflowError):
        return False
    return True


def numeric_labels_if_possible(labels: list[str]) -> np.ndarray:
    """Label strings that all read as numbers become numbers (so '+1' and '-1' sort numerically), else stay strings.
    Whole numbers become int64 when they are exactly representable (|v| < 2⁵³), other numbers float64."""
    try:
        values = np.array([float(v) for v in labels])
    except (ValueError, OverflowError):
        return np.array(labels)
    whole = np.all(values == np.round(values)) and np.all(np.abs(values) < 2.0**53)
    return values.astype(np.int64) if whole else values


# ------------------------------------------------------------------------------------------------------- CSV / TSV

_EXOTIC_LINE_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines() breaks here, pandas and csv do not
_LINE_BREAK = re.compile("\r\n|[\n\r" + _EXOTIC_LINE_BREAKS + "]")
_EXOTIC_LINE_BREAK = re.compile("[" + _EXOTIC_LINE_BREAKS + "]")
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # what the csv module calls a line


def sniff_delimiter(header_line: str, name: str) -> str | None:
    """Delimiter from the header line: TAB for a .tsv name, else the most frequent of , TAB ; |, else None
    (runs of whitespace)."""
    if name.lower().endswith(".tsv"):
        return "\t"
    counts = {d: header_line.count(d) for d in (",", "\t", ";", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else None


def _too_long_field_column(line: str, delimiter: str, header: list[str] | None) -> str:
    """Which column of a physical line holds the field beyond the csv module's limit (quotes ignored)."""
    limit = csv.field_size_limit()
    for j, field in enumerate(line.split(delimiter)):
        if len(field) > limit:
            return f", column {show(header[j])}" if header is not None and j < len(header) else f", field {j} (0-based)"
    return ""


def text_lines(text: str):
    """The lines of `str.splitlines()`, one at a time (no list of a whole file)."""
    start = 0
    for match in _LINE_BREAK.finditer(text):
        yield text[start : match.start()]
        start = match.end()
    if start < len(text):
        yield text[start:]


def first_nonblank_line(text: str) -> str | None:
    return next((line for line in text_lines(text) if line.strip()), None)


def csv_rows(text: str, delimiter: str | None, name: str, header: list[str] | None = None):
    """Yield (line number, fields) for the non-blank rows of a table; fields are stripped strings.

    delimiter None: runs of whitespace split fields, one row per line. `header` only improves error messages.
    """
    if delimiter is None:
        for number, line in enumerate(text_lines(text), start=1):
            if line.strip():
                yield number, line.split()
        return
    reader = csv.reader((m.group() for m in _PHYSICAL_LINE.finditer(text)), delimiter=delimiter)
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            number = reader.line_num
            line = next(itertools.islice(_PHYSICAL_LINE.finditer(text), number - 1, None), None)
            line = "" if line is None else line.group()
            where = _too_long_field_column(line, delimiter, header)
            raise DataError(f"{name}: line {number}{where}: {err}") from None
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue
        yield reader.line_num, [f.strip() for f in fields]


def _check_delimiter(delimiter, name: str) -> None:
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in '"\r\n'):
        raise DataError(
            f"{name}: delimiter must be one character other than a quote or a line break, got {show(delimiter)}"
        )


def _date_hint(value: str) -> str:
    has_date = len(value) >= 8 and value[:4].isdigit() and value[4:5] in "-/." and value[5:7].isdigit()
    return "; dates and times must be converted to numbers first" if has_date or value.count(":") == 2 else ""


def _fast_table(content: bytes, header: list[str], label_at: int, delimiter: str | None):
    """pandas' C parser on the rows after a one-line header: (X (n, d) float64, labels (n,)) when every feature cell
    is a finite number and every row has a non-empty label, else None (the careful reader then decides)."""
    import pandas as pd  # here, not at the top: importing pandas takes about a second

    options = dict(sep=delimiter or r"\s+", quoting=csv.QUOTE_NONE if delimiter is None else csv.QUOTE_MINIMAL)
    columns = list(range(len(header)))
    try:
        frame = pd.read_csv(
            io.BytesIO(content),
            encoding="utf-8-sig",
            header=None,
            names=columns,
            skiprows=1,
            dtype={j: (object if j == label_at else np.float64) for j in columns},
            na_filter=False,
            skip_blank_lines=True,
            engine="c",
            on_bad_lines="error",
            **options,
        )
    except (ValueError, TypeError, OverflowError, pd.errors.ParserError, UnicodeDecodeError, csv.Error):
        return None
    if len(frame) == 0 or list(frame.columns) != columns or not isinstance(frame.index, pd.RangeIndex):
        return None
    X = frame.drop(columns=label_at).to_numpy(dtype=np.float64)
    if not np.isfinite(X).all():
        return None
    codes, uniques = pd.factorize(frame[label_at])  # a missing label (short row) has code −1
    labels = [value.strip() if isinstance(value, str) else "" for value in uniques]
    if codes.min() < 0 or "" in labels:
        return None
    return np.ascontiguousarray(X), numeric_labels_if_possible(labels)[codes]


def _careful_table(rows, header: list[str], label_at: int, name: str):
    """Row by row with Python's float(): (X (n, d) float64, labels (n,)), or DataError naming the first bad line,
    column and value."""
    feature_at = [j for j in range(len(header)) if j != label_at]
    values, labels = array.array("d"), []
    for number, fields in rows:
        if len(fields) != len(header):
            raise DataError(f"{name}: line {number} has {len(fields)} fields but the header has {len(header)}")
        label = fields[label_at]
        if not label:
            raise DataError(f"{name}: line {number}, label column {show(header[label_at])}: the label is empty")
        try:
            row = [float(fields[j]) for j in feature_at]
        except (ValueError, OverflowError):
            j = next(j for j in feature_at if not _is_number(fields[j]))
            raise DataError(
                f"{name}: line {number}, column {show(header[j])}: value {show(fields[j])} is not "
                f"a number{_date_hint(fields[j])}"
            ) from None
        if not all(map(math.isfinite, row)):
            j = next(j for j, value in zip(feature_at, row) if not math.isfinite(value))
            raise DataError(f"{name}: line {number}, column {show(header[j])}: value {show(fields[j])} is not finite")
        values.extend(row)
        labels.append(label)
    if not labels:
        return None
    X = np.frombuffer(values, dtype=np.float64).reshape(len(labels), len(feature_at)).copy()
    return X, numeric_labels_if_possible(labels)


def read_csv(file, label_column=None, *, delimiter: str | None = None, source_name: str | None = None):
    """CSV/TSV with a header row. Returns (X (n, d) float64, y (n,) int64 class indices 0…K−1, classes (K,),
    feature_names list[str]).

    `label_column` is a header name or a column index (None: the one named label, y, class or target, any case);
    every other column is a numeric feature. The delimiter, if not given, is TAB for a .tsv name, else the most
    frequent of , TAB ; | in the header line, else whitespace.
    """
    content, name = read_bytes(file, source_name)
    text = decode_text(content, name)
    _check_delimiter(delimiter, name)
    if not text.strip():
        raise DataError(f"{name}: the file is empty")
    if delimiter is None:
        delimiter = sniff_delimiter(first_nonblank_line(text), name)
    rows = csv_rows(text, delimiter, name)
    header_line, header = next(rows, (None, None))
    if header is None:
        raise DataError(f"{name}: the file holds no header row, only blank or empty fields")
    if all(_is_number(field) for field in header):
        raise DataError(
            f"{name}: line {header_line} looks like data, not a header {show_list(header)}; a header row is required"
        )
    if "" in header:
        raise DataError(
            f"{name}: line {header_line}: header column {header.index('')} (0-based) has no name: {show_list(header)}"
        )
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise DataError(
            f"{name}: line {header_line}: column names {show_list(duplicates)} appear more than once in {show_list(header)}"
        )
    label_at = label_column_index(header, label_column, name)
    if len(header) < 2:
        raise DataError(
            f"{name}: the header {show_list(header)} has no feature column besides the label {show(header[label_at])}"
        )
    feature_names = [header[j] for j in range(len(header)) if j != label_at]
    exotic_breaks = len(_EXOTIC_LINE_BREAK.findall(text)) if _EXOTIC_LINE_BREAK.search(text) else 0
    lines = content.count(b"\n") + content.count(b"\r") - content.count(b"\r\n") + exotic_breaks + 1
    check_dense_size(lines, len(feature_names), name, "up to ")

    simple_lines = header_line == 1 and exotic_breaks == 0
    table = _fast_table(content, header, label_at, delimiter) if simple_lines else None
    if table is None:
        rows = csv_rows(text, delimiter, name, header)
        next(rows)  # the header
        table = _careful_table(rows, header, label_at, name)
    if table is None:
        raise DataError(f"{name}: the header (line {header_line}) is followed by no data rows")
    X, labels = table
    X, y, classes = validate(X, labels, feature_names, source=name)
    return X, y, classes, feature_names


# ---------------------------------------------------------------------------------------------------------- LIBSVM


def read_libsvm(file, n_features: int | None = None, *, source_name: str | None = None):
    """LIBSVM/SVMlight text, one row per line: `label idx:val ...` with 1-based indices; '#' starts a comment.

    Returns (X (n, d) float64 dense, missing entries 0, y (n,) int64 class indices 0…K−1, classes (K,), feature_names
    ['x1'..'xd']), d = n_features if given else the largest index seen. A dense X over MAX_DENSE_BYTES is refused,
    naming the line with the largest index, before it is allocated.
    """
    content, name = read_bytes(file, source_name)
    text = decode_text(content, name)
    if n_features is not None:
        if isinstance(n_features, bool) or not isinstance(n_features, (int, np.integer)) or n_features < 1:
            raise DataError(f"{name}: n_features must be a positive integer, got {show(n_features)}")
        check_dense_size(1, int(n_features), name, "n_features: ")
    widest = MAX_DENSE_BYTES // 8
    labels, rows, cols, vals = [], [], [], []
    largest, largest_line = 0, 0
    for number, line in enumerate(text_lines(text), start=1):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        try:
            label = float(tokens[0])
        except (ValueError, OverflowError):
            raise DataError(f"{name}: line {number}: label {show(tokens[0])} is not a number") from None
        if not math.isfinite(label):
            raise DataError(f"{name}: line {number}: label {show(tokens[0])} is not finite")
        seen = set()
        for token in tokens[1:]:
            index_text, colon, value_text = token.partition(":")
            if not colon or not (index_text.isascii() and index_text.isdigit()) or not _is_number(value_text):
                raise DataError(f"{name}: line {number}: {show(token)} is not of the form index:value")
            index, value = int(index_text), float(value_text)
            if index < 1:
                raise DataError(f"{name}: line {number}: feature index {index} in {show(token)}; indices start at 1")
            if n_features is not None and index > n_features:
                raise DataError(f"{name}: line {number}: feature index {index} exceeds n_features={n_features}")
            if index > widest:
                raise DataError(
                    f"{name}: line {number}: feature index {index} would make even one dense row "
                    f"{_megabytes(8 * index)}, over the limit of {_megabytes(MAX_DENSE_BYTES)}"
                )
            if index in seen:
                raise DataError(f"{name}: line {number}: feature index {index} appears twice")
            if not math.isfinite(value):
                raise DataError(f"{name}: line {number}, feature {index}: value {show(value_text)} is not finite")
            if index > largest:
                largest, largest_line = index, number
            seen.add(index)
            rows.append(len(labels))
            cols.append(index - 1)
            vals.append(value)
        labels.append(tokens[0])
    if not labels:
        raise DataError(f"{name}: the file holds no data lines")
    d = n_features if n_features is not None else largest
    if d == 0:
        raise DataError(f"{name}: no line holds a feature (index:value), so there are no feature columns")
    check_dense_size(len(labels), d, name, f"line {largest_line} has feature index {largest}: " if largest == d else "")
    X = np.zeros((len(labels), d), dtype=np.float64)
    X[rows, cols] = vals
    feature_names = [f"x{k}" for k in range(1, d + 1)]
    X, y, classes = validate(X, numeric_labels_if_possible(labels), feature_names, source=name)
    return X, y, classes, feature_names


# ------------------------------------------------------------------------------------------------------------- npz

NPY_MAGIC = b"\x93NUMPY"
NPY_READ_ERRORS = (ValueError, OSError, EOFError, KeyError, RuntimeError, NotImplementedError, SyntaxError)
NPY_READ_ERRORS += (tokenize.TokenError, zipfile.BadZipFile, zlib.error)
"""What NumPy's .npy/.npz readers raise on a damaged file (a garbled header is parsed as a Python literal)."""


def npz_member(archive: zipfile.ZipFile, key: str, name: str) -> np.ndarray:
    """One array of an .npz archive, its header checked first: no object dtype (pickles), at most MAX_DENSE_BYTES,
    and the data the header promises actually present."""
    member = f"{key}.npy"
    where = f"{name}: array {key!r}"
    try:
        info = archive.getinfo(member)
        with archive.open(info) as handle:
            version = np.lib.format.read_magic(handle)
            header = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
            if version not in header:
                raise DataError(f"{where}: .npy format version {version} is not supported (1.0 or 2.0 are)")
            shape, _, dtype = header[version](handle)
            header_bytes = handle.tell()
    except DataError:
        raise
    except NPY_READ_ERRORS as err:
        raise DataError(f"{where} is not a readable .npy array: {err}") from None
    if dtype.hasobject:
        raise DataError(
            f"{where} holds Python objects ({dtype}), which cannot be loaded without pickling; save "
            "strings as a fixed-width unicode array and numbers as a numeric array"
        )
    n_bytes = math.prod(shape) * dtype.itemsize
    if n_bytes > MAX_DENSE_BYTES:
        raise DataError(
            f"{where}: shape {shape} of {dtype} would take {_megabytes(n_bytes)}, over the limit of "
            f"{_megabytes(MAX_DENSE_BYTES)}"
        )
    if header_bytes + n_bytes > info.file_size:
        raise DataError(
            f"{where}: its header promises shape {shape} of {dtype} ({n_bytes:,} bytes) but the member "
            f"holds only {info.file_size - header_bytes:,} bytes of data; the archive is truncated or corrupt"
        )
    try:
        with archive.open(info) as handle:
            return np.lib.format.read_array(handle, allow_pickle=False)
    except NPY_READ_ERRORS as err:
        raise DataError(f"{where} is not a readable .npy array: {err}") from None


def read_npz(file, *, source_name: str | None = None):
    """NumPy .npz with arrays `X` (n, d), `y` (n,) and optionally `feature_names` (d,); no pickles are loaded.

    Returns (X (n, d) float64, y (n,) int64 class indices 0…K−1, classes (K,), feature_names list[str], 'x1'..'xd' if
    absent).
    """
    content, name = read_bytes(file, source_name)
    if content.startswith(NPY_MAGIC):
        raise DataError(f"{name}: holds a single .npy array, not an .npz archive with arrays 'X' and 'y'")
    arrays = {}
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            members = archive.namelist()
            keys = sorted(m[:-4] if m.endswith(".npy") else m for m in members)
            for key in ("X", "y"):
                if f"{key}.npy" not in members:
                    raise DataError(f"{name}: no array {key!r} in the archive; it holds {show_list(keys)}")
            for key in ("X", "y", "feature_names"):
                if f"{key}.npy" in members:
                    arrays[key] = npz_member(archive, key, name)
    except DataError:
        raise
    except NPY_READ_ERRORS as err:
        raise DataError(f"{name}: not a readable .npz archive: {err}") from None
    feature_names = arrays.get("feature_names")
    if feature_names is not None:
        feature_names = [
            v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in feature_names.reshape(-1).tolist()
        ]
    X, y, classes = validate(arrays["X"], arrays["y"], feature_names, source=name)
    return X, y, classes, feature_names or [f"x{k}" for k in range(1, X.shape[1] + 1)]


# --------------------------------------------------------------------------------------------- readers by extension

LOADERS = dict.fromkeys((".csv", ".tsv", ".txt"), read_csv) | {".npz": read_npz}
LOADERS |= dict.fromkeys((".libsvm", ".svm", ".svmlight"), read_libsvm)
DEFAULT_LABEL_NAMES = ("label", "y", "class", "target")


def label_column_index(columns: list[str], label_column, name, listed: str = "the header has {}") -> int:
    """The index of the label column among `columns`: `label_column` (a name, or an index as Python counts), else the
    one named label, y, class or target (any case); DataError naming the file `name` and the columns (in the words of
    `listed`) otherwise."""
    listed = listed.format(show_list(columns))
    if label_column is None:
        matches = [column for column in columns if column.lower() in DEFAULT_LABEL_NAMES]
        if len(matches) != 1:
            raise DataError(
                f"{name}: say which column holds the labels (label_column=...); {listed} and "
                f"{'none' if not matches else 'several'} of them are one of {list(DEFAULT_LABEL_NAMES)}"
            )
        label_column = matches[0]
    if isinstance(label_column, (int, np.integer)) and not isinstance(label_column, bool):
        if not -len(columns) <= label_column < len(columns):
            raise DataError(
                f"{name}: label column index {show(label_column)} is out of range for {len(columns)} "
                f"columns {show_list(columns)}"
            )
        return int(label_column) % len(columns)
    if label_column not in columns:
        raise DataError(f"{name}: no label column {show(label_column)}; {listed}")
    return columns.index(label_column)
