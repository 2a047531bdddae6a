"""plx's default (class_order="scale": a known scale's words fitted as ordered levels) against
one against the rest (class_order=None, the default before scale27) on several-class tables:
test macro F1 and fit CPU per split (stratified 70/30, random_state=0), and whether the default
answers as class_order="auto" does (the same steps).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/scale27/default_vs_flat.py TABLES SPLITS
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi25"))
import tables25  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

keys, splits = sys.argv[1].split(","), int(sys.argv[2])
for key in keys:
    X, y, _ = tables25.TABLES[key]()
    y = y.astype(str)
    got = {"default": [], "flat": []}
    for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, kw in (("default", {}), ("flat", {"class_order": None})):
                t0 = time.process_time()
                clf = PLXClassifier(random_state=s, **kw).fit(X.iloc[tr], y.iloc[tr])
                cpu = time.process_time() - t0
                pred = clf.predict(X.iloc[te])
                got[name].append((f1_score(y.iloc[te], pred, average="macro"), cpu))
                if name == "default" and clf.class_order_ is not None:
                    auto = PLXClassifier(random_state=s, class_order="auto").fit(X.iloc[tr], y.iloc[tr])
                    assert (auto.predict(X.iloc[te]) == pred).all(), (key, s)
        print(key, s, {k: f"{v[-1][0]:.3f} ({v[-1][1]:.1f} s)" for k, v in got.items()}, flush=True)
    d, f = np.array(got["default"]), np.array(got["flat"])
    print(f"{key}: default {d[:, 0].mean():.3f} ± {d[:, 0].std():.3f} (CPU {d[:, 1].mean():.1f} s) | "
          f"one vs rest {f[:, 0].mean():.3f} ± {f[:, 0].std():.3f} (CPU {f[:, 1].mean():.1f} s) | "
          f"better on {(d[:, 0] > f[:, 0]).sum()}/{len(d)}", flush=True)
