"""plx settings compared on wide21's (and unseen20's) families, in one process: test F1, fit CPU.

python benchmarks/adhoc/wide21/variants.py FAMILY SPLITS OUT.csv CONFIG[,CONFIG…]
A CONFIG is a name in `CONFIGS`: a function patching module settings for one fit (restored after).
"""
import contextlib
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402


@contextlib.contextmanager
def patched(*changes):
    """Set (module, name, value) for the block, then restore."""
    old = [(m, n, getattr(m, n)) for m, n, _v in changes]
    for m, n, v in changes:
        setattr(m, n, v)
    try:
        yield
    finally:
        for m, n, v in old:
            setattr(m, n, v)


def fit_with(name, X, y, pos, seed):
    kw = {"positive": pos, "random_state": seed}
    ch = []
    if name == "main":
        pass
    if name == "len2":
        kw["max_len"] = 2
    if name == "len1":
        kw["max_len"] = 1
    if name == "nopairs":
        ch.append((S, "CANDIDATES", tuple(c for c in S.CANDIDATES if c != "rule-vote")))
    if name == "direct":
        ch.append((S, "CANDIDATES", ("direct", "direct-conf")))
    if name == "trees":
        ch.append((S, "CANDIDATES", ("direct", "tree-all", "tree-bin-deep")))
    if name == "vote":
        ch.append((S, "CANDIDATES", ("direct", "direct-vote")))
    with patched(*ch):
        return PLXClassifier(**kw).fit(X, y)


def main(argv):
    fam, k, out, configs = argv[1], int(argv[2]), Path(argv[3]), argv[4].split(",")
    X, y, pos = FAMILIES[fam]()
    yb = (y.astype(str).str.strip().str.casefold() == pos).to_numpy().astype(int)
    rows = []
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(k, test_size=0.3, random_state=0).split(X, yb)):
        for c in configs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                m = fit_with(c, X.iloc[tr].reset_index(drop=True), y.iloc[tr].reset_index(drop=True), pos, run)
                t1 = time.process_time()
                pred = (np.asarray(m.predict(X.iloc[te])).astype(str) == pos).astype(int)
            f1 = f1_score(yb[te], pred, zero_division=0)
            rows.append({"family": fam, "run": run, "config": c, "f1": f1, "cpu_s": t1 - t0,
                         "chosen": (m.selection_.key if m.selection_ is not None else m.chosen_),
                         "max_len": m.max_len_})
            print(fam, run, c, f"{f1:.3f}", f"{t1 - t0:.2f}s", rows[-1]["chosen"], flush=True)
    pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main(sys.argv)
