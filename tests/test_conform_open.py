"""The runner in the open world (spec CONF-OPEN, CONF-VERDICT, CONF-FINGERPRINT): each target of
tests/targets/open_world.py, written from a description of what real code does, is judged as its
docstring says: a fault the closed alphabet of questions never showed is not conformant with the
open row that shows it, a convention real tools use is a variant named on its axis (or a choice
outside BLEU's domain, conformant), and an arithmetic a few ulps off is conformant.

Each test runs the whole runner on one target (20 to 40 s of CPU with the question of 70,000
segments): the slow tier.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.runner.conform import main
from tests.once import once

T = "tests.targets.open_world:"


def _verdict(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The exit code, the verdict and each row's status of a run with ``args`` (once per session)."""

    def run() -> tuple[int, dict[str, Any]]:
        code = main(["--json", "-q", "-n", "10", *args])
        return code, json.loads(capsys.readouterr().out)

    code, report = once(repr(("open", args)), run)
    target = report["targets"][0]
    return code, target["verdict"], {c["id"]: c["status"] for c in target["checks"]}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "rows", "diagnosis"),
    [
        ("join_split_tokens", {"OPEN-WHITESPACE"}, ["FAULT-RESPLIT"]),
        ("unk_never_matches", {"OPEN-SPECIAL"}, []),
        ("nfkc_tokens", {"OPEN-NORMALISATION", "OPEN-COMPATIBILITY"}, []),
        ("first_4096_segments", {"OPEN-LARGE"}, []),
        ("thread_local_config", {"OPEN-CONTEXT"}, []),
        ("uint8_counters", {"OPEN-REPEATS"}, ["FAULT-COUNT-WRAP8"]),
    ],
)
def test_a_fault_only_open_questions_show_is_not_conformant_on_that_row(
    capsys: pytest.CaptureFixture[str], target: str, rows: set[str], diagnosis: list[str]
) -> None:
    """Right on every question of the closed alphabet; the open rows that carry the feature fail,
    and they alone are what the verdict cannot account for. The diagnosis (CONF-DIAGNOSIS) names
    the catalogue's fault where the target's bug is one (tokens joined and split again; counters in
    8 bits), and none where it is not (a special token, a normalisation, a buffer of 4,096
    segments) or where the failed row is a question no fault can be asked (from a thread)."""
    code, verdict, statuses = _verdict(capsys, "--target", T + target)
    assert code == 1
    assert verdict["level"] == "not conformant"
    assert {row for row, status in statuses.items() if status == "fail"} == rows
    assert set(verdict["unaccounted"]) == rows
    assert verdict["diagnosis"]["found"] == diagnosis
    assert verdict["diagnosis"]["level"] == ("found" if diagnosis else "none")


@pytest.mark.slow
@pytest.mark.parametrize("accept", [(), ("--accept", "lowercase=unicode")])
def test_one_side_lower_cased_is_never_the_case_folding_variant(
    capsys: pytest.CaptureFixture[str], accept: tuple[str, ...]
) -> None:
    """Hypotheses lower-cased, references not: no folding of both sides predicts the capitals on the
    reference only, so FP-CASE fails, and accepting the folding does not make it conformant."""
    code, verdict, statuses = _verdict(capsys, "--target", T + "lowercase_hypotheses_only", *accept)
    assert code == 1
    assert verdict["level"] == "not conformant"
    assert statuses["FP-CASE"] == "fail"
    assert "FP-CASE" in verdict["unaccounted"]
    assert verdict["diagnosis"]["found"] == ["FAULT-CASE-ONE-SIDE"]  # the catalogue's bug


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "axis", "found", "spec"),
    [
        ("drop_zero_orders", "zero_precision", "renormalize", "EC-002"),
        ("undefined_orders_count_one", "undefined_precision", "one", "EC-003"),
        ("sentence_weights_033", "weights", "33/100,33/100,33/100", "BLEU-WEIGHTS"),
    ],
)
def test_a_convention_real_tools_use_is_a_variant_named_on_its_axis(
    capsys: pytest.CaptureFixture[str], target: str, axis: str, found: str, spec: str
) -> None:
    """Zero orders left out with the weights renormalised, 0/0 counted as 1, and nltk users'
    weights (0.33, 0.33, 0.33, 0) used as given: each a variant of the paper on its axis."""
    code, verdict, statuses = _verdict(capsys, "--target", T + target)
    assert code == 1
    assert verdict["level"] == "variant"
    differs = {d["axis"]: d for d in verdict["differs"]}
    assert differs[axis]["found"] == found
    assert differs[axis]["spec"].startswith(spec)
    assert "fail" not in statuses.values()
    assert verdict["diagnosis"] is None


