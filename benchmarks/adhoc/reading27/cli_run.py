"""plx fit / plx predict on reading27's families, on the runner's splits (3 stratified 70/30,
StratifiedShuffleSplit random_state 0): each split's rows written back as the file's own cells,
fitted with `plx fit --label outcome --positive yes` (and the family's `CLI_FLAGS`), its test
rows predicted; F1 of 'yes'. The code run is the `plx_core` on PYTHONPATH (main's for before).

PYTHONPATH=CODE python benchmarks/adhoc/reading27/cli_run.py FAMILY [SEEDS] [OUT.csv] [--no-flags]
(--no-flags: without the family's `CLI_FLAGS`). reading26's cli_run.py runs this on its own
families (`main(argv, families)`).
"""
import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

from plx_core import cli


def main(argv, families=None):
    """Run FAMILY (argv[1]) of `families` (a module with CLI_FLAGS, FAMILIES, TEXTS; this
    folder's by default)."""
    if families is None:
        sys.path.insert(0, str(Path(__file__).parent))
        import families
    CLI_FLAGS, FAMILIES, TEXTS = families.CLI_FLAGS, families.FAMILIES, families.TEXTS
    fam = argv[1]
    flags = CLI_FLAGS.get(fam, []) if "--no-flags" not in argv else []
    argv = [a for a in argv if a != "--no-flags"]
    seeds = int(argv[2]) if len(argv) > 2 else 3
    FAMILIES[fam]()
    cells = pd.read_csv(io.StringIO(TEXTS[fam]), dtype=str, keep_default_na=False)
    yb = (cells["outcome"] == "yes").astype(int).to_numpy()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for run, (tr, te) in enumerate(StratifiedShuffleSplit(seeds, test_size=0.3, random_state=0)
                                       .split(cells, yb)):
            p = Path(d)
            cells.iloc[tr].to_csv(p / "train.csv", index=False)
            cells.iloc[te].drop(columns="outcome").to_csv(p / "test.csv", index=False)
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = cli.main(["fit", str(p / "train.csv"), "--label", "outcome", "--positive",
                               "yes", "--random-state", str(run), "--out", str(p / "m.plx"),
                               "--no-progress", *flags])
                rc2 = cli.main(["predict", str(p / "m.plx"), str(p / "test.csv"),
                                "--out", str(p / "pred.csv")]) if rc == 0 else rc
            f1 = np.nan
            if rc2 == 0:
                pred = (pd.read_csv(p / "pred.csv", dtype=str)["decision"] == "yes").astype(int)
                f1 = f1_score(yb[te], pred)
            notes = " | ".join(ln for ln in err.getvalue().splitlines()
                               if any(f"'{c}'" in ln for c in cells.columns if c != "outcome"))
            rows.append({"family": fam, "run": run, "method": "plx fit", "f1": f1, "rc": rc2,
                         "notes": notes[:600]})
            print(fam, run, f"{f1:.3f}", rc2, notes[:300], flush=True)
    out = pd.DataFrame(rows)
    if len(argv) > 3:
        out.to_csv(argv[3], index=False)
    print(f"{fam}: plx fit F1 {out.f1.mean():.3f} ± {out.f1.std():.3f}")


if __name__ == "__main__":
    main(sys.argv)
