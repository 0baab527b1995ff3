"""An independent, deliberately naive BLEU used as an oracle for the reference (spec API).

Written apart from ``reference_bleu``: it shares no code with it, counts by scanning
positions with plain lists, and evaluates the product form BP · Π p_n^{w_n} with mpmath
instead of the log form with :mod:`decimal`. It covers the defaults and the options the
random-corpus tests vary; what it does not know it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

Tokens = Sequence[str]


def _windows(tokens: Tokens, n: int) -> list[tuple[str, ...]]:
    out = []
    i = 0
    while i + n <= len(tokens):
        out.append(tuple(tokens[i + k] for k in range(n)))
        i += 1
    return out


def _occurrences(gram: tuple[str, ...], grams: list[tuple[str, ...]]) -> int:
    return sum(1 for g in grams if g == gram)


def clipped_and_total(hyp: Tokens, refs: Sequence[Tokens], n: int) -> tuple[int, int]:
    """Σ over distinct candidate n-grams of min(count in hyp, max count in one reference)."""
    hyp_grams = _windows(hyp, n)
    ref_grams = [_windows(r, n) for r in refs]
    clipped = 0
    seen: list[tuple[str, ...]] = []
    for gram in hyp_grams:
        if gram in seen:
            continue
        seen.append(gram)
        best = 0
        for grams in ref_grams:
            best = max(best, _occurrences(gram, grams))
        clipped += min(_occurrences(gram, hyp_grams), best)
    return clipped, len(hyp_grams)


def best_length(c: int, lengths: list[int], rule: str) -> Fraction:
    """The best match length under ``rule`` (sorting, not ``min`` with a key)."""
    if rule == "shortest":
        return Fraction(sorted(lengths)[0])
    if rule == "longest":
        return Fraction(sorted(lengths)[-1])
    if rule == "average":
        return Fraction(sum(lengths), len(lengths))
    if rule == "closest-first":
        best = lengths[0]
        for length in lengths[1:]:
            if abs(length - c) < abs(best - c):
                best = length
        return Fraction(best)
    ranked = sorted(lengths, key=lambda x: (abs(x - c), x if rule == "closest" else -x))
    return Fraction(ranked[0])


@dataclass
class OracleResult:
    """What the oracle computes."""

    matches: list[int]
    totals: list[int]
    c: int
    r: Fraction
    score: float


def oracle_bleu(  # noqa: PLR0912 -- one literal function on purpose
    hyps: Sequence[Tokens],
    refs: Sequence[Sequence[Tokens]],
    *,
    N: int = 4,
    weights: Sequence[Fraction] | None = None,
    ref_length: str = "closest",
    smoothing: str = "none",
    effective_order: bool = False,
) -> OracleResult:
    """Corpus BLEU: summed statistics, then BP · Π p_n^{w_n} at 60 digits with mpmath."""
    w = list(weights) if weights is not None else [Fraction(1, N)] * N
    matches = [0] * N
    totals = [0] * N
    c = 0
    r = Fraction(0)
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        for n in range(1, N + 1):
            m, t = clipped_and_total(hyp, segment_refs, n)
            matches[n - 1] += m
            totals[n - 1] += t
        c += len(hyp)
        r += best_length(len(hyp), [len(x) for x in segment_refs], ref_length)

    if effective_order:
        mass = sum(w[n] for n in range(N) if totals[n] > 0)
        w = [w[n] / mass if totals[n] > 0 and mass else Fraction(0) for n in range(N)]

    with mpmath.workdps(60):
        product = mpmath.mpf(1)
        halvings = 1
        for n in range(N):
            if w[n] == 0:
                continue
            if totals[n] == 0:  # undefined, counted as zero (the default)
                product = mpmath.mpf(0)
                continue
            m, t = matches[n], totals[n]
            if smoothing == "exp" and m == 0:
                halvings *= 2
                p = mpmath.mpf(1) / (halvings * t)
            elif smoothing == "add-one":
                p = mpmath.mpf(m + 1) / (t + 1)
            elif smoothing == "none" or m > 0:
                p = mpmath.mpf(m) / t
            else:
                raise ValueError(f"the oracle does not know smoothing {smoothing!r}")
            product *= p ** (mpmath.mpf(w[n].numerator) / w[n].denominator)
        if c == 0:
            bp = mpmath.mpf(0) if r > 0 else mpmath.mpf(1)
        elif c > r:
            bp = mpmath.mpf(1)
        else:
            bp = mpmath.exp(1 - mpmath.mpf(r.numerator) / (r.denominator * c))
        if not any(w):
            product = mpmath.mpf(0)
        score = float(bp * product)
    return OracleResult(matches, totals, c, r, score)
