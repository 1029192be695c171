"""Model: stepping, history events, explicit resets, data changes that fail cleanly, exact save/load."""

import numpy as np
import pytest

from explorer import Model
from explorer.data.datasets import DataError
from explorer.hyperparameters import KernelLearningError
from explorer.linalg import NumericalError
from explorer.model import RunFileError


@pytest.fixture
def model():
    return Model(dataset="moons", n_points=200, n_inducing=20, batch_size=20, eval_every=5, seed=3)


def test_step_adds_history_rows_and_fires_watchers(model):
    seen = []
    model.param.watch(lambda event: seen.append(event.new), "history_length")
    new = model.step(20)
    assert new == 5  # the row at iteration 0 and at 5, 10, 15, 20
    assert model.iteration == 20
    assert [row["iteration"] for row in model.history.rows] == [0, 5, 10, 15, 20]
    assert seen and seen[-1] == 5
    seconds = [row["seconds"] for row in model.history.rows]
    assert seconds == sorted(seconds)
    assert model.history.since(3) == list(model.history.rows)[-2:]
    csv_lines = model.history.to_csv().strip().splitlines()
    assert csv_lines[0].split(",") == [
        "iteration",
        "seconds",
        "elbo",
        "test_nll",
        "test_error",
        "rho",
        "lengthscale",
        "variance",
    ]
    assert len(csv_lines) == 6


def test_training_improves_test_nll(model):
    model.step(300)
    nll = [row["test_nll"] for row in model.history.rows]
    assert nll[-1] < 0.5 * nll[0]
    assert model.history.rows[-1]["test_error"] < 0.1


def test_structural_change_resets_and_says_so(model):
    model.step(10)
    model.n_inducing = 10
    assert model.iteration == 0
    assert model.engine.m == 10
    assert "Run reset (n_inducing 20 → 10)" in model.status
    assert model.history.total == 0


def test_failed_change_keeps_the_run(model):
    model.step(10)
    engine, rows = model.engine, model.history.total
    with pytest.raises(DataError, match="custom"):
        model.dataset = "custom"  # no custom data was given
    assert model.dataset == "moons"
    assert model.engine is engine and model.history.total == rows and model.iteration == 10
    assert "previous run is kept" in model.status


def test_bad_custom_data_leaves_state_intact(model):
    model.step(10)
    eta1 = model.engine.eta1.copy()
    with pytest.raises(DataError, match="class"):
        model.set_data(np.random.default_rng(0).standard_normal((30, 2)), np.ones(30), name="one_class.csv")
    with pytest.raises(DataError):
        model.set_data(np.full((30, 2), np.nan), np.arange(30) % 2, name="nan.csv")
    assert model.dataset == "moons" and model.iteration == 10
    np.testing.assert_array_equal(model.engine.eta1, eta1)


def test_custom_data_and_added_points(model):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 3))
    model.set_data(X, np.where(X[:, 0] > 0, "a", "b"), name="upload.csv", feature_names=["f", "g", "h"])
    assert model.dataset == "custom" and model.feature_names == ["f", "g", "h"]
    assert len(model.X_train) + len(model.X_test) == 80
    n = len(model.X_train)
    model.add_point([0.5, 0.5, 0.5], 1)
    assert len(model.X_train) == n + 1 and model.engine.n == n + 1
    model.step(10)
    with pytest.raises(DataError, match="3 finite coordinates"):
        model.add_point([0.5, 0.5], 1)


def test_failed_step_keeps_last_good_state(model):
    model.step(5)
    before = (model.engine.eta1.copy(), model.engine.eta2.copy(), model.iteration, model.history.total)
    # every minibatch now gives non-finite natural-gradient targets
    model.engine.K_inv = np.full_like(model.engine.K_inv, np.nan)
    with pytest.raises(NumericalError, match="iteration 6"):
        model.step(1)
    np.testing.assert_array_equal(model.engine.eta1, before[0])
    np.testing.assert_array_equal(model.engine.eta2, before[1])
    assert (model.iteration, model.history.total) == before[2:]
    assert "Step failed" in model.status


