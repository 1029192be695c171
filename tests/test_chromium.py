"""Which Chromium the browser tests, the served-dashboard benchmark and the screenshots launch, and what they say
when there is none."""

import pytest

from explorer.dashboard import chromium


def test_the_path_comes_from_the_environment_with_debians_as_default(monkeypatch, tmp_path):
    monkeypatch.delenv("XGPC_CHROMIUM", raising=False)
    assert str(chromium.executable()) == "/usr/bin/chromium"
    browser = tmp_path / "my-chromium"
    browser.write_text("")
    monkeypatch.setenv("XGPC_CHROMIUM", str(browser))
    assert chromium.executable() == browser and chromium.missing() is None


def test_a_missing_browser_is_named_with_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setenv("XGPC_CHROMIUM", str(tmp_path / "nowhere"))
    problem = chromium.missing()
    assert str(tmp_path / "nowhere") in problem and "$XGPC_CHROMIUM" in problem and "chromium" in problem
    with pytest.raises(FileNotFoundError, match="no Chromium at .*nowhere"):
        chromium.launch(playwright=None)  # refused before Playwright is touched
