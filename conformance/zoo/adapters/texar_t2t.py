"""texar-pytorch 0.1.4 corpus_bleu_transformer (tensor2tensor's bleu_hook, copied): calling conventions only.

corpus_bleu_transformer(reference_corpus, translation_corpus) takes ONE reference token list per
translation (texar/torch/evals/bleu_transformer.py:62-93), returns BLEU x 100. Input tokens;
one reference per segment; corpus level.
"""

from __future__ import annotations

from typing import Any

from texar.torch.evals import corpus_bleu_transformer

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities(
        "texar-pytorch 0.1.4 corpus_bleu_transformer", "tokens", ["corpus"], "percent"
    )

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(corpus_bleu_transformer(single(references), hypotheses))


ADAPTER = Adapter()
