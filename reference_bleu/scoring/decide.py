"""A score's correctly rounded double decided from integers, without decimal arithmetic
(spec NUM-SENTENCE).

:func:`decided_bleu` gives exactly the correctly rounded double of the exact BLEU (NUM-EXACT)
of a scored unit, or says it cannot decide it. The exact path evaluates logarithms
and exponentials in 50- and 80-digit decimal arithmetic for every sentence; this one does not
need to, because the score is

    BLEU = exp(q) · Π_n p_n^{w_n},   q = min(1 - r/c, 0) (BLEU-BP-LOG), p_n and w_n rational,

so with D the common denominator of the weights, e_n = D·w_n integers and A/B = Π p_n^{e_n},

    BLEU^D = exp(D·q) · A / B.

A double y is the correctly rounded BLEU when BLEU lies strictly between the midpoints m⁻ and
m⁺ that separate y from its neighbours, and since t ↦ t^D is increasing on t > 0 that is
``m⁻^D < exp(D·q)·A/B < m⁺^D``: a comparison of integers when q = 0 (c >= r, the most common
case), exact; and, when q < 0, of integers times exp(D·q), which lies in an interval computed
by the correctly rounded decimal ``exp`` with a proved error bound (NUM-SENTENCE). The candidate
y itself comes from binary64 (``math.log``, ``math.exp``): its accuracy only decides how many
neighbours are tried, never the result. When the interval straddles a midpoint (the exact value
within about 10^-38 of it, relative), or when the point of the convention space is not one this
module decides (a smoothing with logarithms, a constant for log 0, pycocoevalcap's BP, a
floating-point arithmetic, a tool's segment rules), the row is scored by the exact path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.fast.counts import clipped_matches
from reference_bleu.formulas.exact import PUBLISHED_DIGITS
from reference_bleu.formulas.length import Length, RefLengthRule, best_match_length, log_brevity_penalty
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS, LastSegment
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.evaluation import Evaluation, conventional_total, last_segment, settle

#: Significant digits of the decimal exp(q); its error bound is proved for this precision. 50 digits
#: leave the interval about 10^-48 wide, relative, which also decides the 40-digit decimal of BP.
EXP_DIGITS = 50


#: The largest common denominator D of the weights decided here (uniform weights 1/N: D = N).
MAX_DENOMINATOR = 64


#: How many neighbours of the binary64 candidate are tried (libm's log and exp err by a few ulps).
MAX_STEPS = 64


#: Below this the candidate may be subnormal, where a cell is not [m⁻, m⁺] of one binade: exact path.
_SMALLEST = 2.0**-1000


_TOP = 1 << 52


def decidable_options(options: BleuOptions) -> bool:
    """Whether the options' BLEU has the form exp(q) · Π p_n^{w_n} with rational q, p_n, w_n."""
    return (
        options.arithmetic == "exact"
        and options.brevity_penalty == "paper"
        and options.zero_precision != "log-constant"
    )


#: The smoothings of the integer path: each p_n is a ratio of integers computed from (m_n, l_n).
_PLAIN_SMOOTHINGS = {
    "none": "none",
    "floor": "floor",
    "chen-cherry-1": "floor",
    "add-k": "add-k",
    "chen-cherry-2": "add-k",
    "exp": "exp",
    "chen-cherry-3": "exp",
    "add-one": "add-one",
}


@dataclass(frozen=True)
class PlainPoint:
    """The paper's point with uniform weights and a rational smoothing: the integer path's options."""

    orders: int
    smoothing: str
    #: ε of floor, k of add-k, as a numerator and a denominator.
    value: tuple[int, int]
    effective_order: bool


def plain_point(options: BleuOptions) -> PlainPoint | None:
    """The options as a :class:`PlainPoint`, or ``None`` when the general path must settle them."""
    N = options.max_order
    kind = _PLAIN_SMOOTHINGS.get(options.smoothing)
    if (
        kind is None
        or not decidable_options(options)
        or options.weights != (Fraction(1, N),) * N
        or options.statistics_orders != N
        or options.denominator != "l_n"
        or options.early_return != "none"
        or options.undefined_precision != "zero"
        or options.zero_precision != "limit"
        or options.ref_length == "average"
        or options.zero_length != "limit"  # EC-004's error for r = 0 is settle()'s
    ):
        return None
    value = options.smoothing_value
    if value is None:
        value = SMOOTHING_METHODS[options.smoothing].default or Fraction(1)
    if kind == "add-k" and value == 0:  # (m + 0) / (l + 0): the general path's business
        return None
    return PlainPoint(N, kind, (value.numerator, value.denominator), options.effective_order)


