"""`plx` on the command line: fit a KB from a CSV, predict and explain rows, run experiments.

    plx fit data.csv --label L [--positive P] [--kb direct|tree|tree-all|forest]
        [--variant tuned|paper] [--max-len N] --out model.json
    plx predict model.json data.csv --out predictions.csv
    plx explain model.json data.csv [--k 2] --out explanations.csv
    plx experiments {table2,table3,table4,fig2,fig3,fig4,variants} --runs R --out DIR ...
    plx dashboard [--port 8501] [--address 127.0.0.1] [--browser]

The model file is plain JSON (never pickle): the schema that turns raw rows into features
(`plx_core.data.Schema.to_dict`), the learned KB (`KB.to_json`) and, for the tuned Direct
variant, the chosen clause-length window and prior clause (the KB that answers is the stored
Direct KB cut to that window plus the prior clause; explanations search the stored KB, as
`PLXClassifier.explain` does). Bad input ends with a message on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .errors import PLXError

MODEL_FORMAT = "plx-model"
MODEL_VERSION = 1
CLI_VARIANTS = ("tuned", "paper")


class CLIError(Exception):
    """A user error: printed as `error: …`, exit code 2."""


# --------------------------------------------------------------------------- model file


def _negative_label(schema: Any) -> str:
    others = [c for c in schema.classes if c != schema.positive]
    return others[0] if len(others) == 1 else f"not {schema.positive}"


def fit_model(csv: str | Path, label: str, positive: str | None = None, kb: str = "direct",
              variant: str = "tuned", max_len: int | None = None,
              random_state: int = 0) -> dict[str, Any]:
    """Fit on a CSV file and return the model document (a JSON-able dict)."""
    from .data import infer_schema, load_csv
    from .estimator import PLXClassifier

    frame = load_csv(_existing(csv))
    schema = infer_schema(frame, label, positive)
    if schema.positive is None:
        shown = list(schema.classes[:10])
        raise CLIError(
            f"the label {label!r} has {len(schema.classes)} classes {shown}; pass --positive to "
            "choose the class POS stands for (the other classes become its negation)"
        )
    X, y = schema.apply(frame)
    neg = _negative_label(schema)
    yb = np.where(y.to_numpy(dtype=object) == schema.positive, schema.positive, neg)
    if len(set(yb.tolist())) < 2:
        raise CLIError(f"every row has label {schema.positive!r}; plx needs both classes")
    clf = PLXClassifier(kb=kb, variant=variant, max_len=max_len, positive=schema.positive,
                        random_state=random_state).fit(X, yb)
    full = clf.paper_kbs_[0] if clf.paper_kbs_[0] is not None else clf.kb_
    cfg = clf.tuned_[0]
    answer = None
    if cfg is not None and not cfg.is_paper:
        answer = {"min_len": cfg.min_len, "max_len": cfg.max_len,
                  "prior_weight": cfg.prior_weight, "loo_f1": cfg.loo_f1,
                  "paper_loo_f1": cfg.paper_loo_f1}
    return {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "kb_kind": kb,
        "variant": clf.variant_,
        "positive": schema.positive,
        "negative": neg,
        "answer": answer,
        "schema": schema.to_dict(),
        "kb": json.loads(full.to_json()),
        "n_train": int(len(yb)),
    }


class Model:
    """A loaded model file: the schema, the KB that answers and the KB explanations search."""

    def __init__(self, doc: dict[str, Any], where: str = "model"):
        from .data import Schema
        from .kb import KB
        from .variants import windowed_kb

        if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
            raise CLIError(f"{where} is not a plx model file (no \"format\": \"{MODEL_FORMAT}\")")
        if doc.get("version") != MODEL_VERSION:
            raise CLIError(f"{where} has model version {doc.get('version')!r}; this plx reads "
                           f"version {MODEL_VERSION}")
        missing = [k for k in ("schema", "kb", "positive", "negative") if k not in doc]
        if missing:
            raise CLIError(f"{where} lacks the field(s) {missing}")
        self.doc = doc
        self.schema = Schema.from_dict(doc["schema"])
        self.kb_full = KB.from_json(json.dumps(doc["kb"]))
        a = doc.get("answer")
        self.kb = (windowed_kb(self.kb_full, int(a["min_len"]), int(a["max_len"]),
                               int(a["prior_weight"])) if a else self.kb_full)
        self.positive, self.negative = doc["positive"], doc["negative"]

    @classmethod
    def load(cls, path: str | Path) -> Model:
        p = _existing(path)
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CLIError(f"{str(p)!r} is not valid JSON ({exc})") from None
        return cls(doc, repr(str(p)))

    def rows(self, csv: str | Path) -> pd.DataFrame:
        from .data import load_csv

        frame = load_csv(_existing(csv))
        X, _ = self.schema.apply(frame)
        return X

    def predict(self, X: pd.DataFrame) -> pd.DataFrame:
        from .query import TIE_EPS, query_many

        b = query_many(self.kb, X)
        mean = b.mean
        return pd.DataFrame({
            "row": np.arange(1, len(X) + 1),
            "lower": b.lower, "upper": b.upper, "mean": mean,
            "decision": np.where(mean > 0.5 + TIE_EPS, self.positive, self.negative),
            "tie": np.abs(mean - 0.5) <= TIE_EPS,
            "method": b.method,
        })


def _existing(path: str | Path) -> Path:
    p = Path(path)
    if not p.is_file():
        raise CLIError(f"file {str(p)!r} not found")
    return p


def _write_csv(frame: pd.DataFrame, out: str | Path) -> None:
    p = Path(out)
    if p.parent and not p.parent.is_dir():
        raise CLIError(f"output folder {str(p.parent)!r} does not exist")
    frame.to_csv(p, index=False)


# --------------------------------------------------------------------------- commands


def cmd_fit(a: argparse.Namespace) -> None:
    doc = fit_model(a.data, a.label, a.positive, a.kb, a.variant, a.max_len, a.random_state)
    out = Path(a.out)
    if out.parent and not out.parent.is_dir():
        raise CLIError(f"output folder {str(out.parent)!r} does not exist")
    out.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    how = ("paper configuration" if not doc["answer"] else
           "clause lengths {min_len}..{max_len}, prior weight {prior_weight}".format(
               **doc["answer"]))
    print(f"wrote {out}: {doc['kb_kind']} KB of {len(doc['kb']['clauses']) if 'clauses' in doc['kb'] else '?'} "
          f"clauses, variant {doc['variant']} ({how}), POS = {doc['positive']!r}")


def cmd_predict(a: argparse.Namespace) -> None:
    model = Model.load(a.model)
    X = model.rows(a.data)
    pred = model.predict(X)
    _write_csv(pred, a.out)
    print(f"wrote {a.out}: {len(pred)} rows, {int((pred['decision'] == model.positive).sum())} "
          f"positive, {int(pred['tie'].sum())} ties at 0.5 (reported negative)")


def cmd_explain(a: argparse.Namespace) -> None:
    from .explain import explain

    if a.k < 1:
        raise CLIError(f"--k must be at least 1, got {a.k}")
    model = Model.load(a.model)
    X = model.rows(a.data)
    pred = model.predict(X)
    rows = []
    for i, (_, r) in enumerate(X.iterrows()):
        q = {f: v for f, v in r.items() if isinstance(v, str)}
        k = min(a.k, len(q))
        base = {"row": i + 1, "decision": pred["decision"].iloc[i], "lower": pred["lower"].iloc[i],
                "upper": pred["upper"].iloc[i], "k": k}
        if k == 0:
            rows.append({**base, "features": "", "sub_lower": np.nan, "sub_upper": np.nan,
                         "search": "", "note": "the row knows no feature"})
            continue
        side = "positive" if pred["decision"].iloc[i] == model.positive else "negative"
        e = explain(model.kb_full, q, k=k, direction=side)
        rows.append({**base,
                     "features": "; ".join(f"{f}={v}" for f, v in e.features.items()),
                     "sub_lower": e.bounds[0], "sub_upper": e.bounds[1], "search": e.search,
                     "note": "" if k == a.k else f"only {k} known feature(s)"})
    _write_csv(pd.DataFrame(rows), a.out)
    print(f"wrote {a.out}: {len(rows)} explanations (k={a.k})")


def cmd_dashboard(a: argparse.Namespace) -> None:
    """Start the dashboard that ships in the package (`plx_app`), from any folder."""
    from plx_app.launch import run

    code = run(port=a.port, address=a.address, browser=a.browser)
    if code:
        raise CLIError(f"the dashboard stopped with exit status {code}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="plx", description="Explainable classification by "
                                "probabilistic logic inference.")
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="learn a KB from a CSV and save the model (JSON)")
    f.add_argument("data", help="CSV with a header row")
    f.add_argument("--label", required=True, help="the label column")
    f.add_argument("--positive", help="the class POS stands for (needed for more than two)")
    f.add_argument("--kb", choices=("direct", "tree", "tree-all", "forest"), default="direct")
    f.add_argument("--variant", choices=CLI_VARIANTS, default="tuned",
                   help="tuned (default; clause window + prior by leave-one-out) or paper")
    f.add_argument("--max-len", type=int, default=None, help="cap on Direct clause length")
    f.add_argument("--random-state", type=int, default=0)
    f.add_argument("--out", required=True, help="model file to write (JSON)")
    f.set_defaults(func=cmd_fit)
    pr = sub.add_parser("predict", help="ω(POS) bounds and decisions for the rows of a CSV")
    pr.add_argument("model")
    pr.add_argument("data")
    pr.add_argument("--out", required=True, help="CSV to write")
    pr.set_defaults(func=cmd_predict)
    ex = sub.add_parser("explain", help="the k features that decide each row (Algorithm 6)")
    ex.add_argument("model")
    ex.add_argument("data")
    ex.add_argument("--k", type=int, default=2)
    ex.add_argument("--out", required=True, help="CSV to write")
    ex.set_defaults(func=cmd_explain)
    sub.add_parser("experiments", help="section 6 of the paper (see plx experiments -h)",
                   add_help=False)
    d = sub.add_parser("dashboard", help="start the dashboard (a Streamlit web app) from any folder")
    d.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    d.add_argument("--address", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    d.add_argument("--browser", action="store_true", help="open a browser tab when it is ready")
    d.set_defaults(func=cmd_dashboard)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "experiments":
        from .experiments.command import main as experiments_main

        return experiments_main(argv[1:], prog="plx experiments")
    args = build_parser().parse_args(argv)
    if getattr(args, "max_len", None) is not None and args.max_len < 1:
        print("error: --max-len must be a positive integer", file=sys.stderr)
        return 2
    try:
        args.func(args)
    except (CLIError, PLXError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
