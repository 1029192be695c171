"""The README's Python examples run as written (issue 20.16): each ```python block is run by a fresh Python in a
temporary directory, as a reader would paste it (and so that what it sets up — `pn.extension(notifications=True)`,
say — stays out of this test session). Only the sizes listed in `FASTER` are made smaller (each must still be in the
README, so the list cannot drift from it); blocks that read a paper data set use the `paper_data` fixture. A block
that imports a package only an extra brings names the extra before the import (issue 28.7)."""

import ast
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import Future
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from test_packaging import declared_distributions, normalise

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)
# README text → what the test runs instead: the same calls on fewer iterations / sweeps
FASTER = {
    "max_iter=2000": "max_iter=200",
    "n_samples=2500, burn_in=100, n_chains=4": "n_samples=60, burn_in=20, n_chains=2",
    "iterations=150, every=10": "iterations=20, every=10",
    "model.step(200)           # the plots follow the model": "model.step(20)",
    "model.step(1000)   # about 10 s of training": "model.step(30)",
    "max_iter=300, random_state=0)": "max_iter=60, random_state=0)",  # the iris fits and the grid search's 13
    "model.step(200)\nprint(model.classes": "model.step(20)\nprint(model.classes",
    'datasets.load("banana-like", n=5000)': 'datasets.load("banana-like", n=1000)',  # the out-of-core file
    "model.step(100)\nmodel.current_run.test_scores()": "model.step(20)\nmodel.current_run.test_scores()",
}
PAPER_SETS = ('datasets.load("banana")', 'datasets.load("diabetes")')


def test_the_readme_has_the_examples_the_test_knows():
    assert len(BLOCKS) >= 6
    text = "\n".join(BLOCKS)
    assert all(original in text for original in FASTER), [o for o in FASTER if o not in text]


def run_block(block: str) -> subprocess.CompletedProcess:
    """`block`, with the sizes of FASTER, run by a fresh Python in a temporary directory."""
    for original, faster in FASTER.items():
        block = block.replace(original, faster)
    environment = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory(prefix="readme-block-") as folder:
        return subprocess.run(
            [sys.executable, "-c", block], cwd=folder, env=environment, capture_output=True, text=True, timeout=600
        )


_runs: dict[str, Future] = {}


def start_early(items, lane) -> None:
    """Run the blocks of the selected `test_a_readme_example_runs` in `lane` (see conftest.start_early)."""
    for item in items:
        if getattr(item, "originalname", "") == "test_a_readme_example_runs":
            block = item.callspec.params["block"]
            if block not in _runs:
                _runs[block] = lane.submit(run_block, block)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{k + 1}" for k in range(len(BLOCKS))])
def test_a_readme_example_runs(block, request):
    if any(name in block for name in PAPER_SETS):
        request.getfixturevalue("paper_data")  # skips on a fresh clone, fails on CI without them
    run = _runs[block].result() if block in _runs else run_block(block)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr


def extra_only_imports(code: str) -> list[tuple[int, str, list[str]]]:
    """(line, module, extras) for each import in `code` of a module that the core install does not bring and one of
    the user extras of pyproject.toml (not `test`) does."""
    pyproject = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))
    core = declared_distributions(pyproject, extras=[])
    extras = {
        extra: declared_distributions(pyproject, extras=[extra]) - core
        for extra in pyproject["project"]["optional-dependencies"]
        if extra != "test"
    }
    providers = packages_distributions()
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in (name.partition(".")[0] for name in modules):
            distributions = {normalise(d) for d in providers.get(module, [module])}
            needed = sorted(extra for extra, names in extras.items() if distributions & names)
            if needed and not distributions & core:
                found.append((node.lineno, module, needed))
    return found


def extras_unnamed_before_their_import(code: str) -> list[str]:
    """The imports in `code` of an extra's package whose extra (`[name]`) is not named on an earlier line or the
    import's own line."""
    lines = code.splitlines()
    return [
        f"line {line}: `import {module}` needs the extra {' or '.join(needed)}, not named before it"
        for line, module, needed in extra_only_imports(code)
        if not any(f"[{extra}]" in "\n".join(lines[:line]) for extra in needed)
    ]


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{k + 1}" for k in range(len(BLOCKS))])
def test_a_readme_example_names_the_extra_of_each_import_before_it(block):
    """Issue 28.7: the out-of-core example ended with `from distributed import …`, which fails on a plain install,
    and named the `[dask]` extra only in the paragraph below it."""
    problems = extras_unnamed_before_their_import(block)
    assert not problems, problems


def test_the_extra_check_flags_an_import_whose_extra_is_named_only_after_it():
    before = "import numpy as np\n# needs pip install 'xgpc-explorer[dask]'\nfrom distributed import Client\n"
    after = "import numpy as np\nfrom distributed import Client\n# needs pip install 'xgpc-explorer[dask]'\n"
    assert extras_unnamed_before_their_import(before) == []
    assert extras_unnamed_before_their_import(after) == [
        "line 2: `import distributed` needs the extra dask, not named before it"
    ]
