"""Diagnose severity (unseen21): plx one-vs-rest vs EBM per class, binary plx one-vs-rest, a cumulative decomposition.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/unseen21/severity_diag.py [RUNS]
"""
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES  # noqa: E402

warnings.simplefilter("ignore")
X, y, _ = FAMILIES["severity"]()
order = ["none", "mild", "moderate", "severe"]
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2
for run, (tr, te) in enumerate(StratifiedShuffleSplit(6, test_size=0.3, random_state=0).split(X, y)):
    if run >= runs:
        break
    m = PLXClassifier(random_state=run).fit(X.iloc[tr], y.iloc[tr])
    p = m.predict(X.iloc[te])
    yt = y.iloc[te].to_numpy()
    print(run, "plx macro", round(f1_score(yt, p, average="macro"), 3), "per class", dict(zip(order, f1_score(yt, p, labels=order, average=None).round(3))))
    print("  pred counts", pd.Series(p).value_counts().reindex(order).tolist(), "true", pd.Series(yt).value_counts().reindex(order).tolist())
    print("  chosen", m.class_chosen_)
    yb = np.searchsorted(np.array(sorted(order)), y.to_numpy())
    e = make("EBM", run, X.shape[1]).fit(X.iloc[tr], yb[tr])
    pe = np.array(sorted(order))[np.asarray(e.predict(X.iloc[te])).astype(int)]
    print("  EBM macro", round(f1_score(yt, pe, average="macro"), 3), dict(zip(order, f1_score(yt, pe, labels=order, average=None).round(3))), "pred", pd.Series(pe).value_counts().reindex(order).tolist())
    # cumulative: P(y >= k) by a binary plx each, P(k) = P(>=k) - P(>=k+1)
    rank = pd.Series(y).map({c: i for i, c in enumerate(order)}).to_numpy()
    ge = []
    for k in (1, 2, 3):
        b = PLXClassifier(positive=True, random_state=run).fit(X.iloc[tr], pd.Series(rank[tr] >= k))
        ge.append(b.predict_proba(X.iloc[te])[:, list(b.classes_).index(True)])
    G = np.column_stack([np.ones(len(te))] + ge + [np.zeros(len(te))])
    P = G[:, :-1] - G[:, 1:]
    pc = np.array(order)[P.argmax(1)]
    print("  cumulative plx macro", round(f1_score(yt, pc, average="macro"), 3), "pred", pd.Series(pc).value_counts().reindex(order).tolist())
    # one-vs-rest, each class's binary plx (positive=True) argmax of predict_proba
    ovr = []
    for c in order:
        b = PLXClassifier(positive=True, random_state=run).fit(X.iloc[tr], pd.Series(y.iloc[tr].to_numpy() == c))
        ovr.append(b.predict_proba(X.iloc[te])[:, list(b.classes_).index(True)])
    po = np.array(order)[np.column_stack(ovr).argmax(1)]
    print("  binary plx one-vs-rest argmax", round(f1_score(yt, po, average="macro"), 3), "pred", pd.Series(po).value_counts().reindex(order).tolist(), flush=True)
