"""The scoring pass: segment statistics and a point of the convention space in, the result out
(spec BLEU-EVAL).

The pass every caller takes (the API, the command line, the runner's reference, the
attribution, the integrations): the units the formula is applied to (the corpus, or each
segment under macro averaging, EC-009), their score decided as a double from integers where
it can be (:mod:`reference_bleu.scoring.decide`, NUM-SENTENCE), else evaluated exactly
(:mod:`reference_bleu.scoring.evaluation`, NUM-EXACT) or in the point's floating-point arithmetic
(:mod:`reference_bleu.scoring.floating`, CONV-ARITH), and the number as the point's tool reports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Any

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuInputError
from reference_bleu.formulas.exact import WORKING_DIGITS, correctly_rounded, published
from reference_bleu.formulas.length import Length
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS, LastSegment
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.decide import (
    cached_plain_point,
    decidable_options,
    decided_evaluation,
    exp_rounded,
    log_bp,
    plain_evaluation,
)
from reference_bleu.scoring.evaluation import (
    Evaluation,
    conventional_bp,
    conventional_total,
    evaluate,
    last_segment,
    macro_average,
)
from reference_bleu.scoring.floating import float_mean, float_score


@dataclass(frozen=True)
class BleuResult:
    """The score and everything behind it.

    ``score`` is the correctly rounded double of the exact BLEU on [0, 1]; ``score_decimal`` the
    same value to 40 significant digits, computed on first access where the double was decided
    without it (NUM-SENTENCE). ``reported`` is the number as the point's tool reports it (its
    arithmetic and scale: sacrebleu's 0-100), ``reported_text`` as it prints it (its decimals);
    ``float(result)`` is ``reported`` and ``str(result)`` one line as the tools print it (API).
    ``precisions`` are the exact unsmoothed p_n (``None`` where 0/0); ``smoothed_precisions`` what
    entered the formula.
    """

    score: float
    #: ``score_decimal``'s value, or the NUM-EXACT evaluation that gives it, run once on first access.
    _score_decimal: Decimal | Callable[[], Decimal] = field(repr=False, compare=False)
    statistics: Statistics
    brevity_penalty: float
    brevity_penalty_decimal: Decimal
    smoothed_precisions: tuple[float | None, ...]
    effective_weights: tuple[Fraction, ...]
    options: BleuOptions
    #: The number as the point's tool reports it (EC-013): its arithmetic, scale and rounding.
    reported: float = 0.0
    #: ``reported`` as the tool prints it (``round_digits`` decimals, else ``repr``).
    reported_text: str = ""
    #: The profile this result was computed under (spec CONV-PROFILES), if one was named.
    profile: str | None = None
    #: Options given beside the profile that changed its value (the result is then not the tool's).
    overridden: tuple[str, ...] = ()

    def __float__(self) -> float:
        """The number as the point's tool reports it (``reported``: the profile's scale, every digit):
        ``float(corpus_bleu(..., profile="sacrebleu"))`` is on 0-100 as sacrebleu's ``.score``; without a
        profile it is ``score``."""
        return self.reported

    def __str__(self) -> str:
        """One line as the tools print it: the reported number (the profile's scale and decimals), the
        precisions on that scale, BP, ratio and lengths, e.g.
        ``BLEU = 48.9 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)``."""
        percent = self.options.scale == "percent"
        shown = "/".join(
            "undef" if p is None else (f"{float(p) * 100:.1f}" if percent else f"{float(p):.4f}")
            for p in self.precisions
        )
        ratio = f"{float(self.ratio):.3f}" if self.ratio is not None else "undef"
        return (
            f"BLEU = {self.reported_text} {shown} (BP = {self.brevity_penalty:.3f} ratio = {ratio} "
            f"hyp_len = {self.hyp_len} ref_len = {self.ref_len})"
        )

    @property
    def score_decimal(self) -> Decimal:
        """The exact BLEU correctly rounded to 40 significant digits (NUM-EXACT), computed once."""
        value = self._score_decimal
        if not isinstance(value, Decimal):
            value = value()
            object.__setattr__(self, "_score_decimal", value)  # a cache: the value never changes
        return value

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with its ``score_decimal`` (an evaluation still to run is a closure)."""
        return {**self.__dict__, "_score_decimal": self.score_decimal}

    @property
    def matches(self) -> tuple[int, ...]:
        """Clipped matches per order, index 0 = unigrams."""
        return self.statistics.matches

    @property
    def totals(self) -> tuple[int, ...]:
        """Candidate n-grams per order, index 0 = unigrams."""
        return self.statistics.totals

    @property
    def hyp_len(self) -> int:
        """c, the total candidate length."""
        return self.statistics.hyp_len

    @property
    def ref_len(self) -> Length:
        """r, the effective reference length."""
        return self.statistics.ref_len

    @property
    def precisions(self) -> tuple[Fraction | None, ...]:
        """The exact modified precisions p_n = matches/totals, ``None`` where 0/0."""
        return tuple(Fraction(m, t) if t else None for m, t in zip(self.matches, self.totals, strict=True))

    @property
    def ratio(self) -> Fraction | None:
        """c / r, exact; ``None`` when r = 0."""
        return Fraction(self.hyp_len) / self.ref_len if self.ref_len else None

    @property
    def signature(self) -> str:
        """The options' signature (see :meth:`BleuOptions.signature`), after the profile's name if any."""
        if self.profile is None:
            return self.options.signature()
        changed = f"|overridden:{','.join(self.overridden)}" if self.overridden else ""
        return f"profile:{self.profile}{changed}|{self.options.signature()}"


