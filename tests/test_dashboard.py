"""The dashboard's views and callbacks without a browser: a real Model steps, the plot sources change, bad input is
reported and leaves the run alone. `Dashboard.refresh()` is called directly (no server runs its periodic callback)."""

import asyncio
import html
import io
import json
import logging
import threading
import time
from html.parser import HTMLParser
from types import SimpleNamespace

import holoviews as hv
import numpy as np
import panel as pn
import pytest
from bokeh.events import Tap
from bokeh.models import Legend, Range1d
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, log_expit

from explorer.dashboard import Dashboard, controls
from explorer.dashboard.controls import describe_change
from explorer.dashboard.data import guess_label_column, header_and_sample
from explorer.dashboard.mcmc import stick_model
from explorer.dashboard.notices import html_text, markdown_text
from explorer.dashboard.race import TRAIN_DATA
from explorer.dashboard.race_report import race_report_from_json
from explorer.dashboard.refresh import Publisher
from explorer.dashboard.session import Worker
from explorer.dashboard.surface import FrozenPrediction
from explorer.dashboard.tabs import StudyTab
from explorer.dashboard.traces import Decimator
from explorer.data import datasets
from explorer.data.datasets import DataError
from explorer.gibbs_multiclass import MulticlassGibbsSampler
from explorer.gibbs_stickbreaking import StickBreakingGibbsSampler
from explorer.kernels import RBF
from explorer.metrics import error_rate, first_time_within, settled_time_within
from explorer.model import Model
from explorer.studies.comparison import text_progress
from explorer.studies.plane import PCA, UNDECIDED, misclassified
from explorer.studies.race import Standing, Verdict
from explorer.views.learn import gibbs_mackay_bound, sigmoid_by_augmentation
from explorer.views.race import robust_range
from explorer.views.style import CLASS_COLORS, P_PALETTE


@pytest.fixture
def dash():
    dashboard = Dashboard(Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, eval_every=5))
    yield dashboard
    dashboard.close()


