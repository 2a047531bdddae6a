"""Seeded tables of kinds none of unseen19's, unseen20's or unseen21's families represent (session 22).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class).
`TEST_ONLY[name](X)` (leak_missing only) gives the test rows as predict would see them.
`python families.py DIR` writes every family's CSV to DIR (for `plx fit` / `predict` / `explain`).
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pandas as pd


def _sig(z):
    return 1 / (1 + np.exp(-z))


def _yes(p: np.ndarray, rng) -> np.ndarray:
    return np.where(rng.random(len(p)) < p, "yes", "no")


def _csv(X: pd.DataFrame, y) -> str:
    return X.assign(outcome=np.asarray(y)).to_csv(index=False)


TEXTS: dict[str, str] = {}


def _read(text: str, pos):
    TEXTS[sys._getframe(1).f_code.co_name] = text
    d = pd.read_csv(io.StringIO(text))
    return d.drop(columns="outcome"), d["outcome"], pos


def xor20(seed=0, n=2000):
    """The label is a XOR b (two 0/1 columns) with 5% label noise, among 20 noise 0/1 columns."""
    rng = np.random.default_rng(seed)
    B = rng.integers(0, 2, (n, 22))
    y = (B[:, 0] ^ B[:, 1]).astype(bool) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame(B, columns=["a", "b"] + [f"n{i:02d}" for i in range(20)])
    return _read(_csv(X, np.where(y, "yes", "no")), "yes")


def flip(seed=0, n=2000):
    """A dose whose effect flips sign at 60: risk rises slowly up to 60, falls steeply past it;
    two weak numbers beside."""
    rng = np.random.default_rng(seed)
    dose = rng.uniform(0, 100, n).round(1)
    age, bmi = rng.normal(55, 12, n).round(), rng.normal(27, 4, n).round(1)
    z = np.where(dose < 60, -1.5 + 0.05 * dose, 1.5 - 0.15 * (dose - 60)) + 0.02 * (age - 55) + 0.05 * (bmi - 27)
    X = pd.DataFrame({"dose": dose, "age": age, "bmi": bmi})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def big_noisy(seed=0, n=30000):
    """30,000 rows, ~40% positive, a DNF of numbers and categories with 8% of labels flipped."""
    rng = np.random.default_rng(seed)
    x1, x2, x3 = rng.normal(size=n).round(3), rng.uniform(0, 10, n).round(2), rng.exponential(2, n).round(2)
    c1, c2 = rng.choice(list("ABCD"), n), rng.choice(["red", "green", "blue"], n)
    y = ((x1 > 0.3) & (c1 != "D")) | ((x2 > 7) & (c2 == "red")) | (x3 > 4.2)
    y ^= rng.random(n) < 0.08
    X = pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "c1": c1, "c2": c2,
                      "x4": rng.normal(size=n).round(3), "c3": rng.choice(["p", "q"], n)})
    return _read(_csv(X, np.where(y, "yes", "no")), "yes")


def leak_missing(seed=0, n=2000):
    """'lab_b' was filled in only after a negative outcome: missing on every positive row of the
    file, and present at prediction time (TEST_ONLY gives the test rows their values)."""
    rng = np.random.default_rng(seed)
    a, lab = rng.normal(size=n).round(3), rng.normal(5, 1, n).round(2)
    g = rng.choice(["x", "y"], n)
    y = _yes(_sig(1.4 * a + 0.8 * (lab - 5) + 0.6 * (g == "y") - 0.6), rng)
    LAB_FULL[seed] = lab.copy()
    X = pd.DataFrame({"a": a, "lab_b": np.where(y == "yes", np.nan, lab), "grp": g})
    return _read(_csv(X, y), "yes")


LAB_FULL: dict[int, np.ndarray] = {}
TEST_ONLY = {"leak_missing": lambda X: X.assign(lab_b=LAB_FULL[0][X.index])}


def sci_neg(seed=0, n=2000):
    """Numbers of every scale: a concentration around 1e-6 mol/L written in scientific notation
    ('1.2e-06'), a balance in the -1e9..1e9 range, a small negative temperature anomaly."""
    rng = np.random.default_rng(seed)
    conc = np.exp(rng.normal(np.log(2e-6), 0.6, n))
    bal = rng.normal(0, 3e8, n).round(-3)
    anom = rng.normal(-0.4, 0.5, n).round(3)
    z = -0.5 + 1.5 * (conc > 3e-6) - 1.2 * (bal < -2e8) + 1.0 * (anom < -0.8)
    X = pd.DataFrame({"conc": [f"{v:.2e}" for v in conc], "balance": bal, "anomaly": anom})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def bilingual(seed=0, n=2000):
    """A table from a German and a French site: yes/no columns written ja/nein or oui/non (the
    label in English; `plx fit` on a label written both ways is tried by hand)."""
    rng = np.random.default_rng(seed)
    site = rng.choice(["de", "fr"], n)
    smoker, fever = rng.random(n) < 0.3, rng.random(n) < 0.4
    z = -1.2 + 1.4 * smoker + 1.1 * fever + 0.03 * (rng.normal(50, 15, n) - 50)
    y = rng.random(n) < _sig(z)

    def word(b):
        return np.where(site == "de", np.where(b, "ja", "nein"), np.where(b, "oui", "non"))
    X = pd.DataFrame({"site": site, "smoker": word(smoker), "fever": word(fever),
                      "age": rng.normal(50, 15, n).round()})
    return _read(_csv(X, np.where(y, "yes", "no")), "yes")


def bilingual_converted(seed=0, n=2000):
    """`bilingual` with every ja/oui mapped to yes and nein/non to no, as a user who knows would."""
    X, y, _ = bilingual(seed, n)
    m = {"ja": "yes", "oui": "yes", "nein": "no", "non": "no"}
    return X.assign(smoker=X.smoker.map(m), fever=X.fever.map(m)), y, "yes"


def case_space(seed=0, n=2000):
    """Categories typed by hand: 'Male', 'male ', 'MALE'; 'Smoker'/'smoker'/' SMOKER'."""
    rng = np.random.default_rng(seed)
    male, smk = rng.random(n) < 0.5, rng.random(n) < 0.3
    z = -1.0 + 0.9 * male + 1.5 * smk + 0.5 * rng.normal(size=n)
    sex = np.where(male, rng.choice(["Male", "male ", "MALE"], n, p=[0.6, 0.3, 0.1]),
                   rng.choice(["Female", "female", " FEMALE"], n, p=[0.6, 0.3, 0.1]))
    smoking = np.where(smk, rng.choice(["Smoker", "smoker", " SMOKER"], n, p=[0.5, 0.4, 0.1]),
                       rng.choice(["Never", "never ", "NEVER"], n, p=[0.5, 0.4, 0.1]))
    X = pd.DataFrame({"sex": sex, "smoking": smoking, "age": rng.normal(50, 15, n).round()})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def dup95(seed=0, n=2000):
    """95% of rows exact copies: 100 distinct patients, each entered ~20 times (a join gone wrong)."""
    rng = np.random.default_rng(seed)
    k = n // 20
    a, b, g = rng.normal(size=k).round(3), rng.normal(size=k).round(3), rng.choice(["x", "y", "z"], k)
    yk = _yes(_sig(1.5 * a - 1.0 * b + 0.7 * (g == "z")), rng)
    idx = rng.integers(0, k, n)
    idx[:k] = np.arange(k)
    X = pd.DataFrame({"a": a[idx], "b": b[idx], "grp": g[idx]})
    return _read(_csv(X, yk[idx]), "yes")


def pct_mixed(seed=0, n=2000):
    """A percentage written 0-1 at one site (0.42) and 0-100 at the other (42): 'o2_sat' and
    'adherence' mix scales; risk turns on the true percentage."""
    rng = np.random.default_rng(seed)
    site = rng.choice(["A", "B"], n)
    sat, adh = rng.uniform(80, 100, n), rng.uniform(20, 100, n)
    z = -0.5 - 0.35 * (sat - 92) - 0.04 * (adh - 60)
    scale = np.where(site == "A", 0.01, 1.0)
    X = pd.DataFrame({"site": site, "o2_sat": (sat * scale).round(3), "adherence": (adh * scale).round(3),
                      "age": rng.normal(50, 15, n).round()})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def pct_mixed_converted(seed=0, n=2000):
    """`pct_mixed` after the user follows the note: the fractions × 100."""
    X, y, pos = pct_mixed(seed, n)
    fix = {c: X[c].where(X[c] > 1, X[c] * 100) for c in ("o2_sat", "adherence")}
    return X.assign(**fix), y, pos


def leak_missing_dropped(seed=0, n=2000):
    """`leak_missing` after the user follows the note: 'lab_b' left out."""
    X, y, pos = leak_missing(seed, n)
    return X.drop(columns="lab_b"), y, pos


def label12(seed=0, n=2000):
    """The label stored as 1 / 2 (2 = disease, SPSS style), every column numeric."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    sex = rng.integers(1, 3, n)
    y = np.where(rng.random(n) < _sig(1.3 * a + 0.7 * b + 0.5 * (sex == 2) - 0.7), 2, 1)
    X = pd.DataFrame({"a": a, "b": b, "sex": sex})
    return _read(_csv(X, y), 2)


