"""What a target declares and sends is verified, not trusted (spec CONF-PROTOCOL, CONF-VERDICT,
CONF-ROBUST; issue 25 items 2, 3 and 5): rounding to the declared digits, statistics on their own,
an invariant excused only by the point's own behaviour, and the text conventions (whitespace split
rule, 13a's number rules).

The targets are written in tests/verify_targets.py from their descriptions; each must be caught
with its class named.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.peers.targets import Outcome
from conformance.runner.client import ProtocolTarget, TargetFaultError, python_command
from conformance.runner.conform import main
from conformance.runner.expectation import same_reply

V = "tests.verify_targets:"


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["--json", "-q", "-n", "8", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def _rows(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (target,) = report["targets"]
    return {c["id"]: c for c in target["checks"]}


# --- statistics ------------------------------------------------------------------------------------


def test_statistics_are_compared_exactly_beside_the_score() -> None:
    """A reply is the point's only when its statistics are too: the score alone says nothing of r."""
    point = Outcome(score=0.5, matches=(3, 2, 1, 1), totals=(4, 3, 2, 1), hyp_len=4, ref_len=6)
    same = Outcome(score=0.5, matches=(3, 2, 1, 1), totals=(4, 3, 2, 1), hyp_len=4, ref_len=6)
    assert same_reply(same, point, 1e-9)
    assert same_reply(Outcome(score=0.5), point, 1e-9)  # no statistics sent: the score decides
    for wrong in (
        Outcome(score=0.5, matches=(3, 2, 1, 1), totals=(4, 3, 2, 1), hyp_len=4, ref_len=6.4),
        Outcome(score=0.5, matches=(3, 2, 1, 1), totals=(4, 3, 2, 1), hyp_len=4, ref_len=5),
        Outcome(score=0.5, matches=(3, 2, 1, 0), totals=(4, 3, 2, 1), hyp_len=4, ref_len=6),
    ):
        assert not same_reply(wrong, point, 1e-9), wrong
    assert not same_reply(Outcome(score=0.6), point, 1e-9)
    assert same_reply("error", "error", 1e-9)
    assert not same_reply("error", point, 1e-9)


def test_statistics_declared_and_never_sent_are_a_protocol_fault() -> None:
    """A declared capability never used is a fault (CONF-PROTOCOL), not a check with nothing to see."""
    target = ProtocolTarget(python_command(V + "never_sends_statistics"))
    try:
        with pytest.raises(TargetFaultError) as caught:
            target.corpus([["a", "b"]], [[["a", "b"]]])
    finally:
        target.close()
    assert caught.value.kind == "protocol"
    assert "statistics declared" in caught.value.detail


@pytest.mark.slow  # whole runner runs
@pytest.mark.parametrize(
    ("name", "unaccounted"),
    [
        # r summed over the shortest references while the score uses the closest: only DIFF-STATS sees it
        ("shortest_reference_length", {"DIFF-STATS"}),
        # r + 0.4: DIFF-STATS, and INV-ADDITIVE, which paper with denominator=max1-total also breaks
        # (on empty segments) but not by sending r + 0.4: no excuse
        ("reference_length_plus", {"DIFF-STATS", "INV-ADDITIVE"}),
    ],
)
def test_statistics_that_differ_from_the_points_are_not_accounted_for_by_the_score(
    capsys: pytest.CaptureFixture[str], name: str, unaccounted: set[str]
) -> None:
    """Each sends the paper's score and a wrong r: before, the score alone accounted for DIFF-STATS
    (and r + 0.4 was "conformant, behaves as paper with denominator=max1-total")."""
    code, report = _report(capsys, "-t", V + name)
    verdict = report["targets"][0]["verdict"]
    assert (verdict["level"], code) == ("not conformant", 1), verdict
    assert set(verdict["unaccounted"]) == unaccounted, verdict
    assert _rows(report)["DIFF-STATS"]["status"] == "fail"


@pytest.mark.slow  # a whole runner run
def test_a_target_that_declares_statistics_and_never_sends_them_is_not_conformant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = _report(capsys, "-t", V + "never_sends_statistics")
    verdict = report["targets"][0]["verdict"]
    assert (verdict["level"], code) == ("not conformant", 1), verdict
    assert verdict["unaccounted"] == ["ROB-PROTOCOL"]
    assert "statistics declared" in _rows(report)["ROB-PROTOCOL"]["detail"]
