"""Figures for the dashboard: pure functions from plx values to plotly figures.

Nothing here touches Streamlit, so every figure can be checked in a test by reading its data
(bar heights, colours, customdata) without a browser.

Plotly renders a small subset of HTML inside text, tick labels and hover labels (`<b>`,
`<a href>`, `<br>`, …). Feature names and values come from user files, so every user string
goes through `esc` (`html.escape`) before it reaches a figure; plotly decodes the entities, so
the text still reads as typed.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .wording import PRIOR_ALONE, class_names, counted, support_axis, support_for

POS_COLOUR = "#c0392b"  # evidence for POS / positive decisions
NEG_COLOUR = "#2c7fb8"  # evidence against POS / negative decisions
TIE_COLOUR = "#7f7f7f"
MUTED = "#b8c4ce"
HIGHLIGHT = "#e67e22"
FONT = dict(family="sans-serif", size=13)


def esc(text: Any) -> str:
    """A user string made safe for plotly's HTML-like text (and for nothing else)."""
    return html.escape(str(text), quote=False)  # plotly decodes &lt; &gt; &amp;, not &quot;


def shorten(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


SHAPLEY_LABEL = 27  # characters of a Shapley bar's feature=value: with its ": +0.123" it fits
# a third of a 1024-px page (the Explain page's chart beside the explanation, or half of the
# side-by-side view); the whole label is in the hover


def pair_label(feature: Any, value: Any = None, n: int = SHAPLEY_LABEL) -> str:
    """`feature=value` (or the feature alone) in at most `n` characters, unescaped: the value
    is kept whole and the feature's name shortened with "…" where it fits, else the end cut."""
    f = str(feature)
    if value is None:
        return shorten(f, n)
    v = str(value)
    whole = f"{f}={v}"
    if len(whole) <= n:
        return whole
    room = n - len(v) - 1
    if room >= 6:  # a recognisable start of the name, then the whole value
        return f"{shorten(f, room)}={v}"
    return shorten(whole, n)


def wrap(text: str, width: int = 60, sep: str = "<br>") -> str:
    """`text` broken into lines of at most ~`width` characters (at spaces, never inside a word
    unless it alone is longer), joined by plotly's line break: long labels stay whole in narrow
    charts instead of running past the edge."""
    words, lines, cur = str(text).split(" "), [], ""
    for w in words:
        while len(w) > width:
            if cur:
                lines.append(cur)
                cur = ""
            lines.append(w[:width])
            w = w[width:]
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return sep.join(lines)


def _layout(fig: go.Figure, title: str | None = None, height: int | None = None,
            shapes: Sequence[dict] = (), annotations: Sequence[dict] = (), **more: Any) -> go.Figure:
    """Title, size, style, shapes and annotations in one layout update (each `add_vline` or
    `add_annotation` call would validate the whole layout again: 5-10 ms apiece)."""
    lines = title.count("<br>") + 1 if title else 0  # a wrapped title clears the first label
    more.setdefault("margin", dict(l=10, r=10, t=22 + 18 * lines if title else 10, b=10))
    fig.update_layout(
        title=None if title is None else dict(text=title, x=0, xanchor="left"),
        font=FONT,
        plot_bgcolor="white", height=height, showlegend=False,
        shapes=list(shapes), annotations=list(annotations), **more,
    )
    return fig


def _vline(x: float, **line: Any) -> dict:
    """A vertical line across the plot at data x (what `add_vline` makes)."""
    return dict(type="line", xref="x", yref="paper", x0=x, x1=x, y0=0, y1=1, line=line)


LABEL_WIDTH = 56  # characters per label line: fits half of a 1280-px page at 11 px
HALF_LABEL_WIDTH = 40  # … and half of a 1024-px page (56 ran past the side-by-side charts)


def _labels_above(labels: Sequence[str]) -> list[dict]:
    """Each bar's label just above it (left-aligned) instead of as a tick label, so long
    sub-query texts keep the full width of narrow side-by-side columns. Bars sit at y = 0…n−1;
    pair with `yaxis=_label_axis(n)` and `_row_height(labels)`. Labels should be wrapped
    (`wrap`) so that none runs past the right edge."""
    return [dict(x=0, xref="paper", y=i + 0.25, yref="y", text=lab, showarrow=False,
                 xanchor="left", yanchor="bottom", align="left", font=dict(size=11, color="#222"),
                 bgcolor="rgba(255,255,255,0.85)", borderpad=0) for i, lab in enumerate(labels)]


def _row_height(labels: Sequence[str]) -> int:
    """Pixels per bar so that the tallest (wrapped) label fits between its bar and the next."""
    lines = max((lab.count("<br>") + 1 for lab in labels), default=1)
    return max(46, int(np.ceil((14 * lines + 6) / 0.54)))


def _label_axis(n: int) -> dict:
    return dict(showticklabels=False, range=[-0.6, n - 0.2], fixedrange=True)


# --------------------------------------------------------------------------- query answers


def decision_word(lower: float, upper: float, tie_eps: float = 1e-9, threshold: float = 0.5) -> str:
    mean = (lower + upper) / 2.0
    if abs(mean - threshold) <= tie_eps:
        return "tie"
    return "POS" if mean > threshold else "NOT POS"


def bounds_interval(bounds: Any, title: str | None = None, label: str = "support",
                    positive: Any = None, threshold: float = 0.5) -> go.Figure:
    """The ω(POS) interval [lower, upper] on [0, 1] with the decision threshold (the paper's
    0.5 unless given) and the mean; with `positive` (what POS stands for) the title and axis
    name the class (`→ malignant`).

    Trace 0 is the interval (x = [lower, upper]); trace 1 the mean marker. A point interval is
    drawn as a short bar so it stays visible.
    """
    lo, hi = float(bounds.lower), float(bounds.upper)
    mean = (lo + hi) / 2.0
    word = decision_word(lo, hi, threshold=threshold)
    colour = {"POS": POS_COLOUR, "NOT POS": NEG_COLOUR, "tie": TIE_COLOUR}[word]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[lo, hi], y=[label, label], mode="lines+markers", name="interval",
        line=dict(color=colour, width=14), marker=dict(size=16, color=colour, symbol="line-ns-open"),
        hovertemplate="bound %{x:.4f}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=[mean], y=[label], mode="markers", name="mean",
        marker=dict(size=14, color="white", line=dict(color="black", width=2), symbol="diamond"),
        hovertemplate="mean %{x:.4f}<extra></extra>",
    ))
    pos, neg = (esc(n) for n in class_names("POS" if positive is None else positive))
    said = {"POS": pos, "NOT POS": neg, "tie": f"tie (reported {neg})"}[word]
    text = title if title is not None else (f"{support_for(pos, start=True)}: {lo:.3f} to {hi:.3f} "
                                            f"→ {said}")
    notes = [
        dict(x=threshold, xref="x", y=1, yref="paper", yanchor="bottom", showarrow=False,
             text=f"dashed line: threshold {threshold:g}", font=dict(size=11, color="#333")),
        dict(x=mean, xref="x", y=label, yref="y", yshift=-14, yanchor="top", showarrow=False,
             xanchor="left" if mean < 0.8 else "right",
             text=f"◇ middle {mean:.3f} (decides)", font=dict(size=11, color="#333")),
    ]
    return _layout(fig, text, height=190, shapes=[_vline(threshold, color="black", dash="dash", width=1)],
                   annotations=notes, margin=dict(l=10, r=10, t=58 if text else 24, b=10),
                   xaxis=dict(range=[-0.02, 1.02], title=support_axis(pos),
                              gridcolor="#eee", zeroline=False),
                   yaxis=dict(fixedrange=True))


