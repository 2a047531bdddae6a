"""unseen22's runner on unseen23's families: plx default vs CART, EBM, LogReg, GBoost, a forest.

python benchmarks/adhoc/unseen23/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
As unseen22's (a positive class compared as text, splits stratified on positive / the rest),
and a family in `TRAIN_VIEW` (sorted_rows) gives every method its training rows as the user's
file holds them. unseen22's runner is this one on its families and test views (`main`).
"""
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES, TRAIN_VIEW  # noqa: E402

METHODS = ["plx", "CART", "EBM", "LogReg", "GBoost", "Forest"]


def _norm(v) -> np.ndarray:
    return pd.Series(np.asarray(v, dtype=object)).fillna("<missing>").astype(str).str.strip().str.casefold().to_numpy()


def main(argv: list[str], families: dict = FAMILIES, train_views: dict = TRAIN_VIEW,
         test_views: dict | None = None) -> None:
    """Run FAMILY of `families`: `train_views` / `test_views` show a family's training / test
    rows as the user's file holds them or as predict would see them."""
    fam = argv[1]
    seeds = int(argv[2]) if len(argv) > 2 else 6
    out = Path(argv[3]) if len(argv) > 3 else Path(f"{fam}.csv")
    methods = argv[4].split(",") if len(argv) > 4 else METHODS
    X, y, pos = families[fam]()
    train_view = train_views.get(fam, lambda X, y: (X, y))
    test_view = (test_views or {}).get(fam, lambda X: X)
    truth = _norm(y)
    posn = str(pos).casefold()
    yb = (truth == posn).astype(int)
    splits = StratifiedShuffleSplit(seeds, test_size=0.3, random_state=0).split(X, yb)
    rows = []
    for run, (tr, te) in enumerate(splits):
        Xte = test_view(X.iloc[te])
        Xtr, ytr = train_view(X.iloc[tr], y.iloc[tr])
        ybtr = (_norm(ytr) == posn).astype(int)
        for m in methods:
            err = ""
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                t0 = time.perf_counter()
                if m == "plx":
                    try:
                        model = PLXClassifier(positive=pos, random_state=run).fit(Xtr, ytr)
                        t1 = time.perf_counter()
                        pred = (_norm(model.predict(Xte)) == posn).astype(int)
                        extra = str(getattr(model, "selection_", ""))[:200]
                    except Exception as e:  # a refusal is a finding: record its words
                        t1, pred, extra, err = time.perf_counter(), None, "", f"{type(e).__name__}: {e}"
                else:
                    extra = ""
                    try:  # a baseline that cannot read the table (inf, dates) is recorded, not fatal
                        model = make(m, run, X.shape[1])
                        model.fit(Xtr, ybtr)
                        t1 = time.perf_counter()
                        pred = np.asarray(model.predict(Xte)).astype(int)
                    except Exception as e:
                        t1, pred, err = time.perf_counter(), None, f"{type(e).__name__}: {e}"
            msgs = sorted({str(w.message)[:400] for w in caught if m == "plx"})
            f1 = np.nan if pred is None else f1_score(yb[te], pred, zero_division=0)
            rows.append({"family": fam, "run": run, "method": m, "f1": f1, "fit_s": t1 - t0,
                         "warnings": " | ".join(msgs), "extra": extra, "error": err[:400]})
            print(fam, run, m, f"{f1:.3f}", f"{t1 - t0:.2f}s", msgs[:2], err[:200], flush=True)
    pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main(sys.argv)
