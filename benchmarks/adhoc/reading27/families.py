"""Seeded tables of how columns are written, round 9 (session 27, reading27): ordered bands and
scale words in feature columns ('0-9' … '90+', '<5' … '≥50', neg … 3+, Likert words, 'Stage
I' … 'Stage IV'), and one yes/no answer written in several vocabularies (Y/N, yes/no,
TRUE/FALSE, 1/0 from systems joined).

Each family writes its table to a CSV (label column `outcome`) and reads it back with
`pd.read_csv` as a new user would (text stays text), returning (X, y, positive class); the
helpers are unseen23's (`_read` keeps each file's text for `cli_run.py`). The `_ordered`
families hold the same table with each band column as a pandas ordered Categorical (what plx
fit now reads; `PLXClassifier` cuts an ordered Categorical in its order), `_merged` the flags
as one writing an answer (`data.read_flags`): read with this worktree's `plx_core`.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

_spec = importlib.util.spec_from_file_location(
    "unseen23_families", Path(__file__).parent.parent / "unseen23" / "families.py")
U = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(U)
_sig, _yes, _csv = U._sig, U._yes, U._csv
_read = U._read
TEXTS = U.TEXTS


def _bands(v: np.ndarray, edges: list[float], names: list[str]) -> list[str]:
    return [names[i] for i in np.searchsorted(edges, v, side="right")]


def age_bands(seed=0, n=2000):
    """A registry export: age in ten-year bands '0-9' … '80-89', '90+' (the top bands rare), the
    risk rising from 60; a creatinine beside it."""
    rng = np.random.default_rng(seed)
    age = np.clip(rng.gamma(6.0, 8.0, n), 0, 104)
    names = [f"{a}-{a + 9}" for a in range(0, 90, 10)] + ["90+"]
    creat = np.exp(rng.normal(0, 0.3, n)).round(2)
    z = -2.0 + 1.6 * (age >= 60) + 0.8 * (age >= 80) + 1.2 * (np.log(creat) > 0.3)
    X = pd.DataFrame({"age_band": _bands(age, list(range(10, 100, 10)), names),
                      "creatinine": creat})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def dipstick(seed=0, n=2000):
    """Urine dipstick protein and glucose graded 'neg', 'trace', '1+' … '3+' (3+ rare); the risk
    steps up from protein 2+ and with any glucose; a blood pressure beside."""
    rng = np.random.default_rng(seed)
    grades = ["neg", "trace", "1+", "2+", "3+"]
    prot = rng.choice(5, n, p=[0.45, 0.2, 0.17, 0.12, 0.06])
    glu = rng.choice(5, n, p=[0.7, 0.1, 0.1, 0.06, 0.04])
    sbp = rng.normal(135, 18, n).round()
    z = -2.0 + 1.8 * (prot >= 3) + 0.6 * (glu >= 2) + 0.02 * (sbp - 135)
    X = pd.DataFrame({"protein": np.array(grades)[prot], "glucose": np.array(grades)[glu],
                      "sbp": sbp})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def survey_likert(seed=0, n=2000):
    """A customer survey: three 5-point agree items written out ('Strongly disagree' …
    'Strongly agree'), the churn risk falling with satisfaction and rising with 'price too
    high'; tenure in months beside."""
    rng = np.random.default_rng(seed)
    words = np.array(["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree",
                      "Strongly agree"])
    lat = rng.normal(0, 1, n)
    sat = np.clip(np.round(2 + 1.1 * lat + rng.normal(0, 0.7, n)), 0, 4).astype(int)
    price = np.clip(np.round(2 - 0.6 * lat + rng.normal(0, 1.0, n)), 0, 4).astype(int)
    rec = np.clip(np.round(2 + 0.9 * lat + rng.normal(0, 0.9, n)), 0, 4).astype(int)
    tenure = rng.integers(1, 72, n)
    z = -1.0 - 0.9 * (sat - 2) + 0.5 * (price - 2) - 0.02 * (tenure - 36)
    X = pd.DataFrame({"satisfied": words[sat], "price_too_high": words[price],
                      "would_recommend": words[rec], "tenure": tenure})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def visit_counts(seed=0, n=2000):
    """Visits last year exported as '<5', '5-9', '10-19', '20-49', '≥50' and a stage written
    'Stage I' … 'Stage IV'; the risk rises with visits from 20 and with stage from III."""
    rng = np.random.default_rng(seed)
    visits = rng.negative_binomial(2, 0.12, n)
    vb = _bands(visits, [5, 10, 20, 50], ["<5", "5-9", "10-19", "20-49", "≥50"])
    stage = rng.choice(4, n, p=[0.35, 0.3, 0.22, 0.13])
    z = -1.8 + 1.2 * (visits >= 20) + 1.4 * (stage >= 2)
    X = pd.DataFrame({"visits": vb, "stage": np.array(["Stage I", "Stage II", "Stage III",
                                                       "Stage IV"])[stage]})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def flags_joined(seed=0, n=2000):
    """Three systems joined: each writes smoker and diabetic its own way (Y/N, yes/no,
    TRUE/FALSE, 1/0); the risk is smoker and diabetic together, with an age beside."""
    rng = np.random.default_rng(seed)
    src = rng.choice(4, n)
    sm, db = rng.random(n) < 0.3, rng.random(n) < 0.25
    ways = [("Y", "N"), ("yes", "no"), ("TRUE", "FALSE"), ("1", "0")]
    def w(v):
        return [ways[s][0] if x else ways[s][1] for s, x in zip(src, v)]
    age = rng.normal(55, 12, n).round()
    z = -2.0 + 2.2 * (sm & db) + 0.5 * sm + 0.03 * (age - 55)
    X = pd.DataFrame({"smoker": w(sm), "diabetic": w(db), "age": age})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def flags_spelled(seed=0, n=2000):
    """One form's yes/no written 'Yes', 'yes', 'YES', 'y' / 'No', 'no', 'n' by hand, a tenth
    missing; the risk with the answer and a lab beside."""
    rng = np.random.default_rng(seed)
    v = rng.random(n) < 0.35
    yes_w, no_w = np.array(["Yes", "yes", "YES", "y"]), np.array(["No", "no", "n"])
    text = np.where(v, yes_w[rng.integers(0, 4, n)], no_w[rng.integers(0, 3, n)]).astype(object)
    text[rng.random(n) < 0.1] = None
    lab = rng.normal(0, 1, n).round(2)
    z = -1.5 + 1.6 * v + 0.6 * lab
    X = pd.DataFrame({"prior_event": text, "lab": lab})
    return _read(_csv(X, _yes(_sig(z), rng)), "yes")


