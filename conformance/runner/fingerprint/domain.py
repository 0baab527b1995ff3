"""Inputs at the edge of BLEU's domain: an empty candidate (EC-004), an empty reference (EC-005), a
segment without references (EC-006) and an empty corpus (EC-012)."""

from __future__ import annotations

from conformance.runner.fingerprint.base import (
    Config,
    Convention,
    Diagnostic,
    Point,
    by_reference,
    same_peers,
    words,
)

_EMPTY_HYP = (
    Diagnostic("one empty candidate", ([[]], [[words("a b c d")]])),
    Diagnostic(
        "a corpus with an empty candidate", ([words("a b c d"), []], [[words("a b c d")], [words("a b c d")]])
    ),
)


def _empty_hyp(config: Config) -> tuple[Convention, ...]:
    return (
        by_reference("scored: c = 0 counts like any length (BP -> 0)", "EC-004"),
        by_reference("error", "EC-004", empty_candidates="error"),
        by_reference(
            "dropped: segments with an empty candidate are left out", "EC-004", empty_candidates="drop"
        ),
        # an error for the corpus's total c = 0 only (its BP divides by c): a corpus with an empty
        # candidate beside a non-empty one is scored
        by_reference("scored; an error only when the total c = 0", "EC-004", zero_length="error-c"),
        # nltk counts an empty candidate's n-grams as max(1, 0) (DIV-NLTK-001): appending an
        # empty segment changes its score.
        *same_peers(config, (), frozenset({"INV-EMPTY-SEGMENT"})),
    )


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
    return (
        by_reference("allowed: its length 0 takes part", "EC-005"),
        # a tool computing c / r (EC-004's zero_length), not one refusing empty references: an
        # error on r = 0 alone, or on c = 0 too when FP-EMPTY-HYPOTHESIS found one there (these
        # diagnostics have c > 0, so that point's finding tells the two apart)
        by_reference("allowed; an error when the total r = 0 (or c = 0)", "EC-005", zero_length="error")
        if config.get("zero_length") in ("error", "error-c")
        else by_reference("allowed; an error only when the total r = 0", "EC-005", zero_length="error-r"),
        by_reference("error", "EC-005", empty_references="error"),
        by_reference("ignored: empty references are left out", "EC-005", empty_references="drop"),
        *same_peers(config, ()),
    )


_NO_REF = (
    Diagnostic("one candidate, no reference", ([words("a b c d")], [[]])),
    Diagnostic(
        "a corpus with a segment without references",
        ([words("a b c d"), words("a b c d")], [[words("a b c d")], []]),
    ),
)


def _no_ref(config: Config) -> tuple[Convention, ...]:
    return (
        by_reference("error", "EC-006", no_reference="error"),
        by_reference("as one empty reference", "EC-006", no_reference="empty"),
        by_reference("segment dropped", "EC-006", no_reference="drop"),
    )


_EMPTY_CORPUS = (Diagnostic("no segments", ([], [])),)


def _empty_corpus(config: Config) -> tuple[Convention, ...]:
    return (
        by_reference("error", "EC-012", empty_corpus="error"),
        by_reference("zero", "EC-012", empty_corpus="zero"),
    )


EMPTY_HYPOTHESIS = Point(
    "FP-EMPTY-HYPOTHESIS",
    ("EC-004",),
    "what does an empty candidate give?",
    _EMPTY_HYP,
    _empty_hyp,
    axes=("empty_candidates", "zero_length"),
)
EMPTY_REFERENCE = Point(
    "FP-EMPTY-REFERENCE",
    ("EC-005",),
    "what does an empty reference do?",
    _EMPTY_REF,
    _empty_ref,
    axes=("empty_references", "zero_length"),
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
