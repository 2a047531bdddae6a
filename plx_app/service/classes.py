"""Several classes in the dashboard: the pages answer one class (POS) against the rest, and a
label of more than two classes also gets plx's model of all of them — `PLXClassifier()` on
the original classes (one KB per class, the family `auto` chooses for every class) — which
picks each instance's class, with every class's bounds and the explanation of the picked class
against the runner-up. Fitted on the Data page's binned training rows, so an instance (its
values on those bins, unknowns allowed) is answered as it is shown."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from plx_core.estimator import PLXClassifier
from plx_core.explain import Explanation
from plx_core.query import TIE_EPS

from .instances import Instance
from .kbs import DASHBOARD_BUDGET
from .tables import label_values


def label_classes(ws) -> list[str]:
    """The label's classes as the Data page lists them (most rows first)."""
    return label_values(ws.raw, ws.settings.label)


def several(ws) -> bool:
    """Whether the label has more than two classes (POS stands for one of them)."""
    return len(label_classes(ws)) > 2


def class_labels(ws, part: str = "train") -> pd.Series:
    """The original class of each training (once per row) or test row, written as the Data
    page lists the classes."""
    X = ws.X_train if part == "train" else ws.X_test
    once = ~X.index.duplicated(keep="first") if part == "train" else np.ones(len(X), bool)
    y = ws.raw.frame.loc[X.index[once], ws.settings.label]
    return y.map(lambda v: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))


@dataclass(frozen=True)
class ClassScores:
    """The model of every class on the test rows: macro F1, accuracy, and the confusion
    matrix (rows: true class, columns: picked class)."""

    macro_f1: float
    accuracy: float
    confusion: pd.DataFrame


def class_scores(ws, est: PLXClassifier) -> ClassScores:
    """Score the model of every class (`fit_classes`) on the test split, once per session."""
    from sklearn.metrics import f1_score

    def make() -> ClassScores:
        truth = class_labels(ws, "test").to_numpy(dtype=object)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            picked = np.array([str(c) for c in est.predict(ws.X_test)], dtype=object)
        classes = [str(c) for c in est._class_str]
        rows = classes + sorted(set(truth) - set(classes))  # a class only the test rows have
        cm = pd.crosstab(pd.Categorical(truth, categories=rows),
                         pd.Categorical(picked, categories=classes), dropna=False)
        cm.index.name, cm.columns.name = "true class", "picked"
        return ClassScores(float(f1_score(truth, picked, average="macro")),
                           float(np.mean(truth == picked)), cm)

    return ws.cached("class-scores", make=make, scope="data")


FIT_HELP = "Fits one model per class on the training rows (once per session)."
FIT_WHAT = "Fitting the model of every class"  # its progress bar and its problems say this


def fit_classes(ws, progress: Callable[[float, str], None] | None = None) -> PLXClassifier:
    """plx's model of every class, fitted once per session and data (the workspace's cache),
    within the memory a session's default model gets (`kbs.DASHBOARD_BUDGET`, shared by
    the classes' KBs)."""
    def make() -> PLXClassifier:
        once = ~ws.X_train.index.duplicated(keep="first")
        X = ws.X_train[once]
        with warnings.catch_warnings():  # the Data page said the table's notes already
            warnings.simplefilter("ignore", UserWarning)
            return PLXClassifier(random_state=ws.kb_settings.random_state,
                                 memory_budget=DASHBOARD_BUDGET).fit(
                X, class_labels(ws).to_numpy(dtype=object), progress=progress)

    return ws.cached("classes", make=make, scope="data")


def classes_fitted(ws) -> bool:
    return ws.is_cached("classes", scope="data")