def wait_until(condition, limit=120.0):
    """Poll `condition` (a failsafe deadline, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.05)


def image(dash):
    return np.asarray(dash.surface.image.data["image"][0]).copy()


def test_steps_grow_the_traces_and_change_the_surface(dash):
    before = image(dash)
    assert dash.train.traces.points == 0
    dash.step()
    first = dash.train.traces.points
    dash.step()
    assert first >= 2 and dash.train.traces.points == first + 1
    assert dash.train.traces.live.data["iteration"][-1] == dash.model.iteration == 10
    assert not np.allclose(image(dash), before)
    assert len(dash.surface.contour.data["x"]) > 0


def test_model_stepped_outside_the_dashboard_shows_up_on_refresh(dash):
    dash.model.step(25)
    dash.refresh()
    assert dash.train.traces.live.data["iteration"][-1] == 25


def test_play_trains_in_the_worker_and_pause_stops_it(dash):
    dash.play()
    wait_until(lambda: dash.model.iteration >= 20)
    dash.pause()
    stopped_at = dash.model.iteration
    time.sleep(0.3)
    dash.refresh()
    assert dash.model.iteration == stopped_at
    assert not dash.worker.playing
    # the last point drawn is the last multiple of eval_every — or, when Play skipped that evaluation to keep within
    # its share of the time (on a loaded machine), the paused iteration itself, which Pause evaluates
    last = dash.train.traces.live.data["iteration"][-1]
    assert last in (stopped_at - stopped_at % dash.model.eval_every, stopped_at)
    assert last == dash.model.history.rows[-1]["iteration"]


def test_a_configuration_change_archives_the_run_and_labels_runs_by_what_changed(dash):
    traces = dash.train.traces
    dash.step()
    dash.step()
    dash.changes.apply({"n_inducing": 10})
    assert dash.model.n_inducing == 10 and dash.model.iteration == 0
    assert traces.points == 0
    assert all(w.value == 10 for w in dash.settings.widgets("n_inducing"))
    dash.changes.apply({"seed": 3})  # run 2 ends before it drew anything: run 3 does not exist, the next run is run 2
    dash.step()
    dash.step()
    dash.reset()
    elbo_labels = [item.label["value"] for item in traces.elbo.legend[0].items]
    assert elbo_labels == [
        "run 1: first run",
        "run 2: seed 0 → 3, inducing points 20 → 10",
        "run 3 (now): same settings",
    ]
    assert [item.label["value"] for item in traces.nll.legend[0].items] == ["run 1", "run 2", "run 3 (now)"]


def test_a_rejected_change_keeps_the_run_and_resyncs_the_widgets(dash, caplog):
    dash.step()
    iteration = dash.model.iteration
    with caplog.at_level(logging.ERROR):
        dash.changes.apply({"dataset": "custom"})  # no custom data loaded: the Model refuses
    assert dash.model.dataset == "moons" and dash.model.iteration == iteration
    assert "custom" in caplog.text
    assert all(w.value == "moons" for w in dash.settings.widgets("dataset"))


def test_a_bad_upload_is_reported_and_leaves_the_run_intact(dash, caplog):
    dash.step()
    X_train, iteration = dash.model.X_train.copy(), dash.model.iteration
    with caplog.at_level(logging.ERROR):
        asyncio.run(dash.changes.read_file(b"a,b,label\n1,2,x\n3,oops,y\n", "bad.csv", "label"))
    assert "bad.csv" in caplog.text and "'oops'" in caplog.text
    assert dash.model.dataset == "moons" and dash.model.iteration == iteration
    np.testing.assert_array_equal(dash.model.X_train, X_train)


def test_a_good_upload_becomes_the_data_with_a_feature_plane():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 3))
    label = np.where(X[:, 0] + X[:, 2] > 0, "yes", "no")
    text = "f1,f2,outcome,f3\n" + "".join(f"{a},{b},{c},{d}\n" for (a, b, d), c in zip(X, label))
    dash = Dashboard(Model(dataset="moons", n_points=100, n_inducing=10))
    try:
        asyncio.run(dash.changes.read_file(text.encode(), "mine.csv", "outcome"))
        assert dash.model.dataset == "custom" and dash.model.feature_names == ["f1", "f2", "f3"]
        assert dash.surface.projection.kind == PCA and dash.surface.axes.visible
        assert "mine.csv" not in dash.data.description.object or "custom" in dash.data.description.object
        dash.step()
        assert dash.train.traces.points >= 2
    finally:
        dash.close()


def test_upload_header_parsing():
    assert header_and_sample(b"x;y;class\n1;2;a\n", "f.csv")[0] == ["x", "y", "class"]
    assert guess_label_column(["x", "Class", "z"]) == "Class"
    assert guess_label_column(["x", "y2", "z"]) == "z"
    with pytest.raises(DataError, match="not UTF-8"):
        header_and_sample(b"\xff\xfe\x00binary", "f.bin")
    with pytest.raises(DataError, match="one column"):
        header_and_sample(b"justone\n1\n", "f.csv")


def test_a_click_on_the_surface_adds_a_training_point(dash):
    n = len(dash.model.y_train)
    dash.surface.click_class.value = 0  # "click adds class -1" (the first class, blue): class index 0
    dash.surface._tapped(Tap(model=dash.surface.figure, x=0.25, y=-0.5))
    assert len(dash.model.y_train) == n + 1 and dash.model.y_train[-1] == 0
    np.testing.assert_allclose(dash.model.X_train[-1], [0.25, -0.5])
    assert list(dash.surface.added.data["label"]) == [0.0]  # drawn as an added point


def test_sd_mode_switches_the_colour_scale(dash):
    dash.step()
    dash.surface.mode.value = "predictive sd"
    assert dash.surface.colorbar.title == "sd of f*"
    assert dash.surface.mapper.high == pytest.approx(float(image(dash).max()))
    dash.surface.mode.value = "p(y=1)"
    assert dash.surface.mapper.high == 1.0


def test_history_csv_and_learn_histograms(dash):
    dash.step()
    csv = asyncio.run(dash.train.download.callback()).getvalue()  # the page's download
    assert csv.splitlines()[0].startswith("iteration,seconds,elbo")
    assert len(csv.splitlines()) == 1 + len(dash.model.history)
    dash.tabs.active = 4
    dash.refresh()
    c_histogram = dash.learn.minibatch_panes[0].object[()]  # the Learn view's current frame
    top, _ = np.histogram(dash.model.last_local()["c"], bins=30, density=True)
    np.testing.assert_allclose(c_histogram.dimension_values(1), top)
    assert "points" in dash.learn.minibatch_text.object


def test_decimator_keeps_the_whole_run_in_bounded_memory():
    buffer = Decimator(capacity=100)
    for start in range(0, 1000, 7):
        buffer.add(
            [
                {
                    name: float(i)
                    for name in (
                        "iteration",
                        "seconds",
                        "elbo",
                        "test_nll",
                        "test_error",
                        "rho",
                        "lengthscale",
                        "variance",
                    )
                }
                for i in range(start, min(start + 7, 1000))
            ]
        )
    kept = buffer.kept["iteration"]
    assert len(kept) <= 100 and kept[0] == 0 and kept[-1] > 900
    assert np.all(np.diff(kept) > 0)


def test_learn_tab_numbers():
    for z in (-4.0, 0.0, 0.7, 6.0):
        value, _ = sigmoid_by_augmentation(z)
        assert value == pytest.approx(expit(z), abs=1e-9)
    z = np.linspace(-8, 8, 401)
    for c in (0.0, 0.5, 3.0):
        assert np.all(gibbs_mackay_bound(z, c) <= log_expit(z) + 1e-12)
        assert gibbs_mackay_bound(np.array([c, -c]), c) == pytest.approx(log_expit(np.array([c, -c])))


def test_worker_reports_an_error_and_pauses():
    worker = Worker()
    try:
        worker.play(lambda: 1 / 0)
        wait_until(lambda: not worker.playing)
        assert isinstance(worker.error, ZeroDivisionError)
    finally:
        worker.stop()


def test_mcmc_tab_runs_a_small_comparison(dash):
    dash.tabs.active = 2
    for widget, value in (
        (dash.mcmc.n_train, 40),
        (dash.mcmc.n_test, 30),
        (dash.mcmc.n_samples, 60),
        (dash.mcmc.burn_in, 20),
        (dash.mcmc.n_chains, 2),
    ):
        widget.value = value
    run = finished_study(dash, dash.mcmc, limit=120)
    assert run.stage == "done" and run.sampler.sweeps_done == 80
    assert set(run.results) == {"sparse", "full"}
    mean_panel = dash.mcmc.comparison[0].object  # the MCMC view's panels: mean, variance, p(y=1)
    sparse = next(element for element in mean_panel if element.label == run.results["sparse"].label)
    assert len(sparse.dimension_values(0)) == 30
    np.testing.assert_array_equal(sparse.dimension_values(1), run.results["sparse"].vi_mean)
    assert run.results["full"].pair_summaries()["p(y=1)"].correlation > 0.9
    assert "correlation" in dash.mcmc.summary.object and dash.mcmc.note.visible  # 40 of 160 training points
    assert len(dash.mcmc.trace_sources[0].data["sweep"]) == 80
    # the progress line keeps the sampler's final R̂ and ESS, computed by the study in the worker
    diagnostics = run.sampler.diagnostics()
    assert f"R̂ max {diagnostics['rhat_max/f']:.3f}" in dash.mcmc.progress_text.value


@pytest.mark.parametrize("family", ["stick-breaking", "joint"])
def test_mcmc_tab_compares_three_classes_with_the_sampler_of_the_models_family(family):
    """Three classes: the tab's study runs the exact sampler of the model's family against multi-class X-GPC in it
    (the default stick-breaking: its own sampler, the classes' order said in words; "joint": the logistic-softmax
    sampler, with the paper's factorised fit beside it and the mean-field gap in words); its sentences and table speak
    of every p(y=k), and its two surfaces are the class colours mixed by probability."""
    model = Model(dataset="blobs-3", n_points=150, n_inducing=15, batch_size=50, eval_every=5, multiclass_family=family)
    dash = Dashboard(model)
    try:
        dash.tabs.active = 2
        for widget, value in ((dash.mcmc.n_train, 45), (dash.mcmc.n_test, 30), (dash.mcmc.n_samples, 60)):
            widget.value = value
        dash.mcmc.burn_in.value, dash.mcmc.n_chains.value = 20, 2
        run = finished_study(dash, dash.mcmc, limit=240)
        assert run.stage == "done" and run.sampler.n_classes == 3
        if family == "stick-breaking":
            assert isinstance(run.sampler, StickBreakingGibbsSampler) and set(run.results) == {"sparse", "full"}
            assert "the classes on the stick in the order 0, 1, 2" in dash.mcmc.summary.object
            assert "mean-field gap" not in dash.mcmc.summary.object
        else:
            assert isinstance(run.sampler, MulticlassGibbsSampler) and set(run.results) == {
                "sparse",
                "full",
                "factorised",
            }
            assert "The mean-field gap" in dash.mcmc.summary.object and "Stick-breaking" not in dash.mcmc.summary.object
        assert all(result.n_classes == 3 and result.vi_proba.shape == (30, 3) for result in run.results.values())
        assert "every p(y=k) within" in dash.mcmc.summary.object and "p(y=k): correlation" in dash.mcmc.summary.object
        assert run.results["full"].pair_summaries()["p(y=k)"].correlation > 0.9
        surfaces = [pane.object for pane in dash.mcmc.surfaces]
        assert len(surfaces) == 2
        for overlay in surfaces:
            image = next(element for element in overlay if isinstance(element, hv.RGB))
            assert overlay.opts.get().kwargs["title"].endswith("class probabilities")
            assert image.dimension_values(2).std() > 0  # the colours vary across the plane
        # 2 chains × 60 sweeps of three classes have not mixed: the tab says so with the run's own numbers and offers
        # a longer run, which the button starts
        summary = run.results["full"].summary()
        rhat, ess = summary["mcmc/rhat_max/f"], summary["mcmc/ess_bulk_min/f"]
        assert rhat > 1.01 or ess < 400, (rhat, ess)
        assert dash.mcmc.mixing.visible and dash.mcmc.more_sweeps.visible
        assert "have not mixed" in dash.mcmc.mixing.object and f"{ess:.0f} (< 400)" in dash.mcmc.mixing.object
        dash.mcmc.more_sweeps.clicks += 1
        wait_until(lambda: dash.mcmc.run is not run, limit=30)
        assert (dash.mcmc.n_samples.value, dash.mcmc.burn_in.value) == (240, 100)
        assert not dash.mcmc.mixing.visible
    finally:
        dash.close()


def test_the_stick_breaking_sentence_shows_the_class_names_as_text():
    X, y = np.random.default_rng(0).normal(size=(9, 2)), np.array([0, 1, 2] * 3)
    sampler = StickBreakingGibbsSampler(X, y, RBF(1.0), 3, class_order=(2, 0, 1), burn_in=1, n_samples=2)
    run = SimpleNamespace(sampler=sampler, class_names=["<b>a</b>", "*b*", "[c](x)"])
    (sentence,) = stick_model(run)
    assert "the order \\[c\\]\\(x\\), \\<b\\>a\\<\\/b\\>, \\*b\\*;" in sentence  # stick order 2, 0, 1
    assert "(9, 6 points)" in sentence


def test_the_tab_bar_and_the_study_jobs_come_from_the_tabs_themselves(dash):
    """The dashboard loops over its tabs (`dashboard.tabs`): the tab bar shows each tab's title in order, the study
    tabs (Start/Stop, a worker job) are exactly those following `StudyTab`, and a study whose `problem` says why it
    cannot start is not started."""
    assert list(dash.tabs._names) == [tab.title for tab in dash.tab_list] == ["Train", "Data", "MCMC", "Race", "Learn"]
    assert dash.studies == (dash.mcmc, dash.race)
    assert not any(isinstance(tab, StudyTab) for tab in (dash.train, dash.data, dash.learn))
    dash.race.methods.value = []
    assert dash.race.problem() == "Choose at least one method to race."
    dash.start_study(dash.race)
    assert dash.race.run is None and not dash.worker.playing


def finished_race(dash, budget: float, limit: float):
    """Run the Race tab's race with `budget` seconds per method to its end (failsafe `limit`) and show it."""
    dash.tabs.active = 3
    dash.race.dataset.value = TRAIN_DATA  # the Train tab's small set, not the claim's a9a
    dash.race.budget.value = budget
    return finished_study(dash, dash.race, limit)


def finished_study(dash, study, limit: float):
    """Run the study tab's study to its end in the worker (failsafe `limit` seconds), show it and return its run."""
    dash.start_study(study)
    wait_until(lambda: not dash.worker.playing, limit=limit)
    assert dash.worker.error is None
    dash.refresh()
    return study.run


def test_race_tab_races_and_ranks(dash):
    dash.race.methods.value = ["xgpc", "svgp-adam"]
    run = finished_race(dash, budget=0.5, limit=120)
    assert run.finished and all(m.trainer.seconds >= 0.5 for m in run.models.values())
    assert set(run.models) == {"xgpc", "svgp-adam"}
    assert len(dash.race.sources["xgpc"].data["seconds"]) >= 2
    assert "reached the band" in dash.race.table.object


def test_race_tab_races_every_registered_method_and_names_each(dash):
    """Four entrants by default (X-GPC, both SVGPs, EPGPC): each trains its budget, gets a curve, a legend entry
    (two a row, so four fit above the plot), a table row and a place in the verdict."""
    from explorer.methods import METHODS
    from explorer.studies.race import NAMES

    assert dash.race.methods.value == list(METHODS) and len(METHODS) == 4
    run = finished_race(dash, budget=0.3, limit=180)
    assert run.finished and set(run.models) == set(METHODS)
    assert all(m.trainer.seconds >= 0.3 for m in run.models.values())
    assert run.models["epgpc"].method == "epgpc"
    for method in METHODS:
        assert len(dash.race.sources[method].data["seconds"]) >= 2
        assert f"| {NAMES[method]} |" in dash.race.table.object
        assert NAMES[method] in dash.race.verdict.object
    legend = dash.race.nll.legend[0]
    assert [item.label.value for item in legend.items] == [NAMES[m] for m in METHODS] and legend.ncols == 2


def test_time_to_target_readings():
    seconds = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    nll = np.array([0.9, 0.5, 0.7, 0.5, 0.5])
    assert first_time_within(seconds, nll, 0.55) == 1.0
    assert settled_time_within(seconds, nll, 0.55) == 3.0
    assert first_time_within(seconds, nll, 0.1) == np.inf


def test_heatmap_and_point_colours_agree():
    def rgb(color):
        return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)])

    for low_end, high_end in ((P_PALETTE[0], P_PALETTE[-1]), tuple(CLASS_COLORS)):
        assert rgb(low_end)[2] > rgb(low_end)[0]  # p = 0 and class −1: blue
        assert rgb(high_end)[0] > rgb(high_end)[2]  # p = 1 and class +1: red


