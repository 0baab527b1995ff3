"""ParlAI 1.7.2 parlai.core.metrics.BleuMetric: calling conventions only.

BleuMetric.compute(guess, answers) scores one model reply against its label strings (ParlAI's
'bleu-4' per example); a report sums the per-example AverageMetrics and .value() is their mean,
which is what this adapter's corpus level does (sum of compute(...) objects). Input text; any
number of references; corpus (ParlAI's aggregate) and sentence levels.
"""

from __future__ import annotations

from parlai.core.metrics import BleuMetric

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("parlai 1.7.2 BleuMetric", "text", ["corpus", "sentence"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        total = BleuMetric(0, 0)
        for guess, answers in zip(hypotheses, references, strict=True):
            total = total + BleuMetric.compute(guess, list(answers))
        return float(total.value())

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        return float(BleuMetric.compute(hypothesis, list(references)).value())


ADAPTER = Adapter()
