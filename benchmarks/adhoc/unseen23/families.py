"""Seeded tables of kinds none of unseen19–22's families represent (session 23).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class).
`TRAIN_VIEW[name](X, y)` (sorted_rows only) gives the training rows as the user's file holds
them. `python families.py DIR` writes every family's CSV to DIR (for `plx fit` / `predict` /
`explain`).
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


def _read(text: str, pos, **read):
    TEXTS[sys._getframe(1).f_code.co_name] = text
    d = pd.read_csv(io.StringIO(text), **read)
    return d.drop(columns="outcome"), d["outcome"], pos


def _labs(seed: int, n: int):
    rng = np.random.default_rng(seed)
    creat = np.exp(rng.normal(0, 0.35, n)).round(2)          # mg/dL, ~1
    bmi = rng.normal(28, 5, n).round(1)
    age = rng.normal(60, 12, n).round()
    z = -1.3 + 2.2 * (creat > 1.4) + 0.12 * (bmi - 28) + 0.03 * (age - 60)
    return rng, creat, bmi, age, _yes(_sig(z), rng)


def sentinel(seed=0, n=2000):
    """Missing values coded as numbers: creatinine -999 on 12% of rows, BMI 9999 on 6% (a legacy
    system's codes for 'not measured'), chosen at random; the risk rises with both."""
    rng, creat, bmi, age, y = _labs(seed, n)
    creat = np.where(rng.random(n) < 0.12, -999, creat)
    bmi = np.where(rng.random(n) < 0.06, 9999, bmi)
    X = pd.DataFrame({"creatinine": creat, "bmi": bmi, "age": age})
    return _read(_csv(X, y), "yes")


def sentinel_converted(seed=0, n=2000):
    """`sentinel` read as the user who knows the codes would: `na_values` -999 and 9999."""
    X, y, pos = sentinel(seed, n)
    return X.replace({-999: np.nan, 9999: np.nan}), y, pos


def sorted_rows(seed=0, n=2000):
    """The file sorted by the label (every 'no' row, then every 'yes' row), a running record
    number beside; `TRAIN_VIEW` sorts the training rows too, as the user's file holds them."""
    rng, creat, bmi, age, y = _labs(seed, n)
    order = np.argsort(y, kind="stable")
    X = pd.DataFrame({"record": np.arange(1, n + 1), "creatinine": creat[order], "bmi": bmi[order],
                      "age": age[order], "ward": rng.choice(["A", "B", "C"], n)})
    return _read(_csv(X, y[order]), "yes")


def after_date(seed=0, n=2000):
    """A condition coded only from 2023-07-01 on (a new diagnosis code): before that date no row
    is positive; after it the risk follows two numbers. Dates written ISO."""
    rng = np.random.default_rng(seed)
    day = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, n), unit="D")
    a, b = rng.normal(size=n).round(3), rng.normal(size=n).round(3)
    late = day >= pd.Timestamp("2023-07-01")
    y = np.where(late, _yes(_sig(-0.2 + 1.5 * a + 0.8 * b), rng), "no")
    X = pd.DataFrame({"visit_date": day.strftime("%Y-%m-%d"), "a": a, "b": b})
    return _read(_csv(X, y), "yes")


def after_date_converted(seed=0, n=2000):
    """`after_date` read with `parse_dates`, as the hint says (a datetime column)."""
    X, y, pos = after_date(seed, n)
    return X.assign(visit_date=pd.to_datetime(X.visit_date)), y, pos


def ratio_units(seed=0, n=2000):
    """BMI ≥ 30 (5% of labels flipped) from height and weight stored in cm / kg at one site
    (the first half of the file) and in m / lb at the other (the second half)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(1.70, 0.09, n)
    w = np.exp(rng.normal(np.log(80), 0.2, n))
    y = (w / h**2 >= 30) ^ (rng.random(n) < 0.05)
    half = np.arange(n) >= n // 2
    X = pd.DataFrame({"height": np.where(half, h.round(2), (h * 100).round()),
                      "weight": np.where(half, (w * 2.20462).round(), w.round(1)),
                      "age": rng.normal(50, 14, n).round()})
    return _read(_csv(X, np.where(y, "yes", "no")), "yes")


def ratio_units_converted(seed=0, n=2000):
    """`ratio_units` with the second site's m and lb rewritten in cm and kg."""
    X, y, pos = ratio_units(seed, n)
    m = X.height < 3
    return X.assign(height=np.where(m, X.height * 100, X.height),
                    weight=np.where(m, (X.weight / 2.20462).round(1), X.weight)), y, pos


