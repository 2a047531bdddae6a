"""Seeded mutation fuzzing of every reader: a hostile input must end in a result or the
project's one-line error (a `PLXError`; the CLI: exit 2 and one `error:` line), never a traceback.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/fuzz17/fuzz.py --seconds 60 --seed 0

Targets (each runs `--seconds`; `--only NAME,…` picks some): `table` (read_table + infer_schema +
apply on mutated CSV bytes), `upload` (the dashboard's read_upload + prepare), `cli` (`plx fit`
then `plx predict` / `explain` on mutated files, in process), `rules` (parse_rules against a KB,
and `plx rules add`), `model` (mutated model files through `plx predict`), `args` (hostile CLI
arguments), `store` (corrupt / foreign / locked SQLite files through `Store`), `export`
(safe_csv / kb_csv never write a live formula), `parquet` (trust23: Parquet files of random
column types, nested and bytes included, through read_table and the upload). Distinct failures (exception type and the
innermost plx frame, or the CLI's exit status and first line) are printed with one input each,
which is saved under --out.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gzip
import io
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from plx_core.errors import PLXError

FORMULAS = ["=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "=HYPERLINK(\"x\")",
            " =1+1", "＝1+1", "\n=1"]
WEIRD = ["", "?", "NA", "nan", "inf", "-inf", "1e999", "-0", "0x1F", "1,234", "1.234,5", "12%",
         "$5", "<5", ">=3", "≤2", "2024-02-30", "31/12/2023", "12:61", "3 days", "١٢٣", "Ⅻ",
         "ｙｅｓ", "yes ", " yes", "YES", "\u200b", "\u00a0", "é", "e\u0301", "🙂", "\\", "\"",
         "'", "#N/A", "#DIV/0!", "TRUE", "True", "1.0", "01", "\u2212" + "3", "NaN", "None",
         "<script>alert(1)</script>", "**bold**", "[x](javascript:alert(1))"]


class Finding(Exception):
    """An outcome that is neither a success nor the project's one-line error."""


class TooSlow(BaseException):
    """One input ran past --case-seconds (a hang is a failure too: limits come before work)."""


def _alarm(signum, frame):
    raise TooSlow()


# --------------------------------------------------------------------------- seeds


