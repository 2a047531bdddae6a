"""Fit time of the default `PLXClassifier()` on large generated tables against a random forest,
in one process (issue 11 point 4: within 3× a random forest's fit): run on demand, not by
pytest.

    OMP_NUM_THREADS=1 nice -n 19 python benchmarks/bench_fit_large.py TABLE ROWS[,ROWS…] [REPEAT] [BEFORE]

TABLE: "additive" — 6 normal numbers and 7 five-valued categories, 20% positives from a noisy
additive score (the table a new user tried at 20,000 rows); "wide" — 40 normal numbers, 10%
positives from a noisy score of 8 of them, 5% of the cells missing. The forest is
`RandomForestClassifier(random_state=0, n_jobs=1)` (100 trees) on the one-hot columns (the
numbers as they are, missing ones as 0 and a missing flag), plx the default on the raw frame;
both fit interleaved, medians of REPEAT (default 3), wall-clock and CPU seconds of this
process (`timing.interleaved_times`). BEFORE: the root of an older `plx_core` (`git archive
COMMIT plx_core | tar -x -C DIR`), fitted beside the current one (imported as `plx_before`,
as `bench_fit_change.py` does); its model is checked to be the same — chosen candidate,
threshold, the answering KB's text, predict_proba of 2,000 fresh rows.

    OMP_NUM_THREADS=1 nice -n 19 python benchmarks/bench_fit_large.py scale ROWS[,ROWS…] [EVERY_MAX]

"scale": the default `PLXClassifier()` on the "long" table (6 numbers, 6 categories of 3–40
levels, ~12% positives: the table `plx fit` took 7 minutes on at 200,000 rows) — as it fits
now (above `plx_core.scale.SEARCH_ROWS` rows its search scores the candidates on a stratified
sample and builds the chosen model on every row) and, up to EVERY_MAX rows (default 50,000),
with the search on every row (`SEARCH_ROWS` lifted: the fit before the budget), same
process. Each fit runs in a forked child (so each peak is its own): wall-clock and CPU
seconds, the peak resident memory over the child's start (the table is already there), the
model chosen, its clauses, and its F1 on 20,000 fresh held-out rows (seed 1).
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from timing import interleaved_times  # noqa: E402

from plx_core import PLXClassifier  # noqa: E402

TABLES = ("additive", "wide", "long")


def table(name: str, n: int, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """The generated table `name` with n rows (module docstring), seeded."""
    rng = np.random.default_rng(seed)
    if name == "additive":
        X = pd.DataFrame({f"x{i}": rng.normal(size=n) for i in range(6)})
        for i in range(7):
            X[f"c{i}"] = rng.choice(list("abcde"), n)
        s = (X.x0 + 0.8 * X.x1 - 0.5 * X.x2 + (X.c0 == "a") + 0.7 * (X.c1 == "b")
             + rng.normal(size=n))
        return X, (s > np.quantile(s, 0.8)).to_numpy().astype(int)
    if name == "wide":
        Z = rng.normal(size=(n, 40))
        coef = np.zeros(40)
        coef[:8] = [1.0, -0.8, 0.7, 0.6, -0.5, 0.5, 0.4, -0.3]
        s = Z @ coef + 0.5 * Z[:, 0] * Z[:, 1] + rng.normal(size=n)
        y = (s > np.quantile(s, 0.9)).astype(int)
        Z[rng.random(Z.shape) < 0.05] = np.nan
        return pd.DataFrame(Z, columns=[f"x{i}" for i in range(40)]), y
    if name == "long":
        return long_table(n, seed)
    raise SystemExit(f"unknown table {name!r}: one of {TABLES}")


def long_table(n: int, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """The long table a user brings (issue: `plx fit` at 200,000 rows): 12 columns — 6
    numbers (normal, skewed, ages, a count, two with 3% missing) and 6 categories of 3, 5, 8,
    12, 20 and 40 levels (skewed frequencies) — and a rare-ish label (~8% positives) from two
    terms of a noisy DNF and a weak additive part, seeded."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "income": rng.lognormal(10, 0.6, n).round(0),
        "age": rng.integers(18, 90, n).astype(float),
        "score": rng.normal(600, 80, n).round(1),
        "visits": rng.poisson(3, n).astype(float),
        "ratio": rng.beta(2, 5, n).round(4),
        "temp": rng.normal(0, 1, n).round(3),
    })
    for name, k in (("region", 3), ("plan", 5), ("channel", 8), ("segment", 12),
                    ("product", 20), ("city", 40)):
        p = 1.0 / np.arange(1, k + 1)  # a few common levels and a tail of rare ones
        X[name] = rng.choice([f"{name[:3]}{i}" for i in range(k)], n, p=p / p.sum())
    t1 = (X.age > 60) & (X.plan == "pla1") & (X.score < 620)
    t2 = (X.visits >= 6) & X.channel.isin(["cha2", "cha5"])
    s = 0.6 * (X.ratio > 0.45) + 0.4 * (X.region == "reg2") + 0.3 * rng.normal(size=n)
    y = (t1 | t2 | (s > 1.0)).to_numpy()
    y = np.where(rng.random(n) < 0.03, ~y, y)  # 3% label noise
    for c in ("score", "temp"):
        X.loc[rng.random(n) < 0.03, c] = np.nan
    return X, y.astype(int)


