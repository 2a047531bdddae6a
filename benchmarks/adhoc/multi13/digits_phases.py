"""Digits split 0: fit CPU, the forest's in the same process, and the fit's two halves (count + tune, searches)."""
import time, warnings
warnings.simplefilter("ignore")
import numpy as np
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from plx_core import PLXClassifier
d = datasets.load_digits(as_frame=True)
Xtr, Xte, ytr, yte = train_test_split(d.data, d.target, test_size=0.3, random_state=0, stratify=d.target)
marks = []
def said(f, t):
    marks.append((time.process_time(), t))
t0 = time.process_time()
m = PLXClassifier(random_state=0).fit(Xtr, ytr, progress=said)
fit = time.process_time() - t0
t1 = time.process_time(); RandomForestClassifier(random_state=0).fit(Xtr, ytr); rf = time.process_time() - t1
count_end = next(tm for tm, t in marks if t.startswith("class "))  # the first class's search starts
print(f"fit {fit:.1f} s CPU; forest {rf:.2f} s; ratio {fit / rf:.0f}x; binning+count+tune {count_end - t0:.1f} s; searches+adopt {marks[-1][0] - count_end:.1f} s")
