"""The fault catalogue's computations (spec CONF-DIAGNOSIS): each known bug of BLEU code as one change
of the reference, run at any point of the convention space.

A fault replaces one step of the paper's computation and keeps every other as the reference computes
it at the given options, so that a fault is found alone (at the paper's point) and combined with the
conventions a target was found to follow (its smoothing, its reference length rule, its N). The
steps a fault can replace, each a kind of :class:`Mutation`:

- the **input** the reference is given (:func:`on_input`): a transformation of the corpus, then the
  reference at the options (a reference read as characters, ``</s>`` left on, the sides swapped);
- the **counting** of one segment (:class:`Counting`, :func:`counted`): the n-grams, the clipped
  matches, the denominator, the candidate length or the best match length replaced, the statistics
  then scored by the reference (:func:`reference_bleu.scoring.score.estimated_score`);
- the **corpus statistics** (:func:`on_corpus_statistics`): the summed counts changed (integer
  division, pooled clipping);
- the **brevity penalty** (:func:`with_brevity_penalty`): BP(c, r) replaced in each scored unit, the
  rest of the unit's score as the reference gives it;
- the **combination** of the precisions (:func:`with_combination`): the reference's (smoothed)
  precisions and weights combined otherwise (an arithmetic mean, no root, no exponential);
- a computation of its own where the fault changes the shape of the formula (a score per reference,
  a brevity penalty per segment).

A prediction is a score, :data:`ERROR` where the faulty code raises, or None where the fault says
nothing at these options (a BP fault at c = 0, where each piece of faulty code fails its own way;
counts the reference cannot score, such as precisions above 1, under a smoothing). The runner never
counts a question a fault does not predict for or against it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Context, localcontext
from fractions import Fraction
from typing import Any

from reference_bleu.api import estimated_bleu
from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.errors import BleuError
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.counting import ngrams
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.length import Length, best_match_length
from reference_bleu.formulas.statistics import Statistics, corpus_statistics, normal_length
from reference_bleu.scoring.evaluation import (
    conventional_bp,
    conventional_total,
    early_return,
    evaluate,
    last_segment,
)
from reference_bleu.scoring.score import estimated_score

Tokens = Sequence[str]
Hypotheses = Sequence[Tokens]
References = Sequence[Sequence[Tokens]]
#: A score, ERROR (the faulty code raises there), or None (the fault predicts nothing there).
Prediction = float | str | None
#: What the faulty code answers where it raises.
ERROR = "error"
#: A fault's computation: the options of the point it is combined with, the corpus -> its prediction.
Mutation = Callable[[BleuOptions, Hypotheses, References], Prediction]
#: A count of the faulty computation: an integer, or a fraction (matches averaged over references).
Count = int | Fraction
#: Decimal digits the reference's evaluation is run at here (a prediction is compared to 1e-9).
DIGITS = 40


def reference(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """The reference's score at ``options``, or ERROR where it refuses the input."""
    try:
        return estimated_bleu(options, hyps, refs)
    except BleuError:
        return ERROR


def _segments(options: BleuOptions, hyps: Hypotheses, refs: References) -> list[tuple[Tokens, list[Tokens]]]:
    """The segments the reference counts at ``options``: the corpus validated, EC-004 to EC-006 applied
    (a dropped segment left out); a BleuError where the options refuse the input."""
    checked_hyps, checked_refs = validate_corpus(
        hyps, refs, no_reference=options.no_reference, empty_corpus=options.empty_corpus
    )
    rules = options.segment_rules
    kept: list[tuple[Tokens, list[Tokens]]] = []
    for i, (hyp, segment_refs) in enumerate(zip(checked_hyps, checked_refs, strict=True)):
        if not rules.keeps_candidate(hyp, i):
            continue
        references = rules.references(segment_refs, i)
        if references is not None:
            kept.append((hyp, list(references)))
    return kept


# --- the input -------------------------------------------------------------------------------


