"""From sufficient statistics to the score: the order in which conventions apply (spec BLEU-EVAL).

The paper's BLEU under the options of spec API-OPTIONS, and every other point of the
convention space of chapter 13 (CONV), in this order:

0. A zero length that the point refuses (EC-004, ``zero_length="error"``: c = 0 or r = 0, where
   tensorflow/nmt divides by them; ``"error-c"``: c = 0 only, where r / c is computed;
   ``"error-r"``: r = 0 only, where c / r is), then
   an early return (EC-016): a tool that returns 0 when no unigram
   matches (nltk, ignite), when no order matches (sacrebleu), or when any order has no match
   (torchmetrics). The paper has none (``early_return="none"``).
1. Undefined orders (l_n = 0, spec EC-003): dropped with renormalised weights under
   ``effective_order``; else counted as a zero precision (``undefined_precision="zero"``),
   dropped without renormalising (``"skip"``), an error (``"error"``), a precision of 1
   (``"one"``: (0 + k) / (0 + k) of add-k code), or nltk's ``auto_reweigh`` (weights 1/c on
   orders 1..c when c < 4 = N and the weights are uniform, ``"reweigh-by-length"``), or passed
   to a smoothing that is defined
   on 0/0 (``"smoothed"``: pycocoevalcap's (0 + 1e-15) / (0 + 1e-9)).
2. Smoothing (spec SMOOTH) of the defined orders.
3. Zero precisions (m_n = 0 after smoothing, spec EC-002): the paper's limit, score 0
   (``zero_precision="limit"``); the order dropped without renormalising (``"skip"``); a
   sentinel precision (``"sentinel"``, nltk's ``sys.float_info.min``); or a constant in place
   of log 0 (``"log-constant"``, multi-bleu.perl's and sacrebleu's -9999999999).
4. BLEU-SCORE on what remains, with the paper's BP, pycocoevalcap's or the +1 rule (EC-017). An order whose
   weight is 0 never matters (EC-007); when no weighted order remains, the score is 0.
5. In the arithmetic of the point (EC-013): exact, or the canonical binary64 or binary32
   evaluation of :mod:`reference_bleu.scoring.floating`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.errors import BleuInputError, UndefinedPrecisionError
from reference_bleu.fast.counts import summed_statistics
from reference_bleu.formulas.combination import bleu, effective_order_weights
from reference_bleu.formulas.exact import Real, exp, ln, to_decimal
from reference_bleu.formulas.length import Length, brevity_penalty
from reference_bleu.formulas.smoothing import COCO_SMALL, COCO_TINY, LastSegment, smooth
from reference_bleu.formulas.statistics import Statistics


class Evaluation(NamedTuple):
    """The score in the current decimal context, with the p_n and w_n that produced it.

    ``p[n-1]`` is the (smoothed) precision of order n, ``None`` where it is undefined;
    ``w[n-1]`` the weight it finally carried (0 for a dropped order). ``log_zero`` is the
    constant that stood for log 0 (``zero_precision="log-constant"``), else ``None``.
    """

    score: Decimal
    p: tuple[Real | None, ...]
    w: tuple[Fraction, ...]
    log_zero: Fraction | None = None
    #: What entered the formula per order: p_n, 0 where undefined, the sentinel where zero.
    values: tuple[Real, ...] = ()


def early_return(stats: Statistics, options: BleuOptions) -> bool:
    """EC-016. True when the tool's early return gives 0 before smoothing.

    >>> from reference_bleu.conventions.options import make_options
    >>> early_return(Statistics((0, 0), (2, 1), 2, 2), make_options(max_order=2, early_return="no-match"))
    True
    """
    matches = stats.matches[: options.max_order]
    if options.early_return == "no-unigram-match":
        return matches[0] == 0
    if options.early_return == "no-match":
        return not any(matches)
    if options.early_return == "any-zero":
        return 0 in matches
    return False


def _undefined_orders(stats: Statistics, options: BleuOptions) -> list[Fraction]:
    """Step 1: the weights after the undefined orders are settled (EC-003)."""
    N = options.max_order
    w = list(options.weights)
    totals = stats.totals[:N]
    if options.effective_order:
        w = list(effective_order_weights(w, totals))
    # nltk re-weighs only its default weights, the tuple (0.25, 0.25, 0.25, 0.25): N = 4, uniform
    if (
        options.undefined_precision == "reweigh-by-length"
        and N == 4
        and stats.hyp_len < N
        and w == [Fraction(1, 4)] * 4
    ):
        c = stats.hyp_len
        w = [Fraction(1, c) if n <= c else Fraction(0) for n in range(1, N + 1)]
    for n, total in enumerate(totals):
        if total == 0 and w[n]:
            if options.undefined_precision == "error":
                raise UndefinedPrecisionError(
                    "EC-003", f"p_{n + 1} is 0/0: the candidate has no {n + 1}-grams"
                )
            if options.undefined_precision == "skip":
                w[n] = Fraction(0)
    return w


def coco_brevity_penalty(c: int, r: Length) -> Decimal:
    """EC-017. pycocoevalcap's BP: ratio = (c + 1e-15) / (r + 1e-9); exp(1 - 1/ratio) when ratio < 1.

    Every candidate with c <= r is penalised a little (ratio < 1 even when c = r); the
    constants are the binary64 values of the literals, exact. In the current decimal context.

    >>> coco_brevity_penalty(3, 3) < 1
    True
    """
    ratio = (c + COCO_TINY) / (r + COCO_SMALL)
    return exp(1 - 1 / ratio) if ratio < 1 else Decimal(1)


#: Each rule's BP for c < r as reports write it (EC-017).
BP_FORMULAS = {
    "paper": "exp(1 - r/c)",
    "coco": "exp(1 - (r + 1e-9)/(c + 1e-15))",
    "plus-one": "exp(1 - (r+1)/(c+1))",
}


def log_plus_one_brevity_penalty(c: int, r: Length) -> Fraction:
    """EC-017. log BP = min(0, 1 - (r + 1)/(c + 1)), exact: the code-summarisation scripts' BP.

    CodeBERT's ``code2nl/bleu.py`` (:141, from Moses' ``bleu.py``) adds 1 to both lengths, so
    a candidate shorter than its reference is penalised less than by the paper's exp(1 - r/c),
    and c = 0 gives exp(-r), never 0. At c >= r it is 0 (BP = 1), as the paper's.

    >>> log_plus_one_brevity_penalty(4, 6)
    Fraction(-2, 5)
    >>> log_plus_one_brevity_penalty(0, 3), log_plus_one_brevity_penalty(5, 3)
    (Fraction(-3, 1), Fraction(0, 1))
    """
    return min(Fraction(0), 1 - (Fraction(r) + 1) / (c + 1))


def evaluate(stats: Statistics, last: LastSegment | None = None, *, options: BleuOptions) -> Evaluation:
    """BLEU-EVAL. BLEU of ``stats`` under ``options``, in the current decimal context.

    Papineni et al. 2002, sec. 2.3 for the formula; spec EC-002, EC-003, EC-004, EC-007, EC-016,
    EC-017 and SMOOTH for the steps the paper leaves open, applied in the order of this
    module's docstring. ``last`` is what nltk's smoothing methods 5 to 7 read.

    >>> from reference_bleu.conventions.options import make_options
    >>> evaluate(Statistics((3, 2, 1), (3, 2, 1), 3, 3), options=make_options(max_order=3)).score
    Decimal('1')
    """
    settled = settle(stats, last, options=options)
    if settled.score == 0:  # an early return (EC-016)
        return settled
    w, values, log_zero = settled.w, settled.values, settled.log_zero

    # 4. BLEU-SCORE.
    if not any(w):
        score = Decimal(0)
    elif log_zero is None and options.brevity_penalty == "paper":
        score = bleu(stats.hyp_len, stats.ref_len, values, w)
    else:
        score = conventional_bp(stats, options) * exp(weighted_logs(values, w, log_zero))
    return settled._replace(score=score)


#: EC-004: whether a scored unit with lengths (c, r) is refused, for each value of ``zero_length``.
_ZERO_LENGTH_REFUSED: dict[str, Callable[[int, Length], bool]] = {
    "limit": lambda c, r: False,
    "error": lambda c, r: not (c and r),
    "error-c": lambda c, r: not c,
    "error-r": lambda c, r: not r,
}


def settle(stats: Statistics, last: LastSegment | None = None, *, options: BleuOptions) -> Evaluation:
    """Steps 0 to 3 of :func:`evaluate`: the p_n and w_n that enter BLEU-SCORE, not yet combined
    (EC-002's skip and renormalize set the weights of zero orders here).

    The score field is 0 after an early return (EC-016), else 1 (a placeholder: step 4 is
    the caller's, :func:`evaluate` in decimal, :mod:`reference_bleu.scoring.sentences` in binary64
    with an exact decision, spec NUM-SENTENCE). Smoothings that take logarithms (methods 4
    and 7) run in the current decimal context.
    """
    N = options.max_order
    if _ZERO_LENGTH_REFUSED[options.zero_length](stats.hyp_len, stats.ref_len):
        raise BleuInputError(
            "EC-004", f"c = {stats.hyp_len}, r = {stats.ref_len}: the ratio c / r or r / c is undefined"
        )
    if early_return(stats, options):
        return Evaluation(Decimal(0), (None,) * N, (Fraction(0),) * N, None, (Fraction(0),) * N)
    counts = stats.counts[:N]
    w = _undefined_orders(stats, options)

    # 2. Smoothing of the defined orders (a prefix: l_n never grows with n).
    if options.undefined_precision == "smoothed":  # the smoothing itself is defined on 0/0
        defined = list(counts)
    else:
        defined = [pair for pair in counts if pair.total > 0]
    next_matches = stats.matches[N] if len(defined) == N and len(stats.matches) > N else 0
    smoothed = smooth(
        options.smoothing, defined, stats.hyp_len, next_matches, options.smoothing_value, last=last
    )
    undefined: Real | None = Fraction(1) if options.undefined_precision == "one" else None
    p: list[Real | None] = [*smoothed, *([undefined] * (N - len(defined)))]

    # 3. Zero precisions (EC-002); an undefined order still weighted counts as zero here.
    values: list[Real] = [Fraction(0) if p_n is None else p_n for p_n in p]
    log_zero: Fraction | None = None
    if options.zero_precision == "skip":
        w = [Fraction(0) if v == 0 else w_n for v, w_n in zip(values, w, strict=True)]
    elif options.zero_precision == "renormalize":  # the mean over the orders left
        w = list(effective_order_weights(w, [int(v != 0) for v in values]))
    elif options.zero_precision == "sentinel":
        values = [options.zero_constant if v == 0 else v for v in values]
    elif options.zero_precision == "log-constant":
        log_zero = options.zero_constant
    return Evaluation(Decimal(1), tuple(p), tuple(w), log_zero, tuple(values))


def conventional_bp(stats: Statistics, options: BleuOptions) -> Decimal:
    """BP under the point's rule (EC-017): the paper's BLEU-BP, pycocoevalcap's, or the +1 rule."""
    if options.brevity_penalty == "coco":
        return coco_brevity_penalty(stats.hyp_len, stats.ref_len)
    if options.brevity_penalty == "plus-one":
        return exp(log_plus_one_brevity_penalty(stats.hyp_len, stats.ref_len))
    return brevity_penalty(stats.hyp_len, stats.ref_len)


def weighted_logs(values: Sequence[Real], w: Sequence[Fraction], log_zero: Fraction | None) -> Decimal:
    """Σ w_n log p_n over the weighted orders, ``log_zero`` standing for log 0 where given (EC-002)."""
    total = Decimal(0)
    for p_n, w_n in zip(values, w, strict=True):
        if w_n:
            log_p = to_decimal(log_zero) if p_n == 0 and log_zero is not None else ln(p_n)
            total += to_decimal(w_n) * log_p
    return total


def macro_average(units: Sequence[tuple[Statistics, LastSegment]], options: BleuOptions) -> Decimal:
    """BLEU-MACRO. The arithmetic mean of the segments' sentence BLEU (spec EC-009).

    Not the paper's corpus BLEU (which is BLEU-CORPUS, a micro-average); what averaging
    ``sentence_bleu`` over a test set computes. ``units`` pairs each segment's statistics
    (under the point's denominator) with what nltk's methods 5 to 7 read of it. In the
    current decimal context.

    >>> from reference_bleu.conventions.options import make_options
    >>> options = make_options(max_order=1)
    >>> one = Statistics((1,), (1,), 1, 1)
    >>> zero = Statistics((0,), (1,), 1, 1)
    >>> macro_average([(one, last_segment(one, options)), (zero, last_segment(zero, options))], options)
    Decimal('0.5')
    """
    total = sum((evaluate(stats, tail, options=options).score for stats, tail in units), Decimal(0))
    return total / len(units)


def last_segment(segment: Statistics, options: BleuOptions) -> LastSegment:
    """What nltk's methods 5 to 7 read of a segment: its l_n and p_{N+1} = m / max(1, l)."""
    N = options.max_order
    nxt = Fraction(segment.matches[N], max(1, segment.totals[N])) if len(segment.matches) > N else Fraction(0)
    return LastSegment(segment.totals, nxt)


def conventional_total(segments: Sequence[Statistics], options: BleuOptions) -> Statistics:
    """BLEU-CORPUS under the point's n-gram denominator (EC-015).

    ``l_n`` sums the segments' l_n; ``max1-segment`` sums max(1, l_n) of each segment (nltk);
    ``max1-total`` takes max(1, Σ l_n) (ignite). For one segment the two max rules agree.
    """
    if options.denominator == "max1-segment":
        segments = [replace(s, totals=tuple(max(1, t) for t in s.totals)) for s in segments]
    total = summed_statistics(segments, options.statistics_orders)  # BLEU-CORPUS, summed in C (NUM-FAST)
    if options.denominator == "max1-total":
        total = replace(total, totals=tuple(max(1, t) for t in total.totals))
    return total
