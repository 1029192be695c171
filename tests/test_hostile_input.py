"""Hostile and damaged input at the boundaries (issue 19 §2–§4): the upload widget keeps its limits on the server
and answers malformed chunk sequences in words; a shared link's settings are bounded; a damaged data file never
stops a Model from starting; memory-mapped training files, run files, kernel parameters, exports and the Gibbs cost
estimate check what they are given and name the file or parameter."""

import io
import os
import threading
import zipfile

import holoviews as hv
import numpy as np
import pytest
from panel.models.file_dropper import DeleteEvent, UploadEvent

from explorer import XGPClassifier, gibbs
from explorer.dashboard import controls
from explorer.dashboard.upload import MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES, LimitedFileDropper
from explorer.data.datasets import DataError
from explorer.data.sources import NpySource
from explorer.kernels import LENGTHSCALE_LIMITS, RBF, KernelParameterError, Matern32
from explorer.model import Model, RunFileError
from explorer.views import export

# ------------------------------------------------------------------------------------------------ upload chunks


class Browser:
    """Sends FileDropper messages as the browser's widget does (real Bokeh events on the widget's real model)."""

    def __init__(self, **params):
        self.reports = []
        self.widget = LimitedFileDropper(self.reports.append, **params)
        self.model = self.widget.get_root()

    def send(self, **data):
        self.widget._process_event(UploadEvent(self.model, data=data))

    def upload(self, name: str, content: bytes, chunks: range | None = None, chunk_bytes=UPLOAD_CHUNK_BYTES):
        """The chunks of `content` (all, or those numbered in `chunks`), as FileDropper's JavaScript cuts them."""
        total = -(-(len(content) + 1) // chunk_bytes)
        for k in chunks or range(1, total + 1):
            self.send(
                name=name,
                chunk=k,
                total_chunks=total,
                type="text/csv",
                data=content[(k - 1) * chunk_bytes : k * chunk_bytes],
            )


def test_a_file_in_chunks_arrives_whole_as_bytes():
    browser = Browser()
    content = b"x1,x2,label\n" + b"0.5,0.25,a\n" * 250_000  # 2.75 MB: three chunks
    browser.upload("fine.csv", content)
    assert browser.widget.value == {"fine.csv": content} and browser.reports == []
    assert browser.widget.held_bytes == 0


def test_an_upload_over_the_limit_is_dropped_as_it_arrives_and_said_once():
    """The browser's size check switched off: the chunks come anyway. Each chunk is counted before it is kept, so the
    server never holds more than the limit, and the rest of the file is dropped unread."""
    browser = Browser()
    content = b"0" * (MAX_UPLOAD_BYTES + 3 * UPLOAD_CHUNK_BYTES)
    total = -(-(len(content) + 1) // UPLOAD_CHUNK_BYTES)
    held = []
    for k in range(1, total + 1):  # as if announced in fewer chunks: the byte count alone must stop it
        browser.send(
            name="huge.csv",
            chunk=k,
            total_chunks=total,
            type="text/csv",
            data=content[(k - 1) * UPLOAD_CHUNK_BYTES : k * UPLOAD_CHUNK_BYTES],
        )
        held.append(browser.widget.held_bytes)
    assert max(held) <= MAX_UPLOAD_BYTES and held[-1] == 0
    assert browser.widget.value == {}
    assert len(browser.reports) == 1
    assert "huge.csv" in browser.reports[0] and "10 MB" in browser.reports[0]


def test_a_file_announced_beyond_the_limit_is_refused_at_its_first_chunk():
    browser = Browser()
    browser.upload("big.csv", b"0" * (29 * UPLOAD_CHUNK_BYTES), chunks=range(1, 4))
    assert browser.widget.held_bytes == 0 and browser.widget.value == {}
    assert browser.reports == [
        "big.csv: announced in 30 chunks of 1 MB, more than the upload limit of 10 MB allows; refused."
    ]


def test_uploads_that_stop_after_their_first_chunk_hold_at_most_one_chunk():
    """150 uploads that each send only their first 1 MB: a single-file widget keeps only the newest (the browser has
    replaced the others); a multiple-file widget at most `max_session_bytes`."""
    single = Browser()
    several = Browser(multiple=True)
    for k in range(150):
        for browser in (single, several):
            browser.upload(f"part-{k}.csv", b"1" * (5 * UPLOAD_CHUNK_BYTES), chunks=range(1, 2))
    assert single.widget.held_bytes == UPLOAD_CHUNK_BYTES
    assert several.widget.held_bytes <= several.widget.max_session_bytes
    assert any("unfinished uploads would hold more than 20 MB" in report for report in several.reports)


def test_a_stalled_upload_is_dropped_and_the_user_told():
    browser = Browser()
    browser.upload("slow.csv", b"1" * (3 * UPLOAD_CHUNK_BYTES), chunks=range(1, 2))
    assert browser.widget.drop_stalled() == []  # just arrived
    assert browser.widget.drop_stalled(now=1e12) == ["slow.csv"]
    assert browser.widget.held_bytes == 0
    assert "slow.csv: the upload stopped after 1 MB" in browser.reports[-1]


@pytest.mark.parametrize(
    "data, expected",
    [
        (
            {"name": "orphan.csv", "chunk": 2, "total_chunks": 3, "data": b"a", "type": "text/csv"},
            "orphan.csv: chunk 2 of 3 arrived without the chunks before it",
        ),
        (
            {"name": "text.csv", "chunk": 1, "total_chunks": 2, "data": "x1,x2", "type": "text/csv"},
            "text.csv: chunk 1 holds str instead of the file's bytes",
        ),
        (
            {"name": "odd.csv", "chunk": "1", "total_chunks": 2, "data": b"a", "type": "text/csv"},
            "odd.csv: an upload chunk numbered '1' of 2 is not a chunk of a file",
        ),
        (
            {"name": "zero.csv", "chunk": 0, "total_chunks": 0, "data": b"a", "type": "text/csv"},
            "zero.csv: an upload chunk numbered 0 of 0",
        ),
        ({"chunk": 1, "total_chunks": 1, "data": b"a", "type": "text/csv"}, "without a usable file name"),
        ({"name": ["a"], "chunk": 1, "total_chunks": 1, "data": b"a"}, "without a usable file name"),
        ({"name": "n" * 300, "chunk": 1, "total_chunks": 1, "data": b"a"}, "without a usable file name"),
    ],
)
def test_malformed_chunk_messages_are_answered_in_words(data, expected):
    browser = Browser()
    browser.send(**data)
    assert len(browser.reports) == 1 and expected in browser.reports[0], browser.reports
    assert browser.widget.value == {} and browser.widget.held_bytes == 0


def test_chunks_out_of_order_drop_the_upload_and_a_fresh_start_works():
    browser = Browser()
    content = b"1" * (3 * UPLOAD_CHUNK_BYTES)
    browser.upload("a.csv", content, chunks=range(1, 2))
    browser.upload("a.csv", content, chunks=range(3, 4))  # chunk 2 skipped
    assert browser.reports == [
        "a.csv: chunk 3 of 4 arrived where chunk 2 of 4 was due; the upload was dropped. Drop the file again."
    ]
    assert browser.widget.held_bytes == 0
    browser.upload("a.csv", content)  # dropped again: it arrives whole
    assert browser.widget.value == {"a.csv": content} and len(browser.reports) == 1


def test_removing_a_file_in_the_browser_frees_its_unfinished_upload():
    browser = Browser()
    browser.upload("gone.csv", b"1" * (3 * UPLOAD_CHUNK_BYTES), chunks=range(1, 3))
    browser.widget._process_event(DeleteEvent(browser.model, data={"name": "gone.csv"}))
    assert browser.widget.held_bytes == 0 and browser.reports == []


# ----------------------------------------------------------------------------------------------- a shared link


def test_a_link_with_many_settings_is_read_only_up_to_a_bound_and_says_so():
    model = Model(dataset="moons", n_points=100)
    search = "?" + "&".join(f"p{k}=1" for k in range(999)) + "&seed=3"
    changes, problems = controls.settings_from_query(search, model)
    assert changes == {}  # seed=3 lies beyond the bound: not read
    assert problems[0] == f"the link holds 1000 settings; only the first {controls.LINK_MOST_SETTINGS} were read"
    assert len(problems) == 1 + controls.LINK_MOST_SETTINGS
    changes, problems = controls.settings_from_query("?seed=3&seed=4", model)
    assert changes == {"seed": 4} and problems == ["seed is given 2 times in the link; the last value is used"]


# ------------------------------------------------------------------------------------------- damaged data files


@pytest.fixture
def damaged_banana(tmp_path, monkeypatch, paper_data):
    """$XGPC_DATA_DIR holding a truncated copy of the paper's banana.npz (its first 20,000 bytes)."""
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "banana.npz").write_bytes((paper_data / "banana.npz").read_bytes()[:20_000])
    monkeypatch.setenv("XGPC_DATA_DIR", str(folder))
    return folder / "banana.npz"


def test_a_model_falls_back_to_the_generated_set_naming_the_damaged_file(damaged_banana):
    with pytest.warns(UserWarning, match=f"{damaged_banana}: not a readable .npz archive"):
        model = Model()
    assert model.dataset == "banana-like" and model.iteration == 0
    assert str(damaged_banana) in model.fallback and model.status.startswith(model.fallback)
    with pytest.raises(DataError, match=f"{damaged_banana}: not a readable"):  # asked for by name: raised
        Model(dataset="banana")


def test_a_nan_cell_in_the_paper_file_also_falls_back(tmp_path, monkeypatch, paper_data):
    with np.load(paper_data / "banana.npz") as archive:
        X, y = archive["X"].copy(), archive["y"]
    X[17, 1] = np.nan
    np.savez(tmp_path / "banana.npz", X=X, y=y)
    monkeypatch.setenv("XGPC_DATA_DIR", str(tmp_path))
    with pytest.warns(
        UserWarning,
        match=r"banana.npz: column 1 \(0-based\) has a non-finite value nan \(first at "
        r"row index 17\)",
    ):
        model = Model()
    assert model.dataset == "banana-like"


# ---------------------------------------------------------------------------------------------------- NpySource


@pytest.fixture
def labels(tmp_path):
    path = tmp_path / "y.npy"
    np.save(path, np.where(np.arange(500) % 2, 1, 0))  # class indices
    return path


def _saved(tmp_path, name, array):
    path = tmp_path / name
    np.save(path, array)
    return path


@pytest.mark.parametrize(
    "make, problem",
    [
        (
            lambda t: _saved(t, "X.npy", np.where(np.arange(1000).reshape(500, 2) == 735, np.nan, 1.0)),
            r"X row 367, column 1 \(0-based\) holds nan",
        ),
        (
            lambda t: _saved(t, "X.npy", np.where(np.arange(1000).reshape(500, 2) == 8, 1e200, 1.0)),
            r"X row 4, column 0 \(0-based\) holds 1e\+200, which exceeds the limit",
        ),
        (lambda t: _saved(t, "X.npy", np.ones((500, 2)) + 1j), "holds complex128 values; it must hold real numbers"),
        (lambda t: _saved(t, "X.npy", np.full((500, 2), "a")), "holds <U1 values"),
        (lambda t: _saved(t, "X.npy", np.full((500, 2), None, dtype=object)), "Python objects"),
        (lambda t: (t / "X.csv").write_text("a,b\n1,2\n") and t / "X.csv", "not a .npy file"),
        (
            lambda t: (t / "X.npy").write_bytes(_npy_bytes(np.ones((500, 2)))[:3000]) and t / "X.npy",
            "shorter than its header promises",
        ),
        (lambda t: t, "is a directory, not a regular file"),
        (lambda t: t / "missing.npy", "cannot read the file"),
    ],
)
def test_npy_source_checks_x_and_names_the_file(tmp_path, labels, make, problem):
    X_path = make(tmp_path)
    with pytest.raises(DataError, match=problem) as caught:
        NpySource(X_path, labels)
    assert str(caught.value).startswith(str(X_path))


def _npy_bytes(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def test_npy_source_checks_large_maps_in_blocks_and_names_the_absolute_row(tmp_path, monkeypatch):
    monkeypatch.setattr(NpySource, "CHECK_BYTES", 8 * 2 * 100)  # blocks of 100 rows
    X = np.ones((500, 2))
    X[345, 1] = np.inf
    y = np.where(np.arange(500) % 2, 1.0, 0.0)
    y[420] = -1.0
    with pytest.raises(DataError, match=r"X \(block of rows from index 300\) row 45, column 1"):
        NpySource(_saved(tmp_path, "X.npy", X), _saved(tmp_path, "y.npy", y))
    X[345, 1] = 1.0
    with pytest.raises(DataError, match=r"y.npy: y row 420 \(0-based\) holds -1.0; labels must be class indices"):
        NpySource(_saved(tmp_path, "X.npy", X), _saved(tmp_path, "y.npy", y))


def test_npy_source_says_when_its_file_was_truncated_during_a_run(tmp_path, labels):
    X_path = _saved(tmp_path, "X.npy", np.ones((500, 2)))
    source = NpySource(X_path, labels)
    assert source.batch(np.arange(3))[0].shape == (3, 2)
    with open(X_path, "r+b") as handle:
        handle.truncate(1000)
    with pytest.raises(DataError, match=f"{X_path}: the file has become shorter than 8,128 bytes"):
        source.batch(np.arange(3))


# ------------------------------------------------------------------------------------------------- run files


def test_a_run_file_member_declaring_gigabytes_is_refused_from_its_header(tmp_path):
    """A 1 kB run file whose X_train header promises 2 GiB: refused before anything is read or allocated."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (2**28, 1)})
    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("__meta__.npy", _npy_bytes(np.array("{}")))
        archive.writestr("X_train.npy", header.getvalue() + b"\0" * 512)
    with pytest.raises(
        RunFileError,
        match=r"array 'X_train': shape \(268435456, 1\) of float64 would take "
        r"2,048 MiB, over the limit of 512 MiB",
    ):
        Model.load(path)


def test_a_named_pipe_is_refused_as_a_run_file_instead_of_blocking(tmp_path):
    pipe = tmp_path / "run.npz"
    os.mkfifo(pipe)
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(pytest.raises(RunFileError, Model.load, pipe)), daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive():  # release the blocked open() so the thread ends
        with open(pipe, "wb"):
            pass
    assert outcome and "is a pipe (FIFO), not a regular file" in str(outcome[0].value)


# ----------------------------------------------------------------------------------------- kernel parameters


def test_the_lengthscale_bound_is_where_squared_distances_stay_finite():
    """At ℓ = 1e-50 with features at ±1e100 (the feature limit) in 1,000 dimensions every covariance is finite: the
    squared distance is 1000·(2e150)² = 4e303 < 1.8e308, so K is σ² + γ on the diagonal and 0 off it (below 1e-300). Below the
    bound the constructor refuses, naming ℓ and the bound."""
    low, high = LENGTHSCALE_LIMITS
    X = np.array([np.full(1000, 1e100), np.full(1000, -1e100), np.zeros(1000)])
    for kernel in (RBF(low, 2.0, 1e-6), Matern32(low, 2.0, 1e-6)):
        np.testing.assert_allclose(kernel.gram(X), np.diag(np.full(3, 2.0 + 1e-6)), rtol=1e-15, atol=1e-300)
    for bad in (low / 10, 1e-300, high * 10):
        with pytest.raises(KernelParameterError, match=r"lengthscale must lie within \[1e-50, 1e\+100\]"):
            RBF(bad)
    X, y = np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2
    with pytest.raises(
        ValueError,
        match=r"options\['lengthscale'\]: lengthscale must be a finite number from 1e-50 to 1e\+100",
    ):
        XGPClassifier(options={"lengthscale": 1e-300}).fit(X, y)


@pytest.mark.parametrize("lengthscale", [1e-50, 1e-10])
def test_a_tiny_lengthscale_within_the_bound_trains(lengthscale):
    """With ℓ far below the spacing of the points every training point is its own inducing point and independent of
    the others (K ≈ σ²I): at each training point the fit leans to that point's own label, or stays at the prior ½
    where the re-standardised point differs from its inducing point by a rounding error (which is many ℓ away).
    (A point against itself once gave log k = log σ² + a cancellation error of ~1e4 at ℓ = 1e-10: exp of it inf.)"""
    X, y = np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2
    model = XGPClassifier(options={"lengthscale": lengthscale}, max_iter=5, learn_hyperparameters=False).fit(X, y)
    own_label = model.predict_proba(X)[np.arange(20), y]
    assert np.isfinite(own_label).all() and np.all(own_label >= 0.5 - 1e-12)
    assert np.sum(own_label > 0.55) >= 15


@pytest.mark.parametrize(
    "arguments, problem",
    [
        (("abc",), "kernel lengthscale must be a number, got str 'abc'"),
        ((np.array(["a", "b"]),), "kernel lengthscale must be real numbers"),
        ((True,), "kernel lengthscale must be a number, got bool"),
        ((1.0 + 2j,), "kernel lengthscale must be real numbers, got complex"),
        (([1.0, [2.0]],), "kernel lengthscale must be a number or an array of numbers"),
        (([[1.0]],), r"kernel lengthscale must be a number or a 1-D array, got shape \(1, 1\)"),
        ((1.0, "2"), "kernel variance must be a number, got str '2'"),
        ((1.0, np.ones(3)), r"kernel variance must be one number, got an array of shape \(3,\)"),
        ((1.0, 1.0, [1e-3, 1e-3]), r"kernel nugget must be one number, got an array of shape \(2,\)"),
        ((1.0, 1.0, None), "kernel nugget must be real numbers"),
    ],
)
def test_kernel_constructors_name_the_parameter_they_cannot_use(arguments, problem):
    with pytest.raises(KernelParameterError, match=problem):
        RBF(*arguments)


# ----------------------------------------------------------------------------------- exports, the Gibbs estimate


@pytest.mark.parametrize("view", [None, "decision surface", 3, {"a": 1}])
def test_export_save_says_when_it_is_not_given_a_view(tmp_path, view):
    with pytest.raises(TypeError, match="the view to export must be a HoloViews object"):
        export.save(view, tmp_path / "figure.png")
    assert not (tmp_path / "figure.png").exists()
    export.save(hv.Curve([1, 3, 2]), tmp_path / "figure.svg")  # a view is still drawn
    assert (tmp_path / "figure.svg").read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize(
    "arguments, problem",
    [
        ((-5,), "n must be a whole number ≥ 0, got -5"),
        ((2.5,), "n must be a whole number"),
        (("100",), "n must be a whole number"),
        ((0,), "n and repeats must be whole numbers ≥ 1"),
        ((10,), None),
        ((100_000,), r"three n×n matrices, 240.0 GB, over the limit of 2 GB"),
    ],
)
def test_the_gibbs_cost_estimate_checks_its_arguments(arguments, problem):
    if problem is None:
        assert gibbs.seconds_per_sweep_estimate(*arguments, repeats=1) > 0
        return
    with pytest.raises(ValueError, match=problem):
        gibbs.seconds_per_sweep_estimate(*arguments)


def test_a_page_that_cannot_be_built_says_why_instead_of_staying_blank(monkeypatch):
    """The last safety net of `serve_app`: any failure while building a session's page (here the Model's, injected
    as the out-of-memory a huge data set could cause) gives a page with the reason, shown as text."""
    import panel as pn

    from explorer.dashboard import app, serve

    def failing_model():
        raise MemoryError("cannot allocate 8 GiB for <X>")

    monkeypatch.setattr(app, "Model", failing_model)
    # serve_app's pn.extension sets these for the process; restored in reverse order, the notification area last
    # (restoring `notifications` makes a new one)
    monkeypatch.setattr(pn.state, "_notification", pn.state._notification)
    for setting in ("notifications", "exception_handler"):
        monkeypatch.setattr(pn.config, setting, getattr(pn.config, setting))
    served = serve.serve_app()
    assert isinstance(served, pn.Column)
    alert = served.objects[0]
    assert alert.alert_type == "danger"
    assert alert.object == r"**X-GPC Explorer could not start:** MemoryError\: cannot allocate 8 GiB for \<X\>"
