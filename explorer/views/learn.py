"""Pólya-Gamma augmentation in pictures (paper §3 and appendix "Variational bound"), as HoloViews views the Learn tab
shows: `pg_density(c)`, `augmentation_identity(z)`, `augmented_bound(c)` and `minibatch_view(local)` (each one's
docstring says what it draws)."""

from __future__ import annotations

import holoviews as hv
import numpy as np
from scipy import integrate
from scipy.special import expit, log_expit

from explorer.polyagamma import density, log_cosh, pg_mean, sample
from explorer.views.style import curve, grid, mean_line, panel, scatter, sized, styled

_OMEGA_MAX = 20.0  # PG(1, 0) mass beyond ω = 20 is below 1e-40; the series density is noise there
_SPLITS = [0.05, 0.25, 1.0, 4.0]
Z_GRID = np.linspace(-8.0, 8.0, 321)
IDENTITY_NODES = np.linspace(-8.0, 8.0, 17)
OMEGA = hv.Dimension("omega", label="ω")
DENSITY = hv.Dimension("pdf", label="density")
Z = hv.Dimension("z", label="z")
SIGMOID = hv.Dimension("value", label="value")
LOG_SIGMOID = hv.Dimension("log_value", label="log σ(z) and bound")
MINIBATCH_QUANTITIES = {
    "c": (hv.Dimension("c", label="c_i"), "#1f77b4"),
    "theta": (hv.Dimension("theta", label="θ_i = E[ω_i]"), "darkorange"),
}


def sigmoid_by_augmentation(z: float) -> tuple[float, float]:
    """½∫₀^∞ exp(z/2 − z²ω/2) PG(ω | 1, 0) dω by adaptive quadrature (paper eq. logit_PG). Returns (value, error bound)."""
    value, error = integrate.quad(
        lambda w: 0.5 * np.exp(z / 2.0 - z * z * w / 2.0) * density(w, 0.0), 0.0, _OMEGA_MAX, points=_SPLITS, limit=200
    )
    return float(value), float(error)


def sigmoid_by_sampling(z: float, omega: np.ndarray) -> float:
    """The same integral as a Monte Carlo mean over draws ω ~ PG(1, 0): ½·mean(exp(z/2 − z²ω/2))."""
    return float(0.5 * np.mean(np.exp(z / 2.0 - z * z * omega / 2.0)))


def gibbs_mackay_bound(z: np.ndarray, c: float) -> np.ndarray:
    """Lower bound on log σ(z), tight at z = ±c: z/2 − log 2 − log cosh(c/2) − θ(c)(z² − c²)/2
    (paper appendix, relation to the Gibbs–MacKay bound). z any shape."""
    z = np.asarray(z, dtype=float)
    return z / 2.0 - np.log(2.0) - log_cosh(c / 2.0) - 0.5 * pg_mean(c) * (z * z - c * c)


def filled_histogram(
    values, dim: hv.Dimension, label: str, color: str, bins: int, *, alpha: float = 0.4, share: float = 1.0
) -> hv.Histogram:
    """A density-normalised histogram of `values` on `dim` over their range (a unit range around a constant; no
    values: no bars), its heights times `share` (the part of a distribution they make), filled in `color` without
    edges."""
    values = np.asarray(values, dtype=float)
    edges, top = np.zeros(0), np.zeros(0)
    if values.size:
        low, high = float(values.min()), float(values.max())
        span = (low, high) if high - low >= 1e-12 else (low - 0.5, high + 0.5)
        top, edges = np.histogram(values, bins=bins, range=span, density=True)
    element = hv.Histogram((edges, top * share), kdims=[dim], vdims=[DENSITY], label=label)
    return styled(element, color=color, alpha=alpha, bokeh=dict(line_alpha=0.0), matplotlib=dict(edgecolor="none"))


