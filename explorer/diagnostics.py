"""MCMC convergence diagnostics: rank-normalised split R-hat and bulk/tail effective sample size.

Vehtari, Gelman, Simpson, Carpenter, Bürkner (2021), "Rank-normalization, folding, and localization: an improved
R-hat for assessing convergence of MCMC", Bayesian Analysis 16(2). The estimators follow the paper's reference
implementation (Stan, posterior, ArviZ): FFT autocovariances, Geyer's initial positive and monotone sequences.

Every public function takes draws shaped (chains, draws) and returns a float, or (chains, draws, k...) and returns
an array shaped (k...), one value per scalar quantity.
"""

from __future__ import annotations

import numpy as np
from scipy.fft import next_fast_len
from scipy.special import ndtri
from scipy.stats import rankdata


def _as_columns(x: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]]:
    """Validate draws (chains, draws, k...) and reshape to (chains, draws, K); also return the trailing shape."""
    x = np.asarray(x, dtype=float)
    if x.ndim < 2:
        raise ValueError(f"draws must be shaped (chains, draws) or (chains, draws, k...), got shape {x.shape}")
    if x.shape[1] < 4:
        raise ValueError(f"need at least 4 draws per chain to split chains, got {x.shape[1]}")
    if not np.all(np.isfinite(x)):
        raise ValueError("draws contain NaN or infinite values")
    return x.reshape(x.shape[0], x.shape[1], -1), x.shape[2:]


def _restore(values: np.ndarray, trailing: tuple[int, ...]) -> float | np.ndarray:
    return float(values[0]) if trailing == () else values.reshape(trailing)


def split_chains(x: np.ndarray) -> np.ndarray:
    """Cut every chain into its first and second half: (M, N, K) -> (2M, ⌊N/2⌋, K); the middle draw of an odd N is
    dropped."""
    half = x.shape[1] // 2
    return np.concatenate([x[:, :half], x[:, x.shape[1] - half :]], axis=0)


def rank_normalize(x: np.ndarray) -> np.ndarray:
    """z = Φ⁻¹((r − 3/8) / (S + 1/4)) with r the average rank of each draw among all S = M·N draws of its column
    (Vehtari et al. 2021, eq. 14). Shape (M, N, K) kept."""
    M, N, K = x.shape
    ranks = rankdata(x.reshape(M * N, K), method="average", axis=0)
    return ndtri((ranks - 0.375) / (M * N + 0.25)).reshape(M, N, K)


def _basic_rhat(x: np.ndarray) -> np.ndarray:
    """R̂ = sqrt(var⁺ / W), var⁺ = (N−1)/N W + B/N (Gelman et al. BDA3 §11.4), per column of (M, N, K)."""
    N = x.shape[1]
    within = x.var(axis=1, ddof=1).mean(axis=0)
    between_over_n = x.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(((N - 1) / N * within + between_over_n) / within)


def autocovariance(x: np.ndarray) -> np.ndarray:
    """Biased autocovariance γ_t = (1/N) Σ_s (x_s − x̄)(x_{s+t} − x̄) along axis 1 by FFT, t = 0..N−1. Shape kept."""
    N = x.shape[1]
    centred = x - x.mean(axis=1, keepdims=True)
    size = next_fast_len(2 * N)
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    return np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :N] / N


