"""The server-wide refresh budget (issue 33): its arithmetic (every training session the same interval, all of them
together a fixed share of the event loop, between the fastest and the slowest rate), a Dashboard's ticks paced by it,
and the "only what changed" paths of a refresh — axis ranges sent only when they move by a pixel, a surface frame
only when it looks different — against what a full refresh shows."""

import numpy as np
import pytest
from bokeh.models import Range1d

from explorer.dashboard.app import Dashboard
from explorer.dashboard.budget import RefreshBudget
from explorer.dashboard.ranges import fit_range
from explorer.dashboard.surface import SurfaceView
from explorer.dashboard.traces import _WIDTH, Traces
from explorer.views.style import P_PALETTE


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def budget_with(sessions: int, cost: float, clock=None, **options) -> RefreshBudget:
    budget = RefreshBudget(clock=clock or Clock(), **options)
    for session in range(sessions):
        budget.training(session)
    budget.record(cost)
    return budget


@pytest.mark.parametrize("sessions", [4, 8, 12])
def test_the_sessions_share_the_event_loop_fairly_at_the_budgets_share(sessions):
    # 15 ms a refresh, share 0.4: 12 sessions at 2.2 Hz each fill 12 · 2.2 · 0.015 = 0.4 of the loop
    budget = budget_with(sessions, cost=0.015, share=0.4, fastest=0.05, slowest=5.0)
    rate = 1 / budget.interval()
    assert sessions * rate * 0.015 == pytest.approx(0.4)  # all together: the share of the loop, no more
    assert budget.sessions == sessions  # one interval for every training session: equal shares


def test_the_fastest_rate_holds_while_the_share_allows_and_the_slowest_bounds_an_overload():
    assert budget_with(2, cost=0.005, fastest=0.17).interval() == 0.17  # 2 · 5 ms / 0.4 = 25 ms: the tick's own
    assert budget_with(12, cost=0.015, fastest=0.17).interval() == pytest.approx(12 * 0.015 / 0.4)  # 0.45 s: > 2 Hz
    assert budget_with(50, cost=0.2, slowest=2.0).interval() == 2.0  # 25 s wanted: a page still refreshes every 2 s


def test_the_cost_is_a_running_mean_of_the_refreshes_and_a_loaded_machine_slows_them():
    budget = budget_with(6, cost=0.01, share=0.5, fastest=0.01, slowest=10.0)
    before = budget.interval()
    for _ in range(30):  # less CPU left: each refresh takes 4× the wall time
        budget.record(0.04)
    assert budget.cost == pytest.approx(0.04, rel=1e-2)
    assert budget.interval() == pytest.approx(4 * before, rel=1e-2)


def test_a_session_that_stopped_training_no_longer_takes_a_share():
    clock = Clock()
    budget = budget_with(3, cost=0.1, clock=clock, share=0.5, fastest=0.01, slowest=10.0, memory=3.0)
    assert budget.interval() == pytest.approx(0.6)
    budget.stopped(0)  # paused or closed: at once
    assert budget.sessions == 2 and budget.interval() == pytest.approx(0.4)
    clock.now += 2.0
    budget.training(1)  # session 2 is no longer seen training …
    clock.now += 2.0
    assert budget.sessions == 1 and budget.interval() == pytest.approx(0.2)  # … and drops out after `memory`


def test_the_status_line_says_when_and_why_refreshes_are_slowed():
    assert budget_with(1, cost=0.001).slowed() is None
    note = budget_with(12, cost=0.03, share=0.4).slowed()  # 0.9 s between refreshes
    assert "1.1 a second" in note and "12 sessions" in note and "30 ms" in note and "40%" in note


def test_surface_frames_of_all_sessions_take_the_frame_share_of_a_core():
    budget = budget_with(12, cost=0.01, frame_share=0.25)
    wait = budget.frame_interval(0.03, least=0.8)  # 12 sessions' frames of 30 ms: 1.44 s apart each
    assert 12 * 0.03 / wait == pytest.approx(0.25)
    assert budget_with(1, cost=0.01).frame_interval(0.03, least=0.8) == 0.8  # one session: its own rule


@pytest.mark.parametrize("option", ["share", "frame_share", "fastest", "memory"])
def test_a_budget_out_of_range_is_refused_by_name(option):
    with pytest.raises(ValueError, match=f"{option}=0"):
        RefreshBudget(**{option: 0})


