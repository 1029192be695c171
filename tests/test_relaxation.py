"""Issue 11's minibatch growth (Friedlander & Schmidt 2012) and over-relaxed full-batch steps (Salakhutdinov & Roweis
2003): the growth schedule's values, the noise-scaled ρ against the variance of a minibatch sum drawn without
replacement, the over-relaxed steps' monotone bound and their optimum against plain coordinate ascent, argument
checks, and the state contract (save/load and the rollback of a failed iteration)."""

import copy
import json
import warnings

import numpy as np
import pytest
from test_engine import assert_same_tree

from explorer import methods
from explorer.bench import dynamics
from explorer.bench.xgpc_variants import VARIANT_DEFAULTS, grown_batch_size, noise_scaled_rho, variants_like
from explorer.kernels import RBF
from explorer.linalg import NumericalError
from explorer.studies.race import log_spaced_evaluation
from explorer.training import Trainer, fit_to_optimum


def confident_problem(n=240, m=20, seed=0):
    """Nearly separable 2-D data: |f| grows large, where plain coordinate ascent is slow (an EM rate)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] + 0.1 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y, X[rng.choice(n, m, replace=False)]


def xgpc(X, y, Z, *, batch_size=None, learn=False, seed=0, **options):
    """X-GPC from `methods.build` with the method's options, as `XGPCVariants` (`variants_like`) with the variant
    options among `options`."""
    variants = {name: options.pop(name) for name in VARIANT_DEFAULTS if name in options}
    engine = methods.build(
        "xgpc",
        X,
        y,
        Z,
        RBF(1.0, 20.0, 1e-4),
        batch_size=batch_size or len(y),
        rng=np.random.default_rng(seed),
        learn_hyperparameters=learn,
        **options,
    )
    return variants_like(engine, **variants) if variants else engine


def full_batch_ascent(X, y, Z, **options):
    return xgpc(X, y, Z, step_size="constant", rho=1.0, **options)


# ----- the growing minibatch ----------------------------------------------------------------------------------
def test_grown_batch_size_values_by_hand():
    # base 10, ×2 every 2nd iteration after 3, n = 100: t = 1–3 → 10; t = 4, 5 → one period, 20; t = 6, 7 → 40;
    # t = 8, 9 → 80; t = 10 → 160, capped at n.
    sizes = [grown_batch_size(t, 10, 100, growth=2.0, start=3, every=2) for t in range(1, 12)]
    assert sizes == [10, 10, 10, 20, 20, 40, 40, 80, 80, 100, 100]
    # ×1.5 each iteration from the start, rounded up, capped at 300 rows: 150, 225, ⌈337.5⌉ → 300
    assert [grown_batch_size(t, 100, 1000, growth=1.5, cap=300) for t in (1, 2, 3)] == [150, 225, 300]
    assert grown_batch_size(10**9, 100, 1000, growth=1e6) == 1000  # no overflow of 1e6^1e9
    assert grown_batch_size(10**9, 100, 1000) == 100  # growth 1: a fixed minibatch
    assert grown_batch_size(5, 100, 1000, growth=2.0, cap=5000) == 1000  # a cap above n is n


def test_the_engine_draws_minibatches_of_the_grown_sizes_and_ends_on_the_full_batch():
    X, y, Z = confident_problem(n=100)
    engine = xgpc(X, y, Z, batch_size=10, batch_growth=2.0, batch_growth_start=3, batch_growth_every=2)
    sizes = []
    for _ in range(11):
        engine.step()
        assert len(np.unique(engine.last_batch)) == len(engine.last_batch)  # distinct rows
        sizes.append(len(engine.last_batch))
    assert sizes == [10, 10, 10, 20, 20, 40, 40, 80, 80, 100, 100]
    np.testing.assert_array_equal(engine.last_batch, np.arange(100))


def test_before_it_grows_the_run_is_bit_identical_to_a_fixed_minibatch_run():
    X, y, Z = confident_problem()
    grown = xgpc(X, y, Z, batch_size=30, batch_growth=1.5, batch_growth_start=6, batch_rho="noise", learn=True)
    fixed = xgpc(X, y, Z, batch_size=30, learn=True)
    grown.step(6)
    fixed.step(6)
    np.testing.assert_array_equal(grown.eta2, fixed.eta2)
    assert grown.kernel.log_params.tolist() == fixed.kernel.log_params.tolist()
    grown.step()
    fixed.step()
    assert len(grown.last_batch) == 45 and not np.array_equal(grown.eta2, fixed.eta2)


def test_the_noise_scaled_step_matches_the_variance_of_a_minibatch_sum_drawn_without_replacement():
    n, base, s = 20, 4, 12
    rng = np.random.default_rng(1)
    values = rng.standard_normal(n) + 3.0
    draws = np.argsort(rng.random((100_000, n)), axis=1)  # each row a random permutation: its first s rows a minibatch
    variance = {k: np.var(n / k * values[draws[:, :k]].sum(1)) for k in (base, s)}
    r = (1 / s - 1 / n) / (1 / base - 1 / n)
    assert variance[s] / variance[base] == pytest.approx(r, rel=0.03)
    # ρ read as the gain d²/(d² + V) of a noisy fixed-point step: d² = 2, V = 3 give ρ = 0.4; with the noise × r the
    # gain is 2/(2 + 3r)
    assert noise_scaled_rho(0.4, s, base, n) == pytest.approx(2.0 / (2.0 + 3.0 * r), rel=1e-12)
    assert noise_scaled_rho(0.4, base, base, n) == 0.4 and noise_scaled_rho(0.4, n, base, n) == 1.0
    rhos = [noise_scaled_rho(0.05, k, base, n) for k in range(base, n + 1)]
    assert np.all(np.diff(rhos) > 0)


def test_a_minibatch_grown_to_n_with_noise_scaled_steps_becomes_coordinate_ascent():
    X, y, Z = confident_problem()
    engine = xgpc(X, y, Z, batch_size=24, batch_growth=2.0, batch_growth_start=5, batch_rho="noise")
    engine.step(5)
    rho_small = engine.rho
    engine.step(4)  # 48, 96, 192, 240 = n
    assert len(engine.last_batch) == len(y) and engine.rho == 1.0 and rho_small < 0.3
    bounds = [engine.elbo()]
    for _ in range(15):
        engine.step()
        bounds.append(engine.elbo())
    assert np.all(np.diff(bounds) >= -1e-9 * np.abs(bounds[:-1]))  # coordinate ascent never lowers the bound


# ----- over-relaxed full-batch steps ---------------------------------------------------------------------------
@pytest.mark.parametrize("alpha, accepted", [(1.5, True), (2.0, True), (50.0, False)])  # ρ = 50: always refused
def test_over_relaxed_steps_never_lower_the_bound_and_do_over_relax(alpha, accepted):
    X, y, Z = confident_problem()
    engine = full_batch_ascent(X, y, Z, overrelax=alpha)
    bounds, rhos = [engine.elbo()], []
    for _ in range(40):
        engine.step()
        bounds.append(engine.elbo())
        rhos.append(engine.rho)
    assert np.all(np.diff(bounds) >= -1e-9 * np.abs(bounds[:-1]))
    assert (max(rhos) > 1.0) == accepted and min(rhos) == 1.0  # steps beyond coordinate ascent taken or refused


def test_at_the_optimum_over_relaxed_steps_are_refused_whatever_the_rounding():
    """Near the optimum an over-relaxed proposal and η give the same bound up to rounding (±3e-14 here): keeping it
    only for a gain above `OVERRELAX_GAIN`·|L| refuses it on any CPU. With no margin the last bit decided: 8 of steps
    100–150 were over-relaxed here, 6 under OpenBLAS's Haswell kernels."""
    X, y, Z = confident_problem()
    engine = full_batch_ascent(X, y, Z, overrelax=1.5)
    rhos = []
    for _ in range(150):
        engine.step()
        rhos.append(engine.rho)
    assert sum(rho > 1.0 for rho in rhos[:50]) > 20  # far from the optimum it over-relaxes
    assert rhos[100:] == [1.0] * 50


