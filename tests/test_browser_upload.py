"""Uploads in the served dashboard, in headless Debian Chromium (Playwright): markup in a file's name, header, labels
or cells shows as text and runs nothing; a file over the limit is refused by the browser before it is sent and the
session carries on; one session's upload is read off the event loop, so another session's page loads meanwhile;
every upload gets feedback. The helpers and the Chromium fixtures are those of test_browser.py and conftest.py."""

import asyncio
import threading

import numpy as np
import pytest
from test_browser import LIVE_POINTS, TIMEOUT_MS, open_app, served, shoot, wait_server  # noqa: F401 (served: the in-process server fixture)

import explorer.dashboard.upload as uploads  # (the module; `upload` below drops a file)
from explorer.dashboard import app, changes
from explorer.dashboard.data import MAX_UPLOAD_BYTES

pytestmark = pytest.mark.browser
MARKUP = "<img src=x onerror=window.__x=1>"  # valid HTML without quotes, so it is a plain CSV field
QUOTED_MARKUP = '<img src=x onerror="window.__x=1">'


def csv_bytes(header, labels=("a", "b"), n=40, bad_cell=None, seed=0) -> bytes:
    """A two-feature CSV with classes `labels`; `bad_cell` replaces the first feature of the last row."""
    X = np.random.default_rng(seed).normal(size=(n, 2))
    rows = [[f"{a:.4f}", f"{b:.4f}", labels[int(a + b > 0)]] for a, b in X]
    if bad_cell is not None:
        rows[-1][0] = bad_cell
    return ("\n".join(",".join(row) for row in [header, *rows]) + "\n").encode()


def upload(page, name: str, content: bytes) -> None:
    """Choose a file in the Data tab's upload widget (FilePond's own file input, once FilePond shows its label or
    its last file). Only on the tab's first opening: when it is opened again, the browser shows the old view for a
    moment, and a file chosen there is lost."""
    page.locator(".filepond--drop-label:visible, .filepond--item:visible").first.wait_for(timeout=TIMEOUT_MS)
    page.locator("input.filepond--browser").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}]
    )


def notice(page, text: str):
    """The notification whose text contains `text` literally (waits for it)."""
    message = page.locator(".notyf__message", has_text=text).last
    message.wait_for(timeout=TIMEOUT_MS)
    return message


def assert_no_markup_ran(page) -> None:
    assert page.evaluate("() => window.__x") is None
    assert page.locator("img[src='x']").count() == 0  # Playwright's CSS locators pierce the shadow DOM


def label_box(page):
    """The label-column select: the one offering a column named 'label'."""
    return page.locator("select").filter(has=page.locator("option", has_text="label")).first


def test_markup_in_uploads_shows_as_text_and_runs_nothing(served, page):
    dashboard, errors = open_app(page, *served)
    page.locator(".bk-tab", has_text="Data").click()

    upload(page, "header.csv", csv_bytes(["x1", MARKUP, "label"]))  # a header name
    notice(page, "Loaded header.csv")
    wait_server(page, lambda: dashboard.model.feature_names == ["x1", MARKUP])
    page.get_by_text(f"x1, {MARKUP}").first.wait_for(timeout=TIMEOUT_MS)  # in the Data description
    assert label_box(page).locator("option").all_inner_texts() == ["x1", MARKUP, "label"]

    upload(page, "label.csv", csv_bytes(["x1", "x2", "label"], labels=(MARKUP, "plain")))  # a label value
    assert MARKUP in notice(page, "Loaded label.csv").inner_text()

    upload(page, "cell.csv", csv_bytes(["x1", "x2", "label"], bad_cell=MARKUP))  # an offending cell
    assert MARKUP in notice(page, "cell.csv").inner_text()

    upload(page, f"{QUOTED_MARKUP}.csv", csv_bytes(["x1", "x2", "label"], seed=1))  # the file name …
    notice(page, f"Loaded {QUOTED_MARKUP}.csv")
    page.wait_for_timeout(800)  # let every notification slide in (and any injected image fail to load)
    shoot(page, "upload-markup")
    assert_no_markup_ran(page)
    page.locator(".bk-tab", has_text="Train").click()  # … also in the run's status
    page.get_by_text(f"Loaded {QUOTED_MARKUP}.csv").first.wait_for(timeout=TIMEOUT_MS)
    assert_no_markup_ran(page)
    assert errors == []


