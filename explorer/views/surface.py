"""The decision surface as a HoloViews overlay: p(y=1) = ∫p(y=1|f)N(f|μ*,σ*²)df (`Model.predict_proba`, through the
method's own link), the predictive sd σ* of f* or the uncertainty on a grid, with the decision line and the points
(`decision_surface_from_arrays` says what each layer is; K ≥ 3 classes: README "Figures for notebooks and slides").

    decision_surface(model)                          # the model's current state
    surface_arrays(model) → dict                     # the same as plain arrays (a snapshot, e.g. one per iteration)
    decision_surface_from_arrays(**snapshot)         # … drawn again, e.g. as frames of a HoloMap animation
    surface_plane(model) → (plane, axes)             # the plane and grid, to keep fixed across snapshots

For d > 2 the plane is the dashboard's (`explorer.studies.plane.Projection`): the first two principal components
of the standardised training inputs, or two chosen features with the others at their training mean.
"""

from __future__ import annotations

import dataclasses

import holoviews as hv
import numpy as np

from explorer.studies import finish
from explorer.studies.plane import (
    FEATURES,
    MAX_SHOWN,
    PCA,
    Projection,
    class_boundaries,
    compute_surface,
    decision_contour,
    grid_axes,
    through_link,
)
from explorer.views.style import (
    PROBABILITY_CMAP,
    SD_CMAP,
    UNCERTAINTY_CMAP,
    class_colors,
    class_mixture,
    literal,
    plain_axis_labels,
    sized,
    styled,
)

QUANTITIES = {"probability": "p(y=1)", "sd": "predictive sd of f*", "uncertainty": "uncertainty (entropy / log K)"}
MULTICLASS_QUANTITIES = {**QUANTITIES, "probability": "class probabilities", "sd": "predictive sd of the predicted f*"}


def _plane(model, features) -> Projection:
    """The dashboard's plane for the model's training inputs: PCA for d > 2 unless `features` (two indices or
    names) are given; the two features of 2-D data."""
    d = model.X_train.shape[1]
    if features is None:
        return Projection(model.X_train, PCA if d > 2 else FEATURES, (0, min(1, d - 1)))
    names = list(model.feature_names)
    try:
        index = tuple(names.index(f) if isinstance(f, str) else int(f) for f in features)
    except ValueError:
        raise ValueError(f"features {features!r}: a name is not among the data's features {names}") from None
    if len(index) != 2 or not all(0 <= i < d for i in index):
        raise ValueError(f"features must be two column indices in [0, {d}) or names from {names}, got {features!r}")
    return Projection(model.X_train, FEATURES, index)


def _shown(n: int, most: int, rng: np.random.Generator) -> np.ndarray:
    return np.sort(rng.choice(n, most, replace=False)) if n > most else np.arange(n)


