"""Running the experiments: the methods compared, the seeded runs, and one function per experiment."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..baselines import OneHotModel, f1_score
from ..data import Dataset
from ..errors import DataError
from ..plurals import noun
from .figures import _fig2_figure, _fig3_figure, _fig4_figure, _table4_figure, f1_figure
from .sets import (
    BASELINE_KEYS,
    BASELINES,
    KS,
    PAPER_FIG2,
    PAPER_ONLY_SETS,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    SETS,
    TABLE2_SETS,
    TABLE3_SETS,
    VARIANT_SETS,
    SetSpec,
)
from .tables import Outputs, _gap_lines, f1_table_markdown, summarise, variants_markdown

# --------------------------------------------------------------------------- methods


#: Our methods: name → PLXClassifier keyword arguments.
OURS: dict[str, dict[str, Any]] = {
    "Tree": {"kb": "tree", "variant": "paper"},
    "Direct": {"variant": "paper"},
    "Direct (tuned)": {"variant": "tuned"},
}
VARIANT_METHODS: dict[str, dict[str, Any]] = {
    "Direct": {"variant": "paper"},
    "tuned": {"variant": "tuned"},
    "bagged": {"variant": "bagged", "n_estimators": 10},
    "subspace": {"variant": "subspace", "n_estimators": 10},
    "weighted": {"variant": "weighted"},
    "confidence": {"variant": "confidence"},
    "direct+forest": {"variant": "direct+forest", "n_trees": 10},
    "Tree": {"kb": "tree", "variant": "paper"},
    "forest KB": {"kb": "forest", "variant": "paper", "n_trees": 10},
}


def make_method(name: str, seed: int, spec: SetSpec, ours: dict[str, dict[str, Any]],
                positive: Any = None) -> Any:
    if name in BASELINES:
        return OneHotModel(BASELINE_KEYS[name], seed)
    from ..estimator import PLXClassifier

    kw = dict(ours[name])
    if kw.get("kb", "direct") == "direct":
        kw.setdefault("max_len", spec.max_len)
    return PLXClassifier(random_state=seed, positive=positive, **kw)


# --------------------------------------------------------------------------- helpers


def _progress(total: int, desc: str, enabled: bool):
    try:
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, file=sys.stderr, disable=not enabled, leave=False)
    except ImportError:  # pragma: no cover - tqdm is installed here
        return _Counter(total, desc, enabled)


class _Counter:
    def __init__(self, total: int, desc: str, enabled: bool):
        self.total, self.desc, self.enabled, self.n = total, desc, enabled, 0

    def update(self, k: int = 1) -> None:
        self.n += k
        if self.enabled:
            print(f"\r{self.desc}: {self.n}/{self.total}", end="", file=sys.stderr)

    def set_postfix_str(self, s: str) -> None:
        pass

    def close(self) -> None:
        if self.enabled:
            print(file=sys.stderr)


def _protocols(balance: str) -> list[str]:
    return ["before", "train"] if balance == "both" else [balance]


# --------------------------------------------------------------------------- F1 experiments


def f1_runs(
    set_keys: Iterable[str],
    methods: Sequence[str],
    ours: dict[str, dict[str, Any]],
    protocols: Sequence[str],
    runs: int,
    quick: bool,
    progress: bool = True,
) -> pd.DataFrame:
    """One row per (data set, protocol, run, method): F1 of the positive class and timings."""
    specs = [SETS[k] for k in set_keys]
    rows: list[dict[str, Any]] = []
    total = sum(len(protocols) for _ in specs) * runs * len(methods)
    bar = _progress(total, "F1 runs", progress)
    for spec in specs:
        ds = spec.load(quick)
        for protocol in protocols:
            if protocol == "train" and "before" in protocols and _balanced(ds):
                # a balanced set has no replicas: both protocols give the same split
                rows.extend({**r, "protocol": "train", "same_split_as_before": True}
                            for r in rows if r["dataset"] == spec.key and r["protocol"] == "before")
                bar.update(runs * len(methods))
                continue
            for run in range(runs):
                Xtr, Xte, ytr, yte = ds.split(seed=run, balance=protocol)
                for name in methods:
                    bar.set_postfix_str(f"{spec.key} {protocol} run {run} {name}")
                    model = make_method(name, run, spec, ours, ds.positive)
                    t0 = time.perf_counter()
                    model.fit(Xtr, ytr)
                    t1 = time.perf_counter()
                    pred = model.predict(Xte)
                    t2 = time.perf_counter()
                    rows.append({
                        "dataset": spec.key, "label": spec.label, "protocol": protocol,
                        "run": run, "method": name,
                        "f1": f1_score(yte, pred, ds.positive),
                        "accuracy": float(np.mean(np.asarray(pred, dtype=str)
                                                  == np.asarray(yte, dtype=str))),
                        "fit_s": t1 - t0, "predict_s": t2 - t1,
                        "n_train": len(ytr), "n_test": len(yte),
                        "same_split_as_before": False,
                    })
                    bar.update(1)
    bar.close()
    return pd.DataFrame(rows)


def _balanced(ds: Dataset) -> bool:
    counts = ds.y.value_counts()
    return bool(counts.min() == counts.max())


def _chosen_methods(args: argparse.Namespace, default: Sequence[str]) -> list[str]:
    if not getattr(args, "methods", ""):
        return list(default)
    names = [m.strip() for m in args.methods.split(",") if m.strip()]
    bad = [m for m in names if m not in default]
    if bad:
        raise DataError(f"unknown {noun(len(bad), 'method')} {bad} for {args.experiment}; choose from "
                        f"{list(default)}")
    return names


def _f1_experiment(args: argparse.Namespace, name: str, default_sets: Sequence[str],
                   methods: Sequence[str], ours: dict[str, dict[str, Any]],
                   paper: dict[str, dict[str, float]], title: str,
                   extra_paper_sets: dict[str, str] | None = None) -> Outputs:
    sets = _chosen_sets(args, default_sets)
    methods = _chosen_methods(args, methods)
    protocols = _protocols(args.balance)
    df = f1_runs(sets, methods, ours, protocols, args.runs, args.quick, not args.no_progress)
    summary = summarise(df)
    o = _outputs(args)
    o.csv(name, df)
    o.csv(f"{name}_summary", summary)
    o.figure(name, f1_figure(summary, title, methods))
    md = [f"# {title}\n", _command(args), "",
          "Cells: our mean F1 ± standard deviation over the runs (the paper's value in "
          "brackets; the paper averages 50 runs).", ""]
    for p in protocols:
        md.append(f"## balance={p}\n")
        md.append(f1_table_markdown(summary, paper, sets, methods, p, extra_paper_sets))
    md.append(_gap_lines(summary, protocols))
    o.markdown(name, "\n".join(md))
    return o


def run_table2(args: argparse.Namespace) -> Outputs:
    return _f1_experiment(args, "table2", TABLE2_SETS, [*OURS, *BASELINES], OURS, PAPER_TABLE2,
                          "Table 2: F1 on the real data sets", PAPER_ONLY_SETS)


def run_table3(args: argparse.Namespace) -> Outputs:
    return _f1_experiment(args, "table3", TABLE3_SETS, [*OURS, *BASELINES], OURS, PAPER_TABLE3,
                          "Table 3: F1 on the synthetic data sets")


def run_variants(args: argparse.Namespace) -> Outputs:
    methods = _chosen_methods(args, [*VARIANT_METHODS, *BASELINES])
    sets = _chosen_sets(args, VARIANT_SETS)
    protocols = _protocols(args.balance)
    df = f1_runs(sets, methods, VARIANT_METHODS, protocols, args.runs, args.quick,
                 not args.no_progress)
    summary = summarise(df)
    o = _outputs(args)
    o.csv("variants", df)
    o.csv("variants_summary", summary)
    o.figure("variants", f1_figure(summary, "Variants of the Direct method vs baselines",
                                   methods))
    md = ["# Variants of the Direct method vs baselines\n", _command(args), "",
          "Mean F1 over the runs (same splits for every method). Direct = the paper's method "
          "(its published F1 in brackets); tuned = `PLXClassifier(variant='tuned')`; see "
          "`plx_core.estimator` for the others. Last columns: the best baseline and the gap "
          "of the tuned variant to it.", ""]
    for p in protocols:
        md += [f"## balance={p}\n", variants_markdown(summary, methods, p)]
    o.markdown("variants", "\n".join(md))
    return o


# --------------------------------------------------------------------------- Table 4 / Fig. 2


def _needs_explain() -> tuple[Any, Any]:
    import importlib

    try:  # by module path: plx_core exports a function named `explain`
        ex = importlib.import_module("plx_core.explain")
        sc = importlib.import_module("plx_core.shap_compare")
    except ImportError as exc:  # pragma: no cover - both modules exist now
        raise DataError(f"this experiment needs plx_core.explain and plx_core.shap_compare "
                        f"({exc})") from exc
    return ex, sc




def run_table4(args: argparse.Namespace) -> Outputs:
    """Explanation accuracy (share of explanation features equal to the seed) for the test
    rows our Direct KB classifies positive, ours (Algorithm 6) vs SHAP of a random forest."""
    ex, sc = _needs_explain()
    from ..estimator import PLXClassifier

    sets = _chosen_sets(args, TABLE3_SETS)
    per_run = args.rows or (15 if args.quick else 200)
    rows: list[dict[str, Any]] = []
    bar = _progress(len(sets) * args.runs, "Table 4", not args.no_progress)
    for key in sets:
        ds = SETS[key].load(args.quick)
        if ds.truth is None:
            raise DataError(f"{key} has no ground truth (Table 4 needs a synthetic set)")
        for run in range(args.runs):
            Xtr, Xte, ytr, yte = ds.split(seed=run, balance="before")
            clf = PLXClassifier(variant="paper", positive=ds.positive).fit(Xtr, ytr)
            pred = clf.predict(Xte)
            idx = np.flatnonzero(np.asarray(pred, dtype=str) == str(ds.positive))
            gen = np.random.default_rng(run)
            idx = np.sort(gen.choice(idx, min(per_run, len(idx)), replace=False))
            sub = Xte.iloc[idx]
            t0 = time.perf_counter()
            ours = [ex.explain_all(clf.kb_, r.to_dict(), KS) for _, r in sub.iterrows()]
            t1 = time.perf_counter()
            shap = sc.shap_values_baseline(Xtr, ytr, sub, model="forest", random_state=run,
                                           positive=ds.positive)
            t2 = time.perf_counter()
            values = [ex.shapley(clf.kb_, r.to_dict()) for _, r in sub.iterrows()]
            t3 = time.perf_counter()
            for k in KS:
                theirs = shap.top_k(k, direction="positive")
                for i, (_, r) in enumerate(sub.iterrows()):
                    row = r.to_dict()
                    rows.append({"dataset": key, "label": SETS[key].label, "run": run, "k": k,
                                 "row": int(idx[i]), "method": "Direct",
                                 "accuracy": ex.explanation_accuracy(ours[i][k].features, row,
                                                                     ds.truth),
                                 "true_positive": str(yte.iloc[idx[i]]) == str(ds.positive),
                                 "seconds": (t1 - t0) / max(len(sub), 1)})
                    rows.append({"dataset": key, "label": SETS[key].label, "run": run, "k": k,
                                 "row": int(idx[i]), "method": "SHAP",
                                 "accuracy": ex.explanation_accuracy(theirs[i], row, ds.truth),
                                 "true_positive": str(yte.iloc[idx[i]]) == str(ds.positive),
                                 "seconds": (t2 - t1) / max(len(sub), 1)})
                    rows.append({"dataset": key, "label": SETS[key].label, "run": run, "k": k,
                                 "row": int(idx[i]), "method": "Shapley (ours)",
                                 "accuracy": ex.explanation_accuracy(
                                     values[i].top(k, "positive"), row, ds.truth),
                                 "true_positive": str(yte.iloc[idx[i]]) == str(ds.positive),
                                 "seconds": (t3 - t2) / max(len(sub), 1)})
            bar.update(1)
    bar.close()
    df = pd.DataFrame(rows)
    summary = (df.groupby(["dataset", "label", "method", "k"], sort=False)
               .agg(accuracy=("accuracy", "mean"), rows=("accuracy", "size"),
                    seconds=("seconds", "mean")).reset_index())
    summary["paper"] = [PAPER_TABLE4.get((d, m), [math.nan] * 5)[k - 1]
                        for d, m, k in zip(summary["dataset"], summary["method"], summary["k"])]
    o = _outputs(args)
    o.csv("table4", df)
    o.csv("table4_summary", summary)
    o.figure("table4", _table4_figure(summary))
    md = ["# Table 4: explanation accuracy on the synthetic sets\n", _command(args), "",
          f"Test rows our Direct KB (variant='paper') classifies positive, at most {per_run} "
          "per run; ours = Algorithm 6 (`plx_core.explain`), SHAP = TreeExplainer of a random "
          "forest (100 trees, one-hot) on the same rows, top-k positive contributions; "
          "Shapley (ours) = the k largest exact Shapley values of ω(POS) on the same KB "
          "(`explain(..., strategy='shapley')`, not in the paper). "
          "Accuracy = share of the k features whose value equals the seed string. "
          "Cells: ours (paper).", "",
          "| set | method | " + " | ".join(f"k={k}" for k in KS) + " |",
          "|---|---|" + "---|" * len(KS)]
    for key in sets:
        for m in ("Direct", "SHAP", "Shapley (ours)"):
            s = summary[(summary["dataset"] == key) & (summary["method"] == m)]
            cells = [f"{a:.3f}" + ("" if math.isnan(p) else f" ({p:.3f})")
                     for a, p in zip(s["accuracy"], s["paper"])]
            md.append(f"| {SETS[key].label} | {m} | " + " | ".join(cells) + " |")
    o.markdown("table4", "\n".join(md) + "\n")
    return o


def run_fig2(args: argparse.Namespace) -> Outputs:
    """Agreement of our explanations with SHAP on Titanic and Mushroom (paper Fig. 2): per k,
    the share of instances with at least / exactly j common features, and per feature how
    often each side picks it."""
    ex, sc = _needs_explain()
    from ..estimator import PLXClassifier

    sets = _chosen_sets(args, ("titanic", "mushroom"))
    per_run = args.rows or (15 if args.quick else 200)
    agree_rows: list[dict[str, Any]] = []
    chosen_rows: list[dict[str, Any]] = []
    bar = _progress(len(sets) * args.runs, "Fig. 2", not args.no_progress)
    for key in sets:
        ds = SETS[key].load(args.quick)
        for run in range(args.runs):
            Xtr, Xte, ytr, _ = ds.split(seed=run, balance="before")
            clf = PLXClassifier(variant="paper", positive=ds.positive).fit(Xtr, ytr)
            gen = np.random.default_rng(run)
            idx = np.sort(gen.choice(len(Xte), min(per_run, len(Xte)), replace=False))
            sub = Xte.iloc[idx]
            known = sub.notna().sum(axis=1).to_numpy()
            ours = [ex.explain_all(clf.kb_, r.dropna().to_dict(),
                                   [k for k in KS if k <= known[i]])
                    for i, (_, r) in enumerate(sub.iterrows())]
            decisions = np.array([next(iter(e.values())).positive for e in ours])
            shap = sc.shap_values_baseline(Xtr, ytr, sub, model="forest", random_state=run,
                                           positive=ds.positive)
            for k in KS:
                ok = [i for i in range(len(sub)) if k in ours[i]]
                if not ok:
                    continue
                theirs = shap.top_k(k, direction=decisions)
                agr = sc.top_k_agreement([ours[i][k].features for i in ok],
                                         [theirs[i] for i in ok], k,
                                         features=list(ds.X.columns))
                for j in range(0, k + 1):
                    agree_rows.append({"dataset": key, "label": SETS[key].label, "run": run,
                                       "k": k, "j": j, "n": agr.n,
                                       "exactly": agr.exactly[j],
                                       "at_least": agr.at_least.get(j, 1.0)})
                for _, c in agr.chosen.iterrows():
                    chosen_rows.append({"dataset": key, "label": SETS[key].label, "run": run,
                                        "k": k, "feature": c["feature"], "ours": c["ours"],
                                        "shap": c["shap"]})
            bar.update(1)
    bar.close()
    agree = pd.DataFrame(agree_rows)
    chosen = pd.DataFrame(chosen_rows)
    summary = (agree.groupby(["dataset", "label", "k", "j"], sort=False)
               .agg(exactly=("exactly", "mean"), at_least=("at_least", "mean"))
               .reset_index())
    summary["paper_at_least"] = [PAPER_FIG2.get((d, k, j), math.nan)
                                 for d, k, j in zip(summary["dataset"], summary["k"],
                                                    summary["j"])]
    chosen_sum = (chosen.groupby(["dataset", "label", "k", "feature"], sort=False)
                  [["ours", "shap"]].mean().reset_index())
    o = _outputs(args)
    o.csv("fig2", agree)
    o.csv("fig2_summary", summary)
    o.csv("fig2_chosen", chosen_sum)
    o.figure("fig2", _fig2_figure(summary, chosen_sum))
    md = ["# Fig. 2: agreement of our explanations with SHAP\n", _command(args), "",
          f"At most {per_run} random test rows per run; ours = Algorithm 6 on the Direct KB "
          "(variant='paper'), SHAP = TreeExplainer of a random forest (100 trees, one-hot) "
          "on the same rows, explaining our decision's side. Share of rows whose two top-k "
          "sets have at least j common features (the paper's value in brackets, from its "
          "text: Titanic only).", "",
          "| set | k | " + " | ".join(f"≥{j} common" for j in KS) + " |",
          "|---|---|" + "---|" * len(KS)]
    for key in sets:
        for k in KS:
            s = summary[(summary["dataset"] == key) & (summary["k"] == k) & (summary["j"] >= 1)]
            if not len(s):
                continue
            cells = []
            for j in KS:
                r = s[s["j"] == j]
                if not len(r):
                    cells.append("")
                    continue
                pv = r["paper_at_least"].iloc[0]
                cells.append(f"{r['at_least'].iloc[0]:.2f}"
                             + ("" if math.isnan(pv) else f" ({pv:.2f})"))
            md.append(f"| {SETS[key].label} | {k} | " + " | ".join(cells) + " |")
    md += ["", "Share of rows in which each feature is chosen (k = 1 and k = 2):", "",
           "| set | k | feature | ours | SHAP |", "|---|---|---|---|---|"]
    for _, r in chosen_sum[chosen_sum["k"] <= 2].iterrows():
        md.append(f"| {r['label']} | {r['k']} | {r['feature']} | {r['ours']:.2f} | "
                  f"{r['shap']:.2f} |")
    o.markdown("fig2", "\n".join(md) + "\n")
    return o


# --------------------------------------------------------------------------- Fig. 3


def seed_clause_p(L: int, m: int, k: int) -> float:
    """P(POS | the row equals the seed on k given positions) under `synthetic`'s balanced
    sampling (half the rows uniform over the positive strings, half over the negative)."""
    n5 = math.comb(L, 5) * (m - 1) ** (L - 5)
    pos = math.comb(L - k, 5 - k) / math.comb(L, 5) if k <= 5 else 0.0
    with_k_and_5 = math.comb(L - k, 5 - k) * (m - 1) ** (L - 5) if k <= 5 else 0
    neg = (m ** (L - k) - with_k_and_5) / (m**L - n5)
    return pos / (pos + neg) if pos + neg > 0 else 0.0


def seed_clauses(truth: str, n: int, gen: np.random.Generator, m: int) -> list[Any]:
    """n clauses `[p] POS ∨ ¬a_i=s_i ∨ …` over random sub-strings of the seed (length
    uniform in 1..L), with p the exact probability under the data's sampling."""
    from ..kb import POS, Literal, WeightedClause

    L = len(truth)
    out = []
    for _ in range(n):
        k = int(gen.integers(1, L + 1))
        pos = sorted(gen.choice(L, k, replace=False).tolist())
        lits = (Literal(POS),) + tuple(Literal(f"a{i + 1}", truth[i], True) for i in pos)
        out.append(WeightedClause(lits, seed_clause_p(L, m, k), source="user"))
    return out


