"""Data-wide insight and reports for the pages: the global view, ROC / precision–recall curves
at a threshold, the case report, and the instance the Query page opens on. Each is computed by
plx_core and cached in the session's Workspace."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from plx_core.curves import Curves, ThresholdResult, at_threshold, curves
from plx_core.globalview import GlobalView, global_view, showcase_row
from plx_core.report import case_report

from .instances import Instance, instance_from_row
from .workspace import Workspace

GLOBAL_ROWS = 100  # rows the global view explains per click (a seeded sample beyond)


def _global_key(ws: Workspace, k: int, max_rows: int, part: str) -> tuple:
    return ("global", part, ws.data_key, ws.kb_key, ws.rules_key(), int(k), int(max_rows),
            ws.answer_semantics, ws.threshold)


def ws_global_view(ws: Workspace, k: int = 2, max_rows: int = GLOBAL_ROWS, part: str = "test",
                   progress: Callable[[int, int], None] | None = None,
                   stop: Callable[[], bool] | None = None) -> GlobalView:
    """The global view of a split part under the current KB and rules, decided at the session's
    threshold (plx's default chooses its own). Rows are explained one
    by one (`progress(done, planned)`, `stop()` ends early with the rows done); each row's part
    is kept in the session, so a stopped or interrupted run continues where it ended."""
    X, _ = ws.part(part)
    kb = ws.current_kb()
    key = _global_key(ws, k, max_rows, part)
    done = ws.results.get(key + ("rows",), dict)
    return global_view(kb, X, k=min(k, len(ws.features)), max_rows=max_rows,
                       random_state=ws.settings.seed, semantics=ws.answer_semantics,
                       progress=progress, stop=stop, done=done, positive=ws.class_name,
                       threshold=ws.threshold, explained=_searched(ws))


def _searched(ws: Workspace):
    """The KB explanations search when it is not the answering one (plx's default behind a
    tuned Direct KB, as `PLXClassifier.explain`), with the enabled rules; else None."""
    return ws.explained_kb() if ws.model is not None and ws.model.searched is not None else None


def ws_global_progress(ws: Workspace, k: int = 2, max_rows: int = GLOBAL_ROWS,
                       part: str = "test") -> tuple[int, int]:
    """(rows explained so far, rows planned) for the global view with these settings."""
    X, _ = ws.part(part)
    key = _global_key(ws, k, max_rows, part) + ("rows",)
    done = ws.results.data.get(key, {})
    return len(done), min(int(max_rows), len(X))


def ws_curves(ws: Workspace, part: str = "test") -> tuple[Curves, Any, Any]:
    """(ROC/PR curves of mean ω(POS), truth, scores) on a split part (cached)."""
    dec = ws.decisions(part)
    _, y = ws.part(part)
    truth = (y.astype(str) == ws.positive).to_numpy()
    score = dec["mean"].to_numpy(dtype=float)
    key = ("curves", part, ws.data_key, ws.kb_key, ws.rules_key(), ws.answer_semantics, ws.method)
    return ws.results.get(key, lambda: curves(truth, score)), truth, score


def ws_at_threshold(ws: Workspace, threshold: float, part: str = "test") -> ThresholdResult:
    """Confusion matrix, sensitivity and specificity at `threshold` (positive iff mean
    ω(POS) > threshold, the estimator's `threshold`)."""
    _, truth, score = ws_curves(ws, part)
    return at_threshold(truth, score, threshold)


def ws_case_report(ws: Workspace, inst: Instance, k: int = 2,
                   rules: list[Mapping[str, Any]] | None = None) -> str:
    """The self-contained HTML case report of one instance (plx_core.report)."""
    kb = ws.current_kb()
    s = ws.settings
    data = {"data set": ws.dataset.name, "rows (train / test)": f"{ws.n_train_rows} / {len(ws.X_test)}",
            "label": s.label, "POS": ws.positive}
    settings = {"KB": ws.kb_note or ws.kb_settings.label(), "semantics": ws.answer_semantics,
                "decision threshold": ws.threshold,
                "method": ws.method, "explanation size k": k,
                "bins per numeric column": s.bins, "discretisation": s.method,
                "class balance": s.balance, "seed": s.seed}
    truth = ws.recorded_label(inst)  # the row's own class (several classes: not 'not …')
    key = ("report", ws.data_key, ws.kb_key, ws.rules_key(), inst.values, truth, int(k),
           ws.answer_semantics, ws.threshold, repr(rules), ws.learner)
    return ws.results.get(key, lambda: case_report(
        kb, inst.as_dict(), positive=ws.class_name, positive_value=ws.positive, truth=truth, k=k,
        semantics=ws.answer_semantics, rules=rules, data=data, settings=settings,
        threshold=ws.threshold, explained=_searched(ws), learner=ws.learner,
        title=f"plx case report: {inst.title()}"))


def showcase_instance(ws: Workspace, part: str = "test") -> Instance:
    """The instance a first visit opens on: a test row decided right and confidently (positive
    if one is), else the first row."""
    X, y = ws.part(part)
    dec = ws.decisions(part)
    truth = (y.astype(str) == ws.positive).to_numpy()
    i = showcase_row(truth, dec["lower"].to_numpy(), dec["upper"].to_numpy())
    return instance_from_row(X, y, X.index[0 if i is None else i], part)


__all__ = ["GLOBAL_ROWS", "showcase_instance", "ws_at_threshold", "ws_case_report", "ws_curves",
           "ws_global_progress", "ws_global_view"]
