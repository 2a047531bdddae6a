"""Per table: plx macro F1 before / after (mean over splits), splits better / worse, the median
fit / forest CPU ratio and the families chosen after (`race.py`'s CSVs).

    python benchmarks/adhoc/several26/compare.py BEFORE.csv AFTER.csv
"""
import sys

import pandas as pd

before = pd.read_csv(sys.argv[1])
after = pd.read_csv(sys.argv[2])
before = before[before.method == "plx"]
after = after[after.method == "plx"]
m = before.merge(after, on=["table", "split"], suffixes=("_before", "_after"))
m["d"] = m.f1_after - m.f1_before
g = m.groupby("table", sort=False).agg(
    n=("split", "size"), before=("f1_before", "mean"), after=("f1_after", "mean"),
    better=("d", lambda d: int((d > 1e-9).sum())), worse=("d", lambda d: int((d < -1e-9).sum())),
    ratio_before=("ratio_before", "median"), ratio_after=("ratio_after", "median"),
    chosen=("chosen_after", lambda s: ",".join(sorted(set(s)))))
print(g.round(4).to_string())
