# Ad hoc script behind benchmarks/RESULTS.md, "Fitted vote weights on the one-feature clauses in the search ("direct-vote", old → new)";
# kept as it ran (moved from /tmp/add/exp3.py). Run from the repository root: python benchmarks/adhoc/add/exp3.py …
import sys, numpy as np
from scipy.optimize import minimize
from scipy import sparse
from lib import *
from sklearn.metrics import f1_score

def votes(d, loo, hi):
    r, c, p, sup, n = terms(d, loo)
    L = d["kb"].lengths[c]
    k = L <= hi
    r, c, p = r[k], c[k], p[k]
    s = np.sign(p - 0.5)
    return sparse.csr_matrix((s, (r, c)), shape=(n, d["kb"].n_learned))

def fit_nnlr(S, y, C, sw):
    n, m = S.shape
    yy = 2 * y - 1
    def f(wb):
        w, b = wb[:-1], wb[-1]
        z = yy * (S @ w + b)
        l = np.logaddexp(0, -z)
        g = -sw * yy * (1 / (1 + np.exp(z)))
        loss = (sw * l).sum() + 0.5 / C * (w @ w)
        grad = np.concatenate([S.T @ g + w / C, [g.sum()]])
        return loss, grad
    x0 = np.zeros(m + 1)
    bounds = [(0, None)] * m + [(None, None)]
    res = minimize(f, x0, jac=True, method="L-BFGS-B", bounds=bounds, options=dict(maxiter=500))
    return res.x[:-1], res.x[-1]

sets = sys.argv[1].split(","); runs = int(sys.argv[2])
for key in sets:
    rows = {}
    for run in range(runs):
        d = get(key, run); y = d["ytr"]
        sw = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
        for hi in (1, 2):
            Str, Ste = votes(d, True, hi), votes(d, False, hi)
            used = np.flatnonzero(np.asarray(abs(Str).sum(0)).ravel() > 0)
            Str, Ste = Str[:, used], Ste[:, used]
            for C in (0.1, 1, 10):
                w, b = fit_nnlr(Str, y, C, sw)
                sc = Ste @ w + b
                tr = Str @ w + b
                f = f1_score(d["yte"], sc > 0)
                rows.setdefault(f"L{hi} C{C}", []).append((f, f1_score(y, tr > 0), (w > 1e-9).sum()))
    print("==", key)
    for k, v in rows.items():
        a = np.array(v); print(f"{k:10s} test {a[:,0].mean():.3f} train(loo-signs) {a[:,1].mean():.3f} nonzero {a[:,2].mean():.0f}")
