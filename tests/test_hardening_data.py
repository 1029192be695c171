"""Bad labels and changed files at the data faces (issue 30, items 1, 2, 6 and 11's label messages): a file's labels
are the classes they hold, as in memory; `partial_fit`'s `classes` fixes K; a training file rewritten during a run
stops it with its name; labels that cannot be sorted, too few rows per class and a run file whose class names
disagree with its labels are refused in words that say what is wrong."""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zarr

import explorer.sources
from explorer import XGPClassifier
from explorer.data import datasets, sources
from explorer.model import Model, RunFileError
from explorer.run import Run
from explorer.validation import DataError

FORMATS = ("npy", "zarr", "parquet")
HOUR_NS = 3600 * 10**9


def blobs(n: int, labels, seed: int = 0):
    """n rows of 2 features around one centre per label in `labels` (on a circle of radius 6, sd 1), dealt round
    robin: (X (n, 2), y (n,))."""
    labels = np.asarray(labels)
    k = np.arange(n) % len(labels)
    angle = 2 * np.pi * k / len(labels)
    X = 6.0 * np.c_[np.cos(angle), np.sin(angle)] + np.random.default_rng(seed).normal(size=(n, 2))
    y = labels[k]
    return X, y


def write(folder, kind: str, X: np.ndarray, y: np.ndarray):
    """The rows (X, y) in format `kind`, written an hour ago (so a rewrite now changes the modification time on any
    file system's clock); the path `open_source` takes."""
    if kind == "npy":
        np.save(folder / "rows.npy", X)
        np.save(folder / "rows_labels.npy", y)
        for name in ("rows.npy", "rows_labels.npy"):
            stamp = os.stat(folder / name).st_mtime_ns - HOUR_NS
            os.utime(folder / name, ns=(stamp, stamp))
        return folder / "rows.npy"
    if kind == "zarr":
        group = zarr.open_group(folder / "rows.zarr", mode="w")
        group.create_array("X", shape=X.shape, chunks=(64, X.shape[1]), dtype=X.dtype)[:] = X
        group.create_array("y", shape=y.shape, chunks=(64,), dtype=y.dtype)[:] = y
        return folder / "rows.zarr"
    pq.write_table(pa.table({"x0": X[:, 0], "x1": X[:, 1], "label": y}), folder / "rows.parquet", row_group_size=100)
    return folder / "rows.parquet"


