"""The predictive temperature (explorer.temperature): tempering against its definition, the MAP fit against a
brute-force grid of its objective computed here, recovery of a known flattening, the prior on a held-out part
without errors, bad input; and the bench's "tempered" entrants (its base fit, tempered by the T of its own
validation part)."""

import math

import numpy as np
import pytest

from explorer.bench import multiclass
from explorer.metrics import negative_log_likelihood
from explorer.temperature import BOUNDS, fit_temperature, tempered


def drawn(n, K=3, concentration=0.4, seed=0):
    """True class probabilities (n, K) and labels drawn from them."""
    rng = np.random.default_rng(seed)
    truth = rng.dirichlet(np.full(K, concentration), n)
    y = (rng.random(n)[:, None] > np.cumsum(truth, axis=1)).sum(axis=1)
    return truth, np.minimum(y, K - 1)


def grid_minimum(P, y, prior_sd, points=20001):
    """argmin over a fine grid of log T of Σ −log p_T(y) + (log T)²/(2 s²), written out here with plain numpy."""
    log_T = np.linspace(math.log(BOUNDS[0]), math.log(BOUNDS[1]), points)
    logP = np.log(P)
    values = []
    for s in log_T:
        L = logP / math.exp(s)
        top = L.max(axis=1, keepdims=True)
        log_norm = top[:, 0] + np.log(np.exp(L - top).sum(axis=1))
        penalty = 0.0 if math.isinf(prior_sd) else s * s / (2 * prior_sd**2)
        values.append(-np.sum(L[np.arange(len(y)), y] - log_norm) + penalty)
    return math.exp(log_T[int(np.argmin(values))]), log_T[1] - log_T[0]


def test_tempering_is_the_power_one_over_t_renormalised_and_keeps_each_rows_class_order():
    P, _ = drawn(50, K=4)
    for T in (0.3, 1.0, 2.5):
        expected = P ** (1 / T) / (P ** (1 / T)).sum(axis=1, keepdims=True)
        assert np.allclose(tempered(P, T), expected, rtol=1e-12, atol=0)
        assert np.array_equal(np.argsort(tempered(P, T), axis=1), np.argsort(P, axis=1))
    sharp = tempered(P, 0.5)
    assert np.all(sharp.max(axis=1) >= P.max(axis=1) - 1e-15)  # T < 1 sharpens every row


@pytest.mark.parametrize("prior_sd", [1.0, math.inf])
def test_the_fit_is_the_grid_minimum_of_the_penalised_held_out_nll(prior_sd):
    truth, y = drawn(300, seed=1)
    P = tempered(truth, 1.7)  # an under-confident model
    T = fit_temperature(P, y, prior_sd)
    best, step = grid_minimum(P, y, prior_sd)
    assert abs(math.log(T) - math.log(best)) <= step


def test_the_fit_undoes_a_known_flattening():
    truth, y = drawn(6000, seed=2)
    assert fit_temperature(tempered(truth, 2.0), y) == pytest.approx(0.5, rel=0.05)
    assert fit_temperature(tempered(truth, 0.5), y) == pytest.approx(2.0, rel=0.05)
    T = fit_temperature(tempered(truth, 2.0), y)
    assert negative_log_likelihood(tempered(tempered(truth, 2.0), T), y) < negative_log_likelihood(
        tempered(truth, 2.0), y
    )


def test_the_prior_keeps_the_fit_finite_on_a_held_out_part_without_errors():
    P = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
    y = np.array([0, 1, 2, 0])  # every row's most probable class is its label
    assert fit_temperature(P, y, math.inf) < 5 * BOUNDS[0]  # ill-posed: the held-out NLL falls toward T = 0
    T = fit_temperature(P, y)
    best, step = grid_minimum(P, y, 1.0)
    assert 0.1 < T < 1 and abs(math.log(T) - math.log(best)) <= step


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda P, y: tempered(P, 0.0), "temperature must be a finite number > 0"),
        (lambda P, y: tempered(P, float("nan")), "temperature must be a finite number > 0"),
        (lambda P, y: tempered(-P, 1.0), "non-negative"),
        (lambda P, y: fit_temperature(P, y + 3), "class indices in 0…2"),
        (lambda P, y: fit_temperature(P, y[:-1]), "class indices"),
        (lambda P, y: fit_temperature(P, y, 0.0), "prior_sd must be > 0"),
    ],
)
def test_bad_input_is_refused_by_name(call, message):
    P, y = drawn(5)
    before = P.copy()
    with pytest.raises(ValueError, match=message):
        call(P, y)
    assert np.array_equal(P, before)


def test_a_tempered_entrant_is_its_base_fit_tempered_by_the_t_of_its_validation_part(monkeypatch):
    settings = multiclass.settings_of(
        multiclass.parse_arguments(["--datasets", "wine", "--m", "10", "--batch-size", "50", "--iterations", "60"])
    )
    fits = {}
    original = multiclass.tempered_record

    def spy(name, fold, short, split, n, starts, trainers):  # keep the base's fit to check the record against it
        fits[short] = (starts, trainers)
        return original(name, fold, short, split, n, starts, trainers)

    monkeypatch.setattr(multiclass, "tempered_record", spy)
    records = multiclass.race_task("wine", 0, ["stick-tempered", "stick-tempered-no-prior"], settings)
    assert [r["method"] for r in records] == ["xgpc-stick", "stick-tempered", "stick-tempered-no-prior"]
    base, *temper = records
    starts, trainers = fits["stick-tempered"]
    start, engine = starts["xgpc-stick"][0], trainers["xgpc-stick"].engine
    for record, prior_sd in zip(temper, (1.0, math.inf)):
        T = fit_temperature(engine.predict_proba(start.X_monitor), start.y_monitor, prior_sd)
        assert record["temperature"] == T and record["iterations"] == base["iterations"] == 60
        assert record["test_error"] == base["test_error"]  # tempering never changes the predicted class
        P = tempered(engine.predict_proba(start.X_test), T)
        assert record["test_nll"] == pytest.approx(negative_log_likelihood(P, start.y_test), rel=1e-12)
        assert record["seconds"] >= base["seconds"] and "trace" not in record
