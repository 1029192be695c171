"""Test scores over a big test set as Dask tasks (issue 23, `scoring.test_scores(..., client=...)`): on a two-worker
`LocalCluster` the chunks of a source on disk (.npy, Zarr, Parquet) scored in parallel give the serial chunked scores
bit for bit and the metrics on all rows at once; a bad label is named by its file and row as in the serial loop; the
source travels to the workers as its paths, the engine as a snapshot without its training rows; and scoring without a
client does not import Dask."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from test_grid import dask_modules_after
from test_sources import write  # the rows as an .npy pair, a Zarr group or a Parquet table

from explorer import scoring
from explorer.bench import grid
from explorer.data import datasets
from explorer.data.sources import open_source
from explorer.metrics import error_rate, negative_log_likelihood
from explorer.run import Run, streams
from explorer.scaling import ScaledSource
from explorer.sources import SubsetSource
from explorer.validation import DataError

FORMATS = ("npy", "zarr", "parquet")
SETTINGS = {"n_inducing": 10, "batch_size": 50, "seed": 1, "eval_points": 200}
CHUNK = 300  # rows per chunk: the 1,500 test rows below make five chunks


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two single-threaded worker processes (the grid's own), closed after the module."""
    with grid.dask_client(workers=2) as client:
        yield client


@pytest.fixture(autouse=True)
def tasks_of_two_chunks(monkeypatch):
    """Tasks of two chunks (600 rows), so the five chunks make three tasks: [0, 600), [600, 1200), [1200, 1500)."""
    monkeypatch.setattr(scoring, "TASK_ROWS", 2 * CHUNK)


@pytest.fixture(scope="module")
def problem():
    """Training rows (in memory) and 1,500 test rows of a 2-D problem far from standardised units, the test features
    as float32 (what the files below hold)."""
    X, y = datasets.load("banana-like", n=2500, seed=5)
    X = X * [3.0, 0.5] + [1e3, -4.0]
    X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.6, streams(1).split)
    return X_tr, y_tr, X_te.astype(np.float32), y_te


@pytest.fixture(scope="module")
def trained(problem):
    """A run trained for 40 iterations on the training rows (its test rows in memory)."""
    X_tr, y_tr, X_te, y_te = problem
    run = Run(SETTINGS, X_tr, y_tr, X_te, y_te)
    run.trainer.step(40)
    return run


@pytest.mark.parametrize("kind", FORMATS)
def test_the_cluster_scores_a_source_on_disk_as_the_serial_chunks_and_the_metrics_do(
    tmp_path, problem, trained, client, kind
):
    _, _, X_te, y_te = problem
    source = ScaledSource(open_source(write(tmp_path, kind, X_te, y_te)), trained.scaler, "test data")
    serial = scoring.test_scores(trained.engine, source, CHUNK)
    parallel = scoring.test_scores(trained.engine, source, CHUNK, client=client)
    assert parallel == serial  # the same chunk sums, added in the same order
    P = trained.engine.predict_proba(trained.scaler.transform(X_te.astype(float)))  # all rows at once
    assert parallel[0] == pytest.approx(negative_log_likelihood(P, y_te), rel=1e-12)
    assert parallel[1] == pytest.approx(error_rate(P, y_te), abs=1e-12)
    assert 0.0 < parallel[1] < 0.5  # a trained model: the check above compares real scores


@pytest.mark.parametrize("kind", FORMATS)
def test_a_label_the_model_does_not_know_is_named_by_its_file_and_row_on_the_cluster_as_in_the_serial_loop(
    tmp_path, problem, trained, client, kind
):
    _, _, X_te, y_te = problem
    labels = y_te.copy()
    labels[[700, 1234]] = [3, 2]  # in two tasks: the error is the first one's in row order, whichever ends first
    source = ScaledSource(open_source(write(tmp_path, kind, X_te, labels)), trained.scaler, "test data")
    with pytest.raises(DataError) as serial:
        scoring.test_scores(trained.engine, source, CHUNK)
    with pytest.raises(DataError) as parallel:
        scoring.test_scores(trained.engine, source, CHUNK, client=client)
    assert str(parallel.value) == str(serial.value)
    assert f"rows.{kind}" in str(serial.value) or "rows_labels.npy" in str(serial.value)
    assert "row 700 (0-based) holds class 3" in str(serial.value) and "0…1" in str(serial.value)
    subset = SubsetSource(source, np.arange(1000, 1500))  # e.g. the test side of a split: the file's row is named
    with pytest.raises(DataError, match="row 1234 \\(0-based\\) holds class 2"):
        scoring.test_scores(trained.engine, subset, CHUNK, client=client)


