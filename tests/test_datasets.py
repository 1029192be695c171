"""Tests for explorer/data/datasets.py: labels, checks, teaching sets, file loaders, the paper data, splits, scaling.

Files are written by the tests with independent writers (string formatting, csv, numpy) and read back; the paper's
data are checked against the sizes and class counts stated in shared/data/README.md.
"""

from __future__ import annotations

import contextlib
import gzip
import http.server
import io
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import sklearn
import sklearn.datasets

from explorer import methods
from explorer.data import datasets as D
from explorer.data import readers, registry
from explorer.data.datasets import DataError

# ----------------------------------------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    "raw, expected, classes",
    [
        ([-1, 1, 1, -1], [0, 1, 1, 0], [-1, 1]),
        ([0, 1, 1, 0], [0, 1, 1, 0], [0, 1]),
        ([True, False, True], [1, 0, 1], [False, True]),
        (["spam", "ham", "spam"], [1, 0, 1], ["ham", "spam"]),
        ([10, 2, 2], [1, 0, 0], [2, 10]),
        ([0.0, 1.0], [0, 1], [0.0, 1.0]),
        ([0, 1, 2, 2, 1, 2], [0, 1, 2, 2, 1, 2], [0, 1, 2]),
    ],
)
def test_encode_labels_maps_sorted_classes_to_class_indices(raw, expected, classes):
    y, found = D.encode_labels(raw)
    assert y.dtype == np.int64
    assert y.tolist() == expected
    assert found.tolist() == classes
    assert found[y].tolist() == list(raw)


def test_encode_labels_one_class_lists_what_it_found():
    with pytest.raises(DataError, match=r"at least 2 label values, found 1 class: 'yes' \(3 rows\)"):
        D.encode_labels(["yes", "yes", "yes"])


def test_encode_labels_rejects_nan_label():
    with pytest.raises(DataError, match="row index 2"):
        D.encode_labels([0.0, 1.0, np.nan])


# ----------------------------------------------------------------------------------------------------------- checks


def test_validate_returns_c_contiguous_float64():
    X = np.asfortranarray(np.arange(12, dtype=np.int32).reshape(6, 2))
    Xv, y, classes = D.validate(X, ["a", "b"] * 3)
    assert Xv.dtype == np.float64 and Xv.flags.c_contiguous
    np.testing.assert_array_equal(Xv, np.arange(12).reshape(6, 2))
    assert y.tolist() == [0, 1] * 3 and classes.tolist() == ["a", "b"]


def test_validate_nan_names_feature_and_first_row():
    X = np.zeros((5, 3))
    X[3, 1] = np.nan
    X[4, 1] = np.nan
    with pytest.raises(DataError) as info:
        D.validate(X, [0, 1, 0, 1, 0], feature_names=["age", "glucose", "bmi"], source="pima.csv")
    message = str(info.value)
    assert message.startswith("pima.csv: ") and "'glucose'" in message and "row index 3" in message and "nan" in message


def test_validate_inf_names_column_index_when_no_names():
    X = np.zeros((4, 3))
    X[2, 2] = -np.inf
    with pytest.raises(DataError, match=r"column 2 .*-?inf.*row index 2"):
        D.validate(X, [0, 1, 0, 1])


def test_validate_non_numeric_column_names_column_and_value():
    X = np.array([[1.0, "3"], [2.0, "oops"], [3.0, "4"]], dtype=object)
    with pytest.raises(DataError) as info:
        D.validate(X, [0, 1, 1], feature_names=["a", "b"])
    message = str(info.value)
    assert "'b'" in message and "'oops'" in message and "row index 1" in message


def test_validate_length_mismatch_gives_both_lengths():
    with pytest.raises(DataError, match=r"5 rows but y has 4"):
        D.validate(np.zeros((5, 2)), [0, 1, 0, 1])


def test_validate_rejects_one_row_and_one_dimensional_x():
    with pytest.raises(DataError, match="at least 2 rows"):
        D.validate(np.zeros((1, 2)), [1])
    with pytest.raises(DataError, match="2-D"):
        D.validate(np.zeros(4), [0, 1, 0, 1])
    with pytest.raises(DataError, match="complex"):
        D.validate(np.ones((2, 1), dtype=complex), [0, 1])


# ----------------------------------------------------------------------------------------------- built-in 2-D sets


@pytest.mark.parametrize("name", list(D.BUILTIN))
def test_builtin_sets_deterministic_shapes_and_balanced(name):
    make = D.BUILTIN[name]
    X1, y1 = make(101, D.DEFAULT_NOISE[name], np.random.default_rng(7))
    X2, y2 = make(101, D.DEFAULT_NOISE[name], np.random.default_rng(7))
    X3, _ = make(101, D.DEFAULT_NOISE[name], np.random.default_rng(8))
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.allclose(X1, X3)
    assert X1.shape == (101, 2) and X1.dtype == np.float64 and y1.dtype == np.int64
    K = D.BUILTIN_CLASSES[name]
    assert sorted(np.unique(y1).tolist()) == list(range(K))  # class indices (two classes: of −1 and +1)
    counts = np.bincount(y1, minlength=K)
    assert counts.max() - counts.min() <= 1 and counts.sum() == 101
    # the rows are shuffled, not in class blocks (a contiguous fold must not hold one class only)
    assert set(y1[:20].tolist()) == set(range(K))


def test_builtin_noiseless_shapes_match_their_closed_forms():
    rng = np.random.default_rng(0)
    X, y = D.make_moons(200, 0.0, rng)
    neg, pos = X[y == -1], X[y == 1]
    np.testing.assert_allclose(np.hypot(*neg.T), 1.0)
    assert np.all(neg[:, 1] >= 0)
    np.testing.assert_allclose(np.hypot(1 - pos[:, 0], 0.5 - pos[:, 1]), 1.0)

    X, y = D.make_circles(200, 0.0, rng)
    np.testing.assert_allclose(np.hypot(*X.T), np.where(y == 1, 0.5, 1.0))

    X, y = D.make_xor(200, 0.0, rng)
    np.testing.assert_array_equal(np.sign(X[:, 0] * X[:, 1]), 2 * y - 1)  # class 1 is the +1 class
    assert np.all(np.abs(X) <= 1)

    X, y = D.make_blobs(200, 0.0, rng)
    np.testing.assert_array_equal(X, np.c_[2 * y - 1, 2 * y - 1].astype(float))  # blobs at ±(1, 1)

    X, y = D.make_banana(200, 0.0, rng)
    pos = X[y == 1]
    np.testing.assert_allclose(pos[:, 1], pos[:, 0] ** 2 / 2 - 1, atol=1e-12)
    assert np.all(np.abs(pos[:, 0]) <= 2)


def test_three_class_noiseless_shapes_match_their_closed_forms():
    rng = np.random.default_rng(0)
    X, y = D.make_three_blobs(90, 0.0, rng)
    corners = {0: (0.0, 1.5), 1: (-1.5 * np.sqrt(3) / 2, -0.75), 2: (1.5 * np.sqrt(3) / 2, -0.75)}
    np.testing.assert_allclose(X, np.array([corners[k] for k in y.tolist()]), atol=1e-12)

    X, y = D.make_three_spiral(300, 0.0, rng)
    radius = np.hypot(*X.T)
    t = radius - 0.15
    assert np.all((t >= 0) & (t <= 1))
    # each point lies on its own arm: its angle is 120°·k + 1.5π·t (mod 2π), and not on another arm's
    expected = 2 * np.pi * y / 3 + 1.5 * np.pi * t
    miss = np.angle(np.exp(1j * (np.arctan2(X[:, 1], X[:, 0]) - expected)))
    np.testing.assert_allclose(miss, 0.0, atol=1e-9)

    X, y = D.make_three_xor(300, 0.0, rng)
    assert np.all(np.abs(X) <= 1.5)
    cell = np.floor(X + 1.5).astype(int)  # (column, row) of the 3 × 3 unit cells
    np.testing.assert_array_equal((cell[:, 0] + cell[:, 1]) % 3, y)
    assert len({tuple(c) for c in cell.tolist()}) == 9  # every cell holds points


def test_builtin_sets_are_nonlinear_where_they_should_be():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.neighbors import KNeighborsClassifier

    for name in D.BUILTIN:
        X, y = D.load(name, n=400, seed=3)
        nearest = cross_val_score(KNeighborsClassifier(15), X, y, cv=4).mean()
        linear = cross_val_score(LogisticRegression(), X, y, cv=4).mean()
        assert nearest > 0.9, name
        if name in ("banana-like", "circles", "xor"):
            assert linear < 0.75, name
        if name in ("spiral-3", "xor-3"):
            assert linear < 0.6, name  # chance is 1/3


