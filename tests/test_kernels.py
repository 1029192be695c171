"""Kernels: each family against its formula (brute-force loops), symmetry and positive-definiteness, nugget
placement, gradients vs finite differences, Matérn against the general Bessel form and its ν → ∞ limit (the RBF),
state and summary round trips, the registry."""

import math

import numpy as np
import pytest
from scipy.special import gammaln, kve

from explorer.kernels import (
    KERNELS,
    RBF,
    Kernel,
    KernelParameterError,
    Matern12,
    Matern32,
    Matern52,
    kernel_from_state,
    make_kernel,
    register,
)

PROFILES = {  # g(r) written out from the textbook formulas (Rasmussen & Williams eq. 4.14, 4.16, 4.17)
    "rbf": lambda r: np.exp(-0.5 * r * r),
    "matern12": lambda r: np.exp(-r),
    "matern32": lambda r: (1 + math.sqrt(3) * r) * np.exp(-math.sqrt(3) * r),
    "matern52": lambda r: (1 + math.sqrt(5) * r + 5 * r * r / 3) * np.exp(-math.sqrt(5) * r),
}
FAMILIES = sorted(PROFILES)


def brute_force(name, X1, X2, lengthscale, variance):
    """σ² g(‖(x − x')/ℓ‖) by explicit loops."""
    K = np.empty((len(X1), len(X2)))
    for i, a in enumerate(X1):
        for j, b in enumerate(X2):
            K[i, j] = variance * PROFILES[name](np.sqrt(np.sum(((a - b) / lengthscale) ** 2)))
    return K


def matern_bessel(nu, r):
    """The general Matérn correlation 2^{1−ν}/Γ(ν) s^ν K_ν(s), s = √(2ν) r (1 at r = 0), in logs so that large ν
    does not overflow (K_ν = kve·e^{−s})."""
    s = np.sqrt(2 * nu) * np.maximum(r, 1e-12)
    log_k = (1 - nu) * np.log(2) - gammaln(nu) + nu * np.log(s) + np.log(kve(nu, s)) - s
    return np.where(r > 0, np.exp(log_k), 1.0)


def test_the_registry_holds_the_four_families():
    assert set(KERNELS) == set(FAMILIES)
    assert {KERNELS[name] for name in FAMILIES} == {RBF, Matern12, Matern32, Matern52}


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("lengthscale", [np.array([0.7]), np.array([0.4, 1.3, 2.0])])
def test_cross_matches_the_formula_and_has_no_nugget(name, lengthscale):
    rng = np.random.default_rng(0)
    X1, X2 = rng.standard_normal((7, 3)), rng.standard_normal((5, 3))
    kernel = make_kernel(name, lengthscale, 1.7, 0.3)
    np.testing.assert_allclose(
        kernel.cross(X1, X2), brute_force(name, X1, X2, lengthscale, 1.7), rtol=1e-10, atol=1e-300
    )
    # a point against itself: σ², not σ² + γ (the nugget is white noise of one variable, not a cross-covariance)
    np.testing.assert_allclose(np.diag(kernel.cross(X1, X1)), 1.7, rtol=1e-7)
    np.testing.assert_array_equal(kernel.diag(4), np.full(4, 2.0))


@pytest.mark.parametrize("name", FAMILIES)
def test_far_apart_points_give_zero_not_nan(name):
    kernel = make_kernel(name, np.array([1e-3]), 2.0, 1e-6)
    K = kernel.cross(np.zeros((3, 2)), np.full((4, 2), 5.0))
    assert np.all(np.isfinite(K)) and np.all(K >= 0) and np.all(K < 1e-250)


