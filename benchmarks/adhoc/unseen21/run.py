"""unseen19's runner on unseen21's families (several classes scored by macro-F1).

python benchmarks/adhoc/unseen21/run.py FAMILY [SEEDS] [OUT.csv] [METHODS]
Two changes to unseen19's runner for these tables, both on the scoring side only: a missing
label (Excel's blank trailing rows) is the text '<missing>' (truth, never a positive), and a
binary family's splits are stratified on positive / the rest (a typo'd label value in one row
cannot be stratified on).
"""
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

here = Path(__file__).parent
sys.path.insert(0, str(here))
from families import FAMILIES  # noqa: E402

spec = importlib.util.spec_from_file_location("unseen19_run", here.parent / "unseen19" / "run.py")
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)


def _norm(v) -> np.ndarray:
    return pd.Series(np.asarray(v, dtype=object)).fillna("<missing>").astype(str).str.strip().str.casefold().to_numpy()


class _Split(StratifiedShuffleSplit):
    pos = None

    def split(self, X, y, groups=None):
        return super().split(X, y if self.pos is None else (np.asarray(y) == self.pos), groups)


if __name__ == "__main__":
    fam = FAMILIES[sys.argv[1]]
    _Split.pos = fam()[2]
    runner._norm, runner.StratifiedShuffleSplit = _norm, _Split
    runner.main(FAMILIES, sys.argv)