def test_save_load_continues_bit_identically(model, tmp_path):
    model.step(37)
    path = tmp_path / "run.npz"
    model.save(path)
    restored = Model.load(path)
    assert restored.iteration == 37 and restored.history.total == model.history.total
    model.step(23)
    restored.step(23)
    for name in ("eta1", "eta2", "mu"):
        assert np.array_equal(getattr(model.engine, name), getattr(restored.engine, name))
    assert model.engine.kernel == restored.engine.kernel
    assert model.history.rows[-1]["elbo"] == restored.history.rows[-1]["elbo"]
    # the file is plain arrays: it loads without pickle
    with np.load(path, allow_pickle=False) as archive:
        assert "__meta__" in archive.files
    assert restored.fallback is None  # a loaded run replaced no data set (the dashboard's page reads it)


def test_surface_shapes_and_range(model):
    model.step(100)
    surface = model.surface(resolution=30)
    assert surface["p"].shape == (30, 30) and surface["sd"].shape == (30, 30)
    assert 0.0 <= surface["p"].min() < 0.2 and 0.8 < surface["p"].max() <= 1.0
    local = model.last_local()
    assert local["c"].shape == (20,) and np.all((local["theta"] > 0) & (local["theta"] <= 0.25))


def test_method_default_step_gives_each_method_its_own_rule_and_an_explicit_rule_is_used_as_set():
    from explorer.schedules import Adaptive, Constant, RobbinsMonro

    xgpc = Model(dataset="banana-like", n_points=200, seed=0)
    assert xgpc.step_size == "method default"
    rates = [xgpc.engine.schedule.rate(np.zeros(1)) for _ in range(2)]
    assert isinstance(xgpc.engine.schedule, RobbinsMonro)
    assert rates == pytest.approx([11.0**-0.6, 12.0**-0.6])  # ρ_t = (t + 10)^−0.6
    natgrad = Model(dataset="banana-like", n_points=200, seed=0, method="svgp-natgrad")
    assert isinstance(natgrad.engine.schedule, Adaptive)
    natgrad.step_size, natgrad.rho = "constant", 0.01
    assert isinstance(natgrad.engine.schedule, Constant) and natgrad.engine.schedule.rho == 0.01


# ----- numerics and state at the boundary (issue 9) -------------------------------------------------------------------
def test_huge_added_point_is_refused_and_the_run_goes_on(model):
    model.step(5)
    n, eta1 = len(model.X_train), model.engine.eta1.copy()
    for x in ([1e160, 1e160], [1e101, 0.0], [np.nan, 0.0], ["a", 0.0]):
        with pytest.raises(DataError):
            model.add_point(x, 1)
    with pytest.raises(DataError, match="label"):
        model.add_point([0.0, 0.0], 2)
    assert len(model.X_train) == n and model.engine.n == n
    np.testing.assert_array_equal(model.engine.eta1, eta1)
    model.add_point([0.2, 0.1], 1.0)  # a float class index of value 1 is fine
    model.step(5)
    assert model.iteration == 10 and np.isfinite(model.history.rows[-1]["elbo"])


def test_custom_data_with_a_huge_value_is_refused_and_the_run_kept(model):
    model.step(5)
    X = np.random.default_rng(0).standard_normal((40, 2))
    X[3, 1] = 1e200
    with pytest.raises(DataError, match="row 3, column 1"):
        model.set_data(X, np.arange(40) % 2, name="huge.csv")
    assert model.dataset == "moons" and model.iteration == 5


@pytest.mark.parametrize("x", [[1e308, 1e308], [1e101, 0.0], [np.inf, 0.0]])
def test_predictions_at_huge_inputs_are_refused_never_nan(model, x):
    model.step(20)
    with pytest.raises(DataError, match="row 0, column 0"):
        model.predict_proba([x])
    with pytest.raises(DataError):
        model.predict_latent([x])


