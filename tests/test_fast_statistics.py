"""The fast statistics path gives the literal path's integers (spec NUM-FAST).

The literal path is the spec's mirror: :func:`segment_statistics` (BLEU-PREC, BLEU-LEN-BEST,
one formula each) summed by :func:`corpus_statistics` (BLEU-CORPUS). It is the oracle here;
the fast path (:mod:`reference_bleu.fast.counts`), which every corpus score goes through, must give the
same matches, totals, c and r on every input, segment by segment and summed, and the same
errors. Inputs: generated corpora (hypothesis; run with ``BLEU_HYPOTHESIS_PROFILE=thorough``
for 3,000 examples per test), and real text: every WMT17 system with 13a at 1 and 4 references,
and every tokenizer on the first system of each shared test set. ``BLEU_FAST_PATH_FULL=1`` runs every
system with every tokenizer (the run behind benchmarks/results.md's first figures).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.suite.strategies import corpora, sentences
from reference_bleu.errors import BleuInputError
from reference_bleu.fast.counts import (
    clipped_matches,
    counted_statistics,
    fast_statistics,
    fast_system_statistics,
    python_clipped_matches,
    summed_statistics,
)
from reference_bleu.formulas.inputs import PAPER_RULES, SegmentRules
from reference_bleu.formulas.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.formulas.statistics import Statistics, corpus_statistics, segment_statistics
from reference_bleu.scoring.files import Counting, systems_statistics
from reference_bleu.text.tokenizers import TOKENIZERS, tokenize_line
from tests.test_real_data import MULTEVAL, MULTEVAL_SYSTEMS, WMT17, WMT17_SYSTEMS, lines

Corpus = tuple[list[list[str]], list[list[list[str]]]]


def literal(
    hyps: list[list[str]],
    refs: list[list[list[str]]],
    orders: int,
    rule: str,
    rules: SegmentRules = PAPER_RULES,
    *,
    start: int = 0,
) -> list[Statistics]:
    """Each segment's statistics by the spec's literal functions, after the rules of EC-004 to EC-006
    (errors name segments counted from ``start``)."""
    kept = []
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True), start):
        references = rules.references(r, i)
        if references is not None and rules.keeps_candidate(h, i):
            kept.append(segment_statistics(h, references, orders, rule))  # type: ignore[arg-type]
    return kept


def assert_same(hyps: list[list[str]], refs: list[list[list[str]]], orders: int, rule: str) -> None:
    segments = literal(hyps, refs, orders, rule)
    assert fast_statistics(hyps, refs, orders, rule, keep_segments=True) == segments  # type: ignore[arg-type]
    assert fast_statistics(hyps, refs, orders, rule) == [corpus_statistics(segments, orders)]  # type: ignore[arg-type]


@given(corpora(), st.integers(1, 6), st.sampled_from(REF_LENGTH_RULES))
def test_fast_statistics_equal_the_literal_ones(corpus: Corpus, orders: int, rule: str) -> None:
    assert_same(*corpus, orders, rule)


@given(corpora(vocabulary=("a", "b")), st.integers(1, 8))
def test_fast_statistics_equal_on_repetitive_text(corpus: Corpus, orders: int) -> None:
    # Two words: n-grams repeat inside a segment and across references, so clipping is busy.
    assert_same(*corpus, orders, "closest")


@given(sentences(), st.lists(sentences(), min_size=1, max_size=5), st.integers(1, 6))
def test_clipped_matches_are_the_numerators_of_modified_precision(
    candidate: list[str], references: list[list[str]], orders: int
) -> None:
    expected = segment_statistics(candidate, references, orders, "closest").matches
    assert tuple(clipped_matches(candidate, references, orders)) == expected


def test_a_hand_counted_segment() -> None:
    # Papineni et al. 2002, sec. 2.1, Example 2: "the" x7 against the two references. Unigrams:
    # Count("the") = 7, Max_Ref_Count("the") = 2 (reference 1) -> 2 of 7; bigrams: ("the", "the")
    # is in no reference -> 0 of 6. c = 7; the reference lengths are 6 and 7, and 7 is closest.
    candidate = "the the the the the the the".split()
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    assert fast_statistics([candidate], [refs], 2, "closest") == [Statistics((2, 0), (7, 6), 7, 7)]


@pytest.mark.parametrize("empty", ["keep", "drop"])
@pytest.mark.parametrize("no_reference", ["empty", "drop"])
@pytest.mark.parametrize("empty_candidates", ["keep", "drop"])
def test_segment_rules_match(empty: str, no_reference: str, empty_candidates: str) -> None:
    hyps = [["a", "b"], ["c"], [], ["a"], ["b"]]
    refs: list[list[list[str]]] = [[["a", "b"], []], [[], ["c", "d"]], [["a"]], [], [[]]]
    rules = SegmentRules(empty, no_reference, empty_candidates)
    segments = literal(hyps, refs, 2, "closest", rules)
    # Hand count of what remains: segment 2 (empty candidate) only under keep; segment 3 (no
    # reference) only as one empty reference; segment 4 (only an empty reference) dropped only
    # when empty references are dropped and segments without references are too.
    expected = (
        2
        + (empty_candidates == "keep")
        + (no_reference == "empty")
        + (empty == "keep" or no_reference == "empty")
    )
    assert len(segments) == expected
    assert fast_statistics(hyps, refs, 2, "closest", rules=rules, keep_segments=True) == segments
    assert fast_statistics(hyps, refs, 2, "closest", rules=rules) == [corpus_statistics(segments, 2)]


def test_errors_name_the_segment_counted_from_start() -> None:
    with pytest.raises(BleuInputError, match=r"segment 7 has an empty reference \(spec EC-005\)"):
        fast_statistics([["a"], ["b"]], [[["a"]], [[]]], 2, "closest", rules=SegmentRules("error"), start=6)
    with pytest.raises(BleuInputError, match=r"segment 7 has an empty candidate \(spec EC-004\)"):
        fast_statistics(
            [["a"], []],
            [[["a"]], [["b"]]],
            2,
            "closest",
            rules=SegmentRules(empty_candidates="error"),
            start=6,
        )
    with pytest.raises(BleuInputError, match=r"segment 7 has no reference once empty references are dropped"):
        fast_statistics([["a"], ["b"]], [[["a"]], [[]]], 2, "closest", rules=SegmentRules("drop"), start=6)


def test_an_empty_corpus_is_the_zero_statistics() -> None:
    assert fast_statistics([], [], 3, "closest") == [Statistics.zero(3)]
    assert fast_statistics([], [], 3, "closest", keep_segments=True) == []


def test_the_caller_s_input_is_not_changed() -> None:
    hyps = [["a", "b", "a"]]
    refs = [[["a", "b"], ["b", "a", "a"]]]
    fast_statistics(hyps, refs, 3, "closest", keep_segments=True)
    assert hyps == [["a", "b", "a"]]
    assert refs == [[["a", "b"], ["b", "a", "a"]]]


# --- real text ----------------------------------------------------------------------------------


@cache
def tokenized(path: Path, tokenize: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(tokenize_line(line, tokenize)) for line in lines(path))


def real_corpus(system: Path, refs: list[Path], tokenize: str) -> Corpus:
    hyps = [list(h) for h in tokenized(system, tokenize)]
    streams = [tokenized(r, tokenize) for r in refs]
    return hyps, [[list(r) for r in rs] for rs in zip(*streams, strict=True)]


FULL = os.environ.get("BLEU_FAST_PATH_FULL") == "1"
SETS = [(WMT17, WMT17_SYSTEMS, WMT17 / "ref.de"), (MULTEVAL, MULTEVAL_SYSTEMS, MULTEVAL / "ref.en")]
CASES = [
    (system, tokenize, nrefs)
    for _, systems, _ in SETS
    for system in systems
    for tokenize in TOKENIZERS
    for nrefs in (1, 4)
    if FULL or (tokenize == "13a" and system in WMT17_SYSTEMS) or system == systems[0]
]


@pytest.mark.slow  # 50 cases of 2,489-3,004 segments through both paths: 100 s of CPU in all
@pytest.mark.parametrize(
    ("system", "tokenize", "nrefs"), CASES, ids=lambda v: v.name if isinstance(v, Path) else str(v)
)
def test_real_systems_have_the_literal_statistics(system: Path, tokenize: str, nrefs: int) -> None:
    # Four references: the real one and the first three other systems of the same test set.
    _, systems, ref = next(s for s in SETS if system in s[1])
    others = [s for s in systems if s != system][: nrefs - 1]
    hyps, refs = real_corpus(system, [ref, *others], tokenize)
    segments = literal(hyps, refs, 4, "closest")
    assert fast_statistics(hyps, refs, 4, "closest", keep_segments=True) == segments


def test_several_systems_in_one_pass_have_each_system_s_literal_statistics() -> None:
    # The CLI reads every hypothesis file in one pass and counts each segment's references once.
    refs = [WMT17 / "ref.de", WMT17_SYSTEMS[-1]]
    counting = Counting(4, "closest", "13a")
    per_system, count = systems_statistics(
        [str(s) for s in WMT17_SYSTEMS[:3]], [str(r) for r in refs], counting
    )
    assert count == len(lines(WMT17 / "ref.de"))
    for system, (total,) in zip(WMT17_SYSTEMS[:3], per_system, strict=True):
        hyps, references = real_corpus(system, refs, "13a")
        assert total == corpus_statistics(literal(hyps, references, 4, "closest"), 4)


@given(st.lists(corpora(max_segments=4, max_references=3), min_size=2, max_size=3))
def test_systems_sharing_references_have_their_own_statistics(corpus_list: list[Corpus]) -> None:
    # Several systems against the first corpus's references (cut to the shortest corpus).
    size = min(len(hyps) for hyps, _ in corpus_list)
    references = corpus_list[0][1][:size]
    systems = [hyps[:size] for hyps, _ in corpus_list]
    together = fast_system_statistics(systems, references, 4, "closest", keep_segments=True)
    assert together == [literal(hyps, references, 4, "closest") for hyps in systems]


@given(
    st.lists(corpora(max_segments=5, max_references=3), min_size=1, max_size=3),
    st.integers(1, 3),
    st.sampled_from(REF_LENGTH_RULES),
    st.sampled_from(["keep", "drop", "error"]),
    st.sampled_from(["keep", "drop", "error"]),
)
def test_statistics_from_summed_matches_and_lengths_are_the_literal_ones(
    corpus_list: list[Corpus], width: int, rule: RefLengthRule, empty_references: str, empty_candidates: str
) -> None:
    """counted_statistics (NUM-KERNEL: what the file scorer makes of counts_13a's answer), given the
    Python path's summed matches and the token counts, gives each system's literal statistics, or the
    same error (EC-004, EC-005, and EC-006 once empty references are dropped) as fast_system_statistics."""
    size = min(len(hyps) for hyps, _ in corpus_list)
    systems = [hyps[:size] for hyps, _ in corpus_list]
    references = [(refs + [[]] * width)[:width] for refs in corpus_list[0][1][:size]]  # width per row
    rules = SegmentRules(empty_references, "error", empty_candidates)
    matches = [[0] * 4 for _ in systems]
    lengths: list[int] = []
    for i, refs in enumerate(references):
        lengths.extend([*(len(hyps[i]) for hyps in systems), *map(len, refs)])
        for k, hyps in enumerate(systems):
            found = python_clipped_matches(hyps[i], refs, 4)
            matches[k] = [a + b for a, b in zip(matches[k], found, strict=True)]
    expected = outcome(lambda: fast_system_statistics(systems, references, 4, rule, rules=rules, start=3))
    cells = len(systems) + width
    assert (
        outcome(lambda: counted_statistics(matches, lengths, cells, rule, rules=rules, start=3)) == expected
    )
    if not isinstance(expected, str):
        assert expected == [
            [corpus_statistics(literal(hyps, references, 4, rule, rules), 4)] for hyps in systems
        ]


def outcome(compute: Callable[[], object]) -> object:
    """A computation's value, or its BleuInputError's message (the same errors on both paths)."""
    try:
        return compute()
    except BleuInputError as error:
        return str(error)


@st.composite
def statistics_lists(draw: st.DrawFn) -> tuple[list[Statistics], int]:
    """Segments' statistics of one number of orders (some with a ratio r, as under ``average``), and that number."""
    orders = draw(st.integers(1, 5))
    segments = []
    for _ in range(draw(st.integers(0, 6))):
        totals = draw(st.lists(st.integers(0, 40), min_size=orders, max_size=orders))
        matches = [draw(st.integers(0, t)) for t in totals]
        r = draw(st.one_of(st.integers(0, 50), st.fractions(0, 50, max_denominator=6)))
        segments.append(Statistics(tuple(matches), tuple(totals), draw(st.integers(0, 50)), r))
    return segments, orders


@given(statistics_lists(), st.booleans())
def test_summed_statistics_are_the_literal_corpus_statistics(
    generated: tuple[list[Statistics], int], other: bool
) -> None:
    """summed_statistics (each column summed by C) equals BLEU-CORPUS's literal corpus_statistics, r
    normalised alike, and refuses statistics of other orders with its error."""
    segments, orders = generated
    asked = orders + 1 if other and segments else orders
    expected = outcome(lambda: corpus_statistics(segments, asked))
    got = outcome(lambda: summed_statistics(segments, asked))
    assert got == expected
    if isinstance(got, Statistics) and isinstance(expected, Statistics):
        assert type(got.ref_len) is type(expected.ref_len)