def ratio_units_height(seed=0, n=2000):
    """`ratio_units` after the user follows the new note on 'height' alone (cm throughout);
    'weight' still kg then lb, which no note can tell (the two ranges overlap)."""
    X, y, pos = ratio_units(seed, n)
    m = X.height < 3
    return X.assign(height=np.where(m, X.height * 100, X.height)), y, pos


def near_id(seed=0, n=2000):
    """A patient number with a few repeats (12% of rows are readmissions of an earlier patient,
    who keeps the number and most of the risk) and a visit code unique per row, beside three
    measures that carry the risk."""
    rng = np.random.default_rng(seed)
    pid = rng.choice(np.arange(10000, 99999), n, replace=False)
    again = np.flatnonzero(rng.random(n) < 0.12)
    again = again[again > 0]
    src = np.array([rng.integers(0, i) for i in again])
    pid[again] = pid[src]
    a, b = rng.normal(size=n), rng.normal(size=n)
    a[again] = a[src] + 0.2 * rng.normal(size=len(again))
    c = rng.choice(["low", "mid", "high"], n)
    z = -0.8 + 1.3 * a + 0.7 * b + 0.8 * (c == "high")
    X = pd.DataFrame({"patient_no": pid, "visit": [f"V{i:06d}" for i in rng.permutation(n)],
                      "a": a.round(3), "b": b.round(3), "grade": c})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def parity3(seed=0, n=2000):
    """The label is the parity of three signs (a > 0, b > 0, c > 0; no main effect, no pair
    effect), 5% of labels flipped, among seven noise numbers."""
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(n, 10)).round(3)
    y = ((M[:, 0] > 0) ^ (M[:, 1] > 0) ^ (M[:, 2] > 0)) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame(M, columns=["a", "b", "c"] + [f"n{i}" for i in range(7)])
    return _read(_csv(X, np.where(y, "yes", "no")), "yes")


def cat500(seed=0, n=3000):
    """A 'product' of 500 codes in a Zipf tail; five mid-frequency codes (each in ~1% of rows)
    carry the risk, and two numbers a little."""
    rng = np.random.default_rng(seed)
    codes = np.array([f"SKU-{i:04d}" for i in rng.permutation(10000)[:500]])
    p = 1 / np.arange(1, 501) ** 1.1
    p /= p.sum()
    prod = rng.choice(500, n, p=p)
    hot = set(range(20, 25))  # ranks 21-25: each ~1% of rows
    x1, x2 = rng.normal(size=n).round(2), rng.uniform(0, 100, n).round(1)
    z = -1.6 + 3.0 * np.isin(prod, list(hot)) + 0.5 * x1 + 0.01 * (x2 - 50)
    X = pd.DataFrame({"product": codes[prod], "x1": x1, "x2": x2})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def dup_names(seed=0, n=2000):
    """Headers as a merged export writes them: 'age' and 'Age ' (the same values), two
    columns both headed 'bp' (systolic, then diastolic: pandas reads the second as 'bp.1'),
    'Weight' and 'weight' (kg and lb)."""
    rng = np.random.default_rng(seed)
    age = rng.normal(55, 14, n).round()
    sbp, dbp = rng.normal(130, 18, n).round(), rng.normal(80, 10, n).round()
    w = rng.normal(80, 14, n).round(1)
    z = -1.0 + 0.04 * (age - 55) + 0.04 * (sbp - 130) + 0.05 * (dbp - 80) + 0.03 * (w - 80)
    y = _yes(_sig(z), rng)
    head = "age,Age ,bp,bp,Weight,weight,outcome\n"
    body = "".join(f"{a:g},{a:g},{s:g},{d:g},{k:g},{k * 2.20462:.1f},{o}\n"
                   for a, s, d, k, o in zip(age, sbp, dbp, w, y))
    return _read(head + body, "yes")


