"""multi24's tables: multi23's (`tables.TABLES`) plus two new several-class tables none of
multi24's changes was built on."""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi23"))
import tables  # noqa: E402


def soils6(seed=0, n=1800):
    """Six soil types as overlapping clusters in pH, clay and organic matter (three numbers), a
    region that shifts two of them, a noise number; organic matter missing in 10% of rows."""
    rng = np.random.default_rng(seed + 707)
    kinds = np.array(["sand", "loam", "clay", "peat", "chalk", "silt"])
    c = rng.choice(6, n, p=[0.2, 0.25, 0.15, 0.1, 0.1, 0.2])
    ph = rng.normal(np.array([6.0, 6.5, 7.0, 4.5, 8.0, 6.8])[c], 0.5)
    clay = rng.normal(np.array([8, 20, 45, 15, 25, 18])[c], 5.0)
    om = np.exp(rng.normal(np.log(np.array([1.0, 3.0, 2.5, 20.0, 2.0, 2.2]))[c], 0.35))
    region = rng.choice(["upland", "valley"], n)
    clay = clay + np.where((region == "valley") & (c == 5), 6.0, 0.0)
    X = pd.DataFrame({"ph": ph.round(2), "clay_pct": clay.round(1),
                      "organic_pct": np.where(rng.random(n) < 0.1, np.nan, om.round(2)),
                      "depth_cm": rng.uniform(5, 60, n).round(), "region": region})
    return X, pd.Series(kinds[c]), None


def tariff8(seed=0, n=2000):
    """Eight tariff bands: a yearly use in kWh cut into four bands whose cut points differ for
    homes and businesses (so eight classes), the use read with 3% noise, a noise number and a
    meter kind; 4% of labels flipped."""
    rng = np.random.default_rng(seed + 808)
    kind = rng.choice(["home", "business"], n, p=[0.6, 0.4])
    use = np.exp(rng.normal(np.where(kind == "home", 8.0, 9.2), 0.8))
    cuts = np.where(kind == "home", 1, 0)
    band = np.where(cuts == 1, np.digitize(use, [1800, 3500, 6000]),
                    np.digitize(use, [6000, 12000, 25000]))
    lab = np.char.add(np.where(kind == "home", "H", "B"), band.astype(str))
    flip = rng.random(n) < 0.04
    lab[flip] = rng.choice(np.unique(lab), flip.sum())
    X = pd.DataFrame({"kwh": (use * rng.normal(1, 0.03, n)).round(), "kind": kind,
                      "meter": rng.choice(["smart", "dumb"], n),
                      "floor_m2": rng.normal(120, 40, n).round()})
    return X, pd.Series(lab), None


def steps4(seed=0, n=1200):
    """Four grades set by a dial's fine steps (bands 6 units wide cycling through the four over
    0–96), a second number that shifts the grade by one where it is low, a category; 5% of
    labels flipped (four classes: the grid races unscreened, the finer cut points never did)."""
    rng = np.random.default_rng(seed + 909)
    d, v = rng.uniform(0, 96, n), rng.normal(20, 4, n)
    g = (np.floor(d / 6).astype(int) + (v < 15)) % 4
    flip = rng.random(n) < 0.05
    g[flip] = rng.integers(0, 4, flip.sum())
    X = pd.DataFrame({"dial": d.round(2), "voltage": v.round(1),
                      "line": rng.choice(["l1", "l2", "l3"], n)})
    return X, pd.Series(np.array(["I", "II", "III", "IV"])[g]), None


TABLES = dict(tables.TABLES, soils6=soils6, tariff8=tariff8, steps4=steps4)
tables.TABLES.update(soils6=soils6, tariff8=tariff8, steps4=steps4)  # for multi23's runners


def _whole22(name: str):
    """A table function of whole22's runner (`grid_classes.py`, which runs on import): its
    source alone."""
    import ast
    path = os.path.join(HERE, os.pardir, "whole22", "grid_classes.py")
    tree = ast.parse(open(path).read())
    space = {"np": np, "pd": pd}
    exec(compile(ast.Module([n for n in tree.body if isinstance(n, ast.FunctionDef)
                             and n.name == name], []), path, "exec"), space)
    return space[name]


TABLES["ratio3"] = tables.TABLES["ratio3"] = _whole22("ratio3")  # three debt-to-income tiers
