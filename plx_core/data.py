"""The data layer: read a CSV safely, decide a schema, discretise, balance and split.

Every value leaves this module as a string or NaN, because the engine compares values as the
strings they print as (`plx_core.encoding`). Numbers become strings once, here: numeric columns
become labelled bins (`age∈[18, 30)`), whole floats print as integers ("1", not "1.0"), and text
read from a file is kept verbatim. The choices are recorded in a `Schema` so new rows (queries,
a test file) get exactly the same transform.
"""

from __future__ import annotations

import bz2
import csv
import dataclasses
import datetime
import gzip
import io
import json
import lzma
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from .checks import finite_number
from .encoding import (
    check_label_variants,
    class_named,
    column_names,
    column_twins,
    default_positive,
    names_alike,
    natural_key,
    spelling_groups,
    spelling_how,
    spelling_shown,
    text_key,
    word_key,
)
from .errors import DataError
from .plurals import counted, noun, verb

MAX_BYTES = 50_000_000
# cells that mean "missing" unless the caller says otherwise: R's NA, pandas' / SQL's spellings,
# the UCI "?" and the empty cell. Matched exactly (case and spaces count), in every column.
#: The error values a spreadsheet writes in a cell whose formula has no answer (a division by
#: zero, a bad reference): no value, whatever the column holds.
EXCEL_ERRORS = ("#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!")
MISSING_MARKERS = ("", "?", "NA", "N/A", "n/a", "#N/A", "NULL", "null", "NaN", "nan", "<NA>",
                   *EXCEL_ERRORS)
MAX_ROWS = 1_000_000
MAX_COLS = 500
DELIMITERS = ",;\t|"
_DELIM_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", " ": "space"}

Method = Literal["quantile", "uniform", "cuts"]
BalanceMode = Literal["train", "before", "none"]


# --------------------------------------------------------------------------------------------
# CSV


@dataclass(frozen=True)
class Table:
    """A table as read from a file: the frame (strings and NaN), where it came from, which
    cells were read as missing (per column: marker → count), each row's line in the file,
    notes on what was done to read it (decompressed, CR line endings) and the delimiter (';'
    tells how its numbers are written: `number_format`)."""

    frame: pd.DataFrame
    where: str
    missing: dict[str, dict[str, int]]
    lines: np.ndarray
    notes: tuple[str, ...] = ()
    delimiter: str = ","

    def missing_summary(self, columns: Sequence[str] | None = None, shown: int = 8) -> str:
        """One line: the columns whose cells were read as missing, with counts per marker —
        the first `shown` by name, the rest counted together (a survey export of 160 mostly
        empty columns printed 160 entries, burying every other note)."""
        parts, rest = [], Counter()
        n_rest = 0
        for c, counts in self.missing.items():
            if columns is not None and c not in columns:
                continue
            if len(parts) < shown:
                what = ", ".join(f"{m!r} ×{n:,}" for m, n in counts.items())
                parts.append(f"{c!r} {sum(counts.values())} ({what})")
            else:
                rest.update(counts)
                n_rest += 1
        if n_rest:
            what = ", ".join(f"{m!r} ×{n:,}" for m, n in rest.most_common())
            parts.append(f"and {n_rest} more {noun(n_rest, 'column')} {sum(rest.values()):,} ({what})")
        return "; ".join(parts)

    def line_of(self, rows: Sequence[int] | np.ndarray) -> list[int]:
        """The file lines of data rows given by position (0-based)."""
        return [int(self.lines[i]) for i in rows]

    def by_line(self) -> pd.DataFrame:
        """The frame indexed by each row's line in the file (a spreadsheet's row number; a
        Parquet file's rows from 1), as Python ints: a message naming "row 3" points at it.
        How `plx fit` and the dashboard number the rows of what they read."""
        return self.frame.set_axis(pd.Index(self.lines.tolist(), dtype=object, name="line"))


def row_name(index: pd.Index, i: int, data_row: bool = True) -> str:
    """How a message names the row at position `i`: a file's table (indexed by its lines, as
    `plx fit` / `plx predict` read it) by line and data row — "line 4 (data row 3)", the data
    row being the `row` of the CLI's outputs; "line 4" alone without `data_row` —, any other
    table by its index label."""
    if isinstance(index, pd.MultiIndex) and list(index.names) == ["line", "data row"]:
        line, row = index[i]  # cells kept from a file's blocks (`said_cells`): their own rows
        return f"line {plain_label(line)!r}" + (f" (data row {plain_label(row)})" if data_row else "")
    if index.name == "line" or (isinstance(index.name, tuple) and index.name[0] == "line"):
        first = 0 if index.name == "line" else index.name[1]  # a block's: rows before it
        return f"line {plain_label(index[i])!r}" + (f" (data row {first + i + 1})" if data_row else "")
    return f"row {plain_label(index[i])!r}"


def plain_label(label: Any) -> Any:
    """A row's index label as a plain Python value (numpy scalars as int, float, bool): what
    messages write (777, not np.int64(777): an int64 index hands numpy scalars, whose repr names
    their type) and the dashboard's widgets compare, keep in session state and serialise."""
    return label.item() if isinstance(label, np.generic) else label


PARQUET_MAGIC = b"PAR1"


def is_parquet(data: bytes) -> bool:
    """Whether `data` is a Parquet file (it starts with Parquet's magic): read as Parquet,
    whatever its name."""
    return bytes(data[:4]) == PARQUET_MAGIC


