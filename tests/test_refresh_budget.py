"""The server-wide refresh budget (issue 33): its arithmetic (every training session the same interval, all of them
together a fixed share of the event loop, between the fastest and the slowest rate), a Dashboard's ticks paced by it,
the sessions' training chunks taking turns (`Turns`: the event loop then competes with one training thread for the
GIL, not with all of them), the status line at least once a second, the live evaluation's share counted on the run's
own time, and the "only what changed" paths of a refresh — axis ranges sent only when they move by a pixel, a surface
frame only when it looks different — against what a full refresh shows."""

import threading
import time

import numpy as np
import pytest
from bokeh.models import Range1d

from explorer.dashboard import train as train_module
from explorer.dashboard.app import Dashboard
from explorer.dashboard.budget import RefreshBudget, Turns
from explorer.dashboard.ranges import fit_range
from explorer.dashboard.session import Worker
from explorer.dashboard.surface import SurfaceView
from explorer.dashboard.tabs import Tick
from explorer.dashboard.traces import _WIDTH, Traces
from explorer.model import Model
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
            allowed += dashboard.refresh.budget_allows()
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


# ----- the sessions' training chunks take turns ---------------------------------------------------------------------
def until(condition, limit: float = 120.0) -> None:
    """Poll `condition` (a failsafe deadline, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.01)


class Holder(threading.Thread):
    """A session's chunk: takes a turn, notes when it got it, holds it until released, `again` times in all."""

    def __init__(self, name: str, turns: Turns, order: list, inside: list, again: int = 1):
        super().__init__(daemon=True)
        self.name, self.turns, self.order, self.inside, self.again = name, turns, order, inside, again
        self.release = threading.Semaphore(0)

    def run(self) -> None:
        for _ in range(self.again):
            with self.turns.turn(self) as granted:
                assert granted
                self.inside.append(self.name)
                self.order.append(self.name)
                self.release.acquire()
                self.inside.remove(self.name)


def test_training_chunks_take_turns_first_come_first_served_and_one_that_asks_again_waits_behind():
    turns, order, inside = Turns(lanes=1), [], []
    first = Holder("a", turns, order, inside, again=2)
    first.start()
    until(lambda: order == ["a"])
    others = []
    for count, name in enumerate("bcd", start=1):  # they ask one after the other while a holds the lane
        others.append(Holder(name, turns, order, inside))
        others[-1].start()
        until(lambda count=count: turns.waiting == count)
    first.release.release()  # a's chunk ends and a asks again at once: behind b, c and d
    until(lambda: turns.waiting == 3 and order[-1] == "b")
    for holder in [others[0], others[1], others[2]]:
        assert inside == [holder.name]  # one lane: one chunk at a time
        holder.release.release()
        until(lambda holder=holder: holder.name not in inside and len(inside) == 1)
    first.release.release()
    for holder in [first, *others]:
        holder.join(timeout=60)
    assert order == ["a", "b", "c", "d", "a"]
    assert turns.waiting == 0


def test_two_lanes_hold_two_chunks_at_a_time_and_a_lane_goes_to_the_longest_waiting():
    turns, order, inside = Turns(lanes=2), [], []
    holders = {name: Holder(name, turns, order, inside) for name in "abcd"}
    for count, name in enumerate("abcd"):
        holders[name].start()
        until(lambda count=count: len(order) + turns.waiting == count + 1)
    assert sorted(inside) == ["a", "b"] and turns.waiting == 2
    holders["b"].release.release()  # b's lane goes to c, who waited longest
    until(lambda: "c" in inside)
    assert sorted(inside) == ["a", "c"] and turns.waiting == 1
    for name in "acd":
        until(lambda name=name: name in inside)
        holders[name].release.release()
    for holder in holders.values():
        holder.join(timeout=60)
    assert order == ["a", "b", "c", "d"]


@pytest.mark.parametrize("lanes", [0, -1, 1.5, True])
def test_turns_need_a_whole_number_of_lanes(lanes):
    with pytest.raises(ValueError, match=f"lanes={lanes!r}"):
        Turns(lanes)