def _ordered(family):
    """`family`'s table with each column plx fit reads as ordered levels an ordered Categorical
    in that order (`data.ordered_levels`)."""
    def make(seed=0, n=2000):
        from plx_core.data import ordered_levels

        X, y, pos = family(seed, n)
        for c in X.columns:
            if (lv := ordered_levels(X[c])) is not None and not isinstance(X[c].dtype, pd.CategoricalDtype):
                X[c] = pd.Categorical(X[c], categories=lv, ordered=True)
        return X, y, pos
    return make


def _codes(family):
    """`family`'s table with each column of ordered levels as its level's place (0, 1, …): the
    baselines' reading of the order (an ordered Categorical reaches them as no number)."""
    def make(seed=0, n=2000):
        X, y, pos = _ordered(family)(seed, n)
        for c in X.columns:
            if isinstance(X[c].dtype, pd.CategoricalDtype):
                X[c] = X[c].cat.codes.astype(float).where(X[c].notna())
        return X, y, pos
    return make


def _merged(family):
    """`family`'s table with each flag column as plx fit reads it (`data.flag_map`)."""
    def make(seed=0, n=2000):
        from plx_core.data import flag_map, read_flags

        X, y, pos = family(seed, n)
        for c in X.columns:
            if (m := flag_map(X[c])) is not None:
                X[c] = read_flags(X[c], m)
        return X, y, pos
    return make


FAMILIES = {"age_bands": age_bands, "dipstick": dipstick, "survey_likert": survey_likert,
            "visit_counts": visit_counts, "flags_joined": flags_joined,
            "flags_spelled": flags_spelled}
FAMILIES.update({f"{k}_ordered": _ordered(f) for k, f in list(FAMILIES.items())[:4]})
FAMILIES.update({f"{k}_codes": _codes(FAMILIES[k]) for k in list(FAMILIES)[:4]})
FAMILIES.update({f"{k}_merged": _merged(FAMILIES[k]) for k in list(FAMILIES)[4:6]})
CLI_FLAGS: dict[str, list[str]] = {}

BASE = ("age_bands", "dipstick", "survey_likert", "visit_counts", "flags_joined",
        "flags_spelled")

if __name__ == "__main__":  # python families.py DIR: each base family's CSV, for plx fit
    import sys

    sys.path.insert(0, str(Path(__file__).parent.parent))
    from tables import write_csvs

    write_csvs(Path(sys.argv[1]), {k: FAMILIES[k] for k in BASE}, TEXTS)
