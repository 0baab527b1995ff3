"""The vectors are well-formed, their expectations follow from their derivations, and the
reference reproduces every one of them (spec CONF-VECTORS)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from jsonschema import Draft202012Validator

from conformance.suite.derivation import as_decimal_string
from conformance.suite.loader import (
    TOKENIZER_VECTORS_PATH,
    Vector,
    load_file,
    load_ledger,
    load_schema,
    load_tokenizer_vectors,
    load_vectors,
    vector_files,
)
from reference_bleu import BleuError, corpus_bleu

VECTORS = list(load_vectors())


def test_schema_is_a_valid_json_schema() -> None:
    Draft202012Validator.check_schema(load_schema())


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.name)
def test_vector_file_matches_the_schema_and_counts_its_tests(path: object) -> None:
    data = load_file(path)  # type: ignore[arg-type]
    errors = sorted(Draft202012Validator(load_schema()).iter_errors(data), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])
    assert data["number_of_tests"] == len(data["tests"])
    used = {flag for test in data["tests"] for flag in test["flags"]}
    assert used == set(data["flags"]), "every flag used is defined once, and every defined flag is used"


def test_vector_ids_are_unique_across_files() -> None:
    counts = Counter(v.id for v in VECTORS)
    assert [i for i, k in counts.items() if k > 1] == []


def test_vector_ids_are_never_reused_the_ledger_lists_every_one_ever_issued() -> None:
    # A new vector gets a new ID, appended to conformance/suite/vector-ids.json; a removed one is
    # moved to "retired" there with its reason, and its ID is never given to another vector.
    issued, retired = load_ledger()
    assert len(issued) == len(set(issued)), "an ID was issued twice"
    assert set(retired) <= set(issued), "a retired ID that was never issued"
    current = {v.id for v in VECTORS} | {t["id"] for t in load_tokenizer_vectors()}
    assert not current & set(retired), f"retired IDs reused: {sorted(current & set(retired))}"
    assert current - set(issued) == set(), "new vector IDs must be appended to the ledger"
    assert set(issued) - set(retired) - current == set(), "a removed vector must be retired in the ledger"
    assert all(reason.strip() for reason in retired.values()), "every retirement gives its reason"


def test_tokenizer_vectors_are_well_formed() -> None:
    data = load_file(TOKENIZER_VECTORS_PATH)
    schema = load_file(TOKENIZER_VECTORS_PATH.with_name("tokenizer-vectors.schema.json"))
    Draft202012Validator.check_schema(schema)
    Draft202012Validator(schema).validate(data)
    tests = data["tests"]
    assert data["number_of_tests"] == len(tests)
    keys = {"id", "spec_ids", "description", "tokenize", "lowercase", "text", "tokens"}
    for test in tests:
        assert set(test) - {"split", "case_order"} == keys, test["id"]
        split = test.get("split", "unicode")
        assert split in ("unicode", "ascii", "space"), test["id"]
        # Under Python's split a token is a non-empty run of non-whitespace; Perl's ASCII split
        # keeps other whitespace (U+00A0) inside tokens, and split(" ") makes empty tokens.
        ascii_space = " \t\n\x0b\f\r"
        for t in test["tokens"]:
            assert isinstance(t, str), test["id"]
            if split != "space":
                assert t, test["id"]
            if split == "unicode":
                assert not any(c.isspace() for c in t), test["id"]
            elif split == "ascii":
                assert not any(c in ascii_space for c in t), test["id"]
            else:
                assert " " not in t, test["id"]
    assert len({t["id"] for t in tests}) == len(tests)


def test_there_are_vectors_of_every_group() -> None:
    assert {v.group for v in VECTORS} == {
        "paper",
        "seeds",
        "edge-cases",
        "smoothing",
        "conventions",
        "profiles",
    }


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.is_error], ids=lambda v: v.id)
def test_expected_values_follow_from_the_hand_derivation(vector: Vector) -> None:
    expected = vector.expected
    tolerance = Decimal(expected["tolerance"])
    for key in ("score", "brevity_penalty"):
        if f"{key}_derivation" in expected:
            derived = Decimal(as_decimal_string(expected[f"{key}_derivation"]))
            assert abs(derived - Decimal(expected[key])) <= tolerance


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.is_error], ids=lambda v: v.id)
def test_expected_statistics_are_consistent(vector: Vector) -> None:
    expected = vector.expected
    for m, t, p in zip(expected["matches"], expected["totals"], expected["precisions"], strict=True):
        assert 0 <= m <= t
        assert (p is None) == (t == 0)
        if p is not None:
            # CONF-VECTORS: in lowest terms, as the text of the reduced fraction ("0", "1", "3/4")
            assert p == str(Fraction(m, t))


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.is_error], ids=lambda v: v.id)
def test_reference_reproduces_the_vector(vector: Vector) -> None:
    result = corpus_bleu(vector.data["hypotheses"], vector.data["references"], **vector.api_options())
    expected = vector.expected
    assert list(result.matches) == expected["matches"]
    assert list(result.totals) == expected["totals"]
    assert result.hyp_len == expected["hyp_len"]
    assert result.ref_len == vector.expected_ref_len()
    assert [None if p is None else Fraction(p) for p in expected["precisions"]] == list(result.precisions)
    tolerance = Decimal(expected["tolerance"])
    assert abs(result.score_decimal - vector.expected_score()) <= tolerance
    if result.options.arithmetic == "exact":
        # The float is the correctly rounded value of the exact score.
        assert result.score == float(vector.expected_score())
    else:
        # A profile's float is its tool's arithmetic (CONV-ARITH), within the vector's tolerance.
        assert abs(Decimal(repr(result.score)) - vector.expected_score()) <= tolerance
    if "brevity_penalty" in expected:
        assert abs(result.brevity_penalty_decimal - Decimal(expected["brevity_penalty"])) <= tolerance


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.is_error], ids=lambda v: v.id)
def test_reference_rejects_the_vector_naming_the_spec_id(vector: Vector) -> None:
    with pytest.raises(BleuError) as caught:
        corpus_bleu(vector.data["hypotheses"], vector.data["references"], **vector.api_options())
    assert caught.value.spec_id == vector.expected["error"]
    assert f"(spec {vector.expected['error']})" in str(caught.value)
