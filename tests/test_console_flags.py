"""The console command refuses a bad flag the way argparse does (issue 30, items 4, 5, 8, 9): exit status 2 and one
line naming the flag and the value, no traceback, before any heavy work (Panel is not imported for `serve`; no data
are read and nothing is trained for `bench`). Two cases run `python -m explorer …` in a subprocess, as a user types
it; the others call the same `explorer.__main__.main` in this process (a subprocess spends ≈ 3 s importing)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest
from early import Early

ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}


ARGVS = [("serve", "--port", "70000"), ("bench", "multiclass", "--m", "0")]
_early = Early()


def run_console(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *argv], capture_output=True, text=True, env=ENV, timeout=300
    )


def start_early(items, lane) -> None:
    """The `python -m explorer` runs of test_the_console_command_itself_exits_2_with_one_line, in `lane` (see
    conftest.start_early)."""
    for item in items:
        if getattr(item, "originalname", "") == "test_the_console_command_itself_exits_2_with_one_line":
            argv = item.callspec.params["argv"]
            _early.submit(lane, argv, run_console, *argv)


def refused(*argv: str) -> str:
    """The one line `python -m explorer ARGV` ends with (exit status 2 asserted, no traceback)."""
    done = _early.result(argv, run_console, *argv)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "error: " in done.stderr, done.stderr
    return done.stderr


def refused_here(capsys, *argv: str) -> str:
    """`refused` through `explorer.__main__.main(ARGV)` in this process: SystemExit 2 and one line on stderr."""
    from explorer.__main__ import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "", (stop.value.code, out)
    assert "Traceback" not in err and err.count("\n") == 1 and "error: " in err, err
    return err


@pytest.mark.parametrize("argv", ARGVS)
def test_the_console_command_itself_exits_2_with_one_line(argv):
    message = refused(*argv)
    assert ("--port" in message and "'70000'" in message) or ("n_inducing" in message and "got 0" in message)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--port", "-1"], ["--port", "'-1'", "from 0 to 65535"]),
        (["--port", "70000"], ["--port", "'70000'", "from 0 to 65535"]),
        (["--num-procs", "1000"], ["--num-procs", "'1000'", f"from 0 to {os.cpu_count()}"]),
        (["--num-procs", "-1"], ["--num-procs", "'-1'", f"from 0 to {os.cpu_count()}"]),
        (["--address", "no-such-host.invalid"], ["--address", "'no-such-host.invalid'", "not an address of this"]),
        (["--address", "192.0.2.1"], ["--address", "'192.0.2.1'", "not an address of this machine"]),  # TEST-NET-1
    ],
)
def test_serve_refuses_a_bad_port_address_or_process_count_in_one_line(capsys, argv, words):
    message = refused_here(capsys, "serve", *argv)
    assert message.startswith("xgpc-explorer serve: error: argument "), message
    assert all(word in message for word in words), message


def test_serve_refuses_a_port_in_use_before_starting_the_server(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = refused_here(capsys, "serve", "--address", "127.0.0.1", "--port", str(port))
    assert f"argument --port: port {port} is in use on 127.0.0.1" in message


def test_serve_function_refuses_the_same_values():
    from explorer.dashboard.serve import serve

    for kwargs, words in (
        ({"port": 70000}, "port must be a whole number from 0 to 65535, got 70000"),
        ({"num_procs": -1}, f"num_procs must be a whole number from 0 to {os.cpu_count()}"),
        ({"port": True}, "port must be a whole number from 0 to 65535, got True"),
    ):
        with pytest.raises(ValueError, match=words):
            serve(**kwargs)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["table1", "--folds", "0"], ["--folds", "'0'", "at least 1"]),
        (["table1", "--seconds", "-5"], ["--seconds", "'-5'", "above 0"]),
        (["race", "--option", "garbage"], ["--option", "'garbage'", "METHOD.KEY=VALUE"]),
        (["race", "--option", "xgpc.bogus=1"], ["--option", "'xgpc.bogus=1'", "xgpc has no option 'bogus'"]),
        (["race", "--option", "xgpc.rho=2"], ["--option", "'xgpc.rho=2'", "rho must be a finite number above 0"]),
        (["race", "--seconds", "0"], ["--seconds", "'0'", "above 0"]),
        (["multiclass", "--m", "0"], ["--n-inducing/--m", "n_inducing", "got 0", "from 1 to 2000"]),
        (["multiclass", "--batch-size", "-3"], ["--batch-size", "batch_size", "got -3", "at least 1"]),
        (["multiclass", "--seed", "-1"], ["--seed", "seed", "got -1", "at least 0"]),
        (["gibbs", "--chains", "0"], ["--chains", "'0'", "at least 1"]),
        (["gibbs", "--sizes", "-5"], ["--sizes", "'-5'", "at least 2"]),
        (["scale", "--n", "-5"], ["--n", "'-5'", "at least 2"]),
        (["scale", "--option", "epgpc.sites=bogus"], ["--option", "unknown sites 'bogus'", "tied, per-point"]),
    ],
)
def test_a_bad_bench_flag_is_one_line_before_any_work(capsys, argv, words):
    message = refused_here(capsys, "bench", *argv)
    assert message.startswith(f"python -m explorer bench {argv[0]}: error: argument "), message
    assert all(word in message for word in words), message