@pytest.mark.parametrize("n, noise, match", [(3, 0.1, "n ≥ 4"), (10, -0.1, "noise"), (10, np.nan, "noise")])
def test_builtin_rejects_bad_arguments(n, noise, match):
    with pytest.raises(DataError, match=match):
        D.make_moons(n, noise, np.random.default_rng(0))


def test_load_builtin_defaults_and_seed():
    X, y = D.load("moons")
    assert X.shape == (400, 2)
    X_again, _ = D.load("moons", seed=0)
    X_other, _ = D.load("moons", seed=1)
    np.testing.assert_array_equal(X, X_again)
    assert not np.allclose(X, X_other)
    X_small, _ = D.load("xor", n=50, noise=0.0)
    assert X_small.shape == (50, 2)


def test_load_unknown_name_lists_valid_names():
    with pytest.raises(DataError) as info:
        D.load("bananna")
    message = str(info.value)
    assert "'bananna'" in message and "banana-like" in message and "a9a" in message and "moons" in message


# ------------------------------------------------------------------------------------------------------- CSV / TSV


def _random_table(rng, n=12, d=3):
    X = rng.normal(size=(n, d)) * 10 ** rng.integers(-3, 4, size=d)
    y = np.array(["no", "yes"])[rng.integers(0, 2, size=n)]
    y[:2] = ["no", "yes"]
    return X, y


def test_csv_round_trip_with_label_column_in_the_middle(tmp_path):
    X, y = _random_table(np.random.default_rng(1))
    lines = ["f0,outcome,f1,f2"] + [f"{float(r[0])!r},{lab},{float(r[1])!r},{float(r[2])!r}" for r, lab in zip(X, y)]
    path = tmp_path / "table.csv"
    path.write_text("\n".join(lines) + "\n\n")
    Xr, yr, classes, names = D.read_csv(path, "outcome")
    np.testing.assert_array_equal(Xr, X)
    assert names == ["f0", "f1", "f2"]
    assert classes.tolist() == ["no", "yes"]
    np.testing.assert_array_equal(yr, np.where(y == "yes", 1, 0))


def test_tsv_by_extension_and_label_by_index(tmp_path):
    X, y = _random_table(np.random.default_rng(2))
    path = tmp_path / "table.tsv"
    rows = ["a b\tc\ty"] + [
        "\t".join([repr(float(v)) for v in r] + [str(int(lab == "yes"))]) for r, lab in zip(X[:, :2], y)
    ]
    path.write_text("\n".join(rows))
    Xr, yr, classes, names = D.read_csv(path, -1)
    np.testing.assert_array_equal(Xr, X[:, :2])
    assert names == ["a b", "c"] and classes.tolist() == [0, 1]
    np.testing.assert_array_equal(yr, np.where(y == "yes", 1, 0))


def test_csv_semicolon_quoted_fields_and_numeric_labels_sorted_numerically(tmp_path):
    text = '"age";"balance";"y"\n"30";"-12.5";"+1"\n"41";"7";"-1"\n"55";"0";"+1"\n'
    Xr, yr, classes, names = D.read_csv(io.BytesIO(text.encode()), "y", source_name="bank.csv")
    np.testing.assert_array_equal(Xr, [[30, -12.5], [41, 7], [55, 0]])
    assert names == ["age", "balance"] and classes.tolist() == [-1, 1] and yr.tolist() == [1, 0, 1]


def test_csv_non_numeric_value_names_file_column_line_and_value(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("x1,x2,label\n1,2,a\n3,4,b\n5,seven,a\n")
    with pytest.raises(DataError) as info:
        D.read_csv(path, "label")
    message = str(info.value)
    assert "bad.csv" in message and "line 4" in message and "'x2'" in message and "'seven'" in message


def test_csv_empty_value_is_an_error_not_a_zero(tmp_path):
    path = tmp_path / "gap.csv"
    path.write_text("x1,x2,label\n1,2,a\n3,,b\n")
    with pytest.raises(DataError, match=r"line 3, column 'x2': value '' is not a number"):
        D.read_csv(path, "label")


def test_csv_nan_and_inf_name_column_and_line(tmp_path):
    path = tmp_path / "nan.csv"
    path.write_text("x1,x2,label\n1,2,a\n3,4,b\nnan,6,a\n")
    with pytest.raises(DataError, match=r"nan\.csv: line 4, column 'x1': value 'nan' is not finite"):
        D.read_csv(path, "label")
    path.write_text("x1,x2,label\n1,inf,a\n3,4,b\n")
    with pytest.raises(DataError, match=r"line 2, column 'x2': value 'inf' is not finite"):
        D.read_csv(path, "label")


def test_csv_ragged_line_names_file_and_line(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("x1,x2,label\n1,2,a\n\n3,4,b,9\n")
    with pytest.raises(DataError, match=r"ragged\.csv: line 4 has 4 fields but the header has 3"):
        D.read_csv(path, "label")


def test_csv_missing_label_column_lists_header(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x1,x2,class\n1,2,a\n3,4,b\n")
    with pytest.raises(DataError, match=r"no label column 'label'; the header has \['x1', 'x2', 'class'\]"):
        D.read_csv(path, "label")


def test_csv_empty_file_header_only_and_headerless(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("\n \n")
    with pytest.raises(DataError, match=r"empty\.csv: the file is empty"):
        D.read_csv(path, "label")
    path.write_text("x1,label\n")
    with pytest.raises(DataError, match="no data rows"):
        D.read_csv(path, "label")
    path.write_text('""\n')
    with pytest.raises(DataError, match="no header row"):
        D.read_csv(path, 0, delimiter=",")
    path.write_text("x1,,label\n1,2,0\n3,4,1\n")
    with pytest.raises(DataError, match=r"line 1: header column 1 \(0-based\) has no name"):
        D.read_csv(path, "label")
    path.write_text("1,2,0\n3,4,1\n")
    with pytest.raises(DataError, match="header row is required"):
        D.read_csv(path, 2)


def test_csv_one_class_is_refused_naming_the_file_and_three_classes_are_read(tmp_path):
    path = tmp_path / "classes.csv"
    path.write_text("x,label\n1,a\n2,a\n")
    with pytest.raises(DataError, match=r"classes\.csv: .*found 1 class: 'a' \(2 rows\)"):
        D.read_csv(path, "label")
    path.write_text("x,label\n1,c\n2,a\n3,b\n")
    _, y, classes, _ = D.read_csv(path, "label")  # the K classes a reader finds; a binary method refuses them later
    assert y.tolist() == [2, 0, 1] and classes.tolist() == ["a", "b", "c"]


# ---------------------------------------------------------------------------------------------------------- LIBSVM


def _write_libsvm(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    lines = []
    for row, label in zip(X, y):
        entries = " ".join(f"{k + 1}:{float(v)!r}" for k, v in enumerate(row) if v != 0)
        lines.append(f"{label:+d} {entries}".rstrip())
    path.write_text("# written by the test\n" + "\n".join(lines) + "\n")


def test_libsvm_round_trip_dense_with_padding(tmp_path):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(15, 6)) * (rng.random((15, 6)) < 0.5)
    X[:, -1] = 0.0  # the last feature never appears in the file: n_features keeps the column
    y = np.where(rng.random(15) < 0.5, 1, -1)
    y[:2] = [1, -1]
    path = tmp_path / "data.svm"
    _write_libsvm(path, X, y)
    Xr, yr, classes, names = D.read_libsvm(path, n_features=6)
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, (y > 0).astype(int))  # the file's ±1 as class indices
    assert classes.tolist() == [-1, 1] and names == [f"x{k}" for k in range(1, 7)]
    Xs, _, _, _ = D.read_libsvm(path)
    assert Xs.shape[1] == int(np.max(np.nonzero(X)[1])) + 1


def test_libsvm_zero_one_labels_and_comments(tmp_path):
    text = "0 1:0.5 3:2  # a comment\n\n1 2:1.5\n1 1:-1\n"
    X, y, classes, _ = D.read_libsvm(io.BytesIO(text.encode()), source_name="upload.libsvm")
    np.testing.assert_array_equal(X, [[0.5, 0, 2], [0, 1.5, 0], [-1, 0, 0]])
    assert y.tolist() == [0, 1, 1] and classes.tolist() == [0, 1]


@pytest.mark.parametrize(
    "bad_line, match",
    [
        ("+1 2:abc", r"line 3: '2:abc' is not of the form index:value"),
        ("+1 2=0.5", r"line 3: '2=0.5' is not of the form index:value"),
        ("yes 1:0.5", r"line 3: label 'yes' is not a number"),
        ("-1 0:0.5", r"line 3: feature index 0"),
        ("-1 1:0.5 1:0.7", r"line 3: feature index 1 appears twice"),
        ("-1 9:0.5", r"line 3: feature index 9 exceeds n_features=4"),
        ("-1 2:nan", r"line 3, feature 2: value 'nan' is not finite"),
    ],
)
def test_libsvm_bad_line_names_file_and_line(tmp_path, bad_line, match):
    path = tmp_path / "broken.libsvm"
    path.write_text(f"+1 1:0.5\n-1 2:1\n{bad_line}\n")
    with pytest.raises(DataError, match=r"broken\.libsvm: " + match):
        D.read_libsvm(path, n_features=4)


# ------------------------------------------------------------------------------------------------------------- npz


def test_npz_round_trip_path_and_bytes(tmp_path):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(9, 4))
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1])
    path = tmp_path / "set.npz"
    np.savez(path, X=X, y=y, feature_names=np.array(["a", "b", "c", "d"]))
    Xr, yr, classes, names = D.read_npz(path)
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    assert names == ["a", "b", "c", "d"] and classes.tolist() == [0, 1]
    np.savez(path, X=X, y=y)
    Xb, _, _, names_b = D.read_npz(io.BytesIO(path.read_bytes()), source_name="upload.npz")
    np.testing.assert_array_equal(Xb, X)
    assert names_b == ["x1", "x2", "x3", "x4"]


