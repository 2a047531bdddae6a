"""multi26: an ordered model's file answers as the fitted estimator — through save_model and
through `plx fit --class-order auto` on the table's CSV — on multi25's ordered families.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/multi26/file_agrees.py risk3,likert5 OUT_DIR

Per family (stratified 70/30, seed 0): the estimator fitted on the training CSV as pandas reads
it; its save_model file (json, npz) and plx fit's file answer the test rows through `cli.Model`
(what plx predict / plx explain run); decisions differing, the largest difference of any
level's bounds and of predict_proba (the file's `vote:` numbers over their sum), explanations
(step and features) differing on the first 100 test rows, file sizes, CPU of save + load."""
from __future__ import annotations

import os
import sys
import time

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi25"))
import tables25  # noqa: E402

from plx_core.cli import Model, _explain_levels, main  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.modelfile import load_model, save_model  # noqa: E402


def compare(clf, path, X) -> dict:
    m = Model(load_model(path))
    rows = m.schema.apply(X, label=False)[0]
    pred = m.predict(rows)
    b = clf.bounds(X)
    dbounds = max(float(np.nanmax(np.abs(pred[f"{s}:{c}"].to_numpy(float) - b[(c, s)].to_numpy())))
                  for c in m.classes for s in ("lower", "upper"))
    votes = pred[[f"vote:{c}" for c in clf.classes_]].to_numpy(float)
    dproba = float(np.abs(votes / votes.sum(axis=1, keepdims=True) - clf.predict_proba(X)).max())
    head = X.head(100)
    found, said, _ = _explain_levels(m, m.schema.apply(head, label=False)[0], 2)
    ref = clf.explain_many(head)
    bad_ex = sum((type(e) is not type(f)) or e.features != f.features
                 or getattr(e, "explained_class", s) != s for e, f, s in zip(ref, found, said))
    unexplained = sum(not hasattr(e, "explained_class") for e in ref)

    def same(a: str, b: str) -> bool:  # '1.0' (the row's float) and '1' (the file's level)
        try:
            return a == b or float(a) == float(b)
        except ValueError:
            return False

    spelled = sum(e.features != f.features and e.features.keys() == f.features.keys()
                  and all(same(e.features[k], f.features[k]) for k in e.features)
                  for e, f in zip(ref, found))
    return {"decisions differ": int((pred["decision"].to_numpy() != clf.predict(X).astype(str)).sum()),
            "max |Δ bounds|": dbounds, "max |Δ proba|": dproba, "explanations differ /100": bad_ex,
            "of which unexplained (both)": unexplained,
            "of which only a number spelled otherwise ('1.0' / '1')": spelled,
            "bytes": os.path.getsize(path)}


def main_(keys: list[str], out: str) -> None:
    os.makedirs(out, exist_ok=True)
    for key in keys:
        X, y, _ = tables25.TABLES[key](0)
        y = pd.Series(np.asarray(y)).astype(str)
        tr, te = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y, random_state=0)
        label = "level"
        train, test = os.path.join(out, f"{key}_train.csv"), os.path.join(out, f"{key}_test.csv")
        X.iloc[tr].assign(**{label: y.iloc[tr].to_numpy()}).to_csv(train, index=False)
        X.iloc[te].to_csv(test, index=False)
        Xtr = pd.read_csv(train)
        Xte = pd.read_csv(test)
        t = time.process_time()
        clf = PLXClassifier(class_order="auto").fit(Xtr.drop(columns=label), Xtr[label].astype(str))
        fit = time.process_time() - t
        for fmt in ("json", "npz"):
            path = os.path.join(out, f"{key}.{fmt}")
            t = time.process_time()
            save_model(clf, path)
            load_model(path)
            io_cpu = time.process_time() - t
            print(key, f"save_model {fmt}", compare(clf, path, Xte), f"save+load CPU {io_cpu:.2f} s",
                  f"fit CPU {fit:.1f} s", flush=True)
        cli = os.path.join(out, f"{key}_cli.json")
        t = time.process_time()
        code = main(["fit", train, "--label", label, "--class-order", "auto", "--out", cli,
                     "--no-progress"])
        print(key, "plx fit", code, compare(clf, cli, Xte), f"plx fit CPU {time.process_time() - t:.1f} s",
              flush=True)


if __name__ == "__main__":
    main_(sys.argv[1].split(","), sys.argv[2])
