"""The test scores of a trained engine over a test set of any size: test NLL and error read and predicted chunk by
chunk (`test_scores`), in this process or as parallel tasks on a Dask cluster (`chunk_scores_on_cluster`), with the
same numbers either way. Nothing here imports Dask unless a client is given.
"""

from __future__ import annotations

import copy
import uuid

import numpy as np

from explorer.dask_scheduler import open_client
from explorer.dask_worker import run_pinned
from explorer.metrics import error_rate, negative_log_likelihood
from explorer.sources import CHUNK_ROWS, DataSource
from explorer.validation import DataError

TASK_ROWS = 4 * CHUNK_ROWS
"""Test rows a scoring task on a cluster scores, in whole chunks (at least one): `chunk_scores_on_cluster`."""


def test_scores(
    engine, source: DataSource, chunk_rows: int = CHUNK_ROWS, *, client=None, progress=None
) -> tuple[float, float]:
    """Test NLL (nats per row) and error rate of the engine's class probabilities over every row of `source`, read
    and predicted `chunk_rows` rows at a time, so a test set of any size takes the memory of one chunk: the sums of
    −log p(y_i) and of the errors over the chunks (`chunk_scores`), added in row order and divided by n (equal to
    `metrics` on all rows at once up to rounding).

    With a Dask `client` the chunks are scored in parallel as tasks on its cluster, `TASK_ROWS` rows a task
    (`chunk_scores_on_cluster`); the numbers are the serial ones, bit for bit (the same sums added in the same
    order), and so are the errors.

    Parameters
    ----------
    engine : explorer.engine.SVIEngine
        The trained method.
    source : explorer.sources.DataSource
        The test rows in the engine's (standardised) units (e.g. a `ScaledSource`), labels class indices 0…K−1.
    chunk_rows : int, default `sources.CHUNK_ROWS`
        Rows read and predicted at a time (the memory the scoring takes, on a cluster per worker thread).
    client : distributed.Client, optional
        Score on this client's cluster (an open client: a scheduler's address is refused with a TypeError saying to
        connect first, `distributed.Client(address)`, which the caller then closes when done; a closed client with
        a ValueError); default here, chunk after chunk (Dask is not imported).
    progress : callable, optional
        `progress(rows_done, n)` after each chunk (on a cluster: after each task, in the order they finish).

    Returns
    -------
    nll : float
        Mean −log p(y_i) over the n rows.
    error : float
        Fraction of the n rows whose most probable class is not y_i.

    Raises
    ------
    TypeError, ValueError
        `client` is not a distributed.Client, or is closed.
    DataError
        A label beyond the engine's classes, naming its file and row (`chunk_scores`); and what reading the source
        raises.
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a whole number ≥ 1, got {chunk_rows!r}")
    if client is not None:
        open_client(client)
    blocks = [(start, min(start + chunk_rows, source.n)) for start in range(0, source.n, chunk_rows)]
    if client is not None:
        sums = chunk_scores_on_cluster(client, engine, source, blocks, progress)
    else:
        sums = []
        for start, stop in blocks:
            sums.append(chunk_scores(engine, source, start, stop))
            if progress is not None:
                progress(stop, source.n)
    return sum(nll for nll, _ in sums) / source.n, sum(errors for _, errors in sums) / source.n  # in row order


def chunk_scores(engine, source: DataSource, start: int, stop: int) -> tuple[float, float]:
    """(Σ −log p(y_i), number of errors) of the engine's class probabilities over the rows start…stop − 1 of
    `source`; DataError naming the file and row of the first label beyond the engine's K classes."""
    X_b, y_b = source.batch(np.arange(start, stop))
    beyond = np.flatnonzero(y_b >= engine.n_classes)
    if len(beyond):
        first = int(beyond[0])
        raise DataError(
            f"{source.label_location(start + first)} holds class {y_b[first]}, but the model knows "
            f"{engine.n_classes} classes (0…{engine.n_classes - 1}): the test rows hold a class the training rows "
            "did not"
        )
    P = engine.predict_proba(X_b)
    return negative_log_likelihood(P, y_b) * len(y_b), error_rate(P, y_b) * len(y_b)


def chunk_scores_on_cluster(
    client, engine, source: DataSource, blocks: list[tuple[int, int]], progress=None
) -> list[tuple[float, float]]:
    """`chunk_scores` of each block (start, stop) of rows, computed as tasks on the Dask `client`'s cluster (BLAS
    pinned to one thread, `dask_worker.run_pinned`), in the order of `blocks`.

    The engine's predictive state (`predictive_snapshot`, a few m × m arrays) and the source are sent to every
    worker once; a task then reads its own rows from the source there (an `NpySource`, `ZarrSource` or `ParquetSource`
    travels as its paths, so the workers must see the same files; an `ArraySource` as its arrays). A task scores
    consecutive blocks of about `TASK_ROWS` rows in all, its fixed cost small beside its work and the tasks many
    enough to keep every worker busy (BENCHMARKS.md, "scale (xgpc, test scores on a Dask cluster)").
    `progress(rows_done, n)` is called as tasks finish. A failed task's error is raised as the serial loop would
    raise it: that of the first failing block in row order, once every block before it has been scored (the tasks
    after it are cancelled)."""
    from distributed import as_completed

    per_task = max(1, TASK_ROWS // max(stop - start for start, stop in blocks))
    groups = [blocks[i : i + per_task] for i in range(0, len(blocks), per_task)]
    snapshot, data = client.scatter([predictive_snapshot(engine), source], broadcast=True, hash=False)
    run = uuid.uuid4().hex[:8]
    futures = [
        client.submit(
            run_pinned,
            _blocks_scores,
            (snapshot, data, group),
            key=f"test scores {run} rows {group[0][0]}-{group[-1][1]}",
        )
        for group in groups
    ]
    position = {future: i for i, future in enumerate(futures)}
    sums: list = [None] * len(groups)
    failed: dict[int, BaseException] = {}
    rows_done = 0
    try:
        for future in as_completed(futures):
            i = position[future]
            try:
                sums[i] = future.result()[0]
            except Exception as err:  # a bad chunk (or a task cancelled after it)
                failed[i] = err
                client.cancel(futures[min(failed) + 1 :])
            else:
                rows_done += groups[i][-1][1] - groups[i][0][0]
                if progress is not None:
                    progress(rows_done, source.n)
            if failed and all(part is not None for part in sums[: min(failed)]):
                raise failed[min(failed)]
    finally:
        client.cancel([*futures, snapshot, data])
    return [block for group in sums for block in group]


def _blocks_scores(engine, source: DataSource, blocks: list[tuple[int, int]]) -> list[tuple[float, float]]:
    """`chunk_scores` of each block (start, stop), in order: one task's work."""
    return [chunk_scores(engine, source, start, stop) for start, stop in blocks]


def predictive_snapshot(engine):
    """A copy of `engine` that predicts as it does and holds none of its training rows (its source replaced by one
    of the same shape without rows): what scoring tasks receive. A shallow copy: it shares the engine's arrays,
    which an iteration replaces rather than writes into (`engine`'s rollback contract)."""
    snapshot = copy.copy(engine)
    snapshot.source = _NoRows(engine.source.n, engine.source.d)
    return snapshot


class _NoRows(DataSource):
    """The training source of a `predictive_snapshot`: the shape (n, d) of the engine's, no rows to read."""

    def __init__(self, n: int, d: int):
        self.n, self.d = n, d

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise RuntimeError("a predictive snapshot of an engine holds no training rows; train the engine itself")
