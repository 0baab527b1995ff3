"""ragas 0.4.3 ragas.metrics.collections.BleuScore: calling conventions only.

BleuScore().ascore(reference=..., response=...) (async) scores one response string against one
reference string and returns a MetricResult whose .value is sacrebleu's BLEU / 100. Input text;
one reference per segment; sentence level (one sample per call).
"""

from __future__ import annotations

import asyncio

from ragas.metrics.collections import BleuScore

from conformance.zoo.adapters._calls import capabilities, single

_METRIC = BleuScore()


class Adapter:
    capabilities = capabilities("ragas 0.4.3 collections.BleuScore", "text", ["sentence"])

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        reference = single([list(references)])[0]
        return float(asyncio.run(_METRIC.ascore(reference=reference, response=hypothesis)).value)


ADAPTER = Adapter()
