"""Drive the dashboard in headless Chromium (Debian's /usr/bin/chromium through Python
playwright; `playwright install` cannot download browsers here — design.md §5).

Shared by tests/test_browser*.py and benchmarks/bench_browser.py. Waiting is on events, never on
sleeps: every action (`App.act`, and the widget helpers built on it) waits for the app to be idle,
acts, waits for the page's "rerun" request (a Streamlit BackMsg) or the run it starts, and then
for the server's "script finished" message (a ForwardMsg), both read off the session's websocket
and decoded here; where given, it then waits for an expected text on the page.
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


def _selector(locator) -> str:
    """A locator's selector, from its repr, for a failure's message."""
    text = repr(locator)
    return text[text.find("selector="):].rstrip(">") if "selector=" in text else text


def _described(action, what: str | None, target) -> tuple[str, object]:
    """(what an action does, the element it acts on) for a failure's message: by default
    from a locator's bound method such as `button.click`."""
    if target is None and hasattr(getattr(action, "__self__", None), "is_enabled"):
        target = action.__self__
    if what is None:
        what = "the action" if target is None else (
            f"{getattr(action, '__name__', 'act on')} {_selector(target)}")
    return what, target


def _forward(payload):
    """A websocket frame from the server as a Streamlit ForwardMsg, or None."""
    if not isinstance(payload, (bytes, bytearray)):
        return None
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    try:
        return ForwardMsg.FromString(bytes(payload))
    except Exception:  # not a ForwardMsg: not ours to judge
        return None


