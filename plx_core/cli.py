"""`plx` on the command line: fit a KB from a CSV, predict and explain rows, run experiments.

    plx fit data.csv --label L [--positive P | --class-order auto|none|"low,mid,high"]
        [--kb direct|tree|tree-all|forest|tree-bin|tree-bin-deep]
        [--variant tuned|paper] [--max-len N] [--drop-missing-label] --out model.json
    plx predict model.json data.csv --out predictions.csv
    plx explain model.json data.csv [--k 2] --out explanations.csv
        (both: [--rules rules.txt [--class C]] to try expert rules without saving them)
    plx rules model.json {list [--text],add "IF … THEN POS [p=0.9, w=5]" | --file rules.txt
        [--class C],remove ID…,disable ID…,enable ID…,edit ID… [--p P] [--w W]} [--out OTHER]
    plx experiments {table2,table3,table4,fig2,fig3,fig4,variants} --runs R --out DIR ...
    plx dashboard [--port 8501] [--address 127.0.0.1] [--browser]

Without --positive a label of more than two classes is fitted one KB per class (that class
against the rest) into one model file (`modelfile.ClassesModelFile`, version 2); predict
names each row's class (the highest vote's probability or KB mean) with every class's bounds, explain explains the
decided class. With `--class-order` — and without it, for classes that are a known scale's
words (mild < moderate < severe; `ordered.scale_order`; `--class-order none` turns it off) — the
levels of one scale are fitted as one yes/no model a step between neighbouring levels
(`modelfile.OrderedModelFile`, version 3); predict names each row's level (the steps it is
above) with every level's bounds, explain explains it by a step.

The model file is plain JSON (never pickle): the schema that turns raw rows into features
(`plx_core.data.Schema.to_dict`), the learned KB (`KB.to_json`) and, for the tuned Direct
variant, the chosen clause-length window and prior clause (the KB that answers is the stored
Direct KB cut to that window plus the prior clause; explanations search the stored KB, as
`PLXClassifier.explain` does).

Every table enters through `plx_core.data.read_table` (caps checked before parsing; cells in
`--missing`, by default `MISSING_MARKERS`, are missing and counted on stderr) and every model
through `Model.load` (size cap, then every field checked). Outputs are checked before the work
(never an input, never a folder), written atomically and defused against CSV injection
(`plx_core.export`). One error boundary (`main`): a problem the user can cause ends in one line
on stderr naming it and exit status 2; anything else is a bug: exit 1, a short message and how
to see the traceback (`PLX_DEBUG=1`).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .checks import checked_threshold
from .errors import DataError, PLXError
from .modelfile import MAX_MODEL_BYTES, MODEL_FORMAT, MODEL_VERSION  # noqa: F401 (old names)
from .plurals import counted, noun, verb

CLI_VARIANTS = ("auto", "tuned", "paper")
KB_KINDS = ("direct", "tree", "tree-all", "forest", "tree-bin", "tree-bin-deep")


class CLIError(Exception):
    """A user error: printed as `error: …`, exit code 2."""


@contextmanager
def _input(what: str) -> Iterator[None]:
    """Turn the exceptions a malformed input raises while it is parsed into one `CLIError`
    naming the input; errors outside such a block stay bugs."""
    try:
        yield
    except CLIError:
        raise
    except PLXError as exc:
        raise CLIError(f"{what}: {exc}") from None
    except RecursionError:
        raise CLIError(f"{what} is nested too deeply to read") from None
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        detail = str(exc) or type(exc).__name__
        if isinstance(exc, KeyError):
            detail = f"field {exc.args[0]!r} is missing" if exc.args else "a field is missing"
        raise CLIError(f"{what}: {detail}") from None


def _note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


# --------------------------------------------------------------------------- tables


def read_rows(path: str | Path, missing: Sequence[str] | None = None,
              say: Callable[[str], None] = _note, encoding: str = "utf-8",
              max_bytes: int | None = None) -> Any:
    """The table at `path` through the one validated reader (`plx_core.data.read_table`),
    telling `say` what was read as missing and anything done to read it. Rows are indexed by
    their line in the file (a spreadsheet's row number), so a message naming a row points at it.
    `max_bytes`: the reader's cap on the file's bytes (default `data.MAX_BYTES`)."""
    from dataclasses import replace

    from .data import MAX_BYTES, MISSING_MARKERS, read_table

    table = read_table(_existing(path), missing=MISSING_MARKERS if missing is None else missing,
                       encoding=encoding, max_bytes=max_bytes or MAX_BYTES)
    table = replace(table, frame=table.by_line())
    for n in table.notes:
        say(f"{table.where}: {n}")
    if table.missing:
        say(f"{table.where}: cells read as missing — {table.missing_summary()}")
    return table


def with_unused(frame: pd.DataFrame, unused: list[str]) -> pd.DataFrame:
    """`frame` with the features no clause names that it lacks (`Model.columns_said`) as
    empty columns: each row's value unknown, which changes no answer."""
    if not unused:
        return frame
    return frame.assign(**{f: pd.Series(np.nan, index=frame.index, dtype=object)
                           for f in unused})


def _markers(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(dict.fromkeys(["", *(m.strip() for m in text.split(","))]))


def _model_markers(text: str | None, model: Model) -> tuple[str, ...] | None:
    """`--missing` as given, else the markers the model's fit read its file with (a model
    fitted with `--missing -999` reads -999 in new rows as missing too, not as a number)."""
    return _markers(text) if text is not None else model.schema.missing


# --------------------------------------------------------------------------- model file


def _negative_label(schema: Any) -> str:
    others = [c for c in schema.classes if c != schema.positive]
    return others[0] if len(others) == 1 else f"not {schema.positive}"


def _drop_missing_label(table: Any, label: str, drop: bool, say: Callable[[str], None]) -> Any:
    """The frame without rows whose label is missing (with `drop`), else an error counting them."""
    frame = table.frame
    if label not in frame.columns:
        return frame
    miss = frame[label].isna().to_numpy()
    if not miss.any():
        return frame
    n = int(miss.sum())
    lines = table.line_of(np.flatnonzero(miss)[:5])
    where = f"{noun(len(lines), 'line')} {', '.join(map(str, lines))}{' …' if n > 5 else ''}"
    markers = table.missing.get(label, {})
    how = ", ".join(f"{m!r} ×{k:,}" for m, k in markers.items())
    if not drop:
        raise CLIError(
            f"{table.where}: the label {label!r} is missing in {n:,} of {counted(len(frame), 'row')} "
            f"({where}; read as missing: {how}); pass --drop-missing-label to train without "
            "them, or --missing to change which cells mean missing"
        )
    say(f"dropped {n:,} of {counted(len(frame), 'row')} whose label {label!r} is missing ({where}; {how})")
    return frame.loc[~miss]


def fit_model(csv: str | Path, label: str, positive: str | None = None, kb: str = "direct",
              variant: str = "auto", max_len: int | None = None,
              random_state: int = 0, *, drop_missing_label: bool = False,
              missing: Sequence[str] | None = None, encoding: str = "utf-8",
              say: Callable[[str], None] = _note,
              memory_budget: int | str | None = None, threshold: float | None = None,
              decimal: str | None = None, progress: Callable[[float, str], None] | None = None,
              case_column: str | None = None, date_parts: Sequence[str] | None = None,
              class_order: str | None = None) -> Any:
    """Fit on a CSV file and return the model (`plx_core.modelfile.ModelFile`).

    `class_order` ("auto", or the classes from lowest to highest level separated by commas:
    `PLXClassifier`'s `class_order`, checked by `ordered.class_order_of` before the fit)
    fits a label of three or more levels as one yes/no model a step between neighbouring
    levels (`modelfile.OrderedModelFile`).

    `date_parts` ("month", "weekday": `data.DATE_PARTS`) derives those parts of every date
    column as columns of their own ("visit month" = "Dec"), kept in the model's schema and
    derived at predict (`Schema.date_parts`).

    `case_column` names each row's case where a case has several rows (one a visit): no
    feature, and the model search's folds keep a case's rows together (`PLXClassifier.fit`'s
    `groups`); the model keeps nothing of it.

    Numeric columns reach the estimator as numbers, so they are cut by its own `Discretizer`
    on the training rows; its cut points replace the schema's bins, so the model file stores
    them and `plx predict` applies them (one home for the cut points). `decimal` ('.' or
    ','; None: the file's delimiter decides) is the decimal mark of numbers written as text.
    `progress(fraction, text)` is told each phase (`plx_core.progress`); a table too large
    to fit in `memory_budget` is refused once read, before the fit (`scale.check_fit_size`)."""
    from . import wording
    from .data import (
        as_strings,
        case_columns,
        cells_said,
        estimator_rows,
        grouped_rows_said,
        grouped_said,
        id_columns,
        infer_schema,
        label_copy,
        label_texts,
        mixed_dates,
        offsets_said,
        reading_delimiter,
        repeated_rows,
        unread_numbers,
        whole_levels,
        zero_padded,
    )
    from .direct import DEFAULT_MEMORY_BUDGET, parse_size
    from .encoding import (
        default_positive,
        natural_key,
        number_key,
        one_class,
        spelling_groups,
        stray_classes,
        stray_said,
    )
    from .estimator import PLXClassifier
    from .modelfile import model_of
    from .notes import collected
    from .progress import silent, within
    from .scale import check_fit_size, read_bytes, size_text

    told = progress or silent
    told(0.0, f"reading {Path(csv).name}")
    cap = read_bytes(memory_budget)  # a file the fit could take, whatever the reader's default
    if (size := _existing(csv).stat().st_size) > cap:
        raise CLIError(f"{csv}: {size / 1e6:,.0f} MB is more than a fit within the "
                       f"{size_text(parse_size(memory_budget or DEFAULT_MEMORY_BUDGET))} memory "
                       f"budget reads ({cap / 1e6:,.0f} MB): raise --budget if the machine has "
                       "the memory, fit on a sample of the rows, or on a Dask cluster "
                       "(plx_core.distributed.fit_dask)")
    table = read_rows(csv, missing, say, encoding, max_bytes=cap)
    check_fit_size(len(table.frame), max(table.frame.shape[1] - 1, 1), memory_budget)
    frame = _drop_missing_label(table, label, drop_missing_label, say)
    groups = None
    if case_column is not None:
        frame, groups = _case_groups(frame, case_column, label, say)
    if positive is None and label in frame.columns:  # before the columns are read: seconds
        classes = tuple(sorted(pd.unique(as_strings(frame[label]).dropna()).tolist(),
                               key=natural_key))  # (spellings are checked with the schema)
        if len(classes) == 2 and default_positive(classes) is None and not spelling_groups(classes):
            raise _positive_needed(label, classes)
    told(0.01, f"reading the types of {frame.shape[1] - 1} columns (numbers, dates, categories)")
    with _input(table.where), collected() as noted:  # (--positive 2 for a class '2.0')
        schema = infer_schema(frame, label, positive,
                              delimiter=reading_delimiter(table.delimiter, decimal))
    for note in noted:
        say(note)
    told(0.03, "checking the columns (copies of the label, numbers or dates kept as categories)")
    for c, why in schema.excluded.items():  # never dropped silently
        say(f"column {c!r} is left out: {why}")
    if (why := repeated_rows(frame, id_columns(schema.excluded))) is not None:
        say(f"{table.where}: {why}")
    if (why := grouped_rows_said(frame, label, *case_columns(schema, frame))) is not None:
        say(why)
    for c, kept in schema.grouped.items():  # nor grouped silently
        say(f"column {c!r} is grouped: {grouped_said(kept, int(frame[c].nunique()), s=frame[c])}")
    for c, flags in schema.value_maps.items():  # nor merged silently
        say(f"column {c!r}: {wording.flags_said(flags)}")
    said: set[str] = set()  # what each note is about (its words before ': '), said once
    whole: dict[str, tuple[float, float, int]] = {}  # columns of a few whole numbers
    ystr = label_texts(frame[label])
    for c in schema.features:  # nor dates or numbers read as categories silently
        if schema.kinds[c] == "categorical" and (mixed := mixed_dates(frame[c]) or unread_numbers(
                frame[c], reading_delimiter(table.delimiter, decimal))) is not None:
            said.add(f"column {c!r} is used as categories")
            say(f"column {c!r} is used as categories: {mixed}")
        elif schema.kinds[c] == "categorical" and (few := whole_levels(frame[c])) is not None:
            said.add(f"column {c!r} is used as categories")
            whole[c] = few  # said once fitted: the fit races its two readings
        elif schema.kinds[c] == "categorical" and (codes := zero_padded(frame[c])) is not None:
            said.add(f"column {c!r} is used as categories")
            say(f"column {c!r} is used as categories: {codes}")
        if (why := label_copy(frame[c], frame[label], ystr)) is not None:  # every class's copy
            said.add(f"column {c!r}")
            say(f"column {c!r}: {why}")
    if len(set(map(str, frame[label].dropna()))) == 1:  # no --positive makes two of one
        raise one_class(str(frame[label].dropna().iloc[0]), f"the label {label!r}")
    several = schema.positive is None and len(schema.classes) > 2
    order = _class_order(class_order, schema, label, positive)
    if class_order is None and order is not None:  # the default read the classes as levels
        say(wording.scale_levels_said(order, "--class-order none"))
    if schema.positive is None:
        shown = list(schema.classes[:10])
        if len(schema.classes) > 10 and all(number_key(c) is not None for c in schema.classes):
            raise CLIError(  # a measurement, not classes: --positive would pick one number
                f"the label {label!r} holds {len(schema.classes)} different numbers ({shown[:5]} "
                "…): plx classifies; make a yes/no label column (e.g. whether it is above a "
                "cut-off) and fit on that")
        if not several:
            raise _positive_needed(label, schema.classes)
        if threshold is not None:  # the class of the highest number answers: no cut to move
            raise CLIError(
                f"--threshold is for a yes/no model, and the label {label!r} has "
                f"{len(schema.classes)} classes {shown}: leave it out ({wording.class_decision_said()}), "
                "or pass --positive to fit one class against the rest")
    if date_parts:
        from .data import with_date_parts

        try:
            schema = with_date_parts(schema, frame, date_parts)
        except DataError as e:
            raise CLIError(f"--date-parts {','.join(date_parts)}: {e}") from None
        for src in dict.fromkeys(s for s, _ in schema.date_parts.values()):
            names = [n for n, (s, _) in schema.date_parts.items() if s == src]
            held = "times of day" if schema.bins[src].number_format == "time" else "dates"
            say(f"column {src!r}: its {' and '.join(schema.date_parts[n][1] for n in names)} "
                f"as {noun(len(names), 'a column of its own', 'columns of their own')} "
                f"({', '.join(map(repr, names))}), derived from its "
                f"{held} at fit and at predict; the {held} stay binned as "
                f"{'a time line' if held == 'dates' else 'minutes since midnight'}")
    told(0.04, f"reading the rows' values ({len(frame):,} rows × {len(schema.features)} features)")
    with _input(table.where):
        X, y = schema.apply(frame)
    alike: dict[str, list[str]] = {}  # columns read the same way: said in one line
    for f, b in schema.bins.items():
        if b.reading():  # read, and said
            alike.setdefault(b.reading(int(frame[f].isin(b.text_missing).sum())
                                       if b.text_missing else None, f in schema.parted()),
                             []).append(f)
    for how, cols in alike.items():
        names = ", ".join(map(repr, cols[:6])) + (f" and {len(cols) - 6} more" if len(cols) > 6
                                                  else "")
        say(f"column {names}: {how}" if len(cols) == 1 else f"columns {names}: {how}")
    if (how := offsets_said(frame, schema.bins, schema.parted())) is not None:  # once a table
        say(how)
    X, raw = estimator_rows(schema, frame, X)  # numbers as numbers: the estimator cuts them
    X = X.drop(columns=list(schema.date_parts))  # the estimator derives them (`date_parts=`)
    if order is not None:  # the fit's reason says the levels and each step's model
        yb = y.to_numpy(dtype=object)
    elif several:
        say(f"the label {label!r} has {len(schema.classes)} classes {list(schema.classes[:10])}"
            f"{' …' if len(schema.classes) > 10 else ''}: one KB per class against the rest; "
            f"{wording.class_decision_said()} (pass --positive for one class against the rest)")
        yb = y.to_numpy(dtype=object)
    else:
        yb = _binary_labels(schema, label, y, say)
    if strays := stray_classes(y.to_numpy(dtype=object)):  # by the file's lines
        said.add((slip := stray_said(y.to_numpy(dtype=object), {
            v: frame.index[rows].tolist() for v, rows in strays.items()}, "line")
                  ).split(": ", 1)[0])
        say(slip)
    with collected() as noted:  # plx's notes, said here each once; others' warnings as they come
        clf = PLXClassifier(kb=kb, variant=variant, max_len=max_len, positive=schema.positive,
                            random_state=random_state, memory_budget=memory_budget,
                            threshold=threshold, date_parts=date_parts or None,
                            class_order=None if order is None else order).fit(X, yb, groups,
                                                     progress=within(progress, 0.05, 0.95))
    as_read = dataclasses.replace(schema, kinds=dict(schema.kinds), bins=dict(schema.bins),
                                  categories=dict(schema.categories))  # each step's own below
    if (gone := [n for n in schema.date_parts if n not in clf.date_parts_]):  # a date of one
        schema = dataclasses.replace(  # day the estimator bins as a category: no parts to derive
            schema, features=tuple(f for f in schema.features if f not in gone),
            date_parts={n: v for n, v in schema.date_parts.items() if n not in gone})
    for note in noted:
        if (about := note.split(": ", 1)[0]) not in said:
            said.add(about)
            say(note)
    if kb == "direct":
        say(clf.max_len_reason_)
    if clf.chosen_reason_:
        say(clf.chosen_reason_)
    for c, few in whole.items():  # the reading the fit chose (`whole_read_`), a column a line
        read = getattr(clf, "whole_read_", {}).get(c)
        if read == "numbers":  # the model file reads the column as the fit cut it
            schema.kinds[c], schema.bins[c] = "numeric", clf.discretizer_.binnings_[c]
            schema.categories[c] = tuple(schema.bins[c].labels)
            say(f"column {c!r} is read as ordered numbers: "
                f"{wording.whole_numbers_said(*few, schema.bins[c].labels)}")
        else:
            say(f"column {c!r} is used as categories: "
                f"{wording.whole_levels_said(*few, raced=read == 'levels')}")
    for f in raw:  # the estimator's cut points, read from text as the schema reads it, with
        schema.bins[f] = clf.discretizer_.binnings_[f].with_reading(  # the training numbers'
            schema.bins[f]).spanned(X[f])  # range (`data.far_said` on new rows)
        schema.categories[f] = tuple(schema.bins[f].labels)  # its values: these bins, not the first
    for f, b in schema.bins.items():  # censored, serial, unmarked cells: said once cut
        if (how := cells_said(frame[f], b)) is not None:
            say(f"column {f!r}: {how}")
    if raw and order is None:  # the cut points the model answers with, as the dashboard shows them
        say(_cuts_note({f: schema.bins[f] for f in raw}))
    if order is not None:  # each step's own cut points (`modelfile.fitted_schema`)
        schema = dataclasses.replace(as_read, features=schema.features,
                                     date_parts=schema.date_parts)
    if missing is not None:  # read new rows as the fit read its file (`Schema.missing`)
        schema = dataclasses.replace(schema, missing=tuple(missing))
    model = model_of(clf, schema, n_train=len(yb))
    for c, step in zip(order or (), getattr(model, "steps", ())):  # each step cuts its own
        if cut := {f: step.schema.bins[f] for f in raw if f in step.schema.bins}:
            say(_cuts_note(cut, who=f"the step above {c!r}"))
    for c in whole if order is not None else ():  # the steps race the two readings each
        reads = ["numbers" if c in m.schema.bins else "levels" for m in model.steps]
        if len(set(reads)) > 1:
            say(f"column {c!r} is read differently by the steps (each chose as a yes/no model "
                "does): " + "; ".join(f"above {lo!r}: {r}" for lo, r in zip(order, reads)))
    return model


def _class_order(text: str | None, schema: Any, label: str, positive: str | None
                 ) -> list[str] | None:
    """`--class-order` ("auto", "none" or "low,mid,high") as the label's classes from lowest to
    highest level, checked as `PLXClassifier(class_order=)` checks it (`ordered.class_order_of`,
    its words); without it, the estimator's default: a known scale's words as levels
    (`ordered.default_order`) unless `--positive` is given; None: one class against the rest."""
    from .ordered import class_order_of, default_order, order_from_text

    if text is None:
        return default_order(list(schema.classes), positive)
    if text.strip().lower() == "none":
        return None
    if positive is not None or len(schema.classes) < 3:
        raise CLIError(f"--class-order is for a label of three or more levels, and the label "
                       f"{label!r} " + ("is fitted as --positive against the rest: give one or "
                                        "the other" if positive is not None else
                                        f"has {len(schema.classes)} classes {list(schema.classes)}"))
    try:
        return class_order_of(list(schema.classes), order_from_text(text), "--class-order",
                              f"the label {label!r}")
    except DataError as e:
        raise CLIError(str(e)) from None


def _cuts_note(bins: dict[str, Any], shown: int = 6, who: str = "the model") -> str:
    """`plx fit`'s one line on where the model (`who`: a step of ordered levels) cuts its
    numeric columns (`wording.cuts_said`, as the dashboard's Data and KB pages say it): the
    first `shown`, then how many more."""
    from .wording import bins_said

    parts = bins_said(bins, list(bins)[:shown])
    more = f"; and {counted(len(bins) - shown, 'more column')}" if len(bins) > shown else ""
    return f"{who} cuts its numeric columns: {'; '.join(parts)}{more}"


def _case_groups(frame: pd.DataFrame, column: str, label: str, say: Callable[[str], None]
                 ) -> tuple[pd.DataFrame, np.ndarray]:
    """The table without its case column `column` (`--case-column`) and each row's case, as
    text ("1001", "1001.0" and "01001" three cases as written); a missing name, the label or a
    row without a case refused, naming it."""
    from .data import case_ids

    if column not in frame.columns:
        shown = ", ".join(map(repr, map(str, frame.columns[:12])))
        raise CLIError(f"--case-column {column!r}: no such column (the file's columns: {shown}"
                       f"{' …' if frame.shape[1] > 12 else ''})")
    if column == label:
        raise CLIError(f"--case-column {column!r} is the label: name the column of case numbers")
    try:
        groups = case_ids(frame[column], f"--case-column {column!r}").to_numpy(dtype=object)
    except DataError as e:
        raise CLIError(str(e)) from None
    n = len(pd.unique(groups))
    say(f"column {column!r} names the rows' cases ({n:,} cases for {len(frame):,} rows): no "
        "feature, and the model search's folds keep each case's rows together")
    return frame.drop(columns=[column]), groups


def _positive_needed(label: str, classes: Sequence[str]) -> CLIError:
    """The error for two classes of which plx assumes neither positive (`--positive`)."""
    return CLIError(f"the label {label!r} has {len(classes)} classes {list(classes[:10])}; pass "
                    "--positive to choose the class POS stands for (the other class becomes its "
                    "negation)")


def _binary_labels(schema: Any, label: str, y: pd.Series, say: Callable[[str], None]
                   ) -> np.ndarray:
    """The label as POS and its negation (`schema.positive` against every other class)."""
    from .encoding import one_class

    neg = _negative_label(schema)
    if len(schema.classes) > 2:
        others = [c for c in schema.classes if c != schema.positive]
        say(f"the label {label!r} has {len(schema.classes)} classes; POS = "
            f"{schema.positive!r}, and {len(others)} become its negation {neg!r}: "
            f"{others[:10]}")
    yb = np.where(y.to_numpy(dtype=object) == schema.positive, schema.positive, neg)
    if len(set(yb.tolist())) < 2:
        raise one_class(schema.positive, f"the label {label!r}")
    return yb


class Model:
    """A loaded model file (`plx_core.modelfile`): the schema, the KB that answers and the KB
    explanations search."""

    def __init__(self, doc: dict[str, Any] | Any, where: str = "model"):
        from .modelfile import ClassesModelFile, ModelFile, OrderedModelFile, model_from_document

        mf = doc if isinstance(doc, (ModelFile, ClassesModelFile, OrderedModelFile)) else \
            model_from_document(doc, where)
        self.file = mf
        self.schema = mf.schema
        self.classes: tuple[str, ...] | None = None  # several classes: one member a class
        self.members: list[Model] = []
        self.steps: list[Model] = []  # ordered classes (`classes` lowest first): one a step
        if isinstance(mf, OrderedModelFile):
            self.classes = mf.classes
            self.steps = [Model(m, f"{where}: steps[{i}]") for i, m in enumerate(mf.steps)]
            self.kb_full = self.kb = mf.kb
            self.positive = self.negative = None
            self.threshold, self.semantics = 0.5, mf.settings.get("semantics", "auto")
            self.by_vote = False
            return
        if isinstance(mf, ClassesModelFile):
            self.classes = mf.classes
            self.members = [Model(m, f"{where}: members[{i}]") for i, m in enumerate(mf.members)]
            for i, m in enumerate(self.members):
                m.by_vote = mf.by_vote(i)
            self.kb_full = self.kb = mf.kb
            self.positive = self.negative = None
            self.threshold, self.semantics = 0.5, mf.settings.get("semantics", "auto")
            return
        self.by_vote = False  # several classes: compared by its vote's own probability
        self.kb_full = mf.kb
        self.kb = mf.answering_kb()
        self.positive, self.negative = mf.positive, mf.negative
        try:
            self.threshold = float(checked_threshold(mf.settings.get("threshold", 0.5)))
        except DataError as exc:
            raise CLIError(f"{where}: {exc}") from None
        self.semantics = mf.settings.get("semantics", "auto")

    @property
    def doc(self) -> dict[str, Any]:
        return self.file.header()

    @classmethod
    def load(cls, path: str | Path) -> Model:
        from .modelfile import load_model

        return cls(load_model(_existing(path)), repr(str(path)))  # errors name the file

    def columns_said(self, columns: Any, where: str, say: Callable[[str], None] = _note
                     ) -> list[str]:
        """Say which of a file's `columns` the model ignores and which of its features the
        file lacks that no clause names; returns those (answered as unknown, `with_unused`).
        One home for `rows` and the Dask path (`distributed.predict_model_dask`)."""
        known = {*self.schema.features, self.schema.label, *self.schema.excluded}
        ignored = [str(c) for c in columns if c not in known]
        columns = [*columns, *(n for n, (src, _) in self.schema.date_parts.items()
                               if src in columns)]  # derived from a column the file has
        if ignored:
            say(f"{where}: {noun(len(ignored), 'column')} the model does not know, ignored: {ignored[:10]}"
                + (f" and {len(ignored) - 10} more" if len(ignored) > 10 else ""))
        used = self.used_features()
        unused = [f for f in self.schema.features if f not in columns and f not in used]
        if unused:  # no clause names them: the answers are the same whatever they hold
            say(f"{where}: {noun(len(unused), 'column')} no clause of the model names "
                f"{verb(len(unused), 'is', 'are')} not in the file, "
                f"which changes no answer: {unused[:10]}"
                + (f" and {len(unused) - 10} more" if len(unused) > 10 else ""))
        return unused

    def rows(self, table: Any, say: Callable[[str], None] = _note,
             decimal: str | None = None, columns: Sequence[str] | None = None,
             cells: dict[str, list[pd.Series]] | None = None,
             decided: dict[str, Any] | None = None) -> pd.DataFrame:
        """The table's rows as features, saying which of its columns (`columns`: the file's,
        when `table` holds only some) the model ignores and which numbers it reads as its file
        writes them (`Schema.reading_file`; `decimal` as `plx fit --decimal`) and what it read
        of a column's cells beyond its format ("<5", Excel serials, numbers without '%':
        `data.cells_said`) — or, given `cells`, gathers those cells per column to say them once
        for a file read in blocks (`cells_said`). `decided` (a dict kept over a file's blocks):
        the first block decides how the file's numbers read, and the later blocks are read so
        (`read_as_decided`): one reading for the whole file, said once."""
        from .data import cells_said, reading_delimiter, said_cells

        first = not decided
        delimiter = reading_delimiter(getattr(table, "delimiter", None), decimal)
        unused = self.columns_said(table.frame.columns if columns is None else columns,
                                   table.where, say) if first else decided["unused"]
        frame = with_unused(table.frame, unused)
        with _input(table.where):
            if decided is None:
                schema, read = self.schema.reading_file(frame, delimiter)
            else:  # each column decided by the first block that holds a cell of it
                schema, read = self._decide(decided, frame, delimiter, unused)
            for n in read:
                say(f"{table.where}: {n}")
            X, _ = (schema.apply(frame, label=False) if first else
                    self.read_as_decided(decided, frame, delimiter))
        for f, b in schema.bins.items():  # "<5", 44932, 0.35 beside 82%: said
            if f not in frame.columns:
                continue
            if cells is not None:
                cells.setdefault(f, []).append(said_cells(frame[f], b))
            elif (how := cells_said(frame[f], b)) is not None:
                say(f"{table.where}: column {f!r}: {how}")
        return X

    def _decide(self, decided: dict[str, Any], frame: pd.DataFrame, delimiter: str | None,
                unused: list[str]) -> tuple[Any, list[str]]:
        """(the file's reading so far, what this block decided of it, to say): each numeric
        column not yet decided whose cells this block holds is read as `Schema.reading_file`
        reads them here, once for the whole file (`decided`: the schema, the columns still
        open and the line each column was decided on) — but a plain column whose cells here
        are all whole numbers, which every later reading reads alike, stays open (1234 then
        1.234 in a ';' file: thousands, as the whole file reads them)."""
        from .data import whole_text

        if not decided:
            decided.update(schema=self.schema, open=set(self.schema.bins), unused=unused,
                           line={})
        now = [f for f in decided["open"] if f in frame.columns and frame[f].notna().any()
               and not (self.schema.bins[f].number_format == "plain" and whole_text(frame[f]))]
        if not now:  # (whole numbers read alike in every format: 1234 decides nothing)
            return decided["schema"], []
        read, said = self.schema.reading_file(frame[now], delimiter)
        schema = decided["schema"]
        decided["schema"] = dataclasses.replace(
            schema, bins={**schema.bins, **{f: read.bins[f] for f in now}})
        decided["open"] -= set(now)
        decided["line"].update(dict.fromkeys(now, frame.index[0]))
        return decided["schema"], said

    def read_as_decided(self, decided: dict[str, Any], frame: pd.DataFrame,
                        delimiter: str | None) -> tuple[pd.DataFrame, Any]:
        """A later block of a file read as its earlier blocks decided (`rows(decided=)`): a
        cell that reading cannot read as a number, where these rows read alone would be read
        another way ('1.234,5' after 1234.5 above), is refused naming its line, its value
        and both readings — the file writes the column two ways, and no block may be read
        otherwise than the others, silently or not."""
        schema = decided["schema"]
        try:
            return schema.apply(frame, label=False)
        except DataError as e:
            cols = [f for f in schema.bins if f in frame.columns]
            own, _ = self.schema.reading_file(frame[cols], delimiter)
            other = [f for f in cols if own.bins[f].number_format != schema.bins[f].number_format]
            if not other:
                raise
            from .data import format_words

            f = other[0]
            at = decided["line"].get(f)
            raise DataError(
                f"{e} — the file's {'first rows' if at is None else f'rows from line {at}'} "
                f"read column {f!r} as "
                f"{format_words(schema.bins[f].number_format)}, these rows as "
                f"{format_words(own.bins[f].number_format)}: one file writes a column one "
                "way") from None

    def cells_said(self, cells: dict[str, list[pd.Series]], where: str, delimiter: str | None,
                   decimal: str | None, say: Callable[[str], None], schema: Any = None) -> None:
        """Say what `rows(cells=…)` gathered of each column's cells over a file's blocks, as
        `rows` says it of a whole file; `schema`: how the blocks read the file (`rows(decided=)`),
        else read again from the cells gathered."""
        from .data import cells_said, reading_delimiter

        for f, parts in cells.items():
            s = pd.concat(parts)
            if schema is None:
                read, _ = self.schema.reading_file(
                    pd.DataFrame({f: s}), reading_delimiter(delimiter, decimal))
            if (how := cells_said(s, (schema or read).bins[f])) is not None:
                say(f"{where}: column {f!r}: {how}")

    def with_ids(self, out: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
        """`out` (a row's answers or explanations, one a row of `frame`) with the file's
        ID-like columns the fit left out (`data.id_columns`: a patient or order number) copied
        after `row` as the file writes them, so each answer names its row without a join; a
        name plx's output already has gets " (input)"."""
        from .data import id_columns

        ids = [c for c in id_columns(self.schema.excluded) if c in frame.columns]
        if not ids:
            return out
        out = out.copy()
        at = list(out.columns).index("row") + 1 if "row" in out.columns else 0
        for i, c in enumerate(ids):
            name = str(c)
            while name in out.columns:
                name += " (input)"
            out.insert(at + i, name, frame[c].to_numpy(dtype=object))
        return out

    def used_features(self) -> set[str]:
        """The features some clause of the model names (in any KB it answers or explains
        with, every class's for several), and the date columns a named date part is derived
        from (`Schema.date_parts`): a row without the others gets the same answers."""
        models = self.members or self.steps or [self]
        kbs = [kb for m in models for kb in (m.kb, m.kb_full)]
        named = {f for kb in kbs for f, on in zip(kb.features, (kb.codes >= 0).any(axis=0))
                 if on}
        return named | {src for n, (src, _) in self.schema.date_parts.items() if n in named}

    def predict(self, X: pd.DataFrame, say: Callable[[str], None] | None = None) -> pd.DataFrame:
        """The answers per row; `say` gets one line naming the values read as the model's
        value written otherwise ("TRUE" as "True", `query.read_as_note`)."""
        from .query import read_as_note

        pred, read_as = self.answers(X)
        if say is not None and read_as:
            say(read_as_note(read_as))
        return pred

    def answers(self, X: pd.DataFrame) -> tuple[pd.DataFrame, tuple[Any, ...]]:
        """(the answers per row, the values read as the model's value written otherwise:
        `query.ReadAs`, to be said once for a table answered in parts)."""
        from .query import TIE_EPS, query_many

        if self.members:
            return self._class_answers(X)
        if self.steps:
            return self._level_answers(X)
        b = query_many(self.kb, X, semantics=self.semantics)
        mean = b.mean
        out = pd.DataFrame({
            "row": np.arange(1, len(X) + 1),
            "lower": b.lower, "upper": b.upper, "mean": mean,
            # a row the LP failed on (NaN bounds, its 'note') has no decision, not the negative
            "decision": np.where(np.isnan(mean), "", np.where(mean > self.threshold + TIE_EPS,
                                                              self.positive, self.negative)),
            "tie": np.abs(mean - self.threshold) <= TIE_EPS,
            "method": b.method,
            "unseen": self.unseen(X, b),
        })
        if b.failed:  # rows the LP failed on: NaN bounds and the reason, the others answered
            out["note"] = b.notes
        return out, b.read_as

    def _class_answers(self, X: pd.DataFrame) -> tuple[pd.DataFrame, tuple[Any, ...]]:
        """Several classes: every member's bounds; the decision is the class whose number is
        highest — its mean, or a vote's member its vote's own probability (`by_vote`) — (the
        first in class order on a tie, as `PLXClassifier.predict`; a class whose LP failed on
        a row never wins it), `runner_up` the next one; `lower` / `upper` / `mean` are the
        decision's, `lower:<class>` / `upper:<class>` every class's, and when votes decide
        `vote` / `vote:<class>` the numbers compared (a class of another family: its mean,
        0 where its KB answers [0, 1], `vote.beside_votes`)."""
        from .query import TIE_EPS, failed_notes, query_many
        from .vote import class_compared

        voted = any(m.by_vote for m in self.members)
        parts = [class_compared(query_many(m.kb, X, semantics=m.semantics), m.kb, X, m.by_vote,
                                voted) for m in self.members]
        classes = np.array(self.classes, dtype=object)
        means = np.column_stack([b.mean for b in parts])
        compared = np.column_stack([b.compared_by for b in parts])
        scored = np.nan_to_num(compared, nan=-np.inf)
        order = np.argsort(-scored, axis=1, kind="stable")
        top, second = order[:, 0], order[:, 1]
        rows = np.arange(len(X))
        none = np.isnan(means).all(axis=1)
        best, next_ = scored[rows, top], scored[rows, second]
        lower = np.column_stack([b.lower for b in parts])
        upper = np.column_stack([b.upper for b in parts])
        out = pd.DataFrame({
            "row": np.arange(1, len(X) + 1),
            "decision": np.where(none, "", classes[top]),
            "runner_up": np.where(np.isfinite(next_), classes[second], ""),
            "lower": lower[rows, top], "upper": upper[rows, top], "mean": means[rows, top],
            **({"vote": compared[rows, top]} if voted else {}),
            # the decision's mean equals the runner-up's: decided by class order
            "tie": np.isfinite(next_) & (np.abs(best - next_) <= TIE_EPS),
            "method": np.array([b.method for b in parts], dtype=object).T[rows, top],
            **{f"{side}:{c}": v[:, j] for j, c in enumerate(self.classes)
               for side, v in (("lower", lower), ("upper", upper))
               + ((("vote", compared),) if voted else ())},
            "unseen": self.members[0].unseen(X, parts[0]),
        })
        if any(b.failed for b in parts):  # rows a class's LP failed on: that class and why
            out["note"] = failed_notes(parts, self.classes)
        return out, parts[0].read_as  # every member reads the same cells

    def step_answers(self, X: pd.DataFrame) -> tuple[list[pd.DataFrame], list[Any], list[Any]]:
        """Ordered classes: each step's rows (`OrderedModelFile.step_rows`), its own answers
        (as a yes/no model file answers) and its bounds."""
        from .query import query_many

        rows = [self.file.step_rows(X, k) for k in range(len(self.steps))]
        own = [query_many(s.kb, r, semantics=s.semantics) for s, r in zip(self.steps, rows)]
        return rows, own, [s.positive == "True" for s in self.steps]

    def _level_answers(self, X: pd.DataFrame) -> tuple[pd.DataFrame, tuple[Any, ...]]:
        """Ordered classes: the level is the number of steps that answer "above" (each its own
        yes/no model at its own threshold: `ordered.step_parts`), every level's bounds from
        the steps' (`ordered.level_bounds`), as `PLXClassifier.predict` / `bounds` answer;
        `vote:<class>` the numbers `predict_proba` divides by their sum, `runner_up` the level
        of the next number, `tie` a row some step answers exactly at its threshold."""
        from .ordered import level_answers
        from .query import failed_notes
        from .wording import level_step_said

        rows, own, above = self.step_answers(X)
        ans = level_answers(own, [s.threshold for s in self.steps], above)
        levels, top, second, compared = ans.levels, ans.level, ans.runner_up, ans.compared
        classes = np.array(self.classes, dtype=object)
        lower = np.column_stack([b.lower for b in levels])
        upper = np.column_stack([b.upper for b in levels])
        r = np.arange(len(X))
        none = np.isnan(compared).all(axis=1)
        out = pd.DataFrame({
            "row": np.arange(1, len(X) + 1),
            "decision": np.where(none, "", classes[top]),
            "runner_up": classes[second],
            "lower": lower[r, top], "upper": upper[r, top],
            "mean": (lower[r, top] + upper[r, top]) / 2, "vote": compared[r, top],
            "tie": ans.tie,
            "method": "ordered",
            **{f"{side}:{c}": v[:, j] for j, c in enumerate(self.classes)
               for side, v in (("lower", lower), ("upper", upper), ("vote", compared))},
            "unseen": self.steps[0].unseen(rows[0], own[0]),
        })
        if any(b.failed for b in own):  # rows a step's LP failed on: that step and why
            out["note"] = failed_notes(own, [level_step_said(lo, a)
                                             for lo, a in zip(self.classes, above)])
        return out, own[0].read_as

    def unseen(self, X: pd.DataFrame, b: Any = None) -> np.ndarray:
        """Per row, the values the model never saw in training (`feature='value'; …`, the
        engine's own test: the unseen cells `query_many` reports, or `encode_rows` when no
        answers `b` are given); they are answered as missing."""
        from .query import UNSEEN, encode_rows

        if b is None:
            codes = encode_rows(self.kb, X)
            ur, uc = np.nonzero(codes == UNSEEN)
        else:
            ur, uc = b.unseen_rows, b.unseen_cols
        out = np.full(len(X), "", dtype=object)
        for j, f in enumerate(self.kb.features):
            rows = ur[uc == j]
            if len(rows) == 0 or f not in X.columns:
                continue
            part = X[f].to_numpy(dtype=object)[rows]
            text = np.array([f"{f}={v!r}" for v in part], dtype=object)
            out[rows] = np.where(out[rows] == "", text, out[rows] + "; " + text)
        return out


def _existing(path: str | Path) -> Path:
    p = Path(path)
    if p.is_dir():
        raise CLIError(f"{str(p)!r} is a folder, not a file")
    if p.exists() and not p.is_file():
        raise CLIError(f"{str(p)!r} is a device or pipe, not a file; save the data to a file "
                       "and name that")
    if not p.is_file():
        raise CLIError(f"file {str(p)!r} not found")
    return p


def _report_unseen(unseen: np.ndarray, say: Callable[[str], None]) -> None:
    """One line: how many rows hold unseen values, and the most common ones."""
    from .query import unseen_note

    hit = unseen != ""
    if not hit.any():
        return
    vals = pd.Series("; ".join(unseen[hit]).split("; ")).value_counts()
    say(unseen_note(vals.to_dict(), int(hit.sum()), where=" (column 'unseen')"))


def _report_failed(pred: pd.DataFrame, say: Callable[[str], None]) -> None:
    """One line: how many rows could not be answered (column 'note' says why, per row), counted
    and worded as every path says them (`query.unanswered`), rows named as column 'row'."""
    from .query import unanswered

    if "note" in pred:
        decided = ("no decision; column 'note' says why" if "runner_up" not in pred else
                   "the classes answered decide, none if no class did; column 'note' says "
                   "which class failed and why")
        note = unanswered(pred["note"].to_numpy(dtype=object), decided,
                          lambda r: f"row {r + 1}")
        if note is not None:
            say(str(note))


def _uninformed(pred: pd.DataFrame, model: Model) -> tuple[np.ndarray, str, float | None]:
    """The rows of answers `pred` the KB says nothing about ([0, 1]; several classes: every
    class's, when votes decide them by their priors — else a tie, said with the ties), the
    first one's decision in words, and the threshold that decides them (None: the priors)."""
    from .query import uninformed_rows

    def side(name: str) -> list[np.ndarray]:
        return ([pred[name].to_numpy(float)] if model.classes is None else
                [pred[f"{name}:{c}"].to_numpy(float) for c in model.classes])

    hit = uninformed_rows(side("lower"), side("upper"), "vote" in pred)
    if not hit.any():
        return hit, "", None
    i = int(np.flatnonzero(hit)[0])
    tie = " (a tie at the threshold)" if model.classes is None else " (a tie: class order)"
    return (hit, f"{pred['decision'].iloc[i]!r}" + (tie if pred["tie"].iloc[i] else ""),
            model.threshold if model.classes is None else None)


def _report_uninformed(pred: pd.DataFrame, model: Model, say: Callable[[str], None]) -> None:
    """One line: how many rows the KB says nothing about ([0, 1]), decided by the threshold
    (several classes: by the votes' priors)."""
    from .query import uninformed_note

    hit, decided, threshold = _uninformed(pred, model)
    if hit.any():
        say(uninformed_note(int(hit.sum()), int(np.flatnonzero(hit)[0]) + 1, threshold, decided))


def _write_csv(frame: pd.DataFrame, out: Path) -> None:
    from .export import safe_csv, write_atomic

    write_atomic(out, safe_csv(frame))


# --------------------------------------------------------------------------- commands


def _outputs(a: argparse.Namespace, *inputs: str) -> Path:
    from .export import check_output

    return check_output(a.out, inputs)


def cmd_fit(a: argparse.Namespace) -> None:
    from .export import write_atomic
    from .modelfile import choose_format, model_bytes
    from .progress import StderrProgress

    out = _outputs(a, a.data)
    progress = None if a.no_progress else StderrProgress(prog="plx fit")
    model = fit_model(a.data, a.label, a.positive, a.kb, a.variant, a.max_len, a.random_state,
                      drop_missing_label=a.drop_missing_label, missing=_markers(a.missing),
                      encoding=a.encoding, memory_budget=a.budget, threshold=a.threshold,
                      decimal=a.decimal, progress=progress, case_column=a.case_column,
                      date_parts=a.date_parts, class_order=a.class_order)
    from .modelfile import n_clauses

    fmt = choose_format(out, n_clauses(model))
    if progress is not None:
        progress(0.97, f"saving {out.name} ({n_clauses(model):,} clauses)")
    write_atomic(out, model_bytes(model, fmt))
    st = model.settings
    variant = st.get("variant", a.variant) if a.kb != "direct" else a.variant  # as recorded
    if getattr(model, "steps", None) is not None:
        hows = [_how(a.kb, {**st, **m.settings}, m.answer) for m in model.steps]
        print(f"wrote {out} ({fmt}): {len(model.classes)} ordered levels "
              f"{' < '.join(map(repr, model.classes[:10]))}, a yes/no model for each of the "
              f"{len(model.steps)} steps between them ({n_clauses(model):,} clauses in all): "
              + "; ".join(f"above {c!r}: {h}" for c, h in zip(model.classes, hows)))
        return
    if getattr(model, "classes", None) is not None:
        from . import wording

        hows = [_how(a.kb, {**st, **m.settings}, m.answer) for m in model.members]
        voted = [model.by_vote(i) for i in range(len(model.classes))]
        how = hows[0] if len(set(hows)) == 1 else "; ".join(
            f"{c!r}: {h}" for c, h in zip(model.classes, hows))
        print(f"wrote {out} ({fmt}): {len(model.classes)} classes "
              f"{list(model.classes[:10])}{' …' if len(model.classes) > 10 else ''}, a "
              f"{st['kb_kind']} KB each against the rest ({n_clauses(model):,} clauses in all), "
              f"variant {variant} ({how}); "
              f"{wording.class_decision_said(any(voted), [c for c, v in zip(model.classes, voted) if not v])}")
        return
    print(f"wrote {out} ({fmt}): {st['kb_kind']} KB of {len(model.kb)} clauses, variant "
          f"{variant} ({_how(a.kb, st, model.answer)}), POS = {model.positive!r}")


def _how(kb: str, st: dict[str, Any], answer: dict[str, Any] | None) -> str:
    """How a fitted model answers, in a few words (`plx fit`'s result line)."""
    from . import wording
    from .variants import prior_said

    if kb != "direct":  # asked for, not chosen
        return f"--kb {kb} as given, threshold {st['threshold']:g}"
    if st.get("chosen", "direct") not in ("direct", "tuned"):
        setting = ("depth" if st["kb_kind"] != "direct" else
                   "weights" if st["chosen"] in ("direct-vote", "rule-vote") else "m")
        return (f"{wording.model_name(st['chosen'])} chosen ({setting} as said above), threshold "
                f"{st['threshold']:g}")
    if answer:
        return "clause lengths {min_len}..{max_len}, {prior}".format(
            **answer, prior=prior_said(answer["prior_weight"]))
    return "paper configuration"


def _read_rules(path: str) -> str:
    """The text of a rules file (UTF-8, capped as `rules.MAX_RULES_CHARS`), checked first."""
    from .rules import MAX_RULES_CHARS

    p = _existing(path)
    if p.stat().st_size > 4 * MAX_RULES_CHARS:
        raise CLIError(f"{path}: {p.stat().st_size:,} bytes is more rule text than is read at "
                       f"once ({MAX_RULES_CHARS:,} characters)")
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CLIError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _add_rules(model: Any, text: str, cls: str | None, what: str) -> list[str]:
    """`modelrules.add_model_rules`, the class checked before the text is read (its error
    is about --class, not about `what`), parse errors named by `what`."""
    from .modelrules import CLASS_LINE, add_model_rules, home_for

    if not any(CLASS_LINE.match(ln) for ln in text.splitlines()):
        home_for(model, cls)  # which KB (a class of several) before the text is read
    with _input(what):
        return add_model_rules(model, text, cls)


def _model_with_rules(a: argparse.Namespace) -> Model:
    """The model of `a.model`, plus the rules of `a.rules` (tried, never saved), said."""
    from .modelfile import load_model
    from .modelrules import rules_said

    if a.rules is None:
        if a.cls is not None:
            raise CLIError("--class names the class --rules are about; give --rules FILE too")
        return Model.load(a.model)
    mf = load_model(_existing(a.model))
    ids = _add_rules(mf, _read_rules(a.rules), a.cls, a.rules)
    _note(f"trying {counted(len(ids), 'rule')} from {a.rules} ({', '.join(ids[:10])}), not saved; the "
          f"model answers with {rules_said(mf)}")
    return Model(mf)


def cmd_predict(a: argparse.Namespace) -> None:
    out = _outputs(a, a.model, a.data)
    model = _model_with_rules(a)
    if a.dask or a.workers:  # partition by partition on a Dask cluster, the model sent once
        import glob

        from .distributed import predict_model_dask

        if not glob.glob(str(a.data)):  # (a file, a Parquet folder or a glob) before a cluster starts
            raise CLIError(f"no file or folder matches {str(a.data)!r}")

        pred = predict_model_dask(model, a.data, a.dask, a.workers, _model_markers(a.missing, model),
                                  _note,
                                  a.decimal)
    else:  # block by block, written as it goes: memory does not grow with the file
        n, decisions, ties = predict_file(model, a.data, out, _model_markers(a.missing, model),
                                          a.encoding,
                                          a.decimal, _note)
        _wrote(out, model, n, decisions, ties)
        return
    _report_unseen(pred["unseen"].to_numpy(dtype=object), _note)
    _report_failed(pred, _note)
    _report_uninformed(pred, model, _note)
    _write_csv(pred, out)
    _wrote(out, model, len(pred), pred["decision"].value_counts().to_dict(),
           int(pred["tie"].sum()))


def _wrote(out: Path, model: Model, n: int, decisions: dict[str, int], ties: int) -> None:
    """`plx predict`'s result line: rows written, decisions counted, ties."""
    if model.steps:
        print(f"wrote {out}: {n} rows, " + ", ".join(
            f"{int(decisions.get(c, 0))} {c}" for c in model.classes) +
            f"; {counted(ties, 'row')} at a step's threshold (decided as that step decides a tie)")
        return
    if model.classes is not None:
        print(f"wrote {out}: {n} rows, " + ", ".join(
            f"{int(decisions.get(c, 0))} {c}" for c in model.classes) +
            f"; {ties} ties between classes (decided by class order)")
        return
    from .wording import class_name, class_names

    label = getattr(model.schema, "label", None)  # the file's two classes, as it writes them
    pos, neg = class_names(class_name(model.positive, label, [model.positive, model.negative]))
    n_pos, n_neg = int(decisions.get(model.positive, 0)), int(decisions.get(model.negative, 0))
    print(f"wrote {out}: {n} rows, {n_pos} {pos}, {n_neg} {neg}; "
          f"{counted(ties, 'tie')} at {model.threshold:g} (reported {neg})")


def predict_file(model: Model, path: str | Path, out: Path, missing: Sequence[str] | None = None,
                 encoding: str = "utf-8", decimal: str | None = None,
                 say: Callable[[str], None] = _note, rows: int | None = None
                 ) -> tuple[int, dict[str, int], int]:
    """`plx predict` in one process: the file read `rows` rows at a time (`data.read_blocks`,
    only the columns the model reads or copies), each block answered and written to `out`
    (atomically) before the next is read, so memory does not grow with the file; every row's
    answer, its `row` and the notes are those of the whole file read at once, said once at the
    end in the same order. Returns (rows, decisions counted, ties)."""
    from .data import BLOCK_ROWS, MISSING_MARKERS, id_columns, read_blocks
    from .export import atomic_path, safe_frame
    from .query import UnansweredRows, merge_read_as, read_as_note, uninformed_note

    def keep(columns: list[str]) -> list[str]:  # a feature lacking: every column, to name its twin
        wanted = [*model.schema.features, *id_columns(model.schema.excluded)]
        derived = set(model.schema.date_parts)
        return columns if any(f not in columns and f not in derived
                              for f in model.schema.features) else wanted

    blocks = read_blocks(_existing(path), keep=keep, rows=rows or BLOCK_ROWS,
                         missing=MISSING_MARKERS if missing is None else missing,
                         encoding=encoding)
    said: dict[str, None] = {}  # the blocks' notes, each once, in order
    reading: dict[str, Any] = {}  # how the file's numbers read: decided once (`Model.rows`)
    cells: dict[str, list[pd.Series]] = {}
    read_as: list[Any] = []
    unseen: dict[str, int] = {}
    n = n_unseen = ties = 0
    decisions: dict[str, int] = {}
    failed: dict[int, str] = {}  # row position → why its LP failed (few rows)
    blank = (0, 0, "")  # rows answered [0, 1], the first's row and decision
    several = model.classes is not None
    with atomic_path(out) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            for table in blocks:
                X = model.rows(table, lambda m: said.setdefault(m, None), decimal,
                               columns=blocks.columns, cells=cells, decided=reading)
                pred, got = model.answers(X)
                read_as.append(got)
                pred["row"] += n
                if "note" in pred:
                    notes = pred.pop("note").to_numpy(dtype=object)
                    failed.update({n + int(i): str(notes[i]) for i in np.flatnonzero(notes != "")})
                u = pred["unseen"].to_numpy(dtype=object)
                if (hit := u != "").any():
                    n_unseen += int(hit.sum())
                    for v, k in pd.Series("; ".join(u[hit]).split("; ")).value_counts().items():
                        unseen[v] = unseen.get(v, 0) + int(k)
                uninf, decided, _ = _uninformed(pred, model)
                if uninf.any() and not blank[0]:
                    blank = (0, n + int(np.flatnonzero(uninf)[0]) + 1, decided)
                blank = (blank[0] + int(uninf.sum()), *blank[1:])
                for d, k in pred["decision"].value_counts().items():
                    decisions[d] = decisions.get(d, 0) + int(k)
                ties += int(pred["tie"].sum())
                safe_frame(model.with_ids(pred, table.frame)).to_csv(
                    fh, index=False, header=n == 0, lineterminator="\r\n")
                n += len(pred)
        summary = blocks.summary()  # what reading the whole file said, first
        for m in summary.notes:
            say(f"{summary.where}: {m}")
        if summary.missing:
            say(f"{summary.where}: cells read as missing — {summary.missing_summary()}")
        for m in said:
            say(m)
        model.cells_said(cells, blocks.where, blocks.delimiter, decimal, say,
                         reading.get("schema"))
        if (merged := merge_read_as(read_as)):
            say(read_as_note(merged))
        if unseen:
            from .query import unseen_note

            say(unseen_note(unseen, n_unseen, where=" (column 'unseen')"))
        if failed:
            first = min(failed)
            decided = ("no decision; column 'note' says why" if not several else
                       "the classes answered decide, none if no class did; column 'note' says "
                       "which class failed and why")
            say(str(UnansweredRows(len(failed), f"row {first + 1}: {failed[first]}", decided)))
            _with_notes(tmp, failed, n)
        if blank[0]:
            say(uninformed_note(blank[0], blank[1], None if several else model.threshold,
                                blank[2]))
    return n, decisions, ties


def _with_notes(path: Path, failed: dict[int, str], n: int) -> None:
    """The written answers at `path` with the column 'note' (why a row's LP failed, "" for
    the others) after the last, as a file answered at once has it: rewritten a block at a
    time, its cells as written."""
    from .data import BLOCK_ROWS
    from .export import safe_cell

    body = path.with_name(path.name + ".body")
    os.replace(path, body)
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            at = 0
            for part in pd.read_csv(body, dtype=str, keep_default_na=False, na_filter=False,
                                    chunksize=BLOCK_ROWS, encoding="utf-8"):
                notes = np.full(len(part), "", dtype=object)  # a loop over the few failed rows
                for r, why in failed.items():
                    if at <= r < at + len(part):
                        notes[r - at] = safe_cell(why)
                part["note"] = notes
                part.to_csv(fh, index=False, header=at == 0, lineterminator="\r\n")
                at += len(part)
    finally:
        body.unlink(missing_ok=True)


def cmd_explain(a: argparse.Namespace) -> None:
    from .explain import Unexplained, explain_many
    from .rules import features_text
    from .wording import class_names, other_side_said, undecided_said

    out = _outputs(a, a.model, a.data)
    model = _model_with_rules(a)
    table = read_rows(a.data, _model_markers(a.missing, model), encoding=a.encoding)
    X = model.rows(table, decimal=a.decimal)
    pred = model.predict(X, _note)
    _report_unseen(pred["unseen"].to_numpy(dtype=object), _note)
    _report_failed(pred, _note)  # as plx predict says them; each such row's note says why
    qs = [{f: v for f, v in r.items() if isinstance(v, str)} for r in X.to_dict("records")]
    decision = pred["decision"].to_numpy(dtype=object)
    # every row in one batch (rows asking the same question explained once; chunked, threaded);
    # a row knowing fewer than k features the model can cite (an unseen value is unknown, as
    # predict answers it, and so is a feature no clause uses) gets k lowered and the sentence
    # that says so (`explain.lower_k`), a row knowing none the reason
    step_neg: Any = None  # ordered classes: each row's step's other side, in words
    if model.classes is None:
        sides = np.where(decision == model.positive, "positive", "negative")
        found = explain_many(model.kb_full, qs, k=a.k, direction=[str(s) for s in sides],
                             semantics=model.semantics, threshold=model.threshold)
        explained = np.full(len(qs), model.positive, dtype=object)
    elif model.steps:  # ordered classes: the step bounding the row's level nearer its 0.5
        found, explained, step_neg = _explain_levels(model, X, a.k)
    else:  # several classes: the decided class's KB, why the row is that class (vs the rest)
        found, explained = _explain_classes(model, qs, decision, pred, a.k)
    rows = []
    for i, e in enumerate(found):
        base = {"row": i + 1, "decision": decision[i],
                "explained_class": explained[i],  # the class the bounds are the support of
                **({"runner_up": pred["runner_up"].iloc[i]} if model.classes is not None else {}),
                "lower": pred["lower"].iloc[i], "upper": pred["upper"].iloc[i]}
        if isinstance(e, Unexplained):  # this row only (knows nothing, its LP failed): why
            rows.append({**base, "k": 0, "features": "", "sub_lower": np.nan,
                         "sub_upper": np.nan, "decides": False, "search": "", "note": e.reason,
                         "unseen": pred["unseen"].iloc[i]})
            continue
        # features that do not decide the answer on their own are the strongest case, said so
        own = None if model.classes is None or model.steps else explained[i]  # its own KB
        pos, neg = ((explained[i], step_neg[i]) if model.steps else  # a step: a yes/no model
                    class_names(explained[i], model.negative if model.classes is None else None))
        said = "" if e.decides else undecided_said(
            e.k, (pos if e.direction == "positive" else neg) if model.steps else str(decision[i]),
            e.best.by_prior, e.answer_by_prior, e.base_rate, own)
        if e.other_side:  # the full Direct KB searched answers the row the other way: said
            side, flip = (pos, neg) if e.direction == "positive" else (neg, pos)
            said = "; ".join(x for x in (said, other_side_said(side, flip, e.query_bounds,
                                                               e.threshold, own)) if x)
        rows.append({**base, "k": e.k,
                     "features": features_text(e.features),
                     "sub_lower": e.bounds[0], "sub_upper": e.bounds[1], "decides": e.decides,
                     "search": e.search, "note": "; ".join(x for x in (said, e.note) if x),
                     "unseen": pred["unseen"].iloc[i]})
    _write_csv(model.with_ids(pd.DataFrame(rows), table.frame), out)
    print(f"wrote {out}: {len(rows)} explanations (k={a.k})")


def _explain_levels(model: Model, X: pd.DataFrame, k: int
                    ) -> tuple[list, np.ndarray, np.ndarray]:
    """Ordered classes: each row explained by the step that explains it
    (`ordered.explaining_step`), on the side that step answers, as `PLXClassifier.explain`
    explains an ordered model; the explained class names the step's POS ("above 'mild'"),
    the third array its other side ("at most 'mild'")."""
    from .explain import Unexplained, explain_many
    from .ordered import explaining_step, step_parts
    from .query import TIE_EPS
    from .wording import level_step_said

    rows, own, above = model.step_answers(X)
    _cum, nums = step_parts(own, [s.threshold for s in model.steps], above)
    which = explaining_step(nums)
    found: list = [None] * len(X)
    explained, other = np.empty(len(X), dtype=object), np.empty(len(X), dtype=object)
    for j in np.unique(which):
        step, at = model.steps[int(j)], np.flatnonzero(which == j)
        part = rows[int(j)].iloc[at]
        qs = [{f: v for f, v in r.items() if isinstance(v, str)} for r in part.to_dict("records")]
        sides = np.where(own[int(j)].mean[at] > step.threshold + TIE_EPS, "positive",
                         "negative")
        for i, e in zip(at, explain_many(step.kb_full, qs, k=k, direction=[str(s) for s in sides],
                                         semantics=step.semantics, threshold=step.threshold)):
            found[i] = e if not isinstance(e, Unexplained) else dataclasses.replace(e, row=int(i))
        explained[at] = level_step_said(model.classes[int(j)], above[int(j)])
        other[at] = level_step_said(model.classes[int(j)], not above[int(j)])
    return found, explained, other


def _explain_classes(model: Model, qs: list[dict], decision: np.ndarray, pred: pd.DataFrame,
                     k: int) -> tuple[list, np.ndarray]:
    """Several classes: each row explained by its decided class's KB (that class against the
    rest, as positive: the features that make it the answer), one batch a class; a row with
    no decision (every class's LP failed on it) gets the reason."""
    from .explain import Unexplained, explain_many

    found: list = [None] * len(qs)
    for c, member in zip(model.classes or (), model.members):
        at = np.flatnonzero(decision == c)
        if len(at):
            part = explain_many(member.kb_full, [qs[j] for j in at], k=k, direction="positive",
                                semantics=member.semantics)
            for j, e in zip(at, part):
                found[j] = e if not isinstance(e, Unexplained) else dataclasses.replace(e, row=int(j))
    note = pred["note"] if "note" in pred else pd.Series("", index=pred.index)
    for j in np.flatnonzero(decision == ""):
        found[j] = Unexplained(int(j), qs[j], k, f"no class answered the row: {note.iloc[j]}")
    return found, decision.copy()


def cmd_rules(a: argparse.Namespace) -> None:
    """`plx rules MODEL ACTION`: list the model file's expert rules, or change them and write
    the file back atomically (in place, or to --out); nothing is written on any error."""
    from .binformat import is_npz
    from .export import check_output, write_atomic
    from .modelfile import choose_format, load_model, model_bytes, n_clauses
    from .modelrules import (
        ROWS_UNKNOWN,
        edit_model_rules,
        model_rules_text,
        remove_model_rules,
        rules_said,
        rules_table,
    )

    path = _existing(a.model)
    out = path if a.out is None else check_output(a.out)
    model = load_model(path)
    if a.action == "list":
        if a.text:
            sys.stdout.write(model_rules_text(model))
            return
        table = rules_table(model)
        if table.empty:
            print(f"{path}: no rules (add one: plx rules {path} add \"IF … THEN POS [p=0.9]\")")
            return
        shown = table.assign(p=table["p"].map("{:g}".format), w=table["w"].map("{:g}".format),
                             rows=table["rows"].map(lambda n: "—" if pd.isna(n) else f"{n:,}"),
                             vs_data=table["vs_data"].map("{:.3g}×".format))
        print(shown.to_string(index=False))
        if table["rows"].isna().any():  # never a blank cell without a word why
            print(ROWS_UNKNOWN)
        return
    if a.action == "add":
        if (a.rule is None) == (a.file is None):
            raise CLIError("plx rules add: give the rule text or --file FILE (one of them)")
        text = a.rule if a.file is None else _read_rules(a.file)
        ids = _add_rules(model, text, a.cls, a.file or "the rule")
        done = f"added {', '.join(ids)}"
    elif a.action == "remove":
        with _input("plx rules remove"):
            remove_model_rules(model, a.ids)
        done = f"removed {', '.join(a.ids)}"
    elif a.action in ("enable", "disable"):
        with _input(f"plx rules {a.action}"):
            edit_model_rules(model, a.ids, enabled=a.action == "enable")
        done = f"{a.action}d {', '.join(a.ids)}"
    else:  # edit
        changes = {k: v for k, v in (("p", a.p), ("w", a.w)) if v is not None}
        if not changes:
            raise CLIError("plx rules edit: say what changes, --p P and/or --w W")
        with _input("plx rules edit"):
            edit_model_rules(model, a.ids, **changes)
        done = (f"set {', '.join(f'{k}={v:g}' for k, v in changes.items())} on "
                f"{', '.join(a.ids)}")
    with path.open("rb") as fh:
        kept = "npz" if is_npz(fh.read(4)) else "json"
    fmt = choose_format(out, n_clauses(model)) if out.suffix.lower() in (".json", ".npz") else kept
    write_atomic(out, model_bytes(model, fmt))
    print(f"{done}: wrote {out} ({fmt}), {rules_said(model)}")


def _probability(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a probability in [0, 1], got {text!r}")
    return v


def _weight(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (np.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return v


# --------------------------------------------------------------------------- arguments


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are `CLIError`s (one line, exit 2, through `main`)."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        if message.endswith("expected one argument"):  # --missing -,n/a: '-' reads as an option
            opt = message.split(":")[0].removeprefix("argument ").split("/")[-1]
            message += f" (a value starting with '-' is written {opt}=VALUE, e.g. {opt}=-,n/a)"
        raise CLIError(f"{self.prog}: {message} (see {self.prog} -h)")


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return v


def _size(text: str) -> int:
    from .direct import parse_size

    try:
        return parse_size(text)
    except PLXError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None


def _seed(text: str) -> int:
    """--random-state: a whole number numpy takes as a seed (checks.checked_seed)."""
    from .checks import checked_seed

    try:
        return checked_seed(int(text))
    except (ValueError, DataError):
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 4294967295, got "
                                         f"{text!r}") from None


def _threshold(text: str) -> float:
    try:
        return float(checked_threshold(float(text)))
    except (ValueError, DataError):
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1), got {text!r}") from None


def _date_parts(text: str) -> tuple[str, ...]:
    from .data import date_parts_of

    try:
        return date_parts_of(text)
    except DataError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _decimal(text: str) -> str:
    from .data import DECIMAL_MARKS

    if text not in DECIMAL_MARKS:
        raise argparse.ArgumentTypeError(f"must be the decimal mark, '.' or ',', got {text!r}")
    return text


def _add_missing(p: argparse.ArgumentParser, model: bool = False) -> None:
    """The table-reading options every command that reads a CSV shares (`model`: a command
    reading new rows for a model, whose fit's own markers are the default)."""
    from .data import MISSING_MARKERS

    p.add_argument("--missing", metavar="MARKERS", default=None,
                   help="comma-separated cells that mean a missing value (empty cells always "
                   "do; a number also names the cells that write it otherwise, -999 names "
                   "-999.0); default: "
                   + ("the markers the model's fit was given with --missing, else " if model else "")
                   + ", ".join(repr(m) for m in MISSING_MARKERS))
    p.add_argument("--encoding", default="utf-8",
                   help="text encoding of the CSV (default utf-8; e.g. latin-1, cp1252)")


def _add_decimal(p: argparse.ArgumentParser, predict: bool = False) -> None:
    """The decimal mark option of the commands that read numbers written as text."""
    p.add_argument("--decimal", type=_decimal, default=None, metavar="MARK",
                   help="the decimal mark of numbers written as text, '.' or ',' (default: "
                   "',' in a ';'-delimited file, where 1.234 reads as 1234; else '.')" + (
                       "; a column this file writes otherwise than the training file is read "
                       "as this file writes it, and said" if predict else ""))


def _add_try_rules(p: argparse.ArgumentParser) -> None:
    """--rules FILE [--class C] of predict and explain: expert rules tried, not saved."""
    p.add_argument("--rules", metavar="FILE", default=None,
                   help="answer with these expert rules too (one a line, as plx rules add "
                   "reads them), without saving them in the model")
    p.add_argument("--class", dest="cls", metavar="CLASS", default=None,
                   help="with --rules on a model of several classes: the class they are about")


def _add_rules_parser(sub: Any) -> None:
    """`plx rules MODEL ACTION …` (`cmd_rules`)."""
    r = sub.add_parser("rules", help="list, add, remove, disable / enable or edit the expert "
                       "rules kept in a model file")
    r.add_argument("model", help="the model file (rewritten in place unless --out is given)")
    acts = r.add_subparsers(dest="action", required=True, parser_class=_Parser)

    def act(name: str, text: str) -> argparse.ArgumentParser:
        p = acts.add_parser(name, help=text, prog=f"plx rules MODEL {name}")
        if name != "list":
            p.add_argument("--out", default=None, help="write the changed model here instead "
                           "of rewriting MODEL")
        return p

    lst = act("list", "one line a rule: id, rule, p, w, on/off, the training rows its "
              "conditions hold for (when the model knows), w against a training row's evidence")
    lst.add_argument("--text", action="store_true", help="print the rules as text that "
                     "plx rules add --file reads back (ids, p, w, off kept; several classes: "
                     "each class's rules after a '# class: C' line)")
    lst.set_defaults(out=None)
    add = act("add", 'add rules: IF a=v AND b >= 7 THEN POS [p=0.9, w=5] (THEN NOT POS for the '
              "other side; OR, NOT and parentheses too)")
    add.add_argument("rule", nargs="?", default=None, help="the rule text (quote it)")
    add.add_argument("--file", default=None, help="a text file of rules, one a line (# comments)")
    add.add_argument("--class", dest="cls", metavar="CLASS", default=None,
                     help="a model of several classes: the class the rules are about (THEN POS "
                     "is that class)")
    for name, text in (("remove", "remove rules by id"), ("disable", "keep rules but stop "
                       "using them"), ("enable", "use disabled rules again")):
        act(name, text).add_argument("ids", nargs="+", metavar="ID")
    ed = act("edit", "change the probability or weight of rules")
    ed.add_argument("ids", nargs="+", metavar="ID")
    ed.add_argument("--p", type=_probability, default=None, help="the new probability, in [0, 1]")
    ed.add_argument("--w", type=_weight, default=None, help="the new weight, > 0")
    r.set_defaults(func=cmd_rules)


def cmd_dashboard(a: argparse.Namespace) -> None:
    """Start the dashboard that ships in the package (`plx_app`), from any folder."""
    from plx_app.launch import run

    code = run(port=a.port, address=a.address, browser=a.browser)
    if code:
        raise CLIError(f"the dashboard stopped with exit status {code}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="plx", description="Explainable classification by "
                "probabilistic logic inference.")
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="learn a KB from a CSV and save the model (JSON)")
    f.add_argument("data", help="CSV with a header row (gzip / bzip2 / xz compressed too), or "
                   "a Parquet file (with pyarrow)")
    f.add_argument("--label", required=True, help="the label column")
    f.add_argument("--positive", help="the class POS stands for (needed for more than two)")
    f.add_argument("--class-order", metavar="ORDER", default=None,
                   help="fit a label of three or more levels as ordered levels: 'auto' (numbers "
                        "ascending, or the words of a known scale: mild < moderate < severe) or "
                        "the classes from lowest to highest separated by commas "
                        "(\"low,medium,high\"); one yes/no model for each step between them. "
                        "Without it, a known scale's words (not numbers) are fitted as levels "
                        "unless --positive is given; 'none': each class against the rest")
    f.add_argument("--kb", choices=KB_KINDS, default="direct")
    f.add_argument("--variant", choices=CLI_VARIANTS, default="auto",
                   help="auto (default: the tuned Direct KB or an ID3 tree KB, whichever "
                   "cross-validates better on the training rows), tuned (clause window + prior "
                   "by leave-one-out) or paper")
    f.add_argument("--max-len", type=_positive_int, default=None,
                   help="cap on Direct clause length")
    f.add_argument("--random-state", type=_seed, default=0)
    f.add_argument("--threshold", type=_threshold, default=None,
                   help="positive iff the mean of the ω(POS) bounds > this (default: chosen "
                   "with the model by --variant auto, else 0.5; lower finds more positives, "
                   "higher fewer)")
    _add_decimal(f)
    f.add_argument("--case-column", metavar="COLUMN", default=None,
                   help="the column naming each row's case where a case has several rows (one "
                        "a visit, a patient number): no feature, and the model search keeps "
                        "a case's rows on one side of its folds")
    f.add_argument("--date-parts", metavar="PARTS", type=_date_parts, default=None,
                   help="derive a column of each date column's month, weekday and/or hour of the "
                        "day (month,weekday,hour): a pattern that repeats each year, week or "
                        "day (night admissions), which the "
                        "date's time line misses; kept in the model, derived at predict too")
    f.add_argument("--drop-missing-label", action="store_true",
                   help="train without the rows whose label is missing (says how many); "
                   "without it such rows are refused")
    _add_missing(f)
    f.add_argument("--budget", type=_size, default=None, metavar="SIZE",
                   help="memory for the fit, e.g. 4GB (default 4GB): a table whose fit needs "
                        "more is refused before the work; without --max-len the Direct KB's "
                        "largest clause-length cap that fits is used, and said")
    f.add_argument("--out", required=True, help="model file to write: name.json (readable) or "
                   "name.npz (compact binary); other names pick npz for large KBs")
    f.add_argument("--no-progress", action="store_true",
                   help="no progress lines on stderr (reading, binning, searching candidates "
                   "k of n, building the KB, saving); notes and errors are still shown")
    f.set_defaults(func=cmd_fit)
    pr = sub.add_parser("predict", help="ω(POS) bounds and decisions for the rows of a CSV")
    pr.add_argument("model")
    pr.add_argument("data")
    _add_missing(pr, model=True)
    _add_decimal(pr, predict=True)
    pr.add_argument("--out", required=True, help="CSV to write")
    pr.add_argument("--dask", metavar="SCHEDULER_ADDRESS", default=None,
                    help="answer partition by partition on this Dask cluster (plx[dask])")
    pr.add_argument("--workers", type=_positive_int, default=None, metavar="N",
                    help="answer on a local Dask cluster of N worker processes (plx[dask])")
    _add_try_rules(pr)
    pr.set_defaults(func=cmd_predict)
    ex = sub.add_parser("explain", help="the k features that decide each row (Algorithm 6)")
    ex.add_argument("model")
    ex.add_argument("data")
    ex.add_argument("--k", type=_positive_int, default=2)
    _add_missing(ex, model=True)
    _add_decimal(ex, predict=True)
    ex.add_argument("--out", required=True, help="CSV to write")
    _add_try_rules(ex)
    ex.set_defaults(func=cmd_explain)
    _add_rules_parser(sub)
    sub.add_parser("experiments", help="section 6 of the paper (see plx experiments -h)",
                   add_help=False)
    d = sub.add_parser("dashboard", help="start the dashboard (a Streamlit web app) from any folder")
    d.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    d.add_argument("--address", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    d.add_argument("--browser", action="store_true", help="open a browser tab when it is ready")
    d.set_defaults(func=cmd_dashboard)
    return p


# --------------------------------------------------------------------------- the error boundary


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) if "\n" in str(text) or "\r" in str(text) else str(text)


def _os_message(exc: OSError) -> str:
    what = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        return f"{str(exc.filename)!r}: {what}"
    return what


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Exit status: 0 done, 2 a problem with the input (one line on stderr),
    1 a bug in plx (a short message; `PLX_DEBUG=1` shows the traceback), 130 interrupted."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "experiments":
            from .experiments.command import main as experiments_main

            return experiments_main(argv[1:], prog="plx experiments")
        args = build_parser().parse_args(argv)
        args.func(args)
    except (CLIError, PLXError) as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {_one_line(_os_message(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("PLX_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {_one_line(str(exc))[:300]} — this is a "
              "bug in plx; please report it with the command (PLX_DEBUG=1 shows the traceback)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
