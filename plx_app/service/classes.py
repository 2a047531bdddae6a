"""Several classes in the dashboard: the pages answer one class (POS) against the rest, and a
label of more than two classes also gets plx's model of all of them — `PLXClassifier()` on
the original classes (one KB per class, the family `auto` chooses for every class) — which
picks each instance's class, with every class's bounds and the explanation of the picked class
against the runner-up. Fitted on the Data page's binned training rows, so an instance (its
values on those bins, unknowns allowed) is answered as it is shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from plx_core import wording
from plx_core.estimator import PLXClassifier
from plx_core.explain import Explanation
from plx_core.notes import collected
from plx_core.ordered import mean_level_error
from plx_core.query import TIE_EPS, BoundsArray

from .instances import Instance
from .kbs import DASHBOARD_BUDGET
from .tables import case_groups, label_values


def label_classes(ws) -> list[str]:
    """The label's classes as the Data page lists them (most rows first)."""
    return label_values(ws.raw, ws.settings.label)


def several(ws) -> bool:
    """Whether the label has more than two classes (POS stands for one of them)."""
    return len(label_classes(ws)) > 2


def class_order(ws) -> tuple[str, ...] | None:
    """The label's classes from lowest to highest level when the Data page treats them as
    ordered (`DataSettings.class_order`: the model of every class is then
    `PLXClassifier(class_order=…)`, as `plx fit --class-order`); None: one class against the
    rest."""
    order = ws.settings.class_order
    return tuple(order) if order and several(ws) else None


def class_labels(ws, part: str = "train") -> pd.Series:
    """The original class of each training (once per row) or test row, written as the Data
    page lists the classes."""
    X = ws.X_train if part == "train" else ws.X_test
    once = ~X.index.duplicated(keep="first") if part == "train" else np.ones(len(X), bool)
    y = ws.raw.frame.loc[X.index[once], ws.settings.label]
    return y.map(lambda v: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))


@dataclass(frozen=True)
class ClassScores:
    """The model of every class on the test rows: macro F1, accuracy, the confusion
    matrix (rows: true class, columns: picked class), and what answering them said (values
    the model never saw, answered as unknown)."""

    macro_f1: float
    accuracy: float
    confusion: pd.DataFrame
    notes: tuple[str, ...] = ()
    level_error: float | None = None
    """Ordered levels: the mean of |level answered − the row's own level| over the test rows
    whose class the model knows (`wording.level_error_said`); None otherwise."""


def _answered(est: PLXClassifier, X: pd.DataFrame) -> tuple[list[BoundsArray], tuple[str, ...]]:
    """Every class's bounds for the rows of X and what answering them said (`_means`'
    warnings: unseen values, values read as written otherwise), each once — kept to be
    shown, not dropped. A row some class's KB could not answer (the LP failed) is said by
    `check_answered`, never counted silently."""
    with collected() as noted:
        res = est._means(X, say_failed=False)
    return res, tuple(dict.fromkeys(noted))


def check_answered(res: list[BoundsArray], classes: list[str], index: pd.Index,
                   decided: str) -> None:
    """Raise `SolverError` naming how many rows a class's KB could not answer (the LP
    failed: NaN bounds), the first with its class and why, and `decided` (what is done):
    rows counted and worded as every path says them (`query.unanswered`)."""
    from plx_core.data import row_name
    from plx_core.errors import SolverError
    from plx_core.query import failed_notes, unanswered

    note = unanswered(failed_notes(res, classes), decided, lambda r: row_name(index, r))
    if note is not None:
        raise SolverError(str(note))


