# pure DNF: positive terms only, predict positive iff one fires; first K terms
import sys, numpy as np
from sklearn.metrics import f1_score
from plx_core.experiments.compare import split_set
from plx_core.tree import tree_rows
import plx_core.terms as TM
from plx_core.variants import balanced_weights
from plx_core import vote as VT
from plx_core.kb import KB
from plx_core.query import encode_rows
key = sys.argv[1]
for kv in sys.argv[2:]:
    k, v = kv.split("="); setattr(TM, k, type(getattr(TM, k))(v))
X, y, splits = split_set(key, 10); X = X.astype(str)
res = {k: [] for k in (1,2,3,4,5,6,8,12)}
for r in range(10):
    tr, te = splits[r]
    rows = tree_rows(X.iloc[tr].reset_index(drop=True), y[tr], positive=1)
    sizes = [len(rows.domains[f]) for f in rows.features]
    like = KB(rows.features, rows.domains)
    cw = balanced_weights(int(rows.y.sum()), len(rows.y))
    T = TM.learn_terms(rows.codes, sizes, rows.y, cw, max_terms=12)
    te_codes = encode_rows(like, X.iloc[te].reset_index(drop=True))
    m = VT.body_matches(T.bodies, sizes, te_codes).toarray()
    # positive terms are first (class 1 loop first)
    for K in res:
        g = np.isin(T.group, np.arange(K))
        pred = m[:, g].any(axis=1)
        res[K].append(f1_score(y[te], pred))
print({K: round(np.mean(v), 3) for K, v in res.items()})
