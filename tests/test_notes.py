"""plx_core.notes: what plx says while it works reaches the thread (the dashboard session)
that asked, and only that one."""

import threading
import warnings

import numpy as np
import pandas as pd
import pytest

from plx_core import PLXClassifier
from plx_core.notes import collected, say


def test_a_note_outside_a_block_is_a_user_warning():
    with pytest.warns(UserWarning, match="column 'x' is constant"):
        say("column 'x' is constant")


def test_two_sessions_collect_only_their_own_notes_however_they_interleave():
    """Two threads inside their own blocks, their notes said in turn: each block keeps its
    own, in order, and nothing is warned (catch_warnings(record=True), which swaps one
    process-wide hook, gave the second block's list both sessions' notes)."""
    turns = [threading.Event() for _ in range(4)]
    got: dict[str, list[str]] = {}

    def session(name: str, mine: tuple[int, int]) -> None:
        with collected() as noted:
            for i in mine:
                if i:
                    turns[i - 1].wait(5)
                say(f"{name}: note {i}")
                turns[i].set()
        got[name] = noted

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = threading.Thread(target=session, args=("ward A", (0, 2)))
        b = threading.Thread(target=session, args=("ward B", (1, 3)))
        a.start()
        b.start()
        a.join(10)
        b.join(10)
    assert got == {"ward A": ["ward A: note 0", "ward A: note 2"],
                   "ward B": ["ward B: note 1", "ward B: note 3"]}
    assert not [w for w in caught if "note" in str(w.message)]


def test_a_fit_in_a_block_says_its_notes_there_and_warns_nothing():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.choice(list("xyz"), 60), "same": ["k"] * 60})
    y = (X["a"] == "x").astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with collected() as noted:
            PLXClassifier(positive=1, random_state=0).fit(X, y)
    assert any("'same'" in n and "left out" in n for n in noted), noted
    assert not [w for w in caught if issubclass(w.category, UserWarning)
                and "left out" in str(w.message)]


def test_notes_said_in_worker_threads_reach_the_caller_in_the_items_order():
    """`pool_map`: a note said in a pool's thread reaches the block of the thread that gave
    the work (a worker starts in its own context, where it was lost), in the items' order
    however the threads finish; two sessions sharing one pool still see only their own."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from plx_core.notes import pool_map

    start = threading.Barrier(2)

    def work(name: str) -> tuple[list[int], list[str]]:
        def one(i: int) -> int:
            time.sleep(0.02 * (3 - i))  # the last item finishes first
            say(f"{name}: row {i}")
            return i * i

        start.wait(5)
        with collected() as noted:
            got = pool_map(pool, one, range(4))
        return got, noted

    with ThreadPoolExecutor(4) as pool, ThreadPoolExecutor(2) as sessions, \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a, b = sessions.submit(work, "ward A"), sessions.submit(work, "ward B")
        assert a.result(10) == ([0, 1, 4, 9], [f"ward A: row {i}" for i in range(4)])
        assert b.result(10) == ([0, 1, 4, 9], [f"ward B: row {i}" for i in range(4)])
    assert not [w for w in caught if "ward" in str(w.message)]


def test_a_note_said_while_query_many_answers_in_threads_reaches_the_block(monkeypatch):
    """query_many answers its chunks of rows in threads: a note said there (here by a chunk's
    lookup) reaches the caller's block, once per chunk, and is warned nowhere else."""
    import importlib

    from plx_core import direct_kb

    Q = importlib.import_module("plx_core.query")  # the module: plx_core.query is the function

    rng = np.random.default_rng(1)
    X = pd.DataFrame({f: rng.choice(list("abcd"), 400) for f in ("f1", "f2", "f3")})
    y = (X["f1"] == "a").astype(int)
    kb = direct_kb(X, y, positive=1)
    monkeypatch.setattr(Q, "BATCH_PAIRS", 200)  # several chunks, so several threads
    real = Q._chunk_bounds

    def noisy(*a, **kw):
        say("a chunk's note")
        return real(*a, **kw)

    monkeypatch.setattr(Q, "_chunk_bounds", noisy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with collected() as noted:
            got = Q.query_many(kb, X, n_jobs=2)
    assert len(noted) > 1 and set(noted) == {"a chunk's note"}, noted
    assert not [w for w in caught if "chunk" in str(w.message)]
    assert np.isfinite(got.lower).all()
