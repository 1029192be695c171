"""Issue 30's unhelpful errors and the hang, each through the face a user meets it by: a Dask scheduler's address
(`bench --scheduler`, `serve --scheduler`, `$XGPC_SCHEDULER`, `test_scores(client=...)`), `data fetch` from a mirror
that trickles bytes, the K-class Gibbs sampler at a huge kernel variance, a link naming a pair that cannot go
together or a long seed, `live(draw)` with a draw that is not a drawing, `kernel_from_state` with a text length
scale, and uploads from a script without the main-module guard."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from early import Early

from explorer.dask_scheduler import SchedulerError, check_scheduler

ENVIRONMENT = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
SUBPROCESS_LIMIT = (
    120  # s: a failsafe for a command that should end by itself (without the checks a server never would)
)


def free_port() -> int:
    """A loopback port where nothing listens: bound, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


MALFORMED = ("garbage", "is not a Dask scheduler's address: write it as tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)")


def nothing_listens() -> tuple[str, str]:
    """A loopback address where nothing listens, and what the message must say."""
    port = free_port()
    return f"tcp://127.0.0.1:{port}", f"nothing listens on 127.0.0.1 port {port} (connection refused)"


def run_command(*arguments: str, environment: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m explorer ARGUMENTS…` in a fresh process, killed if it is still running after SUBPROCESS_LIMIT."""
    return subprocess.run(
        [sys.executable, "-m", "explorer", *arguments],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_LIMIT,
        env=environment or ENVIRONMENT,
    )


BENCH = ("bench", "table1", "--quick", "--no-write-md", "--scheduler")
_early = Early()


def start_early(items, lane) -> None:
    """The subprocesses of the bench refusals and of the script without the main guard, in `lane` (see
    conftest.start_early)."""
    for item in items:
        name = getattr(item, "originalname", "")
        if name == "test_bench_refuses_a_scheduler_that_does_not_answer_at_start":
            address = item.callspec.params["address"]
            _early.submit(lane, address, run_command, *BENCH, address)
        elif name == "test_an_upload_from_a_script_without_the_main_guard_says_to_add_it":
            folder = item.session.config._tmp_path_factory.mktemp("no_guard")
            _early.submit(lane, "no guard", run_without_the_main_guard, folder)


@pytest.mark.parametrize("address, says", [MALFORMED, nothing_listens()], ids=["malformed", "nothing listens"])
def test_bench_refuses_a_scheduler_that_does_not_answer_at_start(address, says):
    done = _early.result(address, run_command, *BENCH, address)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr
    assert last.startswith("python -m explorer bench table1: error: argument --scheduler: the scheduler ")
    assert repr(address) in last and says in last


@pytest.mark.parametrize(
    "given_as, address, says",
    [("--scheduler", *MALFORMED), ("$XGPC_SCHEDULER", *nothing_listens())],
    ids=["malformed flag", "nothing listens in the environment"],
)
def test_serve_refuses_a_scheduler_that_does_not_answer_before_serving(address, says, given_as):
    """Without the check the server starts and serves (the subprocess would only end at the failsafe)."""
    arguments = ["serve", "--port", str(free_port()), "--address", "127.0.0.1"]
    environment = {**ENVIRONMENT, "XGPC_SCHEDULER": address} if given_as.startswith("$") else None
    if environment is None:
        arguments += ["--scheduler", address]
    done = run_command(*arguments, environment=environment)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith(f"xgpc-explorer serve: error: {given_as} {address!r}")
    assert says in message
    if "nothing listens" in says:
        assert "`dask scheduler`" in message


@pytest.mark.parametrize(
    "address, says",
    [
        ("tcp://127.0.0.1:99999", "port 99999 is beyond 1…65535"),
        ("tcp://127.0.0.1:port", "write it as tcp://HOST:PORT"),
        ("udp://127.0.0.1:8786", "unknown address scheme 'udp'"),
        ("tcp://no-such-host.invalid:8786", "the host 'no-such-host.invalid' is unknown"),
    ],
)
def test_the_check_names_what_is_wrong_with_an_address(address, says):
    with pytest.raises(SchedulerError, match=f"^the scheduler {address!r}") as refused:
        check_scheduler(address, 2.0)
    assert says in str(refused.value)


def test_a_scheduler_that_answers_passes_the_check():
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None) as cluster:
        assert check_scheduler(cluster.scheduler_address) == cluster.scheduler_address


def test_a_server_that_is_not_a_scheduler_is_named_as_such():
    """A listening socket that accepts and never answers (not a Dask scheduler): refused within the check's time."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(SchedulerError, match=r"no Dask scheduler answered within 1 s\. Is it a Dask scheduler"):
            check_scheduler(address, 1.0)


@pytest.fixture(scope="module")
def trained_run():
    from explorer.data import datasets
    from explorer.run import Run, streams

    X, y = datasets.load("banana-like", n=300, seed=5)
    X_tr, X_te, y_tr, y_te = datasets.train_test_split(X, y, 0.6, streams(1).split)
    run = Run({"n_inducing": 5, "batch_size": 20, "seed": 1, "eval_points": 100}, X_tr, y_tr, X_te, y_te)
    run.trainer.step(3)
    return run


def test_test_scores_refuses_an_address_in_place_of_a_client(trained_run):
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(TypeError, match=r"client must be a distributed\.Client, got str .*distributed\.Client\("):
        trained_run.test_scores(client=address)


def test_test_scores_refuses_a_closed_client(trained_run):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        client = Client(cluster)
        client.close()
        with pytest.raises(ValueError, match=r"client: the Dask client is closed; pass an open one"):
            trained_run.test_scores(client=client)


@contextlib.contextmanager
def trickling_server(every: float = 0.25, most: int = 60):
    """A loopback server answering one request with an HTTP response sent one byte every `every` seconds, its status
    line and headers included, and closing after `most` bytes (so it stops by itself); yields its base URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(SUBPROCESS_LIMIT)
    stop = threading.Event()
    response = (
        b"HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000
    )

    def trickle():
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        with connection:
            connection.settimeout(SUBPROCESS_LIMIT)
            connection.recv(65536)  # the request (read, so that closing sends no reset)
            for byte in response[:most]:
                if stop.wait(every):
                    break
                try:
                    connection.sendall(bytes([byte]))
                except OSError:  # the client gave up
                    break

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()
        thread.join()


def test_data_fetch_from_a_mirror_that_trickles_even_its_headers_ends_at_the_deadline(tmp_path, capsys):
    """Each byte comes well within the per-read timeout, so without an overall deadline over the headers too the
    download would wait for the whole status line and headers (15 s here, and for ever from a server that never
    ends its headers) and then fail on the server's close: the deadline's message names how little arrived."""
    from explorer.__main__ import main

    with trickling_server() as mirror:
        code = main(
            ["data", "fetch", "banana", "--from", mirror, "--to", str(tmp_path), "--deadline", "1.5", "--quiet"]
        )
    assert code == 1
    assert capsys.readouterr().err == (
        f"error: {mirror}/banana.npz: only 0 bytes arrived within the deadline of 1.5 s; the server is too slow (try "
        "again later, or another mirror)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_data_fetch_names_a_download_cut_short_of_its_announced_length(tmp_path, capsys):
    from explorer.__main__ import main

    header = b"HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
    with trickling_server(every=0.0, most=len(header) + 10) as mirror:
        code = main(["data", "fetch", "banana", "--from", mirror, "--to", str(tmp_path), "--quiet"])
    assert code == 1
    assert capsys.readouterr().err == (
        f"error: {mirror}/banana.npz: the server announced 1,000 bytes but sent 10; it was not kept\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_data_fetch_help_states_the_overall_deadline(capsys):
    from explorer.__main__ import main

    with pytest.raises(SystemExit):
        main(["data", "fetch", "--help"])
    assert "after this many seconds in all, connecting and a server that trickles its bytes included" in " ".join(
        capsys.readouterr().out.split()
    )


# ------------------------------------------------------------------------------------------------- a shared link


@pytest.mark.parametrize(
    "search, kept, problem",
    [
        (
            "?dataset=spiral-3&method=epgpc&n_inducing=30",
            {"dataset": "spiral-3", "n_inducing": 30},
            "EPGPC is two-class only; spiral-3 has 3 classes: the method stays X-GPC",
        ),
        (
            "?dataset=xor-3&method=svgp-adam&link=probit",
            {"dataset": "xor-3", "method": "svgp-adam"},
            "the probit link is two-class only; xor-3 has 3 classes: the link stays logit",
        ),
    ],
)
def test_a_link_pairing_a_two_class_method_with_a_k_class_set_keeps_the_rest(search, kept, problem):
    """The whole link used to be dropped (the page on its defaults) in the engine's words; now only the key that
    cannot go with the others is left out, named in the user's terms, and the model takes the rest."""
    from explorer.dashboard import controls
    from explorer.model import Model

    model = Model(dataset="moons", n_points=100)
    changes, problems = controls.settings_from_query(search, model)
    assert changes == kept and problems == [problem]
    model.param.update(**changes)
    assert {name: getattr(model, name) for name in kept} == kept
    assert len(model.classes) == 3


def test_a_link_naming_a_k_class_set_for_a_two_class_method_keeps_the_method_and_the_data():
    from explorer.dashboard import controls
    from explorer.model import Model

    model = Model(dataset="moons", n_points=100, method="epgpc")
    changes, problems = controls.settings_from_query("?dataset=blobs-3&seed=4", model)
    assert changes == {"seed": 4}
    assert problems == ["EPGPC is two-class only; blobs-3 has 3 classes: the data set stays moons"]


def test_a_link_takes_a_seed_of_any_length_the_model_takes():
    from explorer.dashboard import controls
    from explorer.model import Model

    model = Model(dataset="moons", n_points=100)
    seed = 10**30 + 7  # 31 digits
    changes, problems = controls.settings_from_query(f"?seed={seed}", model)
    assert changes == {"seed": seed} and problems == []
    model.param.update(**changes)  # the Model takes it too
    assert model.seed == seed
    changes, problems = controls.settings_from_query("?seed=-1234567890123", model)
    assert changes == {} and len(problems) == 1 and problems[0].endswith("is out of range (at least 0)")


# ------------------------------------------------------------------------ live views, kernel states, the main guard


def test_live_names_what_a_draw_returned_that_is_not_a_holoviews_object():
    from explorer.dashboard.live import live
    from explorer.model import Model

    model = Model(dataset="moons", n_points=100)
    with pytest.raises(TypeError, match=r"draw\(model\) must return a HoloViews object .* it returned builtins\.dict"):
        live(model, lambda m: {"iteration": m.iteration})


@pytest.mark.parametrize(
    "state, says",
    [
        ({"lengthscale": "0.5", "variance": 1.0, "nugget": 1e-6}, "kernel lengthscale must be a number, got str '0.5'"),
        ({"lengthscale": [0.5, "x"], "variance": 1.0, "nugget": 1e-6}, "kernel lengthscale must be real numbers"),
        ({"lengthscale": 0.5, "variance": "big", "nugget": 1e-6}, "kernel variance must be a number, got str 'big'"),
        ({"variance": 1.0}, "the kernel's state lacks lengthscale, nugget; it holds variance"),
    ],
)
def test_a_kernel_state_with_text_or_missing_values_is_a_value_error_naming_them(state, says):
    from explorer.kernels import kernel_from_state

    with pytest.raises(ValueError) as refused:
        kernel_from_state(state)
    assert says in str(refused.value)


def run_without_the_main_guard(folder: Path) -> subprocess.CompletedProcess:
    """A script in `folder` that starts the upload parser at its top level, run in a fresh Python."""
    script = folder / "no_guard.py"
    script.write_text(
        "import asyncio\n"
        "from explorer.dashboard.upload import parse_in_process\n"
        "try:\n"
        "    asyncio.run(parse_in_process(b'a,b\\n1,0\\n2,1\\n', 'x.csv', 'b'))\n"
        "except RuntimeError as err:\n"
        "    print('refused:', err, flush=True)\n"
    )
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=SUBPROCESS_LIMIT, env=ENVIRONMENT
    )


def test_an_upload_from_a_script_without_the_main_guard_says_to_add_it(tmp_path):
    """A script that starts the upload parser at its top level: the parser's process ("spawn") runs the script again,
    where starting the parser once more fails in multiprocessing's words; the message says what to add."""
    done = _early.result("no guard", run_without_the_main_guard, tmp_path)
    refusals = [line for line in done.stdout.splitlines() if line.startswith("refused:")]
    assert len(refusals) == 1  # in the parser's process; the script's own upload is read
    assert refusals[0].endswith('put that code under `if __name__ == "__main__":` in your script and start it again'), (
        refusals
    )


# -------------------------------------------------------------------------------------------- the K-class sampler


def test_the_k_class_gibbs_sampler_names_a_kernel_variance_too_large_for_its_counts():
    """At the settings' largest kernel variance (1e6) whole rows start with every latent value deep below 0, and the
    augmentation's Poisson rate passes what numpy draws ("lam value too large"; at 1e4 the counts pass 1e9 and a
    sweep would take hours): the sampler refuses, naming the kernel variance and what to do."""
    import numpy as np

    from explorer.data import datasets
    from explorer.gibbs_multiclass import MulticlassGibbsSampler
    from explorer.kernels import make_kernel

    X, y = datasets.load("blobs-3", n=60, seed=1)
    sampler = MulticlassGibbsSampler(
        X, y, make_kernel("rbf", 1.0, 1e6), 3, rng=np.random.default_rng(0), n_chains=2, burn_in=5, n_samples=10
    )
    with pytest.raises(
        ValueError, match=r"cannot go on at kernel variance σ² = 1e\+06: at row \d+ every class's"
    ) as no:
        sampler.step(15)
    assert str(no.value).endswith(
        "Use a smaller kernel variance (a prior sd of 1e+03 is far wider than a classifier's "
        "latent values need; σ² ≤ 1e3 runs in seconds)"
    )
