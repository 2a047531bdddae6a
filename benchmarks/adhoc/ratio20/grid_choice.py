"""Every split fitted twice — MDLP cuts (the default) and an equal-frequency grid of 8 bins a
numeric column (`discretize="quantile", max_bins=8`) — with each fit's test F1, its best
out-of-fold F1 (`selection_.scores`) and chosen candidate, and the test F1 of the binning whose
out-of-fold F1 is higher: what a model search that also raced the grid would answer.

python benchmarks/adhoc/ratio20/grid_choice.py fam|set KEY RUNS OUT.csv [SEED]
(fam: a family of unseen19 / ratio20, split on its 0/1 label, its table drawn with SEED,
default 0; set: a compare set, its splits.)
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
import families20  # noqa: E402,F401  (adds the families to unseen19's FAMILIES)
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

warnings.simplefilter("ignore")
src, key, runs, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if src == "fam":
    X, y, pos = FAMILIES[key](int(sys.argv[5])) if len(sys.argv) > 5 else FAMILIES[key]()
    yb = (y.astype(str).to_numpy() == pos).astype(int)
    splits = list(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb))
    max_len = None
else:
    from plx_core.experiments.compare import plx_max_len, split_set

    X, yb, splits = split_set(key, runs)
    max_len = plx_max_len(X.shape[1])
rows = []
for run, (tr, te) in enumerate(splits):
    r = {"key": key, "run": run}
    for name, kw in (("mdlp", {}), ("q8", {"discretize": "quantile", "max_bins": 8})):
        t0 = time.perf_counter()
        m = PLXClassifier(positive=1, random_state=run, max_len=max_len, **kw).fit(X.iloc[tr], yb[tr])
        r[f"fit_{name}"] = time.perf_counter() - t0
        r[f"f1_{name}"] = f1_score(yb[te], np.asarray(m.predict(X.iloc[te])).astype(int))
        r[f"oof_{name}"] = max(m.selection_.scores.values()) if m.selection_.scores else np.nan
        r[f"chosen_{name}"] = m.selection_.key
    r["f1_choice"] = r["f1_q8"] if r["oof_q8"] > r["oof_mdlp"] else r["f1_mdlp"]
    rows.append(r)
    print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}, flush=True)
pd.DataFrame(rows).to_csv(out, index=False)
