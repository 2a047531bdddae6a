"""Seeded tables of the kinds new users bring, written as files (`python tests/user_tables.py DIR`).

Each table is (name, file bytes, label column, positive class or None, test file bytes or None):
label codings (1/2, Y/N, pos/neg, booleans with gaps), a very rare class and a 1% class,
Likert codes beside counts, a label written 1 and 1.0, degenerate and informative-missing columns, duplicated rows and
column names, unicode everywhere, an Excel export (BOM, CRLF, trailing empty columns, a totals
row), a TSV, scientific notation with -0 and inf, mixed booleans, column names plx writes
itself, 45 features on 200 rows, and test files whose columns are reordered, lacking or extra.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class UserTable:
    """One generated table as a user would hand it over."""

    name: str
    data: bytes
    label: str
    positive: str | None = None
    test: bytes | None = None
    suffix: str = ".csv"


def _csv(frame: pd.DataFrame, sep: str = ",", **kw) -> bytes:
    return frame.to_csv(index=False, sep=sep, **kw).encode()


def _signal(rng: np.random.Generator, n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """A latent score and a label with share `p` of positives decided by it (plus noise)."""
    z = rng.normal(size=n)
    cut = np.quantile(z + rng.normal(scale=0.5, size=n), 1 - p)
    return z, (z + rng.normal(scale=0.5, size=n)) > cut


def rare_multiclass(seed: int = 0) -> UserTable:
    """Four species, one at 2%."""
    rng = np.random.default_rng(seed)
    n = 600
    cls = rng.choice(["oak", "pine", "birch", "yew"], size=n, p=[0.45, 0.33, 0.20, 0.02])
    base = {"oak": 3.0, "pine": 1.0, "birch": 2.0, "yew": 5.0}
    height = np.array([base[c] for c in cls]) + rng.normal(scale=0.6, size=n)
    bark = np.where(cls == "yew", "red", rng.choice(["grey", "brown", "white"], size=n))
    soil = rng.choice(["clay", "sand", "loam"], size=n)
    f = pd.DataFrame({"height": height.round(2), "bark": bark, "soil": soil, "species": cls})
    return UserTable("rare_multiclass", _csv(f), "species")


def one_percent(seed: int = 1) -> UserTable:
    """3,000 rows, 1% positives, numeric features."""
    rng = np.random.default_rng(seed)
    n = 3000
    z, y = _signal(rng, n, 0.01)
    f = pd.DataFrame({"amount": (np.exp(z + 3) + rng.normal(size=n)).round(2),
                      "age": rng.integers(18, 90, size=n),
                      "channel": rng.choice(["web", "shop", "phone"], size=n),
                      "fraud": np.where(y, 1, 0)})
    return UserTable("one_percent", _csv(f), "fraud")


def label_12(seed: int = 2) -> UserTable:
    """Label coded 1 / 2 (SPSS style)."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    f = pd.DataFrame({"score": (z * 10 + 50).round(1), "group": rng.choice(list("ABC"), size=n),
                      "outcome": np.where(y, 2, 1)})
    return UserTable("label_12", _csv(f), "outcome", "2")


def label_yn_missing(seed: int = 3) -> UserTable:
    """Label Y / N with 5% of labels missing."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.3)
    lab = np.where(y, "Y", "N").astype(object)
    lab[rng.random(n) < 0.05] = ""
    f = pd.DataFrame({"x1": (z + rng.normal(size=n)).round(3), "x2": rng.choice(["lo", "hi"], size=n),
                      "approved": lab})
    return UserTable("label_yn_missing", _csv(f), "approved", "Y")


def label_posneg(seed: int = 4) -> UserTable:
    """Label pos / neg."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.35)
    f = pd.DataFrame({"marker": (z * 3).round(2), "site": rng.choice(["north", "south"], size=n),
                      "result": np.where(y, "pos", "neg")})
    return UserTable("label_posneg", _csv(f), "result", "pos")


def label_bool_gaps(seed: int = 5) -> UserTable:
    """Label True / False with missing labels."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.3)
    lab = np.where(y, "True", "False").astype(object)
    lab[rng.random(n) < 0.04] = ""
    f = pd.DataFrame({"temp": (z + 37).round(1), "cough": rng.choice(["yes", "no"], size=n),
                      "sick": lab})
    return UserTable("label_bool_gaps", _csv(f), "sick")


def likert_counts(seed: int = 6) -> UserTable:
    """Likert 1-7 answers (codes) beside visit counts (0-40)."""
    rng = np.random.default_rng(seed)
    n = 400
    z, y = _signal(rng, n, 0.3)
    lik = np.clip(np.round(4 + 1.5 * z + rng.normal(size=n)), 1, 7).astype(int)
    visits = rng.poisson(np.exp(2 + 0.5 * z))
    f = pd.DataFrame({"satisfaction": lik, "visits": visits,
                      "region": rng.choice(["e", "w"], size=n), "churn": np.where(y, 1, 0)})
    return UserTable("likert_counts", _csv(f), "churn")


def degenerate_columns(seed: int = 7) -> UserTable:
    """A constant column, an empty one, and one missing only in the positive class."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.3)
    lab = rng.choice(["a", "b", "c"], size=n).astype(object)
    lab[y & (rng.random(n) < 0.7)] = ""
    f = pd.DataFrame({"const": "same", "empty": "", "lab_test": lab,
                      "weight": (70 + 10 * z).round(1), "y": np.where(y, 1, 0)})
    return UserTable("degenerate_columns", _csv(f), "y")


