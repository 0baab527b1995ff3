"""FP-TEXT: how a text target tokenizes and folds case (spec EC-010, TOK-PIPELINE)."""

from __future__ import annotations

from collections.abc import Callable

from conformance.runner.fingerprint.base import (
    Answer,
    Config,
    Convention,
    Corpus,
    Diagnostic,
    Point,
    reference_prediction,
    retokenized,
    words,
)
from reference_bleu.tokenizers import CASE_FOLDINGS, TOKENIZERS

#: Text targets (``input: "text"``) get each token list joined with spaces; these lines tell the
#: tokenizers and case foldings apart (each of the 15 pairs gives another answer vector under the
#: paper's conventions, every order matching in every line so that no zero hides a difference).
_TEXT = (
    Diagnostic("case", ([words("The Cat sat on the mat today")], [[words("the cat sat on the mat today")]])),
    Diagnostic(
        "case beyond ASCII",
        ([words("Été was hot on the beach today")], [[words("été was hot on the beach today")]]),
    ),
    Diagnostic(
        "punctuation", ([words("the cat sat on the mat today.")], [[words("the cat sat on the mat today .")]])
    ),
    Diagnostic(
        "hyphen",
        ([words("the cat-dog sat on the mat today")], [[words("the cat - dog sat on the mat today")]]),
    ),
    Diagnostic(
        "Chinese characters",
        (
            [words("我爱北京天安门 and the cat sat on it")],
            [[words("我 爱 北京 天安门 and the cat sat on it")]],
        ),
    ),
    Diagnostic("characters", ([words("the cat sat on the mat")], [[words("the cta sat on the mat")]])),
)


def _text_predictor(tokenize: str, lowercase: str) -> Callable[[Config, Corpus], Answer]:
    return lambda config, corpus: reference_prediction(config, retokenized(corpus, tokenize, lowercase))


def _text(config: Config) -> tuple[Convention, ...]:
    """Every tokenizer of chapter 11 with every case folding; whitespace splitting, no folding first."""
    return tuple(
        Convention(
            f"tokenize {tokenize}, case {lowercase}",
            _text_predictor(tokenize, lowercase),
            {},
            (),
            "TOK-PIPELINE",
            frozenset({f"tokenize:{tokenize}", f"lowercase:{lowercase}"}),
        )
        for tokenize in TOKENIZERS
        for lowercase in CASE_FOLDINGS
    )


TEXT = Point(
    "FP-TEXT",
    ("EC-010", "TOK-PIPELINE"),
    "how does a text target tokenize and fold case?",
    _TEXT,
    _text,
    input="text",
    text_axes=("tokenize", "case"),
)

#: Token targets get tokens, so tokenization is the caller's; but a tool may still fold the case
#: of the tokens it is given. Mixed-case tokens whose folding changes the matches (every order
#: matching in every line, as in FP-TEXT): none, ASCII-only and Unicode folding each give another
#: answer vector (none (x, y), ascii (1, y), unicode (1, 1)).
_CASE = (
    Diagnostic(
        "case of tokens", ([words("The Cat sat on the mat today")], [[words("the cat sat on the mat today")]])
    ),
    Diagnostic(
        "case of tokens beyond ASCII",
        ([words("Été was hot on the beach today")], [[words("été was hot on the beach today")]]),
    ),
)


def _case(config: Config) -> tuple[Convention, ...]:
    """TOK-CASE on tokens: every case folding, each token folded as given (no folding first).

    A folding's flags make later questions asked and predicted on folded tokens, as FP-TEXT's do
    (``tokenize:none`` keeps every token whole); no folding sets no text at all, so a token target
    that folds nothing is asked as before."""
    return tuple(
        Convention(
            f"case {lowercase}",
            _text_predictor("none", lowercase),
            {},
            (),
            "TOK-CASE",
            frozenset({f"lowercase:{lowercase}"} | ({"tokenize:none"} if lowercase != "none" else set())),
        )
        for lowercase in CASE_FOLDINGS
    )


CASE = Point(
    "FP-CASE",
    ("TOK-CASE",),
    "does a token target fold the case of the tokens it is given?",
    _CASE,
    _case,
    input="tokens",
    text_axes=("case",),
)
