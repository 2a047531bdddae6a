"""Projects kept in a real database: data, settings, rules with their history, notes on cases.

SQLite by default (`plx.db` in the data folder: `$PLX_HOME`, else the user's data directory),
any SQLAlchemy URL in `$PLX_DATABASE_URL` (e.g. a team's PostgreSQL). The schema uses only
portable SQLAlchemy Core types. Every save is one transaction; SQLite runs in WAL mode with
full fsync, so a crash during a save leaves the last committed state. Saves carry the version
they started from: a save over a newer version raises `ConflictError` instead of overwriting
(the caller reloads, or keeps both with `plx_core.ruleset.merge3`).

A project file (`export_project` / `import_project`) is a zip: `project.json` (format
"plx-project", version 1), `rules.txt` (the current rules as clause text), `history/NNNN.txt`
(every saved version), and the data or imported KB files it names. Nothing is unpickled; sizes
and counts are checked before anything is read.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from .clause import WeightedClause
from .errors import DataError, PLXError
from .rules import rule_groups
from .ruleset import diff_rules
from .textformat import parse_clause

SCHEMA_VERSION = 1
DB_FILE = "plx.db"
MAX_NAME = 200
MAX_NOTE = 20_000
MAX_CASE_KEY = 500
DATA_SOURCES = ("builtin", "shared", "upload")

# --------------------------------------------------------------------------- where

WRITABLE_HOME = ("set PLX_HOME to a folder you can write (or choose another data folder on "
                 "the Projects page); nothing was saved there")


def default_home() -> Path:
    """The user's data directory for plx (XDG on Linux, Application Support on macOS,
    LOCALAPPDATA on Windows)."""
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(root) / "plx"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "plx"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "plx"


def plx_home(home: str | Path | None = None) -> Path:
    """The data folder: `home`, else `$PLX_HOME`, else `default_home()`."""
    chosen = home or os.environ.get("PLX_HOME") or default_home()
    return Path(chosen).expanduser()


def database_url(home: str | Path | None = None) -> str:
    """`$PLX_DATABASE_URL` when set (and no `home` is given), else SQLite in the data folder."""
    if home is None and os.environ.get("PLX_DATABASE_URL"):
        return os.environ["PLX_DATABASE_URL"]
    return f"sqlite:///{plx_home(home) / DB_FILE}"


# --------------------------------------------------------------------------- schema

metadata = sa.MetaData(naming_convention={
    "pk": "pk_%(table_name)s", "fk": "fk_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s", "ix": "ix_%(table_name)s_%(column_0_name)s",
})
Stamp = sa.DateTime(timezone=True)

meta_table = sa.Table(
    "plx_meta", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
blobs = sa.Table(
    "plx_blobs", metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("size", sa.BigInteger, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
)
projects = sa.Table(
    "plx_projects", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(MAX_NAME), nullable=False, unique=True),
    sa.Column("created", Stamp, nullable=False),
    sa.Column("updated", Stamp, nullable=False),
    sa.Column("updated_by", sa.String(MAX_NAME), nullable=False, default=""),
    sa.Column("version", sa.Integer, nullable=False),  # data, settings and KB settings
    sa.Column("rules_version", sa.Integer, nullable=False),  # head of the rules history
    sa.Column("data_source", sa.String(16), nullable=False),
    sa.Column("data_name", sa.String(500), nullable=False),
    sa.Column("data_blob", sa.String(64), sa.ForeignKey("plx_blobs.sha256"), nullable=True),
    sa.Column("data_options", sa.JSON, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("kb", sa.JSON, nullable=False),
    sa.Column("kb_blob", sa.String(64), sa.ForeignKey("plx_blobs.sha256"), nullable=True),
)
rule_versions = sa.Table(
    "plx_rule_versions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("project_id", sa.Integer, sa.ForeignKey("plx_projects.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("author", sa.String(MAX_NAME), nullable=False),
    sa.Column("created", Stamp, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("summary", sa.Text, nullable=False),
    sa.Column("n_rules", sa.Integer, nullable=False),  # rules (`rules.rule_groups`), not clauses
    sa.Column("rules", sa.Text, nullable=False),  # one clause-text line per rule clause
    sa.UniqueConstraint("project_id", "n", name="uq_plx_rule_versions_project_n"),
)
notes_table = sa.Table(
    "plx_notes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("project_id", sa.Integer, sa.ForeignKey("plx_projects.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("case_key", sa.String(MAX_CASE_KEY), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("author", sa.String(MAX_NAME), nullable=False),
    sa.Column("updated", Stamp, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.UniqueConstraint("project_id", "case_key", name="uq_plx_notes_project_case"),
)


# --------------------------------------------------------------------------- values


class ConflictError(PLXError):
    """A save started from an older version than the one stored: someone saved in between."""

    def __init__(self, what: str, base: int, current: int, by: str, when: datetime | None):
        self.what, self.base, self.current, self.by, self.when = what, base, current, by, when
        who = f" by {by}" if by else ""
        at = f" at {when:%Y-%m-%d %H:%M:%S} UTC" if when else ""
        super().__init__(f"the {what} were saved{who}{at} (version {current}) after you loaded "
                         f"version {base}; reload them, or keep both")


@dataclass(frozen=True)
class DataRef:
    """Where a project's data comes from: a built-in or shared set by name, or an uploaded
    file (its bytes are kept in the database) read with `options`."""

    source: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.source not in DATA_SOURCES:
            raise DataError(f"data source {self.source!r} is not one of {list(DATA_SOURCES)}")


@dataclass(frozen=True)
class ProjectInfo:
    """A row of the project list."""

    id: int
    name: str
    created: datetime
    updated: datetime
    updated_by: str
    version: int
    rules_version: int
    data: DataRef


@dataclass(frozen=True)
class Project:
    """A project as loaded: what to load, how to prepare it, the KB settings and the rules at
    the head of their history. `data_sha` / `kb_sha` name stored files (`Store.blob`)."""

    info: ProjectInfo
    settings: dict[str, Any]
    kb: dict[str, Any]
    rules: tuple[WeightedClause, ...]
    data_sha: str | None = None
    kb_sha: str | None = None

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def version(self) -> int:
        return self.info.version

    @property
    def rules_version(self) -> int:
        return self.info.rules_version


@dataclass(frozen=True)
class RulesVersion:
    """One saved version of a project's rules: who, when, why and what changed."""

    n: int
    author: str
    created: datetime
    note: str
    summary: str
    n_rules: int  # rules as the user typed them: an OR rule or a range rule counts once


