"""MONK's 3 per split: the default's choice, every candidate forced, CART (depth by CV) —
tested on the split's held-out rows and on the noise-free 432-row attribute space (monks-3.test).

    PLX_DATA_DIR=... python benchmarks/adhoc/monks14/diag.py RUNS OUT.csv    # RUNS: 0-19
"""
from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

import plx_core.selection as S
from plx_core.datasets import load_shared
from plx_core.experiments.compare import make, split_set


def main(runs: list[int], out: str, key: str = "monks-3") -> None:
    X, y, splits = split_set(key, max(runs) + 1)
    if key.startswith("monks-"):  # the whole attribute space, without label noise
        grid = load_shared(key, part="test")
        gX = grid.X[X.columns]
        gy = (grid.y.astype(str).to_numpy() == "1").astype(int)
    else:  # no such space: the held-out rows again
        gX, gy = None, None
    orig = S.choose
    seen: dict = {}

    def spy(y_, dp, dr, oof, fold=None, offsets=None, **kw):
        seen["args"] = (y_, dp, dr, oof, fold, offsets)
        seen["sel"] = orig(y_, dp, dr, oof, fold, offsets, **kw)
        return seen["sel"]

    rows = []
    try:
        for r in runs:
            tr, te = splits[r]
            S.choose = spy
            m = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
            sel = seen["sel"]
            y_, dp, dr, oof, fold, offsets = seen["args"]
            keys = ["direct", *oof]

            def rec(name, model, score, thr):
                pt = model.predict(X.iloc[te])
                pg = pt if gX is None else model.predict(gX)
                gy_ = y[te] if gX is None else gy
                rows.append(dict(run=r, cand=name, chosen=name == "DEFAULT" or False,
                                 oof=score, thr=thr, test=f1_score(y[te], pt),
                                 grid=f1_score(gy_, pg), grid_acc=float((pg == gy_).mean()),
                                 test_pred="".join(map(str, pt))))

            rec("DEFAULT", m, sel.scores.get(sel.key), sel.threshold)
            rows[-1]["chosen_key"] = sel.key
            for k in keys:
                def forced(y_, dp, dr, oof, fold=None, offsets=None, k=k, **kw):
                    if k == "direct":
                        return S._choose(y_, dp, dr, {}, fold, offsets)
                    return S._choose(y_, None, dr, {k: oof[k]}, fold, offsets)
                S.choose = forced
                mm = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr])
                rec(k, mm, sel.scores.get(k), sel.thresholds.get(k))
            S.choose = orig
            cart = make("CART", r, X.shape[1]).fit(X.iloc[tr], y[tr])
            rec("CART", cart, np.nan, np.nan)
            rows[-1]["chosen_key"] = str(cart.model.best_params_) if hasattr(cart, "model") else ""
            d = pd.DataFrame([x for x in rows if x["run"] == r])
            print(f"run {r}: chose {sel.key}; " + ", ".join(
                f"{c} t{t:.3f}/g{g:.3f}" for c, t, g in
                d[d.cand.isin(["DEFAULT", "CART"])][["cand", "test", "grid"]].itertuples(index=False)),
                flush=True)
    finally:
        S.choose = orig
    pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    a, b = sys.argv[1].split("-")
    main(list(range(int(a), int(b) + 1)), sys.argv[2], *(sys.argv[3:4]))
