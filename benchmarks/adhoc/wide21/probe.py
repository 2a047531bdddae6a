"""Every model family the default search scores, built and tested on each split (one search a split).

python benchmarks/adhoc/wide21/probe.py FAMILY RUNS OUT.csv [BASELINES]
Run r fits on the family's own table drawn with seed 1000 + r (its default rows, all for
training) and tests on `TEST_ROWS` new rows of the same draw: the test F1 then measures the model
a small table gives, not the few test rows' luck (the 60-row table's 18 test rows moved F1 by
±0.15). One row per run and family: its best candidate's out-of-fold score (as `selection.choose`
compares them, offsets included), its test F1, and whether the default's choice is that family;
choice rules (margins, fewer families) are then replayed offline from these rows (table.py).
"""
import copy
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.progress import silent  # noqa: E402

TEST_ROWS = 2000
FAMS = ("direct", "direct-conf", "tree-all", "tree-bin-deep", "direct-vote", "rule-vote")


class Probe(PLXClassifier):
    def _select(self, frame, labels, raw, progress=silent, adopt=True):
        search = super()._select(frame, labels, raw, progress, adopt=False)
        self.alts_ = {}
        if search is None:
            return None
        for fam in FAMS:
            sel = search.choose(fam)
            if sel is None:
                continue
            alt = copy.deepcopy(self)
            alt._adopt(sel, frame, labels, raw, search.votes, search.pairs)
            self.alts_[fam] = (alt, sel.scores[sel.key] if sel.key in sel.scores else np.nan)
        sel = search.choose()
        self._adopt(sel, frame, labels, raw, search.votes, search.pairs)
        return None


def main(argv):
    from plx_core.experiments.compare import make

    fam, k, out = argv[1], int(argv[2]), Path(argv[3])
    base = argv[4].split(",") if len(argv) > 4 else ["CART", "EBM", "FIGS", "RuleFit", "Forest"]
    gen = FAMILIES[fam]
    n = gen.__defaults__[1]  # the family's own rows
    rows = []
    for run in range(k):
        X, y, pos = gen(seed=1000 + run, n=n + TEST_ROWS)
        yb = (y.astype(str).str.strip().str.casefold() == pos).to_numpy().astype(int)
        tr, te = np.arange(n), np.arange(n, n + TEST_ROWS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.process_time()
            m = Probe(positive=pos, random_state=run).fit(X.iloc[tr], y.iloc[tr])
            cpu = time.process_time() - t0

            def f1(model, X=X, yb=yb, te=te, pos=pos):
                return f1_score(yb[te], (np.asarray(model.predict(X.iloc[te])).astype(str) == pos)
                                .astype(int), zero_division=0)

            chosen = m.selection_.key if m.selection_ is not None else m.chosen_
            rows.append({"family": fam, "run": run, "model": "default", "oof": np.nan,
                         "f1": f1(m), "chosen": chosen, "cpu_s": cpu, "n": n})
            for name, (alt, score) in m.alts_.items():
                alt.kb_, alt._class_str = alt.kbs_[0], m._class_str
                rows.append({"family": fam, "run": run, "model": name, "oof": score,
                             "f1": f1(alt), "chosen": chosen, "cpu_s": np.nan, "n": n})
            for b in base:
                t0 = time.process_time()
                model = make(b, run, X.shape[1]).fit(X.iloc[tr], yb[tr])
                cpu = time.process_time() - t0
                pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                rows.append({"family": fam, "run": run, "model": b, "oof": np.nan,
                             "f1": f1_score(yb[te], pred, zero_division=0), "chosen": "",
                             "cpu_s": cpu, "n": n})
        print(fam, run, chosen, " ".join(f"{r['model']}={r['f1']:.3f}/{r['oof']:.3f}"
                                         for r in rows if r["run"] == run), flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main(sys.argv)
