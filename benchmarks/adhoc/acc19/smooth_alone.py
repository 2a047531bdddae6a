"""Ad hoc (session 19, acc19): the smooth vote always answering (every other candidate left
out of `selection.choose`; it answers at its steady threshold), its test F1 per split, under
settings of `plx_core.vote` given as NAME=VALUE (e.g. FINE_SMOOTH=3), beside EBM's.

    python benchmarks/adhoc/acc19/smooth_alone.py SET RUNS [NAME=VALUE …]
"""
import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT
from plx_core.experiments.compare import make, split_set

warnings.simplefilter("ignore")
key, spec = sys.argv[1], sys.argv[2]
for kv in sys.argv[3:]:
    n, v = kv.split("=")
    setattr(VT, n, type(getattr(VT, n))(v))
runs = (list(range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)) if "-" in spec
        else [int(r) for r in spec.split(",")])
X, y, splits = split_set(key, max(runs) + 1)
orig_choose = S.choose


def only_smooth(y_, direct_pred, direct_rows, oof, *a, **kw):
    keep = {k: v for k, v in oof.items() if S.vote_bins(k)}
    return orig_choose(y_, None, direct_rows, keep or oof, *a, **kw)


S.choose = only_smooth
f1s = []
for r in runs:
    tr, te = splits[r]
    m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr]).model_
    f1s.append(f1_score(y[te], np.asarray(m.predict(X.iloc[te])).astype(int) == 1))
    print(r, m.selection_.key, round(m.selection_.threshold, 2), round(f1s[-1], 4), flush=True)
f1s = np.array(f1s)
rr = np.array(runs)
print(" | ".join(f"{lo}-{hi} {f1s[(rr >= lo) & (rr <= hi)].mean():.4f}"
                 for lo, hi in ((0, 9), (10, 19), (20, 39)) if ((rr >= lo) & (rr <= hi)).any()),
      sys.argv[3:])
