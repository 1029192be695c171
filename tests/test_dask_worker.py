"""`explorer.dask_worker`: a task on a Dask worker runs under the allocator of a plain process, counted in page faults
(not seconds): under Dask's MALLOC_TRIM_THRESHOLD_=65536 every 2 MB array is mapped afresh and faults its pages in at
first touch; after `restore_adaptive_allocation` the freed block is reused."""

from __future__ import annotations

import json
import os
import subprocess
import sys

COUNT_FAULTS = """
import json, resource, sys
import numpy as np
from explorer import dask_worker

def faults_of_fresh_arrays(times=200, size=2 * 2**20 // 8):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(times):
        block = np.empty(size)
        block[:] = 1.0  # touch every page
        del block
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

first = faults_of_fresh_arrays()
restored = dask_worker.restore_adaptive_allocation()
faults_of_fresh_arrays(times=2)  # the first allocation after the change still maps its block once
print(json.dumps({"before": first, "restored": restored, "after": faults_of_fresh_arrays()}))
"""


def test_restored_thresholds_stop_dasks_trim_setting_from_faulting_in_every_fresh_array():
    environment = dict(os.environ, MALLOC_TRIM_THRESHOLD_="65536")  # what Dask's nanny gives each worker
    done = subprocess.run([sys.executable, "-c", COUNT_FAULTS], env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    pages = 200 * 2 * 2**20 // os.sysconf("SC_PAGE_SIZE")  # each fresh 2 MB array faults in all its pages
    assert counts["restored"] is True
    assert counts["before"] > 0.9 * pages
    assert counts["after"] < 0.01 * pages


def test_run_pinned_returns_the_result_and_pins_blas_while_it_runs():
    from threadpoolctl import threadpool_info

    from explorer.dask_worker import run_pinned

    def blas_threads():
        return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]

    threads, seconds = run_pinned(blas_threads, (), threads=1)
    assert threads and set(threads) == {1}
    assert seconds >= 0.0
