"""Explanations for the dashboard: `plx_core.explain` (k-feature explanations, Shapley values
of ω(POS), counterfactuals) with budgets that keep a click interactive, SHAP on a baseline model,
agreement between the two — all cached in the session's Workspace under its one key builder.

Results are the engine's own objects (`plx_core.explain.Explanation`, `Counterfactual`); Shapley
values come as a Series (what `plx_core.plots.shapley_bars` draws).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from plx_core.direct import n_subsets
from plx_core.errors import DataError
from plx_core.explain import Counterfactual, Explanation, Unexplained, citable_count, known_k
from plx_core.explain import counterfactual as _counterfactual
from plx_core.explain import explain as _explain
from plx_core.explain import shapley as _shapley
from plx_core.kb import KB
from plx_core.plurals import counted
from plx_core.query import Bounds
from plx_core.wording import PRIOR_ALONE, clause_texts, counterfactual_sentence

from .workspace import THRESHOLD, KBView, Workspace

EXPLAIN_BUDGET = 20000  # sub-queries scored exhaustively before the beam search takes over
CF_WORK = 300_000  # counterfactual rows × feature subsets per row, per click
CF_MAX_CHANGES = 2
SHAPLEY_EXACT_MAX = 14


def known(values: Mapping[str, Any]) -> dict[str, str]:
    """The known values of an instance (unknown = None or missing)."""
    return {f: v for f, v in values.items() if v is not None}


def explain(kb: KB, values: Mapping[str, str | None], k: int, semantics: str = "auto",
            budget: int = EXPLAIN_BUDGET, direction: str = "auto",
            threshold: float = THRESHOLD) -> Explanation:
    """The k known features of `values` that decide its answer (`plx_core.explain.explain`;
    k lowered to the features the model can cite, as the estimator and `plx explain` lower
    it, with their sentence in the explanation's `note`: `plx_core.explain.known_k`;
    `direction` the side explained, "auto": the side of the paper's 0.5 rule; `threshold` the
    one the session answers at, where the explanation's `decides` is judged, as the CLI and the
    estimator judge it)."""
    vals = known(values)
    if not vals:
        raise ValueError("the instance has no known feature to explain it by")
    k, note = known_k(kb, vals, int(k), semantics)
    e = _explain(kb, vals, k, budget=budget, semantics=semantics, direction=direction,
                 threshold=threshold)
    return replace(e, note=note)


def candidates_table(e: Explanation) -> pd.DataFrame:
    """Every scored sub-query, best first: its features, bounds, and whether it was chosen."""
    frame = e.frame()
    frame["features"] = [", ".join(f) for f in frame["features"]]
    frame["chosen"] = frame.index == 0
    frame = frame.rename(columns={"by_prior": PRIOR_ALONE})
    return frame[["features", "lower", "upper", "mean", PRIOR_ALONE, "chosen"]]


def shapley(kb: KB, values: Mapping[str, str | None], semantics: str = "auto",
            n_permutations: int = 256, seed: int = 0) -> pd.Series:
    """Shapley values of ω(POS) per known feature (`plx_core.explain.shapley`): exact up to
    `SHAPLEY_EXACT_MAX` known features, sampled permutations beyond — fewer of them on KBs that
    are not Direct, where each coalition may need its own LP."""
    if kb.kind != "direct":
        n_permutations = min(n_permutations, 32)
    sv = _shapley(kb, known(values), exact_max=SHAPLEY_EXACT_MAX, n_samples=n_permutations,
                  random_state=seed, semantics=semantics)
    out = pd.Series(sv.as_dict(), dtype=float)
    out.attrs.update(start=sv.base_value, full=sv.full_value)  # what they add up from and to
    return out


def cf_rows(kb: KB, n_known: int) -> int:
    """How many candidate rows a counterfactual search may answer in one click."""
    per_row = n_subsets(n_known, kb.max_len) if kb.kind == "direct" else 64
    return int(max(200, CF_WORK // max(per_row, 1)))


def counterfactual(kb: KB, values: Mapping[str, str | None], max_changes: int = CF_MAX_CHANGES,
                   semantics: str = "auto", max_rows: int | None = None,
                   threshold: float = THRESHOLD) -> Counterfactual | None:
    """Fewest changes of known values that flip the decision at `threshold`
    (`plx_core.explain`); None when no value is known."""
    vals = known(values)
    if not vals:
        return None
    rows = cf_rows(kb, len(vals)) if max_rows is None else max_rows
    return _counterfactual(kb, vals, max_changes=max_changes, semantics=semantics, max_rows=rows,
                           threshold=threshold)


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

    return ws.cached("shap-fitted", model, scope="data",
                     make=lambda: fit_shap_baseline(ws.X_train, ws.y_train, model,
                                                    positive=ws.positive))


def ws_shap_test(ws: Workspace, model: str = "forest"):
    """SHAP values of the baseline `model` for every test row (cached per session)."""
    return ws.cached("shap-test", model, scope="data",
                     make=lambda: ws_shap_fitted(ws, model).explain(ws.X_test))


def ws_shap_row(ws: Workspace, values: Mapping[str, str | None], model: str = "forest") -> ShapRow:
    """SHAP values of one instance: looked up when it is a test row, else from the session's
    fitted baseline (cached)."""
    feats = list(ws.features)
    key = tuple((f, values.get(f)) for f in feats)
    sel = ws.selected
    if (sel is not None and sel.origin == "test" and sel.as_dict() == dict(key)
            and ws.is_cached("shap-test", model, scope="data")):  # never all rows for one
        sb = ws_shap_test(ws, model)
        if sel.row in sb.values.index:
            i = list(sb.values.index).index(sel.row)
            return ShapRow(sb.values.iloc[i], float(sb.proba[i]), sb.base_value, model)

    def make() -> ShapRow:
        sb = ws_shap_fitted(ws, model).explain(pd.DataFrame([dict(key)], columns=feats, dtype=object))
        return ShapRow(sb.values.iloc[0], float(sb.proba[0]), sb.base_value, model)

    return ws.cached("shap-row", model, key, scope="data", make=make)


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
    planned: int = -1  # rows it was to compare (-1: n, all of them)

    @property
    def complete(self) -> bool:
        """Whether every planned row was compared (False after a stop)."""
        return self.planned < 0 or self.n >= self.planned


# --------------------------------------------------------------------------- cached, per session


def ws_explain(ws: Workspace, values: Mapping[str, str | None], k: int,
               view: KBView | None = None) -> Explanation:
    """`explain` on the session's KB with its rules (or `view`), cached: the side explained
    is the side the session answers at its threshold (plx's default may not use 0.5), and
    under plx's default the KB searched is the one `PLXClassifier.explain` searches
    (`Workspace.explained_kb`)."""
    v = view or ws.view()
    own = ws.model is not None and ws.is_own(v)  # the default's KB, with or without rules

    def make() -> Explanation:
        side = "auto"
        if ws.threshold != THRESHOLD or own:
            side = "positive" if ws.decides(ws.query(values, view=v)) else "negative"
        kb = ws.explained_kb(rules=bool(v.key[1])) if own else v.kb
        return explain(kb, values, k, ws.answer_semantics, direction=side,
                       threshold=ws.threshold)

    return ws.cached("explain", values_key(values), int(k), view=v, make=make)  # KB → threshold


def ws_citable(ws: Workspace, values: Mapping[str, str | None]) -> tuple[int, str]:
    """How many known values of `values` the session's explanation can cite (in the KB
    `ws_explain` searches), and the sentence naming the others: 0 says there is nothing to
    explain the row by (`explain` would refuse it)."""
    return ws.cached("citable", values_key(values), view=ws.view(),  # KB and rules → count
                     make=lambda: citable_count(ws.explained_kb(), known(values),
                                                ws.answer_semantics))


def ws_shapley(ws: Workspace, values: Mapping[str, str | None],
               view: KBView | None = None) -> pd.Series:
    """`shapley` on the session's KB with its rules (or `view`), cached."""
    v = view or ws.view()
    return ws.cached("shapley", values_key(values), view=v,
                     make=lambda: shapley(v.kb, values, ws.answer_semantics))


