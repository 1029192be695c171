"""Data at the boundary: labels to ±1, checked float features, teaching sets, file loaders, the paper's datasets.

Internally every classifier sees X float64 (n, d), finite, and y int8 in {−1, +1} (paper §3). This module is the one
place where outside data becomes that (DESIGN §5). Bad input raises `DataError` naming the file, line, column and
value; nothing is silently dropped or coerced.

The paper's benchmark sets (Table 1) are read from offline copies in a data directory (argument `data_dir`, else the
environment variable XGPC_DATA_DIR); see that directory's README for provenance. A set that is not there is fetched
from OpenML by id and cached (XGPC_CACHE_DIR, else ~/.cache/xgpc-explorer).
"""
from __future__ import annotations

import csv
import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse


class DataError(ValueError):
    """Bad input data; the message names the file, line, column and offending value where there are such."""


def _prefix(source: str | None) -> str:
    return f"{source}: " if source else ""


def _column_label(j: int, feature_names) -> str:
    return f"column {feature_names[j]!r}" if feature_names is not None else f"column {j} (0-based)"


# ----------------------------------------------------------------------------------------------------------- labels

def encode_labels(y, *, source: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Map two distinct label values to ±1: classes[0] ↦ −1, classes[1] ↦ +1 in sorted order.

    y: (n,) of ±1, 0/1, bool, or any two distinct values (strings, ints). Returns (y_pm1 int8 (n,), classes (2,)).
    So {0, 1}: 0 ↦ −1; {−1, +1} unchanged; {False, True}: False ↦ −1.
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise DataError(f"{_prefix(source)}labels must be one value per row, got an array of shape {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        row = int(np.flatnonzero(~np.isfinite(y))[0])
        raise DataError(f"{_prefix(source)}label at row index {row} is {y[row].item()!r}, not a class value")
    try:
        classes, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    except TypeError as err:
        kinds = sorted({type(v).__name__ for v in y.tolist()})
        raise DataError(f"{_prefix(source)}labels mix value types {kinds} and cannot be compared: {err}") from err
    if classes.size != 2:
        found = ", ".join(f"{c!r} ({k} rows)" for c, k in zip(classes.tolist(), counts.tolist()))
        raise DataError(
            f"{_prefix(source)}binary classification needs exactly 2 label values, found {classes.size}: {found or 'none'}"
        )
    y_pm1 = np.where(inverse.reshape(-1) == 1, 1, -1).astype(np.int8)
    return y_pm1, classes


def decode_labels(y_pm1, classes) -> np.ndarray:
    """Inverse of `encode_labels`: −1 ↦ classes[0], +1 ↦ classes[1]. y_pm1 (n,) → (n,) of the classes' dtype."""
    y_pm1 = np.asarray(y_pm1)
    classes = np.asarray(classes)
    if classes.shape != (2,):
        raise DataError(f"classes must hold exactly 2 values, got shape {classes.shape}")
    bad = ~np.isin(y_pm1, (-1, 1))
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise DataError(f"labels to decode must be -1 or +1; row index {row} is {y_pm1.reshape(-1)[row].item()!r}")
    return classes[(y_pm1 == 1).astype(np.intp)]


# ----------------------------------------------------------------------------------------------------------- checks

def _to_float_columns(X: np.ndarray, feature_names, source) -> np.ndarray:
    """Convert a 2-D object/string array to float64 column by column, naming the first non-numeric value."""
    out = np.empty(X.shape, dtype=np.float64)
    for j in range(X.shape[1]):
        try:
            out[:, j] = X[:, j].astype(np.float64)
        except (TypeError, ValueError):
            for i, value in enumerate(X[:, j].tolist()):
                try:
                    float(value)
                except (TypeError, ValueError):
                    raise DataError(
                        f"{_prefix(source)}{_column_label(j, feature_names)} is not numeric: "
                        f"row index {i} holds {value!r}"
                    ) from None
            raise
    return out


def validate(X, y, feature_names=None, source: str | None = None):
    """Check and convert a classification data set. Returns (X float64 C-contiguous (n, d), y_pm1 (n,), classes (2,)).

    X must be 2-D, numeric and finite; y has one of two label values per row (see `encode_labels`); n ≥ 2.
    """
    if sparse.issparse(X):
        X = X.toarray()
    X = np.asarray(X)
    if X.ndim != 2:
        hint = " (use X.reshape(-1, 1) for a single feature)" if X.ndim == 1 else ""
        raise DataError(f"{_prefix(source)}X must be 2-D (n rows, d features), got shape {X.shape}{hint}")
    n, d = X.shape
    if d == 0:
        raise DataError(f"{_prefix(source)}X has no feature columns (shape {X.shape})")
    if feature_names is not None:
        feature_names = [str(name) for name in feature_names]
        if len(feature_names) != d:
            raise DataError(f"{_prefix(source)}{len(feature_names)} feature names given for {d} feature columns")
    y = np.asarray(y)
    if y.shape[:1] != (n,):
        raise DataError(f"{_prefix(source)}X has {n} rows but y has {y.shape[0] if y.ndim else 'no'} labels")
    if n < 2:
        raise DataError(f"{_prefix(source)}need at least 2 rows to classify, got {n}")
    if X.dtype.kind == "c":
        raise DataError(f"{_prefix(source)}X holds complex numbers; features must be real")
    if X.dtype.kind in "biuf":
        X = X.astype(np.float64, copy=False)
    else:
        X = _to_float_columns(X, feature_names, source)
    finite = np.isfinite(X)
    if not finite.all():
        j = int(np.flatnonzero(~finite.all(axis=0))[0])
        i = int(np.flatnonzero(~finite[:, j])[0])
        raise DataError(
            f"{_prefix(source)}{_column_label(j, feature_names)} has a non-finite value {X[i, j].item()!r} "
            f"(first at row index {i}); NaN and inf are not allowed"
        )
    y_pm1, classes = encode_labels(y, source=source)
    return np.ascontiguousarray(X), y_pm1, classes


# ----------------------------------------------------------------------------------------------- built-in 2-D sets

def _check_generator_args(n, noise):
    if int(n) != n or n < 4:
        raise DataError(f"a built-in data set needs an integer n ≥ 4 rows, got n={n!r}")
    if not np.isfinite(noise) or noise < 0:
        raise DataError(f"noise must be a finite number ≥ 0, got noise={noise!r}")


def _assemble(X_neg: np.ndarray, X_pos: np.ndarray, noise: float, rng: np.random.Generator):
    """Stack the two classes, add N(0, noise²) to every coordinate, shuffle rows. Returns (X (n, 2), y (n,) ±1)."""
    X = np.vstack([X_neg, X_pos])
    y = np.repeat(np.array([-1, 1], dtype=np.int8), [len(X_neg), len(X_pos)])
    X = X + noise * rng.standard_normal(X.shape)
    order = rng.permutation(len(y))
    return np.ascontiguousarray(X[order]), y[order]


def _class_sizes(n: int) -> tuple[int, int]:
    return n - n // 2, n // 2


def make_banana(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Banana-like 2-D set: +1 on the parabolic arc x₂ = x₁²/2 − 1 (|x₁| ≤ 2); −1 partly inside its bowl
    (a blob at (0, 0.9)) and partly on a wider arc below it. Returns (X (n, 2), y (n,) ±1)."""
    _check_generator_args(n, noise)
    rng = np.random.default_rng(rng)
    n_neg, n_pos = _class_sizes(n)
    u = rng.uniform(-2.0, 2.0, n_pos)
    X_pos = np.c_[u, 0.5 * u**2 - 1.0]
    n_blob = n_neg // 2
    blob = np.array([0.0, 0.9]) + 0.35 * rng.standard_normal((n_blob, 2))
    v = rng.uniform(-2.6, 2.6, n_neg - n_blob)
    outer = np.c_[v, 0.5 * v**2 - 2.4]
    return _assemble(np.vstack([blob, outer]), X_pos, noise, rng)


def make_moons(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half circles: −1 on (cos t, sin t), +1 on (1 − cos t, ½ − sin t), t ~ U(0, π)."""
    _check_generator_args(n, noise)
    rng = np.random.default_rng(rng)
    n_neg, n_pos = _class_sizes(n)
    t_neg = rng.uniform(0.0, np.pi, n_neg)
    t_pos = rng.uniform(0.0, np.pi, n_pos)
    return _assemble(np.c_[np.cos(t_neg), np.sin(t_neg)], np.c_[1.0 - np.cos(t_pos), 0.5 - np.sin(t_pos)], noise, rng)


def make_circles(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Two concentric circles: −1 on radius 1, +1 on radius 0.5, angles uniform."""
    _check_generator_args(n, noise)
    rng = np.random.default_rng(rng)
    n_neg, n_pos = _class_sizes(n)
    a_neg = rng.uniform(0.0, 2.0 * np.pi, n_neg)
    a_pos = rng.uniform(0.0, 2.0 * np.pi, n_pos)
    return _assemble(np.c_[np.cos(a_neg), np.sin(a_neg)], 0.5 * np.c_[np.cos(a_pos), np.sin(a_pos)], noise, rng)


def make_xor(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """XOR on [−1, 1]²: +1 in the quadrants where x₁x₂ > 0, −1 where x₁x₂ < 0 (before the noise is added)."""
    _check_generator_args(n, noise)
    rng = np.random.default_rng(rng)
    n_neg, n_pos = _class_sizes(n)

    def quadrant_points(m: int, same_sign: bool) -> np.ndarray:
        magnitude = rng.uniform(0.0, 1.0, (m, 2))
        s1 = rng.choice([-1.0, 1.0], m)
        s2 = s1 if same_sign else -s1
        return magnitude * np.c_[s1, s2]

    return _assemble(quadrant_points(n_neg, False), quadrant_points(n_pos, True), noise, rng)


def make_blobs(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Two isotropic Gaussian blobs with std `noise`: −1 around (−1, −1), +1 around (+1, +1)."""
    _check_generator_args(n, noise)
    rng = np.random.default_rng(rng)
    n_neg, n_pos = _class_sizes(n)
    return _assemble(np.full((n_neg, 2), -1.0), np.full((n_pos, 2), 1.0), noise, rng)


BUILTIN = {
    "banana-like": make_banana,
    "moons": make_moons,
    "circles": make_circles,
    "xor": make_xor,
    "blobs": make_blobs,
}
DEFAULT_NOISE = {"banana-like": 0.25, "moons": 0.15, "circles": 0.08, "xor": 0.1, "blobs": 0.7}


# ----------------------------------------------------------------------------------------------------- file loaders

def _read_bytes(file, source_name) -> tuple[bytes, str]:
    """Read a path or a (binary or text) file-like object. Returns (content, name for messages)."""
    if isinstance(file, (str, os.PathLike)):
        path = Path(file)
        try:
            return path.read_bytes(), source_name or str(path)
        except OSError as err:
            raise DataError(f"{source_name or path}: cannot read the file: {err}") from err
    content = file.read()
    name = source_name or getattr(file, "name", None) or "<uploaded data>"
    return (content.encode("utf-8") if isinstance(content, str) else bytes(content)), str(name)


def _decode(content: bytes, name: str) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = content[: err.start].count(b"\n") + 1
        raise DataError(
            f"{name}: line {line}: byte {content[err.start:err.start + 1]!r} is not UTF-8 text ({err.reason})"
        ) from err


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _numeric_labels_if_possible(labels: list[str]) -> np.ndarray:
    """Label strings that all read as numbers become numbers (so '+1' and '-1' sort numerically), else stay strings."""
    try:
        values = np.array([float(v) for v in labels])
    except ValueError:
        return np.array(labels)
    return values.astype(np.int64) if np.all(values == np.round(values)) else values


def _sniff_delimiter(header_line: str, name: str) -> str | None:
    """Delimiter from the header line: the most frequent of , TAB ; |, else None (runs of whitespace)."""
    if name.lower().endswith(".tsv"):
        return "\t"
    counts = {d: header_line.count(d) for d in (",", "\t", ";", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else None


def _rows(text: str, delimiter: str | None):
    """Yield (line number, fields) for non-blank rows; fields are stripped strings."""
    if delimiter is None:
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                yield number, line.split()
        return
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    for fields in reader:
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue
        yield reader.line_num, [f.strip() for f in fields]


def _label_index(label_column, header: list[str], name: str) -> int:
    if isinstance(label_column, (int, np.integer)) and not isinstance(label_column, bool):
        if not -len(header) <= label_column < len(header):
            raise DataError(f"{name}: label column index {label_column} is out of range for {len(header)} columns {header}")
        return int(label_column) % len(header)
    if label_column not in header:
        raise DataError(f"{name}: no label column {label_column!r}; the header has {header}")
    return header.index(label_column)


def read_csv(file, label_column, *, delimiter: str | None = None, source_name: str | None = None):
    """CSV/TSV with a header row. Returns (X (n, d) float64, y_pm1 (n,) int8, classes (2,), feature_names list[str]).

    `label_column` is a header name or a column index; every other column is a numeric feature. The delimiter, if
    not given, is TAB for a .tsv name, else the most frequent of , TAB ; | in the header line, else whitespace.
    """
    content, name = _read_bytes(file, source_name)
    text = _decode(content, name)
    if not text.strip():
        raise DataError(f"{name}: the file is empty")
    if delimiter is None:
        first_line = next(line for line in text.splitlines() if line.strip())
        delimiter = _sniff_delimiter(first_line, name)
    rows = _rows(text, delimiter)
    header_line, header = next(rows, (None, None))
    if header is None:
        raise DataError(f"{name}: the file holds no header row, only blank or empty fields")
    if all(_is_number(field) for field in header):
        raise DataError(f"{name}: line {header_line} looks like data, not a header {header}; a header row is required")
    if "" in header:
        raise DataError(f"{name}: line {header_line}: header column {header.index('')} (0-based) has no name: {header}")
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise DataError(f"{name}: line {header_line}: column names {duplicates} appear more than once in {header}")
    label_at = _label_index(label_column, header, name)
    if len(header) < 2:
        raise DataError(f"{name}: the header {header} has no feature column besides the label {header[label_at]!r}")
    feature_at = [j for j in range(len(header)) if j != label_at]
    feature_names = [header[j] for j in feature_at]

    line_numbers, table = [], []
    for number, fields in rows:
        if len(fields) != len(header):
            raise DataError(
                f"{name}: line {number} has {len(fields)} fields but the header has {len(header)} "
                f"(delimiter {delimiter or 'whitespace'!r})"
            )
        line_numbers.append(number)
        table.append(fields)
    if not table:
        raise DataError(f"{name}: the header (line {header_line}) is followed by no data rows")
    columns = list(zip(*table))

    labels = columns[label_at]
    if "" in labels:
        row = labels.index("")
        raise DataError(f"{name}: line {line_numbers[row]}, label column {header[label_at]!r}: the label is empty")
    X = np.empty((len(table), len(feature_at)), dtype=np.float64)
    for k, j in enumerate(feature_at):
        try:
            X[:, k] = np.array(columns[j], dtype=np.float64)
        except ValueError:
            row = next(i for i, v in enumerate(columns[j]) if not _is_number(v))
            raise DataError(
                f"{name}: line {line_numbers[row]}, column {header[j]!r}: value {columns[j][row]!r} is not a number"
            ) from None
        bad = ~np.isfinite(X[:, k])
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise DataError(
                f"{name}: line {line_numbers[row]}, column {header[j]!r}: value {columns[j][row]!r} is not finite"
            )
    X, y_pm1, classes = validate(X, _numeric_labels_if_possible(list(labels)), feature_names, source=name)
    return X, y_pm1, classes, feature_names


def read_libsvm(file, n_features: int | None = None, *, source_name: str | None = None):
    """LIBSVM/SVMlight text, one row per line: `label idx:val ...` with 1-based indices; '#' starts a comment.

    Returns (X (n, d) float64 dense, missing entries 0, y_pm1 (n,) int8, classes (2,), feature_names ['x1'..'xd']),
    d = n_features if given else the largest index seen.
    """
    content, name = _read_bytes(file, source_name)
    text = _decode(content, name)
    labels, rows, cols, vals = [], [], [], []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        if not _is_number(tokens[0]):
            raise DataError(f"{name}: line {number}: label {tokens[0]!r} is not a number")
        seen = set()
        for token in tokens[1:]:
            index_text, colon, value_text = token.partition(":")
            if not colon or not index_text.isdigit() or not _is_number(value_text):
                raise DataError(f"{name}: line {number}: {token!r} is not of the form index:value")
            index, value = int(index_text), float(value_text)
            if index < 1:
                raise DataError(f"{name}: line {number}: feature index {index} in {token!r}; indices start at 1")
            if n_features is not None and index > n_features:
                raise DataError(f"{name}: line {number}: feature index {index} exceeds n_features={n_features}")
            if index in seen:
                raise DataError(f"{name}: line {number}: feature index {index} appears twice")
            if not np.isfinite(value):
                raise DataError(f"{name}: line {number}, feature {index}: value {value_text!r} is not finite")
            seen.add(index)
            rows.append(len(labels))
            cols.append(index - 1)
            vals.append(value)
        labels.append(tokens[0])
    if not labels:
        raise DataError(f"{name}: the file holds no data lines")
    d = n_features if n_features is not None else (max(cols) + 1 if cols else 0)
    X = np.zeros((len(labels), d), dtype=np.float64)
    X[rows, cols] = vals
    feature_names = [f"x{k}" for k in range(1, d + 1)]
    X, y_pm1, classes = validate(X, _numeric_labels_if_possible(labels), feature_names, source=name)
    return X, y_pm1, classes, feature_names


def read_npz(file, *, source_name: str | None = None):
    """NumPy .npz with arrays `X` (n, d), `y` (n,) and optionally `feature_names` (d,); no pickles are loaded.

    Returns (X (n, d) float64, y_pm1 (n,) int8, classes (2,), feature_names list[str], 'x1'..'xd' if absent).
    """
    content, name = _read_bytes(file, source_name)
    try:
        archive = np.load(io.BytesIO(content), allow_pickle=False)
    except (ValueError, OSError, zipfile.BadZipFile) as err:
        raise DataError(f"{name}: not a readable .npz archive: {err}") from err
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise DataError(f"{name}: holds a single array, not an .npz archive with arrays 'X' and 'y'")
    with archive:
        for key in ("X", "y"):
            if key not in archive.files:
                raise DataError(f"{name}: no array {key!r} in the archive; it holds {sorted(archive.files)}")
        arrays = {}
        for key in ("X", "y", "feature_names"):
            if key in archive.files:
                try:
                    arrays[key] = archive[key]
                except ValueError as err:
                    raise DataError(
                        f"{name}: array {key!r} cannot be loaded without pickling ({err}); save strings as a "
                        "fixed-width unicode array"
                    ) from err
    feature_names = arrays.get("feature_names")
    feature_names = None if feature_names is None else [str(v) for v in feature_names.reshape(-1)]
    X, y_pm1, classes = validate(arrays["X"], arrays["y"], feature_names, source=name)
    return X, y_pm1, classes, feature_names or [f"x{k}" for k in range(1, X.shape[1] + 1)]


_LOADERS = {
    ".csv": "csv", ".tsv": "csv", ".txt": "csv",
    ".libsvm": "libsvm", ".svm": "libsvm", ".svmlight": "libsvm",
    ".npz": "npz",
}
_DEFAULT_LABEL_NAMES = ("label", "y", "class", "target")


def load_file(path_or_file, label_column=None, *, source_name: str | None = None):
    """Read a data file by its extension: .csv/.tsv/.txt (with a header) | .libsvm/.svm/.svmlight | .npz.

    For an uploaded file-like object the extension is taken from `source_name` (e.g. the uploaded file's name).
    `label_column` applies to CSV/TSV only; if None, the one column named label, y, class or target (any case).
    Returns (X (n, d) float64, y_pm1 (n,) int8, classes (2,), feature_names list[str]).
    """
    name = source_name or (str(path_or_file) if isinstance(path_or_file, (str, os.PathLike))
                           else getattr(path_or_file, "name", None))
    suffix = Path(str(name)).suffix.lower() if name else ""
    kind = _LOADERS.get(suffix)
    if kind is None:
        raise DataError(
            f"{name or '<uploaded data>'}: unknown file extension {suffix!r}; supported: {sorted(_LOADERS)}"
        )
    if kind != "csv":
        if label_column is not None:
            raise DataError(f"{name}: label_column={label_column!r} applies to CSV/TSV files only; {suffix} files "
                            "carry their own labels")
        reader = read_libsvm if kind == "libsvm" else read_npz
        return reader(path_or_file, source_name=name)
    if label_column is None:
        content, name = _read_bytes(path_or_file, name)
        text = _decode(content, name)
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise DataError(f"{name}: the file is empty")
        header = next(_rows(lines[0], _sniff_delimiter(lines[0], name)))[1]
        matches = [h for h in header if h.lower() in _DEFAULT_LABEL_NAMES]
        if len(matches) != 1:
            raise DataError(
                f"{name}: say which column holds the labels (label_column=...); the header is {header} and "
                f"{'none' if not matches else 'several'} of its names are one of {list(_DEFAULT_LABEL_NAMES)}"
            )
        label_column, path_or_file = matches[0], io.BytesIO(content)
    return read_csv(path_or_file, label_column, source_name=name)


# ---------------------------------------------------------------------------------------------------------- OpenML

def cache_dir() -> Path:
    """Where OpenML downloads and their converted arrays are kept: $XGPC_CACHE_DIR, else ~/.cache/xgpc-explorer."""
    return Path(os.environ.get("XGPC_CACHE_DIR") or Path.home() / ".cache" / "xgpc-explorer")


def _openml_cache_file(data_id: int, one_hot: bool, cache: Path) -> Path:
    return cache / f"openml-{data_id}-{'onehot' if one_hot else 'ordinal'}.npz"


def _encode_openml_features(data, feature_names, categories: dict, one_hot: bool):
    """Numeric columns as given; each categorical column with the levels scikit-learn reports for it (those present
    in the data) sorted alphabetically, either ordinal (code = rank of the level, 0, 1, ...) or one-hot (one 0/1
    column 'name=level' per level). Missing or unknown levels become NaN, which `validate` then reports.
    Returns (X (n, d'), names)."""
    columns, names = [], []
    for j, feature in enumerate(feature_names):
        column = data[:, j]
        if feature not in categories:
            columns.append(column.astype(np.float64))
            names.append(feature)
            continue
        levels = sorted(str(level) for level in categories[feature])
        as_text = np.array([str(v) for v in column.tolist()])
        known = np.isin(as_text, levels)
        if one_hot:
            for level in levels:
                columns.append(np.where(known, (as_text == level).astype(np.float64), np.nan))
                names.append(f"{feature}={level}")
        else:
            code = {level: float(i) for i, level in enumerate(levels)}
            columns.append(np.array([code.get(v, np.nan) for v in as_text.tolist()]))
            names.append(feature)
    return np.column_stack(columns), names


def load_openml(data_id: int, *, one_hot: bool = False, positive=None, cache: Path | None = None):
    """Fetch OpenML data set `data_id` (binary target) through scikit-learn, convert and cache it as .npz.

    Categorical features: ordinal (default) or one-hot, see `_encode_openml_features`. Labels: `positive` ↦ +1 if
    given, else the minority class ↦ +1 (ties: sorted order), the convention of the offline copies.
    Returns (X (n, d) float64, y_pm1 (n,) int8, classes (2,) as str [class ↦ −1, class ↦ +1], feature_names).
    Network and OpenML failures propagate unchanged.
    """
    cache = Path(cache) if cache is not None else cache_dir()
    cached = _openml_cache_file(data_id, one_hot, cache)
    if cached.exists():
        X, y_pm1, _, feature_names = read_npz(cached)
        with np.load(cached, allow_pickle=False) as archive:
            return X, y_pm1, archive["classes"], feature_names

    from sklearn import datasets as sk_datasets

    source = f"OpenML data set {data_id}"
    bunch = sk_datasets.fetch_openml(data_id=data_id, as_frame=False, data_home=str(cache))
    data = bunch.data.toarray() if sparse.issparse(bunch.data) else np.asarray(bunch.data)
    X, feature_names = _encode_openml_features(data, list(bunch.feature_names), bunch.categories or {}, one_hot)
    target = np.asarray(bunch.target)
    if target.ndim != 1:
        raise DataError(f"{source}: has {target.shape[1]} target columns; a binary classification set needs one")
    target = target.astype(str)
    values, counts = np.unique(target, return_counts=True)
    if values.size != 2:
        raise DataError(f"{source}: needs 2 target classes, found {dict(zip(values.tolist(), counts.tolist()))}")
    if positive is not None:
        if str(positive) not in values:
            raise DataError(f"{source}: positive class {positive!r} is not among the targets {values.tolist()}")
        positive_class = str(positive)
    else:
        positive_class = values[1] if counts[0] == counts[1] else values[int(np.argmin(counts))]
    classes = np.array([values[values != positive_class][0], positive_class])
    y_pm1 = np.where(target == positive_class, 1, -1).astype(np.int8)
    X, y_pm1, _ = validate(X, y_pm1, feature_names, source=source)

    cache.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.stem}.{os.getpid()}.partial.npz")
    np.savez_compressed(partial, X=X, y=y_pm1, classes=classes, feature_names=np.array(feature_names))
    os.replace(partial, cached)
    return X, y_pm1, classes, feature_names


# ------------------------------------------------------------------------------------------------- paper datasets

@dataclass(frozen=True)
class PaperDataset:
    """One of the paper's benchmark sets (Table 1): its offline file, OpenML id (None: offline copy only), size."""

    file: str
    openml_id: int | None
    n: int
    d: int
    note: str
    one_hot: bool = False  # how OpenML categorical columns are encoded if the set has to be fetched


PAPER_DATASETS = {
    "diabetes": PaperDataset("diabetes.npz", 37, 768, 8,
                             "UCI Pima Indians diabetes, raw features (zeros stand for missing values); +1 = diabetic"),
    "diabetis_agp": PaperDataset("diabetis_agp.npz", None, 768, 8,
                                 "Rätsch 'diabetis' as read by the authors' scripts: Pima z-scored, rows permuted"),
    "german": PaperDataset("german.npz", 31, 1000, 20,
                           "UCI Statlog German credit, category codes Axyz as integers xyz; +1 = bad credit. "
                           "Fetched from OpenML its categories are ordinal codes in alphabetical level order instead"),
    "german_agp": PaperDataset("german_agp.npz", None, 1000, 20, "Rätsch/AGP 'german': german z-scored"),
    "german_numeric": PaperDataset("german_numeric.npz", None, 1000, 24, "UCI german.data-numeric (basis of german.numer)"),
    "banana": PaperDataset("banana.npz", 1460, 5300, 2, "Rätsch IDA banana, 3 significant digits, 8 duplicate rows"),
    "a9a": PaperDataset("a9a.npz", 1430, 48842, 123,
                        "LIBSVM a9a + a9a.t (UCI Adult, binarised); the paper's n = 36,974 is after deduplicate()"),
    "w8a": PaperDataset("w8a.npz", None, 49749, 300,
                        "LIBSVM w8a training file only; the paper's n = 34,780 is after deduplicate()"),
    "ijcnn1": PaperDataset("ijcnn1.npz", 1575, 141691, 22, "LIBSVM ijcnn1 (train + val) stacked on ijcnn1.t"),
    "bank_marketing": PaperDataset("bank_marketing.npz", 1461, 45211, 51,
                                   "UCI bank-full.csv, 7 numeric + 9 one-hot text columns; Table 1 says d = 43",
                                   one_hot=True),
}


_CHECKOUT_DATA_DIR = Path(__file__).resolve().parents[2] / "shared" / "data"


def resolve_data_dir(path=None) -> Path | None:
    """The directory holding the offline paper data: `path` if given, else $XGPC_DATA_DIR, else `../shared/data`
    beside this checkout when it exists, else None."""
    chosen = path if path is not None else os.environ.get("XGPC_DATA_DIR")
    if chosen:
        return Path(chosen)
    return _CHECKOUT_DATA_DIR if _CHECKOUT_DATA_DIR.is_dir() else None


def _load_paper(name: str, directory: Path | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    spec = PAPER_DATASETS[name]
    if directory is not None and (directory / spec.file).exists():
        X, y, _, names = read_npz(directory / spec.file)
        return X, y, names
    looked = (f"{spec.file} is not in {directory}" if directory is not None
              else "no data directory was given (argument data_dir or environment variable XGPC_DATA_DIR)")
    advice = (f"Set XGPC_DATA_DIR (or pass data_dir) to a directory holding {spec.file}, e.g. the project's "
              "../shared/data")
    if spec.openml_id is None:
        raise DataError(f"paper data set {name!r}: {looked}, and it has no OpenML copy to fetch. {advice}.")
    cache = cache_dir()
    try:
        X, y, _, names = load_openml(spec.openml_id, one_hot=spec.one_hot, cache=cache)
    except Exception as err:
        raise DataError(
            f"paper data set {name!r}: {looked}, and fetching OpenML id {spec.openml_id} into the cache {cache} "
            f"(XGPC_CACHE_DIR) failed: {type(err).__name__}: {err}. {advice}."
        ) from err
    return X, y, names


def load(name: str, data_dir=None, *, n: int | None = None, noise: float | None = None, seed: int = 0):
    """The public entry point: (X (n, d) float64, y (n,) int8 ±1) for a built-in or paper data set by name.

    Built-in sets are generated from `seed` with n rows (default 400) and their default noise (`DEFAULT_NOISE`);
    paper sets come from the data directory or OpenML (n and noise do not apply to them).
    """
    X, y, _ = load_with_names(name, data_dir, n=n, noise=noise, seed=seed)
    return X, y


def load_with_names(name: str, data_dir=None, *, n: int | None = None, noise: float | None = None, seed: int = 0):
    """As `load`, plus the feature names: (X, y, names (d,))."""
    if name in BUILTIN:
        n = 400 if n is None else n
        noise = DEFAULT_NOISE[name] if noise is None else noise
        X, y = BUILTIN[name](n, noise, np.random.default_rng(seed))
        return X, y, ["x1", "x2"]
    if name in PAPER_DATASETS:
        if n is not None or noise is not None:
            raise DataError(f"n and noise apply to the built-in sets only, not to the paper data set {name!r}")
        return _load_paper(name, resolve_data_dir(data_dir))
    raise DataError(f"unknown data set {name!r}; valid names: {list(BUILTIN) + list(PAPER_DATASETS)}")


def available(data_dir=None) -> list[str]:
    """Built-in names, then paper names whose file is in the data directory or already in the OpenML cache."""
    directory = resolve_data_dir(data_dir)
    names = list(BUILTIN)
    for name, spec in PAPER_DATASETS.items():
        offline = directory is not None and (directory / spec.file).exists()
        cached = spec.openml_id is not None and _openml_cache_file(spec.openml_id, spec.one_hot, cache_dir()).exists()
        if offline or cached:
            names.append(name)
    return names


def deduplicate(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Keep the first occurrence of each distinct (x, y) row, in the original order (the paper's aXa/wXa sizes)."""
    X = np.asarray(X)
    y = np.asarray(y)
    _, first = np.unique(np.c_[X, y], axis=0, return_index=True)
    keep = np.sort(first)
    return X[keep], y[keep]


# -------------------------------------------------------------------------------------------- splits and scaling

def train_test_split(X, y, test_fraction: float, rng, stratify: bool = True):
    """Random split into (X_train, X_test, y_train, y_test), rows kept in file order within each part.

    Stratified: each class contributes round(test_fraction · n_c) rows to the test part, at least 1 and at most
    n_c − 1 when the class has ≥ 2 rows, so every class is in both parts when possible.
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if not 0.0 < test_fraction < 1.0:
        raise DataError(f"test_fraction must be strictly between 0 and 1, got {test_fraction!r}")
    if len(X) != len(y):
        raise DataError(f"X has {len(X)} rows but y has {len(y)} labels")
    if len(y) < 2:
        raise DataError(f"need at least 2 rows to split, got {len(y)}")
    rng = np.random.default_rng(rng)
    test = np.zeros(len(y), dtype=bool)
    groups = [np.flatnonzero(y == c) for c in np.unique(y)] if stratify else [np.arange(len(y))]
    for members in groups:
        if len(members) < 2:
            continue
        k = min(max(int(round(test_fraction * len(members))), 1), len(members) - 1)
        test[rng.permutation(members)[:k]] = True
    return X[~test], X[test], y[~test], y[test]


def kfold_indices(y, k: int, rng=None, stratified: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    """k folds as a list of (train_idx, test_idx), sorted int arrays; every index is in exactly one test fold.

    rng=None, stratified=False: contiguous folds in file order (the paper's protocol; sizes differ by ≤ 1).
    stratified: each class's rows (in file order, or shuffled by `rng`) are dealt round-robin over the folds, so a
    class's count per fold differs by ≤ 1 across folds. rng given, stratified=False: contiguous folds of a shuffle.
    """
    y = np.asarray(y)
    n = len(y)
    if int(k) != k or not 2 <= k <= n:
        raise DataError(f"k must be an integer with 2 ≤ k ≤ n = {n}, got k={k!r}")
    rng = None if rng is None else np.random.default_rng(rng)
    fold_of = np.empty(n, dtype=np.intp)
    if stratified:
        classes, counts = np.unique(y, return_counts=True)
        if counts.min() < k:
            small = classes[np.argmin(counts)].item()
            raise DataError(f"class {small!r} has {counts.min()} rows, fewer than k={k} stratified folds")
        start = 0
        for c in classes:
            members = np.flatnonzero(y == c)
            if rng is not None:
                members = rng.permutation(members)
            fold_of[members] = (start + np.arange(len(members))) % k
            start = (start + len(members)) % k
    else:
        order = np.arange(n) if rng is None else rng.permutation(n)
        for f, chunk in enumerate(np.array_split(order, k)):
            fold_of[chunk] = f
    return [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(k)]


class Standardizer:
    """z = (x − mean) / scale per column, with the training part's mean and std (ddof=0); a constant column
    gets scale 1. Statistics are (d,) arrays; `to_dict`/`from_dict` use plain lists for JSON save files."""

    def __init__(self, mean=None, scale=None):
        self.mean = None if mean is None else np.asarray(mean, dtype=np.float64)
        self.scale = None if scale is None else np.asarray(scale, dtype=np.float64)
        if (self.mean is None) != (self.scale is None):
            raise DataError("Standardizer needs both mean and scale, or neither")
        if self.mean is not None:
            if self.mean.ndim != 1 or self.mean.shape != self.scale.shape:
                raise DataError(f"mean and scale must be 1-D of equal length, got {self.mean.shape} and {self.scale.shape}")
            if not (np.all(np.isfinite(self.mean)) and np.all(np.isfinite(self.scale)) and np.all(self.scale > 0)):
                raise DataError("mean must be finite and scale finite and > 0")

    def fit(self, X) -> "Standardizer":
        """Learn mean (d,) and scale (d,) from the training inputs X (n, d)."""
        X = self._as_2d(X, None)
        self.mean = X.mean(axis=0)
        std = X.std(axis=0)
        self.scale = np.where(np.ptp(X, axis=0) == 0, 1.0, std)
        return self

    def _as_2d(self, X, d) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or (d is not None and X.shape[1] != d):
            raise DataError(f"expected X of shape (n, {d if d is not None else 'd'}), got {X.shape}")
        if len(X) == 0:
            raise DataError("X has no rows")
        if not np.all(np.isfinite(X)):
            j = int(np.flatnonzero(~np.isfinite(X).all(axis=0))[0])
            raise DataError(f"column {j} (0-based) holds a non-finite value; standardise only checked data")
        return X

    def _fitted_d(self) -> int:
        if self.mean is None:
            raise DataError("Standardizer is not fitted; call fit(X_train) first")
        return len(self.mean)

    def transform(self, X) -> np.ndarray:
        """(X − mean) / scale, shape (n, d)."""
        return (self._as_2d(X, self._fitted_d()) - self.mean) / self.scale

    def inverse_transform(self, Z) -> np.ndarray:
        """Z · scale + mean, shape (n, d)."""
        return self._as_2d(Z, self._fitted_d()) * self.scale + self.mean

    def to_dict(self) -> dict:
        self._fitted_d()
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist()}

    @classmethod
    def from_dict(cls, state: dict) -> "Standardizer":
        return cls(state["mean"], state["scale"])
