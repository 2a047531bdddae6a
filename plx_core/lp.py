"""The linear program of Definition 3 in cvxpy, and the exact bounds of ω(POS) over its optimal set.

The problem handed in here is already reduced by the query (`plx_core.query`): atoms the query
fixes are substituted away, clauses forced to a constant are gone. What is left:

* `clauses`: each with literals over the remaining atoms (atom 0 is POS), probability p, weight w;
* `median terms`: clauses that became `ω(c) = ω(POS)` (target p) or `ω(c) = 1 − ω(POS)`
  (target 1 − p): each costs `w |ω(POS) − t|`;
* a constant (the cost of the clauses forced to 0 or 1).

Formulation. Every step below is an exact reformulation: it keeps the optimum (the
inconsistency) and the set of values ω(POS) takes over the optimal set. The proofs are one
sentence each; `tests/test_lp.py` checks the result against Definition 3 written out in scipy.

* No clause variables. For fixed literal values l_1 … l_k, Boole and monotonicity allow exactly
  ω(c) ∈ [max_j l_j, min(1, Σ_j l_j)], so a clause's least cost is the distance from p to that
  interval, max(0, max_j l_j − p, p − Σ_j l_j) (p ≤ 1 makes the `min(1, ·)` irrelevant). One
  variable t ≥ 0 per clause with the rows `t ≥ l_j − p` (one per literal; void when p = 1) and
  `t ≥ p − Σ_j l_j` (the Boole row; void when p = 0) expresses it, and ω(c) is recovered as
  the projection of p onto the interval. A median term is the clause `POS` with p = its target.
  Atoms are x ∈ [0, 1] with ω(¬z) = 1 − x_z.
* After the presolve, clauses with the same literals S (common after a query: a Direct KB's
  `POS ∨ ¬K` with the same open part) are grouped. As max l ≤ min(1, Σ l), the distance splits into
  (max l − p)+ + (p − Σ l)+, so the group costs g(max l) + h(Σ l) with
  g(a) = Σ_k w_k (a − p_k)+ and h(b) = Σ_k w_k (p_k − b)+ (Boole-kept clauses only), both
  convex and piecewise linear: an epigraph variable per group with one row per distinct p
  (u ≥ W_r a − C_r over the cumulative weights and weighted p's) is exact, with a ≥ l_j
  and b ≤ Σ l as auxiliary variables (|S| = 1: the literal itself). Rows per distinct p replace
  rows per clause × literal.
* Presolve (`_peel`), repeated until nothing changes; POS and atoms of a domain constraint are
  never touched:
  (R1) an atom whose every remaining occurrence pushes it the same way (each of its literals is
       only in rows `t ≥ l − p`, which want l low, or only in Boole rows, which want l high) is
       fixed at that bound: moving it there in any feasible point keeps every row satisfied with
       the same t, so the optimum and the optimal values of all other variables are unchanged.
       A literal fixed to 0 leaves its clause; one fixed to 1 makes the clause cost exactly
       w(1 − p), a constant.
  (R2) an atom that occurs once, in a clause with a Boole row: its literal set to p meets both
       that Boole row and its own row `t ≥ l − p` whatever the other literals are, and no other
       row involves it, so minimising over it leaves `t ≥ max(0, max_other l − p)`: the Boole
       row and the atom are dropped (a partial minimisation over a private variable keeps the
       optimal set of the others). The atom is reconstructed as l = p.
* Stage 1: minimise Σ w t with HiGHS (interior point with crossover for large problems — the
  fastest here, and the crossover gives a vertex with basis duals — simplex otherwise).
* Stage 2 on the optimal face: for any optimal dual y, a feasible point is optimal iff it is
  complementary to y (rows with y_r > 0 tight, variables with a nonzero reduced cost at the
  bound its sign says). So the min and max of ω(POS) over the optimal set are the min and max
  over {feasible, complementary to y}: an LP without the dense `cost ≤ optimum` row, most of
  whose variables are fixed. Used only when the duals are cleanly zero or nonzero (no |y| or
  reduced cost between 1e-11 and 1e-8 of the largest weight), dual feasible and without duality
  gap, and when both stage-2 points are checked to be feasible at the optimum's cost; otherwise
  the classic stage 2 (min/max ω(POS) s.t. cost ≤ optimum + tol) runs. If ω(POS) itself has a
  nonzero reduced cost it takes one value on the whole optimal set: no stage 2 at all.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field, replace

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .errors import DataError, SolverError, SolverTimeoutError
from .median import WeightRangeError

STAGE2_TOL = 1e-9  # absolute: a relative tolerance would widen bounds on large KBs
SOLVER_TOL = 1e-9  # HiGHS primal/dual feasibility tolerance for all solves
ROUND = 7  # LP bounds are reported to 1e-7 so that solver noise never decides a 0.5 tie
DUAL_ZERO = 1e-11  # a dual / reduced cost at most this (× largest weight) is zero
DUAL_NONZERO = 1e-8  # … at least this is nonzero; in between, the face is not trusted
GROUP_MAX_LEN = 16  # clauses with more literals are never grouped (bounds the signature table)
FACE_ALGORITHM = "primal"  # HiGHS algorithm for the stage-2 solves on the optimal face
MAX_WEIGHT_RATIO = 1e7  # largest / smallest weight the LP accepts (solver tolerance 1e-9)
IPM_MIN_NNZ = 8_000  # stage 1 by interior point + crossover from this many matrix entries on (measured)


def _silence_highs_banner() -> None:
    """HiGHS prints a copyright banner on the process's stdout (fd 1, not `sys.stdout`) the
    first time a solver object is created, whatever `output_flag` says; create that first one
    here with fd 1 pointed at /dev/null so no user terminal or CLI output ever shows it."""
    try:
        import highspy
    except ImportError:  # cvxpy without HiGHS: nothing prints
        return
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError):  # no usable fd 1 (e.g. a closed stdout): nothing can show
        highspy.Highs()
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


_silence_highs_banner()


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
    stage2: str = "face"  # "face" | "fixed" (ω(POS) unique by its reduced cost) | "cost-row"


# --------------------------------------------------------------------------- presolve


@dataclass(frozen=True)
class _Peeled:
    lit_alive: np.ndarray  # per literal
    clause_alive: np.ndarray  # per clause
    boole: np.ndarray  # per clause: its Boole row is kept
    fixed: np.ndarray  # per atom: reconstructed value, NaN if the atom stays in the LP
    constant: float


def _peel(indptr: np.ndarray, atom: np.ndarray, neg: np.ndarray, p: np.ndarray, w: np.ndarray,
          n_atoms: int, blocked: np.ndarray) -> _Peeled:
    """Rules R1 and R2 of the module docstring, applied in vectorised rounds.

    R1 fixes many atoms at once (each fixing only drops rows, so the others' directions stay
    valid); R2 then takes one private atom per clause (private atoms of different clauses share
    no row). Rounds alternate until neither applies.
    """
    m = len(p)
    row = np.repeat(np.arange(m), np.diff(indptr))
    mono = p < 1.0  # rows t ≥ l − p carry information
    boole = p > 0.0  # the Boole row carries information
    lit_alive = np.ones(len(atom), bool)
    clause_alive = np.ones(m, bool)
    fixed = np.full(n_atoms, np.nan)
    movable = ~blocked
    constant = 0.0

    def drop_empty(boole_cost: bool) -> None:
        nonlocal constant
        count = np.bincount(row[lit_alive], minlength=m)
        empty = clause_alive & (count == 0)
        if boole_cost:  # no literal left: the Boole row says t ≥ p
            constant += float(w[empty & boole] @ p[empty & boole])
        clause_alive[empty] = False

    while True:
        clause_alive &= mono | boole  # a clause with neither row costs 0 whatever happens
        lit_alive &= clause_alive[row]
        k = np.flatnonzero(lit_alive)
        a, ng, r = atom[k], neg[k], row[k]
        mo, bo = mono[r], boole[r]
        want_low = np.bincount(a, weights=(mo & ~ng) | (bo & ng), minlength=n_atoms)
        want_high = np.bincount(a, weights=(mo & ng) | (bo & ~ng), minlength=n_atoms)
        occ = np.bincount(a, minlength=n_atoms)
        open_ = movable & np.isnan(fixed) & (occ > 0)
        r1 = open_ & ((want_low == 0) | (want_high == 0))
        if r1.any():  # R1
            v = np.where(want_low == 0, 1.0, 0.0)
            fixed[r1] = v[r1]
            sel = r1[a]
            lit = np.where(ng[sel], 1.0 - v[a[sel]], v[a[sel]])
            made_true = np.unique(r[sel][lit == 1.0])
            constant += float(w[made_true] @ (1.0 - p[made_true]))
            clause_alive[made_true] = False
            lit_alive[k[sel]] = False
            lit_alive &= clause_alive[row]
            drop_empty(boole_cost=True)
            continue
        cand = (open_ & (occ == 1))[a] & bo
        if cand.any():  # R2
            clauses, first = np.unique(r[cand], return_index=True)
            kk = k[cand][first]
            fixed[atom[kk]] = np.where(neg[kk], 1.0 - p[clauses], p[clauses])  # literal = p
            boole[clauses] = False
            lit_alive[kk] = False
            drop_empty(boole_cost=False)
            continue
        break
    return _Peeled(lit_alive, clause_alive, boole & clause_alive, fixed, constant)


@dataclass(frozen=True)
class _Core:
    """min c·z s.t. G z ≥ h, E z = 1, lb ≤ z ≤ ub over z = [x of kept atoms, t of kept clauses]."""

    G: sp.csr_matrix
    h: np.ndarray
    E: sp.csr_matrix | None
    c: np.ndarray
    lb: np.ndarray
    ub: np.ndarray
    atoms: np.ndarray  # atom id of each x column; atoms[0] == 0 (POS)
    fixed: np.ndarray  # per atom of the problem: presolved value (NaN: in the LP)
    constant: float


class _Rows:
    """Accumulates rows `Σ val·z ≥ rhs` and columns (bounds, cost) of the core LP."""

    def __init__(self, nx: int):
        self.r: list[np.ndarray] = []
        self.col: list[np.ndarray] = []
        self.val: list[np.ndarray] = []
        self.h: list[np.ndarray] = []
        self.n_rows = 0
        self.lb, self.ub, self.c = [np.zeros(nx)], [np.ones(nx)], [np.zeros(nx)]
        self.n_cols = nx

    def columns(self, n: int, lb: float, ub: float, cost: np.ndarray | float) -> np.ndarray:
        self.lb.append(np.full(n, lb))
        self.ub.append(np.full(n, ub))
        self.c.append(np.broadcast_to(np.asarray(cost, float), (n,)).copy())
        self.n_cols += n
        return np.arange(self.n_cols - n, self.n_cols)

    def rows(self, rhs: np.ndarray, *entries: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        """Add len(rhs) rows; each entry is (local row, column, value) arrays."""
        for r, col, val in entries:
            self.r.append(self.n_rows + np.asarray(r, np.int64))
            self.col.append(np.asarray(col, np.int64))
            self.val.append(np.broadcast_to(np.asarray(val, float), np.shape(r)).copy())
        self.h.append(np.asarray(rhs, float))
        self.n_rows += len(rhs)

    def matrix(self) -> tuple[sp.csr_matrix, np.ndarray]:
        G = sp.csr_matrix((_cat(self.val, float), (_cat(self.r, np.int64), _cat(self.col, np.int64))),
                          shape=(self.n_rows, self.n_cols))
        return G, _cat(self.h, float)


def _cat(xs: list, dtype) -> np.ndarray:
    return np.concatenate(xs).astype(dtype) if xs else np.zeros(0, dtype)


def _segment_cumsum(values: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting at every True of `start` (values already in segment order)."""
    total = np.cumsum(values)
    first = np.flatnonzero(start)
    seg = np.cumsum(start) - 1
    return total - (total[first] - values[first])[seg]