def seed_table(rng: random.Random) -> tuple[str, str]:
    """(CSV text, label column) of a small table: numbers, categories, a yes/no or 3-class label."""
    n = rng.randint(6, 40)
    cols = rng.randint(1, 5)
    names = [rng.choice(["age", "colour", "x", "size", "grade", "id", "when"]) + str(j)
             for j in range(cols)]
    label = rng.choice(["label", "y", "class"])
    classes = rng.choice([["yes", "no"], ["0", "1"], ["a", "b", "c"], ["pos", "neg"]])
    rows = []
    for i in range(n):
        r = []
        for j in range(cols):
            kind = j % 3
            if kind == 0:
                r.append(f"{rng.uniform(0, 100):.{rng.randint(0, 3)}f}")
            elif kind == 1:
                r.append(rng.choice(["red", "green", "blue"]))
            else:
                r.append(f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}")
        r.append(classes[i % len(classes)])
        rows.append(r)
    delim = rng.choice([",", ",", ";", "\t", "|"])
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delim, lineterminator=rng.choice(["\n", "\r\n"]))
    w.writerow(names + [label])
    w.writerows(rows)
    return buf.getvalue(), label


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def mutate_text(text: str, rng: random.Random, label: str) -> str:
    """One to three mutations of a CSV text, chosen to hit the classes the brief names."""
    for _ in range(rng.randint(1, 3)):
        lines = _lines(text) or [""]
        op = rng.randrange(24)
        i = rng.randrange(len(lines))
        if op == 0:  # ragged row
            lines[i] = lines[i].rstrip("\r\n") + rng.choice([",x", ",,", ""]) + "\n"
        elif op == 1:  # drop a field
            parts = lines[i].split(",")
            if len(parts) > 1:
                del parts[rng.randrange(len(parts))]
            lines[i] = ",".join(parts)
        elif op == 2:  # a huge cell
            k = rng.choice([10**5, 131_073, 200_000])
            lines[i] = rng.choice(["x", "1", '"']) * k + "," + lines[i]
        elif op == 3:  # NUL
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + "\x00" + text[pos:]
            continue
        elif op == 4:  # truncate
            text = text[: rng.randrange(len(text) + 1)]
            continue
        elif op == 5:  # header only / one row
            text = "".join(lines[: rng.choice([1, 2])])
            continue
        elif op == 6:  # every label missing / one class
            new = rng.choice(["?", "", "NA", "yes"])
            text = "".join(lines[:1] + [ln.rstrip("\r\n").rsplit(",", 1)[0] + "," + new + "\n"
                                        for ln in lines[1:]])
            continue
        elif op == 7:  # duplicate header name
            head = lines[0].rstrip("\r\n").split(",")
            if len(head) > 1:
                head[rng.randrange(len(head))] = head[rng.randrange(len(head))]
            lines[0] = ",".join(head) + "\n"
        elif op == 8:  # CR-only newlines
            text = text.replace("\r\n", "\n").replace("\n", "\r")
            continue
        elif op == 9:  # formula / weird cells
            parts = lines[i].rstrip("\r\n").split(",")
            parts[rng.randrange(len(parts))] = rng.choice(FORMULAS + WEIRD)
            lines[i] = ",".join(parts) + "\n"
        elif op == 10:  # a quote left open or doubled
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + rng.choice(['"', '""', '"\n"', "'"]) + text[pos:]
            continue
        elif op == 11:  # random characters
            pos = rng.randrange(len(text) + 1)
            junk = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)]))
                           for _ in range(rng.randint(1, 8)))
            text = text[:pos] + junk.replace("\ud800", "") + text[pos:]
            continue
        elif op == 12:  # duplicate a line
            lines.insert(i, lines[i])
        elif op == 13:  # delete a line
            del lines[i]
        elif op == 14:  # sep= line / BOM
            text = rng.choice(["sep=;\n", "sep=,\n", "\ufeff", "sep=\n", "sep=\"\n"]) + text
            continue
        elif op == 15:  # a column of the label's name / an empty header cell
            lines[0] = rng.choice([label + ",", ",", " ,", label.upper() + ","]) + lines[0]
        elif op == 16:  # blank lines, whitespace lines
            lines.insert(i, rng.choice(["\n", "   \n", ",,,\n", "\t\n"]))
        elif op == 17:  # a cell of every weird value in one column
            parts = lines[i].rstrip("\r\n").split(",")
            j = rng.randrange(len(parts))
            for k in range(1, len(lines)):
                p = lines[k].rstrip("\r\n").split(",")
                if j < len(p):
                    p[j] = rng.choice(WEIRD)
                lines[k] = ",".join(p) + "\n"
        elif op == 18:  # many columns
            lines = [ln.rstrip("\r\n") + ("," + "c") * rng.choice([1, 250, 600]) + "\n"
                     for ln in lines]
            lines[0] = lines[0].rstrip("\n").rsplit(",", 1)[0]
            lines[0] = ",".join(f"h{j}" if v == "c" else v for j, v in
                                enumerate(lines[0].split(","))) + ",last\n"
        elif op == 19:  # a very long header name, control characters in names
            lines[0] = rng.choice(["n" * 100_000, "a\x01b", "a\u2028b", "x\ny"]) + "," + lines[0]
        elif op == 20:  # the label in another spelling per row
            text = text.replace("yes", rng.choice(["Yes", "YES", "yes ", "y"]), rng.randint(1, 3))
            continue
        elif op == 21:  # many rows of copies
            lines = lines[:1] + lines[1:] * rng.choice([2, 50])
        elif op == 22:  # a column of many distinct values
            lines = [ln.rstrip("\r\n") + f",{k if k else 'uid'}{rng.random():.6f}\n"
                     for k, ln in enumerate(lines)]
        else:  # delimiter swap
            text = text.replace(",", rng.choice([";", "\t", "|", " ", ",,"]), rng.randint(1, 9))
            continue
        text = "".join(lines)
    return text


