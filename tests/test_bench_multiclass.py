"""bench multiclass: its grid of independent picklable tasks, every fit a Run on the shared split, the entrant registry,
the generated 0/1 set, the settle times and the table's notes."""

import math
import pickle

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from explorer.bench import grid, multiclass
from explorer.bench import protocol as P
from explorer.kernels import make_kernel
from explorer.settings import SETTINGS
from explorer.xgpc import MultiLatentXGPC
from explorer.xgpc_stickbreaking import StickBreaking, stick_order


def arguments(*extra):
    return multiclass.parse_arguments(
        ["--datasets", "iris", "wine", "--folds", "2", "--m", "10", "--batch-size", "50", "--seconds", "0.5"]
        + ["--gpc-rows", "50", "--ovr-iterations", "20", *extra]
    )


def test_the_grid_is_a_race_per_fold_and_a_task_per_other_entrant_all_picklable():
    listed = multiclass.tasks(arguments("--methods", "xgpc", "svgp-natgrad", "ovr-xgpc", "sklearn-gpc"))
    assert [task.key for task in listed[:3]] == [
        ("iris", "fold 1", "race"),
        ("iris", "fold 1", "ovr-xgpc"),
        ("iris", "fold 1", "sklearn-gpc"),
    ]
    assert len(listed) == 2 * 2 * 3
    assert listed[0].args[2] == ["xgpc", "svgp-natgrad"]  # the raced entrants share one race
    assert all(isinstance(task, grid.Task) for task in listed)
    assert pickle.loads(pickle.dumps(listed))[0].args == listed[0].args


def test_a_new_entrant_is_one_line_of_the_registry(monkeypatch):
    entrant = multiclass.Entrant("X-GPC, constant ρ", options={"step_size": "constant", "rho": 0.5})
    monkeypatch.setitem(multiclass.ENTRANTS, "xgpc-constant", entrant)
    listed = multiclass.tasks(arguments("--methods", "xgpc", "xgpc-constant", "--folds", "1"))
    assert [task.args[2] for task in listed] == [["xgpc", "xgpc-constant"], ["xgpc", "xgpc-constant"]]


def test_a_race_fits_every_entrant_as_a_run_on_the_shared_split():
    settings = multiclass.settings_of(arguments())
    records = multiclass.race_task("iris", 0, ["xgpc", "svgp-natgrad"], settings)
    assert [r["method"] for r in records] == ["xgpc", "svgp-natgrad"]
    split = P.prepare_split(  # the protocol's split of the fold: 120 training rows, 12 of them validation
        "iris", *multiclass.load("iris"), *P.folds("iris", multiclass.load("iris")[1], 5, "clean", 0)[0], "clean",
        m=10, seed=0,
    )  # fmt: skip
    for record in records:
        assert (record["n"], record["K"], record["train_rows"]) == (150, 3, len(split.y_train)) == (150, 3, 108)
        assert 0 <= record["test_error"] <= 1 and 0 <= record["ece"] <= 1 and record["test_nll"] > 0
        assert record["seconds"] >= 0.5 and len(record["trace"]["test_nll"]) >= 2
        assert sum(record["reliability"]["count"]) == 30  # the final scores on every test row
    again = multiclass.ovr_task("iris", 0, "ovr-xgpc", settings)
    once = multiclass.ovr_task("iris", 0, "ovr-xgpc", settings)
    assert again["test_nll"] == once["test_nll"] and again["iterations"] == 20  # iteration-budgeted: the same fit


def test_the_generated_binary_set_has_180_zero_one_features_and_a_learnable_signal():
    X, y = multiclass.load("binary")
    assert X.shape == (3000, 180) and set(np.unique(X)) == {0.0, 1.0}
    assert np.bincount(y).tolist() == [1000, 1000, 1000]
    accuracy = LogisticRegression(max_iter=2000).fit(X[:2000], y[:2000]).score(X[2000:], y[2000:])
    assert 0.7 < accuracy < 0.999  # far above chance (1/3), not trivially separable


def test_reach_times_against_the_best_softmax_svgp_and_the_subsample_note():
    def raced(method, nll, fold=0):
        trace = {"seconds": [1.0, 2.0, 4.0], "test_nll": nll}
        return {"dataset": "a", "fold": fold, "method": method, "trace": trace, "test_nll": nll[-1], "ece": 0.05}

    records = [
        raced("svgp-adam", [0.50, 0.40, 0.30]),  # best SVGP final 0.30: the bar is 1.1 × 0.30 = 0.33, reached at 4 s
        raced("svgp-natgrad", [0.45, 0.32, 0.31]),  # reaches 0.33 first, at 2 s: the SVGP time
        raced("xgpc-stick", [0.32, 0.50, 0.50]),  # first within at 1 s (then leaves): 2 s / 1 s = 2× sooner
        raced("xgpc", [0.40, 0.35, 0.34]),  # never at or below 0.33
        {"dataset": "a", "fold": 0, "method": "sklearn-gpc", "test_nll": 0.2, "fit_rows": 5},  # no trace: not judged
        raced("xgpc", [0.2, 0.2, 0.2], fold=1),  # a fold without an SVGP entrant: no bar
    ]
    multiclass.reach_times(records)
    assert [r.get("reached_s") for r in records] == [4.0, 2.0, 1.0, math.inf, None, None]
    assert records[0]["sooner"] == 0.5 and records[1]["sooner"] == 1.0 and records[2]["sooner"] == 2.0
    assert math.isnan(records[3]["sooner"]) and "sooner" not in records[5]
    assert records[2]["nll_ratio"] == pytest.approx(0.50 / 0.30) and records[2]["ece_ratio"] == 1.0
    for record in records[:5]:
        record.update(n=10, d=2, K=3, train_rows=8, test_error=0.1, ece=0.05, confidence_gap=-0.02, seconds=1.0)
    rows = multiclass.summarise(records[:5])
    assert [row["note"].split(" (")[0] for row in rows] == ["", "", "", "", "fit on 5 of 8 training rows"]
    assert [row["≤ 1.1× SVGP s"] for row in rows[:4]] == [4.0, 2.0, 1.0, math.inf]
    assert rows[2]["× sooner than SVGP"] == 2.0 and np.isnan(rows[-1]["≤ 1.1× SVGP s"])


