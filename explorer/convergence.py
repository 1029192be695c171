"""The paper's convergence criteria (§Experiments): sliding-window means of relative changes below a threshold."""
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


def holdout_nll_criterion(window: int = 5, threshold: float = 1e-3) -> SlidingWindow:
    """Paper's rule for all methods: window-5 mean of the relative change of the hold-out NLL < 1e-3."""
    return SlidingWindow(window, threshold)
