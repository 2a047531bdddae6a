"""Turn a table of categorical features and a label into integer codes, checking as we go.

Values are compared as the strings they print as; the data layer (`plx_core.data`) is where
numeric columns are discretised. Here a float column is an error, not a silent conversion.
"""

from __future__ import annotations

import math
import numbers
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .errors import DataError
from .plurals import counted, noun, verb


def value_str(v: Any) -> str:
    """The canonical string of a categorical value (`True` → "True", 3 → "3"; −0.0 → "0.0":
    rounding leaves −0.0 beside 0.0, one number that must not become two classes)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (np.integer,)):
        return str(int(v))
    if isinstance(v, (float, np.floating)) and v == 0:
        return str(abs(v))
    return str(v)


POSITIVE_PAIRS: tuple[tuple[str, str], ...] = (
    ("0", "1"), ("-1", "1"), ("False", "True"), ("no", "yes"),
)
"""Binary labels whose positive class goes without saying: the second of each pair (case of
no/yes ignored). Any other pair of classes needs the positive class named."""


def default_positive(classes: Sequence[str]) -> str | None:
    """The class POS stands for when nobody said: "1" of 0/1 and −1/1, "True" of False/True,
    "yes" of no/yes; None for any other set of classes (never a guess)."""
    if len(classes) != 2:
        return None
    for neg, pos in POSITIVE_PAIRS:
        lower = {_number_key(str(c)).lower(): str(c) for c in classes}
        if set(lower) == {neg.lower(), pos.lower()}:
            return lower[pos.lower()]
    return None


def _number_key(v: str) -> str:
    """"1" for "1.0" (a 0/1 label read as floats), the text itself otherwise."""
    try:
        f = float(v)
    except ValueError:
        return v
    return str(int(f)) if math.isfinite(f) and f.is_integer() and v.strip() == v else v


def check_labels(arr: np.ndarray, index: Sequence[Any] | None = None) -> None:
    """Refuse missing labels (naming the rows: by `index`, a Series' labels, when given — a
    split's y.iloc[train] named the 14th training row 'row 14' — else by position) and classes
    that differ only in case or surrounding spaces ("Yes" / "yes "), which would otherwise
    become separate classes."""
    inverse, strs = column_strings(np.asarray(arr, dtype=object))
    missing = np.flatnonzero(inverse < 0)
    if len(missing):
        rows = (missing if index is None else np.asarray(index, dtype=object)[missing]).tolist()
        raise DataError(f"the label is missing in {counted(len(rows), 'row')} {rows[:10]}"
                        + (" …" if len(rows) > 10 else "")
                        + (" (a spreadsheet's blank rows at the end?)"
                           if missing[-1] == len(arr) - 1 and len(missing) < len(arr) else "")
                        + ": drop them (keep = y.notna(); fit(X[keep], y[keep])) or fill them in")
    check_label_variants(set(strs))


STRAY_ROWS = 3
"""A label class in this many rows or fewer (and at most 1% of them), beside two or more
classes in more, reads as a value typed by mistake ('yse' among 'yes' / 'no')."""


def stray_classes(labels: Any) -> dict[str, np.ndarray]:
    """The label's classes in `STRAY_ROWS` rows or fewer and at most 1% of the rows, when two or
    more classes hold more: each with its rows' positions. {} for any other label (a rare class
    of its own beside one common one is a question, not a slip)."""
    strs = np.asarray(labels, dtype=object).astype(str)
    values, inverse, counts = np.unique(strs, return_inverse=True, return_counts=True)
    small = stray_values(dict(zip(values.tolist(), counts.tolist())))
    return {v: np.flatnonzero(inverse == k) for k, v in enumerate(values.tolist()) if v in small}


def stray_values(counts: Mapping[str, int]) -> list[str]:
    """`stray_classes` from the label's rows per class (a Dask table's, counted on the
    cluster): the rare classes, in the order of `counts`."""
    n = sum(counts.values())
    small = [v for v, k in counts.items() if k <= STRAY_ROWS and k * 100 <= n]
    return small if small and len(counts) - len(small) >= 2 else []


def stray_said(labels: Any, strays: Mapping[str, Sequence[Any]], where: str = "row") -> str:
    """What `stray_classes` found, in words (`labels`: the label, or its rows per class): the
    rare classes, then each one's rows (`where`
    names them: 'row' for a frame's index, 'line' for a file's lines) and the common class it
    looks like, and what to do. `strays` maps each class to the row names shown; a common class
    of about the same length and half its letters in order is named ('yse' like 'yes'). The
    words before the first ': ' do not depend on how rows are named (notes are said once by them)."""
    import difflib

    counts = Counter(labels if isinstance(labels, Mapping) else
                     np.asarray(labels, dtype=object).astype(str).tolist())
    common = [c for c, _ in counts.most_common() if c not in strays]
    parts = []
    for v, rows in strays.items():
        near = [c for c in common if abs(len(c) - len(v)) <= 1]  # a slip keeps the length
        like = difflib.get_close_matches(v, near, n=1, cutoff=0.5)
        shown = ", ".join(map(str, list(rows)[:3])) + (" …" if len(rows) > 3 else "")
        parts.append(f"{v!r} in {where} {shown}" + (f" (like {like[0]!r})" if like else ""))
    held = ", ".join(f"{counts[c]} {c!r}" for c in common[:3]) + (" …" if len(common) > 3 else "")
    n = len(strays)
    names = ", ".join(map(repr, list(strays)[:-1])) + (" and " if n > 1 else "") + repr(list(strays)[-1])
    return (f"the label's {noun(n, 'class', 'classes')} {names} {verb(n, 'is', 'are')} in "
            f"{STRAY_ROWS} rows or fewer each, against {held}: typed by mistake? "
            f"{', '.join(parts)}; correct those rows or drop them (as written, each is a class "
            "of its own, or a negative beside a positive class)")


def label_strings(arr: np.ndarray) -> np.ndarray:
    """Each label's `value_str` (an object array), written once per distinct value
    (`column_strings`); labels are checked not missing before (`check_labels`)."""
    inverse, strs = column_strings(np.asarray(arr, dtype=object))
    return np.array(strs, dtype=object)[inverse]


def typed_labels(arr: np.ndarray) -> np.ndarray:
    """Labels held as Python objects (an object column of whole numbers, floats or booleans,
    as a database, JSON records or `astype(object)` leave them) as the typed array
    scikit-learn classifies (it called them "unknown ... continuous values"); labels that mix
    kinds are refused naming a row of each (1 and "1" would print as one class). Missing
    labels are refused before (`check_labels`)."""
    if arr.dtype != object:
        return arr
    kind = pd.api.types.infer_dtype(arr, skipna=True)
    if kind in ("integer", "floating", "mixed-integer-float", "boolean"):
        return pd.Series(arr, dtype=object).infer_objects().to_numpy()
    if kind in ("mixed-integer", "mixed"):
        first: dict[str, int] = {}
        for i, v in enumerate(arr):
            what = ("booleans" if isinstance(v, (bool, np.bool_)) else
                    "numbers" if isinstance(v, numbers.Number) else "text")
            first.setdefault(what, i)
        if len(first) > 1:
            (a, i), (b, j) = list(first.items())[:2]
            raise DataError(f"the label mixes {a} (row {i}: {arr[i]!r}) and {b} (row {j}: "
                            f"{arr[j]!r}); write every class one way (e.g. y.astype(str))")
    return arr


def text_key(v: str) -> str:
    """The form every spelling of one text shares: Unicode NFC (an accent written as one
    character or as a letter and a combining mark looks the same), surrounding spaces and case
    folded away. The one key for labels, column names and values written otherwise."""
    return unicodedata.normalize("NFC", v).strip().casefold()


LETTER_WORDS = {"y": "yes", "n": "no", "t": "true", "f": "false"}
"""The yes/no words exports also write as their first letter ("Y" beside "yes")."""


LANGUAGE_WORDS = {"ja": "yes", "oui": "yes", "si": "yes", "sí": "yes", "sim": "yes",
                  "nein": "no", "non": "no", "não": "no", "nao": "no", "nee": "no", "nej": "no",
                  "wahr": "true", "vrai": "true", "verdadero": "true", "vero": "true",
                  "falsch": "false", "faux": "false", "falso": "false"}
"""Yes/no and true/false words of other languages ("ja", "oui"): a table joined from sites that
answer in German and in French holds one answer written two ways (unseen22's bilingual)."""


def word_key(v: str) -> str:
    """`text_key`, a yes/no word's one letter (`LETTER_WORDS`) or its other language's word
    (`LANGUAGE_WORDS`) read as the English word: "N", "nein" and "no" are one answer to a
    reader, and a column or label holding two of them means one thing."""
    k = text_key(v)
    return LETTER_WORDS.get(k) or LANGUAGE_WORDS.get(k, k)


def spelling_groups(values: Any) -> list[list[str]]:
    """The distinct strings of `values` that are one text written more than one way
    (`text_key`, or a yes/no word and its letter: `word_key`), each group sorted; [] when
    every text is written one way. Only where the column holds both the letter and the word:
    "Y" / "N" alone are a column's own words."""
    groups: dict[str, list[str]] = {}
    for v in sorted({str(v) for v in values}):
        groups.setdefault(word_key(v), []).append(v)
    return [g for g in groups.values() if len(g) > 1]


def _recomposed(v: str) -> bool:
    return unicodedata.normalize("NFC", v) != v


def spelling_how(group: Sequence[str]) -> str:
    """How the spellings of one text in `group` (or of several texts' groups, flattened)
    differ, in words."""
    texts: dict[str, set[str]] = {}
    words: dict[str, set[str]] = {}
    for v in group:
        texts.setdefault(text_key(v), set()).add(v)
        words.setdefault(word_key(v), set()).add(text_key(v))
    if multi := [k for ks in words.values() if len(ks) > 1 for k in ks]:
        written = [v for vs in texts.values() if len(vs) > 1 for v in vs]
        ways = [w for w, d in (("written whole and as its letter", LETTER_WORDS),
                               ("written in more than one language", LANGUAGE_WORDS))
                if any(k in d for k in multi)]
        return ("a yes/no word " + " and ".join(ways)
                + (f", and {_how(written)}" if written else ""))
    return _how(group)


def _how(group: Sequence[str]) -> str:
    """How the spellings of one text in `group` differ (one `text_key`), in words."""
    if not any(map(_recomposed, group)):
        return "case or spaces"
    if len({unicodedata.normalize("NFC", v) for v in group}) == 1:
        return "how an accent is encoded"
    return "case, spaces or how an accent is encoded"


def spelled(v: str) -> str:
    """A text quoted as a user can tell it from its other spellings: 'cre\\u0300me' for a
    combining accent (it prints like 'crème'), else as repr quotes it."""
    return ascii(v) if _recomposed(v) else repr(v)


def spelling_shown(group: Sequence[str]) -> str:
    """A group of spellings as a list of `spelled` texts."""
    return "[" + ", ".join(map(spelled, group)) + "]"


def check_label_variants(classes: Any, label: str | None = None) -> None:
    """Refuse classes (strings) that differ only in case or surrounding spaces ("Yes" /
    "yes "), or in how an accent is encoded, or that are one number written otherwise ("1" /
    "1.0"): kept apart they split one class in two, and a positive class named as one of them
    would silently count the other as negative."""
    clash = spelling_groups(classes)
    where = "the label" if label is None else f"the label {label!r}"
    if clash:  # every class written more than one way (up to 4), not only the first
        how = spelling_how([v for g in clash for v in g])
        more = (f" (and {len(clash) - 4} more {noun(len(clash) - 4, 'class', 'classes')} written more than one way)"
                if len(clash) > 4 else "")
        many = f" — {len(clash)} classes so written" if len(clash) > 1 else ""
        raise DataError(f"{where} has classes that differ only in {how}: "
                        f"{'; '.join(map(spelling_shown, clash[:4]))}{more}{many} (clean the "
                        "label column so each class is written one way)")
    numbers: dict[str, list[str]] = {}  # "1" and "1.0": one number (two exports joined)
    for v in sorted({str(v) for v in classes}):
        if (key := number_key(v)) is not None:
            numbers.setdefault(key, []).append(v)
    if same := [g for g in numbers.values() if len(g) > 1]:
        raise DataError(f"{where} has classes that are one number written more than one way: "
                        f"{spelling_shown(same[0])} (clean the label column so each class is "
                        "written one way)")


def natural_key(v: str) -> tuple:
    """Sort numbers numerically, then everything else as text."""
    try:
        f = float(v)
        if math.isfinite(f):
            return (0, f, v)
    except ValueError:
        pass
    return (1, 0.0, v)


def number_key(v: str) -> str | None:
    """One spelling of a number written as text ("2", "2.0", "+2", "02" → "2"; "0.50" →
    "0.5"), None for text that is not a finite number."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(f):
        return None
    return str(int(f)) if f.is_integer() and abs(f) < 2.0**53 else repr(f)


@dataclass(frozen=True)
class Twins:
    """A domain's values by what `value_twin` matches them on, built once per domain so that
    each value read is one dict lookup, not a pass over the domain: a number's one spelling
    (`number_key`) and a text's case- and space-folded form → its position (-1 where two
    values share the key)."""

    numbers: Mapping[str, int]
    texts: Mapping[str, int]

    @classmethod
    def of(cls, domain: Sequence[str]) -> Twins:
        numbers: dict[str, int] = {}
        texts: dict[str, int] = {}
        for i, v in enumerate(domain):
            if (key := number_key(v)) is not None:
                numbers[key] = -1 if key in numbers else i
            fold = text_key(v)
            texts[fold] = -1 if fold in texts else i
        return cls(numbers, texts)

    def find(self, s: str) -> int | None:
        """`value_twin(domain, s)`."""
        key = number_key(s)
        hit = self.numbers.get(key) if key is not None else self.texts.get(text_key(s))
        return None if hit is None or hit < 0 else hit


def value_twin(domain: Sequence[str], s: str) -> int | None:
    """Position of the one value of `domain` that is `s` written otherwise, or None: the same
    number ("2" for a KB that learned "2.0": a whole-number column read as floats in one file
    and as integers in the next) or the same text up to case, surrounding spaces and how an
    accent is encoded (`text_key`: "TRUE" / "True", "Male " / "male", as labels are compared). Only for values `domain` lacks as
    written; two candidates are not guessed between. For many values of one domain, build its
    `Twins` once (`KB.twins` keeps a KB's)."""
    return Twins.of(domain).find(s)


def is_missing(v: Any) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and math.isnan(v))


