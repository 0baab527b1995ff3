"""The API as users of sacrebleu, nltk, torchmetrics and HF evaluate write it (spec API, API-TEXT, API-METRIC).

The numbers come from sacrebleu 2.6.0 run here, or from this API's own calls written the other
way (the same corpus in the other layout, one call against a metric's batches).
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import BLEU, corpus_bleu, sentence_bleu, sentence_scores
from reference_bleu.errors import BleuInputError, BleuOptionError

UEDIN = "hyp.uedin-nmt.4722.de"


def sacrebleu_bleu(**kwargs: Any) -> Any:
    """sacrebleu 2.6.0's ``BLEU(**kwargs)``, the oracle."""
    from sacrebleu.metrics import bleu  # noqa: PLC0415 -- a test dependency, imported where used

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return bleu.BLEU(**kwargs)


#: The issue's shape: two hypotheses and two reference streams, each stream one line per hypothesis.
HYPS = ["The cat sat on the mat today.", "It is a guide to action."]
STREAMS = [
    ["The cat sat on the mat today.", "It is a guide to action that ensures."],
    ["A cat was sitting on the mat.", "It is the guiding principle."],
]


def test_references_that_read_two_ways_are_refused_naming_both_layouts_and_the_keyword() -> None:
    for call in (
        lambda: corpus_bleu(HYPS, STREAMS, profile="sacrebleu"),
        lambda: sentence_scores(HYPS, STREAMS, tokenize="13a"),
        lambda: BLEU(profile="sacrebleu").update(HYPS, STREAMS),
        lambda: BLEU(profile="sacrebleu").compute_on(HYPS, STREAMS),
    ):
        with pytest.raises(BleuInputError, match="API-TEXT") as raised:
            call()
        message = str(raised.value)
        assert "\n" not in message
        assert "references_layout='streams'" in message
        assert "references_layout='segments'" in message
        assert "sacrebleu" in message
        assert "nltk" in message


def test_sacrebleus_layout_named_gives_sacrebleus_number() -> None:
    theirs = sacrebleu_bleu().corpus_score(HYPS, STREAMS)
    ours = corpus_bleu(HYPS, STREAMS, profile="sacrebleu", references_layout="streams")
    assert ours.reported_text == theirs.format(width=1, score_only=True)
    assert abs(float(ours) - theirs.score) <= 1e-12 * theirs.score
    # The other reading of the same lists is another corpus, and another number, when asked for.
    other = corpus_bleu(HYPS, STREAMS, profile="sacrebleu", references_layout="segments")
    assert other.reported_text != ours.reported_text


@cache
def wmt(size: int) -> tuple[list[str], list[list[str]]]:
    """A WMT17 system and two reference streams: the reference and another system's output."""
    hyps = read_lines(WMT17, UEDIN)[:size]
    return hyps, [read_lines(WMT17, "ref.de")[:size], read_lines(WMT17, "hyp.KIT.4950.de")[:size]]


@pytest.mark.parametrize("lowercase", [False, True])
def test_streams_on_real_data_give_sacrebleus_number(lowercase: bool) -> None:
    hyps, streams = wmt(500)
    theirs = sacrebleu_bleu(lowercase=lowercase).corpus_score(hyps, streams)
    ours = corpus_bleu(hyps, streams, profile="sacrebleu", references_layout="streams", lowercase=lowercase)
    assert str(ours) == theirs.format(width=1)
    zipped = corpus_bleu(
        hyps, [list(z) for z in zip(*streams, strict=True)], profile="sacrebleu", lowercase=lowercase
    )
    assert zipped.statistics == ours.statistics


def test_a_stream_of_another_length_is_an_error_naming_it() -> None:
    with pytest.raises(BleuInputError, match="reference stream 1 has 1 references for 2 hypotheses"):
        corpus_bleu(HYPS, [STREAMS[0], STREAMS[1][:1]], tokenize="13a", references_layout="streams")
    with pytest.raises(BleuOptionError, match="references_layout must be"):
        corpus_bleu(HYPS, STREAMS, tokenize="13a", references_layout="nltk")


def test_lowercase_true_is_unicode_folding_as_in_sacrebleu_and_torchmetrics() -> None:
    hyps, streams = wmt(300)
    refs = streams[:1]
    assert (
        corpus_bleu(hyps, refs, profile="sacrebleu", lowercase=True, references_layout="streams").statistics
        == corpus_bleu(
            hyps, refs, profile="sacrebleu", lowercase="unicode", references_layout="streams"
        ).statistics
    )
    theirs = sacrebleu_bleu(lowercase=True).corpus_score(hyps, refs)
    assert str(corpus_bleu(hyps, refs, profile="sacrebleu", lowercase=True, references_layout="streams")) == (
        theirs.format(width=1)
    )
    assert corpus_bleu(["A B"], ["a b"], tokenize="none", lowercase=False, max_order=1).score == 0.0


def test_sentence_scores_take_text_and_a_tokenizer_as_sentence_bleu_does() -> None:
    hyps, streams = wmt(60)
    refs = [[r] for r in streams[0]]
    fast = sentence_scores(hyps, refs, tokenize="13a", lowercase=True, smoothing="exp")
    one_by_one = [
        sentence_bleu(h, r, tokenize="13a", lowercase=True, smoothing="exp").score
        for h, r in zip(hyps, refs, strict=True)
    ]
    assert fast == one_by_one
    assert sentence_scores(hyps, refs, profile="sacrebleu-sentence") == [
        sentence_bleu(h, r, profile="sacrebleu-sentence").score for h, r in zip(hyps, refs, strict=True)
    ]


def test_compute_on_scores_its_batch_alone_and_keeps_nothing() -> None:
    hyps, streams = wmt(200)
    refs = [[r] for r in streams[0]]
    metric = BLEU(profile="sacrebleu")
    metric.update(hyps[:100], refs[:100])
    batch = metric.compute_on(hyps[100:], refs[100:])
    assert batch == corpus_bleu(hyps[100:], refs[100:], profile="sacrebleu")
    assert metric.compute() == corpus_bleu(hyps[:100], refs[:100], profile="sacrebleu")


def test_merge_counts_another_metric_once_and_refuses_itself() -> None:
    hyps, streams = wmt(100)
    refs = [[r] for r in streams[0]]
    a, b = BLEU(tokenize="13a"), BLEU(tokenize="13a")
    a.update(hyps[:50], refs[:50])
    b.update(hyps[50:], refs[50:])
    with pytest.raises(BleuInputError, match="cannot merge itself"):
        a.merge(a)
    a.merge(b)
    assert a.compute() == corpus_bleu(hyps, refs, tokenize="13a")


def test_float_is_the_reported_number_and_str_the_tools_line() -> None:
    hyps, streams = wmt(3004)
    theirs = sacrebleu_bleu().corpus_score(hyps, streams[:1])
    ours = corpus_bleu(hyps, streams[:1], profile="sacrebleu", references_layout="streams")
    assert float(ours) == ours.reported
    assert abs(float(ours) - theirs.score) <= 1e-13 * theirs.score  # CONV-ARITH: an ulp apart at most
    assert str(ours) == theirs.format(width=1)  # BLEU = 28.3 59.9/34.0/21.8/14.4 (BP = 1.000 ...)
    paper = corpus_bleu([h.split() for h in hyps[:3]], [[r.split()] for r in streams[0][:3]])
    assert float(paper) == paper.score
    assert str(paper).startswith(f"BLEU = {paper.reported_text} ")
    assert len(str(paper)) < 200
