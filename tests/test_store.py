"""Projects in the database (plx_core.store) and rule-set diffs and merges (plx_core.ruleset)."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import zipfile
from pathlib import Path

import pytest
import sqlalchemy as sa

from plx_core import KB, parse_rules
from plx_core.errors import DataError
from plx_core.ruleset import diff_rules, merge3, merge_rules
from plx_core.store import (
    ConflictError,
    DataRef,
    Store,
    database_url,
    metadata,
    plx_home,
    read_project_file,
)

ROOT = Path(__file__).resolve().parents[1]
FEATS = KB(("a", "b", "c"), {"a": ("1", "2"), "b": ("1", "2"), "c": ("1", "2", "3")})
BUILTIN = DataRef("builtin", "paper-example")


def rules(text: str):
    return parse_rules(text, kb=FEATS)


R1 = "IF a=1 THEN POS [p=0.9, w=5, id=r1]"
R2 = "IF b=2 OR c=3 THEN NOT POS [p=0.8, w=2, id=r2]"
R3 = "IF c=1 THEN POS [p=0.7, w=10, id=r3]"


@pytest.fixture
def store(tmp_path):
    s = Store(home=tmp_path)
    yield s
    s.close()


# --------------------------------------------------------------------------- where


def test_data_folder_from_env_and_argument(tmp_path, monkeypatch):
    monkeypatch.delenv("PLX_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLX_HOME", str(tmp_path / "home"))
    assert plx_home() == tmp_path / "home"
    assert database_url() == f"sqlite:///{tmp_path / 'home' / 'plx.db'}"
    assert database_url(tmp_path / "x").endswith("/x/plx.db")
    monkeypatch.setenv("PLX_DATABASE_URL", f"sqlite:///{tmp_path / 'team.db'}")
    s = Store()
    s.create("p", BUILTIN)
    s.close()
    assert (tmp_path / "team.db").is_file() and not (tmp_path / "home").exists()


def test_sqlite_runs_in_wal_mode(store, tmp_path):
    store.create("p", BUILTIN)
    with sqlite3.connect(tmp_path / "plx.db") as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_schema_compiles_for_postgresql():
    """The same tables as PostgreSQL DDL: portable types, named constraints, cascades."""
    ddl: list[str] = []
    engine = sa.create_mock_engine("postgresql+psycopg://",
                                   lambda sql, *a, **k: ddl.append(str(sql.compile(dialect=engine.dialect))))
    metadata.create_all(engine, checkfirst=False)
    text = "\n".join(ddl)
    assert {"plx_projects", "plx_rule_versions", "plx_notes", "plx_blobs", "plx_meta"} <= set(metadata.tables)
    assert "BYTEA" in text and "TIMESTAMP WITH TIME ZONE" in text and "JSON" in text
    assert "SERIAL" in text  # autoincrement ids
    assert "ON DELETE CASCADE" in text
    assert "CONSTRAINT uq_plx_rule_versions_project_n UNIQUE (project_id, n)" in text
    assert "BLOB" not in text and "DATETIME" not in text


# --------------------------------------------------------------------------- projects


def test_create_list_rename_duplicate_delete(store):
    a = store.create("Diagnosis", BUILTIN, settings={"label": "class"}, kb={"kind": "direct"},
                     rules=rules(R1), author="Ann")
    b = store.create("Upload", DataRef("upload", "cells.csv", {"header": True}),
                     data_bytes=b"a,b\n1,2\n")
    assert [p.name for p in store.list_projects()] == ["Upload", "Diagnosis"]
    with pytest.raises(DataError, match="already a project named 'Diagnosis'"):
        store.create("Diagnosis", BUILTIN)
    with pytest.raises(DataError, match="already a project named 'Upload'"):
        store.rename(a.id, " Upload ")
    assert store.rename(a.id, "Diagnosis v2").name == "Diagnosis v2"
    c = store.duplicate(a.id, author="Bob")
    assert c.name == "Diagnosis v2 (copy)"
    pc = store.get(c.id)
    assert [r.to_text() for r in pc.rules] == [r.to_text() for r in store.get(a.id).rules]
    assert pc.settings == {"label": "class"} and pc.kb == {"kind": "direct"}
    assert store.history(c.id)[0].note == "copied from 'Diagnosis v2' version 1"
    store.delete(a.id)
    assert {p.name for p in store.list_projects()} == {"Upload", "Diagnosis v2 (copy)"}
    with pytest.raises(DataError, match="no project"):
        store.get(a.id)
    # the duplicate keeps its own rules after the original is gone
    assert len(store.get(c.id).rules) == 1
    assert store.blob(store.get(b.id).data_sha) == b"a,b\n1,2\n"


@pytest.mark.parametrize("name, msg", [("", "empty"), ("  ", "empty"), ("x" * 201, "201 characters"),
                                       ("a\nb", "line break"), (3, "must be text")])
def test_bad_project_names_are_refused(store, name, msg):
    with pytest.raises(DataError, match=msg):
        store.create(name, BUILTIN)


def test_upload_bytes_are_kept_once_and_dropped_with_the_last_user(store, tmp_path):
    data = b"x,y\n" + b"1,0\n" * 1000
    p = store.create("one", DataRef("upload", "f.csv"), data_bytes=data)
    q = store.duplicate(p.id)
    with sqlite3.connect(tmp_path / "plx.db") as con:
        assert con.execute("select count(*) from plx_blobs").fetchone()[0] == 1
    store.delete(p.id)
    assert store.blob(store.get(q.id).data_sha) == data
    store.delete(q.id)
    with sqlite3.connect(tmp_path / "plx.db") as con:
        assert con.execute("select count(*) from plx_blobs").fetchone()[0] == 0


def test_settings_save_checks_the_version(store):
    p = store.create("p", BUILTIN, settings={"bins": 3})
    v2 = store.save(p.id, 1, settings={"bins": 4}, author="Ann")
    assert v2.version == 2 and store.get(p.id).settings == {"bins": 4}
    with pytest.raises(ConflictError, match=r"saved by Ann at .*\(version 2\) after you loaded version 1"):
        store.save(p.id, 1, settings={"bins": 5}, author="Bob")
    assert store.get(p.id).settings == {"bins": 4}
    with pytest.raises(DataError, match="JSON"):
        store.save(p.id, 2, settings={"x": float("nan")})
    assert store.get(p.id).version == 2


# --------------------------------------------------------------------------- rules history


def test_history_records_who_when_why_and_what(store):
    p = store.create("p", BUILTIN)
    v1 = store.save_rules(p.id, rules(R1 + "\n" + R2), 0, author="Ann", note="from the clinic")
    changed = [r if r.id != "r1" else r.__class__(r.literals, r.p, 50.0, r.source, id=r.id,
                                                    enabled=False) for r in store.get(p.id).rules]
    v2 = store.save_rules(p.id, changed, v1.n, author="Bob")
    v3 = store.save_rules(p.id, [r for r in changed if not r.id.startswith("r2")] + rules(R3),
                          v2.n, author="Ann", note="r2 was wrong")
    hist = store.history(p.id)
    assert [h.n for h in hist] == [3, 2, 1]
    assert [h.author for h in hist] == ["Ann", "Bob", "Ann"]
    assert hist[0].note == "r2 was wrong" and hist[2].note == "from the clinic"
    assert hist[2].summary == "added r1, r2"
    assert hist[1].summary == "changed r1 (w 5 → 50, disabled)"
    assert hist[0].summary == "added r3; removed r2"
    assert hist[0].created >= hist[1].created >= hist[2].created
    assert v3.n_rules == 2
    # saving the same rules again adds no version
    assert store.save_rules(p.id, store.get(p.id).rules, 3).n == 3
    assert len(store.history(p.id)) == 3


def test_history_counts_rules_as_typed_not_their_clauses(store):
    # a range on a binned number is one clause per bin and an OR rule one per part; the history's
    # "rules" column counts what the user typed
    kb = KB(("crp", "a"), {"crp": ("<10", "[10, 30)", "[30, 50)", "[50, 70)", "≥70"), "a": ("1", "2")})
    p = store.create("p", BUILTIN)
    typed = parse_rules("IF crp >= 30 THEN POS [p=0.9, w=5]\nIF a=1 OR a=2 THEN NOT POS [p=0.7]", kb)
    assert len(typed) == 5
    v1 = store.save_rules(p.id, typed, 0, author="Ann")
    more = typed + parse_rules("IF a=1 THEN POS [p=0.6, id=lab.v2]", kb.with_rules(typed))
    v2 = store.save_rules(p.id, more, v1.n, author="Ann")
    assert (v1.n_rules, v2.n_rules) == (2, 3)
    assert [h.n_rules for h in store.history(p.id)] == [3, 2]
    assert store.history(p.id)[0].summary == "added lab.v2"


def test_any_version_can_be_restored_and_history_is_kept(store):
    p = store.create("p", BUILTIN)
    store.save_rules(p.id, rules(R1), 0, author="Ann")
    store.save_rules(p.id, rules(R1 + "\n" + R2), 1, author="Ann")
    store.save_rules(p.id, [], 2, author="Bob", note="start over")
    assert store.get(p.id).rules == ()
    v = store.restore(p.id, 2, 3, author="Ann")
    assert v.n == 4 and v.note == "restored version 2"
    now = store.get(p.id)
    assert [r.to_text() for r in now.rules] == [r.to_text() for r in store.rules_at(p.id, 2)]
    assert len(now.rules) == 3 and {r.id for r in now.rules} == {"r1", "r2.1", "r2.2"}
    assert [h.n for h in store.history(p.id)] == [4, 3, 2, 1]
    assert store.rules_at(p.id, 0) == ()


def test_second_save_is_told_and_can_keep_both(store):
    p = store.create("p", BUILTIN, rules=rules(R1 + "\n" + R2))
    # two sessions load version 1
    base = store.get(p.id)
    ann = [r.__class__(r.literals, r.p, 99.0, r.source, id=r.id) if r.id == "r1" else r
           for r in base.rules]
    bob = list(base.rules) + rules(R3)
    store.save_rules(p.id, ann, base.rules_version, author="Ann")
    with pytest.raises(ConflictError) as exc:
        store.save_rules(p.id, bob, base.rules_version, author="Bob")
    assert exc.value.by == "Ann" and exc.value.current == 2 and exc.value.base == 1
    assert "reload them, or keep both" in str(exc.value)
    # Bob keeps both: a three-way merge over the version both started from
    theirs = store.get(p.id)
    merged = merge3(base.rules, theirs.rules, bob)
    assert merged.both_changed == ()
    store.save_rules(p.id, merged.rules, theirs.rules_version, author="Bob", note="kept both")
    final = {r.id: r for r in store.get(p.id).rules}
    assert final["r1"].w == 99.0 and "r3" in final and "r2.1" in final


def test_concurrent_saves_from_one_version_exactly_one_wins(tmp_path):
    s1, s2 = Store(home=tmp_path), Store(home=tmp_path)  # two server processes' engines
    p = s1.create("p", BUILTIN)
    results: list[object] = []
    barrier = threading.Barrier(8)

    def save(i: int) -> None:
        st = s1 if i % 2 else s2
        barrier.wait()
        try:
            results.append(st.save_rules(p.id, rules(f"IF a=1 THEN POS [p=0.{i + 1}, id=r1]"), 0,
                                         author=f"user{i}"))
        except ConflictError as exc:
            results.append(exc)

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wins = [r for r in results if not isinstance(r, ConflictError)]
    assert len(wins) == 1 and len(results) == 8
    assert [h.author for h in s1.history(p.id)] == [wins[0].author]
    s1.close()
    s2.close()


def test_notes_on_cases_are_versioned(store):
    p = store.create("p", BUILTIN)
    n1 = store.set_note(p.id, "test row 12", "Looks benign; check the biopsy.", 0, author="Ann")
    assert n1.version == 1
    with pytest.raises(ConflictError, match="note"):
        store.set_note(p.id, "test row 12", "other", 0, author="Bob")
    store.set_note(p.id, "test row 12", "Biopsy: benign.", 1, author="Bob")
    got = store.notes(p.id)["test row 12"]
    assert got.text == "Biopsy: benign." and got.author == "Bob" and got.version == 2
    store.set_note(p.id, "test row 12", "", 2)
    assert store.notes(p.id) == {}
    with pytest.raises(DataError, match="characters"):
        store.set_note(p.id, "x", "y" * 20_001, 0)


def test_app_settings_remember_values(store):
    assert store.get_setting("author") is None
    store.put_setting("author", "Ann")
    store.put_setting("author", "Bob")
    assert store.get_setting("author") == "Bob"


# --------------------------------------------------------------------------- project files


def test_export_import_round_trip(store):
    data = b"a,b,c,label\n1,2,3,yes\n" * 10
    p = store.create("Cells", DataRef("upload", "cells.csv", {"header": True, "missing": ["?"]}),
                     data_bytes=data, settings={"label": "label", "positive": "yes"},
                     kb={"kind": "tree", "max_depth": 3}, kb_json=b'{"format": "plx-kb"}')
    store.save_rules(p.id, rules(R1), 0, author="Ann", note="first")
    store.save_rules(p.id, rules(R1 + "\n" + R2), 1, author="Bob")
    store.set_note(p.id, "test row 3", "odd values", 0, author="Ann")
    blob = store.export_project(p.id)
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        names = set(z.namelist())
        doc = json.loads(z.read("project.json"))
        assert "IF" not in z.read("rules.txt").decode() and "id=r2.1" in z.read("rules.txt").decode()
    assert {"project.json", "rules.txt", "history/0001.txt", "history/0002.txt", "data/file",
            "kb.json"} == names
    assert doc["format"] == "plx-project" and doc["version"] == 1
    q = store.import_project(blob)
    assert q.name == "Cells (2)"
    got, orig = store.get(q.id), store.get(p.id)
    assert [r.to_text() for r in got.rules] == [r.to_text() for r in orig.rules]
    assert got.settings == orig.settings and got.kb == orig.kb
    assert store.blob(got.data_sha) == data and store.blob(got.kb_sha) == b'{"format": "plx-kb"}'
    assert got.info.data == orig.info.data
    assert [(h.n, h.author, h.note, h.summary) for h in store.history(q.id)] == \
        [(h.n, h.author, h.note, h.summary) for h in store.history(p.id)]
    assert store.notes(q.id)["test row 3"].text == "odd values"
    # and into another database
    other = Store("sqlite://")
    r = other.import_project(blob, name="Copy")
    assert [x.to_text() for x in other.get(r.id).rules] == [x.to_text() for x in orig.rules]


def _zip(files: dict[str, bytes | str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for k, v in files.items():
            z.writestr(k, v)
    return out.getvalue()


def _doc(**over) -> str:
    doc = {"format": "plx-project", "version": 1, "name": "P",
           "data": {"source": "builtin", "name": "paper-example"}, "settings": {}, "kb": {},
           "rules": "rules.txt"}
    doc.update(over)
    return json.dumps(doc)


@pytest.mark.parametrize("files, msg", [
    ({"x.txt": "hello"}, "it has no project.json"),
    ({"project.json": "[1, 2"}, "project.json is not valid JSON"),
    ({"project.json": _doc(format="plx-kb"), "rules.txt": ""}, "field 'format' must be 'plx-project'"),
    ({"project.json": _doc(version=2), "rules.txt": ""}, "field 'version' must be 1"),
    ({"project.json": _doc(name="a\nb"), "rules.txt": ""}, "field 'name'.*line break"),
    ({"project.json": _doc(), "rules.txt": "[0.9, src=rule] POS | ~a=1\n[2] POS\n"}, "rules.txt, line 2"),
    ({"project.json": _doc(), "rules.txt": "[0.9] POS | ~a=1\n"}, "source is 'data', not 'rule'"),
    ({"project.json": _doc(rules="../../etc/passwd")}, "names '../../etc/passwd', which is not in the zip"),
    ({"project.json": _doc(data={"source": "upload", "name": "f.csv", "file": "data/file",
                                 "sha256": "0" * 64}), "rules.txt": "", "data/file": "a,b"},
     "does not match its data.sha256"),
    ({"project.json": _doc(data={"source": "pickle", "name": "x"}), "rules.txt": ""},
     "data source 'pickle' is not one of"),
    ({"project.json": _doc(history=[{"file": "rules.txt", "created": "yesterday"}]), "rules.txt": ""},
     "history\\[0\\].created 'yesterday' is not an ISO date-time"),
    ({"project.json": "[" * 100_000 + "]" * 100_000}, "not valid JSON"),
])
def test_bad_project_files_name_the_problem(store, files, msg):
    with pytest.raises(DataError, match=msg):
        store.import_project(_zip(files))
    assert store.list_projects() == []


def test_project_file_limits_are_checked_before_reading(store):
    with pytest.raises(DataError, match="not a zip file"):
        read_project_file(b"PK\x03\x04 not really")
    with pytest.raises(DataError, match="not a zip file"):
        read_project_file(b"\x80\x04\x95pickle")
    # a zip bomb: the directory says 300 MB; refused from the directory alone, before reading
    z = _zip({"project.json": _doc(), "rules.txt": "", "data/file": b"0"})
    cd = z.rindex(b"PK\x01\x02")  # the central directory entry of data/file
    bomb = z[:cd + 24] + (300 << 20).to_bytes(4, "little") + z[cd + 28:]
    with pytest.raises(DataError, match="unpacks to 314,572,\\d+ bytes; at most 200,000,000"):
        read_project_file(bomb)
    # one that lies the other way (says 1 byte, holds 5 MB): reading stops at what it declared
    big = _zip({"project.json": _doc(), "rules.txt": "[0.9, src=rule] POS | ~a=1\n" * 200_000})
    cd = big.rindex(b"PK\x01\x02")
    liar = big[:cd + 24] + (10).to_bytes(4, "little") + big[cd + 28:]
    with pytest.raises(DataError, match="not a valid plx project file"):
        read_project_file(liar)


# --------------------------------------------------------------------------- crashes

CHILD = textwrap.dedent("""
    import os, sys
    from plx_core import KB, parse_rules
    from plx_core.store import Store, DataRef
    kb = KB(("a", "b"), {"a": tuple(map(str, range(1, 400))), "b": ("1", "2")})
    s = Store(home=sys.argv[1])
    p = s.find("p") or s.create("p", DataRef("builtin", "paper-example"))
    mode = sys.argv[2]
    n = s.get(p.id).rules_version
    while True:
        text = "\\n".join(f"IF a={i} AND b=2 THEN POS [p=0.5, w={n + 1}.{i}, id=r{i}]" for i in range(1, 400))
        if mode == "slow" and n == 1:
            os.environ["PLX_FAULT_SLOW_SAVE"] = "60"
            print("saving", n + 1, flush=True)
        v = s.save_rules(p.id, parse_rules(text, kb=kb), n, author="child")
        n = v.n
        print("committed", n, flush=True)
