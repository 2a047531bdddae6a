"""Raw tables and how they become a data set: built-in, shared and uploaded tables (sizes checked before parsing), the data settings, the column overview and plain-words notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from plx_core import wording
from plx_core.data import (
    MISSING_MARKERS,
    Dataset,
    Schema,
    case_columns,
    case_ids,
    cells_said,
    copied_rows,
    flag_column,
    flag_vocabularies,
    grouped_rows,
    grouped_rows_said,
    grouped_said,
    id_columns,
    infer_schema,
    is_parquet,
    label_copy,
    label_missing,
    label_texts,
    listed_items,
    mixed_dates,
    offsets_said,
    read_table,
    reading_delimiter,
    reads_as_numbers,
    repeated_rows,
    spelling_variants,
    suggest_label,
    train_test_split_stratified,
    unread_numbers,
    zero_padded,
)
from plx_core.datasets import SHARED_NAMES, data_dir, load_shared, paper_example, synthetic
from plx_core.direct import estimate_bytes
from plx_core.discretize import DEFAULT_METHOD, fit_binnings
from plx_core.encoding import class_named, default_positive, one_class
from plx_core.errors import DataError
from plx_core.plurals import counted

from .cache import fingerprint

DEFAULT_NAME = "breast-cancer-wisconsin"
BUILTIN = {
    "breast-cancer-wisconsin": "Breast cancer diagnosis (default; scikit-learn's Wisconsin set)",
    "paper-example": "The paper's Example 2 (8 bit strings)",
    "syn-10-4": "Synthetic Syn 10/4 (1,000 strings, the paper's seed string)",
}
MAX_UPLOAD_BYTES = 50_000_000
MAX_UPLOAD_ROWS = 200_000
MAX_UPLOAD_COLS = 200
UPLOAD_TYPES = ("csv", "txt", "data", "tsv", "parquet", "pq")
"""File name endings the Data page's uploader takes."""
ENCODINGS = {"utf-8": "UTF-8 (default; a byte order mark is skipped)",
             "cp1252": "Windows-1252 (Western Europe; Excel's CSV on Windows)",
             "latin-1": "ISO-8859-1 (Latin-1)",
             "cp1250": "Windows-1250 (Central Europe)"}
"""The text encodings the Data page's uploader offers (a CSV's; `plx fit --encoding` takes any).
Windows-1252 is not Latin-1: it writes 27 letters and signs (€, š, “) where Latin-1 has
control codes, so each is named apart."""
PARQUET_SUFFIXES = (".parquet", ".pq")
CUT_METHODS = wording.CUT_METHODS
cut_said = wording.cut_how


@dataclass(frozen=True)
class DataSettings:
    """How a raw table becomes features, a label and a split (see `infer_schema`). Numeric
    columns are cut by the estimator's discretiser (`plx_core.discretize`, `method` with at
    most `bins` bins) on the training rows only (`cut_on="train"`); "table" is how sessions
    saved before that were cut (quantiles of the whole table), kept so they read as saved."""

    label: str
    positive: str | None = None
    features: tuple[str, ...] | None = None  # None: every column but the label (auto exclusions)
    numeric: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    method: str = DEFAULT_METHOD
    bins: int = 4
    bins_per_column: tuple[tuple[str, int], ...] = ()
    test_size: float = 0.3
    seed: int = 0
    balance: str = "train"
    drop_unlabelled: bool = False  # rows whose label is missing are left out (else an error)
    case_column: str | None = None  # names each row's case (several rows a case): no feature
    cut_on: str = "train"  # "train" | "table" (sessions saved before cuts were fitted on training)
    class_order: tuple[str, ...] | None = None
    """The label's classes from lowest to highest level when the user treats them as ordered
    (the Data page: `PLXClassifier(class_order=…)` for the model of every class, as `plx fit
    --class-order`); None: one class against the rest."""

    def cuts_as_estimator(self) -> bool:
        """Whether numeric columns are cut as `PLXClassifier()` cuts them (its discretiser and
        number of bins, on the training rows): then plx's default is fitted on the raw rows, as
        `plx fit` fits it, and may cut finer; a binning the user chose (or a saved session's
        whole-table bins) is what it is fitted on, as `PLXClassifier` fitted on binned columns."""
        from plx_core.estimator import PLXClassifier

        est = PLXClassifier()
        return (self.method == est.discretize and self.bins == est.max_bins
                and not self.bins_per_column and self.cut_on == "train")


