"""Learn tab: Pólya-Gamma augmentation shown on screen (paper §3 and appendix "Variational bound"), and EP's site
approximation beside it.

Four panels: the PG(1, c) density with E[ω] and exact draws; the identity σ(z) = ½∫exp(z/2 − z²ω/2) PG(ω|1,0)dω
checked by quadrature and by Monte Carlo; log σ(z) against the Gibbs–MacKay bound for a chosen c; histograms of
c_i and θ_i = E[ω_i] on the running model's last minibatch. A fifth shows what EPGPC does instead of the bound for
one point: the probit likelihood, the cavity, the tilted distribution and the Gaussian site
(`explorer.dashboard.views.ep_site`, HoloViews).
"""
from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Span
from bokeh.plotting import figure
from scipy import integrate
from scipy.special import expit, log_expit

from explorer.dashboard.ranges import Placeholder
from explorer.dashboard.views.ep_site import EPSite, ep_site_view
from explorer.polyagamma import density, log_cosh, pg_mean, sample

_OMEGA_MAX = 20.0  # PG(1, 0) mass beyond ω = 20 is below 1e-40; the series density is noise there
_SPLITS = [0.05, 0.25, 1.0, 4.0]
_Z_GRID = np.linspace(-8.0, 8.0, 321)
_PLOT = dict(height=300, sizing_mode="stretch_width", toolbar_location=None)


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


