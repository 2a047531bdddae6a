"""review24: text_binned with and without its distinct-value shortcut (`data._maybe_number`)
on 24 kinds of cells, pure and mixed with 20% plain numbers; prints any kind that differs.
Run: PYTHONPATH=. python benchmarks/adhoc/review24/text_binned_kinds.py"""

import numpy as np
import pandas as pd

import plx_core.data as D

r = np.random.default_rng(0)
kinds = {
 "acct": lambda n: [f"({x})" for x in r.integers(1,500,n)],
 "pct": lambda n: [f"{x}%" for x in r.integers(1,100,n)],
 "frac": lambda n: [f"{a}/{b}" for a,b in zip(r.integers(1,9,n), r.integers(2,9,n))],
 "range": lambda n: [f"{a}-{a+5}" for a in r.integers(1,90,n)],
 "tilde": lambda n: [f"~{x}" for x in r.integers(1,90,n)],
 "plusminus": lambda n: [f"{x}±2" for x in r.integers(1,90,n)],
 "bp": lambda n: [f"{a}/{b}" for a,b in zip(r.integers(90,180,n), r.integers(50,100,n))],
 "unit": lambda n: [f"{x} mg" for x in r.integers(1,90,n)],
 "unitnospace": lambda n: [f"{x}mg" for x in r.integers(1,90,n)],
 "hours": lambda n: [f"{x}h" for x in r.integers(1,90,n)],
 "dur": lambda n: [f"{a}:{b:02d}" for a,b in zip(r.integers(0,9,n), r.integers(0,59,n))],
 "ordinal": lambda n: [f"{x}th" for x in r.integers(4,20,n)],
 "codes": lambda n: [f"reg{x}" for x in r.integers(0,30,n)],
 "roman": lambda n: list(r.choice(["I","II","III","IV","V","VI","VII"], n)),
 "words": lambda n: list(r.choice(["one","two","three","four","five","six","seven","twelve"], n)),
 "plus": lambda n: [f"{x}+" for x in r.integers(1,90,n)],
 "inf": lambda n: list(r.choice(["inf","-inf","Infinity","1","2.5","3.7"], n)),
 "stage": lambda n: list(r.choice(["T1","T2","T3","T4","T1a","T2b","T3c"], n)),
 "dec_comma": lambda n: [f"{x:.1f}".replace(".",",") for x in r.normal(5,2,n)],
 "approx": lambda n: [f"approx {x}" for x in r.integers(1,90,n)],
 "nospace_unit2": lambda n: [f"{x}kg/m2" for x in r.integers(15,40,n)],
 "x_times": lambda n: [f"{x}x" for x in r.integers(1,20,n)],
 "quarter": lambda n: [f"{y}Q{q}" for y,q in zip(r.integers(2010,2020,n), r.integers(1,5,n))],
 "hex": lambda n: [f"0x{x:x}" for x in r.integers(1,500,n)],
}
orig = D._maybe_number
diffs = []
for name, f in kinds.items():
    for mix in [0, 0.2]:
        vals = f(300)
        if mix:
            vals = [v if r.random() > mix else f"{r.normal(10,3):.1f}" for v in vals]
        s = pd.Series(vals, dtype=object)
        new = D.text_binned(s)
        D._maybe_number = lambda v: np.ones(len(v), bool)
        old = D.text_binned(s)
        D._maybe_number = orig
        mark = "" if new == old else "   <-- DIFFERENT"
        print(f"{name:14s} mix={mix} new={new} old={old}{mark}")
