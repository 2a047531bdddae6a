"""Several classes on the grid's bins (multi22, measured, not landed): the default
`PLXClassifier` against one fitted with `discretize="quantile", max_bins=8` (the binary grid
race's bins, `selection.GRID_BINS`), macro F1 on the test rows of 3 stratified 70/30 splits.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/multi22/grid_classes.py twins7,missing4
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vote_order as v
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

from plx_core.estimator import PLXClassifier

warnings.simplefilter("ignore")
for key in sys.argv[1].split(","):
    X, y, _ = v.modes.TABLES[key]()
    y = y.astype(str)
    for s, (tr, te) in enumerate(StratifiedShuffleSplit(3, test_size=0.3, random_state=0).split(X, y)):
        out = []
        for kw in ({}, {"discretize": "quantile", "max_bins": 8}):
            clf = PLXClassifier(random_state=s, **kw).fit(X.iloc[tr], y.iloc[tr])
            out.append(f"{f1_score(y.iloc[te], clf.predict(X.iloc[te]), average='macro'):.4f} {clf.chosen_}")
        print(key, s, " | ".join(out), flush=True)