# ----- issue 9: first-hour stumbles in the served app ---------------------------------------------------------------
def test_a_typed_value_out_of_range_is_refused_visibly(dash, caplog):
    box = dash.settings.widgets("n_inducing")[0]
    with caplog.at_level(logging.ERROR):
        box.value = 100000
    assert dash.model.n_inducing == 20
    assert all(w.value == 20 for w in dash.settings.widgets("n_inducing"))  # the box no longer shows 100000
    assert "inducing points m: 100000 is out of range (from 1 to 2000); still 20" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        dash.settings.widgets("lengthscale")[0].value = 0.0  # below the kernels' limits (explorer.settings)
        dash.settings.widgets("batch_size")[0].value = None  # an emptied box
    assert dash.model.lengthscale is None and dash.model.batch_size == 50  # None: the default √(d/2)
    assert "initial lengthscale ℓ (empty: √(d/2)): 0 is out of range (from 1e-50 to 1e+100)" in caplog.text
    assert "minibatch size s needs a value" in caplog.text
    box.value = 15  # in range: applied
    assert dash.model.n_inducing == 15


def test_misclassified_marks_only_where_the_model_has_decided():
    y = np.array([1, 0, 1, 0, 1, 0])  # class indices
    p = np.array([0.5, 0.5, 0.4995, 0.5004, 0.2, 0.9])  # p(class 1)
    assert misclassified(np.column_stack([1 - p, p]), y).tolist() == [False, False, False, False, True, True]


@pytest.mark.parametrize("method", ["xgpc", "svgp-natgrad", "svgp-adam", "epgpc"])
def test_a_frozen_prediction_keeps_the_state_it_was_taken_at_while_the_model_trains_on(method):
    model = Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, method=method)
    model.step(5)
    X = model.X_test[:30]
    frozen, (mean, var) = FrozenPrediction(model), model.predict_latent(X)
    model.step(20)
    now_mean, _ = model.predict_latent(X)
    assert not np.allclose(now_mean, mean)  # the model moved on …
    frozen_mean, frozen_var = frozen.predict_latent(X)
    assert np.array_equal(frozen_mean, mean) and np.array_equal(frozen_var, var)  # … its frozen copy did not


def test_a_periodic_surface_frame_is_computed_off_the_gate_and_shown_at_a_later_tick(dash):
    if dash.train.pending_frame is not None:  # the construction-time frame (of the prior) may still be computing
        dash.train.pending_frame.result(timeout=60)
        dash.refresh()  # shows it
    dash.model.step(10)
    dash.train._surface_due = 0.0
    dash.refresh()  # due: the frame is computed in the frame thread from the state now
    job = dash.train.pending_frame
    assert job is not None
    expected = dash.surface.frame(dash.model)  # the same state, computed here
    job.result(timeout=60)
    dash.model.step(10)  # training went on meanwhile: the frame shows the state it was taken at
    dash.refresh()
    np.testing.assert_array_equal(image(dash), expected["z"])
    assert dash.train.pending_frame is None or dash.train.pending_frame is not job


