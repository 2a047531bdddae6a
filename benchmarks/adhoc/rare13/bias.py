import pickle, sys
import numpy as np
import plx_core.selection as S
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from replay import test_f1, smooth_key, credit_of, trees, cv_f1
for p in sys.argv[1:]:
    recs = pickle.load(open(p, "rb"))
    acc = {}
    for r in recs:
        y = r["y"]; rows = r["direct_rows"] if r["direct_rows"] is not None else np.arange(len(y))
        yy = y[rows].astype(bool); fold = r["fold"][rows]
        keys = [smooth_key(r), "direct-vote", "tree-all", "tree-all depth≤2", "tree-all depth≤3", "tree-all depth≤4", "tree-bin-deep pruned α=0.01", "rule-vote"]
        for k in keys:
            if k is None or k not in r["fit"]["oof"]: continue
            t, f = S.best_threshold(yy, r["fit"]["oof"][k][rows])
            cv = cv_f1(yy, r["fit"]["oof"][k][rows], fold)
            h = S.best_threshold(yy, r["honest"]["oof"][k][rows])[1] if k in r["honest"]["oof"] and k in trees(r["fit"]["oof"]) else np.nan
            hcv = cv_f1(yy, r["honest"]["oof"][k][rows], fold) if k in trees(r["fit"]["oof"]) else np.nan
            kk = "smooth" if k == smooth_key(r) else k
            acc.setdefault(kk, []).append((f, cv, h, hcv, test_f1(r, k, t)))
    print("==", p)
    for k, v in acc.items():
        a = np.array(v)
        print(f"{k:30s} oof {a[:,0].mean():.3f} cvthr {a[:,1].mean():.3f} honest {np.nanmean(a[:,2]):.3f} honest+cv {np.nanmean(a[:,3]):.3f} test {a[:,4].mean():.3f}")
