"""FP-REF-LENGTH: which reference length r, and how ties are broken (spec EC-001)."""

from __future__ import annotations

from conformance.runner.fingerprint.base import Config, Convention, Diagnostic, Point, alphabet, by_reference
from reference_bleu.conventions.registry import BY_NAME

#: Every precision 1 (the candidate is a piece of a reference): the score is BP, so r shows.
_TWELVE = alphabet(12)
_REF_LENGTH = (
    Diagnostic("c=12; refs of 13 then 11", ([_TWELVE], [[alphabet(13), alphabet(11)]])),
    Diagnostic("c=12; refs of 11 then 13", ([_TWELVE], [[alphabet(11), alphabet(13)]])),
    Diagnostic("c=12; refs of 20, 13, 8", ([_TWELVE], [[alphabet(20), alphabet(13), alphabet(8, 50)]])),
)


def _ref_length(config: Config) -> tuple[Convention, ...]:
    """Every rule of the registry's ``ref_length``, named by its meaning there."""
    rules = BY_NAME["ref_length"].values
    return tuple(by_reference(meaning, "EC-001", ref_length=rule) for rule, meaning in rules.items())


REF_LENGTH = Point(
    "FP-REF-LENGTH",
    ("EC-001",),
    "which reference length r, and how are ties broken?",
    _REF_LENGTH,
    _ref_length,
    axes=("ref_length",),
)
