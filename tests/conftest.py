"""Shared pytest helpers, and the `slow` mark for tests measured above ~3 s.

`python -m pytest -m "not slow"` is the quick subset (under two minutes on two cores); CI runs
everything. Tests in the dashboard's files carry `@pytest.mark.slow` themselves; the others,
measured with `--durations` (in a loaded run: ≥ 2.5 s), are listed in `SLOW` so their files
need no edit. A test may always carry the mark itself.
"""

from __future__ import annotations

import contextlib
import os
import sys
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


SLOW = {
    "test_cli.py::test_a_chosen_confidence_weighted_kb_is_saved_with_its_weights",
    "test_cli.py::test_the_installed_command_exits_2_without_a_traceback",
    "test_direct.py::test_counts_equal_brute_force",
    "test_direct.py::test_many_features_fall_back_to_per_subset_counting",
    "test_direct.py::test_memory_guard_says_what_to_do",
    "test_estimator.py::test_sklearn_estimator_contract",
    "test_explain.py::test_beam_agrees_with_exhaustive_on_small_cases",
    "test_explain.py::test_explanation_accuracy_on_syn_10_4_reaches_the_papers_direct_row",
    "test_explain.py::test_forest_kb_explanations_and_shapley_go_through_the_lp",
    "test_fastpath.py::test_answers_do_not_depend_on_row_or_clause_order",
    "test_fastpath.py::test_batched_queries_equal_single_queries",
    "test_fastpath.py::test_full_semantics_auto_equals_lp",
    "test_fastpath.py::test_median_equals_lp_on_direct_kbs",
    "test_fastpath.py::test_tree_kb_full_queries_take_the_median_path",
    "test_fuzz.py::test_clause_text_made_of_tokens_never_crashes",
    "test_fuzz.py::test_export_import_round_trip_is_lossless",
    "test_fuzz.py::test_kb_json_import_never_crashes",
    "test_fuzz.py::test_query_inputs_never_crash",
    "test_hostile_data.py::test_a_column_of_many_distinct_values_is_flagged_not_built",
    "test_lp.py::test_answers_do_not_depend_on_clause_order",
    "test_lp.py::test_auto_method_agrees_with_the_lp",
    "test_lp.py::test_domain_constraint_variant_matches_reference",
    "test_lp.py::test_lp_bounds_match_definition_3",
    "test_lp.py::test_presolve_and_face_do_not_change_the_answer",
    "test_lp.py::test_untrusted_duals_fall_back_to_the_cost_row",
    "test_tree.py::test_clauses_match_data_with_missing_values",
    "test_tree.py::test_leaf_clauses_match_data",
    "test_variants.py::test_tuned_kb_answers_like_the_lp",
}


def pytest_configure(config: pytest.Config) -> None:
    """Under `--dist loadgroup`, xdist hands the groups out in collection order rather than
    by their number of tests, so the browser group (few tests, the longest to run) starts first
    and the other worker takes the rest meanwhile."""
    if getattr(config.option, "dist", "no") == "loadgroup":
        config.option.loadscopereorder = False


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups' marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of `SLOW` (every parameter of a listed test) and the browser tests (a
    real server and Chromium: minutes) as slow, and put each test in its xdist group: its
    file's, or one "browser" group for every browser test.

    The groups matter under `pytest -n 2 --dist loadgroup` (the README's CI command): a file's
    tests stay on one worker, so its module-scoped fixtures (fitted models, servers) are built
    once, and the browser tests run one after another on one worker, so two Streamlit servers
    and Chromiums never compete with each other (their waits have timeouts)."""
    for item in items:
        name = item.nodeid.split("[", 1)[0].removeprefix("tests/")
        browser = item.get_closest_marker("browser") is not None
        if name in SLOW or browser:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group("browser" if browser else name.split("::")[0]))
    if _loadgroup(config):  # the browser group first (the workers' order is the schedule's)
        items.sort(key=lambda item: item.get_closest_marker("browser") is None)


def _loadgroup(config: pytest.Config) -> bool:
    """Whether this process collects for `--dist loadgroup`: on the controller `dist` says
    so; on a worker xdist sets `dist` to "no" and `loadgroup` to True."""
    return (getattr(config.option, "dist", "no") == "loadgroup"
            or bool(getattr(config.option, "loadgroup", False)))


@pytest.hookimpl(tryfirst=True)  # before xdist's worker sends the collected ids
def pytest_collection_finish(session: pytest.Session) -> None:
    """Each test's xdist group in the id the worker sends (`test_x.py::t@group`, which the
    loadgroup scheduler reads). pytest ≥ 9.2 keeps ids structured (`Node._id`) and xdist 3.8
    still writes the group into the old `_nodeid` field, so the group is lost and the groups
    above silently spread over both workers (pytest-dev/pytest-xdist#1386); older pytest
    takes xdist's own suffix and nothing is done here."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # pytest < 9.2: xdist's suffix works
        return
    for item in session.items:
        mark = item.get_closest_marker("xdist_group")
        if mark is None or not hasattr(item, "_id"):
            continue
        group = str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        if "@" not in item.nodeid.rsplit("]", 1)[-1]:
            item._id = NodeId.parse(f"{item.nodeid}@{group}")


@pytest.fixture(autouse=True, scope="session")
def _plx_home_for_the_session(tmp_path_factory):
    """Projects the dashboard saves during the tests (servers included) go to a fresh folder,
    never to the user's data folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("PLX_HOME", str(tmp_path_factory.mktemp("plx_home")))
    mp.delenv("PLX_DATABASE_URL", raising=False)
    yield
    mp.undo()


@pytest.fixture(autouse=True, scope="session")
def _streamlit_components_scanned_once():
    """Each new AppTest's first run has Streamlit read every installed package's metadata for
    custom components (~0.2 s CPU, 0.4 s wall, once per AppTest: hundreds a suite, ci26); the
    installed packages cannot change during a test session, so the first scan answers all."""
    scanner = sys.modules.get("streamlit.components.v2.manifest_scanner")
    if scanner is None and "streamlit" in sys.modules:  # AppTest's modules are collected
        with contextlib.suppress(ImportError):
            import streamlit.components.v2.manifest_scanner as scanner
    scan = getattr(scanner, "scan_component_manifests", None)
    if scan is None:  # no AppTest in this session, or a Streamlit without the scan
        yield
        return
    found: list = []

    def scanned_once(*args, **kwargs):
        if not found:
            found.append(scan(*args, **kwargs))
        return list(found[0])

    mp = pytest.MonkeyPatch()
    mp.setattr(scanner, "scan_component_manifests", scanned_once)
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _plx_home_per_test(tmp_path_factory, monkeypatch):
    """Each in-process test (AppTest) starts without saved projects."""
    monkeypatch.setenv("PLX_HOME", str(tmp_path_factory.mktemp("plx_home")))
