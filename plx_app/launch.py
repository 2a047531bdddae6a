"""`plx dashboard`: start the packaged dashboard with Streamlit, from any folder.

The settings of `config.toml` next to this file (upload limit, no usage statistics, no error
details for users …) are passed as command-line options, so the app behaves the same whether it
is started here or by `streamlit run app.py` in a checkout (which reads the same file through
`.streamlit/config.toml`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

from plx_app import APP, HERE

CONFIG = HERE / "config.toml"


def config_options(path: Path = CONFIG) -> dict[str, object]:
    """`section.key` → value for every setting in the dashboard's config file."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return {f"{section}.{key}": value for section, values in data.items()
            for key, value in values.items()}


def streamlit_argv(port: int = 8501, address: str = "127.0.0.1",
                   browser: bool = False) -> list[str]:
    """The arguments of `streamlit run` that start the dashboard."""
    opts = config_options()
    opts.update({"server.port": port, "server.address": address, "server.headless": not browser})
    argv = ["run", str(APP)]
    for name, value in opts.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        argv += [f"--{name}", text]
    return argv


def run(port: int = 8501, address: str = "127.0.0.1", browser: bool = False,
        extra: Sequence[str] = ()) -> int:
    """Start the dashboard and serve until stopped (Ctrl-C); returns the exit status."""
    from streamlit.web.cli import main as streamlit_main  # the `streamlit` command itself

    try:
        streamlit_main([*streamlit_argv(port, address, browser), *extra],
                       prog_name="plx dashboard", standalone_mode=False)
    except SystemExit as exc:  # streamlit ends its server with sys.exit
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return 0