def on_input(transform: Callable[[Hypotheses, References], tuple[Hypotheses, References]]) -> Mutation:
    """A fault in what reaches the computation: the corpus transformed, then the reference at the options.
    A transformation that fails (IndexError, ValueError) is the faulty code's error."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        try:
            changed = transform(hyps, refs)
        except (IndexError, ValueError):
            return ERROR
        return reference(options, *changed)

    return mutation


# --- the counting of a segment ---------------------------------------------------------------

Clip = Callable[[Counter[tuple[str, ...]], Tokens, Sequence[Tokens], int, "Counting"], Count]
Total = Callable[[Counter[tuple[str, ...]], Tokens, Sequence[Tokens], Length, int], Count]


def paper_clip(
    counts: Counter[tuple[str, ...]], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    """BLEU-CLIP: Σ_g min(Count(g), Max_Ref_Count(g)), over the counting's n-grams."""
    most = counting.max_ref(refs, n)
    return sum((min(k, most[g]) for g, k in counts.items()), 0)


def paper_total(
    counts: Counter[tuple[str, ...]], hyp: Tokens, refs: Sequence[Tokens], r: Length, n: int
) -> Count:
    """BLEU-PREC's denominator: Σ_g Count(g)."""
    return sum(counts.values(), 0)


@dataclass(frozen=True)
class Counting:
    """How one segment is counted (BLEU-STATS): the paper's pieces, any of them replaced by a fault.

    ``ngrams`` (BLEU-NGRAM) gives a sentence's n-grams as hashable keys; ``clip`` the segment's clipped
    matches of one order (BLEU-CLIP); ``total`` its denominator (BLEU-PREC); ``length`` a sentence's
    length (BLEU-LEN-C, for c and the reference lengths); ``best_length`` the best match length
    (BLEU-LEN-BEST) from c and the references, under the options' rule unless replaced.
    """

    ngrams: Callable[[Tokens, int], Sequence[Any]] = ngrams
    clip: Clip = paper_clip
    total: Total = paper_total
    length: Callable[[Tokens], int] = len
    best_length: Callable[[int, Sequence[Tokens], Counting, str], Length] | None = None
    #: Counts kept in this many bits (an array of that integer type): each count wraps; None: exact.
    bits: int | None = None

    def counts(self, sentence: Tokens, n: int) -> Counter[Any]:
        """Count(g) of each of the sentence's n-grams (BLEU-COUNT), wrapped to ``bits`` if set."""
        found = Counter(self.ngrams(sentence, n))
        if self.bits is None:
            return found
        return Counter({g: k % (1 << self.bits) for g, k in found.items()})

    def max_ref(self, refs: Sequence[Tokens], n: int) -> Counter[Any]:
        """Max_Ref_Count(g) over single references (BLEU-MAX-REF-COUNT)."""
        most: Counter[Any] = Counter()
        for ref in refs:
            for g, k in self.counts(ref, n).items():
                most[g] = max(most[g], k)
        return most

    def segment(
        self, hyp: Tokens, refs: Sequence[Tokens], orders: int, rule: str
    ) -> tuple[list[Count], list[Count], int, Length]:
        """(m_n, l_n for n = 1..orders, c, r) of one segment."""
        c = self.length(hyp)
        if self.best_length is not None:
            r = self.best_length(c, refs, self, rule)
        else:
            r = best_match_length(c, [self.length(ref) for ref in refs], rule)  # type: ignore[arg-type]
        matches, totals = [], []
        for n in range(1, orders + 1):
            counts = self.counts(hyp, n)
            matches.append(self.clip(counts, hyp, refs, n, self))
            totals.append(self.total(counts, hyp, refs, r, n))
        return matches, totals, c, normal_length(r)

    def statistics(self, hyp: Tokens, refs: Sequence[Tokens], orders: int, rule: str) -> Statistics:
        """The segment's Statistics; a ValueError where its counts are none the reference holds."""
        stats = _statistics(*self.segment(hyp, refs, orders, rule))
        if stats is None:
            raise ValueError("counts the reference's Statistics cannot hold")
        return stats


#: The paper's counting.
PAPER_COUNTING = Counting()


