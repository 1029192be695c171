"""The plane of a 2-D picture of a classifier: the projection of the inputs onto two coordinates (two features, or the
first two principal components of the standardised training inputs), the grid over it, the p = ½ contour and the
misclassified points. Headless (numpy and contourpy): the decision-surface views, the Train tab's live surface and
the MCMC comparison's surfaces all place their pictures with it.
"""

from __future__ import annotations

import contourpy
import numpy as np

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
    if np.ptp(p) < 1e-3:
        return np.zeros((0, 2))
    pieces = [np.vstack([line, [np.nan, np.nan]]) for line in contourpy.contour_generator(gx, gy, p).lines(0.5)]
    return np.concatenate(pieces) if pieces else np.zeros((0, 2))


def misclassified(P: np.ndarray, y: np.ndarray, margin: float = UNDECIDED) -> np.ndarray:
    """Mask (n,) of points whose class probabilities P (n, K) put another class above their label y (n,) (class
    indices) by more than 2·`margin` (binary: p(class 1) on the wrong side of ½ by more than `margin`). Points the
    model is undecided about (every point of an untrained model, where p = ½ exactly) are not marked, so a fresh
    plot shows each point's class instead of a cross."""
    P = np.asarray(P, dtype=float)
    y = np.asarray(y, dtype=np.intp)
    return P[np.arange(len(y)), y] < P.max(axis=1) - 2.0 * margin
