import sys, pickle, time, shutil, os, importlib, tempfile
import numpy as np
tmp = tempfile.mkdtemp(); shutil.copytree("/tmp/speed13/base/plx_core", os.path.join(tmp, "plx_before"))
sys.path.insert(0, tmp)
OLD = importlib.import_module("plx_before.terms")
import plx_core.terms as NEW
calls = pickle.load(open(sys.argv[1] if len(sys.argv) > 1 else "/tmp/speed13/terms_calls.pkl", "rb"))
def run(mod):
    t = time.process_time(); outs = [mod.learn_terms(*a, **k) for a, k in calls]
    return time.process_time() - t, outs
to, tn = [], []
for _ in range(3):
    a, oo = run(OLD); b, on = run(NEW); to.append(a); tn.append(b)
same = all(np.array_equal(x.bodies, y.bodies) and np.array_equal(x.group, y.group) and x.n_terms == y.n_terms for x, y in zip(oo, on))
print(len(calls), "calls; same", same, "old", round(np.median(to), 3), "new", round(np.median(tn), 3), "ratio", round(np.median(tn) / np.median(to), 3))
