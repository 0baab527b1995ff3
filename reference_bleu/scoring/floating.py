"""The canonical floating-point evaluation of a point of the convention space (spec EC-013, CONV-ARITH).

Real tools do not compute BLEU exactly: they divide, take logarithms and exponentials in
binary64 (most) or binary32 (torchmetrics, whose tensors default to float32). The reference
evaluates every step exactly (NUM-EXACT) unless a point asks for ``arithmetic="binary64"`` or
``"binary32"``; then the combination is evaluated by this one stated procedure, every
intermediate rounded to the format:

1. each weighted p_n (exact, from the counts and the smoothing) is rounded to the format;
   a p_n that is, or rounds to, 0 ends the evaluation with 0 unless a constant stands for
   log 0 (EC-002), which is then rounded to the format;
2. ``t_n = round(round(w_n) · round(log p_n))``, summed: in binary64 the correctly rounded
   sum (``math.fsum``, as nltk and ignite sum); in binary32 left to right, rounding each sum;
3. ``g = round(exp(s))``; ``BP = round(exp(round(1 - round(r / c))))`` when c < r (1 when
   c >= r, 0 when c = 0), or pycocoevalcap's ratio rule or the +1 rule (EC-017) in the format;
4. ``score = round(BP · g)``; a macro average sums the segment scores left to right and
   divides once.

``binary32-precisions`` computes only step 1's unsmoothed p_n in binary32, as
``round(m_n · round(1 / l_n))`` (a Python number divided by a float32 torch tensor is
computed as the tensor's reciprocal times the number: ignite's unsmoothed sentence scores),
and the rest in binary64.

``log`` and ``exp`` are the platform's binary64 functions (then rounded to binary32 for
that format). A tool that orders its operations differently agrees with this procedure
to a few units in the last place: 1e-13 relative for binary64, 1e-5 for binary32, the
tolerances the conformance runner uses (CONF-FINGERPRINT).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from fractions import Fraction

from reference_bleu.conventions.options import Arithmetic
from reference_bleu.formulas.counting import NGramCounts
from reference_bleu.formulas.length import Length
from reference_bleu.formulas.smoothing import COCO_SMALL, COCO_TINY
from reference_bleu.scoring.evaluation import Evaluation


def to_binary32(x: float) -> float:
    """x rounded to the nearest binary32 value (ties to even), as a Python float.

    >>> to_binary32(0.1)
    0.10000000149011612
    """
    if math.isinf(x) or math.isnan(x) or abs(x) >= 2.0**128:
        return x if not math.isfinite(x) else math.copysign(math.inf, x)
    return float(struct.unpack("f", struct.pack("f", x))[0])


def rounding(arithmetic: Arithmetic) -> Callable[[float], float]:
    """The rounding of every intermediate in ``arithmetic`` (binary64: the identity on floats)."""
    return to_binary32 if arithmetic == "binary32" else float


def precision_rounding(arithmetic: Arithmetic) -> Callable[[float], float]:
    """The rounding of the p_n (step 1): binary32 under ``binary32`` and ``binary32-precisions``."""
    return to_binary32 if arithmetic in ("binary32", "binary32-precisions") else float


def float_score(
    evaluation: Evaluation,
    c: int,
    r: Length,
    *,
    bp_rule: str,
    arithmetic: Arithmetic,
    counts: Sequence[NGramCounts] = (),
) -> float:
    """CONV-ARITH. The score of ``evaluation``'s p_n and w_n by the procedure of this module.

    >>> from fractions import Fraction
    >>> from decimal import Decimal
    >>> e = Evaluation(Decimal(0), (), (Fraction(1, 2), Fraction(1, 2)), None, (Fraction(1), Fraction(1, 4)))
    >>> float_score(e, 4, 4, bp_rule="paper", arithmetic="binary64")
    0.5

    ``counts`` are the (m_n, l_n) behind unsmoothed precisions (for ``binary32-precisions``).
    """
    rnd, rnd_p = rounding(arithmetic), precision_rounding(arithmetic)
    terms: list[float] = []
    pairs = [*counts[: len(evaluation.values)], *[None] * (len(evaluation.values) - len(counts))]
    for v, w, pair in zip(evaluation.values, evaluation.w, pairs, strict=True):
        if not w:
            continue
        if (
            arithmetic == "binary32-precisions"
            and pair is not None
            and pair.total
            and v == Fraction(pair.matches, pair.total)
        ):
            p = rnd_p(pair.matches * rnd_p(1 / pair.total))
        else:
            p = rnd_p(float(v))
        if p == 0:
            if evaluation.log_zero is None:
                return 0.0
            log_p = rnd(float(evaluation.log_zero))
        else:
            log_p = rnd(math.log(p))
        terms.append(rnd(rnd(float(w)) * log_p))
    if not any(evaluation.w):
        return 0.0
    s = _left_to_right(terms, rnd) if arithmetic == "binary32" else math.fsum(terms)
    g = rnd(math.exp(s))
    return rnd(_float_bp(c, r, bp_rule, rnd) * g)


def _float_bp(c: int, r: Length, bp_rule: str, rnd: Callable[[float], float]) -> float:
    if bp_rule == "coco":
        ratio = rnd(rnd(c + float(COCO_TINY)) / rnd(float(r) + float(COCO_SMALL)))
        return rnd(math.exp(rnd(1 - rnd(1 / ratio)))) if ratio < 1 else 1.0
    if bp_rule == "plus-one":
        return rnd(math.exp(rnd(1 - rnd(rnd(float(r) + 1) / (c + 1))))) if c < r else 1.0
    if c >= r:
        return 1.0
    if c == 0:
        return 0.0
    return rnd(math.exp(rnd(1 - rnd(float(r) / c))))


def _left_to_right(terms: Sequence[float], rnd: Callable[[float], float]) -> float:
    total = rnd(0.0)
    for x in terms:
        total = rnd(total + x)
    return total


def float_mean(scores: Sequence[float], arithmetic: Arithmetic) -> float:
    """The macro average in the format: a left-to-right sum, divided once (CONV-ARITH step 4)."""
    rnd = rounding(arithmetic)
    return rnd(_left_to_right(scores, rnd) / len(scores))
