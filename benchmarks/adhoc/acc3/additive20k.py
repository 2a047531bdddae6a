# Ad hoc script behind benchmarks/RESULTS.md, "The rare additive table at 20,000 rows (issue 11, last review)";
# kept as it ran (moved from /tmp/acc3/additive20k.py). Run from the repository root: python benchmarks/adhoc/acc3/additive20k.py …
import time, warnings, sys
warnings.simplefilter("ignore")
import numpy as np
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from plx_core.experiments.compare import rare_additive, make, PLXModel
X, y = rare_additive()
yb = (y.to_numpy() == "yes").astype(int)
tr, te = train_test_split(np.arange(len(yb)), test_size=0.3, random_state=0, stratify=yb)
for name in sys.argv[1].split(","):
    if name.startswith("plx"):
        kw = {} if name == "plx" else {"variant": name.split(":")[1]}
        m = PLXModel(random_state=0, **kw)
    else:
        m = make(name, 0, X.shape[1])
    t0 = time.perf_counter(); m.fit(X.iloc[tr], yb[tr]); t1 = time.perf_counter()
    p = m.predict(X.iloc[te]); t2 = time.perf_counter()
    extra = ""
    if name.startswith("plx"):
        c = m.model_
        extra = f"chosen={c.chosen_} thr={c.threshold_} max_len={c.max_len_} | {c.chosen_reason_}"
    print(f"{name}: F1 {f1_score(yb[te], p):.3f} fit {t1-t0:.1f}s predict {t2-t1:.1f}s {extra}", flush=True)