def class_scores(ws, est: PLXClassifier) -> ClassScores:
    """Score the model of every class (`fit_classes`) on the test split, once per session; a
    test row some class's KB could not answer stops it (`check_answered`), as the Evaluate
    page's scores of one class are stopped: its pick would be among the others only."""
    from sklearn.metrics import f1_score

    def make() -> ClassScores:
        truth = class_labels(ws, "test").to_numpy(dtype=object)
        classes = [str(c) for c in est._class_str]
        res, notes = _answered(est, ws.X_test)
        check_answered(res, classes, ws.X_test.index, "no class picked among all of them, so "
                       "nothing is scored")
        picked = np.array([str(c) for c in est._decide(res)], dtype=object)
        order = getattr(est, "_order", None) if est.class_order_ is not None else None
        if order is not None:  # the scale's order, lowest first
            classes = [str(c) for c in order]
        rows = classes + sorted(set(truth) - set(classes))  # a class only the test rows have
        cm = pd.crosstab(pd.Categorical(truth, categories=rows),
                         pd.Categorical(picked, categories=classes), dropna=False)
        cm.index.name, cm.columns.name = ("true level", "answered") if order else (
            "true class", "picked")
        error = None if order is None else mean_level_error(truth, picked, classes)
        return ClassScores(float(f1_score(truth, picked, average="macro")),
                           float(np.mean(truth == picked)), cm, notes, error)

    return ws.cached("class-scores", class_order(ws), make=make, scope="data")


FIT_HELP = "Fits one model per class on the training rows (once per session)."
FIT_WHAT = "Fitting the model of every class"  # its progress bar and its problems say this


def fit_classes(ws, progress: Callable[[float, str], None] | None = None) -> PLXClassifier:
    """plx's model of every class, fitted once per session and data (the workspace's cache),
    within the memory a session's default model gets (`kbs.DASHBOARD_BUDGET`, shared by
    the classes' KBs)."""
    order = class_order(ws)

    def make() -> tuple[PLXClassifier, tuple[str, ...]]:
        once = ~ws.X_train.index.duplicated(keep="first")
        X = ws.X_train[once]
        cases = case_groups(ws.raw, ws.settings)  # the Data page's case column: kept together
        with collected() as noted:  # kept: `fit_notes`
            est = PLXClassifier(random_state=ws.kb_settings.random_state,
                                memory_budget=DASHBOARD_BUDGET,
                                class_order=None if order is None else list(order)).fit(
                X, class_labels(ws).to_numpy(dtype=object),
                None if cases is None else cases.loc[X.index].to_numpy(), progress=progress)
        return est, tuple(dict.fromkeys(noted))

    return ws.cached("classes", order, make=make, scope="data")[0]


def levels_model_file(ws, fmt: str = "json") -> bytes:
    """The session's model of ordered levels (`fit_classes` with `class_order`) as the model
    file `plx fit --class-order` writes (`modelfile.OrderedModelFile`), reading raw rows as
    this session cuts them (`model.file_schema`): `plx predict` and `plx explain` answer it."""
    from plx_core.modelfile import model_bytes, model_of

    from .model import file_schema

    est = fit_classes(ws)
    if est.class_order_ is None:
        raise ValueError("the model of every class is not one of ordered levels")
    return model_bytes(model_of(est, file_schema(ws, ws.dataset.schema.bins),
                                label=ws.settings.label, n_train=ws.n_train_rows), fmt)


@dataclass(frozen=True)
class FileCheck:
    """An uploaded model file answering this session's test rows as `plx predict` answers
    them: its kind in words, the rows, macro F1 and accuracy against their classes, the mean
    level error (ordered levels) and how many decisions differ from the session's own model
    of the same kind (None: that model is not fitted, or is of another kind)."""

    kind: str
    n_rows: int
    macro_f1: float
    accuracy: float
    level_error: float | None
    differ: int | None


def check_model_file(ws, data: bytes) -> FileCheck:
    """Answer the test rows (as uploaded, the label left out) with a model file, as `plx
    predict` reads and answers them (`cli.Model`); a damaged file or one that does not fit
    these columns raises one line (`ModelFileError`, `DataError`)."""
    from sklearn.metrics import f1_score

    from plx_core.cli import Model
    from plx_core.modelfile import load_model

    m = Model(load_model(data, "the model file"))
    X = ws.raw.frame.loc[ws.X_test.index].drop(columns=[ws.settings.label], errors="ignore")
    with collected():  # the file's reading notes: plx predict's, not this check's
        pred = m.predict(m.schema.apply(X, label=False)[0])
    answered = pred["decision"].astype(str).to_numpy(dtype=object)
    truth = class_labels(ws, "test").to_numpy(dtype=object)
    if m.classes is None:  # a yes/no model: its own two classes, the others as its negative
        truth = np.where(truth == str(m.positive), str(m.positive), str(m.negative))
    differ = None
    if m.steps and classes_fitted(ws) and class_order(ws) == tuple(m.classes):
        differ = int((answered != fit_classes(ws).predict(ws.X_test).astype(str)).sum())
    kind = ("ordered levels " + wording.order_said(m.classes) if m.steps else
            f"{len(m.classes)} classes" if m.classes else f"{m.positive} against {m.negative}")
    return FileCheck(kind, len(X), float(f1_score(truth, answered, average="macro")),
                     float(np.mean(truth == answered)),
                     mean_level_error(truth, answered, m.classes) if m.steps else None, differ)


