"""texar-pytorch 0.1.4 texar.torch.evals.corpus_bleu / sentence_bleu fed strings: calling conventions only.

The same functions as the texar-pytorch entry, given whitespace-tokenized strings, which their
docstrings allow (bleu.py:84-91): "a string containing tokenized tokens separated with
whitespaces". Input text; any number of references; corpus and sentence levels; BLEU x 100.
"""

from __future__ import annotations

from texar.torch.evals import corpus_bleu, sentence_bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities(
        "texar-pytorch 0.1.4 corpus_bleu on strings", "text", ["corpus", "sentence"], "percent"
    )

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(corpus_bleu([list(r) for r in references], list(hypotheses)))

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        return float(sentence_bleu(list(references), hypothesis))


ADAPTER = Adapter()