@dataclass(frozen=True)
class RawTable:
    """A table as read (strings/NaN, or numbers for the built-in default) and its defaults."""

    name: str
    frame: pd.DataFrame
    description: str
    fingerprint: str
    defaults: DataSettings
    source: str = "builtin"  # "builtin" | "shared" | "upload"
    file: bytes | None = field(default=None, repr=False, compare=False)  # an upload's bytes
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)  # how it was read
    delimiter: str | None = None  # an upload's (';' decides how 1.234 reads: number_format)

    @property
    def rows_are_lines(self) -> bool:
        """Whether rows are named by their line in the uploaded file, as `plx fit` names them
        (a CSV read with rows="lines"; a Parquet file has no lines)."""
        return (self.source == "upload" and self.options.get("rows") == "lines"
                and not is_parquet(self.file or b""))


def _sentence(clause: str) -> str:
    """A note as plx fit words it ('column 'x': …') written as a sentence: capital, full stop."""
    return f"{clause[0].upper()}{clause[1:]}."


def raw_default() -> RawTable:
    """The default diagnosis set as raw numbers (six of scikit-learn's 30 measurements), read
    as an upload of the same table is: its measurements cut by the estimator's discretiser on
    the training rows only, so the dashboard answers as `PLXClassifier()` fitted on those rows.
    (`plx_core.datasets.breast_cancer_default()` is the set with three quantile bins of the
    whole table, the fixed benchmark; projects saved with those bins keep them.)"""
    from sklearn.datasets import load_breast_cancer

    from plx_core.datasets import BREAST_CANCER_FEATURES

    raw = load_breast_cancer(as_frame=True)
    frame = raw.data[list(BREAST_CANCER_FEATURES)].copy()
    frame["diagnosis"] = np.asarray(raw.target_names, dtype=object)[raw.target.to_numpy()]
    frame = frame.reset_index(drop=True)
    feats = tuple(BREAST_CANCER_FEATURES)
    settings = DataSettings("diagnosis", "malignant", feats, numeric=feats)
    return RawTable(
        DEFAULT_NAME, frame,
        "Breast cancer Wisconsin (diagnostic): 569 tumours, 212 malignant and 357 benign; six "
        "of the 30 measurements, each cut into bins on the training rows (the Data page shows "
        "the cut points).",
        fingerprint("builtin", DEFAULT_NAME), settings,
    )


def raw_builtin(name: str) -> RawTable:
    if name == DEFAULT_NAME:
        return raw_default()
    if name == "paper-example":
        ds = paper_example()
    elif name == "syn-10-4":
        from plx_core.datasets import PAPER_SYN_10_4_SEED

        ds = synthetic(10, 4, 1000, seed=0, seed_string=PAPER_SYN_10_4_SEED)
    else:
        raise DataError(f"unknown built-in data set {name!r}; choose one of {list(BUILTIN)}")
    return _from_dataset(ds, "builtin")


def shared_available() -> list[str]:
    """The shared data sets that can be loaded here (empty when the folder is absent)."""
    return list(SHARED_NAMES) if data_dir().is_dir() else []


def raw_shared(name: str) -> RawTable:
    """A shared data set by its key (`options["name"]`: the set's own name may differ)."""
    return replace(_from_dataset(load_shared(name), "shared"), options={"name": name})


def _from_dataset(ds: Dataset, source: str) -> RawTable:
    frame = ds.frame().reset_index(drop=True)
    label = ds.schema.label if ds.schema is not None else "label"
    feats = tuple(str(c) for c in ds.X.columns)
    settings = DataSettings(label, ds.positive, feats, categorical=feats)
    return RawTable(ds.name, frame, ds.description, fingerprint(source, ds.name), settings, source)