def _core(rp: ReducedProblem, presolve: bool) -> _Core:
    n = rp.n_atoms
    K = len(rp.med_target)
    end = int(rp.indptr[-1]) if len(rp.indptr) else 0
    indptr = np.concatenate([np.asarray(rp.indptr[: rp.n_clauses + 1], np.int64) if rp.n_clauses
                             else np.zeros(1, np.int64), end + np.arange(1, K + 1)])
    atom = np.concatenate([rp.atom, np.zeros(K, np.int64)]).astype(np.int64)
    neg = np.concatenate([rp.negated, np.zeros(K, bool)]).astype(bool)
    p = np.concatenate([rp.p, rp.med_target]).astype(float)
    w = np.concatenate([rp.w, rp.med_w]).astype(float)
    M = len(p)
    blocked = np.zeros(max(n, 1), bool)
    blocked[0] = True
    for g in rp.groups:
        blocked[g] = True
    if presolve:
        pl = _peel(indptr, atom, neg, p, w, max(n, 1), blocked)
    else:
        pl = _Peeled(np.ones(len(atom), bool), np.ones(M, bool), p > 0.0,
                     np.full(max(n, 1), np.nan), 0.0)
    row = np.repeat(np.arange(M), np.diff(indptr))
    la, ca, boole = pl.lit_alive, pl.clause_alive.copy(), pl.boole.copy()
    constant = pl.constant
    atoms = np.unique(np.concatenate([[0], atom[la], *[np.asarray(g, np.int64) for g in rp.groups]]))
    amap = np.full(max(n, 1), -1)
    amap[atoms] = np.arange(len(atoms))
    nx = len(atoms)
    B = _Rows(nx)
    # literal signature of every kept clause: its sorted (column, negated) codes, padded
    k = np.flatnonzero(la)
    code = amap[atom[k]] * 2 + neg[k]
    order = np.lexsort((code, row[k]))
    k, code = k[order], code[order]
    r = row[k]
    count = np.bincount(r, minlength=M)
    empty = ca & (count == 0)  # only without the presolve: no literal left, cost p if Boole
    constant += float(w[empty & boole] @ p[empty & boole])
    ca &= ~empty
    kept = np.flatnonzero(ca & (count <= GROUP_MAX_LEN))  # longer clauses stay single
    width = int(count[kept].max(initial=1))
    pad = np.full((M, width), -1, np.int64)
    short = count[r] <= GROUP_MAX_LEN
    pad[r[short], (np.arange(len(r)) - np.searchsorted(r, r))[short]] = code[short]
    if len(kept):
        sig, gid, gsize = np.unique(pad[kept], axis=0, return_inverse=True, return_counts=True)
        gid = gid.ravel()
    else:
        sig, gid, gsize = pad[:0], np.zeros(0, np.int64), np.zeros(0, np.int64)
    single = ca.copy()
    single[kept[gsize[gid] > 1]] = False
    kept = kept[gsize[gid] > 1]
    gid = gid[gsize[gid] > 1]
    # (1) clauses alone with their literals: t ≥ l_j − p (p < 1) and t ≥ p − Σ l (Boole)
    sk = np.flatnonzero(single)
    if len(sk):
        t = B.columns(len(sk), 0.0, np.inf, w[sk])
        tmap = np.full(M, -1)
        tmap[sk] = t
        sign = np.where(neg, -1.0, 1.0)
        mk = k[single[r] & (p[r] < 1.0)]
        i = np.arange(len(mk))
        B.rows(neg[mk] - p[row[mk]], (i, tmap[row[mk]], 1.0), (i, amap[atom[mk]], -sign[mk]))
        bc = sk[boole[sk]]
        bk = k[single[r] & boole[r]]
        bmap = np.full(M, -1)
        bmap[bc] = np.arange(len(bc))
        n_neg = np.bincount(row[bk], weights=neg[bk].astype(float), minlength=M)[bc]
        B.rows(p[bc] - n_neg, (np.arange(len(bc)), tmap[bc], 1.0),
               (bmap[row[bk]], amap[atom[bk]], sign[bk]))
    # (2) clauses sharing their literals S: Σ_k w_k dist(p_k, [max l, Σ l]) splits into
    #     g(max l) + h(Σ l) with g(a) = Σ w_k (a − p_k)+ and h(b) = Σ w_k (p_k − b)+ (as a ≤ b);
    #     both convex piecewise linear, so epigraph rows per distinct p replace rows per clause
    multi = np.flatnonzero(gsize > 1)
    if len(multi):
        gmap = np.full(len(gsize), -1)
        gmap[multi] = np.arange(len(multi))
        members, mg = kept, gmap[gid]
        S = sig[multi]
        s_len = (S >= 0).sum(axis=1)
        s_r, s_j = np.nonzero(S >= 0)
        s_col, s_neg = S[s_r, s_j] // 2, (S[s_r, s_j] % 2).astype(bool)
        s_sign = np.where(s_neg, -1.0, 1.0)
        n_neg_g = np.bincount(s_r, weights=s_neg.astype(float), minlength=len(multi))
        for part in ("max", "sum"):
            sel = p[members] < 1.0 if part == "max" else boole[members] & (p[members] > 0.0)
            if not sel.any():
                continue
            g_of, pk, wk = mg[sel], p[members[sel]], w[members[sel]]
            key = pk if part == "max" else -pk  # pieces in order of activation
            o = np.lexsort((key, g_of))
            g_of, pk, wk = g_of[o], pk[o], wk[o]
            new = np.concatenate([[True], (g_of[1:] != g_of[:-1]) | (pk[1:] != pk[:-1])])
            at = np.flatnonzero(new)
            g_of, pk = g_of[at], pk[at]
            wk = np.add.reduceat(wk, at)
            start = np.concatenate([[True], g_of[1:] != g_of[:-1]])
            W = _segment_cumsum(wk, start)
            C = _segment_cumsum(wk * pk, start)
            groups = g_of[start]
            e = B.columns(len(groups), 0.0, np.inf, 1.0)  # epigraph variable per group
            emap = np.full(len(multi), -1)
            emap[groups] = e
            i = np.arange(len(g_of))
            one = s_len[g_of] == 1  # S is one literal: use it directly
            lit_of = np.full(len(multi), -1)
            lit_of[s_r[s_len[s_r] == 1]] = np.flatnonzero(s_len[s_r] == 1)
            ix = lit_of[g_of[one]]
            # aux variable A = max l (≥ every l) or B = Σ l (≤ their sum) for |S| ≥ 2
            wide = np.unique(g_of[~one])
            aux = np.full(len(multi), -1)
            if part == "max":
                aux[wide] = B.columns(len(wide), 0.0, 1.0, 0.0)
                rows_of = np.isin(s_r, wide)
                jj = np.flatnonzero(rows_of)
                B.rows(s_neg[jj].astype(float), (np.arange(len(jj)), aux[s_r[jj]], 1.0),
                       (np.arange(len(jj)), s_col[jj], -s_sign[jj]))
                # e ≥ W·A − C
                B.rows(-C[~one], (i[: (~one).sum()], emap[g_of[~one]], 1.0),
                       (i[: (~one).sum()], aux[g_of[~one]], -W[~one]))
                B.rows(W[one] * s_neg[ix] - C[one], (i[: one.sum()], emap[g_of[one]], 1.0),
                       (i[: one.sum()], s_col[ix], -W[one] * s_sign[ix]))
            else:
                aux[wide] = B.columns(len(wide), 0.0, np.inf, 0.0)
                wi = np.arange(len(wide))
                wpos = np.full(len(multi), -1)
                wpos[wide] = wi
                rows_of = np.isin(s_r, wide)
                jj = np.flatnonzero(rows_of)
                B.rows(-n_neg_g[wide], (wi, aux[wide], -1.0), (wpos[s_r[jj]], s_col[jj], s_sign[jj]))
                # e ≥ C − W·B
                B.rows(C[~one], (i[: (~one).sum()], emap[g_of[~one]], 1.0),
                       (i[: (~one).sum()], aux[g_of[~one]], W[~one]))
                B.rows(C[one] - W[one] * s_neg[ix], (i[: one.sum()], emap[g_of[one]], 1.0),
                       (i[: one.sum()], s_col[ix], W[one] * s_sign[ix]))
    G, h = B.matrix()
    E = None
    if rp.groups:
        E = sp.csr_matrix(
            (np.concatenate([np.ones(len(g)) for g in rp.groups]),
             (np.concatenate([np.full(len(g), i) for i, g in enumerate(rp.groups)]),
              np.concatenate([amap[np.asarray(g, np.int64)] for g in rp.groups]))),
            shape=(len(rp.groups), B.n_cols),
        )
    return _Core(G, h, E, np.concatenate(B.c), np.concatenate(B.lb), np.concatenate(B.ub),
                 atoms, pl.fixed[:n], constant)


