# Where a default fit spends its CPU seconds, by part (wrapped functions; RESULTS.md, session 10).
# usage: PYTHONPATH=. python benchmarks/adhoc/speed2/parts.py SET [FITS]
import sys, time, warnings, functools, collections, statistics
sys.path.insert(0, '.')
from plx_core.experiments.compare import make, split_set
import plx_core.estimator as E, plx_core.direct as D, plx_core.variants as V, plx_core.vote as VT, plx_core.selection as S, plx_core.tree as T, plx_core.query as Q, plx_core.weighting as W, plx_core.data as DA
acc = collections.defaultdict(float)
depth = [0]
def wrap(mod, name, label=None):
    f = getattr(mod, name)
    label = label or f"{mod.__name__.split('.')[-1]}.{name}"
    @functools.wraps(f)
    def g(*a, **k):
        t = time.process_time()
        try: return f(*a, **k)
        finally: acc[label] += time.process_time() - t
    setattr(mod, name, g)
C = E.PLXClassifier
for n in ["_build", "_select", "_leave_out", "_tree_kbs", "_rule_vote", "_vote", "_fine_vote", "_cut_optimism", "_pair_vote", "_direct_loo", "_corrected", "_tuned"]:
    wrap(C, n, "est." + n)
wrap(E, "direct_kb_with_reason"); wrap(E, "encode_query_rows"); wrap(V, "weighted_class_kb"); wrap(V, "tune")
wrap(V, "bounds_by_max_len"); wrap(T, "tree_rows"); wrap(T, "build_trees"); wrap(T, "trees_to_kb"); wrap(T, "path_clauses"); wrap(T, "prune_alphas")
wrap(D, "count_rows"); wrap(D, "kb_from_counts"); wrap(E, "label_copy"); wrap(E, "Discretizer")
wrap(S, "choose")
key = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 5
X, yb, ((tr, _),) = split_set(key, 1, 1000)
Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
warnings.simplefilter("ignore")
make("plx", 0, nf).fit(Xt, yt); acc.clear()
tot = []
for _ in range(n):
    t = time.process_time(); make("plx", 0, nf).fit(Xt, yt); tot.append(time.process_time() - t)
print(key, "fit CPU median", round(statistics.median(tot), 3), "mean", round(sum(tot)/n, 3))
for k, v in sorted(acc.items(), key=lambda kv: -kv[1]):
    print(f"  {k:32s} {v/n*1000:7.1f} ms")