def match_set_clauses(truth: str, n: int, gen: np.random.Generator) -> list[Any]:
    """n definite clauses "the row equals the seed exactly on K": `[p] POS ∨ ¬a_i=s_i (i ∈ K)
    ∨ a_j=s_j (j ∉ K)` with p = 1 if |K| = 5 else 0 (the labelling rule itself, one match set
    at a time; K uniform over the non-empty subsets, without repeats)."""
    from ..kb import POS, Literal, WeightedClause

    L = len(truth)
    masks = gen.permutation(np.arange(1, 2**L))[:n]
    out = []
    for mask in masks.tolist():
        inside = [i for i in range(L) if (mask >> i) & 1]
        lits = (Literal(POS),) + tuple(
            Literal(f"a{i + 1}", truth[i], i in inside) for i in range(L))
        out.append(WeightedClause(lits, 1.0 if len(inside) == 5 else 0.0, source="user"))
    return out


def random_clauses(L: int, m: int, n: int, gen: np.random.Generator) -> list[Any]:
    """n clauses of random length 1..L over random positions and values, p uniform in [0, 1]."""
    from ..kb import POS, Literal, WeightedClause

    out = []
    for _ in range(n):
        k = int(gen.integers(1, L + 1))
        pos = sorted(gen.choice(L, k, replace=False).tolist())
        lits = (Literal(POS),) + tuple(
            Literal(f"a{i + 1}", str(int(gen.integers(1, m + 1))), True) for i in pos)
        out.append(WeightedClause(lits, float(gen.random()), source="user"))
    return out


