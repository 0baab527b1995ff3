"""The open input model: questions beyond the runner's closed alphabet (spec CONF-OPEN).

The generators of the other checks draw tokens from small public vocabularies; real inputs carry
much more, and real implementations break on it: a token with whitespace inside (joined with
spaces and split again), a special token (``<unk>`` that never matches, ``</s>`` dropped, a token
named ``constructor`` that is a JavaScript object's own key), a second Unicode normalisation form
or a compatibility character of the same word (normalised away), case pairs beyond ASCII (folded
on one side), number-like tokens (parsed), very long tokens (truncated or hashed), a token
repeated past 255 or 65,535 times (a counter of 8 or 16 bits), lines with several sentences,
tabs, leading and trailing spaces and no-break spaces (a text target split into sentences), a
corpus beyond any common threshold (65,536 segments, over a million tokens), and, for a Python
target, a call from a worker thread or from a child forked for the question.

Each :class:`Feature` is declared once with its generator; each is applied to the hypotheses
only, the references only, or both (:data:`SIDES`), so that a transformation of one side shows.
Its questions are sent as they are made (never folded or tokenized first: a target must see the
feature) and predicted by the reference at the target's conventions on the tokens the target
should score (its tokenizer and case folding applied to both sides alike). The paper compares
tokens by exact string equality (EC-010): no normalisation, no folding, no parsing.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from conformance.runner.sizes import fresh_vocabulary

Side = Literal["hypotheses", "references", "both"]
SIDES: tuple[Side, ...] = ("hypotheses", "references", "both")
#: A question's hypotheses and references: token lists, or (``lines``) lines of text.
Corpus = tuple[list[Any], list[list[Any]]]


@dataclass(frozen=True)
class Question:
    """One question of the open input model: the feature's name, the side it was applied to, what
    it carries in words, its corpus, and whether its sentences are lines of text."""

    feature: str
    side: Side
    carries: str
    corpus: Corpus
    lines: bool = False
    #: Where a Python target is called (``thread``, ``fork``), None: as every other question.
    context: str | None = None


@dataclass(frozen=True)
class Feature:
    """CONF-OPEN. A feature of real inputs: its check row's ID and statement, the input kinds it
    applies to, the sides it is applied to, and its questions (a seeded generator)."""

    id: str
    statement: str
    inputs: tuple[str, ...]
    sides: tuple[Side, ...]
    make: Callable[[random.Random, Side], list[Question]]
    spec_ids: tuple[str, ...] = ("EC-010",)
    #: Asked at corpus level only (a corpus of real size), else at the target's level.
    corpus_only: bool = False
    #: Needs the Python harness (an execution context).
    python: bool = False


# --- building blocks -------------------------------------------------------------------------


def _sentence(rng: random.Random, vocabulary: list[str], length: int) -> list[str]:
    return [rng.choice(vocabulary) for _ in range(length)]


def _close(rng: random.Random, tokens: list[str], vocabulary: list[str]) -> list[str]:
    """A reference close to ``tokens``: one token replaced, away from the ends, so that every order
    matches in part."""
    out = list(tokens)
    if len(out) > 2:
        out[rng.randrange(1, len(out) - 1)] = rng.choice(vocabulary)
    return out


def _segments(rng: random.Random, count: int = 3, length: int = 9) -> tuple[list[list[str]], list[list[str]]]:
    """``count`` hypotheses of ``length`` plain tokens and a close reference each, over a fresh
    vocabulary of plain letters (every tokenizer keeps them whole; no case to fold)."""
    vocabulary = [w.lower() for w in fresh_vocabulary(rng, 30, 2, 6)]
    hyps = [_sentence(rng, vocabulary, length) for _ in range(count)]
    return hyps, [_close(rng, h, vocabulary) for h in hyps]


def _carrying(
    rng: random.Random,
    side: Side,
    pairs: list[tuple[str, str]],
    feature: str,
    carries: str,
) -> list[Question]:
    """A corpus whose hypotheses and references hold the words of ``pairs`` (``(form, other form)``):
    the first form on the side the feature is applied to, the second on the other (on both sides:
    the first form everywhere), each spliced in at the same place of a segment."""
    hyps, refs = _segments(rng, count=len(pairs))
    for k, (form, other) in enumerate(pairs):
        at = rng.randrange(1, len(hyps[k]) - 1)
        hyp_word = form if side in ("hypotheses", "both") else other
        ref_word = form if side in ("references", "both") else other
        hyps[k].insert(at, hyp_word)
        refs[k].insert(at, ref_word)
    return [Question(feature, side, carries, (hyps, [[r] for r in refs]))]


# --- the features ----------------------------------------------------------------------------

#: Whitespace that may sit inside a token given as a token (a token target must score it whole).
INNER_WHITESPACE = (" ", "\t", "\u00a0")


def _whitespace(rng: random.Random, side: Side) -> list[Question]:
    """Tokens with a space, a tab or a no-break space inside, where the other side has the two
    words apart: joined with spaces and split again they would match, and c would change."""
    hyps, refs = _segments(rng, count=len(INNER_WHITESPACE))
    for k, space in enumerate(INNER_WHITESPACE):
        at = rng.randrange(1, len(hyps[k]) - 2)
        joined = hyps[k][at] + space + hyps[k][at + 1]
        if side in ("hypotheses", "both"):
            hyps[k][at : at + 2] = [joined]
        if side in ("references", "both"):
            refs[k][at : at + 2] = [joined]
    carries = "tokens with a space, a tab, a no-break space inside"
    return [Question("OPEN-WHITESPACE", side, carries, (hyps, [[r] for r in refs]))]


#: Tokens with a meaning elsewhere: a model's special tokens, and names a language's object or
#: dictionary holds already (a JavaScript object's own keys, JSON's words).
SPECIAL_TOKENS = (
    "<unk>",
    "</s>",
    "<s>",
    "<pad>",
    "[UNK]",
    "[PAD]",
    "<eos>",
    "constructor",
    "toString",
    "__proto__",
    "hasOwnProperty",
    "valueOf",
    "null",
    "None",
    "NaN",
)


def _special(rng: random.Random, side: Side) -> list[Question]:
    """Special tokens as plain tokens: on one side (they match nothing: dropping them changes c or
    r) or on both, at the same places (they match: one that never matches lowers the score)."""
    hyps, refs = _segments(rng, count=5, length=8)
    for k, token in enumerate(SPECIAL_TOKENS):
        segment = k % len(hyps)
        at = rng.randrange(1, len(hyps[segment]))
        if side in ("hypotheses", "both"):
            hyps[segment].insert(at, token)
        if side in ("references", "both"):
            refs[segment].insert(at, token)
    carries = "special tokens: " + " ".join(SPECIAL_TOKENS)
    return [Question("OPEN-SPECIAL", side, carries, (hyps, [[r] for r in refs]))]


#: Words with a precomposed letter (NFC), written again decomposed (NFD).
NORMALISABLE = ("café", "naïve", "Ångström", "résumé", "việt", "한국어")


def _normalisation(rng: random.Random, side: Side) -> list[Question]:
    """The same word in NFD on one side and in NFC on the other: two strings, so no match (EC-010);
    a target that normalises Unicode matches them."""
    pairs = [(unicodedata.normalize("NFD", w), unicodedata.normalize("NFC", w)) for w in NORMALISABLE]
    return _carrying(rng, side, pairs, "OPEN-NORMALISATION", "the same words in NFD and NFC")


#: A compatibility character (a ligature, a full-width form, a superscript, a circled digit) and
#: what NFKC makes of it.
COMPATIBLE = (("ﬁne", "fine"), ("Ｔｏｋｙｏ", "Tokyo"), ("x²", "x2"), ("①", "1"), ("ℌ", "H"), ("㎏", "kg"))


def _compatibility(rng: random.Random, side: Side) -> list[Question]:
    """A compatibility character on one side, its NFKC form on the other: no match (EC-010)."""
    return _carrying(rng, side, list(COMPATIBLE), "OPEN-COMPATIBILITY", "ligatures and full-width forms")


#: Case pairs beyond ASCII: upper and lower forms whose folding differs between str.lower(),
#: str.casefold() and an ASCII-only folding.
CASE_PAIRS = (("STRASSE", "straße"), ("İstanbul", "istanbul"), ("ΣΟΦΟΣ", "σοφος"), ("Ǆemal", "ǆemal"))


def _case(rng: random.Random, side: Side) -> list[Question]:
    """Capitals beyond ASCII on one side only, or on both: a folding applied to one side only, or one
    other than the target's own, changes the matches."""
    return _carrying(rng, side, list(CASE_PAIRS), "OPEN-CASE", "capitals beyond ASCII")


