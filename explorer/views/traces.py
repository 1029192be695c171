"""Training traces as a HoloViews layout: one panel per quantity (ELBO, test NLL, test error, step size ρ, kernel
parameters) against training time, with several runs overlaid and labelled.

    training_traces(model.history)                                   # one run
    training_traces(h1, h2, labels=["m = 20", "m = 50"])             # runs overlaid
    training_traces(model, quantities=("test_nll",), x="iteration")  # a Model stands for its history (`history_columns`)
"""

from __future__ import annotations

from itertools import cycle

import holoviews as hv
import numpy as np

from explorer.views.style import RUN_COLORS, curve, grid, panel

KERNEL_PARAMETERS = ("lengthscale", "variance")
DEFAULT_QUANTITIES = ("elbo", "test_nll", "test_error", "rho") + KERNEL_PARAMETERS
LABELS = {
    "elbo": "ELBO",
    "test_nll": "test negative log-likelihood",
    "test_error": "test error rate",
    "rho": "step size ρ",
    "lengthscale": "lengthscale ℓ (geometric mean under ARD)",
    "variance": "variance σ²",
    "seconds": "training time (s, evaluation excluded)",
    "iteration": "iteration",
}
AXIS_LABELS = {"lengthscale": "lengthscale ℓ"}  # shorter than the title where the title explains more
LOG_SCALE = {"rho", "lengthscale", "variance"}  # positive quantities that change by orders of magnitude


def history_columns(history) -> dict[str, np.ndarray]:
    """name → (rows,) float array of a `training.History`, a `Model` (its history) or a dict of columns."""
    history = getattr(history, "history", history)  # a Model
    if hasattr(history, "columns") and hasattr(history, "column"):  # a training.History
        return {name: history.column(name) for name in history.columns}
    if isinstance(history, dict):
        return {name: np.asarray(values, dtype=float) for name, values in history.items()}
    raise TypeError(f"a history must be a training.History, a Model or a dict of columns, got {type(history).__name__}")


def _label(name: str) -> str:
    if name.startswith("lengthscale_"):
        return f"lengthscale ℓ_{name.removeprefix('lengthscale_')}"
    return LABELS.get(name, name)


def training_traces(
    *histories, quantities=DEFAULT_QUANTITIES, labels=None, x: str = "seconds", cols: int = 2
) -> hv.Layout:
    """A Layout with one Overlay per quantity (a column name of the histories, e.g. "elbo", "test_nll",
    "test_error", "rho", "lengthscale", "variance", "lengthscale_1"), each holding one Curve per history against `x`
    ("seconds": training time, evaluation excluded; or "iteration"). Runs are labelled `labels` (default "run 1",
    "run 2", …) and coloured alike in every panel; ρ and kernel parameters on a log axis. A quantity a history lacks
    (e.g. ρ of an Adam run) is left out of that panel; a run with no rows yet (fresh, or just reset) gets empty
    curves, so its panels are drawn with their titles and axis labels.

    Parameters
    ----------
    *histories : Model, Trainer, training.History or dict of column arrays
        The runs to draw (anything `history_columns` reads).
    quantities : sequence of str, default DEFAULT_QUANTITIES
        The columns to draw, one panel each.
    labels : sequence of str, optional
        The runs' legend labels.
    x : {"seconds", "iteration"}, default "seconds"
        The horizontal axis.
    cols : int, default 2
        Panels per row.

    Returns
    -------
    holoviews.Layout

    Raises
    ------
    ValueError
        No history, as many labels as histories not given, or another `x`.

    Examples
    --------
    >>> from explorer import Model, views
    >>> model = Model(dataset="xor", n_points=100, n_inducing=10)
    >>> _ = model.step(30)
    >>> layout = views.training_traces(model, quantities=("elbo", "test_nll"))
    >>> len(layout)
    2
    """
    if not histories:
        raise ValueError("training_traces needs at least one history")
    labels = list(labels) if labels is not None else [f"run {k + 1}" for k in range(len(histories))]
    if len(labels) != len(histories):
        raise ValueError(f"{len(histories)} histories but {len(labels)} labels")
    if x not in ("seconds", "iteration"):
        raise ValueError(f"x must be 'seconds' or 'iteration', got {x!r}")
    runs = [history_columns(h) for h in histories]
    x_dim = hv.Dimension(x, label=LABELS[x])
    panels = []
    for quantity in quantities:
        y_dim = hv.Dimension(quantity, label=AXIS_LABELS.get(quantity, _label(quantity)))
        logy = quantity in LOG_SCALE or quantity.startswith("lengthscale_")
        style = dict(line_width=2, logy=logy, bokeh=dict(tools=["hover"]))
        curves = [
            curve((run[x], run[quantity]), x_dim, y_dim, label, color=color, **style)
            for run, label, color in zip(runs, labels, cycle(RUN_COLORS))
            if quantity in run and (len(run[quantity]) == 0 or np.isfinite(run[quantity]).any())
        ]
        if not curves:
            raise ValueError(f"no history has values of {quantity!r} (columns: {sorted(runs[0])})")
        overlay = panel(
            curves,
            "Trace",
            quantity,
            height=280,
            title=_label(quantity),
            logy=logy,
            bokeh=dict(show_legend=len(histories) > 1),
            # static files: the title names the quantity; one legend, beside the first panel, not on every panel's
            # curves
            matplotlib=dict(ylabel="", show_legend=len(histories) > 1 and not panels, legend_position="right"),
        )
        panels.append(overlay)
    return grid(panels, cols, matplotlib=dict(hspace=0.45, vspace=0.5))
