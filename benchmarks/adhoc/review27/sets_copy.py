"""review27: which of the 23 comparison sets' columns label_copy calls the label (before/after)."""
import time

from plx_core.data import label_copy, label_texts, quiet_columns
from plx_core.experiments.compare import SETS

for k, spec in SETS.items():
    X, y, pos = spec.load()
    ystr = label_texts(y)
    t = time.process_time()
    quiet = quiet_columns(X, ystr)
    said = [(c, w[:120]) for c in X.columns if c not in quiet and (w := label_copy(X[c], y, ystr))]
    print(f"{k}: {len(X.columns)} cols, {len(quiet)} quiet, {time.process_time()-t:.2f}s cpu, said {said}", flush=True)
