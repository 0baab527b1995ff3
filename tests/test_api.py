"""The API against an independent literal implementation, and its contract (spec API)."""

from __future__ import annotations

import math
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from conformance.suite.strategies import UNICODE_VOCABULARY, corpora
from reference_bleu import Statistics, corpus_bleu, score_statistics, segment_statistics, sentence_bleu
from reference_bleu.api import bleu_at, estimated_bleu
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.registry import AXES
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuError
from tests.oracle import oracle_bleu

Corpus = tuple[list[list[str]], list[list[list[str]]]]

RULES = st.sampled_from(["closest", "closest-longer", "closest-first", "shortest", "longest", "average"])


@given(corpora(), st.integers(1, 5), RULES)
def test_statistics_and_score_equal_the_oracle(corpus: Corpus, N: int, rule: str) -> None:
    hyps, refs = corpus
    result = corpus_bleu(hyps, refs, max_order=N, ref_length=rule)
    expected = oracle_bleu(hyps, refs, N=N, ref_length=rule)
    assert list(result.matches) == expected.matches
    assert list(result.totals) == expected.totals
    assert result.hyp_len == expected.c
    assert result.ref_len == expected.r
    assert result.score == expected.score  # identical doubles: both correctly rounded


@given(corpora(), st.sampled_from(["none", "exp", "add-one"]), st.booleans())
def test_smoothed_and_effective_order_scores_equal_the_oracle(
    corpus: Corpus, smoothing: str, eff: bool
) -> None:
    hyps, refs = corpus
    result = corpus_bleu(hyps, refs, smoothing=smoothing, effective_order=eff)
    assert result.score == oracle_bleu(hyps, refs, smoothing=smoothing, effective_order=eff).score


@given(corpora(), st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(any))
def test_weighted_scores_equal_the_oracle(corpus: Corpus, raw: list[int]) -> None:
    hyps, refs = corpus
    weights = [Fraction(x, sum(raw)) for x in raw]
    result = corpus_bleu(hyps, refs, weights=weights)
    assert result.score == oracle_bleu(hyps, refs, N=3, weights=weights).score


@given(corpora(vocabulary=UNICODE_VOCABULARY))
def test_unicode_tokens_are_compared_as_exact_strings(corpus: Corpus) -> None:
    hyps, refs = corpus
    assert corpus_bleu(hyps, refs).score == oracle_bleu(hyps, refs).score


@given(corpora())
def test_sentence_bleu_is_corpus_bleu_of_one_segment(corpus: Corpus) -> None:
    hyps, refs = corpus
    assert sentence_bleu(hyps[0], refs[0]) == corpus_bleu(hyps[:1], refs[:1])


@given(corpora())
def test_corpus_statistics_are_the_sum_of_segment_statistics(corpus: Corpus) -> None:
    hyps, refs = corpus
    parts = [segment_statistics(h, r, 4, "closest") for h, r in zip(hyps, refs, strict=True)]
    total = Statistics.zero(4)
    for part in parts:
        total = total + part
    result = corpus_bleu(hyps, refs)
    assert result.statistics == total
    assert score_statistics(parts).score == result.score


@given(corpora())
def test_result_fields_are_consistent(corpus: Corpus) -> None:
    hyps, refs = corpus
    result = corpus_bleu(hyps, refs)
    assert 0.0 <= result.score <= 1.0
    assert Decimal(0) <= result.score_decimal <= Decimal(1)
    assert abs(Decimal(result.score) - result.score_decimal) <= Decimal(2) ** -52
    assert len(result.matches) == len(result.totals) == len(result.precisions) == 4
    for p, m, t in zip(result.precisions, result.matches, result.totals, strict=True):
        assert p == (Fraction(m, t) if t else None)
    assert 0.0 <= result.brevity_penalty <= 1.0
    assert (result.brevity_penalty == 1.0) == (result.hyp_len >= result.ref_len)


def test_result_exposes_the_contract_fields() -> None:
    result = sentence_bleu("the cat sat".split(), ["the cat sat down".split()], max_order=2)
    assert result.matches == (3, 2)
    assert result.totals == (3, 2)
    assert (result.hyp_len, result.ref_len) == (3, 4)
    assert result.precisions == (Fraction(1), Fraction(1))
    assert result.ratio == Fraction(3, 4)
    assert result.signature.startswith("N:2|w:uniform|r:closest|smooth:none|eff:no")
    assert isinstance(result.score, float)


def test_the_same_input_gives_the_same_result_in_another_process() -> None:
    code = (
        "from reference_bleu import corpus_bleu;"
        "r = corpus_bleu([['a','b','c','d','a']], [[['a','b','c','a'], ['b','c','d']]], smoothing='chen-cherry-7');"
        "print(repr(r.score), r.score_decimal)"
    )
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    }
    in_process = corpus_bleu(
        [["a", "b", "c", "d", "a"]], [[["a", "b", "c", "a"], ["b", "c", "d"]]], smoothing="chen-cherry-7"
    )
    assert runs == {f"{in_process.score!r} {in_process.score_decimal}\n"}


def _valid(options: dict[str, object]) -> bool:
    try:
        make_options(**options)
    except BleuError:  # a value that needs another axis's (undefined_precision=smoothed: a smoothing)
        return False
    return True


#: Every value of every axis of the registry that is a point alone, as options (CONV-SPACE): the
#: points the runner predicts at.
_AXIS_POINTS = [
    assignment
    for axis in AXES.values()
    if axis.field.group in ("score", "domain")
    for assignment in axis.assignments()
    if _valid(assignment)
]


@given(corpus=corpora(), options=st.sampled_from(_AXIS_POINTS))
def test_the_estimated_score_is_the_exact_one_within_an_ulp(
    corpus: tuple[list[list[str]], list[list[list[str]]]], options: dict[str, object]
) -> None:
    """api.estimated_score evaluates the formula once at 50 digits (relative error about 1e-45) where
    score proves the correctly rounded double: the same double but within a hair of a
    midpoint, and the same errors (the runner reads "error" as an answer)."""
    validated = make_options(**options)
    try:
        exact: float | str = bleu_at(Point.of(validated), *corpus).score
    except BleuError:
        exact = "error"
    try:
        estimate: float | str = estimated_bleu(validated, *corpus)
    except BleuError:
        estimate = "error"
    if isinstance(exact, str) or isinstance(estimate, str):
        assert estimate == exact
    else:
        assert abs(estimate - exact) <= math.ulp(exact)
