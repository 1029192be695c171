"""Out-of-core data sources (issue 23): a memory-mapped .npy, a Zarr group and a Parquet table give the same
minibatches, standardisation, inducing points and fit as the same rows in memory; bad files are refused naming the
file and the column; test scores over a source are computed in chunks."""

from __future__ import annotations

import json
import sys
import warnings

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zarr

import explorer.inducing
import explorer.scaling
import explorer.sources
from explorer import XGPClassifier
from explorer.data import datasets, sources
from explorer.data.sources import open_source
from explorer.inducing import inducing_sample
from explorer.metrics import error_rate, negative_log_likelihood
from explorer.model import Model
from explorer.run import Run, streams
from explorer.scaling import ScaledSource, Standardizer
from explorer.sources import ArraySource
from explorer.validation import DataError

FORMATS = ("npy", "zarr", "parquet")


def banana(n: int = 600, seed: int = 3):
    """A 2-D problem far from standardised units (offsets and scales), so the scaler matters."""
    X, y = datasets.load("banana-like", n=n, seed=seed)
    return X * [3.0, 0.5] + [1e3, -4.0], y


def write(folder, kind: str, X: np.ndarray, y: np.ndarray):
    """The rows (X, y) written in format `kind`, returning the path `open_source` takes."""
    if kind == "npy":
        np.save(folder / "rows.npy", X)
        np.save(folder / "rows_labels.npy", y)
        return folder / "rows.npy"
    if kind == "zarr":
        group = zarr.open_group(folder / "rows.zarr", mode="w")
        group.create_array("X", shape=X.shape, chunks=(64, X.shape[1]), dtype=X.dtype)[:] = X
        group.create_array("y", shape=y.shape, chunks=(64,), dtype=y.dtype)[:] = y
        return folder / "rows.zarr"
    columns = {f"x{j}": X[:, j] for j in range(X.shape[1])}
    pq.write_table(pa.table({**columns, "label": y}), folder / "rows.parquet", row_group_size=100)
    return folder / "rows.parquet"


@pytest.fixture
def small_chunks(monkeypatch):
    """Blocks of 64 rows, so that statistics, samples and scores are merged over several chunks."""
    for module in (explorer.sources, explorer.scaling, explorer.inducing):
        monkeypatch.setattr(module, "CHUNK_ROWS", 64)


@pytest.mark.parametrize("kind", FORMATS)
def test_a_source_hands_out_the_rows_and_minibatches_of_the_arrays(tmp_path, kind):
    X, y = banana(300)
    source = open_source(write(tmp_path, kind, X, y))
    assert (source.n, source.d, source.n_classes) == (300, 2, 2)
    memory = ArraySource(X, y)
    one, two = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(4):
        index = source.sample(one, 37)
        np.testing.assert_array_equal(index, memory.sample(two, 37))
        X_b, y_b = source.batch(index)
        assert X_b.dtype == np.float64 and X_b.flags.c_contiguous and y_b.dtype == np.int64
        np.testing.assert_array_equal(X_b, X[index])
        np.testing.assert_array_equal(y_b, y[index])
    np.testing.assert_array_equal(source.labels(), y)


@pytest.mark.parametrize("kind", FORMATS)
def test_a_run_on_a_source_matches_the_run_in_memory(tmp_path, kind, small_chunks):
    """Same split, same scaler (to rounding: chunked merge), same Z, same minibatches, same ELBO and NLL history."""
    X, y = banana()
    X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.25, streams(0).split)
    config = {"n_inducing": 15, "batch_size": 40, "seed": 0, "eval_every": 5}
    memory = Run(config, X_tr, y_tr, X_te, y_te)
    out_of_core = Run(config, open_source(write(tmp_path, kind, X_tr, y_tr)), None, X_te, y_te)
    np.testing.assert_allclose(out_of_core.scaler.mean, memory.scaler.mean, rtol=1e-14)
    np.testing.assert_allclose(out_of_core.scaler.scale, memory.scaler.scale, rtol=1e-12)
    np.testing.assert_allclose(out_of_core.engine.Z, memory.engine.Z, rtol=0, atol=1e-12)
    for _ in range(40):
        memory.trainer.step(1)
        out_of_core.trainer.step(1)
        np.testing.assert_array_equal(out_of_core.engine.last_batch, memory.engine.last_batch)
    for column in ("elbo", "test_nll", "lengthscale"):
        np.testing.assert_allclose(out_of_core.history.column(column), memory.history.column(column), rtol=1e-9)
    # at iteration 0 every probability is ½ up to rounding: a tie (explorer.metrics.predicted_class), class 0 in both
    np.testing.assert_array_equal(out_of_core.history.column("test_error"), memory.history.column("test_error"))
    assert len(memory.history) == 9


