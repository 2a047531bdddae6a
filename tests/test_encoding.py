"""plx_core.encoding: the factorised column pass writes every cell as the per-cell rule does."""

import unicodedata

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plx_core.encoding import (
    check_categorical,
    check_label_variants,
    column_strings,
    column_twins,
    encode,
    is_missing,
    number_key,
    stray_classes,
    stray_said,
    value_str,
    value_twin,
)
from plx_core.errors import DataError

CELLS = st.one_of(
    st.text(max_size=3), st.integers(-3, 3), st.booleans(), st.none(),
    st.sampled_from([np.nan, pd.NA, pd.NaT, 1.0, -0.0, 2.5, np.int64(1), np.True_]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(CELLS, max_size=30), st.sampled_from(["mixed", "text", "ints"]))
def test_column_strings_equal_the_per_cell_rule(cells, kind):
    if kind == "text":
        cells = [c if isinstance(c, str) or c is None else str(c) for c in cells]
    elif kind == "ints":
        cells = [c if isinstance(c, int) and not isinstance(c, bool) else None for c in cells]
    raw = np.array(cells + [None], dtype=object)[:-1]  # keep an object array of any cells
    inverse, strs = column_strings(raw)
    got = [None if i < 0 else strs[i] for i in inverse]
    assert got == [None if is_missing(v) else value_str(v) for v in raw]


def test_encode_codes_a_long_text_column_and_keeps_unseen_and_missing_apart():
    col = np.array(["b", "a", None, "c", "a"] * 1000, dtype=object)
    enc = encode(pd.DataFrame({"f": col}))
    assert enc.domains == {"f": ("a", "b", "c")}
    assert enc.codes[:5, 0].tolist() == [1, 0, -1, 2, 0]
    again = encode(pd.DataFrame({"f": ["a", "z", None]}), domains=enc.domains)
    assert again.codes[:, 0].tolist() == [0, -2, -1]  # z: known feature, unseen value


def test_numbers_written_two_ways_find_their_twin_in_a_domain():
    assert [number_key(v) for v in ["2", "2.0", "+2", "02", "0.50", "1e3", "x", "nan", "inf"]] \
        == ["2", "2", "2", "2", "0.5", "1000", None, None, None]
    dom = ("0.0", "1.0", "2.0", "x")
    assert value_twin(dom, "2") == 2 and value_twin(dom, "y") is None
    assert value_twin(("7", "007"), "7.0") is None  # two twins: not guessed
    assert value_twin(("False", "True"), "TRUE") == 1 and value_twin(("a", "b"), " A ") == 0
    assert value_twin(("a", "A"), "a ") is None
    codes = encode(pd.DataFrame({"k": [2, 0, 5, None]}, dtype=object), {"k": dom}).codes[:, 0]
    assert codes.tolist() == [2, 0, -2, -1]  # 5 is unseen, None missing


def _scan_twin(domain, s):
    """The reference: a pass over the whole domain per value (what `value_twin` once did)."""
    key = number_key(s)
    if key is not None:
        hits = [i for i, v in enumerate(domain) if number_key(v) == key]
    else:
        def fold(t):
            return unicodedata.normalize("NFC", t).strip().casefold()

        hits = [i for i, v in enumerate(domain) if fold(v) == fold(s)]
    return hits[0] if len(hits) == 1 else None


SPELLINGS = st.sampled_from(["2", "2.0", "02", "+2", " 2 ", "0.5", "0.50", "x", "X", " x", "Yes",
                             "yes ", "YES", "nan", "inf", "", " ", "ß", "SS", "1e3", "1000",
                             "cr\u00e8me", "cre\u0300me", "CRE\u0300ME"])


@settings(max_examples=300, deadline=None)
@given(st.lists(SPELLINGS | st.text(max_size=3), max_size=12, unique=True),
       st.lists(SPELLINGS | st.text(max_size=3), min_size=1, max_size=6))
def test_a_domains_twins_looked_up_once_equal_a_scan_of_the_domain(domain, values):
    """`Twins` (built once per domain) finds what a scan of the whole domain per value finds:
    the one number or folded text, none where two share it; `encode` and `query_many` read
    through it."""
    from plx_core.encoding import Twins

    twins = Twins.of(domain)
    for s in values:
        assert twins.find(s) == value_twin(domain, s) == _scan_twin(domain, s), s
    if domain:
        dom = tuple(domain)
        codes = encode(pd.DataFrame({"f": values}), {"f": dom}).codes[:, 0].tolist()
        want = [dom.index(s) if s in dom else (_scan_twin(dom, s) if _scan_twin(dom, s) is not None
                                                else -2) for s in values]
        assert codes == want


def test_a_kb_reads_a_value_written_otherwise_against_its_domain_as_it_is_now():
    """A KB whose domain grows (an expert rule names a new value) reads values written
    otherwise against the grown domain; the KB it was made from keeps its own."""
    from plx_core import direct_kb, parse_rules, query
    from plx_core.query import query_many

    X = pd.DataFrame({"n": ["1.0", "2.0", "1.0", "2.0"], "g": ["a", "b", "b", "a"]})
    kb = direct_kb(X, np.array([1, 0, 1, 0]), positive=1)
    assert query(kb, {"n": "3"}).unseen == {"n": "3"}
    grown = kb.with_rules(parse_rules("IF n=3.0 THEN POS [p=0.9]"))
    got = query(grown, {"n": "3"})
    assert got.unseen == {} and [(r.written, r.value) for r in got.read_as] == [("3", "3.0")]
    assert got.mean == query(grown, {"n": "3.0"}).mean
    many = query_many(grown, pd.DataFrame({"n": ["3", "1", "4"]}))
    assert [(r.written, r.value, r.rows) for r in many.read_as] == [("3", "3.0", 1), ("1", "1.0", 1)]
    assert query(kb, {"n": "3"}).unseen == {"n": "3"}  # the original KB's domain is as it was
    assert query_many(kb, pd.DataFrame({"n": ["3"]})).unseen_rows.tolist() == [0]


def test_columns_of_one_name_are_refused_naming_each_name_once():
    import pytest

    from plx_core.encoding import as_frame, match_columns
    from plx_core.errors import DataError

    frame = pd.DataFrame([[1, 2, 3, 4, 5]], columns=["b", "a", "b", "a", "c"])
    with pytest.raises(DataError, match=r"^duplicate column names \['a', 'b'\]; rename them "
                                        r"before building a KB$"):
        as_frame(frame)
    with pytest.raises(DataError, match=r"^duplicate column names \['a', 'b'\]; rename them$"):
        match_columns(frame, ["a", "b", "c"])
    assert match_columns(frame[["c"]], ["c"]).columns.tolist() == ["c"]
    named = pd.DataFrame([[1, 2]], columns=[1, "1"])  # one name as text: the same column
    with pytest.raises(DataError, match=r"\['1'\]"):
        as_frame(named)


def test_names_that_print_alike_are_refused_naming_both_columns():
    """'dose' beside 'dose ' (an export's stray space) or 'crème' written two ways: two
    columns a rule or an explanation would print alike, refused naming both and where, in a
    frame and in a file alike (trial16: 'bmi' and 'bmi ' both learned, shown as one name);
    names apart in case only ('ID', 'id') print apart and are kept."""
    import pytest

    from plx_core.data import read_table
    from plx_core.encoding import as_frame
    from plx_core.errors import DataError

    frame = pd.DataFrame([[1, 2, 3, 4, 5]], columns=["age", "dose", "cre\u0300me", " dose", "crème"])
    with pytest.raises(DataError, match=r"^column names that differ only in spaces around them "
                                        r"or how an accent is encoded: 'dose' \(column 2\) and "
                                        r"' dose' \(column 4\); 'cre\\u0300me' \(column 3\) and "
                                        r"'crème' \(column 5\) \(a rule or an explanation would "
                                        r"print them alike\); rename them before building a KB$"):
        as_frame(frame)
    with pytest.raises(DataError, match=r"^the CSV: column names .*'dose' \(column 2\) and "
                                        r"'dose ' \(column 3\)"):
        read_table(b"age,dose,dose ,y\n1,2,3,a\n")
    assert as_frame(pd.DataFrame([[1, 2]], columns=["ID", "id"])).columns.tolist() == ["ID", "id"]


def test_negative_zero_is_the_class_and_category_zero():
    # np.round(-0.3) is -0.0: it made a class "-0.0" beside "0.0" (four classes for three)
    from plx_core import PLXClassifier

    v = np.random.default_rng(8).normal(size=200)
    level = np.round(v).clip(-1, 1)
    assert {value_str(x) for x in level} == {"-1.0", "0.0", "1.0"}
    X = pd.DataFrame({"v": v, "k": np.round(v * 0.3)})
    clf = PLXClassifier().fit(X, level)
    assert len(clf.classes_) == 3 and clf.score(X, level) > 0.9
    assert set(clf.kbs_[0].domains["k"]) == {"-1.0", "0.0", "1.0"}


def test_labels_held_as_python_objects_are_classified_and_mixed_kinds_named():
    # an object column of 0/1 (from a database, JSON records, astype(object)) was refused with
    # scikit-learn's "Unknown label type: unknown ... continuous values"; 1 beside "1" was a
    # TypeError
    import pytest

    from plx_core import DataError, PLXClassifier

    X = pd.DataFrame({"a": list("xyzw") * 10})
    for y, classes in [([1, 0] * 20, [0, 1]), ([True, False] * 20, [False, True]),
                       ([1, 0.0] * 20, [0.0, 1.0])]:
        y = pd.Series(y, dtype=object)
        clf = PLXClassifier().fit(X, y)
        assert clf.classes_.tolist() == classes and clf.score(X, y) == 1.0
        assert clf.predict(X).tolist() == y.tolist()
    for y, said in [(["1", 0], r"mixes text \(row 0: '1'\) and numbers \(row 1: 0\)"),
                    ([True, 1], r"mixes booleans \(row 0: True\) and numbers \(row 1: 1\)")]:
        with pytest.raises(DataError, match=said):
            PLXClassifier().fit(X, pd.Series(y * 20, dtype=object))


def test_an_accent_encoded_two_ways_is_one_text():
    """'crème' as one character or as 'e' and a combining grave prints the same: a value, a
    column name or a class written the other way is its twin, and two such classes are refused
    with the combining mark shown."""
    from plx_core.errors import DataError

    composed, decomposed = "cr\u00e8me", "cre\u0300me"
    assert composed != decomposed and value_twin((composed, "x"), decomposed) == 0
    assert column_twins(["caf\u00e9"], ["cafe\u0301", "x"]) == \
        " ('cafe\\u0301' differs from it only in how an accent is encoded)"
    with pytest.raises(DataError, match=r"'dessert' has classes that differ only in how an accent "
                                        r"is encoded: \['cre\\u0300me', 'crème'\]"):
        check_label_variants([composed, decomposed, "tart"], "dessert")


def test_a_yes_no_word_and_its_letter_are_one_answer():
    """An export that writes diabetes as 'yes' / 'Y' and 'no' / 'N' (two systems merged): a
    feature column holding both is said (kept apart, never merged silently), and a label
    holding both is refused — it would become four classes. 'Y' / 'N' alone are a column's own
    words, and a letter that is not a yes/no word ('M' beside 'male') is left alone."""
    from plx_core.data import spelling_variants
    from plx_core.errors import DataError

    said = spelling_variants(pd.Series(["yes", "no", "Y", "N", "unknown", None] * 5))
    assert "['N', 'no'] (a yes/no word written whole and as its letter)" in said
    assert "['Y', 'yes'] (a yes/no word written whole and as its letter)" in said
    assert spelling_variants(pd.Series(["Y", "N", "N"])) is None
    assert spelling_variants(pd.Series(["M", "male", "F", "female"])) is None
    assert spelling_variants(pd.Series(["t", "TRUE", "True"])).endswith(
        "['TRUE', 'True', 't'] (a yes/no word written whole and as its letter, and case or "
        "spaces); write each value one way to have them count as one")
    with pytest.raises(DataError, match=r"'readmitted' has classes that differ only in a yes/no "
                                        r"word written whole and as its letter: \['N', 'no'\]; "
                                        r"\['Y', 'yes'\]"):
        check_label_variants(["Y", "N", "yes", "no"], "readmitted")


def test_a_label_of_letters_and_words_is_refused_by_the_estimator():
    """The same label through `PLXClassifier.fit`: one clear error, not a model of four
    classes."""
    from plx_core import PLXClassifier
    from plx_core.errors import DataError

    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.choice(["u", "v"], 40)})
    y = rng.choice(["Y", "N", "yes", "no"], 40)
    with pytest.raises(DataError, match="a yes/no word written whole and as its letter"):
        PLXClassifier().fit(X, y)


