# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on finer bins ("direct-vote bins=8", old → new)";
# kept as it ran (moved from /tmp/fb/leak.py). Run from the repository root: python benchmarks/adhoc/fb/leak.py …
import sys, warnings
warnings.filterwarnings("ignore")
import numpy as np
from plx_core.experiments.compare import split_set
from plx_core.discretize import Discretizer
from plx_core.direct import direct_kb_with_reason
from plx_core import variants as V
from plx_core.query import encode_rows, query_many
from plx_core import vote as VT
from plx_core.selection import best_threshold, f1_at, folds
def kbv(ftr, ytr, seed):
    kb = direct_kb_with_reason(ftr, ytr, positive=1, max_len=1)[0]
    kb = V.weighted_class_kb(kb, *V.balanced_weights(int(ytr.sum()), len(ytr)))
    sizes = [len(kb.domains[f]) for f in kb.features]
    slots = VT.value_slots(encode_rows(kb, ftr), sizes)
    wof = lambda yy: V.balanced_weights(int(np.sum(yy)), len(yy))
    return VT.VoteCandidate(kb, slots, sizes, ytr, wof, seed)
s = sys.argv[1]; runs = int(sys.argv[2]); meth = sys.argv[3]; nb = int(sys.argv[4])
X, y, splits = split_set(s, runs)
acc = []
for r, (tr, te) in enumerate(splits):
    Xtr, ytr = X.iloc[tr].reset_index(drop=True), y[tr]
    d = Discretizer(meth, nb).fit(Xtr, ytr.astype(str))
    leaky = kbv(d.transform(Xtr), ytr, r)
    honest = np.full(len(ytr), np.nan)
    for a, b in folds(ytr, 10, r):
        dd = Discretizer(meth, nb).fit(Xtr.iloc[a], ytr[a].astype(str))
        c = kbv(dd.transform(Xtr.iloc[a]).reset_index(drop=True), ytr[a], r)
        t = 0.5
        honest[b] = query_many(c.kb(0.5), dd.transform(Xtr.iloc[b]).reset_index(drop=True), semantics="relevant").mean
    # honest: decide via kb means (threshold folded at 0.5) — use the vote's probability grid instead on means
    tl, fl = best_threshold(ytr, leaky.oof)
    th, fh = best_threshold(ytr, honest)
    m = query_many(leaky.kb(tl), d.transform(X.iloc[te].reset_index(drop=True)), semantics="relevant").mean
    acc.append((fl, fh, float(f1_at(y[te], m, np.array([0.5]))[0])))
    print(s, r, "leaky %.3f honest %.3f test %.3f" % acc[-1], flush=True)
print(s, meth, "mean leaky %.3f honest %.3f test %.3f" % tuple(np.mean(acc, 0)))
