"""The dashboard's views and callbacks without a browser: a real Model steps, the plot sources change, bad input is
reported and leaves the run alone. `Dashboard.refresh()` is called directly (no server runs its periodic callback)."""
import logging
import time

import numpy as np
import pytest
from bokeh.events import Tap
from scipy.special import expit, log_expit

from explorer.dashboard import Dashboard
from explorer.dashboard.data import header_columns, guess_label_column
from explorer.dashboard.learn import gibbs_mackay_bound, sigmoid_by_augmentation
from explorer.dashboard.race import standings
from explorer.metrics import first_time_within, settled_time_within
from explorer.dashboard.surface import CLASS_COLORS, P_PALETTE, PCA
from explorer.dashboard.traces import Decimator
from explorer.dashboard.worker import Worker
from explorer.datasets import DataError
from explorer.model import Model


@pytest.fixture
def dash():
    dashboard = Dashboard(Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, eval_every=5))
    yield dashboard
    dashboard.close()


def wait_until(condition, limit=60.0):
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
    assert dash.train.traces.live.data["iteration"][-1] == stopped_at - stopped_at % dash.model.eval_every


def test_a_configuration_change_archives_the_run_and_labels_runs_by_what_changed(dash):
    traces = dash.train.traces
    dash.step()
    dash.step()
    dash.apply({"n_inducing": 10})
    assert dash.model.n_inducing == 10 and dash.model.iteration == 0
    assert traces.points == 0
    assert all(w.value == 10 for w in dash.settings.widgets("n_inducing"))
    dash.apply({"seed": 3})  # run 2 ends before it drew anything: run 3 does not exist, the next run is run 2
    dash.step()
    dash.step()
    dash.reset()
    elbo_labels = [item.label["value"] for item in traces.elbo.legend[0].items]
    assert elbo_labels == ["run 1: first run", "run 2: seed 0 → 3, inducing points 20 → 10",
                           "run 3 (now): same settings"]
    assert [item.label["value"] for item in traces.nll.legend[0].items] == ["run 1", "run 2", "run 3 (now)"]


def test_a_rejected_change_keeps_the_run_and_resyncs_the_widgets(dash, caplog):
    dash.step()
    iteration = dash.model.iteration
    with caplog.at_level(logging.ERROR):
        dash.apply({"dataset": "custom"})  # no custom data loaded: the Model refuses
    assert dash.model.dataset == "moons" and dash.model.iteration == iteration
    assert "custom" in caplog.text
    assert all(w.value == "moons" for w in dash.settings.widgets("dataset"))


def test_a_bad_upload_is_reported_and_leaves_the_run_intact(dash, caplog):
    dash.step()
    X_train, iteration = dash.model.X_train.copy(), dash.model.iteration
    with caplog.at_level(logging.ERROR):
        dash.load_file(b"a,b,label\n1,2,x\n3,oops,y\n", "bad.csv", "label")
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
        dash.load_file(text.encode(), "mine.csv", "outcome")
        assert dash.model.dataset == "custom" and dash.model.feature_names == ["f1", "f2", "f3"]
        assert dash.surface.projection.kind == PCA and dash.surface.axes.visible
        assert "mine.csv" not in dash.data.description.object or "custom" in dash.data.description.object
        dash.step()
        assert dash.train.traces.points >= 2
    finally:
        dash.close()


def test_upload_header_parsing():
    assert header_columns(b"x;y;class\n1;2;a\n", "f.csv") == ["x", "y", "class"]
    assert guess_label_column(["x", "Class", "z"]) == "Class"
    assert guess_label_column(["x", "y2", "z"]) == "z"
    with pytest.raises(DataError, match="not UTF-8"):
        header_columns(b"\xff\xfe\x00binary", "f.bin")
    with pytest.raises(DataError, match="one column"):
        header_columns(b"justone\n1\n", "f.csv")