@lru_cache(maxsize=256)
def cached_plain_point(options: BleuOptions) -> PlainPoint | None:
    """:func:`plain_point`, remembered per options (they are immutable)."""
    return plain_point(options)


def plain_score(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], point: PlainPoint, ref_length: RefLengthRule
) -> float | None:
    """One row at a :class:`PlainPoint` (:func:`plain_evaluation` of its clipped matches, with the
    totals max(0, c - n + 1) of one sentence): the score's double, ``None`` when undecided or for an
    empty candidate."""
    c = len(hyp)
    if c == 0:
        return None
    matches = clipped_matches(hyp, refs, point.orders)
    r = len(refs[0]) if len(refs) == 1 else best_match_length(c, [len(x) for x in refs], ref_length)
    return plain_evaluation(matches, range(c, c - point.orders, -1), c, r, point)[0]


#: A plain evaluation: the double (``None``: undecided), each order's smoothed p_n as (numerator,
#: denominator) (``None`` where l_n = 0), and the number of weighted orders D (each weighs 1/D).
PlainResult = tuple[float | None, tuple[tuple[int, int] | None, ...], int]


def plain_evaluation(
    matches: Sequence[int], totals: Sequence[int], c: int, r: Length, point: PlainPoint
) -> PlainResult:
    """A scored unit at a :class:`PlainPoint` on integers: what steps 1 to 3 of BLEU-EVAL settle, and the
    score's correctly rounded double (NUM-SENTENCE).

    The smoothing of SMOOTH-NONE, -FLOOR, -ADD-K, -EXP or -ADD-ONE on the orders with l_n > 0 (a
    prefix; the literal smoothing functions are the oracle, tests/test_sentences.py), weights 1/N
    (or 1/k over the k defined orders under effective order, BLEU-EFFECTIVE-ORDER), a zero or an
    undefined weighted precision giving 0 (EC-002, EC-003), then :func:`decide` on
    A/B = Π p_n and q = log BP, without ``Statistics``, ``Fraction`` or the smoothing functions.
    ``totals`` are l_1..l_N (max(0, c - n + 1) for a sentence); c > 0 and r an integer or a ratio.

    >>> plain_evaluation([3, 1], [3, 2], 3, 4, PlainPoint(2, "none", (1, 1), False))
    (0.5066641486392105, ((3, 3), (1, 2)), 2)

    (sqrt(3/3 · 1/2) · exp(1 - 4/3) = 0.70711 · 0.71653.)
    """
    N = point.orders
    kind = point.smoothing
    a, b = point.value
    precisions: list[tuple[int, int] | None] = []
    top = bottom = 1
    zeros = 0
    for n in range(N):
        total = totals[n]
        if total <= 0:
            break  # l_n never grows with n: every later order is undefined too
        m = matches[n]
        if kind == "add-one":
            num, den = m + 1, total + 1
        elif kind == "add-k" and n:
            num, den = m * b + a, total * b + a
        elif m:
            num, den = m, total
        elif kind == "floor":
            num, den = a, b * total
        elif kind == "exp":
            zeros += 1
            num, den = 1, total << zeros
        else:
            num, den = 0, total  # p_n = 0 (EC-002)
        precisions.append((num, den))
        top, bottom = top * num, bottom * den
    defined = len(precisions)
    d = defined if point.effective_order else N
    precisions += [None] * (N - defined)
    if d == 0 or defined < d or top == 0:
        return 0.0, tuple(precisions), d  # no weighted order, an undefined one, or a zero precision
    log_power = math.log(top) - math.log(bottom)
    if c >= r:
        return decide(log_power, d, top, bottom, None), tuple(precisions), d
    q = log_bp(c, r)
    value = decide(log_power + d * (q[0] / q[1]), d, top, bottom, q)
    return value, tuple(precisions), d


def log_bp(c: int, r: Length) -> tuple[int, int]:
    """log BP = 1 - r/c for 0 < c < r (BLEU-BP-LOG) in lowest terms, as (numerator, denominator)."""
    if isinstance(r, int):
        g = math.gcd(c - r, c)
        return (c - r) // g, c // g
    q = 1 - Fraction(r) / c
    return q.numerator, q.denominator