def test_a_fresh_surface_crosses_out_nothing_and_a_trained_one_its_errors(dash):
    shown = dash.surface._shown_data(dash.model)
    X = np.vstack([shown[0], shown[2]])
    y = np.concatenate([shown[1], shown[3]])
    assert np.allclose(dash.model.predict_proba(X), 0.5, rtol=0, atol=1e-12)  # the prior predicts nothing
    assert len(dash.surface.wrong.data["x"]) == 0
    for _ in range(6):
        dash.step()
    P = dash.model.predict_proba(X)
    decided = np.abs(P[:, 1] - 0.5) > UNDECIDED  # a trained model may still sit on ½ at a point or two: no cross there
    assert decided.mean() > 0.9
    errors = round(error_rate(P[decided], y[decided]) * decided.sum())
    assert errors > 0 and len(dash.surface.wrong.data["x"]) == errors


def test_run_labels_say_what_changed_in_words():
    before = {"n_inducing": 30, "seed": 0, "learn_hyperparameters": True, "noise": None, "rho": 0.5}
    assert describe_change(before, dict(before)) == "same settings"
    after = dict(before, n_inducing=50, learn_hyperparameters=False, noise=0.25, rho=0.125)
    assert describe_change(before, after) == (
        "inducing points 30 → 50, learn ℓ and σ² on → off, noise default → 0.25, ρ 0.5 → 0.125"
    )


def _has_extent(fig) -> bool:
    """Bokeh can set the figure's initial ranges: they are explicit, or some visible renderer has data to fit."""
    explicit = all(isinstance(r, Range1d) and r.start < r.end for r in (fig.x_range, fig.y_range))
    return explicit or any(
        r.visible and any(len(column) for column in r.data_source.data.values()) for r in fig.renderers
    )


def test_every_figure_can_set_its_initial_ranges_and_the_curves_fill_them(dash):
    traces = dash.train.traces
    figures = traces.figures + [dash.race.nll, dash.race.error, dash.mcmc.trace]  # the raw-Bokeh ones
    assert all(_has_extent(fig) for fig in figures)
    for _ in range(4):
        dash.step()
    for fig, y in ((traces.nll, "test_nll"), (traces.error, "test_error"), (traces.elbo, "elbo")):
        values = np.asarray(traces.live.data[y])
        low, high, span = values.min(), values.max(), np.ptp(values)
        assert fig.y_range.start <= low and fig.y_range.end >= high  # every point shown …
        assert fig.y_range.start >= low - 0.1 * span and fig.y_range.end <= high + 0.1 * span  # … and filling it
    dash.reset()
    traces.clear_earlier()
    assert all(_has_extent(fig) for fig in traces.figures)


def test_legends_sit_beside_above_or_below_the_curves(dash):
    for fig in dash.train.traces.figures + [dash.race.nll, dash.race.error]:
        assert not any(isinstance(item, Legend) for item in fig.center)
        assert any(isinstance(item, Legend) for item in fig.below + fig.right + fig.above)


def test_race_robust_range_ignores_a_spike():
    rng = np.random.default_rng(0)
    calm = np.log(2.0) * np.exp(-np.linspace(0, 3, 60)) + 0.3 + 0.01 * rng.random(60)  # falls from ≈ 1 to ≈ 0.33
    spiky = calm - 0.02
    spiky[20] = 7.0
    low, high = robust_range([calm, spiky])
    assert low <= spiky.min() and max(calm.max(), np.delete(spiky, 20).max()) <= high < 1.5  # whole curves, no spike
    low, high = robust_range([calm, [np.nan, 0.31]])
    assert low <= calm.min() and high >= calm.max()
    assert robust_range([[np.nan], []]) is None


def test_race_table_in_words():
    def row(method, first, settled, final):
        return Standing(method, 100, 8.0, 0.3, final, 0.1, first, settled, np.inf)

    rows = (row("xgpc", 0.5, 1.0, 0.301), row("svgp-adam", 2.0, 3.0, 0.302), row("svgp-natgrad", 0.2, np.inf, 0.35))
    table = Verdict(0.3, 0.01, 0.3039, 8.0, True, rows + (row("svgp-adam", np.inf, np.inf, 0.5),)).table()
    assert "NLL ≤ 0.3039" in table and "| left it again |" in table and "| never | never |" in table
    assert "| 3 s | 3× |" in table  # SVGP (Adam) settled at 3 s, three times X-GPC's 1 s
    assert (
        "| not yet | not yet |" in Verdict(0.3, 0.01, 0.3039, 8.0, False, (row("xgpc", np.inf, np.inf, 0.5),)).table()
    )


def test_every_tab_displays_itself_as_a_panel_view(dash):
    for tab in (dash.train, dash.data, dash.mcmc, dash.race, dash.learn, dash.surface, dash):
        assert isinstance(tab, pn.viewable.Viewer)
        view = pn.panel(tab)
        assert isinstance(view, (pn.layout.ListPanel, pn.FlexBox)) and len(view.objects) > 0


def test_text_progress_counts_sweeps_and_ends_its_line():
    out = io.StringIO()
    report = text_progress(out, every_seconds=0.0)
    for done in (10, 20, 30):
        report(done, 30)
    lines = out.getvalue().split("\r")
    assert "Gibbs sampling, sweeps per chain" in lines[1] and "33%" in lines[1] and "10/30" in lines[1]
    assert any("20/30" in line for line in lines) and "30/30" in lines[-1]
    assert out.getvalue().count("\n") == 1 and out.getvalue().endswith("\n")  # one line, ended when done


def test_race_report_page_names_the_winner_in_words(tmp_path):
    seconds = np.linspace(0.0, 2.0, 41)
    calm = 0.3 + 0.4 * np.exp(-3 * seconds)
    spiky = calm + 0.02
    spiky[10] = 7.0
    methods = {"xgpc": calm, "svgp-natgrad": spiky}
    race = {
        "best_nll": float(calm.min()),
        "methods": {
            name: {
                "trace": {
                    "seconds": seconds.tolist(),
                    "iteration": (10 * np.arange(41)).tolist(),
                    "test_nll": nll.tolist(),
                    "test_error": (nll / 3).tolist(),
                },
                "final_nll": float(nll[-1]),
            }
            for name, nll in methods.items()
        },
    }
    path = tmp_path / "race.json"
    path.write_text(json.dumps({"folds": [race], "config": {"dataset": "toy"}, "bands": [0.01]}))
    page = html.unescape(
        html.unescape(race_report_from_json(path, tmp_path / "race.html").read_text())
    )  # escaped twice
    assert "<strong>X-GPC won</strong>" in page and "SVGP (natural gradients) never reached it (final NLL 0.3" in page
    assert "<td>SVGP (natural gradients)</td>" in page  # the standings table


# ------------------------------------------------------------------------------------------ uploads (issue 9)

PAYLOAD = '<img src=x onerror="window.__x=1">'


