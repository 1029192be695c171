"""Convergence criteria: the paper's (§Experiments; sliding-window means of relative changes below a threshold) and
scikit-learn's early-stopping rule (no improvement of a loss by `tol` for `n_iter_no_change` evaluations)."""

from __future__ import annotations

from collections import deque

import numpy as np


class SlidingWindow:
    """Converged when the mean of the last `window` relative changes is below `threshold`."""

    def __init__(self, window: int, threshold: float):
        if window < 1 or threshold <= 0:
            raise ValueError(f"need window ≥ 1 and threshold > 0, got {window}, {threshold}")
        self.window, self.threshold = int(window), float(threshold)
        self.changes: deque[float] = deque(maxlen=self.window)

    def update(self, change: float) -> bool:
        self.changes.append(float(change))
        return self.converged

    @property
    def converged(self) -> bool:
        return len(self.changes) == self.window and sum(self.changes) / self.window < self.threshold

    def state_dict(self) -> dict:
        return {"changes": list(self.changes)}

    def load_state_dict(self, state: dict) -> None:
        self.changes = deque(state["changes"], maxlen=self.window)


def relative_change(old: np.ndarray, new: np.ndarray) -> float:
    """‖new − old‖ / max(‖old‖, 1e-12)."""
    return float(np.linalg.norm(new - old) / max(np.linalg.norm(old), 1e-12))


def global_parameter_criterion(window: int = 10, threshold: float = 1e-4) -> SlidingWindow:
    """Paper's X-GPC rule: sliding-window mean of the relative change of the global parameters (η₁, η₂) < 1e-4."""
    return SlidingWindow(window, threshold)


class NoImprovement:
    """scikit-learn's early-stopping rule (as in SGDClassifier): a count of consecutive evaluations whose loss L_k did
    not beat the best earlier loss by more than `tol`, L_k ≥ min_{j<k} L_j − tol; converged when it reaches
    `n_iter_no_change`. A NaN loss is no improvement. On the hold-out NLL, `tol` is in nats per point."""

    def __init__(self, n_iter_no_change: int = 5, tol: float = 1e-4):
        if n_iter_no_change < 1 or not tol >= 0:
            raise ValueError(f"need n_iter_no_change ≥ 1 and tol ≥ 0, got {n_iter_no_change}, {tol}")
        self.n_iter_no_change, self.tol = int(n_iter_no_change), float(tol)
        self.best = float("inf")
        self.count = 0

    def update(self, loss: float) -> bool:
        loss = float(loss)
        if loss < self.best - self.tol:
            self.count = 0
        else:
            self.count += 1
        self.best = min(self.best, loss)  # a NaN never becomes the best
        return self.converged

    @property
    def converged(self) -> bool:
        return self.count >= self.n_iter_no_change

    def state_dict(self) -> dict:
        return {"best": self.best, "count": self.count}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.count = float(state["best"]), int(state["count"])