def script_finished(payload) -> bool:
    """True for a websocket frame that is Streamlit's "script run finished" message (a run
    stopped early for the next one, FINISHED_EARLY_FOR_RERUN, is not)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = _forward(payload)
    return (msg is not None and msg.WhichOneof("type") == "script_finished"
            and msg.script_finished in (ForwardMsg.FINISHED_SUCCESSFULLY,
                                        ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
                                        ForwardMsg.FINISHED_WITH_COMPILE_ERROR))


def run_started(payload) -> bool:
    """True for a frame that says a script run began: every run starts with a new_session
    message, and session_status_changed says script_is_running."""
    msg = _forward(payload)
    if msg is None:
        return False
    kind = msg.WhichOneof("type")
    return kind == "new_session" or (kind == "session_status_changed"
                                     and msg.session_status_changed.script_is_running)


def rerun_requested(payload) -> bool:
    """True for a frame the page sent that asks for a script run (a BackMsg rerun_script):
    what a widget's click, pick or Enter sends the moment the widget registers it."""
    if not isinstance(payload, (bytes, bytearray)):
        return False
    from streamlit.proto.BackMsg_pb2 import BackMsg

    try:
        return BackMsg.FromString(bytes(payload)).WhichOneof("type") == "rerun_script"
    except Exception:  # not a BackMsg
        return False


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
        # counts off the session's websocket: rerun requests sent, runs started, runs finished
        self.requests = self.started = self.finished = 0
        self.repeated: list[str] = []  # actions done a second time (the first was lost)
        self.register_s = 10.0  # an action the page has not sent on by then was lost (sent: in ms)

    def _websocket(self, ws) -> None:
        if "_stcore/stream" in ws.url:
            self.socket = ws
            ws.on("framesent", self._sent)
            ws.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        self.requests += rerun_requested(payload)

    def _received(self, payload) -> None:
        self.started += run_started(payload)
        self.finished += script_finished(payload)

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

    def _until(self, event: str, frame: Callable[[object], bool], done: Callable[[], bool],
               seconds: float) -> bool:
        """Wait until `done()` holds, looking again at each websocket `event` ("framesent" or
        "framereceived") and returning at once on a `frame` it matches; False after `seconds`
        (or when the socket closes) without it."""
        from playwright.sync_api import Error as PlaywrightError

        if done():
            return True
        try:
            self.socket.wait_for_event(event, predicate=lambda p: frame(p) or done(),
                                       timeout=seconds * 1000)
            return True
        except PlaywrightError:  # the timeout, or the socket closed (the server went away)
            return done()

    def start(self, action: Callable[[], object], *, what: str | None = None, target=None,
              repeat: bool = True, when_idle: bool = True) -> tuple[int, float]:
        """Do `action` once the app is idle and return once the page has asked for the script
        run it starts; returns (runs finished before it, its start time) for `act`.

        Before: the app is idle (no run: a click during a rerun can land on an element being
        replaced), unless `when_idle` is False (a Stop clicked during a run). Playwright's
        click itself waits for its element to be attached, visible, stable, enabled and the
        one hit; nothing it checks tells that the element is about to be re-rendered.
        After: a click the page registers is sent on at once as a rerun request. When, within
        `register_s` seconds, no request was sent and no run began, the action was lost and is
        done once more if `repeat` (a click, a pick, an Enter: nothing to submit twice); never
        after a request or a run. A failure's message names `what` was done and says whether
        `target` (the element acted on; by default the locator of a bound method such as
        `button.click`) is enabled."""
        what, target = _described(action, what, target)
        if when_idle:
            self.idle()
        sent, started, finished = self.requests, self.started, self.finished

        def registered() -> bool:
            return self.requests > sent or self.started > started or self.finished > finished

        t0 = time.perf_counter()
        action()
        if repeat and not self._until("framesent", rerun_requested, registered, self.register_s):
            self.repeated.append(what)
            print(f"[{self.name}] {what}: no rerun request within {self.register_s:g} s and no run; "
                  "done once more", file=sys.stderr)
            action()
        if not self._until("framesent", rerun_requested, registered, self.timeout / 1000):
            raise AssertionError(self.failure(
                what, target, f"no rerun request was sent and no run began in {self.timeout / 1000:g} s"))
        return finished, t0

    def act(self, action: Callable[[], object], expect: str | None = None,
            gone: str | None = None, *, what: str | None = None, target=None,
            repeat: bool = True, when_idle: bool = True) -> float:
        """Do `action` (see `start`: when idle, done once more when provably lost), wait for
        the script run it starts to finish (and for `expect` to be shown / `gone` to vanish);
        returns the seconds from the action to the render."""
        what, target = _described(action, what, target)
        finished, t0 = self.start(action, what=what, target=target, repeat=repeat,
                                  when_idle=when_idle)
        if not self._until("framereceived", script_finished, lambda f=finished: self.finished > f,
                           self.timeout / 1000):
            raise AssertionError(self.failure(
                what, target, f"a run was asked for but none finished in {self.timeout / 1000:g} s"))
        self.last_server = time.perf_counter() - t0  # until the run's last message arrived
        self.idle()
        if expect:
            self.expect(expect)
        if gone:
            self.page.get_by_text(gone, exact=False).first.wait_for(state="hidden", timeout=self.timeout)
        return time.perf_counter() - t0

    def failure(self, what: str, target=None, outcome: str = "") -> str:
        """A failed step's message: what was done and what followed, the element's state, the
        page's text tail and the server log's tail."""
        state = ""
        if target is not None:
            try:
                state = "; the element is " + ("enabled" if target.is_enabled(timeout=2000)
                                               else "disabled")
            except Exception:  # noqa: BLE001 - playwright's error: gone, or never there
                state = "; the element is not in the page"
        try:
            script = self.page.get_attribute('[data-testid="stApp"]', "data-test-script-state",
                                             timeout=2000)
            page = self.text()[-400:]
        except Exception:  # noqa: BLE001 - playwright's error: the page itself is gone
            script, page = "(unknown)", "(unreadable)"
        return (f"[{self.name}] {what}: {outcome}{state}; the script is {script}; "
                f"{self.requests} rerun request(s) sent, {self.started} run(s) started, "
                f"{self.finished} finished in this session; done twice: {self.repeated}; "
                f"the page says: {page!r}\nserver log:\n{server_log_tail(self.url)}")

    def expect(self, text: str) -> None:
        self.page.get_by_text(text, exact=False).filter(visible=True).first.wait_for(
            state="visible", timeout=self.timeout)

    def errors_shown(self) -> list[str]:
        """The texts of the exceptions and error boxes the page shows (a page that works: [])."""
        boxes = self.page.locator('[data-testid="stException"], [data-testid="stAlertContentError"]')
        return [boxes.nth(i).inner_text() for i in range(boxes.count())]

    def text(self) -> str:
        return self.page.locator('[data-testid="stMain"]').inner_text()

    def sidebar_text(self) -> str:
        return self.page.locator('[data-testid="stSidebar"]').inner_text()

    def sidebar_shows(self, *texts: str) -> None:
        """Assert that the sidebar shows each of `texts`, waiting for it: the sidebar's summary
        is filled at a run's end and its last deltas reach the page a moment after the run is
        marked finished, so a read at once can catch the previous run's (CI read the summary
        without the threshold a click had just set)."""
        from playwright.sync_api import expect

        side = self.page.locator('[data-testid="stSidebar"]')
        for text in texts:
            expect(side).to_contain_text(text, timeout=self.timeout)

    # ------------------------------------------------------------------ widgets

    def nav(self, title: str, expect: str | None = None) -> float:
        link = self.page.locator('[data-testid="stSidebarNav"] a', has_text=title).first
        return self.act(link.click, expect=expect or title, what=f"navigate to {title!r}",
                        target=link)

    def widget(self, testid: str, label: str):
        return self.page.locator(f'[data-testid="{testid}"]').filter(
            has=self.page.locator('[data-testid="stWidgetLabel"]', has_text=label)).first

    def download(self, name: str, tries: int = 3) -> Path:
        """Click the download button `name` and return the downloaded file's path. The button's
        data is made on click (a round trip to the server, no script run); a click that lands
        during a rerun is lost, so it is clicked again, up to `tries` times, after a third of
        the timeout."""
        from playwright.sync_api import TimeoutError as NoDownload

        btn = self.page.get_by_role("button", name=name, exact=False).first
        for _ in range(tries):
            self.idle()
            try:
                with self.page.expect_download(timeout=self.timeout / 3) as dl:
                    btn.click(timeout=self.timeout / 3)  # a button still making the last file is disabled
                return Path(dl.value.path())
            except NoDownload:
                continue
        raise AssertionError(self.failure(f"download from {name!r}", btn,
                                          f"no download after {tries} clicks"))

    def click_button(self, name: str, expect: str | None = None) -> float:
        btn = self.page.get_by_role("button", name=name, exact=False).first
        return self.act(btn.click, expect=expect, what=f"click {name!r}", target=btn)

    def radio(self, label: str, option: str, expect: str | None = None) -> float:
        choice = self.widget("stRadio", label).get_by_role("radio", name=option, exact=True)
        return self.act(lambda: choice.check(force=True), expect=expect,  # the input is hidden
                        what=f"pick {option!r} in {label!r}", target=choice)

    def select(self, label: str, option: str, expect: str | None = None) -> float:
        """Pick `option` (a substring of its shown text) in a selectbox."""
        box = self.widget("stSelectbox", label)
        self._open(box)  # opening the list is not part of the timed interaction: the pick is
        opt = self.page.locator('[role="option"]', has_text=option).first
        return self.act(lambda: self._pick(box, opt), expect=expect,
                        what=f"pick {option!r} in {label!r}", target=opt)

    def _open(self, box) -> None:
        """Open a selectbox's list with its trigger button (clicking an input that already has
        the focus does not reopen it)."""
        self.idle()
        first = self.page.locator('[role="option"]').first
        for attempt in range(4):  # a click during an animation can be lost
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

    def _pick(self, box, opt) -> None:
        """Click the option `opt` of the selectbox `box`, opening its list when it is closed
        (a late re-render can close it under the pointer; a repeated pick finds it closed)."""
        for _ in range(3):
            try:
                if not opt.is_visible():
                    self._open(box)
                opt.click(timeout=3000)
                return
            except Exception:  # noqa: BLE001 - playwright's TimeoutError: reopen
                continue
        self._open(box)
        opt.click()

    def select_index(self, label: str, index: int, expect: str | None = None) -> tuple[float, str]:
        """Pick the option at `index` of a selectbox; returns (seconds, the option's text)."""
        box = self.widget("stSelectbox", label)
        self._open(box)
        opt = self.page.locator('[role="option"]').nth(index)
        text = opt.inner_text()
        return self.act(lambda: self._pick(box, opt), expect=expect,
                        what=f"pick {text!r} in {label!r}", target=opt), text

    def select_other(self, label: str, start: int = 0, expect: str | None = None) -> tuple[float, str]:
        """Pick the first option from `start` on that is not the current value (the list is
        virtualised: only the first options exist in the page)."""
        current = self.value(label)
        box = self.widget("stSelectbox", label)
        self._open(box)
        opts = self.page.locator('[role="option"]')
        n = opts.count()
        for i in list(range(start, n)) + list(range(0, start)):
            opt = opts.nth(i)
            text = opt.inner_text()
            if text.strip() != current.strip():
                return self.act(lambda o=opt: self._pick(box, o), expect=expect,
                                what=f"pick {text!r} in {label!r}", target=opt), text
        raise AssertionError(f"no other option in {label!r}")

    def shows(self, testid: str, label: str, value: str) -> None:
        """Assert that the field shows `value`, waiting for it: a value the script sets (a draft
        restored after a refresh) reaches the field's DOM a moment after the field is drawn,
        so a read at once can catch the widget's default (CI saw p '0.00' for '0.80')."""
        from playwright.sync_api import expect

        box = self.widget(testid, label).locator("input, textarea").first
        expect(box).to_have_value(value, timeout=self.timeout)

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

        # not repeated: a step the page took but had not sent yet would be taken twice
        t0 = time.perf_counter()
        self.act(go, what=f"move {label!r} by {steps}", target=thumb, repeat=False)
        # the page sends a moving slider's value a moment after the last step it saw
        # (debounced): on a busy machine, steps further apart than that each start a run, and
        # the first run to finish can be for a value the slider has left (CI decided at 0.44
        # after reading 0.47). Settled: no run asked for in 1.5 s after the last one finished.
        while True:
            sent, finished = self.requests, self.finished
            if not self._until("framesent", rerun_requested, lambda s=sent: self.requests > s, 1.5):
                break
            self._until("framereceived", script_finished, lambda f=finished: self.finished > f,
                        self.timeout / 1000)
            self.idle()
        if expect:
            self.expect(expect)
        return time.perf_counter() - t0

    def slider_value(self, label: str) -> str:
        """The value the slider shows (the page's own, before or after the script has it)."""
        return self.widget("stSlider", label).locator('input[type="range"]').first.input_value()

    def fill(self, testid: str, label: str, value: str, expect: str | None = None) -> float:
        box = self.widget(testid, label).locator("input, textarea").first

        def go() -> None:
            box.fill(value)
            box.press("Enter" if testid != "stTextArea" else "Control+Enter")

        return self.act(go, expect=expect, what=f"type {value!r} into {label!r}", target=box)

    def type_and_leave(self, testid: str, label: str, value: str) -> None:
        """Type into a field and leave it (Tab), as a user moves on: the page sends the value
        as the field is left (the Rules page has no st.form, dash25: a form sent nothing until
        submitted, so a refresh lost the typing), so wait for that run; nothing when unchanged."""
        box = self.widget(testid, label).locator("input, textarea").first
        if box.input_value() == value:
            return

        def go() -> None:
            box.fill(value)
            box.press("Tab")

        self.act(go, what=f"type {value!r} into {label!r} and leave it", target=box, repeat=False)

    def upload(self, path: Path, expect: str | None = None) -> float:
        inp = self.page.locator('[data-testid="stFileUploader"] input[type="file"]').first
        # not repeated: the file goes up first (an HTTP request), the rerun request after it
        return self.act(lambda: inp.set_input_files(str(path)), expect=expect,
                        what=f"upload {path.name}", target=inp, repeat=False)

    def metric(self, label: str) -> str:
        m = self.page.locator('[data-testid="stMetric"]').filter(
            has=self.page.locator('[data-testid="stMetricLabel"]', has_text=label)).first
        return m.locator('[data-testid="stMetricValue"]').inner_text().strip()

    def metric_cut(self, label: str) -> bool:
        """Whether the browser cuts the shown value of a metric short (an ellipsis: its text
        is wider than its box), which `metric` cannot tell: it reads the whole text."""
        m = self.page.locator('[data-testid="stMetric"]').filter(
            has=self.page.locator('[data-testid="stMetricLabel"]', has_text=label)).first
        box = m.locator('[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"]').first
        box.wait_for(state="visible", timeout=self.timeout)
        return bool(box.evaluate("e => e.scrollWidth > e.clientWidth + 1"))

    def label_cut(self, testid: str, label: str) -> bool:
        """Whether the browser cuts a widget's label short (an ellipsis, or wider than its
        box) at the window's current width: what the reader cannot read whole."""
        box = self.page.locator(f'[data-testid="{testid}"]').filter(has_text=label).first
        box.wait_for(state="visible", timeout=self.timeout)
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        return bool(box.evaluate(
            "b => [b, ...b.querySelectorAll('*')].some(e => e.clientWidth > 2 "  # not a 1-px input
            "&& e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')"))

    def chart_text_cut(self) -> list[str]:
        """The texts of the page's plotly charts (bar labels, tick labels) that run past their
        chart's edge, which the chart cuts: what the reader cannot read whole."""
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        return self.page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid="stPlotlyChart"]')].flatMap(c => {
              const svg = c.querySelector('svg.main-svg');
              if (!svg) return [];
              const box = svg.getBoundingClientRect();
              return [...c.querySelectorAll('.annotation-text, .xtick text, .ytick text')]
                .filter(t => { const r = t.getBoundingClientRect();
                               return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1); })
                .map(t => t.textContent); })""")

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


def tall_app(browser, server: str, name: str, **context) -> tuple[object, App]:
    """A browser context 1400 × 2400 px (a whole page in view) and its App, waiting up to
    240 s for each step (a table of thousands of rows fitted on a busy machine); `context`:
    more of playwright's context options (accept_downloads=True)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 2400}, **context)
    app = App(ctx.new_page(), server, name)
    app.timeout = 240_000
    app.page.set_default_timeout(app.timeout)
    return ctx, app
