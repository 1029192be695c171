"""The one training loop every caller drives (Model, XGPClassifier, benchmarks, dashboard): step an engine, keep
training time apart from evaluation time, evaluate every `eval_every` iterations into a bounded `History`, and apply
the paper's convergence criteria; the one full-batch fit to the optimum (`fit_to_optimum`); and the test scores over
a test set of any size (`test_scores`: chunk by chunk here, or as parallel tasks on a Dask cluster).

An engine (`explorer.engine.SVIEngine`: `XGPC`, an SVGP baseline) offers: `step(k)`, `iteration`, `rho`, `kernel`,
`n`, `mu`, `converged` (global-parameter criterion), `elbo(index=None)`, `predict_proba(X)` ((n*, K) class
probabilities), `state_dict()`, `load_state_dict(state)`. Evaluation labels are class indices 0…K−1.
"""

from __future__ import annotations

import copy
import csv
import io
import time
import uuid
from collections import deque
from dataclasses import dataclass

import numpy as np

from explorer.convergence import NoImprovement, holdout_nll_criterion, no_improvement_criterion
from explorer.dask_worker import run_pinned
from explorer.data.sources import CHUNK_ROWS, DataSource
from explorer.inputs import class_indices
from explorer.linalg import NumericalError
from explorer.metrics import error_rate, negative_log_likelihood
from explorer.validation import DataError

COLUMNS = ("iteration", "seconds", "elbo", "test_nll", "test_error", "rho", "lengthscale", "variance")
"""The columns of every row. "lengthscale" (the geometric mean under ARD) and "variance" come from the kernel's
`summary()`, whose further entries (e.g. the ARD lengthscales "lengthscale_1" …) become extra columns."""
CONVERGENCE_RULES = ("parameters", "holdout", "no-improvement", "none")
TASK_ROWS = 4 * CHUNK_ROWS
"""Test rows a scoring task on a cluster scores, in whole chunks (at least one): `chunk_scores_on_cluster`."""


class History:
    """One row per evaluation (dicts with `COLUMNS` and any extra kernel columns, listed in `columns`), keeping the
    most recent `max_rows`; `total` counts all rows ever added, so a poller that remembers `total` gets exactly the
    new rows from `since`."""

    def __init__(self, max_rows: int = 100_000):
        self.rows: deque[dict] = deque(maxlen=max_rows)
        self.columns = list(COLUMNS)
        self.total = 0

    def append(self, row: dict) -> None:
        self.columns.extend(name for name in row if name not in self.columns)
        self.rows.append(row)
        self.total += 1

    def __len__(self) -> int:
        return len(self.rows)

    def since(self, count: int) -> list[dict]:
        """Rows added after the first `count` ever added (as many as are still kept)."""
        new = min(self.total - count, len(self.rows))
        return list(self.rows)[len(self.rows) - new :] if new > 0 else []

    def column(self, name: str) -> np.ndarray:
        """The values of `name` in the kept rows (NaN in a row without it)."""
        return np.array([row.get(name, np.nan) for row in self.rows], dtype=float)

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=self.columns, restval="nan", lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        return buffer.getvalue()

    def state_dict(self) -> dict:
        return {
            "columns": {name: self.column(name) for name in self.columns},
            "total": self.total,
            "max_rows": self.rows.maxlen,
        }

    @classmethod
    def from_state_dict(cls, state: dict) -> "History":
        history = cls(int(state["max_rows"]))
        columns = state["columns"]
        history.columns = list(COLUMNS) + [name for name in columns if name not in COLUMNS]
        for i in range(len(columns["iteration"])):
            history.rows.append({name: _plain(name, columns[name][i]) for name in columns})
        history.total = int(state["total"])
        return history


def _plain(name: str, value) -> int | float:
    return int(value) if name == "iteration" else float(value)


