"""The package works outside the checkout: a wheel built from this tree by the README's own command (which leaves
`git status` as it was), installed into a fresh virtual environment, imports, fits, lists the data home, writes the
example files into it, names it in its advice and serves the app from a temporary directory.

The fresh environment borrows the test environment's third-party packages through a `.pth` line (a path added that
way is searched but its own `.pth` files, such as this checkout's editable install, are not run), so the wheel is the
only copy of `explorer` it can import and nothing is downloaded twice.
"""

import os
import re
import shlex
import site
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import venv
from pathlib import Path

import pytest
from early import Early

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow
# the README's command that builds the wheel (issue 28.5: `pip wheel .` wrote every dependency's wheel into the clone)
WHEEL_COMMAND = re.search(r"`(pip wheel [^`]*)`", (ROOT / "README.md").read_text(encoding="utf-8")).group(1)


def git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_early = Early()


def start_early(items, lane) -> None:
    """The wheel's build and install, then the commands the tests below only read, in `lane` (see
    conftest.start_early); the server test serves from the same install when its turn comes."""
    base = items[0].session.config._tmp_path_factory.mktemp("wheel")
    _early.submit(lane, "installed", install, base)
    names = {getattr(item, "originalname", "") for item in items}
    for name, commands in COMMANDS.items():
        if name in names:
            _early.submit(lane, name, run_commands_early, commands, base)


def install(base: Path) -> tuple[Path, Path, dict, Path]:
    """(python, console script, environment, working directory) of a fresh venv in `base` holding only the wheel
    built by the README's command."""
    command = shlex.split(WHEEL_COMMAND)
    assert command[:2] == ["pip", "wheel"] and "-w" in command, WHEEL_COMMAND
    folder = ROOT / command[command.index("-w") + 1]
    status, wheels = git_status(), {path: path.stat().st_mtime_ns for path in folder.glob("*.whl")}
    built = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    assert git_status() == status, f"`{WHEEL_COMMAND}` left files git sees in the checkout"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    wheel = folder / f"xgpc_explorer-{version}-py3-none-any.whl"
    written = [path for path in folder.glob("*.whl") if wheels.get(path) != path.stat().st_mtime_ns]
    assert written == [wheel], written  # the project's wheel alone, no dependency's
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


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return _early.result("installed", install, tmp_path_factory.mktemp("wheel"))


def run(command, installed, env=None):
    _, _, default_env, work = installed
    return subprocess.run(command, cwd=work, env=env or default_env, capture_output=True, text=True, timeout=300)


FIT = (
    "import explorer, numpy as np\n"
    "from explorer import XGPClassifier, datasets\n"
    "from explorer.data.registry import PAPER_DATASETS\n"
    "X, y = datasets.load('moons', n=120, seed=0)\n"
    "clf = XGPClassifier(n_inducing=10, batch_size=60, max_iter=30, random_state=0).fit(X, y)\n"
    "print(explorer.__file__)\n"
    "print(len(PAPER_DATASETS), clf.score(X, y))\n"
)
# each test's commands: (the installed python or console script, its arguments, whether $XGPC_DATA_DIR is `home`)
COMMANDS = {
    "test_the_wheel_imports_its_own_copy_and_fits": [("python", ["-c", FIT], False)],
    "test_the_console_command_lists_the_data_home_outside_a_checkout": [
        ("console", ["data", "list"], False),
        ("console", ["--help"], False),
    ],
    "test_the_data_examples_go_into_the_data_home_with_no_folder_given": [
        ("console", ["data", "examples"], False),
        ("python", ["-m", "explorer", "data", "examples"], True),
    ],
}


def run_commands(commands, installed, home: Path) -> tuple[Path, list[subprocess.CompletedProcess]]:
    """The data home `home` and the results of `commands` run one after the other in `installed`."""
    python, console, env, _ = installed
    return home, [
        run(
            [str(python if program == "python" else console), *arguments],
            installed,
            env=dict(env, XGPC_DATA_DIR=str(home)) if in_home else None,
        )
        for program, arguments, in_home in commands
    ]


def run_commands_early(commands, base: Path) -> tuple[Path, list[subprocess.CompletedProcess]]:
    """`run_commands` in the install the lane made in `base` before."""
    return run_commands(commands, _early.result("installed", install, base), base / "home")


def results(name: str, installed, tmp_path: Path) -> tuple[Path, list[subprocess.CompletedProcess]]:
    return _early.result(name, run_commands, COMMANDS[name], installed, tmp_path / "home")


def test_the_wheel_imports_its_own_copy_and_fits(installed, tmp_path):
    python = installed[0]
    _, (result,) = results("test_the_wheel_imports_its_own_copy_and_fits", installed, tmp_path)
    assert result.returncode == 0, result.stderr
    location, numbers = result.stdout.strip().splitlines()[-2:]
    assert Path(location).is_relative_to(python.parents[1]) and not Path(location).is_relative_to(ROOT)
    count, accuracy = numbers.split()
    assert int(count) >= 7 and float(accuracy) > 0.8


def test_the_console_command_lists_the_data_home_outside_a_checkout(installed, tmp_path):
    env = installed[2]
    _, (result, help_text) = results(
        "test_the_console_command_lists_the_data_home_outside_a_checkout", installed, tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert env["XGPC_CACHE_DIR"] in result.stdout and "the project's data/" not in result.stdout
    assert "diabetes" in result.stdout and "How to get the missing ones" in result.stdout
    advice = result.stdout.split("How to get the missing ones:")[1].strip().splitlines()
    assert advice and all(f"into the data home {env['XGPC_CACHE_DIR']} (" in line for line in advice), advice
    assert all("`xgpc-explorer data fetch" in line for line in advice), advice
    assert not any(words in result.stdout for words in ("python -m explorer", "data/README.md", "into data/"))
    assert help_text.returncode == 0 and "serve" in help_text.stdout


def test_the_data_examples_go_into_the_data_home_with_no_folder_given(installed, tmp_path):
    """Issue 28.4: `xgpc-explorer data examples` crashed (TypeError, NoneType) unless --to was given."""
    env = installed[2]
    cache_examples = Path(env["XGPC_CACHE_DIR"]) / "examples"
    names = sorted(path.name for path in (ROOT / "data" / "examples").iterdir())
    # the second run: $XGPC_DATA_DIR moves the data home, for `python -m explorer` too
    home, (result, moved) = results(
        "test_the_data_examples_go_into_the_data_home_with_no_folder_given", installed, tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in cache_examples.iterdir()) == names
    assert str(cache_examples) in result.stdout.splitlines()[0]
    result = moved
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in (home / "examples").iterdir()) == names
    assert str(home / "examples") in result.stdout.splitlines()[0]


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
