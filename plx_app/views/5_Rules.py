"""Rules: add weighted expert rules in a form, edit / disable / delete them, and preview their
effect: decisions that flip on the test split, F1 before and after."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from plx_app.service import (
    next_rule_id,
    parse_conditions,
    rule_clause,
    rule_text,
    rules_frame,
    scores,
    validate_conditions,
)
from plx_app.state import page_setup
from plx_app.widgets import error, figure, guard, keep_last, md, require_kb
from plx_core import wording
from plx_core.plots import bounds_compare

ws = page_setup()
st.title("Rules")

require_kb(ws)

domains = ws.domains()
SEP = " = "
pairs = [f"{f}{SEP}{v}" for f in ws.features for v in domains[f]]

st.markdown(md(f"A rule reads IF conditions THEN POS (or NOT POS), with a probability p and a "
               f"weight w. POS means {ws.positive!r}. The KB in use has {len(ws.kb):,} learned "
               "clauses with weight 1, so a rule needs a weight of that order to outvote them "
               "where they agree with each other."))

def _fill_from_instance() -> None:
    if ws.selected is not None:
        st.session_state["r_conds"] = [f"{f}{SEP}{v}" for f, v in ws.selected.known().items()
                                       if f"{f}{SEP}{v}" in pairs]


if ws.selected is not None:
    sel = ws.selected
    st.caption(md(f"Selected instance ({sel.title()}): "
                  + ", ".join(f"{f}={v}" for f, v in sel.known().items())))
    st.button("Take the conditions from the selected instance", key="r_fill",
              on_click=_fill_from_instance)

with st.form("rule_form", clear_on_submit=False):
    st.markdown("**Add a rule**")
    conds = st.multiselect("IF (all of these hold)", pairs, key="r_conds",
                           placeholder="choose feature = value")
    typed = st.text_input("…or type conditions (feature=value, joined by AND)", key="r_text",
                          placeholder=f"e.g. {wording.example_condition(domains)}")
    f1, f2, f3 = st.columns(3)
    head = f1.radio("THEN", ["POS", "NOT POS"], horizontal=True, key="r_head")
    p = f2.number_input("p (probability the rule holds)", 0.0, 1.0, 0.95, 0.01, key="r_p")
    w = f3.number_input("w (weight)", 0.001, 1e9, 50.0, 1.0, key="r_w")
    submitted = st.form_submit_button("Add rule", type="primary")

if submitted:
    try:
        chosen = [tuple(c.split(SEP, 1)) for c in conds]
        chosen += parse_conditions(typed)
        problems = validate_conditions(chosen, domains)
        if not (0.0 <= p <= 1.0):
            problems.append("p must be between 0 and 1.")
        if not w > 0:
            problems.append("w must be greater than 0.")
        dup = [r for r in ws.rules if set(r.literals) == set(
            rule_clause(chosen, head, p, w, "x").literals)] if not problems else []
        if dup:
            problems.append(f"The same rule is already there as {dup[0].id}; edit it below instead.")
        if problems:
            for msg in problems:
                error(msg)
        else:
            rule = rule_clause(chosen, head, p, w, next_rule_id(ws.rules))
            ws.rules.append(rule)
            st.success(md(f"Added {rule.id}: {rule_text(rule)} [p={p:g}, w={w:g}]"))
    except Exception as exc:  # e.g. a condition without '='
        error(f"The rule could not be read: {exc}")

with st.expander("…or type whole rules (one per line; OR, NOT and brackets allowed)"):
    with st.form("rule_text_form"):
        st.caption(md('IF a=v AND b=w THEN POS [p=0.9, w=50] — names or values with spaces or '
                      f'symbols in double quotes, e.g. {wording.example_rule(domains)}. OR gives '
                      'one clause per alternative.'))
        text = st.text_area("Rules", key="r_rules_text", height=110)
        typed_submit = st.form_submit_button("Add these rules")
    if typed_submit:
        from plx_core.rules import parse_rules

        try:
            new = parse_rules(text, kb=ws.current_kb())
            if not new:
                error("Type at least one rule.")
            else:
                ws.rules.extend(new)
                st.success(md(f"Added {len(new)} clause(s): " + ", ".join(str(r.id) for r in new)))
        except Exception as exc:  # ClauseSyntaxError names the line and column
            error(f"The rules could not be read: {exc}")

st.subheader("Rules in the KB")
if not ws.rules:
    st.info("No rules yet.")
else:
    st.dataframe(rules_frame(ws.rules), hide_index=True, width="stretch",
                 column_config={"p": st.column_config.NumberColumn(format="%.3f"),
                                "w": st.column_config.NumberColumn(format="%.4g")})
    ids = [r.id for r in ws.rules]
    rid = st.selectbox("Edit rule", ids, key="r_edit_id",
                       format_func=lambda i: f"{i}: {rule_text(next(r for r in ws.rules if r.id == i))}")
    rule = next(r for r in ws.rules if r.id == rid)
    g1, g2, g3 = st.columns(3)
    g1.number_input("p", 0.0, 1.0, float(rule.p), 0.01, key=f"r_edit_p_{rid}")
    g2.number_input("w", 0.001, 1e9, float(rule.w), 1.0, key=f"r_edit_w_{rid}")
    g3.checkbox("enabled", value=rule.enabled, key=f"r_edit_on_{rid}")
    h1, h2 = st.columns(2)

    def _save(rid: str = rid) -> None:  # callbacks run before the page: one run, fresh tables
        i = [r.id for r in ws.rules].index(rid)
        ws.rules[i] = replace(ws.rules[i], p=float(st.session_state[f"r_edit_p_{rid}"]),
                              w=float(st.session_state[f"r_edit_w_{rid}"]),
                              enabled=bool(st.session_state[f"r_edit_on_{rid}"]))

    def _delete(rid: str = rid) -> None:
        ws.rules = [r for r in ws.rules if r.id != rid]

    h1.button("Save changes", key="r_save", on_click=_save)
    h2.button("Delete rule", key="r_delete", on_click=_delete)

st.subheader("Effect on the test split")


def rules_effect() -> dict:
    """Decisions on the test split without and with the enabled rules, and for the selected
    instance (all from the session cache when seen before)."""
    before = ws.decisions("test", rules=False)
    after = ws.decisions("test", rules=True)
    sel = ws.selected
    pair = (ws.query(sel, rules=False), ws.query(sel, rules=True)) if sel is not None else None
    return {"before": before, "after": after, "selected": sel, "pair": pair}


effect = None
with guard("Previewing the rules' effect"):
    n_on = sum(r.enabled for r in ws.rules)
    effect = keep_last("rules-effect", f"{n_on} enabled rule(s)", ws.data_key, rules_effect,
                       "Previewing the rules' effect")
with guard("Showing the rules' effect"):
    if effect is not None:
        before, after = effect.value["before"], effect.value["after"]
        truth = (ws.y_test.astype(str) == ws.positive).to_numpy()
        s0 = scores(truth, before["decision"].to_numpy() == "POS")
        s1 = scores(truth, after["decision"].to_numpy() == "POS")
        flips = before.index[before["decision"].to_numpy() != after["decision"].to_numpy()]
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("F1 without rules", f"{s0['F1']:.3f}")
        m2.metric("F1 with rules", f"{s1['F1']:.3f}", f"{s1['F1'] - s0['F1']:+.3f}")
        m3.metric("Accuracy with rules", f"{s1['accuracy']:.3f}", f"{s1['accuracy'] - s0['accuracy']:+.3f}")
        m4.metric("Decisions that flip", f"{len(flips)}")
        if len(flips):
            table = ws.X_test.loc[flips].copy()
            table.insert(0, "label", ws.y_test.loc[flips].astype(str))
            table.insert(1, "before", before.loc[flips, "decision"])
            table.insert(2, "after", after.loc[flips, "decision"])
            table.insert(3, "ω before", before.loc[flips, "mean"].round(3))
            table.insert(4, "ω after", after.loc[flips, "mean"].round(3))
            table.insert(5, "now right", after.loc[flips, "correct"])
            st.dataframe(table, width="stretch", height=240)
        sel, pair = effect.value["selected"], effect.value["pair"]
        if pair is not None:
            b0, b1 = pair
            word = lambda b: "POS" if b.positive else "NOT POS"  # noqa: E731
            st.markdown(md(f"Selected instance ({sel.title()}): {word(b0)} → {word(b1)}"))
            figure(bounds_compare([("without rules", b0), ("with rules", b1)]), key="r_effect")
