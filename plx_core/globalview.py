"""Which features and which rules drive decisions across a data set (the global view).

Over a seeded sample of rows (bounded, so a click stays interactive; the sample size is
reported): how often each feature is part of the row's k-feature explanation (Algorithm 6),
the mean |Shapley value of ω(POS)| of each feature, the explanations given most often, and
the rules most often decisive — the clauses whose probability the answer equals (the clauses
the weighted median, or the LP's optimum, sits on). The per-row work is the engine's
`explain` (whose full query gives the decision and decisive clauses) and `shapley`; it runs row by row with a progress count and can be stopped,
the rows done kept for the next run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .encoding import is_missing
from .errors import DataError
from .explain import Explanation, Unexplained, citable, explain, explain_many, known_k, shapley
from .kb import KB
from .query import TIE_EPS, encode_rows, query
from .wording import clause_text, plural

CHUNK = 16  # rows whose explanations are made together (explain_many: shared work, threads)


@dataclass(frozen=True)
class GlobalView:
    """The aggregated explanations of `n_rows` rows: the first of `n_planned` sampled from
    `n_total` (fewer than planned when the run was stopped).

    `features`: feature, in_explanation (rows whose explanation uses it), share,
    for_pos / for_neg (of those, rows decided POS / NOT POS), mean_abs_shapley,
    mean_shapley — sorted by mean |Shapley|. `explanations`: the explanations given most often
    (text, rows, decision). `rules`: clause_id, rule (IF … THEN), p, w, source, rule_id,
    decisive (rows whose answer sits on it), share. `positive_rows`: rows done decided POS.
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
    n_planned: int = -1  # rows the run was to explain (-1: n_rows, all it was to do)

    @property
    def complete(self) -> bool:
        """Whether every planned row was explained (False after a stop)."""
        return self.n_planned < 0 or self.n_rows >= self.n_planned

    def summary(self, positive: Any = None) -> str:
        """One plain sentence saying what was aggregated (`positive`: what POS stands for)."""
        planned = self.n_rows if self.n_planned < 0 else self.n_planned
        rows = f"{self.n_total:,} row{'' if self.n_total == 1 else 's'}"
        how = ("the" if self.n_total == 1 else "all") if planned == self.n_total else \
            f"a random sample of {planned:,} of"
        head = (f"Explained {how} {rows}" if self.complete else
                f"Stopped after {self.n_rows:,} of {planned:,} rows (sampled from "
                f"{self.n_total:,}); what follows covers the {self.n_rows:,} done")
        return (f"{head} ({self.positive_rows:,} decided {'POS' if positive is None else positive}) "
                f"with {plural(self.k, 'feature')} each; Shapley values are "
                f"{'exact' if self.shapley_exact else f'sampled ({self.shapley_samples} permutations per row)'}.")


@dataclass(frozen=True)
class RowPart:
    """One row's share of the global view: its explanation (feature, value pairs) and that
    explanation's decision, the row's decision, Shapley values (feature order of the view),
    whether they are exact, and the clauses its answer sits on."""

    explanation: tuple[tuple[str, str], ...]
    explanation_positive: bool
    positive: bool
    shapley: tuple[float, ...]
    exact: bool
    decisive: tuple[int, ...]


def sample_rows(X: pd.DataFrame, max_rows: int, random_state: int | None = 0) -> pd.DataFrame:
    """At most `max_rows` rows of X, a seeded random sample in X's order (all if fewer)."""
    if max_rows < 1:
        raise DataError(f"max_rows must be at least 1, got {max_rows}")
    if len(X) <= max_rows:
        return X
    rng = np.random.default_rng(random_state)
    pick = np.sort(rng.choice(len(X), size=max_rows, replace=False))
    return X.iloc[pick]