def test_chunked_standardisation_is_the_mean_and_sd_of_all_rows(small_chunks):
    rng = np.random.default_rng(0)
    X = np.column_stack([1e6 + rng.standard_normal(1000), rng.exponential(3.0, 1000), np.full(1000, 7.25)])
    scaler = Standardizer().fit(ArraySource(X, np.zeros(1000, dtype=int)))
    exact = [np.mean(X[:, j], dtype=np.longdouble) for j in range(2)]
    np.testing.assert_allclose(scaler.mean[:2], np.array(exact, dtype=float), rtol=1e-15)
    np.testing.assert_allclose(scaler.scale[:2], X[:, :2].std(axis=0), rtol=1e-10)
    assert (scaler.mean[2], scaler.scale[2]) == (7.25, 1.0)  # a constant column standardises to exactly 0
    reference = Standardizer().fit(X)
    np.testing.assert_allclose(scaler.mean, reference.mean, rtol=1e-15)


def test_the_inducing_sample_is_all_rows_up_to_its_size_then_a_seeded_sample(small_chunks):
    X = np.arange(2000.0).reshape(1000, 2)
    source = ArraySource(X, np.zeros(1000, dtype=int))
    np.testing.assert_array_equal(inducing_sample(source, np.random.default_rng(0), most=1000), X)
    sample = inducing_sample(source, np.random.default_rng(1), most=300)
    assert sample.shape == (300, 2) and len(np.unique(sample[:, 0])) == 300
    assert np.all(np.diff(sample[:, 0]) > 0)  # read in file order
    np.testing.assert_array_equal(sample, inducing_sample(source, np.random.default_rng(1), most=300))
    assert not np.array_equal(sample, inducing_sample(source, np.random.default_rng(2), most=300))


def test_test_scores_in_chunks_equal_the_metrics_on_all_rows(tmp_path, small_chunks):
    X, y = banana(900)
    X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.5, streams(1).split)
    run = Run(
        {"n_inducing": 10, "batch_size": 50, "seed": 1},
        X_tr,
        y_tr,
        open_source(write(tmp_path, "npy", X_te, y_te)),
        None,
    )
    run.trainer.step(30)
    P = run.engine.predict_proba(run.scaler.transform(X_te))
    nll, error = run.test_scores(chunk_rows=100)
    assert nll == pytest.approx(negative_log_likelihood(P, y_te), rel=1e-12)
    assert error == pytest.approx(error_rate(P, y_te), abs=1e-12)
    assert len(run.history.column("test_nll")) == 4  # the history watched at most eval_points rows meanwhile


@pytest.mark.parametrize("kind", FORMATS)
def test_the_estimator_fits_a_path_as_it_fits_the_arrays(tmp_path, kind):
    X, y = banana(700, seed=4)  # ≥ 500 rows: early stopping holds out a tenth (the same rows from the file)
    params = dict(n_inducing=12, max_iter=400, random_state=2)
    memory = XGPClassifier(**params).fit(X, y)
    from_file = XGPClassifier(**params).fit(str(write(tmp_path, kind, X, y)))
    assert from_file.n_iter_ == memory.n_iter_ and from_file.n_features_in_ == 2
    np.testing.assert_array_equal(from_file.classes_, [0, 1])
    np.testing.assert_allclose(from_file.predict_proba(X[:50]), memory.predict_proba(X[:50]), rtol=1e-8)
    with pytest.raises(ValueError, match="holds its labels; give y=None"):
        XGPClassifier(**params).fit(open_source(write(tmp_path, kind, X, y)), y)


def test_the_model_trains_on_a_path_as_on_the_arrays(tmp_path):
    X, y = banana(500)
    memory = Model(dataset="moons", n_points=50, n_inducing=10, seed=2)
    memory.set_data(X, y)
    mapped = Model(dataset="moons", n_points=50, n_inducing=10, seed=2)
    mapped.set_data(write(tmp_path, "parquet", X, y), name="rows.parquet")
    assert (len(mapped.X_train), len(mapped.X_test)) == (len(memory.X_train), len(memory.X_test))
    memory.step(30)
    mapped.step(30)
    np.testing.assert_allclose(mapped.history.column("elbo"), memory.history.column("elbo"), rtol=1e-9)
    assert mapped.current_run.X_train.source.feature_names == ["x0", "x1"]
    with pytest.raises(ValueError, match="read out of core .* cannot be saved"):
        mapped.save(tmp_path / "run.npz")


