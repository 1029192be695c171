"""Stationary kernels behind one protocol, with a diagonal nugget, and their gradients in log-parameters.

k(x, x') = σ² g(r),  r = ‖(x − x')/ℓ‖   (DESIGN §2; one lengthscale as in the paper, or one per feature: ARD)

    RBF          g(r) = exp(−r²/2)
    Matérn 1/2   g(r) = exp(−r)
    Matérn 3/2   g(r) = (1 + √3 r) exp(−√3 r)
    Matérn 5/2   g(r) = (1 + √5 r + 5r²/3) exp(−√5 r)       (→ RBF as ν → ∞)

The nugget γ is a white-noise term on the latent f: it is added to the diagonal of K_mm, to k(x_i, x_i) in K̃ and
to k** in predictions, never to cross-covariances between distinct variables.

The protocol is `Kernel` (the inducing-side cache: every K(X, Z) is one matrix product ÃF̃ᵀ = c − ½r² with the Z side
F̃ = `features(Z)` computed once per kernel setting, then `_from_exponent` maps it to K in place); adding a kernel is
one subclass plus `@register` (README, "Architecture").
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

# log k is clipped below at −700 before exp: k < 1e-304 is zero for every purpose, and exp of values that
# underflow to subnormals is ~20× slower than exp of ordinary values.
_LOG_K_MIN = -700.0

KERNELS: dict[str, type["Kernel"]] = {}
"""The kernel families by name (`Kernel.name`), filled by `register`."""


LENGTHSCALE_LIMITS = (1e-50, 1e100)
"""Smallest and largest lengthscale ℓ a kernel accepts (standardised units). Features are limited to ±1e100
(`explorer.inputs.FEATURE_LIMIT`); from ℓ ≥ 1e-50 the squared distances ‖(x − x')/ℓ‖² ≤ d (2e100/ℓ)² stay finite in
float64 (≤ 1.8e308) for up to 10⁶ features. Below it they overflow to inf and every covariance turns into NaN."""


class KernelParameterError(ValueError):
    """A kernel parameter is not a finite positive number (or, for ℓ, not within `LENGTHSCALE_LIMITS`)."""


def _real_numbers(name: str, value) -> np.ndarray:
    """`value` as a float array, or KernelParameterError naming the parameter (a string, a bool, an object)."""
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise KernelParameterError(f"kernel {name} must be a number, got {type(value).__name__} {value!r:.60}")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise KernelParameterError(
            f"kernel {name} must be a number or an array of numbers, got {type(value).__name__} ({err})"
        ) from None
    if array.dtype.kind not in "iuf":
        raise KernelParameterError(
            f"kernel {name} must be real numbers, got {type(value).__name__} of dtype {array.dtype}"
        )
    return array.astype(float)


def _check_positive(name: str, value) -> None:
    array = _real_numbers(name, value)
    if not all(0.0 < entry < math.inf for entry in array.ravel().tolist()):  # NaN fails both comparisons
        raise KernelParameterError(f"kernel {name} must be finite and > 0, got {array.tolist()}")


def _positive_scalar(name: str, value) -> float:
    """A finite positive number (`variance`, `nugget`), or KernelParameterError naming the parameter."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        return float(value)
    array = _real_numbers(name, value)
    if array.size != 1:
        raise KernelParameterError(f"kernel {name} must be one number, got an array of shape {array.shape}")
    _check_positive(name, array)
    return float(array.reshape(-1)[0])


def register(cls: type["Kernel"]) -> type["Kernel"]:
    """Class decorator: make the kernel family `cls` known by `cls.name` to `make_kernel` and `kernel_from_state`."""
    KERNELS[cls.name] = cls
    return cls


def make_kernel(name: str, lengthscale, variance: float = 1.0, nugget: float = 1e-6) -> "Kernel":
    """Make a kernel of a registered family.

    Parameters
    ----------
    name : str
        A key of `KERNELS`: "rbf", "matern12", "matern32", "matern52".
    lengthscale : float or array-like of shape (d,)
        ℓ in standardised units, one per feature for ARD, within `LENGTHSCALE_LIMITS`.
    variance : float, default 1.0
        σ², the kernel's variance (> 0).
    nugget : float, default 1e-6
        γ, white-noise variance added on the diagonal (> 0).

    Returns
    -------
    Kernel
        An immutable kernel of that family.

    Raises
    ------
    KernelParameterError
        An unknown family (the message lists the known ones) or a parameter out of its range (named).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.kernels import make_kernel
    >>> kernel = make_kernel("matern32", lengthscale=0.5, variance=2.0)
    >>> K = kernel.gram(np.zeros((3, 2)))
    >>> K.shape, bool(np.allclose(K, 2.0 + 1e-6))
    ((3, 3), True)
    """
    if name not in KERNELS:
        raise KernelParameterError(f"unknown kernel {name!r}; choose one of {sorted(KERNELS)}")
    return KERNELS[name](lengthscale, variance, nugget)


def initial_kernel(
    kernel=None,
    d: int | None = None,
    *,
    lengthscale: float = 1.0,
    variance: float = 1.0,
    nugget: float = 1e-6,
    ard: bool = False,
) -> "Kernel":
    """The kernel a run starts from.

    For a family name (None: "rbf"), that family with these parameters (with `ard`, one lengthscale per feature,
    all equal to `lengthscale`); for a `Kernel`, a copy of it (its own parameters and lengthscale shape win over the
    keyword arguments; the caller's object is never changed).

    Parameters
    ----------
    kernel : str, Kernel or None, default None
        A family name (a key of `KERNELS`), a kernel, or None for "rbf".
    d : int, optional
        Number of features; needed with `ard`.
    lengthscale : float, default 1.0
        Initial ℓ (standardised units).
    variance : float, default 1.0
        Initial σ².
    nugget : float, default 1e-6
        γ.
    ard : bool, default False
        One lengthscale per feature.

    Returns
    -------
    Kernel

    Raises
    ------
    KernelParameterError
        A `kernel` of another type, an unknown family, or a parameter out of its range.

    Examples
    --------
    >>> from explorer.kernels import initial_kernel
    >>> initial_kernel("rbf", d=3, lengthscale=2.0, ard=True).lengthscale.tolist()
    [2.0, 2.0, 2.0]
    """
    if isinstance(kernel, Kernel):
        return dataclasses.replace(kernel)  # a new object through __init__: validated, its arrays read-only
    if kernel is not None and not isinstance(kernel, str):
        raise KernelParameterError(
            f"kernel must be None, a family name ({sorted(KERNELS)}) or a Kernel, got {type(kernel).__name__}"
        )
    if ard:
        lengthscale = np.full(d, _real_numbers("lengthscale", lengthscale))
    return make_kernel("rbf" if kernel is None else kernel, lengthscale, variance, nugget)


def kernel_from_state(state: dict) -> "Kernel":
    """The kernel a `Kernel.state_dict()` describes. A state without "name" is an RBF (written before kernels had
    names). KernelParameterError (a ValueError) naming what is missing, or the parameter that is not a number (a
    text "1.0" included: a state holds numbers) or out of its range."""
    if not isinstance(state, dict):
        raise KernelParameterError(
            f"a kernel's state must be a dict (Kernel.state_dict()), got {type(state).__name__} {state!r:.60}"
        )
    missing = [key for key in ("lengthscale", "variance", "nugget") if key not in state]
    if missing:
        raise KernelParameterError(
            f"the kernel's state lacks {', '.join(missing)}; it holds {', '.join(map(str, state)) or 'nothing'}"
        )
    return make_kernel(str(state.get("name", "rbf")), state["lengthscale"], state["variance"], state["nugget"])


@dataclass(frozen=True, eq=False)
class Kernel(ABC):
    """A stationary kernel σ² g(‖(x − x')/ℓ‖) plus nugget γ. ``lengthscale`` has shape (1,) (isotropic) or (d,) (ARD).
    Immutable: learning replaces the kernel (`with_log_params`), never changes it. Kernels of the same family with
    the same parameters are equal."""

    name: ClassVar[str]
    exact_close_pairs: ClassVar[bool] = True
    """Recompute r² from differences where the product lost more than 6 digits to cancellation (r ≪ ‖x‖, e.g. a
    point against itself). Needed where g is not smooth in r² at 0 (Matérn 1/2: an r² off by 1e-16 moves K by 1e-8);
    the RBF, a function of r², does without."""
    lengthscale: np.ndarray
    variance: float = 1.0
    nugget: float = 1e-6

    def __post_init__(self):
        low, high = LENGTHSCALE_LIMITS
        lengthscale = self.lengthscale
        if (  # a float64 vector within the limits (every learned kernel's): the checks below would pass it as it is
            type(lengthscale) is np.ndarray
            and lengthscale.dtype == np.float64
            and lengthscale.ndim == 1
            and lengthscale.size
            and all(low <= value <= high for value in lengthscale.tolist())
        ):
            lengthscale = lengthscale.copy()
        else:
            lengthscale = np.array(_real_numbers("lengthscale", lengthscale), ndmin=1)
            if lengthscale.ndim != 1 or lengthscale.size == 0:
                raise KernelParameterError(
                    f"kernel lengthscale must be a number or a 1-D array, got shape {lengthscale.shape}"
                )
            _check_positive("lengthscale", lengthscale)
            if not np.all((lengthscale >= low) & (lengthscale <= high)):
                raise KernelParameterError(
                    f"kernel lengthscale must lie within [{low:g}, {high:g}] (standardised units), got "
                    f"{lengthscale.tolist()}: below {low:g} the squared distances ‖(x − x')/ℓ‖² overflow float64, "
                    f"above {high:g} every pair of points is at distance 0"
                )
        lengthscale.setflags(write=False)
        object.__setattr__(self, "lengthscale", lengthscale)
        for name in ("variance", "nugget"):
            object.__setattr__(self, name, _positive_scalar(name, getattr(self, name)))

    def __eq__(self, other) -> bool:
        return (
            type(other) is type(self)
            and np.array_equal(self.lengthscale, other.lengthscale)
            and self.variance == other.variance
            and self.nugget == other.nugget
        )

    def __hash__(self) -> int:
        return hash((self.name, self.lengthscale.tobytes(), self.variance, self.nugget))

    # ----- parameters and state ------------------------------------------------------------------------------
    @property
    def ard(self) -> bool:
        return self.lengthscale.size > 1

    @property
    def mean_lengthscale(self) -> float:
        """Geometric mean of the lengthscales (the lengthscale itself when isotropic)."""
        return float(np.exp(np.mean(np.log(self.lengthscale))))

    @property
    def log_params(self) -> np.ndarray:
        """Learnable parameters θ = (log ℓ_1..ℓ_L, log σ²), shape (L + 1,)."""
        return np.log(np.concatenate([self.lengthscale, [self.variance]]))

    def with_log_params(self, log_params: np.ndarray) -> "Kernel":
        """A copy with θ = (log ℓ, log σ²) replaced; the family and the nugget are kept."""
        params = np.exp(np.asarray(log_params, dtype=float))
        return type(self)(params[:-1], float(params[-1]), self.nugget)

    def check_dimension(self, d: int) -> None:
        if self.ard and self.lengthscale.size != d:
            raise KernelParameterError(
                f"ARD lengthscale has {self.lengthscale.size} entries but the data has {d} features"
            )

    def state_dict(self) -> dict:
        """{"name", "lengthscale" (L,), "variance", "nugget"}: plain values for `kernel_from_state`."""
        return {
            "name": self.name,
            "lengthscale": self.lengthscale.copy(),
            "variance": self.variance,
            "nugget": self.nugget,
        }

    def summary(self) -> dict[str, float]:
        """The learnable parameters for a history row or a plot: "lengthscale" (the geometric mean), "variance", and
        with ARD "lengthscale_1" … "lengthscale_d" (one per feature)."""
        values = {"lengthscale": self.mean_lengthscale, "variance": self.variance}
        if self.ard:
            values.update({f"lengthscale_{j + 1}": float(value) for j, value in enumerate(self.lengthscale)})
        return values

    # ----- covariances ---------------------------------------------------------------------------------------
    def _exponent_offset(self) -> float:
        """c in the product ÃF̃ᵀ = c − ½r² (0 here; the RBF folds log σ² into it)."""
        return 0.0

    def features(self, X2: np.ndarray) -> np.ndarray:
        """Right-hand factor of c − ½r²(·, X2): rows (b_j, c − ½‖b_j‖², 1) with b_j = x2_j/ℓ, shape (n2, d + 2).
        It changes only with the kernel parameters: compute it once for fixed inducing inputs."""
        F = np.empty((len(X2), X2.shape[1] + 2))
        B = np.divide(X2, self.lengthscale, out=F[:, :-2])
        np.multiply(np.einsum("ij,ij->i", B, B), -0.5, out=F[:, -2])
        F[:, -2] += self._exponent_offset()
        F[:, -1] = 1.0
        return F

    def _exponent(self, X1: np.ndarray, features: np.ndarray) -> np.ndarray:
        """c − ½r²_ij (n1, n2) as Ã F̃ᵀ with Ã rows (a_i, 1, −½‖a_i‖²), a_i = x1_i/ℓ: aᵀb − ½‖a‖² − ½‖b‖² + c;
        with `exact_close_pairs`, entries with ½r² < 1e-6(½‖a_i‖² + ½‖b_j‖²) again as c − ½‖a_i − b_j‖²."""
        A = np.empty((len(X1), X1.shape[1] + 2))
        a = np.divide(X1, self.lengthscale, out=A[:, :-2])
        A[:, -2] = 1.0
        np.multiply(np.einsum("ij,ij->i", a, a), -0.5, out=A[:, -1])
        exponent = A @ features.T
        if self.exact_close_pairs:
            c = self._exponent_offset()
            i, j = np.nonzero(c - exponent < 1e-6 * ((c - features[:, -2]) - A[:, -1, None]))
            difference = a[i] - features[j, :-2]
            exponent[i, j] = c - 0.5 * np.einsum("ij,ij->i", difference, difference)
        return exponent

    def _distance(self, exponent: np.ndarray) -> np.ndarray:
        """r = sqrt(2(c − exponent)) in place (rounding can make r² slightly negative near r = 0: clipped to 0)."""
        np.subtract(self._exponent_offset(), exponent, out=exponent)
        exponent *= 2.0
        np.maximum(exponent, 0.0, out=exponent)
        return np.sqrt(exponent, out=exponent)

    @abstractmethod
    def _from_exponent(self, exponent: np.ndarray) -> np.ndarray:
        """K = σ² g(r) from `exponent` = c − ½r² (n1, n2), overwriting it."""

    @abstractmethod
    def _lengthscale_weight(self, X1: np.ndarray, X2: np.ndarray, K: np.ndarray) -> np.ndarray:
        """W (n1, n2) with ∂K_ij/∂log ℓ_d = W_ij (x1_id − x2_jd)²/ℓ_d², i.e. W = −2σ² dg/d(r²); K = cross(X1, X2)."""

    def cross_from_features(self, X1: np.ndarray, features: np.ndarray) -> np.ndarray:
        """K(X1, X2) without nugget, shape (n1, n2), from `features(X2)`: one matrix product, then g in place."""
        return self._from_exponent(self._exponent(X1, features))

    def cross(self, X1: np.ndarray, X2: np.ndarray) -> np.ndarray:
        """K(X1, X2) without nugget, shape (n1, n2)."""
        return self.cross_from_features(X1, self.features(X2))

    def gram(self, Z: np.ndarray, cross: np.ndarray | None = None) -> np.ndarray:
        """K(Z, Z) + γI, shape (m, m), exactly symmetric; pass `cross` = cross(Z, Z) if it is already computed."""
        K = self.cross(Z, Z) if cross is None else cross
        K = K + K.T
        K *= 0.5
        K.ravel()[:: len(K) + 1] = self.variance + self.nugget  # the diagonal (np.fill_diagonal's checks cost more)
        return K

    def diag(self, n: int) -> np.ndarray:
        """k(x_i, x_i) + γ = σ² + γ for every i (g(0) = 1), shape (n,)."""
        return np.full(n, self.variance + self.nugget)

    def contract_gradient(self, X1: np.ndarray, X2: np.ndarray, K: np.ndarray, G: np.ndarray) -> np.ndarray:
        """Σ_ij G_ij ∂K_ij/∂θ for θ = (log ℓ, log σ²), given K = cross(X1, X2) (no nugget). Shape (L + 1,).

        ∂K/∂log σ² = K;  ∂K_ij/∂log ℓ_d = W_ij (x1_id − x2_jd)² / ℓ_d²  (summed over d when isotropic), with
        Σ_ij H_ij (a_id − b_jd)² = row·a_d² + col·b_d² − 2 a_dᵀ H b_d for H = W ∘ G, a = x1/ℓ, b = x2/ℓ; H b and the
        row sums come from one product H (b, 1).
        """
        W = self._lengthscale_weight(X1, X2, K)
        H = W * G
        A = X1 / self.lengthscale
        B_one = np.empty((len(X2), X2.shape[1] + 1))
        np.divide(X2, self.lengthscale, out=B_one[:, :-1])
        B_one[:, -1] = 1.0
        HB_row = H @ B_one
        B, HB, row, col = B_one[:, :-1], HB_row[:, :-1], HB_row[:, -1], np.ones(len(H)) @ H
        per_dim = row @ (A * A) + col @ (B * B) - 2.0 * np.einsum("id,id->d", A, HB)
        grad = np.empty(self.lengthscale.size + 1)
        grad[:-1] = per_dim if self.ard else per_dim.sum()
        grad[-1] = row.sum() if W is K else float(np.einsum("ij,ij->", K, G))
        return grad


@register
class RBF(Kernel):
    """Squared exponential: g(r) = exp(−r²/2). log σ² rides in the product, so K = exp(ÃF̃ᵀ) in place; W = K."""

    name: ClassVar[str] = "rbf"
    exact_close_pairs: ClassVar[bool] = False

    def _exponent_offset(self) -> float:
        return math.log(self.variance)

    def _from_exponent(self, exponent: np.ndarray) -> np.ndarray:
        # log k ≤ log σ² (r² ≥ 0): with ‖x/ℓ‖² ≫ 1 the product form's cancellation error could otherwise exceed it,
        # and exp of that error overflow (a point against itself at ℓ = 1e-10: error ~1e4)
        np.clip(exponent, _LOG_K_MIN, self._exponent_offset(), out=exponent)
        return np.exp(exponent, out=exponent)

    def _lengthscale_weight(self, X1, X2, K):
        return K


@register
class Matern12(Kernel):
    """Matérn ν = 1/2 (exponential): g(r) = exp(−r); W = σ² exp(−r)/r (0 at r = 0, where Δ² = 0 as well)."""

    name: ClassVar[str] = "matern12"

    def _from_exponent(self, exponent):
        r = self._distance(exponent)
        np.negative(r, out=r)
        np.exp(r, out=r)
        r *= self.variance
        return r

    def _lengthscale_weight(self, X1, X2, K):
        r = self._distance(self._exponent(X1, self.features(X2)))
        return np.divide(K, r, out=np.zeros_like(K), where=r > 0)


def _half_integer_matern(p: int) -> tuple[float, np.ndarray, np.ndarray]:
    """√(2ν) and the coefficients (lowest power first) of q and w for Matérn ν = p + ½, p ≥ 1 (Rasmussen & Williams
    eq. 4.16): g(r) = q(s) exp(−s) with s = √(2ν) r and q(s) = Σ_j p!(2p − j)! 2ʲ / ((2p)! (p − j)! j!) sʲ; then
    W = −2σ² dg/d(r²) = σ² w(s) exp(−s) with w(s) = 2ν (q(s) − q′(s))/s (q − q′ has no constant term)."""
    f = math.factorial
    q = np.array([f(p) * f(2 * p - j) * 2**j / (f(2 * p) * f(p - j) * f(j)) for j in range(p + 1)])
    w = (2 * p + 1) * np.polynomial.polynomial.polysub(q, np.polynomial.polynomial.polyder(q))[1:]
    return math.sqrt(2 * p + 1), q, w


class _HalfIntegerMatern(Kernel):
    """Matérn ν = p + ½ for p ≥ 1: g(r) = q(s) exp(−s), W = σ² w(s) exp(−s), s = √(2ν) r (`_half_integer_matern`)."""

    root: ClassVar[float]
    q: ClassVar[np.ndarray]
    w: ClassVar[np.ndarray]

    def _from_exponent(self, exponent):
        s = self._distance(exponent)
        s *= self.root
        return self.variance * np.polynomial.polynomial.polyval(s, self.q) * np.exp(-s)

    def _lengthscale_weight(self, X1, X2, K):
        s = self.root * self._distance(self._exponent(X1, self.features(X2)))
        return self.variance * np.polynomial.polynomial.polyval(s, self.w) * np.exp(-s)


@register
class Matern32(_HalfIntegerMatern):
    """Matérn ν = 3/2: g(r) = (1 + √3 r) exp(−√3 r); W = 3σ² exp(−√3 r)."""

    name: ClassVar[str] = "matern32"
    root, q, w = _half_integer_matern(1)


@register
class Matern52(_HalfIntegerMatern):
    """Matérn ν = 5/2: g(r) = (1 + √5 r + 5r²/3) exp(−√5 r); W = (5σ²/3)(1 + √5 r) exp(−√5 r)."""

    name: ClassVar[str] = "matern52"
    root, q, w = _half_integer_matern(2)
