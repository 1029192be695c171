"""How our work runs on a Dask worker: BLAS pinned to one thread, and glibc's allocator as it is in a plain process.

A Dask nanny starts each worker process with ``MALLOC_TRIM_THRESHOLD_=65536`` (Dask's
``distributed.nanny.pre-spawn-environ``), so that the worker hands freed memory back to the system at once. Setting any
of glibc's malloc thresholds also switches off its adaptive mmap threshold, so every array above 128 kB is mapped
afresh and unmapped at each allocation and every first touch of it faults its pages in. Our fits allocate such arrays
at every iteration (the monitor set's kernel block, the m × m solves), and the page faults doubled their time on a
worker (BENCHMARKS.md). `run_pinned` therefore sets the two thresholds to the values glibc's adaptation would settle
at for such arrays (mmap above 32 MiB, its ceiling; trim above 64 MiB) once per worker process; then a freed 1.6 MB
block is reused instead of being returned to the system.

Nothing here imports Dask: the functions run inside a Dask task, wherever its worker is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
import time
from collections.abc import Callable

from threadpoolctl import threadpool_limits

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (glibc's malloc.h)
MMAP_THRESHOLD = 32 * 2**20  # bytes: glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD  # bytes: what glibc's adaptation sets beside a raised mmap threshold


@functools.cache
def restore_adaptive_allocation() -> bool:
    """Set glibc's mmap and trim thresholds (`MMAP_THRESHOLD`, `TRIM_THRESHOLD`) in this process, once; True if set.
    On a system without glibc's `mallopt` (macOS, Windows, musl) nothing is changed and the answer is False."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def run_pinned(function: Callable, args: tuple = (), threads: int = 1) -> tuple[object, float]:
    """`function(*args)` on a Dask worker with BLAS pinned to `threads` threads and the allocator's thresholds
    restored (`restore_adaptive_allocation`): (its result, its wall time in seconds)."""
    restore_adaptive_allocation()
    start = time.perf_counter()
    with threadpool_limits(limits=threads):
        result = function(*args)
    return result, time.perf_counter() - start
