"""k-means++ inducing inputs: m distinct rows of X, clamped with a warning when X has fewer distinct rows."""

import numpy as np
import pytest
from sklearn.cluster import kmeans_plusplus

from explorer import inducing
from explorer.inducing import kmeans_plus_plus, seeded_rows


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


def test_the_rows_are_scikit_learns_greedy_k_means_plus_plus_where_no_candidates_tie():
    """Few points of many (m ≪ n): no two candidates tie (the nearest two potentials of a step differ by ≥ 5e-4 of
    them), so the rows are scikit-learn's: the same draws and arithmetic."""
    for seed in range(6):
        rng = np.random.default_rng(seed)
        X = np.unique(rng.standard_normal((400, 1 + seed)) * rng.uniform(0.1, 10.0, 1 + seed), axis=0)
        expected = kmeans_plusplus(X, 5 + 4 * seed, random_state=seed)[1]
        np.testing.assert_array_equal(seeded_rows(X, 5 + 4 * seed, np.random.RandomState(seed)), expected)
    # kmeans_plus_plus seeds scikit-learn's random_state from its Generator and returns the rows themselves
    X = np.random.default_rng(7).standard_normal((300, 3))
    seed = int(np.random.default_rng(3).integers(0, 2**31 - 1))
    np.testing.assert_array_equal(
        kmeans_plus_plus(X, 12, np.random.default_rng(3)),
        kmeans_plusplus(np.unique(X, axis=0), 12, random_state=seed)[0],
    )


LATTICE = np.array([(i, j, k) for i in range(4) for j in range(4) for k in range(4)], dtype=float)


@pytest.mark.parametrize(
    "X, m",
    [
        ((LATTICE - LATTICE.mean(0)) / LATTICE.std(0), 10),  # symmetric: whole sets of candidates tie
        (np.unique(np.random.default_rng(0).standard_normal((60, 2)), axis=0), 40),  # isolated pairs tie late on
    ],
    ids=["lattice", "dense"],
)
def test_tied_candidates_are_settled_by_exact_arithmetic_not_rounding(monkeypatch, X, m):
    """A translation changes no potential in exact arithmetic, only the rounding of the distance products (as another
    CPU or BLAS kernel would): the rows picked stay the same for every seed. With no tolerance, rounding decides the
    ties, and the rows change for some seeds (here 5 and 4 of the 15)."""

    def moved(tolerance):
        monkeypatch.setattr(inducing, "TIE_TOLERANCE", tolerance)
        return [
            not np.array_equal(
                seeded_rows(X, m, np.random.RandomState(s)), seeded_rows(X + 0.37, m, np.random.RandomState(s))
            )
            for s in range(15)
        ]

    assert not any(moved(inducing.TIE_TOLERANCE))
    assert any(moved(0.0))