def surface_arrays(
    model,
    *,
    quantity: str = "probability",
    features=None,
    resolution: int = 80,
    max_points: int = MAX_SHOWN,
    plane: Projection | None = None,
    axes: tuple[np.ndarray, np.ndarray] | None = None,
    seed: int = 0,
    samples: int | None = None,
) -> dict:
    """The decision surface of `model` (an `explorer.model.Model`) as plain arrays, the keyword arguments of
    `decision_surface_from_arrays`: grid_x (nx,), grid_y (ny,), values (ny, nx) of `quantity`, probability (ny, nx) of
    class 1, train / test points (n, 2) in the plane with labels (n,) class indices (at most `max_points` each, a fixed
    sample by `seed`), misclassified (k, 2), inducing (m, 2), axis labels, class_names (K,) as text. For K ≥ 3
    classes probability is every class's (ny, nx, K), and so are the values of quantity "probability".

    Snapshots taken while a model trains share a grid when given the same `plane` and `axes`, e.g.
    `plane, axes = surface_plane(model)` before training; a HoloMap of `decision_surface_from_arrays(**snapshot)`
    over the iterations is then an animation. `samples`: quasi-Monte Carlo points of a K-class predictive (the
    logistic-softmax's, `likelihoods.LogisticSoftmax`), fewer than its own 1,024 for a cheaper picture (None: the
    link's own; a binary link's predictive is exact and ignores it)."""
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {list(QUANTITIES)}, got {quantity!r}")
    plane, axes = surface_plane(model, features=features, resolution=resolution, plane=plane, axes=axes)
    rng = np.random.default_rng(seed)
    train, test = _shown(len(model.y_train), max_points, rng), _shown(len(model.y_test), max_points, rng)
    link = model.engine.link  # the method's own link
    if samples is not None and hasattr(link, "samples"):
        link = dataclasses.replace(link, samples=samples)
    predict = through_link(model.predict_latent, link)
    surface = finish(
        compute_surface(
            predict,
            plane,
            axes,
            points=np.vstack([model.X_train[train], model.X_test[test]]),
            labels=np.concatenate([model.y_train[train], model.y_test[test]]),
            sd=quantity == "sd",
        )
    )
    xlabel, ylabel = plane.axis_names(list(model.feature_names))
    probability = surface.p if surface.n_classes == 2 else surface.probabilities
    values = {"probability": probability, "sd": surface.sd, "uncertainty": surface.uncertainty}[quantity]
    return {
        "grid_x": surface.x,
        "grid_y": surface.y,
        "values": values,
        "quantity": quantity,
        "probability": probability,
        "class_names": [str(c) for c in model.classes],
        "train": plane.to_plane(model.X_train[train]),
        "train_labels": model.y_train[train],
        "test": plane.to_plane(model.X_test[test]),
        "test_labels": model.y_test[test],
        "misclassified": surface.misclassified,
        "inducing": plane.to_plane(model.inducing_points),
        "xlabel": xlabel,
        "ylabel": ylabel,
    }


