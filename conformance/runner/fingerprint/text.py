"""FP-TEXT: how a text target tokenizes, folds case and splits on whitespace (spec EC-010, TOK-PIPELINE,
TOK-SPLIT-RULE)."""

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
from reference_bleu.text.tokenizers import CASE_FOLDINGS, SPLIT_RULES, TOKENIZERS, tokenize_line

#: Text targets (``input: "text"``) get each token list joined with spaces; these lines tell the
#: tokenizers, case foldings and split rules apart (each convention gives another answer vector
#: under the paper's conventions, every order matching in every line so that no zero hides a
#: difference). Each names the axis it probes, which a report names when nothing matches.
_TEXT = (
    Diagnostic(
        "lowercase",
        ([words("The Cat sat on the mat today")], [[words("the cat sat on the mat today")]]),
        "lowercase",
    ),
    Diagnostic(
        "case beyond ASCII",
        ([words("Été was hot on the beach today")], [[words("été was hot on the beach today")]]),
        "lowercase",
    ),
    # the capitals on the reference only: a folding of the hypotheses alone (or of the references
    # alone) answers one of the two lines as a folding of both does, and the other as none does
    Diagnostic(
        "capitals in the reference only",
        ([words("the cat sat on the mat today")], [[words("The Cat sat on the mat today")]]),
        "lowercase",
    ),
    Diagnostic(
        "punctuation",
        ([words("the cat sat on the mat today.")], [[words("the cat sat on the mat today .")]]),
        "tokenize",
    ),
    Diagnostic(
        "hyphen",
        ([words("the cat-dog sat on the mat today")], [[words("the cat - dog sat on the mat today")]]),
        "tokenize",
    ),
    Diagnostic(
        "Chinese characters",
        (
            [words("我爱北京天安门 and the cat sat on it")],
            [[words("我 爱 北京 天安门 and the cat sat on it")]],
        ),
        "tokenize",
    ),
    Diagnostic(
        "characters", ([words("the cat sat on the mat")], [[words("the cta sat on the mat")]]), "tokenize"
    ),
    # TOK-13A steps 5 to 7: a period or comma between digits stays ("1,000.5", "3.14"), a dash after
    # a digit is split off ("1990 - 2000"); intl keeps all three, whitespace splitting too.
    Diagnostic(
        "numbers",
        (
            [words("the cat sat on the mat and it cost 1,000.5 or 3.14 each in 1990-2000")],
            [[words("the cat sat on the mat and it cost 1 , 000 . 5 or 3 . 14 each in 1990 - 2000")]],
        ),
        "tokenize",
    ),
    # TOK-SPLIT-RULE: str.split() splits at NO-BREAK SPACE (U+00A0), IDEOGRAPHIC SPACE (U+3000) and
    # THIN SPACE (U+2009), which are Unicode White_Space; an ASCII split (space, \t, \n, \v, \f, \r:
    # Perl's) keeps them inside a token; split(" ") keeps the tab too.
    Diagnostic(
        "whitespace beyond ASCII",
        (
            [
                [
                    *words("the cat sat on the mat today and the"),
                    "dog\u00a0ran",
                    "off\u3000to",
                    "the\u2009park\tnow",
                ]
            ],
            [[words("the cat sat on the mat today and the dog ran off to the park now")]],
        ),
        "split",
    ),
)

#: The tokenizers whose tokens of the diagnostics depend on the split rule: 13a, intl and zh
#: already collapse every Unicode whitespace inside (``" ".join(line.split())``, as sacrebleu's
#: tokenizer_re.py does), so a split rule there is no convention of its own.
_SPLIT_OBSERVED = tuple(
    tokenize
    for tokenize in TOKENIZERS
    if any(
        tokenize_line(" ".join(d.corpus[0][0]), tokenize, "none", rule)
        != tokenize_line(" ".join(d.corpus[0][0]), tokenize, "none")
        for d in _TEXT
        for rule in SPLIT_RULES
    )
)


def _text_predictor(tokenize: str, lowercase: str, split: str) -> Callable[[Config, Corpus], Answer]:
    return lambda config, corpus: reference_prediction(
        config, retokenized(corpus, tokenize, lowercase, split)
    )


def _text(config: Config) -> tuple[Convention, ...]:
    """Every tokenizer of chapter 11 with every case folding, and with every split rule where the
    rule changes its tokens; whitespace splitting, no folding, ``str.split()`` first."""
    return tuple(
        Convention(
            f"tokenize {tokenize}, case {lowercase}" + ("" if split == "unicode" else f", split {split}"),
            _text_predictor(tokenize, lowercase, split),
            {},
            (),
            "TOK-PIPELINE" if split == "unicode" else "TOK-SPLIT-RULE",
            frozenset({f"tokenize:{tokenize}", f"lowercase:{lowercase}", f"split:{split}"}),
        )
        for tokenize in TOKENIZERS
        for lowercase in CASE_FOLDINGS
        for split in SPLIT_RULES
        if split == "unicode" or tokenize in _SPLIT_OBSERVED
    )


TEXT = Point(
    "FP-TEXT",
    ("EC-010", "TOK-PIPELINE"),
    "how does a text target tokenize, fold case and split on whitespace?",
    _TEXT,
    _text,
    input="text",
    text_axes=("tokenize", "lowercase", "split"),
    battery=False,  # asked on a text target's own lines; the battery's candidates score tokens
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
    # capitals on the reference only: a tool folding one side only answers this line and the first
    # as no symmetric folding does (CONF-OPEN: transformations of one side)
    Diagnostic(
        "capitals in the reference only",
        ([words("the cat sat on the mat today")], [[words("The Cat sat on the mat today")]]),
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
            _text_predictor("none", lowercase, "unicode"),
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
    text_axes=("lowercase",),
)
