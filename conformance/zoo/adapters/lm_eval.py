"""lm-evaluation-harness (lm_eval 0.4.13) lm_eval.api.metrics.bleu: calling conventions only.

bleu(items) is the corpus aggregation of the 'bleu' metric: items is a list of (references,
prediction) pairs, the references a list of strings per prediction (what bleu_fn passes through,
metrics.py:382-383). Input text; references: any number per segment is accepted, but the tool
keeps only as many as the segment with the fewest has (the truth in zoo.json); corpus level.
"""

from __future__ import annotations

from lm_eval.api.metrics import bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("lm_eval 0.4.13 bleu", "text", ["corpus"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(bleu([(list(r), h) for h, r in zip(hypotheses, references, strict=True)]))


ADAPTER = Adapter()
