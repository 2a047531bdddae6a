"""Rules: add weighted expert rules in a form, edit / disable / delete them, and preview their
effect: decisions that flip on the test split, F1 before and after."""

from __future__ import annotations

import streamlit as st

from plx_app.project_ui import draft_widgets, keep_draft, rules_history, why_input
from plx_app.service import parse_conditions, rules_frame
from plx_app.service.classes import class_order, label_classes, several
from plx_app.state import page_setup
from plx_app.widgets import (
    error,
    figure,
    guard,
    keep_last,
    md,
    require_kb,
    warning,
    wrapped_table,
)
from plx_core import wording
from plx_core.plots import bounds_compare
from plx_core.rules import rule_groups
from plx_core.tokens import condition_text

ws = page_setup()
st.title("Rules")

require_kb(ws)

domains = ws.domains()
pairs = [wording.condition(f, v) for f in ws.features for v in domains[f]]  # quoted: reads back
draft_widgets(pairs)  # what this tab typed and had not added: after a refresh, a page switch
why_input()

pos_name, neg_name = wording.class_names(ws.class_name)
st.markdown(md(f"A rule reads IF conditions THEN {pos_name} (or {neg_name}), with a probability "
               f"p and a weight w. The KB in use has {len(ws.kb):,} learned clauses."))
st.caption(md(wording.rule_weight_meaning(ws.ensure_kb().rule_unit(), ws.kb_name)))
if several(ws) and class_order(ws):  # ordered levels: their model takes no rules (as plx rules)
    st.info(md(wording.ordered_rules_said(ws.positive, len(label_classes(ws)))))
elif several(ws):  # a rule is about POS against the rest, not about the model of every class
    n_classes = len(label_classes(ws))
    st.caption(md(f"The label has {n_classes} classes: a rule here is about {ws.positive!r} "
                  f"against the other {n_classes - 1} taken together, in the KB in use. The "
                  f"model of every class (\"Among all {n_classes} classes\" on the Query, "
                  "Explain and Evaluate pages) is learned from the data alone: rules do not "
                  "change its pick."))

def _fill_from_instance() -> None:
    if ws.selected is not None:
        st.session_state["r_conds"] = [wording.condition(f, v)
                                       for f, v in ws.selected.known().items()
                                       if wording.condition(f, v) in pairs]


if ws.selected is not None:
    sel = ws.selected
    st.caption(md(f"Selected instance ({sel.title()}): "
                  + ", ".join(condition_text(f, v) for f, v in sel.known().items())))
    st.button("Take the conditions from the selected instance", key="r_fill",
              on_click=_fill_from_instance)

# no st.form: a form sends nothing until it is submitted, so a refresh lost what was typed;
# each field is sent as it is left and kept as the tab's draft in the store (`keep_draft`)
unit = ws.ensure_kb().rule_unit()


def _add_form_rule() -> None:
    """The Add-rule button's callback: add the rule before the page is drawn again, clear the
    conditions once it is added (p and w stay, as chosen) and keep what to say."""
    s = st.session_state
    try:
        chosen = [pc for c in s.get("r_conds", []) for pc in parse_conditions(c)] \
            + parse_conditions(s.get("r_text", ""))
        p, w = s.get("r_p"), s.get("r_w")
        rule, problems = ws.add_rule(chosen, s.get("r_head", "POS"), p, w)
        if rule is not None:
            s["r_conds"], s["r_text"] = [], ""
            said = (True, f"Added {rule.id}: {wording.clause_text(rule, ws.class_name)} "
                          f"[p={p:g}, w={w:g}]")
        else:
            said = (False, problems)
    except Exception as exc:  # e.g. a condition without '='
        said = (False, [f"The rule could not be read: {exc}"])
    s["r_form_said"] = said


