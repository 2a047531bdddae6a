"""Whether a change to the fit keeps its answers: the default `PLXClassifier` of an older
`plx_core` and of this one fitted on the same splits of the comparison, in one process, and
compared exactly — the chosen candidate, every candidate's out-of-fold F1 and threshold, the
threshold, and ω(POS) and the decision on the held-out rows — and, where they differ, by the
held-out F1 of the positive class (the comparison's score). Run on demand, not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    python benchmarks/same_answers.py /tmp/plx_before [SETS] [RUNS]

SETS: comma-separated keys (default every set of the comparison); RUNS: "0-9" (default) or
"10-19". Prints one line per set (splits equal / differing, with the first difference, the
mean F1 before and after and the splits better / worse) and exits 1 if any split differs.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_fit_change import before_estimator  # noqa: E402

from plx_core.experiments.compare import SETS, make, plx_max_len, split_set  # noqa: E402


def answers(model, X) -> dict:
    """What a user sees of a fitted model: its choice, its search's scores, its answers."""
    sel = model.selection_
    return {"chosen": model.chosen_, "threshold": float(model.threshold_),
            "scores": None if sel is None else dict(sel.scores),
            "thresholds": None if sel is None else dict(sel.thresholds),
            "proba": np.asarray(model.predict_proba(X)), "pred": np.asarray(model.predict(X))}


def differs(a: dict, b: dict) -> str | None:
    """The first field where two models' answers differ (exactly), or None."""
    for k in a:
        x, y = a[k], b[k]
        same = (np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y)
        if not same:
            return k
    return None


def main(root: str, keys: list[str], runs: range) -> int:
    before = before_estimator(root)
    bad = 0
    for key in keys:
        X, y, splits = split_set(key, runs.stop)
        nf = X.shape[1]
        diff, f1 = [], []
        for r in runs:
            tr, te = splits[r]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                old = before(positive=1, random_state=r, max_len=plx_max_len(nf)).fit(X.iloc[tr], y[tr])
                new = make("plx", r, nf).fit(X.iloc[tr], y[tr]).model_
                where = differs(answers(old, X.iloc[te]), answers(new, X.iloc[te]))
                f1.append([f1_score(y[te], m.predict(X.iloc[te]).astype(int)) for m in (old, new)])
            if where is not None:
                diff.append(f"run {r}: {where} ({old.chosen_} → {new.chosen_})")
        bad += bool(diff)
        a = np.array(f1)
        print(f"{SETS[key].label}: {len(runs) - len(diff)} of {len(runs)} splits the same"
              + (f"; {diff[0]}" + (f" (+{len(diff) - 1} more)" if len(diff) > 1 else "")
                 + f"; F1 {a[:, 0].mean():.4f} → {a[:, 1].mean():.4f}, better on "
                 f"{int((a[:, 1] > a[:, 0] + 1e-9).sum())}, worse on "
                 f"{int((a[:, 1] < a[:, 0] - 1e-9).sum())}" if diff else ""), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sets = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else list(SETS)
    lo, hi = (int(v) for v in (sys.argv[3] if len(sys.argv) > 3 else "0-9").split("-"))
    sys.exit(main(sys.argv[1], sets, range(lo, hi + 1)))