def test_a_click_on_the_surface_adds_a_training_point(dash):
    n = len(dash.model.y_train)
    dash.surface.click_class.value = -1
    dash.surface._tapped(Tap(model=dash.surface.figure, x=0.25, y=-0.5))
    assert len(dash.model.y_train) == n + 1 and dash.model.y_train[-1] == -1
    np.testing.assert_allclose(dash.model.X_train[-1], [0.25, -0.5])
    assert len(dash.surface.train.data["x"]) == len(dash.surface._shown["train"]) + 1


def test_sd_mode_switches_the_colour_scale(dash):
    dash.step()
    dash.surface.mode.value = "predictive sd"
    assert dash.surface.colorbar.title == "sd of f*"
    assert dash.surface.mapper.high == pytest.approx(float(image(dash).max()))
    dash.surface.mode.value = "p(y=1)"
    assert dash.surface.mapper.high == 1.0


def test_history_csv_and_learn_histograms(dash):
    dash.step()
    csv = dash.history_csv()
    assert csv.splitlines()[0].startswith("iteration,seconds,elbo")
    assert len(csv.splitlines()) == 1 + len(dash.model.history)
    dash.tabs.active = 4
    dash.refresh()
    assert len(dash.learn.c_source.data["top"]) == 30
    assert "points" in dash.learn.minibatch_text.object


def test_decimator_keeps_the_whole_run_in_bounded_memory():
    buffer = Decimator(capacity=100)
    for start in range(0, 1000, 7):
        buffer.add([{name: float(i) for name in ("iteration", "seconds", "elbo", "test_nll", "test_error", "rho",
                                                 "lengthscale", "variance")} for i in range(start, min(start + 7, 1000))])
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
    for widget, value in ((dash.mcmc.n_train, 40), (dash.mcmc.n_test, 30), (dash.mcmc.n_samples, 60),
                          (dash.mcmc.burn_in, 20), (dash.mcmc.n_chains, 2)):
        widget.value = value
    dash.start_mcmc()
    wait_until(lambda: not dash.worker.playing, limit=120)
    assert dash.worker.error is None
    dash.refresh()
    run = dash.mcmc.run
    assert run.stage == "done" and run.sampler.sweeps_done == 80
    assert set(run.results) == {"sparse", "full"}
    assert len(dash.mcmc.scatter["mean"][1]["sparse"].data["x"]) == 30
    assert run.results["full"].pair_summaries()["p(y=1)"].correlation > 0.9
    assert "correlation" in dash.mcmc.summary.object and dash.mcmc.note.visible  # 40 of 160 training points
    assert len(dash.mcmc.trace_sources[0].data["sweep"]) == 80


def test_race_tab_races_and_ranks(dash):
    dash.tabs.active = 3
    dash.race.methods.value = ["xgpc", "svgp-adam"]
    dash.race.budget.value = 0.5
    dash.start_race()
    wait_until(lambda: not dash.worker.playing, limit=120)
    assert dash.worker.error is None
    dash.refresh()
    run = dash.race.run
    assert run.finished and all(m.trainer.seconds >= 0.5 for m in run.models.values())
    assert set(run.models) == {"xgpc", "svgp-adam"}
    assert len(dash.race.sources["xgpc"].data["seconds"]) >= 2
    assert "reached the band" in dash.race.table.object


def test_time_to_target_readings():
    seconds = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    nll = np.array([0.9, 0.5, 0.7, 0.5, 0.5])
    assert first_time_within(seconds, nll, 0.55) == 1.0
    assert settled_time_within(seconds, nll, 0.55) == 3.0
    assert first_time_within(seconds, nll, 0.1) == np.inf
    best, rows = standings({"a": {"seconds": seconds, "test_nll": nll, "test_error": nll / 10,
                                  "iteration": np.arange(5.0)}})
    assert best == 0.5 and rows[0]["first"] == 1.0


def test_heatmap_and_point_colours_agree():
    def rgb(color):
        return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)])

    for low_end, high_end in ((P_PALETTE[0], P_PALETTE[-1]), tuple(CLASS_COLORS)):
        assert rgb(low_end)[2] > rgb(low_end)[0]  # p = 0 and class −1: blue
        assert rgb(high_end)[0] > rgb(high_end)[2]  # p = 1 and class +1: red
