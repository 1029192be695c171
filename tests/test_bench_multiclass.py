"""bench multiclass: its grid of independent picklable tasks, every fit a Run on the shared split, the entrant registry,
the generated 0/1 set, the settle times and the table's notes."""

import math
import pickle

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from explorer.bench import grid, multiclass
from explorer.bench import protocol as P


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


def test_settle_times_and_the_subsample_note():
    def raced(method, nll):
        trace = {"seconds": [1.0, 2.0, 3.0], "test_nll": nll}
        return {"dataset": "a", "fold": 0, "method": method, "trace": trace, "test_nll": nll[-1]}

    records = [
        raced("xgpc", [0.50, 0.30, 0.302]),  # best 0.30: within 1% (≤ 0.303) from 2 s on
        raced("svgp-adam", [0.31, 0.304, 0.303]),  # first within at 3 s
        raced("svgp-natgrad", [0.30, 0.40, 0.35]),  # leaves the band: never settled
        {"dataset": "a", "fold": 0, "method": "sklearn-gpc", "test_nll": 0.2, "fit_rows": 5},  # no trace: not judged
    ]
    multiclass.settle_times(records)
    assert [r.get("settled_s") for r in records] == [2.0, 3.0, math.inf, None]
    for record in records:
        record.update(n=10, d=2, K=3, train_rows=8, test_error=0.1, ece=0.05, confidence_gap=-0.02, seconds=1.0)
    rows = multiclass.summarise(records)
    assert [row["note"].split(" (")[0] for row in rows] == ["", "", "", "fit on 5 of 8 training rows"]
    assert np.isnan(rows[-1]["settled 1% s"]) and rows[0]["settled 1% s"] == 2.0


@pytest.mark.parametrize("flag", [["--methods", "stick"], ["--datasets", "covertype"]])
def test_an_unknown_entrant_or_data_set_is_a_usage_error(flag, capsys):
    with pytest.raises(SystemExit):
        multiclass.parse_arguments(flag)
    assert "invalid choice" in capsys.readouterr().err
