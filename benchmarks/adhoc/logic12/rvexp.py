# ad hoc (session 12, logic12): the rule vote always answering under term-learning settings,
# and the choice it would make against the model chosen without it (`dump.py` records):
#   PYTHONPATH=. python benchmarks/adhoc/logic12/rvexp.py DUMPDIR SETS FIRST-LAST "k=v,…" ["k=v,…" …]
# (k: a keyword of `terms.learn_terms`, or L1 for `terms.TERM_L1`; union=M: the terms of a
# second covering by m = M on every table; gamma=G: covered rows weigh ×G instead of leaving.
# union and gamma patch `terms._covering` as it was at 1e4dd96, before the second covering of
# c480439: run them on that commit's plx_core, the plain settings on either)
import os, pickle, sys, time
import numpy as np
from sklearn.metrics import f1_score
import plx_core.selection as S
import plx_core.terms as TM
from plx_core import vote as VT
from plx_core.experiments.compare import split_set
from plx_core.kb import KB
from plx_core.query import encode_rows
from plx_core.tree import tree_rows
from plx_core.variants import balanced_weights

dump, sets, span = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
lo, hi = (int(v) for v in span.split("-"))
variants = sys.argv[4:] or [""]


def parse(s):
    kw = {}
    for kv in filter(None, s.split(",")):
        k, v = kv.split("=")
        kw[k] = float(v) if "." in v else int(v)
    return kw


_orig_cov = TM._covering


def weighted_covering(gamma):
    def cov(M, onehot_feat, y, cls, cw, max_len, beam, max_terms, min_rows, min_lift, m):
        from plx_core.vote import row_weights
        found = []
        target = (y == cls).astype(np.float64)
        w0 = row_weights(y, cw)
        w = w0.copy()
        base = float((w * target).sum() / w.sum())
        counted = np.ones(len(y))
        for _ in range(max_terms):
            got = TM._best_term(M, onehot_feat, target, w, counted, base, max_len, beam, min_rows, m)
            if got is None or got[2] < base + min_lift:
                break
            t = got[0]
            if t in found:
                break
            found.append(t)
            covered = M[:, list(t)].prod(axis=1) > 0
            counted = np.where(covered, 0.0, counted)
            w = np.where(covered & (target > 0), w * gamma, w)
        return found
    return cov


def learn_union(codes, sizes, y, cw, ms):
    codes = np.asarray(codes, dtype=np.int64); sizes = np.asarray(sizes, dtype=np.int64)
    y = np.asarray(y).astype(np.int64)
    M, feat, val, neg = TM.literals(codes, sizes, True)
    onehot = np.zeros((len(feat), len(sizes)), bool)
    onehot[np.arange(len(feat)), feat] = True
    found = []
    for m in ms:
        for cls in (1, 0):
            found += TM._covering(M, onehot, y, cls, cw, TM.TERM_LEN, TM.TERM_BEAM, TM.TERM_MAX,
                                  TM.TERM_MIN_ROWS, TM.TERM_MIN_LIFT, m)
    return TM._bodies(found, feat, val, neg, sizes)


def fit(codes, yy, sizes, like, kw):
    cw = balanced_weights(int(yy.sum()), len(yy))
    kw = dict(kw)
    l1 = kw.pop("L1", TM.TERM_L1)
    union = kw.pop("union", None)
    gamma = kw.pop("gamma", None)
    TM._covering = _orig_cov if gamma is None else weighted_covering(float(gamma))
    if union is None:
        T = TM.learn_terms(codes, sizes, yy, cw, **kw)
    else:
        T = learn_union(codes, sizes, yy, cw, [kw.get("m", TM.TERM_M), float(union)])
    parts = [(T.bodies, T.group)]
    rules = VT.rule_set(sizes, parts, sources=[TM.TERM_SOURCE] * len(parts))
    return VT.RuleVote(like, rules, codes, yy, cw, trees=[], l1=l1), T.n_terms


for key in sets:
    X, y, splits = split_set(key, hi + 1)
    for v in variants:
        kw = parse(v)
        got = []
        t_all = 0.0
        for r in range(lo, hi + 1):
            tr, te = splits[r]
            rec = pickle.load(open(os.path.join(dump, f"{key}_{r}.pkl"), "rb"))
            rows = tree_rows(X.iloc[tr].reset_index(drop=True), y[tr], positive=1)
            sizes = [len(rows.domains[f]) for f in rows.features]
            like = KB(rows.features, rows.domains)
            oof = np.full(len(tr), np.nan)
            t0 = time.perf_counter()
            for a, b in S.folds(rows.y, 5, r):
                rv, _ = fit(rows.codes[a], rows.y[a], sizes, like, kw)
                oof[b] = VT.probability(rv.score(rows.codes[b]))
            rv, nt = fit(rows.codes, rows.y, sizes, like, kw)
            t_all += time.perf_counter() - t0
            yy, dp, dr, o, fold, offsets = rec["args"]
            rest = {k: vv for k, vv in o.items() if k != "rule-vote"}
            w = S._choose(yy, dp, dr, rest, fold, offsets)
            sel = S._choose(yy, None, dr, {"rule-vote": oof})
            p = VT.probability(rv.score(encode_rows(like, X.iloc[te].reset_index(drop=True))))
            f = f1_score(y[te], np.nan_to_num(p, nan=-1) > sel.threshold + 1e-9)
            gain = sel.scores["rule-vote"] - w.scores[w.key]
            chosen = f if gain > S.RULE_MARGIN else rec["without_f1"]
            got.append((sel.scores["rule-vote"], f, chosen, rec["without_f1"], nt, gain))
        a = np.array(got)
        print(f"{key:12s} {v or 'default':28s} oof {a[:,0].mean():.4f} always {a[:,1].mean():.4f} "
              f"chosen {a[:,2].mean():.4f} (now-ish {a[:,3].mean():.4f}; rv answers {(a[:,5] > S.RULE_MARGIN).sum()}) "
              f"terms {a[:,4].mean():.1f} {t_all / len(a):.2f}s", flush=True)
