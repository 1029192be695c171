"""Property tests for the file readers (Hypothesis): any bytes give a table or a DataError, never another exception;
valid files written by independent writers (csv, string formatting, numpy) read back exactly; pandas' fast CSV path
never accepts a table the careful line-by-line reader would read differently or refuse."""

from __future__ import annotations

import csv
import io
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.data import readers
from explorer.data.datasets import DataError, load_file, read_csv, read_libsvm, read_npz

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CSV_CHARACTERS = "0123456789.,;|\t \n\r\"'#:-+eEnaifxyl_\x00\x0c\x85\u2028é"
cells = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "nan",
            "NaN",
            "inf",
            "-inf",
            "1e400",
            "1_0",
            " 1",
            "1 ",
            "NA",
            "1e5",
            "\u0661",
            "0x1",
            ".5",
            "5.",
            "+1",
            "-0",
            '"3"',
            '"1,5"',
            "x",
            "yes",
            "no",
            "2020-01-01",
            "1e",
            ".",
            "-",
            "\t2",
        ]
    ),
    st.text(alphabet="0123456789.e+- ", max_size=6),
)


def _only_data_errors(read) -> None:
    """Call `read()`; a result must be a 4-tuple of a valid table, any exception a DataError."""
    try:
        X, y, classes, names = read()
    except DataError as err:
        assert str(err)
        return
    assert X.dtype == np.float64 and X.ndim == 2 and np.isfinite(X).all()
    assert y.dtype == np.int64 and set(np.unique(y).tolist()) == {0, 1} and len(y) == len(X)
    assert len(classes) == 2 and len(names) == X.shape[1]


# --------------------------------------------------------------------------------------------- any input: DataError


@SETTINGS
@given(content=st.binary(max_size=400), label=st.sampled_from(["label", 0, -1, "y"]))
def test_any_bytes_as_csv_give_a_table_or_a_data_error(content, label):
    _only_data_errors(lambda: read_csv(io.BytesIO(content), label, source_name="any.csv"))


@SETTINGS
@given(
    body=st.text(alphabet=CSV_CHARACTERS, max_size=300),
    label=st.sampled_from(["label", 0, -1]),
    header=st.sampled_from(["a,b,label\n", "a b label\n", "a;label\n", "label\t a\n", "", "\n\n a,label\r\n"]),
)
def test_any_text_as_csv_gives_a_table_or_a_data_error(body, label, header):
    _only_data_errors(lambda: read_csv(io.BytesIO((header + body).encode()), label, source_name="any.csv"))


@SETTINGS
@given(body=st.text(alphabet="0123456789.:+- \n\t#e\x0cnai", max_size=300))
def test_any_text_as_libsvm_gives_a_table_or_a_data_error(body):
    _only_data_errors(lambda: read_libsvm(io.BytesIO(body.encode()), source_name="any.libsvm"))


@SETTINGS
@given(content=st.binary(max_size=400))
def test_any_bytes_as_npz_give_a_table_or_a_data_error(content):
    _only_data_errors(lambda: read_npz(io.BytesIO(content), source_name="any.npz"))


def _valid_npz() -> bytes:
    buffer = io.BytesIO()
    rng = np.random.default_rng(0)
    np.savez_compressed(buffer, X=rng.normal(size=(6, 2)), y=np.array([0, 1] * 3), feature_names=np.array(["a", "b"]))
    return buffer.getvalue()


VALID_NPZ = _valid_npz()


@SETTINGS
@given(
    cut=st.integers(0, len(VALID_NPZ)),
    flips=st.lists(st.tuples(st.integers(0, len(VALID_NPZ) - 1), st.integers(1, 255)), max_size=4),
)
def test_corrupted_npz_gives_a_table_or_a_data_error(cut, flips):
    content = bytearray(VALID_NPZ)
    for position, mask in flips:
        content[position] ^= mask
    _only_data_errors(lambda: read_npz(io.BytesIO(bytes(content[:cut] if cut else content)), source_name="bad.npz"))


@SETTINGS
@given(
    content=st.binary(max_size=200),
    name=st.sampled_from(["f.csv", "f.tsv", "f.txt", "f.svm", "f.npz", "f.xlsx", "", "f"]),
)
def test_load_file_on_any_bytes_and_names_gives_a_table_or_a_data_error(content, name):
    _only_data_errors(lambda: load_file(io.BytesIO(content), source_name=name or None))


# ------------------------------------------------------------------------------------------------------ round trips

finite = st.floats(allow_nan=False, allow_infinity=False)
label_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC_-é", min_size=1, max_size=8)


