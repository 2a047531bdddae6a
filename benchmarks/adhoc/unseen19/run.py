"""plx default vs CART (CV depth), EBM, LogReg, GBoost and a forest on each family.

python benchmarks/adhoc/unseen19/run.py FAMILY [SEEDS] [OUT.csv]
plx is `PLXClassifier(positive=...)` on the raw frame and text labels, as a new user would;
the baselines are `plx_core.experiments.compare`'s (the compare experiment's feeding).
`main(FAMILIES, argv)` is imported by unseen20's runner: a family whose positive class is None
has several classes (plx without `positive=`, every method scored by macro-F1); truth is the
label trimmed and case-folded (labels typed by hand), and a plx fit that refuses is recorded
with its message and F1 left empty.
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

METHODS = ["plx", "CART", "EBM", "LogReg", "GBoost", "Forest"]


def _norm(v) -> np.ndarray:
    return pd.Series(np.asarray(v)).astype(str).str.strip().str.casefold().to_numpy()


def main(families: dict, argv: list[str]) -> None:
    """Run one family (argv: FAMILY [SEEDS] [OUT.csv] [METHODS]) and write one row per run and method."""
    fam = argv[1]
    seeds = int(argv[2]) if len(argv) > 2 else 6
    out = Path(argv[3]) if len(argv) > 3 else Path(f"{fam}.csv")
    methods = argv[4].split(",") if len(argv) > 4 else METHODS
    X, y, pos = families[fam]()
    truth = _norm(y)
    several = pos is None
    classes = np.unique(truth)
    yb = np.searchsorted(classes, truth) if several else (truth == pos).astype(int)
    splits = StratifiedShuffleSplit(seeds, test_size=0.3, random_state=0).split(X, truth)
    rows = []
    for run, (tr, te) in enumerate(splits):
        for m in methods:
            err = ""
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                t0 = time.perf_counter()
                if m.startswith("plx"):
                    try:
                        if several:  # one KB per class, as a user without positive= gets
                            model = PLXClassifier(random_state=run).fit(X.iloc[tr], y.iloc[tr])
                        elif m == "plx":
                            model = PLXClassifier(positive=pos, random_state=run).fit(X.iloc[tr], y.iloc[tr])
                        else:  # plx-bin: the positive class against the rest
                            model = PLXClassifier(positive=True, random_state=run).fit(
                                X.iloc[tr], pd.Series(truth[tr] == pos))
                        t1 = time.perf_counter()
                        got = _norm(model.predict(X.iloc[te]))
                        pred = (np.searchsorted(classes, got) if several else
                                (got == ("true" if m == "plx-bin" else pos)).astype(int))
                        extra = str(getattr(model, "selection_", ""))[:200] or type(model).__name__
                    except Exception as e:  # a refusal is a finding: record its words
                        t1, pred, extra, err = time.perf_counter(), None, "", f"{type(e).__name__}: {e}"
                else:
                    model = make(m, run, X.shape[1])
                    if several and m == "CART":  # its depth search scores binary F1 by default
                        model.model.set_params(scoring="f1_macro")
                    model.fit(X.iloc[tr], yb[tr])
                    t1 = time.perf_counter()
                    pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                    extra = ""
            msgs = sorted({str(w.message)[:400] for w in caught if m.startswith("plx")})
            f1 = (np.nan if pred is None else
                  f1_score(yb[te], pred, average="macro" if several else "binary", zero_division=0))
            rows.append({"family": fam, "run": run, "method": m, "f1": f1, "fit_s": t1 - t0,
                         "warnings": " | ".join(msgs), "extra": extra, "error": err[:400]})
            print(fam, run, m, f"{f1:.3f}", f"{t1 - t0:.2f}s", msgs[:2], err[:200], flush=True)
    pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from families import FAMILIES

    main(FAMILIES, sys.argv)
