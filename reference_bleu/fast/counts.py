"""The fast statistics path: BLEU-STATS computed the fastest way plain Python allows (spec NUM-FAST).

The literal functions of :mod:`reference_bleu.formulas.counting` and :mod:`reference_bleu.formulas.statistics`
are the spec's mirror, one formula each; this module computes the *same integers* for a
whole corpus in one pass, and everything that scores a corpus (the API, the command line,
statistics files, the runner's reference) goes through it. The test
``tests/test_fast_statistics.py`` proves the two paths equal on generated corpora and on every
system of the shared data.

Why it is faster (measured, ``benchmarks/bench.py``), not different:

- one multiset (a dict filled by ``collections._count_elements``, the C function behind
  ``Counter``, without ``Counter``'s Python-level set-up) per order and sentence, built by C
  code from ``zip`` of shifted slices
  (unigrams keyed by the token itself, which skips a tuple per token: the keys of the
  candidate and of its references are formed the same way, so they meet exactly as the
  literal 1-tuples do);
- Σ_g min(Count(g), Max_Ref_Count(g)) (BLEU-CLIP, BLEU-PREC) summed over the n-grams the
  candidate shares with a reference only, by ``map(min, ...)`` in C: an n-gram of the
  candidate absent from every reference clips to 0 and adds nothing;
- Σ_g Count(g) = max(0, c - n + 1), the number of windows (BLEU-NGRAM), not counted;
- no object per segment unless the caller keeps segments: matches are added in place, c is
  kept and the totals Σ max(0, c - n + 1) summed once at the end;
- no order above one without matches is counted: every n-gram shared with a reference
  starts with an (n-1)-gram shared with it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import repeat
from operator import add, sub
from typing import Any

from reference_bleu.fast.kernel import kernel_module, load_kernel
from reference_bleu.formulas.counting import Sentence
from reference_bleu.formulas.inputs import PAPER_RULES, SegmentRules
from reference_bleu.formulas.length import Length, RefLengthRule, best_match_length
from reference_bleu.formulas.statistics import Statistics, corpus_statistics, normal_length

try:  # the C helper of collections.Counter (CPython and PyPy have it since Python 3.2)
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover -- another Python: the same counts through Counter
    from collections import Counter

    def _count_elements(mapping: dict[Hashable, int], iterable: Iterable[Hashable]) -> None:
        mapping.update(Counter(iterable))


Counts = dict[Hashable, int]


#: The kernel this process counts with (``None``: the pure-Python path below).
KERNEL = load_kernel()
#: The kernel's sum of many segments' clipped matches in one call (``None`` without the kernel).
SUMMED_KERNEL: Callable[[list[Sentence], list[Sequence[Sentence]], int], list[int]] | None = (
    None if KERNEL is None else getattr(kernel_module(), "summed_clipped_matches", None)
)
#: The kernel's answer for counted rows of text (NUM-KERNEL): each system's summed clipped matches,
#: every line's number of tokens as bytes of native ``long long`` (``memoryview(lengths).cast("q")``),
#: each system's summed totals Σ max(0, c - n + 1) and each column's number of tokens.
Counted = tuple[list[list[int]], bytes, list[list[int]], list[int]]
#: The kernel's tokenizing and counting of a chunk of rows of text in one call, ``counts_rows(rows,
#: systems, orders, tokenizer)`` (a tokenizer's number from ``fast.kernel.kernel_tokenizers``): no
#: ``str`` per token (``None`` without the kernel). :func:`counted_statistics` makes the statistics.
COUNTS_ROWS: Callable[[Sequence[Sequence[str]], int, int, int], Counted] | None = (
    None if KERNEL is None else getattr(kernel_module(), "counts_rows", None)
)
#: The same for lines given as blocks of UTF-8 bytes (or str), ``counts_lines(buffers, systems, orders,
#: tokenizer, segments=False)`` -> (rows counted, the file whose next line is not valid UTF-8 or -1, then
#: counts_rows's answer, then with ``segments`` each row's own matches for :func:`counted_segments`):
#: the streamed files' path (``scoring.blocks``).
COUNTS_LINES: Callable[..., tuple[Any, ...]] | None = (
    None if KERNEL is None else getattr(kernel_module(), "counts_lines", None)
)


class collector_paused:  # noqa: N801 -- used as a function: ``with collector_paused():``
    """The cyclic garbage collector off while counting (NUM-FAST), as it was after.

    Counting makes many small objects (token tuples, multisets, statistics) and no reference
    cycles; each of the collector's full passes would walk every object alive, the caller's corpus
    included, so their cost grows with the corpus (about a quarter of the time at 10x WMT17).
    Reference counting frees all of them either way; a process that turned the collector off keeps
    it off. A class, not a generator: it costs a sentence score well under a microsecond.
    """

    __slots__ = ("resume",)

    def __enter__(self) -> None:
        self.resume = gc.isenabled()
        gc.disable()

    def __exit__(self, *exception: object) -> None:
        if self.resume:
            gc.enable()


def summed_statistics(segments: Sequence[Statistics], orders: int) -> Statistics:
    """NUM-FAST. ``corpus_statistics(segments, orders)`` (BLEU-CORPUS), each field summed over the segments
    by C (``sum`` of each column of ``zip``) instead of a pair object per segment and order; the same
    error for statistics of other orders.

    >>> summed_statistics([Statistics((17, 10), (18, 17), 18, 18), Statistics((8, 1), (14, 13), 14, 16)], 2)
    Statistics(matches=(25, 11), totals=(32, 30), hyp_len=32, ref_len=34)
    """
    if any(len(s.matches) != orders for s in segments):
        return corpus_statistics(segments, orders)  # its error, worded once
    if not segments:
        return Statistics.zero(orders)
    matches = tuple(map(sum, zip(*[s.matches for s in segments], strict=True)))
    totals = tuple(map(sum, zip(*[s.totals for s in segments], strict=True)))
    ref_len: Length = sum([s.ref_len for s in segments], 0)
    return Statistics(matches, totals, sum([s.hyp_len for s in segments]), normal_length(ref_len))


def _order_counts(sentence: Sentence, n: int) -> Counts:
    """BLEU-COUNT of order n, keyed by the token itself at n = 1 and by the n-gram tuple above."""
    counts: Counts = {}
    _count_elements(counts, sentence if n == 1 else zip(*[sentence[i:] for i in range(n)], strict=False))
    return counts


class _ReferenceCounts:
    """The references of one segment, counted per order on first need and shared by every candidate."""

    __slots__ = ("by_order", "references")

    def __init__(self, references: Sequence[Sentence]) -> None:
        self.references = references
        self.by_order: dict[int, list[Counts]] = {}

    def of_order(self, n: int) -> list[Counts]:
        counts = self.by_order.get(n)
        if counts is None:
            counts = self.by_order[n] = [_order_counts(r, n) for r in self.references]
        return counts


def _add_matches(candidate: Sentence, references: _ReferenceCounts, into: list[int]) -> None:
    """Add Σ_g Count_clip(g) of order n to ``into[n - 1]``, n = 1..len(into) (:func:`clipped_matches`).

    By the compiled kernel where it is loaded (NUM-KERNEL), else by :func:`python_add_matches`.
    """
    if KERNEL is None:
        python_add_matches(candidate, references, into)
        return
    into[:] = map(add, into, KERNEL(candidate, references.references, len(into)))


def python_add_matches(candidate: Sentence, references: _ReferenceCounts, into: list[int]) -> None:
    """The pure-Python :func:`_add_matches`: the kernel's oracle (tests/test_kernel.py)."""
    for n in range(1, min(len(into), len(candidate)) + 1):
        counts = _order_counts(candidate, n)
        per_reference = references.of_order(n)
        if len(per_reference) == 1:
            reference = per_reference[0]
            shared = counts.keys() & reference.keys()
            matched = sum(map(min, map(counts.__getitem__, shared), map(reference.__getitem__, shared)))
        else:
            grams = list(counts)
            most = map(max, *[map(r.get, grams, repeat(0)) for r in per_reference])
            matched = sum(map(min, map(counts.__getitem__, grams), most))
        if not matched:
            return  # an n-gram match contains an (n-1)-gram match: no higher order can match
        into[n - 1] += matched


