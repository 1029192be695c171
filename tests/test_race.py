"""The race's one study (`explorer.studies.race`): the band against hand-computed cases, the verdict on a race every
entrant wins on accuracy (test error 0, NLLs 0.022 and 0.043), the same verdict from the bench, the tab and the report
for the same traces, and a race's steps (fair slices, every entrant done at the end)."""

import html
import json
import math

import holoviews as hv
import numpy as np
import pytest

from explorer.bench.race import time_to_quality
from explorer.dashboard.race import TRAIN_DATA, RaceTab
from explorer.dashboard.race_report import race_report_from_json
from explorer.data import datasets
from explorer.kernels import make_kernel
from explorer.model import Model
from explorer.run import start_run
from explorer.studies.race import NAMES, Race, band_edge, judge, log_spaced_evaluation

LOG2 = 0.6931471805599453


def _history(seconds, nll, error):
    seconds = np.asarray(seconds, float)
    return {
        "seconds": seconds,
        "iteration": 10 * np.arange(len(seconds), dtype=float),
        "test_nll": np.asarray(nll, float),
        "test_error": np.asarray(error, float),
    }


# ----- the band -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "best, band, edge",
    [
        (0.33, 0.01, 0.33 + 0.01 * (LOG2 - 0.33)),  # a9a-like: 0.333631, about 1.1% of the NLL
        (0.022, 0.01, 0.0287115),  # banana-like: 0.022 + 0.01 · 0.6711 (1% of the NLL would be 0.00022)
        (0.022, 0.05, 0.0555574),
        (0.0, 0.01, 0.0069315),  # a perfect reference: 1% of a coin flip's NLL
        (0.9, 0.01, 0.9),  # a reference worse than a coin flip has no gain to share: the band is the reference
    ],
)
def test_band_edge_by_hand(best, band, edge):
    assert band_edge(best, band) == pytest.approx(edge, abs=1e-7)


def test_three_classes_measure_the_band_from_chance_log_3():
    """With K = 3 classes chance is p = 1/3 everywhere, NLL log 3 = 1.0986: best 0.1 gives the 1% edge
    0.1 + 0.01 · 0.9986 = 0.109986 (from a coin flip's log 2 it would be 0.105931), and a final NLL of 0.5 keeps
    (1.0986 − 0.5) / (1.0986 − 0.1) = 59.94% of the best gain."""
    seconds = np.arange(1.0, 9.0)
    best = _history(seconds, np.full(8, 0.1), np.full(8, 0.05))
    worse = _history(seconds, np.full(8, 0.5), np.full(8, 0.2))
    verdict = judge({"xgpc": best, "svgp-adam": worse}, classes=3)
    assert verdict.edge == pytest.approx(0.109986, abs=1e-6) and verdict.chance == pytest.approx(1.0986123)
    assert verdict.standings[1].gain / verdict.standings[0].gain == pytest.approx(0.5994, abs=1e-4)
    assert "of the best final gain over chance (log 3)" in verdict.words()
    assert judge({"xgpc": best}).edge == pytest.approx(0.105931, abs=1e-6)  # two classes: as before


def test_judge_reads_the_reference_first_and_settled_by_hand():
    """Final NLL = median of the last five evaluations: A's is 0.30, B's 0.31, so the reference is 0.30 and the 1% band
    ends at 0.30 + 0.01 · (log 2 − 0.30) = 0.303931. A enters at 2 s and stays; B dips in at 1 s (0.302), leaves at
    2 s, comes back at 5–6 s (0.303, 0.3035) and ends outside (0.31): it never settles."""
    seconds = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    a = [0.69, 0.40, 0.303, 0.30, 0.30, 0.30, 0.30, 0.30, 0.30]
    b = [0.69, 0.302, 0.35, 0.32, 0.31, 0.303, 0.3035, 0.31, 0.31]
    verdict = judge(
        {"xgpc": _history(seconds, a, [0.2] * 9), "svgp-natgrad": _history(seconds, b, [0.2] * 9)}, budget=8.0
    )
    assert verdict.best_nll == 0.30 and verdict.edge == pytest.approx(0.303931, abs=1e-6)
    xgpc, natgrad = verdict.standings
    assert (xgpc.first, xgpc.settled) == (2.0, 2.0)
    assert natgrad.first == 1.0 and natgrad.settled == math.inf and natgrad.final_nll == 0.31
    assert verdict.winner is xgpc and verdict.conclusive  # settled at 2 s of 8: held the band for 6 s
    words = verdict.words()
    assert words.startswith("**X-GPC won**") and "NLL ≤ 0.3039" in words
    assert "SVGP (natural gradients) reached the band at 1 s but did not stay (final NLL 0.3100)" in words


