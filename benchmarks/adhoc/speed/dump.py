# Ad hoc script behind benchmarks/RESULTS.md, "Same answers, less work: the two new votes' cost taken back (session 9, old → new)";
# kept as it ran (moved from /tmp/speed/dump.py). Run from the repository root: python benchmarks/adhoc/speed/dump.py …
"""Per split of the comparison: plx's test predictions, chosen model, every candidate's OOF score.
usage: PYTHONPATH=ROOT python dump.py OUTDIR SETS [runs]"""
import sys, os, pickle, warnings
warnings.simplefilter("ignore")
import numpy as np
from plx_core.experiments.compare import make, split_set
out, sets = sys.argv[1], sys.argv[2].split(",")
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
os.makedirs(out, exist_ok=True)
for key in sets:
    X, yb, splits = split_set(key, runs, 1000)
    res = []
    for run, (tr, te) in enumerate(splits):
        m = make("plx", run, X.shape[1]).fit(X.iloc[tr], yb[tr])
        pred = m.predict(X.iloc[te])
        est = m.model_
        sel = getattr(est, "selection_", None)
        res.append(dict(pred=pred, y=yb[te], chosen=est.chosen_, thr=getattr(est, "threshold_", None),
                        scores=None if sel is None else dict(sel.scores),
                        thresholds=None if sel is None else dict(sel.thresholds)))
    pickle.dump(res, open(f"{out}/{key}.pkl", "wb"))
    print(key, flush=True)
