"""The plane of a 2-D picture of a classifier: the projection of the inputs onto two coordinates (two features, or the
first two principal components of the standardised training inputs), the grid over it, the p = ½ contour (K ≥ 3
classes: the class boundaries, where the most probable class changes) and the misclassified points, and the surface
itself (`compute_surface`: a model's class probabilities, their uncertainty, and the sd of f* if asked, on the grid,
computed in blocks of rows as a generator). Headless (numpy and contourpy): `Model.surface`, the
decision-surface views, the Train tab's live surface and the MCMC comparison's surfaces all compute their pictures
with it.

    predict = through_link(model.predict_latent, model.engine.link)      # X (n, d) → p(y=1) (n,), var (n,)
    surface = finish(compute_surface(predict, Projection(X_train), grid_axes(points, 80), sd=True))
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

import contourpy
import numpy as np
from scipy import special

from explorer.metrics import predicted_class

BLOCK = 512  # rows per prediction call (see `compute_surface`)
MAX_SHOWN = 2500  # points drawn (and checked for misclassification) per part; larger sets show a fixed sample
PCA = "first two principal components"
FEATURES = "two features"
UNDECIDED = 1e-3  # |p − ½| up to this is "no prediction yet": such points are not crossed out as misclassified


class Projection:
    """Maps raw inputs (n, d) to plot coordinates (n, 2) and back: two features (i, j), or the first two principal
    components of the training inputs standardised with their mean and std. d = 1 plots x1 against a dummy axis."""

    def __init__(self, X_train: np.ndarray, kind: str = FEATURES, features: tuple[int, int] = (0, 1)):
        self.d = X_train.shape[1]
        self.mean = X_train.mean(axis=0)
        std = X_train.std(axis=0)
        self.scale = np.where(std > 0, std, 1.0)
        self.kind = kind if self.d > 2 else FEATURES
        self.features = features if self.d >= 2 else (0, None)
        if self.kind == PCA:
            _, _, Vt = np.linalg.svd((X_train - self.mean) / self.scale, full_matrices=False)
            self.basis = Vt[:2].T  # (d, 2), orthonormal in standardised units

    def axis_names(self, feature_names: list[str]) -> tuple[str, str]:
        """The plane's two axis titles: the two features' names, or the principal components (d = 1: a dummy)."""
        if self.kind == PCA:
            return "PC 1 (standardised)", "PC 2 (standardised)"
        i, j = self.features
        return feature_names[i], feature_names[j] if j is not None else "(no second feature)"

    def to_plane(self, X: np.ndarray) -> np.ndarray:
        """(n, d) raw → (n, 2)."""
        if self.kind == PCA:
            return ((X - self.mean) / self.scale) @ self.basis
        i, j = self.features
        return np.c_[X[:, i], X[:, j] if j is not None else np.zeros(len(X))]

    def from_plane(self, P: np.ndarray) -> np.ndarray:
        """(n, 2) plane → (n, d) raw inputs (off-plane coordinates at the training mean)."""
        if self.kind == PCA:
            return self.mean + (P @ self.basis.T) * self.scale
        X = np.tile(self.mean, (len(P), 1))
        i, j = self.features
        X[:, i] = P[:, 0]
        if j is not None:
            X[:, j] = P[:, 1]
        return X


def grid_axes(points: np.ndarray, resolution: int, margin: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Two (resolution,) axes spanning the points' range (n, 2) plus `margin` of it on each side."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    lo, hi = lo - margin * span, hi + margin * span
    return np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution)


def decision_contour(gx: np.ndarray, gy: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The p = 0.5 level lines of p (ny, nx) on the grid as one (k, 2) array, pieces separated by NaN rows (one
    HoloViews path: hundreds of separate pieces render slowly). Empty while p is flat at ½ (an untrained model)."""
    return _joined(contourpy.contour_generator(gx, gy, p).lines(0.5) if np.ptp(p) >= 1e-3 else [])


