"""plx default vs CART (CV depth), EBM, LogReg, GBoost and a forest on each family.

python benchmarks/adhoc/unseen19/run.py FAMILY [SEEDS] [OUT.csv]
plx is `PLXClassifier(positive=...)` on the raw frame and text labels, as a new user would;
the baselines are `plx_core.experiments.compare`'s (the compare experiment's feeding).
"""
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402

fam = sys.argv[1]
seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
out = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(f"{fam}.csv")
methods = sys.argv[4].split(",") if len(sys.argv) > 4 else ["plx", "CART", "EBM", "LogReg", "GBoost", "Forest"]
X, y, pos = FAMILIES[fam]()
yb = (y.astype(str).to_numpy() == pos).astype(int)
splits = StratifiedShuffleSplit(seeds, test_size=0.3, random_state=0).split(X, y.astype(str))
rows = []
for run, (tr, te) in enumerate(splits):
    for m in methods:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t0 = time.perf_counter()
            if m.startswith("plx"):
                if y.nunique() > 2 and m == "plx":  # several classes: one KB per class, as the error says
                    model = PLXClassifier(random_state=run).fit(X.iloc[tr], y.iloc[tr])
                elif m == "plx":
                    model = PLXClassifier(positive=pos, random_state=run).fit(X.iloc[tr], y.iloc[tr])
                else:  # plx-bin: the rare class against the rest (y == pos)
                    model = PLXClassifier(positive=True, random_state=run).fit(X.iloc[tr], y.iloc[tr] == pos)
                    pos_ = True
                t1 = time.perf_counter()
                pred = (np.asarray(model.predict(X.iloc[te])).astype(str) == (str(True) if m == "plx-bin" else pos)).astype(int)
                extra = type(model.model_).__name__ if hasattr(model, "model_") else ""
                extra = str(getattr(model, "selection_", ""))[:200] or extra
            else:
                model = make(m, run, X.shape[1])
                model.fit(X.iloc[tr], yb[tr])
                t1 = time.perf_counter()
                pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                extra = ""
        msgs = sorted({str(w.message)[:400] for w in caught if m.startswith("plx")})
        rows.append({"family": fam, "run": run, "method": m,
                     "f1": f1_score(yb[te], pred, zero_division=0), "fit_s": t1 - t0,
                     "warnings": " | ".join(msgs), "extra": extra})
        print(fam, run, m, f"{rows[-1]['f1']:.3f}", f"{t1 - t0:.2f}s", msgs[:2], flush=True)
pd.DataFrame(rows).to_csv(out, index=False)
