"""review24: the dashboard's model file (`plx_app.service.model.model_file`) against the
dashboard on its own test rows — decisions and means via `plx predict`'s reading — with an
enabled rule, a threshold, the Query page's semantics and -999 read as missing.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/review24/model_file_agrees.py"""

from __future__ import annotations

import tempfile
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from plx_app.service import new_workspace, read_upload
from plx_app.service.model import model_file
from plx_core.cli import Model, _model_markers, read_rows


def table(seed: int, n: int = 400) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    lactate = r.gamma(2, 1.0, n).round(1)
    age = r.integers(20, 90, n)
    sick = np.where(lactate + r.normal(0, 0.8, n) + (age > 60) > 3.6, "yes", "no")
    return pd.DataFrame({"lactate": np.where(r.random(n) < 0.1, "-999", lactate.astype(str)),
                         "age": age, "ward": r.choice(["a", "b", "NA"], n), "sick": sick})


def run(seed: int, semantics: str, out: Path) -> tuple[int, int, float]:
    raw = read_upload(table(seed).to_csv(index=False).encode(), "labs.csv", missing=("", "-999"))
    ws = new_workspace(raw, replace(raw.defaults, label="sick", positive="yes",
                                    features=("lactate", "age", "ward")))
    ws.set_threshold(0.3)
    ws.add_rules_text("IF ward = b THEN POS [p=0.8, w=2]")
    ws.set_query_settings(semantics, "auto")
    (out / "m.json").write_bytes(model_file(ws))
    model = Model.load(out / "m.json")
    X, _ = ws.part("test")
    raw.frame.loc[X.index, list(X.columns)].to_csv(out / "new.csv", index=False)
    pred = model.predict(model.rows(read_rows(out / "new.csv", _model_markers(None, model)),
                                    say=lambda s: None))
    ours = ws.decisions("test")
    differ = (pred["decision"] == "yes").to_numpy() != (ours["decision"] == "POS").to_numpy()
    return int(differ.sum()), len(ours), float(np.abs(pred["mean"] - ours["mean"].to_numpy()).max())


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as d:
        for seed in range(3):
            for sem in ("auto", "full"):
                k, n, gap = run(seed, sem, Path(d))
                print(f"seed {seed} semantics {sem}: {k} of {n} decisions differ, "
                      f"largest mean gap {gap:.4f}")
