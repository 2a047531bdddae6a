# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on pairs of features ("direct-vote pairs", old → new)";
# kept as it ran (moved from /tmp/acc5/pairs.py). Run from the repository root: python benchmarks/adhoc/acc5/pairs.py …
"""Ceiling check: the fitted vote on one- + two-feature clauses (pair vote) vs the default."""
import sys, numpy as np, pandas as pd
from plx_core.experiments.compare import split_set, make
from plx_core import vote as VT
from plx_core.selection import best_threshold, f1_at
from plx_core.variants import balanced_weights

def codes_of(tr: pd.DataFrame, te: pd.DataFrame):
    ct, ce, sizes = [], [], []
    for c in tr.columns:
        cats = pd.Index(pd.unique(tr[c].dropna().astype(str)))
        a = cats.get_indexer(tr[c].astype(str).where(tr[c].notna(), None))
        b = cats.get_indexer(te[c].astype(str).where(te[c].notna(), None))
        ct.append(a); ce.append(b); sizes.append(len(cats))
    return np.array(ct).T, np.array(ce).T, sizes

def with_pairs(c, sizes, pairs):
    out, sz = [c], list(sizes)
    for i, j in pairs:
        ok = (c[:, i] >= 0) & (c[:, j] >= 0)
        out.append(np.where(ok, c[:, i] * sizes[j] + c[:, j], -1)[:, None]); sz.append(sizes[i] * sizes[j])
    return np.hstack(out), sz

cw_of = lambda y: balanced_weights(int(np.sum(y)), len(y))

def run_vote(ctr, cte, sizes, ytr, yte, seed, C=1.0):
    vs = VT.value_slots(ctr, sizes)
    oof, (w, b) = VT.cross_fit(vs, ytr, cw_of, seed, C=C)
    t, f = best_threshold(ytr, VT.probability(oof))
    counts = VT.slot_counts(vs, ytr)
    vt = VT.value_slots(cte, sizes)
    S = VT.votes(vt, np.zeros(len(yte)), np.arange(len(yte)), counts, cw_of(ytr), leave_out=False)
    p = VT.probability(VT.scores(S, w, b))
    return f, float(f1_at(yte, p, np.array([t]))[0])

sets = sys.argv[1].split(","); runs = int(sys.argv[2]); C = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
for key in sets:
    X, y, splits = split_set(key, 10)
    rows = []
    for run, (tr, te) in list(enumerate(splits))[:runs]:
        m = make("plx", run, X.shape[1]).fit(X.iloc[tr], y[tr]).model_
        d_f1 = float(f1_at(y[te], m.predict(X.iloc[te]).astype(float), np.array([0.5]))[0])
        sel = m.selection_
        best_oof = sel.scores.get(sel.key, np.nan)
        Ttr, Tte = m.transform_rows(X.iloc[tr]), m.transform_rows(X.iloc[te])
        ctr, cte, sizes = codes_of(Ttr, Tte)
        n = len(sizes)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        a, sa = with_pairs(ctr, sizes, pairs); b_, _ = with_pairs(cte, sizes, pairs)
        one = run_vote(ctr, cte, sizes, y[tr], y[te], run, C)
        two = run_vote(a, b_, sa, y[tr], y[te], run, C)
        rows.append((m.chosen_, best_oof, d_f1, *one, *two))
        print(key, run, m.chosen_, f"def oof {best_oof:.3f} test {d_f1:.3f} | vote1 oof {one[0]:.3f} test {one[1]:.3f} | pairs oof {two[0]:.3f} test {two[1]:.3f}", flush=True)
    r = np.array([x[1:] for x in rows], float)
    print(key, "MEAN def oof/test %.3f %.3f vote1 %.3f %.3f pairs %.3f %.3f" % tuple(r.mean(0)), flush=True)
