"""Learn tab: how the methods work, in six pictures (paper §3 and appendix "Variational bound"; what each shows:
README, "The dashboard"), the HoloViews views of `explorer.views.learn`, `views.ep_site` and
`views.softmax_augmentation` (one drawing for the tab and notebooks).
"""

from __future__ import annotations

from functools import partial

import holoviews as hv
import numpy as np
import panel as pn
from scipy.special import expit, log_expit

from explorer.dashboard.panes import canvas_pane, on_canvas
from explorer.dashboard.tabs import MINIBATCH, Tab, Tick
from explorer.polyagamma import pg_mean, sample
from explorer.views.ep_site import EPSite, ep_site_view
from explorer.views.learn import (
    augmentation_identity,
    augmented_bound,
    gibbs_mackay_bound,
    minibatch_histogram,
    pg_density,
    sigmoid_by_augmentation,
    sigmoid_by_sampling,
)
from explorer.views.softmax_augmentation import (
    SoftmaxAugmentation,
    augmented_slice,
    counts_view,
    family_gap_slice,
    lambda_view,
    likelihood_against_softmax,
    omega_view,
)

_EMPTY = {"c": np.zeros(0), "theta": np.zeros(0)}
_FRAMEWISE = [
    hv.Options(kind, framewise=True, backend="bokeh") for kind in ("Curve", "Scatter", "Histogram", "Spikes", "Overlay")
]
SOFTMAX_CLASSES = 3  # K of the logistic-softmax picture
OMEGA_DRAWS = 20_000


def _pane(pipe: hv.streams.Pipe, draw) -> pn.pane.HoloViews:
    """A pane showing draw(data) for the data `pipe` sends, redrawn in place (send before it is shown): the plot's
    data change, its Bokeh models stay (measured here under load: ≈ 0.15 s per update against ≈ 0.6 s for
    replacing the pane's object)."""
    return canvas_pane(hv.DynamicMap(lambda data: draw(data).opts(*_FRAMEWISE), streams=[pipe]), linked_axes=False)


