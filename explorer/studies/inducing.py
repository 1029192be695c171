"""The inducing-point study's measure (paper Fig. 3): a run's test error read at fixed training times, so runs with
different m are compared at equal training time. `bench inducing` runs the study; `views.inducing_study` draws it."""

from __future__ import annotations

import numpy as np


def value_at(seconds: np.ndarray, values: np.ndarray, t: float) -> float:
    """The trace's value at training time t: its last evaluation at or before t (NaN before the first step)."""
    i = np.searchsorted(seconds, t, side="right") - 1
    return float(values[i]) if i >= 0 and seconds[i] > 0 else float("nan")


def checkpoints(budget: float) -> list[float]:
    """0.1, 0.3, 1, 3, 10, … seconds below the budget."""
    times = [b * 10.0**k for k in range(-1, 6) for b in (1.0, 3.0)]
    return [t for t in times if t < budget]
