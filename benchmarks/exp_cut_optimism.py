"""Is the cut-optimism credit right? On small binary tables cut from 4-class ones, the credit
`PLXClassifier._cut_optimism` gives the vote on fine bins (the MDLP vote's out-of-fold F1 on
the fit's all-row cuts minus its F1 on each fold's own cuts) against the flattery it stands
for: that same out-of-fold F1 minus the MDLP vote's F1 on 2,000 fresh rows
(benchmarks/RESULTS.md, "A smooth vote on fine bins").

    PYTHONPATH=. python benchmarks/exp_cut_optimism.py
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score

from plx_core import estimator as E
from plx_core.query import query_many
from plx_core.selection import best_threshold


def main() -> None:
    warnings.simplefilter("ignore")
    orig = E.PLXClassifier._cut_optimism
    got: dict = {}

    def spy(self, nums, frame, full, vote, y):
        got["opt"], got["vote"] = orig(self, nums, frame, full, vote, y), vote
        return got["opt"]

    E.PLXClassifier._cut_optimism = spy
    rows = []
    for seed in range(12):
        X, y4 = make_classification(2200, n_features=5, n_informative=4, n_redundant=0,
                                    n_classes=4, n_clusters_per_class=1, class_sep=0.7,
                                    random_state=seed)
        X = pd.DataFrame(X, columns=[f"x{i}" for i in range(5)])
        y = (y4 == seed % 4).astype(int)
        tr, te = np.arange(200), np.arange(200, 2200)
        E.PLXClassifier(positive=1, random_state=0).fit(X.iloc[tr], y[tr])
        vote = got["vote"]  # the vote on the fit's own (MDLP) cut points
        t, oof = best_threshold(y[tr], vote.oof)
        mdlp = E.Discretizer().fit(X.iloc[tr], y[tr].astype(str))
        means = query_many(vote.kb(t), mdlp.transform(X.iloc[te]), semantics="relevant").mean
        flattery = oof - f1_score(y[te], means > 0.5 + 1e-9)
        rows.append((got["opt"], flattery))
        print(f"seed {seed}: credit {got['opt']:+.3f}, out-of-fold − test F1 of the MDLP vote "
              f"{flattery:+.3f}", flush=True)
    a = np.array(rows)
    print(f"mean credit {a[:, 0].mean():+.3f}, mean flattery {a[:, 1].mean():+.3f}")


if __name__ == "__main__":
    main()