FIG3_COUNTS = (0, 5, 10, 20, 50, 100, 200, 500, 1000)


def run_fig3(args: argparse.Namespace) -> Outputs:
    """F1 of the Tree KB on Syn 10/4 as true (seed) clauses / random clauses are added."""
    from ..query import query_many
    from ..tree import tree_kb

    key = _chosen_sets(args, ("syn-10-4",))[0]
    ds = SETS[key].load(args.quick)
    L = ds.X.shape[1]
    m = max(len(ds.X[c].dropna().unique()) for c in ds.X.columns)
    counts = FIG3_COUNTS[:6] if args.quick else FIG3_COUNTS
    rows: list[dict[str, Any]] = []
    bar = _progress(args.runs * 3 * len(counts), "Fig. 3", not args.no_progress)
    for run in range(args.runs):
        Xtr, Xte, ytr, yte = ds.split(seed=run, balance="before")
        yb = (ytr.to_numpy(dtype=object) == ds.positive).astype(int)
        base = tree_kb(Xtr, yb, positive=1)
        gen = np.random.default_rng(1000 + run)
        pools = {"seed": seed_clauses(ds.truth, max(counts), gen, m),
                 "match-set": match_set_clauses(ds.truth, max(counts), gen),
                 "random": random_clauses(L, m, max(counts), gen)}
        for kind, pool in pools.items():
            for c in counts:
                kb = base.copy()
                if c:
                    kb.add(pool[:c])
                b = query_many(kb, Xte, semantics="full")
                pred = np.where(b.positive, ds.positive, "~")
                rows.append({"dataset": key, "run": run, "clauses": kind, "added": c,
                             "f1": f1_score(yte, pred, ds.positive),
                             "kb_size": len(kb)})
                bar.update(1)
    bar.close()
    df = pd.DataFrame(rows)
    summary = (df.groupby(["clauses", "added"], sort=False)
               .agg(f1_mean=("f1", "mean"), f1_std=("f1", "std"), runs=("f1", "size"))
               .reset_index())
    o = _outputs(args)
    o.csv("fig3", df)
    o.csv("fig3_summary", summary)
    o.figure("fig3", _fig3_figure(summary, SETS[key].label))
    md = ["# Fig. 3: knowledge incorporation (Tree KB)\n", _command(args), "",
          f"{SETS[key].label}, Tree KB (ID3 leaves, full semantics), w = 1 for every clause. "
          "Seed clauses: `[p] POS ∨ ¬a_i=s_i ∨ …` over a random sub-string of the seed (length "
          "uniform 1..L) with p the exact probability under the data's sampling; match-set "
          "clauses: the labelling rule for one random match set K (`POS ∨ ¬a_K=s_K ∨ "
          "a_j=s_j (j ∉ K)`, p = 1 iff |K| = 5, else 0); random clauses: random length 1..L, "
          "positions and values, p uniform in [0, 1]. The paper "
          "shows the curves without numbers: seed clauses should raise F1, random ones lower "
          "it gradually.", "",
          "| clauses added | " + " | ".join(str(c) for c in counts) + " |",
          "|---|" + "---|" * len(counts)]
    for kind in ("seed", "match-set", "random"):
        s = summary[summary["clauses"] == kind]
        md.append(f"| {kind} | " + " | ".join(f"{v:.3f}" for v in s["f1_mean"]) + " |")
    o.markdown("fig3", "\n".join(md) + "\n")
    return o


