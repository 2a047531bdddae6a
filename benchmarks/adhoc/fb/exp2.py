# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on finer bins ("direct-vote bins=8", old → new)";
# kept as it ran (moved from /tmp/fb/exp2.py). Run from the repository root: python benchmarks/adhoc/fb/exp2.py …
import sys
sys.argv = [sys.argv[0]] + sys.argv[1:]
exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'exp.py')).read().split("sets = sys.argv")[0])
import plx_core.vote as VT
sets = sys.argv[1].split(","); runs = int(sys.argv[2]); configs = [c.split(":") for c in sys.argv[3].split(",")]
for s in sets:
    X, y, splits = split_set(s, runs)
    res = {}
    for r, (tr, te) in enumerate(splits):
        Xtr, Xte = X.iloc[tr].reset_index(drop=True), X.iloc[te].reset_index(drop=True)
        for m, b, C in configs:
            VT.cross_fit.__defaults__ = (VT.VOTE_FOLDS, float(C))
            oof, test, nb = vote_on(Xtr, y[tr], Xte, y[te], m, int(b), r)
            res.setdefault((m, b, C), []).append((oof, test))
    for k, v in res.items():
        a = np.array(v)
        print(s, k, "oof %.3f test %.3f" % tuple(a.mean(0)), flush=True)