@pytest.mark.parametrize("family", ["stick-breaking", "joint"])
def test_the_cost_table_times_a_family_against_a_floor_of_its_own_latent_functions(family):
    row = multiclass.cost_task(4, 300, {"m": 10, "batch_size": 30}, hyper_every=5, family=family)
    assert row["family"] == family and row["K"] == 4
    assert row["latent functions"] == {"stick-breaking": 3, "joint": 4}[family]  # K − 1 logits, K classes
    assert row["ratio"] == pytest.approx(row["step_ms"] / row["floor_ms"]) and row["ratio"] > 0


def test_the_cost_and_share_tables_measure_the_default_family_first(monkeypatch):
    assert multiclass.default_family() == SETTINGS["multiclass_family"].default
    assert multiclass.cost_families()[0] == multiclass.default_family()
    assert sorted(multiclass.cost_families()) == ["joint", "stick-breaking"]
    monkeypatch.setattr(multiclass, "default_family", lambda: "factorised")  # whichever the settings table names
    assert multiclass.cost_families() == ["factorised", "stick-breaking", "joint"]
    assert multiclass.cost_task(3, 200, {"m": 10, "batch_size": 20})["family"] == "factorised"


@pytest.mark.parametrize("flag", [["--methods", "stick"], ["--datasets", "covertype"]])
def test_an_unknown_entrant_or_data_set_is_a_usage_error(flag, capsys):
    with pytest.raises(SystemExit):
        multiclass.parse_arguments(flag)
    assert "invalid choice" in capsys.readouterr().err


def test_a_class_order_entrant_is_the_engine_with_that_order_on_relabelled_classes():
    # entrant_split relabels the classes by stick position instead of passing class_order to the engine: the same fit,
    # its probability columns permuted (checked against the engine given the order itself)
    X, y = multiclass.load(multiclass.IMBALANCED)
    X, y = X[:400], y[:400]
    split = P.Split(X, y, X[:50], y[:50], X[:50], y[:50], X[:12], make_kernel("rbf", 2.0, 1.0, 1e-4))
    start, options = multiclass.entrant_split(split, {"class_order": "frequency", "hyper_every": 1})
    assert options == {"hyper_every": 1}
    order = stick_order(np.bincount(y, minlength=5), "frequency")
    assert order[0] == 4 and [start.y_train[y == k][0] for k in order] == [0, 1, 2, 3, 4]

    def fit(labels, order):
        stick = StickBreaking(5, order)
        engine = MultiLatentXGPC(
            X, labels, X[:12], split.kernel, likelihood=stick, batch_size=50, rng=np.random.default_rng(3)
        )
        engine.step(20)
        return engine.predict_proba(X[:50])

    direct, relabelled = fit(y, order), fit(start.y_train, None)
    np.testing.assert_allclose(relabelled, direct[:, list(order)], rtol=1e-9, atol=1e-12)
    ard, rest = multiclass.entrant_split(split, {"ard": True, "variance": 4.0})
    assert rest == {} and ard.kernel.lengthscale.tolist() == [2.0] * X.shape[1] and ard.kernel.variance == 4.0
    np.testing.assert_array_equal(ard.y_train, y)  # no order asked: the labels as they were


@pytest.mark.parametrize(
    "short, read, expected",
    [
        ("stick-m-100", lambda engine: len(engine.Z), 100),
        ("stick-batch-50", lambda engine: engine.batch_size, 50),
        ("stick-batch-200", lambda engine: engine.batch_size, 200),
        ("stick-rate-0.2", lambda engine: engine.hyper_optimizer.learning_rate, 0.2),
        ("stick-variance-16", lambda engine: engine.kernel.variance, 16.0),
        ("stick-variance-0.25", lambda engine: engine.kernel.variance, 0.25),
        ("stick-l0-sqrt-half-d", lambda engine: engine.kernel.mean_lengthscale, math.sqrt(64 / 2)),
        ("stick-l0-2-sqrt-d", lambda engine: engine.kernel.mean_lengthscale, 2 * math.sqrt(64)),
    ],
)
def test_a_lever_entrant_builds_the_stick_run_with_the_setting_it_names(short, read, expected):
    # digits (d 64) at m 50, s 100, ℓ₀ √64, σ₀² 1, kernel rate 0.1: each lever entrant differs in the one it names, also
    # where the shared settings name another (the entrant's batch size and m over --batch-size and --m)
    settings = multiclass.settings_of(arguments("--m", "50", "--batch-size", "100"))
    split, _ = multiclass.fold_split("digits", 0, settings)

    def engine(name):
        start, options = multiclass.entrant_start("digits", 0, name, settings, split)
        return P.task_trainer(multiclass.ENTRANTS[name].method, start, 0, settings, options).engine

    lever, default = engine(short), engine("xgpc-stick")
    assert lever.family == default.family == "stick-breaking"
    assert read(lever) == pytest.approx(expected, rel=1e-12) and read(default) != pytest.approx(expected, rel=1e-3)