# --------------------------------------------------------------------------- solving


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


class _Runner:
    """Solves cvxpy problems under one overall time limit, with HiGHS options per algorithm."""

    def __init__(self, solver: str, time_limit: float | None):
        self.solver = solver
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.monotonic() + float(time_limit)

    def options(self, algorithm: str) -> dict:
        if self.solver != cp.HIGHS:
            return {}
        opts: dict = {
            "output_flag": False,
            "primal_feasibility_tolerance": SOLVER_TOL,
            "dual_feasibility_tolerance": SOLVER_TOL,
        }
        if algorithm == "ipm":
            # HiGHS's option is called "solver", which clashes with cvxpy's own argument; cvxpy
            # unpacks `highs_options` into Highs.setOptionValue calls
            opts["highs_options"] = {"solver": "ipm", "run_crossover": "on"}
        elif algorithm == "primal":
            opts["simplex_strategy"] = 4
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise SolverTimeoutError(
                    f"the LP hit the time limit of {self.time_limit} s; raise time_limit or query "
                    "fewer unknown features"
                )
            opts["time_limit"] = left
        return opts

    def run(self, problem: cp.Problem, stage: str, algorithm: str = "simplex") -> None:
        try:
            problem.solve(solver=self.solver, warm_start=False, **self.options(algorithm))
        except cp.error.SolverError as exc:
            raise SolverError(f"the LP solver failed ({stage}): {exc}") from exc
        _check(problem, stage, self.time_limit)


