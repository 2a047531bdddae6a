"""plx on a Dask cluster, for tables that do not fit one machine (`pip install 'plx[dask]'`).

The same method, the same answers as in memory:

* `direct_kb_dask` builds the Direct KB from a Dask DataFrame (or a partitioned Parquet
  path): one pass finds the value domains, the label's classes and the distinct rows; a second
  counts each partition's cube (`direct.count_rows`), and the partial cubes are summed
  pairwise (`direct.merge_counts`) — the cube of a table is the sum of its parts' cubes;
* `fit_dask` fits a `PLXClassifier` ("tuned" or "paper") on it; numeric and date columns
  are binned with the in-memory fit's cut points (found from their (value, label) counts,
  `_discretizer_dask`); the leave-one-out of the tuned variant uses the same rows
  (`variants.loo_sample`) as the in-memory fit;
* `predict_dask` / `bounds_dask` / `explain_dask` answer a partitioned table with
  `map_partitions`, the fitted model broadcast to every worker once.

Dask is imported lazily; without it these functions say how to install it. The embedded
default stays plain pandas in one process.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .encoding import column_twins, encode, is_missing, natural_key, value_str
from .errors import DataError, PLXError
from .notes import say as say_note
from .plurals import counted, noun
from .rules import features_text

INSTALL_HINT = "plx's Dask support needs the dask extra: pip install 'plx[dask]'"
REACH_S = 3.0  # a scheduler's port answers a connect at once; Dask alone would wait 30 s
HELLO_S = 15.0  # then its handshake (something else on the port never answers it)


def _dask():
    """(dask, dask.dataframe, dask.distributed) or a PLXError saying how to install them."""
    try:
        import dask
        import dask.dataframe as dd
        import distributed
    except ImportError as exc:  # pragma: no cover - the extra is installed in CI
        raise PLXError(f"{INSTALL_HINT} ({exc})") from None
    return dask, dd, distributed


def connect(scheduler: str | None = None, workers: int | None = None) -> Any:
    """A `distributed.Client`: to the scheduler at `scheduler`, or to a new `LocalCluster` of
    `workers` single-threaded worker processes."""
    _, _, distributed = _dask()
    if scheduler:
        address = _reachable(str(scheduler))
        try:
            return distributed.Client(address, timeout=HELLO_S)
        except Exception as exc:  # e.g. another server on the port: its reply is not Dask's
            raise DataError(f"no Dask scheduler answered at {address} "
                            f"({_first_line(exc)})") from None
    n = int(workers or 2)
    most = max(8, 4 * (os.cpu_count() or 1))  # checked before any process starts
    if not 1 <= n <= most:
        raise DataError(f"--workers must be between 1 and {most} (this machine has "
                        f"{os.cpu_count() or 1} CPUs), got {n}")
    # silence_logs: a worker's failing task was also logged to this terminal ("distributed.
    # worker - ERROR - Compute Failed … Traceback: …") before plx's own one line (trust23)
    cluster = distributed.LocalCluster(n_workers=n, processes=True, threads_per_worker=1,
                                       dashboard_address=None, silence_logs=logging.CRITICAL)
    return distributed.Client(cluster)


def _first_line(exc: BaseException) -> str:
    """An error's first line (its type's name when it has no text): what a one-line message
    may quote of Dask's multi-line errors."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _reachable(scheduler: str) -> str:
    """The scheduler's address (`tcp://` added), once a socket connects to its host and port
    within REACH_S; else one DataError naming the address and why."""
    from distributed.comm.addressing import get_address_host_port, normalize_address, parse_address

    try:
        address = normalize_address(scheduler.strip())
        if parse_address(address)[0] in ("inproc", "ucx"):
            return address  # inproc:// or ucx://: no host and port to try; Dask connects
        host, port = get_address_host_port(address)
    except (ValueError, TypeError) as exc:
        raise DataError(f"{scheduler!r} is not a Dask scheduler address ({_first_line(exc)}); "
                        "write it as tcp://HOST:PORT") from None
    try:
        with socket.create_connection((host, port), timeout=REACH_S):
            pass
    except TimeoutError:
        why = f"no answer within {REACH_S:g} s"
    except socket.gaierror:
        why = f"unknown host {host!r}"
    except ConnectionRefusedError:
        why = "connection refused: nothing listens on that port"
    except OSError as exc:
        why = exc.strerror or _first_line(exc)
    else:
        return address
    raise DataError(f"no Dask scheduler at {address} ({why}); start one (dask scheduler) or "
                    "check the address")


def _is_csv(path: str) -> bool:
    """A CSV path or glob (read as text with the missing markers), else Parquet."""
    return path.endswith(".csv") or "*" in path and ".csv" in path


def as_dask_frame(data: Any, npartitions: int = 4, missing: Sequence[str] | None = None) -> Any:
    """A Dask DataFrame from one, from a Parquet path (a file or a folder of parts), a CSV
    path (or glob), or a pandas DataFrame (split into `npartitions`). A CSV's cells equal to
    one of `missing` (default `data.MISSING_MARKERS`, as the in-memory reader: "?", "NA", …)
    are missing, so a cluster fit does not learn "?" as a value the in-memory fit skips."""
    from .data import MISSING_MARKERS
    from .encoding import check_categorical

    _, dd, _ = _dask()
    if isinstance(data, dd.DataFrame):
        return data
    if isinstance(data, pd.DataFrame):
        data = _numbers_as_floats(data)
        # numbers and text in one column (2.5 beside 'a'): refused as in memory, before Dask
        # makes every cell text (`encoding.check_categorical`, rows by position)
        check_categorical(data[[c for c, t in data.dtypes.items() if pd.api.types.is_object_dtype(t)]])
        return dd.from_pandas(data, npartitions=npartitions, sort=False)
    path = str(data)
    if _is_csv(path):
        markers = list(MISSING_MARKERS if missing is None else missing)
        return dd.read_csv(path, dtype=str, keep_default_na=False, na_values=markers)
    if os.path.isdir(path) and not any(next(Path(path).glob(g), None) for g in (
            "*.parquet", "*/*.parquet", "*.pq")):  # two levels: '/' is not searched whole
        raise DataError(f"the folder {path!r} holds no Parquet parts (*.parquet); give a CSV, a "
                        "Parquet file or a folder of Parquet parts")
    _flat_parts(path)
    try:
        return dd.read_parquet(path)
    except (ValueError, OSError) as exc:  # fuzz17: Dask's own words, several lines, exit 1
        said = " ".join(str(exc).split())[-200:]
        raise DataError(f"{path!r} cannot be read as Parquet ({said})") from None


def _flat_parts(path: str) -> None:
    """Refuse a Parquet file, folder of parts or glob whose columns are not one value a cell
    (lists, structs, maps, raw bytes), from the footer before any row is read: the pandas
    reader's check (`data.flat_parquet`), which the Dask reader lacked (trust23). A path
    pyarrow cannot read as a data set is left to Dask's reader, which says why."""
    import glob

    from .data import flat_parquet

    try:
        import pyarrow.dataset as pads

        parts = sorted(glob.glob(path)) if any(ch in path for ch in "*?[") else path
        schema = pads.dataset(parts, format="parquet").schema
    except Exception:  # not Parquet, or not readable: dd.read_parquet's own words follow
        return
    flat_parquet(schema, repr(path))