def test_a_file_over_the_limit_is_refused_before_it_is_sent_and_the_session_carries_on(served, page):
    dashboard, errors = open_app(page, *served)
    dataset, n_train = dashboard.model.dataset, len(dashboard.model.y_train)
    page.locator(".bk-tab", has_text="Data").click()
    upload(page, "huge.csv", b"x1,x2,label\n" + b"0.5,0.25,a\n" * (12_000_000 // 11))  # 12 MB (issue 9 had 25 MB)
    page.locator(".filepond--file-status-main", has_text="File is too large").wait_for(timeout=TIMEOUT_MS)
    limit = page.locator(".filepond--file-status-sub").inner_text()
    assert limit == f"Maximum file size is {MAX_UPLOAD_BYTES // 10**6} MB"
    shoot(page, "upload-too-large")
    assert dashboard.model.dataset == dataset and len(dashboard.model.y_train) == n_train
    assert page.get_by_text("Server connection lost").count() == 0

    upload(page, "fine.csv", csv_bytes(["x1", "x2", "label"]))  # the session still takes files …
    notice(page, "Loaded fine.csv")
    wait_server(page, lambda: dashboard.model.dataset == "custom")
    page.locator(".bk-tab", has_text="Train").click()  # … and still trains
    page.get_by_role("button", name="Step").click()
    wait_server(page, lambda: dashboard.model.iteration == dashboard.model.eval_every)
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 2", timeout=TIMEOUT_MS)
    assert errors == []


def test_with_the_browsers_size_check_switched_off_the_server_refuses_the_file(served, page):
    """The browser's limit switched off from the console, as a visitor can (issue 19): the server counts the chunks,
    refuses the file in a notification, holds none of it, and the session carries on."""
    dashboard, errors = open_app(page, *served)
    dataset = dashboard.model.dataset
    page.locator(".bk-tab", has_text="Data").click()
    page.locator(".filepond--drop-label:visible").first.wait_for(timeout=TIMEOUT_MS)
    page.evaluate("""() => {
      const view = Bokeh.index.query_one(v => String(v.model.type).endsWith("FileDropper"));
      view._file_pond.setOptions({maxFileSize: null});
    }""")
    upload(page, "huge.csv", b"x1,x2,label\n" + b"0.5,0.25,a\n" * (12_000_000 // 11))
    notice(page, "huge.csv: announced in 13 chunks of 1 MB, more than the upload limit of 10 MB allows; refused.")
    page.locator(".filepond--file-status-main", has_text="Upload complete").wait_for(timeout=TIMEOUT_MS)
    assert dashboard.data.upload.held_bytes == 0 and dashboard.data.upload.value == {}
    assert dashboard.model.dataset == dataset
    upload(page, "fine.csv", csv_bytes(["x1", "x2", "label"]))  # the session still takes files
    notice(page, "Loaded fine.csv")
    assert errors == []


def test_an_upload_that_stops_is_dropped_by_the_served_page_and_the_user_told(served, page):
    """A first chunk arrives through the session's real event path, then nothing: the page's watchdog drops the
    unfinished upload after `stall_seconds` and says so, and stops watching."""
    from panel.models.file_dropper import UploadEvent

    dashboard, errors = open_app(page, *served)
    page.locator(".bk-tab", has_text="Data").click()
    page.locator(".filepond--drop-label:visible").first.wait_for(timeout=TIMEOUT_MS)
    widget = dashboard.data.upload
    widget.stall_seconds = 0.5
    model, _ = next(iter(widget._models.values()))
    event = UploadEvent(
        model, data={"name": "stalled.csv", "chunk": 1, "total_chunks": 3, "data": b"x1,x2,", "type": "text/csv"}
    )
    model.document.add_next_tick_callback(lambda: widget._server_event(model.document, event))
    notice(page, "stalled.csv: the upload stopped after 6 bytes and nothing came for 0.5 s; it was dropped.")
    wait_server(page, lambda: widget.held_bytes == 0 and widget._watchdog is None)
    assert errors == []


def test_one_sessions_upload_does_not_stall_another_sessions_page(served, browser, monkeypatch):
    """Session A's file is parsed by a parser that waits until session B's page has loaded (failsafe: the
    timeout). Were the parse on the server's event loop, B's page could not load before the parse ended."""
    url, dashboards = served
    real_parse, parsing, b_loaded, order = uploads.parse_in_process, threading.Event(), threading.Event(), []

    async def parse_waiting_for_b(*args):
        parsing.set()
        await asyncio.to_thread(b_loaded.wait, TIMEOUT_MS / 1000)
        order.append("parse done")
        return await real_parse(*args)

    monkeypatch.setattr(uploads, "parse_in_process", parse_waiting_for_b)
    first, second = browser.new_context(), browser.new_context()
    try:
        page_a, page_b = first.new_page(), second.new_page()
        a, errors_a = open_app(page_a, url, dashboards)
        page_a.locator(".bk-tab", has_text="Data").click()
        big = csv_bytes(["x1", "x2", "label"], n=60_000)  # ≈ 1.4 MB: sent in chunks
        upload(page_a, "big.csv", big)
        wait_server(page_a, parsing.is_set)
        page_a.get_by_text("Reading big.csv").wait_for(timeout=TIMEOUT_MS)  # A sees progress

        b, errors_b = open_app(page_b, url, dashboards)
        order.append("B loaded")
        b_loaded.set()
        notice(page_a, "Loaded big.csv: 60000 rows")
        assert order == ["B loaded", "parse done"]
        assert a.model.dataset == "custom" and b.model.dataset != "custom"
        page_b.get_by_role("button", name="Step").click()
        wait_server(page_b, lambda: b.model.iteration == b.model.eval_every)
        assert errors_a == [] and errors_b == []
    finally:
        b_loaded.set()
        first.close()
        second.close()


def test_every_upload_gets_feedback_and_a_refused_file_offers_its_own_header(served, page, monkeypatch):
    """Every file gets a notice; a refused file leaves the data in use (good.csv) and offers its own columns in the
    label box, where another label column can be chosen (issue 31: 'x,y,species' could not be fixed there)."""
    notified, real_notify = [], app.notify
    for module in (app, changes):  # the Data tab's notices, and the uploads'
        monkeypatch.setattr(
            module, "notify", lambda message, kind="error": (notified.append(message), real_notify(message, kind))
        )
    dashboard, errors = open_app(page, *served)
    page.locator(".bk-tab", has_text="Data").click()
    good = csv_bytes(["u", "v", "label"], labels=("0", "1"))
    upload(page, "good.csv", good)
    assert "2 classes: 0, 1." in notice(page, "Loaded good.csv").inner_text()
    upload(page, "good.csv", good)  # the same file again
    wait_server(page, lambda: len(notified) >= 2)
    upload(page, "empty.csv", b"")
    notice(page, "empty.csv: the file is empty")
    upload(page, "other.csv", csv_bytes(["p", "q", "label"], bad_cell="oops"))
    notice(page, "other.csv: line")
    page.wait_for_timeout(500)
    expected = ["Loaded good.csv", "Loaded good.csv", "empty.csv: the file is empty", "other.csv: line"]
    assert [message[: len(start)] for message, start in zip(notified, expected)] == expected
    assert len(notified) == len(expected)
    assert label_box(page).locator("option").all_inner_texts() == ["p", "q", "label"]
    assert dashboard.data.label_column.options == ["p", "q", "label"] and dashboard.model.feature_names == ["u", "v"]
    assert dashboard.data.accepted.filename == "good.csv"
    assert errors == []


def test_panel_serve_has_the_same_upload_limit(panel_served, page):
    """`panel serve apps/explorer.py` as a user types it: the browser refuses a file over the limit, takes one under."""
    page.goto(panel_served)
    page.get_by_role("button", name="Play").wait_for(timeout=TIMEOUT_MS)
    page.locator(".bk-tab", has_text="Data").click()
    upload(page, "huge.csv", b"x1,x2,label\n" + b"0.5,0.25,a\n" * (12_000_000 // 11))
    page.locator(".filepond--file-status-main", has_text="File is too large").wait_for(timeout=TIMEOUT_MS)
    upload(page, "fine.csv", csv_bytes(["x1", "x2", "label"]))
    notice(page, "Loaded fine.csv")
