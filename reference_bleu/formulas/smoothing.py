"""Smoothing: what replaces p_n = m_n / l_n when matches are rare (spec chapter SMOOTH).

Chen and Cherry, "A Systematic Comparison of Smoothing Techniques for Sentence-Level
BLEU", WMT 2014 (W14-3346), number seven methods; sacrebleu names four (``floor``,
``add-k``, ``exp``, none) and TensorFlow-era code adds one at every order.

Notation: ``counts[n-1]`` is the pair (m_n, l_n) of order n: clipped matches and candidate
n-grams; ``T`` the candidate length c. Every function here receives only the orders whose
precision is *defined* (l_n > 0, spec EC-003: undefined orders are settled before
smoothing, and they always form a suffix, since l_n is non-increasing in n) and returns one
smoothed p_n per order: a Fraction, or a Decimal in the current context where the method
needs a logarithm (methods 4 and 7).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from reference_bleu.errors import BleuError, BleuOptionError
from reference_bleu.formulas.counting import NGramCounts
from reference_bleu.formulas.exact import Real, ln, to_decimal

#: Default parameters: Chen and Cherry's values (also nltk's and sacrebleu's defaults).
DEFAULT_EPSILON = Fraction(1, 10)
DEFAULT_K = 5
DEFAULT_ALPHA = 5
DEFAULT_ADD_K = 1


def no_smoothing(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-NONE. p_n = m_n / l_n, unchanged. Papineni et al. 2002, sec. 2.1.

    >>> no_smoothing([NGramCounts(17, 18), NGramCounts(0, 17)])
    (Fraction(17, 18), Fraction(0, 1))
    """
    return tuple(Fraction(m, total) for m, total in counts)


def smoothing_method_1(
    counts: Sequence[NGramCounts], epsilon: Fraction = DEFAULT_EPSILON
) -> tuple[Fraction, ...]:
    """SMOOTH-CC1. For an order with m_n = 0, p_n = ε / l_n (ε = 0.1). Chen and Cherry 2014 (method 1).

    >>> smoothing_method_1([NGramCounts(2, 2), NGramCounts(0, 1)])
    (Fraction(1, 1), Fraction(1, 10))
    """
    return tuple(Fraction(m, total) if m else epsilon / total for m, total in counts)


def add_k_smoothing(counts: Sequence[NGramCounts], k: Fraction | int = DEFAULT_ADD_K) -> tuple[Fraction, ...]:
    """SMOOTH-ADD-K. For n >= 2, p_n = (m_n + k) / (l_n + k); p_1 unchanged. sacrebleu ``add-k``.

    Generalises Chen and Cherry's method 2 (k = 1) to any k > 0; applied to every order
    n >= 2, with or without matches.

    >>> add_k_smoothing([NGramCounts(1, 2), NGramCounts(0, 1)], k=1)
    (Fraction(1, 2), Fraction(1, 2))
    """
    return tuple(
        Fraction(m, total) if n == 1 else (m + Fraction(k)) / (total + Fraction(k))
        for n, (m, total) in enumerate(counts, start=1)
    )


