"""A served session trains in its worker thread while the server's event loop, another thread, serves every visitor:
the long linear algebra of a step must let other Python threads run (issue 19). SciPy's `blas.dtrsm` wrapper holds the
GIL for its whole call; `linalg.lower_triangular_solve` calls the same routine without it, to the same bits."""

import threading
import time

import numpy as np
from scipy.linalg import blas

from explorer.linalg import lower_triangular_solve


def progress_of_another_thread(action) -> tuple[int, float]:
    """(how often a pure-Python thread counted while action() ran, seconds action() took)."""
    count, stop = [0], threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1

    thread = threading.Thread(target=counter, daemon=True)
    thread.start()
    time.sleep(0.05)  # the counter runs
    start, counted = time.perf_counter(), count[0]
    action()
    seconds, counted = time.perf_counter() - start, count[0] - counted
    stop.set()
    thread.join()
    return counted, seconds


def test_the_triangular_solve_lets_other_threads_run_and_gives_the_bits_of_scipys_wrapper():
    rng = np.random.default_rng(0)
    m, n = 1500, 6000  # ≈ 0.3 s of dtrsm on one core
    A = rng.standard_normal((m, m))
    L = np.linalg.cholesky(A @ A.T + m * np.eye(m))
    B = rng.standard_normal((n, m)).T
    assert np.array_equal(lower_triangular_solve(L, B), blas.dtrsm(1.0, L, B, lower=1))
    np.testing.assert_allclose(L @ lower_triangular_solve(L, B), B, atol=1e-9)

    held, held_seconds = progress_of_another_thread(lambda: blas.dtrsm(1.0, L, B, lower=1))
    released, released_seconds = progress_of_another_thread(lambda: lower_triangular_solve(L, B))
    slept, slept_seconds = progress_of_another_thread(lambda: time.sleep(released_seconds))
    per_second = {
        name: c / s
        for name, c, s in [
            ("held", held, held_seconds),
            ("released", released, released_seconds),
            ("slept", slept, slept_seconds),
        ]
    }
    print({name: f"{rate:.3g}/s" for name, rate in per_second.items()})
    # With the GIL held the other thread counts only in the few ms before the call takes it.
    assert per_second["released"] > 0.2 * per_second["slept"] > 0
    assert per_second["held"] < 0.2 * per_second["slept"]  # the check can fail: SciPy's wrapper holds the GIL
