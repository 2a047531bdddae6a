"""cProfile of one default fit of wide22's many (5,000 x 400 numbers) or another table, seed 0.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide24/profile_many.py many|mixed|counts [N_TOP] [OUT.prof]"""
# ruff: noqa: E402
import cProfile
import pstats
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
warnings.simplefilter("ignore")
from tables import TABLES

from plx_core.estimator import PLXClassifier

fam = sys.argv[1]
X, y, pos = TABLES[fam](0)
t = time.process_time()
with cProfile.Profile() as pr:
    m = PLXClassifier(positive=pos, random_state=0).fit(X, y)
print(fam, "cpu", round(time.process_time() - t, 2), m.chosen_, m.max_len_)
if len(sys.argv) > 3:
    pr.dump_stats(sys.argv[3])
pstats.Stats(pr).sort_stats("cumulative").print_stats(int(sys.argv[2]) if len(sys.argv) > 2 else 45)