def test_the_over_relaxed_step_is_judged_by_the_augmented_elbo():
    X, y, Z = confident_problem()
    engine = full_batch_ascent(X, y, Z, overrelax=2.0)
    engine.step(3)
    rows = np.arange(len(y))
    kappa, K_tilde, _ = engine.project(X, rows)
    _, bound = engine._optimal_bound_terms(kappa, K_tilde, 2.0 * y - 1.0)  # the equations' labels ±1
    assert bound == pytest.approx(engine.elbo(), rel=1e-12)


@pytest.mark.parametrize("full", [False, True])
def test_over_relaxation_reaches_the_coordinate_ascent_optimum_in_fewer_sweeps(full):
    X, y, Z = confident_problem(n=120 if full else 240)
    plain = full_batch_ascent(X, y, None if full else Z, full=full)
    relaxed = full_batch_ascent(X, y, None if full else Z, full=full, overrelax=2.0)
    fit_plain = fit_to_optimum(plain, tolerance=1e-11, max_sweeps=3000)
    fit_relaxed = fit_to_optimum(relaxed, tolerance=1e-11, max_sweeps=3000)
    assert fit_plain.converged and fit_relaxed.converged
    assert fit_relaxed.sweeps < 0.7 * fit_plain.sweeps
    scale = 1.0 + np.max(np.abs(plain.mu))
    np.testing.assert_allclose(relaxed.mu, plain.mu, atol=1e-7 * scale)
    np.testing.assert_allclose(relaxed.Sigma, plain.Sigma, atol=1e-7 * np.max(np.abs(plain.Sigma)))
    assert relaxed.elbo() == pytest.approx(plain.elbo(), rel=1e-10)
    # the optimum is a fixed point of the coordinate-ascent map: the targets there are η itself
    lam1, lam2 = relaxed.minibatch_targets(np.arange(len(y)))
    np.testing.assert_allclose(lam1, relaxed.eta1, atol=1e-6 * np.max(np.abs(relaxed.eta1)))
    np.testing.assert_allclose(lam2, relaxed.eta2, atol=1e-6 * np.max(np.abs(relaxed.eta2)))