def read_upload(
    data: bytes,
    filename: str = "upload.csv",
    *,
    header: bool = True,
    missing: Sequence[str] = MISSING_MARKERS,
    split_column: str | None = None,
    decimal: str | None = None,
    rows: str = "lines",
    encoding: str = "utf-8",
) -> RawTable:
    """An uploaded CSV or Parquet file (`plx_core.data.read_table`, as `plx fit` reads them:
    a Parquet file's columns keep their types, `header` does not apply) as a raw table. Sizes
    are checked before parsing (a Parquet file's rows and columns from its footer, before any
    row is read); a file named .parquet that is not one is refused. `split_column` turns
    a column of equal-length strings (an octamer such as `SLNLRETN`) into one feature per
    character (`<col>_1` … `<col>_L`): that is how the HIV-1 files are used. A field equal to
    one of `missing` (default: the engine's `MISSING_MARKERS`, as the CLI reads) is missing.
    `decimal` ('.' or ','; None: the file's delimiter decides) is the decimal mark of numbers
    written as text, as `plx fit --decimal` takes it (`data.reading_delimiter`). Rows are
    indexed by their line in the file (`rows="lines"`, as `plx fit` numbers them, so every
    message and row picker names the line a spreadsheet shows); `rows="positions"` (0, 1, …)
    is how projects saved before that numbered them, kept so their case notes stay put.
    `encoding` is a CSV's text encoding (one of `ENCODINGS`, as `plx fit --encoding`)."""
    if encoding not in ENCODINGS:
        raise DataError(f"the text encoding must be one of {list(ENCODINGS)}, not {encoding!r}")
    if rows not in ("lines", "positions"):
        raise DataError(f"rows must be 'lines' or 'positions', not {rows!r}")
    if len(data) > MAX_UPLOAD_BYTES:
        raise DataError(
            f"the file is {len(data) / 1e6:.1f} MB; the dashboard reads at most "
            f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB"
        )
    if filename.lower().endswith(PARQUET_SUFFIXES) and not is_parquet(data):
        raise DataError(f"{filename!r} is named as a Parquet file but does not start with "
                        "Parquet's PAR1 marker: the file is damaged or is not Parquet")
    reading_delimiter(None, decimal)  # a bad decimal mark: one line, before the file is read
    table = read_table(data, header=header, missing=tuple(missing), max_rows=MAX_UPLOAD_ROWS,
                       max_cols=MAX_UPLOAD_COLS, encoding=encoding)
    reading = reading_delimiter(table.delimiter, decimal)
    frame = table.by_line() if rows == "lines" else table.frame  # as plx fit numbers rows
    frame.columns = [str(c) for c in frame.columns]
    if split_column:
        frame = split_characters(frame, split_column)
    if len(frame) < 4:
        raise DataError(f"the file has only {counted(len(frame), 'data row')}; plx needs more rows to learn from")
    label = suggest_label(frame).column
    settings = DataSettings(label, None)
    said = "".join(f" {_sentence(n)}" for n in table.notes)  # as plx fit says them
    other = () if encoding == "utf-8" else (encoding,)  # (UTF-8 uploads keep their fingerprint)
    if other:
        said += f" Read as {ENCODINGS[encoding].split(' (')[0]} text."
    return RawTable(filename, frame, f"Uploaded file {filename!r}.{said}",
                    fingerprint(data, header, tuple(missing), split_column, decimal, rows, *other),
                    settings, "upload", bytes(data),
                    {"header": bool(header), "missing": list(missing),
                     "split_column": split_column, "decimal": decimal, "rows": rows,
                     "encoding": encoding}, reading)


def upload_limits() -> str:
    """The uploader's limits in words, and the ways past them (said before a file is chosen:
    the browser refuses a larger file with Streamlit's own line, which names neither)."""
    return (f"At most {MAX_UPLOAD_BYTES / 1e6:.0f} MB, {MAX_UPLOAD_ROWS:,} rows and "
            f"{MAX_UPLOAD_COLS} columns. A larger table: save it as Parquet (a third of a "
            "CSV's size or less, its column types kept), or fit it with plx fit, which reads "
            "as much as its memory budget (--budget) takes.")


