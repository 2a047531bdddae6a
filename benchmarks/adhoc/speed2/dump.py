"""Per split of the comparison: plx's test predictions and ω(POS) means, the chosen model and its
settings, every candidate's OOF F1 and threshold. usage: PYTHONPATH=ROOT python dump.py OUTDIR SETS [runs]"""
import sys, os, pickle, warnings
warnings.simplefilter("ignore")
import numpy as np
import plx_core
from plx_core.experiments.compare import make, split_set
out, sets = sys.argv[1], sys.argv[2].split(",")
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
os.makedirs(out, exist_ok=True)
print(plx_core.__file__, file=sys.stderr)
for key in sets:
    X, yb, splits = split_set(key, runs, 1000)
    res = []
    for run, (tr, te) in enumerate(splits):
        m = make("plx", run, X.shape[1]).fit(X.iloc[tr], yb[tr])
        pred = m.predict(X.iloc[te])
        est = m.model_
        b = est.bounds(X.iloc[te])
        sel = getattr(est, "selection_", None)
        res.append(dict(pred=pred, y=yb[te], lo=np.asarray(b.lower), hi=np.asarray(b.upper),
                        chosen=est.chosen_, thr=est.threshold_, variant=est.variant_,
                        reason=est.chosen_reason_,
                        sel=None if sel is None else (sel.chosen, sel.threshold, sel.max_depth, sel.m, sel.alpha, sel.bins, sel.pairs, sel.n_rows),
                        scores=None if sel is None else dict(sel.scores),
                        thresholds=None if sel is None else dict(sel.thresholds)))
    pickle.dump(res, open(f"{out}/{key}.pkl", "wb"))
    print(key, flush=True)
