"""Models of the peers: each peer's arithmetic, recomputed from the exact statistics (spec 10).

A model takes a peer's configuration and the exact per-segment statistics of a corpus (the
reference's, which the differential tests prove equal to the peer's own counts) and returns
what the peer returns: its score on the [0, 1] scale in the peer's own binary64 arithmetic,
or the name of the exception it raises. Every divergence in the registry is checked against
these models, so an entry is a tested statement about the peer, not an assertion.

The models follow the peers' source line by line (nltk 3.10.4 ``nltk/translate/bleu_score.py``,
sacrebleu 2.6.0 ``sacrebleu/metrics/bleu.py``), written anew from reading it; the comments
say which line each step stands for. ``reference_options`` says how the reference is
configured to a peer's conventions: a difference that remains is a divergence.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from conformance.targets import NltkTarget, SacrebleuTarget
from reference_bleu import Statistics, segment_statistics
from reference_bleu.inputs import validate_corpus

NLTK_VERSION = "3.10.4"
SACREBLEU_VERSION = "2.6.0"

#: A peer's answer: its score on [0, 1], or the name of the exception it raised.
PeerValue = float | str
PeerTarget = NltkTarget | SacrebleuTarget
Corpus = tuple[list[list[str]], list[list[list[str]]]]

#: Orders counted per segment: nltk's method 5 looks at 5-grams whatever N is.
EVIDENCE_ORDERS = 5


@dataclass(frozen=True)
class Case:
    """The exact per-segment statistics of a corpus (closest reference length, ties to the shorter)."""

    segments: tuple[Statistics, ...]

    @classmethod
    def of(cls, corpus: Corpus, orders: int = EVIDENCE_ORDERS) -> Case:
        """Count every segment of ``corpus`` up to ``max(orders, 5)``."""
        hyps, refs = validate_corpus(*corpus)
        depth = max(orders, EVIDENCE_ORDERS)
        return cls(tuple(segment_statistics(h, r, depth, "closest") for h, r in zip(hyps, refs, strict=True)))

    def corpus(self, orders: int) -> Statistics:
        """The corpus statistics of orders 1..``orders``: the sum of the segments'."""
        return sum((s.truncated(orders) for s in self.segments), Statistics.zero(orders))

    @property
    def last(self) -> Statistics:
        """The last segment's statistics (nltk's smoothing methods 5 and 6 read them)."""
        return self.segments[-1]


def reference_options(target: PeerTarget) -> dict[str, Any]:
    """The reference's options under ``target``'s conventions (closest, ties to the shorter, uniform)."""
    if isinstance(target, NltkTarget):
        return {
            "max_order": 4,
            "smoothing": f"chen-cherry-{target.method}" if target.method else "none",
            "effective_order": target.auto_reweigh,
        }
    options: dict[str, Any] = {
        "max_order": target.max_ngram_order,
        "smoothing": target.smooth_method,
        "effective_order": target.effective_order,
    }
    if target.smooth_value is not None:
        options["smoothing_value"] = str(target.smooth_value)
    return options


def model(target: PeerTarget, case: Case) -> PeerValue:
    """What ``target`` returns on the corpus whose statistics are ``case``."""
    if isinstance(target, NltkTarget):
        return nltk_model(target, case)
    return sacrebleu_model(target, case.corpus(target.max_ngram_order))


# --- sacrebleu 2.6.0 -------------------------------------------------------------------------


def sacrebleu_model(target: SacrebleuTarget, stats: Statistics) -> float:
    """sacrebleu's ``BLEU.compute_bleu`` (2.6.0) from the exact statistics, in binary64, on [0, 1]."""
    correct, total = list(stats.matches), list(stats.totals)
    sys_len, ref_len = stats.hyp_len, int(stats.ref_len)
    smooth_value = (
        target.smooth_value
        if target.smooth_value is not None
        else {"floor": 0.1, "add-k": 1}.get(target.smooth_method, 0)
    )
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):  # early stop when nothing matches (#141)
        return 0.0
    order = target.max_ngram_order
    precisions = [0.0] * order
    smooth_mteval, eff_order = 1.0, order
    for n in range(1, order + 1):
        c, t = float(correct[n - 1]), float(total[n - 1])
        if target.smooth_method == "add-k" and n > 1:
            c, t = c + smooth_value, t + smooth_value
        if t == 0:
            break
        if target.effective_order:
            eff_order = n
        if c == 0:
            if target.smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * t)
            elif target.smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / t
        else:
            precisions[n - 1] = 100.0 * c / t
    logs = [math.log(p) if p > 0 else -9999999999.0 for p in precisions[:eff_order]]
    return bp * math.exp(sum(logs) / eff_order) / 100


# --- nltk 3.10.4 -----------------------------------------------------------------------------

#: nltk's ``SmoothingFunction()`` defaults: epsilon, alpha and k of Chen and Cherry.
NLTK_EPSILON, NLTK_ALPHA, NLTK_K = 0.1, 5, 5

Precision = Fraction | float


def nltk_denominators(case: Case, orders: int) -> list[int]:
    """nltk's corpus denominators: the sum over segments of max(1, l_n) (``modified_precision``)."""
    return [sum(max(1, s.totals[n]) for s in case.segments) for n in range(orders)]


