"""The several-class screen's numbers without the race (multi24): per table and split the
default fit's first search, its out-of-fold macro F1 (`selection.chosen_macro`) and the screen
trees (`class_tree_f1`) on the grid, on MDLP's cut points and on MDLP's finer ones at each
`FINE_CLASS_BINS` in BINS — the race itself not run (cheap: what the screen would decide).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi24/screen_probe.py TABLES SPLITS BINS OUT.csv
"""
from __future__ import annotations

import os
import sys
import warnings

import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables24  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

SEEN: list = []
_reading = S.class_reading


def _spy(grid, fine, mdlp, ours=None):
    SEEN.append((grid, fine, mdlp, ours))
    return _reading(grid, fine, mdlp, ours)


S.class_reading = _spy
_orig = PLXClassifier._class_reading


def _readings(self, frame, labels, raw):
    for b in BINS:
        S.FINE_CLASS_BINS = b
        _orig(self, frame, labels, raw)
    return None  # the race not run


PLXClassifier._class_reading = _readings
PLXClassifier._race_grid_classes = lambda self, *a, **k: None
BINS: list = []


def main(keys, splits, out):
    rows = []
    for key in keys:
        X, y, _ = tables24.TABLES[key]()
        y = y.astype(str)
        for s, (tr, _te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            SEEN.clear()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                PLXClassifier(random_state=s).fit(X.iloc[tr], y.iloc[tr])
            rec = {"table": key, "split": s}
            for b, (g, f, m, o) in zip(BINS, SEEN):
                rec.update({"grid": g, "mdlp": m, "ours": o, f"fine{b}": f})
            rows.append(rec)
            print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rec.items()}, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    BINS[:] = [int(b) for b in sys.argv[3].split(",")]
    main(sys.argv[1].split(","), int(sys.argv[2]), sys.argv[4])
