"""crystalbleu 0.2 served to the runner: calling conventions only.

crystalbleu.corpus_bleu(list_of_references, hypotheses, ignoring=None) and
sentence_bleu(references, hypothesis) take token lists (nltk's argument order). CrystalBLEU proper
passes `ignoring`, the trivially shared n-grams of a code corpus; with the default None it is the
BLEU it was forked from. Input tokens; any number of references; corpus and sentence levels.
"""

from __future__ import annotations

from typing import Any

import crystalbleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("crystalbleu 0.2", "tokens", ["corpus", "sentence"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(crystalbleu.corpus_bleu(references, hypotheses))

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        return float(crystalbleu.sentence_bleu(references, hypothesis))


ADAPTER = Adapter()
