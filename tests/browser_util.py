"""Drive the dashboard in headless Chromium (Debian's /usr/bin/chromium through Python
playwright; `playwright install` cannot download browsers here — design.md §5).

Shared by tests/test_browser.py and benchmarks/bench_browser.py. Waiting is on events, never on
sleeps: every action waits for the server's "script finished" message on the session's
websocket (a Streamlit ForwardMsg, decoded here) and, where given, for an expected text on the
page.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's Chromium ($PLX_CHROMIUM overrides), or None when it is not installed."""
    for cand in (os.environ.get("PLX_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if cand and Path(cand).exists():
            return cand
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_LOGS: dict[str, Path] = {}  # a running server's URL -> its log (printed when a step fails)


def server_log_tail(url: str, lines: int = 40) -> str:
    """The last lines the server at `url` wrote (stdout and stderr), for a failure message."""
    path = SERVER_LOGS.get(url)
    if path is None or not path.is_file():
        return "(no server log)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) or "(empty)"


@contextlib.contextmanager
def streamlit_server(port: int | None = None, timeout: float = 90.0,
                     env: dict[str, str] | None = None,
                     procs: list[subprocess.Popen] | None = None) -> Iterator[str]:
    """`streamlit run app.py` on a free port; yields its URL once /_stcore/health says ok.
    `env` adds environment variables (without PLX_HOME the server saves its projects in a new
    temporary folder); the server's process is appended to `procs` (for tests that kill it)."""
    port = port or free_port()
    logdir = ROOT / "artifacts" if (ROOT / "artifacts").is_dir() else Path(tempfile.gettempdir())
    log_path = logdir / f"streamlit-{port}.log"
    log = open(log_path, "w")
    home = None
    if not (env or {}).get("PLX_HOME"):  # each server keeps its projects in a folder of its own
        home = tempfile.mkdtemp(prefix="plx-home-")
        env = dict(env or {}, PLX_HOME=home)
    env = dict(os.environ, PYTHONUNBUFFERED="1", **env)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    if procs is not None:
        procs.append(proc)
    url = f"http://127.0.0.1:{port}"
    SERVER_LOGS[url] = log_path
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {proc.returncode} before it was ready")
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"streamlit did not answer on {url} within {timeout} s")
            time.sleep(0.2)  # polling a port that is not open yet (not a wait on the UI)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)  # the server we started, by its process group
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()
        SERVER_LOGS.pop(url, None)
        if logdir != ROOT / "artifacts":
            log_path.unlink(missing_ok=True)
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)


def launch(playwright, executable: str):
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)


def script_finished(payload) -> bool:
    """True for a websocket frame that is Streamlit's "script run finished" message."""
    if not isinstance(payload, (bytes, bytearray)):
        return False
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    try:
        msg = ForwardMsg.FromString(bytes(payload))
    except Exception:  # not a ForwardMsg: not ours to judge
        return False
    return msg.WhichOneof("type") == "script_finished" and msg.script_finished in (
        ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
        ForwardMsg.FINISHED_WITH_COMPILE_ERROR)


