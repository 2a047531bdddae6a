# ad hoc (session 12, logic12): the default's test F1 split by split with the rule vote of NEW
# (`dump.py` with MODES=rule-vote) in place of BASE's, the choice (`selection.choose`) made again
# on BASE's other candidates:  python benchmarks/adhoc/logic12/combine.py BASE NEW
import glob, os, pickle, sys
import numpy as np
import plx_core.selection as S

base, new = sys.argv[1], sys.argv[2]
rows = []
for p in sorted(glob.glob(os.path.join(new, "*.pkl"))):
    n = pickle.load(open(p, "rb"))
    b = pickle.load(open(os.path.join(base, os.path.basename(p)), "rb"))
    def pick(rec, rv_oof):
        if rec["args"] is None or "rule-vote" not in rec["args"][3]:
            return None
        y, dp, dr, oof, fold, off = rec["args"]
        return S.choose(y, dp, dr, {**oof, "rule-vote": rv_oof}, fold, off)
    sb = pick(b, None if b["args"] is None else b["args"][3].get("rule-vote"))
    sn = None if n["args"] is None else pick(b, n["args"][3]["rule-vote"])
    old = b["without_f1"] if sb is None or sb.chosen != "rule-vote" else b["rule-vote_f1"]
    now = b["without_f1"] if sn is None or sn.chosen != "rule-vote" else n["rule-vote_f1"]
    rows.append((b["set"], b["run"], old, now, b["rule-vote_f1"], n["rule-vote_f1"],
                 sb is not None and sb.chosen == "rule-vote", sn is not None and sn.chosen == "rule-vote"))
import pandas as pd
d = pd.DataFrame(rows, columns=["set", "run", "old", "new", "rv_old", "rv_new", "chose_old", "chose_new"])
d["half"] = np.where(d.run < 10, "0-9", "10-19")
d["diff"] = d.new - d.old
g = d.groupby(["set", "half"])
out = pd.DataFrame({"old": g.old.mean(), "new": g.new.mean(), "better": g["diff"].apply(lambda x: (x > 1e-9).sum()),
                    "worse": g["diff"].apply(lambda x: (x < -1e-9).sum()), "rv_always_old": g.rv_old.mean(),
                    "rv_always_new": g.rv_new.mean(), "rv_answers_old": g.chose_old.sum(), "rv_answers_new": g.chose_new.sum(), "n": g.size()})
pd.set_option("display.width", 200)
print(out.round(4).to_string())
