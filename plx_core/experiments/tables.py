"""The experiments' outputs: CSV, markdown tables (ours beside the paper's) and figure files."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .sets import BASELINES, PAPER_TABLE2, PAPER_TABLE3, SETS


def _fmt(x: float, nd: int = 3) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


@dataclass
class Outputs:
    out: Path
    png: bool
    written: list[Path]
    notes: list[str]

    def csv(self, name: str, frame: pd.DataFrame) -> None:
        p = self.out / f"{name}.csv"
        frame.to_csv(p, index=False)
        self.written.append(p)

    def figure(self, name: str, fig: Any) -> None:
        html = self.out / f"{name}.html"
        fig.write_html(html, include_plotlyjs="cdn")
        self.written.append(html)
        if not self.png:
            self.notes.append(f"PNG of {name} not written (--no-png).")
            return
        try:
            fig.write_image(self.out / f"{name}.png", width=1100, height=600, scale=1)
            self.written.append(self.out / f"{name}.png")
        except Exception as exc:  # kaleido missing, no Chrome, … : keep the HTML
            self.notes.append(f"PNG of {name} failed ({type(exc).__name__}: {exc}); HTML only.")

    def markdown(self, name: str, text: str) -> None:
        p = self.out / f"{name}.md"
        if self.notes:
            text = text.rstrip() + "\n\n" + "\n".join(f"Note: {n}" for n in self.notes) + "\n"
        p.write_text(text, encoding="utf-8")
        self.written.append(p)


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby(["dataset", "label", "protocol", "method"], sort=False)
    out = g.agg(f1_mean=("f1", "mean"), f1_std=("f1", "std"), runs=("f1", "size"),
                accuracy_mean=("accuracy", "mean"), fit_s=("fit_s", "mean"),
                predict_s=("predict_s", "mean")).reset_index()
    out["f1_sem"] = out["f1_std"] / np.sqrt(out["runs"])
    return out


def f1_table_markdown(summary: pd.DataFrame, paper: dict[str, dict[str, float]],
                      set_keys: Sequence[str], methods: Sequence[str], protocol: str,
                      extra_paper_sets: dict[str, str] | None = None) -> str:
    """Rows = methods, columns = data sets; each cell `ours ± sd (paper)`."""
    sub = summary[summary["protocol"] == protocol]
    labels = {k: SETS[k].label for k in set_keys}
    extra = extra_paper_sets or {}
    head = ["method", *labels.values(), *extra.values()]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in methods:
        cells = [m]
        for k in set_keys:
            r = sub[(sub["dataset"] == k) & (sub["method"] == m)]
            ours = f"{r['f1_mean'].iloc[0]:.3f} ± {_fmt(r['f1_std'].iloc[0])}" if len(r) else "–"
            pv = paper.get(m, {}).get(k)
            cells.append(ours + (f" ({pv:.2f})" if pv is not None else ""))
        for k in extra:
            pv = paper.get(m, {}).get(k)
            cells.append(f"n/a ({pv:.2f})" if pv is not None else "n/a")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _gap_lines(summary: pd.DataFrame, protocols: Sequence[str]) -> str:
    """Per set and protocol: the best baseline and the gap of each of our methods to it."""
    lines = ["## Gap to the best baseline (same splits)\n",
             "| protocol | set | best baseline | " + " | ".join(["ours", "F1", "gap"]) + " |",
             "|---|---|---|---|---|---|"]
    for p in protocols:
        sub = summary[summary["protocol"] == p]
        for k in dict.fromkeys(sub["dataset"]):
            s = sub[sub["dataset"] == k]
            base = s[s["method"].isin(BASELINES)]
            if not len(base):
                continue
            b = base.loc[base["f1_mean"].idxmax()]
            for _, r in s[~s["method"].isin(BASELINES)].iterrows():
                lines.append(f"| {p} | {r['label']} | {b['method']} {b['f1_mean']:.3f} | "
                             f"{r['method']} | {r['f1_mean']:.3f} | "
                             f"{r['f1_mean'] - b['f1_mean']:+.3f} |")
    return "\n".join(lines) + "\n"


def variants_markdown(summary: pd.DataFrame, methods: Sequence[str], protocol: str,
                      default: str = "tuned") -> str:
    """Rows = data sets, columns = methods (mean F1), then the best baseline and the gap of
    `default` to it; the paper's Direct F1 in brackets where it has one."""
    paper = {**PAPER_TABLE2["Direct"], **PAPER_TABLE3["Direct"]}
    sub = summary[summary["protocol"] == protocol]
    head = ["set", *methods, "best baseline", f"{default} − best"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k in dict.fromkeys(sub["dataset"]):
        s = sub[sub["dataset"] == k]
        f = dict(zip(s["method"], s["f1_mean"]))
        cells = [SETS[k].label if k in SETS else k]
        for m in methods:
            v = f.get(m, math.nan)
            txt = _fmt(v)
            if m == "Direct" and k in paper:
                txt += f" ({paper[k]:.2f})"
            cells.append(txt)
        base = {m: f[m] for m in BASELINES if m in f}
        if base:
            bm = max(base, key=base.get)
            cells.append(f"{bm} {base[bm]:.3f}")
            cells.append(f"{f.get(default, math.nan) - base[bm]:+.3f}")
        else:
            cells += ["–", "–"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