@pytest.mark.parametrize("k", [-5, -1, float("inf"), float("nan"), 2.5, "3", None, True])
def test_step_counts_must_be_whole_numbers(model, k):
    with pytest.raises(ValueError, match="whole number"):
        model.step(k)
    assert model.iteration == 0 and model.history.total == 0
    if k is not None:  # max_iter=None means no iteration limit
        with pytest.raises(ValueError, match="max_iter"):
            model.run(max_iter=k)


def test_run_refuses_a_negative_or_infinite_time_budget(model):
    for seconds in (-1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="seconds"):
            model.run(seconds=seconds)
    assert model.iteration == 0


def diverging(model):
    """Push the model's Adam learning rate beyond the Model's bound of 1: its next kernel step moves log ℓ and
    log σ² by ±1000, and exp overflows or underflows (a real divergence, no stand-in)."""
    model.engine.hyper_optimizer.learning_rate = 1e3
    return model


def test_diverged_kernel_learning_keeps_the_run_advises_and_continues_without_kernel_learning(model):
    model.step(10)
    model.step(model.engine.hyper_every - 1)  # the next iteration takes a kernel step
    start = model.iteration
    state = model.engine.state_dict()
    rows = model.history.total
    diverging(model)
    for _ in range(2):  # stuck while kernel learning is on: the same error again, nothing lost
        with pytest.raises(NumericalError, match="kernel learning diverged") as caught:
            model.step(5)
        assert isinstance(caught.value, KernelLearningError)
        assert model.iteration == start and model.history.total == rows
        np.testing.assert_array_equal(model.engine.eta2, state["eta2"])
        np.testing.assert_array_equal(model.engine.kernel.lengthscale, state["kernel"]["lengthscale"])
    assert "lower the kernel learning rate" in model.status and "kernel learning off" in model.status
    engine = model.engine
    model.continue_without_kernel_learning()
    assert model.engine is engine and model.iteration == start and model.history.total == rows  # the run is kept
    assert model.learn_hyperparameters is False and "Kernel learning is off" in model.status
    model.step(10)
    assert model.iteration == start + 10 and np.isfinite(model.history.rows[-1]["elbo"])
    np.testing.assert_array_equal(model.engine.kernel.lengthscale, state["kernel"]["lengthscale"])  # kernel now fixed


def test_kernel_learning_off_survives_save_and_load(model, tmp_path):
    model.step(10)
    model.continue_without_kernel_learning()
    model.save(tmp_path / "run.npz")
    restored = Model.load(tmp_path / "run.npz")
    assert restored.engine.hyper_optimizer is None and restored.learn_hyperparameters is False
    model.step(10)
    restored.step(10)
    assert np.array_equal(model.engine.eta2, restored.engine.eta2)


def test_a_run_collapsed_to_the_prior_says_so():
    # ℓ = 1e-3 in standardised units: every test point is ~100 lengthscales from every inducing point, so q(f*) is
    # the prior and p(y=1) = ½ everywhere — the collapse the status must name
    collapsed = Model(
        dataset="moons",
        n_points=200,
        n_inducing=20,
        batch_size=20,
        eval_every=5,
        seed=0,
        lengthscale=1e-3,
        learn_hyperparameters=False,
    )
    collapsed.step(10)
    p = collapsed.predict_proba(collapsed.X_test)
    assert np.max(np.abs(p - 0.5)) < 0.02  # independent check that it did collapse
    assert "Collapsed to the prior" in collapsed.status and "larger initial lengthscale" in collapsed.status
    healthy = Model(dataset="moons", n_points=200, n_inducing=20, batch_size=20, eval_every=5, seed=0)
    healthy.step(10)
    assert np.max(np.abs(healthy.predict_proba(healthy.X_test) - 0.5)) > 0.2
    assert "Collapsed" not in healthy.status