def test_a_winner_that_settles_in_the_races_last_half_is_too_short_to_call():
    seconds = np.linspace(0.0, 8.0, 17)
    falling = 0.3 + 0.4 * np.exp(-seconds / 2.0)  # still falling at the end: inside the band from 6.5 s
    verdict = judge({"svgp-adam": _history(seconds, falling, np.full(17, 0.2))}, budget=8.0)
    assert verdict.winner.settled > 4.0 and not verdict.conclusive
    assert verdict.words().startswith("**Too short to call**: SVGP (Adam) settled first")
    assert judge({"svgp-adam": _history(seconds, falling, np.full(17, 0.2))}).conclusive  # no budget given: no caveat


def test_every_entrant_right_everywhere_is_judged_by_the_time_to_test_error_0():
    """The built-in banana-like race: every entrant ends with test error 0 and NLLs 0.022 (SVGP-Adam) and 0.043
    (X-GPC). The band (edge 0.0287) holds SVGP-Adam only, but a speed verdict on confidence alone would be wrong to
    teach: the verdict says every method is right everywhere, that the NLLs differ in confidence, and ranks the time to
    test error 0 (X-GPC at 1 s to stay, SVGP-Adam at 3 s)."""
    seconds = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    xgpc = _history(seconds, [0.69, 0.2, 0.1, 0.05, 0.044, 0.043, 0.043, 0.043, 0.043], [0.5, 0, 0, 0, 0, 0, 0, 0, 0])
    adam = _history(
        seconds, [0.69, 0.4, 0.2, 0.08, 0.03, 0.022, 0.022, 0.022, 0.021], [0.5, 0.1, 0.05, 0, 0, 0, 0, 0, 0]
    )
    verdict = judge({"xgpc": xgpc, "svgp-adam": adam}, budget=8.0)
    assert verdict.best_nll == 0.022 and verdict.edge == pytest.approx(0.0287115, abs=1e-6)
    assert verdict.solved
    by_name = {s.entrant: s for s in verdict.standings}
    assert by_name["svgp-adam"].settled == 5.0 and by_name["xgpc"].settled == math.inf  # the band's own reading
    assert (by_name["xgpc"].error_zero, by_name["svgp-adam"].error_zero) == (1.0, 3.0)
    words = verdict.words()
    assert words.startswith("**Every method classifies every test point correctly**")
    assert "won" not in words and "cannot show the paper's claim" in words and "0.0220–0.0430" in words
    assert words.endswith("Test error 0 to stay: X-GPC after 1 s, SVGP (Adam) after 3 s.")
    # a third entrant that blew up (natural-gradient SVGP did on banana-like) is named with its error
    wrong = _history(
        seconds, [0.69, 0.3, 0.1, 0.05, 0.048, 0.3, 0.5, 0.52, 0.52], [0.5, 0.1, 0, 0, 0, 0.2, 0.2, 0.21, 0.21]
    )
    verdict = judge({"xgpc": xgpc, "svgp-adam": adam, "svgp-natgrad": wrong}, budget=8.0)
    assert verdict.solved and verdict.words().startswith("**2 of 3 methods classify every test point correctly**")
    assert verdict.words().endswith("; SVGP (natural gradients) ends with test error 0.2 (NLL 0.5000).")


def test_no_entrant_settled_ranks_the_final_nlls_by_their_gain():
    """Final NLLs 0.41 (X-GPC: median of 0.40, 0.42) and 0.47 (EPGPC): the edge 0.41 + 0.01 · (log 2 − 0.41) =
    0.412831 holds neither last evaluation, so nobody settled; the words rank the final NLLs and say how much of the
    best gain over a coin flip each kept."""
    verdict = judge(
        {
            "xgpc": _history([0.0, 1.0], [0.40, 0.42], [0.2, 0.2]),
            "epgpc": _history([0.0, 1.0], [0.50, 0.44], [0.3, 0.2]),
        }
    )
    assert verdict.best_nll == pytest.approx(0.41) and verdict.winner is None
    assert verdict.standings[0].first == 0.0 and verdict.standings[1].first == math.inf
    words = verdict.words()
    assert words.startswith("No method settled") and "**X-GPC** (0.4100)" in words
    share = 100 * (LOG2 - 0.47) / (LOG2 - 0.41)  # 78.8%
    assert f"EPGPC 0.4700 ({share:.1f}% of its gain)" in words


