"""One rule for a bad setting in every face (issue 30): for each declared setting (`explorer.settings.SETTINGS`) and
each bad value made from its declaration — True for a number, a number just outside each bound, NaN, a fraction for a
whole number, 1 for a switch, an unknown word for a choice — the estimator, the Model, a link and every benchmark flag
that is that setting refuse it, in the same words: the setting's name (a link: its label), the value, and what is
allowed (`Setting.allowed`). The Model keeps its state. A benchmark flag that is a run setting is checked by its
declaration, never by a type of its own."""

from __future__ import annotations

import argparse
import math
from urllib.parse import urlencode

import numpy as np
import pytest

from explorer import Model, XGPClassifier, bench, console, settings
from explorer.bench.common import setting_type
from explorer.dashboard.controls import CONFIGURATION, LABELS, settings_from_query
from explorer.estimator import PARAMETER_SETTINGS, RUN_SETTINGS


def bad_values(setting: settings.Setting) -> list:
    """Values outside the declaration, derived from its kind, bounds and choices (none is valid)."""
    if setting.kind == "bool":
        return [1, "yes"]
    if setting.kind == "choice":
        return ["bogus"] if setting.choices is not None else []
    values = [True, math.nan]
    step = 1 if setting.kind == "int" else 0.5
    if setting.low is not None:
        values.append(setting.low if not setting.inclusive[0] else setting.low - step - abs(setting.low))
    if setting.high is not None:
        values.append(setting.high if not setting.inclusive[1] else setting.high + step + abs(setting.high))
    if setting.kind == "int":
        values.append(2.5)
    return [int(v) if setting.kind == "int" and isinstance(v, float) and v.is_integer() else v for v in values]


CASES = [(name, value) for name, setting in settings.SETTINGS.items() for value in bad_values(setting)]


def test_every_kind_of_setting_has_bad_values():
    named = {name for name, _ in CASES}
    kinds = {settings.SETTINGS[name].kind for name in named}
    assert kinds == {"int", "float", "bool", "choice"} and len(CASES) > 2 * len(settings.SETTINGS)
    for name, value in CASES:  # the table's values are bad by the declaration's own rule
        with pytest.raises(ValueError):
            settings.SETTINGS[name].check(value)


def says(message: str, name: str, value, setting: settings.Setting) -> None:
    """The message names the setting, the value and what is allowed."""
    assert name in message, message
    assert setting.allowed().lower() in message.lower(), message
    shown = {repr(value), str(value)} | ({f"{value:g}"} if isinstance(value, float) else set())
    assert any(text in message for text in shown), message


@pytest.fixture(scope="module")
def model():
    return Model(dataset="moons", n_points=60, n_inducing=5, seed=1)


@pytest.mark.parametrize(("name", "value"), [c for c in CASES if c[0] in RUN_SETTINGS])
def test_the_estimator_refuses_in_the_declarations_words(name, value):
    """A parameter of its own or an entry of `options`: refused at fit, naming it, the value and what is allowed."""
    X, y = np.random.default_rng(0).normal(size=(30, 2)), np.arange(30) % 2
    given = {name: value} if name in PARAMETER_SETTINGS else {"options": {name: value}}
    with pytest.raises(ValueError) as refused:
        XGPClassifier(**{"n_inducing": 5, "max_iter": 2, **given}).fit(X, y)
    says(str(refused.value), name, value, settings.SETTINGS[name])
    assert settings.SETTINGS[name].requirement() in str(refused.value)


@pytest.mark.parametrize(("name", "value"), CASES)
def test_the_model_refuses_at_assignment_and_keeps_its_run(model, name, value):
    before, run, status = model.config, model.current_run, model.status
    with pytest.raises(ValueError) as refused:
        setattr(model, name, value)
    message = str(refused.value)
    says(message, name, value, settings.SETTINGS[name])
    if settings.SETTINGS[name].kind != "choice":
        assert message == f"{name} must be {settings.SETTINGS[name].requirement()}, got {value!r}"
    assert model.config == before or all(  # NaN settings compare unequal to themselves: compare by repr
        repr(model.config[k]) == repr(v) for k, v in before.items()
    )
    assert model.current_run is run and model.status == status
    model.n_inducing = 6 if model.n_inducing != 6 else 5  # a later, valid change still applies
    assert model.current_run is not run


