"""Model: stepping, history events, explicit resets, data changes that fail cleanly, exact save/load."""
import numpy as np
import pytest

from explorer import Model
from explorer.datasets import DataError
from explorer.linalg import NumericalError


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
    assert csv_lines[0].split(",") == ["iteration", "seconds", "elbo", "test_nll", "test_error", "rho",
                                       "lengthscale", "variance"]
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
    model.engine.X[:] = np.nan  # every minibatch now gives non-finite natural-gradient targets
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
    assert rates == pytest.approx([11.0 ** -0.6, 12.0 ** -0.6])  # ρ_t = (t + 10)^−0.6
    natgrad = Model(dataset="banana-like", n_points=200, seed=0, method="svgp-natgrad")
    assert isinstance(natgrad.engine.schedule, Adaptive)
    natgrad.step_size, natgrad.rho = "constant", 0.01
    assert isinstance(natgrad.engine.schedule, Constant) and natgrad.engine.schedule.rho == 0.01
