"""One user's working state: data, split, KB, rules, selection and the per-session caches behind one key builder."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from plx_core import wording
from plx_core.baselines import DASHBOARD_BASELINES, baseline_scores, scores
from plx_core.checks import checked_threshold, finite_number
from plx_core.data import Binning, Dataset, estimator_rows, row_name, split_copies
from plx_core.encoding import is_missing
from plx_core.errors import DataError, PLXError, SolverError
from plx_core.kb import KB, WeightedClause, check_kb_matches
from plx_core.plurals import noun
from plx_core.query import TIE_EPS, Bounds, BoundsArray, query, query_many, unanswered
from plx_core.rules import rule_group, rule_groups
from plx_core.ruleset import merge_rules
from plx_core.tree import Tree

from .cache import LRU, fingerprint
from .instances import Instance, unique_rows
from .kbs import KB_KINDS, KBSettings, build_kb, default_max_len, with_rules
from .model import ModelChoice
from .rules import next_rule_id, rule_clause, rule_parts, rules_signature, validate_conditions
from .tables import DataSettings, RawTable, case_groups, front_columns, raw_default, split


@dataclass
class Workspace:
    """Everything one user works on. Create with `new_workspace()`."""

    raw: RawTable
    settings: DataSettings
    dataset: Dataset
    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: pd.Series
    y_test: pd.Series
    data_key: str
    kb_settings: KBSettings = field(default_factory=KBSettings)
    kb: KB | None = None
    trees: list[Tree] = field(default_factory=list)
    build_seconds: float = 0.0
    kb_cached: bool = False
    kb_key: tuple | None = None
    kb_note: str = ""
    model: ModelChoice | None = None  # what plx's default chose (kind "auto")
    rules: list[WeightedClause] = field(default_factory=list)
    selected: Instance | None = None
    semantics: str = "auto"
    method: str = "auto"
    kbs: LRU = field(default_factory=lambda: LRU(6))
    results: LRU = field(default_factory=lambda: LRU(512))
    page: tuple | None = None
    """The Data page's (dataset, X_train, X_test, data_key) while the rows are cut where plx's
    default cuts (`_use_cuts`); None: the rows are the Data page's."""

    def fork(self) -> Workspace:
        """A workspace for another session on the same data: it shares the built KBs (never
        changed in place) and starts with no rules, no selection and empty result caches."""
        return replace(self, rules=[], selected=None, kbs=self.kbs.copy(), results=LRU(512))

    # ------------------------------------------------------------------ data

    @property
    def positive(self) -> str:
        return str(self.dataset.positive)

    @property
    def class_name(self) -> str:
        """What POS stands for, readable alone (`malignant`, `Survived = 1`), carrying the
        other class as the file writes it (`no event`; `not …` where several are grouped)."""
        from plx_core.wording import class_name

        schema = self.dataset.schema
        grouped = schema is not None and bool(schema.label_map)
        others = () if grouped else self.dataset.y.unique()
        return class_name(self.positive, self.settings.label, others)

    @property
    def n_train_rows(self) -> int:
        """The training rows of the user's table: `X_train` less the balancing's repeats
        (which share their row's index), so that training and test add up to the table."""
        return int(self.X_train.index.nunique())

    @property
    def features(self) -> tuple[str, ...]:
        return tuple(str(c) for c in self.dataset.X.columns)

    def domains(self) -> dict[str, tuple[str, ...]]:
        if self.kb is not None:
            return {f: self.kb.domains.get(f, ()) for f in self.features}
        from plx_core.encoding import natural_key

        return {f: tuple(sorted(self.X_train[f].dropna().astype(str).unique(), key=natural_key))
                for f in self.features}

    def part(self, name: str) -> tuple[pd.DataFrame, pd.Series]:
        if name == "test":
            return self.X_test, self.y_test
        if name == "train":
            X = unique_rows(self.X_train)
            return X, self.y_train[~self.y_train.index.duplicated(keep="first")]
        raise DataError(f"part must be 'test' or 'train', not {name!r}")

    # ------------------------------------------------------------------ KB

    def ensure_kb(self, progress: Callable[[float, str], None] | None = None) -> KB:
        if self.kb is None:
            self.set_kb(self.kb_settings, progress)
        assert self.kb is not None
        return self.kb

    def set_kb(self, settings: KBSettings, progress: Callable[[float, str], None] | None = None) -> KB:
        """Build (or fetch from this session's cache) the KB for the data and settings."""
        self._use_cuts(None)  # every KB is keyed and built on the Data page's rows
        key = ("kb", self.data_key, settings.key())
        cached = key in self.kbs
        kb, trees, secs, model = self.kbs.get(key, lambda: self._build(key, settings, progress))
        self.kb, self.trees, self.build_seconds, self.model = kb, trees, secs, model
        self.kb_settings, self.kb_key, self.kb_cached = settings, key, cached
        self.kb_note = ""
        self._use_cuts(model.bins if model is not None else None)
        return kb

    def _use_cuts(self, bins: Mapping[str, Binning] | None) -> None:
        """Cut the rows where the KB in use cuts them: where plx's default's model cuts
        (`ModelChoice.bins`) when its bins are not the Data page's — the vote on finer bins
        answers on its own cut points, as `PLXClassifier` does —, else as the Data page cuts.
        Queries, explanations, instance lists and the Data page's cut points then use them;
        a row picked from the data is picked again with its values so cut."""
        if self.page is not None:
            self.dataset, self.X_train, self.X_test, self.data_key = self.page
            self.page = None
            self._reselect()
        schema = self.dataset.schema
        if not bins or schema is None or all(
                f in schema.bins and (b.cuts, b.labels) == (schema.bins[f].cuts, schema.bins[f].labels)
                for f, b in bins.items()):
            return
        self.page = (self.dataset, self.X_train, self.X_test, self.data_key)
        new = {f: b for f, b in bins.items() if f not in schema.bins}  # a few whole numbers
        cut = replace(schema, bins={**schema.bins, **bins},  # the fit read as ordered numbers
                      kinds={**schema.kinds, **{f: "numeric" for f in new}},
                      categories={**schema.categories, **{f: tuple(b.labels) for f, b in new.items()}})
        ds = self.dataset
        X, _ = cut.apply(self.raw.frame.loc[ds.X.index])
        self.dataset = Dataset(ds.name, X, ds.y, ds.positive, ds.description, cut)
        self.X_train, self.X_test = X.loc[self.X_train.index], X.loc[self.X_test.index]
        self.data_key = fingerprint(self.data_key, *((f, b.cuts) for f, b in bins.items()))
        self._reselect()

    def model_cut_points(self) -> pd.DataFrame | None:
        """The cut points in effect when plx's default cuts where the Data page does not
        (`tables.cut_points` of the rows as cut now); None when the Data page's are."""
        from .tables import cut_points

        return cut_points(self.dataset) if self.page is not None else None

    def _reselect(self) -> None:
        """The selected row's values as the rows are cut now (an edited query is kept when
        its values still fit, else dropped)."""
        from .instances import instance_from_row

        sel = self.selected
        if sel is None:
            return
        if sel.origin in ("test", "train") and sel.row is not None:
            X, y = self.part(sel.origin)
            if sel.row in X.index:
                self.selected = instance_from_row(X, y, sel.row, sel.origin)
                return
        if validate_conditions(list(sel.known().items()), self.domains()):
            self.selected = None

    def kb_for(self, settings: KBSettings,
               progress: Callable[[float, str], None] | None = None) -> tuple[KB, tuple]:
        """Another KB on the same data (e.g. a Tree KB to compare with), from the session cache
        when built before; the current KB stays as it is."""
        key = ("kb", self.data_key, settings.key())
        kb, _, _, _ = self.kbs.get(key, lambda: self._build(key, settings, progress))
        return kb, key

    def default_model(self) -> ModelChoice | None:
        """What plx's default chooses on the Data page's rows (built once, from the cache)."""
        key = ("kb", (self.page or (None,) * 4)[3] or self.data_key, KBSettings().key())
        return self.kbs.get(key, lambda: self._build(key, KBSettings(), None))[3]

    def _domains_of(self, kb: KB) -> dict[str, tuple[str, ...]]:
        """The values the rows as cut now take, for the features `kb` has."""
        from plx_core.encoding import natural_key

        X = pd.concat([self.X_train, self.X_test])
        return {f: tuple(sorted(X[f].dropna().astype(str).unique(), key=natural_key))
                for f in self.features if f in kb.features}

    def _build(self, key: tuple, settings: KBSettings,
               progress: Callable[[float, str], None] | None) -> tuple:
        """`build_kb` on the training rows; on a built-in table (public data, the same for
        every user) once per process (`BUILTIN_KBS`), so a first page load does not refit; on
        an uploaded one kept for the process's other sessions on the same rows and settings
        (`BUILT_KBS`), so a browser refresh, which opens the project in a new session, does
        not refit it (13 s on 1,050 rows x 30 columns at load 10, words21's walk)."""
        def make() -> tuple:
            raw = None
            if (settings.kind == "auto" and self.dataset.schema is not None
                    and self.settings.cuts_as_estimator()):
                # numbers as numbers, as `plx fit` fits them: the estimator cuts them itself
                schema = self.dataset.schema
                rows, _ = estimator_rows(schema, self.raw.frame, self.X_train)
                raw = (rows, schema.bins)
            return build_kb(self.X_train, self.y_train, self.positive, settings, progress, raw,
                            case_groups(self.raw, self.settings),
                            class_weight=None if self.settings.balance == "none" else "balanced")

        if self.raw.source != "builtin":
            shared = (*key, repr(self.settings))  # the rows' hash and every setting that made them
            with _BUILTIN_LOCK:
                if shared in BUILT_KBS:
                    return BUILT_KBS.get(shared, make)
            built = make()  # outside the lock: another session's fit does not wait for this one
            with _BUILTIN_LOCK:
                return BUILT_KBS.get(shared, lambda: built)
        with _BUILTIN_LOCK:
            return BUILTIN_KBS.get(key, make)

    def import_kb(self, text: str | bytes, rules: str = "merge") -> KB:
        """Use a KB read from JSON (its features must be the data's features). Its rules are
        merged into the session's (`rules="merge"`: a KB without rules keeps them) or replace
        them (`"replace"`)."""
        if rules not in ("merge", "replace"):
            raise DataError(f"rules must be 'merge' or 'replace', not {rules!r}")
        kb = KB.from_json(text)
        missing = [f for f in self.features if f not in kb.features]
        extra = [f for f in kb.features if f not in self.features]
        if missing or extra:
            raise DataError(
                "the imported KB does not fit the data: "
                + (f"it lacks the {noun(len(missing), 'feature')} {missing}" if missing else "")
                + ("; " if missing and extra else "")
                + (f"it has {noun(len(extra), 'feature')} the data lacks {extra}" if extra else "")
            )
        # a KB for the other class (or for other values) would answer every row flipped: refuse.
        # It answers on the Data page's bins, or on plx's default's own cut points (the one
        # other binning the dashboard answers with: a KB it exported under the default)
        self._use_cuts(None)
        try:
            check_kb_matches(kb, self.features, self._domains_of(kb), self.positive)
        except DataError:
            model = self.default_model()
            if model is None or not model.bins:
                raise
            self._use_cuts(model.bins)
            try:
                check_kb_matches(kb, self.features, self._domains_of(kb), self.positive)
            except DataError:
                self._use_cuts(None)
                raise
        incoming = [c for c in kb.extra if c.source == "rule"]
        base = kb.without_rules()
        base.index()
        key = ("kb", "import", fingerprint(text))
        self.kbs.get(key, lambda: (base, [], 0.0, None))
        self.kb, self.trees, self.build_seconds, self.kb_key = base, [], 0.0, key
        self.model = None
        self.kb_cached = False
        self.kb_note = f"imported ({KB_KINDS.get(base.kind, base.kind)}, {len(base):,} clauses)"
        self.rules = list(incoming) if rules == "replace" else merge_rules(self.rules, incoming)
        return base

    def current_kb(self) -> KB:
        """The KB with the enabled rules (cached per rule set)."""
        base = self.ensure_kb()
        enabled = [r for r in self.rules if r.enabled]
        if not enabled:
            return base
        return self.cached("kb+rules", scope="kb", make=lambda: with_rules(base, enabled))

    def explained_kb(self, rules: bool = True) -> KB:
        """The KB explanations search, with the enabled rules unless `rules` is False: under
        plx's default the full Direct KB behind a tuned one (as `PLXClassifier.explain`
        searches), else the KB in use."""
        searched = self.model.searched if self.model is not None else None
        if searched is None:
            return self.current_kb() if rules else self.ensure_kb()
        enabled = [r for r in self.rules if r.enabled]
        if not enabled or not rules:
            return searched
        return self.cached("searched+rules", scope="kb",
                           make=lambda: with_rules(searched, enabled))

    def rules_key(self) -> tuple:
        return rules_signature(self.rules)

    @property
    def kb_name(self) -> str:
        """The KB in use in words (`plx's default`, `KBSettings.label`, `imported (…)`)."""
        self.ensure_kb()
        return self.kb_note or self.kb_settings.label()

    def view(self, rules: bool = True) -> KBView:
        """The session's KB (with its enabled rules unless `rules` is False) and its key."""
        if rules:
            return KBView(f"{self.kb_name} with rules", self.current_kb(),
                          (self.kb_key, self.rules_key()))
        return KBView(self.kb_name, self.ensure_kb(), (self.kb_key, ()))

    def is_own(self, view: KBView) -> bool:
        """Whether `view` is the KB in use (with or without its rules)."""
        return view.key[0] == self.kb_key

    def comparison_views(self, progress: Callable[[float, str], None] | None = None
                         ) -> list[KBView | None]:
        """The KBs the Explain page sets side by side: the KB in use when it is neither of the
        paper's two (plx's default, first), Direct (the current cap, or the cap the Data page
        gives a Direct KB on these rows: uncapped, 20 columns needed 30 GiB), a Tree KB from the
        leaves, and the KB in use with the enabled rules (None without rules). Built KBs come
        from the session cache; the current KB stays as it is."""
        say = progress or (lambda f, t: None)
        ml = (self.kb_settings.max_len if self.kb_settings.kind == "direct"  # else the cap a
              else default_max_len(*self.X_train.shape))  # Direct KB on the Data page gets
        out: list[KBView | None] = []
        if self.kb_settings.kind not in ("direct", "tree") or self.kb_note:
            out.append(self.view(rules=False))
        for i, s in enumerate([KBSettings("direct", ml), KBSettings("tree")]):
            kb, key = self.kb_for(s, lambda f, t, i=i: say((i + f) / 3, t))
            out.append(KBView(s.label(), kb, (key, ())))
        if any(r.enabled for r in self.rules):
            out.append(self.view())
        else:
            out.append(None)
        say(1.0, "Ready")
        return out

    # ------------------------------------------------------------------ the one cache

    def key(self, kind: str, *parts: Hashable, scope: str = "answer",
            view: KBView | None = None) -> tuple:
        """The one cache-key builder: a result of `kind` depends on the data (scope "data"),
        also on the KB and its enabled rules ("kb"), and also on the query settings ("answer"),
        plus `parts` (e.g. the instance's values)."""
        if scope == "data":
            return (kind, self.data_key, *parts)
        if scope not in ("kb", "answer"):
            raise ValueError(f"scope must be 'data', 'kb' or 'answer', not {scope!r}")
        kb_key = view.key if view is not None else (self.kb_key, self.rules_key())
        base = (kind, self.data_key, kb_key)
        return base + parts if scope == "kb" else base + (self.semantics, self.method,
                                                          self.threshold, *parts)

    def cached(self, kind: str, *parts: Hashable, make: Callable[[], Any], scope: str = "answer",
               view: KBView | None = None) -> Any:
        """`make()` computed once per session for the key `key(kind, *parts, …)`."""
        return self.results.get(self.key(kind, *parts, scope=scope, view=view), make)

    def is_cached(self, kind: str, *parts: Hashable, scope: str = "answer",
                  view: KBView | None = None) -> bool:
        return self.key(kind, *parts, scope=scope, view=view) in self.results

    # ------------------------------------------------------------------ settings and rules

    @property
    def threshold(self) -> float:
        """The decision threshold that answers on every page: the user's (`set_threshold`),
        else the model's own (positive iff the mean of the bounds is above it)."""
        own = self.kb_settings.threshold
        return own if own is not None else self.own_threshold

    @property
    def own_threshold(self) -> float:
        """The model's own threshold: the default's chosen one (kind "auto"), else the paper's 0.5."""
        return self.model.threshold if self.model is not None else THRESHOLD

    def set_threshold(self, threshold: float | None) -> None:
        """Decide at `threshold` on every page, as `plx fit --threshold` (None: the model's own
        again); kept with the KB settings, so a project saves it and a refresh keeps it."""
        if threshold is not None:  # checked as plx fit --threshold (`KBSettings`: one home)
            threshold = round(checked_threshold(threshold), 4)
        self.kb_settings = replace(self.kb_settings, threshold=threshold)

    def recorded_label(self, inst: Any) -> str | None:
        """The class the table records for the data row `inst` is (None: an edited instance):
        with several classes the row's own ('asthma'), not the 'not pneumonia' the binary KB
        learns, so that every page and the case report name the class the clinician wrote."""
        if inst is None or inst.origin not in ("test", "train") or inst.row is None:
            return None
        if inst.row not in self.raw.frame.index or self.settings.label not in self.raw.frame:
            return inst.label
        v = self.raw.frame.loc[inst.row, self.settings.label]
        if isinstance(v, pd.Series):
            v = v.iloc[0]
        return inst.label if is_missing(v) else _label_text(v)

    def recorded_labels(self, part: str = "test") -> pd.Series:
        """`recorded_label` of every row of a split part (the Query page's rows and its Label
        filter): the table's own classes, the KB's labels where the table has none."""
        X, y = self.part(part)
        y = y.astype(str)
        frame, label = self.raw.frame, self.settings.label
        if label not in frame or not X.index.isin(frame.index).all():
            return y
        v = frame[label][~frame.index.duplicated()].reindex(X.index)
        codes, uniques = pd.factorize(v.to_numpy(dtype=object))  # each class written once
        text = np.array([None if is_missing(u) else _label_text(u) for u in uniques] + [None],
                        dtype=object)[codes]  # code −1 (missing): the last
        return pd.Series(np.where(pd.isna(text), y.to_numpy(dtype=object), text),
                         index=X.index, name=y.name)

    @property
    def learner(self) -> str:
        """What the model that answers learns from (`wording.LEARNERS`): plx's default weighs
        the classes (or not, with no balancing chosen); the other kinds learn from the rows
        as balanced."""
        if self.kb_settings.kind != "auto":
            return "rows"
        return "mix" if self.settings.balance == "none" else "weighted"

    def threshold_said(self) -> str:
        """The threshold in use in words, whose it is (the sidebar, the Knowledge base page)."""
        return wording.threshold_in_use(self.threshold, self.own_threshold,
                                        self.kb_settings.threshold is not None)

    @property
    def answer_semantics(self) -> str:
        """The semantics queries run with: the chosen setting, where "auto" under plx's
        default means the semantics its chosen model answers with."""
        if self.semantics == "auto" and self.model is not None:
            return self.model.semantics
        return self.semantics

    def decides(self, b: Bounds) -> bool:
        """Whether bounds are answered POS at the threshold in use (a tie is not)."""
        return b.mean > self.threshold + TIE_EPS

    def decision_word(self, b: Bounds) -> str:
        """The decision of bounds in words at the threshold in use: POS, NOT POS or a tie."""
        return decision_word(b, self.threshold)

    def set_query_settings(self, semantics: str, method: str) -> None:
        """Which clauses a query uses ("auto" | "relevant" | "full") and how it is solved
        ("auto" | "lp")."""
        if semantics not in SEMANTICS:
            raise DataError(f"semantics must be one of {list(SEMANTICS)}, not {semantics!r}")
        if method not in METHODS:
            raise DataError(f"method must be one of {list(METHODS)}, not {method!r}")
        self.semantics, self.method = semantics, method

    def add_rule(self, conditions: Sequence[tuple[str, str]], head: str, p: float,
                 w: float | None) -> tuple[WeightedClause | None, list[str]]:
        """Add `IF conditions THEN head [p, w]`; returns (the rule, []) or (None, the problems
        in plain words)."""
        problems = validate_conditions(conditions, self.domains())
        if w is None:  # the form starts with none: a weight is the expert's choice
            from plx_core.wording import rule_weight_needed

            problems.append(rule_weight_needed(self.ensure_kb().rule_unit()))
        if finite_number(p) and not 0.0 <= p <= 1.0:
            problems.append("p must be between 0 and 1.")
        if finite_number(w) and not w > 0:
            problems.append("w must be greater than 0.")
        if problems:
            return None, problems
        try:  # NaN, inf, 1e308, text: the clause's own words (w = inf raised past the form)
            rule = rule_clause(conditions, head, p, w, next_rule_id(self.rules))
        except PLXError as exc:
            return None, [str(exc)]
        dup = [r for r in self.rules if set(r.literals) == set(rule.literals)]
        if dup:
            return None, [f"The same rule is already there as {dup[0].id}; edit it instead."]
        self.rules = [*self.rules, rule]
        return rule, []

    def add_rules_text(self, text: str) -> list[WeightedClause]:
        """Add the rules of `text` (the engine's rule grammar, checked against the KB)."""
        from plx_core.rules import parse_rules
        from plx_core.wording import RULE_W_MISSING

        # a dropped column said so: the Data page's (an ID, before any KB) and the model's own
        schema = self.dataset.schema
        left_out = {**(schema.excluded if schema is not None else {}),
                    **(dict(self.model.excluded) if self.model is not None else {})}
        new = parse_rules(text, kb=self.current_kb(), left_out=left_out,
                          need_w=RULE_W_MISSING)  # no weight is guessed for the expert
        if not new:
            raise DataError("type at least one rule")
        self.rules = [*self.rules, *new]
        return new

    def rule_examples(self) -> tuple[str | None, str | None]:
        """The Rules page's example rule and comparison (`wording.rule_examples`): on the
        model's columns, distinct, and neither a rule already there."""
        from plx_core.wording import rule_examples

        return rule_examples(self.ensure_kb(), self.rules)

    def rule_groups(self) -> list[tuple[str, list[WeightedClause]]]:
        """(rule id, its clauses) in order: a rule as the user wrote it, one OR rule (a
        comparison on a number is the OR of its bins: `r1.1` … `r1.8`) under one id."""
        return rule_groups(self.rules)

    def rules_count(self) -> tuple[int, int]:
        """(rules, enabled rules), a rule counted once however many bins or OR parts it has."""
        groups = self.rule_groups()
        return len(groups), sum(all(c.enabled for c in cs) for _, cs in groups)

    def edit_rule(self, rule_id: str, *, p: float, w: float, enabled: bool) -> None:
        """Set p, w and on/off of a whole rule (every clause of an OR rule)."""
        self.rule(rule_id)  # an unknown id is named, never silently ignored
        self.rules = [replace(r, p=float(p), w=float(w), enabled=bool(enabled))
                      if rule_group(r.id or "") == rule_id else r for r in self.rules]

    def delete_rule(self, rule_id: str) -> None:
        """Remove a whole rule (every clause of an OR rule)."""
        self.rule(rule_id)
        self.rules = [r for r in self.rules if rule_group(r.id or "") != rule_id]

    def rule(self, rule_id: str) -> list[WeightedClause]:
        """The clauses of rule `rule_id` (one, or the parts of an OR rule)."""
        for g, cs in self.rule_groups():
            if g == rule_id:
                return cs
        raise DataError(f"there is no rule {rule_id!r}")

    # ------------------------------------------------------------------ queries

    def query(self, inst: Instance | Mapping[str, Any], rules: bool = True,
              view: KBView | None = None) -> Bounds:
        """ω(POS) bounds of an instance (cached)."""
        values = inst.known() if isinstance(inst, Instance) else {
            f: v for f, v in inst.items() if not is_missing(v)}
        v = view or self.view(rules)
        return self.cached("query", tuple(sorted(values.items())), view=v,
                           make=lambda: query(v.kb, values, semantics=self.answer_semantics,
                                              method=self.method))

    def decisions(self, part: str = "test", rules: bool = True) -> pd.DataFrame:
        """Bounds and decision for every row of a split part (cached)."""
        X, y = self.part(part)
        v = self.view(rules)
        return self.cached("decisions", part, view=v,
                           make=lambda: decision_frame(v.kb, X, y, self.positive,
                                                       self.answer_semantics, self.method,
                                                       self.threshold))

    def truth(self, part: str = "test") -> np.ndarray:
        """Whether each row of a split part is POS."""
        return (self.part(part)[1].astype(str) == self.positive).to_numpy()

    def scores(self, part: str = "test", rules: bool = True,
               decisions: pd.DataFrame | None = None) -> dict[str, float]:
        """F1, precision, sensitivity, specificity, accuracy and counts of plx's decisions on a
        split part (`decisions`: a `decisions(part)` frame already at hand)."""
        d = self.decisions(part, rules) if decisions is None else decisions
        return scores(self.truth(part), d["decision"].to_numpy() == "POS")

    def copies(self) -> tuple[np.ndarray, int]:
        """Which test rows repeat a training row in every feature column (`data.split_copies`,
        on the columns as uploaded, not their bins), and how many also repeat its label."""
        def make() -> tuple[np.ndarray, int]:
            raw, feats = self.raw.frame, list(self.features)
            usable = set(feats) <= set(raw.columns) and self.X_test.index.isin(raw.index).all() \
                and self.X_train.index.isin(raw.index).all()
            tr = raw.loc[self.X_train.index, feats] if usable else self.X_train
            te = raw.loc[self.X_test.index, feats] if usable else self.X_test
            both = split_copies(tr.assign(**{"\x00label": self.y_train.astype(str).to_numpy()}),
                                te.assign(**{"\x00label": self.y_test.astype(str).to_numpy()}))
            return split_copies(tr, te), int(both.sum())
        return self.cached("split copies", scope="data", make=make)

    def copies_said(self, decisions: pd.DataFrame) -> str:
        """The sentence the test score is shown with when test rows repeat training rows
        (`wording.copies_said`, with the F1 of the others on `decisions`); "" when none."""
        mask, same = self.copies()
        rest = ~mask
        truth = self.truth("test")
        f1 = (scores(truth[rest], decisions["decision"].to_numpy()[rest] == "POS")["F1"]
              if rest.any() and truth[rest].any() else None)
        return wording.copies_said(int(mask.sum()), len(mask), same, f1)

    def uninformed_said(self, decisions: pd.DataFrame) -> str:
        """The sentence the test score is shown with when some rows of `decisions` get the
        bounds [0, 1] (no clause bears on them), which the threshold alone decides
        (`query.uninformed_note`, as `plx predict` says it); "" when none."""
        from plx_core.query import uninformed_note

        bare = ((decisions["lower"] <= 0) & (decisions["upper"] >= 1)).to_numpy()
        if not bare.any():
            return ""
        i = int(np.flatnonzero(bare)[0])
        pos, neg = wording.class_names(self.class_name)
        word = pos if decisions["decision"].iloc[i] == "POS" else neg
        return uninformed_note(int(bare.sum()), row_name(decisions.index, i), self.threshold,
                               f"{word!r}" + (" (a tie at the threshold)"
                                              if decisions["tie"].iloc[i] else ""))

    def baselines(self, progress: Callable[[float, str], None] | None = None) -> pd.DataFrame:
        """Test scores of the dashboard's baselines on the same split, fitted when first asked
        (`progress` told before each model) and then kept per rows and seed for the session and
        the process's others (`BASELINE_SCORES`: a browser refresh does not fit them again)."""
        key = self.key("baselines", self.settings.seed, scope="data")

        def make() -> pd.DataFrame:
            with _BUILTIN_LOCK:
                if key in BASELINE_SCORES:
                    return BASELINE_SCORES.get(key, lambda: None)
            fitted = baseline_scores(self.X_train, self.y_train, self.X_test, self.y_test,
                                     self.positive, DASHBOARD_BASELINES, self.settings.seed,
                                     progress)  # outside the lock: other sessions do not wait
            with _BUILTIN_LOCK:
                return BASELINE_SCORES.get(key, lambda: fitted)
        return self.cached("baselines", self.settings.seed, scope="data", make=make)

    def baselines_fitted(self) -> bool:
        """Whether `baselines()` answers without fitting (this session or another fitted them)."""
        key = self.key("baselines", self.settings.seed, scope="data")
        with _BUILTIN_LOCK:
            return key in self.results or key in BASELINE_SCORES

    def against_models(self, s: Mapping[str, float]) -> tuple[pd.DataFrame, float | None]:
        """plx's test scores `s` (`scores`) as the first row above the baselines' (column
        "model" in words), and the best F1 of a baseline that learns (not the majority
        class; None without one): the Evaluate page's table and its few-found note. With rules
        enabled plx's row names them and the next row is plx without them (the walk's expert
        rule took plx's F1 from 0.525 to 0.352, below logistic regression's 0.521, under a
        row named "plx (plx's default)": the rule's doing, read as the model's)."""
        base = self.baselines()
        n_on = self.rules_count()[1]
        ours = [{"model": wording.plx_row_said(self.kb_name, n_on), **s}]
        if n_on:
            ours.append({"model": wording.plx_row_said(self.kb_name, n_on, without=True),
                         **self.scores("test", rules=False)})
        table = pd.concat([pd.DataFrame(ours), base.assign(model=base["label"])],
                          ignore_index=True)
        learned = base.loc[base["model"] != "majority", "F1"]  # by key, not its wording
        return table, float(learned.max()) if len(learned) else None

    def rules_effect(self) -> RulesEffect:
        """The test decisions without and with the enabled rules, the scores of both, the rows
        whose decision flips, and the selected instance's bounds both ways."""
        before, after = self.decisions("test", rules=False), self.decisions("test", rules=True)
        flips = before.index[before["decision"].to_numpy() != after["decision"].to_numpy()]
        said = dict(zip(("POS", "NOT POS"), wording.class_names(self.class_name)))  # as Query's
        table, _ = front_columns(self.X_test.loc[flips], {  # the Rules page shows it as it is
            "label": self.recorded_labels("test").loc[flips],  # the row's own class, 'moderate'
            "plx before": before.loc[flips, "decision"].map(said),
            "plx after": after.loc[flips, "decision"].map(said),
            "support before": before.loc[flips, "mean"].round(3),
            "support after": after.loc[flips, "mean"].round(3),
            "now right": after.loc[flips, "correct"]})
        sel = self.selected
        pair = (self.query(sel, rules=False), self.query(sel, rules=True)) if sel else None
        return RulesEffect(self.scores("test", False), self.scores("test", True), table, sel, pair)

    def set_selected(self, inst: Instance | None) -> None:
        self.selected = inst


