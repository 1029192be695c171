"""The MCMC-versus-X-GPC comparison (paper Fig. 1) as HoloViews views: at the test points, the posterior mean and
variance of f* and p(y*=1) of X-GPC (y) against the exact PG Gibbs sampler (x), one marker per X-GPC variant, with
the identity line; the two decision surfaces side by side; the sampler's log-likelihood trace per chain.

    run = run_comparison(X, y, kernel, n_inducing=20)      # explorer.studies.comparison
    mcmc_comparison(run)                                    # three scatter panels
    mcmc_traces(run.sampler)

K ≥ 3 classes: the panels are the mean, the variance and p(y*=k), each with every latent function's (every class's)
values at every test point (`ComparisonResult.pairs`). Stick-breaking (the default family, against its own sampler):
the latent panels show the K − 1 logits ψ*_j. The logistic-softmax against its sampler: one latent f*_k per class, and
a third variant beside sparse and full, the full fit in the paper's factorised q(λ)q(n) ("factorised"), above the
diagonal where the joint family sits near it. The results a view takes: `comparison_results`.
"""

from __future__ import annotations

from itertools import cycle

import holoviews as hv
import numpy as np

from explorer.views.style import RUN_COLORS, curve, grid, panel, scatter, sized, styled
from explorer.views.surface import decision_surface_from_arrays

PANELS = {"mean": "posterior mean of f*", "variance": "posterior variance of f*", "p(y=1)": "p(y*=1)"}
CLASS_PANELS = {"mean": "posterior mean of f*_k", "variance": "posterior variance of f*_k", "p(y=k)": "p(y*=k)"}
"""The panels for K ≥ 3 classes: every class's values in one panel."""
STICK_PANELS = {
    "mean": "posterior mean of the logits ψ*_j",
    "variance": "posterior variance of the logits ψ*_j",
    "p(y=k)": "p(y*=k)",
}
"""The panels for the stick-breaking model (K − 1 logits, K classes)."""
# Sparse and full X-GPC often agree to the pixel: open circles around small filled diamonds keep both visible.
MARKERS = {
    "sparse": dict(
        marker="circle",
        size=9,
        bokeh=dict(fill_alpha=0.0, line_color=RUN_COLORS[0]),
        matplotlib=dict(color="none", edgecolors=RUN_COLORS[0]),
    ),
    "full": dict(marker="diamond", size=6, color=RUN_COLORS[1], alpha=0.8),
    "factorised": dict(marker="triangle", size=7, color=RUN_COLORS[3], alpha=0.8),
}


def comparison_results(results) -> dict:
    """name ("sparse", "full", "factorised", …) → `ComparisonResult` from a ComparisonRun, one ComparisonResult or
    such a dict."""
    if hasattr(results, "full") and hasattr(results, "sampler"):  # a ComparisonRun
        named = (("sparse", results.sparse), ("full", results.full), ("factorised", results.factorised))
        return {name: r for name, r in named if r is not None}
    if hasattr(results, "pairs"):  # one ComparisonResult
        return {"full" if "full" in results.label else "sparse": results}
    if isinstance(results, dict) and results and all(hasattr(r, "pairs") for r in results.values()):
        return dict(results)
    raise TypeError(f"expected a ComparisonRun, a ComparisonResult or a dict of them, got {type(results).__name__}")


def _panels(results: dict) -> dict[str, str]:
    """The panels of these results, name → title: `PANELS` for two classes, for K ≥ 3 `CLASS_PANELS` (the
    logistic-softmax) or `STICK_PANELS` (stick-breaking, whose latent functions are the logits)."""
    if not any(getattr(r, "n_classes", 2) > 2 for r in results.values()):
        return PANELS
    return CLASS_PANELS if all(r.latent_per_class for r in results.values()) else STICK_PANELS