@dataclass(frozen=True)
class Encoded:
    """Features, their value domains (sorted), and the row codes (-1 = missing)."""

    features: tuple[str, ...]
    domains: dict[str, tuple[str, ...]]
    codes: np.ndarray  # (n_rows, n_features), smallest int dtype that fits


def as_frame(X: Any, features: Sequence[str] | None = None) -> pd.DataFrame:
    """Accept a DataFrame, a 2-D array or a list of rows; name columns a1, a2, … if unnamed."""
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        arr = np.asarray(X, dtype=object)
        if arr.ndim != 2:
            raise DataError(f"X must be a table (2-D), got an array of shape {arr.shape}")
        names = list(features) if features is not None else [f"a{i + 1}" for i in range(arr.shape[1])]
        frame = pd.DataFrame(arr, columns=names)
    if frame.shape[0] == 0:
        raise DataError("the data has no rows")
    if frame.shape[1] == 0:
        raise DataError("the data has no feature columns")
    column_names(frame, "rename them before building a KB")
    return frame


def column_names(frame: pd.DataFrame, fix: str = "rename them") -> list[str]:
    """The frame's column names as text, refused in one line naming every name that stands
    twice, or twice but for spaces around it (`fix` says what to do): two columns of one
    name cannot be told apart, nor in print ('bmi' beside 'bmi ')."""
    cols = [str(c) for c in frame.columns]
    if len(set(cols)) < len(cols):
        dup = sorted(c for c, n in Counter(cols).items() if n > 1)
        raise DataError(f"duplicate column {noun(len(dup), 'name')} {dup}; {fix}")
    if (alike := names_alike(cols)) is not None:
        raise DataError(f"{alike}; {fix}")
    return cols


