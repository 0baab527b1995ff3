"""sacrebleu-macrof 2.0.1 (a fork of sacrebleu 2.0 adding MacroF/MicroF) sacrebleu.metrics.BLEU:
calling conventions only.

BLEU() with its defaults; corpus_score(hypotheses, reference_streams) with sacrebleu's stream
layout (None where a segment has fewer references). Input text; any number of references;
corpus level.
"""

from __future__ import annotations

from sacrebleu.metrics.bleu import BLEU

from conformance.zoo.adapters._calls import capabilities, streams


class Adapter:
    capabilities = capabilities("sacrebleu-macrof 2.0.1 BLEU", "text", ["corpus"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(BLEU().corpus_score(list(hypotheses), streams(references)).score)


ADAPTER = Adapter()
