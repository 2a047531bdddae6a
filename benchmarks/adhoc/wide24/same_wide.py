"""Fit CPU of an older plx_core's default PLXClassifier and this one's, beside a 100-tree forest,
in one process, on draws of wide tables (wide21's families: the family's own rows of seed
1000 + run; wide24's tables: seed run), tested on 2,000 new rows: whether every draw's answers
are the same (chosen candidate, ω(POS) on the test rows, predictions) and the CPU ratios.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide24/same_wide.py /tmp/plx_before genes300,many RUNS"""
# ruff: noqa: E402
import sys
import time
import warnings
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
sys.path.insert(0, str(here.parent / "wide21"))
sys.path.insert(0, str(here.parent.parent))
warnings.simplefilter("ignore")
import numpy as np
from bench_fit_change import before_estimator
from families import FAMILIES
from sklearn.metrics import f1_score
from tables import TABLES

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

Before = before_estimator(sys.argv[1])
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
for fam in sys.argv[2].split(","):
    rb, ra, same = [], [], 0
    for run in range(runs):
        if fam in FAMILIES:
            gen = FAMILIES[fam]
            n = gen.__defaults__[1]
            X, y, pos = gen(seed=1000 + run, n=n + 2000)
        else:
            n = TABLES[fam].__defaults__[0]
            X, y, pos = TABLES[fam](run, n + 2000)
        y = np.asarray(y)
        Xtr, ytr, Xte, yte = X.iloc[:n], y[:n], X.iloc[n:], y[n:]
        t = time.process_time()
        make("Forest", run, X.shape[1]).fit(Xtr, (ytr == pos).astype(int))
        tf = time.process_time() - t
        out = []
        for cls in ((Before, PLXClassifier) if run % 2 == 0 else (PLXClassifier, Before)):
            t = time.process_time()
            m = cls(positive=pos, random_state=run).fit(Xtr, ytr)
            out.append((cls is Before, time.process_time() - t, m.chosen_,
                        np.asarray(m.predict_proba(Xte)), np.asarray(m.predict(Xte))))
        (_, tb, cb, pb, db), (_, ta, ca, pa, da) = sorted(out, key=lambda o: not o[0])
        eq = cb == ca and np.array_equal(pb, pa) and np.array_equal(db, da)
        same += eq
        rb.append(tb / tf)
        ra.append(ta / tf)
        print(f"{fam} {run}: forest {tf:.2f}s before {tb:.2f}s ({tb / tf:.2f}x) now {ta:.2f}s "
              f"({ta / tf:.2f}x) {ca} F1 {f1_score(yte, da, pos_label=pos):.4f} "
              f"{'same' if eq else 'DIFFERENT (before ' + cb + f', F1 {f1_score(yte, db, pos_label=pos):.4f})'}",
              flush=True)
    print(f"{fam}: {same}/{runs} draws the same; median ratio {np.median(rb):.2f}x -> "
          f"{np.median(ra):.2f}x", flush=True)
