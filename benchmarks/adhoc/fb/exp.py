# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on finer bins ("direct-vote bins=8", old → new)";
# kept as it ran (moved from /tmp/fb/exp.py). Run from the repository root: python benchmarks/adhoc/fb/exp.py …
import sys, time, warnings
import numpy as np, pandas as pd
warnings.filterwarnings("ignore")
from plx_core.experiments.compare import split_set, plx_max_len
from plx_core.discretize import Discretizer
from plx_core.direct import direct_kb_with_reason
from plx_core import variants as V
from plx_core.query import encode_rows, query_many
from plx_core import vote as VT
from plx_core.selection import best_threshold, f1_at

def vote_on(Xtr, ytr, Xte, yte, method, bins, seed):
    d = Discretizer(method, bins).fit(Xtr, ytr.astype(str))
    ftr, fte = d.transform(Xtr), d.transform(Xte)
    kb = direct_kb_with_reason(ftr, ytr, positive=1, max_len=1)[0]
    kb = V.weighted_class_kb(kb, *V.balanced_weights(int(ytr.sum()), len(ytr)))
    codes = encode_rows(kb, ftr)
    sizes = [len(kb.domains[f]) for f in kb.features]
    slots = VT.value_slots(codes, sizes)
    wof = lambda yy: V.balanced_weights(int(np.sum(yy)), len(yy))
    cand = VT.VoteCandidate(kb, slots, sizes, ytr, wof, seed)
    t, oof = best_threshold(ytr, cand.oof)
    m = query_many(cand.kb(t), fte, semantics="relevant").mean
    test = float(f1_at(yte, m, np.array([0.5]))[0])
    return oof, test, np.mean([len(b.cuts)+1 for b in d.binnings_.values()])

sets = sys.argv[1].split(","); runs = int(sys.argv[2]); configs = [c.split(":") for c in sys.argv[3].split(",")]
for s in sets:
    X, y, splits = split_set(s, runs)
    res = {}
    for r, (tr, te) in enumerate(splits):
        Xtr, Xte = X.iloc[tr].reset_index(drop=True), X.iloc[te].reset_index(drop=True)
        for m, b in configs:
            t0 = time.process_time()
            oof, test, nb = vote_on(Xtr, y[tr], Xte, y[te], m, int(b), r)
            res.setdefault((m, b), []).append((oof, test, nb, time.process_time() - t0))
    for k, v in res.items():
        a = np.array(v)
        print(s, k, "oof %.3f test %.3f bins %.1f cpu %.2f" % tuple(a.mean(0)), flush=True)