def test_a_worker_waits_for_its_turn_without_its_gate_and_leaves_the_queue_when_told_to_do_something_else():
    turns, ran = Turns(lanes=1), []
    worker = Worker()
    worker.turns = turns
    try:
        with turns.turn("another session") as granted:  # another session's chunk holds the only lane
            assert granted
            worker.play(lambda: ran.append("trained") and False, take_turns=True)
            until(lambda: turns.waiting == 1)
            with worker.hold(timeout=60) as taken:  # the page still gets the gate at once
                assert taken and ran == []
            worker.pause(wait=False)  # Pause: the wait for a turn ends, the place in the queue is given up
            until(lambda: turns.waiting == 0)
            worker.play(lambda: ran.append("study") and False)  # a study's chunks take no turn: they run now
            until(lambda: "study" in ran)
            worker.play(lambda: ran.append("trained") and False, take_turns=True)
            until(lambda: turns.waiting == 1)
            assert "trained" not in ran
        until(lambda: "trained" in ran)  # the lane is free: the training chunk runs
    finally:
        worker.stop()
    assert not worker.alive


def test_a_served_sessions_training_takes_turns_with_the_others_on_its_servers_budget():
    budget = RefreshBudget()
    dashboard = Dashboard(Model(n_points=120, n_inducing=10, batch_size=20), start=False, budget=budget)
    try:
        assert dashboard.worker.turns is budget.turns
        with budget.turns.turn("the other sessions"):  # their chunks hold the lane
            dashboard.play()
            until(lambda: budget.turns.waiting == 1)
            assert dashboard.model.iteration == 0
        until(lambda: dashboard.model.iteration > 0)
    finally:
        dashboard.close()
        dashboard.worker.stop(wait=60)


# ----- the status line at least once a second; the evaluation's share on the run's own time -------------------------
def test_the_iteration_counter_is_shown_at_the_last_refresh_before_it_would_be_a_second_old(monkeypatch):
    """Twelve sessions' pace (a refresh every 0.45 s, the next one at most 0.62 s away) and no new evaluation: the
    iteration counter is refreshed at most `slow_seconds` apart, so the page changes at least once a second, while the
    status line (text that re-lays out the page) stays at least `slow_seconds` apart."""
    clock = {"now": 1000.0}
    monkeypatch.setattr(train_module.time, "monotonic", lambda: clock["now"])
    dashboard = Dashboard(Model(n_points=120, n_inducing=10, batch_size=20), start=False)
    try:
        tab = dashboard.train
        snapshot = dashboard.publisher.publish(dashboard.model)
        counters, statuses = [], []
        for _ in range(200):  # 90 s of refreshes; the Train tab not shown (no surface frames)
            clock["now"] += 0.45
            news = tab.collect(Tick(snapshot, False, "Data", False, next_within=0.62))
            tab.render(news, running=True)
            if "counter" in news:
                counters.append(clock["now"])
            if "status" in news:
                statuses.append(clock["now"])
        assert np.diff(counters).max() <= tab.slow_seconds  # never older than that where it could have been sent
        assert np.diff(statuses).min() >= tab.slow_seconds
        assert tab.counter.value == f"iteration {snapshot.iteration}"
    finally:
        dashboard.close()


def test_the_live_evaluations_share_counts_the_runs_own_time_not_its_wait_for_a_turn(monkeypatch):
    """One second of training per iteration, 100 s per evaluation, a 25% share, and 1,000 s of waiting (for a turn)
    between two chunks of 10 iterations: the run evaluates every 300 s of its own training as without the waits —
    counted on the wall clock, every multiple of eval_every would have been evaluated after a wait."""
    from test_training import clocked_xgpc

    from explorer.training import Trainer

    engine, X, y, clock = clocked_xgpc(monkeypatch)
    trainer = Trainer(engine, X[:40], y[:40], eval_every=10)
    trainer.eval_share = 0.25
    for _ in range(100):
        trainer.step(10)
        clock.now += 1000.0  # the other sessions' turns
    np.testing.assert_array_equal(trainer.history.column("iteration"), [0, 300, 600, 900])
    assert trainer.seconds == 1000.0 and trainer.eval_seconds == 400.0