def names_alike(names: Sequence[str]) -> str | None:
    """The column names that print alike — the same but for spaces around them or how an
    accent is encoded ('bmi' and 'bmi ', an export's stray space) —, said with their
    positions (1-based), or None. Case is no twin: 'ID' and 'id' print apart."""
    groups: dict[str, list[int]] = {}
    for j, c in enumerate(names):
        groups.setdefault(unicodedata.normalize("NFC", c).strip(), []).append(j)
    alike = [js for js in groups.values() if len(js) > 1]
    if not alike:
        return None
    what = "; ".join(" and ".join(f"{spelled(names[j])} (column {j + 1})" for j in js)
                     for js in alike[:3])
    more = f" and {len(alike) - 3} more such {noun(len(alike) - 3, 'group')}" if len(alike) > 3 else ""
    return (f"column names that differ only in spaces around them or how an accent is "
            f"encoded: {what}{more} (a rule or an explanation would print them alike)")


def column_twins(names: Sequence[str], columns: Sequence[Any]) -> str:
    """" ('AGE' differs from it only in case or spaces)" for the `names` a table lacks that
    one of its other `columns` writes otherwise (`value_twin`), else ""."""
    have = [str(c) for c in columns]
    pairs = [(n, have[t]) for n in names if (t := value_twin(have, str(n))) is not None]
    if not pairs:
        return ""
    how = spelling_how([str(x) for p in pairs for x in p])
    if len(names) == 1:
        return f" ({spelled(pairs[0][1])} differs from it only in {how})"
    return " (" + ", ".join(f"{spelled(h)} differs from {spelled(str(n))}" for n, h in pairs) + \
        f" only in {how})"


