"""The inference methods a run can use, by name: each builder returns an engine for `training.Trainer`.

All methods share the kernel, the inducing inputs Z, the minibatch size and the random stream, so runs are
comparable (DESIGN §4).
"""
from __future__ import annotations

import numpy as np

from explorer.hyperparameters import Adam
from explorer.kernels import RBF
from explorer.schedules import make_schedule
from explorer.xgpc import XGPC


def build_xgpc(X, y, Z, kernel: RBF, *, batch_size: int, rng: np.random.Generator, step_size: str = "adaptive",
               rho: float = 0.5, tau: float = 1.0, kappa: float = 0.75, learn_hyperparameters: bool = True,
               hyper_learning_rate: float = 0.01, full: bool = False) -> XGPC:
    """X-GPC with the named step-size rule and, when asked, Adam on the kernel's log-parameters."""
    return XGPC(X, y, Z, kernel, batch_size=batch_size, rng=rng, full=full,
                schedule=make_schedule(step_size, rho=rho, tau=tau, kappa=kappa),
                hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None)


METHODS = {"xgpc": build_xgpc}


def build(method: str, X, y, Z, kernel: RBF, **options):
    """Engine for `method` (a key of METHODS) on X (n, d), y (n,) ±1, Z (m, d)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {sorted(METHODS)}")
    return METHODS[method](X, y, Z, kernel, **options)