class _Visible(HTMLParser):
    """The tags and the text a browser would show for an HTML fragment."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], ""

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text += data


def _visible(fragment: str) -> _Visible:
    parser = _Visible()
    parser.feed(fragment)
    parser.close()
    return parser


def _markdown_as_html(markdown: str) -> str:
    """The HTML the Markdown pane sends to the page (Panel escapes it once more for transport)."""
    pane = pn.pane.Markdown(markdown, disable_math=True)
    return html.unescape(pane._transform_object(markdown)["object"])


_PRINTABLE = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(_PRINTABLE.filter(lambda s: s.strip()))
def test_user_strings_render_as_their_literal_text(value):
    shown = _visible(html_text(value))
    assert shown.tags == [] and shown.text == value
    rendered = _visible(_markdown_as_html(f"**{markdown_text(value)}**"))
    assert rendered.tags == ["p", "strong"] and rendered.text.strip() == value.strip()


def test_markup_payloads_stay_text():
    for value in (
        PAYLOAD,
        "[x](javascript:alert(1))",
        "*a* _b_ `c` :smile: &lt;b&gt; $x^2$ www.example.com",
        "line one\n<script>window.__x=1</script>",
    ):
        assert _visible(html_text(value)).tags == []
        rendered = _visible(_markdown_as_html(markdown_text(value)))
        assert rendered.tags == ["p"] and rendered.text.strip() == " ".join(value.splitlines())


def _csv(header, rows) -> bytes:
    return ("\n".join([",".join(header)] + [",".join(map(str, row)) for row in rows]) + "\n").encode()


def _two_class_rows(n=60, labels=(0, 1), seed=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    return [(a, b, labels[int(a + b > 0)]) for a, b in X]


def test_uploaded_names_reach_the_description_as_text():
    dash = Dashboard(Model(dataset="moons", n_points=100, n_inducing=10))
    try:
        assert asyncio.run(
            dash.changes.read_file(_csv(["x1", PAYLOAD.replace('"', ""), "label"], _two_class_rows()), "p.csv", "label")
        )
        rendered = _visible(_markdown_as_html(dash.data.description.object))
        assert "img" not in rendered.tags and PAYLOAD.replace('"', "") in rendered.text
    finally:
        dash.close()


def test_messages_name_classes_plainly(dash, caplog):
    with caplog.at_level(logging.INFO):
        assert asyncio.run(
            dash.changes.read_file(_csv(["a", "b", "label"], _two_class_rows()), "zero-one.csv", "label")
        )
    assert "2 classes: 0, 1." in caplog.text and "np." not in caplog.text


def test_custom_before_any_upload_says_what_to_do(dash, caplog):
    with caplog.at_level(logging.ERROR):
        dash.changes.apply({"dataset": "custom"})
    assert "upload a CSV in the Data tab first" in caplog.text and "set_data" not in caplog.text
    assert dash.model.dataset == "moons"


def test_read_file_parses_off_the_event_loop(dash, monkeypatch):
    """While the file is parsed, another task on the same event loop runs: the parse waits until that task has run,
    which it never could if the parse held the loop (then it gives up after the failsafe and the test fails)."""
    real_read_csv, started, loop_ran, outcome = datasets.read_csv, threading.Event(), threading.Event(), []

    def gated_read_csv(*args, **kwargs):
        started.set()
        outcome.append(loop_ran.wait(timeout=30))
        return real_read_csv(*args, **kwargs)

    monkeypatch.setattr(datasets, "read_csv", gated_read_csv)

    async def session():
        async def other_session():
            while not started.is_set():
                await asyncio.sleep(0.001)
            loop_ran.set()

        other = asyncio.ensure_future(other_session())
        loaded = await dash.changes.read_file(_csv(["a", "b", "label"], _two_class_rows()), "slow.csv", "label")
        await other
        return loaded

    assert asyncio.run(session())
    assert outcome == [True]
    assert dash.model.dataset == "custom" and len(dash.model.y_train) + len(dash.model.y_test) == 60


def _drop(dash, filename, content):
    """What the browser's upload does: the FileDropper's value becomes {filename: content} (its watcher runs)."""
    dash.data.upload.value = {filename: content}


def test_every_upload_gets_feedback_and_a_rejected_file_shows_its_own_header_to_choose_from(dash, caplog):
    good = _csv(["u", "v", "label"], _two_class_rows())
    with caplog.at_level(logging.INFO):
        _drop(dash, "good.csv", good.decode())  # text files arrive decoded
        assert dash.model.dataset == "custom" and caplog.text.count("Loaded good.csv") == 1
        _drop(dash, "good.csv", good.decode())  # the same file again
        assert caplog.text.count("Loaded good.csv") == 2
        _drop(dash, "empty.csv", b"")
        assert "empty.csv: the file is empty" in caplog.text
        _drop(dash, "three.csv", _csv(["p", "q", "r", "label"], [(1, 2, 3, "a"), (2, 3, 4, "b"), (3, 4, 5, "c")]))
        assert "three.csv" in caplog.text
    # the refused file's header is offered (its label may be another column); the model keeps good.csv
    assert dash.data.label_column.options == ["p", "q", "r", "label"] and dash.data.label_column.value == "label"
    assert dash.model.feature_names == ["u", "v"] and dash.data.accepted.filename == "good.csv"
    assert not dash.data.label_column.disabled and not dash.data.reading.visible


def test_the_one_column_that_is_not_numbers_is_guessed_as_the_label_and_a_refused_guess_can_be_changed(dash, caplog):
    """'x,y,species': 'y' is named like a label but holds numbers; 'species' is the only column that does not, so
    it can only be the label. A file whose guess is refused offers its own header, and choosing the right column
    there loads it."""
    species = [(round(a, 3), round(b, 3), c) for a, b, c in _two_class_rows(labels=("bird", "cat"))]
    assert guess_label_column(["x", "y", "species"], [["0.5", "1.5", "bird"], ["1", "2", "cat"]]) == "species"
    assert guess_label_column(["x", "y", "species"], [["0.5", "1.5", "3"]]) == "y"  # all numbers: by name
    assert guess_label_column(["a", "b", "c"], [["x", "1", "y"]]) == "c"  # two non-numeric columns: the last
    _drop(dash, "species.csv", _csv(["x", "y", "species"], species))
    assert dash.model.dataset == "custom" and dash.model.feature_names == ["x", "y"]
    assert dash.model.classes.tolist() == ["bird", "cat"]
    # all numbers, and the column named like a label ('y', 60 distinct values) is not the label: refused, and the
    # box offers this file's columns; choosing 'group' there reads it again and loads it
    grouped = [(round(a, 3), round(b, 3), c) for a, b, c in _two_class_rows(seed=5)]
    with caplog.at_level(logging.ERROR):
        _drop(dash, "grouped.csv", _csv(["u", "y", "group"], grouped))
    assert "grouped.csv" in caplog.text and dash.data.accepted.filename == "species.csv"
    assert dash.data.label_column.options == ["u", "y", "group"] and dash.data.label_column.value == "y"
    assert not dash.data.label_column.disabled
    dash.data.label_column.value = "group"
    wait_until(lambda: dash.data.accepted.filename == "grouped.csv", limit=60)
    assert dash.model.feature_names == ["u", "y"] and dash.data.label_column.value == "group"


def test_a_rejected_label_choice_restores_the_label_box(dash, caplog):
    content = _csv(["u", "w", "label"], [(a, round(b, 3), c) for a, b, c in _two_class_rows()])
    _drop(dash, "good.csv", content)
    with caplog.at_level(logging.ERROR):
        dash.data.label_column.value = "u"  # 60 distinct values: not a label column
    assert "good.csv" in caplog.text
    assert dash.data.label_column.value == "label" and dash.model.feature_names == ["u", "w"]


def test_feature_names_label_the_surface_axes_as_plain_text(dash):
    names = [r"$$\frac{a}{b}$$", r"\(x^2\)"]
    assert asyncio.run(dash.changes.read_file(_csv([*names, "label"], _two_class_rows()), "tex.csv", "label"))
    labels = [axis[0].axis_label for axis in (dash.surface.figure.xaxis, dash.surface.figure.yaxis)]
    assert [type(label).__name__ for label in labels] == ["PlainText", "PlainText"]  # not typeset as TeX
    assert [label.text for label in labels] == names


def test_a_file_dropped_while_another_is_read_is_refused_and_the_first_carries_on(dash, monkeypatch, caplog):
    real_read_csv, parsing, release = datasets.read_csv, threading.Event(), threading.Event()

    def held_read_csv(*args, **kwargs):
        parsing.set()
        release.wait(timeout=30)
        return real_read_csv(*args, **kwargs)

    monkeypatch.setattr(datasets, "read_csv", held_read_csv)

    async def until(condition):
        for _ in range(3000):  # failsafe: 30 s
            if condition():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("condition not reached")

    async def session():
        _drop(dash, "first.csv", _csv(["u", "v", "label"], _two_class_rows()))  # its watcher runs as a task
        await until(parsing.is_set)
        assert dash.data.reading.visible and dash.data.label_column.disabled
        with caplog.at_level(logging.ERROR):
            _drop(dash, "second.csv", _csv(["p", "q", "label"], _two_class_rows()))
            await until(lambda: "Still reading first.csv" in caplog.text)
        assert dash.data.reading.visible  # the first file's progress is still shown
        release.set()
        await until(lambda: dash.data.accepted is not None)

    asyncio.run(session())
    assert dash.data.accepted.filename == "first.csv" and dash.model.feature_names == ["u", "v"]
    assert not dash.data.reading.visible and dash.data.label_column.options == ["u", "v", "label"]


def test_a_diverged_kernel_step_shows_advice_and_continues_with_kernel_learning_off(dash, caplog):
    dash.step()
    iteration, trainer = dash.model.iteration, dash.model.trainer
    assert not dash.kernel_advice.visible
    dash.model.engine.hyper_optimizer.learning_rate = 1e3  # the next kernel step overflows (see test_model)
    with caplog.at_level(logging.ERROR):
        dash.step()
    assert "kernel learning diverged" in caplog.text
    # the iterations before the failing kernel step stand; the failing one left no trace
    iteration = dash.model.iteration
    assert dash.kernel_advice.visible and (iteration + 1) % dash.model.engine.hyper_every == 0
    dash.fix_kernel.clicks += 1  # the button, through its on_click callback
    assert not dash.kernel_advice.visible
    assert dash.model.learn_hyperparameters is False and dash.model.trainer is trainer  # same run, no reset
    dash.step()
    assert dash.model.iteration == iteration + dash.model.eval_every


# ----- issue 11: the periodic refresh reads the worker's snapshots and never takes the gate -------------------------
def test_a_snapshot_keeps_the_state_it_was_taken_at_while_the_model_trains_on():
    model = Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, eval_every=5)
    publisher = Publisher()
    publisher.local_wanted = True
    model.step(10)
    snapshot = publisher.publish(model)
    rows = [dict(row) for row in snapshot.rows]
    c = snapshot.local["c"].copy()
    X = model.X_test[:30]
    mean, var = model.predict_latent(X)
    status, iteration = model.status, model.iteration
    model.step(20)
    assert model.iteration == iteration + 20 and not np.array_equal(model.last_local()["c"], c)
    assert [dict(row) for row in snapshot.rows] == rows and np.array_equal(snapshot.local["c"], c)
    assert (snapshot.iteration, snapshot.status) == (iteration, status)
    frozen_mean, frozen_var = snapshot.prediction.predict_latent(X)
    assert np.array_equal(frozen_mean, mean) and np.array_equal(frozen_var, var)
    assert publisher.latest is snapshot  # until the next publication


def test_snapshots_pass_every_history_row_once_whenever_the_page_takes_them():
    """Snapshots published before the page has said what it took overlap; taking each snapshot's rows after those
    already taken gives every row exactly once (a snapshot published later starts after the rows taken)."""
    model = Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, eval_every=5)
    publisher, shown = Publisher(), []
    rng = np.random.default_rng(3)
    snapshots = []
    for _ in range(40):
        model.step(int(rng.integers(1, 12)))
        snapshots.append(publisher.publish(model))
        if rng.random() < 0.4:  # the page takes this one, or an older one it had missed; otherwise it misses it
            shown += publisher.take(snapshots[int(rng.integers(len(snapshots)))])
        assert snapshots[-1].total == model.history.total
    shown += publisher.take(publisher.publish(model))
    assert shown == list(model.history.rows)
    assert [row["iteration"] for row in shown] == list(range(0, model.iteration + 1, 5))


def _playing(dash, iterations: int = 20) -> None:
    """Play and wait until the worker has trained `iterations` and published a snapshot of them."""
    dash.play()
    wait_until(lambda: dash.publisher.latest is not None and dash.publisher.latest.iteration >= iterations)


def test_the_periodic_refresh_does_not_wait_for_a_long_chunk_and_shows_the_last_snapshot(dash, monkeypatch):
    """The worker holds the gate through a chunk that lasts until released (failsafe: 30 s): a refresh meanwhile
    returns before the release and shows the rows published before that chunk began."""
    real_step, inside, release, published = dash.model.step, threading.Event(), threading.Event(), {}

    def step(k=1):
        if dash.model.iteration >= 30 and not release.is_set():
            published["rows"] = list(dash.model.history.rows)  # what the last chunk published
            published["iteration"] = dash.model.iteration
            inside.set()
            release.wait(timeout=30)
        return real_step(k)

    monkeypatch.setattr(dash.model, "step", step)
    watchdog = threading.Timer(30, release.set)
    watchdog.start()
    try:
        dash.play()
        assert inside.wait(timeout=60)
        free = dash.worker._gate.acquire(blocking=False)
        if free:
            dash.worker._gate.release()
        assert not free  # the worker holds the gate
        dash.train._slow_due = 0.0  # the status line is due too
        dash.refresh()
        assert not release.is_set()  # the refresh did not wait for the chunk to end
        shown = dash.train.traces.live.data["iteration"]
        assert list(shown) == [row["iteration"] for row in published["rows"]]
        assert dash.train.counter.value.startswith(f"iteration {published['iteration']}")
    finally:
        release.set()
        watchdog.cancel()
    dash.pause()


def test_periodic_refreshes_while_training_show_every_row_once(dash):
    _playing(dash)
    for _ in range(25):
        dash.refresh()
        time.sleep(0.01)
    dash.pause()  # refreshes under the gate: the rest of the rows
    shown = list(dash.train.traces.live.data["iteration"])
    assert shown == [row["iteration"] for row in dash.model.history.rows]
    # the last row: the last multiple of eval_every, or, if Play skipped that evaluation, the state at the Pause
    assert len(shown) > 5 and shown[-1] in (
        dash.model.iteration - dash.model.iteration % dash.model.eval_every,
        dash.model.iteration,
    )


def test_an_action_while_training_shows_its_state_and_later_snapshots_follow_it(dash):
    _playing(dash)
    dash.refresh()
    dash.step()  # pauses, one evaluation interval, then shows it
    iteration, last_row = dash.model.iteration, dash.model.history.rows[-1]["iteration"]
    assert not dash.worker.playing and last_row > iteration - dash.model.eval_every
    assert dash.train.counter.value == f"iteration {iteration}"
    assert dash.train.traces.live.data["iteration"][-1] == last_row
    dash.refresh()
    assert dash.train.traces.live.data["iteration"][-1] == last_row  # no older snapshot shows up again
    assert dash.train.counter.value == f"iteration {iteration}"
    dash.play()
    dash.reset()  # while training: a new run
    assert dash.model.iteration == 0 and not dash.worker.playing
    assert dash.train.counter.value.startswith("iteration 0")
    assert dash.train.traces.points <= 1 and len(dash.train.traces.earlier) == 1
    dash.refresh()
    assert dash.train.traces.points <= 1 and dash.train.counter.value.startswith("iteration 0")
    _playing(dash, iterations=10)  # the new run's rows from its start
    dash.pause()
    shown = list(dash.train.traces.live.data["iteration"])
    assert shown == [row["iteration"] for row in dash.model.history.rows] and shown[0] == 0


def test_a_point_added_while_training_is_drawn_and_checked_by_the_next_frames(dash):
    _playing(dash)
    n, drawn = len(dash.model.y_train), len(dash.surface.frame_inputs(None)["y"])
    dash.add_point(np.array([0.5, 0.25]), 0)
    assert len(dash.model.y_train) == n + 1
    shown = len(dash.surface.train.data["x"]) + len(dash.surface.added.data["x"])  # added points drawn apart
    assert shown == len(dash.surface._shown["train"]) + 1
    inputs = dash.surface.frame_inputs(dash.publisher.latest.prediction)  # what periodic frames now check
    dash.pause()
    assert len(inputs["y"]) == drawn + 1
    np.testing.assert_array_equal(inputs["X"][shown - 1], [0.5, 0.25])
    assert inputs["y"][shown - 1] == 0


def test_the_data_tab_lists_missing_paper_sets_in_a_short_paragraph_and_points_to_the_examples():
    """Issue 20.16: on a fresh clone the ten missing sets were a 20-line monospace block running off the page."""
    from explorer.dashboard.data import examples_hint, paper_sets_text
    from explorer.data import datasets, registry

    rows = [dict(row, available=False) for row in datasets.paper_availability()]
    text = paper_sets_text(rows)
    assert len(text.splitlines()) <= 3  # "none found", a blank line, one paragraph that wraps
    fetchable = [name for name, spec in datasets.PAPER_DATASETS.items() if spec.openml_id is not None]
    assert f"xgpc-explorer data fetch {' '.join(fetchable)}`" in text
    by_hand = [name for name in datasets.PAPER_DATASETS if name not in fetchable]
    assert by_hand and f"{', '.join(by_hand)} have no OpenML copy" in text
    rows[0]["available"] = True
    assert f"**{rows[0]['name']}**" in paper_sets_text(rows).splitlines()[2]
    assert str(registry.data_home() / "examples") in examples_hint() and all(
        (registry.PROJECT_DATA_DIR / "examples" / name).exists() for name in ("moons.csv", "circles.csv", "xor.tsv")
    )


def test_an_advanced_setting_has_its_widget_label_and_link_key_and_reaches_the_engine(dash):
    """hyper_every and kernel_bound (explorer/settings.py's advanced group) are set from the Train tab's Advanced
    card and travel in the link; an option the method's builder does not take is hidden."""
    every = dash.settings.widgets("hyper_every")
    bound = dash.settings.widgets("kernel_bound")
    assert every and bound and every[0].name == "kernel step every … iterations"
    assert every[0].visible and bound[0].visible  # X-GPC takes both
    every[0].value = 3
    assert dash.model.hyper_every == 3 and dash.model.engine.hyper_every == 3
    assert "hyper_every=3" in controls.query_string(dash.model)
    dash.changes.apply({"method": "svgp-adam"})
    assert dash.model.engine.hyper_every == 3  # every method takes it
    assert not bound[0].visible and dash.settings.widgets("learning_rate")[0].visible


def test_a_three_class_surface_is_the_class_colours_mixed_by_probability():
    from matplotlib.colors import to_rgb

    from explorer.views.style import LIGHTEN

    dash = Dashboard(Model(dataset="blobs-3", n_points=150, n_inducing=15, batch_size=50, eval_every=5))
    try:
        dash.tabs.active = 0
        surface = dash.surface
        assert surface.mode.options == ["class probabilities", "uncertainty", "predictive sd"]
        assert list(surface.click_class.options.values()) == [0, 1, 2] and surface.legend.visible
        dash.step()
        packed = np.asarray(surface.mixture.data["image"][0])
        pixels = packed.view(np.uint8).reshape(*packed.shape, 4)
        assert surface.mixture_image.visible and not surface.scalar_image.visible
        # the model's own probabilities at the grid's cells, mixed from the Category10 colours with white
        gx, gy = surface._axes
        xx, yy = np.meshgrid(gx, gy)
        P = dash.model.predict_proba(np.c_[xx.ravel(), yy.ravel()]).reshape(*xx.shape, 3)
        colours = (1 - LIGHTEN) * np.array([to_rgb(c) for c in ("#1f77b4", "#ff7f0e", "#2ca02c")]) + LIGHTEN
        # (the live picture's predictive averages over LIVE_SAMPLES points: within 4e-3 of the model's, ~1/255)
        np.testing.assert_allclose(pixels[..., :3] / 255, np.einsum("yxk,kc->yxc", P, colours), atol=2 / 255)
        assert np.all(pixels[..., 3] == 255) and len(surface.contour.data["x"]) > 0
        surface.mode.value = "uncertainty"
        entropy = -(P * np.log(P)).sum(axis=2) / np.log(3)
        np.testing.assert_allclose(image(dash), entropy, atol=0.01)
        assert surface.colorbar.title == "uncertainty" and surface.scalar_image.visible
        surface.click_class.value = 2
        surface._tapped(Tap(model=surface.figure, x=0.5, y=0.5))
        assert dash.model.y_train[-1] == 2
    finally:
        dash.close()


def test_a_three_class_race_runs_only_the_methods_that_take_three_classes_and_says_which_it_left_out(caplog):
    from explorer.methods import CLASS_COUNTS, METHODS
    from explorer.studies.race import NAMES

    takes_three = {m for m, (fewest, most) in CLASS_COUNTS.items() if fewest <= 3 and (most is None or most >= 3)}
    assert "xgpc" in takes_three
    dash = Dashboard(Model(dataset="blobs-3", n_points=120, n_inducing=10, batch_size=40, eval_every=5))
    try:
        run = finished_race(dash, budget=0.3, limit=180)
        assert set(run.models) == takes_three and run.finished
        left_out = dash.race.left_out.object
        assert dash.race.left_out.visible == (takes_three != set(METHODS))
        for method in set(METHODS) - takes_three:
            assert f"{NAMES[method]}: it takes exactly 2 classes" in left_out
        assert "3 classes" in left_out or not dash.race.left_out.visible
        assert "chance log 3 = 1.0986" in dash.race.table.object  # the band is measured from chance, log K
        # only methods that cannot take the data: refused, said, nothing started
        binary_only = [m for m in METHODS if m not in takes_three]
        if binary_only:
            dash.race.methods.value = binary_only
            dash.race.run = None
            with caplog.at_level(logging.ERROR):
                dash.start_study(dash.race)
                wait_until(lambda: dash.actions.current is None, limit=60)
            assert dash.race.run is None and "None of the chosen methods takes data of 3 classes" in caplog.text
    finally:
        dash.close()


def test_a_three_label_upload_trains_and_says_how_many_classes(dash, caplog):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(90, 2))
    names = ["<i>iris</i>", "rose", "tulip"]
    rows = [(a, b, names[int(np.digitize(np.arctan2(b, a), [-np.pi / 3, np.pi / 3]))]) for a, b in X]
    with caplog.at_level(logging.INFO):
        _drop(dash, "flowers.csv", _csv(["u", "v", "flower"], rows))
        assert "Loaded flowers.csv: 90 rows, 2 features; 3 classes: <i>iris</i>, rose, tulip." in caplog.text
    assert dash.model.dataset == "custom" and dash.model.classes.tolist() == sorted(names)
    dash.refresh(force_surface=True)
    assert "3 classes: \\<i\\>iris\\<\\/i\\> (" in dash.data.description.object  # escaped: shown as text
    assert dash.surface.mode.options[0] == "class probabilities"
    assert [item.label.value for item in dash.surface.legend.items] == sorted(names)  # named above the plot
    assert dash.surface.legend.visible
    dash.step()
    assert dash.model.iteration == dash.model.eval_every and dash.surface.mixture_image.visible
    assert dash.model.predict_proba(X[:5]).shape == (5, 3)