#: Number-like tokens and another spelling of the same number.
NUMBERS = (("1,000", "1000"), ("3.140", "3.14"), ("٣", "3"), ("007", "7"), ("1e5", "100000"), ("½", "0.5"))


def _numbers(rng: random.Random, side: Side) -> list[Question]:
    """Number-like tokens spelt otherwise on the other side: strings, never numbers (EC-010)."""
    return _carrying(rng, side, list(NUMBERS), "OPEN-NUMBERS", "numbers spelt two ways")


def _long_tokens(rng: random.Random, side: Side) -> list[Question]:
    """Tokens of 300 to 3,000 characters that differ only in their last character from a token of the
    other side: a target that truncates or hashes a prefix matches them."""
    stem = "".join(rng.choice("abcdefghij") for _ in range(rng.randint(300, 3000)))
    pairs = [(stem + "a", stem + "b"), (stem * 2 + "c", stem * 2 + "d")]
    return _carrying(rng, side, pairs, "OPEN-LONG-TOKENS", "tokens of 300-6,000 characters")


#: Repetitions of one token within one segment, beyond the counters of 8 and 16 bits.
REPEATS = (300, 70_000)


def _repeats(rng: random.Random, side: Side) -> list[Question]:
    """One token repeated past 255 and past 65,535 times in a segment, a little fewer times in its
    reference: clipped counts of every order past what 8 or 16 bits hold."""
    questions = []
    for times in REPEATS:
        hyps, refs = _segments(rng, count=1)
        hyps[0] += ["x"] * times
        refs[0] += ["x"] * (times - 20)
        carries = f"a token repeated {times:,} times in a segment"
        questions.append(Question("OPEN-REPEATS", side, carries, (hyps, [[r] for r in refs])))
    return questions


