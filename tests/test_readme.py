"""The README's Python examples run as written (issue 20.16): each ```python block is run by a fresh Python in a
temporary directory, as a reader would paste it (and so that what it sets up — `pn.extension(notifications=True)`,
say — stays out of this test session). Only the sizes listed in `FASTER` are made smaller (each must still be in the
README, so the list cannot drift from it); blocks that read a paper data set use the `paper_data` fixture."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)
# README text → what the test runs instead: the same calls on fewer iterations / sweeps
FASTER = {
    "max_iter=2000": "max_iter=200",
    "n_samples=2500, burn_in=100, n_chains=4": "n_samples=60, burn_in=20, n_chains=2",
    "iterations=150, every=10": "iterations=20, every=10",
    "model.step(200)           # the plots follow the model": "model.step(20)",
    "model.step(1000)   # about 10 s of training": "model.step(30)",
}
PAPER_SETS = ('datasets.load("banana")', 'datasets.load("diabetes")')


def test_the_readme_has_the_examples_the_test_knows():
    assert len(BLOCKS) >= 6
    text = "\n".join(BLOCKS)
    assert all(original in text for original in FASTER), [o for o in FASTER if o not in text]


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{k + 1}" for k in range(len(BLOCKS))])
def test_a_readme_example_runs(block, tmp_path, request):
    if any(name in block for name in PAPER_SETS):
        request.getfixturevalue("paper_data")  # skips on a fresh clone, fails on CI without them
    for original, faster in FASTER.items():
        block = block.replace(original, faster)
    environment = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1")
    run = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
