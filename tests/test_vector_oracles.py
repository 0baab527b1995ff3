"""The real tools confirm the constants and vectors of the spec's repairs (spec SMOOTH-COCO,
SMOOTH-FLOOR, EC-015, chapter 11's Unicode version).

The vectors' expected values are hand derivations evaluated by mpmath (spec CONF-VECTORS);
here the tools themselves, run on the same inputs, give the same numbers, and Python's own
float literals give the constants the spec writes as exact ratios.
"""

from __future__ import annotations

import math
import sys
import unicodedata
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from conformance.suite.loader import load_vectors
from tests.test_spec import SECTIONS

VECTORS = {v.id: v for v in load_vectors()}


def test_coco_constants_are_the_doubles_of_the_source_literals() -> None:
    # pycocoevalcap 1.2 pycocoevalcap/bleu/bleu_scorer.py:201-202: small = 1e-9, tiny = 1e-15.
    tiny, small = Fraction(1e-15), Fraction(1e-9)
    assert tiny == Fraction(2535301200456459, 2**101)
    assert small == Fraction(4835703278458517, 2**82)
    assert "2535301200456459 / 2^101" in SECTIONS["SMOOTH-COCO"]
    assert "4835703278458517 / 2^82" in SECTIONS["SMOOTH-COCO"]
    derivation = VECTORS["conv-024"].expected["score_derivation"]
    assert f"{tiny.numerator}/{tiny.denominator}" in derivation
    assert f"{small.numerator}/{small.denominator}" in derivation


def test_coco_vector_is_pycocoevalcaps_score() -> None:
    scorer = pytest.importorskip(
        "pycocoevalcap.bleu.bleu_scorer",
        reason="pycocoevalcap: the zoo extra, pip install 'reference-bleu[zoo]'",
    )
    vector = VECTORS["conv-024"]
    bleu = scorer.BleuScorer(n=vector.data["options"]["max_order"])
    for hypothesis, references in zip(vector.data["hypotheses"], vector.data["references"], strict=True):
        bleu += (" ".join(hypothesis), [" ".join(r) for r in references])
    score, _ = bleu.compute_score(option="closest", verbose=0)
    assert math.isclose(score[-1], float(vector.expected_score()), rel_tol=1e-13)


def test_the_default_epsilon_is_one_tenth_not_the_double() -> None:
    assert Fraction(VECTORS["smooth-025"].expected["score"]) == Fraction(1, 10)
    double = Fraction(0.1)
    assert double != Fraction(1, 10)
    assert Fraction(VECTORS["smooth-026"].data["options"]["smoothing_value"]) == double
    written = Decimal(VECTORS["smooth-026"].expected["score"])
    assert abs(Fraction(written) - double) < Fraction(1, 10**44)
    # The two expected scores are further apart than any vector's tolerance.
    assert double - Fraction(1, 10) > Fraction(VECTORS["smooth-026"].expected["tolerance"])


def test_totals_under_max1_segment_are_nltks_denominators() -> None:
    bleu_score = pytest.importorskip("nltk.translate.bleu_score", reason="nltk: the test extra")
    vector = VECTORS["conv-025"]
    hypotheses, references = vector.data["hypotheses"], vector.data["references"]
    orders = vector.data["options"]["max_order"]
    # nltk 3.10.4 modified_precision returns Fraction(m_n, max(1, l_n), _normalize=False) per
    # segment, and corpus_bleu sums the numerators and denominators (bleu_score.py:391, :250).
    denominators = [
        sum(
            bleu_score.modified_precision(r, h, n).denominator
            for h, r in zip(hypotheses, references, strict=True)
        )
        for n in range(1, orders + 1)
    ]
    assert denominators == vector.expected["totals"]
    score = bleu_score.corpus_bleu(references, hypotheses, weights=(Fraction(1, orders),) * orders)
    assert math.isclose(score, float(vector.expected_score()), rel_tol=1e-13)


def test_the_spec_states_this_pythons_unicode_version() -> None:
    chapter = (Path(__file__).resolve().parent.parent / "spec" / "11-tokenization.md").read_text(
        encoding="utf-8"
    )
    row = f"| {sys.version_info.major}.{sys.version_info.minor} | {unicodedata.unidata_version} |"
    assert row in chapter, f"spec chapter 11's table of Unicode versions lacks {row}"