def nltk_model(target: NltkTarget, case: Case) -> PeerValue:
    """nltk's ``corpus_bleu`` (3.10.4) with default weights, from the exact statistics."""
    orders = 4
    stats = case.corpus(orders)
    numerators = list(stats.matches)
    denominators = nltk_denominators(case, orders)
    hyp_lengths, ref_lengths = stats.hyp_len, int(stats.ref_len)
    # brevity_penalty(closest_ref_len, hyp_len)
    if hyp_lengths > ref_lengths:
        bp = 1.0
    elif hyp_lengths == 0:
        bp = 0.0
    else:
        bp = math.exp(1 - ref_lengths / hyp_lengths)
    if numerators[0] == 0:  # 'if p_numerators[1] == 0: return 0', before any smoothing
        return 0.0
    smoothed = _nltk_smoothing(target.method, numerators, denominators, case)
    if isinstance(smoothed, str):
        return smoothed
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25)
    if target.auto_reweigh and hyp_lengths < 4:
        weights = (1 / hyp_lengths,) * hyp_lengths
    # zip stops at the shorter: auto_reweigh's c weights meet the first c precisions.
    terms = zip(weights, smoothed, strict=False)
    s = math.fsum(w_i * math.log(p_i) for w_i, p_i in terms if p_i > 0)
    return bp * math.exp(s)


def _nltk_smoothing(
    method: int, numerators: list[int], denominators: list[int], case: Case
) -> list[Precision] | str:
    """``SmoothingFunction().method<k>(p_n, references, hypothesis, hyp_len)`` of nltk 3.10.4.

    ``p_n`` holds ``Fraction(numerator, denominator)`` per order; ``references`` and
    ``hypothesis`` are the loop variables of ``corpus_bleu`` after its loop: the *last*
    segment's, which methods 5 and 6 read; ``hyp_len`` is the corpus c.
    """
    p_n: list[Precision] = [Fraction(m, d) for m, d in zip(numerators, denominators, strict=True)]
    counts = list(zip(numerators, denominators, strict=True))
    hyp_len = case.corpus(1).hyp_len
    smoothed: list[Precision] | str
    if method == 0:  # a zero numerator becomes sys.float_info.min, with a warning
        smoothed = [p if m else sys.float_info.min for p, (m, _d) in zip(p_n, counts, strict=True)]
    elif method == 1:  # (numerator + epsilon) / denominator, a float, where the numerator is 0
        smoothed = [p if m else (m + NLTK_EPSILON) / d for p, (m, d) in zip(p_n, counts, strict=True)]
    elif method == 2:  # Fraction(numerator + 1, denominator + 1) for every order but the first
        smoothed = [p_n[0], *(Fraction(m + 1, d + 1) for m, d in counts[1:])]
    elif method == 3:
        smoothed = _nltk_method_3(p_n, numerators, denominators)
    elif method == 4:
        smoothed = _nltk_method_4(p_n, numerators, denominators, hyp_len)
    elif method == 5:
        smoothed = _nltk_method_5(p_n, case)
    elif method == 6:
        smoothed = _nltk_method_6(p_n, numerators, case)
    else:
        smoothed = _nltk_method_5(_nltk_method_4(p_n, numerators, denominators, hyp_len), case)
    return smoothed


def _nltk_method_3(p_n: list[Precision], numerators: list[int], denominators: list[int]) -> list[Precision]:
    """``p_n[i] = 1 / (2**incvnt * p_i.denominator)`` for each zero numerator, incvnt from 1."""
    smoothed, incvnt = list(p_n), 1
    for i, (m, d) in enumerate(zip(numerators, denominators, strict=True)):
        if m == 0:
            smoothed[i] = 1 / (2**incvnt * d)
            incvnt += 1
    return smoothed


def _nltk_method_4(
    p_n: list[Precision], numerators: list[int], denominators: list[int], hyp_len: int
) -> list[Precision]:
    """``numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))``; ``p_n[i] = numerator / denominator``.

    Only when ``hyp_len > 1``; otherwise a zero precision stays ``Fraction(0, d)``.
    """
    smoothed, incvnt = list(p_n), 1
    for i, (m, d) in enumerate(zip(numerators, denominators, strict=True)):
        if m == 0 and hyp_len > 1:
            numerator = 1 / (2**incvnt * NLTK_K / math.log(hyp_len))
            smoothed[i] = numerator / d
            incvnt += 1
    return smoothed


def _nltk_method_5(p_n: list[Precision], case: Case) -> list[Precision]:
    """Average each *precision* with its neighbours; the one past p_4 is the last segment's p_5.

    ``p_n_plus1 = p_n + [modified_precision(references, hypothesis, 5)]``;
    ``m[-1] = p_n[0] + 1``; ``p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3``.
    """
    last = case.last
    p_n_plus1 = [*p_n, Fraction(last.matches[4], max(1, last.totals[4]))]
    previous: Precision = p_n[0] + 1
    smoothed: list[Precision] = []
    for i, p_i in enumerate(p_n):
        previous = (previous + p_i + p_n_plus1[i + 1]) / 3
        smoothed.append(previous)
    return smoothed


def _nltk_method_6(p_n: list[Precision], numerators: list[int], case: Case) -> list[Precision] | str:
    """Gao and He's prior ``pi0 = p_{i-1}**2 / p_{i-2}``, with l from the last hypothesis.

    ``assert p_n[2]`` first: no trigram match in the corpus raises AssertionError.
    ``p_n[i] = (m + self.alpha * pi0) / (l + self.alpha)`` where m is the corpus numerator
    and l the number of (i+1)-grams of the last segment's hypothesis.
    """
    if not numerators[2]:
        return "AssertionError"
    smoothed = list(p_n)
    for i in range(2, len(p_n)):
        pi0: Precision = 0 if smoothed[i - 2] == 0 else smoothed[i - 1] ** 2 / smoothed[i - 2]
        l_last = case.last.totals[i]
        smoothed[i] = (numerators[i] + NLTK_ALPHA * pi0) / (l_last + NLTK_ALPHA)
    return smoothed