def _joined(lines: list[np.ndarray]) -> np.ndarray:
    """Level lines (each (k_i, 2)) as one (k, 2) array, a NaN row after each piece; (0, 2) for none."""
    return np.concatenate([np.vstack([line, [np.nan, np.nan]]) for line in lines]) if lines else np.zeros((0, 2))


def class_boundaries(gx: np.ndarray, gy: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Where the most probable class changes, for class probabilities P (ny, nx, K) on the grid: the zero lines of
    d_k = p_k − max_{j≠k} p_j for each class k (d_k > 0 exactly where k is the most probable class), as one (k, 2)
    array with NaN rows between pieces, as `decision_contour`. A boundary between classes a and b is the zero line
    of both d_a and d_b, so it is traced twice (the same line, up to the grid's linear interpolation). Empty while P
    is flat (an untrained model: every p_k = 1/K)."""
    P = np.asarray(P, dtype=float)
    if np.ptp(P) < 1e-3:
        return np.zeros((0, 2))
    margins = [P[..., k] - np.delete(P, k, axis=2).max(axis=2) for k in range(P.shape[2])]
    return _joined([line for margin in margins for line in contourpy.contour_generator(gx, gy, margin).lines(0)])


def normalised_entropy(P: np.ndarray) -> np.ndarray:
    """The uncertainty of class probabilities P (..., K): their entropy −Σ_k p_k log p_k divided by log K, in [0, 1]
    for every K: 0 where one class is certain, 1 only where all K are equally likely (`Surface` says why this one)."""
    P = np.asarray(P, dtype=float)
    return np.clip(special.entr(P).sum(axis=-1) / np.log(P.shape[-1]), 0.0, 1.0)  # entr: −p log p, 0 at p = 0


def misclassified(P: np.ndarray, y: np.ndarray, margin: float = UNDECIDED) -> np.ndarray:
    """Mask (n,) of points whose class probabilities P (n, K) put another class above their label y (n,) (class
    indices) by more than 2·`margin` (binary: p(class 1) on the wrong side of ½ by more than `margin`). Points the
    model is undecided about (every point of an untrained model, where p = ½ exactly) are not marked, so a fresh
    plot shows each point's class instead of a cross."""
    P = np.asarray(P, dtype=float)
    y = np.asarray(y, dtype=np.intp)
    return P[np.arange(len(y)), y] < P.max(axis=1) - 2.0 * margin


Predict = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]]
"""A prediction function: raw inputs X (n, d) → the class probabilities (n, K) and the predictive variance of f*
((n,) for a binary model's one latent function, (n, K) for K ≥ 3 latent functions), the latter needed only for a
surface with sd (a predictor that has none, such as the Gibbs sampler's, returns None)."""