@pytest.mark.parametrize("order", [["xgpc", "svgp-adam"], ["svgp-adam", "xgpc"]])
def test_a_tie_goes_to_the_entrant_listed_first(order):
    """Two entrants with the same history settle at the same second (and, in a race nobody settles, end at the same
    NLL): the one listed first wins (is ranked first), whichever it is, not whichever a sort happened to leave first."""
    same = _history([0.0, 1.0, 2.0], [0.6, 0.3, 0.3], [0.2, 0.1, 0.1])
    verdict = judge({name: same for name in order})
    assert verdict.winner.entrant == order[0] and verdict.winner.settled == verdict.standings[1].settled == 1.0
    unsettled = _history([0.0, 1.0], [0.40, 0.42], [0.2, 0.2])
    words = judge({name: unsettled for name in order}, band=1e-9).words()
    assert (
        words.startswith("No method settled within the band (NLL ≤ 0.4100")
        and f"**{NAMES[order[0]]}** (0.4100)" in words
    )


# ----- one judge for the bench, the tab and the report --------------------------------------------------------------
def _race_traces():
    seconds = np.r_[0.0, np.geomspace(0.01, 8.0, 40)]
    calm = 0.33 + 0.36 * np.exp(-4.0 * seconds)
    drifting = calm - 0.002 + 0.02 * np.exp(-((seconds - 3.0) ** 2))  # in, out as its kernel moves, in again
    slow = 0.33 + 0.36 * np.exp(-0.6 * seconds)
    errors = np.full(41, 0.16)
    return {
        "xgpc": _history(seconds, calm, errors),
        "svgp-natgrad": _history(seconds, drifting, errors),
        "svgp-adam": _history(seconds, slow, errors),
    }


def test_bench_tab_and_report_give_the_same_verdict_from_the_same_traces(tmp_path):
    traces = _race_traces()
    expected = judge(traces, budget=8.0)
    assert expected.winner.entrant == "xgpc" and expected.conclusive  # the case is not trivial
    # the bench's path: its results dict, judged at each band
    results = {name: {"trace": {k: v.tolist() for k, v in h.items()}} for name, h in traces.items()}
    bench = time_to_quality(results, budget=8.0)
    assert bench["verdict"] == expected.words()
    for s in expected.standings:
        assert (results[s.entrant]["first_0.01"], results[s.entrant]["settled_0.01"]) == (s.first, s.settled)
    # the tab's path: its render of the same rows
    tab = RaceTab(list(traces))
    tab.dataset.value = TRAIN_DATA
    tab.budget.value = 8.0
    tab.new_run(Model(dataset="moons", n_points=60, n_inducing=5, batch_size=10))
    tab.render({"traces": traces, "finished": True, "seconds": {name: 8.0 for name in traces}}, running=False)
    assert tab.verdict.object == expected.words()
    settled = {s.entrant: s.settled for s in expected.standings}
    assert f"| {settled['svgp-natgrad']:.3g} s |" in tab.table.object
    assert f"{settled['svgp-natgrad'] / settled['xgpc']:.2g}×" in tab.table.object
    # the report's path: the JSON the bench writes
    path = tmp_path / "race.json"
    fold = {"best_nll": bench["best_nll"], "methods": results}
    path.write_text(json.dumps({"folds": [fold], "config": {"dataset": "toy", "seconds": 8.0}, "bands": [0.01]}))
    page = html.unescape(
        html.unescape(race_report_from_json(path, tmp_path / "race.html").read_text())
    )  # escaped twice
    shown = expected.words().replace("**X-GPC won**", "<strong>X-GPC won</strong>")
    assert json.dumps(shown)[1:-1] in page  # in the page's JSON, ≤ and × as \u escapes


