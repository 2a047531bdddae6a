"""Faults through the dashboard (issue 6): the LP solver failing, timing out or answering
inaccurately while a user works on the Query, Explain, Rules and Evaluate pages, and corrupt KB
files through the import widget.

What a user must see: the error in plain words (no traceback), the last results still on the
page (the same numbers), nothing stored from the failed run, and the next interaction working
once the fault is gone. Faults are injected into `cvxpy.Problem.solve`, which `plx_core.lp`
calls, as in tests/test_solver_errors.py (AppTest runs the pages in this process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import cvxpy as cp
import pytest
from app_util import classic_workspace
from test_app import errors, fresh, metric, run, texts

from plx_app.service import KBSettings, instance_from_row, rule_clause
from plx_core import query

FAULTS = {  # kind → what the user must read in the error
    "crash": "HiGHS crashed",
    "timeout": "the LP solver ran out of time",
    "inaccurate": "inaccurate solution",
}


@contextmanager
def solver_fault(kind: str) -> Iterator[None]:
    """While active, every LP solve fails the way `kind` says; restored afterwards."""
    orig = cp.Problem.solve

    def broken(self, *args, **kwargs):
        if kind == "crash":
            raise cp.error.SolverError("HiGHS crashed")
        self._status = cp.USER_LIMIT if kind == "timeout" else cp.OPTIMAL_INACCURATE
        return None

    cp.Problem.solve = broken
    try:
        yield
    finally:
        cp.Problem.solve = orig


@pytest.fixture(scope="module")
def base_ws():
    return classic_workspace()


@pytest.fixture(scope="module")
def lp_answers(base_ws):
    """The LP's answers on the test rows without rules, solved once for the file (171 rows,
    ~2.5 CPU s, which every page below asked first: Query's row table, Rules' and Evaluate's
    scores); the solver's faults are injected on what comes after."""
    ws = fresh(base_ws)
    ws.method = "lp"
    ws.decisions("test")
    return ws.results


def lp_ws(base_ws, answers):
    """A fresh default workspace that answers every query with the LP (Query settings: Method
    "always the LP"), with the first test row selected and `answers` (`lp_answers`) cached."""
    ws = fresh(base_ws)
    ws.method = "lp"
    ws.selected = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    ws.results = answers.copy()
    return ws


def solver_errors(at, what: str) -> list[str]:
    return [e for e in errors(at) if e.startswith(what)]


def assert_plain_fault(at, what: str, kind: str) -> None:
    """One plain-words error for `what` naming the fault, and no exception box."""
    assert not at.exception, [e.value for e in at.exception]
    errs = solver_errors(at, what)
    assert errs and FAULTS[kind] in errs[0], errors(at)
    assert "The last results stay on the page" in errs[0]
    assert "Traceback" not in " ".join(errors(at))


def bounds_shown(at) -> tuple[str, str, str]:
    return metric(at, "Support, at least"), metric(at, "Support, at most"), metric(at, "Decision")


# --------------------------------------------------------------------------- Query


@pytest.mark.parametrize("kind", list(FAULTS))
@pytest.mark.slow
def test_query_page_keeps_the_last_bounds_when_the_solver_fails(base_ws, lp_answers, kind):
    at = run("plx_app/views/3_Query.py", lp_ws(base_ws, lp_answers))
    assert metric(at, "Method") == "LP"
    shown = bounds_shown(at)
    ws = at.session_state["ws"]
    first = ws.selected
    with solver_fault(kind):
        # the user changes a feature value: the new query needs the solver
        v0 = at.selectbox(key="q_val_0")
        v0.set_value(next(o for o in v0.options if o not in (v0.value, "(unknown)"))).run()
        assert_plain_fault(at, "Answering the query", kind)
        assert bounds_shown(at) == shown  # the previous bounds stay on the page …
        assert f"the last result, for {first.title()}" in texts(at)  # … marked as such
        edited = ws.selected
        assert edited.origin == "edited"
        assert "The counterfactual needs the answer" in texts(at)
    # the fault is gone: the same instance, asked again, gets its true answer (nothing from the
    # failed run was kept in its place) …
    at.run()
    assert not at.exception and not errors(at), errors(at)
    b = query(ws.current_kb(), edited.known(), semantics=ws.semantics, method=ws.method)
    assert (metric(at, "Support, at least"), metric(at, "Support, at most")) == (f"{b.lower:.3f}", f"{b.upper:.3f}")
    assert "the last result" not in texts(at)
    # … and so does the next edit
    v1 = at.selectbox(key="q_val_1")
    v1.set_value(next(o for o in v1.options if o not in (v1.value, "(unknown)"))).run()
    assert not at.exception and not errors(at), errors(at)
    b = query(ws.current_kb(), ws.selected.known(), semantics=ws.semantics, method=ws.method)
    assert (metric(at, "Support, at least"), metric(at, "Support, at most")) == (f"{b.lower:.3f}", f"{b.upper:.3f}")
    assert "the last result" not in texts(at)


# --------------------------------------------------------------------------- Explain


@pytest.mark.slow
def test_explain_page_keeps_the_last_explanation_when_the_solver_times_out(base_ws):
    ws = fresh(base_ws)
    ws.set_kb(KBSettings("tree"))  # full semantics: sub-queries of the instance need the LP
    at = run("plx_app/views/4_Explain.py", ws)
    shown = [m.value for m in at.markdown if "Explanation" in m.value or "Support for" in m.value]
    assert any("Explanation (k=2" in s for s in shown), shown
    with solver_fault("timeout"):
        at.slider(key="x_k").set_value(3).run()
        assert_plain_fault(at, "Explaining the instance", "timeout")
        after = [m.value for m in at.markdown if "Explanation" in m.value or "Support for" in m.value]
        assert after == shown  # the k=2 explanation and its bounds, unchanged
        assert f"the last result, for {ws.selected.title()} with k=2" in texts(at)
    at.slider(key="x_k").set_value(3).run()
    assert not at.exception and not errors(at), errors(at)
    assert "Explanation (k=3" in texts(at) and "the last result" not in texts(at)