def test_a_shared_link_greets_the_visitor_with_where_the_settings_came_from(dash):
    """A visitor who opens a link changed nothing: the status names the link's settings that differ from the defaults,
    not "Run reset (dataset 'moons' → 'blobs-3')" as if they had."""
    dash.changes.open_link("?dataset=blobs-3&n_inducing=20&seed=3")
    wait_until(lambda: dash.model.dataset == "blobs-3" and dash.actions.current is None, limit=60)
    status = dash.model.status
    assert status.startswith("Opened with the settings of a shared link: dataset 'blobs-3', seed 3. "), status
    assert "Run reset" not in status and "n_inducing" not in status  # 20 was already the value
    dash.model.n_inducing = 15  # the visitor's own change later is said as before
    assert dash.model.status.startswith("Run reset (n_inducing 20 → 15)")


def mcmc_tab_after_a_run(dataset: str, **model_settings):
    """An MCMC tab that ran a small comparison on `dataset` (and `model_settings`) to its end, driven here without a
    worker, and rendered."""
    from explorer.dashboard.mcmc import McmcTab
    from explorer.studies.plane import Projection

    model = Model(dataset=dataset, n_points=120, n_inducing=10, batch_size=50, eval_every=5, **model_settings)
    tab = McmcTab()
    for widget, value in ((tab.n_train, 36), (tab.n_test, 20), (tab.n_samples, 60), (tab.burn_in, 20)):
        widget.value = value
    tab.n_chains.value = 2
    run = tab.new_run(model, Projection(model.X_train))
    for _ in run.chunks():
        pass
    tab.render(tab.collect(), running=False)
    return tab, run


