"""Seeded tables of kinds none of unseen19's or unseen20's families represent (session 21, unseen21).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class or None for
several classes scored by macro-F1). `python families.py DIR` writes every family's CSV to DIR
(for `plx fit` / `plx predict` / `plx explain`).
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


def _csv(X: pd.DataFrame, y, **to_csv) -> str:
    return X.assign(outcome=np.asarray(y)).to_csv(index=to_csv.pop("index", False), **to_csv)


TEXTS: dict[str, str] = {}  # the last CSV text each family wrote, for tables.write_csvs


def _read(text: str, pos):
    TEXTS[sys._getframe(1).f_code.co_name] = text
    d = pd.read_csv(io.StringIO(text))
    return d.drop(columns="outcome"), d["outcome"], pos


def rare_value(seed=0, n=2000):
    """'allergy' is 'none' on 97% of rows; the rare 'penicillin' (2%) and 'latex' (1%) carry most of
    the risk, beside two weak numbers."""
    rng = np.random.default_rng(seed)
    allergy = rng.choice(["none", "penicillin", "latex"], n, p=[0.97, 0.02, 0.01])
    age, hb = rng.normal(55, 15, n).round(), rng.normal(13, 1.6, n).round(1)
    z = -1.9 + 3.2 * (allergy == "penicillin") + 2.5 * (allergy == "latex") + 0.02 * (age - 55) - 0.2 * (hb - 13)
    X = pd.DataFrame({"allergy": allergy, "age": age, "hb": hb, "ward": rng.choice(["A", "B", "C"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def drug_age(seed=0, n=2000):
    """A drug that helps only under 65: the label turns on a category x number interaction."""
    rng = np.random.default_rng(seed)
    age = rng.uniform(30, 90, n).round()
    drug = rng.choice(["placebo", "statin"], n)
    z = -0.3 + 0.03 * (age - 60) - 2.2 * ((drug == "statin") & (age < 65)) + 0.4 * rng.normal(size=n)
    X = pd.DataFrame({"age": age, "treatment": drug, "sex": rng.choice(["m", "f"], n),
                      "bmi": rng.normal(27, 4, n).round(1)})
    return _read(_csv(X, np.where(rng.random(n) < _sig(z), "event", "no event")), "event")


def icd_codes(seed=0, n=3000):
    """A diagnosis code with 300 levels in a long tail (Zipf-like, ICD-like 'I21.4'): the chapter
    letter ('I' circulatory, 'C' cancer) carries the risk, most codes are seen a few times."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("ACEFIJKMNR"))
    codes = np.array([f"{letters[i % 10]}{10 + (i * 7) % 89:02d}.{i % 10}" for i in range(300)])
    w = 1 / np.arange(1, 301) ** 1.1
    code = codes[rng.permutation(300)][rng.choice(300, n, p=w / w.sum())]
    chap = np.array([c[0] for c in code])
    z = -1.6 + 1.6 * (chap == "I") + 2.0 * (chap == "C") - 0.6 * (chap == "J")
    X = pd.DataFrame({"diagnosis": code, "age": rng.normal(60, 15, n).round(),
                      "admission": rng.choice(["elective", "emergency"], n)})
    return _read(_csv(X, _yes(_sig(z + 0.6 * (X["admission"] == "emergency")), rng)), "yes")


