"""Round 6 (read18): each table of make.py through plx fit / predict (70/30 stratified split of
the file's own text, seed 0), PLXClassifier on pandas' frame (saved, loaded, same answers), and
sklearn's DecisionTreeClassifier(min_samples_leaf=5) on the same split; F1 of the positive class.
python benchmarks/adhoc/read18/eval.py (after make.py; OMP_NUM_THREADS=1)."""
import io
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from plx_core import PLXClassifier
from plx_core.modelfile import load_model, save_model

warnings.simplefilter("ignore")
T = "/tmp/r18/t6/"
SETS = [("label_spellings", "diabetic", "Yes"), ("excel_bools", "event", "TRUE"),
        ("percent_money", "default", "yes"), ("visits_long", "outcome", "stroke"),
        ("order", "y", "pos")]


def plx(*args):
    r = subprocess.run([sys.executable, "-m", "plx_core.cli", *args, "--no-progress"]
                       if args[0] == "fit" else [sys.executable, "-m", "plx_core.cli", *args],
                       capture_output=True, text=True)
    return r.returncode, r.stderr.strip().splitlines()


for name, label, pos in SETS:
    lines = open(T + name + ".csv").read().splitlines()
    head, body = lines[0], lines[1:]
    y = pd.read_csv(io.StringIO("\n".join(lines)), dtype=str, keep_default_na=False)[label]
    strat = y.str.strip().str.lower()
    tr, te = train_test_split(np.arange(len(body)), test_size=0.3, stratify=strat, random_state=0)
    d = tempfile.mkdtemp()
    open(f"{d}/tr.csv", "w").write("\n".join([head] + [body[i] for i in tr]) + "\n")
    open(f"{d}/te.csv", "w").write("\n".join([head] + [body[i] for i in te]) + "\n")
    rc, err = plx("fit", f"{d}/tr.csv", "--label", label, "--positive", pos, "--out", f"{d}/m.json")
    row = {"table": name}
    if rc != 0:
        row["plx"] = f"exit {rc}: {err[-1][:90]}"
    else:
        rc, err2 = plx("predict", f"{d}/m.json", f"{d}/te.csv", "--out", f"{d}/p.csv")
        p = pd.read_csv(f"{d}/p.csv", dtype=str)["decision"] if rc == 0 else None
        yt = pd.read_csv(f"{d}/te.csv", dtype=str)[label]
        row["plx"] = round(f1_score(yt == pos, p == pos), 3) if p is not None else f"exit {rc}"
    full = pd.read_csv(T + name + ".csv")
    X, yy = full.drop(columns=label), full[label].astype(str)
    try:
        clf = PLXClassifier(positive=pos, random_state=0).fit(X.iloc[tr], yy.iloc[tr])
        row["API"] = round(f1_score(yy.iloc[te] == pos, clf.predict(X.iloc[te]) == pos), 3)
        save_model(clf, f"{d}/api.json")
        load_model(f"{d}/api.json")
        rc, _ = plx("predict", f"{d}/api.json", f"{d}/te.csv", "--out", f"{d}/pa.csv")
        row["saved same"] = rc == 0 and bool((pd.read_csv(f"{d}/pa.csv", dtype=str)["decision"]
                                              .to_numpy() == clf.predict(X.iloc[te]).astype(str)).all())
    except Exception as exc:  # noqa: BLE001 — the table's outcome is what is recorded
        row["API"] = f"{type(exc).__name__}: {str(exc)[:90]}"
    num = X.apply(pd.to_numeric, errors="coerce")
    keep = [c for c in X if num[c].notna().mean() > 0.95]
    rest = X.drop(columns=keep)
    Z = pd.concat([num[keep].fillna(num[keep].median())]
                  + ([pd.get_dummies(rest.astype(str))] if rest.shape[1] else []), axis=1)
    yn = (yy.str.strip().str.lower() == pos.lower()).to_numpy()  # the tree: spellings as one
    t = DecisionTreeClassifier(min_samples_leaf=5, random_state=0).fit(Z.iloc[tr], yn[tr])
    row["tree"] = round(f1_score(yn[te], t.predict(Z.iloc[te])), 3)
    print(row, flush=True)