def mutate_bytes(text: str, rng: random.Random, label: str) -> bytes:
    text = mutate_text(text, rng, label)
    raw = text.encode("utf-8", "surrogatepass")
    op = rng.randrange(10)
    if op == 0 and raw:  # flip bytes
        b = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        raw = bytes(b)
    elif op == 1:  # latin-1 / cp1252 text
        raw = text.encode("latin-1", "replace") + "é,ü\n".encode("latin-1")
    elif op == 2:
        raw = gzip.compress(raw)[: rng.choice([None, 30])]
    elif op == 3:
        raw = text.encode("utf-16")
    elif op == 4:
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
    elif op == 5:
        raw = rng.choice([b"PK\x03\x04", b"PAR1", b"\x80\x04\x95", b"%PDF", b"BZh", b"\xfd7zXZ\x00"]) + raw[:50]
    return raw


# --------------------------------------------------------------------------- oracles


def where_in_plx(exc: BaseException) -> str:
    """The innermost frame in plx code of the traceback: the failure's key."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "plx_core" in f.filename or "plx_app" in f.filename]
    f = (ours or frames or [None])[-1]
    return "?" if f is None else f"{Path(f.filename).name}:{f.lineno} {f.name}"


def library(call: Callable[[], object]) -> object:
    """Run `call`; a PLXError of one line is fine; anything else is a Finding."""
    try:
        return call()
    except PLXError as exc:
        if "\n" in str(exc) or not str(exc).strip():
            raise Finding(f"PLXError of {str(exc).count(chr(10)) + 1} lines: {type(exc).__name__} at "
                          f"{where_in_plx(exc)}") from exc
        return None
    except RecursionError as exc:
        raise Finding(f"RecursionError at {where_in_plx(exc)}") from exc
    except Exception as exc:
        raise Finding(f"{type(exc).__name__} at {where_in_plx(exc)}: {str(exc)[:80]}") from exc


def cli(argv: list[str]) -> int:
    """`plx argv` in process; exit 0, or 2 with one `error:` line and no traceback."""
    from plx_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse's --help etc.
            rc = exc.code if isinstance(exc.code, int) else 2
    text = err.getvalue()
    errors = [ln for ln in text.splitlines() if ln.startswith(("error:", "internal error:"))]
    if "Traceback" in text:
        raise Finding(f"traceback on stderr ({argv[0]})")
    if rc == 1:
        head = errors[0] if errors else text[:120]
        raise Finding(f"exit 1 ({argv[0]}): {head.split(' — this is a bug')[0][:160]}")
    if rc not in (0, 2):
        raise Finding(f"exit {rc} ({argv[0]})")
    if rc == 2 and len(errors) != 1:
        raise Finding(f"exit 2 with {len(errors)} error lines ({argv[0]})")
    return rc


# --------------------------------------------------------------------------- targets


class Ctx:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.model: Path | None = None  # a good model file, for `model` and `rules`
        self.kb = None
        self.last = b""  # the input being tried, saved with a failure

    def good_model(self) -> Path:
        if self.model is None:
            text, label = seed_table(random.Random(7))
            p = self.tmp / "good.csv"
            p.write_text(text)
            self.model = self.tmp / "good.json"
            assert cli(["fit", str(p), "--label", label, "--out", str(self.model),
                        "--no-progress", "--variant", "paper"]) == 0
            self.data = p
        return self.model


def t_table(rng: random.Random, ctx: Ctx) -> bytes:
    from plx_core.data import infer_schema, read_table

    text, label = seed_table(rng)
    raw = ctx.last = mutate_bytes(text, rng, label)
    table = library(lambda: read_table(raw))
    if table is not None:
        def schema_and_rows():
            schema = infer_schema(table.frame, label if label in table.frame.columns
                                  else table.frame.columns[-1])
            return schema.apply(table.frame)
        library(schema_and_rows)
    return raw


def t_upload(rng: random.Random, ctx: Ctx) -> bytes:
    from plx_app.service.tables import prepare, read_upload

    text, label = seed_table(rng)
    raw = ctx.last = mutate_bytes(text, rng, label)
    name = rng.choice(["x.csv", "x.tsv", "x.parquet", "x.txt"])
    raw_table = library(lambda: read_upload(raw, name, decimal=rng.choice([None, ".", ","])))
    if raw_table is not None:
        library(lambda: prepare(raw_table, raw_table.defaults))
    return raw


def t_parquet(rng: random.Random, ctx: Ctx) -> bytes:
    """trust23: Parquet files of random column types — nested (lists, structs, maps), bytes,
    decimals, time zones, durations, dictionaries, all-null, float16, huge ints, odd names —
    through read_table → infer_schema → apply and the upload."""
    import datetime
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    from plx_app.service.tables import prepare, read_upload
    from plx_core.data import infer_schema, read_table

    n = rng.randint(0, 30)
    makers = {
        "f": lambda: pa.array([rng.choice([rng.uniform(-1e3, 1e3), None, float("nan"),
                                           float("inf")]) for _ in range(n)]),
        "i": lambda: pa.array([rng.choice([rng.randint(-2**63, 2**63 - 1), None, 0])
                               for _ in range(n)], pa.int64()),
        "u": lambda: pa.array([rng.randint(0, 2**64 - 1) for _ in range(n)], pa.uint64()),
        "s": lambda: pa.array([rng.choice(WEIRD + FORMULAS + [None]) for _ in range(n)]),
        "cat": lambda: pa.array([rng.choice(["a", "b"]) for _ in range(n)]).dictionary_encode(),
        "b": lambda: pa.array([rng.choice([True, False, None]) for _ in range(n)]),
        "bytes": lambda: pa.array([bytes([rng.randint(0, 255)]) for _ in range(n)]),
        "list": lambda: pa.array([[rng.randint(0, 3)] for _ in range(n)]),
        "struct": lambda: pa.array([{"a": rng.randint(0, 3)} for _ in range(n)]),
        "dec": lambda: pa.array([decimal.Decimal(rng.randint(0, 999)) / 100 for _ in range(n)],
                                pa.decimal128(10, 2)),
        "tz": lambda: pa.array([datetime.datetime(2024, 1, 1 + rng.randint(0, 27),
                                                  tzinfo=datetime.UTC) for _ in range(n)]),
        "dur": lambda: pa.array([datetime.timedelta(seconds=rng.randint(0, 9999)) for _ in range(n)]),
        "null": lambda: pa.array([None] * n, pa.null()),
        "date": lambda: pa.array([datetime.date(2024, 1, 1 + rng.randint(0, 27)) for _ in range(n)]),
    }
    k = rng.randint(1, 5)
    names = [rng.choice(["a", "b", "", "a\nb", "=x", "y", "é", "label"]) for _ in range(k)]
    kinds = [rng.choice(list(makers)) for _ in range(k)]
    label = pa.array([rng.choice(["yes", "no"]) for _ in range(n)])
    table = pa.Table.from_arrays([makers[t]() for t in kinds] + [label], names=[*names, "lab"])
    buf = io.BytesIO()
    pq.write_table(table, buf)
    raw = ctx.last = buf.getvalue()
    t = library(lambda: read_table(raw))
    if t is not None:
        library(lambda: infer_schema(t.frame, "lab").apply(t.frame))
    r = library(lambda: read_upload(raw, "x.parquet"))
    if r is not None:
        library(lambda: prepare(r, r.defaults))
    return raw


def t_cli(rng: random.Random, ctx: Ctx) -> bytes:
    text, label = seed_table(rng)
    raw = mutate_bytes(text, rng, label) if rng.random() < 0.8 else text.encode()
    data = ctx.tmp / "in.csv"
    data.write_bytes(raw)
    ctx.last = raw
    model = ctx.tmp / "m.json"
    model.unlink(missing_ok=True)
    extra = rng.choice([[], ["--drop-missing-label"], ["--kb", "tree"], ["--variant", "paper"],
                        ["--decimal", ","], ["--missing", "?,x"], ["--threshold", "0.3"]])
    rc = cli(["fit", str(data), "--label", rng.choice([label, label, "nope", ""]),
              "--out", str(model), "--no-progress", *extra])
    if rc == 0:
        other, olabel = seed_table(rng)
        pdata = ctx.tmp / "p.csv"
        ctx.last = mutate_bytes(other, rng, olabel)
        pdata.write_bytes(ctx.last)
        cmd = rng.choice([["predict"], ["explain", "--k", str(rng.choice([1, 2, 5, 99]))]])
        cli([cmd[0], str(model), str(pdata), "--out", str(ctx.tmp / "o.csv"), *cmd[1:]])
    return raw


RULES = ["IF {f}={v} THEN POS [p=0.9, w=5]", "IF {f}={v} AND {g}={u} THEN NEG [p=0.2]",
         "[0.8] POS | ~{f}={v}", "IF ({f}={v} OR {g}={u}) THEN POS [p=1]",
         "IF NOT {f}={v} THEN POS [p=0, w=1, id=z1]", "IF {f} > 3 THEN POS [p=0.7]"]


def rules_text(rng: random.Random, kb) -> str:
    feats = list(kb.features) or ["a"]
    lines = []
    for _ in range(rng.randint(1, 4)):
        f, g = rng.choice(feats), rng.choice(feats)
        v = rng.choice(list(kb.domains.get(f, ["x"])) or ["x"])
        u = rng.choice(list(kb.domains.get(g, ["x"])) or ["x"])
        lines.append(rng.choice(RULES).format(f=f, v=v, g=g, u=u))
    text = "\n".join(lines)
    for _ in range(rng.randint(0, 3)):
        op = rng.randrange(12)
        pos = rng.randrange(len(text) + 1)
        if op == 0:
            text = text[:pos] + rng.choice(["(", ")", "[", "]", "((((", "))"]) + text[pos:]
        elif op == 1:
            text = text.replace("0.9", rng.choice(["1.5", "-0.1", "nan", "inf", "1e999", "0x1",
                                                   "", "0,9", "٠.٩"]))
        elif op == 2:
            text = text.replace("IF", rng.choice(["ІF", "if", "ＩＦ", "IF\u200b"]))  # look-alikes
        elif op == 3 and len(text) < 10_000:
            text = "\n".join([text] * rng.choice([100, 10_000]))
        elif op == 4 and len(text) < 10_000:
            text = "IF " + " AND ".join(f"{rng.choice(feats)}=x{k}" for k in range(
                rng.choice([100, 20_000]))) + " THEN POS [p=0.9]"
        elif op == 5:
            text = text.replace(feats[0], rng.choice(["nope", feats[0].upper(), "", "\"\"", "'a'"]))
        elif op == 6:
            text = rng.choice(["", " ", "\n\n", "#", "IF", "THEN", "[", "[]", "[0.5]"])
        elif op == 7:
            text = text[:pos]
        elif op == 8:
            text = text[:pos] + rng.choice(["\x00", "\r", "\u2028", "\t", "∨", "¬", "~", "|"]) + text[pos:]
        elif op == 9:
            text = text.replace("w=5", rng.choice(["w=0", "w=-1", "w=nan", "w=1e308", "w=", "w=x"]))
        elif op == 10:
            text = text.replace("THEN POS", rng.choice(["THEN", "THEN POS POS", "THEN x", "THEN NEG"]))
        else:
            text = "(" * rng.choice([50, 150, 1000]) + text
    return text


def t_rules(rng: random.Random, ctx: Ctx) -> bytes:
    from plx_core.modelfile import load_model
    from plx_core.rules import parse_rules

    path = ctx.good_model()
    if ctx.kb is None:
        ctx.kb = load_model(path).kb
    text = rules_text(rng, ctx.kb)
    ctx.last = text.encode("utf-8", "surrogatepass")
    library(lambda: parse_rules(text, ctx.kb))
    if rng.random() < 0.2:
        cp = ctx.tmp / "r.json"
        cp.write_bytes(path.read_bytes())
        f = ctx.tmp / "rules.txt"
        f.write_text(text, encoding="utf-8", errors="surrogatepass")
        cli(["rules", str(cp), "add", "--file", str(f)])
    return text.encode("utf-8", "surrogatepass")


def _graft(doc, rng: random.Random):
    """A random field of the JSON document replaced by a hostile value."""
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for k, v in enumerate(node[:6]):
                walk(v, path + [k])
    walk(doc, [])
    path = rng.choice(paths)
    value = rng.choice([None, True, 0, -1, 1.5, 1e308, "x", "", [], {}, [None], {"a": 1},
                        list(range(1000)), "9" * 400, -(2**63), 2**70, [[[[[]]]]], "NaN",
                        10**400, "\n", "a\nb", "=cmd|' /C calc'!A0", "x" * 100_000])
    if not path:
        return value
    node = doc
    for k in path[:-1]:
        node = node[k]
    if rng.random() < 0.2 and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


def t_model(rng: random.Random, ctx: Ctx) -> bytes:
    path = ctx.good_model()
    raw = path.read_bytes()
    op = rng.randrange(4)
    if op == 0:
        raw = raw[: rng.randrange(len(raw))]
    elif op == 1:
        doc = json.loads(raw)
        for _ in range(rng.randint(1, 3)):
            doc = _graft(doc, rng)
        raw = json.dumps(doc).encode()
    elif op == 2:
        b = bytearray(raw)
        for _ in range(rng.randint(1, 5)):
            b[rng.randrange(len(b))] = rng.randrange(32, 127)
        raw = bytes(b)
    else:
        doc = json.loads(raw)
        doc["version"] = rng.choice([0, 2, 3, 99, "1", None, 1.0])
        raw = json.dumps(doc).encode()
    m = ctx.tmp / "bad.json"
    ctx.last = raw
    m.write_bytes(raw)
    cmd = rng.choice(["predict", "explain", "rules"])
    if cmd == "rules":
        cli(["rules", str(m), rng.choice(["list", "add"]), *(["IF a=b THEN POS [p=0.9]"]
                                                           if rng.random() < 0.5 else [])])
    else:
        cli([cmd, str(m), str(ctx.data), "--out", str(ctx.tmp / "o.csv")])
    return raw


def t_args(rng: random.Random, ctx: Ctx) -> bytes:
    path = ctx.good_model()
    tmp = ctx.tmp
    fifo = tmp / "fifo"  # a pipe, not /dev/null: run as root, an output renamed over /dev/null
    if not fifo.exists():  # replaced the device itself before trust23 refused such paths
        os.mkfifo(fifo)
    hostile_paths = [str(tmp), "/", "/nonexistent/x.csv", str(tmp / "nope.csv"), "",
                     "/proc/self/mem", str(fifo), str(path), str(ctx.data), "-", "x" * 5000,
                     "/root/x.csv", str(tmp / "ro" / "out.csv")]  # (no NUL: argv cannot hold one)
    ro = tmp / "ro"
    ro.mkdir(exist_ok=True)
    ro.chmod(0o500)
    nums = ["0", "-1", "1.5", "nan", "inf", "1e999", "", "x", "0.5", "1", "2", "99999999999999999999"]
    cmd = rng.choice(["fit", "predict", "explain", "rules"])
    if cmd == "fit":
        argv = ["fit", rng.choice([str(ctx.data)] * 3 + hostile_paths), "--label",
                rng.choice(["label", "y", "class", "", "x" * 300, "label "]),
                "--out", rng.choice([str(tmp / "f.json"), str(tmp / "f.npz")] * 2 + hostile_paths),
                "--no-progress", "--variant", "paper"]
        for flag in rng.sample(["--threshold", "--max-len", "--budget", "--positive",
                                "--random-state", "--decimal", "--missing", "--kb"], rng.randint(0, 3)):
            argv += [flag, rng.choice(nums + ["yes", "no", "a", "1KB", "1TB", ";", "tree"])]
    elif cmd in ("predict", "explain"):
        argv = [cmd, rng.choice([str(path)] * 3 + hostile_paths),
                rng.choice([str(ctx.data)] * 3 + hostile_paths),
                "--out", rng.choice([str(tmp / "o.csv")] * 2 + hostile_paths)]
        if cmd == "explain" and rng.random() < 0.6:
            argv += ["--k", rng.choice(nums)]
        if rng.random() < 0.3:
            argv += ["--rules", rng.choice(hostile_paths + [str(ctx.data)])]
        if rng.random() < 0.3:
            argv += ["--class", rng.choice(["yes", "zz", "", "0"])]
        if rng.random() < 0.2:
            argv += ["--workers", rng.choice(nums)]
    else:
        cp = tmp / "a.json"
        cp.write_bytes(path.read_bytes())
        action = rng.choice(["list", "add", "remove", "edit", "enable", "disable"])
        argv = ["rules", rng.choice([str(cp)] * 3 + hostile_paths), action]
        if action == "add":
            argv += [rng.choice(["IF zz=1 THEN POS [p=0.9]", "", "x" * 100])]
        elif action == "edit":
            argv += [rng.choice(["r1", "", "zz"]), "--p", rng.choice(nums), "--w", rng.choice(nums)]
        elif action in ("remove", "enable", "disable"):
            argv += [rng.choice(["r1", "", "zz", "r1.1"])]
        if rng.random() < 0.3:
            argv += ["--out", rng.choice(hostile_paths)]
    ctx.last = "\n".join(argv).encode("utf-8", "replace")
    cli(argv)
    return "\n".join(argv).encode("utf-8", "replace")


def t_store(rng: random.Random, ctx: Ctx) -> bytes:
    from plx_core.store import Store

    home = Path(tempfile.mkdtemp(dir=ctx.tmp))
    db = home / "plx.db"
    op = rng.randrange(6)
    if op == 0:
        db.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randint(0, 5000))))
    elif op in (1, 2):
        s = Store(home=home)
        from plx_app.service.projects import first_project

        library(lambda: first_project(s, None))
        s.close()
        for suffix in ("-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        b = bytearray(db.read_bytes())
        if op == 1:
            b = b[: rng.randrange(len(b))]
        else:
            for _ in range(rng.randint(1, 20)):
                b[rng.randrange(100, len(b))] = rng.randrange(256)
        db.write_bytes(bytes(b))
    elif op == 3:  # a foreign database
        c = sqlite3.connect(db)
        c.execute(rng.choice(["create table projects(x int)", "create table meta(key text)",
                              "create table other(a, b)"]))
        c.commit()
        c.close()
    elif op == 4:  # plx's own, another schema version
        s = Store(home=home)
        s.close()
        c = sqlite3.connect(db)
        c.execute("update plx_meta set value='99' where key='schema'")
        c.commit()
        c.close()
    else:  # a locked database (another writer holds it)
        s = Store(home=home)
        s.close()
        holder = sqlite3.connect(db, timeout=0)
        holder.execute("BEGIN EXCLUSIVE")
        os.environ["PLX_FUZZ_LOCKED"] = "1"
        try:
            def open_locked():
                s2 = Store(home=home)
                return s2.list_projects()
            _store_call(open_locked)
        finally:
            holder.rollback()
            holder.close()
        return db.read_bytes()[:100]

    def open_and_use():
        from plx_app.service.projects import first_project

        s = Store(home=home)
        try:
            s.list_projects()
            first_project(s, None)
        finally:
            s.close()
    _store_call(open_and_use)
    return db.read_bytes() if db.exists() else b""


def _store_call(call: Callable[[], object]) -> None:
    """Store errors: PLXError (one line) fine; an SQLAlchemy error leaks the driver's words."""
    import sqlalchemy.exc

    try:
        library(call)
    except Finding as f:
        if isinstance(f.__cause__, sqlalchemy.exc.SQLAlchemyError):
            raise Finding(f"{type(f.__cause__).__name__} (SQLAlchemy) at {where_in_plx(f.__cause__)}: "
                          f"{str(f.__cause__.orig if hasattr(f.__cause__, 'orig') else f.__cause__)[:60]}"
                          ) from f.__cause__
        raise


