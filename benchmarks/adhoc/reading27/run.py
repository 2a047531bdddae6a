"""unseen23's runner on reading27's families: plx default vs CART and EBM (or any of its methods).

python benchmarks/adhoc/reading27/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
(reading27 ran SEEDS 3, METHODS plx,CART,EBM); `python benchmarks/adhoc/unseen19/table.py OUT`
tabulates a folder of such files. `cli_run.py` runs plx fit / plx predict on the same splits.
"""
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES  # noqa: E402

sys.path.insert(0, str(here.parent))
from tables import unseen23_runner  # noqa: E402

runner = unseen23_runner()

if __name__ == "__main__":
    runner.main(sys.argv, FAMILIES, {}, None)