def through_link(predict_latent: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], link) -> Predict:
    """The prediction function of a model whose class probabilities p(y* = k) = ∫ p(y* = k | f) q(f*) df* go
    through its link (every engine; `link` a `likelihoods` link such as `engine.link`): one call of predict_latent
    (X (n, d) → mean, var (n,), or (n, K) for K ≥ 3) gives both the probabilities (n, K) and the variance. A link
    whose latent functions are not one per class (the stick-breaking one's K − 1 logits) maps their variances to one
    per class by its `variance_per_class` (n, K)."""

    per_class = getattr(link, "variance_per_class", None)  # a link without one latent function per class (K ≥ 3)

    def predict(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mean, var = predict_latent(X)
        return link.predictive(mean, var), var if per_class is None else per_class(var)

    return predict


@dataclass(frozen=True)
class Surface:
    """A model's surface on the grid x (nx,) × y (ny,): p(class 1) (ny, nx) (the binary picture), the predictive sd
    of f* (ny, nx; None when not asked for), the decision contour (k, 2) — the p = ½ line for two classes
    (`decision_contour`), the class boundaries for K ≥ 3 (`class_boundaries`) — the misclassified points among those
    given, in plane coordinates (j, 2), every class's probability (ny, nx, K), and the uncertainty (ny, nx), the
    `normalised_entropy` of the class probabilities.

    The sd for K ≥ 3 classes is that of the predicted class's latent function: at each grid point, the sd of f*_k
    for the k with the highest p(y* = k). (One number per point, as for two classes, where it is the sd of the one
    f*; it says how sure the model is of the function that decides the point.)

    Why entropy for the uncertainty rather than 1 − max_k p_k: it uses the whole distribution, so a point torn
    between two classes (log 2 / log 3 ≈ 0.63 at K = 3) reads differently from one torn between all three (1), where
    1 − max p gives 0.5 and 0.67, and its scale runs from 0 to 1 for every K (1 − max p tops out at 1 − 1/K)."""

    x: np.ndarray
    y: np.ndarray
    p: np.ndarray
    sd: np.ndarray | None
    contour: np.ndarray
    misclassified: np.ndarray
    probabilities: np.ndarray
    uncertainty: np.ndarray

    @property
    def n_classes(self) -> int:
        """K, the number of classes."""
        return self.probabilities.shape[2]


def compute_surface(
    predict: Predict,
    projection: Projection,
    axes: tuple[np.ndarray, np.ndarray],
    *,
    points: np.ndarray | None = None,
    labels: np.ndarray | None = None,
    sd: bool = False,
    block: int = BLOCK,
) -> Generator[float, None, Surface]:
    """The surface of `predict` on the grid `axes` = (gx (nx,), gy (ny,)) of the `projection`'s plane, as a
    generator: it predicts the grid's nx·ny inputs (`projection.from_plane`, raw units) and then the raw `points`
    (n, d) with labels (n,) (class indices) in blocks of `block` rows, yields the share of rows done after each block
    (increasing, 1.0 last), and returns the `Surface` (run it to the end with `explorer.studies.finish`).

    Blocks keep each prediction call short: an engine's triangular solves hold the GIL for a whole call (≈ 70 ms
    for 4,096 rows at m = 950), and the dashboard computes surfaces beside the server's event loop."""
    if block < 1:
        raise ValueError(f"block must be at least 1 row, got {block!r}")
    gx, gy = axes
    xx, yy = np.meshgrid(gx, gy)
    grid = projection.from_plane(np.c_[xx.ravel(), yy.ravel()])
    points = np.zeros((0, grid.shape[1])) if points is None else np.asarray(points, dtype=float)
    labels = np.zeros(0) if labels is None else np.asarray(labels)
    if len(labels) != len(points):
        raise ValueError(f"{len(points)} points but {len(labels)} labels")
    rows = np.vstack([grid, points])
    parts, variances = [], []
    for start in range(0, len(rows), block):
        part = slice(start, min(start + block, len(rows)))
        P, v = predict(rows[part])
        parts.append(P)
        if sd:
            variances.append(v)
        yield part.stop / len(rows)
    cells = len(grid)
    P = np.concatenate(parts)
    P_grid = P[:cells].reshape(*xx.shape, P.shape[1])
    p_grid = np.ascontiguousarray(P_grid[..., 1])  # p(class 1)
    wrong = points[misclassified(P[cells:], labels)]
    return Surface(
        x=gx,
        y=gy,
        p=p_grid,
        sd=_predicted_sd(np.concatenate(variances)[:cells], P[:cells]).reshape(xx.shape) if sd else None,
        contour=decision_contour(gx, gy, p_grid) if P.shape[1] == 2 else class_boundaries(gx, gy, P_grid),
        misclassified=projection.to_plane(wrong) if len(wrong) else np.zeros((0, 2)),
        probabilities=P_grid,
        uncertainty=normalised_entropy(P_grid),
    )


def _predicted_sd(var: np.ndarray, P: np.ndarray) -> np.ndarray:
    """The sd of f* (n,) from its variance: var (n,) of the one latent function, or (n, K) of K, of which the
    predicted class's (`explorer.metrics.predicted_class` of P (n, K)) is taken (`Surface`)."""
    if var.ndim == 2:
        var = var[np.arange(len(var)), predicted_class(P)]
    return np.sqrt(np.maximum(var, 0.0))
