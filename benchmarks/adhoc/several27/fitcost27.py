"""The default several-class fit now against an older `plx_core` and a 100-tree forest, in
one process, on every several-class table of benchmarks/adhoc/multi2*/ and several26/
(`tables27`): per table and split the CPU seconds of the three fits (interleaved, medians of
REPEAT), each plx fit's CPU over the forest's, and whether the two plx fits answer alike —
predict, predict_proba and bounds on the held-out rows, the chosen family, its reason and
every class's candidates' scores (`bench_fit_families.same_answers`, with bounds) (several27).

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/several27/fitcost27.py /tmp/plx_before TABLES SPLITS [REPEAT] OUT.csv
"""
from __future__ import annotations

import os
import sys
import warnings

import pandas as pd

from plx_core.estimator import PLXClassifier  # (CODE's, imported before the paths below)
from plx_core.experiments.compare import make

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from bench_fit_families import forest_frame, same_answers  # noqa: E402
from tables27 import TABLES, splits  # noqa: E402
from timing import interleaved_times  # noqa: E402


def alike(a, b, X) -> bool:
    """`same_answers`, and the same bounds of every class on the rows."""
    return same_answers(a, b, X) and a.bounds(X).equals(b.bounds(X))


def main(root: str, keys: list[str], n: int, repeat: int, out: str) -> None:
    before = before_estimator(root)
    rows = []
    for key in keys:
        X, y, _ = TABLES[key]()
        y = y.astype(str)
        F = forest_frame(X)
        for s, (tr, te) in enumerate(splits(y, n)):
            got = {}

            def plx(cls, name, s=s, tr=tr, got=got, X=X, y=y):
                got[name] = cls(random_state=s).fit(X.iloc[tr], y.iloc[tr])

            fns = {"forest": lambda s=s, tr=tr, F=F, y=y: make("Forest", s, F.shape[1]).fit(
                F.iloc[tr], y.iloc[tr]),
                "before": lambda: plx(before, "before"), "now": lambda: plx(PLXClassifier, "now")}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = interleaved_times(fns, repeat)
                same = alike(got["before"], got["now"], X.iloc[te])
            f = t["forest"].cpu
            rows.append({"table": key, "classes": y.nunique(), "split": s, "forest_cpu": f,
                         "before_cpu": t["before"].cpu, "now_cpu": t["now"].cpu,
                         "ratio_before": t["before"].cpu / f, "ratio_now": t["now"].cpu / f,
                         "same": same, "chosen": got["now"].chosen_})
            print(rows[-1], flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    df = pd.DataFrame(rows)
    print(df.groupby("table", sort=False).agg(
        splits=("split", "size"), before=("ratio_before", "median"), now=("ratio_now", "median"),
        cpu_change=("now_cpu", "sum"), same=("same", "all")).round(2).to_string())
    print("CPU now / before, all fits:", round(df.now_cpu.sum() / df.before_cpu.sum(), 3))


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], a[1].split(","), int(a[2]), int(a[3]) if len(a) > 4 else 1, a[-1])