@dataclass(frozen=True)
class Note:
    """A note on a case (an instance) of a project."""

    case: str
    text: str
    author: str
    updated: datetime
    version: int


# --------------------------------------------------------------------------- helpers


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(t: datetime | None) -> datetime | None:
    if t is None:
        return None
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")


def check_name(name: Any, what: str = "project name") -> str:
    """A trimmed name of 1 to 200 printable characters."""
    if not isinstance(name, str):
        raise DataError(f"the {what} must be text, got {type(name).__name__}")
    name = name.strip()
    if not name:
        raise DataError(f"the {what} is empty")
    if len(name) > MAX_NAME:
        raise DataError(f"the {what} has {len(name)} characters; at most {MAX_NAME}")
    if _CONTROL.search(name):
        raise DataError(f"the {what} {name[:40]!r} holds a line break or control character")
    return name


def rules_to_text(rules: Sequence[WeightedClause]) -> str:
    """The rules as clause text, one clause per line (`WeightedClause.to_text`)."""
    return "".join(c.to_text() + "\n" for c in rules)


def rules_from_text(text: str, where: str = "rules") -> tuple[WeightedClause, ...]:
    """Clause-text lines back into rules (every clause with source "rule")."""
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            try:
                c = parse_clause(line, i)
            except ValueError as exc:  # DataError or ClauseSyntaxError
                raise DataError(f"{where}, line {i}: {exc}") from None
            if c.source != "rule":
                raise DataError(f"{where}, line {i}: clause source is {c.source!r}, not 'rule'")
            out.append(c)
    return tuple(out)


RULES_COUNTED = "rules-counted"
"""The `plx_meta` key saying the history's `n_rules` count rules as typed (`rules.rule_groups`):
a database written before (a60c1eb) counted clauses, and is recounted once on open."""


def _count_rules_as_typed(c: Connection) -> None:
    """Every saved version's `n_rules` recounted from its rules as typed (an OR rule or a
    range rule over bins once, not once a clause); a version whose text no longer reads keeps
    its count (its restore says why)."""
    for row in c.execute(sa.select(rule_versions.c.id, rule_versions.c.rules,
                                   rule_versions.c.n_rules)).all():
        try:
            n = len(rule_groups(rules_from_text(row.rules)))
        except DataError:
            continue
        if n != row.n_rules:
            c.execute(rule_versions.update().where(rule_versions.c.id == row.id)
                      .values(n_rules=n))