def _rows(core: _Core, z: cp.Variable) -> list:
    cons = []
    if core.G.shape[0]:
        cons.append(core.G @ z >= core.h)
    if core.E is not None:
        cons.append(core.E @ z == 1.0)
    return cons


def _face(core: _Core, y: np.ndarray, mu: np.ndarray, optimum: float):
    """(tight rows, lower, upper bounds on z) of the optimal face from stage-1 duals, or None
    when the duals do not prove it (not cleanly zero / nonzero, infeasible, or a gap)."""
    scale = max(1.0, float(np.max(core.c, initial=0.0)))
    zero, nonzero = DUAL_ZERO * scale, DUAL_NONZERO * scale
    d = core.c - core.G.T @ y
    if core.E is not None:
        d = d - core.E.T @ mu
    ay, ad = np.abs(y), np.abs(d)
    if np.any((ay > zero) & (ay < nonzero)) or np.any((ad > zero) & (ad < nonzero)):
        return None
    if np.any(y < -zero) or np.any(d[~np.isfinite(core.ub)] < -zero):
        return None  # not dual feasible
    at_lb, at_ub = d >= nonzero, d <= -nonzero
    dual = float(core.h @ np.where(ay >= nonzero, y, 0.0)) + float(mu.sum())
    dual += float(d[at_lb] @ core.lb[at_lb]) + float(d[at_ub] @ core.ub[at_ub])
    if abs(optimum - dual) > 1e-9 * max(1.0, abs(optimum)):
        return None
    lo, hi = core.lb.copy(), core.ub.copy()
    hi[at_lb] = core.lb[at_lb]
    lo[at_ub] = core.ub[at_ub]
    return ay >= nonzero, lo, hi


