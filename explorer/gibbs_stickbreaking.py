"""Exact Gibbs sampler for the full (non-sparse) K-class stick-breaking logit GP (Linderman, Johnson, Adams, NeurIPS
2015; the model of `explorer.xgpc_stickbreaking`, the default multi-class X-GPC): the ground truth of its MCMC
comparison.

Model: the classes on a stick in an order π (π(k) the class at position k), K − 1 latent logits ψ_j ~ N(0, K) with
one shared K = kernel.gram(X), a priori independent, and

    p(y = π(k) | ψ) = σ(ψ_k) Π_{j<k} σ(−ψ_j)   (k < K − 1),     p(y = π(K−1) | ψ) = Π_{j<K−1} σ(−ψ_j).

With p_i the stick position of y_i, p(y | ψ) = Π_j Π_{i: p_i ≥ j} σ(t_ij ψ_j(x_i)), t_ij = +1 if p_i = j, −1 if
p_i > j: a product over the logits of binary logit likelihoods, logit j on the points that reach it. At a fixed
kernel the priors are independent too, so the exact posterior factorises,

    p(ψ_0, …, ψ_{K−2} | y) = Π_j p(ψ_j | y_{i: p_i ≥ j}),

K − 1 independent binary logit GP posteriors, logit j on the points that reach stick position j, labelled "is the
class π(j)" (1) against "beyond it" (0). Each is sampled by the binary PG Gibbs sampler itself (`gibbs.GibbsSampler`,
one per logit, each from its own stream of the caller's Generator); one sweep of the joint chain is one sweep of
every logit's chain, and a joint draw is the logits' draws of the same chain and sweep (independent chains of
independent posteriors: a draw of the joint posterior). The predictive averages the likelihood over joint draws,
Rao–Blackwellised over ψ* | ψ (given a draw the logits' ψ*_j are independent normals):

    p(y* = π(k) | y) = mean_s P_k(s) Π_{j<k} Q_j(s),   P_j(s) = ∫σ(ψ)N(ψ | K_*n K⁻¹ψ_{j,s}, k** − K_*n K⁻¹K_n*)dψ,

Q_j(s) = 1 − P_j(s) (both by the binary predictive's rule, `xgpc_stickbreaking.logit_predictive_pair`), and
p(y* = π(K−1) | y) = mean_s Π_{j<K−1} Q_j(s). The run length, chains, forms, traces and diagnostics are the binary
sampler's; this class gives the joint chain the interface of `gibbs.GibbsChains` that the MCMC comparison reads
(`explorer.studies.comparison`, `explorer.compare`, the dashboard's MCMC tab).
"""

from __future__ import annotations

import numpy as np

from explorer.gibbs import GibbsSampler, SweepRun, check_class_indices, generator
from explorer.inputs import labelled_data, query_points
from explorer.kernels import Kernel
from explorer.xgpc_stickbreaking import (
    DEFAULT_CLASS_ORDER,
    StickBreaking,
    logit_predictive_pair,
    stick_order,
    stick_probabilities,
)

_PREDICT_CHUNK = 2_000_000  # joint draws × test points per block in predict_proba