# ----- running a race -------------------------------------------------------------------------------------------------
def _entrant(method, seed=0):
    X, y = datasets.load("moons", n=120, seed=seed)
    return lambda: (
        start_run(
            method,
            X[:90],
            y[:90].astype(float),
            X[90:],
            y[90:].astype(float),
            make_kernel("rbf", 1.0, 1.0, 1e-4),
            n_inducing=8,
            inducing_rng=np.random.default_rng(seed),
            engine_rng=np.random.default_rng(seed + 1),
            batch_size=20,
            convergence="none",
        ).trainer
    )


def test_a_race_advances_the_entrant_behind_and_ends_with_every_entrant_done():
    budget = 0.2
    race = Race({"xgpc": _entrant("xgpc"), "svgp-adam": _entrant("svgp-adam")}, budget, slice_seconds=0.02)
    steps, rows = [], {"xgpc": [], "svgp-adam": []}
    generator = race.run()
    while True:
        try:
            before = race.trained()
            step = next(generator)
        except StopIteration as stop:
            result = stop.value
            break
        steps.append(step)
        rows[step.entrant] += step.rows
        if len(steps) > 2:  # after the two builds: the entrant moved was the one with the least training time
            assert before[step.entrant] == min(before.values())
    assert [step.entrant for step in steps[:2]] == ["xgpc", "svgp-adam"] and steps[0].rows == []
    assert race.finished and all(seconds >= budget for seconds in steps[-1].trained.values())
    assert set(result.histories) == {"xgpc", "svgp-adam"}
    for name, history in result.histories.items():
        assert [row["iteration"] for row in rows[name]] == history["iteration"].tolist()  # the trace as it grew
        assert history["seconds"][0] == 0.0 and history["seconds"][-1] >= budget
    assert result.verdict.finished and {s.entrant for s in result.verdict.standings} == {"xgpc", "svgp-adam"}
    assert result.verdict.words() == race.result().verdict.words()


def test_a_race_refuses_no_entrants_and_a_bad_budget():
    with pytest.raises(ValueError, match="at least one entrant"):
        Race({}, 1.0)
    with pytest.raises(ValueError, match="budget"):
        Race({"xgpc": _entrant("xgpc")}, math.inf)


def test_log_spaced_evaluation_by_hand():
    """Every max(10, t/40) iterations, rounded down to tens, but at least every 2 s at the last chunk's cost."""
    trainer = _entrant("xgpc")()
    trainer.engine.iteration = 4150  # 4150/40 = 103.75: 100 after rounding down to tens
    log_spaced_evaluation(trainer)  # no cost measured yet: the log spacing alone
    assert trainer.eval_every == 100
    trainer.history.append({"iteration": 4140, "seconds": 1.0})
    trainer.history.append({"iteration": 4150, "seconds": 3.0})  # 0.2 s per iteration: 2 s is 10 iterations
    log_spaced_evaluation(trainer)
    assert trainer.eval_every == 10
    trainer.history.append({"iteration": 4160, "seconds": 3.01})  # 1 ms per iteration: the log spacing again
    log_spaced_evaluation(trainer)
    assert trainer.eval_every == 100
    trainer.engine.iteration = 5
    log_spaced_evaluation(trainer)
    assert trainer.eval_every == 10


# ----- the tab's defaults -----------------------------------------------------------------------------------------------
@pytest.fixture
def data_home(tmp_path, monkeypatch):
    """An empty data home, nothing beside the checkout, an empty cache: where a fresh clone looks for the paper sets."""
    from explorer.data import registry

    home = tmp_path / "data-home"
    home.mkdir()
    monkeypatch.setattr(registry, "PROJECT_DATA_DIR", home)
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", tmp_path / "no-shared")
    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("XGPC_DATA_DIR", raising=False)
    return home


