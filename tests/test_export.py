"""Safe exports (plx_core.export): CSV a spreadsheet will not run, outputs that never replace
an input, writes that never leave half a file."""

import csv
import io
import os

import pandas as pd
import pytest

from plx_core.export import OutputError, check_output, safe_cell, safe_csv, write_atomic


def rows_of(raw: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))


def test_formula_cells_get_a_quote_and_plain_numbers_do_not():
    for v in ("=1+1", "@x", "+x", "++2", "+2+3", "\tx", "\rx", "-2+3", "-cmd|' /C calc'!A0", "-", "--1",
              "-1e", "-inf", "-nan", "-0x1", " =1+1", "\u00a0@SUM(A1)", "\n=cmd|' /C calc'!A0",
              "  +x"):
        assert safe_cell(v) == "'" + v, v
    for v in ("-2", "-0.5", "-.5", "-1e-3", "-2E+10", "+1", "+0.5", "+2e3", "ok", "", "1", "a=-1",
              " -2", "  ok"):  # trust23: +1 (libsvm's label) was quoted beside a bare -1
        assert safe_cell(v) == v, v
    assert safe_cell(3) == 3 and safe_cell(-0.5) == -0.5 and safe_cell(None) is None


def test_safe_csv_defuses_headers_and_text_and_keeps_number_columns():
    frame = pd.DataFrame({"=h": ['=HYPERLINK("x")', "fine", "-1"], "n": [1, -2, 3],
                          "x": [-0.5, 0.25, float("nan")], "t": ["a\rb", "c\nd", "@e"]})
    rows = rows_of(safe_csv(frame))
    assert rows[0] == ["'=h", "n", "x", "t"]
    assert rows[1] == ["'=HYPERLINK(\"x\")", "1", "-0.5", "a\rb"]  # a CR stays inside its cell
    assert rows[2] == ["fine", "-2", "0.25", "c\nd"]
    assert rows[3] == ["-1", "3", "", "'@e"]
    back = pd.read_csv(io.BytesIO(safe_csv(frame)))
    assert back["n"].tolist() == [1, -2, 3] and back["x"].iloc[0] == -0.5


def test_an_output_that_is_an_input_is_refused(tmp_path, monkeypatch):
    src = tmp_path / "data.csv"
    src.write_text("a\n1\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    os.symlink(src, tmp_path / "link.csv")
    os.link(src, tmp_path / "hard.csv")
    for out in ("data.csv", "./sub/../data.csv", str(src), "link.csv", "hard.csv"):
        with pytest.raises(OutputError, match="is the input file"):
            check_output(out, ["data.csv"])
    assert check_output("other.csv", ["data.csv"]).name == "other.csv"
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path / "sub", [src])
    with pytest.raises(OutputError, match="does not exist"):
        check_output(tmp_path / "nope" / "x.csv")
    with pytest.raises(OutputError, match="is not a folder"):
        check_output(src / "x.csv")
    with pytest.raises(OutputError, match="empty"):
        check_output("")


def test_write_atomic_replaces_whole_or_not_at_all(tmp_path, monkeypatch):
    p = tmp_path / "out.csv"
    write_atomic(p, b"first")
    assert p.read_bytes() == b"first"
    os.chmod(p, 0o640)
    write_atomic(p, b"second")
    assert p.read_bytes() == b"second" and (p.stat().st_mode & 0o777) == 0o640

    def fail(*a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        write_atomic(p, b"third")
    assert p.read_bytes() == b"second" and sorted(x.name for x in tmp_path.iterdir()) == ["out.csv"]


def test_a_device_or_pipe_is_refused_as_output_and_left_as_it_is(tmp_path):
    """trust23: `--out /dev/full` run as root renamed the predictions over the device itself;
    a path that exists and is no regular file is refused before any work, named."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match=r"--out '.*pipe' is a pipe, not a file"):
        check_output(fifo)
    with pytest.raises(OutputError, match="is a pipe"):
        write_atomic(fifo, b"x")
    assert os.path.exists("/dev/null")  # a character device: refused, never written
    with pytest.raises(OutputError, match="'/dev/null' is a device, not a file"):
        check_output("/dev/null")
    import stat
    assert stat.S_ISFIFO(fifo.stat().st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_symbolic_link_output_writes_its_target_and_stays_a_link(tmp_path):
    """A plain write goes through a link; the atomic rename replaced the link by a file."""
    target = tmp_path / "real.csv"
    target.write_bytes(b"old")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    write_atomic(check_output(link), b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    dangling = tmp_path / "to-nowhere.csv"
    dangling.symlink_to(tmp_path / "made.csv")
    write_atomic(check_output(dangling), b"made")
    assert dangling.is_symlink() and (tmp_path / "made.csv").read_bytes() == b"made"