def duplicates(seed: int = 8) -> UserTable:
    """Duplicated rows and a duplicated column name."""
    rng = np.random.default_rng(seed)
    n = 150
    z, y = _signal(rng, n, 0.4)
    f = pd.DataFrame({"a": rng.choice(list("xyz"), size=n), "b": (z * 2).round(1),
                      "c": rng.choice(list("pq"), size=n), "label": np.where(y, 1, 0)})
    f = pd.concat([f, f.iloc[:50]], ignore_index=True)
    text = f.to_csv(index=False).replace("a,b,c,label", "a,b,a,label", 1)
    return UserTable("duplicates", text.encode(), "label")


def unicode_everything(seed: int = 9) -> UserTable:
    """Emoji, RTL, combining accents, very long category strings in names and values."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    long_a = "Customer segment " + "very " * 40 + "long A"
    long_b = "Customer segment " + "very " * 40 + "long B"
    f = pd.DataFrame({
        "mood 😀": rng.choice(["😀", "😡", "🙂‍↔️"], size=n),
        "مدينة": rng.choice(["القاهرة", "دبي", "عمان"], size=n),
        "cafe\u0301": np.where(z > 0, "cre\u0300me", "cr\u00e8me"),
        "segment": rng.choice([long_a, long_b], size=n),
        "score": (z * 5).round(2),
        "résultat": np.where(y, "oui", "non"),
    })
    return UserTable("unicode_everything", _csv(f), "résultat", "oui")


def excel_export(seed: int = 10) -> UserTable:
    """UTF-8 BOM, CRLF line ends, trailing empty columns, a totals row at the bottom."""
    rng = np.random.default_rng(seed)
    n = 200
    z, y = _signal(rng, n, 0.3)
    f = pd.DataFrame({"units": rng.integers(1, 500, size=n), "price": (20 + 5 * z).round(2),
                      "store": rng.choice(["S1", "S2", "S3"], size=n),
                      "returned": np.where(y, "yes", "no")})
    lines = [",".join(f.columns) + ",,"]
    lines += [",".join(map(str, r)) + ",," for r in f.itertuples(index=False)]
    lines.append(f"{f.units.sum()},{f.price.sum():.2f},Total,,,")
    return UserTable("excel_export", ("\ufeff" + "\r\n".join(lines) + "\r\n").encode(), "returned")


def tsv(seed: int = 11) -> UserTable:
    """Tab-separated, with commas inside cells."""
    rng = np.random.default_rng(seed)
    n = 250
    z, y = _signal(rng, n, 0.4)
    f = pd.DataFrame({"city": rng.choice(["Paris, FR", "Rome, IT", "Oslo, NO"], size=n),
                      "rain_mm": (30 + 10 * z).round(1), "late": np.where(y, "yes", "no")})
    return UserTable("tsv", _csv(f, sep="\t"), "late", suffix=".tsv")


def scientific(seed: int = 12) -> UserTable:
    """Scientific notation, -0, inf and -inf in numeric columns."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    conc = np.exp(3 * z - 12)
    conc_s = [f"{v:.3e}" for v in conc]
    shift = [("-0" if i % 37 == 0 else f"{v:.2f}") for i, v in enumerate(z)]
    ratio = np.where(rng.random(n) < 0.02, np.inf, z * 2)
    ratio = np.where(rng.random(n) < 0.02, -np.inf, ratio)
    f = pd.DataFrame({"conc": conc_s, "shift": shift, "ratio": ratio,
                      "toxic": np.where(y, 1, 0)})
    return UserTable("scientific", _csv(f), "toxic")


def mixed_bool(seed: int = 13) -> UserTable:
    """A column of True/False/yes/no/1/0 spellings for one yes/no fact."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    smoker = z + rng.normal(scale=0.5, size=n) > 0
    yes = rng.choice(["True", "yes", "Yes", "1", "TRUE"], size=n)
    no = rng.choice(["False", "no", "No", "0", "FALSE"], size=n)
    f = pd.DataFrame({"smoker": np.where(smoker, yes, no), "age": rng.integers(20, 80, size=n),
                      "disease": np.where(y, "yes", "no")})
    return UserTable("mixed_bool", _csv(f), "disease")


def colliding_names(seed: int = 14) -> UserTable:
    """Feature columns named like the columns plx adds to its own tables and outputs."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    f = pd.DataFrame({"decision": rng.choice(["approve", "deny"], size=n),
                      "note": np.where(z > 0, "late payer", "on time"),
                      "lower": (z * 3).round(1), "upper": rng.choice(list("AB"), size=n),
                      "row": np.arange(n) % 7, "k": rng.choice(["1", "2", "3"], size=n),
                      "label": rng.choice(["own brand", "premium"], size=n),
                      "before": rng.choice(["x", "y"], size=n),
                      "default": np.where(y, 1, 0)})
    return UserTable("colliding_names", _csv(f), "default")