def test_npz_missing_key_and_pickled_array(tmp_path):
    path = tmp_path / "nolabels.npz"
    np.savez(path, X=np.zeros((3, 2)), labels=np.array([0, 1, 0]))
    with pytest.raises(DataError, match=r"nolabels\.npz: no array 'y' in the archive; it holds \['X', 'labels'\]"):
        D.read_npz(path)
    path = tmp_path / "objects.npz"
    np.savez(path, X=np.zeros((3, 2)), y=np.array(["a", None, "b"], dtype=object))
    with pytest.raises(DataError, match=r"objects\.npz: array 'y' holds Python objects .* without pickling"):
        D.read_npz(path)


def test_npz_not_an_archive(tmp_path):
    path = tmp_path / "junk.npz"
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(DataError, match=r"junk\.npz: not a readable \.npz archive"):
        D.read_npz(path)


# ------------------------------------------------------------------------------------------------------- load_file


def test_load_file_dispatches_by_extension(tmp_path):
    X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = np.array([1, -1, 1])
    (tmp_path / "a.csv").write_text("u,v,Label\n1,2,1\n3,4,-1\n5,6,1\n")
    (tmp_path / "a.txt").write_text("u v target\n1 2 1\n3 4 -1\n5 6 1\n")
    _write_libsvm(tmp_path / "a.svmlight", X, y)
    np.savez(tmp_path / "a.npz", X=X, y=y)
    for name in ("a.csv", "a.txt", "a.svmlight", "a.npz"):
        Xr, yr, _, _ = D.load_file(tmp_path / name)
        np.testing.assert_array_equal(Xr, X)
        np.testing.assert_array_equal(yr, (y > 0).astype(int))
    Xu, yu, _, names = D.load_file(io.BytesIO((tmp_path / "a.csv").read_bytes()), source_name="upload.CSV")
    np.testing.assert_array_equal(Xu, X)
    assert names == ["u", "v"]


def test_load_file_unknown_extension_and_unguessable_label(tmp_path):
    path = tmp_path / "sheet.xlsx"
    path.write_bytes(b"PK")
    with pytest.raises(DataError, match=r"sheet\.xlsx: unknown file extension '\.xlsx'; supported: .*'\.csv'"):
        D.load_file(path)
    path = tmp_path / "t.csv"
    path.write_text("a,b,c\n1,2,0\n3,4,1\n")
    with pytest.raises(DataError, match=r"label_column=.*\['a', 'b', 'c'\]"):
        D.load_file(path)
    with pytest.raises(DataError, match="CSV/TSV files only"):
        D.load_file(tmp_path / "x.npz", label_column="y")


# --------------------------------------------------------------------------------------------------- paper data


def test_paper_registry_matches_the_offline_files(paper_data):
    assert set(D.available(paper_data)) == set(D.BUILTIN) | set(D.PAPER_DATASETS)
    for name, spec in D.PAPER_DATASETS.items():
        X, y = D.load(name, data_dir=paper_data)
        assert X.shape == (spec.n, spec.d), name
        assert X.dtype == np.float64 and y.dtype == np.int64 and set(np.unique(y).tolist()) == {0, 1}, name


def test_load_diabetes_and_banana_sizes_and_class_counts_from_readme(paper_data):
    X, y = D.load("diabetes", data_dir=paper_data)
    assert X.shape == (768, 8) and int(np.sum(y == 1)) == 268  # README: positive rate 0.3490 = 268/768
    X, y = D.load("banana", data_dir=paper_data)
    assert X.shape == (5300, 2) and int(np.sum(y == 1)) == 2376 and int(np.sum(y == 0)) == 2924


def test_a9a_deduplicated_has_the_papers_size(paper_data):
    X, y = D.load("a9a", data_dir=paper_data)
    Xd, yd = D.deduplicate(X, y)
    assert X.shape == (48842, 123)
    assert Xd.shape == (36974, 123) and yd.shape == (36974,)


def test_deduplicate_keeps_first_occurrences_in_order():
    X = np.array([[1.0, 2.0], [0.0, 0.0], [1.0, 2.0], [1.0, 2.0], [5.0, 5.0], [0.0, 0.0]])
    y = np.array([1, -1, 1, -1, 1, -1])
    Xd, yd = D.deduplicate(X, y)
    np.testing.assert_array_equal(Xd, [[1, 2], [0, 0], [1, 2], [5, 5]])
    np.testing.assert_array_equal(yd, [1, -1, -1, 1])


def _no_data_beside(tmp_path, monkeypatch):
    """Point the project's data/ and ../shared/data at empty directories, and the cache at tmp_path/cache."""
    monkeypatch.setattr(registry, "PROJECT_DATA_DIR", tmp_path / "project-data")
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", tmp_path / "no-shared")
    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("XGPC_DATA_DIR", raising=False)
    (tmp_path / "project-data").mkdir()


def test_load_paper_reads_the_env_var_and_available_lists_present_files(tmp_path, monkeypatch):
    _no_data_beside(tmp_path, monkeypatch)
    monkeypatch.setenv("XGPC_DATA_DIR", str(tmp_path))
    assert D.available() == list(D.BUILTIN)
    X = np.arange(12.0).reshape(6, 2)
    np.savez(tmp_path / "diabetes.npz", X=X, y=np.array([-1, 1] * 3, dtype=np.int8))
    assert D.available() == list(D.BUILTIN) + ["diabetes"]
    with pytest.warns(D.ChecksumWarning, match="not the paper's copy"):
        Xr, yr = D.load("diabetes")
    np.testing.assert_array_equal(Xr, X)
    with pytest.raises(DataError, match="built-in sets only"):
        D.load("diabetes", n=100)


def test_missing_paper_file_offline_names_where_it_looked(tmp_path, monkeypatch):
    def offline(*args, **kwargs):
        raise OSError("Temporary failure in name resolution")

    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", offline)
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    with pytest.raises(DataError) as info:
        D.load("diabetes", data_dir=empty)
    message = str(info.value)
    assert "diabetes.npz is in none of " + str(empty) in message
    assert "OpenML id 37" in message and str(tmp_path / "cache") in message
    assert "XGPC_DATA_DIR" in message and "OSError: Temporary failure in name resolution" in message
    with pytest.raises(DataError, match=r"w8a\.npz is in none of .*no OpenML copy"):
        D.load("w8a", data_dir=empty)


