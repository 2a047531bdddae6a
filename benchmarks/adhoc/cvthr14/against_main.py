"""Ad hoc (cvthr14): the rules of `replay14.py` on splits collected with other code (e.g.
`honest_sparse_main.patch` applied), each split's test F1 against main's default on the same
split (a collection of main, as `benchmarks/adhoc/rare13/collect.py` wrote it).

    python benchmarks/adhoc/cvthr14/against_main.py NEW.pkl MAIN.pkl [RULE …]
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from replay14 import RULES, choose, fam, test_f1  # noqa: E402

new, old = (pickle.load(open(p, "rb")) for p in sys.argv[1:3])
old = {r["run"]: r for r in old}
new = [r for r in new if r["run"] in old]
base = np.array([f1_score(old[r["run"]]["y_test"], old[r["run"]]["fit"]["test_pred"]) for r in new])
print(f"== {sys.argv[1]} against {sys.argv[2]}: {len(new)} splits, main {base.mean():.4f}")
for name in sys.argv[3:] or RULES:
    got = [choose(r, RULES[name]) for r in new]
    f1 = np.array([test_f1(r, k, t) for r, (k, t) in zip(new, got)])
    fams: dict = {}
    for k, _t in got:
        fams[fam(k)] = fams.get(fam(k), 0) + 1
    h = len(f1) // 2
    print(f"{name:20s} {f1.mean():.4f} ({f1.mean() - base.mean():+.4f}; halves "
          f"{f1[:h].mean() - base[:h].mean():+.4f} / {f1[h:].mean() - base[h:].mean():+.4f}) "
          f"+{(f1 > base + 1e-9).sum()} -{(f1 < base - 1e-9).sum()} | {fams}", flush=True)
