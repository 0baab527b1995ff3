"""Differential tests, part 2: sacrebleu's scores against the reference, every difference
explained by a registered divergence whose model reproduces sacrebleu's output (spec 10)."""

from __future__ import annotations

import pytest
from hypothesis import given

from conformance import divergences
from conformance.divergences import REGISTRY, SACREBLEU_CONFIGS, Divergence, compare
from conformance.strategies import corpora
from conformance.targets import SacrebleuTarget

Corpus = tuple[list[list[str]], list[list[list[str]]]]


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda d: d.id)
def test_each_divergence_reproduces_on_its_minimal_example(entry: Divergence) -> None:
    verdict = compare(entry.example_target, entry.example)
    assert not verdict.agree, f"{entry.id} no longer reproduces: the peer now agrees with the reference"
    assert entry.id in verdict.explained_by
    assert divergences.close(verdict.model, verdict.peer), "the entry's model does not reproduce the peer"


@pytest.mark.parametrize("target", SACREBLEU_CONFIGS, ids=lambda t: t.name)
def test_sacrebleu_agrees_or_a_registered_divergence_explains_it(target: SacrebleuTarget) -> None:
    @given(corpora())
    def check(corpus: Corpus) -> None:
        verdict = compare(target, corpus)
        assert verdict.ok, (
            f"unexplained difference for {target.name} on {corpus}: sacrebleu {verdict.peer!r}, "
            f"reference {verdict.reference!r}, model {verdict.model!r}, entries {verdict.explained_by}"
        )

    check()


@pytest.mark.parametrize("target", SACREBLEU_CONFIGS, ids=lambda t: t.name)
def test_the_sacrebleu_model_reproduces_sacrebleu_everywhere(target: SacrebleuTarget) -> None:
    # The model is the peer's arithmetic on the exact statistics: it must match even where
    # the peer agrees with the reference, or the registry's explanations would be luck.
    @given(corpora())
    def check(corpus: Corpus) -> None:
        verdict = compare(target, corpus)
        assert divergences.close(verdict.model, verdict.peer), (corpus, verdict)

    check()


def test_the_generated_divergence_chapter_is_up_to_date() -> None:
    assert divergences.main([]) == 0, "run: python -m conformance.divergences --write"