def test_a_class_in_a_few_rows_beside_two_common_ones_is_named_as_a_likely_slip():
    """'yse' in one row among 'yes' / 'no': named with its row and the class it looks like; a
    rare class beside one common class, or in more than 3 rows, or in over 1% of rows is not."""
    y = np.array(["no"] * 300 + ["yes"] * 200 + ["yse", "maybe", "n0"], dtype=object)
    strays = stray_classes(y)
    assert {k: v.tolist() for k, v in strays.items()} == {"maybe": [501], "n0": [502], "yse": [500]}
    said = stray_said(y, {"yse": [1], "n0": [2], "maybe": [3]}, "line")
    assert said.startswith("the label's classes 'yse', 'n0' and 'maybe' are in 3 rows or fewer "
                           "each, against 300 'no', 200 'yes': typed by mistake? ")
    assert "'yse' in line 1 (like 'yes'), 'n0' in line 2 (like 'no'), 'maybe' in line 3;" in said
    assert stray_classes(np.array(["no"] * 500 + ["yes"] * 3, dtype=object)) == {}
    assert stray_classes(np.array(["no"] * 300 + ["yes"] * 200 + ["x"] * 4, dtype=object)) == {}
    assert stray_classes(np.array(["no"] * 100 + ["yes"] * 100 + ["x"] * 3, dtype=object)) == {}


