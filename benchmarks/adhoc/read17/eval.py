"""Round 5 (read17): each table through plx fit / predict, PLXClassifier and a decision tree."""
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from plx_core import PLXClassifier
from plx_core.modelfile import save_model

T = "/tmp/r17/t/"  # where make.py wrote the tables
TABLES = [("survey_qualtrics", "churned", "1", {}), ("durations", "outcome", "readmitted", {}),
          ("markers", "anemia", "yes", {}), ("likert", "recommend", "1", {}),
          ("wine_bom", "class", "barolo", {"sep": ";", "encoding": "utf-8-sig"}),
          ("dx_train", "dx", None, {}), ("excel", "readmit", "yes", {}), ("mixed", "y", "a", {}),
          ("noheader_h", "lab", "M", {})]
only = sys.argv[1:]
for name, label, pos, kw in TABLES:
    if only and name not in only:
        continue
    path = T + name + ".csv"
    raw = open(path, encoding=kw.get("encoding", "utf-8")).read().splitlines()
    head, body = raw[0], raw[1:]
    df = pd.read_csv(path, dtype=str, keep_default_na=False, **kw)
    yy = df[label].to_numpy()
    ok = np.array([pd.Series(yy).value_counts()[v] >= 2 for v in yy])
    idx = np.flatnonzero(ok)
    tr, te = train_test_split(idx, test_size=0.3, random_state=0, stratify=yy[idx])
    tr = np.sort(np.concatenate([tr, np.flatnonzero(~ok)]))
    sep = kw.get("sep", ",")
    for part, rows in (("tr", tr), ("te", te)):
        with open(f"{T}{name}_{part}.csv", "w", encoding="utf-8") as f:
            f.write(head + "\n" + "\n".join(body[i] for i in rows) + "\n")
    env = {"PYTHONPATH": "/work/w-read17", "PATH": "/work/venv/bin:/usr/bin:/bin", "OMP_NUM_THREADS": "1"}
    fit = ["python", "-m", "plx_core.cli", "fit", f"{T}{name}_tr.csv", "--label", label,
           "--out", f"{T}{name}_m.json", "--no-progress"] + (["--positive", pos] if pos else [])
    r = subprocess.run(fit, capture_output=True, text=True, env=env)
    if r.returncode:
        print(name, "FIT FAILED", r.stderr[-500:])
        continue
    r = subprocess.run(["python", "-m", "plx_core.cli", "predict", f"{T}{name}_m.json", f"{T}{name}_te.csv",
                        "--out", f"{T}{name}_p.csv"], capture_output=True, text=True, env=env)
    if r.returncode:
        print(name, "PREDICT FAILED", r.stderr[-500:])
        continue
    p = pd.read_csv(f"{T}{name}_p.csv", dtype=str)["decision"].to_numpy()
    truth = yy[te]
    avg = dict(pos_label=pos) if pos else dict(average="macro")
    f_cli = f1_score(truth, p, **avg)
    # decision tree: pandas' own reading, numbers where they parse, the rest one-hot
    full = pd.read_csv(path, **kw)
    X = full.drop(columns=[label])
    Xn = pd.get_dummies(X.apply(lambda c: c if pd.api.types.is_numeric_dtype(c) else c.astype(str)), dtype=float).fillna(-1)
    dt = DecisionTreeClassifier(min_samples_leaf=5, random_state=0).fit(Xn.iloc[tr], full[label].astype(str).iloc[tr])
    f_dt = f1_score(full[label].astype(str).iloc[te], dt.predict(Xn.iloc[te]), **avg)
    # the estimator on pandas' frame
    try:
      with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        clf = PLXClassifier(positive=None if pos is None else type(full[label].iloc[0])(pos) if not isinstance(full[label].iloc[0], (np.integer,)) else int(pos), random_state=0)
        clf.fit(X.iloc[tr], full[label].iloc[tr])
        pa = clf.predict(X.iloc[te])
        proba = clf.predict_proba(X.iloc[te])
        e = clf.explain(X.iloc[te[:1]])
    except Exception as exc:
        print(f"{name}: plx fit/predict F1 {f_cli:.3f}; tree {f_dt:.3f}; API: {type(exc).__name__}: {str(exc)[:300]}")
        continue
    f_api = f1_score(full[label].astype(str).iloc[te], pd.Series(pa).astype(str), **avg)
    save_model(clf, f"{T}{name}_api.json")
    X.iloc[te].to_csv(f"{T}{name}_apite.csv", index=False)
    r = subprocess.run(["python", "-m", "plx_core.cli", "predict", f"{T}{name}_api.json", f"{T}{name}_apite.csv",
                        "--out", f"{T}{name}_ap.csv"], capture_output=True, text=True, env=env)
    same = None if r.returncode else (pd.read_csv(f"{T}{name}_ap.csv", dtype=str)["decision"].to_numpy() == pd.Series(pa).astype(str).to_numpy()).mean()
    print(f"{name}: plx fit/predict F1 {f_cli:.3f}; API {f_api:.3f}; tree {f_dt:.3f}; saved API model "
          f"answers the same on {same if same is None else f'{same:.0%}'} {'' if not r.returncode else r.stderr[-300:]}; "
          f"proba rows {np.allclose(proba.sum(1), 1)}; warnings {len(w)}: {[str(x.message)[:150] for x in w][:3]}")
