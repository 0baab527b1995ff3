"""How many references a target takes per segment: the ``references`` capability (spec CONF-PROTOCOL).

``one``: exactly one reference per segment (most tools in use); ``same``: the same number for every
segment (reference files, one per reference); ``any`` (the default): any number, none included
where the tool allows it (EC-006). The runner asks a target only corpora it can express: the
generated ones are cut to what it takes (:func:`expressible`), and a question that still needs more
(a diagnostic or vector with several references) is not asked, as a level the target lacks is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The values of the capability, and ``--references``.
REFERENCE_KINDS = ("one", "same", "any")


def takes(kind: str, references: Sequence[Sequence[Any]]) -> bool:
    """CONF-PROTOCOL. Whether a target declaring ``kind`` can be asked a question with these
    references (one list per segment)."""
    if kind == "one":
        return all(len(segment) == 1 for segment in references)
    if kind == "same":
        return len({len(segment) for segment in references}) <= 1
    return True


def expressible(kind: str, corpus: tuple[Any, Any]) -> tuple[Any, Any]:
    """CONF-PROTOCOL. ``corpus`` cut to what a ``kind`` target takes: one reference per segment
    (``one``), or k per segment, k the fewest any segment has (``same``); a reference equal to the
    segment's hypothesis is kept first (so INV-IDENTITY's inputs stay identities), then the others
    in their order. A segment without references stays without (asked of ``any`` targets only).
    The caller's corpus is not changed."""
    hypotheses, references = corpus
    if kind == "any" or takes(kind, references):
        return corpus
    keep = 1 if kind == "one" else min((len(segment) for segment in references if segment), default=1)
    cut = []
    for hypothesis, segment in zip(hypotheses, references, strict=True):
        ordered = sorted(segment, key=lambda reference: list(reference) != list(hypothesis))
        cut.append([list(reference) for reference in ordered[:keep]])
    return list(hypotheses), cut


def expressible_example(kind: str, example: Any) -> Any:
    """An invariant's or a check's generated example with its corpus (the example itself, or its
    first item) cut by :func:`expressible`; anything else unchanged."""
    if kind == "any":
        return example
    if _is_corpus(example):
        return expressible(kind, example)
    if isinstance(example, tuple) and example and _is_corpus(example[0]):
        return (expressible(kind, example[0]), *example[1:])
    return example


def _is_corpus(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], list)
        and isinstance(value[1], list)
        and len(value[0]) == len(value[1])
        and all(isinstance(segment, list) for segment in value[1])
    )


#: Questions with several references a target must have refused, and none scored, before the report
#: says it seems to take one reference per segment.
REFUSALS_FOR_A_HINT = 3


def undeclared_kind_hints(kind: str, refused: int, scored: int, one_scored: int) -> tuple[str, ...]:
    """CONF-PROTOCOL. For a target asked as taking ``any`` references that refused every question
    with more than one reference per segment (``refused`` of them, ``scored`` none) while scoring
    one-reference questions (``one_scored``): the line saying it takes one reference per segment and
    did not say so; none otherwise."""
    if kind != "any" or scored or refused < REFUSALS_FOR_A_HINT or not one_scored:
        return ()
    return (
        f"it refused all {refused} questions with more than one reference per segment and scored those "
        "with one: if it takes one reference per segment, declare it (capability references: one) or "
        "run again with --references one (CONF-PROTOCOL)",
    )