def score(point: Point, segments: Sequence[Statistics]) -> BleuResult:
    """The scoring pass (spec BLEU-EVAL): the result of segment statistics at a point of the convention
    space.

    ``segments`` have ``point.options.statistics_orders`` orders (one sum, or every segment where
    :func:`needs_segments`). The steps, in order: the units the formula is applied to
    (:func:`scored_units`: the corpus, or each segment under macro averaging, EC-009); their score's
    double decided from integers where it can be (:func:`_decided`, NUM-SENTENCE), else evaluated
    exactly and rounded once (NUM-EXACT), or in the point's floating-point arithmetic (CONV-ARITH);
    the BP; the number as the point's tool reports it (EC-013). The result is labelled with the
    profile the point was resolved from, if any.
    """
    options = point.options
    if not segments:
        _refuse_empty(options)
        return empty_corpus_result(point)
    units = scored_units(segments, options)
    total = conventional_total(segments, options) if options.aggregation == "macro" else units[0][0]
    evaluations: list[Evaluation] = []

    def run() -> Decimal:
        exact, evaluation = _evaluated(units, options)
        evaluations[:] = [] if evaluation is None else [evaluation]
        return exact

    score_decimal: Decimal | Callable[[], Decimal]
    decided = _decided(units, options)
    if decided is None:
        exact = correctly_rounded(run)
        score_decimal = published(exact)
        evaluation = evaluations[-1] if evaluations else None
        value = float(exact) if options.arithmetic == "exact" else float_value(units, options)
        reported = value * 100 if options.scale == "percent" else value
        if options.scale == "percent" and options.arithmetic == "exact":
            reported = float(exact * 100)
        smoothed: tuple[float | None, ...] = (None,) * options.max_order
        weights = options.weights
        if evaluation is not None:
            smoothed = tuple(None if p is None else float(p) for p in evaluation.p)
            weights = evaluation.w
    else:
        value, smoothed, weights = decided
        score_decimal = lambda: published(correctly_rounded(run))  # noqa: E731 -- run on first access
        reported = value
    bp, bp_decimal = _brevity_penalty(total, options)
    return BleuResult(
        score=value,
        _score_decimal=score_decimal,
        statistics=total if len(total.matches) == options.max_order else total.truncated(options.max_order),
        brevity_penalty=bp,
        brevity_penalty_decimal=bp_decimal,
        smoothed_precisions=smoothed,
        effective_weights=weights,
        options=options,
        reported=reported,
        reported_text=printed(reported, options.round_digits),
        profile=point.profile,
        overridden=point.overridden,
    )