def fit_notes(ws) -> tuple[str, ...]:
    """What fitting the model of every class said (columns left out or grouped, a column
    that copies the label…), each once, for the page to show; () before it is fitted."""
    return ws.cached("classes", class_order(ws), make=lambda: (None, ()), scope="data")[1] if (
        classes_fitted(ws)) else ()


def classes_fitted(ws) -> bool:
    return ws.is_cached("classes", class_order(ws), scope="data")


@dataclass(frozen=True)
class ClassAnswer:
    """One instance answered among every class: `table` (per class: lower, upper and mean of
    its ω(POS) bounds and, when votes answer, `vote`, the vote's own probability; in
    predict's order, `BoundsArray.compared_by`), the `picked` class and the `runner_up`,
    whether they `tie` (decided by class order), and the k-feature explanations of why the
    instance is `picked` and why it is not `runner_up` (that class's KB against the rest)."""

    table: pd.DataFrame
    picked: str
    runner_up: str
    tie: bool
    why: Explanation | None
    why_not: Explanation | None
    model: str
    failed: tuple[tuple[str, str], ...] = ()
    """(class, why) for each class whose KB could not answer the instance (the LP failed):
    not compared, said (`answer_sentences`)."""
    notes: tuple[str, ...] = ()
    """What answering said (values the model never saw, answered as unknown)."""
    kept_direct: tuple[str, ...] = ()
    """Classes too rare to compare models on, which keep their Direct KB while `model`
    answers for the others (`selection.MIN_CLASS_ROWS`)."""
    starts: tuple[float | None, float | None] = (None, None)
    """The starting points of the picked class's and the runner-up's own KBs (the support
    before any value is known, `explain.start_value`; None: no starting point), said with
    what each class's KB answers (`wording.own_kb_said`)."""
    order: tuple[str, ...] = ()
    """Ordered levels (lowest first; `table` in this order): the answer is a level, `why` and
    `why_not` explained by a step (`steps`); () for one class against the rest."""
    steps: tuple[Any, Any] = (None, None)
    """Ordered levels: the steps that explain the level and the runner-up
    (`wording.step_class_name`: "above 'mild'" carrying "at most 'mild'")."""


def class_answer(est: PLXClassifier, inst: Instance, k: int = 2) -> ClassAnswer:
    """`inst` answered by the model of every class (`fit_classes`); a class whose KB could
    not answer it is left out of the pick and named (`failed`); none answering raises."""
    row = pd.DataFrame([[v if v is not None else np.nan for _f, v in inst.values]],
                       columns=[f for f, _v in inst.values], dtype=object)
    row = row.reindex(columns=est._feature_names())
    if est.class_order_ is not None:
        return _level_answer(est, inst, row, k)
    res, notes = _answered(est, row)
    classes = [str(c) for c in est._class_str]
    failed = tuple((c, b.failed[0][1]) for c, b in zip(classes, res) if b.failed)
    if len(failed) >= len(classes) - 1:  # no pick and runner-up among the classes that answered
        check_answered(res, classes, row.index, "no class can be picked")
    means = np.array([r.mean[0] for r in res], dtype=float)
    compared = np.array([r.compared_by[0] for r in res], dtype=float)  # what predict compares
    order = np.argsort(-np.nan_to_num(compared, nan=-np.inf), kind="stable")  # predict's order
    table = pd.DataFrame({
        "class": [classes[i] for i in order],
        "lower": [float(res[i].lower[0]) for i in order],
        "upper": [float(res[i].upper[0]) for i in order],
        "mean": [float(means[i]) for i in order],
        **({"vote": [float(compared[i]) for i in order]}
           if any(r.vote is not None for r in res) else {}),
    })
    picked, runner = classes[order[0]], classes[order[1]]
    known = {f: v for f, v in inst.values if v is not None}
    why = why_not = None
    if known:
        with collected() as noted:  # said with the answer's notes
            why = _explained(est, row, k, picked)
            why_not = _explained(est, row, k, runner)
        notes = tuple(dict.fromkeys((*notes, *noted)))
    tie = bool(abs(compared[order[0]] - compared[order[1]]) <= TIE_EPS)
    kept = tuple(c for c, m in zip(classes, est.class_chosen_ or ())
                 if m == "direct" != est.chosen_)
    starts = tuple(_start(est, classes.index(c)) for c in (picked, runner))
    return ClassAnswer(table, picked, runner, tie, why, why_not, est.chosen_, failed, notes, kept,
                       starts)


