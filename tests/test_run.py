"""One run, one vocabulary, one seed policy (explorer/settings.py, explorer/run.py): the same data, settings and seed
give the same history from the `Model`, `XGPClassifier` and the benchmark protocol; every method option is a
declared setting reachable from every face; old run files load."""

import functools
import json
import math

import numpy as np
import pytest

from explorer import Model, XGPClassifier, methods, settings
from explorer.bench import protocol as P
from explorer.bench.common import add_setting_argument
from explorer.dashboard import controls
from explorer.data import datasets
from explorer.estimator import OPTION_SETTINGS
from explorer.kernels import RBF
from explorer.run import RETIRED_SETTINGS, Run, RunFileError, streams
from explorer.xgpc import XGPC, MultiLatentXGPC
from explorer.xgpc_stickbreaking import MULTICLASS_FAMILIES

N, SEED = 300, 3
SETTINGS = dict(n_inducing=15, batch_size=40, eval_every=10)
ESTIMATOR = dict(n_inducing=15, batch_size=40)
"""SETTINGS as the estimator takes them: eval_every is one of its `options`."""


@pytest.fixture(scope="module")
def moons():
    X, y = datasets.load("moons", n=N, seed=5)
    return X, y.astype(float)


def model_history(X, y, method):
    model = Model(method=method, seed=SEED, train_fraction=0.9, lengthscale=math.sqrt(2), **SETTINGS)
    model.set_data(X, y, "moons")
    model.step(60)
    return model.history.rows


def estimator_history(X, y, method):
    clf = XGPClassifier(
        method=method,
        random_state=SEED,
        validation_fraction=0.1,
        convergence="none",
        max_iter=60,
        options={"lengthscale": math.sqrt(2), "eval_every": 10},
        **ESTIMATOR,
    )
    return clf.fit(X, y).history_


def protocol_history(X, y, method):
    """The "clean" protocol on a fold whose training part is (X, y): it holds out a tenth as the monitored part,
    as the Model's train_fraction 0.9 and the estimator's validation_fraction 0.1 do; ℓ = √d, γ = 1e-4."""
    X_all, y_all = np.vstack([X, X[:10]]), np.concatenate([y, y[:10]])
    split = P.prepare_split("moons", X_all, y_all, np.arange(N), np.arange(N, N + 10), "clean", m=15, seed=SEED)
    trainer = P.make_trainer(method, split, seed=SEED, batch_size=40, convergence="none", eval_every=10)
    trainer.step(60)
    return trainer.history.rows


@pytest.mark.parametrize("method", sorted(methods.METHODS))
def test_the_same_settings_and_seed_give_the_same_history_from_every_face(moons, method):
    X, y = moons
    histories = [face(X, y, method) for face in (model_history, estimator_history, protocol_history)]
    assert [len(h) for h in histories] == [7, 7, 7]  # iteration 0, then every 10 of 60
    for column in ("elbo", "test_nll", "test_error", "lengthscale", "variance"):
        reference = [row[column] for row in histories[0]]
        assert np.all(np.isfinite(reference))
        for history in histories[1:]:
            np.testing.assert_array_equal([row[column] for row in history], reference, err_msg=column)


def test_another_seed_gives_another_history(moons):
    """The cross-face equality above is not that of runs that ignore the seed."""
    X, y = moons
    one = estimator_history(X, y, "xgpc")
    other = XGPClassifier(
        random_state=SEED + 1,
        validation_fraction=0.1,
        convergence="none",
        max_iter=60,
        options={"lengthscale": math.sqrt(2), "eval_every": 10},
        **ESTIMATOR,
    ).fit(X, y)
    assert [row["elbo"] for row in one] != [row["elbo"] for row in other.history_]


def test_streams_are_the_seed_sequences_four_children():
    """The seed policy: stream k is numpy's k-th spawned child of SeedSequence(seed) (independent truth: numpy)."""
    children = np.random.SeedSequence(SEED).spawn(4)
    for stream, child in zip(streams(SEED), children):
        np.testing.assert_array_equal(stream.random(5), np.random.default_rng(child).random(5))


