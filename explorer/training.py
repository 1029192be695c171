"""The one training loop every caller drives (`Trainer`: Model, XGPClassifier, benchmarks, dashboard) and the one
full-batch fit to the optimum (`fit_to_optimum`); the test scores over a test set of any size are `scoring`'s.

An engine (`explorer.engine.SVIEngine`: `XGPC`, an SVGP baseline) offers: `step(k)`, `iteration`, `rho`, `kernel`,
`n`, `mu`, `converged` (global-parameter criterion), `elbo(index=None)`, `predict_proba(X)` ((n*, K) class
probabilities), `state_dict()`, `load_state_dict(state)`. Evaluation labels are class indices 0…K−1.
"""

from __future__ import annotations

import csv
import io
import math
import time
from collections import deque
from dataclasses import dataclass

import numpy as np

from explorer.convergence import NoImprovement, SlidingWindow
from explorer.inputs import class_indices
from explorer.linalg import NumericalError
from explorer.metrics import error_rate, negative_log_likelihood

COLUMNS = ("iteration", "seconds", "elbo", "test_nll", "test_error", "rho", "lengthscale", "variance")
"""The columns of every row. "lengthscale" (the geometric mean under ARD) and "variance" come from the kernel's
`summary()`, whose further entries (e.g. the ARD lengthscales "lengthscale_1" …) become extra columns."""
CONVERGENCE_RULES = ("parameters", "holdout", "no-improvement", "none")


def kernel_steps_to_move(engine) -> int:
    """The kernel steps (Adam's) early stopping waits for: ⌈1/rate⌉ with Adam's learning rate, the fewest in which
    Adam — which moves each log-parameter by at most about its rate per step — can change ℓ or σ² by a factor e
    (0 with kernel learning off), so that a fit does not stop at its initial kernel."""
    adam = engine.hyper_optimizer
    return 0 if adam is None else math.ceil(1.0 / adam.learning_rate)


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
            history.rows.append({name: (int if name == "iteration" else float)(columns[name][i]) for name in columns})
        history.total = int(state["total"])
        return history


class Trainer:
    """Runs an engine with evaluation on (X_eval (n_eval, d), y_eval (n_eval,) class indices) every `eval_every`
    iterations: test NLL and error from the engine's (n_eval, K) class probabilities (`predict_proba`, `metrics`).

    `seconds` counts only time inside `engine.step`; `eval_seconds` the wall time spent evaluating and `evaluations`
    their number (`evaluation_share` the share of the two times that went to evaluations). The ELBO column is the
    full training ELBO when n ≤ `elbo_points`, otherwise the unbiased estimate on a fixed random subset of that many.
    Convergence: "parameters" (paper's X-GPC rule on η), "holdout" (paper's rule for all methods: window-5 mean
    relative change of the hold-out NLL < 1e-3), "no-improvement" (scikit-learn's early stopping on the hold-out NLL:
    `no_improvement`, a `convergence.NoImprovement`, by default 5 evaluations without beating the best by 1e-4; it
    fires only once kernel learning, if on, has had `kernel_steps_to_move` steps) or "none".
    `eval_share` (None: evaluate at every multiple of `eval_every`) bounds the live evaluation's cost where it would
    dominate (a large test set against a cheap iteration, as on the paper's big sets): an evaluation at a multiple of
    `eval_every` is skipped until the run has trained (`seconds`) for at least that one's cost × (1/share − 1) since
    it, so evaluation takes at most about `eval_share` of the run's time (its training plus its evaluations; time
    the run waits between its steps, e.g. for its turn on a shared server, is neither); every row is still exact for
    its iteration. Its timing depends on the machine, so benchmarks and fits leave it off; the dashboard's Play turns
    it on.

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
    rng : numpy.random.Generator, optional
        Draws the ELBO subset (default: a fresh `default_rng(0)`).
    no_improvement : convergence.NoImprovement, optional
        The "no-improvement" rule's patience and tolerance.

    Examples
    --------
    >>> from explorer.data.datasets import load
    >>> from explorer import XGPC, kernels
    >>> X, y = load("xor", n=200, seed=0)
    >>> engine = XGPC(X, y, X[:20], kernels.RBF(1.0), batch_size=50, rng=np.random.default_rng(0))
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
        self.history = History()
        self.holdout = SlidingWindow(5, 1e-3)  # the paper's rule for all methods (above)
        self.no_improvement = no_improvement if no_improvement is not None else NoImprovement()
        self.seconds = 0.0
        self.eval_share: float | None = None
        self.eval_seconds = 0.0  # wall time spent in `evaluate`
        self.evaluations = 0  # calls of `evaluate`
        self._last_evaluation = (0.0, 0.0)  # (training `seconds` at the last evaluation, what it cost in seconds)
        rng = rng if rng is not None else np.random.default_rng(0)
        self.elbo_index = None if engine.n <= elbo_points else np.sort(rng.choice(engine.n, elbo_points, replace=False))

    @property
    def converged(self) -> bool:
        if self.convergence == "parameters":
            return bool(self.engine.converged)
        if self.convergence == "holdout":
            return self.holdout.converged
        if self.convergence == "no-improvement":
            adam = self.engine.hyper_optimizer
            return self.no_improvement.converged and (adam is None or adam.t >= kernel_steps_to_move(self.engine))
        return False

    @property
    def evaluation_share(self) -> float:
        """The share of training plus evaluation time that went to evaluations (NaN before either)."""
        total = self.seconds + self.eval_seconds
        return self.eval_seconds / total if total > 0 else float("nan")

    def evaluate(self) -> dict:
        """Append and return one history row at the engine's current state."""
        start = time.perf_counter()
        engine = self.engine
        row = {
            "iteration": int(engine.iteration),
            "seconds": self.seconds,
            "elbo": float(engine.elbo(self.elbo_index)),
            "rho": float(engine.rho),
            **engine.kernel.summary(),
        }
        row["test_nll"] = row["test_error"] = float("nan")
        if len(self.y_eval):
            P = engine.predict_proba(self.X_eval)
            row["test_nll"], row["test_error"] = negative_log_likelihood(P, self.y_eval), error_rate(P, self.y_eval)
            self.no_improvement.update(row["test_nll"])
            holdout_evaluated = getattr(engine, "holdout_evaluated", None)  # an engine's brake on its kernel
            if holdout_evaluated is not None:
                holdout_evaluated(row["test_nll"])
        previous = self.history.rows[-1]["test_nll"] if len(self.history) else None
        if previous is not None and np.isfinite(previous) and np.isfinite(row["test_nll"]):
            self.holdout.update(abs(row["test_nll"] - previous) / max(abs(previous), 1e-12))
        self.history.append(row)
        end = time.perf_counter()
        self.eval_seconds += end - start
        self.evaluations += 1
        self._last_evaluation = (self.seconds, end - start)
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
        """Whether an evaluation at a multiple of `eval_every` keeps within `eval_share` of the run's time."""
        if self.eval_share is None:
            return True
        trained, cost = self._last_evaluation
        return self.seconds - trained >= cost * (1.0 / self.eval_share - 1.0)

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
        while not (
            (max_iter is not None and self.engine.iteration >= max_iter)
            or (deadline is not None and self.seconds >= deadline)
            or (stop_at_convergence and self.converged)
        ):
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
