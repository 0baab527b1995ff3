"""Differential tests, part 1: statistics, compared exactly where the peers expose them.

sacrebleu (2.6.0, ``tokenize='none'``) exposes its sufficient statistics: matches, totals,
c and r must equal the reference's to the integer, on generated corpora and on every vector.
nltk (3.10.4) exposes ``modified_precision`` and ``closest_ref_length`` per segment: its
numerator must equal m_n and its r the reference's best match length; its denominator is
max(1, l_n), not l_n (nltk/translate/bleu_score.py, ``denominator = max(1, sum(counts.values()))``),
which inflates its corpus totals by one for every segment shorter than n.

Scores are compared here only on the formula's own domain (every p_n > 0, no smoothing),
where no convention of the edge-case registry is involved, within a relative 1e-13: the
peers compute in binary64 with about a dozen correctly rounded operations (a division and
a log per order, a sum, an exp, the BP exp and, for sacrebleu, two scalings by 100), so
their error is a few 1e-15 relative; 1e-13 leaves a margin and still catches any
difference of substance. Everything outside that domain belongs to the divergence registry.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

from conformance.peers.targets import SacrebleuTarget
from conformance.suite.loader import Vector, load_vectors
from conformance.suite.strategies import corpora
from reference_bleu import corpus_bleu, segment_statistics, sentence_bleu

Corpus = tuple[list[list[str]], list[list[list[str]]]]
REL_TOLERANCE = 1e-13


def same_statistics(hyps: list[list[str]], refs: list[list[list[str]]], max_order: int = 4) -> None:
    ours = corpus_bleu(hyps, refs, max_order=max_order)
    theirs = SacrebleuTarget(max_ngram_order=max_order).corpus(hyps, refs)
    assert theirs.matches == ours.matches
    assert theirs.totals == ours.totals
    assert (theirs.hyp_len, theirs.ref_len) == (ours.hyp_len, ours.ref_len)
    if all(ours.matches):
        assert math.isclose(theirs.score, ours.score, rel_tol=REL_TOLERANCE)
        assert math.isclose(theirs.brevity_penalty or 0.0, ours.brevity_penalty, rel_tol=REL_TOLERANCE)


@given(corpora(), st.integers(1, 5))
def test_sacrebleu_corpus_statistics_equal_the_reference(corpus: Corpus, max_order: int) -> None:
    same_statistics(*corpus, max_order=max_order)


@given(corpora(max_segments=1))
def test_sacrebleu_sentence_statistics_equal_the_reference(corpus: Corpus) -> None:
    hyps, refs = corpus
    ours = sentence_bleu(hyps[0], refs[0])
    theirs = SacrebleuTarget(effective_order=True).sentence(hyps[0], refs[0])
    assert (theirs.matches, theirs.totals, theirs.hyp_len, theirs.ref_len) == (
        ours.matches,
        ours.totals,
        ours.hyp_len,
        ours.ref_len,
    )


#: Options that may change the statistics themselves (EC-001, EC-005, EC-015, a profile).
COUNTING_OPTIONS = {
    "ref_length",
    "weights",
    "denominator",
    "empty_references",
    "empty_candidates",
    "no_reference",
    "profile",
}
STATISTICS_VECTORS = [v for v in load_vectors() if v.scored and not COUNTING_OPTIONS & set(v.api_options())]


@pytest.mark.parametrize("vector", STATISTICS_VECTORS, ids=lambda v: v.id)
def test_sacrebleu_statistics_equal_the_vector(vector: Vector) -> None:
    max_order = vector.api_options().get("max_order", 4)
    theirs = SacrebleuTarget(max_ngram_order=max_order).corpus(
        vector.data["hypotheses"], vector.data["references"]
    )
    expected = vector.expected
    assert list(theirs.matches or ()) == expected["matches"]
    assert list(theirs.totals or ()) == expected["totals"]
    assert (theirs.hyp_len, theirs.ref_len) == (expected["hyp_len"], vector.expected_ref_len())


@given(corpora(max_segments=1), st.integers(1, 5))
def test_nltk_segment_precision_is_ours_with_a_denominator_of_at_least_one(corpus: Corpus, n: int) -> None:
    (hyp,), (refs,) = corpus
    stats = segment_statistics(hyp, refs, 5, "closest")
    p = nltk_bleu.modified_precision(refs, hyp, n)
    assert isinstance(p, Fraction)
    assert p.numerator == stats.matches[n - 1]
    assert p.denominator == max(1, stats.totals[n - 1])
    assert nltk_bleu.closest_ref_length(refs, len(hyp)) == stats.ref_len


@given(corpora())
def test_nltk_corpus_score_equals_ours_on_the_formulas_own_domain(corpus: Corpus) -> None:
    hyps, refs = corpus
    ours = corpus_bleu(hyps, refs)
    # The domain: every order matched, and every segment long enough for every order (so
    # nltk's max(1, l_n) floor never applies).
    if not all(ours.matches) or min(len(h) for h in hyps) < 4:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nltk_bleu.corpus_bleu(refs, hyps)
    assert math.isclose(theirs, ours.score, rel_tol=REL_TOLERANCE)
