"""Faulty BLEU targets: independent implementations of the fault catalogue's bug classes.

Each function here is one bug class of the catalogue (conformance/faults/catalogue.json),
written from the class's description with the standard library only, never from the
reference implementation (this module imports neither reference_bleu nor conformance).
Each is a target of the conformance runner, ``tests.targets.faulty:NAME`` (for example
``tests.targets.faulty:clip_sum``), called as ``NAME(hyps, refs) -> float``, and each is the
second, independent implementation the project's own fault computations
(conformance/faults/computations.py) are tested against. ``hyps`` is a sequence of token
lists; ``refs`` holds, per segment, a sequence of reference token lists. A few faults raise,
as the faulty code they model does.

Conventions of `paper_bleu` (Papineni et al. 2002, with this project's defaults):
  * micro corpus BLEU: m_n and l_n summed over segments, c and r summed;
  * Count_clip(g) = min(Count(g), max over single references of Count_R(g));
  * best match length: the reference length closest to |C|, ties to the shorter;
  * BP = 1 if c > r else exp(1 - r/c)   (c = 0 < r gives BP = 0);
  * uniform weights 1/N, no smoothing; an order with l_n = 0 (undefined) or m_n = 0
    makes the score 0 (EC-002/EC-003 defaults).

FAULTS maps the catalogue id to its function; EXAMPLES holds each class's separating
example with the hand-computed values; `self_test()` (or `python -m tests.targets.faulty`)
checks them.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeAlias, TypedDict

__all__ = ["EXAMPLES", "FAULTS", "paper_bleu", "self_test"]

Tokens: TypeAlias = Sequence[str]
Hyps: TypeAlias = Sequence[Tokens]
SegRefs: TypeAlias = Sequence[Tokens]
Refs: TypeAlias = Sequence[SegRefs]
Num: TypeAlias = int | Fraction
Counts: TypeAlias = Counter[Hashable]
NgramFn: TypeAlias = Callable[[Tokens, int], Sequence[Hashable]]
BpFn: TypeAlias = Callable[[int, int], float]
ClipFn: TypeAlias = Callable[[int, Counts, SegRefs], Num]
DenomFn: TypeAlias = Callable[[int, Counts, Tokens, SegRefs, int], int]
RefLenFn: TypeAlias = Callable[[int, SegRefs], int]
LengthFn: TypeAlias = Callable[[Tokens], int]
SegmentStats: TypeAlias = tuple[list[int], list[int], int, int]
Stats: TypeAlias = tuple[list[Num], list[int], int, int]


# ---------------------------------------------------------------------------
# the paper's building blocks
# ---------------------------------------------------------------------------


def ngrams(seq: Tokens, n: int) -> list[tuple[str, ...]]:
    """The len(seq) - n + 1 windows of order n, in order, with repetitions."""
    return [tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)]


def closest_length(c: int, lengths: Sequence[int]) -> int:
    """Best match length: closest to c, ties to the shorter."""
    return min(lengths, key=lambda length: (abs(length - c), length))


def max_ref_counts(refs_seg: SegRefs, n: int, ngram_fn: NgramFn = ngrams) -> Counts:
    """Max_Ref_Count of every n-gram: its largest count in a single reference."""
    out: Counts = Counter()
    for ref in refs_seg:
        counts: Counts = Counter(ngram_fn(ref, n))
        for g, k in counts.items():
            out[g] = max(out[g], k)
    return out


def segment_stats(hyp: Tokens, refs_seg: SegRefs, N: int, ngram_fn: NgramFn = ngrams) -> SegmentStats:
    """(m, l, c, r) of one segment, paper definitions."""
    matches: list[int] = []
    totals: list[int] = []
    for n in range(1, N + 1):
        counts: Counts = Counter(ngram_fn(hyp, n))
        mx = max_ref_counts(refs_seg, n, ngram_fn)
        matches.append(sum(min(k, mx[g]) for g, k in counts.items()))
        totals.append(sum(counts.values()))
    c = len(hyp)
    r = closest_length(c, [len(ref) for ref in refs_seg])
    return matches, totals, c, r


def corpus_stats(hyps: Hyps, refs: Refs, N: int) -> SegmentStats:
    """(m, l, c, r) of the corpus: the segments' statistics summed."""
    matches, totals, c_sum, r_sum = [0] * N, [0] * N, 0, 0
    for h, rs in zip(hyps, refs, strict=True):
        m, t, c, r = segment_stats(h, rs, N)
        matches = [a + b for a, b in zip(matches, m, strict=True)]
        totals = [a + b for a, b in zip(totals, t, strict=True)]
        c_sum += c
        r_sum += r
    return matches, totals, c_sum, r_sum


def paper_bp(c: int, r: int) -> float:
    """The paper's brevity penalty (c = 0 < r gives 0, c = r = 0 gives 1)."""
    if c > r:
        return 1.0
    if c == 0:
        return 0.0 if r > 0 else 1.0
    return math.exp(1 - Fraction(r, c))


def precisions(matches: Sequence[Num], totals: Sequence[int]) -> list[Fraction] | None:
    """Exact p_n, or None if some order is undefined (l_n = 0) or zero (m_n = 0)."""
    ps = []
    for m, t in zip(matches, totals, strict=True):
        if t == 0 or m == 0:
            return None
        ps.append(Fraction(m) / Fraction(t))
    return ps


def geo(ps: Sequence[Fraction], weights: Sequence[Fraction] | None = None) -> float:
    """Weighted geometric mean of the precisions (uniform weights 1/N by default)."""
    ws = weights or [Fraction(1, len(ps))] * len(ps)
    return math.exp(math.fsum(float(w) * math.log(p) for w, p in zip(ws, ps, strict=True)))


def combine(matches: Sequence[Num], totals: Sequence[int], c: int, r: int, bp_fn: BpFn = paper_bp) -> float:
    """BP · geometric mean of the precisions; 0 when an order is undefined or zero."""
    ps = precisions(matches, totals)
    if ps is None:
        return 0.0
    return bp_fn(c, r) * geo(ps)