def bounds_compare(rows: Sequence[tuple[str, Any]], title: str | None = None,
                   positive: Any = None, threshold: float = 0.5) -> go.Figure:
    """Several intervals one above the other (label, bounds): e.g. before/after a rule; with
    `positive` (what POS stands for) the axis names the class; coloured by the decision at
    `threshold`, the dashed line drawn there (the model's own, never 0.5 for every model)."""
    fig = go.Figure()
    for label, b in rows:
        lo, hi = float(b.lower), float(b.upper)
        word = decision_word(lo, hi, threshold=threshold)
        colour = {"POS": POS_COLOUR, "NOT POS": NEG_COLOUR, "tie": TIE_COLOUR}[word]
        name = esc(label)
        fig.add_trace(go.Scatter(
            x=[lo, hi], y=[name, name], mode="lines+markers", name=name,
            line=dict(color=colour, width=12), marker=dict(size=14, color=colour),
            hovertemplate=f"{name}: %{{x:.4f}}<extra></extra>",
        ))
    return _layout(fig, title, height=110 + 40 * len(rows),
                   shapes=[_vline(threshold, color="black", dash="dash", width=1)],
                   xaxis=dict(range=[-0.02, 1.02], gridcolor="#eee",
                              title=esc(support_for("POS" if positive is None else positive))))


