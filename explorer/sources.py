"""The data-source protocol the engines read their training rows through (`DataSource`: minibatches by row index,
so the SVI loop never needs the whole training set in memory), beside the numerics: no file format here; the
catalogue's file sources (`explorer.data.sources`: `.npy`, Zarr, Parquet) implement it. Here also the in-memory rows
(`ArraySource`), views of another source's rows (`SubsetSource`, `EncodedSource`; `scaling.ScaledSource`), and a
file's labels mapped to 0…K−1 as in memory (`encoded_source`; README "Data larger than memory").
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cached_property

import numpy as np

from explorer.inputs import labelled_data
from explorer.validation import DataError, show_list

CHUNK_ROWS = 65536
"""Rows per block when a source is read through (statistics, labels, evaluation)."""


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
    """Base class of the training-data sources: `n` (rows), `d` (features), `batch(index)`, and `labels()` to read
    the labels alone; `n_classes`, `label_values`, `sample` (every source draws minibatches with
    `minibatch_indices`, so two engines given the same seed see the same rows whatever their method) and `chunks`
    come with it. Another backend (a Dask array, an HDF5 store, a database cursor) plugs in by subclassing it
    (override `sample` only to read blocks, and accept that its minibatches then differ from the other sources')."""

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
        """The number of classes the labels span, highest class index + 1 (of `label_values`)."""
        return int(self.label_values[-1]) + 1

    @cached_property
    def label_values(self) -> np.ndarray:
        """The distinct labels the rows hold, sorted (k,) int64, counted block by block (`LabelCount`; the file
        sources count them in their check's pass)."""
        labels, count = self.labels(), LabelCount(self)
        for start, stop in row_blocks(self.n, CHUNK_ROWS):
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
            for start, stop in row_blocks(self.n, size):
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
        self.n_classes = _within(self.label_values, n_classes)

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.X.take(index, axis=0), self.y.take(index)  # take: the same rows, faster than X[index]

    def labels(self) -> np.ndarray:
        return self.y

    def extended(self, X, y, name: str = "X") -> "ArraySource":
        """A source of these rows followed by X (k, d), y (k,) class indices (one array each, copied once), with the
        same classes: only the new rows are checked (`inputs.labelled_data`, named `name`; a class index beyond
        `n_classes` raises DataError)."""
        X, y = labelled_data(X, y, d=self.d, names=(name, "y"))
        rows = copy.copy(self)
        rows.label_values = np.union1d(self.label_values, y)
        _within(rows.label_values, self.n_classes)
        rows.X, rows.y = np.vstack([self.X, X]), np.concatenate([self.y, y])
        rows.n = len(rows.y)
        return rows


def _within(label_values: np.ndarray, n_classes: int | None) -> int:
    """K: `n_classes`, or the highest of the sorted distinct labels `label_values` + 1; DataError when a label is
    beyond `n_classes`."""
    highest = int(label_values[-1])
    if n_classes is not None and n_classes <= highest:
        raise DataError(f"y holds the class index {highest}, beyond the {n_classes} classes 0…{n_classes - 1}")
    return highest + 1 if n_classes is None else int(n_classes)


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


class LabelCount:
    """The distinct labels of a source, counted block by block in one pass (`add` each block of class indices and
    its first row), in memory bounded by `MAX_CLASSES` values: DataError naming the label file (`label_location`)
    and the row of the first label beyond that many."""

    def __init__(self, source: DataSource):
        self.source, self.values = source, np.zeros(0, dtype=np.int64)

    BINCOUNT_LABELS = 1 << 20
    """Below this highest label a block's distinct labels are found by `np.bincount` (≤ 8 MB, far faster than
    `np.unique`'s sort)."""

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
    """(`source` with labels 0…K−1, classes (K,) its distinct labels, `label_values`): the source itself when they
    are 0…K−1 already, else an `EncodedSource` of it (labels 1 and 2 in a file are two classes, as in memory)."""
    classes = source.label_values
    if np.array_equal(classes, np.arange(len(classes))):
        return source, classes
    return EncodedSource(source, classes), classes


def as_source(X, y=None, *, n_classes: int | None = None) -> DataSource:
    """A `DataSource` given as is (y None), or an `ArraySource` of the arrays X (n, d), y (n,), with `n_classes` K
    when the model has classes the rows do not hold (default: the labels' highest index + 1; a source knows its
    own)."""
    if isinstance(X, DataSource):
        if y is not None:
            raise ValueError("give either a data source (and y=None) or the arrays X and y")
        return X
    return ArraySource(X, y, n_classes=n_classes)


def row_blocks(n: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive blocks of at most `size` of n rows."""
    for start in range(0, n, size):
        yield start, min(start + size, n)
