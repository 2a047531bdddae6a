"""plx fit / plx predict on reading26's families, on the runner's splits (3 stratified 70/30,
StratifiedShuffleSplit random_state 0): each split's rows written back as the file's own cells,
fitted with `plx fit --label outcome --positive yes` (and the family's `CLI_FLAGS`), its test
rows predicted; F1 of 'yes'. The code run is the `plx_core` on PYTHONPATH (main's for before).
The runner is reading27's (`cli_run.main`), on this folder's families; its notes column keeps
every column's notes (this one kept those naming age, admitted, seen and crp).

PYTHONPATH=CODE python benchmarks/adhoc/reading26/cli_run.py FAMILY [SEEDS] [OUT.csv] [--no-flags]
(--no-flags: without the family's `CLI_FLAGS`)
"""
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402  (this folder's)

_spec = importlib.util.spec_from_file_location("reading27_cli_run", HERE.parent / "reading27" / "cli_run.py")
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)

if __name__ == "__main__":
    runner.main(sys.argv, families)
