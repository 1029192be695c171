"""Issue 20 (the first hour, round two) without a browser: the Train tab's status and convergence note, the ρ/kernel
axis's ticks, the live evaluation's cost, overlays across data sets, the MCMC verdict sentence, clicked points."""
import time

import numpy as np
import pytest
from hypothesis import given, strategies as st

from explorer.dashboard import Dashboard
from explorer.dashboard.ranges import log_ticks
from explorer.model import Model


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


# ----- item 14: the ρ/kernel axis, the status line, "converged" ----------------------------------------------------
@given(st.floats(-6, 3), st.floats(0.05, 8))
def test_log_ticks_lie_in_the_range_and_never_pile_up(low_exponent, decades):
    low, high = 10.0 ** low_exponent, 10.0 ** (low_exponent + decades)
    ticks = np.array(log_ticks(low, high))
    assert len(ticks) >= 1 and np.all((ticks >= low * (1 - 1e-6)) & (ticks <= high * (1 + 1e-6)))
    assert len(ticks) <= 10 or np.allclose(np.log10(ticks) % 1, 0)  # many decades: powers of ten only
    gaps = np.diff(np.log10(ticks)) / np.log10(high / low)  # as shares of the axis' height
    assert np.all(gaps >= 0.06), (low, high, ticks)  # ≥ 14 px apart on the 230-px figure: labels do not overlap
    if decades >= 0.5:
        assert len(ticks) >= 2


def test_rho_axis_of_a_fresh_page_and_a_run_has_readable_ticks(dash):
    figure = dash.train.traces.params
    for _ in range(2):
        low, high = figure.y_range.start, figure.y_range.end
        ticks = np.array(figure.yaxis[0].ticker.ticks)
        shown = ticks[(ticks >= low) & (ticks <= high)]
        assert len(shown) >= 2 and np.min(np.diff(np.log10(shown))) / np.log10(high / low) >= 0.06
        dash.step()
        dash.refresh(force_surface=True)


def test_the_status_line_tells_the_current_iteration_and_numbers(dash):
    for _ in range(12):
        dash.step()
    row = dash.model.history.rows[-1]
    status = dash.train.status.value
    assert row["iteration"] == dash.model.iteration == 60
    assert f"Iteration 60: test NLL {row['test_nll']:.4f}, error {row['test_error']:.3f}" in status
    assert dash.train.counter.value == "iteration 60"


def test_play_stopping_at_convergence_names_the_rule_and_play_trains_on():
    dash = Dashboard(Model(dataset="moons", n_points=200, n_inducing=20, batch_size=50, eval_every=5,
                           learn_hyperparameters=False))  # converges in about 3,000 iterations
    dash.play()
    wait_until(lambda: not dash.worker.playing)
    dash.refresh(force_surface=True)
    converged_at = dash.model.iteration
    window = dash.model.trainer.engine.criterion
    assert window.converged and np.mean(window.changes) < 1e-4  # the global-parameter rule holds, independently
    status = dash.train.status.value
    assert dash.train.counter.value == f"iteration {converged_at} · converged"
    assert "global parameters" in status and "last 10 iterations &lt; 0.0001" in status
    assert "press Play to train on" in status
    dash.play()  # Play goes on past the rule it has stopped at once
    wait_until(lambda: dash.model.iteration > converged_at + 50)
    dash.pause()
    assert dash.model.iteration > converged_at + 50
    dash.close()
