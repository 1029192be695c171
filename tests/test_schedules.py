"""Step-size rules: Robbins–Monro values, the adaptive rule of Ranganath et al. (2013) on a hand-computed sequence,
its clipping, and the two warm starts inside the engine."""

import numpy as np
import pytest

from explorer.kernels import RBF
from explorer.schedules import DEFAULT_STEP_RULES, Adaptive, Constant, RobbinsMonro, schedule_for
from explorer.xgpc import XGPC


def test_robbins_monro_values():
    rule = RobbinsMonro(tau=4.0, kappa=0.5 + 1e-12)
    values = [rule.rate(np.zeros(3)) for _ in range(3)]
    np.testing.assert_allclose(values, [5**-0.5, 6**-0.5, 7**-0.5], rtol=1e-11)
    rule = RobbinsMonro(tau=1.0, kappa=1.0)
    assert [rule.rate(np.zeros(1)) for _ in range(4)] == pytest.approx([1 / 2, 1 / 3, 1 / 4, 1 / 5], rel=1e-15)


def test_constant_and_validation():
    assert Constant(0.3).rate(np.ones(2)) == 0.3
    for bad in (
        lambda: Constant(0.0),
        lambda: Constant(1.5),
        lambda: RobbinsMonro(0.5),
        lambda: RobbinsMonro(1, 0.4),
        lambda: Adaptive(rho_max=1.0),
        lambda: Adaptive(warm_start_on="other"),
        lambda: schedule_for("xgpc", "x"),
        lambda: schedule_for("xgpc", object()),
    ):
        with pytest.raises(ValueError):
            bad()


def test_step_rules_come_from_the_one_table_and_given_values_win():
    rule = schedule_for("xgpc")
    default = DEFAULT_STEP_RULES["xgpc"]
    assert isinstance(rule, RobbinsMonro) and (rule.tau, rule.kappa) == (default.tau, default.kappa)
    assert isinstance(schedule_for("svgp-natgrad"), Adaptive)
    assert schedule_for("xgpc", "constant").rho == default.rho
    assert schedule_for("xgpc", "constant", rho=0.123).rho == 0.123
    assert schedule_for("svgp-natgrad", "constant").rho == DEFAULT_STEP_RULES["svgp-natgrad"].rho
    tuned = schedule_for("xgpc", "robbins-monro", tau=3.0, kappa=0.9)
    assert (tuned.tau, tuned.kappa) == (3.0, 0.9)
    given = RobbinsMonro(2.0, 0.7)
    copied = schedule_for("xgpc", given)
    copied.rate(np.zeros(1))
    assert copied is not given and (copied.tau, copied.kappa) == (2.0, 0.7) and given.t == 0 and copied.t == 1


def test_adaptive_rule_on_a_hand_computed_sequence():
    # Warm start on g = (1, 0) and (0, 1): ḡ = (½, ½), h̄ = 1, τ = 2.
    # g = (1, 1):  w = ½,  ḡ = (¾, ¾),  h̄ = ½·1 + ½·2 = 3/2,  ρ = (9/16 · 2)/(3/2) = 3/4,  τ = 2·¼ + 1 = 3/2.
    # g = (0, −1): w = 2/3, ḡ = (¼, ¼ − 2/3) = (1/4, −5/12),  h̄ = ⅓·3/2 + ⅔·1 = 7/6,
    #              ρ = (1/16 + 25/144)/(7/6) = 17/84,  τ = 3/2 · 67/84 + 1 = 369/168.
    rule = Adaptive(warm_start_batches=2)
    rule.warm_start([np.array([1.0, 0.0]), np.array([0.0, 1.0])])
    assert rule.tau == 2.0
    assert rule.rate(np.array([1.0, 1.0])) == pytest.approx(0.75, rel=1e-15)
    assert rule.tau == pytest.approx(1.5, rel=1e-15)
    assert rule.rate(np.array([0.0, -1.0])) == pytest.approx(17 / 84, rel=1e-14)
    np.testing.assert_allclose(rule.g_bar, [1 / 4, -5 / 12], rtol=1e-14)
    assert rule.h_bar == pytest.approx(7 / 6, rel=1e-14)
    assert rule.tau == pytest.approx(369 / 168, rel=1e-14)


def test_adaptive_rate_stays_in_bounds_and_identical_gradients_hit_the_clip():
    rule = Adaptive(warm_start_batches=1, rho_max=0.9)
    g = np.array([2.0, -1.0, 0.5])
    rule.warm_start([g])
    assert rule.rate(g) == 0.9  # ḡᵀḡ / h̄ = 1 without the clip
    assert rule.tau == pytest.approx(0.1 * 1.0 + 1.0)
    rng = np.random.default_rng(0)
    rule = Adaptive(warm_start_batches=3)
    rule.warm_start([rng.standard_normal(5) for _ in range(3)])
    for _ in range(200):
        rho = rule.rate(rng.standard_normal(5) * rng.uniform(0.01, 100))
        assert 0.0 < rho <= rule.rho_max
    with pytest.raises(RuntimeError, match="warm_start"):
        Adaptive().rate(g)


@pytest.mark.parametrize("warm_start_on", ["gradient", "target"])
def test_engine_warm_start_averages_gradient_or_target(warm_start_on):
    # Full batches: every warm-start sample is the same λ̂ at the initial q (η₁ = 0, η₂ = −½K⁻¹), so the expected
    # ḡ, h̄ and the first ρ follow by hand from the formulas in DESIGN §2.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(30) > 0, 1, 0)  # class indices
    kernel = RBF(np.array([1.0]), 1.5, 1e-4)
    engine = XGPC(X, y, X[:6], kernel, batch_size=30, schedule=Adaptive(3, warm_start_on), rng=rng)
    eta1, eta2 = engine.eta1.copy(), engine.eta2.copy()
    lam1, lam2 = engine.minibatch_targets(np.arange(30))
    gradient = np.concatenate([lam1 - eta1, (lam2 - eta2).ravel()])
    sample = np.concatenate([lam1, lam2.ravel()]) if warm_start_on == "target" else gradient
    engine.step()
    tau = 3.0
    g_bar = (1 - 1 / tau) * sample + gradient / tau
    h_bar = (1 - 1 / tau) * (sample @ sample) + (gradient @ gradient) / tau
    rho = min(max(g_bar @ g_bar / h_bar, 1e-6), 0.99)
    assert engine.rho == pytest.approx(rho, rel=1e-10)
    np.testing.assert_allclose(engine.eta1, eta1 + rho * (lam1 - eta1), rtol=1e-10, atol=1e-12)
    assert engine.schedule.tau == pytest.approx(tau * (1 - rho) + 1, rel=1e-10)
    if warm_start_on == "target":
        assert 0.5 < rho < 0.99  # λ̂ dominates ḡ: a large first step, but not the clipped ρ of identical samples
    else:
        assert rho == pytest.approx(0.99)  # identical samples: ḡᵀḡ = h̄, so ρ = 1 before the clip
