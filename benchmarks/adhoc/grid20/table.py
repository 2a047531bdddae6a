"""The race of `race.py`'s CSVs at margins 0 and 0.01, a markdown table."""
import sys

import pandas as pd

d = pd.concat([pd.read_csv(f) for f in sys.argv[1:]])
rows = []
for (k, s), g in d.groupby(["key", "seed"], sort=False):
    r = {"table": f"{k}, seed {s}", "runs": len(g), "MDLP": g.f1_mdlp.mean(), "grid 8": g.f1_grid.mean()}
    for m in (0.0, 0.01):
        w = g.oof_grid > g.oof_mdlp + m
        r[f"race m={m:g}"] = g.f1_grid.where(w, g.f1_mdlp).mean()
        r[f"chosen m={m:g}"] = int(w.sum())
        d_ = g.f1_grid.where(w, g.f1_mdlp) - g.f1_mdlp
        r[f"worse splits m={m:g}"] = int((d_ < -1e-9).sum())
    r["fit grid/MDLP"] = (g.fit_grid / g.fit_mdlp).median()
    rows.append(r)
t = pd.DataFrame(rows)
cols = list(t.columns)
print("| " + " | ".join(cols) + " |")
print("|" + "---|" * len(cols))


def cell(c: str, v) -> str:
    """A float to 4 places (the fit ratio to 2), anything else as it is."""
    if isinstance(v, float):
        return f"{v:.2f}" if c == "fit grid/MDLP" else f"{v:.4f}"
    return str(v)


for _, r in t.iterrows():
    print("| " + " | ".join(cell(c, v) for c, v in r.items()) + " |")
