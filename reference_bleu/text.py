"""Text in the Python API: lines of text tokenized by a profile's text conventions (spec API-TEXT).

The API's native input is tokens (BLEU-INPUT). Lines of text are accepted when the caller
names how to tokenize them: a tokenizer (``tokenize="13a"``, or ``"none"`` to split on
whitespace), a case folding, or a profile, whose text conventions (``Profile.text``) then
apply as the command line applies them (TOK-PIPELINE). A line of text where a token list is
expected is an error, never a sequence of one-character tokens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reference_bleu.errors import BleuInputError, BleuOptionError
from reference_bleu.profiles import Profile
from reference_bleu.registry import PAPER_TEXT
from reference_bleu.tokenizers import line_tokenizer

#: The API's text options (TOK-PIPELINE keywords): what a profile's ``text`` holds.
TEXT_OPTIONS: tuple[str, ...] = tuple(PAPER_TEXT)


def split_text_options(options: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """The text options given among ``options`` (TOK-PIPELINE keywords), and the scoring options left."""
    text = {name: options[name] for name in TEXT_OPTIONS if name in options}
    for name, value in text.items():
        if not isinstance(value, str):
            raise BleuOptionError("API-TEXT", f"{name} must be a string, got {type(value).__name__}")
    return text, {name: value for name, value in options.items() if name not in TEXT_OPTIONS}


def text_conventions(profile: Profile | None, given: Mapping[str, str]) -> dict[str, str]:
    """The profile's text conventions (the paper's without one) with the text options ``given`` applied."""
    return {**(profile.text if profile is not None else PAPER_TEXT), **given}


def is_text(hypotheses: Sequence[object]) -> bool:
    """Whether the hypotheses are lines of text (every one a ``str``; an empty corpus is not text)."""
    return bool(hypotheses) and all(isinstance(h, str) for h in hypotheses)


def text_mode(hypotheses: Sequence[object], named: bool) -> bool:
    """API-TEXT. Whether ``hypotheses`` are read as text: lines of text with a tokenizer or profile ``named``.

    Lines of text without one are an error naming BLEU-INPUT (they would otherwise be read as
    sequences of one-character tokens); text options given with token lists are an error naming
    API-TEXT (they would be silently ignored).

    >>> text_mode(["the cat"], named=True), text_mode([["the", "cat"]], named=False)
    (True, False)
    >>> text_mode(["the cat"], named=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    reference_bleu.errors.BleuInputError: hypothesis 0 is a str (a line of text), not a sequence of ...
    """
    text = is_text(hypotheses)
    if text and not named:
        raise BleuInputError(
            "BLEU-INPUT",
            "hypothesis 0 is a str (a line of text), not a sequence of tokens: split it, or name how to "
            "tokenize it (tokenize='13a', tokenize='none' for whitespace, or a profile)",
        )
    return text


def _line(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BleuInputError(
            "API-TEXT", f"{what} is a {type(value).__name__}; with text hypotheses it must be a line of text"
        )
    return value


def tokenized_corpus(
    hypotheses: Sequence[object], references: Sequence[object], text: Mapping[str, str], start: int = 0
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """API-TEXT. Lines of text as token lists under the text conventions ``text`` (TOK-PIPELINE).

    ``references`` has one entry per hypothesis: one line of text, or a sequence of lines (one
    per reference; sacrebleu's layout, one list per reference stream, is ``list(zip(*streams))``).
    Segments are numbered from ``start`` in error messages.

    >>> tokenized_corpus(["The cat."], [["the cat !", "A cat."]], {"tokenize": "13a", "lowercase": "unicode"})
    ([['the', 'cat', '.']], [[['the', 'cat', '!'], ['a', 'cat', '.']]])
    """
    if len(hypotheses) != len(references):
        raise BleuInputError(
            "BLEU-INPUT",
            f"{len(hypotheses)} hypotheses but {len(references)} reference sets: one set per hypothesis "
            "(sacrebleu's reference streams are list(zip(*streams)))",
        )
    tokens = line_tokenizer(**text)
    hyps = [tokens(_line(h, f"hypothesis {start + i}")) for i, h in enumerate(hypotheses)]
    refs: list[list[list[str]]] = []
    for i, segment in enumerate(references, start):
        if isinstance(segment, str):
            lines: list[str] = [segment]
        elif isinstance(segment, Sequence):
            lines = [_line(r, f"reference {k} of segment {i}") for k, r in enumerate(segment)]
        else:
            raise BleuInputError(
                "API-TEXT",
                f"references of segment {i} must be a line or a list of lines, not {type(segment).__name__}",
            )
        refs.append([tokens(line) for line in lines])
    return hyps, refs
