"""ordered27: the dashboard's model of every class with the Data page's "Treat the classes as
ordered levels" against one class against the rest, on multi25's ordered families, and the
model file the Knowledge base page saves answering as the dashboard does.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/ordered27/dashboard_levels.py risk3,likert5 0,1 OUT.csv

Per family and split seed (the Data page's split: 70/30, stratified, its default bins): the
workspace's `fit_classes` with `DataSettings.class_order` (the recognised order) and without;
macro F1, accuracy and mean level error on the test rows (`class_scores`), fit CPU; the
ordered model's file (`levels_model_file`) through `plx predict` on the raw test rows:
decisions differing from the dashboard's."""
from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import replace

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi25"))
import tables25  # noqa: E402

from plx_app.service import KBSettings, new_workspace, read_upload  # noqa: E402
from plx_app.service.classes import class_scores, fit_classes, levels_model_file  # noqa: E402
from plx_core.cli import main  # noqa: E402
from plx_core.ordered import recognised_order  # noqa: E402


def run(key: str, seed: int) -> dict:
    X, y, _ = tables25.TABLES[key](0)
    frame = X.assign(level=np.asarray(y).astype(str))
    raw = read_upload(frame.to_csv(index=False).encode(), f"{key}.csv")
    order = tuple(recognised_order(sorted(frame["level"].unique())))
    row: dict = {"table": key, "seed": seed, "levels": len(order)}
    for name, co in (("one vs rest", None), ("ordered", order)):
        ws = new_workspace(raw, replace(raw.defaults, label="level", positive=order[-1],
                                        seed=seed, class_order=co),
                           build=False, kb=KBSettings("direct"))
        t = time.process_time()
        est = fit_classes(ws)
        row[f"{name} fit s"] = round(time.process_time() - t, 2)
        cs = class_scores(ws, est)
        if co is None:  # the level error of one-vs-rest's picks, in the same order
            cm = cs.confusion.reindex(index=list(order), columns=list(order), fill_value=0)
            r = np.arange(len(order))
            m = cm.to_numpy()
            cs = replace(cs, level_error=float((m * np.abs(r[:, None] - r[None, :])).sum() / m.sum()))
        row.update({f"{name} macro F1": round(cs.macro_f1, 4), f"{name} acc": round(cs.accuracy, 4),
                    f"{name} level error": round(cs.level_error, 4)})
        if co is not None:
            with tempfile.TemporaryDirectory() as d:
                model, rows, out = (os.path.join(d, n) for n in ("m.json", "t.csv", "p.csv"))
                open(model, "wb").write(levels_model_file(ws))
                ws.raw.frame.loc[ws.X_test.index].drop(columns="level").to_csv(rows, index=False)
                main(["predict", model, rows, "--out", out])
                pred = pd.read_csv(out, dtype={"decision": str})
                ours = est.predict(ws.X_test).astype(str)
                row["file decisions differ"] = int((pred["decision"].to_numpy() != ours).sum())
                row["test rows"] = len(ours)
    return row


if __name__ == "__main__":
    keys, seeds, out = sys.argv[1].split(","), [int(s) for s in sys.argv[2].split(",")], sys.argv[3]
    rows = []
    for k in keys:
        for s in seeds:
            rows.append(run(k, s))
            print(rows[-1], flush=True)
    pd.DataFrame(rows).to_csv(out, index=False)