def paper_bleu(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """The paper's corpus BLEU, with the conventions of the module docstring."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    return combine(matches, totals, c, r)


# ---------------------------------------------------------------------------
# helpers for mutations
# ---------------------------------------------------------------------------


def _stats_with(
    hyps: Hyps,
    refs: Refs,
    N: int,
    *,
    clip: ClipFn | None = None,
    denom: DenomFn | None = None,
    ref_len: RefLenFn | None = None,
    length: LengthFn = len,
    ngram_fn: NgramFn = ngrams,
) -> Stats:
    """Corpus statistics with replaceable parts.

    clip(n, cand_counts, refs_seg) -> m_n of the segment (default: paper clipping)
    denom(n, cand_counts, hyp, refs_seg, r_seg) -> l_n of the segment (default: Σ Count)
    ref_len(c_seg, refs_seg) -> best match length (default: closest, ties shorter)
    length(seq) -> length used for c and for the reference lengths
    """
    matches: list[Num] = [0] * N
    totals = [0] * N
    c_sum, r_sum = 0, 0
    for h, rs in zip(hyps, refs, strict=True):
        c = length(h)
        r = ref_len(c, rs) if ref_len else closest_length(c, [length(ref) for ref in rs])
        for n in range(1, N + 1):
            counts: Counts = Counter(ngram_fn(h, n))
            if clip:
                m = clip(n, counts, rs)
            else:
                mx = max_ref_counts(rs, n, ngram_fn)
                m = sum(min(k, mx[g]) for g, k in counts.items())
            t = denom(n, counts, h, rs, r) if denom else sum(counts.values())
            matches[n - 1] += m
            totals[n - 1] += t
        c_sum += c
        r_sum += r
    return matches, totals, c_sum, r_sum


def _score(matches: Sequence[Num], totals: Sequence[int], c: int, r: int, *, bp_fn: BpFn = paper_bp) -> float:
    return combine(matches, totals, c, r, bp_fn)


def _counts(seq: Tokens, n: int) -> Counts:
    """Count(g) of every n-gram of seq."""
    return Counter(ngrams(seq, n))


# ---------------------------------------------------------------------------
# A. clipping and matching
# ---------------------------------------------------------------------------


def clip_sum(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Max_Ref_Count replaced by the SUM of the references' counts."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        tot: Counts = Counter()
        for ref in rs:
            tot.update(_counts(ref, n))
        return sum(min(k, tot[g]) for g, k in counts.items())

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def clip_first_ref(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Only the first reference of each segment is used (clipping and length)."""
    return paper_bleu(hyps, [rs[:1] for rs in refs], max_order)


def clip_last_ref(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Max_Ref_Count taken from the LAST reference only; r still the closest of all."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        last = _counts(rs[-1], n)
        return sum(min(k, last[g]) for g, k in counts.items())

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def clip_best_ref_per_order(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """m_n = max over single references of that reference's whole clipped count."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        best = 0
        for ref in rs:
            rc = _counts(ref, n)
            best = max(best, sum(min(k, rc[g]) for g, k in counts.items()))
        return best

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def max_over_refs(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Each segment scored against each reference alone; the max kept; segments averaged."""
    scores = [
        max(paper_bleu([h], [[ref]], max_order) for ref in rs) for h, rs in zip(hyps, refs, strict=True)
    ]
    return math.fsum(scores) / len(scores)


def ref_avg(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Clipped count computed against each reference alone, then averaged over references."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> Fraction:
        tot = Fraction(0)
        for ref in rs:
            rc = _counts(ref, n)
            tot += sum(min(k, rc[g]) for g, k in counts.items())
        return tot / len(rs)

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def no_clip(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Every candidate n-gram occurring in some reference counts in full (no clipping)."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        mx = max_ref_counts(rs, n)
        return sum(k for g, k in counts.items() if mx[g] > 0)

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def clip_unigram_only(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Clipping for n = 1 only; orders n >= 2 counted without clipping."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        mx = max_ref_counts(rs, n)
        if n == 1:
            return sum(min(k, mx[g]) for g, k in counts.items())
        return sum(k for g, k in counts.items() if mx[g] > 0)

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def clip_pooled(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Counts pooled over the corpus before clipping:
    m_n = Σ_g min(Σ_s Count_s(g), Σ_s Max_Ref_Count_s(g))."""
    matches: list[int] = []
    for n in range(1, max_order + 1):
        cand: Counts = Counter()
        ref: Counts = Counter()
        for h, rs in zip(hyps, refs, strict=True):
            cand.update(_counts(h, n))
            ref.update(max_ref_counts(rs, n))
        matches.append(sum(min(k, ref[g]) for g, k in cand.items()))
    _, totals, c, r = corpus_stats(hyps, refs, max_order)
    return _score(matches, totals, c, r)


def _ref_union_set(rs: SegRefs, n: int) -> set[Hashable]:
    s: set[Hashable] = set()
    for ref in rs:
        s |= set(ngrams(ref, n))
    return s


def set_ngrams(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Distinct n-grams only: m_n = |set(C_n) ∩ ∪_R set(R_n)|, l_n = |set(C_n)|."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        return len(set(counts) & _ref_union_set(rs, n))

    def denom(n: int, counts: Counts, h: Tokens, rs: SegRefs, r: int) -> int:
        return len(counts)

    return _score(*_stats_with(hyps, refs, max_order, clip=clip, denom=denom))


def distinct_matches(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Numerator = number of DISTINCT candidate n-grams found in any reference; l_n kept."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        return len(set(counts) & _ref_union_set(rs, n))

    return _score(*_stats_with(hyps, refs, max_order, clip=clip))


def denom_distinct(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Clipped numerator over the number of DISTINCT candidate n-grams."""

    def denom(n: int, counts: Counts, h: Tokens, rs: SegRefs, r: int) -> int:
        return len(counts)

    return _score(*_stats_with(hyps, refs, max_order, denom=denom))


def recall(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Denominator = n-grams of the best-match reference: max(0, r_seg - n + 1)."""

    def denom(n: int, counts: Counts, h: Tokens, rs: SegRefs, r: int) -> int:
        return max(0, r - n + 1)

    return _score(*_stats_with(hyps, refs, max_order, denom=denom))


def positional(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """An n-gram matches only at the same position: C[i:i+n] == R[i:i+n] for some R."""
    matches, totals, c, r = [0] * max_order, [0] * max_order, 0, 0
    for h, rs in zip(hyps, refs, strict=True):
        for n in range(1, max_order + 1):
            hits = 0
            for i in range(len(h) - n + 1):
                w = tuple(h[i : i + n])
                if any(i + n <= len(ref) and tuple(ref[i : i + n]) == w for ref in rs):
                    hits += 1
            matches[n - 1] += hits
            totals[n - 1] += max(0, len(h) - n + 1)
        c += len(h)
        r += closest_length(len(h), [len(ref) for ref in rs])
    return _score(matches, totals, c, r)


# ---------------------------------------------------------------------------
# B. n-gram extraction and keys
# ---------------------------------------------------------------------------


def _last_missing_ngrams(seq: Tokens, n: int) -> list[tuple[str, ...]]:
    return [tuple(seq[i : i + n]) for i in range(len(seq) - n)]


def ngram_last_missing(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """range(len - n) instead of range(len - n + 1): the last n-gram of each order is lost
    (candidates and references; lengths c and r unchanged)."""
    return _score(*_stats_with(hyps, refs, max_order, ngram_fn=_last_missing_ngrams))


def _exact_len_ngrams(seq: Tokens, n: int) -> list[tuple[str, ...]]:
    return [] if len(seq) == n else ngrams(seq, n)


def ngram_exact_len(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """A sequence of exactly n tokens yields no n-gram of order n (`len > n` test)."""
    return _score(*_stats_with(hyps, refs, max_order, ngram_fn=_exact_len_ngrams))


def short_underflow(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Unsigned `len - n + 1` wraps for a sequence shorter than n - 1: the tool crashes."""
    for h, rs in zip(hyps, refs, strict=True):
        for s in [h, *rs]:
            if len(s) < max_order - 1:
                raise OverflowError(f"unsigned len - n + 1 wrapped (length {len(s)}, n up to {max_order})")
    return paper_bleu(hyps, refs, max_order)


def _joined_ngrams(seq: Tokens, n: int) -> list[str]:
    return ["".join(seq[i : i + n]) for i in range(len(seq) - n + 1)]


def join_key(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """An n-gram is identified by its tokens concatenated ("".join), so ('ab','c') == ('a','bc')."""
    return _score(*_stats_with(hyps, refs, max_order, ngram_fn=_joined_ngrams))


def _split_counter(seq: Tokens, N: int) -> Counter[tuple[str, ...]]:
    cnt: Counter[tuple[str, ...]] = Counter()
    for n in range(1, N + 1):
        for i in range(len(seq) - n + 1):
            cnt[tuple(" ".join(seq[i : i + n]).split(" "))] += 1
    return cnt


def join_split(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """torchtext-style: every window joined with ' ' and split again; the order of an
    n-gram is len(key); a key longer than N raises IndexError."""
    N = max_order
    matches, totals, c, r = [0] * N, [0] * N, 0, 0
    for h, rs in zip(hyps, refs, strict=True):
        cand = _split_counter(h, N)
        refmax: Counter[tuple[str, ...]] = Counter()
        for ref in rs:
            refmax |= _split_counter(ref, N)
        for g, k in cand.items():
            if len(g) > N:
                raise IndexError(f"index {len(g) - 1} is out of bounds for dimension 0 with size {N}")
            totals[len(g) - 1] += k
            matches[len(g) - 1] += min(k, refmax[g])
        c += len(h)
        r += closest_length(len(h), [len(ref) for ref in rs])
    return _score(matches, totals, c, r)


def _count_wrap(hyps: Hyps, refs: Refs, max_order: int, modulus: int) -> float:
    """Every n-gram count (candidate and each reference) taken mod `modulus`; the sums
    m_n, l_n over the segment's n-grams and over segments, and c, r, at full width."""

    def clip(n: int, counts: Counts, rs: SegRefs) -> int:
        mx: Counts = Counter()
        for ref in rs:
            for g, k in _counts(ref, n).items():
                mx[g] = max(mx[g], k % modulus)
        return sum(min(k % modulus, mx[g]) for g, k in counts.items())

    def denom(n: int, counts: Counts, h: Tokens, rs: SegRefs, r: int) -> int:
        return sum(k % modulus for k in counts.values())

    return _score(*_stats_with(hyps, refs, max_order, clip=clip, denom=denom))


def count_wrap8(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """n-gram counts kept in an array of unsigned bytes: each n-gram's count in the candidate
    and in every reference is taken mod 256; Count_clip = min(wrapped candidate count, max
    over references of the wrapped reference count), l_n = Σ wrapped candidate counts; the
    per-order sums m_n, l_n over segments and the lengths c, r are full width."""
    return _count_wrap(hyps, refs, max_order, 256)


def count_wrap16(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """n-gram counts kept in 16 bits (an array of uint16): as count_wrap8 with mod 65536;
    the per-order sums m_n, l_n over segments and the lengths c, r are full width."""
    return _count_wrap(hyps, refs, max_order, 65536)


# ---------------------------------------------------------------------------
# C. input handling (what reaches the computation)
# ---------------------------------------------------------------------------


def char_tokens(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Strings passed where token lists are expected: every character (spaces too) is a token."""
    chars_h = [list(" ".join(h)) for h in hyps]
    chars_r = [[list(" ".join(ref)) for ref in rs] for rs in refs]
    return paper_bleu(chars_h, chars_r, max_order)


def eos_pad(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """An end-of-sequence token '</s>' left on every candidate and every reference."""
    return paper_bleu(
        [[*h, "</s>"] for h in hyps], [[[*ref, "</s>"] for ref in rs] for rs in refs], max_order
    )


def ref_unwrapped(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """A single reference passed as the list of references: each of its tokens becomes a
    separate reference whose tokens are that token's characters."""
    return paper_bleu(hyps, [[list(t) for t in rs[0]] for rs in refs], max_order)


def transposed_refs(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Per-segment reference lists read as reference STREAMS: segment s gets
    [refs[k][s] for every k]; segments past the shortest stream are dropped."""
    m_len = min([len(hyps), *(len(x) for x in refs)])
    kept = hyps[:m_len]
    streams = [[refs[k][s] for k in range(len(refs))] for s in range(m_len)]
    return paper_bleu(kept, streams, max_order)


def swap(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Hypothesis and (first) reference swapped."""
    return paper_bleu([rs[0] for rs in refs], [[h] for h in hyps], max_order)


def empty_shift(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Empty hypotheses removed from the hypotheses only: later pairs are misaligned."""
    kept = [h for h in hyps if len(h) > 0]
    return paper_bleu(kept, refs[: len(kept)], max_order)


def resplit(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Every token list (candidate and references) joined with single spaces and split again
    with str.split() (at any whitespace): a token holding a space becomes several; then the
    paper's BLEU."""
    return paper_bleu(
        [" ".join(h).split() for h in hyps],
        [[" ".join(ref).split() for ref in rs] for rs in refs],
        max_order,
    )


def refs_fewest(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Every segment's references cut to the first k, k = the smallest number of references
    any segment has (per-segment lists turned into streams with zip); then the paper's BLEU."""
    k = min((len(rs) for rs in refs), default=0)
    return paper_bleu(hyps, [rs[:k] for rs in refs], max_order)


def case_one_side(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """The hypotheses' tokens lower-cased (str.lower), the references left as they are; then
    the paper's BLEU."""
    return paper_bleu([[t.lower() for t in h] for h in hyps], refs, max_order)


# ---------------------------------------------------------------------------
# D. lengths
# ---------------------------------------------------------------------------


def len_dist(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """r_seg = min_R | |R| - c | : the distance is used as the length."""
    return _score(
        *_stats_with(hyps, refs, max_order, ref_len=lambda c, rs: min(abs(len(ref) - c) for ref in rs))
    )


def _vikasnar_best(c: int, rs: SegRefs) -> int:
    lens = [len(ref) for ref in rs]
    least, best = abs(c - lens[0]), lens[0]
    for length in lens:
        if length < least:  # a length compared with a distance
            least, best = length, length
    return best


def len_mixed(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Best length loop compares a reference LENGTH with the running DISTANCE
    (vikasnar/Bleu before 690be9d)."""
    return _score(*_stats_with(hyps, refs, max_order, ref_len=_vikasnar_best))


def len_first(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """r_seg = length of the first reference, whatever the candidate length."""
    return _score(*_stats_with(hyps, refs, max_order, ref_len=lambda c, rs: len(rs[0])))


def len_distinct(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Lengths counted as distinct tokens: c_seg = |set(C)|, reference lengths |set(R)|."""
    return _score(*_stats_with(hyps, refs, max_order, length=lambda s: len(set(s))))


def len_chars(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP lengths in characters of the space-joined line; n-grams still on tokens."""
    return _score(*_stats_with(hyps, refs, max_order, length=lambda s: len(" ".join(s))))


# ---------------------------------------------------------------------------
# E. brevity penalty
# ---------------------------------------------------------------------------


def _with_bp(hyps: Hyps, refs: Refs, max_order: int, bp_fn: BpFn) -> float:
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    return combine(matches, totals, c, r, bp_fn)


def bp_inverted(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP = exp(1 - c/r) for c <= r (ratio inverted)."""
    return _with_bp(hyps, refs, max_order, lambda c, r: math.exp(1 - Fraction(c, r)) if c <= r else 1.0)


def bp_two_sided(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP also applied to long candidates: exp(1 - c/r) when c > r."""
    return _with_bp(
        hyps,
        refs,
        max_order,
        lambda c, r: math.exp(1 - Fraction(r, c)) if c <= r else math.exp(1 - Fraction(c, r)),
    )


def bp_linear(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP = min(1, c/r): linear, not exponential."""
    return _with_bp(hyps, refs, max_order, lambda c, r: min(1.0, c / r))


def bp_twice(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP multiplied in twice."""
    return _with_bp(hyps, refs, max_order, lambda c, r: paper_bp(c, r) ** 2)


def bp_intdiv(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """r/c computed by integer (floor) division."""
    return _with_bp(hyps, refs, max_order, lambda c, r: 1.0 if c > r else math.exp(1 - (r // c)))


def no_bp(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """No brevity penalty (BP = 1)."""
    return _with_bp(hyps, refs, max_order, lambda c, r: 1.0)


def bp_in_root(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP inside the N-th root: (BP · Π p_n)^(1/N)."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    ps = precisions(matches, totals)
    if ps is None:
        return 0.0
    return math.pow(paper_bp(c, r), 1.0 / max_order) * geo(ps)


def bp_per_segment(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """BP computed per segment and averaged; precisions still corpus (micro)."""
    segs = [segment_stats(h, rs, max_order) for h, rs in zip(hyps, refs, strict=True)]
    matches, totals, _, _ = corpus_stats(hyps, refs, max_order)
    ps = precisions(matches, totals)
    if ps is None:
        return 0.0
    bp = math.fsum(paper_bp(c, r) for _, _, c, r in segs) / len(segs)
    return bp * geo(ps)


# ---------------------------------------------------------------------------
# F. combination
# ---------------------------------------------------------------------------


def prec_macro_bp_micro(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """p_n = mean over segments (with l_n > 0) of m_n/l_n; BP from corpus c and r."""
    segs = [segment_stats(h, rs, max_order) for h, rs in zip(hyps, refs, strict=True)]
    ps: list[Fraction] = []
    for n in range(max_order):
        vals = [Fraction(m[n], t[n]) for m, t, _, _ in segs if t[n] > 0]
        if not vals or sum(vals) == 0:
            return 0.0
        ps.append(sum(vals, Fraction(0)) / len(vals))
    c = sum(s[2] for s in segs)
    r = sum(s[3] for s in segs)
    return paper_bp(c, r) * geo(ps)


def _plain_ps(matches: Sequence[Num], totals: Sequence[int]) -> list[Fraction]:
    return [Fraction(m, t) if t else Fraction(0) for m, t in zip(matches, totals, strict=True)]


def arith_mean(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Arithmetic mean of the precisions instead of the geometric mean."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    return paper_bp(c, r) * float(sum(_plain_ps(matches, totals), Fraction(0)) / max_order)


def no_root(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Product of the precisions without the N-th root."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    prod = Fraction(1)
    for p in _plain_ps(matches, totals):
        prod *= p
    return paper_bp(c, r) * float(prod)


def no_exp(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """The log-domain sum is returned, never exponentiated: BP · Σ w_n log p_n
    (log 0 raises, as math.log does)."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    s = math.fsum(math.log(p) / max_order for p in _plain_ps(matches, totals))  # ValueError on 0
    return paper_bp(c, r) * s


def log_base(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """log2 used where exp expects natural logs: BP · exp(Σ w_n log2 p_n)."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    ps = precisions(matches, totals)
    if ps is None:
        return 0.0
    return paper_bp(c, r) * math.exp(math.fsum(math.log2(p) / max_order for p in ps))


def logsum_zero(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """`if sum_s == 0: return 0` — a zero log-sum (every p_n = 1) is taken for 'no match'."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    ps = precisions(matches, totals)
    if ps is None:
        return 0.0
    s = math.fsum(math.log(p) / max_order for p in ps)
    if s == 0:
        return 0.0
    return paper_bp(c, r) * math.exp(s)


def prec_intdiv(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """p_n = m_n // l_n (integer division)."""
    matches, totals, c, r = corpus_stats(hyps, refs, max_order)
    floored = [m // t if t else 0 for m, t in zip(matches, totals, strict=True)]
    return combine(floored, [1 if t else 0 for t in totals], c, r)


def orders_by_ref_len(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """Orders limited to n <= min(N, r) (r = effective reference length) and weights
    renormalised to 1/M: effective order keyed to the reference, not the candidate."""
    _, _, _, r = corpus_stats(hyps, refs, max_order)
    orders = min(max_order, r)
    if orders == 0:
        return 0.0
    return paper_bleu(hyps, refs, orders)


def ngrams_across_segments(hyps: Hyps, refs: Refs, max_order: int = 4) -> float:
    """The corpus scored as one long sentence: candidates concatenated, the k-th
    references concatenated (n-grams cross segment boundaries)."""
    K = len(refs[0])
    if any(len(rs) != K for rs in refs):
        raise ValueError("needs the same number of references in every segment")
    joined_h = [t for h in hyps for t in h]
    joined_r = [[t for rs in refs for t in rs[k]] for k in range(K)]
    return paper_bleu([joined_h], [joined_r], max_order)


FAULTS: dict[str, Callable[[Hyps, Refs], float]] = {
    "FAULT-CLIP-SUM": clip_sum,
    "FAULT-CLIP-FIRST-REF": clip_first_ref,
    "FAULT-CLIP-LAST-REF": clip_last_ref,
    "FAULT-CLIP-BEST-REF": clip_best_ref_per_order,
    "FAULT-MAX-OVER-REFS": max_over_refs,
    "FAULT-REF-AVG": ref_avg,
    "FAULT-NO-CLIP": no_clip,
    "FAULT-CLIP-UNIGRAM-ONLY": clip_unigram_only,
    "FAULT-CLIP-POOLED": clip_pooled,
    "FAULT-SET-NGRAMS": set_ngrams,
    "FAULT-DISTINCT-MATCHES": distinct_matches,
    "FAULT-DENOM-DISTINCT": denom_distinct,
    "FAULT-RECALL": recall,
    "FAULT-POSITIONAL": positional,
    "FAULT-NGRAM-LAST-MISSING": ngram_last_missing,
    "FAULT-NGRAM-EXACT-LEN": ngram_exact_len,
    "FAULT-SHORT-UNDERFLOW": short_underflow,
    "FAULT-JOIN-KEY": join_key,
    "FAULT-JOIN-SPLIT": join_split,
    "FAULT-COUNT-WRAP8": count_wrap8,
    "FAULT-COUNT-WRAP16": count_wrap16,
    "FAULT-CHAR-TOKENS": char_tokens,
    "FAULT-EOS-PAD": eos_pad,
    "FAULT-REF-UNWRAPPED": ref_unwrapped,
    "FAULT-TRANSPOSED-REFS": transposed_refs,
    "FAULT-SWAP": swap,
    "FAULT-EMPTY-SHIFT": empty_shift,
    "FAULT-RESPLIT": resplit,
    "FAULT-REFS-FEWEST": refs_fewest,
    "FAULT-CASE-ONE-SIDE": case_one_side,
    "FAULT-LEN-DIST": len_dist,
    "FAULT-LEN-MIXED": len_mixed,
    "FAULT-LEN-FIRST": len_first,
    "FAULT-LEN-DISTINCT": len_distinct,
    "FAULT-LEN-CHARS": len_chars,
    "FAULT-BP-INVERTED": bp_inverted,
    "FAULT-BP-TWO-SIDED": bp_two_sided,
    "FAULT-BP-LINEAR": bp_linear,
    "FAULT-BP-TWICE": bp_twice,
    "FAULT-BP-IN-ROOT": bp_in_root,
    "FAULT-BP-INTDIV": bp_intdiv,
    "FAULT-NO-BP": no_bp,
    "FAULT-BP-PER-SEGMENT": bp_per_segment,
    "FAULT-PREC-MACRO-BP-MICRO": prec_macro_bp_micro,
    "FAULT-ARITH-MEAN": arith_mean,
    "FAULT-NO-ROOT": no_root,
    "FAULT-NO-EXP": no_exp,
    "FAULT-LOG-BASE": log_base,
    "FAULT-LOGSUM-ZERO": logsum_zero,
    "FAULT-PREC-INTDIV": prec_intdiv,
    "FAULT-ORDERS-BY-REF-LEN": orders_by_ref_len,
    "FAULT-NGRAMS-ACROSS-SEGMENTS": ngrams_across_segments,
}


# ---------------------------------------------------------------------------
# separating examples, with the values computed by hand
# ---------------------------------------------------------------------------


def T(s: str) -> list[str]:
    """Tokens of a space-separated string ('' gives [])."""
    return s.split(" ") if s else []


class Example(TypedDict):
    """A separating example: the paper's value and the fault's (a value, or the error raised)."""

    hyps: list[list[str]]
    refs: list[list[list[str]]]
    paper: float
    fault: float | type[Exception]
    paper_calc: str
    fault_calc: str


def _wrap16_paper() -> float:
    prod = Fraction(1)
    for n in range(1, 5):
        prod *= Fraction(60001 - n, 65541 - n)
    return float(prod**0.25)


E = math.exp
EXAMPLES: dict[str, Example] = {
    "FAULT-CLIP-SUM": {
        "hyps": [T("a b c d a b c d a b c d")],
        "refs": [[T("a b c d"), T("a b c d")]],
        "paper": (Fraction(1, 495)) ** 0.25,
        "fault": (Fraction(16, 495)) ** 0.25,
        "paper_calc": "each of a,b,c,d: Count 3, max single-ref 1 -> m=(4,3,2,1), l=(12,11,10,9); "
        "c=12 > r=4 so BP=1; BLEU=(4/12*3/11*2/10*1/9)^(1/4)=(1/495)^(1/4)=0.2120",
        "fault_calc": "sum of the two refs allows 2 of each n-gram -> m=(8,6,4,2); "
        "(8/12*6/11*4/10*2/9)^(1/4)=(16/495)^(1/4)=0.4240",
    },
    "FAULT-CLIP-FIRST-REF": {
        "hyps": [T("a b c d")],
        "refs": [[T("e f g h"), T("a b c d")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "every n-gram of the candidate is in reference 2: p=(1,1,1,1); c=4=r -> BLEU=1",
        "fault_calc": "only 'e f g h' is used: m_1=0 -> BLEU=0",
    },
    "FAULT-CLIP-LAST-REF": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d"), T("e f g h")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "all n-grams in reference 1 -> p=(1,1,1,1), c=4=r -> 1",
        "fault_calc": "clipping against the last reference 'e f g h' only: m_1=0 -> 0",
    },
    "FAULT-CLIP-BEST-REF": {
        "hyps": [T("a b c d e f")],
        "refs": [[T("a b c d e X"), T("Y b c d e f")]],
        "paper": 1.0,
        "fault": (Fraction(1, 3)) ** 0.25,
        "paper_calc": "every candidate n-gram occurs in one of the references: p=(1,1,1,1); c=6=r -> 1",
        "fault_calc": "best single reference per order: 5/6, 4/5, 3/4, 2/3 -> "
        "(5/6*4/5*3/4*2/3)^(1/4)=(1/3)^(1/4)=0.7598356856515925 (promptfoo#9846's number)",
    },
    "FAULT-MAX-OVER-REFS": {
        "hyps": [T("a b c d e f")],
        "refs": [[T("a b c d e f g h"), T("a b c d e X")]],
        "paper": 1.0,
        "fault": (Fraction(1, 3)) ** 0.25,
        "paper_calc": "all n-grams in reference 1 -> p=(1,1,1,1); lengths 8,6, c=6 -> r=6, BP=1 -> 1",
        "fault_calc": "vs ref1 alone: p=1, r=8, BP=exp(1-8/6)=0.7165; vs ref2 alone: "
        "(5/6*4/5*3/4*2/3)^(1/4)=0.7598, BP=1; max=0.7598",
    },
    "FAULT-REF-AVG": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d"), T("e f g h")]],
        "paper": 1.0,
        "fault": 0.5,
        "paper_calc": "p=(1,1,1,1), c=4=r -> 1",
        "fault_calc": "clipped counts (4,3,2,1) and (0,0,0,0) averaged -> m=(2,1.5,1,0.5); "
        "p=(1/2,1/2,1/2,1/2) -> 0.5",
    },
    "FAULT-NO-CLIP": {
        "hyps": [T("a b c d a b c d")],
        "refs": [[T("a b c d")]],
        "paper": (Fraction(1, 70)) ** 0.25,
        "fault": (Fraction(8, 35)) ** 0.25,
        "paper_calc": "m=(4,3,2,1), l=(8,7,6,5); c=8>r=4 -> BP=1; (4/8*3/7*2/6*1/5)^(1/4)=(1/70)^(1/4)=0.3457",
        "fault_calc": "unclipped: m=(8,6,4,2) ('d a' etc. absent) -> (8/8*6/7*4/6*2/5)^(1/4)=(8/35)^(1/4)=0.6914",
    },
    "FAULT-CLIP-UNIGRAM-ONLY": {
        "hyps": [T("a b c d a b c d")],
        "refs": [[T("a b c d")]],
        "paper": (Fraction(1, 70)) ** 0.25,
        "fault": (Fraction(4, 35)) ** 0.25,
        "paper_calc": "as FAULT-NO-CLIP: (1/70)^(1/4)=0.3457",
        "fault_calc": "m=(4,6,4,2): (4/8*6/7*4/6*2/5)^(1/4)=(4/35)^(1/4)=0.5814",
    },
    "FAULT-CLIP-POOLED": {
        "hyps": [T("a b c d"), T("e f g h")],
        "refs": [[T("e f g h")], [T("a b c d")]],
        "paper": 0.0,
        "fault": 1.0,
        "paper_calc": "no n-gram of a segment is in its own reference: m_1=0 -> 0",
        "fault_calc": "pooled candidate counts = pooled reference counts -> m=l=(8,6,4,2); c=r=8 -> 1",
    },
    "FAULT-SET-NGRAMS": {
        "hyps": [T("a b c d a b c d")],
        "refs": [[T("a b c d")]],
        "paper": (Fraction(1, 70)) ** 0.25,
        "fault": (Fraction(3, 32)) ** 0.25,
        "paper_calc": "(1/70)^(1/4)=0.3457",
        "fault_calc": "distinct candidate n-grams: unigrams {a,b,c,d} 4/4; bigrams {ab,bc,cd,da} 3/4; "
        "trigrams 2/4; 4-grams 1/4 -> (3/32)^(1/4)=0.5533",
    },
    "FAULT-DISTINCT-MATCHES": {
        "hyps": [T("a b c d a b c d")],
        "refs": [[T("a b c d a b c d")]],
        "paper": 1.0,
        "fault": (Fraction(16, 105)) ** 0.25,
        "paper_calc": "identical: p=(1,1,1,1), c=r -> 1",
        "fault_calc": "distinct matched n-grams (4,4,4,4) over l=(8,7,6,5): "
        "(4/8*4/7*4/6*4/5)^(1/4)=(16/105)^(1/4)=0.6248",
    },
    "FAULT-DENOM-DISTINCT": {
        "hyps": [T("a b c d a b c d")],
        "refs": [[T("a b c d a b c d")]],
        "paper": 1.0,
        "fault": (Fraction(105, 16)) ** 0.25,
        "paper_calc": "identical -> 1",
        "fault_calc": "m=(8,7,6,5) over distinct counts (4,4,4,4): (2*7/4*6/4*5/4)^(1/4)=(105/16)^(1/4)=1.6005",
    },
    "FAULT-RECALL": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e f")]],
        "paper": E(-0.5),
        "fault": E(-0.5) * (Fraction(1, 15)) ** 0.25,
        "paper_calc": "p=(1,1,1,1); c=4, r=6 -> BP=exp(1-6/4)=exp(-1/2)=0.6065",
        "fault_calc": "denominators (6,5,4,3): (4/6*3/5*2/4*1/3)^(1/4)=(1/15)^(1/4)=0.5081; "
        "times BP exp(-1/2) -> 0.3082",
    },
    "FAULT-POSITIONAL": {
        "hyps": [T("x a b c d")],
        "refs": [[T("a b c d")]],
        "paper": (Fraction(1, 5)) ** 0.25,
        "fault": 0.0,
        "paper_calc": "m=(4,3,2,1), l=(5,4,3,2): (4/5*3/4*2/3*1/2)^(1/4)=(1/5)^(1/4)=0.6687; c=5>r=4 -> BP=1",
        "fault_calc": "shifted by one position nothing matches in place: m_1=0 -> 0",
    },
    "FAULT-NGRAM-LAST-MISSING": {
        "hyps": [T("a b c d e")],
        "refs": [[T("e a b c d")]],
        "paper": (Fraction(1, 4)) ** 0.25,
        "fault": 0.0,
        "paper_calc": "m=(5,3,2,1), l=(5,4,3,2): (1*3/4*2/3*1/2)^(1/4)=(1/4)^(1/4)=0.7071; c=r=5",
        "fault_calc": "last windows dropped: 4-grams {abcd} vs {eabc} -> m_4=0 -> 0",
    },
    "FAULT-NGRAM-EXACT-LEN": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "identical 4-token sentences -> 1",
        "fault_calc": "a 4-token sequence yields no 4-gram: l_4=0 (undefined) -> 0",
    },
    "FAULT-SHORT-UNDERFLOW": {
        "hyps": [T("a b")],
        "refs": [[T("a b")]],
        "paper": 0.0,
        "fault": OverflowError,
        "paper_calc": "l_3=l_4=0 (undefined orders) -> 0",
        "fault_calc": "len 2 - 4 + 1 wraps in unsigned arithmetic -> crash (mlpack#2477 review)",
    },
    "FAULT-JOIN-KEY": {
        "hyps": [["ab", "c", "d", "e"]],
        "refs": [[["a", "bc", "d", "e"]]],
        "paper": 0.0,
        "fault": (Fraction(1, 6)) ** 0.25,
        "paper_calc": "unigrams d,e match (2/4), bigram (d,e) (1/3), trigrams 0/2 -> 0",
        "fault_calc": "keys 'abc','abcd','abcde' collide: p=(2/4,2/3,1/2,1/1) -> (1/6)^(1/4)=0.6389",
    },
    "FAULT-JOIN-SPLIT": {
        "hyps": [["x y", "z", "w", "v"]],
        "refs": [[["x y", "z", "w", "v"]]],
        "paper": 1.0,
        "fault": IndexError,
        "paper_calc": "identical token lists -> 1",
        "fault_calc": "the 4-gram 'x y z w v' splits into 5 tokens: order 5 > N -> IndexError (pytorch/text#2095)",
    },
    "FAULT-COUNT-WRAP8": {
        "hyps": [["a"] * 260],
        "refs": [[["a"] * 200]],
        "paper": (Fraction(200 * 199 * 198 * 197, 260 * 259 * 258 * 257)) ** 0.25,
        "fault": 1.0,
        "paper_calc": "m_n=201-n, l_n=261-n; c=260>r=200 -> "
        "((200*199*198*197)/(260*259*258*257))^(1/4)=0.7679",
        "fault_calc": "Count(a^n)=(261-n) mod 256=5-n, ref count 201-n (< 256, unwrapped); "
        "m_n=min(5-n,201-n)=5-n, l_n=5-n -> p=1; c=260>r=200 -> 1",
    },
    "FAULT-COUNT-WRAP16": {
        "hyps": [["a"] * 65540],
        "refs": [[["a"] * 60000]],
        "paper": _wrap16_paper(),
        "fault": 1.0,
        "paper_calc": "m_n=60001-n, l_n=65541-n; c=65540>r=60000 -> "
        "(prod_{n=1..4} (60001-n)/(65541-n))^(1/4)=0.9155",
        "fault_calc": "Count(a^n)=(65541-n) mod 65536=5-n, ref count 60001-n (< 65536, unwrapped); "
        "m_n=min(5-n,60001-n)=5-n, l_n=5-n -> p=1; c=65540>r=60000 -> 1",
    },
    "FAULT-CHAR-TOKENS": {
        "hyps": [["abcd"]],
        "refs": [[["abcd", "x"]]],
        "paper": 0.0,
        "fault": E(-0.5),
        "paper_calc": "a 1-token candidate: l_2=l_3=l_4=0 -> 0",
        "fault_calc": "characters 'abcd' vs 'abcd x': p=(1,1,1,1); c=4, r=6 -> exp(1-6/4)=0.6065",
    },
    "FAULT-EOS-PAD": {
        "hyps": [T("a b c")],
        "refs": [[T("a b c")]],
        "paper": 0.0,
        "fault": 1.0,
        "paper_calc": "3 tokens: l_4=0 -> 0",
        "fault_calc": "'a b c </s>' vs 'a b c </s>': identical 4-token sequences -> 1",
    },
    "FAULT-REF-UNWRAPPED": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "identical -> 1",
        "fault_calc": "references become ['a'],['b'],['c'],['d']: no bigram anywhere -> m_2=0 -> 0",
    },
    "FAULT-TRANSPOSED-REFS": {
        "hyps": [T("a b c d"), T("e f g h")],
        "refs": [[T("a b c d"), T("a b c e")], [T("e f g h"), T("e f g x")]],
        "paper": 1.0,
        "fault": (Fraction(35, 128)) ** 0.25,
        "paper_calc": "each candidate equals one of its references -> 1",
        "fault_calc": "segment 2 gets ['a b c e','e f g x']: m=(4+3,3+2,2+1,1+0), l=(8,6,4,2) -> "
        "(7/8*5/6*3/4*1/2)^(1/4)=(35/128)^(1/4)=0.7231; c=r=8",
    },
    "FAULT-SWAP": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": (Fraction(1, 5)) ** 0.25,
        "paper_calc": "p=(1,1,1,1); c=4, r=5 -> exp(1-5/4)=0.7788",
        "fault_calc": "candidate 'a b c d e' vs 'a b c d': (4/5*3/4*2/3*1/2)^(1/4)=(1/5)^(1/4)=0.6687, BP=1",
    },
    "FAULT-EMPTY-SHIFT": {
        "hyps": [[], T("a b c d")],
        "refs": [[T("a b c d")], [T("a b c d")]],
        "paper": E(-1),
        "fault": 1.0,
        "paper_calc": "m=l=(4,3,2,1); c=4, r=8 -> exp(1-8/4)=exp(-1)=0.3679",
        "fault_calc": "empty hypothesis dropped, 'a b c d' paired with segment 1's reference only: 1",
    },
    "FAULT-RESPLIT": {
        "hyps": [["a b", "c", "d"]],
        "refs": [[["a", "b", "c", "d"]]],
        "paper": 0.0,
        "fault": 1.0,
        "paper_calc": "candidate tokens 'a b','c','d': p_1=2/3, p_2=1/2, p_3=0/1 -> 0",
        "fault_calc": "resplit: 'a b c d' against 'a b c d' -> 1",
    },
    "FAULT-REFS-FEWEST": {
        "hyps": [T("a b c d"), T("e f g h")],
        "refs": [[T("x y z w"), T("a b c d")], [T("e f g h")]],
        "paper": 1.0,
        "fault": 0.5,
        "paper_calc": "each candidate equals one of its references: m=l=(8,6,4,2); c=r=8 -> 1",
        "fault_calc": "k=1: segment 1 keeps only 'x y z w' -> m=(4,3,2,1), l=(8,6,4,2), c=r=8 -> "
        "(1/2*1/2*1/2*1/2)^(1/4)=0.5",
    },
    "FAULT-CASE-ONE-SIDE": {
        "hyps": [T("The cat sat down")],
        "refs": [[T("The cat sat down")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "identical -> 1",
        "fault_calc": "'the cat sat down' against 'The cat sat down': the 4-gram differs, m_4=0 -> 0",
    },
    "FAULT-LEN-DIST": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e f g h i j")]],
        "paper": E(-1.5),
        "fault": E(-0.5),
        "paper_calc": "p=1; c=4, r=10 -> exp(1-10/4)=exp(-3/2)=0.2231",
        "fault_calc": "r=|10-4|=6 -> exp(1-6/4)=exp(-1/2)=0.6065",
    },
    "FAULT-LEN-MIXED": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d e f g h i"), T("a b c d e f")]],
        "paper": E(-0.2),
        "fault": E(-0.8),
        "paper_calc": "p=1; lengths 9,6, c=5 -> r=6 -> exp(1-6/5)=exp(-1/5)=0.8187",
        "fault_calc": "least=|5-9|=4; 9<4? no; 6<4? no -> r=9 -> exp(1-9/5)=exp(-4/5)=0.4493",
    },
    "FAULT-LEN-FIRST": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d e f g h i"), T("a b c d e")]],
        "paper": 1.0,
        "fault": E(-0.8),
        "paper_calc": "p=1; lengths 9,5, c=5 -> r=5 -> BP=1 -> 1",
        "fault_calc": "r=|first ref|=9 -> exp(1-9/5)=exp(-4/5)=0.4493",
    },
    "FAULT-LEN-DISTINCT": {
        "hyps": [T("a b c d")],
        "refs": [[T("a a b c d")]],
        "paper": E(-0.25),
        "fault": 1.0,
        "paper_calc": "p=(1,1,1,1) (ab,bc,cd / abc,bcd / abcd all in ref); c=4, r=5 -> exp(-1/4)=0.7788",
        "fault_calc": "|set(ref)|=4=c -> BP=1 -> 1",
    },
    "FAULT-LEN-CHARS": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d ee")]],
        "paper": E(-0.25),
        "fault": E(-Fraction(3, 7)),
        "paper_calc": "p=1; c=4, r=5 -> exp(-1/4)=0.7788",
        "fault_calc": "c=len('a b c d')=7, r=len('a b c d ee')=10 -> exp(1-10/7)=exp(-3/7)=0.6514",
    },
    "FAULT-BP-INVERTED": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d e f g")]],
        "paper": E(-0.4),
        "fault": E(Fraction(2, 7)),
        "paper_calc": "p=1; c=5, r=7 -> exp(1-7/5)=0.6703",
        "fault_calc": "exp(1-5/7)=exp(2/7)=1.3307 (promptfoo#9717's example)",
    },
    "FAULT-BP-TWO-SIDED": {
        "hyps": [T("a b c d e f")],
        "refs": [[T("a b c d")]],
        "paper": (Fraction(1, 15)) ** 0.25,
        "fault": E(-0.5) * (Fraction(1, 15)) ** 0.25,
        "paper_calc": "m=(4,3,2,1), l=(6,5,4,3): (1/15)^(1/4)=0.5081; c=6>r=4 -> BP=1",
        "fault_calc": "BP=exp(1-6/4)=exp(-1/2) -> 0.3082",
    },
    "FAULT-BP-LINEAR": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": 0.8,
        "paper_calc": "p=1; exp(1-5/4)=0.7788",
        "fault_calc": "min(1, 4/5)=0.8",
    },
    "FAULT-BP-TWICE": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": E(-0.5),
        "paper_calc": "exp(-1/4)=0.7788",
        "fault_calc": "exp(-1/4)^2=exp(-1/2)=0.6065",
    },
    "FAULT-BP-IN-ROOT": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": E(-0.0625),
        "paper_calc": "exp(-1/4)=0.7788",
        "fault_calc": "exp(-1/4)^(1/4)=exp(-1/16)=0.9394",
    },
    "FAULT-BP-INTDIV": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": 1.0,
        "paper_calc": "exp(1-5/4)=0.7788",
        "fault_calc": "5//4=1 -> exp(1-1)=1",
    },
    "FAULT-NO-BP": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d e")]],
        "paper": E(-0.25),
        "fault": 1.0,
        "paper_calc": "exp(-1/4)=0.7788",
        "fault_calc": "BP=1 -> 1",
    },
    "FAULT-BP-PER-SEGMENT": {
        "hyps": [T("a b c d"), T("a b c d e f g h")],
        "refs": [[T("a b c d e f g h")], [T("a b c d")]],
        "paper": (Fraction(1, 15)) ** 0.25,
        "fault": (1 + E(-1)) / 2 * (Fraction(1, 15)) ** 0.25,
        "paper_calc": "m=(4+4,3+3,2+2,1+1)=(8,6,4,2), l=(4+8,3+7,2+6,1+5)=(12,10,8,6): "
        "(2/3*3/5*1/2*1/3)^(1/4)=(1/15)^(1/4)=0.5081; c=12=r -> BP=1",
        "fault_calc": "segment BPs exp(1-8/4)=exp(-1) and 1, mean 0.6839 -> 0.3475",
    },
    "FAULT-PREC-MACRO-BP-MICRO": {
        "hyps": [T("a b c d"), T("a b c d e f g h")],
        "refs": [[T("a b c d")], [T("a b c d e f g x")]],
        "paper": (Fraction(11 * 9 * 7 * 5, 12 * 10 * 8 * 6)) ** 0.25,
        "fault": (Fraction(15, 16) * Fraction(13, 14) * Fraction(11, 12) * Fraction(9, 10)) ** 0.25,
        "paper_calc": "m=(4+7,3+6,2+5,1+4)=(11,9,7,5), l=(12,10,8,6): "
        "(11/12*9/10*7/8*5/6)^(1/4)=(3465/5760)^(1/4)=0.8807; c=r=12",
        "fault_calc": "p_n = mean(1, (8-n)/(9-n)) = 15/16, 13/14, 11/12, 9/10 -> (19305/26880)^(1/4)=0.9206",
    },
    "FAULT-ARITH-MEAN": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c e")]],
        "paper": 0.0,
        "fault": 23 / 48,
        "paper_calc": "m_4=0 -> 0",
        "fault_calc": "(3/4+2/3+1/2+0)/4=23/48=0.4792",
    },
    "FAULT-NO-ROOT": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d x")]],
        "paper": (Fraction(1, 5)) ** 0.25,
        "fault": 0.2,
        "paper_calc": "p=(4/5,3/4,2/3,1/2): (1/5)^(1/4)=0.6687; c=r=5",
        "fault_calc": "4/5*3/4*2/3*1/2=1/5=0.2",
    },
    "FAULT-NO-EXP": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d x")]],
        "paper": (Fraction(1, 5)) ** 0.25,
        "fault": math.log(0.2) / 4,
        "paper_calc": "(1/5)^(1/4)=0.6687",
        "fault_calc": "(1/4)*log(1/5)=-0.4024",
    },
    "FAULT-LOG-BASE": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d x")]],
        "paper": (Fraction(1, 5)) ** 0.25,
        "fault": E(math.log2(0.2) / 4),
        "paper_calc": "(1/5)^(1/4)=0.6687",
        "fault_calc": "exp(log2(1/5)/4)=exp(-0.5805)=0.5596",
    },
    "FAULT-LOGSUM-ZERO": {
        "hyps": [T("a b c d")],
        "refs": [[T("a b c d")]],
        "paper": 1.0,
        "fault": 0.0,
        "paper_calc": "identical -> 1",
        "fault_calc": "Σ w log 1 = 0 -> returns 0 (nltk#1285)",
    },
    "FAULT-PREC-INTDIV": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c d x")]],
        "paper": (Fraction(1, 5)) ** 0.25,
        "fault": 0.0,
        "paper_calc": "(1/5)^(1/4)=0.6687",
        "fault_calc": "4//5=0 -> 0",
    },
    "FAULT-ORDERS-BY-REF-LEN": {
        "hyps": [T("a b c d e")],
        "refs": [[T("a b c")]],
        "paper": 0.0,
        "fault": (Fraction(1, 10)) ** (1 / 3),
        "paper_calc": "m=(3,2,1,0): m_4=0 -> 0",
        "fault_calc": "r=3 -> orders 1..3, weights 1/3: (3/5*2/4*1/3)^(1/3)=(1/10)^(1/3)=0.4642; c=5>r -> BP=1",
    },
    "FAULT-NGRAMS-ACROSS-SEGMENTS": {
        "hyps": [T("a b"), T("c d")],
        "refs": [[T("a b")], [T("c d")]],
        "paper": 0.0,
        "fault": 1.0,
        "paper_calc": "2-token segments: l_3=l_4=0 -> 0",
        "fault_calc": "'a b c d' vs 'a b c d' as one sentence -> 1",
    },
}


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def self_test(verbose: bool = False) -> None:
    """Check every example: the paper's and the fault's hand values, and that they differ."""
    failures: list[tuple[object, ...]] = []
    assert set(EXAMPLES) == set(FAULTS), set(EXAMPLES) ^ set(FAULTS)
    # the paper's own numbers: Example 1 candidate 1
    r1 = T("It is a guide to action that ensures that the military will forever heed Party commands")
    r2 = T(
        "It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party"
    )
    r3 = T("It is the practical guide for the army always to heed the directions of the party")
    c1 = T("It is a guide to action which ensures that the military always obeys the commands of the party")
    assert _close(paper_bleu([c1], [[r1, r2, r3]]), 0.5045666840058485)
    for fid, ex in EXAMPLES.items():
        p = paper_bleu(ex["hyps"], ex["refs"])
        if not _close(p, float(ex["paper"])):
            failures.append((fid, "paper", p, float(ex["paper"])))
        want = ex["fault"]
        got: float | str
        if isinstance(want, type):
            try:
                got = FAULTS[fid](ex["hyps"], ex["refs"])
                failures.append((fid, f"expected {want.__name__}", got))
            except want:
                got = want.__name__
        else:
            got = FAULTS[fid](ex["hyps"], ex["refs"])
            if not _close(got, float(want)):
                failures.append((fid, "fault", got, float(want)))
            if _close(got, p):
                failures.append((fid, "does not separate", got, p))
        if verbose:
            print(f"{fid:<30} paper={p!r:<22} fault={got!r}")
    if failures:
        for f in failures:
            print("FAIL", f)
        raise SystemExit(1)
    print(f"ok: {len(FAULTS)} fault classes, every example separates and matches the hand values")


if __name__ == "__main__":
    self_test(verbose="-v" in sys.argv)