def test_every_method_option_is_a_declared_setting_on_every_face():
    """Every option a method reads — its builder's and, by name, its engines' constructor keywords — is a declared
    setting, and every setting is on every face: the Model's parameters, the dashboard's widgets, labels and URL keys,
    and the estimator's parameters or its `options` (checked by the declaration)."""
    method_options = {name for method in methods.METHODS for name in methods.option_names(method)}
    assert method_options <= set(settings.SETTINGS)
    assert {"hyper_every", "kernel_bound", "full", "sites", "learning_rate", "multiclass_family"} <= method_options
    estimator_parameters = set(XGPClassifier().get_params())
    assert len(estimator_parameters) <= 15
    for name in settings.SETTINGS:
        assert name in Model.param  # the param face
        assert name in controls.CONFIGURATION and name in controls.LABELS  # the dashboard: widget, label, URL key
        if settings.SETTINGS[name].group == "data":
            continue
        if name in estimator_parameters:
            assert name in XGPClassifier._parameter_constraints
        else:
            assert name in OPTION_SETTINGS and name not in XGPClassifier._parameter_constraints


@pytest.mark.parametrize("method, every", [("xgpc", 1), ("svgp-natgrad", 4), ("epgpc", 3)])
def test_hyper_every_reaches_the_engine_from_the_model_the_estimator_and_a_flag(method, every):
    model = Model(dataset="moons", n_points=100, n_inducing=5, method=method, hyper_every=every)
    assert model.engine.hyper_every == every
    X, y = datasets.load("moons", n=100, seed=0)
    clf = XGPClassifier(method=method, n_inducing=5, max_iter=2, options={"hyper_every": every}).fit(X, y)
    assert clf.engine_.hyper_every == every
    parser = __import__("argparse").ArgumentParser()
    add_setting_argument(parser, "hyper_every")
    assert parser.parse_args(["--hyper-every", str(every)]).hyper_every == every


def test_kernel_bound_reaches_xgpc_and_a_bad_value_is_refused_by_name():
    model = Model(dataset="moons", n_points=100, n_inducing=5, kernel_bound="augmented")
    assert model.engine.kernel_bound == "augmented"
    with pytest.raises(ValueError, match=r"options\['kernel_bound'\]: unknown kernel_bound 'tight'"):
        XGPClassifier(options={"kernel_bound": "tight"}).fit(*datasets.load("moons", n=100, seed=0))
    with pytest.raises(ValueError, match="unknown kernel_bound 'tight'; choose one of augmented, exact"):
        Run({"kernel_bound": "tight"}, np.zeros((4, 2)), np.ones(4), np.zeros((1, 2)), np.ones(1))


def test_the_estimator_and_the_model_share_bounds(tmp_path):
    """A value outside a declared bound is refused by the Model (param), the estimator (scikit-learn) and the link
    reader (dashboard), each naming the setting."""
    setting = settings.SETTINGS["kappa"]
    assert setting.out_of_range(0.5) == "Robbins–Monro rate κ: 0.5 is out of range (above 0.5 and at most 1)"
    with pytest.raises(ValueError, match="kappa"):
        Model(dataset="moons", n_points=100, kappa=0.5)
    with pytest.raises(ValueError, match=r"options\['kappa'\]: kappa must be a finite number above 0.5"):
        XGPClassifier(options={"kappa": 0.5}).fit(*datasets.load("moons", n=100, seed=0))
    model = Model(dataset="moons", n_points=100, n_inducing=5)
    changes, problems = controls.settings_from_query("?kappa=0.5&hyper_every=3", model)
    assert changes == {"hyper_every": 3}
    assert problems == ["Robbins–Monro rate κ: 0.5 is out of range (above 0.5 and at most 1)"]


