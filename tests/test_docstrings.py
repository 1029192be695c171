"""The public API's docstrings follow numpydoc (checked with `numpydoc.validate`: a docstring, every parameter
documented and none invented, a Returns section where something is returned, an example), and their examples run
(doctest), so the documented shapes and outputs are the code's."""

import doctest
import importlib

import numpydoc.validate
import pytest

PUBLIC_API = [
    "explorer.data.datasets.load",
    "explorer.data.datasets.load_with_names",
    "explorer.data.datasets.available",
    "explorer.data.datasets.train_test_split",
    "explorer.data.datasets.load_file",
    "explorer.kernels.make_kernel",
    "explorer.kernels.initial_kernel",
    "explorer.estimator.XGPClassifier",
    "explorer.model.Model",
    "explorer.model.Model.step",
    "explorer.model.Model.run",
    "explorer.run.Run",
    "explorer.studies.comparison.run_comparison",
    "explorer.training.Trainer",
    "explorer.xgpc.XGPC",
    "explorer.xgpc.MultiLatentXGPC",
    "explorer.xgpc_multiclass.AugmentedLogisticSoftmax",
    "explorer.likelihoods.LogisticSoftmax",
    "explorer.gibbs_multiclass.MulticlassGibbsSampler",
    "explorer.svgp.SVGPAdam",
    "explorer.svgp.SVGPNatGrad",
    "explorer.likelihoods.Softmax",
    "explorer.metrics.expected_calibration_error",
    "explorer.views.calibration.reliability_diagram",
    "explorer.epgpc.EPGPC",
    "explorer.views.surface.decision_surface",
    "explorer.views.traces.training_traces",
    "explorer.views.export.save",
]
CHECKS = {
    "GL08": "no docstring",
    "PR01": "a parameter not documented",
    "PR02": "a documented parameter that does not exist",
    "RT01": "no Returns section",
    "EX01": "no Examples section",
}


def _resolve(name: str):
    module, _, attribute = name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError:  # a method: Class.method
        owner_module, _, owner = module.rpartition(".")
        return getattr(getattr(importlib.import_module(owner_module), owner), attribute)


@pytest.mark.parametrize("name", PUBLIC_API)
def test_the_public_api_is_documented_in_numpydoc(name):
    errors = [(code, message) for code, message in numpydoc.validate.validate(name)["errors"] if code in CHECKS]
    assert not errors, f"{name}: {errors}"


@pytest.mark.parametrize("name", PUBLIC_API)
def test_the_public_api_examples_run(name):
    obj = _resolve(name)
    module_globals = dict(vars(importlib.import_module(obj.__module__)))  # as `python -m doctest` runs them
    tests = doctest.DocTestFinder(recurse=False).find(obj, name, globs=module_globals)
    assert tests and tests[0].examples, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} example(s) failed (run `python -m doctest -v` on it)"
