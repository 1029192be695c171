"""`panel serve apps/explorer.py`: the X-GPC Explorer, with its own Model and training thread per browser session."""
from explorer.dashboard import serve_app

serve_app().servable(title="X-GPC Explorer")
