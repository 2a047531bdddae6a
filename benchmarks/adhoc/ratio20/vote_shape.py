"""The smooth vote's shape on ratio split 0 against each column's own frequency: per bin (value
order) of income and debt, the signed vote w · sign(p − 0.5) of its clause `POS ∨ ¬x=bin` in the
fitted KB (0: no clause, its weight fitted to 0), and P(default | octile) on the training rows.

python benchmarks/adhoc/ratio20/vote_shape.py
"""
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).parent))
import families20  # noqa: E402,F401
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

warnings.simplefilter("ignore")
X, y, pos = FAMILIES["ratio"]()
tr, _te = next(StratifiedShuffleSplit(6, test_size=0.3, random_state=0).split(X, y.astype(str)))
m = PLXClassifier(positive=pos, random_state=0).fit(X.iloc[tr], y.iloc[tr])
kb, yt = m.kb_, (y.iloc[tr].astype(str).to_numpy() == pos)
print("chosen:", m.selection_.key)
for name in ("income", "debt"):
    f = kb.features.index(name)
    cuts = np.asarray(m.discretizer_.cuts_[name])
    order = {lbl: i for i, lbl in enumerate(m.discretizer_.binnings_[name].labels)}
    one = np.where((kb.codes[:, f] >= 0) & ((kb.codes >= 0).sum(axis=1) == 1))[0]
    signed = np.zeros(len(cuts) + 1)
    for i in one:
        signed[order[kb.domains[name][kb.codes[i, f]]]] = kb.w[i] * np.sign(kb.p[i] - 0.5)
    octile = pd.qcut(X.iloc[tr][name], 8, labels=False)
    print(name, "signed vote by bin:", np.round(signed, 1).tolist())
    print(name, f"bins with a clause: {np.count_nonzero(signed)} of {len(signed)}")
    print(name, "P(default | octile):", np.round(pd.Series(yt).groupby(octile.to_numpy()).mean().to_numpy(), 2).tolist())
