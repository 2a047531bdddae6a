"""Fit time of the default `PLXClassifier()` on seeded tables of several classes and on a wide
weak table, now against an older commit and a random forest, in one process: run on demand,
not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice python benchmarks/bench_fit_families.py \
        /tmp/plx_before [FAMILIES] [SPLITS] [REPEAT]

(`-` for /tmp/plx_before: no older commit, the current code and the forest only.)

Families: session 19's `rare_class` (4 classes) and `weak_additive` (40 weak numeric columns)
from `benchmarks/adhoc/unseen19/families.py`, and `products` / `products10` below (9 and 10
classes). Each is fitted as a new user would: `PLXClassifier(random_state=s)` on the raw frame
and text labels, with `positive=` only for two classes; the forest
(`plx_core.baselines`' 100 trees) on the same rows and labels, numeric columns as numbers and
the rest one-hot, as the compare experiment feeds it (and, for a table of several classes
that names the class a user asks for, as session 19's unseen19 run did: that class against
the rest, "forest 2-class"). The older `plx_core` is imported as
`plx_before` (`bench_fit_change.before_estimator`); the three fit interleaved, medians of
`REPEAT` on each of the first `SPLITS` stratified 70/30 splits, in wall-clock and CPU seconds
of this process. The answers are compared too: the chosen model and every row's prediction.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "adhoc", "unseen19"))
sys.path.insert(0, os.path.join(HERE, os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from families import FAMILIES  # noqa: E402
from timing import interleaved_times  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402

DEFAULT = "rare_class,products,weak_additive"


def products(seed: int = 0, n: int = 2000, k: int = 9) -> tuple[pd.DataFrame, pd.Series, None]:
    """A product category of `k` classes (sizes 3%–25%) from price, weight, two sizes, a
    material and a brand: each class its own centre and favoured levels, spread wide enough
    that neighbours overlap (a digits-like table of clusters)."""
    rng = np.random.default_rng(seed)
    share = rng.dirichlet(np.full(k, 1.5))
    share = np.maximum(share, 0.03) / np.maximum(share, 0.03).sum()
    cls = rng.choice(k, n, p=share)
    centre = rng.normal(0, 1.6, (k, 4))
    Z = centre[cls] + rng.normal(size=(n, 4))
    materials, brands = np.array(["wood", "steel", "plastic", "glass", "cotton"]), \
        np.array([f"brand{i}" for i in range(8)])
    fav_m, fav_b = rng.integers(0, 5, k), rng.integers(0, 8, k)
    material = np.where(rng.random(n) < 0.6, fav_m[cls], rng.integers(0, 5, n))
    brand = np.where(rng.random(n) < 0.4, fav_b[cls], rng.integers(0, 8, n))
    X = pd.DataFrame({"price": np.exp(3 + 0.5 * Z[:, 0]).round(2), "weight_kg": (2 + Z[:, 1]).round(2),
                      "width_cm": (40 + 8 * Z[:, 2]).round(1), "height_cm": (30 + 6 * Z[:, 3]).round(1),
                      "material": materials[material], "brand": brands[brand]})
    names = np.array([f"cat{i:02d}" for i in range(k)])
    return X, pd.Series(names[cls]), None


TABLES = {**FAMILIES, "products": products, "products10": lambda seed=0: products(seed, k=10)}


def forest_frame(X: pd.DataFrame) -> pd.DataFrame:
    """Numeric columns as numbers, the rest one-hot (the compare experiment's feeding)."""
    num = X.select_dtypes("number")
    rest = X.drop(columns=num.columns)
    return pd.concat([num, pd.get_dummies(rest.astype(str), dtype=float)], axis=1) if len(
        rest.columns) else num


def same_answers(a, b, X: pd.DataFrame) -> bool:
    """Whether two fits answer alike: the chosen model and its reason (every class's
    out-of-fold F1), each class's candidates' scores and thresholds, ω(POS) and predictions."""
    sels = [(s.scores, s.thresholds) for s in (a.class_selection_ or [a.selection_]) if s], \
        [(s.scores, s.thresholds) for s in (b.class_selection_ or [b.selection_]) if s]
    return (a.chosen_ == b.chosen_ and a.chosen_reason_ == b.chosen_reason_
            and sels[0] == sels[1] and np.array_equal(a.predict_proba(X), b.predict_proba(X))
            and np.array_equal(a.predict(X), b.predict(X)))


def main(root: str, keys: list[str], splits: int, repeat: int) -> None:
    before = None if root == "-" else before_estimator(root)
    print("| table | classes | split | forest fit (wall / CPU) | plx before | plx now | ratio to "
          "forest, wall (before → now) | ratio to forest, CPU (before → now) | same answers |\n"
          "|---|---|---|---|---|---|---|---|---|")
    rows = []
    for key in keys:
        X, y, pos = TABLES[key]()
        y = y.astype(str)
        several = y.nunique() > 2
        Xf = forest_frame(X)
        for s, (tr, _te) in enumerate(StratifiedShuffleSplit(
                splits, test_size=0.3, random_state=0).split(X, y)):
            Xt, yt, Ft = X.iloc[tr], y.iloc[tr], Xf.iloc[tr]
            kw = {} if several else {"positive": pos}
            got = {}

            def plx(cls, name, kw=kw, Xt=Xt, yt=yt, s=s, got=got):
                got[name] = cls(random_state=s, **kw).fit(Xt, yt)

            fns = {"forest": lambda Ft=Ft, yt=yt, s=s: make("Forest", s, Ft.shape[1]).fit(Ft, yt)}
            if several and pos is not None:
                fns["forest 2-class"] = lambda Ft=Ft, yt=yt, s=s, pos=pos: make(
                    "Forest", s, Ft.shape[1]).fit(Ft, yt == pos)
            if before is not None:
                fns["before"] = lambda: plx(before, "before")
            fns["now"] = lambda: plx(PLXClassifier, "now")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = interleaved_times(fns, repeat)
                b, n = got.get("before", got["now"]), got["now"]
                same = same_answers(b, n, X)
            f, tn = t["forest"], t["now"]
            tb = t.get("before", tn)
            rows.append((key, f, tn, t.get("forest 2-class")))
            print(f"| {key} | {y.nunique()} | {s} | {f.wall:.2f} / {f.cpu:.2f} s | {tb.wall:.2f} / "
                  f"{tb.cpu:.2f} s | {tn.wall:.2f} / {tn.cpu:.2f} s | {tb.wall / f.wall:.2f}× → "
                  f"{tn.wall / f.wall:.2f}× | {tb.cpu / f.cpu:.2f}× → {tn.cpu / f.cpu:.2f}× | "
                  f"{'yes' if same else 'NO: ' + n.chosen_ + ' vs ' + b.chosen_} |"
                  + (f" (forest 2-class {t['forest 2-class'].wall:.2f} / "
                     f"{t['forest 2-class'].cpu:.2f} s)" if "forest 2-class" in t else ""),
                  flush=True)
    print("\n| table | plx now / forest, wall (median over splits) | CPU |\n|---|---|---|")
    for key in keys:
        mine = [(n.wall / f.wall, n.cpu / f.cpu) for k, f, n, _b in rows if k == key]
        print(f"| {key} | {np.median([w for w, _c in mine]):.2f}× | "
              f"{np.median([c for _w, c in mine]):.2f}× |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    a = sys.argv[1:] + [None] * 3
    main(a[0], (a[1] or DEFAULT).split(","), int(a[2] or 3), int(a[3] or 3))