def _seed_openml_cache_from_sklearn_fixture(data_id: int, cache: Path) -> Path:
    """Put scikit-learn's own recorded OpenML responses for `data_id` where fetch_openml looks for its cache, so
    the real fetch_openml runs offline. Returns the ARFF fixture."""
    fixtures = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml" / f"id_{data_id}"
    root = cache / "openml" / "openml.org"
    for prefix, url in (
        ("api-v1-jd-", "api/v1/json/data/"),
        ("api-v1-jdf-", "api/v1/json/data/features/"),
        ("api-v1-jdq-", "api/v1/json/data/qualities/"),
    ):
        target = root / f"{url}{data_id}.gz"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(fixtures / f"{prefix}{data_id}.json.gz", target)
    description = json.loads(gzip.open(fixtures / f"api-v1-jd-{data_id}.json.gz").read())["data_set_description"]
    arff = next(fixtures.glob("data-v1-dl-*.arff.gz"))
    target = root / (description["url"].split("openml.org/", 1)[1] + ".gz")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(arff, target)
    return arff


def _parse_arff(path: Path):
    """Minimal independent ARFF reader for a nominal data set: attribute names and rows of strings."""
    names, rows, in_data = [], [], False
    for line in gzip.open(path, "rt"):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if in_data:
            rows.append([v.strip().strip("'") for v in line.split(",")])
        elif line.lower().startswith("@attribute"):
            names.append(line.split()[1].strip("'"))
        elif line.lower().startswith("@data"):
            in_data = True
    return names, np.array(rows)


@pytest.mark.filterwarnings("ignore:OpenML raised a warning on the dataset")
def test_openml_fetch_encodes_categories_and_orients_labels(tmp_path):
    # kr-vs-kp (OpenML 3): 36 nominal features, target won/nowin; scikit-learn ships its OpenML responses.
    # Levels are those present in the data (one declared level of 'wtoeg' never occurs), sorted alphabetically.
    arff = _seed_openml_cache_from_sklearn_fixture(3, tmp_path)
    names, rows = _parse_arff(arff)
    target = rows[:, -1]
    minority = min(set(target), key=lambda c: np.sum(target == c))

    X, y, classes, feature_names = D.load_openml(3, cache=tmp_path)
    assert X.shape == (len(rows), 36) and feature_names == names[:-1]
    assert classes[1] == minority
    np.testing.assert_array_equal(y, np.where(target == minority, 1, 0))
    levels = [sorted(set(rows[:, j])) for j in range(36)]
    for j in range(36):
        np.testing.assert_array_equal(X[:, j], [levels[j].index(v) for v in rows[:, j]])

    Xh, yh, _, names_h = D.load_openml(3, one_hot=True, cache=tmp_path)
    assert Xh.shape == (len(rows), sum(len(levels[j]) for j in range(36)))
    np.testing.assert_array_equal(yh, y)
    for j in range(36):
        for level in levels[j]:
            column = names_h.index(f"{names[j]}={level}")
            np.testing.assert_array_equal(Xh[:, column], rows[:, j] == level)

    shutil.rmtree(tmp_path / "openml")  # the converted arrays are cached: no OpenML files are needed again
    X_again, y_again, classes_again, _ = D.load_openml(3, cache=tmp_path)
    np.testing.assert_array_equal(X_again, X)
    np.testing.assert_array_equal(y_again, y)
    assert classes_again.tolist() == classes.tolist()


# --------------------------------------------------------------------------------------------- splits and scaling


def test_train_test_split_stratified_partitions_rows():
    rng = np.random.default_rng(5)
    y = np.r_[
        np.ones(30, dtype=np.int8),
        -np.ones(70, dtype=np.int8),
    ]
    X = np.c_[np.arange(100.0), rng.normal(size=100)]
    X_tr, X_te, y_tr, y_te = D.train_test_split(X, y, 0.25, np.random.default_rng(0))
    assert sorted(np.r_[X_tr[:, 0], X_te[:, 0]].tolist()) == list(range(100))
    assert int(np.sum(y_te == 1)) == round(0.25 * 30) and int(np.sum(y_te == -1)) == round(0.25 * 70)
    np.testing.assert_array_equal(y[X_te[:, 0].astype(int)], y_te)
    again = D.train_test_split(X, y, 0.25, np.random.default_rng(0))
    np.testing.assert_array_equal(again[1], X_te)


def test_train_test_split_puts_a_two_member_class_in_both_parts():
    y = np.array([1, 1] + [-1] * 18)
    X = np.arange(20.0)[:, None]
    _, _, y_tr, y_te = D.train_test_split(X, y, 0.1, np.random.default_rng(1))
    assert int(np.sum(y_tr == 1)) == 1 and int(np.sum(y_te == 1)) == 1
    with pytest.raises(DataError, match="test_fraction"):
        D.train_test_split(X, y, 1.0, np.random.default_rng(1))


def test_kfold_contiguous_is_the_papers_file_order_protocol():
    folds = D.kfold_indices(np.tile([1, -1, -1], 9)[:23], 5, rng=None, stratified=False)
    sizes = [len(test) for _, test in folds]
    assert sizes == [5, 5, 5, 4, 4]
    start = 0
    for train, test in folds:
        np.testing.assert_array_equal(test, np.arange(start, start + len(test)))
        np.testing.assert_array_equal(train, np.setdiff1d(np.arange(23), test))
        start += len(test)


@pytest.mark.parametrize("rng", [None, 11])
def test_kfold_stratified_partitions_and_keeps_class_ratios(rng):
    y = np.array(["a"] * 23 + ["b"] * 9 + ["c"] * 15)
    np.random.default_rng(2).shuffle(y)
    k = 4
    folds = D.kfold_indices(y, k, rng=None if rng is None else np.random.default_rng(rng))
    tests = np.concatenate([test for _, test in folds])
    assert sorted(tests.tolist()) == list(range(len(y)))
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0 and len(train) + len(test) == len(y)
        for c in ("a", "b", "c"):
            share = np.sum(y == c) / k
            assert abs(np.sum(y[test] == c) - share) < 1
    assert max(len(t) for _, t in folds) - min(len(t) for _, t in folds) <= 1


def test_kfold_shuffles_with_rng_and_rejects_too_small_classes():
    y = np.tile([1, -1], 20)
    plain = D.kfold_indices(y, 4)
    shuffled = D.kfold_indices(y, 4, rng=np.random.default_rng(0))
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(plain, shuffled))
    with pytest.raises(DataError, match="class 1 has 3 rows, fewer than k=4"):
        D.kfold_indices(np.array([1, 1, 1] + [-1] * 10), 4)


def test_standardizer_uses_training_statistics_only_and_round_trips():
    rng = np.random.default_rng(6)
    X_train = rng.normal(loc=[5.0, -2.0, 0.0], scale=[2.0, 0.5, 1.0], size=(200, 3))
    X_train[:, 2] = 3.0  # constant column: scale 1
    X_test = rng.normal(loc=[7.0, -1.0, 1.0], scale=[1.0, 1.0, 1.0], size=(50, 3))
    s = D.Standardizer().fit(X_train)
    Z_train = s.transform(X_train)
    np.testing.assert_allclose(Z_train[:, :2].mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(Z_train[:, :2].std(axis=0), 1.0)
    np.testing.assert_array_equal(Z_train[:, 2], 0.0)
    Z_test = s.transform(X_test)
    expected = (X_test[:, 0] - X_train[:, 0].mean()) / X_train[:, 0].std()
    np.testing.assert_allclose(Z_test[:, 0], expected)
    assert Z_test[:, 0].mean() > 0.5  # test inputs are scaled by training statistics, not re-centred
    np.testing.assert_allclose(Z_test[:, 2], X_test[:, 2] - 3.0)
    np.testing.assert_allclose(s.inverse_transform(Z_test), X_test)
    restored = D.Standardizer.from_dict(json.loads(json.dumps(s.to_dict())))
    np.testing.assert_array_equal(restored.transform(X_test), Z_test)


def test_standardizer_errors():
    with pytest.raises(DataError, match="not fitted"):
        D.Standardizer().transform(np.zeros((2, 2)))
    s = D.Standardizer().fit(np.arange(6.0).reshape(3, 2))
    with pytest.raises(DataError, match=r"shape \(n, 2\)"):
        s.transform(np.zeros((2, 3)))
    with pytest.raises(DataError, match="scale"):
        D.Standardizer([0.0], [0.0])
    with pytest.raises(DataError, match=r"X row 0, column 1 \(0-based\) holds nan, which is NaN or infinite"):
        s.transform(np.array([[0.0, np.nan]]))


# ------------------------------------------------------------------------------------- hardened readers (issue 9)


@pytest.mark.parametrize("index", [100000000, 10**12])
def test_libsvm_huge_feature_index_is_refused_before_allocating(tmp_path, index):
    path = tmp_path / "bomb.libsvm"
    path.write_bytes(f"+1 {index}:1\n-1 1:1\n".encode())
    assert path.stat().st_size <= 31
    with pytest.raises(DataError) as info:
        D.read_libsvm(path)
    message = str(info.value)
    assert "bomb.libsvm" in message and "line 1" in message and f"feature index {index}" in message
    assert "limit" in message


def test_libsvm_many_rows_over_the_dense_limit_name_the_widest_line(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "MAX_DENSE_BYTES", 1000)
    path = tmp_path / "wide.svm"
    lines = [f"{(-1) ** k:+d} 1:0.5" for k in range(20)]
    lines[7] = "+1 1:0.5 10:2"  # 20 rows x 10 features x 8 bytes = 1600 bytes > 1000
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"wide\.svm: line 8 has feature index 10: 20 rows × 10 features .* limit"):
        D.read_libsvm(path)
    with pytest.raises(DataError, match="n_features"):
        D.read_libsvm(path, n_features=10**12)


