"""The plane's surface (`explorer.studies.plane.compute_surface`), computed in blocks, against a brute-force prediction
at each grid point and each point, one at a time; `Model.surface` on it."""

import math

import numpy as np
import pytest
from scipy.interpolate import RegularGridInterpolator

from explorer.data import datasets
from explorer.kernels import RBF
from explorer.likelihoods import class_probabilities
from explorer.metrics import predicted_class
from explorer.model import Model
from explorer.run import full_batch_engine
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


# --------------------------------------------------------------------------------------------------- K ≥ 3 classes

CENTRES = np.array([[0.0, 1.0], [-1.0, -0.5], [1.2, -0.4]])  # class k's region: the points nearest CENTRES[k]


def nearest_centre_predictor(X):
    """Class probabilities (n, 3) softmax(−‖x − c_k‖² / 0.3), most probable where c_k is nearest (the Voronoi cells of
    CENTRES), and the variance (n, 3) of f*_k: (k + 1)², so the sd of the predicted class k is k + 1."""
    scores = -((X[:, None, :] - CENTRES[None]) ** 2).sum(axis=2) / 0.3
    P = np.exp(scores - scores.max(axis=1, keepdims=True))
    return P / P.sum(axis=1, keepdims=True), np.tile([1.0, 4.0, 9.0], (len(X), 1))


def test_three_class_boundaries_lie_where_the_nearest_centre_changes():
    axes = (np.linspace(-2.0, 2.0, 81), np.linspace(-2.0, 2.0, 71))
    points = np.array([[0.0, 0.9], [0.1, 1.1], [-1.0, -0.6], [1.1, -0.5]])
    labels = np.array([0, 2, 1, 0])  # the second and last lie in another class's region
    surface = finish(
        compute_surface(nearest_centre_predictor, Projection(points), axes, points=points, labels=labels, sd=True)
    )
    assert surface.n_classes == 3 and surface.probabilities.shape == (71, 81, 3)
    xx, yy = np.meshgrid(*axes)
    grid = np.c_[xx.ravel(), yy.ravel()]
    np.testing.assert_allclose(surface.probabilities.reshape(-1, 3), nearest_centre_predictor(grid)[0], rtol=1e-12)
    np.testing.assert_allclose(surface.p, surface.probabilities[..., 1])
    # every boundary vertex is equidistant from its two nearest centres, up to the grid's linear interpolation
    # (a few thousandths; a third of a grid cell where the three regions meet, at the kink of max_{j≠k} p_j) …
    cell = 4.0 / 70
    vertices = surface.contour[~np.isnan(surface.contour[:, 0])]
    distance = np.sort(np.linalg.norm(vertices[:, None, :] - CENTRES[None], axis=2), axis=1)
    assert len(vertices) > 100
    np.testing.assert_allclose(distance[:, 0], distance[:, 1], atol=cell / 3)
    assert np.median(np.abs(distance[:, 0] - distance[:, 1])) < 1e-3
    # … and every stretch of the three Voronoi edges inside the grid has a vertex beside it
    for a, b in ((0, 1), (0, 2), (1, 2)):
        midpoint, normal = (CENTRES[a] + CENTRES[b]) / 2, CENTRES[b] - CENTRES[a]
        along = np.array([-normal[1], normal[0]]) / np.linalg.norm(normal)
        edge = midpoint + np.linspace(-4, 4, 801)[:, None] * along
        d = np.linalg.norm(edge[:, None, :] - CENTRES[None], axis=2)
        on_edge = edge[(np.min(np.delete(d, [a, b], axis=1), axis=1) > d[:, a] + 0.05) & np.all(np.abs(edge) < 1.95, 1)]
        assert len(on_edge) > 20
        gap = np.min(np.linalg.norm(on_edge[:, None, :] - vertices[None], axis=2), axis=1)
        assert gap.max() < cell
    # the sd is the predicted (nearest) class's: k + 1
    d = np.linalg.norm(grid[:, None, :] - CENTRES[None], axis=2)
    clear = (np.diff(np.sort(d, axis=1)[:, :2], axis=1)[:, 0] > 1e-9).reshape(xx.shape)  # not on an edge
    nearest = np.argmin(d, axis=1).reshape(xx.shape)
    assert clear.mean() > 0.99
    np.testing.assert_allclose(surface.sd[clear], nearest[clear] + 1.0)
    # the uncertainty is the entropy over log 3 (scipy), ≈ 1 at the point equidistant from all three centres
    from scipy.stats import entropy

    np.testing.assert_allclose(surface.uncertainty, entropy(surface.probabilities, axis=2) / np.log(3), atol=1e-9)
    assert surface.uncertainty.max() > 0.99 and surface.uncertainty.min() < 1e-3
    np.testing.assert_array_equal(surface.misclassified, points[[1, 3]])


def test_a_flat_three_class_surface_has_no_boundaries_and_full_uncertainty():
    X = np.random.default_rng(3).standard_normal((6, 2))
    surface = finish(
        compute_surface(
            lambda Z: (np.full((len(Z), 3), 1 / 3), None),
            Projection(X),
            grid_axes(X, 4),
            points=X,
            labels=np.arange(6) % 3,
        )
    )
    assert surface.contour.shape == (0, 2) and surface.misclassified.shape == (0, 2)
    np.testing.assert_allclose(surface.uncertainty, 1.0)


@pytest.mark.parametrize("family", ["joint", "stick-breaking"])
def test_a_three_class_models_surface_is_its_prediction_at_each_grid_point(family):
    # sd: the predicted class's latent sd (the logistic-softmax: one latent function per class; stick-breaking: the
    # logit that breaks that class off the stick, position min(k, K − 2) in the order (0, 1, 2))
    X, y = datasets.load("blobs-3", n=90, seed=2)
    model = Model(n_inducing=10, multiclass_family=family)
    model.set_data(X, y, name="three blobs")
    model.step(20)
    projection = Projection(model.X_train)
    axes = grid_axes(model.X_train, 6)
    surface = finish(compute_surface(through_link(model.predict_latent, model.engine.link), projection, axes, sd=True))
    xx, yy = np.meshgrid(*axes)
    grid = np.c_[xx.ravel(), yy.ravel()]
    P = model.predict_proba(grid)
    _, var = model.predict_latent(grid)
    np.testing.assert_allclose(surface.probabilities.reshape(-1, 3), P, rtol=1e-12)
    latent = predicted_class(P) if family == "joint" else np.minimum(predicted_class(P), 1)
    np.testing.assert_allclose(surface.sd.ravel(), np.sqrt(var[np.arange(len(P)), latent]), rtol=1e-12)