def test_over_relaxation_waits_for_the_full_batch_of_a_growing_minibatch():
    X, y, Z = confident_problem()
    engine = xgpc(
        X, y, Z, batch_size=30, step_size="constant", rho=0.5, batch_growth=2.0, batch_growth_start=2, overrelax=2.0
    )
    engine.step(4)  # 30, 30, 60, 120 rows: the minibatch steps take the rule's ρ
    assert engine.rho == 0.5 and engine.overrelax_rho == 1.0
    engine.step()  # the first full batch: a plain step, then ρ = α
    assert len(engine.last_batch) == len(y) and engine.rho == 1.0 and engine.overrelax_rho == 2.0
    engine.step(2)
    assert engine.rho in (1.0, 2.0, 4.0)


# ----- arguments -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, words",
    [
        ({"batch_growth": 0.5}, "batch_growth"),
        ({"batch_growth": float("nan")}, "batch_growth"),
        ({"batch_growth": float("inf")}, "batch_growth"),
        ({"batch_growth": True}, "batch_growth"),
        ({"batch_growth_start": -1}, "batch_growth_start"),
        ({"batch_growth_start": 1.5}, "batch_growth_start"),
        ({"batch_growth_every": 0}, "batch_growth_every"),
        ({"batch_max": 5}, "batch_max"),
        ({"batch_rho": "adaptive"}, "batch_rho"),
        ({"overrelax": 1.0}, "overrelax"),
        ({"overrelax": float("nan")}, "overrelax"),
        ({"overrelax": "2"}, "overrelax"),
        ({"overrelax": 2.0}, "full batches"),
        ({"overrelax": 2.0, "batch_growth": 2.0, "batch_max": 100}, "full batches"),
        ({"overrelax": 2.0, "batch_growth": 2.0, "hyper_rate": "rho"}, "hyper_rate"),
    ],
)
def test_bad_growth_and_over_relaxation_arguments_are_refused_by_name(options, words):
    X, y, Z = confident_problem()
    with pytest.raises(ValueError, match=words):
        xgpc(X, y, Z, batch_size=30, learn=True, **options)


def test_a_cap_above_n_is_clamped_with_a_warning():
    X, y, Z = confident_problem()
    with pytest.warns(UserWarning, match="batch_max 1000 > n = 240"):
        engine = xgpc(X, y, Z, batch_size=30, batch_growth=2.0, batch_max=1000, overrelax=2.0)
    assert engine.batch_max == 240 and engine.batch_size_at(10) == 240


# ----- the state contract -----------------------------------------------------------------------------------------
GROW_THEN_RELAX = {
    "batch_growth": 2.0,
    "batch_growth_start": 2,
    "batch_rho": "noise",
    "overrelax": 2.0,
    "hyper_every": 1,
}