@dataclass(frozen=True)
class ClassAnswer:
    """One instance answered among every class: `table` (per class: lower, upper and mean of
    its ω(POS) bounds, highest mean first), the `picked` class and the `runner_up`,
    whether they `tie` (decided by class order), and the k-feature explanations of why the
    instance is `picked` and why it is not `runner_up` (that class's KB against the rest)."""

    table: pd.DataFrame
    picked: str
    runner_up: str
    tie: bool
    why: Explanation | None
    why_not: Explanation | None
    model: str


def class_answer(est: PLXClassifier, inst: Instance, k: int = 2) -> ClassAnswer:
    """`inst` answered by the model of every class (`fit_classes`)."""
    row = pd.DataFrame([[v if v is not None else np.nan for _f, v in inst.values]],
                       columns=[f for f, _v in inst.values], dtype=object)
    row = row.reindex(columns=est._feature_names())
    with warnings.catch_warnings():  # unseen values: answered as unknown, said on the page
        warnings.simplefilter("ignore", UserWarning)
        res = est._means(row)
    classes = [str(c) for c in est._class_str]
    means = np.array([r.mean[0] for r in res], dtype=float)
    order = np.argsort(-np.nan_to_num(means, nan=-np.inf), kind="stable")  # predict's order
    table = pd.DataFrame({
        "class": [classes[i] for i in order],
        "lower": [float(res[i].lower[0]) for i in order],
        "upper": [float(res[i].upper[0]) for i in order],
        "mean": [float(means[i]) for i in order],
    })
    picked, runner = classes[order[0]], classes[order[1]]
    known = {f: v for f, v in inst.values if v is not None}
    why = why_not = None
    if known:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            why = _explained(est, row, k, picked)
            why_not = _explained(est, row, k, runner)
    tie = bool(abs(means[order[0]] - means[order[1]]) <= TIE_EPS)
    return ClassAnswer(table, picked, runner, tie, why, why_not, est.chosen_)


def _explained(est: PLXClassifier, row: pd.DataFrame, k: int, cls: str) -> Explanation | None:
    """The explanation of `cls`'s KB for the row (None when nothing known can explain it)."""
    from plx_core.errors import PLXError

    try:
        e = est.explain(row, k=k, for_class=cls)
    except PLXError:
        return None
    return e if isinstance(e, Explanation) else None


def true_class(ws, inst: Instance) -> str | None:
    """The original class of the row the instance is (None: edited, or not a data row)."""
    if inst.origin not in ("test", "train") or inst.row is None:
        return None
    if inst.row not in ws.raw.frame.index:
        return None
    v = ws.raw.frame.loc[inst.row, ws.settings.label]
    if isinstance(v, pd.Series):
        v = v.iloc[0]
    if pd.isna(v):
        return None
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def answer_sentences(ca: ClassAnswer) -> list[str]:
    """The picked class and the runner-up in words, then each explanation as a sentence."""
    from plx_core import wording
    from plx_core.rules import features_text

    top, second = ca.table.iloc[0], ca.table.iloc[1]
    out = [f"plx picks {ca.picked}: its KB's ω(POS) bounds [{top['lower']:.3f}, "
           f"{top['upper']:.3f}] have the highest mean of the {len(ca.table)} classes, "
           f"{top['mean']:.3f}; the runner-up is {ca.runner_up} (mean {second['mean']:.3f})."
           + (f" A tie: {ca.picked} is picked as the first in class order." if ca.tie else "")
           + f" Each class is answered by its own KB against the rest "
           f"({wording.model_name(ca.model) if ca.model != 'direct' else 'tuned Direct KBs'})."]
    for e, cls, what in ((ca.why, ca.picked, "Why"), (ca.why_not, ca.runner_up, "Why not")):
        if e is None:
            out.append(f"{what} {cls}: no known value explains it.")
        else:
            out.append(f"{what} {cls}: {features_text(e.features)} — {cls}'s KB gives "
                       f"[{e.bounds[0]:.3f}, {e.bounds[1]:.3f}] on these {e.k} feature"
                       f"{'' if e.k == 1 else 's'} alone.")
    return out
