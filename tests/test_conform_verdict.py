"""The verdict's semantics (spec CONF-VERDICT): what ``--accept`` adds, which choices outside
BLEU's domain are acceptable, range premises per smoothing, the reference-count capability.

Each target is written in tests/targets/conform.py from its description, with its expected
placement here.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.runner.references import expressible, takes
from tests.test_conform import T, _report


def _verdict(report: dict[str, object]) -> Any:
    return report["targets"][0]["verdict"]  # type: ignore[index]


@pytest.mark.slow
def test_accept_adds_a_value_beside_the_expected_one(capsys: pytest.CaptureFixture[str]) -> None:
    """``--accept aggregation=macro`` adds macro to paper's micro: the reference (micro) stays
    conformant, and a macro target is conformant too, with its choice reported."""
    code, report = _report(capsys, "-t", "reference", "--accept", "aggregation=macro")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert verdict["differs"] == []
    code, report = _report(capsys, "-t", T + "macro", "--accept", "aggregation=macro")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert [(c["axis"], c["expected"], c["found"]) for c in verdict["choices"]] == [
        ("aggregation", "micro", "macro")
    ]


#: Targets written in tests/targets/conform.py that are the paper's BLEU inside its domain, with
#: the choices each makes outside it (spec CONF-VERDICT), as the axes name them.
DOMAIN_CHOICES = [
    ("lenient_domain", {"no_reference": "drop", "empty_corpus": "zero"}),
    ("refuses_zero_lengths", {"no_reference": "empty", "zero_length": "error"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "choices"), DOMAIN_CHOICES, ids=[d[0] for d in DOMAIN_CHOICES])
def test_a_choice_outside_the_domain_is_acceptable_until_pinned(
    capsys: pytest.CaptureFixture[str], name: str, choices: dict[str, str]
) -> None:
    code, report = _report(capsys, "-t", T + name)
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("conformant", 0), verdict
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == choices
    code, report = _report(capsys, "-t", T + name, "--strict-domain")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("variant", 1), verdict
    assert {d["axis"]: d["found"] for d in verdict["differs"]} == choices


@pytest.mark.slow
def test_dropping_empty_candidates_is_a_variant_inside_the_domain(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty candidate in a non-empty corpus is inside the paper's definition: dropping it with its
    references changes BLEU (its reference length leaves r), so it is named, never a choice."""
    code, report = _report(capsys, "-t", T + "drops_empty_candidates")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("variant", 1), verdict
    assert {d["axis"]: d["found"] for d in verdict["differs"]} == {"empty_candidates": "drop"}
    assert {c["axis"]: c["found"] for c in verdict["choices"]} == {
        "no_reference": "drop",
        "empty_corpus": "zero",
    }


@pytest.mark.slow
@pytest.mark.parametrize("method", ["chen-cherry-5", "chen-cherry-6", "chen-cherry-7"])
def test_the_reference_under_a_smoothing_above_one_is_conformant_once_accepted(
    capsys: pytest.CaptureFixture[str], method: str
) -> None:
    """These smoothings can take p_n, and BLEU, above 1 (spec 09 INV-RANGE, SmoothingMethod.bounded):
    INV-RANGE's premise does not hold there, so the reference configured so is its own point."""
    code, report = _report(capsys, "-t", f"reference[smoothing={method}]", "--accept", f"smoothing={method}")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("conformant", 0), verdict
    checks = {c["id"]: c for c in report["targets"][0]["checks"]}  # type: ignore[index]
    assert checks["INV-RANGE"]["status"] == "n/a", checks["INV-RANGE"]


@pytest.mark.slow
def test_a_one_reference_tool_that_is_the_papers_bleu_is_conformant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``one_reference_bleu`` is the paper's BLEU and refuses anything but one reference per
    segment. With ``--references one`` it is asked only corpora it can express: the checks that
    need several references are n/a with the reason, and a verdict is reached (spec CONF-PROTOCOL)."""
    code, report = _report(capsys, "-t", T + "one_reference_bleu", "--references", "one")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("conformant", 0), verdict
    checks = {c["id"]: c for c in report["targets"][0]["checks"]}  # type: ignore[index]
    for check in ("INV-REF-ORDER", "INV-REF-DUP"):
        assert checks[check]["status"] == "n/a"
        assert "one reference(s) per segment" in checks[check]["detail"]
    assert checks["FP-REF-LENGTH"]["status"] == "n/a"  # every diagnostic has several references
    assert "one reference(s) per segment" in checks["FP-REF-LENGTH"]["detail"]
    assert not [c for c in checks.values() if c["status"] not in ("pass", "n/a")]


def test_references_are_cut_to_what_the_target_takes() -> None:
    """conformance.runner.references: a reference equal to the hypothesis is kept first."""
    corpus = ([["a", "b"], ["c"]], [[["x"], ["a", "b"]], [["c"], ["d"], ["e"]]])
    assert expressible("one", corpus) == ([["a", "b"], ["c"]], [[["a", "b"]], [["c"]]])
    assert expressible("same", corpus) == ([["a", "b"], ["c"]], [[["a", "b"], ["x"]], [["c"], ["d"]]])
    assert expressible("any", corpus) is corpus
    assert corpus == ([["a", "b"], ["c"]], [[["x"], ["a", "b"]], [["c"], ["d"], ["e"]]])  # unchanged
    assert takes("one", [[["a"]], [["b"]]])
    assert not takes("one", [[["a"]], []])
    assert takes("same", [[["a"], ["b"]], [["c"], ["d"]]])
    assert not takes("same", [[["a"]], [["b"], ["c"]]])


def test_a_text_rule_found_under_the_placed_point_makes_its_row_pass() -> None:
    """FP-CASE (or FP-TEXT) that matched nothing under the conventions found one point at a time
    and is explained under the placed point passes, naming the rule and saying where it was
    found; the other rows and an unsettled verdict leave the rows as they were."""
    from conformance.runner.judge.base import Check  # noqa: PLC0415
    from conformance.runner.run import _with_text_row  # noqa: PLC0415
    from conformance.runner.verdict import Verdict  # noqa: PLC0415

    rows = [
        Check("FP-CASE", "case?", "fail", "matches no known convention", ("TOK-CASE",), family="fingerprint"),
        Check("FP-ZERO", "zero?", "fail", "matches no known convention", ("EC-002",), family="fingerprint"),
    ]
    verdict = Verdict(
        level="conformant",
        expected="paper",
        point="paper",
        matched=("paper",),
        battery=50,
        settled="case ascii",
    )
    case, zero = _with_text_row(rows, verdict)
    assert (case.status, case.detail) == ("pass", "case ascii (under the point the target is placed at)")
    assert zero == rows[1]
    unsettled = Verdict(level="conformant", expected="paper", point="paper", matched=("paper",), battery=50)
    assert _with_text_row(rows, unsettled) == rows