class Trainer:
    """Runs an engine with evaluation on (X_eval (n_eval, d), y_eval (n_eval,) class indices) every `eval_every`
    iterations: test NLL and error from the engine's (n_eval, K) class probabilities (`metrics`).

    `seconds` counts only time inside `engine.step`. The ELBO column is the full training ELBO when n ≤ `elbo_points`,
    otherwise the unbiased estimate on a fixed random subset of `elbo_points` training rows.
    Convergence: "parameters" (paper's X-GPC rule on η), "holdout" (paper's rule for all methods: window-5 mean
    relative change of the hold-out NLL < 1e-3), "no-improvement" (scikit-learn's early stopping on the hold-out NLL:
    `no_improvement`, a `convergence.NoImprovement`, by default 5 evaluations without beating the best by 1e-4) or
    "none".
    `eval_share` (None: evaluate at every multiple of `eval_every`) bounds the live evaluation's cost where it would
    dominate (a large test set against a cheap iteration, as on the paper's big sets): an evaluation at a multiple of
    `eval_every` is skipped until the wall time since the previous one ended is at least that one's cost × (1/share −
    1), so evaluation takes at most about `eval_share` of the wall time; every row is still exact for its iteration.
    Its timing depends on the machine, so benchmarks and fits leave it off; the dashboard's Play turns it on.

    Parameters
    ----------
    engine : explorer.engine.SVIEngine
        The method's training state (X-GPC, an SVGP, EPGPC).
    X_eval : ndarray of shape (n_eval, d)
        Rows the history is evaluated on, in the engine's (standardised) units.
    y_eval : ndarray of shape (n_eval,)
        Their class indices 0…K−1.
    eval_every : int, default 10
        Iterations between evaluations (history rows).
    convergence : {"parameters", "holdout", "no-improvement", "none"}, default "parameters"
        The convergence rule (above).
    elbo_points : int, default 10000
        Most training rows of the ELBO column.
    max_history : int, default 100000
        History rows kept (older ones are dropped; `History.total` counts all).
    rng : numpy.random.Generator, optional
        Draws the ELBO subset (default: a fresh `default_rng(0)`).
    no_improvement : convergence.NoImprovement, optional
        The "no-improvement" rule's patience and tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> from explorer.xgpc import XGPC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((200, 2))
    >>> y = (X[:, 0] * X[:, 1] > 0).astype(int)
    >>> engine = XGPC(X, y, X[:20], RBF(1.0), batch_size=50, rng=rng)
    >>> trainer = Trainer(engine, X, y, eval_every=25)
    >>> trainer.step(100)  # rows at iterations 0, 25, 50, 75, 100
    5
    >>> sorted(trainer.history.rows[-1])[:4]
    ['elbo', 'iteration', 'lengthscale', 'rho']
    """

    def __init__(
        self,
        engine,
        X_eval: np.ndarray,
        y_eval: np.ndarray,
        *,
        eval_every: int = 10,
        convergence: str = "parameters",
        elbo_points: int = 10_000,
        max_history: int = 100_000,
        rng: np.random.Generator | None = None,
        no_improvement: NoImprovement | None = None,
    ):
        if eval_every < 1:
            raise ValueError(f"eval_every must be ≥ 1, got {eval_every}")
        if convergence not in CONVERGENCE_RULES:
            raise ValueError(f"convergence must be one of {CONVERGENCE_RULES}, got {convergence!r}")
        self.engine = engine
        self.X_eval, self.y_eval = np.asarray(X_eval, dtype=float), class_indices(np.asarray(y_eval).ravel(), "y_eval")
        self.eval_every, self.convergence = int(eval_every), convergence
        self.history = History(max_history)
        self.holdout = holdout_nll_criterion()
        self.no_improvement = no_improvement if no_improvement is not None else no_improvement_criterion()
        self.seconds = 0.0
        self.eval_share: float | None = None
        self.eval_seconds = 0.0  # wall time spent in `evaluate`
        self._last_evaluation = (0.0, 0.0)  # (when the last evaluation ended, what it cost), perf_counter seconds
        rng = rng if rng is not None else np.random.default_rng(0)
        self.elbo_index = None if engine.n <= elbo_points else np.sort(rng.choice(engine.n, elbo_points, replace=False))

    @property
    def converged(self) -> bool:
        if self.convergence == "parameters":
            return bool(self.engine.converged)
        if self.convergence == "holdout":
            return self.holdout.converged
        if self.convergence == "no-improvement":
            return self.no_improvement.converged
        return False

    def evaluate(self) -> dict:
        """Append and return one history row at the engine's current state."""
        start = time.perf_counter()
        row = self._evaluate()
        end = time.perf_counter()
        self.eval_seconds += end - start
        self._last_evaluation = (end, end - start)
        return row

    def evaluate_skipped(self) -> bool:
        """Evaluate the current state if `eval_share` skipped the evaluation at the last multiple of `eval_every`
        (e.g. when Play pauses: the state one looks at then is evaluated exactly). Returns whether it evaluated."""
        last = self.history.rows[-1]["iteration"] if len(self.history) else -1
        if last >= self.engine.iteration - self.engine.iteration % self.eval_every:
            return False
        self.evaluate()
        return True

    def _evaluation_due(self) -> bool:
        """Whether an evaluation at a multiple of `eval_every` keeps within `eval_share` of the wall time."""
        if self.eval_share is None:
            return True
        ended, cost = self._last_evaluation
        return time.perf_counter() - ended >= cost * (1.0 / self.eval_share - 1.0)

    def _evaluate(self) -> dict:
        engine = self.engine
        row = {
            "iteration": int(engine.iteration),
            "seconds": self.seconds,
            "elbo": float(engine.elbo(self.elbo_index)),
            "rho": float(engine.rho),
            **engine.kernel.summary(),
        }
        if len(self.y_eval):
            P = engine.predict_proba(self.X_eval)
            row["test_nll"] = negative_log_likelihood(P, self.y_eval)
            row["test_error"] = error_rate(P, self.y_eval)
        else:
            row["test_nll"] = row["test_error"] = float("nan")
        previous = self.history.rows[-1]["test_nll"] if len(self.history) else None
        if previous is not None and np.isfinite(previous) and np.isfinite(row["test_nll"]):
            self.holdout.update(abs(row["test_nll"] - previous) / max(abs(previous), 1e-12))
        if len(self.y_eval):
            self.no_improvement.update(row["test_nll"])
        self.history.append(row)
        return row

    def step(self, k: int = 1) -> int:
        """Advance k iterations, evaluating at every multiple of `eval_every` (under `eval_share`: those that keep
        within it) and at iteration 0 if nothing was evaluated yet. Returns the number of new history rows."""
        before = self.history.total
        if self.history.total == 0:
            self.evaluate()
        remaining = int(k)
        while remaining > 0:
            to_next = self.eval_every - self.engine.iteration % self.eval_every
            chunk = min(remaining, to_next)
            start = time.perf_counter()
            try:
                self.engine.step(chunk)
            finally:
                self.seconds += time.perf_counter() - start
            remaining -= chunk
            if self.engine.iteration % self.eval_every == 0 and self._evaluation_due():
                self.evaluate()
        return self.history.total - before

    def run(
        self, seconds: float | None = None, max_iter: int | None = None, stop_at_convergence: bool = True, progress=None
    ) -> int:
        """Step until `seconds` of training time have passed, `max_iter` total iterations, or convergence
        (when `stop_at_convergence`). `progress(trainer)` is called after every evaluation chunk. Returns new rows."""
        if seconds is None and max_iter is None and (not stop_at_convergence or self.convergence == "none"):
            raise ValueError("run needs a time budget, an iteration limit, or a convergence rule to stop")
        before = self.history.total
        deadline = None if seconds is None else self.seconds + seconds
        while True:
            if max_iter is not None and self.engine.iteration >= max_iter:
                break
            if deadline is not None and self.seconds >= deadline:
                break
            if stop_at_convergence and self.converged:
                break
            chunk = self.eval_every - self.engine.iteration % self.eval_every
            if max_iter is not None:
                chunk = min(chunk, max_iter - self.engine.iteration)
            self.step(chunk)
            if progress is not None:
                progress(self)
        return self.history.total - before

    def state_dict(self) -> dict:
        return {
            "seconds": self.seconds,
            "history": self.history.state_dict(),
            "holdout": self.holdout.state_dict(),
            "no_improvement": self.no_improvement.state_dict(),
            "elbo_index": self.elbo_index,
        }

    def load_state_dict(self, state: dict) -> None:
        self.seconds = float(state["seconds"])
        self.history = History.from_state_dict(state["history"])
        self.holdout.load_state_dict(state["holdout"])
        if "no_improvement" in state:  # states saved before the rule existed start it afresh
            self.no_improvement.load_state_dict(state["no_improvement"])
        self.elbo_index = None if state["elbo_index"] is None else np.asarray(state["elbo_index"], dtype=int)


