"""Tokenizers: each rule by hand, then sacrebleu's tokenizers as the oracle on generated and
real text, every difference a registered divergence (spec 11, DIV-SACREBLEU-TOK-*)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from conformance.data import plain_root
from conformance.peers.tokenization import (
    TOKENIZER_REGISTRY,
    TokenizerDivergence,
    compare_tokens,
    sacrebleu_tokens,
)
from conformance.suite.loader import load_tokenizer_vectors
from conformance.suite.strategies import texts
from reference_bleu import BleuError
from reference_bleu.text.tokenizers import (
    MECAB,
    SGML_TOKENIZERS,
    fast_13a,
    fast_intl,
    fast_sgml,
    fast_zh,
    fold_case,
    tokenize_13a,
    tokenize_intl,
    tokenize_line,
    tokenize_sgml,
    tokenize_zh,
)
from tests.test_real_data import lines

DATA = plain_root()  # the shipped test sets, decompressed (conformance/data/README.md)

# Expected tokens worked out by hand from the rules of spec 11, one rule per case; kept as
# language-neutral vectors in conformance/suite/tokenizer-vectors.json.
HAND_CASES = [
    (
        t["text"],
        t["tokenize"],
        t["lowercase"],
        (t.get("split", "unicode"), t.get("case_order", "before")),
        t["tokens"],
    )
    for t in load_tokenizer_vectors()
]


@pytest.mark.parametrize(("text", "tokenize", "lowercase", "conventions", "expected"), HAND_CASES)
def test_tokenizer_rule_by_hand(
    text: str, tokenize: str, lowercase: str, conventions: tuple[str, str], expected: list[str]
) -> None:
    if tokenize in MECAB:  # MeCab's output, not a rule: the case needs the extra
        pytest.importorskip(MECAB[tokenize].binding, reason="the mecab extra is not installed")
    assert tokenize_line(text, tokenize, lowercase, *conventions) == expected


# sacrebleu has no ASCII-only case folding (spec TOK-CASE), splits with str.split only
# (TOK-SPLIT-RULE), folds before tokenizing and reads plain text, not SGML: torchmetrics, which
# folds after, is the oracle of those cases (below); the mteval scripts' runs, of the SGML ones
# (tests/test_profiles.py); the others have none here.
@pytest.mark.parametrize(
    ("text", "tokenize", "lowercase", "expected"),
    [
        (t, k, lc, e)
        for t, k, lc, conventions, e in HAND_CASES
        if lc != "ascii" and conventions == ("unicode", "before") and k not in SGML_TOKENIZERS
    ],
)
def test_hand_cases_agree_with_sacrebleu_or_a_registered_divergence(
    text: str, tokenize: str, lowercase: str, expected: list[str]
) -> None:
    if tokenize in MECAB:
        pytest.importorskip(MECAB[tokenize].binding, reason="the mecab extra is not installed")
    verdict = compare_tokens(text, tokenize, lowercase)
    assert verdict.peer == expected or verdict.ok


@pytest.mark.parametrize(
    ("text", "tokenize", "lowercase", "expected"),
    [(t, k, lc, e) for t, k, lc, conventions, e in HAND_CASES if conventions[1] == "after"],
)
def test_case_order_after_cases_agree_with_torchmetrics(
    text: str, tokenize: str, lowercase: str, expected: list[str]
) -> None:
    module = pytest.importorskip(
        "torchmetrics.functional.text.sacre_bleu", reason="the torchmetrics extra is not installed"
    )
    theirs = module._SacreBLEUTokenizer.tokenize(text, tokenize, lowercase=lowercase == "unicode")
    assert list(theirs) == expected


def test_ascii_folding_is_not_unicode_folding() -> None:
    assert fold_case("ÀB", "ascii") == "Àb"
    assert fold_case("ÀB", "unicode") == "àb"


@given(st.text(st.characters(), max_size=40))
def test_ascii_folding_maps_a_to_z_and_nothing_else(text: str) -> None:
    """TOK-CASE's ascii: A-Z to a-z, every other code point as it is (lone surrogates included)."""
    expected = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
    assert fold_case(text, "ascii") == expected


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
    ("13a-sgml", functools.partial(fast_sgml, rules="13a"), functools.partial(tokenize_sgml, rules="13a")),
    ("intl-sgml", functools.partial(fast_sgml, rules="intl"), functools.partial(tokenize_sgml, rules="intl")),
]