def test_a_training_dashboard_is_refreshed_at_the_budgets_rate_to_within_a_tick():
    clock = Clock()
    budget = budget_with(11, cost=0.015, clock=clock, share=0.4, fastest=0.17)  # with the dashboard 12: 0.45 s, 2.2 Hz
    dashboard = Dashboard(start=False, budget=budget)
    try:
        allowed, ticks = 0, 600  # the periodic callback's ticks, 0.17 s apart: 102 s
        for _ in range(ticks):
            for session in range(11):
                budget.training(session)
            allowed += dashboard._budget_allows()
            clock.now += 0.17
        # 2.2 Hz on average although ticks come every 0.17 s (± the window's ends and one late tick caught up)
        assert abs(allowed - ticks * 0.17 / 0.45) <= 2
        assert budget.sessions == 12  # the dashboard counts itself as training
    finally:
        dashboard.close()


def test_axis_ranges_are_sent_only_when_they_move_by_a_pixel_and_always_show_every_point():
    traces = Traces()
    rng = np.random.default_rng(3)
    sent = {"x": 0, "y": 0}
    traces.elbo.x_range.on_change("end", lambda attr, old, new: sent.__setitem__("x", sent["x"] + 1))
    traces.elbo.y_range.on_change("start", lambda attr, old, new: sent.__setitem__("y", sent["y"] + 1))
    rows, elbo = [], -500.0
    for step in range(400):  # 400 refreshes of 5 iterations: the curve flattens as a run converges
        new = []
        for _ in range(5):
            elbo += 50.0 / (1 + len(rows)) + rng.normal(0, 0.01)
            new.append(
                {
                    "iteration": len(rows) + 1,
                    "seconds": 0.01 * len(rows),
                    "elbo": elbo,
                    "test_nll": 0.3,
                    "test_error": 0.1,
                    "rho": 0.1,
                    "lengthscale": 1.0,
                    "variance": 1.0,
                }
            )
            rows.append(new[-1])
        traces.add(new)
        kept = traces.buffer.kept
        exact = Range1d(0, 1)
        fit_range(exact, [kept["iteration"]])  # what a full refresh fits, with no tolerance
        shown = traces.elbo.x_range
        assert shown.start <= kept["iteration"].min() and shown.end >= kept["iteration"].max()
        pixel = (exact.end - exact.start) / _WIDTH
        assert abs(shown.start - exact.start) < pixel and abs(shown.end - exact.end) < pixel
        y = traces.elbo.y_range
        assert y.start <= kept["elbo"][len(kept["elbo"]) // 2 :].min() and y.end >= kept["elbo"].max()
    assert sent["y"] < 400 / 2  # the y range of the flattening curve often moved by less than a pixel: not sent


def frame(z: np.ndarray, wrong=((0.5, 0.5),), contour=((0.0, 0.1), (0.2, 0.3))) -> dict:
    n = z.shape[0]
    return {
        "grid": (np.linspace(0, 1, n), np.linspace(0, 1, n)),
        "z": z.astype(np.float32),
        "quantity": "probability",
        "contour": np.array(contour, dtype=float),
        "wrong": np.array(wrong, dtype=float),
        "seconds": 0.01,
    }


def test_a_surface_frame_is_skipped_only_when_it_would_look_the_same():
    surface = SurfaceView(lambda *a: None, replot=lambda: None, redraw=lambda: None)
    z = np.random.default_rng(0).uniform(0, 1, (20, 20))
    surface.show(frame(z))
    step = 1 / len(P_PALETTE)
    assert surface.unchanged(frame(z + 0.4 * step))  # within half a colour step everywhere: the same picture
    moved = z.copy()
    moved[3, 4] += 0.6 * step
    assert not surface.unchanged(frame(moved))  # one cell a colour further
    assert not surface.unchanged(frame(z, wrong=((0.5, 0.5), (0.1, 0.9))))  # another point crossed out
    assert not surface.unchanged(frame(z, contour=((0.0, 0.1), (0.2, 0.35))))  # the contour a grid cell away
    assert not surface.unchanged({**frame(z), "quantity": "sd"})
    # what the page shows after a skipped frame is what the full frame would show, to half a colour step
    shown = surface.image.data["image"][0]
    assert np.max(np.abs(shown - (z + 0.4 * step))) <= 0.5 * step
