"""FP-WEIGHTS (spec CONF-FINGERPRINT, BLEU-WEIGHTS, EC-007): the order N and the weights a target
combines its precisions with, solved from its answers.

The answers come from the reference at a known point (the construction is the oracle: the solver
must give back the options the answers were made with) and from ``weights_033`` in
tests/targets/open_world.py, a sentence BLEU written by hand with nltk users' 3-gram BLEU weights
(0.33, 0.33, 0.33, 0), whose sum 0.99 is used as given.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from conformance.runner.client import SCORE_TOLERANCE
from conformance.runner.fingerprint import BY_ID
from conformance.runner.fingerprint.base import Answer, reference_prediction
from conformance.runner.fingerprint.weights import _log_precisions, _options, solved_weights
from conformance.suite.resolution import IN_FULL, Resolution
from tests.targets.open_world import weights_033

POINT = BY_ID["FP-WEIGHTS"]


def _answers(**options: Any) -> list[Answer]:
    return [reference_prediction({}, d.corpus, **options) for d in POINT.diagnostics]


def _solved(answers: list[Answer], resolution: Resolution = IN_FULL) -> dict[str, Any] | None:
    found = solved_weights(answers, {}, POINT, SCORE_TOLERANCE, resolution)
    return dict(found[0].options) if found else None


def test_the_paper_weights_are_the_listed_convention() -> None:
    """Answers at the paper's N = 4 and uniform weights match the listed convention itself."""
    (convention,) = POINT.conventions({})
    answers = _answers()
    predicted = [convention.predict({}, d.corpus) for d in POINT.diagnostics]
    assert predicted == answers


def test_every_diagnostic_matches_every_order_up_to_six() -> None:
    """No precision of orders 1 to 6 is zero on any diagnostic (log p_n is finite), and BP = 1: the
    candidate of 17 tokens is one longer than its reference of 16."""
    for diagnostic in POINT.diagnostics:
        (hyp,), ((ref,),) = diagnostic.corpus
        assert (len(hyp), len(ref)) == (17, 16)
    assert _log_precisions({}, POINT, "none") is not None


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"max_order": 2}, {"max_order": 2}),
        ({"max_order": 3}, {"max_order": 3}),
        ({"max_order": 5}, {"max_order": 5}),
        ({"max_order": 6}, {"max_order": 6}),
        ({"max_order": 1}, {"max_order": 1}),
        (
            {"weights": ["1/10", "1/5", "3/10", "2/5"]},
            {"max_order": 4, "weights": ["1/10", "1/5", "3/10", "2/5"]},
        ),
        ({"weights": ["1/2", "1/2", "0", "0"]}, {"max_order": 2}),
        (
            {"weights": ["33/100", "33/100", "33/100", "0"], "unnormalized_weights": True},
            {"max_order": 3, "weights": ["33/100", "33/100", "33/100"], "unnormalized_weights": True},
        ),
        ({"max_order": 3, "smoothing": "add-one"}, {"max_order": 3}),
        ({"smoothing": "add-one"}, {}),
    ],
    ids=[
        "bleu-2",
        "bleu-3",
        "bleu-5",
        "bleu-6",
        "bleu-1",
        "increasing",
        "halves",
        "nltk-033",
        "add-one-3",
        "add-one",
    ],
)
def test_weights_made_by_the_reference_are_solved_back(
    options: dict[str, Any], expected: dict[str, Any]
) -> None:
    """The options the answers were made with come back (N the last weighted order; uniform weights
    as N alone; the paper's under a smoothing that moves every precision as no option at all)."""
    assert _solved(_answers(**options)) == expected


def test_a_hand_written_sentence_bleu_with_weights_033_is_solved() -> None:
    """weights_033 (its own arithmetic, not the reference's) is 3-gram BLEU with weights 0.33 each, unnormalised."""
    answers: list[Answer] = []
    for d in POINT.diagnostics:
        (hyp,), (refs,) = d.corpus
        answers.append(weights_033(hyp, refs))
    assert _solved(answers) == {
        "max_order": 3,
        "weights": ["33/100", "33/100", "33/100"],
        "unnormalized_weights": True,
    }


def test_rounded_answers_give_the_simplest_weights() -> None:
    """3-gram BLEU printed as a percentage with 2 decimals: least squares on the rounded answers is off by
    about 1e-4, and 1/3 (not 333/1000) is the simplest fraction that predicts every printed answer."""
    exact = _answers(max_order=3)
    rounded: list[Answer] = [round(100 * a, 2) / 100 for a in exact if isinstance(a, float)]
    assert rounded != exact
    assert _solved(rounded, Resolution.declared(2, 100.0)) == {"max_order": 3}


def test_weights_no_bleu_takes_are_no_convention() -> None:
    """A negative weight or no weight at all is no BLEU's: nothing is solved from it."""
    assert _options([Fraction(1, 2), Fraction(-1, 2)]) is None
    assert _options([Fraction(0)] * 4) is None
    assert _options([Fraction(1, 3)] * 3) == {"max_order": 3}


def test_answers_no_weights_explain_are_left_unexplained() -> None:
    """Answers from no weighted geometric mean (each precision's arithmetic mean, here) are not
    forced onto weights: the solver finds nothing, and the row stays open."""
    answers: list[Answer] = []
    for d in POINT.diagnostics:
        precisions = [
            math.exp(p) for p in (_log_precisions({}, POINT, "none") or [[]])[POINT.diagnostics.index(d)]
        ][:4]
        answers.append(sum(precisions) / 4)
    assert _solved(answers) is None