def row_part(kb: KB, q: Mapping[str, Any], k: int, feats: Sequence[str], semantics: str = "auto",
             shapley_samples: int = 64, random_state: int | None = 0,
             explanation: Explanation | None = None, threshold: float = 0.5,
             bounds: Any = None) -> RowPart:
    """Explain one row (known values `q`) for the global view (`explanation`: its k-feature
    explanation when already made, e.g. by `explain_many` for a chunk of rows), the row
    decided positive iff the mean of its bounds is above `threshold`. `bounds`: the row's
    answer from `kb` when the explanation searched another KB (`global_view`'s `explained`)."""
    kk = k if explanation is not None else known_k(kb, q, k, semantics)[0]  # what it can cite
    e = explanation if explanation is not None else explain(kb, q, k=kk, semantics=semantics,
                                                            threshold=threshold)
    # the row's own answer, made by the explanation (no second query) unless given
    b = e.query_bounds if bounds is None else bounds
    if explanation is None and _side(b, threshold) != e.positive:  # `bounds`' side decided
        e = explain(kb, q, k=kk, semantics=semantics,
                    direction="positive" if _side(b, threshold) else "negative")
    sv = shapley(kb, q, n_samples=shapley_samples, semantics=semantics, random_state=random_state)
    got = dict(zip(sv.features, sv.values, strict=True))
    ev = b.evidence
    positive = _side(b, threshold)
    return RowPart(tuple(e.features.items()), positive, positive,
                   tuple(float(got.get(f, 0.0)) for f in feats), bool(sv.exact),
                   tuple(int(c) for c in ev.clause[~ev.overridden]))


def _side(b: Any, threshold: float) -> bool:
    """The decision on bounds `b` at `threshold` (positive iff the mean is above it)."""
    return bool((b[0] + b[1]) / 2.0 > threshold + TIE_EPS)


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
    *,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    done: MutableMapping[Hashable, RowPart | None] | None = None,
    positive: Any = None,
    threshold: float = 0.5,
    explained: KB | None = None,
) -> GlobalView:
    """Aggregate k-feature explanations, |Shapley| and decisive rules over ≤ `max_rows` rows
    of X (a seeded sample). A row that knows fewer than k features is explained with all it
    knows. Beyond 14 features Shapley values are sampled: `shapley_samples` permutations per
    row at most, fewer (down to 8) so that rows × permutations × (features + 1) stays within
    `shapley_budget` sub-queries.

    Rows are explained one after another: `progress(done, planned)` after each, and when
    `stop()` is true the view covers the rows done so far (`complete` is False). `done` keeps
    each row's part by its index, read before and written after each row, so a stopped or
    interrupted run continues where it ended (pass the same mapping for the same KB, rows, k
    and settings). `positive` names the class in the rules' text (`THEN malignant`). A row is
decided, and explained on the side decided, at `threshold` (the paper's 0.5, or the one the
model answers with, e.g. plx's default's). `explained`: the KB the explanations search when
it is not the one that answers (the full Direct KB behind a tuned one, as
`PLXClassifier.explain` searches); decisions, Shapley values and decisive rules stay `kb`'s."""
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
    done = {} if done is None else done
    parts: list[RowPart | None] = []
    records = rows.to_dict(orient="records")
    queries = [{f: v for f, v in rec.items() if not is_missing(v)} for rec in records]
    # what an explanation can cite (`explain.citable`: a seen value of a feature some clause
    # uses); a row with none is explained by nothing, as a row that knows no value
    searched = kb if explained is None else explained
    cite = citable(searched, encode_rows(searched, rows)).sum(axis=1)
    queries = [q if cite[i] else {} for i, q in enumerate(queries)]
    made: dict[int, Explanation] = {}  # explanations of the current chunk (explain_many)
    answers: dict[int, Any] = {}  # the chunk's answers from kb when `explained` searches
    for i, idx in enumerate(rows.index):
        if idx not in done:
            if stop is not None and stop():
                break
            if queries[i] and i not in made:  # the next chunk's explanations, made together
                chunk = [j for j in range(i, min(i + CHUNK, len(rows)))
                         if queries[j] and rows.index[j] not in done]
                if explained is not None:  # decided by kb, explained on that side by `explained`
                    answers = {j: query(kb, queries[j], semantics=semantics) for j in chunk}
                    es = explain_many(explained, [queries[j] for j in chunk],
                                      k=k,  # lowered per row (`explain.lower_k`)
                                      semantics=semantics, stop=stop, threshold=threshold,
                                      direction=["positive" if _side((answers[j].lower,
                                                                      answers[j].upper), threshold)
                                                 else "negative" for j in chunk])
                    made = _explained_only(dict(zip(chunk, es)), queries)  # a prefix if stopped
                else:
                    es = explain_many(kb, [queries[j] for j in chunk],
                                      k=k,  # lowered per row (`explain.lower_k`)
                                      semantics=semantics, stop=stop,
                                      threshold=threshold)  # each on the side decided at it
                    made = _explained_only(dict(zip(chunk, es)), queries)  # a prefix if stopped
                if i not in made and queries[i]:
                    break
            done[idx] = row_part(kb, queries[i], k, feats, semantics, shapley_samples,
                                 random_state, made.get(i), threshold,
                                 answers.get(i)) if queries[i] else None
        parts.append(done[idx])
        if progress is not None:
            progress(i + 1, len(rows))
    return _aggregate(kb, parts, feats, len(X), len(rows), k, random_state, shapley_samples,
                      top_rules, top_explanations, positive)


