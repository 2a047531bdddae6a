"""Macro F1 of PLXClassifier() per stratified 70/30 split: python zoo_splits.py SET FIRST END (SET of bench_multiclass.table)."""
import sys, warnings, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
import numpy as np
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from bench_multiclass import table
from plx_core import PLXClassifier
warnings.simplefilter("ignore")
name = sys.argv[1]; splits = range(int(sys.argv[2]), int(sys.argv[3]))
X, y, cat = table(name)
out = []
for seed in splits:
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
    t = time.process_time()
    m = PLXClassifier(random_state=seed).fit(Xtr, ytr)
    dt = time.process_time() - t
    f = f1_score(yte, m.predict(Xte), average="macro")
    out.append(f)
    print(seed, f"{f:.4f}", f"{dt:.2f}s", m.chosen_, m.chosen_reason_[:150], flush=True)
print("mean", np.mean(out))