def load_csv(
    source: str | Path | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_cols: int = MAX_COLS,
    missing: Sequence[str] = MISSING_MARKERS,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    header: bool = True,
    names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Read a CSV (a file path, or the file's bytes) into a frame of strings and NaN.

    Nothing is converted: a field equal to one of `missing` (default `MISSING_MARKERS`)
    becomes NaN, every other field stays the exact text of the file. Caps are checked before
    parsing (bytes from the file size, rows from the line count, columns from the first
    record), and every problem is a `DataError` that names the line, row or column. Blank
    lines are skipped; old-Mac files (CR line endings only) are read; gzip / bzip2 / xz files
    are decompressed (the cap applies to the decompressed bytes); a UTF-16 file with a byte
    order mark is decoded; spreadsheets, archives and other binary files are refused by name.
    With `header=False` the columns are `names` (or a1, a2, …). Pickle is never used.
    """
    return read_table(source, max_bytes=max_bytes, max_rows=max_rows, max_cols=max_cols,
                      missing=missing, delimiter=delimiter, encoding=encoding, header=header,
                      names=names).frame


def read_table(
    source: str | Path | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_cols: int = MAX_COLS,
    missing: Sequence[str] = MISSING_MARKERS,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    header: bool = True,
    names: Sequence[str] | None = None,
) -> Table:
    """`load_csv` that also says what it did: the cells read as missing, each row's line in
    the file, and notes (decompressed, CR line endings). The one path every table takes; a
    Parquet file (read with pyarrow, when installed) takes it too: `_read_parquet`."""
    raw, where = _read_bytes(source, max_bytes)
    if len(raw) == 0:
        raise DataError(f"{where} is empty (0 bytes)")
    if is_parquet(raw):
        return _read_parquet(raw, "the upload" if where == "the CSV" else where, max_rows,
                             max_cols, missing)
    notes: list[str] = []
    raw = _unpack(raw, where, max_bytes, notes)
    text = _decode(raw, encoding, where, notes)
    if not text.strip():
        raise DataError(f"{where} is empty (only blank lines)")
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise DataError(
            f"{where} holds a NUL byte (line {line}): it is a binary file, not CSV text"
        )
    if "\r" in text and "\n" not in text:  # old-Mac line endings: CR alone ends a line
        text = text.replace("\r", "\n")
        notes.append("line endings are CR only (old Mac); read as line breaks")
    n_lines = text.rstrip("\r\n").count("\n") + 1
    if n_lines - int(header) > max_rows:
        raise DataError(
            f"{where} has {n_lines:,} lines, more than the cap of max_rows={max_rows:,} data rows"
        )
    if (said := re.match(r"\ufeff?sep=([^\r\n])\r?\n", text)) is not None:
        # Excel's "sep=;" first line names the delimiter: kept as a blank line (lines keep
        # their numbers in messages), and said
        text = "\n" + text[said.end():]
        notes.append(f"the first line 'sep={said.group(1)}' names the delimiter "
                     f"({_DELIM_NAMES.get(said.group(1), repr(said.group(1)))}), as a "
                     "spreadsheet writes it; not read as the header")
        delimiter = delimiter if delimiter is not None else said.group(1)
    delim = delimiter if delimiter is not None else detect_delimiter(text)
    del raw  # (the decoded text is read from here on)
    reader = csv.reader(_lines(text), delimiter=delim, strict=True)
    frame, lines, counts = _parse(reader, where, delim, max_rows, max_cols, missing, header,
                                  names, notes, text)
    return Table(frame, where, counts, lines, tuple(notes), delim)


BLOCK_ROWS = 25_000
"""Rows of one block of `read_blocks`: `plx predict` reads, answers and writes a long file this
many rows at a time, so its memory does not grow with the file."""


@dataclass
class Blocks:
    """A table read a block of rows at a time (`read_blocks`): iterating yields each block as
    a `Table` (its lines the file's own) holding only the columns asked for; `columns` are the
    file's, known once the first block is read; `notes` and `missing` (cells read as missing,
    per column of the whole file) are whole once every block is read: `summary()`."""

    where: str
    delimiter: str
    blocks: Any
    columns: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: dict[str, dict[str, int]] = field(default_factory=dict)

    def __iter__(self):
        return iter(self.blocks)

    def summary(self) -> Table:
        """A table of no rows carrying the whole file's notes and missing cells, as
        `read_table` would have said them (`Table.missing_summary`)."""
        return Table(pd.DataFrame(columns=self.columns, dtype=object), self.where,
                     self.missing, np.empty(0, dtype=np.int64), tuple(self.notes),
                     self.delimiter)


def read_blocks(path: str | Path, *, keep: Any = None, rows: int = BLOCK_ROWS,
                missing: Sequence[str] = MISSING_MARKERS, encoding: str = "utf-8",
                max_bytes: int = MAX_BYTES, max_cols: int = MAX_COLS) -> Blocks:
    """The CSV file at `path` read `rows` rows at a time, each block's frame holding only the
    columns in `keep` (all when None; a function of the file's columns: the names to keep), parsed and checked as `read_table` does (`_Records`,
    `_cells`: the same cells, lines, markers and messages) but without the row and byte caps,
    as memory no longer grows with the file. A file that is not plain text in one pass
    (Parquet, compressed, UTF-16, CR line ends, a 'sep=' line, a byte order mark before
    another encoding) is read whole by `read_table` (its caps apply): one block."""
    where = f"file {str(path)!r}"
    with open(path, "rb") as fh:
        raw = fh.read(65536)
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    whole = (not raw or is_parquet(raw) or any(raw.startswith(m) for m, *_ in _COMPRESSED)
             or any(raw.startswith(m) for m, _ in _SIGNATURES) or b"\x00" in raw
             or raw.startswith((b"\xff\xfe", b"\xfe\xff"))
             or (raw.startswith(_UTF8_BOM) and not utf8)
             or (b"\r" in raw and b"\n" not in raw)
             or re.match(rb"(\xef\xbb\xbf)?sep=", raw) is not None)
    if whole:
        table = read_table(path, missing=missing, encoding=encoding, max_bytes=max_bytes,
                           max_cols=max_cols)
        wanted = None if keep is None else set(
            keep(list(table.frame.columns)) if callable(keep) else keep)
        frame = table.frame if wanted is None else table.frame[
            [c for c in table.frame.columns if c in wanted]]
        out = Blocks(table.where, table.delimiter, [dataclasses.replace(table, frame=frame)],
                     list(table.frame.columns), list(table.notes), table.missing)
        return out
    try:
        fh = open(path, encoding="utf-8-sig" if utf8 else encoding, newline="")
    except LookupError as exc:
        raise DataError(f"unknown encoding {encoding!r}") from exc
    try:
        head = fh.read(65537)
    except UnicodeDecodeError:
        fh.close()
        raise _decoding_error(path, encoding, where) from None
    if "\n" not in head and "\r" not in head and b"\n" in raw:  # not that encoding: `_decode`
        fh.close()
        raise _decoding_error(path, encoding, where)
    delim = detect_delimiter(head)
    fh.seek(0)
    out = Blocks(where, delim, None)
    out.blocks = _blocks(fh, out, keep, rows, missing, max_cols, encoding, path)
    return out


def _decoding_error(path: str | Path, encoding: str, where: str) -> DataError:
    """The error `read_table` gives a file that is not `encoding` (read whole to name the
    byte, its line and how it reads in Windows-1252: only once reading it has failed)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        _decode(raw, encoding, where)
    except DataError as exc:
        return exc
    return DataError(f"{where} is not valid {encoding}")


def _blocks(fh, out: Blocks, keep, rows, missing, max_cols, encoding, path):
    """`read_blocks`' blocks, closing the file once read."""
    with fh:
        records = _Records(csv.reader(fh, delimiter=out.delimiter, strict=True), out.where,
                           out.delimiter, 2**62, max_cols, True, None, out.notes)
        batch: list[list[str]] = []
        lines: list[int] = []
        first = True
        before = [0]  # data rows of the blocks before: a block's rows are named as the file's

        def block() -> Table:
            frame, at, counts = _cells(_shared(batch, len(records.columns)), lines, records,
                                       missing, first)
            name: Any = ("line", before[0]) if before[0] else "line"  # (`row_name`)
            before[0] += len(frame)
            out.columns = records.columns
            for c, by in counts.items():
                total = out.missing.setdefault(c, {})
                for m, n in by.items():
                    total[m] = total.get(m, 0) + n
            if keep is not None:
                wanted = set(keep(records.columns) if callable(keep) else keep)
                frame = frame[[c for c in frame.columns if c in wanted]]
            return Table(frame.set_axis(pd.Index(at.tolist(), dtype=object, name=name)),
                         out.where, counts, at, (), out.delimiter)

        try:
            for rec, line in records:
                batch.append(rec)
                lines.append(line)
                if len(batch) == rows:
                    yield block()
                    batch, lines, first = [], [], False
            records.ended()  # no data rows refused; lines repeating the header said
            if batch:
                yield block()
        except UnicodeDecodeError:
            raise _decoding_error(path, encoding, out.where) from None
        out.missing = {c: out.missing[c] for c in out.columns if c in out.missing}


def _read_parquet(raw: bytes, where: str, max_rows: int, max_cols: int,
                  missing: Sequence[str]) -> Table:
    """A Parquet file as a `Table`, as `plx predict --dask` reads one: its columns keep their
    types (numbers, dates, booleans; text as Python strings), its nulls are missing, and so
    are text cells equal to one of `missing`; rows are numbered from 1. The caps are checked
    on the file's metadata before any row is read."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataError(f"{where} is a Parquet file; reading it needs pyarrow (pip install "
                        "'plx[dask]'), or save the table as CSV (UTF-8)") from None
    try:
        pf = pq.ParquetFile(io.BytesIO(raw))
        n_rows, names = pf.metadata.num_rows, list(pf.schema_arrow.names)
        if n_rows > max_rows:
            raise DataError(f"{where} has {n_rows:,} rows, more than the cap of "
                            f"max_rows={max_rows:,}")
        _columns(names, where, max_cols, True, None, 1)  # the column cap, duplicate names
        flat_parquet(pf.schema_arrow, where)
        frame = pf.read().to_pandas()
    except DataError:
        raise
    except Exception as exc:  # pyarrow's own errors name what is wrong with the file
        said = " ".join(str(exc).split())  # one line, whatever pyarrow wrote
        raise DataError(f"{where} is a Parquet file that cannot be read ({said})") from None
    notes: list[str] = []  # an empty name is "Unnamed: j", as in a CSV header (trust23: two
    # empty names passed the check above and frame[""] was a DataFrame: an AttributeError)
    frame.columns = _columns([str(c) for c in frame.columns], where, max_cols, True, None, 1,
                             notes)
    counts: dict[str, dict[str, int]] = {}
    for c in frame.columns:
        s = frame[c]
        if isinstance(s.dtype, (pd.StringDtype, pd.CategoricalDtype)) or s.dtype == object:
            s = s.astype(object).where(s.notna(), np.nan)
            hit = s.isin(list(missing)).to_numpy() & s.notna().to_numpy()
            if hit.any():
                counts[c] = {str(m): int(n) for m, n in s[hit].value_counts().items()}
                s = s.mask(hit)
            frame[c] = s
    frame.index = pd.RangeIndex(len(frame))
    return Table(frame, where, counts, np.arange(1, len(frame) + 1, dtype=np.int64),
                 ("read as Parquet (rows numbered from 1)", *notes))


def flat_parquet(schema: Any, where: str) -> None:
    """Refuse, before any row is read, a Parquet column whose cells are not one value: lists,
    structs, maps (nested) or raw bytes (trust23: they reached the type inference and raised
    "unhashable type" or a UnicodeDecodeError); one line naming the column and its type."""
    import pyarrow as pa

    for col in schema:
        t = col.type
        if pa.types.is_dictionary(t):
            t = t.value_type
        what = ("lists" if pa.types.is_list(t) or pa.types.is_large_list(t)
                or pa.types.is_fixed_size_list(t) else
                "maps" if pa.types.is_map(t) else
                "records (a struct)" if pa.types.is_struct(t) else
                "nested values" if pa.types.is_nested(t) else
                "raw bytes" if pa.types.is_binary(t) or pa.types.is_large_binary(t)
                or pa.types.is_fixed_size_binary(t) else None)
        if what is not None:
            fix = ("save it as text" if what == "raw bytes" else
                   "flatten it into columns of their own")
            raise DataError(f"{where}: column {col.name!r} holds {what} (Parquet type {t}), "
                            f"not one number, date or text a cell: {fix} or leave it out, and "
                            "save the file again")


def detect_delimiter(text: str, candidates: str = DELIMITERS) -> str:
    """The delimiter among `candidates` (comma, semicolon, tab, pipe) that splits the file.

    csv.Sniffer decides first; its answer is kept when it splits the first lines into a
    constant number (> 1) of fields, otherwise the candidate that does so with the most fields
    wins. A one-column file gives ",".
    """
    head = text[:65536]
    if len(text) > len(head) and "\n" in head:
        head = head[: head.rindex("\n") + 1]
    lines: list[str] = []
    whole, quotes = 0, 0  # lines up to the last one that ends outside a quoted field
    for ln in head.split("\n", 51)[:50]:
        quotes += ln.count('"')
        if ln.strip():
            lines.append(ln.rstrip("\r"))
        if quotes % 2 == 0:
            whole = len(lines)
    sample = "\n".join(lines[:whole] or lines)  # a cell's line break cut no record in two

    def score(d: str) -> int:
        try:
            counts = {len(r) for r in csv.reader(io.StringIO(sample), delimiter=d) if r}
        except csv.Error:  # e.g. a lone CR inside a field: the parse names the line
            return 0
        return counts.pop() if len(counts) == 1 else 0

    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=candidates).delimiter
    except csv.Error:
        sniffed = None
    if sniffed is not None and sniffed in candidates and score(sniffed) > 1:
        return sniffed
    best = max(candidates, key=lambda d: (score(d), -candidates.index(d)))
    return best if score(best) > 1 else ","


def _read_bytes(source: str | Path | bytes, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > max_bytes:
            raise DataError(
                f"the upload is {len(data):,} bytes, more than the cap of max_bytes={max_bytes:,}"
            )
        return data, "the CSV"
    if not isinstance(source, (str, Path)):
        raise DataError(f"pass a file path or the file's bytes, not {type(source).__name__}")
    path = Path(source)
    if not path.is_file():
        raise DataError(f"no such file: {str(path)!r}")
    size = os.path.getsize(path)
    where = f"file {str(path)!r}"
    if size > max_bytes:
        raise DataError(f"{where} is {size:,} bytes, more than the cap of max_bytes={max_bytes:,}")
    with open(path, "rb") as fh:  # its size, not the cap: a 10^20 cap allocated 10^20 bytes
        data = fh.read(size + 1)
    if len(data) > size:  # the file grew after the size check: never read half of it
        raise DataError(f"{where} grew while it was read (past {size:,} bytes); read it "
                        "again once it is complete")
    return data, where


# magic numbers of files people upload by mistake: what they are and what to do
_SIGNATURES = (
    (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel workbook (.xls) or other "
                                            "Microsoft Office file"),
    (b"%PDF", "a PDF document"),
    (PARQUET_MAGIC, "a Parquet file"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x80\x04\x95", "a Python pickle (plx never unpickles)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
)
_COMPRESSED = (
    (b"\x1f\x8b", "gzip", lambda fh: gzip.GzipFile(fileobj=fh)),
    (b"BZh", "bzip2", bz2.BZ2File),
    (b"\xfd7zXZ\x00", "xz", lzma.LZMAFile),
)


def _unpack(raw: bytes, where: str, max_bytes: int, notes: list[str]) -> bytes:
    """Decompress gzip / bzip2 / xz (capped at `max_bytes` decompressed); refuse spreadsheets,
    archives and other binary files by naming what they are."""
    for magic, name, opener in _COMPRESSED:
        if raw.startswith(magic):
            try:
                with opener(io.BytesIO(raw)) as fh:
                    out = fh.read(max_bytes + 1)
            except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
                raise DataError(f"{where} is a damaged {name} file ({exc})") from None
            if len(out) > max_bytes:
                raise DataError(
                    f"{where} decompresses ({name}) to more than the cap of "
                    f"max_bytes={max_bytes:,}"
                )
            notes.append(f"decompressed ({name}, {len(raw):,} → {len(out):,} bytes)")
            return out
    for magic, what in _SIGNATURES:
        if raw.startswith(magic):
            if magic.startswith(b"PK") and (b"xl/" in raw[:65536] or b"[Content_Types]" in raw[:4096]):
                what = "an Excel workbook (.xlsx, a ZIP archive)"
            raise DataError(
                f"{where} is {what}, not CSV text; save or export the table as CSV (UTF-8)"
            )
    return raw


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


WESTERN = "cp1252"
"""The encoding a file that is not UTF-8 is most often in: Windows-1252 (Western Europe; what
Excel's "CSV" and many hospital and ERP exports write on Windows), Latin-1 plus 27 letters."""


_UTF8_BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark Windows tools put first in a file, even before text they then
write in another encoding."""


def _western_reading(raw: bytes, at: int) -> str:
    """How the word holding the bad byte at `at` reads in `WESTERN`, as a hint naming that
    encoding ("" when the file is not such text: a byte it lacks, or NUL bytes). Never a
    silent fallback: a wrong guess would change every accented value without a word."""
    if b"\x00" in raw:
        return ""
    try:
        raw.decode(WESTERN)
    except UnicodeDecodeError:
        return ""
    stops = b",;\t|\"\r\n"
    lo, hi = at, at + 1
    start = len(_UTF8_BOM) if raw.startswith(_UTF8_BOM) else 0  # the mark is no text
    while lo > start and at - lo < 40 and raw[lo - 1] not in stops:
        lo -= 1
    while hi < len(raw) and hi - at < 40 and raw[hi] not in stops:
        hi += 1
    word = raw[lo:hi].decode(WESTERN).strip()
    return (f", which reads {word!r} as Windows-1252 (Western European, a superset of "
            f"Latin-1): if that is right, the file is in that encoding ({WESTERN})")


def _utf16_without_mark(raw: bytes) -> str | None:
    """"le" or "be" when the bytes read as UTF-16 text of mostly Latin letters written without
    a byte order mark (as some database exports write it): every other byte of the first 4 KB
    is 0 and the bytes between are not; else None."""
    head = raw[: min(len(raw), 4096) // 2 * 2]
    if len(head) < 8 or raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) >= 0.95 * len(odd) and even.count(0) <= 0.05 * len(even):
        return "le"
    if even.count(0) >= 0.95 * len(even) and odd.count(0) <= 0.05 * len(odd):
        return "be"
    return None


def _decode(raw: bytes, encoding: str, where: str, notes: list[str] | None = None) -> str:
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    if utf8 and raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # Excel's "Unicode text"
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            text = ""
        # a table has a line break and no control characters; else the bytes are not UTF-16
        # text and the UTF-8 error below names the first bad byte
        if ("\n" in text or "\r" in text) and not _CONTROL.search(text):
            if notes is not None:
                notes.append("decoded as UTF-16 (byte order mark)")
            return text
    if utf8 and (order := _utf16_without_mark(raw)) is not None:
        try:  # trust23: refused as "a NUL byte … a binary file" (or a byte not UTF-8)
            text = raw.decode(f"utf-16-{order}")
        except UnicodeDecodeError:
            text = ""
        if ("\n" in text or "\r" in text) and not _CONTROL.search(text):
            if notes is not None:
                notes.append(f"decoded as UTF-16 ({'little' if order == 'le' else 'big'}-endian, "
                             "no byte order mark: every other byte is 0)")
            return text
    skip = 0
    if raw.startswith(_UTF8_BOM) and not re.match(r"utf-?(16|32)", encoding.lower()):
        skip = len(_UTF8_BOM)  # a mark, not text: read as cp1252 it became 'ï»¿' in a header
        if not utf8 and notes is not None:
            notes.append(f"the file starts with a UTF-8 byte order mark, left out: its text is "
                         f"read as {encoding}, as named")
    try:
        text = raw[skip:].decode(encoding)
        if "\n" not in text and "\r" not in text and (n := raw.count(b"\n")):
            # trust23: a UTF-8 file read as the UTF-16 named decoded into one line of CJK
            # characters, then refused as "a header but no data rows"
            raise DataError(f"{where} read as {encoding} has no line break, though its bytes "
                            f"hold {counted(n, 'line feed')}: it is not {encoding} text (UTF-8? "
                            "name the file's encoding: the Data page's \"Text encoding\", "
                            "encoding= in Python, --encoding on the command line)")
        return text
    except UnicodeDecodeError as exc:
        at = exc.start + skip  # offset in the file as given
        line = raw.count(b"\n", 0, at) + 1
        col = at - (raw.rfind(b"\n", 0, at) + 1) + 1
        bad = raw[at : exc.end + skip].hex(" ")
        raise DataError(
            f"{where} is not valid {encoding}: byte offset {at} (line {line}, byte {col} "
            f"of the line) holds 0x{bad}{_western_reading(raw, at) if utf8 else ''}; save the "
            f"file as {encoding} or name its encoding (the Data page's \"Text encoding\", "
            "encoding= in Python, --encoding on the command line)"
        ) from exc
    except LookupError as exc:
        raise DataError(f"unknown encoding {encoding!r}") from exc


def _long_cell(text: str, line: int, delim: str) -> tuple[int, int] | None:
    """(field number from 0, its length) of the first cell longer than the CSV reader's field
    limit in the record starting on `line` of `text`, or None: which column a refused cell is
    in (read only when the reader has refused one)."""
    at = 0
    for _ in range(line - 1):
        at = text.find("\n", at) + 1
        if at == 0:
            return None
    cell = re.compile(rf'"(?:[^"]|"")*"?|[^{re.escape(delim)}\r\n]*')
    limit = csv.field_size_limit()
    for k in range(100_000):
        m = cell.match(text, at)
        if m is None:
            return None
        if m.end() - m.start() > limit:
            return k, m.end() - m.start()
        at = m.end()
        if at >= len(text) or text[at] != delim:
            return None
        at += 1
    return None


class _Records:
    """The data records of a CSV reader, each checked as it is read (the only per-row loop):
    the header gives `columns`; a record that repeats the header (files exported one after
    another and joined: 'age,sex,y' again at line 152) is no data row: left out, its line kept
    in `heads`. Iterating yields (record, file line). One home for the whole-file read
    (`_parse`) and the block reader (`read_blocks`)."""

    def __init__(self, reader, where, delim, max_rows, max_cols, header, names, notes=None,
                 text=None):
        self.reader, self.where, self.delim, self.max_rows = reader, where, delim, max_rows
        self.max_cols, self.header, self.names, self.notes, self.text = (max_cols, header,
                                                                         names, notes, text)
        self.columns: list[str] = []
        self.heads: list[int] = []  # lines that repeat the header
        self.header_line = 0
        self.n = 0  # data rows so far

    def __iter__(self):
        reader, where, delim, header = self.reader, self.where, self.delim, self.header
        head: list[str] = []
        n_cols = 0
        start = 1  # the line the next record starts on
        expected = "as in the header" if header else "as in the first row"
        while True:
            try:
                rec = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                row = f" (data row {self.n + 1})" if self.columns else ""
                if "NUL" in str(exc):  # (a file read whole is refused before it is parsed)
                    raise DataError(f"{where} holds a NUL byte (line {start}): it is a binary "
                                    "file, not CSV text") from exc
                if "field limit" in str(exc) and self.text is not None and \
                        (long := _long_cell(self.text, start, delim)) is not None:
                    col = (f"column {self.columns[long[0]]!r}" if long[0] < len(self.columns)
                           else f"field {long[0] + 1}")
                    raise DataError(
                        f"{where}, line {start}{row}, {col}: a cell of {long[1]:,} characters, "
                        f"over the cap of {csv.field_size_limit():,} a cell (a quote left "
                        "open runs a cell on to the next quote; a text this long is no feature: "
                        "leave it out of the export)") from exc
                raise DataError(
                    f"{where}, line {start}{row}: cannot parse the CSV ({exc}); is a quote left "
                    "open?"
                ) from exc
            line, start = start, reader.line_num + 1
            if not rec:
                continue
            if not self.columns:
                self.columns = _columns(rec, where, self.max_cols, header, self.names, line,
                                        self.notes)
                n_cols = len(self.columns)
                self.header_line = line
                if header:
                    head = [f.strip() for f in rec]
                    continue
            elif head and rec[0].strip() == head[0] and len(rec) == n_cols and \
                    [f.strip() for f in rec] == head:
                self.heads.append(line)
                continue
            elif len(rec) != n_cols:
                raise DataError(
                    f"{where}, line {line} (data row {self.n + 1}): expected {n_cols} fields "
                    f"({expected}), found {len(rec)}; is the delimiter "
                    f"{_DELIM_NAMES.get(delim, repr(delim))}, or is a quote missing?"
                )
            self.n += 1
            if self.n > self.max_rows:
                raise DataError(f"{where} has more than the cap of max_rows={self.max_rows:,} "
                                "data rows")
            yield rec, line

    def ended(self) -> None:
        """Refuse a file without data rows; say the lines that repeat the header."""
        if not self.columns:
            raise DataError(f"{self.where} is empty (only blank lines)")
        if not self.n:
            raise DataError(f"{self.where} has a header (line {self.header_line}) but no data "
                            "rows")
        if self.heads and self.notes is not None:
            shown = ", ".join(map(str, self.heads[:5])) + (" …" if len(self.heads) > 5 else "")
            k = len(self.heads)
            self.notes.append(f"{counted(k, 'line')} {verb(k, 'repeats', 'repeat')} the header "
                              f"({noun(k, 'line')} {shown}: files joined one after another?): "
                              "left out, not read as data rows")


SHARE_ROWS = 65_536
"""Rows parsed before their texts are shared (`_shared`): the parse holds at most this many
rows of separate strings, so a long file of repeated values no longer holds one string a cell."""


def _lines(text: str, piece: int = 1 << 20) -> Iterable[str]:
    """The lines of `text` as `io.StringIO(text, newline="")` yields them, a megabyte of text at
    a time: a StringIO once read holds 4 bytes a character (270 MB for a 68 MB file)."""
    at = 0
    while at < len(text):
        end = text.find("\n", at + piece)
        end = len(text) if end < 0 else end + 1
        yield from io.StringIO(text[at:end], newline="")
        at = end


Shared = list[tuple[np.ndarray, np.ndarray]]
"""Each column of parsed rows as (codes, distinct texts in order of first appearance)."""


def _shared(rows: list[list[str]], n_cols: int) -> Shared:
    """`rows`' columns as codes and distinct texts (`pd.factorize`): a text repeated down a
    column is held once, not once a cell."""
    arr = np.empty((len(rows), n_cols), dtype=object)
    arr[:] = rows
    out = []
    for j in range(n_cols):
        codes, distinct = pd.factorize(arr[:, j])
        out.append((codes.astype(np.int32), distinct))
    return out


def _joined(parts: list[Shared], n_cols: int) -> Shared:
    """The `_shared` columns of consecutive row chunks as one (distinct texts still in order
    of first appearance in the file)."""
    if len(parts) == 1:
        return parts[0]
    out = []
    for j in range(n_cols):
        codes, distinct = pd.factorize(np.concatenate([p[j][1] for p in parts]))
        at = np.cumsum([0] + [len(p[j][1]) for p in parts])
        out.append((np.concatenate([codes[at[i]:at[i + 1]][p[j][0]]
                                    for i, p in enumerate(parts)]).astype(np.int32), distinct))
    return out


def _cells(cols: Shared, lines: list[int], records: _Records, missing: Sequence[str],
           first: bool = True) -> tuple[pd.DataFrame, np.ndarray, dict[str, dict[str, int]]]:
    """(frame, file line of each row, missing-marker counts per column) of data records (their
    columns `_shared`); on the file's `first` rows, survey question rows under the header are
    left out and a header that reads like data is said (in `records.notes`). The markers are
    compared on each column's distinct texts, not cell by cell."""
    columns, notes, header = records.columns, records.notes, records.header
    # one row of `arr` a column: the frame's own layout, taken without a copy
    arr = np.empty((len(columns), len(lines)), dtype=object)
    for j, (codes, distinct) in enumerate(cols):
        arr[j] = distinct[codes]
    if first and header and (top := described_rows(arr.T, missing)):  # a survey export's question rows
        if notes is not None:
            shown = ", ".join(repr(v) for v in arr[:, top[0]][:2])
            notes.append(f"{noun(len(top), 'line')} {', '.join(str(lines[i]) for i in top)} under "
                         f"the header {verb(len(top), 'holds', 'hold')} "
                         f"text in every column of numbers ({shown} …): a survey export's "
                         "question text and import IDs? left out, not read as data rows")
        keep = np.ones(len(lines), dtype=bool)
        keep[top] = False
        arr, lines = arr[:, keep], [ln for ln, k in zip(lines, keep, strict=True) if k]
        cols = [pd.factorize(row) for row in arr]
    if first and header and notes is not None and \
            (said := header_like_data(columns, arr.T)) is not None:
        notes.append(f"the header (line {records.header_line}) {said}")
    counts: dict[str, dict[str, int]] = {}
    if missing:
        markers = list(dict.fromkeys(missing))
        numbers = marker_numbers(markers)  # '-999' also names '-999.0', as written by a float column
        for j, (codes, distinct) in enumerate(cols):
            n_of = np.bincount(codes, minlength=len(distinct))
            at = pd.Index(distinct, dtype=object).get_indexer(markers)
            hit = np.zeros(len(distinct), dtype=bool)
            for m, k in zip(markers, at, strict=True):
                if k >= 0 and n_of[k]:
                    counts.setdefault(columns[j], {})[m] = int(n_of[k])
                    hit[k] = True
            if numbers:
                for k in number_marked(distinct, hit, numbers):
                    if n_of[k]:
                        counts.setdefault(columns[j], {})[str(distinct[k])] = int(n_of[k])
                        hit[k] = True
            if hit.any():
                arr[j, hit[codes]] = np.nan
        counts = {c: counts[c] for c in columns if c in counts}
    frame = pd.DataFrame(arr.T, columns=columns, dtype=object, copy=False)
    return frame, np.asarray(lines, dtype=np.int64), counts


def marker_numbers(markers: Sequence[str]) -> frozenset[float]:
    """The missing markers that are numbers ('-999', '9999'), as numbers: a cell that writes
    one of them otherwise ('-999.0', '9999.00', as a float column's export writes it) is
    that marker too, so `--missing -999` never silently matches nothing."""
    out = set()
    for m in markers:
        try:
            v = float(str(m).strip())
        except ValueError:
            continue
        if np.isfinite(v):
            out.add(v)
    return frozenset(out)


def number_marked(distinct: np.ndarray, done: np.ndarray,
                  numbers: frozenset[float]) -> np.ndarray:
    """Positions of the `distinct` texts of one column, not yet read as missing (`done`), that
    write one of `numbers` (`marker_numbers`)."""
    left = np.flatnonzero(~done)
    if not len(left):
        return left
    text = pd.Series([v.strip() if isinstance(v, str) else v for v in distinct[left]],
                     dtype=object)
    as_number = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float)
    return left[np.isin(as_number, list(numbers))]


def _parse(reader, where, delim, max_rows, max_cols, missing, header, names, notes=None,
           text=None):
    """(frame, file line of each row, missing-marker counts per column) of the whole file
    (`_Records`, `_cells`)."""
    records = _Records(reader, where, delim, max_rows, max_cols, header, names, notes, text)
    rows: list[list[str]] = []
    lines: list[int] = []
    parts: list[Shared] = []
    for rec, line in records:
        rows.append(rec)
        lines.append(line)
        if len(rows) == SHARE_ROWS:
            parts.append(_shared(rows, len(records.columns)))
            rows = []
    records.ended()
    if rows or not parts:
        parts.append(_shared(rows, len(records.columns)))
    del rows
    return _cells(_joined(parts, len(records.columns)), lines, records, missing)


def described_rows(cells: np.ndarray, missing: Sequence[str] = MISSING_MARKERS,
                   most: int = 3) -> list[int]:
    """The first data rows (up to `most`) that hold text, not a number, in every column of
    numbers (two or more columns whose later cells are numbers): the question text and import
    IDs a survey platform writes under the header ('How old are you?', '{"ImportId":"QID1"}'),
    which would make each such column one odd value and the label two extra classes."""
    if len(cells) <= 2 * most:
        return []
    markers = set(missing)

    def numeric(j: int) -> bool:  # later cells (a sample) numbers, up to a few texts
        c = pd.Series(cells[most:most + 200, j], dtype=object)
        c = c[~c.isin(markers)]
        return len(c) > 0 and pd.to_numeric(c, errors="coerce").notna().mean() >= 0.95

    first = pd.Series(cells[0], dtype=object)
    plain = first.isin(markers).to_numpy() | pd.to_numeric(first, errors="coerce").notna().to_numpy()
    if (~plain).sum() < 2 or any(numeric(j) for j in np.flatnonzero(plain)):
        return []  # the first row holds a number (or a marker) in a column of numbers: data
    numeric = [j for j in np.flatnonzero(~plain) if numeric(j)]
    if len(numeric) < 2:
        return []
    out = []
    for i in range(most):
        row = pd.Series(cells[i, numeric], dtype=object)
        if row.isin(list(missing)).any() or pd.to_numeric(row, errors="coerce").notna().any():
            break
        out.append(i)
    return out


def header_like_data(columns: Sequence[str], cells: np.ndarray, shown: int = 4) -> str | None:
    """Why a header reads like a data row, or None: half its names or more (and two or more)
    are numbers over columns of numbers — a file without a header row (a lab machine's dump),
    whose first row then names the columns and is lost from the data. Years (1900–2100, a
    pivot table's columns) are names."""
    nums = pd.to_numeric(pd.Series(list(columns), dtype=object), errors="coerce").to_numpy(float)
    at = np.flatnonzero(np.isfinite(nums))
    if len(at) < max(2, len(columns) / 2) or np.all(
            (nums[at] == np.round(nums[at])) & (nums[at] >= 1900) & (nums[at] <= 2100)):
        return None
    head = pd.DataFrame(cells[:SAMPLE, at])
    below = head.apply(lambda c: pd.to_numeric(c, errors="coerce")).notna().mean()
    if (below < 0.9).any():
        return None
    names = ", ".join(repr(str(c)) for c in columns[:shown]) + (" …" if len(columns) > shown else "")
    return (f"reads like a data row: {len(at)} of its {len(columns)} names are numbers over "
            f"columns of numbers ({names}); if the file has no header row, that row was read "
            "as the column names and is not among the rows — add a header line naming the "
            "columns")


def _columns(first, where, max_cols, header, names, line, notes=None) -> list[str]:
    """Column names from the first record (or `names`), checking the cap and duplicates;
    an empty header cell is named "Unnamed: j" (pandas' name) and said in `notes`."""
    n_cols = len(first)
    if n_cols > max_cols:
        raise DataError(
            f"{where} has {n_cols:,} columns, more than the cap of max_cols={max_cols:,}"
        )
    if header:
        columns = [c if c != "" else f"Unnamed: {j}" for j, c in enumerate(first)]
        empty = [j for j, c in enumerate(first) if c == ""]
        if empty and notes is not None:  # named as pandas names them, and said
            notes.append(f"{noun(len(empty), 'header cell')} left empty, named: " + ", ".join(
                f"column {j + 1} '{columns[j]}'" for j in empty[:5])
                + (f" and {len(empty) - 5} more" if len(empty) > 5 else ""))
    else:
        columns = list(names) if names is not None else [f"a{j + 1}" for j in range(n_cols)]
        if len(columns) != n_cols:
            raise DataError(
                f"{where}: {len(columns)} names given but line {line} has {n_cols} fields"
            )
    seen: dict[str, int] = {}
    dups: dict[str, list[int]] = {}
    for j, c in enumerate(columns):
        if c in seen:
            dups.setdefault(c, [seen[c] + 1]).append(j + 1)
        else:
            seen[c] = j
    if dups:
        what = "; ".join(f"{c!r} (columns {', '.join(map(str, js))})" for c, js in dups.items())
        raise DataError(f"{where}: duplicate column names {what}; rename them")
    if (alike := names_alike(columns)) is not None:
        raise DataError(f"{where}: {alike}; rename them")
    return columns


# --------------------------------------------------------------------------------------------
# Values as strings


def as_strings(s: pd.Series) -> pd.Series:
    """The column as Python strings and NaN: text kept verbatim, 3 → "3", 1.0 → "1",
    0.5 → "0.5", True → "True", None / pd.NA → NaN."""
    n = len(s)
    out = np.full(n, np.nan, dtype=object)
    if pd.api.types.is_bool_dtype(s.dtype):
        miss = s.isna().to_numpy()
        out[~miss] = np.where(s[~miss].to_numpy(dtype=bool), "True", "False")
    elif pd.api.types.is_numeric_dtype(s.dtype):
        v = s.to_numpy(dtype=float, na_value=np.nan)
        ok = ~np.isnan(v)
        whole = ok & np.isfinite(v) & (np.floor(v) == v) & (np.abs(v) < 2.0**53)
        out[whole] = v[whole].astype(np.int64).astype(str)
        rest = ok & ~whole
        out[rest] = v[rest].astype(str)
    else:
        obj = s.to_numpy(dtype=object)
        miss = pd.isna(obj)
        kind = pd.api.types.infer_dtype(obj, skipna=True)
        if kind in ("string", "empty"):
            out[~miss] = obj[~miss]  # the common case (text from a file): no per-value work
            return pd.Series(out, index=s.index, name=s.name, dtype=object)
        if kind in ("floating", "integer"):  # numbers held as objects (an estimator's frame)
            try:  # as the numeric dtypes are written, not value by value (same strings)
                num = obj[~miss].astype(np.int64 if kind == "integer" else float)
            except OverflowError:  # an integer beyond int64: each its own digits, below
                num = None
            if num is not None:
                out[~miss] = (num.astype(str) if kind == "integer"
                              else as_strings(pd.Series(num)).to_numpy(dtype=object))
                return pd.Series(out, index=s.index, name=s.name, dtype=object)
        is_str = np.fromiter((type(v) is str for v in obj), dtype=bool, count=n)
        out[is_str] = obj[is_str]
        if not is_str.all():
            other = pd.Series(obj[~is_str], dtype=object)
            out[~is_str] = other.map(_scalar_str, na_action="ignore").to_numpy(dtype=object)
    return pd.Series(out, index=s.index, name=s.name, dtype=object)


def _scalar_str(v: Any) -> Any:
    if v is None or v is pd.NA or v is pd.NaT:
        return np.nan
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return np.nan
        return str(int(f)) if f.is_integer() and abs(f) < 2.0**53 else repr(f)
    return str(v)


#: How a text column may write its numbers besides plain `-1234.5` / `1e3`, read only when a
#: whole column fits one of them (`number_format`), kept in its `Binning` and applied to new
#: rows the same way: "thousands" 1,234,567.5; "decimal-comma" 1.234.567,5 or 3,5 (as spread
#: sheets export in much of Europe); "dot-thousands" 1.234.567 (whole numbers, '.' between
#: groups of three); "decimal-point" 1.234 read plainly, named because '.' could also have
#: separated thousands there; "+percent" 12% → 12, "+currency" $1,234.50 or 12,5 € → the
#: number (either style, or plain: "percent", "currency").
_UNITS = {"percent": (r"\s*%$",), "currency": (r"(?<=^[+-])\s*[$€£¥]\s*|^[$€£¥]\s*",
                                              r"\s*[$€£¥]$")}
_STYLES = ("thousands", "decimal-comma", "dot-thousands", "decimal-point", "spaced")
#: A space between groups of three digits (1 234 567,5 as French, Nordic and SI writing put
#: it; also the no-break and thin spaces spreadsheets export): dropped in every style, and
#: "spaced" when the rest is a plain number (1 234.5).
_GROUP_SPACE = r"(?<=\d)[ \u00a0\u202f\u2009](?=\d{3}(?:\D|$))"
_SPACED = r"[+-]?\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?"
#: A unit of measurement written after numbers ("12 mg", "1.7 g/L", "37.2 °C", "25 kg/m²"):
#: a letter, '°' or 'µ', then letters, digits, '²', '³' (and '/' before more): read when every
#: value that carries one carries the same (`number_format`: "unit:mg", or a style with it,
#: "decimal-comma+unit:g/L"), the unit said wherever the reading is said.
_NOT_UNITS = ("more", "less", "plus", "or", "and", "to", "of", "than", "over", "under",
              "above", "below", "up")  # words after a number that are no unit (car's "5more")
_UNIT_TEXT = (rf"(?!(?i:{'|'.join(_NOT_UNITS)})$)(?![eE]\d{{1,3}}$)"  # 2,5E2: a power of ten
              r"(?:[^\W\d_]|[°µ])[^\W_]*(?:/[^\W_]+)*")
_MEASURE = rf"[+-]?(?:\d[\d.,]*|\.\d+)\s*({_UNIT_TEXT})"
UNIT_PREFIX = "unit:"
_UNIT_WORDS = {
    "yr": ("year", "y"), "mo": ("month", "mth"), "wk": ("week",), "d": ("day",),
    "h": ("hour", "hr"), "min": ("minute",), "s": ("sec", "second"),
    "kg": ("kilo", "kilogram", "kilogramme"), "g": ("gram", "gramme", "gm"),
    "mg": ("milligram", "milligramme"), "µg": ("mcg", "ug", "microgram"), "lb": ("pound",),
    "oz": ("ounce",), "l": ("liter", "litre"), "ml": ("milliliter", "millilitre"),
    "m": ("meter", "metre"), "cm": ("centimeter", "centimetre"), "mm": ("millimeter", "millimetre"),
    "km": ("kilometer", "kilometre"), "in": ("inch", "inches"), "ft": ("foot", "feet"),
    "%": ("percent", "pct")}
"""One unit's other writings, after case and a plural 's' (`unit_key`): "80 kgs", "80 kilos"
and "80 kg" are one unit, so a column or a later file writing them so is read as one."""
# keyed as `unit_key` folds its input: casefold turns the micro sign µ into the Greek μ
_UNIT_ALIAS = {w.casefold(): k.casefold() for k, ws in _UNIT_WORDS.items() for w in (k, *ws)}
#: Dates a text column may be written in (the whole column in one; a date is a point on a
#: time line, not an ID, so a date column is binned like a number: `date_cuts`). "ISO8601" is
#: 2021-03-04, 2021-03-04 13:30 or 2021-03-04T13:30:00Z; day first before month first
#: (04/03/2021 is 4 March unless a value's second field is above 12; the reading is said).
DATE_FORMATS = ("ISO8601", *(d + tm for d in ("%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y",
                                              "%Y/%m/%d")
                             for tm in ("", " %H:%M", " %H:%M:%S")),
                *(d + tm for d in ("%d-%b-%Y", "%d %b %Y", "%b %d, %Y", "%d %B %Y", "%B %d, %Y")
                  for tm in ("", " %H:%M", " %H:%M:%S")),  # month names, in English
                *(d + tm for d in ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y",
                                   "%Y/%m/%d", "%d-%b-%Y", "%d %b %Y", "%b %d, %Y", "%d %B %Y",
                                   "%B %d, %Y")
                  for tm in (" %I:%M %p", " %I:%M:%S %p")))  # 3/14/2024 2:05 PM, 02:05pm
_AMPM = r"\s*([AaPp])\.?[Mm]\.?$"
"""A stamp's AM/PM ('2:05 PM', '02:05pm', '2:05 p.m.'): read by the `DATE_FORMATS` ending in
%p once written ' PM' (`_days`); a column of them reads as no other format."""
DATE_ISO = "date:ISO8601"
"""The number format of a column held as dates (datetime64, Timestamps): text in new rows
is read as ISO dates."""
#: Clock readings and lengths of time, read as minutes: "time" (a time of day, 08:30,
#: 17:45:10, 8:30 pm → minutes since midnight) and "duration" (2h 30m, 45 min, 1.5h, 90s →
#: minutes). Binned like numbers, their bins labelled in the same writing (<08:30, ≥2h 30m).
MONTHS_DURATION = "duration:months"
"""Lengths of time whose bare m is months wherever it stands ('8m' beside '5y 3m': a child's
age): a column holding years and no days, hours, seconds or minutes written out (`_months_column`),
decided on the whole column and kept in the model, so '8m' predicted alone reads as at fit."""
CLOCK_FORMATS = ("time", "duration", MONTHS_DURATION)
CLOCK_HOLDS = {"time": "holds times of day like 08:30 or 10:30 PM, read as minutes since midnight",
               "duration": "holds lengths of time like 2h 30m or 2:30:00, read as minutes",
               MONTHS_DURATION: "holds lengths of time in years and months like 5y 3m or 8m, "
                                "read as minutes"}
"""What a column of each `CLOCK_FORMATS` holds, as a cell that is none is told (not "the
column is numeric": the user wrote times, not numbers)."""
_TIME = r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?|(?:0?[1-9]|1[0-2]):[0-5]\d(?::[0-5]\d)?\s*[AaPp]\.?[Mm]\.?"
_DURATION_PART = {"y": r"y|yrs?|years?", "mo": r"mos?|months?", "w": r"w|wks?|weeks?",
                  "d": r"d|days?", "h": r"h|hrs?|hours?", "m": r"m|mins?|minutes?",
                  "s": r"s|secs?|seconds?"}
_DURATION_MINUTES = {"y": 365.25 * 1440.0, "mo": 365.25 / 12 * 1440.0, "w": 7 * 1440.0,
                     "d": 1440.0, "h": 60.0, "m": 1.0, "s": 1.0 / 60.0}
"""Minutes of each part of a length of time: weeks, months and years too ('3 weeks', '6
months', '2 years': time since a visit or an onset, reading24's duration_words, which were
35 categories) when a column mixes them with another part (`_one_long_unit`: '3 years' alone
stays numbers in years); a month is a year's twelfth, 30.4 days, and its bins print in days."""
_BARE_M = r"(?i)\d\s*m(?![a-z])"
"""A bare "m" after a number: minutes ('1h 30m'), but months in a cell that holds years and no
days, hours or seconds ('5y 3m', a child's age: 5 years 3 months, not 5 years 3 minutes)."""
_HOURS = r"\d{1,5}:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?"  # hours and minutes: 26:30:00, 00:45
_DURATION_WORDS = ("duration", "length", "stay", "elapsed", "los")
"""Words of a header that name a length of time ('length of stay', 'LOS', 'call_duration')."""
_METRES_OR_MINUTES = r"\d+(?:\.\d+)?\s*m"  # 1.8m: a length or a time; not read as either
_DURATION = r"\s*".join(rf"(?:(?P<{k}>\d+(?:\.\d+)?)\s*(?:{rx})(?![A-Za-z]))?"
                        for k, rx in _DURATION_PART.items())
NUMBER_FORMATS = ("plain", *_UNITS, *(f"{style}{'+' + u if u else ''}"
                                      for style in _STYLES for u in ("", *_UNITS)),
                  *(f"date:{d}" for d in DATE_FORMATS), "date:excel", *CLOCK_FORMATS)
_NUMBER_SHAPE = (rf"[$€£¥]?\s*[+-]?\s*[$€£¥]?\s*[.,]*\d(?:[\d.,]|{_GROUP_SPACE})*\s*"
                 rf"(?:[%$€£¥]|{_UNIT_TEXT})?")
"""A cell written like a number in some format: a sign, a percent or currency sign, a unit.
Up to its first digit only '.' and ',' (a digit there could match two ways: a 10⁵-digit cell
that fails at its end backtracked for hours, fuzz17)."""
_PAIR = r"\d+(?:[.,]\d+)?\s*/\s*\d+(?:[.,]\d+)?"
"""Two numbers in one cell, '143/73' (a blood pressure), read as neither."""
_PARENTHESES = r"\(\s*[$€£¥]?\s*\d[\d.,]*\s*%?\s*\)"
"""A number in parentheses, "(0.83)", "($1,200)": a negative amount as accounts write it."""
_DATE_LIKE = (r"(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}[- ][A-Za-z]{3,9}[- ]\d{4}"
              r"|[A-Za-z]{3,9} \d{1,2}, \d{4})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
              r"(?:Z|[+-]\d{2}:?\d{2}|\s*[AaPp]\.?[Mm]\.?)?)?")
_EPOCH = pd.Timestamp("1970-01-01", tz="UTC")
EXCEL_DATE = "date:excel"
"""The number format of a column of Excel's serial day numbers (44927 is 2023-01-01, 45012.5
noon of 2023-03-27): numbers read as dates when the header names a date (`excel_dates`)."""
EXCEL_DAYS = (20000.0, 80000.0)
"""Serial day numbers read as dates: 1954-10-03 to 2119-01-10 (a plausible date, not a count)."""
_EXCEL_DAY0 = 25569.0  # Excel's serial of 1970-01-01 (its day 0 is 1899-12-30)
_EXCEL_SERIAL = r"\d{5}(?:\.\d+)?"
_DATE_WORDS = ("date", "dates", "datetime", "datum", "fecha", "dob")
"""Words of a header that name a date ('admission_date', 'Visit Date', 'AdmitDate', 'DOB')."""


def _header_words(name: Any) -> set[str]:
    """A header's words, lower case, split at spaces, '_', '-', '.' and lower-to-upper case
    ('AdmitDate': admit, date; 'updated' stays one word)."""
    return {w.lower() for w in re.split(r"[\W_]+|(?<=[a-z])(?=[A-Z])", str(name))}


def names_a_date(name: Any) -> bool:
    """Whether a column's header names a date by one of its words (`_DATE_WORDS`, split by
    `_header_words`: 'updated' and 'update_count' do not)."""
    return not _header_words(name).isdisjoint(_DATE_WORDS)


def names_a_duration(name: Any) -> bool:
    """Whether a column's header names a length of time by one of its words
    (`_DURATION_WORDS`, split by `_header_words`)."""
    return not _header_words(name).isdisjoint(_DURATION_WORDS)


def excel_dates(name: Any, x: np.ndarray) -> bool:
    """Whether numbers `x` of a column headed `name` are Excel's serial day numbers: the header
    names a date (`names_a_date`) and every present value lies in `EXCEL_DAYS`."""
    v = x[~np.isnan(x)]
    return len(v) > 0 and names_a_date(name) and bool(
        ((v >= EXCEL_DAYS[0]) & (v <= EXCEL_DAYS[1])).all())


def _serial_days(text: pd.Series) -> np.ndarray:
    """Days since 1970-01-01 of text written as an Excel serial day number in `EXCEL_DAYS`
    (a cell Excel wrote as 44932 in a column of dates), NaN elsewhere."""
    shaped = text.map(lambda v: isinstance(v, str) and re.fullmatch(_EXCEL_SERIAL, v) is not None)
    x = pd.to_numeric(text.where(shaped.astype(bool)), errors="coerce").to_numpy(dtype=float)
    ok = (x >= EXCEL_DAYS[0]) & (x <= EXCEL_DAYS[1])
    return np.where(ok, x - _EXCEL_DAY0, np.nan)


def is_number_format(number_format: Any) -> bool:
    """True for a `NUMBER_FORMATS` entry, or a unit of measurement with or without a style
    ("unit:mg", "decimal-comma+unit:g/L")."""
    if not isinstance(number_format, str):
        return False
    if number_format.startswith(LEVELS_PREFIX):
        return format_levels(number_format) is not None
    return number_format in NUMBER_FORMATS or re.fullmatch(
        rf"(?:(?:{'|'.join(_STYLES)})\+)?{UNIT_PREFIX}{_UNIT_TEXT}", number_format) is not None


LEVELS_PREFIX = "levels:"
"""A column of ordered bands or scale words ('0-10' … '80+'; neg, trace, 1+ … 3+), read as
each value's place in the order: "levels:" then the levels, least first, as a JSON list."""


def levels_format(levels: Sequence[str]) -> str:
    """The number format of a column of these ordered levels (least first)."""
    return LEVELS_PREFIX + json.dumps(list(levels), ensure_ascii=False)


def format_levels(number_format: Any) -> list[str] | None:
    """The levels of a `levels_format` (least first), None for any other format or one a
    model file could not have written (not a list of two or more distinct strings)."""
    if not isinstance(number_format, str) or not number_format.startswith(LEVELS_PREFIX):
        return None
    try:
        levels = json.loads(number_format[len(LEVELS_PREFIX):])
    except ValueError:
        return None
    if not isinstance(levels, list) or len(levels) < 2 or len(set(map(str, levels))) < len(
            levels) or not all(isinstance(v, str) for v in levels):
        return None
    return levels


def ordered_levels(s: pd.Series) -> list[str] | None:
    """A text column's values in their order when the whole column is ordered bands or words
    of one known scale (`ordered.band_order`; an ordered pandas Categorical's own order);
    None otherwise. Looks at the distinct values only."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        return [str(c) for c in s.cat.categories] if s.dtype.ordered else None
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return None
    from .ordered import MAX_LEVELS, band_order

    distinct = pd.unique(s.dropna().to_numpy(dtype=object))
    if len(distinct) > MAX_LEVELS or not all(isinstance(v, str) for v in distinct):
        return None
    return band_order([v.strip() for v in distinct])


def _level_numbers(s: pd.Series, levels: Sequence[str]) -> np.ndarray:
    """Each cell's place among `levels` (0, 1, …; NaN where missing or not one of them: an
    unseen band is unknown, said by `unseen_levels_said`), spaces and case aside."""
    from .ordered import _plain

    place = {_plain(v): float(i) for i, v in enumerate(levels)}
    codes, uniques = pd.factorize(as_strings(s).to_numpy(dtype=object))
    read = np.array([place.get(_plain(str(v)), np.nan) for v in uniques] + [np.nan])
    return read[codes]


def is_date_format(number_format: str) -> bool:
    """True for the `NUMBER_FORMATS` entries that read dates (days since 1970-01-01)."""
    return number_format.startswith("date:")


DATE_KINDS = ("datetime", "datetime64", "date")
"""`pd.api.types.infer_dtype` kinds of an object column of dates held as dates."""


def holds_dates(s: pd.Series) -> bool:
    """True when a column holds dates as dates (datetime64, with or without a time zone, or
    Timestamp / datetime / date objects), not as text."""
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return True
    if s.dtype != object:
        return False
    for v in s.to_numpy()[:SAMPLE]:  # a text cell first: not every value a date (no full scan)
        if isinstance(v, str):
            return False
        if v is not None and v is not pd.NaT and not (isinstance(v, float) and v != v):
            break
    return pd.api.types.infer_dtype(s, skipna=True) in DATE_KINDS


def held_clock(s: pd.Series) -> str | None:
    """"duration" when a column holds lengths of time as such (timedelta64, Timedelta or
    timedelta objects), "time" when it holds times of day (`datetime.time` objects), else
    None: binned in minutes and labelled as they read (≥1h30m, <17:00), as dates are."""
    if pd.api.types.is_timedelta64_dtype(s.dtype):
        return "duration"
    if s.dtype != object:
        return None
    vals = s.to_numpy()
    for v in vals[:SAMPLE]:  # the first present cell decides before any scan (text, numbers:
        # no): a fit asks of each column about ten times, and scanning every cell each time
        # was 2% of its CPU time on 30 numeric columns (0.103 s of 4.57 s, 0.038 s now)
        if not (v is None or v is pd.NaT or v is pd.NA or (isinstance(v, float) and v != v)):
            if not isinstance(v, (datetime.time, datetime.timedelta)):
                return None
            break
    present = vals[pd.notna(vals)]
    if not len(present) or not isinstance(present[0], (datetime.time, datetime.timedelta)):
        return None
    if all(isinstance(v, datetime.time) for v in present):
        return "time"
    if all(isinstance(v, datetime.timedelta) for v in present):
        return "duration"
    return None


def held_format(s: pd.Series) -> str:
    """The number format of a column held as values that are no plain numbers: `DATE_ISO`
    for dates, "duration" / "time" for lengths of time / times of day (`held_clock`), else
    "plain" — how the estimator labels the bins of a column it is given."""
    if isinstance(s.dtype, pd.CategoricalDtype) and s.dtype.ordered:  # ordered levels
        return levels_format([str(c) for c in s.cat.categories])  # (their order)
    return DATE_ISO if holds_dates(s) else held_clock(s) or "plain"


def held_minutes(s: pd.Series, clock: str) -> np.ndarray:
    """Minutes of a column held as timedeltas ("duration") or times of day ("time"); NaN
    where missing."""
    if clock == "duration":
        return pd.to_timedelta(s).dt.total_seconds().to_numpy(dtype=float) / 60.0
    return np.array([v.hour * 60 + v.minute + (v.second + v.microsecond / 1e6) / 60
                     if isinstance(v, datetime.time) else np.nan for v in s.to_numpy()],
                    dtype=float)


def as_held(x: np.ndarray, number_format: str, index: pd.Index) -> pd.Series:
    """Numbers read as `number_format` given back as the values the estimator bins and labels
    in that form (`held_format`): dates as datetimes, lengths of time as timedeltas, times of
    day as `datetime.time`; other numbers as they are. One home for `estimator_rows` (plx fit,
    the dashboard) and `discretize.fit_binnings`."""
    if is_date_format(number_format):
        return pd.Series(pd.to_datetime(x, unit="D"), index=index)
    if number_format in ("duration", MONTHS_DURATION):
        return pd.Series(pd.to_timedelta(x, unit="min"), index=index)
    if number_format == "time":
        t = pd.Series(pd.to_datetime(x, unit="m"), index=index).dt.time
        return t.astype(object).where(pd.notna(x), None)
    if (levels := format_levels(number_format)) is not None:  # ordered levels: a pandas
        codes = np.where(np.isnan(x), -1, np.nan_to_num(x, nan=-1)).astype(int)  # ordered Categorical
        return pd.Series(pd.Categorical.from_codes(codes, levels, ordered=True), index=index)
    return pd.Series(x, index=index)


def _days(s: pd.Series, date_format: str = "ISO8601") -> np.ndarray:
    """Days since 1970-01-01 (UTC; fractions for the time of day) of dates, or of text written
    as `date_format` or as an Excel serial day number among them (`_serial_days`); NaN where
    missing or not such a date."""
    if not pd.api.types.is_datetime64_any_dtype(s.dtype):  # each distinct value read once
        codes, uniq = pd.factorize(s.astype(object), use_na_sentinel=True)
        text = pd.Series(uniq, dtype=object).map(lambda v: v.strip() if isinstance(v, str) else v)
        if "%p" in date_format:  # 02:05pm, 2:05 p.m. → 02:05 PM, as %p reads it
            text = text.map(lambda v: re.sub(_AMPM, r" \1M", v).upper()
                            if isinstance(v, str) else v)
        read = _days(pd.Series(pd.to_datetime(text, format=date_format, errors="coerce",
                                              utc=True)))
        if (unread := np.isnan(read)).any():  # 44932 among dates: Excel's serial day number
            read = read.copy()  # only the values no date format read are tried as serials
            read[unread] = _serial_days(text[unread])
        return np.where(codes >= 0, read[np.maximum(codes, 0)] if len(read) else np.nan, np.nan)
    if s.dt.tz is None:
        s = s.dt.tz_localize("UTC")
    return ((s - _EPOCH) / pd.Timedelta(days=1)).to_numpy(dtype=float, na_value=np.nan)


SAMPLE = 1000
"""Values looked at first when deciding a column's format: a format the head of a column
does not fit is not tried on the whole column (the decision is still the whole column's)."""


def date_format(s: pd.Series) -> str | None:
    """The `DATE_FORMATS` entry every present value of a text column is written in, or None."""
    vals = s.dropna()
    if len(vals) == 0 or pd.api.types.infer_dtype(vals, skipna=True) != "string":
        return None
    return _date_style(pd.Series(vals.to_numpy(dtype=object)).str.strip())


def _date_style(u: pd.Series) -> str | None:
    """`date_format` of present values as stripped text (Excel's serial day numbers may stand
    among them, `_serial_days`; the dates written as text decide the format)."""
    if not _date_shaped(u.head(SAMPLE)).all() or not _date_shaped(u).all():
        return None  # the head first: most text columns are no dates
    dated = u[u.str.fullmatch(_DATE_LIKE).to_numpy(dtype=bool)]
    if dated.empty:
        return None
    ampm = bool(dated.str.match(r".*\d" + _AMPM).any())  # only %p formats read an AM/PM
    return next((d for d in DATE_FORMATS if ("%p" in d) == ampm
                 and not np.isnan(_days(dated.head(SAMPLE), d)).any()
                 and not np.isnan(_days(u, d)).any()), None)


def _date_shaped(u: pd.Series) -> np.ndarray:
    """Per value (stripped text): written like a date, or like an Excel serial day number."""
    return (u.str.fullmatch(_DATE_LIKE) | u.str.fullmatch(_EXCEL_SERIAL)).to_numpy(dtype=bool)


def _clock_style(u: pd.Series, name: Any = None) -> str | None:
    """"time" or "duration" (`CLOCK_FORMATS`) when every value of `u` (present, stripped
    text) is written as one, else None; the head first (`SAMPLE`), most columns are neither.
    A column whose every value is a number with a bare "m" (1.8m, 100 m) is no duration: that
    is how metres are written too, and its bins would read <1m 38s. Hours and minutes
    (26:30:00, 00:45) are a duration when an hour is 24 or more, or the header `name` names a
    length of time ('length of stay', 'duration'), else times of day."""
    if u.head(SAMPLE).str.fullmatch(_HOURS).all() and (hm := u.str.fullmatch(_HOURS)).all() and (
            names_a_duration(name) or (u[hm].str.extract(r"^(\d+)", expand=False)
                                       .astype(float) >= 24).any()):
        return "duration"
    for fmt in ("time", "duration"):
        if _clock_shaped(u.head(SAMPLE), fmt).all() and _clock_shaped(u, fmt).all():
            if fmt == "duration" and (u.str.fullmatch(_METRES_OR_MINUTES, case=False).all()
                                      or _one_long_unit(u)):
                return None
            return MONTHS_DURATION if fmt == "duration" and _months_column(u) else fmt
    return None


def _months_column(u: pd.Series) -> bool:
    """Whether a column of lengths of time (present, stripped text) reads every bare m as
    months (`MONTHS_DURATION`): some value holds years, some a bare m ('8m', '5y 3m'), and none
    days, hours, seconds, 26:30-style hours or an m written out as minutes ('10 min')."""
    m = u.str.extract("^" + _DURATION + "$", flags=re.IGNORECASE)
    bare = u.str.contains(_BARE_M, regex=True).to_numpy(dtype=bool)
    return bool(m["y"].notna().any() and bare.any() and m[["d", "h", "s"]].isna().all(axis=None)
                and not (m["m"].notna().to_numpy() & ~bare).any()
                and not u.str.fullmatch(_HOURS).any())


def _one_long_unit(u: pd.Series) -> bool:
    """Whether lengths of time are all written in one of years, months or weeks ('3 years',
    '4 yrs'): numbers in that unit (`unit:yr`, bins in years), not minutes binned in days;
    mixed with another part ('2 weeks', '5 months', '3 days') they are a duration."""
    parts = u.str.extract("^" + _DURATION + "$", flags=re.IGNORECASE)
    used = {k for k in parts.columns if parts[k].notna().any()}
    return len(used) == 1 and used <= {"y", "mo", "w"}


def _clock_shaped(v: pd.Series, clock: str) -> np.ndarray:
    """Per value (stripped text): written as `clock` ("time" or "duration", with a number;
    a duration also as hours and minutes, 26:30:00)."""
    if clock == "time":
        ok = v.str.fullmatch(_TIME)
    else:
        ok = (v.str.fullmatch(_DURATION, case=False) & v.str.contains(r"\d\s*[A-Za-z]")
              ) | v.str.fullmatch(_HOURS)
    return ok.fillna(False).to_numpy(dtype=bool)


def _months_after_years(text: pd.Series, m: pd.DataFrame) -> np.ndarray:
    """Where `text` (stripped cells; `m`: their `_DURATION` parts) has a bare m that is months
    (`_BARE_M`: a cell of years and no days, hours or seconds, '5y 3m'): `_minutes`' one test,
    which `months_said` says beside the cells whose bare m stays minutes."""
    return (m["y"].notna() & m[["d", "h", "s"]].isna().all(axis=1)
            & text.str.contains(_BARE_M, regex=True)).to_numpy(dtype=bool)


def _minutes(s: pd.Series, clock: str) -> np.ndarray:
    """Minutes of text written as `clock` ("time": since midnight; "duration": in all); NaN
    where missing or not so written. Each distinct value is read once."""
    codes, uniq = pd.factorize(s.astype(object), use_na_sentinel=True)
    text = pd.Series(uniq, dtype=object).map(lambda v: v.strip() if isinstance(v, str) else "")
    if clock == "time":
        m = text.str.extract(r"^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*([AaPp])?\.?[Mm]?\.?$")
        ok = _clock_shaped(text, "time")
        h = pd.to_numeric(m[0], errors="coerce").to_numpy(dtype=float)
        ampm = m[3].fillna("").str.lower().to_numpy(dtype=object)
        h = np.where(ampm == "p", h % 12 + 12, np.where(ampm == "a", h % 12, h))
        read = (h * 60 + pd.to_numeric(m[1], errors="coerce").to_numpy(dtype=float)
                + pd.to_numeric(m[2], errors="coerce").fillna(0).to_numpy(dtype=float) / 60)
    else:
        m = text.str.extract("^" + _DURATION + "$", flags=re.IGNORECASE)
        ok = _clock_shaped(text, "duration")
        read = sum(pd.to_numeric(m[k], errors="coerce").fillna(0).to_numpy(dtype=float) * per
                   for k, per in _DURATION_MINUTES.items())
        months = _months_after_years(text, m)  # 5y 3m; 8m too where the column decided so
        if clock == MONTHS_DURATION:
            months = months | (m[["d", "h", "s"]].isna().all(axis=1)
                       & text.str.contains(_BARE_M, regex=True)).to_numpy(dtype=bool)
        read = read + np.where(months, pd.to_numeric(m["m"], errors="coerce").fillna(0)
                               .to_numpy(dtype=float) * (_DURATION_MINUTES["mo"] - 1.0), 0.0)
        hm = text.str.extract(r"^(\d+):(\d{2})(?::(\d{2}(?:\.\d+)?))?$").apply(
            pd.to_numeric, errors="coerce").to_numpy(dtype=float)  # 26:30:00 → 1590
        read = np.where(np.isnan(hm[:, 0]), read,
                        hm[:, 0] * 60 + hm[:, 1] + np.nan_to_num(hm[:, 2]) / 60)
    read = np.where(ok, read, np.nan)
    return np.where(codes >= 0, read[np.maximum(codes, 0)] if len(read) else np.nan, np.nan)


def clock_text(minutes: float, clock: str) -> str:
    """Minutes written as `clock` writes them: 510 → 08:30 ("time"), 150 → 2h30m (one word,
    so a rule's comparison `wait >= 2h30m` reads it back, and it reads as the column did)."""
    secs = int(round(float(minutes) * 60))
    if clock == "time":
        h, rest = divmod(secs, 3600)
        mm, ss = divmod(rest, 60)
        return f"{h:02d}:{mm:02d}" + (f":{ss:02d}" if ss else "")
    sign, secs = ("-" if secs < 0 else ""), abs(secs)  # −30 minutes: -30m, not -1d23h30m
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    mm, ss = divmod(rest, 60)
    parts = [f"{v}{u}" for v, u in ((d, "d"), (h, "h"), (mm, "m"), (ss, "s")) if v]
    return sign + "".join(parts) if parts else "0m"


def date_cuts(cuts: Sequence[float], x: np.ndarray, finer: float = 86400.0) -> np.ndarray:
    """Cut points of a date column moved up to the data's resolution (a whole day when every
    value is one, else a whole second), so that bins read as dates and split the values as
    before: a cut c with lo < c ≤ hi between neighbouring values stays in (lo, hi]. `finer`:
    the units of the next resolution in one (86400 seconds a day; 60 a minute for clocks)."""
    c = np.asarray(cuts, dtype=float)
    v = np.asarray(x, dtype=float)
    v = v[np.isfinite(v)]
    per = 1.0 if np.all(np.floor(v) == v) else finer
    return np.unique(np.ceil(c * per - 1e-6) / per)


def held_cuts(cuts: Sequence[float], x: np.ndarray, number_format: str) -> np.ndarray:
    """Cut points moved to the data's resolution where their labels write it: dates (whole
    days or seconds, `date_cuts`), times of day and lengths of time (whole minutes or
    seconds: 880.5 → 14h41m, not 14h40m30s); plain numbers as they are."""
    if is_date_format(number_format):
        return date_cuts(cuts, x)
    if number_format in CLOCK_FORMATS:
        return date_cuts(cuts, x, 60.0)
    if format_levels(number_format) is not None:  # between two levels: at the upper one
        return np.unique(np.ceil(np.asarray(cuts, dtype=float)))
    return np.asarray(cuts, dtype=float)


def date_text(days: float) -> str:
    """A day count as ISO text: 2021-03-04, with the time when it has one (13:30, 13:30:15)."""
    ts = (_EPOCH + pd.Timedelta(days=float(days))).round("s").tz_localize(None)
    if ts == ts.normalize():
        return ts.strftime("%Y-%m-%d")
    return ts.strftime("%Y-%m-%d %H:%M" if ts.second == 0 else "%Y-%m-%d %H:%M:%S")
_THOUSANDS = r"[+-]?\d{1,3}(?:,\d{3})*(?:\.\d+)?"
_DECIMAL_COMMA = r"[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?"
_AMBIGUOUS = r"[+-]?\d{1,3}(?:,\d{3})?"  # 1,234: a thousand and 1.234 alike
_EXPONENT = r"(?<=\d)[eE][+-]?\d{1,3}$"  # scientific notation's power of ten (1,2E-3)
_DOT_GROUPS = r"[+-]?(?:[1-9]\d{0,2}(?:\.\d{3})+|\d+)"  # 1.234.567 or 12: a thousand, or 1.234?


def _numbers(s: pd.Series, number_format: str = "plain", censored: bool = False
             ) -> tuple[np.ndarray, np.ndarray]:
    """Float values (NaN where missing) and a mask of present values that are not numbers
    (text read as `number_format`, one of `NUMBER_FORMATS`; `censored`: a cell written beyond
    a bound, "<5" or "≥ 2000", read just past its bound, `censored_sides`)."""
    if censored and not pd.api.types.is_numeric_dtype(s.dtype):
        side, bounds = censored_sides(s)
        if side.any():
            x, bad = _numbers(bounds, number_format)
            return nudged(x, side), bad
    if pd.api.types.is_bool_dtype(s.dtype):
        raise DataError(f"column {str(s.name)!r} is boolean, not numeric")
    if (levels := format_levels(number_format)) is not None:
        return _level_numbers(s, levels), np.zeros(len(s), dtype=bool)
    if (clock := held_clock(s)) is not None:  # timedeltas, times of day: their minutes
        return held_minutes(s, clock), np.zeros(len(s), dtype=bool)
    if pd.api.types.is_numeric_dtype(s.dtype):
        v = s.to_numpy(dtype=float, na_value=np.nan)
        return v - (_EXCEL_DAY0 if number_format == EXCEL_DATE else 0.0), np.zeros(len(v), bool)
    if s.dtype == object and number_format in ("plain", "decimal-point"):
        vals = s.to_numpy()
        if pd.api.types.infer_dtype(vals, skipna=True) == "floating":
            # floats held as objects (the estimator's frame): the numbers `to_numeric` reads,
            # without its parse (a fit reads each numeric column so several times)
            present = pd.notna(vals)
            v = np.full(len(vals), np.nan)
            v[present] = vals[present].astype(float)
            return v, np.zeros(len(v), dtype=bool)
    if is_date_format(number_format) or holds_dates(s):
        if not is_number_format(number_format):
            raise DataError(f"number format must be one of {NUMBER_FORMATS}, got "
                            f"{number_format!r}")
        num = _days(s, number_format[5:] if is_date_format(number_format)  # serials as text:
                    and number_format != EXCEL_DATE else "ISO8601")  # `_serial_days`
        return num, np.isnan(num) & s.notna().to_numpy()
    if number_format in CLOCK_FORMATS:
        num = _minutes(s, number_format)
        return num, np.isnan(num) & s.notna().to_numpy()
    obj = s.astype(object)
    if number_format not in ("plain", "decimal-point"):  # decimal-point reads plainly
        obj = _plain_text(obj, number_format)
    num = pd.to_numeric(obj, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    bad = np.isnan(num) & s.notna().to_numpy()  # text "nan" counts as not a number
    if bad.any() and (plain := _ascii_minus(s, bad)) is not None:
        return _numbers(plain, number_format)
    if bad.any() and (plain := _approximate(s, bad)) is not None:
        return _numbers(plain, number_format)
    return num, bad


_APPROX = r"(?i)\s*(?:~|≈|∼|(?:ca|approx|circa|about)\.?\s)\s*(?=[+-]?[$€£¥]?\s*[.,]?\d)"
"""A number written as approximate, as notes and exports write an estimate: '~53.7', '≈ 5',
'ca. 5', 'approx. 120', 'about 3' — the number it marks, read as that number and said
(`approximate_said`); it left a number column out as text (reading26)."""


_APPROX_MARKS = ("~", "≈", "∼", "ca", "about")  # what every `_APPROX` cell holds (approx, circa: ca)
_APPROX_ANY = re.compile(r"(?i)(?:^|\x00)\s*(?:~|≈|∼|ca|approx|circa|about)")


def approximate_cells(values: pd.Series) -> np.ndarray:
    """Per cell: text written as approximate (`_APPROX`). One search over the column's joined
    text first: most columns hold none, and a pandas str method on each was most of a binned
    column's `cells_said` (9.7 of 13.5 ms on 25,000 cells)."""
    none = np.zeros(len(values), dtype=bool)
    if not (values.dtype == object or isinstance(values.dtype, pd.StringDtype)):
        return none
    v = values.to_numpy(dtype=object)
    try:  # text and missing cells (most columns): joined at C speed
        joined = "\x00".join(v[pd.notna(v)]).casefold()
    except TypeError:  # numbers or dates among the text
        joined = "\x00".join(x for x in v if isinstance(x, str)).casefold()
    if not any(m in joined for m in _APPROX_MARKS) or not _APPROX_ANY.search(joined):
        return none
    return np.fromiter((isinstance(x, str) and re.match(_APPROX, x) is not None for x in v),
                       dtype=bool, count=len(v))


def _approximate(s: pd.Series, bad: np.ndarray) -> pd.Series | None:
    """`s` with the approximate marks (`_APPROX`) of its `bad` cells (not read as numbers)
    taken off, when one holds one (only then is the column looked at), else None."""
    vals = s.to_numpy(dtype=object)
    marked = [v for v in pd.unique(vals[bad]) if isinstance(v, str) and re.match(_APPROX, v)]
    if not marked:
        return None
    plain = {v: re.sub(_APPROX, "", v, count=1) for v in marked}  # at its start: matched there
    return pd.Series([plain.get(v, v) if isinstance(v, str) else v for v in vals],
                     index=s.index, name=s.name, dtype=object)


_MINUS = "\u2212"
"""The minus sign of typeset text ("−5.0", U+2212, as Word, LaTeX and many reports write it):
a '-' to every reader of numbers, so read as one (the number is the same: nothing to say)."""


def _ascii_minus(s: pd.Series, bad: np.ndarray) -> pd.Series | None:
    """`s` with every typeset minus written '-', when a `bad` cell (not read as a number)
    holds one (only then is the column looked at), else None."""
    vals = s.to_numpy(dtype=object)
    if not any(isinstance(v, str) and _MINUS in v for v in pd.unique(vals[bad])):
        return None  # (each distinct bad cell once: a column of codes is all bad cells)
    out = np.array([v.replace(_MINUS, "-") if isinstance(v, str) else v for v in vals],
                   dtype=object)
    return pd.Series(out, index=s.index, name=s.name, dtype=object)


def _plain_text(obj: pd.Series, number_format: str) -> pd.Series:
    """Text numbers written as `number_format` rewritten plainly ("1.234,5" → "1234.5"); a
    value that does not fit the format becomes text no number reads (so it is named)."""
    if not is_number_format(number_format):
        raise DataError(f"number format must be one of {NUMBER_FORMATS} (or a unit: 'unit:mg'), "
                        f"got {number_format!r}")
    t = obj.map(lambda v: v.strip() if isinstance(v, str) else v, na_action="ignore")
    text = t.map(lambda v: isinstance(v, str)).astype(bool)
    out = t.copy()
    u = t[text].astype(str)
    unit = number_format.split("+")[-1]
    if unit in _UNITS or unit.startswith(UNIT_PREFIX):
        u = _strip_unit(u, unit)
    spaced = u.str.contains(r"\d[ \u00a0\u202f\u2009]\d", regex=True)
    ok_spaces = ~spaced | u.str.fullmatch(_SPACED)
    u = u.str.replace(_GROUP_SPACE, "", regex=True).where(ok_spaces, "not a number")
    if number_format.startswith("spaced"):
        u = u.where(u.str.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"), "not a number")
    elif number_format.startswith("thousands"):
        ok = u.str.fullmatch(_THOUSANDS)
        u = u.str.replace(",", "", regex=False).where(ok, "not a number")
    elif number_format.startswith("decimal-comma"):
        exponent = u.str.extract(f"({_EXPONENT})", expand=False).fillna("")  # 1,2E-3
        u = u.str.replace(_EXPONENT, "", regex=True)
        ok = u.str.fullmatch(_DECIMAL_COMMA) & ((exponent == "") | u.str.fullmatch(r"[+-]?\d*,?\d+"))
        u = u.str.replace(".", "", regex=False).str.replace(",", ".", regex=False) + exponent
        u = u.where(ok, "not a number")
    elif number_format.startswith("dot-thousands"):
        u = u.str.replace(".", "", regex=False).where(u.str.fullmatch(_DOT_GROUPS), "not a number")
    out[text] = u
    return out


def _strip_unit(u: pd.Series, unit: str) -> pd.Series:
    """Text numbers without their `_UNITS` sign ("12 %" → "12", "-$5" → "-5") or unit of
    measurement in any of its writings (`unit_key`; "unit:mg": "12 mg", "12 mgs" → "12")."""
    if unit.startswith(UNIT_PREFIX):  # each distinct text looked at once (a column repeats them)
        key = unit_key(unit.removeprefix(UNIT_PREFIX))
        codes, texts = pd.factorize(u)
        bare = pd.Series(texts, dtype=object).str.replace(
            rf"\s*({_UNIT_TEXT})$", lambda m: "" if unit_key(m.group(1)) == key else m.group(0),
            regex=True)
        return pd.Series(np.append(bare.to_numpy(dtype=object), np.nan)[codes], index=u.index,
                         name=u.name, dtype=object)
    for rx in _UNITS[unit]:
        u = u.str.replace(rx, "", regex=True)
    return u


_CASED_PREFIXES = frozenset("mMpPyYzZrRqQ")
"""SI prefixes whose case is their meaning: milli m / mega M, pico p / peta P, and the rarer
yocto/yotta, zepto/zetta, ronto/ronna, quecto/quetta. The other prefixes have no letter of
the other case (k kilo: "KG" is kg however written; G giga, µ micro …)."""
_SI_SYMBOLS = frozenset({"g", "m", "s", "l", "w", "v", "a", "hz", "j", "n", "pa", "mol", "b",
                         "bit", "byte", "wh", "ev", "ohm", "ω", "bar", "cal", "f", "h", "t", "c",
                         "k", "bq", "gy", "sv", "lm", "lx", "va", "var", "cd", "kat", "wb", "ah"})
"""Unit symbols an SI prefix is written before (casefolded): "mW" is a milliwatt, "MW" a
megawatt; "min", "mph", "mmHg", "mcg" are no prefix and a symbol."""
_PREFIX_LOOKALIKES = frozenset({"pa", "ph", "pt"})
"""Units that read as a cased prefix and a symbol and are none: pascal ("Pa", "pa"), pH, pint."""
_LOWER_SYMBOLS = frozenset({"g", "m", "s", "l", "mol"})
"""Symbols written in small letters that data write far more often after milli than mega: in
a writing all in capitals ("MG/DL", "MMOL/L", "MS", as some lab and logger exports write) the
case says nothing, and it reads as milli; "MW", "MHZ", "MB" (capital symbols) stay mega."""


def _cased_prefix(u: str) -> str | None:
    """The key of a unit written as an SI prefix whose case is its meaning and a symbol
    ("MW" → "Mw", "mW" → "mw", "mg/dL" → "mg/dl", "Mg" → "Mg"), with a plural 's' set aside
    ("MWs"); None for any other unit and for a writing all in capitals of a `_LOWER_SYMBOLS`
    symbol ("MG/DL"); "m" and "M" alone (metre against molar or million) are kept as written."""
    if u in ("m", "M"):
        return u
    if len(u) < 2 or u[0] not in _CASED_PREFIXES or u.casefold() in _PREFIX_LOOKALIKES:
        return None
    rest = u[1:].casefold()
    base = rest.partition("/")[0].rstrip("0123456789²³")
    if base not in _SI_SYMBOLS:
        if not (len(base) > 1 and base.endswith("s") and base[:-1] in _SI_SYMBOLS):
            return None
        rest, base = rest.replace(base, base[:-1], 1), base[:-1]
    if u == u.upper() and base in _LOWER_SYMBOLS:  # all capitals: "MG/DL" is mg/dL shouted
        return None
    return u[0] + rest


def unit_key(unit: str) -> str:
    """One key for every writing of a unit of measurement: case, spaces and a plural 's' set
    aside ("Kgs", "kg"; "mins", "min"; not "ms", milliseconds, against "m"), and the
    `_UNIT_WORDS` writings as their short form ("years", "yrs" → "yr"; "lbs", "pounds" → "lb").
    The case of an SI prefix that has a letter of each case is kept (`_cased_prefix`): milli
    is never mega ("mW" and "MW", "mg" and "Mg", "ms" and "Ms" are two units), while "KG",
    "Kg" and "kg" are one, and so are "MG/DL" and "mg/dL" (capitals throughout say nothing)."""
    if (cased := _cased_prefix(re.sub(r"\s+", "", unit))) is not None:
        return cased
    u = re.sub(r"\s+", "", unit).casefold()
    if u in _UNIT_ALIAS:
        return _UNIT_ALIAS[u]
    one = u[:-1] if len(u) > 2 and u.endswith("s") and u[-2].isalpha() else u
    return _UNIT_ALIAS.get(one, one)


DECIMAL_MARKS = (".", ",")
"""The decimal marks a user may name for a file (`plx fit --decimal`)."""


def reading_delimiter(delimiter: str | None, decimal: str | None = None) -> str | None:
    """The delimiter that settles how 1.234 and 1,234 read (`number_format`): the file's,
    unless the user named the decimal mark — ',' reads as a ';'-delimited file does (1.234 a
    thousand, 1,234 one and a bit), '.' as any other file (1.234 one and a bit)."""
    if decimal is None:
        return delimiter
    if decimal not in DECIMAL_MARKS:
        raise DataError(f"the decimal mark must be one of {' or '.join(map(repr, DECIMAL_MARKS))}, "
                        f"got {decimal!r}")
    return ";" if decimal == "," else DECIMAL_POINT


DECIMAL_POINT = "."
"""The reading delimiter of a file whose decimal mark the user named '.': 1.234 is one and a
bit, and 1,234 (not guessed in a ',' file) a thousand."""


def number_format(s: pd.Series, delimiter: str | None = None) -> str | None:
    """The one `NUMBER_FORMATS` entry other than "plain" that reads every present value of a
    text column as a number, or None (plain numbers, text, or values no one format reads).

    The whole column decides, and `delimiter` (the file's, when known) breaks the two ties
    a single value cannot: in a ';'-delimited file (as spreadsheets in much of Europe write
    CSV, with ',' as the decimal mark) a column whose every '.' is followed by exactly three
    digits (1.234, 12.345.678) reads '.' as the thousands separator ("dot-thousands"), and a
    column of 1,234-style values reads ',' as the decimal mark ("decimal-comma"). Elsewhere
    1,234-only columns stay text (a thousand, or 1.234: not guessed), a '.' before one group
    of three is the decimal point ("decimal-point", named so that the reading is said), and
    more than one '.' (1.234.567) can only separate thousands.
    """
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return None
    vals = s.dropna()
    if len(vals) == 0 or pd.api.types.infer_dtype(vals, skipna=True) != "string":
        return None
    u = pd.Series(vals.to_numpy(dtype=object)).str.strip()
    if (d := _date_style(u)) is not None:
        return f"date:{d}"
    if (clock := _clock_style(u, s.name)) is not None:
        return clock
    measures = measure_units(u)
    if len(measures) > 1:
        return None  # 5 mg beside 1 g: not one reading (`unread_numbers` says so)
    if measures.empty and not u.str.contains(r"[,.%$€£¥]|\d[ \u00a0\u202f\u2009]\d{3}",
                                           regex=True).any():
        return None  # nothing a format would change
    signs = u.str.contains(r"[%$€£¥]", regex=True).any()
    marked = {unit: signs and bool((_strip_unit(u, unit) != u).any()) for unit in _UNITS}
    if len(measures):
        marked[f"{UNIT_PREFIX}{measures.index[0]}"] = True
    if sum(marked.values()) > 1:
        return None  # percentages and money (or a unit) in one column: not one format
    unit = next((k for k, v in marked.items() if v), None)
    core = u if unit is None else _strip_unit(u, unit)
    spaced = core.str.contains(r"\d[ \u00a0\u202f\u2009]\d", regex=True)
    if spaced.any():  # 1 234,5: every spaced value in groups of three, the spaces dropped
        if not core[spaced].str.fullmatch(_SPACED).all():
            return None
        core = core.str.replace(_GROUP_SPACE, "", regex=True)
    if core.str.contains(_EXPONENT, regex=True).any():  # 1,2E-3: ',' can only be a decimal mark
        mantissa = core.str.replace(_EXPONENT, "", regex=True)
        if not (mantissa.str.fullmatch(r"[+-]?\d*,?\d+").all() and mantissa.str.contains(",").any()):
            return None  # 1.2E-3 reads plainly; anything else is no one format
        core, fmt = mantissa, "decimal-comma"
    elif not core.str.fullmatch(r"[+-]?[\d.,]+").all():
        return None
    else:
        fmt = _number_style(core, delimiter)
    if fmt is None:
        return None
    if fmt == "plain" and spaced.any():
        fmt = "spaced"
    if unit is not None:
        fmt = unit if fmt == "plain" else f"{fmt}+{unit}"
    return None if fmt == "plain" else fmt


def measure_units(u: pd.Series) -> pd.Series:
    """How many text values of `u` are written in each unit of measurement ("12 mg" → "mg",
    `_MEASURE`), most used first; empty when none carries one."""
    t = u.astype(str).str.strip()
    found = t.str.fullmatch(_MEASURE).fillna(False).to_numpy(dtype=bool)
    if not found.any():
        return pd.Series(dtype=int)
    written = t[found].str.extract(rf"^{_MEASURE}$", expand=False).value_counts()
    by = pd.DataFrame({"n": written.to_numpy(), "w": written.index,
                       "key": [unit_key(w) for w in written.index]})
    by = by.sort_values(["n", "w"], ascending=[False, True], kind="stable")
    n = by.groupby("key", sort=False)["n"].sum()  # one unit, however written: its most used
    return pd.Series(n.to_numpy(), index=by.drop_duplicates("key")["w"].to_numpy(),
                     name="count").sort_values(ascending=False, kind="stable")


def _dot_style(core: pd.Series, delimiter: str | None) -> str | None:
    """"dot-thousands" or "decimal-point" when every value of `core` (stripped text, no ',')
    is digits with '.' only between groups of three (1.234, 12, 1.234.567) and one has a '.';
    else None (see `number_format` for the rule). The head is looked at first (`SAMPLE`)."""
    for part in (core.head(SAMPLE), core):
        if not part.str.fullmatch(_DOT_GROUPS).all():
            return None
    dots = core.str.count(r"\.")
    if not dots.any():
        return None
    return "dot-thousands" if delimiter == ";" or dots.max() > 1 else "decimal-point"


def _number_style(core: pd.Series, delimiter: str | None) -> str | None:
    """The style ("plain" or one of `_STYLES`) that reads every value of `core` (digits, '.'
    and ',' only), or None (see `number_format` for the rule)."""
    if not core.str.contains(",", regex=False).any():
        return _dot_style(core, delimiter) or (
            "plain" if pd.to_numeric(core, errors="coerce").notna().all() else None)
    if core.str.fullmatch(_AMBIGUOUS).all():
        return {";": "decimal-comma", DECIMAL_POINT: "thousands"}.get(delimiter or "")
    fits = [f for f, rx in (("thousands", _THOUSANDS), ("decimal-comma", _DECIMAL_COMMA))
            if core.str.fullmatch(rx).all()]
    return fits[0] if len(fits) == 1 else None


#: A censored value, as labs write one beyond their limits of detection: a sign and its bound
#: ("<5", "< 0.1", ">100", ">= 2000", "≤0,5", "=<3"); the bound read as the column's numbers.
_CENSORED = r"\s*(<=|>=|=<|=>|≤|≥|<|>)\s*(\S(?:.*\S)?)\s*"
_BELOW = ("<", "<=", "=<", "≤")


def censored_sides(s: pd.Series) -> tuple[np.ndarray, pd.Series]:
    """(per cell -1 for a value below a bound: "<5", "≤ 0.5"; +1 above: ">100", ">=2000"; 0
    otherwise, and the column with those cells' signs taken off: "5", "100"). Each distinct
    text is looked at once (a lab column repeats its few censored texts many times)."""
    side = np.zeros(len(s), dtype=np.int8)
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return side, s
    codes, uniq = pd.factorize(s.astype(object).to_numpy())  # missing: code -1
    u = pd.Series(uniq, dtype=object)
    # only text can be censored: an object column of numbers (or dates) has no str methods
    is_text = np.fromiter((isinstance(v, str) for v in uniq), dtype=bool, count=len(uniq))
    if not is_text.any():
        return side, s
    text = np.zeros(len(u), dtype=bool)
    text[is_text] = u[is_text].str.contains("[<>≤≥]", regex=True).to_numpy(dtype=bool)
    if not text.any():
        return side, s
    m = u[text].astype(str).str.extract(rf"^{_CENSORED}$")
    hit = m[0].notna().to_numpy()
    if not hit.any():
        return side, s
    at = np.flatnonzero(text)[hit]
    u_side = np.zeros(len(u) + 1, dtype=np.int8)  # the last entry: missing cells (code -1)
    u_side[at] = np.where(m[0].isin(_BELOW).to_numpy()[hit], -1, 1)
    side = u_side[codes]
    bound = np.empty(len(u) + 1, dtype=object)
    bound[at] = m[1].to_numpy(dtype=object)[hit]
    vals = s.astype(object).to_numpy().copy()
    cens = side != 0
    vals[cens] = bound[codes[cens]]
    return side, pd.Series(vals, index=s.index, name=s.name, dtype=object)


_OFFSET = r"\d[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?[+-]\d{2}:?\d{2}$"
"""A time written with its offset from UTC ('2023-05-27T18:00:00+02:00')."""


def offsets_said(frame: pd.DataFrame, bins: Mapping[str, Binning],
                 parted: Iterable[str] = ()) -> str | None:
    """Which date columns hold times written with an offset from UTC (13:30+02:00: an export
    across summer and winter time), read at their instant in UTC as their bins print them —
    one sentence for the table, not one a column; None when none does. `parted`: the columns
    whose month / weekday are derived (`Schema.parted`): those are UTC's too (reading24's
    tz_stamps: 21:30-05:00 on a Friday is Saturday in UTC), said."""
    cols = [f for f, b in bins.items() if b.number_format == DATE_ISO and f in frame.columns
            and not holds_dates(frame[f]) and as_strings(frame[f]).str.strip().str.contains(
                _OFFSET, regex=True).fillna(False).any()]
    if not cols:
        return None
    names = ", ".join(map(repr, cols[:6])) + (f" and {len(cols) - 6} more" if len(cols) > 6 else "")
    parts = ("; so are the month, weekday and hour derived from them: near midnight the day in UTC "
             "is not the day written (21:30-05:00 on a Friday is Saturday 02:30 in UTC)"
             if set(cols) & set(parted) else "")
    return (f"column{'s' * (len(cols) > 1)} {names}: times written with an offset from UTC "
            f"(13:30+02:00) are read at their instant in UTC (11:30), as the bins print them{parts}")


def serial_cells(values: pd.Series) -> tuple[int, str] | None:
    """How many cells of a column of text are Excel's serial day numbers in `EXCEL_DAYS`
    (`_serial_days`), with the first as an example ("'44932' → 2023-01-06"); None when none."""
    text = values.map(lambda v: v.strip() if isinstance(v, str) else v)
    days = _serial_days(text)
    hit = ~np.isnan(days)
    if not hit.any():
        return None
    i = int(np.flatnonzero(hit)[0])
    return int(hit.sum()), f"{text.iloc[i]!r} → {date_text(days[i])}"


def serials_said(values: pd.Series, binning: Binning) -> str | None:
    """How many cells of a column of dates written as text were Excel's serial day numbers
    instead (44932: a cell Excel did not format as a date), read as the days they count
    (`_serial_days`), with an example; None when none (or the column is no such column)."""
    if not is_date_format(binning.number_format) or binning.number_format == EXCEL_DATE or \
            pd.api.types.is_numeric_dtype(values.dtype) or holds_dates(values):
        return None
    if (found := serial_cells(values)) is None:
        return None
    return (f"{counted(found[0], 'cell')} written as Excel's serial day numbers ({found[1]}) among its "
            "dates, read as the days they count from 1899-12-30, as Excel does")


def nudged(x: np.ndarray, side: np.ndarray) -> np.ndarray:
    """Censored bounds read just past themselves ("<5" → the float just below 5, "≥2000" just
    above 2000), so each cell falls in the bin holding the values next to its bound on its
    side — the same bin at fit and at predict, whatever the cut points — and the others as
    they are. A cell whose side holds a cut point may lie in another bin (`censored_said`)."""
    if not side.any():
        return x
    return np.where(side < 0, np.nextafter(x, -np.inf),
                    np.where(side > 0, np.nextafter(x, np.inf), x))


def censored_shown(values: pd.Series, side: np.ndarray) -> str:
    """A column's censored cells (`censored_sides`' `side` not 0) as the texts it writes, most
    frequent first, with their counts: "'<0.1' ×82, '>500' ×3" — the column's own, never an
    example's."""
    texts = as_strings(values[side != 0]).str.strip().value_counts()
    shown = ", ".join(f"{t!r} ×{n:,}" for t, n in texts.head(STRAY_VALUES).items())
    return shown + (f", … ({len(texts)} texts)" if len(texts) > STRAY_VALUES else "")


def stray_said(values: pd.Series, binning: Binning, shown: int = 3) -> str | None:
    """Which rows hold the column's text read as missing (`Binning.text_missing`, '4..1' in a
    column of numbers: a typing slip to find in the file), named as messages name rows
    (`row_name`: a file's line and data row); None when none. The reading itself is said by
    `Binning.reading`."""
    if not binning.text_missing:
        return None
    text = as_strings(values).str.strip()
    parts = []
    for t in binning.text_missing:
        at = np.flatnonzero((text == str(t).strip()).to_numpy())
        if len(at):
            named = ", ".join(row_name(values.index, int(i)) for i in at[:shown])
            more = f" and {len(at) - shown} more" if len(at) > shown else ""
            parts.append(f"{t!r} on {named}{more}")
    if not parts:
        return None
    other = "a date" if is_date_format(binning.number_format) else "a number"
    return f"text read as missing, not {other}: {'; '.join(parts)} (check these cells)"


def censored_said(values: pd.Series, binning: Binning) -> str | None:
    """How a column's censored cells were read (`Binning.censored`, or as `Binning.apply`
    reads them in new rows of a column that had none at fit): how many, as which text, and
    which of them may lie in another bin than the one next to their bound (a cut point beyond
    it: "<5" with a cut at 3 lies in [3, 5) or below 3); None when none."""
    if not binning.censored and (is_date_format(binning.number_format)
                                 or binning.number_format in CLOCK_FORMATS):
        return None  # `apply` reads no censored cell in a date or clock column
    if binning.text_missing:  # read as missing, not as beyond a bound
        values = values.mask(as_strings(values).isin(binning.text_missing).to_numpy())
    side, bounds = censored_sides(values)
    if not side.any():
        return None
    x = _numbers(bounds, binning.number_format)[0]
    cuts = np.asarray(binning.cuts, dtype=float)
    out = (f"{counted(int((side != 0).sum()), 'cell')} written beyond a bound ({censored_shown(values, side)}) "
           "read just past it: each in the bin that holds the values next to its bound on its side")
    if len(cuts):
        unsure = ((side < 0) & (x > cuts.min())) | ((side > 0) & (x < cuts.max()))
        if unsure.any():
            ex = as_strings(values[unsure]).str.strip().value_counts()
            out += (f"; {int(unsure.sum())} of them ({', '.join(map(repr, ex.index[:3]))}"
                    f"{' …' if len(ex) > 3 else ''}) may lie in a bin further out, as a cut "
                    "point falls beyond their bound: kept in the bin next to it, not made "
                    "missing")
    return out


def _reads_marks(number_format: str) -> bool:
    """Whether a column read as `number_format` reads a mark after its numbers: '%' or a unit."""
    return "percent" in number_format or number_format.split("+")[-1].startswith(UNIT_PREFIX)


def _unmarked(text: pd.Series, binning: Binning) -> pd.Series | None:
    """Where a column's present cells (stripped `text`) carry no '%' among percentages, or no
    unit among a unit's ('850' beside '1.2K'): the cells `unmarked_said` speaks of and a long
    file's blocks keep for it (`said_cells`); None when the column reads neither."""
    if not _reads_marks(binning.number_format):
        return None
    marked = text.str.endswith("%", na=False) if "percent" in binning.number_format else \
        text.str.contains(r"[^\W\d_]|[°µ]", regex=True, na=False)
    return text.notna() & (text != "") & ~text.isin(binning.text_missing) & ~marked


def unmarked_said(values: pd.Series, binning: Binning) -> str | None:
    """How many cells of a column read as percentages, or in a unit, carry no '%' or unit
    ('0.45' beside '45%', '850' beside '1.2K'), read as that many of it (0.45 %, 850 K), with
    an example: a column that writes some values without the mark may mix two scales (a share
    as a fraction; K a thousand beside plain counts), which no reading can tell apart — said,
    not guessed; None when every present cell carries it (or the column reads neither)."""
    text = as_strings(values).str.strip()
    if (bare := _unmarked(text, binning)) is None or not bare.any():
        return None
    percent = "percent" in binning.number_format
    unit = "%" if percent else _unit_of(binning.number_format)
    x = _numbers(values[bare], binning.number_format)[0]
    ok = ~np.isnan(x)
    if not ok.any():
        return None
    first = text[bare][ok].iloc[0]
    if percent:
        why = " (all between 0 and 1: if they are fractions, 0.45 = 45 %, write them as 45%)" \
            if np.nanmax(np.abs(x)) <= 1 else ""
    else:  # K, M, B after counts: a thousand, a million, a billion — another scale
        why = (f" (if {unit} stands for a thousand, a million or a billion, the two scales are "
               "out of order: write every cell as a plain number)"
               if unit in ("K", "k", "M", "MM", "B", "bn", "mn") else "")  # not m, metres
    many = "percent" if percent else unit
    return (f"{counted(int(ok.sum()), 'cell')} written without '{unit}' ({first!r}) read as "
            f"that many {many} ({first} {unit}), as the others are{why}")


def months_said(values: pd.Series, binning: Binning) -> str | None:
    """How many cells of a column of lengths of time read a bare m as minutes ('8m') while
    others read it as months after years ('0y 6m', `_months_after_years`): a child's age
    written both ways, 8 months read as 8 minutes and below 6 months, which no reading of one
    cell can tell apart — said, not guessed; None when the column has not both."""
    if binning.number_format != "duration" or pd.api.types.is_numeric_dtype(values.dtype) \
            or pd.api.types.is_timedelta64_dtype(values.dtype):
        return None
    counts = as_strings(values).str.strip().value_counts()
    text = pd.Series(counts.index, dtype=object)
    m = text.str.extract("^" + _DURATION + "$", flags=re.IGNORECASE)
    months = _months_after_years(text, m)
    bare = (m["m"].notna() & m.drop(columns="m").isna().all(axis=1)
            & text.str.contains(_BARE_M, regex=True)).to_numpy(dtype=bool)
    if not months.any() or not bare.any():
        return None
    n = counts.to_numpy()
    a, b = text[bare].iloc[0], text[months].iloc[0]
    return (f"{counted(int(n[bare].sum()), 'cell')} with an m and no years ({a!r}) read as "
            f"minutes, though {counted(int(n[months].sum()), 'cell')} read the m after years as "
            f"months ({b!r}): if {a!r} means months, write it {re.sub(r'(?i)m$', 'mo', a)!r} "
            "to have it read as months")


def approximate_said(values: pd.Series, binning: Binning, shown: int = 2) -> str | None:
    """How many cells of a binned column were written as approximate ('~53.7', 'ca. 5':
    `_APPROX`) and read as the number they mark; None when none."""
    if pd.api.types.is_numeric_dtype(values.dtype) or is_date_format(binning.number_format) \
            or binning.number_format in CLOCK_FORMATS:
        return None
    marked = approximate_cells(values)
    if not marked.any():
        return None
    n = int(marked.sum())
    ex = ", ".join(repr(str(v).strip()) for v in pd.unique(values[marked].to_numpy())[:shown])
    return (f"{counted(n, 'cell')} written as approximate ({ex}) read as the number written; "
            "if an estimate should count apart from a measure, give it a column of its own")


def far_cells(values: pd.Series, binning: Binning) -> np.ndarray:
    """Per cell: a number far outside the training rows' (`Binning.span`): beyond it by more
    than its width, or below 0 where none was — age 300, a CRP of 1e9 or −5, mg for g: a slip
    or another unit the end bins would answer silently. Dates and clock times are not asked."""
    if binning.span is None or is_date_format(binning.number_format) \
            or binning.number_format in CLOCK_FORMATS:
        return np.zeros(len(values), dtype=bool)
    lo, hi = binning.span
    x = binning.numbers(values)
    with np.errstate(invalid="ignore"):
        return (x > hi + (hi - lo)) | (x < lo - (hi - lo)) | ((x < 0) & (lo >= 0))


def far_said(values: pd.Series, binning: Binning, shown: int = 3) -> str | None:
    """Which cells hold a number far outside the training rows' (`far_cells`), named as
    messages name rows, with the range and the bins that answer them; None when none."""
    far = np.flatnonzero(far_cells(values, binning))
    if not len(far):
        return None
    lo, hi = binning.span or (0.0, 0.0)
    named = ", ".join(f"{str(values.iloc[i]).strip()!r} on {row_name(values.index, int(i))}"
                      for i in far[:shown])
    more = f" and {len(far) - shown} more" if len(far) > shown else ""
    return (f"{counted(len(far), 'cell')} far outside the training rows' {fmt_number(lo)} … "
            f"{fmt_number(hi)} ({named}{more}): answered as the end bin it falls "
            f"in ({binning.labels[0]!r} or {binning.labels[-1]!r}); a typing slip or "
            "another unit? (check these cells)")


def cells_said(values: pd.Series, binning: Binning) -> str | None:
    """What was read of a binned column's cells beyond its format, in one clause: censored
    cells ('<5', `censored_said`), Excel serials among dates (`serials_said`), numbers
    without '%' among percentages or without the unit among a unit's (`unmarked_said`), an
    m read as minutes beside months after years (`months_said`), and where the text read as missing stands (`stray_said`),
    numbers far outside the training rows' (`far_said`); None when
    nothing. One home for plx fit, plx predict and the Data page."""
    said = [how for how in (stray_said(values, binning), censored_said(values, binning),
                            serials_said(values, binning), unmarked_said(values, binning),
                            months_said(values, binning), approximate_said(values, binning),
                            far_said(values, binning), unseen_levels_said(values, binning))
            if how]
    return "; ".join(said) or None


def unseen_levels_said(values: pd.Series, binning: Binning, shown: int = 3) -> str | None:
    """The cells of a column of ordered levels that are none of its levels ('90-100' where the
    fit saw up to '80+'): read as unknown, as an unseen category is; None when none."""
    if (levels := format_levels(binning.number_format)) is None:
        return None
    x = _level_numbers(values, levels)
    odd = np.isnan(x) & as_strings(values).notna().to_numpy()
    if binning.text_missing:
        odd &= ~as_strings(values).isin(binning.text_missing).to_numpy()
    if not odd.any():
        return None
    from .wording import unseen_levels_note

    return unseen_levels_note(int(odd.sum()), pd.unique(as_strings(values)[odd]).tolist()[:shown],
                              levels)


def whole_text(s: pd.Series) -> bool:
    """True when every present cell of `s` is a whole number written with digits alone (a
    sign and spaces aside): text that reads the same with either decimal mark, with or
    without thousands separators (`cli.Model.rows` decides a file's reading on other cells)."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return False
    text = s.dropna()
    return bool(text.astype(str).str.fullmatch(r"\s*[+-]?\d+\s*").all()) if len(text) else False


def said_cells(values: pd.Series, binning: Binning) -> pd.Series:
    """The cells of `values` `cells_said` speaks of (censored, Excel serials, numbers without
    '%' or their unit, a bare m among lengths of time, the text read as missing, numbers far
    outside the training rows'), in order:
    `cells_said` of these cells, gathered over a file's blocks, says what it says of the whole
    column (`plx predict` on a long file)."""
    keep = (censored_sides(values)[0] != 0) | far_cells(values, binning)
    if not (pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype)):
        keep |= _said_text_cells(values, binning)
    out = values[keep]
    name = values.index.name  # a file's lines: each kept cell keeps its data row (`row_name`)
    if name == "line" or (isinstance(name, tuple) and name[0] == "line"):
        first = 0 if name == "line" else name[1]
        out.index = pd.MultiIndex.from_arrays(
            [values.index[keep], first + np.flatnonzero(keep) + 1], names=["line", "data row"])
    return out


def _said_text_cells(values: pd.Series, binning: Binning) -> np.ndarray:
    """`said_cells`' cells of a text column beyond the censored and far ones."""
    keep = np.zeros(len(values), dtype=bool)
    if binning.text_missing:  # `stray_said`'s cells, each named by its row
        keep |= as_strings(values).str.strip().isin(
            [str(t).strip() for t in binning.text_missing]).to_numpy(dtype=bool)
    if (levels := format_levels(binning.number_format)) is not None:  # `unseen_levels_said`'s
        return keep | (np.isnan(_level_numbers(values, levels)) & values.notna().to_numpy())
    if not is_date_format(binning.number_format) and binning.number_format not in CLOCK_FORMATS:
        keep |= approximate_cells(values)
    dates, months = is_date_format(binning.number_format), binning.number_format == "duration"
    marks = _reads_marks(binning.number_format)
    if dates or marks or months:  # (a plain column's text is not looked at again)
        text = as_strings(values).str.strip()
        if dates:
            keep |= ~np.isnan(_serial_days(text))
        if marks:  # `unmarked_said`'s cells
            keep |= _unmarked(text, binning).to_numpy(dtype=bool)
        if months:  # `months_said`'s cells: a bare m
            keep |= text.str.contains(_BARE_M, regex=True, na=False).to_numpy(dtype=bool)
    return keep


STRAY_SHARE = 0.05
"""A number column may hold up to this share of text cells (and at most `STRAY_VALUES`
distinct texts, such as "unknown" or "<0.1"), read as missing; more text makes it a text column."""
STRAY_VALUES = 5


def _stray_text(s: pd.Series, bad: np.ndarray) -> tuple[str, ...]:
    """The distinct texts of the `bad` (not a number) cells of `s` when they are few enough to
    read as missing in a number column (`STRAY_SHARE`, `STRAY_VALUES`), else ()."""
    n_bad, present = int(bad.sum()), int(s.notna().sum())
    if n_bad == 0 or n_bad > STRAY_SHARE * present:
        return ()
    texts = sorted(set(as_strings(s[bad]).tolist()))
    return tuple(texts) if len(texts) <= STRAY_VALUES else ()


def _maybe_number(values: np.ndarray) -> np.ndarray:
    """Per distinct text: whether some reading of `_read_numbers` could take it as a number,
    a date, a time, a length of time or a censored bound (written like one: `_NUMBER_SHAPE`,
    `_DATE_LIKE`, `_EXCEL_SERIAL`, `_clock_shaped`, a sign of `_CENSORED`, a typeset minus,
    an exponent, or plain to `pd.to_numeric`); False only for text none of them reads."""
    u = pd.Series(values, dtype=object).astype(str)
    t = u.str.strip()
    shaped = (t.str.fullmatch(_NUMBER_SHAPE) | t.str.fullmatch(_DATE_LIKE)
              | t.str.fullmatch(_EXCEL_SERIAL)
              | u.str.contains(f"[<>≤≥{_MINUS}]|{_EXPONENT[:-1]}", regex=True)
              ).fillna(False).to_numpy(dtype=bool)
    return (shaped | _clock_shaped(t, "time") | _clock_shaped(t, "duration")
            | pd.to_numeric(u, errors="coerce").notna().to_numpy(dtype=bool))


def _beyond_strays(s: pd.Series) -> bool:
    """True when a text column holds more text no reading takes (`_maybe_number`: "reg0",
    "city12") than a number column may hold as strays (`STRAY_VALUES` distinct texts,
    `STRAY_SHARE` of the present cells): it reads as no numbers in any format, decided on its
    distinct values and their counts, not by reading every cell (codes of a long table)."""
    codes, distinct = pd.factorize(s.dropna().to_numpy(dtype=object))
    if not len(distinct):
        return False
    text = np.fromiter((isinstance(v, str) for v in distinct), dtype=bool, count=len(distinct))
    text[text] = ~_maybe_number(distinct[text])
    return int(text.sum()) > STRAY_VALUES or \
        int(np.bincount(codes, minlength=len(distinct))[text].sum()) > STRAY_SHARE * len(codes)


def _read_numbers(s: pd.Series, delimiter: str | None = None
                  ) -> tuple[np.ndarray, np.ndarray, str, tuple[str, ...], np.ndarray]:
    """`_read_written` (numbers, however written), else a column of ordered bands or scale
    words read as each value's place (`ordered_levels`, `levels_format`)."""
    out = _read_written(s, delimiter)
    if (out[1].any() or isinstance(s.dtype, pd.CategoricalDtype)) and \
            (levels := ordered_levels(s)) is not None:
        fmt = levels_format(levels)
        return (_level_numbers(s, levels), np.zeros(len(s), dtype=bool), fmt, (),
                np.zeros(len(s), dtype=np.int8))
    return out


def _read_written(s: pd.Series, delimiter: str | None = None
                  ) -> tuple[np.ndarray, np.ndarray, str, tuple[str, ...], np.ndarray]:
    """(numbers, cells that are not numbers, the `NUMBER_FORMATS` entry read or "plain", the
    stray texts read as missing — their cells then not counted as bad —, each cell's
    censored side, `censored_sides`) of a non-boolean column, as `infer_schema` reads a
    file's column (`delimiter`: the file's, see `number_format`). The one home of how text
    becomes numbers; dates (datetime64, or text in one `DATE_FORMATS` entry) read as days
    since 1970-01-01. Censored cells ("<5", "≥ 2000": beyond a lab's limit) are values, not
    text: their numbers here are the bounds (`nudged` reads them past it), read so when the
    rest of the column then reads as numbers."""
    x, bad, fmt, stray = _read_uncensored(s, delimiter)
    none = np.zeros(len(s), dtype=np.int8)
    if not (bad.any() or stray) or pd.api.types.is_numeric_dtype(s.dtype):
        return x, bad, fmt, stray, none
    side, bounds = censored_sides(s)
    if not side.any():
        return x, bad, fmt, stray, none
    cx, cbad, cfmt, cstray = _read_uncensored(bounds, delimiter)
    if cbad.any() or is_date_format(cfmt) or cfmt in CLOCK_FORMATS or \
            int((side != 0).sum()) == int(s.notna().sum()):
        return x, bad, fmt, stray, none  # only bounds ("<5", ">100"): categories, as written
    return cx, cbad, cfmt, cstray, side


def _read_uncensored(s: pd.Series, delimiter: str | None = None
                     ) -> tuple[np.ndarray, np.ndarray, str, tuple[str, ...]]:
    """`_read_numbers` but for censored cells (text here)."""
    x, bad = _numbers(s)
    if bad.any() and (plain := _ascii_minus(s, bad)) is not None:
        s = plain  # the format of "−1,5" is read from "-1,5"
    if bad.any() and (plain := _approximate(s, bad)) is not None:
        s = plain  # and of "~1,234" from "1,234"
    fmt = held_format(s)
    if fmt == "plain" and not bad.any() and excel_dates(s.name, x):
        fmt, x = EXCEL_DATE, x - _EXCEL_DAY0  # 44927 under 'admission_date': 2023-01-01
    elif pd.api.types.is_numeric_dtype(s.dtype) or fmt != "plain":
        pass
    elif bad.any() and _beyond_strays(s):
        pass  # codes ("reg0"): no format reads them nor may they be strays — plain, as it is
    elif not bad.any():  # plain numbers: only 1.234 (a '.' before three digits) has two readings
        if s.notna().any() and _present_text(s.head(SAMPLE)).str.fullmatch(_DOT_GROUPS).all() \
                and (style := _dot_style(_present_text(s), delimiter)):
            fmt = style
            if style == "dot-thousands":
                x, bad = _numbers(s, fmt)
    else:
        fmt = number_format(s, delimiter) or "plain"
        if fmt == "plain":  # a format the cells written like numbers share, the rest
            shaped = _number_shaped(s)  # perhaps a few stray texts ("unknown")
            if shaped.any() and _stray_text(s, s.notna().to_numpy() & ~shaped):
                fmt = number_format(s[shaped], delimiter) or "plain"
        if fmt != "plain":
            x, bad = _numbers(s, fmt)  # 3,5 / 1,234.5 / 12% / 1.234.567 / 04.03.2021
    stray = _stray_text(s, bad) if bad.any() else ()
    if stray:  # "unknown" ×3 among 296 numbers: those cells missing, and said
        bad = np.zeros(len(s), dtype=bool)
    return x, bad, fmt, stray


def _present_text(s: pd.Series) -> pd.Series:
    """The present cells of a column as stripped text."""
    return pd.Series(s.dropna().to_numpy(dtype=object)).astype(str).str.strip()


def _number_shaped(s: pd.Series) -> np.ndarray:
    """Per cell: present text written like a number in some format (digits, '.', ',', a sign,
    a percent or currency sign) or like a date (`_DATE_LIKE`); the head first (`SAMPLE`):
    when more than a tenth of it is other text, no cell is (strays must be few)."""
    def shaped(v: pd.Series) -> np.ndarray:
        number = v.str.fullmatch(_NUMBER_SHAPE)
        return (number | v.str.fullmatch(_DATE_LIKE)).fillna(False).to_numpy(dtype=bool)

    head = _present_text(s.dropna().head(SAMPLE))
    if len(head) and shaped(head).mean() < 0.9:
        return np.zeros(len(s), dtype=bool)
    return shaped(s.astype(object).where(s.notna(), "").astype(str).str.strip()) & \
        s.notna().to_numpy()


def reads_as_numbers(s: pd.Series, delimiter: str | None = None) -> bool:
    """True when a text column is numbers as `infer_schema` reads them from a file: plainly or
    in one `NUMBER_FORMATS` entry, up to a few stray texts (`STRAY_SHARE`)."""
    return number_reading(s, delimiter) is not None


def number_reading(s: pd.Series, delimiter: str | None = None) -> str | None:
    """The `NUMBER_FORMATS` entry (or "plain") in which a column reads as numbers as
    `infer_schema` reads it from a file (`reads_as_numbers`), or None when it does not."""
    if pd.api.types.is_bool_dtype(s.dtype) or not s.notna().any():
        return None
    _, bad, fmt, _, _ = _read_numbers(s, delimiter)
    return None if bad.any() else fmt


def unread_numbers(s: pd.Series, delimiter: str | None = None) -> str | None:
    """Why a text column most of whose cells are written like numbers was not read as numbers
    (as `infer_schema` reads a file's column), or None: its numbers are written like 1,234
    (a thousand, or 1.234: the decimal mark is not guessed), or it holds more other text than
    a number column may (`STRAY_SHARE`, `STRAY_VALUES`: '-' in 15 % of the cells), naming
    those texts and how many cells. Said wherever such a column is left out or kept as
    categories, so that numbers never silently become categories or vanish."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return None
    codes, distinct = pd.factorize(s.dropna().to_numpy(dtype=object))
    if len(codes):  # the shares below on each distinct text once, weighed by its cells: a
        # column of codes ("reg0") is answered without a pass over every cell (scale24)
        d, n = _present_text(pd.Series(distinct, dtype=object)), np.bincount(codes)
        pairs = int(n[d.str.fullmatch(_PAIR).fillna(False).to_numpy(dtype=bool)].sum())
        either = d.str.fullmatch(_NUMBER_SHAPE) | d.str.fullmatch(_PARENTHESES)
        if pairs / len(codes) < 0.9 and \
                int(n[either.fillna(False).to_numpy(dtype=bool)].sum()) / len(codes) < 0.5:
            return None  # as the cell by cell shares below answer
    if s.notna().any() and np.isfinite(pd.to_numeric(s.dropna().astype(object), errors="coerce")
                                       .to_numpy(dtype=float, na_value=np.nan)).all():
        return None  # every cell a plain number ("1".."7" codes kept as categories): nothing unread
    u = _present_text(s)
    if len(u) == 0 or pd.api.types.infer_dtype(s.dropna(), skipna=True) != "string" or \
            u.str.fullmatch(_DATE_LIKE).mean() >= 0.5:  # dates (04.03.2021): `mixed_dates`
        return None
    pairs = u.str.fullmatch(_PAIR).fillna(False).to_numpy(dtype=bool)
    if pairs.mean() >= 0.9:  # 120/80: two numbers a cell, as blood pressure is written
        ex = ", ".join(map(repr, u[pairs].head(2)))
        return (f"its values are pairs of numbers ({ex}), as a blood pressure is written: "
                "write each as two columns (120 and 80) to have them binned")
    shaped = u.str.fullmatch(_NUMBER_SHAPE)
    shaped = shaped.fillna(False).to_numpy(dtype=bool)
    paren = u.str.fullmatch(_PARENTHESES).fillna(False).to_numpy(dtype=bool) & ~shaped
    if (shaped | paren).mean() < 0.5:
        return None
    core = pd.Series(u[shaped].to_numpy(dtype=object))
    fmt = number_format(core, delimiter)
    if fmt is None and len(units := measure_units(core)) > 1:
        shown = ", ".join(f"{t!r} ×{n:,}" for t, n in units.head(STRAY_VALUES).items())
        why = (f"its values are numbers in more than one unit ({len(units)}: {shown}): write "
               "them in one unit to have them binned")
    elif fmt is None and not pd.to_numeric(core, errors="coerce").notna().all():
        bare = core  # $1,200 and 12,5 %: the number without its sign
        for unit in _UNITS:
            bare = _strip_unit(bare, unit)
        if not (bare.str.fullmatch(_AMBIGUOUS).all() and bare.str.contains(",").any()):
            return None
        why = ("its values read as numbers written like 1,234, which could be a thousand or "
               "1.234: name the decimal mark (plx fit --decimal . or ,; the Data page's decimal "
               "mark; thousands=',' of pandas.read_csv) or write them plainly (1234 or 1.234) "
               "to have them binned")
    else:
        why = None
    if paren.any():  # (0.83): a negative number as accounts write it, or a note: not guessed
        shown = ", ".join(map(repr, u[paren].value_counts().index[:3]))
        neg = (f"{counted(int(paren.sum()), 'cell')} {verb(int(paren.sum()), 'is a number', 'are numbers')} in parentheses ({shown}), as accounts "
               "write negative numbers: write them with a minus sign ('-0.83') to have it binned")
        why = neg if why is None else f"{neg}; and {why}"
    rest = u[~shaped & ~paren].value_counts()
    if int(rest.sum()) <= STRAY_SHARE * len(u) and len(rest) <= STRAY_VALUES:
        return why  # few enough to read as missing
    if why is None and not _binned(  # a few codes beside words ('1', '0',
            _numbers(core, fmt or "plain")[0], fmt or "plain",  # 'Y', 'N'): categories even
            int(core.nunique()), 10):  # with the words missing, so no way to bins to offer
        return None
    shown = ", ".join(f"{t!r} ×{n:,}" for t, n in rest.head(STRAY_VALUES).items())
    more = f", … ({len(rest)} texts)" if len(rest) > STRAY_VALUES else ""
    texts = (f"its values are numbers except {counted(int(rest.sum()), 'cell')} of text "
             f"({int(rest.sum()) / len(u):.0%}: {shown}{more}), more than a number column "
             f"may hold ({STRAY_SHARE:.0%}, {STRAY_VALUES} texts): name them missing markers "
             "(plx fit --missing, the Data page's missing-value markers, na_values of "
             "pandas.read_csv) to have it binned")
    return texts if why is None else f"{texts}; and {why}"


def mixed_dates(s: pd.Series) -> str | None:
    """Why a column of dates was not read as one (its values written in more than one of
    `DATE_FORMATS`, naming a value of the format most read and one it does not read), or None
    when not every present value is written like a date. Said wherever such a column is left
    out or kept as categories (`plx fit`, the dashboard, `PLXClassifier.fit`)."""
    present = s.dropna().to_numpy(dtype=object)
    try:  # each distinct value checked once first, in Python (a pandas text method costs ~1 ms
        # a call): most columns hold a value not written like a date
        distinct = pd.unique(present)
    except TypeError:  # unhashable cells
        distinct = present
    date_like = re.compile(_DATE_LIKE)
    if not all(date_like.fullmatch(str(v).strip()) for v in distinct):
        return None
    u = _present_text(s)
    if len(u) == 0 or not u.head(SAMPLE).str.fullmatch(_DATE_LIKE).all() or not u.str.fullmatch(
            _DATE_LIKE).all():  # the head first: most text columns are no dates
        return None
    reads = {d: ~np.isnan(_days(u, d)) for d in DATE_FORMATS}
    best = max(DATE_FORMATS, key=lambda d: int(reads[d].sum()))  # ties: the first format
    ok = reads[best]
    if ok.all() or not ok.any():
        return None
    return (f"it holds dates written in more than one format ({u[ok].iloc[0]!r}, "
            f"{u[~ok].iloc[0]!r}): write every date one way to have them binned as a time line")


#: What each format's note says it read.
SEASON_HINT = ("; a season, weekday or hour of the day that matters needs a column of its own: "
               "plx fit --date-parts month,weekday,hour, or e.g. pd.to_datetime(s).dt.month_name()")
"""Said with every date column binned as a time line: its bins are spans of time, so a
pattern that repeats each year or week (unseen21's season_dates: winter, weekends) is out of
its reach, and plx fitted 'everything positive' there."""

DATE_PARTS = {"month": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                         "Nov", "Dec"),
              "weekday": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
              "hour": tuple(f"{h:02d}:00-{h:02d}:59" for h in range(24))}
"""The parts of a date a column of its own can hold (`plx fit --date-parts`), each with its
values in order: a pattern that repeats each year, week or day (night admissions, a shift's
hours: reading25's night_shift), which a time line's spans miss. An hour reads "22:00-22:59":
"22h" read back as a length of time (a note said so, and a CSV of them is read as hours)."""


def date_part(days: np.ndarray, part: str) -> np.ndarray:
    """The `DATE_PARTS` value (month "Dec", weekday "Mon") of each date given as days since
    1970-01-01 (a date column's numbers, `Binning.numbers`); NaN where missing."""
    out = np.full(len(days), np.nan, dtype=object)
    ok = np.isfinite(days)
    d = np.floor(days[ok]).astype("datetime64[D]")
    if part == "month":
        at = d.astype("datetime64[M]").astype(np.int64) % 12
    elif part == "hour":  # whole hours past midnight (+1e-9: 22:00 as days reads 21.99…)
        at = np.minimum(np.floor((days[ok] - np.floor(days[ok])) * 24 + 1e-9), 23).astype(np.int64)
    else:  # 1970-01-01 was a Thursday
        at = (d.astype(np.int64) + 3) % 7
    out[ok] = np.asarray(DATE_PARTS[part], dtype=object)[at]
    return out


def part_days(x: np.ndarray, number_format: str) -> np.ndarray:
    """A column's numbers read as `number_format` as `date_part` reads them (days since
    1970-01-01): a time of day's minutes as a day's fraction, so its hour is a date's."""
    return x / 1440.0 if number_format == "time" else x


def _parts_named() -> str:
    """The `DATE_PARTS` as a refusal names them: 'month, weekday or hour, or several'."""
    *first, last = DATE_PARTS
    return f"{', '.join(first)} or {last}, or several"


def date_parts_of(parts: str | Sequence[str] | None) -> tuple[str, ...]:
    """The `DATE_PARTS` named by `parts` ("month,weekday", "month" or a list of them), each
    once, in the order given; () for None. One reading for `plx fit --date-parts` and
    `PLXClassifier(date_parts=)`: anything else is refused naming the part."""
    if parts is None:
        return ()
    items = parts.split(",") if isinstance(parts, str) else parts
    if isinstance(items, (bytes, Mapping)) or not isinstance(items, (list, tuple, np.ndarray)):
        raise DataError(f"date_parts must be {_parts_named()} (a list, or text "
                        f"comma-separated), not {parts!r:.60}")
    bad = [p for p in items if not isinstance(p, str) or p.strip() not in DATE_PARTS]
    out = tuple(dict.fromkeys(p.strip() for p in items if isinstance(p, str) and p.strip()))
    if bad or not out:
        raise DataError(f"{bad[0] if bad else parts!r} is not a date part: give "
                        f"{_parts_named()}, comma-separated")
    return out


def date_part_columns(dates: Sequence[str], parts: Sequence[str], columns: Sequence[str],
                      times: Sequence[str] = ()) -> dict[str, tuple[str, str]]:
    """The columns `parts` derive from the date columns `dates`, and the hour from the columns
    of times of day `times` ('2:05 PM', '22:15': a night that wraps midnight, which their
    minutes' bins reach only as two spans), in that order: name ("visit month") → (column,
    part). No such column, or a name among `columns` (the table's), is refused in one line.
    One home for `with_date_parts` (plx fit) and `PLXClassifier`."""
    times = list(times) if "hour" in parts else []
    if not dates and not times:
        raise DataError("no column is read as dates, so no month, weekday or hour can be derived "
                        f"(columns read: {[str(c) for c in columns][:10]})" + (
                            "" if "hour" in parts else "; a column of times of day has an hour"))
    have = {str(c) for c in columns}
    out: dict[str, tuple[str, str]] = {}
    for f in [*dates, *times]:
        for p in (parts if f in dates else ["hour"]):
            name = f"{f} {p}"
            if name in have or name in out:
                raise DataError(f"the {p} of column {f!r} would be column {name!r}, which the "
                                "table already has: rename that column")
            out[name] = (f, p)
    return out


def with_date_parts(schema: Schema, frame: pd.DataFrame, parts: Sequence[str]) -> Schema:
    """`schema` with a column of each of `parts` (`DATE_PARTS`) of every date column it bins
    as a time line ("visit month": "Jan" … "Dec"), derived from that column by `Schema.apply`
    at fit and at predict (`Schema.date_parts`); a name the table already has is refused."""
    dates = [f for f in schema.features if f in schema.bins
             and is_date_format(schema.bins[f].number_format)]
    times = [f for f in schema.features if f in schema.bins
             and schema.bins[f].number_format == "time"]
    parts = date_parts_of(parts)
    named = date_part_columns(dates, parts, [*frame.columns, *schema.features], times)
    features, kinds, categories = list(schema.features), dict(schema.kinds), dict(schema.categories)
    derived = dict(schema.date_parts)
    for name, (f, p) in named.items():
        days = part_days(schema.bins[f].numbers(frame[f]), schema.bins[f].number_format)
        seen = set(date_part(days, p)[np.isfinite(days)].tolist())
        features.append(name)
        kinds[name] = "categorical"
        categories[name] = tuple(v for v in DATE_PARTS[p] if v in seen)
        derived[name] = (f, p)
    return dataclasses.replace(schema, features=tuple(features), kinds=kinds,
                               categories=categories, date_parts=derived)


NUMBER_FORMAT_WORDS = {
    "percent": "percentages (12% → 12)",
    "thousands": "numbers with thousands separators (1,234.5 → 1234.5)",
    "thousands+percent": "percentages with thousands separators (1,234.5% → 1234.5)",
    "decimal-comma": "numbers with a decimal comma (3,5 → 3.5; 1.234,5 → 1234.5)",
    "decimal-comma+percent": "percentages with a decimal comma (12,5% → 12.5)",
    "currency": "amounts of money ($1234.5 → 1234.5)",
    "thousands+currency": "amounts of money with thousands separators ($1,234.5 → 1234.5)",
    "decimal-comma+currency": "amounts of money with a decimal comma (1.234,5 € → 1234.5)",
    "dot-thousands": "whole numbers with '.' separating thousands (1.234 → 1234; every '.' "
                     "is followed by three digits, in a ';'-delimited file or more than once; "
                     "plx fit --decimal . reads 1.234 as 1.234)",
    "dot-thousands+percent": "percentages with '.' separating thousands (1.234% → 1234)",
    "dot-thousands+currency": "amounts of money with '.' separating thousands (1.234 € → 1234)",
    "decimal-point": "numbers with a decimal point (1.234 → 1.234, not 1234: every '.' is "
                     "followed by three digits, so it could separate thousands, but the file "
                     "is not ';'-delimited, or the decimal mark was given as '.')",
    "decimal-point+percent": "percentages with a decimal point (1.234% → 1.234, not 1234)",
    "decimal-point+currency": "amounts of money with a decimal point ($1.234 → 1.234, not 1234)",
    "spaced": "numbers with spaces between thousands (1 234 567.5 → 1234567.5)",
    "spaced+percent": "percentages with spaces between thousands (1 234.5% → 1234.5)",
    "spaced+currency": "amounts of money with spaces between thousands (1 234 € → 1234)",
    "time": "times of day as minutes since midnight (08:30 → 510)",
    "duration": ("lengths of time as minutes (2h 30m or 2:30:00 → 150; 3 weeks → 30240; 5y 3m, "
                 "an m after years being months)"),
    MONTHS_DURATION: ("lengths of time in years and months, every m being months as the column "
                      "holds years and no days, hours or minutes (8m → 8 months, 5y 3m → 5 years "
                      "3 months; read as minutes, bins in days)"),
    **{f"date:{d}": "dates" + ("" if d == "ISO8601" else ", " + d.replace("%d", "day").replace(
        "%m", "month").replace("%b", "month name").replace("%B", "month name").replace("%Y", "year").replace("%H", "hour").replace("%I", "hour").replace("%M", "minute")
        .replace("%S", "second").replace("%p", "AM/PM")) + " (" + (
            "2021-03-04 or 2021-03-04 13:30" if d == "ISO8601"
        else pd.Timestamp("2021-03-04 13:30").strftime(d) + " → " + date_text(18690 + (
            0 if "%H" not in d and "%I" not in d else 13.5 / 24))) + f"; binned as a time line, not an ID{SEASON_HINT})"
       for d in DATE_FORMATS},
    EXCEL_DATE: "dates written as Excel's serial day numbers (44927 → 2023-01-01, 45012.5 → "
                "2023-03-27 12:00: the header names a date and every value lies between 20000 "
                f"and 80000, 1954 to 2119; binned as a time line, not an ID{SEASON_HINT})",
}


def number_format_words(number_format: str) -> str:
    """How a `NUMBER_FORMATS` entry or a unit format ("decimal-comma+unit:g/L") reads text, in
    words: "numbers in g/L with a decimal comma (3,5 → 3.5; 1.234,5 → 1234.5)"."""
    if number_format in NUMBER_FORMAT_WORDS:
        return NUMBER_FORMAT_WORDS[number_format]
    if (levels := format_levels(number_format)) is not None:
        from .wording import levels_said

        return levels_said(levels)
    style, _, unit = number_format.rpartition("+")
    u = unit.removeprefix(UNIT_PREFIX)
    if style == "":
        return f"numbers in {u} (12.5 {u} → 12.5)"
    head, _, example = NUMBER_FORMAT_WORDS[style].partition(" (")
    return f"{head.replace('numbers', f'numbers in {u}', 1)} ({example}"


def to_numeric_loses(s: pd.Series, shown: int = 2) -> str | None:
    """The numbers `pd.to_numeric(s, errors='coerce')` would make missing that plx reads
    ('−0.126' with a typeset minus: unseen22 — the hint to call it turned every such negative
    into a gap), said with examples, or None when both read the same cells."""
    ours = np.isfinite(column_numbers(s)) | s.isna().to_numpy()
    theirs = pd.to_numeric(s, errors="coerce").notna().to_numpy() | s.isna().to_numpy()
    lost = ours & ~theirs
    if not lost.any():
        return None
    seen = ", ".join(repr(str(v)) for v in pd.unique(s[lost])[:shown])
    return f"{int(lost.sum()):,} of which pd.to_numeric would make missing ({seen})"


def column_numbers(s: pd.Series, number_format: str = "plain", censored: bool = False
                   ) -> np.ndarray:
    """The column as floats, NaN where missing or not a number in `number_format`
    (`censored`: "<5" read just below 5, `nudged`)."""
    return _numbers(s, number_format, censored)[0]


# --------------------------------------------------------------------------------------------
# Discretisation


@dataclass(frozen=True)
class Binning:
    """How one numeric column becomes bins: `cuts` c1 < … < ck give k + 1 bins
    (-∞, c1), [c1, c2), …, [ck, ∞) — left-closed, with open end bins so any number fits."""

    method: str
    cuts: tuple[float, ...]
    labels: tuple[str, ...]
    number_format: str = "plain"  # how the column writes numbers as text (NUMBER_FORMATS)
    text_missing: tuple[str, ...] = ()  # the few text cells of a number column ("unknown")
    censored: bool = False  # "<5", ">= 2000" read just past their bound (`censored_sides`)
    span: tuple[float, float] | None = field(default=None, compare=False)  # `far_said`'s range

    def apply(self, values: pd.Series) -> pd.Series:
        """The bin label of each value (NaN stays NaN, as do the `text_missing` cells); other
        text that is not a number is an error naming the row and the value. A censored cell
        ("<5", "≥ 2000") is read just past its bound (`nudged`) whether or not the fitted
        column held one: it lies in the same bin at any cut points, so new rows may bring one."""
        return pd.Series(self.labels_of(self.read(values)), index=values.index,
                         name=values.name, dtype=object)

    def codes(self, values: pd.Series) -> np.ndarray:
        """Each value's bin number (0 … k; −1 for NaN and the `text_missing` cells), read as
        `apply` reads it, without writing the labels (the grid screen's tree takes codes)."""
        x = self.read(values)
        idx = np.searchsorted(np.asarray(self.cuts, dtype=float), x, side="right")
        return np.where(np.isnan(x), -1, np.minimum(idx, len(self.labels) - 1))

    def read(self, values: pd.Series) -> np.ndarray:
        """The column's values read as numbers (floats; NaN for missing and `text_missing`),
        or the error naming the row and the value that is not one (`numbers` reads leniently:
        NaN where not a number)."""
        if self.text_missing:
            values = values.mask(as_strings(values).isin(self.text_missing).to_numpy())
        x, bad = _numbers(values, self.number_format, self.censored)
        if bad.any() and not self.censored and not is_date_format(self.number_format) \
                and self.number_format not in CLOCK_FORMATS:  # looked at only where text is
            x, bad = _numbers(values, self.number_format, True)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            written = ("" if self.number_format == "plain" else
                       f", written as {number_format_words(self.number_format).split(' (')[0]}")
            what = ("a date" if is_date_format(self.number_format) else
                    {"time": "a time of day", "duration": "a length of time",
                     MONTHS_DURATION: "a length of time"}.get(self.number_format, "a number"))
            odd = list(dict.fromkeys(as_strings(values[bad]).dropna().tolist()))
            core = pd.Series(odd, dtype=object).str.strip()
            fix = ("they read as numbers written like 1,234, which could be a thousand or "
                   "1.234: name the decimal mark (--decimal . or , of plx predict / explain; "
                   "the Data page's decimal mark)"
                   if core.str.fullmatch(_AMBIGUOUS).all() and core.str.contains(",").any()
                   else _other_mark(odd, self.number_format)
                   or "if they mean unknown, list them among the missing markers (--missing "
                   "of plx predict / explain, which replaces the default markers; read_table's "
                   "missing=)")
            raise DataError(
                f"column {str(values.name)!r}, {row_name(values.index, i)}: value "
                f"{values.iloc[i]!r} is not {what}, but the column "
                f"{held if (held := CLOCK_HOLDS.get(self.number_format)) else 'is numeric' + written} "
                f"({counted(int(bad.sum()), 'such value')}: {', '.join(map(repr, odd[:5]))}"
                f"{' …' if len(odd) > 5 else ''}); {fix}"
            )
        return x

    def labels_of(self, x: np.ndarray) -> np.ndarray:
        """The bin label of each number already read (floats; NaN stays NaN)."""
        idx = np.searchsorted(np.asarray(self.cuts, dtype=float), x, side="right")
        out = np.asarray(self.labels, dtype=object)[np.minimum(idx, len(self.labels) - 1)]
        out[np.isnan(x)] = np.nan
        return out

    def to_dict(self) -> dict[str, Any]:
        d = {"method": self.method, "cuts": list(self.cuts), "labels": list(self.labels)}
        if self.number_format != "plain":
            d["number_format"] = self.number_format
        if self.text_missing:
            d["text_missing"] = list(self.text_missing)
        if self.censored:
            d["censored"] = True
        if self.span is not None:
            d["span"] = list(self.span)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Binning:
        return cls(str(d["method"]), tuple(float(c) for c in d["cuts"]), tuple(d["labels"]),
                   str(d.get("number_format", "plain")), tuple(d.get("text_missing", ())),
                   bool(d.get("censored", False)),
                   None if d.get("span") is None else (float(d["span"][0]), float(d["span"][1])))

    def spanned(self, values: pd.Series) -> Binning:
        """This binning with `span`, the least and greatest number of `values` (the training
        rows' column, as `estimator_rows` holds it): what `far_said` compares new rows with;
        none for dates and clock times, which `far_said` does not ask."""
        if is_date_format(self.number_format) or self.number_format in CLOCK_FORMATS:
            return self
        x = self.numbers(values)
        x = x[np.isfinite(x)]
        return dataclasses.replace(self, span=(float(x.min()), float(x.max())) if len(x) else None)

    def with_reading(self, other: Binning) -> Binning:
        """These cut points with how `other` reads the column's text (its number format,
        text read as missing, censored cells): an estimator's cuts of a schema's column."""
        return dataclasses.replace(self, number_format=other.number_format,
                                   text_missing=other.text_missing, censored=other.censored)

    def numbers(self, values: pd.Series) -> np.ndarray:
        """The column as floats as this binning reads it (NaN where missing or not a number)."""
        return _numbers(values, self.number_format, self.censored)[0]

    def reading(self, missing_cells: int | None = None, parted: bool = False) -> str:
        """How the column's text was read, in words ("" when plainly): said wherever the
        column is described (plx fit's notes, the dashboard, the schema summary). With
        `missing_cells` (a table's count of the `text_missing` cells) the count is said with
        them, not after the censored cells' words, where it read as their count. `parted`: the
        dates' parts are columns of their own already (`Schema.date_parts`), so the words
        leave out `SEASON_HINT`, which would ask for what was given."""
        parts = []
        if self.number_format != "plain":
            words = number_format_words(self.number_format)
            parts.append(f"read as {words.replace(SEASON_HINT, '') if parted else words}")
        if self.text_missing:
            shown = ", ".join(repr(v) for v in self.text_missing)
            other = "a date" if is_date_format(self.number_format) else "a number"
            count = "" if missing_cells is None else f" in {counted(missing_cells, 'cell')}"
            parts.append(f"the text {shown} read as missing{count} (every other value is {other})")
        if self.censored:
            parts.append("values written beyond a bound (like '<5' or '≥ 2000', a lab's limits "
                         "of detection) read just past it, in the bin next to their bound")
        return "; ".join(parts)


def _unit_of(number_format: str) -> str:
    """The unit a `NUMBER_FORMATS` entry reads after its numbers ('mg/dL', '%', a currency
    sign), '' for none."""
    unit = number_format.split("+")[-1]
    if unit.startswith(UNIT_PREFIX):
        return unit.removeprefix(UNIT_PREFIX)
    return {"percent": "%", "currency": "a currency"}.get(unit, "")


def _same_unit(a: str, b: str) -> bool:
    """Whether two units `_unit_of` read are one unit however written (`unit_key`: mg/dL and
    mg/dl, kg and kgs, years and yrs, % and percent): a later file writing it so is read as
    before, not refused as another unit."""
    return unit_key(a) == unit_key(b)


def _other_mark(odd: list[str], number_format: str) -> str | None:
    """What to do about a numeric column's cells that are all numbers with the other decimal
    mark than the model reads (37,5 in a file for a model of 37.5): name it, where the advice
    for text is to list them among the missing markers, which would drop every value."""
    comma = _comma_decimals(number_format)
    if number_format not in ("plain", *_STYLES):  # a unit, date, clock …: another advice
        return None
    other = "thousands" if comma else "decimal-comma"
    x, bad = _numbers(pd.Series(odd, dtype=object), other)
    if bad.any() or not any(("," if not comma else ".") in v for v in odd):
        return None
    mark = "." if comma else ","
    return (f"they read as numbers with the decimal mark {mark!r} ({odd[0]!r} → {float(x[0])!r}), "
            f"where the model reads {'.,'[comma]!r}: name it (--decimal {mark} of plx predict "
            f"/ explain; the Data page's decimal mark)")


def _comma_decimals(number_format: str) -> bool:
    """Whether a `NUMBER_FORMATS` entry reads ',' as the decimal mark (and '.' between
    thousands), as a ';'-delimited file's numbers are read."""
    return number_format.split("+")[0] in ("decimal-comma", "dot-thousands")


def format_words(number_format: str) -> str:
    """A `NUMBER_FORMATS` entry in words, "plain" too."""
    return ("plain numbers (1234.5)" if number_format == "plain"
            else number_format_words(number_format))


def fmt_number(x: float) -> str:
    """Shortest text that reads back as the same float: 18.0 → "18", 8.6625 → "8.6625";
    very large or small magnitudes in exponent form (2e+297, 1.14e-13), not 300 digits; zero
    as "0", never "-0" (a cut between -0.004 and 0.004 rounds to -0.0: a bin "<-0" misleads)."""
    f = float(x) + 0.0  # -0.0 + 0.0 is 0.0
    if f != 0 and not 1e-6 <= abs(f) < 1e16:
        return repr(f)
    return np.format_float_positional(f, trim="-")


def _round_sig(x: np.ndarray, digits: int) -> np.ndarray:
    return np.array(
        [float(np.format_float_positional(v, precision=digits, unique=False, fractional=False))
         for v in x],
        dtype=float,
    )


def cut_text(cut: float, number_format: str = "plain") -> str:
    """A cut point as its column is written, the one wording of a cut (bins, the Data page's
    cut points, rules): a date (`date_text`), a time of day or length of time (`clock_text`:
    17:00, 1h30m), else the number (`fmt_number`)."""
    if is_date_format(number_format):
        return date_text(cut)
    if number_format in CLOCK_FORMATS:
        return clock_text(cut, number_format)
    if (levels := format_levels(number_format)) is not None:  # the first level at or above it
        return levels[min(max(int(np.ceil(cut)), 0), len(levels) - 1)]
    return fmt_number(cut)


def bin_labels(cuts: Sequence[float], name: str | None = None,
               number_format: str = "plain") -> tuple[str, ...]:
    """Readable labels for the bins of `cuts`: `age<18`, `age∈[18, 30)`, `age≥50`
    (`<18`, `[18, 30)`, `≥50` when `name` is None or empty); each cut as its column is
    written (`cut_text`): dates `<2022-01-01`, times of day `<17:00`, lengths of time `≥1h30m`."""
    p = name or ""
    if (levels := format_levels(number_format)) is not None:
        return _level_labels(cuts, levels, f"{p}=" if p else "")
    inside = f"{p}∈" if p else ""
    c = [cut_text(v, number_format) for v in cuts]
    if not c:
        return (f"{inside}(-∞, ∞)",)
    mid = [f"{inside}[{a}, {b})" for a, b in zip(c[:-1], c[1:], strict=True)]
    return (f"{p}<{c[0]}", *mid, f"{p}≥{c[-1]}")


def _level_labels(cuts: Sequence[float], levels: Sequence[str], p: str) -> tuple[str, ...]:
    """Bins of ordered levels named by the levels they hold: one level by its name ('trace'),
    the lowest bin 'up to' its last ('≤20-30'), the highest 'from' its first ('≥2+'), a middle
    one by its two ends ('30-40…50-60')."""
    edges = [0, *(min(max(int(np.ceil(c)), 0), len(levels)) for c in cuts), len(levels)]
    out = []
    for i, (a, b) in enumerate(zip(edges, edges[1:])):
        lo, hi = levels[min(a, len(levels) - 1)], levels[max(min(b, len(levels)) - 1, 0)]
        out.append(p + (lo if b - a <= 1 else f"≤{hi}" if i == 0 else
                        f"≥{lo}" if i == len(edges) - 2 else f"{lo}…{hi}"))
    return tuple(out)


_BIN_LABEL = re.compile(r"<(?P<lo>\S+)|\[(?P<a>\S+), (?P<b>\S+)\)|≥(?P<hi>\S+)")


def bin_span(label: str) -> tuple[str | None, str | None] | None:
    """A plain-number bin label's edges as written (`[4.5, 7)` → ("4.5", "7"), `<4.5` →
    (None, "4.5"), `≥7` → ("7", None); None: unbounded), or None for any other value: how a
    rule's bins are written back as the comparison that named them."""
    m = _BIN_LABEL.fullmatch(str(label))
    if m is None:
        return None
    lo, a, b, hi = m.group("lo", "a", "b", "hi")
    return (a, b) if a is not None else (None, lo) if lo is not None else (hi, None)


def cut_value(text: str, number_format: str = "plain") -> float | None:
    """A cut written as `cut_text` writes it for `number_format` ("plain", or a clock:
    "17:00", "1h30m") read back as the number it cuts at; None when it is not so written."""
    if (levels := format_levels(number_format)) is not None:  # a level's place
        return float(levels.index(text)) if text in levels else None
    if number_format in CLOCK_FORMATS[1:] and text.startswith("-"):  # a negative length, -1h30m
        v = cut_value(text[1:], number_format)
        return None if v is None or v <= 0 else -v
    if number_format in CLOCK_FORMATS:
        v = float(_minutes(pd.Series([text], dtype=object), number_format)[0])
    else:
        try:
            v = float(text)
        except ValueError:
            return None
    return v if np.isfinite(v) else None


def bin_reading(labels: Iterable[str]) -> tuple[tuple[float, ...], str] | None:
    """The cut points of bin labels as `bin_labels` writes them (`<4.5`, `[4.5, 7)`, `≥7`;
    `<17:00`; `≥1h30m`; any subset of one binning's labels) and the number format they are
    written in ("plain", "time" or "duration"), or None when the labels are no such bins (a
    categorical column, dates): what a rule's `x >= 7` or `wait >= 1h30m` is resolved
    against. Read back only if `bin_labels` of the cuts writes every label exactly."""
    labels = [str(v) for v in labels]
    texts: set[str] = set()
    for lab in labels:
        if lab == "(-∞, ∞)":
            continue
        m = _BIN_LABEL.fullmatch(lab)
        if m is None:
            return None
        texts.update(t for t in m.groups() if t is not None)
    for fmt in ("plain", *CLOCK_FORMATS):
        found = [cut_value(t, fmt) for t in texts]
        if labels and None not in found:
            cuts = tuple(sorted(set(found)))  # type: ignore[arg-type]
            if set(labels) <= set(bin_labels(cuts, None, fmt)):
                return cuts, fmt
    return None


def bin_cuts(labels: Iterable[str]) -> tuple[float, ...] | None:
    """The cut points of plain-number bin labels (`bin_reading`'s, when "plain"), or None."""
    read = bin_reading(labels)
    return read[0] if read is not None and read[1] == "plain" else None


def quantile_cuts(values: np.ndarray, counts: np.ndarray, bins: int,
                  number_format: str = "plain") -> np.ndarray:
    """`fit_bins`' equal-frequency cuts (before ties are merged) of a column given as its sorted
    distinct values and how often each occurs: cut i is the smallest value with at least
    ⌊n·i/bins⌋ values below it, rounded to 6 significant digits (dates: as they are). Also
    the cuts of row subsets counted without reading the column again (`PLXClassifier`'s
    per-fold cuts)."""
    counts = np.asarray(counts, dtype=np.int64)
    below = np.cumsum(counts) - counts
    targets = np.maximum(int(counts.sum()) * np.arange(1, bins) // bins, 1)
    at = np.searchsorted(below, targets, side="left")
    c = values[at[at < len(values)]]
    return c if is_date_format(number_format) else _round_sig(c, 6)


def fit_bins(
    values: pd.Series,
    method: Method = "quantile",
    bins: int = 4,
    cuts: Sequence[float] | None = None,
    *,
    named: bool = True,
    number_format: str = "plain",
    numbers: np.ndarray | None = None,
) -> Binning:
    """Choose the cut points of a numeric column (missing values ignored; text numbers read
    as `number_format`, which the binning keeps; `numbers`: the column already read so, NaN
    where missing, when the caller has them — a text column is not read twice).

    - "quantile": equal-frequency cuts; cut i is the smallest data value with at least
      ⌊n·i/bins⌋ values below it (so a group of tied values is never split, and 1..12 in
      4 bins gives cuts 4, 7, 10), rounded to 6 significant digits;
    - "uniform": equal-width cuts over [min, max], rounded to 3 significant digits of the width;
    - "cuts": the given `cuts` as they are.
    Duplicate edges (ties) are merged and a cut at or below the minimum is dropped, so a
    column may get fewer bins than asked — never an empty lowest bin or two equal labels.
    """
    x, bad = (_numbers(values, number_format) if numbers is None
              else (np.asarray(numbers, dtype=float), np.zeros(len(values), dtype=bool)))
    name = str(values.name) if named and values.name is not None else None
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(
            f"column {str(values.name)!r}, {row_name(values.index, i)}: value "
            f"{values.iloc[i]!r} is not a number; it cannot be discretised"
        )
    x = x[~np.isnan(x)]
    if method == "cuts":
        if cuts is None or len(cuts) == 0:
            raise DataError(f"column {str(values.name)!r}: method='cuts' needs cut points")
        c = np.asarray(cuts, dtype=float)
        if not np.isfinite(c).all():
            raise DataError(f"column {str(values.name)!r}: cut points must be finite, got {cuts}")
        c = np.unique(c)
        return Binning("cuts", tuple(float(v) for v in c), bin_labels(c, name, number_format),
                       number_format)
    if method not in ("quantile", "uniform"):
        raise DataError(f"unknown method {method!r}; use 'quantile', 'uniform' or 'cuts'")
    if int(bins) != bins or bins < 1:
        raise DataError(f"bins must be a positive integer, got {bins!r}")
    if len(x) == 0:
        raise DataError(f"column {str(values.name)!r} has no values to discretise")
    x = x[np.isfinite(x)]
    if len(x) == 0:
        raise DataError(f"column {str(values.name)!r} has only infinite values")
    lo, hi = float(x.min()), float(x.max())
    if method == "quantile":
        c = quantile_cuts(*np.unique(x, return_counts=True), bins, number_format)
    elif hi > lo and bins > 1:
        step = (hi - lo) / bins
        q = np.arange(1, bins) / bins
        c = np.round(lo + (hi - lo) * q, int(2 - math.floor(math.log10(step))))
    else:
        c = np.empty(0)
    c = held_cuts(np.unique(c), x, number_format)
    c = c[c > lo]
    return Binning(method, tuple(float(v) for v in c), bin_labels(c, name, number_format),
                   number_format)


def discretise(
    series: pd.Series,
    method: Method = "quantile",
    bins: int = 4,
    cuts: Sequence[float] | None = None,
    *,
    named: bool = True,
) -> pd.Series:
    """Bin a numeric column into labelled intervals like `age∈[18, 30)` (see `fit_bins`)."""
    return fit_bins(series, method, bins, cuts, named=named).apply(series)


# --------------------------------------------------------------------------------------------
# Schema


def estimator_rows(schema: Schema, frame: pd.DataFrame, X: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The rows `PLXClassifier` is fitted on as `plx fit` fits it: `X` (`schema.apply(frame)`)
    with each binned column that reads as numbers given back as numbers from `frame` (dates
    as dates, a time line), so the estimator's own `Discretizer` cuts them; and those columns.
    One home for the CLI and the dashboard, so both fit the same model on the same table."""
    from .discretize import is_numeric  # discretize builds on this module

    numbers = {f: as_held(b.numbers(frame.loc[X.index, f]), b.number_format, X.index)
               for f, b in schema.bins.items()}  # dates as dates, 1h30m as a timedelta …
    raw = [f for f, v in numbers.items() if is_numeric(v)]
    X = X.copy()
    for f in raw:  # the estimator bins these itself (its Discretizer, its cut points)
        X[f] = (numbers[f].array if isinstance(numbers[f].dtype, pd.CategoricalDtype)
                else numbers[f].to_numpy())  # (ordered levels: their order kept)
    for f in schema.features:  # numbers the user chose to read as categories: a categorical
        if schema.kinds[f] == "categorical" and text_binned(X[f]):  # dtype says so (no note)
            X[f] = pd.Categorical(X[f])
    return X, raw


@dataclass(frozen=True)
class Schema:
    """The recorded choices that turn a raw table into features (strings) and a label.

    `kinds[f]` is "categorical" or "numeric"; numeric features have a `Binning` in `bins`.
    `excluded` maps each dropped column to the reason. `positive` is the class POS stands for
    (None: multi-class, or not chosen). `label_map` (optional) renames raw label values before
    use, e.g. to binarise a multi-class label; values it does not name are kept. `grouped`
    maps each categorical feature of many levels to the levels it keeps; its other values
    read as `OTHER_LEVEL` (`frequent_levels`).
    """

    label: str
    positive: str | None
    features: tuple[str, ...]
    kinds: dict[str, str]
    bins: dict[str, Binning] = field(default_factory=dict)
    excluded: dict[str, str] = field(default_factory=dict)
    classes: tuple[str, ...] = ()
    categories: dict[str, tuple[str, ...]] = field(default_factory=dict)
    label_map: dict[str, str] | None = None
    grouped: dict[str, tuple[str, ...]] = field(default_factory=dict)
    date_parts: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Features derived from a date column: name → (that column, its `DATE_PARTS` part)."""
    value_maps: dict[str, dict[str, str]] = field(default_factory=dict)
    """A yes/no column written in several vocabularies: each writing → the answer it is read as
    (`flag_map`), at fit and at predict (`read_flags`)."""
    missing: tuple[str, ...] | None = None
    """The missing-value markers the fit's file was read with when they were not the default
    (`plx fit --missing -999`): new rows are read with them too, unless told otherwise."""

    def parted(self) -> set[str]:
        """The date columns whose parts are features of their own (`date_parts`' sources)."""
        return {src for src, _ in self.date_parts.values()}

    def derived(self, frame: pd.DataFrame) -> pd.DataFrame:
        """`frame` with the `date_parts` features derived from their date columns (those it
        holds), as at fit: the same reading of the dates, the same names."""
        new = {name: date_part(part_days(self.bins[src].numbers(frame[src]),
                                         self.bins[src].number_format), part)
               for name, (src, part) in self.date_parts.items() if src in frame.columns}
        return frame.assign(**new) if new else frame

    def apply(self, frame: pd.DataFrame, label: bool = True) -> tuple[pd.DataFrame, pd.Series | None]:
        """Transform rows (the training table or new ones): features as strings/NaN in schema
        order, and the label as strings (None when `frame` has no label column, or with
        `label=False`: rows to predict are answered whatever their label cells hold).

        Numbers outside the fitted range fall into the open end bins; unseen categories are kept
        as they are (the engine reports them)."""
        frame = self.derived(frame)
        absent = [f for f in self.features if f not in frame.columns]
        # a date part whose date column is absent: the date column named, the one to add
        absent = [f for f in absent if self.date_parts.get(f, (None,))[0] not in absent]
        if absent:
            twins = column_twins(absent, [c for c in frame.columns if c not in self.features])
            raise DataError(f"the rows lack the feature {noun(len(absent), 'column')} {absent}{twins}" + (
                "" if twins else "; to answer without them (each row's value unknown, as the "
                "model answers a missing cell), add them as empty columns"))
        cols = {}
        for f in self.features:
            s = frame[f]
            if isinstance(s, pd.DataFrame):
                raise DataError(f"the rows have more than one column named {f!r}")
            cols[f] = (self.bins[f].apply(s) if f in self.bins else
                       group_levels(s, self.grouped[f]) if f in self.grouped else
                       read_flags(s, self.value_maps[f]) if f in self.value_maps else as_strings(s))
        X = pd.DataFrame(cols, index=frame.index, columns=list(self.features), dtype=object)
        if not label or self.label not in frame.columns:
            return X, None
        return X, _label_strings(frame[self.label], self.label_map)

    def reading_file(self, frame: pd.DataFrame, delimiter: str | None = None
                     ) -> tuple[Schema, list[str]]:
        """(this schema reading `frame`'s numbers as its own file writes them, what that
        changed): a file to predict may come from another locale than the training file
        (3,5 in a ';' file against 3.5, or 0.125 that a decimal-comma model would read as
        125). A numeric column whose text reads whole in the file's own way
        (`_read_numbers`, `delimiter` as for `infer_schema`), with the decimal mark that file
        has (',' in a ';' file, else '.'), to other numbers than the model's format gives is
        read that way, and said; anything else keeps the model's format (and its errors)."""
        bins, changed = dict(self.bins), {}
        for f, b in self.bins.items():
            s = frame[f] if f in frame.columns else None
            if not isinstance(s, pd.Series) or is_date_format(b.number_format) or \
                    format_levels(b.number_format) is not None or \
                    b.number_format in CLOCK_FORMATS or pd.api.types.is_numeric_dtype(s.dtype) or \
                    pd.api.types.is_bool_dtype(s.dtype) or not s.notna().any():
                continue
            if b.text_missing:
                s = s.mask(as_strings(s).isin(b.text_missing).to_numpy())
            x, bad, fmt, stray, side = _read_numbers(s, delimiter)
            x = nudged(x, side) if b.censored else x
            was, now = _unit_of(b.number_format), _unit_of(fmt)
            if was and now and not _same_unit(was, now) and not bad.any():
                cells = as_strings(s).dropna()
                shown = next((v for v in cells if now in v), cells.iloc[0])  # one writing it
                raise DataError(
                    f"column {str(f)!r}: this file writes it in {now} ({shown!r}), the training "
                    f"file in {was}, and the model's cut points are in {was}"
                    f"{f' (one at {fmt_number(b.cuts[len(b.cuts) // 2])})' if b.cuts else ''}: "
                    f"convert the column to {was} first (no unit is converted: its numbers "
                    "would be compared with the cuts as they stand)")
            if bad.any() or stray or fmt == b.number_format or is_date_format(fmt) or \
                    fmt in CLOCK_FORMATS or _comma_decimals(fmt) != (delimiter == ";"):
                continue  # 71.5 in a ';' file for a 3,5 model: a slip, not another locale
            old, old_bad = _numbers(s, b.number_format, b.censored)
            if not old_bad.any() and np.array_equal(old, x, equal_nan=True):
                continue
            bins[f] = dataclasses.replace(b, number_format=fmt)
            changed.setdefault((b.number_format, fmt), []).append(f)
        notes = [f"{'column' if len(cols) == 1 else 'columns'} {', '.join(map(repr, cols[:5]))}"
                 f"{f' and {len(cols) - 5} more' if len(cols) > 5 else ''}: read as "
                 f"{format_words(new)}, as this file writes them (the training file's as "
                 f"{format_words(was)})"
                 + (f"; compared with the model's cut points as they stand: the training file "
                    f"named no unit, so if it held another than {_unit_of(new)}, convert the "
                    f"column{'s' if len(cols) > 1 else ''} first"
                    if _unit_of(new) and not _unit_of(was) else "")
                 for (was, new), cols in changed.items()]
        return (dataclasses.replace(self, bins=bins) if notes else self), notes

    def summary(self) -> pd.DataFrame:
        """One row per column: its role, kind and what was done with it (for display)."""
        rows = [
            {"column": self.label, "role": "label", "kind": "categorical",
             "detail": f"positive = {self.positive!r}" if self.positive is not None
             else f"classes {list(self.classes)}"},
        ]
        for f in self.features:
            detail = (
                f"{self.bins[f].method}: {', '.join(self.bins[f].labels)}" if f in self.bins
                else f"{len(self.categories.get(f, ()))} values"
            )
            if f in self.bins and (how := self.bins[f].reading(parted=f in self.parted())):
                detail += f" ({how})"
            if f in self.value_maps:
                from .wording import flags_said

                detail += f" ({flags_said(self.value_maps[f])})"
            if f in self.grouped:
                detail = (f"the {len(self.grouped[f])} most frequent values kept, the others "
                          f"grouped as {other_level(self.grouped[f])!r}")
            rows.append({"column": f, "role": "feature", "kind": self.kinds[f], "detail": detail})
        for c, why in self.excluded.items():
            rows.append({"column": c, "role": "excluded", "kind": "", "detail": why})
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (no pickle)."""
        return {
            "label": self.label, "positive": self.positive, "features": list(self.features),
            "kinds": dict(self.kinds), "bins": {k: b.to_dict() for k, b in self.bins.items()},
            "excluded": dict(self.excluded), "classes": list(self.classes),
            "categories": {k: list(v) for k, v in self.categories.items()},
            "label_map": None if self.label_map is None else dict(self.label_map),
            "grouped": {k: list(v) for k, v in self.grouped.items()},
            **({"date_parts": {k: list(v) for k, v in self.date_parts.items()}}
               if self.date_parts else {}),  # (a model without them reads as before)
            **({"missing": list(self.missing)} if self.missing is not None else {}),
            **({"value_maps": {k: dict(v) for k, v in self.value_maps.items()}}
               if self.value_maps else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Schema:
        """The schema `to_dict` wrote; every field is checked (a `DataError` names it)."""
        _check_schema_dict(d)
        return cls(
            label=d["label"], positive=d.get("positive"), features=tuple(d["features"]),
            kinds=dict(d["kinds"]),
            bins={k: Binning.from_dict(b) for k, b in d.get("bins", {}).items()},
            excluded=dict(d.get("excluded", {})), classes=tuple(d.get("classes", ())),
            categories={k: tuple(v) for k, v in d.get("categories", {}).items()},
            label_map=None if d.get("label_map") is None else dict(d["label_map"]),
            grouped={k: tuple(v) for k, v in d.get("grouped", {}).items()},
            date_parts={k: (v[0], v[1]) for k, v in d.get("date_parts", {}).items()},
            missing=None if d.get("missing") is None else tuple(d["missing"]),
            value_maps={k: dict(v) for k, v in d.get("value_maps", {}).items()},
        )


def _check_schema_dict(d: Any) -> None:
    """Refuse a schema document that `Schema.to_dict` could not have written, naming the field
    (a model file is user input: a string where a list belongs must not become its letters)."""

    def bad(field_: str, what: str, v: Any) -> DataError:
        return DataError(f"schema field {field_!r} must be {what}, not {v!r:.80}")

    def strs(field_: str, v: Any) -> None:
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise bad(field_, "a list of strings", v)

    def str_map(field_: str, v: Any) -> None:
        if not isinstance(v, dict) or not all(isinstance(x, str) for x in v.values()):
            raise bad(field_, "an object of strings", v)

    if not isinstance(d, Mapping):
        raise DataError(f"the schema must be an object, not {type(d).__name__}")
    for k in ("label", "features", "kinds"):
        if k not in d:
            raise DataError(f"schema field {k!r} is missing")
    if not isinstance(d["label"], str):
        raise bad("label", "a string", d["label"])
    if d.get("positive") is not None and not isinstance(d["positive"], str):
        raise bad("positive", "a string or null", d["positive"])
    strs("features", d["features"])
    if d.get("missing") is not None:
        strs("missing", d["missing"])
    feats = d["features"]
    parts = d.get("date_parts", {})
    if not isinstance(parts, dict):
        raise bad("date_parts", "an object", parts)
    for name, v in parts.items():
        if name not in feats or not isinstance(v, list) or len(v) != 2 or v[0] not in feats \
                or v[1] not in DATE_PARTS or not isinstance(d.get("bins", {}).get(v[0]), dict):
            raise bad(f"date_parts.{name}", "[a binned date feature, one of "
                      f"{list(DATE_PARTS)}] naming a feature", v)
    if not feats:
        raise DataError("schema field 'features' is empty")
    dup = sorted({f for f in feats if feats.count(f) > 1})
    if dup:
        raise DataError(f"schema field 'features' lists {dup} more than once")
    str_map("kinds", d["kinds"])
    for f in feats:
        if d["kinds"].get(f) not in ("categorical", "numeric"):
            raise bad(f"kinds.{f}", "'categorical' or 'numeric'", d["kinds"].get(f))
    bins = d.get("bins", {})
    if not isinstance(bins, dict):
        raise bad("bins", "an object", bins)
    for f in feats:
        if d["kinds"][f] == "numeric" and f not in bins:
            raise DataError(f"schema field 'bins' has no binning for numeric feature {f!r}")
    for f, b in bins.items():
        if not isinstance(b, dict):
            raise bad(f"bins.{f}", "an object", b)
        cuts, labels = b.get("cuts"), b.get("labels")
        if not isinstance(b.get("method"), str):
            raise bad(f"bins.{f}.method", "a string", b.get("method"))
        if not isinstance(cuts, list) or not all(
            finite_number(c) for c in cuts
        ) or any(a >= c for a, c in zip(cuts, cuts[1:])):
            raise bad(f"bins.{f}.cuts", "a list of increasing finite numbers", cuts)
        strs(f"bins.{f}.labels", labels)
        strs(f"bins.{f}.text_missing", b.get("text_missing", []))
        if not isinstance(b.get("censored", False), bool):
            raise bad(f"bins.{f}.censored", "true or false", b.get("censored"))
        span = b.get("span")
        if span is not None and not (isinstance(span, list) and len(span) == 2 and all(
                finite_number(v) for v in span) and span[0] <= span[1]):
            raise bad(f"bins.{f}.span", "two finite numbers, the least first", span)
        if not is_number_format(b.get("number_format", "plain")):
            raise bad(f"bins.{f}.number_format", f"one of {NUMBER_FORMATS}",
                      b.get("number_format"))
        if len(labels) != len(cuts) + 1:
            raise DataError(f"schema field 'bins.{f}': {len(cuts)} cuts need {len(cuts) + 1} "
                            f"labels, found {len(labels)}")
    str_map("excluded", d.get("excluded", {}))
    strs("classes", d.get("classes", []))
    cats = d.get("categories", {})
    if not isinstance(cats, dict):
        raise bad("categories", "an object", cats)
    for f, v in cats.items():
        strs(f"categories.{f}", v)
    lm = d.get("label_map")
    if lm is not None:
        str_map("label_map", lm)
    for name, what, check in (("value_maps", "a categorical feature's map", str_map),
                               ("grouped", "a categorical feature's levels", strs)):
        got = d.get(name, {})  # each an object keyed by categorical features
        if not isinstance(got, dict):
            raise bad(name, "an object", got)
        for f, v in got.items():
            if f not in feats or d["kinds"][f] != "categorical":
                raise bad(f"{name}.{f}", what, v)
            check(f"{name}.{f}", v)


def _label_strings(s: pd.Series, label_map: Mapping[str, str] | None) -> pd.Series:
    y = as_strings(s)
    miss = y.isna().to_numpy()
    if miss.any():
        rows = [repr(r) for r in y.index[miss][:10]]
        more = " …" if miss.sum() > 10 else ""
        raise DataError(
            f"the label {str(s.name)!r} is missing in {counted(int(miss.sum()), 'row')}: "
            f"{', '.join(rows)}{more}"
        )
    # before any label_map: the dashboard's one-vs-rest map would fold " Yes" into "not yes"
    check_label_variants(pd.unique(y).tolist(), str(s.name))
    if label_map:
        y = y.map(lambda v: label_map.get(v, v)).astype(object)
    return y


def _per_column(option: Any, col: str, default: Any) -> Any:
    if isinstance(option, Mapping):
        return option.get(col, default)
    return default if option is None else option


ID_LIKE = "ID-like"
"""How the reason a column is left out for holding a distinct value on almost every row starts
(`excess_levels`): such a column names the rows (a patient, an order), so `plx predict` and
`plx explain` copy it beside each row's answer (`id_columns`)."""


def id_columns(excluded: Mapping[str, str]) -> list[str]:
    """The left-out columns (`Schema.excluded`) that are ID-like: they name the rows."""
    return [c for c, why in excluded.items() if str(why).startswith(ID_LIKE + ":")]


def repeated_rows(frame: pd.DataFrame, ids: Sequence[str], shown: int = 3) -> str | None:
    """Why rows that repeat an earlier row in every column, its ID-like columns `ids` (a
    patient number) included, look like one record exported twice, or None (no such ID
    column, or no such row). Kept — nothing is dropped unasked — but said: each copy counts
    as evidence again, and a copy can land in the test split. Rows that repeat only in their
    features are left alone: in a table of categories they are natural."""
    ids = [c for c in ids if c in frame.columns]
    if not ids or len(frame) < 2:
        return None
    # a copy repeats its ID first: the ID columns alone are hashed where every ID differs (the
    # common case), then the whole row only of the rows whose ID repeats, grouped as object last
    copies = np.flatnonzero(frame[ids].duplicated(keep=False).to_numpy())
    if len(copies):
        copies = copies[frame.iloc[copies].duplicated(keep=False).to_numpy()]
    if len(copies) == 0:
        return None
    codes = frame.iloc[copies].astype(object).groupby(
        list(frame.columns), dropna=False, sort=False).ngroup().to_numpy()
    first = copies[pd.Series(np.arange(len(codes))).groupby(codes).transform("min").to_numpy()]
    keep = first != copies
    at, first = copies[keep], first[keep]
    if len(at) == 0:
        return None

    def name(i: int) -> str:  # "line 1502" for a file's table, else its index label
        return row_name(frame.index, i, data_row=False)

    pairs = ", ".join(f"{name(int(i))} = {name(int(j))}" for i, j in zip(at[:shown], first))
    return (f"{counted(len(at), 'row')} {verb(len(at), 'repeats', 'repeat')} an earlier row in every column, {ids[0]!r} included "
            f"({pairs}{' …' if len(at) > shown else ''}): one record exported twice? Each "
            "copy counts as evidence again; remove the copies if so")


COPY_SHARE = 0.05
"""The least share of rows that must repeat another row in every column (the label too) to be
read as copies (`copy_cases`): a pair or two alike by chance (a measure of two decimals, a group
and the class) is none, and a few copies barely move a leave-one-out."""
COPY_ODDS = 4
"""Repeated rows are copies when the pairs of rows alike in every column are at least this many
times the pairs that the two most varied columns' own values would make alike by chance (each
column's share of rows a value, as if the two were independent): a count that is 0 on half the
rows and a score of two decimals make many pairs alike by chance; a table written twice makes
one pair a row where chance makes a few."""
MEASURED_VALUES = 20
"""The fewest distinct values each of the two most varied columns needs: two measures alike
by chance are rare, one (a score of two decimals whose sign sets another column) is not."""
COPY_LEAST = 20
"""Distinct rows below which no column's share of distinct values says anything."""


def _most_varied(distinct: pd.DataFrame) -> list[str]:
    """The two columns of the table's distinct rows with the most distinct values, where both
    hold at least `MEASURED_VALUES` (else none)."""
    return most_varied({c: int(distinct[c].nunique(dropna=False)) for c in distinct.columns})


def most_varied(counts: Mapping[Any, int]) -> list[Any]:
    """`_most_varied` from each column's distinct values (a missing cell one of them), in
    column order: a Dask table's counted on the cluster (every row repeats a distinct row, so
    the table's and its distinct rows' counts are one)."""
    two = sorted(counts, key=lambda c: -counts[c])[:2]
    return two if len(two) == 2 and counts[two[1]] >= MEASURED_VALUES else []


def copy_cases(frame: pd.DataFrame) -> np.ndarray | None:
    """One case id a row, rows identical in every column (pass the label among them) sharing
    one, where the repeats are copies (`COPY_SHARE`, `MEASURED_VALUES`, `COPY_ODDS`), else None.
    A table written twice, or a rare class copied by hand to balance it, leaves each row's copy beside it in
    every leave-one-out and fold: the search scored clauses that only repeat their own rows as
    perfect, and a 240-row ward table written twice answered 221 of 240 new rows [0, 1] (F1
    0.60 -> 0.09). The fit keeps each case's copies on one side (as `groups=`)."""
    if len(frame) < 2 or frame.shape[1] == 0:
        return None
    def code(x: pd.Series) -> np.ndarray:  # hashing text cell by cell is slow: codes instead
        if isinstance(x.dtype, pd.CategoricalDtype):
            return x.cat.codes.to_numpy()
        return x.to_numpy() if x.dtype.kind in "biufcmM" else pd.factorize(x)[0]

    codes = pd.DataFrame({i: code(frame[c]) for i, c in enumerate(frame.columns)})
    keys = pd.util.hash_pandas_object(codes, index=False).to_numpy()
    return copies_of(keys, lambda first: _most_varied(frame[first]), lambda c: frame[c].value_counts(
        normalize=True, dropna=False).to_numpy())


def copies_of(keys: np.ndarray, two: Any, share: Any) -> np.ndarray | None:
    """`copy_cases` from each row's hash of its every cell (`keys`, equal for equal rows), the
    two most varied columns (`two(first)`: `first` marks each distinct row's first row) and a
    column's share of rows a value (`share(column)`, a missing cell one value): the one
    decision of the in-memory fit and of a Dask table's (its keys and counts from the cluster)."""
    n_rows = len(keys)
    first = ~pd.Series(keys).duplicated().to_numpy()
    n = int(first.sum())
    if n_rows - n < COPY_SHARE * n_rows or n < COPY_LEAST:
        return None
    two = two(first)
    if not two:
        return None
    same = pd.Series(keys).value_counts().to_numpy().astype(float)
    alike = float((same * (same - 1) / 2).sum())
    shares = [np.asarray(share(c), dtype=float) for c in two]
    chance = n_rows * (n_rows - 1) / 2 * float((shares[0] ** 2).sum() * (shares[1] ** 2).sum())
    if alike < COPY_ODDS * chance:
        return None
    return np.unique(keys, return_inverse=True)[1].ravel()


def copied_rows(frame: pd.DataFrame, shown: int = 3, *, cases: Any = ...) -> str | None:
    """Why rows read as copies (`copy_cases`; `frame` holds the label too), or None, named by
    their first copies and the column that makes chance unlikely (unseen22's dup95: 1,900 of
    2,000 rows repeat one of 100, a join gone wrong). Kept, but said: the fit keeps each
    record's copies on one side of its folds; the user may rather drop them or name cases.
    `cases`: `copy_cases(frame)` as the caller already decided it (the fit), else decided here."""
    if cases is ...:
        cases = copy_cases(frame)
    if cases is None:
        return None
    copies = pd.Series(cases).duplicated().to_numpy()
    return copies_said(cases, _most_varied(frame[~copies]), frame.index, shown)


def copies_said(cases: np.ndarray, two: Sequence[Any], index: pd.Index, shown: int = 3) -> str:
    """`copied_rows`' words for the rows' `cases` (`copies_of`), the two most varied columns
    and the rows' `index` (how a row is named): one wording for memory and Dask."""
    copies = pd.Series(cases).duplicated().to_numpy()
    a, b = two
    at = np.flatnonzero(copies)[:shown]
    shown_rows = ", ".join(row_name(index, int(i), data_row=False) for i in at)
    copied = len(np.unique(cases[copies]))
    return (f"{int(copies.sum()):,} of the {len(cases):,} rows repeat an earlier row in every "
            f"column ({shown_rows} …), though {a!r} and {b!r} hold values that rarely repeat "
            f"together by chance: read as copies of {counted(copied, 'record')}, each record's copies kept "
            "on one side of every fold of the model search, so it does not test on copies of "
            "its training rows; if they are one record entered twice, keep one row a record "
            "(drop_duplicates), or name each record's rows as one case (groups=, plx fit "
            "--case-column)")


MIN_GROUPS = 20
"""The fewest values of several rows each a left-out column needs before its rows are read as
several rows a case (`grouped_rows_said`)."""


def case_columns(schema: Schema, frame: pd.DataFrame | None = None
                 ) -> tuple[list[str], list[str]]:
    """The columns that may name cases (`grouped_rows_said`): those left out, the categorical
    features of at least `MIN_GROUPS` levels (the others cannot), and the numeric features of
    `frame` numbered like IDs (`numbered_like_ids`: patient numbers 1001, "1001.0", "01001",
    which a fit bins as numbers; not dates, times or lengths of time, whose days or minutes
    may run on too: a patient's admission day names no case)."""
    kept = [f for f in schema.features if schema.kinds[f] == "categorical"
            and len(schema.categories.get(f, ())) >= MIN_GROUPS]
    if frame is not None:
        for f in schema.features:
            fmt = schema.bins[f].number_format if f in schema.bins else "plain"
            if (schema.kinds[f] != "categorical" and f in frame.columns and f in schema.bins
                    and not is_date_format(fmt) and fmt not in CLOCK_FORMATS):
                x = column_numbers(frame[f], fmt)
                x = np.unique(x[np.isfinite(x)])
                if len(x) >= MIN_GROUPS and numbered_like_ids(x):
                    kept.append(f)
    return list(schema.excluded), kept


def grouped_rows_said(frame: pd.DataFrame, label: str, columns: Sequence[str],
                      kept: Sequence[str] = ()) -> str | None:
    """`grouped_rows`' reason alone (the column it names is the reason's first words)."""
    got = grouped_rows(frame, label, columns, kept)
    return None if got is None else got[1]


def case_ids(ids: pd.Series, said: str) -> pd.Series:
    """Each row's case from the column `ids` the user named the case column (said in a message
    as `said`), as text ("1001", "1001.0" and "01001" three cases as written, spaces trimmed);
    a row without a case refused, naming it: the one check of `plx fit --case-column` and the
    Data page's case column."""
    if len(missing := np.flatnonzero(ids.isna().to_numpy())):
        raise DataError(f"{said}: {row_name(ids.index, int(missing[0]))} has no case "
                        f"({counted(len(missing), 'row')} in all): name every row's case, or drop "
                        "those rows")
    return ids.astype(str).str.strip()


def grouped_rows(frame: pd.DataFrame, label: str, columns: Sequence[str],
                 kept: Sequence[str] = ()) -> tuple[str, str] | None:
    """(the column, why) when a table reads like several rows a case (long format: one row a
    visit): a column of `columns` (left out, or among `kept`, the features: a patient number)
    whose values stand on several rows each, at least `MIN_GROUPS` of them and at least 3 of
    each of two classes, with the label the same on every row of each — or None. Said, not
    changed: plx answers each row, and its out-of-fold scores (rows of one case on both sides
    of a fold) flatter unless the column is named the case column (`PLXClassifier.fit`'s
    `groups`); a kept one answers a known case from its own label."""
    if label not in frame.columns:
        return None
    y = label_texts(frame[label])
    for c in [*columns, *kept]:
        if c not in frame.columns or c == label:
            continue
        ids = frame[c]
        known = ids.notna().to_numpy() & y.notna().to_numpy()
        if known.sum() < 2 * MIN_GROUPS:
            continue
        sizes = ids[known].value_counts()
        several = sizes[sizes > 1]
        if len(several) < MIN_GROUPS or len(sizes) > 0.9 * known.sum():
            continue
        by = y[known].groupby(ids[known].to_numpy())
        if (by.nunique().loc[several.index] > 1).any() or \
                (by.first().loc[several.index].value_counts() >= 3).sum() < 2:
            continue  # a visit's own label; or pure groups of one class only (rare positives)
        learnt = (f"; {c!r} is learnt from as a feature too, so a new row of a case seen in "
                  "training is answered from that case's label: take the column out of the "
                  "file, or name it the case column, if it names cases") if c in kept else ""
        return c, (f"column {c!r}: its {len(sizes):,} values stand on {known.sum() / len(sizes):.1f} "
                f"rows each on average (up to {int(sizes.max())}), the label the same on every "
                "row of each — several rows a case (one a visit)? plx answers each row as its "
                "own case, and its out-of-fold scores, with rows of one case on both sides of a "
                "fold, flatter: name it the case column (plx fit --case-column) and the model "
                "search keeps a case's rows together; to answer a case once, give one row a "
                f"case (its last visit, or its values summed up){learnt}")
    return None


def excess_levels(n_distinct: int, present: int, id_like: bool = True,
                  id_threshold: float = 0.95, max_categories: int = 10,
                  max_levels: int | None = 100) -> str | None:
    """Why a categorical column of `n_distinct` values in `present` rows is left out (ID-like,
    or more levels than `max_levels`: each level too rare to learn from), or None to keep it."""
    if id_like and n_distinct > max_categories and n_distinct / present >= id_threshold:
        return (f"{ID_LIKE}: {n_distinct:,} distinct values in {present:,} rows, "
                f"{n_distinct / present:.0%}: nearly every row has a value of its own, so it "
                "names rows rather than describing them")
    if max_levels is not None and n_distinct > max_levels:
        return too_many_levels(n_distinct, max_levels, ": each too rare to learn from")
    return None


def too_many_levels(n_distinct: int, max_levels: int, why: str = "") -> str:
    """The one wording of a categorical column of more levels than `max_levels` (no setting's
    key in it: the Data page shows it), `why` said inside its brackets."""
    return (f"too many distinct values for a categorical feature ({n_distinct}, more than "
            f"{max_levels}{why})")


OTHER_LEVEL = "(other)"
"""The one level a column of many levels reads its rare ones as (`frequent_levels`)."""
MIN_LEVEL_ROWS = 10
"""A level of a many-level column is kept when at least this many training rows hold it: one
seen once or twice only makes clauses that memorise rows."""
FREE_TEXT_WORDS = 3
"""A text column whose values have at least this many words (median) and are mostly distinct
is free text (a comment, a description): no category to learn from, left out."""


MAX_LEVEL_CHARS = 1_000
"""The longest text a category may be: a longer value (a pasted document, a 1 MB cell of an
export) is no level to learn from, and every clause, rule and explanation naming it would print
it whole (a 1 MB level made a 5 MB model file, and its Parquet fit took 137 s): its column is
left out, saying the row."""


LONG_TEXT = "text, not categories"
"""How `long_value`'s reason begins (no hint to convert such a column is looked for)."""


def long_value(vals: pd.Series) -> str | None:
    """Why a column of text is no column of categories: a value longer than
    `MAX_LEVEL_CHARS`, named by its row and length; None when none is (missing cells are
    skipped). Asked of columns whose present cells are all text (`free_text`), so a column of
    numbers pays nothing."""
    a = vals.to_numpy(dtype=object)
    if max(map(len, a[pd.notna(a)]), default=0) <= MAX_LEVEL_CHARS:
        return None
    i = next(k for k, v in enumerate(a) if isinstance(v, str) and len(v) > MAX_LEVEL_CHARS)
    return (f"{LONG_TEXT}: {row_name(vals.index, i)} holds a value of {len(a[i]):,} "
            f"characters ({a[i][:20]!r}…), over the cap of {MAX_LEVEL_CHARS:,} a category (a "
            "KB, a rule and an explanation would print it whole); derive a category from it "
            "(a keyword, a length class) to use it")


def free_text(s: pd.Series, max_categories: int = 10) -> str | None:
    """Why a column of text reads as free text (`FREE_TEXT_WORDS` or more words a value, half
    its present values or more distinct; or one value too long for a category, `long_value`),
    or None. Checked before the ID rule: a comment
    column is mostly distinct too, and "free text" says what to do with it."""
    vals = s.dropna()
    if len(vals) == 0 or pd.api.types.infer_dtype(vals, skipna=True) != "string":
        return None
    if (long := long_value(s)) is not None:  # even one: a KB would print it whole
        return long
    n_distinct = int(vals.nunique())
    if n_distinct <= max_categories or n_distinct < 0.5 * len(vals):
        return None
    words = float(vals.str.split().str.len().median())
    if words < FREE_TEXT_WORDS:
        return None
    return (f"free text ({n_distinct} distinct values in {len(vals)} rows, {words:g} words a "
            "value at the median): plx learns from categories; derive one from it (a keyword, "
            "a length class) to use it")


def frequent_levels(s: pd.Series, max_levels: int = 100,
                    min_rows: int = MIN_LEVEL_ROWS) -> tuple[str, ...]:
    """The levels of a many-level column kept as they are: those in at least `min_rows` rows,
    the `max_levels` most frequent of them (most frequent first, ties in natural order); the
    others read as `other_level` (`group_levels`). The spellings of one text
    (`encoding.text_key`: "Paris" / "paris ") count as one level, kept as its most frequent
    spelling: a rare spelling of a kept level is that level, not one of the rare ones."""
    counts = as_strings(s).dropna().value_counts()
    spellings = sorted(((str(v), int(n)) for v, n in counts.items()),
                       key=lambda p: (-p[1], natural_key(p[0])))
    best: dict[str, str] = {}  # text key → its most frequent spelling (ties: natural order)
    total: dict[str, int] = {}
    for v, n in spellings:
        best.setdefault(text_key(v), v)
        total[text_key(v)] = total.get(text_key(v), 0) + n
    order = sorted((k for k, n in total.items() if n >= min_rows),
                   key=lambda k: (-total[k], natural_key(best[k])))
    return tuple(best[k] for k in order[:max_levels])


def other_level(kept: Sequence[str]) -> str:
    """The level a grouped column reads its rare values as: `OTHER_LEVEL`, unless the column
    keeps a value of its own written so ("(other)" in the data, frequent): then "(other
    levels)" (or "(other levels 2)", …), so the column's own value stays itself and apart."""
    keys = {text_key(str(v)) for v in kept}
    label, n = OTHER_LEVEL, 1
    while text_key(label) in keys:
        n += 1
        label = "(other levels)" if n == 2 else f"(other levels {n - 1})"
    return label


def group_levels(s: pd.Series, kept: Sequence[str]) -> pd.Series:
    """A column's values as strings: a kept value as it is, another spelling of one
    (`encoding.text_key`) as that kept value, any other (missing stays missing) read as
    `other_level(kept)` — an unseen value in predict too, which the model then answers from
    the training rows' rare levels."""
    strs = as_strings(s)
    by_key = {text_key(str(v)): str(v) for v in kept}
    values = pd.unique(strs.dropna())
    other = other_level(kept)
    kept_set = set(map(str, kept))
    read = {v: v if v in kept_set else by_key.get(text_key(v), other) for v in values}
    return strs.map(read).where(strs.notna(), np.nan).astype(object)


def grouping_details(s: pd.Series, kept: Sequence[str], shown: int = 3) -> str:
    """What `group_levels` does to a column's values beyond keeping and grouping, in words
    ("" when nothing): spellings of a kept level read as it, and a value of the column
    written as the group's own label, rare (grouped with the others) or kept (the group then
    named otherwise, `other_level`)."""
    values = pd.unique(as_strings(s).dropna())
    kept_set = set(map(str, kept))
    by_key = {text_key(str(v)): str(v) for v in kept}
    other = other_level(kept)
    merged = [(v, by_key[text_key(v)]) for v in values
              if v not in kept_set and text_key(v) in by_key]
    out = []
    if merged:
        merged.sort(key=lambda p: (natural_key(p[1]), natural_key(p[0])))
        listed = ", ".join(f"{v!r} as {k!r}" for v, k in merged[:shown])
        more = f" and {len(merged) - shown} more" if len(merged) > shown else ""
        out.append(f"other spellings of a kept level (case, spaces, accents) read as it and "
                   f"counted with it ({listed}{more})")
    own = [v for v in values if text_key(v) == text_key(OTHER_LEVEL)]
    if other != OTHER_LEVEL:
        out.append(f"the column's own value {OTHER_LEVEL!r} is kept as itself, so the others "
                   f"are grouped as {other!r}")
    elif own:
        out.append(f"the column's own value {own[0]!r} is rare and grouped with them")
    return "; ".join(out)


def grouped_said(kept: Sequence[str], n_distinct: int | None = None,
                 min_rows: int = MIN_LEVEL_ROWS, s: pd.Series | None = None) -> str:
    """The words that say how a many-level column was grouped (the estimator's warning,
    `plx fit`'s note, the Data page), its number of levels when known; with the column `s`,
    also what else the grouping did to its values (`grouping_details`)."""
    head = f"{n_distinct} levels: " if n_distinct else ""
    rest = f"the other {n_distinct - len(kept)}" if n_distinct else "the others"
    more = grouping_details(s, kept) if s is not None else ""
    return (f"{head}the {len(kept)} most frequent (each in ≥ {min_rows} rows) kept, {rest} "
            f"grouped as {other_level(kept)!r}"
            + (f"; {more}" if more else ""))


def many_levels(s: pd.Series, n_distinct: int, max_levels: int | None = 100,
                min_rows: int = MIN_LEVEL_ROWS, delimiter: str | None = None
                ) -> tuple[str | None, tuple[str, ...] | None]:
    """For a categorical column of `n_distinct` levels that is neither ID-like nor free text:
    (why it is left out, None), (None, its kept levels) when it is grouped, or (None, None)
    when it is kept as it is. More than `max_levels` levels are grouped (`frequent_levels`);
    fewer than two frequent levels leave the column out, and so do numbers, dates or
    durations written as text (their few frequent texts, a "n.a." or a "-", are no
    categories: the reason's caller says how to convert them) — but codes written with leading
    zeros (`zero_padded`: 185 postcodes '02134'), which are grouped like any text."""
    if max_levels is None or n_distinct <= max_levels:
        return None, None
    kept = frequent_levels(s, max_levels, min_rows)
    vals = s.dropna()
    typed = pd.api.types.infer_dtype(vals, skipna=True)
    if len(kept) < 2 or typed.startswith(("timedelta", "datetime", "date", "time")) or (
            typed == "string" and (date_format(vals) is not None or mixed_dates(vals) is not None
            or (number_reading(vals, delimiter) is not None and zero_padded(vals) is None)
            or unread_numbers(vals, delimiter) is not None)):
        few = (f" and fewer than 2 of them in ≥ {min_rows} rows: nothing frequent enough to "
               "learn from" if len(kept) < 2 else "")
        return too_many_levels(n_distinct, max_levels) + few, None
    return None, kept


def uninformative(s: pd.Series, distinct: int | None = None) -> str | None:
    """Why a column can tell no row from another ("all values missing", "constant (every
    value is '7')"), or None: such a column only multiplies a Direct KB's clauses.
    `distinct`: how many distinct present values the column holds, when already counted (a
    binned column's numbers: several of one type differ, and print differently)."""
    if distinct is not None and distinct > 1 and (s.dtype != object or pd.api.types.infer_dtype(
            s, skipna=True) in ("string", "floating", "integer", "mixed-integer-float")):
        return None
    vals = s.dropna()
    if len(vals) == 0:
        return "all values missing"
    if vals.nunique() > 1 and (s.dtype != object or pd.api.types.infer_dtype(
            vals, skipna=True) in ("string", "floating", "integer", "mixed-integer-float")):
        # values of one type that differ print differently (an object frame's numbers too,
        # without a str each; 1 and 1.0 are one value)
        return None
    strs = as_strings(vals)
    if strs.nunique() != 1:
        return None
    if flag_column(s) is not None:
        return None  # 'x' or empty: a flag, whose rows with it differ from those without
    return f"constant (every value is {strs.iloc[0]!r})"


def flag_column(s: pd.Series, min_rows: int = MIN_LEVEL_ROWS) -> str | None:
    """How a column of one value and empty cells (a ticked box exported as 'x' or 'checked'
    and nothing; each on at least `min_rows` rows) is read, or None: kept, not 'constant' — its
    value is evidence where present —, the empty cells unknown as any missing cell, so said
    (an empty cell that means 'not ticked' is best written so)."""
    vals = s.dropna()
    n_empty = len(s) - len(vals)
    if len(vals) < min_rows or n_empty < min_rows:
        return None
    strs = as_strings(vals.head(SAMPLE))
    if strs.nunique() != 1 or as_strings(vals).nunique() != 1:
        return None
    v = strs.iloc[0]
    return (f"one value ({v!r}, {len(vals)} rows) and {n_empty} empty cells: kept, as rows "
            f"with {v!r} may differ from the others, the empty cells read as unknown (only "
            f"{v!r} is evidence); if an empty cell means 'not {v}', write it so (e.g. 'no') "
            "to learn from those rows too")


def label_texts(y: Any) -> pd.Series:
    """The label as `label_copy` compares it (strings, missing as NA, positions 0..n-1): made
    once for a table's columns rather than once a column."""
    ys = y if isinstance(y, pd.Series) and y.dtype == object else pd.Series(np.asarray(y))
    return as_strings(ys.reset_index(drop=True))  # numbers and booleans by their dtype


NUMBER_KINDS = ("floating", "integer", "boolean")
"""`pd.api.types.infer_dtype` kinds of an object column whose values print one way each
(an estimator's frame holds every column as objects)."""


def held_numbers(s: pd.Series) -> pd.Series:
    """An object column of floats as a float64 column: the same values and the same
    `as_strings`, read by numpy rather than value by value; any other column as it is."""
    if s.dtype != object or pd.api.types.infer_dtype(s, skipna=True) != "floating":
        return s
    try:
        return s.astype(float)
    except (TypeError, ValueError):
        return s


def label_copy(s: pd.Series, y: Any, strings: pd.Series | None = None) -> str | None:
    """Why a feature column looks like a copy of the label (its values pair one to one with
    the label's classes on every row where it is present, or each of a few values is held by
    one class's rows only — the label in other words, `DISGUISE_VALUES` —, and it is present on
    at least half the labelled rows), or None. Kept, but said: a model
    answers from it alone (out-of-fold F1 1.0), and new rows rarely know it before the outcome.
    `strings`: `label_texts(y)`, when many columns are asked. A column missing on one class's
    rows and present on the others' gives the label away as well (`label_missing`)."""
    ys = (label_texts(y) if strings is None else strings).set_axis(s.index)
    if (why := label_missing(s, ys)) is not None:
        return why
    n_classes = ys.nunique(dropna=True)
    most = disguise_values(n_classes)  # the most values a copy (or the label in other words) has
    s = held_numbers(s)  # numbers first: no float written as text (most of a numeric column's cost)
    if s.dtype.kind == "f":  # (values on labelled rows: they are fewer; counted by numpy)
        x = s.to_numpy()[ys.notna().to_numpy()]
        if len(np.unique(x[~np.isnan(x)])) > most:
            return None  # numbers write one to one as strings: more values than a copy, no copy
    elif (pd.api.types.is_numeric_dtype(s.dtype)
            and s[ys.notna().to_numpy()].nunique(dropna=True) > most):
        return None
    if as_strings(s.head(SAMPLE)).nunique(dropna=True) > most:
        return None  # more values in its head than a copy has: no copy (no full pass)
    labelled = ys.notna().to_numpy()
    present = int((s.notna().to_numpy() & labelled).sum())
    if present < max(n_classes + 1, labelled.sum() / 2):
        return None  # present on few rows (a survey's 2 answers in 300): chance, not a copy
    vs = as_strings(s)
    known = vs.notna().to_numpy() & labelled
    n_values = vs.nunique(dropna=True)
    if n_classes < 2 or not (n_values == n_classes
                             or n_classes < n_values <= min(most, present // LEAK_ROWS)):
        return None  # more values than classes: a disguise only on LEAK_ROWS rows a value
    v_codes, v_vals = pd.factorize(vs.to_numpy()[known])  # the distinct (value, class) pairs
    y_codes, y_vals = pd.factorize(ys.to_numpy()[known])  # by codes, not a frame's rows
    keys, first = np.unique(v_codes.astype(np.int64) * len(y_vals) + y_codes, return_index=True)
    if not len(keys) == len(v_vals) or len(y_vals) != n_classes:
        return None  # a value on two classes, or a class the column is never present on
    if n_values > n_classes:  # each value one class's: the label in other words
        held: dict[Any, list[Any]] = {}
        for k in np.sort(first):
            held.setdefault(y_vals[y_codes[k]], []).append(v_vals[v_codes[k]])
        shown = "; ".join(", ".join(repr(v) for v in sorted(vals, key=natural_key)[:3])
                          + (" …" if len(vals) > 3 else "")
                          + f" → {c!r}" for c, vals in sorted(held.items(),
                                                              key=lambda p: natural_key(p[0]))[:4])
        return (f"each of its {n_values} values is held by rows of one class only, on every row "
                f"where it is present ({shown}): the label in other words? A model answers from "
                "it alone; leave it out unless new rows know it before the outcome")
    seen = np.sort(first)  # the pairs in the order the rows first hold them
    pairs = zip(v_vals[v_codes[seen]], y_vals[y_codes[seen]])
    shown = ", ".join(f"{v!r} ↔ {c!r}" for v, c in
                      sorted(pairs, key=lambda p: natural_key(p[1]))[:4])
    return (f"its values pair one to one with the label's classes on every row ({shown}): a "
            "copy of the label? A model answers from it alone; leave it out unless new rows "
            "know it before the outcome")


def number_matrix(frame: pd.DataFrame) -> tuple[list[Any], list[str], np.ndarray]:
    """The columns of `frame` holding only numbers (floats or whole numbers, held as objects
    or in a numeric dtype; booleans not) as one float matrix, missing cells NaN: (their names,
    each one's kind — "floating" or "integer", as `pd.api.types.infer_dtype` says of objects
    —, rows × those columns). A column numpy cannot read as floats is left out."""
    names, kinds, cols = [], [], []
    for j, (c, t) in enumerate(frame.dtypes.items()):
        if t == np.dtype(object):
            kind = pd.api.types.infer_dtype(frame.iloc[:, j].to_numpy(), skipna=True)
        elif isinstance(t, np.dtype) and t.kind in "fiu":
            kind = "floating" if t.kind == "f" else "integer"
        else:
            continue
        if kind in ("floating", "integer"):
            names.append(c)
            kinds.append(kind)
            cols.append(j)
    if not cols:
        return [], [], np.zeros((len(frame), 0))
    try:
        x = frame.iloc[:, cols].to_numpy(dtype=float, na_value=np.nan)
    except (TypeError, ValueError, OverflowError):  # pd.NA, an integer beyond a float: singly
        keep, parts = [], []
        for i, j in enumerate(cols):
            try:
                parts.append(frame.iloc[:, j].to_numpy(dtype=float, na_value=np.nan))
                keep.append(i)
            except (TypeError, ValueError, OverflowError):
                continue
        names, kinds = [names[i] for i in keep], [kinds[i] for i in keep]
        x = np.column_stack(parts) if parts else np.zeros((len(frame), 0))
    return names, kinds, x


def quiet_columns(frame: pd.DataFrame, ys: pd.Series) -> set[Any]:
    """The columns of `frame` of which `label_copy`, `spelling_variants`, `percent_scales`,
    `unit_scales`, `missing_code` and `infinite_said` can say nothing, found in one pass over their float
    matrix (`number_matrix`) rather than a pandas pass a column (300 genes: a fifth of a fit):
    numbers that differ within a class on a value two classes share or among more than
    `disguise_values` (they write one to one as strings: no copy), whose
    missing cells `label_missing` cannot say give the label away (its test, on every class:
    rare additive's 35 columns, each missing on ~5% of rows, were asked one by one), not the two
    scales `percent_scales` asks for nor the gap `unit_scales` needs, and holding none of
    `NINES`. `ys`: `label_texts` of the label, on positions 0..n-1."""
    names, kinds, x = number_matrix(frame)
    if not names:
        return set()
    labelled = ys.notna().to_numpy()
    xl, known = x[labelled], ~np.isnan(x[labelled])
    n_miss, n = (~known).sum(axis=0), int(labelled.sum())
    leak = (n_miss >= LEAK_ROWS) & (n - n_miss >= LEAK_ROWS)
    codes = pd.factorize(ys.to_numpy()[labelled])[0]
    varies, gives = np.zeros(len(names), bool), np.zeros(len(names), bool)
    for k in range(int(codes.max(initial=-1)) + 1):
        rows = codes == k
        n_k, hit = int(rows.sum()), (~known[rows]).sum(axis=0)  # `label_missing`'s test, for
        gives |= ((n_k - hit <= LEAK_SLIPS * n_k)  # any class (it asks the commonest one)
                  & (n_miss - hit <= LEAK_SLIPS * (n - n_k)))
        lo = np.where(known[rows], xl[rows], np.inf).min(axis=0, initial=np.inf)
        hi = np.where(known[rows], xl[rows], -np.inf).max(axis=0, initial=-np.inf)
        varies |= hi > lo
    most, n_codes = disguise_values(int(codes.max(initial=0)) + 1), int(codes.max(initial=0)) + 1
    head = np.sort(xl[:SAMPLE], axis=0)  # NaN last: a head of more values than a copy has: none
    few = (np.diff(head, axis=0) > 0).sum(axis=0) + 1 <= most
    for j in np.flatnonzero(varies & few):  # few values each one class's: the label in other words
        vals, inv = np.unique(xl[known[:, j], j], return_inverse=True)
        if len(vals) <= most:  # pure: as many (value, class) pairs as values
            varies[j] = len(np.unique(inv * n_codes + codes[known[:, j]])) > len(vals)
    fin = np.isfinite(x)
    count = fin.sum(axis=0)
    least = np.maximum(10, MIXED_SHARE * count)
    with np.errstate(invalid="ignore"):
        scales = ((np.array(kinds) == "floating") & (count > 0)
                  & (np.where(fin, x, np.inf).min(axis=0, initial=np.inf) >= 0)
                  & (np.where(fin, x, -np.inf).max(axis=0, initial=-np.inf) <= 100)
                  & (((x > 0) & (x < 1)).sum(axis=0) >= least)
                  & (((x > 1) & (x <= 100)).sum(axis=0) >= least))
        coded = np.isin(x, NINES).any(axis=0)  # a code `missing_code` may say
        positive = fin & (x > 0)
        logs = np.sort(np.where(positive, np.log10(np.where(positive, x, 1.0)), np.nan), axis=0)
        steps = np.diff(logs, axis=0)
        gap = np.where(np.isnan(steps), 0.0, steps).max(axis=0, initial=0.0)
        units = (positive.sum(axis=0) == count) & (count >= 20) & (gap >= np.log10(5))
        infinite = np.isinf(x).any(axis=0)  # `infinite_said`
    return {c for c, q in zip(names, varies & ~(leak & gives) & ~scales & ~coded & ~units
                              & ~infinite) if q}


DISGUISE_VALUES = 10
"""The most values (or twice the classes, if more) a column may have for `label_copy` to say
each value is held by one class only (discharged to 'morgue' ⇔ died): more, and a value's
purity is chance; each value must also average `LEAK_ROWS` rows."""


def disguise_values(n_classes: int) -> int:
    """The most values a column may have for `label_copy` to call it the label in other words."""
    return max(DISGUISE_VALUES, 2 * n_classes)


LEAK_ROWS = 10
"""The fewest rows a column must miss, and hold, for its missingness to be said to give the
label away (`label_missing`): on fewer, one class's few rows line up by chance."""
LEAK_SLIPS = 0.01
"""The share of one class's rows that may hold a value, and of the other rows that may miss
one, for a column's missingness still to be said to give the label away."""


def label_missing(s: pd.Series, ys: pd.Series) -> str | None:
    """Why a column's missing cells give the label away (it is missing on one class's rows and
    present on the others', to `LEAK_SLIPS`), or None: a value filled in only after the
    outcome (unseen22's leak_missing: out-of-fold F1 1.0, then 0.02 on rows that hold it).
    `ys`: the label as strings (`label_texts`) on `s`'s index."""
    labelled = ys.notna().to_numpy()
    miss = s.isna().to_numpy() & labelled
    n_miss, n = int(miss.sum()), int(labelled.sum())
    if n_miss < LEAK_ROWS or n - n_miss < LEAK_ROWS:
        return None
    counts = ys[miss].value_counts()
    cls, hit = counts.index[0], int(counts.iloc[0])
    n_cls = int((ys == cls).sum())
    slipped = n_miss - hit  # missing on the other classes' rows
    if n_cls - hit > LEAK_SLIPS * n_cls or slipped > LEAK_SLIPS * (n - n_cls):
        return None
    return (f"it is missing on {hit:,} of the {n_cls:,} rows of class {cls!r} and on "
            f"{slipped:,} of the {n - n_cls:,} others: whether it is missing gives the label away "
            "(filled in only after the outcome?). A model answers from that alone, and new rows "
            "that hold a value are answered as if not "
            f"{cls!r}; leave it out unless new rows miss it the same way")


MIXED_SHARE = 0.05
"""The least share of a column's numbers each scale must hold for `percent_scales` to say it."""


def plain_numbers(s: pd.Series) -> np.ndarray | None:
    """A column's numbers as floats (`held_numbers`: numbers written as text read), or None for
    a column of text or booleans: what the two-scale notes (`percent_scales`, `unit_scales`)
    read."""
    s = held_numbers(s)
    if not pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return None
    return s.to_numpy(dtype=float)


def percent_scales(s: pd.Series) -> str | None:
    """Why a numeric column looks like a percentage written as a fraction on some rows (0.42)
    and in percent on others (42), or None: numbers between 0 and 1 and between 1 and 100
    (each at least `MIXED_SHARE` and 10 rows), none outside 0..100, hardly any between 1 and 2
    (a gap a measure on one scale would fill), and the fractions × 100 inside the others' range
    (unseen22's pct_mixed: two sites' exports). Binned as written, never rescaled silently."""
    x = plain_numbers(s)
    if x is None:
        return None
    x = x[np.isfinite(x)]
    if len(x) == 0 or x.min() < 0 or x.max() > 100:
        return None
    small, large = x[(x > 0) & (x < 1)], x[(x > 1) & (x <= 100)]
    least = max(10, MIXED_SHARE * len(x))
    if len(small) < least or len(large) < least or ((x > 1) & (x < 2)).sum() > 0.1 * len(small):
        return None
    mid = float(np.median(small)) * 100
    if not large.min() <= mid <= large.max():
        return None
    return (f"holds {len(small):,} numbers between 0 and 1 (median {np.median(small):.3g}) and "
            f"{len(large):,} between 1 and 100 (median {np.median(large):.3g}), none between 1 and "
            "2: a percentage written as a fraction on some rows and in percent on others? It is "
            "binned as written; write it one way (e.g. the fractions × 100) to have them count as "
            "one")


def _run_said(small: np.ndarray) -> str:
    """Where the rows of one scale stand when they are one run of the table's rows: "the first
    / last N rows" (two exports joined one after the other), else ""."""
    at = np.flatnonzero(small)
    return run_said(int(at[0]), int(at[-1]), len(at), len(small)) if len(at) else ""


def run_said(first: int, last: int, rows: int, n: int) -> str:
    """`_run_said` from the first and last position of the `rows` marked among `n` (a Dask
    table's counted on the cluster, `unit_scales(run=)`)."""
    if rows == 0 or last - first + 1 != rows:
        return ""
    if first == 0:
        return f", all of them the table's first {rows:,} rows"
    if last == n - 1:
        return f", all of them the table's last {rows:,} rows"
    return f", all of them one run of {rows:,} rows"


def unit_scales(s: pd.Series, run: Any = None) -> str | None:
    """Why a numeric column looks like one measure written in two units a power of ten apart
    (a height in m on some rows, 1.72, and in cm on others, 172; g and kg), or None: positive
    numbers in two groups of at least `MIXED_SHARE` and 10 rows each, nothing between them and
    at least 5× apart, their medians 10, 100, 1000… apart (to 25%) and their spreads alike
    (unseen23's ratio_units: two sites joined, F1 0.810 against 0.895 written in one unit).
    Binned as written, never rescaled silently. `run(cut)`: where the rows below `cut` stand
    (`run_said`) when `s` is not in the table's order (a Dask table's column rebuilt)."""
    x = plain_numbers(s)
    if x is None:
        return None
    present = np.isfinite(x)
    v = x[present]
    if len(v) < 20 or v.min() <= 0:
        return None
    lv = np.sort(np.log10(v))
    gaps = np.diff(lv)
    at = int(np.argmax(gaps)) if len(gaps) else 0
    least = max(10, MIXED_SHARE * len(v))
    if len(gaps) == 0 or gaps[at] < np.log10(5) or min(at + 1, len(v) - at - 1) < least:
        return None
    low, high = lv[: at + 1], lv[at + 1:]
    apart = float(np.median(high) - np.median(low))
    power = round(apart)
    spread_low = np.subtract(*np.percentile(low, [75, 25]))
    spread_high = np.subtract(*np.percentile(high, [75, 25]))
    if power < 1 or abs(apart - power) > np.log10(1.25) or not (
            0.5 * spread_high <= spread_low <= 2 * spread_high):
        return None
    cut = 10 ** ((low[-1] + high[0]) / 2)
    if run is None:
        where = _run_said(present & (np.where(present, x, np.inf) < cut))
    else:
        where = run(cut)
    lo, hi = 10 ** low, 10 ** high
    return (f"holds {len(lo):,} numbers between {lo[0]:.4g} and {lo[-1]:.4g} (median "
            f"{np.median(lo):.3g}){where}, and {len(hi):,} between {hi[0]:.4g} and "
            f"{hi[-1]:.4g} (median {np.median(hi):.3g}), none between: one measure written in "
            f"two units {10 ** power:,}× apart (m and cm, kg and g)? It is binned as written; "
            "write it in one unit to have them count as one, and check those rows' other "
            "columns for a second unit too")


CODE_SHARE = 0.005
"""The least share of a column's numbers a missing-value code must hold for `missing_code`."""
_CODE = re.compile(r"-?9{2,}")
NINES = tuple(float(sign * (10**k - 1)) for k in range(2, 16) for sign in (1, -1))
"""The numbers `missing_code` may read as a code (±99 … ±999,999,999,999,999)."""


def missing_code(s: pd.Series) -> str | None:
    """Why a numeric column looks like it writes "not measured" as a number, or None: a value
    of nines (-99, -999, 9999, 99999) in at least `CODE_SHARE` of its rows and 5, beyond every
    other value by more than their whole span (unseen23's sentinel: creatinine -999 beside
    0.2–4, BMI 9999 beside 15–45) — binned as a number, it reads as the lowest or highest
    value in every cut and explanation. Kept as written; said with the way to read it missing."""
    s = held_numbers(s)
    if pd.api.types.is_bool_dtype(s.dtype):
        return None
    if not pd.api.types.is_numeric_dtype(s.dtype):
        if pd.api.types.infer_dtype(s, skipna=True) not in ("integer", "floating", "mixed-integer-float"):
            return None
        s = pd.to_numeric(s, errors="coerce")
    x = s.to_numpy(dtype=float)
    x = x[np.isfinite(x)]
    values, counts = np.unique(x, return_counts=True)
    least = max(5, CODE_SHARE * len(x))
    for v, k in zip(values, counts, strict=True):
        if k < least or v != np.floor(v) or not _CODE.fullmatch(f"{v:.0f}"):
            continue
        rest = x[x != v]
        if len(rest) < 10:
            continue
        lo, hi = float(rest.min()), float(rest.max())
        gap = lo - v if v < lo else v - hi if v > hi else -1.0
        if gap > max(hi - lo, 0.0):
            side = "below" if v < lo else "above"
            return (f"holds {v:.0f} in {counted(int(k), 'row')}, far {side} every other value "
                    f"({lo:g} to {hi:g}): a code for a missing value? It is binned as a number "
                    f"(the {'lowest' if v < lo else 'highest'} one, in cut points and explanations); "
                    f"if it means missing, read it so (pd.read_csv(…, na_values=[{v:.0f}]), "
                    f"plx fit --missing {v:.0f})")
    return None


TWIN_RANK = 0.999
"""Two numeric columns whose ranks correlate this closely (either sign) are one measure twice."""
TWIN_ROWS = 10
"""The fewest rows both columns of a twin pair hold: two mostly-missing columns that meet on 2
rows correlate +-1 by chance (a dose for group A, another for group B)."""


def twin_columns(frame: pd.DataFrame, sample: int = 2000) -> list[tuple[str, str, str]]:
    """Pairs of columns that are one measure written twice, as (first, second, how): numbers
    in the same (or reversed) order on the rows both hold (`TWIN_RANK`: a weight in kg and in
    lb, a temperature in °C and °F, to rounding), or any columns whose values pair one to one
    with the same cells missing (a copy under a new name). Kept, but said: a vote counts the
    measure twice and an explanation of k features may spend two on it (unseen21's twin_units:
    half of them did). Candidates come from a seeded sample of `sample` rows, each pair is
    confirmed on every row."""
    frame = frame.infer_objects()  # numbers held as objects: numbers (column by column)
    cols = [c for c, k in frame.notna().sum().items() if k >= TWIN_ROWS]
    rows = frame if len(frame) <= sample else frame.sample(sample, random_state=0)
    out: list[tuple[str, str, str]] = []
    paired: set[str] = set()
    first: dict[bytes, str] = {}  # copies: the same first-seen codes, missing cells included
    least = distinct_at_least(rows, cols)  # numbers: counted in one sort, not a column each
    for c in cols:
        if least.get(c, 0) - 1 >= len(rows) / 2:  # its codes would reach len(rows) / 2
            continue
        codes = pd.factorize(rows[c])[0]
        if not 1 <= codes.max(initial=-1) < len(rows) / 2:  # a pairing of repeated values only
            continue
        if (a := first.setdefault(codes.tobytes(), c)) != c and np.array_equal(
                pd.factorize(frame[a])[0], pd.factorize(frame[c])[0]):
            out.append((a, c, "one to one"))
            paired.add(c)
    dt = frame.dtypes
    num = [c for c in cols if c not in paired and pd.api.types.is_numeric_dtype(dt[c])
           and dt[c] != np.dtype(bool) and (least.get(c, 0) >= 10 or rows[c].nunique() >= 10)]
    if 1 < len(num) <= 300:
        corr = rows[num].rank().corr(min_periods=TWIN_ROWS).to_numpy()  # rows both hold
        for i, j in zip(*np.nonzero(np.triu(np.abs(np.nan_to_num(corr)) >= TWIN_RANK, 1))):
            a, b = num[i], num[j]
            if b in paired:
                continue
            whole = frame[[a, b]].dropna()
            rho = whole[a].rank().corr(whole[b].rank())
            if len(whole) >= TWIN_ROWS and abs(rho) >= TWIN_RANK:
                out.append((a, b, f"in {'the same' if rho > 0 else 'reverse'} order (rank "
                                  f"correlation {rho:.4f})"))
                paired.add(b)
    return out


def distinct_at_least(rows: pd.DataFrame, cols: Sequence[Any]) -> dict[Any, int]:
    """Each numeric (not boolean) column of `cols` → its distinct numbers on `rows` (missing
    cells not counted), by one sort of their float matrix: at most `nunique`'s count (numbers
    that meet as floats count once), so a column it says holds many does."""
    dt = rows.dtypes
    num = [c for c in cols if pd.api.types.is_numeric_dtype(dt[c]) and dt[c] != np.dtype(bool)]
    if not num or not len(rows):
        return {}
    try:
        v = np.sort(rows[num].to_numpy(dtype=float, na_value=np.nan), axis=0)  # NaN last
    except (TypeError, ValueError, OverflowError):
        return {}
    ok = ~np.isnan(v)
    n = ok[0].astype(np.int64) + ((v[1:] != v[:-1]) & ok[1:]).sum(axis=0)
    return dict(zip(num, n.tolist()))


def twin_said(a: str, b: str, how: str) -> str:
    """The note for a pair of `twin_columns`."""
    what = (f"its values pair one to one with those of column {a!r} on every row"
            if how == "one to one" else f"its numbers follow those of column {a!r} {how}")
    return (f"column {b!r}: {what} — one measure twice (another unit or a copy)? Both kept: a "
            "vote counts it twice and an explanation may name both; leave one out if they are "
            "one measure")


def spelling_variants(s: pd.Series, shown: int = 3) -> str | None:
    """Why a text column may count one value as several ("True" / "TRUE", "yes" / "Yes ", an
    accent as one character or as a letter and a combining mark: the same text to a reader,
    `encoding.text_key`), or None. Kept apart (they could differ on purpose), never silently:
    each spelling learns from its own rows, and an explanation citing one looks like the other."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype) or (
            s.dtype == object and pd.api.types.infer_dtype(s, skipna=True) in NUMBER_KINDS):
        return None  # numbers and booleans print one way (held as objects too)
    groups = spelling_groups(pd.unique(as_strings(s).dropna()))
    if not groups:
        return None
    listed = "; ".join(f"{spelling_shown(g)} ({spelling_how(g)})" for g in groups[:shown])
    more = f" and {len(groups) - shown} more" if len(groups) > shown else ""
    return (f"writes values more than one way, kept apart as different values: {listed}{more}; "
            "write each value one way to have them count as one")


FLAG_WORDS = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}
"""The answers of a yes/no column by their `encoding.word_key` ('Y', 'ja', 'TRUE', '1')."""


def flag_vocabularies(s: pd.Series) -> str | None:
    """Why a text column looks like one yes/no answer written in more than one vocabulary
    ('Y' / 'N', 'TRUE' / 'FALSE', '1' / '0': systems joined, reading24's flag_spellings), or
    None: every value is a `FLAG_WORDS` answer and one answer has two words. Kept apart, never
    silently: each writing learns from its own rows (a third of them), and rules say 'Y' and
    'TRUE' as two things. The letter and its word alone ('Y' / 'yes') are `spelling_variants`'."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype) or \
            pd.api.types.infer_dtype(s, skipna=True) != "string":
        return None
    distinct = sorted({v.strip() for v in pd.unique(s.dropna().to_numpy(dtype=object))})
    keys = {v: word_key(v) for v in distinct}
    if not all(k in FLAG_WORDS for k in keys.values()) or len(set(keys.values())) <= 2:
        return None
    yes = [v for v in distinct if FLAG_WORDS[keys[v]]]
    no = [v for v in distinct if not FLAG_WORDS[keys[v]]]
    if not yes or not no:
        return None
    return (f"writes one yes/no answer more than one way, kept apart as different values: "
            f"{', '.join(map(repr, yes))} (yes?) and {', '.join(map(repr, no))} (no?); write "
            "each answer one way to have it count as one")


FLAG_PAIRS = (("yes", "no"), ("true", "false"), ("1", "0"))
"""The yes/no vocabularies by their `FLAG_WORDS` keys, the answer yes first."""


def flag_map(s: pd.Series) -> dict[str, str] | None:
    """How to read a yes/no column written in several vocabularies as one answer ('Y', 'yes',
    'TRUE', '1' / 'N', 'no', 'FALSE', '0'): each writing (stripped) → its answer's most
    frequent writing; None unless it is safe — every value a `FLAG_WORDS` answer, both answers
    there, and one of them written more than one way."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype) or \
            isinstance(s.dtype, pd.CategoricalDtype) or \
            pd.api.types.infer_dtype(s, skipna=True) != "string":
        return None
    counts = s.dropna().astype(str).str.strip().value_counts()
    if len(counts) < 3 or len(counts) > 12:
        return None
    keys = {v: word_key(v) for v in counts.index}
    if not all(k in FLAG_WORDS for k in keys.values()):
        return None
    sides: dict[bool, list[str]] = {True: [], False: []}
    ranked = sorted(counts.index, key=lambda v: (-int(counts[v]), v))
    for v in ranked:
        sides[FLAG_WORDS[keys[v]]].append(v)
    if not sides[True] or not sides[False]:
        return None
    # both answers as one vocabulary writes them: the pair of writings of one kind ('TRUE'
    # with 'FALSE', 'Y' with 'N', 'Yes' with 'No'; not 'TRUE' with '0') with the most cells
    def form(v: str) -> tuple[bool, bool, bool]:
        return len(v) == 1, v.isupper(), v[:1].isupper()

    pairs = [(yv, nv) for a, b in FLAG_PAIRS for yv in sides[True] for nv in sides[False]
             if keys[yv] == a and keys[nv] == b and form(yv) == form(nv)]
    if pairs:
        yv, nv = max(pairs, key=lambda p: int(counts[p[0]]) + int(counts[p[1]]))
        sides = {True: [yv], False: [nv]}
    return {v: sides[FLAG_WORDS[keys[v]]][0] for v in counts.index}


def read_flags(s: pd.Series, mapping: Mapping[str, str]) -> pd.Series:
    """A flag column's cells as `flag_map` reads them (the model file's map): each writing as
    its answer's, one the map lacks but that is a yes/no word ('TRUE' new at predict) too;
    other text as written (an unseen value, said as any)."""
    text = as_strings(s)
    answer = {FLAG_WORDS[word_key(k)]: v for k, v in mapping.items() if word_key(k) in FLAG_WORDS}
    codes, uniques = pd.factorize(text.to_numpy(dtype=object))
    read = [mapping.get(u.strip(), answer.get(FLAG_WORDS.get(word_key(u.strip())), u))
            for u in uniques]
    out = np.asarray(read + [np.nan], dtype=object)[codes]
    return pd.Series(out, index=s.index, name=s.name, dtype=object)


LIST_SEPARATORS = (";", "|", ",")
"""What separates the items of a cell that lists several ('diabetes;copd', 'a|b', 'x, y')."""


def listed_items(s: pd.Series, shown: int = 3) -> str | None:
    """Why a text column looks like lists of items ('diabetes;copd', 'hf;diabetes': reading25's
    comorbid_lists), or None: a tenth of its cells or more list two or more of a few items
    (at most 60) that recur across cells, more combinations than items. Each combination is a
    value of its own, so an item counts only beside the same others: said, with the way to
    give each item a column of its own."""
    if pd.api.types.infer_dtype(s, skipna=True) != "string":
        return None
    raw = s.value_counts()  # the distinct cells (hashed); the text work is on them alone
    if not 4 <= len(raw) <= 40_000:  # a few levels (most columns) end here
        return None
    merged: dict[str, int] = {}
    for v, k in zip(raw.index.tolist(), raw.to_numpy().tolist()):
        if (v := str(v).strip()) != "":  # ' dm ' and 'dm' one value
            merged[v] = merged.get(v, 0) + k
    if not 4 <= len(merged) <= 20_000 or not any(  # more: free text, `free_text`'s
            sep in v for v in merged for sep in LIST_SEPARATORS):  # no separator: no list
        return None
    counts = pd.Series(merged, dtype=np.int64).sort_values(ascending=False, kind="stable")
    values, n = counts.index.tolist(), counts.to_numpy()
    for sep in LIST_SEPARATORS:  # in Python on the distinct values: pandas' str methods cost
        # ~0.2 ms a call, which on a column of a few levels (most) was most of this note
        several = np.fromiter((sep in v for v in values), bool, len(values))
        if n[several].sum() < 0.1 * n.sum():
            continue
        items = counts.index.str.split(sep, regex=False).map(lambda v: [i.strip() for i in v])
        per = pd.Series([i for v in items for i in v], dtype=object)
        if (per == "").any() or per.str.fullmatch(r"[\d.,\s+-]*").any():
            continue  # '1,234', 'a;;b', numbers: no list of named items
        seen = per.value_counts()
        if len(seen) > 60 or len(seen) >= len(counts) or (seen < 2).mean() > 0.2:
            continue
        ex = ", ".join(repr(v) for v in counts.index[several][:shown])
        return (f"holds lists of items separated by '{sep}' ({ex}: {len(seen)} items in "
                f"{len(counts)} combinations): each combination is a value of its own, so an "
                "item counts only beside the same others; give each item a column of its own "
                f"(yes/no, e.g. s.str.get_dummies(sep='{sep}')) to have it count wherever it "
                "is listed")
    return None


def columns_left_out(levels: Mapping[str, str | None],
                     flat: Mapping[str, str | None]) -> dict[str, str]:
    """The columns a model leaves out, with why: each with a `levels` reason
    (`excess_levels`; every column is a key) and, while another column varies, each with a
    `flat` reason (`uninformative`) — a table of constant columns keeps them rather than none."""
    out = {c: w for c, w in levels.items() if w is not None}
    rest = {c: w for c, w in flat.items() if c not in out and w is not None}
    if len(out) + len(rest) < len(levels):
        out.update(rest)
    return out


_ID_WORDS = ("id", "ids", "no", "nr", "nbr", "num", "number", "mrn", "ssn", "identifier",
             "uuid", "guid", "pid")
"""A header's last word that names an identifier ('patient_no', 'Customer ID', 'MRN',
'PatientNumber'): its whole numbers name cases, whatever their spread or repeats."""


_ID_COUNTS = ("no", "num", "number")
"""Last words of `_ID_WORDS` that also name a count ('platelet_number', 'cell num', 'step_no'):
an identifier only alone or after a word naming what is numbered (`_NUMBERED`) — else a count
with more than ten values was left out as case numbers (review24: 'platelet_number' dropped)."""
_NUMBERED = ("patient", "case", "subject", "record", "customer", "client", "member", "account",
             "visit", "admission", "encounter", "episode", "sample", "specimen", "order", "claim",
             "policy", "passenger", "participant", "study", "file", "chart", "serial",
             "registration", "reference", "ref", "ticket", "invoice", "transaction", "person",
             "user", "employee", "student", "household", "hospital", "row", "entry", "item")


def names_an_id(name: Any) -> bool:
    """Whether a column's header ends in a word naming an identifier (`_ID_WORDS`; 'number of
    visits', 'num_children', 'id_type' and a count such as 'platelet_number' do not)."""
    words = [w.lower() for w in re.split(r"[\W_]+|(?<=[a-z])(?=[A-Z])", str(name)) if w]
    if not words or words[-1] not in _ID_WORDS or "of" in words:
        return False
    return words[-1] not in _ID_COUNTS or len(words) == 1 or words[-2] in _NUMBERED


def case_number(name: Any, x: np.ndarray, max_categories: int = 10) -> str | None:
    """Why a column of whole numbers `x` (present values) is left out as a number that names
    cases, or None: its header names an identifier (`names_an_id`) and it holds more than
    `max_categories` distinct values — a patient number with repeats (several visits, 25%
    distinct) or of random digits is neither `ID_LIKE` by share nor numbered in a run, and
    binned it read as a measurement (unseen23's near_id: cut at 56,783). Rows of one case
    belong in one fold: the reason names the case column."""
    if len(x) == 0 or not names_an_id(name) or not bool(
            np.all((np.floor(x) == x) & (np.abs(x) < 2.0**53))):
        return None
    values, counts = np.unique(x, return_counts=True)
    if len(values) <= max_categories:
        return None
    repeats = int((counts > 1).sum())
    rows = (f"{len(values):,} numbers, each on one row" if not repeats else
            f"{len(values):,} numbers, each on {int(counts.min())}"
            f"{'' if counts.min() == counts.max() else f' to {int(counts.max())}'} rows"
            if repeats == len(values) else
            f"{len(values):,} numbers, {repeats:,} of them on several rows (up to "
            f"{int(counts.max())})")
    return (f"{ID_LIKE}: its header names an identifier and it holds {rows}: it names cases "
            "rather than describing them, so it is not binned as a measurement; if a case has "
            f"several rows, name it the case column (plx fit --case-column {name}, "
            "PLXClassifier.fit(X, y, groups=…)) to keep a case's rows in one fold")


_PADDED = re.compile(r"0[0-9]+")


def zero_padded(s: pd.Series) -> str | None:
    """Why a text column of whole numbers is read as codes, not numbers, or None: every
    present value is digits of one width, some with leading zeros ('01', '07', '10'; a
    postcode '02134') — a code's writing, which no export gives an amount (unseen23's
    int_codes: 0.487 read as text, 0.456 binned). Categories in `plx fit` and the dashboard,
    and no hint to convert them in `PLXClassifier`."""
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype) or \
            pd.api.types.infer_dtype(s, skipna=True) != "string":
        return None
    distinct = [v.strip() for v in pd.unique(s.dropna().to_numpy(dtype=object))]
    if len(distinct) < 2 or len({len(v) for v in distinct}) != 1 or \
            not all(v.isascii() and v.isdigit() for v in distinct):
        return None
    padded = sorted(v for v in distinct if _PADDED.fullmatch(v))
    if not padded:
        return None
    shown = ", ".join(repr(v) for v in padded[:2])
    return (f"its {len(distinct):,} values are whole numbers written with leading zeros "
            f"({shown}), all {len(distinct[0])} digits: codes (a department, a postcode), "
            "read as categories, not binned as amounts")


def infinite_said(s: pd.Series) -> str | None:
    """Why a numeric column's inf / -inf cells are said, or None when it holds none: a ratio
    divided by 0 before export (unseen23's inf_ratio) is binned beyond every number, in the
    highest or lowest bin, which is a reading the user should know of and may not mean."""
    x = plain_numbers(s)
    if x is None:
        return None
    up, down = int(np.isposinf(x).sum()), int(np.isneginf(x).sum())
    if not up and not down:
        return None
    held = " and ".join(f"{v} in {counted(k, 'row')}" for v, k in (("inf", up), ("-inf", down))
                        if k)
    bins = " and ".join(b for b, k in (("highest", up), ("lowest", down)) if k)
    return (f"holds {held} (a number divided by 0 before export?): binned beyond every number, "
            f"in the {bins} bin{'s' if up and down else ''}; if they mean 'not known', read them "
            "as missing (pd.read_csv(…, na_values=['inf', '-inf']), plx fit --missing inf,-inf)")


def numbered_like_ids(x: np.ndarray) -> bool:
    """True when numbers (present values) could be row IDs: whole numbers filling a run
    (at most 1.5× as wide as they are many: 1..n, shuffled, or with gaps) — not a measure
    that happens to be whole and mostly distinct (amounts of money, counts of steps, which a
    model needs binned); 1e300 or inf is "integral" as a float, not an ID."""
    if len(x) == 0 or not bool(np.all((np.floor(x) == x) & (np.abs(x) < 2.0**53))):
        return False
    return float(x.max() - x.min() + 1) <= 1.5 * len(np.unique(x))


_DIGIT = re.compile(r"\d")
_FEW_WHOLE = re.compile(r"[+-]?[0-9]{1,15}(?:\.0+)?")  # whole numbers a float holds exactly,
# plainly or as a float column with gaps is written (pandas writes 3 as "3.0" beside a NaN)


def text_binned(s: pd.Series, max_categories: int = 10) -> bool:
    """True when `s` holds text that `plx fit` reads as numbers (or dates) and bins
    (`_read_numbers`, `_binned`): `PLXClassifier`, which keeps text as text, says so when
    it keeps such a column as categories, so that numbers never silently become categories."""
    if pd.api.types.infer_dtype(s, skipna=True) != "string":
        return False
    distinct = pd.unique(s.dropna().to_numpy(dtype=object))  # text: each value looked at once
    from .ordered import MAX_LEVELS, MIN_LEVELS, band_order

    if MIN_LEVELS <= len(distinct) <= MAX_LEVELS and band_order([v.strip() for v in distinct]):
        return True  # ordered bands or a scale's words: plx fit cuts them in their order
    if not any(_DIGIT.search(v) for v in distinct):
        return False  # no digit, no number or date: the fit's categories ("y", "n") cheaply
    if len(distinct) <= max_categories and all(_FEW_WHOLE.fullmatch(v) for v in distinct):
        return False  # a few whole numbers ("0", "1", "2"): categories in any reading, cheaply
    if _beyond_strays(s):
        return False  # codes ("reg0", "city12"): not by reading every cell (~10 s of a
        # 1,000,000-row fit with 6 such columns, scale24)
    if zero_padded(s) is not None:
        return False  # codes ("01", "07"): categories in every reading
    x, bad, fmt, _, _ = _read_numbers(s)
    return not bad.any() and _binned(x, fmt, int(s.nunique(dropna=True)), max_categories)


def whole_levels(s: pd.Series, max_categories: int = 10) -> tuple[float, float, int] | None:
    """(lowest, highest, how many) of a column's values when they are 3 to `max_categories`
    distinct whole numbers, held as numbers or written plainly (a score, a grade, a count, a
    code): the columns `discretize.is_numeric` keeps as categories though they may be
    ordered (`PLXClassifier` races the two readings); None otherwise (two values are a flag:
    no order to lose; a pandas category column is categories by the user's word)."""
    if pd.api.types.is_bool_dtype(s.dtype) or isinstance(s.dtype, pd.CategoricalDtype):
        return None  # a flag; or categories the user declared (pandas' category dtype)
    distinct = pd.unique(s.dropna().to_numpy(dtype=object))  # each value looked at once
    if not 3 <= len(distinct) <= max_categories:
        return None
    if not pd.api.types.is_numeric_dtype(s.dtype) and not all(
            (isinstance(v, str) and _FEW_WHOLE.fullmatch(v.strip())) or (
                isinstance(v, (int, float, np.integer, np.floating))
                and not isinstance(v, (bool, np.bool_))) for v in distinct):
        return None  # numbers held in an object column (as a fit's table holds every column)
    x = np.unique(np.asarray([float(v) for v in distinct]))
    if len(x) < 3 or not np.all(np.floor(x) == x):
        return None
    return float(x[0]), float(x[-1]), len(x)


def whole_numbers(s: pd.Series) -> np.ndarray:
    """A column of `whole_levels` (whole numbers held as numbers or written plainly) as floats,
    NaN where missing: each distinct value read once."""
    codes, uniques = pd.factorize(s.to_numpy(dtype=object))
    read = np.array([float(v.strip() if isinstance(v, str) else v) for v in uniques] + [np.nan])
    return read[codes]  # code −1 (missing): the last, NaN


def _binned(x: np.ndarray, fmt: str, n_distinct: int, max_categories: int) -> bool:
    """Whether a column of numbers `x` (read in format `fmt`) is binned: the estimator's rule
    (`discretize.is_numeric`: non-whole numbers, or more than `max_categories` distinct values),
    so `plx fit`, the dashboard and `PLXClassifier` type one table alike; dates as before."""
    if is_date_format(fmt):
        return n_distinct > max_categories
    if format_levels(fmt) is not None:
        return True  # ordered levels: cut where their order parts the classes
    from .discretize import is_numeric  # discretize builds on this module

    return is_numeric(pd.Series(x, dtype=float), max_categories)


def infer_schema(
    frame: pd.DataFrame,
    label: str,
    positive: Any = None,
    id_threshold: float = 0.95,
    *,
    features: Sequence[str] | None = None,
    exclude: Sequence[str] = (),
    numeric: Sequence[str] = (),
    categorical: Sequence[str] = (),
    method: Method | Mapping[str, Method] = "quantile",
    bins: int | Mapping[str, int] = 4,
    cuts: Mapping[str, Sequence[float]] | None = None,
    max_categories: int = 10,
    max_levels: int | None = 100,
    label_map: Mapping[str, str] | None = None,
    named: bool = False,
    delimiter: str | None = None,
) -> Schema:
    """Decide, once, how `frame` becomes features and a label.

    A column is numeric when every present value is a number and it holds non-whole numbers
    or more than `max_categories` distinct values (the estimator's rule,
    `discretize.is_numeric`), or it is listed in `numeric` / `cuts`; numeric columns
    are discretised by `method` with `bins` (both may be per-column dicts) or by `cuts`.
    Columns are excluded, with the reason recorded, when they are ID-like (distinct values /
    present values ≥ `id_threshold`, more than `max_categories` distinct, and text or
    integers), free text (`free_text`: mostly distinct values of several words), constant,
    entirely missing, listed in `exclude`, or not in `features` when that list is given
    (listed features are kept even if ID-like or constant). A categorical column of more than
    `max_levels` distinct values keeps its frequent levels and reads the rest as one
    `OTHER_LEVEL` (`many_levels`; recorded in `grouped`): each rare level alone would only
    make clauses that memorise rows.
    `positive=None` keeps the label multi-class, except that a 0/1, −1/1, False/True or no/yes
    label gets "1" / "True" / "yes" (`plx_core.encoding.default_positive`). Bin labels leave out the column name by default (`named=False`): a literal
    already names its feature, so `age=[18, 30)` reads better than `age="age∈[18, 30)"`.
    `delimiter` is the file's (`Table.delimiter`): a ';' decides how 1.234 and 1,234 read
    (`number_format`).
    """
    if label not in frame.columns:
        raise DataError(f"no label column {label!r}{column_twins([label], frame.columns)}; "
                        "the columns are "
                        f"{[str(c) for c in frame.columns]}")
    cols = column_names(frame)  # refuses a name that stands twice
    cuts = dict(cuts or {})
    y = _label_strings(frame[label], label_map)
    classes = tuple(sorted(pd.unique(y).tolist(), key=natural_key))
    if positive is not None:
        pos = class_named(_scalar_str(positive), classes, f"the label {label!r}")
    else:
        pos = default_positive(classes)

    unknown = [c for c in [*(features or ()), *exclude, *numeric, *categorical, *cuts]
               if c not in frame.columns]
    if unknown:
        raise DataError(f"{noun(len(unknown), 'column')} {unknown} {verb(len(unknown), 'is', 'are')} not in the table (columns: {cols})")
    clash = sorted(set(numeric) & set(categorical)) + sorted(set(cuts) & set(categorical))
    if clash:
        raise DataError(f"{noun(len(clash), 'column')} {clash} {verb(len(clash), 'is', 'are')} listed as both numeric and categorical")
    if features is not None and label in features:
        raise DataError(f"the label {label!r} cannot also be a feature")

    explicit = features is not None
    chosen = list(features) if explicit else [c for c in frame.columns if c != label]
    excluded: dict[str, str] = {}
    if explicit:
        for c in frame.columns:
            if c != label and c not in chosen:
                excluded[c] = "not among the requested features"
    kept: list[str] = []
    kinds: dict[str, str] = {}
    binnings: dict[str, Binning] = {}
    categories: dict[str, tuple[str, ...]] = {}
    grouped: dict[str, tuple[str, ...]] = {}
    value_maps: dict[str, dict[str, str]] = {}
    for c in chosen:
        if c in exclude:
            excluded[c] = "excluded by request"
            continue
        s = frame[c]
        if c not in numeric and c not in cuts and (flags := flag_map(s)) is not None:
            value_maps[c], s = flags, read_flags(s, flags)  # one answer, however written
        present = int(s.notna().sum())
        if present == 0:
            if explicit:
                raise DataError(f"feature column {c!r} has no values")
            excluded[c] = uninformative(s) or "all values missing"
            continue
        fmt, stray, side = "plain", (), np.zeros(len(s), dtype=np.int8)
        if pd.api.types.is_bool_dtype(s.dtype):
            x, is_num = None, False
        else:
            if c in categorical:  # read as given: no format, no stray texts
                x, bad = _numbers(s)
            else:
                x, bad, fmt, stray, side = _read_numbers(s, delimiter)
            is_num = not bad.any()
            if is_num and fmt == "plain" and c not in numeric and c not in cuts and \
                    zero_padded(s) is not None:
                is_num = False  # codes ("01", "07"): categories, said by the caller
        n_distinct = int(s.nunique(dropna=True))
        many = None  # many_levels' answer, once
        if c in numeric or c in cuts:
            if x is None:
                raise DataError(f"column {c!r} is listed as numeric but it is boolean")
            if not is_num:
                r = int(np.flatnonzero(bad)[0])
                raise DataError(
                    f"column {c!r} is listed as numeric but {row_name(s.index, r)} holds "
                    f"{s.iloc[r]!r}, not a number"
                )
            kind = "numeric"
        elif c in categorical:
            kind = "categorical"
        else:
            kind = "numeric" if is_num and _binned(x, fmt, n_distinct, max_categories) \
                else "categorical"
        if not explicit and c not in numeric and c not in categorical and c not in cuts:
            present_x = x[~np.isnan(x)] if is_num else None
            why = None if is_num else free_text(s, max_categories)
            plain = is_num and not is_date_format(fmt) and fmt not in CLOCK_FORMATS
            why = why or excess_levels(n_distinct, present, not is_num or (  # a date: no ID
                                           plain and numbered_like_ids(present_x)),
                                       id_threshold, max_categories, None) or (
                case_number(c, present_x, max_categories) if plain else None)
            if why is None and kind == "categorical":
                why, kept_levels = many = many_levels(s, n_distinct, max_levels,
                                                      delimiter=delimiter)
            if why is not None:
                if not is_num and (mixed := mixed_dates(s)) is not None:
                    why += f" — {mixed}"
                elif not is_num and (unread := unread_numbers(s, delimiter)) is not None:
                    why += f" — {unread}"
                excluded[c] = why
                continue
            if n_distinct == 1 and (flat := uninformative(s) or (
                    None if flag_column(s) else "constant")) is not None:
                excluded[c] = flat
                continue
        kinds[c] = kind
        kept.append(c)
        if kind == "categorical":  # many levels: the frequent ones kept, the rest grouped
            if many is None:  # (listed columns skip the leave-out rules above)
                many = many_levels(s, n_distinct, max_levels, delimiter=delimiter)
            kept_levels = many[1]
            if kept_levels is not None:  # (a listed column of no frequent level: as it is)
                grouped[c] = kept_levels
        if kind == "numeric":
            col_cuts = cuts.get(c)
            m = "cuts" if col_cuts is not None else _per_column(method, c, "quantile")
            if stray:
                s = s.mask(as_strings(s).isin(stray).to_numpy())
            b = fit_bins(s, m, _per_column(bins, c, 4), col_cuts, named=named, number_format=fmt,
                         numbers=nudged(x, side) if is_num else None)  # read above: once
            b = dataclasses.replace(b, text_missing=stray, censored=bool(side.any()))
            binnings[c] = b
            categories[c] = b.labels
        elif c in grouped:
            categories[c] = tuple(sorted(grouped[c], key=natural_key)) + (other_level(grouped[c]),)
        else:
            vals = as_strings(s).dropna().unique().tolist()
            categories[c] = tuple(sorted(vals, key=natural_key))
    if not kept and not excluded:
        raise DataError(f"the table has no column besides the label {label!r}: plx needs "
                        "at least one feature column")
    if not kept:
        raise DataError(f"no feature columns left; excluded: {excluded}")
    return Schema(
        label=label, positive=pos, features=tuple(kept), kinds=kinds, bins=binnings,
        excluded=excluded, classes=classes, categories=categories,
        label_map=None if label_map is None else dict(label_map), grouped=grouped,
        value_maps={c: m for c, m in value_maps.items() if c in kept},
    )


# --------------------------------------------------------------------------------------------
# Balancing and splitting


def _rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def balance(
    X: pd.DataFrame, y: pd.Series, rng: np.random.Generator | int | None = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """Replicate rows of the smaller class(es) until every class has as many rows as the largest.

    A class short by d rows with n rows gets d // n full copies plus d % n distinct rows drawn
    at random — so copies are spread evenly. Replicas keep their source row's index label and
    are appended after the original rows.
    """
    _check_xy(X, y)
    gen = _rng(rng)
    yv = y.to_numpy(dtype=object)
    classes, codes, counts = np.unique(yv.astype(str), return_inverse=True, return_counts=True)
    target = int(counts.max())
    extra = []
    for k in range(len(classes)):
        d = target - int(counts[k])
        if d == 0:
            continue
        idx = np.flatnonzero(codes == k)
        extra.append(np.tile(idx, d // len(idx)))
        extra.append(np.sort(gen.choice(idx, d % len(idx), replace=False)))
    pos = np.concatenate([np.arange(len(yv)), *extra]) if extra else np.arange(len(yv))
    return X.iloc[pos], y.iloc[pos]


_balance = balance  # the split's `balance=` argument shadows the function's name


def train_test_split_stratified(
    X: pd.DataFrame,
    y: pd.Series,
    test_size: float = 0.3,
    seed: int | None = 0,
    balance: BalanceMode = "train",
    groups: pd.Series | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series, pd.Series]:
    """(X_train, X_test, y_train, y_test), each class split `1 - test_size` / `test_size`;
    with `groups` (each row's case, indexed as X) by cases: a case's rows on one side, the
    cases of each class (its first row's) split so.

    `balance`:
    - "train" (default): replicate minority rows in the training part only — the test part
      keeps the true class mix and shares no row with training;
    - "before": the paper's protocol — balance the whole table, then split. Replicas of one
      row can land on both sides, so test rows leak into training (scores come out optimistic);
    - "none": no balancing.
    Deterministic for a given `seed`; index labels are kept (so leaks can be traced).
    """
    if balance not in ("train", "before", "none"):
        raise DataError(f"balance must be 'train', 'before' or 'none', not {balance!r}")
    if not 0 < test_size < 1:
        raise DataError(f"test_size must be between 0 and 1, got {test_size!r}")
    _check_xy(X, y)
    gen = np.random.default_rng(seed)
    if balance == "before":
        X, y = _balance(X, y, gen)
    codes = np.unique(y.to_numpy(dtype=object).astype(str), return_inverse=True)[1]
    test_mask = np.zeros(len(codes), dtype=bool)
    if groups is not None:  # whole cases drawn, each class's cases split as rows are
        case = np.unique(groups.loc[X.index].astype(str).to_numpy(), return_inverse=True)[1]
        first = pd.Series(codes).groupby(case).first().to_numpy()
        held = np.zeros(len(first), dtype=bool)
        for k in range(int(codes.max()) + 1):
            idx = gen.permutation(np.flatnonzero(first == k))
            held[idx[: int(math.floor(len(idx) * test_size + 0.5))]] = True
        test_mask = held[case]
    for k in range(int(codes.max()) + 1) if groups is None else ():
        idx = gen.permutation(np.flatnonzero(codes == k))
        test_mask[idx[: int(math.floor(len(idx) * test_size + 0.5))]] = True
    train_pos = gen.permutation(np.flatnonzero(~test_mask))
    test_pos = gen.permutation(np.flatnonzero(test_mask))
    X_tr, y_tr = X.iloc[train_pos], y.iloc[train_pos]
    if balance == "train":
        X_tr, y_tr = _balance(X_tr, y_tr, gen)
        order = gen.permutation(len(y_tr))
        X_tr, y_tr = X_tr.iloc[order], y_tr.iloc[order]
    return X_tr, X.iloc[test_pos], y_tr, y.iloc[test_pos]


def split_copies(train: pd.DataFrame, test: pd.DataFrame) -> np.ndarray:
    """Which test rows repeat a training row: the same value in every column of `test` (as
    strings, `as_strings`; missing equals missing). A repeated record (or, balancing before the
    split, a replica of one row on both sides) is no new row for the model: its test score is
    partly recall, so the split's score is optimistic by what those rows add. Pass the raw
    columns the model uses (not their bins, which many distinct rows share)."""
    cols = list(test.columns)
    if len(test) == 0 or len(train) == 0:
        return np.zeros(len(test), bool)

    def hashed(frame: pd.DataFrame) -> np.ndarray:
        strs = pd.DataFrame({i: as_strings(frame[c].reset_index(drop=True))
                             for i, c in enumerate(cols)})
        return pd.util.hash_pandas_object(strs.fillna("\x00<missing>"), index=False).to_numpy()

    return np.isin(hashed(test), hashed(train[cols]))


def _check_xy(X: pd.DataFrame, y: pd.Series) -> None:
    if len(X) != len(y):
        raise DataError(f"X has {len(X)} rows but y has {len(y)}")
    if len(y) == 0:
        raise DataError("the data has no rows")


# --------------------------------------------------------------------------------------------
# Dataset


@dataclass
class Dataset:
    """A ready table: features X (strings/NaN), label y (strings), the positive class, a short
    description (how it was prepared), the schema for new rows, and for synthetic data the
    ground truth (the seed string)."""

    name: str
    X: pd.DataFrame
    y: pd.Series
    positive: str | None
    description: str = ""
    schema: Schema | None = None
    truth: str | None = None

    def __post_init__(self) -> None:
        _check_xy(self.X, self.y)

    @property
    def shape(self) -> tuple[int, int]:
        return self.X.shape

    def counts(self) -> dict[str, int]:
        """Rows per class, largest first (ties by class name)."""
        vc = self.y.value_counts()
        return {str(k): int(v) for k, v in sorted(vc.items(), key=lambda kv: (-kv[1], kv[0]))}

    def frame(self) -> pd.DataFrame:
        """X with the label as the last column (named after the schema's label, or 'label')."""
        label = self.schema.label if self.schema is not None else "label"
        return self.X.assign(**{label: self.y})

    def split(
        self, test_size: float = 0.3, seed: int | None = 0, balance: BalanceMode = "train"
    ) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series, pd.Series]:
        return train_test_split_stratified(self.X, self.y, test_size, seed, balance)


# --------------------------------------------------------------------------- the label column

LABEL_NAMES = ("label", "class", "target", "outcome", "y", "survived", "diagnosis", "cleaved")


@dataclass(frozen=True)
class LabelGuess:
    """The column a new table's label most likely is, and why (one plain sentence)."""

    column: str
    reason: str


def suggest_label(frame: pd.DataFrame, max_classes: int = 10) -> LabelGuess:
    """The likely label of an uploaded table: a column named like one (label, class, target,
    …) if it has at most 20 classes (one class too: the page then says why it cannot be used;
    of several, the one at the table's edge, as below, then in `LABEL_NAMES` order);
    else, among columns with 2 to `max_classes` classes: text or two numbers (a 0/1 or 1/2
    coding, the commonest label) before more numbers (a `year` or a count is rarely the
    label), the last column, then the first, before the ones in between (labels sit at an
    edge of most tables), fewer classes before more, no missing values before some; else the
    last column. Text did come before every number: a text feature called "decision" in the
    middle of a table won over the 0/1 outcome in its last column."""
    if not len(frame.columns):
        raise DataError("the table has no columns")
    n = len(frame.columns)
    named = [(0 if pos == n - 1 else 1 if pos == 0 else 2, LABEL_NAMES.index(str(c).lower()), c)
             for pos, c in enumerate(frame.columns) if str(c).lower() in LABEL_NAMES
             and 1 <= frame[c].nunique(dropna=True) <= 20]
    if named:  # several named like one (Titanic's "Class" and "Survived"): the one at an edge
        c = min(named, key=lambda t: t[:2])[2]
        k = frame[c].nunique(dropna=True)
        others = [str(o) for *_, o in named if o is not c]
        also = (f"; {', '.join(repr(o) for o in others)} "
                f"{'is' if len(others) == 1 else 'are'} named like one too, but "
                "a label usually sits at the edge of a table" if others else "")
        return LabelGuess(str(c), f"its name says it is the label ({k} "
                                  f"{noun(k, 'class', 'classes')}){also}")
    best = None
    written: dict[str, int] = {}  # columns whose classes are written several ways: how many
    for pos, c in enumerate(frame.columns):
        k = int(frame[c].nunique(dropna=True))
        if max_classes < k <= 8 * max_classes:  # "Setosa", "setosa ", "SETOSA": one class
            folded = len({text_key(str(v)) for v in pd.unique(frame[c].dropna())})
            if folded < k:
                written[c], k = k, folded
        if 2 <= k <= max_classes:
            s = frame[c].dropna()
            numeric = bool(pd.to_numeric(s, errors="coerce").notna().all())
            edge = 0 if pos == n - 1 else 1 if pos == 0 else 2
            key = (int(numeric and k > 2), edge, k, int(frame[c].isna().any()), n - 1 - pos,
                   numeric)
            if best is None or key < best[0]:
                best = (key, c, k)
    if best is not None:
        key, c, k = best
        missing = int(frame[c].isna().sum())
        note = "" if not missing else f"; {missing} rows have no value there"
        where = ("last" if c == frame.columns[-1] else "first" if c == frame.columns[0]
                 else "best placed")
        kind = "text" if not key[-1] else "two-valued" if k == 2 else "number"
        ways = f", written {written[c]} ways" if c in written else ""
        return LabelGuess(str(c), f"it is the {where} {kind} column with few classes ({k}{ways})"
                                  f"{note}; a label has few classes and usually sits at the edge "
                                  "of a table")
    c = frame.columns[-1]
    return LabelGuess(str(c), f"no column has 2 to {max_classes} classes, so the last one is "
                              "suggested; choose the label yourself")
