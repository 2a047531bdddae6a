"""Which features and which rules drive decisions across a data set (the global view).

Over a seeded sample of rows (bounded, so a click stays interactive; the sample size is
reported): how often each feature is part of the row's k-feature explanation (Algorithm 6),
the mean |Shapley value of ω(POS)| of each feature, the explanations given most often, and
the rules most often decisive — the clauses whose probability the answer equals (the clauses
the weighted median, or the LP's optimum, sits on). Decisions of every row come from one
`query_many` batch; the per-row work is the engine's `explain`, `shapley` and `query`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .encoding import is_missing
from .errors import DataError
from .explain import explain, shapley
from .kb import KB
from .query import TIE_EPS, query, query_many
from .wording import clause_text, plural


@dataclass(frozen=True)
class GlobalView:
    """The aggregated explanations of `n_rows` rows sampled from `n_total`.

    `features`: feature, in_explanation (rows whose explanation uses it), share,
    for_pos / for_neg (of those, rows decided POS / NOT POS), mean_abs_shapley,
    mean_shapley — sorted by mean |Shapley|. `explanations`: the explanations given most often
    (text, rows, decision). `rules`: clause_id, rule (IF … THEN), p, w, source, rule_id,
    decisive (rows whose answer sits on it), share. `positive_rows`: sampled rows decided POS.
    """

    n_rows: int
    n_total: int
    k: int
    features: pd.DataFrame
    explanations: pd.DataFrame
    rules: pd.DataFrame
    positive_rows: int
    shapley_exact: bool
    random_state: int | None
    shapley_samples: int = 0  # permutations per row where Shapley values were sampled

    def summary(self) -> str:
        """One plain sentence saying what was aggregated."""
        how = "all" if self.n_rows == self.n_total else f"a random sample of {self.n_rows:,} of"
        return (f"Explained {how} {self.n_total:,} rows ({self.positive_rows:,} decided POS) "
                f"with {plural(self.k, 'feature')} each; Shapley values are "
                f"{'exact' if self.shapley_exact else f'sampled ({self.shapley_samples} permutations per row)'}.")


def sample_rows(X: pd.DataFrame, max_rows: int, random_state: int | None = 0) -> pd.DataFrame:
    """At most `max_rows` rows of X, a seeded random sample in X's order (all if fewer)."""
    if max_rows < 1:
        raise DataError(f"max_rows must be at least 1, got {max_rows}")
    if len(X) <= max_rows:
        return X
    rng = np.random.default_rng(random_state)
    pick = np.sort(rng.choice(len(X), size=max_rows, replace=False))
    return X.iloc[pick]


