"""Step-size rules ρ_t for the natural-gradient step η ← (1−ρ)η + ρλ̂ (paper: adaptive rule of Ranganath et al. 2013),
and the table of each method's default rule (`DEFAULT_STEP_RULES`).

Every rule has `rate(gradient, squared_norm=None) -> ρ` (gradient = λ̂ − η flattened, shape (p,); its gᵀg may be
passed when the caller has it) and `state_dict()/load_state_dict()`; one that needs a warm start (`Adaptive`) says so
with `needs_warm_start = True` and takes it by `warm_start(samples)`. Rules replace their state arrays and never
write into them, so a caller may keep `state_dict()` as a cheap snapshot to roll back to.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
from scipy.linalg import blas


class Constant:
    """ρ_t = ρ. With ρ = 1 and full batches the step is exact coordinate ascent."""

    def __init__(self, rho: float = 1.0):
        if not 0.0 < rho <= 1.0:
            raise ValueError(f"constant step size must be in (0, 1], got {rho}")
        self.rho = float(rho)

    def rate(self, gradient: np.ndarray, squared_norm: float | None = None) -> float:
        return self.rho

    def state_dict(self) -> dict:
        return {}

    def load_state_dict(self, state: dict) -> None:
        pass


class RobbinsMonro:
    """ρ_t = (t + τ)^(−κ), κ ∈ (0.5, 1], τ ≥ 1 (t counts calls from 1)."""

    def __init__(self, tau: float = 1.0, kappa: float = 0.75):
        if tau < 1.0:
            raise ValueError(f"Robbins–Monro delay tau must be ≥ 1, got {tau}")
        if not 0.5 < kappa <= 1.0:
            raise ValueError(f"Robbins–Monro forgetting rate kappa must be in (0.5, 1], got {kappa}")
        self.tau, self.kappa, self.t = float(tau), float(kappa), 0

    def rate(self, gradient: np.ndarray, squared_norm: float | None = None) -> float:
        self.t += 1
        return float((self.t + self.tau) ** (-self.kappa))

    def state_dict(self) -> dict:
        return {"t": self.t}

    def load_state_dict(self, state: dict) -> None:
        self.t = int(state["t"])


class Adaptive:
    """Ranganath et al. (2013): ḡ ← (1−1/τ)ḡ + g/τ; h̄ ← (1−1/τ)h̄ + gᵀg/τ; ρ = ḡᵀḡ/h̄; τ ← τ(1−ρ) + 1.

    Warm start: ḡ, h̄ are the mean of g and of gᵀg over `warm_start_batches` minibatches at the initial q, τ starts at
    that count. `warm_start_on="gradient"` (default) averages g = λ̂ − η; "target" averages λ̂ itself, as the authors'
    2018 code did, which makes the first step close to a full coordinate-ascent step. ρ is clipped to
    [rho_min, rho_max] with rho_max < 1, since ρ = 1, τ = 1 is absorbing.
    """

    needs_warm_start = True

    def __init__(
        self,
        warm_start_batches: int = 10,
        warm_start_on: str = "gradient",
        rho_max: float = 0.99,
        rho_min: float = 1e-6,
    ):
        if warm_start_batches < 1:
            raise ValueError(f"warm_start_batches must be ≥ 1, got {warm_start_batches}")
        if warm_start_on not in ("gradient", "target"):
            raise ValueError(f"warm_start_on must be 'gradient' or 'target', got {warm_start_on!r}")
        if not 0.0 < rho_min < rho_max < 1.0:
            raise ValueError(f"need 0 < rho_min < rho_max < 1, got {rho_min}, {rho_max}")
        self.warm_start_batches, self.warm_start_on = int(warm_start_batches), warm_start_on
        self.rho_max, self.rho_min = float(rho_max), float(rho_min)
        self.g_bar: np.ndarray | None = None
        self.h_bar = 0.0
        self.tau = float(warm_start_batches)

    def warm_start(self, samples: list[np.ndarray]) -> None:
        """Initialise ḡ, h̄ from the warm-start samples (each (p,)); τ = number of samples."""
        stack = np.stack(samples)
        self.g_bar = stack.mean(0)
        self.h_bar = float(np.mean(np.einsum("ij,ij->i", stack, stack)))
        self.tau = float(len(samples))

    def rate(self, gradient: np.ndarray, squared_norm: float | None = None) -> float:
        if self.g_bar is None:
            raise RuntimeError("Adaptive step size used before warm_start")
        if squared_norm is None:
            squared_norm = float(gradient @ gradient)
        w = 1.0 / self.tau
        self.g_bar = blas.daxpy(gradient, (1.0 - w) * self.g_bar, a=w)  # (1 − w)ḡ + w g in one pass
        self.h_bar = (1.0 - w) * self.h_bar + w * squared_norm
        rho = float(self.g_bar @ self.g_bar) / self.h_bar if self.h_bar > 0 else self.rho_max
        rho = min(max(rho, self.rho_min), self.rho_max)
        self.tau = self.tau * (1.0 - rho) + 1.0
        return rho

    def state_dict(self) -> dict:
        return {"g_bar": self.g_bar, "h_bar": self.h_bar, "tau": self.tau}

    def load_state_dict(self, state: dict) -> None:
        self.g_bar = None if state["g_bar"] is None else np.asarray(state["g_bar"], dtype=float)
        self.h_bar, self.tau = float(state["h_bar"]), float(state["tau"])


@dataclass(frozen=True)
class StepRule:
    """A method's default step-size rule by name and the parameters each rule takes when it is chosen without them:
    ρ (constant), τ and κ (Robbins–Monro)."""

    rule: str
    rho: float
    tau: float
    kappa: float


# The one table of step-size defaults, chosen by `python -m explorer bench steps` (BENCHMARKS.md). X-GPC: Robbins–Monro
# τ = 10, κ = 0.6, ahead of the paper's adaptive rule, whose ρ falls to ~1e-4 while X-GPC's coordinate-ascent steps
# are still far from the optimum. Natural-gradient SVGP: the adaptive rule (its step is not coordinate ascent, so a
# constant ρ must be small). SVGP-Adam has no natural-gradient step. EPGPC: the stochastic-EP step ε on its tied site
# (`explorer.epgpc`), X-GPC's rule; a named rule's constant ρ is its per-point damping (default 0.5).
DEFAULT_STEP_RULES = {
    "xgpc": StepRule("robbins-monro", rho=0.5, tau=10.0, kappa=0.6),
    "svgp-natgrad": StepRule("adaptive", rho=0.01, tau=1.0, kappa=0.75),
    "epgpc": StepRule("robbins-monro", rho=0.5, tau=10.0, kappa=0.6),
}


def schedule_for(
    method: str,
    step_size=None,
    *,
    rho: float | None = None,
    tau: float | None = None,
    kappa: float | None = None,
    warm_start_on: str = "gradient",
):
    """The step-size rule of `method` (a key of DEFAULT_STEP_RULES): `step_size` None gives the method's default rule;
    a name ('adaptive', 'robbins-monro', 'constant') that rule, with ρ, τ, κ as given or else from the method's row;
    a rule object (anything with `rate`) a deep copy of it, so the caller's object is never advanced."""
    if step_size is not None and not isinstance(step_size, str):
        if not hasattr(step_size, "rate"):
            raise ValueError(f"step_size must be a rule name or a step-size rule object, got {step_size!r}")
        return copy.deepcopy(step_size)
    default = DEFAULT_STEP_RULES[method]
    rule = default.rule if step_size is None else step_size
    if rule == "adaptive":
        return Adaptive(warm_start_on=warm_start_on)
    if rule == "robbins-monro":
        return RobbinsMonro(default.tau if tau is None else tau, default.kappa if kappa is None else kappa)
    if rule == "constant":
        return Constant(default.rho if rho is None else rho)
    raise ValueError(f"unknown step-size rule {rule!r}; choose 'adaptive', 'robbins-monro' or 'constant'")
