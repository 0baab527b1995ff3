"""FP-SCALE and FP-PRECISION: the scale of the score (unit or percent), the decimals it is rounded
to, and the precision of its arithmetic (binary64, binary32 precisions, or binary32), read from
perfect matches, from scores that are BP alone and from one whose precisions are not binary32
numbers (spec EC-013, CONF-FINGERPRINT)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from conformance.runner.client import decimals
from conformance.runner.fingerprint.base import (
    BINARY32_TOLERANCE,
    Answer,
    Config,
    Convention,
    Diagnostic,
    Finding,
    Point,
    alphabet,
    reference_prediction,
    words,
)

#: Answers that no brevity penalty, smoothing, zero rule, early return, aggregation or length
#: rule can change: each hypothesis identical to its reference and long enough for every order
#: (N = 4), in one segment and in two. BLEU is 1 there, so the answer is 1 or 100 (a BP on
#: characters, c = r, still gives 1; pycocoevalcap's constants move it by 1e-9).
_SCALE = (
    Diagnostic("perfect match", ([alphabet(6)], [[alphabet(6)]])),
    Diagnostic(
        "perfect match, two segments", ([alphabet(5), alphabet(7, 5)], [[alphabet(5)], [alphabet(7, 5)]])
    ),
)

#: The most decimals read as a rounding: a binary64 score of [0, 100] printed in full has 12 or
#: more (0.7165313105737893, 71.65313105737893); a float32 one printed shortest (0.71653134) is
#: read as rounded to its 8 decimals, which is what it is on the wire.
MAX_INFERRED_DIGITS = 10


def inferred_digits(answers: Sequence[Answer]) -> int | None:
    """CONF-FINGERPRINT. The decimals the target rounds to, from its raw answers to scores that are
    irrational under every convention (the fingerprint's ``ROUNDING_PROBES``: BP alone, every
    p_n = 1, exp of a non-zero rational under any BP rule, on token or character lengths):
    the most decimals any of them has, when none has more than :data:`MAX_INFERRED_DIGITS`;
    None when it prints in full, or when fewer than two answers are numbers, or two are the same
    (the three scores differ under every convention: a constant answer shows no rounding).

    A trailing zero hides a decimal (71.60 is 71.6), so the most over three answers is taken; an
    answer one decimal short only widens the tolerance by a factor of 10, and is never a fault.

    >>> inferred_digits([71.65, 42.4, 61.0]), inferred_digits([0.7165313105737893, 0.42, 0.1])
    (2, None)
    >>> inferred_digits(["error", 0.5]), inferred_digits([0.5, 0.5, 0.5])
    (None, None)
    """
    numbers = [a for a in answers if isinstance(a, float)]
    if len(numbers) < 2 or len(set(numbers)) < len(numbers):
        return None
    most = max(decimals(a) for a in numbers)
    return most if most <= MAX_INFERRED_DIGITS else None


def with_rounding(finding: Finding, digits: int, source: str) -> Finding:
    """FP-SCALE's finding with the rounding named in its convention: "percent, rounded to 2 decimals
    (inferred): 100 x BLEU" (``source``: "declared" or "inferred"), which the report shows."""
    convention = finding.convention
    if convention is None:
        return finding
    head, _, tail = convention.name.partition(": ")
    named = replace(convention, name=f"{head}, rounded to {digits} decimals ({source}): {tail}")
    return replace(finding, matched=(named, *finding.matched[1:]))


def _scale(config: Config) -> tuple[Convention, ...]:
    """Unit or percent: a factor of 100 apart, told apart at any precision (FP-PRECISION follows)."""
    return (
        Convention(
            "unit: BLEU in [0, 1]",
            reference_prediction,
            tolerance=BINARY32_TOLERANCE,
            spec="EC-013",
        ),
        Convention(
            "percent: 100 x BLEU",
            lambda c, corpus: _times(reference_prediction(c, corpus), 100),
            spec="EC-013",
            flags=frozenset({"percent"}),
            tolerance=BINARY32_TOLERANCE,
        ),
    )


#: The FP-PRECISION diagnostic that reads the precisions rather than BP.
PRECISIONS_PROBE = "p_n = 9/10, 7/9, 5/8, 4/7, BP = 1"

#: Irrational scores that every other convention leaves alone (one segment, one reference,
#: every p_n = 1, which every smoothing keeps at 1): the score is BP = exp(1 - r/c).
_PRECISION = (
    Diagnostic("BP = exp(1 - 8/6), every p_n = 1", ([alphabet(6)], [[alphabet(8)]])),
    Diagnostic("BP = exp(1 - 13/7), every p_n = 1", ([alphabet(7)], [[alphabet(13)]])),
    # The precisions themselves (9/10, 7/9, 5/8, 4/7, BP = 1): rounded to binary32 they move the
    # score by 2.5e-8, which binary64 cannot and binary32 throughout hides in its 1e-5. A
    # smoothing may change such precisions, so this answer is settled once FP-ZERO is known.
    Diagnostic(PRECISIONS_PROBE, ([words("a b c d e f g x a b")], [[words("a b c d e f g y a b")]])),
)


def _precision(config: Config) -> tuple[Convention, ...]:
    """binary64 (or exact) to MATCH_TOLERANCE; binary32, a known way to fall short (EC-013)."""
    return (
        Convention("binary64: within 1e-9 of the exact score", reference_prediction, spec="EC-013"),
        Convention(
            "binary32 precisions: p_n rounded to binary32, the rest binary64",
            lambda c, corpus: reference_prediction(c, corpus, arithmetic="binary32-precisions"),
            {"arithmetic": "binary32-precisions"},
            divergence=("EC-013",),
            spec="EC-013",
            flags=frozenset({"binary32-precisions"}),
        ),
        Convention(
            "binary32: within 1e-5 only (float32 arithmetic)",
            reference_prediction,
            divergence=("EC-013",),
            spec="EC-013",
            flags=frozenset({"binary32"}),
            tolerance=BINARY32_TOLERANCE,
        ),
    )


def _times(answer: Answer, factor: float) -> Answer:
    return answer * factor if isinstance(answer, float) else answer


SCALE = Point("FP-SCALE", ("EC-013",), "on what scale is the score?", _SCALE, _scale, raw=True, battery=False)
PRECISION = Point(
    "FP-PRECISION",
    ("EC-013",),
    "to what precision is the score computed?",
    _PRECISION,
    _precision,
    axes=("arithmetic",),
    settled_last=(PRECISIONS_PROBE,),
)
