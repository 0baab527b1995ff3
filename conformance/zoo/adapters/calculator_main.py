"""calculator-main 1.0.1 LLMAssessment.calculate_bleu: calling conventions only.

calculate_bleu(reference_texts, candidate_text) takes the tokenized references and candidate of
ONE sentence and returns four nltk sentence_bleu scores ('1-gram' to '4-gram'); this adapter
serves the fourth, the package's 4-gram BLEU (its 3-gram BLEU has weights 1/3 on orders 1-3).
Input tokens; any number of references; sentence level.
"""

from __future__ import annotations

from calculator_main.main import LLMAssessment

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("calculator-main 1.0.1 calculate_bleu (4-gram)", "tokens", ["sentence"])

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        return float(LLMAssessment.calculate_bleu(references, hypothesis)[3])


ADAPTER = Adapter()
