"""The load test's light client (issue 33): a session over Bokeh's websocket protocol without a browser really
presses Play and receives the page's changes — every PATCH-DOC message the server wrote to its websocket — and the
iteration counter in them; the server's refreshes are paced by its `RefreshBudget`, and the status line says so."""

import asyncio
import os
import time
import urllib.request

import pytest
from tornado.websocket import WebSocketHandler

from explorer.dashboard import serve_in_background
from explorer.dashboard.budget import RefreshBudget
from explorer.tools.benchmark import PATCH
from explorer.tools.loadtest import LightSession, longest_gap, run_light, static_file

DEADLINE = 120.0  # s: a failsafe on a loaded machine


@pytest.fixture
def server():
    """(url, dashboards, budget): the app served in this process with a budget the test holds."""
    dashboards, budget = [], RefreshBudget()
    port = _free_port()
    served = serve_in_background(port, dashboards, budget)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            urllib.request.urlopen(url, timeout=60).read()
            break
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
    yield url, dashboards, budget
    for dashboard in dashboards:  # sessions still training would go on allocating in later tests' measurements
        dashboard.close()
        dashboard.worker.stop(wait=DEADLINE)
        assert not dashboard.worker.alive
    served.stop()
    served.join()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def until(condition) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, "the server never reached the expected state"
        await asyncio.sleep(0.1)


def test_a_light_client_trains_and_receives_every_patch_the_server_sent(server, monkeypatch):
    url, dashboards, _ = server
    sent = []  # the PATCH-DOC messages the server wrote to any websocket (their header frames)
    original = WebSocketHandler.write_message

    def counted(self, message, binary=False):
        if isinstance(message, str) and PATCH.search(message[:200]):
            sent.append(message)
        return original(self, message, binary)

    monkeypatch.setattr(WebSocketHandler, "write_message", counted)

    async def run():
        client = LightSession(url)
        await client.open()
        dashboard = dashboards[-1]
        await client.press()  # ▶ Play, as a click on the page
        await until(lambda: dashboard.model.iteration >= 300 and client.iteration > 0)
        await client.press("❚❚ Pause")
        await until(lambda: not dashboard.worker.playing and dashboard.actions.current is None)
        await asyncio.sleep(2.0)  # the last refreshes after the pause reach the client
        received = client.patches
        await client.close()
        return client, dashboard, received

    client, dashboard, received = asyncio.run(run())
    assert received == len(sent) > 10  # the page's every change, and only those, reached the light client
    assert 0 < client.iteration <= dashboard.model.iteration  # the counter it read: the server's run
    assert not client.errors
    assert longest_gap(client.patch_times, client.patch_times[0], client.patch_times[-1]) > 0


def test_a_class_shares_the_budget_and_a_page_says_its_refreshes_are_slowed(server):
    url, dashboards, budget = server
    budget.share, budget.slowest = 1e-4, 1.0  # a budget so small that any class is slowed to the slowest rate

    async def run():
        clients = [LightSession(url) for _ in range(3)]
        for client in clients:
            await client.open()
        for client in clients:
            await client.press()
        await until(lambda: budget.sessions == 3 and all(d.model.iteration > 200 for d in dashboards[-3:]))
        await asyncio.sleep(1.5)  # a status refresh after all three train
        start, counts = time.monotonic(), [client.patches for client in clients]
        await asyncio.sleep(3.0)  # measured: 3–4 patches each (1.0–1.3 a second); every tick would be ≈ 18
        rates = [(client.patches - n) / (time.monotonic() - start) for client, n in zip(clients, counts)]
        for client in clients:
            await client.close()
        return rates

    rates = asyncio.run(run())
    # 1 s apart (the slowest rate), where 0.17 s would be every tick: a surface frame or a status line may add one
    assert all(rate < 2.5 for rate in rates), rates
    assert all(rate > 0 for rate in rates), rates  # … and none left out
    status = dashboards[-1].train.status.value
    assert "Refreshes slowed to 1.0 a second: 3 sessions are training" in status


def test_a_light_row_runs_while_an_event_loop_runs_in_the_calling_thread(server):
    """`loadtest --clients light chromium`: Playwright's sync API keeps an event loop running in the calling thread
    for the Chromium rows, and the light rows of the same run must still run (they once failed at once with
    "asyncio.run() cannot be called from a running event loop")."""
    url, dashboards, _ = server

    async def under_a_running_loop():  # as under `sync_playwright()`: the light row is called synchronously here
        return run_light(url, static_file(url), os.getpid(), 1, 2.0, 10.0)

    row = asyncio.run(under_a_running_loop())
    assert row["clients"] == "light" and row["sessions"] == 1
    assert row["errors"] == 0, row["error texts"]
    assert row["refreshes/s median"] > 0 and max(d.model.iteration for d in dashboards) > 0  # (the last: the newcomer)