class App:
    """One browser page on the dashboard (one Streamlit session)."""

    def __init__(self, page, url: str, name: str = "app"):
        self.page = page
        self.url = url
        self.name = name
        self.timeout = 60_000
        page.set_default_timeout(self.timeout)
        page.on("dialog", self._dialog)
        page.on("websocket", self._websocket)
        self.dialogs: list[str] = []
        self.socket = None
        self.last_server = 0.0

    def _websocket(self, ws) -> None:
        if "_stcore/stream" in ws.url:
            self.socket = ws

    def _dialog(self, dialog) -> None:  # a script alert would mean injected HTML ran
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    # ------------------------------------------------------------------ waiting

    def idle(self) -> None:
        self.page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                                    timeout=self.timeout)

    def open(self, path: str = "", expect: str | None = None) -> float:
        t0 = time.perf_counter()
        self.page.goto(self.url + "/" + path.lstrip("/"))
        self.page.wait_for_selector("h1", timeout=self.timeout)
        self.idle()
        if expect:
            self.expect(expect)
        return time.perf_counter() - t0

    def act(self, action: Callable[[], object], expect: str | None = None,
            gone: str | None = None) -> float:
        """Do `action`, wait for the script run it starts to finish (and for `expect` to be
        shown / `gone` to vanish); returns the seconds from the action to the render."""
        t0 = time.perf_counter()
        with self.socket.expect_event("framereceived", predicate=script_finished,
                                      timeout=self.timeout):
            action()
        self.last_server = time.perf_counter() - t0  # until the run's last message arrived
        self.idle()
        if expect:
            self.expect(expect)
        if gone:
            self.page.get_by_text(gone, exact=False).first.wait_for(state="hidden", timeout=self.timeout)
        return time.perf_counter() - t0

    def expect(self, text: str) -> None:
        self.page.get_by_text(text, exact=False).filter(visible=True).first.wait_for(
            state="visible", timeout=self.timeout)

    def text(self) -> str:
        return self.page.locator('[data-testid="stMain"]').inner_text()

    def sidebar_text(self) -> str:
        return self.page.locator('[data-testid="stSidebar"]').inner_text()

    # ------------------------------------------------------------------ widgets

    def nav(self, title: str, expect: str | None = None) -> float:
        link = self.page.locator('[data-testid="stSidebarNav"] a', has_text=title).first
        return self.act(link.click, expect=expect or title)

    def widget(self, testid: str, label: str):
        return self.page.locator(f'[data-testid="{testid}"]').filter(
            has=self.page.locator('[data-testid="stWidgetLabel"]', has_text=label)).first

    def download(self, name: str, tries: int = 3) -> Path:
        """Click the download button `name` and return the downloaded file's path. The button's
        data is made on click (a round trip to the server); a click that lands during a rerun
        is lost, so it is clicked again, up to `tries` times, after a third of the timeout."""
        from playwright.sync_api import TimeoutError as NoDownload

        btn = self.page.get_by_role("button", name=name, exact=False).first
        for i in range(tries):
            self.idle()
            try:
                with self.page.expect_download(timeout=self.timeout / 3) as dl:
                    btn.click(timeout=self.timeout / 3)  # a button still making the last file is disabled
                return Path(dl.value.path())
            except NoDownload:
                if i == tries - 1:
                    state = "disabled (still making the file)" if btn.is_disabled() else "enabled"
                    raise AssertionError(
                        f"no download from {name!r} after {tries} clicks; the button is {state}; "
                        f"the page says: {self.text()[-400:]!r}\nserver log:\n"
                        f"{server_log_tail(self.url)}") from None
        raise AssertionError("unreachable")

    def click_button(self, name: str, expect: str | None = None) -> float:
        btn = self.page.get_by_role("button", name=name, exact=False).first
        return self.act(btn.click, expect=expect)

    def radio(self, label: str, option: str, expect: str | None = None) -> float:
        box = self.widget("stRadio", label)
        return self.act(lambda: box.get_by_role("radio", name=option, exact=True).check(force=True),
                        expect=expect)

    def select(self, label: str, option: str, expect: str | None = None) -> float:
        """Pick `option` (a substring of its shown text) in a selectbox."""
        box = self.widget("stSelectbox", label)
        self._open(box)  # opening the list is not part of the timed interaction: the pick is
        opt = self.page.locator('[role="option"]', has_text=option).first

        def pick() -> None:
            for _ in range(3):  # a late re-render can close the list under the pointer
                try:
                    opt.click(timeout=3000)
                    return
                except Exception:  # noqa: BLE001 - playwright's TimeoutError: reopen
                    self._open(box)
            opt.click()

        return self.act(pick, expect=expect)

    def _open(self, box) -> None:
        """Open a selectbox's list with its trigger button (clicking an input that already has
        the focus does not reopen it)."""
        first = self.page.locator('[role="option"]').first
        for attempt in range(4):  # a click during a re-render or an animation can be lost
            if attempt % 2 == 0:
                box.locator('button[aria-haspopup="listbox"]').first.click()
            else:
                box.locator('input[role="combobox"]').first.press("ArrowDown")
            try:
                first.wait_for(state="visible", timeout=3000)
                return
            except Exception:  # noqa: BLE001 - playwright's TimeoutError; try again
                continue
        first.wait_for(state="visible", timeout=self.timeout)

    def select_index(self, label: str, index: int, expect: str | None = None) -> tuple[float, str]:
        """Pick the option at `index` of a selectbox; returns (seconds, the option's text)."""
        box = self.widget("stSelectbox", label)
        self._open(box)
        opt = self.page.locator('[role="option"]').nth(index)
        text = opt.inner_text()
        return self.act(opt.click, expect=expect), text

    def select_other(self, label: str, start: int = 0, expect: str | None = None) -> tuple[float, str]:
        """Pick the first option from `start` on that is not the current value (the list is
        virtualised: only the first options exist in the page)."""
        current = self.value(label)
        box = self.widget("stSelectbox", label)
        self._open(box)
        opts = self.page.locator('[role="option"]')
        n = opts.count()
        for i in list(range(start, n)) + list(range(0, start)):
            text = opts.nth(i).inner_text()
            if text.strip() != current.strip():
                return self.act(opts.nth(i).click, expect=expect), text
        raise AssertionError(f"no other option in {label!r}")

    def value(self, label: str) -> str:
        """The shown value of a selectbox."""
        return self.widget("stSelectbox", label).locator('input[role="combobox"]').first.input_value()

    def slider_step(self, label: str, steps: int = 1, expect: str | None = None) -> float:
        thumb = self.widget("stSlider", label).locator('input[type="range"]').first
        key = "ArrowRight" if steps > 0 else "ArrowLeft"

        def go() -> None:
            thumb.focus()
            for _ in range(abs(steps)):
                thumb.press(key)

        return self.act(go, expect=expect)

    def fill(self, testid: str, label: str, value: str, expect: str | None = None) -> float:
        box = self.widget(testid, label).locator("input, textarea").first

        def go() -> None:
            box.fill(value)
            box.press("Enter" if testid != "stTextArea" else "Control+Enter")

        return self.act(go, expect=expect)

    def fill_in_form(self, testid: str, label: str, value: str) -> None:
        """Type into a widget inside an st.form: nothing reruns until the form is submitted
        (and Enter would submit it), so there is nothing to wait for."""
        box = self.widget(testid, label).locator("input, textarea").first
        box.fill(value)

    def upload(self, path: Path, expect: str | None = None) -> float:
        inp = self.page.locator('[data-testid="stFileUploader"] input[type="file"]').first
        return self.act(lambda: inp.set_input_files(str(path)), expect=expect)

    def metric(self, label: str) -> str:
        m = self.page.locator('[data-testid="stMetric"]').filter(
            has=self.page.locator('[data-testid="stMetricLabel"]', has_text=label)).first
        return m.locator('[data-testid="stMetricValue"]').inner_text().strip()

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def wide_table(path: Path) -> Path:
    """scikit-learn's breast-cancer table with all 30 measurements."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    raw = load_breast_cancer(as_frame=True)
    frame = raw.data.copy()
    frame["diagnosis"] = np.asarray(raw.target_names, dtype=object)[raw.target.to_numpy()]
    frame.to_csv(path, index=False)
    return path