def match_columns(X: Any, fitted: Sequence[str] | None) -> Any:
    """A DataFrame's columns checked (no duplicates) and, against the `fitted` names, matched
    by name: the fitted order, one line naming any missing or unknown column. Other X as is."""
    if not isinstance(X, pd.DataFrame):
        return X
    cols = column_names(X)
    if fitted is None:
        return X
    names = [str(c) for c in fitted]
    missing = [c for c in names if c not in cols]
    if missing:
        others = [c for c in cols if c not in names]
        twins = column_twins(missing[:10], others)
        raise DataError(f"{noun(len(missing), 'column')} {missing[:10]} of the training data "
                        f"{verb(len(missing), 'is', 'are')} missing{twins}" + (
            "" if twins else "; to answer without them (each row's value unknown), pass them as "
            "columns of NaN"))
    extra = [c for c in cols if c not in names]
    if extra:
        raise DataError(f"{noun(len(extra), 'column')} {extra[:10]} {verb(len(extra), 'was', 'were')} "
                        f"not in the training data; drop {verb(len(extra), 'it', 'them')}")
    if cols == names:
        return X
    return X.set_axis(cols, axis=1)[names]


_CONTAINERS = (list, tuple, dict, set, frozenset, np.ndarray, pd.Series, pd.DataFrame)
_ONE_VALUE = frozenset({"string", "integer", "boolean", "empty", "floating", "mixed-integer-float",
                        "decimal", "datetime", "datetime64", "date", "timedelta", "timedelta64",
                        "time", "period", "interval", "bytes", "categorical"})


