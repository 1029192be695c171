"""What EP does with one point's likelihood, as a HoloViews layout: the probit likelihood Φ(yf), the cavity
N(f | μ₋, σ₋²), the tilted distribution p̂(f) = Φ(yf) N(f | μ₋, σ₋²) / Z, the Gaussian with p̂'s mean and
variance, and the site t̃(f) = s̃ exp(−½τ̃f² + ν̃f) that EP puts in place of Φ(yf) (Hernández-Lobato &
Hernández-Lobato 2016; Rasmussen & Williams §3.6). Beside the Learn tab's Pólya-Gamma pictures: X-GPC replaces
log σ(f) by a Gaussian *lower bound* fixed by c; EP replaces Φ(yf) by the unnormalised Gaussian that makes
cavity × site match the tilted moments.

    EPSite.from_cavity(μ₋, σ₋², y)     # the numbers and the curves as functions of f
    ep_site_view(μ₋, σ₋², y)           # the picture: likelihood and site | cavity, tilted and matched densities
"""

from __future__ import annotations

from dataclasses import dataclass

import holoviews as hv
import numpy as np
from scipy.special import ndtr
from scipy.stats import norm

from explorer.likelihoods import probit_site, probit_tilted_moments
from explorer.views.style import curve, panel, styled

COLORS = {"likelihood": "black", "site": "darkorange", "cavity": "gray", "tilted": "royalblue", "matched": "crimson"}


@dataclass(frozen=True)
class EPSite:
    """EP's update for one point with label y = ±1 and cavity N(f | μ₋, σ₋²) (cavity_mean, cavity_var):
    log Z = log Φ(yμ₋/√(1+σ₋²)), the tilted mean and variance, the site's natural parameters τ̃, ν̃ and its log
    scale log s̃ (so that ∫ t̃(f) N(f | μ₋, σ₋²) df = Z). The curves take f of any shape."""

    y: float
    cavity_mean: float
    cavity_var: float
    log_z: float
    mean: float
    var: float
    tau: float
    nu: float
    log_scale: float

    @classmethod
    def from_cavity(cls, cavity_mean: float, cavity_var: float, y: float) -> "EPSite":
        if y not in (-1, 1):
            raise ValueError(f"the label y must be -1 or +1, got {y!r}")
        if not (np.isfinite(cavity_mean) and np.isfinite(cavity_var) and cavity_var > 0):
            raise ValueError(
                f"the cavity needs a finite mean and a variance > 0, got mean {cavity_mean!r}, variance {cavity_var!r}"
            )
        y, cavity_mean, cavity_var = float(y), float(cavity_mean), float(cavity_var)
        log_z, mean, var = (float(v) for v in probit_tilted_moments(y, cavity_mean, cavity_var))
        _, tau, nu = (float(v) for v in probit_site(y, cavity_mean, cavity_var))
        # ∫ exp(−½τ̃f² + ν̃f) N(f | μ₋, σ₋²) df = exp(b²/2P − μ₋²/2σ₋²)/√(σ₋²P), P = 1/σ₋² + τ̃, b = μ₋/σ₋² + ν̃
        precision, shift = 1.0 / cavity_var + tau, cavity_mean / cavity_var + nu
        log_unscaled = (
            shift**2 / (2.0 * precision)
            - cavity_mean**2 / (2.0 * cavity_var)
            - 0.5 * float(np.log(cavity_var * precision))
        )
        return cls(y, cavity_mean, cavity_var, log_z, mean, var, tau, nu, log_z - log_unscaled)

    @property
    def z(self) -> float:
        return float(np.exp(self.log_z))

    def likelihood(self, f):
        """Φ(yf)."""
        return ndtr(self.y * np.asarray(f, dtype=float))

    def cavity(self, f):
        """N(f | μ₋, σ₋²)."""
        return norm.pdf(f, self.cavity_mean, np.sqrt(self.cavity_var))

    def tilted(self, f):
        """p̂(f) = Φ(yf) N(f | μ₋, σ₋²) / Z, a density."""
        return self.likelihood(f) * self.cavity(f) / self.z

    def matched(self, f):
        """N(f | E_p̂[f], Var_p̂[f]): EP's new marginal, ∝ t̃(f) N(f | μ₋, σ₋²)."""
        return norm.pdf(f, self.mean, np.sqrt(self.var))

    def site(self, f):
        """t̃(f) = s̃ exp(−½τ̃f² + ν̃f), the unnormalised Gaussian in place of Φ(yf)."""
        f = np.asarray(f, dtype=float)
        return np.exp(self.log_scale - 0.5 * self.tau * f * f + self.nu * f)

    def grid(self, points: int = 401) -> np.ndarray:
        """f from the cavity's μ₋ − 5σ₋ to μ₋ + 5σ₋, widened to [−3, 3] so the step of Φ(yf) shows."""
        sd = np.sqrt(self.cavity_var)
        return np.linspace(min(self.cavity_mean - 5.0 * sd, -3.0), max(self.cavity_mean + 5.0 * sd, 3.0), points)


def ep_site_view(cavity_mean: float, cavity_var: float, y: float, *, width: int = 430, height: int = 300) -> hv.Layout:
    """Left: Φ(yf), EP's site t̃(f) and the cavity (scaled to peak 1: where the site has to fit). Right: the cavity,
    the tilted distribution and the Gaussian with its mean and variance, as densities in f."""
    ep = EPSite.from_cavity(cavity_mean, cavity_var, y)
    f = ep.grid()
    cavity = ep.cavity(f)
    sign = "+" if ep.y > 0 else "−"
    scaled = hv.Area((f, cavity / cavity.max()), "f", "value", label="cavity (scaled to peak 1)")
    left = [
        styled(scaled, color=COLORS["cavity"], alpha=0.25, bokeh=dict(line_alpha=0.0), matplotlib=dict(linewidth=0)),
        curve(
            (f, ep.likelihood(f)), "f", "value", f"Φ({sign}f), the likelihood", color=COLORS["likelihood"], line_width=2
        ),
        curve((f, ep.site(f)), "f", "value", "t̃(f), EP's site", color=COLORS["site"], line_width=2, dashed=True),
    ]
    right = [
        curve((f, cavity), "f", "density", "cavity N(f | μ₋, σ₋²)", color=COLORS["cavity"], line_width=2),
        curve((f, ep.tilted(f)), "f", "density", "tilted Φ(yf)·cavity / Z", color=COLORS["tilted"], line_width=3),
        curve(
            (f, ep.matched(f)),
            "f",
            "density",
            "same mean and variance (∝ site × cavity)",
            color=COLORS["matched"],
            line_width=2,
            dashed=True,
        ),
    ]
    common = dict(
        width=width,
        height=height,
        show_grid=True,
        legend_position="top_left",
        bokeh=dict(tools=["hover"], legend_opts={"background_fill_alpha": 0.6}),
    )
    panels = [
        panel(left, title="the likelihood and the Gaussian site in its place", ylim=(-0.02, 1.5), **common),
        panel(right, title="tilted distribution and its moment match", **common),
    ]
    return styled(hv.Layout(panels), shared_axes=False)
