"""cProfile of one default fit of a wide21 family (seed 1000), whichever plx_core is on PYTHONPATH.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide22/profile_fit.py genes300 [N_TOP]"""
# ruff: noqa: E402
import cProfile
import pstats
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "wide21"))
warnings.simplefilter("ignore")
from families import FAMILIES

from plx_core.estimator import PLXClassifier

fam = sys.argv[1]
gen = FAMILIES[fam]
X, y, pos = gen(seed=1000, n=gen.__defaults__[1])
PLXClassifier(positive=pos, random_state=0).fit(X, y)  # warm imports
t = time.process_time()
with cProfile.Profile() as pr:
    m = PLXClassifier(positive=pos, random_state=0).fit(X, y)
print(fam, "cpu", round(time.process_time() - t, 2), m.chosen_, m.max_len_)
pstats.Stats(pr).sort_stats("cumulative").print_stats(int(sys.argv[2]) if len(sys.argv) > 2 else 45)
