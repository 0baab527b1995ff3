"""OpenNMT-py 3.5.1 onmt.scorers.bleu.BleuScorer: calling conventions only.

BleuScorer(opts).compute_score(preds, texts_refs) takes detokenized prediction strings and ONE
reference string each (it passes `[texts_refs]`, one sacrebleu stream) and calls
sacrebleu.corpus_bleu with its defaults. opts is only stored (scorer.py:7-8). Input text; one
reference per segment; corpus level.
"""

from __future__ import annotations

from onmt.scorers.bleu import BleuScorer

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities("OpenNMT-py 3.5.1 BleuScorer", "text", ["corpus"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(BleuScorer(None).compute_score(list(hypotheses), single(references)))


ADAPTER = Adapter()
