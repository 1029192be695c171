"""bench multiclass: its grid of independent picklable tasks, one real task, the settle times and the table's notes."""

import argparse
import math
import pickle

import numpy as np

from explorer.bench import multiclass


def arguments(**changes):
    values = dict(
        datasets=["iris", "wine"],
        methods=["xgpc", "sklearn-gpc"],
        folds=2,
        k=5,
        seed=0,
        generated_rows=1000,
        m=10,
        batch_size=50,
        seconds=0.5,
        eval_every=10,
        eval_points=20,
        gpc_rows=50,
        ovr_iterations=20,
        threads=1,
    )
    return argparse.Namespace(**{**values, **changes})


def test_the_grid_is_independent_picklable_tasks():
    grid = multiclass.tasks(arguments())
    assert len(grid) == 2 * 2 * 2
    assert {(t["dataset"], t["fold"], t["method"]) for t in grid} == {
        (d, f, m) for d in ("iris", "wine") for f in (0, 1) for m in ("xgpc", "sklearn-gpc")
    }
    assert pickle.loads(pickle.dumps((multiclass.run_task, grid))) == (multiclass.run_task, grid)


def test_a_task_reports_its_scores():
    task = multiclass.tasks(arguments(datasets=["iris"], methods=["svgp-natgrad"], folds=1))[0]
    record = multiclass.run_task(**task)
    assert record["K"] == 3 and record["train_rows"] == 120 and record["n"] == 150
    assert 0 <= record["test_error"] <= 1 and 0 <= record["ece"] <= 1 and record["test_nll"] > 0
    assert -1 < record["confidence_gap"] < 1
    assert record["seconds"] >= 0.5 and len(record["trace"]["test_nll"]) >= 1
    assert sum(record["reliability"]["count"]) == 30  # the final scores on every test row


def test_settle_times_and_the_subsample_note():
    def sliced(method, nll):
        trace = {"seconds": [1.0, 2.0, 3.0], "test_nll": nll}
        return {"dataset": "a", "fold": 0, "method": method, "trace": trace, "test_nll": nll[-1]}

    records = [
        sliced("xgpc", [0.50, 0.30, 0.302]),  # best 0.30: within 1% (≤ 0.303) from 2 s on
        sliced("svgp-adam", [0.31, 0.304, 0.303]),  # first within at 3 s
        sliced("svgp-natgrad", [0.30, 0.40, 0.35]),  # leaves the band: never settled
        {"dataset": "a", "fold": 0, "method": "sklearn-gpc", "test_nll": 0.6},
    ]
    multiclass.settle_times(records)
    assert [r.get("settled_s") for r in records] == [2.0, 3.0, math.inf, None]
    for record in records:
        record.update(n=10, d=2, K=3, train_rows=8, test_error=0.1, ece=0.05, confidence_gap=-0.02, seconds=1.0)
        record["status"] = "fitted"
    records[-1]["fit_rows"] = 5
    rows = multiclass.summarise(records)
    assert [row["note"] for row in rows] == ["", "", "", "fit on 5 of 8 training rows"]
    assert np.isnan(rows[-1]["settled 1% s"]) and rows[0]["settled 1% s"] == 2.0
