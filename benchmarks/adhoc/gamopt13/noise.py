"""Ad hoc (gamopt13): the smooth vote on tables of pure noise (equal-frequency bins, no
column tells anything): its out-of-fold AUC must not exceed 0.5.

    python benchmarks/adhoc/gamopt13/noise.py COLUMNS RATE [base|nopool|l1=X] [TABLES]
"""
import sys, numpy as np
import plx_core.vote as VT, plx_core.selection as S
from sklearn.metrics import roc_auc_score
from plx_core.weighting import *  # noqa
ncol, nb, n, rate = int(sys.argv[1]), 32, 700, float(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "base"
import plx_core.variants as V
def cw_of(y):
    return V.balanced_weights(int(np.sum(y)), len(y))
def _old(y):
    y = np.asarray(y); p = y.mean(); return (0.5 / p, 0.5 / (1 - p))
sizes = [nb] * ncol
orders = {j: np.arange(nb) for j in range(ncol)}
pairs = VT.adjacent_slots(sizes, orders)
smooth = (pairs, VT.FINE_SMOOTH, VT.pool_matrix(nb * ncol, pairs, VT.FINE_POOL))
if mode == "nopool": smooth = (pairs, VT.FINE_SMOOTH, None)
aucs, f1s = [], []
for seed in range(int(sys.argv[4]) if len(sys.argv) > 4 else 10):
    g = np.random.default_rng(seed)
    codes = np.argsort(np.argsort(g.random((n, ncol)), axis=0), axis=0) * nb // n  # equal-frequency bins
    y = np.zeros(n, int); y[g.choice(n, int(rate * n), replace=False)] = 1
    vs = VT.value_slots(codes, sizes)
    l1 = float(mode[3:]) if mode.startswith("l1=") else VT.FINE_L1
    oof, fit = VT.cross_fit(vs, y, cw_of, seed, C=VT.FINE_C, l1=l1, smooth=smooth)
    p = np.nan_to_num(VT.probability(oof), nan=0)
    aucs.append(roc_auc_score(y, p)); f1s.append(S.best_threshold(y, p)[1])
print(ncol, rate, mode, "oof AUC %.3f ± %.3f" % (np.mean(aucs), np.std(aucs) / np.sqrt(len(aucs))), "best F1 %.3f" % np.mean(f1s), "nw", int((fit[0] > 0).sum()))
