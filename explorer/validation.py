"""Checks at the data boundary: labels to class indices 0…K−1, and float features that are finite (DESIGN §5).

Internally every classifier sees X float64 (n, d), finite, and y int64 class indices 0…K−1 with the user's label
values kept as `classes` (K,) (DESIGN §1; a binary method writes them as ±1 in its own equations). Bad input raises
`DataError` naming the source, line or row, column and value; nothing is silently dropped or coerced. Values in
messages are shown as plain Python values (`0`, `1`, `'yes'`), never as NumPy reprs, and long ones are cut short.
"""

from __future__ import annotations

import datetime
import numbers

import numpy as np
from scipy import sparse

SHOWN_VALUE_CHARACTERS = 60


class DataError(ValueError):
    """Bad input data; the message names the file, line, column and offending value where there are such."""


def show(value) -> str:
    """repr of a value as a user would write it: NumPy scalars as plain Python values, long reprs cut short."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    if len(text) > SHOWN_VALUE_CHARACTERS:
        text = f"{text[: SHOWN_VALUE_CHARACTERS - 1]}… ({len(text)} characters)"
    return text


SHOWN_LIST_ITEMS = 12


def show_list(values) -> str:
    """A list of values shown with `show`: [0, 1] or ['no', 'yes']; a long list by its first items and its length."""
    values = list(values)
    shown = ", ".join(show(v) for v in values[:SHOWN_LIST_ITEMS])
    return f"[{shown}, … ({len(values)} in all)]" if len(values) > SHOWN_LIST_ITEMS else f"[{shown}]"


def prefix(source: str | None) -> str:
    return f"{source}: " if source else ""


def column_label(j: int, feature_names) -> str:
    return f"column {show(feature_names[j])}" if feature_names is not None else f"column {j} (0-based)"


# ----------------------------------------------------------------------------------------------------------- labels


def _label_kind(value) -> str:
    """The kind of a label: text, number (bools too) or its type's name; labels of two kinds cannot be sorted."""
    if isinstance(value, str):
        return "text"
    return "number" if isinstance(value, numbers.Number) else type(value).__name__


def comparable_labels(y: np.ndarray, *, source: str | None = None) -> None:
    """DataError naming the first row of the labels y (n,) that is missing (None or NaN) or of another kind than
    row 0's (a number among text): labels that cannot be sorted into classes. Only an object array can hold them."""
    if y.dtype != object:
        return
    values = y.reshape(-1).tolist()
    types = set(map(type, values))
    if len(types) == 1 and issubclass(types.pop(), (str, int)):  # all text or all whole numbers: sortable (20× faster)
        return
    for i, value in enumerate(values):
        if value is None or (isinstance(value, numbers.Number) and value != value):
            raise DataError(
                f"{prefix(source)}label at row index {i} is {show(value)}: every row needs a label; remove the "
                "unlabelled rows or give them a class"
            )
    kinds = [_label_kind(value) for value in values]
    other = next((i for i, kind in enumerate(kinds) if kind != kinds[0]), None)
    if other is not None:
        raise DataError(
            f"{prefix(source)}labels mix {kinds[0]} and {kinds[other]}: row index 0 holds {show(values[0])}, row "
            f"index {other} holds {show(values[other])}; give every label as {kinds[0]} (or every one as "
            f"{kinds[other]})"
        )