with st.container(border=True):
    st.markdown("**Add a rule**")
    st.multiselect("IF (all of these hold)", pairs, key="r_conds",
                   placeholder="choose feature = value")
    st.text_input("…or type conditions (feature=value, joined by AND)", key="r_text",
                  placeholder=f"e.g. {wording.example_condition(domains)}")
    f1, f2, f3 = st.columns(3)
    heads = {"POS": pos_name, "NOT POS": neg_name}  # the class in words, the key as typed
    f1.radio("THEN", list(heads), horizontal=True, key="r_head", format_func=heads.get)
    f2.number_input("p (probability the rule holds)", 0.0, 1.0, step=0.01, key="r_p")
    f3.number_input("w (weight)", 0.001, 1e9, value=None, step=1.0, key="r_w",
                    placeholder="choose: how much it counts")
    st.caption(md(wording.rule_weight_said(st.session_state.get("r_w"), unit)))
    st.button("Add rule", type="primary", key="r_add", on_click=_add_form_rule)
    ok, said = st.session_state.pop("r_form_said", (None, ""))
    if ok:
        st.success(md(said))
    elif ok is not None:
        for line in said:
            error(line)


def _add_typed_rules() -> None:
    """The form's callback: add the typed rules before the page is drawn again (so the hints
    below never show a rule just added) and keep what to say for the run that follows."""
    try:
        new = ws.add_rules_text(st.session_state.get("r_rules_text", ""))
        added = rule_groups(new)  # a comparison on a number is one rule of several bins
        said = (True, f"Added {wording.plural(len(added), 'rule')}: " + ", ".join(g for g, _ in added))
        st.session_state["r_rules_text"] = ""  # added: not kept in the draft to add twice
    except Exception as exc:  # ClauseSyntaxError names the line and column
        said = (False, f"The rules could not be read: {exc}")
    st.session_state["r_rules_said"] = said


# open while it holds typed text: its answer (added / the line that could not be read) shows
# inside it, and a message above it coming or going made Streamlit draw it closed again
with st.expander("…or type whole rules (one per line; OR, NOT and brackets allowed)",
                 expanded=bool(st.session_state.get("r_rules_text")
                               or "r_rules_said" in st.session_state), key="r_rules_box"):
    with st.container():  # no st.form: the text is sent as it is left, kept for a refresh
        example, compare = ws.rule_examples()  # distinct, and each one can be added as shown
        st.caption(md(f'IF a=v AND b=w THEN POS [p=0.9, w=5] — typed, each rule with its weight '
                      f'w (a training row brings about {unit:,.3g}); THEN POS means {pos_name} '
                      f'and THEN NOT POS {neg_name}; names or values with spaces or '
                      'symbols in double quotes'
                      + ('' if example is None else f', e.g. {example}')
                      + '. OR gives one clause per alternative.'
                      + ('' if compare is None else
                         f' On a number, compare with one of the model\'s cut points, e.g. '
                         f'{compare}: the rule holds for the bins on that side (a number '
                         'inside a bin is refused, never rounded), and is listed and saved '
                         'as those bins.')))
        st.text_area("Rules", key="r_rules_text", height=110,
                     placeholder=compare or example or "IF a=v THEN POS [p=0.9, w=5]")
        # added before the page is drawn: the hints above never show a rule just added
        st.button("Add these rules", key="r_add_text", on_click=_add_typed_rules)
    ok, said = st.session_state.pop("r_rules_said", (None, ""))
    if ok:
        st.success(md(said))
    elif ok is not None:
        error(said)

st.subheader("Rules in the KB")
if not ws.rules:
    st.info("No rules yet.")
