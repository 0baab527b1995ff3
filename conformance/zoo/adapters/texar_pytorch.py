"""texar-pytorch 0.1.4 texar.torch.evals.corpus_bleu / sentence_bleu: calling conventions only.

Both take token lists (or whitespace-tokenized strings, whose brevity penalty then counts characters:
the truth in zoo.json; this adapter passes
lists) and return BLEU x 100. Input tokens; any number of references; corpus and sentence levels.
"""

from __future__ import annotations

from typing import Any

from texar.torch.evals import corpus_bleu, sentence_bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities(
        "texar-pytorch 0.1.4 corpus_bleu", "tokens", ["corpus", "sentence"], "percent"
    )

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(corpus_bleu(references, hypotheses))

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        return float(sentence_bleu(references, hypothesis))


ADAPTER = Adapter()
