"""Scale, rounding and brevity penalty as the runner reads them (spec CONF-FINGERPRINT, EC-013, EC-017).

The scale is read from perfect matches (1 or 100 under every convention), the decimals a target
rounds to from its own answers to scores that are BP alone (declared digits win), the brevity penalty from scores that are
BP alone, on token or on character lengths. Each target is written in tests/targets/conform.py
from its description, never copied from a tool, with its expected placement here.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from conformance.runner.client import ProtocolTarget, python_command
from conformance.runner.expectation import Expectation
from conformance.runner.fingerprint import Fingerprint, fingerprint
from conformance.runner.fingerprint.brevity import character_lengths
from conformance.runner.fingerprint.scale import inferred_digits
from conformance.runner.placement import candidates
from reference_bleu import corpus_bleu
from tests.test_conform import T, _report


def _fingerprinted(spec: str, input_kind: str = "tokens") -> tuple[Fingerprint, dict[str, str | None], Any]:
    target = ProtocolTarget(python_command(spec, input_kind))
    try:
        found = fingerprint(target)
    finally:
        target.close()
    names = {f.point.id: f.convention.name if f.convention else None for f in found.findings}
    return found, names, target.faults


def test_the_decimals_are_the_most_any_probe_answer_has() -> None:
    """A score printed as 71.65, 42.4 (71.60's trailing zero dropped) and 61.0 is rounded to 2
    decimals; one printed in full (0.7165313105737893, 16 decimals) is not rounded; errors, a
    single number and a constant answer (three different scores asked) say nothing."""
    assert inferred_digits([71.65, 42.4, 61.0]) == 2
    assert inferred_digits([0.7165, 0.4244, "error"]) == 4
    assert inferred_digits([72.0, 42.0, 61.0]) == 0
    assert inferred_digits([0.7165313105737893, 0.42, 0.6]) is None
    assert inferred_digits(["error", "skipped", 0.5]) is None
    assert inferred_digits([1.5, 1.5, 1.5]) is None


def test_a_percent_target_rounded_to_two_decimals_is_read_without_digits() -> None:
    """Like multi-bleu.perl's "BLEU = 45.67", with no --digits: percent, 2 decimals inferred, and every
    point placed (the paper's conventions) with no fault, out-of-range above all."""
    found, names, faults = _fingerprinted(T + "rounded_percent_bleu")
    assert names["FP-SCALE"] == "percent, rounded to 2 decimals (inferred): 100 x BLEU"
    assert found.scale == 100.0
    assert names["FP-BP"] == "paper: exp(1 - r/c) for c < r"
    assert names["FP-PRECISION"] == "binary64: within 1e-9 of the exact score"
    assert all(names.values()), names
    assert not faults


def test_a_unit_target_rounded_to_four_decimals_is_read_without_digits() -> None:
    """Like mteval's 0.4567: unit, 4 decimals inferred, every point placed, no fault."""
    found, names, faults = _fingerprinted(T + "rounded_unit_bleu")
    assert names["FP-SCALE"] == "unit, rounded to 4 decimals (inferred): BLEU in [0, 1]"
    assert found.scale == 1.0
    assert all(names.values()), names
    assert not faults


def test_a_target_printing_in_full_is_not_read_as_rounded() -> None:
    _, names, faults = _fingerprinted(T + "percent_bleu")
    assert names["FP-SCALE"] == "percent: 100 x BLEU"
    assert not faults


def test_a_percent_target_with_the_plus_one_bp_is_read_as_percent() -> None:
    """exp(1 - (r+1)/(c+1)) moves every score with c < r, but not a perfect match: the scale is read
    as percent, and FP-BP names the rule, which the later points are then predicted under."""
    found, names, faults = _fingerprinted(T + "plus_one_bp_percent_bleu")
    assert names["FP-SCALE"] == "percent: 100 x BLEU"
    assert names["FP-BP"] == "plus-one: exp(1 - (r+1)/(c+1)) for c < r"
    assert found.config["brevity_penalty"] == "plus-one"
    assert names["FP-PRECISION"] == "binary64: within 1e-9 of the exact score"
    assert names["FP-REF-LENGTH"] == "the closest length, ties to the shorter (the paper, as mteval)"
    assert not faults


def test_a_bp_on_character_lengths_is_named_not_misread() -> None:
    """A text target whose n-grams are on tokens but whose c and r are the lines' characters: the
    scale is still unit, and FP-BP names the bug instead of matching a rule."""
    found, names, faults = _fingerprinted(T + "character_length_bp_bleu", "text")
    assert names["FP-SCALE"] == "unit: BLEU in [0, 1]"
    assert names["FP-BP"] == (
        "BP lengths are not token counts: c and r fit the lines' characters (paper: exp(1 - r/c) for c < r)"
    )
    assert "brevity_penalty" not in found.config
    assert "out-of-range" not in faults


def test_character_lengths_are_the_lines_lengths() -> None:
    """ "w0 w1" is 5 characters; the closest reference in characters, ties to the shorter."""
    corpus = ([["w0", "w1"], ["a"]], [[["w0", "w1", "w2"]], [["bb"], ["c"], ["a", "b"]]])
    assert character_lengths(corpus) == (5 + 1, 8 + 1)


def test_the_verdict_search_tries_the_plus_one_bp() -> None:
    names = {c.name: dict(c.options) for c in candidates(Expectation.parse("paper"), {})}
    assert names["paper with brevity_penalty=plus-one"]["brevity_penalty"] == "plus-one"


@pytest.mark.parametrize("arithmetic", ["exact", "binary64", "binary32"])
def test_the_plus_one_bp_in_every_arithmetic(arithmetic: str) -> None:
    """c = 4, r = 6, every p_n = 1: exp(1 - 7/5) (spec EC-017, vector conv-028), to each format's precision."""
    score = corpus_bleu(
        [["a", "b", "c", "d"]],
        [[["a", "b", "c", "d", "e", "f"]]],
        brevity_penalty="plus-one",
        arithmetic=arithmetic,
    ).score
    assert math.isclose(score, math.exp(-2 / 5), rel_tol=1e-6 if arithmetic == "binary32" else 1e-15)


def _verdict(report: dict[str, object]) -> Any:
    return report["targets"][0]["verdict"]  # type: ignore[index]


def _checks(report: dict[str, object]) -> dict[str, Any]:
    return {c["id"]: c for c in report["targets"][0]["checks"]}  # type: ignore[index]


@pytest.mark.slow
def test_a_rounded_percent_target_without_digits_is_conformant(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "-t", T + "rounded_percent_bleu")
    checks = _checks(report)
    assert checks["ROB-OUT-OF-RANGE"]["status"] == "pass"
    assert checks["FP-SCALE"]["detail"] == "percent, rounded to 2 decimals (inferred): 100 x BLEU"
    assert (_verdict(report)["level"], code) == ("conformant", 0), _verdict(report)


@pytest.mark.slow
def test_a_rounded_unit_target_without_digits_is_conformant(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "-t", T + "rounded_unit_bleu")
    assert _checks(report)["FP-SCALE"]["detail"] == "unit, rounded to 4 decimals (inferred): BLEU in [0, 1]"
    assert (_verdict(report)["level"], code) == ("conformant", 0), _verdict(report)


@pytest.mark.slow
def test_the_plus_one_bp_is_a_variant_named_by_its_axis(capsys: pytest.CaptureFixture[str]) -> None:
    """The paper's BLEU with the +1 BP, on a percent scale: a variant on bp alone (EC-017), placed at
    the paper with brevity_penalty=plus-one; conformant once that value is accepted."""
    code, report = _report(capsys, "-t", T + "plus_one_bp_percent_bleu")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("variant", 1), verdict
    assert verdict["point"] == "paper with brevity_penalty=plus-one"
    assert [(d["axis"], d["spec"], d["expected"], d["found"]) for d in verdict["differs"]] == [
        ("brevity_penalty", "EC-017", "paper", "plus-one")
    ]
    checks = _checks(report)
    assert (checks["FP-BP"]["status"], checks["ROB-OUT-OF-RANGE"]["status"]) == ("pass", "pass")
    code, report = _report(
        capsys, "-t", T + "plus_one_bp_percent_bleu", "--accept", "brevity_penalty=plus-one"
    )
    assert (_verdict(report)["level"], code) == ("conformant", 0), _verdict(report)


@pytest.mark.slow
def test_a_bp_on_characters_is_not_conformant_and_named_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "--input", "text", "-t", T + "character_length_bp_bleu")
    verdict = _verdict(report)
    assert (verdict["level"], code) == ("not conformant", 1), verdict
    assert verdict["point"] == ""
    assert verdict["unaccounted"][0] == "FP-BP (BP lengths are not token counts)"
    # the bug moves every answer, the text diagnostics' too: no text axis is blamed for it (texar's
    # corpus_bleu given strings was told "tokenize: no known rule; split: no known rule")
    assert not [d for d in verdict["differs"] if d["axis"] in ("tokenize", "lowercase", "split")], verdict
    checks = _checks(report)
    assert checks["FP-SCALE"]["status"] == "pass"
    assert checks["FP-BP"]["status"] == "fail"
    assert checks["FP-BP"]["detail"].startswith("BP lengths are not token counts")
    assert checks["ROB-OUT-OF-RANGE"]["status"] == "pass"