def _level_answer(est: PLXClassifier, inst: Instance, row: pd.DataFrame, k: int) -> ClassAnswer:
    """`inst` answered by a model of ordered levels as `plx predict` answers it
    (`ordered.level_answers`: the level, every level's bounds and vote, the runner-up, the
    tie), explained by the step `PLXClassifier.explain` picks, and the runner-up by the step
    between it and the level (`for_class`); a step that could not answer stops it."""
    from plx_core import wording
    from plx_core.ordered import level_answers

    levels = [str(c) for c in est._order]
    with collected() as noted:
        own, thresholds, above, _u, _n = est._ordered_own(row)
    notes = tuple(dict.fromkeys(noted))
    names = [wording.step_class_name(lo, a) for lo, a in zip(levels, above)]
    if any(b.failed for b in own):
        check_answered(own, [str(n) for n in names], row.index, "no level answered")
    ans = level_answers(own, thresholds, above)
    table = pd.DataFrame({"class": levels,
                          "lower": [float(b.lower[0]) for b in ans.levels],
                          "upper": [float(b.upper[0]) for b in ans.levels],
                          "mean": [float(b.mean[0]) for b in ans.levels],
                          "vote": [float(v) for v in ans.compared[0]]})
    picked, runner = levels[int(ans.level[0])], levels[int(ans.runner_up[0])]
    why = why_not = None
    steps: tuple[Any, Any] = (None, None)
    if any(v is not None for _f, v in inst.values):
        with collected() as noted:  # said with the answer's notes
            why = _explained(est, row, k, None)
            why_not = _explained(est, row, k, runner)
            steps = (names[int(est._ordered_explained(row, None)[0])],
                     names[int(est._ordered_explained(row, runner)[0])])
        notes = tuple(dict.fromkeys((*notes, *noted)))
    return ClassAnswer(table, picked, runner, bool(ans.tie[0]), why, why_not, est.chosen_,
                       notes=notes, order=tuple(levels), steps=steps)


def _start(est: PLXClassifier, i: int) -> float | None:
    """Class i's own KB's starting point (the KB its explanations search), None without one."""
    from plx_core.explain import start_value

    start, by_prior = start_value(est._searched(i))
    return start if by_prior else None


def ws_class_answer(ws, inst: Instance, k: int = 2) -> ClassAnswer:
    """`class_answer` of `inst` by the session's model of every class (`fit_classes`), made
    once per session, data, instance and k: the Query page (k = 2) and the Explain page (its
    k) show the one answer."""
    est = fit_classes(ws)
    return ws.cached("class-answer", class_order(ws), inst.values, int(k), scope="data",
                     make=lambda: class_answer(est, inst, int(k)))


def _explained(est: PLXClassifier, row: pd.DataFrame, k: int, cls: str | None
               ) -> Explanation | None:
    """The explanation of `cls`'s KB for the row (None when nothing known can explain it)."""
    from plx_core.errors import PLXError

    try:
        e = est.explain(row, k=k, for_class=cls)
    except PLXError:
        return None
    return e if isinstance(e, Explanation) else None


