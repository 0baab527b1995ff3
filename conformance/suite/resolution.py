"""How finely a target's answers are known, and when an answer is a prediction (spec CONF-PROTOCOL).

A target that prints its scores in full is compared at binary64's precision; one that rounds
them to ``digits`` decimals (declared in its capabilities or with ``--digits``, or inferred by
the fingerprint from its raw answers) is known to half a unit of its last decimal, and, when the
rounding was declared, every answer must also be the prediction rounded to those decimals. A
:class:`Resolution` says which: the runner finds it once per target and passes it to every
comparison of that target's answers (the fingerprint's, the judge's, the invariants', the
verdict's), never through state shared by the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

#: The absolute tolerance of a target's answers printed in full: below the least normal double
#: (2^-1022, about 2.2e-308), where binary64 loses relative precision (a subnormal score), and
#: never as wide as that double: a sentinel score of 2^-1022 (every p_n replaced by nltk's
#: sentinel) is told from an early return's 0 (EC-002 against EC-016).
SUBNORMAL_TOLERANCE = 1e-310


def half_unit(digits: int) -> float:
    """Half a unit of the ``digits``-th decimal, and a millionth of it for the binary64 noise of an
    answer exactly halfway (rounded up by the target, down by the reference): CONF-PROTOCOL."""
    return 10.0**-digits / 2 * (1 + 1e-6)


@dataclass(frozen=True)
class Resolution:
    """CONF-PROTOCOL ``digits``. The resolution of a target's answers on the unit scale.

    ``window``: half a unit of the last decimal, 10^-digits / 2 / scale, for answers rounded to
    ``digits`` decimals on a scale of ``scale`` (1, or 100 for a percent target), else 0 (compared
    as computed): a correctly rounded answer is within it, one off by a unit of its last decimal is
    not. ``quantum``: 10^-digits / scale where the rounding was declared, else ``None``: every
    answer compared with a prediction must then also be that prediction rounded to the same
    decimals (:meth:`rounded_as_declared`).
    """

    window: float = 0.0
    quantum: Decimal | None = None

    @classmethod
    def declared(cls, digits: int | None, scale: float) -> Resolution:
        """Answers rounded to ``digits`` declared decimals on ``scale``; ``None``: printed in full."""
        if digits is None:
            return cls()
        return cls(half_unit(digits) / scale, Decimal(10) ** -digits / Decimal(repr(scale)))

    @classmethod
    def inferred(cls, digits: int, scale: float) -> Resolution:
        """Answers seen rounded to ``digits`` decimals, not declared so: half a unit's window only."""
        return cls(half_unit(digits) / scale)

    def absolute_tolerance(self) -> float:
        """Half a unit of the rounding's last decimal, or SUBNORMAL_TOLERANCE for answers in full."""
        return max(SUBNORMAL_TOLERANCE, self.window)

    def rounded_as_declared(self, answer: float, prediction: float, tolerance: float) -> bool:
        """``answer`` is ``prediction`` rounded to the declared decimals.

        The prediction is known to its relative ``tolerance`` (the target's precision: binary64 or
        binary32), so the answer may be the rounding of any value within it: of the two neighbours
        of a tie when the tie lies within it (binary noise decides a tie; the reference's value
        exactly on a tie accepts both), of one only otherwise. Stronger than half a unit of the last
        decimal around the prediction, which a truncated or mis-rounded answer near a tie still
        meets. True when no digits were declared.

        >>> Resolution.declared(1, 1.0).rounded_as_declared(0.3, 0.25, 1e-9)  # a tie: either side
        True
        >>> Resolution.declared(1, 1.0).rounded_as_declared(0.2, 0.26, 1e-9)
        False
        """
        if self.quantum is None:
            return True
        value = Decimal(repr(prediction))
        slack = abs(value) * Decimal(repr(tolerance))
        lowest = (value - slack).quantize(self.quantum, ROUND_HALF_DOWN)
        highest = (value + slack).quantize(self.quantum, ROUND_HALF_UP)
        return lowest <= Decimal(repr(answer)).quantize(self.quantum, ROUND_HALF_EVEN) <= highest

    def as_declared(self, prediction: float) -> str:
        """How a report shows ``prediction`` rounded to the declared digits (on the unit scale), or ""."""
        if self.quantum is None:
            return ""
        return f" (rounded as declared: {Decimal(repr(prediction)).quantize(self.quantum, ROUND_HALF_EVEN)})"


#: Answers printed in full: compared as computed.
IN_FULL = Resolution()
