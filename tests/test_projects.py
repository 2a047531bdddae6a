"""The dashboard's saved projects without Streamlit (plx_app.service.projects): what a page
changes is saved, comes back in a new session, and a second session is told, not overwritten."""

from __future__ import annotations

from dataclasses import replace

import pytest

from plx_app.service import KBSettings, parse_conditions, read_upload, rule_clause, use_data
from plx_app.service.projects import (
    case_key,
    create_project,
    first_project,
    keep_both,
    newer,
    open_project,
    restore,
    sync,
)
from plx_core.errors import DataError
from plx_core.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store(home=tmp_path)
    yield s
    s.close()


def _rule(ws, text: str, rid: str, w: float = 50.0):
    return rule_clause(parse_conditions(text), "POS", 0.9, w, rid)


def _cond(ws) -> str:
    f = ws.features[0]
    return f"{f}={ws.domains()[f][0]}"


def test_first_start_opens_a_project_on_the_default_data(store):
    pid = first_project(store)
    ws, lk, notes = open_project(store, pid)
    assert notes == [] and lk.name == "My project" and ws.kb is not None
    assert ws.dataset.name == "breast-cancer-wisconsin" and ws.rules == []
    assert first_project(store) == pid  # the last project opened, not a new one
    assert first_project(store, "nonsense") == pid and first_project(store, 999) == pid


def test_rules_and_settings_survive_a_new_session(store):
    pid = first_project(store)
    ws, lk, _ = open_project(store, pid)
    ws.rules.append(_rule(ws, _cond(ws), "r1"))
    assert sync(ws, lk, "Ann", "seen in clinic")[0].startswith("rules version 1")
    ws.set_kb(KBSettings(kind="tree", max_depth=3))
    assert sync(ws, lk, "Ann") == ["data and settings"]
    assert sync(ws, lk, "Ann") == []  # nothing changed: nothing saved
    # a browser refresh or a server restart: a new session opens the same project
    ws2, lk2, notes = open_project(store, first_project(store))
    assert notes == []
    assert [r.to_text() for r in ws2.rules] == [r.to_text() for r in ws.rules]
    assert ws2.kb_settings == KBSettings(kind="tree", max_depth=3) and ws2.kb.kind.startswith("tree")
    h = store.history(pid)[0]
    assert (h.author, h.note, h.summary) == ("Ann", "seen in clinic", "added r1")


def test_an_upload_is_kept_in_the_project(store):
    csv = b"colour,size,label\n" + b"".join(
        f"{c},{s},{'yes' if (i % 3) else 'no'}\n".encode()
        for i, (c, s) in enumerate([("red", "big"), ("blue", "small"), ("red", "small")] * 10))
    raw = read_upload(csv, "fruit.csv", missing=("?",))
    pid = create_project(store, "Fruit", None)  # starts on the default data
    ws, lk, _ = open_project(store, pid)
    use_data(ws, raw, replace(raw.defaults, positive="yes"))  # the Data page's upload
    ws.ensure_kb()
    assert sync(ws, lk, "Ann") == ["data and settings"]
    ws2, _, notes = open_project(store, pid)
    assert notes == [] and ws2.raw.file == csv and ws2.positive == "yes"
    assert ws2.raw.options["missing"] == ["?"] or tuple(ws2.raw.options["missing"]) == ("?",)
    assert list(ws2.features) == list(ws.features)


def test_an_upload_in_another_encoding_is_read_again_in_it(store):
    # a Windows-1252 export chosen as such on the Data page: the project reads it the same way
    text = "Geschlecht;Station;Ergebnis\n" + "".join(
        f"{g};{s};{'Ja' if i % 3 else 'Nein'}\n"
        for i, (g, s) in enumerate([("männlich", "Süd"), ("weiblich", "Nord")] * 10))
    data = text.encode("cp1252")
    with pytest.raises(DataError, match="reads 'männlich' as Windows-1252"):
        read_upload(data, "klinik.csv")
    with pytest.raises(DataError, match="encoding must be one of"):
        read_upload(data, "klinik.csv", encoding="rot13")
    raw = read_upload(data, "klinik.csv", encoding="cp1252")
    assert set(raw.frame["Geschlecht"]) == {"männlich", "weiblich"}
    # said as what it is: Windows-1252 is not Latin-1 (the page offers that one apart)
    assert raw.description.endswith(" Read as Windows-1252 text."), raw.description
    assert read_upload(data, "klinik.csv", encoding="latin-1").description.endswith(
        " Read as ISO-8859-1 text.")
    pid = create_project(store, "Klinik", None)
    ws, lk, _ = open_project(store, pid)
    use_data(ws, raw, replace(raw.defaults, positive="Ja"))
    ws.ensure_kb()
    assert sync(ws, lk, "Ann") == ["data and settings"]
    ws2, _, notes = open_project(store, pid)
    assert notes == [] and ws2.raw.options["encoding"] == "cp1252"
    assert set(ws2.raw.frame["Station"]) == {"Süd", "Nord"}


def test_two_sessions_the_second_is_told_and_keeps_both(store):
    pid = first_project(store)
    a, la, _ = open_project(store, pid)
    b, lb, _ = open_project(store, pid)
    f, vals = a.features[0], a.domains()[a.features[0]]
    a.rules.append(_rule(a, f"{f}={vals[0]}", "r1"))
    sync(a, la, "Ann")
    assert newer(lb).startswith("This project was saved in another session by Ann")
    b.rules.append(_rule(b, f"{f}={vals[1]}", "r1", w=10.0))  # the same id, other rule
    assert sync(b, lb, "Bob") == [] and lb.conflict is not None
    assert lb.conflict.by == "Ann"
    assert [r.w for r in store.get(pid).rules] == [50.0]  # Ann's save was not overwritten
    b, lb, msg = keep_both(b, lb, "Bob")
    assert msg.startswith("Merged: rules version 2")
    saved = store.get(pid).rules
    assert sorted(r.w for r in saved) == [10.0, 50.0] and len({r.id for r in saved}) == 2
    assert [r.to_text() for r in b.rules] == [r.to_text() for r in saved]


def test_restore_and_import_merge(store):
    pid = first_project(store)
    ws, lk, _ = open_project(store, pid)
    ws.rules.append(_rule(ws, _cond(ws), "r1"))
    sync(ws, lk, "Ann")
    ws.rules.clear()
    sync(ws, lk, "Ann")
    v = restore(ws, lk, 1, "Ann")
    assert v.n == 3 and [r.id for r in ws.rules] == ["r1"]
    # importing a KB without rules keeps the project's rules when merging ...
    kb_json = ws.kb.without_rules().to_json()
    ws.import_kb(kb_json, rules="merge")
    assert [r.id for r in ws.rules] == ["r1"]
    sync(ws, lk, "Ann")
    ws2, _, _ = open_project(store, pid)
    assert [r.id for r in ws2.rules] == ["r1"] and ws2.kb_note.startswith("imported")
    # ... and replaces them only when asked
    ws.import_kb(kb_json, rules="replace")
    assert ws.rules == []


def test_case_keys_name_the_row_or_the_values(store):
    ws, _, _ = open_project(store, first_project(store))
    from plx_app.service import instance_from_row

    inst = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    assert case_key(inst) == f"test row {ws.X_test.index[0]}"