def test_the_tab_races_where_the_claim_shows_on_every_machine_and_says_what_a_claim_needs(data_home):
    """Issue 31.6: the default race is the generated banana-like set at 100,000 points (noise 0.6), 10 s each —
    found on a fresh clone — where X-GPC came into the band first (BENCHMARKS.md, "race: the default race"); a9a
    is offered where it is found."""
    from explorer.dashboard.race import CLAIM_DATASET, SCALE_RACE

    model = Model(dataset="moons", n_points=100, n_inducing=6, batch_size=20, seed=3)
    tab = RaceTab(["xgpc", "svgp-natgrad"])  # a fresh clone: no a9a anywhere
    assert tab.dataset.value == SCALE_RACE and tab.dataset.options == [SCALE_RACE, TRAIN_DATA]
    assert tab.budget.value == 10.0
    assert "What a claim needs" in tab.claim.object and f"data fetch {CLAIM_DATASET}" in tab.claim.object
    run = tab.new_run(model)
    assert (run.config["dataset"], run.config["n_points"], run.config["noise"]) == ("banana-like", 100_000, 0.6)
    assert (run.config["n_inducing"], run.config["batch_size"], run.config["seed"]) == (6, 20, 3)  # the Train tab's
    assert run.budget == 10.0 and run.classes == 2 and model.n_points == 100
    (data_home / f"{CLAIM_DATASET}.npz").touch()  # found (not read until a race starts)
    tab = RaceTab(["xgpc", "svgp-natgrad"])
    assert tab.dataset.options == [SCALE_RACE, TRAIN_DATA, CLAIM_DATASET] and tab.dataset.value == SCALE_RACE
    assert "data fetch" not in tab.claim.object


def test_a_race_on_a_named_data_set_leaves_the_train_tabs_model_alone():
    from explorer.dashboard.race import RaceRun

    model = Model(dataset="moons", n_points=100, n_inducing=6, batch_size=20, lengthscale=1.0)
    run = RaceRun(model, ["xgpc", "epgpc"], 0.05, lengthscale_sqrt_d=True, settings={"dataset": "xor"})
    for _ in run.chunks():
        pass
    assert run.finished and {racer.dataset for racer in run.models.values()} == {"xor"}
    assert {racer.lengthscale for racer in run.models.values()} == {np.sqrt(2.0)}
    assert {racer.n_inducing for racer in run.models.values()} == {6}  # the Train tab's settings
    assert model.dataset == "moons" and model.lengthscale == 1.0


def test_a_race_just_started_has_no_verdict_yet():
    """Before any evaluation (the tab renders while the racers are being built) there is nothing to judge."""
    verdict = judge({"xgpc": _history([], [], []), "epgpc": _history([], [], [])}, budget=8.0, finished=False)
    assert verdict.standings == () and math.isnan(verdict.best_nll) and verdict.words() == ""
    verdict = judge({"xgpc": _history([0.0], [LOG2], [0.5]), "epgpc": _history([], [], [])}, finished=False)
    assert [s.entrant for s in verdict.standings] == ["xgpc"] and verdict.words().startswith("**X-GPC leads** so far")


# ----- a run that diverged ------------------------------------------------------------------------------------------
def test_diverged_at_is_the_start_of_a_stretch_of_five_or_more_evaluations_above_twice_chance():
    """Twice a coin flip's NLL is 1.3863: five evaluations above it to the end make a divergence from the first of
    them; four, or five that end back below, are a spike; a NaN NLL counts as above; at K = 3 the line is
    2 log 3 = 2.1972, so an NLL of 2.0 that diverges two classes does not diverge three."""
    from explorer.studies.race import diverged_at

    seconds = np.arange(10.0)
    low = [0.69, 0.4, 0.3, 0.3, 0.3]
    assert diverged_at(seconds, low + [14.0, 14.2, 13.9, 14.1, 14.2]) == 5.0
    assert diverged_at(seconds, low[:4] + [1.39, 14.0, 14.2, 13.9, 14.1, 14.2]) == 4.0  # just above 1.3863
    assert diverged_at(seconds, low[:4] + [1.38, 14.0, 14.2, 13.9, 14.1, 14.2]) == 5.0  # just below: not yet
    assert diverged_at(seconds, low + [0.3, 14.0, 14.2, 13.9, 14.1]) == math.inf  # four: a spike so far
    assert diverged_at(seconds, low[:4] + [14.0, 14.2, 13.9, 14.1, 14.2, 0.3]) == math.inf  # back below
    assert diverged_at(seconds, low + [14.0, np.nan, 13.9, np.inf, 14.2]) == 5.0
    assert diverged_at(seconds[:4], [14.0] * 4) == math.inf and diverged_at(seconds[:5], [14.0] * 5) == 0.0
    assert diverged_at(seconds, low + [2.0] * 5) == 5.0
    assert diverged_at(seconds, low + [2.0] * 5, chance=math.log(3)) == math.inf
    assert diverged_at(seconds, low + [2.3] * 5, chance=math.log(3)) == 5.0


