"""Ad hoc (acc18): replay session 17's collections with the MDLP vote needing no margin over a
tree scored on the same cut points with the same credit (none: a table without numeric
columns, or no smooth vote) — `VOTE_ALIKE` in `alike.patch`'s copy of main's plx_core: True
the MDLP vote only, "all" every vote (the pair vote too).

    PYTHONPATH=/tmp/acc18/exp python benchmarks/adhoc/acc18/replay_alike.py ACC17.pkl …
"""
import importlib.util
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "replay17", Path(__file__).parents[1] / "acc17" / "replay.py")
R = importlib.util.module_from_spec(spec)
sys.argv, argv = sys.argv[:1], sys.argv
spec.loader.exec_module(R)
R.RULES["alike"] = lambda rec: R.choose_with(rec["args"], VOTE_ALIKE=True)
R.RULES["alike-all"] = lambda rec: R.choose_with(rec["args"], VOTE_ALIKE="all")
R.run_rules(["current", "alike", "alike-all"], argv[1:])
