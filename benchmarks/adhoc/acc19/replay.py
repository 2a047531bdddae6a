"""Ad hoc (session 19, acc19): replay `selection.choose` with the choice between the MDLP vote
("direct-vote") and the smooth vote ("direct-vote bins=N") made by a proper scoring rule on
their out-of-fold probabilities (the MDLP vote's scored on each fold's own cut points: the
honest vote whose F1 gap is the smooth vote's credit), the loser left out; F1 still chooses the
threshold and the race with every other candidate. On `collect.py`'s splits.

    python benchmarks/adhoc/acc19/replay.py RULE[,RULE…] C_SET.pkl [C_SET2.pkl …]
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S

EPS = 1e-6


def loss(y, p, kind):
    """Mean loss of probabilities p on labels y: 'll' log-loss, 'br' Brier (a 'w' suffix: each
    class weighs half); 'auc' 1 − the area under the ROC curve."""
    p = np.clip(np.nan_to_num(np.asarray(p, float), nan=0.5), EPS, 1 - EPS)
    yb = np.asarray(y, bool)
    if kind == "auc":  # not a proper scoring rule: the ranking alone, as 1 − AUC
        from sklearn.metrics import roc_auc_score

        return 1.0 - roc_auc_score(yb, p)
    each = -np.log(np.where(yb, p, 1 - p)) if kind.startswith("ll") else (p - yb) ** 2
    if kind.endswith("w"):
        return 0.5 * each[yb].mean() + 0.5 * each[~yb].mean()
    return each.mean()


def split_votes(rec):
    oof = rec["args"]["oof"]
    fine = next((k for k in oof if S.vote_bins(k)), None)
    return fine, ("direct-vote" if "direct-vote" in oof else None)


def by_loss(rec, kind, honest=True):
    args = dict(rec["args"])
    fine, mdlp = split_votes(rec)
    if fine and mdlp and (not honest or rec.get("honest") is not None):
        rows = (np.arange(len(args["y"])) if args["direct_rows"] is None
                else np.asarray(args["direct_rows"]))
        y = np.asarray(args["y"])[rows]
        other = rec["honest"] if honest else args["oof"][mdlp]
        drop = mdlp if kind == "none" or loss(y, args["oof"][fine][rows], kind) < loss(y, other[rows], kind) else fine
        args["oof"] = {k: v for k, v in args["oof"].items() if k != drop}
        args["offsets"] = {k: v for k, v in (args["offsets"] or {}).items() if k != drop}
    sel = S.choose(**args)
    return sel.key, sel.threshold


RULES = {"no mdlp": lambda rec: by_loss(rec, "none"),  # the smooth vote supersedes it
         "current": lambda rec: (lambda s: (s.key, s.threshold))(S.choose(**rec["args"]))}
for _k in ("ll", "llw", "br", "brw", "auc"):
    RULES[_k] = lambda rec, k=_k: by_loss(rec, k)
    RULES[_k + " own"] = lambda rec, k=_k: by_loss(rec, k, honest=False)


def run_rules(names, paths):
    for path in paths:
        recs = [r for r in pickle.load(open(path, "rb")) if "args" in r]
        runs = np.array([r["run"] for r in recs])
        print(path, f"runs {runs.min()}-{runs.max()}")
        base = None
        for name in names:
            f1s, miss, keys = [], 0, []
            for rec in recs:
                k, t = RULES[name](rec)
                keys.append(k)
                tests = rec["tests"].get(k)
                if tests is None or round(float(t), 2) not in tests:
                    miss += 1
                    f1s.append(np.nan)
                    continue
                f1s.append(f1_score(rec["y_test"], tests[round(float(t), 2)], zero_division=0))
            f1s = np.array(f1s)
            if name == "current":
                ok = ~np.isnan(f1s)
                assert np.allclose(f1s[ok], np.array([r["f1"] for r in recs])[ok])
            if base is None:
                base = f1s
            d = f1s - base
            parts = []
            for lo, hi in ((0, 9), (10, 19), (20, 39)):
                m = (runs >= lo) & (runs <= hi)
                if m.any():
                    dm = d[m]
                    parts.append(f"{lo}-{hi} {np.nanmean(f1s[m]):.4f} {np.nanmean(dm):+.4f} "
                                 f"({int((dm > 1e-9).sum())}/{int((dm < -1e-9).sum())})")
            moved = [int(r) for r, x in zip(runs, d) if abs(x) > 1e-9]
            print(f"  {name:10s} " + " | ".join(parts) + (f" missing {miss}" if miss else "")
                  + (f" moved runs {moved}" if moved and name != names[0] else ""))


if __name__ == "__main__":
    run_rules(sys.argv[1].split(","), sys.argv[2:])