#: The largest question: segments and tokens beyond any common threshold (a batch, a buffer, 2^16).
LARGE_SEGMENTS = 70_000
LARGE_LENGTH = 16


def _large(rng: random.Random, side: Side) -> list[Question]:
    """70,000 segments of 16 tokens (1.12 million tokens) over a vocabulary of 400 words, one close
    reference each, asked once: a target that scores only its first 4,096 or 65,536 segments, or
    overflows a buffer, answers otherwise."""
    vocabulary = fresh_vocabulary(rng, 400, 2, 7)
    hyps = [_sentence(rng, vocabulary, LARGE_LENGTH) for _ in range(LARGE_SEGMENTS)]
    refs = [[_close(rng, h, vocabulary)] for h in hyps]
    tokens = LARGE_SEGMENTS * LARGE_LENGTH
    carries = f"{LARGE_SEGMENTS:,} segments, {tokens:,} hypothesis tokens"
    return [Question("OPEN-LARGE", side, carries, (hyps, refs))]


#: Lines as real test sets have them: several sentences, a tab, leading and trailing spaces, two
#: spaces, a no-break space, a carriage return before the end.
def _lines(rng: random.Random, side: Side) -> list[Question]:
    """Lines of text with several sentences, tabs, leading and trailing spaces and no-break spaces on
    one side (the other side the same words plainly spaced), or on both: a target that splits a
    line into sentences, or keeps whitespace in its tokens, answers otherwise."""
    hyps, refs = _segments(rng, count=4, length=10)
    shapes = (
        lambda words: f"{' '.join(words[:4])}. {' '.join(words[4:7])}. {' '.join(words[7:])}.",
        lambda words: "\t".join(words[:3]) + " " + " ".join(words[3:]),
        lambda words: "  " + "  ".join(words) + "   ",
        lambda words: "\u00a0".join(words[:2]) + " " + " ".join(words[2:]),
    )
    plain = (
        lambda words: f"{' '.join(words[:4])} . {' '.join(words[4:7])} . {' '.join(words[7:])} .",
        " ".join,
        " ".join,
        " ".join,
    )
    hyp_lines = [(shapes[k] if side in ("hypotheses", "both") else plain[k])(h) for k, h in enumerate(hyps)]
    ref_lines = [[(shapes[k] if side in ("references", "both") else plain[k])(r)] for k, r in enumerate(refs)]
    carries = "several sentences, a tab, leading and trailing spaces, a no-break space"
    return [Question("OPEN-LINES", side, carries, (hyp_lines, ref_lines), lines=True)]