""")


def wait_for_writer(db: Path, timeout: float = 60.0) -> None:
    """Return once another process holds the database's write lock (inside a save)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        con = sqlite3.connect(db, timeout=0, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")
            con.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):
                return
            raise
        finally:
            con.close()
        time.sleep(0.05)  # polling another process's lock (nothing to wait on)
    raise TimeoutError("no save started")


def _check_db(home: Path) -> tuple[int, Store]:
    with sqlite3.connect(home / "plx.db") as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    s = Store(home=home)
    p = s.find("p")
    head = s.get(p.id)
    hist = s.history(p.id)
    assert [h.n for h in hist] == list(range(head.rules_version, 0, -1))  # no gap, no orphan
    for h in hist[:3]:
        assert len(s.rules_at(p.id, h.n)) == h.n_rules == 399
    return head.rules_version, s


def _child(home: Path, mode: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD, str(home), mode], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.slow
def test_sigkill_during_a_save_keeps_the_last_committed_version(tmp_path):
    """The process dies inside the save's transaction (rows written, commit pending)."""
    proc = _child(tmp_path, "slow")
    try:
        assert proc.stdout.readline().split() == ["committed", "1"]
        assert proc.stdout.readline().split() == ["saving", "2"]
        wait_for_writer(tmp_path / "plx.db")  # the save's transaction is open
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    head, s = _check_db(tmp_path)
    assert head == 1
    p = s.find("p")
    assert {r.w for r in s.get(p.id).rules} == {float(f"1.{i}") for i in range(1, 400)}
    assert s.save_rules(p.id, [], 1, author="after").n == 2  # and it takes new saves
    s.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_of_saving(tmp_path):
    for _ in range(2):
        proc = _child(tmp_path, "loop")
        try:
            line = proc.stdout.readline()
            for _ in range(5):
                line = proc.stdout.readline()
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        last = int(line.split()[1])
        head, s = _check_db(tmp_path)
        assert head >= last  # what was reported committed is there
        s.close()