def assert_same(a, b) -> None:
    """Two engine states (nested dicts, lists, arrays, numbers) are equal entry by entry, exactly."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, z in zip(a, b):
            assert_same(x, z)
    else:
        np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------------------------ 1: a file's labels, K of them


@pytest.mark.parametrize("kind", FORMATS)
def test_a_file_with_labels_1_and_2_fits_the_binary_model_the_arrays_fit(tmp_path, kind):
    X, y = blobs(300, [1, 2])
    params = dict(n_inducing=8, max_iter=60, random_state=3)
    memory = XGPClassifier(**params).fit(X, y)
    from_file = XGPClassifier(**params).fit(str(write(tmp_path, kind, X, y)))
    np.testing.assert_array_equal(from_file.classes_, [1, 2])
    P = from_file.predict_proba(X[:40])
    assert P.shape == (40, 2)
    np.testing.assert_allclose(P, memory.predict_proba(X[:40]), rtol=1e-8)
    assert set(from_file.predict(X).tolist()) == {1, 2} and from_file.score(X, y) > 0.9


@pytest.mark.parametrize("stray", [50, 10**6, 2**31 - 1])  # the largest label a file may hold
def test_one_stray_label_is_one_more_class_in_a_file_as_in_memory(tmp_path, stray):
    """Labels 0/1 and one row labelled `stray`: three classes (not stray + 1), the same model as in memory."""
    X, y = blobs(120, [0, 1])
    y[17] = stray
    params = dict(n_inducing=6, max_iter=20, random_state=1)
    memory = XGPClassifier(**params).fit(X, y)
    from_file = XGPClassifier(**params).fit(write(tmp_path, "npy", X, y))
    np.testing.assert_array_equal(from_file.classes_, [0, 1, stray])
    P = from_file.predict_proba(X[:10])
    assert P.shape == (10, 3)
    np.testing.assert_allclose(P, memory.predict_proba(X[:10]), rtol=1e-8)
    assert set(from_file.predict(X).tolist()) <= {0, 1, stray}


def test_the_model_trains_on_a_file_with_labels_1_and_2_as_on_the_arrays(tmp_path):
    X, y = blobs(200, [1, 2])
    memory = Model(dataset="moons", n_points=50, n_inducing=8, seed=2)
    memory.set_data(X, y)
    mapped = Model(dataset="moons", n_points=50, n_inducing=8, seed=2)
    mapped.set_data(write(tmp_path, "npy", X, y), name="rows.npy")
    np.testing.assert_array_equal(mapped.classes, [1, 2])
    memory.step(20)
    mapped.step(20)
    np.testing.assert_allclose(mapped.history.column("elbo"), memory.history.column("elbo"), rtol=1e-9)
    assert mapped.predict_proba(X[:5]).shape == (5, 2)


@pytest.mark.parametrize("kind", FORMATS)
def test_labels_that_are_not_a_class_column_are_refused_naming_the_row_counted_in_blocks(tmp_path, kind, monkeypatch):
    """More distinct labels than MAX_CLASSES (here 5): refused naming the file and the row of the first label past
    that many, counted block by block (blocks of 16 rows), not by loading the label column."""
    monkeypatch.setattr(explorer.sources, "MAX_CLASSES", 5)
    monkeypatch.setattr(sources.NpySource, "CHECK_BYTES", 16 * 8 * 2)
    X, _ = blobs(100, [0])
    y = np.zeros(100, dtype=np.int64)
    rows = [3, 20, 21, 40, 77, 90]  # six new labels, the sixth (9) at row 90, in the sixth block
    y[rows] = [4, 1, 7, 2, 5, 9]
    first = {}
    for i, label in enumerate(y.tolist()):  # brute force: the row of each label's first appearance
        first.setdefault(label, i)
    sixth = sorted(first.values())[5]
    assert sixth == 77  # labels 0, 4, 1, 7, 2 then 5: the sixth distinct label is 5 at row 77
    path = write(tmp_path, kind, X, y)
    with pytest.raises(DataError, match=rf"rows.*row {sixth} \(0-based\) holds the label 5, .* more than 5 classes"):
        XGPClassifier(n_inducing=4, max_iter=5).fit(path)


# ------------------------------------------------------------------------------------ 2: partial_fit's classes


def test_partial_fit_classes_fix_the_classes_of_the_model_from_the_first_call():
    X, y = blobs(300, [0, 1, 2])
    first = y < 2
    clf = XGPClassifier(n_inducing=10, batch_size=50, random_state=0)
    clf.partial_fit(X[first], y[first], classes=[0, 1, 2])
    np.testing.assert_array_equal(clf.classes_, [0, 1, 2])
    P = clf.predict_proba(X)
    assert P.shape == (300, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-12)
    for _ in range(15):  # the class the first batch lacked arrives later and is learned
        clf.partial_fit(X, y)
    assert clf.predict_proba(X).shape == (300, 3)
    assert np.mean(clf.predict(X[y == 2]) == 2) > 0.9


def test_partial_fit_refuses_other_classes_on_a_later_call_and_keeps_its_state():
    X, y = blobs(100, [0, 1])
    clf = XGPClassifier(n_inducing=6, batch_size=20, random_state=0).partial_fit(X, y, classes=[0, 1])
    iteration, state = clf.n_iter_, clf.engine_.state_dict()
    with pytest.raises(ValueError, match=r"`classes=\[0, 1, 2\]` is not the same as on last call to partial_fit"):
        clf.partial_fit(X, y, classes=[0, 1, 2])
    assert clf.engine_.iteration == iteration
    assert_same(clf.engine_.state_dict(), state)
    clf.partial_fit(X, y, classes=[1, 0])  # the same classes in another order
    assert clf.n_iter_ > iteration


def test_a_run_refuses_fewer_classes_than_its_labels_hold():
    X, y = blobs(30, [0, 1, 2])
    with pytest.raises(DataError, match=r"y holds the class index 2, beyond the 2 classes 0…1"):
        Run({"n_inducing": 4, "batch_size": 10, "seed": 0}, X, y, X, y, classes=["a", "b"])
    run = Run({"n_inducing": 4, "batch_size": 10, "seed": 0}, X, y, X, y, classes=["a", "b", "c", "d"])
    assert run.engine.n_classes == 4 and run.classes.tolist() == ["a", "b", "c", "d"]


# ------------------------------------------------------------------------------------ 6: a file rewritten in a run


@pytest.mark.parametrize("change", ["rewrite features", "rewrite labels", "replace features", "delete labels"])
def test_a_training_file_changed_during_a_run_stops_it_naming_the_file_with_the_run_kept(tmp_path, change):
    X, y = blobs(400, [0, 1])
    path = write(tmp_path, "npy", X, y)
    model = Model(dataset="moons", n_points=50, n_inducing=8, batch_size=20, seed=0)
    model.set_data(path, name="rows.npy")
    model.step(5)
    state, rows = model.engine.state_dict(), len(model.history.rows)
    target = path if "features" in change else tmp_path / "rows_labels.npy"
    if change == "replace features":  # a new file moved over the old one: another inode, the map reads the old one
        np.save(tmp_path / "new.npy", X + 1.0)
        os.replace(tmp_path / "new.npy", path)
    elif change == "rewrite features":  # the same file rewritten in place: same size and inode, new rows
        np.save(path, X[::-1].copy())
    elif change == "rewrite labels":
        np.save(target, 1 - y)
    else:
        os.remove(target)
    problem = {"replace": "was replaced by another file", "rewrite": "was rewritten", "delete": "is gone"}
    with pytest.raises(DataError, match=rf"{target}: the file {problem[change.split()[0]]} since the run opened it"):
        model.step(1)
    assert model.engine.iteration == 5 and len(model.history.rows) == rows
    assert_same(model.engine.state_dict(), state)
    assert "rows.npy" in model.status or "rows_labels.npy" in model.status


def test_a_label_that_was_not_counted_stops_the_run_naming_the_store_and_row(tmp_path):
    """A Zarr group has no file stamp to check: a label written into it during a run, one the source did not count
    when opened, is named (its array and row) when a minibatch reads it, instead of training on a wrong class."""
    X, y = blobs(200, [1, 2])
    path = write(tmp_path, "zarr", X, y)
    model = Model(dataset="moons", n_points=50, n_inducing=6, batch_size=20, seed=0)
    model.set_data(path, name="rows.zarr")
    model.step(3)
    state = model.engine.state_dict()
    zarr.open_group(path, mode="r+")["y"][:] = 5
    with pytest.raises(
        DataError, match=r"rows.zarr: array 'y' row \d+ \(0-based\) holds 5, not one of the labels \[1, 2\]"
    ):
        model.step(1)
    assert_same(model.engine.state_dict(), state)


# ------------------------------------------------------------------------------------ 11: label messages


@pytest.mark.parametrize(
    "labels, problem",
    [
        (["a", "b", None, "a", "b", "a"], r"label at row index 2 is None: every row needs a label"),
        (["a", "b", float("nan"), "a", "b", "a"], r"label at row index 2 is nan: every row needs a label"),
        (["a", "b", "b", 5, "b", "a"], r"labels mix text and number: row index 0 holds 'a', row index 3 holds 5"),
    ],
)
def test_labels_that_cannot_be_sorted_are_refused_naming_the_row_in_every_face(labels, problem):
    X, _ = blobs(6, [0])
    y = np.array(labels, dtype=object)
    with pytest.raises(DataError, match=problem):
        XGPClassifier(n_inducing=3, max_iter=2).fit(X, y)
    with pytest.raises(DataError, match=problem):
        XGPClassifier(n_inducing=3, max_iter=2).partial_fit(X, y, classes=["a", "b"])
    with pytest.raises(DataError, match=problem):
        Model(dataset="moons", n_points=50).set_data(X, y)
    with pytest.raises(DataError, match=r"classes: label at row index 1 is None"):
        XGPClassifier(n_inducing=3, max_iter=2).partial_fit(X[:2], np.array(["a", "b"]), classes=["a", None])


@pytest.mark.filterwarnings("ignore:The number of unique classes")  # scikit-learn doubts 50 classes in 50 rows
@pytest.mark.parametrize("early", [{"early_stopping": True}, {"convergence": "holdout"}])
def test_one_row_per_class_with_a_hold_out_says_so_and_what_to_do(early):
    X, y = blobs(50, np.arange(50))
    fix = "early_stopping=False" if "early_stopping" in early else "validation_fraction=0"
    with pytest.raises(ValueError, match=rf"each of the 50 classes has a single row among the 50; .* set {fix}"):
        XGPClassifier(n_inducing=3, max_iter=2, **early).fit(X, y)


def _with_class_names(path, names) -> None:
    """Rewrite the run file `path` with the custom data's class names `names` (everything else as saved)."""
    with np.load(path) as archive:
        arrays = {key: archive[key] for key in archive.files}
    meta = json.loads(str(arrays.pop("__meta__")))
    meta["custom"]["classes"] = names
    with open(path, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    assert zipfile.is_zipfile(path)


@pytest.mark.parametrize(
    "names, problem",
    [
        (["a", "b"], r"2 class names \['a', 'b'\] do not match its labels, which hold the class indices \[0, 1, 2\]"),
        (["a", "b", "c", "d"], r"4 class names \['a', 'b', 'c', 'd'\] do not match its labels, .* \[0, 1, 2\]"),
        (["a", "b", "a"], r"class names \['a', 'b', 'a'\] give 'a' to two classes"),
    ],
)
def test_a_run_file_whose_class_names_disagree_with_its_labels_says_what_disagrees(tmp_path, names, problem):
    X, y = blobs(60, ["a", "b", "c"])
    model = Model(dataset="moons", n_points=50, n_inducing=5, seed=0)
    model.set_data(X, y, name="abc")
    path = tmp_path / "run.npz"
    model.save(path)
    Model.load(path)  # as saved, it loads
    _with_class_names(path, names)
    with pytest.raises(RunFileError, match=problem):
        Model.load(path)


def test_datasets_load_file_out_of_core_counts_the_classes_of_a_file(tmp_path):
    """The catalogue's door to a file gives the source whose labels the faces map (labels 3 and 7: two classes)."""
    X, y = blobs(80, [3, 7])
    source = datasets.load_file(write(tmp_path, "npy", X, y), out_of_core=True)
    encoded, classes = explorer.sources.encoded_source(source)
    np.testing.assert_array_equal(classes, [3, 7])
    assert encoded.n_classes == 2
    np.testing.assert_array_equal(encoded.labels(), (y == 7).astype(int))
