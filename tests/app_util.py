"""The dashboard's workspace the page and service tests build on (no Streamlit here)."""

from __future__ import annotations

from dataclasses import replace

from plx_app.service import KBSettings, new_workspace, raw_default


def classic_settings():
    """The diagnosis set as `plx_core.datasets.breast_cancer_default()` defines it: three
    equal-frequency bins of the whole table (how projects saved before cut points were fitted
    on training rows read it; the dashboard now opens on the estimator's cuts)."""
    raw = raw_default()
    return raw, replace(raw.defaults, method="quantile", bins=3, cut_on="table")


def classic_workspace(build: bool = True):
    """A workspace on the diagnosis set with those fixed bins and the full Direct KB: the
    page tests' numbers (2,014 clauses, the bins' labels) stay what the paper's set gives,
    apart from plx's default, which `tests/test_app_model.py` and the defaults' tests cover."""
    raw, settings = classic_settings()
    return new_workspace(raw, settings, build=build, kb=KBSettings("direct"))
