"""The dashboard's figures are pure functions: check their data, not their pixels."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from paper import as_query, example2

from plx_core import direct_kb, query
from plx_core.curves import at_threshold, curves
from plx_core.plots import (
    HALF_LABEL_WIDTH,
    HIGHLIGHT,
    LABEL_WIDTH,
    MUTED,
    NEG_COLOUR,
    POS_COLOUR,
    REST,
    SHAPLEY_LABEL,
    agreement_figure,
    bounds_compare,
    bounds_interval,
    confusion_matrix_figure,
    esc,
    evidence_bars,
    explanation_bars,
    metrics_bars,
    pr_figure,
    roc_figure,
    shapley_bars,
    top_with_rest,
    tree_figure,
    tree_layout,
    wrap,
)
from plx_core.tree import tree_kb_with_trees


@pytest.fixture(scope="module")
def kb():
    X, y = example2()
    return direct_kb(X, y, positive=1)


def _arr(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def _annotations(fig: go.Figure) -> list[str]:
    return [a.text for a in fig.layout.annotations]


def test_bounds_interval_draws_the_bounds_and_the_mean(kb):
    b = query(kb, as_query("0---"))
    fig = bounds_interval(b)
    assert list(fig.data[0].x) == pytest.approx([b.lower, b.upper])
    assert list(fig.data[1].x) == pytest.approx([b.mean])
    assert "→" in fig.layout.title.text
    # the 0.5 threshold is on the chart
    assert any(s.x0 == 0.5 for s in fig.layout.shapes)


def test_bounds_interval_colour_follows_the_decision():
    class B:
        def __init__(self, lo, hi):
            self.lower, self.upper = lo, hi

    assert bounds_interval(B(0.7, 0.9)).data[0].line.color == POS_COLOUR
    assert bounds_interval(B(0.1, 0.2)).data[0].line.color == NEG_COLOUR
    assert "tie" in bounds_interval(B(0.25, 0.75)).layout.title.text
    # the chart names the other class as the metric above it does (`wording.class_names`)
    said = bounds_interval(B(0.1, 0.2), positive="readmitted = yes").layout.title.text
    assert said.endswith("→ readmitted ≠ yes"), said
    assert bounds_interval(B(0.1, 0.2), positive="sick").layout.title.text.endswith("→ not sick")


def test_bounds_compare_draws_and_colours_at_the_models_threshold():
    """The Rules page's before/after chart of a model deciding at 0.65: a support of 0.55–0.65
    is 'not POS' there; the chart drew it red (POS) with its line at 0.5 while the words said
    'sepsis ≠ yes'."""
    from plx_core.query import Bounds

    b = Bounds(0.55, 0.65)
    at_model, at_half = (bounds_compare([("with rules", b)], threshold=t) for t in (0.65, 0.5))
    assert [sh.x0 for sh in at_model.layout.shapes] == [0.65]
    assert at_model.data[0].line.color == NEG_COLOUR and at_half.data[0].line.color == POS_COLOUR


def test_bounds_compare_one_trace_per_row(kb):
    b0, b1 = query(kb, as_query("0000")), query(kb, as_query("1111"))
    fig = bounds_compare([("before", b0), ("after", b1)])
    assert len(fig.data) == 2
    assert list(fig.data[1].x) == pytest.approx([b1.lower, b1.upper])


def _explanation():
    cands = pd.DataFrame({
        "features": [("a1",), ("a2",), ("a3",), ("a4",)],
        "label": ["a1=0", "a2=1", "a3=<b>x</b>", "a4=1"],
        "lower": [0.9, 0.6, 0.2, 0.1],
        "upper": [1.0, 0.8, 0.2, 0.3],
    })
    cands["chosen"] = [False, True, False, False]

    class E:
        candidates = cands
        features = ("a2",)

    return E()


def test_explanation_bars_heights_are_the_means_and_the_choice_is_highlighted():
    e = _explanation()
    fig = explanation_bars(e, top=10)
    bar = fig.data[0]
    # bars run from 0.5 to the mean: base + x = mean; rows are drawn bottom-up (reversed)
    means = (e.candidates["lower"] + e.candidates["upper"]) / 2
    got = _arr(bar.base) + _arr(bar.x)
    assert got == pytest.approx(means.to_numpy()[::-1])
    colours = list(bar.marker.color)[::-1]
    assert colours == [MUTED, HIGHLIGHT, MUTED, MUTED]
    # whiskers span [lower, upper]
    assert _arr(bar.error_x.array)[::-1] == pytest.approx((e.candidates["upper"] - means).to_numpy())
    assert _arr(bar.error_x.arrayminus)[::-1] == pytest.approx((means - e.candidates["lower"]).to_numpy())


def test_explanation_bars_start_at_the_models_threshold():
    """Under a model deciding at 0.65 the sub-query bars run from 0.65 and the dashed line is
    there (they ran from 0.5: a sub-query at 0.6 pointed to POS beside words saying it does
    not decide POS); without a threshold, 0.5 as before."""
    e = _explanation()
    e.threshold = 0.65
    fig = explanation_bars(e)
    assert [sh.x0 for sh in fig.layout.shapes] == [0.65]
    assert set(_arr(fig.data[0].base)) == {0.65}
    means = ((e.candidates["lower"] + e.candidates["upper"]) / 2).to_numpy()[::-1]
    assert _arr(fig.data[0].base) + _arr(fig.data[0].x) == pytest.approx(means)
    assert [sh.x0 for sh in explanation_bars(_explanation()).layout.shapes] == [0.5]


def test_explanation_bars_keep_the_chosen_one_beyond_top():
    e = _explanation()
    e.candidates["chosen"] = [False, False, False, True]
    fig = explanation_bars(e, top=2)
    assert len(fig.data[0].x) == 2
    assert HIGHLIGHT in list(fig.data[0].marker.color)
    assert any("a4=1" in t for t in _annotations(fig))


def test_explanation_bars_from_features_when_no_chosen_column():
    e = _explanation()
    e.candidates = e.candidates.drop(columns=["chosen"])
    fig = explanation_bars(e)
    assert list(fig.data[0].marker.color)[::-1][1] == HIGHLIGHT


def test_shapley_bars_sorted_by_magnitude_with_signs_coloured():
    fig = shapley_bars({"a": 0.1, "b": -0.3, "c": 0.0})
    bar = fig.data[0]
    assert list(bar.x)[::-1] == pytest.approx([-0.3, 0.1, 0.0])
    assert list(bar.marker.color)[::-1][:2] == [NEG_COLOUR, POS_COLOUR]


def test_shapley_bars_fixed_order_for_side_by_side():
    fig = shapley_bars({"a": 0.1, "b": -0.3}, order=["a", "b"], instance={"a": "x", "b": "y"})
    assert list(fig.data[0].x)[::-1] == pytest.approx([0.1, -0.3])
    texts = _annotations(fig)
    assert any(t.startswith("a=x") for t in texts)


def test_a_long_shapley_label_is_shortened_keeping_its_value_and_reads_whole_on_hover():
    # at 1024 px "worst concave points=[0.2112, 0.2258): +0.2" ran past the chart's edge and
    # was cut mid-number; the name gives way ("…"), the value and the number stay, the hover
    # over the label (and the bar) holds it whole, and a cut never splits an escaped "<"
    name, value = "creatinine clearance (mL/min per 1.73 m²)", "[60.5, 89.25)"
    fig = shapley_bars({name: 0.21, "age": -0.05, "x": 0.01},
                       instance={name: value, "age": "<56", "x": "&" * 40})
    notes = {a.text: a.hovertext for a in fig.layout.annotations}
    label = next(t for t in notes if t.endswith("[60.5, 89.25): +0.210"))
    assert "…" in label and len(label.split(": ")[0]) <= SHAPLEY_LABEL
    assert notes[label] == f"{name}={value}: +0.2100"
    assert "age=&lt;56: -0.050" in notes  # short labels stay whole
    amp = next(t for t in notes if t.startswith("x="))
    assert amp.endswith("…: +0.010") and "&amp;" in amp and not re.search(r"&(?!amp;)", amp)
    assert f"{name}={value}" in fig.data[0].hovertext
    assert fig.layout.xaxis.fixedrange and fig.layout.yaxis.fixedrange  # hover, no zoom


def test_explanation_bars_wrap_their_labels_at_the_width_asked():
    # side by side at 1024 px a 56-character line ran past the chart: half a page gets 40
    long = " ∧ ".join(f"worst concave points {i}=[0.06946, 0.0753)" for i in range(2))
    cands = pd.DataFrame({"features": [("a",)], "label": [long], "lower": [0.2], "upper": [0.3]})
    for width in (LABEL_WIDTH, HALF_LABEL_WIDTH):
        lines = _annotations(explanation_bars(cands, label_width=width))[0].split("<br>")
        assert max(map(len, lines)) <= width < max(map(len, lines)) + 12
        assert "".join(lines).replace(" ", "") == f"{long}: 0.250".replace(" ", "")


def test_evidence_bars_from_an_evidence_frame(kb):
    b = query(kb, as_query("0000"))
    ev = b.evidence.frame(kb)
    fig = evidence_bars(ev, omega=b.omega, top=5)
    bar = fig.data[0]
    assert len(bar.x) == min(5, len(ev))
    tops = _arr(bar.base) + _arr(bar.x)
    assert set(np.round(tops, 9)) <= set(np.round(ev["target"].to_numpy(), 9))
    assert any(s.x0 == pytest.approx(b.omega) for s in fig.layout.shapes)


def test_tree_figure_nodes_carry_their_ids():
    X, y = example2()
    kb, trees = tree_kb_with_trees(X, y, positive=1)
    nodes = trees[0].to_frame()
    fig = tree_figure(trees[0], selected=2)
    scatter = fig.data[1]
    assert [int(c[0]) for c in scatter.customdata] == list(nodes["node"])
    assert list(np.asarray(scatter.marker.color)) == pytest.approx(nodes["p"].to_list())
    assert scatter.marker.line.width[2] == 4  # the selected node is outlined
    assert "count" in scatter.hovertext[0]
    # edges: one elbow (4 points and a gap) per non-root node
    assert len(fig.data[0].x) == 5 * (len(nodes) - 1)
    # drawn left to right: x is the depth
    assert list(scatter.x) == pytest.approx(nodes["depth"].to_list())


def test_tree_figure_folds_deep_levels():
    X, y = example2()
    _, trees = tree_kb_with_trees(X, y, positive=1)
    nodes = trees[0].to_frame()
    fig = tree_figure(trees[0], max_depth=1)
    shown = [int(c[0]) for c in fig.data[1].customdata]
    assert shown == list(nodes.index[nodes["depth"] <= 1])
    folded = [t for t in fig.data[1].text if "…" in t]
    assert len(folded) == int(((nodes["depth"] == 1) & ~nodes["is_leaf"]).sum())


def test_tree_layout_centres_parents_over_children():
    X, y = example2()
    _, trees = tree_kb_with_trees(X, y, positive=1)
    nodes = trees[0].to_frame()
    x, depth = tree_layout(nodes)
    for i, par in enumerate(nodes["parent"]):
        if par >= 0:
            assert depth[i] == depth[par] + 1
    kids = nodes.index[nodes["parent"] == 0]
    assert x[0] == pytest.approx(np.mean(x[kids]))
    leaves = nodes.index[nodes["is_leaf"]]
    assert sorted(x[leaves]) == list(range(len(leaves)))


def test_confusion_matrix_figure_shows_the_counts():
    cm = np.array([[50, 3], [4, 20]])
    fig = confusion_matrix_figure(cm)
    assert np.asarray(fig.data[0].z).tolist() == cm.tolist()
    assert np.asarray(fig.data[0].text).tolist() == [["50", "3"], ["4", "20"]]
    # two long class names under their columns: broken into short lines, never run together
    fig = confusion_matrix_figure(cm, ("readmitted ≠ yes", "<b>readmitted</b> = yes"))
    assert list(fig.data[0].x) == ["predicted<br>readmitted<br>≠ yes",
                                   "predicted<br>&lt;b&gt;readmitted&lt;/b&gt;<br>= yes"]


def test_agreement_and_metrics_figures():
    fig = agreement_figure({"top-1": 0.5, "overlap": 0.75})
    assert list(fig.data[0].y) == [0.5, 0.75]
    frame = pd.DataFrame({"model": ["plx (Direct)", "logistic regression"], "F1": [0.9, 0.8]})
    fig = metrics_bars(frame)
    assert list(fig.data[0].y) == [0.9, 0.8]
    assert list(fig.data[0].marker.color) == [HIGHLIGHT, MUTED]


def test_user_text_is_escaped_in_figures():
    nasty = '<a href="javascript:alert(1)">x</a>'
    assert "<" not in esc(nasty) and "&lt;a" in esc(nasty)
    fig = shapley_bars({nasty: 0.2}, instance={nasty: "<b>v</b>"})
    text = " ".join(_annotations(fig)) + " ".join(fig.data[0].hovertext)
    assert "<a" not in text and "<b>" not in text
    X = pd.DataFrame({"<i>f</i>": ["<b>1</b>", "0", "<b>1</b>", "0"], "g": ["1", "1", "0", "0"]})
    _, trees = tree_kb_with_trees(X, [1, 0, 1, 0], positive=1)
    fig = tree_figure(trees[0])
    assert all("<b>1" not in t and "<i>" not in t for t in fig.data[1].text)
    assert all("<b>1" not in t for t in fig.data[1].hovertext)


def test_bounds_chart_labels_the_threshold_and_the_diamond(kb):
    b = query(kb, as_query("0---"))
    texts = _annotations(bounds_interval(b))
    assert any("threshold 0.5" in t for t in texts)
    assert any("middle" in t and f"{b.mean:.3f}" in t for t in texts)


def test_evidence_chart_labels_the_orange_line(kb):
    b = query(kb, as_query("0000"))
    fig = evidence_bars(b.evidence.frame(kb), omega=b.omega)
    assert any(t.startswith("orange line") and f"{b.omega:.3f}" in t for t in _annotations(fig))


def test_long_bar_labels_are_wrapped_not_cut():
    long = " ∧ ".join(f"feature number {i}=[0.07864, 0.1424)" for i in range(3))
    cands = pd.DataFrame({"features": [("a",)], "label": [long], "lower": [0.2], "upper": [0.3]})
    fig = explanation_bars(cands)
    (text,) = [t for t in _annotations(fig)]
    lines = text.split("<br>")
    assert len(lines) > 1 and all(len(x) <= LABEL_WIDTH for x in lines)
    assert text.replace("<br>", " ") == f"{long}: 0.250"  # every word is kept
    assert wrap("x" * 130, 60).split("<br>") == ["x" * 60, "x" * 60, "x" * 10]


def test_shapley_top_n_sums_the_rest():
    vals = {f"f{i}": v for i, v in enumerate([0.5, -0.4, 0.3, 0.02, -0.01, 0.04])}
    s, n_rest = top_with_rest(vals, 3)
    assert n_rest == 3 and list(s.index[:3]) == ["f0", "f1", "f2"]
    assert s[REST] == pytest.approx(0.05)
    assert s.sum() == pytest.approx(sum(vals.values()))  # the bars still add up
    fig = shapley_bars(vals, top=3)
    assert len(fig.data[0].x) == 4
    assert _annotations(fig)[0].startswith("the other 3 features (summed)")
    assert len(shapley_bars(vals).data[0].x) == 6


def test_tree_labels_leave_room_and_the_colour_bar_sits_below():
    X, y = example2()
    _, trees = tree_kb_with_trees(X, y, positive=1)
    fig = tree_figure(trees[0])
    bar = fig.data[1].marker.colorbar
    assert bar.orientation == "h" and bar.yanchor == "top"  # below the nodes, not over labels
    depth = trees[0].to_frame()["depth"].max()
    assert fig.layout.xaxis.range[1] > depth + 1  # room right of the deepest leaves


def test_roc_and_pr_mark_the_threshold_point():
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0], dtype=bool)
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.2, 0.1])
    c = curves(y, s)
    at = at_threshold(y, s, 0.55)
    roc = roc_figure(c, at)
    assert roc.data[2].x[0] == pytest.approx(1 - at.specificity)
    assert roc.data[2].y[0] == pytest.approx(at.sensitivity)
    assert "area" in roc.layout.title.text
    pr = pr_figure(c, at)
    assert (pr.data[1].x[0], pr.data[1].y[0]) == pytest.approx((at.sensitivity, at.precision))
    # the no-skill line names the class (one of four read "share of positive rows", dash25)
    said = pr_figure(c, at, positive="IV").layout.annotations[0].text
    assert said == "dotted: share of<br>IV rows (0.50)", said
    # a user's class name is escaped (plotly reads <b>, <br>) and shortened to fit the chart
    said = pr_figure(c, at, positive="<b>readmitted within 30 days</b>").layout.annotations[0].text
    assert said == "dotted: share of<br>&lt;b&gt;readmitted within 30… rows (0.50)", said


def test_global_features_top_n_sums_the_rest_and_names_the_class():
    from plx_core.plots import global_features

    n = 30
    feats = pd.DataFrame({"feature": [f"measurement number {i}" for i in range(n)],
                          "mean_abs_shapley": np.linspace(0.3, 0.01, n),
                          "in_explanation": np.arange(n), "for_pos": np.arange(n) // 2,
                          "for_neg": np.arange(n) - np.arange(n) // 2})
    fig = global_features(feats, top=15, positive="malignant")
    bar = fig.data[0]
    assert len(bar.x) == 16 and bar.marker.color[0] == MUTED  # drawn bottom-up: the rest first
    assert bar.x[0] == pytest.approx(feats["mean_abs_shapley"].iloc[15:].sum())
    texts = [a.text for a in fig.layout.annotations]
    assert texts[0].startswith("the other 15 features")
    assert "malignant" in texts[-1] and "NOT POS" not in " ".join(texts)
    assert all(len(line) <= 2 * LABEL_WIDTH for t in texts for line in t.split("<br>"))


def test_bounds_chart_names_the_class():
    class B:
        lower, upper = 0.1, 0.3

    fig = bounds_interval(B(), positive="<b>malignant</b>")
    assert fig.layout.title.text.endswith("→ not &lt;b&gt;malignant&lt;/b&gt;")
    assert fig.layout.xaxis.title.text == ("support for &lt;b&gt;malignant&lt;/b&gt; (0: nothing backs it, not 'impossible'; "
                                         "1: fully backed)")
    assert bounds_interval(B()).layout.title.text.endswith("→ NOT POS")


def test_charts_a_clinician_reads_say_support_for_the_class(kb):
    b = query(kb, as_query("0000"))
    figs = [bounds_interval(b, positive="readmitted = yes"),
            evidence_bars(b.evidence.frame(kb), omega=b.omega, positive="readmitted = yes"),
            bounds_compare([("without rules", b), ("with rules", b)], positive="readmitted = yes"),
            shapley_bars(pd.Series({"age": 0.2, "grade": -0.1}))]
    words = [" ".join([f.layout.title.text or "", f.layout.xaxis.title.text or "",
                       *(t for t in _annotations(f) if not t.startswith("#"))]) for f in figs]
    assert all("ω(" not in w and "POS" not in w for w in words), words  # bar labels are rules
    assert all("support for readmitted = yes" in w.lower() for w in words[:3]), words
    assert "towards readmitted = yes" in words[1] and "support" in words[3]