def evidence_bars(evidence: pd.DataFrame, omega: float | None = None, top: int = 15,
                  title: str | None = "Evidence: where each rule pulls the support",
                  positive: Any = None) -> go.Figure:
    """The strongest relevant clauses (weight × distance of their target from 0.5), each a bar
    from 0.5 to the ω(POS) it pulls towards (`target`, or `p` where there is none):
    `base + x = target`. Red pulls towards POS, blue away; the orange line is ω(POS). With
    `positive` (what POS stands for) the axis and the line name the class."""
    pos = esc(class_names("POS" if positive is None else positive)[0])
    ev = evidence.copy()
    if "target" not in ev:
        ev["target"] = np.nan
    ev["target"] = ev["target"].astype(float).fillna(ev["p"].astype(float))
    ev["strength"] = ev["w"] * (ev["target"] - 0.5).abs()
    ev = ev.sort_values(["strength", "w"], ascending=False, kind="stable").head(top)
    ev = ev.iloc[::-1]  # plotly draws the first row at the bottom
    n = len(ev)
    target = ev["target"].to_numpy(dtype=float)
    text = ev["rule"] if "rule" in ev else ev["clause"]
    labels = [wrap(f"#{c} {esc(shorten(str(t), 300))} (w={w:.3g})", LABEL_WIDTH)
              for c, t, w in zip(ev["clause_id"], text, ev["w"])]
    colours = [POS_COLOUR if t > 0.5 else NEG_COLOUR if t < 0.5 else TIE_COLOUR for t in target]
    fig = go.Figure(go.Bar(
        x=target - 0.5, base=np.full(n, 0.5), y=list(range(n)), orientation="h", width=0.42,
        marker=dict(color=colours), hovertext=labels,
        customdata=np.stack([target, ev["w"].to_numpy(dtype=float), ev["p"].to_numpy(dtype=float)],
                            axis=1) if n else None,
        hovertemplate="%{hovertext}<br>pulls to %{customdata[0]:.3f} · w %{customdata[1]:.3g} · "
                      "p %{customdata[2]:.3f}<extra></extra>",
    ))
    shapes = [_vline(0.5, color="black", dash="dash", width=1)]
    notes = _labels_above(labels)
    if omega is not None:
        shapes.append(_vline(float(omega), color=HIGHLIGHT, width=2))
        notes.append(dict(x=float(omega), xref="x", y=1, yref="paper", yanchor="bottom",
                          xanchor="right" if omega > 0.6 else "left", showarrow=False,
                          text=f"orange line: the answer, support {float(omega):.3f}",
                          font=dict(size=11, color=HIGHLIGHT)))
    row = _row_height(labels)
    return _layout(fig, title, height=110 + row * max(n, 1), shapes=shapes,
                   annotations=notes, yaxis=_label_axis(n),
                   margin=dict(l=10, r=10, t=60 if title else 26, b=10),
                   xaxis=dict(range=[0, 1], title=f"{support_for(pos)} the rule pulls towards (red: "
                                                   f"towards {pos}, blue: away; dashed: 0.5)",
                              gridcolor="#eee", zeroline=False))


# --------------------------------------------------------------------------- explanations


def subquery_label(values: Mapping[str, Any] | Sequence[tuple[str, Any]]) -> str:
    """`a=v ∧ b=w` for a sub-query (escaped for plotly)."""
    items = values.items() if isinstance(values, Mapping) else values
    parts = [f"{esc(f)}={esc(v)}" for f, v in items]
    return " ∧ ".join(parts) if parts else "(nothing known)"


def _candidates_frame(explanation: Any) -> tuple[pd.DataFrame, int | None]:
    """(candidates with columns label, lower, upper, mean; position of the chosen one)."""
    cands = explanation.candidates if hasattr(explanation, "candidates") else explanation
    frame = pd.DataFrame(cands).copy() if not isinstance(cands, pd.DataFrame) else cands.copy()
    if "mean" not in frame:
        frame["mean"] = (frame["lower"] + frame["upper"]) / 2.0
    if "label" not in frame:
        if "values" in frame and "features" in frame:  # plx_core.explain.Candidate rows
            frame["label"] = [subquery_label(list(zip(f, v)))
                              for f, v in zip(frame["features"], frame["values"])]
        elif "values" in frame:
            frame["label"] = [subquery_label(v) for v in frame["values"]]
        else:
            frame["label"] = [" ∧ ".join(esc(x) for x in f) for f in frame["features"]]
    chosen = None
    if "chosen" in frame:
        hits = np.flatnonzero(frame["chosen"].to_numpy(dtype=bool))
        chosen = int(hits[0]) if len(hits) else None
    elif hasattr(explanation, "features"):
        want = tuple(explanation.features)
        for i, f in enumerate(frame.get("features", [])):
            if tuple(f) == want:
                chosen = i
                break
    return frame.reset_index(drop=True), chosen


