"""Small Streamlit helpers shared by the pages: plain-words errors, safe text, progress."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from plx_core.errors import PLXError, SolverError, SolverTimeoutError
from plx_core.plurals import counted

log = logging.getLogger("plx.ui")

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&])")
_AUTOLINK = re.compile(r"(?i)(https?|ftp|www|mailto)(?=[:.])|(?<=\w)(?=@\w)")
WORD_JOINER = "\u2060"


def md(text: Any) -> str:
    """User text made inert for Streamlit markdown (links, images, emphasis, HTML): every
    markdown character is backslash-escaped, and an invisible word joiner breaks the bare
    URLs and e-mail addresses GitHub-flavoured markdown would turn into links, so the text
    shows as typed."""
    s = _AUTOLINK.sub(lambda m: (m.group(1) or "") + WORD_JOINER, str(text))
    return _MD_SPECIAL.sub(r"\\\1", s).replace("\n", "  \n")


def error(message: Any) -> None:
    st.error(md(message), icon=":material/error:")


def warning(message: Any) -> None:
    st.warning(md(message))


def info(message: Any) -> None:
    st.info(md(message))


@contextmanager
def guard(what: str) -> Iterator[None]:
    """Show an error in plain words instead of a traceback, and keep the page usable.

    Streamlit's own control flow (st.stop, reruns) derives from BaseException and passes."""
    try:
        yield
    except SolverError as exc:
        error(solver_message(what, exc))
    except (PLXError, ValueError, KeyError, MemoryError) as exc:
        error(f"{what}: {exc}")
    except Exception as exc:  # anything unexpected: say what failed, log the details
        log.exception("%s failed", what)
        error(f"{what} failed unexpectedly ({type(exc).__name__}: {exc}). The rest of the "
              "dashboard still works; try other settings.")


def solver_message(what: str, exc: SolverError) -> str:
    """A solver failure in plain words: what failed, why, and that the last results stay."""
    why = "the LP solver ran out of time" if isinstance(exc, SolverTimeoutError) else str(exc)
    return (f"{what}: no answer, because {why}. The last results stay on the page; try again, "
            "or leave fewer features unknown, or choose the auto method on the Query page.")


LAST_KEY = "_plx_last"


@dataclass(frozen=True)
class Kept:
    """A result remembered per session: `fresh` is False when it is the last good one, shown
    because computing the new one failed in the solver."""

    value: Any
    about: str
    scope: Hashable
    fresh: bool = True


def keep_last(name: str, about: str, scope: Hashable, compute: Callable[[], Any],
              what: str) -> Kept | None:
    """`compute()` remembered under `name`; when the LP solver fails, the error in plain words
    and the last good result of the same `scope` (e.g. the data set), marked stale — or None.
    A failed result is never stored, so nothing shown is replaced by garbage."""
    store = st.session_state.setdefault(LAST_KEY, {})
    try:
        value = compute()
    except SolverError as exc:
        error(solver_message(what, exc))
        last = store.get(name)
        if last is None or last.scope != scope:
            return None
        st.caption(md(f"Shown below: the last result, for {last.about}, from before the solver failed."))
        return replace(last, fresh=False)
    kept = Kept(value, about, scope)
    store[name] = kept
    return kept


def start_stop(key: str, what: str, done: int, planned: int, start_label: str) -> tuple[bool, Any]:
    """The controls of heavy work the user starts: what it does (`what`), a start button
    (`Continue (done of planned done)` after a stop) and Stop, whose click ends the run at its
    next count (Streamlit stops a running script on a new click). Returns (start clicked, the
    placeholder to clear once every row is done)."""
    controls = st.empty()
    with controls.container():
        st.caption(md(what))
        # a row as wide as its buttons' labels: a quarter column cut "Start the comparison"
        # to "Start the compa…" at 1024 px
        row = st.container(horizontal=True)
        start = row.button(start_label if done == 0 else f"Continue ({done} of {planned} done)",
                           key=f"{key}_start", type="primary")
        row.button("Stop", key=f"{key}_stop", help="Stops the running work (the rows done are kept).")
    return start, controls


