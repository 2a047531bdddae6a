"""Whether the default's k-feature explanations decide the answer they explain, on the tables
where each model family is chosen: run on demand, not by pytest.

    python benchmarks/explain_decides.py SETS [RUNS] [ROWS] [--csv OUT]

For each set (comparison keys, `compare.split_set`), run and k = 1, 2, 3, the first ROWS test
rows of the split are explained by the default (`PLXClassifier.explain_many`, the model that
answers and its threshold) and counted: explanations, those whose chosen sub-query decides
the answer on its own (`Explanation.decides`), those the prior clause alone answers
(`Candidate.by_prior`), and those whose sub-query's mean is not on the answer's side of the
threshold (what an explanation without `decides` presented as the case for the answer), and
those whose searched KB answers the full row on the other side (the tuned Direct variant
answers with its window and prior, and `explain` searches the full Direct KB). With
--csv, one line per explanation (set, run, row, k, chosen, decision, features, bounds) to
compare two trees' explanations row by row.
"""

from __future__ import annotations

import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import pandas as pd  # noqa: E402

from plx_core.experiments.compare import make, split_set  # noqa: E402
from plx_core.explain import Explanation  # noqa: E402
from plx_core.query import TIE_EPS  # noqa: E402


def main(sets: list[str], runs: int, n_rows: int, out: str | None) -> None:
    warnings.simplefilter("ignore")
    lines = []
    for key in sets:
        X, y, splits = split_set(key, runs)
        for r, (tr, te) in enumerate(splits):
            m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr]).model_
            rows = X.iloc[te[:n_rows]]
            t = m._decides_at() if hasattr(m, "_decides_at") else m._threshold()
            for k in (1, 2, 3):
                n = dec = pri = off = other = 0
                for i, e in enumerate(m.explain_many(rows, k=k)):
                    if not isinstance(e, Explanation):
                        continue
                    mean = (e.bounds[0] + e.bounds[1]) / 2
                    side = mean > t + TIE_EPS if e.positive else mean <= t + TIE_EPS
                    n, off = n + 1, off + (not side)
                    other += (e.query_bounds.mean > t + TIE_EPS) != e.positive
                    dec += bool(getattr(e, "decides", side))
                    pri += bool(getattr(e.best, "by_prior", False))
                    lines.append({"set": key, "run": r, "row": int(te[i]), "k": k,
                                  "chosen": m.chosen_, "positive": e.positive,
                                  "features": ",".join(sorted(e.features)),
                                  "lower": e.bounds[0], "upper": e.bounds[1]})
                print(f"{key} run {r} {m.chosen_} k={k}: {n} explained, {dec} decide, "
                      f"{pri} answered by the prior alone, {off} off the answer's side, "
                      f"{other} where the searched KB answers the row otherwise",
                      flush=True)
    if out:
        pd.DataFrame(lines).to_csv(out, index=False)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--csv")]
    csv = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--csv=")), None)
    main(args[0].split(","), int(args[1]) if len(args) > 1 else 2,
         int(args[2]) if len(args) > 2 else 100, csv)
