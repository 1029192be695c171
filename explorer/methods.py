"""The inference methods a run can use, by name: each builder returns an engine for `training.Trainer`.

All methods share the kernel, the inducing inputs Z, the minibatch size and the random stream, so runs are
comparable (DESIGN §4).
"""
from __future__ import annotations

import numpy as np

from explorer.hyperparameters import Adam
from explorer.kernels import RBF
from explorer.schedules import make_schedule
from explorer.svgp import SVGPAdam, SVGPNatGrad
from explorer.xgpc import XGPC


def build_xgpc(X, y, Z, kernel: RBF, *, batch_size: int, rng: np.random.Generator,
               step_size: str = "robbins-monro", rho: float = 0.5, tau: float = 10.0, kappa: float = 0.6,
               warm_start_on: str = "gradient", learn_hyperparameters: bool = True, hyper_learning_rate: float = 0.01,
               full: bool = False) -> XGPC:
    """X-GPC with the named step-size rule (default: `schedules.default_xgpc_schedule`, Robbins–Monro τ = 10,
    κ = 0.6; `warm_start_on` applies to the adaptive rule) and, when asked, Adam on the kernel's log-parameters."""
    return XGPC(X, y, Z, kernel, batch_size=batch_size, rng=rng, full=full,
                schedule=make_schedule(step_size, rho=rho, tau=tau, kappa=kappa, warm_start_on=warm_start_on),
                hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None)


def build_svgp_adam(X, y, Z, kernel: RBF, *, batch_size: int, rng: np.random.Generator, step_size: str | None = None,
                    rho: float | None = None, tau: float | None = None, kappa: float | None = None,
                    learn_hyperparameters: bool = True, hyper_learning_rate: float = 0.01,
                    learning_rate: float = 0.01) -> SVGPAdam:
    """Non-augmented SVGP trained by Adam (`learning_rate`) on the whitened mean and Cholesky factor. X-GPC's
    step-size options (step_size, rho, tau, kappa) do not apply to Adam and are ignored."""
    return SVGPAdam(X, y, Z, kernel, batch_size=batch_size, rng=rng, learning_rate=learning_rate,
                    hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None)


def build_svgp_natgrad(X, y, Z, kernel: RBF, *, batch_size: int, rng: np.random.Generator,
                       step_size: str = "adaptive", rho: float = 0.01, tau: float = 1.0, kappa: float = 0.75,
                       learn_hyperparameters: bool = True, hyper_learning_rate: float = 0.01) -> SVGPNatGrad:
    """Non-augmented SVGP trained by natural-gradient steps from the quadrature expectations, with the named
    step-size rule as for X-GPC. Not coordinate ascent: a constant ρ must be small (0.01 worked, 0.1 diverged)."""
    return SVGPNatGrad(X, y, Z, kernel, batch_size=batch_size, rng=rng,
                       schedule=make_schedule(step_size, rho=rho, tau=tau, kappa=kappa),
                       hyper_optimizer=Adam(hyper_learning_rate) if learn_hyperparameters else None)


METHODS = {"xgpc": build_xgpc, "svgp-adam": build_svgp_adam, "svgp-natgrad": build_svgp_natgrad}


def build(method: str, X, y, Z, kernel: RBF, **options):
    """Engine for `method` (a key of METHODS) on X (n, d), y (n,) ±1, Z (m, d)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {sorted(METHODS)}")
    return METHODS[method](X, y, Z, kernel, **options)