@dataclass
class _FaceLP:
    """The LP over the optimal face (stage 2): the free variables `zf` within their face
    bounds, rows with a nonzero dual tight, and the objective `direction · (ω(POS) picked)`;
    the fixed variables hold `fixed_val`. One home for the single and the block-diagonal solve."""

    problem: cp.Problem
    zf: cp.Variable
    direction: cp.Parameter
    free: np.ndarray
    fixed_val: np.ndarray

    def point(self) -> np.ndarray:
        """The whole z of the last solve (fixed variables at their face value)."""
        z = self.fixed_val.copy()
        z[self.free] = self.zf.value
        return z


def _face_lp(core: _Core, face, pick: np.ndarray | None = None) -> _FaceLP:
    """The stage-2 LP on the optimal face `face` (from `_face`): minimise
    `direction · z[0]`, or `direction · Σ z[pick]` over a boolean mask `pick` of z."""
    tight, lo, hi = face
    free = lo < hi
    fixed_val = np.where(free, 0.0, lo)
    G = core.G
    hf = core.h - G @ fixed_val
    Gf = G[:, free].tocsr()
    used = np.diff(Gf.indptr) > 0  # rows on fixed variables only hold at the stage-1 vertex
    zf = cp.Variable(int(free.sum()), bounds=[lo[free], hi[free]])
    cons = []
    if used.any():
        eq, ineq = used & tight, used & ~tight
        if eq.any():
            cons.append(Gf[eq] @ zf == hf[eq])
        if ineq.any():
            cons.append(Gf[ineq] @ zf >= hf[ineq])
    if core.E is not None:
        Ef = core.E[:, free].tocsr()
        cons.append(Ef @ zf == 1.0 - core.E @ fixed_val)
    direction = cp.Parameter(value=1.0)
    target = zf[0] if pick is None else pick[free].astype(float) @ zf
    return _FaceLP(cp.Problem(cp.Minimize(direction * target), cons), zf, direction, free, fixed_val)