def surface_plane(
    model,
    *,
    features=None,
    resolution: int = 80,
    plane: Projection | None = None,
    axes: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[Projection, tuple]:
    """The plane (`Projection`) and grid axes ((nx,), (ny,)) the surface of `model` is drawn on: those given, else
    the dashboard's plane and a resolution × resolution grid over the training and test points plus 10% on each
    side (every point drawn lies on the image)."""
    if not isinstance(resolution, (int, np.integer)) or not 2 <= resolution <= 1000:
        raise ValueError(f"resolution must be an integer between 2 and 1000, got {resolution!r}")
    plane = plane if plane is not None else _plane(model, features)
    axes = axes if axes is not None else grid_axes(plane.to_plane(np.vstack([model.X_train, model.X_test])), resolution)
    return plane, axes


def _in_plane(points) -> np.ndarray:
    """Points in the plane as floats (n, 2); None: none, (0, 2)."""
    return np.zeros((0, 2)) if points is None else np.asarray(points, dtype=float).reshape(-1, 2)


def _points(
    points,
    labels,
    x: hv.Dimension,
    y: hv.Dimension,
    label: str,
    marker: str,
    size: float,
    alpha: float,
    colors: dict,
    names: list[str] | None = None,
) -> hv.Points | hv.Overlay:
    """Points (n, 2) coloured by class (labels (n,) class indices) by `colors` (class index → colour); with the
    class `names` (K,), one element per class labelled "class <name>", so that the legend names the classes."""
    points = _in_plane(points)
    labels = np.zeros(0) if labels is None else np.asarray(labels, dtype=float)
    if len(labels) != len(points):
        raise ValueError(f"{label}: {len(points)} points but {len(labels)} labels")
    if names is not None:
        return hv.Overlay(
            [
                _points(points[labels == k], labels[labels == k], x, y, f"class {name}", marker, size, alpha, colors)
                for k, name in enumerate(names)
            ]
        )
    element = hv.Points(
        (points[:, 0], points[:, 1], labels), kdims=[x, y], vdims=[hv.Dimension("class", label="class")], label=label
    )
    color = hv.dim("class").categorize(colors, default="gray")
    return styled(
        element,
        color=color,
        alpha=alpha,
        marker=marker,
        size=size,
        bokeh=dict(line_color="white", line_width=0.5, tools=["hover"]),
        matplotlib=dict(edgecolors="white", linewidth=0.5),
    )


def decision_surface_from_arrays(
    grid_x,
    grid_y,
    values,
    *,
    quantity: str = "probability",
    probability=None,
    train=None,
    train_labels=None,
    test=None,
    test_labels=None,
    misclassified=None,
    inducing=None,
    xlabel: str = "x1",
    ylabel: str = "x2",
    title: str | None = None,
    class_names=None,
) -> hv.Overlay:
    """The surface picture from arrays: `values` (ny, nx) on the grid grid_x (nx,) × grid_y (ny,) (evenly spaced)
    as an image — p(y=1) on a blue–red scale from 0 to 1, (quantity "sd") the predictive sd on viridis from 0, or
    ("uncertainty") the entropy / log K on magma from 0 to 1 — with the p = 0.5 contour of `probability` (ny, nx;
    default `values` when they are p), points (n, 2) with labels (class indices 0…K−1), misclassified (k, 2),
    inducing (m, 2).

    K ≥ 3 classes: `probability` (and the values of quantity "probability") are every class's (ny, nx, K); the
    probability image is the class colours mixed by probability (an `hv.RGB`), the line the class boundaries, the
    training points one legend entry per class named by `class_names` (K,) (default 0…K−1). Returns
    Image (or RGB) * Path * Points… (an `hv.Overlay`)."""
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {list(QUANTITIES)}, got {quantity!r}")
    gx, gy, values = np.asarray(grid_x, float), np.asarray(grid_y, float), np.asarray(values, float)
    if values.shape[:2] != (len(gy), len(gx)) or values.ndim not in (2, 3):
        raise ValueError(
            f"values have shape {values.shape}, the grid needs (len(grid_y), len(grid_x)) = ({len(gy)}, {len(gx)})"
        )
    if probability is None:
        probability = values if quantity == "probability" else None
    probability = None if probability is None else np.asarray(probability, float)
    K = probability.shape[2] if probability is not None and probability.ndim == 3 else 2
    if quantity == "probability" and (values.ndim == 3) != (K > 2):
        raise ValueError(f"probability values for K ≥ 3 classes are (ny, nx, K), got shape {values.shape}")
    names = [str(k) for k in range(K)] if class_names is None else [str(c) for c in class_names]
    if len(names) != K:
        raise ValueError(f"{len(names)} class names for {K} classes")
    labels = QUANTITIES if K == 2 else MULTICLASS_QUANTITIES
    x, y = hv.Dimension("x", label=literal(xlabel)), hv.Dimension("y", label=literal(ylabel))
    if K > 2 and quantity == "probability":
        image = styled(
            hv.RGB(
                (gx, gy, *np.moveaxis(class_mixture(values), 2, 0)),
                kdims=[x, y],
                group="Surface",
                label=labels[quantity],
            ),
            show_legend=False,  # the legend names the classes by their points' colours
        )
    else:
        z = hv.Dimension(
            {"probability": "p", "sd": "sd", "uncertainty": "uncertainty"}[quantity], label=labels[quantity]
        )
        top = 1.0 if quantity != "sd" else max(float(np.nanmax(values)), 1e-12)
        cmap = {"probability": PROBABILITY_CMAP, "sd": SD_CMAP, "uncertainty": UNCERTAINTY_CMAP}[quantity]
        image = styled(
            hv.Image((gx, gy, values), kdims=[x, y], vdims=[z], group="Surface", label=labels[quantity]),
            cmap=cmap,
            clim=(0.0, top),
            colorbar=True,
            bokeh=dict(tools=["hover"]),
        )
    if probability is None:
        line = np.zeros((0, 2))
    else:
        line = decision_contour(gx, gy, probability) if K == 2 else class_boundaries(gx, gy, probability)
    contour = styled(
        hv.Path([line], kdims=[x, y], group="Contour", label="p(y=1) = 0.5" if K == 2 else "class boundaries"),
        color="black",
        line_width=2.5,
    )
    crosses = hv.Points(_in_plane(misclassified), kdims=[x, y], group="Misclassified", label="misclassified")
    crosses = styled(crosses, color="black", marker="x", size=9, line_width=2)
    squares = styled(
        hv.Points(_in_plane(inducing), kdims=[x, y], group="Inducing", label="inducing points"),
        marker="square",
        size=9,
        line_width=2.5,
        bokeh=dict(fill_alpha=0.0, line_color="gold"),
        matplotlib=dict(color="none", edgecolors="gold"),
    )
    colors = dict(enumerate(class_colors(K)))  # binary: blue 0 (the −1 class), red 1 (the +1 class)
    training = _points(
        train, train_labels, x, y, "training points", "circle", 6, 1.0, colors, None if K == 2 else names
    )
    testing = _points(test, test_labels, x, y, "test points", "triangle", 8, 0.8, colors)
    # a layer with nothing to draw has no legend entry (the MCMC surfaces have no test points, crosses or inducing
    # points: the legend listed them with no glyph)
    layers = [styled(layer, show_legend=False) if len(layer) == 0 else layer for layer in (testing, crosses, squares)]
    overlay = image * contour * training * hv.Overlay(layers)
    line_name = "the p = 0.5 contour" if K == 2 else "the class boundaries"
    overlay = styled(
        overlay,
        title=title or f"{labels[quantity]} with {line_name}",
        legend_position="bottom",
        bokeh=dict(legend_cols=4),
        matplotlib=dict(legend_cols=2),
    )
    return sized(plain_axis_labels(overlay, xlabel, ylabel), width=620, height=560)


def decision_surface(
    model,
    *,
    quantity: str = "probability",
    features=None,
    resolution: int = 80,
    max_points: int = MAX_SHOWN,
    title: str | None = None,
) -> hv.Overlay:
    """The decision surface of `model` at its current state: p(y=1) (quantity "probability"), the predictive sd
    of f* ("sd") or the uncertainty (entropy / log K) on a resolution² grid, with the 0.5 contour, train/test
    points, misclassified and inducing points; for K ≥ 3 classes the class colours mixed by probability, the class
    boundaries and a legend naming the classes. Compose it: `decision_surface(m) + traces`.

    Parameters
    ----------
    model : explorer.Model
        The run to draw, at its current state.
    quantity : {"probability", "sd", "uncertainty"}, default "probability"
        p(y=1) (K ≥ 3: every class's, as mixed colours), the predictive sd of f* (K ≥ 3: of the predicted class's),
        or the entropy of the class probabilities over log K.
    features : None or two ints or names, optional
        None (2-D data: its two features; d > 2: the first two principal components) or two feature indices or
        names (the other features at their training mean).
    resolution : int, default 80
        Grid points per axis (2…1000).
    max_points : int, default MAX_SHOWN
        Most training (and test) points drawn (a fixed sample of larger sets).
    title : str, optional
        The panel's title.

    Returns
    -------
    holoviews.Overlay
        The image (K ≥ 3 probabilities: an RGB), the p = 0.5 contour or class boundaries, and the points.

    Examples
    --------
    >>> from explorer import Model, views
    >>> model = Model(dataset="moons", n_points=100, n_inducing=10)
    >>> _ = model.step(20)
    >>> overlay = views.decision_surface(model, resolution=20)
    >>> [type(layer).__name__ for layer in overlay]  # the image, the contour, train, test, misclassified, inducing
    ['Image', 'Path', 'Points', 'Points', 'Points', 'Points']
    >>> overlay.get(0).dimension_values(2, flat=False).shape  # p on the 20 × 20 grid
    (20, 20)
    """
    snapshot = surface_arrays(model, quantity=quantity, features=features, resolution=resolution, max_points=max_points)
    return decision_surface_from_arrays(**snapshot, title=title)