class StickBreakingGibbsSampler(SweepRun):
    """Several independent Gibbs chains of the full K-class stick-breaking logit GP, advanced incrementally with
    `step(k)`: one binary PG sampler (`gibbs.GibbsSampler`) per logit on the points that reach it (module docstring).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Training inputs (finite).
    y : ndarray of shape (n,)
        Class indices 0…K−1. Every logit needs both of its labels: each class before the last on the stick must be
        present, and some point must lie beyond it (a ValueError names the class otherwise).
    kernel : Kernel
        The one fixed kernel of every logit; `kernel.gram(X)` includes its nugget.
    n_classes : int
        K ≥ 2 (K = 2: the binary logit model, one logit, p(y = π(0)) = σ(ψ_0)).
    class_order : {"given", "frequency"} or sequence of int, default "given"
        The classes' order on the stick, as `xgpc_stickbreaking.StickBreaking` lays them (`stick_order`, from
        the labels' counts): compare a fit with the sampler of the same order.
    rng : numpy.random.Generator, optional
        Spawned into one stream per logit (each binary sampler spawns its chains from it); None: a fresh, unseeded
        one.
    n_chains, burn_in, n_samples, thin, max_stored_draws, form, init_scale, monitor, force :
        Every logit's binary sampler's (`gibbs.GibbsSampler`): the same run length and storage for all, so the
        logits' chains advance and store draws in step (`monitor`: indices into each logit's rows).

    Attributes
    ----------
    logits : list of explorer.gibbs.GibbsSampler
        The K − 1 binary samplers, logit j on the rows `subsets[j]` (stick position ≥ j), label 1 where the row's
        class is π(j).
    subsets : list of ndarray of int
        The training rows each logit sees.
    likelihood : explorer.xgpc_stickbreaking.StickBreaking
        The model's likelihood and class order (`likelihood.order`).

    Examples
    --------
    Three classes in order along a line (the stick's given order):

    >>> import numpy as np
    >>> from explorer.kernels import RBF
    >>> X, y = np.linspace(-3, 3, 30)[:, None], np.repeat([0, 1, 2], 10)
    >>> sampler = StickBreakingGibbsSampler(X, y, RBF(1.0), 3, rng=np.random.default_rng(0), n_chains=2, burn_in=20,
    ...                                     n_samples=100).run()
    >>> [len(rows) for rows in sampler.subsets], sampler.traces.shape[:2]
    ([30, 20], (2, 120))
    >>> P = sampler.predict_proba(np.array([[-3.0], [0.0], [3.0]]))
    >>> bool(np.allclose(P.sum(axis=1), 1.0)), P.argmax(axis=1).tolist()
    (True, [0, 1, 2])
    """

    def __init__(
        self,
        X: np.ndarray,
        y: np.ndarray,
        kernel: Kernel,
        n_classes: int,
        *,
        class_order=DEFAULT_CLASS_ORDER,
        rng: np.random.Generator | None = None,
        **run,
    ):
        self.X, self.y = labelled_data(X, y)
        self.n = len(self.y)
        if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) or n_classes < 2:
            raise ValueError(f"the stick-breaking sampler needs a whole number K ≥ 2 of classes, got {n_classes!r}")
        self.n_classes = int(n_classes)
        check_class_indices(self.y, self.n_classes, "the sampler")
        counts = np.bincount(self.y, minlength=self.n_classes)
        self.likelihood = StickBreaking(self.n_classes, stick_order(counts, class_order))
        positions = self.likelihood.equation_labels(self.y)
        self.subsets, self.logits = [], []
        for j, stream in enumerate(generator(rng).spawn(self.n_classes - 1)):
            rows = np.flatnonzero(positions >= j)
            stops = (positions[rows] == j).astype(int)
            if stops.min() == stops.max():
                missing = f"no row of the class {self.likelihood.order[j]}" if stops.max() == 0 else "no row beyond it"
                raise ValueError(
                    f"logit {j} of the stick decides 'class {self.likelihood.order[j]}' against the classes after it "
                    f"on the stick ({list(self.likelihood.order[j + 1 :])}), but its {len(rows)} rows hold {missing}: "
                    "its exact posterior is the prior's, which the binary sampler does not run; give the sampler rows "
                    "of every class"
                )
            self.subsets.append(rows)
            self.logits.append(GibbsSampler(self.X[rows], stops, kernel, rng=stream, **run))
        self.kernel = kernel
        for name in ("n_chains", "burn_in", "n_samples", "thin", "total_sweeps"):  # every logit's alike
            setattr(self, name, getattr(self.logits[0], name))
        self.trace_names = ["log_likelihood"] + [
            f"ψ{j}[{rows[i]}]" for j, (rows, logit) in enumerate(zip(self.subsets, self.logits)) for i in logit.monitor
        ]
        self.seconds = 0.0

    # ----- running -----------------------------------------------------------------------------------------------
    @property
    def sweeps_done(self) -> int:
        """Sweeps of the joint chain done (every logit's chains have done as many)."""
        return self.logits[0].sweeps_done

    @property
    def draws_stored(self) -> int:
        """Stored joint draws per chain."""
        return self.logits[0].draws_stored

    def _sweeps(self, k: int) -> None:
        """k sweeps of every chain of every logit."""
        for logit in self.logits:
            logit.step(k)

    # ----- stored output -----------------------------------------------------------------------------------------
    @property
    def traces(self) -> np.ndarray:
        """Monitored scalars (`trace_names`) at every sweep so far, burn-in included: (chains, sweeps_done, k). The
        first is the joint log-likelihood log p(y | ψ), the sum of the logits' binary log-likelihoods on the rows
        that reach them; then each logit's monitored values."""
        parts = [logit.traces for logit in self.logits]
        return np.concatenate([sum(part[..., :1] for part in parts)] + [part[..., 1:] for part in parts], axis=-1)

    def predict_latent(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and variance of every logit ψ*_j at Xs (n*, d) (each logit's `GibbsSampler.predict_latent`):
        (n*, K−1), (n*, K−1)."""
        parts = [logit.predict_latent(Xs) for logit in self.logits]
        return np.column_stack([mean for mean, _ in parts]), np.column_stack([var for _, var in parts])

    def mean_standard_error(self, Xs: np.ndarray) -> np.ndarray:
        """Monte Carlo standard error of `predict_latent`'s mean at Xs, per logit: (n*, K−1)."""
        return np.column_stack([logit.mean_standard_error(Xs) for logit in self.logits])

    def predict_proba(self, Xs: np.ndarray) -> np.ndarray:
        """The posterior predictive class probabilities p(y* = k | y) at Xs (n*, d): (n*, K), column k the class k,
        rows summing to 1: the stick's products of every logit's Rao–Blackwellised P_j(s) averaged over the joint
        draws s (module docstring)."""
        self._require_draws()
        Xs = query_points(Xs, self.X.shape[1])
        draws = self.n_chains * self.draws_stored
        rows = max(1, _PREDICT_CHUNK // draws)
        out = np.empty((len(Xs), self.n_classes))
        for start in range(0, len(Xs), rows):
            part = Xs[start : start + rows]
            P, Q = np.empty((draws, len(part), self.n_classes - 1)), np.empty((draws, len(part), self.n_classes - 1))
            for j, logit in enumerate(self.logits):
                means, var = logit._test_conditionals(part)  # (draws, rows), (rows,): ψ*_j | ψ_{j,s}
                P_j, Q_j = logit_predictive_pair(means.ravel(), np.tile(var, draws))
                P[:, :, j], Q[:, :, j] = P_j.reshape(means.shape), Q_j.reshape(means.shape)
            out[start : start + rows] = stick_probabilities(P, Q).mean(axis=0)[:, self.likelihood.positions]
        return out

    def _draw_sets(self) -> list[np.ndarray]:
        return [logit.draws for logit in self.logits]  # every logit's at the rows it sees
