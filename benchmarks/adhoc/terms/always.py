# ad hoc (session 11): the rule vote on learned terms always answering, threshold on 5-fold
# out-of-fold probabilities; `C=1 L1=3 python benchmarks/adhoc/terms/always.py SET 0,1,…,9 tv TERM_M=50`
# (compares with /work/cmp_base, the comparison's other methods on the same splits)
import sys, time, numpy as np, pandas as pd
from sklearn.metrics import f1_score
from plx_core.experiments.compare import split_set
from plx_core.tree import tree_rows
from plx_core.terms import learn_terms
import plx_core.terms as TM
from plx_core.variants import balanced_weights
from plx_core import vote as VT
from plx_core.kb import KB
from plx_core.query import encode_rows
from plx_core.selection import folds, best_threshold
key = sys.argv[1]; runs = [int(r) for r in sys.argv[2].split(",")]
mode = sys.argv[3] if len(sys.argv) > 3 else "tv"
import os
C = float(os.environ.get('C', 1)); L1 = float(os.environ.get('L1', 0.5))
for kv in sys.argv[4:]:
    k, v = kv.split("="); setattr(TM, k, tuple(int(c) for c in v.split(",")) if k == "TERM_CLASSES" else type(getattr(TM, k))(v))
X, y, splits = split_set(key, max(runs)+1)
X = X.astype(str)
base = pd.read_csv("/work/cmp_base/compare_runs.csv")
base = base[base.dataset == key]
def fit(codes, yy, sizes, like):
    cw = balanced_weights(int(yy.sum()), len(yy))
    T = learn_terms(codes, sizes, yy, cw)
    paths = [(T.bodies, T.group)] if len(T.bodies) else []
    rules = VT.rule_set(sizes, paths)
    return VT.RuleVote(like, rules, codes, yy, cw, None, C=C, l1=L1), T.n_terms
res = []
for r in runs:
    tr, te = splits[r]
    rows = tree_rows(X.iloc[tr].reset_index(drop=True), y[tr], positive=1)
    sizes = [len(rows.domains[f]) for f in rows.features]
    like = KB(rows.features, rows.domains)
    t0 = time.perf_counter()
    oof = np.full(len(tr), np.nan)
    for a, b in folds(rows.y, 5, r):
        rv, _ = fit(rows.codes[a], rows.y[a], sizes, like)
        oof[b] = VT.probability(rv.score(rows.codes[b]))
    t, f_oof = best_threshold(rows.y, oof)
    rv, nt = fit(rows.codes, rows.y, sizes, like)
    dt = time.perf_counter() - t0
    te_codes = encode_rows(like, X.iloc[te].reset_index(drop=True))
    p = VT.probability(rv.score(te_codes))
    pred = np.nan_to_num(p, nan=-1) > t + 1e-9
    f = f1_score(y[te], pred)
    b = base[base.run == r].set_index("method").f1
    res.append((r, f_oof, t, f, b.get("plx"), b.get("FIGS"), b.get("CART"), b.get("EBM"), nt, dt))
    print(f"run {r}: oof {f_oof:.3f} t {t} test {f:.3f} | plx {b.get('plx'):.3f} FIGS {b.get('FIGS'):.3f} CART {b.get('CART'):.3f} EBM {b.get('EBM'):.3f} | terms {nt} {dt:.2f}s", flush=True)
a = np.array([x[1:] for x in res], float)
print("mean oof %.3f test %.3f plx %.3f FIGS %.3f CART %.3f EBM %.3f" % (a[:,0].mean(), a[:,2].mean(), a[:,3].mean(), a[:,4].mean(), a[:,5].mean(), a[:,6].mean()))
