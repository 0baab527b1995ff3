"""torcheval 0.0.7 bleu_score served to the runner: calling conventions only.

torcheval.metrics.functional.bleu_score(input, target, n_gram=4) takes candidate strings and,
for each, a list of reference strings; it splits them on whitespace itself. Input text;
any number of references; corpus level (a sentence is a corpus of one: no separate entry point).
"""

from __future__ import annotations

from torcheval.metrics.functional import bleu_score

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("torcheval 0.0.7 bleu_score", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(bleu_score(list(hypotheses), [list(r) for r in references], n_gram=4))


ADAPTER = Adapter()
