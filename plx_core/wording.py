"""What the dashboard and the case report say about an answer, in plain words.

The one home for the wording of a decision: one sentence per answer, every clause as
`IF … THEN …`, the evidence and ties in words, what ω(POS) means, and plain names for the
solver details shown under "Advanced". Every function returns plain text (no markdown, no
HTML): callers show it through a text widget or escape it, because feature names and values
come from user files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .clause import PRIOR_ID, WeightedClause
from .errors import PLXError
from .plurals import counted, noun, number_word, plural, verb
from .query import TIE_EPS
from .tokens import condition_text

if TYPE_CHECKING:
    from .kb import KB

THRESHOLD = 0.5


def fmt(x: float, digits: int = 2) -> str:
    """A probability as shown to a reader: 2 decimals, 3 where 2 would hide a difference."""
    x = float(x)
    if np.isnan(x):
        return "unknown"
    return f"{x:.{digits}f}"


def _join(items: Sequence[str], last: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _cap(text: str) -> str:
    """The first letter upper-cased (for sentences that start with a number word)."""
    return text[:1].upper() + text[1:]


def condition(feature: str, value: Any) -> str:
    """`feature = value`, names and values quoted where the rule grammar needs it (`"worst
    radius" = "[13.5, 16.82)"`: a name with a space or '=' reads one way only, and the text
    reads back as a condition); no markup."""
    return condition_text(str(feature), str(value), sep=" = ")


def values_condition(feature: str, allowed: Sequence[Any], domain: Sequence[Any]) -> str:
    """A feature held to some of its values, in the shorter way: `safety = high`,
    `safety ≠ low`, `buying ∈ {high, vhigh}` or `buying ∉ {low, med}` (a binary tree's
    path; no quoting, no markup)."""
    keep = [str(v) for v in allowed]
    rest = [str(v) for v in domain if str(v) not in set(keep)]
    if len(keep) == 1:
        return condition(feature, keep[0])
    if len(rest) == 1:
        return f"{feature} ≠ {rest[0]}"
    if len(keep) <= len(rest) or not rest:
        return f"{feature} ∈ {{{', '.join(keep)}}}"
    return f"{feature} ∉ {{{', '.join(rest)}}}"


# --------------------------------------------------------------------------- the class names


_PLAIN_VALUES = {"true", "false", "yes", "no", "y", "n", "t", "f", "pos", "neg"}


class ClassName(str):
    """The name of the class POS stands for, as shown (`event`, `Survived = 1`), that also
    carries the name of the other side as the file writes it (`negative`: `no event`,
    `Survived = 0`; None where the other side is several values grouped, read `not event`):
    every wording that takes `positive` names both classes from it (`class_names`)."""

    negative: str | None

    def __new__(cls, name: Any, negative: Any = None) -> ClassName:
        obj = super().__new__(cls, str(name))
        obj.negative = None if negative is None else str(negative)
        return obj

    def __reduce__(self):  # pickled and cached as it is shown, with its other side
        return (ClassName, (str(self), self.negative))


def class_name(positive: Any, label: str | None = None, others: Sequence[Any] = ()) -> str:
    """What POS stands for, readable alone: the class value (`malignant`), or with its label
    column when the value means nothing alone (`Survived = 1`, `smoker = yes`). `others`: the
    label's other values; one value is the negative class, named as the file writes it
    (`no event`, `Survived = 0`), several are grouped (`not …`, `class_names`)."""

    def one(v: Any) -> str:
        value = str(v)
        bare = value.strip().lower() in _PLAIN_VALUES
        try:
            float(value)
            bare = True
        except ValueError:
            pass
        return f"{label} = {value}" if bare and label else value

    rest = [o for o in dict.fromkeys(str(o) for o in others) if o != str(positive)]
    return ClassName(one(positive), one(rest[0]) if len(rest) == 1 else None)


LISTED_VALUES = 12
"""The most known values a page lists of one row in a sentence (the Explain page's instance):
a row of 300 columns read as a 7,477-character caption (wide27)."""


def values_listed(conditions: Sequence[str], limit: int = LISTED_VALUES) -> str:
    """A row's known values ("f = v") as a sentence lists them: the first `limit`, then how
    many more and where every one is (the Query page's values)."""
    shown = ", ".join(conditions[:limit])
    more = len(conditions) - limit
    return shown + (f" and {more:,} more (the Query page lists every value)" if more > 0 else "")


def class_names(positive: Any = "POS", negative: Any = None) -> tuple[str, str]:
    """(what POS stands for, what NOT POS stands for): the file's own two classes where known
    (`negative`, or the one a `ClassName` carries: `event` / `no event`), else the positive
    class's negation: `malignant` / `not malignant`, `Survived = 1` / `Survived ≠ 1`."""
    pos = str(positive)
    neg = negative if negative is not None else getattr(positive, "negative", None)
    if neg is not None:
        return pos, str(neg)
    if pos == "POS":
        return pos, "NOT POS"
    return pos, (pos.replace(" = ", " ≠ ", 1) if " = " in pos else f"not {pos}")


def support_for(positive: Any = "POS", start: bool = False) -> str:
    """`support for malignant` (`Support …` to `start` a sentence): the plain name of ω(POS)
    wherever a reader sees a number."""
    return f"{'S' if start else 's'}upport for {class_names(positive)[0]}"


SUPPORT_ENDS = "0: nothing backs it, not 'impossible'; 1: fully backed"
"""What the support's two ends mean, on every chart's axis and help: 0 is read "ruled out" by a
clinician, where the model means that nothing it learned backs the class for these values (a
rare class's support is 0.000 on most rows unlike its cases: below the threshold, not impossible)."""


def plx_row_said(kb_name: str, n_rules: int = 0, without: bool = False) -> str:
    """plx's row among the other models: `plx (plx's default)`, `… with your 2 rules`, or the
    same model `… without your rules` (the Evaluate page shows both once rules are enabled)."""
    name = f"plx ({kb_name})"
    if not n_rules:
        return name
    return f"{name} without your rules" if without else f"{name} with your {plural(n_rules, 'rule')}"


RULE_DATA_GAP = 0.25
"""How far a rule's p may lie from the share of its training rows of the class it concludes
before the Rules page says the data disagree (on at least `RULE_DATA_ROWS` rows)."""
RULE_DATA_ROWS = 10
AGAINST_DATA = "the data disagree"
RULE_NOTE_SEP = " · "
"""Between a rule's notes in the Rules table (not used by this model; the data disagree)."""


def rule_against_data(rule: str, p: float, agree: int, rows: int, share: float | None = None,
                      weighed: bool = False) -> str:
    """Said beside an expert rule the training rows contradict: `rule` (its IF … THEN words)
    says its class with probability `p`, but only `agree` of the `rows` training rows holding
    its conditions are that class (or far more are) — `share` of them as the model learns
    (`weighed`: the classes weighed as equally common; default agree / rows); "" when they
    roughly agree or the rows are too few to say. A rule the data contradict is the expert's
    to keep: said, not refused."""
    share = agree / rows if share is None else float(share)
    if rows < RULE_DATA_ROWS or abs(share - float(p)) <= RULE_DATA_GAP:
        return ""
    head = rule.rsplit(" THEN ", 1)[-1]
    said = (f"{agree:,} of the {rows:,} training rows it holds are {head}, "
            f"{share:.0%} with the classes weighed as equally common, as the model learns them"
            if weighed else
            f"{agree:,} of the {rows:,} training rows it holds ({share:.0%}) are {head}")
    return f"{AGAINST_DATA}: it says {head} with probability {float(p):.2g}, and {said}"


MODEL_FILE_NEEDS_DEFAULT = ("A model file holds plx's default (PLXClassifier(), as plx fit fits it): "
                            "choose plx's default as the KB to save one.")
"""Why the dashboard offers no model file for another KB kind (`model.model_file`)."""


def model_file_said(markers: Sequence[str], threshold: float | None, n_rules: int,
                    semantics: str | None = None) -> str:
    """What the dashboard's model file holds beside the model, said under its download: how
    it reads new rows' cells as missing (the Data page's markers, as `plx fit --missing`), the
    threshold set on Evaluate, the semantics set on the Query page (None: the model's own) and
    the enabled rules — every setting needed at predict."""
    shown = [repr(m) for m in markers if m]
    read = ("empty cells and " + _join(shown[:6]) + (f" and {len(shown) - 6} more" if len(shown) > 6
                                                     else "") if shown else "empty cells only")
    parts = [f"reads {read} in new rows as missing, as this table was read"]
    if threshold is not None:
        parts.append(f"decides at your threshold {threshold:g}")
    if semantics is not None:
        parts.append(f"answers with the {semantics} semantics you chose")
    if n_rules:
        parts.append(f"holds your {plural(n_rules, 'enabled rule')}")
    return ("The model as plx fit writes it, for plx predict (plx predict plx-model.json "
            f"new.csv) or load_model in Python: it {_join(parts)}.")


def support_axis(positive: Any = "POS") -> str:
    """A support axis' title (the bounds chart, the case report's): `support for X (0: …; 1: …)`."""
    return f"{support_for(positive)} ({SUPPORT_ENDS})"


def support_column(positive: Any = "POS", threshold: float = THRESHOLD) -> str:
    """The heading of a table's column of each row's support (its middle), naming the class and
    the threshold it is read against: `support for sepsis (sepsis above 0.12)`."""
    pos = class_names(positive)[0]
    return f"{support_for(pos)} ({pos} above {threshold:g})"


def omega_meaning(positive: Any = "POS", threshold: float = THRESHOLD,
                  learner: str | None = None) -> str:
    """One sentence saying what the support is, in plain words (no symbol): a score against
    the threshold in use, not a chance; 0 is not "impossible". `learner` "weighted"
    (`LEARNERS`: classes weighed as equally common) says why a rare class's support is not
    its share of such rows."""
    pos, neg = class_names(positive)
    weighted = (f" The model weighs the classes as if they were equally common, so the support "
                f"for a rare class is not the share of such rows that are {pos}."
                if learner == "weighted" else "")
    return (f"The support for {pos} is how strongly the knowledge base backs \"the class is "
            f"{pos}\", from 0 (nothing it learned backs {pos} for these values, which is not "
            f"the same as impossible) to 1 (fully backed); it is a score plx compares with the "
            f"decision threshold {threshold:g}, not a percentage chance. When the rules leave "
            f"room it is a range (at least … at most), and plx answers {pos} when the middle of "
            f"that range is above {threshold:g}, otherwise {neg}. A range wholly on one side of "
            f"{threshold:g} is a settled answer; one that crosses it (say 0.3 to 0.9) means the "
            f"values known allow either answer: the decision rests on the middle alone and is "
            f"weak.{weighted}")


def end_support_said(lower: float, upper: float, positive: Any = "POS",
                     threshold: float = THRESHOLD) -> str:
    """What a support shown as 0.000 (or 1.000) says and does not say, beside the answer: a
    clinician reads 0 as "impossible" where the model means nothing it learned backs the
    class for these values; "" for any other support."""
    pos, neg = class_names(positive)
    if float(upper) < min(5e-4, threshold):
        return (f"A support of 0.000 does not say {pos} is impossible: nothing the model learned "
                f"backs {pos} for these values, so it is below the threshold {threshold:g} and "
                f"the answer is {neg}.")
    if float(lower) > max(1 - 5e-4, threshold):
        return (f"A support of 1.000 does not say {pos} is certain: everything the model learned "
                f"for these values backs {pos}.")
    return ""


def open_range_said(lower: float, upper: float, threshold: float = THRESHOLD,
                    unknown: Sequence[str] = ()) -> str:
    """What a range of support that crosses the threshold means for the decision (a
    clinician reads [0.3, 0.9] at 0.5 as "0.6, so yes"); "" for a range on one side of it.
    `unknown`: the row's values not known; only those are offered as what could turn it (with
    every value known the range is the rules' room, review23)."""
    lo, hi = float(lower), float(upper)
    if not (lo < threshold < hi) or (lo <= 0 and hi >= 1):  # [0, 1] is said on its own
        return ""
    turn = (f"{'the value' if len(unknown) == 1 else 'the values'} not known "
            f"({_join([str(u) for u in unknown])}), or an expert rule, could turn it"
            if unknown else "every value the rules ask is known, so only an expert rule could "
            "turn it")
    return (f"The range reaches both sides of {threshold:g}: the values known allow either "
            f"answer, so this decision rests on the middle alone and is weak; {turn}.")


def omega_symbol(positive: Any = "POS") -> str:
    """Where the technical name is defined once (Details / Advanced): the support is ω(POS)."""
    pos, neg = class_names(positive)
    return (f"Technical names: the support for {pos} is ω(POS) in the paper and in plx's command "
            f"line and Python output, where POS stands for {pos} and NOT POS for {neg}.")


def decision_word(lower: float, upper: float, positive: Any = "POS",
                  threshold: float = THRESHOLD) -> str:
    """`malignant`, `not malignant`, or `tie (reported not malignant)`."""
    pos, neg = class_names(positive)
    mean = (float(lower) + float(upper)) / 2
    if abs(mean - threshold) <= TIE_EPS:
        return f"tie (reported {neg})"
    return pos if mean > threshold else neg


# --------------------------------------------------------------------------- one answer


def _who(sources: Iterable[str]) -> str:
    s = set(sources)
    if "rule" in s or "user" in s:
        return "The learned and expert rules" if s - {"rule", "user"} else "The expert rules"
    return "The learned rules"


def evidence_sources(bounds: Any, kb: Any) -> list[str]:
    """The sources (`data`, `tree`, `rule`) of the clauses an answer rests on."""
    ids = np.asarray(getattr(getattr(bounds, "evidence", None), "clause", ()), dtype=np.int64)
    if not len(ids):
        return []
    n = int(getattr(kb, "n_learned", 0))
    out = ["tree" if getattr(kb, "kind", "direct") != "direct" else "data"] if (ids < n).any() else []
    out += [kb.clause(int(i)).source for i in ids[ids >= n]]
    return out


def answer_sentence(bounds: Any, positive: Any = "POS", *, kb: Any = None,
                    truth: Any = None, threshold: float = THRESHOLD,
                    positive_value: Any = None) -> str:
    """One plain sentence (or three short ones) for an answer: the bounds on the support for
    the positive class, where they lie against the threshold, the decision, and what was
    unknown or never seen. `bounds` is a `Bounds` (or anything with lower/upper);
    `truth` the recorded label, if any, compared with `positive_value` (the class value POS
    stands for; default `positive`, which may be a display name such as `Survived = 1`)."""
    pos, neg = class_names(positive)
    lo, hi = float(bounds.lower), float(bounds.upper)
    mean = (lo + hi) / 2
    t = f"{threshold:g}"
    unknown = tuple(getattr(bounds, "unknown", ()) or ())
    no_ev = bool(getattr(bounds, "no_evidence", False))
    sources = evidence_sources(bounds, kb) if kb is not None else []
    who = _who(sources) if sources else "The learned rules"
    if no_ev:  # [0, 1]: its middle, 0.5, meets the threshold as any answer's does
        side = ("exactly the threshold, a tie, reported as " + neg
                if abs(0.5 - threshold) <= TIE_EPS else
                f"{'above' if 0.5 > threshold else 'below'} the threshold {t}, so "
                f"{pos if 0.5 > threshold else neg}")
        text = (f"No rule covers these values, so the support for {pos} can be anything "
                f"between 0 and 1; its middle, 0.5, is {side}.")
    else:
        point = abs(hi - lo) <= 5e-4
        if point:
            span = f"put the support for {pos} at {fmt(mean)}"
        else:
            span = f"bound the support for {pos} between {fmt(lo)} and {fmt(hi)}"
        if abs(mean - threshold) <= TIE_EPS:
            where = (f"{'that' if point else 'the middle'} is exactly {t}, a tie, which plx "
                     f"reports as {neg}")
        elif lo > threshold or (hi < threshold):
            side = "above" if mean > threshold else "below"
            where = f"{side} {t}, so {pos if mean > threshold else neg}"
        else:
            side = "above" if mean > threshold else "below"
            where = (f"the middle, {fmt(mean, 3)}, is {side} {t}, so "
                     f"{pos if mean > threshold else neg}")
        text = f"{who} {span}; {where}."
        if open_range := open_range_said(lo, hi, threshold, unknown):
            text += " " + open_range
        if ends := end_support_said(lo, hi, positive, threshold):
            text += " " + ends
    extra = []
    if unknown:
        extra.append(f"{_cap(plural(len(unknown), 'value'))} not known ({_join(list(unknown))}) "
                     f"{'was' if len(unknown) == 1 else 'were'} left out of the question.")
    unseen = dict(getattr(bounds, "unseen", {}) or {})
    if unseen:
        items = [condition(f, v) for f, v in unseen.items()]
        extra.append(f"{_join(items)} never occurred in the training data, so no learned rule "
                     f"uses {'it' if len(items) == 1 else 'them'}.")
    read_as = tuple(getattr(bounds, "read_as", ()) or ())
    if read_as:
        items = [f"{condition(r.feature, r.written)} as {r.value}" for r in read_as]
        extra.append(f"Read {_join(items)}: the same value as written in the training data.")
    if truth is not None:
        decided_pos = mean > threshold + TIE_EPS
        value = pos if positive_value is None else str(positive_value)
        right = (str(truth) == value) == decided_pos
        other = str(truth) not in (pos, neg, value)  # a class of several: which side it is
        extra.append(f"The recorded label is {truth}: plx is "
                     f"{'right' if right else 'wrong'} here"
                     + (f" ({truth} counts as {pos if str(truth) == value else neg})."
                        if other else "."))
    return " ".join([text] + extra)


def confidence_word(lower: float, upper: float, threshold: float = THRESHOLD) -> str:
    """How clear-cut an answer is: `clear`, `leaning`, `undecided`, or `no evidence`."""
    lo, hi = float(lower), float(upper)
    if lo <= 0 and hi >= 1:
        return "no evidence"
    mean = (lo + hi) / 2
    if abs(mean - threshold) <= TIE_EPS or lo < threshold < hi:
        return "undecided" if abs(mean - threshold) < 0.1 else "leaning"
    return "clear" if abs(mean - threshold) >= 0.25 else "leaning"


# --------------------------------------------------------------------------- clauses


def clause_text(clause: WeightedClause, positive: Any = None) -> str:
    """A clause as `IF a = x AND b = y THEN POS` (with `positive`, `THEN malignant` /
    `THEN not malignant`); never the raw `[p] POS | ~a=x` form. A clause is read as an
    implication from the negation of its other literals to its class literal (or, without a
    class literal, to its last literal)."""
    if is_prior(clause):
        return prior_text(clause, positive)
    lits = list(clause.literals)
    heads = [lit for lit in lits if lit.is_class]
    head = heads[0] if len(heads) == 1 else lits[-1]
    body = [lit for lit in lits if lit is not head]
    if head.is_class:
        if positive is None:
            concl = "NOT POS" if head.negated else "POS"
        else:
            pos, neg = class_names(positive)
            concl = neg if head.negated else pos
    else:
        concl = _lit_text(head.atom, head.value, not head.negated)
    if not body:
        return f"ALWAYS {concl}"
    conds = [_lit_text(lit.atom, lit.value, lit.negated) for lit in body]  # body holds ¬cond
    return f"IF {' AND '.join(conds)} THEN {concl}"


def rule_said(clauses: Sequence[WeightedClause], positive: Any = None) -> str:
    """A rule as its user wrote it, in the class's words: one clause as `clause_text`; an OR
    rule's clauses (a comparison on a number is the OR of its bins) joined back into one
    `IF crp >= 50 THEN malignant` (`plx_core.rules.rule_text` folds the bins), never one line
    a bin."""
    cs = list(clauses)
    if len(cs) == 1:
        return clause_text(cs[0], positive)
    from .rules import rule_text

    text = rule_text(cs, meta=False, sep=" = ")
    negated = [lit.negated for lit in cs[0].literals if lit.is_class]
    head = " THEN NOT POS" if negated == [True] else " THEN POS"
    if "\n" in text or not text.endswith(head):  # parts of different shapes: each as it reads
        return " ; ".join(clause_text(c, positive) for c in cs)
    if positive is None:
        return text
    pos, neg = class_names(positive)
    return text[:-len(head)] + f" THEN {neg if negated == [True] else pos}"


STARTING_POINT = "the model's starting point"
"""What the prior clause is, in words: the support it gives before any rule about the values
outweighs it, placed by the threshold (the class correction) — not a share of rows, so never
"base rate", which reads as one, and wrong beside a class among several (session 25, dash25)."""

def starting_point(of_class: Any = None) -> str:
    """Whose starting point the prior clause is: `STARTING_POINT` for the model's one KB, or,
    for one of several classes, that class's own KB's (each class's KB against the rest has
    its own, placed by its own threshold: "the model's" named the wrong model, dash25)."""
    return STARTING_POINT if of_class is None else f"the starting point of {of_class}'s own KB"


BASE_RATE_IF = "every row (the model's starting point)"
"""The condition of the prior clause where a table has an IF column (the KB browser)."""


def is_prior(clause: WeightedClause) -> bool:
    """Whether a clause is a base-rate clause: id `PRIOR_ID` and only its class literal (the
    tuned Direct KB's and the fitted votes' `[1] POS` / `[0] POS`)."""
    return clause.id == PRIOR_ID and all(lit.is_class for lit in clause.literals)


def prior_text(clause: WeightedClause, positive: Any = None) -> str:
    """A base-rate clause as what it does: every row's support for the positive class is
    pulled toward its target (p, or 1 − p on NOT POS) with its weight — `[0] POS` pulls toward
    0, which "ALWAYS POS" said the opposite of; alone it decides nothing
    (`query.prior_alone`)."""
    target = 1.0 - clause.p if clause.literals[0].negated else clause.p
    pos = "POS" if positive is None else class_names(positive)[0]
    return f"STARTING POINT: every row's support for {pos} is pulled toward {target:g}"


def _lit_text(atom: str, value: str | None, holds: bool) -> str:
    if value is None:
        base = "POS" if atom == "POS" else atom
        return base if holds else f"NOT {base}"
    return condition(atom, value) if holds else f"NOT {condition(atom, value)}"


def clause_sentence(clause: WeightedClause, positive: Any = None) -> str:
    """`IF … THEN …` followed by how sure the clause is and where it came from:
    `(probability 0.93, seen in 27 training rows)` or `(probability 0.9, weight 5, expert rule r1)`."""
    bits = [f"probability {clause.p:.2f}"]
    if clause.w != 1.0:
        bits.append(f"weight {clause.w:g}")
    if clause.source in ("rule", "user"):
        bits.append(f"expert rule {clause.id}" if clause.id else "expert rule")
    elif clause.support is not None and clause.support >= 0:
        bits.append(f"seen in {plural(clause.support, 'training row')}")
    if not clause.enabled:
        bits.append("switched off")
    return f"{clause_text(clause, positive)} ({', '.join(bits)})"


LEARNED = "learned from data"


def source_text(source: Any) -> str:
    """Where a clause comes from, in words: learned from data (Direct or tree) or an expert rule."""
    return LEARNED if source in ("data", "tree") else "expert rule"


def clause_texts(kb: Any, ids: Iterable[int], positive: Any = None) -> list[str]:
    """`clause_text` for KB clause indices (e.g. an evidence frame's `clause_id`)."""
    return [clause_text(kb.clause(int(i)), positive) for i in ids]


# --------------------------------------------------------------------------- evidence


def evidence_reading_said(target: float | None, positive: Any = "POS",
                          column: str = "pulls the support to") -> str:
    """How to read a rule of a table of rules (its probability in `column`), on one of its
    numbers (`target`; None: in general): "IF age = <62.5 THEN died" listed as evidence
    against died read as a contradiction to a clinician (dash23). The Query page's evidence
    and the Global view's rules."""
    pos, neg = class_names(positive)
    head = f"Each rule reads IF its values hold THEN {pos}, with the probability in its \"{column}\" column"
    if target is None:
        return (f"{head}: it holds that rows with those values are {pos} with that probability "
                f"(0: never, 1: always); below 0.5 it pulls the support for {pos} down, towards "
                f"{neg}, above 0.5 up.")
    t = float(target)
    way = (f"up, towards {pos}" if t > 0.5 else f"down, towards {neg}" if t < 0.5
           else "nowhere: it is as likely either way")
    return (f"{head}: a rule at {fmt(t)} holds that rows with those values are {pos} with "
            f"probability {fmt(t)}, so it pulls the support for {pos} {way}.")


def evidence_summary(frame: Any, positive: Any = "POS") -> str:
    """The evidence of an answer in words: how many clauses pull towards each class, how many
    the answer overrides. `frame` is `plx_core.evidence(…)` (column `side`) or an evidence
    frame with `target` (and `overridden`)."""
    pos, neg = class_names(positive)
    n = len(frame)
    if n == 0:
        return "No rule bears on these values."
    if "side" in frame:
        side = frame["side"].astype(str).to_numpy()
        n_for = int((side == "for").sum())
        n_against = int((side == "against").sum())
        n_agree = int((side == "agrees").sum())
    else:
        target = frame["target"].astype(float).fillna(frame["p"].astype(float)).to_numpy()
        n_for, n_against = int((target > 0.5).sum()), int((target < 0.5).sum())
        n_agree = n - n_for - n_against
    parts = [f"{_cap(plural(n, 'rule'))} bear{'s' if n == 1 else ''} on these values"]
    if "side" in frame:
        parts.append(f"{number_word(n_for).replace('no', 'none')} would raise the support for "
                     f"{pos} and {number_word(n_against).replace('no', 'none')} would lower it"
                     + (f" ({number_word(n_agree)} agree{'s' if n_agree == 1 else ''} with the answer as "
                        f"it is)" if n_agree else ""))
    else:
        parts.append(f"{number_word(n_for).replace('no', 'none')} point towards {pos} and "
                     f"{number_word(n_against).replace('no', 'none')} towards {neg}")
    text = "; ".join(parts) + "."
    if "overridden" in frame:
        over = int(np.asarray(frame["overridden"], dtype=bool).sum())
        if over:
            whose = "one of them" if over == 1 else f"{number_word(over)} of them"
            text += (f" One answer cannot meet every rule's probability: it departs from {whose} "
                     f"(marked overridden); the inconsistency under Advanced says by how much "
                     f"in total.")
        else:
            text += " They agree with each other: the answer satisfies every one."
    return text


def evidence_line_label() -> str:
    """What the orange line on the evidence chart is."""
    return "orange line: the answer's support"


# --------------------------------------------------------------------------- explanations


def tie_groups(means: Iterable[float], decimals: int = 3) -> list[tuple[float, int]]:
    """(value, count) for every value shared by two or more candidates (rounded to
    `decimals`), the largest group first."""
    m = np.round(np.asarray(list(means), dtype=float), decimals)
    if not len(m):
        return []
    vals, counts = np.unique(m, return_counts=True)
    keep = counts >= 2
    order = np.lexsort((vals[keep], -counts[keep]))
    return [(float(vals[keep][i]), int(counts[keep][i])) for i in order]


def ties_sentence(means: Iterable[float], what: str = "sub-query", decimals: int = 3) -> str:
    """`Three sub-queries tie at 0.112 and nine at 0.000.` ('' without ties)."""
    groups = tie_groups(means, decimals)
    if not groups:
        return ""
    many = what + "s" if not what.endswith("y") or what.endswith("ey") else what[:-1] + "ies"
    bits = [f"{number_word(c)} at {v:.{decimals}f}" for v, c in groups]
    head = bits[0].split(" at ")
    first = f"{head[0].capitalize()} {many} tie at {head[1]}"
    return _join([first] + bits[1:]) + "."


_GROUP_OF = {1: ("single value", "single values"), 2: ("pair of values", "pairs of values"),
             3: ("triple of values", "triples of values")}


def _group(k: int, many: bool = True) -> str:
    """`pairs of values` (k = 2; `pair of values` with many=False), `sets of 5 values`."""
    one, more = _GROUP_OF.get(k, (f"set of {k} values", f"sets of {k} values"))
    return more if many else one


def start_said(start: float, by_prior: bool) -> str:
    """The one baseline of an explanation in words (`explain.start_value`): what its Shapley
    values start from and what "starting point alone" is: `the model's starting point, 0.00 (…)` or
    `0.5, the support with nothing known (…)`."""
    if by_prior:
        return (f"{STARTING_POINT}, {fmt(start)} (its support before any rule about the "
                "values outweighs it, placed by its threshold: not a share of rows)")
    return f"{start:g}, the support with nothing known (no rule applies: anything from 0 to 1)"


def shapley_axis(start: float, by_prior: bool) -> str:
    """The Shapley chart's axis: the change in support from the one baseline (`start_said`)."""
    return (f"change in support from {fmt(start)} (starting point)" if by_prior
            else f"change in support from {start:g} (nothing known)")


def shapley_said(total: float, full: float, start: float, by_prior: bool,
                 positive: Any = "POS") -> str:
    """What the Shapley values of one answer are and what they add up to, from the one
    baseline (`start_said`) the explanation's "starting point alone" names too."""
    return (f"Each value's Shapley value (the average change when it is added to the others) "
            f"is how much it moves the support for {class_names(positive)[0]} from "
            f"{start_said(start, by_prior)}. The values add up to {total:+.3f} = the instance's "
            f"support ({fmt(full, 3)}) minus {fmt(start, 3) if by_prior else f'{start:g}'}.")


def undecided_said(k: int, side: str, by_prior: bool = False, answer_by_prior: bool = False,
                   base: float | None = None, of_class: Any = None) -> str:
    """The one wording of an explanation whose best size-k sub-query does not decide the
    answer on its own (`Explanation.decides` False): `no pair of values decides malignant on
    its own` (+ why, when the prior clause alone answered it: its support is the model's
    threshold device, not evidence; or the row's answer itself is, `answer_by_prior`). Used
    by `explanation_sentence`, `Explanation.summary` and the CLI's note; `base`: the base
    rate's value (`explain.start_value`), said as the charts and the Shapley values start;
    `of_class`: the class whose own KB was searched (several classes), whose starting point
    it is (`starting_point`)."""
    rate = starting_point(of_class) + (f" ({fmt(base)})" if base is not None else "")
    its = "the" if of_class is None else "its"
    why = ""
    if answer_by_prior:
        why = (f"; the answer itself is {rate}, which none of {its} rules about "
               "the row's values outweighs")
    elif by_prior:
        why = (f"; its support is {rate}, which {its} rules about these values "
               "do not outweigh")
    return f"no {_group(k, many=False)} decides {side} on its own{why}"


def other_side_said(side: str, other: str, full: Any, threshold: float,
                    of_class: Any = None) -> str:
    """The one wording of an explanation whose searched KB answers the whole row the other way
    (`Explanation.other_side`: the tuned Direct variant answers with a window and prior of the
    full Direct KB searched; a class explained as why not, whose own KB says yes but another
    class is stronger). Used by `explanation_sentence`, `Explanation.summary` and the CLI;
    `of_class`: the class whose own KB was searched (several classes), named as that KB."""
    mean = (float(full[0]) + float(full[1])) / 2
    if of_class is not None:
        kb = f"{of_class}'s own KB"
        return (f"on all of the row's values {kb} answers {other} (support {fmt(mean)}, its "
                f"threshold {fmt(threshold)}): the model of every class answers {side} another "
                f"way (another class's stronger support, or the tuned window of {kb}), and "
                f"these values are {kb}'s strongest case for {side}")
    return (f"on all of the row's values the knowledge base searched answers {other} (support "
            f"{fmt(mean)}, threshold {fmt(threshold)}), not {side}: the model answers {side} "
            f"another way (its tuned window of this knowledge base, or another class's stronger "
            f"support), and these values are this knowledge base's strongest case for it")


def explanation_sentence(explanation: Any, positive: Any = None, own: bool = False) -> str:
    """The chosen sub-query of an `Explanation` in words, with how ties were settled:
    `On their own, a = x and b = y bound the support for malignant between 0.9 and 1.00 —
    the strongest case for malignant among 6 pairs of values.` The class named is
    `positive` (how the caller names POS), else the class the explanation is for
    (`Explanation.explained_class`: with several classes, the one whose KB was searched).
    `own`: that class is one of several and the KB searched is its own against the rest,
    whose starting point and answer the sentence names as that class's (`starting_point`)."""
    pos, neg = class_names(positive if positive is not None
                           else getattr(explanation, "explained_class", "") or "POS")
    feats = dict(explanation.features)
    lo, hi = explanation.bounds
    k = len(feats)
    conds = _join([condition(f, v) for f, v in feats.items()])
    side = pos if explanation.direction == "positive" else neg
    of = pos if own else None
    group = _group(k)
    verb = ("puts", "bounds") if k == 1 else ("put", "bound")
    span = (f"{verb[0]} the support for {pos} at {fmt(lo)}" if abs(hi - lo) <= 5e-4
            else f"{verb[1]} the support for {pos} between {fmt(lo)} and {fmt(hi)}")
    if explanation.search == "shapley":
        how = f"the {plural(k, 'value')} whose Shapley values push hardest towards {side}"
    elif explanation.n_total == 1:  # the row knows k values: one candidate, nothing to rank
        how = (f"the only {_group(k, many=False)} there is to weigh (the row knows no other "
               "value)")
    else:
        searched = (f"all {explanation.n_total:,} {group}" if explanation.search == "exhaustive"
                    else f"{explanation.evaluated:,} of {explanation.n_total:,} {group} "
                         f"(beam search)")
        how = f"the strongest case for {side} among {searched}"
    text = f"On their own, {conds} {span}: {how}."
    if not getattr(explanation, "decides", True):  # said, not claimed
        best = explanation.candidates[0] if getattr(explanation, "candidates", None) else None
        said = undecided_said(k, side, bool(getattr(best, "by_prior", False)),
                              bool(getattr(explanation, "answer_by_prior", False)),
                              getattr(explanation, "base_rate", None), of)
        text = (f"{_cap(said)}. "
                f"{_cap(how)}: {conds}, which {span}.")
    if getattr(explanation, "other_side", False):
        flip = neg if side == pos else pos
        text += (f" {_cap(other_side_said(side, flip, explanation.query_bounds, explanation.threshold, of))}.")
    if getattr(explanation, "tied", 0):
        text += (f" {_cap(plural(explanation.tied, 'other candidate'))} "
                 f"{'ties' if explanation.tied == 1 else 'tie'} with it; "
                 f"{TIE_RESOLUTION.get(explanation.resolved_by, explanation.resolved_by)}.")
    cands = list(getattr(explanation, "candidates", None) or ())
    if cands and not getattr(cands[0], "by_prior", False):
        n_prior = sum(bool(getattr(c, "by_prior", False)) for c in cands)
        if n_prior:
            base = next(c for c in cands if getattr(c, "by_prior", False))
            text += " " + prior_ranked_said(n_prior, k, (base.lower + base.upper) / 2, of)
    return text


def own_kb_said(of_class: Any, others: int, full: Any, start: float | None = None) -> str:
    """What one of several classes' own KB (that class against the `others` classes) answers
    on all of the row's values, and where it starts before any value is known (`start`: its
    starting point, `explain.start_value`; None: no starting point, nothing known is [0, 1]):
    said after the explanation of that class, whose words are that KB's (dash25)."""
    mean = (float(full[0]) + float(full[1])) / 2
    begin = ("" if start is None else
             f"starts from {fmt(start)} before any value is known (its starting point) and ")
    return (f"{of_class}'s own KB ({of_class} against the other {others} classes) {begin}"
            f"answers {fmt(mean)} on all of the row's values.")


PRIOR_ALONE = "starting point alone"  # a chart's mark on a candidate answered by the prior clause


def prior_ranked_said(n: int, k: int, base: float | None = None, of_class: Any = None) -> str:
    """Why candidates answered by the prior clause alone (`Candidate.by_prior`, marked
    `PRIOR_ALONE` on the charts) rank after the chosen one whatever their support: a reader
    sees them at 0.000 (or 1.000) and asks why a weaker case was chosen. `base`: the base
    rate's value, said as the Shapley values start from it (`explain.start_value`);
    `of_class`: the class whose own KB was searched (several classes: its starting point)."""
    one = n == 1
    at = "" if base is None else f"{fmt(base)}, "
    whose = "the model's" if of_class is None else f"{of_class}'s own KB's"
    return (f"{_cap(plural(n, _group(k, many=False), _group(k)))} "
            f"{'is' if one else 'are'} answered by {whose} {PRIOR_ALONE} ({at}its answer "
            f"before any value is known, which no rule about {'its' if one else 'their'} "
            "values outweighs), so "
            f"{'it ranks' if one else 'they rank'} after every candidate the rules answer, "
            f"whatever {'its' if one else 'their'} support (marked \"{PRIOR_ALONE}\").")


def explained_class_sentence(positive: Any, others: Sequence[Any]) -> str:
    """Which class an explanation of a label with several classes is for: POS against the
    `others` taken together ("" for two classes, where the sentence's class says it)."""
    if len(others) < 2:
        return ""
    shown = ", ".join(str(o) for o in others[:6]) + (", …" if len(others) > 6 else "")
    return (f"The label has {len(others) + 1} classes: these bounds and features are for "
            f"{positive} against the other {len(others)} ({shown}) taken together; choose "
            "another positive class to explain it.")


TIE_RESOLUTION = {
    "none": "no tie to settle",
    "bound": "the tighter bound settled it",
    "net evidence": "the rules' net pull settled it",
    "feature order": "the order of the columns settled it",
}


def shapley_sentence(values: Mapping[str, float], positive: Any = "POS", top: int = 3,
                     instance: Mapping[str, Any] | None = None) -> str:
    """The features that move ω(POS) most, in words (values: feature → Shapley value)."""
    pos, _ = class_names(positive)
    items = sorted(values.items(), key=lambda kv: -abs(float(kv[1])))[:top]
    if not items:
        return "No feature is known, so none can be credited."

    def name(f: str) -> str:
        return condition(f, instance[f]) if instance and instance.get(f) is not None else f

    up = [f"{name(f)} ({float(v):+.2f})" for f, v in items if float(v) > 0]
    down = [f"{name(f)} ({float(v):+.2f})" for f, v in items if float(v) < 0]
    bits = []
    if up:
        bits.append(f"{_join(up)} raise{'s' if len(up) == 1 else ''} the support for {pos}")
    if down:
        bits.append(f"{_join(down)} lower{'s' if len(down) == 1 else ''} it")
    if not bits:
        return "No feature moves the support on its own."
    return "Most influential: " + "; ".join(bits) + "."


def changes_sentence(changes: Mapping[str, tuple[Any, Any]], lower: float, upper: float,
                     was_positive: bool, positive: Any = "POS") -> str:
    """`Changing a from x to y would make the answer benign (support for malignant: 0.31 to
    0.35).` — `changes` maps feature → (old value or None, new value)."""
    pos, neg = class_names(positive)
    items = [f"{f} from {'unknown' if a is None else a} to {b}" for f, (a, b) in changes.items()]
    other = neg if was_positive else pos
    lo, hi = float(lower), float(upper)
    span = f"{fmt(lo)}" if abs(hi - lo) <= 5e-4 else f"{fmt(lo)} to {fmt(hi)}"
    return (f"Changing {_join(items)} would make the answer {other} "
            f"(support for {pos}: {span}).")


def counterfactual_sentence(cf: Any, positive: Any = "POS") -> str:
    """A `plx_core.Counterfactual` in words (`changes_sentence`), or that none was found."""
    if not cf.found:
        return f"No change of up to {plural(cf.max_changes, 'value')} flips this decision."
    return changes_sentence(cf.changes, cf.new_bounds[0], cf.new_bounds[1], cf.positive, positive)


def what_would_change_said(cf: Any, positive: Any = "POS") -> str:
    """The Explain page's line after why: what would change the decision (the Query page's
    counterfactual, `counterfactual_sentence`), or that no known value could."""
    said = counterfactual_sentence(cf, positive) if cf is not None else "No known value to change."
    return f"What would change it: {said}"


# --------------------------------------------------------------------------- row counts


def split_sentence(n_rows: int, n_train_rows: int, n_train: int, n_test: int,
                   balance: str, test_share: float | None = None, n_copies: int = 0,
                   learner: str = "rows") -> str:
    """How the rows were split and balanced, so that the counts shown add up: `n_rows` used,
    `n_train_rows` distinct training rows, `n_train` training rows after balancing (replicas
    included), `n_test` test rows, `n_copies` of them repeating a training row
    (`data.split_copies`). `learner` says what the model that answers learns from
    (`learns_from_said`): "rows" the rows as balanced, "weighted" or "mix" plx's default."""
    share = f" ({test_share:.0%})" if test_share is not None else ""
    if balance == "before":
        text = (f"{n_rows:,} rows; balancing before the split repeats rows of every smaller "
                f"class, then {n_train:,} go to training and {n_test:,} to testing{share} "
                f"(repeated rows can land on both sides).")
    else:
        text = (f"{n_rows:,} rows: {n_train_rows:,} for training and {n_test:,} for "
                f"testing{share}.")
    if learner != "rows":
        text += " " + learns_from_said(learner, n_train_rows, n_train, balance)
    elif balance == "train" and n_train > n_train_rows:
        text += (f" Balancing the training part repeats {counted(n_train - n_train_rows, 'row')} of "
                 f"every smaller class, so the KB learns from {n_train:,} training rows; the test "
                 f"part keeps the true mix.")
    if n_copies:
        text += (f" {n_copies:,} of the {n_test:,} test rows {verb(n_copies, 'repeats', 'repeat')} a training row in every "
                 "feature column; the Evaluate page scores the others apart.")
    return text


LEARNERS = ("rows", "weighted", "mix")
"""What the model that answers learns from: "rows" the training rows as balanced (repeated
rows of the smaller class counted again); "weighted" plx's default, each training row once
with the classes weighed equally (`class_weight="balanced"`, as `plx fit`); "mix" plx's
default on the rows' own mix of classes (`class_weight=None`: the Data page's no balancing)."""


def learns_from_said(learner: str, n_train_rows: int, n_train: int, balance: str) -> str:
    """How plx's default handles the class imbalance, said where the split is: it weighs the
    classes (or, with no balancing chosen, not) instead of learning from repeated rows, which
    the other KB kinds and the baselines learn from."""
    if learner == "mix":
        return (f"With no balancing, plx's default learns the {n_train_rows:,} training rows' "
                "own mix of classes (no class weights; plx fit weighs the classes equally).")
    others = (f"; the other KB kinds and the baselines learn from the {n_train:,} rows "
              f"balancing gives ({n_train - n_train_rows:,} repeated)"
              if balance == "train" and n_train > n_train_rows else "")
    return (f"plx's default learns from each of the {n_train_rows:,} training rows once and "
            "weighs the classes equally instead of repeating rows (as plx fit)" + others
            + (". The test part keeps the true mix." if balance == "train" else "."))


def case_column_dropped(column: str, present: bool, is_label: bool = False,
                        others: bool = False) -> str:
    """The Data page's one note when the case column of the data in use (a project's saved
    one) is not offered for the table and settings on the page: each row is its own case
    unless the user names another, said naming the column and why, never dropped silently."""
    why = ("it is the label" if is_label else
           "it is not offered as one here: its values do not name cases of several rows"
           if present else "this table has no such column")
    return (f"The case column {column!r} of the data in use is not kept: {why}. Each row is its "
            f"own case{' unless you name another case column below' if others else ''}.")


def rows_in_use(name: str, n_train_rows: int, n_train: int, n_test: int,
                learner: str = "rows") -> str:
    """`Now using t.csv: 490 training rows and 210 test rows`, the rows of the user's table
    (`n_train_rows` distinct), the balancing's repeats said apart (`n_train` with them) — so
    that training and test add up to the table, never 902 + 210 of a 700-row file. Under
    plx's default (`learner`, `LEARNERS`) how it weighs the classes instead."""
    rows = lambda n: "row" if n == 1 else "rows"  # noqa: E731 - digits kept: counts add up
    text = f"Now using {name}: {n_train_rows:,} training {rows(n_train_rows)} and {n_test:,} test {rows(n_test)}"
    if learner == "weighted":
        text += " (plx's default weighs the classes equally instead of repeating rows)"
    elif learner == "mix":
        text += " (plx's default learns their own mix of classes: no balancing)"
    elif n_train > n_train_rows:
        text += (f" (the KB learns from {n_train:,}: balancing repeats {n_train - n_train_rows:,} "
                 "training rows of the smaller class)")
    return text


def copies_said(n_copies: int, n_test: int, same_label: int, f1_rest: float | None) -> str:
    """What test rows that repeat a training row (`data.split_copies`) mean for the test
    score, with the F1 of the other test rows (None: they have no positive or are none);
    "" when no test row repeats one."""
    if n_copies == 0:
        return ""
    rest = n_test - n_copies
    tail = (f" On the {rest:,} other test rows F1 is {f1_rest:.3f}." if f1_rest is not None
            else f" The {rest:,} other test rows are too few to score alone." if rest
            else "")
    share = n_copies / n_test  # 1 of 271 is not "0%": a clinician reads that as none
    return (f"{n_copies:,} of the {n_test:,} test rows "
            f"({'under 1%' if share < 0.005 else f'{share:.0%}'}) {verb(n_copies, 'repeats', 'repeat')} a "
            f"training row in every feature column ({same_label:,} with its label too): the "
            f"model has seen {'it' if n_copies == 1 else 'them'}, so the test score is optimistic by what they add — it "
            "measures recall of training rows as well as new ones." + tail)


def one_class_part(n_pos: int, n_neg: int, positive: Any = "POS") -> str:
    """The sentence a test part of one class is scored with (a rare class's few rows all
    drawn for training): which scores it leaves undefined (shown as 0 or nan);
    "" when both classes are there."""
    pos, neg = class_names(positive)
    if n_pos and n_neg or not n_pos + n_neg:
        return ""
    missing, undefined = ((pos, "recall (sensitivity) is undefined and F1 cannot be above 0, "
                                "whatever the model")
                          if not n_pos else (neg, "specificity is undefined"))
    return (f"The test part holds no {missing} row (all {n_pos + n_neg:,} are "
            f"{neg if not n_pos else pos}): {undefined}. Give the test part a larger share, "
            "or gather more rows of the rare class.")


def counts_at_threshold(threshold: float, tp: int, fp: int, tn: int, fn: int,
                        positive: Any = "POS", part: str = "test") -> str:
    """The confusion counts at a threshold in words, each count with its own number ("1 false
    negative", not "1 false negatives"), and what sensitivity and specificity count, in the
    file's class names (`class_names`)."""
    pos, neg = class_names(positive)

    n = counted
    p_all, n_all = tp + fn, tn + fp
    sens = tp / p_all if p_all else float("nan")
    spec = tn / n_all if n_all else float("nan")
    return (f"At threshold {threshold:.2f}, of the {tp + fp + tn + fn:,} {part} rows: "
            f"{n(tp, 'true positive')}, {n(fp, 'false positive')}, {n(tn, 'true negative')}, "
            f"{n(fn, 'false negative')}. Sensitivity {fmt(sens, 3)} = {tp:,} of the {p_all:,} "
            f"{pos} rows found; specificity {fmt(spec, 3)} = {tn:,} of the {n_all:,} {neg} rows "
            f"kept {neg}.")


def few_found_sentence(n_rows: int, n_pos: int, tp: int, fp: int, positive: Any = "POS",
                       best_other: float | None = None, where: str = "held-out") -> str:
    """What the scores mean when the model finds none or few (under half) of the positive
    rows of a scored part, in counts (positives there, rows flagged, found, missed) and where
    the trade lies (the decision threshold): a bare "F1 0" reads as a broken tool. `best_other`:
    the best F1 of the other models on the same rows, when known. "" when it finds half or
    more, or the part holds no positive (`one_class_part` says that)."""
    if n_pos <= 0 or 2 * tp >= n_pos:
        return ""
    pos, _ = class_names(positive)
    flagged = tp + fp
    right = "" if not flagged else f"{'none' if tp == 0 else number_word(tp)} of them rightly"
    said = (f"Of the {n_rows:,} {where} rows, {n_pos:,} {'is' if n_pos == 1 else 'are'} {pos}. "
            f"The model flagged {plural(flagged, 'row')} as {pos}"
            + (f", {right}" if right else "") + f": it missed {n_pos - tp:,} of the {n_pos:,}"
            + (", so F1 is 0" if tp == 0 else "") + ". ")
    if best_other is not None:
        said += (f"The other models do little better on these rows (best F1 {best_other:.3f}): "
                 f"the columns may say little about {pos}. " if best_other < 0.5 else
                 f"Other models find more of them (best F1 {best_other:.3f}). ")
    return said + ("The decision threshold trades missed cases against false alarms: a lower "
                   "threshold flags more rows — fewer missed, more false alarms.")


CLASS_TABLE_HEADERS = {
    "class": "class", "lower": "support, at least", "upper": "support, at most",
    "mean": "support, middle", "vote": "compared (highest picked)",
    "what is compared": "what is compared",
}
"""The several-class answer's columns as a reader sees them: the "vote" column holds a vote's
probability for most classes but a KB's mean for a rare class kept on its Direct KB (dash23)."""
LEVEL_TABLE_HEADERS = {**CLASS_TABLE_HEADERS, "class": "level (lowest first)",
                       "vote": "vote (the level answered is the highest)"}
"""An ordered model's answer table: one row a level in the scale's order, its bounds from the
steps' (`ordered.level_bounds`) and the vote `predict_proba` divides by the sum."""


LEVELS_SECTION_ENDS = {
    "query": "answers this instance's level, with every level's bounds and vote, the runner-up "
             "and the steps that explain them",
    "explain": "says which level it answers for this instance and why: the k features of the "
               "step that decides the level, and of the step between it and the runner-up",
    "evaluate": "is scored on the same test rows: the confusion matrix in the scale's order, "
                "and the mean level error beside macro F1",
}
"""What the "Among all" section of each page does with a model of ordered levels."""


def levels_section_said(positive: Any, order: Sequence[str], page: str,
                        above: str = "answer") -> str:
    """The intro of a page's "Among all" section when the label's classes are ordered levels
    (the Data page's choice): what the page's `above` is for (POS against the rest) and what
    the model of the levels does here (`LEVELS_SECTION_ENDS[page]`)."""
    n = len(order)
    return (f"The label's {n} classes are ordered levels ({order_said(order)}), and the "
            f"{above} above is {positive} against the other {n - 1}. Here plx's model of the "
            "levels (PLXClassifier(class_order=…), as plx fit --class-order: one yes/no model "
            f"for each step between neighbouring levels) {LEVELS_SECTION_ENDS[page]}.")


def levels_file_said(order: Sequence[str], fitted: bool) -> str:
    """Beside the Knowledge base page's download of the model of ordered levels: what the
    file is (`plx fit --class-order`'s, version 3) and, before that model is fitted, where."""
    if not fitted:
        return (f"The model of the ordered levels ({order_said(order)}) is fitted with "
                "\"Answer among all\" on the Query page (or Explain, Evaluate); its model file "
                "can be saved here then.")
    return (f"The model of the ordered levels ({order_said(order)}) as plx fit --class-order "
            "writes it: plx predict answers each row's level with every level's bounds and "
            "vote, plx explain explains it by a step. It reads new rows' numbers at this "
            "page's cut points; it holds no expert rules.")


MODEL_FILE_CHECK = ("**Check a model file** on this data's test rows, as plx predict answers "
                    "them (a file plx fit or this page saved).")
"""The Knowledge base page's heading of the model-file upload."""


def model_file_check_said(kind: str, n: int, macro_f1: float, accuracy: float,
                          level_error: float | None, differ: int | None) -> str:
    """What an uploaded model file answered on the test rows (`classes.FileCheck`): its kind,
    its scores, and how many decisions differ from this session's model of the levels."""
    said = (f"The model file ({kind}) answered the {n:,} test rows as plx predict does: macro "
            f"F1 {fmt(macro_f1, 3)}, accuracy {fmt(accuracy, 3)}"
            + ("" if level_error is None else f", {LEVEL_ERROR.lower()} {fmt(level_error, 3)}")
            + ".")
    if differ is not None:
        said += (f" Its level differs from this session's model of the levels on "
                 f"{differ:,} of them." if differ else
                 " It answers every one of them as this session's model of the levels does.")
    return said


def ordered_rules_said(positive: Any, n_levels: int) -> str:
    """The Rules page's line on ordered levels: what a rule here is about, and why the model
    of the levels takes none (`ORDERED_RULES_WHY`, the words `plx rules add` refuses with)."""
    return (f"The label's {n_levels} classes are ordered levels (Data page): a rule here is "
            f"about {positive!r} against the other {n_levels - 1} taken together, in the KB in "
            "use. The model of the levels (\"Among all\" on the Query, Explain and Evaluate "
            f"pages) holds no expert rules yet: {ORDERED_RULES_WHY}, so a rule would not "
            "change the level it answers.")


def level_why_said(what: str, level: str, step: Any, same: bool = False) -> str:
    """The head of an ordered answer's explanation: the step that explains it
    (`ordered.explaining_step`), said with its two sides (`step_class_name`); `same`: the
    step and explanation just given (the runner-up is the level across that step)."""
    if same:
        return (f"{what} {level!r}: the same step, {step} against {class_names(step)[1]}, "
                "decides it: the explanation above.")
    return (f"{what} {level!r}: the step that decides it is {step} against "
            f"{class_names(step)[1]}, one yes/no model of its own.")


def class_number_said(kept_direct: bool, why: bool = False) -> str:
    """What a several-class answer compares for one class: its vote's probability, or its KB's
    mean for a class too rare to compare models on (kept on its Direct KB beside the votes;
    `why` adds that reason, for a table's cell)."""
    if not kept_direct:
        return "its vote's probability"
    return "its KB's mean (too few rows for a vote)" if why else "its KB's mean"


def baselines_offer_said(labels: Sequence[str], n_train: int) -> str:
    """What the Evaluate page's button to compare with other models does, before it is pressed:
    which models, on which rows, and that it takes a while (it runs only when asked)."""
    return (f"{number_word(len(labels)).capitalize()} other models ({', '.join(labels)}) can be "
            f"fitted on the same {n_train:,} training rows and scored on the same test rows, to "
            "see whether another model does better on this data. Fitting them takes seconds on a "
            "small table and up to a minute on a large one, so they are fitted when you ask; "
            "once fitted they are kept for this data, also after a refresh.")


def few_rows_said(n_rows: int, n_pos: int, se: float, folds: int, positive: Any = "POS") -> str:
    """What a model search on few rows can say (appended to `chosen_reason_`): the standard
    error of the chosen model's out-of-fold F1 across its folds, so that a user reads the score
    and the choice among near-equal candidates as the noise they are."""
    pos, _ = class_names(positive)
    return (f"; few rows: on {n_rows:,} training rows ({n_pos:,} {pos}) this out-of-fold F1 has "
            f"a standard error of {se:.2f} across the {folds} folds, so candidates within about "
            f"{2 * se:.2f} of it scored alike and F1 on new rows may differ from it as much: "
            "more rows, not another setting, would say more")


def too_few_rows_said(n_rows: int, n_pos: int, folds: int, least: int, least_class: int,
                      positive: Any = "POS") -> str:
    """Why the tuned Direct KB answers without a model search (`chosen_reason_`), in counts."""
    pos, _ = class_names(positive)
    return (f"too few training rows to compare models out of fold ({n_rows:,}, {n_pos:,} of them "
            f"{pos}; a {folds}-fold comparison needs {least} rows and {least_class} of each "
            "class): any model's F1 on so few rows is a rough guess, more rows would say more")


# --------------------------------------------------------------------------- hints


def _example_pair(domains: Mapping[str, Sequence[str]]) -> tuple[str, str] | None:
    """A (feature, value) of the loaded data for examples: the first feature with a value,
    and its last value (often the most telling bin, e.g. the top one)."""
    for f, vals in domains.items():
        if len(vals):
            return str(f), str(vals[-1])
    return None


def example_value(domains: Mapping[str, Sequence[str]]) -> str:
    """`e.g. ≥16.82`: a value of the loaded data, for a search field's hint."""
    pair = _example_pair(domains)
    return f"e.g. {pair[1]}" if pair else "any value"


def example_condition(domains: Mapping[str, Sequence[str]]) -> str:
    """A condition `"worst radius"=≥16.82` of the loaded data in the rule syntax (quoted where
    the syntax needs it), for the hints of condition fields."""
    from .tokens import condition_text

    pair = _example_pair(domains)
    return "a=1" if pair is None else condition_text(*pair)


def _example_comparisons(domains: Mapping[str, Sequence[str]], p: float, w: float):
    """Candidate example comparisons with a cut point of a number column, the middle cut of
    each column first, `>=` before `<`, POS before NOT POS."""
    from .data import bin_reading, cut_text
    from .tokens import quote

    for f, vals in domains.items():
        cs, fmt = (bin_reading(vals) if len(vals) else None) or ((), "plain")
        for i in sorted(range(len(cs)), key=lambda i: abs(i - len(cs) // 2)):
            for op in (">=", "<"):
                for head in ("POS", "NOT POS"):
                    yield (f"IF {quote(str(f))} {op} {cut_text(cs[i], fmt)} THEN {head} "
                           f"[p={p:g}, w={w:g}]")


def _example_conditions(domains: Mapping[str, Sequence[str]], p: float, w: float):
    """Candidate example rules of one condition `feature = value`: the columns not binned as
    numbers first (in the data's order), each one's last value first, POS before NOT POS."""
    from .clause import Literal
    from .data import bin_reading
    from .rules import rule_text

    order = sorted(domains, key=lambda f: not len(domains[f])
                   or bin_reading(domains[f]) is not None)
    for neg in (False, True):  # another value before the other conclusion
        for f in order:
            for v in reversed(domains[f]):
                lits = (Literal("POS", None, neg), Literal(str(f), str(v), True))
                yield rule_text(WeightedClause(lits, p, w, source="rule"))


def rule_examples(kb: KB, rules: Iterable[WeightedClause] = (), p: float = 0.9, w: float = 5.0,
                  tries: int = 100) -> tuple[str | None, str | None]:
    """(an example rule, an example comparison on a number or None) for the Rules page's
    hints, in the model's own names and values: each reads with `parse_rules` against `kb`
    plus `rules` (so neither repeats a rule already there, enabled or not) and the two share
    no clause (a rule on a top bin reads as a comparison too), so both can be added. At most
    `tries` candidates of each are read; None where none fits."""
    from itertools import islice

    from .rules import parse_rules

    base = kb.with_rules(rules)
    domains = {f: kb.domains.get(f, ()) for f in kb.features}
    said: set[frozenset] = set()

    def first(candidates) -> str | None:
        for text in islice(candidates, tries):
            try:
                what = frozenset(frozenset(c.literals) for c in parse_rules(text, base))
            except PLXError:
                continue
            if what.isdisjoint(said):  # no clause in common: both can be added
                said.update(what)
                return text
        return None

    compare = first(_example_comparisons(domains, p, w))
    return first(_example_conditions(domains, p, w)), compare


# --------------------------------------------------------------------------- the models

MODEL_NAMES = {
    "direct": "the tuned Direct KB",
    "direct-conf": "the Direct KB with confidence weights",
    "direct-vote": "the Direct KB's one-feature (or one- and two-feature) clauses with fitted "
                   "vote weights",
    "rule-vote": "the one-feature clauses and learned terms (conjunctions of up to three "
                 "values) with fitted vote weights",
    "tree": "the ID3 tree (leaves)",
    "tree-all": "the ID3 tree",
    "forest": "the ID3 forest",
    "tree-bin": "the binary ID3 tree (one value against the rest)",
    "tree-bin-deep": "the binary ID3 tree (one value against the rest), its deepest node answering",
}


def rule_weight_meaning(unit: float, model: str = "this model") -> str:
    """What a rule's weight w means under a model whose training rows bring `unit` clause
    weights of evidence each (`KB.rule_unit`), in plain words with its numbers."""
    u = f"{unit:,.3g}" if unit < 1000 else f"{unit:,.0f}"
    two = f"{2 * unit:,.3g}" if 2 * unit < 1000 else f"{2 * unit:,.0f}"
    return (f"What w means for {model}: a training row brings about {u} in clause weights "
            f"of evidence, so a rule with w = {u} weighs as much as the data on a full row and "
            f"w = {two} outvotes them ('vs data' in the list is w ÷ {u}). Under another model "
            f"the same w weighs differently: read this line again after switching.")


def _unit_text(x: float) -> str:
    return f"{x:,.3g}" if x < 1000 else f"{x:,.0f}"


def rule_weight_needed(unit: float) -> str:
    """The one line when a rule comes without its weight w: the dashboard guesses none (a
    default w outweighed 20 rows on one table and 1.4 on another, dash24), it asks in words."""
    return (f"Choose the rule's weight w: how much it counts against the data. A training row "
            f"brings about {_unit_text(unit)} here, so w = {_unit_text(unit)} weighs as much as "
            f"one row's data and w = {_unit_text(10 * unit)} as ten rows'.")


def rule_weight_said(w: float | None, unit: float) -> str:
    """What the weight chosen in the rule form amounts to, said beside it: as many training
    rows' data (`KB.rule_unit`), or that none is chosen yet."""
    if w is None:
        return (f"No weight chosen yet: w is how much the rule counts against the data (a "
                f"training row brings about {_unit_text(unit)}).")
    rows = w / unit if unit > 0 else float("inf")
    said = f"{rows:,.3g}" if rows < 1000 else f"{rows:,.0f}"
    return f"w = {w:g} weighs as much as the data of {said} training {'row' if said == '1' else 'rows'}."


DATA_NOT_KEPT_YET = ("Not kept yet: the project keeps the table and these choices once you "
                     "press Use this data (a browser refresh before it shows the data in use "
                     "again, and an uploaded file must be chosen again).")
"""The Data page, beside "Use this data" while its choices differ from the ones in use: what a
refresh keeps (the project's data, settings, KB settings and rules, the tab's unsaved rules)."""

RULE_W_MISSING = ("give the rule its weight w, e.g. [p=0.9, w=5]: how much it counts against "
                  "the data (the line above the form says what one training row brings)")
"""A typed rule without w on the dashboard (`parse_rules(need_w=)`): no weight is guessed."""


def scoring_words() -> str:
    """How plx's default checks its candidates on the training rows (`selection`), in the
    words of a reader who does not know cross-validation: each row is answered by a model
    that was not fitted on it, one row at a time or in a number of rounds."""
    from .selection import SELECT_FOLDS
    from .vote import VOTE_FOLDS

    return (f"each checked on training rows it was not fitted on: one row at a time for the "
            f"Direct KBs, in {VOTE_FOLDS} rounds for the one-feature vote and in {SELECT_FOLDS} "
            "for the trees and the rule vote")


def candidates_sentence() -> str:
    """What plx's default compares (`selection.CANDIDATES`) and how it picks, in one sentence."""
    from .selection import CANDIDATES

    names = "; ".join(model_name(c) for c in CANDIDATES)  # a name may hold a comma
    return (f"Compares {names} — {scoring_words()} — and answers with the one that found the "
            "positive rows best, at the threshold it chose.")


SETTING_WORDS = {"tree-all": "grown in full", "tree-bin": "grown in full",
                 "tree-bin-deep": "grown in full, unpruned",
                 "direct-vote": "on the data's own cut points"}
"""How an unadorned candidate key (`selection.CANDIDATES`) is set, where a variant of it can
be scored beside it (a depth limit, finer bins)."""


def setting_words(key: str) -> str:
    """The setting a candidate key (`Selection.scores`' keys: "tree-all depth≤3",
    "direct-vote bins=32", "tree-bin-deep pruned α=0.01") names, in plain words; "" for none."""
    kind, _, rest = str(key).partition(" ")
    if not rest:
        return SETTING_WORDS.get(kind, "")
    if rest.startswith("depth≤"):
        return f"at most {rest.removeprefix('depth≤')} levels deep"
    if rest.startswith("features≤"):
        return f"at most {rest.removeprefix('features≤')} features a path"
    if rest.startswith("pruned"):
        return "pruned back (fewer branches)"
    if rest.startswith("bins="):
        return f"on {rest.removeprefix('bins=')} finer bins per numeric column"
    if rest == "pairs":
        return "with two-feature clauses too"
    if rest.startswith("m="):
        return f"confidence strength {rest.removeprefix('m=')}"
    return rest


def candidate_name(key: str) -> str:
    """A candidate key in plain words: the model's name and its setting (`setting_words`)."""
    setting = setting_words(key)
    return model_name(str(key).split()[0]) + (f", {setting}" if setting else "")


def selection_sentence(scores: Mapping[str, float], chosen: str, n_rows: int,
                       positive: Any = "POS") -> str:
    """plx's default choice in one plain sentence: how many kinds of model it tried on the
    training rows, which answers and its F1 against the best other candidate. `scores`: each
    candidate's out-of-fold F1 by its key (`Selection.scores`: `tree-all depth≤3` is a setting
    of `tree-all`); `chosen`: the key that answers. Where another scored higher, it says the
    choice is not the top score (the selection's margins and one-standard-error rule). The
    keys themselves are never said (`candidate_name`)."""
    pos, _neg = class_names(positive)
    kinds = len({str(k).split()[0] for k in scores})
    others = sorted(((float(v), str(k)) for k, v in scores.items() if k != chosen), reverse=True)
    mine = float(scores[chosen])
    tried = (f"plx tried {plural(kinds, 'kind')} of model ({plural(len(scores), 'setting')} in "
             f"all) on the {n_rows:,} training rows, each checked on rows it was not fitted "
             f"on, and answers with {candidate_name(str(chosen))}")
    f1 = (f"F1 {fmt(mine, 3)}: 1 when every {pos} row is found with no false alarm, 0 when "
          "none is found")
    if not others:
        return f"{tried} ({f1})."
    best, name = others[0]
    same = name.split()[0] == str(chosen).split()[0]
    other = (f"the same model {setting_words(name) or 'without that setting'}" if same
             else candidate_name(name))
    if best <= mine:
        return (f"{tried}: it found the {pos} rows best ({f1}), against {fmt(best, 3)} for the "
                f"next, {other}.")
    return (f"{tried} ({f1}). Another candidate, {other}, scored higher ({fmt(best, 3)}), "
            "but not by enough for plx to prefer it: a model must win by a clear margin, not by chance (the "
            "details name the rule applied).")


def threshold_column_said() -> str:
    """What the candidates table's `threshold` is (`selection.best_threshold`): the cut on
    ω(POS) for the Direct KBs and trees, on the vote's probability for the votes, whose cut
    is moved into their base-rate clause (`vote.prior_shift`), so their KB cuts ω(POS) at 0.5."""
    return ("Its threshold is where it would cut: on ω(POS) for the Direct KBs and the trees, "
            "on the vote's probability for the fitted votes, whose cut plx moves into their "
            "starting point (the clause every row holds) so that their KB cuts ω(POS) at 0.5.")


def score_shown(value: float) -> str:
    """A score as a metric shows it: three decimals, "—" where it has nothing to count (a
    precision with no row called positive read "nan" on Evaluate, dash25)."""
    return "—" if value is None or not np.isfinite(value) else f"{value:.3f}"


def precision_help(positive: str, value: float) -> str:
    """What precision is, naming the class; why it is "—" when no row is called it."""
    said = f"right among the rows called {positive}"
    if value is None or not np.isfinite(value):
        said += f"; no row is called {positive} at this threshold, so there is nothing to count"
    return said


def rules_set_aside(n: int, was: str, now: str) -> str:
    """The note when the question changes (another label or positive class) under rules: a
    rule's THEN is the class it was written for (IF diabetes = yes THEN IV read as THEN
    stroke on the next table, dash25), so they leave the model, kept in the rules history."""
    return (f"{_cap(counted(n, 'rule'))} written for {was} {'was' if n == 1 else 'were'} set "
            f"aside: a rule's THEN is the class it was written for, not {now}. "
            f"The rules history on the Rules page keeps {'it' if n == 1 else 'them'}: restore "
            f"{'it' if n == 1 else 'them'} there if {'it holds' if n == 1 else 'they hold'} for "
            "the new question too.")


def threshold_in_use(threshold: float, own: float, chosen: bool) -> str:
    """The decision threshold in use and whose it is: the user's (`chosen`, as `plx fit
    --threshold`), said beside the model's `own`, or the model's own."""
    if chosen and abs(threshold - own) > 1e-9:
        return f"{threshold:g}, set by you (the model's own: {own:g})"
    return f"{threshold:g}" + (", set by you" if chosen else "")


def threshold_dropped(threshold: float, was: str) -> str:
    """The note when the question changes (another label or positive class) under a threshold
    the user set: it was chosen for `was`, so the new model answers at its own."""
    return (f"The decision threshold you set ({threshold:g}) was chosen for {was}; the new "
            "question is answered at the model's own threshold (set yours again on Evaluate).")


def threshold_moved_sentence(own: float, threshold: float) -> str:
    """Why a fitted vote (`direct-vote`, `rule-vote`) answers at `threshold` while its row in
    the candidates table says `own`: `own` cuts the vote's probability; the fit moved it into
    the base-rate clause (signed weight b − logit(own), `vote.prior_shift`), after which ω(POS)
    is above `threshold` (0.5) where the vote's probability is above `own`."""
    return (f"The {own:g} beside the model that answers is a cut on its vote's probability, not "
            f"on ω(POS): plx moved it into the model's starting point (the clause every row "
            f"holds), which shifts every row's "
            f"ω(POS) so that it is above {threshold:g} where the vote's probability is above "
            f"{own:g}. So the model answers at the decision threshold {threshold:g}.")


def model_name(chosen: str) -> str:
    """A plain name for the model that answers (`PLXClassifier.chosen_`, the model file's
    "chosen"): `direct-conf` → the Direct KB with confidence weights."""
    return MODEL_NAMES.get(chosen, str(chosen))


# --------------------------------------------------------------------------- "Advanced"

METHOD_NAMES = {
    "median": "exact weighted median (closed form, no solver needed)",
    "lp": "linear program (Definition 3, solved with HiGHS)",
}
SEMANTICS_NAMES = {
    "relevant": "only the rules about the known values (relevant knowledge base)",
    "full": "the whole knowledge base",
    "auto": "automatic",
}


def method_name(method: str) -> str:
    """A plain name for `Bounds.method`."""
    return METHOD_NAMES.get(method, str(method))


def semantics_name(semantics: str) -> str:
    """A plain name for `Bounds.semantics`."""
    return SEMANTICS_NAMES.get(semantics, str(semantics))


def inconsistency_sentence(value: float) -> str:
    """What the LP's optimum means for this answer, in one sentence."""
    v = float(value)
    if v <= 1e-9:
        return "Inconsistency 0: the rules about these values agree; none had to be bent."
    return (f"Inconsistency {v:.3g}: the rules about these values contradict each other, and "
            f"this is the least total amount (weight × change of probability) by which they "
            f"must be bent to agree; 0 would mean no conflict.")


def advanced_lines(bounds: Any) -> list[str]:
    """The solver details of an answer, one plain line each, for an "Advanced" part."""
    lines = [
        f"Bounds of ω(POS): [{float(bounds.lower):.4f}, {float(bounds.upper):.4f}].",
        f"Method: {method_name(getattr(bounds, 'method', ''))}.",
        f"Rules used: {semantics_name(getattr(bounds, 'semantics', ''))}; "
        f"{getattr(bounds, 'n_relevant', 0):,} bear on this answer.",
    ]
    if hasattr(bounds, "inconsistency"):
        lines.append(inconsistency_sentence(bounds.inconsistency))
    if getattr(bounds, "forced", 0):
        lines.append(f"{bounds.forced:,} rules are satisfied outright by the known values.")
    return lines


CUT_METHODS = {"mdlp": "where the outcome changes most (default)",
               "tree": "where a small decision tree splits the outcome",
               "quantile": "about as many rows in each bin (uneven where values repeat)",
               "uniform": "bins of equal width"}
"""The discretiser's methods (`plx_core.discretize.METHODS`) in words, for the Data page;
the keys ("mdlp", "quantile", …) are `plx fit --discretize`'s and never shown."""
CUT_SAID = {**CUT_METHODS, "mdlp": "where the outcome changes most",
            "cuts": "at the data set's own cut points"}
"""How a column was cut (`Binning.method`), in the words of the cut points' tables and notes."""


def cut_how(method: str) -> str:
    """How a numeric column was cut, in plain words (`CUT_SAID`; an unknown key as it is)."""
    return CUT_SAID.get(method, method)


def numeric_said(columns: Sequence[str], reading: str = "") -> str:
    """The Data page's note on its numeric columns (one note for those read plainly, one for a
    column read otherwise, with its `reading`): cut into ordered bins, with no count of bins
    (plx's default may cut finer than the page)."""
    read = f"; {reading}" if reading else ""
    if len(columns) == 1:
        return (f"{columns[0]!r} is numeric: cut into ordered bins on the training rows (cut "
                f"points below{read})")
    shown = ", ".join(map(repr, columns[:8])) + (f" and {len(columns) - 8} more"
                                                 if len(columns) > 8 else "")
    return (f"{len(columns)} numeric columns ({shown}): each cut into ordered bins on the "
            f"training rows (cut points below{read})")


def cuts_said(column: str, cuts: Sequence[str], how: str) -> str:
    """How a numeric column is cut, its cut points written as the column is and the bins they
    make counted: the one wording of the Data page, the KB page and `plx fit`."""
    if not cuts:
        return f"{column!r}: not cut, one bin holds every value ({how} found no cut)"
    shown = ", ".join(cuts[:8]) + (" …" if len(cuts) > 8 else "")
    return f"{column!r}: cut at {shown} into {counted(len(cuts) + 1, 'bin')}, {how}"


def bins_said(bins: Mapping[str, Any], features: Iterable[str] | None = None) -> list[str]:
    """`cuts_said` for each binned column (`Binning`s by column; of `features`, in their order,
    where given), its cut points written as the column is (`data.cut_text`)."""
    from .data import cut_text

    names = list(bins) if features is None else [f for f in features if f in bins]
    return [cuts_said(f, [cut_text(c, bins[f].number_format) for c in bins[f].cuts],
                      cut_how(bins[f].method)) for f in names]


def cut_points_caption(in_use: bool, own: bool, finer: bool = False) -> str:
    """What a table of cut points is: those of the model that answers (`in_use`; `finer`: plx's
    default's own, not the Data page's), or those the page's settings give before it has
    learned (`own`: settings as plx's default's, which may then cut finer)."""
    if in_use and finer:
        return ("The model that answers (plx's default) cuts the numeric columns at these points, "
                "its own, found on the training rows as plx fit finds them: its answers, "
                "explanations, row lists and the rule form use them.")
    if in_use:
        return ("The model that answers cuts the numeric columns at these points, found on the "
                "training rows only: its answers, explanations, row lists and the rule form use "
                "them.")
    if own:
        return ("Cut points with these settings, found on the training rows only. plx's default "
                "may cut finer, at its own points, where its search scores them better: once you "
                "use this data, this table shows the points the model that answers uses.")
    return ("Cut points with these settings, found on the training rows only: once you use this "
            "data, plx's default and every KB use them.")


PAGE_BINS_SAID = "The bins set on this page (the Direct and Tree KBs use these)"
"""The label of the Data page's own bins where the model that answers cuts finer."""


def row_outside_said(row: str) -> str:
    """The Query page's note when the row answered below is not among the rows its filters list
    (a filter set after the row was chosen): the answer is still that row's, said."""
    return (f"The answer below is still for {row}, which these filters leave out: click a row "
            "above, or choose it below, to answer another.")


def saved_where_said(file: Any, server: str = "") -> str:
    """Where the Projects page's work is saved, for a clinician: the file's name and folder
    (`Store.file`), what one file holds and how to back it up; the URL is for administrators."""
    if file is not None:
        return (f"Everything you change is saved as you go, in one file on this computer: "
                f"{file.name}, in the folder {file.parent}. That file holds every project. To "
                f"back up your work, close plx and copy the file (with {file.name}-wal beside "
                "it, if there is one), or export a project to one file below.")
    if server:
        return (f"Everything you change is saved as you go, in your team's database ({server}): "
                "ask its administrator how it is backed up, or export a project to one file "
                "below.")
    return ("Your changes are kept in memory for this session only: nothing is saved when plx "
            "stops. Export a project to one file below to keep it.")


def whole_levels_said(lo: float, hi: float, n: int, raced: bool = False) -> str:
    """Why a column of a few whole numbers (a 0–10 score, a grade, a count, a ward code) is read
    as categories, and how to have it cut into ordered bins: `plx fit` says it, so a score's
    order is never lost silently (benchmarks/RESULTS.md, "numeric21", "whole22"); `raced`: the
    fit weighed both readings (`PLXClassifier.whole_read_`), and why levels stayed is said."""
    return (f"its {n} whole numbers ({fmt(lo, 0)} to {fmt(hi, 0)}) are each a level of their "
            "own, in no order (a rule can say = 3, not ≥ 3)" + (
                ": its class rate did not step with the value out of fold, or the search on "
                "ordered bins scored no better" if raced else "")
            + "; to cut it into ordered bins, choose it among the dashboard's numeric columns")


def whole_numbers_said(lo: float, hi: float, n: int, bins: Sequence[str]) -> str:
    """Why a column of a few whole numbers is cut into ordered bins (`PLXClassifier`'s race of
    the two readings chose it: its class rate steps with the value), and into which."""
    return (f"its {n} whole numbers ({fmt(lo, 0)} to {fmt(hi, 0)}) are cut into ordered bins "
            f"({', '.join(bins)}): its class rate steps with the value out of fold and the "
            "search on these bins scored better than with each value a level (a rule can say "
            f"{bins[-1]})")

def levels_said(levels: Sequence[str], shown: int = 6) -> str:
    """How a column of ordered bands or scale words is read (`data.levels_format`), in words."""
    names = [repr(v) for v in levels]
    if len(names) > shown:
        names = [*names[:shown - 2], "…", names[-1]]
    return (f"ordered levels {' < '.join(names)} ({len(levels)} levels), cut in that order, "
            "so a rule can group neighbouring levels")


def flags_said(mapping: Mapping[str, str]) -> str:
    """How a yes/no column written in several vocabularies is read (`data.flag_map`)."""
    sides: dict[str, list[str]] = {}
    for k, v in mapping.items():
        sides.setdefault(v, []).append(k)
    return ("one yes/no answer written " + f"{len(mapping)} ways, read as one: " + "; ".join(
        f"{', '.join(map(repr, sorted(ks)))} as {v!r}" for v, ks in sides.items()))


def unseen_levels_note(n: int, shown: Sequence[str], levels: Sequence[str]) -> str:
    """The cells of a column of ordered levels that are none of the fit's levels."""
    return (f"{counted(n, 'cell')} not among the column's {len(levels)} ordered levels "
            f"({', '.join(map(repr, shown))}) read as unknown, as an unseen value is")


def whole_race_said(columns: Sequence[str], ordered: Sequence[str], numbers: float | None,
                    levels: float | None, won: bool) -> str:
    """The sentence `chosen_reason_` adds on the reading of columns of a few whole numbers
    (`PLXClassifier._race_whole`): which were read as ordered numbers, which kept each value a
    level of its own, and why (the screen, or the two searches' out-of-fold F1)."""
    def names(cs: Sequence[str]) -> str:
        shown = ", ".join(repr(str(c)) for c in cs[:6])
        return ("column " if len(cs) == 1 else "columns ") + shown + (
            f" and {len(cs) - 6} more" if len(cs) > 6 else "")

    rest = [c for c in columns if c not in set(ordered)]
    kept = (f"{names(rest)} of a few whole numbers kept each value a level of its own (its "
            "class rate does not step with the value out of fold: a code, or no effect)"
            if len(rest) == 1 else
            f"{names(rest)} of a few whole numbers kept each value a level of their own (their "
            "class rate does not step with the value out of fold: codes, or no effect)")
    if not ordered:
        return "; " + kept
    if numbers is None or levels is None:
        race = f"{names(ordered)} stayed levels (a search made no choice)"
    elif won:
        race = (f"{names(ordered)} read as ordered numbers cut into bins, which answers: "
                f"{numbers:.3f} out of fold against {levels:.3f} with each value a level")
    else:
        race = (f"{names(ordered)} read as ordered numbers scored {numbers:.3f} out of fold, not "
                f"above {levels:.3f} with each value a level: kept as levels")
    return "; " + race + ("; " + kept if rest else "")


def class_decision_said(votes: bool | None = None, by_mean: Sequence[str] = ()) -> str:
    """How a model of several classes picks a row's class, as `PLXClassifier.predict` and
    `plx predict` do (`BoundsArray.compared_by`): `votes` whether its classes are votes
    (None: not fitted yet, either way); `by_mean`, beside votes, the classes compared by their
    KB's mean instead (a rare class kept on its Direct KB): said, not called a vote."""
    if votes is None:
        return ("a row's class is the one whose model gives it the highest number — a vote's "
                "probability, any other KB's mean")
    if votes and by_mean:
        return ("a row's class is the one given the highest number: its vote's probability, "
                f"for {', '.join(map(repr, by_mean))} its KB's mean (each class's KB bounds "
                "shown beside)")
    if votes:
        return ("a row's class is the one whose vote gives it the highest probability (each "
                "class's KB bounds shown beside)")
    return "a row's class is the one whose KB gives the highest mean"


def ordered_said(order: Sequence[str], chosen: Sequence[str], reasons: Sequence[str] = ()) -> str:
    """How a model of ordered classes answers (`PLXClassifier(class_order=…)`, `chosen_reason_`):
    its levels in order, one yes/no model a step ("above" a level) and what each step chose."""
    steps = "; ".join(f"above {lo!r}: {c}" for lo, c in zip(order, chosen))
    return (f"ordered levels {' < '.join(map(repr, order))}: one yes/no model for each step "
            f"between neighbouring levels, a row's level the number of steps it is above "
            f"(each step chosen as a two-class label is); {steps}")


def scale_levels_said(order: Sequence[str], off: str = "class_order=None") -> str:
    """The note when plx's default fits a label's classes as ordered levels because they are a
    known scale's words (`ordered.scale_order`): the order it read, and how to turn it off
    (`off`: the setting as the user writes it)."""
    return (f"the label's {len(order)} classes read as ordered levels "
            f"({' < '.join(map(repr, order))}), the words of a known scale: plx fits one yes/no "
            f"model for each step between them, a row's level the steps it is above ({off}: "
            "each class against the rest)")


def ordered_hint(classes: Sequence[str]) -> str:
    """A several-class fit's reason, where its classes are the words of a known scale
    (`ordered.scale_order`; numbers and Roman numerals alone are not: they may be codes) but
    were fitted one against the rest (`class_order=None`, `plx fit --class-order none`, the
    dashboard without its choice): how to fit them as levels; "" otherwise."""
    from .ordered import scale_order

    if (order := scale_order(classes)) is None:
        return ""
    return (f"; the classes read as ordered levels ({order_said(order)}): plx's default "
            "(class_order='scale'; plx fit without --class-order none) fits one yes/no model for "
            f"each step between them (the dashboard: \"{ORDERED_CHOICE}\" on the Data page)")


ORDERED_CHOICE = "Treat the classes as ordered levels"
"""The Data page's choice that fits the model of every class as ordered levels (`plx fit
--class-order`), offered where the classes are a known scale (`ordered.recognised_order`)."""
ORDER_INPUT = "The levels from lowest to highest, separated by commas"
"""The Data page's one widget for the order, as `plx fit --class-order` takes it."""
ORDERED_RULES_WHY = ("its steps answer 'above a level', and a rule's THEN names a class")
"""Why a model of ordered classes takes no expert rules yet: `modelrules` refuses them with
it, the dashboard's Rules page says it."""
LEVEL_ERROR = "Mean level error"
"""The Evaluate page's measure of ordered levels that respects their order."""


def order_said(order: Sequence[str]) -> str:
    """The levels in their order, in words: 'mild' < 'moderate' < 'severe'."""
    return " < ".join(repr(str(c)) for c in order)


def levels_in_use_said(order: Sequence[str]) -> str:
    """The Data page's header line when the classes in use are treated as ordered levels."""
    return (f"The classes are treated as ordered levels, {order_said(order)}: the model of "
            "every class answers a level.")


def ordered_offer_said(order: Sequence[str], recognised: bool) -> str:
    """What treating the label's classes as ordered does, said beside the Data page's choice
    (`recognised`: the order is a known scale's, `ordered.recognised_order`)."""
    return (("The classes read as the levels of one scale" if recognised else
             "The classes can be treated as the levels of one scale")
            + f" ({order_said(order)}). Treated as ordered, the model of every class (the "
            "Query, Explain and Evaluate pages' \"Among all\" section) fits one yes/no model "
            "for each step between neighbouring levels ('above' a level) and answers a row's "
            "level as the number of steps it is above, as plx fit --class-order does. Numeric "
            "columns are then cut where the levels change, not only where the positive class "
            "does (the pages' answer for the positive class against the rest uses these bins).")


def level_answer_said(level: str, n_above: int, n_levels: int, vote: float, lower: float,
                      upper: float, runner_up: str, runner_vote: float, tie: bool) -> str:
    """An ordered model's answer for one row in words: the level (the steps it is above), its
    vote and bounds, the runner-up, and a tie (a step at its threshold answers "not above":
    the lower level), as `plx predict` writes them in columns."""
    steps = n_levels - 1
    return (f"plx answers the level {level!r}: the row is above {n_above} of the {steps} steps "
            f"between the {n_levels} levels (each step one yes/no model, 'above' a level). Its "
            f"vote, {fmt(vote, 3)}, is the highest of the {n_levels} levels (its support, "
            f"{fmt(lower, 3)} to {fmt(upper, 3)}); the runner-up is {runner_up!r} "
            f"({fmt(runner_vote, 3)})."
            + (" A tie: a step answers exactly at its threshold, which is not above it (the "
               "lower level)." if tie else ""))


def step_class_name(lower: str, above: bool = True) -> ClassName:
    """The class an ordered model's step explains, carrying its other side ("above 'mild'" /
    "at most 'mild'"), so an explanation of the step is said in that step's words."""
    return ClassName(level_step_said(lower, above), level_step_said(lower, not above))


def level_error_said(error: float, n_levels: int) -> str:
    """What the mean level error is: how many levels apart the level answered is from the
    row's own, on average over the test rows (0 all right; 1 a level off on average)."""
    return (f"{LEVEL_ERROR}: {fmt(error, 3)}, how many levels apart the level answered is from "
            f"the row's own, on average over the test rows (0: all right; the {n_levels} "
            "levels' order counts, which macro F1 does not see).")


def level_step_said(lower: str, above: bool = True) -> str:
    """The class an ordered model's step explains (its POS): rows above the level `lower`, or
    (`above` False: a step whose rarer side is the lower one) rows at most `lower`."""
    return f"above {lower!r}" if above else f"at most {lower!r}"


__all__ = [
    "LISTED_VALUES", "values_listed",
    "class_decision_said", "ordered_said", "scale_levels_said", "ordered_hint", "level_step_said", "ORDERED_CHOICE",
    "ORDER_INPUT", "ORDERED_RULES_WHY", "LEVEL_ERROR", "order_said", "ordered_offer_said",
    "level_answer_said", "levels_in_use_said", "step_class_name", "level_error_said", "LEVEL_TABLE_HEADERS",
    "level_why_said", "LEVELS_SECTION_ENDS", "levels_section_said", "ordered_rules_said",
    "levels_file_said", "MODEL_FILE_CHECK", "model_file_check_said",
    "LEARNED", "MODEL_NAMES", "model_name",
    "source_text", "selection_sentence", "candidate_name", "setting_words", "scoring_words",
    "candidates_sentence", "threshold_column_said", "threshold_moved_sentence", "threshold_in_use",
    "BASE_RATE_IF", "DATA_NOT_KEPT_YET", "RULE_W_MISSING", "STARTING_POINT", "is_prior", "prior_text",
    "METHOD_NAMES", "SEMANTICS_NAMES", "TIE_RESOLUTION", "advanced_lines", "answer_sentence",
    "changes_sentence", "ClassName", "class_name", "rule_weight_meaning", "rule_weight_needed", "rules_set_aside", "score_shown", "precision_help", "rule_weight_said", "class_names", "clause_sentence", "clause_text", "clause_texts", "condition",
    "confidence_word", "counterfactual_sentence", "decision_word", "evidence_line_label",
    "example_condition", "example_value", "rule_examples",
    "evidence_sources", "evidence_summary", "prior_ranked_said", "own_kb_said", "starting_point", "PRIOR_ALONE", "explanation_sentence", "fmt", "undecided_said",
    "other_side_said", "start_said", "shapley_axis", "shapley_said", "case_column_dropped",
    "whole_levels_said", "whole_numbers_said", "whole_race_said", "levels_said", "unseen_levels_note", "flags_said",
    "saved_where_said", "row_outside_said", "numeric_said", "cuts_said", "bins_said", "CUT_METHODS", "CUT_SAID", "cut_how",
    "cut_points_caption", "PAGE_BINS_SAID",
    "inconsistency_sentence", "method_name", "number_word", "omega_meaning", "omega_symbol",
    "open_range_said", "baselines_offer_said", "evidence_reading_said", "what_would_change_said", "CLASS_TABLE_HEADERS", "class_number_said",
    "plural", "counted", "noun", "verb", "support_for", "few_found_sentence", "counts_at_threshold", "one_class_part",
    "semantics_name", "shapley_sentence", "rule_against_data", "plx_row_said", "RULE_DATA_GAP", "AGAINST_DATA", "RULE_NOTE_SEP", "SUPPORT_ENDS", "MODEL_FILE_NEEDS_DEFAULT", "model_file_said", "support_axis", "support_column",
    "end_support_said", "split_sentence", "learns_from_said", "LEARNERS", "tie_groups", "ties_sentence",
]
