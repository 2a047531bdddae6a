"""Mean ± sd of F1 per family and method, plx's gap to the best interpretable model, fit-time ratio to the forest."""
import sys
from pathlib import Path

import pandas as pd

d = pd.concat([pd.read_csv(p) for p in sorted(Path(sys.argv[1]).glob("*.csv"))])
order = ["plx", "CART", "EBM", "LogReg", "GBoost", "Forest"]
rows = []
for fam, g in d.groupby("family", sort=False):
    r = {"family": fam}
    for m in order:
        s = g[g.method == m].f1
        if len(s):
            r[m] = f"{s.mean():.3f} ± {s.std():.3f}"
    means = g.groupby("method").f1.mean()
    r["plx − best interp."] = f"{means['plx'] - max(means.get('CART', 0), means.get('EBM', 0)):+.3f}"
    t = g.groupby("method").fit_s.median()
    other = "Forest" if "Forest" in t else "CART"  # a round run without the forest: CART's
    r[f"fit / {other.lower()}"] = f"{t['plx'] / t[other]:.2f}x"
    r["runs"] = g.run.nunique()
    rows.append(r)
t = pd.DataFrame(rows).fillna("")
print("| " + " | ".join(t.columns) + " |")
print("|" + "---|" * len(t.columns))
for r in t.itertuples(index=False):
    print("| " + " | ".join(str(v) for v in r) + " |")
w = d[(d.method == "plx") & d.warnings.notna()]
for fam, g in w.groupby("family"):
    print(fam, "warnings:", g.warnings.iloc[0][:300])