def explanation_bars(explanation: Any, top: int = 10, title: str | None = None,
                     label_width: int = LABEL_WIDTH) -> go.Figure:
    """The top sub-queries' ω(POS) in the order of the explanation's ranking, the chosen
    explanation in the highlight colour; each label wrapped at `label_width` characters
    (`HALF_LABEL_WIDTH` for charts side by side).

    Each bar runs from the model's decision threshold (the explanation's `.threshold`, 0.5
    without one) to the sub-query's mean ω(POS) (`base` + `x` = mean), so a sub-query that
    argues for POS points right and one against points left — at the threshold the words
    beside the chart judge by (a line at 0.5 under a model deciding at 0.65 showed 0.6 as
    POS); the whiskers span [lower, upper]. `explanation` has `.candidates` (a frame with
    label/values/features, lower, upper and optionally chosen) and `.features`; a bare
    candidates frame works too.
    """
    cut = float(getattr(explanation, "threshold", 0.5))
    frame, chosen = _candidates_frame(explanation)
    keep = list(range(min(top, len(frame))))
    if chosen is not None and keep and chosen not in keep:
        keep[-1] = chosen  # the chosen explanation is always on the chart
    sub = frame.iloc[keep]
    colours = [HIGHLIGHT if i == chosen else MUTED for i in keep]
    sub, colours = sub.iloc[::-1], colours[::-1]  # plotly draws the first row at the bottom
    mean = sub["mean"].to_numpy(dtype=float)
    lo, hi = sub["lower"].to_numpy(dtype=float), sub["upper"].to_numpy(dtype=float)
    n = len(sub)
    fig = go.Figure(go.Bar(
        x=mean - cut, base=np.full(n, cut), y=list(range(n)), orientation="h", width=0.42,
        marker=dict(color=colours, line=dict(color="#555", width=0.5)),
        error_x=dict(type="data", symmetric=False, array=hi - mean, arrayminus=mean - lo,
                     color="#555", thickness=1.2, width=4),
        customdata=np.stack([lo, hi, mean], axis=1) if n else None,
        hovertext=list(sub["label"]),
        hovertemplate="%{hovertext}<br>support %{customdata[0]:.3f} to %{customdata[1]:.3f}"
                      "<extra></extra>",
    ))
    prior = (sub["by_prior"].to_numpy(dtype=bool) if "by_prior" in sub
             else np.zeros(n, dtype=bool))  # answered by the prior clause alone: ranked after
    labels = [wrap(f"{lab}: {m:.3f}" + (f" ({PRIOR_ALONE})" if pr else ""), label_width)
              for lab, m, pr in zip(sub["label"], mean, prior)]
    return _layout(fig, title, height=90 + _row_height(labels) * max(n, 1),
                   shapes=[_vline(cut, color="black", dash="dash", width=1)],
                   annotations=_labels_above(labels),
                   yaxis=_label_axis(n),
                   xaxis=dict(range=[0, 1], title="support when only these values are known", gridcolor="#eee",
                              zeroline=False))


REST = "\x00rest"  # index of the summed bar (no column can be named so: NUL is refused)


def top_with_rest(values: Mapping[str, float] | pd.Series, top: int | None,
                  order: Sequence[str] | None = None) -> tuple[pd.Series, int]:
    """The `top` features by |value| (in `order` if given), and the rest summed into one
    entry `REST`: (series, how many were summed). Sums are kept, so the bars still add up."""
    s = pd.Series(values, dtype=float)
    ranked = s.abs().sort_values(ascending=False, kind="stable").index
    if top is None or len(s) <= top:
        keep = list(ranked) if order is None else [f for f in order if f in s.index]
        return s.reindex(keep), 0
    chosen = set(ranked[:top])
    keep = [f for f in (ranked if order is None else order) if f in chosen]
    rest = s.drop(index=list(chosen))
    out = pd.concat([s.reindex(keep), pd.Series({REST: float(rest.sum())})])
    return out, len(rest)