def one_hot(X: pd.DataFrame) -> pd.DataFrame:
    """The forest's columns: numbers as they are (missing: 0 and a flag), categories one-hot."""
    num = X.select_dtypes("number")
    flags = num.isna().add_suffix("_missing").loc[:, num.isna().any().to_numpy()]
    cat = X.select_dtypes(exclude="number")
    parts = [num.fillna(0.0), flags.astype(float)]
    return pd.concat(parts + ([pd.get_dummies(cat, dtype=float)] if cat.shape[1] else []), axis=1)


def model_of(clf) -> tuple:
    """What must not change: chosen candidate, threshold, the answering KB's text."""
    return clf.chosen_, clf.threshold_, clf.kb_.to_text()


def main(name: str, sizes: list[int], repeat: int, before_root: str | None) -> None:
    from sklearn.ensemble import RandomForestClassifier

    before = before_estimator(before_root) if before_root else None
    head = "| rows | forest fit (wall / CPU) | plx" + (" before | plx now" if before else "")
    print(head + " | ratio to forest, wall | ratio to forest, CPU | chosen |"
          + (" same model |" if before else ""))
    for n in sizes:
        X, y = table(name, n)
        Xe = one_hot(X)
        fresh, _ = table(name, 2000, seed=1)
        fitted: dict = {}
        fns = {"forest": lambda Xe=Xe, y=y: RandomForestClassifier(
            random_state=0, n_jobs=1).fit(Xe, y)}
        if before is not None:
            fns["before"] = lambda X=X, y=y, fitted=fitted: fitted.__setitem__(
                "before", before(positive=1, random_state=0).fit(X, y))
        fns["now"] = lambda X=X, y=y, fitted=fitted: fitted.__setitem__(
            "now", PLXClassifier(positive=1, random_state=0).fit(X, y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = interleaved_times(fns, repeat)
        f, now = t["forest"], t["now"]
        chosen = fitted["now"].chosen_
        if before is not None:
            b = t["before"]
            same = (model_of(fitted["before"]) == model_of(fitted["now"]) and np.array_equal(
                fitted["before"].predict_proba(fresh), fitted["now"].predict_proba(fresh)))
            print(f"| {n:,} | {f.wall:.2f} / {f.cpu:.2f} s | {b.wall:.2f} / {b.cpu:.2f} s | "
                  f"{now.wall:.2f} / {now.cpu:.2f} s | {b.wall / f.wall:.1f}× → "
                  f"{now.wall / f.wall:.1f}× | {b.cpu / f.cpu:.2f}× → {now.cpu / f.cpu:.2f}× | "
                  f"{chosen} | {'yes' if same else 'NO'} |", flush=True)
        else:
            print(f"| {n:,} | {f.wall:.2f} / {f.cpu:.2f} s | {now.wall:.2f} / {now.cpu:.2f} s | "
                  f"{now.wall / f.wall:.1f}× | {now.cpu / f.cpu:.2f}× | {chosen} |", flush=True)


def _fit_in_child(X: pd.DataFrame, y: np.ndarray, test: tuple, every: bool) -> dict:
    """One default fit in a forked child: times, peak RSS over its start, chosen, F1."""
    import multiprocessing as mp
    import resource
    import time

    def rss_now() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def run(conn) -> None:
        from sklearn.metrics import f1_score

        from plx_core import scale

        if every:
            scale.SEARCH_ROWS = 10**12
        start = rss_now()
        w, c = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = PLXClassifier(positive=1, random_state=0).fit(X, y)
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f1 = f1_score(test[1], clf.predict(test[0]))
        conn.send({"wall": wall, "cpu": cpu, "peak": max(peak - start, 0), "chosen": clf.chosen_,
                   "clauses": len(clf.kb_), "f1": f1, "searched": clf.search_rows_,
                   "threshold": clf.threshold_})

    ctx = mp.get_context("fork")
    a, b = ctx.Pipe()
    p = ctx.Process(target=run, args=(b,))
    p.start()
    got = a.recv()
    p.join()
    return got


def scale_main(sizes: list[int], every_max: int) -> None:
    """The "scale" table of the module docstring."""
    from plx_core import scale

    test = table("long", 20_000, seed=1)
    print(f"search budget SEARCH_ROWS = {scale.SEARCH_ROWS:,}; held out: 20,000 fresh rows")
    print("| rows | search on | fit wall / CPU | peak memory over the table | chosen | clauses "
          "| threshold | held-out F1 |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        X, y = table("long", n)
        for every in ((True, False) if n <= every_max else (False,)):
            r = _fit_in_child(X, y, test, every)
            on = "every row" if r["searched"] is None else f"{r['searched']:,}-row sample"
            print(f"| {n:,} | {on} | {r['wall']:.1f} / {r['cpu']:.1f} s | "
                  f"{r['peak'] / 2**20:,.0f} MB | {r['chosen']} | {r['clauses']:,} | "
                  f"{r['threshold']:g} | {r['f1']:.3f} |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "scale":
        scale_main([int(s) for s in sys.argv[2].split(",")],
                   int(sys.argv[3]) if len(sys.argv) > 3 else 50_000)
        sys.exit(0)
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], [int(s) for s in sys.argv[2].split(",")],
         int(sys.argv[3]) if len(sys.argv) > 3 else 3, sys.argv[4] if len(sys.argv) > 4 else None)
