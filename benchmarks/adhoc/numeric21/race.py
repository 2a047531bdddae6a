"""numeric21: grid20's race.py (the search on MDLP's cut points and on the grid, per split) with
families21's tables registered too; the same arguments and output.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/numeric21/race.py FAM,FAM RUNS OUT.csv SEED
"""
import runpy
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
import families21  # noqa: E402,F401  (adds its families to unseen19's FAMILIES)

runpy.run_path(str(here.parent / "grid20" / "race.py"), run_name="__main__")
