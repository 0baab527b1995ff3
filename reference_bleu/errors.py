"""One family of errors for every bad input or option (spec: BLEU-INPUT, API-OPTIONS).

Every message names the spec ID of the rule that was broken, so a user can look the rule
up in ``spec/``. ``BleuError`` is a ``ValueError``: code that already catches ``ValueError``
keeps working.
"""

from __future__ import annotations


class BleuError(ValueError):
    """Bad input or option for BLEU. ``spec_id`` names the rule in ``spec/`` that was broken."""

    def __init__(self, spec_id: str, message: str) -> None:
        self.spec_id = spec_id
        super().__init__(f"{message} (spec {spec_id})")


class BleuInputError(BleuError):
    """The hypotheses or references are not of the form BLEU-INPUT describes."""


class BleuOptionError(BleuError):
    """An option is unknown, or its value is out of its domain."""


class UndefinedPrecisionError(BleuError):
    """A precision is 0/0 and the option ``undefined_precision="error"`` asks to fail (EC-003)."""
