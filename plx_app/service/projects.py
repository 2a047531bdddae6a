"""The session's saved project: open a project into a Workspace, save what changed, and
resolve a save that another session beat (reload, or keep both).

No Streamlit here. `app.py` calls `sync` after every page run, so every change a page makes to
the workspace (rules added, edited, deleted or imported, data or KB settings) is saved in the
same run, with the version it started from (`plx_core.store`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from plx_core.clause import WeightedClause
from plx_core.data import MISSING_MARKERS
from plx_core.errors import DataError
from plx_core.plurals import noun
from plx_core.report import rule_authors
from plx_core.rules import list_rules
from plx_core.ruleset import merge3
from plx_core.store import (
    MAX_CASE_KEY,
    ConflictError,
    DataRef,
    Project,
    RulesVersion,
    Store,
    rules_to_text,
)

from .instances import Instance, instance_from_row
from .kbs import KBSettings
from .tables import DEFAULT_NAME, DataSettings, RawTable, raw_builtin, raw_shared, read_upload
from .workspace import Workspace, new_workspace

LAST = "last_project"
AUTHOR = "author"
FIRST_NAME = "My project"


# --------------------------------------------------------------------------- settings as JSON


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _tuples(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v)
    return v


def settings_dict(s: DataSettings | KBSettings) -> dict[str, Any]:
    """Settings as a JSON object (tuples as lists)."""
    return {k: _plain(v) for k, v in dataclasses.asdict(s).items()}


def settings_from(cls: type, d: Mapping[str, Any]) -> Any:
    """`DataSettings` / `KBSettings` from a JSON object; unknown or mistyped fields are named."""
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(d) - names)
    if unknown:
        raise DataError(f"unknown {cls.__name__} {noun(len(unknown), 'field')} {unknown}")
    try:
        return cls(**{k: _tuples(v) for k, v in d.items()})
    except TypeError as exc:
        raise DataError(f"the saved {cls.__name__} do not fit: {exc}") from None


# --------------------------------------------------------------------------- data


def data_of(raw: RawTable) -> tuple[DataRef, bytes | None]:
    """Where the project's data comes from, and the file's bytes for an upload."""
    if raw.source == "upload":
        if raw.file is None:
            raise DataError(f"the uploaded file {raw.name!r} was not kept; upload it again")
        return DataRef("upload", raw.name, dict(raw.options)), raw.file
    return DataRef(raw.source, str(raw.options.get("name", raw.name))), None


def load_raw(store: Store, p: Project) -> RawTable:
    """The project's table, read again from the stored file or the named data set."""
    ref = p.info.data
    if ref.source == "builtin":
        return raw_builtin(ref.name)
    if ref.source == "shared":
        return raw_shared(ref.name)
    o = ref.options
    return read_upload(store.blob(p.data_sha or ""), ref.name, header=bool(o.get("header", True)),
                       missing=tuple(o.get("missing", MISSING_MARKERS)),
                       split_column=o.get("split_column"), decimal=o.get("decimal"),
                       rows=o.get("rows", "positions"),  # saved before rows were file lines
                       encoding=o.get("encoding", "utf-8"))


def _state(ws: Workspace) -> dict[str, Any]:
    """What a project saves of a workspace apart from its rules (compared to see changes)."""
    raw = ws.raw
    imported = bool(ws.kb_key and ws.kb_key[1] == "import")
    return {"data": (raw.source, raw.name, raw.fingerprint),  # the fingerprint covers the bytes
            "settings": settings_dict(ws.settings), "kb": settings_dict(ws.kb_settings),
            "kb_import": ws.kb_key[2] if imported else None}


# --------------------------------------------------------------------------- the link


@dataclass
class Link:
    """This session's project: the versions its workspace was loaded or saved as, what was
    saved then (to see what changed), and a pending conflict."""

    store: Store
    project_id: int
    name: str
    version: int
    rules_version: int
    saved_rules: tuple[WeightedClause, ...] = ()
    saved_state: dict[str, Any] = field(default_factory=dict)
    conflict: ConflictError | None = None
    saved_note: str = ""


