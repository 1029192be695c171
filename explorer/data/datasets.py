"""Data sets by name: the built-in 2-D teaching sets, the paper's sets (files or OpenML), splits. The entry point
callers use (`datasets.load`, `datasets.read_csv`, `datasets.DataError`, …): it re-exports the public names of
`readers`, `registry`, `validation` and `scaling.Standardizer`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import sparse

from explorer.data import readers
from explorer.data.readers import read_csv, read_libsvm, read_npz  # noqa: F401
from explorer.data.registry import (  # noqa: F401  (re-exported, as the readers' and validation's names)
    PAPER_DATASETS,
    ChecksumWarning,
    cache_dir,
    check_checksum,
    data_locations,
    find_openml_copy,
    find_paper_file,
    how_to_get,
    openml_cache_file,
    paper_availability,
)
from explorer.data.sources import SOURCE_FORMATS, open_source
from explorer.scaling import Standardizer  # noqa: F401
from explorer.sources import DataSource, SubsetSource
from explorer.validation import DataError, encode_labels, show, validate  # noqa: F401


def load_file(path_or_file, label_column=None, *, source_name: str | None = None, out_of_core: bool = False):
    """Read a data file by its extension (`readers.LOADERS`: CSV/TSV, LIBSVM, .npz), or open a large one out of
    core.

    A path to a `.npy` (features; labels in `<stem>_labels.npy`), `.zarr` or `.parquet`/`.pq` file is never read
    into memory here: with `out_of_core=True` the call returns its `sources.DataSource` (`sources.open_source`),
    which `XGPClassifier.fit`, `Model.set_data` and `run.Run` take in place of arrays; without it, a DataError says
    so. Nothing is loaded silently, whatever the file's size.

    Parameters
    ----------
    path_or_file : str, path-like or file-like
        The file (an upload's file object for the in-memory formats, with `source_name` giving its name).
    label_column : str, optional
        The label column of a CSV/TSV or Parquet file (default: the one named label, y, class or target).
    source_name : str, optional
        The name to read the extension from and to name in errors.
    out_of_core : bool, default False
        Return the source of a `.npy`, `.zarr` or `.parquet`/`.pq` file (refused for the other formats).

    Returns
    -------
    (X (n, d) float64, y (n,) int64 class indices 0…K−1, classes (K,), feature_names list[str]), or the
    `DataSource` of an out-of-core format with `out_of_core=True`.

    Examples
    --------
    >>> import numpy as np, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> np.save(folder / "big.npy", np.ones((1000, 3), dtype=np.float32))
    >>> np.save(folder / "big_labels.npy", np.arange(1000) % 2)
    >>> source = load_file(folder / "big.npy", out_of_core=True)
    >>> source.n, source.d, source.n_classes
    (1000, 3, 2)
    """
    name = source_name or (
        str(path_or_file) if isinstance(path_or_file, (str, os.PathLike)) else getattr(path_or_file, "name", None)
    )
    suffix = Path(str(name)).suffix.lower() if name else ""
    name = name or "<uploaded data>"
    if suffix in SOURCE_FORMATS:
        if not isinstance(path_or_file, (str, os.PathLike)):
            raise DataError(f"{name}: {suffix} files are read out of core from a path on disk, not from an upload")
        if not out_of_core:
            raise DataError(
                f"{name}: {suffix} files are read out of core, never loaded whole: "
                "datasets.load_file(path, out_of_core=True) (or datasets.open_source(path)) returns its data source, "
                "which XGPClassifier.fit, Model.set_data and Run take in place of arrays"
            )
        return open_source(path_or_file, label_column=label_column)
    if out_of_core:
        raise DataError(f"{name}: out_of_core applies to {sorted(SOURCE_FORMATS)} files, not {suffix or 'this file'}")
    reader = readers.LOADERS.get(suffix)
    if reader is None:
        raise DataError(f"{name}: unknown file extension {suffix!r}; supported: {sorted(readers.LOADERS)}")
    if reader is read_csv:
        return read_csv(path_or_file, label_column, source_name=name)
    if label_column is not None:
        raise DataError(
            f"{name}: label_column={show(label_column)} applies to CSV/TSV files only; {suffix} files carry their own "
            "labels"
        )
    return reader(path_or_file, source_name=name)


# ----------------------------------------------------------------------------------------------- built-in 2-D sets


BUILTIN: dict[str, Callable] = {}
"""The built-in 2-D sets by name: make(n, noise, rng) → (X (n, 2), y (n,) class indices)."""
DEFAULT_NOISE: dict[str, float] = {}
BUILTIN_CLASSES: dict[str, int] = {}
"""The number of classes K of each built-in set (its labels are the class indices 0…K−1)."""


def _builtin(name: str, noise: float, K: int = 2):
    """Register the built-in set `name` (default noise `noise`, K classes) from `parts(sizes, rng)`, the classes'
    points before the noise (one (n_k, 2) array per class k, n // K rows each and one more for the first n mod K: with
    K = 2 the −1 class takes the odd row): the set is make(n, noise, rng) → (X (n, 2), y (n,) class indices k for the
    rows of part k), its arguments checked, N(0, noise²) added to every coordinate and the rows shuffled."""

    def register(parts):
        def make(n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
            if int(n) != n or n < 4:
                raise DataError(f"a built-in data set needs an integer n ≥ 4 rows, got n={show(n)}")
            if not np.isfinite(noise) or noise < 0:
                raise DataError(f"noise must be a finite number ≥ 0, got noise={show(noise)}")
            rng = np.random.default_rng(rng)
            classes = parts(tuple(n // K + (k < n % K) for k in range(K)), rng)
            X = np.vstack(classes)
            y = np.repeat(np.arange(K, dtype=np.int64), [len(part) for part in classes])
            X = X + noise * rng.standard_normal(X.shape)
            order = rng.permutation(len(y))
            return np.ascontiguousarray(X[order]), y[order]

        make.__name__, make.__qualname__, make.__doc__ = parts.__name__, parts.__qualname__, parts.__doc__
        BUILTIN[name], DEFAULT_NOISE[name], BUILTIN_CLASSES[name] = make, noise, K
        return make

    return register


@_builtin("banana-like", 0.25)
def make_banana(sizes, rng):
    """Banana-like 2-D set: +1 on the parabolic arc x₂ = x₁²/2 − 1 (|x₁| ≤ 2); −1 partly inside its bowl
    (a blob at (0, 0.9)) and partly on a wider arc below it. Returns (X (n, 2), y (n,) class indices, 1 for +1)."""
    n_neg, n_pos = sizes
    u = rng.uniform(-2.0, 2.0, n_pos)
    X_pos = np.c_[u, 0.5 * u**2 - 1.0]
    n_blob = n_neg // 2
    blob = np.array([0.0, 0.9]) + 0.35 * rng.standard_normal((n_blob, 2))
    v = rng.uniform(-2.6, 2.6, n_neg - n_blob)
    return [np.vstack([blob, np.c_[v, 0.5 * v**2 - 2.4]]), X_pos]


@_builtin("moons", 0.15)
def make_moons(sizes, rng):
    """Two interleaved half circles: −1 on (cos t, sin t), +1 on (1 − cos t, ½ − sin t), t ~ U(0, π)."""
    t_neg, t_pos = (rng.uniform(0.0, np.pi, m) for m in sizes)
    return [np.c_[np.cos(t_neg), np.sin(t_neg)], np.c_[1.0 - np.cos(t_pos), 0.5 - np.sin(t_pos)]]


@_builtin("circles", 0.08)
def make_circles(sizes, rng):
    """Two concentric circles: −1 on radius 1, +1 on radius 0.5, angles uniform."""
    a_neg, a_pos = (rng.uniform(0.0, 2.0 * np.pi, m) for m in sizes)
    return [np.c_[np.cos(a_neg), np.sin(a_neg)], 0.5 * np.c_[np.cos(a_pos), np.sin(a_pos)]]


@_builtin("xor", 0.1)
def make_xor(sizes, rng):
    """XOR on [−1, 1]²: +1 in the quadrants where x₁x₂ > 0, −1 where x₁x₂ < 0 (before the noise is added)."""
    parts = []
    for m, sign in zip(sizes, (-1.0, 1.0)):  # x₂'s sign is x₁'s times `sign`
        magnitude, s1 = rng.uniform(0.0, 1.0, (m, 2)), rng.choice([-1.0, 1.0], m)
        parts.append(magnitude * np.c_[s1, sign * s1])
    return parts


@_builtin("blobs", 0.7)
def make_blobs(sizes, rng):
    """Two isotropic Gaussian blobs with std `noise`: −1 around (−1, −1), +1 around (+1, +1)."""
    return [np.full((sizes[0], 2), -1.0), np.full((sizes[1], 2), 1.0)]


@_builtin("blobs-3", 0.6, 3)
def make_three_blobs(sizes, rng):
    """Three isotropic Gaussian blobs with std `noise`, class k around 1.5·(cos a_k, sin a_k) with a_k = 90° + 120°·k
    (the corners of an equilateral triangle). Returns (X (n, 2), y (n,) class indices 0, 1, 2)."""
    angles = np.deg2rad(90.0 + 120.0 * np.arange(3))
    centres = 1.5 * np.c_[np.cos(angles), np.sin(angles)]
    return [np.tile(c, (m, 1)) for c, m in zip(centres, sizes)]


@_builtin("spiral-3", 0.05, 3)
def make_three_spiral(sizes, rng):
    """A three-arm spiral: class k on the arm r = 0.15 + t, angle = 120°·k + 1.5π·t for t ~ U(0, 1) (three quarters
    of a turn from near the centre out to radius 1.15). Returns (X (n, 2), y (n,) class indices 0, 1, 2)."""
    arms = []
    for k, m in enumerate(sizes):
        t = rng.uniform(0.0, 1.0, m)
        radius, angle = 0.15 + t, 2.0 * np.pi * k / 3.0 + 1.5 * np.pi * t
        arms.append(radius[:, None] * np.c_[np.cos(angle), np.sin(angle)])
    return arms


@_builtin("xor-3", 0.05, 3)
def make_three_xor(sizes, rng):
    """The three-class XOR: [−1.5, 1.5]² cut into 3 × 3 unit cells, cell (i, j) of class (i + j) mod 3 (XOR is the
    same rule with 2 × 2 cells mod 2), so each class holds three cells, one in every row and column; a class's points
    are uniform over its cells (before the noise is added). Returns (X (n, 2), y (n,) class indices 0, 1, 2)."""
    parts = []
    for k, m in enumerate(sizes):
        row = rng.integers(0, 3, m)
        column = (k - row) % 3  # (row + column) mod 3 = k
        parts.append(np.c_[column, row] - 1.5 + rng.uniform(0.0, 1.0, (m, 2)))
    return parts


# ---------------------------------------------------------------------------------------------------------- OpenML


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


def load_openml(data_id: int, *, one_hot: bool = False, cache: Path | None = None):
    """Fetch OpenML data set `data_id` (binary target) through scikit-learn, convert and cache it as .npz.

    Categorical features: ordinal (default) or one-hot, see `_encode_openml_features`. Labels: the minority class ↦ +1
    (ties: sorted order), the convention of the offline copies. Returns (X (n, d) float64, y (n,) int64 class indices,
    classes (2,) as str [class ↦ 0 (−1), class ↦ 1 (+1)], feature_names). Network and OpenML failures propagate
    unchanged.
    """
    cache = Path(cache) if cache is not None else cache_dir()
    cached = openml_cache_file(data_id, one_hot, cache)
    if cached.exists():
        X, y, _, feature_names = read_npz(cached)
        with np.load(cached, allow_pickle=False) as archive:
            return X, y, archive["classes"], feature_names

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
    positive_class = values[1] if counts[0] == counts[1] else values[int(np.argmin(counts))]
    classes = np.array([values[values != positive_class][0], positive_class])
    y = np.where(target == positive_class, 1, -1).astype(np.int8)
    X, y, _ = validate(X, y, feature_names, source=source)

    cache.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.stem}.{os.getpid()}.partial.npz")
    np.savez_compressed(partial, X=X, y=y, classes=classes, feature_names=np.array(feature_names))
    os.replace(partial, cached)
    return X, y, classes, feature_names


# ------------------------------------------------------------------------------------------------- paper datasets


def _load_paper(name: str, data_dir) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """A paper set from its file (checksum checked), else its converted OpenML copy, else OpenML when online."""
    spec = PAPER_DATASETS[name]
    path = find_paper_file(name, data_dir)
    if path is not None:
        check_checksum(spec, path)
        X, y, _, names = read_npz(path)
        return X, y, names
    copy = find_openml_copy(name, data_dir)
    looked = f"{spec.file} is in none of " + ", ".join(f"{d} ({how})" for how, d in data_locations(data_dir))
    if spec.openml_id is None:
        raise DataError(
            f"paper data set {show(name)}: {looked}, and it has no OpenML copy. To get it: {how_to_get(name)}."
        )
    cache = copy.parent if copy is not None else cache_dir()
    try:
        X, y, _, names = load_openml(spec.openml_id, one_hot=spec.one_hot, cache=cache)
    except DataError:
        raise
    except Exception as err:  # network, HTTP and OpenML failures all mean the same thing here
        raise DataError(
            f"paper data set {show(name)}: {looked}, and fetching OpenML id {spec.openml_id} into the cache {cache} "
            f"(XGPC_CACHE_DIR) failed: {type(err).__name__}: {err}. To get it: {how_to_get(name)}."
        ) from err
    return X, y, names


def load(name: str, data_dir=None, *, n: int | None = None, noise: float | None = None, seed: int = 0):
    """Load a built-in or paper data set by name.

    Built-in sets are generated from `seed` with n rows (default 400) and their default noise (`DEFAULT_NOISE`);
    paper sets come from the data directories (`registry.data_locations`) or OpenML (n and noise do not apply).

    Parameters
    ----------
    name : str
        A built-in name (``BUILTIN``: "banana-like", "moons", "circles", "xor", "blobs", and the three-class
        "blobs-3", "spiral-3", "xor-3") or a paper set
        (``PAPER_DATASETS``, e.g. "banana", "diabetis", "a9a").
    data_dir : str or path-like, optional
        A folder searched before the default data locations.
    n : int, optional
        Rows of a built-in set (default 400).
    noise : float, optional
        Noise of a built-in set (default ``DEFAULT_NOISE[name]``).
    seed : int, default 0
        Seed of a built-in set's generator.

    Returns
    -------
    X : ndarray of shape (n, d), float64
        The inputs in their own units.
    y : ndarray of shape (n,), int64
        Class indices 0…K−1: for two classes the data's classes −1 and +1 in sorted order (K of a built-in set:
        ``BUILTIN_CLASSES``).

    Raises
    ------
    DataError
        A name that is not a string or unknown (the message lists the valid ones), n or noise given for a paper set,
        or a paper set that is in no data location and cannot be fetched (the message says how to get it).

    Examples
    --------
    >>> from explorer.data import datasets
    >>> X, y = datasets.load("moons", n=50, seed=1)
    >>> X.shape, sorted(set(y.tolist()))
    ((50, 2), [0, 1])
    """
    X, y, _ = load_with_names(name, data_dir, n=n, noise=noise, seed=seed)
    return X, y


def load_with_names(name: str, data_dir=None, *, n: int | None = None, noise: float | None = None, seed: int = 0):
    """Load a data set by name, as `load`, with its feature names.

    Parameters
    ----------
    name, data_dir, n, noise, seed
        As for `load`.

    Returns
    -------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,), int64 (class indices 0…K−1)
    names : list of str, length d
        The features' names ("x1", "x2" for the built-in sets).

    Examples
    --------
    >>> from explorer.data import datasets
    >>> datasets.load_with_names("xor", n=20)[2]
    ['x1', 'x2']
    """
    if not isinstance(name, str):
        raise DataError(f"a data set name must be a string, got {show(name)}")
    if name in BUILTIN:
        n = 400 if n is None else n
        noise = DEFAULT_NOISE[name] if noise is None else noise
        X, y = BUILTIN[name](n, noise, np.random.default_rng(seed))
        return X, y, ["x1", "x2"]
    if name in PAPER_DATASETS:
        if n is not None or noise is not None:
            raise DataError(f"n and noise apply to the built-in sets only, not to the paper data set {show(name)}")
        return _load_paper(name, data_dir)
    raise DataError(f"unknown data set {show(name)}; valid names: {list(BUILTIN) + list(PAPER_DATASETS)}")


def available(data_dir=None) -> list[str]:
    """The names `load` can read without the network.

    Parameters
    ----------
    data_dir : str or path-like, optional
        A folder searched before the default data locations.

    Returns
    -------
    list of str
        The built-in names, then the paper sets whose file or converted OpenML copy is found
        (see `paper_availability`).

    Examples
    --------
    >>> from explorer.data import datasets
    >>> datasets.available()[:2]
    ['banana-like', 'moons']
    """
    return list(BUILTIN) + [row["name"] for row in paper_availability(data_dir) if row["available"]]


def deduplicate(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Keep the first occurrence of each distinct (x, y) row, in the original order (the paper's aXa/wXa sizes)."""
    X = np.asarray(X)
    y = np.asarray(y)
    _, first = np.unique(np.c_[X, y], axis=0, return_index=True)
    keep = np.sort(first)
    return X[keep], y[keep]


