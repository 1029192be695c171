"""The test run itself: BLAS on one thread in this process and in the subprocesses it starts (tests/conftest.py)."""

import subprocess
import sys

import scipy.linalg  # noqa: F401  (loads scipy's own OpenBLAS, the one that was left on two threads)
from threadpoolctl import threadpool_info


def test_every_blas_library_loaded_in_the_test_process_runs_one_thread():
    pools = [(pool["filepath"], pool["num_threads"]) for pool in threadpool_info()]
    assert pools and all(threads == 1 for _, threads in pools), pools


def test_a_subprocess_of_the_tests_starts_its_blas_on_one_thread():
    code = (
        "import scipy.linalg, numpy\nfrom threadpoolctl import threadpool_info\n"
        "print(max(pool['num_threads'] for pool in threadpool_info()))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "1"