# --------------------------------------------------------------------------- rule sets


def test_diff_names_an_or_rule_changed_whole_once():
    """A comparison on a number is one rule kept as the OR of its bins: disabling it is one
    change in the history ("changed r1 (disabled)"), not one a bin; parts changed unlike
    each other are named each."""
    from dataclasses import replace as changed

    from plx_core.kb import POS, Literal, WeightedClause

    parts = [WeightedClause((Literal(POS, None, False), Literal("crp", v, True)), 0.9, 5.0,
                            "rule", id=f"r1.{i}") for i, v in enumerate(["[50, 80)", "≥80"], 1)]
    off = [changed(c, enabled=False) for c in parts]
    assert diff_rules(parts, off).summary() == "changed r1 (disabled)"
    mixed = [off[0], changed(parts[1], w=2.0)]
    assert diff_rules(parts, mixed).summary() == "changed r1.1 (disabled); changed r1.2 (w 5 → 2)"


def test_diff_names_what_changed():
    a = rules(R1 + "\n" + R2)
    b = [a[0].__class__(a[0].literals, 0.5, a[0].w, "rule", id="r1")] + rules(R3)
    d = diff_rules(a, b)
    assert d.summary() == "added r3; changed r1 (p 0.9 → 0.5); removed r2"
    assert not diff_rules(a, a) and diff_rules(a, a).summary() == "no change"