def inf_ratio(seed=0, n=2000):
    """A ratio computed before export (a / b) where b is 0 on 4% of rows: 'inf', '-inf' and
    'nan' in the file (numpy's writing of x / 0); the risk rises with the ratio."""
    rng = np.random.default_rng(seed)
    a = rng.gamma(2, 1, n) * rng.choice([1, -1], n, p=[0.9, 0.1])
    b = np.where(rng.random(n) < 0.04, 0.0, rng.gamma(3, 1, n).round(1))
    b[(b == 0) & (rng.random(n) < 0.2)] = 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
    z = -1.0 + 1.2 * np.clip(np.nan_to_num(r, nan=0, posinf=3, neginf=-3), -3, 3) + 0.3 * rng.normal(size=n)
    X = pd.DataFrame({"ratio": np.round(r, 3), "a": a.round(2), "b": b, "site": rng.choice(["x", "y"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def int_codes(seed=0, n=2000):
    """A department written as a 3-digit code (40 codes between 101 and 990, read as integers);
    five codes scattered over the range carry the risk (no order in the codes)."""
    rng = np.random.default_rng(seed)
    codes = np.sort(rng.choice(np.arange(101, 991), 40, replace=False))
    dept = codes[rng.integers(0, 40, n)]
    hot = codes[[3, 11, 19, 27, 35]]
    x = rng.normal(size=n).round(2)
    z = -1.5 + 2.5 * np.isin(dept, hot) + 0.6 * x
    X = pd.DataFrame({"dept": dept, "x": x, "shift": rng.choice(["day", "night"], n)})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def int_codes_converted(seed=0, n=2000):
    """`int_codes` with the code read as text (dtype={'dept': str}), as a user who knows would."""
    X, y, pos = int_codes(seed, n)
    return X.assign(dept=X.dept.astype(str)), y, pos


def any_count(seed=0, n=2000):
    """Counts of 0 to ~100,000 with a long tail (a log of events), where only 'any' matters;
    55% zeros; beside a weak number."""
    rng = np.random.default_rng(seed)
    any_ = rng.random(n) < 0.45
    cnt = np.where(any_, np.minimum(np.ceil(np.exp(rng.normal(3, 2.5, n))), 100000), 0).astype(int)
    x = rng.normal(size=n).round(2)
    z = -1.2 + 1.8 * any_ + 0.4 * x
    X = pd.DataFrame({"events": cnt, "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def rare2_big(seed=0, n=50000):
    """50,000 rows, 2% positive: three numbers and two categories, risk in a corner."""
    rng = np.random.default_rng(seed)
    x1, x2, x3 = rng.normal(size=n).round(3), rng.exponential(1, n).round(3), rng.uniform(0, 1, n).round(3)
    c1, c2 = rng.choice(list("ABCDE"), n), rng.choice(["web", "shop", "phone"], n)
    z = -5.2 + 1.6 * (x1 > 1) + 1.2 * (x2 > 2) + 1.0 * (c1 == "E") + 0.8 * (c2 == "phone") + 0.5 * x3
    X = pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "c1": c1, "c2": c2})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def _sorted_view(X: pd.DataFrame, y: pd.Series):
    o = np.argsort(np.asarray(y, dtype=str), kind="stable")
    return X.iloc[o], y.iloc[o]


TRAIN_VIEW = {"sorted_rows": _sorted_view}

FAMILIES = {f.__name__: f for f in (sentinel, sentinel_converted, sorted_rows, after_date,
                                    after_date_converted, ratio_units, ratio_units_converted,
                                    ratio_units_height,
                                    near_id, parity3, cat500, dup_names, inf_ratio, int_codes,
                                    int_codes_converted, any_count, rare2_big)}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tables import write_csvs  # one home for the ad-hoc families' CSVs

    write_csvs(Path(sys.argv[1]), FAMILIES, TEXTS)