def _statistics(matches: Sequence[Count], totals: Sequence[Count], c: int, r: Length) -> Statistics | None:
    """The reference's Statistics of these counts, or None where they are none it can hold (a
    fractional match, matches above the total)."""
    if not all(isinstance(x, int) for x in (*matches, *totals)):
        return None
    if not all(0 <= m <= t for m, t in zip(matches, totals, strict=True)):
        return None
    return Statistics(tuple(int(m) for m in matches), tuple(int(t) for t in totals), c, r)


def plain(options: BleuOptions) -> bool:
    """Whether the options combine precisions as the paper does (no smoothing, zero and undefined
    orders the paper's, micro, the paper's BP): counts the reference cannot hold are combined then
    by :func:`plain_score`. What an empty corpus scores (EC-012) is no part of it: such counts come
    from segments."""
    paper = make_options(
        max_order=options.max_order,
        weights=list(options.weights),
        unnormalized_weights=options.unnormalized_weights,
    )
    return (
        replace(
            options,
            empty_corpus=paper.empty_corpus,
            ref_length=paper.ref_length,
            arithmetic=paper.arithmetic,
            scale=paper.scale,
            round_digits=paper.round_digits,
            empty_references=paper.empty_references,
            no_reference=paper.no_reference,
            empty_candidates=paper.empty_candidates,
        )
        == paper
    )


def plain_score(
    options: BleuOptions, matches: Sequence[Count], totals: Sequence[Count], c: int, r: Length
) -> float:
    """The paper's combination in binary64 of any non-negative counts: BP · exp(Σ w_n log(m_n / l_n)),
    0 when a weighted order has no match or no n-gram (EC-002, EC-003 at the paper's values)."""
    logs = 0.0
    for m, t, w in zip(matches, totals, options.weights, strict=False):
        if not w:
            continue
        if not m or not t:
            return 0.0
        logs += float(w) * math.log(Fraction(m) / Fraction(t))
    if c == 0:
        return 0.0 if r else 1.0
    bp = 1.0 if c >= r else math.exp(1 - Fraction(r) / c)
    return bp * math.exp(logs)


def counted(counting: Counting) -> Mutation:
    """A fault in the counting of each segment: the segments counted by ``counting``, then scored by
    the reference at the options (summed as it sums them, EC-015; macro or micro, EC-009)."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        try:
            segments = _segments(options, hyps, refs)
        except BleuError:
            return ERROR
        rows = [counting.segment(h, rs, options.statistics_orders, options.ref_length) for h, rs in segments]
        stats = [_statistics(*row) for row in rows]
        if all(s is not None for s in stats):
            try:
                return estimated_score([s for s in stats if s is not None], options)
            except BleuError:
                return ERROR
        if not plain(options) or not rows:
            return None
        orders = range(options.max_order)
        matches = [sum((Fraction(m[n]) for m, _, _, _ in rows), Fraction(0)) for n in orders]
        totals = [sum((Fraction(t[n]) for _, t, _, _ in rows), Fraction(0)) for n in orders]
        c, r = sum(row[2] for row in rows), sum((Fraction(row[3]) for row in rows), Fraction(0))
        return plain_score(options, matches, totals, c, r)

    return mutation


def on_corpus_statistics(
    change: Callable[[Statistics, Sequence[tuple[Tokens, list[Tokens]]], BleuOptions], Statistics],
) -> Mutation:
    """A fault in the corpus statistics (micro only): the reference's sum of the segments' statistics
    changed by ``change`` (which also sees the segments), then scored by the reference."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        if options.aggregation != "micro":
            return None
        try:
            scored = units(options, hyps, refs)
            if scored is None:
                return reference(options, hyps, refs)
            return estimated_score([change(scored[0], _segments(options, hyps, refs), options)], options)
        except BleuError:
            return ERROR

    return mutation


# --- the brevity penalty and the combination ---------------------------------------------------