def _on_face(core: _Core, z: np.ndarray, optimum: float, slack: float = 1.0) -> bool:
    """Whether stage-2 point z is feasible and costs the optimum (within 1e-9 relative ×
    `slack`, the number of problems summed in a block-diagonal solve)."""
    cost_ok = core.c @ z <= optimum + 1e-9 * max(1.0, abs(optimum)) * slack
    return bool(cost_ok) and (not len(core.h) or float(np.min(core.G @ z - core.h)) >= -1e-7)


def _stage2_face(core: _Core, face, z1: np.ndarray, optimum: float, runner: _Runner):
    """min and max of x_POS over the face; None if the points found fail the check."""
    _, lo, hi = face
    if not lo[0] < hi[0]:
        return float(lo[0]), float(lo[0])
    f = _face_lp(core, face)
    out = []
    for sgn, what in ((1.0, "lower"), (-1.0, "upper")):
        f.direction.value = sgn
        runner.run(f.problem, f"stage 2 on the optimal face: {what} bound of ω(POS)",
                   FACE_ALGORITHM)
        z = f.point()
        if not _on_face(core, z, optimum):
            return None
        out.append(float(z[0]))
    return out[0], out[1]


def _stage2_cost_row(core: _Core, rp: ReducedProblem, optimum: float, runner: _Runner):
    """min and max x_POS s.t. feasible and cost ≤ optimum + tol (the reference formulation)."""
    N = len(core.c)
    z = cp.Variable(N, bounds=[core.lb, core.ub])
    tol = STAGE2_TOL * min(1.0, float(np.min(rp.w, initial=1.0)), float(np.min(rp.med_w, initial=1.0)))
    cons = _rows(core, z) + [core.c @ z <= optimum + tol]
    direction = cp.Parameter(value=1.0)
    problem = cp.Problem(cp.Minimize(direction * z[0]), cons)
    out = []
    for sgn, what in ((1.0, "lower"), (-1.0, "upper")):
        direction.value = sgn
        runner.run(problem, f"stage 2: {what} bound of ω(POS)", "primal")
        out.append(float(z.value[0]))
    return out[0], out[1]


