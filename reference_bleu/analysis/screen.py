"""Scores screened in binary64 from counted statistics, one unit at a time or many at once (ATTR-COST).

An identification tries thousands of points on the same statistics, and needs of most of them
only whether they can print a number: an estimate within 10^-13 relative of the score tells
that, and only the points whose estimate lies near the number are scored exactly. The estimate
of one scored unit is the scoring pass's own settling (BLEU-EVAL steps 0 to 3:
:func:`reference_bleu.scoring.evaluation.settle`) combined by the canonical binary64 procedure
of CONV-ARITH (:func:`reference_bleu.scoring.floating.float_score`).

A sentence-level point (macro, EC-009) has one unit per segment: thousands of settlings a point.
Where numpy is present and the point's conventions are the common ones (the smoothings that are
ratios of the counts, the zero and undefined rules that replace or drop a precision, the BP
rules), its units are screened all at once by :func:`vector_scores`: the same steps on arrays,
tested equal to the unit-at-a-time estimate within 10^-12 relative. Anything else is estimated a
unit at a time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.formulas.smoothing import COCO_SMALL, COCO_TINY, SMOOTHING_METHODS, LastSegment
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.evaluation import settle
from reference_bleu.scoring.floating import float_score

Unit = tuple[Statistics, LastSegment]

#: The smoothings :func:`vector_scores` computes: each p_n a ratio of the counts (SMOOTH-NONE,
#: -FLOOR, -CC1, -EXP, -CC3, -ADD-K, -CC2, -ADD-ONE), as the kind of its rule.
VECTOR_SMOOTHINGS = {
    "none": "none",
    "floor": "floor",
    "chen-cherry-1": "floor",
    "exp": "exp",
    "chen-cherry-3": "exp",
    "add-k": "add-k",
    "chen-cherry-2": "add-k",
    "add-one": "add-one",
    "nltk-4": "nltk-4",
    "nltk-5": "nltk-5",
    "nltk-7": "nltk-7",
}
#: Smoothings whose orders read each other (nltk's methods 4, 5 and 7): computed where every order of
#: every unit is defined (nltk's denominator, max(1, l_n), makes them so).
_CHAINED = ("nltk-4", "nltk-5", "nltk-7")


def unit_score(stats: Statistics, tail: LastSegment, options: BleuOptions) -> float:
    """ATTR-COST. One scored unit's BLEU on [0, 1] in binary64: ``settle`` (in the current decimal
    context, for the logarithms of methods 4 and 7), then CONV-ARITH's procedure."""
    settled = settle(stats, tail, options=options)
    if settled.score == 0:  # an early return (EC-016)
        return 0.0
    return float_score(
        settled, stats.hyp_len, stats.ref_len, bp_rule=options.brevity_penalty, arithmetic="binary64"
    )


def numpy_module() -> Any:
    """numpy, or ``None`` where it is not installed (the screen is then a unit at a time)."""
    try:
        import numpy  # noqa: PLC0415 -- optional: the significance extra brings it
    except ImportError:
        return None
    return numpy


def vectorizable(options: BleuOptions) -> bool:
    """Whether :func:`vector_scores` computes the units of a point with these options."""
    return (
        options.smoothing in VECTOR_SMOOTHINGS
        and options.undefined_precision in ("zero", "skip", "one", "reweigh-by-length")
        and options.zero_length == "limit"
    )


def segment_arrays(segments: Sequence[Statistics], denominator: str, np: Any) -> dict[str, Any]:
    """Segments as the units of a sentence-level point, in arrays: matches and totals (segments x
    orders; each total max(1, l_n) under a max1 denominator, EC-015, as ``conventional_total`` of one
    segment), c and r."""
    totals = np.array([s.totals for s in segments], dtype=np.float64)
    return {
        "m": np.array([s.matches for s in segments], dtype=np.float64),
        "l": totals if denominator == "l_n" else np.maximum(totals, 1.0),
        "c": np.array([s.hyp_len for s in segments], dtype=np.float64),
        "r": np.array([float(s.ref_len) for s in segments], dtype=np.float64),
    }


