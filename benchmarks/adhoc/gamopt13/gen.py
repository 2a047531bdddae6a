"""Ad hoc (gamopt13): the default's test F1 on a table of rare13/tables.py, one per run.

    python benchmarks/adhoc/gamopt13/gen.py rare7-20 0-11
"""
import sys, warnings, numpy as np
warnings.simplefilter("ignore")
sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__import__("os").path.abspath(__file__)), "..", "rare13"))
from tables import split_table
from plx_core.experiments.compare import make
from sklearn.metrics import f1_score
name, spec = sys.argv[1], sys.argv[2]
a, b = map(int, spec.split("-"))
out = []
for r in range(a, b + 1):
    Xt, yt, Xe, ye = split_table(name, r)
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt)
    f = f1_score(ye, np.asarray(m.predict(Xe)).astype(int))
    out.append(f)
    print(name, r, round(f, 3), m.model_.chosen_, flush=True)
print("MEAN", name, spec, round(float(np.mean(out)), 4))
