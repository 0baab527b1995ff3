"""sumeval 0.2.2 BLEUCalculator served to the runner: calling conventions only.

BLEUCalculator().bleu(summary, references) scores ONE summary (str) against its references (str
or list of str) with sacrebleu's corpus_bleu (lang="en": sacrebleu's default 13a tokenizer).
Text input, sentence level only. Several references raise EOFError in the tool itself
(metrics/bleu.py:54-56 puts them in ONE reference stream), so it serves one reference per segment.
"""

from __future__ import annotations

from sumeval.metrics.bleu import BLEUCalculator

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("sumeval 0.2.2 BLEUCalculator", "text", ["sentence"], "percent")

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        return float(BLEUCalculator().bleu(hypothesis, list(references)))


ADAPTER = Adapter()
