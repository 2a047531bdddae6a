"""unseen23's runner on reading24's families: plx default vs CART and EBM (or any of its methods).

python benchmarks/adhoc/reading24/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
(reading24 ran SEEDS 3, METHODS plx,CART,EBM); `python benchmarks/adhoc/unseen19/table.py OUT`
tabulates a folder of such files.
"""
import importlib.util
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES  # noqa: E402

spec = importlib.util.spec_from_file_location("unseen23_run", here.parent / "unseen23" / "run.py")
runner = importlib.util.module_from_spec(spec)
sys.modules.pop("families")  # unseen23's runner imports its own families module by that name
sys.path.insert(0, str(here.parent / "unseen23"))
spec.loader.exec_module(runner)
sys.path.pop(0)

if __name__ == "__main__":
    runner.main(sys.argv, FAMILIES, {}, None)
