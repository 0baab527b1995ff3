"""N, the weights w_n and their combination with BP: Papineni et al. (2002), sec. 2.1.3 and 2.3.

BLEU = BP · exp(Σ_{n=1}^{N} w_n log p_n), and in log form
log BLEU = min(1 - r/c, 0) + Σ_{n=1}^{N} w_n log p_n.

An order whose weight is 0 contributes the factor p_n^0 = 1 whatever p_n is, even 0 or
undefined (spec EC-007): that is how individual n-gram scores are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from reference_bleu.errors import BleuOptionError
from reference_bleu.formulas.exact import Real, exp, ln, to_decimal
from reference_bleu.formulas.length import Length, brevity_penalty, log_brevity_penalty
from reference_bleu.formulas.numbers import exact_number

#: How far from 1 the sum of weights may be: room for float thirds (1/3 as a double), no more.
WEIGHT_SUM_TOLERANCE = Fraction(1, 10**9)

WeightLike = int | float | Fraction | Decimal | str


#: The largest N accepted (spec BLEU-WEIGHTS): far above any order in use (4; 1..9 in studies), and
#: small enough that counting stays quadratic-free in practice (a segment has at most N n-gram tables).
MAX_ORDER = 100


def _weight(value: object, n: int) -> Fraction:
    weight = exact_number(value, f"w_{n}", "BLEU-WEIGHTS")
    if weight < 0:
        raise BleuOptionError("BLEU-WEIGHTS", f"w_{n} must not be negative, got {value!r}")
    return weight


def weights_w_n(
    N: int, weights: Sequence[WeightLike] | None = None, *, sum_to_one: bool = True
) -> tuple[Fraction, ...]:
    """BLEU-WEIGHTS. The weights w_1..w_N, exact; uniform 1/N when none are given.

    Papineni et al. 2002, sec. 2.3: "uniform weights", w_n = 1/N, baseline N = 4; the
    paper asks for positive weights summing to one. This reference accepts (spec EC-007)
    non-negative weights, at least one positive, summing to one within 10^-9 (so that
    float thirds pass; the weights are then used as given, never renormalised). With
    ``sum_to_one=False`` any non-negative weights are used as given (nltk's behaviour).
    Floats are taken at their exact binary value; strings such as ``"1/3"`` are exact.

    >>> weights_w_n(4)
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4))
    >>> weights_w_n(2, ["1/3", "2/3"])
    (Fraction(1, 3), Fraction(2, 3))
    """
    if isinstance(N, bool) or not isinstance(N, int) or not 1 <= N <= MAX_ORDER:
        raise BleuOptionError("BLEU-WEIGHTS", f"N (max_order) must be an int in 1..{MAX_ORDER}, got {N!r}")
    if weights is None:
        return (Fraction(1, N),) * N
    if isinstance(weights, str | bytes) or not isinstance(weights, Sequence):
        raise BleuOptionError("BLEU-WEIGHTS", f"weights must be a sequence, got {type(weights).__name__}")
    if len(weights) != N:
        raise BleuOptionError("BLEU-WEIGHTS", f"{len(weights)} weights given for N = {N}")
    w = tuple(_weight(value, n) for n, value in enumerate(weights, start=1))
    if not any(w):
        raise BleuOptionError("BLEU-WEIGHTS", "at least one weight must be positive")
    mass = sum(w, Fraction(0))
    if sum_to_one and abs(mass - 1) > WEIGHT_SUM_TOLERANCE:
        raise BleuOptionError("BLEU-WEIGHTS", f"weights must sum to 1, they sum to {float(mass)!r}")
    return w


def individual_weights(n: int, N: int) -> tuple[Fraction, ...]:
    """BLEU-INDIVIDUAL. Weights of the individual n-gram score: w_n = 1, every other weight 0.

    The seed tutorials' "1-gram BLEU ... 4-gram BLEU": BP · p_n (spec EC-007 for the zeros).

    >>> individual_weights(2, 4)
    (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1))
    """
    if not 1 <= n <= N:
        raise BleuOptionError("BLEU-INDIVIDUAL", f"order {n} is not within 1..{N}")
    return tuple(Fraction(int(k == n)) for k in range(1, N + 1))


def cumulative_weights(n: int, N: int) -> tuple[Fraction, ...]:
    """BLEU-CUMULATIVE. Weights of the cumulative n-gram score: 1/n on orders 1..n, 0 above.

    The seed tutorials' "n-gram cumulative BLEU": BP · (p_1 ··· p_n)^(1/n).

    >>> cumulative_weights(2, 4)
    (Fraction(1, 2), Fraction(1, 2), Fraction(0, 1), Fraction(0, 1))
    """
    if not 1 <= n <= N:
        raise BleuOptionError("BLEU-CUMULATIVE", f"order {n} is not within 1..{N}")
    return tuple(Fraction(1, n) if k <= n else Fraction(0) for k in range(1, N + 1))


def effective_order_weights(weights: Sequence[Fraction], totals: Sequence[int]) -> tuple[Fraction, ...]:
    """BLEU-EFFECTIVE-ORDER. Drop the orders with no candidate n-grams; renormalise the rest.

    Not in Papineni et al. 2002 (spec EC-003): sacrebleu's ``effective_order``. An order n
    with l_n = 0 gets weight 0; every other w_n becomes w_n / Σ_{kept} w_k. When no weighted
    order is kept, every weight is 0.

    >>> effective_order_weights(weights_w_n(4), [3, 2, 1, 0])
    (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3), Fraction(0, 1))
    """
    kept = [w if total > 0 else Fraction(0) for w, total in zip(weights, totals, strict=True)]
    mass = sum(kept, Fraction(0))
    if mass == 0:
        return tuple(Fraction(0) for _ in kept)
    return tuple(w / mass for w in kept)


def _weighted_log_sum(p: Sequence[Real], w: Sequence[Fraction]) -> Decimal:
    """Σ w_n log p_n over the orders with w_n > 0 (a zero weight contributes nothing, EC-007)."""
    total = Decimal(0)
    for p_n, w_n in zip(p, w, strict=True):
        if w_n:
            total += to_decimal(w_n) * ln(p_n)
    return total


def log_bleu(c: int, r: Length, p: Sequence[Real], w: Sequence[Fraction]) -> Decimal:
    """BLEU-LOG. log BLEU = min(1 - r/c, 0) + Σ_n w_n log p_n. Papineni et al. 2002, sec. 2.3.

    In the current decimal context; ``-Infinity`` when BLEU is 0 (a weighted p_n = 0, or
    BP = 0). ``p`` holds each order's (possibly smoothed) precision.

    >>> float(log_bleu(c=4, r=4, p=[Fraction(1), Fraction(1), Fraction(1, 2), Fraction(1)],
    ...                w=[Fraction(1, 4)] * 4))  # -ln(2) / 4
    -0.17328679513998632
    """
    exponent = log_brevity_penalty(c, r)
    log_bp = Decimal("-Infinity") if exponent is None else to_decimal(exponent)
    return log_bp + _weighted_log_sum(p, w)


def bleu(c: int, r: Length, p: Sequence[Real], w: Sequence[Fraction]) -> Decimal:
    """BLEU-SCORE. BLEU = BP · exp(Σ_{n=1}^{N} w_n log p_n). Papineni et al. 2002, sec. 2.3.

    In the current decimal context. Exactly 1 when every weighted p_n is 1 and c >= r;
    exactly 0 when a weighted p_n is 0 (log 0 = -infinity, its limit) or BP = 0.

    >>> bleu(c=3, r=3, p=[Fraction(1)] * 4, w=[Fraction(1, 4)] * 4)
    Decimal('1')
    >>> bleu(c=7, r=7, p=[Fraction(2, 7), Fraction(0), Fraction(0), Fraction(0)],
    ...      w=[Fraction(1, 4)] * 4)
    Decimal('0')
    """
    return brevity_penalty(c, r) * exp(_weighted_log_sum(p, w))
