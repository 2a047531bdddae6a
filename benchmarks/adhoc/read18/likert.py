"""Likert answers as categories vs in their order (codes 1.5-7.5, binned): plx test F1, seeded (read18)."""
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

from plx_core import PLXClassifier

warnings.simplefilter("ignore")
SCALE = ["Strongly disagree", "Disagree", "Somewhat disagree", "Neither agree nor disagree",
         "Somewhat agree", "Agree", "Strongly agree"]
rows = []
for n in (120, 300):
    for seed in range(6):
        rng = np.random.default_rng(seed)
        a, b = rng.integers(0, 7, n), rng.integers(0, 7, n)
        y = np.where(((a >= 4) & (b >= 2)) ^ (rng.random(n) < 0.1), "yes", "no")
        cat = pd.DataFrame({"q1": [SCALE[i] for i in a], "q2": [SCALE[i] for i in b],
                            "q3": rng.choice(SCALE, n)})
        code = cat.apply(lambda c: c.map(SCALE.index) + 1.5)  # not whole: binned in order
        tr, te = train_test_split(np.arange(n), test_size=0.3, stratify=y, random_state=seed)
        f = {}
        for name, X in (("categories", cat), ("order", code)):
            m = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
            f[name] = f1_score(y[te], m.predict(X.iloc[te]), pos_label="yes")
        rows.append({"n": n, "seed": seed, **f})
d = pd.DataFrame(rows)
print(d.groupby("n")[["categories", "order"]].mean().round(3))
print("order - categories per split:", (d["order"] - d["categories"]).round(3).tolist())
