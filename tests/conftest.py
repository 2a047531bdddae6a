"""Shared pytest helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from plx_core.datasets import ENV_VAR, cache_dir, local_data_dir


def in_ci() -> bool:
    """True when the CI environment variable is set (to anything but empty/0/false/no)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_shared_data() -> Path:
    """The shared data directory (../shared/datasets or $PLX_DATA_DIR).

    When it is absent the test is skipped with the reason — except in CI (CI set), where a
    missing directory is a failure, so CI can never pass by skipping the real-data tests.
    """
    path = local_data_dir() or cache_dir()
    if not path.is_dir():
        msg = f"shared data sets not found at {str(path)!r} (set {ENV_VAR} to their folder)"
        if in_ci():
            pytest.fail(msg + "; CI is set, so missing data is an error, not a skip")
        pytest.skip(msg)
    return path


@pytest.fixture(scope="session")
def shared_data_dir() -> Path:
    """Fixture form of `require_shared_data`."""
    return require_shared_data()