def units(options: BleuOptions, hyps: Hypotheses, refs: References) -> list[Statistics] | None:
    """The statistics of each unit the reference scores (each segment under macro, else the corpus),
    counted on its fast path (NUM-FAST); None for a corpus left without segments."""
    checked = validate_corpus(
        hyps, refs, no_reference=options.no_reference, empty_corpus=options.empty_corpus
    )
    stats = fast_statistics(
        *checked,
        options.statistics_orders,
        options.ref_length,
        rules=options.segment_rules,
        keep_segments=True,
    )
    if not stats:
        return None
    if options.aggregation == "macro":
        return stats
    return [corpus_statistics(stats, options.statistics_orders)]


def _micro(options: BleuOptions) -> BleuOptions:
    return replace(options, aggregation="micro")


def _unit_mean(
    options: BleuOptions,
    hyps: Hypotheses,
    refs: References,
    score_unit: Callable[[Statistics], float | None],
    errors: tuple[type[Exception], ...],
) -> Prediction:
    """The mean of ``score_unit`` over the options' scored units (the reference's score where there
    are none to score); None where some unit gets no prediction; ERROR for a BleuError or ``errors``
    (the faulty code's own failures)."""
    failures: tuple[type[Exception], ...] = (BleuError, *errors)
    try:
        scored = units(options, hyps, refs)
        if scored is None:
            return reference(options, hyps, refs)
        scores = []
        for unit in scored:
            score = score_unit(unit)
            if score is None:
                return None
            scores.append(score)
    except failures:
        return ERROR
    return math.fsum(scores) / len(scores)


def with_brevity_penalty(bp: Callable[[int, Length, float, int], float]) -> Mutation:
    """A fault in the brevity penalty (BLEU-BP): in each scored unit, the reference's score with its BP
    replaced by ``bp(c, r, own, N)`` (``own``: the point's BP, under its rule). No prediction where c
    or r is 0 (faulty code divides by them its own way), nor where the point's BP is 0."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        def score_unit(unit: Statistics) -> float | None:
            c, r = unit.hyp_len, unit.ref_len
            with localcontext(Context(prec=DIGITS)):
                own = float(conventional_bp(conventional_total([unit], options), options))
            if c == 0 or r == 0 or own == 0:
                return None
            return bp(c, r, own, options.max_order) * estimated_score([unit], _micro(options)) / own

        return _unit_mean(options, hyps, refs, score_unit, (ZeroDivisionError, OverflowError))

    return mutation


@dataclass(frozen=True)
class Parts:
    """What the reference combines in one unit: BP, the precisions after its smoothing (0 where zero or
    undefined and weighted), the weights, and its own score."""

    bp: float
    p: tuple[float, ...]
    w: tuple[float, ...]
    score: float
    orders: int = field(default=4)


def with_combination(combine: Callable[[Parts], float]) -> Mutation:
    """A fault in the combination (BLEU-SCORE): each unit's BP, precisions and weights as the reference
    finds them at the options, combined by ``combine``; an early return of the options (EC-016) still
    gives 0. A ValueError (log 0) is the faulty code's error."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        def score_unit(unit: Statistics) -> float:
            total = conventional_total([unit], options)
            if early_return(total, options):
                return 0.0
            with localcontext(Context(prec=DIGITS)):
                evaluation = evaluate(total, last_segment(unit, options), options=options)
                bp = float(conventional_bp(total, options))
            values = (
                tuple(float(v) for v in evaluation.values)
                if evaluation.values
                else tuple(0.0 if p is None else float(p) for p in evaluation.p)
            )
            parts = Parts(
                bp, values, tuple(float(w) for w in evaluation.w), float(evaluation.score), options.max_order
            )
            return combine(parts)

        return _unit_mean(options, hyps, refs, score_unit, (ValueError, ZeroDivisionError, OverflowError))

    return mutation


def with_options(
    change: Callable[[BleuOptions, Hypotheses, References], Mapping[str, Any] | None],
) -> Mutation:
    """A fault that computes BLEU at other options (N from the reference length): the reference there."""

    def mutation(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
        try:
            changed = change(options, hyps, refs)
        except BleuError:
            return ERROR
        if changed is None:
            return None
        try:
            other = replace(options, **changed)
        except (BleuError, TypeError):
            return None
        return reference(other, hyps, refs)

    return mutation