def clipped_matches(candidate: Sentence, references: Sequence[Sentence], orders: int) -> list[int]:
    """Σ_g Count_clip(g) for n = 1..``orders``: the numerators of BLEU-PREC, in one pass.

    >>> clipped_matches("the the the the the the the".split(),
    ...                 ["the cat is on the mat".split(), "there is a cat on the mat".split()], 2)
    [2, 0]
    """
    if KERNEL is not None:
        return KERNEL(candidate, references, orders)
    matches = [0] * orders
    python_add_matches(candidate, _ReferenceCounts(references), matches)
    return matches


def python_clipped_matches(candidate: Sentence, references: Sequence[Sentence], orders: int) -> list[int]:
    """:func:`clipped_matches` by the pure-Python path, whether or not the kernel is loaded."""
    matches = [0] * orders
    python_add_matches(candidate, _ReferenceCounts(references), matches)
    return matches


def _totals(lengths: list[int], orders: int) -> tuple[int, ...]:
    """Σ_g Count(g) of each order over candidates of these lengths: Σ max(0, c - n + 1) (BLEU-NGRAM)."""
    return tuple(sum(map(max, repeat(0), map(sub, lengths, repeat(n)))) for n in range(orders))


class _Sum:
    """One system's statistics: summed in place (no object per segment), or kept segment by segment.

    With the kernel's sum (NUM-KERNEL) the segments are counted in one call at the end.
    """

    __slots__ = ("candidates", "keep", "kept", "lengths", "matches", "orders", "ref_len", "references")

    def __init__(self, orders: int, keep: bool) -> None:
        self.orders, self.keep = orders, keep
        self.matches = [0] * orders
        self.lengths: list[int] = []
        self.ref_len: Length = 0
        self.kept: list[Statistics] = []
        self.candidates: list[Sentence] = []
        self.references: list[Sequence[Sentence]] = []

    def add(self, candidate: Sentence, references: _ReferenceCounts, r: Length) -> None:
        if self.keep:
            matches = [0] * self.orders
            _add_matches(candidate, references, matches)
            c = len(candidate)
            self.kept.append(Statistics(tuple(matches), _totals([c], self.orders), c, normal_length(r)))
            return
        if SUMMED_KERNEL is None:
            _add_matches(candidate, references, self.matches)
        else:
            self.candidates.append(candidate)
            self.references.append(references.references)
        self.lengths.append(len(candidate))
        self.ref_len += r

    def result(self) -> list[Statistics]:
        if self.keep:
            return self.kept
        if SUMMED_KERNEL is not None and self.candidates:
            summed = SUMMED_KERNEL(self.candidates, self.references, self.orders)
            self.matches = list(map(add, self.matches, summed))
        return [_summed(self.matches, self.lengths, self.ref_len)]


