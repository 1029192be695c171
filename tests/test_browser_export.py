"""The Train tab's downloads in headless Debian Chromium (Playwright): a click on "Surface" gives the browser a PNG
of the decision surface drawn off the event loop, while the page stays live. The helpers and the Chromium fixtures
are those of test_browser.py and conftest.py."""

import numpy as np
import pytest
from PIL import Image
from test_browser import LIVE_POINTS, TIMEOUT_MS, open_app, served  # noqa: F401 (served: the in-process server)

pytestmark = pytest.mark.browser


def test_the_surface_downloads_as_a_png(served, page, tmp_path):
    dashboard, errors = open_app(page, *served)
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        page.get_by_role("button", name="Surface").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == "xgpc-surface.png"
    image = Image.open(path)
    assert image.format == "PNG"
    rgb = np.asarray(image.convert("RGB"), dtype=float)
    assert rgb.std() > 0 and len(np.unique(rgb.reshape(-1, 3), axis=0)) > 20
    page.get_by_role("button", name="Step").click()
    page.wait_for_function(f"() => ({LIVE_POINTS})() >= 2", timeout=TIMEOUT_MS)
    assert errors == []
