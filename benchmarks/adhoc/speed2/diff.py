# Compares two dump.py outputs split by split (RESULTS.md, session 10): usage: python diff.py OLD NEW
import sys, pickle, glob, os
import numpy as np
a, b = sys.argv[1], sys.argv[2]
bad = 0
for f in sorted(glob.glob(f"{a}/*.pkl")):
    k = os.path.basename(f)[:-4]
    if not os.path.exists(f"{b}/{k}.pkl"):
        print(k, "missing in", b); bad += 1; continue
    A, B = pickle.load(open(f, "rb")), pickle.load(open(f"{b}/{k}.pkl", "rb"))
    diffs = []
    for i, (x, y) in enumerate(zip(A, B)):
        for field in x:
            u, v = x[field], y[field]
            same = np.array_equal(u, v) if isinstance(u, np.ndarray) else (u == v)
            if isinstance(u, dict) and isinstance(v, dict):  # NaN-aware
                same = u.keys() == v.keys() and all((u[q] == v[q]) or (u[q] != u[q] and v[q] != v[q]) for q in u)
            if not same:
                diffs.append((i, field))
    if len(A) != len(B): diffs.append(("len",))
    bad += bool(diffs)
    print(f"{k:18s} splits {len(A)} {'IDENTICAL' if not diffs else 'DIFFER ' + str(diffs[:6])}")
print("ALL IDENTICAL" if not bad else f"{bad} sets differ")