def test_a_saved_growing_over_relaxed_run_continues_bit_identically():
    X, y, Z = confident_problem()
    engine = xgpc(X, y, Z, batch_size=30, learn=True, **GROW_THEN_RELAX)
    engine.step(5)  # full batches from iteration 5 on, over-relaxed, with a kernel step every iteration
    while engine.overrelax_rho <= 2.0:  # saved where the next proposal is over-relaxed beyond α
        engine.step()
        assert engine.iteration < 30
    state = copy.deepcopy(engine.state_dict())
    restored = xgpc(X, y, Z, batch_size=30, learn=True, seed=99, **GROW_THEN_RELAX)
    restored.load_state_dict(state)
    engine.step(6)
    restored.step(6)
    assert_same_tree(engine.state_dict(), restored.state_dict())
    assert engine.elbo() == restored.elbo()


@pytest.mark.parametrize("before_failure", [1, 3, 8])  # a minibatch step, a growing one, an over-relaxed one
def test_a_failing_iteration_leaves_a_growing_over_relaxed_run_as_it_was(before_failure, monkeypatch):
    X, y, Z = confident_problem()
    engine = xgpc(X, y, Z, batch_size=30, learn=True, **GROW_THEN_RELAX)
    twin = xgpc(X, y, Z, batch_size=30, learn=True, **GROW_THEN_RELAX)
    engine.step(before_failure)
    twin.step(before_failure)
    before = copy.deepcopy(engine.state_dict())

    def fail(self, X_b, y_b, context):  # after q(u), ρ and the over-relaxation's state have moved
        raise NumericalError("forced failure in the kernel step")

    with monkeypatch.context() as patch:
        patch.setattr(type(engine), "_minibatch_kernel_gradient", fail)
        with pytest.raises(NumericalError, match="forced"):
            engine.step(2)
    assert_same_tree(before, engine.state_dict())
    engine.step(4)
    twin.step(4)
    assert_same_tree(twin.state_dict(), engine.state_dict())
    assert engine.elbo() == twin.elbo()


# ----- the bench entrants ---------------------------------------------------------------------------------------
def test_tiny_dynamics_run_with_the_growth_and_over_relaxation_entrants(tmp_path, paper_data):
    path = tmp_path / "dynamics.json"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no entrant's batch settings are clamped
        assert (
            dynamics.main(
                [
                    "--datasets",
                    "diabetes",
                    "--seconds",
                    "0.4",
                    "--entrants",
                    "overrelaxed",
                    "grow-overrelaxed",
                    "--no-write-md",
                    "--json",
                    str(path),
                ]
            )
            == 0
        )
    entrants = json.loads(path.read_text())["races"]["diabetes"]["entrants"]
    assert len(entrants) == 3  # with natural-gradient SVGP
    for r in entrants.values():
        assert r["iterations"] > 0 and 0.0 < r["final_nll"] < np.log(2.0) + 0.05


def test_race_evaluations_come_before_a_growing_minibatch_doubles_and_within_two_seconds_of_training():
    X, y, Z = confident_problem(n=240)
    engine = xgpc(X, y, Z, batch_size=10, batch_growth=1.5, batch_growth_start=40)
    trainer = Trainer(engine, X[:50], y[:50], eval_every=10)
    while engine.iteration < 60:
        log_spaced_evaluation(trainer)
        t = engine.iteration
        assert (
            engine.batch_size_at(t + trainer.eval_every) <= 2 * engine.batch_size_at(t + 1) or trainer.eval_every == 1
        )
        trainer.step(trainer.eval_every - t % trainer.eval_every)
    assert len(engine.last_batch) == 240
    fixed = xgpc(X, y, Z, batch_size=10)
    fixed.iteration = 4000  # the log spacing alone would evaluate every 100th iteration here
    trainer = Trainer(fixed, X[:50], y[:50])
    trainer.history.append({"iteration": 3990, "seconds": 1.0})
    trainer.history.append({"iteration": 4000, "seconds": 3.0})  # 0.2 s per iteration
    log_spaced_evaluation(trainer)
    assert trainer.eval_every == 10
    trainer.history.append({"iteration": 4010, "seconds": 3.01})  # 1 ms per iteration
    log_spaced_evaluation(trainer)
    assert trainer.eval_every == 100
