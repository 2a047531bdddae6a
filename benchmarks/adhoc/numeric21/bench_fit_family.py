"""numeric21: grid20's bench_fit_family.py (fit time now against an older `plx_core` and a
forest, on a family's table) with families21's tables registered too; the same arguments.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/numeric21/bench_fit_family.py /tmp/plx_before FAMS
"""
import runpy
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
import families21  # noqa: E402,F401  (adds its families to unseen19's FAMILIES)

runpy.run_path(str(here.parent / "grid20" / "bench_fit_family.py"), run_name="__main__")
