"""FP-BP: which brevity penalty, on which lengths (spec EC-017, CONF-FINGERPRINT).

Read from scores that are BP alone (one segment, one reference, the hypothesis a prefix of it,
every p_n = 1), which no smoothing, zero rule, early return, aggregation or reference-length
rule moves. The conventions are every value of the ``brevity_penalty`` option that these scores
tell apart (pycocoevalcap's differs from the paper's by some 1e-10 here: the verdict's search
places it), each also on lengths counted in characters: a tool that passes strings where token
lists were expected computes c and r as the lines' lengths while counting n-grams on tokens.
That is no convention of the spec but a bug, named so that the report says it ("BP lengths are
not token counts") instead of a wrong placement or a misread scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from conformance.runner.fingerprint.base import (
    BINARY32_TOLERANCE,
    Answer,
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    agrees,
    alphabet,
    reference_prediction,
)
from conformance.suite.resolution import IN_FULL
from reference_bleu.api import corpus_bleu
from reference_bleu.conventions.options import BrevityPenaltyRule, make_options
from reference_bleu.errors import BleuError
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.evaluation import BP_FORMULAS, conventional_bp

#: Tokens of two characters (w0..w9) and of three (w10..): the lines' lengths in characters are not
#: proportional to their token counts, so no rule on characters gives a rule's answer on tokens.
_BP = (
    Diagnostic("BP alone, c=8 < r=12 tokens (23 < 37 characters)", ([alphabet(8)], [[alphabet(12)]])),
    Diagnostic("BP alone, c=5 < r=13 tokens (14 < 41 characters)", ([alphabet(5)], [[alphabet(13)]])),
)

#: The flag of a behaviour that is a bug, not a convention: its row fails, naming it (CONF-JUDGE).
BUG = "bug"


def _line_length(tokens: Sequence[str]) -> int:
    """The length in characters of the line a text target is sent: the tokens joined with spaces."""
    return len(" ".join(tokens))


def character_lengths(corpus: Corpus) -> tuple[int, int]:
    """c and r counted in characters of the lines: each segment's reference the closest in
    characters (ties to the shorter)."""
    c = r = 0
    for hypothesis, references in zip(*corpus, strict=True):
        length = _line_length(hypothesis)
        c += length
        if references:
            r += min((abs(_line_length(x) - length), _line_length(x)) for x in references)[1]
    return c, r


def _on_characters(rule: str) -> Convention:
    """The score under ``rule`` with BP taken on the lines' characters, the precisions on tokens."""

    def predict(config: Config, corpus: Corpus) -> Answer:
        try:
            result = corpus_bleu(*corpus, **{**config, "brevity_penalty": rule})
            if result.brevity_penalty == 0.0:
                return "error"  # c = 0: no character count makes this a prediction
            c, r = character_lengths(corpus)
            bp = conventional_bp(Statistics((), (), c, r), make_options(brevity_penalty=rule))
        except BleuError:
            return "error"
        return result.score / result.brevity_penalty * float(bp)

    formula = BP_FORMULAS.get(rule, rule)
    return Convention(
        f"BP lengths are not token counts: c and r fit the lines' characters ({rule}: {formula} for c < r)",
        predict,
        spec="EC-017",
        flags=frozenset({BUG}),
        tolerance=BINARY32_TOLERANCE,
    )


def _on_tokens(rule: str) -> Convention:
    options = {} if rule == "paper" else {"brevity_penalty": rule}
    return Convention(
        f"{rule}: {BP_FORMULAS.get(rule, rule)} for c < r",
        lambda config, corpus: reference_prediction(config, corpus, **options),
        options,
        spec="EC-017",
        tolerance=BINARY32_TOLERANCE,
    )


def _told_apart(config: Config) -> list[str]:
    """The values of ``brevity_penalty`` whose BP-alone scores differ from every earlier value's by
    more than a binary32 target's precision (the paper's first): predictions told apart as computed."""
    kept: list[tuple[str, list[Answer]]] = []
    for rule in get_args(BrevityPenaltyRule):
        answers = [reference_prediction(config, d.corpus, brevity_penalty=rule) for d in _BP]
        if all(
            not all(agrees(a, b, BINARY32_TOLERANCE, IN_FULL) for a, b in zip(answers, theirs, strict=True))
            for _, theirs in kept
        ):
            kept.append((rule, answers))
    return [rule for rule, _ in kept]


def _brevity(config: Config) -> tuple[Convention, ...]:
    """Each rule told apart on tokens (spec conventions), then on characters (a bug, named)."""
    rules = _told_apart(config)
    return (*(_on_tokens(rule) for rule in rules), *(_on_characters(rule) for rule in rules))


BREVITY = Point(
    "FP-BP", ("EC-017",), "which brevity penalty, on which lengths?", _BP, _brevity, axes=("brevity_penalty",)
)