def check_cells(frame: pd.DataFrame) -> None:
    """Refuse a cell that holds several values (a list, a dict, an array: a pandas column of
    lists reached the copy check and raised "unhashable type: 'list'"), naming the column, the
    row (by position) and what it holds, before any work; a column of one kind is passed by
    pandas' C type scan; where it says "mixed", on the distinct types of the column's cells."""
    for col in frame.columns:
        vals = frame[col].to_numpy()
        if vals.dtype != object or pd.api.types.infer_dtype(vals, skipna=True) in _ONE_VALUE:
            continue
        kinds = _type_of(vals)
        if any(issubclass(t, _CONTAINERS) for t in pd.unique(kinds)):
            i = next(i for i, t in enumerate(kinds) if issubclass(t, _CONTAINERS))
            v = vals[i]
            what = type(v).__name__
            raise DataError(
                f"column {str(col)!r}, row {i} holds a {what} ({_short(v)}), not one value: "
                "give each item a yes/no column of its own, or write the items as one text "
                "(e.g. 'a;b')")


_type_of = np.frompyfunc(type, 1, 1)
"""Each cell's type, in numpy's loop (`check_cells`)."""


def _short(v: Any) -> str:
    """A cell shown in a message: its repr cut to 40 characters."""
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def check_categorical(frame: pd.DataFrame) -> None:
    """Refuse float columns (they need discretising) with a message naming the column."""
    for col in frame.columns:
        s = frame[col]
        if pd.api.types.is_float_dtype(s.dtype):
            vals = s.dropna()
            example = vals.iloc[0] if len(vals) else float("nan")
            raise DataError(
                f"column {str(col)!r} holds non-categorical floats (e.g. {example!r}); discretise it "
                "first (plx_core.data.discretise) or cast whole numbers to integers"
            )
        if s.dtype == object:
            vals = s.to_numpy()
            if pd.api.types.infer_dtype(vals, skipna=True) in _HOMOGENEOUS:
                continue  # text, whole numbers or booleans: no float to refuse
            kinds, types = pd.factorize(_type_of(vals))  # floats found by the cells' types
            at = np.flatnonzero(np.array([issubclass(t, float) for t in types],
                                         dtype=bool)[kinds])
            x = vals[at].astype(float)
            odd = at[~np.isnan(x) & (np.isinf(x) | (x != np.floor(x)))]
            if len(odd):
                i = int(odd[0])
                v = vals[i]
                text = next((j for j, t in enumerate(vals) if isinstance(t, str)), None)
                if text is not None:  # numbers and text in one column: neither binned nor kept
                    raise DataError(
                        f"column {str(col)!r} mixes numbers (row {i}: {v!r}) and text (row "
                        f"{text}: {vals[text]!r}); make it all numbers (text as missing) to "
                        "have it binned, or all text to keep its values as categories"
                    )
                raise DataError(
                    f"column {str(col)!r}, row {i}: float value {v!r} is not categorical; "
                    "discretise the column first"
                )


