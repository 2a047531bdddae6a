"""The experiments' figures: pure functions from summary tables to plotly figures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from .sets import KS
from .tables import _fmt  # noqa: F401


def f1_figure(summary: pd.DataFrame, title: str, methods: Sequence[str]) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    protocols = list(dict.fromkeys(summary["protocol"]))
    fig = make_subplots(rows=len(protocols), cols=1, shared_xaxes=True,
                        subplot_titles=[f"balance={p}" for p in protocols])
    palette = ["#c0392b", "#e67e22", "#8e44ad", "#7f8c8d", "#2c7fb8", "#27ae60", "#16a085",
               "#34495e", "#d35400", "#2980b9", "#f1c40f", "#95a5a6", "#1abc9c"]
    for i, p in enumerate(protocols, start=1):
        sub = summary[summary["protocol"] == p]
        for j, m in enumerate(methods):
            r = sub[sub["method"] == m]
            if not len(r):
                continue
            fig.add_trace(go.Bar(
                name=m, x=r["label"], y=r["f1_mean"], legendgroup=m, showlegend=i == 1,
                marker_color=palette[j % len(palette)],
                error_y=dict(type="data", array=r["f1_std"].fillna(0).to_numpy()),
            ), row=i, col=1)
    fig.update_layout(title=title, barmode="group", height=350 * len(protocols) + 100,
                      yaxis_title="F1")
    for i in range(1, len(protocols) + 1):
        fig.update_yaxes(range=[0, 1.02], row=i, col=1)
    return fig


def _table4_figure(summary: pd.DataFrame) -> Any:
    import plotly.graph_objects as go

    fig = go.Figure()
    for (label, m), s in summary.groupby(["label", "method"], sort=False):
        fig.add_trace(go.Scatter(x=s["k"], y=s["accuracy"], mode="lines+markers",
                                 name=f"{label} {m}", line_dash="solid" if m == "Direct"
                                 else "dash"))
    fig.update_layout(title="Table 4: explanation accuracy vs k", xaxis_title="k",
                      yaxis_title="accuracy", yaxis_range=[0.5, 1.01])
    return fig


def _fig2_figure(summary: pd.DataFrame, chosen: pd.DataFrame) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    sets = list(dict.fromkeys(summary["label"]))
    fig = make_subplots(rows=2, cols=len(sets), subplot_titles=[
        *(f"{s}: rows with ≥ j common features" for s in sets),
        *(f"{s}: share of rows choosing each feature (k = 1)" for s in sets)])
    for c, s in enumerate(sets, start=1):
        sub = summary[(summary["label"] == s) & (summary["j"] >= 1)]
        for j in KS:
            r = sub[sub["j"] == j]
            fig.add_trace(go.Bar(x=[f"k={k}" for k in r["k"]], y=r["at_least"],
                                 name=f"≥{j} common", legendgroup=f"j{j}",
                                 showlegend=c == 1), row=1, col=c)
        ch = chosen[(chosen["label"] == s) & (chosen["k"] == 1)]
        fig.add_trace(go.Bar(x=ch["feature"], y=ch["ours"], name="ours (k=1)",
                             marker_color="#c0392b", showlegend=c == 1), row=2, col=c)
        fig.add_trace(go.Bar(x=ch["feature"], y=ch["shap"], name="SHAP (k=1)",
                             marker_color="#2c7fb8", showlegend=c == 1), row=2, col=c)
    fig.update_layout(title="Fig. 2: our explanations vs SHAP", barmode="group", height=800)
    return fig


def _fig3_figure(summary: pd.DataFrame, label: str) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=["true clauses added",
                                                        "random clauses added"])
    for kind in ("seed", "match-set", "random"):
        c = 2 if kind == "random" else 1
        s = summary[summary["clauses"] == kind]
        fig.add_trace(go.Scatter(x=s["added"], y=s["f1_mean"], mode="lines+markers",
                                 name=kind, error_y=dict(type="data",
                                                         array=s["f1_std"].fillna(0))),
                      row=1, col=c)
        fig.update_xaxes(title_text="clauses added", type="log" if len(s) > 6 else "linear",
                         row=1, col=c)
    fig.update_yaxes(title_text="F1", range=[0, 1.02])
    fig.update_layout(title=f"Fig. 3: knowledge incorporation on {label} (Tree KB)")
    return fig


def _fig4_figure(summary: pd.DataFrame) -> Any:
    import plotly.graph_objects as go

    fig = go.Figure()
    for nl, s in summary.groupby("literals", sort=False):
        fig.add_trace(go.Scatter(x=s["clauses_asked"], y=s["seconds_mean"],
                                 mode="lines+markers", name=f"{nl} literals"))
    fig.update_layout(title="Fig. 4: LP query time against KB size", xaxis_type="log",
                      xaxis_title="clauses", yaxis_title="seconds per query")
    return fig