def test_the_mcmc_tab_shows_both_logistic_softmax_families_against_the_sampler_and_says_the_gap():
    tab, run = mcmc_tab_after_a_run("blobs-3", multiclass_family="joint")
    assert list(run.results) == ["sparse", "full", "factorised"]
    factorised, joint = run.results["factorised"], run.results["full"]
    assert factorised.label == "X-GPC full (paper's factorised q(λ)q(n))"
    mean_panel = tab.comparison[0].object
    shown = next(element for element in mean_panel if element.label == factorised.label)
    np.testing.assert_array_equal(shown.dimension_values(0), factorised.mcmc_mean.ravel())
    np.testing.assert_array_equal(shown.dimension_values(1), factorised.vi_mean.ravel())
    assert len([element for element in mean_panel if isinstance(element, hv.Scatter)]) == 3
    # the sentence, with the offsets from the results' own arrays; the two fits differ by a margin that does not
    # depend on the (short, unmixed) chains: the same MCMC means are subtracted from both
    offsets = {name: float(np.mean(r.vi_mean - r.mcmc_mean)) for name, r in (("f", factorised), ("j", joint))}
    assert np.mean(factorised.vi_mean - joint.vi_mean) > 0.3
    words = {name: f"{abs(value):.2f} {'above' if value >= 0 else 'below'}" for name, value in offsets.items()}
    assert f"factorised family's latent means sit {words['f']} MCMC's on average" in tab.summary.object
    assert f"the joint family's (X-GPC full) {words['j']}" in tab.summary.object
    assert f"| {joint.label} | {factorised.label} |" in tab.summary.object  # the table's header