@pytest.mark.parametrize("name", FAMILIES)
def test_gram_is_symmetric_positive_definite_with_the_nugget_only_on_the_diagonal(name):
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((30, 2))
    Z[5] = Z[4]  # a duplicated row: PD only thanks to the nugget
    for kernel in (make_kernel(name, np.array([0.9]), 2.0, 1e-4), make_kernel(name, np.array([0.5, 3.0]), 0.6, 1e-2)):
        K = kernel.gram(Z)
        np.testing.assert_array_equal(K, K.T)
        np.testing.assert_array_equal(np.diag(K), np.full(30, kernel.variance + kernel.nugget))
        off = ~np.eye(30, dtype=bool)
        np.testing.assert_allclose(
            K[off], brute_force(name, Z, Z, kernel.lengthscale, kernel.variance)[off], rtol=1e-7, atol=1e-300
        )
        assert np.linalg.eigvalsh(K).min() > 0.5 * kernel.nugget


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("lengthscale", [np.array([0.8]), np.array([0.5, 1.5, 1.1])])
def test_contract_gradient_matches_central_finite_differences(name, lengthscale):
    rng = np.random.default_rng(2)
    X1, X2 = rng.standard_normal((6, 3)), rng.standard_normal((4, 3))
    X1[2] = X2[1]  # a coincident pair (r = 0): Matérn 1/2 is not differentiable in r there, but K_ij does not move
    G = rng.standard_normal((6, 4))
    kernel = make_kernel(name, lengthscale, 1.3, 1e-3)
    analytic = kernel.contract_gradient(X1, X2, kernel.cross(X1, X2), G)
    theta, h = kernel.log_params, 1e-6
    numeric = np.empty_like(theta)
    for k in range(len(theta)):
        up, down = theta.copy(), theta.copy()
        up[k] += h
        down[k] -= h
        f = [np.sum(G * brute_force(name, X1, X2, np.exp(t[:-1]), np.exp(t[-1]))) for t in (up, down)]
        numeric[k] = (f[0] - f[1]) / (2 * h)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name, nu", [("matern12", 0.5), ("matern32", 1.5), ("matern52", 2.5)])
def test_matern_closed_forms_equal_the_general_bessel_form(name, nu):
    r = np.linspace(0.0, 6.0, 61)
    X = np.column_stack([r, np.zeros_like(r)])
    k = make_kernel(name, 1.0, 1.0).cross(X, np.zeros((1, 2)))[:, 0]
    np.testing.assert_allclose(k, matern_bessel(nu, r), rtol=1e-9, atol=1e-14)


def test_matern_family_approaches_the_rbf_as_nu_grows():
    r = np.linspace(0.0, 5.0, 101)
    X = np.column_stack([r, np.zeros_like(r)])
    rbf = RBF(1.0).cross(X, np.zeros((1, 2)))[:, 0]
    gaps = [
        np.max(np.abs(make_kernel(name, 1.0).cross(X, np.zeros((1, 2)))[:, 0] - rbf))
        for name in ("matern12", "matern32", "matern52")
    ]
    limit = [np.max(np.abs(matern_bessel(nu, r) - rbf)) for nu in (10.0, 50.0)]
    assert gaps[0] > gaps[1] > gaps[2] > limit[0] > limit[1] and limit[1] < 1e-2  # the limit ν → ∞ is the RBF


@pytest.mark.parametrize("name", FAMILIES)
def test_with_log_params_keeps_the_family_and_nugget(name):
    kernel = make_kernel(name, np.array([0.5, 2.0]), 1.5, 1e-3)
    moved = kernel.with_log_params(kernel.log_params + np.array([0.1, -0.2, 0.3]))
    assert type(moved) is type(kernel) and moved.nugget == kernel.nugget
    np.testing.assert_allclose(moved.lengthscale, [0.5 * np.exp(0.1), 2.0 * np.exp(-0.2)])
    np.testing.assert_allclose(moved.variance, 1.5 * np.exp(0.3))


@pytest.mark.parametrize(
    "bad, message",
    [
        ([0.5, 1e-51], "must lie within"),
        ([0.5, 1e101], "must lie within"),
        ([0.5, 0.0], "must be finite and > 0"),
        ([-0.5, 1.0], "must be finite and > 0"),
        ([0.5, np.nan], "must be finite and > 0"),
        ([np.inf, 1.0], "must be finite and > 0"),
        ([], "a number or a 1-D array"),
        ([[0.5, 1.0]], "a number or a 1-D array"),
    ],
)
def test_a_float_vector_lengthscale_is_checked_like_any_other(bad, message):
    """A float64 array (what `with_log_params` builds) is refused for the same reasons, with the same message, as the
    same values in a list."""
    for lengthscale in (bad, np.array(bad, dtype=np.float64)):
        with pytest.raises(KernelParameterError, match=message):
            RBF(lengthscale)


