"""The KB's binary columnar codec: a numpy `.npz` archive of the learned block's columns plus a
UTF-8 JSON header (features, domains, settings, the other clauses, and whatever the caller adds).

Chosen over Parquet (benchmarks/bench_files.py): the KB already is a set of numpy columns, so
an uncompressed npz writes and reads them at disk speed with no new dependency, and
`np.load(allow_pickle=False)` never runs code from the file. Every array is checked (dtype,
shape, code ranges) before a KB is built from it.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np

from .clause import SOURCES
from .errors import ClauseSyntaxError, DataError
from .jsonformat import JSON_FORMAT, JSON_VERSION, _clause_json, kb_from_document, load_json
from .plurals import noun

NPZ_MAGIC = b"PK\x03\x04"  # a zip archive
COLUMNS = ("codes", "head", "p", "w", "support", "positives", "source")
MAX_ARCHIVE_BYTES = 16 * 2**30  # uncompressed members, checked before anything is read
MAX_HEADER_BYTES = 256 * 2**20


def is_npz(head: bytes) -> bool:
    """Whether a file starting with these bytes is an npz (zip) archive."""
    return head[:4] == NPZ_MAGIC


def _smallest_code_dtype(kb: Any) -> np.dtype:
    top = max((len(kb.domains[f]) for f in kb.features), default=0)
    for dt in (np.int8, np.int16, np.int32):
        if top < np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)


def write_npz(kb: Any, target: str | Path | IO[bytes], meta: dict[str, Any] | None = None,
              compress: bool = False) -> None:
    """Write `kb` (and the JSON-able `meta`, kept in the header under "meta") as an npz
    (zip-deflated with `compress`: smaller, slower)."""
    header = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "kind": kb.kind,
        "positive": kb.positive,
        "max_len": kb.max_len,
        "features": list(kb.features),
        "domains": {f: list(kb.domains[f]) for f in kb.features},
        "clauses": [_clause_json(c) for c in kb.extra],
        **kb.saved_state(),
        "meta": meta or {},
    }
    raw = json.dumps(header, ensure_ascii=False).encode("utf-8")
    (np.savez_compressed if compress else np.savez)(
        target,
        header=np.frombuffer(raw, dtype=np.uint8),
        codes=kb.codes.astype(_smallest_code_dtype(kb), copy=False),
        head=kb.head.astype(np.int8, copy=False),
        p=kb.p, w=kb.w,
        support=kb.support, positives=kb.positives,
        source=kb.source.astype(np.int8, copy=False),
    )


SHARED = ("codes", "head", "support", "source")
"""Columns several KBs of one file store once when equal (one-vs-rest KBs of one count share
their clauses and supports; each class has its own p, w and positives)."""


def _kb_header(kb: Any) -> dict[str, Any]:
    return {"kind": kb.kind, "positive": kb.positive, "max_len": kb.max_len,
            "features": list(kb.features), "domains": {f: list(kb.domains[f]) for f in kb.features},
            "clauses": [_clause_json(c) for c in kb.extra], **kb.saved_state()}


def _column(kb: Any, name: str) -> np.ndarray:
    """Column `name` of `kb` as written (the smallest dtype that holds it)."""
    if name == "codes":
        return kb.codes.astype(_smallest_code_dtype(kb), copy=False)
    if name in ("head", "source"):
        return getattr(kb, name).astype(np.int8, copy=False)
    return getattr(kb, name)


def write_npz_kbs(kbs: list[Any], target: str | Path | IO[bytes],
                  meta: dict[str, Any] | None = None) -> None:
    """Write several KBs in one npz (arrays "i.codes", … for KB i; a `SHARED` column equal to
    an earlier KB's is stored once and named in the header's "same"), with `meta`."""
    heads, arrays = [], {}
    for i, kb in enumerate(kbs):
        head, same = _kb_header(kb), {}
        for name in COLUMNS:
            col = _column(kb, name)
            twin = next((j for j in range(i) if name in SHARED and name not in heads[j]["same"]
                         and (getattr(kbs[j], name) is getattr(kb, name) or (
                             arrays[f"{j}.{name}"].shape == col.shape
                             and arrays[f"{j}.{name}"].dtype == col.dtype
                             and np.array_equal(arrays[f"{j}.{name}"], col)))), None)
            if twin is None:
                arrays[f"{i}.{name}"] = col
            else:
                same[name] = twin
        head["same"] = same
        heads.append(head)
    header = {"format": JSON_FORMAT, "version": JSON_VERSION, "kbs": heads, "meta": meta or {}}
    raw = json.dumps(header, ensure_ascii=False).encode("utf-8")
    np.savez(target, header=np.frombuffer(raw, dtype=np.uint8), **arrays)


def npz_holds_many(source: bytes) -> bool:
    """Whether an npz is in `write_npz_kbs`'s layout (its first KB's "0.p" is always stored)."""
    try:
        with zipfile.ZipFile(io.BytesIO(source)) as z:
            return "0.p.npy" in z.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def _open_npz(source: str | Path | bytes | IO[bytes],
              bad: Callable[[str], Exception]) -> np.lib.npyio.NpzFile:
    """The npz archive at `source` (bytes, a path or a file), never unpickling; `bad(msg)` is
    the error raised when it is not one."""
    try:
        archive = np.load(io.BytesIO(source) if isinstance(source, bytes) else source,
                          allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise bad(f"not a readable npz archive ({exc})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise bad("not an npz archive")
    return archive


def read_npz_kbs(source: bytes, where: str = "KB file") -> tuple[list[Any], dict]:
    """(KBs, meta) from an npz written by `write_npz_kbs`; one ClauseSyntaxError names any
    problem (every array checked as `read_npz` checks its one KB's)."""
    from .kb import KB

    def bad(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(f"{where}: {msg}")

    with _open_npz(source, bad) as archive:
        names = set(archive.files)
        sizes = {i.filename.removesuffix(".npy"): i.file_size for i in archive.zip.infolist()}
        if "header" not in names:
            raise bad("missing array ['header']")
        if sum(sizes.values()) > MAX_ARCHIVE_BYTES or sizes.get("header", 0) > MAX_HEADER_BYTES:
            raise bad(f"the archive unpacks to {sum(sizes.values()):,} bytes; more than plx reads")
        try:
            raw = archive["header"]
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
            raise bad(f"an array cannot be read ({exc})") from None
        if raw.dtype != np.uint8 or raw.ndim != 1:
            raise bad("array 'header' must be UTF-8 bytes")
        try:
            doc = load_json(raw.tobytes().decode("utf-8"), f"{where} header")
        except UnicodeDecodeError as exc:
            raise bad(f"array 'header' is not UTF-8 (byte {exc.start})") from None
        heads = doc.get("kbs") if isinstance(doc, dict) else None
        if not isinstance(heads, list) or not heads or not all(isinstance(h, dict) for h in heads):
            raise bad("header field 'kbs' must be a non-empty list of objects")
        want = set()
        for i, h in enumerate(heads):
            same = h.get("same", {})
            if not isinstance(same, dict) or any(
                    k not in SHARED or isinstance(j, bool) or not isinstance(j, int)
                    or not 0 <= j < i or k in heads[j].get("same", {}) for k, j in same.items()):
                raise bad(f"header field 'kbs[{i}].same' must name earlier KBs' stored columns "
                          f"among {list(SHARED)}")
            want |= {f"{i}.{c}" for c in COLUMNS if c not in same}
        missing, unknown = sorted(want - names), sorted(names - want - {"header"})
        if missing:
            raise bad(f"missing {noun(len(missing), 'array')} {missing[:5]}")
        if unknown:
            raise bad(f"unknown {noun(len(unknown), 'array')} {unknown[:5]}")
        try:
            arrays = {n: archive[n] for n in want}
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
            raise bad(f"an array cannot be read ({exc})") from None
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        raise bad("header field 'meta' must be an object")
    kbs = []
    for i, h in enumerate(heads):
        same = h.pop("same", {})
        cols = {c: arrays[f"{same[c] if c in same else i}.{c}"] for c in COLUMNS}
        base = kb_from_document({"format": JSON_FORMAT, "version": doc.get("version"), **h},
                                where=f"{where} header kbs[{i}]: ")
        try:
            kb = KB(base.features, dict(base.domains),
                    *_checked_columns(cols, base, lambda m, i=i: bad(f"KB {i}: {m}")),
                    extra=list(base.extra), positive=base.positive, kind=base.kind,
                    max_len=base.max_len)
        except DataError as exc:
            raise bad(f"KB {i}: {exc}") from None
        kbs.append(kb.restore_state(base.saved_state()))
    return kbs, meta


def read_npz(source: str | Path | bytes | IO[bytes], where: str = "KB file") -> tuple[Any, dict]:
    """(KB, meta) from an npz written by `write_npz`; one ClauseSyntaxError names any problem."""
    from .kb import KB

    def bad(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(f"{where}: {msg}")

    with _open_npz(source, bad) as archive:
        names = set(archive.files)
        missing = sorted({"header", *COLUMNS} - names)
        if missing:
            raise bad(f"missing {noun(len(missing), 'array')} {missing}")
        unknown = sorted(names - {"header", *COLUMNS})
        if unknown:
            raise bad(f"unknown {noun(len(unknown), 'array')} {unknown}")
        sizes = {i.filename.removesuffix(".npy"): i.file_size for i in archive.zip.infolist()}
        if sum(sizes.values()) > MAX_ARCHIVE_BYTES or sizes.get("header", 0) > MAX_HEADER_BYTES:
            raise bad(f"the archive unpacks to {sum(sizes.values()):,} bytes; more than plx reads")
        try:
            arrays = {name: archive[name] for name in ("header", *COLUMNS)}
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
            raise bad(f"an array cannot be read ({exc})") from None
    raw = arrays.pop("header")
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise bad("array 'header' must be UTF-8 bytes")
    try:
        text = raw.tobytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise bad(f"array 'header' is not UTF-8 (byte {exc.start})") from None
    doc = load_json(text, f"{where} header")
    if not isinstance(doc, dict):
        raise bad("the header must be a JSON object")
    meta = doc.pop("meta", {})
    if not isinstance(meta, dict):
        raise bad("header field 'meta' must be an object")
    base = kb_from_document(doc, where=f"{where} header: ")
    cols = _checked_columns(arrays, base, bad)
    try:
        kb = KB(base.features, dict(base.domains), *cols, extra=list(base.extra),
                positive=base.positive, kind=base.kind, max_len=base.max_len)
    except DataError as exc:
        raise bad(str(exc)) from None
    return kb.restore_state(base.saved_state()), meta


def _checked_columns(a: dict[str, np.ndarray], base: Any, bad: Any) -> list[np.ndarray]:
    """The seven columns, each checked for dtype, shape and range against the header."""
    for name in COLUMNS:
        kind = "f" if name in ("p", "w") else "i"
        if a[name].dtype.kind != kind:
            raise bad(f"array {name!r} has dtype {a[name].dtype}, expected "
                      f"{'floats' if kind == 'f' else 'integers'}")
    m, n_f = len(a["p"]), len(base.features)
    if a["codes"].ndim != 2 or a["codes"].shape != (m, n_f):
        raise bad(f"array 'codes' has shape {a['codes'].shape}, expected ({m}, {n_f})")
    for name in COLUMNS[1:]:
        if a[name].ndim != 1 or len(a[name]) != m:
            raise bad(f"array {name!r} has shape {a[name].shape}, expected ({m},)")
    codes = a["codes"]
    if m and n_f:
        sizes = np.array([len(base.domains[f]) for f in base.features])
        lo, hi = codes.min(axis=0), codes.max(axis=0)
        wrong = np.flatnonzero((lo < -1) | (hi >= sizes))
        if len(wrong):
            f = base.features[int(wrong[0])]
            raise bad(f"array 'codes': feature {f!r} has codes outside -1..{sizes[wrong[0]] - 1}")
    if m and not np.all(np.abs(a["head"]) == 1):
        raise bad("array 'head' must hold only 1 (POS) and -1 (¬POS)")
    if m and (a["source"].min() < 0 or a["source"].max() >= len(SOURCES)):
        raise bad(f"array 'source' must hold codes 0..{len(SOURCES) - 1}")
    for name in ("support", "positives"):
        if m and a[name].min() < -1:
            raise bad(f"array {name!r} must be ≥ -1 (-1 = unknown)")
    return [codes.astype(np.int32, copy=False) if codes.dtype.itemsize < 4 else codes,
            a["head"].astype(np.int8, copy=False), a["p"].astype(np.float64, copy=False),
            a["w"].astype(np.float64, copy=False), a["support"].astype(np.int64, copy=False),
            a["positives"].astype(np.int64, copy=False), a["source"].astype(np.int8, copy=False)]