def _stage1(runner: _Runner, problem: cp.Problem, core: _Core, solver: str, stage: str) -> None:
    """Solve stage 1: interior point with crossover for large problems (a vertex with basis
    duals, fastest there), simplex otherwise or when the crossover fails."""
    if solver == cp.HIGHS and core.G.nnz >= IPM_MIN_NNZ:
        try:
            runner.run(problem, stage, "ipm")
        except SolverTimeoutError:
            raise
        except SolverError:  # a crossover failure: the simplex is slower but sure
            runner.run(problem, stage)
    else:
        runner.run(problem, stage)


def solve_bounds(
    rp: ReducedProblem,
    time_limit: float | None = 60.0,
    solver: str = cp.HIGHS,
    *,
    presolve: bool = True,
    face: bool = True,
) -> LPSolution:
    """Minimise the inconsistency, then min and max ω(POS) over the optimal set.

    `presolve` (rules R1/R2) and `face` (stage 2 on the optimal face) can be switched off to
    measure them; the answer does not depend on them.
    """
    rp, scale = _normalised(rp)
    runner = _Runner(solver, time_limit)
    core = _core(rp, presolve)
    N = len(core.c)
    z = cp.Variable(N, bounds=[core.lb, core.ub], name="z")
    cons = _rows(core, z)
    problem = cp.Problem(cp.Minimize(core.c @ z), cons)
    _stage1(runner, problem, core, solver, "stage 1: minimise inconsistency")
    optimum = float(core.c @ z.value) if N else 0.0
    z1 = np.asarray(z.value, dtype=float).copy()
    lower = upper = None
    how = "cost-row"
    if face and core.G.shape[0] + (0 if core.E is None else core.E.shape[0]):
        y = np.zeros(core.G.shape[0]) if not core.G.shape[0] else np.asarray(cons[0].dual_value, float)
        mu = np.zeros(0) if core.E is None else np.asarray(cons[-1].dual_value, float)
        f = _face(core, y, mu, optimum)
        if f is not None:
            if f[1][0] == f[2][0]:  # ω(POS) has a nonzero reduced cost: one value on the face
                lower = upper = float(f[1][0])
                how = "fixed"
            else:
                res = _stage2_face(core, f, z1, optimum, runner)
                if res is not None:
                    (lower, upper), how = res, "face"
    elif face:  # no rows: ω(POS) is free in [0, 1]
        lower, upper, how = 0.0, 1.0, "face"
    if lower is None:
        lower, upper = _stage2_cost_row(core, rp, optimum, runner)
    lower, upper = _snap(lower), _snap(upper)
    if lower > upper:  # solver noise below the rounding grid
        lower = upper = round((lower + upper) / 2, ROUND)
    x, c = _reconstruct(rp, core, z1)
    total = (optimum + core.constant + rp.constant) / scale
    return LPSolution(lower, upper, total, x, c, problem.status, how)


def _normalised(rp: ReducedProblem) -> tuple[ReducedProblem, float]:
    """The problem with every weight divided by one power of two (exact) so the largest is in
    [0.5, 1): the optimal set does not depend on the scale of the weights, but the solver's
    absolute tolerances do. Weights spanning more than `MAX_WEIGHT_RATIO` are refused: the
    solver could not tell the small ones from its tolerance (issue 12)."""
    w = np.concatenate([rp.w, rp.med_w])
    if not len(w):
        return rp, 1.0
    if not np.all(np.isfinite(w) & (w > 0)):
        raise DataError(f"a clause weight is {w[~(np.isfinite(w) & (w > 0))][0]!r}; "
                        "weights must be finite numbers > 0")
    top, low = float(w.max()), float(w.min())
    if top > MAX_WEIGHT_RATIO * low:
        raise WeightRangeError(
            f"the clause weights of this query span from {low:.3g} to {top:.3g}; the LP solver "
            f"cannot resolve weights more than {MAX_WEIGHT_RATIO:.0e} apart (its tolerance is "
            f"{SOLVER_TOL:g}); bring them closer (e.g. lower the largest rule weight)")
    scale = float(np.ldexp(1.0, -int(np.frexp(top)[1])))
    if scale == 1.0:
        return rp, 1.0
    return replace(rp, w=rp.w * scale, med_w=rp.med_w * scale, constant=rp.constant * scale), scale


