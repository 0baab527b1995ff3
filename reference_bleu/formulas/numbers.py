"""Numbers given by a user, read exactly and with bounded work (spec NUM-INPUT).

Every number an option or a statistics file carries (weights, smoothing values, the
sentinel and log-0 constants, reference lengths) goes through :func:`exact_number`: an
int, float, Fraction, Decimal or decimal string becomes the exact rational it denotes, and
anything non-finite, not a number, or so large or small that merely writing it down
would take unbounded time or memory (``"1e999999999"``, ``Decimal("1e-999999999")``,
``10**400``) is a :class:`~reference_bleu.errors.BleuOptionError` naming the rule, raised
before any of that work is done.
"""

from __future__ import annotations

import argparse
import math
import re
from decimal import Decimal
from fractions import Fraction

from reference_bleu.errors import BleuError, BleuOptionError

#: Decimal exponents a number may carry: 0, or |x| in [10^-MIN_EXPONENT, 10^MAX_EXPONENT]. Every
#: binary64 and x87 long double value lies above the lower bound (fast-bleu's sentinel is
#: LDBL_MIN = 2^-16382, about 3.4e-4932); the upper one leaves room below DBL_MAX.
MAX_EXPONENT = 300
MIN_EXPONENT = 5000
RANGE_TEXT = f"outside ±[1e-{MIN_EXPONENT}, 1e{MAX_EXPONENT}]"
#: Longest string accepted as a number (digits, sign, point, exponent, a "/" for fractions).
MAX_NUMBER_TEXT = 400

_DECIMAL_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_FRACTION_TEXT = re.compile(r"[+-]?\d+/\d+")
#: An argument that starts with "-" and is a number, not an option: "-1e300", "-1/3".
_NEGATIVE_NUMBER = re.compile(r"^-(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+/\d+)$")


_LOWEST = Fraction(1, 10**MIN_EXPONENT)
_HIGHEST = Fraction(10**MAX_EXPONENT)
#: 2^-16609 > 10^-5000 and 2^996 < 10^300: magnitudes between them need no big comparison.
_SAFE_LOW_BITS, _SAFE_HIGH_BITS = -16609, 996


def _in_range(number: Fraction, what: str, spec_id: str, error: type[BleuError]) -> Fraction:
    if not number:
        return number
    # 2^(b_n - 1 - b_d) < |number| < 2^(b_n + 1 - b_d), b the bit lengths: most numbers settle here
    bits = abs(number.numerator).bit_length() - number.denominator.bit_length()
    if _SAFE_LOW_BITS + 1 <= bits <= _SAFE_HIGH_BITS - 1:
        return number
    if not _LOWEST <= abs(number) <= _HIGHEST:
        raise error(spec_id, f"{what} is {RANGE_TEXT}")
    return number


def _from_text(text: str, what: str, spec_id: str, error: type[BleuError]) -> Fraction:
    body = text.strip()
    if len(body) > MAX_NUMBER_TEXT:
        raise error(spec_id, f"{what} is a string of {len(body)} characters, not a number")
    if _FRACTION_TEXT.fullmatch(body):
        numerator, denominator = body.split("/")
        if int(denominator) == 0:
            raise error(spec_id, f"{what} divides by zero: {text!r}")
        return Fraction(int(numerator), int(denominator))
    if not _DECIMAL_TEXT.fullmatch(body):
        raise error(spec_id, f"{what} is not a number: {text!r}")
    mantissa, _, exponent = body.lower().partition("e")
    digits = mantissa.lstrip("+-").replace(".", "").lstrip("0")
    if exponent and digits and abs(int(exponent)) > MIN_EXPONENT + MAX_NUMBER_TEXT:
        raise error(spec_id, f"{what} is {RANGE_TEXT}: {text!r}")
    return Fraction(body)


def exact_number(
    value: object, what: str, spec_id: str, error: type[BleuError] = BleuOptionError
) -> Fraction:
    """NUM-INPUT. ``value`` as an exact Fraction, finite, 0 or of magnitude 10^-5000 .. 10^300.

    Strings are decimal numbers (``"0.25"``, ``"1e-9"``) or ratios of integers (``"1/3"``);
    floats count at their exact binary value. The exponent is checked before the value is
    built, so no input makes this slow. ``error`` is raised, naming ``spec_id``, otherwise.

    >>> exact_number("1/3", "w_1", "BLEU-WEIGHTS")
    Fraction(1, 3)
    >>> exact_number("2.5e-3", "epsilon", "SMOOTH-FLOOR")
    Fraction(1, 400)
    >>> exact_number("1e999999999", "r", "BLEU-STATS")
    Traceback (most recent call last):
    ...
    reference_bleu.errors.BleuOptionError: r is outside ±[1e-5000, 1e300]: '1e999999999' (spec BLEU-STATS)
    """
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | Decimal | str):
        raise error(spec_id, f"{what} must be a number, got {type(value).__name__}")
    if isinstance(value, str):
        number = _from_text(value, what, spec_id, error)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise error(spec_id, f"{what} must be finite, got {value!r}")
        number = Fraction(value)
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise error(spec_id, f"{what} must be finite, got {value!r}")
        if value and abs(value.adjusted()) > MIN_EXPONENT + MAX_NUMBER_TEXT:
            raise error(spec_id, f"{what} is {RANGE_TEXT}: {value!r}")
        number = Fraction(value)
    elif isinstance(value, int):
        if value.bit_length() > 4 * MAX_EXPONENT:
            raise error(spec_id, f"{what} is {RANGE_TEXT}")
        number = Fraction(value)
    else:
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > 8 * MIN_EXPONENT:
            raise error(spec_id, f"{what} is {RANGE_TEXT}")
        number = value
    return _in_range(number, what, spec_id, error)


#: Longest exact ratio a signature shows; a longer one is shown to 7 significant digits.
SHORT_NUMBER_TEXT = 24


def number_text(value: Fraction, short: bool = False) -> str:
    """NUM-INPUT. ``value`` as text, however many digits it has: ``3``, ``1/3``, or with ``short``
    and more than 24 characters, 7 significant digits (``1.000000e-4300``).

    Python refuses ``str`` of an integer beyond 4,300 digits (a denial-of-service guard), and a
    value allowed by NUM-INPUT (10^-5000) has 5,001; the digits are written by ``decimal``,
    which has no such limit, so no value accepted as an option fails to print.

    >>> number_text(Fraction(1, 10**5000), short=True)
    '1.000000e-5000'
    >>> number_text(Fraction(-1, 3))
    '-1/3'
    """
    numerator, denominator = (str(Decimal(n)) for n in (value.numerator, value.denominator))
    exact = numerator if denominator == "1" else f"{numerator}/{denominator}"
    if not short or len(exact) <= SHORT_NUMBER_TEXT:
        return exact
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.6e}"


def accept_negative_numbers(parser: argparse.ArgumentParser) -> None:
    """NUM-INPUT. Let ``parser`` read ``--zero-value -1e300`` as an option and its value.

    argparse takes an argument starting with "-" for an option unless it is an integer or a
    plain decimal (``-5``, ``-0.5``): ``-1e300`` or ``-1/3`` after an option was
    "expected one argument". Every number NUM-INPUT reads is a value here (a bad one is then
    refused by the option's own check, naming its rule). The parser has no option that looks
    like a number, so nothing is lost.
    """
    parser._negative_number_matcher = _NEGATIVE_NUMBER  # argparse's one hook for this
