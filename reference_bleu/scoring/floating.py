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
from dataclasses import dataclass
from fractions import Fraction

from reference_bleu.conventions.options import Arithmetic, BleuOptions
from reference_bleu.errors import BleuInputError, BleuOptionError
from reference_bleu.formulas.counting import NGramCounts
from reference_bleu.formulas.length import Length
from reference_bleu.formulas.smoothing import COCO_SMALL, COCO_TINY, LastSegment, SmoothingAssertionError
from reference_bleu.formulas.statistics import Statistics
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


# --- The tools' own procedures (spec chapter 16) -----------------------------------------------------
#
# Each function below is one tool's arithmetic in the order of its operations, every operation a
# binary64 operation of the platform (``math.log`` and ``math.exp`` are the C library's), so that the
# number is the tool's to the last bit on the platform the spec's vectors name; their printed forms
# are the command line's (``reference_bleu.cli.printing``, ``reference_bleu.cli.toolforms``).

#: sacrebleu's smoothing methods (metrics/bleu.py:131-139), with their default values: floor's 0.1 is
#: a float, add-k's 1 an int.
SACREBLEU_SMOOTHING: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: sacrebleu's and multi-bleu.perl's log of 0 (sacrebleu utils.py:255-265 and multi-bleu.perl:174-177,
#: ``my_log``): an integer, exact in binary64.
LOG_ZERO = -9999999999


@dataclass(frozen=True)
class ToolScore:
    """What a tool prints from: its score and p_n on its own scale, BP, and the lengths c and r.
    sacrebleu's ``BLEUScore`` (metrics/bleu.py:80-109) holds them on 0-100, multi-bleu.perl on 0-1."""

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int


#: sacrebleu's ``BLEUScore``: score and p_n on 0-100.
SacrebleuScore = ToolScore


def sacrebleu_compute_bleu(
    row: Sequence[float], options: BleuOptions, rounding: Callable[[float], float] = float
) -> SacrebleuScore:
    """CONV-SACREBLEU. sacrebleu 2.6.0's ``BLEU.compute_bleu`` (metrics/bleu.py:213-292), operation
    for operation: the spec's steps S0 to S6.

    ``row`` is sacrebleu's summed statistics ``[c, r, m_1..m_N, l_1..l_N]``. ``rounding`` is the
    format the counts are held in: ``float`` for its integer sums (the observed score, the AR
    trials), ``to_binary32`` for its bootstrap resamples, summed as float32 (significance.py:80,
    ``dtype='float32'``), where under numpy 2's promotion rules (NEP 50) ``100. * m / l`` is
    computed in float32: each operation rounded to float32 (a binary64 operation rounded to
    binary32 is the binary32 operation: 53 >= 2 * 24 + 2 bits). The sum of the logarithms is
    Python's ``sum``, as sacrebleu's: a left fold up to CPython 3.11, compensated from 3.12.

    >>> from reference_bleu.conventions.options import make_options
    >>> sacrebleu_compute_bleu([4, 4, 3, 2, 1, 0, 4, 3, 2, 1], make_options(smoothing="exp")).score
    59.460355750136046
    """
    order = options.max_order
    method = options.smoothing
    default = SACREBLEU_SMOOTHING[method]
    value = float(options.smoothing_value) if options.smoothing_value is not None else default
    sys_len, ref_len = int(row[0]), int(row[1])
    correct, total = list(row[2 : 2 + order]), list(row[2 + order : 2 + 2 * order])
    bp = 1.0  # S1
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * order
    if not any(correct):  # S2
        return SacrebleuScore(0.0, tuple(precisions), bp, sys_len, ref_len)
    smooth_mteval = 1.0
    eff_order = order
    for n in range(1, order + 1):  # S3
        if method == "add-k" and n > 1 and value is not None:
            correct[n - 1] = rounding(correct[n - 1] + rounding(value))
            total[n - 1] = rounding(total[n - 1] + rounding(value))
        if total[n - 1] == 0:
            break
        if options.effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = rounding(100.0 / rounding(smooth_mteval * total[n - 1]))
            elif method == "floor" and value is not None:
                precisions[n - 1] = rounding(rounding(100.0 * value) / total[n - 1])
        else:
            precisions[n - 1] = rounding(rounding(100.0 * correct[n - 1]) / total[n - 1])
    logs = [LOG_ZERO if p == 0.0 else math.log(p) for p in precisions[:eff_order]]  # S4
    score = bp * math.exp(sum(logs) / eff_order)  # S5, S6
    return SacrebleuScore(score, tuple(precisions), bp, sys_len, ref_len)


def sacrebleu_row(stats: Statistics, orders: int) -> list[int]:
    """sacrebleu's statistics of a segment or a corpus: ``[c, r, m_1..m_N, l_1..l_N]`` (an integer r)."""
    return [stats.hyp_len, int(stats.ref_len), *stats.matches[:orders], *stats.totals[:orders]]


def multi_bleu_score(stats: Statistics) -> ToolScore | None:
    """CONV-MULTI-BLEU. multi-bleu.perl's arithmetic (moses-smt/mosesdecoder@34452895f3,
    scripts/generic/multi-bleu.perl:134-159) on four orders of statistics.

    p_n = m_n / l_n (0 where l_n = 0), BP = exp(1 - r/c) for c < r, and
    BLEU = BP · exp((((L_1 + L_2) + L_3) + L_4) / 4) with L_n = log p_n, or -9999999999 for p_n = 0.
    ``None`` when r = 0: the script then prints its line of zeros (and exits 1). c = 0 < r is
    refused: the script dies dividing r by c (:154).

    >>> multi_bleu_score(Statistics((4, 3, 2, 1), (4, 3, 2, 1), 4, 5)).score  # BLEU, p_n and BP on [0, 1]
    0.7788007830714049
    """
    if len(stats.matches) < 4:
        raise BleuInputError("CONV-MULTI-BLEU", "multi-bleu.perl counts four orders")
    c, r = stats.hyp_len, int(stats.ref_len)
    if r == 0:
        return None
    if c == 0:
        raise BleuInputError(
            "CONV-MULTI-BLEU", "multi-bleu.perl prints nothing here: c = 0 < r, and it dies dividing r by c"
        )
    precisions = tuple(m / t if t else 0.0 for m, t in zip(stats.matches[:4], stats.totals[:4], strict=True))
    bp = math.exp(1 - r / c) if c < r else 1.0
    logs = [LOG_ZERO if p == 0 else math.log(p) for p in precisions]
    bleu = bp * math.exp((((logs[0] + logs[1]) + logs[2]) + logs[3]) / 4)
    return ToolScore(bleu, precisions, bp, c, r)


#: mteval's orders: it counts and prints n-grams up to 9 (mteval-v13a.pl:219, ``$max_Ngram``).
MTEVAL_ORDERS = 9


@dataclass(frozen=True)
class MtevalScore:
    """What mteval-v13a.pl and mteval-v14.pl print of a system's BLEU: the individual and the
    cumulative n-gram scores of orders 1 to 9 (``cumulative[3]`` is its BLEU), the brevity penalty
    (``exp_len_score``) and the lengths."""

    individual: tuple[float, ...]
    cumulative: tuple[float, ...]
    bp: float
    hyp_len: int
    ref_len: int

    @property
    def bleu(self) -> float:
        """The cumulative 4-gram score: what the score line prints."""
        return self.cumulative[3]


def mteval_score(stats: Statistics) -> MtevalScore:
    """CONV-MTEVAL. ``bleu_score`` of mteval-v13a.pl (:847-876; mteval-v14.pl's is the same) on nine
    orders of statistics: smoothed BLEU, its individual and cumulative n-gram scores.

    BP = exp(min(0, 1 - r/c)) for c > 0, else 0; then for n = 1..9: log p_n is 0 where l_n = 0, the
    log of 1 / (2^k l_n) at the k-th order without a match, else log(m_n / l_n); individual_n =
    exp(log p_n) (no BP); the logs are summed left to right and cumulative_n = exp(S_n / n) · BP.

    >>> round(mteval_score(Statistics((3, 2, 1) + (0,) * 6, (3, 2, 1) + (0,) * 6, 3, 3)).bleu, 4)
    1.0
    """
    if len(stats.matches) < MTEVAL_ORDERS:
        raise BleuInputError("CONV-MTEVAL", f"mteval counts {MTEVAL_ORDERS} orders")
    c, r = stats.hyp_len, int(stats.ref_len)
    bp = math.exp(min(0, 1 - r / c)) if c > 0 else 0.0
    total = 0.0
    smooth = 1
    individual: list[float] = []
    cumulative: list[float] = []
    for n, (m, t) in enumerate(
        zip(stats.matches[:MTEVAL_ORDERS], stats.totals[:MTEVAL_ORDERS], strict=True), 1
    ):
        if t == 0:
            log_p = 0.0
        elif m == 0:
            smooth *= 2
            log_p = math.log(1 / (smooth * t))
        else:
            log_p = math.log(m / t)
        individual.append(math.exp(log_p))
        total += log_p
        cumulative.append(math.exp(total / n) * bp)
    return MtevalScore(tuple(individual), tuple(cumulative), bp, c, r)


#: nltk 3.10.4's SmoothingFunction defaults (bleu_score.py:517): epsilon (a float), alpha, k.
NLTK_EPSILON, NLTK_ALPHA, NLTK_K = 0.1, 5, 5
#: nltk's default weights (bleu_score.py:138): a tuple of floats, the only ones auto_reweigh re-weighs.
NLTK_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
#: What nltk's method0 puts for a zero precision: ``sys.float_info.min``.
NLTK_SENTINEL = 2.0**-1022

NltkValue = Fraction | float


def nltk_corpus_bleu(
    stats: Statistics,
    last: LastSegment,
    method: int = 0,
    weights: Sequence[float] = NLTK_WEIGHTS,
    *,
    auto_reweigh: bool = False,
) -> float | int:
    """CONV-NLTK. What nltk 3.10.4's ``corpus_bleu`` returns (bleu_score.py:137-282): the int 0 when
    no unigram matches, else ``bp * exp(fsum(w_i * log(p_i)))`` over the p_i > 0 that
    ``SmoothingFunction().method<k>`` leaves, in nltk's own mix of exact fractions and floats.

    ``stats`` are the corpus's under nltk's denominator, max(1, l_n) per segment (EC-015), with its
    c and r; ``last`` is what methods 5 to 7 read of the last segment (its raw l_n, and p_5 of it).

    >>> from reference_bleu.formulas.smoothing import LastSegment
    >>> nltk_corpus_bleu(Statistics((4, 3, 2, 1), (4, 3, 2, 1), 4, 4), LastSegment((4, 3, 2, 1), Fraction(0)))
    1.0
    """
    c, r = stats.hyp_len, stats.ref_len
    bp: float | int = 1 if c > r else 0 if c == 0 else math.exp(1 - r / c)
    if stats.matches[0] == 0:
        return 0
    counts = list(zip(stats.matches[: len(weights)], stats.totals[: len(weights)], strict=True))
    p = _nltk_smoothed(counts, method, c, last)
    w = tuple(weights)
    if auto_reweigh and c < 4 and w == NLTK_WEIGHTS:
        w = (1 / c,) * c
    s = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(w, p, strict=False) if p_i > 0)
    return bp * math.exp(s)