def shapley_bars(values: Mapping[str, float] | pd.Series, title: str | None = None,
                 xlabel: str = "change in support", instance: Mapping[str, Any] | None = None,
                 order: Sequence[str] | None = None, top: int | None = None,
                 label_chars: int = SHAPLEY_LABEL) -> go.Figure:
    """One bar per feature (x = its value), largest |value| on top; red raises ω(POS), blue
    lowers it. With `instance`, a bar is labelled `feature=value`, in at most `label_chars`
    characters (`pair_label`; whole on hover over the label or the bar), so the chart keeps
    its width. `order` fixes the feature order (for side-by-side charts). With `top`, only the
    `top` largest |values| get a bar and the others are summed into one bar at the bottom
    ("the other 24 features")."""
    s, n_rest = top_with_rest(values, top, order)
    s = s.iloc[::-1]
    whole, short = [], []
    for f in s.index:
        value = instance.get(f) if instance is not None and f != REST else None
        full = f"the other {n_rest} features (summed)" if f == REST else (
            f"{f}={value}" if value is not None else str(f))
        whole.append(wrap(esc(full), LABEL_WIDTH))  # the hover box breaks a long label
        short.append(esc(full if f == REST else pair_label(f, value, label_chars)))
    colours = [MUTED if f == REST else POS_COLOUR if v > 0 else NEG_COLOUR if v < 0 else TIE_COLOUR
               for f, v in zip(s.index, s.to_numpy())]
    n = len(s)
    fig = go.Figure(go.Bar(
        x=s.to_numpy(dtype=float), y=list(range(n)), orientation="h", width=0.42,
        marker=dict(color=colours), hovertext=whole,
        hovertemplate="%{hovertext}: %{x:.4f}<extra></extra>",
    ))
    span = float(s.abs().max()) if n else 1.0
    span = span if span > 0 else 1.0
    texts = [f"{lab}: {v:+.3f}" for lab, v in zip(short, s.to_numpy())]
    notes = _labels_above(texts)
    for note, full, v in zip(notes, whole, s.to_numpy()):
        note["hovertext"] = f"{full}: {v:+.4f}"  # the shortened label, whole on hover
    return _layout(fig, title, height=90 + _row_height(texts) * max(n, 1),
                   shapes=[_vline(0, color="black", width=1)],
                   annotations=notes,
                   yaxis=_label_axis(n), dragmode=False,
                   xaxis=dict(title=xlabel, gridcolor="#eee", zeroline=False, fixedrange=True,
                              range=[-1.08 * span, 1.08 * span]))


def global_features(features: pd.DataFrame, top: int | None = 15,
                    title: str | None = "Which features drive decisions",
                    positive: Any = None) -> go.Figure:
    """The global view's features (`GlobalView.features`): one bar per feature of its mean
    |Shapley value of ω(POS)|, labelled with how often it is part of the rows' explanations
    (and for which decision, named for `positive` if given). Largest on top; beyond `top`
    features the rest share one muted bar ("the other 15 features", their sum)."""
    f = features.sort_values("mean_abs_shapley", ascending=False, kind="stable")
    pos, neg = (esc(n) for n in class_names("POS" if positive is None else positive))
    labels = [f"{esc(name)}: mean |Shapley| {v:.3f}; in {counted(int(k), 'explanation')} "
              f"({int(p_)} {pos}, {int(q)} {neg})"
              for name, v, k, p_, q in zip(f["feature"], f["mean_abs_shapley"], f["in_explanation"],
                                          f["for_pos"], f["for_neg"])]
    values = list(f["mean_abs_shapley"].to_numpy(dtype=float))
    colours = [HIGHLIGHT] * len(values)
    if top is not None and len(values) > top:
        rest = values[top:]
        labels = labels[:top] + [f"the other {len(rest)} features: mean |Shapley| "
                                 f"{sum(rest):.3f} together"]
        values = values[:top] + [float(sum(rest))]
        colours = colours[:top] + [MUTED]
    labels = [wrap(lab, 2 * LABEL_WIDTH) for lab in labels[::-1]]  # a full-width chart
    values, colours = values[::-1], colours[::-1]
    n = len(values)
    fig = go.Figure(go.Bar(
        x=values, y=list(range(n)), orientation="h",
        width=0.42, marker=dict(color=colours), hovertext=labels,
        hovertemplate="%{hovertext}<extra></extra>",
    ))
    span = max(values) if n else 1.0
    return _layout(fig, title, height=90 + _row_height(labels) * max(n, 1),
                   annotations=_labels_above(labels), yaxis=_label_axis(n),
                   xaxis=dict(title="mean size of what a feature adds to the support (|Shapley value|)",
                              gridcolor="#eee", zeroline=False,
                              range=[0, 1.08 * (span if span > 0 else 1.0)]))


# --------------------------------------------------------------------------- the ID3 tree