def longcat(seed=0, n=2000):
    """Categories 200 characters long (a pasted procedure description), 6 levels, 2 carry risk."""
    rng = np.random.default_rng(seed)
    words = ["laparoscopic", "resection", "of", "the", "left", "right", "colon", "with", "primary",
             "anastomosis", "under", "general", "anaesthesia", "and", "epidural", "analgesia"]
    levels = []
    for i in range(6):
        r = np.random.default_rng(100 + i)
        s = f"Procedure {i + 1}: " + " ".join(r.choice(words, 40))
        levels.append(s[:200])
    proc = rng.choice(6, n)
    z = -1.0 + 1.8 * (proc == 1) + 1.2 * (proc == 4) + 0.03 * (rng.normal(60, 12, n) - 60)
    X = pd.DataFrame({"procedure": np.array(levels)[proc], "age": rng.normal(60, 12, n).round(),
                      "urgent": rng.choice(["yes", "no"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def notes(seed=0, n=2000):
    """A free-text 'notes' column (every row its own sentence); words 'chest pain' / 'sob' raise the
    risk; two numbers beside."""
    rng = np.random.default_rng(seed)
    openers = ["Pt seen in clinic", "Walk-in", "Referred by GP", "Follow-up visit", "Called in"]
    sympt = ["chest pain", "headache", "sob", "cough", "back pain", "rash", "dizziness", "fatigue"]
    s1, s2 = rng.choice(8, n), rng.choice(8, n)
    days = rng.integers(1, 30, n)
    text = [f"{openers[rng.integers(5)]}, c/o {sympt[a]} and {sympt[b]} x{d} days. BP {rng.integers(100, 170)}/"
            f"{rng.integers(60, 100)}." for a, b, d in zip(s1, s2, days)]
    cp = (s1 == 0) | (s2 == 0)
    sob = (s1 == 2) | (s2 == 2)
    age = rng.normal(55, 15, n).round()
    z = -1.6 + 1.6 * cp + 1.0 * sob + 0.03 * (age - 55)
    X = pd.DataFrame({"notes": text, "age": age, "hr": rng.normal(80, 12, n).round()})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def notes_converted(seed=0, n=2000):
    """`notes` after the user follows the hint: a yes/no column per symptom word the notes name."""
    X, y, pos = notes(seed, n)
    words = {"chest_pain": "chest pain", "sob": "sob", "cough": "cough", "headache": "headache"}
    flags = {c: np.where(X["notes"].str.contains(w, regex=False), "yes", "no") for c, w in words.items()}
    return X.drop(columns="notes").assign(**flags), y, pos


FAMILIES = {f.__name__: f for f in (xor20, flip, big_noisy, leak_missing, sci_neg, bilingual,
                                    bilingual_converted, case_space, dup95, pct_mixed, pct_mixed_converted,
                                    leak_missing_dropped, label12,
                                    longcat, notes, notes_converted)}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tables import write_csvs  # one home for the ad-hoc families' CSVs

    write_csvs(Path(sys.argv[1]), FAMILIES, TEXTS)