def test_the_run_scores_on_a_client_with_progress_as_chunks_finish(trained, client):
    done = []
    parallel = trained.test_scores(CHUNK, client=client, progress=lambda rows, n: done.append((rows, n)))
    assert parallel == trained.test_scores(CHUNK)
    assert [n for _, n in done] == [1500] * 3
    assert [rows for rows, _ in done][:2] in ([600, 1200], [300, 900], [600, 900])  # whichever task ended first
    assert done[-1][0] == 1500
    with pytest.raises(ValueError, match="chunk_rows must be a whole number ≥ 1, got 0"):
        trained.test_scores(0, client=client)


def test_a_file_source_travels_as_its_paths_and_its_layout_not_its_rows(tmp_path):
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((20_000, 18)).astype(np.float32), rng.integers(0, 2, 20_000)
    for kind in FORMATS:
        folder = tmp_path / kind
        folder.mkdir()
        source = open_source(write(folder, kind, X, y))
        message = pickle.dumps(source)
        assert len(message) < 4096, kind  # the rows would take 1.5 MB
        copy = pickle.loads(message)
        rows = np.sort(rng.choice(20_000, 100, replace=False))
        for got, expected in zip(copy.batch(rows), source.batch(rows)):
            np.testing.assert_array_equal(got, expected)
        del copy  # a Parquet source's copy reads the original's cache and leaves it in place
        np.testing.assert_array_equal(source.batch(rows)[0], X[rows])
    message = pickle.dumps(open_source(tmp_path / "npy" / "rows.npy"))
    np.save(tmp_path / "npy" / "rows.npy", X[:100])  # the file replaced after the source was opened
    with pytest.raises(DataError, match="rows.npy: the file has changed since the source was opened"):
        pickle.loads(message)


def test_the_predictive_snapshot_predicts_as_the_engine_without_its_training_rows(problem):
    X_tr, y_tr, X_te, y_te = problem
    sizes = []
    for n in (200, 1000):
        run = Run(SETTINGS, X_tr[:n], y_tr[:n], X_te, y_te)
        run.trainer.step(10)
        snapshot = pickle.loads(pickle.dumps(scoring.predictive_snapshot(run.engine)))
        Xs = run.scaler.transform(X_te.astype(float))
        np.testing.assert_array_equal(snapshot.predict_proba(Xs), run.engine.predict_proba(Xs))
        assert (
            run.engine.source.n == n and len(run.engine.source.batch(np.arange(3))[0]) == 3
        )  # the engine keeps its own
        with pytest.raises(RuntimeError, match="holds no training rows"):
            snapshot.source.batch(np.arange(3))
        sizes.append(len(pickle.dumps(scoring.predictive_snapshot(run.engine))))
    assert abs(sizes[1] - sizes[0]) < 200  # 800 more training rows would add 12.8 kB to a copy holding them


def test_scoring_without_a_client_does_not_import_dask(tmp_path, problem):
    _, _, X_te, y_te = problem
    path = write(tmp_path, "npy", X_te, y_te)
    modules, _ = dask_modules_after(
        f"""
        import numpy as np
        from explorer.data.sources import open_source
        from explorer.run import Run
        rng = np.random.default_rng(0)
        X = rng.standard_normal((300, 2))
        run = Run({SETTINGS!r}, X, (X[:, 0] > 0).astype(int), open_source({str(path)!r}), None)
        run.trainer.step(5)
        print(run.test_scores({CHUNK}))
        """
    )
    assert modules == []
