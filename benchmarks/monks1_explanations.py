"""Whether the default's k = 2 explanations on MONK's 1 name the label's terms: run on
demand, not by pytest.

    python benchmarks/monks1_explanations.py [RUNS]      # default 10

The label is (a1 = a2) ∨ a5 = 1. On each of the comparison's splits (`compare.split_set`,
`make("plx", run, …)`), every test row the default answers positive is explained with k = 2
and counted as naming its term: {a1, a2} for a row with a1 = a2 and a5 ≠ 1, a set with a5 for
a row with a5 = 1 and a1 ≠ a2, either for a row holding both (a row holding neither, a false
positive, counts as not naming one).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from plx_core.experiments.compare import make, split_set  # noqa: E402


def main(runs: int) -> None:
    X, y, splits = split_set("monks-1", runs)
    a1, a2, a5 = X.columns[0], X.columns[1], X.columns[4]
    named = total = 0
    for r, (tr, te) in enumerate(splits):
        m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr]).model_
        rows = X.iloc[te]
        for i, decision in enumerate(m.predict(rows)):
            if decision != 1:
                continue
            row, total = rows.iloc[i], total + 1
            got = set(m.explain(row, k=2).features)
            eq, five = row[a1] == row[a2], str(row[a5]) == "1"
            named += bool((eq and got == {a1, a2}) or (five and a5 in got))
    print(f"positive test rows whose explanation names the term they hold: {named}/{total}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
