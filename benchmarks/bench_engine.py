"""Engine benchmarks: run on demand (`python3 benchmarks/bench_engine.py [--quick]`), not by pytest.

Every figure is a median over repeats, and every ratio compares against a baseline run in the
same process, interleaved with ours, so that machine load shifts both alike.

(a) a full 10-feature query on a Direct KB from 3,000 rows of Syn 10/4: ours (`query`, exact
    weighted median) vs a plain numpy closed form (integer keys for the query's 1,023 feature
    subsets, `searchsorted` into the sorted KB keys, the median interval) — target ≤ 2×; and the
    same query through the LP (`method="lp"`) — target ≥ 100× slower than ours.
(b) the LP path on a random KB of 10,000 clauses `POS ∨ ¬f_i=1 ∨ …` (1–5 feature literals over
    10,000 one-valued features), a query fixing 30% of the features: `query(..., "full")` vs a
    plain scipy two-stage solve of the unreduced Definition-3 LP — target ≤ 0.25×.
(c) Direct KB build for 10 and 12 features from 3,000 and 10,000 rows: time and peak traced
    memory — target 12 features × 10,000 rows under 10 s.
(d) `query_many` of 1,000 queries vs 1,000 single `query` calls.
(e) (not run by default) the LP levers one by one on (b)'s reduced problem: `solve_bounds`
    with the presolve, the stage 2 on the optimal face and the interior-point stage 1 switched
    off and on.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import platform
import statistics
import sys
import tracemalloc

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from timing import fmt, interleaved, timed  # noqa: E402

from plx_core import direct_kb, query
from plx_core.datasets import synthetic
from plx_core.kb import KB
from plx_core.query import query_many

# --------------------------------------------------------------------------- helpers


def report(title: str, lines: list[str]) -> None:
    print(f"\n## {title}")
    for line in lines:
        print("  " + line)
    sys.stdout.flush()


# --------------------------------------------------------------------------- (a) median vs numpy


class NumpyClosedForm:
    """The plain numpy reference: sorted packed keys of the KB's clauses, one searchsorted per
    query over its subsets' keys, then the median interval of the matched targets."""

    def __init__(self, kb: KB):
        sizes = np.array([len(kb.domains[f]) + 1 for f in kb.features])
        bits = np.ceil(np.log2(np.maximum(sizes, 2))).astype(np.int64)
        self.shifts = np.concatenate([[0], np.cumsum(bits)[:-1]])
        keys = ((kb.codes.astype(np.int64) + 1) << self.shifts).sum(axis=1)
        order = np.argsort(keys)
        self.keys = keys[order]
        self.target = np.where(kb.head[order] > 0, kb.p[order], 1.0 - kb.p[order])
        F = len(kb.features)
        masks = np.arange(1, 2**F)
        self.member = ((masks[:, None] >> np.arange(F)) & 1).astype(np.int64)
        self.lookup = {f: {v: i for i, v in enumerate(kb.domains[f])} for f in kb.features}
        self.features = kb.features

    def bounds(self, q: dict) -> tuple[float, float]:
        codes = np.array([self.lookup[f][q[f]] for f in self.features], np.int64)
        sub = self.member @ ((codes + 1) << self.shifts)
        pos = np.searchsorted(self.keys, sub)
        pos = np.minimum(pos, len(self.keys) - 1)
        t = np.sort(self.target[pos[self.keys[pos] == sub]])
        n = len(t)
        return (float(t[(n - 1) // 2]), float(t[n // 2])) if n else (0.0, 1.0)


def bench_a(args) -> None:
    ds = synthetic(10, 4, 3000, seed=0)
    kb = direct_kb(ds.X, ds.y, positive=ds.positive)
    test = synthetic(10, 4, 400, seed=1).X
    queries = [test.iloc[i].to_dict() for i in range(args.n_queries)]
    ref = NumpyClosedForm(kb)
    query(kb, queries[0])  # build the KB's lookup index once, as any session does
    for q in queries:  # same answers
        b = query(kb, q)
        lo, hi = ref.bounds(q)
        assert abs(b.lower - lo) < 1e-12 and abs(b.upper - hi) < 1e-12, (q, b, lo, hi)
    ours, base, lp = [], [], []
    for q in queries:
        t = interleaved({"ours": lambda q=q: query(kb, q), "numpy": lambda q=q: ref.bounds(q)},
                        args.repeat_fast)
        ours.append(t["ours"])
        base.append(t["numpy"])
    for q in queries[: args.n_lp]:
        b = query(kb, q, method="lp")
        assert b.method == "lp"
        assert abs(b.mean - query(kb, q).mean) < 1e-6
        lp.append(statistics.median(timed(lambda q=q: query(kb, q, method="lp"))
                                    for _ in range(args.repeat_lp)))
    o, n, lpm = statistics.median(ours), statistics.median(base), statistics.median(lp)
    report("(a) full 10-feature query, Direct KB of Syn 10/4 (3,000 rows, "
           f"{len(kb):,} clauses), median over {len(queries)} queries", [
               f"ours (query, weighted median): {fmt(o)}",
               f"plain numpy closed form:       {fmt(n)}",
               f"ours / numpy = {o / n:.2f}  (target ≤ 2)  {'MET' if o / n <= 2 else 'NOT MET'}",
               f"same query through the LP (method='lp', {len(lp)} queries): {fmt(lpm)}",
               f"LP / ours = {lpm / o:.0f}×  (target ≥ 100×)  {'MET' if lpm / o >= 100 else 'NOT MET'}",
           ])


# --------------------------------------------------------------------------- (b) LP vs scipy


def random_kb(n_clauses: int, n_features: int, seed: int = 0) -> tuple[KB, dict]:
    rng = np.random.default_rng(seed)
    lens = rng.integers(1, 6, n_clauses)
    codes = np.full((n_clauses, n_features), -1, np.int8)
    for i, k in enumerate(lens):
        codes[i, rng.choice(n_features, k, replace=False)] = 0
    feats = [f"f{i}" for i in range(n_features)]
    m = n_clauses
    kb = KB(feats, {f: ("1",) for f in feats}, codes, np.ones(m, np.int8), rng.random(m),
            np.ones(m), np.full(m, -1), np.full(m, -1), np.zeros(m, np.int8), kind="general")
    known = rng.choice(n_features, int(0.3 * n_features), replace=False)
    vals = rng.integers(0, 2, len(known))
    q = {feats[j]: ("1" if v else "0") for j, v in zip(known, vals)}
    return kb, q


def scipy_two_stage(kb: KB, q: dict) -> tuple[float, float, float]:
    """Definition 3 unreduced, straight into scipy.optimize.linprog (HiGHS): x per atom (POS and
    every feature value; ω(¬z) = 1 − x_z), ω(c) and t ≥ |ω(c) − p| per clause, the query as
    variable bounds (Algorithm 4); stage 1 min Σ w t, stage 2 min / max x_POS s.t.
    Σ w t ≤ optimum + 1e-9. Learned clauses only (±POS ∨ ¬a=v ∨ …)."""
    m, F = kb.codes.shape
    offsets = np.concatenate([[1], 1 + np.cumsum([len(kb.domains[f]) for f in kb.features])])
    n_atoms = int(offsets[-1])
    r, f = np.nonzero(kb.codes >= 0)
    lit_atom = np.concatenate([np.zeros(m, np.int64), offsets[f] + kb.codes[r, f]])
    lit_row = np.concatenate([np.arange(m), r])
    lit_neg = np.concatenate([kb.head < 0, np.ones(len(r), bool)])
    L = len(lit_atom)
    sign = np.where(lit_neg, -1.0, 1.0)
    X, C, T = 0, n_atoms, n_atoms + m  # column offsets
    n = n_atoms + 2 * m
    # Boole: c − Σ s·x ≤ #neg ; monotonicity: s·x − c ≤ −neg ; |c − p| ≤ t
    n_neg = np.bincount(lit_row, weights=lit_neg.astype(float), minlength=m)
    boole = sp.csr_matrix((np.concatenate([np.ones(m), -sign]),
                           (np.concatenate([np.arange(m), lit_row]),
                            np.concatenate([C + np.arange(m), X + lit_atom]))), shape=(m, n))
    mono = sp.csr_matrix((np.concatenate([sign, -np.ones(L)]),
                          (np.concatenate([np.arange(L), np.arange(L)]),
                           np.concatenate([X + lit_atom, C + lit_row]))), shape=(L, n))
    eye = np.arange(m)
    up = sp.csr_matrix((np.concatenate([np.ones(m), -np.ones(m)]),
                        (np.concatenate([eye, eye]), np.concatenate([C + eye, T + eye]))), shape=(m, n))
    down = sp.csr_matrix((np.concatenate([-np.ones(m), -np.ones(m)]),
                          (np.concatenate([eye, eye]), np.concatenate([C + eye, T + eye]))), shape=(m, n))
    A = sp.vstack([boole, mono, up, down]).tocsr()
    b = np.concatenate([n_neg, -lit_neg.astype(float), kb.p, -kb.p])
    lo = np.zeros(n)
    hi = np.concatenate([np.ones(n_atoms + m), np.full(m, np.inf)])
    for name, value in q.items():
        j = kb.features.index(name)
        for k, v in enumerate(kb.domains[name]):
            lo[offsets[j] + k] = hi[offsets[j] + k] = 1.0 if v == value else 0.0
    cost = np.zeros(n)
    cost[T:] = kb.w
    bounds = np.column_stack([lo, hi])
    s1 = linprog(cost, A_ub=A, b_ub=b, bounds=bounds, method="highs")
    assert s1.status == 0, s1.message
    A2 = sp.vstack([A, sp.csr_matrix(cost)]).tocsr()
    b2 = np.append(b, s1.fun + 1e-9)
    out = []
    for s in (1.0, -1.0):
        obj = np.zeros(n)
        obj[X] = s
        r2 = linprog(obj, A_ub=A2, b_ub=b2, bounds=bounds, method="highs")
        assert r2.status == 0, r2.message
        out.append(float(r2.x[X]))
    return out[0], out[1], float(s1.fun)


def bench_b(args) -> None:
    size = args.lp_size
    kb, q = random_kb(size, size, seed=0)
    res: dict[str, object] = {}
    t = interleaved({
        "ours": lambda: res.__setitem__("ours", query(kb, q, semantics="full")),
        "scipy": lambda: res.__setitem__("scipy", scipy_two_stage(kb, q)),
    }, args.repeat_lp_big)
    b = res["ours"]
    lo, hi, opt = res["scipy"]
    ratio = t["ours"] / t["scipy"]
    report(f"(b) LP path: {size:,} clauses × {size:,} one-valued features, query fixing 30%, "
           f"median of {args.repeat_lp_big}", [
               f"ours (query, semantics='full'): {fmt(t['ours'])}  → [{b.lower}, {b.upper}], "
               f"inconsistency {b.inconsistency:.6f}",
               f"plain scipy two-stage linprog:  {fmt(t['scipy'])}  → [{lo:.7f}, {hi:.7f}], "
               f"optimum {opt:.6f}",
               f"agree: {abs(b.lower - lo) < 1e-6 and abs(b.upper - hi) < 1e-6 and abs(b.inconsistency - opt) < 1e-6}",
               f"ours / scipy = {ratio:.3f}  (target ≤ 0.25)  {'MET' if ratio <= 0.25 else 'NOT MET'}",
           ])


# --------------------------------------------------------------------------- (c) KB build


def bench_c(args) -> None:
    lines = []
    for L, n in args.builds:
        ds = synthetic(L, 4, n, seed=0)
        build = functools.partial(direct_kb, ds.X, ds.y, positive=ds.positive)
        times = [timed(build) for _ in range(args.repeat_build)]
        tracemalloc.start()
        kb = build()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        t = statistics.median(times)
        target = ""
        if (L, n) == (12, 10_000):
            target = f"  (target < 10 s)  {'MET' if t < 10 else 'NOT MET'}"
        lines.append(f"Syn {L}/4, {n:,} rows → {len(kb):,} clauses: {fmt(t)}, "
                     f"peak traced memory {peak / 2**20:,.0f} MiB{target}")
        del kb
    report(f"(c) Direct KB build (median of {args.repeat_build})", lines)


# --------------------------------------------------------------------------- (d) batch


def bench_d(args) -> None:
    ds = synthetic(10, 4, 3000, seed=0)
    kb = direct_kb(ds.X, ds.y, positive=ds.positive)
    test = synthetic(10, 4, args.n_batch, seed=1).X
    rows = [test.iloc[i].to_dict() for i in range(len(test))]
    query(kb, rows[0])
    batch = query_many(kb, test)
    single = np.array([[query(kb, r).lower, query(kb, r).upper] for r in rows[:50]])
    assert np.allclose(single[:, 0], batch.lower[:50]) and np.allclose(single[:, 1], batch.upper[:50])
    t = interleaved({
        "batch": lambda: query_many(kb, test),
        "loop": lambda: [query(kb, r) for r in rows],
    }, args.repeat_batch)
    report(f"(d) {len(rows):,} full queries on the Syn 10/4 Direct KB (median of {args.repeat_batch})", [
        f"query_many:               {fmt(t['batch'])}  ({fmt(t['batch'] / len(rows))} per query)",
        f"{len(rows):,} × query:           {fmt(t['loop'])}  ({fmt(t['loop'] / len(rows))} per query)",
        f"speed-up: {t['loop'] / t['batch']:.0f}×",
    ])


# --------------------------------------------------------------------------- (e) LP levers


def bench_e(args) -> None:
    import importlib
    from unittest import mock

    import plx_core.lp as lp

    Q = importlib.import_module("plx_core.query")
    kb, q = random_kb(args.lp_size, args.lp_size, seed=0)
    pq = Q.prepare_query(kb, q)
    red = Q.reduce_kb(kb, pq, "full")
    rp, _, _ = Q.build_problem(kb, pq, red, all_clauses=False, domain_constraint=False)
    simplex = {"IPM_MIN_NNZ": 1 << 62}
    ipm = {"IPM_MIN_NNZ": 0}
    variants = {
        "t-form, simplex, cost-row stage 2": ({"presolve": False, "face": False}, simplex),
        "+ interior point stage 1": ({"presolve": False, "face": False}, ipm),
        "+ stage 2 on the optimal face": ({"presolve": False}, ipm),
        "+ presolve R1/R2 (the default)": ({}, ipm),
        "default but simplex stage 1": ({}, simplex),
    }
    answers = {}

    def run(name, kw, patch):
        with mock.patch.multiple(lp, **patch):
            s = lp.solve_bounds(rp, **kw)
        answers[name] = (s.lower, s.upper, round(s.optimum, 6), s.stage2)

    t = interleaved({k: functools.partial(run, k, *v) for k, v in variants.items()}, args.repeat_lp_big)
    core = lp._core(rp, True)
    report(f"(e) solve_bounds levers on (b)'s reduced problem: {rp.n_clauses:,} clauses + "
           f"{len(rp.med_target)} median terms over {rp.n_atoms:,} atoms (presolve keeps "
           f"{len(core.atoms):,} atoms, {core.G.shape[0]:,} rows); median of {args.repeat_lp_big}",
           [f"{k:<40} {fmt(v)}  {answers[k]}" for k, v in t.items()])


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats and smaller sizes")
    ap.add_argument("--only", default="abcd", help="sections to run, e.g. 'ab' (e: LP levers)")
    args = ap.parse_args(argv)
    quick = args.quick
    args.n_queries = 20 if quick else 100
    args.n_lp = 5 if quick else 20
    args.repeat_fast = 5 if quick else 21
    args.repeat_lp = 1 if quick else 3
    args.lp_size = 3000 if quick else 10_000
    args.repeat_lp_big = 1 if quick else 3
    args.builds = [(10, 3000)] if quick else [(10, 3000), (10, 10_000), (12, 3000), (12, 10_000)]
    args.repeat_build = 1 if quick else 3
    args.n_batch = 1000
    args.repeat_batch = 1 if quick else 3
    import cvxpy
    import highspy  # noqa: F401
    import scipy

    print(f"# plx engine benchmarks — {dt.datetime.now().isoformat(timespec='seconds')}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"cvxpy {cvxpy.__version__}; {platform.machine()}, {platform.processor() or '?'}; "
          f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    for key, fn in (("a", bench_a), ("b", bench_b), ("c", bench_c), ("d", bench_d), ("e", bench_e)):
        if key in args.only:
            fn(args)


if __name__ == "__main__":
    main()
