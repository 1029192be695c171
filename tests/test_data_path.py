"""One way in for a user's data (issue 32 items 4-6): X goes down from a face through `Run` to the engine and is
standardised once, in `scaling`; labels are encoded once and the run holds the class names (`Run.classes`) every
face shows (the comparison study draws from a run's streams: test_compare's tiny_study)."""

import ast
import gc
import json
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import explorer
from explorer import XGPClassifier, methods
from explorer.dashboard.surface import SurfaceView
from explorer.data import datasets
from explorer.model import Model
from explorer.run import Run, RunFileError
from explorer.sources import DataSource
from explorer.validation import DataError, encode_labels

PACKAGE = Path(explorer.__file__).parent
FACES = [PACKAGE / "estimator.py", PACKAGE / "model.py"]


ENGINE_ROOMS = {cls.__module__ for classes in methods.ENGINES.values() for cls in classes} | {"explorer.engine"}


def _handovers(call) -> list[str]:
    """The explorer modules (rooms) X is handed to while `call()` runs, in order, consecutive repeats merged: a call
    into another module with X as an argument (a 2-D array of more than 30 rows, or a data source; the object a
    method is called on is not handed over: reading a source's rows is no hand-over). What an engine does with X
    inside (its own checks, its minibatches) is the engine's: calls made from an engine's code are not followed."""
    rooms = []

    def is_x(value) -> bool:
        return (isinstance(value, np.ndarray) and value.ndim == 2 and len(value) > 30) or isinstance(value, DataSource)

    def inside_an_engine(frame) -> bool:
        while frame is not None:
            if frame.f_globals.get("__name__") in ENGINE_ROOMS:
                return True
            frame = frame.f_back
        return False

    def profile(frame, event, arg):
        module = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        if event != "call" or not module.startswith("explorer") or module == caller or inside_an_engine(frame.f_back):
            return
        code = frame.f_code
        arguments = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        arguments = arguments[1:] if arguments[:1] in (("self",), ("cls",)) else arguments
        if any(is_x(frame.f_locals.get(name)) for name in arguments):
            room = module.removeprefix("explorer.")
            if not rooms or rooms[-1] != room:
                rooms.append(room)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return rooms


@pytest.mark.parametrize("early_stopping", [True, False], ids=["held-out", "all-rows"])
def test_x_goes_down_from_the_estimator_through_the_run_to_the_engine_and_never_back(early_stopping):
    """face → Run → (source, scaler, Z) → engine: no room is entered twice, the face hands X to the run once, and the
    rows are held as a source (checked there) before one place standardises them."""
    X, y = datasets.load("moons", n=600, seed=0)
    clf = XGPClassifier(n_inducing=10, max_iter=0, random_state=0, early_stopping=early_stopping)
    rooms = _handovers(lambda: clf.fit(X * 3 + 1, y))
    assert len(rooms) == len(set(rooms)), rooms  # no return to a room already left
    after_run = rooms[rooms.index("run") :]
    assert not [room for room in after_run if room == "estimator" or room.startswith("data.")], rooms
    engine = type(clf.engine_).__module__.removeprefix("explorer.")
    order = ["run", "scaling", "sources", "inputs", "inducing", "methods", engine, "training"]
    assert after_run == order, rooms


def test_rows_added_by_partial_fit_go_down_once():
    X, y = datasets.load("moons", n=600, seed=1)
    clf = XGPClassifier(n_inducing=10, batch_size=50, random_state=0).partial_fit(X[:300], y[:300])
    rooms = _handovers(lambda: clf.partial_fit(X[300:], y[300:]))
    engine = type(clf.engine_).__module__.removeprefix("explorer.")
    assert rooms == ["estimator", "run", "scaling", "sources", "inputs", engine], rooms


def test_partial_fit_holds_its_rows_once_in_your_units():
    """The run keeps the rows seen in one array in the user's units, the same array the engine reads (standardised
    as it reads a minibatch). Measured with tracemalloc, 10⁵ rows of 10 features in 100 calls: 1.12× the bytes of
    the rows and labels held after the calls, 2.12× when the run also kept them standardised."""
    rng = np.random.default_rng(0)
    n, d, calls = 20_000, 10, 20
    X = rng.standard_normal((n, d)) * 5.0 + 3.0
    y = (X[:, 0] + rng.standard_normal(n) > 3.0).astype(int)
    clf = XGPClassifier(n_inducing=10, batch_size=200, random_state=0)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for part in np.array_split(np.arange(n), calls):
            clf.partial_fit(X[part].copy(), y[part], classes=[0, 1])
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    run = clf.run_
    np.testing.assert_array_equal(run.X_train, X)  # every row, once, in the user's units
    assert run.engine.source.source.X is run.X_train  # the engine reads that array, standardised as it reads
    assert run.X_train.base is None and run.y_train.base is None  # its own arrays, no views of larger ones
    rows = X.nbytes + n * 8  # the features and the int64 labels
    assert held < 1.5 * rows, f"{held:,} bytes held for {rows:,} bytes of rows"  # twice the rows before
    index = np.arange(0, n, 97)
    expected = (X[index] - clf.scaler_.mean) / clf.scaler_.scale  # the first call's statistics
    np.testing.assert_array_equal(run.engine.source.batch(index)[0], expected)


