"""The paper-reproduction benchmarks end to end on tiny runs, their protocols' data, the time-to-quality readings, and
a non-RBF kernel through them."""

import json

import numpy as np
import pytest
import sklearn.datasets

from explorer import methods
from explorer.__main__ import main as command_line
from explorer.bench import bound, gibbs, inducing, protocol, race, scale, steps, table1
from explorer.dashboard import race_report
from explorer.data import datasets, registry
from explorer.kernels import KERNELS
from explorer.studies.race import NAMES


def test_paper_protocol_reproduces_the_papers_data_set_sizes():
    """Table 1 lists aXa with n = 36,974 and wXa with n = 34,780: the de-duplicated LIBSVM files."""
    assert len(protocol.load_dataset("a9a", "paper")[1]) == 36_974
    assert len(protocol.load_dataset("w8a", "paper")[1]) == 34_780
    assert len(protocol.load_dataset("a9a", "clean")[1]) == 48_842


def test_paper_protocol_uses_the_authors_standardised_file_and_contiguous_folds():
    X, y = protocol.load_dataset("german", "paper")
    np.testing.assert_allclose(X.mean(0), 0.0, atol=1e-6)  # german_agp is z-scored upstream
    np.testing.assert_allclose(X.std(0, ddof=1), 1.0, atol=1e-3)
    train, test = protocol.folds("german", y, 10, "paper", seed=0)[3]
    np.testing.assert_array_equal(test, np.arange(300, 400))
    split = protocol.prepare_split("german", X, y, train, test, "paper", m=20, seed=0)
    np.testing.assert_array_equal(split.X_test, X[300:400])  # not re-standardised
    assert split.kernel.nugget == 1.0 and split.Z.shape == (20, 20)


def test_paper_protocol_shuffles_w8a_whose_file_lists_its_positives_first():
    X, y = protocol.load_dataset("w8a", "paper")
    in_file_order = [(y[test] > 0).mean() for _, test in protocol.folds("a9a", y, 10, "paper", seed=0)]
    assert max(in_file_order) > 0.25 and min(in_file_order) == 0.0
    rates = [(y[test] > 0).mean() for _, test in protocol.folds("w8a", y, 10, "paper", seed=0)]
    assert max(rates) - min(rates) < 0.02


def test_clean_protocol_keeps_a_validation_part_out_of_training():
    X, y = protocol.load_dataset("diabetes", "clean")
    train, test = protocol.folds("diabetes", y, 10, "clean", seed=0)[0]
    split = protocol.prepare_split("diabetes", X, y, train, test, "clean", m=10, seed=0)
    assert len(split.y_train) + len(split.y_monitor) == len(train) and len(split.y_test) == len(test)
    np.testing.assert_allclose(split.X_train.mean(0), 0.0, atol=0.05)  # standardised with the full training fold