def author(store: Store) -> str:
    return store.get_setting(AUTHOR, "") or ""


def set_author(store: Store, name: str) -> str:
    from plx_core.store import check_name

    name = check_name(name, "name")
    store.put_setting(AUTHOR, name)
    return name


# --------------------------------------------------------------------------- drafts

DRAFT_FIELDS = ("r_conds", "r_text", "r_head", "r_p", "r_w", "r_rules_text", "plx_why")
"""What a browser tab has typed on the Rules page and not yet added (the Add-a-rule form's
conditions, conclusion, p and w; the whole rules typed; the why): kept in the store per project
and tab, so a browser refresh does not lose it (the rules added are the project's, saved apart)."""


def _draft_key(pid: int, tab: str) -> str:
    return f"draft:{int(pid)}:{tab}"


def _draft_value(name: str, v: Any) -> bool:
    """Whether `v` is a value the Rules page's widget `name` can take (a store edited by hand,
    an older page): anything else is dropped, never shown."""
    if name == "r_conds":
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    if name == "r_head":
        return v in ("POS", "NOT POS")
    if name == "r_p":
        return isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0
    if name == "r_w":
        return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)
                             and 0.001 <= v <= 1e9)
    return isinstance(v, str)


def load_draft(store: Store, pid: int, tab: str) -> dict[str, Any]:
    """The tab's unsaved typing on project `pid` (`DRAFT_FIELDS`), {} when there is none."""
    import json

    raw = store.get_setting(_draft_key(pid, tab))
    try:
        d = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return {k: v for k, v in d.items() if k in DRAFT_FIELDS and _draft_value(k, v)} \
        if isinstance(d, dict) else {}


def save_draft(store: Store, pid: int, tab: str, draft: Mapping[str, Any]) -> None:
    """Keep the tab's unsaved typing; an empty draft (nothing typed, the defaults) is dropped."""
    import json

    typed = ("r_conds", "r_text", "r_w", "r_rules_text", "plx_why")  # THEN and p alone: none
    if all(draft.get(k) in (None, "", []) for k in typed):
        store.drop_setting(_draft_key(pid, tab))
    else:
        store.put_setting(_draft_key(pid, tab), json.dumps(
            {k: draft.get(k) for k in DRAFT_FIELDS if k in draft}))


def open_project(store: Store, pid: int) -> tuple[Workspace, Link, list[str]]:
    """The project's workspace (data read, KB built or imported, rules as saved) and its link.
    Notes say what could not be restored as saved."""
    p = store.get(pid)
    raw = load_raw(store, p)
    notes: list[str] = []
    try:
        settings = settings_from(DataSettings, p.settings) if p.settings else raw.defaults
        if p.settings and "cut_on" not in p.settings:  # saved before cuts were fitted on
            settings = dataclasses.replace(settings, cut_on="table")  # training rows: read as saved
        ws = new_workspace(raw, settings, build=False)
    except DataError as exc:
        notes.append(f"The saved data settings do not apply any more ({exc}); the defaults are used.")
        ws = new_workspace(raw, raw.defaults, build=False)
    try:
        ws.kb_settings = settings_from(KBSettings, p.kb) if p.kb else KBSettings()
    except DataError as exc:
        notes.append(f"The saved KB settings do not apply any more ({exc}); the defaults are used.")
        ws.kb_settings = KBSettings()
    if p.kb_sha:
        ws.import_kb(store.blob(p.kb_sha), rules="replace")
    else:
        ws.ensure_kb()
    ws.rules = list(p.rules)
    link = Link(store, p.id, p.name, p.version, p.rules_version, p.rules, _state(ws))
    store.put_setting(LAST, str(p.id))
    return ws, link, notes


