"""unseen23's runner on unseen22's families: plx default vs CART, EBM, LogReg, GBoost, a forest.

python benchmarks/adhoc/unseen22/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
Changes to unseen19's runner, scoring side only: a positive class given as a number (label12's
2) is compared as text, splits are stratified on positive / the rest, and a family in
`TEST_ONLY` (leak_missing) shows its test rows as predict would see them. The runner is
unseen23's (`main`, which also records a baseline that cannot read a table instead of stopping).
"""
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES, TEST_ONLY  # noqa: E402

sys.path.insert(0, str(here.parent))
from tables import unseen23_runner  # noqa: E402

runner = unseen23_runner()

if __name__ == "__main__":
    runner.main(sys.argv, FAMILIES, {}, TEST_ONLY)