def test_load_file_offers_a_source_and_never_loads_one_silently(tmp_path):
    X, y = banana(200)
    path = write(tmp_path, "npy", X, y)
    with pytest.raises(DataError, match=r"rows.npy: .npy files are read out of core.*out_of_core=True"):
        datasets.load_file(path)
    source = datasets.load_file(path, out_of_core=True)
    assert isinstance(source, sources.NpySource) and source.n == 200
    with pytest.raises(DataError, match="out_of_core applies to"):
        datasets.load_file(tmp_path / "rows.csv", out_of_core=True)


# ---------------------------------------------------------------------------------------------------- bad files


def _parquet(folder, **columns):
    path = folder / "bad.parquet"
    pq.write_table(pa.table(columns), path)
    return path


@pytest.mark.parametrize(
    "columns, options, problem",
    [
        ({"a": [1.0, 2.0], "b": [0.5, 1.5]}, {}, r"say which column holds the labels .* the columns are \['a', 'b'\]"),
        ({"a": [1.0, 2.0], "label": [0, 1]}, {"label_column": "class"}, r"no label column 'class'; the columns are"),
        ({"a": [1.0, 2.0], "label": [0, 1]}, {"label_column": 2}, r"label column index 2 is out of range for 2 col"),
        ({"a": ["x", "y"], "label": [0, 1]}, {}, r"column 'a' holds string values; it is a feature column"),
        ({"a": [1.0, 2.0], "label": ["s", "b"]}, {}, r"column 'label' holds string values; it is the label column"),
        ({"a": [1.0, None], "label": [0, 1]}, {}, r"column 'a' row 1 \(0-based\) is empty \(null\)"),
        ({"a": [1.0, np.nan], "label": [0, 1]}, {}, r"row 1 \(0-based\), column 'a' holds nan"),
        ({"a": [1.0, 2.0], "label": [0, -1]}, {}, r"column 'label' row 1 \(0-based\) holds -1; labels must be class"),
        ({"a": [[1.0], [2.0, 3.0]], "label": [0, 1]}, {}, r"column 'a' holds list<\w+: double> values"),
    ],
)
def test_a_bad_parquet_file_is_refused_naming_the_file_and_the_column(tmp_path, columns, options, problem):
    path = _parquet(tmp_path, **columns)
    with pytest.raises(DataError, match=problem) as caught:
        open_source(path, **options)
    assert str(caught.value).startswith(str(path))


def test_a_parquet_label_column_may_be_named_by_its_index_as_in_a_csv(tmp_path):
    path = _parquet(tmp_path, c=[0, 1, 1], a=[1.0, 2.0, 3.0], b=[0.5, 1.5, 2.5])
    source = open_source(path, label_column=-3)
    assert source.label_column == "c" and source.feature_names == ["a", "b"]
    assert source.labels().tolist() == [0, 1, 1] and source.batch(np.arange(3))[0].tolist()[2] == [3.0, 2.5]


def test_a_bad_zarr_group_is_refused_naming_the_group_and_the_array(tmp_path):
    path = tmp_path / "bad.zarr"
    group = zarr.open_group(path, mode="w")
    group.create_array("X", shape=(10, 2), dtype="f8")[:] = 1.0
    with pytest.raises(DataError, match=r"bad.zarr: no array 'y' in the Zarr group; it holds \['X'\]"):
        open_source(path)
    group.create_array("y", shape=(9,), dtype="i8")[:] = 0  # ragged: one label short
    with pytest.raises(DataError, match=r"bad.zarr: array 'X' has 10 rows but array 'y' has 9 labels"):
        open_source(path)
    group = zarr.open_group(path, mode="w")
    group.create_array("X", shape=(10, 2), dtype="f8")[:] = 1.0
    group.create_array("y", shape=(10,), dtype="c16")[:] = 1j
    with pytest.raises(DataError, match=r"bad.zarr: array 'y' holds complex128 values; it must hold real numbers"):
        open_source(path)
    with pytest.raises(DataError, match=r"missing.zarr: not a readable Zarr group"):
        open_source(tmp_path / "missing.zarr")


def test_a_bad_npy_pair_or_an_unknown_format_is_named(tmp_path):
    np.save(tmp_path / "X.npy", np.ones((5, 2)))
    with pytest.raises(DataError, match=r"X_labels.npy: cannot read the file"):
        open_source(tmp_path / "X.npy")
    np.save(tmp_path / "short.npy", np.zeros(4, dtype=int))
    with pytest.raises(DataError, match="same n"):
        open_source(tmp_path / "X.npy", labels=tmp_path / "short.npy")
    with pytest.raises(DataError, match=r"rows.h5: no out-of-core source reads .h5"):
        open_source(tmp_path / "rows.h5")
    with pytest.raises(DataError, match=r"label_column do not apply to .npy files"):
        open_source(tmp_path / "X.npy", label_column="y")


