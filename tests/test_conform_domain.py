"""The runner on targets whose behaviour lies at the edges of what it can observe (spec
CONF-FINGERPRINT, CONF-VERDICT, CONF-PROTOCOL): an error on the total r = 0 read apart from a
refused empty reference, the case folding of a token target, the name of a placed point, and the
reference-count capability (``same``, one reference, questions skipped without a declaration).

Each target is written in tests/targets/conform.py (or tests/targets/skipping.py) from its
description, with its expected placement asserted here.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import pytest

from conformance.runner.expectation import FINGERPRINT_POINT, Candidate
from conformance.runner.fingerprint import BY_ID, settle
from conformance.runner.fingerprint.base import MATCH_TOLERANCE, agrees
from conformance.runner.placement import profile_named
from conformance.suite.resolution import IN_FULL
from reference_bleu.conventions.profiles import resolve
from tests.test_conform import T, _report


def _target(report: dict[str, object]) -> Any:
    return report["targets"][0]  # type: ignore[index]


def _rows(report: dict[str, object]) -> dict[str, Any]:
    return {c["id"]: c for c in _target(report)["checks"]}


# --- an error on the total r = 0 is not a refused empty reference (EC-004, EC-005) ---------------

#: FP-EMPTY-REFERENCE's diagnostics, answered by a tool that raises when the corpus's total r is 0
#: and only then (it divides c / r), worked out by hand:
#: 1. c = 4, refs of 0 and 10 tokens: the closest is the empty one, r = 0: an error;
#: 2. c = 5, refs of 12 and 0 tokens: the closest is the empty one again (5 < 7), r = 0: an error;
#: 3. "a b c d" against one empty reference, beside "a b c d" against itself: r = 0 + 4 = 4 <= c = 8,
#:    so BP = 1; p_n = 4/8, 3/6, 2/4, 1/2 (only the second segment matches): BLEU = 1/2;
#: 4. "a b c d" against one empty reference alone: r = 0, an error;
#: 5. "a b c d" against one empty reference, beside "a b c d e" against "a b c d e f g h i j":
#:    c = 9 < r = 0 + 10, BP = exp(1 - 10/9); only the second segment matches, 5, 4, 3 and 2 of
#:    totals 9, 7, 5, 3: BLEU = exp(-1/9) (5/9 4/7 3/5 2/3)^(1/4) = exp(-1/9) (8/63)^(1/4).
#: then FP-EMPTY-HYPOTHESIS's two, which it asks again (the zero lengths are read together):
#: 6. one empty candidate against "a b c d": c = 0, r = 4: c / r = 0, BP's limit 0: a score of 0;
#: 7. an empty candidate beside "a b c d", both against "a b c d": c = 4, r = 8, every p_n = 1,
#:    BP = exp(1 - 8/4) = exp(-1).
FIFTH = math.exp(-1 / 9) * (8 / 63) ** 0.25
RATIO_ANSWERS = ("error", "error", 0.5, "error", FIFTH, 0.0, math.exp(-1))
#: The same answered by a tool that refuses any empty reference: an error on each of the first five.
REFUSING_ANSWERS = ("error", "error", "error", "error", "error", 0.0, math.exp(-1))
#: The same answered by a tool that raises on the total c = 0 too (it divides by both).
BOTH_ANSWERS = (*RATIO_ANSWERS[:5], "error", math.exp(-1))


def test_an_error_on_a_total_r_of_zero_is_not_a_refused_empty_reference() -> None:
    """The empty reference beside a non-empty segment tells the two apart (spec CONF-FINGERPRINT)."""
    point = BY_ID["FP-EMPTY-REFERENCE"]
    # c = 0 scored: an error on r = 0 alone (error-r), empty references kept
    for answers, zero_length, empty_references in (
        (RATIO_ANSWERS, "error-r", "keep"),
        (BOTH_ANSWERS, "error", "keep"),  # an error on c = 0 as well
        (REFUSING_ANSWERS, "limit", "error"),
    ):
        found = settle(point, answers, {}, 0.0, IN_FULL)
        assert [(m.options["zero_length"], m.options["empty_references"]) for m in found.matched] == [
            (zero_length, empty_references)
        ], answers


def test_an_error_on_a_total_c_of_zero_is_not_a_refused_empty_candidate() -> None:
    """FP-EMPTY-HYPOTHESIS: one empty candidate alone (c = 0: an error), then an empty candidate
    beside "a b c d" (both against "a b c d"): c = 4, r = 4 + 4 = 8, every p_n = 1 and
    BP = exp(1 - 8/4) = exp(-1), scored by a tool that refuses only the total c = 0 (EC-004's
    error-c; FP-EMPTY-REFERENCE then tells whether it refuses r = 0 too)."""
    finding = settle(BY_ID["FP-EMPTY-HYPOTHESIS"], ("error", math.exp(-1)), {}, 0.0, IN_FULL)
    # an error on c = 0 alone or on r = 0 too: these diagnostics have r > 0 (FP-EMPTY-REFERENCE tells)
    assert [m.options["zero_length"] for m in finding.matched] == ["error", "error-c"]
    assert {m.options["empty_candidates"] for m in finding.matched} == {"keep"}
    refusing = settle(BY_ID["FP-EMPTY-HYPOTHESIS"], ("error", "error"), {}, 0.0, IN_FULL)
    assert [(m.options["empty_candidates"], m.options["zero_length"]) for m in refusing.matched] == [
        ("error", "limit")
    ]


@pytest.mark.slow
def test_a_tool_dividing_by_r_is_placed_at_zero_length_error_and_asked_empty_references(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ratio_bleu`` raises only when the total r (or c) is 0. It is conformant (an acceptable
    choice outside the domain, never a fault), placed at zero_length=error, and judged at a point
    that takes empty references: the corpora that contain one are asked of it (its reference
    options do not refuse them) and every row passes or is n/a."""
    code, report = _report(capsys, "-t", T + "ratio_bleu")
    target = _target(report)
    verdict = target["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == {"zero_length": "error"}
    assert target["reference_options"]["zero_length"] == "error"
    assert "empty_references" not in target["reference_options"]  # the default: allowed
    rows = _rows(report)
    assert rows["FP-EMPTY-REFERENCE"]["status"] == "pass"
    assert rows["FP-EMPTY-REFERENCE"]["detail"].startswith("zero_length=error: ")
    assert rows["FP-EMPTY-HYPOTHESIS"]["detail"].startswith("zero_length=error: ")
    assert not [c for c in rows.values() if c["status"] not in ("pass", "n/a")], rows


@pytest.mark.slow
def test_a_tool_computing_the_ratio_c_over_r_first_is_placed_at_zero_length_error_r(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ratio_first_bleu`` raises when the total r is 0 and only then; c = 0 scores 0 (BP's
    limit). Neither zero_length=error (both) nor error-c (c only) is its point: error-r is, a
    choice outside BLEU's domain (conformant, never a fault or "no known convention")."""
    code, report = _report(capsys, "-t", T + "ratio_first_bleu")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == {"zero_length": "error-r"}
    rows = _rows(report)
    assert rows["FP-EMPTY-REFERENCE"]["detail"].startswith("zero_length=error-r: ")
    assert not [c for c in rows.values() if c["status"] not in ("pass", "n/a")], rows


@pytest.mark.slow
def test_a_point_equal_to_a_profile_inside_the_domain_takes_its_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``shortest_ratio_first_bleu`` is nmt's BLEU wherever BLEU is defined; it scores a total c = 0
    as 0 where nmt raises. A choice outside the domain is acceptable (CONF-VERDICT), so the point is
    called nmt, not "the fingerprint's point" (texar's corpus_bleu is such a tool)."""
    code, report = _report(capsys, "-t", T + "shortest_ratio_first_bleu")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code, verdict["point"]) == ("variant", 1, "nmt"), verdict
    assert [(d["axis"], d["found"]) for d in verdict["differs"]] == [("ref_length", "shortest")]
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == {"zero_length": "error-r"}


@pytest.mark.slow
def test_a_one_reference_tool_counting_an_empty_reference_as_one_token_is_not_conformant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``empty_reference_as_one_token`` scores an empty reference's length as 1 (an end-of-sentence
    token, as fairseq's scorer counts it): with one reference per segment every empty reference it
    could be asked once had c >= r, where BP hides r, and FP-EMPTY-REFERENCE said "allowed"."""
    code, report = _report(capsys, "-t", T + "empty_reference_as_one_token", "--references", "one")
    rows = _rows(report)
    assert rows["FP-EMPTY-REFERENCE"]["status"] == "fail", rows["FP-EMPTY-REFERENCE"]
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("not conformant", 1), verdict


@pytest.mark.slow
def test_a_one_reference_tool_run_without_declaring_it_is_told_how(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``one_reference_bleu`` raises on every segment with several references: run as taking any
    number (the default) it is not conformant, and the report says to give --references one."""
    code, report = _report(capsys, "-t", T + "one_reference_bleu")
    target = _target(report)
    assert (target["verdict"]["level"], code) == ("not conformant", 1)
    assert len(target["hints"]) == 1
    assert "--references one" in target["hints"][0]
    code, report = _report(capsys, "-t", T + "one_reference_bleu", "--references", "one")
    assert _target(report)["hints"] == []


# --- a sentinel score of 2^-1022 is not an early return's 0 (EC-002, EC-016) ------------------------


def test_a_sentinel_score_is_not_zero_and_a_subnormal_difference_is_none() -> None:
    """Every p_n replaced by the sentinel 2^-1022 scores exactly 2^-1022 (the geometric mean of four
    equal numbers, BP = 1), the least normal double: an answer of 0 (an early return) is another
    convention. Below it binary64 keeps fewer digits, and 1e-312 against 0 is no difference."""
    assert not agrees(0.0, 2.0**-1022, MATCH_TOLERANCE, IN_FULL)
    assert agrees(2.0**-1022, 2.0**-1022 * (1 + 1e-12), MATCH_TOLERANCE, IN_FULL)
    assert agrees(0.0, 1e-312, MATCH_TOLERANCE, IN_FULL)


@pytest.mark.slow
def test_an_early_return_before_a_sentinel_is_placed_on_both_axes(capsys: pytest.CaptureFixture[str]) -> None:
    """``early_return_then_sentinel``: 0 without a unigram match, the sentinel for every other zero
    precision. Read with 0 and 2^-1022 equal it was placed at the sentinel alone; both axes now."""
    code, report = _report(capsys, "-t", T + "early_return_then_sentinel")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("variant", 1), verdict
    found = {d["axis"]: d["found"] for d in verdict["differs"]}
    assert found == {"early_return": "no-unigram-match", "zero_precision": "sentinel(2.225074e-308)"}


# --- the case folding of a token target (TOK-CASE) -----------------------------------------------


def test_the_case_of_tokens_tells_the_foldings_apart() -> None:
    """FP-CASE by hand: "The Cat sat on the mat today" against the lower-case line, then "Été was
    hot on the beach today" against "été ...", then the lower-case line against "The Cat ...".
    Folding nothing, "The" and "Cat" miss: p_n = 5/7, 4/6, 3/5, 2/4; "Été" misses: 6/7, 5/6, 4/5,
    3/4; c = r = 7, BP = 1. ASCII folding mends the first and third lines only (1), Unicode folding
    all three. A tool folding its hypotheses only mends the first two and not the third, which no
    folding of both sides does: no known convention."""
    first = (5 / 7 * 4 / 6 * 3 / 5 * 2 / 4) ** 0.25
    second = (6 / 7 * 5 / 6 * 4 / 5 * 3 / 4) ** 0.25
    point = BY_ID["FP-CASE"]
    for answers, folding in (
        ((first, second, first), "none"),
        ((1.0, second, 1.0), "ascii"),
        ((1.0, 1.0, 1.0), "unicode"),
    ):
        finding = settle(point, answers, {}, 0.0, IN_FULL)
        assert finding.convention is not None, answers
        assert finding.convention.name == f"case {folding}"
    assert settle(point, (1.0, 1.0, first), {}, 0.0, IN_FULL).convention is None


@pytest.mark.slow
def test_a_token_target_that_lower_cases_is_placed_with_its_case_folding_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``lowercasing_bleu`` is the paper's BLEU on lower-cased tokens: a variant of paper on the
    case axis alone (TOK-CASE), conformant once ``--accept lowercase=unicode`` adds that folding."""
    code, report = _report(capsys, "-t", T + "lowercasing_bleu")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("variant", 1), verdict
    assert [(d["axis"], d["spec"], d["expected"], d["found"]) for d in verdict["differs"]] == [
        ("lowercase", "TOK-CASE", "none", "unicode")
    ]
    assert _rows(report)["FP-CASE"]["detail"] == "case unicode"
    code, report = _report(capsys, "-t", T + "lowercasing_bleu", "--accept", "lowercase=unicode")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert [(c["axis"], c["found"]) for c in verdict["choices"]] == [("lowercase", "unicode")]


# --- a placed point that is a named profile's is called by that profile's name (CONF-VERDICT) -----


def test_a_point_equal_to_a_named_profile_takes_the_profiles_name() -> None:
    """Spec CONV-PROFILES: bleuscore is the paper's BLEU with the shortest reference length (and
    binary64, which is the exact value to 1e-13); sacrebleu[tokenize=intl] is sacrebleu with the
    intl tokenizer. A point equal to one of them is called by its name, whatever the search named
    it (equal on every axis first, else inside BLEU's domain); a point no profile is keeps its own
    name."""
    shortest = {"ref_length": "shortest"}
    assert profile_named(Candidate(FINGERPRINT_POINT, shortest), None) == "bleuscore"
    assert profile_named(Candidate("paper with ref_length=shortest", shortest), None) == "bleuscore"
    sacrebleu = dict(resolve("sacrebleu").options)
    assert profile_named(Candidate("sacrebleu", sacrebleu), ("13a", "none", "unicode")) == "sacrebleu"
    assert (
        profile_named(Candidate("sacrebleu", sacrebleu), ("intl", "none", "unicode"))
        == "sacrebleu[tokenize=intl]"
    )
    assert profile_named(Candidate("sacrebleu", sacrebleu), None) == "sacrebleu"  # a token target
    # a choice outside BLEU's domain does not change the name (it is acceptable under every
    # expectation, CONF-VERDICT, and the verdict lists it): nmt raises on c = 0, bleuscore scores it
    error = {"zero_length": "error"}
    assert profile_named(Candidate("paper with zero_length=error", error), None) == "paper"
    assert profile_named(Candidate("x", {**shortest, "zero_length": "error-r"}), None) == "nmt"
    longest = {"ref_length": "longest"}  # a point no profile is keeps its own name
    assert (
        profile_named(Candidate("paper with ref_length=longest", longest), None)
        == "paper with ref_length=longest"
    )


# --- the reference-count capability (CONF-PROTOCOL) ------------------------------------------------


@pytest.mark.slow
def test_a_tool_taking_the_same_number_of_references_per_segment_is_conformant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``reference_streams_bleu`` reads reference files (the same number of references for every
    segment) and refuses anything else. Declared ``--references same``, it is asked only corpora it
    can express, its reference-length rule is found (the FP-REF-LENGTH diagnostics have one segment,
    so any number of references), and it is the paper's BLEU: conformant, every row passing or n/a."""
    code, report = _report(capsys, "-t", T + "reference_streams_bleu", "--references", "same")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert verdict["unobservable"] == []
    rows = _rows(report)
    assert rows["FP-REF-LENGTH"]["detail"] == "the closest length, ties to the shorter (the paper, as mteval)"
    assert not [c for c in rows.values() if c["status"] not in ("pass", "n/a")], rows
    for check in ("INV-REF-ORDER", "INV-REF-DUP"):  # they index a segment's references
        assert rows[check]["status"] == "n/a"
        assert "same reference(s) per segment" in rows[check]["detail"]


@pytest.mark.slow
def test_a_one_reference_tool_claims_no_reference_length_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """With one reference per segment, closest, shortest, longest and average give the same r: the
    report says ref_length (and no_reference: a segment without references cannot be given) is not
    observable for ``one_reference_bleu``, and lists no reference-length rule as an alternative."""
    code, report = _report(capsys, "-t", T + "one_reference_bleu", "--references", "one")
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert verdict["unobservable"] == ["ref_length", "no_reference"]
    assert not [name for name in verdict["ambiguous"] if "ref_length" in name or name == "bleuscore"]
    rows = _rows(report)
    for check, axis in (("FP-REF-LENGTH", "ref_length"), ("FP-NO-REFERENCE", "no_reference")):
        assert rows[check]["status"] == "n/a"
        assert rows[check]["detail"].startswith("not observable"), rows[check]
        assert rows[check]["detail"].endswith(f"can show {axis}")


#: A program answering ``skipped`` to every question with an empty reference, which it never
#: declared it cannot take (tests/targets/skipping.py).
SKIPPING = f"{sys.executable} tests/targets/skipping.py empty-reference"


@pytest.mark.slow
def test_a_class_of_questions_skipped_undeclared_is_insufficient_evidence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The target skips every question with an empty reference: FP-EMPTY-REFERENCE, all of whose
    diagnostics have one, is starved and ``insufficient`` (never n/a, which is for questions a
    target declared it cannot take), and the verdict is insufficient evidence naming it, not
    conformant on the rest alone (the generated inputs rarely have an empty reference)."""
    code, report = _report(capsys, "--command", SKIPPING)
    verdict = _target(report)["verdict"]
    assert (verdict["level"], code) == ("insufficient evidence", 1), verdict
    assert "FP-EMPTY-REFERENCE" in verdict["unaccounted"]
    row = _rows(report)["FP-EMPTY-REFERENCE"]
    assert row["status"] == "insufficient"
    # its five diagnostics with an empty reference skipped; FP-EMPTY-HYPOTHESIS's two answered
    assert (row["asked"], row["answered"]) == (7, 2)


@pytest.mark.slow
def test_a_tool_dividing_by_c_is_placed_at_zero_length_error_c(capsys: pytest.CaptureFixture[str]) -> None:
    """``naive_bp_bleu`` computes BP = exp(1 - r / c) unless c > r: it raises when the total c is 0
    and only then (a total r = 0 gives BP = 1). Conformant, its choice outside the domain named
    zero_length=error-c (EC-004), every row passing or n/a; never "not conformant"."""
    code, report = _report(capsys, "-t", T + "naive_bp_bleu")
    target = _target(report)
    verdict = target["verdict"]
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == {"zero_length": "error-c"}
    rows = _rows(report)
    # FP-EMPTY-HYPOTHESIS cannot tell an error on c = 0 alone from one on r = 0 too (its r > 0) and
    # says so; FP-EMPTY-REFERENCE, which asks both, can
    assert rows["FP-EMPTY-HYPOTHESIS"]["detail"].startswith("zero_length=error: ")
    assert "(equally: zero_length=error-c" in rows["FP-EMPTY-HYPOTHESIS"]["detail"]
    assert rows["FP-EMPTY-REFERENCE"]["detail"].startswith("zero_length=error-c: ")
    assert not [c for c in rows.values() if c["status"] not in ("pass", "n/a")], rows