def encode(frame: pd.DataFrame, domains: Mapping[str, Sequence[str]] | None = None) -> Encoded:
    """Codes for a checked frame. With `domains`, unseen values become -2 (known but unseen)."""
    check_categorical(frame)
    features = tuple(str(c) for c in frame.columns)
    out_domains: dict[str, tuple[str, ...]] = {}
    codes = np.empty(frame.shape, dtype=np.int32)
    for j, col in enumerate(frame.columns):
        raw = frame[col].to_numpy(dtype=object)
        inverse, strs = column_strings(raw)
        if domains is None:
            dom = tuple(sorted(set(strs), key=natural_key))
        else:
            dom = tuple(domains.get(features[j], ()))
        out_domains[features[j]] = dom
        lookup = {v: k for k, v in enumerate(dom)}
        twins = None
        for s in strs if domains is not None else ():
            if s not in lookup:
                twins = Twins.of(dom) if twins is None else twins
                if (t := twins.find(s)) is not None:
                    lookup[s] = t  # "2" where the domain holds "2.0": the same value
        to_code = np.array([lookup.get(s, -2) for s in strs] + [-1], dtype=np.int32)
        codes[:, j] = to_code[inverse]  # inverse -1 (missing) reads the last entry: -1
    return Encoded(features, out_domains, codes)


#: Column kinds (pandas' `infer_dtype`, missing values skipped) whose equal values always
#: have the same `value_str`, so a column can be factorised before its values are written.
_HOMOGENEOUS = frozenset({"string", "integer", "boolean", "empty"})


