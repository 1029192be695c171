"""Short binary runs of every method, from the `Model` and from `XGPClassifier`, give the histories recorded in
tests/reference/histories.json (written by tests/reference/make_histories.py before the run/settings redesign):
a refactoring that changes a number by accident fails here. Compared to 1e-10 relative, not bit for bit, so that a
different BLAS kernel on another CPU does not count as a change."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

REFERENCE = Path(__file__).resolve().parent / "reference"
_spec = importlib.util.spec_from_file_location("make_histories", REFERENCE / "make_histories.py")
make_histories = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_histories)
RECORDED = json.loads((REFERENCE / "histories.json").read_text())


def test_every_case_is_recorded():
    assert set(RECORDED) == set(make_histories.CASES)


@pytest.mark.parametrize("name", sorted(make_histories.CASES))
def test_a_run_gives_its_recorded_history(name):
    rows, recorded = make_histories.compute(name), RECORDED[name]
    assert [sorted(row) for row in rows] == [sorted(row) for row in recorded]
    for column in recorded[0]:
        np.testing.assert_allclose(
            [row[column] for row in rows],
            [row[column] for row in recorded],
            rtol=1e-10,
            atol=1e-12,
            equal_nan=True,
            err_msg=f"{name}: column {column}",
        )
