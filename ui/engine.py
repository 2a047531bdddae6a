"""Explanations for the dashboard: k-feature explanations, Shapley values of ω(POS),
counterfactuals, and SHAP on a baseline model — with the per-session cache of a Workspace.

These are written against the engine's stable surface (`query`, `query_many`,
`subquery_bounds`), so the dashboard does not depend on the exact return types of
`plx_core.explain` / `plx_core.shap_compare`. The numbers follow design.md §1: the explanation
of a positive decision is the size-k sub-query with the largest ω(POS) (smallest for a negative
one), exhaustive over C(n, k) when that is at most `EXHAUSTIVE_MAX`, beam search beyond; the
value of a coalition for Shapley is the mean of ω(POS) of that sub-query.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from plx_core.kb import KB
from plx_core.plots import subquery_label
from plx_core.query import Bounds, query, query_many, subquery_bounds
from plx_core.session import Workspace, _encode, one_hot

EXHAUSTIVE_MAX = 3000
BEAM_WIDTH = 24
SHAPLEY_EXACT_MAX = 12
TIE = 1e-9


@dataclass(frozen=True)
class Explanation:
    """The chosen size-k sub-query and every candidate that was scored (ranked best first)."""

    k: int
    features: tuple[str, ...]
    values: dict[str, str]
    lower: float
    upper: float
    decision_positive: bool
    candidates: pd.DataFrame  # features, label, lower, upper, mean, chosen
    search: str  # "exhaustive" | "beam"

    @property
    def mean(self) -> float:
        return (self.lower + self.upper) / 2.0

    def text(self) -> str:
        body = " AND ".join(f"{f}={self.values[f]}" for f in self.features)
        verb = "POS" if self.decision_positive else "NOT POS"
        return f"{body} → ω(POS) ∈ [{self.lower:.3f}, {self.upper:.3f}] (decision {verb})"


def _known(kb: KB, values: Mapping[str, Any]) -> list[int]:
    return [j for j, f in enumerate(kb.features) if values.get(f) is not None]


def _score(masks: np.ndarray, kb: KB, values: Mapping[str, str], semantics: str) -> tuple[np.ndarray, np.ndarray]:
    if len(masks) == 0:
        return np.zeros(0), np.zeros(0)
    ba = subquery_bounds(kb, dict(values), masks, semantics=semantics)
    return np.asarray(ba.lower, dtype=float), np.asarray(ba.upper, dtype=float)


def explain(kb: KB, values: Mapping[str, str], k: int, semantics: str = "auto",
            full: Bounds | None = None) -> Explanation:
    """The k features of `values` that decide its answer (design.md §1, Algorithm 6)."""
    values = {f: v for f, v in values.items() if v is not None}
    known = _known(kb, values)
    if not known:
        raise ValueError("the instance has no known feature to explain it by")
    k = max(1, min(int(k), len(known)))
    full = full if full is not None else query(kb, values, semantics=semantics)
    positive = full.positive
    F = len(kb.features)
    if math.comb(len(known), k) <= EXHAUSTIVE_MAX:
        combos = list(itertools.combinations(known, k))
        masks = np.zeros((len(combos), F), dtype=bool)
        for r, c in enumerate(combos):
            masks[r, list(c)] = True
        lo, hi = _score(masks, kb, values, semantics)
        search = "exhaustive"
    else:
        masks, lo, hi = _beam(kb, values, known, k, positive, semantics)
        search = "beam"
    mean = (lo + hi) / 2.0
    order = np.lexsort((np.arange(len(mean)), -mean if positive else mean))
    feats = [tuple(kb.features[j] for j in np.flatnonzero(m)) for m in masks]
    frame = pd.DataFrame({
        "features": [feats[i] for i in order],
        "label": [subquery_label([(f, values[f]) for f in feats[i]]) for i in order],
        "lower": lo[order], "upper": hi[order], "mean": mean[order],
    })
    frame["chosen"] = np.arange(len(frame)) == 0
    best = frame.iloc[0]
    return Explanation(k, tuple(best["features"]), {f: values[f] for f in best["features"]},
                       float(best["lower"]), float(best["upper"]), bool(positive), frame, search)


def _beam(kb, values, known, k, positive, semantics):
    F = len(kb.features)
    beam = [()]
    for _ in range(k):
        cands = sorted({tuple(sorted(b + (j,))) for b in beam for j in known if j not in b})
        masks = np.zeros((len(cands), F), dtype=bool)
        for r, c in enumerate(cands):
            masks[r, list(c)] = True
        lo, hi = _score(masks, kb, values, semantics)
        mean = (lo + hi) / 2.0
        order = np.lexsort((np.arange(len(mean)), -mean if positive else mean))
        beam = [cands[i] for i in order[:BEAM_WIDTH]]
        last = (masks, lo, hi)
    return last


def shapley(kb: KB, values: Mapping[str, str], semantics: str = "auto",
            n_permutations: int = 256, seed: int = 0) -> pd.Series:
    """Shapley value of each known feature for v(S) = mean ω(POS) of the sub-query S: exact
    over all 2^n coalitions for n ≤ SHAPLEY_EXACT_MAX, permutation sampling beyond."""
    values = {f: v for f, v in values.items() if v is not None}
    known = _known(kb, values)
    n = len(known)
    F = len(kb.features)
    names = [kb.features[j] for j in known]
    if n == 0:
        return pd.Series(dtype=float)
    if n <= SHAPLEY_EXACT_MAX:
        bits = np.arange(2**n)
        member = ((bits[:, None] >> np.arange(n)[None, :]) & 1).astype(bool)  # (2^n, n)
        masks = np.zeros((2**n, F), dtype=bool)
        masks[:, known] = member
        lo, hi = _score(masks, kb, values, semantics)
        v = (lo + hi) / 2.0
        size = member.sum(axis=1)
        weight = np.array([math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n)
                           if s < n else 0.0 for s in range(n + 1)])
        phi = np.zeros(n)
        for i in range(n):
            without = ~member[:, i]
            s_idx = bits[without]
            phi[i] = float(np.sum(weight[size[without]] * (v[s_idx | (1 << i)] - v[s_idx])))
        return pd.Series(phi, index=names)
    rng = np.random.default_rng(seed)
    perms = [rng.permutation(n) for _ in range(n_permutations)]
    rows = []
    for perm in perms:
        cur = np.zeros(n, dtype=bool)
        rows.append(cur.copy())
        for i in perm:
            cur[i] = True
            rows.append(cur.copy())
    member = np.array(rows)
    uniq, inv = np.unique(member, axis=0, return_inverse=True)
    masks = np.zeros((len(uniq), F), dtype=bool)
    masks[:, known] = uniq
    lo, hi = _score(masks, kb, values, semantics)
    v = ((lo + hi) / 2.0)[inv.ravel()]
    phi = np.zeros(n)
    pos = 0
    for perm in perms:
        for t, i in enumerate(perm):
            phi[i] += v[pos + t + 1] - v[pos + t]
        pos += n + 1
    return pd.Series(phi / len(perms), index=names)


@dataclass(frozen=True)
class Counterfactual:
    """The fewest value changes that flip the decision (None when none within `max_changes`)."""

    changes: tuple[tuple[str, str | None, str], ...] | None
    lower: float
    upper: float
    tried: int

    def text(self) -> str:
        if not self.changes:
            return "No change of up to the searched number of features flips the decision."
        parts = [f"{f}: {'unknown' if a is None else a} → {b}" for f, a, b in self.changes]
        return "; ".join(parts)


def counterfactual(kb: KB, values: Mapping[str, str | None], max_changes: int = 2,
                   semantics: str = "auto", method: str = "auto",
                   budget: int = 3000) -> Counterfactual:
    """Search changes of 1, then 2, … features (to any other value of the feature's domain)
    for the one that flips the decision with the largest margin past 0.5."""
    base = {f: values.get(f) for f in kb.features}
    full = query(kb, {f: v for f, v in base.items() if v is not None}, semantics=semantics, method=method)
    target_pos = not full.positive
    tried = 0
    for size in range(1, max_changes + 1):
        cands = []
        for feats in itertools.combinations(kb.features, size):
            options = [[v for v in kb.domains[f] if v != base[f]] for f in feats]
            for combo in itertools.product(*options):
                cands.append(tuple(zip(feats, combo)))
                if len(cands) + tried > budget:
                    break
        if not cands:
            continue
        rows = []
        for change in cands:
            row = dict(base)
            row.update(dict(change))
            rows.append(row)
        X = pd.DataFrame(rows, columns=list(kb.features), dtype=object)
        ba = query_many(kb, X, semantics=semantics, method=method)
        tried += len(cands)
        mean = np.asarray(ba.mean)
        flips = (mean > 0.5 + TIE) if target_pos else (mean < 0.5 - TIE)
        if full.tie and not target_pos:
            flips = mean < 0.5 - TIE
        if flips.any():
            margin = np.where(flips, np.abs(mean - 0.5), -1.0)
            i = int(np.argmax(margin))
            ch = tuple((f, base[f], v) for f, v in cands[i])
            return Counterfactual(ch, float(ba.lower[i]), float(ba.upper[i]), tried)
        if tried >= budget:
            break
    return Counterfactual(None, full.lower, full.upper, tried)


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
    return ws.results.get(key, lambda: counterfactual(kb, values, 2, ws.semantics, ws.method))


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


__all__ = ["Counterfactual", "Explanation", "ShapModel", "agreement", "counterfactual",
           "explain", "shap_model", "shapley", "ws_agreement", "ws_counterfactual", "ws_explain",
           "ws_shap_model", "ws_shapley"]
