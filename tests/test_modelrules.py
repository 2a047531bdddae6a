"""Expert rules kept in a model file (plx_core/modelrules.py), beyond the CLI's tests."""

import numpy as np
import pandas as pd

from plx_core import direct_kb
from plx_core.modelrules import rows_holding, rows_of_rule
from plx_core.rules import parse_rules


def test_rows_of_a_rule_longer_than_every_clause_of_a_wide_kb_are_unknown_not_a_crash():
    """`plx rules list` on a model of 32 lab columns (one-feature clauses, 20 bins each)
    crashed with an IndexError for a rule of two conditions: its key lay past the index's
    table. Such a rule's rows are not in the KB's counts (blank); a one-condition rule's are."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({f"lab{j}": rng.integers(0, 20, 600).astype(str) for j in range(32)})
    y = (X["lab0"].astype(int) > 12).astype(int).to_numpy()
    kb = direct_kb(X, y, max_len=1)
    two = parse_rules("IF lab0=15 AND lab5=3 THEN POS [p=0.9]", kb)
    one = parse_rules("IF lab0=15 THEN POS [p=0.9]", kb)
    assert rows_of_rule(kb, two) is None
    assert rows_of_rule(kb, one) == int((X["lab0"] == "15").sum())


def test_rows_holding_counts_the_rows_a_rule_holds_for_from_the_data():
    """Counted from the rows, for any KB: an OR rule's parts once each row, NOT a=v only on a
    known other value, an empty cell holding no condition on it; a column the rows lack: None."""
    X = pd.DataFrame({"crp": ["<50", "[50, 80)", "≥80", None, "≥80", "<50"],
                      "sex": ["f", "m", None, "f", "m", "m"]})
    kb = direct_kb(X.fillna("?"), np.array([0, 1, 1, 0, 1, 0]), max_len=1)
    high = parse_rules('IF crp="[50, 80)" OR crp="≥80" THEN POS [p=0.9]', kb)
    assert rows_holding(high, X) == 3  # rows 1, 2, 4; the empty crp cell of row 3 is not high
    not_f = parse_rules("IF NOT sex=f AND crp=≥80 THEN POS [p=0.9]", kb)
    assert rows_holding(not_f, X) == 1  # row 4 (m, ≥80); row 2's sex is unknown
    assert rows_holding(high, X.drop(columns="crp")) is None