def _nltk_smoothed(counts: list[tuple[int, int]], method: int, c: int, last: LastSegment) -> list[NltkValue]:
    """``SmoothingFunction().method<k>`` on nltk's unreduced p_n = P_n / Q_n (bleu_score.py:561-716):
    exact fractions where nltk keeps them, floats where its expression makes one (a fraction met by a
    float is converted to the nearest double first, as Python does)."""
    if method not in _NLTK_METHODS:
        raise BleuOptionError("CONV-NLTK", f"nltk's smoothing methods are 0 to 7, not {method}")
    return _NLTK_METHODS[method](counts, c, last)


def _nltk_method_0(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    return [Fraction(m, t) if m else NLTK_SENTINEL for m, t in counts]


def _nltk_method_1(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    return [(m + NLTK_EPSILON) / t if m == 0 else Fraction(m, t) for m, t in counts]


def _nltk_method_2(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    return [Fraction(m + 1, t + 1) if n else Fraction(m, t) for n, (m, t) in enumerate(counts)]


def _nltk_method_3(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    p: list[NltkValue] = []
    k = 1
    for m, t in counts:
        if m == 0:
            p.append(1 / (2**k * t))
            k += 1
        else:
            p.append(Fraction(m, t))
    return p


def _nltk_method_4(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    p: list[NltkValue] = []
    k = 1
    for m, t in counts:
        if m == 0 and c > 1:
            p.append((1 / (2**k * NLTK_K / math.log(c))) / t)
            k += 1
        else:
            p.append(Fraction(m, t))
    return p


def _nltk_method_5(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    return _nltk_averaged([Fraction(m, t) for m, t in counts], last)


def _nltk_method_7(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    return _nltk_averaged(_nltk_method_4(counts, c, last), last)


def _nltk_averaged(p: list[NltkValue], last: LastSegment) -> list[NltkValue]:
    following = [*p[1:], last.next_precision]
    previous: NltkValue = p[0] + 1
    out: list[NltkValue] = []
    for p_n, p_next in zip(p, following, strict=True):
        previous = (previous + p_n + p_next) / 3
        out.append(previous)
    return out


def _nltk_method_6(counts: list[tuple[int, int]], c: int, last: LastSegment) -> list[NltkValue]:
    if len(counts) < 3:
        raise SmoothingAssertionError("SMOOTH-NLTK-6", "nltk's method 6 reads p_3: it needs three orders")
    if counts[2][0] == 0:
        raise SmoothingAssertionError("SMOOTH-NLTK-6", "nltk's method 6 asserts a trigram match")
    p: list[NltkValue] = [Fraction(m, t) for m, t in counts]
    for n in range(2, len(counts)):
        prior: NltkValue = 0 if p[n - 2] == 0 else p[n - 1] ** 2 / p[n - 2]
        p[n] = (counts[n][0] + NLTK_ALPHA * prior) / (last.totals[n] + NLTK_ALPHA)
    return p


_NLTK_METHODS: dict[int, Callable[[list[tuple[int, int]], int, LastSegment], list[NltkValue]]] = {
    0: _nltk_method_0,
    1: _nltk_method_1,
    2: _nltk_method_2,
    3: _nltk_method_3,
    4: _nltk_method_4,
    5: _nltk_method_5,
    6: _nltk_method_6,
    7: _nltk_method_7,
}
