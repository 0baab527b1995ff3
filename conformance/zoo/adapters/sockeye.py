"""Sockeye 3.1.34 sockeye.evaluate.raw_corpus_bleu: calling conventions only.

raw_corpus_bleu(hypotheses, references, offset=0.1) takes hypothesis strings and ONE reference
string each (it passes `[references]`, one sacrebleu stream) and returns BLEU / 100 (unit scale);
it is what Sockeye's checkpoint decoder reports during training (checkpoint_decoder.py:185).
Input text; one reference per segment; corpus level.
"""

from __future__ import annotations

from sockeye.evaluate import raw_corpus_bleu

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities("sockeye 3.1.34 raw_corpus_bleu", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(raw_corpus_bleu(list(hypotheses), single(references)))


ADAPTER = Adapter()