def t_export(rng: random.Random, ctx: Ctx) -> bytes:
    from plx_app.service.export import kb_csv
    from plx_core.export import safe_csv
    from plx_core.kb import KB, Literal, WeightedClause

    cells = FORMULAS + WEIRD + ["-1", "-0.5", "+3", "1e5", "-1e-5", "-", "=", "+", "@"]
    frame = pd.DataFrame({rng.choice(cells) + str(j): [rng.choice(cells) for _ in range(5)]
                          for j in range(3)})
    out = [safe_csv(frame)]
    kb = KB()
    lits = tuple(Literal(rng.choice(cells) or "f", rng.choice(cells) or "v", False) for _ in range(2))
    library(lambda: kb.add([WeightedClause(lits, 0.5, 1.0, "rule")]))
    out.append(library(lambda: kb_csv(kb)) or b"")
    for raw in out:
        for row in csv.reader(io.StringIO(raw.decode("utf-8"), newline="")):
            for cell in row:
                bare = cell.lstrip(" \u00a0")
                if bare[:1] in ("=", "+", "-", "@", "\t", "\r") and not _plain_number(bare):
                    raise Finding(f"live formula written to CSV: {cell[:len(cell) - len(bare) + 1]!r}…")
    return b"\n".join(out)


def _plain_number(text: str) -> bool:
    import re

    return re.fullmatch(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?", text) is not None


TARGETS = {"table": t_table, "upload": t_upload, "parquet": t_parquet, "cli": t_cli,
           "rules": t_rules,
           "model": t_model, "args": t_args, "store": t_store, "export": t_export}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60, help="time per target")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default=",".join(TARGETS))
    ap.add_argument("--out", default="/tmp/fuzz17")
    ap.add_argument("--case-seconds", type=int, default=30, help="one input's time limit")
    a = ap.parse_args()
    out = Path(a.out).resolve()  # before the chdir below
    out.mkdir(parents=True, exist_ok=True)
    import warnings

    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # relative hostile paths ("-", "x" * 5000) are written here, not in a checkout
        ctx = Ctx(Path(tmp))
        summary = []
        for name in a.only.split(","):
            target = TARGETS[name]
            rng = random.Random(f"{a.seed}:{name}")
            found: dict[str, int] = {}
            n, t0 = 0, time.monotonic()
            while time.monotonic() - t0 < a.seconds:
                case, ctx.last = b"", b""
                signal.alarm(a.case_seconds)
                try:
                    try:
                        case = target(rng, ctx)
                    finally:
                        signal.alarm(0)
                except (Finding, TooSlow) as f:
                    key = str(f) if isinstance(f, Finding) else f"slower than {a.case_seconds} s: " \
                        + where_in_plx(f)
                    if key not in found:
                        found[key] = 0
                        fn = out / f"{name}-{len([k for k in os.listdir(out) if k.startswith(name)])}.bin"
                        fn.write_bytes(case or ctx.last)
                        print(f"[{name}] NEW {key}  (case {fn})", flush=True)
                        if os.environ.get("FUZZ_TRACE"):
                            traceback.print_exception(f.__cause__ or f)
                    found[key] += 1
                except Exception as exc:  # the harness itself
                    key = f"harness {type(exc).__name__}: {exc}"[:200]
                    if key not in found:
                        found[key] = 0
                        print(f"[{name}] {key}", flush=True)
                        traceback.print_exc()
                    found[key] += 1
                finally:
                    n += 1
            summary.append((name, n, time.monotonic() - t0, found))
            print(f"[{name}] {n} inputs in {time.monotonic() - t0:.0f} s, "
                  f"{len(found)} distinct failure(s)", flush=True)
        print("\nsummary")
        for name, n, secs, found in summary:
            print(f"  {name:7s} {n:6d} inputs {secs:5.0f} s  {len(found)} distinct")
            for k, c in sorted(found.items(), key=lambda kv: -kv[1]):
                print(f"      ×{c:<5d} {k}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    main()
