"""Inputs at the edge of BLEU's domain: an empty candidate (EC-004), an empty reference (EC-005), a
segment without references (EC-006) and an empty corpus (EC-012)."""

from __future__ import annotations

from conformance.runner.fingerprint.base import (
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    by_reference,
    constant,
    error_convention,
    same_peers,
    transformed,
    words,
)

_EMPTY_HYP = (
    Diagnostic("one empty candidate", ([[]], [[words("a b c d")]])),
    Diagnostic(
        "a corpus with an empty candidate", ([words("a b c d"), []], [[words("a b c d")], [words("a b c d")]])
    ),
)


def _drop_empty_candidates(corpus: Corpus) -> Corpus:
    kept = [(h, r) for h, r in zip(*corpus, strict=True) if h]
    return [h for h, _ in kept], [r for _, r in kept]


def _empty_hyp(config: Config) -> tuple[Convention, ...]:
    return (
        by_reference("scored: c = 0 counts like any length (BP -> 0)", "EC-004"),
        error_convention("error", "EC-004", "error-on-empty-hypothesis"),
        transformed(
            "dropped: segments with an empty candidate are left out", "EC-004", _drop_empty_candidates
        ),
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
)


def _drop_empty_references(corpus: Corpus) -> Corpus:
    return corpus[0], [[r for r in rs if r] for rs in corpus[1]]


def _empty_ref(config: Config) -> tuple[Convention, ...]:
    return (
        by_reference("allowed: its length 0 takes part", "EC-005"),
        transformed("ignored: empty references are left out", "EC-005", _drop_empty_references),
        error_convention("error", "EC-005", "error-on-empty-reference"),
        *same_peers(config, ()),
    )


_NO_REF = (
    Diagnostic("one candidate, no reference", ([words("a b c d")], [[]])),
    Diagnostic(
        "a corpus with a segment without references",
        ([words("a b c d"), words("a b c d")], [[words("a b c d")], []]),
    ),
)


def _as_empty_reference(corpus: Corpus) -> Corpus:
    return corpus[0], [rs or [[]] for rs in corpus[1]]


def _drop_unreferenced(corpus: Corpus) -> Corpus:
    kept = [(h, r) for h, r in zip(*corpus, strict=True) if r]
    return [h for h, _ in kept], [r for _, r in kept]


def _no_ref(config: Config) -> tuple[Convention, ...]:
    return (
        error_convention("error", "EC-006", "error-on-no-reference"),
        transformed("as one empty reference", "EC-006", _as_empty_reference),
        transformed("segment dropped", "EC-006", _drop_unreferenced),
    )


_EMPTY_CORPUS = (Diagnostic("no segments", ([], [])),)


def _empty_corpus(config: Config) -> tuple[Convention, ...]:
    return (error_convention("error", "EC-012", "error-on-empty-corpus"), constant("zero", 0.0, "EC-012"))


EMPTY_HYPOTHESIS = Point(
    "FP-EMPTY-HYPOTHESIS", ("EC-004",), "what does an empty candidate give?", _EMPTY_HYP, _empty_hyp
)
EMPTY_REFERENCE = Point(
    "FP-EMPTY-REFERENCE", ("EC-005",), "what does an empty reference do?", _EMPTY_REF, _empty_ref
)
NO_REFERENCE = Point(
    "FP-NO-REFERENCE", ("EC-006",), "what does a segment without references give?", _NO_REF, _no_ref
)
EMPTY_CORPUS = Point(
    "FP-EMPTY-CORPUS", ("EC-012",), "what does an empty corpus give?", _EMPTY_CORPUS, _empty_corpus
)