def tree_layout(nodes: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(position, depth) for `Tree.to_frame()` rows: leaves get consecutive positions in
    pre-order, an inner node sits at the mean of its children's positions."""
    n = len(nodes)
    parent = nodes["parent"].to_numpy()
    children: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        if parent[i] >= 0:
            children[parent[i]].append(i)
    pos = np.zeros(n)
    nxt = 0.0
    # pre-order ids: leaves get consecutive positions in id order; a parent has a smaller id
    # than its children, so a reverse sweep centres each parent after its children are placed
    for i in range(n):
        if not children[i]:
            pos[i] = nxt
            nxt += 1.0
    for i in reversed(range(n)):
        if children[i]:
            pos[i] = float(np.mean(pos[children[i]]))
    return pos, nodes["depth"].to_numpy(dtype=float)


def tree_figure(tree: Any, selected: int | None = None, title: str | None = None,
                max_depth: int | None = None) -> go.Figure:
    """An ID3 tree (a `Tree`, or its `to_frame()`, whose `label` column may be reworded and
    whose optional `answer` column, ω(POS) as the KB answers a row ending at the node, goes in
    the hover) drawn left to right: the root on the left, one row per leaf, each node a marker
    coloured by p with its label, count and p beside it; hover repeats them. `customdata[i][0]` is the node id of `Tree.to_frame()`, so a
    plotly selection maps back to a node. With `max_depth`, deeper nodes are left out and a
    node whose children are hidden is marked "…"."""
    nodes = tree.to_frame() if hasattr(tree, "to_frame") else pd.DataFrame(tree)
    nodes = nodes.reset_index(drop=True)
    folded = np.zeros(len(nodes), dtype=bool)
    if max_depth is not None and len(nodes) and int(nodes["depth"].max()) > max_depth:
        keep = (nodes["depth"] <= max_depth).to_numpy()
        folded = (~nodes["is_leaf"].to_numpy() & (nodes["depth"] == max_depth).to_numpy())[keep]
        remap = {int(old): new for new, old in enumerate(np.flatnonzero(keep))}
        nodes = nodes[keep].reset_index(drop=True)
        nodes["parent"] = [remap.get(int(p_), -1) for p_ in nodes["parent"]]
        nodes["is_leaf"] = nodes["is_leaf"].to_numpy() | folded
    pos, depth = tree_layout(nodes)
    x, y = depth, -pos
    ex: list[float | None] = []
    ey: list[float | None] = []
    for i, par in enumerate(nodes["parent"].to_numpy()):
        if par >= 0:  # elbow edges: across from the parent, then down/up to the child
            ex += [x[par], (x[par] + x[i]) / 2, (x[par] + x[i]) / 2, x[i], None]
            ey += [y[par], y[par], y[i], y[i], None]
    labels = [esc(lab) + (" …" if f else "") for lab, f in zip(nodes["label"], folded)]
    p = nodes["p"].to_numpy(dtype=float)
    count = nodes["count"].to_numpy()
    leaf = nodes["is_leaf"].to_numpy(dtype=bool)
    answer = (nodes["answer"].to_numpy(dtype=float) if "answer" in nodes
              else np.full(len(nodes), np.nan))
    hover = [
        f"{lab}<br>count {c}, positives {pos_}<br>p = {pv:.3f}"
        + ("" if av != av else f"<br>answers support {av:.3f}") + ("<br>leaf" if lf else "")
        for lab, c, pos_, pv, av, lf in zip(labels, count, nodes["positives"], p, answer, leaf)
    ]
    size = 10 + 16 * np.sqrt(count / max(int(count.max()), 1))
    ids = nodes["node"].to_numpy()
    line_w = [4 if selected is not None and i == selected else 1 for i in ids]
    line_c = [HIGHLIGHT if selected is not None and i == selected else "#333" for i in ids]
    top = float(x.max()) if len(x) else 0.0
    # the right ~38% of the width is left for the leaves' text; an inner node's label is
    # wrapped to the width of one depth column so it never reaches the next column's labels
    xmax = (top + 0.3) / 0.62
    col_chars = max(10, int(0.62 * 1000 / max(top + 0.5, 1.0) / 6.5))
    text = [f"{lab} · n={c} · p={pv:.2f}" if lf else wrap(lab, col_chars)
            for lab, c, pv, lf in zip(labels, count, p, leaf)]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", line=dict(color="#aaa", width=1),
                             hoverinfo="skip", name="edges"))
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="markers+text", name="nodes",
        text=text,
        textposition=["middle right" if lf else "top center" for lf in leaf],
        textfont=dict(size=10, color="#333"),
        marker=dict(size=size, color=p, cmin=0, cmax=1,
                    colorscale=[[0, NEG_COLOUR], [0.5, "#f7f7f7"], [1, POS_COLOUR]],
                    line=dict(width=line_w, color=line_c), showscale=True,
                    colorbar=dict(title=dict(text="p (share of the positive class)", side="top"), thickness=10,
                                  len=0.3, lenmode="fraction", orientation="h", x=0,
                                  xanchor="left", y=0, yanchor="top", ypad=4)),
        customdata=np.stack([nodes["node"].to_numpy(), count, p], axis=1),
        hovertext=hover, hovertemplate="%{hovertext}<extra></extra>",
    ))
    leaves = int(leaf.sum()) if len(nodes) else 1
    lines = max((t.count("<br>") + 1 for t, lf in zip(text, leaf) if not lf), default=1)
    return _layout(fig, title, height=max(300, 110 + (18 + 11 * lines) * leaves),
                   xaxis=dict(visible=False, range=[-0.3, xmax]),
                   yaxis=dict(visible=False, range=[float(y.min()) - 0.6 if len(y) else -1, 0.6 + 0.25 * lines]),
                   margin=dict(l=10, r=10, t=40 if title else 10, b=50),
                   clickmode="event+select", dragmode=False, hovermode="closest")


