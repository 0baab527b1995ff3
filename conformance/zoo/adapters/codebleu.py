"""codebleu 0.7.0's BLEU component served to the runner: calling conventions only.

calc_codebleu computes its n-gram match term as `bleu.corpus_bleu(tokenized_refs, tokenized_hyps)`
(codebleu/codebleu.py:56) on whitespace-split strings; this adapter makes the same call on the
runner's token lists (and bleu.sentence_bleu for one segment). Input tokens; any number of
references; corpus and sentence levels.
"""

from __future__ import annotations

from typing import Any

from codebleu import bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("codebleu 0.7.0 bleu.corpus_bleu", "tokens", ["corpus", "sentence"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(bleu.corpus_bleu(references, hypotheses))

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        return float(bleu.sentence_bleu(references, hypothesis))


ADAPTER = Adapter()
