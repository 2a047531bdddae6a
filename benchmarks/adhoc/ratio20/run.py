"""unseen19's run.py on these families too: python benchmarks/adhoc/ratio20/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]."""
import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import families20  # noqa: E402,F401  (adds the families to unseen19's FAMILIES)

runpy.run_path(str(Path(__file__).parents[1] / "unseen19" / "run.py"), run_name="__main__")
