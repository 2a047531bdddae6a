"""Test F1 of the pair vote ("direct-vote pairs") or the rule vote always answering, at
several penalties: run on demand, not by pytest.

    python benchmarks/vote_penalty_grid.py SET RUNS "C:L1,C:L1,…" [pairs|rules]

On the comparison's splits, the default is fitted with `selection.choose` made to choose the
vote, whose L2 (C) and L1 penalties are set per grid point (`vote.PAIR_C` / `PAIR_L1`, or
`RULE_C` / `RULE_L1`); per split and grid point the test F1, the out-of-fold F1 and the KB's
clauses, then the means. `PAIR_VOTES=N` in the environment lifts the pair vote's budget (DNF).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import numpy as np  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402

import plx_core.selection as S  # noqa: E402
import plx_core.vote as VT  # noqa: E402
from plx_core.experiments.compare import make, split_set  # noqa: E402


def main(key: str, runs: list[int], grid: list[tuple[float, float]], which: str) -> None:
    name = "direct-vote pairs" if which == "pairs" else "rule-vote"
    VT.PAIR_VOTES = int(os.environ.get("PAIR_VOTES", VT.PAIR_VOTES))
    X, y, splits = split_set(key, max(runs) + 1)
    orig = S.choose
    seen: dict = {}

    def forced(y_, dp, dr, oof, fold=None, offsets=None):
        sel = S._choose(y_, None, dr, {name: oof[name]}, fold, offsets)
        seen["oof"] = sel.scores[name]
        return sel

    res: dict = {g: [] for g in grid}
    S.choose = forced
    try:
        for r in runs:
            tr, te = splits[r]
            line = f"run {r}:"
            for g in grid:
                if which == "pairs":
                    VT.PAIR_C, VT.PAIR_L1 = g
                else:
                    VT.RULE_C, VT.RULE_L1 = g
                m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
                f = f1_score(y[te], m.predict(X.iloc[te]))
                res[g].append((f, seen["oof"]))
                line += (f"  C={g[0]:g} L1={g[1]:g}: {f:.3f} (oof {seen['oof']:.3f}, "
                         f"{m.model_.kb_.n_learned} clauses)")
            print(line, flush=True)
    finally:
        S.choose = orig
    for g in grid:
        a = np.array(res[g])
        print(f"C={g[0]:g} L1={g[1]:g}: test {a[:, 0].mean():.3f} ± {a[:, 0].std():.3f}, "
              f"out of fold {a[:, 1].mean():.3f}")


if __name__ == "__main__":
    main(sys.argv[1], [int(r) for r in sys.argv[2].split(",")],
         [tuple(float(v) for v in g.split(":")) for g in sys.argv[3].split(",")],
         sys.argv[4] if len(sys.argv) > 4 else "pairs")