LINK_CASES = [
    (name, value)
    for name, value in CASES
    if name in CONFIGURATION
    and name != "dataset"
    # a link is text: it can say a number out of range, a switch or an unknown word; True, NaN and a fraction for a
    # whole number are refused in a link's own words ("is not a number", "… a finite number", "… a whole number")
    and not isinstance(value, bool)
    and not (isinstance(value, float) and (math.isnan(value) or settings.SETTINGS[name].kind == "int"))
]


@pytest.mark.parametrize(("name", "value"), LINK_CASES)
def test_a_link_refuses_in_the_declarations_words(model, name, value):
    changes, problems = settings_from_query("?" + urlencode({name: value}), model)
    assert name not in changes and len(problems) == 1
    says(problems[0], LABELS[name], value, settings.SETTINGS[name])


def bench_parsers(monkeypatch) -> dict:
    """Every benchmark's parser, caught as it is about to parse (nothing runs)."""

    class Caught(Exception):
        pass

    caught = {}

    def catch(parser, *args, **kwargs):
        caught["parser"] = parser
        raise Caught

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", catch)
    parsers = {}
    for name in bench.available():
        module = __import__(f"explorer.bench.{name}", fromlist=["main"])
        with pytest.raises(Caught):
            module.main([])
        parsers[name] = caught.pop("parser")
    return parsers


BENCH_OWN = {"dataset": "a registered name or a file, checked when it is loaded", "noise": "scale's label noise"}
"""Flags spelled like a setting whose meaning is the benchmark's own (not the run setting of that name)."""


def setting_flags(parsers) -> list[tuple[str, str, str]]:
    """(benchmark, flag, setting) for every flag of every benchmark that is spelled as a run setting or parsed as one."""
    flags = []
    for bench_name, parser in parsers.items():
        for action in parser._actions:
            typed = getattr(action.type, "__name__", None)
            spelled = {s[2:].replace("-", "_") for s in action.option_strings} & set(settings.SETTINGS)
            for name in spelled | ({typed} & set(settings.SETTINGS)):
                flags.append((bench_name, action.option_strings[0], name, typed))
    return flags


def test_every_bench_flag_that_is_a_run_setting_is_checked_by_its_declaration(monkeypatch):
    parsers = bench_parsers(monkeypatch)
    assert all(isinstance(parser, console.Parser) for parser in parsers.values())  # usage errors in one line
    flags = setting_flags(parsers)
    assert {b for b, *_ in flags} >= {"table1", "race", "multiclass", "scale", "gibbs", "inducing", "steps"}
    assert ("multiclass", "--n-inducing", "n_inducing", "n_inducing") in flags  # its --m
    for bench_name, flag, name, typed in flags:
        if name in BENCH_OWN and typed != name:
            continue
        assert typed == name, f"bench {bench_name} {flag} is setting {name} but parsed by {typed}"


def test_every_bench_flag_refuses_in_the_declarations_words(monkeypatch, capsys):
    flags = [f for f in setting_flags(bench_parsers(monkeypatch)) if f[2] == f[3]]
    monkeypatch.undo()
    tried = 0
    for bench_name, flag, name, _ in flags:
        module = __import__(f"explorer.bench.{bench_name}", fromlist=["main"])
        for value in bad_values(settings.SETTINGS[name]):
            with pytest.raises(SystemExit) as stopped:
                module.main([flag, str(value)])
            err = capsys.readouterr().err
            assert stopped.value.code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
            assert f"argument {flag}" in err, err
            says(err, name, str(value) if isinstance(value, bool) else value, settings.SETTINGS[name])
            tried += 1
    assert tried > 40


def test_a_bench_flag_reads_what_the_model_takes():
    for text, value in (("none", None), ("17", 17)):
        assert setting_type("hyper_every")(text) == value
    assert setting_type("kernel")("matern32") == "matern32" and setting_type("lengthscale")("1e-3") == 1e-3