def smoothing_method_2(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-CC2. p_n = (m_n + 1) / (l_n + 1) for n >= 2. Chen and Cherry 2014 (method 2).

    After Lin and Och 2004.

    It is :func:`add_k_smoothing` with k = 1.

    >>> smoothing_method_2([NGramCounts(3, 3), NGramCounts(1, 2)])
    (Fraction(1, 1), Fraction(2, 3))
    """
    return add_k_smoothing(counts, 1)


def add_one_smoothing(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-ADD-ONE. p_n = (m_n + 1) / (l_n + 1) at every order, unigrams included.

    The ``smooth=True`` of tensorflow/nmt's ``compute_bleu`` (nmt/scripts/bleu.py:87-95, and so
    HF evaluate's ``bleu``); unlike method 2 it also smooths p_1. tensor2tensor's ``compute_bleu``
    has no such option: it always applies SMOOTH-EXP (spec SMOOTH-ADD-ONE).

    >>> add_one_smoothing([NGramCounts(3, 3), NGramCounts(1, 2)])
    (Fraction(1, 1), Fraction(2, 3))
    >>> add_one_smoothing([NGramCounts(0, 2)])
    (Fraction(1, 3),)
    """
    return tuple(Fraction(m + 1, total + 1) for m, total in counts)


def smoothing_method_3(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-CC3. NIST geometric smoothing: the k-th order with m_n = 0 gets p_n = 1 / (2^k · l_n).

    Chen and Cherry 2014 (method 3); mteval-v13a.pl's default. k counts the zero-match
    orders from 1 in increasing n.

    >>> smoothing_method_3([NGramCounts(2, 2), NGramCounts(1, 1), NGramCounts(0, 4), NGramCounts(0, 3)])
    (Fraction(1, 1), Fraction(1, 1), Fraction(1, 8), Fraction(1, 12))
    """
    invcnt = 1
    p: list[Fraction] = []
    for m, total in counts:
        if m:
            p.append(Fraction(m, total))
        else:
            invcnt *= 2
            p.append(Fraction(1, invcnt * total))
    return tuple(p)


def exp_smoothing(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-EXP. sacrebleu's ``exp``: NIST geometric smoothing, :func:`smoothing_method_3`.

    >>> exp_smoothing([NGramCounts(1, 2), NGramCounts(0, 1)])
    (Fraction(1, 2), Fraction(1, 2))
    """
    return smoothing_method_3(counts)


def floor_smoothing(
    counts: Sequence[NGramCounts], epsilon: Fraction = DEFAULT_EPSILON
) -> tuple[Fraction, ...]:
    """SMOOTH-FLOOR. sacrebleu's ``floor``: p_n = ε / l_n when m_n = 0, :func:`smoothing_method_1`.

    >>> floor_smoothing([NGramCounts(1, 2), NGramCounts(0, 4)], epsilon=Fraction(1, 2))
    (Fraction(1, 2), Fraction(1, 8))
    """
    return smoothing_method_1(counts, epsilon)


def _method_4_counts(counts: Sequence[NGramCounts], T: int, K: Fraction | int) -> list[Real]:
    """Method 4's smoothed match counts: m_n, or 1/invcnt where invcnt *= K / ln(T) at each zero."""
    smoothed: list[Real] = []
    invcnt = Decimal(1)
    for m, _total in counts:
        if m:
            smoothed.append(Fraction(m))
        elif T <= 1:
            # ln(1) = 0: K / ln(T) is infinite, the smoothed count tends to 0 (spec SMOOTH-CC4).
            smoothed.append(Fraction(0))
        else:
            invcnt *= to_decimal(Fraction(K)) / ln(T)
            smoothed.append(1 / invcnt)
    return smoothed


def smoothing_method_4(
    counts: Sequence[NGramCounts], T: int, K: Fraction | int = DEFAULT_K
) -> tuple[Real, ...]:
    """SMOOTH-CC4. Like method 3, with invcnt multiplied by K / ln(T) (not 2) at each zero order.

    Chen and Cherry 2014 (method 4), K = 5, T the candidate length: shorter candidates get
    smaller smoothed counts. p_n = 1 / (invcnt · l_n). For T = 1, ln T = 0 and the smoothed
    precision is its limit, 0.

    >>> from decimal import localcontext
    >>> with localcontext(prec=12):
    ...     smoothing_method_4([NGramCounts(3, 3), NGramCounts(0, 2)], T=3)
    (Fraction(1, 1), Decimal('0.109861228867'))
    """
    return tuple(m_n / total for m_n, (_m, total) in zip(_method_4_counts(counts, T, K), counts, strict=True))


def _method_5(smoothed: Sequence[Real], counts: Sequence[NGramCounts], next_matches: int) -> tuple[Real, ...]:
    """m'_0 = m_1 + 1, m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3, p_n = m'_n / l_n."""
    if not counts:
        return ()  # an empty candidate has no defined order to smooth
    neighbours = [*smoothed[1:], Fraction(next_matches)]
    previous: Real = smoothed[0] + 1
    p: list[Real] = []
    for m_n, m_next, (_m, total) in zip(smoothed, neighbours, counts, strict=True):
        previous = _third(previous, m_n, m_next)
        p.append(previous / total)
    return tuple(p)


def _third(a: Real, b: Real, c: Real) -> Real:
    if isinstance(a, Fraction) and isinstance(b, Fraction) and isinstance(c, Fraction):
        return (a + b + c) / 3
    return (to_decimal(a) + to_decimal(b) + to_decimal(c)) / 3


def smoothing_method_5(counts: Sequence[NGramCounts], next_matches: int) -> tuple[Real, ...]:
    """SMOOTH-CC5. Average each order's match count with its neighbours'. Chen and Cherry 2014 (method 5).

    m'_0 = m_1 + 1; m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3; p_n = m'_n / l_n. The
    neighbour past the last order is the true match count of that next order
    (``next_matches``, 0 when it is undefined).

    >>> smoothing_method_5([NGramCounts(2, 2), NGramCounts(0, 1)], next_matches=0)
    (Fraction(5, 6), Fraction(5, 9))
    """
    return _method_5([Fraction(m) for m, _total in counts], counts, next_matches)


def smoothing_method_6(
    counts: Sequence[NGramCounts], alpha: Fraction | int = DEFAULT_ALPHA
) -> tuple[Fraction, ...]:
    """SMOOTH-CC6. Interpolate with a prior from lower orders. Chen and Cherry 2014 (method 6).

    After Gao and He 2013.

    p_1 and p_2 are unsmoothed; for n >= 3, p_n = (m_n + α·π_0) / (l_n + α) with
    π_0 = p_{n-1}^2 / p_{n-2} (the smoothed lower precisions), α = 5. When p_{n-2} = 0 the
    prior is 0 (the score is 0 then anyway: p_1 or p_2 is 0).

    >>> smoothing_method_6([NGramCounts(4, 4), NGramCounts(2, 3), NGramCounts(0, 2)])
    (Fraction(1, 1), Fraction(2, 3), Fraction(20, 63))
    """
    return _interpolated(counts, [total for _m, total in counts], alpha)


def _interpolated(
    counts: Sequence[NGramCounts], lengths: Sequence[int], alpha: Fraction | int
) -> tuple[Fraction, ...]:
    """p_1, p_2 as m/l_n; for n >= 3, (m_n + α·p_{n-1}^2 / p_{n-2}) / (lengths[n] + α): Gao and He's prior."""
    p: list[Fraction] = []
    for n, (m, total) in enumerate(counts, start=1):
        if n <= 2:
            p.append(Fraction(m, total))
            continue
        prior = p[-1] ** 2 / p[-2] if p[-2] else Fraction(0)
        p.append((m + Fraction(alpha) * prior) / (lengths[n - 1] + Fraction(alpha)))
    return tuple(p)


def smoothing_method_7(
    counts: Sequence[NGramCounts], T: int, next_matches: int, K: Fraction | int = DEFAULT_K
) -> tuple[Real, ...]:
    """SMOOTH-CC7. Methods 4 and 5 together. Chen and Cherry 2014 (method 7).

    Method 4's smoothed match counts (m_n, or 1/invcnt at a zero order) are averaged by
    method 5; the neighbour past the last order is its raw match count.

    >>> from decimal import localcontext
    >>> with localcontext(prec=12):
    ...     smoothing_method_7([NGramCounts(2, 2), NGramCounts(0, 1)], T=2, next_matches=0)
    (Decimal('0.85643823935'), Decimal('0.61716863827'))
    """
    return _method_5(_method_4_counts(counts, T, K), counts, next_matches)


# --- Smoothing as real tools compute it (spec chapter 13, CONV-SMOOTH) -------------------------
# Not Chen and Cherry's formulas but what a named tool's code computes, so that a profile of
# that tool is the reference at a point of the convention space. nltk's methods receive the
# corpus precisions with nltk's denominators (EC-015 ``max1-segment``); methods 5 to
# 7 also read the *last* segment of the corpus, as nltk's ``corpus_bleu`` passes its leftover
# loop variables to the smoothing function (spec 07).

#: pycocoevalcap's constants (bleu_scorer.py, ``compute_score``): ``tiny = 1e-15`` is added to
#: every match count and ``small = 1e-9`` to every n-gram total, as the doubles they are.
COCO_TINY = Fraction(2535301200456459, 2535301200456458802993406410752)  # the double nearest 1e-15
COCO_SMALL = Fraction(4835703278458517, 4835703278458516698824704)  # the double nearest 1e-9


def coco_smoothing(counts: Sequence[NGramCounts]) -> tuple[Fraction, ...]:
    """SMOOTH-COCO. p_n = (m_n + 1e-15) / (l_n + 1e-9) at every order (pycocoevalcap's ``tiny``/``small``).

    The constants are the binary64 values of the literals, taken exactly.

    By hand: 1e-15 / (4 + 1e-9) = 2.5e-16 / (1 + 2.5e-10) ≈ 2.5e-16 · (1 - 2.5e-10).

    >>> p = coco_smoothing([NGramCounts(0, 4)])[0]
    >>> float(p)
    2.499999999375e-16
    """
    return tuple((m + COCO_TINY) / (total + COCO_SMALL) for m, total in counts)


def nltk_method_4(counts: Sequence[NGramCounts], T: int, K: Fraction | int = DEFAULT_K) -> tuple[Real, ...]:
    """SMOOTH-NLTK-4. nltk's ``method4``: the i-th zero order gets p_n = ln(T) / (2^i · K · l_n).

    nltk 3.10.4 ``SmoothingFunction.method4``: ``incvnt`` starts at 1 and doubles the divisor
    at each zero order; ``K / ln(T)`` is not compounded as in Chen and Cherry's method 4
    (SMOOTH-CC4). For T <= 1 a zero precision stays 0.

    >>> from decimal import localcontext
    >>> with localcontext(prec=12):
    ...     nltk_method_4([NGramCounts(3, 3), NGramCounts(0, 2), NGramCounts(0, 1)], T=3)
    (Fraction(1, 1), Decimal('0.0549306144335'), Decimal('0.0549306144335'))
    """
    p: list[Real] = []
    incvnt = 1
    for m, total in counts:
        if m or T <= 1:
            p.append(Fraction(m, total))
        else:
            p.append(ln(T) / (to_decimal(Fraction(2**incvnt) * Fraction(K) * total)))
            incvnt += 1
    return tuple(p)


def nltk_method_5(p: Sequence[Real], next_precision: Fraction) -> tuple[Real, ...]:
    """SMOOTH-NLTK-5. nltk's ``method5``: each *precision* averaged with its neighbours.

    p'_0 = p_1 + 1, p'_n = (p'_{n-1} + p_n + p_{n+1}) / 3, where the neighbour past the last
    order is ``next_precision``: nltk's p_5 of the last segment, m_5 / max(1, l_5).

    >>> nltk_method_5([Fraction(1), Fraction(1, 2)], Fraction(0))
    (Fraction(7, 6), Fraction(5, 9))
    """
    neighbours = [*p[1:], next_precision]
    previous: Real = p[0] + 1
    smoothed: list[Real] = []
    for p_n, p_next in zip(p, neighbours, strict=True):
        previous = _third(previous, p_n, p_next)
        smoothed.append(previous)
    return tuple(smoothed)


def nltk_method_6(
    counts: Sequence[NGramCounts], last_totals: Sequence[int], alpha: Fraction | int = DEFAULT_ALPHA
) -> tuple[Fraction, ...]:
    """SMOOTH-NLTK-6. nltk's ``method6``: Gao and He's prior with l from the last segment.

    For n >= 3, p_n = (m_n + α·π_0) / (l + α), π_0 = p_{n-1}^2 / p_{n-2} (smoothed), where m_n
    is the corpus numerator but l is the number of n-grams of the *last* hypothesis. nltk
    asserts p_3 > 0 first: a corpus without a trigram match raises (``SmoothingAssertionError``).

    >>> nltk_method_6([NGramCounts(4, 4), NGramCounts(2, 3), NGramCounts(1, 2)], [4, 3, 2])
    (Fraction(1, 1), Fraction(2, 3), Fraction(29, 63))
    """
    if len(counts) > 2 and counts[2].matches == 0:
        raise SmoothingAssertionError("SMOOTH-NLTK-6", "nltk's method 6 asserts a trigram match")
    return _interpolated(counts, last_totals, alpha)


def nltk_method_7(
    counts: Sequence[NGramCounts], T: int, next_precision: Fraction, K: Fraction | int = DEFAULT_K
) -> tuple[Real, ...]:
    """SMOOTH-NLTK-7. nltk's ``method7``: :func:`nltk_method_4`, then :func:`nltk_method_5` on its output.

    >>> nltk_method_7([NGramCounts(1, 1)], T=1, next_precision=Fraction(0))
    (Fraction(1, 1),)
    """
    return nltk_method_5(nltk_method_4(counts, T, K), next_precision) if counts else ()


@dataclass(frozen=True)
class SmoothingMethod:
    """A named smoothing: its spec ID, its parameter (if any) and what it needs to know."""

    name: str
    spec_id: str
    parameter: str | None = None
    default: Fraction | None = None
    #: Needs m_{N+1}, the match count of the order past N (methods 5 and 7).
    needs_next_order: bool = False
    #: Reads the last segment's statistics (nltk's methods 5 to 7, CONV-SMOOTH).
    needs_last_segment: bool = False
    #: A tool's own formula (CONV-SMOOTH), there to reproduce that tool inside its profile.
    tool: bool = False
    #: Every smoothed precision is at most 1, so BLEU is in [0, 1] (INV-RANGE's premise, spec 09).
    #: False where a smoothed p_n can exceed 1: methods 5 and 7 average counts across orders
    #: (p_0 = p_1 + 1), method 6 interpolates with p_{n-1}^2 / p_{n-2}, which exceeds 1 when
    #: p_{n-1} > p_{n-2} (a one-token segment lowers p_1 and no other order).
    bounded: bool = True


class SmoothingAssertionError(BleuError):
    """A tool's smoothing refuses the input (nltk's method 6 without a trigram match)."""


@dataclass(frozen=True)
class LastSegment:
    """What nltk's methods 5 to 7 read of the last segment: its l_n, and p_{N+1} = m / max(1, l)."""

    totals: tuple[int, ...]
    next_precision: Fraction


SMOOTHING_METHODS: dict[str, SmoothingMethod] = {
    m.name: m
    for m in (
        SmoothingMethod("none", "SMOOTH-NONE"),
        SmoothingMethod("chen-cherry-1", "SMOOTH-CC1", "epsilon", DEFAULT_EPSILON),
        SmoothingMethod("chen-cherry-2", "SMOOTH-CC2"),
        SmoothingMethod("chen-cherry-3", "SMOOTH-CC3"),
        SmoothingMethod("chen-cherry-4", "SMOOTH-CC4", "K", Fraction(DEFAULT_K)),
        SmoothingMethod("chen-cherry-5", "SMOOTH-CC5", needs_next_order=True, bounded=False),
        SmoothingMethod("chen-cherry-6", "SMOOTH-CC6", "alpha", Fraction(DEFAULT_ALPHA), bounded=False),
        SmoothingMethod(
            "chen-cherry-7", "SMOOTH-CC7", "K", Fraction(DEFAULT_K), needs_next_order=True, bounded=False
        ),
        SmoothingMethod("floor", "SMOOTH-FLOOR", "epsilon", DEFAULT_EPSILON),
        SmoothingMethod("add-k", "SMOOTH-ADD-K", "k", Fraction(DEFAULT_ADD_K)),
        SmoothingMethod("exp", "SMOOTH-EXP"),
        SmoothingMethod("add-one", "SMOOTH-ADD-ONE"),
        SmoothingMethod("coco", "SMOOTH-COCO", tool=True),
        SmoothingMethod("nltk-4", "SMOOTH-NLTK-4", "K", Fraction(DEFAULT_K), tool=True),
        SmoothingMethod(
            "nltk-5",
            "SMOOTH-NLTK-5",
            needs_next_order=True,
            needs_last_segment=True,
            tool=True,
            bounded=False,
        ),
        SmoothingMethod(
            "nltk-6",
            "SMOOTH-NLTK-6",
            "alpha",
            Fraction(DEFAULT_ALPHA),
            needs_last_segment=True,
            tool=True,
            bounded=False,
        ),
        SmoothingMethod(
            "nltk-7",
            "SMOOTH-NLTK-7",
            "K",
            Fraction(DEFAULT_K),
            needs_next_order=True,
            needs_last_segment=True,
            tool=True,
            bounded=False,
        ),
    )
}


def smooth(
    name: str,
    counts: Sequence[NGramCounts],
    T: int,
    next_matches: int,
    value: Fraction | None,
    *,
    last: LastSegment | None = None,
) -> tuple[Real, ...]:
    """Dispatch to the smoothing method ``name`` with its parameter ``value`` (or its default).

    The rules of spec SMOOTH; the tools' own methods are CONV-SMOOTH's.
    """
    method = SMOOTHING_METHODS[name]
    v = value if value is not None else (method.default or Fraction(0))
    if method.needs_last_segment and last is None:
        raise BleuOptionError(method.spec_id, f"smoothing {name!r} needs the last segment's statistics")
    tail = last or LastSegment((), Fraction(0))
    table: dict[str, Callable[[], tuple[Real, ...]]] = {
        "none": lambda: no_smoothing(counts),
        "chen-cherry-1": lambda: smoothing_method_1(counts, v),
        "chen-cherry-2": lambda: smoothing_method_2(counts),
        "chen-cherry-3": lambda: smoothing_method_3(counts),
        "chen-cherry-4": lambda: smoothing_method_4(counts, T, v),
        "chen-cherry-5": lambda: smoothing_method_5(counts, next_matches),
        "chen-cherry-6": lambda: smoothing_method_6(counts, v),
        "chen-cherry-7": lambda: smoothing_method_7(counts, T, next_matches, v),
        "floor": lambda: floor_smoothing(counts, v),
        "add-k": lambda: add_k_smoothing(counts, v),
        "exp": lambda: exp_smoothing(counts),
        "add-one": lambda: add_one_smoothing(counts),
        "coco": lambda: coco_smoothing(counts),
        "nltk-4": lambda: nltk_method_4(counts, T, v),
        "nltk-5": lambda: nltk_method_5(no_smoothing(counts), tail.next_precision) if counts else (),
        "nltk-6": lambda: nltk_method_6(counts, tail.totals, v),
        "nltk-7": lambda: nltk_method_7(counts, T, tail.next_precision, v),
    }
    return table[name]()