# ----- save / load ------------------------------------------------------------------------------------------------
def custom_model():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((90, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(90) > 0, "yes", "no")
    model = Model(n_inducing=15, batch_size=20, eval_every=5, seed=2)
    model.set_data(X, y, name="survey.csv", feature_names=["age", "income"])
    return model


def test_a_saved_custom_run_comes_back_exactly(tmp_path):
    model = custom_model()
    model.add_point([0.1, -0.2], 1)
    model.add_point([2.0, 2.0], 0)
    model.step(12)
    model.save(tmp_path / "custom.npz")
    restored = Model.load(tmp_path / "custom.npz")
    assert list(restored.classes) == ["no", "yes"] and restored.classes.dtype.kind == "U"
    assert restored.feature_names == ["age", "income"]
    np.testing.assert_array_equal(restored.X_train, model.X_train)  # added points kept as they were
    np.testing.assert_array_equal(restored.y_train[-2:], [1, 0])
    model.step(7)
    restored.step(7)
    assert np.array_equal(model.engine.eta2, restored.engine.eta2)
    model.reset()
    restored.reset()  # the same split as the original after a reset
    np.testing.assert_array_equal(restored.X_train, model.X_train)
    np.testing.assert_array_equal(restored.X_test, model.X_test)
    np.testing.assert_array_equal(restored.y_test, model.y_test)


def test_the_data_directory_is_the_loaders_not_the_files(tmp_path, monkeypatch):
    model = Model(dataset="moons", n_points=100, n_inducing=10, batch_size=20, seed=1)
    model.data_dir = str(tmp_path / "elsewhere")  # a data directory recorded at save time …
    model.save(tmp_path / "run.npz")
    restored = Model.load(tmp_path / "run.npz")
    assert restored.data_dir is None  # … does not choose where this session reads data from
    assert Model.load(tmp_path / "run.npz", data_dir=str(tmp_path)).data_dir == str(tmp_path)


def rewrite(path, target, change):
    """Copy the run file `path` to `target` with its JSON description and arrays passed through change(meta, arrays)."""
    import json

    with np.load(path, allow_pickle=False) as archive:
        arrays = {key: archive[key] for key in archive.files}
    meta = json.loads(str(arrays.pop("__meta__")))
    change(meta, arrays)
    with open(target, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    return target


def _set(mapping, key, value):
    mapping[key] = value


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda meta, arrays: meta["config"].pop("seed"), "missing \\['seed'\\]"),
        (lambda meta, arrays: _set(meta["config"], "n_inducing", 5), "n_inducing = 5"),
        (lambda meta, arrays: _set(meta["config"], "n_inducing", 40), "Z has 20 rows"),
        (lambda meta, arrays: _set(meta["config"], "dataset", "circles"), "not data set 'circles'"),
        (lambda meta, arrays: _set(meta["config"], "n_points", 300), "not data set 'moons'"),
        (lambda meta, arrays: _set(meta, "format", "something/9"), "format 'something/9'"),
        (lambda meta, arrays: _set(meta["config"], "batch_size", -3), "batch_size"),
        (lambda meta, arrays: arrays.pop("Z"), "array 'Z' is missing"),
        (lambda meta, arrays: _set(arrays, "y_train", arrays["y_train"] - 1), r"y_train row \d+ \(0-based\) holds -1"),
        (lambda meta, arrays: _set(arrays, "X_test", arrays["X_test"][:, :1]), "X_test must be"),
        (lambda meta, arrays: _set(meta, "feature_names", ["x1"]), "feature_names"),
        (lambda meta, arrays: meta["state"]["engine"].pop("eta1"), "eta1"),
        (lambda meta, arrays: _set(meta["state"]["engine"], "eta1", [1.0, 2.0]), "not a usable"),
        (lambda meta, arrays: _set(meta["scaler"], "scale", [0.0, 1.0]), "scale"),
    ],
)
def test_inconsistent_run_files_are_refused_by_name(model, tmp_path, change, problem):
    model.step(10)
    model.save(tmp_path / "good.npz")
    bad = rewrite(tmp_path / "good.npz", tmp_path / "bad.npz", change)
    with pytest.raises(RunFileError, match=problem) as caught:
        Model.load(bad)
    assert str(bad) in str(caught.value)