def decided_score(segment: Statistics, options: BleuOptions, factor: int = 1) -> float | None:
    """The correctly rounded double of a segment's sentence BLEU (times ``factor``); ``None``: undecided.

    ``segment`` has ``options.statistics_orders`` orders; the options pass :func:`decidable_options`.
    """
    stats = segment if options.denominator == "l_n" else conventional_total([segment], options)
    return decided_evaluation(stats, last_segment(segment, options), options, factor)[0]


def decided_evaluation(
    stats: Statistics, last: LastSegment, options: BleuOptions, factor: int = 1
) -> tuple[float | None, Evaluation]:
    """The correctly rounded double of the BLEU of a scored unit (times ``factor``; ``None``: undecided),
    and its settled p_n and w_n (:func:`reference_bleu.scoring.evaluation.settle`, whose score is a
    placeholder).

    ``stats`` are under the point's denominator (``conventional_total``); the options pass
    :func:`decidable_options`.
    """
    settled = settle(stats, last, options=options)
    if settled.score == 0 or not any(settled.w):  # an early return, or no weighted order: 0 (EC-016)
        return 0.0, settled
    return decided_bleu(stats.hyp_len, stats.ref_len, settled.values, settled.w, factor), settled


def decided_bleu(
    c: int, r: Length, values: Sequence[object], w: Sequence[Fraction], factor: int = 1
) -> float | None:
    """factor · BP · exp(Σ w_n log p_n) as its correctly rounded double, or ``None`` when not decided here.

    >>> decided_bleu(4, 4, [Fraction(1), Fraction(1, 2)], [Fraction(1, 2)] * 2)  # sqrt(1/2)
    0.7071067811865476
    >>> decided_bleu(2, 4, [Fraction(1)], [Fraction(1)])  # exp(1 - 4/2)
    0.36787944117144233
    """
    q = log_brevity_penalty(c, r)
    if q is None:
        return 0.0  # BP = 0 (EC-004)
    weighted = [(v, w_n) for v, w_n in zip(values, w, strict=True) if w_n and isinstance(v, Fraction)]
    if len(weighted) != sum(1 for w_n in w if w_n):
        return None  # a smoothing took a logarithm (methods 4 and 7): the exact path
    if any(v == 0 for v, _w_n in weighted):
        return 0.0  # log 0 = -infinity (EC-002)
    d = math.lcm(*(w_n.denominator for _v, w_n in weighted))
    if d > MAX_DENOMINATOR:
        return None
    top, bottom = factor**d, 1
    log_y = d * math.log(factor)
    for v, w_n in weighted:
        e = w_n.numerator * (d // w_n.denominator)
        top *= v.numerator**e
        bottom *= v.denominator**e
        log_y += e * (math.log(v.numerator) - math.log(v.denominator))
    return decide(log_y + d * float(q), d, top, bottom, (q.numerator, q.denominator) if q else None)


def decide(  # noqa: PLR0911 -- each way out is one case of the decision
    log_power: float, d: int, top: int, bottom: int, q: tuple[int, int] | None
) -> float | None:
    """The correctly rounded double of Y > 0 with Y^D = exp(D·q) · A / B; ``None`` when undecided.

    ``q`` is a negative rational (numerator, denominator), log BP, or ``None`` for q = 0;
    ``log_power`` approximates log Y^D in binary64 and gives the first candidate.
    """
    if not -700.0 * d < log_power < 700.0 * d:
        return None
    y = math.exp(log_power / d)
    if not y > _SMALLEST:
        return None
    bounds = (1, 1, 1) if q is None else powered_bounds(*q, d)
    if bounds is None:
        return None
    low, high, scale = bounds  # low/scale <= exp(x) <= high/scale
    for _ in range(MAX_STEPS):
        mantissa, exponent = math.frexp(y)
        significand = int(mantissa * (1 << 53))  # y = M · 2^(exponent - 53), 2^52 <= M < 2^53
        shift = 53 - exponent
        # The midpoints: m⁺ = (2M + 1)·2^(-shift-1); m⁻ likewise, or (4M - 1)·2^(-shift-2) at a binade's foot.
        above = _side(2 * significand + 1, shift + 1, d, top, bottom, low, high, scale)
        if above > 0:
            y = math.nextafter(y, math.inf)
            continue
        if significand > _TOP:
            below = _side(2 * significand - 1, shift + 1, d, top, bottom, low, high, scale)
        else:
            below = _side(4 * significand - 1, shift + 2, d, top, bottom, low, high, scale)
        if below < 0:
            y = math.nextafter(y, 0.0)
            continue
        if above < 0 < below:
            return y
        if q is None and 0 in (above, below):
            # The value is a midpoint, exactly (integers): ties to even. Never the case for
            # q < 0, where exp(D·q) is irrational (Lindemann): there it is the interval's width.
            if significand % 2 == 0:
                return y
            return math.nextafter(y, math.inf if above == 0 else 0.0)
        return None  # a midpoint is within the interval: undecided
    return None


def _side(N: int, k: int, d: int, top: int, bottom: int, low: int, high: int, scale: int) -> int:  # noqa: PLR0917
    """The sign of BLEU - m for m = N / 2^k, BLEU^D in [low, high]/scale · A/B; 0 when undecided.

    BLEU > m  ⇔  exp(Dq)·A/B > N^D / 2^(kD)  ⇔  exp(Dq)·A·2^(kD)·scale > N^D·B·scale.
    """
    left = top << (k * d)
    right = N**d * bottom * scale
    if high * left < right:
        return -1
    if low * left > right:
        return 1
    return 0


@lru_cache(maxsize=1 << 16)
def exp_bounds(numerator: int, denominator: int) -> tuple[int, int, int] | None:
    """Integers (low, high, scale) with low/scale <= exp(x) <= high/scale, x = numerator/denominator < 0.

    x is rounded to EXP_DIGITS digits (relative error u = 10^(1-P)/2 at most, round-half-even)
    and its exp is correctly rounded (Python's ``Decimal.exp``, documented so), relative error
    u again; so exp(x)·(1 + η) is computed with |η| <= exp(|x|·u)(1 + u) - 1 <= 2u(|x| + 1)
    when |x|·u <= 1/2, and the bounds are widened by 4u(|x| + 1) each way (NUM-SENTENCE).
    ``None`` when |x| is too large for the bound, or exp(x) leaves the decimal range.
    """
    context = Context(prec=EXP_DIGITS, Emin=-(10**6), Emax=10**6)
    with localcontext(context):
        value = (Decimal(numerator) / Decimal(denominator)).exp()
    magnitude = Fraction(-numerator, denominator)
    u = Fraction(1, 2 * 10 ** (EXP_DIGITS - 1))
    if magnitude * u > Fraction(1, 2**20) or not value.is_normal() or value.adjusted() < -(10**5):
        return None
    width = 4 * u * (magnitude + 1)
    low, high = Fraction(value) * (1 - width), Fraction(value) * (1 + width)
    scale = math.lcm(low.denominator, high.denominator)
    return low.numerator * (scale // low.denominator), high.numerator * (scale // high.denominator), scale


@lru_cache(maxsize=1 << 16)
def powered_bounds(numerator: int, denominator: int, d: int) -> tuple[int, int, int] | None:
    """Integers (low, high, scale) with low/scale <= exp(d·x) <= high/scale, x = numerator/denominator < 0:
    :func:`exp_bounds` of x raised to the power d (t ↦ t^d increases on t > 0), so that the BP of a
    row and its score share one decimal ``exp`` (NUM-SENTENCE); ``None`` where exp_bounds has none."""
    bounds = exp_bounds(numerator, denominator)
    if bounds is None or d == 1:
        return bounds
    low, high, scale = bounds
    return low**d, high**d, scale**d


@lru_cache(maxsize=1 << 16)
def exp_rounded(numerator: int, denominator: int) -> tuple[float, Decimal] | None:
    """exp(x) for x = numerator/denominator < 0: its correctly rounded double and its correctly rounded
    ``PUBLISHED_DIGITS``-digit decimal (NUM-EXACT), the paper's BP for log BP = x, decided from
    :func:`exp_bounds` (the double as :func:`decide` decides a score with D = 1, A = B = 1; the
    decimal when both ends of the interval round to it, which a monotone rounding then gives every
    value between them); ``None`` when either is undecided (the exact path then evaluates BP).

    >>> exp_rounded(-1, 1)
    (0.36787944117144233, Decimal('0.3678794411714423215955237701614608674458'))
    """
    bounds = exp_bounds(numerator, denominator)
    double = decide(numerator / denominator, 1, 1, 1, (numerator, denominator))
    if bounds is None or double is None:
        return None
    low, high, scale = bounds
    with localcontext(Context(prec=PUBLISHED_DIGITS)):
        lower, upper = Decimal(low) / Decimal(scale), Decimal(high) / Decimal(scale)
    return (double, lower) if lower == upper else None