def encode_labels(y, classes=None, *, source: str | None = None, fewest: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Map K ≥ 2 distinct label values to class indices 0…K−1 in sorted order: classes[k] ↦ k. The one label
    encoder of every face (`XGPClassifier`, `Model.set_data` through `validate`, the upload); a run keeps the
    classes (`Run.classes`) and the faces show them.

    y: (n,) of any comparable values (ints, strings, bools, ±1, 0/1, …). Returns (y int64 (n,), classes (K,)). So
    {0, 1} and {False, True} are unchanged; {−1, +1}: −1 ↦ 0, +1 ↦ 1; {'a', 'b', 'c'} ↦ 0, 1, 2. `classes` (K,),
    sorted and distinct, fixes the classes (a model's classes its labels need not all hold: `partial_fit`); a label
    outside them raises DataError naming it. Fewer than `fewest` distinct labels raise DataError (a face whose method
    says what it supports passes 1 and lets `methods.check_classes` refuse them, naming the method); a method that
    supports fewer classes than the labels hold refuses them too.
    """
    try:
        y = np.asarray(y)
    except (ValueError, TypeError) as err:
        raise DataError(f"{prefix(source)}labels must be one value per row: {err}") from None
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise DataError(f"{prefix(source)}labels must be one value per row, got an array of shape {y.shape}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        row = int(np.flatnonzero(~np.isfinite(y))[0])
        raise DataError(f"{prefix(source)}label at row index {row} is {show(y[row])}, not a class value")
    comparable_labels(y, source=source)
    if classes is not None:
        classes = np.asarray(classes)
        unknown = np.setdiff1d(y, classes)
        if len(unknown):
            raise DataError(f"{prefix(source)}labels {show_list(unknown)} are outside the classes {show_list(classes)}")
        return np.searchsorted(classes, y).astype(np.int64), classes
    try:
        classes, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    except TypeError as err:
        kinds = sorted({type(v).__name__ for v in y.tolist()})
        raise DataError(f"{prefix(source)}labels mix value types {kinds} and cannot be compared: {err}") from None
    if classes.size < fewest:
        found = ", ".join(f"{show(c)} ({k} rows)" for c, k in zip(classes.tolist(), counts.tolist()))
        raise DataError(
            f"{prefix(source)}classification needs at least 2 label values, found {classes.size} "
            f"{'class' if classes.size == 1 else 'classes'}: {found or 'none'}"
        )
    return inverse.reshape(-1).astype(np.int64), classes


# ----------------------------------------------------------------------------------------------------------- checks


def _to_float_columns(X: np.ndarray, feature_names, source) -> np.ndarray:
    """Convert a 2-D object/string array to float64 column by column, naming the first non-numeric value."""
    out = np.empty(X.shape, dtype=np.float64)
    for j in range(X.shape[1]):
        for i, value in enumerate(X[:, j].tolist()):
            try:
                out[i, j] = float(value)
            except (TypeError, ValueError, OverflowError):
                dated = isinstance(
                    value, (datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64)
                )
                hint = "; dates and times must be converted to numbers first" if dated else ""
                raise DataError(
                    f"{prefix(source)}{column_label(j, feature_names)} is not numeric: "
                    f"row index {i} holds {show(value)}{hint}"
                ) from None
    return out


def validate(X, y, feature_names=None, source: str | None = None):
    """Check and convert a classification data set. Returns (X float64 C-contiguous (n, d), y (n,) class indices,
    classes (K,)).

    X must be 2-D, numeric and finite; y has one of K ≥ 2 label values per row (see `encode_labels`); n ≥ 2.
    """
    if sparse.issparse(X):
        X = X.toarray()
    try:
        X = np.asarray(X)
    except (ValueError, TypeError) as err:
        raise DataError(f"{prefix(source)}X must be a 2-D table of numbers (rows of equal length): {err}") from None
    if X.ndim != 2:
        hint = " (use X.reshape(-1, 1) for a single feature)" if X.ndim == 1 else ""
        raise DataError(f"{prefix(source)}X must be 2-D (n rows, d features), got shape {X.shape}{hint}")
    n, d = X.shape
    if d == 0:
        raise DataError(f"{prefix(source)}X has no feature columns (shape {X.shape})")
    if feature_names is not None:
        feature_names = [str(name) for name in feature_names]
        if len(feature_names) != d:
            raise DataError(f"{prefix(source)}{len(feature_names)} feature names given for {d} feature columns")
    try:
        y = np.asarray(y)
    except (ValueError, TypeError) as err:
        raise DataError(f"{prefix(source)}labels must be one value per row: {err}") from None
    if y.shape[:1] != (n,):
        raise DataError(f"{prefix(source)}X has {n} rows but y has {y.shape[0] if y.ndim else 'no'} labels")
    if n < 2:
        raise DataError(f"{prefix(source)}need at least 2 rows to classify, got {n}")
    if X.dtype.kind == "c":
        raise DataError(f"{prefix(source)}X holds complex numbers; features must be real")
    if X.dtype.kind in "mM":
        raise DataError(f"{prefix(source)}X holds dates or times (dtype {X.dtype}); convert them to numbers first")
    if X.dtype.kind == "V":
        raise DataError(f"{prefix(source)}X has a structured dtype {X.dtype}; features must be a plain 2-D array")
    if X.dtype.kind in "biuf":
        X = X.astype(np.float64, copy=False)
    else:
        X = _to_float_columns(X, feature_names, source)
    finite = np.isfinite(X)
    if not finite.all():
        j = int(np.flatnonzero(~finite.all(axis=0))[0])
        i = int(np.flatnonzero(~finite[:, j])[0])
        raise DataError(
            f"{prefix(source)}{column_label(j, feature_names)} has a non-finite value {show(X[i, j])} "
            f"(first at row index {i}); NaN and inf are not allowed"
        )
    y, classes = encode_labels(y, source=source)
    return np.ascontiguousarray(X), y, classes