@st.composite
def tables(draw):
    """(X (n, d) finite floats, y (n,) of two distinct labels, the two labels sorted)."""
    n = draw(st.integers(2, 8))
    d = draw(st.integers(1, 4))
    X = np.array(draw(st.lists(st.lists(finite, min_size=d, max_size=d), min_size=n, max_size=n)))
    classes = sorted(draw(st.lists(label_words, min_size=2, max_size=2, unique=True)))
    picks = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda p: len(set(p)) == 2))
    return X, np.array([classes[k] for k in picks]), classes


@SETTINGS
@given(table=tables(), delimiter=st.sampled_from([",", ";", "\t", "|"]), data=st.data())
def test_csv_round_trip(table, delimiter, data):
    X, y, classes = table
    label_at = data.draw(st.integers(0, X.shape[1]))
    names = [f"f{j}" for j in range(X.shape[1])]
    header = names[:label_at] + ["target"] + names[label_at:]
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=data.draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerow(header)
    for row, label in zip(X.tolist(), y.tolist()):
        cells = [repr(v) for v in row]
        writer.writerow(cells[:label_at] + [label] + cells[label_at:])
    Xr, yr, found, names_r = read_csv(io.BytesIO(buffer.getvalue().encode()), "target", source_name="t.csv")
    np.testing.assert_array_equal(Xr, X)
    assert names_r == names and found.tolist() == classes
    np.testing.assert_array_equal(yr, np.where(y == classes[1], 1, 0))


@SETTINGS
@given(table=tables())
def test_libsvm_round_trip(table):
    X, y, classes = table
    labels = {classes[0]: "-1", classes[1]: "+1"}
    lines = [
        " ".join([labels[label]] + [f"{j + 1}:{v!r}" for j, v in enumerate(row) if v != 0])
        for row, label in zip(X.tolist(), y.tolist())
    ]
    Xr, yr, found, names = read_libsvm(
        io.BytesIO("\n".join(lines).encode()), n_features=X.shape[1], source_name="t.svm"
    )
    np.testing.assert_array_equal(Xr, X)
    assert found.tolist() == [-1, 1] and names == [f"x{j}" for j in range(1, X.shape[1] + 1)]
    np.testing.assert_array_equal(yr, np.where(y == classes[1], 1, 0))


@SETTINGS
@given(table=tables(), numeric_labels=st.booleans())
def test_npz_round_trip(table, numeric_labels):
    X, y, classes = table
    labels = np.where(y == classes[1], 7, 3) if numeric_labels else y
    buffer = io.BytesIO()
    names = np.array([f"feature {j}" for j in range(X.shape[1])])
    np.savez(buffer, X=X, y=labels, feature_names=names)
    Xr, yr, found, names_r = read_npz(io.BytesIO(buffer.getvalue()), source_name="t.npz")
    np.testing.assert_array_equal(Xr, X)
    assert names_r == names.tolist() and found.tolist() == ([3, 7] if numeric_labels else classes)
    np.testing.assert_array_equal(yr, np.where(y == classes[1], 1, 0))


# ------------------------------------------------------------------------------------- fast and careful CSV agree


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(cells, cells, st.sampled_from(["a", "b", " a", "b ", "", '"a"', "1", "01", "1.0"])),
        min_size=1,
        max_size=6,
    ),
    whitespace=st.booleans(),
    ends=st.sampled_from(["\n", "\r\n", "\r"]),
    blanks=st.lists(st.sampled_from(["", "   ", "\t"]), max_size=2),
)
def test_fast_path_never_accepts_what_the_careful_reader_reads_differently(rows, whitespace, ends, blanks):
    delimiter = None if whitespace else ","
    separator = " " if whitespace else ","
    lines = [separator.join(["p", "q", "label"])] + [separator.join(row) for row in rows] + blanks
    text = ends.join(lines) + ends
    header = ["p", "q", "label"]
    fast = readers._fast_table(text.encode(), header, 2, delimiter)
    if fast is None:
        return
    body = readers.csv_rows(text, delimiter, "t.csv")
    next(body)
    try:
        careful = readers._careful_table(body, header, 2, "t.csv")
    except DataError as err:
        pytest.fail(f"fast path accepted {text!r}, the careful reader refuses it: {err}")
    np.testing.assert_array_equal(fast[0], careful[0])
    assert fast[1].tolist() == careful[1].tolist()


@pytest.mark.parametrize("member", ["X.npy", "y.npy"])
def test_npz_member_that_is_another_zip_is_a_data_error(member):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("X.npy", b"nested")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for key in ("X.npy", "y.npy"):
            archive.writestr(key, inner.getvalue() if key == member else VALID_NPZ[:0] + np.lib.format.MAGIC_PREFIX)
    with pytest.raises(DataError, match=r"nested\.npz: array '[Xy]' is not a readable \.npy array"):
        read_npz(io.BytesIO(buffer.getvalue()), source_name="nested.npz")