def scored_units(
    segments: Sequence[Statistics], options: BleuOptions
) -> list[tuple[Statistics, LastSegment]]:
    """What the formula is applied to: the corpus (micro), or each segment alone (macro, EC-009).

    Each unit comes with the last segment's statistics that nltk's smoothing methods 5 to 7 read.
    Smoothing applies to each unit's counts (EC-011).
    """
    if options.aggregation == "macro":
        return [(conventional_total([s], options), last_segment(s, options)) for s in segments]
    if len(segments) == 1 and _own_total(segments[0], options):
        return [(segments[0], last_segment(segments[0], options))]
    return [(conventional_total(segments, options), last_segment(segments[-1], options))]


#: EC-012: the score (and BP) of an empty corpus under each value of ``empty_corpus`` that scores it.
EMPTY_CORPUS_SCORE = {"zero": 0, "one": 1}


def _own_total(segment: Statistics, options: BleuOptions) -> bool:
    """Whether a segment alone is its own total under the point's denominator (BLEU-CORPUS of one
    segment: the same counts, r an int as it is normalised; EC-015's max(1, l_n) aside)."""
    return (
        options.denominator == "l_n"
        and type(segment.ref_len) is int
        and len(segment.matches) == options.statistics_orders
    )


def _refuse_empty(options: BleuOptions) -> None:
    """EC-012: an empty corpus is an error, unless the point scores it (0 or 1)."""
    if options.empty_corpus == "error":
        raise BleuInputError("EC-012", "the corpus is empty: BLEU is defined for at least one segment")


def _evaluated(
    units: Sequence[tuple[Statistics, LastSegment]], options: BleuOptions
) -> tuple[Decimal, Evaluation | None]:
    """The score of the scored units in the current decimal context: the mean of each segment's
    (macro, EC-009), or the corpus's, with its evaluation (micro)."""
    if options.aggregation == "macro":
        return macro_average(units, options), None
    evaluation = evaluate(*units[0], options=options)
    return evaluation.score, evaluation


def _brevity_penalty(total: Statistics, options: BleuOptions) -> tuple[float, Decimal]:
    """The point's BP of the corpus: its correctly rounded double and 40-digit decimal (NUM-EXACT).

    Exactly 1 without an evaluation where the paper's log BP is 0 (c >= r: exp(0) = 1, BLEU-BP), the
    case of most sentences; for the paper's BP with 0 < c < r, decided from the exp interval of
    log BP = 1 - r/c, remembered per value (NUM-SENTENCE: rows share their ratios); otherwise, or
    where the interval does not decide, evaluated exactly."""
    if options.brevity_penalty == "paper":
        c, r = total.hyp_len, total.ref_len
        if c >= r:
            return 1.0, Decimal(1)
        if c > 0:
            rounded = exp_rounded(*log_bp(c, r))
            if rounded is not None:
                return rounded
    bp = correctly_rounded(lambda: conventional_bp(total, options))
    return float(bp), published(bp)


#: The effective weights of a plain point with effective order and k defined orders of N: 1/k each.
@lru_cache(maxsize=256)
def _effective_weights(N: int, k: int) -> tuple[Fraction, ...]:
    return (Fraction(1, k),) * k + (Fraction(0),) * (N - k)


def _decided(
    units: Sequence[tuple[Statistics, LastSegment]], options: BleuOptions
) -> tuple[float, tuple[float | None, ...], tuple[Fraction, ...]] | None:
    """NUM-SENTENCE. A micro-averaged exact score on the unit scale decided without decimal arithmetic:
    its correctly rounded double, its settled p_n (as doubles) and w_n (all rational, so the same at
    any precision), or ``None`` where :func:`score` must evaluate it (NUM-EXACT).

    At a plain point (:func:`reference_bleu.scoring.decide.plain_point`) on integers alone
    (:func:`reference_bleu.scoring.decide.plain_evaluation`); elsewhere through the settled
    precisions (:func:`reference_bleu.scoring.decide.decided_evaluation`)."""
    if options.aggregation == "macro" or options.scale != "unit" or not decidable_options(options):
        return None
    stats, last = units[0]
    plain = cached_plain_point(options)
    if plain is not None and stats.hyp_len > 0:
        value, precisions, d = plain_evaluation(
            stats.matches, stats.totals, stats.hyp_len, stats.ref_len, plain
        )
        if value is None:
            return None
        weights = _effective_weights(plain.orders, d) if plain.effective_order else options.weights
        return value, tuple(None if p is None else p[0] / p[1] for p in precisions), weights
    value, settled = decided_evaluation(stats, last, options)
    if value is None or not all(p is None or isinstance(p, Fraction) for p in settled.p):
        return None
    return value, tuple(None if p is None else float(p) for p in settled.p), settled.w


