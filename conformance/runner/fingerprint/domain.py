"""Inputs at the edge of BLEU's domain: an empty candidate (EC-004), an empty reference (EC-005), a
segment without references (EC-006) and an empty corpus (EC-012)."""

from __future__ import annotations

from conformance.runner.fingerprint.base import (
    Config,
    Convention,
    Diagnostic,
    Point,
    registry_conventions,
    words,
)

#: The axes an empty candidate shows: whether it is kept, refused or dropped (EC-004), and whether
#: the total c = 0 is an error (a tool that divides by c). An error on the total r = 0 (EC-004's
#: ``zero_length`` again) shows only with an empty reference: FP-EMPTY-REFERENCE searches that axis
#: again with these diagnostics and its own, and what it finds replaces what is found here.
EMPTY_HYPOTHESIS_AXES = ("empty_candidates", "zero_length")
#: The axes an empty reference shows, with the zero lengths and the empty candidates read together.
EMPTY_REFERENCE_AXES = ("empty_references", "zero_length", "empty_candidates")

_EMPTY_HYP = (
    Diagnostic("one empty candidate", ([[]], [[words("a b c d")]])),
    Diagnostic(
        "a corpus with an empty candidate", ([words("a b c d"), []], [[words("a b c d")], [words("a b c d")]])
    ),
)


def _empty_hyp(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(EMPTY_HYPOTHESIS_AXES, config)


_EMPTY_REF = (
    Diagnostic(
        "c=4; refs of 0 and 10 tokens",
        ([words("a b c d")], [[[], words("q r s t u v a b c d")]]),
    ),
    # the empty one listed last, and closer: kept, r = 0 and the score is 1; left out, r = 12
    Diagnostic(
        "c=5; refs of 12 and 0 tokens",
        ([words("a b c d e")], [[words("x y a b c d e z w v u t"), []]]),
    ),
    # An empty reference beside a non-empty segment (the total r = 4 > 0): refused only by a tool
    # that refuses empty references, never by one that refuses the total r = 0 (EC-004's
    # zero_length); then the total r = 0 alone. One reference per segment: a one-reference tool
    # is asked these too (CONF-PROTOCOL).
    Diagnostic(
        "an empty reference beside a non-empty segment",
        ([words("a b c d"), words("a b c d")], [[[]], [words("a b c d")]]),
    ),
    Diagnostic("c=4; one empty reference (the total r = 0)", ([words("a b c d")], [[[]]])),
    # The empty reference's length where BP shows it (c = 9 < r = 0 + 10), one reference per segment:
    # the only way a one-reference tool shows that it counts an empty reference as 1 (an end-of-
    # sentence token, as fairseq's scorer), where every diagnostic above has c >= r.
    Diagnostic(
        "an empty reference, then a candidate shorter than its reference",
        ([words("a b c d"), words("a b c d e")], [[[]], [words("a b c d e f g h i j")]]),
    ),
)


def _empty_ref(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(EMPTY_REFERENCE_AXES, config)


_NO_REF = (
    Diagnostic("one candidate, no reference", ([words("a b c d")], [[]])),
    Diagnostic(
        "a corpus with a segment without references",
        ([words("a b c d"), words("a b c d")], [[words("a b c d")], []]),
    ),
)


def _no_ref(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(("no_reference",), config)


_EMPTY_CORPUS = (Diagnostic("no segments", ([], [])),)


def _empty_corpus(config: Config) -> tuple[Convention, ...]:
    return registry_conventions(("empty_corpus",), config)


EMPTY_HYPOTHESIS = Point(
    "FP-EMPTY-HYPOTHESIS",
    ("EC-004",),
    "what does an empty candidate give?",
    _EMPTY_HYP,
    _empty_hyp,
    axes=EMPTY_HYPOTHESIS_AXES,
)
EMPTY_REFERENCE = Point(
    "FP-EMPTY-REFERENCE",
    ("EC-005",),
    "what does an empty reference do?",
    _EMPTY_REF + _EMPTY_HYP,
    _empty_ref,
    axes=EMPTY_REFERENCE_AXES,
)
NO_REFERENCE = Point(
    "FP-NO-REFERENCE",
    ("EC-006",),
    "what does a segment without references give?",
    _NO_REF,
    _no_ref,
    axes=("no_reference",),
)
EMPTY_CORPUS = Point(
    "FP-EMPTY-CORPUS",
    ("EC-012",),
    "what does an empty corpus give?",
    _EMPTY_CORPUS,
    _empty_corpus,
    axes=("empty_corpus",),
)
