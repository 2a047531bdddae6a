"""review27: the five tables of my own, written into the current folder: an EHR export (a
header repeated at page breaks, a totals row, an ID column, the label written 'Yes ', 'yes',
'YES', ' no'), a European CSV (';', decimal commas), a label of 1/2, 20 rows, and a constant
column beside the label in disguise ('discharge_to': morgue on every death)."""
import numpy as np
import pandas as pd

rng = np.random.default_rng(27)


def ehr(n: int = 300) -> None:
    age = rng.integers(18, 90, n)
    crp = np.round(rng.gamma(2, 20, n), 1)
    ward = rng.choice(["ICU", "Med", "Surg"], n)
    risk = 1 / (1 + np.exp(-(0.04 * (age - 55) + 0.03 * (crp - 40) + (ward == "ICU") * 1.0)))
    y = rng.random(n) < risk
    lab = np.where(y, rng.choice(["Yes ", "yes", "YES", "Yes"], n), rng.choice(["No", "no", " no"], n))
    df = pd.DataFrame({"MRN": [f"MRN{100000 + i}" for i in range(n)], "Age": age,
                       "CRP (mg/L)": crp, "Ward": ward, "Readmitted": lab})
    lines = [",".join(df.columns)]
    for i, r in enumerate(df.itertuples(index=False)):
        if i and i % 100 == 0:
            lines.append(",".join(df.columns))  # a page break's header
        lines.append(",".join(str(v) for v in r))
    lines.append(f"Total,,{crp.sum():.1f},,")
    open("ehr.csv", "w").write("\n".join(lines) + "\n")


def euro(n: int = 250) -> None:
    bmi = np.round(rng.normal(27, 5, n), 1)
    chol = np.round(rng.normal(5.2, 1.1, n), 2)
    smoker = rng.choice(["ja", "nein"], n)
    risk = 1 / (1 + np.exp(-(0.2 * (bmi - 27) + 0.9 * (chol - 5.2) + (smoker == "ja") * 0.8)))
    y = np.where(rng.random(n) < risk, "krank", "gesund")
    with open("euro.csv", "w", encoding="utf-8") as f:
        f.write("BMI;Cholesterin;Raucher;Diagnose\n")
        for a, b, c, d in zip(bmi, chol, smoker, y):
            f.write(f"{str(a).replace('.', ',')};{str(b).replace('.', ',')};{c};{d}\n")


def num12(n: int = 200) -> None:
    x1 = rng.normal(0, 1, n)
    x2 = rng.choice(["a", "b", "c"], n)
    y = np.where(x1 + (x2 == "a") * 1.0 + rng.normal(0, .5, n) > .5, 2, 1)
    pd.DataFrame({"x1": np.round(x1, 3), "grp": x2, "outcome": y}).to_csv("num12.csv", index=False)


def tiny(n: int = 20) -> None:
    sex = rng.choice(["F", "M"], n)
    bp = rng.integers(100, 180, n)
    y = np.where(bp + rng.normal(0, 10, n) > 140, "hypertensive", "normal")
    pd.DataFrame({"sex": sex, "sbp": bp, "status": y}).to_csv("tiny.csv", index=False)


def leak(n: int = 400) -> None:
    a = rng.normal(0, 1, n)
    b = rng.choice(["x", "y"], n)
    y = np.where(a + (b == "x") + rng.normal(0, 1, n) > 0.5, "died", "survived")
    discharge = np.where(y == "died", "morgue", rng.choice(["home", "rehab"], n))
    pd.DataFrame({"a": np.round(a, 2), "b": b, "site": "H1", "discharge_to": discharge,
                  "outcome": y}).to_csv("leak.csv", index=False)


def hostile(n: int = 120) -> None:
    """HTML, markdown and a formula as column names and values (`pages.py` looks for them)."""
    g = rng.choice(["=cmd|' /C calc'!A0", "<b>bold</b>", "**md**", "plain"], n)
    y = np.where((g == "plain") | (rng.random(n) < .3), "pos", "neg")
    pd.DataFrame({"<script>alert(1)</script>": g,
                  "[link](http://x)": rng.choice(["<img src=x onerror=alert(1)>", "ok"], n),
                  "label": y}).to_csv("hostile.csv", index=False)


if __name__ == "__main__":
    for make in (ehr, euro, num12, tiny, leak, hostile):
        make()
