# ad hoc (session 12, logic12): per split, what `selection.choose` saw (every candidate's
# out-of-fold means, the Direct KB's leave-one-out decisions, the folds) and the test F1 of the
# model chosen without the rule vote and of the rule vote forced to answer, so that choice
# rules can be compared offline (`rules.py`).
#   PYTHONPATH=. python benchmarks/adhoc/logic12/dump.py OUTDIR SETS FIRST-LAST
import os, pickle, sys, time
import numpy as np
from sklearn.metrics import f1_score
import plx_core.selection as S
from plx_core.experiments.compare import make, split_set

out, sets, span = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
a, b = (int(v) for v in span.split("-"))
os.makedirs(out, exist_ok=True)
orig = S.choose
for key in sets:
    X, y, splits = split_set(key, b + 1)
    for r in range(a, b + 1):
        path = os.path.join(out, f"{key}_{r}.pkl")
        if os.path.exists(path):
            continue
        tr, te = splits[r]
        seen = {}
        rec = {"set": key, "run": r}
        for mode in os.environ.get("MODES", "without,rule-vote").split(","):
            def spy(y_, dp, dr, oof, fold=None, offsets=None, mode=mode):
                seen["args"] = (np.asarray(y_), dp, dr, dict(oof), fold, offsets)
                rest = {k: v for k, v in oof.items() if k != "rule-vote"}
                if mode == "without" or "rule-vote" not in oof:
                    sel = S._choose(y_, dp, dr, rest, fold, offsets)
                else:
                    sel = S._choose(y_, None, dr, {"rule-vote": oof["rule-vote"]})
                seen[mode] = sel
                return sel
            S.choose = spy
            t0 = time.perf_counter()
            m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
            pred = m.predict(X.iloc[te])
            S.choose = orig
            rec[mode + "_f1"] = float(f1_score(y[te], pred))
            rec[mode + "_pred"] = pred
            rec[mode + "_key"] = seen[mode].key if mode in seen else "direct(no selection)"
            rec[mode + "_s"] = time.perf_counter() - t0
        rec["args"] = seen.get("args")
        rec["y_test"] = y[te]
        with open(path, "wb") as fh:
            pickle.dump(rec, fh)
        print(f"{key} {r}: " + " | ".join(f"{k} {rec.get(k + '_key')} {rec[k + '_f1']:.3f}"
                                         for k in ("without", "rule-vote") if k + "_f1" in rec),
              flush=True)
