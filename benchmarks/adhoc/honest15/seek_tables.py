import sys
import numpy as np
from sklearn.metrics import f1_score
from plx_core.datasets import rare_positives
from plx_core import PLXClassifier
rate = float(sys.argv[1])
for s in range(int(sys.argv[2]), int(sys.argv[3])):
    X, y = rare_positives(rate, n=1000, seed=s)
    tr, te = slice(0, 700), slice(700, 1000)
    clf = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
    sel = clf.selection_
    f1 = f1_score(y[te] == "yes", clf.predict(X.iloc[te]) == "yes")
    top = sorted(sel.scores.items(), key=lambda kv: -kv[1])[:3]
    print(s, sel.key, round(f1, 3), [(k, round(v, 3)) for k, v in top], flush=True)
