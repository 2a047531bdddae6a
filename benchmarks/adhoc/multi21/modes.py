"""How several classes choose their model family (`selection.CLASS_CHOICE`: "mean", the best
mean of the classes' out-of-fold F1, against "macro", `selection.class_choice`), measured:
macro F1 on the test rows of stratified 70/30 splits, each choice adopted from the same fit's
searches (cached), with CART (depth by CV on macro F1) and EBM on the same rows.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/multi21/modes.py TABLES SPLITS [BASELINES] [OUT.csv]

TABLES: categories9 (unseen20), rare_class (unseen19), products, products10
(bench_fit_families), wine, iris, digits (scikit-learn), ordinal5, faults6 (below);
BASELINES: comma-separated `compare.make` names ("" for none); MODES=mean,macro in the
environment.
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn import datasets
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir))
from bench_fit_families import products  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402


def _load(path: str, name: str):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FAMILIES


U19 = _load(os.path.join(HERE, os.pardir, "unseen19", "families.py"), "u19")
U20 = _load(os.path.join(HERE, os.pardir, "unseen20", "families.py"), "u20")


def sk(name):
    def get(seed=0):
        d = getattr(datasets, f"load_{name}")()
        X = pd.DataFrame(d.data, columns=[str(c) for c in d.feature_names])
        return X, pd.Series(np.asarray(d.target_names)[d.target].astype(str)), None
    return get


def ordinal5(seed=0, n=1500):
    """A 5-level severity (none < mild < moderate < severe < critical) from a latent score of
    three numerics and a category, cut at fixed points: neighbouring levels overlap."""
    rng = np.random.default_rng(seed + 101)
    age, bmi, crp = rng.normal(55, 15, n), rng.normal(27, 5, n), np.exp(rng.normal(1.5, 1, n))
    smoker = rng.choice(["never", "former", "current"], n, p=[0.5, 0.3, 0.2])
    z = (0.04 * (age - 55) + 0.08 * (bmi - 27) + 0.6 * (np.log(crp) - 1.5)
         + np.select([smoker == "current", smoker == "former"], [0.7, 0.3], 0.0)
         + rng.logistic(0, 0.5, n))
    levels = np.array(["none", "mild", "moderate", "severe", "critical"])
    c = np.digitize(z, [-0.9, -0.1, 0.7, 1.5])
    X = pd.DataFrame({"age": age.round(), "bmi": bmi.round(1), "crp": crp.round(2), "smoker": smoker,
                      "site": rng.choice(["north", "south", "east"], n)})
    return X, pd.Series(levels[c]), None


def faults6(seed=0, n=2500):
    """Six machine states, one at 2% (a fault only hot, vibrating machines of one model show),
    from temperature, vibration, load, model and shift; missing cells in vibration."""
    rng = np.random.default_rng(seed + 202)
    temp, vib, load = rng.normal(60, 10, n), np.exp(rng.normal(0, 0.6, n)), rng.uniform(0, 100, n)
    model = rng.choice(["M1", "M2", "M3", "M4"], n)
    shift = rng.choice(["day", "night"], n)
    state = np.full(n, "ok", dtype=object)
    state[(load > 70) & (temp > 62)] = "overload"
    state[(vib > 1.6) & (state == "ok")] = "imbalance"
    state[(temp < 50) & (state == "ok")] = "cold_start"
    state[(model == "M3") & (shift == "night") & (load < 40) & (state == "ok")] = "idle_drift"
    rare = (temp > 72) & (vib > 1.3) & (model == "M2")
    state[rare] = "bearing"
    flip = rng.random(n) < 0.06
    state[flip] = rng.choice(["ok", "overload", "imbalance", "cold_start", "idle_drift"], flip.sum())
    vib = np.where(rng.random(n) < 0.1, np.nan, vib)
    X = pd.DataFrame({"temp_c": temp.round(1), "vibration": vib.round(3), "load_pct": load.round(1),
                      "model": model, "shift": shift})
    return X, pd.Series(state), None


TABLES = {"categories9": U20["categories9"], "rare_class": U19["rare_class"],
          "products": products, "products10": lambda seed=0: products(seed, k=10),
          "wine": sk("wine"), "iris": sk("iris"), "digits": sk("digits"),
          "ordinal5": ordinal5, "faults6": faults6}
MODES = os.environ.get("MODES", "mean,macro").split(",")


def cached_select():
    """`_select(adopt=False)` memoised per (class, rows, labels, seed): every mode adopts from
    the same searches."""
    memo, orig = {}, PLXClassifier._select

    def sel(self, frame, labels, raw, progress=None, adopt=True, **kw):
        if adopt:
            return orig(self, frame, labels, raw, adopt=adopt, **kw)
        key = (self.positive_, len(frame), hash(np.asarray(labels).tobytes()), self.random_state)
        if key not in memo:
            memo[key] = orig(self, frame, labels, raw, adopt=False, **kw)
        if memo[key] is None:  # its reason is set by the search
            orig(self, frame, labels, raw, adopt=False, **kw)
        return memo[key]
    PLXClassifier._select = sel
    return memo


def main(keys, splits, baselines, out):
    memo = cached_select()
    rows = []
    for key in keys:
        X, y, _ = TABLES[key]()
        y = y.astype(str)
        classes = np.unique(y)
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            memo.clear()
            Xt, yt, Xe, ye = X.iloc[tr], y.iloc[tr], X.iloc[te], y.iloc[te]
            for mode in MODES:
                S.CLASS_CHOICE = mode
                t0 = time.process_time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    clf = PLXClassifier(random_state=s).fit(Xt, yt)
                    pred = clf.predict(Xe)
                f1 = f1_score(ye, pred, average="macro")
                rows.append({"table": key, "split": s, "method": f"plx-{mode}", "f1": f1,
                             "cpu": time.process_time() - t0,
                             "chosen": ",".join(clf.class_chosen_ or [clf.chosen_])})
                print(key, s, mode, f"{f1:.4f}", rows[-1]["chosen"], flush=True)
            yb = np.searchsorted(classes, y.to_numpy())
            for m in baselines:
                t0 = time.process_time()
                model = make(m, s, X.shape[1])
                if m == "CART":
                    model.model.set_params(scoring="f1_macro")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model.fit(Xt, yb[tr])
                    pred = np.asarray(model.predict(Xe)).astype(int)
                f1 = f1_score(yb[te], pred, average="macro")
                rows.append({"table": key, "split": s, "method": m, "f1": f1,
                             "cpu": time.process_time() - t0, "chosen": ""})
                print(key, s, m, f"{f1:.4f}", flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    df = pd.DataFrame(rows)
    print(df.pivot_table(index="table", columns="method", values="f1", aggfunc="mean").round(4).to_string())


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]),
         [m for m in (sys.argv[3] if len(sys.argv) > 3 else "CART,EBM").split(",") if m],
         sys.argv[4] if len(sys.argv) > 4 else "/tmp/multi21_modes.csv")