@pytest.mark.parametrize(("name", "fast", "literal"), FAST_FORMS, ids=[n for n, _, _ in FAST_FORMS])
@given(text=st.one_of(texts(), st.text(st.characters(exclude_categories=["Cs"]), max_size=40)))
def test_fast_tokenizers_give_the_literal_strings_on_generated_text(
    name: str, fast: Callable[[str], str], literal: Callable[[str], str], text: str
) -> None:
    assert fast(text) == literal(text), name


@pytest.mark.slow  # every line of the shipped test sets through both forms: intl 14 s of CPU
@pytest.mark.parametrize(("name", "fast", "literal"), FAST_FORMS, ids=[n for n, _, _ in FAST_FORMS])
def test_fast_tokenizers_give_the_literal_strings_on_all_shared_data(
    name: str, fast: Callable[[str], str], literal: Callable[[str], str]
) -> None:
    unique = {line for path in sorted(DATA.glob("*/*.*")) if path.suffix != ".md" for line in lines(path)}
    assert len(unique) > 40_000  # the 24 files of conformance/data (README.md there)
    different = [line for line in sorted(unique) if fast(line) != literal(line)]
    assert different == [], f"{name}: {len(different)} lines differ, e.g. {different[:3]}"


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh"])
def test_scoring_uses_the_fast_forms(tokenize: str) -> None:
    line = "«Größe»: 3,5 m² — 我们在2019年 &amp; (1990-2000)."
    expected = {"13a": fast_13a, "intl": fast_intl, "zh": fast_zh}[tokenize](line).split()
    assert tokenize_line(line, tokenize) == expected


# --- TOK-MECAB: MeCab with sacrebleu's pinned dictionaries (the mecab extra) -------------------

#: Words and punctuation of Japanese and Korean, so MeCab segments real morphology; mixed with
#: the generic pieces (ASCII, digits, Unicode spaces and arbitrary characters).
MECAB_PIECES = (
    "今日は", "いい", "天気", "ですね", "。", "、", "東京都", "に", "行きました", "カタカナ", "ｶﾀｶﾅ",
    "１２３", "「引用」", "안녕하세요", "반갑습니다", "한국어", "형태소", "분석기", "입니다", ".", " ", "\u3000",
    "A", "Ｂ", "2019年", "?", "!",
)  # fmt: skip


def mecab_texts() -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(MECAB_PIECES), texts(3))
    return st.lists(piece, max_size=10).map("".join)


@pytest.mark.parametrize("tokenize", ["ja-mecab", "ko-mecab"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_mecab_tokens_equal_sacrebleus(tokenize: str, lowercase: str) -> None:
    pytest.importorskip(
        "MeCab" if tokenize == "ja-mecab" else "mecab_ko", reason="the mecab extra is not installed"
    )

    @given(mecab_texts())
    def check(text: str) -> None:
        ours = tokenize_line(text, tokenize, lowercase)
        assert ours == sacrebleu_tokens(text, tokenize, lowercase), text

    check()
    # A sentence segmented by hand from IPAdic's and mecab-ko-dic's entries (MeCab's wakati output).
    sentence, expected = {
        "ja-mecab": ("今日はいい天気ですね。", ["今日", "は", "いい", "天気", "です", "ね", "。"]),
        "ko-mecab": ("안녕하세요 반갑습니다.", ["안녕", "하", "세요", "반갑", "습니다", "."]),
    }[tokenize]
    assert tokenize_line(sentence, tokenize, lowercase) == expected


def test_a_missing_mecab_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from reference_bleu.text import tokenizers  # noqa: PLC0415

    # the tagger and the line tokenizer are cached per process: a test that tokenized Japanese
    # before (with the mecab extra installed) left both built
    tokenizers._mecab_tagger.cache_clear()
    tokenizers.line_tokenizer.cache_clear()
    monkeypatch.setitem(
        tokenizers.MECAB, "ja-mecab", tokenizers.MecabSetup("no_such_module", "ipadic", 1, "Japanese")
    )
    with pytest.raises(BleuError, match=r"reference-bleu\[mecab\].*spec TOK-MECAB"):
        tokenize_line("今日", "ja-mecab")
    tokenizers._mecab_tagger.cache_clear()
    tokenizers.line_tokenizer.cache_clear()