def split_characters(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Replace a text column by one column per character position (all values must have the
    same length, at most 64)."""
    if column not in frame.columns:
        raise DataError(f"there is no column {column!r} to split; the columns are {list(frame.columns)}")
    s = frame[column]
    if s.isna().any():
        row = s.index[int(np.flatnonzero(s.isna().to_numpy())[0])]
        raise DataError(f"column {column!r} is empty in row {row}; every value must be text to split")
    text = s.astype(str)
    lengths = text.str.len()
    if lengths.nunique() != 1:
        at = int(np.flatnonzero((lengths != lengths.iloc[0]).to_numpy())[0])
        raise DataError(
            f"column {column!r} holds texts of different lengths (row {s.index[0]} has "
            f"{lengths.iloc[0]} characters, row {s.index[at]} has {lengths.iloc[at]}); only "
            "equal-length texts can be "
            "split into one feature per character"
        )
    n = int(lengths.iloc[0])
    if not 1 <= n <= 64:
        raise DataError(f"column {column!r} has {n}-character values; splitting needs 1 to 64")
    names = [f"{column}_{i + 1}" for i in range(n)]
    taken = [c for c in names if c in frame.columns]
    if taken:  # trust23: the table then held two columns of that name, one of them silently used
        raise DataError(f"splitting column {column!r} would make column {taken[0]!r}, which the "
                        "table already has: rename that column")
    chars = pd.DataFrame([list(t) for t in text], columns=names, index=frame.index, dtype=object)
    pos = list(frame.columns).index(column)
    left, right = frame.iloc[:, :pos], frame.iloc[:, pos + 1:]
    return pd.concat([left, chars, right], axis=1)




def front_columns(X: pd.DataFrame, front: Mapping[str, Any]) -> tuple[pd.DataFrame, dict[str, str]]:
    """The rows `X` with plx's own columns `front` (name → values) put first, and the name
    each got: a feature of that name keeps it (a column "label" or "before" as the user wrote
    it; pandas refused a second one, and the page that listed the rows failed), and plx's
    column gets " (plx)" added until it is free."""
    out = X.copy()
    names: dict[str, str] = {}
    for i, (name, values) in enumerate(front.items()):
        col = name
        while col in out.columns:
            col += " (plx)"
        out.insert(i, col, values)
        names[name] = col
    return out, names


@dataclass(frozen=True)
class RowFilter:
    """What the Query page's row list is narrowed to: a label, a decision (as shown), rows
    whose decision is wrong, rows with a missing value, rows holding `text` in a feature."""

    label: str | None = None
    decision: str | None = None
    wrong: bool = False
    missing: bool = False
    text: str = ""


def filter_rows(table: pd.DataFrame, names: Mapping[str, str], features: Sequence[str],
                f: RowFilter, correct: pd.Series | None = None) -> pd.DataFrame:
    """The rows of `table` (`front_columns`' output, `names` its plx columns) that pass `f`;
    `correct` (by row label) says which decisions are right, None leaves `f.wrong` unused.
    A missing cell holds no text: searching "nan" finds no empty cell."""
    keep = np.ones(len(table), dtype=bool)
    if f.label is not None:
        keep &= (table[names["label"]] == f.label).to_numpy()
    if f.decision is not None:
        keep &= (table[names["plx decision"]] == f.decision).to_numpy()
    if f.wrong and correct is not None:
        keep &= ~correct.reindex(table.index).fillna(True).to_numpy(dtype=bool)
    cells = table[list(features)]
    if f.missing:
        keep &= cells.isna().any(axis=1).to_numpy()
    if text := f.text.strip():
        hit = cells.astype(str).apply(lambda c: c.str.contains(text, regex=False)) & cells.notna()
        keep &= hit.any(axis=1).to_numpy()
    return table[keep]


def column_overview(raw: RawTable, settings: DataSettings) -> pd.DataFrame:
    """One row per column: distinct and missing counts, whether it reads as numbers, a few
    example values, and the role the current settings give it."""
    rows = []
    for c in raw.frame.columns:
        s = raw.frame[c]
        is_num = reads_as_numbers(s, raw.delimiter)  # as infer_schema reads it (formats, stray text)
        examples = ", ".join(str(v) for v in pd.unique(s.dropna())[:4])
        role = "label" if c == settings.label else (
            "feature" if settings.features is None or c in settings.features else "not used")
        rows.append({"column": str(c), "role": role, "distinct": int(s.nunique(dropna=True)),
                     "missing": int(s.isna().sum()), "numbers": is_num, "examples": examples})
    return pd.DataFrame(rows)


def label_values(raw: RawTable, label: str) -> list[str]:
    if label not in raw.frame.columns:
        return []
    s = raw.frame[label].dropna()
    vals = [str(v) if not isinstance(v, float) or not v.is_integer() else str(int(v)) for v in s]
    out = sorted(set(vals), key=lambda v: (-vals.count(v), v))
    return out


def positive_choice(values: Sequence[str], kept: str | None = None) -> int:
    """Where the positive-class picker starts, for `label_values` (most rows first): `kept`,
    the class chosen before, as this table writes it (`encoding.class_named`: "2" for a label
    now read "2.0"); else the class `plx fit` and the estimator assume
    (`encoding.default_positive`: "1", "True", "yes" of their pairs), else the rarest class
    (also for 1/2: '1' is no more positive than '2' there, nor among the digits 0–9, and the
    note calls the start the rarer / rarest)."""
    vals = list(values)
    if kept is not None:
        try:
            if (named := class_named(kept, vals, quiet=True, unknown_ok=True)) in vals:
                return vals.index(named)
        except DataError:  # a number two classes are: the picker starts as for a new label
            pass
    v = default_positive(vals)
    if v is not None and v in vals:
        return vals.index(v)
    return max(len(vals) - 1, 0)


def positive_note(values: Sequence[str], chosen: str) -> str:
    """The sentence that says the picker's start is not one plx assumes ("" when it is, or
    when the user chose): two classes outside 0/1, −1/1, False/True and no/yes start on the
    rarer one, which is a pick to check, not a known positive class."""
    vals = list(values)
    if len(vals) > 2 and chosen == vals[positive_choice(vals)]:
        return (f"plx assumes no positive class among {len(vals)} classes: the rarest, "
                f"{chosen!r}, is picked to start with — choose the positive class.")
    if (len(vals) != 2 or default_positive(vals) is not None or not vals
            or chosen != vals[positive_choice(vals)]):
        return ""
    return (f"plx does not assume which of {vals[0]!r} and {vals[1]!r} is positive (it does for "
            f"0/1, −1/1, False/True and no/yes): the rarer, {chosen!r}, is picked to start "
            "with — choose the positive class.")




def prepare(raw: RawTable, settings: DataSettings, train: pd.Index | None = None) -> Dataset:
    """The data set the settings make of the raw table (errors say what to change); numeric
    columns are cut on the rows `train` (index labels) when given, else on the whole table
    (`split` gives the training rows)."""
    if settings.label not in raw.frame.columns:
        raise DataError(f"choose a label column; {settings.label!r} is not one of the columns")
    if settings.positive is None:
        vals = label_values(raw, settings.label)
        raise DataError(
            f"choose the positive class of the label {settings.label!r} (values: "
            f"{', '.join(map(repr, vals[:8]))}{' …' if len(vals) > 8 else ''})"
        )
    if settings.features is not None and not settings.features:
        raise DataError("choose at least one feature column")
    per = dict(settings.bins_per_column)
    bins: int | dict[str, int] = settings.bins
    if per:
        bins = {c: per.get(c, settings.bins) for c in raw.frame.columns}
    label_vals = label_values(raw, settings.label)
    label_map = None
    if len(label_vals) > 2:  # one-vs-rest: every other class becomes NOT POS
        label_map = {v: ("not " + settings.positive) for v in label_vals if v != settings.positive}
    frame = raw.frame
    if settings.drop_unlabelled:
        frame = frame[frame[settings.label].notna()]
    if (case := settings.case_column) is not None:  # each row's case: never a feature
        case_groups(raw, settings)
        frame = frame.drop(columns=[case])
    schema = infer_schema(
        frame, settings.label, settings.positive,
        features=list(settings.features) if settings.features is not None else None,
        numeric=[c for c in settings.numeric if c != settings.label],
        categorical=[c for c in settings.categorical if c != settings.label
                     and c not in settings.numeric],
        method=settings.method if settings.method in ("quantile", "uniform") else "quantile",
        bins=bins, label_map=label_map, delimiter=raw.delimiter,
    )  # supervised cuts need the labels: fitted below, on the training rows
    X, y = schema.apply(frame)
    assert y is not None
    if train is not None and schema.bins and settings.cut_on == "train":
        rows = frame.index.isin(train)  # ordered levels: cut where the levels change (the
        # steps' model's bins: score7's macro F1 0.22 -> 0.38 in the dashboard; RESULTS ordered27)
        yb = (frame[settings.label].astype(str).to_numpy(dtype=object) if settings.class_order
              else np.where(y.to_numpy(dtype=object) == schema.positive, schema.positive, "other"))
        schema.bins.update(fit_binnings(  # beside the categorical features, as the fit sees them
            schema.bins, frame[rows], yb[rows], settings.method, bins,
            X.loc[rows, [c for c in X.columns if c not in schema.bins]]))
        X, y = schema.apply(frame)
        assert y is not None
    classes = y.unique()
    if len(classes) < 2:
        raise one_class(str(classes[0]), f"the label {settings.label!r}")
    return Dataset(raw.name, X, y, schema.positive, raw.description, schema)


def case_column_named(frame: pd.DataFrame, label: str, schema: Schema) -> str | None:
    """The column the several-rows-a-case note names (`data.grouped_rows`), offered on the
    Data page as the case column for the user to confirm; None when no column reads so."""
    got = grouped_rows(frame, label, *case_columns(schema, frame))
    return None if got is None else got[0]


def case_candidates(frame: pd.DataFrame, label: str, schema: Schema) -> list[str]:
    """The columns a user may name the case column where `case_column_named` reads none as one
    (a visit's own outcome varies within a patient): those that may name cases
    (`data.case_columns`: left out, or of many levels, or numbered like IDs) whose values
    repeat, as `plx fit --case-column` takes them."""
    left_out, kept = case_columns(schema, frame)
    out = []
    for c in dict.fromkeys([*left_out, *kept]):
        if c == label or c not in frame.columns:
            continue
        if 2 <= frame[c].nunique(dropna=True) < frame[c].notna().sum():
            out.append(c)
    return out


def case_groups(raw: RawTable, settings: DataSettings) -> pd.Series | None:
    """Each row's case (`settings.case_column`, as text; indexed as the table), or None; a
    column that is not there, the label, or a row without a case refused, naming it."""
    if (case := settings.case_column) is None:
        return None
    if case not in raw.frame.columns or case == settings.label:
        raise DataError(f"the case column {case!r} is not one of the columns besides the label")
    ids = raw.frame[case]
    if settings.drop_unlabelled:
        ids = ids[raw.frame[settings.label].notna()]
    return case_ids(ids, f"the case column {case!r}")


def keep_cuts(base: DataSettings, settings: DataSettings) -> DataSettings:
    """`settings` cutting where `base` cuts (`cut_on`) while the binning choices are the same;
    a changed binning is cut on the training rows."""
    same = all(getattr(base, k) == getattr(settings, k)
               for k in ("numeric", "method", "bins", "bins_per_column"))
    return replace(settings, cut_on=base.cut_on if same else "train")


@dataclass(frozen=True)
class Split:
    """A prepared data set and its train/test parts; numeric columns cut on the training rows."""

    dataset: Dataset
    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: pd.Series
    y_test: pd.Series


def split(raw: RawTable, settings: DataSettings) -> Split:
    """Split the rows (stratified by the label, `settings.seed`), then cut the numeric columns
    by the estimator's discretiser on the training rows only — as `PLXClassifier.fit` and
    `plx fit` do — so no test row moves a cut point."""
    ds = prepare(raw, settings)
    parts = train_test_split_stratified(ds.X, ds.y, settings.test_size, settings.seed,
                                        settings.balance, case_groups(raw, settings))
    if ds.schema is not None and ds.schema.bins and settings.cut_on == "train":
        ds = prepare(raw, settings, parts[0].index.unique())
        parts = (ds.X.loc[parts[0].index], ds.X.loc[parts[1].index],
                 ds.y.loc[parts[2].index], ds.y.loc[parts[3].index])
    return Split(ds, *parts)


def cut_points(ds: Dataset) -> pd.DataFrame:
    """One row per numeric column: how it was cut, its cut points (as its bin labels write
    them) and its bins — what the KB's values and every answer of the session use."""
    from plx_core.data import cut_text

    rows = []
    for f, b in (ds.schema.bins if ds.schema is not None else {}).items():
        rows.append({"column": f, "cut": cut_said(b.method),
                     "cut points": ", ".join(cut_text(c, b.number_format) for c in b.cuts)
                     or "(none)",
                     "bins": " | ".join(b.labels)})
    return pd.DataFrame(rows, columns=["column", "cut", "cut points", "bins"])


def validate(ds: Dataset, kind: str = "direct", max_len: int | None = None,
             frame: pd.DataFrame | None = None, ids: Sequence[str] | None = None,
             case: str | None = None) -> list[tuple[str, str]]:
    """Plain-words notes on a prepared data set: (level, message), level info/warning;
    `frame`, the table it was prepared from, is looked at for records exported twice (rows
    equal in every column, an ID-like one included: `data.repeated_rows`), as `plx fit` is;
    `ids`: its ID-like columns (default: those the data set's schema left out as such — the
    Data page passes those its automatic choice leaves out, as the user lists features).
    `kind` "direct" (a full Direct KB of `max_len`) adds a warning when that KB would not fit
    in memory; "auto" (plx's default, the Data page's: it picks its clause length itself,
    `default_max_len`) does not warn about a KB nobody asked for. `case`: the column the
    user named the case column (said, in place of the several-rows-a-case warning)."""
    notes: list[tuple[str, str]] = []
    n, F = ds.X.shape
    counts = ds.counts()
    pos = ds.positive
    notes.append(("info", f"{counted(n, 'row')}, {counted(F, 'feature')}; "
                  + ", ".join(f"{k}: {v:,}" for k, v in counts.items()) + f"; the positive class is {pos!r}."))
    if ds.schema is not None:
        for c, why in ds.schema.excluded.items():
            if why != "not among the requested features":  # the user's own choice
                notes.append(("warning", f"Column {c!r} is not used: {why}."))
        if frame is not None and (why := repeated_rows(
                frame, id_columns(ds.schema.excluded) if ids is None else ids) or copied_rows(frame)):
            notes.append(("warning", _sentence(why)))
        if case is not None and frame is not None and case in frame.columns:
            notes.append(("info", f"Column {case!r} names each row's case "
                          f"({frame[case].nunique():,} cases): it is no feature, the test rows "
                          "are whole cases, and plx's default keeps a case's rows on one side "
                          "of its search's folds."))
        elif frame is not None and ds.schema.label in frame.columns and (
                why := grouped_rows_said(frame, ds.schema.label, *case_columns(ds.schema, frame))):
            notes.append(("warning", _sentence(why)))
        for f, kept in ds.schema.grouped.items():  # never silently
            notes.append(("warning", f"Column {f!r} is grouped: {grouped_said(kept)}."))
        for f, flags in ds.schema.value_maps.items():  # nor merged silently
            notes.append(("info", f"Column {f!r}: {wording.flags_said(flags)}."))
        ystr = label_texts(ds.y)
        for f in ds.schema.features:  # dates or numbers read as categories: never silently
            if ds.schema.kinds[f] == "categorical" and (
                    mixed := mixed_dates(ds.X[f]) or unread_numbers(ds.X[f])
                    or zero_padded(ds.X[f])):
                notes.append(("warning", f"Column {f!r} is used as categories: {mixed}."))
            if (why := label_copy(ds.X[f], ds.y, ystr) if ds.schema.kinds[f] == "categorical"
                    else label_missing(ds.X[f], ystr.set_axis(ds.X[f].index))):
                notes.append(("warning", f"Column {f!r}: {why}."))
            if ds.schema.kinds[f] == "categorical" and (
                    how := spelling_variants(ds.X[f]) or flag_vocabularies(ds.X[f])
                    or listed_items(ds.X[f])):
                notes.append(("warning", f"Column {f!r} {how}."))
            if ds.schema.kinds[f] == "categorical" and (how := flag_column(ds.X[f])):
                notes.append(("info", f"Column {f!r}: {how}."))
        plain = [f for f, b in ds.schema.bins.items() if not b.reading()]
        if plain:
            notes.append(("info", wording.numeric_said(plain) + "."))
        for f, b in ds.schema.bins.items():
            if read := b.reading():
                notes.append(("info", wording.numeric_said([f], read) + "."))
            if frame is not None and f in frame.columns and (
                    how := cells_said(frame[f], b)):
                notes.append(("info", f"{f!r}: {how}."))
        if frame is not None and (how := offsets_said(frame, ds.schema.bins)):  # once
            notes.append(("info", _sentence(how)))
    miss = ds.X.isna().sum()
    for f, m in miss[miss > 0].items():
        notes.append(("info", f"{f!r} is missing in {counted(int(m), 'row')}; a missing value is left "
                              "unknown."))
    small = min(counts.values())
    if small < 10:
        notes.append(("warning", f"The smaller class has only {small} row{'s' * (small != 1)}; results "
                                  "will be unstable."))
    if kind == "direct" and estimate_bytes(n, F, max_len) > 6 * 2**30:
        fit = [k for k in range(1, F + 1) if estimate_bytes(n, F, k) <= 6 * 2**30]
        hint = f"set max_len to {fit[-1]} or less" if fit else "use fewer rows or features"
        notes.append(("warning", f"{F} features is too many for a full Direct KB over {n} rows: "
                      f"{hint} on the Knowledge base page, or build a Tree KB."))
    return notes
