"""k-means++ inducing inputs: m distinct rows of X, clamped with a warning when X has fewer distinct rows."""

import numpy as np
import pytest

from explorer.inducing import kmeans_plus_plus


def test_returns_m_distinct_rows_of_X():
    rng = np.random.default_rng(0)
    X = np.repeat(rng.standard_normal((60, 3)), 3, axis=0)  # every row three times
    Z = kmeans_plus_plus(X, 25, np.random.default_rng(1))
    assert Z.shape == (25, 3)
    assert len(np.unique(Z, axis=0)) == 25
    for z in Z:
        assert np.any(np.all(X == z, axis=1))


def test_same_seed_same_points_and_points_spread_over_clusters():
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0], [50.0, 0.0], [0.0, 50.0], [50.0, 50.0]])
    X = np.concatenate([c + rng.standard_normal((100, 2)) for c in centres])
    Z1 = kmeans_plus_plus(X, 4, np.random.default_rng(5))
    Z2 = kmeans_plus_plus(X, 4, np.random.default_rng(5))
    np.testing.assert_array_equal(Z1, Z2)
    # k-means++ on four far-apart clusters picks one point near each centre (D² sampling)
    nearest = np.argmin(((Z1[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    assert sorted(nearest) == [0, 1, 2, 3]


def test_more_points_than_distinct_rows_warns_and_clamps():
    X = np.array([[0.0, 1.0], [2.0, 3.0], [0.0, 1.0], [4.0, 5.0]])
    with pytest.warns(UserWarning, match="only 3 distinct rows"):
        Z = kmeans_plus_plus(X, 10, np.random.default_rng(0))
    assert Z.shape == (3, 2)
    assert {tuple(z) for z in Z} == {(0.0, 1.0), (2.0, 3.0), (4.0, 5.0)}


def test_non_positive_m_is_an_error():
    with pytest.raises(ValueError, match="≥ 1"):
        kmeans_plus_plus(np.zeros((3, 2)), 0, np.random.default_rng(0))
