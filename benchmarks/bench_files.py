"""Model-file benchmarks (issue 10, point 5): `python3 benchmarks/bench_files.py [--quick]`.

A model of about 10^6 clauses (the Direct KB of Syn 10/4: 3,000 rows, 10 features of 4
values, every feature-value set of a row) is saved and loaded through `plx_core.modelfile`:

(a) npz (the binary format) save + load — target ≤ 5 s; baseline: `np.save` + `np.load` of
    the same seven arrays in the same process (the floor any format pays for the bytes).
(b) Parquet through pyarrow (the alternative considered) on the same columns, same process.
(c) JSON (the readable format) save + load: linear, measured once per repeat.

Medians over repeats, run interleaved so machine load hits every variant alike; file sizes too.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from timing import fmt, interleaved, write_section

from plx_core import direct_kb
from plx_core.binformat import read_npz, write_npz
from plx_core.data import infer_schema
from plx_core.modelfile import ModelFile, load_model, save_model

COLUMNS = ("codes", "head", "p", "w", "support", "positives", "source")


def syn_model(rows: int, features: int, values: int, seed: int = 0) -> ModelFile:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({f"a{i}": rng.integers(0, values, rows).astype(str)
                          for i in range(features)})
    seedrow = rng.integers(0, values, features).astype(str)
    frame["label"] = np.where((frame.to_numpy() == seedrow).sum(axis=1) >= features // 2,
                              "pos", "neg")
    schema = infer_schema(frame, "label", "pos")
    X, y = schema.apply(frame)
    kb = direct_kb(X, y, positive="pos")
    return ModelFile(schema, kb, "pos", "neg", None, {"kb_kind": "direct", "variant": "paper",
                                                     "n_train": rows})


def npy_roundtrip(kb, folder: Path) -> None:
    for name in COLUMNS:
        np.save(folder / f"{name}.npy", getattr(kb, name))
    for name in COLUMNS:
        np.load(folder / f"{name}.npy")


def parquet_roundtrip(kb, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = {f: kb.codes[:, j].astype(np.int8) for j, f in enumerate(kb.features)}
    cols.update({n: getattr(kb, n) for n in COLUMNS[1:]})
    pq.write_table(pa.table(cols), path)
    t = pq.read_table(path)
    np.stack([t.column(f).to_numpy() for f in kb.features], axis=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller KB, fewer repeats")
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    a = ap.parse_args(argv)
    rows, repeat = (600, 3) if a.quick else (3000, a.repeat or 5)
    model = syn_model(rows, 10, 4)
    kb = model.kb
    n = len(kb)
    print(f"KB: {n:,} clauses over {len(kb.features)} features", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        npz, js, pq_path = d / "m.npz", d / "m.json", d / "m.parquet"

        def npz_roundtrip():
            save_model(model, npz)
            return load_model(npz)

        def json_roundtrip():
            save_model(model, js)
            return load_model(js)

        back = npz_roundtrip()
        assert back.kb == kb and back.schema.to_dict() == model.schema.to_dict()
        zpath = d / "z.npz"

        def zipped_roundtrip():
            write_npz(kb, zpath, meta={"model": model.header()}, compress=True)
            return read_npz(zpath)

        t = interleaved({"npz": npz_roundtrip, "npy": lambda: npy_roundtrip(kb, d),
                         "parquet": lambda: parquet_roundtrip(kb, pq_path),
                         "zipped": zipped_roundtrip}, repeat)
        tj = interleaved({"json": json_roundtrip}, 1)
        assert load_model(js).kb == kb
        size = {k: p.stat().st_size for k, p in (("npz", npz), ("json", js), ("parquet", pq_path),
                                                 ("zipped", zpath))}
        npy_bytes = sum((d / f"{c}.npy").stat().st_size for c in COLUMNS)
        sv = interleaved({"save": lambda: save_model(model, npz),
                          "load": lambda: load_model(npz)}, repeat)
    mb = lambda b: f"{b / 2**20:.1f} MB"  # noqa: E731
    lines = [
        "## Model files: save + load of a 10^6-clause model (issue 10.5)",
        "",
        f"Command: `python3 benchmarks/bench_files.py{' --quick' if a.quick else ''}` — Direct KB of "
        f"Syn 10/4 ({rows:,} rows; {n:,} clauses), medians of {repeat} interleaved repeats "
        "(JSON: one run), on the shared 2-core machine under the other helpers' test load.",
        "",
        "| format | save + load | ratio to np.save + np.load | file size |",
        "|---|---|---|---|",
        f"| npz (plx binary, `.npz`) | {fmt(t['npz'])} (save {fmt(sv['save'])}, load "
        f"{fmt(sv['load'])}) | {t['npz'] / t['npy']:.2f}× | {mb(size['npz'])} |",
        f"| np.save / np.load of the 7 arrays (baseline) | {fmt(t['npy'])} | 1.00× | {mb(npy_bytes)} |",
        f"| npz, zip-deflated (`write_npz(compress=True)`) | {fmt(t['zipped'])} | "
        f"{t['zipped'] / t['npy']:.2f}× | {mb(size['zipped'])} |",
        f"| Parquet via pyarrow (considered) | {fmt(t['parquet'])} | {t['parquet'] / t['npy']:.2f}× "
        f"| {mb(size['parquet'])} |",
        f"| JSON (readable, `.json`) | {fmt(tj['json'])} | {tj['json'] / t['npy']:.1f}× | "
        f"{mb(size['json'])} |",
        "",
        "The npz model loads with its checks (dtypes, shapes, code ranges, p and w) and the schema; Parquet "
        "would need pyarrow as a core dependency for no gain in time, so plx writes npz "
        "(`plx fit --out model.npz`, or any name but `.json` once a KB reaches "
        "100,000 clauses).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not a.no_write and not a.quick:
        write_section(lines[0], text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