def mcmc_scatter(results, quantity: str) -> hv.Overlay:
    """One Fig. 1 panel: `quantity` ("mean", "variance" or "p(y=1)"; for K ≥ 3 classes "p(y=k)", every class in one
    panel) at the test points, MCMC (x) against each X-GPC variant (y, labelled by the result's label), over the
    dashed identity line."""
    results = comparison_results(results)
    panels = _panels(results)
    if quantity not in panels:
        raise ValueError(f"quantity must be one of {list(panels)}, got {quantity!r}")
    x = hv.Dimension("mcmc", label=f"MCMC (PG Gibbs): {panels[quantity]}")
    y = hv.Dimension("vi", label=f"X-GPC: {panels[quantity]}")
    scatters, low, high = [], np.inf, -np.inf
    for kind, result in results.items():
        mcmc, vi = result.pairs()[quantity]
        low, high = min(low, mcmc.min(), vi.min()), max(high, mcmc.max(), vi.max())
        style = MARKERS.get(kind, dict(marker="square", size=6, color=RUN_COLORS[2]))
        style = dict(style, bokeh=dict(style.get("bokeh", {}), tools=["hover"]))
        scatters.append(scatter((mcmc, vi), x, y, result.label, **style))
    identity = curve(
        ([low, high], [low, high]), x, y, "identity", "Identity", color="gray", line_width=1.5, dashed=True
    )
    # Bokeh: the legend below the axes, where it covers no point (inside, it sat on the posterior means' diagonal);
    # one column when a third variant's long label would not fit two to a row
    columns = 2 if len(results) <= 2 else 1
    return panel(
        [identity] + scatters,
        "Comparison",
        quantity,
        width=330,
        height=350 if columns == 2 else 420,
        title=panels[quantity],
        # the title names the quantity, the axes only the method: the labels fit a short plot (at 1024×768
        # "X-GPC: posterior variance of f*_k" was as long as the frame is high, and was clipped to "sterior mean…")
        xlabel="MCMC (PG Gibbs)",
        ylabel="X-GPC",
        bokeh=dict(legend_position="bottom", legend_cols=columns),
        matplotlib=dict(legend_position="top_left"),
    )


def mcmc_comparison(results) -> hv.Layout:
    """The paper's Fig. 1: posterior mean, variance and p(y=1) (K ≥ 3: p(y=k), every class) at the test points,
    X-GPC against MCMC, side by side (a Layout of three `mcmc_scatter` panels)."""
    results = comparison_results(results)
    return grid([mcmc_scatter(results, quantity) for quantity in _panels(results)], 3, matplotlib=dict(fig_size=150))


def mcmc_surfaces(
    surfaces: dict, *, train=None, train_labels=None, xlabel: str = "x1", ylabel: str = "x2"
) -> hv.Layout:
    """The decision surfaces side by side: surfaces = {"grid": (gx (nx,), gy (ny,)), name: p (ny, nx), …} (as the
    MCMC tab computes them: MCMC and sparse X-GPC; K ≥ 3 classes: every class's probabilities (ny, nx, K), drawn as
    the class colours mixed by probability), each with its 0.5 contour (K ≥ 3: the class boundaries) and the training
    points (n, 2) with labels (n,) class indices, on shared axes."""
    gx, gy = surfaces["grid"]
    shared = dict(train=train, train_labels=train_labels, xlabel=xlabel, ylabel=ylabel)
    panels = [
        decision_surface_from_arrays(
            gx, gy, p, title=f"{name}: p(y=1)" if np.ndim(p) == 2 else f"{name}: class probabilities", **shared
        )
        for name, p in surfaces.items()
        if name != "grid"
    ]
    panels = [sized(surface, width=460, height=380) for surface in panels]
    return grid(panels, len(panels), shared_axes=True, matplotlib=dict(fig_size=150))


def mcmc_traces(sampler_or_traces, *, burn_in: int | None = None) -> hv.Overlay:
    """The Gibbs sampler's log-likelihood Σ_i log σ(y_i f_i) (K ≥ 3: Σ_i log p(y_i | f_i)) per sweep, one curve per
    chain, the end of burn-in dashed. Takes a `GibbsSampler`, a `MulticlassGibbsSampler` or its `traces` array
    (chains, sweeps, k) whose [:, :, 0] is the log-likelihood."""
    traces = np.asarray(getattr(sampler_or_traces, "traces", sampler_or_traces), dtype=float)
    if traces.ndim != 3 or traces.shape[2] < 1:
        raise ValueError(f"traces must be (chains, sweeps, k), got shape {traces.shape}")
    burn_in = getattr(sampler_or_traces, "burn_in", 0) if burn_in is None else burn_in
    sweep = hv.Dimension("sweep", label="sweep")
    likelihood = "log σ(y f)" if getattr(sampler_or_traces, "n_classes", 2) == 2 else "log p(y | f)"
    value = hv.Dimension("log_likelihood", label=f"log-likelihood Σ {likelihood}")
    curves = [
        curve((np.arange(traces.shape[1]), chain), sweep, value, f"chain {c + 1}", line_width=1, alpha=0.8, color=color)
        for c, (chain, color) in enumerate(zip(traces[:, :, 0], cycle(RUN_COLORS)))
    ]
    shaded = (
        [styled(hv.VLine(burn_in, group="BurnIn", label="end of burn-in"), color="gray", line_width=1.5, dashed=True)]
        if burn_in
        else []
    )
    title = "PG Gibbs: log-likelihood per sweep, by chain"
    return panel(
        curves + shaded, "Gibbs", "log_likelihood", width=700, height=260, title=title, legend_position="right"
    )
