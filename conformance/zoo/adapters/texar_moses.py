"""texar-pytorch 0.1.4 corpus_bleu_moses / sentence_bleu_moses (bundled multi-bleu.perl): calling
conventions only.

Both take hypotheses and references as token lists OR whitespace-tokenized strings (docstring,
bleu_moses.py:96-105), write them to files and run the multi-bleu.perl shipped in the wheel
(site-packages/bin/utils/multi-bleu.perl), returning its printed score (x100, 2 decimals, read
through np.float32).

The adapter passes strings (input text): with token lists, `np.size(hypotheses)` (bleu_moses.py:117)
raises ValueError on NumPy >= 1.24 whenever the hypotheses differ in length. Any number of
references (missing ones are written as empty lines); corpus and
sentence levels.
"""

from __future__ import annotations

from texar.torch.evals import corpus_bleu_moses, sentence_bleu_moses

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities(
        "texar-pytorch 0.1.4 corpus_bleu_moses", "text", ["corpus", "sentence"], "percent"
    )

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(corpus_bleu_moses([list(r) for r in references], list(hypotheses)))

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        return float(sentence_bleu_moses(list(references), hypothesis))


ADAPTER = Adapter()
