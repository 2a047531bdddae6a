# Helper module of the ad hoc scripts beside it (moved from /tmp/add/prep.py), imported by them.
"""Per (set, run): the training/test rows as the default sees them, the corrected full Direct KB,
codes and (row, clause) pairs. Cached in $ADD_CACHE (default ./add_cache)."""
import os, pickle, sys, warnings
import numpy as np
sys.path.insert(0, os.environ.get("PLXSRC", "/work/w-additive"))
from plx_core.experiments.compare import split_set, plx_max_len
from plx_core.estimator import PLXClassifier
from plx_core.query import encode_rows, encode_query_rows
from plx_core.variants import relevant_pairs, balanced_weights

CACHE = os.environ.get("ADD_CACHE", "add_cache")  # was /tmp/add/cache
os.makedirs(CACHE, exist_ok=True)
_splits = {}


def get(key, run, runs=10):
    fn = f"{CACHE}/{key}-{run}-{runs}.pkl"
    if os.path.exists(fn):
        with open(fn, "rb") as f:
            return pickle.load(f)
    if (key, runs) not in _splits:
        _splits[(key, runs)] = split_set(key, runs)
    X, y, splits = _splits[(key, runs)]
    tr, te = splits[run]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = PLXClassifier(positive=1, max_len=plx_max_len(X.shape[1]), random_state=run,
                          variant="tuned").fit(X.iloc[tr], y[tr])
    full = m.paper_kbs_[0]
    ftr = m.transform_rows(X.iloc[tr]).drop(columns=list(m.excluded_))
    fte = m.transform_rows(X.iloc[te]).drop(columns=list(m.excluded_))
    ctr = encode_rows(full, ftr)
    cte = encode_query_rows(full, fte)[0]
    ptr = relevant_pairs(full, ctr, n_jobs=1)
    pte = relevant_pairs(full, cte, n_jobs=1)
    ytr, yte = y[tr], y[te]
    d = dict(kb=full, ctr=ctr, cte=cte, ptr=ptr, pte=pte, ytr=ytr, yte=yte,
             cw=balanced_weights(int(ytr.sum()), len(ytr)), ftr=ftr, fte=fte,
             Xtr=X.iloc[tr], Xte=X.iloc[te], cfg=m.tuned_[0])
    with open(fn, "wb") as f:
        pickle.dump(d, f)
    return d