# --------------------------------------------------------------------------- evaluation


def confusion_matrix_figure(cm: Any, labels: Sequence[str] = ("NOT POS", "POS"),
                            title: str | None = "Confusion matrix (test split)") -> go.Figure:
    """Rows = true class, columns = predicted; cell text = the count. Each tick label is two
    short lines ("true" / the class), level and in the margins it needs: in a half-width
    column at 1024 px one long rotated line was cut ("e readmitted ≠ yes"). Under a column
    the class is broken at spaces into lines of about 11 characters: two level labels side by
    side ran into each other ("readmitted ≠ yesreadmitted = yes")."""
    m = np.asarray(cm, dtype=int)
    names = [esc(lab) for lab in labels]
    under = []
    for lab in labels:
        lines: list[str] = []
        for word in str(lab).split(" "):  # whole words (a long one gets a line of its own)
            if lines and len(lines[-1]) + 1 + len(word) <= 11:
                lines[-1] += " " + word
            else:
                lines.append(word)
        under.append("<br>".join(esc(line) for line in lines))
    fig = go.Figure(go.Heatmap(
        z=m, x=[f"predicted<br>{n}" for n in under], y=[f"true<br>{n}" for n in names],
        text=m.astype(str), texttemplate="%{text}", colorscale="Blues", showscale=False,
        hovertemplate="%{y}, %{x}: %{z}<extra></extra>",
    ))
    return _layout(fig, title, height=300, xaxis=dict(tickangle=0, automargin=True),
                   yaxis=dict(autorange="reversed", automargin=True))


def roc_figure(curves: Any, at: Any, title: str | None = "ROC curve") -> go.Figure:
    """The ROC curve (`plx_core.curves.Curves`) with the decisions at one threshold (`at`, a
    `ThresholdResult`) marked: trace 0 is the curve, trace 1 the chance diagonal, trace 2 the
    threshold's point (1 − specificity, sensitivity)."""
    fpr, tpr, th = (np.asarray(curves.fpr), np.asarray(curves.tpr), np.asarray(curves.thresholds))
    threshold = float(at.threshold)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=fpr, y=tpr, mode="lines", line=dict(color=NEG_COLOUR, width=2, shape="hv"),
                             customdata=th, name="ROC",
                             hovertemplate="threshold %{customdata:.3f}<br>1 − specificity %{x:.3f}"
                                           "<br>sensitivity %{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="chance",
                             line=dict(color="#999", dash="dot", width=1), hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=[1 - at.specificity], y=[at.sensitivity], mode="markers+text",
                             name="threshold",
                             marker=dict(size=13, color=HIGHLIGHT, line=dict(color="black", width=1)),
                             text=[f"threshold {threshold:.2f}"], textposition="bottom right",
                             hovertemplate="threshold %{text}<extra></extra>"))
    auc = f"<br><sub>area under the curve {curves.auc:.3f}</sub>" if np.isfinite(curves.auc) else ""
    return _layout(fig, None if title is None else title + auc, height=400,
                   margin=dict(l=10, r=10, t=64, b=10),
                   xaxis=dict(range=[-0.02, 1.02], title="1 − specificity (false-positive rate)",
                              gridcolor="#eee", constrain="domain"),
                   yaxis=dict(range=[-0.02, 1.04], title="sensitivity (true-positive rate)",
                              gridcolor="#eee"),
                   annotations=[dict(x=0.98, y=0.04, xref="x", yref="y", showarrow=False,
                                     xanchor="right", text="dotted: chance",
                                     font=dict(size=11, color="#777"))])