def estimated_score(segments: Sequence[Statistics], options: BleuOptions) -> float:
    """``score(Point.of(options), segments).score`` to within an ulp, at a third of its cost: the
    pass's formula evaluated once, at ``WORKING_DIGITS`` digits (NUM-EXACT's first run, relative
    error about 1e-45), not rounded with proof. It raises where :func:`score` raises.

    For comparisons within a tolerance, never for a reported score: the conformance runner's
    predictions (spec CONF-FINGERPRINT, CONF-VERDICT) compare answers to 1e-9 and are computed
    thousands of times a run.
    """
    if not segments:
        _refuse_empty(options)
        return float(EMPTY_CORPUS_SCORE[options.empty_corpus])
    total = conventional_total(segments, options)
    units = scored_units(segments, options)
    with localcontext(Context(prec=WORKING_DIGITS)):
        conventional_bp(total, options)  # its errors (EC-008's c = 0) are the score's too
        if options.arithmetic != "exact":
            return float_value(units, options)
        return float(_evaluated(units, options)[0])


def printed(reported: float, digits: int | None) -> str:
    """EC-013. ``reported`` as the point's tool prints it: ``digits`` decimals, else ``repr``."""
    return repr(reported) if digits is None else f"{reported:.{digits}f}"


def empty_corpus_result(point: Point) -> BleuResult:
    """EC-012 under ``empty_corpus="zero"``: 0, BP 0 and no statistics (torchmetrics, coco, ignite
    micro); under ``"one"``: 1, BP 1 (every order 0/0 counted as 1)."""
    options = point.options
    N = options.max_order
    value = EMPTY_CORPUS_SCORE[options.empty_corpus]
    reported = float(value * 100 if options.scale == "percent" else value)
    return BleuResult(
        score=float(value),
        _score_decimal=Decimal(value),
        statistics=Statistics((0,) * N, (0,) * N, 0, 0),
        brevity_penalty=float(value),
        brevity_penalty_decimal=Decimal(value),
        smoothed_precisions=(None,) * N,
        effective_weights=options.weights,
        options=options,
        reported=reported,
        reported_text=printed(reported, options.round_digits),
        profile=point.profile,
        overridden=point.overridden,
    )


def float_value(units: Sequence[tuple[Statistics, LastSegment]], options: BleuOptions) -> float:
    """The score in the point's floating-point arithmetic (spec CONV-ARITH)."""

    def one(stats: Statistics, tail: LastSegment) -> float:
        with localcontext(Context(prec=WORKING_DIGITS)):
            evaluation = evaluate(stats, tail, options=options)
        return float_score(
            evaluation,
            stats.hyp_len,
            stats.ref_len,
            bp_rule=options.brevity_penalty,
            arithmetic=options.arithmetic,
            counts=stats.counts,
        )

    scores = [one(stats, tail) for stats, tail in units]
    return float_mean(scores, options.arithmetic) if options.aggregation == "macro" else scores[0]


def needs_segments(options: BleuOptions) -> bool:
    """Whether scoring reads each segment's statistics, not only their sum (EC-009, EC-015, SMOOTH-NLTK-5).

    Macro aggregation scores each segment; nltk's denominator is max(1, l_n) per segment;
    nltk's methods 5 to 7 read the last segment.
    """
    return (
        options.aggregation == "macro"
        or options.denominator == "max1-segment"
        or SMOOTHING_METHODS[options.smoothing].needs_last_segment
    )