#: The execution contexts a Python target is asked in.
CONTEXTS = ("thread", "fork")


def _contexts(rng: random.Random, side: Side) -> list[Question]:
    """A plain corpus asked from a worker thread and from a child forked for the question: a target
    whose configuration lives in thread-local state, or that does not survive a fork, answers
    otherwise (or not at all)."""
    hyps, refs = _segments(rng, count=3)
    corpus: Corpus = (hyps, [[r] for r in refs])
    return [Question("OPEN-CONTEXT", side, f"a call from a {c}", corpus, context=c) for c in CONTEXTS]


FEATURES: tuple[Feature, ...] = (
    Feature(
        "OPEN-WHITESPACE", "a token with whitespace inside is one token", ("tokens",), SIDES, _whitespace
    ),
    Feature("OPEN-SPECIAL", "special tokens are tokens like any other", ("tokens", "text"), SIDES, _special),
    Feature(
        "OPEN-NORMALISATION",
        "two normalisation forms of a word are two tokens",
        ("tokens", "text"),
        ("hypotheses", "references"),
        _normalisation,
    ),
    Feature(
        "OPEN-COMPATIBILITY",
        "a compatibility character is not its NFKC form",
        ("tokens", "text"),
        ("hypotheses", "references"),
        _compatibility,
    ),
    Feature(
        "OPEN-CASE",
        "capitals beyond ASCII, on one side or both, are folded as the target folds both sides",
        ("tokens", "text"),
        SIDES,
        _case,
        ("EC-010", "TOK-CASE"),
    ),
    Feature(
        "OPEN-NUMBERS",
        "numbers are strings: two spellings of a number are two tokens",
        ("tokens", "text"),
        ("hypotheses", "references"),
        _numbers,
    ),
    Feature("OPEN-LONG-TOKENS", "a long token is compared whole", ("tokens", "text"), SIDES, _long_tokens),
    Feature(
        "OPEN-REPEATS",
        "a token repeated past 255 and 65,535 times is counted and clipped exactly",
        ("tokens", "text"),
        ("both",),
        _repeats,
        ("BLEU-CLIP", "BLEU-STATS"),
    ),
    Feature(
        "OPEN-LARGE",
        "a corpus of 70,000 segments and a million tokens scores as the reference's",
        ("tokens", "text"),
        ("both",),
        _large,
        ("BLEU-CORPUS",),
        corpus_only=True,
    ),
    Feature(
        "OPEN-LINES",
        "lines with several sentences, tabs and odd spaces are one segment each",
        ("text",),
        SIDES,
        _lines,
        ("TOK-PIPELINE", "CLI-FILES"),
    ),
    Feature(
        "OPEN-CONTEXT",
        "the same answer from a worker thread and after a fork",
        ("tokens", "text"),
        ("both",),
        _contexts,
        ("CONF-OPEN",),
        python=True,
    ),
)
BY_ID = {feature.id: feature for feature in FEATURES}


def questions(feature: Feature, seed: int) -> list[Question]:
    """CONF-OPEN. Every question of ``feature``, each side in turn, generated from ``seed`` (the same
    seed, the same questions)."""
    rng = random.Random(f"{seed}:{feature.id}")  # noqa: S311 -- reproducible test data, not a secret
    return [question for side in feature.sides for question in feature.make(rng, side)]
