"""The form of the input (spec BLEU-INPUT): token lists in, a clear error for anything else."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Literal, get_args

from reference_bleu.errors import BleuInputError

Tokens = tuple[str, ...]
EmptyReferences = Literal["keep", "drop", "error"]
EMPTY_REFERENCE_RULES: tuple[str, ...] = get_args(EmptyReferences)


def _tokens(value: object, what: str) -> Tokens:
    if isinstance(value, str | bytes):
        raise BleuInputError(
            "BLEU-INPUT", f"{what} is a {type(value).__name__}, not a sequence of tokens (split it first)"
        )
    if not isinstance(value, Sequence):
        raise BleuInputError("BLEU-INPUT", f"{what} must be a sequence of tokens, got {type(value).__name__}")
    tokens = tuple(value)
    if not all(map(isinstance, tokens, repeat(str))):  # one C-level pass; the culprit only on failure
        j, token = next((j, t) for j, t in enumerate(tokens) if not isinstance(t, str))
        raise BleuInputError("EC-010", f"token {j} of {what} is a {type(token).__name__}; tokens must be str")
    return tokens


def _materialise(value: object, what: str) -> list[object]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise BleuInputError("BLEU-INPUT", f"{what} must be a sequence, got {type(value).__name__}")
    return list(value)


def validate_corpus(hypotheses: object, references: object) -> tuple[list[Tokens], list[list[Tokens]]]:
    """BLEU-INPUT. Check a corpus and return an immutable copy of it.

    ``hypotheses``: a sequence of token sequences. ``references``: one entry per
    hypothesis, each a non-empty sequence of token sequences (any number per segment).
    Tokens are ``str``. The caller's objects are read, never changed (spec INV-NO-MUTATION).

    >>> validate_corpus([["a", "b"]], [[["a"], ["b", "a"]]])
    ([('a', 'b')], [[('a',), ('b', 'a')]])
    """
    hyps = _materialise(hypotheses, "hypotheses")
    refs = _materialise(references, "references")
    if len(hyps) != len(refs):
        raise BleuInputError(
            "BLEU-INPUT", f"{len(hyps)} hypotheses but {len(refs)} reference sets: one set per hypothesis"
        )
    if not hyps:
        raise BleuInputError("EC-012", "the corpus is empty: BLEU is defined for at least one segment")
    checked_hyps = [_tokens(h, f"hypothesis {i}") for i, h in enumerate(hyps)]
    checked_refs: list[list[Tokens]] = []
    for i, segment in enumerate(refs):
        if (
            isinstance(segment, Sequence)
            and not isinstance(segment, str | bytes)
            and segment
            and all(isinstance(x, str) for x in segment)
        ):
            raise BleuInputError(
                "BLEU-INPUT",
                f"references of segment {i} are a list of str; expected a list of references, "
                "each a list of tokens",
            )
        listed = _materialise(segment, f"references of segment {i}")
        if not listed:
            raise BleuInputError("EC-006", f"segment {i} has no reference")
        checked_refs.append([_tokens(r, f"reference {k} of segment {i}") for k, r in enumerate(listed)])
    return checked_hyps, checked_refs


def conventional_references(
    references: Sequence[Sequence[str]], rule: str, i: int
) -> Sequence[Sequence[str]]:
    """EC-005. Segment ``i``'s references under the rule for empty ones: kept, dropped, or an error.

    Dropping every reference of a segment leaves none, which is EC-006's error.

    >>> conventional_references([("a",), ()], "drop", 0)
    [('a',)]
    """
    if rule == "keep" or all(references):
        return references
    if rule == "error":
        raise BleuInputError("EC-005", f"segment {i} has an empty reference")
    kept = [r for r in references if r]
    if not kept:
        raise BleuInputError("EC-006", f"segment {i} has no reference once empty references are dropped")
    return kept
