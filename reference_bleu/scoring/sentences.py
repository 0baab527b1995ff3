"""Sentence scores at float speed, every one the correctly rounded double (spec NUM-SENTENCE).

:func:`sentence_scores` gives, for each row, exactly ``sentence_bleu(...).score``: the
correctly rounded double of the exact BLEU (NUM-EXACT), decided from integers by
:mod:`reference_bleu.scoring.decide` where it can be, else by the exact path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.conventions.profiles import profile_options, resolve
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.decide import decidable_options, decided_score, plain_point, plain_score
from reference_bleu.scoring.score import score_segments


@dataclass
class SentenceCounter:
    """How the rows of :func:`sentence_scores` were decided (for the measurement of NUM-SENTENCE)."""

    rows: int = 0
    #: Rows whose options this module does not decide (the whole batch then goes the exact way).
    unsupported: int = 0
    #: Rows whose interval could not decide the double: scored by the exact path.
    fallback: int = 0


def sentence_scores(
    hypotheses: Any,
    references: Any,
    profile: str | None = None,
    *,
    counter: SentenceCounter | None = None,
    **options: Any,
) -> list[float]:
    """NUM-SENTENCE. ``[sentence_bleu(h, refs, profile, **options).score for h, refs in ...]``, fast.

    Each row's score is the correctly rounded double of its exact sentence BLEU (NUM-EXACT),
    identical to :func:`reference_bleu.sentence_bleu`'s ``score``; the exact path runs only
    for the rows this module cannot decide (``counter`` counts them). Rows are checked as
    :func:`reference_bleu.corpus_bleu` checks a corpus (BLEU-INPUT), so an error names the row.

    >>> sentence_scores(["the cat sat".split(), "a dog".split()],
    ...                 [["the cat sat".split()], ["the dog barked".split()]], max_order=1)
    [1.0, 0.3032653298563167]

    (p_1 = 1/2 and BP = exp(1 - 3/2) in the second row: 0.5 · e^-0.5.)
    """
    if profile is None:
        opts = make_options(**options)
    else:
        merged, _overridden = profile_options(resolve(profile), options)
        opts = make_options(**merged)
    count = counter if counter is not None else SentenceCounter()
    hyps, refs = validate_corpus(hypotheses, references, no_reference=opts.no_reference, empty_corpus="zero")
    count.rows += len(hyps)
    rules = opts.segment_rules
    if rules.drops_segments or rules.candidates_checked or not decidable_options(opts):
        # A segment may vanish (then sentence_bleu's one-segment corpus is EC-012's), or the
        # point takes logarithms this module does not decide: each row the exact way.
        count.unsupported += len(hyps)
        return [score_segments(fast_statistics([h], [r], opts.statistics_orders, opts.ref_length,
                                               rules=rules, keep_segments=True), opts).score
                for h, r in zip(hyps, refs, strict=True)]  # fmt: skip
    plain = plain_point(opts)
    scores: list[float] = []
    for i, (hyp, given) in enumerate(zip(hyps, refs, strict=True)):
        row = rules.references(given, i)
        score = plain_score(hyp, row, plain, opts.ref_length) if plain is not None and row else None
        if score is None:
            orders = opts.statistics_orders
            (segment,) = fast_statistics(
                [hyp], [given], orders, opts.ref_length, rules=rules, keep_segments=True, start=i
            )
            score = _decided_or_exact(segment, opts, 1, count)
        scores.append(score)
    return scores


def segment_scores(
    segments: Sequence[Statistics], options: BleuOptions, *, counter: SentenceCounter | None = None
) -> list[float]:
    """NUM-SENTENCE. Each segment's ``score_segments([segment], options).reported``, fast.

    The number a point's tool reports (``scale``): the correctly rounded double of BLEU, or of
    100·BLEU under ``scale="percent"``, for the command line's ``score -sl`` (spec CLI-OUTPUT).
    Segments have ``options.statistics_orders`` orders.
    """
    count = counter if counter is not None else SentenceCounter()
    count.rows += len(segments)
    if not decidable_options(options):
        count.unsupported += len(segments)
        return [score_segments([segment], options).reported for segment in segments]
    factor = 100 if options.scale == "percent" else 1
    return [_decided_or_exact(segment, options, factor, count) for segment in segments]


def _decided_or_exact(
    segment: Statistics, options: BleuOptions, factor: int, count: SentenceCounter
) -> float:
    score = decided_score(segment, options, factor)
    if score is not None:
        return score
    count.fallback += 1
    result = score_segments([segment], options)
    return result.score if factor == 1 else result.reported
