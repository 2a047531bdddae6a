"""Ad hoc (gamopt13): from abl.py's pickles, the test F1 when the smooth vote takes the
setting with the better out-of-fold F1.

    python benchmarks/adhoc/gamopt13/pick.py /tmp/abl_*.pkl
"""
import pickle, sys, numpy as np
for p in sys.argv[1:]:
    res = pickle.load(open(p, "rb"))
    vs = [v for v in res if res[v]]
    n = len(res["base"])
    print("==", p.split("/")[-1], "splits", n)
    for alt in vs[1:]:
        ch = [max((res["base"][i], res[alt][i]), key=lambda x: x["oof"] + 1e-9 * (x is res["base"][i])) for i in range(n)]
        t = np.mean([c["test"] for c in ch]); o = np.mean([c["oof"] for c in ch])
        nalt = sum(c is res[alt][i] for i, c in enumerate(ch))
        print(f"  base {np.mean([x['test'] for x in res['base']]):.3f} | {alt:8s} {np.mean([x['test'] for x in res[alt]]):.3f} | pick(base,{alt}) test {t:.3f} oof {o:.3f} (alt on {nalt}/{n})")
    ch = [max([res[v][i] for v in vs], key=lambda x: x["oof"]) for i in range(n)]
    print(f"  pick(all) test {np.mean([c['test'] for c in ch]):.3f} oof {np.mean([c['oof'] for c in ch]):.3f}")
