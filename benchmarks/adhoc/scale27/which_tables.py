"""Which several-class tables of the adhoc families plx's default now fits as ordered levels
(`ordered.scale_order`: a known scale's words; scale27): each table's classes and the order read.

    PYTHONPATH=. python benchmarks/adhoc/scale27/which_tables.py
"""
from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ADHOC = os.path.dirname(HERE)
sys.path.insert(0, os.path.dirname(os.path.dirname(ADHOC)))
from plx_core.encoding import value_str  # noqa: E402
from plx_core.ordered import scale_order  # noqa: E402

FAMILIES = ("multi23/tables.py", "multi24/tables24.py", "multi25/tables25.py",
            "several26/tables26.py")


def load(rel: str):
    path = os.path.join(ADHOC, rel)
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


for rel in FAMILIES:
    tables = load(rel).TABLES
    for key, make in tables.items():
        got = make()
        y = got[1]
        classes = sorted({value_str(v) for v in np.asarray(y)})
        if len(classes) < 3:
            continue
        order = scale_order(classes)
        print(f"{rel.split('/')[0]:10s} {key:12s} {'LEVELS ' + ' < '.join(order) if order else 'one vs rest'}"
              f"  ({', '.join(classes[:8])})")