@pytest.mark.slow
def test_the_weights_are_found_with_their_unnormalised_sum(capsys: pytest.CaptureFixture[str]) -> None:
    """The weights 0.33 sum to 0.99, used as given: N = 3 and the sum are named beside them."""
    _, verdict, _ = _verdict(capsys, "--target", T + "sentence_weights_033")
    differs = {d["axis"]: d["found"] for d in verdict["differs"]}
    assert differs["unnormalized_weights"] == "True"


@pytest.mark.slow
def test_a_renormalising_target_is_conformant_once_its_convention_is_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, verdict, _ = _verdict(
        capsys, "--target", T + "drop_zero_orders", "--accept", "zero_precision=renormalize"
    )
    assert (code, verdict["level"]) == (0, "conformant")
    assert verdict["diagnosis"] is None


@pytest.mark.slow
def test_an_empty_corpus_scoring_one_is_a_choice_outside_the_domain(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Outside BLEU's domain every value is acceptable unless the domain is strict: conformant, the
    choice named; with --strict-domain, a variant on that axis."""
    code, verdict, _ = _verdict(capsys, "--target", T + "empty_corpus_scores_one")
    assert (code, verdict["level"], verdict["point"]) == (0, "conformant", "paper")
    assert [(c["axis"], c["found"]) for c in verdict["choices"]] == [("empty_corpus", "one")]
    assert verdict["diagnosis"] is None
    code, verdict, _ = _verdict(capsys, "--target", T + "empty_corpus_scores_one", "--strict-domain")
    assert (code, verdict["level"]) == (1, "variant")
    assert [(d["axis"], d["found"]) for d in verdict["differs"]] == [("empty_corpus", "one")]
    assert verdict["diagnosis"] is None


@pytest.mark.slow
def test_binary64_a_few_ulps_off_is_its_arithmetic_not_a_fault(capsys: pytest.CaptureFixture[str]) -> None:
    """Computed on the percent scale and divided by 100: a perfect match scores 1.0000000000000004.
    INV-RANGE and INV-IDENTITY read it at binary64's precision; the paper's point, conformant."""
    code, verdict, statuses = _verdict(capsys, "--target", T + "percent_then_divide")
    assert (code, verdict["level"], verdict["point"]) == (0, "conformant", "paper")
    assert statuses["INV-RANGE"] == statuses["INV-IDENTITY"] == "pass"
    assert verdict["diagnosis"] is None


@pytest.mark.slow
def test_references_cut_to_the_fewest_are_not_conformant(capsys: pytest.CaptureFixture[str]) -> None:
    """Every segment's references cut to as many as the segment with the fewest has: no known point
    predicts it."""
    code, verdict, _ = _verdict(capsys, "--target", T + "fewest_references")
    assert (code, verdict["level"]) == (1, "not conformant")
    assert verdict["diagnosis"]["found"] == ["FAULT-REFS-FEWEST"]  # the catalogue's bug, named


@pytest.mark.slow
def test_a_target_that_hangs_after_a_fork_is_judged_on_its_bleu(capsys: pytest.CaptureFixture[str]) -> None:
    """A child forked for the question waits forever (a thread pool that does not survive a fork):
    the row says so, the hang is no ROB-* fault, and the paper's BLEU is conformant."""
    code = main(["--json", "-q", "-n", "10", "--target", T + "hangs_after_fork"])
    target = json.loads(capsys.readouterr().out)["targets"][0]
    rows = {c["id"]: c for c in target["checks"]}
    assert (code, target["verdict"]["level"]) == (0, "conformant")
    assert rows["OPEN-CONTEXT"]["status"] == "pass"
    assert "the target does not survive a fork" in rows["OPEN-CONTEXT"]["detail"]
    assert (rows["ROB-TIMEOUT"]["status"], rows["ROB-CRASH"]["status"]) == ("pass", "pass")
