"""llm-evaluation-toolkit 0.1.1 BLEUMetric: calling conventions only.

BLEUMetric().compute(predictions, references) takes prediction strings and ONE reference string
each; returns an EvalResult whose .score is nltk's corpus BLEU. (Its constructor tries
nltk.download('punkt'), which fails quietly offline; BLEU does not use punkt.) Input text; one
reference per segment; corpus level.
"""

from __future__ import annotations

from llm_eval.metrics.bleu import BLEUMetric

from conformance.zoo.adapters._calls import capabilities, single

_METRIC = BLEUMetric()


class Adapter:
    capabilities = capabilities("llm-evaluation-toolkit 0.1.1 BLEUMetric", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(_METRIC.compute(list(hypotheses), single(references)).score)


ADAPTER = Adapter()