def _reconstruct(rp: ReducedProblem, core: _Core, z1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Atom and clause values of an optimal point of the unreduced problem (module docstring)."""
    x = np.where(np.isnan(core.fixed), 0.0, core.fixed)
    if rp.n_atoms:
        x[core.atoms] = z1[: len(core.atoms)]
    m = rp.n_clauses
    if not m:
        return x, np.zeros(0)
    lit = np.where(rp.negated, 1.0 - x[rp.atom], x[rp.atom])
    lens = np.diff(rp.indptr)
    starts = np.minimum(rp.indptr[:-1], max(len(lit) - 1, 0))
    hi = np.maximum.reduceat(lit, starts) if len(lit) else np.zeros(m)
    total = np.add.reduceat(lit, starts) if len(lit) else np.zeros(m)
    hi = np.where(lens > 0, hi, 0.0)
    total = np.where(lens > 0, total, 0.0)
    c = np.clip(rp.p, hi, np.minimum(1.0, total))
    return x, np.clip(c, 0.0, 1.0)


def _snap(v: float) -> float:
    return float(min(1.0, max(0.0, round(v, ROUND))))


def solve_bounds_many(rps: list[ReducedProblem], time_limit: float | None = 60.0,
                      solver: str = cp.HIGHS) -> list[tuple[float, float, float]]:
    """(lower, upper, optimum) of many independent reduced problems from one block-diagonal LP.

    The problems share no variable, so the sum of their objectives is minimised by minimising
    each one (one stage-1 solve for all), and min (max) Σ_b ω_b(POS) over the product of their
    optimal faces is reached at each block's own min (max): two stage-2 solves give every
    bound. Each block's weights are normalised on their own (`_normalised`). When the duals do
    not prove the optimal face, every problem is solved on its own by `solve_bounds`.
    Explanations and Shapley values under the full semantics use it: hundreds of small LPs
    (one per sub-query) cost three solves.
    """
    if not rps:
        return []

    def _one(rp: ReducedProblem) -> tuple[float, float, float]:
        sol = solve_bounds(rp, time_limit=time_limit, solver=solver)
        return sol.lower, sol.upper, sol.optimum

    scaled = [_normalised(rp) for rp in rps]
    cores = [_core(rp, True) for rp, _ in scaled]
    sizes = np.array([len(c.c) for c in cores], np.int64)
    off = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    G = sp.block_diag([c.G if c.G.shape[0] else sp.csr_matrix((0, len(c.c))) for c in cores],
                      format="csr")
    E = None
    if any(c.E is not None for c in cores):
        E = sp.block_diag([c.E if c.E is not None else sp.csr_matrix((0, len(c.c)))
                           for c in cores], format="csr")
    core = _Core(G, np.concatenate([c.h for c in cores]), E, np.concatenate([c.c for c in cores]),
                 np.concatenate([c.lb for c in cores]), np.concatenate([c.ub for c in cores]),
                 np.zeros(1, np.int64), np.zeros(1), 0.0)
    runner = _Runner(solver, time_limit)
    N = len(core.c)
    z = cp.Variable(N, bounds=[core.lb, core.ub])
    cons = _rows(core, z)
    problem = cp.Problem(cp.Minimize(core.c @ z), cons)
    _stage1(runner, problem, core, solver, "stage 1 (many problems): minimise inconsistency")
    z1 = np.asarray(z.value, dtype=float).copy()
    optimum = float(core.c @ z1)
    face = None
    if core.G.shape[0] + (0 if core.E is None else core.E.shape[0]):
        y = np.asarray(cons[0].dual_value, float) if core.G.shape[0] else np.zeros(0)
        mu = np.zeros(0) if core.E is None else np.asarray(cons[-1].dual_value, float)
        face = _face(core, y, mu, optimum)
    if face is None:
        return [_one(rp) for rp in rps]
    _, lo, hi = face
    free = lo < hi
    fixed_val = np.where(free, 0.0, lo)
    sel = np.zeros(N, bool)
    sel[off] = True  # column 0 of every block is its ω(POS)
    values = {}
    if (sel & free).any():
        f = _face_lp(core, face, pick=sel)
        for sgn, what in ((1.0, "lower"), (-1.0, "upper")):
            f.direction.value = sgn
            runner.run(f.problem, f"stage 2 (many problems): {what} bounds of ω(POS)",
                       FACE_ALGORITHM)
            zz = f.point()
            if not _on_face(core, zz, optimum, slack=len(rps)):
                return [_one(rp) for rp in rps]
            values[what] = zz
    else:
        values = {"lower": fixed_val, "upper": fixed_val}
    out = []
    for b, ((rp, scale), c) in enumerate(zip(scaled, cores)):
        s = slice(off[b], off[b] + sizes[b])
        lower = _snap(values["lower"][off[b]] if free[off[b]] else lo[off[b]])
        upper = _snap(values["upper"][off[b]] if free[off[b]] else lo[off[b]])
        if lower > upper:
            lower = upper = round((lower + upper) / 2, ROUND)
        opt = (float(c.c @ z1[s]) + c.constant + rp.constant) / scale
        out.append((lower, upper, opt))
    return out
