"""Sentence scores at float speed, every one the correctly rounded double (spec NUM-SENTENCE).

:func:`row_scores` gives, for each row, exactly ``sentence_bleu(...).score``: the
correctly rounded double of the exact BLEU (NUM-EXACT), decided from integers by
:mod:`reference_bleu.scoring.decide` where it can be, else by the exact path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.space import Point
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.decide import decidable_options, decided_score, plain_point, plain_score
from reference_bleu.scoring.score import score


@dataclass
class SentenceCounter:
    """How the rows of :func:`row_scores` were decided (for the measurement of NUM-SENTENCE)."""

    rows: int = 0
    #: Rows whose options this module does not decide (the whole batch then goes the exact way).
    unsupported: int = 0
    #: Rows whose interval could not decide the double: scored by the exact path.
    fallback: int = 0


def row_scores(
    options: BleuOptions, hypotheses: Any, references: Any, counter: SentenceCounter | None = None
) -> list[float]:
    """NUM-SENTENCE. Each row's sentence BLEU under ``options``, the correctly rounded double of its
    exact value, decided from integers where it can be (``counter`` counts the rows that were not).
    Rows are checked as a corpus is (BLEU-INPUT), so an error names the row.

    >>> from reference_bleu.conventions.options import make_options
    >>> row_scores(make_options(max_order=1), ["the cat sat".split(), "a dog".split()],
    ...            [["the cat sat".split()], ["the dog barked".split()]])
    [1.0, 0.3032653298563167]

    (p_1 = 1/2 and BP = exp(1 - 3/2) in the second row: 0.5 · e^-0.5.)
    """
    opts = options
    count = counter if counter is not None else SentenceCounter()
    hyps, refs = validate_corpus(hypotheses, references, no_reference=opts.no_reference, empty_corpus="zero")
    count.rows += len(hyps)
    rules = opts.segment_rules
    if rules.drops_segments or rules.candidates_checked or not decidable_options(opts):
        # A segment may vanish (then sentence_bleu's one-segment corpus is EC-012's), or the
        # point takes logarithms this module does not decide: each row the exact way.
        count.unsupported += len(hyps)
        return [score(Point.of(opts), fast_statistics([h], [r], opts.statistics_orders, opts.ref_length,
                                                      rules=rules, keep_segments=True)).score
                for h, r in zip(hyps, refs, strict=True)]  # fmt: skip
    plain = plain_point(opts)
    scores: list[float] = []
    for i, (hyp, given) in enumerate(zip(hyps, refs, strict=True)):
        row = rules.references(given, i)
        value = plain_score(hyp, row, plain, opts.ref_length) if plain is not None and row else None
        if value is None:
            orders = opts.statistics_orders
            (segment,) = fast_statistics(
                [hyp], [given], orders, opts.ref_length, rules=rules, keep_segments=True, start=i
            )
            value = _decided_or_exact(segment, opts, 1, count)
        scores.append(value)
    return scores


def segment_scores(
    segments: Sequence[Statistics], options: BleuOptions, *, counter: SentenceCounter | None = None
) -> list[float]:
    """NUM-SENTENCE. Each segment's ``score(Point.of(options), [segment]).reported``, fast.

    The number a point's tool reports (``scale``): the correctly rounded double of BLEU, or of
    100·BLEU under ``scale="percent"``, for the command line's ``score -sl`` (spec CLI-OUTPUT).
    Segments have ``options.statistics_orders`` orders.
    """
    count = counter if counter is not None else SentenceCounter()
    count.rows += len(segments)
    if not decidable_options(options):
        count.unsupported += len(segments)
        return [score(Point.of(options), [segment]).reported for segment in segments]
    factor = 100 if options.scale == "percent" else 1
    return [_decided_or_exact(segment, options, factor, count) for segment in segments]


def _decided_or_exact(
    segment: Statistics, options: BleuOptions, factor: int, count: SentenceCounter
) -> float:
    value = decided_score(segment, options, factor)
    if value is not None:
        return value
    count.fallback += 1
    result = score(Point.of(options), [segment])
    return result.score if factor == 1 else result.reported