def test_csv_over_the_dense_limit_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "MAX_DENSE_BYTES", 1000)
    path = tmp_path / "long.csv"
    path.write_text("a,b,label\n" + "1,2,0\n3,4,1\n" * 40)
    with pytest.raises(DataError, match=r"long\.csv: up to 82 rows × 2 features .* over the limit"):
        D.read_csv(path, "label")


def test_load_file_refuses_directories_devices_and_pipes(tmp_path):
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    with pytest.raises(DataError, match=r"folder\.csv: is a directory, not a regular file"):
        D.load_file(folder, "label")
    with pytest.raises(DataError, match="is a device, not a regular file"):
        D.load_file("/dev/zero", source_name="zero.npz")
    with pytest.raises(DataError, match="is a device, not a regular file"):
        D.read_libsvm("/dev/zero")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match=r"pipe\.csv: is a pipe \(FIFO\), not a regular file"):
        D.load_file(fifo, "label")
    with pytest.raises(DataError, match=r"missing\.csv: cannot read the file"):
        D.read_csv(tmp_path / "missing.csv", "label")


def test_csv_field_longer_than_the_csv_modules_limit_names_line_and_column(tmp_path):
    import csv

    long = "9" * 10 + "x" * (csv.field_size_limit() + 10)
    path = tmp_path / "long-field.csv"
    path.write_text(f"a,b,label\n1,2,0\n3,{long},1\n")
    with pytest.raises(DataError) as info:
        D.read_csv(path, "label")
    message = str(info.value)
    assert "long-field.csv: line 3, column 'b'" in message
    assert len(message) < 400  # the value is cut short, not pasted whole
    path.write_text(f"a,{long},label\n1,2,0\n3,4,1\n")
    with pytest.raises(DataError, match=r"line 1, column 'a'|line 1, field 1"):
        D.read_csv(path, "label")


def _valid_npz_bytes() -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, X=np.arange(20.0).reshape(10, 2), y=np.array([0, 1] * 5))
    return buffer.getvalue()


def _npz_with_member(member: str, payload: bytes) -> bytes:
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("y.npy", _npy_bytes(np.array([0, 1, 0])))
        archive.writestr(member, payload)
    return buffer.getvalue()


def _npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def test_corrupt_npz_archives_and_members_give_data_errors():
    content = _valid_npz_bytes()
    for cut in (len(content) // 2, len(content) - 30, 40):
        with pytest.raises(DataError, match=r"cut\.npz: "):
            D.read_npz(io.BytesIO(content[:cut]), source_name="cut.npz")
    with pytest.raises(DataError, match=r"garbage\.npz: array 'X' is not a readable \.npy array"):
        D.read_npz(io.BytesIO(_npz_with_member("X.npy", b"this is not an array")), source_name="garbage.npz")
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (1000, 3)})
    short = _npz_with_member("X.npy", header.getvalue() + b"\0" * 64)
    with pytest.raises(DataError, match=r"short\.npz: array 'X': its header promises shape \(1000, 3\).* truncated"):
        D.read_npz(io.BytesIO(short), source_name="short.npz")
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)})
    bomb = _npz_with_member("X.npy", header.getvalue())
    with pytest.raises(DataError, match=r"bomb\.npz: array 'X': shape \(1000000, 1000000\) .* over the limit"):
        D.read_npz(io.BytesIO(bomb), source_name="bomb.npz")
    with pytest.raises(DataError, match=r"bytes\.npz: no array 'X' in the archive"):
        D.read_npz(io.BytesIO(_npz_with_member("X", b"raw bytes, not .npy")), source_name="bytes.npz")
    with pytest.raises(DataError, match=r"one\.npz: holds a single \.npy array"):
        D.read_npz(io.BytesIO(_npy_bytes(np.zeros((3, 2)))), source_name="one.npz")


def test_object_and_pickled_npz_members_are_refused_without_unpickling():
    X = np.empty((4, 1), dtype=object)
    X[:, 0] = [1.0, 2.0, 3.0, 4.0]
    buffer = io.BytesIO()
    np.savez(buffer, X=X, y=np.array([0, 1, 0, 1]))
    with pytest.raises(DataError, match=r"pickled\.npz: array 'X' holds Python objects"):
        D.read_npz(io.BytesIO(buffer.getvalue()), source_name="pickled.npz")


def test_dates_give_data_errors_naming_where(tmp_path):
    days = np.array(["2020-01-01", "2020-02-01", "2020-03-01"], dtype="datetime64[D]").reshape(-1, 1)
    buffer = io.BytesIO()
    np.savez(buffer, X=days, y=np.array([0, 1, 0]))
    with pytest.raises(DataError, match=r"dates\.npz: X holds dates or times \(dtype datetime64\[D\]\)"):
        D.read_npz(io.BytesIO(buffer.getvalue()), source_name="dates.npz")
    path = tmp_path / "dated.csv"
    path.write_text("when,x,label\n2020-01-01,1,a\n2020-01-02,2,b\n")
    with pytest.raises(
        DataError,
        match=r"dated\.csv: line 2, column 'when': value '2020-01-01' is not a number; "
        "dates and times must be converted to numbers first",
    ):
        D.read_csv(path, "label")
    import datetime

    X = np.array([[1.0, datetime.date(2020, 1, 1)], [2.0, datetime.date(2020, 1, 2)]], dtype=object)
    with pytest.raises(DataError, match=r"column 'day' is not numeric: row index 0 .*dates and times"):
        D.validate(X, [0, 1], feature_names=["x", "day"])


def test_messages_show_plain_labels_not_numpy_reprs(tmp_path):
    labels = np.array([np.int64(2)] * 3, dtype=object)
    with pytest.raises(DataError) as info:
        D.encode_labels(labels)
    assert "found 1 class: 2 (3 rows)" in str(info.value) and "np." not in str(info.value)
    with pytest.raises(DataError) as info:
        D.encode_labels(np.array([np.float64(1.5)] * 3))
    assert "1.5 (3 rows)" in str(info.value) and "np." not in str(info.value)
    path = tmp_path / "three.csv"
    path.write_text("x,label\n1,0\n2,1\n3,2\n")
    with pytest.raises(DataError) as info:
        D.kfold_indices(np.array([np.int64(1)] * 3 + [np.int64(-1)] * 10), 4)
    assert "class 1 has 3 rows" in str(info.value)
    with pytest.raises(DataError) as info:
        D.load_file(tmp_path / "three.csv", label_column=np.int64(7))
    assert "index 7 is out of range" in str(info.value) and "np." not in str(info.value)


def test_huge_numeric_labels_are_not_wrapped_into_int64(tmp_path):
    path = tmp_path / "huge-labels.csv"
    path.write_text("x,label\n1,1e30\n2,0\n3,1e30\n")
    _, y, classes, _ = D.read_csv(path, "label")
    assert classes.tolist() == [0.0, 1e30] and y.tolist() == [1, 0, 1]