def test_merge_keeps_current_and_adds_new_rules():
    current = rules(R1 + "\n" + R2)
    incoming = parse_rules(R1 + "\n" + "IF a=2 OR b=1 THEN POS [p=0.6, id=r2]\n" + R3, kb=None)
    merged = merge_rules(current, incoming)
    assert [r.to_text() for r in merged[:3]] == [r.to_text() for r in current]  # untouched
    added = merged[3:]
    assert [r.id for r in added] == ["r4.1", "r4.2", "r3"]  # r2 was taken: the OR rule moves as one
    assert merge_rules(current, []) == current  # importing no rules never wipes them


def test_merge3_keeps_both_sides():
    base = rules(R1 + "\n" + R3)
    mk = lambda r, **kw: r.__class__(r.literals, kw.get("p", r.p), kw.get("w", r.w), "rule",  # noqa: E731
                                     id=r.id, enabled=kw.get("enabled", r.enabled))
    theirs = [mk(base[0], w=7.0), base[1]]  # edited r1
    mine = [base[0]] + rules(R2)  # deleted r3, added r2
    m = merge3(base, theirs, mine)
    assert {r.id: r.w for r in m.rules} == {"r1": 7.0, "r2.1": 2.0, "r2.2": 2.0}
    # both edited r1 differently: theirs stays r1, mine comes back under a new id
    m2 = merge3(base, [mk(base[0], w=7.0), base[1]], [mk(base[0], w=8.0), base[1]])
    assert m2.both_changed == ("r1",)
    assert [(r.id, r.w) for r in m2.rules] == [("r1", 7.0), ("r3", 10.0), ("r2", 8.0)]
    # deleted by them, edited by me: the edit is kept
    m3 = merge3(base, [base[1]], [mk(base[0], p=0.2), base[1]])
    assert {r.id: r.p for r in m3.rules} == {"r3": 0.7, "r1": 0.2}


