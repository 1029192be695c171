"""`panel serve apps/explorer.py`: the X-GPC Explorer, with its own Model and training thread per browser session."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent  # panel puts this folder on sys.path, where this file would shadow the package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
from explorer.dashboard import serve_app  # noqa: E402

serve_app().servable(title="X-GPC Explorer")
