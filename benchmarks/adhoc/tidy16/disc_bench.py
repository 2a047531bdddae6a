"""Discretizer.fit and PLXClassifier.fit, old plx_core vs this one, one process (ad hoc)."""
import sys, time, statistics, numpy as np, pandas as pd
def load(path):
    for m in [k for k in sys.modules if k.startswith('plx_core')]: del sys.modules[m]
    sys.path.insert(0, path); import plx_core; sys.path.pop(0); return plx_core
r=np.random.default_rng(0)
def table(n):
    X=pd.DataFrame(r.normal(size=(n,30)).round(3),columns=[f"x{i}" for i in range(30)]).mask(r.random((n,30))<0.1)
    y=(X.x0.fillna(0)+X.x1.fillna(0)+r.normal(size=n)>2.2).astype(int).to_numpy(); return X,y
big=table(100_000); mid=table(20_000)
mods={"old":load(sys.argv[1]),"new":load(sys.argv[2])}
from plx_core.discretize import Discretizer  # noqa
for name,(X,y),what in (("Discretizer 100,000 x 30",big,"disc"),("PLXClassifier 20,000 x 30",mid,"fit")):
    t={k:[] for k in mods}
    for rep in range(3 if what=="disc" else 1):
        for k,m in mods.items():
            t0=time.process_time()
            if what=="disc": m.discretize.Discretizer().fit(X,y)
            else: m.PLXClassifier(random_state=0).fit(X,y)
            t[k].append(time.process_time()-t0)
    o,nw=statistics.median(t["old"]),statistics.median(t["new"])
    print(f"{name}: {o:.2f} s -> {nw:.2f} s CPU ({nw/o:.2f}x), positives {y.mean():.3f}")
