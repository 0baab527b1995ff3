"""Scale in the judgement and skips as evidence (spec CONF-SIZE, CONF-ROBUST).

The targets that are wrong only at real size are written in tests/targets/scale.py from the
bugs' descriptions; the one that skips what is large is a mode of tests/targets/hostile.py, the
one that skips several references tests/targets/skipping.py's ``several``.
Each is run once at the default budget (``--examples 100``) and shared by the tests that read its
report (a module-scoped fixture): these runs are the slow tier's.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import sys
from collections.abc import Callable
from typing import Any

import pytest

from conformance.runner.conform import main
from conformance.runner.sizes import MANY_REFERENCES, generated_questions, real_questions
from conformance.runner.skips import SkipRecord
from conformance.suite.strategies import VOCABULARY

Report = dict[str, Any]
S = "tests.targets.scale:"
HOSTILE = f"{sys.executable} tests/targets/hostile.py"


@pytest.fixture(scope="module")
def report() -> Callable[..., Report]:
    """One run per target at the default budget, shared by every test that asks for it."""
    done: dict[tuple[str, ...], Report] = {}

    def run(*args: str) -> Report:
        if args not in done:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                main(["--json", "-q", *args])
            (target,) = json.loads(out.getvalue())["targets"]
            done[args] = target
        return done[args]

    return run


def _rows(target: Report) -> dict[str, Report]:
    return {c["id"]: c for c in target["checks"]}


# --- the questions (default tier) ---------------------------------------------------------------


def test_the_shipped_test_sets_are_asked_whole_at_the_default_budget() -> None:
    """WMT17 (3,004 segments) and MultEval (2,489) with their reference, WMT17 with eight: counts
    and lengths a small input never reaches (conformance/data/README.md gives the sizes)."""
    wmt, multeval, eight = real_questions(0, 100)
    hyps, refs = wmt.corpus
    assert len(hyps) == 3004  # no empty line in the system drawn for seed 0
    assert sum(len(h) for h in hyps) > 2**15  # a 16-bit counter overflows on the unigram total
    assert max(len(h) for h in hyps) > 32
    assert max(len(t) for h in hyps for t in h) > 11
    assert any(not t.isascii() for h in hyps for t in h)
    assert {len(rs) for rs in refs} == {1}
    assert len(multeval.corpus[0]) == 2489
    assert {len(rs) for rs in eight.corpus[1]} == {MANY_REFERENCES}
    assert len(eight.corpus[0]) == 300


def test_generated_questions_have_real_shapes_over_vocabularies_from_the_seed() -> None:
    many, long, eight, tokens, cut = generated_questions(0, 100)
    assert len(many.corpus[0]) == 1000
    assert max(len(h) for h in long.corpus[0]) > 300
    assert {len(rs) for rs in eight.corpus[1]} == {8}
    assert min(len(t) for h in tokens.corpus[0] for t in h) >= 12
    # "ab" "c" in a hypothesis, "a" "bc" in its reference: the same characters, other bigrams
    hyps, refs = cut.corpus
    pairs = [
        (hyp_pair, ref_pair)
        for hyp, segment in zip(hyps, refs, strict=True)
        for ref in segment
        for hyp_pair in itertools.pairwise(hyp)
        for ref_pair in itertools.pairwise(ref)
        if "".join(hyp_pair) == "".join(ref_pair) and hyp_pair != ref_pair
    ]
    assert pairs
    # fresh vocabularies: another seed, other tokens; not the public strategies' words
    words = {t for q in generated_questions(0, 100) for h in q.corpus[0] for t in h}
    other = {t for q in generated_questions(1, 100) for h in q.corpus[0] for t in h}
    assert len(words & other) < len(words) / 10
    assert not words <= set(VOCABULARY)
    assert generated_questions(0, 100) == generated_questions(0, 100)  # the same seed, the same run


def test_skips_are_named_by_the_class_beyond_what_was_answered() -> None:
    """Hand-made shapes: the fewest thresholds beyond the shapes answered that cover every skip."""
    record = SkipRecord()
    record.answer([["a", "b"]] * 3, [[["a"], ["b"]]] * 3)  # 3 segments, 2 references
    record.answer([["a"]], [[["a"]]])
    record.skip([["a"]], [[["a"], ["b"], ["c"]]])  # three references
    record.skip([["a"]] * 2, [[["a"]] * 5] * 2)  # five references
    record.skip([["Straße"]], [[["Straße"]]])  # a non-ASCII token of six characters
    names, rest = record.classes()
    assert set(names) == {"more than 2 references for a segment", "a token of more than 1 characters"}
    assert rest == 0
    record.skip([["a"]], [[["b"]]])  # within every shape answered
    assert record.classes()[1] == 1
    assert "but for 1 within the shapes it answered" in record.described()
    assert SkipRecord().classes() == ((), 0)


# --- the runs (slow tier) -----------------------------------------------------------------------

#: Each target wrong only at real size, and the rows that must name it (spec CONF-ROBUST's table).
WRONG_AT_SIZE: list[tuple[str, tuple[str, ...]]] = [
    ("wrong_above_12_segments", ("SIZE-REAL",)),
    ("wrong_above_20_tokens", ("SIZE-REAL",)),
    ("wrong_on_long_tokens", ("SIZE-REAL",)),
    ("wrong_with_six_references", ("SIZE-REAL",)),
    # every corpus of both rows holds more than 100 hypothesis tokens (WMT17 alone about 63,000; the
    # first generated one, many segments, 10 per example of 1-12 tokens)
    ("wrong_above_100_tokens", ("SIZE-REAL", "SIZE-GENERATED")),
    ("int16_counters", ("ROB-NAN",)),
    # every count of WMT17 (63,000 unigrams) and of the many segments (1,000 segments) passes 255:
    # the counts left over give a number, not NaN, and not the paper's
    ("uint8_counters", ("SIZE-REAL", "SIZE-GENERATED")),
    ("joined_ngrams", ("SIZE-GENERATED",)),  # its "tokens cut apart" (no collision changes WMT17's counts)
    ("batched_mean", ("SIZE-REAL",)),
    ("truncated_to_32", ("SIZE-REAL",)),
    ("wrong_after_2000_calls", ("SIZE-CALLS",)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "named"), WRONG_AT_SIZE, ids=[w[0] for w in WRONG_AT_SIZE])
def test_a_target_wrong_only_at_real_size_is_not_conformant(
    report: Callable[..., Report], name: str, named: tuple[str, ...]
) -> None:
    target = report("-t", S + name)
    verdict = target["verdict"]
    assert verdict["level"] == "not conformant", verdict
    for row in named:
        assert row in verdict["unaccounted"], verdict
        assert _rows(target)[row]["status"] == "fail", _rows(target)[row]


@pytest.mark.slow
def test_a_target_a_millionth_off_at_real_size_is_placed_in_binary32_and_not_conformant(
    report: Callable[..., Report],
) -> None:
    """Only a binary32 point predicts its answers at real size (1e-6 is within binary32's 1e-5, far
    outside binary64's ulps); the battery of small questions does not show the axis, the size
    rows do: the arithmetic is named as differing, never waved through as the expected value."""
    target = report("-t", S + "a_millionth_off_above_12_segments")
    verdict = target["verdict"]
    assert verdict["level"] == "variant", verdict
    assert [(d["axis"], d["found"]) for d in verdict["differs"]] == [("arithmetic", "binary32")], verdict


@pytest.mark.slow
def test_the_reference_stays_conformant_with_questions_of_real_size(report: Callable[..., Report]) -> None:
    target = report("-t", "reference")
    assert target["verdict"]["level"] == "conformant", target["verdict"]
    rows = _rows(target)
    for ident in ("SIZE-CALLS", "SIZE-REAL", "SIZE-GENERATED", "SKIPPED"):
        assert rows[ident]["status"] == "pass", rows[ident]
    assert rows["SIZE-REAL"]["answered"] == rows["SIZE-REAL"]["asked"] == 6  # 3 corpora, 3 sentences


@pytest.mark.slow
def test_sacrebleu_stays_placed_at_its_profile(report: Callable[..., Report]) -> None:
    target = report("-t", "sacrebleu")
    verdict = target["verdict"]
    # the built-in sacrebleu target is served tokens (tokenize=none): its profile is called by that name
    assert (verdict["level"], verdict["point"]) == ("variant", "sacrebleu[tokenize=none]"), verdict
    assert {r["id"]: r["status"] for r in target["checks"] if r["id"].startswith("SIZE-")} == {
        "SIZE-CALLS": "pass",
        "SIZE-REAL": "pass",
        "SIZE-GENERATED": "pass",
    }


@pytest.mark.slow
def test_a_target_that_skips_what_is_large_gets_a_verdict_naming_the_class(
    report: Callable[..., Report],
) -> None:
    """It answers right every corpus of at most 4 segments whose hypotheses have at most 10 tokens,
    and skips the rest: never conformant on the rest alone (spec CONF-ROBUST, skips are evidence)."""
    target = report("--command", f"{HOSTILE} skip-large")
    verdict = target["verdict"]
    assert verdict["level"] == "insufficient evidence", verdict
    (named,) = [u for u in verdict["unaccounted"] if u.startswith("SKIPPED")]
    assert "more than 4 segments" in named
    assert "a hypothesis of more than 10 tokens" in named
    rows = _rows(target)
    assert rows["SKIPPED"]["status"] == "insufficient"
    assert rows["SKIPPED"]["answered"] > rows["SKIPPED"]["asked"] / 2  # most questions answered


@pytest.mark.slow
def test_a_target_that_skips_several_references_gets_a_verdict_naming_the_class(
    report: Callable[..., Report],
) -> None:
    """tests/targets/skipping.py ``several``: the paper's BLEU, declaring any number of references,
    skipping every question where a segment has another number than one. Every question it answers
    has exactly one reference per segment, so the class of its skips is the reference count beyond
    one (spec CONF-ROBUST, skips by reference count beyond what it declared): the verdict names the
    SKIPPED row, and the row the class."""
    target = report("--command", f"{sys.executable} tests/targets/skipping.py several")
    verdict = target["verdict"]
    assert verdict["level"] == "insufficient evidence", verdict
    # the verdict itself names the class of the questions skipped
    skipped = [u for u in verdict["unaccounted"] if u.startswith("SKIPPED")]
    assert len(skipped) == 1, verdict
    assert "each with more than 1 references for a segment" in skipped[0], verdict
    row = _rows(target)["SKIPPED"]
    assert row["status"] == "insufficient"
    assert row["detail"].startswith(f"skipped {row['asked'] - row['answered']} question(s): "), row
    assert "each with more than 1 references for a segment" in row["detail"], row