def vector_scores(arrays: dict[str, Any], options: BleuOptions, np: Any) -> Any | None:  # noqa: PLR0912, PLR0915
    """ATTR-COST. Every unit's score in binary64 at once: BLEU-EVAL's steps on arrays (EC-016's early
    return, EC-003's undefined orders and effective order, the smoothing, EC-002's zero
    precisions, the BP of EC-017, the combination of CONV-ARITH), for options that
    :func:`vectorizable` accepts. Equal to :func:`unit_score` of each unit within 10^-12 relative.
    ``None`` where they do not hold (a chained smoothing with an undefined order): one at a time.
    """
    N = options.max_order
    m, lengths, c, r = arrays["m"][:, :N], arrays["l"][:, :N], arrays["c"], arrays["r"]
    # Step 0: the early return (EC-016).
    early = np.zeros(len(c), dtype=bool)
    if options.early_return == "no-unigram-match":
        early = m[:, 0] == 0
    elif options.early_return == "no-match":
        early = ~(m > 0).any(axis=1)
    elif options.early_return == "any-zero":
        early = (m == 0).any(axis=1)
    # Step 1: the undefined orders (EC-003): l_n = 0 is a suffix of the orders.
    defined = lengths > 0
    w = np.tile(np.array([float(x) for x in options.weights]), (len(c), 1))
    if options.effective_order:
        kept = np.where(defined, w, 0.0)
        mass = kept.sum(axis=1, keepdims=True)
        w = np.divide(kept, mass, out=np.zeros_like(kept), where=mass > 0)
    if options.undefined_precision == "skip":
        w = np.where(defined, w, 0.0)
    uniform = options.weights == (Fraction(1, N),) * N
    if options.undefined_precision == "reweigh-by-length" and uniform:
        # nltk's auto_reweigh: weights 1/c on orders 1..c when c < N, where the weights (after the
        # effective order) are still its default 1/N.
        still = defined.all(axis=1) if options.effective_order else np.ones(len(c), dtype=bool)
        short = ((c < N) & still)[:, None]
        orders = np.arange(1, N + 1)[None, :]
        reweighed = np.where(orders <= c[:, None], 1.0 / np.where(c > 0, c, 1.0)[:, None], 0.0)
        w = np.where(short, reweighed, w)
    # Step 2: the smoothing of the defined orders.
    kind = VECTOR_SMOOTHINGS[options.smoothing]
    method = SMOOTHING_METHODS[options.smoothing]
    value = float(options.smoothing_value if options.smoothing_value is not None else method.default or 1)
    safe = np.where(defined, lengths, 1.0)
    if kind == "floor":
        p = np.where(m > 0, m, value) / safe
    elif kind == "exp":
        zeros = np.cumsum((m == 0) & defined, axis=1)
        p = np.where(m > 0, m / safe, 1.0 / (np.exp2(zeros) * safe))
    elif kind == "add-k":
        k = 1.0 if options.smoothing == "chen-cherry-2" else value
        p = (m + k) / (safe + k)
        p[:, 0] = m[:, 0] / safe[:, 0]
    elif kind == "add-one":
        p = (m + 1) / (safe + 1)
    elif kind in _CHAINED:
        if not defined.all():
            return None
        if arrays["m"].shape[1] > N:  # the unit's p_{N+1} = m / max(1, l), where order N + 1 was counted
            following = arrays["m"][:, N] / np.maximum(arrays["l"][:, N], 1.0)
        else:
            following = np.zeros_like(c)
        p = _nltk_chained(kind, m, safe, c=c, following=following, K=value, np=np)
    else:
        p = m / safe
    undefined = 1.0 if options.undefined_precision == "one" else 0.0
    p = np.where(defined, p, undefined)
    # Step 3: zero precisions (EC-002).
    log_zero = None
    if options.zero_precision == "skip":
        w = np.where(p == 0, 0.0, w)
    elif options.zero_precision == "sentinel":
        p = np.where(p == 0, float(options.zero_constant), p)
    elif options.zero_precision == "log-constant":
        log_zero = float(options.zero_constant)
    # Step 4: the combination in binary64 (CONV-ARITH), with the point's BP (EC-017).
    weighted = w != 0
    zero = (p == 0) & weighted
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.where(p > 0, p, 1.0))
        if log_zero is not None:
            logs = np.where(p == 0, log_zero, logs)
            zero = np.zeros_like(zero)
        g = np.exp(np.where(weighted, w * logs, 0.0).sum(axis=1))
        bp = _brevity_penalties(c, r, options.brevity_penalty, np)
    scores = bp * g
    scores[early | zero.any(axis=1) | ~weighted.any(axis=1)] = 0.0
    return scores


def _nltk_chained(kind: str, m: Any, lengths: Any, *, c: Any, following: Any, K: float, np: Any) -> Any:
    """SMOOTH-NLTK-4 (the i-th zero order: ln(T) / (2^i · K · l_n), T = c > 1), SMOOTH-NLTK-5 (each
    precision averaged with its neighbours, p'_0 = p_1 + 1, the neighbour past N the unit's p_{N+1})
    and SMOOTH-NLTK-7 (4, then 5), on arrays."""
    p = m / lengths
    if kind in ("nltk-4", "nltk-7"):
        zeros = np.cumsum(m == 0, axis=1)
        logs = np.log(np.where(c > 1, c, 2.0))[:, None]
        smoothed = logs / (np.exp2(zeros) * K * lengths)
        p = np.where((m == 0) & (c > 1)[:, None], smoothed, p)
    if kind == "nltk-4":
        return p
    neighbours = np.concatenate([p[:, 1:], following[:, None]], axis=1)
    previous = p[:, 0] + 1
    out = np.empty_like(p)
    for n in range(p.shape[1]):
        previous = (previous + p[:, n] + neighbours[:, n]) / 3
        out[:, n] = previous
    return out


def _brevity_penalties(c: Any, r: Any, rule: str, np: Any) -> Any:
    """EC-017's BP of each unit in binary64 (the paper's, pycocoevalcap's or the +1 rule)."""
    one = np.ones_like(c)
    if rule == "coco":
        ratio = (c + float(COCO_TINY)) / (r + float(COCO_SMALL))
        return np.where(ratio < 1, np.exp(1 - 1 / np.where(ratio > 0, ratio, 1.0)), one)
    if rule == "plus-one":
        return np.where(c < r, np.exp(1 - (r + 1) / (c + 1)), one)
    safe = np.where(c > 0, c, 1.0)
    return np.where(c >= r, one, np.where(c > 0, np.exp(1 - r / safe), 0.0))


def macro_mean(scores: Any) -> float:
    """The mean of the units' estimates (BLEU-MACRO), summed exactly in binary64 (``math.fsum``)."""
    values = [float(x) for x in scores]
    return math.fsum(values) / len(values)