def _summed(matches: Sequence[int], lengths: list[int], ref_len: Length) -> Statistics:
    """The summed statistics (as BLEU-CORPUS sums them) of candidates of lengths c, these matches and r."""
    totals = _totals(lengths, len(matches))
    return Statistics(tuple(matches), totals, sum(lengths), normal_length(ref_len))


#: A candidate under the segment rules: its segment's number and references, its system's index,
#: the candidate, and r.
RuledCandidate = tuple[int, Sequence[Sentence], int, Sentence, Length]


def ruled_segments(
    systems: Sequence[Sequence[Sentence]],
    references: Iterable[Sequence[Sentence]],
    ref_length: RefLengthRule,
    rules: SegmentRules = PAPER_RULES,
    start: int = 0,
) -> Iterator[RuledCandidate]:
    """EC-004, EC-005, EC-006 and EC-001 applied to the segments of several systems, in one place.

    For each segment left (numbered from ``start``) and each system's candidate in it that
    EC-004 keeps, in order: the segment's number, its references under EC-005 and EC-006 (one
    object for all of its candidates), the system's index, the candidate and its effective
    reference length r (EC-001). A dropped segment gives nothing; a refused one raises naming
    its number. What :func:`fast_system_statistics` counts, and what
    ``counted.CountedCorpus.segments`` applies to counts it already has (ATTR-COST).

    >>> drop = SegmentRules(empty_candidates="drop")
    >>> list(ruled_segments([[("a",), ()]], [[("a", "b")], [("b",)]], "closest", drop))
    [(0, [('a', 'b')], 0, ('a',), 2)]
    """
    checked, given_back = rules.candidates_checked, rules.empty_references == "keep"
    for i, (given, *candidates) in enumerate(zip(references, *systems, strict=True), start=start):
        # EC-005 keeps references as given: only a segment without any has a rule to apply.
        refs = given if given_back and given else rules.references(given, i)
        if refs is None:
            continue
        lengths = [len(r) for r in refs]
        for k, candidate in enumerate(candidates):
            if checked and not rules.keeps_candidate(candidate, i):
                continue
            r = lengths[0] if len(lengths) == 1 else best_match_length(len(candidate), lengths, ref_length)
            yield i, refs, k, candidate, r


