"""Batch answers and wide tables: run on demand (`python3 benchmarks/bench_batch.py [--quick]
[--write]`), not by pytest. Every figure is a median over repeats; every ratio compares against
a baseline run in the same process, interleaved with ours, so machine load shifts both alike.

(a) predict with the full Syn 10/4 Direct KB (3,000 rows, 1.16 M clauses) on 10^5 rows:
    `query_many` on every core (threads) and on one; baselines: a loop of `query` (on a
    sample, per row) and the previous batch path (one global argsort over rows × 1,023 keys,
    reproduced below); the peak traced memory of the 10^5-row call; and a process pool of the
    same size (the KB shipped to each worker) to justify threads.
(b) predict at 30 features (random 4-valued table, 2,000 training rows), 10^4 rows: a Direct
    KB with max_len 3, the default classifier's KB and a Tree KB, against the same call with
    the counted medians off and a loop of `query`; and `plx predict` of a `.npz` model,
    model load included.
(c) interactive work at 30 features: one query, a k = 2 explanation, evidence, sampled Shapley
    values (and, as baseline, the same values with every coalition answered on its own) and a
    one-change counterfactual, on the Direct KB (max_len 3) and the Tree KB.
(d) explanations of many rows at 30 features: `explain_many` against a loop of `explain`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import os
import platform
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_engine import NumpyClosedForm  # noqa: E402
from timing import fmt, interleaved, timed, write_section  # noqa: E402

from plx_core import direct_kb, explain, explain_many, query
from plx_core.datasets import synthetic
from plx_core.explain import counterfactual, evidence, shapley
from plx_core.median import weighted_median_intervals
from plx_core.query import encode_rows, query_many
from plx_core.tree import tree_kb

TITLE = "## Batch answers and wide tables (plx_core.query, index, median)"


def report(lines: list[str], line: str) -> None:
    print(line)
    sys.stdout.flush()
    lines.append(line)


# --------------------------------------------------------------------------- the old path


class OldBatch(NumpyClosedForm):
    """The batch path before issue 10 (bench_engine's bit-packed sorted keys; every row's 1,023
    subset keys in one matrix, one global argsort, `searchsorted`, then the two-argsort
    weighted medians)."""

    def __init__(self, kb):
        super().__init__(kb)
        self.kb = kb

    def bounds(self, X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        codes = encode_rows(self.kb, X)
        keys = (((codes + 1) << self.shifts[None, :]) @ self.member.T).ravel()
        order = np.argsort(keys, kind="stable")
        sk = keys[order]
        pos = np.minimum(np.searchsorted(self.keys, sk), len(self.keys) - 1)
        hit = np.flatnonzero(self.keys[pos] == sk)
        qid = order[hit] // len(self.member)
        t = self.target[pos[hit]]
        return weighted_median_intervals(qid, t, np.ones(len(t)), len(codes))


# --------------------------------------------------------------------------- helpers


def wide_table(n_rows: int, n_features: int = 30, seed: int = 0):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 4, (n_rows, n_features))
    y = ((codes[:, 0] == 1) ^ (codes[:, 3] > 1) | (codes[:, 7] == 0)).astype(int)
    return pd.DataFrame(codes.astype(str), columns=[f"f{i}" for i in range(n_features)]), y


_KB = None


def _init(kb) -> None:
    global _KB
    _KB = kb


def _part(X: pd.DataFrame):
    return query_many(_KB, X, n_jobs=1).lower


def process_pool(kb, X: pd.DataFrame, workers: int) -> np.ndarray:
    """The same batch on `workers` processes, the KB shipped to each (the alternative to
    threads)."""
    parts = np.array_split(np.arange(len(X)), workers)
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(kb,)) as pool:
        out = list(pool.map(_part, [X.iloc[p] for p in parts]))
    return np.concatenate(out)


def peak_mb(fn) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


# --------------------------------------------------------------------------- sections


def section_a(lines: list[str], quick: bool) -> None:
    n_rows = 20_000 if quick else 100_000
    n_ratio = 5_000 if quick else 10_000
    ds = synthetic(10, 4, 3000, seed=0)
    kb = direct_kb(ds.X, ds.y, positive=ds.positive)
    t_index = timed(kb.index)
    X = synthetic(10, 4, n_rows, seed=1, unique=False).X
    Xr = X.iloc[:n_ratio]
    sample_rows = X.iloc[:200].to_dict("records")
    old = OldBatch(kb)
    cores = os.cpu_count() or 1
    report(lines, f"\n### (a) predict, full Syn 10/4 Direct KB ({kb.n_learned:,} clauses, "
                  f"index `{kb.index().mode}` built in {fmt(t_index)}), {cores} cores\n")
    t = interleaved({
        "threads": lambda: query_many(kb, Xr),
        "one": lambda: query_many(kb, Xr, n_jobs=1),
        "old": lambda: old.bounds(Xr),
        "loop": lambda: [query(kb, r) for r in sample_rows],
    }, 3)
    t["procs"] = timed(lambda: process_pool(kb, Xr, cores))
    per = {k: v / (len(sample_rows) if k == "loop" else n_ratio) for k, v in t.items()}
    a, b = query_many(kb, X.iloc[:2000]), old.bounds(X.iloc[:2000])
    assert np.array_equal(a.lower, b[0]) and np.array_equal(a.upper, b[1])
    report(lines, f"Medians of 3 interleaved runs over the same {n_ratio:,} rows (the loop: "
                  f"{len(sample_rows)} rows; processes: one run):\n")
    report(lines, "| | rows/s | time per row | vs ours (threads) |")
    report(lines, "|---|---|---|---|")
    names = {
        "threads": f"`query_many` on {cores} threads (default)",
        "one": "`query_many(n_jobs=1)`",
        "procs": f"`query_many` split over {cores} processes (KB shipped to each)",
        "old": "previous batch path (one global argsort over rows × 1,023 keys)",
        "loop": "a loop of `query`",
    }
    for k in ("threads", "one", "procs", "old", "loop"):
        report(lines, f"| {names[k]} | {1 / per[k]:,.0f} | {fmt(per[k])} | "
                      f"{per[k] / per['threads']:.2f}× |")
    big = timed(lambda: query_many(kb, X))
    mem = peak_mb(lambda: query_many(kb, X))
    report(lines, f"\n{n_rows:,} rows in one call: {fmt(big)} ({n_rows / big:,.0f} rows/s); peak "
                  f"traced memory {mem:,.0f} MB (chunks of ≤ 2^20 lookups; the previous path "
                  f"grew ~115 KB a row: ~{115 * n_rows / 1024:,.0f} MB). Same answers as the "
                  "previous path (checked on 2,000 rows).")


def _counting(on: bool) -> None:
    """Switch the counted-median path of `query_many` on or off (off: the partition / weighted
    median path every chunk took before, the baseline of (b))."""
    Q = sys.modules["plx_core.query"]
    Q.COUNT_VALUES, Q.COUNT_VALUES_RULES = (0.5, 8) if on else (0, 0)


def _cli_predict(model: str, csv: str, out: str) -> None:
    from plx_core.cli import main as cli_main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert cli_main(["predict", model, csv, "--out", out]) == 0


def section_b(lines: list[str], quick: bool) -> None:
    import tempfile
    from pathlib import Path

    from plx_core import PLXClassifier
    from plx_core.cli import main as cli_main

    n_rows = 2_000 if quick else 10_000
    X, y = wide_table(2000)
    Xt, _ = wide_table(n_rows, seed=1)
    clf = PLXClassifier(variant="tuned").fit(X, y)
    kbs = {"Direct, max_len 3": direct_kb(X, y, max_len=3),
           "`PLXClassifier(variant=\"tuned\")` (3-clauses + prior rule)": clf.kbs_[0],
           "Tree (leaves)": tree_kb(X, y)}
    report(lines, f"\n### (b) predict at 30 features (2,000 training rows), {n_rows:,} rows\n")
    report(lines, "Medians of 3 interleaved runs; *before*: the same call with the counted "
                  "medians switched off (each chunk partitioned or sorted, as before this "
                  "change).\n")
    report(lines, "| KB | clauses | index | rows/s | before: rows/s | a loop of `query`: rows/s "
                  "| vs before | vs the loop |")
    report(lines, "|---|---|---|---|---|---|---|---|")
    sample = Xt.iloc[:200].to_dict("records")
    for name, kb in kbs.items():
        kb.index()
        a = query_many(kb, Xt)
        _counting(False)
        b = query_many(kb, Xt)
        _counting(True)
        assert np.array_equal(a.lower, b.lower) and np.array_equal(a.upper, b.upper)

        def before(kb=kb):
            _counting(False)
            try:
                query_many(kb, Xt)
            finally:
                _counting(True)

        t = interleaved({"ours": lambda kb=kb: query_many(kb, Xt), "before": before,
                         "loop": lambda kb=kb: [query(kb, r) for r in sample]}, 3)
        ours, old, loop = n_rows / t["ours"], n_rows / t["before"], len(sample) / t["loop"]
        report(lines, f"| {name} | {kb.n_learned:,} | {kb.index().mode} | {ours:,.0f} | "
                      f"{old:,.0f} | {loop:,.0f} | {ours / old:.1f}× | {ours / loop:.1f}× |")
    with tempfile.TemporaryDirectory() as tmp:
        train, test = Path(tmp) / "train.csv", Path(tmp) / "test.csv"
        X.assign(label=y).to_csv(train, index=False)
        Xt.to_csv(test, index=False)
        model, out = str(Path(tmp) / "model.npz"), str(Path(tmp) / "p.csv")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert cli_main(["fit", str(train), "--label", "label", "--variant", "tuned",
                             "--out", model]) == 0

        def before_cli():
            _counting(False)
            try:
                _cli_predict(model, str(test), out)
            finally:
                _counting(True)

        t = interleaved({"ours": lambda: _cli_predict(model, str(test), out),
                         "before": before_cli}, 3)
        size = Path(model).stat().st_size / 2**20
    report(lines, f"\n`plx predict model.npz test.csv` in this process — the tuned model "
                  f"({size:.0f} MB npz) loaded, its index built, the CSV read, answered and "
                  f"written: {fmt(t['ours'])} for {n_rows:,} rows (**{n_rows / t['ours']:,.0f} "
                  f"rows/s including the model load**; before: {fmt(t['before'])}, "
                  f"{t['before'] / t['ours']:.1f}× slower). A fresh process adds Python's "
                  "imports (~2 s, mostly scikit-learn and cvxpy).")


def _each_coalition(kb, q):
    """Sampled Shapley values with every coalition answered on its own (the path before the
    coalitions were grown along the permutations): the baseline of (c)."""
    E = sys.modules["plx_core.explain"]
    chain = E._SubQueries.chain_values
    E._SubQueries.chain_values = lambda self, perms: None
    try:
        return shapley(kb, q)
    finally:
        E._SubQueries.chain_values = chain


def section_c(lines: list[str], quick: bool) -> None:
    X, y = wide_table(2000)
    kbs = {"Direct, max_len 3": direct_kb(X, y, max_len=3), "Tree (leaves)": tree_kb(X, y)}
    qs = [X.iloc[i].to_dict() for i in range(3 if quick else 5)]
    report(lines, "\n### (c) one instance at 30 features (median over "
                  f"{len(qs)} instances; targets: query ≤ 100 ms, k = 2 explanation ≤ 2 s)\n")
    report(lines, "| KB | query | explain k=2 | evidence | Shapley (256 permutations) | "
                  "Shapley, each coalition on its own (before) | counterfactual (1 change) |")
    report(lines, "|---|---|---|---|---|---|---|")
    for name, kb in kbs.items():
        kb.index()
        for q in qs:
            assert shapley(kb, q).to_dict() == _each_coalition(kb, q).to_dict()
        cells = []
        for fn in (query, lambda kb, q: explain(kb, q, k=2), evidence, shapley, _each_coalition,
                   lambda kb, q: counterfactual(kb, q, max_changes=1)):
            cells.append(fmt(float(np.median(
                [timed(lambda fn=fn, q=q, kb=kb: fn(kb, q)) for q in qs]))))
        report(lines, f"| {name} | " + " | ".join(cells) + " |")
    report(lines, "\nShapley values: the same values both ways (checked on every instance).")


def section_d(lines: list[str], quick: bool) -> None:
    n_rows = 64 if quick else 256
    X, y = wide_table(2000)
    rows = wide_table(n_rows, seed=3)[0]
    rows = pd.concat([rows, rows.iloc[: n_rows // 8]], ignore_index=True)  # some asked twice
    kbs = {"Direct, max_len 3": direct_kb(X, y, max_len=3), "Tree (leaves)": tree_kb(X, y)}
    report(lines, f"\n### (d) k = 2 explanations of {len(rows):,} rows at 30 features "
                  f"({n_rows // 8} of them asked twice), one run each\n")
    report(lines, "| KB | `explain_many` | rows/s | a loop of `explain` | rows/s | ratio |")
    report(lines, "|---|---|---|---|---|---|")
    recs = rows.to_dict("records")
    for name, kb in kbs.items():
        kb.index()
        many = explain_many(kb, rows, k=2)
        loop = [explain(kb, r, k=2) for r in recs]
        assert [e.to_dict() for e in many] == [e.to_dict() for e in loop]
        t = interleaved({"many": lambda kb=kb: explain_many(kb, rows, k=2),
                         "loop": lambda kb=kb: [explain(kb, r, k=2) for r in recs]}, 1)
        report(lines, f"| {name} | {fmt(t['many'])} | {len(rows) / t['many']:,.0f} | "
                      f"{fmt(t['loop'])} | {len(rows) / t['loop']:,.0f} | "
                      f"{t['loop'] / t['many']:.1f}× |")
    report(lines, "\nSame explanations both ways (checked). `explain_many` explains a repeated "
                  "row once; under the full semantics (the Tree KB) it answers each sub-query "
                  "once for all rows; under the relevant semantics (the Direct KB) each row's "
                  "full query goes to threads, then a chunk's rows are scored and ranked "
                  "together (`plx_core.explain_batch`).")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="abcd")
    ap.add_argument("--write", action="store_true", help="record in benchmarks/RESULTS.md")
    args = ap.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines: list[str] = []
    cmd = "python3 benchmarks/bench_batch.py" + (" --quick" if args.quick else "") + \
        (f" --only {args.only}" if args.only != "abcd" else "")
    started = time.strftime("%H:%M")
    for s in args.only:
        {"a": section_a, "b": section_b, "c": section_c, "d": section_d}[s](lines, args.quick)
    if args.write:
        head = [TITLE, "",
                f"Command: `{cmd}`, run {dt.date.today()} {started} on {os.cpu_count()} cores "
                f"(load average {load:.1f} at the start: the machine was shared), Python "
                f"{platform.python_version()}, numpy {np.__version__}. Ratios compare with "
                "baselines run interleaved in the same process.", ""]
        write_section(TITLE, "\n".join(head + lines) + "\n")


if __name__ == "__main__":
    main()
