"""The X-GPC Explorer dashboard: the only package that imports Panel (DESIGN §1).

`Dashboard(model)` shows a `Model` in a notebook (after `pn.extension("filedropper", notifications=True)`: the upload
widget's script and notifications) or a served page; `serve_app()` builds the page for one browser session of
`panel serve apps/explorer.py`; `serve_in_background` serves it from a thread (tests, benchmarks).
"""

from explorer.dashboard.app import Dashboard
from explorer.dashboard.serve import serve_app, serve_in_background

__all__ = ["Dashboard", "serve_app", "serve_in_background"]
