"""Weighted medians (`plx_core.median`): the shortcut for unit weights and a prior clause."""

import numpy as np
import pytest

from plx_core.median import unit_medians, weighted_median_intervals


def with_prior(qid, target, n, prior):
    """The terms with each query's prior term of weight |prior| at 1 (> 0) or 0 (< 0), as
    `weighting.loo_means` gave them to `weighted_median_intervals`."""
    w = np.ones(len(qid))
    if prior:
        qid = np.concatenate([qid, np.arange(n)])
        target = np.concatenate([target, np.full(n, 1.0 if prior > 0 else 0.0)])
        w = np.concatenate([w, np.full(n, float(abs(prior)))])
    return qid, target, w


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("prior", [0, 1, 3, -1, -4])
def test_unit_medians_are_the_weighted_medians_of_the_terms_and_the_prior(seed, prior):
    rng = np.random.default_rng(seed)
    n = 40
    count = rng.integers(0, 7, n)  # some queries without terms
    qid = np.repeat(np.arange(n), count)
    # few distinct targets (ties, runs that straddle the middle), 0 and 1 among them
    target = rng.choice(np.array([0.0, 0.25, 0.5, 0.7, 1.0]), len(qid))
    order = np.lexsort((target, qid))
    qid, target = qid[order], target[order]
    got = unit_medians(qid, target, n, prior)
    want = weighted_median_intervals(*with_prior(qid, target, n, prior), n)
    assert got is not None
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    if prior == 0:  # a query without terms: [0, 1]
        assert (got[0][count == 0] == 0).all() and (got[1][count == 0] == 1).all()


def test_unit_medians_refuse_terms_not_sorted_by_target_and_a_fractional_prior():
    qid = np.array([0, 0, 1])
    assert unit_medians(qid, np.array([0.6, 0.2, 0.9]), 2, 1) is None
    assert unit_medians(qid, np.array([0.2, 0.6, 0.9]), 2, 0.5) is None
    lo, hi = unit_medians(qid, np.array([0.2, 0.6, 0.9]), 2, 1)
    assert lo.tolist() == [0.6, 0.9] and hi.tolist() == [0.6, 1.0]
