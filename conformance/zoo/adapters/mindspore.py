"""MindSpore 2.10.0 mindspore.train.BleuScore: calling conventions only.

BleuScore(n_gram=4).clear(); .update(candidate_corpus, reference_corpus) with token lists;
.eval() returns a NumPy float64. A fresh metric per corpus. Input tokens; any number of
references; corpus level.
"""

from __future__ import annotations

from typing import Any

from mindspore.train import BleuScore

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("mindspore 2.10.0 BleuScore", "tokens", ["corpus"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        metric = BleuScore()
        metric.clear()
        metric.update(hypotheses, references)
        return float(metric.eval())


ADAPTER = Adapter()
