"""The fast statistics path: BLEU-STATS computed the fastest way plain Python allows (spec NUM-FAST).

The literal functions of :mod:`reference_bleu.counting` and :mod:`reference_bleu.statistics`
are the spec's mirror, one formula each; this module computes the *same integers* for a
whole corpus in one pass, and everything that scores a corpus (the API, the command line,
statistics files, the runner's reference) goes through it. The test
``tests/test_fast_statistics.py`` proves the two paths equal on generated corpora and on every
system of the shared data.

Why it is faster (measured, ``benchmarks/bench.py``), not different:

- one ``Counter`` per order and sentence, built by C code from ``zip`` of shifted slices
  (unigrams keyed by the token itself, which skips a tuple per token: the keys of the
  candidate and of its references are formed the same way, so they meet exactly as the
  literal 1-tuples do);
- Σ_g min(Count(g), Max_Ref_Count(g)) (BLEU-CLIP, BLEU-PREC) summed over the n-grams the
  candidate shares with a reference only, by ``map(min, ...)`` in C: an n-gram of the
  candidate absent from every reference clips to 0 and adds nothing;
- Σ_g Count(g) = max(0, c - n + 1), the number of windows (BLEU-NGRAM), not counted;
- no object per segment unless the caller keeps segments;
- no order above one without matches is counted: every n-gram shared with a reference
  starts with an (n-1)-gram shared with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from itertools import repeat

from reference_bleu.counting import Sentence
from reference_bleu.inputs import conventional_references
from reference_bleu.length import Length, RefLengthRule, best_match_length
from reference_bleu.statistics import Statistics, normal_length


def _order_counts(sentence: Sentence, n: int) -> Counter[Hashable]:
    """BLEU-COUNT of order n, keyed by the token itself at n = 1 and by the n-gram tuple above."""
    if n == 1:
        return Counter(sentence)
    return Counter(zip(*[sentence[i:] for i in range(n)], strict=False))


class _ReferenceCounts:
    """The references of one segment, counted per order on first need and shared by every candidate."""

    __slots__ = ("by_order", "references")

    def __init__(self, references: Sequence[Sentence]) -> None:
        self.references = references
        self.by_order: dict[int, list[Counter[Hashable]]] = {}

    def of_order(self, n: int) -> list[Counter[Hashable]]:
        counts = self.by_order.get(n)
        if counts is None:
            counts = self.by_order[n] = [_order_counts(r, n) for r in self.references]
        return counts


def _matches(candidate: Sentence, references: _ReferenceCounts, orders: int) -> list[int]:
    """Σ_g Count_clip(g) for n = 1..``orders`` (see :func:`clipped_matches`)."""
    matches = [0] * orders
    for n in range(1, min(orders, len(candidate)) + 1):
        counts = _order_counts(candidate, n)
        per_reference = references.of_order(n)
        if len(per_reference) == 1:
            reference = per_reference[0]
            shared = counts.keys() & reference.keys()
            matches[n - 1] = sum(
                map(min, map(counts.__getitem__, shared), map(reference.__getitem__, shared))
            )
        else:
            grams = list(counts)
            most = map(max, *[map(r.get, grams, repeat(0)) for r in per_reference])
            matches[n - 1] = sum(map(min, map(counts.__getitem__, grams), most))
        if not matches[n - 1]:
            break  # an n-gram match contains an (n-1)-gram match: no higher order can match
    return matches


def clipped_matches(candidate: Sentence, references: Sequence[Sentence], orders: int) -> list[int]:
    """Σ_g Count_clip(g) for n = 1..``orders``: the numerators of BLEU-PREC, in one pass.

    >>> clipped_matches("the the the the the the the".split(),
    ...                 ["the cat is on the mat".split(), "there is a cat on the mat".split()], 2)
    [2, 0]
    """
    return _matches(candidate, _ReferenceCounts(references), orders)


class _Sum:
    """Statistics summed in place (integers, no object per segment), or kept segment by segment."""

    __slots__ = ("hyp_len", "keep", "kept", "matches", "ref_len", "totals")

    def __init__(self, orders: int, keep: bool) -> None:
        self.matches, self.totals = [0] * orders, [0] * orders
        self.hyp_len, self.keep = 0, keep
        self.ref_len: Length = 0
        self.kept: list[Statistics] = []

    def add(self, matches: list[int], c: int, r: Length) -> None:
        totals = [max(0, c - n) for n in range(len(self.totals))]  # c - n + 1 windows of order n + 1
        if self.keep:
            self.kept.append(Statistics(tuple(matches), tuple(totals), c, normal_length(r)))
            return
        self.matches = list(map(int.__add__, self.matches, matches))
        self.totals = list(map(int.__add__, self.totals, totals))
        self.hyp_len += c
        self.ref_len += r

    def result(self) -> list[Statistics]:
        if self.keep:
            return self.kept
        return [
            Statistics(tuple(self.matches), tuple(self.totals), self.hyp_len, normal_length(self.ref_len))
        ]


def fast_system_statistics(
    systems: Sequence[Sequence[Sentence]],
    references: Iterable[Sequence[Sentence]],
    orders: int,
    ref_length: RefLengthRule,
    *,
    empty_references: str = "keep",
    keep_segments: bool = False,
    start: int = 0,
) -> list[list[Statistics]]:
    """NUM-FAST. Several systems' statistics against the same references, each as :func:`fast_statistics`.

    Each segment's references are counted once for all systems.
    """
    sums = [_Sum(orders, keep_segments) for _ in systems]
    for i, (given, *candidates) in enumerate(zip(references, *systems, strict=True), start=start):
        refs = conventional_references(given, empty_references, i)
        lengths = [len(r) for r in refs]
        counted = _ReferenceCounts(refs)
        for total, candidate in zip(sums, candidates, strict=True):
            c = len(candidate)
            r = lengths[0] if len(lengths) == 1 else best_match_length(c, lengths, ref_length)
            total.add(_matches(candidate, counted, orders), c, r)
    return [total.result() for total in sums]


def fast_statistics(
    hypotheses: Sequence[Sentence],
    references: Iterable[Sequence[Sentence]],
    orders: int,
    ref_length: RefLengthRule,
    *,
    empty_references: str = "keep",
    keep_segments: bool = False,
    start: int = 0,
) -> list[Statistics]:
    """NUM-FAST. A corpus's statistics: their sum (BLEU-CORPUS) as a one-item list, or each segment's.

    Equal to ``[corpus_statistics([segment_statistics(...) ...])]`` (or to the list of
    segment statistics with ``keep_segments``) on every input; segment i's references go
    through EC-005's ``empty_references`` rule first (errors name segment ``start + i``). An
    empty corpus gives the zero statistics (or no segments).

    >>> fast_statistics([("it", "is", "ship")], [[("it", "is", "a", "ship")]], 2, "closest")
    [Statistics(matches=(3, 1), totals=(3, 2), hyp_len=3, ref_len=4)]
    """
    (result,) = fast_system_statistics(
        [hypotheses],
        references,
        orders,
        ref_length,
        empty_references=empty_references,
        keep_segments=keep_segments,
        start=start,
    )
    return result
