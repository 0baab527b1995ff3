"""Tokenizers: each rule by hand, then sacrebleu's tokenizers as the oracle on generated and
real text, every difference a registered divergence (spec 11, DIV-SACREBLEU-TOK-*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from conformance.loader import load_tokenizer_vectors
from conformance.strategies import texts
from conformance.tokenization import TOKENIZER_REGISTRY, TokenizerDivergence, compare_tokens
from reference_bleu import BleuError
from reference_bleu.tokenizers import (
    fast_13a,
    fast_intl,
    fast_zh,
    fold_case,
    tokenize_13a,
    tokenize_intl,
    tokenize_line,
    tokenize_zh,
)
from tests.test_real_data import lines

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


# --- NUM-FAST: the fast forms give the literal rule-by-rule strings --------------------------

FAST_FORMS = [
    ("13a", fast_13a, tokenize_13a),
    ("intl", fast_intl, tokenize_intl),
    ("zh", fast_zh, tokenize_zh),
]


@pytest.mark.parametrize(("name", "fast", "literal"), FAST_FORMS, ids=[n for n, _, _ in FAST_FORMS])
@given(text=st.one_of(texts(), st.text(st.characters(exclude_categories=["Cs"]), max_size=40)))
def test_fast_tokenizers_give_the_literal_strings_on_generated_text(
    name: str, fast: Callable[[str], str], literal: Callable[[str], str], text: str
) -> None:
    assert fast(text) == literal(text), name


@pytest.mark.parametrize(("name", "fast", "literal"), FAST_FORMS, ids=[n for n, _, _ in FAST_FORMS])
def test_fast_tokenizers_give_the_literal_strings_on_all_shared_data(
    name: str, fast: Callable[[str], str], literal: Callable[[str], str]
) -> None:
    unique = {line for path in sorted(DATA.glob("*/*.*")) if path.suffix != ".md" for line in lines(path)}
    assert len(unique) > 40_000  # the 24 files of ../shared/data (MANIFEST.md)
    different = [line for line in sorted(unique) if fast(line) != literal(line)]
    assert different == [], f"{name}: {len(different)} lines differ, e.g. {different[:3]}"


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh"])
def test_scoring_uses_the_fast_forms(tokenize: str) -> None:
    line = "«Größe»: 3,5 m² — 我们在2019年 &amp; (1990-2000)."
    expected = {"13a": fast_13a, "intl": fast_intl, "zh": fast_zh}[tokenize](line).split()
    assert tokenize_line(line, tokenize) == expected