def test_the_mcmc_tab_shows_two_results_for_two_classes():
    tab, run = mcmc_tab_after_a_run("moons")
    assert list(run.results) == ["sparse", "full"]
    mean_panel = tab.comparison[0].object
    assert len([element for element in mean_panel if isinstance(element, hv.Scatter)]) == 2
    assert "mean-field gap" not in tab.summary.object


def test_the_mcmc_tabs_sparse_fit_differs_visibly_from_full_at_the_defaults():
    """Issue 31.7: at the tab's defaults on the default data (banana-like, 300-point subsamples, the untrained
    kernel) sparse X-GPC has 20 inducing points, not the Train tab's 100 (which span the subsample's GP: sparse and
    full then agree to 0.0002 in p(y=1)), so Fig. 1's sparse-against-full contrast shows: p(y=1) differs by more
    than 0.05 at some test point (measured 0.09), and the sparse fit's variance exceeds full's by more than 10% at
    some (measured 32%)."""
    from explorer.dashboard.mcmc import SPARSE_INDUCING, McmcTab
    from explorer.studies.plane import Projection

    model = Model()
    tab = McmcTab()
    assert (tab.n_train.value, tab.n_test.value, tab.n_inducing.value) == (300, 300, SPARSE_INDUCING)
    tab.n_samples.value, tab.burn_in.value, tab.n_chains.value = 20, 0, 1  # the chains do not enter the fits
    run = tab.new_run(model, Projection(model.X_train))
    for _ in run.chunks():
        pass
    sparse, full = run.results["sparse"], run.results["full"]
    assert run.m == 20 and model.n_inducing == 100
    assert np.max(np.abs(sparse.vi_proba - full.vi_proba)) > 0.05
    assert np.max(sparse.vi_var / full.vi_var) > 1.1
    assert "m=20" in sparse.label.replace(" ", "") and "20 inducing points" in tab.__panel__()[1][0].object
