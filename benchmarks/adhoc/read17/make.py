"""Seeded tables of round 5 (read17)."""
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_wine

rng = np.random.default_rng(17)
T = "/tmp/r17/t/"

# 1 survey platform export (Qualtrics-like): two extra header rows (question text, import ids)
n = 400
age = rng.integers(18, 80, n)
sat = rng.integers(1, 6, n)
inc = rng.normal(50, 15, n).round(1)
churn = ((sat <= 2) ^ (rng.random(n) < 0.12)).astype(int)
df = pd.DataFrame({"Q1_age": age, "Q2_satisfaction": sat, "Q3_income": inc, "churned": churn})
top = pd.DataFrame([{"Q1_age": "How old are you?", "Q2_satisfaction": "How satisfied are you (1-5)?",
                     "Q3_income": "Yearly income (k$)", "churned": "Left within a year (0=no, 1=yes)"},
                    {"Q1_age": '{"ImportId":"QID1"}', "Q2_satisfaction": '{"ImportId":"QID2"}',
                     "Q3_income": '{"ImportId":"QID3"}', "churned": '{"ImportId":"QID4"}'}])
pd.concat([top, df.astype(object)]).to_csv(T + "survey_qualtrics.csv", index=False)

# 2 several classes: 8 diagnoses, one of 2 rows; predict file with a class never seen
n = 800
x1, x2, x3 = rng.normal(size=(3, n))
cls = np.select([x1 > 1, x1 < -1, x2 > 1, x2 < -1, x3 > 1, x3 < -1, (x1 > 0) & (x2 > 0)],
                ["flu", "covid", "asthma", "copd", "pneumonia", "bronchitis", "cold"], "healthy")
cls[:2] = "sarcoidosis"
d = pd.DataFrame({"temp": (37 + x1).round(1), "spo2": (95 + 2 * x2).round(0), "crp": np.exp(x3 + 2).round(1),
                  "dx": cls})
d.iloc[:600].to_csv(T + "dx_train.csv", index=False)
t = d.iloc[600:].copy()
t.loc[t.index[:3], "dx"] = "tuberculosis"
t.to_csv(T + "dx_test_labelled.csv", index=False)

# 3 no header row, label first (a lab machine's dump)
bc = load_breast_cancer()
X = pd.DataFrame(bc.data[:, :8]).round(4)
X.insert(0, "lab", np.where(bc.target == 0, "M", "B"))
X.to_csv(T + "noheader.csv", index=False, header=False)

# 4 semicolon, BOM, decimal comma, scientific notation with a comma "1,2E-3"
w = load_wine()
W = pd.DataFrame(w.data[:, :6], columns=["alcohol", "malic", "ash", "alcalinity", "magnesium", "phenols"])
W["tiny"] = W["malic"] * 1e-3
txt = W.apply(lambda c: c.map(lambda v: f"{v:.3E}".replace(".", ",") if c.name == "tiny" else f"{v:.2f}".replace(".", ",")))
txt["class"] = np.where(w.target == 0, "barolo", "other")
(open(T + "wine_bom.csv", "w", encoding="utf-8-sig").write(txt.to_csv(sep=";", index=False)))

# 5 durations: "1h 30m", "00:45:00", over 24 h ("26:30:00"), header 'length of stay'
n = 500
mins = rng.gamma(2, 400, n)
def hms(m):
    h, r = divmod(int(m), 60)
    return f"{h:02d}:{r:02d}:00"
los = [hms(m) for m in mins]
dur = [f"{int(m // 60)}h {int(m % 60)}m" if i % 2 else f"{int(m)} min" for i, m in enumerate(rng.gamma(2, 20, n))]
y = np.where((mins > 900) ^ (rng.random(n) < 0.1), "readmitted", "home")
pd.DataFrame({"length of stay": los, "procedure time": dur, "ward": rng.choice(["A", "B", "C"], n), "outcome": y}
             ).to_csv(T + "durations.csv", index=False)

# 6 mixed markers: numbers with "n/a", "unknown", "-", "?", "ND", "not done" (6 kinds, 12 %)
n = 600
hb = rng.normal(13, 2, n).round(1).astype(object)
marks = ["n/a", "unknown", "-", "?", "ND", "not done"]
idx = rng.random(n) < 0.12
hb[idx] = rng.choice(marks, idx.sum())
wt = rng.normal(75, 12, n).round(1)
anemia = np.where((pd.to_numeric(pd.Series(hb), errors="coerce").fillna(13) < 11.5) ^ (rng.random(n) < 0.05), "yes", "no")
pd.DataFrame({"Hb (g/dL)": hb, "weight (kg)": wt, "BP mmHg": [f"{int(a)}/{int(b)}" for a, b in zip(rng.normal(130, 15, n), rng.normal(80, 10, n))],
              "anemia": anemia}).to_csv(T + "markers.csv", index=False)

# 7 Likert answers (ordered) and a label of codes with a codebook line at the end
n = 500
lik = ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"]
a = rng.integers(0, 5, n)
y = np.where((a >= 3) ^ (rng.random(n) < 0.1), 1, 0)
sev = np.where(a == 4, 2, np.where(a == 3, 1, 0))
L = pd.DataFrame({"q_trust": [lik[i] for i in a], "q_price": rng.choice(lik, n), "recommend": y, "severity": sev})
L.to_csv(T + "likert.csv", index=False)
with open(T + "likert_codebook.csv", "w") as f:
    f.write(L.to_csv(index=False))
    f.write("codes: 0=no 1=yes,,,\n")
print("ok")
