"""The dashboard's logic without Streamlit: per-session state, caches and the calls into plx_core."""

from .session import *  # noqa: F401,F403
from .session import __all__ as _session_all

__all__ = list(_session_all)
