# Ad hoc script behind benchmarks/RESULTS.md, "Which model the default chose";
# kept as it ran (moved from /tmp/acc3/chosen.py). Run from the repository root: python benchmarks/adhoc/acc3/chosen.py …
import sys, warnings
warnings.simplefilter("ignore")
import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit
from plx_core.experiments.compare import SETS, subsample, plx_max_len
from plx_core.estimator import PLXClassifier
for key in sys.argv[1].split(","):
    X, y, pos = SETS[key].load(); X, y = subsample(X, y, int(sys.argv[2]))
    yb = (y.astype(str).to_numpy() == str(pos)).astype(int)
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(int(sys.argv[3]), test_size=0.3, random_state=0).split(X, yb)):
        c = PLXClassifier(positive=1, random_state=run, max_len=plx_max_len(X.shape[1])).fit(X.iloc[tr], yb[tr])
        print(key, run, c.chosen_, c.threshold_, {k: round(v, 3) for k, v in c.selection_.scores.items()} if c.selection_ else c.chosen_reason_, flush=True)