@pytest.mark.parametrize("path", FACES, ids=lambda path: path.name)
def test_the_faces_do_not_standardise(path):
    """The estimator and the Model hand their inputs to `Run` in the user's units (predictions, added rows too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Attribute) and node.attr in ("transform", "inverse_transform"):
            names.add(node.attr)
    assert not {"explorer.scaling.standardised", "explorer.inputs.standardised", "transform", "inverse_transform"} & (
        names
    ), path.name


def test_a_run_predicts_and_adds_rows_in_the_units_it_was_given():
    X, y = datasets.load("moons", n=200, seed=1)
    X = X * [100.0, 0.01] + [5e3, -2.0]
    run = Run({"n_inducing": 8, "batch_size": 50, "seed": 0}, X[:150], y[:150], X[150:], y[150:])
    run.trainer.step(30)
    by_hand = (X[150:] - X[:150].mean(axis=0)) / X[:150].std(axis=0)
    np.testing.assert_allclose(run.predict_proba(X[150:]), run.engine.predict_proba(by_hand), rtol=1e-12)
    np.testing.assert_allclose(run.inducing_points, run.engine.Z * X[:150].std(axis=0) + X[:150].mean(axis=0))
    run.add_training_rows(X[150:160], y[150:160])
    assert run.engine.n == len(run.X_train) == len(run.y_train) == 160
    np.testing.assert_allclose(run.engine.source.batch(np.arange(150, 160))[0], by_hand[:10], rtol=1e-12)


def test_the_run_holds_the_class_names_every_face_shows(tmp_path):
    X, y = datasets.load("moons", n=120, seed=2)
    names = np.array(["no", "yes"])[y]
    clf = XGPClassifier(n_inducing=8, max_iter=20, random_state=0).fit(X, names)
    assert clf.classes_ is clf.run_.classes and clf.classes_.tolist() == ["no", "yes"]

    model = Model(dataset="moons", n_points=100, n_inducing=8)
    assert model.classes is model.current_run.classes and model.classes.tolist() == [-1, 1]
    model.set_data(X, names, name="answers")
    assert model.current_run.classes.tolist() == ["no", "yes"]
    model.save(tmp_path / "run.npz")
    assert Model.load(tmp_path / "run.npz").classes.tolist() == ["no", "yes"]


def test_a_run_file_keeps_its_class_names_and_refuses_bad_ones(tmp_path):
    X, y = datasets.load("moons", n=120, seed=3)
    run = Run({"n_inducing": 8, "seed": 0}, X[:90], y[:90], X[90:], y[90:], classes=np.array(["cat", "dog"]))
    run.save(tmp_path / "run.npz")
    config, meta, arrays = Run.read(tmp_path / "run.npz")
    assert Run.restore(config, arrays, meta).classes.tolist() == ["cat", "dog"]
    for bad in (["cat"], ["cat", "cat"], ["cat", 1], "cat dog"):
        meta_bad = dict(meta, classes=bad)
        with np.load(tmp_path / "run.npz") as stored:
            arrays_bad = {key: stored[key] for key in stored.files}
        arrays_bad["__meta__"] = np.array(json.dumps(meta_bad))
        np.savez(tmp_path / "bad.npz", **arrays_bad)
        with pytest.raises(RunFileError, match="class names"):
            Run.read(tmp_path / "bad.npz")


def test_one_encoder_maps_onto_given_classes_and_names_a_label_outside_them():
    y, classes = encode_labels(np.array(["b", "b", "d"]), np.array(["a", "b", "c", "d"]))
    assert y.tolist() == [1, 1, 3] and classes.tolist() == ["a", "b", "c", "d"]
    with pytest.raises(DataError, match=r"y: labels \['e'\] are outside the classes \['a', 'b'\]"):
        encode_labels(np.array(["a", "e"]), np.array(["a", "b"]), source="y")


def test_encoded_labels_with_their_classes_give_the_run_of_the_labels_themselves():
    """The upload's path: a reader encodes once and hands the indices with the class names; no decode/re-encode."""
    X, y = datasets.load("moons", n=150, seed=4)
    labels = np.array(["left", "right"])[y]
    runs = []
    for args in (dict(y=labels), dict(y=y, classes=np.array(["left", "right"]))):
        model = Model(dataset="moons", n_points=100, n_inducing=8, seed=0)
        model.set_data(X, name="answers", **args)
        model.step(20)
        runs.append(model)
    assert runs[0].classes.tolist() == runs[1].classes.tolist() == ["left", "right"]
    np.testing.assert_array_equal(runs[0].history.column("elbo"), runs[1].history.column("elbo"))
    before = runs[1].current_run
    with pytest.raises(DataError, match="class index 2, beyond the 2 classes"):
        runs[1].set_data(X, np.where(y == 1, 2, 0), name="answers", classes=np.array(["left", "right"]))
    assert runs[1].current_run is before


def test_the_binary_click_names_the_data_classes():
    assert SurfaceView._click_options(["no", "yes"]) == {"click adds class yes": 1, "click adds class no": 0}
