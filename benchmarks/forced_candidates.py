"""The default's choice per split, and the test F1 of the default forced to answer with each of
some candidates: run on demand, not by pytest.

    python benchmarks/forced_candidates.py SET RUNS "KEY|KEY|…"    # RUNS: 0,1,2 ; KEY e.g.
                                                                   # direct-vote pairs, rule-vote, direct

On the comparison's splits (`compare.split_set`, `make("plx", run, …)`): per split the chosen
candidate, the top five out-of-fold F1, then each KEY's test F1 when `selection.choose` is
made to choose it (the rest of the fit as the default's); last, each one's mean over the runs.
"""

from __future__ import annotations

import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from sklearn.metrics import f1_score  # noqa: E402

import plx_core.selection as S  # noqa: E402
from plx_core.experiments.compare import make, split_set  # noqa: E402


def main(key: str, runs: list[int], force: list[str]) -> None:
    X, y, splits = split_set(key, max(runs) + 1)
    orig = S.choose
    seen: dict = {}

    def spy(y_, dp, dr, oof, fold=None, offsets=None):
        seen["sel"] = orig(y_, dp, dr, oof, fold, offsets)
        return seen["sel"]

    tests = collections.defaultdict(list)
    try:
        for r in runs:
            tr, te = splits[r]
            S.choose = spy
            m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
            f = f1_score(y[te], m.predict(X.iloc[te]))
            tests["default"].append(f)
            sel = seen["sel"]
            top = sorted(sel.scores.items(), key=lambda kv: -kv[1])[:5]
            print(f"run {r} ({len(tr)} rows): {sel.key}, test {f:.3f} | "
                  + ", ".join(f"{k} {v:.3f}" for k, v in top), flush=True)
            for fk in force:
                def forced(y_, dp, dr, oof, fold=None, offsets=None, fk=fk):
                    if fk == "direct":
                        return S._choose(y_, dp, dr, {}, fold, offsets)
                    return S._choose(y_, None, dr, {fk: oof[fk]}, fold, offsets)

                S.choose = forced
                mm = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
                tests[fk].append(f1_score(y[te], mm.predict(X.iloc[te])))
                print(f"    {fk}: test {tests[fk][-1]:.3f}")
    finally:
        S.choose = orig
    for k, v in tests.items():
        print(f"{k}: test F1 {sum(v) / len(v):.3f} over {len(v)} splits")


if __name__ == "__main__":
    main(sys.argv[1], [int(r) for r in sys.argv[2].split(",")],
         sys.argv[3].split("|") if len(sys.argv) > 3 else [])
