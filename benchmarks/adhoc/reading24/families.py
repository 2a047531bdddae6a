"""Seeded tables of how columns are written, none of rounds 1–5's kinds (session 24, reading24).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class); the
helpers are unseen23's (`_read`, which keeps each file's text) and the CSV writer
`benchmarks/adhoc/tables.write_csvs`. `python families.py DIR`
writes every family's CSV to DIR (for `plx fit` / `predict` / `explain`).
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


def visits(seed=0, n=2000):
    """Long format: 450 patients seen 1–8 times each (a 6-digit patient number, sex and birth
    year the same on every visit), each visit's label from its own HbA1c and blood pressure
    and the patient's unmeasured frailty; the number itself carries nothing."""
    rng = np.random.default_rng(seed)
    k = 450
    per = rng.integers(1, 9, k)
    per = np.maximum(1, np.round(per * n / per.sum()).astype(int))
    pat = np.repeat(np.arange(k), per)[:n]
    n = len(pat)
    pid = rng.choice(np.arange(100000, 999999), k, replace=False)[pat]
    sex = rng.choice(["F", "M"], k)[pat]
    born = rng.integers(1940, 2000, k)[pat]
    frail = rng.normal(0, 0.8, k)[pat]
    visit = np.concatenate([np.arange(1, c + 1) for c in np.bincount(pat)])
    hba1c = rng.normal(6.5, 1.2, n).round(1)
    sbp = rng.normal(135, 18, n).round()
    z = -1.0 + 0.9 * (hba1c - 6.5) + 0.03 * (sbp - 135) + frail + 0.3 * (sex == "M")
    X = pd.DataFrame({"patient_no": pid, "visit_no": visit, "sex": sex, "birth_year": born,
                      "hba1c": hba1c, "sbp": sbp})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def tz_stamps(seed=0, n=2000):
    """ISO timestamps with their sites' UTC offsets ('2024-03-01T22:15:00+01:00' and
    '…-05:00'): the risk is at local night (22:00–06:00), which the offsets shift in UTC."""
    rng = np.random.default_rng(seed)
    site = rng.choice(["berlin", "boston"], n)
    local = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), unit="min")
    off = np.where(site == "berlin", "+01:00", "-05:00")
    stamp = [f"{t:%Y-%m-%dT%H:%M:00}{o}" for t, o in zip(local, off)]
    night = (local.hour >= 22) | (local.hour < 6)
    x = rng.normal(size=n).round(2)
    z = -1.5 + 2.0 * night + 0.7 * x
    X = pd.DataFrame({"admitted_at": stamp, "site": site, "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def yes_no_unknown(seed=0, n=2000):
    """A smoking question answered Yes / No / Unknown (Unknown 15%, of higher risk: a patient
    too ill to answer) and left blank on 5%; two more Yes / No / Unknown columns."""
    rng = np.random.default_rng(seed)
    smoke = rng.choice(["Yes", "No", "Unknown", None], n, p=[0.25, 0.55, 0.15, 0.05])
    fam = rng.choice(["Yes", "No", "Unknown"], n, p=[0.3, 0.6, 0.1])
    alc = rng.choice(["Yes", "No", "Unknown"], n, p=[0.4, 0.5, 0.1])
    age = rng.normal(55, 12, n).round()
    z = -1.6 + 0.8 * (smoke == "Yes") + 1.8 * (smoke == "Unknown") + 0.6 * (fam == "Yes") \
        + 0.03 * (age - 55)
    X = pd.DataFrame({"smoker": smoke, "family_history": fam, "alcohol": alc, "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def header_units(seed=0, n=2000):
    """Units in the headers ('Weight (kg)', 'Height [cm]', 'Temp (°F)', 'HbA1c, %') over plain
    numbers, and one column that writes its unit in the cells too ('Dose (mg)': '50 mg')."""
    rng = np.random.default_rng(seed)
    h = rng.normal(170, 10, n).round()
    w = (rng.normal(26, 5, n) * (h / 100) ** 2).round(1)
    t = rng.normal(98.6, 1.2, n).round(1)
    a1c = rng.normal(6, 1, n).round(1)
    dose = rng.choice([25, 50, 100, 200], n)
    bmi = w / (h / 100) ** 2
    z = -1.2 + 0.15 * (bmi - 26) + 0.8 * (t > 100) + 0.5 * (a1c - 6) + 0.6 * (dose >= 100)
    X = pd.DataFrame({"Weight (kg)": w, "Height [cm]": h, "Temp (°F)": t, "HbA1c, %": a1c,
                      "Dose (mg)": [f"{d} mg" for d in dose]})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def padded_codes(seed=0, n=2000):
    """Codes written with leading zeros: a 5-digit postcode (200 in a Zipf tail, a share
    starting with 0) and a 2-digit region '01' … '20', five scattered regions carry the risk."""
    rng = np.random.default_rng(seed)
    zips = np.array([f"{z:05d}" for z in rng.choice(np.arange(1000, 99999), 200, replace=False)])
    p = 1 / np.arange(1, 201) ** 1.1
    zipc = zips[rng.choice(200, n, p=p / p.sum())]
    region = np.array([f"{r:02d}" for r in rng.integers(1, 21, n)])
    x = rng.normal(size=n).round(2)
    z = -1.5 + 2.2 * np.isin(region, ["02", "07", "11", "16", "19"]) + 0.6 * x
    X = pd.DataFrame({"postcode": zipc, "region": region, "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes", dtype={"postcode": str, "region": str})


def age_bands(seed=0, n=2000):
    """Ages and incomes as bands of text ('18-24' … '65+', '<20k' … '>100k'): ordered ranges,
    the risk rising with both."""
    rng = np.random.default_rng(seed)
    bands = ["18-24", "25-34", "35-44", "45-54", "55-64", "65+"]
    inc = ["<20k", "20k-50k", "50k-100k", ">100k"]
    a, i = rng.integers(0, 6, n), rng.integers(0, 4, n)
    x = rng.normal(size=n).round(2)
    z = -2.0 + 0.5 * a - 0.4 * i + 0.5 * x
    X = pd.DataFrame({"age_band": np.array(bands)[a], "income": np.array(inc)[i], "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def signed_changes(seed=0, n=2000):
    """Changes written with their sign: a weight change '+5.2%' / '-3.1%' (a loss beyond 5% is
    the risk) and a score change '+3' / '-2' / '0'."""
    rng = np.random.default_rng(seed)
    wc = rng.normal(0, 4, n).round(1)
    sc = rng.integers(-6, 7, n)
    z = -1.3 + 2.0 * (wc < -5) + 0.2 * sc
    X = pd.DataFrame({"weight_change": [f"{v:+.1f}%" for v in wc],
                      "score_change": [f"{v:+d}" if v else "0" for v in sc]})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def duration_words(seed=0, n=2000):
    """Time since the last visit in words ('3 days', '2 weeks', '5 months', '1 year'): more
    than six months is the risk."""
    rng = np.random.default_rng(seed)
    days = np.exp(rng.uniform(0, np.log(900), n))
    unit = np.select([days < 14, days < 60, days < 365], ["day", "week", "month"], "year")
    num = np.select([unit == "day", unit == "week", unit == "month"],
                    [days, days / 7, days / 30.4], days / 365).round().astype(int).clip(1)
    said = [f"{k} {u}{'s' if k > 1 else ''}" for k, u in zip(num, unit)]
    x = rng.normal(size=n).round(2)
    z = -1.4 + 1.8 * (days > 182) + 0.5 * x
    X = pd.DataFrame({"since_last_visit": said, "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def duration_words_converted(seed=0, n=2000):
    """`duration_words` converted as the estimator's note says (pd.to_timedelta of
    `column_numbers(s, 'duration')` minutes)."""
    from plx_core.data import column_numbers

    X, y, pos = duration_words(seed, n)
    return X.assign(since_last_visit=pd.to_timedelta(
        column_numbers(X.since_last_visit, "duration"), unit="min")), y, pos


def drift_id(seed=0, n=2000):
    """A record number in the order the records came (100001 …), the risk drifting up over
    them (twice the base rate at the end): the number carries signal by accident of time."""
    rng = np.random.default_rng(seed)
    rec = np.arange(100001, 100001 + n)
    a, b = rng.normal(size=n).round(2), rng.normal(size=n).round(2)
    z = -1.6 + 1.2 * np.arange(n) / n + 0.8 * a + 0.5 * b
    X = pd.DataFrame({"record_id": rec, "a": a, "b": b})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def flag_spellings(seed=0, n=2000):
    """Two systems merged: a diabetes flag written Y / N on one, TRUE / FALSE on the other,
    1 / 0 on a third; an insulin flag yes / no / blank."""
    rng = np.random.default_rng(seed)
    dia = rng.random(n) < 0.3
    sys_ = rng.choice(3, n)
    written = np.where(sys_ == 0, np.where(dia, "Y", "N"),
                       np.where(sys_ == 1, np.where(dia, "TRUE", "FALSE"), np.where(dia, "1", "0")))
    ins = np.where(dia & (rng.random(n) < 0.4), "yes", np.where(rng.random(n) < 0.1, "", "no"))
    x = rng.normal(size=n).round(2)
    z = -1.5 + 1.5 * dia + 0.8 * (ins == "yes") + 0.5 * x
    X = pd.DataFrame({"diabetic": written, "insulin": ins, "x": x})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


FAMILIES = {f.__name__: f for f in (visits, tz_stamps, yes_no_unknown, header_units,
                                    padded_codes, age_bands, signed_changes, duration_words,
                                    duration_words_converted,
                                    drift_id, flag_spellings)}

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tables import write_csvs  # one home for the ad-hoc families' CSVs

    write_csvs(Path(sys.argv[1]), FAMILIES, U.TEXTS)
