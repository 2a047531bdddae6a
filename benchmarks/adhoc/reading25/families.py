"""Seeded tables of how columns are written, none of rounds 1–6's kinds (session 25, reading25).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class); the
helpers are unseen23's (`_read`, which keeps each file's text) and the CSV writer
`benchmarks/adhoc/tables.write_csvs`. `python families.py DIR` writes every family's CSV to DIR
(for `plx fit` / `predict` / `explain`).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd

_spec = importlib.util.spec_from_file_location(
    "unseen23_families", Path(__file__).parent.parent / "unseen23" / "families.py")
U = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(U)
_sig, _yes, _csv = U._sig, U._yes, U._csv
_read = U._read  # records the file as written under the calling family's name


def bp_pairs(seed=0, n=2000):
    """Blood pressure written as one cell '128/84' (systolic/diastolic), the risk rising with
    the systolic; a pulse and an age beside it."""
    rng = np.random.default_rng(seed)
    sbp = rng.normal(132, 20, n).round().astype(int)
    dbp = (0.5 * sbp + rng.normal(15, 8, n)).round().astype(int)
    pulse = rng.normal(78, 12, n).round()
    age = rng.normal(60, 12, n).round()
    z = -1.2 + 0.06 * (sbp - 132) + 0.03 * (age - 60)
    X = pd.DataFrame({"bp": [f"{s}/{d}" for s, d in zip(sbp, dbp)], "pulse": pulse, "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def cell_ranges(seed=0, n=2000):
    """A urine sediment count reported as a range per field ('0-2', '3-5', '6-10', '11-20',
    '>20', '<1'): ordered ranges of uneven width, the risk rising through them."""
    rng = np.random.default_rng(seed)
    bands = ["<1", "0-2", "3-5", "6-10", "11-20", ">20"]
    k = rng.choice(6, n, p=[0.15, 0.3, 0.2, 0.15, 0.12, 0.08])
    crp = np.exp(rng.normal(1.5, 1.0, n)).round(1)
    z = -2.2 + 0.55 * k + 0.3 * np.log(crp)
    X = pd.DataFrame({"wbc_hpf": np.array(bands)[k], "crp": crp})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def stage_words(seed=0, n=2000):
    """A tumour stage in Roman numerals ('Stage I' … 'Stage IV', some 'IIIa'/'IIIb') and a grade
    'low' / 'intermediate' / 'high': ordered words, the risk rising with both."""
    rng = np.random.default_rng(seed)
    st = rng.choice(4, n, p=[0.3, 0.3, 0.25, 0.15])
    stage = np.array(["Stage I", "Stage II", "Stage III", "Stage IV"], dtype=object)[st]
    sub = rng.random(n) < 0.5
    stage[(st == 2) & sub] = "Stage IIIb"
    stage[(st == 2) & ~sub & (rng.random(n) < 0.5)] = "Stage IIIa"
    gr = rng.choice(3, n, p=[0.4, 0.35, 0.25])
    grade = np.array(["low", "intermediate", "high"])[gr]
    age = rng.normal(62, 11, n).round()
    z = -2.3 + 0.8 * st + 0.6 * gr + 0.02 * (age - 62)
    X = pd.DataFrame({"stage": stage, "grade": grade, "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def age_ym(seed=0, n=2000):
    """Children's ages written '5y 3m', '11m', '2y' (years and months), the risk highest under
    two years; a weight-for-age z-score beside it."""
    rng = np.random.default_rng(seed)
    months = rng.integers(1, 16 * 12, n)
    y_, m_ = months // 12, months % 12
    text = np.where(y_ == 0, [f"{m}m" for m in m_],
                    np.where(m_ == 0, [f"{y}y" for y in y_], [f"{y}y {m}m" for y, m in zip(y_, m_)]))
    waz = rng.normal(0, 1, n).round(2)
    z = -1.6 + 2.0 * (months < 24) - 0.6 * waz
    X = pd.DataFrame({"age": text, "waz": waz})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def checkmarks(seed=0, n=2000):
    """A form's ticks exported as '✓' / '✗' (and a third column ticked '✔' or left blank: blank
    means not ticked), the risk with the ticks."""
    rng = np.random.default_rng(seed)
    a, b, c = rng.random(n) < 0.3, rng.random(n) < 0.4, rng.random(n) < 0.25
    x = rng.normal(size=n).round(2)
    z = -1.7 + 1.4 * a + 0.8 * b + 1.2 * c + 0.5 * x
    X = pd.DataFrame({"fever": np.where(a, "✓", "✗"), "cough": np.where(b, "✓", "✗"),
                      "rash": np.where(c, "✔", ""), "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def comorbid_lists(seed=0, n=2000):
    """Comorbidities as one cell listing them 'diabetes;copd' (in any order, blank for none):
    diabetes and heart failure carry the risk, whatever else is listed."""
    rng = np.random.default_rng(seed)
    names = ["diabetes", "copd", "ckd", "hf", "asthma", "cancer"]
    has = rng.random((n, 6)) < np.array([0.25, 0.15, 0.12, 0.1, 0.12, 0.08])
    cells = []
    for row in has:
        items = [nm for nm, h in zip(names, row) if h]
        rng.shuffle(items)
        cells.append(";".join(items))
    age = rng.normal(65, 12, n).round()
    z = -1.8 + 1.3 * has[:, 0] + 1.6 * has[:, 3] + 0.03 * (age - 65)
    X = pd.DataFrame({"comorbidities": cells, "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def night_shift(seed=0, n=2000):
    """Plain admission stamps '2024-03-01 23:15' (no offset) over a year: the risk at night
    (22:00–06:00, a thin night team), none by date; a severity score beside it."""
    rng = np.random.default_rng(seed)
    t = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), unit="min")
    night = (t.hour >= 22) | (t.hour < 6)
    score = rng.normal(size=n).round(2)
    z = -1.6 + 1.8 * night + 0.7 * score
    X = pd.DataFrame({"admitted": [f"{s:%Y-%m-%d %H:%M}" for s in t], "score": score})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def likert(seed=0, n=2000):
    """Survey answers 'Strongly disagree' … 'Strongly agree' (five ordered words) to two
    questions, the risk rising along the first; blanks 4%."""
    rng = np.random.default_rng(seed)
    words = np.array(["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"],
                     dtype=object)
    q1, q2 = rng.integers(0, 5, n), rng.integers(0, 5, n)
    a1, a2 = words[q1].copy(), words[q2].copy()
    a1[rng.random(n) < 0.04] = None
    z = -2.0 + 0.7 * q1 - 0.2 * q2
    X = pd.DataFrame({"pain_limits_me": a1, "sleep_well": a2})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def dose_freq(seed=0, n=2000):
    """A prescription written '500 mg BID' (a dose with its unit and a frequency): the daily
    amount carries the risk; a plain creatinine beside it."""
    rng = np.random.default_rng(seed)
    dose = rng.choice([250, 500, 750, 1000], n)
    freq = rng.choice(["OD", "BID", "TID"], n)
    per = {"OD": 1, "BID": 2, "TID": 3}
    daily = dose * np.vectorize(per.get)(freq)
    creat = np.exp(rng.normal(0, 0.3, n)).round(2)
    z = -1.5 + 0.0012 * (daily - 1200) + 1.5 * (creat - 1)
    X = pd.DataFrame({"metformin": [f"{d} mg {f}" for d, f in zip(dose, freq)], "creatinine": creat})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def night_shift_converted(seed=0, n=2000):
    """night_shift as the note says: the stamps as dates and their hour as a column of its own
    (what `plx fit --date-parts hour` / `PLXClassifier(date_parts="hour")` derive)."""
    X, y, pos = night_shift(seed, n)
    at = pd.to_datetime(X["admitted"])
    return X.assign(admitted=at, **{"admitted hour": at.dt.strftime("%H:00-%H:59")}), y, pos


def age_ym_converted(seed=0, n=2000):
    """age_ym as the estimator's note says: pd.to_timedelta(column_numbers(s, 'duration'))."""
    from plx_core.data import column_numbers

    X, y, pos = age_ym(seed, n)
    return X.assign(age=pd.to_timedelta(column_numbers(X["age"], "duration"), unit="min")), y, pos


def comorbid_lists_converted(seed=0, n=2000):
    """comorbid_lists as the note says: each item a yes/no column (s.str.get_dummies(sep=';'))."""
    X, y, pos = comorbid_lists(seed, n)
    items = X["comorbidities"].str.get_dummies(sep=";").replace({1: "yes", 0: "no"})
    return pd.concat([X.drop(columns="comorbidities"), items], axis=1), y, pos


def bp_pairs_converted(seed=0, n=2000):
    """bp_pairs as the note says: '128/84' written as two columns of numbers."""
    X, y, pos = bp_pairs(seed, n)
    two = X["bp"].str.split("/", expand=True).astype(float)
    return X.drop(columns="bp").assign(sbp=two[0], dbp=two[1]), y, pos


FAMILIES = {f.__name__: f for f in (bp_pairs, cell_ranges, stage_words, age_ym, checkmarks,
                                    comorbid_lists, night_shift, likert, dose_freq,
                                    night_shift_converted, age_ym_converted,
                                    comorbid_lists_converted, bp_pairs_converted)}

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tables import write_csvs  # one home for the ad-hoc families' CSVs

    write_csvs(Path(sys.argv[1]), FAMILIES, U.TEXTS)
