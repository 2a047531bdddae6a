"""Several-class answers of one plx_core (on PYTHONPATH) dumped for an exact before/after check.

    PYTHONPATH=<plx_core's parent> PLX_DATA_DIR=... python same_multi.py OUT.pkl [SETS] [FROM-TO]
    python same_multi.py --diff A.pkl B.pkl

Each set (bench_multiclass.table: digits, car, nursery, zoo, wine, iris, syn4), stratified 70/30
splits seeded FROM..TO-1 (default 0-1): the chosen families and reason, predict_proba and predict on the
test rows, the fit's CPU seconds and a forest's in the same process.
"""
import os
import pickle
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))


def dump(out: str, sets: str, splits: range) -> None:
    from sklearn.metrics import f1_score
    from sklearn.model_selection import train_test_split

    from bench_multiclass import methods, table  # benchmarks/
    from plx_core import PLXClassifier

    warnings.simplefilter("ignore")
    got = {}
    for name in sets.split(","):
        X, y, cat = table(name)
        for seed in splits:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            t = time.process_time()
            m = PLXClassifier(random_state=seed).fit(Xtr, ytr)
            fit = time.process_time() - t
            t = time.process_time()
            methods(seed, cat)["forest"]().fit(Xtr, ytr)
            rf = time.process_time() - t
            pred = m.predict(Xte)
            got[name, seed] = dict(reason=m.chosen_reason_, chosen=m.class_chosen_,
                                   proba=np.asarray(m.predict_proba(Xte)), pred=np.asarray(pred),
                                   f1=f1_score(yte, pred, average="macro"), fit=fit, rf=rf)
            print(f"{name} {seed}: macro F1 {got[name, seed]['f1']:.4f} fit {fit:.2f} s "
                  f"forest {rf:.2f} s ({fit / rf:.1f}x) {m.chosen_reason_[:70]}", flush=True)
    with open(out, "wb") as f:
        pickle.dump(got, f)


def diff(a: str, b: str) -> None:
    A, B = (pickle.load(open(p, "rb")) for p in (a, b))
    bad = 0
    for key in A:
        if key not in B:
            continue
        x, y = A[key], B[key]
        same = np.array_equal(x["proba"], y["proba"]) and np.array_equal(x["pred"], y["pred"])
        bad += not same
        said = "" if x["reason"] == y["reason"] else " (reason worded otherwise)"
        print(f"{key}: {'same' if same else 'DIFFERENT'} answers{said}  F1 {x['f1']:.4f} -> {y['f1']:.4f}  "
              f"fit/forest {x['fit'] / x['rf']:.1f}x -> {y['fit'] / y['rf']:.1f}x")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if sys.argv[1] == "--diff":
        diff(sys.argv[2], sys.argv[3])
    else:
        dump(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "digits,car,nursery,zoo,wine,iris",
             range(*map(int, sys.argv[3].split("-"))) if len(sys.argv) > 3 else range(1))
