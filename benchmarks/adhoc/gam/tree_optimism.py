"""Ad hoc (issue 11, session 11): how much the fit's MDLP cut points (placed on every training
row) flatter the depth-4 ID3 tree's 5-fold score, against the vote's measured optimism.

    python benchmarks/adhoc/gam/tree_optimism.py SET RUNS   # e.g. rare-10 7,8

Per split: the tree (kb="tree-all", max_depth=4, the default's class correction) scored on the
search's 5 folds with the rows binned by the all-row MDLP cuts (as the search scores it) and
with each fold's own cuts (its `PLXClassifier` bins the fold's raw rows), F1 at the best
threshold of `selection.THRESHOLDS`; and the vote's optimism credit the search gave the fine vote.
"""
import re
import sys
import warnings

import numpy as np

from plx_core import PLXClassifier
from plx_core import selection as S
from plx_core.experiments.compare import make, split_set

warnings.simplefilter("ignore")
key, runs = sys.argv[1], [int(r) for r in sys.argv[2].split(",")]
X, y, splits = split_set(key, max(runs) + 1)
for r in runs:
    tr, _te = splits[r]
    Xt, yt = X.iloc[tr].reset_index(drop=True), y[tr]
    est = make("plx", r, X.shape[1]).fit(Xt, yt).model_
    binned = est.discretizer_.transform(est._frame(Xt, reset=False)).astype(object)
    got = {"all-row cuts": np.full(len(yt), np.nan), "fold cuts": np.full(len(yt), np.nan)}
    for a, b in S.folds(yt, S.SELECT_FOLDS, r):
        for name, rows in (("all-row cuts", binned), ("fold cuts", Xt)):
            m = PLXClassifier(kb="tree-all", max_depth=4, positive=1, random_state=r)
            m.fit(rows.iloc[a].reset_index(drop=True), yt[a])
            got[name][b] = m.bounds(rows.iloc[b].reset_index(drop=True))["mean"].to_numpy()
    f1 = {k: S.best_threshold(yt, v)[1] for k, v in got.items()}
    credit = re.search(r"([+-]\d\.\d+) for the optimism", est.chosen_reason_ + " ".join(
        f"{k}" for k in est.selection_.scores))
    print(f"{key} run {r}: tree depth≤4 5-fold F1 all-row cuts {f1['all-row cuts']:.3f}, "
          f"fold cuts {f1['fold cuts']:.3f} (flattered by "
          f"{f1['all-row cuts'] - f1['fold cuts']:+.3f}); search's scores "
          f"{ {k: round(v, 3) for k, v in est.selection_.scores.items() if 'bins=' in k or k == 'direct-vote'} }",
          flush=True)