def test_a_yes_no_word_in_two_languages_is_one_answer():
    """unseen22's bilingual: a German and a French site answer 'ja' / 'nein' and 'oui' /
    'non'. A feature column holding both languages is said (kept apart); a label holding both
    is refused, naming the classes — with positive='ja', 'oui' was silently a negative. One
    language alone is the column's own words."""
    from plx_core import PLXClassifier
    from plx_core.data import spelling_variants
    from plx_core.errors import DataError

    said = spelling_variants(pd.Series(["ja", "nein", "oui", "non"] * 5))
    assert "['ja', 'oui'] (a yes/no word written in more than one language)" in said
    assert "['nein', 'non'] (a yes/no word written in more than one language)" in said
    assert spelling_variants(pd.Series(["ja", "nein", "nein"])) is None
    assert spelling_variants(pd.Series(["vrai", "faux", "True"])).startswith(
        "writes values more than one way, kept apart as different values: ['True', 'vrai']")
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"a": rng.choice(["u", "v"], 40)})
    y = rng.choice(["ja", "nein", "oui", "non"], 40)
    with pytest.raises(DataError, match=r"yes/no word written in more than one language: "
                                        r"\['ja', 'oui'\]; \['nein', 'non'\]"):
        PLXClassifier(positive="ja").fit(X, y)