# --------------------------------------------------------------------------- Fig. 4


FIG4_CLAUSES = (100, 1000, 3000, 10000)
FIG4_LITERALS = (100, 1000, 10000)


def random_kb(n_clauses: int, n_literals: int, gen: np.random.Generator,
              max_body: int = 4) -> Any:
    """A KB of n_clauses random `POS ∨ ¬K` / `¬POS ∨ ¬K` clauses over n_literals feature
    literals (n_literals / 2 binary features), bodies of 1..max_body literals, p uniform."""
    from ..kb import KB

    F = max(1, n_literals // 2)
    codes = np.full((n_clauses, F), -1, dtype=np.int8)
    lengths = gen.integers(1, min(max_body, F) + 1, n_clauses)
    for i, k in enumerate(lengths.tolist()):
        feats = gen.choice(F, k, replace=False)
        codes[i, feats] = gen.integers(0, 2, k)
    # drop duplicate bodies (a Direct-like KB has one clause per body and head)
    head = np.where(gen.random(n_clauses) < 0.5, 1, -1).astype(np.int8)
    _, first = np.unique(np.column_stack([codes, head]), axis=0, return_index=True)
    keep = np.sort(first)
    m = len(keep)
    features = [f"f{j + 1}" for j in range(F)]
    return KB(features, {f: ("0", "1") for f in features}, codes[keep], head[keep],
              gen.random(m), np.ones(m), np.full(m, -1), np.full(m, -1),
              np.zeros(m, np.int8), kind="general")


def run_fig4(args: argparse.Namespace) -> Outputs:
    """Time of one query through the LP (full semantics, cvxpy + HiGHS, both bounds) against
    the KB's size."""
    from ..query import query

    clauses = FIG4_CLAUSES[:2] if args.quick else FIG4_CLAUSES
    literals = FIG4_LITERALS[:2] if args.quick else FIG4_LITERALS
    rows: list[dict[str, Any]] = []
    bar = _progress(len(clauses) * len(literals) * args.runs, "Fig. 4", not args.no_progress)
    for nc in clauses:
        for nl in literals:
            for run in range(args.runs):
                gen = np.random.default_rng(run)
                kb = random_kb(nc, nl, gen)
                F = len(kb.features)
                fixed = gen.choice(F, min(10, F), replace=False)
                q = {kb.features[j]: str(int(gen.integers(0, 2))) for j in fixed}
                t0 = time.perf_counter()
                b = query(kb, q, semantics="full", method="lp", time_limit=600.0)
                t1 = time.perf_counter()
                rows.append({"clauses": len(kb), "clauses_asked": nc, "literals": nl,
                             "features": F, "run": run, "seconds": t1 - t0,
                             "lower": b.lower, "upper": b.upper,
                             "inconsistency": b.inconsistency})
                bar.update(1)
    bar.close()
    df = pd.DataFrame(rows)
    summary = (df.groupby(["clauses_asked", "literals"], sort=False)
               .agg(seconds_mean=("seconds", "mean"), seconds_max=("seconds", "max"),
                    clauses=("clauses", "mean"), runs=("seconds", "size")).reset_index())
    o = _outputs(args)
    o.csv("fig4", df)
    o.csv("fig4_summary", summary)
    o.figure("fig4", _fig4_figure(summary))
    md = ["# Fig. 4: query time against KB size\n", _command(args), "",
          "One query per random KB (clauses `±POS ∨ ¬K`, |K| in 1..4, p uniform; literals = "
          "2 × binary features; the query fixes 10 features), forced through the LP "
          "(`query(..., semantics='full', method='lp')`: the optimum, then the lower and upper "
          "bound of ω(POS)). The paper reports 'up to 10,000 variables and 10,000 clauses "
          "within a few seconds' (Xeon 2660v2); ours on this machine, mean seconds:", "",
          "| clauses \\ literals | " + " | ".join(str(n) for n in literals) + " |",
          "|---|" + "---|" * len(literals)]
    for nc in clauses:
        s = summary[summary["clauses_asked"] == nc]
        md.append(f"| {nc} | " + " | ".join(f"{v:.2f}" for v in s["seconds_mean"]) + " |")
    o.markdown("fig4", "\n".join(md) + "\n")
    return o


# --------------------------------------------------------------------------- CLI


def _chosen_sets(args: argparse.Namespace, default: Sequence[str]) -> list[str]:
    if not args.sets:
        return list(default)
    keys = [s.strip() for s in args.sets.split(",") if s.strip()]
    bad = [k for k in keys if k not in SETS]
    if bad:
        raise DataError(f"unknown {noun(len(bad), 'data set')} {bad}; choose from {list(SETS)}")
    return keys


def _outputs(args: argparse.Namespace) -> Outputs:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    return Outputs(out, not args.no_png, [], [])


def _command(args: argparse.Namespace) -> str:
    return f"Command: `{getattr(args, 'command_line', 'python -m plx_core.experiments')}`"
