# Ad hoc script behind benchmarks/RESULTS.md, "Binary (value-against-rest) trees in the search (old → new)";
# kept as it ran (moved from /tmp/vsrest_sim2.py). Run from the repository root: python benchmarks/adhoc/vsrest/sim2.py …
import sys, time, warnings, numpy as np, pandas as pd
warnings.simplefilter("ignore")
from plx_core.experiments.compare import split_set, plx_max_len
from plx_core.estimator import PLXClassifier
from plx_core import selection as S
from sklearn.metrics import f1_score
S.CANDIDATES = ("direct", "direct-conf", "tree-all", "tree-bin-deep")
out = []
for key in sys.argv[1].split(","):
    X, y, splits = split_set(key, 10, 1000)
    for run, (tr, te) in enumerate(splits):
        m = PLXClassifier(positive=1, random_state=run, max_len=plx_max_len(X.shape[1])).fit(X.iloc[tr], y[tr])
        sc, th = m.selection_.scores, m.selection_.thresholds
        rec = dict(dataset=key, run=run, best_other=max(v for k, v in sc.items() if not k.startswith("tree-bin")))
        for d in S.BIN_DEPTHS:
            k = S.tree_key(d, "tree-bin-deep")
            t = PLXClassifier(positive=1, kb="tree-bin-deep", max_depth=d, threshold=th[k], semantics="relevant").fit(X.iloc[tr], y[tr])
            rec[f"oof{d}"] = sc[k]; rec[f"f1{d}"] = f1_score(y[te], t.predict(X.iloc[te]))
        out.append(rec); print(rec, flush=True)
pd.DataFrame(out).to_csv(sys.argv[2], index=False)
