"""The Python API on lines of text, and the BLEU metric object (spec API-TEXT, API-METRIC).

The oracle is sacrebleu 2.6.0 run in the test on the shipped WMT17 en-de data: its statistics
and its score for the same lines under the same tokenizer.
"""

from __future__ import annotations

import pickle
from functools import cache

import pytest
from sacrebleu.metrics.bleu import BLEU as SacreBLEU  # noqa: N811 -- ours is BLEU

from conformance.data import WMT17, read_lines
from reference_bleu import BLEU, BleuInputError, corpus_bleu, sentence_bleu

SYSTEMS = WMT17.systems[:3]


@cache
def references() -> list[str]:
    return read_lines(WMT17, "ref.de")


@cache
def system(name: str) -> list[str]:
    return read_lines(WMT17, name)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", ["13a", "intl"])
@pytest.mark.parametrize("name", SYSTEMS)
def test_text_gives_sacrebleus_statistics_and_score(name: str, tokenize: str, lowercase: bool) -> None:
    hyps, refs = system(name), references()
    expected = SacreBLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, [refs])
    profile = f"sacrebleu[lc={'true' if lowercase else 'false'}]"
    ours = corpus_bleu(hyps, refs, profile=profile, tokenize=tokenize)
    assert list(ours.matches) == expected.counts
    assert list(ours.totals) == expected.totals
    assert (ours.hyp_len, ours.ref_len) == (expected.sys_len, expected.ref_len)
    assert ours.reported == pytest.approx(expected.score, rel=1e-13)
    assert ours.reported_text == f"{expected.score:.1f}"
    # The same text options without a profile: the paper's scoring of the same statistics.
    plain = corpus_bleu(
        hyps, [[r] for r in refs], tokenize=tokenize, lowercase="unicode" if lowercase else "none"
    )
    assert (plain.matches, plain.totals, plain.hyp_len) == (ours.matches, ours.totals, ours.hyp_len)


def test_the_metric_over_chunks_gives_one_calls_statistics_and_score() -> None:
    hyps, refs = system(SYSTEMS[0]), references()
    expected = SacreBLEU(tokenize="13a").corpus_score(hyps, [refs])
    metric = BLEU(profile="sacrebleu")
    for start in range(0, len(hyps), 700):
        metric.update(hyps[start : start + 700], refs[start : start + 700])
    result = metric.compute()
    assert list(result.matches) == expected.counts
    assert list(result.totals) == expected.totals
    assert result.reported_text == f"{expected.score:.1f}"
    assert result == corpus_bleu(hyps, refs, profile="sacrebleu")


def test_merged_metrics_equal_one_metric_and_survive_pickling() -> None:
    hyps, refs = system(SYSTEMS[1]), references()
    half = len(hyps) // 2
    first, second = BLEU(tokenize="intl"), BLEU(tokenize="intl")
    first.update(hyps[:half], refs[:half])
    second.update(hyps[half:], refs[half:])
    shipped = pickle.loads(pickle.dumps(second))  # noqa: S301 -- our own bytes
    first.merge(shipped)
    whole = BLEU(tokenize="intl")
    whole.update(hyps, refs)
    assert first.state == whole.state
    assert first.compute() == whole.compute()
    state = whole.state
    assert state is not None
    assert all(type(x) is int for x in (*state.matches, *state.totals, state.hyp_len))


def test_sentence_bleu_on_text_gives_sacrebleus_sentence_scores() -> None:
    hyps, refs = system(SYSTEMS[2])[:40], references()[:40]
    tool = SacreBLEU(effective_order=True)
    for hyp, ref in zip(hyps, refs, strict=True):
        expected = tool.sentence_score(hyp, [ref])
        ours = sentence_bleu(hyp, ref, profile="sacrebleu-sentence")
        assert list(ours.matches) == expected.counts
        assert ours.reported == pytest.approx(expected.score, rel=1e-13, abs=1e-13)


def test_a_profiles_text_conventions_apply_to_text_and_not_to_tokens() -> None:
    # 13a splits "sat." into "sat" "."; lowercase folds "The". By hand: hypothesis tokens
    # the cat sat . (c = 4) against the cat sat . : every n-gram matches, BLEU = 1.
    text = corpus_bleu(["The cat sat."], ["the cat sat ."], profile="sacrebleu[lc=true]")
    assert (text.matches, text.hyp_len, text.reported_text) == ((4, 3, 2, 1), 4, "100.0")
    # The same profile given tokens scores the tokens as they are: "The" is not "the" and
    # "sat." is not "sat", so only "cat" matches.
    tokens = corpus_bleu(
        [["The", "cat", "sat."]], [[["the", "cat", "sat", "."]]], profile="sacrebleu[lc=true]"
    )
    assert tokens.matches == (1, 0, 0, 0)


def test_a_line_of_text_where_tokens_are_expected_is_an_error_never_characters() -> None:
    with pytest.raises(BleuInputError, match="hypothesis 0 is a str") as caught:
        sentence_bleu("the cat sat", ["the cat sat"])
    assert caught.value.spec_id == "BLEU-INPUT"
    with pytest.raises(BleuInputError, match="name how to tokenize"):
        corpus_bleu(["the cat sat"], [["the cat sat"]])
    with pytest.raises(BleuInputError, match="name how to tokenize"):
        BLEU().update(["the cat sat"], [["the cat sat"]])
    with pytest.raises(BleuInputError, match="hypotheses must be a sequence, got str"):
        corpus_bleu("the cat sat", ["the cat sat"], tokenize="13a")
    with pytest.raises(BleuInputError, match="reference 0 of segment 0 is a list") as caught:
        corpus_bleu(["the cat"], [[["the", "cat"]]], tokenize="13a")
    assert caught.value.spec_id == "API-TEXT"
    with pytest.raises(BleuInputError, match="tokenize applies to lines of text") as caught:
        corpus_bleu([["the", "cat"]], [[["the", "cat"]]], tokenize="13a")
    assert caught.value.spec_id == "API-TEXT"
    with pytest.raises(BleuInputError, match="tokenize applies to lines of text"):
        BLEU(tokenize="13a").update([["the", "cat"]], [[["the", "cat"]]])


def test_metrics_counted_under_other_conventions_do_not_merge() -> None:
    a, b = BLEU(tokenize="13a"), BLEU(tokenize="intl")
    a.update(["a b"], ["a b"])
    b.update(["a b"], ["a b"])
    with pytest.raises(BleuInputError, match="tokenize is '13a' here and 'intl' there") as caught:
        a.merge(b)
    assert caught.value.spec_id == "NUM-PARTIAL"
    tokens = BLEU()
    tokens.update([["a", "b"]], [[["a", "b"]]])
    with pytest.raises(BleuInputError, match="input is 'text' here and 'tokens' there"):
        a.merge(tokens)


def test_an_empty_metric_is_an_empty_corpus() -> None:
    with pytest.raises(BleuInputError) as caught:
        BLEU(tokenize="13a").compute()
    assert caught.value.spec_id == "EC-012"
    assert BLEU(profile="torchmetrics").compute().score == 0.0  # its empty_corpus is zero


def test_a_generator_of_lines_is_read_once_as_text() -> None:
    # By hand: "The cat ." against itself under 13a, N = 2: p_1 = 3/3, p_2 = 2/2, BP = 1.
    lines = (line for line in ["The cat."])
    result = corpus_bleu(lines, [["The cat."]], tokenize="13a", max_order=2)
    assert (result.matches, result.totals, result.score) == ((3, 2), (3, 2), 1.0)