# -------------------------------------------------------------------------------------------- splits and scaling


def train_test_split(X, y, test_fraction: float, rng, stratify: bool = True):
    """Split the rows at random into a training and a test part, keeping file order within each part.

    Stratified: each class contributes round(test_fraction · n_c) rows to the test part, at least 1 and at most
    n_c − 1 when the class has ≥ 2 rows, so every class is in both parts when possible.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
        Labels of any kind (only equality is used).
    test_fraction : float
        Share of the rows in the test part, strictly between 0 and 1.
    rng : numpy.random.Generator, int or None
        The randomness (`numpy.random.default_rng` of it).
    stratify : bool, default True
        Split each class on its own.

    Returns
    -------
    X_train, X_test : ndarray
    y_train, y_test : ndarray

    Raises
    ------
    DataError
        A fraction outside (0, 1), X and y of different lengths, fewer than 2 rows.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.data.datasets import train_test_split
    >>> X, y = np.arange(20.0).reshape(10, 2), np.array([0, 1] * 5)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, 0.2, rng=0)
    >>> len(X_train), np.bincount(y_test).tolist()
    (8, [1, 1])
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if len(X) != len(y):
        raise DataError(f"X has {len(X)} rows but y has {len(y)} labels")
    test = _test_rows(y, test_fraction, rng, stratify)
    return X[~test], X[test], y[~test], y[test]


def _test_rows(y: np.ndarray, test_fraction: float, rng, stratify: bool) -> np.ndarray:
    """The test part of `train_test_split` as a mask (n,) bool over the labels y (n,)."""
    if not 0.0 < test_fraction < 1.0:
        raise DataError(f"test_fraction must be strictly between 0 and 1, got {show(test_fraction)}")
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
    return test


def split_source(source: DataSource, test_fraction: float, rng, stratify: bool = True):
    """`train_test_split` of an out-of-core source: the same rows (the same split for the same labels and `rng`)
    as two `sources.SubsetSource` views (train, test), reading only the labels (n int64) to choose them."""
    test = _test_rows(source.labels(), test_fraction, rng, stratify)
    return SubsetSource(source, np.flatnonzero(~test)), SubsetSource(source, np.flatnonzero(test))


def kfold_indices(y, k: int, rng=None, stratified: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    """k folds as a list of (train_idx, test_idx), sorted int arrays; every index is in exactly one test fold.

    rng=None, stratified=False: contiguous folds in file order (the paper's protocol; sizes differ by ≤ 1).
    stratified: each class's rows (in file order, or shuffled by `rng`) are dealt round-robin over the folds, so a
    class's count per fold differs by ≤ 1 across folds. rng given, stratified=False: contiguous folds of a shuffle.
    """
    y = np.asarray(y)
    n = len(y)
    if int(k) != k or not 2 <= k <= n:
        raise DataError(f"k must be an integer with 2 ≤ k ≤ n = {n}, got k={show(k)}")
    rng = None if rng is None else np.random.default_rng(rng)
    fold_of = np.empty(n, dtype=np.intp)
    if stratified:  # the rows class by class, dealt round-robin
        classes, counts = np.unique(y, return_counts=True)
        if counts.min() < k:
            small = classes[np.argmin(counts)].item()
            raise DataError(f"class {show(small)} has {counts.min()} rows, fewer than k={k} stratified folds")
        members = (np.flatnonzero(y == c) for c in classes)
        fold_of[np.concatenate([m if rng is None else rng.permutation(m) for m in members])] = np.arange(n) % k
    else:
        order = np.arange(n) if rng is None else rng.permutation(n)
        fold_of[order] = np.repeat(np.arange(k), [len(chunk) for chunk in np.array_split(order, k)])
    return [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(k)]
