"""The linear program of Definition 3 in cvxpy, and the exact bounds of ω(POS) over its optimal set.

The problem handed in here is already reduced by the query (`plx_core.query`): atoms the query
fixes are substituted away, clauses forced to a constant are gone. What is left:

* `clauses`: each with literals over the remaining atoms (atom 0 is POS), probability p, weight w;
* `median terms`: clauses that became `ω(c) = ω(POS)` (target p) or `ω(c) = 1 − ω(POS)`
  (target 1 − p): each costs `w |ω(POS) − t|`, with no variable of its own;
* a constant (the cost of the clauses forced to 0 or 1).

Variables: x (one per atom, ω(¬z) = 1 − x_z) and c (one per clause), both in [0, 1];
t ≥ |c − p| and s ≥ |x_POS − t_med| linearise the objective. Three solves of one canonicalised
DPP problem (HiGHS, simplex): the optimum, then min and max x_POS s.t. cost ≤ optimum + tol.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .errors import SolverError, SolverTimeoutError

STAGE2_TOL = 1e-9  # absolute: a relative tolerance would widen bounds on large KBs
SOLVER_TOL = 1e-9  # HiGHS primal/dual feasibility tolerance for all three solves
ROUND = 7  # LP bounds are reported to 1e-7 so that solver noise never decides a 0.5 tie


@dataclass(frozen=True)
class ReducedProblem:
    """The query-reduced LP: clause literals in CSR form over atoms (atom 0 = POS)."""

    n_atoms: int
    indptr: np.ndarray  # clause i's literals are atom[indptr[i]:indptr[i+1]]
    atom: np.ndarray
    negated: np.ndarray  # bool per literal
    p: np.ndarray
    w: np.ndarray
    med_target: np.ndarray = field(default_factory=lambda: np.zeros(0))
    med_w: np.ndarray = field(default_factory=lambda: np.zeros(0))
    constant: float = 0.0
    groups: tuple[np.ndarray, ...] = ()  # atoms of one open feature: Σ x = 1 (optional variant)

    @property
    def n_clauses(self) -> int:
        return len(self.p)


@dataclass(frozen=True)
class LPSolution:
    lower: float
    upper: float
    optimum: float  # Σ w|ω(c) − p| at the optimum, the constant included
    x: np.ndarray  # atom values at the stage-1 optimum
    c: np.ndarray  # clause values at the stage-1 optimum
    status: str


def _check(problem: cp.Problem, stage: str, time_limit: float | None) -> None:
    status = problem.status
    if status == cp.OPTIMAL:
        return
    if status == cp.USER_LIMIT:
        raise SolverTimeoutError(
            f"the LP ({stage}) hit the solver's time limit of {time_limit} s; raise time_limit "
            "or query fewer unknown features"
        )
    if status == cp.OPTIMAL_INACCURATE:
        raise SolverError(f"the LP solver returned an inaccurate solution ({stage}); not trusted")
    raise SolverError(f"the LP solver failed ({stage}): status {status!r}")


def solve_bounds(
    rp: ReducedProblem, time_limit: float | None = 60.0, solver: str = cp.HIGHS
) -> LPSolution:
    """Minimise the inconsistency, then min and max ω(POS) over the optimal set."""
    m, n = rp.n_clauses, rp.n_atoms
    x = cp.Variable(n, bounds=[np.zeros(n), np.ones(n)], name="x")
    cons = []
    cost_terms = []
    c = None
    if m:
        c = cp.Variable(m, bounds=[np.zeros(m), np.ones(m)], name="c")
        t = cp.Variable(m, name="t")
        lens = np.diff(rp.indptr)
        rows = np.repeat(np.arange(m), lens)
        sign = np.where(rp.negated, -1.0, 1.0)
        # Boole: c_i ≤ Σ_pos x + Σ_neg (1 − x)  ⇔  c_i − Σ sign·x ≤ #neg
        S = sp.csr_matrix((sign, (rows, rp.atom)), shape=(m, n))
        n_neg = np.bincount(rows, weights=rp.negated.astype(float), minlength=m)
        cons.append(c - S @ x <= n_neg)
        # Monotonicity per literal: c_i ≥ x_a (positive) or c_i ≥ 1 − x_a (negative)
        L = len(rp.atom)
        E = sp.csr_matrix((np.ones(L), (np.arange(L), rows)), shape=(L, m))
        D = sp.csr_matrix((sign, (np.arange(L), rp.atom)), shape=(L, n))
        cons.append(E @ c - D @ x >= rp.negated.astype(float))
        cons += [t >= c - rp.p, t >= rp.p - c]
        cost_terms.append(rp.w @ t)
    if len(rp.med_target):
        s = cp.Variable(len(rp.med_target), name="s")
        cons += [s >= x[0] - rp.med_target, s >= rp.med_target - x[0]]
        cost_terms.append(rp.med_w @ s)
    for g in rp.groups:
        cons.append(cp.sum(x[g]) == 1)
    cost = cp.sum(cp.hstack(cost_terms)) if cost_terms else cp.Constant(0.0)
    alpha = cp.Parameter(nonneg=True, value=1.0)
    direction = cp.Parameter(value=0.0)
    bound = cp.Parameter(value=1e12)
    if cost_terms:
        cons.append(cost <= bound)
    problem = cp.Problem(cp.Minimize(alpha * cost + direction * x[0]), cons)
    opts = {
        "output_flag": False,
        "primal_feasibility_tolerance": SOLVER_TOL,
        "dual_feasibility_tolerance": SOLVER_TOL,
    }
    if time_limit is not None:
        opts["time_limit"] = float(time_limit)

    def run(stage: str) -> None:
        try:
            problem.solve(solver=solver, warm_start=False, **opts)
        except cp.error.SolverError as exc:
            raise SolverError(f"the LP solver failed ({stage}): {exc}") from exc
        _check(problem, stage, time_limit)

    run("stage 1: minimise inconsistency")
    optimum = float(problem.value)
    x1 = np.asarray(x.value, dtype=float).copy()
    c1 = np.asarray(c.value, dtype=float).copy() if c is not None else np.zeros(0)
    # the optimal face, widened by a tolerance small against the flattest cost slope
    tol = STAGE2_TOL * min(1.0, float(np.min(rp.w, initial=1.0)), float(np.min(rp.med_w, initial=1.0)))
    alpha.value, bound.value = 0.0, optimum + tol
    direction.value = 1.0
    run("stage 2: lower bound of ω(POS)")
    lower = float(x.value[0])
    direction.value = -1.0
    run("stage 2: upper bound of ω(POS)")
    upper = float(x.value[0])
    lower, upper = _snap(lower), _snap(upper)
    if lower > upper:  # solver noise below the rounding grid
        lower = upper = round((lower + upper) / 2, ROUND)
    return LPSolution(lower, upper, optimum + rp.constant, x1, c1, problem.status)


def _snap(v: float) -> float:
    return float(min(1.0, max(0.0, round(v, ROUND))))


def weighted_median_interval(target: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """The interval of minimisers of Σ w |x − t| over x ∈ [0, 1] (exact, no solver).

    With no terms every x is optimal: (0, 1).
    """
    if len(target) == 0:
        return 0.0, 1.0
    order = np.argsort(target, kind="stable")
    t, w = target[order], weight[order]
    first = np.concatenate([[True], t[1:] != t[:-1]])
    starts = np.flatnonzero(first)
    tu = t[starts]
    cum = np.cumsum(np.add.reduceat(w, starts))
    total = cum[-1]
    half = total / 2.0
    eps = 1e-12 * total
    i = int(np.searchsorted(cum, half - eps, "left"))
    lower = float(tu[i])
    if abs(cum[i] - half) <= eps and i + 1 < len(tu):
        return lower, float(tu[i + 1])
    return lower, lower


def weighted_cost(x: float, target: np.ndarray, weight: np.ndarray) -> float:
    return float(weight @ np.abs(x - target)) if len(target) else 0.0