def fast_system_statistics(
    systems: Sequence[Sequence[Sentence]],
    references: Iterable[Sequence[Sentence]],
    orders: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules = PAPER_RULES,
    keep_segments: bool = False,
    start: int = 0,
) -> list[list[Statistics]]:
    """NUM-FAST. Several systems' statistics against the same references, each as :func:`fast_statistics`.

    Each segment's references are counted once for all systems.
    """
    sums = [_Sum(orders, keep_segments) for _ in systems]
    counted = _ReferenceCounts(())
    with collector_paused():
        for _, refs, k, candidate, r in ruled_segments(systems, references, ref_length, rules, start):
            if refs is not counted.references:
                counted = _ReferenceCounts(refs)
            sums[k].add(candidate, counted, r)
        return [total.result() for total in sums]


def fast_statistics(
    hypotheses: Sequence[Sentence],
    references: Iterable[Sequence[Sentence]],
    orders: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules = PAPER_RULES,
    keep_segments: bool = False,
    start: int = 0,
) -> list[Statistics]:
    """NUM-FAST. A corpus's statistics: their sum (BLEU-CORPUS) as a one-item list, or each segment's.

    Equal to ``[corpus_statistics([segment_statistics(...) ...])]`` (or to the list of
    segment statistics with ``keep_segments``) on every input; segment i goes through the
    ``rules`` of EC-004 to EC-006 first (errors name segment ``start + i``; a dropped segment
    is not counted). An empty corpus gives the zero statistics (or no segments).

    >>> fast_statistics([("it", "is", "ship")], [[("it", "is", "a", "ship")]], 2, "closest")
    [Statistics(matches=(3, 1), totals=(3, 2), hyp_len=3, ref_len=4)]
    """
    if len(hypotheses) == 1 and isinstance(references, Sequence) and len(references) == 1:
        return _one_segment(
            hypotheses, references, orders, ref_length, rules=rules, keep=keep_segments, start=start
        )
    (result,) = fast_system_statistics(
        [hypotheses],
        references,
        orders,
        ref_length,
        rules=rules,
        keep_segments=keep_segments,
        start=start,
    )
    return result


def _one_segment(
    hypotheses: Sequence[Sentence],
    references: Sequence[Sequence[Sentence]],
    orders: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules,
    keep: bool,
    start: int,
) -> list[Statistics]:
    """:func:`fast_statistics` of a corpus of one segment (a sentence score), without the machinery of
    a corpus: the segment rules of :func:`ruled_segments`, one count of its clipped matches, its
    statistics (its own sum); no segment or the zero statistics where the rules drop it."""
    for _, refs, _, candidate, r in ruled_segments([hypotheses], references, ref_length, rules, start):
        c = len(candidate)
        matches = clipped_matches(candidate, refs, orders)
        return [
            Statistics(tuple(matches), tuple([max(0, c - n) for n in range(orders)]), c, normal_length(r))
        ]
    return [] if keep else [Statistics.zero(orders)]