def _json_obj(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DataError(f"the {what} must be a JSON object")
    out = dict(value)
    try:
        json.dumps(out, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise DataError(f"the {what} cannot be stored as JSON: {exc}") from None
    return out


# --------------------------------------------------------------------------- the store


_SHARED: dict[str, Store] = {}
_SHARED_LOCK = threading.Lock()


class Store:
    """The projects database. One per URL and process; safe to share between threads (every
    call takes its own connection)."""

    def __init__(self, url: str | None = None, *, home: str | Path | None = None) -> None:
        self.url = url or database_url(home)
        u = sa.engine.make_url(self.url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        if self.is_sqlite and u.database not in (None, "", ":memory:"):
            folder = Path(u.database).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # trust23: the OSError's own words did not say what it was
                why = ("it is a file" if folder.is_file() or folder.is_char_device()
                       else exc.strerror or str(exc))
                raise DataError(f"the projects folder {str(folder)!r} cannot be made ({why}): "
                                f"{WRITABLE_HOME}") from None
        self.engine: Engine = sa.create_engine(self.url, future=True)
        if self.is_sqlite:
            _sqlite_setup(self.engine)
        with self._write() as c:  # (a damaged or foreign file: one line, `_driver_errors`)
            metadata.create_all(c)
            got = c.execute(sa.select(meta_table.c.value).where(meta_table.c.key == "schema")).scalar()
            if got is None:
                c.execute(meta_table.insert().values(key="schema", value=str(SCHEMA_VERSION)))
            elif got != str(SCHEMA_VERSION):
                raise DataError(f"the database {self.where()} has plx schema {got}; this plx "
                                f"reads schema {SCHEMA_VERSION}")
            if c.execute(sa.select(meta_table.c.value).where(
                    meta_table.c.key == RULES_COUNTED)).scalar() is None:
                _count_rules_as_typed(c)
                c.execute(meta_table.insert().values(key=RULES_COUNTED, value="rule_groups"))

    @classmethod
    def shared(cls, url: str | None = None) -> Store:
        """One Store per database URL in this process (SQLAlchemy's advice: one engine per
        database and process); it holds connections, never a user's data."""
        url = url or database_url()
        with _SHARED_LOCK:
            if url not in _SHARED:
                _SHARED[url] = cls(url)
            return _SHARED[url]

    def where(self) -> str:
        """The database location, without a password."""
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    def file(self) -> Path | None:
        """The SQLite file the projects are saved in; None for a server's database or memory."""
        u = sa.engine.make_url(self.url)
        if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
            return None
        return Path(u.database).expanduser().resolve()

    def server(self) -> str:
        """The database server in words ("postgresql on db.example.org"), "" for SQLite."""
        u = sa.engine.make_url(self.url)
        return "" if u.get_backend_name() == "sqlite" else (
            f"{u.get_backend_name()} on {u.host or 'this computer'}")

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def _driver_errors(self) -> Iterator[None]:
        """The database driver's errors as one `DataError` naming the database and what to
        do (a damaged, foreign or locked file; fuzz17: SQLAlchemy's own text is several lines
        with a web link, and a damaged file's bytes could even raise UnicodeDecodeError)."""
        try:
            yield
        except (sa.exc.DBAPIError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            said = " ".join(str(getattr(exc, "orig", None) or exc).split())[:200]
            if "locked" in said or "busy" in said:
                hint = "another program is writing to it; try again in a moment"
            elif "unable to open" in said or "readonly" in said or "read-only" in said:
                hint = f"plx cannot open or write the file there: {WRITABLE_HOME}"
            elif not isinstance(exc, sa.exc.DBAPIError) or any(w in said for w in (
                    "not a database", "malformed", "corrupt", "no such", "no column", "decode")):
                hint = ("it is damaged or is not a plx database: move it away (plx starts a new "
                        "one) or put back a copy")
            else:
                hint = "the change was not saved"
            raise DataError(f"the database {self.where()} cannot be used ({said}): {hint}") from exc

    @contextmanager
    def _write(self, slow: bool = False) -> Iterator[Connection]:
        """One transaction that writes (SQLite: BEGIN IMMEDIATE, so the version checks in it
        see the latest commit and no other writer slips in between). `slow`: a rules save,
        which the crash tests hold open for `$PLX_FAULT_SLOW_SAVE` seconds before it commits."""
        with self._driver_errors(), \
                self.engine.connect().execution_options(plx_write=True) as c, c.begin():
            yield c
            delay = os.environ.get("PLX_FAULT_SLOW_SAVE") if slow else None
            if delay:
                time.sleep(float(delay))

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._driver_errors(), self.engine.connect() as c, c.begin():
            yield c

    # ------------------------------------------------------------------ settings of the app

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        with self._read() as c:
            v = c.execute(sa.select(meta_table.c.value).where(meta_table.c.key == "app:" + key)).scalar()
        return default if v is None else v

    def put_setting(self, key: str, value: str) -> None:
        k = "app:" + key
        with self._write() as c:
            if c.execute(meta_table.update().where(meta_table.c.key == k).values(value=value)).rowcount == 0:
                c.execute(meta_table.insert().values(key=k, value=value))

    def drop_setting(self, key: str) -> None:
        with self._write() as c:
            c.execute(meta_table.delete().where(meta_table.c.key == "app:" + key))

    # ------------------------------------------------------------------ projects

    def _info(self, r: Any) -> ProjectInfo:
        return ProjectInfo(r.id, r.name, _utc(r.created), _utc(r.updated), r.updated_by,
                           r.version, r.rules_version,
                           DataRef(r.data_source, r.data_name,
                                   _json_obj(r.data_options, "data options in the database")))

    def list_projects(self) -> list[ProjectInfo]:
        """Every project, the most recently changed first."""
        with self._read() as c:
            rows = c.execute(sa.select(projects).order_by(projects.c.updated.desc(),
                                                          projects.c.id.desc())).all()
        return [self._info(r) for r in rows]

    def info(self, pid: int) -> ProjectInfo:
        """The project's list row (versions, who saved last), without its rules."""
        with self._read() as c:
            return self._info(self._row(c, pid))

    def find(self, name: str) -> ProjectInfo | None:
        with self._read() as c:
            r = c.execute(sa.select(projects).where(projects.c.name == name)).first()
        return None if r is None else self._info(r)

    def _row(self, c: Connection, pid: int) -> Any:
        r = c.execute(sa.select(projects).where(projects.c.id == pid)).first()
        if r is None:
            raise DataError(f"there is no project {pid} (it may have been deleted)")
        return r

    def get(self, pid: int) -> Project:
        """The project with its rules at the head of their history."""
        with self._read() as c:
            r = self._row(c, pid)
            text = c.execute(sa.select(rule_versions.c.rules).where(
                rule_versions.c.project_id == pid, rule_versions.c.n == r.rules_version)).scalar()
        rules = rules_from_text(text or "", f"project {r.name!r} rules")
        return Project(self._info(r), _json_obj(r.settings, "settings in the database"),
                       _json_obj(r.kb, "KB settings in the database"), rules,
                       r.data_blob, r.kb_blob)

    def blob(self, sha: str) -> bytes:
        """A stored file by its SHA-256."""
        with self._read() as c:
            data = c.execute(sa.select(blobs.c.data).where(blobs.c.sha256 == sha)).scalar()
        if data is None:
            raise DataError(f"the stored file {sha[:12]}… is missing from the database")
        return bytes(data)

    def _put_blob(self, c: Connection, data: bytes) -> str:
        sha = _sha(data)
        if c.execute(sa.select(blobs.c.sha256).where(blobs.c.sha256 == sha)).first() is None:
            c.execute(blobs.insert().values(sha256=sha, size=len(data), data=data))
        return sha

    def _drop_unused_blobs(self, c: Connection) -> None:
        used = sa.union(sa.select(projects.c.data_blob).where(projects.c.data_blob.is_not(None)),
                        sa.select(projects.c.kb_blob).where(projects.c.kb_blob.is_not(None)))
        c.execute(blobs.delete().where(blobs.c.sha256.not_in(used.scalar_subquery())))

    def _unique_name(self, c: Connection, name: str) -> str:
        taken = set(c.execute(sa.select(projects.c.name)).scalars())
        if name not in taken:
            return name
        n = 2
        while f"{name} ({n})" in taken:
            n += 1
        return check_name(f"{name[:MAX_NAME - 8]} ({n})")

    def create(self, name: str, data: DataRef, *, data_bytes: bytes | None = None,
               settings: Mapping[str, Any] | None = None, kb: Mapping[str, Any] | None = None,
               kb_json: bytes | None = None, rules: Sequence[WeightedClause] = (),
               author: str = "", note: str = "", unique: bool = False) -> ProjectInfo:
        """A new project (version 1; its rules, if any, as rules version 1). With `unique` a
        taken name gets a number, else it is refused."""
        name = check_name(name)
        if (data.source == "upload") != (data_bytes is not None):
            raise DataError("an uploaded data set needs its file's bytes (and only it)")
        now = _now()
        with self._write() as c:
            if unique:
                name = self._unique_name(c, name)
            elif c.execute(sa.select(projects.c.id).where(projects.c.name == name)).first():
                raise DataError(f"there is already a project named {name!r}")
            dsha = self._put_blob(c, data_bytes) if data_bytes is not None else None
            ksha = self._put_blob(c, kb_json) if kb_json is not None else None
            pid = c.execute(projects.insert().values(
                name=name, created=now, updated=now, updated_by=author, version=1,
                rules_version=0, data_source=data.source, data_name=data.name, data_blob=dsha,
                data_options=_json_obj(data.options, "data options"),
                settings=_json_obj(settings, "settings"), kb=_json_obj(kb, "KB settings"),
                kb_blob=ksha)).inserted_primary_key[0]
            if rules:
                self._add_version(c, pid, 1, (), rules, author, note or "created")
                c.execute(projects.update().where(projects.c.id == pid).values(rules_version=1))
            r = self._row(c, pid)
        return self._info(r)

    def rename(self, pid: int, name: str) -> ProjectInfo:
        name = check_name(name)
        with self._write() as c:
            self._row(c, pid)
            other = c.execute(sa.select(projects.c.id).where(projects.c.name == name)).scalar()
            if other is not None and other != pid:
                raise DataError(f"there is already a project named {name!r}")
            c.execute(projects.update().where(projects.c.id == pid).values(name=name))
            return self._info(self._row(c, pid))

    def duplicate(self, pid: int, name: str | None = None, author: str = "") -> ProjectInfo:
        """A copy with the same data, settings, current rules and notes (its history starts
        at the copied rules)."""
        with self._write() as c:
            r = self._row(c, pid)
            new = self._unique_name(c, check_name(name) if name else f"{r.name} (copy)")
            now = _now()
            cid = c.execute(projects.insert().values(
                name=new, created=now, updated=now, updated_by=author, version=1, rules_version=0,
                data_source=r.data_source, data_name=r.data_name, data_blob=r.data_blob,
                data_options=r.data_options, settings=r.settings, kb=r.kb,
                kb_blob=r.kb_blob)).inserted_primary_key[0]
            head = c.execute(sa.select(rule_versions).where(
                rule_versions.c.project_id == pid, rule_versions.c.n == r.rules_version)).first()
            if head is not None:
                c.execute(rule_versions.insert().values(
                    project_id=cid, n=1, author=author or head.author, created=now,
                    note=f"copied from {r.name!r} version {head.n}", summary=head.summary,
                    n_rules=head.n_rules, rules=head.rules))
                c.execute(projects.update().where(projects.c.id == cid).values(rules_version=1))
            for nr in c.execute(sa.select(notes_table).where(notes_table.c.project_id == pid)).all():
                c.execute(notes_table.insert().values(
                    project_id=cid, case_key=nr.case_key, text=nr.text, author=nr.author,
                    updated=nr.updated, version=1))
            return self._info(self._row(c, cid))

    def delete(self, pid: int) -> None:
        """Remove a project with its history and notes (its files when no other uses them)."""
        with self._write() as c:
            self._row(c, pid)
            c.execute(notes_table.delete().where(notes_table.c.project_id == pid))
            c.execute(rule_versions.delete().where(rule_versions.c.project_id == pid))
            c.execute(projects.delete().where(projects.c.id == pid))
            self._drop_unused_blobs(c)

    def save(self, pid: int, base_version: int, *, data: DataRef | None = None,
             data_bytes: bytes | None = None, settings: Mapping[str, Any] | None = None,
             kb: Mapping[str, Any] | None = None, kb_json: bytes | None = None,
             clear_kb_json: bool = False, author: str = "") -> ProjectInfo:
        """Save the data choice, settings or KB settings (only what is given) over
        `base_version`; raises `ConflictError` when another save came first."""
        values: dict[str, Any] = {}
        with self._write() as c:
            r = self._row(c, pid)
            if r.version != base_version:
                raise ConflictError("project settings", base_version, r.version, r.updated_by,
                                    _utc(r.updated))
            if data is not None:
                if (data.source == "upload") != (data_bytes is not None):
                    raise DataError("an uploaded data set needs its file's bytes (and only it)")
                values.update(data_source=data.source, data_name=data.name,
                              data_options=_json_obj(data.options, "data options"),
                              data_blob=self._put_blob(c, data_bytes) if data_bytes is not None else None)
            if settings is not None:
                values["settings"] = _json_obj(settings, "settings")
            if kb is not None:
                values["kb"] = _json_obj(kb, "KB settings")
            if kb_json is not None:
                values["kb_blob"] = self._put_blob(c, kb_json)
            elif clear_kb_json:
                values["kb_blob"] = None
            res = c.execute(projects.update().where(
                projects.c.id == pid, projects.c.version == base_version).values(
                version=base_version + 1, updated=_now(), updated_by=author, **values))
            if res.rowcount != 1:  # pragma: no cover - the row was checked in this transaction
                raise ConflictError("project settings", base_version, -1, "", None)
            self._drop_unused_blobs(c)
            return self._info(self._row(c, pid))

    # ------------------------------------------------------------------ rules and history

    def _add_version(self, c: Connection, pid: int, n: int, before: Sequence[WeightedClause],
                     rules: Sequence[WeightedClause], author: str, note: str) -> RulesVersion:
        rules = tuple(rules)
        for rc in rules:
            if not isinstance(rc, WeightedClause):
                raise DataError(f"a rule must be a WeightedClause, got {type(rc).__name__}")
        text = rules_to_text(rules)
        rules_from_text(text)  # what is saved must read back
        summary = diff_rules(before, rules).summary()
        now = _now()
        n_rules = len(rule_groups(rules))  # rules as typed: an OR or a range rule is one
        c.execute(rule_versions.insert().values(
            project_id=pid, n=n, author=author, created=now, note=note, summary=summary,
            n_rules=n_rules, rules=text))
        return RulesVersion(n, author, now, note, summary, n_rules)

    def save_rules(self, pid: int, rules: Sequence[WeightedClause], base: int, *,
                   author: str = "", note: str = "") -> RulesVersion:
        """Save the rules as the next version after `base` (the version they were loaded as);
        raises `ConflictError` when another save came first. A save that changes nothing
        returns the current version."""
        author = check_name(author, "author name") if author else ""
        if len(note) > MAX_NOTE:
            raise DataError(f"the note has {len(note)} characters; at most {MAX_NOTE}")
        with self._write(slow=True) as c:
            r = self._row(c, pid)
            if r.rules_version != base:
                last = self._version_row(c, pid, r.rules_version)
                raise ConflictError("rules", base, r.rules_version, last.author if last else "",
                                    _utc(last.created) if last else None)
            before = self._rules_in(c, pid, base)
            if rules_to_text(before) == rules_to_text(rules) and base > 0:
                v = self._version_row(c, pid, base)
                return RulesVersion(v.n, v.author, _utc(v.created), v.note, v.summary, v.n_rules)
            res = c.execute(projects.update().where(
                projects.c.id == pid, projects.c.rules_version == base).values(
                rules_version=base + 1, updated=_now(), updated_by=author))
            if res.rowcount != 1:  # pragma: no cover - checked above in this transaction
                raise ConflictError("rules", base, -1, "", None)
            return self._add_version(c, pid, base + 1, before, rules, author, note)

    def _version_row(self, c: Connection, pid: int, n: int) -> Any:
        return c.execute(sa.select(rule_versions).where(
            rule_versions.c.project_id == pid, rule_versions.c.n == n)).first()

    def _rules_in(self, c: Connection, pid: int, n: int) -> tuple[WeightedClause, ...]:
        if n == 0:
            return ()
        row = self._version_row(c, pid, n)
        if row is None:
            raise DataError(f"project {pid} has no rules version {n}")
        return rules_from_text(row.rules, f"rules version {n}")

    def rules_at(self, pid: int, n: int) -> tuple[WeightedClause, ...]:
        """The rules as saved in version `n` (0: before any rule)."""
        with self._read() as c:
            self._row(c, pid)
            return self._rules_in(c, pid, n)

    def history(self, pid: int) -> list[RulesVersion]:
        """Every saved version of the rules, the newest first."""
        with self._read() as c:
            self._row(c, pid)
            rows = c.execute(sa.select(rule_versions).where(rule_versions.c.project_id == pid)
                             .order_by(rule_versions.c.n.desc())).all()
        return [RulesVersion(r.n, r.author, _utc(r.created), r.note, r.summary, r.n_rules)
                for r in rows]

    def restore(self, pid: int, n: int, base: int, *, author: str = "",
                note: str = "") -> RulesVersion:
        """Make the rules of version `n` the newest version (history is kept)."""
        rules = self.rules_at(pid, n)
        return self.save_rules(pid, rules, base, author=author,
                               note=note or f"restored version {n}")

    # ------------------------------------------------------------------ notes on cases

    def notes(self, pid: int) -> dict[str, Note]:
        with self._read() as c:
            self._row(c, pid)
            rows = c.execute(sa.select(notes_table).where(notes_table.c.project_id == pid)
                             .order_by(notes_table.c.case_key)).all()
        return {r.case_key: Note(r.case_key, r.text, r.author, _utc(r.updated), r.version)
                for r in rows}

    def set_note(self, pid: int, case: str, text: str, base: int, *, author: str = "") -> Note:
        """Write the note on `case` over its version `base` (0: no note yet); empty text
        deletes it. Raises `ConflictError` when someone else saved it first."""
        if not isinstance(case, str) or not case.strip() or len(case) > MAX_CASE_KEY:
            raise DataError(f"a case is named by 1 to {MAX_CASE_KEY} characters of text")
        if len(text) > MAX_NOTE:
            raise DataError(f"the note has {len(text)} characters; at most {MAX_NOTE}")
        now = _now()
        with self._write() as c:
            self._row(c, pid)
            r = c.execute(sa.select(notes_table).where(notes_table.c.project_id == pid,
                                                       notes_table.c.case_key == case)).first()
            current = r.version if r is not None else 0
            if current != base:
                raise ConflictError("note", base, current, r.author if r else "",
                                    _utc(r.updated) if r else None)
            if r is None:
                if text.strip():
                    c.execute(notes_table.insert().values(project_id=pid, case_key=case, text=text,
                                                          author=author, updated=now, version=1))
            elif text.strip():
                c.execute(notes_table.update().where(notes_table.c.id == r.id).values(
                    text=text, author=author, updated=now, version=current + 1))
            else:
                c.execute(notes_table.delete().where(notes_table.c.id == r.id))
            c.execute(projects.update().where(projects.c.id == pid).values(updated=now))
        return Note(case, text, author, now, current + 1 if text.strip() else 0)

    # ------------------------------------------------------------------ one file per project

    def export_project(self, pid: int) -> bytes:
        """The whole project as one zip (see the module docstring)."""
        p = self.get(pid)
        hist = self.history(pid)
        out = io.BytesIO()
        doc: dict[str, Any] = {
            "format": PROJECT_FORMAT, "version": PROJECT_VERSION, "name": p.name,
            "created": p.info.created.isoformat(), "exported": _now().isoformat(),
            "data": {"source": p.info.data.source, "name": p.info.data.name,
                     "options": dict(p.info.data.options)},
            "settings": p.settings, "kb": p.kb, "rules": "rules.txt",
            "history": [], "notes": [],
        }
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            if p.data_sha:
                z.writestr("data/file", self.blob(p.data_sha))
                doc["data"]["file"], doc["data"]["sha256"] = "data/file", p.data_sha
            if p.kb_sha:
                z.writestr("kb.json", self.blob(p.kb_sha))
                doc["kb_file"] = {"file": "kb.json", "sha256": p.kb_sha}
            z.writestr("rules.txt", rules_to_text(p.rules))
            for v in reversed(hist):
                fname = f"history/{v.n:04d}.txt"
                z.writestr(fname, rules_to_text(self.rules_at(pid, v.n)))
                doc["history"].append({"n": v.n, "author": v.author,
                                       "created": v.created.isoformat(), "note": v.note,
                                       "summary": v.summary, "file": fname})
            for nt in self.notes(pid).values():
                doc["notes"].append({"case": nt.case, "text": nt.text, "author": nt.author,
                                     "updated": nt.updated.isoformat()})
            z.writestr("project.json", json.dumps(doc, indent=1, ensure_ascii=False))
        return out.getvalue()

    def import_project(self, data: bytes, name: str | None = None, author: str = "") -> ProjectInfo:
        """A new project from a file of `export_project` (a taken name gets a number)."""
        pf = read_project_file(data)
        now = _now()
        with self._write() as c:
            new = self._unique_name(c, check_name(name) if name else pf.name)
            dsha = self._put_blob(c, pf.data_bytes) if pf.data_bytes is not None else None
            ksha = self._put_blob(c, pf.kb_json) if pf.kb_json is not None else None
            pid = c.execute(projects.insert().values(
                name=new, created=now, updated=now, updated_by=author, version=1, rules_version=0,
                data_source=pf.data.source, data_name=pf.data.name, data_blob=dsha,
                data_options=dict(pf.data.options), settings=pf.settings, kb=pf.kb,
                kb_blob=ksha)).inserted_primary_key[0]
            before: tuple[WeightedClause, ...] = ()
            n = 0
            for v, rules in pf.history:
                n += 1
                c.execute(rule_versions.insert().values(
                    project_id=pid, n=n, author=v["author"], created=v["created"], note=v["note"],
                    summary=diff_rules(before, rules).summary(),
                    n_rules=len(rule_groups(rules)),
                    rules=rules_to_text(rules)))
                before = rules
            if rules_to_text(before) != rules_to_text(pf.rules):
                n += 1
                self._add_version(c, pid, n, before, pf.rules, author, "imported")
            c.execute(projects.update().where(projects.c.id == pid).values(rules_version=n))
            for nt in pf.notes:
                c.execute(notes_table.insert().values(project_id=pid, case_key=nt["case"],
                                                      text=nt["text"], author=nt["author"],
                                                      updated=nt["updated"], version=1))
            return self._info(self._row(c, pid))


def _sqlite_setup(engine: Engine) -> None:
    """WAL, full fsync, foreign keys and a busy timeout on every connection; transactions
    begin explicitly (IMMEDIATE when they write) instead of pysqlite's implicit ones."""

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_con: Any, _rec: Any) -> None:
        dbapi_con.isolation_level = None
        cur = dbapi_con.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=15000")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("plx_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


# --------------------------------------------------------------------------- project files

PROJECT_FORMAT = "plx-project"
PROJECT_VERSION = 1
MAX_PROJECT_FILE = 80_000_000  # bytes of the zip itself
MAX_MEMBER = 60_000_000  # bytes of one unpacked member (the data file: uploads are ≤ 50 MB)
MAX_TOTAL = 200_000_000  # bytes of all members unpacked
MAX_MEMBERS = 5_000
MAX_JSON = 20_000_000


@dataclass(frozen=True)
class ProjectFile:
    """A validated project file."""

    name: str
    data: DataRef
    data_bytes: bytes | None
    settings: dict[str, Any]
    kb: dict[str, Any]
    kb_json: bytes | None
    rules: tuple[WeightedClause, ...]
    history: list[tuple[dict[str, Any], tuple[WeightedClause, ...]]]
    notes: list[dict[str, Any]]


def _bad(msg: str) -> DataError:
    return DataError(f"not a valid plx project file: {msg}")


def _member(z: zipfile.ZipFile, name: Any, where: str, limit: int = MAX_MEMBER) -> bytes:
    if not isinstance(name, str):
        raise _bad(f"{where} must name a file in the zip")
    try:
        info = z.getinfo(name)
    except KeyError:
        raise _bad(f"{where} names {name!r}, which is not in the zip") from None
    if info.file_size > limit:
        raise _bad(f"{name} unpacks to {info.file_size:,} bytes; at most {limit:,}")
    try:
        with z.open(info) as f:
            data = f.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raise _bad(f"{name} cannot be unpacked ({exc})") from None
    if len(data) > limit:
        raise _bad(f"{name} unpacks to more than {limit:,} bytes")
    return data


def _text(z: zipfile.ZipFile, name: Any, where: str) -> str:
    try:
        return _member(z, name, where).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _bad(f"{name} is not UTF-8 text (byte {exc.start})") from None


def _stamp(v: Any, where: str) -> datetime:
    if not isinstance(v, str):
        raise _bad(f"{where} must be an ISO date-time")
    try:
        return _utc(datetime.fromisoformat(v))  # type: ignore[return-value]
    except ValueError:
        raise _bad(f"{where} {v[:40]!r} is not an ISO date-time") from None


def _str(v: Any, where: str, limit: int = MAX_NOTE) -> str:
    if not isinstance(v, str):
        raise _bad(f"{where} must be text")
    if len(v) > limit:
        raise _bad(f"{where} has {len(v)} characters; at most {limit}")
    return v


def _objects(doc: Mapping[str, Any], name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(`name[i]`, object) for each element of the list field `name` (absent: none)."""
    items = doc.get(name, [])
    if not isinstance(items, list):
        raise _bad(f"field {name!r} must be a list")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise _bad(f"{name}[{i}] must be an object")
        yield f"{name}[{i}]", item


def read_project_file(data: bytes) -> ProjectFile:
    """Validate a project file: sizes and counts first, then every field; raises `DataError`
    naming the first problem."""
    if not isinstance(data, (bytes, bytearray)):
        raise _bad("expected the file's bytes")
    if len(data) > MAX_PROJECT_FILE:
        raise _bad(f"the file has {len(data):,} bytes; at most {MAX_PROJECT_FILE:,}")
    try:
        z = zipfile.ZipFile(io.BytesIO(bytes(data)))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise _bad(f"it is not a zip file ({exc})") from None
    with z:
        infos = z.infolist()
        if len(infos) > MAX_MEMBERS:
            raise _bad(f"the zip has {len(infos):,} files; at most {MAX_MEMBERS:,}")
        total = sum(i.file_size for i in infos)
        if total > MAX_TOTAL:
            raise _bad(f"the zip unpacks to {total:,} bytes; at most {MAX_TOTAL:,}")
        if "project.json" not in z.namelist():
            raise _bad("it has no project.json (is it a plx project file?)")
        try:
            doc = json.loads(_member(z, "project.json", "the zip", MAX_JSON).decode("utf-8"))
        except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, a 5000-digit number
            raise _bad(f"project.json is not valid JSON ({str(exc)[:80]})") from None
        except zipfile.BadZipFile as exc:
            raise _bad(str(exc)) from None
        if not isinstance(doc, dict):
            raise _bad("project.json must hold an object")
        if doc.get("format") != PROJECT_FORMAT:
            raise _bad(f"field 'format' must be {PROJECT_FORMAT!r}, got {str(doc.get('format'))[:40]!r}")
        if doc.get("version") != PROJECT_VERSION:
            raise _bad(f"field 'version' must be {PROJECT_VERSION}, got {str(doc.get('version'))[:20]!r}")
        try:
            name = check_name(doc.get("name"))
        except DataError as exc:
            raise _bad(f"field 'name': {exc}") from None
        d = doc.get("data")
        if not isinstance(d, dict):
            raise _bad("field 'data' must be an object")
        try:
            ref = DataRef(_str(d.get("source"), "data.source", 16), _str(d.get("name"), "data.name", 500),
                          _json_obj(d.get("options"), "data.options"))
        except DataError as exc:
            raise _bad(str(exc)) from None
        data_bytes = None
        if ref.source == "upload":
            data_bytes = _member(z, d.get("file"), "data.file")
            if d.get("sha256") != _sha(data_bytes):
                raise _bad("the data file does not match its data.sha256 (damaged file?)")
        kb_json = None
        if doc.get("kb_file") is not None:
            kf = doc["kb_file"]
            if not isinstance(kf, dict):
                raise _bad("field 'kb_file' must be an object")
            kb_json = _member(z, kf.get("file"), "kb_file.file")
            if kf.get("sha256") != _sha(kb_json):
                raise _bad("the KB file does not match its kb_file.sha256 (damaged file?)")
        try:
            settings = _json_obj(doc.get("settings"), "field 'settings'")
            kb = _json_obj(doc.get("kb"), "field 'kb'")
        except DataError as exc:
            raise _bad(str(exc)) from None
        try:
            rules = rules_from_text(_text(z, doc.get("rules"), "field 'rules'"), "rules.txt")
        except DataError as exc:
            raise _bad(str(exc)) from None
        history = []
        for where, h in _objects(doc, "history"):
            try:
                hr = rules_from_text(_text(z, h.get("file"), f"{where}.file"), str(h.get("file")))
            except DataError as exc:
                raise _bad(str(exc)) from None
            history.append(({"author": _str(h.get("author", ""), f"{where}.author", MAX_NAME),
                             "created": _stamp(h.get("created"), f"{where}.created"),
                             "note": _str(h.get("note", ""), f"{where}.note")}, hr))
        notes = []
        for where, nt in _objects(doc, "notes"):
            notes.append({"case": _str(nt.get("case"), f"{where}.case", MAX_CASE_KEY),
                          "text": _str(nt.get("text"), f"{where}.text"),
                          "author": _str(nt.get("author", ""), f"{where}.author", MAX_NAME),
                          "updated": _stamp(nt.get("updated"), f"{where}.updated")})
        if len({nt["case"] for nt in notes}) != len(notes):
            raise _bad("field 'notes' has two notes on the same case")
    return ProjectFile(name, ref, data_bytes, settings, kb, kb_json, rules, history, notes)


__all__ = ["ConflictError", "DataRef", "Note", "Project", "ProjectFile", "ProjectInfo",
           "RulesVersion", "Store", "database_url", "default_home", "plx_home",
           "read_project_file", "rules_from_text", "rules_to_text"]