def twin_units(seed=0, n=1500):
    """The same measures twice in other units, rounded apart: weight kg / lb, temperature C / F,
    glucose mmol/L / mg/dL."""
    rng = np.random.default_rng(seed)
    kg, c, mmol = rng.normal(80, 15, n), rng.normal(37.2, 0.8, n), np.exp(rng.normal(1.7, 0.3, n))
    z = -0.8 + 0.05 * (kg - 80) + 1.1 * (c - 37.2) + 0.8 * (mmol - 5.5)
    X = pd.DataFrame({"weight_kg": kg.round(1), "weight_lb": (kg * 2.20462).round(),
                      "temp_c": c.round(1), "temp_f": (c * 9 / 5 + 32).round(1),
                      "glucose_mmol": mmol.round(1), "glucose_mgdl": (mmol * 18).round(),
                      "site": rng.choice(["north", "south"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def twin_units_one(seed=0, n=1500):
    """`twin_units` after the user follows the note: one column a measure (kg, °C, mmol/L)."""
    X, y, pos = twin_units(seed, n)
    return X.drop(columns=["weight_lb", "temp_f", "glucose_mgdl"]), y, pos


def season_dates(seed=0, n=2000):
    """ISO dates where only the month (winter) and the weekday (weekend) matter, plus a
    date-and-time stamp as text."""
    rng = np.random.default_rng(seed)
    day = pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, n), unit="D")
    winter = np.isin(day.month, [12, 1, 2])
    weekend = day.day_of_week >= 5
    z = -1.7 + 1.8 * winter + 0.9 * weekend
    stamp = day + pd.to_timedelta(rng.integers(0, 86400, n), unit="s")
    X = pd.DataFrame({"visit_date": day.strftime("%Y-%m-%d"), "logged": stamp.strftime("%d/%m/%Y %H:%M"),
                      "age": rng.normal(50, 18, n).round()})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def season_dates_converted(seed=0, n=2000):
    """`season_dates` after the user follows the hint: the date through pd.to_datetime, and the
    month and weekday taken out as the user who knows the season would."""
    X, y, pos = season_dates(seed, n)
    d = pd.to_datetime(X["visit_date"])
    return X.assign(visit_date=d, month=d.dt.month_name(), weekday=d.dt.day_name()).drop(
        columns="logged"), y, pos


def rare_half(seed=0, n=50000):
    """50,000 rows, 0.5% positive: a machine failure from temperature, vibration and a model type."""
    rng = np.random.default_rng(seed)
    temp, vib = rng.normal(70, 8, n).round(1), np.exp(rng.normal(0, 0.5, n)).round(3)
    kind = rng.choice(["L", "M", "H"], n, p=[0.5, 0.3, 0.2])
    z = -6.7 + 0.15 * (temp - 70) + 1.6 * np.log(vib) + 1.0 * (kind == "L")
    X = pd.DataFrame({"temp": temp, "vibration": vib, "type": kind,
                      "hours": rng.integers(0, 20000, n), "shift": rng.choice(["day", "night"], n)})
    return _read(_csv(X, np.where(rng.random(n) < _sig(z), "failure", "ok")), "failure")


def label_typo(seed=0, n=1500):
    """A yes/no label with a third value typed by mistake in 3 rows ('yse', 'n0', 'maybe')."""
    rng = np.random.default_rng(seed)
    a, g = rng.normal(size=n), rng.choice(["x", "y", "z"], n)
    y = _yes(_sig(1.5 * a + 0.8 * (g == "z") - 0.5), rng).astype(object)
    y[rng.choice(n, 3, replace=False)] = ["yse", "n0", "maybe"]
    X = pd.DataFrame({"a": a.round(3), "grp": g, "b": rng.normal(size=n).round(3)})
    return _read(_csv(X, y), "yes")


def overlap(seed=0, n=2000):
    """Strong class overlap: the best possible F1 is about 0.6 (weak signal in three columns)."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    c = rng.choice(["p", "q", "r", "s"], n)
    z = -0.4 + 0.55 * a - 0.35 * b + 0.35 * (c == "s")
    X = pd.DataFrame({"a": a.round(2), "b": b.round(2), "c": c, "d": rng.normal(size=n).round(2)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def severity(seed=0, n=2000):
    """Nested, ordered classes none / mild / moderate / severe from a latent score (several
    classes, macro-F1): each class is a band of the same score, not a region of its own."""
    rng = np.random.default_rng(seed)
    spo2, rr, age = rng.normal(94, 3, n).round(), rng.normal(20, 5, n).round(), rng.normal(55, 18, n).round()
    conf = rng.random(n) < 0.1
    s = -0.45 * (spo2 - 94) + 0.18 * (rr - 20) + 0.02 * (age - 55) + 1.5 * conf + rng.logistic(0, 0.6, n)
    lab = np.array(["none", "mild", "moderate", "severe"])[np.digitize(s, [-0.5, 1.0, 2.5])]
    X = pd.DataFrame({"spo2": spo2, "resp_rate": rr, "age": age, "confused": np.where(conf, "yes", "no")})
    return _read(_csv(X, lab), None)


def money(seed=0, n=1500):
    """Money as a spreadsheet writes it: '$1,234.50', '€ 980', '(120.00)' for a negative balance,
    '-' for none; a percentage '4.5 %'."""
    rng = np.random.default_rng(seed)
    income = np.exp(rng.normal(10.5, 0.6, n)).round(2)
    bal = rng.normal(500, 900, n).round(2)
    rate = rng.uniform(2, 12, n).round(1)
    z = -0.8 - 1.2 * (np.log(income) - 10.5) - 0.0012 * bal + 0.25 * (rate - 7)
    bal_s = np.where(bal < 0, [f"({-v:,.2f})" for v in bal], [f"{v:,.2f}" for v in bal])
    bal_s = np.where(rng.random(n) < 0.05, "-", bal_s)
    X = pd.DataFrame({"income": [f"${v:,.2f}" for v in income], "balance": bal_s,
                      "rate": [f"{v} %" for v in rate], "branch": rng.choice(["€ zone", "$ zone"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def money_converted(seed=0, n=1500):
    """`money` after the user follows the estimator's hints: income and rate through
    plx_core.data.column_numbers (the call the hint names), '-' as missing and the accountants'
    '(120.00)' written with a minus sign."""
    from plx_core.data import column_numbers

    X, y, pos = money(seed, n)
    bal = X["balance"].where(X["balance"] != "-").str.replace(r"^\((.*)\)$", r"-\1", regex=True)
    return X.assign(income=column_numbers(X["income"], "thousands+currency"),
                    rate=column_numbers(X["rate"], "percent"),
                    balance=column_numbers(bal, "thousands")), y, pos


def excel_export(seed=0, n=1200):
    """A sheet saved from Excel: its index as the first column ('Unnamed: 0'), two blank trailing
    columns, '#N/A' and '#DIV/0!' in a computed column, and two blank rows at the end."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(50, 10, n).round(1), rng.normal(5, 2, n).round(2)
    g = rng.choice(["red", "green", "blue"], n)
    ratio = np.where(b != 0, (a / np.where(b == 0, 1, b)).round(2), np.nan).astype(object)
    ratio[rng.random(n) < 0.03] = "#DIV/0!"
    ratio[rng.random(n) < 0.03] = "#N/A"
    z = -0.5 + 0.08 * (a - 50) - 0.5 * (b - 5) + 0.7 * (g == "red")
    X = pd.DataFrame({"a": a, "b": b, "ratio": ratio, "colour": g})
    text = X.assign(outcome=_yes(_sig(z), rng), **{"": "", " ": ""}).to_csv(index=True)
    text = text.rstrip("\n") + "\n" + ",,,,,,,\n,,,,,,,\n"
    return _read(text, "yes")


def excel_export_dropped(seed=0, n=1200):
    """`excel_export` after the user follows the refusal: the rows without a label dropped."""
    X, y, pos = excel_export(seed, n)
    keep = y.notna()
    return X[keep].reset_index(drop=True), y[keep].reset_index(drop=True), pos


def label_typo_dropped(seed=0, n=1500):
    """`label_typo` after the user follows the note: the three rows of rare classes dropped."""
    X, y, pos = label_typo(seed, n)
    keep = y.isin(["yes", "no"])
    return X[keep].reset_index(drop=True), y[keep].reset_index(drop=True), pos


FAMILIES = {f.__name__: f for f in (rare_value, drug_age, icd_codes, twin_units, twin_units_one, season_dates,
                                    season_dates_converted, rare_half, label_typo, overlap,
                                    severity, money, money_converted, excel_export,
                                    excel_export_dropped, label_typo_dropped)}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tables import write_csvs  # one home for the ad-hoc families' CSVs

    write_csvs(Path(sys.argv[1]), FAMILIES, TEXTS)