def test_one_shared_store_per_url(tmp_path):
    url = f"sqlite:///{tmp_path / 'a.db'}"
    assert Store.shared(url) is Store.shared(url)
    assert Store.shared(f"sqlite:///{tmp_path / 'b.db'}") is not Store.shared(url)


@pytest.mark.parametrize("spoil, hint", [
    (lambda db: db.write_bytes(bytes(range(256)) * 20), "damaged or is not a plx database"),
    (lambda db: db.write_bytes(db.read_bytes()[: len(db.read_bytes()) // 2]),
     "damaged or is not a plx database"),
    (lambda db: (db.unlink(), sqlite3.connect(db).execute("create table plx_projects(x)")),
     "damaged or is not a plx database"),
])
def test_a_damaged_or_foreign_database_is_one_line_naming_it(tmp_path, spoil, hint):
    """fuzz17: SQLAlchemy's DatabaseError (several lines and a web link) or, for some damaged
    bytes, a UnicodeDecodeError the app did not catch; now one DataError naming the file."""
    Store(home=tmp_path).close()
    for extra in ("plx.db-wal", "plx.db-shm"):
        (tmp_path / extra).unlink(missing_ok=True)
    spoil(tmp_path / "plx.db")
    with pytest.raises(DataError, match=hint) as got:
        Store(home=tmp_path).list_projects()
    assert "\n" not in str(got.value) and "plx.db" in str(got.value)


@pytest.mark.parametrize("home, why", [
    (lambda t: (t / "a-file").write_text("x") and t / "a-file", "folder '.*a-file' cannot be made "
                                                                 r"\(it is a file\)"),
    (lambda t: (t / "a-file").write_text("x") and t / "a-file" / "sub", "Not a directory"),
    (lambda t: (t / "plx.db").mkdir() or t, "cannot open or write the file there"),
], ids=["home is a file", "home under a file", "plx.db is a folder"])
def test_a_data_folder_plx_cannot_use_is_one_line_naming_it(tmp_path, home, why):
    """trust23: a PLX_HOME that is a file raised the OSError's own words ("[Errno 17] File
    exists"), which the dashboard showed as the reason work was not saved."""
    with pytest.raises(DataError, match=why) as got:
        Store(home=home(tmp_path)).list_projects()
    assert "\n" not in str(got.value) and "set PLX_HOME to a folder you can write" in str(got.value)


@pytest.mark.parametrize("value, message", [
    ("'{\"lab'", "cannot be used .*damaged"), ("X'c3'", "cannot be used .*damaged"),
    ("'[1, 2]'", "settings in the database must be a JSON object"),
])
def test_a_damaged_project_row_is_one_line(tmp_path, value, message):
    """fuzz17: a byte-flipped settings column raised the JSON decoder's own error (or a
    TypeError for a list), which the dashboard's store guard does not catch."""
    from plx_app.service.projects import first_project

    s = Store(home=tmp_path)
    pid = first_project(s, None)
    s.close()
    with sqlite3.connect(tmp_path / "plx.db") as con:
        con.execute(f"update plx_projects set settings = {value}")
    s = Store(home=tmp_path)
    with pytest.raises(DataError, match=message):
        s.list_projects()
        s.get(pid)


def test_a_database_that_counted_clauses_is_recounted_as_rules_once(tmp_path):
    # versions saved before the history counted rules as typed kept their clauses' count (an
    # OR rule of 2 parts and a range over 3 bins: 5); opening the database reads them anew
    kb = KB(("crp", "a"), {"crp": ("<10", "[10, 30)", "[30, 50)", "[50, 70)", "≥70"), "a": ("1", "2")})
    typed = parse_rules("IF crp >= 30 THEN POS [p=0.9, w=5]\nIF a=1 OR a=2 THEN NOT POS [p=0.7]", kb)
    s = Store(home=tmp_path)
    p = s.create("p", BUILTIN)
    s.save_rules(p.id, typed, 0, author="Ann")
    s.close()
    with sqlite3.connect(tmp_path / "plx.db") as con:  # as the older plx left it
        con.execute("UPDATE plx_rule_versions SET n_rules = 5")
        con.execute("DELETE FROM plx_meta WHERE key = 'rules-counted'")
    old = Store(home=tmp_path)
    assert [h.n_rules for h in old.history(p.id)] == [2]
    old.close()
    with sqlite3.connect(tmp_path / "plx.db") as con:  # once: a later count is not redone
        con.execute("UPDATE plx_rule_versions SET n_rules = 7")
    again = Store(home=tmp_path)
    assert [h.n_rules for h in again.history(p.id)] == [7]
    again.close()
