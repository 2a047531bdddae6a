"""F1 of the positive class on 2,000 new rows of the same draw (seed run), fit CPU (user+system
of the fitting process) and peak memory (the fitting child's peak resident memory above its own at the fork) of
plx's default and the comparison's baselines (`compare.make`: CART depth by CV, EBM, Forest,
LogReg...), each fit in a forked child so that CPU and memory are its own.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide27/run.py FAMILIES RUNS [METHODS]
FAMILIES from wide27's tables27 and wide25's tables25 (rule3, holes, presence)."""
# ruff: noqa: E402
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
sys.path.insert(0, str(here.parent / "wide25"))
sys.path.insert(0, str(here.parent.parent.parent))
warnings.simplefilter("ignore")
import numpy as np
from sklearn.metrics import f1_score
from tables25 import TABLES as T25
from tables27 import TABLES as T27

from plx_core.experiments.compare import PLXModel, make

TABLES = {**T27, **T25}
import interpret.glassbox  # noqa: F401  (imported once here, not into one child's peak)
from sklearn.ensemble import RandomForestClassifier  # noqa: F401

from plx_core.estimator import PLXClassifier  # noqa: F401


def status_kb(field: str = "VmRSS") -> int:
    """This process's resident memory now ("VmRSS") or at its peak ("VmHWM"), in kB."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def fit_in_child(name, run, Xtr, ytr, Xte, yte):
    """(F1, CPU s, peak MB above the child's start, chosen) of one fit in a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        base = status_kb()  # a forked child's peak starts at its own resident memory
        warnings.simplefilter("ignore")
        t = time.process_time()
        try:  # plx as a user fits it: PLXClassifier's defaults (compare.make caps max_len at 3)
            m = (PLXModel(random_state=run) if name == "plx" else make(name, run, Xtr.shape[1])).fit(Xtr, ytr)
            cpu = time.process_time() - t
            f1 = f1_score(yte, m.predict(Xte))
            chosen = getattr(getattr(m, "model_", None), "chosen_", "")
        except Exception as e:  # noqa: BLE001
            f1, cpu, chosen = float("nan"), time.process_time() - t, f"failed: {e}"[:80]
        with os.fdopen(w, "wb") as f:
            pickle.dump((f1, cpu, (status_kb("VmHWM") - base) / 1024, chosen), f)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


methods = sys.argv[3].split(",") if len(sys.argv) > 3 else ["plx", "CART", "EBM", "Forest", "LogReg"]
runs = int(sys.argv[2])
for fam in sys.argv[1].split(","):
    for run in range(runs):
        n = TABLES[fam].__defaults__[0]
        X, y, pos = TABLES[fam](run, n + 2000)
        yb = (np.asarray(y) == pos).astype(int)
        Xtr, ytr, Xte, yte = X.iloc[:n], yb[:n], X.iloc[n:], yb[n:]
        out = [f"{fam} {run} ({n}x{X.shape[1]}, {ytr.mean():.2f} pos)"]
        for name in methods:
            f1, cpu, mb, chosen = fit_in_child(name, run, Xtr, ytr, Xte, yte)
            out.append(f"{name} {f1:.4f} {cpu:.1f}s {mb:.0f}MB" + (f" [{chosen}]" if chosen else ""))
        print(" | ".join(out), flush=True)