def _geyer_tau(rho: np.ndarray) -> float:
    """Integrated autocorrelation time τ = −1 + 2 Σ_k P_k from autocorrelations ρ_t (t = 0..N−1), with the pair
    sums P_k = ρ_2k + ρ_2k+1 truncated at the first non-positive pair (initial positive sequence) and made
    non-increasing (initial monotone sequence); a positive ρ_2K of the truncating pair is added once (Stan)."""
    pairs = rho[: 2 * (rho.size // 2)].reshape(-1, 2).sum(axis=1)
    non_positive = np.flatnonzero(pairs <= 0.0)
    stop = non_positive[0] if non_positive.size else pairs.size
    tau = -1.0 + 2.0 * np.minimum.accumulate(pairs[:stop]).sum()
    if stop < pairs.size and rho[2 * stop] > 0.0:
        tau += rho[2 * stop]
    return tau


def _basic_ess(x: np.ndarray) -> np.ndarray:
    """ESS = M·N / τ with ρ_t = 1 − (W − mean_m γ_t,m) / var⁺ (Vehtari et al. 2021, eqs. 10-11), per column of
    (M, N, K). τ is bounded below by 1/log10(M·N) as in the reference implementation; a constant column gets M·N."""
    M, N, K = x.shape
    acov = autocovariance(x)
    within = acov[:, 0].mean(axis=0) * N / (N - 1)
    var_plus = within * (N - 1) / N + (x.mean(axis=1).var(axis=0, ddof=1) if M > 1 else 0.0)
    ess = np.full(K, float(M * N))
    for k in np.flatnonzero(var_plus > 0):
        rho = 1.0 - (within[k] - acov[:, :, k].mean(axis=0)) / var_plus[k]
        ess[k] = M * N / max(_geyer_tau(rho), 1.0 / np.log10(M * N))
    return ess


def rhat(x: np.ndarray) -> float | np.ndarray:
    """Rank-normalised split R̂ = max(bulk R̂ of the rank-normalised split chains, tail R̂ of the rank-normalised
    |x − median|) (Vehtari et al. 2021, §4.2). ≈ 1 for converged chains; > 1.01 is a warning."""
    x, trailing = _as_columns(x)
    split = split_chains(x)
    bulk = _basic_rhat(rank_normalize(split))
    folded = np.abs(split - np.median(split.reshape(-1, split.shape[2]), axis=0))
    tail = _basic_rhat(rank_normalize(folded))
    return _restore(np.fmax(bulk, tail), trailing)


def ess_bulk(x: np.ndarray) -> float | np.ndarray:
    """Bulk ESS: the ESS of the rank-normalised split chains (Vehtari et al. 2021, §4.3)."""
    x, trailing = _as_columns(x)
    return _restore(_basic_ess(rank_normalize(split_chains(x))), trailing)


def ess_tail(x: np.ndarray) -> float | np.ndarray:
    """Tail ESS: min of the split-chain ESS of the indicators I(x ≤ q05) and I(x ≤ q95) (Vehtari et al. 2021, §4.3)."""
    x, trailing = _as_columns(x)
    pooled = x.reshape(-1, x.shape[2])
    split = split_chains(x)
    lower = _basic_ess((split <= np.quantile(pooled, 0.05, axis=0)).astype(float))
    upper = _basic_ess((split <= np.quantile(pooled, 0.95, axis=0)).astype(float))
    return _restore(np.minimum(lower, upper), trailing)


def ess_mean(x: np.ndarray) -> float | np.ndarray:
    """ESS for the posterior mean: split chains without rank normalisation (Var[x̄] ≈ Var[x] / ESS)."""
    x, trailing = _as_columns(x)
    return _restore(_basic_ess(split_chains(x)), trailing)


RHAT_LIMIT = 1.01
"""Largest R-hat of well-mixed chains (Vehtari et al. 2021, §4: "only use the sample if R-hat < 1.01")."""
ESS_MINIMUM = 400
"""Smallest bulk ESS at which the posterior's mean and quantiles are trustworthy (Vehtari et al. 2021: 100 per chain
for four chains)."""


def mixing_problems(rhat_max: float, ess_bulk_min: float) -> list[str]:
    """What says a run's chains have not mixed, in words ([] if nothing): the worst R-hat over its monitored
    quantities above `RHAT_LIMIT`, the smallest bulk ESS below `ESS_MINIMUM` (NaN counts as a problem)."""
    problems = []
    if not rhat_max <= RHAT_LIMIT:
        problems.append(f"R̂ max {rhat_max:.3f} (> {RHAT_LIMIT})")
    if not ess_bulk_min >= ESS_MINIMUM:
        problems.append(f"bulk ESS min {ess_bulk_min:.0f} (< {ESS_MINIMUM})")
    return problems
