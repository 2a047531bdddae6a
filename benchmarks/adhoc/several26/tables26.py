"""several26's new several-class tables (none of the change was built on them), joined to
multi23/24's (`tables.TABLES`) for multi23's runner (`race.py` here)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi24"))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi23"))
import tables  # noqa: E402
import tables24  # noqa: E402,F401  (its tables join multi23's)


def _softmax_draw(rng, logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1)


def gam5(seed=0, n=2000):
    """Five classes whose log-odds are sums of smooth shapes of four numbers (a wave, a bowl,
    a step softened, a slope) and a three-level category; classes drawn from those odds."""
    rng = np.random.default_rng(seed + 2601)
    x = rng.uniform(-3, 3, (n, 4))
    site = rng.choice(["north", "south", "east"], n)
    shapes = np.column_stack([np.sin(1.3 * x[:, 0]), x[:, 1] ** 2 / 3 - 1,
                              np.tanh(2 * (x[:, 2] - 0.5)), x[:, 3] / 2])
    coef = rng.normal(0, 1.6, (4, 5))
    cat = {"north": rng.normal(0, 0.6, 5), "south": rng.normal(0, 0.6, 5),
           "east": rng.normal(0, 0.6, 5)}
    logits = shapes @ coef + np.vstack([cat[s] for s in site])
    c = _softmax_draw(rng, logits)
    X = pd.DataFrame({"dose": x[:, 0].round(3), "temp": (20 + 4 * x[:, 1]).round(2),
                      "ph": (7 + x[:, 2] / 2).round(3), "hours": (12 + 3 * x[:, 3]).round(1),
                      "site": site})
    return X, pd.Series(np.array(["a", "b", "c", "d", "e"])[c]), None


def blobs7(seed=0, n=2100):
    """Seven species as clusters of unequal spread in five measurements (one log-normal), 8% of
    one measurement missing, a noise category."""
    rng = np.random.default_rng(seed + 2602)
    k = 7
    centres = rng.normal(0, 1.4, (k, 5))
    spread = rng.uniform(0.6, 1.3, k)
    c = rng.choice(k, n, p=np.array([3, 2, 2, 1.5, 1, 1, 0.8]) / 11.3)
    x = centres[c] + rng.normal(0, 1, (n, 5)) * spread[c, None]
    X = pd.DataFrame({"len": (50 + 8 * x[:, 0]).round(1), "width": (20 + 3 * x[:, 1]).round(1),
                      "mass": np.exp(3 + 0.4 * x[:, 2]).round(1),
                      "fin": np.where(rng.random(n) < 0.08, np.nan, (10 + 2 * x[:, 3]).round(2)),
                      "eye": (5 + x[:, 4]).round(2),
                      "pond": rng.choice(list("pqrs"), n)})
    return X, pd.Series(np.array([f"sp{i}" for i in range(k)])[c]), None


def crops6(seed=0, n=1800):
    """Six crops, each suited to its own band of temperature and of rain (bell-shaped
    suitability), a soil kind that favours two of them; drawn from the suitabilities."""
    rng = np.random.default_rng(seed + 2603)
    temp = rng.uniform(5, 35, n)
    rain = rng.uniform(200, 2000, n)
    soil = rng.choice(["clay", "sand", "loam"], n)
    t0 = np.array([10, 15, 20, 25, 30, 22])
    r0 = np.array([600, 1500, 900, 400, 1700, 1200])
    logits = (-((temp[:, None] - t0) / 5) ** 2 - ((rain[:, None] - r0) / 350) ** 2
              + 1.0 * ((soil == "clay")[:, None] & (np.arange(6) == 1))
              + 1.0 * ((soil == "sand")[:, None] & (np.arange(6) == 3)))
    c = _softmax_draw(rng, 2 * logits)
    X = pd.DataFrame({"temp_c": temp.round(1), "rain_mm": rain.round(), "soil": soil,
                      "slope": rng.uniform(0, 20, n).round(1)})
    names = np.array(["barley", "rice", "maize", "millet", "cane", "soy"])
    return X, pd.Series(names[c]), None


for f in (gam5, blobs7, crops6):
    tables.TABLES[f.__name__] = f
TABLES = tables.TABLES
