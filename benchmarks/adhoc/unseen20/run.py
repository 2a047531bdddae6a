"""unseen19's runner on unseen20's families (several classes scored by macro-F1).

python benchmarks/adhoc/unseen20/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
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
    runner.main(FAMILIES, sys.argv)