@dataclass
class Fit:
    """What `fit_to_optimum` did: total sweeps of the engine, seconds, whether the stopping rule held, and the
    NumericalError that ended it (the engine then stays at its last good state), if any."""

    sweeps: int
    seconds: float
    converged: bool
    error: NumericalError | None = None


def fit_to_optimum(engine, *, tolerance: float = 1e-10, max_sweeps: int = 500) -> Fit:
    """Step a full-batch engine (batch_size = n; for X-GPC with `Constant(1.0)` this is exact coordinate ascent) until
    one sweep moves the posterior mean by max|Δμ| ≤ tolerance·(1 + max|μ|), the engine has done `max_sweeps` sweeps
    in all, or a step fails with a NumericalError (e.g. a diverging natural-gradient step). Resumable: call again
    with a larger `max_sweeps` to continue."""
    start = time.perf_counter()
    converged, error = False, None
    try:
        while engine.iteration < max_sweeps:
            previous = engine.mu.copy()
            engine.step(1)
            mu = engine.mu
            if np.max(np.abs(mu - previous)) <= tolerance * (1.0 + np.max(np.abs(mu))):
                converged = True
                break
    except NumericalError as err:
        error = err
    return Fit(int(engine.iteration), time.perf_counter() - start, converged, error)


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
    source : explorer.data.sources.DataSource
        The test rows in the engine's (standardised) units (e.g. a `ScaledSource`), labels class indices 0…K−1.
    chunk_rows : int, default `sources.CHUNK_ROWS`
        Rows read and predicted at a time (the memory the scoring takes, on a cluster per worker thread).
    client : distributed.Client, optional
        Score on this client's cluster; default here, chunk after chunk (Dask is not imported).
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
    DataError
        A label beyond the engine's classes, naming its file and row (`chunk_scores`); and what reading the source
        raises.
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a whole number ≥ 1, got {chunk_rows!r}")
    blocks = [(start, min(start + chunk_rows, source.n)) for start in range(0, source.n, chunk_rows)]
    if client is not None:
        sums = chunk_scores_on_cluster(client, engine, source, blocks, progress)
    else:
        sums = []
        for start, stop in blocks:
            sums.append(chunk_scores(engine, source, start, stop))
            if progress is not None:
                progress(stop, source.n)
    total_nll = total_errors = 0.0
    for nll, errors in sums:
        total_nll += nll
        total_errors += errors
    return total_nll / source.n, total_errors / source.n


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
    consecutive blocks of about `TASK_ROWS` rows in all (about 0.5 s of work with m = 100), so that its fixed cost
    (the round trip to the scheduler and pinning BLAS: 15 ms one at a time on this 2-core machine) stays small beside
    its work, while the tasks stay many enough to keep every worker busy to the end. `progress(rows_done, n)` is
    called as tasks finish. A failed task's error is raised as the serial loop would raise it: that of the first
    failing block in row order, once every block before it has been scored (the tasks after it are cancelled)."""
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
