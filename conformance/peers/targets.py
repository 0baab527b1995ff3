"""Targets: anything that computes BLEU, behind one small interface (spec CONF-TARGETS).

A target scores a corpus given as token lists (one list of references per hypothesis) and
returns an :class:`Outcome`: the score in [0, 1] and, where the target exposes them, its
statistics and brevity penalty. The invariants and the differential tests are written
against this interface, so they can check any implementation: the reference under any
options, nltk, sacrebleu, or a deliberately broken target in the tests.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from reference_bleu.api import corpus_bleu, sentence_bleu

Tokens = Sequence[str]
Hypotheses = Sequence[Tokens]
References = Sequence[Sequence[Tokens]]


@dataclass(frozen=True)
class Outcome:
    """What a target returns: the score and, when exposed, the statistics behind it."""

    score: float
    matches: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    hyp_len: int | None = None
    ref_len: int | Fraction | None = None
    brevity_penalty: float | None = None

    @property
    def has_statistics(self) -> bool:
        """True when matches, totals, c and r are all exposed."""
        return None not in (self.matches, self.totals, self.hyp_len, self.ref_len)


class Target(Protocol):
    """A BLEU implementation under test (spec CONF-TARGETS)."""

    @property
    def name(self) -> str:
        """A short name for reports."""

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        """Corpus BLEU of the hypotheses against their references."""

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome | None:
        """Sentence BLEU, or None when the target has no sentence-level entry point."""


@dataclass(frozen=True)
class ReferenceTarget:
    """The reference under fixed options (``options`` are API keyword options)."""

    options: dict[str, Any] = field(default_factory=dict)
    name: str = "reference"

    @property
    def max_order(self) -> int:
        """N under these options."""
        weights = self.options.get("weights")
        return int(self.options.get("max_order") or (len(weights) if weights else 4))

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        """Corpus BLEU by :func:`reference_bleu.corpus_bleu`."""
        return _outcome(corpus_bleu(hypotheses, references, **self.options))

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome:
        """Sentence BLEU by :func:`reference_bleu.sentence_bleu`."""
        return _outcome(sentence_bleu(hypothesis, references, **self.options))


def _outcome(result: Any) -> Outcome:
    return Outcome(
        score=result.score,
        matches=result.matches,
        totals=result.totals,
        hyp_len=result.hyp_len,
        ref_len=result.ref_len,
        brevity_penalty=result.brevity_penalty,
    )


# --- peers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NltkTarget:
    """nltk's ``corpus_bleu`` (or ``sentence_bleu`` per segment), with a smoothing method 0-7."""

    method: int = 0
    auto_reweigh: bool = False
    level: str = "corpus"  # "corpus" or "sentence" (a one-segment corpus only)

    @property
    def name(self) -> str:
        """e.g. ``nltk.corpus_bleu[method3,auto_reweigh]``."""
        return f"nltk.{self.level}_bleu[{self.configuration}]"

    @property
    def configuration(self) -> str:
        """e.g. ``method3,auto_reweigh``: the options, without the entry point."""
        return f"method{self.method}" + (",auto_reweigh" if self.auto_reweigh else "")

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        """Score with nltk; lists are copied first, because nltk's smoothing mutates them."""
        from nltk.translate import bleu_score  # noqa: PLC0415 -- a peer is imported only when used

        smoothing = getattr(bleu_score.SmoothingFunction(), f"method{self.method}")
        refs = [[list(r) for r in rs] for rs in references]
        hyps = [list(h) for h in hypotheses]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if self.level == "sentence":
                (hyp,) = hyps
                score = bleu_score.sentence_bleu(
                    refs[0], hyp, smoothing_function=smoothing, auto_reweigh=self.auto_reweigh
                )
            else:
                score = bleu_score.corpus_bleu(
                    refs, hyps, smoothing_function=smoothing, auto_reweigh=self.auto_reweigh
                )
        return Outcome(score=float(score))

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome:
        """nltk's ``sentence_bleu``."""
        return NltkTarget(self.method, self.auto_reweigh, "sentence").corpus([hypothesis], [references])


def reference_streams(references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """sacrebleu's layout of references: one stream per position, None where a segment has fewer."""
    width = max((len(rs) for rs in references), default=0)
    return [[rs[k] if k < len(rs) else None for rs in references] for k in range(width)]


@dataclass(frozen=True)
class SacrebleuTarget:
    """sacrebleu's ``BLEU`` with ``tokenize='none'``: tokens joined by single spaces."""

    smooth_method: str = "none"
    smooth_value: float | None = None
    effective_order: bool = False
    level: str = "corpus"
    max_ngram_order: int = 4

    @property
    def name(self) -> str:
        """e.g. ``sacrebleu.corpus_score[exp,eff]``."""
        return f"sacrebleu.{self.level}_score[{self.configuration}]"

    @property
    def configuration(self) -> str:
        """e.g. ``floor=0.1,eff``: the options, without the entry point."""
        value = "" if self.smooth_value is None else f"={self.smooth_value}"
        return self.smooth_method + value + (",eff" if self.effective_order else "")

    def _metric(self) -> Any:
        from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415 -- a peer is imported only when used

        logging.getLogger("sacrebleu").setLevel(logging.ERROR)
        return BLEU(
            tokenize="none",
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=self.max_ngram_order,
        )

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        """Score with sacrebleu; a segment with fewer references is padded with None."""
        metric = self._metric()
        streams = reference_streams([[" ".join(r) for r in rs] for rs in references])
        hyps = [" ".join(h) for h in hypotheses]
        if self.level == "sentence":
            (hyp,) = hyps
            result = metric.sentence_score(hyp, [s[0] for s in streams])
        else:
            result = metric.corpus_score(hyps, streams)
        return Outcome(
            score=result.score / 100,
            matches=tuple(result.counts),
            totals=tuple(result.totals),
            hyp_len=result.sys_len,
            ref_len=result.ref_len,
            brevity_penalty=result.bp,
        )

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome:
        """sacrebleu's ``sentence_score``."""
        return SacrebleuTarget(
            self.smooth_method, self.smooth_value, self.effective_order, "sentence", self.max_ngram_order
        ).corpus([hypothesis], [references])