def first_project(store: Store, wanted: Any = None) -> int:
    """The project a new session opens: `wanted` (e.g. from the page URL) if it exists, else
    the last one opened, else the newest; a first start creates one on the default data."""
    known = {p.id for p in store.list_projects()}
    for cand in (wanted, store.get_setting(LAST)):
        try:
            if cand is not None and int(cand) in known:
                return int(cand)
        except (TypeError, ValueError):
            pass
    if known:
        return store.list_projects()[0].id
    return create_project(store, FIRST_NAME)


def create_project(store: Store, name: str, raw: RawTable | None = None,
                   settings: DataSettings | None = None, who: str = "") -> int:
    """A new project on `raw` (default: the built-in diagnosis set) with `settings` (default:
    the table's own)."""
    raw = raw if raw is not None else raw_builtin(DEFAULT_NAME)
    ref, data = data_of(raw)
    info = store.create(name, ref, data_bytes=data,
                        settings=settings_dict(settings if settings is not None else raw.defaults),
                        author=who, unique=True)
    return info.id


def sync(ws: Workspace, link: Link, who: str = "", note: str = "") -> list[str]:
    """Save what changed since the last save or load (rules first, then data and settings);
    returns what was saved. A save that another session beat sets `link.conflict` and saves
    nothing more until it is resolved."""
    if link.conflict is not None:
        return []
    done = []
    try:
        if rules_to_text(ws.rules) != rules_to_text(link.saved_rules):
            v = link.store.save_rules(link.project_id, ws.rules, link.rules_version, author=who,
                                      note=note)
            link.rules_version, link.saved_rules = v.n, tuple(ws.rules)
            link.saved_note = note
            done.append(f"rules version {v.n} ({v.summary})")
        state = _state(ws)
        if state != link.saved_state:
            old = link.saved_state
            kw: dict[str, Any] = {"settings": state["settings"], "kb": state["kb"]}
            if state["data"] != old.get("data"):
                kw["data"], kw["data_bytes"] = data_of(ws.raw)
            if state["kb_import"] != old.get("kb_import"):
                if state["kb_import"] is None:
                    kw["clear_kb_json"] = True
                else:
                    kw["kb_json"] = ws.kb.without_rules().to_json().encode()
            info = link.store.save(link.project_id, link.version, author=who, **kw)
            link.version, link.saved_state = info.version, state
            done.append("data and settings")
    except ConflictError as exc:
        link.conflict = exc
    return done


def restore(ws: Workspace, link: Link, n: int, who: str = "") -> RulesVersion | None:
    """Make version `n` of the rules the newest (a conflict is kept on the link)."""
    try:
        v = link.store.restore(link.project_id, n, link.rules_version, author=who)
    except ConflictError as exc:
        link.conflict = exc
        return None
    ws.rules = list(link.store.rules_at(link.project_id, n))
    link.rules_version, link.saved_rules = v.n, tuple(ws.rules)
    return v


NOT_SAVED = "(not saved yet)"


def rules_in_force(ws: Workspace, link: Link | None) -> list[dict[str, Any]]:
    """The workspace's rules, one per rule, with who added each, who changed it last and when,
    read from the project's saved history (rules not saved yet say so); for the case report."""
    rules = tuple(ws.rules)
    if not rules:
        return []
    pid, head = (link.project_id, link.rules_version) if link is not None else (None, 0)

    def make() -> list[dict[str, Any]]:
        versions: list[tuple[str, Any, tuple[WeightedClause, ...]]] = []
        if link is not None:
            for h in sorted(link.store.history(link.project_id), key=lambda h: h.n):
                if h.n <= head:
                    versions.append((h.author or "(no name given)", h.created,
                                     link.store.rules_at(link.project_id, h.n)))
        if rules_to_text(rules) != rules_to_text(versions[-1][2] if versions else ()):
            versions.append((NOT_SAVED, None, rules))
        who = rule_authors(versions)
        out = []
        listed = list_rules(rules)
        for rid, text in zip(listed["id"], listed["rule"], strict=True):
            a = who.get(str(rid))
            out.append({"id": str(rid), "text": str(text),
                        "author": a.changed_by if a else "(not recorded)",
                        "changed": a.changed if a else None,
                        "added_by": a.added_by if a else "(not recorded)"})
        return out

    return ws.results.get(("rules_in_force", pid, head, rules_to_text(rules)), make)


