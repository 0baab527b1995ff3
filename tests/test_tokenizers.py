"""Tokenizers: each rule by hand, then sacrebleu's tokenizers as the oracle on generated and
real text, every difference a registered divergence (spec 11, DIV-SACREBLEU-TOK-*)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import find, given, settings

from conformance.loader import load_tokenizer_vectors
from conformance.strategies import texts
from conformance.tokenization import TOKENIZER_REGISTRY, TokenizerDivergence, compare_tokens
from reference_bleu import BleuError
from reference_bleu.tokenizers import fold_case, tokenize_line

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

# Expected tokens worked out by hand from the rules of spec 11, one rule per case; kept as
# language-neutral vectors in conformance/tokenizer-vectors.json.
HAND_CASES = [
    (t["text"], t["tokenize"], t["lowercase"], t.get("split", "unicode"), t["tokens"])
    for t in load_tokenizer_vectors()
]


@pytest.mark.parametrize(("text", "tokenize", "lowercase", "split", "expected"), HAND_CASES)
def test_tokenizer_rule_by_hand(
    text: str, tokenize: str, lowercase: str, split: str, expected: list[str]
) -> None:
    assert tokenize_line(text, tokenize, lowercase, split) == expected


# sacrebleu has no ASCII-only case folding (spec TOK-CASE) and splits with str.split only
# (TOK-SPLIT-RULE): those cases have no oracle here.
@pytest.mark.parametrize(
    ("text", "tokenize", "lowercase", "expected"),
    [(t, k, lc, e) for t, k, lc, split, e in HAND_CASES if lc != "ascii" and split == "unicode"],
)
def test_hand_cases_agree_with_sacrebleu_or_a_registered_divergence(
    text: str, tokenize: str, lowercase: str, expected: list[str]
) -> None:
    verdict = compare_tokens(text, tokenize, lowercase)
    assert verdict.peer == expected or verdict.ok


def test_ascii_folding_is_not_unicode_folding() -> None:
    assert fold_case("ÀB", "ascii") == "Àb"
    assert fold_case("ÀB", "unicode") == "àb"


def test_unknown_tokenizer_or_case_folding_is_a_bleu_error() -> None:
    with pytest.raises(BleuError, match="spec TOK-PIPELINE"):
        tokenize_line("a", "moses")
    with pytest.raises(BleuError, match="spec TOK-CASE"):
        tokenize_line("a", "13a", "upper")


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "zh"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_tokens_equal_sacrebleus_on_generated_text(tokenize: str, lowercase: str) -> None:
    @given(texts())
    def check(text: str) -> None:
        verdict = compare_tokens(text, tokenize, lowercase)
        assert verdict.ok, (
            f"unexplained difference for {tokenize}/{lowercase} on {text!r}: ours {verdict.ours}, "
            f"sacrebleu {verdict.peer}, model {verdict.model}, entries {verdict.explained_by}"
        )

    check()


@pytest.mark.parametrize("entry", TOKENIZER_REGISTRY, ids=lambda d: d.id)
def test_each_tokenizer_divergence_reproduces_on_its_example(entry: TokenizerDivergence) -> None:
    verdict = compare_tokens(*entry.example)
    assert verdict.ours != verdict.peer, f"{entry.id} no longer reproduces"
    assert entry.id in verdict.explained_by
    assert verdict.model == verdict.peer


@pytest.mark.parametrize("entry", TOKENIZER_REGISTRY, ids=lambda d: d.id)
def test_the_generated_text_reaches_every_tokenizer_divergence(entry: TokenizerDivergence) -> None:
    _text, tokenize, lowercase = entry.example

    def shows(text: str) -> bool:
        verdict = compare_tokens(text, tokenize, lowercase)
        return verdict.ours != verdict.peer and entry.id in verdict.explained_by

    assert shows(find(texts(), shows, settings=settings(max_examples=5000, database=None)))


def _real_lines() -> list[str]:
    folder = DATA / "wmt17-en-de"
    lines = (folder / "ref.de").read_text(encoding="utf-8").split("\n")
    lines += (folder / "hyp.online-B.0.de").read_text(encoding="utf-8").split("\n")
    return lines


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "zh"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_tokens_equal_sacrebleus_on_real_text(tokenize: str, lowercase: str) -> None:
    lines = _real_lines()
    assert len(lines) > 6000
    wrong = [line for line in lines if not compare_tokens(line, tokenize, lowercase).ok]
    assert wrong == []