def test_tiny_table1_run_writes_a_well_formed_table_and_json(tmp_path, capsys):
    path = tmp_path / "table1.json"
    code = table1.main(
        [
            "--datasets",
            "diabetes",
            "--folds",
            "2",
            "--seconds",
            "0.5",
            "--m",
            "20",
            "--no-write-md",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    out = capsys.readouterr()
    payload = json.loads(path.read_text())
    fits = payload["fits"]
    assert sorted((f["fold"], f["method"]) for f in fits) == sorted(
        (fold, method) for fold in range(2) for method in protocol.METHOD_NAMES
    )
    for fit in fits:
        assert 0.0 <= fit["error"] <= 0.5  # better than or equal to chance on a 35/65 data set
        assert 0.0 < fit["nll"] < np.log(2.0) + 0.05
        assert 0.0 < fit["seconds"] < 5.0 and fit["iterations"] > 0
        assert len(fit["trace"]["seconds"]) == len(fit["trace"]["test_nll"]) > 0
    rows = payload["summary"]
    assert [r["method"] for r in rows] == list(protocol.METHOD_NAMES)
    xgpc = rows[0]
    errors = [f["error"] for f in fits if f["method"] == "xgpc"]
    assert xgpc["error"][0] == pytest.approx(np.mean(errors))
    assert xgpc["error"][1] == pytest.approx(np.std(errors, ddof=1))
    assert xgpc["paper"]["nll"] == [0.47, 0.11]
    table = [line for line in out.out.splitlines() if line.startswith("|")]
    assert len(table) == 2 + len(protocol.METHOD_NAMES) and all(
        line.count("|") == table[0].count("|") for line in table
    )
    assert "0.47 ± 0.11" in table[2]  # the paper's X-GPC NLL beside ours
    epgpc = next(line for line in table if line.split("|")[2].strip().startswith("epgpc"))
    assert "0.48 ± 0.09" in epgpc and "8 ± 0.45" in epgpc  # the paper's EPGPC NLL and time beside ours
    assert "%]" in out.err and "left" in out.err  # the progress line


def test_tiny_steps_run_races_the_chosen_rules_on_one_split(tmp_path, capsys):
    path = tmp_path / "steps.json"
    code = steps.main(
        [
            "--datasets",
            "diabetes",
            "--seconds",
            "0.5",
            "--entrants",
            "rm-10-0.6",
            "adaptive",
            "svgp-natgrad",
            "--no-write-md",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    race = json.loads(path.read_text())["races"]["diabetes"]
    entrants = race["entrants"]
    assert [label.split()[0] for label in entrants] == ["xgpc", "xgpc", "svgp-natgrad"]
    finals = [r["final_nll"] for r in entrants.values()]
    assert race["best_nll"] == min(finals) and all(0.0 < f < np.log(2.0) + 0.05 for f in finals)
    for r in entrants.values():
        nll = np.asarray(r["trace"]["test_nll"])
        assert r["iterations"] > 0 and len(nll) > 0
        if np.isfinite(r["settled_0.01"]):  # settled: every evaluation from then on is inside the 1% band
            after = np.asarray(r["trace"]["seconds"]) >= r["settled_0.01"]
            assert np.all(nll[after] <= race["best_nll"] + 0.01 * (np.log(2.0) - race["best_nll"]))
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    assert len(table) == 2 + 3 and sum("**best**" in line for line in table) == 1


def test_benches_offer_every_registered_method_by_default():
    assert protocol.METHOD_NAMES == tuple(methods.METHODS) and "epgpc" in protocol.METHOD_NAMES
    assert protocol.METHOD_NAMES[0] == "xgpc"  # the speed-ups are X-GPC's
    for bench in (table1, race, inducing):
        assert bench.parse_arguments([]).methods == list(methods.METHODS)
    assert scale.parse_arguments(["--method", "epgpc"]).method == "epgpc"


def test_tiny_race_writes_speedups_json_and_a_self_contained_plot(tmp_path, capsys):
    path, html = tmp_path / "race.json", tmp_path / "race.html"
    code = race.main(["--dataset", "diabetes", "--seconds", "0.5", "--no-write-md", "--json", str(path)])
    assert code == 0 and not html.exists()  # the benchmark writes numbers; the dashboard package draws them
    out = capsys.readouterr().out
    assert "SVGPC 150 ± 5.1 s" in out and "EPGPC 8 ± 0.45 s" in out  # the paper's times for Diabetes
    assert race_report.main([str(path), str(html)]) == 0
    fold = json.loads(path.read_text())["folds"][0]
    assert list(fold["methods"]) == list(protocol.METHOD_NAMES)
    assert fold["best_nll"] == min(r["final_nll"] for r in fold["methods"].values())
    assert set(fold["speedups"]) == set(protocol.METHOD_NAMES) - {"xgpc"}  # X-GPC against each baseline
    for method in fold["speedups"]:
        gain = fold["speedups"][method]
        assert gain["final_nll_gap"] == pytest.approx(
            fold["methods"]["xgpc"]["final_nll"] - fold["methods"][method]["final_nll"]
        )
    page = html.read_text()
    assert "<html" in page.lower() and "&amp;lt;td&amp;gt;X-GPC&amp;lt;/td&amp;gt;" in page and "Bokeh" in page
    assert all(NAMES[method] in page for method in protocol.METHOD_NAMES)  # the legend names each


def _data_home_only(tmp_path, monkeypatch):
    """The project's data home (data/, where `data fetch` writes) at an empty tmp directory, nothing beside the
    checkout, an empty cache and OpenML unreachable: the data a fresh clone has."""

    def offline(*args, **kwargs):
        raise OSError("Temporary failure in name resolution")

    home = tmp_path / "data-home"
    home.mkdir()
    monkeypatch.setattr(registry, "PROJECT_DATA_DIR", home)
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", tmp_path / "no-shared")
    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("XGPC_DATA_DIR", raising=False)
    monkeypatch.setattr(sklearn.datasets, "fetch_openml", offline)
    return home


def test_a_benchmark_finds_a_set_in_the_data_home(tmp_path, monkeypatch):
    """`data fetch` writes into the project's data/; the benchmarks read from there as the loader does (issue 20.2)."""
    home = _data_home_only(tmp_path, monkeypatch)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    np.savez(home / "diabetes.npz", X=X, y=np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1, -1))
    path = tmp_path / "race.json"
    with pytest.warns(datasets.ChecksumWarning):
        code = command_line(
            [
                "bench",
                "race",
                "--dataset",
                "diabetes",
                "--seconds",
                "0.2",
                "--m",
                "5",
                "--batch-size",
                "20",
                "--eval-points",
                "100",  # the setting's least (explorer.settings)
                "--no-write-md",
                "--json",
                str(path),
            ]
        )
    assert code == 0 and json.loads(path.read_text())["folds"][0]["methods"]
    with pytest.warns(datasets.ChecksumWarning):
        X_read, _ = protocol.load_dataset("diabetes", "clean")
    np.testing.assert_array_equal(X_read, X)  # the generated file, not a copy found elsewhere


def test_a_missing_set_is_one_line_saying_how_to_get_it(tmp_path, monkeypatch, capsys):
    _data_home_only(tmp_path, monkeypatch)
    with pytest.raises(SystemExit) as exit_:
        command_line(["bench", "race", "--dataset", "german", "--seconds", "0.2", "--no-write-md"])
    message = str(exit_.value.code)
    assert message.startswith("python -m explorer bench race: ") and "\n" not in message
    assert "german.npz is in none of" in message and "xgpc-explorer data fetch german" in message
    # table1 checks every set before training: the paper protocol's Diabetes file has no OpenML copy
    with pytest.raises(SystemExit) as exit_:
        command_line(["bench", "table1", "--datasets", "diabetes", "german", "--no-write-md"])
    message = str(exit_.value.code)
    assert "\n" not in message and "diabetis_agp.npz" in message and "german" not in message.split("diabetis")[0]


def test_quick_table1_on_a_fresh_clone_leaves_out_what_it_cannot_get(tmp_path, monkeypatch, capsys):
    home = _data_home_only(tmp_path, monkeypatch)
    args = table1.parse_arguments(["--quick"])
    assert args.datasets == [name for name in table1.QUICK["datasets"] if name != "diabetes"]
    assert "leaving out diabetes" in capsys.readouterr().err
    (home / "diabetis_agp.npz").write_bytes(b"")  # once its file is in the data home it stays in
    assert table1.parse_arguments(["--quick"]).datasets == table1.QUICK["datasets"]


def test_tiny_inducing_run_reads_every_method_at_each_m(tmp_path):
    path = tmp_path / "inducing.json"
    code = inducing.main(
        [
            "--dataset",
            "diabetes",
            "--m",
            "4",
            "12",
            "--folds",
            "1",
            "--seconds",
            "0.4",
            "--no-write-md",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    payload = json.loads(path.read_text())
    rows = payload["rows"]
    assert [(r["m"], r["method"]) for r in rows] == [(m, method) for m in (4, 12) for method in protocol.METHOD_NAMES]
    for fit in payload["fits"]:
        err, seconds = np.asarray(fit["trace"]["test_error"]), np.asarray(fit["trace"]["seconds"])
        assert 0.0 <= fit["final"]["error"] <= 0.5 and 0.0 < fit["final"]["nll"] < np.log(2.0) + 0.1
        for t, value in zip(payload["checkpoints"], fit["error_at"]):  # the reading is the trace's value at t
            if np.isfinite(value):
                assert value == err[np.searchsorted(seconds, t, side="right") - 1]


def _scale(tmp_path, method, *options):
    path = tmp_path / f"scale-{method}.json"
    argv = [
        "--n",
        "2000",
        "20000",
        "--m",
        "20",
        "--seconds",
        "0.3",
        "--method",
        method,
        "--no-write-md",
        "--json",
        str(path),
    ] + [arg for option in options for arg in ("--option", option)]
    assert scale.main(argv) == 0
    small, large = json.loads(path.read_text())["results"]
    return small, large, (large["state_mb"] - small["state_mb"]) * 1e6 / (large["n"] - small["n"])


@pytest.mark.parametrize("method", list(methods.METHODS))
def test_tiny_scale_run_measures_bounded_memory_for_every_method(tmp_path, method):
    """Every method's default form keeps state that does not grow with n beyond a float copy of y (8 bytes a row),
    and its steps' peak and leftovers do not depend on n."""
    small, large, bytes_per_row = _scale(tmp_path, method)
    assert bytes_per_row <= 8.5
    assert large["step_peak_mb"] == pytest.approx(small["step_peak_mb"], rel=0.1, abs=0.05)
    assert large["step_growth_mb"] == pytest.approx(small["step_growth_mb"], rel=0.1, abs=0.05)
    assert 0.0 <= large["test_error"] <= 0.5 and large["ms_per_iteration"] > 0


def test_tiny_scale_run_sees_per_point_ep_sites_grow_with_n(tmp_path):
    """The measurement can fail: EP with one site per point (direction (m,), τ̃, ν̃) keeps 8(m + 2) bytes a row."""
    *_, bytes_per_row = _scale(tmp_path, "epgpc", "epgpc.sites=per-point")
    assert bytes_per_row >= 8 * (20 + 2)


def test_tiny_steps_run_races_epgpcs_two_step_rules(tmp_path):
    path = tmp_path / "steps.json"
    assert (
        steps.main(
            [
                "--datasets",
                "diabetes",
                "--seconds",
                "0.4",
                "--entrants",
                "epgpc-rm-10-0.6",
                "epgpc-constant-0.003",
                "--no-write-md",
                "--json",
                str(path),
            ]
        )
        == 0
    )
    entrants = json.loads(path.read_text())["races"]["diabetes"]["entrants"]
    assert [label.split()[:2] for label in entrants] == [["epgpc", "robbins-monro"], ["epgpc", "constant"]]
    assert all(r["iterations"] > 0 and 0.0 < r["final_nll"] < np.log(2.0) + 0.05 for r in entrants.values())


def test_tiny_bound_run_orders_the_two_bounds_as_theory_says(tmp_path):
    """SVGP's full-batch optimum maximises L_orig, so X-GPC's q scores no higher on it; and for X-GPC's own q the
    augmented bound lies below L_orig (the gap is an expected KL)."""
    path = tmp_path / "bound.json"
    assert bound.main(["--datasets", "diabetes", "--seconds", "0.5", "--no-write-md", "--json", str(path)]) == 0
    r = json.loads(path.read_text())["results"]["diabetes"]
    xgpc, svgp = r["xgpc"], r["svgp"]
    assert xgpc["converged"] and svgp["converged"]
    assert xgpc["exact_bound_per_point"] <= svgp["exact_bound_per_point"] + 1e-7
    assert xgpc["augmented_bound_per_point"] < xgpc["exact_bound_per_point"]
    assert abs(xgpc["nll"] - svgp["nll"]) < 0.05 and 0.0 < svgp["nll"] < np.log(2.0)


def test_bound_at_a_race_s_final_kernels_scores_each_entrant_s_kernel_on_the_same_split(tmp_path):
    """--kernels-from: every entrant's final kernel of a race, held fixed; at each, SVGP's optimum maximises L_orig
    (X-GPC's q scores no higher) and the kernel is the race's own."""
    race_path, bound_path = tmp_path / "race.json", tmp_path / "bound.json"
    assert (
        race.main(
            [
                "--dataset",
                "diabetes",
                "--seconds",
                "0.3",
                "--methods",
                "xgpc",
                "svgp-natgrad",
                "--no-write-md",
                "--json",
                str(race_path),
            ]
        )
        == 0
    )
    assert bound.main(["--kernels-from", str(race_path), "--no-write-md", "--json", str(bound_path)]) == 0
    entrants = json.loads(race_path.read_text())["folds"][0]["methods"]
    (result,) = json.loads(bound_path.read_text())["results"]
    assert result["dataset"] == "diabetes" and set(result["kernels"]) == set(entrants)
    for method, at_kernel in result["kernels"].items():
        assert at_kernel["variance"] == pytest.approx(entrants[method]["variance"])
        assert at_kernel["lengthscale"] == pytest.approx(entrants[method]["lengthscale"])
        assert at_kernel["svgp"]["converged"] and at_kernel["xgpc"]["converged"]
        assert at_kernel["xgpc"]["exact_bound_per_point"] <= at_kernel["svgp"]["exact_bound_per_point"] + 1e-7
    with pytest.raises(SystemExit):
        bound.main(["--kernels-from", str(tmp_path / "missing.json")])


def test_tiny_table1_run_with_a_matern_kernel_says_so_and_stays_finite(tmp_path, capsys):
    """`--kernel matern32` reaches every method through the protocol: the JSON config and each fit name the family
    (read back from the trained engine), the Markdown notes name it, and the numbers are finite and sane."""
    path = tmp_path / "table1.json"
    code = table1.main(
        [
            "--datasets",
            "diabetes",
            "--folds",
            "1",
            "--seconds",
            "0.3",
            "--m",
            "10",
            "--kernel",
            "matern32",
            "--no-write-md",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    payload = json.loads(path.read_text())
    assert payload["config"]["kernel"] == "matern32"
    fits = payload["fits"]
    assert [f["kernel"] for f in fits] == ["matern32"] * len(protocol.METHOD_NAMES)
    for fit in fits:
        assert np.isfinite([fit["error"], fit["nll"], fit["lengthscale"], fit["variance"]]).all()
        assert 0.0 < fit["nll"] < np.log(2.0) + 0.05 and fit["iterations"] > 0
        assert fit["lengthscale"] != pytest.approx(np.sqrt(8.0))  # the kernel was learned, not left at ℓ = √d
    assert "kernel matern32" in capsys.readouterr().out


def test_protocol_builds_the_named_kernel_family_at_the_papers_initial_values():
    X, y = protocol.load_dataset("diabetes", "clean")
    train, test = protocol.folds("diabetes", y, 10, "clean", seed=0)[0]
    for name in KERNELS:
        kernel = protocol.prepare_split("diabetes", X, y, train, test, "clean", m=5, seed=0, kernel=name).kernel
        assert isinstance(kernel, KERNELS[name])
        assert kernel.lengthscale.tolist() == [np.sqrt(X.shape[1])] and kernel.variance == 1.0
        assert kernel.nugget == protocol.NUGGET["clean"]
    with pytest.raises(SystemExit):
        table1.parse_arguments(["--kernel", "cosine"])


def test_tiny_gibbs_run_compares_mcmc_and_x_gpc_at_a_matern_kernel(tmp_path):
    """Fig. 1's path (`studies.comparison.run_comparison`: full and sparse X-GPC fitted to their optimum, the Gibbs sampler, the
    test-point comparison) with a Matérn 3/2 kernel: the JSON names it and X-GPC's full posterior agrees with MCMC."""
    path = tmp_path / "gibbs.json"
    code = gibbs.main(
        [
            "--sizes",
            "60",
            "--repeats",
            "1",
            "--samples",
            "40",
            "--burn-in",
            "10",
            "--chains",
            "2",
            "--inducing",
            "10",
            "--kernel",
            "matern32",
            "--no-write-md",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    payload = json.loads(path.read_text())
    assert payload["kernel"] == "matern32" and payload["figure1"]["kernel"]["name"] == "matern32"
    assert np.isfinite(payload["sweeps"][0]["precision / floor"])
    full = payload["figure1"]["full"]
    assert full["mean/correlation"] > 0.95 and full["p(y=1)/correlation"] > 0.95
    assert abs(full["nll_vi"] - full["nll_mcmc"]) < 0.05 and 0.0 < full["nll_mcmc"] < np.log(2.0)


def test_a_benchmark_writes_its_results_folder_and_leaves_benchmarks_md_alone(tmp_path, monkeypatch):
    """A user's run writes ./bench-results/<section>.md and .json; BENCHMARKS.md changes only on request."""
    from explorer.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "BENCHMARKS.md").write_text("# Benchmarks\n\nkept\n")
    argv = ["bench", "scale", "--n", "2000", "--m", "10", "--seconds", "0.2", "--method", "xgpc"]
    assert main(argv) == 0
    assert (tmp_path / "BENCHMARKS.md").read_text() == "# Benchmarks\n\nkept\n"
    tables = sorted((tmp_path / "bench-results").glob("*.md"))
    numbers = sorted((tmp_path / "bench-results").glob("*.json"))
    assert len(tables) == 1 and len(numbers) == 1 and tables[0].stem == numbers[0].stem
    assert "Command: `python -m explorer bench scale" in tables[0].read_text()
    assert json.loads(numbers[0].read_text())["config"]["n"] == [2000]
    assert main(argv + ["--write-benchmarks-md", "--results", str(tmp_path / "elsewhere")]) == 0
    recorded = (tmp_path / "BENCHMARKS.md").read_text()
    assert recorded.startswith("# Benchmarks\n\nkept\n") and "Command: `python -m explorer bench scale" in recorded
    assert len(list((tmp_path / "elsewhere").glob("*.json"))) == 1