def ws_counterfactual(ws: Workspace, values: Mapping[str, str | None]) -> Counterfactual | None:
    """`counterfactual` on the session's KB with its rules, cached."""
    v = ws.view()
    return ws.cached("counterfactual", values_key(values), view=v,
                     make=lambda: counterfactual(v.kb, values, CF_MAX_CHANGES, ws.answer_semantics,
                                                 threshold=ws.threshold))


def ws_figure(ws: Workspace, name: str, values: Mapping[str, str | None], *parts: Any,
              make: Callable[[], Any], view: KBView | None = None) -> Any:
    """A figure built once per session for the same KB, rules, settings, instance and `parts`
    (building a plotly figure costs 10-20 ms, and a page redraws several per click)."""
    return ws.cached("figure", name, values_key(values), *parts, view=view, make=make)


def ws_evidence(ws: Workspace, values: Mapping[str, str | None]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The clauses that bear on the answer, split into evidence for POS and against it, each
    strongest first: what each pulls ω(POS) to, its weight, p, support, the rule it reads as,
    ω(clause) at the optimum and whether it was overridden."""
    v = ws.view()

    def make() -> tuple[pd.DataFrame, pd.DataFrame]:
        b = ws.query(values)
        ev = b.evidence.frame(v.kb)
        cols = ["clause_id", "target", "w", "p", "support", "rule", "omega", "overridden"]
        if not len(ev):
            empty = pd.DataFrame(columns=cols)
            return empty, empty
        ev["target"] = ev["target"].fillna(ev["p"])
        ev["rule"] = clause_texts(v.kb, ev["clause_id"], ws.class_name)  # IF … THEN malignant
        ev["strength"] = ev["w"] * (ev["target"] - 0.5).abs()
        for_pos = ev[ev["target"] > 0.5].sort_values("strength", ascending=False, kind="stable")
        against = ev[ev["target"] < 0.5].sort_values("strength", ascending=False, kind="stable")
        return for_pos[cols], against[cols]

    return ws.cached("evidence", values_key(values), view=v, make=make)


def counterfactual_text(cf: Counterfactual | None) -> str:
    """A counterfactual in one sentence (`plx_core.wording.counterfactual_sentence`, the one
    wording), or that every feature is unknown."""
    if cf is None:
        return "Every feature is unknown: there is no value to change."
    return counterfactual_sentence(cf)


def values_key(values: Mapping[str, str | None]) -> tuple:
    """The known values of an instance as a hashable, order-free key."""
    return tuple(sorted((f, v) for f, v in values.items() if v is not None))


@dataclass(frozen=True)
class ShapComparison:
    """plx's Shapley values of ω(POS) beside SHAP values of a baseline for one instance, in one
    feature order (plx's largest |value| first), with each side's top-k towards its decision."""

    bounds: Bounds
    explanation: Explanation
    plx: pd.Series
    shap: ShapRow
    order: list[str]
    top_plx: list[str]
    top_shap: list[str]

    @property
    def in_common(self) -> int:
        return len(set(self.top_plx) & set(self.top_shap))


def ws_shap_comparison(ws: Workspace, values: Mapping[str, str | None], k: int,
                       model: str = "forest") -> ShapComparison:
    """One instance explained by plx (bounds, k-feature explanation, Shapley values) and by SHAP
    on the baseline `model`."""
    b = ws.query(values)
    e = ws_explain(ws, values, k)
    sr = ws_shap_row(ws, values, model)
    phi = ws_shapley(ws, values)
    order = list(phi.abs().sort_values(ascending=False, kind="stable").index)
    order += [f for f in sr.values.index if f not in order]
    top_plx = list(phi.sort_values(ascending=not b.positive, kind="stable").index[:k])
    top_shap = list(sr.values.sort_values(ascending=not (sr.proba > 0.5), kind="stable").index[:k])
    return ShapComparison(b, e, phi, sr, order, top_plx, top_shap)


def _agreement_rows(ws: Workspace, n_rows: int, k: int) -> pd.DataFrame:
    """The first `n_rows` test rows that know at least k features (what the agreement uses)."""
    X = ws.X_test.iloc[:n_rows]
    return X[X.notna().sum(axis=1).to_numpy() >= k]


def _row_values(r: pd.Series) -> dict[str, str | None]:
    return {f: (None if pd.isna(v) else str(v)) for f, v in r.items()}


def ws_agreement(ws: Workspace, n_rows: int = 40, k: int = 2, model: str = "forest",
                 progress: Callable[[int, int], None] | None = None,
                 stop: Callable[[], bool] | None = None) -> AgreementReport:
    """plx explanations (k features, Algorithm 6) against the top-k SHAP features of a baseline
    (`plx_core.shap_compare`, paper Fig. 2) over the first `n_rows` test rows that know at
    least k features; plus plx Shapley values against SHAP values. Every row's explanation is
    cached per session, so a stopped run resumes where it stopped; the whole report is cached
    once every row is done. `progress(done, total)` is called before each row and at the end;
    when `stop()` is true before a row not yet explained, the report covers the rows done
    (its `n` says how many)."""
    from plx_core.shap_compare import top_k_agreement, top_k_features

    def make(stop: Callable[[], bool] | None) -> AgreementReport:
        X = _agreement_rows(ws, n_rows, k)
        if X.empty:
            raise ValueError(f"no test row knows {k} features")
        sb = ws.cached("shap-rows", model, n_rows, scope="data",  # SHAP on these rows only
                       make=lambda: ws_shap_fitted(ws, model).explain(ws.X_test.iloc[:n_rows]))
        sv_all = sb.values.loc[X.index]
        pred_all = pd.Series(sb.predicted, index=sb.values.index).loc[X.index].to_numpy()
        theirs_all = top_k_features(sv_all, k, pred_all)
        ours, phis, rows, kept = [], [], [], []
        v = ws.view()
        for i, ((idx, r), th) in enumerate(zip(X.iterrows(), theirs_all, strict=True)):
            vals = _row_values(r)
            if stop is not None and not _row_done(ws, values_key(vals), k, v) and stop():
                break
            if progress is not None:
                progress(i, len(X))
            e = ws_explain_row(ws, vals, k)
            if isinstance(e, Unexplained):  # this row only: its reason, the others go on
                rows.append({"row": idx, "plx explanation": "", "SHAP top-k": ", ".join(th),
                             "in common": None, "note": e.reason})
                continue
            kept.append(i)
            ours.append(tuple(e.features))
            phis.append(ws_shapley(ws, vals).reindex(list(X.columns)).fillna(0.0))
            rows.append({"row": idx, "plx explanation": ", ".join(e.features),
                         "SHAP top-k": ", ".join(th), "in common": len(set(e.features) & set(th)),
                         "note": e.note})
        n = len(rows)
        if progress is not None:
            progress(n, len(X))
        if not n:
            raise ValueError("no row has been explained yet")
        if not kept:
            raise ValueError(f"none of the {counted(n, 'row')} could be explained: {rows[0]['note']}")
        theirs = [theirs_all[i] for i in kept]
        ag = top_k_agreement(ours, theirs, k, features=list(ws.features), labels=("plx", "SHAP"))
        summary = {f"identical top-{k} sets": ag.same}
        summary.update({f"≥{j} in common": v for j, v in ag.at_least.items() if j < k})
        summary.update(agreement(pd.DataFrame(phis, index=X.index[kept]), sv_all.iloc[kept], k))
        return AgreementReport(summary, ag.chosen, pd.DataFrame(rows), n, k, model,
                               planned=len(X))

    if ws_agreement_done(ws, n_rows, k, model):
        return ws.cached("agreement", n_rows, k, model, make=lambda: make(None))
    if stop is None or not stop():  # a run starts: from now on its rows count as done
        ws.cached("agreement-started", n_rows, k, model, make=lambda: True)
    rep = make(stop)
    if rep.complete:  # kept whole once every row is done
        ws.cached("agreement", n_rows, k, model, make=lambda: rep)
    return rep


def ws_agreement_done(ws: Workspace, n_rows: int = 40, k: int = 2, model: str = "forest") -> bool:
    """Whether `ws_agreement` with these settings is already computed (nothing to start)."""
    return ws.is_cached("agreement", n_rows, k, model)


def ws_agreement_progress(ws: Workspace, n_rows: int = 40, k: int = 2,
                          model: str = "forest") -> tuple[int, int]:
    """(rows explained so far, rows the agreement uses): once a run with these settings was
    started, the leading rows whose explanation and Shapley values are in the session's cache
    (rows explained on other pages do not make a run nobody started look stopped)."""
    X = _agreement_rows(ws, n_rows, k)
    if not ws.is_cached("agreement-started", n_rows, k, model):
        return 0, len(X)
    v = ws.view()
    done = 0
    for _, r in X.iterrows():
        if not _row_done(ws, values_key(_row_values(r)), k, v):
            break
        done += 1
    return done, len(X)


def _row_done(ws: Workspace, key: Hashable, k: int, v: KBView) -> bool:
    """Whether the agreement's row `key` is done: explained with its Shapley values, or known
    to be one nothing explains (`ws_explain_row`)."""
    return ws.is_cached("unexplained", key, int(k), view=v) or (
        ws.is_cached("explain", key, int(k), view=v) and ws.is_cached("shapley", key, view=v))


def ws_explain_row(ws: Workspace, values: Mapping[str, str | None], k: int,
                   view: KBView | None = None) -> Explanation | Unexplained:
    """`ws_explain` for one row of a batch: a row nothing can explain (no value the model can
    cite) gives an `Unexplained` with the reason (cached too) instead of stopping the batch."""
    v = view or ws.view()
    key = values_key(values)

    def answer() -> Explanation | Unexplained:
        try:
            return ws_explain(ws, values, k, view=v)
        except (DataError, ValueError) as exc:
            return Unexplained(-1, dict(known(values)), int(k), str(exc))

    if ws.is_cached("unexplained", key, int(k), view=v):  # evicted since: worked out again
        return ws.cached("unexplained", key, int(k), view=v, make=answer)
    got = answer()
    if isinstance(got, Unexplained):
        ws.cached("unexplained", key, int(k), view=v, make=lambda: got)
    return got


__all__ = ["AgreementReport", "SHAP_MODELS", "ShapComparison", "ShapRow", "agreement",
           "candidates_table", "cf_rows", "ws_citable", "counterfactual", "counterfactual_text", "explain", "known", "shapley",
           "values_key", "ws_agreement", "ws_agreement_done", "ws_agreement_progress", "ws_counterfactual", "ws_evidence",
           "ws_explain", "ws_explain_row", "ws_figure", "ws_shap_comparison", "ws_shap_row", "ws_shap_test",
           "ws_shapley"]