def _explained_only(made: dict[int, Any], queries: list[dict]) -> dict[int, Explanation]:
    """The explanations of a batch; a row it could not explain (`explain.Unexplained`: its LP
    failed, say) counts as explained by nothing, as a row that knows no value (its query is
    emptied), and the other rows go on."""
    for j, e in made.items():
        if isinstance(e, Unexplained):
            queries[j] = {}
    return {j: e for j, e in made.items() if not isinstance(e, Unexplained)}


def _aggregate(kb: KB, parts: Sequence[RowPart | None], feats: list[str], n_total: int,
               n_planned: int, k: int, random_state: int | None, shapley_samples: int,
               top_rules: int, top_explanations: int, positive: Any = None) -> GlobalView:
    """The global view of the rows done (a row that knows no value counts, explained by
    nothing)."""
    n = len(parts)
    known = [p for p in parts if p is not None]
    in_expl: Counter[str] = Counter()
    in_pos: Counter[str] = Counter()
    expl_count: Counter[tuple[tuple[str, str], ...]] = Counter()
    expl_pos: dict[tuple[tuple[str, str], ...], bool] = {}
    decisive: Counter[int] = Counter()
    shap = np.zeros((max(n, 1), len(feats)))
    for i, p in enumerate(parts):
        if p is None:
            continue
        expl_count[p.explanation] += 1
        expl_pos[p.explanation] = p.explanation_positive
        for f, _ in p.explanation:
            in_expl[f] += 1
            in_pos[f] += int(p.explanation_positive)
        shap[i] = p.shapley
        decisive.update(p.decisive)
    share = max(n, 1)
    abs_mean = np.abs(shap).mean(axis=0)
    features = pd.DataFrame({
        "feature": feats,
        "in_explanation": [in_expl[f] for f in feats],
        "share": [in_expl[f] / share for f in feats],
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
        "rule": [clause_text(c, positive) for c in clauses],
        "p": [c.p for c in clauses],
        "w": [c.w for c in clauses],
        "source": [c.source for c in clauses],
        "rule_id": [c.id for c in clauses],
        "decisive": [cnt for _, cnt in top],
        "share": [cnt / share for _, cnt in top],
    })
    exact = all(p.exact for p in known)
    return GlobalView(n_rows=n, n_total=n_total, k=k, features=features,
                      explanations=explanations, rules=rules,
                      positive_rows=sum(p.positive for p in known), shapley_exact=exact,
                      random_state=random_state, shapley_samples=0 if exact else shapley_samples,
                      n_planned=n_planned)


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


__all__ = ["GlobalView", "RowPart", "global_view", "row_part", "sample_rows", "showcase_row"]
