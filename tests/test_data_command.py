"""`xgpc-explorer data examples` with no `--to`, and what the data commands and the Data tab tell a user, from a
checkout and as an installed package (issue 28.4 and 28.6): each names the data home this process really uses
($XGPC_DATA_DIR, a checkout's data/, else the user cache) and the console command `xgpc-explorer`, never a checkout's
`data/` that an installed package does not have. The installed wheel itself is run in tests/test_wheel.py."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.__main__ import main
from explorer.data import data_command, registry

ROOT = Path(__file__).resolve().parents[1]
COMMITTED_EXAMPLES = ROOT / "data" / "examples"
CHECKOUT_ONLY = ("python -m explorer", "data/README.md", "into data/", "data/examples")


def _data_home_elsewhere(tmp_path, monkeypatch, *, installed: bool) -> Path:
    """Point the data home away from this checkout: as an installed package (no project data/, so the user cache
    tmp_path/cache) or by $XGPC_DATA_DIR (tmp_path/home). Returns the data home the messages must name."""
    monkeypatch.setattr(registry, "SHARED_DATA_DIR", tmp_path / "no-shared")
    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    if installed:
        monkeypatch.setattr(registry, "PROJECT_DATA_DIR", None)
        monkeypatch.delenv("XGPC_DATA_DIR", raising=False)
        return tmp_path / "cache"
    monkeypatch.setattr(registry, "PROJECT_DATA_DIR", tmp_path / "project-data")
    monkeypatch.setenv("XGPC_DATA_DIR", str(tmp_path / "home"))
    return tmp_path / "home"


def test_data_examples_with_no_folder_writes_into_the_data_home_from_a_checkout(tmp_path):
    """Issue 28.4: the command crashed (TypeError, NoneType) unless --to was given."""
    home = tmp_path / "home"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environment.update(XGPC_DATA_DIR=str(home), OPENBLAS_NUM_THREADS="1")
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "data", "examples"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    written = sorted(path.name for path in (home / "examples").iterdir())
    assert written == sorted(path.name for path in COMMITTED_EXAMPLES.iterdir())
    for name in written:
        assert (home / "examples" / name).read_bytes() == (COMMITTED_EXAMPLES / name).read_bytes(), name
    first, *files = result.stdout.splitlines()
    assert str(home / "examples") in first
    assert sorted(line.strip() for line in files) == written


@pytest.mark.parametrize("setting", ["checkout", "installed"])
def test_data_examples_defaults_to_the_examples_folder_of_the_data_home(setting, tmp_path, monkeypatch, capsys):
    """A checkout with no $XGPC_DATA_DIR writes into its data/examples/; an installed package into the user cache."""
    monkeypatch.delenv("XGPC_DATA_DIR", raising=False)
    monkeypatch.setenv("XGPC_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "project-data" if setting == "checkout" else None
    monkeypatch.setattr(registry, "PROJECT_DATA_DIR", project)
    expected = (project if project is not None else tmp_path / "cache") / "examples"
    assert main(["data", "examples"]) == 0
    assert sorted(path.name for path in expected.iterdir()) == sorted(e.file for e in data_command.EXAMPLES)
    assert str(expected) in capsys.readouterr().out


@pytest.mark.parametrize("installed", [False, True], ids=["data-dir-variable", "installed"])
def test_data_list_names_the_data_home_and_the_console_command(installed, tmp_path, monkeypatch, capsys):
    """Issue 28.6: `data list` said to put files into data/ and to read data/README.md, which an installed package
    does not have, and to run `python -m explorer`."""
    home = _data_home_elsewhere(tmp_path, monkeypatch, installed=installed)
    assert main(["data", "list"]) == 0
    out = capsys.readouterr().out
    advice = out.split("How to get the missing ones:")[1].strip().splitlines()
    assert len(advice) == len(registry.PAPER_DATASETS)  # nothing is found in the empty data home
    for line in advice:
        name = line.strip().partition(":")[0]
        assert f"into the data home {home} (" in line, line
        assert f"`xgpc-explorer data fetch {name}" in line, line
        assert not any(words in line for words in CHECKOUT_ONLY), line


@pytest.mark.parametrize("installed", [False, True], ids=["data-dir-variable", "installed"])
def test_the_data_tab_names_the_data_home_and_the_console_command(installed, tmp_path, monkeypatch):
    from explorer.dashboard.data import examples_hint, paper_sets_text

    home = _data_home_elsewhere(tmp_path, monkeypatch, installed=installed)
    rows = [dict(row, available=False) for row in registry.paper_availability()]
    text = paper_sets_text(rows)
    fetchable = [name for name, spec in registry.PAPER_DATASETS.items() if spec.openml_id is not None]
    assert f"`xgpc-explorer data fetch {' '.join(fetchable)}` downloads them from OpenML into `{home}`" in text
    assert "`xgpc-explorer data list` says where the files come from" in text
    hint = examples_hint()
    assert f"`{home / 'examples'}`" in hint and "`xgpc-explorer data examples`" in hint
    for message in (text, hint):
        assert not any(words in message for words in CHECKOUT_ONLY), message


def test_no_message_in_the_package_sends_a_user_to_python_m_explorer_data():
    """The data commands are named one way everywhere: `xgpc-explorer data …` (an editable install has it too)."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "explorer").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "python -m explorer data" in line
    ]
    assert not found, found