def _diverging_race():
    """X-GPC settles (0.30 from 2 s), EPGPC later (from 4 s); natural-gradient SVGP reaches 0.25, better than either,
    then from 5.1 s runs at NLL ≈ 14.2 to the end (seconds 0…8 in 0.3-s steps past 5.1 s)."""
    seconds = np.r_[0.0, 1.0, 2.0, 3.0, 4.0, 4.5, 5.1, 5.4, 5.7, 6.0, 6.3, 6.6, 6.9, 7.2, 7.5, 7.8, 8.0]
    k = len(seconds)
    xgpc = np.where(seconds >= 2.0, 0.30, 0.5)
    epgpc = np.where(seconds >= 4.0, 0.301, 0.45)
    natgrad = np.where(seconds >= 5.1, 14.2, 0.25)
    natgrad[0] = xgpc[0] = epgpc[0] = LOG2
    return {
        "xgpc": _history(seconds, xgpc, np.full(k, 0.1)),
        "svgp-natgrad": _history(seconds, natgrad, np.where(seconds >= 5.1, 0.52, 0.08)),
        "epgpc": _history(seconds, epgpc, np.full(k, 0.1)),
    }


def test_a_diverged_entrant_is_named_first_and_the_verdict_is_on_the_others():
    verdict = judge(_diverging_race(), budget=8.0)
    by_name = {s.entrant: s for s in verdict.standings}
    assert by_name["svgp-natgrad"].diverged == 5.1 and by_name["svgp-natgrad"].settled == math.inf
    assert by_name["xgpc"].diverged == by_name["epgpc"].diverged == math.inf
    assert verdict.best_nll == 0.30 and [s.entrant for s in verdict.judged] == ["xgpc", "epgpc"]
    assert verdict.winner.entrant == "xgpc"
    words = verdict.words()
    assert words.startswith(
        "**SVGP (natural gradients) diverged** at 5.1 s (test NLL above 1.39, 2× a coin flip's, from then on; "
        "final 14.2); the verdict is on the others. **X-GPC won**: it came within the band"
    )
    assert "EPGPC after 4 s (2× as long)" in words and words.count("SVGP (natural gradients)") == 1


def test_a_race_in_which_every_entrant_diverged_says_so_and_judges_nobody():
    race = _diverging_race()
    verdict = judge({"svgp-natgrad": race["svgp-natgrad"]}, budget=8.0)
    assert verdict.winner is None and verdict.judged == ()
    assert verdict.words().endswith("final 14.2). No method is left to judge.")


def test_a_diverged_entrant_beside_a_solved_race_is_not_counted_among_the_wrong():
    """The default banana-like race as the issue saw it: X-GPC and SVGP-Adam end with test error 0, natural-gradient
    SVGP at NLL ≈ 14 and error 0.52 from 5.1 s."""
    race = _diverging_race()
    right = {name: dict(race[name], test_error=np.zeros(17)) for name in ("xgpc", "epgpc")}
    verdict = judge({**right, "svgp-natgrad": race["svgp-natgrad"]}, budget=8.0)
    assert verdict.solved
    words = verdict.words()
    assert "**SVGP (natural gradients) diverged** at 5.1 s" in words
    assert "**Every other method classifies every test point correctly** (final test error 0)" in words
    assert "ends with test error" not in words


def test_a_race_still_running_speaks_of_latest_values_not_final_ones():
    race = _diverging_race()
    running = {name: {k: v[:12] for k, v in h.items()} for name, h in race.items()}  # to 6.6 s of 8
    for finished, final, other in ((False, "latest", "final"), (True, "final", "latest")):
        verdict = judge(running, budget=8.0, finished=finished)
        words, table = verdict.words(), verdict.table()
        assert f"{final} NLL" in table and other not in table and other not in words
        assert f"best {final} gain" in words
    verdict = judge(running, budget=8.0, finished=False)
    words = verdict.words()
    assert "diverged** at 5.1 s (test NLL above 1.39, 2× a coin flip's, since; latest 14.2)" in words
    assert "**X-GPC leads** so far" in words and "EPGPC after 4 s" in words
    assert "| diverged at 5.1 s |" in verdict.table()
    right = {name: dict(h, test_error=np.zeros(12)) for name, h in running.items() if name != "svgp-natgrad"}
    words = judge(right, budget=8.0, finished=False).words()
    assert words.startswith("**Every method classifies every test point correctly** so far (latest test error 0)")