def case_key(inst: Instance) -> str:
    """The name a note on a case is kept under: the data row, or the edited values."""
    if inst.origin in ("test", "train") and inst.row is not None:
        return f"{inst.origin} row {inst.row}"
    vals = ", ".join(f"{f}={v}" for f, v in inst.known().items())
    return ("edited: " + vals)[:MAX_CASE_KEY]


def row_case(inst: Instance | None) -> str | None:
    """The `case_key` of a selected data row (what the page URL keeps); None for no selection
    or edited values, which name no row."""
    if inst is None or inst.origin not in ("test", "train") or inst.row is None:
        return None
    return case_key(inst)


def case_row(ws: Workspace, key: Any) -> Instance | None:
    """The data row a `row_case` names in this workspace, or None when it names none (the
    rows changed, or the text is not a row's name)."""
    origin, sep, label = str(key or "").partition(" row ")
    if not sep or origin not in ("test", "train"):
        return None
    X, y = ws.part(origin)
    hit = X.index[X.index.astype(str) == label]  # the URL gives text; the index may hold numbers
    return instance_from_row(X, y, hit[0], origin) if len(hit) else None


def newer(link: Link) -> str:
    """A line when another session saved this project after it was loaded here."""
    info = link.store.info(link.project_id)
    if info.rules_version != link.rules_version or info.version != link.version:
        by = f" by {info.updated_by}" if info.updated_by else ""
        return (f"This project was saved in another session{by} at {info.updated:%H:%M:%S} UTC "
                "after you opened it.")
    return ""


def keep_both(ws: Workspace, link: Link, who: str = "") -> tuple[Workspace, Link, str]:
    """Resolve a conflict keeping both sides: rules are merged three-way (their changes and
    yours since you loaded); other settings go into a copy of the project with yours."""
    exc, link.conflict = link.conflict, None
    store = link.store
    if exc is None or exc.what == "rules":
        theirs = store.get(link.project_id)
        merged = merge3(link.saved_rules, theirs.rules, ws.rules)
        v = store.save_rules(link.project_id, merged.rules, theirs.rules_version, author=who,
                             note="kept both: your changes merged with " + (exc.by if exc and exc.by else "theirs"))
        ws.rules = list(merged.rules)
        link.rules_version, link.saved_rules = v.n, tuple(merged.rules)
        twice = f"; both edited {', '.join(merged.both_changed)}: yours kept as new {noun(len(merged.both_changed), 'rule')}" \
            if merged.both_changed else ""
        sync(ws, link, who)  # settings too, if they changed (a clash there is told again)
        return ws, link, f"Merged: rules version {v.n}{twice}."
    ref, data = data_of(ws.raw)
    info = store.create(f"{link.name} (yours)", ref, data_bytes=data,
                        settings=settings_dict(ws.settings), kb=settings_dict(ws.kb_settings),
                        rules=ws.rules, author=who, note="kept both after a conflict",
                        unique=True)
    ws2, link2, _ = open_project(store, info.id)
    return ws2, link2, f"Your version was saved as the project {info.name!r}."


__all__ = ["AUTHOR", "DRAFT_FIELDS", "LAST", "Link", "author", "case_key", "case_row", "create_project", "data_of", "first_project",
           "keep_both", "load_draft", "load_raw", "newer", "open_project", "restore", "row_case", "rules_in_force", "save_draft", "set_author", "settings_dict",
           "settings_from", "sync"]