def test_custom_runs_need_their_custom_data(tmp_path):
    model = custom_model()
    model.save(tmp_path / "good.npz")
    for change, problem in [
        (lambda meta, arrays: _set(meta, "custom", None), "no custom data stored"),
        (lambda meta, arrays: _set(meta["custom"], "classes", ["a", "a"]), "give .a. to two classes"),
        (lambda meta, arrays: _set(arrays, "custom/X", arrays["custom/X"] + 1.0), "not data set 'custom'"),
    ]:
        with pytest.raises(RunFileError, match=problem):
            Model.load(rewrite(tmp_path / "good.npz", tmp_path / "bad.npz", change))


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "the file is empty"),
        (b"iteration,elbo\n1,2\n", "not an .npz archive"),
        (b"\x93NUMPY\x01\x00", "not an .npz archive"),
        ("truncated", "truncated or corrupted"),
        ("npy", "not an .npz archive"),
        ("pickled", "holds Python objects"),
        ("no meta", "no run description"),
        ("bad json", "not a usable"),
    ],
)
def test_damaged_or_foreign_files_raise_one_clear_error(model, tmp_path, content, problem):
    model.save(tmp_path / "good.npz")
    path = tmp_path / "bad.npz"
    if content == "truncated":
        path.write_bytes((tmp_path / "good.npz").read_bytes()[:-200])
    elif content == "npy":
        np.save(path.with_suffix(".npy"), np.arange(3))
        path = path.with_suffix(".npy")
    elif content == "pickled":
        np.savez(path, __meta__=np.array([{"format": "xgpc-explorer-run/2"}], dtype=object))
    elif content == "no meta":
        np.savez(path, X_train=np.zeros((3, 2)))
    elif content == "bad json":
        np.savez(path, __meta__=np.array("{not json"))
    else:
        path.write_bytes(content)
    with pytest.raises(RunFileError, match=problem):
        Model.load(path)
    with pytest.raises(RunFileError):
        Model.load(tmp_path / "no-such-file.npz")


def test_huge_counts_and_bad_surface_arguments_are_refused(model):
    for k in (10**9 + 1, 1e308, 2**70):
        with pytest.raises(ValueError, match="more than 1e\\+09"):
            model.step(k)
    for resolution in (1, 0, 1001, 2.5, None):
        with pytest.raises(ValueError, match="resolution"):
            model.surface(resolution=resolution)
    for features in ((0, 2), (-1, 0), ("a", 1), None, (0,)):
        with pytest.raises(ValueError, match="features"):
            model.surface(resolution=5, features=features)
    assert model.surface(resolution=2)["p"].shape == (2, 2)


def test_a_two_class_method_or_link_on_three_classes_is_refused_in_the_users_words():
    """EPGPC (probit, two classes) and the SVGPs' probit link on a three-class set: one sentence naming the method or
    link and the data set, not the engine's "the probit likelihood models 2 classes"; the run stays as it was."""
    model = Model(dataset="blobs-3", n_points=90, n_inducing=10)
    with pytest.raises(DataError, match=r"^EPGPC is two-class only; blobs-3 has 3 classes$"):
        model.method = "epgpc"
    assert model.method == "xgpc" and model.status.endswith("The previous run is kept.")
    model.method = "svgp-natgrad"
    with pytest.raises(DataError, match=r"^the probit link is two-class only; blobs-3 has 3 classes$"):
        model.link = "probit"
    assert model.link == "logit" and model.engine.n_classes == 3
    with pytest.raises(DataError, match=r"^EPGPC is two-class only; spiral-3 has 3 classes$"):
        Model(dataset="spiral-3", method="epgpc", n_points=90)
