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
