# Ad hoc script behind benchmarks/RESULTS.md, "Fitted vote weights on the one-feature clauses in the search ("direct-vote", old → new)";
# kept as it ran (moved from /tmp/add/exp4.py). Run from the repository root: python benchmarks/adhoc/add/exp4.py …
import sys, warnings, numpy as np, pandas as pd
from lib import *
from fitlib import *
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import plx_max_len
from sklearn.metrics import f1_score
warnings.simplefilter("ignore")
base = pd.concat([pd.read_csv(f) for f in ("base_a/compare_runs.csv", "base_b/compare_runs.csv")])
sets = sys.argv[1].split(","); runs = int(sys.argv[2])
import os
GRID = os.environ.get('GRID') == '1'
configs = [(1, 0.3), (1, 1.0)]
for key in sets:
    rows = []
    for run in range(runs):
        d = get(key, run); y = d["ytr"]; kb = d["kb"]
        pr, pc = d["ptr"]
        if "sel" not in d:
            m = PLXClassifier(positive=1, max_len=plx_max_len(d["Xtr"].shape[1]), random_state=run).fit(d["Xtr"], y)
            d["sel"] = m.selection_
        sel = d["sel"]
        best_old = max(sel.scores.values()) if sel else -1
        f_old = base[(base.dataset == key) & (base.run == run)].f1.iloc[0]
        # test pairs: pte computed against full KB
        tr_, tc_ = d["pte"]
        res = {"old": f_old}
        for hi, C in configs:
            if hi > int(kb.lengths.max()): continue
            sc = oof_scores(kb, pr, pc, y, hi, C, run)
            tau, f_tau, f_0 = (best_grid if GRID else best_tau)(y, sc)
            w, b, sup, pos, cw = fit_on(kb, pr, pc, y, np.arange(len(y)), hi, C)
            # test
            yt = d["yte"]; n_te = len(yt)
            from scipy import sparse
            k = kb.lengths[tc_] <= hi
            r, c = tr_[k], tc_[k]
            dd = kb.positives[c] * cw[0] - (kb.support[c] - kb.positives[c]) * cw[1]
            S = sparse.csr_matrix((np.sign(dd).astype(float), (r, c)), shape=(n_te, kb.n_learned))
            st = S @ w + b
            ft0 = f1_score(yt, st > 0); ftt = f1_score(yt, st > tau)
            res[f"L{hi}C{C}"] = (f_0, ft0, f_tau, ftt)
        rows.append((best_old, res))
    print("==", key, "old", np.mean([r[1]["old"] for r in rows]).round(3))
    for cfgk in rows[0][1]:
        if cfgk == "old": continue
        a = np.array([r[1][cfgk] for r in rows])
        # simulated: new wins if its oof f1 > best old
        sim0 = np.mean([r[1][cfgk][1] if r[1][cfgk][0] > r[0] else r[1]["old"] for r in rows])
        simt = np.mean([r[1][cfgk][3] if r[1][cfgk][2] > r[0] else r[1]["old"] for r in rows])
        wins = sum(r[1][cfgk][2] > r[0] for r in rows)
        print(f"{cfgk:8s} oof@0 {a[:,0].mean():.3f} test@0 {a[:,1].mean():.3f} oof@tau {a[:,2].mean():.3f} test@tau {a[:,3].mean():.3f} | sim@0 {sim0:.3f} sim@tau {simt:.3f} (chosen {wins})")
    print("best old oof", np.mean([r[0] for r in rows]).round(3))