def counted_statistics(
    matches: Sequence[Sequence[int]],
    lengths: Sequence[int],
    cells: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules = PAPER_RULES,
    start: int = 0,
    sums: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None,
) -> list[list[Statistics]]:
    """NUM-KERNEL. Each system's summed statistics from the kernel's counts of rows of ``cells`` lines.

    ``matches[k]`` is system k's clipped matches summed over the rows; ``lengths`` holds, row by
    row, each line's number of tokens (the ``len(matches)`` systems' candidates, then the
    references). c, r and the totals are made here from the lengths alone, under the segment
    rules of EC-004 and EC-005 and the reference length rule of EC-001, applied by
    :func:`ruled_segments` itself (the same rules and errors), to placeholder sentences of those
    lengths: the rules read only a sentence's length and emptiness. The summed matches need no
    rule: a segment is left out only for an empty candidate, which matches nothing, and an empty
    reference dropped by EC-005 matches nothing either. With one reference and rules that keep
    every segment, c and r are the columns' sums, without a Python step per row: the kernel's own
    ``sums`` (each system's totals, each column's number of tokens) when given.

    >>> counted_statistics([[3, 1]], [3, 4], 2, "closest")
    [[Statistics(matches=(3, 1), totals=(3, 2), hyp_len=3, ref_len=4)]]
    """
    systems = len(matches)
    if cells == systems + 1 and not rules.candidates_checked and rules.empty_references == "keep":
        if sums is not None:
            totals, columns = sums
            reference = normal_length(columns[systems])
            return [
                [Statistics(tuple(matches[k]), tuple(totals[k]), columns[k], reference)]
                for k in range(systems)
            ]
        return [
            [_summed(matches[k], list(lengths[k::cells]), sum(lengths[systems::cells]))]
            for k in range(systems)
        ]
    candidate_lengths: list[list[int]] = [[] for _ in range(systems)]
    ref_lens: list[Length] = [0] * systems
    for _, k, c, r in _ruled_lengths(lengths, cells, systems, ref_length, rules=rules, start=start):
        candidate_lengths[k].append(c)
        ref_lens[k] += r
    return [[_summed(matches[k], candidate_lengths[k], ref_lens[k])] for k in range(systems)]


def _ruled_lengths(
    lengths: Sequence[int],
    cells: int,
    systems: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules,
    start: int,
) -> Iterator[tuple[int, int, int, Length]]:
    """:func:`ruled_segments` on placeholder sentences of the rows' token counts (the rules read only a
    sentence's length and emptiness): each kept candidate's row (from 0), system, c and r."""
    blank = [("",) * length for length in lengths]  # a sentence of that many tokens
    rows = range(0, len(lengths), cells)
    for i, _, k, candidate, r in ruled_segments(
        [blank[k::cells] for k in range(systems)],
        [blank[j + systems : j + cells] for j in rows],
        ref_length,
        rules,
        start,
    ):
        yield i - start, k, len(candidate), r


def counted_segments(
    matches: Sequence[int],
    lengths: Sequence[int],
    cells: int,
    systems: int,
    ref_length: RefLengthRule,
    *,
    rules: SegmentRules = PAPER_RULES,
    start: int = 0,
) -> list[list[Statistics]]:
    """NUM-KERNEL. Each system's statistics segment by segment from the kernel's counts of rows of ``cells``
    lines: ``matches`` holds, row by row, each of the ``systems`` candidates' own clipped matches
    (``len(matches) // (rows x systems)`` orders each), ``lengths`` each line's number of tokens. The
    segment rules are applied as :func:`counted_statistics` applies them (:func:`ruled_segments` on
    placeholder sentences): a kept candidate's statistics are its matches, the totals max(0, c - n + 1),
    c and r, what ``fast_system_statistics(..., keep_segments=True)`` gives.

    >>> first, second = counted_segments([2, 1, 0, 0], [3, 3, 1, 2], 2, 1, "closest")[0]
    >>> first, second.totals, second.ref_len
    (Statistics(matches=(2, 1), totals=(3, 2), hyp_len=3, ref_len=3), (1, 0), 2)
    """
    rows = len(lengths) // cells if cells else 0
    orders = len(matches) // (rows * systems) if rows else 0
    kept: list[list[Statistics]] = [[] for _ in range(systems)]
    for row, k, c, r in _ruled_lengths(lengths, cells, systems, ref_length, rules=rules, start=start):
        at = (row * systems + k) * orders
        totals = tuple([max(0, c - n) for n in range(orders)])
        kept[k].append(Statistics(tuple(matches[at : at + orders]), totals, c, normal_length(r)))
    return kept
