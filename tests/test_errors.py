"""Bad input gets one family of clear errors naming the spec ID; inputs are never changed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from reference_bleu import BleuError, BleuInputError, BleuOptionError, corpus_bleu, sentence_bleu
from reference_bleu.formulas.statistics import Statistics

OK_HYP = [["a", "b", "c"]]
OK_REFS = [[["a", "b", "c"]]]


@pytest.mark.parametrize(
    ("hypotheses", "references", "spec_id", "fragment"),
    [
        ([["a"], ["b"]], [[["a"]]], "BLEU-INPUT", "2 hypotheses but 1 reference sets"),
        ([["a"]], [[]], "EC-006", "segment 0 has no reference"),
        ([], [], "EC-012", "the corpus is empty"),
        (["a b c"], OK_REFS, "BLEU-INPUT", "hypothesis 0 is a str"),
        ("a b c", OK_REFS, "BLEU-INPUT", "hypotheses must be a sequence"),
        ([["a", 1]], OK_REFS, "EC-010", "token 1 of hypothesis 0 is a int"),
        ([["a", None]], OK_REFS, "EC-010", "tokens must be str"),
        ([[b"a"]], OK_REFS, "EC-010", "is a bytes"),
        (OK_HYP, [["a b c"]], "BLEU-INPUT", "references of segment 0 are a list of str"),
        (OK_HYP, [[["a", 2]]], "EC-010", "token 1 of reference 0 of segment 0"),
        (OK_HYP, [[["a"], "b c"]], "BLEU-INPUT", "reference 1 of segment 0 is a str"),
        (OK_HYP, None, "BLEU-INPUT", "references must be a sequence"),
        ([{"a"}], OK_REFS, "BLEU-INPUT", "must be a sequence of tokens, got set"),
    ],
)
def test_bad_input_raises_a_bleu_error_naming_the_spec_id(
    hypotheses: Any, references: Any, spec_id: str, fragment: str
) -> None:
    with pytest.raises(BleuError) as caught:
        corpus_bleu(hypotheses, references)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, BleuInputError)
    assert caught.value.spec_id == spec_id
    assert fragment in str(caught.value)
    assert f"(spec {spec_id})" in str(caught.value)


@pytest.mark.parametrize(
    ("options", "spec_id", "fragment"),
    [
        ({"max_order": 0}, "BLEU-WEIGHTS", "N (max_order) must be an int in 1..100"),
        ({"max_order": "4"}, "BLEU-WEIGHTS", "an int in 1..100"),
        ({"weights": [0.5, 0.25]}, "BLEU-WEIGHTS", "must sum to 1"),
        ({"weights": [1, -1, 1]}, "BLEU-WEIGHTS", "must not be negative"),
        ({"weights": [0.5, 0.5], "max_order": 3}, "BLEU-WEIGHTS", "2 weights given for N = 3"),
        ({"smoothing": "method1"}, "SMOOTH", "smoothing must be one of"),
        ({"smoothing_value": 0.1}, "SMOOTH-NONE", "takes no smoothing_value"),
        ({"smoothing": "floor", "smoothing_value": 0}, "SMOOTH-FLOOR", "epsilon must be positive"),
        ({"smoothing": "add-k", "smoothing_value": "x"}, "SMOOTH-ADD-K", "not a number"),
        ({"ref_length": "closer"}, "EC-001", "ref_length must be one of"),
        ({"zero_precision": "zero"}, "EC-002", "zero_precision must be one of"),
        ({"undefined_precision": None}, "EC-003", "undefined_precision must be one of"),
        ({"aggregation": "mean"}, "EC-009", "aggregation must be one of"),
        ({"effective_order": "yes"}, "API-OPTIONS", "must be True or False"),
        ({"smooth": "exp"}, "API-OPTIONS", "unknown option(s) smooth"),
        ({"auto_reweigh": True}, "API-OPTIONS", "unknown option(s) auto_reweigh"),
    ],
)
def test_bad_options_raise_a_bleu_option_error(options: dict[str, Any], spec_id: str, fragment: str) -> None:
    with pytest.raises(BleuOptionError) as caught:
        corpus_bleu(OK_HYP, OK_REFS, **options)
    assert caught.value.spec_id == spec_id
    assert fragment in str(caught.value)


def test_undefined_precision_error_names_ec_003() -> None:
    with pytest.raises(BleuError, match=r"p_4 is 0/0.*spec EC-003"):
        sentence_bleu(["a", "b", "c"], [["a", "b", "c"]], undefined_precision="error")


def test_statistics_reject_impossible_counts() -> None:
    with pytest.raises(BleuError, match="BLEU-STATS"):
        Statistics((3,), (2,), 2, 2)
    with pytest.raises(BleuError, match="BLEU-STATS"):
        Statistics((1, 1), (1,), 1, 1)
    with pytest.raises(BleuError, match="BLEU-STATS"):
        Statistics((1,), (1,), 1, 1) + Statistics((1, 1), (1, 1), 1, 1)


def test_inputs_are_never_mutated() -> None:
    hyps = [["the", "cat", "sat"], ["a", "dog"]]
    refs = [[["the", "cat", "sat", "down"], ["a", "cat"]], [["a", "dog", "ran"]]]
    weights = ["1/2", "1/2"]
    before = copy.deepcopy((hyps, refs, weights))
    for smoothing in ("none", "chen-cherry-5", "chen-cherry-7", "add-one"):
        corpus_bleu(hyps, refs, weights=weights, smoothing=smoothing)
    assert (hyps, refs, weights) == before


def test_any_sequences_are_accepted_and_iterables_at_the_top() -> None:
    tuple_result = corpus_bleu((("a", "b"),), ((("a", "b"),),), max_order=2)
    generator_result = corpus_bleu((h for h in [["a", "b"]]), iter([[["a", "b"]]]), max_order=2)
    assert tuple_result.score == generator_result.score == 1.0
