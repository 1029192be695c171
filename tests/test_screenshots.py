"""The README's screenshots are made by a command (`python -m explorer.tools.screenshots`): the README shows every
tab's picture from where the command writes it, and the command drives the served app in Chromium."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from early import Early
from PIL import Image

from explorer.tools import screenshots

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_shows_each_tab_from_where_the_command_writes_it():
    linked = re.findall(r"\]\((docs/screenshots/[^)]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    expected = [f"docs/screenshots/{screenshots.file_name(tab)}" for tab in screenshots.TABS]
    assert sorted(linked) == sorted(expected)
    assert screenshots.DOCS == ROOT / "docs" / "screenshots"
    assert all((ROOT / path).is_file() for path in expected)
    assert "python -m explorer.tools.screenshots" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_without_a_browser_the_command_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("XGPC_CHROMIUM", str(tmp_path / "no-browser"))
    assert screenshots.main(["--out", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no Chromium at" in error and not list(tmp_path.glob("*.png"))


_early = Early()


def start_early(items, lane) -> None:
    """The command's run of test_the_command_pictures_a_tab_of_the_served_app, in `lane` (see conftest.start_early)."""
    if any(getattr(item, "originalname", "") == "test_the_command_pictures_a_tab_of_the_served_app" for item in items):
        folder = items[0].session.config._tmp_path_factory.mktemp("screenshots")
        _early.submit(lane, "data tab", picture_the_data_tab, folder)


def picture_the_data_tab(folder: Path) -> tuple[Path, subprocess.CompletedProcess]:
    """`folder` and the run of the command that pictures the Data tab into it."""
    command = [
        sys.executable,
        "-m",
        "explorer.tools.screenshots",
        "--tabs",
        "Data",
        "--width",
        "1024",
        "--height",
        "768",
        "--out",
        str(folder),
    ]
    return folder, subprocess.run(command, capture_output=True, text=True, timeout=600)


@pytest.mark.browser
def test_the_command_pictures_a_tab_of_the_served_app(tmp_path, browser_type_launch_args):
    """Run as a user runs it, in its own process (the Playwright tests leave an event loop in this one, under which a
    second sync Playwright cannot start). `browser_type_launch_args` (conftest): skipped without a browser, failed on
    CI."""
    folder, result = _early.result("data tab", picture_the_data_tab, tmp_path)
    assert result.returncode == 0, result.stderr
    (path,) = folder.glob("*.png")
    image = Image.open(path)
    assert path.name == "data.png" and image.size[0] >= 1024 and image.size[1] >= 768  # the whole page
    colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # a drawn page, not a blank one
