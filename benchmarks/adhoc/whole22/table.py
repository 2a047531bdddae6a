"""whole22: `race.py`'s rows as RESULTS' table, the race's margin read off at 0, 0.005, 0.01
(a split whose numbers' search won by no more than the margin keeps the levels' answer).

python benchmarks/adhoc/whole22/table.py OUT.csv [OUT.csv …]
"""
import sys

import numpy as np
import pandas as pd

d = pd.concat([pd.read_csv(f) for f in sys.argv[1:]], ignore_index=True)
d["d"] = d.oof_numbers - d.oof_levels
for m in (0, 0.005, 0.01):
    won = (d.d > m + 1e-12) & d.read.str.contains("=n")
    d[f"f1_{m}"] = np.where(won, d.f1_on, d.f1_off)
    d[f"won_{m}"] = won
print("| table | runs | race off (levels) | m=0 | m=0.005 | m=0.01 | raced | numbers answer (0 / 0.005) "
      "| splits better / worse (0.005) | fit raced / off (CPU, median) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (k, s), x in d.groupby(["key", "seed"], sort=False):
    raced = x.d.notna()
    ratio = (x.fit_on[raced] / x.fit_off[raced]).median() if raced.any() else float("nan")
    b = (x["f1_0.005"] > x.f1_off + 1e-9).sum()
    w = (x["f1_0.005"] < x.f1_off - 1e-9).sum()
    print(f"| {k}, seed {s} | {len(x)} | {x.f1_off.mean():.4f} | {x['f1_0'].mean():.4f} | "
          f"{x['f1_0.005'].mean():.4f} | {x['f1_0.01'].mean():.4f} | {raced.sum()} | "
          f"{x['won_0'].sum()} / {x['won_0.005'].sum()} | {b} / {w} | {ratio:.2f} |")
