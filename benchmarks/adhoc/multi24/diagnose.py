"""Why several-class tables trail EBM/CART (multi24): per table and split, per-class recall,
precision and predicted counts of the default `PLXClassifier`, CART and EBM on the same rows,
and the confusion matrices (stratified 70/30 splits, `random_state=0`).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi24/diagnose.py TABLES SPLITS
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np
from sklearn.metrics import confusion_matrix, f1_score, precision_recall_fscore_support
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi23"))
import tables  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402


def main(keys, splits):
    for key in keys:
        X, y, _ = tables.TABLES[key]()
        y = y.astype(str)
        classes = np.unique(y)
        yb = np.searchsorted(classes, y.to_numpy())
        cv = StratifiedShuffleSplit(splits, test_size=0.3, random_state=0)
        for s, (tr, te) in enumerate(cv.split(X, y)):
            preds = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf = PLXClassifier(random_state=s).fit(X.iloc[tr], y.iloc[tr])
                preds["plx"] = np.searchsorted(classes, clf.predict(X.iloc[te]).astype(str))
                for m in ("CART", "EBM"):
                    model = make(m, s, X.shape[1])
                    if m == "CART":
                        model.model.set_params(scoring="f1_macro")
                    model.fit(X.iloc[tr], yb[tr])
                    preds[m] = np.asarray(model.predict(X.iloc[te])).astype(int)
            print(f"== {key} split {s}: classes {list(classes)}; plx chosen {clf.chosen_}")
            print("   reason:", clf.chosen_reason_[:600])
            fams = [getattr(c, "chosen", None) for c in getattr(clf, "class_selection_", []) or []]
            print("   class families:", fams)
            for m, p in preds.items():
                pr, rc, f, sup = precision_recall_fscore_support(yb[te], p, labels=range(len(classes)),
                                                                 zero_division=0)
                print(f"   {m:5s} macroF1 {f1_score(yb[te], p, average='macro'):.3f} recall",
                      np.round(rc, 2), "prec", np.round(pr, 2), "npred",
                      np.bincount(p, minlength=len(classes)))
                print("   " + str(confusion_matrix(yb[te], p)).replace("\n", "\n   "))
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]))
