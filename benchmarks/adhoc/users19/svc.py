import dataclasses

from plx_app.service import projects as pj
from plx_app.service.kbs import KBSettings
from plx_app.service.tables import read_upload
from plx_app.service.workspace import new_workspace
from plx_core.store import Store

"""The dashboard's service path on make.py's table: upload, build, query a row with unknowns,
add rules (a value the column lacks, a misspelt column), compare KBs, save and reopen."""
raw = read_upload(open("train.csv", "rb").read(), "train.csv")
print(raw.defaults)
s = dataclasses.replace(raw.defaults, label="outcome", positive="sepsis")
ws = new_workspace(raw, s)
kb = ws.ensure_kb()
print("kb", len(kb), ws.kb_name, ws.domains())
q = ws.query({"age": "[56, 58)" if "[56, 58)" in ws.domains()["age"] else ws.domains()["age"][-1]})
print("query with unknowns", q.lower, q.upper, ws.decision_word(q))
for cond in [[("ward", "icu")], [("Ward", "cardio")], [("crp", ">= 100")], [("ward", "cardio")]]:
    r, pr = ws.add_rule(cond, "POS", 0.9, 20)
    print(cond, r and r.id, pr)
try:
    print(ws.add_rules_text("IF ward=icu THEN POS [p=0.9, w=5]"))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(ws.add_rules_text("IF crp >= 100 THEN POS [p=0.9, w=5]"))
except Exception as e:
    print(type(e).__name__, e)
views = ws.comparison_views()
print("compare", [getattr(v, "name", v) for v in views][:5])
ws.set_kb(KBSettings(kind="tree")) if "kind" in KBSettings.__dataclass_fields__ else None
print(KBSettings.__dataclass_fields__.keys())
st = Store(home="/tmp/u19/home")
pid = pj.create_project(st, "clinic", raw, s)
ws2, link, notes = pj.open_project(st, pid)
print("notes", notes)
ws2.kb_settings = ws.kb_settings
ws2.rules = list(ws.rules)
print(pj.sync(ws2, link, "me", "first"))
ws3, link3, notes3 = pj.open_project(st, pid)
print(
    "back rules",
    [(r.id, str(r)) for r in ws3.rules],
    "settings same",
    ws3.settings == ws2.settings,
    ws3.kb_settings == ws2.kb_settings,
    notes3,
)