def pg_density(
    c: float, draws: np.ndarray | None = None, *, n_draws: int = 5000, rng: np.random.Generator | None = None
) -> hv.Overlay:
    """PG(ω | 1, c): exact draws (histogram: `draws`, or `n_draws` drawn with `rng`, default seed 0), the density
    (series) and E[ω] = θ(c) (dashed line), on ω ∈ (0, max(99.5% quantile of the draws, 4 θ(c))]."""
    mean = float(pg_mean(c))
    if draws is None:
        draws = sample(np.full(n_draws, float(c)), rng if rng is not None else np.random.default_rng(0))
    draws = np.asarray(draws, dtype=float)
    upper = max(float(np.quantile(draws, 0.995)), 4.0 * mean)
    omega = np.linspace(1e-4, upper, 400)
    histogram = filled_histogram(draws[draws <= upper], OMEGA, f"{len(draws):,} exact draws", "#1f77b4", 50)
    pdf = curve((omega, density(omega, c)), OMEGA, DENSITY, "PG(1, c) density", color="black", line_width=2)
    title = f"PG(ω | 1, c = {c:g}) and its mean E[ω] = {mean:.4f}"
    return panel(
        [histogram, pdf, mean_line(mean, "E[ω] = θ(c)")], "PG", "density", title=title, legend_position="top_right"
    )


def augmentation_identity(z: float | None = None) -> hv.Overlay:
    """σ(z) (line) and ½∫exp(z/2 − z²ω/2) PG(ω|1,0)dω by quadrature at 17 points of [−8, 8] (dots), with the
    chosen `z` marked (a diamond) when given."""
    sigmoid = curve((Z_GRID, expit(Z_GRID)), Z, SIGMOID, "σ(z)", color="black", line_width=2)
    quadrature = (IDENTITY_NODES, [sigmoid_by_augmentation(z)[0] for z in IDENTITY_NODES])
    layers = [
        sigmoid,
        scatter(quadrature, Z, SIGMOID, "quadrature of the integral", color="darkorange", marker="circle", size=8),
    ]
    if z is not None:
        chosen = ([z], [sigmoid_by_augmentation(z)[0]])
        layers.append(scatter(chosen, Z, SIGMOID, "chosen z", "Chosen", color="crimson", marker="diamond", size=14))
    title = "σ(z) and ½∫exp(z/2 − z²ω/2) PG(ω|1,0) dω"
    return panel(layers, "PG", "identity", title=title, legend_position="top_left")


def augmented_bound(c: float) -> hv.Overlay:
    """log σ(z) and its Gibbs–MacKay lower bound for `c` on z ∈ [−8, 8], with the two points z = ±c where they
    touch; y from −10 to 1."""
    exact = curve((Z_GRID, log_expit(Z_GRID)), Z, LOG_SIGMOID, "log σ(z)", color="black", line_width=2)
    bounds = (Z_GRID, gibbs_mackay_bound(Z_GRID, c))
    bound = curve(bounds, Z, LOG_SIGMOID, f"bound for c = {c:g}", "Bound", color="royalblue", line_width=2)
    touch = np.array([-c, c])
    points = scatter(
        (touch, log_expit(touch)), Z, LOG_SIGMOID, "tight at z = ±c", "Touch", color="crimson", marker="circle", size=10
    )
    title = "log σ(z) and its Gibbs–MacKay lower bound"
    return panel([exact, bound, points], "PG", "bound", title=title, ylim=(-10.0, 1.0), legend_position="bottom_right")


def minibatch_histogram(local: dict, quantity: str = "c", bins: int = 30) -> hv.Histogram:
    """Histogram (density) of c_i (quantity "c") or θ_i = E[ω_i] ("theta") of a minibatch: local = {"c": (s,),
    "theta": (s,)}, as `Model.last_local()` returns (empty before the first step and for the SVGP baselines, which
    do not augment)."""
    if quantity not in MINIBATCH_QUANTITIES:
        raise ValueError(f"quantity must be 'c' or 'theta', got {quantity!r}")
    dim, color = MINIBATCH_QUANTITIES[quantity]
    histogram = styled(filled_histogram(local[quantity], dim, dim.label, color, bins), title=dim.label)
    return sized(histogram, width=230, height=300)


def minibatch_view(local: dict, bins: int = 30) -> hv.Layout:
    """The histograms of c_i and θ_i of a minibatch side by side (`minibatch_histogram`), each on its own axes."""
    return grid([minibatch_histogram(local, quantity, bins) for quantity in ("c", "theta")], 2, shared_axes=False)