def class_table_shown(ca: ClassAnswer) -> pd.DataFrame:
    """The class answer's table as the Query page shows it, each column headed in words
    (`wording.CLASS_TABLE_HEADERS`): with votes, the number compared and, per class, what that
    number is (a rare class kept on its Direct KB is compared by its KB's mean, not a vote)."""
    from plx_core import wording

    shown = ca.table.copy()
    if ca.order:  # levels in the scale's order, each compared by its vote
        return shown.rename(columns=wording.LEVEL_TABLE_HEADERS)
    if "vote" in shown:
        shown["what is compared"] = [wording.class_number_said(c in ca.kept_direct, why=True)
                                     for c in shown["class"]]
    return shown.rename(columns=wording.CLASS_TABLE_HEADERS)


def true_class(ws, inst: Instance) -> str | None:
    """The original class of the row the instance is (None: edited, or not a data row)."""
    return ws.recorded_label(inst)


def answer_sentences(ca: ClassAnswer) -> list[str]:
    """The picked class and the runner-up in words, then each explanation as a sentence."""
    from plx_core import wording

    if ca.order:
        return _level_sentences(ca)
    top, second = ca.table.iloc[0], ca.table.iloc[1]

    def number(c: str) -> str:  # a rare class kept on its Direct KB is compared by its mean
        return wording.class_number_said(c in ca.kept_direct)

    picked = (f"plx picks {ca.picked}: {number(ca.picked)}, {top['vote']:.3f}, is the "
              f"highest of the {len(ca.table)} classes (its KB's support for it, "
              f"{top['lower']:.3f} to {top['upper']:.3f}); the runner-up is {ca.runner_up} "
              f"({number(ca.runner_up)}, {second['vote']:.3f})." if "vote" in ca.table else
              f"plx picks {ca.picked}: its KB's support for it, {top['lower']:.3f} to "
              f"{top['upper']:.3f}, has the highest middle of the {len(ca.table)} classes, "
              f"{top['mean']:.3f}; the runner-up is {ca.runner_up} (mean {second['mean']:.3f}).")
    out = [picked
           + (f" A tie: {ca.picked} is picked as the first in class order." if ca.tie else "")
           + f" Each class is answered by its own KB against the rest "
           f"({wording.model_name(ca.model) if ca.model != 'direct' else 'tuned Direct KBs'}"
           + (f"; {', '.join(ca.kept_direct)}: its Direct KB, too few rows to compare "
              "models on" if ca.kept_direct else "") + ")."]
    others = len(ca.table) - 1
    for e, cls, what, start in ((ca.why, ca.picked, "Why", ca.starts[0]),
                                (ca.why_not, ca.runner_up, "Why not", ca.starts[1])):
        if e is None:
            out.append(f"{what} {cls}: no known value explains it.")
        else:  # the one wording of an explanation (it says when the k values decide nothing),
            # in the words of the class's own KB, then what that KB answers and where it starts
            out.append(f"{what} {cls}: {wording.explanation_sentence(e, cls, own=True)} "
                       f"{wording.own_kb_said(cls, others, e.query_bounds, start)}")
    out += [f"{c}'s KB could not answer this instance ({why}): {c} is not compared."
            for c, why in ca.failed]
    return out


def _level_sentences(ca: ClassAnswer) -> list[str]:
    """An ordered answer in words: the level, its vote and bounds, the runner-up and a tie
    (`wording.level_answer_said`), then each explanation in its step's words."""
    from plx_core import wording

    t = ca.table.set_index("class")
    top, second = t.loc[ca.picked], t.loc[ca.runner_up]
    out = [wording.level_answer_said(ca.picked, ca.order.index(ca.picked), len(ca.order),
                                     top["vote"], top["lower"], top["upper"], ca.runner_up,
                                     second["vote"], ca.tie)]
    for e, cls, what, step in ((ca.why, ca.picked, "Why", ca.steps[0]),
                               (ca.why_not, ca.runner_up, "Why not", ca.steps[1])):
        if e is None or step is None:
            out.append(f"{what} {cls!r}: no known value explains it.")
        elif what == "Why not" and step == ca.steps[0] and ca.why is not None and (
                e.features == ca.why.features):  # the level across the same step: said once
            out.append(wording.level_why_said(what, cls, step, same=True))
        else:
            out.append(f"{wording.level_why_said(what, cls, step)} "
                       f"{wording.explanation_sentence(e, step)}")
    return out
