# Ad hoc script behind benchmarks/RESULTS.md, "Pruning the binary tree: cost-complexity α, one standard error (old → new)";
# kept as it ran (moved from /tmp/depth/val.py). Run from the repository root: python benchmarks/adhoc/depth/val.py …
"""Runs 10-19: the default with and without the pruned binary tree (ad hoc)."""
import sys, warnings
import numpy as np
warnings.simplefilter("ignore")
from sklearn.metrics import f1_score
from plx_core.experiments.compare import split_set, plx_max_len
from plx_core.estimator import PLXClassifier
from plx_core import selection as S
ALPHAS = S.BIN_ALPHAS
for key in sys.argv[1].split(","):
    X, y, splits = split_set(key, 20, 1000)
    for run, (tr, te) in list(enumerate(splits))[10:]:
        out = []
        for alphas in ((), ALPHAS):
            S.BIN_ALPHAS = alphas
            m = PLXClassifier(positive=1, random_state=run, max_len=plx_max_len(X.shape[1])).fit(X.iloc[tr], y[tr])
            out.append((f1_score(y[te], m.predict(X.iloc[te])), m.selection_.key if m.selection_ else "-"))
        print(key, run, f"{out[0][0]:.4f}", f"{out[1][0]:.4f}", out[0][1], "->", out[1][1], flush=True)
