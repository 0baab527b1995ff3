"""Deliberately broken BLEU targets: each must be caught by the invariant named beside it."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.peers.targets import Hypotheses, Outcome, References, ReferenceTarget, Tokens
from reference_bleu import Statistics, corpus_bleu, score_statistics


def _grams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


class SentenceIsCorpusOfOne:
    """Mixin: sentence BLEU is the corpus BLEU of one segment."""

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        raise NotImplementedError

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome:
        return self.corpus([hypothesis], [references])


def _closest(c: int, lengths: list[int]) -> int:
    return min(lengths, key=lambda x: (abs(x - c), x))


@dataclass(frozen=True)
class CountingTarget(SentenceIsCorpusOfOne):
    """Counts like BLEU but with a pluggable clip; scored by the reference from its statistics."""

    name: str = "counting"
    clip: str = "max"  # "max" (correct), "none" (no clipping), "sum" (sum over references)

    def _segment(self, hyp: Tokens, refs: Sequence[Tokens]) -> Statistics:
        matches, totals = [], []
        for n in range(1, 5):
            counts = _grams(hyp, n)
            ref_counts = [_grams(r, n) for r in refs]
            if self.clip == "none":
                m = sum(k for g, k in counts.items() if any(g in rc for rc in ref_counts))
            elif self.clip == "sum":
                m = sum(min(k, sum(rc[g] for rc in ref_counts)) for g, k in counts.items())
            else:
                m = sum(min(k, max(rc[g] for rc in ref_counts)) for g, k in counts.items())
            matches.append(m)
            totals.append(sum(counts.values()))
        return Statistics(tuple(matches), tuple(totals), len(hyp), _closest(len(hyp), [len(r) for r in refs]))

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        result = score_statistics([self._segment(h, r) for h, r in zip(hypotheses, references, strict=True)])
        return Outcome(
            result.score,
            result.matches,
            result.totals,
            result.hyp_len,
            result.ref_len,
            result.brevity_penalty,
        )


@dataclass(frozen=True)
class PercentTarget(SentenceIsCorpusOfOne):
    """Computes like sacrebleu in floats on a 0-100 scale, then divides by 100 (INV-RANGE)."""

    name: str = "percent-round-trip"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        r = corpus_bleu(hypotheses, references)
        if not all(r.matches) or not all(r.totals):
            return Outcome(0.0)
        logs = sum(math.log(100.0 * m / t) for m, t in zip(r.matches, r.totals, strict=True))
        bp = 1.0 if r.hyp_len >= r.ref_len else math.exp(1 - r.ref_len / r.hyp_len)
        return Outcome(bp * math.exp(logs / 4) / 100)


@dataclass(frozen=True)
class UnclippedPenaltyTarget(SentenceIsCorpusOfOne):
    """Applies exp(1 - r/c) even when c > r, so BP exceeds 1 (INV-BP)."""

    name: str = "bp-always-exp"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        r = corpus_bleu(hypotheses, references)
        bp = math.exp(1 - float(r.ref_len) / r.hyp_len) if r.hyp_len else 0.0
        return Outcome(r.score, r.matches, r.totals, r.hyp_len, r.ref_len, bp)


@dataclass(frozen=True)
class OffByOneTarget(SentenceIsCorpusOfOne):
    """Scores hypothesis i against the references of segment i - 1 (INV-SEGMENT-ORDER)."""

    name: str = "off-by-one"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        shifted = [references[i - 1] for i in range(len(references))]
        return ReferenceTarget().corpus(hypotheses, shifted)


@dataclass(frozen=True)
class ConcatenatingTarget(SentenceIsCorpusOfOne):
    """Scores the corpus as one long sentence: n-grams cross segment boundaries (INV-ADDITIVE)."""

    name: str = "concatenating"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        hyp = [t for h in hypotheses for t in h]
        ref = [t for rs in references for t in rs[0]]
        return ReferenceTarget().corpus([hyp], [[ref]])


@dataclass(frozen=True)
class CaseFoldingTarget(SentenceIsCorpusOfOne):
    """Lower-cases tokens before counting (INV-RENAME: 'The' and 'the' become one token)."""

    name: str = "case-folding"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        low = [[t.lower() for t in h] for h in hypotheses]
        low_refs = [[[t.lower() for t in r] for r in rs] for rs in references]
        return ReferenceTarget().corpus(low, low_refs)


@dataclass(frozen=True)
class SortingTarget(SentenceIsCorpusOfOne):
    """Sorts each segment's references by length in place before scoring (INV-NO-MUTATION)."""

    name: str = "sorting-in-place"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        for refs in references:
            refs.sort(key=len)  # type: ignore[attr-defined]
        return ReferenceTarget().corpus(hypotheses, references)


@dataclass(frozen=True)
class SmoothedSentenceTarget:
    """Corpus BLEU unsmoothed, sentence BLEU with exp smoothing (INV-SENTENCE)."""

    name: str = "smoothed-sentence"

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        return ReferenceTarget().corpus(hypotheses, references)

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome:
        return ReferenceTarget({"smoothing": "exp"}).corpus([hypothesis], [references])


@dataclass
class StatefulTarget(SentenceIsCorpusOfOne):
    """Alternates between two smoothing values from call to call (INV-DETERMINISM)."""

    name: str = "stateful"
    calls: list[int] = field(default_factory=list)

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        self.calls.append(1)
        epsilon = "1/10" if len(self.calls) % 2 else "1/5"
        options: dict[str, Any] = {"smoothing": "floor", "smoothing_value": epsilon}
        return ReferenceTarget(options).corpus(hypotheses, references)
