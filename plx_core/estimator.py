"""`PLXClassifier`: the plx method behind scikit-learn's estimator contract.

Binary labels get one KB (POS = the positive class); more classes are one-vs-rest, a KB per
class, and the prediction is the class whose ω(POS) bounds have the largest mean (under "auto"
every class's KB is of the one model family chosen for all of them out of fold:
`_select_classes`); `explain`
explains that class's KB (the class against the rest).

`variant` chooses how the Direct KB answers (measured in benchmarks/RESULTS.md, "Experiments
(issue 4)"; `plx_core.variants` has the details):

* "auto" (default) — the tuned Direct KB, the Direct KB with confidence weights
  ("direct-conf", `plx_core.weighting`), the Direct KB's one-feature clauses with fitted vote
  weights ("direct-vote", `plx_core.vote`), an ID3 tree KB, or the one-feature clauses and
  learned terms (conjunctions of up to three values, `plx_core.terms`) with fitted vote weights
  ("rule-vote", `plx_core.vote.RuleVote`), whichever has the best F1 on the training rows (the Direct KBs by exact leave-one-out, the others by cross-validation:
  `plx_core.selection`; binary labels and `kb="direct"` only), with the decision threshold
  chosen there unless `threshold` is given;
* "paper" — the paper's method exactly: every Direct clause, relevant semantics, unit weights,
  positive iff the mean of the ω(POS) bounds > 0.5 (a tie at 0.5 is negative);
* "tuned" — the same KB semantics, with the clause-length window and a prior clause
  `[1] POS` / `[0] POS` of integer weight chosen by exact leave-one-out on the training rows;
  the paper's configuration is kept unless another wins by a paired sign test;
* "bagged" / "subspace" — the mean ω(POS) of `n_estimators` Direct KBs built on bootstrap
  samples / on random halves of the features;
* "weighted" — clause weight = its support; "confidence" — clause weight = |2p − 1| (+1e-3);
* "direct+forest" — the average of the Direct KB's and an ID3 forest KB's ω(POS) means.

Tuning and ensembles apply to the Direct KB; a Tree/forest KB (`kb=` other than "direct") is
used as built whatever the variant, and `variant_` records "paper" then (and when `auto` chooses
the tree); when `auto` chooses the Direct KB with confidence weights or a fitted vote,
`variant_` is "direct-conf", "direct-vote" or "rule-vote", as `chosen_` is (`plx_core.wording.model_name`
says it in words).

Beyond the paper (ignored by `variant="paper"`, which keeps the paper's rule exactly):

* **Raw tables.** Numeric columns are cut into bins inside `fit`, on the training rows only
  (`plx_core.discretize.Discretizer`, `discretize=` "mdlp" by default); the cut points are
  part of the fitted model (`discretizer_`, `cuts_`) and re-applied in predict and explain —
  when "auto" answers with the vote on 8 equal-frequency bins per numeric column
  (`selection_.bins`), those are its cut points (`discretizer_.method` "quantile"), and
  when the search on `selection.GRID_BINS` equal-frequency bins a number beats the one on
  MDLP's out of fold (`_race_grid`: a ratio of two numbers), the grid's. A column of 3–10
  whole numbers is one level a value unless its class rate steps with the value out of fold
  (`selection.whole_screen`: a grade, a count, not a ward code) and the search with it cut as
  numbers beats the one on its levels (`_race_whole`; each column's reading in `whole_read_`).
  Missing values stay missing (the feature is left open in the query).
* **Rare classes.** `class_weight="balanced"` (default) stores each learned clause with its
  probability corrected to a balanced prior (`plx_core.variants.reweighted_p` with
  `balanced_weights`: positives count 1/π, negatives 1/(1−π) for the training base rate π) —
  what replicating the minority class does, without copies that could leak into a test
  split. The decision stays "mean of the ω(POS) bounds > threshold", now on balanced
  probabilities; `class_weight_` records what was used. `threshold=` moves the decision
  (sensitivity against specificity).
* **The positive class** of a binary label is never guessed except for 0/1, −1/1,
  False/True and no/yes (the second of each pair); other labels need `positive=` (the error names them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from . import variants as V
from . import vote as VT
from .checks import checked_counts, checked_int, checked_seed, checked_threshold
from .data import (
    DATE_ISO,
    LONG_TEXT,
    MONTHS_DURATION,
    SEASON_HINT,
    case_number,
    censored_shown,
    censored_sides,
    column_numbers,
    columns_left_out,
    copied_rows,
    copy_cases,
    date_format,
    date_part,
    date_part_columns,
    date_parts_of,
    excess_levels,
    flag_column,
    flag_vocabularies,
    format_levels,
    free_text,
    group_levels,
    grouped_said,
    held_clock,
    held_format,
    holds_dates,
    infinite_said,
    label_copy,
    label_texts,
    listed_items,
    many_levels,
    missing_code,
    mixed_dates,
    number_format_words,
    number_reading,
    numbered_like_ids,
    part_days,
    percent_scales,
    quiet_columns,
    serial_cells,
    spelling_variants,
    text_binned,
    to_numeric_loses,
    twin_columns,
    twin_said,
    uninformative,
    unit_scales,
    unread_numbers,
    whole_levels,
    whole_numbers,
)
from .direct import (
    DEFAULT_MEMORY_BUDGET,
    direct_kb_with_reason,
    direct_kbs_with_reason,
    parse_size,
)
from .discretize import METHODS as DISCRETIZE_METHODS
from .discretize import Discretizer, numeric_values
from .encoding import (
    check_cells,
    check_labels,
    class_named,
    column_names,
    default_positive,
    label_strings,
    match_columns,
    natural_key,
    one_class,
    stray_classes,
    stray_said,
    typed_labels,
    value_str,
)
from .errors import DataError, KBTooLargeError
from .notes import collected as collected_notes
from .notes import say as say_note
from .plurals import counted as counted_said
from .progress import Progress, forward, silent, within
from .query import (
    TIE_EPS,
    UNSEEN,
    BoundsArray,
    UninformedRows,
    encode_query_rows,
    encode_rows,
    failed_notes,
    query_many,
    read_as_note,
    unanswered,
    uninformed_rows,
    unseen_cells,
    unseen_note,
)
from .scale import check_fit_size, long_tree_said, min_split, search_sample
from .wording import class_decision_said, few_rows_said, ordered_hint, too_few_rows_said


@dataclasses.dataclass
class _Search:
    """What `PLXClassifier._select` found for one binary problem before choosing: the labels,
    the tuned Direct KB's config, every candidate's out-of-fold means, the folds, the offsets
    and the fitted votes (`_adopt` builds the chosen one from them)."""

    y: np.ndarray
    cfg: Any
    oof: dict
    fold: np.ndarray
    offsets: dict
    votes: dict
    pairs: Any
    sizes: dict = dataclasses.field(default_factory=dict)
    """Each candidate's clauses (a tree's mean over its folds, the tuned Direct KB's): a pruned
    tree that ties the best other with fewer clauses answers (`selection.choose`)."""
    vote_fold: np.ndarray | None = None
    """Each row's fold of the votes' cross-fit (`vote.VOTE_FOLDS`): the smooth vote's threshold
    is steadied on it (`selection.steady_threshold`)."""

    def choose(self, family: str | None = None):
        """`selection.choose` among every candidate, or among one family's (None: it has
        none here; the vote on fine bins is a family of its own, `selection.FINE_FAMILY`)."""
        from . import selection as S

        oof, direct = self.oof, self.cfg.loo_pred
        if family is not None:
            model = {k: m for k, m, _d in S._candidates()}
            oof = {k: v for k, v in oof.items() if S.family_of(k, model) == family}
            if family != "direct":
                direct = None
            if not oof and direct is None:
                return None
        fine = next((cand.l1 for bins, (cand, _d) in self.votes.items() if bins), None)
        return S.choose(self.y, direct, self.cfg.loo_rows, oof, fold=self.fold,
                        offsets={k: v for k, v in self.offsets.items() if k in oof},
                        sizes=self.sizes, fine_l1=fine, vote_fold=self.vote_fold)


PREDICT_BLOCK = 100_000
"""Rows validated, binned and answered at a time by predict / predict_proba / bounds."""


def _plain_value(v: Any) -> Any:
    """A numpy scalar as the Python value it holds ('mild', not np.str_('mild'))."""
    return v.item() if isinstance(v, np.generic) else v


def _held_rows(frame: pd.DataFrame) -> Callable[[np.ndarray, np.ndarray],
                                                 tuple[None, pd.DataFrame]]:
    """For `selection.out_of_fold` where a fold's trees read the training rows' codes
    (`tree.subset_rows`): its held-out rows as `out_of_fold` takes them, and no training frame
    (never read: one a fold and a class, 2% of a 4-class fit)."""
    def frames(_tr: np.ndarray, te: np.ndarray) -> tuple[None, pd.DataFrame]:
        return None, frame.iloc[te].reset_index(drop=True)
    return frames


def _n_rows(X: Any) -> int:
    """Rows of a table-like X without copying it (0-d or 1-d input is left to validation)."""
    shape = getattr(X, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) else 0
    try:
        return len(X)
    except TypeError:
        return 0


def _replica_index(X: Any, y: Any) -> bool:
    """True when a DataFrame's repeated index labels mark replicas (`data.balance`: rows that
    share a label are copies, features and class alike); a repeat from `pd.concat` of other
    rows is no group, and must not change the model (it turned the auto choice off)."""
    if not isinstance(X, pd.DataFrame) or X.index.is_unique:
        return False
    both = X.reset_index(drop=True).astype(object).assign(
        __y__=np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y, dtype=object)
        if len(X) == len(y) else None)
    keys = X.index.to_numpy()
    return bool((both.groupby(keys, sort=False, dropna=False).nunique(dropna=False) <= 1)
                .all().all())


def _weighted(X: Any, y: Any, groups: Any, sample_weight: Any,
              budget: Any = None) -> tuple[Any, Any, Any]:
    """X, y and groups with each row repeated its weight's number of times (0: left out), the
    copies of a row one case (groups repeated, else each row its own case, or the replica
    index's); unchanged where every weight is 1 (the fit is then the unweighted one). The
    copies are refused before they are made when their fit would pass `budget`
    (`scale.check_fit_size`, as the fit itself checks it)."""
    if isinstance(X, (list, tuple)) and X and all(isinstance(r, dict) for r in X):
        X = pd.DataFrame(list(X))
    elif not hasattr(X, "shape") and hasattr(X, "__array__"):
        X = np.asarray(X)  # array-likes without rows of their own (scikit-learn's checks')
    counts = checked_counts("sample_weight", sample_weight, _n_rows(X))
    if (counts == 1).all():
        return X, y, groups
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2:
        check_fit_size(int(counts.sum()), int(shape[1]), budget)
    if groups is None:
        groups = (X.index.to_numpy() if _replica_index(X, y)
                  else np.arange(len(counts)) if (counts > 1).any() else None)
    at = np.repeat(np.arange(len(counts)), counts)

    def rows(v: Any) -> Any:
        if hasattr(v, "iloc"):
            return v.iloc[at]
        return v[at] if hasattr(v, "shape") else np.asarray(v, dtype=object)[at]

    return rows(X), rows(y), None if groups is None else rows(np.asarray(
        groups.to_numpy() if isinstance(groups, pd.Series) else groups, dtype=object))


def warn_read_as(read_as: Any) -> None:
    """The warning that names values read as the KB's value written otherwise ("TRUE" as
    "True", "2" as "2.0"; `query.read_as_note`), with how many rows each."""
    if read_as:
        say_note(read_as_note(read_as), stacklevel=3)


def warn_unseen(cells: dict[str, int], n_rows: int) -> None:
    """The warning that names the values the KB never saw (`query.unseen_note`), answered as
    missing: `plx predict` says them on stderr and in its `unseen` column."""
    if cells:
        say_note(unseen_note(cells, n_rows), stacklevel=3)


def warn_failed(notes: np.ndarray, decided: str) -> None:
    """The warning that counts the rows no answer could be given for (the LP failed on them:
    NaN bounds; per row its reasons, `query.failed_notes`) and says what `predict` gave them
    (`decided`); every other row is answered. One wording and one count (`query.unanswered`)."""
    note = unanswered(notes, decided)
    if note is not None:
        say_note(note, stacklevel=3)


def kept_column_said(c: Any, s: pd.Series, labels: Any, ystr: pd.Series,
                     run: Any = None) -> list[str]:
    """The notes on a kept column `c` (cells `s`, the label `labels` and its `label_texts`
    `ystr`): a copy of the label, values written two ways or in two vocabularies, two scales or
    units, a code for missing, ±inf. One home for the in-memory fit and the Dask fit (its
    columns rebuilt from their counts; `run`: `data.unit_scales`' rows in the table's order)."""
    out = []
    if (why := label_copy(s, labels, ystr)) is not None:
        out.append(f"column {c!r}: {why}")
    if (how := spelling_variants(s) or flag_vocabularies(s) or listed_items(s)
            or percent_scales(s) or unit_scales(s, run) or missing_code(s)
            or infinite_said(s)) is not None:
        out.append(f"column {c!r} {how}")
    return out


def warn_left_out(excluded: dict[str, str], hint: str = "") -> None:
    """The warning that names the columns a fit leaves out (`excluded_`) and why."""
    if excluded:
        say_note("left out of the KB (still accepted in predict): " + "; ".join(
            f"{c!r}: {w}" for c, w in excluded.items()) + hint, stacklevel=4)


def warn_grouped(grouped: dict[str, str]) -> None:
    """The warning that names the columns a fit grouped (`grouped_`) and how."""
    if grouped:
        say_note("grouped (rare and unseen values read as one level in predict): "
                 + "; ".join(f"{c!r}: {w}" for c, w in grouped.items()), stacklevel=4)


CLOCK_HINTS = {
    "time": "convert it to times of day (e.g. pd.to_datetime(s, format='%H:%M').dt.time), "
            "binned as plx fit and the dashboard bin it (bins read <17:00),",
    "duration": "convert it to lengths of time (pd.to_timedelta(plx_core.data.column_numbers("
                "s, 'duration'), unit='min'), which reads weeks, months and years as plx fit "
                "does: pd.to_timedelta(s) reads no '2 weeks' or '5 months'), binned as plx fit "
                "and the dashboard bin it (bins read ≥1h30m),",
}
"""What to do with a DataFrame column of times of day or durations written as text (plx fit
and the dashboard read them as such: `data.CLOCK_FORMATS`; the estimator bins a column of
`datetime.time` or timedeltas in minutes and labels the bins as times: `data.held_clock`)."""
CLOCK_HINTS[MONTHS_DURATION] = CLOCK_HINTS["duration"].replace("'duration'", f"{MONTHS_DURATION!r}")


def convert_hint(raw: pd.Series, s: pd.Series) -> str:
    """What a categorical column left out (too many levels) should be converted to, as the
    clause its reason ends with (" — it holds dates as text: convert it …"), "" when it holds
    no durations, dates, numbers or times written otherwise: the one wording of the in-memory
    fit and `fit_dask`. `raw`: the column as given (its dtype), `s`: its values as strings."""
    typed = pd.api.types.infer_dtype(raw, skipna=True)
    if (written := date_format(s)) is not None:
        if (serials := serial_cells(s)) is not None:  # pd.to_datetime reads no 44932: say what does
            return (f" — it holds dates as text and {serials[0]} of Excel's serial day numbers "
                    f"({serials[1]}), which pd.to_datetime does not read as dates: convert it "
                    f"with pd.to_datetime(plx_core.data.column_numbers(s, 'date:{written}'), "
                    "unit='D'), which reads both as plx fit does, to have it binned as a time "
                    "line")
        return (" — it holds dates as text: convert it (pd.to_datetime) to have it binned as a "
                f"time line{SEASON_HINT}")
    if (mixed := mixed_dates(s)) is not None:
        return f" — {mixed}"
    if typed == "string" and (fmt := number_reading(s)):
        if (levels := format_levels(fmt)) is not None:  # bands, a scale's words
            shown = [repr(v) for v in levels]
            shown = shown if len(shown) <= 6 else [*shown[:4], "…", shown[-1]]
            return (f" — it holds ordered levels as text ({' < '.join(shown)}): pass "
                    f"it as an ordered Categorical (pd.Categorical(s, categories=[{levels[0]!r}, "
                    f"…], ordered=True), as plx fit reads it) to have it cut in that order")
        if (side := censored_sides(s)[0]).any():  # "<5": a value, which to_numeric would lose
            arg = "" if fmt == "plain" else f"{fmt!r}, "
            return (f" — it holds numbers as text, {int((side != 0).sum())} of them written "
                    f"beyond a bound ({censored_shown(s, side)}): convert it with plx_core.data."
                    f"column_numbers(s, {arg}censored=True), which reads each just past its "
                    "bound as plx fit does (pd.to_numeric would make them missing), to have it "
                    "binned")
        if fmt == "plain" and (lost := to_numeric_loses(s)):
            return (f" — it holds numbers as text, {lost}: convert it with plx_core.data."
                    "column_numbers(s), which reads them as plx fit does, to have it binned")
        if fmt == "plain":
            return (" — it holds numbers as text: convert it (pd.to_numeric with "
                    "errors='coerce' turns the rest into missing) to have it binned")
        if fmt in CLOCK_HINTS:
            return f" — it holds {number_format_words(fmt)} as text: {CLOCK_HINTS[fmt]} to have it binned"
        return (f" — it holds {number_format_words(fmt)} as text: convert it with plx_core.data."
                f"column_numbers(s, {fmt!r}), which reads it as plx fit does (pd.to_numeric "
                "reads plain numbers only), to have it binned")
    if (unread := unread_numbers(s)) is not None:
        return f" — {unread}"
    return ""


#: The kinds of KB plx learns, with what each holds.
KB_KINDS = {
    "direct": "Direct (every feature-value set of the training rows)",
    "tree": "Tree: root-to-leaf paths of one ID3 tree",
    "tree-all": "Tree: root-to-every-node paths of one ID3 tree",
    "forest": "Forest: leaf paths of several ID3 trees on bootstrap samples",
    "tree-bin": "Binary tree: root-to-every-node paths of one ID3 tree of value-against-rest "
                "splits, each path one clause per allowed value combination",
    "tree-bin-deep": "Binary tree, each node weighing more than its ancestors together: a row "
                     "gets the deepest node its features reach (a full row, its leaf)",
}
VARIANTS = ("auto", "tuned", "paper", "bagged", "subspace", "weighted", "confidence", "direct+forest")
DEFAULT_VARIANT = "auto"
CLASS_WEIGHTS = ("balanced", None)


class PLXClassifier(ClassifierMixin, BaseEstimator):
    """Classify by probabilistic logic inference over a learned KB.

    kb: "direct" (Algorithm 3), "tree" (ID3 leaves), "tree-all" (all ID3 nodes), "forest" or
    "tree-bin" (all nodes of an ID3 tree of value-against-rest splits, `plx_core.tree.id3_binary`)
    or "tree-bin-deep" (the same, each node outweighing its ancestors: a full row gets its leaf).
    variant: see the module docstring ("paper" is the paper's exact method; "auto", the
    default, picks the tuned Direct KB or a Tree KB by cross-validation on the training rows). max_len: cap on clause length for the Direct KB; None
    picks the largest cap that fits `memory_budget` (bytes or a size such as "4GB"; default
    `plx_core.direct.DEFAULT_MEMORY_BUDGET`) — no cap when the whole KB fits —, at most 3
    beyond 12 features where longer clauses cost (`plx_core.direct.WIDE_MAX_LEN`), and in the
    default's search (variant "auto") at most 2 on wide tables where clauses of 3 cannot pay
    (`plx_core.direct.short_cap`).
    semantics: "auto" | "relevant" | "full". n_trees, max_features, bootstrap, max_depth: tree
    and forest settings. n_estimators: KBs in the "bagged"/"subspace" ensembles. positive: the
    positive class for binary labels (needed unless the labels are 0/1, −1/1, False/True or no/yes,
    where it is the second; refused with more classes, which get one KB each). class_weight: "balanced" (default) or None (the raw base rate;
    `variant="paper"` always uses None). threshold: positive iff the mean of the ω(POS) bounds
    > threshold (None, the default: chosen by "auto", else 0.5; binary only). discretize:
    "mdlp" | "tree" | "quantile", how numeric columns are binned; max_bins: the most bins per
    numeric column. random_state: seeds forests, ensembles, the leave-one-out sample and the
    folds of "auto". date_parts: "month", "weekday", "hour", several ("month,hour" or a list) or
    None: each column holding dates (datetime64, Timestamps) also gives its month ("Jan" …
    "Dec"), weekday ("Mon" … "Sun") and/or hour of the day ("00:00-00:59" … as a feature of its
    own, named "visit month" — a pattern that repeats each year, week or day (night
    admissions), which the date's time line cannot learn (`plx fit
    --date-parts`); derived again from the date at predict and explain, and saved in the model
    file (`date_parts_`: derived name → (date column, part)). class_order: "scale" (default:
    several classes that are the words of a known scale — mild < moderate < severe, Stage
    I–IV, Grade 1–3: `ordered.scale_order` — as ordered levels unless `positive=` or
    `threshold=` is given, any others one against the rest), None (always one against the
    rest), the classes from lowest to highest level, or "auto" (numbers ascending too:
    `ordered.recognised_order`): one yes/no model for each step between neighbouring levels,
    a row's level the number of steps it is above (`ordered_`, `class_order_`; explained by a
    step; saved as a model file of ordered classes, `modelfile.OrderedModelFile`; +0.02 …
    +0.10 macro F1 on six ordered families, benchmarks/RESULTS.md multi25).

    Fitted: `max_len_` is the clause-length cap used (None: every length) and `max_len_reason_`
    says why in a sentence; `kbs_` (one KB per one-vs-rest problem; `kb_` when binary) is the
    KB that answers
    — for "tuned" the Direct KB cut to the chosen clause lengths plus the prior clause (id
    "prior"); `paper_kbs_` are the full Direct KBs (what `explain` searches, Algorithm 6);
    `tuned_` the chosen `plx_core.variants.TunedConfig` per KB; `variant_` the variant used;
    `class_weight_` the correction used; `base_rates_` the training share of POS per KB;
    `discretizer_` (a fitted `plx_core.discretize.Discretizer`) and `cuts_` (numeric column →
    cut points); `chosen_` (the model that answers: one of `plx_core.selection.CANDIDATES`
    — "direct", "direct-conf", "tree-all", "tree-bin-deep", "direct-vote" — when `variant="auto"` chooses
    for kb="direct", else the `kb` given), `chosen_reason_` (why, in a sentence), `selection_`
    (`plx_core.selection.Selection`, every candidate's out-of-fold F1 and, for a tree, the
    depth limit chosen in `max_depth` — for "tree-bin" the most features a path constrains —, for
    "direct-conf" the m-estimate strength in `m`; None without a choice), `threshold_` (the threshold used) and
    `semantics_` (how the answering KB is queried). `excluded_` names the columns left out
    and why (ID-like, free text, constant…); `grouped_` the categorical columns of more than
    100 levels whose frequent levels are kept and the rest read as one "(other)" level, with
    the sentence that says so (both also said in a warning; predict reads rare and unseen
    values of a grouped column as "(other)"). `whole_read_` maps each column of 3 to 10 whole
    numbers that "auto" weighed to "numbers" (cut into ordered bins, in `cuts_`) or "levels"
    (one level a value), said in `chosen_reason_`; a pandas category column is never weighed.
    """

    def __init__(
        self,
        kb: str = "direct",
        variant: str = DEFAULT_VARIANT,
        max_len: int | None = None,
        semantics: str = "auto",
        n_trees: int = 10,
        max_features: int | None = None,
        bootstrap: bool | None = None,
        max_depth: int | None = None,
        n_estimators: int = 10,
        positive: Any = None,
        random_state: int | None = 0,
        memory_budget: int | str | None = None,
        class_weight: str | None = "balanced",
        threshold: float | None = None,
        discretize: str = "mdlp",
        max_bins: int = 4,
        date_parts: str | Sequence[str] | None = None,
        class_order: Any = "scale",
    ):
        self.kb = kb
        self.variant = variant
        self.max_len = max_len
        self.semantics = semantics
        self.n_trees = n_trees
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_depth = max_depth
        self.n_estimators = n_estimators
        self.positive = positive
        self.random_state = random_state
        self.memory_budget = memory_budget
        self.class_weight = class_weight
        self.threshold = threshold
        self.discretize = discretize
        self.max_bins = max_bins
        self.date_parts = date_parts
        self.class_order = class_order

    # ------------------------------------------------------------------ sklearn plumbing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True
        return tags

    def _feature_names(self, n: int | None = None) -> list[str]:
        """The fitted column names (`a1`, `a2`, … for a table fitted without names)."""
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            return [str(c) for c in names]
        return [f"a{i + 1}" for i in range(self.n_features_in_ if n is None else n)]

    def _frame(self, X: Any, reset: bool) -> pd.DataFrame:
        """X as an object frame of the fitted columns: a DataFrame's columns are matched by
        name (`encoding.match_columns`); predict on no rows gives no rows."""
        if isinstance(X, (list, tuple)) and X and all(isinstance(r, dict) for r in X):
            X = pd.DataFrame(list(X))  # records: one mapping of column → value per row
        if getattr(X, "ndim", None) == 1 or (isinstance(X, (list, tuple)) and X
                                             and np.ndim(X[0]) == 0):
            raise DataError("expected a table (rows × columns) but got one dimension. Reshape "
                            "your data: a DataFrame (a single row: `row.to_frame().T` or "
                            "`[row_dict]`)")
        if not reset and isinstance(X, pd.DataFrame) and getattr(self, "excluded_", None):
            # a left-out column (an ID, a constant) may be absent from new rows, as in `plx
            # predict`: the KB never reads it ("still accepted in predict", not required)
            have = set(column_names(X))
            absent = [c for c in self.excluded_ if c not in have
                      and c not in getattr(self, "date_parts_", {})]  # derived below
            if absent:
                X = X.reindex(columns=[*X.columns, *absent])
        X = match_columns(X, None if reset else getattr(self, "feature_names_in_", None))
        if not reset and _n_rows(X) == 0 and getattr(X, "ndim", 2) == 2:
            return self._derived(pd.DataFrame(np.empty((0, self.n_features_in_), dtype=object),
                                              columns=self._feature_names()))
        if isinstance(X, pd.DataFrame) and (len(set(X.dtypes)) > 1 or any(
                not isinstance(t, np.dtype) or t.kind in "mM" for t in X.dtypes)):
            # pandas' own dtypes (category, Int64, boolean, string) and dates beside others
            # make scikit-learn cast the whole table to one dtype ("Cannot cast str dtype to
            # float64", no common dtype of datetime64 and float64), and so do numbers of two
            # dtypes (a 0–4 int code beside a float column became the categories "3.0" —
            # `plx fit` reads "3" — and int64 IDs lost digits); as objects every cell keeps
            # its value (Int64's <NA> stays missing, a date stays a Timestamp)
            X = X.astype(object)
        arr = validate_data(self, X, dtype=None, ensure_all_finite=False, reset=reset)
        frame = pd.DataFrame(np.asarray(arr, dtype=object), columns=self._feature_names(arr.shape[1]))
        check_cells(frame)
        return frame if reset else self._derived(frame)

    def _derived(self, frame: pd.DataFrame) -> pd.DataFrame:
        """`frame` with the `date_parts_` features derived from the date columns it holds
        (`data.date_part`: the days as `plx fit` reads them, so a date written as text reads
        as the same date); as it is without them."""
        parts = getattr(self, "date_parts_", None)
        new = {name: date_part(part_days(column_numbers(frame[src], fmt := self._part_format(
            frame[src])), fmt), part) for name, (src, part) in (parts or {}).items()
            if src in frame.columns}
        return frame.assign(**new) if new else frame

    def _part_format(self, s: pd.Series) -> str:
        """How a `date_parts_` source column is read: "time" for times of day (as fitted, or
        held as `datetime.time`), else as dates (text as ISO dates)."""
        binning = getattr(getattr(self, "discretizer_", None), "binnings_", {}).get(s.name)
        fitted = binning.number_format if binning is not None else held_format(s)
        return "time" if fitted == "time" else DATE_ISO

    def _given(self, raw: pd.DataFrame) -> pd.DataFrame:
        """The columns of `raw` the user gave (without those `date_parts_` derives): what a
        race's own fit is given, so it derives them as this one did."""
        return raw.drop(columns=list(getattr(self, "date_parts_", {})))

    # ------------------------------------------------------------------ fit

    def fit(self, X: Any, y: Any, groups: Any = None,
            progress: Progress | None = None, sample_weight: Any = None) -> PLXClassifier:
        """Build the KB(s). `groups` (one label per row, as `GridSearchCV.fit` takes it) names
        each row's case where a case has several rows (one a visit): the model search's and
        the threshold's folds keep a case's rows on one side (`selection.folds`), and the
        leave-one-outs (the "tuned" variant's window and prior, the Direct candidates') leave
        each row's whole case out (`variants.loo_case_stats`); the groups are no feature and
        the model keeps nothing of them. `sample_weight`: how many times each row counts, whole
        numbers ≥ 0 (`checks.checked_counts`; 0 leaves a row out): a row of weight k is fitted
        as k copies of one case (`_weighted`), so its copies never sit on both sides of a fold. By default, when X is a
        DataFrame whose index repeats labels on identical rows (as `plx_core.data.balance`
        leaves replicas), the index is used. `progress(fraction, text)` is told each phase (`plx_core.progress`).
        A table whose fit would need more than `memory_budget` is refused before the work
        (`scale.check_fit_size`); above `scale.SEARCH_ROWS` rows "auto" chooses on a
        stratified sample (`search_rows_`, said in `chosen_reason_`)."""
        progress = forward(progress)  # a later stage never takes the bar back
        say = progress or silent
        if self.kb not in KB_KINDS:
            raise DataError(f"kb must be one of {tuple(KB_KINDS)}, got {self.kb!r}")
        if self.variant not in VARIANTS:
            raise DataError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        if self.variant in ("bagged", "subspace"):
            checked_int("n_estimators", self.n_estimators, 1)
        if not (self.class_weight in CLASS_WEIGHTS or isinstance(self.class_weight, dict)):
            raise DataError(f"class_weight must be 'balanced', None or a dict class → weight, "
                            f"got {self.class_weight!r}")
        if self.discretize not in DISCRETIZE_METHODS:
            raise DataError(f"discretize must be one of {DISCRETIZE_METHODS}, got {self.discretize!r}")
        self._check_threshold()
        checked_seed(self.random_state)
        parts = date_parts_of(self.date_parts)
        if y is None:
            raise DataError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        if sample_weight is not None:
            X, y, groups = _weighted(X, y, groups, sample_weight, self.memory_budget)
        if groups is None and _replica_index(X, y):
            groups = X.index.to_numpy()
        if groups is not None:
            groups = np.asarray(groups.to_numpy() if isinstance(groups, pd.Series) else groups,
                                dtype=object).ravel()
            if len(missing := np.flatnonzero(pd.isna(groups))):
                raise DataError(f"groups: row {int(missing[0])} has no case (a missing value; "
                                f"{counted_said(len(missing), 'row')} in all): name every row's case")
            groups = groups.astype(str)
        declared = ({str(c) for c, t in X.dtypes.items()  # (ordered ones: levels, cut in order)
                     if isinstance(t, pd.CategoricalDtype) and not t.ordered}
                    if isinstance(X, pd.DataFrame) else set())  # categories by the user's word
        frame = self._frame(X, reset=True)
        for c, t in (X.dtypes.items() if isinstance(X, pd.DataFrame) else ()):
            if isinstance(t, pd.CategoricalDtype) and t.ordered:  # ordered levels (bands, a
                # scale's words) keep their order through the object frame: cut in that order
                frame[str(c)] = pd.Categorical(frame[str(c)], categories=t.categories, ordered=True)
        self.date_parts_ = {}
        if parts:
            dates = [c for c in frame.columns if holds_dates(frame[c]) and frame[c].notna().any()]
            times = [c for c in frame.columns if held_clock(frame[c]) == "time"]
            try:
                self.date_parts_ = date_part_columns(dates, parts, frame.columns, times)
            except DataError as e:
                raise DataError(f"date_parts={self.date_parts!r}: {e}" + (
                    "" if dates else "; a column holds dates when they are held as dates "
                    "(datetime64 or Timestamps: pd.to_datetime(X[column]))")) from None
            frame = self._derived(frame)
        check_fit_size(len(frame), frame.shape[1], self.memory_budget)
        if groups is not None and len(groups) != len(frame):
            raise DataError(f"groups has {len(groups)} entries for {len(frame)} rows")
        self._groups = groups
        y_arr = column_or_1d(np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y), warn=True)
        check_labels(y_arr, y.index if isinstance(y, pd.Series) else None)
        y_arr = typed_labels(y_arr)
        check_classification_targets(y_arr)
        y_arr = y_arr.astype(object)
        if len(y_arr) != len(frame):
            raise DataError(f"X has {len(frame)} rows but y has {len(y_arr)}")
        labels = label_strings(y_arr)
        copies: Any = ...  # decided in the note when the user named the cases
        if groups is None and (copies := copy_cases(frame.assign(**{"\0label": labels}))) is not None:
            groups = self._groups = copies.astype(str)  # said in _say_columns
        classes = sorted(set(labels.tolist()), key=natural_key)
        if len(classes) < 2:
            raise one_class(classes[0], "y")
        strays = stray_classes(labels)  # 'yse' in one row beside 'yes' and 'no': said, by row
        stray = "" if not strays else stray_said(labels, {
            v: (y.index[rows] if isinstance(y, pd.Series) else rows).tolist()
            for v, rows in strays.items()})
        if stray and self.positive is None:  # one KB a class, the slip's too
            say_note(stray, stacklevel=2)
        originals = {value_str(v): v for v in y_arr}
        self.classes_ = np.array([originals[c] for c in classes])
        self.class_order_ = None
        if len(classes) > 2 and self._ordered(classes):
            return self._fit_ordered(X, y_arr, labels, classes, groups, progress)
        if self.kb != "direct":
            self.variant_ = "paper"
        else:
            self.variant_ = "tuned" if self.variant == "auto" else self.variant
        self.threshold_ = 0.5 if self.threshold is None else float(self.threshold)
        self.chosen_ = self.kb if self.kb != "direct" else "direct"
        self.chosen_reason_ = (f"kb={self.kb!r} and variant={self.variant!r} as given"
                               if self.variant != "auto" else "")
        self.selection_ = None
        self.class_chosen_ = self.class_variant_ = None
        self.class_selection_ = None
        self._class_macro = None  # the several-class search's own out-of-fold macro F1
        self.semantics_ = self.semantics
        self.class_weight_ = None if self.variant == "paper" else self.class_weight
        say(0.02, f"binning {len(frame):,} rows × {frame.shape[1]} columns")
        whole = tuple(getattr(self, "_whole", None) or ())  # the race's reading (`_race_whole`)
        if whole:
            frame = frame.copy()
            for c in whole:  # "3" and 3 alike: a few whole numbers, read as numbers
                frame[c] = pd.Series(whole_numbers(frame[c]), index=frame.index, dtype=object)
        self.whole_read_ = {c: "numbers" for c in whole}
        self.discretizer_ = Discretizer(self.discretize, self.max_bins).fit(frame, labels,
                                                                           whole=whole)
        self.cuts_ = dict(self.discretizer_.cuts_)
        raw, frame = frame, self._leave_out(self.discretizer_.transform(frame), frame)
        if not getattr(self, "_said", False):  # (a race's own fit: the table was said once)
            self._say_columns(raw, list(frame.columns), labels,
                              X.index if isinstance(X, pd.DataFrame) else raw.index, copies)
        for c in self.excluded_:  # a left-out column needs no bins (predict takes any value)
            for d in (self.cuts_, self.discretizer_.cuts_, self.discretizer_.binnings_):
                d.pop(c, None)
        if len(classes) == 2:
            pos = (class_named(self.positive, classes, "y", "class") if self.positive is not None
                   else default_positive(classes))
            if pos is None:
                raise DataError(
                    f"y has the classes {classes}: pass positive= to say which one POS stands "
                    "for (plx only assumes it for 0/1, −1/1, False/True and no/yes)"
                )
            self.positive_ = pos
            targets = [pos]
        else:
            if self.positive is not None:  # never dropped silently (`plx fit` makes it binary)
                raise DataError(
                    f"y has {len(classes)} classes {classes[:10]}; positive= is for two classes: "
                    f"leave it unset for one KB per class (one-vs-rest), or pass y == "
                    f"{value_str(self.positive)!r} to fit that class against the rest"
                    + (f"; {stray}" if stray else ""))
            if self.threshold is not None:  # the class of the highest number answers: no cut
                raise DataError(
                    f"y has {len(classes)} classes {classes[:10]}; threshold= is for two classes "
                    f"(with more, {class_decision_said()}): leave it "
                    "unset, or pass y == one class to fit it against the rest with a threshold")
            self.positive_ = None
            targets = classes
        self.kbs_, self.paper_kbs_, self.tuned_, self.ensembles_ = [], [], [], []
        self._budget = None if self.memory_budget is None else parse_size(self.memory_budget)
        self.max_len_, self.max_len_reason_ = self.max_len, "max_len as given (Tree KB)"
        self._cap_chosen = False
        self.base_rates_ = [float(np.mean(labels == c)) for c in targets]
        self._labels = labels
        self._codes = None  # the training rows' codes, once encoded for the tuned variant
        self._loo = None  # the tuned variant's leave-one-out, gathered with the count
        choosing = self.variant == "auto" and self.kb == "direct" and len(classes) == 2
        sample = search_sample(labels, self.random_state) if choosing else None
        self.search_rows_ = None if sample is None else len(sample)
        self._min_split = min_split(len(frame), self.search_rows_)
        if self.kb != "direct" and (note := long_tree_said(self.kb, len(frame))):  # the cost
            say_note(note, stacklevel=2)
        sampled = None
        if sample is not None:  # the search on a sample; the model it chooses on every row
            say(0.05, f"searching candidates on a stratified sample of {len(sample):,} of the "
                      f"{len(frame):,} rows")
            with collected_notes():  # the table was said above, in its own numbers
                searcher = clone(self)
                searcher._no_grid = True  # its choice is built on every row's MDLP cuts
                searcher._said = True
                sampled = searcher.fit(self._given(raw.iloc[sample].reset_index(drop=True)),
                                       y_arr[sample], None if groups is None else
                                       groups[sample],
                                       progress=within(progress, 0.05, 0.6, "sample: "))
        at = 0.6 if sampled is not None else 0.1
        if sampled is not None and sampled.selection_ is not None and sampled.chosen_ not in (
                "direct", "direct-conf"):  # no tuned Direct KB answers: none of every row
            self._untuned(frame, labels, sampled)
        else:
            say(at, f"building the {'Direct' if self.kb == 'direct' else self.kb} KB of "
                    f"{len(frame):,} rows")
        several = len(targets) > 1 and self.kb == "direct" and not self.kbs_
        counted = self._counted(frame, labels, targets) if several else [None] * len(targets)
        for c, done in zip(targets, counted) if not self.kbs_ else ():
            kb, paper, tuned, ens = self._build(frame, labels, c, done)
            self.kbs_.append(kb)
            self.paper_kbs_.append(paper)
            self.tuned_.append(tuned)
            self.ensembles_.append(ens)
        if self.variant == "auto" and self.kb == "direct":
            if sampled is not None:
                say(0.75, f"building the chosen model ({sampled.chosen_}) on all "
                          f"{len(frame):,} rows")
                self._adopt_sampled(sampled, frame, labels, raw)
            elif len(classes) == 2:
                grid = self._grid_races(len(frame))
                few_whole = bool(self._whole_columns(raw, declared))  # the bar's plan only
                self._select(frame, labels, raw,
                             within(progress, 0.3, 0.65 if grid or few_whole else 1.0))
                screened = grid == "screen"
                if screened:
                    say(0.65, "checking whether equal-frequency bins could do better")
                    grid = self._grid_screened(frame, labels, raw)
                if grid:
                    self._race_grid(raw, y_arr, groups, within(
                        progress, 0.65, 0.85 if few_whole else 1.0, "grid: "), screened)
                if few_whole:
                    say(0.85 if grid else 0.65, "checking the columns of a few whole numbers")
                if screens := self._whole_screens(raw, labels, declared):
                    self._race_whole(raw, y_arr, groups, screens, within(
                        progress, 0.85 if grid else 0.65, 1.0, "whole numbers: "))
            else:
                from .selection import GRID_CLASSES

                races = self._grid_races(len(frame)) is True  # 2–4 numeric columns
                grid = races and len(targets) <= GRID_CLASSES
                # each class's vote on the fine bins, kept for the race on MDLP's finer cut
                # points, whose search fits the same votes again (`_fine_vote`'s memo)
                self._fine_memo = getattr(self, "_fine_memo", None) or {}
                self._select_classes(frame, labels, targets, raw,
                                     within(progress, 0.3, 0.65 if races else 1.0))
                reading = None  # more classes race only past a screen; up to 4 always
                if races:
                    say(0.65, "comparing two more readings of the numbers on every class")
                    reading = self._class_reading(frame, labels, raw, always=grid)
                if reading is not None:
                    self._race_grid_classes(raw, y_arr, groups, within(
                        progress, 0.7, 1.0, "grid: "), reading)
        self.kb_ = self.kbs_[0] if len(classes) == 2 else None
        self._class_str = classes
        del self._groups, self._budget, self._cap_chosen, self._labels, self._codes, self._loo
        del self._min_split, self._class_macro
        self.__dict__.pop("_fine_memo", None)
        say(1.0, "fitted")
        return self

    def _ordered(self, classes: list[str]) -> bool:
        """Whether several classes are fitted as ordered levels: `class_order` given, or by
        default ("scale") when they are a known scale's words (`ordered.scale_order`) and no
        `positive=` or `threshold=` asks for one class against the rest."""
        from .ordered import default_order

        if isinstance(self.class_order, str) and self.class_order == "scale":
            return default_order(classes, self.positive, self.threshold) is not None
        return self.class_order is not None

    def _fit_ordered(self, X: Any, y_arr: np.ndarray, labels: np.ndarray, classes: list[str],
                     groups: np.ndarray | None, progress: Progress | None) -> PLXClassifier:
        """Several classes in an order (`class_order`, `ordered.class_order_of`): one yes/no
        model for each step between neighbouring levels ("above level k", k = 0 … K − 2), each
        fitted and chosen as a binary label is (this classifier's settings); a row's level is
        the number of steps it is above (`ordered.level_bounds`). One-vs-rest states a middle
        level as a two-sided band; a step states one side (severity 0.532 → 0.590 macro F1;
        benchmarks/RESULTS.md, multi25). `ordered_` holds the step models, `class_order_` the
        levels; `kbs_` the steps' KBs, lowest step first."""
        from .ordered import class_order_of
        from .wording import ordered_said

        if self.positive is not None:
            raise DataError(f"y has {len(classes)} classes {classes[:10]}; positive= is for two "
                            "classes: leave it unset with class_order=")
        if self.threshold is not None:
            raise DataError(f"y has {len(classes)} classes {classes[:10]}; threshold= is for two "
                            "classes: leave it unset with class_order= (each step chooses its own)")
        order = class_order_of(classes, self.class_order)
        if (isinstance(self.class_order, str) and self.class_order == "scale"
                and not getattr(self, "_said", False)):
            from .wording import scale_levels_said

            say_note(scale_levels_said(order), stacklevel=3)  # the default's reading, said
        rank = {c: i for i, c in enumerate(order)}
        level = np.array([rank[c] for c in labels])
        steps: list[PLXClassifier] = []
        for k in range(len(order) - 1):
            # POS is the step's rarer side: "auto" tunes the threshold for POS's F1, which on
            # the common side would drown the rare extreme (likert5 0.403 -> 0.440 over 6 splits; multi25)
            step = clone(self).set_params(class_order=None,
                                          positive=bool(np.mean(level > k) <= 0.5))
            if k:
                step._said = True  # the table was said by the first step's fit
            with collected_notes() if k else contextlib.nullcontext():
                steps.append(step.fit(X, level > k, groups, progress=within(
                    progress, k / (len(order) - 1), (k + 1) / (len(order) - 1),
                    f"above {order[k]!r}: ")))
        first = steps[0]
        for name, value in vars(first).items():
            if name.endswith("_") and not name.startswith("_") and name not in (
                    "classes_", "n_features_in_", "feature_names_in_"):
                setattr(self, name, value)
        self.kbs_ = [s.kbs_[0] for s in steps]
        self.paper_kbs_ = [s.paper_kbs_[0] for s in steps]
        self.tuned_ = [s.tuned_[0] for s in steps]
        self.ensembles_ = [s.ensembles_[0] for s in steps]
        self.kb_ = self.positive_ = self.selection_ = None
        self.class_chosen_ = self.class_variant_ = self.class_selection_ = None
        self.threshold_ = 0.5
        self.chosen_ = "ordered"
        self.base_rates_ = [float(np.mean(labels == c)) for c in classes]
        self.class_order_ = [_plain_value(self.classes_[classes.index(c)]) for c in order]
        self.ordered_ = steps
        self._class_str, self._order = classes, order
        self.chosen_reason_ = ordered_said(order, [s.chosen_ for s in steps],
                                           [s.chosen_reason_ for s in steps])
        self.__dict__.pop("_groups", None)
        return self

    def _ordered_rows(self, X: Any) -> pd.DataFrame | np.ndarray:
        """Rows as a frame of the fitted columns (`explain`'s row: a frame, a dict, a Series or
        bare values in the fitted order), for an ordered model's steps to read."""
        if isinstance(X, pd.DataFrame):
            return X
        if isinstance(X, dict):
            X = pd.Series(X)
        if isinstance(X, pd.Series):
            return pd.DataFrame([X.to_numpy(dtype=object)], columns=[str(c) for c in X.index],
                                dtype=object)
        vals = np.asarray(X, dtype=object)
        vals = vals.reshape(1, -1) if vals.ndim < 2 else vals
        if getattr(self, "feature_names_in_", None) is None:
            return vals  # fitted on bare values: the steps read them so
        return pd.DataFrame(vals, columns=self._feature_names(vals.shape[1]), dtype=object)

    def _ordered_explained(self, X: Any, for_class: Any) -> np.ndarray:
        """Per row the step that explains it (`ordered.explaining_step`): for its own level the
        step nearer its 0.5; for `for_class` above (below) its level, the step just above
        (below) it."""
        from .ordered import explaining_step

        _cum, steps, _u, _n = self._ordered_steps(X)
        if for_class is None:
            return explaining_step(steps)
        cls = class_named(for_class, self._class_str, "y", "class", "for_class")
        return explaining_step(steps, self._order.index(cls))

    def _ordered_explain_many(self, X: Any, k: Any, for_class: Any, many: bool, **kwargs: Any
                              ) -> list:
        """`explain` / `explain_many` of an ordered model: each row by the step that explains
        it (`_ordered_explained`), that step's own decision; `explained_class` names the step
        ("above 'mild'")."""
        from .wording import level_step_said

        rows = self._ordered_rows(X)
        which = self._ordered_explained(rows, for_class)
        out: list = [None] * len(rows)
        for j in np.unique(which):
            at = np.flatnonzero(which == j)
            step = self.ordered_[int(j)]
            some = rows.iloc[at] if isinstance(rows, pd.DataFrame) else rows[at]
            part = (step.explain_many(some, k=k, **kwargs) if many else
                    [step.explain(some if isinstance(some, pd.DataFrame) else some[0], k=k,
                                  **kwargs)])
            for r, e in zip(at, part):
                out[r] = (dataclasses.replace(e, explained_class=level_step_said(
                    self._order[j], step.positive_ == "True"))
                          if hasattr(e, "explained_class") else e)
        return out

    def _ordered_steps(self, X: Any) -> tuple[list[BoundsArray], list[np.ndarray], dict, int]:
        """The step models' bounds on X (`_block_means` of each) on "above" (a step whose POS is
        "at most" turned to its other side), their `ordered.step_numbers` (> 0.5 where a step
        answers "above"), and the first step's unseen cells and rows."""
        from .ordered import step_parts

        own, thresholds, above, unseen, n_unseen = self._ordered_own(X)
        cum, steps = step_parts(own, thresholds, above)
        return cum, steps, unseen, n_unseen

    def _ordered_own(self, X: Any) -> tuple[list[BoundsArray], list[float], list[bool], dict, int]:
        """Each step model's own bounds on X, its threshold and whether its POS is "above"
        (the parts `ordered.step_parts` / `ordered.level_answers` read), and the first step's
        unseen cells and rows."""
        parts = [s._block_means(X) for s in self.ordered_]
        return ([p[0][0] for p in parts], [s._threshold() for s in self.ordered_],
                [bool(s.positive_ == "True") for s in self.ordered_], parts[0][1], parts[0][2])

    def _say_columns(self, raw: pd.DataFrame, kept: list[str], labels: np.ndarray,
                     index: pd.Index, copies: Any = ...) -> None:
        """The notes on the kept columns (a copy of the label, values written two ways, two
        scales, one measure twice) and on rows copied from a few records: kept, never silently.
        Not in a race's or a sample's own fit (`_said`), whose notes nobody reads."""
        ystr = label_texts(labels)
        quiet = quiet_columns(raw[kept], ystr)  # numbers: one pass, not one a column
        for c in kept:  # kept (it may be a true cause), never silently
            if c in quiet:
                continue
            for note in kept_column_said(c, raw[c], labels, ystr):
                say_note(note, stacklevel=3)
        rows = raw.assign(**{"\0label": labels}).set_axis(index)
        if (why := copied_rows(rows, cases=copies)) is not None:  # copies of a few records: said
            say_note(why, stacklevel=3)
        for a, b, how in twin_columns(raw[kept]):  # one measure twice: said
            say_note(twin_said(a, b, how), stacklevel=3)

    def _build(self, frame: pd.DataFrame, labels: np.ndarray, positive: str, counted=None):
        """(answering KB, full Direct KB or None, TunedConfig or None, ensemble members);
        `counted`: this class's (Direct KB, leave-one-out count) from `_counted` when every
        class's KB was counted at once."""
        y = (labels == positive).astype(int)
        cw = self._class_weights(labels, positive)

        def corrected(kb, yy=y):
            return self._corrected(kb, yy, cw)

        if self.kb != "direct":
            kb = self._tree_kbs(frame, y, positive, (self.kb,))[self.kb]
            return kb, None, None, []
        v = self.variant_
        full, loo = counted if counted is not None else self._counted(frame, labels, [positive])[0]
        self._loo = loo
        # counted with the class-corrected p (`_counted`, the same floats as `_corrected`'s)
        weights = self._correction(y, cw)
        full.positive = positive
        if weights is None:
            full = corrected(full)
        if v == "tuned":
            if self._codes is None:  # the same rows for every one-vs-rest KB
                self._codes = loo.codes if loo.codes is not None else encode_rows(full, frame)
            return self._tuned(full, self._codes, y, self._groups, sampled=False,
                               class_weights=cw, stats=loo.stats())
        if v in ("weighted", "confidence"):
            kb = full.copy()
            kb.w = kb.support.astype(float) if v == "weighted" else np.abs(2 * kb.p - 1) + 1e-3
            return kb, full, None, []
        if v in ("bagged", "subspace"):
            return full, full, None, self._ensemble(frame, y, positive)
        if v == "direct+forest":
            from .tree import tree_kb

            forest = tree_kb(frame, y, positive=1, n_trees=self.n_trees, bootstrap=self.bootstrap,
                             max_features=self.max_features, max_depth=self.max_depth,
                             random_state=self.random_state)
            forest.positive = positive
            return full, full, None, [(None, corrected(forest))]
        return full, full, None, []

    def _counted(self, frame: pd.DataFrame, labels: np.ndarray, targets: Sequence[str]
                 ) -> list[tuple[Any, Any]]:
        """(full Direct KB, the tuned variant's leave-one-out count or None) of each target
        class against the rest, counted in one pass (`direct.direct_kbs_with_reason`: the
        bodies and supports are the same for every class); the clause-length cap is chosen
        once, for all of them together within the memory budget (every class's KB is kept)."""
        total = self._budget if self._budget is not None else DEFAULT_MEMORY_BUDGET
        budget = V.kb_share(total) if self.variant_ == "tuned" else total
        ys = [(labels == c).astype(int) for c in targets]
        # the tuned variant's leave-one-out comes out of the count (`variants.LooCount`)
        # (and, for `_direct_loo`, every training row's clauses when there are few)
        loos = [V.LooCount(y, self._groups, self._class_weights(labels, c),
                           keep_pairs=self._loo_pairs()) if self.variant_ == "tuned" else None
                for c, y in zip(targets, ys)]
        # each counted with its class-corrected p rather than corrected after (`_build`): a
        # second p of every clause (2 M on the Syn 12 sets)
        weights = [self._correction(y, self._class_weights(labels, c)) for c, y in zip(targets, ys)]
        fulls, why = direct_kbs_with_reason(
            frame, ys, max_len=self.max_len_, memory_budget=budget, observe=loos,
            p_of=[None if w is None else V.corrected_ratio(*w) for w in weights],
            search=self.variant == "auto")  # a named variant is not capped to the search's
        if budget < total:
            why += V.kb_share_note(total)
        if len(targets) > 1:
            why += (f" (for all {len(targets)} one-vs-rest KBs, one a class, counted at once: "
                    "they share the clauses' code rows, each holds its own counts)")
        if not self._cap_chosen:  # one cap for every one-vs-rest KB (same rows, same domains)
            self.max_len_, self.max_len_reason_, self._cap_chosen = fulls[0].max_len, why, True
        return list(zip(fulls, loos))

    def _leave_out(self, frame: pd.DataFrame, raw: pd.DataFrame) -> pd.DataFrame:
        """`frame` without its ID-like or too-many-level categorical columns, its numbered
        row IDs and, while another column varies, its constant or empty columns (the rules
        `plx fit` applies: `data.excess_levels`, `data.numbered_like_ids`,
        `data.uninformative`; `raw` is the table before binning), named in `excluded_` and
        a warning: a level seen once or twice makes clauses that memorise rows (a 3,000-value
        zip: accuracy 0.84 vs 1.00)."""
        levels: dict[str, str | None] = {}
        grouped: dict[str, tuple[str, ...]] = {}
        distinct: dict[str, int] = {}  # a binned column's distinct numbers, counted once
        for c in frame.columns:
            s = frame[c]
            present = max(int(s.notna().sum()), 1)
            if c in self.cuts_:
                x = numeric_values(raw[c])
                x = x[~np.isnan(x)]
                distinct[c] = len(np.unique(x))
                plain = held_format(raw[c]) == "plain"  # a date, a time of day, is no ID
                levels[c] = excess_levels(distinct[c], present, numbered_like_ids(x) and plain,
                                          max_levels=None) or (
                    case_number(c, x) if plain else None)
            else:
                n_distinct = int(s.nunique(dropna=True))
                levels[c] = free_text(raw[c]) or excess_levels(n_distinct, present,
                                                               max_levels=None)
                if levels[c] is None:  # many levels: the frequent ones kept, the rest grouped
                    levels[c], kept = many_levels(s, n_distinct)
                    if kept is not None:
                        grouped[c] = kept
                if levels[c] is not None:  # left out: how to convert it, if it can be
                    if not levels[c].startswith(LONG_TEXT):  # (a 1 MB cell: no number to read)
                        hint = convert_hint(raw[c], s)  # date_parts= given: not asked again
                        levels[c] += hint.replace(SEASON_HINT, "") if self.date_parts else hint
                elif (mixed := mixed_dates(s)) is not None:  # never silently categories
                    say_note(f"column {c!r} is used as categories: {mixed}", stacklevel=3)
                elif text_binned(raw[c]):  # nor numbers written as text
                    say_note(f"column {c!r} is used as categories:"
                             + convert_hint(raw[c], s).removeprefix(" —"), stacklevel=3)
        self.excluded_ = columns_left_out(
            levels, {c: uninformative(raw[c], distinct.get(c)) for c in frame.columns
                     if levels[c] is None})
        if len(self.excluded_) == frame.shape[1]:
            raise DataError(f"every feature column is left out: {self.excluded_}")
        for c in frame.columns:  # 'x' or empty: kept, and how its empty cells read, said
            if c not in self.excluded_ and c not in self.cuts_ and (how := flag_column(raw[c])):
                say_note(f"column {c!r}: {how}", stacklevel=3)
        warn_left_out(self.excluded_)
        self.grouped_ = {c: grouped_said(kept, int(frame[c].nunique(dropna=True)),
                                          s=frame[c])
                         for c, kept in grouped.items() if c not in self.excluded_}
        self.discretizer_.levels_ = {c: grouped[c] for c in self.grouped_}
        warn_grouped(self.grouped_)
        frame = frame.drop(columns=list(self.excluded_))
        for c in self.grouped_:
            frame[c] = group_levels(frame[c], grouped[c])
        return frame

    def _correction_weights(self, y: np.ndarray,
                            cw: tuple[float, float] | None) -> tuple[float, float] | None:
        """The (w_pos, w_neg) of `class_weight_` for labels y (balanced: the base rate of
        these rows; a dict: the given weights `cw`), None for no correction."""
        if self.class_weight_ == "balanced":
            return V.balanced_weights(int(y.sum()), len(y))
        return cw

    def _corrected(self, kb, y: np.ndarray, cw: tuple[float, float] | None):
        """`kb` with the class correction of `class_weight_` for labels y (`_correction_weights`)."""
        w = self._correction_weights(y, cw)
        return V.weighted_class_kb(kb, *w) if w is not None else kb

    def _correction(self, y: np.ndarray, cw: tuple[float, float] | None
                    ) -> tuple[float, float] | None:
        """The (w_pos, w_neg) `_corrected` reweighs a KB of data with labels y by, when it
        reweighs its p (both > 0); None when it leaves the KB as it is or copies it."""
        w = self._correction_weights(y, cw)
        return (w[0], w[1]) if w is not None and w[0] > 0 and w[1] > 0 else None

    def _tree_kbs(self, frame: pd.DataFrame | None, y: np.ndarray, positive: str,
                  kinds: tuple[str, ...], cw: tuple[float, float] | None = None,
                  depths: tuple[int | None, ...] = (), alpha: float | None = None,
                  alphas: dict | None = None, drawn: dict | None = None,
                  encoded: list | None = None, rows=None) -> dict:
        """The Tree KBs of `kinds` ("tree", "tree-all", "forest", "tree-bin", "tree-bin-deep")
        on these rows, class-corrected; "tree" and "tree-all" come from one ID3 tree, the two
        binary ones from one binary tree (`tree.trees_to_kb` weights "unit" / "depth"). `depths`: "tree-all" is
        also cut at each of these depth limits, as is "tree-bin-deep"; "tree-bin" at each limit
        on the features a path constrains (keys `selection.tree_key(d, kind)`; one tree grown,
        see `truncate`, `cut_to_features`). `alpha`: "tree-bin-deep" cost-complexity pruned
        at α (`tree.prune_alphas`, the class weights of these rows); `alphas` (a dict): filled
        with each clause's α of "tree-bin-deep" (kept at α iff above it); `drawn` (a dict):
        filled with (trees, nodes) of each KB drawn from whole trees (`tree.path_clauses`);
        `encoded` (a list): given the rows' codes, as the KBs' features and domains read them;
        `rows`: these rows' `tree.tree_rows`, when already made (then `frame` is not read)."""
        from .selection import tree_key
        from .tree import (
            build_trees,
            clause_values,
            cut_to_features,
            prune,
            prune_alphas,
            tree_rows,
            trees_to_kb,
            truncate,
        )

        out = {}
        if rows is None:  # one encoding for every tree of these rows
            rows = tree_rows(frame, y, positive=1)
        if encoded is not None:
            encoded.append(rows.codes)
        if "tree" in kinds or "tree-all" in kinds:
            one = build_trees(rows, n_trees=1, bootstrap=self.bootstrap,
                              max_features=self.max_features, max_depth=self.max_depth,
                              min_samples_split=getattr(self, "_min_split", 2),
                              random_state=self.random_state)
            for k in ("tree", "tree-all"):
                if k in kinds:
                    nodes = "all" if k == "tree-all" else "leaves"
                    out[k] = trees_to_kb(one, nodes)
                    if drawn is not None:
                        drawn[k] = (one, nodes)
            for d in depths:
                if "tree-all" in kinds and d is not None:
                    out[tree_key(d)] = trees_to_kb([truncate(one[0], d)], "all", kind="tree-all")
        binary = [k for k in ("tree-bin", "tree-bin-deep") if k in kinds]
        if binary:
            two = build_trees(rows, n_trees=1, bootstrap=self.bootstrap,
                              max_features=self.max_features, max_depth=self.max_depth,
                              min_samples_split=getattr(self, "_min_split", 2),
                              random_state=self.random_state, binary=True)
            if alpha is not None or alphas is not None:
                wp, wn = self._prune_weights(y, cw)
                node_alpha = prune_alphas(two[0], wp, wn)
                if alphas is not None:
                    alphas["tree-bin-deep"] = clause_values(two[0], node_alpha)
                if alpha is not None:
                    two = [prune(two[0], node_alpha > alpha)]
            for k in binary:
                deep = k == "tree-bin-deep"
                out[k] = trees_to_kb(two, "all", weights="depth" if deep else "unit")
                if drawn is not None:
                    drawn[k] = (two, "all")
                for d in depths:
                    if d is not None:
                        out[tree_key(d, k)] = (
                            trees_to_kb([truncate(two[0], d)], "all", weights="depth") if deep
                            else trees_to_kb([cut_to_features(two[0], d)], "all"))
        if "forest" in kinds:
            many = build_trees(rows, n_trees=self.n_trees, bootstrap=self.bootstrap,
                               max_features=self.max_features, max_depth=self.max_depth,
                               random_state=self.random_state)
            out["forest"] = trees_to_kb(many, "leaves", kind="forest")
            if drawn is not None:
                drawn["forest"] = (many, "leaves")
        for k, kb in out.items():
            kb.positive = positive
            out[k] = self._corrected(kb, y, cw)
        return out

    def _prune_weights(self, y: np.ndarray, cw: tuple[float, float] | None
                       ) -> tuple[float, float]:
        """(w_pos, w_neg) the pruning cost counts errors with: the class correction's."""
        if self.class_weight_ == "balanced":
            return V.balanced_weights(int(y.sum()), len(y))
        return cw if cw is not None else (1.0, 1.0)

    def _select(self, frame: pd.DataFrame, labels: np.ndarray, raw: pd.DataFrame,
                progress: Progress = silent, adopt: bool = True) -> _Search | None:
        """variant="auto": keep the tuned Direct KB or replace it by the confidence-weighted
        Direct KB, the fitted vote or the Tree/forest KB with the better out-of-fold F1 on the
        training rows (`plx_core.selection`; `raw`: the rows before binning, which the vote on
        finer bins cuts again); sets `chosen_`, `chosen_reason_`, `selection_` and, unless
        `threshold` was given, `threshold_` — and, when the vote on finer bins answers,
        `discretizer_` and `cuts_` to its cut points. `progress` is told each step of the
        search (the folds, then each vote)."""
        from . import selection as S

        pos = self.positive_
        y = (labels == pos).astype(int)
        cfg = self.tuned_[0]
        n_pos = int(y.sum())
        why = None
        if len(y) < S.MIN_SELECT_ROWS or min(n_pos, len(y) - n_pos) < S.SELECT_FOLDS:
            why = too_few_rows_said(len(y), n_pos, S.SELECT_FOLDS, S.MIN_SELECT_ROWS,
                                    S.SELECT_FOLDS, pos)
        elif cfg is None or cfg.loo_pred is None:
            why = "too few training rows (or rows of a class) to tune or compare"
        elif (few := self._few_cases(y)) is not None:
            why = few
        if why is not None:
            self.chosen_, self.selection_ = "direct", None
            self.chosen_reason_ = f"direct answers: {why}"
            return None
        cw = self._class_weights(labels, pos)
        kinds = tuple(k for k in S.CANDIDATES if k in ("tree", "forest", *S.TREE_MODELS))
        rules = "rule-vote" in S.CANDIDATES
        if rules:  # the rule vote weighs the clauses of these two trees
            kinds = tuple(dict.fromkeys((*kinds, *S.RULE_TREES)))
        # a Tree KB answers a full query alike under both semantics; on a partial one (a
        # missing cell) "relevant" answers from the matching path prefixes, without an LP
        sem = S.TREE_SEMANTICS if self.semantics == "auto" else self.semantics

        def depths(model: str) -> tuple[int, ...]:
            # depth limits below a max_depth the user gave (that one is the tree itself)
            return tuple(d for d in S.depths_of(model) if d is not None
                         and (self.max_depth is None or d < self.max_depth))

        from .query import recode_rows
        from .tree import path_clauses, subset_rows

        # the folds' rows renumbered from the training rows' codes (those of the Direct KB,
        # `encode(frame)`'s), not read again from their values
        codes = self._codes
        if codes is None or codes.shape != frame.shape or tuple(self.paper_kbs_[0].features) != \
                tuple(str(c) for c in frame.columns):
            codes = None
        # with a smooth vote on fine bins (its score credited with the cut optimism measured on
        # the vote), the trees and the rule vote are scored on each fold's own cut points (among
        # the fine bins' edges) and get that credit too: no held-out label placed a cut they
        # split on (`selection`'s docstring)
        nums = self._numbers(raw)  # the numeric columns' values, read once
        grid = (self._fine_binnings(nums, len(y)) if "direct-vote" in S.CANDIDATES
                and self.discretize == "mdlp" else None)
        edges = None if grid is None else {c: b.cuts for c, b in grid.items()}
        rebin, recoded = (None, None) if edges is None else self._fold_frames(
            frame, nums, edges, y, codes, self.paper_kbs_[0])
        held_only = None if rebin is not None or codes is None else _held_rows(frame)

        def fit_fold(f: pd.DataFrame | None, yy: np.ndarray, fold: tuple) -> dict:
            # the tree cut at depth d is the whole tree's all-node KB cut to clauses of ≤ d
            # literals (the depth-weighted binary tree: of weight ≤ 2^d, its nodes' depths; pruned
            # at α: the clauses whose α is above it), so every cut is answered from one lookup
            # (`bounds_by_max_len`)
            out = {}
            held: list = []  # the held-out rows and their codes, shared by the fold's trees
            pruning = "tree-bin-deep" in kinds and bool(S.BIN_ALPHAS) and sem == "relevant"
            alphas: dict = {}  # each clause's cost-complexity α, per pruned tree model
            rooted: set = set()  # pruned keys that leave only the root
            base = 0.5 if self.class_weight_ == "balanced" else self._base_p(yy, cw)  # the root's p
            drawn: dict = {}  # the trees each KB was drawn from: held-out rows walk down them
            coded: list = []  # the fold's training rows as its trees read them
            tr, te, held_frame = fold
            full = self.paper_kbs_[0]
            # the fold's codes and domains: the training rows', or as the fold bins them
            fcodes, fdoms = (codes, full.domains) if recoded is None else recoded(tr)
            rows = (subset_rows(fcodes, full.features, fdoms, yy, tr)
                    if fcodes is not None else None)
            kbs = self._tree_kbs(f, yy, pos, kinds, cw, alphas=alphas if pruning else None,
                                 drawn=drawn, encoded=coded, rows=rows)

            def codes_of(X: pd.DataFrame, kb) -> tuple:
                # the held-out rows encoded once per fold for the trees' features and domains
                # (kept for the relevant semantics, whose lookups take them)
                enc = (X, kb.features, kb.domains)
                if held and held[0][0] is X and held[0][1:] == enc[1:]:
                    return held[1]
                got = (recode_rows(kb, fcodes[te], full.features, fdoms)
                       if fcodes is not None and X is held_frame else None)
                if got is None:
                    got = encode_query_rows(kb, X)
                if sem == "relevant":
                    held[:] = [enc, got]
                return got

            if rules:  # the rule vote of the fold's terms, answering its held-out rows
                rv = self._rule_vote(kbs[S.RULE_TREES[0]], coded[0], yy)
                out["rule-vote"] = lambda X, rv=rv: VT.probability(
                    rv.score(codes_of(X, rv.like)[0]))
            for k, kb in kbs.items():
                if kb.lengths.max(initial=0) == 0:  # one root leaf: no feature splits the rows
                    continue
                # per family of cuts: the clause levels and {limit: candidate key}
                cuts = depths(k) if k in S.TREE_MODELS else ()
                fams = [(None, {d: S.tree_key(d, k) for d in (None, *cuts)})]
                if k == "tree-bin-deep":
                    depth = np.rint(np.log2(kb.w)).astype(np.int64)  # weights 2^depth
                    fams = [(depth, {d: S.tree_key(d, k) for d in (None, *cuts)})
                            if sem == "relevant" else (None, {None: k})]
                    if k in alphas:  # kept at α iff its α > α: level −α ≤ just below −α
                        pruned = {np.nextafter(-a, -np.inf): S.prune_key(a) for a in S.BIN_ALPHAS}
                        # pruned to its root: no clause left, yet refitted it answers the base
                        # rate (the root's clause), so the fold answers that too
                        rooted.update(S.prune_key(a) for a in S.BIN_ALPHAS
                                      if not (alphas[k] > a).any())
                        if cuts:
                            fams.append((-alphas[k], pruned))
                        else:  # the whole tree and its pruned ones from one lookup
                            fams = [(-alphas[k], {None: k, **pruned})]
                for levels, keys in fams:  # each cut's clauses, summed over the folds
                    lev = kb.lengths if levels is None else levels
                    for lim, key in keys.items():
                        sizes[key] = sizes.get(key, 0) + (
                            0 if key in rooted else len(lev) if lim is None
                            else int((lev <= lim).sum()))
                memo: dict = {}  # one held-out frame per fold
                tree = drawn.get(k)

                def answer(X: pd.DataFrame, key: str, kb=kb, fams=fams, memo=memo, tree=tree):
                    if key in rooted:
                        return np.full(len(X), base)
                    if not memo:
                        # the fold's trees share features and domains: encode X once
                        encoded = codes_of(X, kb) if sem == "relevant" else None
                        # the relevant clauses of a tree's KB: the nodes each row's walk
                        # down the tree reaches (the same pairs as matching every clause)
                        pairs = (path_clauses(tree[0], encoded[0], tree[1])
                                 if tree is not None and encoded is not None else None)
                        for levels, keys in fams:
                            got = V.bounds_by_max_len(
                                kb, X, tuple(keys), semantics=sem, n_jobs=1, levels=levels,
                                encoded=encoded, pairs=pairs)
                            memo.update({keys[lim]: got[lim] for lim in keys})
                    return memo[key].mean
                out.update({key: functools.partial(answer, key=key)
                            for _lev, keys in fams for key in keys.values()})
            return out

        steps = (S.SELECT_FOLDS if kinds else 0) + 5
        done = [0]

        def step(what: str) -> None:  # told before each step of the search
            done[0] += 1
            progress((done[0] - 1) / steps, f"searching candidates {done[0]} of {steps}: {what}")

        def fold_told(f: pd.DataFrame | None, yy: np.ndarray, fold: tuple) -> dict:
            step(f"the trees and the rule vote, fold {done[0] + 1} of {S.SELECT_FOLDS}")
            return fit_fold(f, yy, fold)

        sizes: dict = {}  # the trees' clauses, summed over the folds
        oof = (S.out_of_fold(frame, y, fold_told, self.random_state, positions=True,
                             frames=rebin or held_only, groups=self._groups) if kinds else {})
        honest = list(oof) if rebin is not None else []
        sizes = {k: v / S.SELECT_FOLDS for k, v in sizes.items()}
        full = self.paper_kbs_[0]
        base = self._base_p(y, cw)
        step("the Direct KB's leave-one-out")
        oof.update(self._direct_loo(full, frame, y, cfg, cw, base))
        step("the fitted vote")
        # (not in a screened grid race's search: `_race_grid`)
        vote = (self._vote(full, frame, y) if "direct-vote" in S.CANDIDATES
                and not getattr(self, "_no_vote", False) else None)
        votes, offsets = {}, {}
        step("the vote on finer bins")
        if vote is not None:
            votes[None] = (vote, None)
            # on a wide table of few numeric columns the smooth vote is the plain one again
            # (`vote.fine_fitted`): not fitted, the trees' credit measured all the same
            fine = (self._fine_vote(raw, nums, y, binnings=grid) if grid is None
                    or VT.fine_fitted(len(grid), len(full.features)) else None)
            cuts = (fine[1].cuts_ if fine is not None else
                    None if grid is None else {c: b.cuts for c, b in grid.items()})
            if fine is not None:
                votes[fine[1].max_bins] = fine
            if cuts is not None:
                step("the cut points' optimism")
                credit = self._cut_optimism(nums, frame, full, vote, y, grid=cuts)
                offsets.update({k: credit for k in (
                    *((S.vote_key(fine[1].max_bins),) if fine is not None else ()), *honest)})
        done[0] = steps - 1
        step("the vote on pairs of features")
        pairs = self._pair_vote(full, frame, y) if vote is not None else None
        for bins, (cand, _disc) in votes.items():
            oof[S.vote_key(bins)] = cand.oof
        if pairs is not None:
            oof[S.vote_key(None, pairs=True)] = pairs.oof
        lengths = full.lengths  # the Direct candidates: the tuned window's clauses
        window = int(((lengths >= cfg.min_len) & (lengths <= cfg.max_len)).sum())
        sizes.update({k: window for k in ("direct", *oof) if k == "direct"
                      or k.startswith("direct-conf")})
        search = _Search(y, cfg, oof, S.fold_ids(y, S.SELECT_FOLDS, self.random_state,
                                                 self._groups),
                         offsets, votes, pairs, sizes,
                         S.fold_ids(y, VT.VOTE_FOLDS, self.random_state, self._groups))
        if not adopt:
            return search
        sel = search.choose()
        se = S.chosen_se(sel, y, cfg.loo_pred, cfg.loo_rows, search.oof, search.fold)
        if se >= S.NOISY_SE:  # few rows: the score and the choice are noisy, said
            sel = dataclasses.replace(sel, reason=sel.reason + few_rows_said(
                sel.n_rows, int(y[np.arange(len(y)) if cfg.loo_rows is None else
                                  np.asarray(cfg.loo_rows)].sum()),
                se, S.SELECT_FOLDS, pos))
        progress(1.0, f"building the chosen model ({sel.chosen})")
        self._adopt(sel, frame, labels, raw, votes, pairs)
        return None

    def _grid_races(self, n_rows: int) -> bool | str:
        """Whether the search on an equal-frequency grid of the numeric columns races the one on
        MDLP's cut points (`selection.GRID_COLUMNS`: a table of few numeric columns (binary, or
        several classes: `_race_grid_classes`) and
        at least `selection.GRID_ROWS` rows, MDLP binning, not the search on a sample of a long
        table, whose choice `_adopt_sampled` builds on every row's MDLP cut points); "screen"
        with more numeric columns: it races if `_grid_screened` says so."""
        from . import selection as S

        lo, hi = S.GRID_COLUMNS
        n = len(self.discretizer_.binnings_)
        if not (self.discretize == "mdlp" and self.max_bins <= S.GRID_BINS
                and not getattr(self, "_no_grid", False) and n_rows >= S.GRID_ROWS and lo <= n):
            return False
        return True if n <= hi else "screen"

    def _grid_screened(self, frame: pd.DataFrame, labels: np.ndarray, raw: pd.DataFrame) -> bool:
        """On more numeric columns than `selection.GRID_COLUMNS`, whether the grid races: a
        tree on the grid's bins and the other columns' levels, scored on the search's folds,
        comes within `selection.GRID_SCREEN_SLACK` of the chosen candidate
        (`selection.grid_screen`); else the reason says the grid's score. (A ratio among 12
        numeric columns: the grid answers; an additive table of 10: a few ms, no second
        search.)"""
        from . import selection as S

        if self.selection_ is None:
            return False
        y = (labels == self.positive_).astype(int)
        nums = list(self.discretizer_.binnings_)
        grid = Discretizer("quantile", S.GRID_BINS, self.discretizer_.max_categories).fit(raw[nums])
        cols = [b.codes(raw[c]) for c, b in grid.binnings_.items()]
        cols += [pd.factorize(frame[c].to_numpy(dtype=object))[0]
                 for c in frame.columns if c not in grid.binnings_]
        score = S.grid_screen(np.column_stack(cols), y,
                              S.fold_ids(y, S.SELECT_FOLDS, self.random_state, self._groups))
        if S.grid_screened(self.selection_, score):
            return True
        self.chosen_reason_ += S.grid_screened_out(self.selection_, score)
        return False

    def _race_grid(self, raw: pd.DataFrame, y: np.ndarray, groups: np.ndarray | None,
                   progress: Progress = silent, screened: bool = False) -> None:
        """The model search again on `selection.GRID_BINS` equal-frequency bins a numeric column
        (`discretize="quantile"`); its model, cut points and all, answers when its chosen
        candidate beats this search's out of fold by more than `selection.GRID_MARGIN`
        (`selection.grid_wins`), else this one stays, the grid's score said in
        `chosen_reason_`. The grid's bins are then the model's `discretizer_`, as the smooth
        vote's are: predict, explain and the model file read them from there. After the screen
        (`screened`: more numeric columns) its clauses are capped at `selection.GRID_MAX_LEN`
        and its search races the trees and the rule vote the screen spoke for, not the votes of
        one-feature clauses (nor the pair vote)."""
        from . import selection as S

        grid = clone(self).set_params(discretize="quantile", max_bins=S.GRID_BINS)
        grid._said = True  # the table was said once, by this fit
        if screened:  # never above this fit's own cap (5,000 rows x 400 columns: 1, memory)
            grid.set_params(max_len=min(self.max_len_ or S.GRID_MAX_LEN, S.GRID_MAX_LEN))
            # the screen spoke for the trees on the grid: they and the rule vote on their
            # clauses race, not the one-feature votes (the vote on 8 bins a column was ~22 of
            # a 54 s fit on 5,000 rows x 400 numbers, and never the grid's best:
            # benchmarks/RESULTS.md, "wide24")
            grid._no_vote = True
        try:
            with collected_notes():  # the table was said once, by this fit
                grid = grid.fit(self._given(raw), y, groups, progress=progress)
        except KBTooLargeError as e:  # 8 bins a column count more clauses than MDLP's few
            self.chosen_reason_ += S.grid_too_large(str(e))
            return
        won = S.grid_wins(self.selection_, grid.selection_)
        if won is None:
            self.chosen_reason_ += S.grid_stays(self.selection_, grid.selection_)
            return
        self._take_fitted(grid)
        self.chosen_reason_ = grid.chosen_reason_ + won
        self.selection_ = dataclasses.replace(grid.selection_, reason=self.chosen_reason_)

    def _take_fitted(self, other: PLXClassifier) -> None:
        """This model becomes `other`, a race's winning fit (`_race_grid`, `_race_whole`,
        `_race_grid_classes`): its fitted state taken, the parameters staying the user's, and
        not the race's own markers (`_whole`, `_no_grid`, `_said`, `_no_vote`)."""
        params = self.get_params(deep=False)
        for k, v in vars(other).items():
            if k not in params and k not in ("_whole", "_no_grid", "_said", "_no_vote",
                                             "_fine_memo"):
                setattr(self, k, v)

    def _whole_screens(self, raw: pd.DataFrame, labels: np.ndarray, declared: set[str]
                       ) -> dict[str, tuple[float, ...]]:
        """Each kept column of 3 to `max_categories` whole numbers read as levels
        (`data.whole_levels`; not one the user declared categories) → `selection.whole_screen`
        on the search's folds: whether its class rate steps with the value. None searched on
        a sample of a long table (its choice is built on every row's reading), nor with
        another `discretize`, nor in the race's own search."""
        from . import selection as S

        if self.selection_ is None:
            return {}
        cols = self._whole_columns(raw, declared)
        if not cols:
            return {}
        y = (labels == self.positive_).astype(int)
        fold = S.fold_ids(y, S.SELECT_FOLDS, self.random_state, self._groups)
        return {c: S.whole_screen(whole_numbers(raw[c]), y, fold) for c in cols}

    def _whole_columns(self, raw: pd.DataFrame, declared: set[str]) -> list[str]:
        """The kept columns `_whole_screens` screens (3 to `max_categories` whole numbers, not
        binned, not declared categories); none with another `discretize` or in a race's own fit."""
        if (self.discretize != "mdlp" or getattr(self, "_no_grid", False)
                or getattr(self, "_whole", None) is not None):
            return []
        binned = self.discretizer_.binnings_
        return [c for c in raw.columns if c not in self.excluded_ and c not in binned
                and c not in declared
                and whole_levels(raw[c], self.discretizer_.max_categories) is not None]

    def _race_whole(self, raw: pd.DataFrame, y: np.ndarray, groups: np.ndarray | None,
                    screens: dict[str, tuple[float, ...]], progress: Progress = silent) -> None:
        """The model search again with the columns of a few whole numbers whose class rate steps
        with the value (`selection.whole_ordered`: a grade, a count) cut as numbers by MDLP; its
        model answers when its chosen candidate beats this one's out of fold
        (`selection.whole_wins`), else each value stays a level. Codes (wards, regions) fail
        the screen and run no second search. Each column's reading in `whole_read_` and said
        in `chosen_reason_`."""
        from . import selection as S
        from .wording import whole_race_said

        self.whole_read_ = {c: "levels" for c in screens}
        ordered = [c for c, sc in screens.items() if S.whole_ordered(sc, self.max_bins)]
        if not ordered:
            self.chosen_reason_ += whole_race_said(list(screens), [], None, None, False)
            return
        other = clone(self)
        other._whole, other._no_grid, other._said = tuple(ordered), True, True
        with collected_notes():  # the table was said once, by this fit
            other = other.fit(self._given(raw), y, groups, progress=progress)
        won, ours, theirs = S.whole_wins(self.selection_, other.selection_)
        said = whole_race_said(list(screens), ordered, theirs, ours, won)
        if not won:
            self.chosen_reason_ += said
            return
        self._take_fitted(other)
        self.whole_read_ = {c: "numbers" if c in ordered else "levels" for c in screens}
        self.chosen_reason_ = other.chosen_reason_ + said
        self.selection_ = dataclasses.replace(other.selection_, reason=self.chosen_reason_)

    def _class_reading(self, frame: pd.DataFrame, labels: np.ndarray,
                       raw: pd.DataFrame, always: bool = False) -> str | None:
        """Past `selection.GRID_CLASSES` classes (2–4 numeric columns), which second reading
        of the numbers races, if any: "grid" (`selection.GRID_BINS` equal-frequency bins) or
        "fine" (MDLP's cut points of up to `selection.FINE_CLASS_BINS` bins), the one whose
        tree of every class (beside the other columns' levels) beats the same tree on this
        fit's cut points by the most, out of fold (`selection.grid_class_screen`,
        `selection.class_reading`) and comes within `selection.CLASS_SCREEN_SLACK` of this
        search's own out-of-fold macro F1; else the reason says the scores (twins7, categories9: the
        grid races and answers; steps5, a number's fine steps: the finer cut points; faults6,
        ranges6: neither, a few hundredths of a second; benchmarks/RESULTS.md, "multi23").
        `always` (up to `selection.GRID_CLASSES` classes): one of the two races, the finer cut
        points where their tree beats the grid's as above (four grades in a number's fine
        steps), else the grid as before (`selection.class_reading`; "multi24")."""
        from . import selection as S

        if S.class_mean(self.class_selection_) is None:
            return "grid" if always else None  # (the race itself then does nothing)
        nums = list(self.discretizer_.binnings_)
        most = self.discretizer_.max_categories
        grid = Discretizer("quantile", S.GRID_BINS, most).fit(raw[nums])
        fine = Discretizer("mdlp", S.FINE_CLASS_BINS, most).fit(raw[nums], labels)
        levels = {c: pd.factorize(frame[c].to_numpy(dtype=object))[0] for c in frame.columns}
        others = [levels[c] for c in frame.columns if c not in nums]
        classes = np.unique(np.asarray(labels), return_inverse=True)[1]
        fold = S.fold_ids(classes, S.SELECT_FOLDS, self.random_state, self._groups)

        def read(d: Discretizer) -> np.ndarray:
            return np.column_stack([b.codes(raw[c]) for c, b in d.binnings_.items()] + others)

        on_grid, mdlp = S.grid_class_screen(read(grid), np.column_stack(list(levels.values())),
                                            classes, fold)
        on_fine = S.class_tree_f1(read(fine), classes, fold) if fine.binnings_ else mdlp
        reading = S.class_reading(on_grid, on_fine, mdlp, self._class_macro, always)
        if reading is None:
            self.chosen_reason_ += S.grid_class_screened_out((on_grid, mdlp), on_fine,
                                                             self._class_macro)
        return reading

    def _race_grid_classes(self, raw: pd.DataFrame, y: np.ndarray, groups: np.ndarray | None,
                           progress: Progress = silent, reading: str = "grid") -> None:
        """`_race_grid` with several classes: the search of every class again on
        `selection.GRID_BINS` equal-frequency bins a numeric column, whose model answers when
        the mean out-of-fold F1 of its chosen family over the classes beats this one's by more
        than `selection.GRID_MARGIN` (three debt-to-income tiers: macro F1 0.71 → 0.83; wine,
        iris, ordinal5, faults6 keep MDLP's on all 24 splits, benchmarks/RESULTS.md "whole22";
        past four classes, after its screen: twins7 0.72 → 0.80, categories9 0.86 → 0.89,
        "multi23"). `reading` "fine": on MDLP's cut points of up to `selection.FINE_CLASS_BINS`
        bins a numeric column instead (a number's fine steps: steps5 0.37 → 0.70)."""
        from . import selection as S

        ours = S.class_mean(self.class_selection_)
        if ours is None:
            return
        grid = clone(self).set_params(discretize="quantile", max_bins=S.GRID_BINS) \
            if reading == "grid" else clone(self).set_params(max_bins=S.FINE_CLASS_BINS)
        grid._said = True
        grid._fine_memo = self._fine_memo  # the same fine bins: the same votes, fitted once
        try:
            with collected_notes():  # the table was said once, by this fit
                grid = grid.fit(self._given(raw), y, groups, progress=progress)
        except KBTooLargeError as e:  # 8 bins a column count more clauses than MDLP's few
            self.chosen_reason_ += S.grid_too_large(str(e), reading)
            return
        theirs = S.class_mean(getattr(grid, "class_selection_", None))
        said = S.grid_classes_said(ours, theirs, reading)
        if theirs is None or not theirs > ours + S.GRID_MARGIN:
            self.chosen_reason_ += said
            return
        self._take_fitted(grid)
        self.chosen_reason_ = grid.chosen_reason_ + said

    def _select_classes(self, frame: pd.DataFrame, labels: np.ndarray, targets: list[str],
                        rows: pd.DataFrame, progress: Progress = silent) -> None:
        """variant="auto" with several classes: one model family for every class, chosen out
        of fold. Each class against the rest is searched as a binary label is (`_select`:
        its tuned Direct KB the one the shared count built, the same candidates and folds);
        each family (the tuned Direct KB, with confidence weights, the all-node tree, the
        binary tree, the vote, the rule vote) scores the mean over the classes of its F1
        with the class's best setting of it (depth, α, m, bins; `selection.choose` among that
        family's candidates), and the best family answers for every class (ties: the order
        of `selection.CANDIDATES`, the Direct KB first), each class with its own setting —
        unless another family, scored on its KBs' own out-of-fold means, gives a better macro
        F1 of each row's class of the highest mean (as `predict` decides) by more than one
        standard error over the folds (`selection.class_choice`: categories9 0.848 → 0.857
        macro F1 over 6 splits, the other tables measured the same or within 0.001;
        benchmarks/RESULTS.md, multi21).
        The vote on the fine bins (`vote.fine_bins` equal-frequency bins a numeric column,
        unsupervised, so one binning for every class) is a family of its own
        (`selection.FINE_FAMILY`); when it answers, its bins are the model's `discretizer_`
        (products 0.758 → 0.813 macro F1; benchmarks/RESULTS.md, several26), unless a class is
        too rare to score (its Direct KB is on the fit's cut points).
        A row's class is the one with the highest number (`_decide`, `_class_of`): a vote
        family's own probability (`vote.kb_probability`; its KB's weighted median decides
        "this class or the rest" alike but orders classes worse: products 0.722 → 0.754 macro
        F1, multi22), any other KB's mean. A tree's or a Direct
        KB's threshold chosen for its class's F1 is left out (thresholds chosen one class at
        a time are not comparable: a 5-row class's 0.25 took 60 of 300 rows, accuracy 0.81
        against 0.98 without it), a vote's stays moved into its prior clause, which
        calibrates the vote's probability (without it the rule vote on a 4-class DNF table
        fell from 0.88 to 0.78 macro F1). One family keeps
        the classes' means comparable too (a mix of families lost 0.02–0.05 macro F1 on iris
        and wine against their one family).
        A class of fewer than `selection.MIN_CLASS_ROWS` rows (a user's 2–4-row class) is
        not scored: the family is chosen on the others, and the rare class keeps its
        Direct KB (`selection.unscored`), said with the class and its rows — under the
        default `class_weight="balanced"` on its raw frequencies, untuned: the 50/50
        re-weighting is checked out of fold on the scored classes only, and on 1–4 rows it
        multiplied noise by up to n / n_c (label_typo's 1-row class took 71 of 1,000 training
        rows and 40 of 500 new ones, none since; multi22) (one 4-row class
        used to send a 4-class DNF table back to the Direct KBs: macro F1 of the other
        classes 0.791 → 0.877, 5 seeds; given the family, a vote fitted on 3 rows took a
        quarter of new rows); only a table whose every class is that rare keeps the Direct
        KBs for all. Sets `class_chosen_`, `class_variant_`, `class_selection_` and `chosen_reason_`."""
        import copy

        from . import selection as S
        from .scale import SEARCH_ROWS
        from .wording import plural

        why = None
        counts = {c: int((labels == c).sum()) for c in targets}
        # a class too rare to score out of fold takes the family the others choose (`unscored`)
        few = [c for c in targets if counts[c] < S.MIN_CLASS_ROWS]
        if (few_cases := self._few_cases()) is not None:
            why = few_cases
        elif len(frame) > SEARCH_ROWS:
            why = f"more than {SEARCH_ROWS:,} training rows (one search a class)"
        elif len(few) == len(targets):  # checked before any class is searched
            why = (f"every class has fewer than {S.MIN_CLASS_ROWS} rows, too few to score a "
                   "model out of fold")
        if why is not None:
            self.chosen_reason_ = f"direct answers for every class: {why}"
            return
        # a class too rare to score keeps its Direct KB on the fit's cut points: no vote on the
        # fine bins, whose binning would then be every class's (`selection.FINE_FAMILY`)
        plain = copy.copy(self.discretizer_)
        if few:
            plain.binnings_ = {}
        views, searches = [], []
        for i, c in enumerate(targets):
            view = copy.copy(self)  # the binary problem of class c, sharing the rows' codes
            view.positive_, view.discretizer_, view._loo = c, plain, None
            view.kbs_, view.paper_kbs_ = [self.kbs_[i]], [self.paper_kbs_[i]]
            view.tuned_, view.ensembles_ = [self.tuned_[i]], [[]]
            searches.append(None if c in few else view._select(frame, labels, rows, within(
                progress, i / len(targets), (i + 1) / len(targets), f"class {c!r}: "),
                adopt=False))
            views.append(view)
        if any(x is None and c not in few for c, x in zip(targets, searches)):
            self.chosen_reason_ = "direct answers for every class: " + next(
                v.chosen_reason_.removeprefix("direct answers: ")
                for c, v, x in zip(targets, views, searches) if x is None and c not in few)
            return
        families = list(dict.fromkeys(m for _k, m, _d in S._candidates())) + [S.FINE_FAMILY]
        scored: dict[str, tuple[float, list]] = {}
        for fam in families:
            sels = [x.choose(fam) for x in searches if x is not None]
            if all(sel is not None for sel in sels):
                scored[fam] = (float(np.mean([sel.scores[sel.key] for sel in sels])), sels)
        found = [x for x in searches if x is not None]
        scoring = [c for c in targets if c not in few]

        def family(among: list[str]) -> tuple[str, str]:
            # the best mean F1, unless the family as `predict` decides (each row's class of the
            # highest mean, out of fold) beats it: (family, what the reason adds)
            sc = {f: scored[f] for f in among if f in scored}
            best = max(sc, key=lambda f: (round(sc[f][0], 12), -families.index(f)))
            picked = S.class_choice(found, sc, among, labels, scoring, best)
            if picked is None:
                return best, ""
            return picked[0], (
                f" — chosen over {best} (mean {sc[best][0]:.3f}) by the out-of-fold macro F1 of "
                "each row's class of the highest number, as predict decides: "
                f"{picked[1]:.3f} against {picked[2]:.3f}, more than one standard error "
                f"({picked[3]:.3f}) above")

        best, by_macro = family(families)
        # the second readings' screen weighs its trees against the search on the fit's own cut
        # points (`CLASS_SCREEN_SLACK` was set on it), not against the vote on the fine bins: a
        # number's fine steps (steps5) still race MDLP's finer cut points
        cut = best if best != S.FINE_FAMILY else family(families[:-1])[0]
        self._class_macro = S.chosen_macro(found, scored[cut][1], labels, scoring)
        told = iter(scored[best][1])
        raw = self.class_weight_ == "balanced"  # a rare class's KB not re-weighted (below)
        rare_kb = "its Direct KB on its raw frequencies" if raw else "its tuned Direct KB"
        sels = [next(told) if x is not None else S.unscored(
            "direct", len(labels), f"direct answers: class {c!r} has "
            f"{plural(counts[c], 'row')}, too few to score out of fold ({rare_kb})")
            for c, x in zip(targets, searches)]
        chosen, sems, variants = [], [], []
        for i, (view, sel, x) in enumerate(zip(views, sels, searches)):
            if sel.chosen not in ("direct-vote", "rule-vote"):
                view.threshold = 0.5  # its mean compared as it is (see above)
            view._adopt(sel, frame, labels, rows, *((x.votes, x.pairs) if x is not None else ()))
            if view.discretizer_ is not plain:  # the vote on fine bins: one binning for all
                self.discretizer_, self.cuts_ = view.discretizer_, dict(view.cuts_)
            self.kbs_[i], self.paper_kbs_[i], self.tuned_[i] = (
                view.kbs_[0], view.paper_kbs_[0], view.tuned_[0])
            if self.kbs_[i].positive != targets[i]:
                self.kbs_[i].positive = targets[i]
            chosen.append(view.chosen_)
            sems.append(view.semantics_)
            variants.append(view.variant_)
        for i, c in enumerate(targets):
            if c in few and raw and self.paper_kbs_[i] is not None:
                # its raw frequencies: the 50/50 re-weighting, checked out of fold on the scored
                # classes only, would multiply its few rows' evidence by up to n / n_c (a 1-row
                # class took 71 of 1,000 training rows; benchmarks/RESULTS.md, multi22)
                self.kbs_[i] = self.paper_kbs_[i] = V.weighted_class_kb(self.paper_kbs_[i],
                                                                         1.0, 1.0)
                self.tuned_[i], variants[i] = None, "paper"
        self.class_chosen_, self.class_variant_ = chosen, variants
        self.class_selection_ = sels
        self.chosen_ = "direct-vote" if best == S.FINE_FAMILY else best
        self.variant_ = variants[0] if len(set(variants)) == 1 else self.variant_
        if len(set(sems)) > 1 or sems[0] != self.semantics:  # a tree or rule vote: "relevant"
            self.semantics_ = next(x for x in sems if x != self.semantics)
        others = sorted((f for f in scored if f != best), key=lambda f: -scored[f][0])
        n_scored = len(targets) - len(few)
        named = scored[best][1][0].key if best == S.FINE_FAMILY else best  # its bins said
        self.chosen_reason_ = (
            f"{named} answers for every class"
            + (f" of {S.MIN_CLASS_ROWS} rows or more" if few else "")
            + f" (one against the rest each): mean out-of-fold F1 over the {n_scored} classes "
            f"{scored[best][0]:.3f}" + by_macro
            + (f"; next {others[0]} {scored[others[0]][0]:.3f}" if others else "")
            + "; per class: " + "; ".join(
                f"{c!r} {sel.scores[sel.key]:.3f}" if sel.scores else
                f"{c!r} not scored ({plural(counts[c], 'row')}, fewer than {S.MIN_CLASS_ROWS}: "
                f"{rare_kb} answers)" for c, sel in zip(targets, sels))
            + "; " + class_decision_said(
                any(voted := list(map(self._compared_by_vote, range(len(targets))))),
                [str(c) for c, v in zip(targets, voted) if not v])
            + ordered_hint(targets))

    def _adopt(self, sel, frame: pd.DataFrame, labels: np.ndarray, raw: pd.DataFrame,
               votes: dict | None = None, pairs=None) -> None:
        """Make the model `sel` chose answer, built on these rows (`votes`, `pairs`: the
        vote candidates the search fitted on them; None: the chosen vote is fitted here on
        every row, without folds — a search on a sample chose it); sets `chosen_`,
        `chosen_reason_`, `selection_` and, unless `threshold` was given, `threshold_`."""
        from . import selection as S

        pos = self.positive_
        y = (labels == pos).astype(int)
        cw = self._class_weights(labels, pos)
        sem = S.TREE_SEMANTICS if self.semantics == "auto" else self.semantics
        full = self.paper_kbs_[0]
        self.selection_, self.chosen_, self.chosen_reason_ = sel, sel.chosen, sel.reason
        if sel.chosen == "direct-vote":
            # the fitted vote answers, its threshold moved into the prior clause (decides at
            # 0.5; a threshold the user gave applies to its ω(POS) means as to any KB's)
            if votes is None:  # fitted on every row once, no folds
                cand, disc = None, None
                if sel.pairs:
                    cand = self._pair_vote(full, frame, y, cv=False)
                elif sel.bins:
                    cand, disc = self._fine_vote(raw, self._numbers(raw), y, cv=False,
                                                 bins=sel.bins, l1=sel.l1) or (None, None)
                if cand is None:  # (no pairs or finer bins on every row: the plain vote)
                    cand = self._vote(full, frame, y, cv=False)
            else:
                cand, disc = (pairs, None) if sel.pairs else votes[sel.bins]
            self.kbs_[0] = cand.kb(0.5 if self.threshold is not None else sel.threshold)
            if disc is not None:  # its bins are the model's: predict, explain, model files
                self.discretizer_, self.cuts_ = disc, dict(disc.cuts_)
            self.paper_kbs_[0], self.tuned_[0], self.variant_ = None, None, sel.chosen
            if self.threshold is None:
                self.threshold_ = 0.5
            return
        if sel.chosen == "rule-vote":
            # the rule vote of the terms learned on every training row, its threshold moved
            # into the prior clause (decides at 0.5), answered like a tree by "relevant"
            from .kb import KB
            from .tree import tree_rows

            rows = tree_rows(frame, y, positive=1)  # the rows as the search's trees read them
            like = KB(rows.features, rows.domains, positive=pos, n_rows=len(y))
            rv = self._rule_vote(like, rows.codes, y)
            self.kbs_[0] = rv.kb(0.5 if self.threshold is not None else sel.threshold)
            self.paper_kbs_[0], self.tuned_[0], self.variant_ = None, None, sel.chosen
            self.semantics_ = sem
            if self.threshold is None:
                self.threshold_ = 0.5
            return
        if sel.chosen == "direct-conf":
            from .weighting import confidence_kb

            # the weighted KB answers and is what `explain` searches (no window to undo)
            self.kbs_[0] = confidence_kb(full, sel.m, self._base_p(y, cw))
            # named as chosen: variant="confidence" is another weighting (|2p − 1|)
            self.paper_kbs_[0], self.tuned_[0], self.variant_ = None, None, sel.chosen
        elif sel.chosen != "direct":
            key = (S.tree_key(sel.max_depth, sel.chosen) if sel.chosen in S.TREE_MODELS
                   else sel.chosen)  # (pruned: the tree's own key, `alpha` prunes it)
            self.kbs_[0] = self._tree_kbs(frame, y, pos, (sel.chosen,), cw,
                                          (sel.max_depth,), alpha=sel.alpha)[key]
            self.paper_kbs_[0], self.tuned_[0], self.variant_ = None, None, "paper"
            self.semantics_ = sem
        if self.threshold is None:
            self.threshold_ = sel.threshold

    def _untuned(self, frame: pd.DataFrame, labels: np.ndarray, sampled: PLXClassifier) -> None:
        """The KBs `_build` would make, for a model chosen on a sample that needs no tuned
        Direct KB of every row (a tree, a vote: its leave-one-out was 40% of a 1,000,000-row
        fit): none, or for "direct-vote" the class-corrected Direct KB's clauses of one (with
        pairs, two) features, which its KB is made of (`vote.vote_kb`)."""
        pos = self.positive_
        full = None
        if sampled.chosen_ == "direct-vote":
            y = (labels == pos).astype(int)
            full = direct_kb_with_reason(frame, y, positive=1,
                                         max_len=2 if sampled.selection_.pairs else 1)[0]
            full.positive = pos
            full = self._corrected(full, y, self._class_weights(labels, pos))
        self.kbs_, self.paper_kbs_, self.tuned_, self.ensembles_ = [full], [full], [None], [[]]
        self.max_len_ = None if full is None else full.max_len
        self.max_len_reason_ = (f"no Direct KB of every row: {sampled.chosen_}, chosen on a "
                                "sample, answers without one")

    def _adopt_sampled(self, sampled: PLXClassifier, frame: pd.DataFrame, labels: np.ndarray,
                       raw: pd.DataFrame) -> None:
        """The model that the search on a sample (`sampled`: this estimator fitted on
        `search_rows_` of the rows) chose, built on every row, and said in `chosen_reason_`."""
        note = (f"; chosen on a stratified sample of {self.search_rows_:,} of the "
                f"{len(frame):,} training rows (above plx_core.scale.SEARCH_ROWS), then built "
                "on every row")
        if sampled.selection_ is None:
            self.chosen_, self.selection_ = "direct", None
            self.chosen_reason_ = sampled.chosen_reason_ + note
            return
        self._adopt(sampled.selection_, frame, labels, raw)
        self.chosen_reason_ += note

    def _rule_vote(self, like, codes: np.ndarray, y: np.ndarray):
        """The "rule-vote" candidate fitted on these rows (`vote.RuleVote`): the one-feature
        clauses and the terms `terms.learn_terms` finds on them, with fitted vote weights
        (L1 `terms.TERM_L1`); `like`: a KB whose features and domains `codes` (the rows)
        are read with."""
        from . import terms as TM

        sizes = [len(like.domains[f]) for f in like.features]
        cw = self._fold_weights(y)
        found = TM.learn_terms(codes, sizes, y, cw)
        rules = VT.rule_set(sizes, [(found.bodies, found.group)], sources=[TM.TERM_SOURCE])
        return VT.RuleVote(like, rules, codes, y, cw, trees=[], l1=TM.TERM_L1)

    def _vote(self, full, frame: pd.DataFrame, y: np.ndarray, codes: np.ndarray | None = None,
              cv: bool = True, smooth: tuple | None = None, l1: float | None = None,
              keep: bool = False, like=None):
        """The "direct-vote" candidate (`plx_core.vote`) of the class-corrected Direct KB
        `full` (`codes`: the rows of `frame` encoded for it, by default the training rows'):
        its out-of-fold logistic probabilities and a maker of its KB (`cv` False: the maker
        only, fitted on every row — `vote.VoteCandidate.fitted`; `keep`, `like`: its problems
        kept, or those of the same vote fitted with other penalties fitted again)."""
        from . import vote as VT

        if codes is None:
            codes = self._codes if self._codes is not None else encode_rows(full, frame)
        if smooth is None:
            codes = self._vote_screened(full, codes)
        sizes = [len(full.domains[f]) for f in full.features]
        slots = VT.value_slots(codes, sizes)
        # the smooth vote on fine bins: its own penalties (`vote.FINE_C`, `vote.FINE_L1`)
        C, l1 = (VT.VOTE_C, 0.0) if smooth is None else (VT.FINE_C, l1 or VT.FINE_L1)
        if not cv:
            return VT.VoteCandidate.fitted(full, slots, sizes, y, self._fold_weights,
                                           C=C, l1=l1, smooth=smooth)
        return VT.VoteCandidate(full, slots, sizes, y, self._fold_weights, self.random_state,
                                C=C, l1=l1, smooth=smooth, keep=keep, like=like,
                                groups=self._groups)

    def _vote_screened(self, full, codes: np.ndarray) -> np.ndarray:
        """The rows' `codes` as the one-feature vote reads them: from `vote.VOTE_SCREEN_ROWS`
        rows, past the smooth vote's numeric columns, the columns where no MDLP cut paid on
        its own (`Discretizer.uncut_`) read as missing (they vote nothing); else as given."""
        from . import vote as VT

        uncut = set(getattr(self.discretizer_, "uncut_", ()))
        binned = len(self.discretizer_.binnings_)
        if (not uncut or len(codes) < VT.VOTE_SCREEN_ROWS
                or VT.VOTE_FOLDS * binned <= VT.OPTIMISM_RUNS):
            return codes
        at = [i for i, f in enumerate(full.features) if f in uncut]
        if not at:
            return codes
        out = np.array(codes, copy=True)
        out[:, at] = -1
        return out

    def _pair_vote(self, full, frame: pd.DataFrame, y: np.ndarray, cv: bool = True):
        """The fitted vote on one- and two-feature clauses ("direct-vote pairs",
        `vote.pair_codes`) of the class-corrected Direct KB `full`, or None above
        `vote.PAIR_VOTES` (rows × pairs of features), below `vote.PAIR_SUPPORT` rows a
        two-feature clause, or when `full` has none (a `max_len` of 1)."""
        from . import vote as VT

        n = len(full.features)
        if (n < 2 or (cv and len(y) * n * (n - 1) // 2 > VT.PAIR_VOTES)  # (a cost: the folds')
                or (full.max_len is not None and full.max_len < 2)):
            return None
        codes = self._codes if self._codes is not None else encode_rows(full, frame)
        codes, sizes = VT.pair_codes(codes, [len(full.domains[f]) for f in full.features])
        slots = VT.value_slots(codes, sizes)
        two = slots.slot[:, n:]
        seen = len(np.unique(two[two >= 0]))
        if (two >= 0).sum() < VT.PAIR_SUPPORT * max(seen, 1):
            return None
        if not cv:
            return VT.VoteCandidate.fitted(full, slots, sizes, y, self._fold_weights,
                                           ftol=VT.PAIR_FTOL, C=VT.PAIR_C, l1=VT.PAIR_L1)
        return VT.VoteCandidate(full, slots, sizes, y, self._fold_weights, self.random_state,
                                ftol=VT.PAIR_FTOL, C=VT.PAIR_C, l1=VT.PAIR_L1,
                                groups=self._groups)

    def _numbers(self, raw: pd.DataFrame) -> dict[str, pd.Series]:
        """The binned columns of `raw` as numbers (floats; a column of dates, times of day or
        lengths of time as it is, so its bins read as dates, 17:00, 1h30m)."""
        return {c: raw[c] if held_format(raw[c]) != "plain" else
                pd.Series(numeric_values(raw[c]), index=raw.index, name=c)
                for c in self.discretizer_.binnings_}

    def _fine_vote(self, raw: pd.DataFrame, nums: dict[str, pd.Series], y: np.ndarray,
                   cv: bool = True, bins: int | None = None, binnings: dict | None = None,
                   l1: float | None = None):
        """The smooth vote on `vote.fine_bins` equal-frequency bins per numeric column
        ("direct-vote bins=32", `vote.smoothing`; `bins`: that many instead): (the candidate,
        its `Discretizer` — the fitted model's should it answer; its `max_bins` the bins),
        or None without numeric columns or beyond `vote.fine_reach`. The cuts are
        unsupervised, so every training row may place them (no label leaks into the folds);
        the KB is the class-corrected Direct KB's one-feature clauses on those bins
        (`binnings`: those bins, as `_fine_binnings` drew them for the search)."""
        binnings = binnings or self._fine_binnings(nums, len(y), bins)  # given: the search's
        if binnings is None:
            return None
        bins = bins or VT.fine_bins(len(y), len(nums))
        disc = Discretizer("quantile", bins, self.discretizer_.max_categories)
        disc.feature_names_in_ = self.discretizer_.feature_names_in_
        disc.binnings_ = binnings
        disc.cuts_ = {c: b.cuts for c, b in disc.binnings_.items()}
        disc.levels_ = dict(self.discretizer_.levels_)  # the grouping stays the model's
        fine = raw.drop(columns=list(self.excluded_)).copy()
        for c, kept in disc.levels_.items():  # as transform reads them
            fine[c] = group_levels(fine[c], kept)
        for c, b in disc.binnings_.items():  # numbers already read: no second parse
            fine[c] = b.labels_of(numeric_values(nums[c]))
        coded: list = []  # the rows' codes as the count encodes them (`encode_rows`' codes)
        full = direct_kb_with_reason(fine, y, positive=1, max_len=1,
                                     observe=lambda c, _r, _cap: coded.append(c))[0]
        full.positive = self.positive_
        full = self._corrected(full, y, self._class_weights(self._labels, self.positive_))
        memo = getattr(self, "_fine_memo", None)
        key = None if memo is None else self._fine_key(full, coded[0], y, disc, cv, l1)
        if key is not None and key in memo:  # the same vote fitted on the same rows: the race's
            return memo[key], disc
        smooth = VT.smoothing(full, disc.binnings_)
        sparse = cv and bool(VT.FINE_L1_SPARSE) and l1 is None  # also the sparser penalty
        cand = self._vote(full, fine, y, coded[0], cv, smooth=smooth, l1=l1, keep=sparse)
        if sparse:  # it answers if it scores better (its folds' problems built once)
            other = self._vote(full, fine, y, coded[0], cv, smooth=smooth,
                               l1=VT.FINE_L1_SPARSE, like=cand)
            cand.problems = None
            cand = VT.sparser(cand, other, y, self.random_state, self._groups)
        if key is not None:
            memo[key] = cand
        return cand, disc

    def _fine_key(self, full, codes: np.ndarray, y: np.ndarray, disc: Discretizer, cv: bool,
                  l1: float | None) -> tuple:
        """What `_fine_vote`'s candidate is a function of (the KB's features, domains and
        clauses, the rows' codes, the labels, the bins, the folds' seed and groups, the class
        weights, the penalties): a several-class fit's memo key, so the race on MDLP's finer
        cut points takes the first search's votes, not the same fits again."""
        groups = None if self._groups is None else np.asarray(self._groups, dtype=object)
        return (cv, l1, self.random_state, repr(self.class_weight_), repr(self._fold_weights(y)),
                tuple(full.features), tuple(tuple(map(str, full.domains[f])) for f in full.features),
                *(np.ascontiguousarray(a).tobytes() for a in (full.codes, full.head, full.p, full.w,
                                                              full.support, full.positives)),
                np.ascontiguousarray(codes).tobytes(),
                codes.shape, codes.dtype.str, np.asarray(y).tobytes(), np.asarray(y).dtype.str,
                tuple((c, np.asarray(b.cuts, dtype=float).tobytes()) for c, b in disc.binnings_.items()),
                None if groups is None else tuple(groups.tolist()))

    def _fine_binnings(self, nums: dict[str, pd.Series], n_rows: int, bins: int | None = None
                       ) -> dict[str, Any] | None:
        """The smooth vote's equal-frequency binning of each numeric column (`vote.fine_bins`
        bins, or `bins`), or None where there is no such vote (no numeric column, above
        `vote.fine_reach`: past `vote.OPTIMISM_RUNS` on a wide table of few rows only)."""
        from .discretize import fit_cuts
        from .vote import FINE_BINS, fine_bins, fine_reach

        if not FINE_BINS or not nums or not fine_reach(n_rows, len(nums)):
            return None
        bins = bins or fine_bins(n_rows, len(nums))
        return {c: fit_cuts(v, None, "quantile", bins) for c, v in nums.items()}

    def _fold_frames(self, frame: pd.DataFrame, nums: dict[str, pd.Series],
                     grid: dict[str, Any], y: np.ndarray, codes: np.ndarray | None, full
                     ) -> tuple[Callable[[np.ndarray, np.ndarray],
                                         tuple[pd.DataFrame | None, pd.DataFrame]],
                                Callable[[np.ndarray], tuple[np.ndarray | None, dict]]]:
        """For `selection.out_of_fold`: given a fold's training and held-out positions, those
        rows of `frame` (a frame each, as `out_of_fold` takes them; no training frame, None,
        where `codes` are given: the fold's trees read `recoded`'s) with each numeric column
        cut at that fold's own MDLP cut points (placed on its training rows among the fine
        bins' edges `grid`, as `_cut_optimism`'s, one batched search), so
        no held-out label placed a cut the fold's trees split on; each bin named by its
        position ("≥ b02", sorted as `natural_key` sorts), a missing cell left missing. And
        those rows' codes and domains over `full`'s features (from the training rows' `codes`,
        renumbered, not read again; None without them)."""
        edges = {c: np.asarray(g, dtype=float) for c, g in grid.items() if c in nums}
        x = {c: numeric_values(nums[c]) for c in edges}
        fine = {c: np.where(np.isfinite(v), np.searchsorted(edges[c], v, "right"), -1)
                for c, v in x.items()}  # each cell's fine bin (−1: missing)
        top = max(map(len, edges.values()), default=0)
        names = np.array([f"≥ b{i:02d}" for i in range(top + 1)] + [np.nan], dtype=object)
        last: dict = {}  # the last fold's bins, read by both callables
        # a column cut where the fit's interaction tree split it (no MDLP cut on the fit's
        # rows) is cut there in a fold too, where MDLP finds none on the fold's rows: a tree
        # grown per fold (honest) cost 8% of Rare 5%'s fit and tested the same on the XOR
        # table (F1 0.891 both; the median instead 0.844) — the trees share the Direct KB's
        # footing there, cut on all training rows
        fit_hint = getattr(self.discretizer_, "interactions_", {})
        hints = [fit_hint.get(c, np.nan) for c in edges]

        def binned(tr: np.ndarray) -> dict[str, tuple[np.ndarray, int]]:
            if last.get("tr") is not tr:
                cuts = self._grid_fold_cuts([(fine[c], edges[c], tr) for c in edges], y,
                                            hints)
                # a fold cut is a fine edge: a cell's fold bin is how many of them its fine
                # bin lies above (−1: missing)
                last.update(tr=tr, bins={c: (np.where(fine[c] >= 0, np.searchsorted(
                    np.searchsorted(edges[c], at), fine[c], "left"), -1), len(at) + 1)
                    for c, at in zip(edges, cuts)})
            return last["bins"]

        typed: dict = {}  # the names as the frame's string column holds them, made once

        def frames(tr: np.ndarray, te: np.ndarray) -> tuple[pd.DataFrame | None, pd.DataFrame]:
            # the fold's training and held-out rows built from their codes (not a frame of
            # every row taken apart: `out_of_fold`'s two takes were half a fold's frame cost);
            # no training frame where `recoded` gives its codes: the trees read those (the
            # frame was 0.2 s of rare-10's 1 s fit, built column by column, never read)
            got = binned(tr)
            if not typed:
                typed["names"] = pd.array(names, dtype=pd.Series(names[:1]).dtype)

            def frame_of(at: np.ndarray) -> pd.DataFrame:
                # the other columns' rows by their arrays' take: the same arrays as a Series'
                # `iloc[at].reset_index(drop=True)`, a fifth of its cost (8 text columns of
                # Rare 5%: 4.5 → 1 ms a fold)
                return pd.DataFrame(
                    {c: typed["names"].take(got[c][0][at]) if c in got
                     else frame[c].array.take(at) for c in frame.columns})
            return (None if codes is not None else frame_of(tr)), frame_of(te)

        feats = list(full.features)

        def recoded(tr: np.ndarray) -> tuple[np.ndarray | None, dict]:
            if codes is None:
                return None, full.domains
            out, doms = codes.copy(), dict(full.domains)
            for c, (b, k) in binned(tr).items():
                out[:, feats.index(str(c))] = b
                doms[str(c)] = tuple(names[:k])
            return out, doms

        return frames, recoded

    def _cut_optimism(self, nums: dict[str, pd.Series], frame: pd.DataFrame, full, vote,
                      y: np.ndarray, grid: dict[str, Any] | None = None) -> float:
        """How much the fit's cut points flatter the candidates scored on them: the vote's
        out-of-fold F1 on those cuts (placed with every training row, the held-out folds'
        labels included) minus its F1 with each fold's own cuts (placed on the fold's training
        rows, the same folds); 0 for unsupervised cuts. `grid` (column → cut points, the fine
        vote's): MDLP places a fold's cuts among those only, from each fine bin's class counts
        (`_grid_fold_cuts`) — the same search on ≤ `vote.FINE_BINS` groups, not on every
        distinct value. Measured in benchmarks/RESULTS.md ("The fitted vote on finer bins";
        "The cut optimism on the fine bins' edges"): 0.02–0.11 on the rare sets."""
        from . import vote as VT
        from .selection import best_threshold, folds

        if self.discretize in ("quantile", "uniform") or not nums:
            return 0.0
        feats = list(full.features)
        codes = self._codes if self._codes is not None else encode_rows(full, frame)
        sizes = [len(full.domains[f]) for f in feats]
        x = {c: numeric_values(v) for c, v in nums.items()}
        # MDLP's class counts per distinct value, per fold, from one sort of each column
        # (a fold's cuts are those of `fit_cuts` on its rows: 10 folds × 30 columns of calls
        # were 40% of a fit)
        on_grid = {c: np.asarray(grid[c], dtype=float) for c in nums
                   if grid is not None and c in grid and self.discretize == "mdlp"}
        distinct = {c: np.unique(v[np.isfinite(v)], return_inverse=True) for c, v in x.items()
                    if c not in on_grid}
        fine = {c: np.where(np.isfinite(x[c]), np.searchsorted(g, x[c], "right"), -1)
                for c, g in on_grid.items()}  # each cell's fine bin (−1: missing)
        fold_slots = []
        parts = folds(y, VT.VOTE_FOLDS, self.random_state, self._groups)
        # every fold's cuts of every column on the grid from one batched MDLP search (a
        # column without an MDLP cut at its median: the one-feature vote measured here reads
        # no interaction, and 10 folds' trees were 7% of the rare additive table's fit)
        gridded = dict(zip([(i, c) for i in range(len(parts)) for c in on_grid],
                           self._grid_fold_cuts([(fine[c], on_grid[c], tr) for tr, _te in parts
                                                 for c in on_grid], y)))
        for i, (tr, _te) in enumerate(parts):
            own, own_sizes = codes.copy(), list(sizes)
            for c in nums:
                cuts = (gridded[i, c] if c in on_grid else
                        self._fold_cuts(x[c], distinct[c], y, tr))
                j = feats.index(c)
                own[:, j] = np.where(np.isnan(x[c]), -1, np.searchsorted(cuts, x[c], "right"))
                own_sizes[j] = len(cuts) + 1
            fold_slots.append(VT.value_slots(own, own_sizes))
        honest, _ = VT.cross_fit(VT.value_slots(codes, sizes), y, self._fold_weights,
                                 self.random_state, fold_slots=fold_slots, final=False,
                                 ftol=VT.OPTIMISM_FTOL, groups=self._groups)
        return (best_threshold(y, vote.oof)[1]
                - best_threshold(y, VT.probability(honest))[1])

    def _fold_cuts(self, x: np.ndarray, distinct: tuple[np.ndarray, np.ndarray], y: np.ndarray,
                   rows: np.ndarray) -> np.ndarray:
        """The cut points `fit_cuts` finds for one numeric column on training `rows` (binary
        labels y), for MDLP from the column's distinct values sorted once (`distinct`: values
        and each finite cell's index among them); with none, the median (the cut optimism's
        one-feature vote reads no interaction)."""
        from .data import quantile_cuts
        from .discretize import fit_cuts, mdlp_counts

        if self.discretize != "mdlp":
            return np.asarray(fit_cuts(pd.Series(x[rows]), self._labels[rows], self.discretize,
                                       self.max_bins).cuts, dtype=float)
        values, inv = distinct
        finite = np.isfinite(x)
        at = np.zeros(len(x), dtype=bool)
        at[rows] = True
        keep = at[finite]
        counts = np.bincount(inv[keep] * 2 + np.asarray(y)[finite][keep],
                             minlength=2 * len(values)).reshape(-1, 2).astype(float)
        seen = counts.sum(axis=1) > 0
        cuts = mdlp_counts(values[seen], counts[seen], int(self.max_bins))
        if not cuts and keep.any():  # as `fit_cuts`: a median split (`fit_bins`, from the counts)
            c = np.unique(quantile_cuts(values[seen], counts[seen].sum(axis=1), 2))
            return c[c > values[seen][0]]
        return np.asarray(cuts, dtype=float)

    def _grid_fold_cuts(self, jobs: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                        y: np.ndarray, hints: Sequence[float] | None = None
                        ) -> list[np.ndarray]:
        """Per job (fine, grid, rows): the cut points MDLP finds for one numeric column on
        training `rows` when it may cut only at `grid` (sorted; `fine`: each cell's bin among
        them, −1 where missing), from the class counts of each bin — `mdlp_splits` over the
        bins, every job in one batched search (`mdlp_splits_many`), the cut of a boundary
        the grid point it falls on; with no cut, as `fit_cuts` falls back to: the grid point
        nearest the job's interaction threshold (`hints`, one a job: the fit's), else the bins'
        median split."""
        from .data import quantile_cuts
        from .discretize import mdlp_splits_many

        y = np.asarray(y)
        seen_counts, lowers = [], []
        for fine, grid, rows in jobs:
            b, yy = fine[rows], y[rows]
            ok = b >= 0
            counts = np.bincount(b[ok] * 2 + yy[ok], minlength=2 * (len(grid) + 1)).reshape(-1, 2)
            seen = counts.sum(axis=1) > 0
            seen_counts.append(counts[seen])
            lowers.append(np.concatenate([[-np.inf], grid])[seen])  # each seen bin's lower edge
        lengths = np.array([len(c) for c in seen_counts], dtype=np.int64)
        padded = np.zeros((len(jobs), int(lengths.max(initial=1)), 2))
        for i, c in enumerate(seen_counts):
            padded[i, :len(c)] = c
        out = []
        for j, (at, counts, lower) in enumerate(zip(
                mdlp_splits_many(padded, lengths, int(self.max_bins)), seen_counts, lowers)):
            h = hints[j] if hints is not None and not at and len(counts) > 1 else np.nan
            if np.isfinite(h):  # the seen bin edge nearest the tree's threshold
                out.append(lower[1:][[int(np.argmin(np.abs(lower[1:] - h)))]])
            elif not at and len(counts):
                c = np.unique(quantile_cuts(lower, counts.sum(axis=1), 2))
                out.append(c[c > lower[0]])
            else:
                out.append(lower[np.asarray(at, dtype=np.int64)])
        return out

    def _fold_weights(self, y: np.ndarray) -> tuple[float, float]:
        """(w_pos, w_neg) that correct the clause probabilities of a KB learned from rows with
        labels y (1 = POS) as `class_weight_` says ((1, 1): none)."""
        if self.class_weight_ == "balanced":
            return V.balanced_weights(int(np.sum(y)), len(y))
        cw = self._class_weights(self._labels, self.positive_)
        return (1, 1) if cw is None else cw

    def _base_p(self, y: np.ndarray, cw: tuple[float, float] | None) -> float:
        """The training base rate of POS as the corrected clause probabilities see it (0.5
        when balanced): what a clause that tells nothing apart would have."""
        rate = float(np.mean(y))
        return float(V.reweighted_p(rate, *cw)) if cw is not None else rate

    def _direct_loo(self, full, frame: pd.DataFrame, y: np.ndarray, cfg,
                    cw: tuple[float, float] | None, base: float) -> dict[str, np.ndarray]:
        """The Direct candidates' exact leave-one-out ω(POS) means on the tuned variant's
        leave-one-out rows (NaN elsewhere; with `groups`, each row's whole case left out),
        keyed as `selection.choose` scores them: the tuned
        Direct KB ("direct", when `selection.DIRECT_THRESHOLD`) and, per m of
        `weighting.M_GRID`, the confidence-weighted Direct KB; none above `selection.LOO_PAIRS`
        (row, subset) pairs."""
        from . import selection as S
        from .direct import n_subsets
        from .weighting import M_GRID, loo_means, same_rows

        at = np.arange(len(y)) if cfg.loo_rows is None else np.asarray(cfg.loo_rows)
        ms = M_GRID if "direct-conf" in S.CANDIDATES else ()
        window = (cfg.min_len, cfg.max_len, cfg.prior_weight) if S.DIRECT_THRESHOLD else None
        pairs = len(at) * n_subsets(len(full.features), int(full.lengths.max(initial=0)))
        if (not ms and window is None) or pairs > S.LOO_PAIRS:
            return {}
        codes = self._codes if self._codes is not None else encode_rows(full, frame)
        found = self._loo.pairs() if self._loo is not None and cfg.loo_rows is None else None
        same = same_rows(codes[at]) if self._groups is None else None
        got = loo_means(full, codes[at], y[at], ms, cw, base, window=window, pairs=found,
                        cases=None if self._groups is None else self._groups[at],
                        leave_out=None if same is None else (~same).astype(np.int64))
        means = {("direct" if k == "window" else S.conf_key(k)): v for k, v in got.items()}
        out = {}
        for key, v in means.items():
            out[key] = np.full(len(y), np.nan)
            out[key][at] = v
        return out

    def _loo_pairs(self) -> int:
        """How many (training row, subset) pairs the count keeps for `_direct_loo` (0: none:
        no selection follows, or none of its Direct candidates)."""
        from . import selection as S

        if (self.variant != "auto" or len(self.classes_) != 2
                or not ("direct-conf" in S.CANDIDATES or S.DIRECT_THRESHOLD)):
            return 0
        return S.LOO_PAIRS

    def _tuned(self, full, codes: np.ndarray, y: np.ndarray, groups: np.ndarray | None,
               sampled: bool, class_weights: tuple[float, float] | None = None,
               stats: V.LevelStats | None = None, leave_out: np.ndarray | None = None):
        """The tuned variant's (answering KB, full KB, TunedConfig, []) from the full Direct KB
        and the training rows' codes (`sampled`: already `variants.loo_sample`'s rows, with
        `leave_out` their replica counts on the whole table; `class_weights`: the (w_pos,
        w_neg) correction `full` carries; `stats`: their leave-one-out statistics when
        gathered with the count)."""
        cfg = V.tune(full, codes, y, random_state=self.random_state, groups=groups,
                     sampled=sampled, class_weights=class_weights, stats=stats,
                     leave_out=leave_out)
        if cfg.is_paper:
            return full, full, cfg, []
        return V.windowed_kb(full, cfg.min_len, cfg.max_len, cfg.prior_weight), full, cfg, []

    def _few_cases(self, y: np.ndarray | None = None) -> str | None:
        """Why the search cannot keep each case's rows on one side of its folds (`groups`
        given): fewer cases than `vote.VOTE_FOLDS`, or (binary `y`) fewer cases holding a
        class than `selection.SELECT_FOLDS`; None when it can, or without groups."""
        from . import selection as S
        from . import vote as VT

        if self._groups is None:
            return None
        cases, at = np.unique(self._groups, return_inverse=True)
        if len(cases) < VT.VOTE_FOLDS:
            n = len(cases)
            return (f"{n} case{'' if n == 1 else 's'} (groups), fewer than the "
                    f"{VT.VOTE_FOLDS} folds that score candidates with each case's rows on one "
                    "side")
        if y is not None and min(len(np.unique(at[y == v])) for v in (0, 1)) < S.SELECT_FOLDS:
            return (f"cases of a class in fewer than {S.SELECT_FOLDS} groups: too few for "
                    f"{S.SELECT_FOLDS}-fold cross-validation by case")
        return None

    def _class_weights(self, labels: np.ndarray, positive: str) -> tuple[float, float] | None:
        """(w_pos, w_neg) of the one-vs-rest problem for `positive`, or None (no correction).
        A dict gives the negatives the count-weighted mean weight of the other classes."""
        cw = self.class_weight_
        if cw is None:
            return None
        if cw == "balanced":
            n_pos = int((labels == positive).sum())
            return V.balanced_weights(n_pos, len(labels))
        given = {value_str(k): float(v) for k, v in cw.items()}
        bad = [k for k, v in given.items() if not (v > 0 and np.isfinite(v))]
        if bad:
            raise DataError(f"class_weight of class {bad[0]!r} must be a finite number > 0")
        w = np.array([given.get(c, 1.0) for c in labels], dtype=float)
        neg = labels != positive
        return given.get(positive, 1.0), float(w[neg].mean()) if neg.any() else 1.0

    def _ensemble(self, frame: pd.DataFrame, y: np.ndarray, positive: str) -> list:
        """(columns or None, KB) members: bootstrap rows ("bagged") or random feature halves
        ("subspace"); every member keeps both classes (re-drawn otherwise)."""
        rng = np.random.default_rng(self.random_state)
        n, F = frame.shape
        members = []
        for _ in range(self.n_estimators):
            if self.variant_ == "bagged":
                for _ in range(100):
                    rows = rng.integers(0, n, n)
                    if 0 < y[rows].sum() < n:
                        break
                sub, cols, yy = frame.iloc[rows].reset_index(drop=True), None, y[rows]
            else:
                k = max(1, int(round(F / 2)))
                cols = sorted(rng.choice(F, k, replace=False).tolist())
                sub, yy = frame.iloc[:, cols], y
            kb = direct_kb_with_reason(
                sub, yy, positive=1, memory_budget=self._budget,
                max_len=None if self.max_len_ is None else min(self.max_len_, sub.shape[1]))[0]
            kb.positive = positive
            if self.class_weight_ == "balanced":
                kb = V.weighted_class_kb(kb, *V.balanced_weights(int(yy.sum()), len(yy)))
            elif self.class_weight_ is not None:
                kb = V.weighted_class_kb(kb, *self._class_weights(self._labels, positive))
            members.append((None if cols is None else [frame.columns[c] for c in cols], kb))
        return members

    # ------------------------------------------------------------------ predict

    def _answer(self, i: int, frame: pd.DataFrame) -> BoundsArray:
        """Bounds of KB i for the rows of `frame` (batched; no per-row loop for the variants)."""
        kb = self.kbs_[i]
        ens = self.ensembles_[i]
        if ens:
            parts = []
            if self.variant_ == "direct+forest":
                parts.append(query_many(kb, frame, semantics=self._semantics()))
            for cols, member in ens:
                parts.append(query_many(member, frame if cols is None else frame[cols],
                                        semantics=self._semantics() if cols is None or
                                        self.variant_ == "direct+forest" else "relevant"))
            lower = np.mean([p.lower for p in parts], axis=0)
            upper = np.mean([p.upper for p in parts], axis=0)
            read_as = {(r.feature, r.written, r.value): r for p in parts for r in p.read_as}
            # unseen: against the full KB's values (a bootstrap member lacks some it saw)
            ur, uc = np.nonzero(encode_rows(kb, frame) == UNSEEN)
            return BoundsArray(lower, upper, np.full(len(frame), "ensemble", dtype=object),
                               tuple(kb.features), ur, uc,
                               read_as=tuple(read_as.values()),  # every member sees the rows
                               failed=tuple(sorted({f for p in parts for f in p.failed})))
        from .vote import class_compared

        return class_compared(query_many(kb, frame, semantics=self._semantics()), kb, frame,
                              self._compared_by_vote(i),
                              any(map(self._compared_by_vote, range(len(self.kbs_)))))

    def _compared_by_vote(self, i: int) -> bool:
        """Several classes: whether class i is compared by its vote's own probability (its
        family a vote, `selection.VOTE_FAMILIES`) rather than by its KB's mean: the vote's
        weighted median says "this class or the rest" as the vote does, but orders the classes
        worse (products 0.734 → 0.795 macro F1; benchmarks/RESULTS.md, multi22)."""
        from .selection import VOTE_FAMILIES

        chosen = getattr(self, "class_chosen_", None)
        return len(self.kbs_) > 1 and chosen is not None and chosen[i] in VOTE_FAMILIES

    def _semantics(self) -> str:
        """The semantics that answers: `semantics_` once fitted (variant="auto" answers a chosen
        Tree KB with "relevant"), else `semantics`."""
        return getattr(self, "semantics_", self.semantics)

    def _threshold(self) -> float:
        """The decision threshold that answers: `threshold` when given (also if set after fit),
        else the fitted `threshold_` (chosen by variant="auto"), else 0.5."""
        self._check_threshold()
        if self.threshold is not None:
            return float(self.threshold)
        return float(getattr(self, "threshold_", 0.5))

    def _check_threshold(self) -> None:
        checked_threshold(self.threshold, none_ok=True)

    def transform_rows(self, X: Any) -> pd.DataFrame:
        """Rows as the KB sees them: the fitted numeric columns replaced by their bins."""
        check_is_fitted(self, "kbs_")
        return self.discretizer_.transform(self._frame(X, reset=False))

    def _means(self, X: Any, say_failed: bool = True) -> list[BoundsArray]:
        """`_block_means`, warning once about values read as the KB's value written otherwise
        and about values it never saw (answered as missing), as `plx predict` says them on
        stderr: nothing changed silently. Rows no answer was given for are said too, unless
        the caller says them itself (`say_failed=False`: the dashboard raises them)."""
        res, unseen, n_unseen = self._block_means(X)
        if not getattr(self, "_read_as_said", False):  # see distributed._quiet_copy
            warn_read_as(res[0].read_as)
            warn_unseen(unseen, n_unseen)
        if say_failed:
            warn_failed(self._failed_notes(res), self._failed_decided())
            self._warn_uninformed(res)
        return res

    def uninformed(self, res: list[BoundsArray]) -> np.ndarray:
        """Per row whether nothing the model knows bears on it: the bounds [0, 1] (several
        classes: every class's, where a vote decides by its priors — else all tie at 0.5 and
        the class order decides, a tie), as `plx predict` finds them."""
        return uninformed_rows([r.lower for r in res], [r.upper for r in res],
                               len(res) > 1 and any(map(self._compared_by_vote, range(len(res)))))

    def _warn_uninformed(self, res: list[BoundsArray]) -> None:
        """`query.UninformedRows` for the rows answered [0, 1] (`uninformed`), counted and
        worded as `plx predict` says them, the first row by its position."""
        hit = np.flatnonzero(self.uninformed(res))
        if len(hit):
            self._say_uninformed(res, int(hit[0]), len(hit), int(hit[0]))

    def _say_uninformed(self, res: list[BoundsArray], i: int, rows: int, position: int) -> None:
        """`_warn_uninformed`'s note from `res`' row i, the first of `rows` such rows, at
        `position` among the rows asked (a Dask table's first such row answered alone)."""
        first = self._decide(res)[i]
        first = first.item() if isinstance(first, np.generic) else first
        binary = len(res) == 1
        tie = (abs(float(res[0].mean[i]) - self._threshold()) <= TIE_EPS if binary else
               len({float(r.compared_by[i]) for r in res}) == 1)
        decided = f"{first!r}" + ((" (a tie at the threshold)" if binary else
                                   " (a tie: class order)") if tie else "")
        say_note(UninformedRows(rows, position, self._threshold() if binary else None, decided),
                 stacklevel=5)

    def _failed_notes(self, res: list[BoundsArray]) -> np.ndarray:
        """Per row why a KB's LP failed on it ("" if answered), each class named when there
        are several (`query.failed_notes`), as `plx predict` writes its 'note' column."""
        return failed_notes(res, None if len(res) == 1 else self._class_str)

    def _failed_decided(self) -> str:
        """What `predict` gives a row the LP failed on, as `warn_failed` says it."""
        if len(self.kbs_) == 1:
            neg = self.classes_[1 - self._class_str.index(self.positive_)]
            neg = neg.item() if isinstance(neg, np.generic) else neg  # 'no', not np.str_('no')
            return f"predict gives them the negative class {neg!r}"
        return "predict chooses among the classes whose KB answered them"

    def _block_means(self, X: Any) -> tuple[list[BoundsArray], dict[str, int], int]:
        """Bounds of every KB for the rows of X, `PREDICT_BLOCK` rows at a time: validating,
        binning and encoding make copies of the rows, so memory stays bounded (one block)
        whatever the number of rows; each block's lookups are chunked and threaded again.
        Also the values never seen in training (`query.unseen_cells`) and their rows."""
        check_is_fitted(self, "kbs_")
        if getattr(self, "class_order_", None) is not None:  # K − 1 steps answer K levels
            from .ordered import level_bounds

            cum, steps, unseen, n_unseen = self._ordered_steps(X)
            levels = level_bounds(cum, steps)
            return [levels[self._order.index(c)] for c in self._class_str], unseen, n_unseen
        n = _n_rows(X)
        if n <= PREDICT_BLOCK:
            frame = self.transform_rows(X)
            res = [self._answer(i, frame) for i in range(len(self.kbs_))]
            return res, unseen_cells(res[0], frame), len(np.unique(res[0].unseen_rows))
        if not hasattr(X, "iloc"):
            X = np.asarray(X, dtype=object)
        blocks = [self._block_means(X.iloc[a:a + PREDICT_BLOCK] if hasattr(X, "iloc")
                              else X[a:a + PREDICT_BLOCK]) for a in range(0, n, PREDICT_BLOCK)]
        unseen: dict[str, int] = {}
        for _, cells, _ in blocks:
            for c, k in cells.items():
                unseen[c] = unseen.get(c, 0) + k
        return ([BoundsArray.concat([b[0][i] for b in blocks]) for i in range(len(self.kbs_))],
                unseen, sum(b[2] for b in blocks))

    def bounds(self, X: Any) -> pd.DataFrame:
        """ω(POS) lower/upper/mean per row (binary), or per class with a `class` column level,
        and `uninformed`: the rows nothing the model knows bears on (`uninformed`, the rows
        `UninformedRows` warns of). Indexed as X when X is a DataFrame. For the ensemble
        variants lower/upper are the members' averages."""
        return self._bounds_frame(self._means(X), getattr(X, "index", None))

    def _bounds_frame(self, results: list[BoundsArray], index: Any = None) -> pd.DataFrame:
        """The bounds of `results` as `bounds` gives them, indexed by `index` (X's, when it has
        one of as many rows: the user's row names; else 0 … n−1)."""
        if len(results) == 1:
            r = results[0]
            out = pd.DataFrame({"lower": r.lower, "upper": r.upper, "mean": r.mean,
                                "method": r.method, "uninformed": self.uninformed(results)})
        else:
            parts = {c: pd.DataFrame({"lower": r.lower, "upper": r.upper, "mean": r.mean})
                     for c, r in zip(self._class_str, results)}
            out = pd.concat(parts, axis=1)
            out[("uninformed", "")] = self.uninformed(results)
        if isinstance(index, pd.Index) and len(index) == len(out):
            out.index = index
        return out

    def predict_proba(self, X: Any) -> np.ndarray:
        """Binary: [1 − mean, mean] of the ω(POS) bounds (`predict` compares the mean with
        `threshold_`, not 0.5). Several classes: the numbers the classes are compared by
        (`BoundsArray.compared_by`: a vote family's own probability, any other KB's mean, each
        one against the rest) divided by their sum, a failed class 0 (uniform where every one
        is 0): rows sum to 1 and the largest is `predict`'s class."""
        res = self._means(X)
        if len(res) == 1:
            m = res[0].mean
            pos_col = self._class_str.index(self.positive_)
            out = np.empty((len(m), 2))
            out[:, pos_col] = m
            out[:, 1 - pos_col] = 1.0 - m
            return out
        means = np.nan_to_num(np.column_stack([r.compared_by for r in res]), nan=0.0)
        total = means.sum(axis=1, keepdims=True)
        uniform = np.full_like(means, 1.0 / means.shape[1])
        return np.where(total > 0, means / np.where(total > 0, total, 1.0), uniform)

    def predict(self, X: Any) -> np.ndarray:
        """Binary: positive iff the mean of the bounds > `threshold` (0.5 by default; a tie at
        the threshold is negative, as in the paper). Several classes: the largest of the
        numbers the classes are compared by (`_class_of`; first class in order on ties)."""
        self._check_threshold()
        return self._decide(self._means(X))

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Accuracy (scikit-learn's), with labels held as Python objects typed as `fit` types
        them (`encoding.typed_labels`: scikit-learn's metrics call an object column of
        whole numbers "unknown")."""
        y = column_or_1d(np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y))
        return super().score(X, typed_labels(y), sample_weight)

    def bounds_and_predict(self, X: Any) -> tuple[pd.DataFrame, np.ndarray]:
        """`bounds(X)` and `predict(X)` from one pass over the rows (a batch that needs both)."""
        b, pred, _ = self._bounds_predict(X)
        return b, pred

    def _bounds_predict(self, X: Any, say_failed: bool = True
                        ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
        """`bounds_and_predict` and per row why the LP failed on it (`_failed_notes`), said unless
        `say_failed` is False (a Dask partition: `distributed.predict_dask` says them once,
        counted over the whole table, as a note said on a worker never reaches the user)."""
        self._check_threshold()
        res = self._means(X, say_failed)
        return (self._bounds_frame(res, getattr(X, "index", None)), self._decide(res),
                self._failed_notes(res))

    def _decide(self, res: list[BoundsArray]) -> np.ndarray:
        """The predicted classes from the bounds of every KB (see `predict`)."""
        if len(res) == 1:
            pos_col = self._class_str.index(self.positive_)
            positive = res[0].mean > self._threshold() + TIE_EPS
            return np.where(positive, self.classes_[pos_col], self.classes_[1 - pos_col])
        return self.classes_[self._class_of(res)]

    def _class_of(self, res: list[BoundsArray]) -> np.ndarray:
        """Several classes: per row the index of the class with the largest number it is
        compared by (`BoundsArray.compared_by`: a vote family's own probability, any other
        KB's mean), the first in class order on ties; a KB the LP failed on for a row (NaN)
        never wins it."""
        means = np.column_stack([r.compared_by for r in res])
        if getattr(self, "class_order_", None) is not None:  # ties: the lower level
            at = [self._class_str.index(c) for c in self._order]
            return np.asarray(at)[np.argmax(np.nan_to_num(means[:, at], nan=-np.inf), axis=1)]
        return np.argmax(np.nan_to_num(means, nan=-np.inf), axis=1)

    def _explained(self, rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """Per row (binned, the searched KB's columns): which KB explains it and whether that
        KB's answer is positive — binary: the one KB, on the side the classifier answers (its
        threshold and tie rule, not the searched KB's own 0.5 rule); one-vs-rest: the KB of
        the predicted class (`_class_of`), explained as positive."""
        answers = [self._answer(i, rows) for i in range(1 if self.kb_ is not None else len(self.kbs_))]
        if not getattr(self, "_read_as_said", False):  # see distributed._quiet_copy
            warn_read_as(answers[0].read_as)
            warn_unseen(unseen_cells(answers[0], rows), len(np.unique(answers[0].unseen_rows)))
        if self.kb_ is not None:
            return np.zeros(len(rows), dtype=int), answers[0].mean > self._threshold() + TIE_EPS
        return self._class_of(answers), np.ones(len(rows), dtype=bool)

    def _decides_at(self) -> float:
        """The threshold an explanation's `decides` is judged at: the binary model's own
        (`_threshold`); with several classes 0.5 (a class KB's support against the rest)."""
        return self._threshold() if self.kb_ is not None else 0.5

    def _searched(self, i: int):
        """The KB `explain` searches for one-vs-rest problem i (see `explain`)."""
        return self.paper_kbs_[i] if self.paper_kbs_[i] is not None else self.kbs_[i]

    def explain_many(self, X: Any, k: int = 2, progress: Any = None, stop: Any = None,
                     n_jobs: int | None = None, for_class: Any = None, **kwargs: Any) -> list:
        """`explain` for every row of X, in row order (`plx_core.explain.explain_many`: the
        same explanations as a loop of `explain`, made together; `progress(done, total)` after
        each chunk, `stop` — a threading.Event or a callable — ends early and the
        explanations done so far are returned). Rows are binned and decided in one batch; a row
        that knows fewer than k features is explained by all it knows (its `k` and `note` say
        so), and a row nothing can explain gets an `explain.Unexplained` with the reason.
        `for_class`: as in `explain`."""
        check_is_fitted(self, "kbs_")
        if getattr(self, "class_order_", None) is not None:
            return self._ordered_explain_many(X, k, for_class, True, progress=progress,
                                              stop=stop, n_jobs=n_jobs, **kwargs)
        from .explain import Explanation, explain_many

        frame = self.transform_rows(X)
        rows = frame.reindex(columns=list(self._searched(0).features))
        which, decided = self._for_class(*self._explained(rows), for_class)
        direction = kwargs.pop("direction", "auto")
        if direction == "auto":
            direction = ["positive" if d else "negative" for d in decided]
        kwargs.setdefault("threshold", self._decides_at())
        direction = np.asarray(direction if isinstance(direction, (list, tuple, np.ndarray))
                               else [direction] * len(rows), dtype=object)
        one_k = np.ndim(k) == 0  # one k as given: a bad one is named as k, not as "row 0: k"
        ks = None if one_k else np.asarray(k, dtype=object)  # explain_many lowers k if it must
        records = [{c: v for c, v in r.items()} for r in frame.to_dict("records")]
        out: list = [None] * len(records)
        done = 0
        for i in np.unique(which):  # one batch per explaining KB (one when binary)
            at = np.flatnonzero(which == i)
            part = explain_many(
                self._searched(int(i)), [records[j] for j in at], k=k if one_k or len(ks) != len(rows) else list(ks[at]),
                semantics=self._semantics(), direction=list(direction[at]), n_jobs=n_jobs,
                progress=None if progress is None else
                (lambda d, _t, base=done: progress(base + d, len(records))),
                stop=stop, **kwargs)
            for j, e in zip(at, part):
                out[j] = (dataclasses.replace(e, positive=bool(decided[j]))
                          if isinstance(e, Explanation) else dataclasses.replace(e, row=int(j)))
            done += len(at)
            if len(part) < len(at):  # stopped: the rows done so far, a prefix
                break
        first_gap = next((j for j, e in enumerate(out) if e is None), len(out))
        return out[:first_gap]

    def _for_class(self, which: np.ndarray, decided: np.ndarray, for_class: Any
                   ) -> tuple[np.ndarray, np.ndarray]:
        """`_explained`'s KB per row and side, or those of the class `for_class` (several
        classes: its KB against the rest, positive where it is the answer, else explained as
        why not; two classes: only the class POS stands for, whose support the bounds are)."""
        if for_class is None:
            return which, decided
        cls = class_named(for_class, self._class_str, "y", "class", "for_class")
        if self.kb_ is not None:
            if cls != self.positive_:
                raise DataError(
                    f"for_class={cls!r}: a two-class model's explanations are for its POS class "
                    f"{self.positive_!r} (the bounds are its support); a row decided "
                    f"{cls!r} is explained as a negative decision — leave for_class unset")
            return which, decided
        i = self._class_str.index(cls)
        return np.full(len(which), i), which == i

    def explain(self, x: Any, k: int = 2, for_class: Any = None, **kwargs: Any):
        """The k features that decide `x` (Algorithm 6) on the binary KB (fewer when `x`
        knows fewer: all it knows; the explanation's `k` is the number used, its `note` says
        why). With more than two classes, the KB of the predicted class (that class against
        the rest) is explained: the features that make it the answer; `for_class` names
        another class to explain (why the row is not it, when it is not the answer). The
        explanation's `explained_class` names the class its bounds and features are for.

        For the Direct variants the search runs on the full Direct KB (`paper_kbs_`): the tuned
        window and prior are chosen for full queries, and sub-queries of k < min_len features
        would have no clause at all under the window.
        """
        check_is_fitted(self, "kbs_")
        if getattr(self, "class_order_", None) is not None:
            if isinstance(x, pd.DataFrame) and len(x) != 1:
                raise DataError(f"explain takes one row; got a table of {len(x)} rows")
            return self._ordered_explain_many(x, k, for_class, False, **kwargs)[0]
        from .explain import explain, known_k

        kb = self._searched(0)
        if isinstance(x, pd.DataFrame):  # one row with its column names (kept: no bare array)
            if len(x) != 1:
                raise DataError(f"explain takes one row; got a table of {len(x)} rows")
            x = self.transform_rows(x).iloc[0].to_dict()
        elif isinstance(x, dict):
            x = pd.Series(x)
        if isinstance(x, pd.Series):
            names = [*self._feature_names(), *getattr(self, "date_parts_", {})]
            unknown = [str(c) for c in x.index if str(c) not in names]
            if unknown:  # say so, not "k=2 …", nor explain without a mistyped feature
                shown = ", ".join(repr(c) for c in unknown[:5])
                what = (f"none of {shown} is a feature" if len(unknown) == len(x) else
                        f"{shown} {'is not a feature' if len(unknown) == 1 else 'are not features'}")
                raise DataError(f"explain: {what} of this classifier (it was fitted on "
                                f"{', '.join(names[:5])}{', …' if len(names) > 5 else ''})")
            row = self._derived(pd.DataFrame([x.to_numpy(dtype=object)],
                                             columns=[str(c) for c in x.index], dtype=object))
            binned = self.discretizer_.transform(row).iloc[0]
            x = {c: binned[c] for c in binned.index}
        elif not isinstance(x, dict):  # bare values, in the fitted column order
            vals = list(np.asarray(x, dtype=object).ravel())
            x = self.transform_rows(np.asarray([vals], dtype=object)).iloc[0].to_dict()
        row = pd.DataFrame([[x.get(f, np.nan) for f in kb.features]], columns=list(kb.features),
                           dtype=object)
        which, decided = self._for_class(*self._explained(row), for_class)
        if kwargs.get("direction", "auto") == "auto":
            kwargs["direction"] = "positive" if decided[0] else "negative"
        kwargs.setdefault("threshold", self._decides_at())
        searched = self._searched(int(which[0]))
        k, note = known_k(searched, x, k, self._semantics())  # fewer known: all of them, said
        e = explain(searched, x, k=k, semantics=self._semantics(), **kwargs)
        return dataclasses.replace(e, positive=bool(decided[0]), note=note)
