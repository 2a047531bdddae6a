# Ad hoc summary behind benchmarks/RESULTS.md, "The rule vote …" (fresh splits for the margin);
# kept as it ran (moved from /tmp/rvm2/summ.py). Usage: python benchmarks/adhoc/rvm/summ.py LOG.csv
import pandas as pd, numpy as np
import sys
d = pd.read_csv(sys.argv[1] if len(sys.argv) > 1 else "rvm_log.csv", header=None, names=["set","run","old","new","chosen","oldchosen","oof","n","fit"])
for k, g in d.groupby("set", sort=False):
    ans = (g.chosen == "rule-vote").sum()
    print(f"{k:18s} runs {len(g):2d} old {g.old.mean():.3f}±{g.old.std():.3f} new {g.new.mean():.3f}±{g.new.std():.3f} diff {g.new.mean()-g.old.mean():+.4f} answered {ans} +{(g.new>g.old+1e-9).sum()}/-{(g.new<g.old-1e-9).sum()} clauses {g[g.chosen=='rule-vote'].n.median() if ans else 0:.0f}")
