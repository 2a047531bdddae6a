"""Fit CPU of the default PLXClassifier (this plx_core; and an older one's, given its root) / a
100-tree forest's in the same process, and F1 of the positive class on 2,000 new rows of the
same draw (seed run), beside CART and EBM (`compare.make`) when asked.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide25/run.py FAMILIES RUNS [BEFORE_ROOT|-] [CART,EBM]"""
# ruff: noqa: E402
import sys
import time
import warnings
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
sys.path.insert(0, str(here.parent.parent))
warnings.simplefilter("ignore")
import numpy as np
from sklearn.metrics import f1_score
from tables25 import TABLES

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

Before = None
if len(sys.argv) > 3 and sys.argv[3] != "-":
    from bench_fit_change import before_estimator
    Before = before_estimator(sys.argv[3])
others = sys.argv[4].split(",") if len(sys.argv) > 4 else []
runs = int(sys.argv[2])
for fam in sys.argv[1].split(","):
    for run in range(runs):
        n = TABLES[fam].__defaults__[0]
        X, y, pos = TABLES[fam](run, n + 2000)
        y = np.asarray(y)
        Xtr, ytr, Xte, yte = X.iloc[:n], y[:n], X.iloc[n:], y[n:]
        t = time.process_time()
        forest = make("Forest", run, X.shape[1]).fit(Xtr, (ytr == pos).astype(int))
        tf = time.process_time() - t
        line = [f"{fam} {run}: forest {tf:.2f}s F1 {f1_score(yte == pos, forest.predict(Xte)):.4f}"]
        fits = {}
        for name, cls in (("before", Before), ("now", PLXClassifier))[::1 if run % 2 == 0 else -1]:
            if cls is None:
                continue
            t = time.process_time()
            m = cls(positive=pos, random_state=run).fit(Xtr, ytr)
            tp = time.process_time() - t
            fits[name] = (m.chosen_, np.asarray(m.predict_proba(Xte)), np.asarray(m.predict(Xte)))
            line.append(f"{name} {tp:.2f}s ({tp / tf:.2f}x) {m.chosen_} F1 "
                        f"{f1_score(yte, fits[name][2], pos_label=pos):.4f}")
        if len(fits) == 2:
            (cb, pb, db), (ca, pa, da) = fits["before"], fits["now"]
            line.append("same" if cb == ca and np.array_equal(pb, pa) and np.array_equal(db, da)
                        else "DIFFERENT")
        for o in others:
            mo = make(o, run, X.shape[1]).fit(Xtr, (ytr == pos).astype(int))
            line.append(f"{o} {f1_score(yte == pos, mo.predict(Xte)):.4f}")
        print(" | ".join(line), flush=True)
