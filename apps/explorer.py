"""`panel serve apps/explorer.py`: the X-GPC Explorer, with its own Model and training thread per browser session."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent  # panel puts this folder on sys.path, where this file would shadow the package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
import panel as pn  # noqa: E402

from explorer.dashboard import serve_app  # noqa: E402
from explorer.dashboard.budget import RefreshBudget  # noqa: E402

# Panel runs this file anew for each session: the server's one RefreshBudget is kept in Panel's cache of the process
serve_app(budget=pn.state.as_cached("xgpc-refresh-budget", RefreshBudget)).servable(title="X-GPC Explorer")
