"""unseen19's runner on wide21's families (CART, EBM, FIGS, RuleFit, LogReg, GBoost, Forest).

python benchmarks/adhoc/wide21/run.py FAMILY [SPLITS] [OUT.csv] [METHODS]
"""
import importlib.util
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES  # noqa: E402

spec = importlib.util.spec_from_file_location("unseen19_run", here.parent / "unseen19" / "run.py")
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)

if __name__ == "__main__":
    if len(sys.argv) == 4:  # FAMILY SPLITS OUT: every method
        sys.argv.append("plx,CART,EBM,FIGS,RuleFit,LogReg,GBoost,Forest")
    runner.main(FAMILIES, sys.argv)
