# Ad hoc script behind benchmarks/RESULTS.md, "Pruning the binary tree: cost-complexity α, one standard error (old → new)";
# kept as it ran (moved from /tmp/depth/sim.py). Run from the repository root: python benchmarks/adhoc/depth/sim.py …
"""Simulate selection rules on dumped out-of-fold / test means (ad hoc)."""
import sys, pickle, glob
import numpy as np
from plx_core import selection as S
from plx_core.variants import _f1

def f1(y, means, t):
    pred = np.nan_to_num(np.asarray(means, float), nan=-1.0) > t + 1e-9
    return float(_f1(pred[None, :], np.asarray(y, bool).astype(np.int64))[0])

DEFAULT_BIN = (None,)

def run_choose(rec, keep, bin_depths=DEFAULT_BIN):
    """The real `choose` on the out-of-fold keys `keep` admits."""
    S.BIN_DEPTHS = bin_depths
    oof = {k: v for k, v in rec["oof"].items() if keep(k)}
    sel = S.choose(rec["y_tr"], rec["direct_pred"], rec["direct_rows"], oof)
    if sel.chosen in S.TREE_MODELS:
        key = S.tree_key(sel.max_depth, sel.chosen)
    elif sel.chosen == "direct-conf":
        key = S.conf_key(sel.m)
    else:
        key = sel.chosen
    return key, sel.threshold, sel

def default_keep(k):
    return not k.startswith("bin ") and not (k.startswith("tree-bin-deep") and k != "tree-bin-deep")

def test_f1(rec, key, t):
    if "test" not in rec:
        return f1(rec["y_te"], rec["default_te"], rec["threshold"])
    return f1(rec["y_te"], rec["test"][key], t)

def load(paths):
    res = {}
    for p in paths:
        res.update(pickle.load(open(p, "rb")))
    return res

if False:
    res = load(sys.argv[1:])
    for (s, r), rec in sorted(res.items()):
        if "test" not in rec:
            print(s, r, "no selection", test_f1(rec, None, None)); continue
        k, t, _ = run_choose(rec, default_keep)
        print(s, r, k, t, round(test_f1(rec, k, t), 4))

# ---------------------------------------------------------------- rules
from plx_core.weighting import M_GRID
BASE_ORDER = ["direct"] + [S.conf_key(m) for m in M_GRID] + [S.tree_key(d) for d in (None, 4, 3, 2)]
BIN_DEPTH_KEYS = [S.tree_key(d, "tree-bin-deep") for d in (None, 8, 6, 5, 4, 3, 2)]

def rows_of(rec):
    return np.arange(len(rec["y_tr"])) if rec["direct_rows"] is None else np.asarray(rec["direct_rows"])

def score(rec, key, cache):
    """(threshold, F1 on the rows, per-fold F1 at that threshold)."""
    if key in cache:
        return cache[key]
    y, rows = rec["y_tr"], rows_of(rec)
    if key == "direct" and "direct" not in rec["oof"]:
        m = np.full(len(y), np.nan); m[rows] = np.asarray(rec["direct_pred"], float)
        t, s = 0.5, f1(y[rows], m[rows], 0.5)
    else:
        m = rec["oof"][key]
        t, s = S.best_threshold(y[rows], m[rows], guarded=key == "direct")
    fid = np.empty(len(y), int)
    for i, (_a, b) in enumerate(S.folds(y, S.SELECT_FOLDS, rec["run"])):
        fid[b] = i
    inrows = np.zeros(len(y), bool); inrows[rows] = True
    per = np.array([f1(y[(fid == i) & inrows], m[(fid == i) & inrows], t) for i in range(S.SELECT_FOLDS)])
    cache[key] = (t, s, per, m)
    return cache[key]

def pick(rec, order, cache, margin=None):
    """The best out-of-fold F1 among `order` (ties to the earlier key)."""
    got = [(k, score(rec, k, cache)) for k in order if k in rec["oof"] or k == "direct"]
    best = max(range(len(got)), key=lambda i: (got[i][1][1], -i))
    k, (t, s, per, m) = got[best]
    return k, t

