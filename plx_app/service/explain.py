"""Explanations for the dashboard: the pages' view of `plx_core.explain` (k-feature
explanations, Shapley values of ω(POS), counterfactuals), SHAP on a baseline model, agreement
between the two — all cached in the session's Workspace.

`plx_core.explain` computes; this module turns its results into the small shapes the pages
and `plx_core.plots` draw (a ranked candidates table with the chosen row marked, a Series of
Shapley values), and picks budgets that keep a click interactive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from plx_core.direct import n_subsets
from plx_core.explain import counterfactual as _counterfactual
from plx_core.explain import explain as _explain
from plx_core.explain import shapley as _shapley
from plx_core.kb import KB
from plx_core.plots import subquery_label

from .session import Workspace

EXPLAIN_BUDGET = 20000  # sub-queries scored exhaustively before the beam search takes over
CF_WORK = 300_000  # counterfactual rows × feature subsets per row, per click
CF_MAX_CHANGES = 2


@dataclass(frozen=True)
class Explanation:
    """The chosen size-k sub-query and the candidates that were scored (ranked best first)."""

    k: int
    features: tuple[str, ...]
    values: dict[str, str]
    lower: float
    upper: float
    decision_positive: bool
    candidates: pd.DataFrame  # features, label, lower, upper, mean, chosen
    search: str  # "exhaustive" | "beam"
    evaluated: int = 0
    n_total: int = 0
    summary: str = ""
    core: Any = None  # the plx_core Explanation (for plx_core.wording.explanation_sentence)

    @property
    def mean(self) -> float:
        return (self.lower + self.upper) / 2.0

    def text(self) -> str:
        body = " AND ".join(f"{f}={self.values[f]}" for f in self.features)
        verb = "POS" if self.decision_positive else "NOT POS"
        return f"{body} → ω(POS) ∈ [{self.lower:.3f}, {self.upper:.3f}] (decision {verb})"


def _known(values: Mapping[str, Any]) -> dict[str, str]:
    return {f: v for f, v in values.items() if v is not None}


def explain(kb: KB, values: Mapping[str, str | None], k: int, semantics: str = "auto",
            budget: int = EXPLAIN_BUDGET) -> Explanation:
    """The k features of `values` that decide its answer (`plx_core.explain.explain`)."""
    vals = _known(values)
    if not vals:
        raise ValueError("the instance has no known feature to explain it by")
    k = max(1, min(int(k), len(vals)))
    e = _explain(kb, vals, k, budget=budget, semantics=semantics)
    cands = e.candidates
    frame = pd.DataFrame({
        "features": [tuple(c.features) for c in cands],
        "label": [subquery_label(list(zip(c.features, c.values))) for c in cands],
        "lower": [c.lower for c in cands], "upper": [c.upper for c in cands],
        "mean": [c.mean for c in cands],
    })
    frame["chosen"] = np.arange(len(frame)) == 0
    return Explanation(k, tuple(e.features), dict(e.features), float(e.bounds[0]),
                       float(e.bounds[1]), bool(e.positive), frame, e.search, e.evaluated,
                       e.n_total, e.summary(), e)


SHAPLEY_EXACT_MAX = 14


def shapley(kb: KB, values: Mapping[str, str | None], semantics: str = "auto",
            n_permutations: int = 256, seed: int = 0) -> pd.Series:
    """Shapley values of ω(POS) per known feature (`plx_core.explain.shapley`): exact up to
    `SHAPLEY_EXACT_MAX` known features, sampled permutations beyond — fewer of them on KBs that
    are not Direct, where each coalition may need its own LP."""
    if kb.kind != "direct":
        n_permutations = min(n_permutations, 32)
    sv = _shapley(kb, _known(values), exact_max=SHAPLEY_EXACT_MAX, n_samples=n_permutations,
                  random_state=seed, semantics=semantics)
    return pd.Series(sv.as_dict(), dtype=float)


@dataclass(frozen=True)
class Counterfactual:
    """The fewest value changes that flip the decision (None when none was found)."""

    changes: tuple[tuple[str, str | None, str], ...] | None
    lower: float
    upper: float
    tried: int
    message: str = ""

    def text(self) -> str:
        if not self.changes:
            return self.message or "No change of the searched size flips the decision."
        return "; ".join(f"{f}: {'unknown' if a is None else a} → {b}" for f, a, b in self.changes)


def cf_rows(kb: KB, n_known: int) -> int:
    """How many candidate rows a counterfactual search may answer in one click."""
    per_row = n_subsets(n_known, kb.max_len) if kb.kind == "direct" else 64
    return int(max(200, CF_WORK // max(per_row, 1)))


def counterfactual(kb: KB, values: Mapping[str, str | None], max_changes: int = CF_MAX_CHANGES,
                   semantics: str = "auto", max_rows: int | None = None) -> Counterfactual:
    """Fewest changes of known values that flip the decision (`plx_core.explain`)."""
    vals = _known(values)
    if not vals:
        return Counterfactual(None, 0.0, 1.0, 0, "No known value to change.")
    rows = cf_rows(kb, len(vals)) if max_rows is None else max_rows
    cf = _counterfactual(kb, vals, max_changes=max_changes, semantics=semantics, max_rows=rows)
    if not cf.found:
        return Counterfactual(None, cf.bounds[0], cf.bounds[1], cf.evaluated, cf.message)
    ch = tuple((f, a, b) for f, (a, b) in cf.changes.items())
    return Counterfactual(ch, cf.new_bounds[0], cf.new_bounds[1], cf.evaluated, cf.message)


# --------------------------------------------------------------------------- SHAP baseline

SHAP_MODELS = {
    "forest": "random forest (TreeExplainer; probability)",
    "CART": "decision tree (TreeExplainer; probability)",
    "logistic": "logistic regression (LinearExplainer; log-odds)",
}


@dataclass(frozen=True)
class ShapRow:
    """SHAP values of one instance under a baseline model."""

    values: pd.Series
    proba: float
    base_value: float
    model: str


def ws_shap_fitted(ws: Workspace, model: str = "forest"):
    """The baseline `model` with its SHAP explainer, fitted once per data set (cached)."""
    from plx_core.shap_compare import fit_shap_baseline

    return ws.results.get(("shap-fitted", ws.data_key, model),
                          lambda: fit_shap_baseline(ws.X_train, ws.y_train, model,
                                                    positive=ws.positive))


def ws_shap_test(ws: Workspace, model: str = "forest"):
    """SHAP values of the baseline `model` for every test row (cached per session)."""
    return ws.results.get(("shap-test", ws.data_key, model),
                          lambda: ws_shap_fitted(ws, model).explain(ws.X_test))


def ws_shap_row(ws: Workspace, values: Mapping[str, str | None], model: str = "forest") -> ShapRow:
    """SHAP values of one instance: looked up when it is a test row, else from the session's
    fitted baseline (cached)."""
    feats = list(ws.features)
    key = tuple((f, values.get(f)) for f in feats)
    sel = ws.selected
    if sel is not None and sel.origin == "test" and sel.as_dict() == dict(key):
        sb = ws_shap_test(ws, model)
        if sel.row in sb.values.index:
            i = list(sb.values.index).index(sel.row)
            return ShapRow(sb.values.iloc[i], float(sb.proba[i]), sb.base_value, model)

    def make() -> ShapRow:
        sb = ws_shap_fitted(ws, model).explain(pd.DataFrame([dict(key)], columns=feats, dtype=object))
        return ShapRow(sb.values.iloc[0], float(sb.proba[0]), sb.base_value, model)

    return ws.results.get(("shap-row", ws.data_key, model, key), make)


# --------------------------------------------------------------------------- agreement


def agreement(plx: pd.DataFrame, shap_vals: pd.DataFrame, k: int = 2) -> dict[str, float]:
    """How far plx Shapley values (rows = instances) agree with SHAP values beyond the top-k
    sets: top-1 feature (by |value|), Spearman rank correlation of |values|, and sign
    agreement on the features both call non-zero."""
    top1, rho, sign = [], [], []
    for r in range(len(plx)):
        a = plx.iloc[r].astype(float)
        b = shap_vals.iloc[r].reindex(a.index).astype(float)
        ra = a.abs().sort_values(ascending=False, kind="stable").index
        rb = b.abs().sort_values(ascending=False, kind="stable").index
        top1.append(float(ra[0] == rb[0]))
        if len(a) > 1 and a.abs().nunique() > 1 and b.abs().nunique() > 1:
            rho.append(float(a.abs().rank().corr(b.abs().rank())))
        nz = (a.abs() > 1e-9) & (b.abs() > 1e-9)
        if nz.any():
            sign.append(float((np.sign(a[nz]) == np.sign(b[nz])).mean()))
    nan = float("nan")
    return {"top-1 feature (Shapley vs SHAP)": float(np.mean(top1)) if top1 else nan,
            "rank correlation (Spearman)": float(np.mean(rho)) if rho else nan,
            "sign agreement": float(np.mean(sign)) if sign else nan}


@dataclass(frozen=True)
class AgreementReport:
    """plx vs SHAP on test rows: the paper's top-k set agreement (Fig. 2) plus Shapley-value
    measures; `chosen` has how often each feature is in each side's top-k; `rows` per row."""

    summary: dict[str, float]
    chosen: pd.DataFrame
    rows: pd.DataFrame
    n: int
    k: int
    model: str


