import sys, warnings, time
import numpy as np
from scipy import sparse
from plx_core.experiments.compare import make, split_set
import plx_core.vote as VO
orig = VO.fit_many
bad = [0]; n = [0]; tt = [0.0, 0.0]
def fm(problems, *a, **k):
    mats = [p[0] for p in problems]
    heights = [S.shape[0] for S in mats]; kk = len(mats); m = sum(S.shape[1] for S in mats)
    block = np.repeat(np.arange(kk), heights)
    t = time.process_time()
    ones = sparse.csr_matrix((np.ones(len(block)), (np.arange(len(block)), block)), shape=(len(block), kk))
    A0 = sparse.hstack([sparse.block_diag(mats, format="csr"), ones], format="csr")
    tt[0] += time.process_time() - t; t = time.process_time()
    A1 = VO._stacked(mats, m)
    tt[1] += time.process_time() - t
    n[0] += 1
    if A1 is None:
        print("fallback"); return orig(problems, *a, **k)
    ok = (A0.shape == A1.shape and np.array_equal(A0.indptr, A1.indptr) and np.array_equal(A0.indices, A1.indices)
          and np.array_equal(A0.data, A1.data) and A0.indptr.dtype == A1.indptr.dtype and A0.indices.dtype == A1.indices.dtype)
    At0, At1 = A0.T.tocsr(), A1.T.tocsr()
    ok &= np.array_equal(At0.indptr, At1.indptr) and np.array_equal(At0.indices, At1.indices) and np.array_equal(At0.data, At1.data)
    if not ok:
        bad[0] += 1; print("DIFF", A0.shape, A0.indptr.dtype, A1.indptr.dtype)
    return orig(problems, *a, **k)
VO.fit_many = fm
for key in sys.argv[1].split(","):
    X, yb, splits = split_set(key, 1, 1000)
    for tr, _ in splits:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            make("plx", 0, X.shape[1]).fit(X.iloc[tr], yb[tr])
print("calls", n[0], "bad", bad[0], "scipy", round(tt[0], 3), "direct", round(tt[1], 3))
