"""unseen23's runner on unseen22's families: plx default vs CART, EBM, LogReg, GBoost, a forest.

python benchmarks/adhoc/unseen22/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
Changes to unseen19's runner, scoring side only: a positive class given as a number (label12's
2) is compared as text, splits are stratified on positive / the rest, and a family in
`TEST_ONLY` (leak_missing) shows its test rows as predict would see them. The runner is
unseen23's (`main`, which also records a baseline that cannot read a table instead of stopping).
"""
import importlib.util
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES, TEST_ONLY  # noqa: E402

spec = importlib.util.spec_from_file_location("unseen23_run", here.parent / "unseen23" / "run.py")
runner = importlib.util.module_from_spec(spec)
sys.modules.pop("families")  # unseen23's runner imports its own families module by that name
sys.path.insert(0, str(here.parent / "unseen23"))
spec.loader.exec_module(runner)
sys.path.pop(0)

if __name__ == "__main__":
    runner.main(sys.argv, FAMILIES, {}, TEST_ONLY)
