"""Write tests/reference/histories.json: the histories (every column but wall-clock seconds) of short binary runs of
every method from two faces, the `Model` and `XGPClassifier`, on built-in generated sets.

They pin the numbers before the run/settings redesign (issue 21: "binary X-GPC, both SVGPs and EPGPC give
bit-identical histories before and after for the same settings and seed"); `tests/test_reference_histories.py`
reruns the same configurations and compares. Rewrite them only for a numerical change that is meant, and say why in
BENCHMARKS.md:  python tests/reference/make_histories.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

METHODS = ("xgpc", "svgp-natgrad", "svgp-adam", "epgpc")
HERE = Path(__file__).resolve().parent


def model_history(method: str, dataset: str) -> list[dict]:
    from explorer import Model

    model = Model(
        dataset=dataset,
        method=method,
        n_points=400,
        n_inducing=20,
        batch_size=50,
        seed=3,
        learn_hyperparameters=True,
        eval_every=10,
    )
    model.step(60)
    return model.history.rows


def estimator_history(method: str, dataset: str) -> list[dict]:
    from explorer import XGPClassifier
    from explorer.data import datasets

    X, y = datasets.load(dataset, n=300, seed=5)
    clf = XGPClassifier(
        method=method,
        n_inducing=15,
        batch_size=40,
        max_iter=60,
        early_stopping=False,
        options={"eval_every": 10},
        learn_hyperparameters=True,
        random_state=7,
    ).fit(X, y)
    return clf.history_


ESTIMATOR_METHODS = ("xgpc", "epgpc")  # the methods XGPClassifier offers today
CASES = {
    **{
        f"model/{method}/{dataset}": (model_history, method, dataset)
        for method in METHODS
        for dataset in ("moons", "banana-like")
    },
    **{
        f"estimator/{method}/{dataset}": (estimator_history, method, dataset)
        for method in ESTIMATOR_METHODS
        for dataset in ("moons", "banana-like")
    },
}


def without_time(rows: list[dict]) -> list[dict]:
    return [{k: float(v) for k, v in row.items() if k != "seconds"} for row in rows]


def compute(name: str) -> list[dict]:
    run, method, dataset = CASES[name]
    return without_time(run(method, dataset))


if __name__ == "__main__":
    histories = {name: compute(name) for name in CASES}
    (HERE / "histories.json").write_text(json.dumps(histories, indent=1) + "\n")
    print(f"wrote {len(histories)} histories, {sum(map(len, histories.values()))} rows, to {HERE / 'histories.json'}")
