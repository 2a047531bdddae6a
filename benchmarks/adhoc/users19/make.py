"""Seeded tables of users19: a sepsis table to fit and later exports of it (reordered, a new
category, units, decimal commas, renamed / missing columns, BOM + CRLF, blank lines)."""

import numpy as np
import pandas as pd

rng = np.random.default_rng(19)
n = 600
age = rng.integers(20, 90, n)
crp = np.round(rng.gamma(2, 20, n), 1)
sex = rng.choice(["F", "M"], n)
ward = rng.choice(["cardio", "neuro", "ortho"], n, p=[0.4, 0.3, 0.3])
temp = np.round(rng.normal(37.2, 0.8, n), 1)
score = 0.04 * (age - 55) + 0.03 * (crp - 40) + 1.2 * (temp - 37.2) + 0.5 * (ward == "cardio")
y = np.where(score + rng.normal(0, 1, n) > 0.3, "sepsis", "no")
df = pd.DataFrame(
    dict(
        patient=[f"P{i:04d}" for i in range(n)],
        age=age,
        crp=crp,
        sex=sex,
        ward=ward,
        temp=temp,
        outcome=y,
    )
)
df.iloc[:400].to_csv("train.csv", index=False)
new = df.iloc[400:].drop(columns="outcome").copy()
new.to_csv("new_clean.csv", index=False)
# later export
m = new[["ward", "temp", "patient", "crp", "sex", "age"]].copy()
m["ward"] = m["ward"].astype(object)
m.iloc[:5, 0] = "icu"
m["temp"] = m["temp"].map(lambda v: f"{v:.1f}".replace(".", ","))
m["crp"] = m["crp"].map(lambda v: f"{v} mg/L")
m = m.rename(columns={"age": " Age "})
s = m.to_csv(index=False, lineterminator="\r\n")
open("new_messy.csv", "w", encoding="utf-8-sig", newline="").write(s + "\r\n\r\n")
for name, f in {
    "reorder": lambda d: d[["sex", "age", "patient", "crp", "ward", "temp"]],
    "newcat": lambda d: d.assign(ward=["icu"] * 3 + list(d.ward[3:])),
    "unit": lambda d: d.assign(crp=[f"{v} mg/L" for v in d.crp]),
    "comma": lambda d: d.assign(temp=[f"{v:.1f}".replace(".", ",") for v in d.temp]),
    "renamed": lambda d: d.rename(columns={"age": " Age "}),
    "renamed2": lambda d: d.rename(columns={"age": "AGE"}),
    "missing": lambda d: d.drop(columns="crp"),
    "mixedunit": lambda d: d.assign(
        crp=[f"{v} mg/L" if i % 10 == 0 else str(v) for i, v in enumerate(d.crp)]
    ),
}.items():
    f(new.copy()).to_csv(f"new_{name}.csv", index=False)
open("new_tail.csv", "w").write(new.to_csv(index=False) + "\n\n\n")
open("new_bomcrlf.csv", "w", encoding="utf-8-sig", newline="").write(
    new.to_csv(index=False, lineterminator="\r\n")
)
