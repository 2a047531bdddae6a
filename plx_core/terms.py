"""Conjunctive terms learned from the training rows: the clauses of a label that is a
disjunction of short conjunctions ("x wins" when one of 8 lines of three cells is x's; a 3-term
DNF), which one tree states only by copying a term under each branch of another.

`learn_terms` runs a sequential covering (CN2-SD's weighted covering, RIPPER's per-class rule
sets) with a beam search for conjunctions of up to `TERM_LEN` literals — `a = v`, or
`a ≠ v` (value against the rest) — for each class in turn: the best term by its m-estimated
precision (classes weighed as the KB's probabilities are corrected) whose rows hold at least
`TERM_MIN_ROWS` of the class, then its rows of the class are taken out and the search repeats,
up to `TERM_MAX` terms a class, until no term is more precise than the base rate by
`TERM_MIN_LIFT`. Where the first term of a class has no exception, a second covering by a
smaller m (`TERM_EXACT_M`) adds the exact terms of a label without noise (a term found twice
once). Everything is counted on bit-packed row sets
(each literal's rows, the beam's terms' rows: 64 rows a word) by AND and popcount, whole numbers
weighed once: no per-row Python, and terms of equal counts tie exactly (ranked by the order of
(beam term, literal)), not by the rounding of float sums in the rows' order.

Each term is a clause `POS ∨ ¬a1=v1 ∨ ¬a2=v2 …` — a `≠` literal expands into one clause per
value it allows, the term's clauses mutually exclusive, so they vote as one (`vote.rule_set`'s
groups) — and the rule vote (`vote.RuleVote`) weighs them with the one-feature clauses; the
KB, the LP and `explain` reason with exactly those clauses.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

TERM_LEN = 3
"""The most literals a term holds."""
TERM_BEAM = 8
"""Terms kept at each length of the beam search."""
TERM_MAX = 12
"""The most terms learned for each class."""
TERM_MIN_ROWS = 5
"""The fewest training rows of its class a term must hold (a term on fewer fits noise)."""
TERM_MIN_LIFT = 0.25
"""A term is kept only if its class-weighted precision exceeds the base rate (0.5 once
balanced) by at least this much."""
TERM_M = 50.0
"""Terms are ranked by their m-estimated precision (P + m·base) / (T + m) (P, T: the class-
weighted rows of the class and of all classes a term holds, mean row weight 1; 0: by weighted
relative accuracy (P − base·T) / W, CN2-SD's). Measured in benchmarks/RESULTS.md ("The rule
vote on learned terms"; 0, 5, 20, 30, 50, 100): relative accuracy prefers general terms
(Tic-Tac-Toe: "no o on a line" over "x on a line", 0.92 always answering); a small m lets a
third literal that drops a few flipped rows beat the true two-literal term (DNF + 10% noise:
the label's 3 terms as the first three 0.71 at m = 20, 0.77 at 50)."""
TERM_EXACT_M = 20.0
"""The m of a second covering of a class whose first term holds no training row of another class
(0: none). m = 50 resists label noise (above), but on a label without noise it prefers a term of
more rows that a few rows of the other class break to the exact one (Tic-Tac-Toe: "top-right =
x, bottom-middle blank, top-left ≠ o", 49 rows, 3 of them not "x wins", over a line of three
x's, whose rows the terms before it mostly hold), where m = 20 finds the eight lines; on noisy
rows (DNF + 10% noise) m = 20 fits the noise. A first term without exceptions is the sign of a
class without noise: the vote (`TERM_L1`) then weighs both coverings' terms; elsewhere (noisy
rows, the numeric and rare sets) the second covering is not run. Measured in
benchmarks/RESULTS.md ("A second covering for labels without noise")."""
TERM_L1 = 3.0
"""The L1 penalty of the vote on the terms (`vote.RULE_L1` was the tree paths'): most terms
past the label's get weight 0. Always answering, DNF + 10% noise / Tic-Tac-Toe tested 0.755 /
0.992 at 2, 0.769 / 0.991 at 3, 0.769 / 0.984 at 5 (m = 50)."""
TERM_SOURCE = 0
"""The `clause.SOURCES` index of a term's clauses: "data" (counted on the training rows, as
the Direct KB's are)."""
TERM_ROWS = 5000
"""The most rows the terms are searched on (a stratified sample above it)."""
REST_LEVELS = 6
"""`a ≠ v` literals only on features of at most this many values: a `≠` literal is one clause
per value it allows, so a term of three of them on 90-level columns was 89³ ≈ 705,000 clauses
(a 4,000-row fit went 15 s / 244 MB → 141 s / 1.8 GB). At 6 a term is at most 5³ = 125 clauses,
and every table where `≠` terms won (Tic-Tac-Toe, MONK's, DNF, Car, Nursery: ≤ 5 values) keeps
them."""


@dataclass(frozen=True)
class Terms:
    """Learned terms as plx clause bodies: `bodies` (clauses × features, −1 where a clause
    says nothing) and `group` (the term each clause belongs to: its clauses are exclusive and
    vote as one)."""

    bodies: np.ndarray
    group: np.ndarray
    n_terms: int


def literals(codes: np.ndarray, sizes: np.ndarray, rest: bool = True
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rows × literals 0/1 float matrix, each literal's feature, value, and whether it is
    `a ≠ v`): `a = v` for every value of every feature, and `a ≠ v` for features of more
    than two values (`rest`). An open or unseen cell holds no literal."""
    codes = np.asarray(codes, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    feat = np.repeat(np.arange(len(sizes)), sizes)
    val = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    neg = np.zeros(len(feat), bool)
    eq = (codes[:, feat] == val[None, :])
    if rest:
        many = (sizes[feat] > 2) & (sizes[feat] <= REST_LEVELS)
        known = (codes[:, feat[many]] >= 0) & (codes[:, feat[many]] < sizes[feat[many]][None, :])
        ne = known & ~eq[:, many]
        eq = np.hstack([eq, ne])
        feat, val = np.concatenate([feat, feat[many]]), np.concatenate([val, val[many]])
        neg = np.concatenate([neg, np.ones(int(many.sum()), bool)])
    return eq.astype(np.float64), feat, val, neg


def _best_term(bits: np.ndarray, bits_t: np.ndarray, lit_feat: np.ndarray,
               onehot_feat: np.ndarray, target: np.ndarray, rest: np.ndarray, rest_t: np.ndarray,
               w_t: float, w_r: float, base: float, max_len: int, beam: int, min_rows: int,
               m: float) -> tuple[tuple[int, ...], float, float] | None:
    """(literals, quality, precision) of the best term: by m-estimated precision
    (P + m·base) / (T + m) (m > 0) or weighted relative accuracy (P − base·T) / W (m = 0), P the
    weight of the `target` rows it holds, T of all its rows, W of every row. `bits` (literals
    × words), `bits_t` (its transpose): the rows each literal holds, bit-packed; `target`: the
    target rows still to cover (weight `w_t` each; a term must hold `min_rows` of them),
    `rest`: the other class's rows (weight `w_r`), `rest_t` = `bits_t & rest` (the same for
    every term of a covering); `lit_feat`, `onehot_feat` (literals × features): each
    literal's feature. The beam's terms (beam × words) are extended by every literal at once:
    an AND and a popcount of beam × words × literals, summed over the words (the middle axis:
    numpy adds whole rows, not a few words per cell), the counts whole numbers (exact ties);
    the quality is computed only where a term may be kept, and the beam's first terms are
    found by a partition before the sort of the few that can be among them."""
    L = bits.shape[0]
    W = w_t * _count(target) + w_r * _count(rest) if m <= 0 else 0.0
    both = np.concatenate([bits_t & target[:, None], rest_t], axis=1)  # words × (target, rest)
    acc = np.uint16 if bits.shape[1] * 64 < 2**16 else np.int64  # a count ≤ the rows
    best = None
    cur = None  # the beam's terms' rows (beam × words); None: the empty term, every row
    terms = np.zeros((1, 0), np.int64)  # the beam's terms: their literals, ascending
    has = np.zeros((1, onehot_feat.shape[1]), bool)  # the features each beam term holds
    for depth in range(max_len):
        held = np.bitwise_count(both[None] if cur is None else cur[:, :, None] & both[None])
        counts = np.add.reduce(held, axis=1, dtype=acc).astype(np.int64)  # beam × 2L
        C, R = counts[:, :L].ravel(), counts[:, L:].ravel()  # target rows, other rows held
        ok = C >= min_rows
        if depth:  # not a literal whose feature is already in the term
            ok &= ~has[:, lit_feat].ravel()
        cand = ok.nonzero()[0]
        P = w_t * C[cand]
        T = P + w_r * R[cand]
        if m > 0:
            q = (P + m * base) / (T + m)
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                q = (P - base * T) / W
        if not (T > 0).all():
            keep = T > 0
            cand, P, T, q = cand[keep], P[keep], T[keep], q[keep]
        # the first K by quality, ties in (beam term, literal) order: all of them lie at or
        # above the K-th best quality, so only those are sorted
        K = beam * (depth + 1) * 2
        neg = -q
        if m > 0 and len(neg) > K:
            sel = (neg <= np.partition(neg, K - 1)[K - 1]).nonzero()[0]
            order = sel[np.argsort(neg[sel], kind="stable")][:K]
        else:
            order = np.argsort(neg, kind="stable")[:K]
            order = order[np.isfinite(q[order])]
        if not len(order):
            break
        i, j = np.divmod(cand[order], L)
        if depth:
            lits = np.sort(np.concatenate([terms[i], j[:, None]], axis=1), axis=1)
            # the beam: the first `beam` distinct terms by quality (a term reached from two of
            # the beam's terms once)
            first, seen = [], set()
            for at, key in enumerate((lits @ L ** np.arange(depth + 1)).tolist()):
                if key not in seen:
                    seen.add(key)
                    first.append(at)
                    if len(first) == beam:
                        break
        else:  # one literal each: all distinct
            lits = j[:, None]
            first = list(range(min(beam, len(j))))
        # the best: the first, if above the best of a shorter length
        top = order[0]
        if best is None or float(q[top]) > best[1] + 1e-12:
            best = (tuple(lits[0].tolist()), float(q[top]), float(P[top] / T[top]))
        ii, jj = i[first], j[first]
        cur = bits[jj] if cur is None else cur[ii] & bits[jj]
        has = has[ii] | onehot_feat[jj]
        terms = lits[first]
    return best


def _count(bits: np.ndarray) -> np.ndarray:
    """The rows a bit-packed row set holds (summed over its last axis: words)."""
    return np.bitwise_count(bits).sum(axis=-1, dtype=np.int64)


def learn_terms(codes: np.ndarray, sizes: np.ndarray | list[int], y: np.ndarray,
                cw: tuple[float, float], max_len: int = TERM_LEN, beam: int = TERM_BEAM,
                max_terms: int = TERM_MAX, min_rows: int = TERM_MIN_ROWS,
                min_lift: float = TERM_MIN_LIFT, rest: bool = True, m: float | None = None,
                exact_m: float | None = None) -> Terms:
    """The terms of both classes (see the module docstring), as clause bodies (`m`, `exact_m`:
    default `TERM_M`, `TERM_EXACT_M`)."""
    from .direct import pack_bits
    from .vote import sample_rows

    m = TERM_M if m is None else m
    exact_m = TERM_EXACT_M if exact_m is None else exact_m
    codes = np.asarray(codes, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    y = np.asarray(y).astype(np.int64)
    if len(y) > TERM_ROWS:
        at = sample_rows(y, TERM_ROWS)
        codes, y = codes[at], y[at]
    M, feat, val, neg = literals(codes, sizes, rest)
    bits = pack_bits(M.T > 0)
    onehot_feat = np.zeros((len(feat), len(sizes)), bool)
    onehot_feat[np.arange(len(feat)), feat] = True
    found: list[tuple[int, ...]] = []
    for cls in (1, 0):
        got, exact = _covering(bits, feat, onehot_feat, y, cls, cw, max_len, beam, max_terms,
                               min_rows, min_lift, m)
        found += got
        if exact and exact_m > 0:  # a class without noise: its exact terms too
            found += _covering(bits, feat, onehot_feat, y, cls, cw, max_len, beam, max_terms,
                               min_rows, min_lift, exact_m)[0]
    return _bodies(found, feat, val, neg, sizes)


def _covering(bits: np.ndarray, lit_feat: np.ndarray, onehot_feat: np.ndarray, y: np.ndarray,
              cls: int, cw: tuple[float, float], max_len: int, beam: int, max_terms: int,
              min_rows: int, min_lift: float, m: float) -> tuple[list[tuple[int, ...]], bool]:
    """(the terms of class `cls`, best first, each found on the rows of the class the ones
    before it leave uncovered (`_best_term`); whether the first holds no row of another class)."""
    from .direct import pack_bits
    from .vote import row_weights

    found: list[tuple[int, ...]] = []
    is_t = y == cls
    w = row_weights(y, cw)  # mean 1: an m-estimate's m counts rows
    base = float((w * is_t).sum() / w.sum())
    w_t = float(w[is_t][0]) if is_t.any() else 0.0
    w_r = float(w[~is_t][0]) if (~is_t).any() else 0.0
    target, rest = pack_bits(np.stack([is_t, ~is_t]))
    bits_t = np.ascontiguousarray(bits.T)  # words × literals, as `_best_term` counts them
    rest_t = bits_t & rest[:, None]
    exact = False
    for _ in range(max_terms):
        got = _best_term(bits, bits_t, lit_feat, onehot_feat, target, rest, rest_t, w_t, w_r,
                         base, max_len, beam, min_rows, m)
        if got is None or got[2] < base + min_lift:
            break
        t = got[0]
        found.append(t)
        covered = np.bitwise_and.reduce(bits[list(t)], axis=0)
        target = target & ~covered  # its rows of the class are covered
        if len(found) == 1:
            exact = got[2] >= 1.0 - 1e-9
    return found, bool(found) and exact


def _bodies(found: list[tuple[int, ...]], feat: np.ndarray, val: np.ndarray, neg: np.ndarray,
            sizes: np.ndarray) -> Terms:
    """The clause bodies of terms (a `≠` literal: one clause per value it allows)."""
    rows, group = [], []
    for g, t in enumerate(dict.fromkeys(found)):
        choices = [[v for v in range(int(sizes[feat[j]])) if v != val[j]] if neg[j] else [val[j]]
                   for j in t]
        for combo in itertools.product(*choices):
            b = np.full(len(sizes), -1, np.int64)
            b[feat[list(t)]] = combo
            rows.append(b)
            group.append(g)
    bodies = np.array(rows, np.int64).reshape(-1, len(sizes))
    return Terms(bodies, np.asarray(group, np.int64), len(dict.fromkeys(found)))


__all__ = ["REST_LEVELS", "TERM_BEAM", "TERM_EXACT_M", "TERM_LEN", "TERM_M", "TERM_MAX",
           "TERM_MIN_LIFT", "TERM_MIN_ROWS", "TERM_ROWS",
           "Terms", "learn_terms", "literals"]
