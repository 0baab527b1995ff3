"""Tokenizers compared with sacrebleu's, and the divergences between them (spec 11, spec 10).

sacrebleu's tokenizers are the oracle: ``sacrebleu_tokens`` runs sacrebleu's own
preprocessing (``BLEU._preprocess_segment``: case folding, ``rstrip``, tokenizer) and
splits as its n-gram extraction does. ``compare_tokens`` sets the reference's tokens
beside them and names the registered entry that explains a difference; each entry's model
computes sacrebleu's tokens, so the entry is tested.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from conformance.peers.models import SACREBLEU_VERSION
from reference_bleu.text.tokenizers import fold_case, split_whitespace, tokenize_intl, tokenize_line


@cache
def _sacrebleu_metric(tokenize: str, lowercase: bool) -> Any:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415 -- a peer is imported only when used

    return BLEU(tokenize=tokenize, lowercase=lowercase)


def sacrebleu_tokens(text: str, tokenize: str, lowercase: str) -> list[str]:
    """sacrebleu's tokens for ``text`` (``lowercase``: "none" or "unicode", sacrebleu's ``-lc``)."""
    metric = _sacrebleu_metric(tokenize, lowercase == "unicode")
    tokens: list[str] = metric._preprocess_segment(text).split()  # the peer's own pipeline
    return tokens


@cache
def _regex_patterns() -> dict[str, Any]:
    import regex  # type: ignore[import-untyped]  # noqa: PLC0415 -- sacrebleu's dependency

    return {major: regex.compile(rf"\p{{{major}}}") for major in "PSN"}


def regex_category(char: str) -> str:
    """The major category (P, S, N or other) of ``char`` in the ``regex`` module's Unicode database."""
    for major, pattern in _regex_patterns().items():
        if pattern.fullmatch(char):
            return major + "?"
    return "X?"


def _major(char: str) -> str:
    major = unicodedata.category(char)[0]
    return major if major in "PSN" else "X"


def unicode_versions_disagree(text: str) -> bool:
    """True when some character of ``text`` is P, S or N in one database and not in the other."""
    return any(_major(c) != regex_category(c)[0] for c in set(text))


@dataclass(frozen=True)
class TokenizerDivergence:
    """A registered difference between a peer's tokens and the reference's."""

    id: str
    peer: str
    version: str
    title: str
    explanation: str
    evidence: str
    applies: Callable[[str, str, str], bool]
    model: Callable[[str, str, str], list[str]]
    example: tuple[str, str, str]  # text, tokenizer, case folding


def _intl_with_regex_database(text: str, tokenize: str, lowercase: str) -> list[str]:
    if tokenize != "intl":
        return tokenize_line(text, tokenize, lowercase)
    return split_whitespace(tokenize_intl(fold_case(text, lowercase).rstrip(), regex_category))  # type: ignore[arg-type]


TOKENIZER_REGISTRY: tuple[TokenizerDivergence, ...] = (
    TokenizerDivergence(
        id="DIV-SACREBLEU-TOK-001",
        peer="sacrebleu",
        version=SACREBLEU_VERSION,
        title="intl classifies characters by the regex module's Unicode version",
        explanation=(
            "The intl rules split on Unicode categories P, S and N. sacrebleu matches them with "
            "the third-party regex module, whose Unicode database is usually newer than the "
            "Python's unicodedata the reference uses (spec TOK-INTL): a character assigned since "
            "(an unassigned code point to the older database) is a symbol or punctuation to one "
            "and a letter-like character to the other. The tokens then differ, and with them the "
            "statistics. Pin both versions when scores must be compared across machines."
        ),
        evidence=(
            "sacrebleu/tokenizers/tokenizer_intl.py: regex.compile(r'(\\p{S})') and the \\p{P}, "
            "\\P{N} rules; Python's unicodedata.unidata_version against the regex release's"
        ),
        applies=lambda text, tokenize, _lowercase: tokenize == "intl" and unicode_versions_disagree(text),
        model=_intl_with_regex_database,
        # U+1FAE8 SHAKING FACE, assigned in Unicode 15.0: So to regex, unassigned (Cn) to Python 3.11.
        example=("ok\U0001fae8go", "intl", "none"),
    ),
)


@dataclass(frozen=True)
class TokenVerdict:
    """The reference's tokens and the peer's for one text, and the entries that explain a difference."""

    ours: list[str]
    peer: list[str]
    model: list[str] | None
    explained_by: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Equal tokens, or a difference an applicable entry's model reproduces."""
        return self.ours == self.peer or (self.model is not None and self.model == self.peer)


def compare_tokens(text: str, tokenize: str, lowercase: str) -> TokenVerdict:
    """Tokenize ``text`` with the reference and with sacrebleu, and explain any difference."""
    ours = tokenize_line(text, tokenize, lowercase)
    peer = sacrebleu_tokens(text, tokenize, lowercase)
    applicable = [d for d in TOKENIZER_REGISTRY if d.applies(text, tokenize, lowercase)]
    model = applicable[0].model(text, tokenize, lowercase) if applicable else None
    return TokenVerdict(ours, peer, model, tuple(d.id for d in applicable))
