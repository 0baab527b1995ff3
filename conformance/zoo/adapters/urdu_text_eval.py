"""urdu-text-eval 1.0 compute_metrics(...)["bleu"]: calling conventions only.

compute_metrics(references, hypotheses) takes one reference string per hypothesis (corpus-level
WER/CER/chrF/BLEU), normalizes both sides with its default Urdu NormalizeConfig and returns a
dict whose "bleu" is sacrebleu's corpus BLEU / 100. Input text; one reference per segment;
corpus level.
"""

from __future__ import annotations

from urdu_text_eval.metrics import compute_metrics

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities("urdu-text-eval 1.0 compute_metrics bleu", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(compute_metrics(single(references), list(hypotheses))["bleu"])


ADAPTER = Adapter()