BUILTIN_KBS = LRU(6)
"""KBs built on the built-in tables, shared by every session of the process: public data,
and a built KB (with its trees and the default's choice) is never changed in place."""
BASELINE_SCORES = LRU(8)
"""The baselines' test scores per rows (a content hash, `data_key`) and seed, for the process's
sessions: the fits are deterministic, so a refresh or a second tab on the same rows shows them
at once (fitting the six took 10.9 s on 5,000 rows at load 10, words22's walk)."""
BUILT_KBS = LRU(4)
"""KBs built on uploaded tables, for the process's other sessions on the same rows (a content
hash) and settings: a fit is deterministic and a built KB never changed in place, so a browser
refresh or a second tab answers with the same KB without fitting it again."""
_BUILTIN_LOCK = threading.Lock()
def _label_text(v: Any) -> str:
    """A label cell as the pages write it: 1.0 as '1'."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


THRESHOLD = wording.THRESHOLD
SEMANTICS = {"auto": "auto (relevant clauses for a Direct KB, the full KB otherwise)",
             "relevant": "relevant clauses only (Algorithm 5)", "full": "the full KB"}
METHODS = {"auto": "auto (exact weighted median when possible, else the LP)",
           "lp": "always the LP (cvxpy + HiGHS)"}


@dataclass(frozen=True)
class KBView:
    """A KB to answer with and the key that names it (its build settings and rule set)."""

    name: str
    kb: KB
    key: Hashable


@dataclass(frozen=True)
class RulesEffect:
    """What the enabled rules change on the test split."""

    before: dict[str, float]
    after: dict[str, float]
    flips: pd.DataFrame
    selected: Instance | None
    selected_bounds: tuple[Bounds, Bounds] | None


def decision_word(b: Bounds, threshold: float = THRESHOLD) -> str:
    """The decision of bounds in words at `threshold`: POS, NOT POS, or a tie (reported
    NOT POS)."""
    return wording.decision_word(b.lower, b.upper, "POS", threshold)


def decision_frame(kb: KB, X: pd.DataFrame, y: pd.Series | None, positive: str,
                   semantics: str = "auto", method: str = "auto",
                   threshold: float = THRESHOLD) -> pd.DataFrame:
    """Bounds and decision (positive iff the mean is above `threshold`) of every row of X."""
    ba: BoundsArray = query_many(kb, X, semantics=semantics, method=method)
    note = unanswered(ba.notes, "no decision, so nothing is scored", lambda r: row_name(X.index, r))
    if note is not None:  # a row without bounds has no decision: scores over the others mislead
        raise SolverError(str(note))
    pos = ba.mean > threshold + TIE_EPS
    out = pd.DataFrame({"lower": ba.lower, "upper": ba.upper, "mean": ba.mean,
                        "decision": np.where(pos, "POS", "NOT POS"),
                        "tie": np.abs(ba.mean - threshold) <= TIE_EPS, "method": ba.method},
                       index=X.index)
    if y is not None:
        truth = (y.astype(str) == str(positive)).to_numpy()
        out["label"] = y.astype(str).to_numpy()
        out["correct"] = truth == pos
    return out


def new_workspace(raw: RawTable | None = None, settings: DataSettings | None = None,
                  build: bool = True, kb: KBSettings | None = None) -> Workspace:
    """A workspace on `raw` (default: the built-in diagnosis set, split 70/30 with seed 0),
    with its KB (`kb`; default: plx's default, the model `PLXClassifier()` fits) built unless
    `build` is False."""
    raw = raw if raw is not None else raw_default()
    settings = settings if settings is not None else raw.defaults
    ws = _workspace_for(raw, settings)
    ws.kb_settings = kb if kb is not None else KBSettings()
    if build:
        ws.ensure_kb()
    return ws



def _workspace_for(raw: RawTable, settings: DataSettings) -> Workspace:
    parts = split(raw, settings)  # numeric columns cut on the training rows only
    ds, X_tr, X_te, y_tr, y_te = (parts.dataset, parts.X_train, parts.X_test, parts.y_train,
                                  parts.y_test)
    key = fingerprint(raw.fingerprint, X_tr, y_tr, X_te, y_te, ds.positive,
                      *(() if settings.case_column is None else ("case", settings.case_column)))
    # (the same rows fitted by case: another model)
    return Workspace(raw, settings, ds, X_tr, X_te, y_tr, y_te, key)


def use_data(ws: Workspace, raw: RawTable, settings: DataSettings) -> list[str]:
    """Switch the workspace to new data (in place). Keeps the KB cache; drops the selection and
    the rules that no longer fit the features and values. Returns notes for the user."""
    fresh = _workspace_for(raw, settings)
    notes = []
    old_rules = ws.rules
    was = (ws.settings.label, ws.dataset.positive)
    if fresh.raw.fingerprint != ws.raw.fingerprint:  # another table: plx's default answers
        ws.kb_settings = KBSettings(random_state=ws.kb_settings.random_state)
    elif ws.kb_settings.threshold is not None and (fresh.settings.label,
                                                   fresh.dataset.positive) != was:
        # a threshold chosen for one class is no threshold for another
        notes.append(wording.threshold_dropped(ws.kb_settings.threshold,
                                               f"{was[0]} = {was[1]}"))
        ws.kb_settings = replace(ws.kb_settings, threshold=None)
    for name in ("raw", "settings", "dataset", "X_train", "X_test", "y_train", "y_test", "data_key"):
        setattr(ws, name, getattr(fresh, name))
    ws.page = None
    ws.kb = None
    ws.kb_key = None
    ws.trees = []
    ws.model = None
    ws.selected = None
    kind = ws.kb_settings.kind
    ml = default_max_len(*ws.X_train.shape) if kind == "direct" else ws.kb_settings.max_len
    ws.kb_settings = replace(ws.kb_settings, max_len=ml)
    if kind == "direct" and ml is not None:
        notes.append(f"With {ws.X_train.shape[1]} features the Direct KB is capped at max_len={ml} "
                     "(change it on the Knowledge base page).")
    now = (ws.settings.label, ws.dataset.positive)
    if old_rules and now != was:  # THEN names the class the expert wrote it for: never another
        notes.append(wording.rules_set_aside(len(rule_groups(old_rules)), f"{was[0]} = {was[1]}",
                                             f"{now[0]} = {now[1]}"))
        old_rules = []
    doms = ws.domains()
    kept = [(g, cs) for g, cs in rule_groups(old_rules)  # a rule goes whole: no OR rule halved
            if not any(validate_conditions(rule_parts(r)[0], doms) for r in cs)]
    ws.rules = [r for _, cs in kept for r in cs]
    dropped = len(rule_groups(old_rules)) - len(kept)
    if dropped:
        notes.append(f"{wording.counted(dropped, 'rule')} did not fit the new data and "
                         f"{'was' if dropped == 1 else 'were'} removed.")
    return notes
