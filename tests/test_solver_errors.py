"""Solver failures become clear exceptions: time limits, failed and inaccurate statuses."""

import cvxpy as cp
import numpy as np
import pytest

from plx_core import KB, SolverError, SolverTimeoutError, query


def lp_kb(n: int = 300, seed: int = 0) -> KB:
    """A general KB whose query needs the LP: clauses POS ∨ ¬a_i=1 ∨ ¬a_j=1 with a_* open."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        i, j = rng.choice(60, 2, replace=False)
        lines.append(f"[{rng.random():.3f}] POS | ~a{i}=1 | ~a{j}=1")
    return KB.from_text("\n".join(lines))


def test_time_limit_raises_a_timeout_error():
    with pytest.raises(SolverTimeoutError, match="time limit"):
        query(lp_kb(), {}, semantics="full", time_limit=1e-9)


@pytest.mark.parametrize("status, error, message", [
    (cp.OPTIMAL_INACCURATE, SolverError, "inaccurate"),
    (cp.INFEASIBLE, SolverError, "status 'infeasible'"),
    (cp.USER_LIMIT, SolverTimeoutError, "time limit"),
])
def test_bad_statuses_are_mapped(monkeypatch, status, error, message):
    kb = lp_kb(20)

    def fake_solve(self, *args, **kwargs):
        self._status = status
        return None

    monkeypatch.setattr(cp.Problem, "solve", fake_solve)
    with pytest.raises(error, match=message):
        query(kb, {}, semantics="full")


def test_solver_exceptions_are_wrapped(monkeypatch):
    def broken(self, *args, **kwargs):
        raise cp.error.SolverError("HiGHS crashed")

    monkeypatch.setattr(cp.Problem, "solve", broken)
    with pytest.raises(SolverError, match="HiGHS crashed"):
        query(lp_kb(20), {}, semantics="full")


def test_the_median_path_needs_no_solver(monkeypatch):
    def broken(self, *args, **kwargs):
        raise AssertionError("the LP must not run")

    monkeypatch.setattr(cp.Problem, "solve", broken)
    kb = KB.from_text("[0.3] POS | ~a=1\n[0.9] POS | ~b=1\n[0.4, w=3] ~POS | ~a=1 | ~b=1\n")
    b = query(kb, {"a": "1", "b": "1"})
    assert b.method == "median" and (b.lower, b.upper) == (0.6, 0.6)


def test_the_highs_banner_never_reaches_the_terminal(tmp_path):
    """HiGHS prints a copyright banner on fd 1 when its first solver object is made; an LP
    query in a fresh process must print only what plx prints."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "from plx_core import KB, query\n"
        "kb = KB.from_text('# plx KB kind=general\\n# domain a: 0 1\\n# domain b: 0 1\\n"
        "[0.8] POS | ~a=1 | ~b=1\\n[0.3] POS | ~a=1\\n')\n"
        "b = query(kb, {'a': '1'}, semantics='full')\n"
        "print(b.method, b.lower, b.upper)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "lp 0.3 0.3\n"
    assert "HiGHS" not in out.stderr
