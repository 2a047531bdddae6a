"""Explanations for the dashboard: the pages' view of `plx_core.explain` (k-feature
explanations, Shapley values of ω(POS), counterfactuals), SHAP on a baseline model, agreement
between the two — all cached in the session's Workspace.

`plx_core.explain` computes; this module turns its results into the small shapes the pages
and `plx_core.plots` draw (a ranked candidates table with the chosen row marked, a Series of
Shapley values), and picks budgets that keep a click interactive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from plx_core import explain as _x
from plx_core.direct import n_subsets
from plx_core.kb import KB
from plx_core.plots import subquery_label
from plx_core.session import Workspace, _encode, one_hot

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
    e = _x.explain(kb, vals, k, budget=budget, semantics=semantics)
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
                       e.n_total, e.summary())


def shapley(kb: KB, values: Mapping[str, str | None], semantics: str = "auto") -> pd.Series:
    """Shapley values of ω(POS) per known feature (`plx_core.explain.shapley`)."""
    sv = _x.shapley(kb, _known(values), semantics=semantics)
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
    cf = _x.counterfactual(kb, vals, max_changes=max_changes, semantics=semantics, max_rows=rows)
    if not cf.found:
        return Counterfactual(None, cf.bounds[0], cf.bounds[1], cf.evaluated, cf.message)
    ch = tuple((f, a, b) for f, (a, b) in cf.changes.items())
    return Counterfactual(ch, cf.new_bounds[0], cf.new_bounds[1], cf.evaluated, cf.message)


# --------------------------------------------------------------------------- SHAP baseline


@dataclass
class ShapModel:
    """A logistic regression on one-hot features and its SHAP explainer."""

    encoder: Any
    model: Any
    explainer: Any
    features: tuple[str, ...]
    groups: list[np.ndarray]  # one-hot columns of each feature
    background_mean: np.ndarray
    uses_shap: bool

    def values(self, X: pd.DataFrame) -> pd.DataFrame:
        """SHAP values per original feature (sums over its one-hot columns), log-odds units."""
        A = _encode(self.encoder, X[list(self.features)])
        if self.explainer is not None:
            sv = np.asarray(self.explainer.shap_values(A))
        else:  # exact linear SHAP with independent features: w · (x − E[x])
            sv = (A - self.background_mean) * self.model.coef_[0]
        per = np.stack([sv[:, g].sum(axis=1) for g in self.groups], axis=1)
        return pd.DataFrame(per, columns=list(self.features), index=X.index)

    def proba(self, X: pd.DataFrame) -> np.ndarray:
        return self.model.predict_proba(_encode(self.encoder, X[list(self.features)]))[:, 1]


def shap_model(X_train: pd.DataFrame, y_train: pd.Series, positive: str) -> ShapModel:
    from sklearn.linear_model import LogisticRegression

    enc = one_hot(X_train)
    A = _encode(enc, X_train)
    y = (y_train.astype(str) == str(positive)).to_numpy()
    model = LogisticRegression(max_iter=2000).fit(A, y)
    feats = tuple(str(c) for c in X_train.columns)
    ends = np.cumsum([len(c) for c in enc.categories_])
    groups = [np.arange(e - len(c), e) for c, e in zip(enc.categories_, ends)]
    explainer, uses = None, False
    try:
        import shap

        explainer = shap.LinearExplainer(model, shap.maskers.Independent(A, max_samples=len(A)))
        uses = True
    except Exception:  # shap missing or incompatible: the closed form below is the same number
        explainer = None
    return ShapModel(enc, model, explainer, feats, groups, A.mean(axis=0), uses)


def ws_shap_model(ws: Workspace) -> ShapModel:
    return ws.results.get(("shap-model", ws.data_key),
                          lambda: shap_model(ws.X_train, ws.y_train, ws.positive))


# --------------------------------------------------------------------------- agreement


def agreement(plx: pd.DataFrame, shap_vals: pd.DataFrame, k: int = 2,
              chosen: Sequence[Sequence[str]] | None = None) -> dict[str, float]:
    """How far plx Shapley values (rows = instances) agree with SHAP: top-1 feature match,
    top-k overlap (|A∩B| / k), Spearman rank correlation of |values|, sign agreement on
    features both call non-zero; with `chosen` (the plx explanations' features), their overlap
    with SHAP's top-k."""
    top1, topk, rho, sign, expl = [], [], [], [], []
    for r in range(len(plx)):
        a = plx.iloc[r].astype(float)
        b = shap_vals.iloc[r].reindex(a.index).astype(float)
        ra = a.abs().sort_values(ascending=False, kind="stable").index
        rb = b.abs().sort_values(ascending=False, kind="stable").index
        kk = min(k, len(a))
        top1.append(float(ra[0] == rb[0]))
        topk.append(len(set(ra[:kk]) & set(rb[:kk])) / kk)
        if len(a) > 1 and a.abs().nunique() > 1 and b.abs().nunique() > 1:
            rho.append(float(a.abs().rank().corr(b.abs().rank())))
        nz = (a.abs() > 1e-9) & (b.abs() > 1e-9)
        if nz.any():
            sign.append(float((np.sign(a[nz]) == np.sign(b[nz])).mean()))
        if chosen is not None:
            ch = list(chosen[r])
            expl.append(len(set(ch) & set(rb[:len(ch)])) / max(len(ch), 1))
    out = {"top-1 feature match": float(np.mean(top1)) if top1 else float("nan"),
           f"top-{k} overlap": float(np.mean(topk)) if topk else float("nan"),
           "rank correlation (Spearman)": float(np.mean(rho)) if rho else float("nan"),
           "sign agreement": float(np.mean(sign)) if sign else float("nan")}
    if chosen is not None:
        out["explanation ∩ SHAP top-k"] = float(np.mean(expl)) if expl else float("nan")
    return out


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


def _kb_and_key(ws: Workspace, kb: KB | None, kb_key: Any) -> tuple[KB, Any]:
    if kb is None:
        return ws.current_kb(), (ws.kb_key, ws.rules_key())
    return kb, kb_key


def ws_agreement(ws: Workspace, n_rows: int = 40, k: int = 2) -> tuple[dict[str, float], pd.DataFrame]:
    """Agreement of plx (Shapley of ω(POS), and the k-explanations) with SHAP on a logistic
    regression, over the first `n_rows` test rows. Returns (summary, per-row table)."""
    key = ("agreement", ws.data_key, ws.kb_key, ws.rules_key(), n_rows, k, ws.semantics)

    def make():
        X = ws.X_test.iloc[:n_rows]
        sm = ws_shap_model(ws)
        sv = sm.values(X)
        plx_rows, chosen, rows = [], [], []
        for idx, r in X.iterrows():
            vals = {f: (None if pd.isna(v) else str(v)) for f, v in r.items()}
            phi = ws_shapley(ws, vals).reindex(list(X.columns)).fillna(0.0)
            plx_rows.append(phi)
            e = ws_explain(ws, vals, k)
            chosen.append(e.features)
            top_shap = sv.loc[idx].abs().sort_values(ascending=False, kind="stable").index[:k]
            rows.append({"row": idx, "plx explanation": ", ".join(e.features),
                         "SHAP top features": ", ".join(top_shap),
                         "plx top feature": phi.abs().idxmax(), "SHAP top feature": sv.loc[idx].abs().idxmax()})
        plx_frame = pd.DataFrame(plx_rows, index=X.index)
        return agreement(plx_frame, sv, k, chosen), pd.DataFrame(rows)

    return ws.results.get(key, make)


__all__ = ["Counterfactual", "Explanation", "ShapModel", "agreement", "cf_rows", "counterfactual",
           "explain", "shap_model", "shapley", "ws_agreement", "ws_counterfactual", "ws_explain",
           "ws_shap_model", "ws_shapley"]
