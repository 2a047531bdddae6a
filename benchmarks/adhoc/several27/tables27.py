"""Every several-class table of benchmarks/adhoc/multi2*/ and several26/ in one dict
(`TABLES`: multi23's, multi24's, multi25's, several26's), and the split the runners use."""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
for d in ("multi23", "multi24", "multi25", "several26"):
    sys.path.insert(0, os.path.join(HERE, os.pardir, d))
import tables  # noqa: E402
import tables25  # noqa: E402
import tables26  # noqa: E402,F401  (its tables join multi23's)

TABLES = dict(tables.TABLES, **tables25.TABLES)


def splits(y, n: int):
    """The runners' stratified 70/30 splits (`random_state=0`); plain ones where a class has
    one row (label_typo)."""
    y = np.asarray(y)
    rare = np.unique(y, return_counts=True)[1].min() < 2
    cls = ShuffleSplit if rare else StratifiedShuffleSplit
    return list(cls(n, test_size=0.3, random_state=0).split(np.zeros(len(y)), y))


def shift4(seed=0, n=1600):
    """A machine's mode (4) from its speed's 8 bands (10 rpm each, the modes cycling over
    them), a load reading above ~its 88th percentile moving each band's mode two along —
    the load alone tells nothing (every mode as often above as below); two readings of noise
    and a line; 5% of labels drawn at random. (several27: built after the change, not tuned.)"""
    rng = np.random.default_rng(seed + 2701)
    speed, load = rng.uniform(0, 80, n), rng.gamma(4.0, 10.0, n)
    mode = (np.floor(speed / 10).astype(int) + 2 * (load > 64)) % 4
    flip = rng.random(n) < 0.05
    mode[flip] = rng.integers(0, 4, flip.sum())
    X = pd.DataFrame({"speed_rpm": speed.round(1), "load": load.round(1),
                      "vibration": rng.normal(3, 1, n).round(2),
                      "temp_c": rng.normal(60, 8, n).round(1),
                      "line": rng.choice(["L1", "L2", "L3"], n)})
    names = np.array(["idle", "cruise", "boost", "brake"])
    return X, pd.Series(names[mode]), None


def mirror5(seed=0, n=1500):
    """Five soil classes by depth bands (20 cm each), read in the opposite order on slopes
    steeper than 25° (the slope alone tells little: the bands are as common either way); a
    rainfall of noise and a rock kind; 6% of labels drawn at random, 5% of slopes missing.
    (several27: built after the change, not tuned.)"""
    rng = np.random.default_rng(seed + 2702)
    depth, slope = rng.uniform(0, 100, n), rng.uniform(0, 40, n)
    band = np.minimum(np.floor(depth / 20).astype(int), 4)
    cls = np.where(slope > 25, 4 - band, band)
    flip = rng.random(n) < 0.06
    cls[flip] = rng.integers(0, 5, flip.sum())
    slope = np.where(rng.random(n) < 0.05, np.nan, slope.round(1))
    X = pd.DataFrame({"depth_cm": depth.round(1), "slope_deg": slope,
                      "rain_mm": rng.gamma(3, 200, n).round(0),
                      "rock": rng.choice(["granite", "basalt", "chalk", "clay"], n)})
    names = np.array(["I", "II", "III", "IV", "V"])
    return X, pd.Series(names[cls]), None


def dose6(seed=0, n=1800):
    """Six response groups from a dose's six bands, an age above 70 (about 1 in 8 rows)
    moving each band's group three along (older patients respond as to a dose three bands
    away, cycling); a weight and a site; 5% of labels drawn at random. (several27: built
    after the change, not tuned.)"""
    rng = np.random.default_rng(seed + 2703)
    dose, age = rng.uniform(0, 60, n), rng.normal(55, 12, n)
    grp = (np.floor(dose / 10).astype(int) + 3 * (age > 70)) % 6
    flip = rng.random(n) < 0.05
    grp[flip] = rng.integers(0, 6, flip.sum())
    X = pd.DataFrame({"dose_mg": dose.round(2), "age": age.round(0),
                      "weight_kg": rng.normal(75, 14, n).round(1),
                      "site": rng.choice(["A", "B", "C", "D", "E"], n)})
    names = np.array([f"g{i}" for i in range(6)])
    return X, pd.Series(names[grp]), None


NEW = {"shift4": shift4, "mirror5": mirror5, "dose6": dose6}
TABLES.update(NEW)
