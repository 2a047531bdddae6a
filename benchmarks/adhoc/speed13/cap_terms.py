"""Capture learn_terms calls of default fits on sets (pickled args) to /tmp/speed13/terms_calls.pkl."""
import sys, warnings, pickle
from plx_core.experiments.compare import make, split_set, SETS
import plx_core.terms as TM
calls = []
orig = TM.learn_terms
def lt(*a, **k):
    calls.append((a, k))
    return orig(*a, **k)
TM.learn_terms = lt
sets = sys.argv[1].split(",")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
for key in sets:
    X, yb, splits = split_set(key, runs, 1000)
    for tr, _ in splits:
        Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            make("plx", 0, nf).fit(Xt, yt)
    print(key, len(calls), flush=True)
pickle.dump(calls, open(sys.argv[3] if len(sys.argv) > 3 else "/tmp/speed13/terms_calls.pkl", "wb"))