def _numbers_as_floats(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with each object column that holds only numbers (Decimal from a database,
    `astype(object)`; `discretize.numeric_values`, dates excepted) as floats: the in-memory fit
    bins such a column, while Dask would turn it into text and leave it out."""
    from .data import held_format
    from .discretize import numeric_values

    floats = {}
    for c in frame.columns[[pd.api.types.is_object_dtype(t) for t in frame.dtypes]]:
        x = None if held_format(frame[c]) != "plain" else numeric_values(frame[c])
        if x is not None:
            floats[c] = x
    if not floats:
        return frame
    out = frame.copy()  # column names may be any hashable, so not assign(**floats)
    for c, x in floats.items():
        out[c] = x
    return out


# --------------------------------------------------------------------------- partition tasks


def _part_stats(part: pd.DataFrame, features: list[str], label: str) -> dict:
    """Value strings and non-missing cells per feature, label strings and row count of one
    partition."""
    values, present = {}, {}
    for f in features:
        raw = part[f].to_numpy(dtype=object)
        values[f] = {value_str(v) for v in raw if not is_missing(v)}
        present[f] = int(part[f].notna().sum())
    labels = part[label].to_numpy(dtype=object)
    missing = [i for i, v in enumerate(labels) if is_missing(v)]
    return {"values": values, "present": present,
            "labels": {value_str(v) for v in labels if not is_missing(v)},
            "n": len(part), "missing_label": len(missing)}


def _merge_stats(a: dict, b: dict) -> dict:
    return {"values": {f: a["values"][f] | b["values"][f] for f in a["values"]},
            "present": {f: a["present"][f] + b["present"][f] for f in a["present"]},
            "labels": a["labels"] | b["labels"], "n": a["n"] + b["n"],
            "missing_label": a["missing_label"] + b["missing_label"]}


def _part_codes(part: pd.DataFrame, features: list[str], label: str, domains: dict,
                positive: str) -> tuple[np.ndarray, np.ndarray]:
    enc = encode(part[features], domains)
    y = np.array([value_str(v) == positive for v in part[label].to_numpy(dtype=object)],
                 dtype=np.int64)
    return enc.codes, y


def _part_distinct(part, features, label, domains, positive, radix) -> np.ndarray:
    from .direct import row_keys

    codes, _ = _part_codes(part, features, label, domains, positive)
    words = np.column_stack(row_keys(codes, radix)) if len(codes) else np.zeros((0, 1), np.int64)
    return np.unique(words, axis=0)


def _merge_distinct(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.unique(np.vstack([a, b]), axis=0)


def _part_counts(part, features, label, domains, positive, sizes, cap):
    from .direct import count_rows

    codes, y = _part_codes(part, features, label, domains, positive)
    return count_rows(codes, y, sizes, cap)


def _merge(sizes, cap, a, b):
    from .direct import merge_counts

    return merge_counts([a, b], sizes, cap)


def _tree(dask: Any, items: list, fn: Any) -> Any:
    """Pairwise (tree) reduction of delayed items with fn(a, b)."""
    items = list(items)
    while len(items) > 1:
        nxt = [dask.delayed(fn)(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            nxt.append(items[-1])
        items = nxt
    return items[0]


# --------------------------------------------------------------------------- the Direct KB


def table_stats(ddf: Any, label: str) -> tuple[list[str], dict[str, tuple[str, ...]], list[str], int]:
    """(features, domains sorted as `encode` sorts them, label classes, rows) in one pass."""
    return _table_stats(ddf, label)[:4]


def _table_stats(ddf: Any, label: str) -> tuple[list[str], dict[str, tuple[str, ...]],
                                                 list[str], int, dict[str, int]]:
    """`table_stats` and the non-missing cells of each feature, from the same one pass."""
    dask, _, _ = _dask()
    if label not in ddf.columns:
        raise DataError(f"the label column {label!r} is not in the table (columns: "
                        f"{list(ddf.columns)[:20]})")
    features = [str(c) for c in ddf.columns if c != label]
    parts = [dask.delayed(_part_stats)(p, features, label) for p in ddf.to_delayed()]
    st = _tree(dask, parts, _merge_stats).compute()
    if st["missing_label"]:
        raise DataError(f"the label {label!r} is missing in {counted(st['missing_label'], 'row')}")
    domains = {f: tuple(sorted(st["values"][f], key=natural_key)) for f in features}
    classes = sorted(st["labels"], key=natural_key)
    return features, domains, classes, int(st["n"]), st["present"]


def direct_kb_dask(data: Any, label: str, positive: Any = None, max_len: int | None = None,
                   memory_budget: int | str | None = None, stats: tuple | None = None):
    """(Direct KB, reason for its clause-length cap) of a Dask table: counts per partition,
    summed. Equal to `direct.direct_kb_with_reason` on the same rows in memory."""
    from .direct import (
        check_max_len,
        kb_from_counts,
        parse_size,
        resolve_max_len,
    )
    from .encoding import binary_target, one_class

    dask, _, _ = _dask()
    ddf = as_dask_frame(data)
    check_max_len(max_len)
    features, domains, classes, n = stats or table_stats(ddf, label)
    yb_check = classes if positive is None else classes + [value_str(positive)]
    _, pos = binary_target(pd.Series(yb_check), positive) if len(classes) else (None, None)
    if len(classes) < 2:
        raise one_class(classes[0]) if classes else DataError("the label has no rows")
    sizes = [len(domains[f]) for f in features]
    radix = np.asarray(sizes, np.int64) + 1
    parts = ddf.to_delayed()
    distinct = _tree(dask, [dask.delayed(_part_distinct)(p, features, label, domains, pos, radix)
                            for p in parts], _merge_distinct).compute()
    budget = None if memory_budget is None else parse_size(memory_budget)
    cap, reason = resolve_max_len(n, len(features), sizes, max_len, budget, len(distinct))
    counts = [dask.delayed(_part_counts)(p, features, label, domains, pos, sizes, cap)
              for p in parts]
    total = _tree(dask, counts, lambda a, b: _merge(sizes, cap, a, b)).compute()
    return kb_from_counts(total, features, domains, pos, cap, n), reason


# --------------------------------------------------------------------------- the estimator


def _part_rows(part: pd.DataFrame, take: np.ndarray | None) -> pd.DataFrame:
    return part if take is None else part.iloc[take]


def _rows(ddf: Any, positions: np.ndarray | None) -> pd.DataFrame:
    """The rows at global `positions` (sorted; None: every row) as one pandas frame."""
    dask, _, _ = _dask()
    parts = ddf.to_delayed()
    if positions is None:
        return pd.concat(dask.compute(*parts), ignore_index=True)
    lengths = np.array(ddf.map_partitions(len).compute(), dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    picked = []
    for i, p in enumerate(parts):
        lo, hi = np.searchsorted(positions, [starts[i], starts[i + 1]])
        if hi > lo:
            picked.append(dask.delayed(_part_rows)(p, positions[lo:hi] - starts[i]))
    return pd.concat(dask.compute(*picked), ignore_index=True)


def _binnable(dtype: Any) -> bool:
    """Whether a Dask column of this dtype may be binned as the in-memory fit bins it:
    numbers (not booleans), dates held as dates (`datetime64`, with or without a zone) and
    ordered levels (an ordered Categorical of known categories: cut in their order)."""
    if isinstance(dtype, pd.CategoricalDtype):
        return bool(dtype.ordered) and dtype.categories is not None
    return (pd.api.types.is_datetime64_any_dtype(dtype)
            or (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)))


def _value_counts(part: pd.DataFrame, col: str, label: str) -> pd.DataFrame:
    """One partition's rows per (present value of `col`, label string)."""
    sub = part[[col, label]].dropna(subset=[col])
    sub = sub.assign(**{label: sub[label].map(value_str)})
    return sub.groupby([col, label], sort=False).size().rename("n").reset_index()


def _sum_counts(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    both = pd.concat([a, b], ignore_index=True)
    return both.groupby(list(both.columns[:2]), sort=False)["n"].sum().reset_index()


def _discretizer_dask(ddf: Any, label: str, features: list[str], method: str, max_bins: int
                      ) -> tuple[Any, dict[str, str | None], dict[str, tuple[pd.Series, np.ndarray]]]:
    """The `Discretizer` the in-memory fit would fit on this table's rows, the in-memory
    leave-out reason (`data.excess_levels`; None: kept) of each column it bins, and each
    numeric or date column rebuilt as (its present values sorted, their labels). Numeric and
    date columns are gathered as (value, label) counts, summed over the partitions, and
    each is rebuilt on the client one column at a time (sorted values, repeated by their
    counts: cut points depend on neither order nor partitions), so the same
    `Discretizer.fit` finds the same cut points."""
    from .data import case_number, excess_levels, held_format, numbered_like_ids
    from .discretize import Discretizer, is_numeric, numeric_values

    dask, _, _ = _dask()
    cols = [f for f in features if _binnable(ddf[f].dtype)]
    parts = ddf.to_delayed()
    counts = dask.compute(*[_tree(dask, [dask.delayed(_value_counts)(p, c, label) for p in parts],
                                  _sum_counts) for c in cols])
    disc = Discretizer(method, max_bins)
    rebuilt, levels = {}, {}
    for c, cnt in zip(cols, counts):
        cnt = cnt.sort_values([c, label], kind="stable")
        n = cnt["n"].to_numpy(dtype=np.int64)
        values = pd.Series(np.repeat(cnt[c].to_numpy(), n), name=c).astype(ddf[c].dtype)
        rebuilt[c] = (values, np.repeat(cnt[label].to_numpy(dtype=object), n))
    numeric = [c for c, (values, _y) in rebuilt.items() if is_numeric(values, disc.max_categories)]
    others = [f for f in features if f not in set(numeric)]
    hints = (_interaction_hints(dask, ddf, label, numeric, others, rebuilt, max_bins)
             if method == "mdlp" and numeric else {})
    binned = {}
    for c, (values, y) in rebuilt.items():
        one = Discretizer(method, max_bins).fit(values.to_frame(), y, hints=hints)
        if c in one.binnings_:
            binned[c] = one.binnings_[c]
            x = numeric_values(values)
            x = x[~np.isnan(x)]
            plain = held_format(values) == "plain"
            levels[c] = excess_levels(len(np.unique(x)), max(len(x), 1),
                                      numbered_like_ids(x) and plain, max_levels=None) or (
                case_number(c, x) if plain else None)
    disc.feature_names_in_ = np.array(features, dtype=object)
    disc.binnings_ = {c: binned[c] for c in features if c in binned}
    disc.cuts_ = {c: b.cuts for c, b in disc.binnings_.items()}
    return disc, levels, rebuilt


def _keyed_columns(part: pd.DataFrame, numeric: list[str], label: str, classes: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(the `numeric` columns as floats, rows × columns; the label's class codes) of a part,
    as `discretize.interaction_hints` reads them."""
    from .discretize import numeric_values

    matrix = np.column_stack([numeric_values(part[c]) for c in numeric]).reshape(len(part), -1)
    return matrix, np.searchsorted(classes, part[label].map(value_str).to_numpy(dtype=str))


def _part_keys(part: pd.DataFrame, numeric: list[str], others: list[str], label: str,
               classes: np.ndarray) -> np.ndarray:
    """`discretize.row_keys` of a part's rows (the in-memory fit's keys of the same rows)."""
    from .discretize import row_keys

    matrix, codes = _keyed_columns(part, numeric, label, classes)
    return row_keys(matrix, codes, [part[c] for c in others])


def _least_keys(part: pd.DataFrame, numeric: list[str], others: list[str], label: str,
                classes: np.ndarray, limit: int) -> np.ndarray:
    """A part's `limit` least row keys (all when it has fewer)."""
    keys = _part_keys(part, numeric, others, label, classes)
    k = min(limit, len(keys))
    return np.partition(keys, k - 1)[:k] if k else keys


def _keyed_rows(part: pd.DataFrame, numeric: list[str], others: list[str], label: str,
                classes: np.ndarray, least: np.uint64) -> pd.DataFrame:
    """A part's rows whose key is at most `least` (with their key, `__key__`)."""
    keys = _part_keys(part, numeric, others, label, classes)
    keep = keys <= least
    return part[[*numeric, *others, label]][keep].assign(__key__=keys[keep])


def _interaction_hints(dask: Any, ddf: Any, label: str, numeric: list[str], others: list[str],
                       rebuilt: dict[str, tuple[pd.Series, np.ndarray]], max_bins: int
                       ) -> dict[str, list[float]]:
    """`discretize.interaction_hints` of the `numeric` columns (MDLP's cuts from their
    gathered counts `rebuilt`) beside the categorical features `others`, on the rows the
    in-memory fit reads them on (`discretize.interaction_rows`: every row, or the same rows of
    least `discretize.row_keys`, a hash of their content), gathered to the client only when
    some column may take one (`discretize.wants_interactions`): the same hints, so the same
    cut points."""
    from . import discretize as DZ
    from .discretize import (
        interaction_hints,
        interaction_rows,
        mdlp_cuts_many,
        numeric_values,
        wants_interactions,
    )

    classes = np.unique(np.concatenate([y for _v, y in rebuilt.values()]).astype(str))
    data = []
    for c in numeric:
        x, y = numeric_values(rebuilt[c][0]), rebuilt[c][1].astype(str)
        keep = np.isfinite(x)
        data.append((x[keep], np.searchsorted(classes, y[keep])))
    found = mdlp_cuts_many(data, max_bins, len(classes))
    if not wants_interactions(found, [max_bins] * len(found), bool(others)):
        return {}
    cols, parts = [*numeric, *others, label], ddf.to_delayed()
    n, limit = int(sum(dask.compute(*[dask.delayed(len)(p) for p in parts]))), DZ.INTERACTION_ROWS
    if n <= limit:  # every row, in the table's order
        rows = pd.concat(dask.compute(*[dask.delayed(lambda p: p[cols])(p) for p in parts]),
                         ignore_index=True)
    else:  # the rows of least `row_keys`: each part's least keys, then its rows up to the last
        least = np.sort(np.concatenate(dask.compute(*[dask.delayed(_least_keys)(
            p, numeric, others, label, classes, limit) for p in parts])))[limit - 1]
        rows = pd.concat(dask.compute(*[dask.delayed(_keyed_rows)(
            p, numeric, others, label, classes, least) for p in parts]), ignore_index=True)
        rows = rows.iloc[interaction_rows(rows.pop("__key__").to_numpy(dtype=np.uint64), limit)]
    matrix, codes = _keyed_columns(rows, numeric, label, classes)
    return dict(zip(numeric, interaction_hints(matrix, codes, len(classes),
                                               [rows[c] for c in others], found,
                                               [max_bins] * len(numeric))))


def _category_levels(ddf: Any, label: str, features: list[str],
                     domains: dict[str, tuple[str, ...]], present: dict[str, int],
                     bin_levels: dict[str, str | None]
                     ) -> tuple[dict[str, str | None], dict[str, tuple[str, ...]], dict[str, str]]:
    """Each feature's leave-out reason (None: kept; how to convert it, `estimator.convert_hint`),
    the kept levels of those grouped and the words that say how (`data.grouped_said`), as
    `PLXClassifier._leave_out` decides and says them in memory: a column of more than
    `max_categories` levels is rebuilt on the client from its value counts summed over the
    partitions (the reasons depend on the values and their counts, not on row order)."""
    from .data import (
        as_strings,
        excess_levels,
        free_text,
        grouped_said,
        many_levels,
        mixed_dates,
        text_binned,
    )
    from .estimator import convert_hint

    dask, _, _ = _dask()
    wide = [f for f in features if f not in bin_levels and len(domains[f]) > 10]
    parts = ddf.to_delayed()
    counts = dask.compute(*[_tree(dask, [dask.delayed(_value_counts)(p, f, label)
                                         for p in parts], _sum_counts) for f in wide])
    levels: dict[str, str | None] = {}
    grouped: dict[str, tuple[str, ...]] = {}
    said: dict[str, str] = {}
    for f, cnt in zip(wide, counts):
        per = cnt.groupby(f, sort=False)["n"].sum()
        values = pd.Series(np.repeat(per.index.to_numpy(dtype=object), per.to_numpy()),
                           name=f, dtype=object)
        levels[f] = free_text(values) or excess_levels(len(domains[f]), max(int(present[f]), 1),
                                                       max_levels=None)
        if levels[f] is None:
            levels[f], kept = many_levels(values, len(domains[f]))
            if kept is not None:
                grouped[f] = kept
                said[f] = grouped_said(kept, len(domains[f]), s=values)
        strs = as_strings(values)
        if levels[f] is not None:  # how to convert it, as the in-memory fit says
            levels[f] += convert_hint(values, strs)
        elif (mixed := mixed_dates(strs)) is not None:  # never silently categories
            say_note(f"column {f!r} is used as categories: {mixed}", stacklevel=4)
        elif text_binned(values):  # nor numbers written as text
            say_note(f"column {f!r} is used as categories:"
                     + convert_hint(values, strs).removeprefix(" —"), stacklevel=4)
    for f in features:
        if f not in levels:
            levels[f] = bin_levels[f] if f in bin_levels else excess_levels(
                len(domains[f]), max(int(present[f]), 1))
    # in the table's column order, as the in-memory fit names them (the wide ones came first)
    return {f: levels[f] for f in features}, grouped, said


def fit_dask(data: Any, label: str, groups: str | None = None, **params: Any):
    """A binary `PLXClassifier` (variant "tuned" or "paper", Direct KB) fitted on a Dask
    table; `params` are the estimator's. Numbers and dates (held as numbers and dates, as a
    Parquet file or a pandas frame holds them) are binned with the in-memory fit's cut
    points (`discretize`, `max_bins`; dates on a time line). `groups`: the column naming
    each row's case (no feature; read as `data.case_ids` reads it), whose rows the tuned
    leave-one-out leaves out together, as `PLXClassifier.fit(X, y, groups)` does. Predicts
    and explains like the in-memory fit on the same rows (in the same order)."""
    from . import variants as V
    from .data import case_ids, columns_left_out, copies_said, twin_said, uninformative
    from .direct import DEFAULT_MEMORY_BUDGET, parse_size
    from .encoding import class_named, default_positive, one_class
    from .estimator import PLXClassifier, warn_grouped, warn_left_out
    from .query import encode_rows

    clf = PLXClassifier(**params)
    if clf.kb != "direct" or clf.variant not in ("auto", "tuned", "paper"):
        raise DataError("fit_dask builds the Direct KB with variant 'auto', 'tuned' or 'paper'; "
                        f"got kb={clf.kb!r}, variant={clf.variant!r}")
    if clf.date_parts is not None:  # never dropped silently
        raise DataError(f"fit_dask derives no date parts (date_parts={clf.date_parts!r}): fit in "
                        "memory, or add them as columns first (e.g. ddf['visit'].dt.month_name())")
    ddf = as_dask_frame(data)
    if label not in ddf.columns:
        _table_stats(ddf, label)  # names the missing label column
    cases = None
    if groups is not None:  # each row's case, in the table's order; no feature
        if groups not in ddf.columns or groups == label:
            raise DataError(f"groups: the case column {groups!r} is not among the table's "
                            f"feature columns ({[c for c in ddf.columns if c != label][:20]})")
        cases = case_ids(ddf[groups].compute().reset_index(drop=True),
                         f"groups column {groups!r}").to_numpy(dtype=str)
        ddf = ddf.drop(columns=[groups])
    # numbers and dates binned as the in-memory fit bins them (same cut points), then the
    # table is read through the bins: its domains are the bin labels
    raw = ddf  # the table as given: the notes are about its columns
    copies = None
    if cases is None and (copies := _copy_cases(raw)) is not None:  # rows copied: one case each
        cases = copies[0].astype(str)
    disc, bin_levels, rebuilt = _discretizer_dask(
        ddf, label, [str(c) for c in ddf.columns if c != label], clf.discretize, clf.max_bins)
    if disc.binnings_:
        meta = ddf._meta.astype({c: object for c in disc.binnings_})
        ddf = ddf.map_partitions(disc.transform, meta=meta)
    # the columns the in-memory fit leaves out (ID-like, too many levels, constant, empty)
    features, domains, classes, n, present = _table_stats(ddf, label)
    levels, grouped, grouped_words = _category_levels(ddf, label, features, domains, present,
                                                      bin_levels)
    if grouped:  # many levels: the frequent ones kept, the rest read as one (as in memory)
        disc.levels_ = grouped
        meta = ddf._meta.astype({c: object for c in grouped})
        ddf = ddf.map_partitions(disc.transform, meta=meta)
        features, domains, classes, n, present = _table_stats(ddf, label)
    excluded = columns_left_out(levels, {  # one value and empty cells: a flag, as in memory
        f: uninformative(pd.Series(list(domains[f]) if len(domains[f]) != 1 else
                                   [domains[f][0]] * present[f] + [None] * (n - present[f]),
                                   dtype=object))
        for f in features if levels[f] is None})
    if len(excluded) == len(features):
        raise DataError(f"every feature column is left out: {excluded}")
    kept = [f for f in features if f not in excluded]
    if len(classes) < 2:  # the in-memory fit's words
        raise one_class(classes[0], f"the label {label!r}") if classes else DataError(
            f"the label {label!r} has no rows")
    if len(classes) != 2:
        raise DataError(f"fit_dask needs a binary label; {label!r} has classes {classes[:8]}"
                        + _strays_said(raw, label))
    columns = _columns_rebuilt(raw, label, kept, rebuilt, present, n)
    _column_notes(columns, kept, levels, disc, classes)
    warn_left_out(excluded)
    clf.grouped_ = {f: grouped_words[f] for f in grouped if f not in excluded}
    warn_grouped(clf.grouped_)
    _copy_notes(columns, kept)
    del columns
    if copies is not None:  # copies of a few records: said, as in memory
        say_note(copies_said(copies[0], copies[1], pd.RangeIndex(n)), stacklevel=2)
    for a, b, how in _twins_dask(raw, kept, n):  # one measure twice: said, as in memory
        say_note(twin_said(a, b, how), stacklevel=2)
    stats = (kept, {f: domains[f] for f in kept}, classes, n)
    pos = (class_named(clf.positive, classes, "y", "class") if clf.positive is not None
           else default_positive(classes))
    if pos is None:
        raise DataError(f"y has the classes {classes}: pass positive= to say which one POS stands "
                        "for (plx only assumes it for 0/1, −1/1, False/True and no/yes)")
    total = DEFAULT_MEMORY_BUDGET if clf.memory_budget is None else parse_size(clf.memory_budget)
    tuned = clf.variant in ("auto", "tuned")  # "auto" on a cluster: the tuned Direct KB
    budget = V.kb_share(total) if tuned else total  # as PLXClassifier.fit
    full, why = direct_kb_dask(ddf, label, positive=pos, max_len=clf.max_len,
                               memory_budget=budget, stats=stats)
    if budget < total:
        why += V.kb_share_note(total)
    full.positive = pos
    # the same class correction as PLXClassifier.fit
    clf.class_weight_ = None if clf.variant == "paper" else clf.class_weight
    cw = None
    n_pos = int(ddf[label].map_partitions(
        lambda s: s.map(value_str) == pos, meta=(label, bool)).sum().compute())
    if clf.class_weight_ is not None:
        if clf.class_weight_ == "balanced":
            cw = V.balanced_weights(n_pos, n)
        else:
            given = {value_str(k): float(v) for k, v in clf.class_weight_.items()}
            negs = {c: 0 for c in classes if c != pos}
            cw = (given.get(pos, 1.0), float(np.mean([given.get(c, 1.0) for c in negs])))
        full = V.weighted_class_kb(full, *cw)
    clf.base_rates_ = [n_pos / n]
    for c in excluded:  # a left-out column needs no bins (predict takes any value)
        disc.binnings_.pop(c, None)
        disc.cuts_.pop(c, None)
    clf.discretizer_ = disc
    clf.cuts_ = dict(disc.cuts_)
    if tuned:
        pick = V.loo_sample(full, n, clf.random_state)
        leave_out = None
        if pick is not None and cases is not None:
            if _cases_differ(ddf, label, kept, cases):
                pick = V.loo_sample(full, n, clf.random_state, cases)  # whole cases, as in memory
            else:  # replicas: a row's copies counted on the whole table, as in memory
                leave_out = _replica_counts(ddf, label, kept, cases)[pick]
        rows = _rows(ddf, pick)
        y = np.array([value_str(v) == pos for v in rows[label].to_numpy(dtype=object)], np.int64)
        frame = rows[kept].astype(object)
        fitted = clf._tuned(full, encode_rows(full, frame), y,
                            None if cases is None else cases if pick is None else cases[pick],
                            sampled=True, class_weights=cw, leave_out=leave_out)
    else:
        fitted = (full, full, None, [])
    clf.classes_ = np.array(classes, dtype=object)
    clf.variant_, clf.positive_, clf._class_str = ("tuned" if tuned else "paper"), pos, classes
    clf.chosen_, clf.selection_, clf.semantics_ = "direct", None, clf.semantics
    clf.chosen_reason_ = ("direct answers: on a Dask table the tuned Direct KB (no "
                          "cross-validated choice)" if clf.variant == "auto"
                          else f"variant={clf.variant!r} as given")
    clf.threshold_ = 0.5 if clf.threshold is None else float(clf.threshold)
    clf.kbs_, clf.paper_kbs_, clf.tuned_, clf.ensembles_ = [fitted[0]], [fitted[1]], [fitted[2]], [[]]
    clf.kb_ = fitted[0]
    clf.max_len_, clf.max_len_reason_ = full.max_len, why
    clf.n_features_in_ = len(features)
    clf.feature_names_in_ = np.array(features, dtype=object)
    clf.excluded_ = excluded
    return clf


def _label_counts(part: pd.DataFrame, label: str) -> pd.Series:
    return part[label].map(value_str).value_counts(sort=False)


def _label_rows(part: pd.DataFrame, label: str, values: list[str], lo: int) -> pd.DataFrame:
    strs = part[label].map(value_str)  # (each label written once)
    at = np.flatnonzero(strs.isin(values).to_numpy())
    return pd.DataFrame({"value": strs.to_numpy()[at], "row": at + lo})


def _strays_said(ddf: Any, label: str) -> str:
    """"; " and the in-memory fit's stray-label note (`encoding.stray_said`: 'yse' in 2 rows
    beside 'yes' and 'no'), the label counted and the rare classes' rows found on the
    cluster; "" when none."""
    from .encoding import stray_said, stray_values

    dask, _, _ = _dask()
    counts = _tree(dask, [dask.delayed(_label_counts)(p, label) for p in ddf.to_delayed()],
                   lambda a, b: a.add(b, fill_value=0)).compute()
    counts = {str(v): int(k) for v, k in counts.items()}
    if not (small := stray_values(counts)):
        return ""
    rows = pd.concat(dask.compute(*[dask.delayed(_label_rows)(p, label, small, lo)
                                    for p, lo, _ in _spans(ddf)]))
    return "; " + stray_said(counts, {v: sorted(rows.loc[rows["value"] == v, "row"].tolist())
                                      for v in small})


def _columns_rebuilt(ddf: Any, label: str, kept: list[str],
                     rebuilt: dict[str, tuple[pd.Series, np.ndarray]], present: dict[str, int],
                     n: int) -> _Rebuilt:
    """Each kept column of a Dask table as (its cells, the label as text), rebuilt on the
    client from its (value, label) counts summed over the partitions (numbers and dates as
    `_discretizer_dask` rebuilt them; its empty cells last): what the in-memory fit's notes
    on a column read (values, counts and their classes, not the rows' order)."""
    dask, _, _ = _dask()
    rest = [f for f in kept if f not in rebuilt]
    parts = ddf.to_delayed()
    counts = dask.compute(*[_tree(dask, [dask.delayed(_value_counts)(p, f, label)
                                         for p in parts], _sum_counts) for f in rest])
    return _Rebuilt(ddf, label, rebuilt, dict(zip(rest, counts)), present, n)


class _Rebuilt:
    """A Dask table's columns rebuilt one at a time (`_columns_rebuilt`): `columns[f]` is
    (its cells, the label as text), made when asked and not kept."""

    def __init__(self, ddf, label, rebuilt, counts, present, n):
        self.ddf, self.label, self.rebuilt, self.counts = ddf, label, rebuilt, counts
        self.present, self.n = present, n

    def __getitem__(self, f: str) -> tuple[pd.Series, pd.Series]:
        ddf, label, rebuilt, present, n = self.ddf, self.label, self.rebuilt, self.present, self.n
        if f in rebuilt:
            values, y = rebuilt[f]
        else:
            cnt = self.counts[f]
            k = cnt["n"].to_numpy(dtype=np.int64)
            dtype = ddf[f].dtype
            values = pd.Series(np.repeat(cnt[f].to_numpy(dtype=object), k), name=f,
                               dtype=dtype if isinstance(dtype, np.dtype) else object)
            y = np.repeat(cnt[label].to_numpy(dtype=object), k)
        empty = n - int(present[f])
        cells = values.reset_index(drop=True)
        if empty:
            cells = pd.concat([cells, pd.Series([np.nan] * empty, dtype=object)],
                              ignore_index=True)
            if values.dtype.kind in "iuf":  # numbers with empty cells: floats, as pandas holds them
                cells = cells.astype(float)
        labels = pd.Series(np.concatenate([np.asarray(y, dtype=object),
                                           np.full(empty, y[0] if len(y) else "", dtype=object)]),
                           dtype=object)
        return cells, labels


def _column_notes(columns: _Rebuilt, kept: list[str],
                  levels: dict[str, str | None], disc: Any, classes: list[str]) -> None:
    """The in-memory fit's notes on how a kept column is read (`PLXClassifier._leave_out`:
    numbers or dates kept as categories, a column of one value and empty cells; `plx fit`'s
    whole numbers of a few levels), said from the columns as rebuilt (`_columns_rebuilt`)."""
    from . import wording
    from .data import as_strings, flag_column, mixed_dates, text_binned, whole_levels
    from .estimator import convert_hint

    flags = []  # (said after every other note, as before: each column rebuilt once)
    for f in kept:
        cells = columns[f][0]
        if f not in disc.binnings_ and (how := flag_column(cells)):
            flags.append(f"column {f!r}: {how}")
        if f in disc.binnings_ or len(pd.unique(cells.dropna())) > 10:
            continue  # binned, or said with the wide columns (`_category_levels`)
        strs = as_strings(cells)
        if (mixed := mixed_dates(strs)) is not None:
            say_note(f"column {f!r} is used as categories: {mixed}", stacklevel=3)
        elif text_binned(cells):
            say_note(f"column {f!r} is used as categories:"
                     + convert_hint(cells, strs).removeprefix(" —"), stacklevel=3)
        elif (few := whole_levels(cells)) is not None:
            say_note(f"column {f!r} is used as categories: {wording.whole_levels_said(*few)}",
                     stacklevel=3)
    for note in flags:
        say_note(note, stacklevel=3)


def _copy_notes(columns: _Rebuilt, kept: list[str]) -> None:
    """The in-memory fit's notes on each kept column (`estimator.kept_column_said`: a copy of
    the label, values written two ways, two scales, a code for missing, ±inf), from the
    rebuilt columns."""
    from .data import label_texts
    from .estimator import kept_column_said

    for f in kept:
        cells, labels = columns[f]
        for note in kept_column_said(f, cells, labels, label_texts(labels),
                                     lambda cut, f=f: _run_below(columns.ddf, f, cut)):
            say_note(note, stacklevel=3)


def _below(part: pd.DataFrame, f: str, cut: float, lo: int) -> np.ndarray:
    """(first, last, count) of a partition's rows (global positions from `lo`) whose number in
    `f` is below `cut` (n/a: first past every row, last -1)."""
    from .data import plain_numbers

    x = plain_numbers(part[f])
    x = np.full(len(part), np.nan) if x is None else x
    at = np.flatnonzero(np.isfinite(x) & (np.nan_to_num(x, nan=np.inf) < cut)) + lo
    big = np.iinfo(np.int64).max
    return np.array([at[0] if len(at) else big, at[-1] if len(at) else -1, len(at)], np.int64)


def _run_below(ddf: Any, f: str, cut: float) -> str:
    """`data.run_said` of the rows of a Dask table whose `f` is below `cut`, found on the
    cluster (a rebuilt column is sorted, not in the table's order)."""
    from .data import run_said

    dask, _, _ = _dask()
    spans = _spans(ddf)
    got = np.array(dask.compute(*[dask.delayed(_below)(p, f, cut, lo) for p, lo, _ in spans]))
    n = spans[-1][2] if spans else 0
    return run_said(int(got[:, 0].min()), int(got[:, 1].max()), int(got[:, 2].sum()), n)


def _pairs(part: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """One partition's rows per (value of `a`, value of `b`), missing cells as a value."""
    both = pd.DataFrame({"a": part[a].map(value_str).where(part[a].notna(), "\x00"),
                         "b": part[b].map(value_str).where(part[b].notna(), "\x00")})
    return both.groupby(["a", "b"], sort=False).size().rename("n").reset_index()


def _joint_counts(part: pd.DataFrame, a: str, b: str) -> tuple[pd.Series, pd.Series]:
    both = part[[a, b]].dropna()
    return both[a].value_counts(sort=False), both[b].value_counts(sort=False)


def _add_counts(x: tuple, y: tuple) -> tuple:
    return tuple(p.add(q, fill_value=0) for p, q in zip(x, y))


def _rank_sums(part: pd.DataFrame, a: str, b: str, ranks: tuple[pd.Series, pd.Series]
               ) -> np.ndarray:
    both = part[[a, b]].dropna()
    ra, rb = (both[c].map(r).to_numpy(dtype=float) for c, r in zip((a, b), ranks))
    return np.array([len(ra), ra.sum(), rb.sum(), (ra * ra).sum(), (rb * rb).sum(),
                     (ra * rb).sum()])


def _average_ranks(counts: pd.Series) -> pd.Series:
    """Each value's average rank among the rows counted (pandas' `rank()`, ties averaged)."""
    counts = counts.sort_index()
    k = counts.to_numpy(dtype=float)
    return pd.Series(np.cumsum(k) - k + (k + 1) / 2, index=counts.index)


def _twins_dask(ddf: Any, kept: list[str], n: int, sample: int = 2000
                ) -> list[tuple[str, str, str]]:
    """`data.twin_columns` of a Dask table: candidates from a seeded sample of `sample` rows
    (as in memory), each confirmed on every row on the cluster — a copy by its distinct
    (value, value) pairs, numbers in order by their exact rank correlation (average ranks
    from the value counts, then sums per partition)."""
    from .data import TWIN_RANK, TWIN_ROWS, twin_columns

    dask, _, _ = _dask()
    pick = np.sort(np.random.default_rng(0).choice(n, min(n, sample), replace=False))
    candidates = twin_columns(_rows(ddf, pick)[kept].reset_index(drop=True), sample)
    parts = ddf.to_delayed()
    out = []
    for a, b, how in candidates:
        if how == "one to one":
            pairs = _tree(dask, [dask.delayed(_pairs)(p, a, b) for p in parts], _sum_counts
                          ).compute()
            one = (pairs["a"].nunique() == len(pairs) == pairs["b"].nunique()
                   and ((pairs["a"] == "\x00") == (pairs["b"] == "\x00")).all())
            if one:
                out.append((a, b, how))
            continue
        counts = _tree(dask, [dask.delayed(_joint_counts)(p, a, b) for p in parts],
                       _add_counts).compute()
        ranks = tuple(_average_ranks(c) for c in counts)
        m, sa, sb, saa, sbb, sab = _tree(dask, [dask.delayed(_rank_sums)(p, a, b, ranks)
                                                for p in parts], np.add).compute()
        if m < TWIN_ROWS:
            continue
        cov, va, vb = sab - sa * sb / m, saa - sa * sa / m, sbb - sb * sb / m
        rho = cov / np.sqrt(va * vb) if va > 0 and vb > 0 else 0.0
        if abs(rho) >= TWIN_RANK:
            out.append((a, b, f"in {'the same' if rho > 0 else 'reverse'} order (rank "
                              f"correlation {rho:.4f})"))
    return out


def _copy_cases(ddf: Any) -> tuple[np.ndarray, list[str]] | None:
    """(`data.copy_cases` of a Dask table as given, label included: each row's case, the two
    most varied columns) or None: each row's hash (`_row_hashes`, 8 bytes a row) brought back,
    the columns' distinct values and shares counted on the cluster only when the repeats are
    enough to ask (`data.copies_of`: the in-memory fit's one decision)."""
    from .data import copies_of, most_varied

    dask, _, _ = _dask()
    cols = list(ddf.columns)
    keys = np.concatenate([np.empty(0, np.uint64), *dask.compute(
        *[dask.delayed(_row_hashes)(p, cols) for p in ddf.to_delayed()])])
    two: list[str] = []
    counts: dict[str, pd.Series] = {}

    def varied(_first: np.ndarray) -> list[str]:  # every column's value counts, one pass
        counts.update(_tree(dask, [dask.delayed(_cell_counts)(p, cols) for p in ddf.to_delayed()],
                            _add_cell_counts).compute())
        two[:] = most_varied({c: len(counts[c]) for c in cols})
        return list(two)

    cases = copies_of(keys, varied, lambda c: counts[c].to_numpy(dtype=float) / len(keys))
    return None if cases is None else (cases, two)


def _cell_counts(part: pd.DataFrame, cols: list[str]) -> dict[str, pd.Series]:
    """Each column's rows per value (as text, `value_str`; a missing cell one value) of a
    partition."""
    out = {}
    for c in cols:
        cnt = part[c].value_counts(dropna=False, sort=False)
        keys = ["\0missing" if is_missing(v) else value_str(v) for v in cnt.index]
        out[c] = pd.Series(cnt.to_numpy(), index=keys).groupby(level=0).sum()
    return out


def _add_cell_counts(a: dict, b: dict) -> dict:
    return {c: a[c].add(b[c], fill_value=0) for c in a}


def _cases_differ(ddf: Any, label: str, kept: list[str], cases: np.ndarray) -> bool:
    """`variants.cases_differ` of a Dask table (rows as binned, `kept` features) and its rows'
    `cases`: whether a case holds rows that differ, counted on the cluster."""
    dask, _, _ = _dask()
    spans = dask.compute(*[dask.delayed(_case_hashes)(p, cases[lo:hi], [*kept, label])
                           for p, lo, hi in _spans(ddf)])
    both = pd.concat(spans).groupby(level=0).agg({"min": "min", "max": "max"})
    return bool((both["min"] != both["max"]).any())


def _replica_counts(ddf: Any, label: str, kept: list[str], cases: np.ndarray) -> np.ndarray:
    """`variants.duplicate_counts` of every row of a Dask table (rows as binned, `kept`
    features and the label) in its case: how many identical rows its group holds, counted
    on the whole table for a sampled leave-one-out (each row's hash brought back, 8 bytes)."""
    from .variants import duplicate_counts

    dask, _, _ = _dask()
    h = np.concatenate([np.empty(0, np.uint64), *dask.compute(
        *[dask.delayed(_row_hashes)(p, [*kept, label]) for p in ddf.to_delayed()])])
    return duplicate_counts(h.view(np.int64)[:, None], np.zeros(len(h), np.int64), cases)


def _row_hashes(part: pd.DataFrame, cols: list[str]) -> np.ndarray:
    """A hash of each row's values of a partition (as text, `discretize.row_keys`: each
    distinct value of a column written once, not every cell)."""
    from .discretize import row_keys

    return (row_keys(np.empty((len(part), 0)), np.zeros(len(part), np.int64),
                     [part[c] for c in cols]) if len(part) else np.empty(0, np.uint64))


def _case_hashes(part: pd.DataFrame, cases: np.ndarray, cols: list[str]) -> pd.DataFrame:
    """Per case of a partition the least and the largest hash of its rows' values
    (`_row_hashes`): equal on every partition when all its rows are one row repeated."""
    return pd.DataFrame({"case": cases, "h": _row_hashes(part, cols)}).groupby("case")["h"].agg(
        ["min", "max"])


def _spans(ddf: Any) -> list[tuple[Any, int, int]]:
    """(delayed partition, first global row, end) of each partition of `ddf`."""
    lengths = np.array(ddf.map_partitions(len).compute(), dtype=np.int64)
    ends = np.cumsum(lengths)
    return [(p, int(e - n), int(e)) for p, n, e in zip(ddf.to_delayed(), lengths, ends)]


def _bounds_names(clf: Any) -> list[tuple[Any, str, str]]:
    """(class key of `clf.bounds`' columns or None, side, column name) of each bounds column of
    `bounds_dask`: binary lower/upper/mean; several classes `lower:<class>`, `upper:<class>`,
    `mean:<class>` per class in `classes_` order, as `plx predict` names a class's bounds."""
    sides = ("lower", "upper", "mean")
    if len(clf.kbs_) == 1:
        return [(None, s, s) for s in sides]
    return [(c, s, f"{s}:{c}") for c in clf._class_str for s in sides]


def _bounds_part(part: pd.DataFrame, clf: Any, features: list[str]) -> pd.DataFrame:
    """A partition's bounds and predictions (one pass), per row why the LP failed on it
    ("" if answered) and whether it is uninformed (`clf.bounds`' column): a note said on a
    worker would never reach the user."""
    b, pred, note = clf._bounds_predict(part[features].astype(object), say_failed=False)
    cols = {name: b[side if c is None else (c, side)].to_numpy()
            for c, side, name in _bounds_names(clf)}
    uninformed = b["uninformed"]  # several classes: the column ('uninformed', '')
    if isinstance(uninformed, pd.DataFrame):
        uninformed = uninformed.iloc[:, 0]
    return pd.DataFrame({**cols, "prediction": pd.Series(pred, dtype=object).astype(str).to_numpy(),
                         "note": note, "uninformed": uninformed.to_numpy(dtype=bool)},
                        index=part.index)


def _warn_read_as(clf: Any, ddf: Any, features: list[str], client: Any) -> None:
    """The in-memory predict's warnings (`estimator.warn_read_as`, `warn_unseen`) for a Dask
    table: the values the model reads as its value written otherwise ("TRUE" as "True") and
    those it never saw, rows counted over every partition, said when the lazy answers are made
    — from one pass over the value counts of the columns the model does not bin (a warning
    raised on a worker never reaches the user; rows of unseen values in two columns counted
    in a second pass)."""
    import dataclasses

    from .estimator import warn_read_as, warn_unseen
    from .query import UNSEEN, encode_query_rows

    cols = [f for f in features if f not in getattr(clf, "cuts_", {})]
    if not cols:
        return
    counts = [ddf[f].value_counts(dropna=True) for f in cols]
    if client is not None:
        counts = client.compute(counts, sync=True)
    else:
        dask, _, _ = _dask()
        counts = list(dask.compute(*counts))
    written: dict[tuple[str, str], int] = {}  # 1 and "1" in one column count as one "1"
    for f, c in zip(cols, counts):
        for v, n in c.items():
            written[(f, value_str(v))] = written.get((f, value_str(v)), 0) + int(n)
    distinct = pd.DataFrame({f: pd.Series(c.index.to_numpy(dtype=object), dtype=object)
                             for f, c in zip(cols, counts)}, dtype=object)
    codes, _, read_as = encode_query_rows(clf.kbs_[0], distinct)  # per distinct value, counted
    warn_read_as(tuple(dataclasses.replace(r, rows=written[(r.feature, r.written)])
                       for r in read_as))
    # the values the model never saw, as `clf.bounds` says them (`estimator.warn_unseen`)
    at = clf.kbs_[0].feature_positions()
    unseen = {f: [v for v, k in zip(c.index, codes[:len(c), at[f]]) if k == UNSEEN]
              for f, c in zip(cols, counts) if f in at}
    unseen = {f: vs for f, vs in unseen.items() if vs}
    if not unseen:
        return
    cells = {f"{f}={value_str(v)!r}": int(c[v]) for f, c in zip(cols, counts) if f in unseen
             for v in unseen[f]}
    rows = (sum(cells.values()) if len(unseen) == 1 else int(ddf.map_partitions(
        _unseen_rows, unseen, meta=(None, "int64")).sum().compute()))
    warn_unseen(cells, rows)


def _unseen_rows(part: pd.DataFrame, unseen: dict[str, list]) -> pd.Series:
    """How many of a partition's rows hold a value of `unseen` (per column), as one count."""
    hit = np.zeros(len(part), dtype=bool)
    for f, values in unseen.items():
        hit |= part[f].isin(values).to_numpy()
    return pd.Series([int(hit.sum())])


def _quiet_copy(clf: Any) -> Any:
    """A shallow copy of `clf` for the workers that does not warn about values written
    otherwise: `_warn_read_as` has said them once for the whole table (a partition's warning
    would repeat them with that partition's count, or be lost on a worker process)."""
    import copy

    quiet = copy.copy(clf)
    quiet._read_as_said = True
    return quiet


def _for_workers(clf: Any, data: Any, client: Any = None) -> tuple[Any, list[str], Any]:
    """(the Dask table, the model's feature columns, the model as the workers get it) for the
    row-by-row answers of `bounds_dask` and `explain_dask`: a missing feature column named,
    values written otherwise warned about once for the whole table (`_warn_read_as`), and the
    quiet copy sent to every worker once (`client.scatter(..., broadcast=True)`) when a client
    is given."""
    ddf = as_dask_frame(data)
    left_out = set(getattr(clf, "excluded_", None) or ())
    have = {str(c) for c in ddf.columns}
    missing = [str(f) for f in clf.feature_names_in_ if str(f) not in have | left_out]
    if missing:
        others = [c for c in have if c not in {str(f) for f in clf.feature_names_in_}]
        raise DataError(f"the table lacks the model's feature {noun(len(missing), 'column')} {missing[:10]}"
                        f"{column_twins(missing[:10], sorted(others))}")
    # a column the fit left out (an ID, a constant) may be absent, as in the in-memory predict
    # and `plx predict`: the model reads the rows without it (`PLXClassifier._frame`)
    features = [str(f) for f in clf.feature_names_in_ if str(f) in have]
    _warn_read_as(clf, ddf, features, client)
    quiet = _quiet_copy(clf)
    return ddf, features, client.scatter(quiet, broadcast=True) if client is not None else quiet


def bounds_dask(clf: Any, data: Any, client: Any = None) -> Any:
    """A lazy Dask DataFrame of lower, upper, mean, prediction, note and uninformed (the rows
    nothing the model knows bears on, as `clf.bounds` marks them) per row of `data`, indexed as
    its partitions are (a pandas frame's own index) (a
    model of several classes: `lower:<class>`, `upper:<class>`, `mean:<class>` per class, as
    `plx predict` names them, for `clf.bounds`' per-class columns), the model sent to every
    worker once (`client.scatter(..., broadcast=True)` when a client is
    given). 'note' is why the LP failed on the row (its bounds NaN; "" for a row answered):
    the frame is lazy, so the caller reads it (`predict_dask` says them). Values read as the
    model's value written otherwise are warned about now, as `clf.bounds` warns
    (`_warn_read_as`)."""
    ddf, features, model = _for_workers(clf, data, client)
    meta = pd.DataFrame({**{name: pd.Series(dtype=float) for _, _, name in _bounds_names(clf)},
                         "prediction": pd.Series(dtype=object), "note": pd.Series(dtype=object),
                         "uninformed": pd.Series(dtype=bool)})
    return ddf.map_partitions(_bounds_part, model, features, meta=meta)


def predict_dask(clf: Any, data: Any, client: Any = None) -> np.ndarray:
    """Predictions for every row of a Dask table (computed), in row order, as `clf.predict`
    gives them (its `classes_`, not their text); the rows the LP failed on are said as
    `clf.predict` says them (`estimator.warn_failed`: how many over every partition, the first
    in table order with its reason, what predict gave them), and the rows of bounds [0, 1]
    (`query.UninformedRows`, the first answered again on the client for its words)."""
    from .estimator import warn_failed

    ddf = as_dask_frame(data)
    got = bounds_dask(clf, ddf, client)[["prediction", "note", "uninformed"]].compute()
    warn_failed(got["note"].to_numpy(dtype=object), clf._failed_decided())
    if len(hit := np.flatnonzero(got["uninformed"].to_numpy(dtype=bool))):  # as clf.predict
        row = _rows(ddf, hit[:1])[[str(f) for f in clf.feature_names_in_ if f in ddf.columns]]
        clf._say_uninformed(_quiet_copy(clf)._means(row, say_failed=False), 0, len(hit),
                            int(hit[0]))
    at = pd.Index([str(c) for c in clf.classes_]).get_indexer(got["prediction"])
    return clf.classes_[at]  # the text back to the class, every row at once


def _explain_part(part: pd.DataFrame, clf: Any, features: list[str], k: int) -> pd.DataFrame:
    """A partition's explanations as `clf.explain_many` gives them (one batch): per row the
    deciding features, that sub-query's bounds and the note — for a row nothing could explain
    (its LP failed, it knows no feature the model uses) the reason, no features, NaN bounds."""
    rows = []
    for e in clf.explain_many(part[features].astype(object), k=k):
        b = getattr(e, "bounds", (np.nan, np.nan))
        lower, upper = (b.lower, b.upper) if hasattr(b, "lower") else (b[0], b[1])
        rows.append({"features": features_text(e.features), "lower": float(lower),
                     "upper": float(upper), "note": e.note})
    return pd.DataFrame(rows, columns=["features", "lower", "upper", "note"], index=part.index)


def explain_dask(clf: Any, data: Any, k: int = 2, client: Any = None) -> Any:
    """A lazy Dask DataFrame: the k deciding features of each row, that sub-query's bounds and
    a note (why k was lowered; for a row that cannot be explained, its LP failed say, the
    reason, with no features and NaN bounds), as `clf.explain_many` gives them in memory
    (values read as the model's value written otherwise warned about now, as `clf.explain`
    warns)."""
    ddf, features, model = _for_workers(clf, data, client)
    meta = pd.DataFrame({"features": pd.Series(dtype=object), "lower": pd.Series(dtype=float),
                         "upper": pd.Series(dtype=float), "note": pd.Series(dtype=object)})
    return ddf.map_partitions(_explain_part, model, features, k, meta=meta)


# --------------------------------------------------------------------------- the CLI's model


def _model_part(part: pd.DataFrame, model: Any, markers: tuple[str, ...],
                delimiter: str | None = ",", unused: tuple[str, ...] = (),
                decided: dict[str, Any] | None = None
                ) -> tuple[pd.DataFrame, tuple[Any, ...], list[str]]:
    """A partition's answers, the values it read as the model's value written otherwise, and
    the numbers it read as its file writes them (`Schema.reading_file`); `unused`: features
    the file lacks that no clause names, read as unknown (`cli.with_unused`); `decided`: how
    the file's numbers read, decided once on the client from its first rows
    (`cli.Model.rows(decided=)`), so no partition reads them otherwise than another."""
    from .cli import with_unused

    if markers:
        part = part.mask(part.isin(list(markers)))
    part = with_unused(part, list(unused))
    if decided:
        X, _ = model.read_as_decided(decided, part, delimiter)
        read: list[str] = []
    else:
        schema, read = model.schema.reading_file(part, delimiter)
        X, _ = schema.apply(part, label=False)
    out, read_as = model.answers(X)
    out = model.with_ids(out, part)
    out.index = part.index
    return out, read_as, read


def predict_model_dask(model: Any, path: str, scheduler: str | None = None,
                       workers: int | None = None, missing: tuple[str, ...] | None = None,
                       say: Any = None, decimal: str | None = None) -> pd.DataFrame:
    """`plx predict --dask/--workers`: a CLI model (`plx_core.cli.Model`) answers a Parquet
    data set (file or folder) or CSV partition by partition; rows come back in file order.
    `say` gets the one line of values read as the model's value written otherwise (all
    partitions' rows summed), as the in-memory `Model.predict` says it."""
    import dask

    from .cli import with_unused
    from .data import BLOCK_ROWS, MISSING_MARKERS, reading_delimiter
    from .query import merge_read_as, read_as_note

    # a CSV is read with the markers as missing (as_dask_frame); Parquet cells are masked here,
    # "" too (as `data.read_table` reads a Parquet file for plain `plx predict`)
    markers = () if _is_csv(str(path)) else tuple(MISSING_MARKERS if missing is None else missing)
    client = connect(scheduler, workers)
    try:
        ddf = as_dask_frame(path, missing=MISSING_MARKERS if missing is None else missing)
        # the columns said and the unused features filled as the in-memory path does
        unused = tuple(model.columns_said(list(ddf.columns), f"file {str(path)!r}",
                                          say or (lambda _: None)))
        fut = client.scatter(model, broadcast=True)
        delimiter = reading_delimiter("," if _is_csv(str(path)) else None, decimal)
        head = ddf.head(BLOCK_ROWS, npartitions=1, compute=True)  # decides, as a block does
        if markers:
            head = head.mask(head.isin(list(markers)))
        decided: dict[str, Any] = {}
        _, said = model._decide(decided, with_unused(head, list(unused)), delimiter,
                                list(unused))
        decided["line"] = {}  # (said as the file's first rows)
        done = client.compute([dask.delayed(_model_part)(p, fut, markers, delimiter, unused,
                                                         decided)
                               for p in ddf.to_delayed()], sync=True)
    finally:
        cluster = client.cluster if scheduler is None else None
        client.close()
        if cluster is not None:
            cluster.close()
    res = pd.concat([d[0] for d in done]).reset_index(drop=True)
    if "note" in res:  # a partition with rows the LP failed on: "" for every other row
        res["note"] = res["note"].fillna("")
    read_as = merge_read_as([d[1] for d in done])
    if say is not None:
        for n in dict.fromkeys([*said, *(n for d in done for n in d[2])]):  # each once
            say(f"file {str(path)!r}: {n}")
        if read_as:
            say(read_as_note(read_as))
    res["row"] = np.arange(1, len(res) + 1)
    return res


__all__ = [
    "INSTALL_HINT", "as_dask_frame", "bounds_dask", "connect", "direct_kb_dask", "explain_dask",
    "fit_dask", "predict_dask", "predict_model_dask", "table_stats",
]
