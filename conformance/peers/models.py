"""Models of the peers: each peer's arithmetic, recomputed from the exact statistics (spec 10).

A model takes a peer's configuration and the exact per-segment statistics of a corpus (the
reference's, which the differential tests prove equal to the peer's own counts) and returns
what the peer returns: its score on the [0, 1] scale in the peer's own binary64 arithmetic,
or the name of the exception it raises. Every divergence in the registry is checked against
these models, so an entry is a tested statement about the peer, not an assertion.

A model is the reference at the peer's profile (``reference_bleu.conventions.profiles``, spec chapter 13):
the profile's evidence cites the peers' source line by line (nltk 3.10.4
``nltk/translate/bleu_score.py``, sacrebleu 2.6.0 ``sacrebleu/metrics/bleu.py``).
``reference_options`` says how the reference is configured to a peer's paper-level
conventions: a difference that remains is a divergence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.peers.targets import NltkTarget, SacrebleuTarget
from reference_bleu.conventions.profiles import Profile, resolve
from reference_bleu.conventions.space import resolve_point
from reference_bleu.errors import BleuError
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.score import score

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
        return cls(tuple(fast_statistics(hyps, refs, depth, "closest", keep_segments=True)))

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


def profile_of(target: PeerTarget) -> tuple[Profile, dict[str, Any]]:
    """The profile of ``target``'s configuration (spec CONV-PROFILES) and the options beside it."""
    if isinstance(target, NltkTarget):
        reweigh = "true" if target.auto_reweigh else "false"
        return resolve(f"nltk[method={target.method},auto_reweigh={reweigh}]"), {}
    value = "" if target.smooth_value is None else f",value={target.smooth_value!r}"
    eff = "true" if target.effective_order else "false"
    profile = resolve(f"sacrebleu[smooth={target.smooth_method},eff={eff},tokenize=none{value}]")
    return profile, {"max_order": target.max_ngram_order}


def model(target: PeerTarget, case: Case) -> PeerValue:
    """What ``target`` returns on the corpus whose statistics are ``case``: the reference at its profile.

    The peer's score on [0, 1], or the name of the exception it raises (the profile's
    ``raises``). There is no per-peer arithmetic here: every convention is computed by
    :mod:`reference_bleu` at the profile's point (spec chapter 13).
    """
    profile, extra = profile_of(target)
    point = resolve_point(profile, extra)
    segments = [s.truncated(point.options.statistics_orders) for s in case.segments]
    try:
        return score(point, segments).score
    except BleuError as error:
        return profile.raises.get(error.spec_id, type(error).__name__)
