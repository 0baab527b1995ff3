"""The Python API: ``corpus_bleu`` and ``sentence_bleu`` (spec API)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reference_bleu.evaluation import Evaluation, evaluate, macro_average
from reference_bleu.exact import Real, correctly_rounded, published
from reference_bleu.inputs import validate_corpus
from reference_bleu.length import Length, brevity_penalty
from reference_bleu.options import BleuOptions, make_options
from reference_bleu.statistics import Statistics, corpus_statistics, segment_statistics


@dataclass(frozen=True)
class BleuResult:
    """The score and everything behind it.

    ``score`` is the correctly rounded double of the exact BLEU; ``score_decimal`` the same
    value to 40 significant digits. ``precisions`` are the exact unsmoothed p_n
    (``None`` where 0/0); ``smoothed_precisions`` what entered the formula.
    """

    score: float
    score_decimal: Decimal
    statistics: Statistics
    brevity_penalty: float
    brevity_penalty_decimal: Decimal
    smoothed_precisions: tuple[float | None, ...]
    effective_weights: tuple[Fraction, ...]
    options: BleuOptions

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
        """The options' signature (see :meth:`BleuOptions.signature`)."""
        return self.options.signature()


def score_segments(segments: Sequence[Statistics], options: BleuOptions) -> BleuResult:
    """Score segment statistics (with ``options.statistics_orders`` orders) under validated options."""
    total = corpus_statistics(segments, options.statistics_orders)
    last: list[Evaluation] = []

    def run() -> Decimal:
        if options.aggregation == "macro":
            return macro_average(segments, options)
        last.append(evaluate(total, options))
        return last[-1].score

    score = correctly_rounded(run)
    bp = correctly_rounded(lambda: brevity_penalty(total.hyp_len, total.ref_len))
    evaluation = last[-1] if last else None
    smoothed: tuple[Real | None, ...] = evaluation.p if evaluation else (None,) * options.max_order
    return BleuResult(
        score=float(score),
        score_decimal=published(score),
        statistics=total.truncated(options.max_order),
        brevity_penalty=float(bp),
        brevity_penalty_decimal=published(bp),
        smoothed_precisions=tuple(None if p is None else float(p) for p in smoothed),
        effective_weights=evaluation.w if evaluation else options.weights,
        options=options,
    )


def corpus_bleu(hypotheses: Any, references: Any, **options: Any) -> BleuResult:
    """Corpus BLEU (Papineni et al. 2002, sec. 2.3): micro-averaged statistics, one BP.

    ``hypotheses``: a sequence of token sequences. ``references``: one entry per
    hypothesis, each a sequence of token sequences. Options (spec API-OPTIONS):
    ``max_order`` (N), ``weights``, ``ref_length``, ``smoothing``, ``smoothing_value``,
    ``effective_order``, ``zero_precision``, ``undefined_precision``, ``aggregation``,
    ``unnormalized_weights``.

    >>> result = corpus_bleu([["the", "cat"]], [[["the", "cat"]]], max_order=2)
    >>> result.score, result.matches, result.totals
    (1.0, (2, 1), (2, 1))
    """
    return corpus_bleu_with(make_options(**options), hypotheses, references)


def corpus_bleu_with(options: BleuOptions, hypotheses: Any, references: Any) -> BleuResult:
    """:func:`corpus_bleu` with options already validated by :func:`make_options`."""
    hyps, refs = validate_corpus(hypotheses, references)
    segments = [
        segment_statistics(h, r, options.statistics_orders, options.ref_length)
        for h, r in zip(hyps, refs, strict=True)
    ]
    return score_segments(segments, options)


def sentence_bleu(hypothesis: Any, references: Any, **options: Any) -> BleuResult:
    """Sentence BLEU: the corpus BLEU of a one-segment corpus (spec EC-009).

    >>> sentence_bleu("it is ship".split(), ["it is ship".split()], max_order=3).score
    1.0
    """
    return corpus_bleu([hypothesis], [references], **options)


def score_statistics(segments: Sequence[Statistics], **options: Any) -> BleuResult:
    """BLEU from already computed segment statistics (for merged or streamed scoring).

    The statistics must have ``statistics_orders`` orders for the options given.
    """
    opts = make_options(**options)
    return score_segments(list(segments), opts)
