"""The package works outside the checkout: a wheel built from this tree, installed into a fresh virtual environment,
imports, fits, lists the data home and serves the app from a temporary directory.

The fresh environment borrows the test environment's third-party packages through a `.pth` line (a path added that
way is searched but its own `.pth` files, such as this checkout's editable install, are not run), so the wheel is the
only copy of `explorer` it can import and nothing is downloaded twice.
"""

import os
import site
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, console script, environment, working directory) of a fresh venv holding only the built wheel."""
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next((base / "dist").glob("xgpc_explorer-*.whl"))
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    env_site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (env_site / "borrowed-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        capture_output=True,
    )
    work = base / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "XGPC_DATA_DIR")}
    env.update(XGPC_CACHE_DIR=str(base / "cache"), OPENBLAS_NUM_THREADS="1")
    return python, env_dir / "bin" / "xgpc-explorer", env, work


def run(command, installed, **kwargs):
    _, _, env, work = installed
    return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=300, **kwargs)


def test_the_wheel_imports_its_own_copy_and_fits(installed):
    python = installed[0]
    code = (
        "import explorer, numpy as np\n"
        "from explorer import XGPClassifier, datasets\n"
        "from explorer.data.registry import PAPER_DATASETS\n"
        "X, y = datasets.load('moons', n=120, seed=0)\n"
        "clf = XGPClassifier(n_inducing=10, batch_size=60, max_iter=30, random_state=0).fit(X, y)\n"
        "print(explorer.__file__)\n"
        "print(len(PAPER_DATASETS), clf.score(X, y))\n"
    )
    result = run([str(python), "-c", code], installed)
    assert result.returncode == 0, result.stderr
    location, numbers = result.stdout.strip().splitlines()[-2:]
    assert Path(location).is_relative_to(python.parents[1]) and not Path(location).is_relative_to(ROOT)
    count, accuracy = numbers.split()
    assert int(count) >= 7 and float(accuracy) > 0.8


def test_the_console_command_lists_the_data_home_outside_a_checkout(installed):
    _, command, env, _ = installed
    result = run([str(command), "data", "list"], installed)
    assert result.returncode == 0, result.stderr
    assert env["XGPC_CACHE_DIR"] in result.stdout and "the project's data/" not in result.stdout
    assert "diabetes" in result.stdout and "How to get the missing ones" in result.stdout
    help_text = run([str(command), "--help"], installed)
    assert help_text.returncode == 0 and "serve" in help_text.stdout


def test_the_console_command_serves_the_page(installed):
    _, command, env, work = installed
    port = free_port()
    server = subprocess.Popen(
        [
            str(command),
            "serve",
            "--port",
            str(port),
            "--address",
            "127.0.0.1",
            "--allow-websocket-origin",
            f"127.0.0.1:{port}",
        ],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline, page = time.monotonic() + 120, None
        while page is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/explorer", timeout=60) as response:
                    page = (response.status, response.read().decode("utf-8", "replace"))
            except OSError:
                time.sleep(0.5)
        assert page is not None, f"the server did not answer: {server.poll()}"
        status, body = page
        assert status == 200 and "<title>X-GPC Explorer</title>" in body
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert "Traceback" not in output, output
