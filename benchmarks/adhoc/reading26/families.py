"""Seeded tables of how columns are written, round 8 (session 26, reading26): stamps with AM/PM
a child's age written by two clinics ('18m' beside '1y 6m'), and lab values written as
approximate ('~48.5').

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class); the
helpers are unseen23's (`_read`, which keeps each file's text). `python families.py DIR` writes
every family's CSV to DIR (for `plx fit` / `predict` / `explain`; `cli_run.py` runs them so).
The `_converted` families read with this worktree's `plx_core` (PYTHONPATH): main's before
reading26 reads no AM/PM stamp and no 'duration:months'.
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
TEXTS = U.TEXTS


def _stamps(rng, n):
    """Stamps over 2024 at any minute of the day, as pandas Timestamps."""
    return pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366 * 1440, n), unit="min")


def ampm_night(seed=0, n=2000):
    """Admission stamps written the US way with AM/PM ('3/14/2024 2:05 PM'), the risk at
    night (22:00-06:00); an age beside them. plx fit --date-parts hour."""
    rng = np.random.default_rng(seed)
    t = _stamps(rng, n)
    night = (t.hour >= 22) | (t.hour < 6)
    age = rng.normal(60, 12, n).round()
    z = -1.6 + 1.8 * night + 0.03 * (age - 60)
    text = [f"{v.month}/{v.day}/{v.year} {v.strftime('%I:%M %p').lstrip('0')}" for v in t]
    X = pd.DataFrame({"admitted": text, "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def ampm_trend(seed=0, n=2000):
    """Stamps written '14-Mar-2024 02:05pm' (month names, AM/PM without a space, lower case),
    the risk higher after a change of practice on 2024-07-01; a lab value beside them."""
    rng = np.random.default_rng(seed)
    t = _stamps(rng, n)
    later = t >= pd.Timestamp("2024-07-01")
    lab = np.exp(rng.normal(1.0, 0.6, n)).round(2)
    z = -1.5 + 1.5 * later + 0.5 * np.log(lab)
    text = [v.strftime("%d-%b-%Y %I:%M") + v.strftime("%p").lower() for v in t]
    X = pd.DataFrame({"seen": text, "lab": lab})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def age_clinics(seed=0, n=2000):
    """Children's ages from two clinics: one writes months under two years ('18m'), the other
    years and months ('1y 6m'); the risk highest under 18 months, a weight-for-age z beside."""
    rng = np.random.default_rng(seed)
    months = rng.integers(1, 10 * 12, n)
    y_, m_ = months // 12, months % 12
    a = rng.random(n) < 0.5
    text = [f"{k}m" if (c and k < 24) or yy == 0 else f"{yy}y {mm}m" if mm else f"{yy}y"
            for k, yy, mm, c in zip(months, y_, m_, a)]
    waz = rng.normal(0, 1, n).round(2)
    z = -1.6 + 2.0 * (months < 18) - 0.6 * waz
    X = pd.DataFrame({"age": text, "waz": waz})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def approx_labs(seed=0, n=2000):
    """A lab value where one ward writes its estimates as approximate ('~48.5', 'ca. 120',
    15% of the cells), the risk rising with it; a second lab beside it."""
    rng = np.random.default_rng(seed)
    crp = np.exp(rng.normal(3.5, 0.8, n)).round(1)
    alb = rng.normal(38, 5, n).round(1)
    z = -1.3 + 1.1 * (np.log(crp) - 3.5) - 0.05 * (alb - 38)
    mark = rng.choice(["", "~", "ca. "], n, p=[0.85, 0.1, 0.05])
    X = pd.DataFrame({"crp": [f"{m}{v}" for m, v in zip(mark, crp)], "albumin": alb})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def _as_read(family, column, fmt, seed, n, part=None):
    """`family`'s table with `column` as plx fit now reads it (`fmt`), as a user's file would
    hold it once converted as the note says: its hour ("22:00-22:59") or its months."""
    from plx_core.data import column_numbers, date_part

    X, y, pos = family(seed, n)
    x = column_numbers(X[column], fmt)
    X = (X.assign(**{f"{column} hour": date_part(x, "hour")}).drop(columns=column) if part
         else X.assign(**{column: (x / 1440 / (365.25 / 12)).round(2)}))
    return X, y, pos


def ampm_night_converted(seed=0, n=2000):
    """ampm_night with the stamps' hour as a column of its own (--date-parts hour's), the
    stamps themselves left out (free text to every method as written)."""
    return _as_read(ampm_night, "admitted", "date:%m/%d/%Y %I:%M %p", seed, n, part="hour")


def age_clinics_converted(seed=0, n=2000):
    """age_clinics with the age in months, every m read as months ('duration:months')."""
    return _as_read(age_clinics, "age", "duration:months", seed, n)


def approx_labs_converted(seed=0, n=2000):
    """approx_labs with the crp as the numbers plx fit now reads (column_numbers)."""
    from plx_core.data import column_numbers

    X, y, pos = approx_labs(seed, n)
    return X.assign(crp=column_numbers(X["crp"])), y, pos


FAMILIES = {"ampm_night": ampm_night, "ampm_trend": ampm_trend, "age_clinics": age_clinics,
            "ampm_night_converted": ampm_night_converted,
            "age_clinics_converted": age_clinics_converted, "approx_labs": approx_labs,
            "approx_labs_converted": approx_labs_converted}
CLI_FLAGS = {"ampm_night": ["--date-parts", "hour"]}
"""plx fit's options per family, as its note tells a user to give them."""

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from tables import write_csvs

    for f in FAMILIES.values():
        f()
    write_csvs(Path(sys.argv[1]), FAMILIES, TEXTS)