else:
    X_tr, y_tr = ws.part("train")  # "rows": training rows it holds; "in the data": of its class
    frame = rules_frame(ws.rules, ws.ensure_kb(), positive=ws.class_name,  # "note": rules this
                        X=X_tr, is_pos=y_tr.astype(str) == str(ws.positive),  # model cannot use
                        weighed=ws.learner == "weighted")
    for rid_, note in zip(frame["id"], frame["note"]):
        for part in filter(None, note.split(wording.RULE_NOTE_SEP)):  # each said on its own
            warning(f"Rule {rid_}: {part}" if part.startswith(wording.AGAINST_DATA)
                    else f"Rule {rid_} is {part}")
    wrapped_table(frame, max_rows=6,
                  column_config={"rule": st.column_config.TextColumn(width="large"),
                                 "rows": st.column_config.NumberColumn(
                                     help="training rows whose values hold the rule's "
                                     "conditions (an empty cell holds none)"),
                                 "in the data": st.column_config.NumberColumn(
                                     format="%.3f", help="of those rows, the share whose class "
                                     "is the one the rule concludes, as the model learns them"
                                     + (" (the classes weighed as equally common)"
                                        if ws.learner == "weighted" else "")
                                     + ": read it beside p"),
                                 "vs data": st.column_config.NumberColumn(
                                     format="%.3g×", help="w as a multiple of the evidence a "
                                     "training row brings under this model"),
                                 "note": st.column_config.TextColumn(width="large"),
                                 "p": st.column_config.NumberColumn(format="%.3f"),
                                 "w": st.column_config.NumberColumn(format="%.4g")})
    listed = dict(zip(frame["id"], frame["rule"]))  # one entry a rule as written, OR rules too
    rid = st.selectbox("Edit rule", list(listed), key="r_edit_id",
                       format_func=lambda i, listed=listed: f"{i}: {listed[i]}")
    rule = ws.rule(rid)[0]  # p, w and on/off are the whole rule's
    g1, g2, g3 = st.columns(3)
    g1.number_input("p", 0.0, 1.0, float(rule.p), 0.01, key=f"r_edit_p_{rid}")
    g2.number_input("w", 0.001, 1e9, float(rule.w), 1.0, key=f"r_edit_w_{rid}")
    g3.checkbox("enabled", value=all(c.enabled for c in ws.rule(rid)), key=f"r_edit_on_{rid}")
    h1, h2 = st.columns(2)

    def _save(rid: str = rid) -> None:  # callbacks run before the page: one run, fresh tables
        ws.edit_rule(rid, p=st.session_state[f"r_edit_p_{rid}"],
                     w=st.session_state[f"r_edit_w_{rid}"],
                     enabled=st.session_state[f"r_edit_on_{rid}"])

    h1.button("Save changes", key="r_save", on_click=_save)
    h2.button("Delete rule", key="r_delete", on_click=ws.delete_rule, args=(rid,))

keep_draft()  # what the fields hold now: saved for a refresh when it changed
rules_history(ws)

st.subheader("Effect on the test split")


effect = None
with guard("Previewing the rules' effect"):
    n_on = ws.rules_count()[1]
    effect = keep_last("rules-effect", wording.counted(n_on, "enabled rule"), ws.data_key, ws.rules_effect,
                       "Previewing the rules' effect")
with guard("Showing the rules' effect"):
    if effect is not None:
        fx = effect.value
        s0, s1 = fx.before, fx.after
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("F1 without rules", f"{s0['F1']:.3f}")
        d_f1, d_acc = s1["F1"] - s0["F1"], s1["accuracy"] - s0["accuracy"]
        m2.metric("F1 with rules", f"{s1['F1']:.3f}",  # no arrow when nothing changed
                  f"{d_f1:+.3f}" if abs(d_f1) >= 5e-4 else None)
        m3.metric("Accuracy with rules", f"{s1['accuracy']:.3f}",
                  f"{d_acc:+.3f}" if abs(d_acc) >= 5e-4 else None)
        m4.metric("Decisions that flip", f"{len(fx.flips)}")
        if len(fx.flips):
            st.dataframe(fx.flips, width="stretch", height=240)
        if fx.selected_bounds is not None:
            b0, b1 = fx.selected_bounds
            said = [wording.decision_word(x.lower, x.upper, ws.class_name, ws.threshold) for x in (b0, b1)]
            st.markdown(md(f"Selected instance ({fx.selected.title()}): {said[0]} → {said[1]}"))
            figure(bounds_compare([("without rules", b0), ("with rules", b1)], positive=ws.class_name,
                                  threshold=ws.threshold),
                   key="r_effect")