def one_se(rec, fam, cache, mult=1.0, se_of="best"):
    """CART's one-standard-error rule within a family ordered simplest first."""
    got = [(k, score(rec, k, cache)) for k in fam if k in rec["oof"]]
    if not got:
        return None
    b = max(range(len(got)), key=lambda i: (got[i][1][1], i))  # ties: the more complex? no: best
    kb_, (tb, sb, perb, mb) = got[b]
    for k, (t, s, per, m) in got:
        if se_of == "best":
            se = perb.std(ddof=1) / np.sqrt(len(perb))
            if s >= sb - mult * se:
                return k
        else:  # paired: the difference to the best, fold by fold
            d = perb - per
            se = d.std(ddof=1) / np.sqrt(len(d))
            if d.mean() <= mult * se:
                return k
    return kb_

def family(kind):
    if kind == "depth":  # simplest first
        return [S.tree_key(d, "tree-bin-deep") for d in (2, 3, 4, 5, 6, 8, None)]
    if kind.startswith("error") or kind.startswith("deviance"):
        from dump import ALPHAS
        cost = kind.split()[0]
        return [f"bin {cost} α={a:g}" for a in sorted(ALPHAS[cost], reverse=True)] + ["tree-bin-deep"]
    raise KeyError(kind)

def rule(name):
    def r(rec, cache):
        if name == "default":
            return pick(rec, BASE_ORDER + ["tree-bin-deep"], cache)
        if name.startswith("max "):  # argmax over a family (ties: unlimited first, as before)
            fam = family(name[4:])
            return pick(rec, BASE_ORDER + ["tree-bin-deep"] + [k for k in fam if k != "tree-bin-deep"][::-1], cache)
        if name.startswith("pess"):  # "pess 0.25 replace" / "pess 0.25 add"
            _, cf, how = name.split()
            k = f"bin pess cf={float(cf):g}"
            return pick(rec, BASE_ORDER + ([k] if how == "replace" else ["tree-bin-deep", k]), cache)
        if name.startswith("1se"):  # "1se|depth|1.0|best"
            _, kind, mult, se_of = name.split("|")
            k = one_se(rec, family(kind), cache, float(mult), se_of)
            return pick(rec, BASE_ORDER + [k], cache)
        if name.startswith("g1se"):  # "g1se|deviance|1.0": the sized tree must beat the default's pick by mult SE
            _, kind, mult = name.split("|")[:3]
            b, tb = pick(rec, BASE_ORDER + ["tree-bin-deep"], cache)
            fam = [k for k in family(kind) if k != "tree-bin-deep"][::-1]
            w, tw = pick(rec, BASE_ORDER + ["tree-bin-deep"] + fam, cache)
            if w == b:
                return b, tb
            _, sb, pb, _ = score(rec, b, cache)
            _, sw, pw, _ = score(rec, w, cache)
            d = pw - pb
            se = d.std(ddof=1) / np.sqrt(len(d))
            return (w, tw) if sw - sb > float(mult) * se else (b, tb)
        if name.startswith("dse"):  # "dse|mult": the kept rule, then a Direct pick yields to the binary tree within mult SE
            mult = float(name.split("|")[1])
            k, t = rule("g1se|error|1")(rec, cache)
            if k not in ("direct",) and not k.startswith("direct-conf"):
                return k, t
            fam = ["tree-bin-deep"] + [kk for kk in family("error") if kk != "tree-bin-deep"][::-1]
            # the binary tree as the kept rule would score it: unpruned, or pruned past one SE
            b, tb = pick(rec, ["tree-bin-deep"], cache)
            _, sk, pk, _ = score(rec, k, cache)
            _, sb, pb, _ = score(rec, b, cache)
            d = pk - pb
            se = d.std(ddof=1) / np.sqrt(len(d))
            return (b, tb) if sk - sb <= mult * se else (k, t)
        raise KeyError(name)
    return r

def evaluate(res, names, sets=None):
    import pandas as pd
    rows = []
    for (s, r), rec in sorted(res.items()):
        if sets and s not in sets:
            continue
        cache = {}
        row = dict(set=s, run=r)
        for nm in names:
            if "test" not in rec:
                row[nm] = test_f1(rec, None, None); continue
            k, t = rule(nm)(rec, cache)
            row[nm] = test_f1(rec, k, t)
            row[nm + " key"] = k
        rows.append(row)
    return pd.DataFrame(rows)