def histogram(values: np.ndarray, bins: int = 30) -> dict:
    """Bar geometry for a Bokeh quad glyph: dict(left, right, top) of a density-normalised histogram."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return dict(left=[], right=[], top=[])
    low, high = float(values.min()), float(values.max())
    if high - low < 1e-12:
        low, high = low - 0.5, high + 0.5
    top, edges = np.histogram(values, bins=bins, range=(low, high), density=True)
    return dict(left=edges[:-1], right=edges[1:], top=top)


class LearnTab(pn.viewable.Viewer):
    """The teaching tab (shows itself in a notebook). `update_minibatch(local)` takes `Model.last_local()`;
    everything else reacts to its sliders."""

    def __init__(self, seed: int = 0):
        super().__init__()
        self._rng = np.random.default_rng(seed)
        self._prior_draws = sample(np.zeros(20_000), self._rng)
        self.c_density = pn.widgets.FloatSlider(label="c", start=0.0, end=10.0, step=0.1, value=2.0)
        self.z_identity = pn.widgets.FloatSlider(label="z", start=-8.0, end=8.0, step=0.1, value=1.5)
        self.c_bound = pn.widgets.FloatSlider(label="c", start=0.0, end=8.0, step=0.1, value=2.0)
        self.cavity_mean = pn.widgets.FloatSlider(label="cavity mean μ₋", start=-4.0, end=4.0, step=0.05, value=-0.5)
        self.cavity_var = pn.widgets.FloatSlider(label="cavity variance σ₋²", start=0.05, end=9.0, step=0.05,
                                                 value=2.0)
        self.label = pn.widgets.RadioButtonGroup(label="label y", options={"y = −1": -1, "y = +1": 1}, value=1)
        self._build_density()
        self._build_identity()
        self._build_bound()
        self._build_minibatch()
        # one pane per plot of the layout: a HoloViews Layout (a Bokeh GridPlot) nested in the dashboard's Column of
        # dynamic Tabs was drawn with plots of zero size (Panel 1.9.4, Bokeh 3.9.2); single overlays draw fine
        self.ep_panes = [pn.pane.HoloViews(), pn.pane.HoloViews()]
        self.ep_text = pn.pane.Markdown()
        self.c_density.param.watch(lambda e: self._update_density(), "value")
        self.z_identity.param.watch(lambda e: self._update_identity(), "value")
        self.c_bound.param.watch(lambda e: self._update_bound(), "value")
        for widget in (self.cavity_mean, self.cavity_var, self.label):
            widget.param.watch(lambda e: self._update_ep_site(), "value")
        self._update_density()
        self._update_identity()
        self._update_bound()
        self._update_ep_site()

    # ------------------------------------------------------------------------------------------- PG(1, c) density
    def _build_density(self):
        self.density_fig = figure(title="PG(ω | 1, c): density, exact draws and E[ω]", x_axis_label="ω", **_PLOT)
        self.density_draws = ColumnDataSource(dict(left=[], right=[], top=[]))
        self.density_curve = ColumnDataSource(dict(omega=[], pdf=[]))
        self.density_fig.quad(left="left", right="right", top="top", bottom=0, source=self.density_draws,
                              fill_alpha=0.3, line_alpha=0.0, legend_label="5,000 exact draws")
        self.density_fig.line("omega", "pdf", source=self.density_curve, line_width=2, color="black",
                              legend_label="density")
        self.mean_span = Span(location=0.25, dimension="height", line_color="crimson", line_width=2, line_dash="dashed")
        self.density_fig.add_layout(self.mean_span)
        self.density_text = pn.pane.Markdown()

    def _update_density(self):
        c = self.c_density.value
        mean = float(pg_mean(c))
        draws = sample(np.full(5000, c), self._rng)
        upper = max(float(np.quantile(draws, 0.995)), 4.0 * mean)
        omega = np.linspace(1e-4, upper, 400)
        self.density_curve.data = dict(omega=omega, pdf=density(omega, c))
        self.density_draws.data = histogram(draws[draws <= upper], bins=50)
        self.mean_span.location = mean
        self.density_text.object = (
            f"E[ω] = θ(c) = tanh(c/2)/(2c) = **{mean:.5f}** (dashed line); mean of the draws: {draws.mean():.5f}. "
            "X-GPC never samples ω: its local step only needs θ(c)."
        )

    # ------------------------------------------------------------------------------------------------ the identity
    def _build_identity(self):
        self.identity_fig = figure(title="σ(z) and ½∫exp(z/2 − z²ω/2) PG(ω|1,0) dω", x_axis_label="z", **_PLOT)
        self.identity_fig.line(_Z_GRID, expit(_Z_GRID), line_width=2, color="black", legend_label="σ(z)")
        grid = np.linspace(-8.0, 8.0, 17)
        self.identity_fig.scatter(grid, [sigmoid_by_augmentation(z)[0] for z in grid], size=8, color="darkorange",
                                  legend_label="quadrature of the integral")
        self.identity_point = ColumnDataSource(dict(z=[], value=[]))
        self.identity_fig.scatter("z", "value", source=self.identity_point, size=14, marker="diamond", color="crimson",
                                  legend_label="chosen z")
        self.identity_fig.legend.location = "top_left"
        self.identity_text = pn.pane.Markdown()

    def _update_identity(self):
        z = self.z_identity.value
        exact = float(expit(z))
        by_quadrature, error = sigmoid_by_augmentation(z)
        by_sampling = sigmoid_by_sampling(z, self._prior_draws)
        self.identity_point.data = dict(z=[z], value=[by_quadrature])
        self.identity_text.object = (
            f"| at z = {z:.2f} | value | difference from σ(z) |\n|---|---|---|\n"
            f"| σ(z) = 1/(1+e^(−z)) | {exact:.10f} | |\n"
            f"| ½∫… by quadrature | {by_quadrature:.10f} | {abs(by_quadrature - exact):.1e} (quad error bound {error:.0e}) |\n"
            f"| ½·mean over 20,000 draws ω ~ PG(1,0) | {by_sampling:.10f} | {abs(by_sampling - exact):.1e} |"
        )

    # --------------------------------------------------------------------------------------------------- the bound
    def _build_bound(self):
        self.bound_fig = figure(title="log σ(z) and its Gibbs–MacKay lower bound", x_axis_label="z", **_PLOT)
        self.bound_fig.line(_Z_GRID, log_expit(_Z_GRID), line_width=2, color="black", legend_label="log σ(z)")
        self.bound_curve = ColumnDataSource(dict(z=_Z_GRID, bound=np.zeros_like(_Z_GRID)))
        self.bound_fig.line("z", "bound", source=self.bound_curve, line_width=2, color="royalblue",
                            legend_label="bound for c")
        self.bound_touch = ColumnDataSource(dict(z=[], value=[]))
        self.bound_fig.scatter("z", "value", source=self.bound_touch, size=10, color="crimson",
                               legend_label="tight at z = ±c")
        self.bound_fig.y_range.start, self.bound_fig.y_range.end = -10.0, 1.0
        self.bound_fig.legend.location = "bottom_center"
        self.bound_text = pn.pane.Markdown()

    def _update_bound(self):
        c = self.c_bound.value
        self.bound_curve.data = dict(z=_Z_GRID, bound=gibbs_mackay_bound(_Z_GRID, c))
        touch = np.array([-c, c])
        self.bound_touch.data = dict(z=touch, value=log_expit(touch))
        gap = float(log_expit(0.0) - gibbs_mackay_bound(0.0, c))
        self.bound_text.object = (
            f"log σ(z) ≥ z/2 − log 2 − log cosh(c/2) − θ(c)(z² − c²)/2 with θ(c) = {float(pg_mean(c)):.4f}: "
            f"a Gaussian in z, so q(u) stays Gaussian and the natural gradients are closed form. "
            f"Gap at z = 0: {gap:.4f}. The local step sets c_i = √E[f_i²], where the bound is tightest on average."
        )

    # ------------------------------------------------------------------------------------------------ EP's site
    def _update_ep_site(self):
        mean, var, y = self.cavity_mean.value, self.cavity_var.value, self.label.value
        ep = EPSite.from_cavity(mean, var, y)
        for pane, plot in zip(self.ep_panes, ep_site_view(mean, var, y)):
            pane.object = plot
        self.ep_text.object = (
            f"Z = ∫Φ(yf)N(f | μ₋, σ₋²)df = Φ(yμ₋/√(1+σ₋²)) = **{ep.z:.4f}**; tilted mean {ep.mean:.4f}, variance "
            f"{ep.var:.4f} (cavity: {mean:.2f}, {var:.2f}); site precision τ̃ = {ep.tau:.4f}, ν̃ = {ep.nu:.4f}. "
            "EP removes the point's old site from q(f) (the cavity), multiplies in the true Φ(yf) (the tilted "
            "distribution) and fits the Gaussian with the same mean and variance; the site is what turns the "
            "cavity into that Gaussian. Unlike the bound in picture 3 it is no bound: it fits Φ(yf) where the "
            "cavity has mass and may lie above it elsewhere. A point on the wrong side of 0 (Z small) moves q most."
        )

    # ------------------------------------------------------------------------------------------- the last minibatch
    def _build_minibatch(self):
        self.c_source = ColumnDataSource(dict(left=[], right=[], top=[]))
        self.theta_source = ColumnDataSource(dict(left=[], right=[], top=[]))
        self.c_fig = figure(title="c_i on the last minibatch", x_axis_label="c", **_PLOT)
        self.c_fig.quad(left="left", right="right", top="top", bottom=0, source=self.c_source, fill_alpha=0.5)
        self.theta_fig = figure(title="θ_i = E[ω_i] on the last minibatch", x_axis_label="θ", **_PLOT)
        self.theta_fig.quad(left="left", right="right", top="top", bottom=0, source=self.theta_source,
                            fill_alpha=0.5, color="darkorange")
        self.placeholders = [Placeholder(self.c_fig), Placeholder(self.theta_fig, x=(0.0, 0.25))]
        self.minibatch_text = pn.pane.Markdown("Press Play (or Step) to see the local parameters of a minibatch.")

    def update_minibatch(self, local: dict | None) -> None:
        """Show histograms of `local['c']` and `local['theta']` (both (s,)); None leaves the placeholder text."""
        if local is None or len(local["c"]) == 0:
            self.c_source.data = dict(left=[], right=[], top=[])
            self.theta_source.data = dict(left=[], right=[], top=[])
            for extent in self.placeholders:
                extent.show(True)
            self.minibatch_text.object = ("No local parameters: press Play (or Step). The baselines (SVGP, EPGPC) "
                                          "have none: they do not augment.")
            return
        c, theta = np.asarray(local["c"]), np.asarray(local["theta"])
        self.c_source.data = histogram(c)
        self.theta_source.data = histogram(theta)
        for extent in self.placeholders:
            extent.show(False)
        self.minibatch_text.object = (
            f"{len(c)} points: c from {c.min():.3f} to {c.max():.3f}. Points the model is sure about (large c) get "
            f"small θ = E[ω] (here down to {theta.min():.4f}); uncertain points have c ≈ 0 and θ ≈ 1/4."
        )

    def __panel__(self):
        return pn.Column(
            pn.pane.Markdown(
                "### Pólya-Gamma augmentation in four pictures\n"
                "The logistic likelihood is not conjugate to a Gaussian. Writing σ(z) as a Gaussian mixture over a "
                "Pólya-Gamma variable ω makes it conditionally conjugate; X-GPC's closed-form natural gradients "
                "follow from there (Wenzel et al. 2019, §3)."
            ),
            pn.Row(
                pn.Column("#### 1. The PG(1, c) density", self.c_density, self.density_fig, self.density_text,
                          sizing_mode="stretch_width"),
                pn.Column("#### 2. σ(z) as a mixture", self.z_identity, self.identity_fig, self.identity_text,
                          sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            pn.Row(
                pn.Column("#### 3. The augmented bound", self.c_bound, self.bound_fig, self.bound_text,
                          sizing_mode="stretch_width"),
                pn.Column("#### 4. Your model's last minibatch", pn.Row(self.c_fig, self.theta_fig,
                                                                        sizing_mode="stretch_width"),
                          self.minibatch_text, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            pn.pane.Markdown(
                "### Expectation propagation instead of a bound (EPGPC)\n"
                "EPGPC (Hernández-Lobato & Hernández-Lobato 2016), the paper's third system, keeps the probit "
                "likelihood Φ(yf) and replaces each point's likelihood by a Gaussian *site* chosen by moment matching."
            ),
            pn.Column("#### 5. One point's EP update", pn.Row(self.cavity_mean, self.cavity_var, self.label),
                      pn.Row(*self.ep_panes), self.ep_text, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )
