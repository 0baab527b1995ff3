"""bleuper 0.2 served to the runner: calling conventions only.

bleuper scores one tokenized hypothesis against the reference list given to BLEU(...); it has
no corpus entry point, so this adapter serves the sentence level only. Input: token lists.
References: the tool asserts len(refs) > 1 (bleu.py:48), so a segment needs two or more.
"""

from __future__ import annotations

from bleuper import BLEU

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("bleuper 0.2", "tokens", ["sentence"])

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        return float(BLEU(references, suppress_warnings=True).compute_score(hypothesis))


ADAPTER = Adapter()
