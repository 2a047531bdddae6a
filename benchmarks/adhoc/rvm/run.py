# Ad hoc script behind benchmarks/RESULTS.md, "The rule vote: tree path clauses with fitted vote weights in the search ("rule-vote", old → new)";
# kept as it ran (moved from /tmp/rvm/run.py). Run from the repository root: python benchmarks/adhoc/rvm/run.py …
"""Per (set, run): the default's test F1 with "rule-vote" (new) and, where it answers, without
it (old = main's search); appends CSV lines to $RVM_LOG (default ./rvm_log.csv); skips (set, run) done."""
import os, sys, time, warnings, numpy as np
warnings.simplefilter("ignore")
from sklearn.metrics import f1_score
from plx_core.experiments.compare import split_set, make
import plx_core.selection as S
LOG = os.environ.get("RVM_LOG", "rvm_log.csv")  # was /tmp/rvm/log.csv
done = set()
if os.path.exists(LOG):
    for line in open(LOG):
        k, r = line.split(",")[:2]; done.add((k, int(r)))
keys = sys.argv[1].split(","); runs = range(int(sys.argv[2]), int(sys.argv[3]))
for key in keys:
    X, y, splits = split_set(key, max(runs) + 1, 1000)
    for run in runs:
        if (key, run) in done:
            continue
        tr, te = splits[run]
        m = make("plx", run, X.shape[1]); t = time.process_time(); m.fit(X.iloc[tr], y[tr]); dt = time.process_time() - t
        f_new = f1_score(y[te], m.predict(X.iloc[te]))
        clf = m.model_
        sc = clf.selection_.scores if clf.selection_ is not None else {}
        f_old, old_chosen = f_new, clf.chosen_
        if clf.chosen_ == "rule-vote":
            c = S.CANDIDATES; S.CANDIDATES = tuple(x for x in c if x != "rule-vote")
            try:
                o = make("plx", run, X.shape[1]); o.fit(X.iloc[tr], y[tr])
            finally:
                S.CANDIDATES = c
            f_old, old_chosen = f1_score(y[te], o.predict(X.iloc[te])), o.model_.chosen_
        with open(LOG, "a") as fh:
            fh.write(f"{key},{run},{f_old:.6f},{f_new:.6f},{clf.chosen_},{old_chosen},{sc.get('rule-vote', float('nan')):.4f},{clf.kb_.n_learned},{dt:.3f}\n")
