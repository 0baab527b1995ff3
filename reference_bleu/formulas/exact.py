"""Exact arithmetic up to the final exp/log, then one rounding (spec: NUM-EXACT).

Counts are ints and ratios are ``Fraction``; only the logarithms and the exponential of
BLEU-SCORE and BLEU-LOG (and the ln(T) of smoothing method 4) leave the rationals. Those are
evaluated with :mod:`decimal`, whose ``ln`` and ``exp`` are correctly rounded, in a context
of ``WORKING_DIGITS`` significant digits. The float score is then obtained in the manner of
Ziv's strategy: the whole evaluation is run at two precisions, and accepted when both round
to the same double and agree to ``PUBLISHED_DIGITS`` digits, and the double is not within
``MARGIN_DIGITS`` digits of the working precision of a rounding boundary; otherwise the
precision is raised and the evaluation repeated. Limits are values, not sentinels: ln 0 is
``Decimal('-Infinity')`` and exp of it is exactly 0.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Context, Decimal, getcontext, localcontext
from fractions import Fraction
from functools import lru_cache

#: Digits of the first evaluation; the second uses ``WORKING_DIGITS + 30``.
WORKING_DIGITS = 50
#: Significant digits of the published ``score_decimal`` (the contract promises >= 30).
PUBLISHED_DIGITS = 40
_MAX_DIGITS = 1600
#: The rounding test's margin: a value is accepted when every number within 10^(MARGIN_DIGITS - digits)
#: of it, relative, rounds to the same double (the working error of an evaluation stays far below it).
MARGIN_DIGITS = 20

Real = Fraction | Decimal


def to_decimal(x: Real | int) -> Decimal:
    """The value of ``x`` in the current decimal context (exact for ints and Decimals)."""
    if isinstance(x, Fraction):
        return Decimal(x.numerator) / Decimal(x.denominator)
    return +Decimal(x)


def ln(x: Real | int) -> Decimal:
    """Natural logarithm in the current context; ``ln(0)`` is ``-Infinity`` (its limit)."""
    if isinstance(x, Fraction):
        if x == 0:
            return Decimal("-Infinity")
        digits = getcontext().prec
        return _ln_integer(x.numerator, digits) - _ln_integer(x.denominator, digits)
    return Decimal(x).ln()


@lru_cache(maxsize=1 << 16)
def _ln_integer(n: int, digits: int) -> Decimal:
    """ln n to ``digits`` digits, remembered: Decimal's ln is correctly rounded (half-even) whatever
    the context's rounding, so the value depends on n and the precision only. Sentence scores
    take the logarithms of the same small counts again and again (spec NUM-EXACT)."""
    with localcontext(Context(prec=digits)):
        return Decimal(n).ln()


def exp(x: Real | int) -> Decimal:
    """Exponential in the current context; ``exp(-Infinity)`` is exactly 0."""
    return to_decimal(x).exp()


def correctly_rounded(evaluate: Callable[[], Decimal]) -> Decimal:
    """Run ``evaluate`` at rising precision until two runs agree; return the agreed value (NUM-EXACT).

    The value returned is the last, most precise run. ``float()`` of it is the correctly
    rounded double of the exact value, and :func:`published` of it its correctly rounded
    ``PUBLISHED_DIGITS``-digit decimal, unless the exact value lies within the working
    error (about 10**-digits, relative) of a rounding boundary at every precision tried.
    """
    digits = WORKING_DIGITS
    with localcontext(Context(prec=digits)):
        previous = evaluate()
    while True:
        digits += 30
        with localcontext(Context(prec=digits)):
            current = evaluate()
        if (_agree(previous, current) and _rounds_firmly(current, digits)) or digits >= _MAX_DIGITS:
            with localcontext(Context(prec=digits)):
                return current
        previous = current


def _agree(a: Decimal, b: Decimal) -> bool:
    if float(a) != float(b):
        return False
    with localcontext(Context(prec=PUBLISHED_DIGITS)):
        return +a == +b


def _rounds_firmly(x: Decimal, digits: int) -> bool:
    """Whether every number within 10^(MARGIN_DIGITS - digits) of ``x``, relative, has x's double.

    Two runs agreeing is not enough when the exact value lies closer to a rounding boundary
    (a midpoint between two doubles) than the working error: both runs can then fall on the
    wrong side (spec NUM-SENTENCE's boundary tests build such values).
    """
    with localcontext(Context(prec=digits + 5)):
        margin = abs(x).scaleb(MARGIN_DIGITS - digits)
        return float(x - margin) == float(x + margin)


def published(x: Decimal) -> Decimal:
    """``x`` rounded (half-even) to ``PUBLISHED_DIGITS`` significant digits."""
    with localcontext(Context(prec=PUBLISHED_DIGITS)):
        return +x