@pytest.mark.parametrize(
    "text",
    [
        "a,b,label\n1_000,2,x\n3,4,y\n",  # Python's float() reads 1_000; pandas does not
        "a,b,label\n 1 ,\t2\t, x \n3,4,y\n",  # spaces around cells
        "a,b,label\n1,2,x\n   \n\n3,4,y\n",  # blank and whitespace-only lines
        "\n\na,b,label\n1,2,x\n3,4,y\n",  # blank lines before the header
        "a,b,label\r\n1,2,x\r\n3,4,y\r\n",  # CRLF
        "a,b,label\r1,2,x\r3,4,y\r",  # old Mac line ends
        "a b label\n1 2 x\x0c3 4 y\n",  # a form feed: a line break for str.splitlines, not for pandas
        'a,b,label\n"1",2,"x"\n3,"4",y\n',  # quoted cells
        "a b label\n1 2 x\n3\t4   y\n",  # whitespace-delimited
        "a,b,label\n١,2,x\n3,4,y\n",  # Arabic-Indic digit one: float() reads it
    ],
)
def test_csv_fast_and_careful_paths_agree(text):
    header_fields = ["a", "b", "label"]
    X, y, classes, names = D.read_csv(io.BytesIO(text.encode()), "label", source_name="t.csv")
    assert names == ["a", "b"] and classes.tolist() == ["x", "y"] and y.tolist() == [0, 1]
    np.testing.assert_array_equal(X, [[1000.0 if "1_000" in text else 1.0, 2.0], [3.0, 4.0]])
    # the careful reader on its own gives the same table
    delimiter = None if text.startswith("a b") else ","
    rows = readers.csv_rows(text, delimiter, "t.csv")
    next(rows)
    Xc, labels = readers._careful_table(rows, header_fields, 2, "t.csv")
    np.testing.assert_array_equal(Xc, X)
    assert labels.tolist() == ["x", "y"]


def test_plain_csv_takes_pandas_fast_path_and_matches_the_careful_reader():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(300, 3)) * 10.0 ** rng.integers(-5, 6, size=(300, 3))
    labels = np.where(rng.random(300) < 0.4, "yes", "no")
    text = "a,b,c,label\n" + "".join(f"{r[0]!r},{r[1]!r},{r[2]!r},{lab}\n" for r, lab in zip(X.tolist(), labels))
    fast = readers._fast_table(text.encode(), ["a", "b", "c", "label"], 3, ",")
    assert fast is not None
    np.testing.assert_array_equal(fast[0], X)
    assert fast[1].tolist() == labels.tolist()
    Xr, yr, classes, _ = D.read_csv(io.BytesIO(text.encode()), "label")
    np.testing.assert_array_equal(Xr, X)
    assert classes.tolist() == ["no", "yes"] and yr.tolist() == np.where(labels == "yes", 1, 0).tolist()


def test_read_csv_bad_delimiter_and_unreadable_file_object():
    with pytest.raises(DataError, match="delimiter must be one character"):
        D.read_csv(io.BytesIO(b"a,label\n1,0\n2,1\n"), "label", delimiter=",,")

    class Broken:
        name = "broken.csv"

        def read(self, size=-1):
            raise OSError("device went away")

    with pytest.raises(DataError, match=r"broken\.csv: cannot read the data: device went away"):
        D.read_csv(Broken(), "label")


# ------------------------------------------------------------------------------- registry and where data are found


def test_registry_matches_the_offline_files_and_the_shared_readme(paper_data):
    readme = (paper_data / "README.md").read_text()
    for name, spec in D.PAPER_DATASETS.items():
        path = paper_data / spec.file
        assert registry.sha256_of(path) == spec.sha256, name
        assert f"{spec.sha256}  {spec.file}" in readme, name  # the shared README's integrity list
        with np.load(path) as archive:
            y = archive["y"]
            assert archive["X"].shape == (spec.n, spec.d), name
            assert abs(np.mean(y == 1) - spec.positive_rate) < 5e-5, name
        assert spec.sources and all(s["url"].startswith("https://raw.githubusercontent.com/") for s in spec.sources)
        assert spec.note and spec.quirks and spec.origin and spec.license


def test_search_order_env_then_project_data_then_shared_then_cache(tmp_path, monkeypatch):
    _no_data_beside(tmp_path, monkeypatch)
    spec = D.PAPER_DATASETS["diabetes"]
    places = {
        "env": tmp_path / "env",
        "project": registry.PROJECT_DATA_DIR,
        "shared": tmp_path / "shared",
        "cache": tmp_path / "cache",
    }
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", places["shared"])
    for k, (label, directory) in enumerate(places.items()):
        directory.mkdir(exist_ok=True)
        np.savez(directory / spec.file, X=np.full((4, 1), float(k)), y=np.array([0, 1, 0, 1]))
    monkeypatch.setenv("XGPC_DATA_DIR", str(places["env"]))
    expected_order = ["env", "project", "shared", "cache"]
    assert [d for _, d in D.data_locations()] == [places[k] for k in expected_order]
    for k, label in enumerate(expected_order):
        with pytest.warns(D.ChecksumWarning):
            X, _ = D.load("diabetes")
        assert X[0, 0] == list(places).index(label)
        row = next(r for r in D.paper_availability() if r["name"] == "diabetes")
        assert row == {
            "name": "diabetes",
            "available": True,
            "location": str(places[label] / spec.file),
            "how_to_get": row["how_to_get"],
        }
        (places[label] / spec.file).unlink()
        if label == "env":
            monkeypatch.delenv("XGPC_DATA_DIR")
    row = next(r for r in D.paper_availability() if r["name"] == "diabetes")
    assert row["available"] is False and row["location"] is None
    assert "xgpc-explorer data fetch diabetes" in row["how_to_get"] and "OpenML 37" in row["how_to_get"]
    w8a = next(r for r in D.paper_availability() if r["name"] == "w8a")
    assert "no OpenML copy" in w8a["how_to_get"] and "w8a.npz" in w8a["how_to_get"]
    # an explicit data_dir replaces the directories
    assert D.data_locations(tmp_path / "mine") == [("the data_dir argument", tmp_path / "mine")]


def test_the_real_offline_copies_load_without_a_checksum_warning(paper_data):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", D.ChecksumWarning)
        X, y = D.load("german", data_dir=paper_data)
    assert X.shape == (1000, 20) and int(np.sum(y == 1)) == 300


def test_shared_data_beside_the_checkout_is_found_without_an_environment_variable(tmp_path, monkeypatch, paper_data):
    _no_data_beside(tmp_path, monkeypatch)
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", paper_data)
    X, y = D.load("diabetes")
    assert X.shape == (768, 8) and int(np.sum(y == 1)) == 268
    assert "diabetes" in D.available()


# ------------------------------------------------------------------------------------ data fetch / list / examples


@pytest.fixture
def small_paper_file(tmp_path, monkeypatch):
    """A small generated file standing in for diabetes.npz in the registry (its sha256 entered there)."""
    import dataclasses

    served = tmp_path / "served"
    served.mkdir()
    rng = np.random.default_rng(0)
    np.savez_compressed(
        served / "diabetes.npz", X=rng.normal(size=(3000, 8)), y=np.where(rng.random(3000) < 0.35, 1, -1)
    )
    spec = dataclasses.replace(D.PAPER_DATASETS["diabetes"], sha256=registry.sha256_of(served / "diabetes.npz"))
    monkeypatch.setitem(registry.PAPER_DATASETS, "diabetes", spec)
    return served / "diabetes.npz"