class LearnTab(Tab, pn.viewable.Viewer):
    """The teaching tab (shows itself in a notebook): the PG pictures of `views.learn` in HoloViews panes, redrawn
    when their sliders move (`*_pipe.send`). `update_minibatch(local)` takes `Model.last_local()`."""

    title = "Learn"
    reads = MINIBATCH

    def __init__(self, seed: int = 0):
        super().__init__()
        self._rng = np.random.default_rng(seed)
        self._minibatch_iteration = -1  # of the minibatch shown
        self._prior_draws = sample(np.zeros(20_000), self._rng)
        self.c_density = pn.widgets.FloatSlider(label="c", start=0.0, end=10.0, step=0.1, value=2.0)
        self.z_identity = pn.widgets.FloatSlider(label="z", start=-8.0, end=8.0, step=0.1, value=1.5)
        self.c_bound = pn.widgets.FloatSlider(label="c", start=0.0, end=8.0, step=0.1, value=2.0)
        self.density_pipe, self.identity_pipe, self.bound_pipe = (hv.streams.Pipe() for _ in range(3))
        self.density_pane = _pane(self.density_pipe, lambda data: pg_density(*data))  # data: (c, draws)
        self.identity_pane = _pane(self.identity_pipe, augmentation_identity)
        self.bound_pane = _pane(self.bound_pipe, augmented_bound)
        # The two histograms in two panes of one Row, each redrawn from the same Pipe.
        self.minibatch_pipe = hv.streams.Pipe(data=_EMPTY)
        self.minibatch_panes = [
            _pane(self.minibatch_pipe, partial(minibatch_histogram, quantity=quantity)) for quantity in ("c", "theta")
        ]
        self.density_text, self.identity_text, self.bound_text = (pn.pane.Markdown() for _ in range(3))
        self.minibatch_text = pn.pane.Markdown("Press Play (or Step) to see the local parameters of a minibatch.")
        self.cavity_mean = pn.widgets.FloatSlider(label="cavity mean μ₋", start=-4.0, end=4.0, step=0.05, value=-0.5)
        self.cavity_var = pn.widgets.FloatSlider(label="cavity variance σ₋²", start=0.05, end=9.0, step=0.05, value=2.0)
        self.label = pn.widgets.RadioButtonGroup(label="label y", options={"y = −1": -1, "y = +1": 1}, value=1)
        # one pane per plot of the layout: a HoloViews Layout (a Bokeh GridPlot) nested in the dashboard's Column of
        # dynamic Tabs was drawn with plots of zero size (Panel 1.9.4, Bokeh 3.9.2); single overlays draw fine
        self.ep_panes = [pn.pane.HoloViews(backend="bokeh", linked_axes=False) for _ in range(2)]
        self.ep_text = pn.pane.Markdown()
        self.softmax_means = [
            pn.widgets.FloatSlider(label=f"mean of f_{k}", start=-4.0, end=4.0, step=0.1, value=value)
            for k, value in enumerate((1.0, 0.0, -1.0))
        ]
        self.softmax_var = pn.widgets.FloatSlider(
            label="variance of each f_k", start=0.05, end=4.0, step=0.05, value=0.5
        )
        classes = {f"{k}": k for k in range(SOFTMAX_CLASSES)}
        self.softmax_label = pn.widgets.RadioButtonGroup(label="label y", options=classes, value=0)
        self.softmax_slice = pn.widgets.RadioButtonGroup(label="slice along f_k", options=classes, value=0)
        # The six pictures in six panes, each redrawn from the same Pipe; data: (augmentation, ω draws, slice k).
        self.softmax_pipe = hv.streams.Pipe()
        views = (
            lambda aug, draws, k: likelihood_against_softmax(aug, k),
            lambda aug, draws, k: lambda_view(aug),
            lambda aug, draws, k: counts_view(aug),
            lambda aug, draws, k: omega_view(aug, draws),
            lambda aug, draws, k: augmented_slice(aug, k),
            lambda aug, draws, k: family_gap_slice(aug, k),
        )
        self.softmax_panes = [_pane(self.softmax_pipe, lambda data, view=view: view(*data)) for view in views]
        self.softmax_text = pn.pane.Markdown()
        softmax = (*self.softmax_means, self.softmax_var, self.softmax_label, self.softmax_slice)
        for update, widgets in (
            (self._update_density, [self.c_density]),
            (self._update_identity, [self.z_identity]),
            (self._update_bound, [self.c_bound]),
            (self._update_ep_site, [self.cavity_mean, self.cavity_var, self.label]),
            (self._update_softmax, softmax),
        ):  # each picture drawn now and again when one of its widgets moves
            for widget in widgets:
                widget.param.watch(lambda e, update=update: update(), "value")
            update()

    def _update_density(self):
        c = self.c_density.value
        draws = sample(np.full(5000, c), self._rng)
        self.density_pipe.send((c, draws))
        self.density_text.object = (
            f"E[ω] = θ(c) = tanh(c/2)/(2c) = **{float(pg_mean(c)):.5f}** (dashed line); mean of the draws: "
            f"{draws.mean():.5f}. X-GPC never samples ω: its local step only needs θ(c)."
        )

    def _update_identity(self):
        z = self.z_identity.value
        exact = float(expit(z))
        by_quadrature, error = sigmoid_by_augmentation(z)
        by_sampling = sigmoid_by_sampling(z, self._prior_draws)
        self.identity_pipe.send(z)
        self.identity_text.object = (
            f"| at z = {z:.2f} | value | difference from σ(z) |\n|---|---|---|\n"
            f"| σ(z) = 1/(1+e^(−z)) | {exact:.10f} | |\n"
            f"| ½∫… by quadrature | {by_quadrature:.10f} | {abs(by_quadrature - exact):.1e} (quad error bound {error:.0e}) |\n"
            f"| ½·mean over 20,000 draws ω ~ PG(1,0) | {by_sampling:.10f} | {abs(by_sampling - exact):.1e} |"
        )

    def _update_bound(self):
        c = self.c_bound.value
        self.bound_pipe.send(c)
        gap = float(log_expit(0.0) - gibbs_mackay_bound(0.0, c))
        self.bound_text.object = (
            f"log σ(z) ≥ z/2 − log 2 − log cosh(c/2) − θ(c)(z² − c²)/2 with θ(c) = {float(pg_mean(c)):.4f}: "
            f"a Gaussian in z, so q(u) stays Gaussian and the natural gradients are closed form. "
            f"Gap at z = 0: {gap:.4f}. The local step sets c_i = √E[f_i²], where the bound is tightest on average."
        )

    def collect(self, tick: Tick | None = None) -> dict | None:
        """The minibatch of the snapshot, while the tab is shown and once per iteration (None: nothing new)."""
        if tick is None or tick.shown != self.title:
            return None
        snapshot = tick.snapshot
        if snapshot.local is None or snapshot.iteration == self._minibatch_iteration:
            return None
        self._minibatch_iteration = snapshot.iteration
        return snapshot.local

    def render(self, news: dict, running: bool) -> None:
        self.update_minibatch(news)

    def update_minibatch(self, local: dict | None) -> None:
        """Show histograms of `local['c']` and `local['theta']` (both (s,)); None or empty: empty histograms and
        a note."""
        if local is None or len(local["c"]) == 0:
            self.minibatch_pipe.send(_EMPTY)
            self.minibatch_text.object = (
                "No local parameters: press Play (or Step). The SVGP baselines have none: they do not augment."
            )
            return
        c, theta = np.asarray(local["c"]), np.asarray(local["theta"])
        self.minibatch_pipe.send({"c": c, "theta": theta})
        self.minibatch_text.object = (
            f"{len(c)} points: c from {c.min():.3f} to {c.max():.3f}. Points the model is sure about (large c) get "
            f"small θ = E[ω] (here down to {theta.min():.4f}); uncertain points have c ≈ 0 and θ ≈ 1/4."
        )

    # ------------------------------------------------------------------------------------------------ EP's site
    def _update_ep_site(self):
        mean, var, y = self.cavity_mean.value, self.cavity_var.value, self.label.value
        ep = EPSite.from_cavity(mean, var, y)
        for pane, plot in zip(self.ep_panes, ep_site_view(mean, var, y)):
            pane.object = on_canvas(plot)
        self.ep_text.object = (
            f"Z = ∫Φ(yf)N(f | μ₋, σ₋²)df = Φ(yμ₋/√(1+σ₋²)) = **{ep.z:.4f}**; tilted mean {ep.mean:.4f}, variance "
            f"{ep.var:.4f} (cavity: {mean:.2f}, {var:.2f}); site precision τ̃ = {ep.tau:.4f}, ν̃ = {ep.nu:.4f}. "
            "EP removes the point's old site from q(f) (the cavity), multiplies in the true Φ(yf) (the tilted "
            "distribution) and fits the Gaussian with the same mean and variance; the site is what turns the "
            "cavity into that Gaussian. Unlike the bound in picture 3 it is no bound: it fits Φ(yf) where the "
            "cavity has mass and may lie above it elsewhere. A point on the wrong side of 0 (Z small) moves q most."
        )

    # ------------------------------------------------------------------------------------ the logistic-softmax
    def _update_softmax(self):
        """Draw the sliders' point at its optimal local parameters (with fresh exact ω draws and the slice's class)
        and describe it."""
        means = [slider.value for slider in self.softmax_means]
        aug = SoftmaxAugmentation.at(means, self.softmax_var.value, self.softmax_label.value)
        self.softmax_pipe.send((aug, aug.omega_draws(OMEGA_DRAWS, self._rng), self.softmax_slice.value))
        rows = "\n".join(
            f"| {k} | {aug.mean[k]:.2f} | {aug.c[k]:.4f} | {aug.joint_n[k]:.4f} | {aug.gamma[k]:.4f} | "
            f"{aug.joint_theta[k]:.4f} | {aug.theta[k]:.4f} |"
            for k in range(aug.n_classes)
        )
        gaps = aug.gaps()
        self.softmax_text.object = (
            "| k | mean of f_k | c_k | E[n_k] joint | γ_k = E[n_k] factorised | θ_k joint | θ_k factorised |\n"
            f"|---|---|---|---|---|---|---|\n{rows}\n\n"
            f"E_q[log p(y = {aug.label} | f)] = {aug.expected_log_likelihood():.4f} (quadrature). The paper's factorised "
            f"q(λ)q(n), q(λ) = Ga(α = {aug.alpha:.4f}, β = {aug.n_classes}): ELBO term "
            f"E_q[ℓ(f)] = **{aug.elbo_term():.4f}**, **{gaps['factorised']:.3f} nats** below it. The joint q(λ, n), "
            f"q(λ) = Exp(β = {aug.joint_rate:.4f}): **{aug.joint_elbo_term():.4f}**, **{gaps['joint']:.3f} nats** below "
            "it. The factorised counts use the geometric mean e^(ψ(α))/K of λ, about half of E[λ], so its E[n_k] are too "
            "small: the −E[n_k] that pulls each latent down is too weak, a fit's latent means float up and its "
            "probabilities flatten. The joint family keeps λ and n together: its gap closes as the variance shrinks "
            "(it is exact at zero variance), the factorised one's does not (last picture; the MCMC tab shows the same "
            "two fits against the exact sampler). "
            "λ turns 1/Σ_j σ(f_j) into exp(−λ Σ_j σ(f_j)); the Poisson counts n_k turn each exp(−λσ(f_k)) into powers "
            "σ(−f_k)^n; the Pólya-Gamma ω_k turn σ(f_k)^(Y_k) σ(−f_k)^(n_k) into a Gaussian in f_k, of precision θ_k "
            "(fifth picture). A class that is not the label gets ω_k = 0 when n_k = 0 (the atom). The softmax tends "
            "to 1 as f_k grows; the logistic-softmax stops at its ceiling 1/(1 + Σ_(j≠k) σ(f_j)): it is sure of a "
            "class only when the others' latent values are very negative."
        )

    def __panel__(self):
        # Two pictures a row, each at most 480 px wide: the tab fits a 1024-px projector.
        column, row = (partial(kind, sizing_mode="stretch_width") for kind in (pn.Column, pn.Row))
        return column(
            pn.pane.Markdown(
                "### How the methods work, in six pictures\n"
                "Pictures 1–4: Pólya-Gamma augmentation (X-GPC); 5: expectation propagation (EPGPC); 6: three classes "
                "(multi-class X-GPC). The logistic likelihood is not conjugate to a Gaussian. Writing σ(z) as a Gaussian mixture over a "
                "Pólya-Gamma variable ω makes it conditionally conjugate; X-GPC's closed-form natural gradients "
                "follow from there (Wenzel et al. 2019, §3)."
            ),
            row(
                column("#### 1. The PG(1, c) density", self.c_density, self.density_pane, self.density_text),
                column("#### 2. σ(z) as a mixture", self.z_identity, self.identity_pane, self.identity_text),
            ),
            row(
                column("#### 3. The augmented bound", self.c_bound, self.bound_pane, self.bound_text),
                column("#### 4. Your model's last minibatch", pn.Row(*self.minibatch_panes), self.minibatch_text),
            ),
            pn.pane.Markdown(
                "### Expectation propagation instead of a bound (EPGPC)\n"
                "EPGPC (Hernández-Lobato & Hernández-Lobato 2016), the paper's third system, keeps the probit "
                "likelihood Φ(yf) and replaces each point's likelihood by a Gaussian *site* chosen by moment matching."
            ),
            column(
                "#### 5. One point's EP update",
                pn.Row(self.cavity_mean, self.cavity_var, self.label),
                pn.Row(*self.ep_panes),
                self.ep_text,
            ),
            pn.pane.Markdown(
                "### Three classes: the logistic-softmax made conjugate (multi-class X-GPC)\n"
                "Multi-class X-GPC (Galy-Fajou et al. 2019) replaces the softmax by p(y = k | f) = σ(f_k)/Σ_j σ(f_j) "
                "and augments it with a Gamma λ, Poisson counts n_k and Pólya-Gamma ω_k: given them, the K latent "
                "functions are Gaussian again and every update is closed form. The paper factorises q(λ)q(n); "
                "keeping q(λ, n) joint is as cheap and closes most of the gap (green: joint, dashed blue: "
                "factorised). Choose one point's q(f) and label. (This is the 'joint' and 'factorised' families' "
                "model. The default multi-class model is another one, stick-breaking: K − 1 binary logits on a "
                "stick of the classes in label order, each with the binary Pólya-Gamma augmentation of the pictures "
                "above and no λ or counts; at equal training time it had the lower test NLL on 4 of 5 measured data "
                "sets and the lower calibration error on all 5.)"
            ),
            column(
                "#### 6. One point's augmented logistic-softmax (K = 3)",
                pn.Row(*self.softmax_means),
                pn.Row(
                    self.softmax_var,
                    pn.Column("label y", self.softmax_label),
                    pn.Column("slice along f_k", self.softmax_slice),
                ),
                pn.Row(*self.softmax_panes[:2]),
                pn.Row(*self.softmax_panes[2:4]),
                pn.Row(*self.softmax_panes[4:6]),
                self.softmax_text,
            ),
        )