def test_a_missing_optional_package_is_named_with_the_extra_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # as if pyarrow were not installed
    with pytest.raises(ModuleNotFoundError, match=r"bad.parquet: reading a Parquet file needs .*xgpc-explorer\[ooc\]"):
        open_source(tmp_path / "bad.parquet")


def test_a_scaled_source_gives_the_standardised_rows_of_memory():
    X, y = banana(100)
    scaler = Standardizer().fit(X)
    scaled = ScaledSource(ArraySource(X, y), scaler)
    np.testing.assert_array_equal(scaled.batch(np.arange(7, 20))[0], scaler.transform(X)[7:20])


def _resident_file_pages_mb() -> float:
    """The process's resident file-backed memory (RssFile of /proc/self/status), MB."""
    for line in open("/proc/self/status"):
        if line.startswith("RssFile:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssFile line in /proc/self/status")


def test_a_memory_mapped_source_gives_its_pages_back_so_resident_memory_stays_bounded(tmp_path, monkeypatch):
    """Reading a 64 MB file in chunks through the map would keep 64 MB of its pages resident; the source gives them
    back every RELEASE_BYTES (here 4 MiB), so reading it all leaves a few MB resident; random minibatches are read
    with pread and map nothing."""
    X = np.ones((2_000_000, 4))  # 64 MB
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "X_labels.npy", np.zeros(len(X), dtype=np.int8))
    del X
    monkeypatch.setattr(sources.NpySource, "RELEASE_BYTES", 1 << 22)
    source = open_source(tmp_path / "X.npy")
    before = _resident_file_pages_mb()
    for rows in source.chunks(50_000):
        source.batch(rows)
    between = _resident_file_pages_mb()
    monkeypatch.setattr(sources.NpySource, "RELEASE_BYTES", 1 << 40)  # never give pages back
    for rows in source.chunks(50_000):
        source.batch(rows)
    after = _resident_file_pages_mb()
    rng = np.random.default_rng(0)
    for _ in range(200):
        source.batch(source.sample(rng, 100))
    grown_by_minibatches = _resident_file_pages_mb() - after
    grown_with_release, grown_without = between - before, after - between
    assert grown_with_release < 12 and grown_without > 50 and grown_by_minibatches < 4, (
        grown_with_release,
        grown_without,
        grown_by_minibatches,
    )


def test_bench_scale_trains_past_memory_from_a_file_it_writes_once(tmp_path):
    """`bench scale` above --max-ram-gb writes the set to a float32 .npy pair chunk by chunk, trains on it out of
    core (no per-row state: the in-memory rows keep a copy of y, 8 bytes a row) and reuses the file the next time."""
    from explorer.bench import scale

    argv = ["--n", "2000", "20000", "--m", "20", "--seconds", "0.3", "--max-ram-gb", "0", "--no-write-md"]
    argv += ["--data-dir", str(tmp_path / "sets"), "--json", str(tmp_path / "scale.json")]
    assert scale.main(argv) == 0
    small, large = json.loads((tmp_path / "scale.json").read_text())["results"]
    written = sorted(p.name for p in (tmp_path / "sets").iterdir())
    assert written == [f"susy_like_n{n}_seed0_noise0.5{end}" for n in (20000, 2000) for end in (".npy", "_labels.npy")]
    X = np.load(tmp_path / "sets" / "susy_like_n2000_seed0_noise0.5.npy")
    assert X.dtype == np.float32 and X.shape == (2000, 18)
    assert small["storage"].startswith("disk") and large["write_seconds"] > 0
    assert (large["state_mb"] - small["state_mb"]) * 1e6 / 18000 < 1.0
    assert 0.0 <= large["test_error"] < 0.4 and large["read_ms"] > 0 and large["peak_rss_gb"] > 0
    written_at = (tmp_path / "sets" / "susy_like_n20000_seed0_noise0.5.npy").stat().st_mtime_ns
    assert scale.main(argv) == 0
    again = json.loads((tmp_path / "scale.json").read_text())["results"][1]
    assert again["write_seconds"] == 0.0
    assert (tmp_path / "sets" / "susy_like_n20000_seed0_noise0.5.npy").stat().st_mtime_ns == written_at


@pytest.mark.parametrize("kind", ["npy", "parquet"])
@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_a_float32_file_with_a_value_that_is_not_finite_is_refused_naming_its_row(tmp_path, kind, value):
    X, y = banana(50)
    X = X.astype(np.float32)
    X[17, 1] = value
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "overflow encountered in cast" on the way
        with pytest.raises(DataError, match=r"row 17.*column (1|'x1').*which is NaN or infinite"):
            open_source(write(tmp_path, kind, X, y))