class Progress:
    """The one progress bar of the pages, for both shapes of progress callback: the bar
    itself is `progress(fraction, text)` (building a KB), its `rows` is `progress(i, n)` of
    row-by-row work (`Explained i of n rows`); `done()` removes it, as leaving a `with` block
    does (however it is left)."""

    def __init__(self, text: str = "Working…", fraction: float = 0.0) -> None:
        self.bar = st.progress(_clip(fraction), text=text)

    def __call__(self, fraction: float, text: str) -> None:
        self.bar.progress(_clip(fraction), text=text)

    def rows(self, i: int, n: int) -> None:
        self(i / max(n, 1), rows_text(i, n))

    def done(self) -> None:
        self.bar.empty()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.done()


def _clip(fraction: float) -> float:
    return min(max(float(fraction), 0.0), 1.0)


def rows_text(i: int, n: int) -> str:
    return f"Explained {i:,} of {counted(n, 'row')}"


def row_counter(done: int = 0, planned: int = 0, text: str | None = None) -> Progress:
    """A `Progress` standing at `done` of `planned` rows (saying so, or `text`), whose `rows`
    is the `progress(i, n)` callback of the row-by-row work."""
    return Progress(text or rows_text(done, planned), done / max(planned, 1))


WRAP_ROW = 70  # px per table row: above 4rem (64 px) st.dataframe wraps text cells (3 lines)


def wrapped_table(frame: Any, *, max_rows: int = 8, **kwargs: Any) -> Any:
    """`st.dataframe` whose long text cells (rules, explanations) wrap onto up to three lines
    instead of being cut at the column's edge; tall enough for `max_rows` rows, scrolling
    beyond."""
    n = min(len(frame), max_rows)
    kwargs.setdefault("hide_index", True)
    kwargs.setdefault("width", "stretch")
    return st.dataframe(frame, row_height=WRAP_ROW, height=38 + WRAP_ROW * max(n, 1) + 2,
                        **kwargs)


def figure(fig: Any, key: str | None = None, static: bool = False, **kwargs: Any) -> Any:
    """A plotly figure, full width, without the mode bar. `static` draws it without hover and
    zoom layers (the bar charts label every bar, so nothing is lost; they draw faster)."""
    config = {"displayModeBar": False, "displaylogo": False}
    if static:
        config["staticPlot"] = True
    return st.plotly_chart(fig, width="stretch", key=key, config=config, **kwargs)


def download(label: str, make: Callable[[], bytes], *, file_name: str, mime: str, key: str,
             where: Any = None) -> Any:
    """A download button whose file is made on click (`make`, in a server thread) and whose
    click does not rerun the page: a rerun racing the file's request could leave the button
    spinning, and a download changes nothing the page shows. The one home for downloads."""
    return (where or st).download_button(label, data=make, file_name=file_name, mime=mime,
                                         key=key, on_click="ignore")


def fit_button(label: str, key: str, help: str, what: str,
               fit: Callable[[Callable[[float, str], None]], Any]) -> None:
    """A button that runs `fit(progress)` under a progress bar saying `what` (its problems
    shown as `guard` shows them); the page shows what it fitted on the run after."""
    if st.button(label, key=key, help=help):
        bar = st.progress(0.0, text=f"{what}…")
        with guard(what):
            fit(lambda f, t: bar.progress(_clip(f), text=md(t[:1].upper() + t[1:])))
        bar.empty()


def require_kb(ws) -> None:
    """Build the session's KB if it has none yet (with a progress bar); stop the page with the
    error shown when it cannot be built."""
    if ws.kb is None:
        with Progress("Building the knowledge base…") as bar, guard("Building the KB"):
            ws.ensure_kb(bar)
        if ws.kb is None:
            st.stop()
