"""Sufficient statistics: everything BLEU needs from a corpus, as an additive value (spec BLEU-STATS).

Per order n, the clipped matches Σ Count_clip and the candidate n-gram total Σ Count;
then c and r. Corpus statistics are the sum of segment statistics (BLEU-CORPUS), which
makes streaming, parallel and merged scoring exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reference_bleu.errors import BleuInputError
from reference_bleu.formulas.combination import MAX_ORDER
from reference_bleu.formulas.counting import (
    NGramCounts,
    Sentence,
    corpus_modified_precision,
    modified_precision,
)
from reference_bleu.formulas.length import (
    Length,
    RefLengthRule,
    best_match_length,
    candidate_length,
    effective_reference_length,
)
from reference_bleu.formulas.numbers import exact_number

#: Bounds on statistics read from outside (spec BLEU-STATS): a count fits a signed 64-bit integer.
MAX_COUNT = 2**63 - 1
#: Orders a statistics object may carry: N, and one more for the smoothings that read order N + 1.
MAX_STATISTICS_ORDERS = MAX_ORDER + 1


@dataclass(frozen=True)
class Statistics:
    """Immutable sufficient statistics; ``a + b`` is the statistics of both corpora.

    ``matches[n-1]`` and ``totals[n-1]`` are the clipped matches and candidate n-grams of
    order n; ``hyp_len`` is c; ``ref_len`` is r (a Fraction only under ``average``, EC-001).
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_len: Length

    def __post_init__(self) -> None:
        if len(self.matches) != len(self.totals):
            raise BleuInputError("BLEU-STATS", "matches and totals must have one entry per order")
        if any(not 0 <= m <= t for m, t in zip(self.matches, self.totals, strict=True)):
            raise BleuInputError("BLEU-STATS", "every order needs 0 <= matches <= totals")
        if self.hyp_len < 0 or self.ref_len < 0:
            raise BleuInputError("BLEU-STATS", "lengths must not be negative")

    @classmethod
    def zero(cls, orders: int) -> Statistics:
        """The statistics of the empty corpus: the neutral element of ``+``."""
        return cls((0,) * orders, (0,) * orders, 0, 0)

    def __add__(self, other: Statistics) -> Statistics:
        if not isinstance(other, Statistics):
            return NotImplemented
        return corpus_statistics([self, other], len(self.matches))

    @property
    def counts(self) -> tuple[NGramCounts, ...]:
        """The (matches, total) pair of each order."""
        return tuple(NGramCounts(m, t) for m, t in zip(self.matches, self.totals, strict=True))

    def truncated(self, orders: int) -> Statistics:
        """The same statistics restricted to orders 1..``orders``."""
        return Statistics(self.matches[:orders], self.totals[:orders], self.hyp_len, self.ref_len)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; ``ref_len`` as an int, or as a "p/q" string when it is a Fraction."""
        ref_len: int | str = self.ref_len if isinstance(self.ref_len, int) else str(self.ref_len)
        return {
            "matches": list(self.matches),
            "totals": list(self.totals),
            "hyp_len": self.hyp_len,
            "ref_len": ref_len,
        }

    @classmethod
    def from_json(cls, data: Any) -> Statistics:
        """The inverse of :meth:`to_json`; anything else is a BleuInputError (spec BLEU-STATS).

        >>> Statistics.from_json({"matches": [1], "totals": [2], "hyp_len": 2, "ref_len": "5/2"})
        Statistics(matches=(1,), totals=(2,), hyp_len=2, ref_len=Fraction(5, 2))
        """
        if not isinstance(data, dict):
            raise BleuInputError("BLEU-STATS", f"statistics must be an object, not {type(data).__name__}")
        try:
            matches, totals = data["matches"], data["totals"]
            hyp_len, ref_len = data["hyp_len"], data["ref_len"]
        except KeyError as error:
            raise BleuInputError("BLEU-STATS", f"not a statistics object: no {error}") from None
        if not isinstance(matches, list) or not isinstance(totals, list):
            raise BleuInputError("BLEU-STATS", "matches and totals must be lists of counts")
        if not 1 <= len(totals) <= MAX_STATISTICS_ORDERS:
            raise BleuInputError("BLEU-STATS", f"statistics need 1..{MAX_STATISTICS_ORDERS} orders")
        counts = [*matches, *totals, hyp_len] + ([ref_len] if isinstance(ref_len, int) else [])
        if any(type(x) is not int or not 0 <= x <= MAX_COUNT for x in counts):
            raise BleuInputError("BLEU-STATS", f"counts must be integers in 0..2^63-1: {counts[:8]!r}...")
        length: Length = (
            ref_len
            if isinstance(ref_len, int)
            else exact_number(ref_len, "ref_len", "BLEU-STATS", BleuInputError)
        )
        if not 0 <= length <= MAX_COUNT:
            raise BleuInputError("BLEU-STATS", f"ref_len must lie in 0..2^63-1, got {ref_len!r}")
        return cls(tuple(matches), tuple(totals), hyp_len, normal_length(length))

    def check_consistent(self, segments: int) -> None:
        """BleuInputError unless these could be the statistics of ``segments`` segments (BLEU-STATS).

        What counting guarantees: l_1 = c; 0 <= m_n <= l_n; l_n non-increasing in n, and
        falling by at most one per segment from one order to the next (a segment of length
        c_i has max(0, c_i - n + 1) n-grams); m_n <= m_{n-1} + ... is not required (clipping
        differs per order). A file that breaks these was edited or corrupted, and its score
        would mean nothing (CLI-STATS).

        >>> Statistics((3, 1), (4, 3), 4, 5).check_consistent(1)
        >>> Statistics((3, 1), (4, 1), 4, 5).check_consistent(1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        reference_bleu.errors.BleuInputError: l_2 = 1 is not within one n-gram per segment of l_1 = 4 ...
        """
        if self.totals[0] != self.hyp_len:
            raise BleuInputError(
                "BLEU-STATS", f"hyp_len {self.hyp_len} differs from the unigram total {self.totals[0]}"
            )
        for n in range(1, len(self.totals)):
            previous, current = self.totals[n - 1], self.totals[n]
            if not previous - segments <= current <= previous:
                raise BleuInputError(
                    "BLEU-STATS",
                    f"l_{n + 1} = {current} is not within one n-gram per segment of l_{n} = {previous} "
                    f"with {segments} segment(s)",
                )


def normal_length(length: Length) -> Length:
    """An integral Fraction becomes an int, so ``ref_len`` is an int whenever it can be."""
    if isinstance(length, Fraction) and length.denominator == 1:
        return length.numerator
    return length


def segment_statistics(
    candidate: Sentence, references: Sequence[Sentence], max_order: int, ref_length: RefLengthRule
) -> Statistics:
    """BLEU-STATS. The sufficient statistics of one candidate and its references.

    Papineni et al. 2002, sec. 2.1 and 2.2.2: BLEU-PREC for n = 1..``max_order``,
    c = BLEU-LEN-C, and the best match length BLEU-LEN-BEST under the rule ``ref_length``.
    Only the segment's own references are read: no n-gram spans two segments (EC-014).

    >>> segment_statistics("it is ship".split(), ["it is a ship".split()], 2, "closest")
    Statistics(matches=(3, 1), totals=(3, 2), hyp_len=3, ref_len=4)
    """
    pairs = [modified_precision(candidate, references, n) for n in range(1, max_order + 1)]
    c = candidate_length(candidate)
    return Statistics(
        tuple(p.matches for p in pairs),
        tuple(p.total for p in pairs),
        c,
        normal_length(best_match_length(c, [len(r) for r in references], ref_length)),
    )


def corpus_statistics(segments: Iterable[Statistics], orders: int) -> Statistics:
    """BLEU-CORPUS. Corpus statistics: the sum of segment statistics. Papineni et al. 2002, sec. 2.1.1, 2.2.2.

    Each order's matches and totals are summed (BLEU-PREC-CORPUS), c is the sum of
    candidate lengths and r the sum of best match lengths (BLEU-LEN-R).

    >>> a = Statistics((17, 10), (18, 17), 18, 18)
    >>> b = Statistics((8, 1), (14, 13), 14, 16)
    >>> corpus_statistics([a, b], 2)
    Statistics(matches=(25, 11), totals=(32, 30), hyp_len=32, ref_len=34)
    """
    segments = list(segments)
    if any(len(s.matches) != orders for s in segments):
        raise BleuInputError("BLEU-STATS", f"cannot add statistics of other orders than {orders}")
    pairs = [corpus_modified_precision(s.counts[n] for s in segments) for n in range(orders)]
    return Statistics(
        tuple(p.matches for p in pairs),
        tuple(p.total for p in pairs),
        sum(s.hyp_len for s in segments),
        normal_length(effective_reference_length(s.ref_len for s in segments)),
    )
