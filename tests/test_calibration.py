"""Expected calibration error and the reliability table against a hand-worked example; the reliability diagram."""

import holoviews as hv
import numpy as np
import pytest

from explorer.metrics import calibration_error, expected_calibration_error, reliability
from explorer.views import reliability_diagram

# confidence (top class), correct?: 0.9 yes (bin 9), 0.85 no (bin 8), 0.6 yes and 0.65 no (bin 6), 0.5 tie → class 0,
# yes (bin 5)
P = np.array([[0.9, 0.05, 0.05], [0.85, 0.1, 0.05], [0.3, 0.6, 0.1], [0.2, 0.15, 0.65], [0.5, 0.5, 0.0]])
Y = np.array([0, 1, 1, 0, 0])


def test_ece_against_a_hand_worked_example():
    # ten bins: (|1 − 0.9| + |0 − 0.85| + 2|0.5 − 0.625| + |1 − 0.5|)/5 = (0.1 + 0.85 + 0.25 + 0.5)/5 = 0.34
    assert expected_calibration_error(P, Y) == pytest.approx(0.34, abs=1e-12)
    # two bins: every confidence is ≥ 0.5, all in [0.5, 1]: |3/5 − 3.5/5| = 0.1
    assert expected_calibration_error(P, Y, bins=2) == pytest.approx(0.1, abs=1e-12)


def test_reliability_table_by_hand():
    table = reliability(P, Y)
    assert table["count"].tolist() == [0, 0, 0, 0, 0, 1, 2, 0, 1, 1]
    np.testing.assert_allclose(table["confidence"][[5, 6, 8, 9]], [0.5, 0.625, 0.85, 0.9])
    np.testing.assert_allclose(table["accuracy"][[5, 6, 8, 9]], [1.0, 0.5, 0.0, 1.0])
    assert np.isnan(table["accuracy"][0]) and table["lower"][6] == 0.6 and table["upper"][9] == 1.0
    as_json = {key: value.tolist() for key, value in table.items()}
    assert calibration_error(as_json) == pytest.approx(0.34, abs=1e-12)


def test_confidence_one_goes_in_the_last_bin_and_a_perfect_model_has_no_error():
    P1 = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert reliability(P1, np.array([0, 2]))["count"][-1] == 2
    assert expected_calibration_error(P1, np.array([0, 2])) == 0.0
    assert expected_calibration_error(P1, np.array([1, 2])) == pytest.approx(0.5)


def test_bad_bins_are_refused_by_name():
    with pytest.raises(ValueError, match="bins must be a whole number ≥ 1, got 0"):
        reliability(P, Y, bins=0)


def test_reliability_diagram_draws_each_method_and_the_diagonal():
    view = reliability_diagram({"a": reliability(P, Y), "b": reliability(P**2 / (P**2).sum(1, keepdims=True), Y)})
    assert isinstance(view, hv.Layout) and len(view) == 2
    labels = [element.label for element in view[0]]
    assert labels[0] == "perfect" and "a (ECE 0.340)" in labels
    with pytest.raises(ValueError, match="at least one method"):
        reliability_diagram({})


def test_bench_tables_pick_the_data_set_and_fold_and_name_what_is_there():
    from explorer.views.calibration import bench_tables

    table = {key: value.tolist() for key, value in reliability(P, Y).items()}
    records = [
        {"dataset": name, "fold": fold, "method": method, "reliability": table}
        for name in ("iris", "wine")
        for fold in (0, 1)
        for method in ("xgpc", "svgp-adam")
    ]
    payload = {"names": {"xgpc": "multi-class X-GPC"}, "records": records}
    dataset, tables = bench_tables(payload)
    assert dataset == "iris" and list(tables) == ["multi-class X-GPC", "svgp-adam"]
    assert bench_tables(payload, "wine", 2)[0] == "wine"
    with pytest.raises(ValueError, match=r"no reliability tables for data set 'digits', fold 1.*\('iris', 1\)"):
        bench_tables(payload, "digits")
