"""Ad hoc (session 16, vote16): the default on Voting runs 0-9, its choice, test F1 and the
search's out-of-fold scores (the one-feature vote "direct-vote" against the best four)."""
import warnings; warnings.simplefilter("ignore")
import numpy as np
import plx_core.selection as S
from plx_core.experiments.compare import make, split_set
X, y, sp = split_set("voting", 10)
for r, (tr, te) in enumerate(sp):
    mm = make("plx", r, X.shape[1]).fit(X.iloc[tr], y[tr]); m = mm.model_
    sel = m.selection_
    sc = sel.scores or {}
    top = sorted(sc.items(), key=lambda t: -t[1])[:4]
    p = (np.asarray(mm.predict(X.iloc[te])).astype(int))
    f = S.f1_at(y[te], p.astype(float), np.array([0.5]))[0]
    print(r, m.chosen_, f"{f:.3f}", "dv" , round(sc.get("direct-vote", float("nan")), 4), [(k, round(v, 4)) for k, v in top], flush=True)
