# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on finer bins ("direct-vote bins=8", old → new)";
# kept as it ran (moved from /tmp/fb/exp3.py). Run from the repository root: python benchmarks/adhoc/fb/exp3.py …
import sys, math
exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'exp.py')).read().split("sets = sys.argv")[0])
import plx_core.discretize as D
src = open(D.__file__).read()
# a weaker MDLP stop: the description-length term scaled by FACTOR
ns = {}
code = src[src.index("def mdlp_cuts"):src.index("def _between")].replace(
    "gain <= (math.log2(N - 1) + delta) / N", "gain <= FACTOR * (math.log2(N - 1) + delta) / N")
FACT = {"v": 1.0}
class _F(float): pass
g = dict(D.__dict__); g["math"] = math
exec(code.replace("FACTOR", "FACT['v']"), {**g, "FACT": FACT}, ns)
D.mdlp_cuts = ns["mdlp_cuts"]
import plx_core.vote as VT
sets = sys.argv[1].split(","); runs = int(sys.argv[2]); configs = [c.split(":") for c in sys.argv[3].split(",")]
for s in sets:
    X, y, splits = split_set(s, runs)
    res = {}
    for r, (tr, te) in enumerate(splits):
        Xtr, Xte = X.iloc[tr].reset_index(drop=True), X.iloc[te].reset_index(drop=True)
        for m, b, f in configs:
            FACT["v"] = float(f)
            oof, test, nb = vote_on(Xtr, y[tr], Xte, y[te], m, int(b), r)
            res.setdefault((m, b, f), []).append((oof, test, nb))
    for k, v in res.items():
        a = np.array(v)
        print(s, k, "oof(leaky) %.3f test %.3f bins %.1f" % tuple(a.mean(0)), flush=True)
