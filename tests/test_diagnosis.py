"""The diagnosis (spec CONF-DIAGNOSIS) on independent code: the whole runner on faulty BLEUs of
tests/targets/faulty.py (each bug written from the catalogue's description with the standard library
only, never from the reference or the fault computations), one for each kind of change a fault
makes, each expected to be found alone and named exactly; and a conformant target and a variant,
never diagnosed.

Each test runs the whole runner once (``-n 10``: 10 to 20 s of CPU): the slow tier. The sweep of
every fault is ``python -m benchmarks.diagnosis`` (its table: docs/faults.md).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance.runner.conform import main
from tests.once import once

F = "tests.targets.faulty:"


def _verdict(capsys: pytest.CaptureFixture[str], target: str) -> tuple[int, dict[str, Any]]:
    """The exit code and the verdict of a run on ``target`` (once per session)."""

    def run() -> tuple[int, dict[str, Any]]:
        code = main(["--json", "-q", "-n", "10", "--target", target])
        return code, json.loads(capsys.readouterr().out)

    code, report = once(repr(("diagnosis", target)), run)
    return code, report["targets"][0]["verdict"]


def _same(a: float | str, b: float | str) -> bool:
    """Two answers alike: scores to within 1e-9, an error (a string) only as itself."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("clip_sum", "FAULT-CLIP-SUM"),  # clipping
        ("join_key", "FAULT-JOIN-KEY"),  # counting: n-grams keyed by their joined tokens
        ("len_first", "FAULT-LEN-FIRST"),  # the reference length
        ("bp_twice", "FAULT-BP-TWICE"),  # the brevity penalty
        ("arith_mean", "FAULT-ARITH-MEAN"),  # the combination
        ("eos_pad", "FAULT-EOS-PAD"),  # the input
        ("clip_pooled", "FAULT-CLIP-POOLED"),  # the corpus statistics
        ("join_split", "FAULT-JOIN-SPLIT"),  # an error raised where the faulty code fails
        ("count_wrap8", "FAULT-COUNT-WRAP8"),  # counter width
    ],
)
def test_a_faulty_bleu_is_diagnosed_with_exactly_its_fault(
    capsys: pytest.CaptureFixture[str], name: str, fault: str
) -> None:
    code, verdict = _verdict(capsys, F + name)
    assert code == 1
    assert verdict["level"] == "not conformant"
    diagnosis = verdict["diagnosis"]
    assert (diagnosis["level"], diagnosis["found"], diagnosis["alone"]) == ("found", [fault], True)
    assert diagnosis["explained"] >= diagnosis["separating"] >= 1
    shown = diagnosis["example"]  # the smallest question the fault answers as the target does
    assert _same(shown["fault"], shown["answer"])
    assert not _same(shown["expected"], shown["answer"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("target", "level"),
    [("tests.targets.conform:independent_bleu", "conformant"), ("nltk", "variant")],
)
def test_a_conformant_or_variant_target_is_never_diagnosed(
    capsys: pytest.CaptureFixture[str], target: str, level: str
) -> None:
    if target == "nltk":
        pytest.importorskip("nltk", reason="the nltk built-in target needs nltk (the zoo extra)")
    _, verdict = _verdict(capsys, target)
    assert verdict["level"] == level
    assert verdict["diagnosis"] is None