@contextlib.contextmanager
def local_http_server(handler):
    """A threading http.server on 127.0.0.1 with `handler` (a request handler class or partial), running in a thread
    for the block; yields its base URL."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def directory_handler(directory):
    """A quiet handler serving the files under `directory`."""
    import functools

    return functools.partial(_QuietHandler, directory=str(directory))


@pytest.fixture
def http_server(small_paper_file):
    """A local http.server on 127.0.0.1 serving the directory of `small_paper_file`; yields its base URL."""
    with local_http_server(directory_handler(small_paper_file.parent)) as url:
        yield url


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_fetch_from_a_local_http_mirror_writes_the_file_with_a_progress_bar(
    tmp_path, http_server, small_paper_file, capsys
):
    from explorer.__main__ import main

    target = tmp_path / "data"
    assert main(["data", "fetch", "diabetes", "--from", http_server, "--to", str(target)]) == 0
    written = target / "diabetes.npz"
    assert written.read_bytes() == small_paper_file.read_bytes()
    assert sorted(p.name for p in target.iterdir()) == ["diabetes.npz"]  # no partial file left
    captured = capsys.readouterr()
    assert "diabetes.npz: 100%" in captured.err and str(written) in captured.out
    X, y = D.load("diabetes", data_dir=target)  # the registry's checksum now matches: no warning
    assert X.shape == (3000, 8)
    assert main(["data", "fetch", "banana", "--from", http_server, "--to", str(target)]) == 1
    assert f"{http_server}/banana.npz: the server answered 404" in capsys.readouterr().err
    assert sorted(p.name for p in target.iterdir()) == ["diabetes.npz"]


def test_fetch_from_a_file_url_and_a_mismatching_checksum_keeps_nothing(tmp_path, small_paper_file, monkeypatch):
    import dataclasses

    from explorer.data import download

    target = tmp_path / "data"
    path = download.fetch("diabetes", target, mirror=small_paper_file.parent.as_uri(), progress=False)
    assert path.read_bytes() == small_paper_file.read_bytes()
    path.unlink()
    spec = dataclasses.replace(D.PAPER_DATASETS["diabetes"], sha256="0" * 64)
    monkeypatch.setitem(registry.PAPER_DATASETS, "diabetes", spec)
    with pytest.raises(DataError, match=r"sha256 .* differs from the registry's 0000.*not kept"):
        download.fetch("diabetes", target, mirror=small_paper_file.parent.as_uri(), progress=False)
    assert list(target.iterdir()) == []
    with pytest.raises(DataError, match=r"cannot download file:.*/nowhere/banana\.npz: .*No such file"):
        download.fetch("banana", target, mirror=small_paper_file.parent.as_uri() + "/nowhere", progress=False)


def test_fetch_offline_fails_with_a_clear_message(tmp_path, monkeypatch, capsys):
    import socket

    from explorer.__main__ import main
    from explorer.data import download

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        unreachable = f"http://127.0.0.1:{probe.getsockname()[1]}"
    target = tmp_path / "data"
    assert main(["data", "fetch", "german", "--from", unreachable, "--to", str(target)]) == 1
    err = capsys.readouterr().err
    assert f"cannot download {unreachable}/german.npz" in err and "offline" in err

    monkeypatch.setattr(download, "OPENML_URL", unreachable)
    assert main(["data", "fetch", "diabetes", "w8a", "--to", str(target)]) == 1
    err = capsys.readouterr().err
    assert f"diabetes: fetching OpenML data set 37 failed: cannot download {unreachable}/api/v1/json/data/37" in err
    assert "offline" in err and "put diabetes.npz" in err
    assert "w8a: no OpenML copy" in err
    assert not target.exists() or not any(p.is_file() for p in target.rglob("*"))


def _serve_openml_fixture(data_id: int, root: Path) -> None:
    """Lay out scikit-learn's recorded OpenML responses for `data_id` as OpenML's URLs would serve them."""
    fixtures = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml" / f"id_{data_id}"
    for prefix, url in (
        ("api-v1-jd-", "api/v1/json/data/"),
        ("api-v1-jdf-", "api/v1/json/data/features/"),
        ("api-v1-jdq-", "api/v1/json/data/qualities/"),
    ):
        target = root / f"{url}{data_id}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.open(fixtures / f"{prefix}{data_id}.json.gz").read())
    description = json.loads(gzip.open(fixtures / f"api-v1-jd-{data_id}.json.gz").read())["data_set_description"]
    target = root / description["url"].split("openml.org/", 1)[1]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(gzip.open(next(fixtures.glob("data-v1-dl-*.arff.gz"))).read())


@pytest.mark.filterwarnings("ignore:OpenML raised a warning on the dataset")
def test_fetch_from_openml_downloads_with_progress_bars_then_loads_offline(tmp_path, monkeypatch, capsys):
    import dataclasses

    from explorer.data import download

    served = tmp_path / "openml"
    _serve_openml_fixture(3, served)  # kr-vs-kp, standing in for diabetes
    monkeypatch.setitem(
        registry.PAPER_DATASETS, "diabetes", dataclasses.replace(D.PAPER_DATASETS["diabetes"], openml_id=3)
    )
    target = tmp_path / "data"
    with local_http_server(directory_handler(served)) as url:
        path = download.fetch("diabetes", target, openml_url=url)
    assert path == target / "openml-3-ordinal.npz" and path.is_file()
    err = capsys.readouterr().err
    assert all(f"{name}: 100%" in err for name in ("3", "kr-vs-kp.arff"))
    X, y = D.load("diabetes", data_dir=target)  # the converted copy is found without the network
    names, rows = _parse_arff(
        next(
            (Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml" / "id_3").glob(
                "data-v1-dl-*.arff.gz"
            )
        )
    )
    assert X.shape == (len(rows), 36)
    minority = min(set(rows[:, -1]), key=lambda c: np.sum(rows[:, -1] == c))
    np.testing.assert_array_equal(y, np.where(rows[:, -1] == minority, 1, 0))


def test_data_list_shows_where_each_set_is_and_how_to_get_the_rest(tmp_path, monkeypatch, capsys):
    from explorer.__main__ import main

    _no_data_beside(tmp_path, monkeypatch)
    np.savez(registry.PROJECT_DATA_DIR / "banana.npz", X=np.zeros((4, 2)), y=np.array([-1, 1, -1, 1]))
    assert main(["data", "list"]) == 0
    out = capsys.readouterr().out
    banana = next(line for line in out.splitlines() if line.strip().startswith("banana "))
    assert "5300 × 2" in banana and str(registry.PROJECT_DATA_DIR / "banana.npz") in banana
    a9a = next(line for line in out.splitlines() if line.strip().startswith("a9a "))
    assert "missing" in a9a
    assert "a9a: run `xgpc-explorer data fetch a9a`" in out and "banana: run" not in out


def test_the_command_line_answers_help_and_names_its_commands(capsys):
    from explorer.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    help_text = capsys.readouterr().out
    assert stop.value.code == 0 and all(command in help_text for command in ("serve", "bench", "data"))
    assert main(["bench", "--help"]) == 0
    listing = capsys.readouterr().out
    assert "race" in listing and "table1" in listing and "unknown" not in listing
    assert main(["bench"]) == 2  # a bare `bench` still shows the listing, as a usage error
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2 and "serve,bench,data" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", "not-a-port"])
    assert stop.value.code == 2 and "--port" in capsys.readouterr().err


def test_example_files_are_the_ones_the_script_writes_and_read_back(tmp_path):
    from explorer.__main__ import main
    from explorer.data import data_command

    assert main(["data", "examples", "--to", str(tmp_path)]) == 0
    committed = Path(__file__).resolve().parents[1] / "data" / "examples"
    assert sorted(p.name for p in committed.iterdir()) == sorted(e.file for e in data_command.EXAMPLES)
    for example in data_command.EXAMPLES:
        assert (tmp_path / example.file).read_bytes() == (committed / example.file).read_bytes(), example.file
        X, y, classes, names = D.load_file(committed / example.file, example.label)
        X_true, y_true = D.load(example.dataset, n=example.n, seed=example.seed)
        np.testing.assert_allclose(X, X_true, rtol=1e-5, atol=1e-5)
        assert names == ["x1", "x2"] and len(y) == example.n
        shown = [
            str(c)
            if not isinstance(c, (int, np.integer))
            else f"{int(c):+d}"
            if "+1" in example.labels
            else str(int(c))
            for c in classes.tolist()
        ]
        assert sorted(shown) == sorted(example.labels)
        # the label that stands for generated class k (binary: 1 is +1) is the file's labels[k]
        for k, label in enumerate(example.labels):
            assert shown[y[np.flatnonzero(y_true == k)[0]]] == label


def test_readers_refuse_content_passed_instead_of_a_file_and_non_files():
    with pytest.raises(DataError, match="got the content itself; pass a path or a file object"):
        D.read_csv(b"a,label\n1,0\n2,1\n", "label")
    with pytest.raises(DataError, match="expected a path or a file object with read\\(\\), got NoneType"):
        D.read_npz(None)


def test_messages_stay_short_for_wide_headers_and_many_label_values(tmp_path):
    path = tmp_path / "wide.csv"
    header = [f"feature_{j}" for j in range(500)] + ["label"]
    path.write_text(",".join(header) + "\n" + ",".join(["1"] * 501) + "\n")
    with pytest.raises(DataError) as info:
        D.read_csv(path, "outcome")
    message = str(info.value)
    assert "no label column 'outcome'" in message and "(501 in all)" in message and len(message) < 600
    path = tmp_path / "many.csv"
    path.write_text("x,label\n" + "".join(f"{k},{k}\n" for k in range(1000)))
    _, _, classes, _ = D.read_csv(path, "label")
    assert len(classes) == 1000
    with pytest.raises(DataError) as info:  # a binary method refuses them, naming the first few
        methods.check_classes("epgpc", classes)
    message = str(info.value)
    assert "the labels hold 1000 classes: [0, 1, 2," in message and "(1000 in all)" in message
    assert len(message) < 600


# ----------------------------------------------------------------- issue 19 §3–§4: hostile input to `data` commands


def test_fetch_takes_a_plain_folder_as_mirror_and_names_a_missing_one(tmp_path, small_paper_file, monkeypatch, capsys):
    from explorer.__main__ import main

    monkeypatch.chdir(tmp_path)
    assert main(["data", "fetch", "diabetes", "--from", "served", "--to", "data", "--quiet"]) == 0  # ./served
    assert (tmp_path / "data" / "diabetes.npz").read_bytes() == small_paper_file.read_bytes()
    assert main(["data", "fetch", "diabetes", "--from", "./mirror", "--to", "data", "--quiet"]) == 1
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("error: mirror './mirror': neither a URL (http, https or file) nor an existing folder")
    )


def test_fetch_into_a_file_and_examples_into_an_unwritable_place_say_so_in_one_line(tmp_path, small_paper_file, capsys):
    from explorer.__main__ import main

    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    assert main(["data", "fetch", "diabetes", "--from", str(small_paper_file.parent), "--to", str(a_file)]) == 1
    assert capsys.readouterr().err == f"error: {a_file}: is a file, not a folder\n"
    assert a_file.read_text() == "mine"
    assert main(["data", "examples", "--to", str(a_file)]) == 1
    assert capsys.readouterr().err == f"error: {a_file}: is a file, not a folder\n"
    assert main(["data", "examples", "--to", str(a_file / "examples")]) == 1
    assert capsys.readouterr().err == f"error: {a_file / 'examples'}: cannot create the folder: Not a directory\n"


def _registry_entry(**changes) -> dict:
    entry = json.loads(registry.REGISTRY_FILE.read_text())["datasets"]["banana"]
    return {**entry, **changes}


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"datasets": {', "cannot be read: JSONDecodeError"),
        (b"\xff\xfe{}", "cannot be read: UnicodeDecodeError"),
        ('["datasets"]', 'has no "datasets" object'),
        ('{"datasets": []}', 'has no "datasets" object'),
        (json.dumps({"datasets": {"banana": 3}}), "entry 'banana' is int, not an object"),
        (json.dumps({"datasets": {"banana": _registry_entry(n="5300")}}), "entry 'banana': field 'n' is '5300'"),
        (json.dumps({"datasets": {"banana": _registry_entry(n=True)}}), "entry 'banana': field 'n' is True"),
        (json.dumps({"datasets": {"banana": {"file": "banana.npz"}}}), "entry 'banana' has no field 'sha256'"),
        (
            json.dumps({"datasets": {"banana": _registry_entry(file="../../etc/banana.npz")}}),
            "file '../../etc/banana.npz' must be a bare file name",
        ),
        (json.dumps({"datasets": {"banana": _registry_entry(sha256="abc")}}), "sha256 'abc' is not 64 hexadecimal"),
        (json.dumps({"datasets": {"banana": _registry_entry(sources=["x"])}}), "every source needs a repository"),
    ],
)
def test_a_damaged_registry_is_named_with_its_entry_and_field(tmp_path, content, problem):
    path = tmp_path / "registry.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(DataError, match=re.escape(problem)):
        registry.read_registry(path)
    with pytest.warns(RuntimeWarning, match="unavailable until the file is repaired"):
        found, message = registry.registry_or_problem(path)
    assert found == {} and message.startswith(f"{path}: ")


def test_data_commands_with_a_damaged_registry_give_one_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    from explorer.__main__ import main

    path = tmp_path / "registry.json"
    path.write_text('{"datasets": {')
    with pytest.warns(RuntimeWarning):
        found, message = registry.registry_or_problem(path)
    monkeypatch.setattr(registry, "REGISTRY_PROBLEM", message)
    for command in (["data", "list"], ["data", "fetch", "banana", "--to", str(tmp_path)]):
        assert main(command) == 1
        assert capsys.readouterr().err == f"error: {message}\n"
    assert main(["data", "examples", "--to", str(tmp_path / "examples")]) == 0  # needs no registry


def test_data_list_reads_and_checksums_what_it_lists(tmp_path, monkeypatch, capsys, paper_data):
    from explorer.__main__ import main

    _no_data_beside(tmp_path, monkeypatch)
    project = registry.PROJECT_DATA_DIR
    (project / "banana.npz").write_bytes((paper_data / "banana.npz").read_bytes()[:20_000])  # truncated
    shutil.copy(paper_data / "german.npz", project / "german.npz")  # the paper's copy
    np.savez(project / "diabetes.npz", X=np.zeros((4, 8)), y=np.array([-1, 1, -1, 1]))  # another file
    assert main(["data", "list"]) == 1
    lines = capsys.readouterr().out.splitlines()

    def found(name):
        at = next(k for k, line in enumerate(lines) if line.strip().startswith(f"{name} "))
        return lines[at + 1].strip()

    assert (
        found("banana") == f"DAMAGED, not used: {project / 'banana.npz'}: not a readable .npz archive: File is "
        "not a zip file"
    )
    assert found("german") == "readable, sha256 as in the registry"
    assert found("diabetes").startswith("readable, 4 × 8, but its sha256 differs from the registry's")
    assert "1 file(s) above cannot be used" in lines[-1]


def test_a_mirror_that_trickles_bytes_is_given_up_at_the_deadline(tmp_path):
    """A server sending one byte every 20 ms for 4 s: with a deadline of 0.5 s the download stops with a DataError
    (without one it would complete, each byte well within the per-read timeout) and leaves nothing behind."""
    import time

    from explorer.data import download

    class Trickle(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "200")
            self.end_headers()
            for _ in range(200):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.02)

        def log_message(self, *args):
            pass

    with local_http_server(Trickle) as base:
        with pytest.raises(DataError, match=r"slow.npz: only \d+ bytes arrived within the deadline of 0.5 s"):
            download.download(f"{base}/slow.npz", tmp_path / "slow.npz", progress=False, timeout=5.0, deadline=0.5)
    assert list(tmp_path.iterdir()) == []


def test_an_openml_description_whose_path_leaves_the_folder_is_refused(tmp_path, monkeypatch, capsys):
    """OpenML's description names the data file by URL; a path starting /../../ would be written outside the
    download folder. It is refused, and nothing is written outside."""
    import dataclasses

    from explorer.__main__ import main
    from explorer.data import download

    served = tmp_path / "openml"
    _serve_openml_fixture(3, served)
    description = served / "api" / "v1" / "json" / "data" / "3"
    document = json.loads(description.read_text())
    document["data_set_description"]["url"] = "https://www.openml.org/../../../../escaped"
    description.write_text(json.dumps(document))
    (served / "escaped").write_text("served, were the path normalised the way a web server does")
    monkeypatch.setitem(
        registry.PAPER_DATASETS, "diabetes", dataclasses.replace(D.PAPER_DATASETS["diabetes"], openml_id=3)
    )
    with local_http_server(directory_handler(served)) as url:
        monkeypatch.setattr(download, "OPENML_URL", url)
        assert main(["data", "fetch", "diabetes", "--to", str(tmp_path / "data"), "--quiet"]) == 1
    assert (
        "OpenML's description names the file path '../../../../escaped', which leaves the download folder"
        in capsys.readouterr().err
    )
    outside = tmp_path / "data" / "openml" / "openml.org" / ".." / ".." / ".." / ".."
    assert not (outside / "escaped").exists() and not (outside / "escaped.gz").exists()


@pytest.mark.parametrize("name", ["blobs-3", "spiral-3", "xor-3"])
def test_three_class_sets_are_learnable_by_multiclass_xgpc(name):
    """Multi-class X-GPC trained on one draw classifies a fresh draw far better than chance (2/3 error)."""
    from explorer import XGPClassifier

    X, y = D.load(name, n=400, seed=0)
    X_new, y_new = D.load(name, n=400, seed=1)
    classifier = XGPClassifier(n_inducing=40, max_iter=300, random_state=0).fit(X, y)
    assert classifier.classes_.tolist() == [0, 1, 2]
    assert 1.0 - classifier.score(X_new, y_new) < 0.25
