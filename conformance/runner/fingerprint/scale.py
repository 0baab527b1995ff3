"""FP-SCALE and FP-PRECISION: the scale of the score (unit or percent) and the precision of its
arithmetic (binary64, binary32 precisions, or binary32), read from scores that are BP alone and
from one whose precisions are not binary32 numbers (spec EC-013)."""

from __future__ import annotations

from conformance.runner.fingerprint.base import (
    BINARY32_TOLERANCE,
    Answer,
    Config,
    Convention,
    Diagnostic,
    Point,
    alphabet,
    reference_prediction,
    words,
)

#: A perfect match, and one with all precisions 1 and BP = exp(1 - 8/6).
_SCALE = (
    Diagnostic("perfect match", ([alphabet(6)], [[alphabet(6)]])),
    Diagnostic("all p_n = 1, c=6 < r=8", ([alphabet(6)], [[alphabet(8)]])),
)


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


SCALE = Point("FP-SCALE", ("EC-013",), "on what scale is the score?", _SCALE, _scale)
PRECISION = Point(
    "FP-PRECISION",
    ("EC-013",),
    "to what precision is the score computed?",
    _PRECISION,
    _precision,
    axes=("arithmetic",),
)