@pytest.mark.parametrize("given, classes, named", [
    (2, ["1.0", "2.0"], "2.0"),  # labels read as floats
    ("2", ["1.0", "2.0"], "2.0"),
    (2.0, ["1", "2"], "2"),
    ("2.0", ["1", "2"], "2"),
    (2, ["01", "02"], "02"),  # codes written with a leading zero
    ("yes", ["no", "yes"], "yes"),
])
def test_a_class_named_as_the_same_number_is_that_class_said_once(given, classes, named):
    from plx_core.encoding import class_named
    from plx_core.notes import collected

    with collected() as said:
        assert class_named(given, classes) == named
    assert said == ([] if named == str(given) else
                    [f"positive={given!r} is the class {named!r} of the label (the same number, "
                     "as the data writes it)"])


def test_a_class_named_ambiguously_or_not_at_all_is_refused_naming_the_classes():
    from plx_core.encoding import class_named
    from plx_core.errors import DataError

    with pytest.raises(DataError, match=r"positive='02' is the number of 2 classes of y "
                                        r"\(\['2', '2.0'\]\), written differently"):
        class_named("02", ["1", "2", "2.0"], "y")
    with pytest.raises(DataError, match=r"for_class='Yes' is not a class of y \(classes: "
                                        r"\['no', 'yes'\]\); did you mean 'yes'"):
        class_named("Yes", ["no", "yes"], "y", "class", "for_class")  # a spelling: never taken
    assert class_named("3", ["1.0", "2.0"], unknown_ok=True) == "3"


@pytest.mark.parametrize("cells, said", [
    ([1, "a", 2.0, np.float64(2.5), 0.5], r"mixes numbers \(row 3: np.float64\(2.5\)\) and text \(row 1: 'a'\)"),
    ([1, 2.0, np.nan, float("inf")], r"row 3: float value inf is not categorical"),
    ([1, 2.0, np.nan, None, -0.0], None),
])
def test_check_categorical_names_the_first_float_no_whole_number_on_the_cells_types(cells, said):
    """The check finds a column's floats by its cells' distinct types (mem26: it looked at
    every cell in Python): the first float that is no whole number (inf too) is named."""
    frame = pd.DataFrame({"dose": pd.Series(cells, dtype=object)})
    if said is None:
        check_categorical(frame)
    else:
        with pytest.raises(DataError, match=said):
            check_categorical(frame)
