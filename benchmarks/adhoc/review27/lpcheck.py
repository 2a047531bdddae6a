"""review27: a few rows' bounds by hand — the weighted median of the clauses whose conditions
the row holds, and the cvxpy LP (`query(method="lp")`) — against `plx predict`'s output.
`python lpcheck.py MODEL CSV PREDICTIONS ROWS` (ROWS: data rows, e.g. 1,2,3)."""
import bisect
import sys

import numpy as np
import pandas as pd

from plx_core.modelfile import load_model
from plx_core.query import query


def hand_median(kb, q):
    """The weighted median interval of the p of the clauses whose every condition q holds."""
    ps, ws = [], []
    for c in kb:
        conds = [lit for lit in c.literals if not lit.is_class]
        if c.enabled and all(q.get(lit.atom) == lit.value for lit in conds):
            ps.append(c.p)
            ws.append(c.w)
    o = np.argsort(ps)
    ps, ws = np.array(ps)[o], np.array(ws)[o]
    cw, half = np.cumsum(ws), ws.sum() / 2
    at = np.isclose(cw, half)
    lo = ps[np.searchsorted(cw, half - 1e-12 * ws.sum())]
    hi = ps[np.argmax(at) + 1] if at.any() else lo
    return lo, hi, len(ps)


def main(model: str, csv: str, pred: str, rows: list[int]) -> None:
    m = load_model(model)
    kb, sch = m.answering_kb(), m.schema
    raw = pd.read_csv(csv, sep=None, engine="python", dtype=str, keep_default_na=False)
    raw = raw[raw.iloc[:, 0] != raw.columns[0]].reset_index(drop=True)  # repeated headers
    answers = pd.read_csv(pred)
    for r in rows:
        rec, q = raw.iloc[r - 1], {}
        for f in sch.features:
            v = rec[f].strip()
            if v == "":
                q[f] = None
            elif f in sch.bins:
                b = sch.bins[f]
                q[f] = b.labels[bisect.bisect_right(b.cuts, float(v.replace(",", ".")))]
            else:
                q[f] = v
        lo, hi, k = hand_median(kb, q)
        b = query(kb, q, method="lp")
        p = answers[answers.row == r].iloc[0]
        print(f"row {r} {q}: hand [{lo:.6f}, {hi:.6f}] of {k} clauses; LP [{b.lower:.6f}, "
              f"{b.upper:.6f}]; predict [{p.lower:.6f}, {p.upper:.6f}] {p.decision}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], [int(r) for r in sys.argv[4].split(",")])
