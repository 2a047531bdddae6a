# Ad hoc script behind benchmarks/RESULTS.md, "Pruning the binary tree: cost-complexity α, one standard error (old → new)";
# kept as it ran (moved from /tmp/depth/dump.py). Run from the repository root: python benchmarks/adhoc/depth/dump.py …
"""Dump, per set and split, every size candidate's out-of-fold means and test means (ad hoc)."""
import sys, pickle, time, warnings
import numpy as np, pandas as pd
warnings.simplefilter("ignore")
from plx_core.experiments.compare import split_set, plx_max_len
from plx_core.estimator import PLXClassifier
from plx_core import selection as S, variants as V
from plx_core.query import query_many
from plx_core.tree import (build_trees, tree_rows, trees_to_kb, prune_alphas,
                           prune, clause_values, truncate)
from plx_core.weighting import confidence_kb

S.BIN_DEPTHS = (None, 8, 6, 5, 4, 3, 2)
ALPHAS = {"error": (0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03),
          "deviance": (0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05)}
CFS = (0.05, 0.1, 0.25, 0.5)
cap = {}
real_choose = S.choose
def choose(y, direct_pred, direct_rows, oof):
    cap.update(y=np.asarray(y), direct_pred=direct_pred, direct_rows=direct_rows, oof=dict(oof))
    return real_choose(y, direct_pred, direct_rows, oof)
S.choose = choose

class P(PLXClassifier):
    def _select(self, frame, labels):
        cap["frame"] = frame
        cap["labels"] = labels
        cap["tuned_kb"] = self.kbs_[0]
        cap["full"] = self.paper_kbs_[0]
        return super()._select(frame, labels)

def bin_variants(est, frame, yy, pos, cw):
    """{key: (kb, levels, limits → keys)} of the pruned binary trees on these rows."""
    rows = tree_rows(frame, yy, positive=1)
    t = build_trees(rows, n_trees=1, binary=True)[0]
    kb = trees_to_kb([t], "all", weights="depth")
    kb.positive = pos
    kb = est._corrected(kb, yy, cw)
    n, npos = len(yy), int(yy.sum())
    wp, wn = n / (2 * npos), n / (2 * (n - npos))
    fams = []
    for cost, grid in ALPHAS.items():
        a = prune_alphas(t, wp, wn, cost)
        lev = -clause_values(t, a)
        fams.append((lev, {-al: f"bin {cost} α={al:g}" for al in grid}, (t, a, grid, cost)))
    for cf in CFS:
        k = pessimistic_keep(t, wp, wn, cf)
        fams.append((clause_values(t, (~k).astype(float)), {0.0: f"bin pess cf={cf:g}"}, None))
    return t, kb, fams

def answers(kb, X, fams):
    out = {}
    for lev, keys, _ in fams:
        got = V.bounds_by_max_len(kb, X, list(keys), semantics="relevant", n_jobs=1, levels=lev)
        for lim, key in keys.items():
            out[key] = got[lim].mean
    return out

def main(sets, runs, lo, path):
    res = {}
    for key in sets:
        X, y, splits = split_set(key, runs, 1000)
        for run, (tr, te) in list(enumerate(splits))[lo:]:
            t0 = time.perf_counter()
            cap.clear()
            est = P(positive=1, random_state=run, max_len=plx_max_len(X.shape[1])).fit(X.iloc[tr], y[tr])
            fit_s = time.perf_counter() - t0
            rec = dict(set=key, run=run, y_te=y[te], chosen_full=est.chosen_)
            Xte = est.transform_rows(X.iloc[te])
            if "oof" not in cap:
                rec["default_te"] = est.bounds(X.iloc[te])["mean"].to_numpy()
                rec["threshold"] = est.threshold_
                res[(key, run)] = rec
                continue
            frame, yt = cap["frame"], cap["y"].astype(int)
            pos = est.positive_
            cw = est._class_weights(cap["labels"], pos)
            # the class weights as _select used them (balanced: the rows' base rate)
            oof = dict(cap["oof"])
            # the pruned binary trees out of fold, on the same folds
            for trn, ten in S.folds(yt, S.SELECT_FOLDS, run):
                f = frame.iloc[trn].reset_index(drop=True)
                held = frame.iloc[ten].reset_index(drop=True)
                _t, kb, fams = bin_variants(est, f, yt[trn], pos, cw)
                for k, v in answers(kb, held, fams).items():
                    oof.setdefault(k, np.full(len(yt), np.nan))[ten] = v
            # test means of every candidate refitted on all training rows
            tm = {}
            sem = "relevant"
            tm["direct"] = query_many(cap["tuned_kb"], Xte, semantics=est.semantics).mean
            from plx_core.weighting import M_GRID
            base = est._base_p(yt, cw)
            if cap["full"] is not None:
                for m in M_GRID:
                    if S.conf_key(m) in oof:
                        tm[S.conf_key(m)] = query_many(confidence_kb(cap["full"], m, base), Xte,
                                                       semantics=est.semantics).mean
            for model in ("tree-all", "tree-bin-deep"):
                for d in S.depths_of(model):
                    k = S.tree_key(d, model)
                    if k in oof:
                        kbs = est._tree_kbs(frame, yt, pos, (model,), cw, (d,))
                        tm[k] = query_many(kbs[k], Xte, semantics=sem).mean
            _t, kb, fams = bin_variants(est, frame, yt, pos, cw)
            tm.update(answers(kb, Xte, fams))
            rec.update(y_tr=yt, oof=oof, direct_pred=cap["direct_pred"], direct_rows=cap["direct_rows"],
                       test=tm, fit_s=fit_s)
            res[(key, run)] = rec
            print(key, run, est.chosen_, f"{fit_s:.2f}s", f"{time.perf_counter()-t0:.2f}s", flush=True)
    pickle.dump(res, open(path, "wb"))

if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
