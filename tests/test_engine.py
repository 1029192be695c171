"""The shared SVI skeleton: every method sees the same minibatches, a failed iteration rolls back bit-identically,
data sources are interchangeable, and the layers' import arrows point down."""

import copy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import explorer
from explorer import methods
from explorer.data.sources import NpySource
from explorer.engine import SVIEngine
from explorer.kernels import RBF
from explorer.linalg import NumericalError
from explorer.sources import ArraySource, minibatch_indices

PACKAGE = Path(explorer.__file__).parent


def problem(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.4 * rng.standard_normal(n) > 0, 1, 0)  # class indices
    return X, y, X[rng.choice(n, 12, replace=False)]


# every method with its default step rule, and X-GPC with the adaptive rule, which warm-starts on minibatches
ENTRANTS = {
    "xgpc": ("xgpc", {}),
    "xgpc-adaptive": ("xgpc", {"step_size": "adaptive"}),
    "svgp-adam": ("svgp-adam", {}),
    "svgp-natgrad": ("svgp-natgrad", {}),
    "epgpc": ("epgpc", {}),
    "epgpc-per-point": ("epgpc", {"sites": "per-point"}),
}


def engine_for(entrant, X, y, Z, seed=3):
    """The entrant's engine from `methods.build`."""
    method, options = ENTRANTS[entrant]
    return methods.build(
        method, X, y, Z, RBF(1.0, 1.0, 1e-4), batch_size=17, rng=np.random.default_rng(seed), **options
    )


def test_every_method_sees_the_same_minibatches_from_the_same_seed():
    X, y, Z = problem()
    sequences = {}
    for entrant in ENTRANTS:
        engine = engine_for(entrant, X, y, Z)
        assert isinstance(engine, SVIEngine)
        batches = []
        for _ in range(12):
            engine.step()
            batches.append(engine.last_batch.copy())
        sequences[entrant] = batches
    reference = sequences["xgpc"]
    assert all(len(np.unique(b)) == 17 and b.min() >= 0 and b.max() < len(y) for b in reference)
    assert len({tuple(np.sort(b)) for b in reference}) == len(reference)  # fresh minibatches, not one repeated
    for entrant, batches in sequences.items():
        for t, (ours, theirs) in enumerate(zip(reference, batches)):
            np.testing.assert_array_equal(theirs, ours, err_msg=f"{entrant}, iteration {t + 1}")


def test_minibatch_rule_draws_distinct_rows_and_full_batches_draw_nothing():
    rng = np.random.default_rng(0)
    for _ in range(50):
        index = minibatch_indices(rng, 30, 7)
        assert len(np.unique(index)) == 7 and 0 <= index.min() and index.max() < 30
    state = rng.bit_generator.state
    np.testing.assert_array_equal(minibatch_indices(rng, 30, 30), np.arange(30))
    assert rng.bit_generator.state == state


def assert_same_tree(a, b, path="state"):
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for key in a:
            assert_same_tree(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, z) in enumerate(zip(a, b)):
            assert_same_tree(x, z, f"{path}/{i}")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        np.testing.assert_array_equal(np.asarray(b), np.asarray(a), err_msg=path)
    else:
        assert a == b or (a != a and b != b), path  # NaN equals NaN here (ρ of SVGP-Adam)


@pytest.mark.parametrize("entrant", ENTRANTS)
def test_a_failing_iteration_leaves_the_state_bit_identical_and_training_continues_as_if_it_never_ran(
    entrant, monkeypatch
):
    X, y, Z = problem()
    engine, twin = engine_for(entrant, X, y, Z), engine_for(entrant, X, y, Z)
    engine.step(4)
    twin.step(4)
    before = copy.deepcopy(engine.state_dict())
    mu, Sigma = engine.mu.copy(), engine.Sigma.copy()

    def fail(self, X_b, y_b, context):  # the kernel step comes after q(u), ρ, the optimisers and the stream moved
        raise NumericalError("forced failure in the kernel step")

    with monkeypatch.context() as patch:
        patch.setattr(type(engine), "_minibatch_kernel_gradient", fail)
        with pytest.raises(NumericalError, match="forced"):
            engine.step(3)
    assert_same_tree(before, engine.state_dict())
    np.testing.assert_array_equal(engine.mu, mu)
    np.testing.assert_array_equal(engine.Sigma, Sigma)
    engine.step(5)
    twin.step(5)
    assert_same_tree(twin.state_dict(), engine.state_dict())
    assert engine.elbo() == twin.elbo()


def test_a_memory_mapped_source_trains_bit_identically_to_the_arrays(tmp_path):
    X, y, Z = problem(n=90)
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    source = NpySource(tmp_path / "X.npy", tmp_path / "y.npy")
    assert isinstance(source.X, np.memmap) and (source.n, source.d) == (90, 2)
    for entrant in ("xgpc", "svgp-natgrad"):
        in_memory = engine_for(entrant, X, y, Z)
        mapped = engine_for(entrant, source, None, Z)
        in_memory.step(15)
        mapped.step(15)
        np.testing.assert_array_equal(mapped.mu, in_memory.mu)
        np.testing.assert_array_equal(mapped.kernel.log_params, in_memory.kernel.log_params)
        assert mapped.elbo() == in_memory.elbo() and mapped.elbo(np.arange(0, 90, 4)) == in_memory.elbo(
            np.arange(0, 90, 4)
        )


def test_sources_check_what_they_are_given(tmp_path):
    X, y, _ = problem(n=20)
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y_pm1.npy", 2.0 * y - 1.0)
    np.save(tmp_path / "y_short.npy", y[:-1])
    with pytest.raises(ValueError, match=r"y_pm1.npy: y row \d+ \(0-based\) holds -1.0; labels must be class indices"):
        NpySource(tmp_path / "X.npy", tmp_path / "y_pm1.npy")
    with pytest.raises(ValueError, match="same n"):
        NpySource(tmp_path / "X.npy", tmp_path / "y_short.npy")
    with pytest.raises(ValueError, match="either a data source"):
        methods.build("xgpc", ArraySource(X, y), y, X[:3], RBF(1.0), batch_size=5, rng=np.random.default_rng(0))
    source = ArraySource(X, y)
    rows = np.concatenate(list(source.chunks(6)))
    np.testing.assert_array_equal(rows, np.arange(20))
    X_b, y_b = source.batch(np.array([4, 1]))
    np.testing.assert_array_equal(X_b, X[[4, 1]])
    np.testing.assert_array_equal(y_b, y[[4, 1]])


def test_the_package_face_offers_the_methods():
    from explorer import XGPC, SVGPAdam, SVGPNatGrad, Trainer

    assert all(issubclass(cls, SVIEngine) for cls in (XGPC, SVGPAdam, SVGPNatGrad))
    X, y, Z = problem(n=40)
    engine = XGPC(X, y, Z, RBF(1.0), batch_size=10, rng=np.random.default_rng(0))
    Trainer(engine, X, y, eval_every=5).step(5)
    assert engine.iteration == 5


def test_the_console_command_loads_the_dashboard_only_to_serve():
    code = (
        "import sys\nfrom explorer.__main__ import main\nmain(['data', 'list'])\nprint(sorted(m for m in "
        "sys.modules if m.split('.')[0] in ('panel', 'bokeh') or m.startswith('explorer.dashboard')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
