"""The form of the input (spec BLEU-INPUT): token lists in, a clear error for anything else."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Literal, get_args

from reference_bleu.errors import BleuInputError

Tokens = tuple[str, ...]
EmptyReferences = Literal["keep", "drop", "error"]
EMPTY_REFERENCE_RULES: tuple[str, ...] = get_args(EmptyReferences)
#: EC-006: a segment without references is an error, scored against one empty reference, or dropped.
NoReference = Literal["error", "empty", "drop"]
NO_REFERENCE_RULES: tuple[str, ...] = get_args(NoReference)
#: EC-004: a segment whose candidate is empty is kept (c = 0 counts), dropped, or an error.
EmptyCandidates = Literal["keep", "drop", "error"]
EMPTY_CANDIDATE_RULES: tuple[str, ...] = get_args(EmptyCandidates)


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


def validate_corpus(
    hypotheses: object,
    references: object,
    *,
    no_reference: str = "error",
    empty_corpus: str = "error",
    start: int = 0,
) -> tuple[list[Tokens], list[list[Tokens]]]:
    """BLEU-INPUT. Check a corpus and return an immutable copy of it.

    ``hypotheses``: a sequence of token sequences. ``references``: one entry per
    hypothesis, each a non-empty sequence of token sequences (any number per segment; none
    only where ``no_reference`` is not ``"error"``, EC-006). An empty corpus is EC-012's error
    unless ``empty_corpus="zero"``. Tokens are ``str`` (EC-010). The caller's objects are read, never
    changed (spec INV-NO-MUTATION). Segments are numbered from ``start`` in error messages.

    >>> validate_corpus([["a", "b"]], [[["a"], ["b", "a"]]])
    ([('a', 'b')], [[('a',), ('b', 'a')]])
    """
    hyps = _materialise(hypotheses, "hypotheses")
    refs = _materialise(references, "references")
    if len(hyps) != len(refs):
        raise BleuInputError(
            "BLEU-INPUT", f"{len(hyps)} hypotheses but {len(refs)} reference sets: one set per hypothesis"
        )
    if not hyps and empty_corpus == "error":
        raise BleuInputError("EC-012", "the corpus is empty: BLEU is defined for at least one segment")
    checked_hyps = [_tokens(h, f"hypothesis {i}") for i, h in enumerate(hyps, start)]
    checked_refs: list[list[Tokens]] = []
    for i, segment in enumerate(refs, start):
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
        if not listed and no_reference == "error":
            raise BleuInputError("EC-006", f"segment {i} has no reference")
        checked_refs.append([_tokens(r, f"reference {k} of segment {i}") for k, r in enumerate(listed)])
    return checked_hyps, checked_refs


@dataclass(frozen=True)
class SegmentRules:
    """What a segment's empty candidate, empty references and missing references become (EC-004 to EC-006).

    The paper's defaults: an empty candidate and an empty reference take part like any other
    (c = 0, a length of 0); a segment without references is an error.
    """

    empty_references: str = "keep"
    no_reference: str = "error"
    empty_candidates: str = "keep"

    def __post_init__(self) -> None:
        for name, value, allowed, spec_id in (
            ("empty_references", self.empty_references, EMPTY_REFERENCE_RULES, "EC-005"),
            ("no_reference", self.no_reference, NO_REFERENCE_RULES, "EC-006"),
            ("empty_candidates", self.empty_candidates, EMPTY_CANDIDATE_RULES, "EC-004"),
        ):
            if value not in allowed:
                raise BleuInputError(spec_id, f"{name} must be one of {', '.join(allowed)}, not {value!r}")

    @property
    def drops_segments(self) -> bool:
        """Whether a segment may be left out (then a corpus may end with none, EC-012)."""
        return "drop" in (self.no_reference, self.empty_candidates)

    @property
    def candidates_checked(self) -> bool:
        """Whether an empty candidate is dropped or refused (else it is counted like any other)."""
        return self.empty_candidates != "keep"

    def references(self, references: Sequence[Sequence[str]], i: int) -> Sequence[Sequence[str]] | None:
        """EC-005, EC-006. Segment ``i``'s references under the rules; ``None`` when the segment is dropped.

        Empty references are kept, dropped or an error (EC-005); a segment left without any,
        or given none, is then an error, scored against one empty reference, or dropped (EC-006).

        >>> SegmentRules("drop").references([("a",), ()], 0)
        [('a',)]
        >>> SegmentRules("drop", "empty").references([()], 0)
        [()]
        """
        given = bool(references)
        if self.empty_references != "keep" and not all(references):
            if self.empty_references == "error":
                raise BleuInputError("EC-005", f"segment {i} has an empty reference")
            references = [r for r in references if r]
        if references:
            return references
        if self.no_reference == "empty":
            return [()]
        if self.no_reference == "drop":
            return None
        dropped = " once empty references are dropped" if given else ""
        raise BleuInputError("EC-006", f"segment {i} has no reference{dropped}")

    def keeps_candidate(self, candidate: Sequence[str], i: int) -> bool:
        """EC-004. Whether segment ``i``'s candidate is counted: an empty one may be dropped or an error."""
        if candidate or self.empty_candidates == "keep":
            return True
        if self.empty_candidates == "error":
            raise BleuInputError("EC-004", f"segment {i} has an empty candidate")
        return False


#: The paper's rules (the default everywhere).
PAPER_RULES = SegmentRules()