# --------------------------------------------------------------------------- Rules


@pytest.mark.slow
def test_rules_page_keeps_the_last_preview_when_the_solver_is_inaccurate(base_ws, lp_answers):
    at = run("plx_app/views/5_Rules.py", lp_ws(base_ws, lp_answers))
    labels = ["F1 without rules", "F1 with rules", "Accuracy with rules", "Decisions that flip"]
    shown = [metric(at, m) for m in labels]
    with solver_fault("inaccurate"):
        at.text_input(key="r_text").set_value("worst radius=<13.5")
        at.number_input(key="r_w").set_value(500.0)
        at.button(key="r_add").click().run()
        assert_plain_fault(at, "Previewing the rules' effect", "inaccurate")
        assert [metric(at, m) for m in labels] == shown
        assert "the last result, for 0 enabled rules" in texts(at)
        ws = at.session_state["ws"]
        assert [r.id for r in ws.rules] == ["r1"]  # the user's rule itself is kept
    at.run()
    assert not at.exception and not errors(at), errors(at)
    assert "the last result" not in texts(at)
    after = ws.decisions("test", rules=True)
    assert int(metric(at, "Decisions that flip")) == int(
        (after["decision"] != ws.decisions("test", rules=False)["decision"]).sum())


# --------------------------------------------------------------------------- Evaluate


@pytest.mark.slow
def test_evaluate_page_keeps_the_last_scores_when_the_solver_crashes(base_ws, lp_answers):
    at = run("plx_app/views/6_Evaluate.py", lp_ws(base_ws, lp_answers))
    labels = ["F1", "Precision", "Recall", "Accuracy"]
    shown = [metric(at, m) for m in labels]
    with solver_fault("crash"):
        # the user adds a rule on the Rules page, then comes back to Evaluate
        at.switch_page("plx_app/views/5_Rules.py").run()
        at.text_input(key="r_text").set_value("worst radius=<13.5")
        at.number_input(key="r_w").set_value(5.0)  # no weight is guessed
        at.button(key="r_add").click().run()
        assert_plain_fault(at, "Previewing the rules' effect", "crash")
        at.switch_page("plx_app/views/6_Evaluate.py").run()
        assert_plain_fault(at, "Scoring the KB", "crash")
        assert [metric(at, m) for m in labels] == shown
        assert "from before the solver failed" in texts(at)
    at.run()
    assert not at.exception and not errors(at), errors(at)
    assert "from before the solver failed" not in texts(at)
    ws = at.session_state["ws"]
    from plx_app.service import scores

    d = ws.decisions("test")
    s = scores((ws.y_test == ws.positive).to_numpy(), (d["decision"] == "POS").to_numpy())
    assert metric(at, "F1") == f"{s['F1']:.3f}"


# --------------------------------------------------------------------------- KB import


def _kb_json(ws) -> str:
    return ws.current_kb().to_json()


def _corrupt(kind: str, good: str) -> tuple[bytes, list[str]]:
    """A corrupt KB file and what its error must name (line and field)."""
    if kind == "bad JSON":
        i = good.index('"clauses"')
        return (good[:i] + "}{" + good[i:]).encode(), ["line ", "invalid JSON"]
    if kind == "truncated JSON":
        cut = good[: len(good) // 2]
        return cut.encode(), [f"line {cut.count(chr(10)) + 1}", "invalid JSON"]
    doc = json.loads(good)
    if kind == "probability out of range":
        doc["clauses"][3]["p"] = 1.7
        return json.dumps(doc, indent=1).encode(), ["clauses[3]", "p=1.7"]
    if kind == "field missing":
        del doc["clauses"][2]["p"]
        return json.dumps(doc, indent=1).encode(), ["clauses[2]", "field 'p' is missing"]
    doc["clauses"][5]["literals"] = ["POS", "~worst radius==<13.5 |"]  # clause text with errors
    return json.dumps(doc, indent=1).encode(), ["clauses[5]", "field 'literals'", "column"]


@pytest.mark.parametrize("kind", ["bad JSON", "truncated JSON", "probability out of range",
                                  "field missing", "clause text with errors"])
@pytest.mark.slow
def test_corrupt_kb_import_changes_nothing(base_ws, kind):
    ws = fresh(base_ws)
    ws.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    ws.selected = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    at = run("plx_app/views/2_Knowledge_base.py", ws)
    at.session_state["kb_tab"] = "Export / import"
    at.run()
    before = (ws.kb, ws.kb_key, ws.kb_note, [r.to_text() for r in ws.rules], ws.query(ws.selected))
    clauses, side = metric(at, "Clauses"), " ".join(c.value for c in at.sidebar.caption)
    data, names = _corrupt(kind, _kb_json(ws))
    at.file_uploader(key="kb_import").set_value(("kb.json", data, "application/json")).run()
    at.button(key="kb_import_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errs = [e for e in errors(at) if "could not be used as a KB" in e]
    assert errs and all(n in errs[0] for n in names), errors(at)
    assert "line " in errs[0]
    ws = at.session_state["ws"]
    after = (ws.kb, ws.kb_key, ws.kb_note, [r.to_text() for r in ws.rules], ws.query(ws.selected))
    assert after[0] is before[0] and after[1:] == before[1:]
    assert metric(at, "Clauses") == clauses == "2,014"
    assert " ".join(c.value for c in at.sidebar.caption) == side
    assert not at.success
