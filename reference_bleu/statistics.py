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

from reference_bleu.counting import (
    NGramCounts,
    Sentence,
    corpus_modified_precision,
    modified_precision,
)
from reference_bleu.errors import BleuInputError
from reference_bleu.length import (
    Length,
    RefLengthRule,
    best_match_length,
    candidate_length,
    effective_reference_length,
)


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
        try:
            matches, totals = tuple(data["matches"]), tuple(data["totals"])
            hyp_len, ref_len = data["hyp_len"], data["ref_len"]
            numbers = [*matches, *totals, hyp_len] + ([ref_len] if isinstance(ref_len, int) else [])
            if any(type(x) is not int for x in numbers):
                raise TypeError("counts must be integers")
            length: Length = ref_len if isinstance(ref_len, int) else Fraction(str(ref_len))
        except (KeyError, TypeError, ValueError) as error:
            raise BleuInputError("BLEU-STATS", f"not a statistics object: {error}") from None
        return cls(matches, totals, hyp_len, normal_length(length))


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
