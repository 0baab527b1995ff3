"""compare-mt 0.2.10 BleuScorer served to the runner: calling conventions only.

compare_mt.scorers.BleuScorer().score_corpus(ref, out) takes one reference sentence per output
sentence, each a token list (compare-mt splits its files on spaces before scoring), and returns
(score x 100, None). Corpus level only (score_sentence raises NotImplementedError).
"""

from __future__ import annotations

from typing import Any

from compare_mt.scorers import BleuScorer

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities("compare-mt 0.2.10 BleuScorer", "tokens", ["corpus"], "percent")

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        score, _ = BleuScorer().score_corpus(single(references), hypotheses)
        return float(score)


ADAPTER = Adapter()
