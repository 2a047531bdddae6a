"""Per split of a family: plx's test F1, the candidate the search chose and its threshold, the
cut points of each numeric column and the six best out-of-fold F1 (`selection_.scores`).

python benchmarks/adhoc/ratio20/search_report.py FAMILY [SEEDS] ['{"discretize": "quantile", "max_bins": 8}']
"""
import json
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).parent))
import families20  # noqa: E402,F401  (adds the families to unseen19's FAMILIES)
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

warnings.simplefilter("ignore")
fam = sys.argv[1]
seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
kw = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
X, y, pos = FAMILIES[fam]()
yb = (y.astype(str).to_numpy() == pos).astype(int)
for run, (tr, te) in enumerate(StratifiedShuffleSplit(seeds, test_size=0.3, random_state=0)
                               .split(X, y.astype(str))):  # unseen19's run.py's splits
    m = PLXClassifier(positive=pos, random_state=run, **kw).fit(X.iloc[tr], y.iloc[tr])
    pred = (np.asarray(m.predict(X.iloc[te])).astype(str) == pos).astype(int)
    s = m.selection_
    print(run, f"test {f1_score(yb[te], pred):.3f}", "chosen", s.key, f"threshold {s.threshold:.2f}")
    print("   cuts", {c: [round(v, 3) for v in b] if len(b) <= 8 else f"{len(b)} equal-frequency cuts"
                      for c, b in m.discretizer_.cuts_.items()})
    print("   top", [(k, round(v, 3)) for k, v in sorted(s.scores.items(), key=lambda kv: -kv[1])[:6]])
