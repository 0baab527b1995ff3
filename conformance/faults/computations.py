"""Each fault of the catalogue as a mutation of the reference (spec CONF-DIAGNOSIS): :data:`COMPUTATIONS`
maps a catalogue ID to its :data:`.mutations.Mutation`, built from the kinds of change
:mod:`.mutations` defines. The meaning of each, and where it is seen, is the catalogue's
(``catalogue.json``); what is written here is only how it computes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from conformance.faults.mutations import (
    ERROR,
    Count,
    Counting,
    Hypotheses,
    Mutation,
    Parts,
    Prediction,
    References,
    Tokens,
    counted,
    on_corpus_statistics,
    on_input,
    plain,
    reference,
    units,
    with_brevity_penalty,
    with_combination,
    with_options,
)
from reference_bleu.conventions.options import BleuOptions
from reference_bleu.errors import BleuError
from reference_bleu.formulas.counting import ngrams
from reference_bleu.formulas.length import Length, best_match_length
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.score import estimated_score

NGram = tuple[str, ...]

# --- clipping and matching ---------------------------------------------------------------------


def _clip_sum(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    pooled: Counter[NGram] = Counter()
    for ref in refs:
        pooled.update(counting.counts(ref, n))
    return sum((min(k, pooled[g]) for g, k in counts.items()), 0)


def _clip_last(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    last = counting.counts(refs[-1], n)
    return sum((min(k, last[g]) for g, k in counts.items()), 0)


def _clip_best_reference(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    best = 0
    for ref in refs:
        own = counting.counts(ref, n)
        best = max(best, sum((min(k, own[g]) for g, k in counts.items()), 0))
    return best


def _clip_averaged(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    clipped = [sum((min(k, counting.counts(ref, n)[g]) for g, k in counts.items()), 0) for ref in refs]
    return Fraction(sum(clipped), len(clipped))


def _unclipped(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    most = counting.max_ref(refs, n)
    return sum((k for g, k in counts.items() if most[g]), 0)


def _clip_unigrams_only(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    most = counting.max_ref(refs, n)
    if n == 1:
        return sum((min(k, most[g]) for g, k in counts.items()), 0)
    return sum((k for g, k in counts.items() if most[g]), 0)


def _in_any_reference(refs: Sequence[Tokens], n: int, counting: Counting) -> set[NGram]:
    found: set[NGram] = set()
    for ref in refs:
        found |= set(counting.counts(ref, n))
    return found


def _distinct_matched(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    return len(set(counts) & _in_any_reference(refs, n, counting))


def _distinct_total(counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], r: Length, n: int) -> Count:
    return len(counts)


def _reference_total(counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], r: Length, n: int) -> Count:
    """The best match reference's n-grams (r - n + 1): recall's denominator."""
    return max(0, int(r) - n + 1)


def _positional(
    counts: Counter[NGram], hyp: Tokens, refs: Sequence[Tokens], n: int, counting: Counting
) -> Count:
    return sum(
        any(i + n <= len(ref) and tuple(ref[i : i + n]) == tuple(hyp[i : i + n]) for ref in refs)
        for i in range(len(hyp) - n + 1)
    )


def _pooled_clipping(
    total: Statistics, segments: Sequence[tuple[Tokens, list[Tokens]]], options: BleuOptions
) -> Statistics:
    matches = []
    for n in range(1, len(total.matches) + 1):
        candidate: Counter[NGram] = Counter()
        most: Counter[NGram] = Counter()
        for hyp, refs in segments:
            candidate.update(Counter(ngrams(hyp, n)))
            own: Counter[NGram] = Counter()
            for ref in refs:
                for g, k in Counter(ngrams(ref, n)).items():
                    own[g] = max(own[g], k)
            most.update(own)
        matches.append(sum(min(k, most[g]) for g, k in candidate.items()))
    return replace(total, matches=tuple(matches))


# --- n-grams and their keys ----------------------------------------------------------------------


def _last_window_lost(sentence: Tokens, n: int) -> list[NGram]:
    return [tuple(sentence[i : i + n]) for i in range(len(sentence) - n)]


def _no_ngram_of_own_length(sentence: Tokens, n: int) -> list[NGram]:
    return [] if len(sentence) == n else ngrams(sentence, n)


def _concatenated(sentence: Tokens, n: int) -> list[tuple[str]]:
    return [("".join(sentence[i : i + n]),) for i in range(len(sentence) - n + 1)]


def _short_underflow(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """``len - n + 1`` in unsigned arithmetic: a sentence shorter than N - 1 wraps it, and the code fails."""
    short = options.max_order - 1
    if any(len(h) < short for h in hyps) or any(len(r) < short for rs in refs for r in rs):
        return ERROR
    return reference(options, hyps, refs)


def _join_split(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """Every window of orders 1..N joined with spaces and split again: the key's length is its order,
    and a key longer than N cannot be stored (torchtext's IndexError)."""
    N = options.max_order

    def keys(sentence: Tokens) -> Counter[NGram]:
        found: Counter[NGram] = Counter()
        for n in range(1, N + 1):
            for i in range(len(sentence) - n + 1):
                found[tuple(" ".join(sentence[i : i + n]).split(" "))] += 1
        return found

    matches, totals, c, r = [0] * N, [0] * N, 0, Fraction(0)
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        if not segment_refs:
            return reference(options, hyps, refs)  # the domain's answer, as the tool gives it
        most: Counter[NGram] = Counter()
        for ref in segment_refs:
            most |= keys(ref)
        for g, k in keys(hyp).items():
            if len(g) > N:
                return ERROR
            totals[len(g) - 1] += k
            matches[len(g) - 1] += min(k, most[g])
        c += len(hyp)
        r += best_match_length(len(hyp), [len(x) for x in segment_refs], options.ref_length)
    if any(m > t for m, t in zip(matches, totals, strict=True)):
        return None
    try:
        return estimated_score(
            [Statistics(tuple(matches), tuple(totals), c, r if r.denominator > 1 else int(r))], options
        )
    except BleuError:
        return ERROR


# --- the input -----------------------------------------------------------------------------------


def _characters(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return [list(" ".join(h)) for h in hyps], [[list(" ".join(r)) for r in rs] for rs in refs]


def _end_token(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return [[*h, "</s>"] for h in hyps], [[[*r, "</s>"] for r in rs] for rs in refs]


def _unwrapped(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return hyps, [[list(token) for token in rs[0]] for rs in refs]


def _transposed(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    kept = min([len(hyps), *(len(rs) for rs in refs)])
    return hyps[:kept], [[refs[k][s] for k in range(len(refs))] for s in range(kept)]


def _fewest(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    fewest = min((len(rs) for rs in refs), default=0)
    return hyps, [list(rs)[:fewest] for rs in refs]


def _swapped(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return [rs[0] for rs in refs], [[h] for h in hyps]


def _empty_shifted(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    kept = [h for h in hyps if h]
    return kept, refs[: len(kept)]


def _first_reference(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return hyps, [list(rs)[:1] for rs in refs]


def _resplit(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return [" ".join(h).split() for h in hyps], [[" ".join(r).split() for r in rs] for rs in refs]


def _hypotheses_lower_cased(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    return [[t.lower() for t in h] for h in hyps], refs


def _one_sentence(hyps: Hypotheses, refs: References) -> tuple[Hypotheses, References]:
    streams = {len(rs) for rs in refs}
    if len(streams) != 1:
        raise ValueError("the references are not streams of one length")
    (k,) = streams
    return [[t for h in hyps for t in h]], [[[t for rs in refs for t in rs[i]] for i in range(k)]]


# --- lengths ---------------------------------------------------------------------------------------


def _distance(c: int, refs: Sequence[Tokens], counting: Counting, rule: str) -> Length:
    return min(abs(counting.length(ref) - c) for ref in refs)


def _length_against_distance(c: int, refs: Sequence[Tokens], counting: Counting, rule: str) -> Length:
    lengths = [counting.length(ref) for ref in refs]
    least, best = abs(c - lengths[0]), lengths[0]
    for length in lengths:
        if length < least:  # a length compared with a distance
            least, best = length, length
    return best


def _first_length(c: int, refs: Sequence[Tokens], counting: Counting, rule: str) -> Length:
    return counting.length(refs[0])


def _distinct_length(sentence: Tokens) -> int:
    return len(set(sentence))


def _characters_length(sentence: Tokens) -> int:
    return len(" ".join(sentence))


# --- the brevity penalty ---------------------------------------------------------------------------


def _ratio(r: Length, c: int) -> Fraction:
    return Fraction(r) / c


def _inverted(c: int, r: Length, own: float, orders: int) -> float:
    return math.exp(1 - c / Fraction(r)) if c <= r else 1.0


def _two_sided(c: int, r: Length, own: float, orders: int) -> float:
    return math.exp(1 - _ratio(r, c)) if c <= r else math.exp(1 - c / Fraction(r))


def _linear(c: int, r: Length, own: float, orders: int) -> float:
    return min(1.0, float(c / Fraction(r)))


def _twice(c: int, r: Length, own: float, orders: int) -> float:
    return own**2


def _in_root(c: int, r: Length, own: float, orders: int) -> float:
    return float(own ** (1 / orders))


def _integer_ratio(c: int, r: Length, own: float, orders: int) -> float:
    return 1.0 if c > r else math.exp(1 - int(r) // c)


def _none(c: int, r: Length, own: float, orders: int) -> float:
    return 1.0


def _bp_per_segment(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """The corpus's precisions with BP the mean of the segments' BPs (the paper's rule in each)."""
    if options.aggregation != "micro" or options.brevity_penalty != "paper":
        return None
    whole = reference(options, hyps, refs)
    try:
        scored = units(options, hyps, refs)
        segments = units(replace(options, aggregation="macro"), hyps, refs)
    except BleuError:
        return ERROR
    if not isinstance(whole, float) or scored is None or segments is None:
        return whole
    (total,) = scored
    if total.hyp_len == 0 or any(s.ref_len == 0 for s in segments):
        return None
    paper = _paper_bp(total.hyp_len, total.ref_len)
    mean = math.fsum(_paper_bp(s.hyp_len, s.ref_len) for s in segments) / len(segments)
    return mean * whole / paper


def _paper_bp(c: int, r: Length) -> float:
    if c >= r:
        return 1.0
    return 0.0 if c == 0 else math.exp(1 - _ratio(r, c))


def _precisions_macro(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """p_n the mean of the segments' m_n / l_n (over those with l_n > 0), BP from the corpus's c and r;
    the paper's combination (no smoothing: predicted at such points only)."""
    if not plain(options):
        return None
    try:
        segments = units(replace(options, aggregation="macro"), hyps, refs)
    except BleuError:
        return ERROR
    if segments is None:
        return reference(options, hyps, refs)
    logs = 0.0
    for n, w in enumerate(options.weights):
        values = [Fraction(s.matches[n], s.totals[n]) for s in segments if s.totals[n]]
        if not w:
            continue
        if not values or not any(values):
            return 0.0
        logs += float(w) * math.log(sum(values, Fraction(0)) / len(values))
    c = sum(s.hyp_len for s in segments)
    r = sum((Fraction(s.ref_len) for s in segments), Fraction(0))
    return _paper_bp(c, r) * math.exp(logs)


def _best_single_reference(options: BleuOptions, hyps: Hypotheses, refs: References) -> Prediction:
    """Each segment scored against each of its references alone (the reference's sentence BLEU at the
    options), the best kept, and the segments' scores averaged."""
    if not hyps:
        return reference(options, hyps, refs)
    scores = []
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        alone = [reference(options, [hyp], [[ref]]) for ref in segment_refs]
        if not alone or any(not isinstance(a, float) for a in alone):
            return ERROR
        scores.append(max(a for a in alone if isinstance(a, float)))
    return math.fsum(scores) / len(scores)


def _integer_precisions(
    total: Statistics, segments: Sequence[tuple[Tokens, list[Tokens]]], options: BleuOptions
) -> Statistics:
    """p_n = M_n // L_n: every n-gram matched, or none."""
    return replace(
        total, matches=tuple(t if m == t else 0 for m, t in zip(total.matches, total.totals, strict=True))
    )


def _orders_by_reference(options: BleuOptions, hyps: Hypotheses, refs: References) -> dict[str, Any] | None:
    """N = min(N, r) with uniform weights: the orders a reference of length r has."""
    if options.aggregation != "micro" or len(set(options.weights)) != 1:
        return None
    scored = units(options, hyps, refs)
    if scored is None:
        return None
    r = scored[0].ref_len
    orders = min(options.max_order, int(r))
    if orders == 0:
        return None
    return {"max_order": orders, "weights": tuple([Fraction(1, orders)] * orders)}


# --- the combination ---------------------------------------------------------------------------------


def _arithmetic_mean(parts: Parts) -> float:
    return parts.bp * math.fsum(w * p for w, p in zip(parts.w, parts.p, strict=True))


def _no_root(parts: Parts) -> float:
    return parts.bp * math.prod(p for w, p in zip(parts.w, parts.p, strict=True) if w)


def _no_exponential(parts: Parts) -> float:
    return parts.bp * math.fsum(w * math.log(p) for w, p in zip(parts.w, parts.p, strict=True) if w)


def _log2(parts: Parts) -> float:
    if any(w and not p for w, p in zip(parts.w, parts.p, strict=True)):
        return parts.score
    return parts.bp * math.exp(
        math.fsum(w * math.log2(p) for w, p in zip(parts.w, parts.p, strict=True) if w)
    )


def _zero_log_sum_is_no_match(parts: Parts) -> float:
    if all(p == 1 for w, p in zip(parts.w, parts.p, strict=True) if w):
        return 0.0
    return parts.score


COMPUTATIONS: dict[str, Mutation] = {
    "FAULT-CLIP-SUM": counted(Counting(clip=_clip_sum)),
    "FAULT-CLIP-FIRST-REF": on_input(_first_reference),
    "FAULT-CLIP-LAST-REF": counted(Counting(clip=_clip_last)),
    "FAULT-CLIP-BEST-REF": counted(Counting(clip=_clip_best_reference)),
    "FAULT-MAX-OVER-REFS": _best_single_reference,
    "FAULT-REF-AVG": counted(Counting(clip=_clip_averaged)),
    "FAULT-NO-CLIP": counted(Counting(clip=_unclipped)),
    "FAULT-CLIP-UNIGRAM-ONLY": counted(Counting(clip=_clip_unigrams_only)),
    "FAULT-CLIP-POOLED": on_corpus_statistics(_pooled_clipping),
    "FAULT-SET-NGRAMS": counted(Counting(clip=_distinct_matched, total=_distinct_total)),
    "FAULT-DISTINCT-MATCHES": counted(Counting(clip=_distinct_matched)),
    "FAULT-DENOM-DISTINCT": counted(Counting(total=_distinct_total)),
    "FAULT-RECALL": counted(Counting(total=_reference_total)),
    "FAULT-POSITIONAL": counted(Counting(clip=_positional)),
    "FAULT-NGRAM-LAST-MISSING": counted(Counting(ngrams=_last_window_lost)),
    "FAULT-NGRAM-EXACT-LEN": counted(Counting(ngrams=_no_ngram_of_own_length)),
    "FAULT-SHORT-UNDERFLOW": _short_underflow,
    "FAULT-JOIN-KEY": counted(Counting(ngrams=_concatenated)),
    "FAULT-JOIN-SPLIT": _join_split,
    "FAULT-RESPLIT": on_input(_resplit),
    "FAULT-COUNT-WRAP8": counted(Counting(bits=8)),
    "FAULT-COUNT-WRAP16": counted(Counting(bits=16)),
    "FAULT-CHAR-TOKENS": on_input(_characters),
    "FAULT-EOS-PAD": on_input(_end_token),
    "FAULT-REF-UNWRAPPED": on_input(_unwrapped),
    "FAULT-TRANSPOSED-REFS": on_input(_transposed),
    "FAULT-REFS-FEWEST": on_input(_fewest),
    "FAULT-SWAP": on_input(_swapped),
    "FAULT-EMPTY-SHIFT": on_input(_empty_shifted),
    "FAULT-CASE-ONE-SIDE": on_input(_hypotheses_lower_cased),
    "FAULT-LEN-DIST": counted(Counting(best_length=_distance)),
    "FAULT-LEN-MIXED": counted(Counting(best_length=_length_against_distance)),
    "FAULT-LEN-FIRST": counted(Counting(best_length=_first_length)),
    "FAULT-LEN-DISTINCT": counted(Counting(length=_distinct_length)),
    "FAULT-LEN-CHARS": counted(Counting(length=_characters_length)),
    "FAULT-BP-INVERTED": with_brevity_penalty(_inverted),
    "FAULT-BP-TWO-SIDED": with_brevity_penalty(_two_sided),
    "FAULT-BP-LINEAR": with_brevity_penalty(_linear),
    "FAULT-BP-TWICE": with_brevity_penalty(_twice),
    "FAULT-BP-IN-ROOT": with_brevity_penalty(_in_root),
    "FAULT-BP-INTDIV": with_brevity_penalty(_integer_ratio),
    "FAULT-NO-BP": with_brevity_penalty(_none),
    "FAULT-BP-PER-SEGMENT": _bp_per_segment,
    "FAULT-PREC-MACRO-BP-MICRO": _precisions_macro,
    "FAULT-ARITH-MEAN": with_combination(_arithmetic_mean),
    "FAULT-NO-ROOT": with_combination(_no_root),
    "FAULT-NO-EXP": with_combination(_no_exponential),
    "FAULT-LOG-BASE": with_combination(_log2),
    "FAULT-LOGSUM-ZERO": with_combination(_zero_log_sum_is_no_match),
    "FAULT-PREC-INTDIV": on_corpus_statistics(_integer_precisions),
    "FAULT-ORDERS-BY-REF-LEN": with_options(_orders_by_reference),
    "FAULT-NGRAMS-ACROSS-SEGMENTS": on_input(_one_sentence),
}
