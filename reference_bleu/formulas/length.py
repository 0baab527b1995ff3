"""c, r and the brevity penalty: Papineni et al. (2002), sec. 2.2.2 and 2.3.

c and the best match lengths are ints (a Fraction only under the ``average`` rule, EC-001);
``log_brevity_penalty`` is exact; ``brevity_penalty`` is the one exp, in the decimal context
of :mod:`reference_bleu.formulas.exact`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Literal, get_args

from reference_bleu.formulas.counting import Sentence
from reference_bleu.formulas.exact import exp

RefLengthRule = Literal["closest", "closest-longer", "closest-first", "shortest", "longest", "average"]
REF_LENGTH_RULES: tuple[str, ...] = get_args(RefLengthRule)

#: A length: an int, or a Fraction under the ``average`` rule.
Length = int | Fraction


def candidate_length(candidate: Sentence) -> int:
    """BLEU-LEN-C. c for one candidate: its number of tokens. Papineni et al. 2002, sec. 2.2.2.

    The corpus c is the sum over candidates (BLEU-CORPUS).

    >>> candidate_length("it is a guide to action".split())
    6
    """
    return len(candidate)


def best_match_length(c: int, reference_lengths: Sequence[int], rule: RefLengthRule = "closest") -> Length:
    """BLEU-LEN-BEST. The reference length matched to a candidate of length c (spec EC-001).

    Papineni et al. 2002, sec. 2.2.2: the "best match length" is the reference length
    closest to c. The paper does not say which of two equally close lengths wins; ``rule``
    names the choice:

    - ``closest``: closest, ties to the shorter (mteval-v13a, multi-bleu.perl, sacrebleu,
      nltk; the default);
    - ``closest-longer``: closest, ties to the longer;
    - ``closest-first``: closest, ties to the one listed first (tutorial code using
      ``argmin``; depends on the order of the references);
    - ``shortest`` / ``longest``: the shortest (IBM's original script, mteval-v11
      ``--brevity-penalty shortest``, Google's tensorflow/nmt) / longest reference;
    - ``average``: the mean reference length (pycocoevalcap), a Fraction.

    >>> best_match_length(12, [11, 13])
    11
    >>> best_match_length(12, [13, 11], "closest-longer")
    13
    >>> best_match_length(12, [13, 11], "closest-first")
    13
    """
    lengths = list(reference_lengths)
    if rule == "closest":
        return min(lengths, key=lambda length: (abs(length - c), length))
    if rule == "closest-longer":
        return min(lengths, key=lambda length: (abs(length - c), -length))
    if rule == "closest-first":
        return min(lengths, key=lambda length: abs(length - c))  # min keeps the first of ties
    if rule == "shortest":
        return min(lengths)
    if rule == "longest":
        return max(lengths)
    return Fraction(sum(lengths), len(lengths))


def effective_reference_length(best_match_lengths: Iterable[Length]) -> Length:
    """BLEU-LEN-R. r: the sum of the candidates' best match lengths. Papineni et al. 2002, sec. 2.2.2.

    >>> effective_reference_length([16, 18])
    34
    """
    return sum(best_match_lengths, 0)


def log_brevity_penalty(c: int, r: Length) -> Fraction | None:
    """BLEU-BP-LOG. log BP = min(1 - r/c, 0), exact; ``None`` when it is -infinity.

    Papineni et al. 2002, sec. 2.3. At c = 0 the ratio r/c is undefined (spec EC-004):
    for r > 0 the limit c -> 0+ gives log BP = -infinity (``None``, BP = 0); for r = 0 the
    candidate is not shorter than the reference, so log BP = 0. At c = r both branches
    give 0 (spec EC-008).

    >>> log_brevity_penalty(c=14, r=16)
    Fraction(-1, 7)
    >>> log_brevity_penalty(c=18, r=18)
    Fraction(0, 1)
    >>> log_brevity_penalty(c=0, r=3) is None
    True
    """
    if c == 0:
        return None if r > 0 else Fraction(0)
    return min(1 - Fraction(r) / c, Fraction(0))


def brevity_penalty(c: int, r: Length) -> Decimal:
    """BLEU-BP. BP = 1 if c > r, else exp(1 - r/c). Papineni et al. 2002, sec. 2.2.2.

    Evaluated as exp of :func:`log_brevity_penalty` in the current decimal context, so it
    is exactly 1 when c >= r and exactly 0 for an empty candidate against a non-empty
    reference (spec EC-004).

    >>> brevity_penalty(c=18, r=18)
    Decimal('1')
    >>> brevity_penalty(c=0, r=5)
    Decimal('0')
    """
    exponent = log_brevity_penalty(c, r)
    return Decimal(0) if exponent is None else exp(exponent)