# --------------------------------------------------------------------------- cached, per session


def ws_explain(ws: Workspace, values: Mapping[str, str | None], k: int, kb: KB | None = None,
               kb_key: Any = None) -> Explanation:
    kb, kb_key = _kb_and_key(ws, kb, kb_key)
    vals = {f: v for f, v in values.items() if v is not None}
    key = ("explain", kb_key, tuple(sorted(vals.items())), int(k), ws.semantics)
    return ws.results.get(key, lambda: explain(kb, vals, k, ws.semantics))


def ws_shapley(ws: Workspace, values: Mapping[str, str | None], kb: KB | None = None,
               kb_key: Any = None) -> pd.Series:
    kb, kb_key = _kb_and_key(ws, kb, kb_key)
    vals = {f: v for f, v in values.items() if v is not None}
    key = ("shapley", kb_key, tuple(sorted(vals.items())), ws.semantics)
    return ws.results.get(key, lambda: shapley(kb, vals, ws.semantics))


def ws_counterfactual(ws: Workspace, values: Mapping[str, str | None]) -> Counterfactual:
    kb, kb_key = _kb_and_key(ws, None, None)
    key = ("counterfactual", kb_key, tuple(sorted((f, v) for f, v in values.items() if v is not None)),
           ws.semantics, ws.method)
    return ws.results.get(key, lambda: counterfactual(kb, values, CF_MAX_CHANGES, ws.semantics))


