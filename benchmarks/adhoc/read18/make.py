"""Seeded tables of round 6 (read18): python benchmarks/adhoc/read18/make.py (writes /tmp/r18/t6/)."""
import os

import numpy as np
import pandas as pd

rng = np.random.default_rng(18)
T = "/tmp/r18/t6/"
os.makedirs(T, exist_ok=True)

# 1 a label written several ways ("Yes", "yes ", "YES", " no", "No")
n = 400
age, bmi = rng.integers(20, 80, n), rng.normal(27, 4, n).round(1)
sick = (age > 55) & (bmi > 26) ^ (rng.random(n) < 0.08)
spell = np.where(sick, rng.choice(["Yes", "yes ", "YES", "yes"], n), rng.choice(["No", " no", "no", "NO"], n))
pd.DataFrame({"age": age, "bmi": bmi, "diabetic": spell}).to_csv(T + "label_spellings.csv", index=False)

# 2 Excel booleans TRUE/FALSE and a 0/1 column written as floats "1.0"/"0.0"
n = 500
smoker = rng.random(n) < 0.3
statin = rng.random(n) < 0.5
chol = rng.normal(5.5, 1, n).round(2)
event = ((smoker & (chol > 5.5)) | (~statin & (chol > 6.5))) ^ (rng.random(n) < 0.07)
pd.DataFrame({"smoker": np.where(smoker, "TRUE", "FALSE"), "on_statin": statin.astype(float),
              "chol": chol, "event": np.where(event, "TRUE", "FALSE")}).to_csv(T + "excel_bools.csv", index=False)

# 3 percentages written two ways ('45%' and '0.45') and money ('$1,200.50')
n = 500
share = rng.uniform(0, 1, n)
income = rng.gamma(3, 900, n)
default = ((share > 0.6) & (income < 2500)) ^ (rng.random(n) < 0.06)
pct = [f"{v * 100:.0f}%" if i % 3 else f"{v:.2f}" for i, v in enumerate(share)]
pd.DataFrame({"debt_share": pct, "income": [f"${v:,.2f}" for v in income],
              "default": np.where(default, "yes", "no")}).to_csv(T + "percent_money.csv", index=False)

# 4 long format: one row a visit, several visits a patient (the user wants one answer a patient)
rows = []
for pid in range(150):
    k = rng.integers(1, 6)
    risk = rng.random() < 0.4
    for v in range(k):
        rows.append({"patient_id": f"P{pid:04d}", "visit": v + 1,
                     "sbp": int(rng.normal(150 if risk else 125, 12)),
                     "hba1c": round(float(rng.normal(7.5 if risk else 5.8, 0.6)), 1),
                     "outcome": "stroke" if risk else "none"})
pd.DataFrame(rows).to_csv(T + "visits_long.csv", index=False)

# 5 a predict file in another column order, with an extra column, and one without a column
n = 400
a, b, c = rng.normal(size=(3, n)).round(3)
yy = np.where((a + 0.5 * b > 0) ^ (rng.random(n) < 0.05), "pos", "neg")
pd.DataFrame({"a": a, "b": b, "c": c, "y": yy}).to_csv(T + "order.csv", index=False)
