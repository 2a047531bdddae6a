"""Writing results safely: CSV a spreadsheet will not run, and files that never replace an input.

One home for both, used by the CLI and the dashboard's downloads:
- `safe_cell` / `safe_csv` defuse CSV injection (OWASP): a text cell starting with `=`, `+`,
  `-`, `@`, tab or CR gets a leading single quote, so a spreadsheet shows it as text instead of
  running it as a formula. Numbers are never touched: columns of a numeric dtype are written as
  numbers, and a text cell that is a plain decimal number with an optional sign (`-0.5`, `-1`,
  `+1`, `-2e-3`) is left as it is — a spreadsheet reads it as that number, not as a formula, and
  a class label like `-1` or `+1` (libsvm's labels) must read back unchanged (trust23: `+1` was
  written `'+1` beside a bare `-1`). Anything else starting with `-` or `+` (`-2+3`, `+cmd|…`)
  is quoted.
- `check_output` refuses an output path that is one of the inputs (after resolving links) or a
  folder or a device / pipe, before any work is done; `write_atomic` writes through a temporary
  file in the same folder (the link's target, for a symbolic link) and renames it, so a failure
  half-way never leaves a truncated file behind.
"""

from __future__ import annotations

import io
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import PLXError

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


class OutputError(PLXError, ValueError):
    """An output path cannot be used (it is an input, a folder, or its folder is missing)."""


def safe_cell(v: Any) -> Any:
    """A cell a spreadsheet will not run: text starting with = + - @ tab or CR gets a leading
    single quote (OWASP's advice for CSV injection); plain numbers such as `-0.5` or `+1` stay. Spaces
    or a line break before the = count for nothing (fuzz17: ' =1+1' was written as it came)."""
    if isinstance(v, str):
        bare = v.lstrip(" \u00a0\n")
        if bare.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(bare):
            return "'" + v
    return v


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with every text cell and column name defused by `safe_cell`."""
    out = frame.copy()
    out.columns = [safe_cell(str(c)) for c in out.columns]
    for j in range(out.shape[1]):
        col = out.iloc[:, j]
        if col.dtype == object or pd.api.types.is_string_dtype(col.dtype):
            out.isetitem(j, col.map(safe_cell))
    return out


def safe_csv(frame: pd.DataFrame) -> bytes:
    """CSV bytes (UTF-8) with every text cell (and header) defused by `safe_cell`."""
    buf = io.StringIO()
    # CRLF line ends (RFC 4180): the csv writer then quotes every field holding a CR or LF;
    # with "\n" alone a bare CR in a value would be written raw and split the row on reading
    safe_frame(frame).to_csv(buf, index=False, lineterminator="\r\n")
    return buf.getvalue().encode("utf-8")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_output(out: str | Path, inputs: Iterable[str | Path] = (), flag: str = "--out") -> Path:
    """The output path, checked before any work: not an input (same file after resolving
    paths, symbolic and hard links), not a folder, device or pipe, and its folder exists."""
    p = Path(out)
    if str(out) == "":
        raise OutputError(f"{flag} is empty; name the file to write")
    for src in inputs:
        if _same_file(p, Path(src)):
            raise OutputError(
                f"{flag} {str(p)!r} is the input file {str(src)!r}; writing it would destroy "
                "the input — choose another output file"
            )
    if p.is_dir():
        raise OutputError(f"{flag} {str(p)!r} is a folder; name a file inside it")
    _refuse_special(p, flag)
    parent = p.parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "does not exist"
        raise OutputError(f"output folder {str(parent)!r} {what} ({flag} {str(p)!r})")
    return p


def _refuse_special(p: Path, flag: str) -> None:
    """Refuse an existing path that is no regular file (a device such as /dev/null or
    /dev/stdout, a pipe, a socket): the atomic write renames a new file over it, which
    replaced /dev/full itself when run as root (trust23), and fails for anyone else."""
    try:
        mode = p.stat().st_mode
    except OSError:  # missing, or a link to nowhere: a new file is written there
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "not a regular file")
        raise OutputError(f"{flag} {str(p)!r} is {kind}, not a file: plx writes a whole file "
                          "and renames it into place; name a file (e.g. out.csv)")


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename it over
    `path`: readers see the old file or the new one, never half of it."""
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary file beside `path` to write, renamed over `path` when the block ends (with
    the mode a plain write would give), removed if it fails: written as it goes (`plx predict`
    on a long file), `path` is still whole or untouched."""
    p = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    _refuse_special(p, "output")
    mode = p.stat().st_mode & 0o777 if p.is_file() else 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:  # name the file the user asked for, not the temporary one
        raise OSError(exc.errno, f"cannot write there ({exc.strerror})", str(p)) from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, mode)  # mkstemp makes 0600; give the file the mode a plain write would
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