def test_a_version_2_run_file_still_loads_and_continues(tmp_path):
    """A file in the format before the advanced settings (its config holds only the settings that existed then)
    loads, and the loaded run continues as the saved one does."""
    model = Model(dataset="moons", n_points=120, n_inducing=8, batch_size=30, seed=2)
    model.step(15)
    path = tmp_path / "run.npz"
    model.save(path)
    with np.load(path) as stored:
        arrays = {name: stored[name] for name in stored.files}
    meta = json.loads(str(arrays.pop("__meta__")))
    old_names = [n for n in meta["config"] if settings.SETTINGS[n].group != "advanced" or n == "eval_points"]
    meta.update(format="xgpc-explorer-run/2", config={n: meta["config"][n] for n in old_names})
    old = tmp_path / "old.npz"
    with open(old, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    loaded = Model.load(old)
    assert loaded.iteration == 15 and loaded.kernel_bound == settings.DEFAULTS["kernel_bound"]
    model.step(10)
    loaded.step(10)
    np.testing.assert_array_equal([r["elbo"] for r in loaded.history.rows], [r["elbo"] for r in model.history.rows])
    meta["config"]["hyper_every"] = 3  # a version-2 file with a setting it could not have had
    with open(old, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(RunFileError, match=r"unknown \['hyper_every'\]"):
        Model.load(old)


def test_numpy_scalars_scikit_learn_accepts_reach_the_run_as_python_numbers():
    X, y = datasets.load("moons", n=100, seed=0)
    clf = XGPClassifier(
        n_inducing=np.int64(5),
        max_iter=np.int64(3),
        learn_hyperparameters=np.bool_(False),
        options={"rho": np.float32(0.25)},
    )
    clf.set_params(step_size="constant").fit(X, y)
    assert clf.n_iter_ == 3 and clf.engine_.m == 5 and clf.engine_.hyper_optimizer is None
    assert clf.run_.config["rho"] == 0.25 and type(clf.run_.config["rho"]) is float


def test_a_run_with_a_step_rule_object_says_it_cannot_be_saved(tmp_path):
    from explorer.schedules import Constant

    rule = Constant(0.2)
    model = Model(dataset="moons", n_points=100, n_inducing=5, step_size=rule)
    model.step(3)
    assert isinstance(model.engine.schedule, Constant) and model.engine.schedule is not rule  # a copy is used
    with pytest.raises(ValueError, match="step-size rule object \\(Constant\\) cannot be saved"):
        model.save(tmp_path / "run.npz")
    assert not (tmp_path / "run.npz").exists()


def test_a_version_4_run_file_loads_when_its_retired_options_are_off_and_is_refused_by_name_otherwise(tmp_path):
    """Files of format 4 stored the X-GPC options that were measured and not adopted (issue 32): at their "off"
    values the run continues as saved; a run that used one cannot continue here, and the refusal names it."""
    model = Model(dataset="moons", n_points=120, n_inducing=8, batch_size=30, seed=2)
    model.step(15)
    path = tmp_path / "run.npz"
    model.save(path)
    with np.load(path) as stored:
        arrays = {name: stored[name] for name in stored.files}
    meta = json.loads(str(arrays.pop("__meta__")))
    meta.update(format="xgpc-explorer-run/4", config={**meta["config"], **RETIRED_SETTINGS})
    old = tmp_path / "old.npz"
    with open(old, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    loaded = Model.load(old)
    model.step(10)
    loaded.step(10)
    np.testing.assert_array_equal([r["elbo"] for r in loaded.history.rows], [r["elbo"] for r in model.history.rows])
    for name, used in (("average_window", 200), ("kernel_step", "whitened"), ("batch_growth_every", True)):
        meta["config"] = {**meta["config"], **RETIRED_SETTINGS, name: used}
        with open(old, "wb") as f:
            np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
        with pytest.raises(
            RunFileError, match=rf"{name}={used!r} is an X-GPC option that was measured and not adopted"
        ):
            Model.load(old)
    del meta["config"]["overrelax"]  # a version-4 file holds every one of them
    with open(old, "wb") as f:
        np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(RunFileError, match=r"settings missing \['overrelax'\]"):
        Model.load(old)


def test_a_method_refuses_an_option_it_does_not_read_by_name():
    X, y = datasets.load("moons", n=60, seed=0)
    with pytest.raises(TypeError, match=r"method 'epgpc' takes no options \['kernel_bound'\]; its options are damping"):
        methods.build("epgpc", X, y, X[:5], RBF(1.0), batch_size=10, rng=np.random.default_rng(0), kernel_bound="exact")
    with pytest.raises(TypeError, match=r"takes no options \['average_window'\]"):  # measured, not adopted: gone
        methods.build("xgpc", X, y, X[:5], RBF(1.0), batch_size=10, rng=np.random.default_rng(0), average_window=5)


def test_a_new_engine_keyword_reaches_the_engine_with_no_builder_naming_it(monkeypatch):
    """The engine half of "a new engine option is a settings row plus the engine that reads it": a keyword added
    to the constructor of X-GPC's default K ≥ 3 engine (whose kernel brake needed a builder relay before) is an option
    of the method and arrives from `methods.build` (which the faces call with the settings,
    `settings.builder_options`); no builder or signature relays it."""

    class Probed(MultiLatentXGPC):
        def __init__(self, *args, probe: int = 0, **keywords):
            super().__init__(*args, **keywords)
            self.probe = probe

    X, y = datasets.load("blobs-3", n=60, seed=0)
    build = dict(batch_size=10, rng=np.random.default_rng(0))
    with pytest.raises(TypeError, match=r"takes no options \['probe'\]"):
        methods.build("xgpc", X, y, X[:5], RBF(1.0), probe=3, **build)
    monkeypatch.setattr(methods, "MultiLatentXGPC", Probed)
    monkeypatch.setitem(methods.ENGINES, "xgpc", (XGPC, Probed))
    assert "probe" in methods.option_names("xgpc") and "probe" not in methods.option_names("epgpc")
    engine = methods.build("xgpc", X, y, X[:5], RBF(1.0), probe=3, hyper_every=2, kernel_patience=4, **build)
    assert type(engine) is Probed and engine.probe == 3 and engine.hyper_every == 2
    assert engine.kernel_brake.n_iter_no_change == 4


def _builds():
    """(method, data, settings) for every engine a builder makes: each method on two classes and on three, X-GPC's
    three classes in each multi-class family."""
    two, three = datasets.load("moons", n=40, seed=0), datasets.load("blobs-3", n=45, seed=0)
    for method in methods.METHODS:
        yield method, two, {}
        if methods.CLASS_COUNTS[method][1] is None:
            families = MULTICLASS_FAMILIES if "multiclass_family" in methods.option_names(method) else (None,)
            for family in families:
                yield method, three, {} if family is None else {"multiclass_family": family}


def _engine_from_settings(method, data, values):
    """The engine `methods.build` makes from the checked run settings `values` (as a `Run` does) on `data`."""
    X, y = data
    options = settings.builder_options(settings.complete({"method": method, **values}))
    return methods.build(method, X, y, X[:5], RBF(1.0), batch_size=10, rng=np.random.default_rng(0), **options)


def test_engine_options_and_their_settings_rows_cannot_drift():
    """One route: every engine class a builder makes is one of its method's `ENGINES`; the settings rows read by an
    engine ("engine") are exactly the engines' constructor keywords that are options (so neither can be added alone),
    and the rows read by `explorer.methods` ("builder") exactly the options it turns into objects."""
    for method, data, values in _builds():
        assert type(_engine_from_settings(method, data, values)) in methods.ENGINES[method]
    by_engines = {
        name
        for engines in methods.ENGINES.values()
        for engine in engines
        for name in methods.engine_keywords(engine) - set(methods.NOT_OPTIONS)
    }
    rows = {reader: {n for n, s in settings.SETTINGS.items() if s.reader == reader} for reader in ("engine", "builder")}
    assert by_engines == rows["engine"]
    assert {*methods.SHARED_OPTIONS, *(n for names in methods.BUILDER_OPTIONS.values() for n in names)} == rows[
        "builder"
    ]
    assert not by_engines & {*methods.SHARED_OPTIONS, *(n for names in methods.BUILDER_OPTIONS.values() for n in names)}


def test_a_setting_the_run_reads_applies_to_every_method():
    """Only the options a method reads are hidden for another method: a setting the `Run` reads (the evaluation's
    rows, though in the "advanced" group) applies to each, so the dashboard shows its widget (it hid it for all)."""
    for method in methods.METHODS:
        assert settings.applies("eval_points", method) and "eval_points" not in settings.builder_options(
            settings.complete({"method": method})
        )
        assert not settings.applies("sites", method) or method == "epgpc"


def _another_value(setting):
    """A valid value of `setting` other than its default."""
    if setting.kind == "bool":
        return not setting.default
    if setting.kind == "choice":
        return next(choice for choice in setting.choices if choice != setting.default)
    start = setting.default if setting.default is not None else setting.low
    return setting.check(start + 2 if setting.kind == "int" else start / 2)


def test_every_engine_option_reaches_the_engine_constructor_from_the_settings(monkeypatch):
    """Each settings row read by an engine, set to a value other than its default, arrives as that keyword at the
    constructor of every engine (of every method) whose constructor chain takes it, from the settings alone."""
    received = []
    for engine in {engine for engines in methods.ENGINES.values() for engine in engines}:

        def spy(self, *args, __init__=engine.__init__, **keywords):
            received.append(keywords)
            __init__(self, *args, **keywords)

        monkeypatch.setattr(engine, "__init__", functools.wraps(engine.__init__)(spy))
    reached = set()
    for method, data, values in _builds():
        engine = type(_engine_from_settings(method, data, values))
        for name in sorted(methods.engine_keywords(engine) - set(methods.NOT_OPTIONS)):
            value = _another_value(settings.SETTINGS[name])
            received.clear()
            assert type(_engine_from_settings(method, data, {**values, name: value})) is engine
            assert received[0].get(name) == value, (method, engine.__name__, name)
            reached.add(name)
    assert reached == {name for name, setting in settings.SETTINGS.items() if setting.reader == "engine"}