def pr_figure(curves: Any, at: Any,
              title: str | None = "Precision–recall curve", positive: Any = None) -> go.Figure:
    """The precision–recall curve with the decisions at one threshold (`at`, a
    `ThresholdResult`) marked (trace 1: recall, precision) and the share of positives (a
    classifier without skill) as a dotted line, named by `positive`'s class name when given
    ("share of IV rows": "positive rows" beside one class of four read as a kind of row)."""
    rec, prec, th = (np.asarray(curves.tpr), np.asarray(curves.precision), np.asarray(curves.thresholds))
    threshold = float(at.threshold)
    base = curves.n_pos / max(curves.n_pos + curves.n_neg, 1)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=rec, y=prec, mode="lines", line=dict(color=POS_COLOUR, width=2, shape="vh"),
                             customdata=th, name="PR",
                             hovertemplate="threshold %{customdata:.3f}<br>recall %{x:.3f}"
                                           "<br>precision %{y:.3f}<extra></extra>"))
    precision = at.precision if np.isfinite(at.precision) else 1.0
    fig.add_trace(go.Scatter(x=[at.sensitivity], y=[precision], mode="markers+text", name="threshold",
                             marker=dict(size=13, color=HIGHLIGHT, line=dict(color="black", width=1)),
                             text=[f"threshold {threshold:.2f}"], textposition="bottom left",
                             hovertemplate="threshold %{text}<extra></extra>"))
    ap = (f"<br><sub>average precision {curves.average_precision:.3f}</sub>"
          if np.isfinite(curves.average_precision) else "")
    return _layout(fig, None if title is None else title + ap, height=400,
                   margin=dict(l=10, r=10, t=64, b=10),
                   shapes=[dict(type="line", xref="paper", yref="y", x0=0, x1=1, y0=base, y1=base,
                                line=dict(color="#999", dash="dot", width=1))],
                   annotations=[dict(x=0.02, y=base, xref="x", yref="y", showarrow=False,
                                     xanchor="left", yanchor="bottom",
                                     text=f"dotted: share of<br>{_rows_of(positive)} ({base:.2f})",
                                     font=dict(size=11, color="#777"))],
                   xaxis=dict(range=[-0.02, 1.02], title="recall (sensitivity)", gridcolor="#eee"),
                   yaxis=dict(range=[-0.02, 1.04], title="precision", gridcolor="#eee"))


PR_CLASS = 24  # characters of the class named by the no-skill line: with "rows (0.08)" it fits
# the Evaluate page's half of a 1024-px screen (whole: "readmitted = yes rows" ran past it)


def _rows_of(positive: Any) -> str:
    """'IV rows' for the precision-recall chart's no-skill line: the class name escaped for
    plotly and shortened to `PR_CLASS` characters; 'positive rows' without a class."""
    return "positive rows" if positive is None else f"{esc(shorten(class_names(positive)[0], PR_CLASS))} rows"


def agreement_figure(agreement: Mapping[str, float] | pd.Series | pd.DataFrame,
                     title: str | None = "Agreement of plx explanations with SHAP") -> go.Figure:
    """Bars of agreement measures in [−1, 1] or [0, 1] (e.g. top-1 match rate, top-k overlap,
    rank correlation). A frame with columns `measure`, `value` (and optional `group`) gives
    grouped bars."""
    if isinstance(agreement, pd.DataFrame):
        frame = agreement
    else:
        s = pd.Series(agreement, dtype=float)
        frame = pd.DataFrame({"measure": s.index, "value": s.to_numpy()})
    fig = go.Figure()
    groups = frame["group"].unique() if "group" in frame else [None]
    palette = [POS_COLOUR, NEG_COLOUR, HIGHLIGHT, TIE_COLOUR]
    for g, grp in enumerate(groups):
        sub = frame if grp is None else frame[frame["group"] == grp]
        fig.add_trace(go.Bar(
            x=[esc(m) for m in sub["measure"]], y=sub["value"].to_numpy(dtype=float),
            name=None if grp is None else esc(grp), marker=dict(color=palette[g % len(palette)]),
            text=[f"{v:.2f}" for v in sub["value"]], textposition="outside",
            hovertemplate="%{x}: %{y:.3f}<extra></extra>",
        ))
    lo = min(0.0, float(frame["value"].min()) if len(frame) else 0.0)
    fig.update_yaxes(range=[lo - 0.05 if lo < 0 else 0, 1.1], gridcolor="#eee")
    fig = _layout(fig, title, height=320)
    if "group" in frame:
        fig.update_layout(showlegend=True, barmode="group")
    return fig


def metrics_bars(scores: pd.DataFrame, metric: str = "F1",
                 title: str | None = "Test-split scores") -> go.Figure:
    """One bar per model (column `model`) for `metric`; plx models highlighted."""
    names = [str(m) for m in scores["model"]]
    colours = [HIGHLIGHT if n.startswith("plx") else MUTED for n in names]
    fig = go.Figure(go.Bar(
        x=[esc(n) for n in names], y=scores[metric].to_numpy(dtype=float),
        marker=dict(color=colours), text=[f"{v:.3f}" for v in scores[metric]],
        textposition="outside", hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    ))
    fig.update_yaxes(range=[0, 1.1], title=metric, gridcolor="#eee")
    return _layout(fig, title, height=320)


__all__ = [
    "REST", "agreement_figure", "bounds_compare", "bounds_interval", "confusion_matrix_figure",
    "decision_word", "esc", "evidence_bars", "explanation_bars", "global_features",
    "metrics_bars", "pr_figure",
    "HALF_LABEL_WIDTH", "pair_label", "roc_figure", "shapley_bars", "subquery_label", "top_with_rest", "tree_figure", "tree_layout",
    "wrap",
]