def test_a_kernel_keeps_its_own_read_only_copy_of_a_float_vector_lengthscale():
    lengthscale = np.array([0.5, 2.0])
    kernel = RBF(lengthscale)
    lengthscale[0] = 7.0
    assert kernel.lengthscale.tolist() == [0.5, 2.0] and not kernel.lengthscale.flags.writeable


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("lengthscale", [0.7, np.array([0.5, 2.0, 4.0])])
def test_state_round_trip_rebuilds_the_same_family_and_parameters(name, lengthscale):
    kernel = make_kernel(name, lengthscale, 1.5, 1e-3)
    again = kernel_from_state(kernel.state_dict())
    assert type(again) is type(kernel)
    np.testing.assert_array_equal(again.log_params, kernel.log_params)
    assert again.nugget == kernel.nugget


def test_a_state_without_a_name_is_an_rbf():
    kernel = kernel_from_state({"lengthscale": [1.5], "variance": 2.0, "nugget": 1e-4})
    assert isinstance(kernel, RBF) and kernel.variance == 2.0


def test_summary_gives_the_geometric_mean_and_each_ard_lengthscale():
    iso = Matern32(0.8, 2.0).summary()
    assert iso == {"lengthscale": pytest.approx(0.8), "variance": 2.0}
    ard = RBF(np.array([1.0, 4.0, 2.0]), 0.5).summary()
    assert ard["lengthscale"] == pytest.approx(2.0)  # (1·4·2)^(1/3)
    assert [ard[f"lengthscale_{j}"] for j in (1, 2, 3)] == [1.0, 4.0, 2.0] and ard["variance"] == 0.5


def test_unknown_family_is_a_clear_error():
    with pytest.raises(KernelParameterError, match="unknown kernel 'periodic'.*matern12"):
        make_kernel("periodic", 1.0)


def test_adding_a_kernel_is_one_class_and_its_registration():
    """A rational-quadratic-like kernel (α = 1) written as the docstring says, used through the protocol only."""

    @register
    class Cauchy(Kernel):
        name = "test-cauchy"

        def _from_exponent(self, exponent):
            return self.variance / (1.0 + self._distance(exponent) ** 2)

        def _lengthscale_weight(self, X1, X2, K):
            return 2.0 * K * K / self.variance  # W = −2σ² d/d(r²) (1 + r²)⁻¹ = 2σ²(1 + r²)⁻²

    try:
        rng = np.random.default_rng(3)
        X1, X2 = rng.standard_normal((5, 2)), rng.standard_normal((4, 2))
        kernel = kernel_from_state({"name": "test-cauchy", "lengthscale": [0.9, 1.4], "variance": 1.2, "nugget": 1e-4})
        r2 = (((X1[:, None, :] - X2[None]) / kernel.lengthscale) ** 2).sum(-1)
        np.testing.assert_allclose(kernel.cross(X1, X2), 1.2 / (1 + r2), rtol=1e-12)
        assert np.linalg.eigvalsh(kernel.gram(X1)).min() > 0
        G = rng.standard_normal((5, 4))
        h = 1e-6
        numeric = [
            (
                np.sum(G * kernel.with_log_params(kernel.log_params + h * e).cross(X1, X2))
                - np.sum(G * kernel.with_log_params(kernel.log_params - h * e).cross(X1, X2))
            )
            / (2 * h)
            for e in np.eye(3)
        ]
        np.testing.assert_allclose(kernel.contract_gradient(X1, X2, kernel.cross(X1, X2), G), numeric, rtol=1e-6)
    finally:
        KERNELS.pop("test-cauchy")


def test_the_base_protocol_is_abstract():
    with pytest.raises(TypeError):
        Kernel(1.0)
