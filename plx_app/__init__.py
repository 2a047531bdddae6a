"""The plx dashboard, shipped inside the package: `plx dashboard` (or `streamlit run app.py` in a
checkout) starts it.

- `app.py` builds the navigation; `views/` hold the page scripts (widgets only);
- `widgets.py` and `state.py` are the Streamlit glue (safe text, errors, progress, session state);
- `service/` is the dashboard's logic without Streamlit (per-session state, caches, the calls into
  `plx_core`), tested on its own.

Importing this package does not import Streamlit.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
APP = HERE / "app.py"  # the script `streamlit run` starts (found the way `streamlit hello` finds its own)
