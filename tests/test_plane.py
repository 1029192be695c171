"""The plane's surface (`explorer.studies.plane.compute_surface`), computed in blocks, against a brute-force prediction
at each grid point and each point, one at a time; `Model.surface` on it."""

import math

import numpy as np
import pytest
from scipy.interpolate import RegularGridInterpolator

from explorer.kernels import RBF
from explorer.likelihoods import class_probabilities
from explorer.model import Model
from explorer.recipe import full_batch_engine
from explorer.studies import finish
from explorer.studies.plane import (
    PCA,
    UNDECIDED,
    Projection,
    compute_surface,
    grid_axes,
    through_link,
)


@pytest.fixture(scope="module")
def engine_3d():
    """A sparse X-GPC on 3-D inputs after a few coordinate-ascent sweeps, and its training data."""
    rng = np.random.default_rng(11)
    X = rng.standard_normal((80, 3))
    y = (X[:, 0] - X[:, 2] + 0.3 * rng.standard_normal(80) > 0).astype(np.int64)  # class indices
    engine = full_batch_engine("xgpc", X, y, X[:12], RBF(1.5, 2.0))
    engine.step(5)
    return engine, X, y


def test_the_surface_is_the_prediction_at_each_grid_point_and_point(engine_3d):
    engine, X, y = engine_3d
    projection = Projection(X, PCA)
    gx, gy = grid_axes(projection.to_plane(X), 5)
    gy = gy[:4]  # a grid that is not square: rows are y, columns x
    points, labels = X[:30], y[:30]
    steps = compute_surface(
        through_link(engine.predict_latent, engine.link),
        projection,
        (gx, gy),
        points=points,
        labels=labels,
        sd=True,
        block=3,
    )
    fractions = []
    surface = finish(steps, fractions.append)

    def one(x):
        mean, var = engine.predict_latent(x[None, :])
        return engine.predict_proba(x[None, :])[0, 1], math.sqrt(var[0])  # p(class 1)

    brute = np.array([[one(projection.from_plane(np.array([[u, v]]))[0]) for u in gx] for v in gy])
    assert surface.p.shape == surface.sd.shape == (4, 5)
    np.testing.assert_allclose(surface.p, brute[..., 0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(surface.sd, brute[..., 1], rtol=1e-12)
    p_points = np.array([one(x)[0] for x in points])
    wrong = np.where(labels == 1, p_points < 0.5 - UNDECIDED, p_points > 0.5 + UNDECIDED)
    assert 0 < wrong.sum() < len(points)  # the check below compares a real selection
    np.testing.assert_allclose(surface.misclassified, projection.to_plane(points[wrong]), rtol=1e-12)
    # the contour runs where the grid's p, interpolated linearly, is ½
    vertices = surface.contour[~np.isnan(surface.contour[:, 0])]
    assert len(vertices) > 0
    interpolate = RegularGridInterpolator((gy, gx), brute[..., 0])
    np.testing.assert_allclose(interpolate(vertices[:, ::-1]), 0.5, atol=1e-9)
    # progress: the share of rows done after each block of 3 of the 20 + 30 rows, rising to 1
    assert len(fractions) == math.ceil(50 / 3) and fractions[-1] == 1.0
    assert all(a < b for a, b in zip(fractions, fractions[1:]))


def test_a_predictor_without_variance_gives_p_and_no_sd():
    """The Gibbs sampler's surface has p only: its prediction function returns no variance."""
    X = np.random.default_rng(2).standard_normal((10, 2))
    projection = Projection(X)
    axes = grid_axes(X, 3)
    surface = finish(
        compute_surface(lambda Z: (class_probabilities(1.0 / (1.0 + np.exp(-Z[:, 0]))), None), projection, axes)
    )
    xx, _ = np.meshgrid(*axes)
    np.testing.assert_allclose(surface.p, 1.0 / (1.0 + np.exp(-xx)), rtol=1e-15)
    assert surface.sd is None and surface.misclassified.shape == (0, 2)
    with pytest.raises(ValueError, match="3 points but 2 labels"):
        finish(
            compute_surface(
                lambda Z: (class_probabilities(Z[:, 0]), None), projection, axes, points=X[:3], labels=[1, 0]
            )
        )


def test_model_surface_is_the_models_prediction_with_the_other_features_at_their_mean():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((120, 3)) * [1.0, 3.0, 0.5] + [0.0, 2.0, -1.0]
    y = np.where(X[:, 0] + X[:, 2] > -1.0, 1, 0)
    model = Model(n_inducing=10)
    model.set_data(X, y, name="three features")
    model.step(30)
    surface = model.surface(resolution=4, features=(2, 0))
    lo, hi = model.X_train.min(0), model.X_train.max(0)
    pad = 0.1 * (hi - lo)
    np.testing.assert_allclose(surface["x"], np.linspace(lo[2] - pad[2], hi[2] + pad[2], 4))
    np.testing.assert_allclose(surface["y"], np.linspace(lo[0] - pad[0], hi[0] + pad[0], 4))
    for r, v in enumerate(surface["y"]):
        for c, u in enumerate(surface["x"]):
            x = model.X_train.mean(0)
            x[2], x[0] = u, v
            mean, var = model.predict_latent(x[None, :])
            assert surface["p"][r, c] == pytest.approx(model.predict_proba(x[None, :])[0, 1], rel=1e-12)
            assert surface["sd"][r, c] == pytest.approx(math.sqrt(var[0]), rel=1e-12)