def global_view(
    kb: KB,
    X: pd.DataFrame,
    k: int = 2,
    max_rows: int = 100,
    random_state: int | None = 0,
    semantics: str = "auto",
    shapley_samples: int = 64,
    shapley_budget: int = 50_000,
    top_rules: int = 15,
    top_explanations: int = 10,
) -> GlobalView:
    """Aggregate k-feature explanations, |Shapley| and decisive rules over ≤ `max_rows` rows
    of X (a seeded sample). A row that knows fewer than k features is explained with all it
    knows. Beyond 14 features Shapley values are sampled: `shapley_samples` permutations per
    row at most, fewer (down to 8) so that rows × permutations × (features + 1) stays within
    `shapley_budget` sub-queries."""
    if k < 1:
        raise DataError(f"k must be at least 1, got {k}")
    rows = sample_rows(X, max_rows, random_state)
    if not len(rows):
        raise DataError("there are no rows to explain")
    feats = [f for f in kb.features if f in rows.columns]
    if not feats:
        raise DataError(f"none of the KB's features {list(kb.features)} is a column of the rows")
    rows = rows[feats]
    per_row = max(len(rows) * (len(feats) + 1), 1)
    shapley_samples = int(max(8, min(shapley_samples, shapley_budget // per_row)))
    batch = query_many(kb, rows, semantics=semantics)
    decided = batch.positive
    in_expl: Counter[str] = Counter()
    in_pos: Counter[str] = Counter()
    expl_count: Counter[tuple[tuple[str, str], ...]] = Counter()
    expl_pos: dict[tuple[tuple[str, str], ...], bool] = {}
    shap = np.zeros((len(rows), len(feats)))
    decisive: Counter[int] = Counter()
    exact = True
    col = {f: j for j, f in enumerate(feats)}
    records = rows.to_dict(orient="records")
    for i, rec in enumerate(records):
        q = {f: v for f, v in rec.items() if not is_missing(v)}
        if not q:
            continue
        e = explain(kb, q, k=min(k, len(q)), semantics=semantics)
        key = tuple(e.features.items())
        expl_count[key] += 1
        expl_pos[key] = bool(e.positive)
        for f in e.features:
            in_expl[f] += 1
            in_pos[f] += int(bool(e.positive))
        sv = shapley(kb, q, n_samples=shapley_samples, semantics=semantics,
                     random_state=random_state)
        exact &= sv.exact
        for f, v in zip(sv.features, sv.values):
            shap[i, col[f]] = v
        b = query(kb, q, semantics=semantics)
        ev = b.evidence
        sits = ev.clause[~ev.overridden]
        decisive.update(int(c) for c in sits)
    n = len(rows)
    abs_mean = np.abs(shap).mean(axis=0)
    features = pd.DataFrame({
        "feature": feats,
        "in_explanation": [in_expl[f] for f in feats],
        "share": [in_expl[f] / n for f in feats],
        "for_pos": [in_pos[f] for f in feats],
        "for_neg": [in_expl[f] - in_pos[f] for f in feats],
        "mean_abs_shapley": abs_mean,
        "mean_shapley": shap.mean(axis=0),
    })
    order = np.lexsort((np.arange(len(feats)), -features["in_explanation"].to_numpy(),
                        -np.round(abs_mean, 12)))
    features = features.iloc[order].reset_index(drop=True)
    common = sorted(expl_count.items(), key=lambda kv: (-kv[1], kv[0]))[:top_explanations]
    explanations = pd.DataFrame({
        "explanation": [" AND ".join(f"{f} = {v}" for f, v in key) for key, _ in common],
        "rows": [c for _, c in common],
        "decision": ["POS" if expl_pos[key] else "NOT POS" for key, _ in common],
    })
    top = sorted(decisive.items(), key=lambda kv: (-kv[1], kv[0]))[:top_rules]
    clauses = [kb.clause(i) for i, _ in top]
    rules = pd.DataFrame({
        "clause_id": [i for i, _ in top],
        "rule": [clause_text(c) for c in clauses],
        "p": [c.p for c in clauses],
        "w": [c.w for c in clauses],
        "source": [c.source for c in clauses],
        "rule_id": [c.id for c in clauses],
        "decisive": [cnt for _, cnt in top],
        "share": [cnt / n for _, cnt in top],
    })
    return GlobalView(n_rows=n, n_total=len(X), k=k, features=features,
                      explanations=explanations, rules=rules,
                      positive_rows=int(decided.sum()), shapley_exact=bool(exact),
                      random_state=random_state, shapley_samples=0 if exact else shapley_samples)


def showcase_row(y_true: Any, lower: Any, upper: Any, threshold: float = 0.5) -> int | None:
    """Position of a row that shows what plx does well, for a first screen: decided right,
    positive if any such row is (the class a user looks for), as far from the threshold as
    possible with the narrowest bounds; ties to the first row. None if no row is right."""
    y = np.asarray(y_true, dtype=bool)
    lo, hi = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    mean = (lo + hi) / 2
    decided = mean > threshold + TIE_EPS
    right = (decided == y) & (np.abs(mean - threshold) > TIE_EPS)
    if not right.any():
        return None
    pool = right & y if (right & y).any() else right
    margin = np.where(pool, np.abs(mean - threshold), -np.inf)
    width = np.where(pool, hi - lo, np.inf)
    order = np.lexsort((np.arange(len(y)), np.round(width, 9), -np.round(margin, 9)))
    return int(order[0])


__all__ = ["GlobalView", "global_view", "sample_rows", "showcase_row"]
