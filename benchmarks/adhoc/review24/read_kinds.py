"""review24: `_read_numbers`, `unread_numbers`, `text_binned` and `reads_as_numbers` on 22 kinds
of cells (codes, stray words, units, percents, dates, clocks, pairs, censored, typeset minus,
thousands, Excel serials), pickled, to compare two trees of plx_core:
PYTHONPATH=/tmp/base python benchmarks/adhoc/review24/read_kinds.py /tmp/base.pkl (and again
for the other tree), then compare the two pickles entry by entry."""
import pickle
import sys
import warnings

import numpy as np
import pandas as pd

import plx_core.data as D

warnings.simplefilter("ignore")
r = np.random.default_rng(1)
words = ["unknown", "refused", "not done", "pending", "n.d.", "see note", "hemolyzed", "clotted", "qns"]
def num(n): return [f"{x:.1f}" for x in r.normal(10, 3, n)]
kinds = {
 "codes": lambda n: [f"reg{x}" for x in r.integers(0, 30, n)],
 "codes_few": lambda n: [f"c{x}" for x in r.integers(0, 4, n)],
 "num+3words": lambda n: [v if r.random() > .05 else r.choice(words[:3]) for v in num(n)],
 "num+6words": lambda n: [v if r.random() > .05 else r.choice(words[:6]) for v in num(n)],
 "num+9words_rare": lambda n: [v if r.random() > .01 else r.choice(words) for v in num(n)],
 "num+1word_40pct": lambda n: [v if r.random() > .4 else "pending" for v in num(n)],
 "units+words": lambda n: [f"{v} mg" if r.random() > .05 else r.choice(words) for v in num(n)],
 "pct+words": lambda n: [f"{v}%" if r.random() > .03 else r.choice(words[:7]) for v in num(n)],
 "dates+words": lambda n: [f"2024-0{r.integers(1,9)}-1{r.integers(0,9)}" if r.random() > .05 else r.choice(words) for _ in range(n)],
 "censored+words": lambda n: [v if r.random() > .1 else r.choice(["<5", ">100", "unknown", "n/d", "refused", "lost", "tbd", "x"]) for v in num(n)],
 "minus+codes": lambda n: [f"\u2212{v}" if r.random() > .5 else f"k{r.integers(0,20)}" for v in num(n)],
 "minus": lambda n: [f"\u2212{v}" if r.random() > .5 else v for v in num(n)],
 "comma_dec+words": lambda n: [v.replace(".", ",") if r.random() > .05 else r.choice(words) for v in num(n)],
 "times+words": lambda n: [f"{r.integers(0,24):02d}:{r.integers(0,60):02d}" if r.random() > .05 else r.choice(words) for _ in range(n)],
 "dur": lambda n: [f"{r.integers(0,9)}h{r.integers(0,60):02d}" for _ in range(n)],
 "pairs": lambda n: [f"{r.integers(90,180)}/{r.integers(50,100)}" for _ in range(n)],
 "pairs+words": lambda n: [f"{r.integers(90,180)}/{r.integers(50,100)}" if r.random() > .05 else r.choice(words) for _ in range(n)],
 "paren_neg": lambda n: [f"({v})" if r.random() > .5 else v for v in num(n)],
 "thousands+words": lambda n: [f"{r.integers(1000,99999):,}" if r.random() > .05 else r.choice(words) for _ in range(n)],
 "mixed_codes_nums": lambda n: [v if r.random() > .3 else f"z{r.integers(0,50)}" for v in num(n)],
 "excel+words": lambda n: [str(r.integers(43000, 45000)) if r.random() > .05 else r.choice(words) for _ in range(n)],
 "sci+words": lambda n: [f"{r.normal(1,0.2):.2e}" if r.random() > .05 else r.choice(words) for _ in range(n)],
}
out = {}
for name, f in kinds.items():
    for n in (40, 400):
        vals = f(n)
        s = pd.Series(vals, dtype=object, name="lab_value")
        res = {}
        try:
            x, bad, fmt, strays, extra = D._read_numbers(s)
            res["read"] = (np.round(np.nan_to_num(x, nan=-1e9), 6).tolist(), bad.tolist(), fmt, strays)
        except Exception as e:  # noqa: BLE001
            res["read"] = repr(e)
        for fn in ("unread_numbers", "text_binned", "reads_as_numbers"):
            try:
                res[fn] = getattr(D, fn)(s)
            except Exception as e:  # noqa: BLE001
                res[fn] = repr(e)
        out[(name, n)] = res
pickle.dump(out, open(sys.argv[1], "wb"))
