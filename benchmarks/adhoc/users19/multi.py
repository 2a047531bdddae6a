"""A five-class table, one class of 12 rows (users19: several classes through CLI and API)."""

import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 500
a = rng.normal(0, 1, n)
b = rng.normal(0, 1, n)
g = rng.choice(["x", "y", "z"], n)
y = np.where(a > 0.8, "viral", np.where(b > 0.5, "bacterial", np.where(g == "z", "fungal", "none")))
y[rng.choice(n, 12, replace=False)] = "parasitic"
df = pd.DataFrame(dict(a=a.round(2), b=b.round(2), g=g, dx=y))
df.iloc[:350].to_csv("mtrain.csv", index=False)
df.iloc[350:].drop(columns="dx").to_csv("mnew.csv", index=False)
print(df.dx.value_counts())
