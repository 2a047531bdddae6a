"""Which candidate the default chose on each split of the comparison, and its out-of-fold F1.

    python benchmarks/chosen_by_split.py SETS RUNS      # e.g. monks-1,car 0-9

Per set and split of `python -m plx_core.experiments compare` (the same rows, 70/30, up to
1,000 rows; `make("plx", run, …)`): `selection_.key`, its out-of-fold F1, that of
"direct-vote pairs" and the best other candidate, and the test F1; then per set how many splits
each candidate answered.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from sklearn.metrics import f1_score  # noqa: E402

from plx_core.experiments.compare import make, split_set  # noqa: E402


def main(keys: list[str], runs: list[int]) -> None:
    for key in keys:
        X, y, splits = split_set(key, max(runs) + 1)
        got: Counter = Counter()
        for r in runs:
            tr, te = splits[r]
            m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
            sel = m.model_.selection_
            test = f1_score(y[te], m.predict(X.iloc[te]))
            if sel is None:
                print(f"{key} run {r}: direct (no selection) test {test:.3f}")
                got["direct"] += 1
                continue
            other = max((v, k) for k, v in sel.scores.items() if k != sel.key)
            pair = sel.scores.get("direct-vote pairs")
            print(f"{key} run {r}: {sel.key} {sel.scores[sel.key]:.3f}; next {other[1]} "
                  f"{other[0]:.3f}; pairs {'—' if pair is None else f'{pair:.3f}'}; test {test:.3f}")
            got[sel.key] += 1
        print(f"{key}: " + ", ".join(f"{k} {n}" for k, n in got.most_common()))


if __name__ == "__main__":
    a, b = (int(v) for v in sys.argv[2].split("-")) if len(sys.argv) > 2 else (0, 9)
    main(sys.argv[1].split(","), list(range(a, b + 1)))