def ws_figure(ws: Workspace, parts: tuple, make):
    """A figure built once per session for the same inputs (`parts` must name them all):
    building a plotly figure costs 10-20 ms, and a page redraws several per click."""
    return ws.results.get(("figure",) + tuple(parts), make)


def values_key(values: Mapping[str, str | None]) -> tuple:
    return tuple(sorted((f, v) for f, v in values.items() if v is not None))


def _kb_and_key(ws: Workspace, kb: KB | None, kb_key: Any) -> tuple[KB, Any]:
    if kb is None:
        return ws.current_kb(), (ws.kb_key, ws.rules_key())
    return kb, kb_key


def ws_agreement(ws: Workspace, n_rows: int = 40, k: int = 2, model: str = "forest") -> AgreementReport:
    """plx explanations (k features, Algorithm 6) against the top-k SHAP features of a baseline
    (`plx_core.shap_compare`, paper Fig. 2) over the first `n_rows` test rows that know at
    least k features; plus plx Shapley values against SHAP values. Cached per session."""
    from plx_core.shap_compare import top_k_agreement, top_k_features

    key = ("agreement", ws.data_key, ws.kb_key, ws.rules_key(), n_rows, k, model, ws.semantics)

    def make() -> AgreementReport:
        sb = ws_shap_test(ws, model)
        X = ws.X_test.iloc[:n_rows]
        X = X[X.notna().sum(axis=1).to_numpy() >= k]
        if X.empty:
            raise ValueError(f"no test row knows {k} features")
        sv = sb.values.loc[X.index]
        pred = pd.Series(sb.predicted, index=sb.values.index).loc[X.index].to_numpy()
        theirs = top_k_features(sv, k, pred)
        ours, phis, rows = [], [], []
        for (idx, r), th in zip(X.iterrows(), theirs):
            vals = {f: (None if pd.isna(v) else str(v)) for f, v in r.items()}
            e = ws_explain(ws, vals, k)
            ours.append(tuple(e.features))
            phis.append(ws_shapley(ws, vals).reindex(list(X.columns)).fillna(0.0))
            rows.append({"row": idx, "plx explanation": ", ".join(e.features),
                         "SHAP top-k": ", ".join(th), "in common": len(set(e.features) & set(th))})
        ag = top_k_agreement(ours, theirs, k, features=list(ws.features), labels=("plx", "SHAP"))
        summary = {f"identical top-{k} sets": ag.same}
        summary.update({f"≥{j} in common": v for j, v in ag.at_least.items() if j < k})
        summary.update(agreement(pd.DataFrame(phis, index=X.index), sv, k))
        return AgreementReport(summary, ag.chosen, pd.DataFrame(rows), ag.n, k, model)

    return ws.results.get(key, make)


__all__ = ["AgreementReport", "Counterfactual", "Explanation", "SHAP_MODELS", "ShapRow", "agreement",
           "cf_rows", "counterfactual", "explain", "shapley", "ws_agreement", "ws_counterfactual",
           "values_key", "ws_explain", "ws_figure", "ws_shap_row", "ws_shap_test",
           "ws_shapley"]