def column_strings(raw: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """(inverse, strings): the distinct present values' `value_str` and, per cell, the index of
    its string (-1 where missing, as `is_missing` says). One hashing pass in C for columns of
    one kind (text, whole numbers, booleans: a 10^6-row column in milliseconds); a Python pass
    per cell only for mixed columns, where equal values may print differently (1 and True)."""
    if len(raw) and pd.api.types.infer_dtype(raw, skipna=True) in _HOMOGENEOUS:
        inverse, uniques = pd.factorize(raw, use_na_sentinel=True)
        return inverse.astype(np.int64, copy=False), [value_str(u) for u in uniques]
    missing = np.fromiter((is_missing(v) for v in raw), dtype=bool, count=len(raw))
    strs = [value_str(v) for v in raw]
    index: dict[str, int] = {}
    inverse = np.fromiter((-1 if m else index.setdefault(s, len(index))
                           for s, m in zip(strs, missing)), dtype=np.int64, count=len(raw))
    return inverse, list(index)


def smallest_int(codes: np.ndarray) -> np.ndarray:
    top = int(codes.max(initial=0))
    dtype = np.int8 if top < 127 else np.int16 if top < 32767 else np.int32
    return codes.astype(dtype)


def one_class(cls: str, where: str = "the label") -> DataError:
    """The error for labels of one class (one wording for the estimator, the CLI and Dask):
    there is nothing to tell apart, whatever positive class is named."""
    return DataError(f"{where} has only one class ({cls!r}, in every row); plx needs rows of "
                     "both outcomes")


def unknown_positive(positive: Any, classes: Sequence[str], where: str = "the label",
                     noun: str = "value", name: str = "positive") -> DataError:
    """The error for a `positive` that is no class: names the classes and, when one of them
    is it written otherwise (`value_twin`: "Adélie" for "Adélie  ", "yes" for "Yes"; or a
    yes/no word's letter, `word_key`: "Y" for "yes"), that one —
    never taken silently, as a label's spelling is the user's data."""
    twin = value_twin(list(classes), value_str(positive))
    if twin is None:  # "yes" for labels written "Y" / "N": the word's letter (`word_key`)
        same = [i for i, c in enumerate(classes) if word_key(c) == word_key(value_str(positive))]
        twin = same[0] if len(same) == 1 else None
    hint = "" if twin is None else f"; did you mean {classes[twin]!r} (as the data writes it)?"
    return DataError(f"{name}={positive!r} is not a {noun} of {where} ({noun}{'es' if noun == 'class' else 's'}: "
                     f"{list(classes[:10])}){hint}")


def class_named(given: Any, classes: Sequence[str], where: str = "the label",
                noun: str = "value", name: str = "positive", quiet: bool = False,
                unknown_ok: bool = False) -> str:
    """The class of `classes` (as the data writes them) that `given` names: the one written
    so, else the one that is the same number (`number_key`: 2, "2" or 2.0 for labels read as
    "2.0", 2 for "02") — said once (`notes.say`) unless `quiet` —; a number two classes are
    ("2" and "2.0") is refused naming them, and anything else by `unknown_positive` (with the
    class written otherwise, if one is, never taken silently; `unknown_ok`: given back as
    text, for the caller to refuse in its words). One rule wherever a user names a class:
    `positive=`, `--positive`, `--class`, `for_class=`, the dashboard's picker."""
    text = value_str(given)
    if text in classes:
        return text
    key = number_key(text)
    same = [c for c in classes if key is not None and number_key(c) == key]
    if len(same) == 1:
        if not quiet:
            from .notes import say

            say(f"{name}={given!r} is the class {same[0]!r} of {where} (the same number, as the "
                "data writes it)", stacklevel=3)
        return same[0]
    if len(same) > 1:
        raise DataError(f"{name}={given!r} is the number of {len(same)} classes of {where} "
                        f"({same[:10]}), written differently: pass one of them as the data "
                        "writes it")
    if unknown_ok:
        return text
    raise unknown_positive(given, classes, where, noun, name)


def binary_target(y: Any, positive: Any = None) -> tuple[np.ndarray, str]:
    """0/1 labels and the string of the positive class; errors name rows and values."""
    arr = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y, dtype=object)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise DataError(f"the label must be one column, got shape {arr.shape}")
    if len(arr) == 0:
        raise DataError("the label has no rows")
    check_labels(arr)
    strs = label_strings(arr)
    classes = sorted(set(strs.tolist()), key=natural_key)
    if positive is None:
        if len(classes) == 1:
            raise one_class(classes[0])
        if len(classes) > 2:
            raise DataError(
                f"the label has {len(classes)} classes {classes[:8]}; pass positive= to pick the "
                "positive one (or use PLXClassifier, which handles several classes one-vs-rest)"
            )
        positive = default_positive(classes)
        if positive is None:
            raise DataError(
                f"the label has values {classes}; pass positive= to say which one is POS "
                "(assumed only for 0/1, −1/1, False/True and no/yes)"
            )
    pos = class_named(positive, classes)
    yb = (strs == pos).astype(np.int8)
    if yb.min() == yb.max():
        raise DataError(f"every row has label {pos!r}; plx needs both positive and negative rows")
    return yb, pos
