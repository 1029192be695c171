"""How our work runs on a Dask worker: BLAS pinned to one thread, and glibc's allocator as it is in a plain process
(`run_pinned`). A Dask nanny starts each worker with ``MALLOC_TRIM_THRESHOLD_=65536``, which switches off glibc's
adaptive mmap threshold and doubled our fits' time there (BENCHMARKS.md, "What was wrong before"); the thresholds
are set back to where glibc's adaptation settles. Nothing here imports Dask: the functions run inside a Dask task.
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
