"""Targets that are right on most answers and wrong in one verified detail (spec CONF-ROBUST).

Each is written from its description, on the independent BLEU of tests/targets/conform.py (no
reference_bleu inside), and must be caught by the runner, the class named:

- rounding (CONF-PROTOCOL ``digits``): truncating to the declared decimal instead of rounding;
  adding 0.004 before rounding to two;
- statistics (DIFF-STATS, the verdict): a reference length r from another rule than the one behind
  the score; r + 0.4; r one too large beside a reference of more than 16 tokens; statistics
  declared and never sent;
- text (FP-TEXT): whitespace split on ASCII characters only; a 13a tokenizer that also splits
  numbers ("3.14", "1,000.5").
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from conformance.peers.targets import reference_streams
from tests.targets.conform import _score, _statistics, independent_bleu

Hyps = Sequence[Sequence[str]]
Refs = Sequence[Sequence[Sequence[str]]]


# --- rounding --------------------------------------------------------------------------------------


def truncating(hyps: Hyps, refs: Refs) -> float:
    """BLEU cut to 1 decimal (run with ``--digits 1``): 0.28 answers 0.2 where 0.3 is the rounding."""
    return math.floor(10 * independent_bleu(hyps, refs)) / 10


def biased(hyps: Hyps, refs: Refs) -> float:
    """BLEU plus 0.004, then rounded to 2 decimals (run with ``--digits 2``): 0.2871 answers 0.29."""
    return round(independent_bleu(hyps, refs) + 0.004, 2)


# --- statistics ------------------------------------------------------------------------------------


class _Statistics:
    """An adapter that declares statistics; ``stats`` gives what it sends beside the right score."""

    capabilities: ClassVar[dict[str, Any]] = {
        "name": "statistics",
        "input": "tokens",
        "levels": ["corpus"],
        "statistics": True,
    }

    def stats(self, hyps: Hyps, refs: Refs, right: dict[str, Any]) -> dict[str, Any] | None:
        return right

    def corpus(self, hyps: Hyps, refs: Refs) -> dict[str, Any]:
        right = _statistics(hyps, refs)
        sent = self.stats(hyps, refs, right)
        return {"score": _score(right)} if sent is None else {"score": _score(right), "statistics": sent}


class ShortestReferenceLength(_Statistics):
    """The score with the closest reference length (the paper's), but r sent as the sum of the
    shortest reference lengths: the statistics follow another rule than the score."""

    def stats(self, hyps: Hyps, refs: Refs, right: dict[str, Any]) -> dict[str, Any] | None:
        return {**right, "ref_len": sum(min(len(r) for r in rs) for rs in refs)}


class ReferenceLengthPlus(_Statistics):
    """The paper's score; r sent 0.4 too large."""

    def stats(self, hyps: Hyps, refs: Refs, right: dict[str, Any]) -> dict[str, Any] | None:
        return {**right, "ref_len": right["ref_len"] + 0.4}


class NeverSendsStatistics(_Statistics):
    """Declares statistics (``"statistics": true``) and never sends them."""

    def stats(self, hyps: Hyps, refs: Refs, right: dict[str, Any]) -> dict[str, Any] | None:
        return None


class LongReferenceMiscounted(_Statistics):
    """The paper's score; r sent one too large when some reference has more than 16 tokens (longer
    than the judge's generated sentences, as long as the reference-length diagnostics' 20)."""

    def stats(self, hyps: Hyps, refs: Refs, right: dict[str, Any]) -> dict[str, Any] | None:
        long = any(len(r) > 16 for rs in refs for r in rs)
        return {**right, "ref_len": right["ref_len"] + 1} if long else right


long_reference_miscounted = LongReferenceMiscounted()
shortest_reference_length = ShortestReferenceLength()
reference_length_plus = ReferenceLengthPlus()
never_sends_statistics = NeverSendsStatistics()


# --- text ------------------------------------------------------------------------------------------

#: Perl's split on a byte string: ASCII whitespace only (space, \t, \n, \v, \f, \r).
_ASCII_WHITESPACE = re.compile(r"[ \t\n\x0b\f\r]+")


def ascii_split_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The paper's BLEU on text split on ASCII whitespace only (``--input text``): a no-break space
    (U+00A0), a thin space (U+2009) or an ideographic space (U+3000) stays inside a token."""

    def split(line: str) -> list[str]:
        return [t for t in _ASCII_WHITESPACE.split(line) if t]

    return independent_bleu([split(h) for h in hyps], [[split(r) for r in rs] for rs in refs])


def space_split_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The paper's BLEU on text split at every single space, ``line.split(" ")``, as tutorial code and
    a JavaScript package do (``--input text``): two spaces make an empty token between them, and an
    empty line is one empty token."""
    return independent_bleu([h.split(" ") for h in hyps], [[r.split(" ") for r in rs] for rs in refs])


#: mteval-v13a.pl's rules as written in its source (and sacrebleu 2.6.0's tokenizer_re.py), but
#: with the period and comma split off everywhere, numbers too: "3.14" becomes "3 . 14".
_SYMBOLS = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_PERIOD_COMMA = re.compile(r"([.,])")
_DIGIT_DASH = re.compile(r"([0-9])(-)")


def _number_splitting_13a(line: str) -> list[str]:
    for old, new in (("<skipped>", ""), ("-\n", ""), ("\n", " ")):
        line = line.replace(old, new)
    for old, new in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
        line = line.replace(old, new)
    line = _SYMBOLS.sub(r" \1 ", f" {line} ")
    line = _PERIOD_COMMA.sub(r" \1 ", line)
    return _DIGIT_DASH.sub(r"\1 \2 ", line).split()


def number_splitting_13a_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """sacrebleu 2.6.0's BLEU (its defaults: exp smoothing, percent) on the tokens of a 13a tokenizer
    that splits the period and comma inside numbers too (``--input text``)."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415 -- the tool itself, on our tokens

    def joined(line: str) -> str:
        return " ".join(_number_splitting_13a(line.rstrip()))

    metric: Any = BLEU(tokenize="none")
    streams = reference_streams([[joined(r) for r in rs] for rs in refs])
    return float(metric.corpus_score([joined(h) for h in hyps], streams).score)


def lowercased_vowel_split_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The paper's BLEU on text lower-cased (Python's str.lower) and then split at spaces and after
    every "e": a case folding the registry knows beside a tokenizer no convention knows."""

    def split(line: str) -> list[str]:
        return line.lower().replace("e", "e ").split()

    return independent_bleu([split(h) for h in hyps], [[split(r) for r in rs] for rs in refs])