def wide_short(seed: int = 15) -> UserTable:
    """45 features (numeric and categorical) on 200 rows; test file reordered."""
    rng = np.random.default_rng(seed)
    n = 200
    z, y = _signal(rng, n, 0.4)
    cols = {}
    for i in range(30):
        cols[f"num{i:02d}"] = (rng.normal(size=n) + (z if i < 3 else 0)).round(3)
    for i in range(15):
        cols[f"cat{i:02d}"] = rng.choice(list("abcd"), size=n)
    cols["target"] = np.where(y, 1, 0)
    f = pd.DataFrame(cols)
    test = f.iloc[:40, ::-1]
    return UserTable("wide_short", _csv(f), "target", test=_csv(test))


def test_lacks_column(seed: int = 16) -> UserTable:
    """A test file lacking a training column and adding one."""
    rng = np.random.default_rng(seed)
    n = 300
    z, y = _signal(rng, n, 0.4)
    f = pd.DataFrame({"p": (z * 2).round(2), "q": rng.choice(["u", "v"], size=n),
                      "r": rng.integers(0, 3, size=n), "y": np.where(y, 1, 0)})
    test = f.iloc[:30].drop(columns=["q"]).assign(extra="zz")
    return UserTable("test_lacks_column", _csv(f), "y", test=_csv(test))


def label_number_spellings(seed: int = 17) -> UserTable:
    """A 0/1 label written '1' and '1.0' (two exports joined: one wrote the column as floats)."""
    rng = np.random.default_rng(seed)
    n = 200
    z, y = _signal(rng, n, 0.4)
    lab = np.where(y, rng.choice(["1", "1.0"], size=n), rng.choice(["0", "0.0"], size=n))
    f = pd.DataFrame({"dose": (z * 4 + 20).round(1), "arm": rng.choice(["A", "B"], size=n),
                      "cured": lab})
    return UserTable("label_number_spellings", _csv(f), "cured")



def readmission(seed: int = 18, n: int = 600) -> UserTable:
    """A clinic's export nobody tuned for: readmitted yes/no (about 7% yes), a patient ID,
    lab values in units with missing cells, sex and admission type spelled several ways
    (`Male`/`male`/`M `, `emergency ` with a trailing space), diabetes as yes/no/Y/N/unknown.
    Not in `TABLES` (the walks over every table stay as fast as they were)."""
    r = np.random.default_rng(seed)
    adm = r.choice(["Emergency", "emergency ", "ER", "Elective", "Urgent", "urgent"], n,
                   p=[.3, .1, .1, .3, .1, .1])
    age = r.integers(18, 95, n).astype(float)
    creat = np.round(r.lognormal(0, 0.4, n), 2)
    prior = r.poisson(0.8, n)
    logit = (-3.25 + 0.9 * (prior >= 2) + 0.8 * (creat > 1.5) + 0.6 * (age > 75)
             + 0.4 * np.isin(adm, ["Emergency", "emergency ", "ER"]))
    y = r.random(n) < 1 / (1 + np.exp(-logit))
    frame = pd.DataFrame({
        "patient_id": [f"P{10000 + i}" for i in range(n)], "age": age,
        "sex": r.choice(["Male", "male", "M ", "F", "female", "Female", "f"], n),
        "admission": adm, "HbA1c (%)": np.round(r.normal(6.5, 1.3, n), 1),
        "creatinine mg/dL": creat, "prior_admissions": prior,
        "systolic_bp": r.normal(135, 18, n).round(),
        "diabetes": r.choice(["yes", "no", "Y", "N", "unknown"], n, p=[.25, .5, .05, .1, .1]),
        "readmitted": np.where(y, "yes", "no")})
    for col, share in [("HbA1c (%)", .15), ("creatinine mg/dL", .08), ("systolic_bp", .05),
                       ("age", .02)]:
        frame.loc[r.random(n) < share, col] = np.nan
    frame.loc[r.random(n) < .05, "sex"] = ""
    return UserTable("readmission", _csv(frame), "readmitted", "yes")


TABLES: tuple[Callable[[], UserTable], ...] = (
    rare_multiclass, one_percent, label_12, label_yn_missing, label_posneg, label_bool_gaps,
    likert_counts, degenerate_columns, duplicates, unicode_everything, excel_export, tsv,
    scientific, mixed_bool, colliding_names, wide_short, test_lacks_column,
    label_number_spellings)


def write_all(folder: Path) -> list[UserTable]:
    """Write every table (and its test file) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for make in TABLES:
        t = make()
        (folder / f"{t.name}{t.suffix}").write_bytes(t.data)
        if t.test is not None:
            (folder / f"{t.name}_test{t.suffix}").write_bytes(t.test)
        out.append(t)
    return out


if __name__ == "__main__":
    for t in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "user-tables")):
        print(t.name, t.label, t.positive or "")