def test_the_tab_draws_a_diverged_run_dashed_keeps_the_nll_axis_to_the_others_and_says_what_is_clipped():
    race = _diverging_race()
    tab = RaceTab(list(race))
    tab.dataset.value = TRAIN_DATA
    tab.budget.value = 8.0
    tab.new_run(Model(dataset="moons", n_points=60, n_inducing=5, batch_size=10))
    half = {name: {k: v[:9] for k, v in h.items()} for name, h in race.items()}  # to 5.7 s: diverged for 3 only
    tab.render({"traces": half, "finished": False, "seconds": {"xgpc": 5.7, "svgp-natgrad": 9.0}}, running=True)
    assert "about 10 s of training left" in tab.status.value  # 8 − 5.7 (X-GPC), none (SVGP: past 8), 8 (EPGPC: unbuilt)
    assert tab.diverged == {} and len(tab.sources["svgp-natgrad"].data["seconds"]) == 9
    assert tab.nll.y_range.end == pytest.approx(2 * LOG2 * 1.05)  # the spike so far runs above, capped at 2 log 2
    assert tab.clipped.object == "*Test NLL above the axis: SVGP (natural gradients) at 3 evaluations (up to 14.2).*"
    tab.render({"traces": race, "finished": True, "seconds": {name: 8.0 for name in race}}, running=False)
    assert tab.diverged == {"svgp-natgrad": 5.1}
    head, tail = tab.sources["svgp-natgrad"].data, tab.tails["svgp-natgrad"].data
    assert list(head["seconds"]) == [0.0, 1.0, 2.0, 3.0, 4.0, 4.5] and list(tail["seconds"])[:2] == [4.5, 5.1]
    assert len(tail["seconds"]) == 12 and len(tab.sources["xgpc"].data["seconds"]) == 17
    assert 0.5 < tab.nll.y_range.end < 0.8  # the others' curves (0.69 at most) fill the axis
    assert tab.clipped.object == (
        "*Test NLL above the axis: SVGP (natural gradients) from 5.1 s (diverged; NLL up to 14.2).*"
    )
    labels = [item.label["value"] for item in tab.nll.legend[0].items]
    assert "SVGP (natural gradients): diverged at 5.1 s" in labels and "X-GPC" in labels
    assert tab.verdict.object.startswith("**SVGP (natural gradients) diverged** at 5.1 s")
    assert "÷ X-GPC's" in tab.table.object and "| diverged at 5.1 s | — |" in tab.table.object


def test_the_race_report_draws_a_diverged_run_dashed_and_fits_the_nll_axis_to_the_others():
    from explorer.views.race import race_curves

    payload = {
        "methods": {name: {"trace": {k: v.tolist() for k, v in h.items()}} for name, h in _diverging_race().items()}
    }
    nll = race_curves(payload, bands=[0.01]).Race.Test_nll
    dashed = [curve for curve in nll if curve.group == "Diverged"]
    assert [curve.label for curve in dashed] == ["SVGP (natural gradients) diverged at 5.1 s"]
    assert dashed[0].dimension_values("seconds")[:2].tolist() == [4.5, 5.1]
    low, high = hv.Store.lookup_options("bokeh", nll, "plot").kwargs["ylim"]
    assert high < 0.8


def test_the_race_report_page_says_which_entrant_diverged(tmp_path):
    race = _diverging_race()
    fold = {"methods": {name: {"trace": {k: v.tolist() for k, v in h.items()}} for name, h in race.items()}}
    path = tmp_path / "race.json"
    path.write_text(json.dumps({"folds": [fold], "config": {"dataset": "toy", "seconds": 8.0}, "bands": [0.01]}))
    page = html.unescape(html.unescape(race_report_from_json(path, tmp_path / "race.html").read_text()))
    assert "<td>SVGP (natural gradients)</td>" in page and "<td>14.2000</td>" in page
    assert "<td>diverged at 5.1 s</td>" in page
    assert json.dumps("<strong>SVGP (natural gradients) diverged</strong> at 5.1 s")[1:-1] in page
